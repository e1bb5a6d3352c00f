//! What pygame's transforms read and share: the flipped source's alpha, the rotating
//! steppers' fixed-point walk, and C's `MAX` of four `fabs` in the size computations.

/// The source's alpha as the transform reads it: after `flip`, texel (i, j).
pub(crate) struct Texels<'a> {
    /// The source's bytes from its top-left texel on: `texel` bytes a texel, alpha last
    /// (RGBA, or an alpha plane), rows `row` texels apart (a region of a larger image reads
    /// it in place).
    pub(super) bytes: &'a [u8],
    pub(super) texel: usize,
    pub(super) row: usize,
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
        self.bytes
            .get((y * self.row + x) * self.texel + self.texel - 1)
            .copied()
            .unwrap_or(0)
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
    /// The affine map from the (flipped) source's texel space to the surface's pixels that
    /// undoes the walk: pixel (x, y) steps to `L (x, y) + c` (16.16, so exact in f64), and
    /// (x, y) is `L^-1 (p - c)`. `None` when a step over a `w` x `h` surface could wrap
    /// (then the walk is not affine).
    pub(crate) fn undone(&self, w: i32, h: i32) -> Option<glam::DAffine2> {
        let reach = |base: i32, along: i32, across: i32| {
            i64::from(base).abs()
                + i64::from(along).abs() * (i64::from(self.cy).abs() + i64::from(h))
                + i64::from(across).abs() * i64::from(w)
        };
        if reach(self.base_x, self.isin, self.icos) >= 1 << 30
            || reach(self.base_y, self.icos, self.isin) >= 1 << 30
        {
            return None;
        }
        let one = 65536.0;
        let (s, c) = (f64::from(self.isin) / one, f64::from(self.icos) / one);
        // u = c x - s y + (base_x + isin cy) / 2^16, v = s x + c y + (base_y - icos cy) / 2^16.
        let l = glam::DMat2::from_cols(glam::DVec2::new(c, s), glam::DVec2::new(-s, c));
        let t = glam::DVec2::new(
            (f64::from(self.base_x) + f64::from(self.isin) * f64::from(self.cy)) / one,
            (f64::from(self.base_y) - f64::from(self.icos) * f64::from(self.cy)) / one,
        );
        (l.determinant() != 0.0).then(|| glam::DAffine2::from_mat2_translation(l, t).inverse())
    }

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
