//! A target's whole solid mask made band by band, as a yes-or-no query's pairs need its
//! rows (docs/frame-engine.md, "Yes or no: rows made as pairs need them").
//!
//! [`Stage::touching_among`](crate::Stage::touching_among) plans targets whole as
//! `contacts_among` does (`target_plan.rs`), but a touching pair stops at its first word
//! solid in both targets, so part of a target's mask may never be read. With
//! `touching::BY_BANDS` (off: on the scenes measured it costs more than it saves, see
//! docs/game-notes.md), a target whose pixels a kernel writes (`SolidBits`: an unsmoothed
//! or pygame-rendered bitmap) gets a [`LazyMask`]: its extent in bands of [`BAND_ROWS`] rows, each made the first time a pair
//! reads one of its rows, by the same kernel over the band (a pixel's value depends on the
//! item and the pixel alone, semantics.md 4.5, so a band holds the rows the whole mask
//! would), and kept for the query's other pairs.
//!
//! Pairs run on several threads and share the masks without a lock: each band has a state
//! and its words are atomics. A thread that finds a band not made makes it itself and
//! stores its words, then marks it made (release; a reader loads the mark with acquire
//! before its words). Two threads may make the same band at once; both store the same
//! words, so the race costs a band's work twice and never a wrong bit.

use std::sync::atomic::{AtomicU8, AtomicU64, Ordering};

use crate::geom::rect::PixelRect;
use crate::raster::bitmask::BitMask;

/// Rows a band: a touching pair of rocks (a window of 20 to 40 rows) reads one or two bands
/// of each target before its first solid word, and a band's fixed cost (the kernel's set-up,
/// about 300 instructions) stays small against its rows.
pub(crate) const BAND_ROWS: usize = 8;

/// A band's states.
const NOT_MADE: u8 = 0;
const MADE: u8 = 1;
/// The kernel could not make it (a pose too far out for its fixed point, or its work over
/// the budget): the pairs take the whole mask's route, which decides such targets.
const FAILED: u8 = 2;

/// One target's solid pixels over its extent, made band by band.
pub(crate) struct LazyMask {
    rect: PixelRect,
    threshold: u8,
    /// Words a row: its pixels' and a zero word after them, so that the 64 pixels from any
    /// pixel of a row are two loads.
    per_row: usize,
    words: Vec<AtomicU64>,
    bands: Vec<AtomicU8>,
}

/// `rect`, or the empty rectangle at the origin when it has no pixels.
fn nonempty(rect: PixelRect) -> PixelRect {
    if rect.is_empty() {
        PixelRect::default()
    } else {
        rect
    }
}

