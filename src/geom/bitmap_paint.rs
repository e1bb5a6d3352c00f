//! Painting into and erasing from a bitmap's texels: what a brush is, and the exact integer
//! arithmetic of one texel (docs/art.md, "Editable bitmaps").
//!
//! Everything here is in u8 with exact rounding, so that an edit gives the same bytes
//! however it is cut up: a texel's new value depends on its old value, the brush's ink at
//! that texel and the edit's weight alone.

use glam::DVec2;

use crate::{Bitmap, FillRule, Path};

/// What an edit covers, in the edited bitmap's texel space (texel `(i, j)` is the square
/// `[i, i+1) x [j, j+1)`, its centre `(i + 0.5, j + 0.5)`).
///
/// ```
/// use pixelhit::{Brush, DVec2};
/// let crater = Brush::Disc { centre: DVec2::new(40.0, 12.5), radius: 8.0 };
/// assert!(matches!(crater, Brush::Disc { .. }));
/// ```
#[derive(Clone, Debug, PartialEq)]
pub enum Brush {
    /// The texels whose centres are within `radius` of `centre` (on the circle included):
    /// `(i + 0.5 - cx)^2 + (j + 0.5 - cy)^2 <= radius^2`, computed in f64.
    Disc {
        /// The centre, in texels.
        centre: DVec2,
        /// The radius, in texels (at least 0).
        radius: f64,
    },
    /// The texels whose centres are inside the path by its fill rule, decided exactly as a
    /// fill drawn without anti-aliasing (semantics.md 4.5: flattened within 1/128 texel,
    /// vertices on the 1/256 texel grid, integer tests of the centres).
    Path {
        /// The outline, in texels.
        path: Path,
        /// Its fill rule.
        rule: FillRule,
    },
    /// Another bitmap with its top-left texel on texel `(x, y)`: every texel it lies on,
    /// with that brush texel's colour and alpha as its ink.
    Bitmap {
        /// The brush's pixels (straight RGBA).
        bitmap: Bitmap,
        /// Column of its left texels.
        x: i64,
        /// Row of its top texels.
        y: i64,
    },
}

/// `a x b / 255`, rounded to nearest (255 is odd, so there is no tie).
pub(crate) fn times(a: u8, b: u8) -> u8 {
    ((u32::from(a) * u32::from(b) + 127) / 255) as u8
}

/// An edit's alpha in 0..=1 as a weight in 0..=255, rounded to nearest.
pub(crate) fn weight(alpha: f64) -> u8 {
    (alpha.clamp(0.0, 1.0) * 255.0).round() as u8
}

/// Source-over of `ink` (straight RGB, strength `s` in 0..=255) onto the straight RGBA
/// texel `dst`: alpha `s + A (255 - s) / 255`, each colour channel the premultiplied sum
/// divided by that alpha, each rounded once to nearest (half up). Strength 0 changes
/// nothing.
pub(crate) fn paint_texel(dst: &mut [u8], ink: [u8; 3], s: u8) {
    if s == 0 {
        return;
    }
    let (s, a) = (u64::from(s), u64::from(dst[3]));
    // In units of 1/255: the exact alpha times 255.
    let out = s * 255 + a * (255 - s);
    for c in 0..3 {
        let num = u64::from(ink[c]) * s * 255 + u64::from(dst[c]) * a * (255 - s);
        dst[c] = ((2 * num + out) / (2 * out)) as u8;
    }
    dst[3] = ((out + 127) / 255) as u8;
}

/// The texel's alpha scaled by `(255 - k) / 255`, rounded; its colour kept.
pub(crate) fn erase_texel(dst: &mut [u8], k: u8) {
    dst[3] = times(dst[3], 255 - k);
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn erase_scales_alpha_down() {
        let mut t = [5, 6, 7, 200];
        erase_texel(&mut t, 255);
        assert_eq!(t, [5, 6, 7, 0]);
        let mut t = [5, 6, 7, 200];
        erase_texel(&mut t, weight(0.5));
        // 200 x 127 / 255 = 99.6...
        assert_eq!(t[3], 100);
        assert_eq!(weight(0.5), 128);
    }
}
