//! Flattening: a path's curves turned into contours within a tolerance, with lyon.

use glam::{DAffine2, DVec2};
use lyon_path::geom::{CubicBezierSegment, QuadraticBezierSegment, point};

use super::{Contour, Path, Polylines, Seg};

/// Most line segments one curve may flatten into, so that a tiny tolerance cannot hang a
/// query; past it the tolerance is raised instead.
pub(super) const MAX_CURVE_SEGMENTS: f64 = 65_536.0;

impl Path {
    /// [`Path::flatten_within`] with no limit (for tests).
    #[cfg(test)]
    pub(crate) fn flatten(&self, m: &DAffine2, tolerance: f64, out: &mut Polylines) {
        self.flatten_within(m, tolerance, out, usize::MAX);
    }

    /// Appends one contour per subpath with a drawing command, with points mapped by `m` and
    /// curves flattened to within `tolerance` (in the mapped space). The closing edge of a
    /// closed subpath is not repeated as a point; `Contour::closed` records the `Z`.
    ///
    /// When that would add more than `max_points` points, `out` is left as it was and the
    /// answer is `false`: each curve gives at most 65,537 points, but a path of many curves
    /// under a huge scale would give billions.
    pub(crate) fn flatten_within(
        &self,
        m: &DAffine2,
        tolerance: f64,
        out: &mut Polylines,
        max_points: usize,
    ) -> bool {
        let (points_before, contours_before) = (out.points.len(), out.contours.len());
        let limit = points_before.saturating_add(max_points);
        let mut over = false;
        self.flatten_all(m, tolerance, out, &mut |out: &mut Polylines| {
            over |= out.points.len() > limit;
            over
        });
        if over {
            out.points.truncate(points_before);
            out.contours.truncate(contours_before);
        }
        !over
    }

    /// Flattens every segment into `out`, asking `stop(out)` after each segment whether to
    /// skip the rest (the walk over the commands goes on, adding nothing).
    pub(super) fn flatten_all(
        &self,
        m: &DAffine2,
        tolerance: f64,
        out: &mut Polylines,
        stop: &mut dyn FnMut(&mut Polylines) -> bool,
    ) {
        let mut stopped = false;
        let tol = if tolerance.is_finite() && tolerance > 0.0 {
            tolerance
        } else {
            0.0
        };
        let mut begin = out.points.len();
        let finish = |out: &mut Polylines, begin: usize, closed: bool| {
            let end = out.points.len();
            if end > begin {
                out.contours.push(Contour {
                    start: begin,
                    end,
                    closed,
                });
            }
        };
        self.walk(m, |seg| {
            if stopped {
                return;
            }
            flatten_segment(seg, tol, out, &mut begin, &finish);
            stopped = stop(out);
        });
        if !stopped {
            finish(out, begin, false);
        }
    }
}

/// One segment of [`Path::flatten_all`]: its points appended, and the contour finished at a
/// move or a close.
fn flatten_segment(
    seg: Seg,
    tol: f64,
    out: &mut Polylines,
    begin: &mut usize,
    finish: &impl Fn(&mut Polylines, usize, bool),
) {
    match seg {
        Seg::Start(p) => {
            // A subpath left open ends where the next one starts.
            finish(out, *begin, false);
            *begin = out.points.len();
            out.points.push(p);
        }
        Seg::Line(p) => out.points.push(p),
        Seg::Quad(a, c, p) => {
            let l = ((a - c * 2.0 + p) * 2.0).length_squared();
            match curve_tolerance(l, tol) {
                Some(t) => QuadraticBezierSegment {
                    from: point(a.x, a.y),
                    ctrl: point(c.x, c.y),
                    to: point(p.x, p.y),
                }
                .for_each_flattened(t, &mut |s| {
                    out.points.push(DVec2::new(s.to.x, s.to.y));
                }),
                None => out.points.push(p),
            }
        }
        Seg::Cubic(a, c1, c2, p) => {
            let l = ((a - c1 * 2.0 + c2) * 6.0)
                .length_squared()
                .max(((c1 - c2 * 2.0 + p) * 6.0).length_squared());
            match curve_tolerance(l, tol) {
                Some(t) => CubicBezierSegment {
                    from: point(a.x, a.y),
                    ctrl1: point(c1.x, c1.y),
                    ctrl2: point(c2.x, c2.y),
                    to: point(p.x, p.y),
                }
                .for_each_flattened(t, &mut |s| {
                    out.points.push(DVec2::new(s.to.x, s.to.y));
                }),
                None => out.points.push(p),
            }
        }
        Seg::Close => {
            finish(out, *begin, true);
            *begin = out.points.len();
        }
    }
}

/// The tolerance to hand to lyon's flattening for a curve whose Wang's-formula measure (the
/// largest squared second difference, as lyon computes it) is `l`: at least `tol`, but large
/// enough that the curve never gives more than `MAX_CURVE_SEGMENTS` segments, and never below
/// lyon's own minimum. `None` when the curve is not finite; it is then replaced by its chord.
pub(super) fn curve_tolerance(l: f64, tol: f64) -> Option<f64> {
    if !l.is_finite() {
        return None;
    }
    // lyon uses n = sqrt(sqrt(l) / (8 tol)) segments.
    let floor = l.sqrt() / (8.0 * MAX_CURVE_SEGMENTS * MAX_CURVE_SEGMENTS);
    Some(tol.max(floor).max(LYON_MIN_TOLERANCE))
}

/// The smallest tolerance lyon's flattening accepts: its f64 `EPSILON` (1e-8) squared, which
/// it asserts in debug builds (computed the same way: the product is a little over 1e-16).
/// It is only reached by curves in local space under a matrix that scales by more than
/// 1e13, where f64 itself cannot place points much closer.
const LYON_MIN_TOLERANCE: f64 = 1e-8 * 1e-8;
