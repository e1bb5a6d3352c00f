//! Matrices from Flash-style properties, and properties read back from matrices.
//!
//! A node keeps its matrix as the source of truth and, beside it, the properties it was built
//! from. Reading `rotation` of a matrix that was set directly decomposes it; setting
//! `rotation` on a skewed matrix keeps the skew, as Flash does. Keeping the properties means
//! that a sprite scaled to 0 and back keeps its rotation, and that repeated small changes do
//! not drift.

use glam::{DAffine2, DMat2, DVec2};

/// `(sin, cos)` of an angle in degrees, exact at multiples of 90 degrees so that quarter
/// turns map pixel grids onto themselves.
pub(crate) fn sin_cos_degrees(degrees: f64) -> (f64, f64) {
    let turn = degrees.rem_euclid(360.0);
    if turn == 0.0 {
        (0.0, 1.0)
    } else if turn == 90.0 {
        (1.0, 0.0)
    } else if turn == 180.0 {
        (0.0, -1.0)
    } else if turn == 270.0 {
        (-1.0, 0.0)
    } else {
        degrees.to_radians().sin_cos()
    }
}

/// Flash's decomposition of a matrix: `a = sx*cos(r)`, `b = sx*sin(r)`,
/// `c = -sy*sin(r + skew)`, `d = sy*cos(r + skew)`, `tx = x`, `ty = y`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Props {
    pub x: f64,
    pub y: f64,
    pub rotation: f64,
    pub skew: f64,
    pub scale_x: f64,
    pub scale_y: f64,
}

impl Props {
    pub const IDENTITY: Props = Props {
        x: 0.0,
        y: 0.0,
        rotation: 0.0,
        skew: 0.0,
        scale_x: 1.0,
        scale_y: 1.0,
    };

    pub fn from_matrix(m: &DAffine2) -> Props {
        let (a, b) = (m.matrix2.x_axis.x, m.matrix2.x_axis.y);
        let (c, d) = (m.matrix2.y_axis.x, m.matrix2.y_axis.y);
        let scale_x = a.hypot(b);
        let scale_y = c.hypot(d);
        let rotation = if scale_x == 0.0 {
            0.0
        } else {
            b.atan2(a).to_degrees()
        };
        let y_axis_angle = if scale_y == 0.0 {
            rotation
        } else {
            (-c).atan2(d).to_degrees()
        };
        Props {
            x: m.translation.x,
            y: m.translation.y,
            rotation,
            skew: y_axis_angle - rotation,
            scale_x,
            scale_y,
        }
    }

    pub fn to_matrix(self) -> DAffine2 {
        let (sr, cr) = sin_cos_degrees(self.rotation);
        // Without skew, `rotation + skew` is `rotation` (or, for -0.0, +0.0, which turns the
        // same): the second sine and cosine would repeat the first.
        let (sk, ck) = match self.skew == 0.0 {
            true => (sr, cr),
            false => sin_cos_degrees(self.rotation + self.skew),
        };
        DAffine2 {
            matrix2: DMat2::from_cols(
                DVec2::new(self.scale_x * cr, self.scale_x * sr),
                DVec2::new(-self.scale_y * sk, self.scale_y * ck),
            ),
            translation: DVec2::new(self.x, self.y),
        }
    }
}

/// The matrix `[a, b, c, d, tx, ty]` of semantics.md from Flash-style properties: scale,
/// then rotate (degrees, clockwise on screen), then translate.
///
/// ```
/// let m = pixelhit::matrix_from_properties(10.0, 20.0, 90.0, 2.0, 3.0);
/// assert_eq!(m.to_cols_array(), [0.0, 2.0, -3.0, 0.0, 10.0, 20.0]);
/// ```
pub fn matrix_from_properties(x: f64, y: f64, rotation: f64, scale_x: f64, scale_y: f64) -> DAffine2 {
    Props {
        x,
        y,
        rotation,
        skew: 0.0,
        scale_x,
        scale_y,
    }
    .to_matrix()
}

/// The largest factor by which `m` stretches a length: its largest singular value, written
/// as the sum of two `hypot`s so that entries up to f64's limits do not overflow.
pub(crate) fn max_scale(m: &DAffine2) -> f64 {
    let (a, b) = (m.matrix2.x_axis.x, m.matrix2.x_axis.y);
    let (c, d) = (m.matrix2.y_axis.x, m.matrix2.y_axis.y);
    let q = (0.5 * (a + d)).hypot(0.5 * (b - c));
    let r = (0.5 * (a - d)).hypot(0.5 * (b + c));
    q + r
}

#[inline]
pub(crate) fn is_finite(m: &DAffine2) -> bool {
    m.to_cols_array().iter().all(|v| v.is_finite())
}

/// The inverse of an affine matrix, or `None` when it is singular or the inverse overflows.
pub(crate) fn invert(m: &DAffine2) -> Option<DAffine2> {
    let det = m.matrix2.determinant();
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let inv = m.inverse();
    is_finite(&inv).then_some(inv)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn close(a: &DAffine2, b: &DAffine2) -> bool {
        a.to_cols_array()
            .iter()
            .zip(b.to_cols_array())
            .all(|(x, y)| (x - y).abs() < 1e-12)
    }

    #[test]
    fn properties_follow_flash_order() {
        let m = matrix_from_properties(5.0, 6.0, 30.0, 2.0, 3.0);
        let (s, c) = 30f64.to_radians().sin_cos();
        let want = DAffine2::from_cols_array(&[2.0 * c, 2.0 * s, -3.0 * s, 3.0 * c, 5.0, 6.0]);
        assert!(close(&m, &want));
    }

    #[test]
    fn decomposition_round_trips_skew_and_flip() {
        for m in [
            DAffine2::from_cols_array(&[1.3, 0.2, 0.1, 1.2, 40.0, 50.0]),
            DAffine2::from_cols_array(&[-1.0, 0.0, 0.0, 2.0, 0.0, 0.0]),
            DAffine2::from_cols_array(&[0.0, 1.0, 1.0, 0.0, 3.0, 4.0]),
        ] {
            assert!(close(&Props::from_matrix(&m).to_matrix(), &m), "{m:?}");
        }
    }

    #[test]
    fn quarter_turns_are_exact() {
        let m = matrix_from_properties(0.0, 0.0, -270.0, 1.0, 1.0);
        assert_eq!(m.to_cols_array(), [0.0, 1.0, -1.0, 0.0, 0.0, 0.0]);
    }

    #[test]
    fn max_scale_is_largest_singular_value() {
        let m = matrix_from_properties(0.0, 0.0, 33.0, 3.0, 0.5);
        assert!((max_scale(&m) - 3.0).abs() < 1e-12);
    }
}
