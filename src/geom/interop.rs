//! Matrices and points from any engine: the calls that take a matrix or a point accept plain
//! arrays (`[f64; 6]` in the semantics' order `[a, b, c, d, tx, ty]`, `[f64; 2]`), their f32
//! forms, tuples, pixelhit's own glam types, and with the `mint` feature the `mint`
//! interoperability types that every version of glam, nalgebra, cgmath and euclid converts to.
//! Nothing ties a caller to pixelhit's glam version: a Bevy or macroquad game hands its own
//! matrices over through `mint` or an array.
//!
//! What pixelhit returns converts back in one call: `DAffine2::to_cols_array` gives
//! `[a, b, c, d, tx, ty]`, `DVec2::to_array` gives `[x, y]`, and with `mint`,
//! [`to_mint_matrix`] and `mint::Point2::from(p)`.
//!
//! Engines with y pointing up (Bevy, most physics engines) and rotations counter-clockwise in
//! radians convert with [`from_y_up`] (a matrix) or [`point_from_y_up`] (a point); f32 values
//! widen to f64 exactly.

use glam::{DAffine2, DMat2, DVec2};

/// A 2D affine matrix in any of the forms pixelhit accepts: pixelhit's `DAffine2`, `[f64; 6]`
/// or `[f32; 6]` in the semantics' order `[a, b, c, d, tx, ty]`, and with the feature `mint`
/// the `mint` types `ColumnMatrix2x3`, `RowMatrix2x3`, `ColumnMatrix3` and `RowMatrix3`
/// (f32 or f64), which every glam, nalgebra, cgmath and euclid version converts to: a Bevy
/// or macroquad game passes `mint::ColumnMatrix3::from(its_mat3)`. f32 widens to f64
/// exactly. What pixelhit returns converts back in one call: `DAffine2::to_cols_array`, or
/// [`to_mint_matrix`](crate#cargo-features) with `mint`. For y-up engines see [`from_y_up`].
///
/// ```
/// use pixelhit::{DAffine2, Stage};
/// let mut stage = Stage::new();
/// let n = stage.add_container(stage.root())?;
/// stage.set_matrix(n, [0.0, 1.0, -1.0, 0.0, 5.0, 6.0])?; // a quarter turn, moved
/// assert_eq!(stage.rotation(n)?, 90.0);
/// stage.set_matrix(n, [2.0f32, 0.0, 0.0, 2.0, 1.5, 0.0])?; // f32, as engines keep them
/// assert_eq!(stage.matrix(n)?, DAffine2::from_cols_array(&[2.0, 0.0, 0.0, 2.0, 1.5, 0.0]));
/// # Ok::<(), pixelhit::Error>(())
/// ```
pub trait IntoAffine {
    /// The matrix as pixelhit's `DAffine2`.
    fn into_affine(self) -> DAffine2;
}

/// A 2D point in any of the forms pixelhit accepts: pixelhit's `DVec2`, `[f64; 2]`,
/// `[f32; 2]`, `(f64, f64)`, `(f32, f32)`, and with the feature `mint` `mint::Point2` and
/// `mint::Vector2` (f32 or f64). Points pixelhit returns convert back with `DVec2::to_array`
/// or `mint::Point2::from(p)`.
pub trait IntoPoint {
    /// The point as pixelhit's `DVec2`.
    fn into_point(self) -> DVec2;
}

impl IntoAffine for DAffine2 {
    fn into_affine(self) -> DAffine2 {
        self
    }
}

impl IntoAffine for &DAffine2 {
    fn into_affine(self) -> DAffine2 {
        *self
    }
}

impl IntoAffine for [f64; 6] {
    fn into_affine(self) -> DAffine2 {
        DAffine2::from_cols_array(&self)
    }
}

impl IntoAffine for [f32; 6] {
    fn into_affine(self) -> DAffine2 {
        DAffine2::from_cols_array(&self.map(f64::from))
    }
}

impl IntoPoint for DVec2 {
    fn into_point(self) -> DVec2 {
        self
    }
}

