//! The exact box of a path mapped by a matrix, curve extrema included.

use glam::DVec2;
use lyon_path::geom::{CubicBezierSegment, QuadraticBezierSegment, point};

use super::{Path, Seg};
use crate::geom::interop::IntoAffine;
use crate::geom::rect::Rect;

impl Path {
    /// Exact axis-aligned box of the path mapped by `m`: control points are mapped first and
    /// then curve extrema are taken, so the box is tight for the mapped curve (not the box of
    /// the control points). Zero-length segments count; a lone move does not. `None` when the
    /// path is empty or the result is not finite.
    pub fn bounds(&self, m: impl IntoAffine) -> Option<Rect> {
        let m = &m.into_affine();
        let mut lo = DVec2::INFINITY;
        let mut hi = DVec2::NEG_INFINITY;
        let mut any = false;
        let mut finite = true;
        let mut add = |a: DVec2, b: DVec2| {
            finite &= a.is_finite() && b.is_finite();
            lo = lo.min(a);
            hi = hi.max(b);
        };
        self.walk(m, |seg| match seg {
            Seg::Start(p) => add(p, p),
            Seg::Line(p) => {
                any = true;
                add(p, p);
            }
            Seg::Quad(a, c, p) => {
                any = true;
                let b = QuadraticBezierSegment {
                    from: point(a.x, a.y),
                    ctrl: point(c.x, c.y),
                    to: point(p.x, p.y),
                }
                .bounding_box();
                add(DVec2::new(b.min.x, b.min.y), DVec2::new(b.max.x, b.max.y));
            }
            Seg::Cubic(a, c1, c2, p) => {
                any = true;
                let b = CubicBezierSegment {
                    from: point(a.x, a.y),
                    ctrl1: point(c1.x, c1.y),
                    ctrl2: point(c2.x, c2.y),
                    to: point(p.x, p.y),
                }
                .bounding_box();
                add(DVec2::new(b.min.x, b.min.y), DVec2::new(b.max.x, b.max.y));
            }
            Seg::Close => {}
        });
        if !(any && finite) {
            return None;
        }
        Rect::from_ltrb(lo.x, lo.y, hi.x, hi.y)
    }
}
