//! Where a bitmap's solid texels are, per threshold: bounds on four directions of texel
//! space (across, down and both diagonals), an octagon around the texels whose alpha
//! reaches the threshold. A pixel centre outside it reads a texel below the threshold.
//!
//! A box around a round sprite holds a fifth more than the sprite (its corners), and
//! turned by 45 degrees its pixels' box is 1.4 times as wide as the sprite; the octagon
//! cuts both to a few per cent. A row's centres in it are still found by a division a
//! bound ([`super::row_steps`]), and a pair's window is cut to its pixels
//! ([`super::bitmap_bits`]). Made with the bitmap's texels and kept with them (8 KiB a
//! bitmap, counted by the cache with the texels).

/// Texels of a bitmap `height` rows high, as bounds on four integer combinations of a
/// texel's column `u` and row `v`: `u`, `v`, `u + v` and `u - v + height - 1` (never
/// negative). `lo[k]` is the least value over the texels, `hi[k]` one past the greatest;
/// empty when `lo[0] >= hi[0]`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Octagon {
    pub lo: [u32; 4],
    pub hi: [u32; 4],
}

/// No texel.
pub(crate) const EMPTY: Octagon = Octagon {
    lo: [u32::MAX; 4],
    hi: [0; 4],
};

impl Octagon {
    /// Whether it holds no texel.
    pub fn is_empty(&self) -> bool {
        self.lo[0] >= self.hi[0]
    }

    /// Grown by the texel `(u, v)` of a bitmap `height` rows high.
    #[inline]
    fn with_texel(self, (u, v): (u32, u32), height: u32) -> Octagon {
        let at = [u, v, u + v, u + (height - 1 - v)];
        Octagon {
            lo: std::array::from_fn(|k| self.lo[k].min(at[k])),
            hi: std::array::from_fn(|k| self.hi[k].max(at[k] + 1)),
        }
    }

    /// The union of the two.
    fn union(self, other: Octagon) -> Octagon {
        Octagon {
            lo: std::array::from_fn(|k| self.lo[k].min(other.lo[k])),
            hi: std::array::from_fn(|k| self.hi[k].max(other.hi[k])),
        }
    }

    /// The box `[u0, v0, u1, v1]` of its texels (half-open).
    pub fn texel_box(&self) -> [u32; 4] {
        [self.lo[0], self.lo[1], self.hi[0], self.hi[1]]
    }

    /// Where the points of its texels' squares can be, in texel units of a bitmap `height`
    /// rows high: `[u0, v0, u1, v1, s0, s1, d0, d1]`, every point `(u, v)` of a square
    /// having `u0 <= u < u1`, `v0 <= v < v1`, `s0 <= u + v < s1` and `d0 <= u - v < d1`.
    /// A texel `(a, b)`'s square `[a, a + 1) x [b, b + 1)` has `a + b <= u + v < a + b + 2`
    /// and `a - b - 1 < u - v < a - b + 1`. Not empty.
    pub fn bounds(&self, height: u32) -> [i64; 8] {
        let [lo, hi] = [self.lo, self.hi].map(|b| b.map(i64::from));
        let h = i64::from(height);
        [
            lo[0],
            lo[1],
            hi[0],
            hi[1],
            lo[2],
            hi[2] + 1,
            lo[3] - h,
            hi[3] - h + 1,
        ]
    }
}

/// Per threshold, the octagon of the texels whose alpha reaches it.
#[derive(Debug)]
pub(crate) struct SolidOutlines {
    by_threshold: Box<[Octagon; 256]>,
}

impl SolidOutlines {
    /// Bytes it holds, whatever the bitmap's size.
    pub const BYTES: usize = std::mem::size_of::<[Octagon; 256]>();

    /// The outlines of a bitmap `width` x `height` (at least 1 x 1) of alphas `alpha`,
    /// row-major.
    pub fn new(width: u32, height: u32, alpha: &[u8]) -> SolidOutlines {
        let mut outlines = SolidOutlines {
            by_threshold: Box::new([EMPTY; 256]),
        };
        outlines.grow(alpha.iter(), [0, 0, width], height);
        outlines
    }

    /// The octagon of the texels whose alpha reaches `threshold` (threshold 0 as 1:
    /// alpha 0 is never solid).
    pub fn at(&self, threshold: u8) -> &Octagon {
        &self.by_threshold[usize::from(threshold)]
    }

