//! usvg's paths and transforms as pixelhit's, and where a stroke's caps and corners are.

use glam::DAffine2;
use usvg::tiny_skia_path::{self, PathSegment, Point};

use crate::Path;

/// Joins where a path turns by less than this (radians, 1 degree) look the same with every
/// join style: the styles differ there by less than 1/10000 of the stroke width.
const SMOOTH_TURN: f64 = std::f64::consts::PI / 180.0;

/// usvg's transform (f32, `sx ky kx sy tx ty`) as a matrix `[a, b, c, d, tx, ty]`.
pub(super) fn matrix(t: tiny_skia_path::Transform) -> DAffine2 {
    DAffine2::from_cols_array(&[t.sx, t.ky, t.kx, t.sy, t.tx, t.ty].map(f64::from))
}

pub(super) fn to_path(data: &tiny_skia_path::Path) -> Path {
    let mut p = Path::new();
    let f = |pt: Point| (f64::from(pt.x), f64::from(pt.y));
    for seg in data.segments() {
        match seg {
            PathSegment::MoveTo(a) => {
                let (x, y) = f(a);
                p.move_to(x, y);
            }
            PathSegment::LineTo(a) => {
                let (x, y) = f(a);
                p.line_to(x, y);
            }
            PathSegment::QuadTo(c, a) => {
                let ((cx, cy), (x, y)) = (f(c), f(a));
                p.quad_to(cx, cy, x, y);
            }
            PathSegment::CubicTo(c1, c2, a) => {
                let ((c1x, c1y), (c2x, c2y), (x, y)) = (f(c1), f(c2), f(a));
                p.cubic_to(c1x, c1y, c2x, c2y, x, y);
            }
            PathSegment::Close => {
                p.close();
            }
        }
    }
    p
}

/// Whether a stroked path has caps (an open subpath that draws something) and corners
/// (joins where it turns by more than [`SMOOTH_TURN`]), the places where stroke styles
/// differ from pixelhit's round ones.
pub(super) fn stroke_shape(data: &tiny_skia_path::Path) -> (bool, bool) {
    #[derive(Default)]
    struct Sub {
        start: (f64, f64),
        last: (f64, f64),
        first_dir: Option<(f64, f64)>,
        last_dir: Option<(f64, f64)>,
        drawn: bool,
    }
    let mut open = false;
    let mut corner = false;
    let mut sub = Sub::default();
    let turns = |a: (f64, f64), b: (f64, f64)| {
        let cross = a.0 * b.1 - a.1 * b.0;
        let dot = a.0 * b.0 + a.1 * b.1;
        cross.abs().atan2(dot) > SMOOTH_TURN
    };
    // Adds a segment from `sub.last` through `pts` (controls, then the end point).
    let segment = |sub: &mut Sub, pts: &[(f64, f64)], corner: &mut bool| {
        sub.drawn = true;
        let Some(&end) = pts.last() else { return };
        let from = sub.last;
        let dir = |a: (f64, f64), b: (f64, f64)| (b.0 - a.0, b.1 - a.1);
        let start_dir = pts.iter().find(|&&q| q != from).map(|&q| dir(from, q));
        let end_dir = std::iter::once(&from)
            .chain(pts.iter())
            .rev()
            .find(|&&q| q != end)
            .map(|&q| dir(q, end));
        if let (Some(prev), Some(next)) = (sub.last_dir, start_dir)
            && turns(prev, next)
        {
            *corner = true;
        }
        if sub.first_dir.is_none() {
            sub.first_dir = start_dir;
        }
        if end_dir.is_some() {
            sub.last_dir = end_dir;
        }
        sub.last = end;
    };
    let f = |pt: Point| (f64::from(pt.x), f64::from(pt.y));
    for seg in data.segments() {
        match seg {
            PathSegment::MoveTo(a) => {
                open |= sub.drawn;
                sub = Sub {
                    start: f(a),
                    last: f(a),
                    ..Sub::default()
                };
            }
            PathSegment::LineTo(a) => segment(&mut sub, &[f(a)], &mut corner),
            PathSegment::QuadTo(c, a) => segment(&mut sub, &[f(c), f(a)], &mut corner),
            PathSegment::CubicTo(c1, c2, a) => segment(&mut sub, &[f(c1), f(c2), f(a)], &mut corner),
            PathSegment::Close => {
                if sub.drawn {
                    if sub.last != sub.start {
                        let start = sub.start;
                        segment(&mut sub, &[start], &mut corner);
                    }
                    if let (Some(prev), Some(first)) = (sub.last_dir, sub.first_dir)
                        && turns(prev, first)
                    {
                        corner = true;
                    }
                }
                // A closed subpath has no caps.
                sub = Sub {
                    start: sub.start,
                    last: sub.start,
                    ..Sub::default()
                };
            }
        }
    }
    open |= sub.drawn;
    (open, corner)
}

#[cfg(test)]
mod tests {
    use super::*;
    use usvg::Node;

    fn svg(body: &str) -> String {
        format!(r#"<svg xmlns="http://www.w3.org/2000/svg" width="100" height="100">{body}</svg>"#)
    }

    fn shape(d: &str) -> (bool, bool) {
        // usvg alone, so that this step's test does not lean on the document built from it.
        let text = svg(&format!(r#"<path d="{d}" stroke="black" fill="none"/>"#));
        let tree = usvg::Tree::from_str(&text, &usvg::Options::default()).unwrap();
        let Node::Path(p) = &tree.root().children()[0] else {
            panic!("not a path")
        };
        stroke_shape(p.data())
    }

    #[test]
    fn caps_and_corners_are_found_where_they_are() {
        assert_eq!(shape("M0 0 L10 0"), (true, false));
        assert_eq!(shape("M0 0 L10 0 L10 10"), (true, true));
        assert_eq!(shape("M0 0 L10 0 L10 10 Z"), (false, true));
        // A circle's four arcs meet smoothly, and it is closed.
        assert_eq!(
            shape("M10 0 A10 10 0 1 1 -10 0 A10 10 0 1 1 10 0 Z"),
            (false, false)
        );
        // Collinear pieces do not make a corner.
        assert_eq!(shape("M0 0 L5 0 L10 0"), (true, false));
        // A second, open subpath after a closed one has caps.
        assert_eq!(shape("M0 0 H10 V10 Z M20 0 Q 25 5 30 0"), (true, true));
    }
}
