//! Flattened contours and the polygon operations the rasterizer and the hit tests need:
//! point-in-fill with Flash's boundary rule, distance to the outline, clipping to a
//! rectangle, and stroke outlines.

use std::f64::consts::{PI, TAU};

use glam::{DAffine2, DVec2};

use crate::geom::path::{Contour, FillRule, Path, Polylines};
use crate::geom::rect::Rect;
use crate::geom::transform::max_scale;

/// Point-in-fill with Flash's boundary rule, every contour treated as closed: along a
/// scanline a point is inside for y in `[top, bottom)` and x in `(left, right]`.
///
/// Each non-horizontal edge counts when `min(y0, y1) <= py < max(y0, y1)` and its crossing
/// with the scanline lies strictly left of the point, adding +1 when it goes down (y grows)
/// and -1 when it goes up.
pub(crate) fn contains(polys: &Polylines, p: DVec2, rule: FillRule) -> bool {
    let mut winding: i64 = 0;
    for c in &polys.contours {
        let pts = polys.slice(c);
        let Some(&last) = pts.last() else { continue };
        let mut prev = last;
        for &cur in pts {
            winding += edge_winding(prev, cur, p);
            prev = cur;
        }
    }
    match rule {
        FillRule::NonZero => winding != 0,
        FillRule::EvenOdd => winding % 2 != 0,
    }
}

/// What the edge `a -> b` adds to the winding number of `p` (see [`contains`]).
fn edge_winding(a: DVec2, b: DVec2, p: DVec2) -> i64 {
    if a.y == b.y {
        return 0;
    }
    // Ordering the ends by y makes the crossing the same whichever way the edge is given.
    let (lo, hi, dir) = if a.y < b.y { (a, b, 1) } else { (b, a, -1) };
    if !(lo.y <= p.y && p.y < hi.y) {
        return 0;
    }
    // Vertical edges take their x as it is, so axis-aligned boundaries are exact; at the
    // lower end the product is zero and the crossing is the vertex itself.
    let x = if lo.x == hi.x {
        lo.x
    } else {
        lo.x + (p.y - lo.y) * (hi.x - lo.x) / (hi.y - lo.y)
    };
    if x < p.x { dir } else { 0 }
}

/// Smallest distance from `p` to any segment of any contour (closing edge included when the
/// contour is closed); a one-point contour is a point. `None` when there are no points.
pub(crate) fn distance(polys: &Polylines, p: DVec2) -> Option<f64> {
    let mut best = f64::INFINITY;
    let mut any = false;
    for c in &polys.contours {
        let pts = polys.slice(c);
        match pts {
            [] => continue,
            [only] => best = best.min(only.distance_squared(p)),
            [first, .., last] => {
                for w in pts.windows(2) {
                    if let [a, b] = w {
                        best = best.min(segment_distance_squared(p, *a, *b));
                    }
                }
                if c.closed {
                    best = best.min(segment_distance_squared(p, *last, *first));
                }
            }
        }
        any = true;
    }
    any.then(|| best.sqrt())
}

fn segment_distance_squared(p: DVec2, a: DVec2, b: DVec2) -> f64 {
    let ab = b - a;
    // Scaled by its largest component, so that the square of a length past 1e154 does not
    // overflow (nor one under 1e-154 vanish) before the division.
    let scale = ab.x.abs().max(ab.y.abs());
    let t = if scale > 0.0 && scale.is_finite() {
        let (abs, aps) = (ab / scale, (p - a) / scale);
        (aps.dot(abs) / abs.length_squared()).clamp(0.0, 1.0)
    } else {
        0.0
    };
    (a + ab * t - p).length_squared()
}

/// `v` as a unit vector, or zero for a zero or non-finite vector. Normalized after dividing
/// by its largest component, so that a direction survives lengths whose square overflows
/// (past about 1e154) or underflows (under about 1e-154).
fn unit(v: DVec2) -> DVec2 {
    let scale = v.x.abs().max(v.y.abs());
    if !(scale > 0.0 && scale.is_finite()) {
        return DVec2::ZERO;
    }
    (v / scale).normalize_or_zero()
}

