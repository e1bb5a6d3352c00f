//! Colour transforms: a multiplier and an offset per channel, as in Flash.

use crate::{Error, Result};

/// A colour transform: `new = clamp(old * multiplier + offset, 0, 255)` per channel, offsets
/// in 0..255 units. An object's `alpha` property is its `alpha_multiplier`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct ColorTransform {
    /// Red multiplier.
    pub red_multiplier: f64,
    /// Green multiplier.
    pub green_multiplier: f64,
    /// Blue multiplier.
    pub blue_multiplier: f64,
    /// Alpha multiplier (the `alpha` property).
    pub alpha_multiplier: f64,
    /// Red offset, in 0..255 units.
    pub red_offset: f64,
    /// Green offset, in 0..255 units.
    pub green_offset: f64,
    /// Blue offset, in 0..255 units.
    pub blue_offset: f64,
    /// Alpha offset, in 0..255 units.
    pub alpha_offset: f64,
}

impl Default for ColorTransform {
    fn default() -> Self {
        ColorTransform::IDENTITY
    }
}

impl ColorTransform {
    /// Leaves every colour as it is.
    pub const IDENTITY: ColorTransform = ColorTransform {
        red_multiplier: 1.0,
        green_multiplier: 1.0,
        blue_multiplier: 1.0,
        alpha_multiplier: 1.0,
        red_offset: 0.0,
        green_offset: 0.0,
        blue_offset: 0.0,
        alpha_offset: 0.0,
    };

    /// A transform from its eight numbers: multipliers `[r, g, b, a]`, offsets `[r, g, b, a]`.
    pub fn new(multipliers: [f64; 4], offsets: [f64; 4]) -> ColorTransform {
        ColorTransform {
            red_multiplier: multipliers[0],
            green_multiplier: multipliers[1],
            blue_multiplier: multipliers[2],
            alpha_multiplier: multipliers[3],
            red_offset: offsets[0],
            green_offset: offsets[1],
            blue_offset: offsets[2],
            alpha_offset: offsets[3],
        }
    }

    /// The eight numbers, multipliers first (`[rm, gm, bm, am, ro, go, bo, ao]`).
    pub fn to_array(&self) -> [f64; 8] {
        [
            self.red_multiplier,
            self.green_multiplier,
            self.blue_multiplier,
            self.alpha_multiplier,
            self.red_offset,
            self.green_offset,
            self.blue_offset,
            self.alpha_offset,
        ]
    }

    /// `child` applied first, then `self` (the parent): `mult = Pm*Cm`, `add = Pa + Pm*Ca`.
    ///
    /// ```
    /// use pixelhit::ColorTransform;
    /// let parent = ColorTransform::new([0.5; 4], [10.0, 20.0, 30.0, 40.0]);
    /// let child = ColorTransform::new([0.5; 4], [50.0, 60.0, 70.0, 80.0]);
    /// let both = parent.concat(&child);
    /// assert_eq!(both, ColorTransform::new([0.25; 4], [35.0, 50.0, 65.0, 80.0]));
    /// ```
    pub fn concat(&self, child: &ColorTransform) -> ColorTransform {
        let p = self.to_array();
        let c = child.to_array();
        let mut m = [0.0; 4];
        let mut o = [0.0; 4];
        for i in 0..4 {
            m[i] = p[i] * c[i];
            o[i] = p[4 + i] + p[i] * c[4 + i];
        }
        ColorTransform::new(m, o)
    }

    /// The transformed alpha of a texel or fill (0..255 units), clamped to 0..255. Alpha 0
    /// stays 0 (Flash never changes fully transparent texels).
    pub fn apply_alpha(&self, alpha: f64) -> f64 {
        if alpha <= 0.0 {
            return 0.0;
        }
        (alpha * self.alpha_multiplier + self.alpha_offset).clamp(0.0, 255.0)
    }

    /// Applies the transform to a straight (not premultiplied) RGBA colour. A texel with
    /// alpha 0 is returned unchanged.
    pub fn apply_rgba(&self, rgba: [u8; 4]) -> [u8; 4] {
        if rgba[3] == 0 {
            return rgba;
        }
        let t = self.to_array();
        let mut out = [0u8; 4];
        for i in 0..4 {
            out[i] = round_channel(f64::from(rgba[i]) * t[i] + t[4 + i]);
        }
        out
    }

    /// Whether every number is finite.
    pub fn is_finite(&self) -> bool {
        self.to_array().iter().all(|v| v.is_finite())
    }

    pub(crate) fn check_finite(&self, what: impl FnOnce() -> String) -> Result<()> {
        if self.is_finite() {
            Ok(())
        } else {
            Err(Error::NonFinite { what: what() })
        }
    }
}

/// Rounds a channel value to the nearest integer in 0..255 (halves round up).
pub(crate) fn round_channel(v: f64) -> u8 {
    (v.clamp(0.0, 255.0) + 0.5).floor().min(255.0) as u8
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn transparent_texels_are_never_changed() {
        let t = ColorTransform::new([1.0; 4], [0.0, 0.0, 0.0, 200.0]);
        assert_eq!(t.apply_rgba([10, 20, 30, 0]), [10, 20, 30, 0]);
        assert_eq!(t.apply_rgba([10, 20, 30, 1])[3], 201);
        assert_eq!(t.apply_alpha(0.0), 0.0);
    }

    #[test]
    fn channels_clamp() {
        let t = ColorTransform::new([2.0; 4], [-10.0; 4]);
        assert_eq!(t.apply_rgba([200, 3, 100, 255]), [255, 0, 190, 255]);
    }
}
