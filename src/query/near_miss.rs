//! Near misses rejected before anything is drawn: two targets whose conservative outlines
//! are farther apart than a pixel's diagonal share no pixel (issue 21, item 1).
//!
//! A pixel's value can be non-zero only where the item's geometry meets the pixel square
//! (semantics.md 4.5: coverage is an area inside the square, a centre test or a texel under
//! the centre), so a pixel solid in both targets is a unit square that meets both. Two sets
//! more than `sqrt(2)` apart meet no common unit square. Each item's outline is a convex
//! hull in its own space, worked out once per geometry and kept with it
//! ([`Graphic::hull`](crate::Graphic), [`Bitmap`](crate::Bitmap)'s texel hulls), mapped by
//! the item's matrix to the query's parent; a target's outline is the hull of its items'.
//! Anything that only removes pixels (clips, masks, colour transforms that make an item
//! invisible, the threshold) is left out: the outline stays a superset.
//!
//! The margin on top of `sqrt(2)` covers what moves the drawn geometry off the exact one:
//! flattening (1/128 px), snapping to the 1/256 px grid, the bitmap rule's 2^-32 texel
//! fixed point, and f64 rounding of coordinates far from the origin.

use std::cell::RefCell;

use glam::{DAffine2, DVec2};

use crate::geom::hull::{self, HullView, KeptHull as Kept};
use crate::geom::shape::Leaf;
use crate::geom::transform::max_scale;
use crate::tree::walk::{Visit, Walk};
use crate::{ColorTransform, NodeId, Stage};

/// A pixel's diagonal: the farthest apart two points of one pixel square can be.
const DIAGONAL: f64 = std::f64::consts::SQRT_2;

/// Room for flattening (1/128 px) and snapping (under 1/256 px per vertex), with plenty to
/// spare.
const MARGIN: f64 = 1.0 / 32.0;

/// Room for the f64 rounding of a rendered bitmap's texel-to-pixel map (semantics.md 4.9),
/// whose entries are exact 16.16 numbers and whose walk stays under 2^30 (16,384 px).
const RENDERED_MARGIN: f64 = 1.0 / 1024.0;

/// Room for f64 rounding, relative to the largest coordinate met.
const RELATIVE_MARGIN: f64 = 1e-9;

/// Past this distance from an item's position the raster refuses the geometry (2^40 px):
/// such a pair is left to the plain path, which says so.
const FAR: f64 = 1_099_511_627_776.0 / 2.0;

/// A target's outline in the query's parent, being gathered.
#[derive(Default)]
struct Outline<'s> {
    /// The first item's hull in its own space and its matrix: while it is the only item,
    /// the first axis is tried on it without mapping its points.
    first: Option<(&'s Kept, DAffine2)>,
    /// The items' hulls mapped into the parent, once there are several or the first axis
    /// did not decide.
    points: Vec<DVec2>,
    items: usize,
    /// Extra distance its geometry may stray beyond the points.
    margin: f64,
    /// Largest coordinate met, for the rounding margin.
    far: f64,
    /// Geometry the raster would refuse: no rejection.
    refused: bool,
    /// The one item's hull centre and reach, mapped (for several items they are worked out
    /// from the joint hull).
    centre: DVec2,
    reach: f64,
}

