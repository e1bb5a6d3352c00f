//! Vector paths in f64: the path type, its segments and its fill rules.
//!
//! A path keeps its verbs and points apart so that equality is structural and cheap, and so
//! that `to_svg`/`from_svg` can round-trip it exactly. The start point of every segment is
//! implicit (the previous end point), which keeps subpaths continuous by construction.
//!
//! - [`build`]: the chainable builder (`move_to`, `line_to`, curves, arcs, `close`).
//! - [`shapes`]: rectangles, rounded rectangles, circles, ellipses, polygons.
//! - [`svg_data`]: SVG path data in and out.
//! - [`lyon`]: paths from lyon.
//! - [`bounds`]: the exact box of a mapped path.
//! - [`contours`]: flattened contours, the polylines every later step reads.
//! - [`flatten`]: curves flattened to within a tolerance, into contours.

mod bounds;
mod build;
pub(crate) mod contours;
mod flatten;
mod lyon;
mod shapes;
mod svg_data;
#[cfg(test)]
mod tests;

use glam::{DAffine2, DVec2};

pub(crate) use contours::{Contour, Polylines};

/// Fill rule: which points a closed path covers.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Default, Hash)]
pub enum FillRule {
    /// A point is inside when the winding number around it is not zero.
    #[default]
    NonZero,
    /// A point is inside when the winding number around it is odd.
    EvenOdd,
}

#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Verb {
    /// One point: the start of a subpath.
    Move,
    /// One point: the end.
    Line,
    /// Two points: control, end.
    Quad,
    /// Three points: two controls, end.
    Cubic,
    /// No point: back to the subpath's start.
    Close,
}

/// A vector path in f64: subpaths of lines, quadratic and cubic Béziers.
///
/// Build one with the chainable methods, from SVG path data, or with the shape helpers:
///
/// ```
/// use pixelhit::{DAffine2, Path};
/// let mut p = Path::new();
/// p.move_to(0.0, 0.0).quad_to(10.0, 10.0, 20.0, 0.0).close();
/// // The box holds the curve's peak, not its control point.
/// let b = p.bounds(&DAffine2::IDENTITY).unwrap();
/// assert_eq!(b.to_xywh(), [0.0, 0.0, 20.0, 5.0]);
/// ```
#[derive(Clone, Debug, PartialEq, Default)]
pub struct Path {
    verbs: Vec<Verb>,
    points: Vec<DVec2>,
    /// Start of the current subpath, where a close returns to.
    start: DVec2,
    /// End of the last command: where the next segment begins.
    current: DVec2,
    /// Whether a subpath is open (a move was made and it was not closed since).
    open: bool,
    /// Whether the open subpath has a drawing command; closing an empty one is a no-op so that
    /// a stray `Z` never turns into a segment.
    drawn: bool,
}

impl Path {
    /// True when the path has no drawing segment (only move_tos or nothing).
    pub fn is_empty(&self) -> bool {
        !self
            .verbs
            .iter()
            .any(|v| matches!(v, Verb::Line | Verb::Quad | Verb::Cubic))
    }

    /// How many commands the path holds (moves, lines, curves and closes).
    pub(crate) fn command_count(&self) -> usize {
        self.verbs.len()
    }

    /// All coordinates finite.
    pub fn is_finite(&self) -> bool {
        self.points.iter().all(|p| p.is_finite())
    }

    /// Calls `f` with each drawing segment of the path, in order: every subpath that draws
    /// something starts with a `MoveTo` (lone moves are left out), and `Close` goes back to
    /// it. Useful to hand the geometry to another renderer.
    ///
    /// ```
    /// use pixelhit::{Path, PathSegment};
    /// let mut n = 0;
    /// Path::rect(0.0, 0.0, 2.0, 2.0).for_each_segment(|s| {
    ///     if matches!(s, PathSegment::LineTo(_)) { n += 1 }
    /// });
    /// assert_eq!(n, 3);
    /// ```
    pub fn for_each_segment(&self, mut f: impl FnMut(PathSegment)) {
        self.walk(&DAffine2::IDENTITY, |seg| {
            f(match seg {
                Seg::Start(p) => PathSegment::MoveTo(p),
                Seg::Line(p) => PathSegment::LineTo(p),
                Seg::Quad(_, c, p) => PathSegment::QuadTo(c, p),
                Seg::Cubic(_, c1, c2, p) => PathSegment::CubicTo(c1, c2, p),
                Seg::Close => PathSegment::Close,
            })
        });
    }

    /// Walks the drawing segments with points mapped by `m`. Each subpath with a drawing
    /// command reports `Seg::Start` with its first point before its first segment, so that
    /// lone moves are never seen; curves carry their start point for the geometry helpers.
    pub(super) fn walk(&self, m: &DAffine2, mut f: impl FnMut(Seg)) {
        let mut pts = self.points.iter().map(|&p| m.transform_point2(p));
        let mut cur = DVec2::ZERO;
        let mut start = DVec2::ZERO;
        let mut started = false;
        for verb in &self.verbs {
            match verb {
                Verb::Move => {
                    let Some(p) = pts.next() else { return };
                    cur = p;
                    start = p;
                    started = false;
                }
                Verb::Close => {
                    if started {
                        f(Seg::Close);
                        cur = start;
                        started = false;
                    }
                }
                Verb::Line | Verb::Quad | Verb::Cubic => {
                    if !started {
                        f(Seg::Start(cur));
                        started = true;
                    }
                    let seg = match verb {
                        Verb::Line => {
                            let Some(p) = pts.next() else { return };
                            Seg::Line(p)
                        }
                        Verb::Quad => {
                            let (Some(c), Some(p)) = (pts.next(), pts.next()) else {
                                return;
                            };
                            Seg::Quad(cur, c, p)
                        }
                        _ => {
                            let (Some(c1), Some(c2), Some(p)) = (pts.next(), pts.next(), pts.next()) else {
                                return;
                            };
                            Seg::Cubic(cur, c1, c2, p)
                        }
                    };
                    cur = match seg {
                        Seg::Line(p) | Seg::Quad(_, _, p) | Seg::Cubic(_, _, _, p) => p,
                        _ => cur,
                    };
                    f(seg);
                }
            }
        }
    }
}

/// One segment of a path, as [`Path::for_each_segment`] reports it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum PathSegment {
    /// Starts a subpath at the point.
    MoveTo(DVec2),
    /// A straight line to the point.
    LineTo(DVec2),
    /// A quadratic Bézier: control point, end point.
    QuadTo(DVec2, DVec2),
    /// A cubic Bézier: two control points, end point.
    CubicTo(DVec2, DVec2, DVec2),
    /// A straight line back to the subpath's start.
    Close,
}

/// A segment as `Path::walk` reports it, with its start point.
#[derive(Clone, Copy, Debug)]
pub(super) enum Seg {
    Start(DVec2),
    /// The end point (the start is the previous end).
    Line(DVec2),
    Quad(DVec2, DVec2, DVec2),
    Cubic(DVec2, DVec2, DVec2, DVec2),
    /// Back to the subpath's start.
    Close,
}
