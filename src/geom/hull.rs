//! Convex hulls: conservative outlines of geometry, and a lower bound of the distance
//! between two of them (separating axes).
//!
//! A hull here is a list of points in counter-clockwise order (every turn `cross > 0` in the
//! crate's axes), with no repeated or collinear points; one or two points stand for a point
//! or a segment. Affine maps keep a hull convex; a map with a negative determinant reverses
//! its order, which [`map_hull`] undoes.

use std::fmt;
use std::sync::OnceLock;

use glam::{DAffine2, DVec2};

/// A value worked out on first use and kept with the geometry it belongs to. It is never
/// part of the value's identity: two equal graphics are equal whether or not either has
/// worked it out yet.
#[derive(Clone)]
pub(crate) struct Kept<T>(OnceLock<T>);

impl<T> Default for Kept<T> {
    fn default() -> Self {
        Kept(OnceLock::new())
    }
}

impl<T> Kept<T> {
    /// The kept value, made by `make` the first time.
    pub fn get_or_init(&self, make: impl FnOnce() -> T) -> &T {
        self.0.get_or_init(make)
    }

    /// The kept value, if it was made.
    pub fn get(&self) -> Option<&T> {
        self.0.get()
    }
}

impl<T> PartialEq for Kept<T> {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl<T> Eq for Kept<T> {}

impl<T> fmt::Debug for Kept<T> {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        f.write_str(if self.0.get().is_some() {
            "Kept(..)"
        } else {
            "Kept(-)"
        })
    }
}

fn cross(o: DVec2, a: DVec2, b: DVec2) -> f64 {
    (a - o).perp_dot(b - o)
}

/// The convex hull of `points` (Andrew's monotone chain), counter-clockwise, replacing
/// them. Non-finite points are dropped.
pub(crate) fn convex_hull(points: &mut Vec<DVec2>) {
    points.retain(|p| p.is_finite());
    points.sort_unstable_by(|a, b| a.x.total_cmp(&b.x).then(a.y.total_cmp(&b.y)));
    points.dedup();
    let n = points.len();
    if n < 3 {
        return;
    }
    let mut hull: Vec<DVec2> = Vec::with_capacity(n + 1);
    for pass in 0..2 {
        let start = hull.len();
        let order: Box<dyn Iterator<Item = &DVec2>> = match pass {
            0 => Box::new(points.iter()),
            _ => Box::new(points.iter().rev()),
        };
        for &p in order {
            while hull.len() >= start + 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0.0 {
                hull.pop();
            }
            hull.push(p);
        }
        // The last point of each chain is the first of the other.
        hull.pop();
    }
    *points = hull;
}

/// `hull` grown by a disc of radius `r`: each point replaced by the corners of a 16-gon
/// around it that holds the disc, and the hull taken again.
pub(crate) fn outset(hull: &[DVec2], r: f64) -> Vec<DVec2> {
    if r <= 0.0 {
        return hull.to_vec();
    }
    const SIDES: usize = 16;
    // The circumscribed polygon's corners lie at r / cos(pi / SIDES); a little more keeps
    // the rounding of sin and cos from cutting the disc.
    let reach = r / (std::f64::consts::PI / SIDES as f64).cos() * (1.0 + 1e-12);
    let mut out = Vec::with_capacity(hull.len() * SIDES);
    for &p in hull {
        for k in 0..SIDES {
            let (s, c) = (k as f64 * std::f64::consts::TAU / SIDES as f64).sin_cos();
            out.push(p + DVec2::new(c, s) * reach);
        }
    }
    convex_hull(&mut out);
    out
}

/// A hull kept with its geometry: at most [`MAX_KEPT_VERTICES`] points, the farthest any of
/// them is from the origin, and their centre and farthest distance from it (mapped with the
/// points, these spare [`apart`] a pass over them per query).
#[derive(Clone, Debug)]
pub(crate) struct KeptHull {
    /// Shared: a many-object query keeps a one-item target's hull unmapped for the frame
    /// (`query::near_miss`), which then costs a count, not a copy.
    pub points: std::sync::Arc<[DVec2]>,
    pub reach: f64,
    pub centre: DVec2,
    pub reach_from_centre: f64,
}

impl KeptHull {
    /// The hull of `points` to keep ([`at_most_kept_vertices`]).
    pub fn new(mut points: Vec<DVec2>) -> KeptHull {
        convex_hull(&mut points);
        let points = at_most_kept_vertices(points);
        let reach = points.iter().map(|p| p.length()).fold(0.0, f64::max);
        let centre = centre(&points);
        let reach_from_centre = reach_from(&points, centre);
        KeptHull {
            points: points.into(),
            reach,
            centre,
            reach_from_centre,
        }
    }
}

