//! Which pairs of a group touch, yes or no: [`Stage::touching_among`].
//!
//! A game that only needs which sprites touch (pixelhit.pygame's `World.among`) does not
//! need each contact's rectangle and count, and those cost every close pair's whole window.
//! A pair that touches needs only one word solid in both targets. So here a pair of two
//! masks reads its window's middle row first (where two round sprites' overlap is) and
//! stops at a word solid in both; else the whole window by `contacts_among`'s word-column
//! compare (rows from the middle outward when a side is made by bands). Targets the query plans whole (`target_plan.rs`) get their whole mask, as in
//! `contacts_among`; or, with `BY_BANDS`, those a kernel writes get it band by band as
//! pairs read rows (`lazy_mask.rs`), so that a touching pair makes only the bands it reads.
//! That costs more than it saves on the scenes measured so far (docs/game-notes.md,
//! "`World.among` asks yes or no"), so it is off, and tested.
//!
//! Without bands, a pair of two made masks, or of two targets of one mask or kernel item
//! each, is answered whole from them as `contacts_among` answers it (`made_masks.rs`,
//! `memo_answer.rs`): on the rocks and asteroids scenes that costs less than the pipeline's
//! set-up an early stop would need (`prof_rocks 1000 {1,4} exact serial aa touching`: 39.0 M
//! a frame, 40.5 M before). The early stop is for the pairs the pipeline compares.
//!
//! Everything else is `contacts_among`'s, so the answer is its pairs in its order, and its
//! errors: the same broad phase, work checks, memos, near-miss test, kept answers and
//! fallbacks. A pair whose targets are not both a mask (cached, made whole, or made band by
//! band) is compared as `contacts_among` compares it, and its count says yes or no.

use crate::geom::rect::PixelRect;
use crate::query::lazy_mask::LazyMask;
use crate::query::pipeline::{PairRequest, PreparedPair, Setup, kept_answer_key};
use crate::query::target_memo::{Memos, TargetMemo};
use crate::raster::bitmask::BitMask;
use crate::raster::{MaskRef, Prepared, Rasterizer, ScanBuffers, SolidBits, Within, with_scan_buffers};
use crate::{CollisionOptions, NodeId, Result, Stage};

/// Whether planned targets of one kernel item are made band by band, or whole at once as
/// `contacts_among` makes them. Whole: on the asteroids scene every rock's solid rows are
/// read by one pair or another, so bands skip only rows the kernel has nothing to read in,
/// and cost more than they save (docs/frame-engine.md, "Yes or no").
const BY_BANDS: bool = false;

/// [`BY_BANDS`], or what this thread's tests ask for.
fn by_bands() -> bool {
    #[cfg(test)]
    if let Some(forced) = FORCE_BANDS.with(std::cell::Cell::get) {
        return forced;
    }
    BY_BANDS
}

#[cfg(test)]
thread_local! {
    /// Bands or whole masks for the queries of this thread, in place of [`BY_BANDS`].
    pub(crate) static FORCE_BANDS: std::cell::Cell<Option<bool>> = const { std::cell::Cell::new(None) };
    /// Texels the kernels read to make bands on this thread.
    pub(crate) static BAND_TEXELS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
    /// Words compared on this thread by the row scan, and pairs it answered.
    pub(crate) static WORDS_COMPARED: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// One target's rows as the scan reads them.
enum Rows<'a> {
    /// A mask of the whole target (cached, or made whole for the query) at an anchor.
    Placed(MaskRef<'a>, (i64, i64)),
    /// A mask made band by band, and the target whose kernel makes the bands.
    Lazy(&'a LazyMask, &'a Prepared),
}

impl Rows<'_> {
    /// The pixels it covers.
    fn rect(&self) -> PixelRect {
        match self {
            Rows::Placed(mask, at) => mask.rect().moved(*at),
            Rows::Lazy(mask, _) => mask.rect(),
        }
    }

    /// The 64 pixels of row `y` from `x` on (inside [`Rows::rect`], its row ready).
    #[inline]
    fn bits_at(&self, y: i64, x: i64) -> u64 {
        match self {
            Rows::Placed(mask, at) => {
                let r = mask.rect();
                mask.bits_at((y - at.1 - r.y0) as usize, (x - at.0 - r.x0) as usize)
            }
            Rows::Lazy(mask, _) => mask.bits_at(y, x),
        }
    }
}

