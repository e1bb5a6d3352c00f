//! Each target's bounds and preparation worked out once per many-object query, not once per
//! pair it is in.
//!
//! A sprite in a crowd is in a few close pairs each frame, and every pair used to walk its
//! subtree again for its Flash bounds and again to prepare its items (matrices, colour
//! transforms, pose keys, cache lookups): in a frame of 1,000 turned sprites that move by
//! whole pixels those walks were most of the time. The narrow phase gives every object a
//! [`TargetMemo`]; a pair fills or reads its targets' memos.
//!
//! A memo is only read where it gives what the pair would have made itself:
//!
//! - the bounds of a target do not depend on the pair;
//! - a target is prepared against a budget of its own. A pair prepares both targets against
//!   one budget, a then b, and each item's route (whole raster or window shape) depends on
//!   the room left. When neither target was refused room on its own and both together fit
//!   the pair's budget (pixels of whole rasters and vertices), every item finds room in the
//!   pair too, so the routes, and the prepared targets, are the same. Otherwise, or when a
//!   preparation failed (the pair then reports the error), the pair prepares as before.
//! - the retry of a query over its work budget (`Stage::run_pair`) prepares without the
//!   memo, every item drawn whole.
//!
//! The near-miss outline test runs before a target is prepared for the memo, as before; it
//! is skipped when both memos hold only cached rasters, as the cache-only attempt skips it,
//! and when both targets have their whole masks made; for two targets planned whole it
//! stops at the axis between their centres (no search of the hulls' edges). A near miss
//! has no pixel in common, so a compare answers it as the test would.

use std::cell::Cell;
use std::sync::{Arc, OnceLock};

use crate::query::lazy_mask::LazyMask;
use crate::query::near_miss::KeptOutline;
use crate::query::options::threshold;
use crate::query::target::{Pose, Target};
use crate::raster::bitmask::BitMask;
use crate::raster::{DrawBudget, MAX_QUERY_VERTICES, Prepared, Rasterizer, SolidBits, whole_mask};
use crate::{CollisionOptions, NodeId, Rect, Result, Stage};

/// One target's bounds and preparation for the length of one many-object query.
#[derive(Default)]
pub(crate) struct TargetMemo {
    /// Its box in the query's parent; `None` inside when working it out failed.
    bounds: OnceLock<Option<Option<Rect>>>,
    /// Its outline for the near-miss test, gathered by its first pair that runs the test.
    outline: OnceLock<KeptOutline>,
    /// Its items prepared against a budget of their own; `None` inside when that failed.
    prepared: OnceLock<Option<Memoized>>,
    /// Whether the query planned its whole mask ([`crate::query::target_plan`]).
    whole: bool,
    /// That mask and its threshold, made by its first pair; `None` inside when making it
    /// failed (its pairs then go their own way, and report the error themselves).
    mask: OnceLock<Option<(u8, Arc<BitMask>)>>,
    /// Whether the query is a yes-or-no one, whose planned targets of one kernel item get
    /// their mask band by band ([`LazyMask`]).
    lazily: bool,
    /// The threshold of such a target, worked out by its first pair; `None` inside for a
    /// target that is not one kernel item (its whole mask is made at once).
    lazy_threshold: OnceLock<Option<u8>>,
    /// Its mask made band by band, made by its first pair that reads rows.
    lazy_mask: OnceLock<LazyMask>,
}

impl std::fmt::Debug for TargetMemo {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.debug_struct("TargetMemo")
            .field("bounds", &self.bounds.get())
            .field("prepared", &self.prepared.get().map(Option::is_some))
            .finish()
    }
}

/// Whether two targets prepared alone fit one pair's budget, so that the pair would have
/// prepared them the same (see the module's notes).
fn fit_together(a: &Memoized, b: &Memoized, opts: &CollisionOptions) -> bool {
    !a.refused
        && !b.refused
        && a.pixels + b.pixels <= u128::from(opts.max_pixels)
        && a.vertices + b.vertices <= u128::from(MAX_QUERY_VERTICES)
}

/// What a pair reads of a target whose whole mask an earlier pair made
/// (`query::made_masks`).
pub(crate) struct Made<'m> {
    /// Its box in the query's parent.
    pub bounds: Option<Rect>,
    pub prepared: &'m Prepared,
    /// Made at the target's threshold, from its tolerance in this query: the pair's.
    pub mask: &'m BitMask,
}

