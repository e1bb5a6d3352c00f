//! Which targets of a many-object query get their whole solid mask made once, for all
//! their pairs to read (docs/frame-engine.md, "Planning targets once per query").
//!
//! A pair computes both its targets in its own window, so a target in k pairs is worked
//! out k times over. The rule: a target is planned whole when its pairs' windows together
//! cover at least twice its own box (in pixels), and its box is at most
//! [`MAX_WHOLE_PIXELS`]. Twice, because a pair reads a target only where both targets' solid
//! boxes meet, a part of its window, and one pass over its box reads all of it: on the rocks
//! scene `prof_rocks 1000` took 62.6 M instructions a frame with once and 60.0 M with twice
//! (60.1 M never planning), and the dense crowd's turning frame 207 M and 208 M (672 M
//! never planning). A target met in one small
//! window (a bullet against a terrain) stays computed in that window only. The pairs of a
//! sparse crowd, whose windows are slivers of their targets, are left as they are: the
//! window pass costs less there (measured on the rocks scene, docs/frame-engine.md).

use crate::Rect;
use crate::geom::rect::PixelRect;

/// Largest box (pixels) a target is planned whole for: 128 KiB of mask.
pub(crate) const MAX_WHOLE_PIXELS: u128 = 1 << 20;

/// For each object (by index into `boxes`, its box in the query's parent), whether it is
/// planned whole, given the close `pairs`.
pub(crate) fn plan_whole(boxes: &[Option<Rect>], pairs: &[(usize, usize)]) -> Vec<bool> {
    let pixels = |i: usize| boxes[i].as_ref().map(PixelRect::covering);
    let mut windows = vec![0u128; boxes.len()];
    for &(i, j) in pairs {
        let (Some(a), Some(b)) = (pixels(i), pixels(j)) else {
            continue;
        };
        let w = a.intersect(&b).area();
        windows[i] += w;
        windows[j] += w;
    }
    (0..boxes.len())
        .map(|i| {
            pixels(i).is_some_and(|b| {
                let area = b.area();
                area > 0 && area <= MAX_WHOLE_PIXELS && windows[i] >= 2 * area
            })
        })
        .collect()
}

#[cfg(test)]
mod tests {
    use super::*;

    fn square(x: f64, y: f64, side: f64) -> Option<Rect> {
        Rect::from_xywh(x, y, side, side)
    }

    /// A grid of 30 px squares 5 px apart: each overlaps its neighbours out to 5 squares
    /// away, so its windows cover its box many times over, and every one is planned whole.
    /// Squares in a sparse row, each touching the next by a sliver, are not.
    #[test]
    fn dense_targets_are_planned_whole_and_sparse_ones_are_not() {
        let grid: Vec<_> = (0..100)
            .map(|k| square(f64::from(k % 10) * 5.0, f64::from(k / 10) * 5.0, 30.0))
            .collect();
        let pairs: Vec<_> = (0..100)
            .flat_map(|i| (i + 1..100).map(move |j| (i, j)))
            .filter(|&(i, j)| grid[i].unwrap().intersect(&grid[j].unwrap()).is_some())
            .collect();
        assert_eq!(plan_whole(&grid, &pairs).iter().filter(|&&w| w).count(), 100);
        let row: Vec<_> = (0..10).map(|k| square(f64::from(k) * 28.0, 0.0, 30.0)).collect();
        let pairs: Vec<_> = (0..9).map(|i| (i, i + 1)).collect();
        assert_eq!(plan_whole(&row, &pairs).iter().filter(|&&w| w).count(), 0);
        // A huge target is never planned whole, however many pairs it is in.
        let mut big = vec![square(0.0, 0.0, 2000.0)];
        big.extend((0..600).map(|k| square(f64::from(k % 30) * 60.0, f64::from(k / 30) * 60.0, 80.0)));
        let pairs: Vec<_> = (1..big.len()).map(|j| (0, j)).collect();
        assert!(!plan_whole(&big, &pairs)[0]);
    }

    /// The first square's windows cover its box once, then 1.5 times, then twice: only then
    /// is it planned whole.
    #[test]
    fn a_target_is_planned_whole_when_its_windows_cover_it_twice() {
        let boxes = [
            square(0.0, 0.0, 10.0),
            square(0.0, 0.0, 10.0),
            square(0.0, 5.0, 10.0),
            square(5.0, 0.0, 10.0),
        ];
        let first = |pairs: &[(usize, usize)]| plan_whole(&boxes, pairs)[0];
        assert!(!first(&[(0, 1)]));
        assert!(!first(&[(0, 1), (0, 2)]));
        assert!(first(&[(0, 1), (0, 2), (0, 3)]));
    }
}
