//! `pygame.transform.rotozoom` (SDL_gfx's rotozoom.c as pygame ships it, the same
//! arithmetic in pygame 2.6.1 and pygame-ce 2.5.8): the source as 32-bit RGBA, rotated and
//! zoomed with bilinear smoothing in 16.16 fixed point, or only zoomed when |angle| <=
//! 0.001. Each channel is interpolated alone, so the alpha needs only the source's alpha.
//! Pixels the rotozoomer does not reach stay as the new surface was made: transparent.

use super::pygame_texels::{Steps, Texels, Walk, max4};

/// SDL_gfx's `VALUE_LIMIT`: smaller angles only zoom, smaller zooms are raised to it.
pub(crate) const ANGLE_LIMIT: f64 = 0.001;

/// SDL_gfx's bilinear blend of one channel, exactly as written (t1 and t2 masked to a
/// byte, shifts arithmetic).
#[inline(always)]
pub(crate) fn blend(c00: u8, c01: u8, c10: u8, c11: u8, ex: i32, ey: i32) -> u8 {
    let (c00, c01, c10, c11) = (i32::from(c00), i32::from(c01), i32::from(c10), i32::from(c11));
    let t1 = ((((c01 - c00) * ex) >> 16) + c00) & 0xff;
    let t2 = ((((c11 - c10) * ex) >> 16) + c10) & 0xff;
    // Stored into a Uint8: the low byte.
    ((((t2 - t1) * ey) >> 16) + t1).to_le_bytes()[0]
}

/// `rotozoomSurface` with |angle| > 0.001: `transformSurfaceRGBA` with `smooth = 1`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Rotozoom {
    out_w: i32,
    out_h: i32,
    walk: Walk,
    /// The source's last column and row (`sw`, `sh`).
    sw: i32,
    sh: i32,
}

impl Rotozoom {
    #[allow(clippy::cast_possible_truncation)]
    pub(crate) fn new(angle: f32, scale: f32, w: i32, h: i32) -> Rotozoom {
        let zoom = f64::from(scale).max(ANGLE_LIMIT);
        let zoominv = 65536.0 / (zoom * zoom);
        // rotozoomSurfaceSizeTrig: `M_PI / 180.0`, then sin and cos times the zoom.
        let rad = f64::from(angle) * (std::f64::consts::PI / 180.0);
        let (s, c) = (rad.sin() * zoom, rad.cos() * zoom);
        // `width / 2` in int before it becomes a double.
        let (x, y) = (f64::from(w / 2), f64::from(h / 2));
        let (cx, cy, sx, sy) = (c * x, c * y, s * x, s * y);
        let half_w = (max4(cx + sy, cx - sy, -cx + sy, -cx - sy).ceil() as i32).max(1);
        let half_h = (max4(sx + cy, sx - cy, -sx + cy, -sx - cy).ceil() as i32).max(1);
        let (out_w, out_h) = (2 * half_w, 2 * half_h);
        let isin = (s * zoominv) as i32;
        let icos = (c * zoominv) as i32;
        // transformSurfaceRGBA(src, dst, cx = half_w, cy = half_h, isin, icos, smooth).
        let xd = (w - out_w).wrapping_mul(1 << 15);
        let yd = (h - out_h).wrapping_mul(1 << 15);
        let ax = (half_w << 16).wrapping_sub(icos.wrapping_mul(half_w));
        let ay = (half_h << 16).wrapping_sub(isin.wrapping_mul(half_w));
        Rotozoom {
            out_w,
            out_h,
            walk: Walk {
                isin,
                icos,
                base_x: ax.wrapping_add(xd),
                base_y: ay.wrapping_add(yd),
                cy: half_h,
            },
            sw: w - 1,
            sh: h - 1,
        }
    }

    pub(crate) fn size(&self) -> (i32, i32) {
        (self.out_w, self.out_h)
    }

    /// As `Rotate::texels_to_pixels`: pixel (x, y) steps to a point p with `floor(p)` =
    /// (dx, dy), and blends texels of columns dx, dx + 1 and rows dy, dy + 1 (clamped), so
    /// a non-zero pixel's p lies within 1 texel (each axis) of a texel of alpha above 0.
    pub(crate) fn texels_to_pixels(&self) -> Option<glam::DAffine2> {
        self.walk.undone(self.out_w, self.out_h)
    }