impl TargetMemo {
    /// Both targets' made whole masks, when both are made and the targets fit the pair's
    /// budget together: then [`Stage::memo_pair`] serves the pair from these masks, with
    /// no outline test (`compare_at_once`), whatever `may_reject` says.
    pub(crate) fn made_pair<'m>(
        a: &'m TargetMemo,
        b: &'m TargetMemo,
        opts: &CollisionOptions,
    ) -> Option<(Made<'m>, Made<'m>)> {
        let made = |m: &'m TargetMemo| {
            let (Some(Some((_, mask))), Some(Some(memo)), Some(Some(bounds))) =
                (m.mask.get(), m.prepared.get(), m.bounds.get())
            else {
                return None;
            };
            let made = Made {
                bounds: *bounds,
                prepared: &memo.prepared,
                mask,
            };
            Some((made, memo))
        };
        let ((a, memo_a), (b, memo_b)) = (made(a)?, made(b)?);
        (opts.fast_paths && fit_together(memo_a, memo_b, opts)).then_some((a, b))
    }
}

/// A target's kernel ([`SolidBits::of`] of its one item, at its threshold in the query),
/// worked out by its first pair that reads it and read by the rest
/// (`query::memo_answer`): `None` inside when it has none.
pub(crate) type KernelCell<'m> = OnceLock<Option<SolidBits<'m>>>;

/// A many-object query's memos: each target's [`TargetMemo`], and its kernel beside it (it
/// borrows the memo's prepared target, so the memo cannot hold it).
#[derive(Clone, Copy)]
pub(crate) struct Memos<'m> {
    pub targets: &'m [TargetMemo],
    pub kernels: &'m [KernelCell<'m>],
}

/// A target prepared alone, with what it took of its budget.
struct Memoized {
    prepared: Prepared,
    pixels: u128,
    vertices: u128,
    /// Whether a whole raster was refused room even alone.
    refused: bool,
}

impl TargetMemo {
    /// A memo for a target whose box in the query's parent the broad phase worked out
    /// (`bounds`, as [`Stage::bounds`] gives it) and whose whole mask is made once
    /// (`whole`), or not; `lazily` for a yes-or-no query ([`LazyMask`]).
    pub fn planned(bounds: Option<Rect>, whole: bool, lazily: bool) -> TargetMemo {
        TargetMemo {
            bounds: OnceLock::from(Some(bounds)),
            whole,
            lazily,
            ..TargetMemo::default()
        }
    }
}

thread_local! {
    /// The memos' array of this thread's last many-object query, emptied, for its next: a
    /// frame of 1,000 sprites made a new 0.4 MB array every frame.
    static SPARE_MEMOS: Cell<Vec<TargetMemo>> = const { Cell::new(Vec::new()) };
}

/// Most memos whose room a thread keeps between queries (about 1.7 MB).
const SPARE_MEMO_ROOM: usize = 4096;

/// An empty array for a query's memos: the room of this thread's last one.
pub(crate) fn memo_array() -> Vec<TargetMemo> {
    SPARE_MEMOS.with(Cell::take)
}

/// Keeps the room of a query's memo array for the thread's next query, unless it is
/// larger than [`SPARE_MEMO_ROOM`] memos.
pub(crate) fn give_back_memo_array(mut memos: Vec<TargetMemo>) {
    memos.clear();
    if memos.capacity() <= SPARE_MEMO_ROOM {
        SPARE_MEMOS.with(|spare| spare.set(memos));
    }
}

impl TargetMemo {
    /// Its mask made band by band for `prepared` (planned lazily at `threshold`), or `None`
    /// when the memo is not planned so.
    pub fn lazy_mask(&self, prepared: &Prepared, threshold: u8) -> Option<&LazyMask> {
        if !(self.whole && self.lazily) {
            return None;
        }
        let extent = prepared.extent().unwrap_or_default();
        let mask = self.lazy_mask.get_or_init(|| LazyMask::new(extent, threshold));
        mask.is_for(extent, threshold).then_some(mask)
    }

