//! Bit masks: which pixels of a plane are solid, one bit per pixel in 64-bit words.
//!
//! A mask is 1/8 of an alpha plane and 1/32 of RGBA, and two masks at any whole-pixel offset
//! are compared a word at a time: an AND, a popcount for the overlap count, and an OR per
//! word column for the overlap's left and right edges. That is the whole cost of a query
//! between two targets whose masks are cached and that only moved by whole pixels.

use crate::rect::PixelRect;

/// Solid pixels of a rectangle of the parent's grid. Bit `i` of word `k` of row `y` is the
/// pixel `(rect.x0 + 64k + i, rect.y0 + y)`.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BitMask {
    rect: PixelRect,
    words_per_row: usize,
    words: Vec<u64>,
}

/// What two masks have in common.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default)]
pub(crate) struct Overlap {
    /// Pixels solid in both.
    pub count: u64,
    /// The smallest rectangle holding them.
    pub rect: Option<PixelRect>,
}

impl BitMask {
    /// The pixels of `plane` (row-major over `rect`) whose alpha is at least `threshold`.
    pub fn from_plane(plane: &[u8], rect: PixelRect, threshold: u8) -> BitMask {
        let w = rect.width() as usize;
        let words_per_row = w.div_ceil(64);
        let mut words = vec![0u64; words_per_row * rect.height() as usize];
        if w > 0 {
            for (row, dst) in plane.chunks_exact(w).zip(words.chunks_exact_mut(words_per_row)) {
                for (chunk, word) in row.chunks(64).zip(dst.iter_mut()) {
                    let mut bits = 0u64;
                    for (i, &a) in chunk.iter().enumerate() {
                        bits |= u64::from(a >= threshold) << i;
                    }
                    *word = bits;
                }
            }
        }
        BitMask {
            rect,
            words_per_row,
            words,
        }
    }

    /// The pixels this mask covers.
    pub fn rect(&self) -> PixelRect {
        self.rect
    }

    /// Whether no bit is set.
    pub fn is_empty(&self) -> bool {
        self.words.iter().all(|&w| w == 0)
    }

    /// Bytes of memory held by the words.
    pub fn bytes(&self) -> usize {
        self.words.len() * 8
    }

    fn row(&self, y: i64) -> &[u64] {
        let start = (y - self.rect.y0) as usize * self.words_per_row;
        &self.words[start..start + self.words_per_row]
    }

