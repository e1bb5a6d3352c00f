//! The classic collision methods, each selectable on the same display tree (issue 6).
//!
//! People come to pixel collision from one of a few well-known write-ups: bit masks, Play My
//! Code's per-pixel scans, summed-area tables, the Android "n-distributed" sampling, the
//! radial perimeter test and Flash's own `getCollisionRect` pipeline. Each is offered here as
//! a [`Method`] of [`Stage::collides`], measured against the default exact method (see the
//! README's methods table and `tests/integration/methods.rs`, which enforce the exactness claims).
//!
//! All methods that look at pixels go through the collision pipeline (`query/pipeline.rs`):
//! its setup checks that the targets are inside the parent and that their Flash bounds
//! overlap, and clips the pixel window to what both can touch, so that the methods differ
//! only in what they do with the two alpha planes. The radial test measures each object
//! alone through the same pipeline (`radial.rs`); the Flash pipeline has its own first step,
//! Flash's (`flash.rs`).

pub(crate) mod flash;
pub(crate) mod radial;
pub(crate) mod skia_clip;

use std::fmt;
use std::str::FromStr;

use crate::geom::rect::PixelRect;
use crate::methods::radial::{RadialOptions, RadialProfile};
use crate::query::pipeline::{PairRequest, Planes, Setup};
use crate::raster::bitmask::{BitMask, Overlap};
use crate::{Collision, CollisionOptions, Error, NodeId, Result, Stage};

/// Bytes per window pixel of the methods on whole planes, for [`crate::DENSE_BYTES`]: the
/// two alpha planes; with their bit masks (two bits, rounded up to a byte); with two
/// summed-area tables of u32.
const PLANE_BYTES: u64 = 2;
const BITMASK_BYTES: u64 = 3;
const SUMMED_AREA_BYTES: u64 = 10;