    /// Its whole mask's buffer, for the cache to hand to the next query: a turning sprite
    /// gets a new mask every frame, and its buffer need not be a new allocation.
    pub fn give_back_mask(self, stage: &Stage) {
        if let Some(Some((_, mask))) = self.mask.into_inner() {
            stage.cache.give_back_mask(mask);
        }
    }
}

/// Each target's box and preparation, made once per many-object query (crate-internal).
impl Stage {
    /// `target`'s box in `parent` ([`Stage::target_box`]), from `memo` or worked out into
    /// it. An error is not kept: it is worked out again, and reported, here.
    pub(crate) fn memo_box(
        &self,
        memo: &TargetMemo,
        target: &Target,
        parent: NodeId,
    ) -> Result<Option<Rect>> {
        match memo.bounds.get_or_init(|| self.target_box(target, parent).ok()) {
            Some(kept) => Ok(*kept),
            None => self.target_box(target, parent),
        }
    }

    /// Targets `a` and `b` (both as the tree places them) from their memos, `Some(None)`
    /// for a near miss (when `may_reject`, see `PairRequest::may_reject`), or `None` when
    /// the memos cannot serve this pair (see the module's notes): the pair then prepares as
    /// without them.
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn memo_pair(
        &self,
        memos: (&TargetMemo, &TargetMemo),
        targets: (&Target, &Target),
        parent: NodeId,
        opts: &CollisionOptions,
        may_reject: bool,
        epoch: u64,
    ) -> Option<Option<(Prepared, Prepared)>> {
        let found = self.memo_pair_by_ref(memos, targets, parent, opts, may_reject, epoch)?;
        Some(found.map(|(a, b)| (a.to_prepared(), b.to_prepared())))
    }

