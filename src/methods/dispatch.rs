//! Running a collision test by a chosen method: the pipeline's setup, then the method's own
//! look at the planes.

use crate::geom::rect::PixelRect;
use crate::methods::radial::RadialProfile;
use crate::methods::scans::{incremental_scan, linear_overlap, linear_scan, mask_overlap, sampled_scan};
use crate::methods::summed_area::SummedAreas;
use crate::query::pipeline::{PairRequest, Planes};
use crate::{Collision, CollisionOptions, Error, Method, NodeId, RadialOptions, Result, Stage};

/// Bytes per window pixel of the methods on whole planes, for [`crate::DENSE_BYTES`]: the
/// two alpha planes; with their bit masks (two bits, rounded up to a byte); with two
/// summed-area tables of u32.
const PLANE_BYTES: u64 = 2;
const BITMASK_BYTES: u64 = 3;
const SUMMED_AREA_BYTES: u64 = 10;

/// What one yes-or-no test did, for comparing methods ([`Stage::collides_probe`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Probe {
    /// The answer.
    pub hit: bool,
    /// How much work the test did, in the method's unit: pixel pairs compared for the
    /// scans and [`Method::Sampled`]; the window's pixels for [`Method::Exact`] and
    /// [`Method::FlashPipeline`], which always cover the whole window; 64-pixel word pairs
    /// for [`Method::Bitmask`]; rectangles looked up for [`Method::SummedArea`]; directions
    /// for [`Method::Radial`]. 0 when the bounds alone decided.
    pub visited: u64,
}

