//! Paths from lyon's, widened to f64.

use super::Path;

impl Path {
    /// Converts a lyon path, widening its f32 points to f64.
    pub fn from_lyon(path: &lyon_path::Path) -> Path {
        use lyon_path::Event;
        let w = |p: lyon_path::math::Point| (f64::from(p.x), f64::from(p.y));
        let mut out = Path::new();
        for event in path.iter() {
            match event {
                Event::Begin { at } => {
                    let (x, y) = w(at);
                    out.move_to(x, y);
                }
                Event::Line { to, .. } => {
                    let (x, y) = w(to);
                    out.line_to(x, y);
                }
                Event::Quadratic { ctrl, to, .. } => {
                    let ((cx, cy), (x, y)) = (w(ctrl), w(to));
                    out.quad_to(cx, cy, x, y);
                }
                Event::Cubic { ctrl1, ctrl2, to, .. } => {
                    let ((ax, ay), (bx, by), (x, y)) = (w(ctrl1), w(ctrl2), w(to));
                    out.cubic_to(ax, ay, bx, by, x, y);
                }
                Event::End { close, .. } => {
                    if close {
                        out.close();
                    }
                }
            }
        }
        out
    }
}