    /// [`Stage::memo_pair`], each target read where its memo keeps it, not cloned: what a
    /// pair answered at once reads (`query::memo_answer`).
    #[allow(clippy::too_many_arguments)]
    pub(crate) fn memo_pair_by_ref<'m>(
        &self,
        (ma, mb): (&'m TargetMemo, &'m TargetMemo),
        (a, b): (&Target, &Target),
        parent: NodeId,
        opts: &CollisionOptions,
        may_reject: bool,
        epoch: u64,
    ) -> Option<Option<(MemoTarget<'m>, MemoTarget<'m>)>> {
        if (a.pose, b.pose) != (Pose::InParent, Pose::InParent) {
            return None;
        }
        if may_reject {
            let cached = |m: &TargetMemo| {
                m.prepared
                    .get()
                    .and_then(Option::as_ref)
                    .is_some_and(|m| m.prepared.only_rasters())
            };
            // Two whole masks made already (by earlier pairs) compare in fewer instructions
            // than the outline test takes (about 1,200 against 2,000 on average, 8,600 more
            // when it searches the hulls), and give the same answer: a near miss has no
            // pixel in common.
            let masked = |m: &TargetMemo| m.mask.get().is_some_and(Option::is_some);
            let compare_at_once = cached(ma) && cached(mb) || masked(ma) && masked(mb) && opts.fast_paths;
            #[cfg(test)]
            if compare_at_once && !(cached(ma) && cached(mb)) {
                tests::MASKS_FIRST.with(|n| n.set(n.get() + 1));
            }
            if !compare_at_once {
                let outline = |m: &'m TargetMemo, t: &Target| {
                    m.outline.get_or_init(|| self.kept_outline(t.node, parent))
                };
                // Two targets planned whole are not searched for a separating axis past the
                // one between their centres: the search (about 5,700 instructions) found an
                // axis for one pair in ten there, and what that saves is a compare of their
                // masks (about 700), and only sometimes a mask (another pair of the target
                // usually makes it anyway). `prof_pygame 1000 rotate`: 150 such searches a
                // frame, 14 of them rejecting.
                let search = !(ma.whole && mb.whole);
                #[cfg(test)]
                if !search {
                    tests::UNSEARCHED.with(|n| n.set(n.get() + 1));
                }
                if Stage::kept_outlines_apart(outline(ma, a), outline(mb, b), search) {
                    return Some(None);
                }
            }
        }
        let prepare = |memo: &'m TargetMemo, target: &Target| -> Option<&'m Memoized> {
            memo.prepared
                .get_or_init(|| {
                    let mut budget = DrawBudget::new(opts.max_pixels);
                    let prepared = self
                        .prepare_target(target, parent, opts.anti_alias, (epoch, false), &mut budget)
                        .ok()?;
                    let (pixels, vertices, refused) = budget.taken();
                    Some(Memoized {
                        prepared,
                        pixels,
                        vertices,
                        refused,
                    })
                })
                .as_ref()
        };
        let (pa, pb) = (prepare(ma, a)?, prepare(mb, b)?);
        let fits = fit_together(pa, pb, opts);
        #[cfg(test)]
        tests::count(fits);
        fits.then(|| {
            let a = self.memo_target(ma, &pa.prepared, a.node, opts, true);
            let b = self.memo_target(mb, &pb.prepared, b.node, opts, true);
            Some((a, b))
        })
    }

    /// The memo's prepared target, with its whole mask when the query planned one (made by
    /// the first pair that asks). With `by_bands`, in a yes-or-no query, a target of one
    /// kernel item is marked to be made band by band instead ([`Prepared::planned_lazily`]);
    /// without, a target so marked gets its whole mask at once, as `contacts_among` reads
    /// it (the yes-or-no query's route when a band cannot be made).
    pub(crate) fn with_whole_mask(
        &self,
        memo: &TargetMemo,
        prepared: &Prepared,
        node: NodeId,
        opts: &CollisionOptions,
        by_bands: bool,
    ) -> Prepared {
        self.memo_target(memo, prepared, node, opts, by_bands)
            .to_prepared()
    }

    /// [`Stage::with_whole_mask`] by reference: the memo's prepared target and what the
    /// query planned for it.
    fn memo_target<'m>(
        &self,
        memo: &'m TargetMemo,
        prepared: &'m Prepared,
        node: NodeId,
        opts: &CollisionOptions,
        by_bands: bool,
    ) -> MemoTarget<'m> {
        let target = |whole| MemoTarget { prepared, whole };
        if !(memo.whole && opts.fast_paths) {
            return target(Whole::No);
        }
        if memo.lazily && by_bands {
            let lazy = memo.lazy_threshold.get_or_init(|| {
                let t = threshold(self.target_tolerance(node, opts).ok()?);
                let item = Rasterizer::single_item(prepared)?;
                SolidBits::of(item, t, prepared.anti_alias()).map(|_| t)
            });
            if let Some(t) = lazy {
                return target(Whole::Lazily(*t));
            }
        }
        let made = memo.mask.get_or_init(|| {
            let t = threshold(self.target_tolerance(node, opts).ok()?);
            // The buffer of a mask an earlier query gave back, when there is one (it is
            // ours alone, so `make_mut` does not copy it).
            let mut mask = self.cache.spare_mask();
            whole_mask(prepared, t, || self.describe(node), Arc::make_mut(&mut mask)).ok()?;
            #[cfg(test)]
            tests::WHOLE_MASKS.with(|n| n.set(n.get() + 1));
            #[cfg(test)]
            tests::WHOLE_MASK_PIXELS.with(|n| n.set(n.get() + mask.rect().area() as u64));
            #[cfg(test)]
            tests::WHOLE_MASK_TEXELS.with(|n| n.set(n.get() + crate::raster::last_bits_counts().texels_read));
            Some((t, mask))
        });
        match made {
            Some((t, mask)) => target(Whole::Mask(*t, mask)),
            None => target(Whole::No),
        }
    }
}

/// A target of a pair as its memo keeps it: its prepared items and what the query planned
/// for it.
#[derive(Clone, Copy)]
pub(crate) struct MemoTarget<'m> {
    pub prepared: &'m Prepared,
    pub whole: Whole<'m>,
}

/// What a query planned for a target ([`crate::query::target_plan`]).
#[derive(Clone, Copy)]
pub(crate) enum Whole<'m> {
    /// Nothing: its pairs compute it in their windows.
    No,
    /// Its whole solid mask at a threshold, made.
    Mask(u8, &'m Arc<BitMask>),
    /// Its mask made band by band at a threshold ([`Prepared::planned_lazily`]).
    Lazily(u8),
}