/// How a collision test is done. [`Method::Exact`] is the default and the reference the
/// others are measured against.
///
/// Every method applies the same pixel rule (semantics.md, section 4): a pixel is solid when
/// its alpha in the parent's grid is at least `max(1, 255 - tolerance)`, and two targets
/// collide when some pixel is solid in both. The methods differ in how they look for such a
/// pixel, and the approximate ones in how often they are wrong:
///
/// | method | exact? | file name |
/// |---|---|---|
/// | [`Exact`](Method::Exact) | reference | `exact` |
/// | [`Bitmask`](Method::Bitmask) | yes | `bitmask` |
/// | [`LinearScan`](Method::LinearScan) | yes | `linear_scan` |
/// | [`IncrementalScan`](Method::IncrementalScan) | yes | `incremental_scan` |
/// | [`SummedArea`](Method::SummedArea) | yes | `summed_area` |
/// | [`Sampled`](Method::Sampled) | never a false hit, may miss | `sampled:N` |
/// | [`Radial`](Method::Radial) | no, both ways | `radial` |
/// | [`FlashPipeline`](Method::FlashPipeline) | close; `compat` reproduces Flash | `flash`, `flash_compat` |
///
/// With `precise = false` in the options every method answers from the bounds alone, as
/// [`Stage::collision`] does.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum Method {
    /// The default: both targets rasterized chunk by chunk and compared pixel by pixel
    /// ([`Stage::collision`]).
    #[default]
    Exact,
    /// Each target's alpha over the window turned into a bit mask (one bit per pixel, 64 per
    /// word), then compared a word at a time. Exact.
    Bitmask,
    /// Play My Code's per-pixel scan: both targets' whole alpha planes over the window,
    /// visited row by row until a pixel solid in both is found. Exact.
    LinearScan,
    /// Play My Code's incremental scan: like [`Method::LinearScan`], but the window is
    /// visited in steps of `ceil(size / 3)` in each direction first (about 3 x 3 pixels
    /// spread over it), then the offsets in between, so that a large overlap anywhere is
    /// found after a few probes. A dimension under 4 pixels is scanned with step 1. Every
    /// pixel is visited once in the end, so a miss costs what a linear scan costs. Exact.
    IncrementalScan,
    /// A summed-area table of each target's solid pixels: a rectangle's solid count is four
    /// lookups. Starting from the whole window, rectangles where either target has no solid
    /// pixel are rejected, a rectangle where one target is solid everywhere and the other
    /// somewhere is a hit, and the rest are halved along their longer side. Exact.
    SummedArea,
    /// The "n-distributed" test: only every `n`-th pixel of the window in each direction is
    /// tested, on a grid centred in the window. A sample counts only where both targets are
    /// solid, so a hit is always real; a collision between the samples is missed.
    ///
    /// Guards: `n = 0` is taken as 1 (every pixel); in a dimension where the window is not
    /// larger than `n`, the step is lowered to `size - 1` so that both ends of the window
    /// are still tested (a 1-pixel dimension has one sample).
    Sampled {
        /// Test every `n`-th pixel in each direction.
        n: u32,
    },
    /// The radial perimeter test ([`RadialProfile`]): each target described by the distance
    /// of its farthest solid pixel in N directions from a centre inside it, and two targets
    /// said to collide when the distance between their centres is at most the sum of their
    /// radii facing each other. Cheap once the profiles exist, approximate both ways: see
    /// [`RadialProfile`] for where it fails. Through [`Stage::collides`] the profiles are
    /// built on every call; keep them with [`Stage::radial_profile`] to test in O(1).
    Radial(RadialOptions),
    /// Flash's `getCollisionRect` done literally with tiny-skia: an opaque black RGBA window
    /// over the intersection of the bounds, target A drawn red and target B white through a
    /// colour transform whose alpha offset is the tolerance, B with the Difference blend,
    /// then the bounds of the cyan pixels.
    ///
    /// With `compat = false` the pipeline follows pixelhit's semantics: the window is
    /// `floor(left)..ceil(right)` of the parent's grid, the tolerance offset is applied to
    /// each target's drawn alpha (so that the rule is pixelhit's), the targets' own colour
    /// transforms count, and a hit at the window's corner counts. It then differs from the
    /// exact method only where tiny-skia draws a pixel differently from the exact area
    /// (its anti-aliasing samples 4 x 4 points): slivers at grazing contacts.
    ///
    /// With `compat = true` it reproduces Flash's known quirks, for games ported from Flash
    /// that were tuned against them: the window is `ceil(width) x ceil(height)` pixels from
    /// `floor(left), floor(top)` of the bounds' intersection instead of reaching
    /// `ceil(right), ceil(bottom)` (it drops the last column when the fractions of the left
    /// edge and of the width add up to more than a pixel; only pixel-centre sampling,
    /// `anti_alias = false`, can have a solid pixel there), a lone hit at the window's
    /// top-left pixel is reported as no hit, the tolerance is added to each fill's
    /// and texel's alpha before edges are anti-aliased (a pixel counts when `alpha +
    /// tolerance >= 255`, and anti-aliased edge pixels never count), and the colour
    /// transforms of each target and of its ancestors below the parent are ignored
    /// (`BitmapData.draw` applies only the one it is given, and those inside the target).
    /// Because the tolerance is an offset applied after the multipliers inside the target,
    /// at tolerance 255 even a child made invisible by alpha 0 counts, as it did in Flash.
    FlashPipeline {
        /// Reproduce Flash's quirks (`flash_compat` in scene files).
        compat: bool,
    },
}

/// The methods that can give the overlap's rectangle, for [`Stage::collision_with`]. The
/// others ([`Method::IncrementalScan`], [`Method::Sampled`], [`Method::Radial`]) answer yes
/// or no only: their point is to stop early or to look at less.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, Default)]
#[non_exhaustive]
pub enum RectMethod {
    /// [`Method::Exact`].
    #[default]
    Exact,
    /// [`Method::Bitmask`]: the same rectangle and count as the exact method.
    Bitmask,
    /// [`Method::LinearScan`], scanning the whole window: the same rectangle and count.
    LinearScan,
    /// [`Method::SummedArea`], subdividing until every overlapping pixel is accounted for:
    /// the same rectangle and count.
    SummedArea,
    /// [`Method::FlashPipeline`]: the bounds of the cyan pixels, without a pixel count.
    FlashPipeline {
        /// Reproduce Flash's quirks, as in [`Method::FlashPipeline`].
        compat: bool,
    },
}

