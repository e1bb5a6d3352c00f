//! What pygame's transforms read and share: the flipped source's alpha, the rotating
//! steppers' fixed-point walk, and C's `MAX` of four `fabs` in the size computations.

/// The source's alpha as the transform reads it: after `flip`, texel (i, j).
pub(crate) struct Texels<'a> {
    /// The source's bytes from its top-left texel on, rows `stride` texels apart (a region
    /// of a larger image reads it in place).
    pub(super) rgba: &'a [u8],
    pub(super) stride: usize,
    pub(super) w: usize,
    pub(super) h: usize,
    pub(super) flip_x: bool,
    pub(super) flip_y: bool,
}

impl Texels<'_> {
    pub(crate) fn width(&self) -> usize {
        self.w
    }

    pub(crate) fn height(&self) -> usize {
        self.h
    }

    /// Alpha of texel (i, j) of the flipped source; the caller keeps (i, j) inside.
    #[inline]
    pub(crate) fn at(&self, i: usize, j: usize) -> u8 {
        let x = if self.flip_x { self.w - 1 - i } else { i };
        let y = if self.flip_y { self.h - 1 - j } else { j };
        self.rgba.get((y * self.stride + x) * 4 + 3).copied().unwrap_or(0)
    }
}

/// C's `MAX(MAX(MAX(fabs a, fabs b), fabs c), fabs d)`.
pub(crate) fn max4(a: f64, b: f64, c: f64, d: f64) -> f64 {
    a.abs().max(b.abs()).max(c.abs()).max(d.abs())
}

/// The walk `rotate` and SDL_gfx's rotozoomer share: row y starts at
/// `(base_x + isin * (cy - y), base_y - icos * (cy - y))` and each pixel adds
/// `(icos, isin)`, all in C `int`s (wrapping, as the compiled code does).
#[derive(Clone, Copy, Debug)]
pub(crate) struct Walk {
    pub(crate) isin: i32,
    pub(crate) icos: i32,
    /// `ax + xd` and `ay + yd`: the row start before the `cy - y` term.
    pub(crate) base_x: i32,
    pub(crate) base_y: i32,
    pub(crate) cy: i32,
}

impl Walk {
    /// The step at pixel `x0` of row `y`: in wrapping ints, starting there is the same as
    /// stepping `x0` times from the row's start.
    pub(crate) fn start(&self, y: i32, x0: i32) -> (i32, i32) {
        let up = self.cy - y;
        let dx = self.base_x.wrapping_add(self.isin.wrapping_mul(up));
        let dy = self.base_y.wrapping_sub(self.icos.wrapping_mul(up));
        (
            dx.wrapping_add(self.icos.wrapping_mul(x0)),
            dy.wrapping_add(self.isin.wrapping_mul(x0)),
        )
    }
}
