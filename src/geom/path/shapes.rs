//! Paths of common shapes: rectangles, rounded rectangles, circles, ellipses, polygons.

use std::f64::consts::{FRAC_PI_2, PI, TAU};

use glam::DVec2;

use super::Path;
use crate::geom::interop::IntoPoint;

impl Path {
    /// A rectangle, clockwise on screen (y down) from its top-left corner. A negative width
    /// or height is folded so that the path is always clockwise.
    pub fn rect(x: f64, y: f64, w: f64, h: f64) -> Path {
        let (x, w) = if w < 0.0 { (x + w, -w) } else { (x, w) };
        let (y, h) = if h < 0.0 { (y + h, -h) } else { (y, h) };
        let mut p = Path::new();
        p.move_to(x, y)
            .line_to(x + w, y)
            .line_to(x + w, y + h)
            .line_to(x, y + h)
            .close();
        p
    }

    /// A rectangle with circular corners of radius `r`, clamped to `[0, min(w, h) / 2]`;
    /// clockwise on screen like [`Path::rect`].
    pub fn rounded_rect(x: f64, y: f64, w: f64, h: f64, r: f64) -> Path {
        let (x, w) = if w < 0.0 { (x + w, -w) } else { (x, w) };
        let (y, h) = if h < 0.0 { (y + h, -h) } else { (y, h) };
        let half = 0.5 * w.min(h);
        // Written without clamp(), which panics on NaN bounds.
        let r = if r > 0.0 { r.min(half) } else { 0.0 };
        if r <= 0.0 {
            return Path::rect(x, y, w, h);
        }
        let (l, t, rt, b) = (x, y, x + w, y + h);
        let mut p = Path::new();
        let rr = DVec2::splat(r);
        let no_rot = (0.0, 1.0);
        p.move_to(l + r, t);
        if l + r < rt - r {
            p.line_to(rt - r, t);
        }
        p.elliptic_arc(
            DVec2::new(rt - r, t + r),
            rr,
            no_rot,
            -FRAC_PI_2,
            FRAC_PI_2,
            Some(DVec2::new(rt, t + r)),
        );
        if t + r < b - r {
            p.line_to(rt, b - r);
        }
        p.elliptic_arc(
            DVec2::new(rt - r, b - r),
            rr,
            no_rot,
            0.0,
            FRAC_PI_2,
            Some(DVec2::new(rt - r, b)),
        );
        if l + r < rt - r {
            p.line_to(l + r, b);
        }
        p.elliptic_arc(
            DVec2::new(l + r, b - r),
            rr,
            no_rot,
            FRAC_PI_2,
            FRAC_PI_2,
            Some(DVec2::new(l, b - r)),
        );
        if t + r < b - r {
            p.line_to(l, t + r);
        }
        p.elliptic_arc(
            DVec2::new(l + r, t + r),
            rr,
            no_rot,
            PI,
            FRAC_PI_2,
            Some(DVec2::new(l + r, t)),
        );
        p.close();
        p
    }

    /// A circle of radius `r` around (cx, cy), clockwise on screen.
    pub fn circle(cx: f64, cy: f64, r: f64) -> Path {
        Path::ellipse(cx, cy, r, r)
    }

    /// An axis-aligned ellipse, clockwise on screen, made of 36 cubic pieces of 10 degrees (each within
    /// 1e-9 of the larger radius). Its extreme points are piece ends, so its bounds are exact.
    pub fn ellipse(cx: f64, cy: f64, rx: f64, ry: f64) -> Path {
        let (rx, ry) = (rx.abs(), ry.abs());
        let start = DVec2::new(cx + rx, cy);
        let mut p = Path::new();
        p.move_to(start.x, start.y);
        p.elliptic_arc(
            DVec2::new(cx, cy),
            DVec2::new(rx, ry),
            (0.0, 1.0),
            0.0,
            TAU,
            Some(start),
        );
        p.close();
        p
    }

    /// A closed polygon through the points; empty for fewer than 2 points.
    pub fn polygon<P: IntoPoint + Copy>(points: &[P]) -> Path {
        let mut p = Path::new();
        if let [first, rest @ ..] = points
            && !rest.is_empty()
        {
            let first = first.into_point();
            p.move_to(first.x, first.y);
            for q in rest.iter().map(|q| q.into_point()) {
                p.line_to(q.x, q.y);
            }
            p.close();
        }
        p
    }
}
