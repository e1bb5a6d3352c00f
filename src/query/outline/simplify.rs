//! Fewer vertices for traced loops, within a distance, never moving a pixel centre across.
//!
//! Douglas-Peucker on each closed loop, with the midpoints of its edges as candidate
//! vertices too (a chord through the middles of a staircase's steps stays within a third
//! of a pixel of it, where one through its corners cannot): a run of vertices is replaced
//! by the chord between its ends when every vertex is within the distance of the chord.
//! Below half a pixel the chord must also sweep over no pixel centre: the loops' even-odd
//! parity at a point changes exactly by the parity of the polygon a replaced run and its
//! chord enclose, so when that polygon holds no centre (checked exactly, in integers)
//! every centre keeps its side.
//!
//! Coordinates here are in half pixels, so that midpoints are whole numbers and pixel
//! centres the odd ones.

/// Loops of pixel corners simplified within `distance` pixels (keeping every pixel
/// centre's side when `distance < 0.5`), in half pixels; loops left with fewer than three
/// vertices are dropped.
pub(crate) fn simplify(loops: Vec<Vec<(i64, i64)>>, distance: f64) -> Vec<Vec<(i64, i64)>> {
    let keep_centres = distance < 0.5;
    loops
        .into_iter()
        .map(|l| {
            let n = l.len();
            let halves: Vec<(i64, i64)> = (0..n)
                .flat_map(|i| {
                    let (a, b) = (l[i], l[(i + 1) % n]);
                    let a2 = (a.0 * 2, a.1 * 2);
                    if distance > 0.0 {
                        vec![a2, (a.0 + b.0, a.1 + b.1)]
                    } else {
                        vec![a2]
                    }
                })
                .collect();
            if distance > 0.0 {
                simplify_loop(&halves, distance * 2.0, keep_centres)
            } else {
                halves
            }
        })
        .filter(|l| l.len() >= 3)
        .collect()
}

/// The most vertices one chord replaces, which bounds the work per kept vertex.
const MAX_RUN: usize = 48;

/// One loop simplified greedily: from each kept vertex, the chord to the farthest vertex
/// (within [`MAX_RUN`]) that fits.
fn simplify_loop(pts: &[(i64, i64)], distance: f64, keep_centres: bool) -> Vec<(i64, i64)> {
    let n = pts.len();
    if n < 4 {
        return pts.to_vec();
    }
    let at = |i: usize| pts[i % n];
    let fits = |a: usize, b: usize| {
        let (pa, pb) = (at(a), at(b));
        (a + 1..b).all(|i| segment_distance(at(i), pa, pb) <= distance)
            && (!keep_centres || !sweeps_a_centre((a..=b).map(at), pa, pb, distance))
    };
    // Start at vertex 1, the middle of the first edge when middles were added, which is
    // never a vertex a good chord needs.
    let (start, end) = (1, 1 + n);
    let longest = MAX_RUN.min(n - 1);
    let mut kept = vec![at(start)];
    let mut i = start;
    while i < end {
        // Fitting is not monotone (a chord can fail where a longer one fits again), so
        // look from the longest down.
        let j = (i + 2..=end.min(i + longest))
            .rev()
            .find(|&j| fits(i, j))
            .unwrap_or(i + 1);
        if j < end {
            kept.push(at(j));
        }
        i = j;
    }
    kept
}

/// Distance from `p` to the segment `a`-`b`.
fn segment_distance(p: (i64, i64), a: (i64, i64), b: (i64, i64)) -> f64 {
    let (px, py) = (p.0 as f64, p.1 as f64);
    let (ax, ay, bx, by) = (a.0 as f64, a.1 as f64, b.0 as f64, b.1 as f64);
    let (dx, dy) = (bx - ax, by - ay);
    let len2 = dx * dx + dy * dy;
    let t = if len2 == 0.0 {
        0.0
    } else {
        (((px - ax) * dx + (py - ay) * dy) / len2).clamp(0.0, 1.0)
    };
    (px - ax - t * dx).hypot(py - ay - t * dy)
}

