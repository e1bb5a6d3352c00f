//! Bitmap pixels against the fixed-point rule of semantics.md 4.5, bit for bit.
//!
//! The reference below is written from the contract's text alone and shares no code with
//! the crate: anchor and fraction from the translation, `inverse(L)` as the adjugate times
//! `1 / det` in f64, its columns and `U0` rounded to 2^-32 texel (ties away from zero), each
//! pixel's centre then mapped in i128 on its own; the texel is read, clamped, tested for
//! inside or interpolated (weights from the fixed-point fractions, summed exactly, rounded
//! once). The library steps along rows and skips transparent texels by a run table; every
//! pixel of every window must still match the reference.
//!
//! Anti-aliased values are `round(texel x c)` with `c` the exact coverage of the bitmap's
//! snapped rectangle: where the reference finds the pixel square wholly inside the snapped
//! rectangle (an exact integer test on the 1/256 px grid), `c` is one and the value must be
//! the texel itself, bit for bit; on the border the reference clips the pixel square by
//! the snapped rectangle and the value must be within rounding (0.5) of texel x area.

use glam::{DAffine2, DVec2};
use pixelhit::{Bitmap, CollisionOptions, Rect, Stage};

use crate::common::XorShift as Rng;

const UNIT: f64 = 4_294_967_296.0; // 2^32

/// The contract's mapping: `(U0, col0, col1)` in units of 2^-32 texel and the anchor, or
/// `None` when the linear part cannot be inverted or a value does not fit in i64 (the
/// library's documented choice: such a bitmap draws nothing).
struct Mapping {
    anchor: (i64, i64),
    u0: (i128, i128),
    col0: (i128, i128),
    col1: (i128, i128),
}

fn mapping(m: &DAffine2) -> Option<Mapping> {
    let [a, b, c, d, tx, ty] = m.to_cols_array();
    let (ax, ay) = (tx.floor(), ty.floor());
    let (fx, fy) = (tx - ax, ty - ay);
    let det = a * d - b * c;
    if det == 0.0 || !det.is_finite() {
        return None;
    }
    let inv_det = 1.0 / det;
    // inverse(L) for L = [[a, c], [b, d]]: [[d, -c], [-b, a]] / det, by columns.
    let (i00, i10) = (d * inv_det, -b * inv_det);
    let (i01, i11) = (-c * inv_det, a * inv_det);
    let (px, py) = (0.5 - fx, 0.5 - fy);
    let (u0, v0) = (i00 * px + i01 * py, i10 * px + i11 * py);
    let fixed = |x: f64| -> Option<i128> {
        let r = (x * UNIT).round();
        (r.abs() < 2f64.powi(63)).then_some(r as i128)
    };
    Some(Mapping {
        anchor: (ax as i64, ay as i64),
        u0: (fixed(u0)?, fixed(v0)?),
        col0: (fixed(i00)?, fixed(i10)?),
        col1: (fixed(i01)?, fixed(i11)?),
    })
}

impl Mapping {
    fn centre(&self, i: i64, j: i64) -> (i128, i128) {
        let (di, dj) = (i128::from(i - self.anchor.0), i128::from(j - self.anchor.1));
        (
            self.u0.0 + di * self.col0.0 + dj * self.col1.0,
            self.u0.1 + di * self.col0.1 + dj * self.col1.1,
        )
    }
}

struct Image {
    w: i128,
    h: i128,
    alpha: Vec<u8>,
}

impl Image {
    fn texel(&self, u: i128, v: i128) -> u8 {
        let (u, v) = (u.clamp(0, self.w - 1), v.clamp(0, self.h - 1));
        self.alpha[(v * self.w + u) as usize]
    }
    fn floor(x: i128) -> i128 {
        x.div_euclid(1 << 32)
    }
    fn inside(&self, (u, v): (i128, i128)) -> bool {
        (0..self.w).contains(&Self::floor(u)) && (0..self.h).contains(&Self::floor(v))
    }
    fn nearest(&self, (u, v): (i128, i128)) -> u8 {
        self.texel(Self::floor(u), Self::floor(v))
    }
    fn bilinear(&self, (u, v): (i128, i128)) -> u8 {
        let one = 1i128 << 32;
        let (qu, qv) = (u - one / 2, v - one / 2);
        let (fu, fv) = (Self::floor(qu), Self::floor(qv));
        let (tu, tv) = (qu - fu * one, qv - fv * one);
        let mut sum = 0i128;
        for (du, wu) in [(0, one - tu), (1, tu)] {
            for (dv, wv) in [(0, one - tv), (1, tv)] {
                sum += i128::from(self.texel(fu + du, fv + dv)) * wu * wv;
            }
        }
        // Rounded once, halves up: the sum is in units of 2^-64.
        ((sum + (1i128 << 63)) >> 64) as u8
    }
}

