//! A `rotozoom` source's 2 x 2 blocks of texels: each one's least and greatest alpha, and
//! its four alphas, in two tables read at the same index: what the kernel
//! ([`super::pygame_bits`]) reads for a pixel whose step falls in the block.
//!
//! SDL_gfx's blend of a block never leaves its least and greatest alpha, so a block all
//! on one side of the threshold decides its pixels from the range alone (two bytes a
//! block: the table most pixels read stays small). A block that straddles the threshold is
//! blended from the four alphas kept in the second table: one more read, where reading the
//! alpha again took four reads and an out-of-line call (about 70 instructions a pixel).

/// Blocks kept past each side of a bitmap's blocks: the border's own (clamped, as SDL_gfx
/// clamps them), then one more, clear.
pub(crate) const BLOCK_PAD: i64 = 2;

/// Block `(b, c)` (texels `b`, `b + 1` of rows `c`, `c + 1`, clamped into the bitmap) for
/// `-2 <= b <= w` and `-2 <= c <= h` of a `w` x `h` bitmap, row-major: block `(b, c)` at
/// `(c + 2) (w + 3) + b + 2` in both tables. The blocks past the border's (`b` or `c` of
/// -2, or the side) are clear.
#[derive(Debug, Default)]
pub(crate) struct Blocks {
    /// Each block's least and greatest alpha.
    pub ranges: Box<[[u8; 2]]>,
    /// Each block's alphas of texels `(b, c)`, `(b + 1, c)`, `(b, c + 1)`, `(b + 1, c + 1)`
    /// (as stored: unflipped), each clamped into the bitmap.
    pub quads: Box<[[u8; 4]]>,
}

impl Blocks {
    /// The blocks of a `w` x `h` bitmap's alpha (row-major).
    pub fn new(alpha: &[u8], (w, h): (u32, u32)) -> Blocks {
        let (w, h) = (i64::from(w), i64::from(h));
        let quads: Box<[[u8; 4]]> = (-BLOCK_PAD..h + BLOCK_PAD - 1)
            .flat_map(|c| (-BLOCK_PAD..w + BLOCK_PAD - 1).map(move |b| (b, c)))
            .map(|(b, c)| clamped_quad(alpha, (w, h), (b, c)))
            .collect();
        let ranges = quads.iter().map(range).collect();
        Blocks { ranges, quads }
    }

    /// Whether it holds none (a source not made for `rotozoom`).
    pub fn is_empty(&self) -> bool {
        self.ranges.is_empty()
    }

    /// Bytes of its tables.
    pub fn bytes(&self) -> usize {
        std::mem::size_of_val(&*self.ranges) + std::mem::size_of_val(&*self.quads)
    }

    /// Makes the blocks that read a texel of `[u0, u1) x [v0, v1)` again from `alpha` (the
    /// whole bitmap's, after an edit of that rectangle), the border's clamped ones included.
    pub fn patch(&mut self, alpha: &[u8], (w, h): (u32, u32), [u0, v0, u1, v1]: [u32; 4]) {
        let (w, h) = (i64::from(w), i64::from(h));
        for c in i64::from(v0) - 1..i64::from(v1) {
            for b in i64::from(u0) - 1..i64::from(u1) {
                let k = ((c + BLOCK_PAD) * (w + 2 * BLOCK_PAD - 1) + b + BLOCK_PAD) as usize;
                let quad = clamped_quad(alpha, (w, h), (b, c));
                (self.quads[k], self.ranges[k]) = (quad, range(&quad));
            }
        }
    }
}

/// `[least, greatest]` of a block's four alphas.
fn range(quad: &[u8; 4]) -> [u8; 2] {
    [
        quad.iter().copied().min().unwrap_or(0),
        quad.iter().copied().max().unwrap_or(0),
    ]
}

/// The four alphas of block `(b, c)` of a `w` x `h` bitmap: its texels clamped into the
/// bitmap for `-1 <= b < w`, `-1 <= c < h`, else clear.
fn clamped_quad(alpha: &[u8], (w, h): (i64, i64), (b, c): (i64, i64)) -> [u8; 4] {
    if b < -1 || c < -1 || b >= w || c >= h {
        return [0; 4];
    }
    let at = |u: i64, v: i64| alpha[(v.clamp(0, h - 1) * w + u.clamp(0, w - 1)) as usize];
    [at(b, c), at(b + 1, c), at(b, c + 1), at(b + 1, c + 1)]
}