/// The yes-or-no many-object query.
impl Stage {
    /// Every touching pair among `objects`, in `parent`'s space: exactly the pairs of
    /// [`Stage::contacts_among`] with the same options, as `(a, b)`, in its order (by the
    /// position of `a` then `b` in `objects`, `a` always earlier), without their rectangles
    /// and counts: what a game that needs only which objects touch asks. A pair of targets
    /// whose masks are made stops at the first word of pixels solid in both
    /// (docs/frame-engine.md, "Yes or no").
    ///
    /// # Errors
    ///
    /// As [`Stage::contacts_among`] without details: [`crate::Error::NotDescendant`] for the
    /// first object not inside `parent`; [`crate::Error::WorkBudget`] when too many pairs of
    /// boxes overlap or their windows are over [`CollisionOptions::max_work`]; the error of
    /// the first failing pair in the answer's order, whatever `parallel` says.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let mut discs = Vec::new();
    /// for x in [0.0, 9.0, 30.0, 36.0] {
    ///     let n = stage.add_container(root)?;
    ///     stage.add_graphic(n, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
    ///     stage.set_x(n, x)?;
    ///     discs.push(n);
    /// }
    /// let opts = CollisionOptions::default();
    /// let touching = stage.touching_among(&discs, root, &opts)?;
    /// assert_eq!(touching, [(discs[0], discs[1]), (discs[2], discs[3])]);
    /// // The same pairs as the contacts, without their rectangles.
    /// let contacts = stage.contacts_among(&discs, root, &opts)?;
    /// assert!(contacts.iter().map(|c| (c.a, c.b)).eq(touching));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn touching_among(
        &self,
        objects: &[NodeId],
        parent: NodeId,
        opts: &CollisionOptions,
    ) -> Result<Vec<(NodeId, NodeId)>> {
        // Details change nothing of which pairs touch, but `contacts_among` fails for a
        // contact whose details are over the budget: without them, the same pairs.
        let opts = &(*opts).details(false);
        let (objects, boxes, pairs) = self.close_pairs_among(objects, parent, opts, "touching pairs")?;
        let revision = self.revision();
        let one = |&(i, j): &(usize, usize),
                   Memos {
                       targets: memos,
                       kernels,
                   }: Memos<'_>|
         -> Result<Option<(NodeId, NodeId)>> {
            let (a, b) = (objects[i], objects[j]);
            // Answers kept in this frame (by `contacts_among` or by this query) are read.
            let key = kept_answer_key(a, b, parent, opts);
            if let Some((rect, _)) = self.cache.pair(revision, &key) {
                return Ok(rect.map(|_| (a, b)));
            }
            let memos = (&memos[i], &memos[j]);
            let request = PairRequest::new(a, b, parent, opts)
                .rejecting_near_misses()
                .with_memo(memos.0, memos.1);
            // Two made masks answer at once, rectangle and count too (`made_masks.rs`), and
            // so do two targets of one mask or kernel item each, read from their memos
            // (`memo_answer.rs`), as in `contacts_among`; by bands, the row scan reads them.
            if !by_bands()
                && let Some(answer) = self
                    .made_masks_answer(&request)
                    .or_else(|| self.memo_answer(&request, memos, (&kernels[i], &kernels[j])))
            {
                self.cache.keep_pair(revision, key, answer);
                return Ok(answer.0.map(|_| (a, b)));
            }
            let touching = self.run_pair(&request, |setup| match setup {
                Setup::Empty => {
                    self.cache.keep_pair(revision, key, (None, None));
                    Ok(false)
                }
                Setup::Loose(rect) => {
                    self.cache.keep_pair(revision, key, (Some(rect), None));
                    Ok(true)
                }
                Setup::Pair(pair) => {
                    let touching = self.pair_touches(&pair, memos, (a, b), opts)?;
                    // A pair that does not touch read its whole window: its answer is the
                    // one `contacts_among` keeps. A touching pair's rectangle is not known.
                    if !touching {
                        self.cache.keep_pair(revision, key, (None, Some(0)));
                    }
                    Ok(touching)
                }
            })?;
            Ok(touching.then_some((a, b)))
        };
        self.each_close_pair(&objects, &boxes, &pairs, opts, by_bands(), one)
    }

    /// Whether the prepared `pair` (of `nodes`, from `memos`) has a pixel solid in both
    /// targets: by the row scan when both are masks, else as `contacts_among` compares it.
    fn pair_touches(
        &self,
        pair: &PreparedPair,
        (memo_a, memo_b): (&TargetMemo, &TargetMemo),
        (a, b): (NodeId, NodeId),
        opts: &CollisionOptions,
    ) -> Result<bool> {
        let t = pair.thresholds;
        if opts.fast_paths {
            let sides = (self.rows(&pair.a, memo_a, t.a), self.rows(&pair.b, memo_b, t.b));
            if let (Some(ra), Some(rb)) = &sides
                && let Some(touching) = touches_by_rows(pair.window, (ra, rb), (t.a, t.b))
            {
                return Ok(touching);
            }
        }
        if pair.a.lazy_whole().is_none() && pair.b.lazy_whole().is_none() {
            return Ok(pair.overlap(self, opts)?.count > 0);
        }
        // `contacts_among`'s route: the targets marked for bands made whole at once.
        let whole = |p: &Prepared, memo: &TargetMemo, node: NodeId| match p.lazy_whole() {
            Some(_) => self.with_whole_mask(memo, p, node, opts, false),
            None => p.clone(),
        };
        let targets = (whole(&pair.a, memo_a, a), whole(&pair.b, memo_b, b));
        let pair = PreparedPair::new(pair.window, targets, t, (a, b));
        Ok(pair.overlap(self, opts)?.count > 0)
    }
}