impl<'s> Outline<'s> {
    /// An outline gathering into `points` (a kept buffer, emptied).
    fn new(mut points: Vec<DVec2>) -> Outline<'s> {
        points.clear();
        Outline {
            points,
            ..Outline::default()
        }
    }

    fn view(&self) -> HullView<'_> {
        HullView {
            points: &self.points,
            centre: self.centre,
            reach: self.reach,
        }
    }

    fn add(&mut self, local: &'s Kept, m: &DAffine2, margin: f64) {
        match self.items {
            0 => self.first = Some((local, *m)),
            1 => {
                self.map_first();
                hull::map_hull(&local.points, m, &mut self.points);
            }
            _ => hull::map_hull(&local.points, m, &mut self.points),
        }
        // Every mapped point lies within the matrix's largest stretch times the local
        // reach of the item's position. The Frobenius norm bounds that stretch from above
        // (and overflows to a refusal, never to a small value) at the cost of one root; the
        // reach only steers the search, so its lower bound (the norm over sqrt 2, exact for
        // a turn and an even scale) does.
        let stretch = m.matrix2.x_axis.length_squared() + m.matrix2.y_axis.length_squared();
        let stretch = stretch.sqrt();
        let off = stretch * local.reach;
        self.centre = m.transform_point2(local.centre);
        self.reach = stretch * std::f64::consts::FRAC_1_SQRT_2 * local.reach_from_centre;
        if off.is_nan() || off >= FAR {
            self.refused = true;
        }
        self.far = self.far.max(m.translation.abs().max_element() + off);
        self.items += 1;
        self.margin = self.margin.max(margin);
    }

    /// Maps the first item's hull into `points`, once.
    fn map_first(&mut self) {
        if let Some((local, m)) = self.first.take() {
            hull::map_hull(&local.points, &m, &mut self.points);
        }
    }

    /// The joint hull of several items, with its centre and reach.
    fn finish(&mut self) {
        if self.items > 1 {
            hull::convex_hull(&mut self.points);
            let joint = HullView::of(&self.points);
            (self.centre, self.reach) = (joint.centre, joint.reach);
        }
    }

    /// What the test reads of the finished outline.
    fn summary(&self) -> Summary<'_> {
        Summary {
            first: self.first.map(|(local, m)| (&*local.points, m)),
            points: &self.points,
            margin: self.margin,
            far: self.far,
            centre: self.centre,
            reach: self.reach,
        }
    }
}

/// What the near-miss test reads of a finished outline, gathered for one pair or kept for
/// a query.
#[derive(Clone, Copy)]
struct Summary<'p> {
    /// A one-item outline's local points and matrix.
    first: Option<(&'p [DVec2], DAffine2)>,
    /// The mapped points, when there are several items.
    points: &'p [DVec2],
    margin: f64,
    far: f64,
    centre: DVec2,
    reach: f64,
}

impl Summary<'_> {
    /// The largest projection of the outline's points on `n` (a unit vector in the
    /// parent), read in the item's own space while it is one unmapped item:
    /// `(m p) . n = p . (A^T n) + t . n`.
    fn max_along(&self, n: DVec2) -> f64 {
        match self.first {
            Some((local, m)) => {
                let back = m.matrix2.transpose() * n;
                let top = hull::largest(local.iter().map(|p| p.dot(back)));
                top + m.translation.dot(n)
            }
            None => hull::largest(self.points.iter().map(|p| p.dot(n))),
        }
    }
}

/// What gathering a target's outline gave.
enum Gathered {
    /// Gathering failed or met geometry the raster would refuse: no rejection.
    Failed,
    /// Nothing drawn: no pixel of it can be solid.
    Nothing,
    Outline(Owned),
}

/// A finished outline's [`Summary`], owned.
struct Owned {
    /// A one-item outline's local points (its kept hull's, shared) and matrix.
    first: Option<(std::sync::Arc<[DVec2]>, DAffine2)>,
    points: Vec<DVec2>,
    margin: f64,
    far: f64,
    centre: DVec2,
    reach: f64,
}

impl Owned {
    fn summary(&self) -> Summary<'_> {
        Summary {
            first: self.first.as_ref().map(|(local, m)| (&**local, *m)),
            points: &self.points,
            margin: self.margin,
            far: self.far,
            centre: self.centre,
            reach: self.reach,
        }
    }
}

/// One target's outline, gathered once per many-object query and kept in its memo
/// (`target_memo.rs`), so that a target in several close pairs is not walked again for
/// each of them.
pub(crate) struct KeptOutline {
    gathered: Gathered,
}