impl From<RectMethod> for Method {
    fn from(m: RectMethod) -> Method {
        match m {
            RectMethod::Exact => Method::Exact,
            RectMethod::Bitmask => Method::Bitmask,
            RectMethod::LinearScan => Method::LinearScan,
            RectMethod::SummedArea => Method::SummedArea,
            RectMethod::FlashPipeline { compat } => Method::FlashPipeline { compat },
        }
    }
}

impl TryFrom<Method> for RectMethod {
    type Error = Method;

    /// The method as a [`RectMethod`], or the method itself back when it answers yes or no
    /// only.
    fn try_from(m: Method) -> std::result::Result<RectMethod, Method> {
        Ok(match m {
            Method::Exact => RectMethod::Exact,
            Method::Bitmask => RectMethod::Bitmask,
            Method::LinearScan => RectMethod::LinearScan,
            Method::SummedArea => RectMethod::SummedArea,
            Method::FlashPipeline { compat } => RectMethod::FlashPipeline { compat },
            other => return Err(other),
        })
    }
}

/// A method name that is not one of the names of [`Method`]'s `FromStr`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct ParseMethodError {
    /// The text that was given.
    pub text: String,
    /// What is wrong with it, as the rest of the sentence after the text, e.g. `is not a
    /// method; the methods are ...`.
    pub reason: String,
}

impl fmt::Display for ParseMethodError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        write!(f, "{:?} {}", self.text, self.reason)
    }
}

impl std::error::Error for ParseMethodError {}

/// Why `sampled:N` with a bad N is refused.
const SAMPLED_N: &str = "is not a method: N of sampled:N is a whole number from 1 to 4294967295";

/// The method names of scene files, for messages.
pub(crate) const METHOD_NAMES: &str = "exact, bitmask, linear_scan, incremental_scan, summed_area, \
                                       sampled:N, radial, flash, flash_compat";

/// The names of the methods that also give the overlap's rectangle.
const RECT_METHOD_NAMES: &str = "exact, bitmask, linear_scan, summed_area, flash and flash_compat";

impl FromStr for Method {
    type Err = ParseMethodError;

    /// Reads a scene file's method name: `exact`, `bitmask`, `linear_scan`,
    /// `incremental_scan`, `summed_area`, `sampled:N` (N a whole number from 1), `radial`
    /// (default [`RadialOptions`]), `flash`, `flash_compat`.
    ///
    /// # Errors
    ///
    /// [`ParseMethodError`] for any other text.
    ///
    /// ```
    /// use pixelhit::Method;
    /// assert_eq!("sampled:4".parse::<Method>(), Ok(Method::Sampled { n: 4 }));
    /// assert!("sampled:0".parse::<Method>().is_err());
    /// assert_eq!(Method::FlashPipeline { compat: true }.to_string(), "flash_compat");
    /// ```
    fn from_str(s: &str) -> std::result::Result<Method, ParseMethodError> {
        let err = |reason: String| ParseMethodError {
            text: s.to_string(),
            reason,
        };
        Ok(match s {
            "exact" => Method::Exact,
            "bitmask" => Method::Bitmask,
            "linear_scan" => Method::LinearScan,
            "incremental_scan" => Method::IncrementalScan,
            "summed_area" => Method::SummedArea,
            "radial" => Method::Radial(RadialOptions::default()),
            "flash" => Method::FlashPipeline { compat: false },
            "flash_compat" => Method::FlashPipeline { compat: true },
            _ => match s.strip_prefix("sampled:") {
                Some(n) if !n.is_empty() && n.bytes().all(|c| c.is_ascii_digit()) => match n.parse::<u32>() {
                    Ok(n) if n >= 1 => Method::Sampled { n },
                    _ => return Err(err(SAMPLED_N.into())),
                },
                Some(_) => return Err(err(SAMPLED_N.into())),
                None => return Err(err(format!("is not a method; the methods are {METHOD_NAMES}"))),
            },
        })
    }
}

