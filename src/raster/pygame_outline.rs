//! A bitmap's solid outline ([`super::solid_hull`]) seen from a pygame surface's rows:
//! which columns of each row can step into it, so that the kernel
//! ([`super::pygame_bits`]) reads no pixel that cannot be solid.
//!
//! Where pygame's walk does not wrap, pixel `(x, y)` of the surface steps to
//! `s0 + x d + y e` (16.16 texels of the source as stored, [`super::pygame_bits`]'s
//! unflipped walk), exactly: an affine map of the integers. A pixel can be solid only if
//! that step lies in the outline, so the pixels that can be solid lie in the outline's
//! preimage, a convex polygon of the surface's plane. It is mapped once per fill (in f64),
//! and each row's columns are read off its two chains from the top vertex down, one edge
//! pointer each, as the rows go down. Rounding is far below [`MARGIN`], by which each row's
//! interval is widened: the interval may hold a pixel more, never one less.

use super::solid_hull::MAX_VERTICES;

/// Pixels each row's interval is widened by on each side, and rows the polygon's top and
/// bottom: far more than f64's rounding of coordinates below 2^16 (about 2^-36).
const MARGIN: f64 = 1.0 / 64.0;

/// Edges whose ends are closer than this in y are taken as flat: both ends' columns count
/// (an edge so steep in x would turn a rounding in y into a large one in x).
const FLAT: f64 = 1.0 / 1024.0;

/// An outline's preimage in a surface, and where each chain's walk has got to. Vertices
/// are mapped when a chain reaches them (most fills read a few rows of a large outline).
pub(crate) struct OutlineRows<'h> {
    hull: &'h [[i32; 2]],
    /// Pixel `(x, y)` of texel corner `(u, v)`: `x = m[0] u + m[1] v + m[2]`, `y = m[3] u
    /// + m[4] v + m[5]`.
    map: [f64; 6],
    /// The top and bottom vertices' rows, widened by [`MARGIN`].
    top: f64,
    bottom: f64,
    bottom_vertex: usize,
    /// The chain that goes forward from the top vertex, and the one that goes backward.
    chains: [Chain; 2],
    /// Whether the forward chain is the left one ([`OutlineRows::inside`]).
    forward_left: bool,
}

/// One chain's current edge, from vertex `at` to the next one down the chain, set up for
/// the rows that cross it: at row `yf` its columns are `[x, x + width]`, where
/// `x = base + yf slope` kept within the edge's columns `[left, right]`. A flat edge has
/// slope 0 and its whole width; any other, width 0. One multiply-add and two compares a
/// row, no branch on the edge's kind.
#[derive(Clone, Copy, Default)]
struct Chain {
    at: usize,
    /// Whether it goes backward through the vertices.
    backward: bool,
    /// The next vertex's row: the edge serves rows above it.
    until: f64,
    /// The next vertex, mapped: the next edge's start.
    end: (f64, f64),
    base: f64,
    slope: f64,
    left: f64,
    right: f64,
    width: f64,
}

