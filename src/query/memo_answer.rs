//! A pair of a many-object query answered from its targets' memos by reference, when each
//! target is one mask or one item a kernel writes.
//!
//! Through the pipeline such a pair cloned both prepared targets out of their memos
//! (`Stage::memo_pair`), moved them in a pair of about 350 bytes through `setup_pair`,
//! `run_pair` and its compare (`PreparedPair::overlap`), and dropped them: on the rocks
//! frame (`prof_rocks 1000`, 1,340 close pairs, most of them two bitmap poses computed in
//! their window) that was a few hundred instructions a pair besides the compare.
//!
//! Here the pipeline's steps are taken on the same numbers, in the same order, reading the
//! memos where they keep things: the boxes, their intersection's pixels
//! ([`Stage::pixel_window`]), the memos' targets with the near-miss test
//! ([`Stage::memo_pair_by_ref`], the one `memo_pair` runs), the extents, the budget, the
//! thresholds, and the compare `PreparedPair::overlap` makes with the fast paths (two
//! masks, or [`word_overlap`]). Whatever else can happen on the way (an error, a window
//! past the budget, a target that needs the row scan, a target planned band by band) is
//! left to the pipeline, which answers it as before: every step here has no effect on an
//! answer but the memos' own, which the pipeline would make the same.

use crate::Stage;
use crate::query::options::threshold;
use crate::query::pipeline::{PairRequest, PlacedMask, Thresholds, collision_of};
use crate::query::target::Pose;
use crate::query::target_memo::{KernelCell, MemoTarget, TargetMemo, Whole};
use crate::query::word_overlap::{Sides, word_overlap};
use crate::raster::{PairAnswer, Rasterizer, SolidBits};

#[cfg(test)]
thread_local! {
    /// Pairs answered here, on this thread.
    pub(crate) static ANSWERED: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Targets' kernels worked out here (each read by every pair of its target after).
    pub(crate) static KERNELS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Kernels read (and worked out by the first read of each).
    pub(crate) static KERNEL_READS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// Pair answers from the memos by reference (crate-internal).
impl Stage {
    /// What the pipeline would answer `req` with and keep for the frame, when `req` is a
    /// precise pair of a many-object query (memos given, no retry drawing whole, fast paths
    /// on) whose memos serve it and whose targets are each one mask or one kernel item;
    /// `None` otherwise, and whenever the pipeline would report an error or scan rows: the
    /// caller then runs the pipeline.
    ///
    /// `kernels` are the targets' kernel cells: a target's kernel is worked out by its first
    /// pair that needs it and read by the others (in the rocks frame, `BitmapBits::of`
    /// about twice a target instead of once).
    /// `memos` are `req`'s (given apart, at the kernels' lifetime).
    pub(crate) fn memo_answer<'m>(
        &self,
        req: &PairRequest<'_>,
        (memo_a, memo_b): (&'m TargetMemo, &'m TargetMemo),
        kernels: (&'m KernelCell<'m>, &'m KernelCell<'m>),
    ) -> Option<PairAnswer> {
        req.memo?;
        let PairRequest {
            a, b, parent, opts, ..
        } = *req;
        if !opts.precise
            || !opts.fast_paths
            || req.draw_whole
            || (a.pose, b.pose) != (Pose::InParent, Pose::InParent)
        {
            return None;
        }
        // `Stage::setup_pair`'s steps, with the pipeline's answer for each way out.
        let empty = Some((None, None));
        let (box_a, box_b) = (
            self.memo_box(memo_a, &a, parent).ok()?,
            self.memo_box(memo_b, &b, parent).ok()?,
        );
        let (Some(box_a), Some(box_b)) = (box_a, box_b) else {
            return empty;
        };
        let Some(r) = box_a.intersect(&box_b) else {
            return empty;
        };
        let window = self.pixel_window(&r, String::new).ok()?;
        let epoch = self.cache.query_epoch(self.revision());
        let may_reject = req.may_reject(window);
        let memos = (memo_a, memo_b);
        let Some((ta, tb)) = self.memo_pair_by_ref(memos, (&a, &b), parent, opts, may_reject, epoch)? else {
            return empty;
        };
        let (Some(extent_a), Some(extent_b)) = (ta.prepared.extent(), tb.prepared.extent()) else {
            return empty;
        };
        let window = window.intersect(&extent_a).intersect(&extent_b);
        if window.is_empty() {
            return empty;
        }
        if window.area() > u128::from(opts.max_pixels) {
            return None;
        }
        let t = Thresholds {
            a: threshold(self.target_tolerance(a.node, opts).ok()?),
            b: threshold(self.target_tolerance(b.node, opts).ok()?),
        };
        // `PreparedPair::overlap` with the fast paths: two masks at once, else by words.
        let placed = |target: MemoTarget<'m>, t: u8| {
            let whole = match target.whole {
                Whole::No => None,
                Whole::Mask(at, mask) => Some((at, &**mask)),
                // Read band by band by the yes-or-no query's own route.
                Whole::Lazily(_) => return Err(()),
            };
            Ok(target.prepared.single_mask_with(whole, t, &self.cache))
        };
        let masks = (placed(ta, t.a).ok()?, placed(tb, t.b).ok()?);
        let overlap = match masks {
            (Some((ma, at_a)), Some((mb, at_b))) => ma.overlap_moved(at_a, &mb, at_b, window),
            masks => {
                // The kernel of a target without a mask: the same item, its threshold the
                // same in every pair of the query, the query's anti-aliasing.
                let anti_alias = ta.prepared.anti_alias();
                let kernel =
                    |mask: &PlacedMask<'m>, target: MemoTarget<'m>, t: u8, cell: &'m KernelCell<'m>| {
                        if mask.is_some() {
                            return None;
                        }
                        #[cfg(test)]
                        KERNEL_READS.with(|n| n.set(n.get() + 1));
                        *cell.get_or_init(|| {
                            #[cfg(test)]
                            KERNELS.with(|n| n.set(n.get() + 1));
                            Rasterizer::single_item(target.prepared)
                                .and_then(|item| SolidBits::of(item, t, anti_alias))
                        })
                    };
                let known = (
                    kernel(&masks.0, ta, t.a, kernels.0),
                    kernel(&masks.1, tb, t.b, kernels.1),
                );
                let sides = Sides {
                    masks,
                    kernels: known,
                };
                word_overlap((ta.prepared, tb.prepared), window, t, sides, String::new).ok()??
            }
        };
        #[cfg(test)]
        ANSWERED.with(|n| n.set(n.get() + 1));
        let c = collision_of(overlap);
        Some((c.rect, c.overlap_pixels))
    }
}

