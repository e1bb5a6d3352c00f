//! Vector paths in f64: building, SVG path data, exact bounds and flattening.
//!
//! A path keeps its verbs and points apart so that equality is structural and cheap, and so
//! that `to_svg`/`from_svg` can round-trip it exactly. The start point of every segment is
//! implicit (the previous end point), which keeps subpaths continuous by construction.

use std::f64::consts::{FRAC_PI_2, PI, TAU};
use std::fmt::Write as _;

use glam::{DAffine2, DVec2};
use lyon_path::geom::{CubicBezierSegment, QuadraticBezierSegment, point};

use crate::error::Error;
use crate::geom::interop::{IntoAffine, IntoPoint};
use crate::geom::polygon::{Contour, Polylines};
use crate::geom::rect::Rect;

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
enum Verb {
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

/// Largest angle of one cubic piece of an elliptical arc. The radial error of a cubic piece
/// grows with the sixth power of its angle: a quarter turn (lyon's piece) is off by 2.7e-4 of
/// the radius, a ninth of it (10 degrees) by 5e-10, under the 1e-9 this crate promises.
const MAX_ARC_STEP: f64 = PI / 18.0;

/// Most line segments one curve may flatten into, so that a tiny tolerance cannot hang a
/// query; past it the tolerance is raised instead.
const MAX_CURVE_SEGMENTS: f64 = 65_536.0;

impl Path {
    /// An empty path.
    pub fn new() -> Path {
        Path::default()
    }

    /// Starts a new subpath at (x, y).
    pub fn move_to(&mut self, x: f64, y: f64) -> &mut Path {
        let p = DVec2::new(x, y);
        self.verbs.push(Verb::Move);
        self.points.push(p);
        self.start = p;
        self.current = p;
        self.open = true;
        self.drawn = false;
        self
    }

    /// Opens a subpath at the current point when none is open, so that drawing commands
    /// without a move start where the last one ended.
    fn ensure_open(&mut self) {
        if !self.open {
            let c = self.current;
            self.move_to(c.x, c.y);
        }
    }

    fn push_segment(&mut self, verb: Verb, pts: &[DVec2]) {
        self.ensure_open();
        self.verbs.push(verb);
        self.points.extend_from_slice(pts);
        if let Some(&last) = pts.last() {
            self.current = last;
        }
        self.drawn = true;
    }

    /// A straight line to (x, y).
    pub fn line_to(&mut self, x: f64, y: f64) -> &mut Path {
        self.push_segment(Verb::Line, &[DVec2::new(x, y)]);
        self
    }

    /// A quadratic Bézier with control point (cx, cy), ending at (x, y).
    pub fn quad_to(&mut self, cx: f64, cy: f64, x: f64, y: f64) -> &mut Path {
        self.push_segment(Verb::Quad, &[DVec2::new(cx, cy), DVec2::new(x, y)]);
        self
    }

    /// A cubic Bézier with control points (c1x, c1y) and (c2x, c2y), ending at (x, y).
    pub fn cubic_to(&mut self, c1x: f64, c1y: f64, c2x: f64, c2y: f64, x: f64, y: f64) -> &mut Path {
        self.push_segment(
            Verb::Cubic,
            &[DVec2::new(c1x, c1y), DVec2::new(c2x, c2y), DVec2::new(x, y)],
        );
        self
    }

    /// Closes the current subpath with a line back to its start; the next drawing command
    /// starts a new subpath there. Does nothing when the subpath has no drawing command yet.
    pub fn close(&mut self) -> &mut Path {
        if self.open && self.drawn {
            self.verbs.push(Verb::Close);
            self.current = self.start;
            self.open = false;
            self.drawn = false;
        }
        self
    }

    fn line_to_p(&mut self, p: DVec2) {
        self.line_to(p.x, p.y);
    }

    fn cubic_to_p(&mut self, c1: DVec2, c2: DVec2, to: DVec2) {
        self.cubic_to(c1.x, c1.y, c2.x, c2.y, to.x, to.y);
    }

    /// Appends cubic pieces for the arc of the ellipse `center + rot * (radii * (cos t, sin t))`
    /// from `t = start` over `sweep` radians; `end`, when given, replaces the last computed end
    /// point so that the arc lands exactly where the caller needs it.
    fn elliptic_arc(
        &mut self,
        center: DVec2,
        radii: DVec2,
        rot: (f64, f64),
        start: f64,
        sweep: f64,
        end: Option<DVec2>,
    ) {
        let (sin_r, cos_r) = rot;
        let map = |u: DVec2| {
            let v = u * radii;
            center + DVec2::new(cos_r * v.x - sin_r * v.y, sin_r * v.x + cos_r * v.y)
        };
        // NaN becomes 0 here and then 1; the sweep is at most a full turn, so at most 36
        // (the small slack keeps a full turn from rounding up to 37 pieces).
        let n = ((sweep.abs() / MAX_ARC_STEP - 1e-9).ceil() as usize).clamp(1, 64);
        let step = sweep / n as f64;
        // 4/3 tan(a/4) puts the cubic's midpoint on the circle (the usual circle cubic).
        let k = 4.0 / 3.0 * (step / 4.0).tan();
        for i in 0..n {
            let a1 = start + sweep * (i as f64 / n as f64);
            let a2 = if i + 1 == n {
                start + sweep
            } else {
                start + sweep * ((i + 1) as f64 / n as f64)
            };
            let (s1, c1) = a1.sin_cos();
            let (s2, c2) = a2.sin_cos();
            let ctrl1 = DVec2::new(c1 - k * s1, s1 + k * c1);
            let ctrl2 = DVec2::new(c2 + k * s2, s2 - k * c2);
            let to = match end {
                Some(e) if i + 1 == n => e,
                _ => map(DVec2::new(c2, s2)),
            };
            self.cubic_to_p(map(ctrl1), map(ctrl2), to);
        }
    }