    /// The four texels transformSurfaceRGBA blends at step (dx, dy), its case ladder in its
    /// order (the edges repeat texels rather than reading outside).
    #[inline(always)]
    fn corners(&self, t: &Texels<'_>, dx: i32, dy: i32) -> [u8; 4] {
        if dx >= 0 && dy >= 0 && dx < self.sw && dy < self.sh {
            t.quad(dx as usize, dy as usize)
        } else {
            self.edge_corners(t, dx, dy)
        }
    }

    /// The rest of the ladder, in its order: steps on the source's border or one texel
    /// outside it (few of a surface's pixels, so kept out of the inner loop).
    #[cold]
    #[inline(never)]
    fn edge_corners(&self, t: &Texels<'_>, dx: i32, dy: i32) -> [u8; 4] {
        let (sw, sh) = (self.sw, self.sh);
        let at = |i: i32, j: i32| t.at(i as usize, j as usize);
        let one = |a: u8| [a, a, a, a];
        if dx == sw && dy == sh {
            one(at(dx, dy))
        } else if dx == -1 && dy == -1 {
            one(at(0, 0))
        } else if dx == -1 && dy == sh {
            one(at(0, dy))
        } else if dx == sw && dy == -1 {
            one(at(dx, 0))
        } else if dx == -1 {
            let a = at(0, dy);
            [a, a, a, at(0, dy + 1)]
        } else if dy == -1 {
            let a = at(dx, 0);
            [a, a, a, at(dx + 1, 0)]
        } else if dx == sw {
            let (a, b) = (at(dx, dy), at(dx, dy + 1));
            [a, a, b, b]
        } else if dy == sh {
            let b = at(dx + 1, dy);
            [at(dx, dy), b, b, b]
        } else {
            // SDL_gfx's catch-all (unreachable for in-range steps, kept as written).
            one(at(0, 0))
        }
    }
}

/// The step's whole part `(dx, dy)` picks the texels blended (SDL_gfx writes a pixel for
/// `-1 <= dx <= sw`, `-1 <= dy <= sh`), its fraction the weights.
impl Steps for Rotozoom {
    const WRAPS: bool = true;
    const REACH: i64 = 1;

    fn row_steps(&self, y: i32, x0: i32) -> ((i64, i64), (i64, i64)) {
        self.walk.row_steps(y, x0)
    }

    fn affine(&self) -> bool {
        self.walk.affine(self.out_w, self.out_h)
    }

    fn written(&self) -> [i64; 4] {
        let side = |last: i32| [-(1 << 16), (i64::from(last) + 1) << 16];
        let ([u0, u1], [v0, v1]) = (side(self.sw), side(self.sh));
        [u0, u1, v0, v1]
    }

    #[inline(always)]
    #[allow(clippy::cast_possible_truncation)]
    fn value(&self, texels: &Texels<'_>, (sdx, sdy): (i64, i64)) -> u8 {
        let (dx, dy) = ((sdx >> 16) as i32, (sdy >> 16) as i32);
        let [c00, c01, c10, c11] = self.corners(texels, dx, dy);
        blend(c00, c01, c10, c11, (sdx & 0xffff) as i32, (sdy & 0xffff) as i32)
    }
}

/// `rotozoomSurface` with |angle| <= 0.001: `zoomSurfaceRGBA` with `smooth = 1`.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Zoom {
    out_w: i32,
    out_h: i32,
    /// Source steps per output pixel, 16.16.
    sx: i64,
    sy: i64,
    w: i32,
    h: i32,
}

impl Zoom {
    #[allow(clippy::cast_possible_truncation, clippy::cast_precision_loss)]
    pub(crate) fn new(scale: f32, w: i32, h: i32) -> Zoom {
        let zoom = f64::from(scale).max(ANGLE_LIMIT);
        // zoomSurfaceSize: truncated, at least 1.
        let out_w = ((f64::from(w) * zoom) as i32).max(1);
        let out_h = ((f64::from(h) * zoom) as i32).max(1);
        // `(int)(65536.0 * (float)(src->w - 1) / (float)dst->w)`: the floats are exact.
        let sx = (65536.0 * f64::from(w - 1) / f64::from(out_w)) as i64;
        let sy = (65536.0 * f64::from(h - 1) / f64::from(out_h)) as i64;
        Zoom {
            out_w,
            out_h,
            sx,
            sy,
            w,
            h,
        }
    }