/// Sutherland–Hodgman clip of every contour (treated as closed) against `clip`, appended to
/// `out` as closed contours.
///
/// The winding number at every point strictly inside `clip` is unchanged. Clipping by one
/// half-plane replaces each excursion of the contour outside it, from where it leaves at A
/// to where it comes back at B, by the straight segment A-B on the half-plane's edge. The
/// excursion followed by B-A is a closed loop lying in the closed outer half-plane, so it
/// winds zero times around any point strictly inside; and the four half-planes of the
/// rectangle contain every point strictly inside it. Clipping each contour on its own keeps
/// this true for the sum over contours. The rectangle edges that clipping adds are not
/// inside the clip strictly, so the boundary rule is only affected on `clip`'s own edges.
///
/// Contours entirely inside are copied as they are, contours whose box does not touch the
/// clip are dropped, and so are clipped contours with fewer than 3 points.
pub(crate) fn clip_to_rect(polys: &Polylines, clip: &Rect, out: &mut Polylines) {
    let (mut a, mut b) = (Vec::new(), Vec::new());
    let (l, t, r, btm) = (clip.left(), clip.top(), clip.right(), clip.bottom());
    for c in &polys.contours {
        let pts = polys.slice(c);
        // A non-finite contour covers nothing that can be told apart; leaving it out also
        // keeps NaN away from the crossing arithmetic.
        if !pts.iter().all(|p| p.is_finite()) {
            continue;
        }
        let Some(bounds) = Rect::from_points(pts.iter().copied()) else {
            continue;
        };
        if clip.contains_rect(&bounds) {
            let start = out.points.len();
            out.points.extend_from_slice(pts);
            out.contours.push(Contour {
                start,
                end: out.points.len(),
                closed: c.closed,
            });
            continue;
        }
        if !clip.touches(&bounds) {
            continue;
        }
        a.clear();
        a.extend_from_slice(pts);
        clip_half_plane(&a, &mut b, |p| p.x >= l, |p, q| cross_x(p, q, l));
        clip_half_plane(&b, &mut a, |p| p.x <= r, |p, q| cross_x(p, q, r));
        clip_half_plane(&a, &mut b, |p| p.y >= t, |p, q| cross_y(p, q, t));
        clip_half_plane(&b, &mut a, |p| p.y <= btm, |p, q| cross_y(p, q, btm));
        if a.len() >= 3 {
            out.push_contour(a.iter().copied(), true);
        }
    }
}

/// One Sutherland–Hodgman pass: the closed polygon `input` cut by the half-plane `inside`,
/// into `out`. `cross` gives where an edge between an inside and an outside point meets the
/// half-plane's edge.
fn clip_half_plane(
    input: &[DVec2],
    out: &mut Vec<DVec2>,
    inside: impl Fn(DVec2) -> bool,
    cross: impl Fn(DVec2, DVec2) -> DVec2,
) {
    out.clear();
    let Some(&last) = input.last() else { return };
    let mut prev = last;
    let mut prev_in = inside(prev);
    for &cur in input {
        let cur_in = inside(cur);
        if cur_in != prev_in {
            out.push(cross(prev, cur));
        }
        if cur_in {
            out.push(cur);
        }
        prev = cur;
        prev_in = cur_in;
    }
}

/// Where the segment p-q meets the vertical line at `x` (p and q are on opposite sides).
fn cross_x(p: DVec2, q: DVec2, x: f64) -> DVec2 {
    // Interpolating from the same end whichever way round keeps the point independent of the
    // edge's direction; max/min (not clamp, which panics on NaN) keep rounding from leaving
    // the segment's range.
    let (p, q) = if p.x < q.x { (p, q) } else { (q, p) };
    let t = (x - p.x) / (q.x - p.x);
    let y = p.y + t * (q.y - p.y);
    DVec2::new(x, y.max(p.y.min(q.y)).min(p.y.max(q.y)))
}

/// Where the segment p-q meets the horizontal line at `y`.
fn cross_y(p: DVec2, q: DVec2, y: f64) -> DVec2 {
    let (p, q) = if p.y < q.y { (p, q) } else { (q, p) };
    let t = (y - p.y) / (q.y - p.y);
    let x = p.x + t * (q.x - p.x);
    DVec2::new(x.max(p.x.min(q.x)).min(p.x.max(q.x)), y)
}

/// Fewest and most vertices of a full circle polygon. The upper bound only matters for
/// stroke radii of millions of pixels, where it keeps a single dot from costing megabytes.
const MIN_CIRCLE_SEGMENTS: usize = 8;
const MAX_CIRCLE_SEGMENTS: usize = 16_384;

/// Most vertices one stroke outline may take (64 MiB of points): past it a query refuses
/// the stroke instead of building it.
pub(crate) const MAX_OUTLINE_VERTICES: u64 = 1 << 22;

/// An upper bound of the vertices [`stroke_outline`] makes for these arguments, before
/// building anything: every command may bring a disc or a wedge of a full circle's vertices
/// and a quad. (Curves flatten into more segments, but their joins turn little, so their
/// wedges are small; the bound is for the dots and sharp joins that make outlines explode.)
pub(crate) fn stroke_outline_estimate(centerline: &Path, width: f64, m: &DAffine2, tolerance: f64) -> u128 {
    if !(width > 0.0 && width.is_finite()) {
        return 0;
    }
    let n = circle_segments(width * 0.5 * max_scale(m), tolerance) as u128;
    (centerline.command_count() as u128 + 1) * (n + 4)
}