#[cfg(test)]
mod tests {
    //! Crowds of turned sprites of every kind a pair can meet (bitmaps, smoothed or not,
    //! anti-aliased or not, fills, targets of two items, masked ones, colour transforms,
    //! their own tolerances) under pixel budgets from tight to roomy: every contact against
    //! the pair asked alone on a fresh copy of the stage with the fast paths off (every
    //! pixel composited), so that pairs are answered here, by made masks, and by the
    //! pipeline after stepping aside.

    use std::cell::Cell;

    use super::{ANSWERED, KERNEL_READS, KERNELS};
    use crate::query::budget_tests::Rng;
    use crate::query::made_masks::tests::{blob, fade, polygon_fill, square_mask};
    use crate::query::target_memo::tests::every_pair_alone;
    use crate::raster::WORK_BUDGET_FOR_TESTS;
    use crate::{CollisionOptions, NodeId, Stage};

    fn item(stage: &mut Stage, s: NodeId, rng: &mut Rng) -> NodeId {
        let item = match rng.below(3) {
            0 => polygon_fill(stage, s, rng),
            _ => {
                let b = stage.add_bitmap(s, blob(rng), rng.below(4) == 0).unwrap();
                stage
                    .set_position(b, rng.range(-12.0, 0.0), rng.range(-12.0, 0.0))
                    .unwrap();
                b
            }
        };
        if rng.below(10) == 0 {
            stage
                .set_tolerance(item, Some([0, 90, 200][rng.below(3) as usize]))
                .unwrap();
        }
        item
    }

