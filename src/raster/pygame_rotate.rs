//! `pygame.transform.rotate` (transform.c, identical in pygame 2.6.1 and pygame-ce 2.5.8):
//! a quarter-turn copy when `fmod(angle, 90) == 0`, else nearest texels stepped in 16.16
//! fixed point in C `int`s (wrapping, as the compiled code does), with the background
//! (pixels whose step falls outside the source) filled with the colour key or transparent.

use super::pygame_texels::{Steps, Texels, Walk, max4};

/// The degrees-to-radians constant as transform.c writes it (one ulp from `PI / 180`).
#[allow(clippy::excessive_precision, clippy::unreadable_literal)]
const RADIANS_PER_DEGREE: f64 = 0.01745329251994329;

/// A rotation by a multiple of 90 degrees of a `w` x `h` source: quarter turns
/// counter-clockwise, 0 to 3.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Turn {
    turns: u8,
    w: i32,
    h: i32,
}

impl Turn {
    /// The turn pygame takes for `angle` on a `w` x `h` source, when it takes the
    /// quarter-turn path.
    pub(crate) fn of(angle: f32, w: i32, h: i32) -> Option<Turn> {
        if !whole_multiple_of_90(f64::from(angle)) {
            return None;
        }
        // rotate90's `(angle / 90) % 4` on `(int)angle`; the angle is bounded, so the
        // conversion is exact.
        #[allow(clippy::cast_possible_truncation)]
        let turns = ((angle as i32) / 90) % 4;
        let turns = u8::try_from(turns.rem_euclid(4)).unwrap_or(0);
        Some(Turn { turns, w, h })
    }

    pub(crate) fn size(self, w: i32, h: i32) -> (i32, i32) {
        if self.turns.is_multiple_of(2) {
            (w, h)
        } else {
            (h, w)
        }
    }

    /// The map from the (flipped) source's texel space (`w` x `h`) to the surface's pixels
    /// that takes each texel's centre to the centre of the pixel that copies it (`row`'s
    /// table, solved for (x, y)).
    pub(crate) fn texels_to_pixels(self, w: f64, h: f64) -> glam::DAffine2 {
        let (x_axis, y_axis, t) = match self.turns {
            0 => ((1.0, 0.0), (0.0, 1.0), (0.0, 0.0)),
            // u = w - Y, v = X: X = v, Y = w - u.
            1 => ((0.0, -1.0), (1.0, 0.0), (0.0, w)),
            // u = w - X, v = h - Y.
            2 => ((-1.0, 0.0), (0.0, -1.0), (w, h)),
            // u = Y, v = h - X: X = h - v, Y = u.
            _ => ((0.0, 1.0), (-1.0, 0.0), (h, 0.0)),
        };
        let v = |(a, b): (f64, f64)| glam::DVec2::new(a, b);
        glam::DAffine2::from_cols(v(x_axis), v(y_axis), v(t))
    }
}

/// Every pixel copies a texel: destination (x, y) reads the texel rotate90's pointer walks
/// reach, so a row walks a column or a row of the source, one texel a pixel.
impl Steps for Turn {
    const WRAPS: bool = false;
    const REACH: i64 = 0;

    fn row_steps(&self, y: i32, x0: i32) -> ((i64, i64), (i64, i64)) {
        let (x, y, w, h) = (i64::from(x0), i64::from(y), i64::from(self.w), i64::from(self.h));
        let ((i, j), (di, dj)) = match self.turns {
            0 => ((x, y), (1, 0)),
            1 => ((w - 1 - y, x), (0, 1)),
            2 => ((w - 1 - x, h - 1 - y), (-1, 0)),
            _ => ((y, h - 1 - x), (0, -1)),
        };
        ((i << 16, j << 16), (di << 16, dj << 16))
    }

    fn written(&self) -> [i64; 4] {
        [0, i64::from(self.w) << 16, 0, i64::from(self.h) << 16]
    }

    fn affine(&self) -> bool {
        true
    }

    #[inline]
    fn value(&self, texels: &Texels<'_>, (u, v): (i64, i64)) -> u8 {
        texels.at((u >> 16) as usize, (v >> 16) as usize)
    }
}

/// transform.c's `fmod(angle, 90) == 0`: whether `a` is a whole multiple of 90, exactly.
/// Below 2^62 in size that is one conversion and an integer remainder (libm's `fmod` took
/// about 100 instructions, once or more for every pose of a turning sprite); anything
/// else (huge, infinite or not a number) asks `fmod` itself.
fn whole_multiple_of_90(a: f64) -> bool {
    if a.abs() < 4_611_686_018_427_387_904.0 {
        #[allow(clippy::cast_possible_truncation)]
        let whole = a as i64;
        #[allow(clippy::cast_precision_loss)]
        return whole as f64 == a && whole % 90 == 0;
    }
    a % 90.0 == 0.0
}