/// The bitmap's rectangle snapped as the contract says (corners mapped by the matrix
/// relative to the anchor, put on the 1/256 px grid), in grid units of the parent.
fn snapped_quad(m: &DAffine2, w: f64, h: f64, anchor: (i64, i64)) -> [(i64, i64); 4] {
    let rel = DAffine2 {
        matrix2: m.matrix2,
        translation: m.translation - DVec2::new(anchor.0 as f64, anchor.1 as f64),
    };
    [(0.0, 0.0), (w, 0.0), (w, h), (0.0, h)].map(|(x, y)| {
        let p = rel.transform_point2(DVec2::new(x, y));
        (
            (p.x * 256.0).round() as i64 + anchor.0 * 256,
            (p.y * 256.0).round() as i64 + anchor.1 * 256,
        )
    })
}

/// Whether the pixel square `(i, j)` lies wholly inside the convex quad (`Some(true)`),
/// wholly outside it on one side of an edge (`Some(false)`), or neither (`None`).
fn square_in_quad(q: &[(i64, i64); 4], i: i64, j: i64) -> Option<bool> {
    let corners = [(i, j), (i + 1, j), (i + 1, j + 1), (i, j + 1)].map(|(x, y)| (x * 256, y * 256));
    let cross = |a: (i64, i64), b: (i64, i64), p: (i64, i64)| {
        i128::from(b.0 - a.0) * i128::from(p.1 - a.1) - i128::from(b.1 - a.1) * i128::from(p.0 - a.0)
    };
    let area: i128 = (0..4).map(|k| cross((0, 0), q[k], q[(k + 1) % 4])).sum();
    if area == 0 {
        return Some(false);
    }
    let sign = area.signum();
    let mut all_in = true;
    for k in 0..4 {
        let (a, b) = (q[k], q[(k + 1) % 4]);
        let sides: Vec<i128> = corners.iter().map(|&p| cross(a, b, p) * sign).collect();
        if sides.iter().all(|&s| s <= 0) {
            return Some(false);
        }
        all_in &= sides.iter().all(|&s| s >= 0);
    }
    all_in.then_some(true)
}

/// The area of the pixel square `(i, j)` inside the convex quad (grid units of 1/256 px),
/// as a part of the pixel: the square clipped by each edge's half-plane, in coordinates
/// relative to the pixel so that f64 stays exact enough far from the origin.
fn square_area_in_quad(q: &[(i64, i64); 4], i: i64, j: i64) -> f64 {
    let local = q.map(|(x, y)| DVec2::new((x - i * 256) as f64, (y - j * 256) as f64));
    let signed: f64 = (0..4).map(|k| local[k].perp_dot(local[(k + 1) % 4])).sum();
    if signed == 0.0 {
        return 0.0;
    }
    let mut poly = vec![
        DVec2::new(0.0, 0.0),
        DVec2::new(256.0, 0.0),
        DVec2::new(256.0, 256.0),
        DVec2::new(0.0, 256.0),
    ];
    for k in 0..4 {
        let (a, b) = (local[k], local[(k + 1) % 4]);
        let side = |p: DVec2| (b - a).perp_dot(p - a) * signed.signum();
        let mut out = Vec::new();
        for n in 0..poly.len() {
            let (p, r) = (poly[n], poly[(n + 1) % poly.len()]);
            let (sp, sr) = (side(p), side(r));
            if sp >= 0.0 {
                out.push(p);
            }
            if (sp >= 0.0) != (sr >= 0.0) {
                out.push(p + (r - p) * (sp / (sp - sr)));
            }
        }
        poly = out;
        if poly.is_empty() {
            return 0.0;
        }
    }
    let twice: f64 = (0..poly.len())
        .map(|k| poly[k].perp_dot(poly[(k + 1) % poly.len()]))
        .sum();
    twice.abs() / 2.0 / 65536.0
}