/// Most vertices a kept hull has: mapping and comparing it costs in proportion to them.
pub(crate) const MAX_KEPT_VERTICES: usize = 32;

/// `hull` itself when it has at most `MAX_KEPT_VERTICES` points; else the polygon that
/// [`MAX_KEPT_VERTICES`] supporting lines at equal angles cut out, which holds it (each
/// line's offset is its farthest point's, nudged outward for rounding) and lies within
/// `sec(pi / 32) - 1` (under 0.5%) of its radius outside it.
pub(crate) fn at_most_kept_vertices(hull: Vec<DVec2>) -> Vec<DVec2> {
    const K: usize = MAX_KEPT_VERTICES;
    if hull.len() <= K {
        return hull;
    }
    let reach = hull.iter().map(|p| p.abs().max_element()).fold(0.0, f64::max);
    let dirs: Vec<DVec2> = (0..K)
        .map(|k| DVec2::from_angle(k as f64 * std::f64::consts::TAU / K as f64))
        .collect();
    let support: Vec<f64> = dirs
        .iter()
        .map(|&u| hull.iter().map(|p| p.dot(u)).fold(f64::NEG_INFINITY, f64::max) + 1e-9 * (1.0 + reach))
        .collect();
    let mut out: Vec<DVec2> = (0..K)
        .map(|k| {
            let (u, v) = (dirs[k], dirs[(k + 1) % K]);
            let (h, g) = (support[k], support[(k + 1) % K]);
            // u . p = h and v . p = g.
            let det = u.perp_dot(v);
            DVec2::new(h * v.y - g * u.y, u.x * g - v.x * h) / det
        })
        .collect();
    convex_hull(&mut out);
    out
}

/// Appends `hull` mapped by `m` to `out`, counter-clockwise again when `m` mirrors.
pub(crate) fn map_hull(hull: &[DVec2], m: &DAffine2, out: &mut Vec<DVec2>) {
    let start = out.len();
    out.extend(hull.iter().map(|&p| m.transform_point2(p)));
    if m.matrix2.determinant() < 0.0 {
        out[start..].reverse();
    }
}

/// The gap along the unit axis `n` from `a`'s far side to `b`'s near side: positive when
/// a line across `n` separates them by that much. Every point is projected, so the value is
/// a true lower bound of the distance between the sets, whatever chose the axis.
fn gap_along(a: &[DVec2], b: &[DVec2], n: DVec2) -> f64 {
    let max_a = largest(a.iter().map(|p| p.dot(n)));
    let min_b = smallest(b.iter().map(|p| p.dot(n)));
    min_b - max_a
}

/// The largest of `values` (negative infinity for none), NaNs passed over as `f64::max`
/// passes them, by one compare a value: `f64::max`'s NaN rules cost a few instructions
/// more, on every point of every hull the near-miss test projects. Of two zeros either
/// may come back, as with `f64::max`; the callers only compare the result.
pub(crate) fn largest(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(f64::NEG_INFINITY, |m, v| if v > m { v } else { m })
}

/// The smallest of `values` (infinity for none), as [`largest`].
pub(crate) fn smallest(values: impl Iterator<Item = f64>) -> f64 {
    values.fold(f64::INFINITY, |m, v| if v < m { v } else { m })
}

/// Among the outward normals of `a`'s edges, the one along which `b` lies farthest, found
/// by walking `b`'s support point around it once (rotating calipers): `O(|a| + |b|)`.
fn best_edge_normal(a: &[DVec2], b: &[DVec2]) -> Option<DVec2> {
    if a.len() < 2 || b.is_empty() {
        return None;
    }
    let next = |i: usize, len: usize| if i + 1 == len { 0 } else { i + 1 };
    let normal = |i: usize| {
        let d = a[next(i, a.len())] - a[i];
        DVec2::new(d.y, -d.x)
    };
    let n0 = normal(0);
    let mut j = (0..b.len())
        .min_by(|&x, &y| b[x].dot(n0).total_cmp(&b[y].dot(n0)))
        .unwrap_or(0);
    // Gaps compared as gap * |gap| / |n|^2, which orders them as gap / |n| does without a
    // square root per edge.
    let (mut best, mut best_key) = (None, f64::NEG_INFINITY);
    for (i, &start) in a.iter().enumerate() {
        let n = normal(i);
        let len2 = n.length_squared();
        if !(len2 > 0.0 && len2.is_finite()) {
            continue;
        }
        // As the normals turn, the point of b nearest along them moves forward around b.
        let mut steps = 0;
        let mut here = b[j].dot(n);
        while steps < b.len() {
            let k = next(j, b.len());
            let there = b[k].dot(n);
            if there > here {
                break;
            }
            (j, here) = (k, there);
            steps += 1;
        }
        let gap = here - start.dot(n);
        let key = gap * gap.abs() / len2;
        if key > best_key {
            best_key = key;
            best = Some(n);
        }
    }
    best.map(|n| n / n.length())
}