impl IntoPoint for &DVec2 {
    fn into_point(self) -> DVec2 {
        *self
    }
}

impl IntoPoint for [f64; 2] {
    fn into_point(self) -> DVec2 {
        DVec2::from_array(self)
    }
}

impl IntoPoint for [f32; 2] {
    fn into_point(self) -> DVec2 {
        DVec2::from_array(self.map(f64::from))
    }
}

impl IntoPoint for (f64, f64) {
    fn into_point(self) -> DVec2 {
        DVec2::new(self.0, self.1)
    }
}

impl IntoPoint for (f32, f32) {
    fn into_point(self) -> DVec2 {
        DVec2::new(f64::from(self.0), f64::from(self.1))
    }
}

/// An engine's matrix with y up and counter-clockwise angles, as pixelhit's (y down,
/// clockwise on screen, semantics.md 1): `F m F` with `F` the flip of y. Converting every
/// node's matrix this way keeps the hierarchy consistent (the flips cancel between parent
/// and child), so answers come out in the engine's space with y negated.
///
/// ```
/// use pixelhit::{Stage, from_y_up};
/// let mut stage = Stage::new();
/// let n = stage.add_container(stage.root())?;
/// // A quarter turn counter-clockwise in a y-up engine, at (10, 20): f32, as Bevy keeps it.
/// let engine = [0.0f32, 1.0, -1.0, 0.0, 10.0, 20.0];
/// stage.set_matrix(n, from_y_up(engine))?;
/// assert_eq!(stage.rotation(n)?, -90.0); // counter-clockwise on screen
/// assert_eq!((stage.x(n)?, stage.y(n)?), (10.0, -20.0));
/// # Ok::<(), pixelhit::Error>(())
/// ```
pub fn from_y_up(m: impl IntoAffine) -> DAffine2 {
    let [a, b, c, d, tx, ty] = m.into_affine().to_cols_array();
    DAffine2::from_cols_array(&[a, -b, -c, d, tx, -ty])
}

/// A point of a y-up engine's space in pixelhit's: `(x, -y)`. [`from_y_up`]'s inverse for
/// points is itself: an answer `p` of pixelhit is `(p.x, -p.y)` in the engine.
pub fn point_from_y_up(p: impl IntoPoint) -> DVec2 {
    let p = p.into_point();
    DVec2::new(p.x, -p.y)
}

/// An engine's 2D transform given as position, rotation in radians counter-clockwise with y
/// up, and scale (Bevy's `Transform` of a 2D sprite: `translation.x`, `translation.y`,
/// `rotation.to_euler(EulerRot::XYZ).2`, `scale.x`, `scale.y`), as pixelhit's matrix.
///
/// ```
/// let m = pixelhit::from_y_up_parts([3.0f32, 4.0], std::f32::consts::FRAC_PI_2, [1.0, 1.0]);
/// assert_eq!(m.transform_point2(pixelhit::DVec2::X).round(), pixelhit::DVec2::new(3.0, -5.0));
/// ```
pub fn from_y_up_parts(translation: impl IntoPoint, radians_ccw: f32, scale: impl IntoPoint) -> DAffine2 {
    let (t, s) = (translation.into_point(), scale.into_point());
    let (sin, cos) = f64::from(radians_ccw).sin_cos();
    let up = DAffine2 {
        matrix2: DMat2::from_cols(DVec2::new(cos, sin) * s.x, DVec2::new(-sin, cos) * s.y),
        translation: t,
    };
    from_y_up(up)
}

#[cfg(feature = "mint")]
mod with_mint {
    use super::{IntoAffine, IntoPoint};
    use glam::{DAffine2, DVec2};