impl<'h> OutlineRows<'h> {
    /// The preimage of `hull` (texel corners) under the walk `s0 + x d + y e` (16.16);
    /// `None` when the walk is degenerate or the outline empty, too large or too far.
    pub fn new(
        hull: &'h [[i32; 2]],
        s0: (i64, i64),
        d: (i64, i64),
        e: (i64, i64),
    ) -> Option<OutlineRows<'h>> {
        let n = hull.len();
        if !(3..=MAX_VERTICES).contains(&n) {
            return None;
        }
        let f = |v: i64| v as f64;
        let det = f(d.0) * f(e.1) - f(d.1) * f(e.0);
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let r = 1.0 / det;
        // s0 + x d + y e = (u, v) 2^16, by Cramer's rule.
        let one = 65536.0;
        let map = [
            one * f(e.1) * r,
            -one * f(e.0) * r,
            (f(s0.1) * f(e.0) - f(s0.0) * f(e.1)) * r,
            -one * f(d.1) * r,
            one * f(d.0) * r,
            (f(d.1) * f(s0.0) - f(d.0) * f(s0.1)) * r,
        ];
        let y = |[u, v]: [i32; 2]| map[3] * f64::from(u) + map[4] * f64::from(v) + map[5];
        let (mut top, mut bottom) = (0, 0);
        let (mut top_y, mut bottom_y) = (y(hull[0]), y(hull[0]));
        for (k, &p) in hull.iter().enumerate().skip(1) {
            let yk = y(p);
            if yk < top_y {
                (top, top_y) = (k, yk);
            }
            if yk > bottom_y {
                (bottom, bottom_y) = (k, yk);
            }
        }
        if !(top_y.abs() < 1e9 && bottom_y.abs() < 1e9 && map.iter().all(|m| m.is_finite())) {
            return None;
        }
        let mut rows = OutlineRows {
            hull,
            map,
            top: top_y - MARGIN,
            bottom: bottom_y + MARGIN,
            bottom_vertex: bottom,
            chains: [Chain::default(); 2],
            forward_left: false,
        };
        let p = rows.point(top);
        rows.chains = [rows.edge(top, false, p), rows.edge(top, true, p)];
        // Both chains' first edges go down from the top vertex (or across); the forward
        // one is on the left when it turns clockwise onto the backward one (y down). Were
        // it taken wrongly, `inside` would give every row empty, never a pixel outside.
        let (f, b) = (rows.chains[0].end, rows.chains[1].end);
        rows.forward_left = (f.0 - p.0) * (b.1 - p.1) - (f.1 - p.1) * (b.0 - p.0) < 0.0;
        Some(rows)
    }

    /// Vertex `k` in the surface's pixels.
    fn point(&self, k: usize) -> (f64, f64) {
        let ([u, v], m) = (self.hull[k], &self.map);
        let (u, v) = (f64::from(u), f64::from(v));
        (m[0] * u + m[1] * v + m[2], m[3] * u + m[4] * v + m[5])
    }

    /// The vertex after `k` on a chain.
    fn next(&self, k: usize, backward: bool) -> usize {
        match (backward, k) {
            (false, k) if k + 1 == self.hull.len() => 0,
            (false, k) => k + 1,
            (true, 0) => self.hull.len() - 1,
            (true, k) => k - 1,
        }
    }

    /// The chain's edge from vertex `at`, mapped to `p`.
    fn edge(&self, at: usize, backward: bool, p: (f64, f64)) -> Chain {
        let q = self.point(self.next(at, backward));
        let dy = q.1 - p.1;
        // A flat edge gives both ends' columns; past the bottom vertex (rows within the
        // margin below it) only its own column is near the outline.
        let flat = at == self.bottom_vertex || dy.abs() < FLAT;
        let (left, right) = match at == self.bottom_vertex {
            true => (p.0, p.0),
            false => (least(p.0, q.0), greatest(p.0, q.0)),
        };
        let slope = if flat { 0.0 } else { (q.0 - p.0) / dy };
        Chain {
            at,
            backward,
            until: if at == self.bottom_vertex {
                f64::INFINITY
            } else {
                q.1
            },
            end: q,
            base: if flat { left } else { p.0 - p.1 * slope },
            slope,
            left,
            right,
            width: if flat { right - left } else { 0.0 },
        }
    }

    /// The columns `[x0, x1)` of row `y` that can step into the outline (empty when
    /// `x0 >= x1`); rows are asked from the top down.
    #[inline(always)]
    pub fn row(&mut self, y: i64) -> (i64, i64) {
        let yf = y as f64;
        if yf < self.top || yf > self.bottom {
            return (0, 0);
        }
        let a = self.advanced(0, yf).across(yf);
        let b = self.advanced(1, yf).across(yf);
        let (lo, hi) = (least(a.0, b.0) - MARGIN, greatest(a.1, b.1) + MARGIN);
        (ceil(lo), floor(hi) + 1)
    }

    /// The columns `[x0, x1)` of row `y` whose steps lie strictly inside the outline, each
    /// one of them (empty when `x0 >= x1`; it may leave out a pixel or so near the sides):
    /// the row's crossings of the two chains, narrowed by [`MARGIN`] (a flat edge gives
    /// its inner end), on rows at least that far from the top and bottom vertices. Rows are
    /// asked from the top down, as with [`OutlineRows::row`] (one object serves one of the
    /// two).
    #[inline(always)]
    pub fn inside(&mut self, y: i64) -> (i64, i64) {
        let yf = y as f64;
        if yf < self.top + 2.0 * MARGIN || yf > self.bottom - 2.0 * MARGIN {
            return (0, 0);
        }
        let a = self.advanced(0, yf).across(yf);
        let b = self.advanced(1, yf).across(yf);
        let (left, right) = if self.forward_left { (a, b) } else { (b, a) };
        (ceil(left.1 + MARGIN), floor(right.0 - MARGIN) + 1)
    }

    /// Chain `c` moved down to the edge that serves row `yf` (rarely more than the one it
    /// is on: out of line).
    #[inline(always)]
    fn advanced(&mut self, c: usize, yf: f64) -> &Chain {
        if self.chains[c].until < yf {
            self.advance(c, yf);
        }
        &self.chains[c]
    }

    #[inline(never)]
    fn advance(&mut self, c: usize, yf: f64) {
        while self.chains[c].until < yf {
            let Chain {
                at, backward, end, ..
            } = self.chains[c];
            self.chains[c] = self.edge(self.next(at, backward), backward, end);
        }
    }

    /// The rows `[y0, y1)` it can hold.
    pub fn rows(&self) -> (i64, i64) {
        (ceil(self.top), floor(self.bottom) + 1)
    }
}

