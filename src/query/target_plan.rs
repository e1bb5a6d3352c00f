//! Which targets of a many-object query get their whole solid mask made once, for all
//! their pairs to read (docs/frame-engine.md, "Planning targets once per query").
//!
//! A pair computes both its targets in its own window, so a target in k pairs is worked
//! out k times over. The rule: a target is planned whole when its pairs' windows together
//! cover its own box (in pixels) as many times as its kind needs, and its box is at most
//! [`MAX_WHOLE_PIXELS`]. A lone unsmoothed bitmap needs twice: a pair reads it only where
//! both targets' solid boxes meet, a part of its window, and one pass over its box reads all
//! of it (on the rocks scene `prof_rocks 1000` took 62.6 M instructions a frame with once
//! and 60.0 M with twice, 60.1 M never planning). Anything else needs once: a pair computes
//! a fill in its window by the row scan, and its whole mask by the fill kernel, so one
//! cover of windows already costs more than a pass (the sparse crowd's turning frame took
//! 100.2 M instructions with once against 129.8 M with twice). A target met in one small
//! window (a bullet against a terrain) stays computed in that window only.

use crate::geom::rect::PixelRect;
use crate::{NodeId, Rect, Stage};

/// How deep [`Stage::lone_unsmoothed_bitmap`] looks through single-child containers (a
/// sprite's container, its art): a bound on a planning hint, which never changes an answer.
const LONE_DEPTH: usize = 4;

/// Largest box (pixels) a target is planned whole for: 128 KiB of mask.
pub(crate) const MAX_WHOLE_PIXELS: u128 = 1 << 20;

/// For each object (by index into `boxes`, its box in the query's parent), whether it is
/// planned whole, given the close `pairs`; `read_by_reach(i)` says that object `i` is a
/// lone unsmoothed bitmap (its windows must cover it twice).
pub(crate) fn plan_whole(
    boxes: &[Option<Rect>],
    pairs: &[(usize, usize)],
    read_by_reach: impl Fn(usize) -> bool,
) -> Vec<bool> {
    // Once an object, not twice a pair: `covering` rounds four floats.
    let pixels: Vec<Option<PixelRect>> = boxes
        .iter()
        .map(|b| b.as_ref().map(PixelRect::covering))
        .collect();
    let mut windows = vec![0u128; boxes.len()];
    for &(i, j) in pairs {
        let (Some(a), Some(b)) = (pixels[i], pixels[j]) else {
            continue;
        };
        let w = a.intersect(&b).area();
        windows[i] += w;
        windows[j] += w;
    }
    (0..boxes.len())
        .map(|i| {
            pixels[i].is_some_and(|b| {
                let area = b.area();
                let covers = if read_by_reach(i) { 2 } else { 1 };
                area > 0 && area <= MAX_WHOLE_PIXELS && windows[i] >= covers * area
            })
        })
        .collect()
}

/// The planning hint of a many-object query (crate-internal).
impl Stage {
    /// Whether `node` draws one unsmoothed bitmap of its own and nothing else, itself or
    /// through a few containers of one child each (a sprite and its art): the bitmap
    /// kernel's pairs then read it only where both solid boxes meet.
    pub(crate) fn lone_unsmoothed_bitmap(&self, node: NodeId) -> bool {
        let mut at = node;
        for _ in 0..LONE_DEPTH {
            let Ok(n) = self.node(at) else { return false };
            match (n.content.shown(), n.children.as_slice()) {
                (([], Some(bitmap)), []) => {
                    return !bitmap.smoothing && n.renderer.is_none();
                }
                (([], None), [child]) => at = *child,
                _ => return false,
            }
        }
        false
    }
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
        assert_eq!(
            plan_whole(&grid, &pairs, |_| false)
                .iter()
                .filter(|&&w| w)
                .count(),
            100
        );
        let row: Vec<_> = (0..10).map(|k| square(f64::from(k) * 28.0, 0.0, 30.0)).collect();
        let pairs: Vec<_> = (0..9).map(|i| (i, i + 1)).collect();
        assert_eq!(
            plan_whole(&row, &pairs, |_| false).iter().filter(|&&w| w).count(),
            0
        );
        // A huge target is never planned whole, however many pairs it is in.
        let mut big = vec![square(0.0, 0.0, 2000.0)];
        big.extend((0..600).map(|k| square(f64::from(k % 30) * 60.0, f64::from(k / 30) * 60.0, 80.0)));
        let pairs: Vec<_> = (1..big.len()).map(|j| (0, j)).collect();
        assert!(!plan_whole(&big, &pairs, |_| false)[0]);
    }

    /// The first square's windows cover its box once, then 1.5 times, then twice: a lone
    /// bitmap is planned whole only then, anything else from the first cover on.
    #[test]
    fn a_lone_bitmap_is_planned_whole_when_its_windows_cover_it_twice() {
        let boxes = [
            square(0.0, 0.0, 10.0),
            square(0.0, 0.0, 10.0),
            square(0.0, 5.0, 10.0),
            square(5.0, 0.0, 10.0),
        ];
        let first = |pairs: &[(usize, usize)], bitmap: bool| plan_whole(&boxes, pairs, |_| bitmap)[0];
        assert!(!first(&[(0, 1)], true));
        assert!(!first(&[(0, 1), (0, 2)], true));
        assert!(first(&[(0, 1), (0, 2), (0, 3)], true));
        assert!(first(&[(0, 1)], false));
        assert!(!first(&[(0, 2)], false));
    }

    /// The hint sees a sprite's art through its container, and nothing else counts: a
    /// smoothed or rendered bitmap, a fill, art beside other art.
    #[test]
    fn lone_unsmoothed_bitmaps_are_found_through_their_containers() {
        use crate::{Bitmap, BitmapRenderer, FillRule, Graphic, Path, PygameTransform};
        let mut stage = Stage::new();
        let root = stage.root();
        let art = Bitmap::from_rgba8(2, 2, vec![255; 16]).unwrap();
        let sprite = |stage: &mut Stage, smoothing: bool| {
            let s = stage.add_container(root).unwrap();
            let b = stage.add_bitmap(s, art.clone(), smoothing).unwrap();
            (s, b)
        };
        let (plain, plain_art) = sprite(&mut stage, false);
        assert!(stage.lone_unsmoothed_bitmap(plain) && stage.lone_unsmoothed_bitmap(plain_art));
        let (smooth, _) = sprite(&mut stage, true);
        assert!(!stage.lone_unsmoothed_bitmap(smooth));
        let (rendered, rendered_art) = sprite(&mut stage, false);
        let turn = Some(BitmapRenderer::Pygame(PygameTransform::rotate(30.0)));
        stage.set_bitmap_renderer(rendered_art, turn).unwrap();
        assert!(!stage.lone_unsmoothed_bitmap(rendered));
        let (crowded, _) = sprite(&mut stage, false);
        stage.add_bitmap(crowded, art.clone(), false).unwrap();
        assert!(!stage.lone_unsmoothed_bitmap(crowded));
        let shape = stage.add_container(root).unwrap();
        let disc = Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(shape, disc).unwrap();
        assert!(!stage.lone_unsmoothed_bitmap(shape));
    }
}
