//! A pair of a many-object query whose two targets already have their whole masks made
//! (`target_memo.rs`, `target_plan.rs`), answered from the masks at once.
//!
//! Such a pair went through the whole pipeline to reach one compare of two masks: its setup
//! cloned both prepared targets out of their memos and moved them, in a pair of about 350
//! bytes, through four functions (`memo_pair`, `setup_pair`, `run_pair` and the caller's
//! compare), looked both tolerances up in the tree again, and dropped it all. In the dense
//! crowd (`prof_spinning 1000 spin 1 dense`, 10,400 close pairs a frame, most of them
//! between two made masks) that was about 1,500 instructions a pair besides the compare.
//!
//! Here the same steps are taken on the same numbers, by reference: the boxes kept in the
//! memos, their intersection and its pixels ([`Stage::pixel_window`]), the targets' extents,
//! the budget, the masks' own thresholds (made from the same tolerances in the same query),
//! and `BitMask::overlap_moved` over the window, as `PreparedPair::overlap` compares two
//! whole masks. Whatever else can happen on the way (an error, a window past the budget, a
//! query that is not precise, details asked for) is left to the pipeline, which answers it
//! as before.

use crate::Stage;
use crate::query::pipeline::{PairRequest, collision_of};
use crate::query::target::Pose;
use crate::query::target_memo::TargetMemo;
use crate::raster::PairAnswer;

