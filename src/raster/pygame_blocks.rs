//! A `rotozoom` source's 2 x 2 blocks of texels, each with its least and greatest alpha
//! and its four alphas, in one table: what the kernel ([`super::pygame_bits`]) reads for a
//! pixel whose step falls in the block.
//!
//! SDL_gfx's blend of a block never leaves its least and greatest alpha, so a block all
//! on one side of the threshold decides its pixels from the range alone. A block that
//! straddles the threshold is blended, from the four alphas kept beside the range: one
//! read gives the kernel everything an inner block's pixel needs, whereas reading the
//! alpha again took four reads and an out-of-line call (about 70 instructions a pixel).

/// Blocks kept past each side of a bitmap's blocks: the border's own (clamped, as SDL_gfx
/// clamps them), then one more, clear.
pub(crate) const BLOCK_PAD: i64 = 2;

/// Block `(b, c)`: texels `b`, `b + 1` of rows `c`, `c + 1`, clamped into the bitmap.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct Block {
    /// The least and greatest of the four alphas.
    pub least: u8,
    pub greatest: u8,
    /// The alphas of texels `(b, c)`, `(b + 1, c)`, `(b, c + 1)`, `(b + 1, c + 1)` (as
    /// stored: unflipped), each clamped into the bitmap.
    pub quad: [u8; 4],
}

/// The blocks of a `w` x `h` bitmap's alpha (row-major), for `-2 <= b <= w` and
/// `-2 <= c <= h`: row-major, block `(b, c)` at `(c + 2) (w + 3) + b + 2`. The blocks
/// past the border's (`b` or `c` of -2, or the side) are clear.
pub(crate) fn blocks(alpha: &[u8], (w, h): (u32, u32)) -> Box<[Block]> {
    let (w, h) = (i64::from(w), i64::from(h));
    (-BLOCK_PAD..h + BLOCK_PAD - 1)
        .flat_map(|c| (-BLOCK_PAD..w + BLOCK_PAD - 1).map(move |b| (b, c)))
        .map(|(b, c)| clamped_block(alpha, (w, h), (b, c)))
        .collect()
}

/// Makes the blocks that read a texel of `[u0, u1) x [v0, v1)` again from `alpha` (the
/// whole bitmap's, after an edit of that rectangle), the border's clamped ones included.
pub(crate) fn patch(blocks: &mut [Block], alpha: &[u8], (w, h): (u32, u32), [u0, v0, u1, v1]: [u32; 4]) {
    let (w, h) = (i64::from(w), i64::from(h));
    for c in i64::from(v0) - 1..i64::from(v1) {
        for b in i64::from(u0) - 1..i64::from(u1) {
            let k = (c + BLOCK_PAD) * (w + 2 * BLOCK_PAD - 1) + b + BLOCK_PAD;
            blocks[k as usize] = clamped_block(alpha, (w, h), (b, c));
        }
    }
}

/// Block `(b, c)` of a `w` x `h` bitmap: its texels clamped into the bitmap for
/// `-1 <= b < w`, `-1 <= c < h`, else clear.
fn clamped_block(alpha: &[u8], (w, h): (i64, i64), (b, c): (i64, i64)) -> Block {
    if b < -1 || c < -1 || b >= w || c >= h {
        return Block::default();
    }
    let at = |u: i64, v: i64| alpha[(v.clamp(0, h - 1) * w + u.clamp(0, w - 1)) as usize];
    let quad = [at(b, c), at(b + 1, c), at(b, c + 1), at(b + 1, c + 1)];
    Block {
        least: quad.into_iter().min().unwrap_or(0),
        greatest: quad.into_iter().max().unwrap_or(0),
        quad,
    }
}