/// [`Error::GeometryBudget`](crate::Error::GeometryBudget) when the outline of a stroke of
/// `target()` could take more than [`MAX_OUTLINE_VERTICES`].
pub(crate) fn check_outline(
    centerline: &Path,
    width: f64,
    m: &DAffine2,
    tolerance: f64,
    target: impl FnOnce() -> String,
) -> crate::Result<()> {
    let vertices = stroke_outline_estimate(centerline, width, m, tolerance);
    if vertices > u128::from(MAX_OUTLINE_VERTICES) {
        return Err(crate::Error::GeometryBudget {
            what: format!("a stroke of {}", target()),
            vertices,
            budget: MAX_OUTLINE_VERTICES,
        });
    }
    Ok(())
}

/// The error for geometry of `target()` that went over [`MAX_OUTLINE_VERTICES`] while it was
/// built (a fill flattened, or a stroke outlined): `what` names the kind.
pub(crate) fn over_budget(what: &str, target: impl FnOnce() -> String) -> crate::Error {
    crate::Error::GeometryBudget {
        what: format!("{what} of {}", target()),
        vertices: u128::from(MAX_OUTLINE_VERTICES) + 1,
        budget: MAX_OUTLINE_VERTICES,
    }
}

/// Vertices of an inscribed polygon within `tol` of a circle of radius `radius`: the gap
/// between a chord and its arc is `radius * (1 - cos(pi / n))`.
fn circle_segments(radius: f64, tol: f64) -> usize {
    let a = (1.0 - tol / radius).max(-1.0).acos();
    let n = (PI / a).ceil();
    if n.is_nan() || n > MAX_CIRCLE_SEGMENTS as f64 {
        MAX_CIRCLE_SEGMENTS
    } else if n < MIN_CIRCLE_SEGMENTS as f64 {
        MIN_CIRCLE_SEGMENTS
    } else {
        n as usize
    }
}

/// Pieces of a stroke outline, built in local space and mapped as they are emitted.
struct StrokeBuilder<'a> {
    out: &'a mut Polylines,
    m: DAffine2,
    /// Whether m mirrors, which turns every piece's orientation around.
    mirror: bool,
    r: f64,
    /// Angle between consecutive vertices of a full circle.
    step: f64,
    circle_n: usize,
    /// Length of `out.points` past which the outline is over its budget.
    limit: usize,
    /// Whether it went over; nothing more is emitted then.
    over: bool,
}

impl StrokeBuilder<'_> {
    /// Emits a piece given with positive signed area in local space (or negative when
    /// `reversed`), so that after mapping it has positive area.
    fn emit(&mut self, pts: &[DVec2], reversed: bool) {
        self.over |= self.out.points.len() + pts.len() > self.limit;
        if self.over {
            return;
        }
        let m = self.m;
        let start = self.out.points.len();
        self.out
            .push_contour(pts.iter().map(|&p| m.transform_point2(p)), true);
        if reversed != self.mirror
            && let Some(piece) = self.out.points.get_mut(start..)
        {
            piece.reverse();
        }
    }

    fn disc(&mut self, c: DVec2, scratch: &mut Vec<DVec2>) {
        scratch.clear();
        let n = self.circle_n;
        scratch.extend((0..n).map(|i| {
            let (s, co) = (TAU * i as f64 / n as f64).sin_cos();
            c + DVec2::new(co, s) * self.r
        }));
        self.emit(scratch, false);
    }

    /// The segment a-b (of non-zero length) widened by r on both sides.
    fn quad(&mut self, a: DVec2, b: DVec2) {
        let d = unit(b - a);
        if d == DVec2::ZERO {
            return;
        }
        let n = DVec2::new(d.y, -d.x) * self.r;
        self.emit(&[a + n, b + n, b - n, a - n], false);
    }

    /// At a join of unit directions `d1` (coming in) and `d2` (going out), the sector of the
    /// disc between the two outer normals. That sector is exactly the set of offsets whose
    /// nearest centreline point is the vertex (u.d1 >= 0 and u.d2 <= 0), so with the quads
    /// of the segments it covers the same region as a full disc would.
    fn wedge(&mut self, v: DVec2, d1: DVec2, d2: DVec2, scratch: &mut Vec<DVec2>) {
        let theta = d1.perp_dot(d2).atan2(d1.dot(d2));
        if theta == 0.0 || !theta.is_finite() {
            return;
        }
        let ccw = theta > 0.0;
        let outer = |d: DVec2| {
            if ccw {
                DVec2::new(d.y, -d.x)
            } else {
                DVec2::new(-d.y, d.x)
            }
        };
        let (n1, n2) = (outer(d1), outer(d2));
        let k = ((theta.abs() / self.step).ceil() as usize).clamp(1, self.circle_n);
        scratch.clear();
        scratch.push(v);
        scratch.push(v + n1 * self.r);
        for j in 1..k {
            let (s, c) = (theta * j as f64 / k as f64).sin_cos();
            let u = DVec2::new(n1.x * c - n1.y * s, n1.x * s + n1.y * c);
            scratch.push(v + u * self.r);
        }
        scratch.push(v + n2 * self.r);
        self.emit(scratch, !ccw);
    }
}