/// A random alpha image with transparent and opaque runs and a transparent border at times.
fn random_image(rng: &mut Rng, w: u32, h: u32) -> Image {
    let border = rng.below(2) == 0;
    let alpha = (0..h)
        .flat_map(|v| (0..w).map(move |u| (u, v)))
        .map(|(u, v)| {
            if border && (u == 0 || v == 0 || u == w - 1 || v == h - 1) {
                return 0;
            }
            match rng.below(5) {
                0 | 1 => 0,
                2 => 255,
                _ => rng.below(256) as u8,
            }
        })
        .collect();
    Image {
        w: i128::from(w),
        h: i128::from(h),
        alpha,
    }
}

/// A matrix of one of the families the stepping must hold for.
fn random_matrix(rng: &mut Rng, family: u64) -> DAffine2 {
    let log_scale = |rng: &mut Rng| 10f64.powf(rng.range(-2.0, 2.0));
    let tiny = |rng: &mut Rng| match rng.below(3) {
        0 => 0.0,
        1 => rng.range(-1e-9, 1e-9),
        _ => rng.range(-0.01, 0.01),
    };
    let (angle, sx, sy, skew) = match family {
        // Near 0, 90 and 45 degrees (and exactly there), any scale.
        0 => (tiny(rng), log_scale(rng), log_scale(rng), 0.0),
        1 => (
            90f64.to_radians() + tiny(rng),
            log_scale(rng),
            log_scale(rng),
            0.0,
        ),
        2 => (
            45f64.to_radians() + tiny(rng),
            log_scale(rng),
            log_scale(rng),
            0.0,
        ),
        // Any angle, skew and mirror.
        3 => {
            let sign = if rng.below(2) == 0 { 1.0 } else { -1.0 };
            (
                rng.range(0.0, std::f64::consts::TAU),
                sign * log_scale(rng),
                log_scale(rng),
                rng.range(-0.8, 0.8),
            )
        }
        // Texel boundaries hit exactly: scales 2^k, quarter-pixel translations, right angles.
        _ => {
            let s = |rng: &mut Rng| 2f64.powi(rng.below(7) as i32 - 3);
            (
                f64::from(rng.below(4) as u32) * 90f64.to_radians(),
                s(rng),
                s(rng),
                0.0,
            )
        }
    };
    let (sin, cos) = if family == 4 {
        // Exact right angles, not cos(90 degrees) = 6e-17.
        [(0.0, 1.0), (1.0, 0.0), (0.0, -1.0), (-1.0, 0.0)][(angle / 90f64.to_radians()).round() as usize % 4]
    } else {
        angle.sin_cos()
    };
    let far = match rng.below(4) {
        0 => 0.0,
        1 => rng.range(-1e3, 1e3).round(),
        2 => rng.range(-1e7, 1e7).round(),
        _ => rng.range(-1e9, 1e9).round(),
    };
    let frac = |rng: &mut Rng| match (family, rng.below(3)) {
        (4, _) | (_, 0) => f64::from(rng.below(8) as u32) / 4.0,
        _ => rng.range(0.0, 1.0),
    };
    DAffine2::from_cols_array(&[
        sx * cos,
        sx * sin,
        sy * (skew * cos - sin),
        sy * (skew * sin + cos),
        far + rng.range(-30.0, 30.0).round() + frac(rng),
        far + rng.range(-30.0, 30.0).round() + frac(rng),
    ])
}