/// Whether the polygon of the run `run` (from `a` to `b`, half pixels) closed by the
/// chord `b`-`a` holds a pixel centre inside or on the chord. Every vertex of the run is
/// within `distance` (half pixels) of the chord, so the polygon lies within `distance` of
/// it and only the centres of that band need a look.
fn sweeps_a_centre(
    run: impl Iterator<Item = (i64, i64)> + Clone,
    a: (i64, i64),
    b: (i64, i64),
    distance: f64,
) -> bool {
    let wide = |p: (i64, i64)| (i128::from(p.0), i128::from(p.1));
    let (dx, dy) = (b.0 - a.0, b.1 - a.1);
    let steep = dy.abs() > dx.abs();
    // Walk the band along the chord's longer axis: per line of centres across it, the
    // centres within `distance` of the chord's line lie in a short interval.
    let (start_along, start_across) = if steep { (a.1, a.0) } else { (a.0, a.1) };
    let (end_along, long, short) = if steep {
        (b.1, dy as f64, dx as f64)
    } else {
        (b.0, dx as f64, dy as f64)
    };
    let half_width = distance * long.hypot(short) / long.abs().max(1.0);
    let reach = distance.ceil() as i64 + 2;
    let odd_from = |v: i64| if v.rem_euclid(2) == 1 { v } else { v + 1 };
    let mut along = odd_from(start_along.min(end_along) - reach);
    while along <= start_along.max(end_along) + reach {
        let centre_across = if long == 0.0 {
            start_across as f64
        } else {
            start_across as f64 + (along - start_along) as f64 * short / long
        };
        let mut across = odd_from((centre_across - half_width).floor() as i64 - 2);
        let last = (centre_across + half_width).ceil() as i64 + 2;
        while across <= last {
            let c = if steep { (across, along) } else { (along, across) };
            if on_segment(wide(c), wide(a), wide(b)) || odd_crossings(run.clone().map(wide), wide(c)) {
                return true;
            }
            across += 2;
        }
        along += 2;
    }
    false
}

fn on_segment(p: (i128, i128), a: (i128, i128), b: (i128, i128)) -> bool {
    let cross = (b.0 - a.0) * (p.1 - a.1) - (b.1 - a.1) * (p.0 - a.0);
    cross == 0 && p.0 >= a.0.min(b.0) && p.0 <= a.0.max(b.0) && p.1 >= a.1.min(b.1) && p.1 <= a.1.max(b.1)
}

/// Whether a ray from `p` towards +x crosses the closed polygon `poly` an odd number of
/// times, `p` not on it. Vertices on the ray's line count as just above it, so each
/// crossing counts once.
fn odd_crossings(poly: impl Iterator<Item = (i128, i128)> + Clone, p: (i128, i128)) -> bool {
    let Some(last) = poly.clone().last() else {
        return false;
    };
    let mut prev = last;
    let mut odd = false;
    for cur in poly {
        if (prev.1 > p.1) != (cur.1 > p.1) {
            // The crossing's x is right of p when (cur - prev) x (p - prev) has the sign
            // that puts p left of the edge as it goes up or down.
            let cross = (cur.0 - prev.0) * (p.1 - prev.1) - (cur.1 - prev.1) * (p.0 - prev.0);
            if (cross > 0) == (cur.1 > prev.1) {
                odd = !odd;
            }
        }
        prev = cur;
    }
    odd
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_staircase_loses_corners_but_no_centre_changes_side() {
        let stairs = vec![(0, 0), (1, 0), (1, 1), (2, 1), (2, 2), (3, 2), (3, 3), (0, 3)];
        // Half pixels out.
        let fewer = simplify(vec![stairs.clone()], 0.49).remove(0);
        assert!(fewer.len() < stairs.len(), "{fewer:?}");
        let wide = |l: &[(i64, i64)], k: i128| -> Vec<(i128, i128)> {
            l.iter()
                .map(|&(x, y)| (i128::from(x) * k, i128::from(y) * k))
                .collect()
        };
        let (before, after) = (wide(&stairs, 2), wide(&fewer, 1));
        for cy in -1..4 {
            for cx in -1..4 {
                let c = (cx * 2 + 1, cy * 2 + 1);
                assert_eq!(
                    odd_crossings(before.iter().copied(), c),
                    odd_crossings(after.iter().copied(), c),
                    "centre {c:?}"
                );
            }
        }
    }

    #[test]
    fn a_chord_over_a_centre_or_through_one_is_refused() {
        // In half pixels. Through the centre (1, 1) of the corner pixel.
        let run = [(0, 0), (2, 0), (2, 2)];
        assert!(sweeps_a_centre(run.iter().copied(), (0, 0), (2, 2), 1.6));
        // Over the centre (3, 1), which lies between the run and the chord.
        let run = [(0, 0), (4, 0), (4, 2)];
        assert!(sweeps_a_centre(run.iter().copied(), (0, 0), (4, 2), 1.8));
        // A straight run sweeps nothing.
        let run = [(0, 0), (2, 0), (4, 0)];
        assert!(!sweeps_a_centre(run.iter().copied(), (0, 0), (4, 0), 0.8));
    }

    #[test]
    fn odd_crossings_counts_a_square() {
        let sq = [(0, 0), (4, 0), (4, 4), (0, 4)];
        assert!(odd_crossings(sq.iter().copied(), (1, 1)));
        assert!(!odd_crossings(sq.iter().copied(), (5, 1)));
        assert!(!odd_crossings(sq.iter().copied(), (-1, 3)));
    }
}