/// The outline of a stroke with round joins and round caps, as closed contours to fill with
/// the NonZero rule, in the space `m` maps into.
///
/// The region is the Minkowski sum of the centreline (in local space) with a disc of radius
/// `width / 2`, then mapped by `m`, so the stroke scales and skews with the geometry. It is
/// built from a quad per flattened segment, a sector on the outer side of every join (see
/// `StrokeBuilder::wedge`) and full discs at open ends and for subpaths that are a single
/// point; every piece is oriented to positive area after mapping, so that the NonZero fill
/// is their union.
///
/// Circle polygons are *inscribed*: their vertices lie on the circle, so the outline never
/// reaches beyond the true stroke (apart from flattening) and sector ends meet quad corners
/// exactly. Their vertex count comes from the mapped radius so that each is within
/// `tolerance` of the true circle (or ellipse, once mapped). The centreline is flattened with
/// `tolerance / s` in local space, s being the largest stretch of m. `width <= 0`, a
/// non-finite width or a singular or non-finite `m` give nothing.
#[must_use = "an outline over the budget is left out, which the caller must report"]
pub(crate) fn stroke_outline(
    centerline: &Path,
    width: f64,
    m: &DAffine2,
    tolerance: f64,
    out: &mut Polylines,
) -> bool {
    // Callers that can report it check the estimate first (`check_outline`); an outline over
    // the budget is left out rather than allowed to fill the memory, and the answer says so.
    if stroke_outline_estimate(centerline, width, m, tolerance) > u128::from(MAX_OUTLINE_VERTICES) {
        return false;
    }
    if !(width > 0.0 && width.is_finite() && m.is_finite()) {
        return true;
    }
    let det = m.matrix2.determinant();
    let s = max_scale(m);
    if !(det != 0.0 && det.is_finite() && s > 0.0 && s.is_finite()) {
        return true;
    }
    let r = width * 0.5;
    let tol = if tolerance > 0.0 && tolerance.is_finite() {
        tolerance
    } else {
        0.0
    };
    let circle_n = circle_segments(r * s, tol);
    // The estimate counts commands, not the segments curves flatten into; under a huge
    // scale those run to millions, so the flattening and the outline are held to the budget
    // as they are made.
    let budget = MAX_OUTLINE_VERTICES as usize;
    let mut lines = Polylines::default();
    if !centerline.flatten_within(&DAffine2::IDENTITY, tol / s, &mut lines, budget) {
        return false;
    }
    let (points_before, contours_before) = (out.points.len(), out.contours.len());
    let mut b = StrokeBuilder {
        out,
        m: *m,
        mirror: det < 0.0,
        r,
        step: TAU / circle_n as f64,
        circle_n,
        limit: points_before.saturating_add(budget),
        over: false,
    };
    let mut pts: Vec<DVec2> = Vec::new();
    let mut scratch: Vec<DVec2> = Vec::new();
    for c in &lines.contours {
        let raw = lines.slice(c);
        if !raw.iter().all(|p| p.is_finite()) {
            continue;
        }
        // Zero-length segments have no direction; dropping repeated points leaves the
        // region the same.
        pts.clear();
        for &p in raw {
            if pts.last() != Some(&p) {
                pts.push(p);
            }
        }
        if c.closed {
            while pts.len() > 1 && pts.last() == pts.first() {
                pts.pop();
            }
        }
        match pts.as_slice() {
            [] => {}
            [only] => b.disc(*only, &mut scratch),
            [first, .., last] => {
                let (first, last) = (*first, *last);
                for w in pts.windows(2) {
                    if let [p, q] = w {
                        b.quad(*p, *q);
                    }
                }
                let dir = |p: DVec2, q: DVec2| unit(q - p);
                for w in pts.windows(3) {
                    if let [p, v, q] = w {
                        b.wedge(*v, dir(*p, *v), dir(*v, *q), &mut scratch);
                    }
                }
                if c.closed {
                    b.quad(last, first);
                    if let [second, ..] = pts.get(1..).unwrap_or(&[]) {
                        b.wedge(first, dir(last, first), dir(first, *second), &mut scratch);
                    }
                    if let [.., before_last, _] = pts.as_slice() {
                        b.wedge(last, dir(*before_last, last), dir(last, first), &mut scratch);
                    }
                } else {
                    b.disc(first, &mut scratch);
                    b.disc(last, &mut scratch);
                }
            }
        }
        if b.over {
            break;
        }
    }
    if b.over {
        out.points.truncate(points_before);
        out.contours.truncate(contours_before);
        return false;
    }
    true
}

#[cfg(test)]
mod tests {
    use super::*;

    fn polys_of(path: &Path) -> Polylines {
        let mut out = Polylines::default();
        path.flatten(&DAffine2::IDENTITY, 0.01, &mut out);
        out
    }

