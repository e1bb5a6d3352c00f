//! What pygame's transforms read and share: the flipped source's alpha, the rotating
//! steppers' fixed-point walk, and C's `MAX` of four `fabs` in the size computations.

/// The source's alpha as the transform reads it: after `flip`, texel (i, j).
#[derive(Clone, Copy)]
pub(crate) struct Texels<'a, T = u8> {
    bytes: &'a [T],
    /// The byte of flipped texel (0, 0)'s alpha, and the bytes from a texel to the next one
    /// across and down (negative where flipped): a read is one multiply-add, no branch.
    origin: usize,
    across: isize,
    down: isize,
}

impl<T: Copy> Texels<'_, T> {
    /// The source's bytes from its top-left texel on: `texel` bytes a texel, alpha last
    /// (RGBA, or an alpha plane), rows `row` texels apart (a region of a larger image reads
    /// it in place); `w` x `h` texels, flipped as pygame's `flip` is asked to.
    pub(crate) fn new(
        (bytes, texel, row): (&[T], usize, usize),
        (w, h): (usize, usize),
        (flip_x, flip_y): (bool, bool),
    ) -> Texels<'_, T> {
        let (step_x, step_y) = (texel, row * texel);
        let x0 = if flip_x { w.saturating_sub(1) } else { 0 };
        let y0 = if flip_y { h.saturating_sub(1) } else { 0 };
        // Sides are at most 16384 texels (`PYGAME_MAX_SIDE`), so these fit an isize.
        let signed = |step: usize, flipped: bool| {
            let s = isize::try_from(step).unwrap_or(0);
            if flipped { -s } else { s }
        };
        Texels {
            bytes,
            origin: y0 * step_y + x0 * step_x + texel - 1,
            across: signed(step_x, flip_x),
            down: signed(step_y, flip_y),
        }
    }

    /// Element (i, j) of the flipped grid (its last one when a texel is several: the
    /// alpha); `None` outside the elements.
    #[inline(always)]
    pub(crate) fn element(&self, i: usize, j: usize) -> Option<T> {
        let offset = (i as isize)
            .wrapping_mul(self.across)
            .wrapping_add((j as isize).wrapping_mul(self.down));
        self.bytes.get(self.origin.wrapping_add_signed(offset)).copied()
    }
}

impl Texels<'_> {
    /// Alpha of texel (i, j) of the flipped source; the caller keeps (i, j) inside.
    #[inline(always)]
    pub(crate) fn at(&self, i: usize, j: usize) -> u8 {
        self.element(i, j).unwrap_or(0)
    }

    /// Alphas of texels (i, j), (i + 1, j), (i, j + 1) and (i + 1, j + 1) of the flipped
    /// source, as [`Texels::at`] reads them one by one (a blend's four, from one offset);
    /// the caller keeps all four inside.
    #[inline(always)]
    pub(crate) fn quad(&self, i: usize, j: usize) -> [u8; 4] {
        let offset = (i as isize)
            .wrapping_mul(self.across)
            .wrapping_add((j as isize).wrapping_mul(self.down));
        let first = self.origin.wrapping_add_signed(offset);
        let get = |step: isize| {
            self.bytes
                .get(first.wrapping_add_signed(step))
                .copied()
                .unwrap_or(0)
        };
        [
            get(0),
            get(self.across),
            get(self.down),
            get(self.across + self.down),
        ]
    }
}

/// A pygame code path seen as what it steps: pixel `x0 + k` of row `y` of the surface is
/// drawn from the step `start + k * step` (16.16 texel coordinates of the flipped source),
/// where that step is among the ones the path writes. The plain rows ([`sample_row`]) and
/// the solid-bits kernel (`raster::pygame_bits`) both read the surface through this, so the
/// fixed point is written once.
pub(crate) trait Steps {
    /// Whether the steps are C `int`s added with wrapping (`rotate`, the rotozoomer); the
    /// zoomer's are exact.
    const WRAPS: bool;
    /// How many texels past a texel box's low side a step can be and still read a texel of
    /// the box: 0 for nearest texels, 1 for bilinear blends (columns `dx` and `dx + 1`).
    const REACH: i64;
    /// The step of pixel `x0` of row `y`, and the step from a pixel to the next.
    fn row_steps(&self, y: i32, x0: i32) -> ((i64, i64), (i64, i64));
    /// The steps where the path writes a pixel, `[u0, u1, v0, v1]` half-open; the others
    /// stay transparent.
    fn written(&self) -> [i64; 4];
    /// The alpha drawn from step `p` (one of the written ones).
    fn value(&self, texels: &Texels<'_>, p: (i64, i64)) -> u8;
    /// Whether every pixel of the surface steps to an affine function of its (x, y),
    /// exactly: no step wraps.
    fn affine(&self) -> bool;
}

/// Output pixels `x0 ..` of row `y` (all inside the surface) of the path `s`, stepped as
/// pygame steps (wrapping C `int`s where it does).
pub(crate) fn sample_row<S: Steps>(s: &S, texels: &Texels<'_>, y: i32, x0: i32, out: &mut [u8]) {
    let ((mut u, mut v), (du, dv)) = s.row_steps(y, x0);
    let [u0, u1, v0, v1] = s.written();
    for o in out.iter_mut() {
        if u >= u0 && u < u1 && v >= v0 && v < v1 {
            *o = s.value(texels, (u, v));
        }
        (u, v) = if S::WRAPS {
            (wrapping_step(u, du), wrapping_step(v, dv))
        } else {
            (u + du, v + dv)
        };
    }
}

/// `a + d` as C adds two `int`s (both are `int`s widened).
#[inline]
#[allow(clippy::cast_possible_truncation)]
fn wrapping_step(a: i64, d: i64) -> i64 {
    i64::from((a as i32).wrapping_add(d as i32))
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
        if !self.affine(w, h) {
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

    /// Whether no step over a `w` x `h` surface can wrap: then pixel (x, y) steps to
    /// exactly `start(0, 0) + x (icos, isin) + y (-isin, icos)`.
    pub(crate) fn affine(&self, w: i32, h: i32) -> bool {
        let reach = |base: i32, along: i32, across: i32| {
            i64::from(base).abs()
                + i64::from(along).abs() * (i64::from(self.cy).abs() + i64::from(h))
                + i64::from(across).abs() * i64::from(w)
        };
        reach(self.base_x, self.isin, self.icos) < 1 << 30
            && reach(self.base_y, self.icos, self.isin) < 1 << 30
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

    /// [`Steps::row_steps`] of a walk: the step at pixel `x0` of row `y`, and the step
    /// from one pixel to the next.
    pub(crate) fn row_steps(&self, y: i32, x0: i32) -> ((i64, i64), (i64, i64)) {
        let (dx, dy) = self.start(y, x0);
        (
            (i64::from(dx), i64::from(dy)),
            (i64::from(self.icos), i64::from(self.isin)),
        )
    }
}
