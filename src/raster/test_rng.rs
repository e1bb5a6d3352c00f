//! The random numbers of the raster tests: one xorshift, so that every test that draws
//! random contours or values draws them the same way.

pub(super) struct Rng(pub u64);

impl Rng {
    /// Uniform in `0..n` (`n` above 0).
    pub fn below(&mut self, n: i64) -> i64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 % n as u64) as i64
    }
}
