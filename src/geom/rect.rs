//! Axis-aligned rectangles in f64.
//!
//! Bounds, windows and answers are all `Rect`s. The type keeps one invariant: every
//! coordinate is finite and `left <= right`, `top <= bottom`, which is why it has no public
//! fields and its constructors return `Option`. A zero-width rectangle is allowed (a singular
//! matrix squashes a box to a line); "no box at all" is `Option::None` one level up.

use glam::DVec2;

use crate::geom::interop::{IntoAffine, IntoPoint};
use crate::geom::whole::{ceil_small, floor_small};

/// An axis-aligned rectangle with finite coordinates, `left <= right` and `top <= bottom`.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Rect {
    left: f64,
    top: f64,
    right: f64,
    bottom: f64,
}

impl Rect {
    /// A rectangle from its edges, or `None` when an edge is not finite, the edges are out
    /// of order, or the width or height does not fit in an f64 (edges near +-1.8e308).
    ///
    /// ```
    /// use pixelhit::Rect;
    /// assert!(Rect::from_ltrb(0.0, 0.0, 10.0, 5.0).is_some());
    /// assert!(Rect::from_ltrb(10.0, 0.0, 0.0, 5.0).is_none());
    /// assert!(Rect::from_ltrb(0.0, 0.0, f64::NAN, 5.0).is_none());
    /// assert!(Rect::from_ltrb(-f64::MAX, 0.0, f64::MAX, 5.0).is_none());
    /// ```
    pub fn from_ltrb(left: f64, top: f64, right: f64, bottom: f64) -> Option<Rect> {
        let finite = left.is_finite()
            && top.is_finite()
            && right.is_finite()
            && bottom.is_finite()
            && (right - left).is_finite()
            && (bottom - top).is_finite();
        (finite && left <= right && top <= bottom).then_some(Rect {
            left: left + 0.0,
            top: top + 0.0,
            right: right + 0.0,
            bottom: bottom + 0.0,
        })
    }

    /// A rectangle from its top-left corner and size, or `None` when a value is not finite,
    /// the size is negative, or `x + width` overflows to infinity.
    pub fn from_xywh(x: f64, y: f64, width: f64, height: f64) -> Option<Rect> {
        if width < 0.0 || height < 0.0 {
            return None;
        }
        Rect::from_ltrb(x, y, x + width, y + height)
    }

    /// The smallest rectangle holding every point, or `None` for no points or a
    /// non-finite point.
    pub fn from_points<P: IntoPoint>(points: impl IntoIterator<Item = P>) -> Option<Rect> {
        let mut it = points.into_iter().map(IntoPoint::into_point);
        let first = it.next()?;
        let (mut min, mut max) = (first, first);
        let mut nan = first.is_nan();
        for p in it {
            min = min.min(p);
            max = max.max(p);
            nan |= p.is_nan();
        }
        if nan {
            return None;
        }
        Rect::from_ltrb(min.x, min.y, max.x, max.y)
    }

    /// Left edge.
    pub fn left(&self) -> f64 {
        self.left
    }
    /// Top edge.
    pub fn top(&self) -> f64 {
        self.top
    }
    /// Right edge.
    pub fn right(&self) -> f64 {
        self.right
    }
    /// Bottom edge.
    pub fn bottom(&self) -> f64 {
        self.bottom
    }
    /// Same as [`Rect::left`].
    pub fn x(&self) -> f64 {
        self.left
    }
    /// Same as [`Rect::top`].
    pub fn y(&self) -> f64 {
        self.top
    }
    /// `right - left`.
    pub fn width(&self) -> f64 {
        self.right - self.left
    }
    /// `bottom - top`.
    pub fn height(&self) -> f64 {
        self.bottom - self.top
    }
    /// The four corners, clockwise from the top-left.
    pub fn corners(&self) -> [DVec2; 4] {
        [
            DVec2::new(self.left, self.top),
            DVec2::new(self.right, self.top),
            DVec2::new(self.right, self.bottom),
            DVec2::new(self.left, self.bottom),
        ]
    }

    /// The smallest rectangle holding both.
    pub fn union(&self, other: &Rect) -> Rect {
        Rect {
            left: self.left.min(other.left),
            top: self.top.min(other.top),
            right: self.right.max(other.right),
            bottom: self.bottom.max(other.bottom),
        }
    }

    /// The overlap of two rectangles when it has a positive area; rectangles that only
    /// touch along an edge or at a corner do not overlap.
    ///
    /// ```
    /// use pixelhit::Rect;
    /// let a = Rect::from_ltrb(0.0, 0.0, 10.0, 10.0).unwrap();
    /// let touching = Rect::from_ltrb(10.0, 0.0, 20.0, 10.0).unwrap();
    /// assert_eq!(a.intersect(&touching), None);
    /// ```
    pub fn intersect(&self, other: &Rect) -> Option<Rect> {
        let r = Rect {
            left: self.left.max(other.left),
            top: self.top.max(other.top),
            right: self.right.min(other.right),
            bottom: self.bottom.min(other.bottom),
        };
        (r.left < r.right && r.top < r.bottom).then_some(r)
    }