/// Whether the convex hulls `a` and `b` (counter-clockwise, as [`convex_hull`] makes them)
/// are more than `gap` apart along some axis: then no two of their points are within `gap`.
/// Only a few candidate axes are tried (the line between their centres, and the best edge
/// normal of each); each is checked against every point, so a `true` is never wrong, and a
/// `false` only means no separating axis was found. The edge normals are only searched when
/// the line between the centres comes within a quarter of the smaller hull's reach of
/// separating them: hulls that overlap deeper along it are answered at once (a search would
/// cost as much as comparing two cached masks, and seldom finds an axis).
pub(crate) fn apart(a: &HullView<'_>, b: &HullView<'_>, gap: f64) -> bool {
    let (pa, pb) = (a.points, b.points);
    if pa.is_empty() || pb.is_empty() {
        return true;
    }
    let between = (b.centre - a.centre).normalize_or_zero();
    if between == DVec2::ZERO {
        return false;
    }
    let along = gap_along(pa, pb, between);
    if along > gap {
        return true;
    }
    if along < deep_overlap(gap, a.reach, b.reach) {
        return false;
    }
    if let Some(n) = best_edge_normal(pa, pb)
        && gap_along(pa, pb, n) > gap
    {
        return true;
    }
    best_edge_normal(pb, pa).is_some_and(|n| gap_along(pb, pa, n) > gap)
}

/// Below this gap along the line between the centres, [`apart`] answers `false` without
/// searching: the hulls overlap by more than a quarter of the smaller one's reach.
pub(crate) fn deep_overlap(gap: f64, reach_a: f64, reach_b: f64) -> f64 {
    gap - 0.25 * reach_a.min(reach_b) - 2.0
}

/// A convex hull as [`apart`] reads it: its points (counter-clockwise), a point inside it and
/// at least its farthest distance from that point. The centre and reach only steer which
/// axes are tried, so any inner point and any bound at or above the true reach keep
/// [`apart`]'s `true` exact.
#[derive(Clone, Copy, Debug)]
pub(crate) struct HullView<'p> {
    pub points: &'p [DVec2],
    pub centre: DVec2,
    pub reach: f64,
}

impl<'p> HullView<'p> {
    /// `points` with their own centre and reach, worked out now.
    pub fn of(points: &'p [DVec2]) -> HullView<'p> {
        let centre = centre(points);
        HullView {
            points,
            centre,
            reach: reach_from(points, centre),
        }
    }
}

/// The mean of `points` (the origin for none).
fn centre(points: &[DVec2]) -> DVec2 {
    match points.len() {
        0 => DVec2::ZERO,
        n => points.iter().copied().sum::<DVec2>() / n as f64,
    }
}

/// The farthest any of `points` is from `c`.
fn reach_from(points: &[DVec2], c: DVec2) -> f64 {
    points
        .iter()
        .map(|p| p.distance_squared(c))
        .fold(0.0, f64::max)
        .sqrt()
}

#[cfg(test)]
mod tests {
    use super::*;

    /// `largest` and `smallest` are `f64::max` and `f64::min` folded, over 5,000 random
    /// lists with NaNs, infinities, zeros and repeats (equal up to the sign of a zero, which
    /// `f64::max` leaves open too), and on no values at all.
    #[test]
    fn largest_and_smallest_fold_as_max_and_min() {
        let mut seed = 0x4d59_5df4_d0f3_3173_u64;
        let mut next = |n: u64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed % n
        };
        let special = [f64::NAN, f64::INFINITY, f64::NEG_INFINITY, 0.0, -0.0, 1.5, -1.5];
        for _ in 0..5_000 {
            let n = next(12) as usize;
            let values: Vec<f64> = (0..n)
                .map(|_| match next(3) {
                    0 => special[next(special.len() as u64) as usize],
                    _ => (next(2001) as f64 - 1000.0) / 8.0,
                })
                .collect();
            let want_max = values.iter().copied().fold(f64::NEG_INFINITY, f64::max);
            let want_min = values.iter().copied().fold(f64::INFINITY, f64::min);
            let (got_max, got_min) = (largest(values.iter().copied()), smallest(values.iter().copied()));
            assert!(
                got_max == want_max || got_max.is_nan() && want_max.is_nan(),
                "{values:?}"
            );
            assert!(
                got_min == want_min || got_min.is_nan() && want_min.is_nan(),
                "{values:?}"
            );
        }
        assert_eq!(largest(std::iter::empty()), f64::NEG_INFINITY);
        assert_eq!(smallest(std::iter::empty()), f64::INFINITY);
    }