#[test]
fn bitmap_pixels_follow_the_fixed_point_rule_bit_for_bit() {
    let mut rng = Rng(0x5a3f_1e77);
    let (mut pixels, mut full, mut partial, mut cases) = (0u64, 0u64, 0u64, 0u64);
    for case in 0..3000 {
        let family = case % 5;
        let m = random_matrix(&mut rng, family);
        let scale = m.matrix2.x_axis.length().max(m.matrix2.y_axis.length());
        // Keep the windows small enough for thousands of cases: fewer texels when large.
        let most = ((160.0 / scale).floor() as u64).clamp(1, 24);
        let (w, h) = (1 + rng.below(most) as u32, 1 + rng.below(most) as u32);
        let image = random_image(&mut rng, w, h);
        let rgba = image.alpha.iter().flat_map(|&a| [9, 99, 199, a]).collect();
        let bitmap = Bitmap::from_rgba8(w, h, rgba).unwrap();
        let smoothing = rng.below(2) == 0;
        let mut stage = Stage::new();
        let node = stage.add_bitmap(stage.root(), bitmap, smoothing).unwrap();
        stage.set_matrix(node, m).unwrap();
        let Some(map) = mapping(&m) else {
            continue;
        };
        cases += 1;
        let quad = snapped_quad(&m, f64::from(w), f64::from(h), map.anchor);
        let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
        for &(x, y) in &quad {
            x0 = x0.min(x.div_euclid(256) - 2);
            y0 = y0.min(y.div_euclid(256) - 2);
            x1 = x1.max(x.div_euclid(256) + 3);
            y1 = y1.max(y.div_euclid(256) + 3);
        }
        // A random part of the window, so that rows start anywhere.
        let (x0, y0) = (x0 + rng.below(3) as i64, y0 + rng.below(3) as i64);
        let area = Rect::from_ltrb(x0 as f64, y0 as f64, x1 as f64, y1 as f64).unwrap();
        let sharp = stage
            .alpha_plane(
                node,
                stage.root(),
                area,
                &CollisionOptions::default().anti_alias(false),
            )
            .unwrap();
        let smooth = stage
            .alpha_plane(node, stage.root(), area, &CollisionOptions::default())
            .unwrap();
        for j in y0..y1 {
            for i in x0..x1 {
                let p = map.centre(i, j);
                let texel = match smoothing {
                    true => image.bilinear(p),
                    false => image.nearest(p),
                };
                let want = if image.inside(p) { texel } else { 0 };
                let got = sharp.get(i, j).unwrap();
                assert_eq!(
                    got, want,
                    "case {case} (family {family}, smoothing {smoothing}): pixel ({i}, {j}) without anti-aliasing, matrix {m:?}, {w}x{h}"
                );
                let got = smooth.get(i, j).unwrap();
                match square_in_quad(&quad, i, j) {
                    Some(true) => {
                        full += 1;
                        assert_eq!(
                            got, texel,
                            "case {case} (family {family}, smoothing {smoothing}): pixel ({i}, {j}) wholly inside, matrix {m:?}, {w}x{h}"
                        );
                    }
                    Some(false) => assert_eq!(got, 0, "case {case}: pixel ({i}, {j}) wholly outside"),
                    None => {
                        partial += 1;
                        let want = f64::from(texel) * square_area_in_quad(&quad, i, j);
                        assert!(
                            (f64::from(got) - want).abs() <= 0.5 + 1e-6,
                            "case {case} (family {family}, smoothing {smoothing}): pixel ({i}, {j}) on the border is {got}, texel {texel} x area gives {want}, matrix {m:?}, {w}x{h}"
                        );
                    }
                }
                pixels += 1;
            }
        }
    }
    println!("{cases} cases, {pixels} pixels, {full} wholly inside, {partial} on the border");
    assert!(cases > 2900 && full > 100_000 && partial > 10_000);
}

/// A centre exactly on a texel's left or top edge reads that texel; one 2^-32 texel short
/// of it reads the one before: the rule's own boundary, at scale 1 and at scale 1/4.
#[test]
fn texel_edges_hit_exactly_take_the_texel_right_and_below() {
    // Scale 1/2 and translation 0.25: pixel i's centre maps to u = 2 i + 0.5, never an
    // edge; scale 1 and translation 0.5: u = i exactly, every centre on a texel edge.
    let alpha: Vec<u8> = (1..=16).collect();
    let rgba = alpha.iter().flat_map(|&a| [0, 0, 0, a]).collect();
    let bitmap = Bitmap::from_rgba8(4, 4, rgba).unwrap();
    let mut stage = Stage::new();
    let node = stage.add_bitmap(stage.root(), bitmap, false).unwrap();
    stage
        .set_matrix(node, DAffine2::from_cols_array(&[1.0, 0.0, 0.0, 1.0, 0.5, 0.5]))
        .unwrap();
    let plane = stage
        .alpha_plane(
            node,
            stage.root(),
            Rect::from_ltrb(0.0, 0.0, 5.0, 5.0).unwrap(),
            &CollisionOptions::default().anti_alias(false),
        )
        .unwrap();
    // Pixel (i, j) has its centre on texel (i, j)'s top-left corner.
    for j in 0..5i64 {
        for i in 0..5i64 {
            let want = if i < 4 && j < 4 {
                alpha[(j * 4 + i) as usize]
            } else {
                0
            };
            assert_eq!(plane.get(i, j).unwrap(), want, "pixel ({i}, {j})");
        }
    }
}