    /// Grows each threshold's octagon by the texels `alpha` of a rectangle `width` texels
    /// wide whose top-left texel is `(u0, v0)`, row-major, in a bitmap `height` rows high:
    /// the octagon of each alpha value, then their unions from 255 down. Texels made clear
    /// leave the octagons as they were (a larger octagon is still a bound).
    pub fn grow<'a>(&mut self, alpha: impl Iterator<Item = &'a u8>, [u0, v0, width]: [u32; 3], height: u32) {
        let mut by_value = [EMPTY; 256];
        let width = width.max(1);
        let (mut u, mut v) = (u0, v0);
        for &a in alpha {
            by_value[usize::from(a)] = by_value[usize::from(a)].with_texel((u, v), height);
            u += 1;
            if u == u0 + width {
                (u, v) = (u0, v + 1);
            }
        }
        // Alpha 0 is never solid (thresholds are at least 1).
        by_value[0] = EMPTY;
        let mut above = EMPTY;
        for t in (1..256).rev() {
            above = above.union(by_value[t]);
            self.by_threshold[t] = self.by_threshold[t].union(above);
        }
        self.by_threshold[0] = self.by_threshold[1];
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Rng;
    use super::*;

    /// The bounds hold exactly the texels that reach each threshold: every solid texel's
    /// square is inside, and each of the eight bounds is met by some solid texel's square
    /// (so no bound is looser than it need be), over 2,000 random bitmaps, whole and grown
    /// rectangle by rectangle as an edit grows them.
    #[test]
    fn octagons_are_the_tightest_bounds_of_the_solid_texels() {
        let mut rng = Rng(0x0c7a_9011);
        let mut checked = 0;
        for case in 0..2000 {
            let (w, h) = (rng.below(30) as u32 + 1, rng.below(30) as u32 + 1);
            let sparse = rng.below(4) as u8;
            let alpha: Vec<u8> = (0..w * h)
                .map(|_| match rng.below(4) as u8 <= sparse {
                    true => 0,
                    false => rng.below(256) as u8,
                })
                .collect();
            let outlines = match case % 2 {
                0 => SolidOutlines::new(w, h, &alpha),
                // Grown by two rectangles, the second the rest of the rows.
                _ => {
                    let mut o = SolidOutlines::new(w, h, &vec![0; (w * h) as usize]);
                    let split = rng.below(i64::from(h) + 1) as u32;
                    let (top, bottom) = alpha.split_at((split * w) as usize);
                    o.grow(top.iter(), [0, 0, w], h);
                    o.grow(bottom.iter(), [0, split, w], h);
                    o
                }
            };
            for t in [0u8, 1, 2, 64, 127, 128, 200, 254, 255] {
                let solid: Vec<(i64, i64)> = (0..h)
                    .flat_map(|v| (0..w).map(move |u| (u, v)))
                    .filter(|&(u, v)| alpha[(v * w + u) as usize] >= t.max(1))
                    .map(|(u, v)| (i64::from(u), i64::from(v)))
                    .collect();
                let oct = outlines.at(t);
                assert_eq!(oct.is_empty(), solid.is_empty(), "case {case} t {t}");
                if solid.is_empty() {
                    continue;
                }
                let b = oct.bounds(h);
                // Each square `[u, u + 1) x [v, v + 1)` inside: its least and (open) greatest
                // coordinates within the half-open bounds.
                for &(u, v) in &solid {
                    let (s, d) = (u + v, u - v);
                    assert!(b[0] <= u && u < b[2] && b[1] <= v && v < b[3]);
                    assert!(b[4] <= s && s + 2 <= b[5], "case {case} t {t}");
                    assert!(b[6] < d && d < b[7], "case {case} t {t}");
                }
                let met = |f: &dyn Fn(i64, i64) -> bool| solid.iter().any(|&(u, v)| f(u, v));
                assert!(met(&|u, _| u == b[0]) && met(&|u, _| u + 1 == b[2]));
                assert!(met(&|_, v| v == b[1]) && met(&|_, v| v + 1 == b[3]));
                assert!(met(&|u, v| u + v == b[4]) && met(&|u, v| u + v + 2 == b[5]));
                assert!(met(&|u, v| u - v - 1 == b[6]) && met(&|u, v| u - v + 1 == b[7]));
                checked += 1;
            }
        }
        assert!(checked > 10_000, "{checked}");
    }
}