    /// An SVG elliptical arc (endpoint form) from the current point to `to`, following the
    /// SVG implementation notes: radii too small are scaled up, zero radii give a line, equal
    /// endpoints give nothing.
    ///
    /// This is done here rather than with lyon's `SvgArc`, whose conversion asserts on inputs
    /// it considers degenerate (and can divide by an underflowed zero); here every step is
    /// scaled so that finite inputs never overflow, and odd cases fall back to a line.
    fn svg_arc(&mut self, rx: f64, ry: f64, x_rot_deg: f64, large: bool, sweep: bool, to: DVec2) {
        let from = self.current;
        if from == to {
            return;
        }
        let (rx, ry) = (rx.abs(), ry.abs());
        if !(rx > 0.0 && ry > 0.0) {
            self.line_to_p(to);
            return;
        }
        let (s, c) = (x_rot_deg % 360.0).to_radians().sin_cos();
        let half = from * 0.5 - to * 0.5;
        // Half the chord in the ellipse's own axes.
        let px = c * half.x + s * half.y;
        let py = -s * half.x + c * half.y;
        let pm = px.abs().max(py.abs());
        let rmax = rx.max(ry);
        let (rxn, ryn) = (rx / rmax, ry / rmax);
        if !(pm > 0.0 && rxn > 0.0 && ryn > 0.0) {
            self.line_to_p(to);
            return;
        }
        // The half chord in the space where the ellipse is a unit circle, up to the positive
        // factor pm / rmax, kept apart so that neither part overflows.
        let q = DVec2::new(px / pm / rxn, py / pm / ryn);
        let qn = q.length();
        if !(qn.is_finite() && qn > 0.0) {
            self.line_to_p(to);
            return;
        }
        let qhat = q / qn;
        let lam = qn * (pm / rmax);
        let (radii, qu, cu) = if lam < 1.0 {
            let sign = if large != sweep { 1.0 } else { -1.0 };
            let h = ((1.0 - lam) * (1.0 + lam)).sqrt();
            (
                DVec2::new(rx, ry),
                qhat * lam,
                DVec2::new(qhat.y, -qhat.x) * (sign * h),
            )
        } else {
            // Radii too small to reach: scale them up until the chord is a diameter.
            (DVec2::new(rxn, ryn) * (qn * pm), qhat, DVec2::ZERO)
        };
        let u1 = qu - cu;
        let u2 = -qu - cu;
        let t1 = u1.y.atan2(u1.x);
        let mut dt = u2.y.atan2(u2.x) - t1;
        if sweep && dt < 0.0 {
            dt += TAU;
        } else if !sweep && dt > 0.0 {
            dt -= TAU;
        }
        let v = cu * radii;
        let center = from * 0.5 + to * 0.5 + DVec2::new(c * v.x - s * v.y, s * v.x + c * v.y);
        if !(dt != 0.0 && dt.is_finite() && center.is_finite() && radii.is_finite()) {
            self.line_to_p(to);
            return;
        }
        self.elliptic_arc(center, radii, (s, c), t1, dt, Some(to));
    }

    /// Parses SVG path data: `M L H V C S Q T A Z`, upper case (absolute) and lower case
    /// (relative), implicit repeated commands, numbers like `1e-3` or `-.5.5`, arc flags
    /// written without separators, commas or whitespace between numbers.
    ///
    /// Arcs become cubic Béziers within 1e-9 of the radius; an arc with a zero radius is a
    /// straight line and one that ends where it starts is left out, as SVG says. An empty or
    /// blank string is an empty path.
    ///
    /// Errors: [`Error::PathData`] with the byte offset of an unknown command, a missing
    /// number or flag, a number that is not finite (including coordinates that overflow when
    /// relative offsets are added up), or data that does not start with `M`/`m`.
    ///
    /// ```
    /// use pixelhit::Path;
    /// let p = Path::from_svg("M0 0 h10 v10 h-10 z").unwrap();
    /// assert_eq!(p, pixelhit::Path::rect(0.0, 0.0, 10.0, 10.0));
    /// assert!(Path::from_svg("L1 1").is_err());
    /// ```
    pub fn from_svg(data: &str) -> crate::Result<Path> {
        Parser {
            s: data,
            b: data.as_bytes(),
            i: 0,
        }
        .run()
    }