#[cfg(test)]
thread_local! {
    /// Pairs answered here, on this thread.
    pub(crate) static ANSWERED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Pair answers from made masks (crate-internal).
impl Stage {
    /// What the pipeline would answer `req` with and keep for the frame, when `req` is a
    /// precise pair of a many-object query (memos given, no retry drawing whole) between two
    /// targets whose whole masks are made and fit its budget; `None` otherwise, and
    /// whenever the pipeline would report an error: the caller then runs the pipeline.
    pub(crate) fn made_masks_answer(&self, req: &PairRequest<'_>) -> Option<PairAnswer> {
        let (memo_a, memo_b) = req.memo?;
        let opts = req.opts;
        if !opts.precise || req.draw_whole || (req.a.pose, req.b.pose) != (Pose::InParent, Pose::InParent) {
            return None;
        }
        let (a, b) = TargetMemo::made_pair(memo_a, memo_b, opts)?;
        // `Stage::setup_pair`'s steps, with the pipeline's answer for each way out.
        let empty = (None, None);
        let answer = 'answer: {
            let (Some(box_a), Some(box_b)) = (a.bounds, b.bounds) else {
                break 'answer empty;
            };
            let Some(r) = box_a.intersect(&box_b) else {
                break 'answer empty;
            };
            let window = self.pixel_window(&r, String::new).ok()?;
            let (Some(extent_a), Some(extent_b)) = (a.prepared.extent(), b.prepared.extent()) else {
                break 'answer empty;
            };
            let window = window.intersect(&extent_a).intersect(&extent_b);
            if window.is_empty() {
                break 'answer empty;
            }
            if window.area() > u128::from(opts.max_pixels) {
                return None;
            }
            // Both masks sit in the parent's grid, at no offset (`Prepared::single_mask`).
            let c = collision_of(a.mask.overlap_moved((0, 0), b.mask, (0, 0), window));
            (c.rect, c.overlap_pixels)
        };
        #[cfg(test)]
        ANSWERED.with(|n| n.set(n.get() + 1));
        Some(answer)
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! Dense piles of turned sprites (bitmaps, smoothed or not, and fills, some with a mask
    //! or a colour transform), where most close pairs meet two made masks: every contact
    //! against the pair asked alone on a fresh copy of the stage with the fast paths off
    //! (every pixel composited), at tolerances 0, 127 and 255.

    use std::cell::Cell;

    use super::ANSWERED;
    use crate::query::budget_tests::Rng;
    use crate::{Bitmap, CollisionOptions, ColorTransform, FillRule, Graphic, NodeId, Path, Stage};

    /// A bitmap of 6 to 19 px a side whose alpha falls off from the centre.
    pub(crate) fn blob(rng: &mut Rng) -> Bitmap {
        let (w, h) = (6 + rng.below(14) as u32, 6 + rng.below(14) as u32);
        let rgba = (0..w * h)
            .flat_map(|i| {
                let (x, y) = (
                    f64::from(i % w) / f64::from(w) - 0.5,
                    f64::from(i / w) / f64::from(h) - 0.5,
                );
                let a = (255.0 * (1.0 - 4.0 * (x * x + y * y))).clamp(0.0, 255.0) as u8;
                [200, 10, 10, a]
            })
            .collect();
        Bitmap::from_rgba8(w, h, rgba).unwrap()
    }

    /// A container in `s` holding a random polygon fill (3 to 6 points, alpha 0.3 to 1).
    pub(crate) fn polygon_fill(stage: &mut Stage, s: NodeId, rng: &mut Rng) -> NodeId {
        let pts: Vec<(f64, f64)> = (0..3 + rng.below(4))
            .map(|_| (rng.range(-9.0, 9.0), rng.range(-9.0, 9.0)))
            .collect();
        let g = Graphic::fill(Path::polygon(&pts), FillRule::NonZero, rng.range(0.3, 1.0)).unwrap();
        let c = stage.add_container(s).unwrap();
        stage.add_graphic(c, g).unwrap();
        c
    }

    /// `item` masked by a 10 px square, a child of the sprite `s`.
    pub(crate) fn square_mask(stage: &mut Stage, s: NodeId, item: NodeId) {
        let mask = stage.add_container(s).unwrap();
        let square = Graphic::fill(Path::rect(-5.0, -5.0, 10.0, 10.0), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(mask, square).unwrap();
        stage.set_mask(item, Some(mask)).unwrap();
    }

    /// The sprite `s` given a random alpha multiplier (0.2 to 1).
    pub(crate) fn fade(stage: &mut Stage, s: NodeId, rng: &mut Rng) {
        let ct = ColorTransform {
            alpha_multiplier: rng.range(0.2, 1.0),
            ..ColorTransform::IDENTITY
        };
        stage.set_color_transform(s, ct).unwrap();
    }

    fn sprite(stage: &mut Stage, world: NodeId, rng: &mut Rng) -> NodeId {
        let s = stage.add_container(world).unwrap();
        let item = match rng.below(3) {
            0 => polygon_fill(stage, s, rng),
            _ => stage.add_bitmap(s, blob(rng), rng.below(2) == 0).unwrap(),
        };
        if rng.below(8) == 0 {
            square_mask(stage, s, item);
        }
        if rng.below(6) == 0 {
            fade(stage, s, rng);
        }
        stage
            .set_transform(
                s,
                rng.range(0.0, 36.0),
                rng.range(0.0, 36.0),
                rng.range(0.0, 360.0),
                rng.range(0.6, 1.6),
                rng.range(0.6, 1.6),
            )
            .unwrap();
        s
    }

    #[test]
    fn pairs_of_made_masks_answer_as_every_pair_alone() {
        let mut rng = Rng(0x6ade_3a5c);
        let before = ANSWERED.with(Cell::get);
        let mut contacts = 0;
        for case in 0..40 {
            let mut stage = Stage::new();
            let world = stage.add_container(stage.root()).unwrap();
            let sprites: Vec<NodeId> = (0..30).map(|_| sprite(&mut stage, world, &mut rng)).collect();
            let opts = CollisionOptions::default()
                .parallel(false)
                .tolerance([0, 127, 255][case % 3])
                .anti_alias(case % 4 != 0);
            let got: Vec<_> = stage
                .contacts_among(&sprites, world, &opts)
                .unwrap()
                .iter()
                .map(|c| (c.a, c.b, c.rect, c.overlap_pixels))
                .collect();
            let plain = stage.clone();
            let mut want = Vec::new();
            for (i, &a) in sprites.iter().enumerate() {
                for &b in &sprites[i + 1..] {
                    let c = plain.collision(a, b, world, &opts.fast_paths(false)).unwrap();
                    if let Some(rect) = c.rect {
                        want.push((a, b, rect, c.overlap_pixels));
                    }
                }
            }
            assert_eq!(got, want, "case {case}");
            contacts += got.len();
        }
        let answered = ANSWERED.with(Cell::get) - before;
        eprintln!("{contacts} contacts, {answered} pairs answered from made masks");
        assert!(contacts > 1_000, "{contacts} contacts");
        assert!(answered > 4_000, "{answered} pairs answered from made masks");
    }
}