impl Chain {
    /// Its columns at row `yf`: one, kept within the edge, or both ends' when flat.
    #[inline(always)]
    fn across(&self, yf: f64) -> (f64, f64) {
        let x = greatest(least(self.base + yf * self.slope, self.right), self.left);
        (x, x + self.width)
    }
}

/// The lesser of two numbers that are not NaN (one compare: `f64::min` also sorts NaN).
#[inline(always)]
fn least(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

/// The greater of two numbers that are not NaN.
#[inline(always)]
fn greatest(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

/// `floor(x)` for |x| below 2^62, without a library call (the baseline x86-64 has no
/// rounding instruction).
#[inline(always)]
fn floor(x: f64) -> i64 {
    let t = x as i64;
    t - i64::from((t as f64) > x)
}

/// `ceil(x)` likewise.
#[inline(always)]
fn ceil(x: f64) -> i64 {
    let t = x as i64;
    t + i64::from((t as f64) < x)
}

#[cfg(test)]
mod tests {
    use super::OutlineRows;
    use crate::raster::solid_hull::SolidHull;

    /// Whether the 16.16 point `p` is in the closed hull (texel corners), in integers.
    fn inside(hull: &[[i32; 2]], p: (i64, i64)) -> bool {
        near(hull, p, 0.0)
    }

    /// Whether the 16.16 point `p` is within `by` (16.16) of the closed hull's every edge
    /// line (for a convex hull: within `by` of the hull, about).
    fn near(hull: &[[i32; 2]], p: (i64, i64), by: f64) -> bool {
        (0..hull.len()).all(|k| {
            let (a, b) = (hull[k], hull[(k + 1) % hull.len()]);
            let e = (i128::from(b[0] - a[0]), i128::from(b[1] - a[1]));
            let q = (
                i128::from(p.0) - (i128::from(a[0]) << 16),
                i128::from(p.1) - (i128::from(a[1]) << 16),
            );
            let length = ((e.0 * e.0 + e.1 * e.1) as f64).sqrt();
            (e.0 * q.1 - e.1 * q.0) as f64 >= -by * length
        })
    }

    /// A walk's `s0`, `d` and `e` (16.16).
    type Walk = ((i64, i64), (i64, i64), (i64, i64));

    /// Random art's outlines and a walk over it (`s0`, `d`, `e`) of a surface of `size`
    /// pixels a side whose centre steps to the art's: a turn (any angle, at and near
    /// quarter turns), a scale of 0.1 to 5 or a zoom, mirrored across now and then when
    /// `flips`.
    fn random_walk(
        rng: &mut super::super::test_rng::Rng,
        case: usize,
        flips: bool,
    ) -> (SolidHull, Walk, i64) {
        let (w, h) = (rng.below(40) as u32 + 1, rng.below(40) as u32 + 1);
        let alpha: Vec<u8> = (0..w * h)
            .map(|k| match case % 3 {
                0 => rng.below(256) as u8,
                1 => [0, 255][usize::from((k % w) * 3 % 7 < 3)],
                _ => [0, 0, 120, 255][rng.below(4) as usize],
            })
            .collect();
        let scale = [1.0, 0.1 + rng.below(490) as f64 / 100.0][case % 2];
        let turn = match case % 4 {
            0 => (rng.below(8) as f64) * std::f64::consts::FRAC_PI_2 + [0.0, 1e-4, -2e-5][case % 3],
            _ => rng.below(62_832) as f64 / 10_000.0,
        };
        let (s, c) = turn.sin_cos();
        let k = 65536.0 / scale;
        let flip = if flips { [1, -1][case % 5 % 2] } else { 1 };
        let (d, e) = match case % 7 {
            // A zoom: each axis alone.
            0 => (((k * 1.3) as i64 * flip, 0), (0, k as i64)),
            _ => (
                ((c * k) as i64 * flip, (s * k) as i64),
                ((-s * k) as i64, (c * k) as i64),
            ),
        };
        let size = (f64::from(w.max(h)) * 1.5 * scale) as i64 + 4;
        // The surface's centre steps to the source's centre.
        let centre = (i64::from(w) << 15, i64::from(h) << 15);
        let s0 = (
            centre.0 - size / 2 * (d.0 + e.0),
            centre.1 - size / 2 * (d.1 + e.1),
        );
        (SolidHull::new(w, &alpha), (s0, d, e), size)
    }

    /// Every pixel whose step lies in the outline is in its row's columns, and the columns
    /// hold few more (one in twenty over all; a flat edge gives both its ends, a few
    /// pixels more in the row that grazes it): over random art, turns
    /// (any angle, at and near quarter turns), scales 0.1 to 5 and zooms, checked against
    /// an exact integer test of each pixel.
    #[test]
    fn rows_hold_every_pixel_that_steps_into_the_outline() {
        let mut rng = super::super::test_rng::Rng(0x0b71_7e5a_c0de);
        let (mut pixels, mut extra) = (0u64, 0u64);
        for case in 0..400 {
            let (outline, (s0, d, e), size) = random_walk(&mut rng, case, false);
            let hull = outline.hull([1, 128, 255][case % 3], case % 2 == 0);
            let Some(mut rows) = OutlineRows::new(hull, s0, d, e) else {
                assert!(hull.is_empty(), "case {case}");
                continue;
            };
            for y in -2..size + 2 {
                let (x0, x1) = rows.row(y);
                let steps_in: Vec<i64> = (-2..size + 2)
                    .filter(|&x| inside(hull, (s0.0 + x * d.0 + y * e.0, s0.1 + x * d.1 + y * e.1)))
                    .collect();
                for &x in &steps_in {
                    assert!(
                        x0 <= x && x < x1,
                        "case {case}: row {y} column {x} outside {x0}..{x1}"
                    );
                }
                // The kernel reads a padded source at any column given: each must step within
                // a small part of a pixel of the outline (a texel of `rotate`'s at most).
                let pixel = (d.0 as f64).hypot(d.1 as f64);
                for x in [x0, x1 - 1].into_iter().filter(|_| x0 < x1) {
                    let p = (s0.0 + x * d.0 + y * e.0, s0.1 + x * d.1 + y * e.1);
                    assert!(
                        near(hull, p, pixel / 16.0),
                        "case {case}: row {y} column {x} ({x0}..{x1}) is far"
                    );
                }
                if let (Some(&first), Some(&last)) = (steps_in.first(), steps_in.last()) {
                    pixels += steps_in.len() as u64;
                    extra += (first - x0.max(-2)) as u64 + (x1.min(size + 2) - 1 - last) as u64;
                }
            }
        }
        assert!(pixels > 100_000, "{pixels} pixels");
        assert!(extra * 20 < pixels, "{extra} extra of {pixels}");
    }

    /// Whether the 16.16 point `p` is strictly inside the hull, in integers.
    fn strictly_inside(hull: &[[i32; 2]], p: (i64, i64)) -> bool {
        (0..hull.len()).all(|k| {
            let (a, b) = (hull[k], hull[(k + 1) % hull.len()]);
            let e = (i128::from(b[0] - a[0]), i128::from(b[1] - a[1]));
            let q = (
                i128::from(p.0) - (i128::from(a[0]) << 16),
                i128::from(p.1) - (i128::from(a[1]) << 16),
            );
            e.0 * q.1 - e.1 * q.0 > 0
        })
    }

    /// Every column `inside` gives steps strictly inside the outline, and it gives all but
    /// a few of those that do (a pixel or so a side, near the margin), over random art,
    /// turns (at, near and between quarter turns, both ways round), flips, scales 0.1 to 5
    /// and zooms, checked against an exact integer test of each pixel.
    #[test]
    fn inside_rows_step_only_inside_the_outline() {
        let mut rng = super::super::test_rng::Rng(0x1d5e_0c0e_5eed);
        let (mut pixels, mut missed) = (0u64, 0u64);
        for case in 0..400 {
            let (outline, (s0, d, e), size) = random_walk(&mut rng, case, true);
            let hull = outline.hull([1, 128, 255][case % 3], case % 2 == 0);
            let Some(mut rows) = OutlineRows::new(hull, s0, d, e) else {
                continue;
            };
            for y in -2..size + 2 {
                let (x0, x1) = rows.inside(y);
                let step = |x: i64| (s0.0 + x * d.0 + y * e.0, s0.1 + x * d.1 + y * e.1);
                for x in x0..x1 {
                    assert!(
                        strictly_inside(hull, step(x)),
                        "case {case}: row {y} column {x} of {x0}..{x1} not inside {hull:?}"
                    );
                }
                let steps_in = (-2..size + 2).filter(|&x| strictly_inside(hull, step(x))).count() as u64;
                pixels += steps_in;
                missed += steps_in - (x1.min(size + 2) - x0.max(-2)).max(0) as u64;
            }
        }
        assert!(pixels > 100_000, "{pixels} pixels");
        assert!(missed * 5 < pixels, "{missed} missed of {pixels}");
    }
}