impl fmt::Display for Method {
    /// The scene file's name of the method. `Sampled { n: 0 }` is written `sampled:1` (what
    /// it does), and [`Method::Radial`] is written `radial` whatever its options.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Method::Exact => f.write_str("exact"),
            Method::Bitmask => f.write_str("bitmask"),
            Method::LinearScan => f.write_str("linear_scan"),
            Method::IncrementalScan => f.write_str("incremental_scan"),
            Method::SummedArea => f.write_str("summed_area"),
            Method::Sampled { n } => write!(f, "sampled:{}", (*n).max(1)),
            Method::Radial(_) => f.write_str("radial"),
            Method::FlashPipeline { compat: false } => f.write_str("flash"),
            Method::FlashPipeline { compat: true } => f.write_str("flash_compat"),
        }
    }
}

impl FromStr for RectMethod {
    type Err = ParseMethodError;

    /// Reads the name of a method that can give a rectangle: `exact`, `bitmask`,
    /// `linear_scan`, `summed_area`, `flash`, `flash_compat`.
    ///
    /// # Errors
    ///
    /// [`ParseMethodError`] for any other text, naming the methods that answer yes or no
    /// only as such.
    fn from_str(s: &str) -> std::result::Result<RectMethod, ParseMethodError> {
        let m: Method = s.parse()?;
        RectMethod::try_from(m).map_err(|_| ParseMethodError {
            text: s.to_string(),
            reason: format!(
                "cannot give a rectangle: it answers only yes or no, so it works in `collides` \
                 and not here; the methods that give a rectangle are {RECT_METHOD_NAMES}"
            ),
        })
    }
}

