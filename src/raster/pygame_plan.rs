//! A pygame transform of one bitmap, set up once: the output size and the fixed-point
//! constants pygame derives from the angle, scale and source size (semantics.md 4.9). Rows
//! of the output are then computed anywhere, alone, with no surface built.

use super::pygame_rotate::{Rotate, Turn};
use super::pygame_rotozoom::{Rotozoom, Zoom};
use super::pygame_texels::{Steps, Texels, sample_row};
use crate::geom::renderer::{PYGAME_MAX_ANGLE, PYGAME_MAX_SCALE, PYGAME_MAX_SIDE, PygameOp, PygameTransform};
use crate::{Bitmap, Error, Result};

/// Which of pygame's code paths draws the surface.
#[derive(Clone, Copy, Debug)]
enum Path {
    /// Nothing (an empty source, or `rotozoom` at scale 0).
    Empty,
    /// `rotate` by a multiple of 90 degrees: a copy turned this many quarter turns.
    Turn(Turn),
    /// `rotate` by any other angle: nearest texel in 16.16 fixed point.
    Rotate(Rotate),
    /// `rotozoom` with |angle| > 0.001: SDL_gfx's bilinear rotozoomer.
    Rotozoom(Rotozoom),
    /// `rotozoom` with |angle| <= 0.001: SDL_gfx's bilinear zoomer.
    Zoom(Zoom),
}

/// What runs for a plan's code path, with that path's steps ([`PygamePlan::on_steps`]).
pub(crate) trait OnSteps {
    type Output;
    fn on<S: Steps>(self, steps: &S) -> Self::Output;
}

/// One transform of one source size, ready to give rows.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PygamePlan {
    src_w: u32,
    src_h: u32,
    flip_x: bool,
    flip_y: bool,
    out_w: u32,
    out_h: u32,
    path: Path,
}

/// The plan of `t` for a `width` x `height` source; the caller has checked the ranges
/// (`PygameTransform::check`), so pygame's int arithmetic cannot overflow.
pub(crate) fn pygame_plan(t: &PygameTransform, width: u32, height: u32) -> PygamePlan {
    let (w, h) = (
        i32::try_from(width).unwrap_or(0),
        i32::try_from(height).unwrap_or(0),
    );
    let path = if w < 1 || h < 1 {
        Path::Empty
    } else {
        match t.op {
            PygameOp::Rotate => Rotate::plan(t.angle, w, h),
            PygameOp::Rotozoom => {
                if t.scale == 0.0 {
                    Path::Empty
                } else {
                    Rotozoom::plan(t.angle, t.scale, w, h)
                }
            }
        }
    };
    let (out_w, out_h) = match path {
        Path::Empty => (0, 0),
        Path::Turn(turn) => turn.size(w, h),
        Path::Rotate(r) => r.size(),
        Path::Rotozoom(r) => r.size(),
        Path::Zoom(z) => z.size(),
    };
    PygamePlan {
        src_w: width,
        src_h: height,
        flip_x: t.flip_x,
        flip_y: t.flip_y,
        out_w: u32::try_from(out_w).unwrap_or(0),
        out_h: u32::try_from(out_h).unwrap_or(0),
        path,
    }
}

impl Rotate {
    fn plan(angle: f32, w: i32, h: i32) -> Path {
        match Turn::of(angle, w, h) {
            Some(turn) => Path::Turn(turn),
            None => Path::Rotate(Rotate::new(angle, w, h)),
        }
    }
}

impl Rotozoom {
    fn plan(angle: f32, scale: f32, w: i32, h: i32) -> Path {
        if f64::from(angle).abs() > super::pygame_rotozoom::ANGLE_LIMIT {
            Path::Rotozoom(Rotozoom::new(angle, scale, w, h))
        } else {
            Path::Zoom(Zoom::new(scale, w, h))
        }
    }
}

impl PygamePlan {
    /// The size of the surface pygame returns.
    pub(crate) fn size(&self) -> (u32, u32) {
        (self.out_w, self.out_h)
    }

    /// The source's size, in texels.
    pub(crate) fn source_size(&self) -> (u32, u32) {
        (self.src_w, self.src_h)
    }

    /// Whether the source is flipped across and down before the transform.
    pub(crate) fn flips(&self) -> (bool, bool) {
        (self.flip_x, self.flip_y)
    }

