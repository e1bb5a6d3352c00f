//! Paths: building, SVG data, bounds and flattening.

use std::f64::consts::PI;

use glam::DAffine2;

use super::flatten::MAX_CURVE_SEGMENTS;
use super::*;
use crate::Error;

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
                let q = a * (u * u * u) + c1 * (3.0 * u * u * t) + c2 * (3.0 * u * t * t) + e * (t * t * t);
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
            "M", "m", "L", "l", "H", "v", "C", "s", "Q", "t", "A", "a", "Z", "1", "0", "-2.5", ".5", "1e2",
            "-.3e-1", "7", ",", " ", "01", "1e999",
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