    /// Whether two rectangles overlap or touch (edges included).
    pub fn touches(&self, other: &Rect) -> bool {
        self.left <= other.right
            && other.left <= self.right
            && self.top <= other.bottom
            && other.top <= self.bottom
    }

    /// Whether the point lies inside or on the edge.
    pub fn contains(&self, p: impl IntoPoint) -> bool {
        let p = p.into_point();
        p.x >= self.left && p.x <= self.right && p.y >= self.top && p.y <= self.bottom
    }

    /// Whether `other` lies entirely inside (edges included).
    pub fn contains_rect(&self, other: &Rect) -> bool {
        other.left >= self.left
            && other.right <= self.right
            && other.top >= self.top
            && other.bottom <= self.bottom
    }

    /// The box of the four corners mapped by `m` (Flash's way of moving a box between
    /// spaces), or `None` when the mapping overflows.
    pub fn transform(&self, m: impl IntoAffine) -> Option<Rect> {
        let m = &m.into_affine();
        match self.linear_extent(&m.matrix2) {
            Some(extent) if m.translation.is_finite() => Rect::placed(extent, m.translation),
            // Infinite products could make a corner NaN (inf - inf), which the corner path
            // reports, so they take that path.
            _ => Rect::from_points(self.corners().map(|p| m.transform_point2(p))),
        }
    }

    /// The part of [`Rect::transform`] that its matrix's translation does not change: the
    /// box's sides mapped by the linear part `m2` before the translation is added, `[left,
    /// top, right, bottom]`, or `None` when a product is not finite. A box moved by many
    /// translations (a kept pair's target, `query::kept_pair`) makes it once.
    pub(crate) fn linear_extent(&self, m2: &glam::DMat2) -> Option<[f64; 4]> {
        // Each corner is (a x + c y) + t rounded step by step, and rounding is monotonic, so
        // the extreme corner comes from the extreme products: the same answer as mapping
        // the four corners, for a quarter of the work.
        let (a, b) = (m2.x_axis.x, m2.x_axis.y);
        let (c, d) = (m2.y_axis.x, m2.y_axis.y);
        let products = [
            a * self.left,
            a * self.right,
            c * self.top,
            c * self.bottom,
            b * self.left,
            b * self.right,
            d * self.top,
            d * self.bottom,
        ];
        if !products.iter().all(|p| p.is_finite()) {
            return None;
        }
        let [al, ar, ct, cb, bl, br, dt, db] = products;
        Some([
            al.min(ar) + ct.min(cb),
            bl.min(br) + dt.min(db),
            al.max(ar) + ct.max(cb),
            bl.max(br) + dt.max(db),
        ])
    }

    /// [`Rect::transform`] by a matrix with a finite translation `t`, from its
    /// [`Rect::linear_extent`].
    #[inline]
    pub(crate) fn placed([l, t0, r, b]: [f64; 4], t: DVec2) -> Option<Rect> {
        Rect::from_ltrb(l + t.x, t0 + t.y, r + t.x, b + t.y)
    }

    /// The rectangle grown by `d` on every side (shrunk for negative `d`, never past its centre).
    pub fn outset(&self, d: f64) -> Option<Rect> {
        let cx = (self.left + self.right) * 0.5;
        let cy = (self.top + self.bottom) * 0.5;
        Rect::from_ltrb(
            (self.left - d).min(cx),
            (self.top - d).min(cy),
            (self.right + d).max(cx),
            (self.bottom + d).max(cy),
        )
    }

    /// The rectangle as `[x, y, width, height]`.
    pub fn to_xywh(&self) -> [f64; 4] {
        [self.left, self.top, self.width(), self.height()]
    }
}

/// A rectangle of whole pixels: pixel `(i, j)` is the square `[i, i+1) x [j, j+1)`, and this
/// holds the pixels `x0 <= i < x1`, `y0 <= j < y1`.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub(crate) struct PixelRect {
    pub x0: i64,
    pub y0: i64,
    pub x1: i64,
    pub y1: i64,
}

impl PixelRect {
    /// The pixels a rectangle touches: `floor(left)..ceil(right)`.
    ///
    /// Coordinates are clamped to +-2^52 so the arithmetic below stays exact in i64. The
    /// bound is a whole number, so clamping before rounding gives what clamping after
    /// would, and the rounding needs no library call (a pair's window is made here).
    #[inline]
    pub fn covering(r: &Rect) -> PixelRect {
        const LIM: f64 = 4_503_599_627_370_496.0;
        let c = |v: f64| v.clamp(-LIM, LIM);
        PixelRect {
            x0: floor_small(c(r.left)),
            y0: floor_small(c(r.top)),
            x1: ceil_small(c(r.right)),
            y1: ceil_small(c(r.bottom)),
        }
    }