    pub(crate) fn size(&self) -> (i32, i32) {
        (self.out_w, self.out_h)
    }

    /// As `Rotozoom::texels_to_pixels`: pixel (x, y) reads columns i, i + 1 (clamped) with
    /// i = floor(x sx / 2^16), rows likewise, so the map is the scale by 2^16 / sx and
    /// 2^16 / sy. `None` for a source one texel wide or high (every pixel reads it).
    #[allow(clippy::cast_precision_loss)]
    pub(crate) fn texels_to_pixels(&self) -> Option<glam::DAffine2> {
        if self.sx == 0 || self.sy == 0 {
            return None;
        }
        let (kx, ky) = (65536.0 / self.sx as f64, 65536.0 / self.sy as f64);
        Some(glam::DAffine2::from_scale(glam::DVec2::new(kx, ky)))
    }
}

/// SDL_gfx accumulates `csx &= 0xffff; csx += sx` and moves the source pointer by
/// `csx >> 16`: the column after x steps is `floor(x * sx / 65536)` and the fraction
/// `(x * sx) & 0xffff`, so pixel x's step is `x * sx` exactly (no wrapping), likewise rows.
impl Steps for Zoom {
    const WRAPS: bool = false;
    const REACH: i64 = 1;

    fn row_steps(&self, y: i32, x0: i32) -> ((i64, i64), (i64, i64)) {
        ((i64::from(x0) * self.sx, i64::from(y) * self.sy), (self.sx, 0))
    }

    fn affine(&self) -> bool {
        true
    }

    fn written(&self) -> [i64; 4] {
        // Every pixel is written (its steps stay inside the source).
        let all = 1 << 60;
        [-all, all, -all, all]
    }

    #[inline]
    #[allow(clippy::cast_possible_truncation)]
    fn value(&self, texels: &Texels<'_>, (rx, ry): (i64, i64)) -> u8 {
        let (i, ex) = ((rx >> 16) as i32, (rx & 0xffff) as i32);
        let (j, ey) = ((ry >> 16) as i32, (ry & 0xffff) as i32);
        // With one row the weight of the next is 0; SDL_gfx reads past it, we repeat it.
        let (i1, j1) = ((i + 1).min(self.w - 1), (j + 1).min(self.h - 1));
        let at = |a: i32, b: i32| texels.at(a as usize, b as usize);
        blend(at(i, j), at(i1, j), at(i, j1), at(i1, j1), ex, ey)
    }
}

#[cfg(test)]
mod tests {
    use super::blend;

    /// The kernel decides a block all on one side of the threshold without blending
    /// (`raster::pygame_bits`): that needs every blend of four texels, at any weights, to
    /// lie between their least and greatest alpha.
    #[test]
    fn blends_lie_between_their_least_and_greatest_texel() {
        let mut rng = super::super::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        let mut next = || rng.below(i64::MAX) as u64;
        let weights = [0, 1, 2, 255, 256, 32_767, 32_768, 65_534, 65_535];
        let mut checked = 0u64;
        for k in 0..400_000u64 {
            let r = next();
            let byte = |s: u32| match (r >> (32 + s / 4)) & 3 {
                0 => 0,
                1 => 255,
                _ => (r >> s) as u8,
            };
            let four = [byte(0), byte(8), byte(16), byte(24)];
            let (ex, ey) = if k % 4 == 0 {
                (weights[(k / 4 % 9) as usize], weights[(k / 36 % 9) as usize])
            } else {
                ((next() & 0xffff) as i32, (next() & 0xffff) as i32)
            };
            let v = blend(four[0], four[1], four[2], four[3], ex, ey);
            let (lo, hi) = (*four.iter().min().unwrap(), *four.iter().max().unwrap());
            assert!((lo..=hi).contains(&v), "{four:?} at ({ex}, {ey}) blends to {v}");
            checked += 1;
        }
        assert_eq!(checked, 400_000);
    }
}