impl Owned {
    /// The outline's mapped points, as [`Outline::map_first`] maps them: a one-item
    /// outline's into `buffer` (the thread's, reused: kept with the outline, they were a
    /// new vector for every target a pair searched, hundreds a frame).
    fn view<'p>(&'p self, buffer: &'p mut Vec<DVec2>) -> HullView<'p> {
        let points = match &self.first {
            Some((local, m)) => {
                buffer.clear();
                hull::map_hull(local, m, buffer);
                buffer
            }
            None => &self.points,
        };
        HullView {
            points,
            centre: self.centre,
            reach: self.reach,
        }
    }
}

/// What the axis between two outlines' centres says.
enum Verdict {
    /// Decided: apart, or deep into each other.
    Apart(bool),
    /// Not decided: `hull::apart` searches on the mapped points, with this gap.
    Search(f64),
}

/// The first step of the test on two finished outlines. The axis between the centres
/// decides most pairs (apart, or deep into each other) without mapping a single-item
/// target's points; `hull::apart` tries the same axis first and then searches, on mapped
/// points.
fn by_centres(oa: Summary<'_>, ob: Summary<'_>) -> Verdict {
    let gap = DIAGONAL + MARGIN + oa.margin + ob.margin + RELATIVE_MARGIN * oa.far.max(ob.far);
    let between = (ob.centre - oa.centre).normalize_or_zero();
    if between == DVec2::ZERO {
        return Verdict::Apart(false);
    }
    let along = -ob.max_along(-between) - oa.max_along(between);
    if along > gap {
        return Verdict::Apart(true);
    }
    if along < hull::deep_overlap(gap, oa.reach, ob.reach) {
        return Verdict::Apart(false);
    }
    Verdict::Search(gap)
}

thread_local! {
    static OUTLINE_POINTS: RefCell<[Vec<DVec2>; 2]> = RefCell::default();
}