    fn octagon() -> Polylines {
        let pts = [
            (10.0, 0.0),
            (0.0, 10.0),
            (0.0, 20.0),
            (10.0, 30.0),
            (20.0, 30.0),
            (30.0, 20.0),
            (30.0, 10.0),
            (20.0, 0.0),
        ]
        .map(|(x, y)| DVec2::new(x + 10.0, y + 10.0));
        polys_of(&Path::polygon(&pts))
    }

    #[test]
    fn octagon_boundary_rule() {
        let o = octagon();
        let at = |x: f64, y: f64| contains(&o, DVec2::new(x, y), FillRule::NonZero);
        // Top edge y = 10 (x 20..30) and right edge x = 40 (y 20..30) are inside.
        assert!(at(25.0, 10.0));
        assert!(at(40.0, 25.0));
        // Left edge x = 10 and bottom edge y = 40 are outside.
        assert!(!at(10.0, 25.0));
        assert!(!at(25.0, 40.0));
        // Corners follow the same rule: top-right (30,10) is on the top edge's right end.
        assert!(at(30.0, 10.0));
        assert!(!at(20.0, 10.0));
        assert!(at(25.0, 25.0));
        assert!(!at(5.0, 25.0) && !at(45.0, 25.0));
        // The same with the contour given the other way round.
        let mut rev = o.clone();
        rev.points.reverse();
        let at_rev = |x: f64, y: f64| contains(&rev, DVec2::new(x, y), FillRule::EvenOdd);
        assert!(at_rev(25.0, 10.0) && at_rev(40.0, 25.0));
        assert!(!at_rev(10.0, 25.0) && !at_rev(25.0, 40.0));
    }

    #[test]
    fn fill_rules_differ_on_overlap() {
        // Two squares drawn in the same direction, overlapping in [5,10]^2.
        let mut p = Path::rect(0.0, 0.0, 10.0, 10.0);
        p.move_to(5.0, 5.0)
            .line_to(15.0, 5.0)
            .line_to(15.0, 15.0)
            .line_to(5.0, 15.0)
            .close();
        let polys = polys_of(&p);
        let mid = DVec2::new(7.0, 7.0);
        assert!(contains(&polys, mid, FillRule::NonZero));
        assert!(!contains(&polys, mid, FillRule::EvenOdd));
        let one = DVec2::new(2.0, 2.0);
        assert!(contains(&polys, one, FillRule::NonZero));
        assert!(contains(&polys, one, FillRule::EvenOdd));
        // A pentagram drawn in one stroke: its centre winds twice.
        let star: Vec<DVec2> = (0..5)
            .map(|i| {
                let a = TAU * (2 * i) as f64 / 5.0;
                DVec2::new(a.sin(), -a.cos()) * 10.0
            })
            .collect();
        let s = polys_of(&Path::polygon(&star));
        assert!(contains(&s, DVec2::ZERO, FillRule::NonZero));
        assert!(!contains(&s, DVec2::ZERO, FillRule::EvenOdd));
    }

    #[test]
    fn degenerate_contours_contain_nothing() {
        let mut polys = Polylines::default();
        polys.push_contour([DVec2::ONE], true);
        polys.push_contour([DVec2::ZERO, DVec2::splat(10.0)], true);
        assert!(!contains(&polys, DVec2::new(5.0, 4.0), FillRule::NonZero));
        // Edges with a NaN end never count (and never panic).
        polys.push_contour([DVec2::NAN, DVec2::new(1.0, 5.0), DVec2::new(9.0, 5.0)], true);
        assert!(!contains(&polys, DVec2::new(5.0, 4.0), FillRule::NonZero));
        assert!(!contains(&polys, DVec2::NAN, FillRule::EvenOdd));
        assert_eq!(distance(&Polylines::default(), DVec2::ZERO), None);
        assert_eq!(Polylines::default().contour(3), &[] as &[DVec2]);
        let bad = Polylines {
            points: vec![DVec2::ZERO],
            contours: vec![Contour {
                start: 0,
                end: 5,
                closed: true,
            }],
        };
        assert!(bad.contour(0).is_empty());
        assert!(!contains(&bad, DVec2::ZERO, FillRule::NonZero));
    }

    #[test]
    fn distances() {
        let mut polys = Polylines::default();
        polys.push_contour(
            [
                DVec2::new(0.0, 0.0),
                DVec2::new(10.0, 0.0),
                DVec2::new(10.0, 10.0),
            ],
            false,
        );
        // Open: the closing edge (10,10)-(0,0) does not count.
        let p = DVec2::new(3.0, 5.0);
        assert!((distance(&polys, p).unwrap() - 5.0).abs() < 1e-12);
        polys.contours[0].closed = true;
        let diag = (5.0f64 - 3.0).abs() / 2f64.sqrt();
        assert!((distance(&polys, p).unwrap() - diag).abs() < 1e-12);
        // A one-point contour is a point.
        polys.push_contour([DVec2::new(3.0, 6.0)], false);
        assert!((distance(&polys, p).unwrap() - 1.0).abs() < 1e-12);
        // Beyond a segment's end the distance is to the end point.
        assert!((distance(&polys, DVec2::new(-3.0, -4.0)).unwrap() - 5.0).abs() < 1e-12);
    }