impl fmt::Display for RectMethod {
    /// The scene file's name of the method.
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        Method::from(*self).fmt(f)
    }
}

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

    /// [`Stage::collides_with`], also telling how much work the method did (the README's
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

    /// [`Stage::collision`] done with one of the methods that can give a rectangle.
    ///
    /// The exact methods ([`RectMethod::Exact`], [`RectMethod::Bitmask`],
    /// [`RectMethod::LinearScan`], [`RectMethod::SummedArea`]) give the same answer as
    /// [`Stage::collision`], count included. [`RectMethod::FlashPipeline`] gives the
    /// pipeline's rectangle (whole pixels of the parent's grid) and no count.
    ///
    /// # Errors
    ///
    /// As [`Stage::collides_with`].
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Rect, RectMethod, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let a = stage.add_container(root)?;
    /// stage.add_graphic(a, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let b = stage.add_container(root)?;
    /// stage.add_graphic(b, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_x(b, 6.0)?;
    /// let c = stage.collision_with(a, b, root, &CollisionOptions::default(), RectMethod::SummedArea)?;
    /// assert_eq!(c.rect, Rect::from_ltrb(6.0, 0.0, 10.0, 10.0));
    /// assert_eq!(c.overlap_pixels, Some(40));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn collision_with(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        method: RectMethod,
    ) -> Result<Collision> {
        let whole = |p: Option<PixelRect>, count: u64| Collision {
            rect: p.and_then(PixelRect::to_rect),
            overlap_pixels: Some(count),
        };
        match method {
            RectMethod::Exact => self.collision(a, b, parent, opts),
            RectMethod::FlashPipeline { compat } => {
                if !opts.precise {
                    return self.collision(a, b, parent, opts);
                }
                let (rect, _) = crate::methods::flash::pipeline(self, a, b, parent, opts, compat)?;
                Ok(Collision {
                    rect,
                    overlap_pixels: None,
                })
            }
            RectMethod::Bitmask | RectMethod::LinearScan | RectMethod::SummedArea => {
                if !opts.precise {
                    return self.collision(a, b, parent, opts);
                }
                let bytes = match method {
                    RectMethod::SummedArea => SUMMED_AREA_BYTES,
                    RectMethod::Bitmask => BITMASK_BYTES,
                    _ => PLANE_BYTES,
                };
                let Some(planes) = self.method_planes(a, b, parent, opts, bytes)? else {
                    return Ok(whole(None, 0));
                };
                let t = opts.threshold();
                let (rect, count) = match method {
                    RectMethod::Bitmask => {
                        let o = mask_overlap(&planes, t);
                        (o.rect, o.count)
                    }
                    RectMethod::LinearScan => linear_overlap(&planes, t),
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
        match self.setup_pair(&PairRequest::new(a, b, parent, opts))? {
            Setup::Pair(pair) => pair.solid_planes(self, opts, bytes_per_pixel).map(Some),
            Setup::Empty | Setup::Loose(_) => Ok(None),
        }
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
            return Ok(match self.setup_pair(&PairRequest::new(a, b, parent, opts))? {
                Setup::Empty => no,
                _ => Probe {
                    hit: true,
                    visited: 0,
                },
            });
        }
        match method {
            Method::Exact => {
                let (hit, visited) = match self.setup_pair(&PairRequest::new(a, b, parent, opts))? {
                    Setup::Pair(pair) => {
                        let hit = pair.collision(self, opts)?.rect.is_some();
                        let w = pair.window;
                        (hit, if count_exact { w.width() * w.height() } else { 0 })
                    }
                    _ => (false, 0),
                };
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

/// Width and height of the planes' window, as indices.
fn dims(p: &Planes) -> (usize, usize) {
    (p.window.width() as usize, p.window.height() as usize)
}

/// The window's pixel at column `x`, row `y` of the planes (row-major offsets).
fn pixel(p: &Planes, x: usize, y: usize) -> PixelRect {
    let (px, py) = (p.window.x0 + x as i64, p.window.y0 + y as i64);
    PixelRect {
        x0: px,
        y0: py,
        x1: px + 1,
        y1: py + 1,
    }
}

fn union(acc: Option<PixelRect>, r: PixelRect) -> Option<PixelRect> {
    Some(acc.map_or(r, |a| PixelRect {
        x0: a.x0.min(r.x0),
        y0: a.y0.min(r.y0),
        x1: a.x1.max(r.x1),
        y1: a.y1.max(r.y1),
    }))
}

/// Both planes as bit masks, compared a word at a time.
fn mask_overlap(p: &Planes, t: u8) -> Overlap {
    let (ma, mb) = (
        BitMask::from_plane(&p.a, p.window, t),
        BitMask::from_plane(&p.b, p.window, t),
    );
    ma.overlap_moved((0, 0), &mb, (0, 0), p.window)
}

/// Row by row until the first pixel solid in both; `(hit, pixel pairs visited)`.
fn linear_scan(p: &Planes, t: u8) -> (bool, u64) {
    match p.a.iter().zip(&p.b).position(|(&va, &vb)| va >= t && vb >= t) {
        Some(i) => (true, i as u64 + 1),
        None => (false, p.a.len().min(p.b.len()) as u64),
    }
}

/// Every pixel, row by row: the overlap's rectangle and count.
fn linear_overlap(p: &Planes, t: u8) -> (Option<PixelRect>, u64) {
    let (w, _) = dims(p);
    let mut rect = None;
    let mut count = 0u64;
    for (i, (&va, &vb)) in p.a.iter().zip(&p.b).enumerate() {
        if va >= t && vb >= t {
            count += 1;
            rect = union(rect, pixel(p, i % w, i / w));
        }
    }
    (rect, count)
}

/// The step of the incremental scan in a dimension of `size` pixels.
fn incremental_step(size: usize) -> usize {
    if size < 4 { 1 } else { size.div_ceil(3) }
}

/// Play My Code's incremental scan; `(hit, pixel pairs visited)`.
fn incremental_scan(p: &Planes, t: u8) -> (bool, u64) {
    let (w, h) = dims(p);
    let (sx, sy) = (incremental_step(w), incremental_step(h));
    let mut visited = 0u64;
    for ys in 0..sy {
        for xs in 0..sx {
            for y in (ys..h).step_by(sy) {
                let row = y * w;
                for x in (xs..w).step_by(sx) {
                    visited += 1;
                    if p.a[row + x] >= t && p.b[row + x] >= t {
                        return (true, visited);
                    }
                }
            }
        }
    }
    (false, visited)
}

/// The sample offsets of [`Method::Sampled`] in a dimension of `size` pixels: a step of
/// `n`, lowered to `size - 1` when the dimension is not larger than `n` (so both ends are
/// tested), on a grid centred in the dimension.
fn sample_axis(size: usize, n: u32) -> impl Iterator<Item = usize> {
    let step = (n.max(1) as usize).min(size.saturating_sub(1)).max(1);
    let start = if size == 0 { 0 } else { ((size - 1) % step) / 2 };
    (start..size).step_by(step)
}

/// The "n-distributed" test; `(hit, pixel pairs visited)`.
fn sampled_scan(p: &Planes, t: u8, n: u32) -> (bool, u64) {
    let (w, h) = dims(p);
    let mut visited = 0u64;
    for y in sample_axis(h, n) {
        let row = y * w;
        for x in sample_axis(w, n) {
            visited += 1;
            if p.a[row + x] >= t && p.b[row + x] >= t {
                return (true, visited);
            }
        }
    }
    (false, visited)
}

/// Summed-area tables of both planes' solid pixels: entry `(x, y)` (of `w + 1` per row)
/// counts the solid pixels above and left of pixel `(x, y)`.
struct SummedAreas<'a> {
    planes: &'a Planes,
    w: usize,
    h: usize,
    a: Vec<u32>,
    b: Vec<u32>,
}

/// A rectangle of the window, in plane coordinates: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy)]
struct Area {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Area {
    fn size(&self) -> u64 {
        ((self.x1 - self.x0) * (self.y1 - self.y0)) as u64
    }

    /// The two halves along the longer side (the area has more than one pixel).
    fn halves(&self) -> [Area; 2] {
        if self.x1 - self.x0 >= self.y1 - self.y0 {
            let m = (self.x0 + self.x1) / 2;
            [Area { x1: m, ..*self }, Area { x0: m, ..*self }]
        } else {
            let m = (self.y0 + self.y1) / 2;
            [Area { y1: m, ..*self }, Area { y0: m, ..*self }]
        }
    }
}

fn table(plane: &[u8], w: usize, h: usize, t: u8) -> Vec<u32> {
    // u32 is enough: a window holds at most the pixel budget, and the tables of a budget
    // above 2^32 pixels would not fit in memory anyway.
    let mut s = vec![0u32; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut run = 0u32;
        for x in 0..w {
            run = run.wrapping_add(u32::from(plane[y * w + x] >= t));
            s[(y + 1) * (w + 1) + x + 1] = s[y * (w + 1) + x + 1].wrapping_add(run);
        }
    }
    s
}

impl SummedAreas<'_> {
    fn new(planes: &Planes, t: u8) -> SummedAreas<'_> {
        let (w, h) = dims(planes);
        SummedAreas {
            planes,
            w,
            h,
            a: table(&planes.a, w, h, t),
            b: table(&planes.b, w, h, t),
        }
    }

    fn whole(&self) -> Area {
        Area {
            x0: 0,
            y0: 0,
            x1: self.w,
            y1: self.h,
        }
    }

    /// Solid pixels of `s` in `r`: four lookups.
    fn count(&self, s: &[u32], r: Area) -> u64 {
        let row = self.w + 1;
        let v = s[r.y1 * row + r.x1]
            .wrapping_sub(s[r.y0 * row + r.x1])
            .wrapping_sub(s[r.y1 * row + r.x0])
            .wrapping_add(s[r.y0 * row + r.x0]);
        u64::from(v)
    }

    /// Whether some pixel is solid in both; `(hit, rectangles looked up)`.
    fn any(&self) -> (bool, u64) {
        let mut visited = 0u64;
        let mut stack = vec![self.whole()];
        while let Some(r) = stack.pop() {
            if r.size() == 0 {
                continue;
            }
            visited += 1;
            let (ca, cb) = (self.count(&self.a, r), self.count(&self.b, r));
            if ca == 0 || cb == 0 {
                continue;
            }
            // One side solid everywhere and the other somewhere: they share that pixel.
            if ca == r.size() || cb == r.size() {
                return (true, visited);
            }
            stack.extend(r.halves());
        }
        (false, visited)
    }

    /// The overlap's rectangle and count, subdividing only where neither side is solid
    /// everywhere (where one is, the overlap is the other's solid pixels, whose count and
    /// box come from the table).
    fn overlap(&self) -> (Option<PixelRect>, u64) {
        let mut rect = None;
        let mut count = 0u64;
        let mut stack = vec![self.whole()];
        while let Some(r) = stack.pop() {
            if r.size() == 0 {
                continue;
            }
            let (ca, cb) = (self.count(&self.a, r), self.count(&self.b, r));
            if ca == 0 || cb == 0 {
                continue;
            }
            let other = if ca == r.size() {
                Some((&self.b, cb))
            } else if cb == r.size() {
                Some((&self.a, ca))
            } else {
                None
            };
            match other {
                Some((s, c)) => {
                    count += c;
                    let tight = self.tight(s, r);
                    let (x0, y0) = (self.planes.window.x0, self.planes.window.y0);
                    rect = union(
                        rect,
                        PixelRect {
                            x0: x0 + tight.x0 as i64,
                            y0: y0 + tight.y0 as i64,
                            x1: x0 + tight.x1 as i64,
                            y1: y0 + tight.y1 as i64,
                        },
                    );
                }
                None => stack.extend(r.halves()),
            }
        }
        (rect, count)
    }

    /// The smallest area inside `r` holding every solid pixel of `s` in `r` (which has
    /// some), by four binary searches on counts.
    fn tight(&self, s: &[u32], r: Area) -> Area {
        // The smallest k in lo..=hi with f(k), f monotone and true at hi.
        let search = |lo: usize, hi: usize, f: &dyn Fn(usize) -> bool| {
            let (mut lo, mut hi) = (lo, hi);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if f(mid) { hi = mid } else { lo = mid + 1 }
            }
            lo
        };
        let y1 = search(r.y0 + 1, r.y1, &|k| self.count(s, Area { y1: k, ..r }) > 0);
        let x1 = search(r.x0 + 1, r.x1, &|k| self.count(s, Area { x1: k, ..r }) > 0);
        // Counting from the other side: the first k whose rows/columns k.. hold nothing.
        let y_end = search(r.y0 + 1, r.y1, &|k| self.count(s, Area { y0: k, ..r }) == 0);
        let x_end = search(r.x0 + 1, r.x1, &|k| self.count(s, Area { x0: k, ..r }) == 0);
        Area {
            x0: x1 - 1,
            y0: y1 - 1,
            x1: x_end.max(x1),
            y1: y_end.max(y1),
        }
    }
}

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

#[cfg(test)]
mod tests {
    use super::*;

    fn planes(w: i64, h: i64, a: &[u8], b: &[u8]) -> Planes {
        Planes {
            window: PixelRect {
                x0: -3,
                y0: 7,
                x1: -3 + w,
                y1: 7 + h,
            },
            a: a.to_vec(),
            b: b.to_vec(),
        }
    }

    #[test]
    fn incremental_scan_visits_every_pixel_once() {
        for (w, h) in [(1, 1), (3, 7), (4, 4), (10, 3), (17, 23)] {
            let n = (w * h) as usize;
            let p = planes(w, h, &vec![0; n], &vec![0; n]);
            assert_eq!(incremental_scan(&p, 1), (false, n as u64), "{w}x{h}");
            // A lone hit anywhere is found.
            for i in 0..n {
                let mut a = vec![0; n];
                a[i] = 255;
                let p = planes(w, h, &a, &a);
                assert!(incremental_scan(&p, 1).0);
            }
        }
    }

    #[test]
    fn incremental_scan_finds_a_far_overlap_early() {
        let (w, h) = (30usize, 30usize);
        let mut a = vec![0u8; w * h];
        for y in 19..25 {
            for x in 19..25 {
                a[y * w + x] = 255;
            }
        }
        let p = planes(w as i64, h as i64, &a, &a);
        // Steps of 10: the first pass probes (20, 20) as its 9th pixel.
        assert_eq!(incremental_scan(&p, 1), (true, 9));
        assert_eq!(linear_scan(&p, 1), (true, 19 * 30 + 20));
    }

    #[test]
    fn samples_cover_both_ends_when_n_is_larger_than_the_window() {
        assert_eq!(sample_axis(1, 8).collect::<Vec<_>>(), [0]);
        assert_eq!(sample_axis(2, 8).collect::<Vec<_>>(), [0, 1]);
        assert_eq!(sample_axis(5, 8).collect::<Vec<_>>(), [0, 4]);
        assert_eq!(sample_axis(9, 4).collect::<Vec<_>>(), [0, 4, 8]);
        assert_eq!(sample_axis(10, 4).collect::<Vec<_>>(), [0, 4, 8]);
        assert_eq!(sample_axis(11, 4).collect::<Vec<_>>(), [1, 5, 9]);
        assert_eq!(sample_axis(6, 0).count(), 6);
        assert_eq!(sample_axis(0, 3).count(), 0);
    }

    #[test]
    fn summed_areas_agree_with_the_linear_scan() {
        let mut seed = 0x2545_F491_4F6C_DD1Du64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        for _ in 0..2000 {
            let (w, h) = (1 + next() % 40, 1 + next() % 40);
            let n = (w * h) as usize;
            let (da, db) = (next() % 100, next() % 100);
            let blob = |d: u64, next: &mut dyn FnMut() -> u64| -> Vec<u8> {
                // Rectangles of solid pixels, so that full areas occur.
                let mut v = vec![0u8; n];
                for _ in 0..next() % 4 {
                    let (x0, y0) = (next() % w, next() % h);
                    let (x1, y1) = (x0 + 1 + next() % (w - x0), y0 + 1 + next() % (h - y0));
                    for y in y0..y1 {
                        for x in x0..x1 {
                            v[(y * w + x) as usize] = 255;
                        }
                    }
                }
                for p in v.iter_mut() {
                    if next() % 100 < d {
                        *p = (next() % 256) as u8;
                    }
                }
                v
            };
            let a = blob(da, &mut next);
            let b = blob(db, &mut next);
            let p = planes(w as i64, h as i64, &a, &b);
            let t = (1 + next() % 255) as u8;
            let want = linear_overlap(&p, t);
            let sat = SummedAreas::new(&p, t);
            assert_eq!(sat.overlap(), want);
            assert_eq!(sat.any().0, want.1 > 0);
            assert_eq!(linear_scan(&p, t).0, want.1 > 0);
            assert_eq!(incremental_scan(&p, t).0, want.1 > 0);
        }
    }

    #[test]
    fn method_names_round_trip() {
        for name in METHOD_NAMES.split(", ") {
            let name = name.replace('N', "7");
            let m: Method = name.parse().unwrap();
            assert_eq!(m.to_string(), name);
        }
        for bad in [
            "",
            "Exact",
            "sampled",
            "sampled:",
            "sampled:0",
            "sampled:-1",
            "sampled:+3",
            "sampled:1e3",
            "radial:2",
        ] {
            assert!(bad.parse::<Method>().is_err(), "{bad}");
        }
        assert!("radial".parse::<RectMethod>().is_err());
        assert_eq!(
            "flash_compat".parse::<RectMethod>(),
            Ok(RectMethod::FlashPipeline { compat: true })
        );
    }
}
