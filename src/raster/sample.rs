//! Bitmap sampling: the texel under each pixel centre, found by mapping the centre back
//! into the bitmap in f64 for every pixel on its own (semantics.md 4.5).

use super::coverage::floor;
use glam::{DAffine2, DVec2};

use crate::Bitmap;
use crate::geom::color::{ColorTransform, round_channel};

/// A bitmap's alpha after a colour transform, one byte a texel: what sampling reads, made
/// once per bitmap and transform and shared by every pose.
#[derive(Debug)]
pub(crate) struct Texels {
    pub width: u32,
    pub height: u32,
    pub alpha: Vec<u8>,
}

impl Texels {
    pub fn new(bitmap: &Bitmap, ct: &ColorTransform) -> Texels {
        let alpha = bitmap
            .rgba()
            .chunks_exact(4)
            .map(|px| round_channel(ct.apply_alpha(f64::from(px[3]))))
            .collect();
        Texels {
            width: bitmap.width(),
            height: bitmap.height(),
            alpha,
        }
    }

    pub fn bytes(&self) -> usize {
        self.alpha.capacity()
    }

    fn at(&self, u: i64, v: i64) -> u8 {
        self.alpha[v as usize * self.width as usize + u as usize]
    }

    /// The texel under `p` (texel space), or `None` outside the bitmap.
    pub fn nearest(&self, p: DVec2) -> Option<u8> {
        let inside = p.x >= 0.0 && p.y >= 0.0 && p.x < f64::from(self.width) && p.y < f64::from(self.height);
        inside.then(|| self.at(p.x as i64, p.y as i64))
    }

    /// The texel under `p`, clamped into the bitmap (for edge pixels that anti-aliasing
    /// keeps although their centre is outside).
    pub fn clamped(&self, p: DVec2) -> u8 {
        // The saturating integer floor: NaN gives 0 and far points clamp like near ones,
        // without the library call a baseline x86-64 build makes of `f64::floor`.
        let u = floor(p.x).clamp(0, i64::from(self.width) - 1);
        let v = floor(p.y).clamp(0, i64::from(self.height) - 1);
        self.at(u, v)
    }

    fn clamp_texel(&self, u: f64, v: f64) -> (i64, i64) {
        // `as` saturates (NaN gives 0), so far points clamp like near ones.
        (
            (u as i64).clamp(0, i64::from(self.width) - 1),
            (v as i64).clamp(0, i64::from(self.height) - 1),
        )
    }

    /// The bilinear interpolation at `p` of the clamped texels' alphas, texel centres at
    /// integer + 1/2, rounded.
    pub fn smoothed(&self, p: DVec2) -> u8 {
        let q = p - DVec2::splat(0.5);
        let (fu, fv) = (q.x.floor(), q.y.floor());
        let (tu, tv) = (q.x - fu, q.y - fv);
        let (u0, v0) = self.clamp_texel(fu, fv);
        let (u1, v1) = self.clamp_texel(fu + 1.0, fv + 1.0);
        let t = |u, v| f64::from(self.at(u, v));
        let top = t(u0, v0) * (1.0 - tu) + t(u1, v0) * tu;
        let bottom = t(u0, v1) * (1.0 - tu) + t(u1, v1) * tu;
        round_channel(top * (1.0 - tv) + bottom * tv)
    }
}

/// Where the centre of pixel `(i, j)` (relative to the anchor) falls in texel space.
pub(crate) fn centre_in_texels(inverse: &DAffine2, i: i64, j: i64) -> DVec2 {
    inverse.transform_point2(DVec2::new(i as f64 + 0.5, j as f64 + 0.5))
}

#[cfg(test)]
mod tests {
    use super::*;

    fn texels() -> Texels {
        Texels {
            width: 2,
            height: 2,
            alpha: vec![0, 100, 200, 255],
        }
    }

    #[test]
    fn nearest_reads_the_texel_and_nothing_outside() {
        let t = texels();
        assert_eq!(t.nearest(DVec2::new(1.5, 0.2)), Some(100));
        assert_eq!(t.nearest(DVec2::new(2.0, 0.2)), None);
        assert_eq!(t.nearest(DVec2::new(-0.01, 1.0)), None);
        assert_eq!(t.clamped(DVec2::new(-3.0, 9.0)), 200);
    }

    #[test]
    fn smoothing_interpolates_between_texel_centres() {
        let t = texels();
        assert_eq!(t.smoothed(DVec2::new(0.5, 0.5)), 0);
        assert_eq!(t.smoothed(DVec2::new(1.0, 0.5)), 50);
        assert_eq!(t.smoothed(DVec2::new(1.0, 1.0)), 139); // (0 + 100 + 200 + 255) / 4 = 138.75
        assert_eq!(t.smoothed(DVec2::new(-5.0, 1.5)), 200);
    }
}