    fn sprite(stage: &mut Stage, world: NodeId, rng: &mut Rng, spread: f64) -> NodeId {
        let s = stage.add_container(world).unwrap();
        let first = item(stage, s, rng);
        if rng.below(6) == 0 {
            item(stage, s, rng);
        }
        if rng.below(10) == 0 {
            square_mask(stage, s, first);
        }
        if rng.below(6) == 0 {
            fade(stage, s, rng);
        }
        if rng.below(8) == 0 {
            stage
                .set_tolerance(s, Some([0, 127, 255][rng.below(3) as usize]))
                .unwrap();
        }
        let scale = [rng.range(0.6, 1.6), rng.range(0.05, 0.5), rng.range(2.0, 6.0)][rng.below(3) as usize];
        stage
            .set_transform(
                s,
                rng.range(0.0, spread) + 1e5 * f64::from(u8::from(rng.below(9) == 0)),
                rng.range(0.0, spread),
                rng.range(0.0, 360.0),
                scale,
                scale * rng.range(0.7, 1.3),
            )
            .unwrap();
        s
    }

    #[test]
    fn pairs_answered_from_memos_answer_as_every_pair_alone() {
        let mut rng = Rng(0x3e3a_a5e7);
        let before = ANSWERED.with(Cell::get);
        let kernels_before = (KERNELS.with(Cell::get), KERNEL_READS.with(Cell::get));
        let (mut contacts, mut pairs, mut refused) = (0, 0, 0);
        for case in 0..150 {
            let mut stage = Stage::new();
            let world = stage.add_container(stage.root()).unwrap();
            let spread = [40.0, 80.0, 160.0][case % 3];
            let sprites: Vec<NodeId> = (0..30)
                .map(|_| sprite(&mut stage, world, &mut rng, spread))
                .collect();
            let opts = CollisionOptions::default()
                .parallel(false)
                .tolerance([0, 127, 255][rng.below(3) as usize])
                .anti_alias(rng.below(4) != 0)
                .max_pixels([1_500, 1 << 20, 1 << 20, 1 << 20][rng.below(4) as usize]);
            // A work budget that bites in some cases: a pair over it here steps aside, and
            // the pipeline refuses it or answers it drawing whole, as the pair alone would.
            let work = [None, None, None, Some(2_000), Some(20_000)][rng.below(5) as usize];
            WORK_BUDGET_FOR_TESTS.with(|w| w.set(work));
            // Twice, each on a new revision (no answer kept): the second query finds the
            // poses seen, and draws them whole.
            for round in 0..2 {
                let x = stage.x(sprites[0]).unwrap();
                stage.set_x(sprites[0], x).unwrap();
                let got = stage.contacts_among(&sprites, world, &opts);
                let plain = stage.clone();
                pairs += sprites.len() * (sprites.len() - 1) / 2;
                // Under a work budget, each pair alone on a fresh copy with the same options
                // (the plain path does more work, and would refuse more).
                let (want, first_error) = every_pair_alone(&sprites, |a, b| match work {
                    None => plain.collision(a, b, world, &opts.fast_paths(false)),
                    Some(_) => stage.clone().collision(a, b, world, &opts),
                });
                match (got, first_error) {
                    (Ok(got), None) => {
                        let got: Vec<_> = got.iter().map(|c| (c.a, c.b, c.rect, c.overlap_pixels)).collect();
                        assert_eq!(got, want, "case {case}, round {round}");
                        contacts += got.len();
                    }
                    (Err(_), Some(_)) => refused += 1,
                    (got, want) => panic!("case {case}, round {round}: {got:?} against {want:?}"),
                }
            }
            WORK_BUDGET_FOR_TESTS.with(|w| w.set(None));
        }
        let answered = ANSWERED.with(Cell::get) - before;
        let made = KERNELS.with(Cell::get) - kernels_before.0;
        let read = KERNEL_READS.with(Cell::get) - kernels_before.1;
        eprintln!(
            "{pairs} pairs, {contacts} contacts, {refused} queries refused, {answered} pairs answered from the memos, {made} kernels worked out for {read} reads"
        );
        // Each target's kernel worked out once, then read by its other pairs.
        assert!(
            made > 400 && read > 2 * made,
            "{made} kernels worked out, {read} read"
        );
        assert!(contacts > 3_000, "{contacts} contacts");
        assert!(refused > 10, "{refused} queries refused");
        assert!(answered > 4_000, "{answered} pairs answered from the memos");
    }
}
