//! The questions one asks a stage: bounds, collisions and hit tests (semantics.md, sections
//! 3 to 5).

use glam::{DAffine2, DVec2};

use crate::geom::shape::Leaf;
use crate::query::pipeline::{PairRequest, Setup, threshold};
use crate::query::point::{BitmapHit, PointTest};
use crate::tree::walk::{Visit, Walk};
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

    /// The box [`Stage::bounds`] maps into other spaces: the union, in `obj`'s space, of its
    /// nodes' own graphics boxes (strokes included). Motion queries map it by the poses
    /// they test.
    pub(crate) fn own_box(&self, obj: NodeId) -> Result<Option<Rect>> {
        self.local_box(obj, BoxKind::WithStrokes)
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
                let r = match (visit, kind) {
                    // A scrolled node's window stands for its content (semantics.md 6).
                    (Visit::Window(w), _) => Some(w),
                    (Visit::Leaf(leaf), BoxKind::WithStrokes) => leaf.flash_box(),
                    (Visit::Leaf(leaf), BoxKind::WithoutStrokes) => leaf.centreline_box(),
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
        match self.setup_pair(&PairRequest::new(a, b, parent, opts))? {
            Setup::Empty => Ok(Collision {
                rect: None,
                overlap_pixels: opts.precise.then_some(0),
            }),
            Setup::Loose(r) => Ok(Collision {
                rect: Some(r),
                overlap_pixels: None,
            }),
            Setup::Pair(pair) => pair.collision(self, opts),
        }
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