    /// `run` on the steps of the plan's code path; `None` when it draws nothing.
    pub(crate) fn on_steps<R: OnSteps>(&self, run: R) -> Option<R::Output> {
        match self.path {
            Path::Empty => None,
            Path::Turn(turn) => Some(run.on(&turn)),
            Path::Rotate(r) => Some(run.on(&r)),
            Path::Rotozoom(r) => Some(run.on(&r)),
            Path::Zoom(z) => Some(run.on(&z)),
        }
    }

    /// The source `(bytes, texel, row)` (as [`PygamePlan::alpha_row`] takes it) as the
    /// transform reads it, flipped.
    pub(crate) fn texels<'s>(&self, source: (&'s [u8], usize, usize)) -> Texels<'s> {
        let size = (self.src_w as usize, self.src_h as usize);
        Texels::new(source, size, (self.flip_x, self.flip_y))
    }

    /// Alpha of output pixels `x0 ..` of row `y` into `out` (0 outside the surface). The
    /// source is `(bytes, texel, row)`: its bytes from its top-left texel on, `texel` bytes
    /// a texel with alpha last (4 for RGBA, 1 for an alpha plane), rows `row` texels apart
    /// (a region of a larger image is read in place).
    pub(crate) fn alpha_row(
        &self,
        (bytes, texel, row): (&[u8], usize, usize),
        y: i64,
        x0: i64,
        out: &mut [u8],
    ) {
        out.fill(0);
        let len = i64::try_from(out.len()).unwrap_or(i64::MAX);
        if y < 0 || y >= i64::from(self.out_h) {
            return;
        }
        let lo = x0.max(0);
        let hi = x0.saturating_add(len).min(i64::from(self.out_w));
        if lo >= hi {
            return;
        }
        let texels = self.texels((bytes, texel, row));
        // Inside the surface every coordinate fits in i32 (sides are at most 16384).
        let (yi, loi) = (y as i32, lo as i32);
        let slot = &mut out[(lo - x0) as usize..(hi - x0) as usize];
        match self.path {
            Path::Empty => {}
            Path::Turn(turn) => sample_row(&turn, &texels, yi, loi, slot),
            Path::Rotate(r) => sample_row(&r, &texels, yi, loi, slot),
            Path::Rotozoom(r) => sample_row(&r, &texels, yi, loi, slot),
            Path::Zoom(z) => sample_row(&z, &texels, yi, loi, slot),
        }
    }
}

impl PygamePlan {
    /// An affine map taking the source bitmap's texel space to the surface's pixels, and a
    /// reach in texels, such that every non-zero pixel's square holds the image of a point
    /// within that reach (each axis) of a texel of alpha above 0: the near-miss test maps
    /// the bitmap's texel hull by it and widens it by the reach. `rotate` reads one texel
    /// (reach 0), `rotozoom` blends a texel with its neighbours (reach 1). `None` where the
    /// walk is not affine (it could wrap) or reads one texel for every pixel.
    pub(crate) fn texels_to_pixels(&self) -> Option<(glam::DAffine2, f64)> {
        let (w, h) = (f64::from(self.src_w), f64::from(self.src_h));
        let (turned, reach) = match self.path {
            Path::Turn(turn) => (turn.texels_to_pixels(w, h), 0.0),
            Path::Rotate(r) => (r.texels_to_pixels()?, 0.0),
            Path::Rotozoom(r) => (r.texels_to_pixels()?, 1.0),
            Path::Zoom(z) => (z.texels_to_pixels()?, 1.0),
            Path::Empty => return None,
        };
        // The source's texel space to the flipped source's (its own inverse).
        let flip = glam::DAffine2::from_cols(
            glam::DVec2::new(if self.flip_x { -1.0 } else { 1.0 }, 0.0),
            glam::DVec2::new(0.0, if self.flip_y { -1.0 } else { 1.0 }),
            glam::DVec2::new(
                if self.flip_x { w } else { 0.0 },
                if self.flip_y { h } else { 0.0 },
            ),
        );
        Some((turned * flip, reach))
    }
}

/// Sizes and rows of pygame's pictures (the public half of the plan).
impl PygameTransform {
    /// Checks that pygame's arithmetic is defined for this transform of a `width` x `height`
    /// source (finite angle and scale within [`PYGAME_MAX_ANGLE`] and [`PYGAME_MAX_SCALE`],
    /// sides within [`PYGAME_MAX_SIDE`]).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] naming the value that is out of range.
    pub fn check(&self, width: u32, height: u32) -> Result<()> {
        self.checked_plan(width, height).map(|_| ())
    }