impl MemoTarget<'_> {
    /// The prepared target a pair owns: the memo's, with its whole mask or its plan.
    pub fn to_prepared(self) -> Prepared {
        let prepared = self.prepared.clone();
        match self.whole {
            Whole::No => prepared,
            Whole::Mask(t, mask) => prepared.with_whole_mask(t, mask.clone()),
            Whole::Lazily(t) => prepared.planned_lazily(t),
        }
    }
}

#[cfg(test)]
pub(crate) mod tests {
    //! The many-object queries with their memos against every pair asked alone on a fresh
    //! copy of the stage (no memo, an empty cache), over random crowds of targets of one to
    //! three items (fills, bitmaps, masked items) and pixel budgets from tight to roomy, so
    //! that the memos both serve pairs and step aside.

    use std::cell::Cell;

    use crate::query::budget_tests::Rng;
    use crate::raster::WORK_BUDGET_FOR_TESTS;
    use crate::{Bitmap, CollisionOptions, FillRule, Graphic, NodeId, Path, Rect, Stage};

    thread_local! {
        /// Pairs the memos served, and pairs they left to their own preparation.
        static SERVED: Cell<(u64, u64)> = const { Cell::new((0, 0)) };
        /// Whole masks made for planned targets.
        pub(crate) static WHOLE_MASKS: Cell<u64> = const { Cell::new(0) };
        /// Pixels of those masks, and texels their kernels read to decide them.
        pub(crate) static WHOLE_MASK_PIXELS: Cell<u64> = const { Cell::new(0) };
        pub(crate) static WHOLE_MASK_TEXELS: Cell<u64> = const { Cell::new(0) };
        /// Pairs compared by their made masks without the outline test first.
        pub(crate) static MASKS_FIRST: Cell<u64> = const { Cell::new(0) };
        /// Outline tests of two targets planned whole, which search no further than the
        /// axis between the centres.
        pub(crate) static UNSEARCHED: Cell<u64> = const { Cell::new(0) };
    }

    /// A contact as the tests compare them: the pair, the rectangle and the count.
    pub(crate) type Found = (NodeId, NodeId, Rect, Option<u64>);

    /// Every pair of `sprites` asked alone by `ask`, in the order of a many-object query's
    /// answer: the pairs that collide, and the first error.
    pub(crate) fn every_pair_alone(
        sprites: &[NodeId],
        ask: impl Fn(NodeId, NodeId) -> crate::Result<crate::Collision>,
    ) -> (Vec<Found>, Option<crate::Error>) {
        let mut want = Vec::new();
        let mut first_error = None;
        for (i, &a) in sprites.iter().enumerate() {
            for &b in &sprites[i + 1..] {
                match ask(a, b) {
                    Ok(c) => {
                        if let Some(rect) = c.rect {
                            want.push((a, b, rect, c.overlap_pixels));
                        }
                    }
                    Err(e) => {
                        first_error.get_or_insert(e);
                    }
                }
            }
        }
        (want, first_error)
    }

    pub(super) fn count(served: bool) {
        SERVED.with(|c| {
            let (yes, no) = c.get();
            c.set(if served { (yes + 1, no) } else { (yes, no + 1) });
        });
    }

    fn sprite(stage: &mut Stage, world: NodeId, rng: &mut Rng, disc: &Bitmap) -> NodeId {
        let s = stage.add_container(world).unwrap();
        let mut first = None;
        for _ in 0..1 + rng.next() % 3 {
            let item = match rng.next() % 3 {
                0 => stage
                    .add_bitmap(s, disc.clone(), rng.next().is_multiple_of(2))
                    .unwrap(),
                _ => {
                    let pts: Vec<(f64, f64)> = (0..3 + rng.next() % 5)
                        .map(|_| (rng.range(-14.0, 14.0), rng.range(-14.0, 14.0)))
                        .collect();
                    let g = Graphic::fill(Path::polygon(&pts), FillRule::NonZero, rng.range(0.3, 1.0));
                    let c = stage.add_container(s).unwrap();
                    stage.add_graphic(c, g.unwrap()).unwrap();
                    c
                }
            };
            stage.set_x(item, rng.range(-6.0, 6.0)).unwrap();
            stage.set_rotation(item, rng.range(0.0, 360.0)).unwrap();
            first.get_or_insert(item);
        }
        if rng.next().is_multiple_of(6) {
            let mask = stage.add_container(s).unwrap();
            let square = Graphic::fill(Path::rect(-8.0, -8.0, 16.0, 16.0), FillRule::NonZero, 1.0);
            stage.add_graphic(mask, square.unwrap()).unwrap();
            stage.set_mask(first.unwrap(), Some(mask)).unwrap();
        }
        stage.set_x(s, rng.range(0.0, 90.0)).unwrap();
        stage.set_y(s, rng.range(0.0, 90.0)).unwrap();
        stage.set_rotation(s, rng.range(0.0, 360.0)).unwrap();
        s
    }