/// Collision tests by a chosen method.
impl Stage {
    /// Whether `a` and `b` collide in `parent`'s pixel grid, tested with `method`, at this
    /// tolerance and with anti-aliasing (see [`Stage::collides_with`] for every option).
    ///
    /// # Errors
    ///
    /// As [`Stage::collision_rect`]: [`Error::NotDescendant`] when `a` or `b` is not inside
    /// `parent`, [`Error::StaleNode`], [`Error::NonFinite`], [`Error::PixelBudget`] when
    /// the window (or, for [`Method::Radial`], a target's own raster) is larger than the
    /// default budget.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Method, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let a = stage.add_container(root)?;
    /// stage.add_graphic(a, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let b = stage.add_container(root)?;
    /// stage.add_graphic(b, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_x(b, 12.0)?;
    /// stage.set_y(b, 5.0)?;
    /// for m in [Method::Exact, Method::Bitmask, Method::SummedArea, Method::Sampled { n: 2 }] {
    ///     assert!(stage.collides(a, b, root, 255, m)?);
    /// }
    /// stage.set_x(b, 16.0)?;
    /// assert!(!stage.collides(a, b, root, 255, Method::IncrementalScan)?);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn collides(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        tolerance: u8,
        method: Method,
    ) -> Result<bool> {
        let opts = CollisionOptions::default().tolerance(tolerance);
        self.collides_with(a, b, parent, &opts, method)
    }

    /// [`Stage::collides`] with every option of [`CollisionOptions`].
    ///
    /// # Errors
    ///
    /// As [`Stage::collides`], with the budget of `opts.max_pixels`.
    pub fn collides_with(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        method: Method,
    ) -> Result<bool> {
        Ok(self.run_method(a, b, parent, opts, method, false)?.hit)
    }

    /// [`Stage::collides_with`], also telling how much work the method did (docs/methods.md's
    /// table of visited pixel pairs comes from this).
    ///
    /// # Errors
    ///
    /// As [`Stage::collides_with`].
    pub fn collides_probe(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        method: Method,
    ) -> Result<Probe> {
        self.run_method(a, b, parent, opts, method, true)
    }

    /// [`Stage::collision`] done with one of the methods that can give a rectangle
    /// ([`Method::gives_rect`]).
    ///
    /// The exact methods ([`Method::Exact`], [`Method::Bitmask`], [`Method::LinearScan`],
    /// [`Method::SummedArea`]) give the same answer as [`Stage::collision`], count included.
    /// [`Method::FlashPipeline`] gives the pipeline's rectangle (whole pixels of the parent's
    /// grid) and no count.
    ///
    /// # Errors
    ///
    /// [`Error::NoRectangle`] for a method that answers only yes or no
    /// ([`Method::IncrementalScan`], [`Method::Sampled`], [`Method::Radial`]: use
    /// [`Stage::collides_with`] for those), checked before anything else; otherwise as
    /// [`Stage::collides_with`].
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, Error, FillRule, Graphic, Method, Path, Rect, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let a = stage.add_container(root)?;
    /// stage.add_graphic(a, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let b = stage.add_container(root)?;
    /// stage.add_graphic(b, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_x(b, 6.0)?;
    /// let opts = CollisionOptions::default();
    /// let c = stage.collision_by(a, b, root, &opts, Method::SummedArea)?;
    /// assert_eq!(c.rect, Rect::from_ltrb(6.0, 0.0, 10.0, 10.0));
    /// assert_eq!(c.overlap_pixels, Some(40));
    /// // A yes-or-no method is refused:
    /// let refused = stage.collision_by(a, b, root, &opts, Method::Sampled { n: 4 });
    /// assert!(matches!(refused, Err(Error::NoRectangle { .. })));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn collision_by(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        method: impl Into<Method>,
    ) -> Result<Collision> {
        let method: Method = method.into();
        let whole = |p: Option<PixelRect>, count: u64| Collision {
            rect: p.and_then(PixelRect::to_rect),
            overlap_pixels: Some(count),
        };
        match method {
            Method::IncrementalScan | Method::Sampled { .. } | Method::Radial(_) => Err(Error::NoRectangle {
                method: method.to_string(),
            }),
            Method::Exact => self.collision(a, b, parent, opts),
            Method::FlashPipeline { compat } => {
                if !opts.precise {
                    return self.collision(a, b, parent, opts);
                }
                let (rect, _) = crate::methods::flash::pipeline(self, a, b, parent, opts, compat)?;
                Ok(Collision {
                    rect,
                    overlap_pixels: None,
                })
            }
            Method::Bitmask | Method::LinearScan | Method::SummedArea => {
                if !opts.precise {
                    return self.collision(a, b, parent, opts);
                }
                let bytes = match method {
                    Method::SummedArea => SUMMED_AREA_BYTES,
                    Method::Bitmask => BITMASK_BYTES,
                    _ => PLANE_BYTES,
                };
                let Some(planes) = self.method_planes(a, b, parent, opts, bytes)? else {
                    return Ok(whole(None, 0));
                };
                let t = opts.threshold();
                let (rect, count) = match method {
                    Method::Bitmask => {
                        let o = mask_overlap(&planes, t);
                        (o.rect, o.count)
                    }
                    Method::LinearScan => linear_overlap(&planes, t),
                    _ => SummedAreas::new(&planes, t).overlap(),
                };
                Ok(whole(rect, count))
            }
        }
    }

    /// Both targets' planes for a method that works on whole planes, through the collision
    /// pipeline; `None` when no pixel can overlap. Precise queries only.
    fn method_planes(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        bytes_per_pixel: u64,
    ) -> Result<Option<Planes>> {
        self.run_pair(&PairRequest::new(a, b, parent, opts), |setup| {
            setup
                .pair()
                .map(|pair| pair.solid_planes(self, opts, bytes_per_pixel))
                .transpose()
        })
    }

    fn run_method(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        method: Method,
        count_exact: bool,
    ) -> Result<Probe> {
        let no = Probe {
            hit: false,
            visited: 0,
        };
        if !opts.precise {
            // Not precise: nothing is prepared, so there is no compare to run again.
            let setup = self.setup_pair(&PairRequest::new(a, b, parent, opts))?;
            return Ok(Probe {
                hit: setup.collision(self, opts)?.rect.is_some(),
                visited: 0,
            });
        }
        match method {
            Method::Exact => {
                let (hit, visited) = self.run_pair(&PairRequest::new(a, b, parent, opts), |setup| {
                    Ok(match setup.pair() {
                        Some(pair) => {
                            let hit = pair.collision(self, opts)?.rect.is_some();
                            let w = pair.window;
                            (hit, if count_exact { w.width() * w.height() } else { 0 })
                        }
                        None => (false, 0),
                    })
                })?;
                Ok(Probe { hit, visited })
            }
            Method::FlashPipeline { compat } => {
                let (rect, visited) = crate::methods::flash::pipeline(self, a, b, parent, opts, compat)?;
                Ok(Probe {
                    hit: rect.is_some(),
                    visited,
                })
            }
            Method::Radial(options) => {
                // The profiles are the objects' own; the query's visibility rule is applied
                // here, as the pipeline's setup applies it for the other methods.
                if self.skipped_as_hidden(a, b, opts)? {
                    for t in [a, b] {
                        self.matrix_to(t, parent)?;
                    }
                    return Ok(no);
                }
                let ma = self.matrix_to(a, parent)?;
                let mb = self.matrix_to(b, parent)?;
                let pa = self.radial_profile(a, parent, opts, options)?;
                let pb = self.radial_profile(b, parent, opts, options)?;
                Ok(match (pa, pb) {
                    (Some(pa), Some(pb)) => {
                        let (hit, visited) = pa.test(&ma, &pb, &mb);
                        Probe { hit, visited }
                    }
                    _ => no,
                })
            }
            Method::Bitmask
            | Method::LinearScan
            | Method::IncrementalScan
            | Method::SummedArea
            | Method::Sampled { .. } => {
                let bytes = match method {
                    Method::SummedArea => SUMMED_AREA_BYTES,
                    Method::Bitmask => BITMASK_BYTES,
                    _ => PLANE_BYTES,
                };
                let Some(planes) = self.method_planes(a, b, parent, opts, bytes)? else {
                    return Ok(no);
                };
                let t = opts.threshold();
                let (hit, visited) = match method {
                    Method::Bitmask => {
                        let w = planes.window;
                        (
                            mask_overlap(&planes, t).count > 0,
                            w.height() * w.width().div_ceil(64),
                        )
                    }
                    Method::LinearScan => linear_scan(&planes, t),
                    Method::IncrementalScan => incremental_scan(&planes, t),
                    Method::SummedArea => SummedAreas::new(&planes, t).any(),
                    Method::Sampled { n } => sampled_scan(&planes, t, n),
                    _ => (false, 0),
                };
                Ok(Probe { hit, visited })
            }
        }
    }
}

/// Radial profiles, for the radial method.
impl Stage {
    /// The radial profile of `obj` ([`RadialProfile`]) in its own local space, with the
    /// colour transforms relative to `parent` (as the other methods count them) and the
    /// solid pixels of `opts`' tolerance and anti-aliasing; `None` when it has no solid
    /// pixel. Build it once and test it with [`RadialProfile::collides`] at every frame.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `obj` is not inside `parent`, [`Error::StaleNode`],
    /// [`Error::NonFinite`], and [`Error::PixelBudget`] when the raster the profile is
    /// measured on is larger than `opts.max_pixels`.
    pub fn radial_profile(
        &self,
        obj: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        options: RadialOptions,
    ) -> Result<Option<RadialProfile>> {
        if !self.is_ancestor(parent, obj)? {
            return Err(Error::NotDescendant {
                node: self.describe(obj),
                ancestor: self.describe(parent),
            });
        }
        crate::methods::radial::build(self, obj, parent, opts, options)
    }
}