    /// The pixels solid in both masks, within `window` (in the parent's grid).
    pub fn overlap(&self, other: &BitMask, window: PixelRect) -> Overlap {
        let area = self.rect.intersect(&other.rect).intersect(&window);
        if area.is_empty() {
            return Overlap::default();
        }
        // Word k of this mask holds the pixels 64k.. from self.x0; the same pixels start at
        // bit 64k - dx of the other mask, with dx = other.x0 - self.x0 = 64q + r.
        let dx = other.rect.x0 - self.rect.x0;
        let (q, r) = (dx.div_euclid(64), dx.rem_euclid(64) as u32);
        let k0 = ((area.x0 - self.rect.x0) / 64) as usize;
        let k1 = ((area.x1 - 1 - self.rect.x0) / 64) as usize;
        // Bits of this mask's first and last word that lie inside the window's columns.
        let first_mask = !0u64 << ((area.x0 - self.rect.x0) % 64);
        let last_bits = ((area.x1 - 1 - self.rect.x0) % 64) + 1;
        let last_mask = if last_bits == 64 {
            !0u64
        } else {
            (1u64 << last_bits) - 1
        };
        let other_words = other.words_per_row as i64;
        let mut count = 0u64;
        let mut columns = vec![0u64; k1 - k0 + 1];
        let (mut y_min, mut y_max) = (i64::MAX, i64::MIN);
        for y in area.y0..area.y1 {
            let mine = self.row(y);
            let theirs = other.row(y);
            let word_of = |j: i64| -> u64 {
                if (0..other_words).contains(&j) {
                    theirs[j as usize]
                } else {
                    0
                }
            };
            let mut row_any = 0u64;
            for (k, col) in (k0..=k1).zip(columns.iter_mut()) {
                let j = k as i64 - q;
                let aligned = if r == 0 {
                    word_of(j)
                } else {
                    (word_of(j) << r) | (word_of(j - 1) >> (64 - r))
                };
                let mut both = mine[k] & aligned;
                if k == k0 {
                    both &= first_mask;
                }
                if k == k1 {
                    both &= last_mask;
                }
                count += u64::from(both.count_ones());
                *col |= both;
                row_any |= both;
            }
            if row_any != 0 {
                y_min = y_min.min(y);
                y_max = y;
            }
        }
        if count == 0 {
            return Overlap::default();
        }
        let first = columns.iter().position(|&c| c != 0).unwrap_or(0);
        let last = columns.iter().rposition(|&c| c != 0).unwrap_or(0);
        let x_min = self.rect.x0 + 64 * (k0 + first) as i64 + i64::from(columns[first].trailing_zeros());
        let x_max = self.rect.x0 + 64 * (k0 + last) as i64 + 63 - i64::from(columns[last].leading_zeros());
        Overlap {
            count,
            rect: Some(PixelRect {
                x0: x_min,
                y0: y_min,
                x1: x_max + 1,
                y1: y_max + 1,
            }),
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The overlap computed pixel by pixel, for comparison.
    fn plain(a: (&[u8], PixelRect), b: (&[u8], PixelRect), window: PixelRect, t: u8) -> Overlap {
        let at = |(p, r): (&[u8], PixelRect), x: i64, y: i64| -> bool {
            x >= r.x0
                && x < r.x1
                && y >= r.y0
                && y < r.y1
                && p[((y - r.y0) * (r.x1 - r.x0) + x - r.x0) as usize] >= t
        };
        let mut o = Overlap::default();
        for y in window.y0..window.y1 {
            for x in window.x0..window.x1 {
                if at(a, x, y) && at(b, x, y) {
                    o.count += 1;
                    let p = PixelRect {
                        x0: x,
                        y0: y,
                        x1: x + 1,
                        y1: y + 1,
                    };
                    o.rect = Some(o.rect.map_or(p, |r| PixelRect {
                        x0: r.x0.min(x),
                        y0: r.y0.min(y),
                        x1: r.x1.max(x + 1),
                        y1: r.y1.max(y + 1),
                    }));
                }
            }
        }
        o
    }

    #[test]
    fn word_overlap_matches_pixel_overlap() {
        let mut seed = 0x1234_5678_u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as i64
        };
        for _ in 0..3000 {
            let mut rect = || {
                let (x0, y0) = (next() % 300 - 150, next() % 40 - 20);
                PixelRect {
                    x0,
                    y0,
                    x1: x0 + 1 + next() % 200,
                    y1: y0 + 1 + next() % 30,
                }
            };
            let (ra, rb) = (rect(), rect());
            let window = rect().intersect(&PixelRect {
                x0: -400,
                y0: -60,
                x1: 400,
                y1: 60,
            });
            let density = next() % 256;
            let mut plane = |r: PixelRect| -> Vec<u8> {
                (0..r.width() * r.height())
                    .map(|_| {
                        if next() % 256 < density {
                            (next() % 256) as u8
                        } else {
                            0
                        }
                    })
                    .collect()
            };
            let (pa, pb) = (plane(ra), plane(rb));
            let t = (next() % 255 + 1) as u8;
            let (ma, mb) = (BitMask::from_plane(&pa, ra, t), BitMask::from_plane(&pb, rb, t));
            let want = plain((&pa, ra), (&pb, rb), window, t);
            assert_eq!(ma.overlap(&mb, window), want, "{ra:?} {rb:?} {window:?}");
            assert_eq!(mb.overlap(&ma, window), want);
        }
    }
}