    #[test]
    fn buffer_helpers() {
        let mut a = polys_of(&Path::rect(0.0, 0.0, 1.0, 1.0));
        let b = polys_of(&Path::rect(5.0, 5.0, 1.0, 2.0));
        a.extend_from(&b);
        assert_eq!(a.contours.len(), 2);
        assert_eq!(a.contour(1), b.contour(0));
        let r = a.bounds().unwrap();
        assert_eq!(r.to_xywh(), [0.0, 0.0, 6.0, 7.0]);
        a.transform(&DAffine2::from_scale(DVec2::new(2.0, -1.0)));
        assert_eq!(a.bounds().unwrap().to_xywh(), [0.0, -7.0, 12.0, 7.0]);
        let cap = a.points.capacity();
        a.clear();
        assert!(a.points.is_empty() && a.contours.is_empty() && a.points.capacity() == cap);
        assert_eq!(a.bounds(), None);
    }

    struct Lcg(u64);
    impl Lcg {
        fn unit(&mut self) -> f64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.unit()
        }
    }

    #[test]
    fn clipping_preserves_winding_inside() {
        let mut rng = Lcg(7);
        let mut checked = 0;
        for round in 0..200 {
            let mut polys = Polylines::default();
            for _ in 0..(1 + (rng.unit() * 3.0) as usize) {
                let n = 3 + (rng.unit() * 10.0) as usize;
                // Some vertices on a grid so that axis-aligned and shared edges occur.
                let pts: Vec<DVec2> = (0..n)
                    .map(|_| {
                        if round % 3 == 0 {
                            DVec2::new(
                                (rng.unit() * 10.0).floor() * 10.0,
                                (rng.unit() * 10.0).floor() * 10.0,
                            )
                        } else {
                            DVec2::new(rng.range(0.0, 100.0), rng.range(0.0, 100.0))
                        }
                    })
                    .collect();
                polys.push_contour(pts, true);
            }
            let (x0, y0) = (rng.range(-10.0, 80.0), rng.range(-10.0, 80.0));
            let clip = Rect::from_ltrb(x0, y0, x0 + rng.range(1.0, 60.0), y0 + rng.range(1.0, 60.0)).unwrap();
            let mut clipped = Polylines::default();
            clip_to_rect(&polys, &clip, &mut clipped);
            assert!(clipped.contours.iter().all(|c| c.closed && c.end - c.start >= 3));
            if let Some(b) = clipped.bounds() {
                assert!(clip.contains_rect(&b));
            }
            for _ in 0..200 {
                let p = DVec2::new(
                    rng.range(clip.left(), clip.right()),
                    rng.range(clip.top(), clip.bottom()),
                );
                if !(p.x > clip.left() && p.x < clip.right() && p.y > clip.top() && p.y < clip.bottom()) {
                    continue;
                }
                if distance(&polys, p).is_some_and(|d| d < 1e-9) {
                    continue;
                }
                for rule in [FillRule::NonZero, FillRule::EvenOdd] {
                    assert_eq!(
                        contains(&polys, p, rule),
                        contains(&clipped, p, rule),
                        "round {round} point {p} rule {rule:?}"
                    );
                }
                checked += 1;
            }
        }
        assert!(checked > 30_000);
    }

    #[test]
    fn clipping_copies_inside_and_drops_outside() {
        let clip = Rect::from_ltrb(0.0, 0.0, 100.0, 100.0).unwrap();
        let mut polys = polys_of(&Path::rect(10.0, 10.0, 5.0, 5.0));
        polys.extend_from(&polys_of(&Path::rect(200.0, 10.0, 5.0, 5.0)));
        polys.extend_from(&polys_of(&Path::rect(90.0, 90.0, 20.0, 20.0)));
        let mut out = Polylines::default();
        clip_to_rect(&polys, &clip, &mut out);
        assert_eq!(out.contours.len(), 2);
        assert_eq!(out.contour(0), polys.contour(0));
        assert_eq!(out.contour(1).len(), 4);
        assert_eq!(out.bounds().unwrap().to_xywh(), [10.0, 10.0, 90.0, 90.0]);
        // Non-finite contours are dropped rather than clipped.
        let mut bad = Polylines::default();
        bad.push_contour(
            [
                DVec2::new(5.0, f64::NAN),
                DVec2::new(-5.0, f64::NAN),
                DVec2::new(5.0, 5.0),
            ],
            true,
        );
        out.clear();
        clip_to_rect(&bad, &clip, &mut out);
        assert!(out.contours.is_empty());
    }

    /// Checks a stroke outline against the distance to the centreline in local space: a point
    /// whose local distance is below r - margin must be inside, above r + margin outside.
    fn check_stroke(path: &Path, width: f64, m: DAffine2, tol: f64, seed: u64) {
        let mut outline = Polylines::default();
        assert!(stroke_outline(path, width, &m, tol, &mut outline));
        assert!(!outline.contours.is_empty());
        // Every piece has positive area in the mapped space.
        for i in 0..outline.contours.len() {
            let c = outline.contour(i);
            let n = c.len();
            let area: f64 = (0..n).map(|k| c[k].perp_dot(c[(k + 1) % n])).sum();
            assert!(area > 0.0, "piece {i} has area {area}");
        }
        let mut fine = Polylines::default();
        path.flatten(&DAffine2::IDENTITY, 1e-5, &mut fine);
        let inv = m.inverse();
        let r = width / 2.0;
        let lin = m.matrix2;
        let smin = (lin.determinant().abs()) / max_scale(&m);
        let margin = 3.0 * tol / smin;
        let local_box = fine.bounds().unwrap().outset(r + 1.0).unwrap();
        let bx = local_box.transform(m).unwrap();
        let mut rng = Lcg(seed);
        let (mut ins, mut outs) = (0, 0);
        for _ in 0..20_000 {
            let p = DVec2::new(rng.range(bx.left(), bx.right()), rng.range(bx.top(), bx.bottom()));
            let d = distance(&fine, inv.transform_point2(p)).unwrap();
            let hit = contains(&outline, p, FillRule::NonZero);
            if d < r - margin {
                assert!(hit, "{p} at local distance {d} should be inside (r = {r})");
                ins += 1;
            } else if d > r + margin {
                assert!(!hit, "{p} at local distance {d} should be outside (r = {r})");
                outs += 1;
            }
        }
        assert!(ins > 500 && outs > 500, "{ins} {outs}");
    }

    #[test]
    fn stroke_of_straight_lines() {
        let mut p = Path::new();
        p.move_to(0.0, 0.0).line_to(100.0, 0.0);
        check_stroke(&p, 10.0, DAffine2::IDENTITY, 0.05, 1);
        let mut q = Path::new();
        q.move_to(10.0, 10.0)
            .line_to(-30.0, 55.0)
            .move_to(0.0, 80.0)
            .line_to(1.0, 80.0);
        check_stroke(&q, 6.0, DAffine2::from_translation(DVec2::new(5.0, 5.0)), 0.05, 2);
    }

    #[test]
    fn stroke_of_sharp_polyline_and_closed_shapes() {
        let mut p = Path::new();
        p.move_to(0.0, 0.0)
            .line_to(50.0, 5.0)
            .line_to(0.0, 10.0)
            .line_to(20.0, 40.0)
            .line_to(20.0, 40.0)
            .line_to(21.0, 0.0)
            .line_to(0.0, 0.0);
        check_stroke(&p, 8.0, DAffine2::IDENTITY, 0.05, 3);
        let tri = Path::polygon(&[DVec2::ZERO, DVec2::new(40.0, 0.0), DVec2::new(0.0, 3.0)]);
        check_stroke(&tri, 4.0, DAffine2::IDENTITY, 0.02, 4);
        // A hairpin: a closed two-point contour.
        let pin = Path::polygon(&[DVec2::ZERO, DVec2::new(30.0, 0.0)]);
        check_stroke(&pin, 4.0, DAffine2::IDENTITY, 0.02, 5);
    }

    #[test]
    fn stroke_of_curves() {
        let mut p = Path::new();
        p.move_to(0.0, 0.0)
            .cubic_to(100.0, 0.0, -50.0, 60.0, 60.0, 60.0)
            .quad_to(90.0, 0.0, 120.0, 80.0);
        check_stroke(&p, 12.0, DAffine2::IDENTITY, 0.05, 6);
        check_stroke(&Path::circle(0.0, 0.0, 30.0), 5.0, DAffine2::IDENTITY, 0.05, 7);
    }

    #[test]
    fn stroke_under_scale_and_skew() {
        let m = DAffine2::from_cols_array(&[3.0, 0.5, 1.2, 0.7, 40.0, -20.0]);
        let mut p = Path::new();
        p.move_to(0.0, 0.0)
            .line_to(30.0, 10.0)
            .line_to(5.0, 25.0)
            .quad_to(40.0, 40.0, 10.0, 60.0);
        check_stroke(&p, 6.0, m, 0.05, 8);
        // A mirroring matrix: pieces must still come out with positive area.
        let mirror = DAffine2::from_cols_array(&[-2.0, 0.0, 0.3, 1.5, 0.0, 0.0]);
        check_stroke(&p, 6.0, mirror, 0.05, 9);
    }

    #[test]
    fn stroke_dots_and_nothing() {
        let dot = Path::from_svg("M5,5 L5,5").unwrap();
        let mut out = Polylines::default();
        assert!(stroke_outline(&dot, 4.0, &DAffine2::IDENTITY, 0.01, &mut out));
        assert_eq!(out.contours.len(), 1);
        assert!(contains(&out, DVec2::new(6.9, 5.0), FillRule::NonZero));
        assert!(!contains(&out, DVec2::new(7.1, 5.0), FillRule::NonZero));
        // Inscribed: every vertex on the circle, within tolerance of it everywhere.
        let n = out.contour(0).len();
        assert_eq!(n, circle_segments(2.0, 0.01));
        assert!(2.0 * (1.0 - (PI / n as f64).cos()) <= 0.01);
        for q in out.contour(0) {
            assert!(((*q - DVec2::splat(5.0)).length() - 2.0).abs() < 1e-12);
        }
        out.clear();
        assert!(stroke_outline(&dot, 0.0, &DAffine2::IDENTITY, 0.01, &mut out));
        assert!(stroke_outline(&dot, -1.0, &DAffine2::IDENTITY, 0.01, &mut out));
        assert!(stroke_outline(
            &dot,
            f64::NAN,
            &DAffine2::IDENTITY,
            0.01,
            &mut out
        ));
        assert!(stroke_outline(
            &dot,
            2.0,
            &DAffine2::from_scale(DVec2::new(1.0, 0.0)),
            0.01,
            &mut out,
        ));
        assert!(out.contours.is_empty());
        // Bad tolerances stay bounded.
        assert!(stroke_outline(&dot, 2.0, &DAffine2::IDENTITY, 0.0, &mut out));
        assert!(stroke_outline(&dot, 2e9, &DAffine2::IDENTITY, f64::NAN, &mut out));
        assert!(out.points.len() <= 2 * MAX_CIRCLE_SEGMENTS);
    }

    #[test]
    fn an_outline_over_the_budget_is_left_out_whole() {
        // A unit circle under a scale of 1e12 flattens into 2.4 million segments, so its
        // outline would take about 16 million vertices; the estimate counts only commands.
        let ring = Path::circle(0.0, 0.0, 1.0);
        let m = DAffine2::from_scale(DVec2::splat(1e12));
        assert!(stroke_outline_estimate(&ring, 2.0, &m, 1.0 / 128.0) < u128::from(MAX_OUTLINE_VERTICES));
        let mut out = Polylines::default();
        out.push_contour([DVec2::ZERO, DVec2::X, DVec2::Y], true);
        assert!(!stroke_outline(&ring, 2.0, &m, 1.0 / 128.0, &mut out));
        assert_eq!((out.points.len(), out.contours.len()), (3, 1));
        // The same ring at a scale of 1e6 fits.
        let m = DAffine2::from_scale(DVec2::splat(1e6));
        assert!(stroke_outline(&ring, 2.0, &m, 1.0 / 128.0, &mut out));
        assert!(out.points.len() > 100_000 && out.points.len() as u64 <= MAX_OUTLINE_VERTICES);
    }

    #[test]
    fn odd_inputs_never_panic() {
        let mut rng = Lcg(11);
        let specials = [0.0, -0.0, 1e-300, 1e300, f64::NAN, f64::INFINITY, 5e-324, 3.0];
        let pick = |rng: &mut Lcg| {
            if rng.unit() < 0.5 {
                specials[(rng.unit() * specials.len() as f64) as usize % specials.len()]
            } else {
                rng.range(-50.0, 50.0)
            }
        };
        for _ in 0..300 {
            let mut p = Path::new();
            for _ in 0..4 {
                let v: Vec<f64> = (0..6).map(|_| pick(&mut rng)).collect();
                p.cubic_to(v[0], v[1], v[2], v[3], v[4], v[5]);
                p.line_to(v[1], v[0]);
            }
            let m = DAffine2::from_cols_array(&[
                pick(&mut rng),
                pick(&mut rng),
                pick(&mut rng),
                pick(&mut rng),
                pick(&mut rng),
                pick(&mut rng),
            ]);
            let mut out = Polylines::default();
            let _ = stroke_outline(&p, pick(&mut rng).abs(), &m, 0.1, &mut out);
            let mut flat = Polylines::default();
            p.flatten(&m, 0.1, &mut flat);
            if let Some(clip) = Rect::from_ltrb(-10.0, -10.0, 10.0, 10.0) {
                clip_to_rect(&flat, &clip, &mut out);
            }
            let _ = contains(&out, DVec2::ZERO, FillRule::EvenOdd);
            let _ = distance(&out, DVec2::ONE);
            let _ = out.bounds();
        }
    }

    #[test]
    fn stretch_is_largest_singular_value() {
        let m = DAffine2::from_cols_array(&[1.0, 0.0, 1.0, 1.0, 0.0, 0.0]);
        assert!((max_scale(&m) - (1.0 + 5f64.sqrt()) / 2.0).abs() < 1e-12);
        let r = DAffine2::from_angle(0.7) * DAffine2::from_scale(DVec2::new(2.0, -3.0));
        assert!((max_scale(&r) - 3.0).abs() < 1e-12);
    }
}
