//! Centre tests (`anti_alias = false`): whether each pixel centre of a row is inside an
//! item's region, decided exactly in integers on the snapped edges (semantics.md 4.5).
//!
//! A centre `(i + 1/2, j + 1/2)` is inside when the edges that cross its scanline strictly to
//! its left wind around it by the fill rule, an edge counting over `[top, bottom)`: Flash's
//! boundary rule of section 5 (x in `(left, right]`, y in `[top, bottom)`).

use super::edges::{Edge, GRID};
use crate::FillRule;

/// Calls `emit(first column, winding)` for the runs of equal winding number around the
/// centres of row `row` over columns `x0..x1` (pixels relative to the anchor), left to
/// right, the first at `x0`. `active` must hold every edge that reaches into the row;
/// `crossings` is a reusable buffer for `(first column right of an edge, its direction)`.
pub(crate) fn centre_runs(
    active: &[Edge],
    row: i64,
    (x0, x1): (i64, i64),
    list: &mut Vec<(i64, i32)>,
    mut emit: impl FnMut(i64, i32),
) {
    let yc = row * GRID + GRID / 2;
    list.clear();
    for e in active {
        if e.top <= yc && yc < e.bottom {
            let first = first_column_right_of(e, yc);
            if first < x1 {
                list.push((first.max(x0), i32::from(e.dir)));
            }
        }
    }
    list.sort_unstable_by_key(|c| c.0);
    let mut winding = 0;
    let mut k = 0;
    let mut x = x0;
    loop {
        while let Some(&(c, d)) = list.get(k) {
            if c > x {
                break;
            }
            winding += d;
            k += 1;
        }
        emit(x, winding);
        match list.get(k) {
            Some(&(c, _)) => x = c,
            None => break,
        }
    }
}

/// Sets `wind[k]` to the winding number around the centre of pixel `(x0 + k, row)`.
#[cfg(test)]
pub(crate) fn winding_row(active: &[Edge], row: i64, x0: i64, wind: &mut [i32]) {
    let x1 = x0 + wind.len() as i64;
    let mut runs = Vec::new();
    centre_runs(active, row, (x0, x1), &mut Vec::new(), |x, w| runs.push((x, w)));
    for (k, &(x, w)) in runs.iter().enumerate() {
        let end = runs.get(k + 1).map_or(x1, |r| r.0);
        wind[(x - x0) as usize..(end - x0) as usize].fill(w);
    }
}

/// The first pixel column whose centre lies strictly right of where `e` crosses height
/// `yc` (grid units).
fn first_column_right_of(e: &Edge, yc: i64) -> i64 {
    let den = i128::from(e.bottom - e.top);
    let num = i128::from(e.x_top) * den + i128::from(yc - e.top) * i128::from(e.x_bottom - e.x_top);
    // Centre 256 i + 128 is right of num / den exactly when it is right of floor(num / den),
    // both sides being compared as integers.
    let q = num.div_euclid(den);
    let half = i128::from(GRID / 2);
    let first = (q - half).div_euclid(i128::from(GRID)) + 1;
    first.clamp(i128::from(i64::MIN / 2), i128::from(i64::MAX / 2)) as i64
}

/// Whether a winding number is inside by `rule`.
pub(crate) fn inside(winding: i32, rule: FillRule) -> bool {
    match rule {
        FillRule::NonZero => winding != 0,
        FillRule::EvenOdd => winding & 1 != 0,
    }
}

#[cfg(test)]
mod tests {
    use super::super::edges::Edges;
    use super::*;

    fn row(points: &[(i64, i64)], row: i64, x0: i64, n: usize) -> Vec<i32> {
        let mut e = Edges::default();
        e.push_closed(points);
        e.finish();
        let mut w = vec![0; n];
        winding_row(&e.edges, row, x0, &mut w);
        w
    }

    #[test]
    fn centres_on_left_edges_are_out_and_on_right_edges_in() {
        // A square from x = 0.5 to 2.5 (grid 128 to 640): the centres at 0.5 and 2.5 lie on
        // its left and right edges.
        let sq = [(128, 0), (640, 0), (640, 512), (128, 512)];
        assert_eq!(row(&sq, 0, 0, 4), vec![0, -1, -1, 0]);
        // Rows: the centre at y = 0.5 is on a top edge (in), at 2.5 on a bottom edge (out).
        let tall = [(0, 128), (256, 128), (256, 640), (0, 640)];
        assert_eq!(
            (0..3).map(|j| row(&tall, j, 0, 1)[0]).collect::<Vec<_>>(),
            vec![-1, -1, 0]
        );
    }

    #[test]
    fn slanted_edges_are_decided_exactly() {
        // The edge from (0, 0) to (3 px, 1 px) passes the centre (1.5, 0.5) exactly, and the
        // triangle lies to its left... to the right of the edge x = 3y: centre (1.5, 0.5) is
        // on the edge and so not inside it; (2.5, 0.5) is inside.
        let tri = [(0, 0), (768, 256), (768, 0)];
        let w = row(&tri, 0, 0, 3);
        assert_eq!(
            w.iter()
                .map(|&v| inside(v, FillRule::NonZero))
                .collect::<Vec<_>>(),
            vec![false, false, true]
        );
    }
}