    macro_rules! affine_from_mint {
        ($($t:ty),*) => {$(
            impl IntoAffine for mint::ColumnMatrix2x3<$t> {
                /// Columns `x` and `y` are the axes, `z` the translation.
                fn into_affine(self) -> DAffine2 {
                    let v = |c: mint::Vector2<$t>| DVec2::new(f64::from(c.x), f64::from(c.y));
                    DAffine2::from_cols(v(self.x), v(self.y), v(self.z))
                }
            }
            impl IntoAffine for mint::RowMatrix2x3<$t> {
                /// Rows `[a, c, tx]` and `[b, d, ty]`.
                fn into_affine(self) -> DAffine2 {
                    let (x, y) = (self.x, self.y);
                    let f = f64::from;
                    DAffine2::from_cols_array(&[f(x.x), f(y.x), f(x.y), f(y.y), f(x.z), f(y.z)])
                }
            }
            impl IntoAffine for mint::ColumnMatrix3<$t> {
                /// A homogeneous 3 x 3 matrix (as glam's `Mat3` converts): its last row is
                /// taken to be `[0, 0, 1]`.
                fn into_affine(self) -> DAffine2 {
                    let v = |c: mint::Vector3<$t>| DVec2::new(f64::from(c.x), f64::from(c.y));
                    DAffine2::from_cols(v(self.x), v(self.y), v(self.z))
                }
            }
            impl IntoAffine for mint::RowMatrix3<$t> {
                /// A homogeneous 3 x 3 matrix by rows; the last row is taken to be `[0, 0, 1]`.
                fn into_affine(self) -> DAffine2 {
                    let (x, y) = (self.x, self.y);
                    let f = f64::from;
                    DAffine2::from_cols_array(&[f(x.x), f(y.x), f(x.y), f(y.y), f(x.z), f(y.z)])
                }
            }
            impl IntoPoint for mint::Point2<$t> {
                fn into_point(self) -> DVec2 {
                    DVec2::new(f64::from(self.x), f64::from(self.y))
                }
            }
            impl IntoPoint for mint::Vector2<$t> {
                fn into_point(self) -> DVec2 {
                    DVec2::new(f64::from(self.x), f64::from(self.y))
                }
            }
        )*};
    }
    affine_from_mint!(f32, f64);
}

/// pixelhit's matrix as `mint`'s 2 x 3 column matrix (axes `x`, `y`, translation `z`), which
/// glam, nalgebra and cgmath of any version read (feature `mint`).
#[cfg(feature = "mint")]
pub fn to_mint_matrix(m: DAffine2) -> mint::ColumnMatrix2x3<f64> {
    let v = |c: DVec2| mint::Vector2 { x: c.x, y: c.y };
    mint::ColumnMatrix2x3 {
        x: v(m.matrix2.x_axis),
        y: v(m.matrix2.y_axis),
        z: v(m.translation),
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn every_form_gives_the_same_matrix() {
        let want = DAffine2::from_cols_array(&[1.5, -0.5, 0.25, 2.0, 7.0, -3.0]);
        assert_eq!([1.5, -0.5, 0.25, 2.0, 7.0, -3.0].into_affine(), want);
        assert_eq!([1.5f32, -0.5, 0.25, 2.0, 7.0, -3.0].into_affine(), want);
        assert_eq!((&want).into_affine(), want);
        assert_eq!([7.0, -3.0].into_point(), want.translation);
        assert_eq!((7.0f32, -3.0f32).into_point(), want.translation);
    }

    /// Flipping y twice is the identity, and the flip of a product is the product of the
    /// flips: a hierarchy converted node by node composes to the converted whole.
    #[test]
    fn the_y_flip_is_an_involution_and_respects_products() {
        let mut seed = 5u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 11) as f64 / (1u64 << 53) as f64) * 8.0 - 4.0
        };
        for _ in 0..1000 {
            let p = [next(), next(), next(), next(), next(), next()].into_affine();
            let c = [next(), next(), next(), next(), next(), next()].into_affine();
            assert_eq!(from_y_up(from_y_up(p)), p);
            let whole = from_y_up(p * c);
            let parts = from_y_up(p) * from_y_up(c);
            assert!(whole.abs_diff_eq(parts, 1e-12), "{whole:?} {parts:?}");
            let q = [next(), next()];
            let moved = from_y_up(p).transform_point2(point_from_y_up(q));
            assert!(moved.abs_diff_eq(point_from_y_up(p.transform_point2(q.into_point())), 1e-12));
        }
    }
}