/// A rotation by any other angle: transform.c's `rotate`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rotate {
    out_w: i32,
    out_h: i32,
    walk: Walk,
    xmax: i32,
    ymax: i32,
}

impl Rotate {
    /// pygame's size and constants for rotating a `w` x `h` source by `angle`.
    #[allow(clippy::cast_possible_truncation)]
    pub(crate) fn new(angle: f32, w: i32, h: i32) -> Rotate {
        let rad = f64::from(angle) * RADIANS_PER_DEGREE;
        let (s, c) = (rad.sin(), rad.cos());
        let (x, y) = (f64::from(w), f64::from(h));
        let (cx, cy, sx, sy) = (c * x, c * y, s * x, s * y);
        let out_w = max4(cx + sy, cx - sy, -cx + sy, -cx - sy) as i32;
        let out_h = max4(sx + cy, sx - cy, -sx + cy, -sx - cy) as i32;
        let isin = (s * 65536.0) as i32;
        let icos = (c * 65536.0) as i32;
        // `(long long)dst->w - 1 << 15` times the double, truncated to int.
        let span = ((i64::from(out_w) - 1) << 15) as f64;
        let ax = (out_w << 15).wrapping_sub((c * span) as i32);
        let ay = (out_h << 15).wrapping_sub((s * span) as i32);
        let xd = (w - out_w).wrapping_mul(1 << 15);
        let yd = (h - out_h).wrapping_mul(1 << 15);
        Rotate {
            out_w,
            out_h,
            walk: Walk {
                isin,
                icos,
                base_x: ax.wrapping_add(xd),
                base_y: ay.wrapping_add(yd),
                cy: out_h / 2,
            },
            xmax: (w << 16) - 1,
            ymax: (h << 16) - 1,
        }
    }

    pub(crate) fn size(&self) -> (i32, i32) {
        (self.out_w, self.out_h)
    }

    /// The map from the (flipped) source's texel space to the surface's pixels under which
    /// pixel (x, y)'s corner is the image of a point of the texel it copies.
    pub(crate) fn texels_to_pixels(&self) -> Option<glam::DAffine2> {
        self.walk.undone(self.out_w, self.out_h)
    }
}

/// Nearest texels: the step's whole part, where it falls inside the source (elsewhere the
/// background stays).
impl Steps for Rotate {
    const WRAPS: bool = true;
    const REACH: i64 = 0;

    fn row_steps(&self, y: i32, x0: i32) -> ((i64, i64), (i64, i64)) {
        self.walk.row_steps(y, x0)
    }

    fn affine(&self) -> bool {
        self.walk.affine(self.out_w, self.out_h)
    }

    fn written(&self) -> [i64; 4] {
        // `dx >= 0 && dx <= xmax`, likewise dy.
        [0, i64::from(self.xmax) + 1, 0, i64::from(self.ymax) + 1]
    }

    #[inline]
    fn value(&self, texels: &Texels<'_>, (u, v): (i64, i64)) -> u8 {
        texels.at((u >> 16) as usize, (v >> 16) as usize)
    }
}

#[cfg(test)]
mod tests {
    use super::whole_multiple_of_90;

    /// The integer test gives `fmod`'s answer for angles at, near and between multiples of
    /// 90 (f32 angles as pygame parses them, and f64 values around them), huge, infinite
    /// and not numbers.
    #[test]
    fn whole_multiples_of_90_are_fmods() {
        let mut rng = super::super::test_rng::Rng(0x5eed_0090);
        let mut angles = vec![
            0.0,
            -0.0,
            90.0,
            -90.0,
            1e6,
            -1e6,
            4_611_686_018_427_387_904.0,
            9.223_372_036_854_776e18,
            -9.223_372_036_854_776e18,
            1e300,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::INFINITY,
            f64::NEG_INFINITY,
            f64::NAN,
        ];
        for _ in 0..20_000 {
            let k = rng.below(2_000_000) - 1_000_000;
            let near = (k * 90) as f64;
            let f = |x: f64| f64::from(x as f32);
            angles.extend([
                near,
                f(near + 1e-3),
                f(near - 0.5),
                near + 1e-9,
                f64::from_bits(near.to_bits() + 1),
                rng.below(1 << 40) as f64 / 1024.0 - 5e8,
                (rng.below(1 << 20) as f64) * 2f64.powi(rng.below(80) as i32),
            ]);
        }
        let mut whole = 0;
        for a in angles {
            let want = a % 90.0 == 0.0;
            assert_eq!(whole_multiple_of_90(a), want, "{a:e}");
            whole += usize::from(want);
        }
        assert!(whole > 20_000, "{whole} multiples");
    }
}