    /// SVG path data for this path using only absolute `M L Q C Z` and the shortest
    /// decimal form of every number, so that [`Path::from_svg`] gives back an equal path.
    /// (Non-finite coordinates print as `NaN`/`inf`, which do not parse.)
    pub fn to_svg(&self) -> String {
        let mut s = String::new();
        let mut pts = self.points.iter();
        for verb in &self.verbs {
            let (letter, count) = match verb {
                Verb::Move => ('M', 1),
                Verb::Line => ('L', 1),
                Verb::Quad => ('Q', 2),
                Verb::Cubic => ('C', 3),
                Verb::Close => ('Z', 0),
            };
            if !s.is_empty() {
                s.push(' ');
            }
            s.push(letter);
            for k in 0..count {
                let Some(p) = pts.next() else { break };
                if k > 0 {
                    s.push(' ');
                }
                push_number(&mut s, p.x);
                s.push(' ');
                push_number(&mut s, p.y);
            }
        }
        s
    }

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
    fn walk(&self, m: &DAffine2, mut f: impl FnMut(Seg)) {
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
    fn flatten_all(
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
enum Seg {
    Start(DVec2),
    /// The end point (the start is the previous end).
    Line(DVec2),
    Quad(DVec2, DVec2, DVec2),
    Cubic(DVec2, DVec2, DVec2, DVec2),
    /// Back to the subpath's start.
    Close,
}

/// The tolerance to hand to lyon's flattening for a curve whose Wang's-formula measure (the
/// largest squared second difference, as lyon computes it) is `l`: at least `tol`, but large
/// enough that the curve never gives more than `MAX_CURVE_SEGMENTS` segments, and never below
/// lyon's own minimum. `None` when the curve is not finite; it is then replaced by its chord.
fn curve_tolerance(l: f64, tol: f64) -> Option<f64> {
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

/// Appends `v` in its shortest round-trip decimal form, choosing between plain and
/// exponent notation by length (1e300 should not print 300 zeros).
fn push_number(s: &mut String, v: f64) {
    let start = s.len();
    // Writing to a String cannot fail.
    let _ = write!(s, "{v}");
    // Exponent notation can only be shorter when the plain form pads with zeros.
    let plain_len = s.len() - start;
    if plain_len > 3 && s.get(start..).is_some_and(|t| t.contains("00")) {
        let exp = format!("{v:e}");
        if exp.len() < plain_len {
            s.truncate(start);
            s.push_str(&exp);
        }
    }
}

/// A single-pass parser over the bytes of SVG path data. Every step advances at least one
/// byte or returns, so parsing is linear and cannot loop.
struct Parser<'a> {
    s: &'a str,
    b: &'a [u8],
    i: usize,
}

fn is_wsp(c: u8) -> bool {
    matches!(c, b' ' | b'\t' | b'\n' | b'\r' | b'\x0c')
}

impl Parser<'_> {
    fn err(&self, offset: usize, reason: impl Into<String>) -> Error {
        Error::PathData {
            offset,
            reason: reason.into(),
        }
    }

    fn peek(&self) -> Option<u8> {
        self.b.get(self.i).copied()
    }

    fn skip_wsp(&mut self) {
        while self.peek().is_some_and(is_wsp) {
            self.i += 1;
        }
    }

    fn skip_comma_wsp(&mut self) {
        self.skip_wsp();
        if self.peek() == Some(b',') {
            self.i += 1;
            self.skip_wsp();
        }
    }

    fn skip_digits(&mut self) -> bool {
        let from = self.i;
        while self.peek().is_some_and(|c| c.is_ascii_digit()) {
            self.i += 1;
        }
        self.i > from
    }

    fn number(&mut self) -> crate::Result<f64> {
        self.skip_wsp();
        let start = self.i;
        if matches!(self.peek(), Some(b'+' | b'-')) {
            self.i += 1;
        }
        let int = self.skip_digits();
        let mut frac = false;
        if self.peek() == Some(b'.') {
            self.i += 1;
            frac = self.skip_digits();
        }
        if !int && !frac {
            self.i = start;
            return Err(self.err(start, "expected a number"));
        }
        if matches!(self.peek(), Some(b'e' | b'E')) {
            let mark = self.i;
            self.i += 1;
            if matches!(self.peek(), Some(b'+' | b'-')) {
                self.i += 1;
            }
            if !self.skip_digits() {
                // Not an exponent after all ("1em" is a number and an unknown command).
                self.i = mark;
            }
        }
        let text = self.s.get(start..self.i).unwrap_or("");
        let v: f64 = text
            .parse()
            .map_err(|_| self.err(start, format!("cannot read number {text:?}")))?;
        if !v.is_finite() {
            return Err(self.err(start, format!("number {text} is not finite")));
        }
        self.skip_comma_wsp();
        Ok(v)
    }

    fn flag(&mut self) -> crate::Result<bool> {
        self.skip_wsp();
        let v = match self.peek() {
            Some(b'0') => false,
            Some(b'1') => true,
            _ => return Err(self.err(self.i, "expected an arc flag (0 or 1)")),
        };
        self.i += 1;
        self.skip_comma_wsp();
        Ok(v)
    }

    fn pair(&mut self) -> crate::Result<DVec2> {
        let x = self.number()?;
        let y = self.number()?;
        Ok(DVec2::new(x, y))
    }

    fn at_number(&self) -> bool {
        matches!(self.peek(), Some(b'0'..=b'9' | b'+' | b'-' | b'.'))
    }

    fn run(mut self) -> crate::Result<Path> {
        let mut path = Path::new();
        let mut prev: Option<u8> = None;
        // Second control point of the last C/S, control point of the last Q/T, for the
        // reflections of S and T; any other command clears them.
        let mut last_cubic: Option<DVec2> = None;
        let mut last_quad: Option<DVec2> = None;
        loop {
            self.skip_wsp();
            let Some(c) = self.peek() else { break };
            let cmd_at = self.i;
            let cmd = if c.is_ascii_alphabetic() {
                if !b"MmLlHhVvCcSsQqTtAaZz".contains(&c) {
                    return Err(self.err(cmd_at, format!("unknown command {:?}", c as char)));
                }
                self.i += 1;
                c
            } else if self.at_number() && prev.is_some_and(|p| !matches!(p, b'Z' | b'z')) {
                match prev {
                    Some(b'M') => b'L',
                    Some(b'm') => b'l',
                    Some(p) => p,
                    None => b'L',
                }
            } else if prev.is_none() {
                return Err(self.err(cmd_at, "path data must start with M or m"));
            } else {
                let ch = self.s.get(cmd_at..).and_then(|s| s.chars().next());
                return Err(self.err(
                    cmd_at,
                    format!("expected a command, found {:?}", ch.unwrap_or('?')),
                ));
            };
            if prev.is_none() && !matches!(cmd, b'M' | b'm') {
                return Err(self.err(cmd_at, "path data must start with M or m"));
            }
            prev = Some(cmd);
            self.skip_wsp();
            let args_at = self.i;
            let rel = cmd.is_ascii_lowercase();
            let cur = path.current;
            let base = if rel { cur } else { DVec2::ZERO };
            let overflow = |p: &Parser| p.err(args_at, "coordinate is not finite (overflow)");
            let (cubic, quad) = match cmd.to_ascii_uppercase() {
                b'M' => {
                    let p = base + self.pair()?;
                    if !p.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.move_to(p.x, p.y);
                    (None, None)
                }
                b'L' => {
                    let p = base + self.pair()?;
                    if !p.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.line_to_p(p);
                    (None, None)
                }
                b'H' => {
                    let x = base.x + self.number()?;
                    if !x.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.line_to(x, cur.y);
                    (None, None)
                }
                b'V' => {
                    let y = base.y + self.number()?;
                    if !y.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.line_to(cur.x, y);
                    (None, None)
                }
                b'C' | b'S' => {
                    let c1 = if cmd.eq_ignore_ascii_case(&b'C') {
                        base + self.pair()?
                    } else {
                        last_cubic.map_or(cur, |k| cur * 2.0 - k)
                    };
                    let c2 = base + self.pair()?;
                    let p = base + self.pair()?;
                    if !(c1.is_finite() && c2.is_finite() && p.is_finite()) {
                        return Err(overflow(&self));
                    }
                    path.cubic_to_p(c1, c2, p);
                    (Some(c2), None)
                }
                b'Q' | b'T' => {
                    let c1 = if cmd.eq_ignore_ascii_case(&b'Q') {
                        base + self.pair()?
                    } else {
                        last_quad.map_or(cur, |k| cur * 2.0 - k)
                    };
                    let p = base + self.pair()?;
                    if !(c1.is_finite() && p.is_finite()) {
                        return Err(overflow(&self));
                    }
                    path.quad_to(c1.x, c1.y, p.x, p.y);
                    (None, Some(c1))
                }
                b'A' => {
                    let rx = self.number()?;
                    let ry = self.number()?;
                    let rot = self.number()?;
                    let large = self.flag()?;
                    let sweep = self.flag()?;
                    let p = base + self.pair()?;
                    if !p.is_finite() {
                        return Err(overflow(&self));
                    }
                    path.svg_arc(rx, ry, rot, large, sweep, p);
                    (None, None)
                }
                _ => {
                    path.close();
                    (None, None)
                }
            };
            last_cubic = cubic;
            last_quad = quad;
        }
        Ok(path)
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn svg(s: &str) -> Path {
        match Path::from_svg(s) {
            Ok(p) => p,
            Err(e) => panic!("{s:?}: {e}"),
        }
    }

    fn offset_of(s: &str) -> usize {
        match Path::from_svg(s) {
            Err(Error::PathData { offset, .. }) => offset,
            other => panic!("{s:?}: expected a path data error, got {other:?}"),
        }
    }

    fn ident_bounds(p: &Path) -> [f64; 4] {
        let b = p.bounds(DAffine2::IDENTITY).expect("bounds");
        [b.left(), b.top(), b.right(), b.bottom()]
    }

    fn close_to(a: [f64; 4], b: [f64; 4], eps: f64) -> bool {
        a.iter().zip(b.iter()).all(|(x, y)| (x - y).abs() <= eps)
    }

    #[test]
    fn absolute_and_relative_lines() {
        let mut want = Path::new();
        want.move_to(1.0, 2.0)
            .line_to(4.0, 6.0)
            .line_to(10.0, 6.0)
            .line_to(10.0, -1.0)
            .close();
        assert_eq!(svg("M1 2 L4 6 H10 V-1 Z"), want);
        assert_eq!(svg("m1,2 l3,4 h6 v-7 z"), want);
        // Implicit repeats: pairs after M are line_tos, relative after m.
        assert_eq!(svg("M1 2 4 6 10 6 10-1z"), want);
        assert_eq!(svg("m1 2 3 4 6 0 0-7Z"), want);
        assert_eq!(svg("M1 2L4 6H5 10V-1Z"), {
            let mut p = Path::new();
            p.move_to(1.0, 2.0)
                .line_to(4.0, 6.0)
                .line_to(5.0, 6.0)
                .line_to(10.0, 6.0)
                .line_to(10.0, -1.0)
                .close();
            p
        });
    }

    #[test]
    fn numbers_in_compact_forms() {
        let p = svg("M-.5.5L1e-3-2E+1 .5e1,+3");
        let mut want = Path::new();
        want.move_to(-0.5, 0.5).line_to(0.001, -20.0).line_to(5.0, 3.0);
        assert_eq!(p, want);
        assert_eq!(svg("M5. 6."), {
            let mut w = Path::new();
            w.move_to(5.0, 6.0);
            w
        });
    }

    #[test]
    fn after_close_drawing_starts_at_subpath_start() {
        let p = svg("M10 10 L20 10 L20 20 z l5 5");
        let mut want = Path::new();
        want.move_to(10.0, 10.0)
            .line_to(20.0, 10.0)
            .line_to(20.0, 20.0)
            .close()
            .line_to(15.0, 15.0);
        assert_eq!(p, want);
        assert_eq!(p.to_svg(), "M10 10 L20 10 L20 20 Z M10 10 L15 15");
        // A relative move after Z is relative to the start of the closed subpath.
        let q = svg("M10 10 h5 z m1 1 h1");
        let mut want = Path::new();
        want.move_to(10.0, 10.0)
            .line_to(15.0, 10.0)
            .close()
            .move_to(11.0, 11.0)
            .line_to(12.0, 11.0);
        assert_eq!(q, want);
    }

    #[test]
    fn builder_without_move_starts_at_origin_or_last_point() {
        let mut p = Path::new();
        p.line_to(3.0, 4.0);
        assert_eq!(p.to_svg(), "M0 0 L3 4");
        let mut q = Path::new();
        q.move_to(1.0, 1.0).line_to(2.0, 1.0).close().close();
        assert_eq!(q.to_svg(), "M1 1 L2 1 Z");
        let mut e = Path::new();
        e.move_to(1.0, 1.0).close();
        assert!(e.is_empty());
        assert_eq!(e.bounds(DAffine2::IDENTITY), None);
    }

    #[test]
    fn cubic_and_smooth_cubic_reflection() {
        let p = svg("M0 0 C1 2 3 4 5 6 S9 10 11 12 s1 1 2 2");
        let mut want = Path::new();
        want.move_to(0.0, 0.0)
            .cubic_to(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
            .cubic_to(7.0, 8.0, 9.0, 10.0, 11.0, 12.0)
            .cubic_to(13.0, 14.0, 12.0, 13.0, 13.0, 14.0);
        assert_eq!(p, want);
        // S after a non-cubic command uses the current point as its first control.
        let q = svg("M0 0 L1 1 S2 3 4 4");
        let mut want = Path::new();
        want.move_to(0.0, 0.0)
            .line_to(1.0, 1.0)
            .cubic_to(1.0, 1.0, 2.0, 3.0, 4.0, 4.0);
        assert_eq!(q, want);
        // S after Q does not reflect the quadratic control.
        let r = svg("M0 0 Q5 5 10 0 S12 3 14 0");
        let mut want = Path::new();
        want.move_to(0.0, 0.0)
            .quad_to(5.0, 5.0, 10.0, 0.0)
            .cubic_to(10.0, 0.0, 12.0, 3.0, 14.0, 0.0);
        assert_eq!(r, want);
        // Relative c and implicit repeats.
        let s = svg("m1 1 c1 0 1 1 0 1 1 0 1 1 0 1");
        let mut want = Path::new();
        want.move_to(1.0, 1.0)
            .cubic_to(2.0, 1.0, 2.0, 2.0, 1.0, 2.0)
            .cubic_to(2.0, 2.0, 2.0, 3.0, 1.0, 3.0);
        assert_eq!(s, want);
    }

    #[test]
    fn quadratic_and_smooth_quadratic_reflection() {
        let p = svg("M0 0 Q5 10 10 0 T20 0 t10 0");
        let mut want = Path::new();
        want.move_to(0.0, 0.0)
            .quad_to(5.0, 10.0, 10.0, 0.0)
            .quad_to(15.0, -10.0, 20.0, 0.0)
            .quad_to(25.0, 10.0, 30.0, 0.0);
        assert_eq!(p, want);
        let q = svg("M0 0 T10 0");
        let mut want = Path::new();
        want.move_to(0.0, 0.0).quad_to(0.0, 0.0, 10.0, 0.0);
        assert_eq!(q, want);
        // T after C does not reflect the cubic control.
        let r = svg("M0 0 C1 1 2 1 3 0 T6 0");
        let mut want = Path::new();
        want.move_to(0.0, 0.0)
            .cubic_to(1.0, 1.0, 2.0, 1.0, 3.0, 0.0)
            .quad_to(3.0, 0.0, 6.0, 0.0);
        assert_eq!(r, want);
        let s = svg("m0 0 q1 1 2 0 1 1 2 0");
        let mut want = Path::new();
        want.move_to(0.0, 0.0)
            .quad_to(1.0, 1.0, 2.0, 0.0)
            .quad_to(3.0, 1.0, 4.0, 0.0);
        assert_eq!(s, want);
    }

    /// Largest distance of the arc's cubics from the circle, relative to the radius.
    fn circle_error(p: &Path, c: DVec2, r: f64) -> f64 {
        let mut worst: f64 = 0.0;
        p.walk(&DAffine2::IDENTITY, |seg| {
            if let Seg::Cubic(a, c1, c2, e) = seg {
                for i in 0..=64 {
                    let t = i as f64 / 64.0;
                    let u = 1.0 - t;
                    let q =
                        a * (u * u * u) + c1 * (3.0 * u * u * t) + c2 * (3.0 * u * t * t) + e * (t * t * t);
                    worst = worst.max(((q - c).length() - r).abs() / r);
                }
            }
        });
        worst
    }

    #[test]
    fn arcs_follow_svg_rules() {
        // Half circle, sweep 1: clockwise on screen, bulging to negative y.
        let p = svg("M0 0 A10 10 0 0 1 20 0");
        assert!(close_to(ident_bounds(&p), [0.0, -10.0, 20.0, 0.0], 1e-9));
        assert!(circle_error(&p, DVec2::new(10.0, 0.0), 10.0) < 1e-9);
        let q = svg("M0 0 A10 10 0 0 0 20 0");
        assert!(close_to(ident_bounds(&q), [0.0, 0.0, 20.0, 10.0], 1e-9));
        // Radii too small are scaled up: same half circle.
        let s = svg("M0 0 A1 1 0 0 1 20 0");
        assert!(close_to(ident_bounds(&s), [0.0, -10.0, 20.0, 0.0], 1e-9));
        // From (0,10) to (10,0) on circles of radius 10 around (0,0) or (10,10). Sweep 1 runs
        // with growing angle (clockwise on screen): the large arc is then around (0,0).
        let large = svg("M0 10 A10 10 0 1 1 10 0");
        assert!(circle_error(&large, DVec2::ZERO, 10.0) < 1e-9);
        assert!(close_to(ident_bounds(&large), [-10.0, -10.0, 10.0, 10.0], 1e-9));
        let small = svg("M0 10 A10 10 0 0 1 10 0");
        assert!(circle_error(&small, DVec2::new(10.0, 10.0), 10.0) < 1e-9);
        assert!(close_to(ident_bounds(&small), [0.0, 0.0, 10.0, 10.0], 1e-9));
        let large2 = svg("M0 10 A10 10 0 1 0 10 0");
        assert!(circle_error(&large2, DVec2::splat(10.0), 10.0) < 1e-9);
        assert!(close_to(ident_bounds(&large2), [0.0, 0.0, 20.0, 20.0], 1e-9));
        let small2 = svg("M0 10 A10 10 0 0 0 10 0");
        assert!(circle_error(&small2, DVec2::ZERO, 10.0) < 1e-9);
        assert!(close_to(ident_bounds(&small2), [0.0, 0.0, 10.0, 10.0], 1e-9));
        // Ends exactly at the requested point.
        assert_eq!(large.current, DVec2::new(10.0, 0.0));
    }

    #[test]
    fn arc_flags_without_separators_and_relative() {
        let a = svg("M0 0 a1 1 0 01 1 1");
        let b = svg("M0 0 A1 1 0 0 1 1 1");
        assert_eq!(a, b);
        assert_eq!(a.current, DVec2::new(1.0, 1.0));
        let c = svg("M0 0a1,1,0,1,1,1,1");
        let d = svg("M0 0 A1 1 0 1 1 1 1");
        assert_eq!(c, d);
        assert_ne!(a, c);
        // Implicit repeat of arcs.
        let e = svg("M0 0 a5 5 0 0 1 10 0 5 5 0 0 1 10 0");
        assert_eq!(e.current, DVec2::new(20.0, 0.0));
        assert!(close_to(ident_bounds(&e), [0.0, -5.0, 20.0, 0.0], 1e-9));
    }

    #[test]
    fn rotated_elliptical_arc() {
        // Ellipse rx=20, ry=10 rotated 90 degrees: tall. A half turn from (0,-20) to (0,20).
        let p = svg("M0 -20 A20 10 90 0 1 0 20");
        assert!(close_to(ident_bounds(&p), [0.0, -20.0, 10.0, 20.0], 1e-9));
        assert!(close_to(
            ident_bounds(&svg("M0 -20 A20 10 90 0 0 0 20")),
            [-10.0, -20.0, 0.0, 20.0],
            1e-9
        ));
    }

    #[test]
    fn zero_radius_arc_is_a_line_and_empty_arc_is_omitted() {
        let mut want = Path::new();
        want.move_to(0.0, 0.0).line_to(5.0, 5.0);
        assert_eq!(svg("M0 0 A0 3 0 0 1 5 5"), want);
        assert_eq!(svg("M0 0 A3 0 0 0 1 5 5"), want);
        assert!(svg("M5 5 A3 3 0 0 1 5 5").is_empty());
    }

    #[test]
    fn arc_error_is_below_1e9_of_the_radius() {
        // From (r,0) to (0,r): "1 1" is the large arc around (r,r), the others go around 0.
        for (r, flags, c) in [(1.0, "0 1", 0.0), (1e6, "1 0", 0.0), (0.001, "1 1", 1.0)] {
            let s = format!("M{r} 0 A{r} {r} 0 {flags} 0 {r}");
            let p = svg(&s);
            let err = circle_error(&p, DVec2::splat(c * r), r);
            assert!(err < 1e-9, "{s}: {err}");
        }
        // A quarter turn in one cubic (lyon's choice) would be off by about 2.7e-4.
        let e = circle_error(&svg("M1 0 A1 1 0 0 1 -1 0"), DVec2::ZERO, 1.0);
        assert!(e > 1e-12 && e < 1e-9, "{e}");
        assert!(circle_error(&Path::circle(3.0, 4.0, 7.0), DVec2::new(3.0, 4.0), 7.0) < 1e-9);
    }

    #[test]
    fn extreme_arcs_end_where_asked() {
        for s in [
            "M0 0 A1e-300 1e300 45 1 1 1e-300 1e300",
            "M1e308 -1e308 A1e308 1e-308 90 0 0 -1e308 1e308",
            "M0 0 A5e-324 5e-324 0 1 0 1 1",
            "M0 0 A1 1 0 1 0 5e-324 0",
            "M0 0 A1e300 1 1e300 1 1 1e-300 -1e-300",
            "M-1e308 0 A1 1 0 0 1 1e308 0",
        ] {
            let p = svg(s);
            assert!(p.is_finite(), "{s}");
            let end = p.points.last().copied();
            let want = s.split(' ').rev().take(2).collect::<Vec<_>>();
            let (x, y): (f64, f64) = (want[1].parse().unwrap(), want[0].parse().unwrap());
            assert_eq!(end, Some(DVec2::new(x, y)), "{s}");
            let mut out = Polylines::default();
            p.flatten(&DAffine2::IDENTITY, 0.1, &mut out);
            let _ = p.bounds(DAffine2::IDENTITY);
        }
    }

    #[test]
    fn errors_have_offsets() {
        assert_eq!(offset_of("M0 0 X1 2"), 5);
        assert_eq!(offset_of("L1 2"), 0);
        assert_eq!(offset_of("  z"), 2);
        assert_eq!(offset_of("M0 0 L1"), 7);
        assert_eq!(offset_of("M0 0 L1,,2"), 8);
        assert!(Path::from_svg("M0 0 L1 , 2").is_ok());
        assert_eq!(offset_of("M0 0 L 1e999 2"), 7);
        assert_eq!(offset_of("M0 0 A1 1 0 2 1 3 3"), 12);
        assert_eq!(offset_of("M0 0 Z 1 2"), 7);
        assert_eq!(offset_of("M0 0 L1 2 é"), 10);
        assert_eq!(offset_of("M1e308 0 l1e308 0"), 10);
        assert_eq!(offset_of("M1 2 #"), 5);
        assert_eq!(offset_of("M1em"), 2);
        assert!(svg("").is_empty());
        assert!(svg(" \n\t ").is_empty());
        assert_eq!(svg(""), Path::new());
    }

    #[test]
    fn to_svg_round_trips() {
        let mut p = Path::new();
        p.move_to(0.1, -1e300)
            .line_to(1.0 / 3.0, 5e-324)
            .quad_to(-0.0, 2.5, 1e21, 7.0)
            .cubic_to(1.0, 2.0, 3.0, 4.0, 5.0, 6.0)
            .close()
            .line_to(1.0, 1.0)
            .move_to(2.0, 2.0)
            .move_to(3.0, 3.0);
        let s = p.to_svg();
        assert!(s.starts_with("M0.1 -1e300 L0.3333333333333333 5e-324 Q-0 2.5 1e21 7"));
        assert_eq!(svg(&s), p);
        assert_eq!(Path::new().to_svg(), "");
        let mut q = Path::new();
        q.move_to(1000.0, -0.001).line_to(0.01, 123456.0);
        assert_eq!(q.to_svg(), "M1e3 -1e-3 L0.01 123456");
    }

    struct Lcg(u64);
    impl Lcg {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6_364_136_223_846_793_005)
                .wrapping_add(1_442_695_040_888_963_407);
            self.0 >> 33
        }
        fn float(&mut self) -> f64 {
            let kind = self.next() % 4;
            let bits = (self.next() << 32) | self.next();
            match kind {
                0 => (self.next() % 200) as f64 - 100.0,
                1 => f64::from_bits(bits),
                _ => (self.next() as f64 / (1u64 << 31) as f64 - 0.5) * 1000.0,
            }
        }
        fn finite(&mut self) -> f64 {
            loop {
                let v = self.float();
                if v.is_finite() {
                    return v;
                }
            }
        }
    }

    #[test]
    fn random_paths_round_trip() {
        let mut rng = Lcg(42);
        for _ in 0..500 {
            let mut p = Path::new();
            for _ in 0..(rng.next() % 12) {
                let v: Vec<f64> = (0..6).map(|_| rng.finite()).collect();
                match rng.next() % 5 {
                    0 => p.move_to(v[0], v[1]),
                    1 => p.line_to(v[0], v[1]),
                    2 => p.quad_to(v[0], v[1], v[2], v[3]),
                    3 => p.cubic_to(v[0], v[1], v[2], v[3], v[4], v[5]),
                    _ => p.close(),
                };
            }
            let s = p.to_svg();
            assert_eq!(svg(&s), p, "{s}");
        }
    }

    #[test]
    fn garbage_never_panics_and_parses_round_trip() {
        let alphabet = b"MmLlHhVvCcSsQqTtAaZzX0123456789..--+eE,,    \n";
        let mut rng = Lcg(9);
        let mut parsed = 0;
        for _ in 0..20_000 {
            let len = (rng.next() % 16) as usize;
            // Half the strings from single characters, half from plausible tokens.
            let tokens: &[&str] = &[
                "M", "m", "L", "l", "H", "v", "C", "s", "Q", "t", "A", "a", "Z", "1", "0", "-2.5", ".5",
                "1e2", "-.3e-1", "7", ",", " ", "01", "1e999",
            ];
            let mut bytes: Vec<u8> = Vec::new();
            for _ in 0..len {
                if rng.next().is_multiple_of(2) {
                    bytes.push(alphabet[(rng.next() as usize) % alphabet.len()]);
                } else {
                    let t = tokens[(rng.next() as usize) % tokens.len()];
                    bytes.extend_from_slice(t.as_bytes());
                    bytes.push(b' ');
                }
            }
            if rng.next().is_multiple_of(2) {
                bytes.insert(0, b'M');
            }
            let s = String::from_utf8(bytes).unwrap_or_default();
            match Path::from_svg(&s) {
                Ok(p) => {
                    parsed += 1;
                    assert!(p.is_finite());
                    assert_eq!(svg(&p.to_svg()), p, "{s:?}");
                    let mut out = Polylines::default();
                    p.flatten(&DAffine2::from_angle(0.3), 0.1, &mut out);
                    let _ = p.bounds(DAffine2::from_scale(DVec2::new(0.0, 2.0)));
                }
                Err(Error::PathData { offset, .. }) => assert!(offset <= s.len()),
                Err(e) => panic!("unexpected error {e}"),
            }
        }
        assert!(parsed > 500, "{parsed}");
    }

    #[test]
    fn exact_bounds_of_curves() {
        // Quadratic (0,0) (10,20) (20,0): peak y at t=1/2 is 10.
        let q = svg("M0 0 Q10 20 20 0");
        assert_eq!(ident_bounds(&q), [0.0, 0.0, 20.0, 10.0]);
        // Cubic (0,0) (0,30) (30,30) (30,0): y(t) = 90 t (1-t), max at t=1/2 is 22.5.
        let c = svg("M0 0 C0 30 30 30 30 0");
        assert!(close_to(ident_bounds(&c), [0.0, 0.0, 30.0, 22.5], 1e-12));
        // Cubic with x overshooting both ways: (0,0) (-10,0) (20,0)... x(t) extrema.
        // x(t) = -30 t (1-t)^2 + 60 t^2 (1-t) + 10 t^3; x'(t) = 0 at t = (4 ± sqrt(6))/10... solve.
        let cc = svg("M0 0 C-10 5 20 5 10 0");
        let x = |t: f64| {
            let u = 1.0 - t;
            3.0 * u * u * t * -10.0 + 3.0 * u * t * t * 20.0 + t * t * t * 10.0
        };
        // x'(t)/3 = (p1-p0)(1-t)^2 + 2(p2-p1)t(1-t) + (p3-p2)t^2 = -10 + 80t - 80t^2
        let disc = (80.0f64 * 80.0 - 4.0 * 80.0 * 10.0).sqrt();
        let (t1, t2) = ((80.0 - disc) / 160.0, (80.0 + disc) / 160.0);
        let b = ident_bounds(&cc);
        assert!((b[0] - x(t1)).abs() < 1e-12 && (b[2] - x(t2)).abs() < 1e-12);
        assert!((b[3] - 3.75).abs() < 1e-12 && b[1] == 0.0);
    }

    #[test]
    fn bounds_map_control_points_first() {
        // Rotating a circle by any angle keeps its box at the mapped centre +- r.
        let c = Path::circle(10.0, 0.0, 5.0);
        for deg in [0.0f64, 17.0, 45.0, 90.0, 133.0] {
            let m = DAffine2::from_angle_translation(deg.to_radians(), DVec2::new(3.0, 4.0));
            let b = c.bounds(m).unwrap();
            let ctr = m.transform_point2(DVec2::new(10.0, 0.0));
            let want = [ctr.x - 5.0, ctr.y - 5.0, ctr.x + 5.0, ctr.y + 5.0];
            assert!(
                close_to([b.left(), b.top(), b.right(), b.bottom()], want, 1e-8),
                "{deg}"
            );
        }
        // A rotated square's box is the box of its mapped corners.
        let sq = Path::rect(0.0, 0.0, 10.0, 10.0);
        let m = DAffine2::from_angle(std::f64::consts::FRAC_PI_4);
        let b = sq.bounds(m).unwrap();
        let h = 10.0 / 2f64.sqrt();
        assert!(close_to(
            [b.left(), b.top(), b.right(), b.bottom()],
            [-h, 0.0, h, 2.0 * h],
            1e-12
        ));
    }

    #[test]
    fn circle_and_shape_bounds() {
        let c = Path::circle(3.0, -2.0, 7.5);
        assert!(close_to(ident_bounds(&c), [-4.5, -9.5, 10.5, 5.5], 1e-9));
        let e = Path::ellipse(0.0, 0.0, 4.0, 2.0);
        assert!(close_to(ident_bounds(&e), [-4.0, -2.0, 4.0, 2.0], 1e-9));
        let rr = Path::rounded_rect(0.0, 0.0, 20.0, 10.0, 50.0);
        assert!(close_to(ident_bounds(&rr), [0.0, 0.0, 20.0, 10.0], 1e-9));
        assert_eq!(
            Path::rounded_rect(1.0, 2.0, 3.0, 4.0, -1.0),
            Path::rect(1.0, 2.0, 3.0, 4.0)
        );
        assert_eq!(
            Path::rounded_rect(0.0, 0.0, 3.0, 4.0, f64::NAN),
            Path::rect(0.0, 0.0, 3.0, 4.0)
        );
        assert_eq!(
            ident_bounds(&Path::rect(5.0, 5.0, -2.0, 3.0)),
            [3.0, 5.0, 5.0, 8.0]
        );
        // Zero-length segment: zero-size box.
        assert_eq!(ident_bounds(&svg("M5,5 L5,5")), [5.0, 5.0, 5.0, 5.0]);
        // A trailing move does not count.
        assert_eq!(ident_bounds(&svg("M0 0 L1 1 M100 100")), [0.0, 0.0, 1.0, 1.0]);
        assert_eq!(svg("M1 1 M2 2").bounds(DAffine2::IDENTITY), None);
        let mut inf = Path::new();
        inf.move_to(0.0, 0.0).line_to(f64::INFINITY, 0.0);
        assert!(!inf.is_finite());
        assert_eq!(inf.bounds(DAffine2::IDENTITY), None);
        assert!(c.is_finite());
    }

    #[test]
    fn shapes_are_clockwise_on_screen() {
        // Positive shoelace area in y-down coordinates is clockwise on screen.
        let area = |p: &Path| {
            let mut out = Polylines::default();
            p.flatten(&DAffine2::IDENTITY, 0.01, &mut out);
            let c = out.contour(0);
            let n = c.len();
            (0..n).map(|i| c[i].perp_dot(c[(i + 1) % n])).sum::<f64>() * 0.5
        };
        assert!((area(&Path::rect(0.0, 0.0, 2.0, 3.0)) - 6.0).abs() < 1e-12);
        assert!((area(&Path::circle(0.0, 0.0, 10.0)) - PI * 100.0).abs() < 0.7);
        let rr = area(&Path::rounded_rect(0.0, 0.0, 10.0, 10.0, 2.0));
        assert!((rr - (100.0 - 4.0 * (4.0 - PI))).abs() < 0.2);
        assert_eq!(Path::polygon(&[DVec2::ONE]), Path::new());
        let tri = Path::polygon(&[DVec2::ZERO, DVec2::new(4.0, 0.0), DVec2::new(0.0, 4.0)]);
        assert!((area(&tri) - 8.0).abs() < 1e-12);
    }

    #[test]
    fn flatten_contours() {
        let p = svg("M0 0 L10 0 L10 10 Z M5,5 L5,5 M20 20 Q30 30 40 20 M50 50");
        let mut out = Polylines::default();
        let m = DAffine2::from_translation(DVec2::new(1.0, 2.0));
        p.flatten(&m, 0.1, &mut out);
        assert_eq!(out.contours.len(), 3);
        assert!(out.contours[0].closed && !out.contours[1].closed && !out.contours[2].closed);
        assert_eq!(
            out.contour(0),
            &[
                DVec2::new(1.0, 2.0),
                DVec2::new(11.0, 2.0),
                DVec2::new(11.0, 12.0)
            ]
        );
        assert_eq!(out.contour(1), &[DVec2::new(6.0, 7.0), DVec2::new(6.0, 7.0)]);
        let curve = out.contour(2);
        assert!(curve.len() > 3);
        assert_eq!(curve.first(), Some(&DVec2::new(21.0, 22.0)));
        assert_eq!(curve.last(), Some(&DVec2::new(41.0, 22.0)));
        // Every flattened point of the quadratic lies on it within tolerance: the curve is
        // y = 20 + 10 - (x - 30)^2 / 20 (parabola through the ends with peak 25 at x = 30).
        for q in curve {
            let (x, y) = (q.x - 1.0, q.y - 2.0);
            let on = 25.0 - (x - 30.0) * (x - 30.0) / 20.0;
            assert!((y - on).abs() < 0.1 + 1e-9);
        }
    }

    #[test]
    fn flattening_within_a_budget_is_all_or_nothing() {
        // Ten huge curves after a triangle already in `out`: 65,536 segments each.
        let mut d = String::from("M0 0 ");
        for _ in 0..10 {
            d.push_str("C1e12 1e12 -1e12 1e12 1 0 ");
        }
        let p = svg(&d);
        let mut all = Polylines::default();
        p.flatten(&DAffine2::IDENTITY, 1e-3, &mut all);
        let mut out = Polylines::default();
        out.push_contour([DVec2::ZERO, DVec2::X, DVec2::Y], true);
        let before = (out.points.clone(), out.contours.len());
        assert!(!p.flatten_within(&DAffine2::IDENTITY, 1e-3, &mut out, all.points.len() - 1));
        assert_eq!((out.points.clone(), out.contours.len()), before);
        assert!(p.flatten_within(&DAffine2::IDENTITY, 1e-3, &mut out, all.points.len()));
        assert_eq!(&out.points[3..], &all.points[..]);
        assert_eq!(out.contours.len(), 1 + all.contours.len());
    }

    #[test]
    fn flatten_survives_bad_tolerance_and_huge_curves() {
        let p = svg("M0 0 C1e12 1e12 -1e12 1e12 1 0");
        let mut out = Polylines::default();
        p.flatten(&DAffine2::IDENTITY, 0.0, &mut out);
        assert!(out.points.len() <= MAX_CURVE_SEGMENTS as usize + 2);
        out.clear();
        p.flatten(&DAffine2::IDENTITY, f64::NAN, &mut out);
        assert!(!out.points.is_empty());
        let mut bad = Path::new();
        bad.move_to(0.0, 0.0)
            .cubic_to(f64::NAN, 0.0, 1.0, f64::INFINITY, 2.0, 2.0);
        out.clear();
        bad.flatten(&DAffine2::IDENTITY, 0.1, &mut out);
        assert_eq!(out.contour(0), &[DVec2::ZERO, DVec2::new(2.0, 2.0)]);
    }

    #[test]
    fn from_lyon_converts() {
        let mut b = lyon_path::Path::builder();
        b.begin(lyon_path::math::point(1.0, 2.0));
        b.line_to(lyon_path::math::point(3.0, 2.0));
        b.quadratic_bezier_to(lyon_path::math::point(4.0, 3.0), lyon_path::math::point(3.0, 4.0));
        b.end(true);
        b.begin(lyon_path::math::point(0.5, 0.5));
        b.cubic_bezier_to(
            lyon_path::math::point(1.0, 1.0),
            lyon_path::math::point(2.0, 1.0),
            lyon_path::math::point(2.5, 0.5),
        );
        b.end(false);
        let p = Path::from_lyon(&b.build());
        assert_eq!(p.to_svg(), "M1 2 L3 2 Q4 3 3 4 Z M0.5 0.5 C1 1 2 1 2.5 0.5");
    }

    #[test]
    fn long_path_parses() {
        let n = 200_000;
        let mut s = String::with_capacity(n * 12);
        s.push_str("M0 0");
        for i in 0..n {
            s.push_str(if i % 2 == 0 { "l1.5,-2" } else { "h-.5" });
        }
        let p = svg(&s);
        assert_eq!(p.verbs.len(), n + 1);
        assert_eq!(p.current, DVec2::new(0.5 * n as f64, -(n as f64)));
    }
}