    /// A target's outline is gathered once per query, not once per close pair: a grid of
    /// 25 discs whose boxes meet their eight neighbours', touching the four beside them.
    #[test]
    fn outlines_are_gathered_once_a_target() {
        use crate::query::near_miss::KEPT_OUTLINES;
        let mut stage = Stage::new();
        let root = stage.root();
        let mut discs = Vec::new();
        for k in 0..25 {
            let n = stage.add_container(root).unwrap();
            let g = Graphic::fill(Path::circle(0.0, 0.0, 10.0), FillRule::NonZero, 1.0).unwrap();
            stage.add_graphic(n, g).unwrap();
            stage
                .set_position(n, f64::from(k % 5) * 17.0, f64::from(k / 5) * 17.0)
                .unwrap();
            discs.push(n);
        }
        let opts = CollisionOptions::default().parallel(false);
        let before = KEPT_OUTLINES.with(Cell::get);
        let contacts = stage.contacts_among(&discs, root, &opts).unwrap();
        let gathered = KEPT_OUTLINES.with(Cell::get) - before;
        // 72 close pairs (40 beside, 32 diagonal and apart by 4 px), 25 outlines.
        assert_eq!(contacts.len(), 40);
        assert_eq!(gathered, 25);
        for c in &contacts {
            let alone = stage
                .clone()
                .collision(c.a, c.b, root, &opts.fast_paths(false))
                .unwrap();
            assert_eq!(
                (Some(c.rect), c.overlap_pixels),
                (alone.rect, alone.overlap_pixels)
            );
        }
    }

    /// A 20 px disc whose alpha falls off from the centre.
    fn soft_disc() -> Bitmap {
        let rgba = (0..20 * 20)
            .flat_map(|i| {
                let (x, y) = (f64::from(i % 20) - 9.5, f64::from(i / 20) - 9.5);
                [
                    9,
                    9,
                    9,
                    (255.0 * (1.0 - (x * x + y * y) / 100.0).clamp(0.0, 1.0)) as u8,
                ]
            })
            .collect();
        Bitmap::from_rgba8(20, 20, rgba).unwrap()
    }

    /// Whole masks written into the buffers of an earlier query's masks, and poses written
    /// into the `Arc`s of poses an age dropped (`raster::spares`), answer as new ones: a
    /// crowd of 24 sprites (bitmaps, fills, masked items) turning and drifting for 60
    /// frames, with an age every few frames, each frame's contacts against those of a
    /// clone of the stage (an empty cache: every buffer new), at tolerances 0, 127 and 255.
    #[test]
    fn spare_buffers_answer_as_new_ones() {
        let mut rng = Rng(0x5ba7_e5b0);
        let disc = soft_disc();
        let mut stage = Stage::new();
        stage.cache.set_age_bytes(32 << 10);
        let world = stage.add_container(stage.root()).unwrap();
        let sprites: Vec<NodeId> = (0..24)
            .map(|_| sprite(&mut stage, world, &mut rng, &disc))
            .collect();
        let mut contacts = 0;
        for frame in 0..60 {
            for &s in &sprites {
                let (x, y, r) = (
                    stage.x(s).unwrap(),
                    stage.y(s).unwrap(),
                    stage.rotation(s).unwrap(),
                );
                stage
                    .set_x(s, (x + rng.range(-1.5, 1.5)).clamp(0.0, 90.0))
                    .unwrap();
                stage
                    .set_y(s, (y + rng.range(-1.5, 1.5)).clamp(0.0, 90.0))
                    .unwrap();
                stage.set_rotation(s, r + rng.range(-9.0, 9.0)).unwrap();
            }
            let opts = CollisionOptions::default()
                .parallel(false)
                .tolerance([0, 127, 255][frame % 3]);
            let answers = |s: &Stage| -> Vec<_> {
                let found = s.contacts_among(&sprites, world, &opts).unwrap();
                found
                    .iter()
                    .map(|c| (c.a, c.b, c.rect, c.overlap_pixels))
                    .collect()
            };
            let (got, want) = (answers(&stage), answers(&stage.clone()));
            assert_eq!(got, want, "frame {frame}");
            contacts += got.len();
        }
        let [_, _, masks, poses] = stage.cache.spares();
        eprintln!("{contacts} contacts; {masks} mask buffers and {poses} poses reused");
        assert!(contacts > 300, "{contacts} contacts");
        assert!(
            masks > 300 && poses > 300,
            "{masks} masks and {poses} poses reused"
        );
    }

