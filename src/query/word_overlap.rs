//! A lone pair compared by words: each target is one cached mask or one item a kernel
//! writes, its solid pixels written into a bit mask over the pair's window, and the two
//! masks compared a word at a time (docs/frame-engine.md, "The fill kernel").
//!
//! The kernels: an unsmoothed or pygame-rendered bitmap pose ([`SolidBits`]), a fill or a
//! stroke outline ([`FillBits`]). The second target is decided only where the first has
//! solid pixels in the row.
//!
//! **The work budget.** A pair's outcome (its answer, or a refusal for work) must not
//! depend on what the cache holds: a target is a cached mask on one route and a pose to
//! compute on another, and [`Stage::run_prepared`](crate::Stage) proves the outcome the
//! same on every route only if a route with more targets cached never does more work. A
//! fill is therefore always written over the same region, the pair's window cut to its own
//! edges, whatever the other target is made of, and its work is counted as over that whole
//! region, however little of it the other target lets it decide: its work depends on the
//! fill and the window alone. When a fill goes over the budget, the pair is left to the
//! general route (span or run scan), whose outcome it then is on every route where the
//! fill is computed; on a route where it is a cached mask it costs no work at all. A
//! bitmap kernel's work is counted as before, the same whether the other target is a
//! mask or a fill.

use crate::Result;
use crate::Stage;
use crate::geom::rect::PixelRect;
use crate::query::pipeline::{PlacedMask, PreparedPair, Thresholds};
#[cfg(test)]
use crate::raster::LONE_FILL_PAIRS;
use crate::raster::Prepared;
use crate::raster::bitmask::{BitMask, Overlap};
use crate::raster::{FillBits, FillLimit, Rasterizer, SolidBits, Within, with_scan_buffers};

/// Whether the span scan's tests have asked for fills by spans on this thread (they count
/// its work): the fill kernel then steps aside.
fn spans_forced() -> bool {
    #[cfg(test)]
    if crate::raster::FORCE_SPANS.with(std::cell::Cell::get) {
        return true;
    }
    false
}

/// How one target of the pair is read: a mask, or a kernel's.
enum Side<'a> {
    Mask,
    Bits(SolidBits<'a>),
    Fill(FillBits<'a>),
}

impl PreparedPair {
    /// The overlap by words when each target is one cached mask or one item a kernel writes
    /// ([`SolidBits`], [`FillBits`]). `None` for any other pair, or when a fill goes over
    /// the work budget (the general route answers then).
    ///
    /// # Errors
    ///
    /// [`crate::Error::WorkBudget`] when a bitmap kernel goes over the work budget.
    pub(crate) fn word_overlap(
        &self,
        stage: &Stage,
        masks: (PlacedMask<'_>, PlacedMask<'_>),
    ) -> Result<Option<Overlap>> {
        let name = || self.name(stage);
        let sides = Sides {
            masks,
            kernels: (None, None),
        };
        word_overlap((&self.a, &self.b), self.window, self.thresholds, sides, name)
    }
}

/// What is known of the two targets of a pair before [`word_overlap`]: their placed masks,
/// and the kernels of those without one when a many-object query has them
/// (`query::memo_answer`: [`SolidBits::of`] of the same item at the same threshold).
pub(crate) struct Sides<'a> {
    pub masks: (PlacedMask<'a>, PlacedMask<'a>),
    pub kernels: (Option<SolidBits<'a>>, Option<SolidBits<'a>>),
}