#[cfg(test)]
thread_local! {
    /// Outlines gathered to be kept for a query, on this thread.
    pub(crate) static KEPT_OUTLINES: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Pairs too far apart to touch, answered before anything is drawn (crate-internal).
impl Stage {
    /// Whether the outlines of `a` and `b` in `parent` are too far apart for any pixel to
    /// be solid in both: then the precise answer is `None`, without drawing. `false` when
    /// they may touch, or when gathering an outline failed (the plain path then reports
    /// the error). The caller has checked that `parent` is above both.
    pub(crate) fn outlines_apart(&self, a: NodeId, b: NodeId, parent: NodeId) -> bool {
        OUTLINE_POINTS.with(|cell| {
            let Ok(mut kept) = cell.try_borrow_mut() else {
                return false;
            };
            let [ka, kb] = &mut *kept;
            let mut oa = Outline::new(std::mem::take(ka));
            let mut ob = Outline::new(std::mem::take(kb));
            let apart = self.gathered_apart(a, b, parent, &mut oa, &mut ob);
            (*ka, *kb) = (oa.points, ob.points);
            apart
        })
    }

    fn gathered_apart<'s>(
        &'s self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        oa: &mut Outline<'s>,
        ob: &mut Outline<'s>,
    ) -> bool {
        for (target, outline) in [(a, &mut *oa), (b, &mut *ob)] {
            if self.gather_outline(target, parent, outline).is_err() || outline.refused {
                return false;
            }
            if outline.items == 0 {
                // Nothing drawn: no pixel of it can be solid.
                return true;
            }
            outline.finish();
        }
        match by_centres(oa.summary(), ob.summary()) {
            Verdict::Apart(apart) => apart,
            Verdict::Search(gap) => {
                oa.map_first();
                ob.map_first();
                hull::apart(&oa.view(), &ob.view(), gap)
            }
        }
    }

    /// `target`'s outline in `parent`, gathered once for the many pairs of a many-object
    /// query that test it ([`Stage::kept_outlines_apart`]).
    pub(crate) fn kept_outline(&self, target: NodeId, parent: NodeId) -> KeptOutline {
        #[cfg(test)]
        KEPT_OUTLINES.with(|n| n.set(n.get() + 1));
        let mut outline = Outline::new(Vec::new());
        let gathered = match self.gather_outline(target, parent, &mut outline) {
            Err(_) => Gathered::Failed,
            Ok(()) if outline.refused => Gathered::Failed,
            Ok(()) if outline.items == 0 => Gathered::Nothing,
            Ok(()) => {
                outline.finish();
                Gathered::Outline(Owned {
                    first: outline.first.map(|(local, m)| (local.points.clone(), m)),
                    points: outline.points,
                    margin: outline.margin,
                    far: outline.far,
                    centre: outline.centre,
                    reach: outline.reach,
                })
            }
        };
        KeptOutline { gathered }
    }

    /// [`Stage::outlines_apart`] from two kept outlines: the same steps on the same
    /// numbers, so the same verdict (a one-item outline's points are mapped by each pair
    /// that searches, into the thread's buffers). Without `search`, the axis between the
    /// centres alone: an outline test that leaves undecided what the search would have
    /// tried says `false`, which is never wrong.
    pub(crate) fn kept_outlines_apart(a: &KeptOutline, b: &KeptOutline, search: bool) -> bool {
        let oa = match &a.gathered {
            Gathered::Failed => return false,
            Gathered::Nothing => return true,
            Gathered::Outline(o) => o,
        };
        let ob = match &b.gathered {
            Gathered::Failed => return false,
            Gathered::Nothing => return true,
            Gathered::Outline(o) => o,
        };
        match by_centres(oa.summary(), ob.summary()) {
            Verdict::Apart(apart) => apart,
            Verdict::Search(_) if !search => false,
            Verdict::Search(gap) => OUTLINE_POINTS.with(|cell| {
                // Borrowed only here and in `outlines_apart`, neither of which calls the
                // other: a failed borrow cannot happen, and would only reject nothing.
                let Ok(mut kept) = cell.try_borrow_mut() else {
                    return false;
                };
                let [ka, kb] = &mut *kept;
                hull::apart(&oa.view(ka), &ob.view(kb), gap)
            }),
        }
    }

    /// Every drawn item's hull mapped into `parent`, as the raster would place it.
    fn gather_outline<'s>(
        &'s self,
        target: NodeId,
        parent: NodeId,
        out: &mut Outline<'s>,
    ) -> crate::Result<()> {
        let (id, ct) = (DAffine2::IDENTITY, ColorTransform::IDENTITY);
        self.walk_leaves(target, parent, id, ct, Walk::Draw, |_, visit, m, _, _| {
            let Visit::Leaf(leaf) = visit else { return Ok(()) };
            // A singular matrix draws nothing (as Prepared::add).
            if m.matrix2.determinant() == 0.0 {
                return Ok(());
            }
            match leaf {
                Leaf::Graphic(g) => out.add(g.hull(), m, 0.0),
                // pygame's walk undone maps the texel hull (f64 rounding of that map is far
                // below the margin); rotozoom's smoothing reaches a texel further, each
                // axis: sqrt(2) texels at the map's largest stretch. No map: no rejection
                // (the box still rejects in the broad phase).
                Leaf::Bitmap(bitmap, _, Some(rendered)) => match rendered.hull_map {
                    Some((g, reach)) => {
                        let placed = *m * g;
                        let margin = RENDERED_MARGIN + reach * std::f64::consts::SQRT_2 * max_scale(&placed);
                        out.add(&bitmap.hulls().sharp, &placed, margin)
                    }
                    None => out.refused = true,
                },
                Leaf::Bitmap(bitmap, smoothing, None) => {
                    let hulls = bitmap.hulls();
                    let local = if smoothing { &hulls.smooth } else { &hulls.sharp };
                    // The fixed-point texel of a pixel is off by at most 2^-33 texel per
                    // pixel of distance from the anchor (semantics.md 4.5).
                    let size = f64::from(bitmap.width()) + f64::from(bitmap.height());
                    let scale = max_scale(m);
                    let fixed_point = scale * (2.0 + 2.0 * scale * size) * 2f64.powi(-30);
                    out.add(local, m, fixed_point);
                }
            }
            Ok(())
        })
    }
}