    #[test]
    fn memos_answer_as_every_pair_alone() {
        let mut rng = Rng(0x3e30_5eed);
        let disc = soft_disc();
        let before = SERVED.with(Cell::get);
        let masks_before = WHOLE_MASKS.with(Cell::get);
        let first_before = MASKS_FIRST.with(Cell::get);
        let unsearched_before = UNSEARCHED.with(Cell::get);
        let (mut pairs, mut refused) = (0, 0);
        for case in 0..120 {
            let mut stage = Stage::new();
            let world = stage.add_container(stage.root()).unwrap();
            let sprites: Vec<NodeId> = (0..14)
                .map(|_| sprite(&mut stage, world, &mut rng, &disc))
                .collect();
            let budget = [300, 900, 1_600, 3_000, 1 << 20][(rng.next() % 5) as usize];
            let opts = CollisionOptions::default()
                .parallel(false)
                .max_pixels(budget)
                .tolerance([0, 127, 255][(rng.next() % 3) as usize])
                .anti_alias(!rng.next().is_multiple_of(4));
            // A work budget that bites in some cases: where an item is a whole raster or a
            // window shape changes the work, so a memo serving a pair its own preparation
            // would have routed otherwise shows here.
            let work = [None, None, Some(400), Some(2_000), Some(10_000)][(rng.next() % 5) as usize];
            WORK_BUDGET_FOR_TESTS.with(|w| w.set(work));
            // Asked in three epochs: poses are kept, then drawn whole, then read whole.
            for round in 0..3 {
                let x = stage.x(sprites[0]).unwrap();
                stage.set_x(sprites[0], x).unwrap();
                let got = stage.contacts_among(&sprites, world, &opts);
                let (want, first_error) =
                    every_pair_alone(&sprites, |a, b| stage.clone().collision(a, b, world, &opts));
                match (got, first_error) {
                    (Ok(contacts), None) => {
                        let got: Vec<_> = contacts
                            .iter()
                            .map(|c| (c.a, c.b, c.rect, c.overlap_pixels))
                            .collect();
                        assert_eq!(got, want, "case {case}, round {round}, budget {budget}");
                        pairs += got.len();
                    }
                    (Err(_), Some(_)) => refused += 1,
                    (got, want) => panic!("case {case}, round {round}: {got:?} against {want:?}"),
                }
            }
            WORK_BUDGET_FOR_TESTS.with(|w| w.set(None));
        }
        let after = SERVED.with(Cell::get);
        let (served, left) = (after.0 - before.0, after.1 - before.1);
        eprintln!("{pairs} contacts; {refused} queries refused; memos served {served} pairs, left {left}");
        assert!(pairs > 500 && refused > 10, "{pairs} contacts, {refused} refused");
        // Crowds this dense plan many targets whole: those answers were read from masks.
        let masks = WHOLE_MASKS.with(Cell::get) - masks_before;
        assert!(masks > 200, "{masks} whole masks made");
        // And pairs of two made masks were compared without the outline test (most such
        // pairs are answered from the masks before they reach the memos, `made_masks.rs`,
        // 1,673 of them in this test).
        let first = MASKS_FIRST.with(Cell::get) - first_before;
        assert!(first > 20, "{first} pairs compared by their masks first");
        // And many pairs of two targets planned whole were tested without the search.
        let unsearched = UNSEARCHED.with(Cell::get) - unsearched_before;
        assert!(unsearched > 100, "{unsearched} outline tests without the search");
        assert!(served > 1_000 && left > 20, "served {served}, left {left}");
    }
}
