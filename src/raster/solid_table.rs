//! A bitmap's solid texels at one threshold as a table of 0s and 1s, padded with 0s to a
//! power of two: what the bitmap kernel's pixel loop reads ([`super::bitmap_bits`]).
//!
//! The loop reads one texel a pixel. From the alphas that is a bounds check and a compare
//! with the threshold besides the read (16 instructions a pixel, counted); from this table
//! the read is the bit itself, and the index, masked to the table's length, needs no
//! bounds check (13). The mask never changes an index the kernel reads (its centres lie
//! inside the bitmap, so their indices are below `width * height`), and any other index
//! would read a padding 0: a clear pixel, never a panic.
//!
//! A bitmap keeps one table, for the first threshold its kernel asks for (a sprite is
//! almost always asked at one); other thresholds read the alphas. Its bytes are counted
//! with the texels from the start ([`SolidTable::bytes_for`]), made or not, so what the
//! cache counts never changes while it holds them. Bitmaps over [`MAX_TEXELS`] keep none.

/// The most texels a bitmap may have for a table (64 KiB of table at most, a 256 px
/// square): sprites, whose poses change every frame. A larger bitmap (a terrain, a
/// backdrop) reads its alphas and is not made heavier in the cache.
pub(crate) const MAX_TEXELS: usize = 1 << 16;

/// The texels of a bitmap whose alpha reaches `threshold` (1) or not (0), row-major, then
/// 0s up to a power of two.
#[derive(Debug, Clone)]
pub(crate) struct SolidTable {
    threshold: u8,
    bits: Box<[u8]>,
}

impl SolidTable {
    /// The table of `alpha` (row-major texels) at `threshold`; `None` above [`MAX_TEXELS`].
    pub fn new(alpha: &[u8], threshold: u8) -> Option<SolidTable> {
        let len = SolidTable::len_for(alpha.len())?;
        let mut bits = vec![0u8; len];
        for (b, &a) in bits.iter_mut().zip(alpha) {
            *b = u8::from(a >= threshold);
        }
        Some(SolidTable {
            threshold,
            bits: bits.into_boxed_slice(),
        })
    }

    /// The table's length for `texels` texels: the next power of two; `None` above
    /// [`MAX_TEXELS`] or for none.
    fn len_for(texels: usize) -> Option<usize> {
        (texels > 0 && texels <= MAX_TEXELS).then(|| texels.next_power_of_two())
    }

    /// The bytes a table of a bitmap of `texels` texels takes (0 when it would keep none).
    pub fn bytes_for(texels: usize) -> usize {
        SolidTable::len_for(texels).unwrap_or(0)
    }

    /// The threshold it was made at.
    pub fn threshold(&self) -> u8 {
        self.threshold
    }

    /// The 0s and 1s, a power of two long: index them `& (len - 1)`.
    pub fn bits(&self) -> &[u8] {
        &self.bits
    }

    /// Made again from `alpha` (the same bitmap's, after an edit) over the texels
    /// `[u0, u1) x [v0, v1)` of a bitmap `width` texels wide.
    pub fn patch(&mut self, alpha: &[u8], width: usize, [u0, v0, u1, v1]: [usize; 4]) {
        let threshold = self.threshold;
        for v in v0..v1 {
            let row = v * width;
            for (b, &a) in self.bits[row + u0..row + u1]
                .iter_mut()
                .zip(&alpha[row + u0..row + u1])
            {
                *b = u8::from(a >= threshold);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::test_rng::Rng;
    use super::{MAX_TEXELS, SolidTable};

    /// Each entry is whether its texel reaches the threshold, every padding entry is 0 and
    /// the length is the next power of two, over 2,000 random bitmaps at random thresholds
    /// (0 and 255 among them); a patched table equals one made from the edited alphas.
    #[test]
    fn entries_are_the_texels_reaching_the_threshold() {
        let mut rng = Rng(0x7ab1_e5d0);
        for k in 0..2000 {
            let (w, h) = (rng.below(40) as usize + 1, rng.below(40) as usize + 1);
            let mut alpha: Vec<u8> = (0..w * h).map(|_| rng.below(256) as u8).collect();
            let threshold = match k % 4 {
                0 => 0,
                1 => 255,
                _ => rng.below(256) as u8,
            };
            let mut table = SolidTable::new(&alpha, threshold).expect("small");
            let check = |table: &SolidTable, alpha: &[u8]| {
                let bits = table.bits();
                assert!(bits.len().is_power_of_two() && bits.len() >= w * h && bits.len() < 2 * w * h + 1);
                for (i, &b) in bits.iter().enumerate() {
                    let want = i < w * h && alpha[i] >= threshold;
                    assert_eq!(b, u8::from(want), "texel {i} of {w} x {h} at {threshold}");
                }
            };
            check(&table, &alpha);
            let (u0, v0) = (rng.below(w as i64) as usize, rng.below(h as i64) as usize);
            let (u1, v1) = (
                u0 + rng.below((w - u0) as i64) as usize + 1,
                v0 + rng.below((h - v0) as i64) as usize + 1,
            );
            for v in v0..v1 {
                for u in u0..u1 {
                    alpha[v * w + u] = rng.below(256) as u8;
                }
            }
            table.patch(&alpha, w, [u0, v0, u1, v1]);
            check(&table, &alpha);
            assert_eq!(table.threshold(), threshold);
        }
        assert!(SolidTable::new(&vec![0; MAX_TEXELS + 1], 1).is_none());
        assert_eq!(SolidTable::bytes_for(MAX_TEXELS + 1), 0);
        assert_eq!(SolidTable::bytes_for(48 * 48), 4096);
    }
}