#[cfg(test)]
mod tests {
    //! The rejection against the plain path (no fast paths: both planes composited pixel by
    //! pixel) over thousands of random near and touching pairs.

    use glam::{DAffine2, DVec2};

    use super::KeptOutline;
    use crate::{
        Bitmap, Collision, CollisionOptions, ColorTransform, FillRule, Graphic, NodeId, Path, Stage,
    };

    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let x = self.0;
            (x ^ (x >> 31)).wrapping_mul(0x94d049bb133111eb) >> 11
        }
        fn f(&mut self) -> f64 {
            self.next() as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.f()
        }
        fn chance(&mut self, p: f64) -> bool {
            self.f() < p
        }
    }

    fn polygon(rng: &mut Rng, r: f64) -> Path {
        let n = 3 + (rng.next() % 8) as usize;
        let pts: Vec<DVec2> = (0..n)
            .map(|i| {
                let a = std::f64::consts::TAU * (i as f64 + rng.range(0.0, 0.8)) / n as f64;
                let rr = if rng.chance(0.3) {
                    r * rng.range(0.2, 0.8)
                } else {
                    r
                };
                DVec2::new(rr * a.cos(), rr * a.sin())
            })
            .collect();
        Path::polygon(&pts)
    }

    fn curve(rng: &mut Rng, r: f64) -> Path {
        let mut p = Path::new();
        let mut pt = || DVec2::new(rng.range(-r, r), rng.range(-r, r));
        let (s, c1, c2, e, q, qe) = (pt(), pt(), pt(), pt(), pt(), pt());
        p.move_to(s.x, s.y)
            .cubic_to(c1.x, c1.y, c2.x, c2.y, e.x, e.y)
            .quad_to(q.x, q.y, qe.x, qe.y);
        p
    }

    /// A disc of alpha (soft or hard edged) with `border` transparent texels all round,
    /// or none.
    fn bitmap(rng: &mut Rng) -> Bitmap {
        let (w, h) = (1 + (rng.next() % 24) as u32, 1 + (rng.next() % 24) as u32);
        let border = if rng.chance(0.8) {
            1 + (rng.next() % 3) as u32
        } else {
            0
        };
        let soft = rng.chance(0.5);
        let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
        let r = rng.range(0.4, 0.8) * f64::from(w.max(h));
        let mut rgba = Vec::new();
        for y in 0..h {
            for x in 0..w {
                let d = (f64::from(x) + 0.5 - cx).hypot(f64::from(y) + 0.5 - cy);
                let edge = x < border || y < border || x + border >= w || y + border >= h;
                let a = match (edge, soft) {
                    (true, _) => 0.0,
                    (false, true) => ((r - d) / 3.0).clamp(0.0, 1.0) * 255.0,
                    (false, false) if d < r => 255.0,
                    _ => 0.0,
                };
                rgba.extend_from_slice(&[9, 9, 9, a as u8]);
            }
        }
        Bitmap::from_rgba8(w, h, rgba).unwrap()
    }

    fn matrix(rng: &mut Rng, at: DVec2, skew: bool) -> DAffine2 {
        let (s, c) = rng.range(0.0, std::f64::consts::TAU).sin_cos();
        let (sx, sy) = (rng.range(0.5, 1.6), rng.range(0.5, 1.6));
        let k = if skew && rng.chance(0.3) {
            rng.range(-0.8, 0.8)
        } else {
            0.0
        };
        let flip = if rng.chance(0.15) { -1.0 } else { 1.0 };
        DAffine2::from_cols_array(&[flip * sx * c, flip * sx * s, -sy * s + k, sy * c, at.x, at.y])
    }

    /// One leaf: a thin or wide stroke, a fill (polygon, circle, curve) or a bitmap.
    fn leaf(rng: &mut Rng, stage: &mut Stage, node: NodeId) {
        let r = rng.range(1.0, 14.0);
        let kind = rng.next() % 6;
        let path = match rng.next() % 3 {
            0 => polygon(rng, r),
            1 => Path::circle(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0), r),
            _ => curve(rng, r),
        };
        match kind {
            0 | 1 => {
                let width = if rng.chance(0.6) {
                    rng.range(0.02, 1.0)
                } else {
                    rng.range(1.0, 6.0)
                };
                stage
                    .add_graphic(node, Graphic::stroke(path, width, rng.range(0.3, 1.0)).unwrap())
                    .unwrap();
            }
            2 | 3 => {
                let rule = if rng.chance(0.5) {
                    FillRule::EvenOdd
                } else {
                    FillRule::NonZero
                };
                let alpha = if rng.chance(0.3) { rng.range(0.0, 1.0) } else { 1.0 };
                stage
                    .add_graphic(node, Graphic::fill(path, rule, alpha).unwrap())
                    .unwrap();
            }
            _ => {
                let b = stage.add_bitmap(node, bitmap(rng), rng.chance(0.4)).unwrap();
                let at = DVec2::new(rng.range(-12.0, 0.0), rng.range(-12.0, 0.0));
                let m = if rng.chance(0.5) {
                    DAffine2::from_translation(at)
                } else {
                    matrix(rng, at, true)
                };
                stage.set_matrix(b, m).unwrap();
            }
        }
    }

    /// A target: a container with one to three leaves, sometimes a nested child, sometimes
    /// a colour transform.
    fn target(rng: &mut Rng, stage: &mut Stage, parent: NodeId) -> NodeId {
        let node = stage.add_container(parent).unwrap();
        leaf(rng, stage, node);
        if rng.chance(0.25) {
            leaf(rng, stage, node);
        }
        if rng.chance(0.25) {
            let child = stage.add_container(node).unwrap();
            leaf(rng, stage, child);
            let at = DVec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
            stage.set_matrix(child, matrix(rng, at, true)).unwrap();
        }
        if rng.chance(0.2) {
            let ct = ColorTransform::new([1.0; 4], [0.0, 0.0, 0.0, rng.range(-80.0, 80.0)]);
            stage.set_color_transform(node, ct).unwrap();
        }
        node
    }

    /// Sprites drawn by pygame's `rotate` or `rotozoom` (semantics.md 4.9) at whole-pixel
    /// offsets, from far apart to overlapping: every pair the outlines reject has no pixel
    /// solid in both on the plain path, and pairs whose boxes overlap are rejected (the hull
    /// is the texel hull mapped by pygame's walk undone, widened for rotozoom's smoothing).
    #[test]
    fn rendered_rotate_sprites_are_rejected_only_when_apart() {
        use crate::{BitmapRenderer, PygameTransform};
        let mut rng = Rng(0x5eed_3001);
        let (mut rejected, mut boxes_met_but_rejected, mut rejected_rotozoom) = (0u32, 0u32, 0u32);
        for case in 0..300 {
            let mut stage = Stage::new();
            let root = stage.root();
            let (sa, sb) = (bitmap(&mut rng), bitmap(&mut rng));
            let (a, b) = (
                stage.add_bitmap(root, sa, false).unwrap(),
                stage.add_bitmap(root, sb, false).unwrap(),
            );
            let rotozoom = rng.chance(0.4);
            for n in [a, b] {
                let angle = match rng.next() % 3 {
                    0 => f64::from((rng.next() % 9) as u32) * 90.0 - 360.0,
                    _ => rng.range(-400.0, 400.0),
                };
                let t = match rotozoom {
                    true if rng.chance(0.2) => {
                        PygameTransform::rotozoom(rng.range(-1e-3, 1e-3), rng.range(0.3, 3.0))
                    }
                    true => PygameTransform::rotozoom(angle, rng.range(0.3, 3.0)),
                    false => PygameTransform::rotate(angle),
                };
                let t = t.flip(rng.chance(0.3), rng.chance(0.3));
                stage
                    .set_bitmap_renderer(n, Some(BitmapRenderer::Pygame(t)))
                    .unwrap();
            }
            let dir = DVec2::from_angle(rng.range(0.0, std::f64::consts::TAU));
            for step in (0..40).rev() {
                let at = (dir * f64::from(step)).round();
                stage.set_position(b, at.x, at.y).unwrap();
                if !stage.outlines_apart(a, b, root) {
                    continue;
                }
                rejected += 1;
                rejected_rotozoom += u32::from(rotozoom);
                let opts = CollisionOptions::default().fast_paths(false);
                let plain = stage.collision(a, b, root, &opts).unwrap();
                assert_eq!(plain.rect, None, "case {case} step {step}: rejected but touching");
                let (ba, bb) = (stage.bounds(a, root).unwrap(), stage.bounds(b, root).unwrap());
                if let (Some(ba), Some(bb)) = (ba, bb) {
                    boxes_met_but_rejected += u32::from(ba.intersect(&bb).is_some());
                }
            }
        }
        assert!(rejected > 2000, "{rejected} rejected");
        assert!(
            rejected_rotozoom > 500,
            "{rejected_rotozoom} rotozoom pairs rejected"
        );
        assert!(
            boxes_met_but_rejected > 300,
            "{boxes_met_but_rejected} rejected inside the boxes"
        );
    }

    /// An outline kept for a query decides every pair as the outline gathered for that
    /// pair alone: random targets of one to four items (strokes, fills, bitmaps, nested,
    /// colour transforms) near each other, in skewed parents, some far from the origin;
    /// each kept outline is used against several others and in both orders, so that its
    /// lazily mapped points are read again. Without the search, it rejects only pairs the
    /// search rejects.
    #[test]
    fn kept_outlines_decide_as_gathered_ones() {
        let mut rng = Rng(0x5eed_4401);
        let (mut apart, mut near, mut left_to_the_search) = (0u32, 0u32, 0u32);
        for _ in 0..150 {
            let mut stage = Stage::new();
            let root = stage.root();
            let outer = stage.add_container(root).unwrap();
            let at = match rng.chance(0.2) {
                true => DVec2::new(rng.range(-1e6, 1e6), rng.range(-1e6, 1e6)),
                false => DVec2::ZERO,
            };
            stage.set_matrix(outer, matrix(&mut rng, at, true)).unwrap();
            let parent = if rng.chance(0.5) { outer } else { root };
            let targets: Vec<NodeId> = (0..6)
                .map(|_| {
                    let t = target(&mut rng, &mut stage, outer);
                    let at = DVec2::new(rng.range(-30.0, 30.0), rng.range(-30.0, 30.0));
                    stage.set_matrix(t, matrix(&mut rng, at, true)).unwrap();
                    t
                })
                .collect();
            let kept: Vec<KeptOutline> = targets.iter().map(|&t| stage.kept_outline(t, parent)).collect();
            for _ in 0..2 {
                for (i, &a) in targets.iter().enumerate() {
                    for (j, &b) in targets.iter().enumerate() {
                        if i == j {
                            continue;
                        }
                        let want = stage.outlines_apart(a, b, parent);
                        assert_eq!(Stage::kept_outlines_apart(&kept[i], &kept[j], true), want);
                        // Without the search it rejects a subset of those pairs.
                        let unsearched = Stage::kept_outlines_apart(&kept[i], &kept[j], false);
                        assert!(want || !unsearched);
                        left_to_the_search += u32::from(want && !unsearched);
                        if want {
                            apart += 1;
                        } else {
                            near += 1;
                        }
                    }
                }
            }
        }
        assert!(apart > 1_000 && near > 1_000, "{apart} apart, {near} not");
        assert!(
            left_to_the_search > 20,
            "{left_to_the_search} found apart by the search alone"
        );
    }

    #[test]
    fn rejected_pairs_and_all_others_answer_as_the_plain_path() {
        let mut rng = Rng(0x5eed_2101);
        let (mut pairs, mut rejected, mut touching, mut near_rejected) = (0u32, 0u32, 0u32, 0u32);
        let mut from_cache = 0u64;
        for case in 0..700 {
            let mut stage = Stage::new();
            let root = stage.root();
            // Nested parents, skewed or far from the origin; the query's parent is one of them.
            let outer = stage.add_container(root).unwrap();
            let at = if rng.chance(0.2) {
                DVec2::new(rng.range(-1e6, 1e6), rng.range(-1e6, 1e6))
            } else {
                DVec2::ZERO
            };
            stage.set_matrix(outer, matrix(&mut rng, at, true)).unwrap();
            let inner = stage.add_container(outer).unwrap();
            let inner_at = DVec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
            stage.set_matrix(inner, matrix(&mut rng, inner_at, true)).unwrap();
            let parent = if rng.chance(0.5) { outer } else { root };
            let a = target(&mut rng, &mut stage, inner);
            let b = target(&mut rng, &mut stage, inner);
            let base_a = matrix(&mut rng, DVec2::ZERO, true);
            stage.set_matrix(a, base_a).unwrap();
            let turn = matrix(&mut rng, DVec2::ZERO, true);
            let dir = DVec2::from_angle(rng.range(0.0, std::f64::consts::TAU));
            let place = |stage: &mut Stage, s: f64| {
                stage
                    .set_matrix(b, DAffine2::from_translation(dir * s) * turn)
                    .unwrap()
            };
            let opts = CollisionOptions::default()
                .anti_alias(rng.chance(0.7))
                .tolerance([0, 60, 128, 200, 254, 255][(rng.next() % 6) as usize]);
            let plain = |stage: &Stage| stage.collision(a, b, parent, &opts.fast_paths(false)).unwrap();
            // Where b stops touching a along `dir`, found by bisection (in the inner space).
            let (mut lo, mut hi) = (0.0, 200.0);
            place(&mut stage, hi);
            if plain(&stage).rect.is_some() {
                continue;
            }
            place(&mut stage, lo);
            if plain(&stage).rect.is_none() {
                lo = -1.0;
            }
            if lo == 0.0 {
                for _ in 0..16 {
                    let mid = (lo + hi) / 2.0;
                    place(&mut stage, mid);
                    match plain(&stage).rect {
                        Some(_) => lo = mid,
                        None => hi = mid,
                    }
                }
            } else {
                hi = rng.range(0.0, 60.0);
            }
            for _ in 0..6 {
                let s = hi + rng.range(-1.0, 4.0);
                place(&mut stage, s);
                let want: Collision = plain(&stage);
                let apart = stage.outlines_apart(a, b, parent);
                let got = stage.collision(a, b, parent, &opts).unwrap();
                assert_eq!(got, want, "case {case} at {s}: rejected {apart}");
                // Asked again in a new frame, the poses are drawn whole into the cache; a third
                // time, the targets come from the cache alone, without the outline test.
                let served_before = crate::raster::served_from_cache();
                for again in 0..2 {
                    // A change to the tree that moves nothing: the kept answer is gone, the
                    // rasters stay.
                    let m = stage.matrix(a).unwrap();
                    stage.set_matrix(a, m).unwrap();
                    let got = stage.collision(a, b, parent, &opts).unwrap();
                    assert_eq!(got, want, "case {case} at {s}, asked again ({again})");
                }
                from_cache += crate::raster::served_from_cache() - served_before;
                assert!(
                    !apart || want.rect.is_none(),
                    "case {case}: rejected a touching pair"
                );
                pairs += 1;
                rejected += u32::from(apart);
                touching += u32::from(want.rect.is_some());
                near_rejected += u32::from(apart && s < hi + 2.0);
            }
        }
        eprintln!(
            "{pairs} pairs: {rejected} rejected ({near_rejected} within 2 px of touching), {touching} touching, {from_cache} answered from the cache alone"
        );
        assert!(
            from_cache * 2 >= u64::from(pairs),
            "{from_cache} of {pairs} from the cache alone"
        );
        assert!(pairs >= 3000, "{pairs} pairs");
        assert!(
            rejected * 5 >= pairs && touching * 10 >= pairs,
            "{rejected} rejected, {touching} touching of {pairs}"
        );
    }
}
