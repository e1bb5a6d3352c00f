//! The questions one asks a stage: bounds, collisions and hit tests (semantics.md, sections
//! 3 to 5).

use glam::{DAffine2, DVec2};

use crate::raster::bitmask::Overlap;
use std::sync::Arc;

use crate::geom::rect::PixelRect;
use crate::geom::shape::Leaf;
use crate::query::point::{BitmapHit, PointTest};
use crate::raster::{
    ClipShapes, DrawBudget, Prepared, Rasterizer, RegionPiece, ScanBuffers, with_scan_buffers,
};
use crate::tree::walk::{Clip, ClipLink, Clips, Visit, Walk, each_clip};
use crate::{ColorTransform, Error, Graphic, NodeId, Rect, Result, Stage};

/// Options of a collision query; `CollisionOptions::default()` is a precise query at
/// tolerance 255 with anti-aliasing.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CollisionOptions {
    /// Test pixels (`true`) or only the intersection of the bounds (`false`).
    pub precise: bool,
    /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`.
    pub tolerance: u8,
    /// Exact area coverage (`true`) or exact pixel-centre tests (`false`); semantics.md 4.5.
    pub anti_alias: bool,
    /// The most pixels a precise query may compare: a larger window gives
    /// [`Error::PixelBudget`] instead of an answer. Whole item rasters kept for poses used
    /// again also count against it; an item with no room left is computed in the window.
    pub max_pixels: u64,
    /// Use the fast paths: cached bit masks compared a word at a time, rows of single fills
    /// read as runs of equal value, and the columns of one target bounded by where the
    /// other has pixels. They give the same answer as the plain path, which composites both
    /// targets' alpha planes pixel by pixel; turning them off is for tests and measurements.
    pub fast_paths: bool,
    /// Many-object queries ([`Stage::collisions`] and the like): give each contact its
    /// [`ContactDetails`](crate::ContactDetails) (centroid, normal, first pixel, overlap
    /// mask). Precise queries only; they cost a second look at each touching pair.
    pub details: bool,
    /// Leave out targets that are not on screen because they or an ancestor are hidden
    /// ([`Stage::is_shown`]): such a target collides with nothing. Off by default, as in
    /// Flash, where a query looks at the object you name whatever its visibility
    /// (semantics.md 2); games that hide dead sprites turn it on.
    pub skip_hidden: bool,
    /// Many-object queries: test the close pairs on several threads (feature `parallel`,
    /// rayon). They run on the rayon pool the call is made from, so
    /// `pool.install(|| stage.collisions(..))` keeps them on a pool of yours; `false` tests
    /// them one after another on the calling thread. The answer is the same either way.
    pub parallel: bool,
}

/// The lowest alpha that counts as solid at `tolerance`.
pub(crate) fn threshold(tolerance: u8) -> u8 {
    (255 - tolerance).max(1)
}

/// The default pixel budget of a precise query: 2^28 pixels (16384 x 16384).
pub const DEFAULT_MAX_PIXELS: u64 = 1 << 28;

impl Default for CollisionOptions {
    fn default() -> Self {
        CollisionOptions {
            precise: true,
            tolerance: 255,
            anti_alias: true,
            max_pixels: DEFAULT_MAX_PIXELS,
            fast_paths: true,
            details: false,
            skip_hidden: false,
            parallel: true,
        }
    }
}

impl CollisionOptions {
    /// Sets `precise`.
    pub fn precise(mut self, precise: bool) -> Self {
        self.precise = precise;
        self
    }
    /// Sets `tolerance`.
    pub fn tolerance(mut self, tolerance: u8) -> Self {
        self.tolerance = tolerance;
        self
    }
    /// Sets `anti_alias`.
    pub fn anti_alias(mut self, anti_alias: bool) -> Self {
        self.anti_alias = anti_alias;
        self
    }
    /// Sets `max_pixels`.
    pub fn max_pixels(mut self, max_pixels: u64) -> Self {
        self.max_pixels = max_pixels;
        self
    }
    /// Sets `fast_paths`.
    pub fn fast_paths(mut self, fast_paths: bool) -> Self {
        self.fast_paths = fast_paths;
        self
    }

    /// Sets `details`.
    pub fn details(mut self, details: bool) -> Self {
        self.details = details;
        self
    }
    /// Sets `skip_hidden`.
    pub fn skip_hidden(mut self, skip_hidden: bool) -> Self {
        self.skip_hidden = skip_hidden;
        self
    }
    /// Sets `parallel`.
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// The lowest alpha that counts as solid.
    pub fn threshold(&self) -> u8 {
        threshold(self.tolerance)
    }
}

/// The answer of [`Stage::collision`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collision {
    /// Where the two targets overlap, in the parent's space; `None` when they do not.
    pub rect: Option<Rect>,
    /// How many pixels are solid in both (only for precise queries).
    pub overlap_pixels: Option<u64>,
}

/// What a collision query needs, worked out by [`Stage::collision_setup`].
// Boxing the large variant would cost an allocation per query; the value lives on the stack
// for the length of one query only.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Setup {
    /// No pixel can overlap.
    Empty,
    /// Not precise: the intersection of the bounds is the answer.
    Loose(Rect),
    /// Precise: the pixel window to compare in, both targets ready to rasterize, and the
    /// lowest alpha that is solid in each (the query's, or a target's own tolerance).
    Precise {
        window: PixelRect,
        a: Prepared,
        b: Prepared,
        thresholds: Thresholds,
    },
}

/// The lowest alpha that counts as solid in target a and in target b.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Thresholds {
    pub a: u8,
    pub b: u8,
}

/// Two targets' alpha planes over one pixel window.
#[allow(dead_code)]
pub(crate) struct Planes {
    /// The pixels of the planes, in the parent's grid.
    pub window: PixelRect,
    /// Target a's alpha, row-major.
    pub a: Vec<u8>,
    /// Target b's alpha, row-major.
    pub b: Vec<u8>,
}

/// Which box of each leaf [`Stage::local_box`] collects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BoxKind {
    WithStrokes,
    WithoutStrokes,
}

impl Stage {
    /// Flash's `getBounds`: the box of `obj` and its descendants in `space`'s coordinates,
    /// strokes included, or `None` when `obj` draws nothing. `space` may be any node.
    ///
    /// Like Flash, this is a loose box: each node's own graphics box is mapped into `obj`'s
    /// space by its 4 corners, and the union is mapped into `space` by its 4 corners again.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`], [`Error::NonFinite`] when a matrix overflows,
    /// [`Error::Singular`] when `space` is not an ancestor of `obj` and cannot be inverted.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let box_ = stage.add_container(stage.root())?;
    /// stage.add_graphic(box_, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_rotation(box_, 45.0)?;
    /// let b = stage.bounds(box_, stage.root())?.unwrap();
    /// assert!((b.width() - 2f64.sqrt() * 10.0).abs() < 1e-9);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn bounds(&self, obj: NodeId, space: NodeId) -> Result<Option<Rect>> {
        self.flash_box(obj, space, BoxKind::WithStrokes)
    }

    /// Flash's `getRect`: like [`Stage::bounds`] but strokes count by their centreline only.
    ///
    /// # Errors
    ///
    /// As [`Stage::bounds`].
    pub fn rect(&self, obj: NodeId, space: NodeId) -> Result<Option<Rect>> {
        self.flash_box(obj, space, BoxKind::WithoutStrokes)
    }

    fn flash_box(&self, obj: NodeId, space: NodeId, kind: BoxKind) -> Result<Option<Rect>> {
        Ok(self.flash_box_and_matrix(obj, space, kind)?.map(|(b, _)| b))
    }

    /// [`Stage::flash_box`] and, when there is a box, the matrix from `obj` to `space`.
    fn flash_box_and_matrix(
        &self,
        obj: NodeId,
        space: NodeId,
        kind: BoxKind,
    ) -> Result<Option<(Rect, DAffine2)>> {
        let Some(local) = self.local_box(obj, kind)? else {
            return Ok(None);
        };
        let m = self.matrix_between(obj, space)?;
        let mapped = local.transform(m).ok_or_else(|| Error::NonFinite {
            what: format!("bounds of {} in {}", self.describe(obj), self.describe(space)),
        })?;
        Ok(Some((mapped, m)))
    }

    /// The union, in `obj`'s space, of each node's own graphics box mapped by its corners.
    fn local_box(&self, obj: NodeId, kind: BoxKind) -> Result<Option<Rect>> {
        // A node's leaves come one after another, so its own box is the run of equal ids;
        // each run is mapped into obj's space when the next one starts, and at the end.
        let mut acc: Option<Rect> = None;
        let mut run: Option<(NodeId, Rect, DAffine2)> = None;
        let add = |acc: &mut Option<Rect>, (id, r, m): (NodeId, Rect, DAffine2)| -> Result<()> {
            // obj's own graphics need no mapping (the identity maps every finite box to itself).
            let mapped = match m == DAffine2::IDENTITY {
                true => r,
                false => r.transform(m).ok_or_else(|| Error::NonFinite {
                    what: format!("bounds of {}", self.describe(id)),
                })?,
            };
            *acc = Some(acc.map_or(mapped, |a| a.union(&mapped)));
            Ok(())
        };
        self.walk_leaves(
            obj,
            obj,
            DAffine2::IDENTITY,
            ColorTransform::IDENTITY,
            Walk::Boxes,
            |id, visit, m, _, _| {
                let r = match visit {
                    // A scrolled node's window stands for its content (semantics.md 6).
                    Visit::Window(w) => Some(w),
                    Visit::Leaf(Leaf::Graphic(g)) => {
                        let b = g.path_box();
                        match (g, kind) {
                            (Graphic::Stroke(s), BoxKind::WithStrokes) => {
                                b.and_then(|b| b.outset(s.width() / 2.0))
                            }
                            _ => b,
                        }
                    }
                    Visit::Leaf(Leaf::Bitmap(bm, _)) => {
                        Rect::from_ltrb(0.0, 0.0, f64::from(bm.width()), f64::from(bm.height()))
                    }
                };
                let Some(r) = r else { return Ok(()) };
                match &mut run {
                    Some((last, lr, _)) if *last == id => *lr = lr.union(&r),
                    _ => {
                        if let Some(done) = run.replace((id, r, *m)) {
                            add(&mut acc, done)?;
                        }
                    }
                }
                Ok(())
            },
        )?;
        if let Some(done) = run {
            add(&mut acc, done)?;
        }
        Ok(acc)
    }

    /// The exact box of `obj`'s geometry in `space`: every leaf mapped straight into `space`
    /// (curve extrema, stroke ends and joins included). Never larger than [`Stage::bounds`].
    ///
    /// # Errors
    ///
    /// As [`Stage::bounds`].
    pub fn tight_bounds(&self, obj: NodeId, space: NodeId) -> Result<Option<Rect>> {
        let base = self.matrix_between(obj, space)?;
        let mut acc: Option<Rect> = None;
        let walk = Walk::Boxes;
        self.walk_leaves(
            obj,
            obj,
            base,
            ColorTransform::IDENTITY,
            walk,
            |_, visit, m, _, _| {
                let r = match visit {
                    Visit::Window(w) => w.transform(m),
                    Visit::Leaf(Leaf::Graphic(Graphic::Fill(f))) => f.path().bounds(m),
                    Visit::Leaf(Leaf::Graphic(Graphic::Stroke(s))) => {
                        let r = s.width() / 2.0;
                        let (a, b) = (m.matrix2.x_axis.x, m.matrix2.x_axis.y);
                        let (c, d) = (m.matrix2.y_axis.x, m.matrix2.y_axis.y);
                        let (ex, ey) = (r * a.hypot(c), r * b.hypot(d));
                        s.path().bounds(m).and_then(|bx| {
                            Rect::from_ltrb(bx.left() - ex, bx.top() - ey, bx.right() + ex, bx.bottom() + ey)
                        })
                    }
                    Visit::Leaf(Leaf::Bitmap(bm, _)) => {
                        Rect::from_ltrb(0.0, 0.0, f64::from(bm.width()), f64::from(bm.height()))
                            .and_then(|r| r.transform(m))
                    }
                };
                if let Some(r) = r {
                    acc = Some(acc.map_or(r, |a| a.union(&r)));
                }
                Ok(())
            },
        )?;
        // A union can be wider than an f64 holds, which no box may be.
        acc.map(|r| {
            Rect::from_ltrb(r.left(), r.top(), r.right(), r.bottom()).ok_or_else(|| Error::NonFinite {
                what: format!(
                    "tight bounds of {} in {}",
                    self.describe(obj),
                    self.describe(space)
                ),
            })
        })
        .transpose()
    }

    /// Where `a` and `b` overlap in `parent`'s space (semantics.md, section 4).
    ///
    /// With `precise = false` the answer is the intersection of their [`Stage::bounds`];
    /// with `precise = true` it is the smallest whole-pixel rectangle holding every pixel
    /// solid in both (alpha at least `max(1, 255 - tolerance)`), anti-aliased. See
    /// [`Stage::collision`] for the other options and the overlap count.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `a` or `b` is not inside `parent`, [`Error::StaleNode`]
    /// for a removed id, [`Error::NonFinite`] when a matrix overflows, and
    /// [`Error::PixelBudget`] when the window is larger than [`DEFAULT_MAX_PIXELS`].
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, Rect, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let a = stage.add_container(root)?;
    /// stage.add_graphic(a, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let b = stage.add_container(root)?;
    /// stage.add_graphic(b, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_x(b, 12.0)?;
    /// stage.set_y(b, 5.0)?;
    /// let hit = stage.collision_rect(a, b, root, true, 255)?;
    /// assert_eq!(hit, Rect::from_ltrb(7.0, 0.0, 10.0, 10.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn collision_rect(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        precise: bool,
        tolerance: u8,
    ) -> Result<Option<Rect>> {
        let opts = CollisionOptions::default().precise(precise).tolerance(tolerance);
        Ok(self.collision(a, b, parent, &opts)?.rect)
    }

    /// [`Stage::collision_rect`] with every option, also counting the overlapping pixels.
    ///
    /// # Errors
    ///
    /// As [`Stage::collision_rect`], with the budget of `opts.max_pixels`.
    pub fn collision(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
    ) -> Result<Collision> {
        let (window, pa, pb, t) = match self.collision_setup(a, b, parent, opts)? {
            Setup::Empty => {
                return Ok(Collision {
                    rect: None,
                    overlap_pixels: opts.precise.then_some(0),
                });
            }
            Setup::Loose(r) => {
                return Ok(Collision {
                    rect: Some(r),
                    overlap_pixels: None,
                });
            }
            Setup::Precise {
                window,
                a,
                b,
                thresholds,
            } => (window, a, b, thresholds),
        };
        // Two targets that are one cached raster each (a sprite, a bitmap, a shape) compare
        // their cached bit masks a word at a time; anything else is composited plane by plane.
        let masks = match opts.fast_paths {
            true => (pa.single_mask(t.a, &self.cache), pb.single_mask(t.b, &self.cache)),
            false => (None, None),
        };
        let overlap = match masks {
            (Some((ma, at_a)), Some((mb, at_b))) => ma.overlap_moved(at_a, &mb, at_b, window),
            _ => scan_prepared(window, &pa, &pb, t, opts, |_, _| {}, || self.pair_name(a, b))?,
        };
        Ok(Collision {
            rect: overlap.rect.and_then(PixelRect::to_rect),
            overlap_pixels: Some(overlap.count),
        })
    }

    /// Checks a collision query and works out what it needs: nothing (no overlap possible),
    /// the bounds' intersection (not precise), or the pixel window and both targets ready to
    /// rasterize.
    pub(crate) fn collision_setup(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
    ) -> Result<Setup> {
        for t in [a, b] {
            if !self.is_ancestor(parent, t)? {
                return Err(Error::NotDescendant {
                    node: self.describe(t),
                    ancestor: self.describe(parent),
                });
            }
        }
        if self.skipped_as_hidden(a, b, opts)? {
            return Ok(Setup::Empty);
        }
        let bounds_a = self.flash_box_and_matrix(a, parent, BoxKind::WithStrokes)?;
        let bounds_b = self.flash_box_and_matrix(b, parent, BoxKind::WithStrokes)?;
        let (Some((ba, _)), Some((bb, _))) = (bounds_a, bounds_b) else {
            return Ok(Setup::Empty);
        };
        let Some(r) = ba.intersect(&bb) else {
            return Ok(Setup::Empty);
        };
        if !opts.precise {
            return Ok(Setup::Loose(r));
        }
        // Past 2^52 an f64 no longer holds every whole pixel: a window there would be cut
        // short and miss pixels, so it is refused instead (issue 12).
        const EXACT_PIXELS: f64 = 4_503_599_627_370_496.0;
        let far = [r.left(), r.top(), r.right(), r.bottom()]
            .into_iter()
            .fold(0.0f64, |m, v| m.max(v.abs()));
        if far >= EXACT_PIXELS {
            return Err(Error::OutOfRange {
                what: format!(
                    "where {} and {} overlap in {}, in pixels",
                    self.describe(a),
                    self.describe(b),
                    self.describe(parent)
                ),
                value: far,
                range: "-2^52..2^52, where an f64 holds every whole pixel",
            });
        }
        let window = PixelRect::covering(&r);
        let mut budget = DrawBudget::new(opts.max_pixels);
        let epoch = self.cache.query_epoch();
        let pa = self.prepare(a, parent, opts.anti_alias, epoch, &mut budget)?;
        let pb = self.prepare(b, parent, opts.anti_alias, epoch, &mut budget)?;
        let (Some(ea), Some(eb)) = (pa.extent(), pb.extent()) else {
            return Ok(Setup::Empty);
        };
        // Outside the pixels each target can touch its plane is empty, and every pixel's
        // value is independent of the window, so the window can shrink to them.
        let window = window.intersect(&ea).intersect(&eb);
        if window.is_empty() {
            return Ok(Setup::Empty);
        }
        if window.area() > u128::from(opts.max_pixels) {
            return Err(Error::PixelBudget {
                pixels: window.area(),
                budget: opts.max_pixels,
            });
        }
        let thresholds = Thresholds {
            a: threshold(self.target_tolerance(a, opts)?),
            b: threshold(self.target_tolerance(b, opts)?),
        };
        Ok(Setup::Precise {
            window,
            a: pa,
            b: pb,
            thresholds,
        })
    }

    /// The tolerance `target`'s pixels are judged by: its own ([`Stage::set_tolerance`]),
    /// else the query's. Every method asks here, so that the rule is written once.
    pub(crate) fn target_tolerance(&self, target: NodeId, opts: &CollisionOptions) -> Result<u8> {
        Ok(self.node(target)?.tolerance.unwrap_or(opts.tolerance))
    }

    /// Whether `opts.skip_hidden` leaves the pair out: one of them is not shown. Every
    /// method asks here before it looks at pixels.
    pub(crate) fn skipped_as_hidden(&self, a: NodeId, b: NodeId, opts: &CollisionOptions) -> Result<bool> {
        Ok(opts.skip_hidden && !(self.is_shown(a)? && self.is_shown(b)?))
    }

    /// How errors name a query of `a` against `b`.
    pub(crate) fn pair_name(&self, a: NodeId, b: NodeId) -> String {
        format!("the pixels of {} against {}", self.describe(a), self.describe(b))
    }

    /// `target`'s visible leaves relative to `parent` (the caller has checked that `parent`
    /// is an ancestor, and `base` is `target`'s matrix to it), ready to rasterize.
    pub(crate) fn prepare(
        &self,
        target: NodeId,
        parent: NodeId,
        anti_alias: bool,
        epoch: u64,
        budget: &mut DrawBudget,
    ) -> Result<Prepared> {
        let base_color = self.color_transform_to(target, parent)?;
        let mut prepared = Prepared::new(anti_alias, epoch);
        let name = || self.describe(target);
        // The leaves under one clip share its list, so its shapes are made once per query.
        let mut made: Vec<(Arc<ClipLink>, Arc<ClipShapes>)> = Vec::new();
        let walk = Walk::Draw;
        let id = DAffine2::IDENTITY;
        self.walk_leaves(target, parent, id, base_color, walk, |id, visit, m, ct, clips| {
            let Visit::Leaf(leaf) = visit else { return Ok(()) };
            let clip = match clips {
                None => None,
                Some(link) => match made.iter().find(|(l, _)| Arc::ptr_eq(l, link)) {
                    Some((_, shapes)) => Some(shapes.clone()),
                    None => {
                        let regions = self.clip_regions(clips, parent)?;
                        let shapes = Prepared::clip_shapes(&self.cache, &regions, budget, &name)?;
                        made.push((link.clone(), shapes.clone()));
                        Some(shapes)
                    }
                },
            };
            // Multipliers that overflow down the tree make NaN, which would round to an
            // opaque alpha: refused, naming the node (issue 12).
            if !ct.is_finite() {
                return Err(Error::NonFinite {
                    what: format!(
                        "colour transform of {} relative to the query's space",
                        self.describe(id)
                    ),
                });
            }
            prepared.add(&self.cache, leaf, m, ct, clip.as_ref(), budget, &name)
        })?;
        Ok(prepared)
    }

    /// The regions of every clip of a list, each as its pieces with their matrices to
    /// `parent`.
    fn clip_regions(&self, clips: &Clips, parent: NodeId) -> Result<Vec<Vec<(RegionPiece<'_>, DAffine2)>>> {
        let mut regions = Vec::new();
        for clip in each_clip(clips) {
            regions.push(match *clip {
                Clip::Window { rect, matrix } => vec![(RegionPiece::Rect(rect), matrix)],
                Clip::Mask(mask) => {
                    let mut pieces = Vec::new();
                    self.for_each_region_leaf(mask, parent, DAffine2::IDENTITY, |piece, m| {
                        pieces.push((piece, *m));
                        Ok(())
                    })?;
                    pieces
                }
            });
        }
        Ok(regions)
    }

    /// Both targets' whole alpha planes over the query's pixel window (row-major), for the
    /// methods that scan two images; `None` when no pixel can overlap. Not for precise =
    /// false (gives `None`). Memory grows with the window, which `opts.max_pixels` bounds.
    #[allow(dead_code)]
    /// Both targets' alpha planes over the window, for the methods that work on whole
    /// planes. They hold `bytes_per_pixel` bytes per window pixel in all (the planes and what
    /// the method builds from them), which must fit in [`DENSE_BYTES`].
    ///
    /// # Errors
    ///
    /// As [`Stage::collision`]; [`Error::PixelBudget`] when the window has more pixels than
    /// `DENSE_BYTES / bytes_per_pixel` (or `opts.max_pixels`).
    pub(crate) fn overlap_planes(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        bytes_per_pixel: u64,
    ) -> Result<Option<Planes>> {
        let (a_id, b_id) = (a, b);
        let Setup::Precise {
            window,
            a,
            b,
            thresholds,
        } = self.collision_setup(a, b, parent, opts)?
        else {
            return Ok(None);
        };
        dense_budget(window.area(), bytes_per_pixel, opts)?;
        let n = (window.width() * window.height()) as usize;
        let mut raster = Rasterizer::new();
        let (mut plane_a, mut plane_b) = (vec![0u8; n], vec![0u8; n]);
        raster.plane(&a, window, &mut plane_a);
        raster.plane(&b, window, &mut plane_b);
        raster.check(|| self.pair_name(a_id, b_id))?;
        // The methods compare both planes with the query's threshold: a target with a
        // tolerance of its own has its plane made solid or empty by its own threshold first.
        let query = opts.threshold();
        if thresholds != (Thresholds { a: query, b: query }) {
            for (plane, t) in [(&mut plane_a, thresholds.a), (&mut plane_b, thresholds.b)] {
                plane.iter_mut().for_each(|v| *v = if *v >= t { 255 } else { 0 });
            }
        }
        Ok(Some(Planes {
            window,
            a: plane_a,
            b: plane_b,
        }))
    }

    /// Calls `on_pixel(x, y)` for every pixel solid in both targets, row by row within each
    /// chunk. For a query that is not precise, returns the bounds' intersection instead.
    pub(crate) fn scan_overlap(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        on_pixel: impl FnMut(i64, i64),
    ) -> Result<Option<Rect>> {
        let (window, pa, pb, t) = match self.collision_setup(a, b, parent, opts)? {
            Setup::Empty => return Ok(None),
            Setup::Loose(r) => return Ok(Some(r)),
            Setup::Precise {
                window,
                a,
                b,
                thresholds,
            } => (window, a, b, thresholds),
        };
        scan_prepared(window, &pa, &pb, t, opts, on_pixel, || self.pair_name(a, b))?;
        Ok(None)
    }

    /// Whether the point `(x, y)` of the root's space hits `obj`.
    ///
    /// Without `shape_flag`: inside `obj`'s bounds in the root's space, edges included.
    /// With it: inside a fill by its fill rule (a point on a shape's top or left edge is
    /// inside, on its bottom or right edge outside... as Flash: x in (left, right], y in
    /// [top, bottom)), within half a stroke's width of a stroke (at least 0.5 px), or on a
    /// bitmap texel whose alpha is not 0. Hidden descendants do not count; colour transforms
    /// and alpha do not matter (as in Flash).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`], [`Error::NonFinite`] for a non-finite point or matrix.
    pub fn hit_test_point(&self, obj: NodeId, x: f64, y: f64, shape_flag: bool) -> Result<bool> {
        let p = DVec2::new(x, y);
        if !p.is_finite() {
            return Err(Error::NonFinite {
                what: format!("point ({x}, {y}) tested against {}", self.describe(obj)),
            });
        }
        if !shape_flag {
            return Ok(self.bounds(obj, self.root())?.is_some_and(|b| b.contains(p)));
        }
        let mut hit = false;
        let mut test = PointTest::new(BitmapHit::default());
        let name = || self.describe(obj);
        let (root, id, walk) = (self.root(), DAffine2::IDENTITY, Walk::Draw);
        self.walk_leaves(
            obj,
            root,
            id,
            ColorTransform::IDENTITY,
            walk,
            |_, visit, m, _, clips| {
                let Visit::Leaf(leaf) = visit else { return Ok(()) };
                if hit {
                    return Ok(());
                }
                // Masks and scroll windows over the leaf cut it (semantics.md 6).
                hit = test.leaf(leaf, m, p, &name)? && self.clips_contain(clips, p)?;
                Ok(())
            },
        )?;
        Ok(hit)
    }

    /// Whether the boxes of `a` and `b` in the root's space ([`Stage::bounds`], Flash's
    /// loose two-step boxes) overlap or touch, as Flash's `hitTestObject` answers: under a
    /// rotated parent the boxes grow, and objects whose shapes are apart can hit. An object
    /// that draws nothing hits nothing. For the exact answer, ask [`Stage::collision_rect`].
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`], [`Error::NonFinite`].
    pub fn hit_test_object(&self, a: NodeId, b: NodeId) -> Result<bool> {
        let root = self.root();
        Ok(match (self.bounds(a, root)?, self.bounds(b, root)?) {
            (Some(ra), Some(rb)) => ra.touches(&rb),
            _ => false,
        })
    }
}

/// Most bytes a method that works on whole planes of the window (every [`crate::Method`]
/// but `Exact`, which computes rows as it goes) may hold for them: 256 MiB.
pub const DENSE_BYTES: u64 = 1 << 28;

/// [`Error::PixelBudget`] when `pixels` at `bytes_per_pixel` would take more than
/// [`DENSE_BYTES`], or are more than `opts.max_pixels`.
pub(crate) fn dense_budget(pixels: u128, bytes_per_pixel: u64, opts: &CollisionOptions) -> Result<()> {
    let budget = (DENSE_BYTES / bytes_per_pixel.max(1)).min(opts.max_pixels);
    if pixels > u128::from(budget) {
        return Err(Error::PixelBudget { pixels, budget });
    }
    Ok(())
}

/// Pixels of dense planes computed at once when a target is not a single fill.
const BAND_PIXELS: u64 = 1 << 16;

/// The pixels of `window` solid in both targets, counted and bounded; `on_pixel(x, y)` is
/// called for each of them, row by row. The window is taken in bands of rows; a band where
/// the first target has no solid pixel is skipped before the second is computed. Each row
/// is a list of solid intervals per target (runs for a single fill, so that the work grows
/// with the edges rather than the area), and the two lists are intersected.
fn scan_prepared(
    window: PixelRect,
    pa: &Prepared,
    pb: &Prepared,
    t: Thresholds,
    opts: &CollisionOptions,
    on_pixel: impl FnMut(i64, i64),
    name: impl Fn() -> String,
) -> Result<Overlap> {
    with_scan_buffers(|buffers| scan_with(window, (pa, pb), t, opts, on_pixel, name, buffers))
}

fn scan_with(
    window: PixelRect,
    (pa, pb): (&Prepared, &Prepared),
    t: Thresholds,
    opts: &CollisionOptions,
    mut on_pixel: impl FnMut(i64, i64),
    name: impl Fn() -> String,
    buffers: &mut ScanBuffers,
) -> Result<Overlap> {
    let ScanBuffers {
        raster,
        a: sa,
        b: sb,
        hull: hull_b,
        plane,
    } = buffers;
    // The plain path (no fast paths): both targets composited into dense planes, pixel by
    // pixel, which the differential tests hold the runs and the hints to.
    let plain = !opts.fast_paths;
    let band_rows = if !plain && Rasterizer::has_runs(pa) && Rasterizer::has_runs(pb) {
        window.height()
    } else {
        (BAND_PIXELS / window.width().max(1)).max(1)
    } as i64;
    let mut o = Overlap::default();
    let mut count = 0u64;
    let mut y0 = window.y0;
    while y0 < window.y1 {
        let band = PixelRect {
            y0,
            y1: (y0 + band_rows).min(window.y1),
            ..window
        };
        y0 = band.y1;
        // Where b can have pixels at all, when that is cheap to know, bounds a's columns.
        let hint = (!plain && raster.hulls(pb, band, hull_b)).then_some(&*hull_b);
        raster.solid_rows(pa, band, t.a, plain, plane, sa, hint);
        raster.check(&name)?;
        if sa.is_empty() {
            continue;
        }
        let hint = (!plain).then_some(&*sa);
        raster.solid_rows(pb, band, t.b, plain, plane, sb, hint);
        raster.check(&name)?;
        for (k, y) in (band.y0..band.y1).enumerate() {
            let (ra, rb) = (sa.row(k), sb.row(k));
            let (mut i, mut j) = (0, 0);
            while i < ra.len() && j < rb.len() {
                let (x0, x1) = (ra[i].0.max(rb[j].0), ra[i].1.min(rb[j].1));
                if x0 < x1 {
                    count += (x1 - x0) as u64;
                    let r = PixelRect {
                        x0,
                        y0: y,
                        x1,
                        y1: y + 1,
                    };
                    o.rect = Some(o.rect.map_or(r, |h| PixelRect {
                        x0: h.x0.min(r.x0),
                        y0: h.y0.min(r.y0),
                        x1: h.x1.max(r.x1),
                        y1: h.y1.max(r.y1),
                    }));
                    for x in x0..x1 {
                        on_pixel(x, y);
                    }
                }
                if ra[i].1 < rb[j].1 {
                    i += 1;
                } else {
                    j += 1;
                }
            }
        }
    }
    o.count = count;
    Ok(o)
}