#[cfg(test)]
thread_local! {
    /// Bands made on this thread, and their pixels.
    pub(crate) static BANDS_MADE: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

impl LazyMask {
    /// A mask over `rect` (the target's extent in the parent's grid) at `threshold`,
    /// nothing made yet.
    pub fn new(rect: PixelRect, threshold: u8) -> LazyMask {
        let rect = nonempty(rect);
        let per_row = (rect.width() as usize).div_ceil(64) + 1;
        let rows = rect.height() as usize;
        LazyMask {
            rect,
            threshold,
            per_row,
            words: (0..per_row * rows).map(|_| AtomicU64::new(0)).collect(),
            bands: (0..rows.div_ceil(BAND_ROWS))
                .map(|_| AtomicU8::new(NOT_MADE))
                .collect(),
        }
    }

    /// The pixels it covers.
    pub fn rect(&self) -> PixelRect {
        self.rect
    }

    /// Whether it is the mask [`LazyMask::new`] makes for `rect` and `threshold`.
    pub fn is_for(&self, rect: PixelRect, threshold: u8) -> bool {
        self.rect == nonempty(rect) && self.threshold == threshold
    }

    /// Whether row `y` (the parent's grid, inside the mask) can be read: its band made now
    /// by `make(band, scratch)` when no pair has made it, which writes the band's solid
    /// pixels into `scratch` (a mask over the band) and says `false` when it cannot. `false`
    /// when the band could not be made, by this thread or another.
    pub fn ensure_row(
        &self,
        y: i64,
        scratch: &mut BitMask,
        make: &mut impl FnMut(PixelRect, &mut BitMask) -> bool,
    ) -> bool {
        let band = (y - self.rect.y0) as usize / BAND_ROWS;
        match self.bands[band].load(Ordering::Acquire) {
            MADE => return true,
            FAILED => return false,
            _ => {}
        }
        let y0 = self.rect.y0 + (band * BAND_ROWS) as i64;
        let region = PixelRect {
            y0,
            y1: (y0 + BAND_ROWS as i64).min(self.rect.y1),
            ..self.rect
        };
        if !make(region, scratch) || scratch.rect() != region {
            self.bands[band].store(FAILED, Ordering::Release);
            return false;
        }
        let first = (y0 - self.rect.y0) as usize;
        for j in 0..region.height() as usize {
            let row = &self.words[(first + j) * self.per_row..][..self.per_row - 1];
            for (k, word) in row.iter().enumerate() {
                word.store(scratch.word(j, k), Ordering::Relaxed);
            }
        }
        self.bands[band].store(MADE, Ordering::Release);
        #[cfg(test)]
        BANDS_MADE.with(|n| {
            let (bands, pixels) = n.get();
            n.set((bands + 1, pixels + region.area() as u64));
        });
        true
    }

    /// The 64 pixels of row `y` from pixel `x` on (the parent's grid, inside the mask, its
    /// band made: [`LazyMask::ensure_row`]), bit 0 the pixel `x`.
    #[inline]
    pub fn bits_at(&self, y: i64, x: i64) -> u64 {
        let (j, i) = ((y - self.rect.y0) as usize, (x - self.rect.x0) as usize);
        let at = j * self.per_row + i / 64;
        let s = i % 64;
        let low = self.words[at].load(Ordering::Relaxed) >> s;
        match s {
            0 => low,
            _ => low | self.words[at + 1].load(Ordering::Relaxed) << (64 - s),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::query::budget_tests::Rng;

    /// Bands made from a whole mask's rows read back as that mask, bit for bit, at every
    /// pixel offset, whichever band is made first; a band that cannot be made stays
    /// unreadable.
    #[test]
    fn bands_read_back_as_the_whole_mask() {
        let mut rng = Rng(0x1a2_b3c4);
        for case in 0..200 {
            let (w, h) = (1 + rng.next() % 200, 1 + rng.next() % 40);
            let rect = PixelRect {
                x0: rng.next() as i64 % 1000 - 500,
                y0: rng.next() as i64 % 1000 - 500,
                x1: 0,
                y1: 0,
            };
            let rect = PixelRect {
                x1: rect.x0 + w as i64,
                y1: rect.y0 + h as i64,
                ..rect
            };
            let plane: Vec<u8> = (0..w * h).map(|_| (rng.next() % 256) as u8).collect();
            let whole = BitMask::from_plane(&plane, rect, 128);
            let lazy = LazyMask::new(rect, 128);
            let mut scratch = BitMask::empty();
            let mut make = |band: PixelRect, out: &mut BitMask| {
                let rows = (band.y0 - rect.y0) as usize..(band.y1 - rect.y0) as usize;
                let part = &plane[rows.start * w as usize..rows.end * w as usize];
                *out = BitMask::from_plane(part, band, 128);
                true
            };
            let mut rows: Vec<i64> = (rect.y0..rect.y1).collect();
            for k in (1..rows.len()).rev() {
                rows.swap(k, rng.below(k as u64 + 1) as usize);
            }
            for y in rows {
                assert!(lazy.ensure_row(y, &mut scratch, &mut make));
                for x in rect.x0..rect.x1 {
                    let (j, i) = ((y - rect.y0) as usize, (x - rect.x0) as usize);
                    assert_eq!(lazy.bits_at(y, x), whole.bits_at(j, i), "case {case}, ({x}, {y})");
                    // And the plane's own bits, as an independent check of both.
                    let want = (0..64)
                        .filter(|b| i + b < w as usize && plane[j * w as usize + i + b] >= 128)
                        .fold(0u64, |acc, b| acc | 1 << b);
                    assert_eq!(lazy.bits_at(y, x), want, "case {case}, ({x}, {y})");
                }
            }
        }
        let lazy = LazyMask::new(
            PixelRect {
                x0: 0,
                y0: 0,
                x1: 10,
                y1: 20,
            },
            1,
        );
        let mut scratch = BitMask::empty();
        assert!(!lazy.ensure_row(3, &mut scratch, &mut |_, _| false));
        assert!(!lazy.ensure_row(5, &mut scratch, &mut |_, _| true));
        assert!(lazy.ensure_row(12, &mut scratch, &mut |band, out: &mut BitMask| {
            out.reset(band);
            true
        }));
    }
}