/// [`PreparedPair::word_overlap`] of targets `a` and `b` over `window`, judged by `t`, with
/// what is known of their sides; `name` names the pair in errors.
///
/// # Errors
///
/// As [`PreparedPair::word_overlap`].
pub(crate) fn word_overlap<'a>(
    (a, b): (&'a Prepared, &'a Prepared),
    pair_window: PixelRect,
    t: Thresholds,
    Sides {
        masks: (mask_a, mask_b),
        kernels,
    }: Sides<'a>,
    name: impl Fn() -> String,
) -> Result<Option<Overlap>> {
    let anti_alias = a.anti_alias();
    // A target with a mask (kept, or made whole for the query) is read from it: its
    // kernel would write the same bits again.
    let side = |mask: &PlacedMask<'_>, target, threshold, known: Option<SolidBits<'a>>| match mask {
        Some(_) => Some(Side::Mask),
        None if known.is_some() => known.map(Side::Bits),
        None => {
            let item = Rasterizer::single_item(target)?;
            match SolidBits::of(item, threshold, anti_alias) {
                Some(bits) => Some(Side::Bits(bits)),
                None if spans_forced() => None,
                None => FillBits::of(item, threshold).map(Side::Fill),
            }
        }
    };
    let (Some(side_a), Some(side_b)) = (side(&mask_a, a, t.a, kernels.0), side(&mask_b, b, t.b, kernels.1))
    else {
        return Ok(None);
    };
    // Only where both can have solid pixels: by their solid texels' boxes, a kept
    // mask's rectangle, or a fill's edges.
    let reach = |mask: &PlacedMask<'_>, side: &Side<'_>| match (mask, side) {
        (Some((m, at)), _) => m.rect().moved(*at),
        (_, Side::Bits(b)) => b.solid_extent(),
        (_, Side::Fill(f)) => f.extent(),
        (None, Side::Mask) => pair_window,
    };
    let window = pair_window
        .intersect(&reach(&mask_a, &side_a))
        .intersect(&reach(&mask_b, &side_b));
    let fills = matches!(side_a, Side::Fill(_)) || matches!(side_b, Side::Fill(_));
    if window.is_empty() && !fills {
        return Ok(Some(Overlap::default()));
    }
    with_scan_buffers(|buffers| {
        let bufs = &mut buffers.bits;
        let (mut wa, mut wb) = (
            std::mem::replace(&mut bufs.a, BitMask::empty()),
            std::mem::replace(&mut bufs.b, BitMask::empty()),
        );
        wa.reset(PixelRect::default());
        wb.reset(PixelRect::default());
        // Bitmaps first, as when the other target is a mask: their work does not depend
        // on a fill on the other side. Over an empty window they have nothing to write
        // (and a pair of a bitmap and a mask answers then without them).
        let mut done = true;
        if !window.is_empty() {
            if let Side::Bits(bits_a) = &side_a {
                let within = match &side_b {
                    Side::Bits(b) => b.bitmap().map_or(Within::All, Within::Reach),
                    _ => Within::All,
                };
                done &= bits_a.fill(window, within, bufs, &mut wa);
            }
            if let Side::Bits(bits_b) = &side_b {
                let within = match side_a {
                    // Its bits lie where this one can be solid when it kept to the reach.
                    Side::Bits(_) => Within::mask(&wa, bufs.reached),
                    _ => Within::All,
                };
                done &= bits_b.fill(window, within, bufs, &mut wb);
            }
        }
        let checked = bufs.check(&name);
        // Fills over their own region (the pair's window cut to their edges), deciding
        // only the pixels of the window where the other target's kernel has solid
        // pixels in the row.
        let fills_in = &mut buffers.fills;
        let region = |f: &FillBits<'_>| pair_window.intersect(&f.extent());
        if let Side::Fill(fill_a) = &side_a {
            let rows = matches!(side_b, Side::Bits(_)).then_some((&wb, (0, 0)));
            let limit = FillLimit { rect: window, rows };
            fill_a.fill(region(fill_a), anti_alias, Some(limit), fills_in, &mut wa);
        }
        if let Side::Fill(fill_b) = &side_b {
            let rows = matches!(side_a, Side::Bits(_) | Side::Fill(_)).then_some((&wa, (0, 0)));
            let limit = FillLimit { rect: window, rows };
            fill_b.fill(region(fill_b), anti_alias, Some(limit), fills_in, &mut wb);
        }
        let fills_done = fills_in.check(String::new).is_ok();
        #[cfg(test)]
        if fills && done {
            LONE_FILL_PAIRS.with(|c| {
                let (answered, left) = c.get();
                c.set(if fills_done {
                    (answered + 1, left)
                } else {
                    (answered, left + 1)
                });
            });
        }
        let found = match (&mask_a, &mask_b) {
            _ if !done || !fills_done => None,
            _ if window.is_empty() => Some(Overlap::default()),
            (Some((ma, at)), Some((mb, bt))) => Some(ma.overlap_moved(*at, mb, *bt, window)),
            (Some((ma, at)), None) => Some(ma.overlap_moved(*at, &wb, (0, 0), window)),
            (None, Some((mb, at))) => Some(wa.overlap_moved((0, 0), mb, *at, window)),
            (None, None) => Some(wa.overlap_moved((0, 0), &wb, (0, 0), window)),
        };
        (buffers.bits.a, buffers.bits.b) = (wa, wb);
        checked.map(|()| found)
    })
}