    fn pts(v: &[(f64, f64)]) -> Vec<DVec2> {
        v.iter().map(|&(x, y)| DVec2::new(x, y)).collect()
    }

    #[test]
    fn the_hull_drops_inner_and_collinear_points_and_turns_one_way() {
        let mut p = pts(&[
            (0.0, 0.0),
            (2.0, 0.0),
            (1.0, 0.0),
            (2.0, 2.0),
            (1.0, 1.0),
            (0.0, 2.0),
        ]);
        convex_hull(&mut p);
        assert_eq!(p.len(), 4);
        for i in 0..p.len() {
            assert!(cross(p[i], p[(i + 1) % 4], p[(i + 2) % 4]) > 0.0);
        }
    }

    #[test]
    fn a_kept_hull_holds_the_full_one_with_few_vertices() {
        let mut circle: Vec<DVec2> = (0..500)
            .map(|k| DVec2::from_angle(f64::from(k) * 0.0125663706) * 100.0 + DVec2::new(3.0, -7.0))
            .collect();
        convex_hull(&mut circle);
        let kept = at_most_kept_vertices(circle.clone());
        assert!(kept.len() <= MAX_KEPT_VERTICES);
        for &p in &circle {
            for i in 0..kept.len() {
                assert!(
                    cross(kept[i], kept[(i + 1) % kept.len()], p) >= 0.0,
                    "{p} outside"
                );
            }
        }
        let farthest = kept
            .iter()
            .map(|p| (*p - DVec2::new(3.0, -7.0)).length())
            .fold(0.0, f64::max);
        assert!(farthest < 100.0 * 1.005, "{farthest}");
    }

    #[test]
    fn degenerate_hulls_are_points_and_segments() {
        let mut one = pts(&[(1.0, 1.0), (1.0, 1.0)]);
        convex_hull(&mut one);
        assert_eq!(one, pts(&[(1.0, 1.0)]));
        let mut line = pts(&[(0.0, 0.0), (1.0, 1.0), (2.0, 2.0)]);
        convex_hull(&mut line);
        assert_eq!(line.len(), 2);
    }

    #[test]
    fn outset_holds_the_disc() {
        let h = outset(&pts(&[(0.0, 0.0)]), 2.0);
        for k in 0..360 {
            let (s, c) = (f64::from(k).to_radians()).sin_cos();
            let p = DVec2::new(c, s) * 2.0;
            // Inside every edge (counter-clockwise: the inside is on the left).
            for i in 0..h.len() {
                assert!(cross(h[i], h[(i + 1) % h.len()], p) >= 0.0);
            }
        }
    }

    fn segment_distance(p: DVec2, a: DVec2, b: DVec2) -> f64 {
        let d = b - a;
        let t = ((p - a).dot(d) / d.length_squared()).clamp(0.0, 1.0);
        p.distance(a + d * t)
    }

    /// The distance between two disjoint convex polygons: nearest vertex to edge.
    fn polygon_distance(a: &[DVec2], b: &[DVec2]) -> f64 {
        let one_way = |a: &[DVec2], b: &[DVec2]| {
            a.iter()
                .flat_map(|&p| (0..b.len()).map(move |i| (p, i)))
                .map(|(p, i)| segment_distance(p, b[i], b[(i + 1) % b.len()]))
                .fold(f64::INFINITY, f64::min)
        };
        one_way(a, b).min(one_way(b, a))
    }

    #[test]
    fn separation_is_found_along_any_direction_and_never_claimed_when_close() {
        let square = pts(&[(0.0, 0.0), (1.0, 0.0), (1.0, 1.0), (0.0, 1.0)]);
        let (mut found_far, mut far) = (0, 0);
        for k in 0..720 {
            let (s, c) = (f64::from(k).to_radians() / 2.0).sin_cos();
            for dist in [0.8, 1.0, 1.2, 1.6, 2.0, 3.0] {
                let m =
                    DAffine2::from_angle_translation(0.37 * f64::from(k), DVec2::new(c, s) * (dist + 1.2));
                let mut b = Vec::new();
                map_hull(&square, &m, &mut b);
                let d = polygon_distance(&square, &b);
                let found = apart(&HullView::of(&square), &HullView::of(&b), 1.0);
                assert!(!found || d > 1.0, "claimed apart at distance {d}");
                if d > 1.5 {
                    far += 1;
                    found_far += usize::from(found);
                }
            }
        }
        // Two squares more than 1.5 apart are separated by an edge normal within 1.0 of
        // their distance in most poses; the heuristic finds nearly all of them.
        assert!(far > 1000 && found_far * 100 >= far * 95, "{found_far} of {far}");
    }
}
