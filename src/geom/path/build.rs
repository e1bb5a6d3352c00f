//! Building a path command by command: moves, lines, curves, elliptical arcs, closes.

use std::f64::consts::{PI, TAU};

use glam::DVec2;

use super::{Path, Verb};

/// Largest angle of one cubic piece of an elliptical arc. The radial error of a cubic piece
/// grows with the sixth power of its angle: a quarter turn (lyon's piece) is off by 2.7e-4 of
/// the radius, a ninth of it (10 degrees) by 5e-10, under the 1e-9 this crate promises.
const MAX_ARC_STEP: f64 = PI / 18.0;

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
    pub(super) fn ensure_open(&mut self) {
        if !self.open {
            let c = self.current;
            self.move_to(c.x, c.y);
        }
    }

    pub(super) fn push_segment(&mut self, verb: Verb, pts: &[DVec2]) {
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

    pub(super) fn line_to_p(&mut self, p: DVec2) {
        self.line_to(p.x, p.y);
    }

    pub(super) fn cubic_to_p(&mut self, c1: DVec2, c2: DVec2, to: DVec2) {
        self.cubic_to(c1.x, c1.y, c2.x, c2.y, to.x, to.y);
    }

    /// Appends cubic pieces for the arc of the ellipse `center + rot * (radii * (cos t, sin t))`
    /// from `t = start` over `sweep` radians; `end`, when given, replaces the last computed end
    /// point so that the arc lands exactly where the caller needs it.
    pub(super) fn elliptic_arc(
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
    pub(super) fn svg_arc(&mut self, rx: f64, ry: f64, x_rot_deg: f64, large: bool, sweep: bool, to: DVec2) {
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
}