impl Stage {
    /// `target`'s rows at `threshold` when it is a mask: made band by band (planned so, with
    /// its `memo`), or cached or made whole.
    fn rows<'a>(&'a self, target: &'a Prepared, memo: &'a TargetMemo, threshold: u8) -> Option<Rows<'a>> {
        if target.lazy_whole() == Some(threshold) {
            return memo.lazy_mask(target, threshold).map(|m| Rows::Lazy(m, target));
        }
        target
            .single_mask(threshold, &self.cache)
            .map(|(mask, at)| Rows::Placed(mask, at))
    }
}

/// Whether a pixel of `window` is solid in both `rows`: the window's middle row first, then
/// the rest (by rows outward from the middle, stopping at the first word solid in both,
/// when a side is a [`Rows::Lazy`], whose bands are made as rows need them at its
/// `thresholds`). `None` when a band cannot be made.
fn touches_by_rows(window: PixelRect, (a, b): (&Rows<'_>, &Rows<'_>), thresholds: (u8, u8)) -> Option<bool> {
    let w = window.intersect(&a.rect()).intersect(&b.rect());
    if w.is_empty() {
        return Some(false);
    }
    if let (Rows::Placed(ma, at), Rows::Placed(mb, bt)) = (a, b) {
        // The middle row first (where most touching pairs share a word), then the window
        // at once by the word-column compare `contacts_among` takes, which the compiler
        // vectorizes.
        let mid = w.y0 + (w.height() / 2) as i64;
        let row = PixelRect {
            y0: mid,
            y1: mid + 1,
            ..w
        };
        if scan_rows(row, (a, b), |_, _| true) == Some(true) {
            return Some(true);
        }
        return Some(ma.overlap_moved(*at, mb, *bt, w).count > 0);
    }
    with_scan_buffers(|buffers| {
        let mut scratch = std::mem::replace(&mut buffers.bits.a, BitMask::empty());
        let found = scan_rows(w, (a, b), |second, y| match second {
            false => ready(a, y, thresholds.0, &mut scratch, buffers),
            true => ready(b, y, thresholds.1, &mut scratch, buffers),
        });
        buffers.bits.a = scratch;
        found
    })
}

/// Whether a pixel of `w` (inside both sides) is solid in both `rows`, from the middle row
/// outward; `ready(second, y)` makes row `y` of the first or second side readable, or says
/// it cannot (`None` then).
fn scan_rows(
    w: PixelRect,
    (a, b): (&Rows<'_>, &Rows<'_>),
    mut ready: impl FnMut(bool, i64) -> bool,
) -> Option<bool> {
    let h = w.height() as i64;
    let mid = w.y0 + h / 2;
    let last_bits = (w.width() - 1) % 64 + 1;
    let last_mask = if last_bits == 64 {
        !0
    } else {
        (1u64 << last_bits) - 1
    };
    let mut found = Some(false);
    #[cfg(test)]
    let mut words = 0u64;
    'rows: for k in 0..h {
        // The middle row, the one above it, the one below it, and so on.
        let y = if k % 2 == 0 { mid + k / 2 } else { mid - 1 - k / 2 };
        if !ready(false, y) || !ready(true, y) {
            found = None;
            break;
        }
        let mut x = w.x0;
        while x < w.x1 {
            let keep = if w.x1 - x >= 64 { !0 } else { last_mask };
            #[cfg(test)]
            {
                words += 1;
            }
            if a.bits_at(y, x) & b.bits_at(y, x) & keep != 0 {
                found = Some(true);
                break 'rows;
            }
            x += 64;
        }
    }
    #[cfg(test)]
    WORDS_COMPARED.with(|n| {
        let (compared, pairs) = n.get();
        n.set((compared + words, pairs + 1));
    });
    found
}

/// Whether row `y` of `side` can be read: a band of a [`Rows::Lazy`] side made now when no
/// pair has made it, over the side's whole width by the kernel its whole mask would take
/// (`raster::whole_mask`), its work counted afresh.
fn ready(side: &Rows<'_>, y: i64, threshold: u8, scratch: &mut BitMask, buffers: &mut ScanBuffers) -> bool {
    let Rows::Lazy(mask, target) = side else {
        return true;
    };
    let bits = &mut buffers.bits;
    mask.ensure_row(y, scratch, &mut |band, out| {
        let Some(kernel) = Rasterizer::single_item(target)
            .and_then(|item| SolidBits::of(item, threshold, target.anti_alias()))
        else {
            return false;
        };
        bits.reset_work();
        let made = kernel.fill(band, Within::All, bits, out) && bits.check(String::new).is_ok();
        #[cfg(test)]
        BAND_TEXELS.with(|n| n.set(n.get() + bits.counts.texels_read));
        made
    })
}