    pub fn is_empty(&self) -> bool {
        self.x0 >= self.x1 || self.y0 >= self.y1
    }

    pub fn width(&self) -> u64 {
        (self.x1 - self.x0).max(0) as u64
    }

    pub fn height(&self) -> u64 {
        (self.y1 - self.y0).max(0) as u64
    }

    pub fn area(&self) -> u128 {
        self.width() as u128 * self.height() as u128
    }

    pub fn intersect(&self, o: &PixelRect) -> PixelRect {
        PixelRect {
            x0: self.x0.max(o.x0),
            y0: self.y0.max(o.y0),
            x1: self.x1.min(o.x1),
            y1: self.y1.min(o.y1),
        }
    }

    /// The same pixels moved by `(dx, dy)` whole pixels.
    pub fn moved(self, (dx, dy): (i64, i64)) -> PixelRect {
        PixelRect {
            x0: self.x0 + dx,
            y0: self.y0 + dy,
            x1: self.x1 + dx,
            y1: self.y1 + dy,
        }
    }

    pub fn to_rect(self) -> Option<Rect> {
        Rect::from_ltrb(self.x0 as f64, self.y0 as f64, self.x1 as f64, self.y1 as f64)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use glam::DAffine2;

    #[test]
    fn transform_matches_mapping_the_corners() {
        let mut seed = 0x9e37_79b9_u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            seed >> 11
        };
        // Values of every scale, signs and zeros included, so that products round, vanish
        // and overflow.
        let values = [
            0.0, -0.0, 1.0, -1.0, 0.1, -0.3, 7.5, 1e-300, -1e-300, 1e150, -1e200, 1e308,
        ];
        let mut value = || {
            let v = values[(next() % values.len() as u64) as usize];
            let scale = (next() % 2001) as f64 / 1000.0 - 1.0;
            if next() % 3 == 0 { v } else { v * scale + scale }
        };
        for _ in 0..20_000 {
            let (l, t) = (value(), value());
            let (w, h) = (value().abs(), value().abs());
            let Some(r) = Rect::from_ltrb(l, t, l + w, t + h) else {
                continue;
            };
            let m = DAffine2::from_cols_array(&[value(), value(), value(), value(), value(), value()]);
            let corners = Rect::from_points(r.corners().map(|p| m.transform_point2(p)));
            assert_eq!(r.transform(m), corners, "{r:?} by {m:?}");
        }
    }

    #[test]
    fn intersection_is_exclusive() {
        let a = Rect::from_ltrb(0.0, 0.0, 10.0, 10.0).unwrap();
        let b = Rect::from_ltrb(5.0, 10.0, 15.0, 20.0).unwrap();
        assert_eq!(a.intersect(&b), None);
        assert!(a.touches(&b));
        let c = Rect::from_ltrb(5.0, 9.5, 15.0, 20.0).unwrap();
        assert_eq!(a.intersect(&c), Rect::from_ltrb(5.0, 9.5, 10.0, 10.0));
    }

    #[test]
    fn covering_pixels_round_outwards() {
        let r = Rect::from_ltrb(-0.5, 1.0, 2.25, 3.0).unwrap();
        let p = PixelRect::covering(&r);
        assert_eq!((p.x0, p.y0, p.x1, p.y1), (-1, 1, 3, 3));
    }

    /// The covering pixels are the library's floor and ceil, clamped to +-2^52, over
    /// 20,000 random rectangles of every size, the far ones included.
    #[test]
    fn covering_pixels_are_the_library_floor_and_ceil() {
        const LIM: f64 = 4_503_599_627_370_496.0;
        let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut value = || {
            let mag = f64::from((next() % 70) as u32).exp2();
            let whole = next() % 4 == 0;
            let v = ((next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2.0 * mag;
            if whole { v.round() } else { v }
        };
        let want = |v: f64, round: fn(f64) -> f64| round(v).clamp(-LIM, LIM) as i64;
        for _ in 0..20_000 {
            let (l, t) = (value(), value());
            let Some(r) = Rect::from_ltrb(l, t, l + value().abs(), t + value().abs()) else {
                continue;
            };
            let p = PixelRect::covering(&r);
            let expected = (
                want(r.left(), f64::floor),
                want(r.top(), f64::floor),
                want(r.right(), f64::ceil),
                want(r.bottom(), f64::ceil),
            );
            assert_eq!((p.x0, p.y0, p.x1, p.y1), expected, "{r:?}");
        }
    }

    #[test]
    fn nan_points_give_no_box() {
        assert_eq!(Rect::from_points([DVec2::NAN, DVec2::ONE]), None);
        assert_eq!(Rect::from_points([DVec2::ONE, DVec2::new(0.0, f64::NAN)]), None);
    }

    #[test]
    fn negative_zero_is_normalised() {
        let r = Rect::from_ltrb(-0.0, -0.0, 0.0, 0.0).unwrap();
        assert!(r.left().is_sign_positive());
    }
}
