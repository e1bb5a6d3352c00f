//! Bit masks: which pixels of a plane are solid, one bit per pixel in 64-bit words.
//!
//! A mask is 1/8 of an alpha plane and 1/32 of RGBA, and two masks at any whole-pixel offset
//! are compared a word at a time: an AND, a popcount for the overlap count, and an OR per
//! word column for the overlap's left and right edges. That is the whole cost of a query
//! between two targets whose masks are cached and that only moved by whole pixels.

use crate::geom::rect::PixelRect;

/// Solid pixels of a rectangle of the parent's grid, stored by columns of 64 pixels: bit `i`
/// of `column(k)[y]` is the pixel `(rect.x0 + 64k + i, rect.y0 + y)`. A zero column before
/// and after the real ones lets masks be compared at any shift without bounds checks in the
/// inner loop, and keeping each column's rows together gives that loop long, contiguous runs
/// that the compiler vectorizes.
#[derive(Clone, Debug, PartialEq, Eq)]
pub(crate) struct BitMask {
    rect: PixelRect,
    /// Rows per column.
    height: usize,
    /// Columns `-1..=n`, `height` words each.
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
        let height = rect.height() as usize;
        let columns = w.div_ceil(64);
        let mut words = vec![0u64; (columns + 2) * height];
        if w > 0 {
            for (y, row) in plane.chunks_exact(w).enumerate() {
                for (k, chunk) in row.chunks(64).enumerate() {
                    words[(k + 1) * height + y] = solid_bits(chunk, threshold);
                }
            }
        }
        BitMask { rect, height, words }
    }

    /// No pixels (a buffer for [`BitMask::reset`]).
    pub fn empty() -> BitMask {
        BitMask {
            rect: PixelRect::default(),
            height: 0,
            words: Vec::new(),
        }
    }

    /// Makes it an empty mask over `rect`, keeping its buffer (no allocation once the buffer
    /// has held a mask this large).
    pub fn reset(&mut self, rect: PixelRect) {
        let height = rect.height() as usize;
        let columns = (rect.width() as usize).div_ceil(64);
        self.rect = rect;
        self.height = height;
        self.words.clear();
        self.words.resize((columns + 2) * height, 0);
    }

    /// The rectangle it covers.
    pub fn rect(&self) -> PixelRect {
        self.rect
    }

    /// Sets the bits of `word` in column `k` (pixels `64k..64k + 64` from the left edge) of
    /// row `y` (from the top).
    #[inline]
    pub fn or_word(&mut self, y: usize, k: usize, word: u64) {
        self.words[(k + 1) * self.height + y] |= word;
    }

    /// The word of column `k` (pixels `64k..64k + 64` from the left edge) of row `y`.
    #[inline]
    pub fn word(&self, y: usize, k: usize) -> u64 {
        self.words[(k + 1) * self.height + y]
    }

    /// The 64 pixels of row `y` from pixel `x` on (both from the top left; `x` inside the
    /// mask), bit 0 the pixel `x`: two words, the zero column after the last real one
    /// standing for the pixels past the right edge.
    #[inline]
    pub fn bits_at(&self, y: usize, x: usize) -> u64 {
        let (k, s) = (x / 64, x % 64);
        let low = self.word(y, k) >> s;
        match s {
            0 => low,
            _ => low | self.word(y, k + 1) << (64 - s),
        }
    }

    /// The pixels from the first to the last set bit of row `y` (from the left edge), as
    /// `[x0, x1)`, or `None` when the row is clear.
    pub fn row_extent(&self, y: usize) -> Option<(usize, usize)> {
        let columns = self.words.len() / self.height.max(1) - 2;
        let word = |k: usize| self.words[(k + 1) * self.height + y];
        let first = (0..columns).find(|&k| word(k) != 0)?;
        let last = (first..columns).rev().find(|&k| word(k) != 0)?;
        let x0 = first * 64 + word(first).trailing_zeros() as usize;
        let x1 = last * 64 + 64 - word(last).leading_zeros() as usize;
        Some((x0, x1))
    }

    /// Sets the pixels `x0..x1` (from the left edge) of row `y` (from the top).
    pub fn set_run(&mut self, y: usize, x0: usize, x1: usize) {
        let mut x = x0;
        while x < x1 {
            let (k, bit) = (x / 64, x % 64);
            let n = (x1 - x).min(64 - bit);
            let ones = if n == 64 { !0u64 } else { ((1u64 << n) - 1) << bit };
            self.or_word(y, k, ones);
            x += n;
        }
    }

    /// Makes the words over `region` (inside its rectangle) again from `plane`, the plane
    /// it was made from with that region changed: the rows of `region`, and the columns of
    /// 64 pixels that hold its pixels.
    pub fn patch(&mut self, plane: &[u8], region: PixelRect, threshold: u8) {
        let r = region.intersect(&self.rect);
        if r.is_empty() {
            return;
        }
        let w = self.rect.width() as usize;
        let (c0, c1) = (
            (r.x0 - self.rect.x0) as usize / 64,
            (r.x1 - self.rect.x0 - 1) as usize / 64,
        );
        for y in (r.y0 - self.rect.y0) as usize..(r.y1 - self.rect.y0) as usize {
            let row = &plane[y * w..][..w];
            for k in c0..=c1 {
                let chunk = &row[64 * k..w.min(64 * k + 64)];
                self.words[(k + 1) * self.height + y] = solid_bits(chunk, threshold);
            }
        }
    }

    /// Memory it holds.
    pub fn bytes(&self) -> usize {
        self.words.capacity() * std::mem::size_of::<u64>() + std::mem::size_of::<BitMask>()
    }

    /// Column `k` (from -1, the zero column before the first real one).
    fn column(&self, k: i64) -> &[u64] {
        let start = (k + 1) as usize * self.height;
        &self.words[start..start + self.height]
    }

    /// The pixels solid in both masks, within `window` (in the parent's grid).
    #[cfg(test)]
    pub fn overlap(&self, other: &BitMask, window: PixelRect) -> Overlap {
        self.overlap_moved((0, 0), other, (0, 0), window)
    }

    /// The pixels solid in both masks after moving this one by `at` and the other by
    /// `other_at` whole pixels, within `window`.
    pub fn overlap_moved(
        &self,
        at: (i64, i64),
        other: &BitMask,
        other_at: (i64, i64),
        window: PixelRect,
    ) -> Overlap {
        self.overlap_compiled_for(Instructions::Best, at, other, other_at, window)
    }

    /// [`BitMask::overlap_moved`] with the word loop compiled for `instructions`.
    fn overlap_compiled_for(
        &self,
        instructions: Instructions,
        at: (i64, i64),
        other: &BitMask,
        other_at: (i64, i64),
        window: PixelRect,
    ) -> Overlap {
        let mine = self.rect.moved(at);
        let theirs = other.rect.moved(other_at);
        let area = mine.intersect(&theirs).intersect(&window);
        if area.is_empty() {
            return Overlap::default();
        }
        // Column k of this mask holds the pixels 64k.. from its x0; the same pixels start at
        // bit 64k - dx of the other mask, with dx = theirs.x0 - mine.x0 = 64q + r: the high
        // bits of the other's column k - q - 1 and the low bits of its column k - q. Both
        // exist (or are the zero columns) because the area lies inside both masks.
        let dx = theirs.x0 - mine.x0;
        let (q, r) = (dx.div_euclid(64), dx.rem_euclid(64) as u32);
        let k0 = (area.x0 - mine.x0) / 64;
        let k1 = (area.x1 - 1 - mine.x0) / 64;
        let first_mask = !0u64 << ((area.x0 - mine.x0) % 64);
        let last_bits = ((area.x1 - 1 - mine.x0) % 64) + 1;
        let last_mask = if last_bits == 64 {
            !0u64
        } else {
            (1u64 << last_bits) - 1
        };
        let plan = Plan {
            q,
            r,
            k0,
            k1,
            first_mask,
            last_mask,
            rows: (area.y1 - area.y0) as usize,
            ya: (area.y0 - mine.y0) as usize,
            yb: (area.y0 - theirs.y0) as usize,
        };
        let Hits {
            count,
            columns: (k_min, k_max),
            bits: (bit_min, bit_max),
            rows: (top, bottom),
        } = match instructions {
            Instructions::Best => vectorized(
                #[inline(always)]
                || self.scan(other, &plan),
            ),
            Instructions::Portable => self.scan(other, &plan),
        };
        if count == 0 {
            return Overlap::default();
        }
        let (x_min, x_max) = (mine.x0 + 64 * k_min + bit_min, mine.x0 + 64 * k_max + bit_max);
        let (y_min, y_max) = (area.y0 + top as i64, area.y0 + bottom as i64);
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

/// Where [`BitMask::scan`] walks: the other mask's columns `k - q` and `k - q - 1` hold the
/// pixels of this mask's column `k`, shifted by `r` bits; columns `k0..=k1`, trimmed by the
/// bit masks at either end; rows `ya..ya + rows` of this mask and `yb..yb + rows` of the other.
struct Plan {
    q: i64,
    r: u32,
    k0: i64,
    k1: i64,
    first_mask: u64,
    last_mask: u64,
    rows: usize,
    ya: usize,
    yb: usize,
}

/// What [`BitMask::scan`] found: the count, and the first and last column, bit within those
/// columns, and row hit (meaningless when the count is 0).
struct Hits {
    count: u64,
    columns: (i64, i64),
    bits: (i64, i64),
    rows: (usize, usize),
}

impl BitMask {
    /// The overlap's count and extremes, column by column. Branch-free word loops (the shift
    /// is the same for every row) count and OR each column; the first and last rows hit are
    /// looked up afterwards, only in the blocks where the loop saw bits.
    #[inline(always)]
    fn scan(&self, other: &BitMask, p: &Plan) -> Hits {
        let r = p.r;
        let mut hits = Hits {
            count: 0,
            columns: (i64::MAX, i64::MIN),
            bits: (0, 0),
            rows: (usize::MAX, 0),
        };
        for k in p.k0..=p.k1 {
            let mut keep = !0u64;
            if k == p.k0 {
                keep &= p.first_mask;
            }
            if k == p.k1 {
                keep &= p.last_mask;
            }
            let a = &self.column(k)[p.ya..p.ya + p.rows];
            let hi = &other.column(k - p.q)[p.yb..p.yb + p.rows];
            let lo = &other.column(k - p.q - 1)[p.yb..p.yb + p.rows];
            let sum = column_sum(r, keep, [a, hi, lo]);
            if sum.or == 0 {
                continue;
            }
            hits.count += sum.count;
            if hits.columns.0 == i64::MAX {
                hits.columns.0 = k;
                hits.bits.0 = i64::from(sum.or.trailing_zeros());
            }
            hits.columns.1 = k;
            hits.bits.1 = 63 - i64::from(sum.or.leading_zeros());
            let hit = |y: usize| {
                let b = if r == 0 {
                    hi[y]
                } else {
                    (hi[y] << r) | (lo[y] >> (64 - r))
                };
                a[y] & b & keep != 0
            };
            // Only rows above the best top (below the best bottom) can improve it.
            let (top, bottom) = &mut hits.rows;
            if let Some(t) = (sum.rows.start..(*top).min(sum.rows.end)).find(|&y| hit(y)) {
                *top = t;
            }
            if let Some(b) = ((*bottom).max(sum.rows.start)..sum.rows.end)
                .rev()
                .find(|&y| hit(y))
            {
                *bottom = (*bottom).max(b);
            }
        }
        hits
    }
}

/// Which instructions the word loop may use.
#[derive(Clone, Copy, Debug)]
enum Instructions {
    /// The best the CPU has (feature `simd`), else the portable build.
    Best,
    /// The build's target only; tests compare it with `Best`.
    #[cfg_attr(not(test), allow(dead_code))]
    Portable,
}

/// `f()`, compiled for the build's target only (feature `simd` is off).
#[cfg(not(feature = "simd"))]
#[inline(always)]
fn vectorized<R>(f: impl Fn() -> R) -> R {
    f()
}

/// `f()` compiled for AVX2 and hardware popcount (x86-64-v3) where the CPU has them, else as
/// the portable build; pulp detects the CPU's features once and caches the answer.
///
/// Only code inlined into pulp's `#[target_feature]` function gets the wider instructions, so
/// `f` must be `#[inline(always)]`, and it is called through `Fn`: through `FnOnce` (pulp's
/// own closure form) a closure is called via a shim that LLVM does not inline there.
#[cfg(feature = "simd")]
#[inline(always)]
fn vectorized<R>(f: impl Fn() -> R) -> R {
    struct Op<F>(F);
    impl<R, F: Fn() -> R> pulp::WithSimd for Op<F> {
        type Output = R;
        #[inline(always)]
        fn with_simd<S: pulp::Simd>(self, _: S) -> R {
            (self.0)()
        }
    }
    pulp::Arch::new().dispatch(Op(f))
}

/// The bits of column `a` that are also in the other mask's columns `hi` and `lo` (shifted
/// by `r` bits) and in `keep`.
#[inline(always)]
fn column_sum(r: u32, keep: u64, [a, hi, lo]: [&[u64]; 3]) -> ColumnSum {
    if r == 0 {
        count_and_or([a, hi, lo], |a, h, _| a & h & keep)
    } else {
        count_and_or([a, hi, lo], |a, h, l| a & ((h << r) | (l >> (64 - r))) & keep)
    }
}

/// What [`count_and_or`] found in one column of words.
struct ColumnSum {
    /// Set bits.
    count: u64,
    /// The OR of all words.
    or: u64,
    /// Rows outside this range are zero (it may be empty).
    rows: std::ops::Range<usize>,
}

/// The set bits of `word(a[y], h[y], l[y])` over the rows of three equally long columns.
///
/// Counting goes through carry-save adders (Harley and Seal's method): each block of 32
/// words is summed bit-sliced into planes of weight 1, 2, 4 and 8, and only the weight-8
/// plane is popcounted, so most words cost a few logic operations instead of a portable
/// popcount each. Lanes of four words keep the adders independent, which lets the compiler
/// put them in vector registers.
#[inline(always)]
fn count_and_or(columns: [&[u64]; 3], word: impl Fn(u64, u64, u64) -> u64) -> ColumnSum {
    type Lanes = [u64; 4];
    /// A full adder per bit: (carry, sum) of x + y + z.
    #[inline(always)]
    fn add(x: Lanes, y: Lanes, z: Lanes) -> (Lanes, Lanes) {
        let mut carry = [0u64; 4];
        let mut sum = [0u64; 4];
        for i in 0..4 {
            let u = x[i] ^ y[i];
            carry[i] = (x[i] & y[i]) | (u & z[i]);
            sum[i] = u ^ z[i];
        }
        (carry, sum)
    }
    let (mut ones, mut twos, mut fours) = ([0u64; 4], [0u64; 4], [0u64; 4]);
    let mut eights = 0u64;
    let mut or = 0u64;
    // Rows before `first` and from `end` on are known to be zero (to the block).
    let (mut first, mut end) = (usize::MAX, 0);
    let [a, h, l] = columns;
    let (a_blocks, h_blocks, l_blocks) = (a.chunks_exact(32), h.chunks_exact(32), l.chunks_exact(32));
    let tail = (a_blocks.remainder(), h_blocks.remainder(), l_blocks.remainder());
    for (block, ((a, h), l)) in a_blocks.zip(h_blocks).zip(l_blocks).enumerate() {
        // Plain loops rather than `std::array::from_fn`, which LLVM may leave out of line
        // (and so without the target features) in `vectorized`.
        let mut w = [[0u64; 4]; 8];
        for (j, lanes) in w.iter_mut().enumerate() {
            for (i, x) in lanes.iter_mut().enumerate() {
                *x = word(a[4 * j + i], h[4 * j + i], l[4 * j + i]);
            }
        }
        let mut block_or = [0u64; 4];
        for lanes in &w {
            for i in 0..4 {
                block_or[i] |= lanes[i];
            }
        }
        let block_or = block_or[0] | block_or[1] | block_or[2] | block_or[3];
        if block_or != 0 {
            first = first.min(32 * block);
            end = 32 * block + 32;
            or |= block_or;
        }
        let (twos_a, o) = add(ones, w[0], w[1]);
        let (twos_b, o) = add(o, w[2], w[3]);
        let (fours_a, t) = add(twos, twos_a, twos_b);
        let (twos_a, o) = add(o, w[4], w[5]);
        let (twos_b, o) = add(o, w[6], w[7]);
        let (fours_b, t) = add(t, twos_a, twos_b);
        let (eights_now, f) = add(fours, fours_a, fours_b);
        (ones, twos, fours) = (o, t, f);
        eights += eights_now.iter().map(|e| u64::from(e.count_ones())).sum::<u64>();
    }
    let mut total = 8 * eights;
    for i in 0..4 {
        total += 4 * u64::from(fours[i].count_ones())
            + 2 * u64::from(twos[i].count_ones())
            + u64::from(ones[i].count_ones());
    }
    let tail_start = a.len() - tail.0.len();
    for (y, ((&a, &h), &l)) in tail.0.iter().zip(tail.1).zip(tail.2).enumerate() {
        let w = word(a, h, l);
        if w != 0 {
            total += u64::from(w.count_ones());
            or |= w;
            first = first.min(tail_start + y);
            end = tail_start + y + 1;
        }
    }
    ColumnSum {
        count: total,
        or,
        rows: first..end,
    }
}

/// Bit `i` set where `chunk[i] >= threshold` (at most 64 bytes), eight bytes at a time: a
/// byte-wise unsigned compare done with carries kept inside each byte, then the eight
/// comparison bits gathered by one multiplication.
pub(crate) fn solid_bits(chunk: &[u8], threshold: u8) -> u64 {
    const HIGH: u64 = 0x8080_8080_8080_8080;
    let low_t = u64::from(threshold & 0x7f) * 0x0101_0101_0101_0101;
    let mut bits = 0u64;
    for (j, group) in chunk.chunks(8).enumerate() {
        let mut bytes = [0u8; 8];
        bytes[..group.len()].copy_from_slice(group);
        let x = u64::from_le_bytes(bytes);
        // High bit of each byte: whether its low 7 bits are >= those of the threshold (no
        // borrow crosses bytes, since each minuend byte is at least 0x80).
        let low_ge = ((x | HIGH) - low_t) & HIGH;
        let ge = if threshold & 0x80 == 0 {
            (x & HIGH) | low_ge
        } else {
            x & low_ge
        };
        // Bytes past the end of the chunk were zero and must not count.
        let valid = if group.len() == 8 {
            !0u64
        } else {
            (1u64 << (8 * group.len())) - 1
        };
        let flags = ((ge & valid) >> 7).wrapping_mul(0x0102_0408_1020_4080) >> 56;
        bits |= flags << (8 * j);
    }
    bits
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
    fn solid_bits_compare_every_byte() {
        for t in 0..=255u8 {
            for len in [1usize, 7, 8, 9, 63, 64] {
                let chunk: Vec<u8> = (0..len)
                    .map(|i| (i as u8).wrapping_mul(37).wrapping_add(t))
                    .collect();
                let want = chunk
                    .iter()
                    .enumerate()
                    .fold(0u64, |b, (i, &a)| b | (u64::from(a >= t) << i));
                assert_eq!(solid_bits(&chunk, t), want, "threshold {t}, {chunk:?}");
            }
        }
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
                let (x0, y0) = (next() % 300 - 150, next() % 100 - 50);
                PixelRect {
                    x0,
                    y0,
                    x1: x0 + 1 + next() % 200,
                    // Tall enough for whole 32-row blocks of the counting loop.
                    y1: y0 + 1 + next() % 150,
                }
            };
            let (ra, rb) = (rect(), rect());
            let window = rect().intersect(&PixelRect {
                x0: -400,
                y0: -250,
                x1: 400,
                y1: 250,
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
            let portable = ma.overlap_compiled_for(Instructions::Portable, (0, 0), &mb, (0, 0), window);
            assert_eq!(portable, want, "portable: {ra:?} {rb:?} {window:?}");
        }
    }
}