    /// The plan for a `width` x `height` source, after the checks of
    /// [`PygameTransform::check`] (one plan for the check, the size and the rest).
    pub(crate) fn checked_plan(&self, width: u32, height: u32) -> Result<PygamePlan> {
        let bad = |what: &str, value: f64, range: &'static str| {
            Err(Error::OutOfRange {
                what: format!("pygame transform's {what}"),
                value,
                range,
            })
        };
        if !self.angle.is_finite() || self.angle.abs() > PYGAME_MAX_ANGLE {
            return bad("angle", f64::from(self.angle), "-1000000..=1000000");
        }
        if !self.scale.is_finite() || self.scale.abs() > PYGAME_MAX_SCALE {
            return bad("scale", f64::from(self.scale), "-64..=64");
        }
        if width > PYGAME_MAX_SIDE || height > PYGAME_MAX_SIDE {
            return bad("source side", f64::from(width.max(height)), "0..=16384");
        }
        let plan = pygame_plan(self, width, height);
        let (w, h) = plan.size();
        if w > PYGAME_MAX_SIDE || h > PYGAME_MAX_SIDE {
            return bad("output side", f64::from(w.max(h)), "0..=16384");
        }
        Ok(plan)
    }

    /// The size of the surface pygame returns for a `width` x `height` source, exactly as
    /// pygame computes it. 0 x 0 when the angle, the scale or a source side is outside what
    /// [`PygameTransform::check`] takes (pygame's arithmetic is not defined there). An
    /// output side past [`PYGAME_MAX_SIDE`], which `check` refuses too, is given as
    /// computed: the caller sees how large the surface would be.
    ///
    /// ```
    /// use pixelhit::{PYGAME_MAX_SIDE, PygameTransform};
    /// assert_eq!(PygameTransform::rotate(90.0).output_size(30, 20), (20, 30));
    /// assert_eq!(PygameTransform::rotate(f64::NAN).output_size(30, 20), (0, 0));
    /// // 64 times 300 texels: refused by `check`, yet its size is given.
    /// let zoom = PygameTransform::rotozoom(0.0, 64.0);
    /// let (w, h) = zoom.output_size(300, 1);
    /// assert!(w > PYGAME_MAX_SIDE && h == 64);
    /// assert!(zoom.check(300, 1).is_err());
    /// ```
    #[must_use]
    pub fn output_size(&self, width: u32, height: u32) -> (u32, u32) {
        if !self.angle.is_finite()
            || self.angle.abs() > PYGAME_MAX_ANGLE
            || !self.scale.is_finite()
            || self.scale.abs() > PYGAME_MAX_SCALE
            || width > PYGAME_MAX_SIDE
            || height > PYGAME_MAX_SIDE
        {
            return (0, 0);
        }
        pygame_plan(self, width, height).size()
    }

    /// Alpha of pixels `x0 .. x0 + out.len()` of row `y` of the surface pygame returns for
    /// `bitmap` (the bitmap's alpha read as the source surface's), 0 outside that surface,
    /// computed without building it.
    ///
    /// # Errors
    ///
    /// As [`PygameTransform::check`].
    ///
    /// ```
    /// use pixelhit::{Bitmap, PygameTransform};
    /// let b = Bitmap::from_rgba8(2, 1, vec![0, 0, 0, 10, 0, 0, 0, 20]).unwrap();
    /// let mut row = [0u8; 3];
    /// PygameTransform::rotate(90.0).alpha_row(&b, 0, -1, &mut row).unwrap();
    /// assert_eq!(row, [0, 20, 0]);
    /// ```
    pub fn alpha_row(&self, bitmap: &Bitmap, y: i64, x0: i64, out: &mut [u8]) -> Result<()> {
        self.check(bitmap.width(), bitmap.height())?;
        let (rgba, stride) = bitmap.strided();
        self.plan(bitmap).alpha_row((rgba, 4, stride), y, x0, out);
        Ok(())
    }

    /// The fixed-point plan for this bitmap (set up once, then any rows).
    pub(crate) fn plan(&self, bitmap: &Bitmap) -> PygamePlan {
        pygame_plan(self, bitmap.width(), bitmap.height())
    }
}
