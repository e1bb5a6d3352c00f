//! Which pixel centres of each row of a rectangle fall inside a convex region of texel
//! space (an octagon, and another pose's octagon with it), from only the sides that can
//! decide the rectangle's rows: the bitmap kernel's row bounds without anti-aliasing
//! ([`super::bitmap_bits`]).
//!
//! A region's side is a bound `lo <= w + k d` or `w + k d < hi` on one coordinate `w`
//! (`u`, `v`, `u + v` or `u - v` of the row's first centre, `d` its step along the row;
//! [`super::row_steps`] has the same condition row by row, two divisions an axis). Each side
//! gives the first step `k` that meets it, `ceil(x / D)` with `x` linear in the row. A
//! row's first step is the largest of its lower sides' (its end the smallest of its upper
//! ones), so before the rows a side is dropped when it decides none of them: one every row
//! meets before its first step (or past its last), and one that another side holds tighter
//! at the rectangle's first and last rows (both are linear in the row, so at every row
//! between). Then a row costs one division for each side left, and the two poses of a pair
//! make one interval a row. Measured (docs/frame-engine.md, "What the `rowsb` branch
//! measured"): it pays without anti-aliasing, where a fill's rows are this interval alone;
//! with it, the border rule's two regions and its short runs of rows left the set-up
//! dearer than the divisions it saved, so that rule keeps [`super::row_steps`].

/// Sides kept for each end of a row: two octagons' four axes.
const MAX_SIDES: usize = 8;

/// One side of a region before the rows: `x` at the first and the last row, its change a
/// row, and `D > 0`; the side's first step in a row is `ceil(x / D)`.
#[derive(Clone, Copy, Debug, Default)]
struct Line {
    first: i64,
    last: i64,
    change: i64,
    d: i64,
}

impl Line {
    /// Whether this side decides none of the rows on its own: a first step at or before
    /// 0 on both end rows (`x <= 0`) is 0 on every row, and an end at or past `n` (`x >
    /// (n - 1) D`) is `n`; the interval is cut to `0..n` anyway.
    fn idle(&self, n: i64, lower: bool) -> bool {
        match lower {
            true => self.first <= 0 && self.last <= 0,
            false => {
                let edge = i128::from(n - 1) * i128::from(self.d);
                i128::from(self.first) > edge && i128::from(self.last) > edge
            }
        }
    }
}

/// A convex region's sides over the rows of a rectangle, gathered ([`RowBounds::octagon`],
/// [`RowBounds::boxed`]), then those that decide its rows picked ([`RowBounds::decide`]).
/// Kept in the kernel's buffers and reused ([`RowBounds::reset`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct RowBounds {
    /// Every side, and the rows and steps.
    all: RowSides,
    /// Rows `0..height`.
    height: i64,
    /// A side would leave i64 (or too many sides): [`RowBounds::decide`] refuses.
    failed: bool,
}

/// `ceil(a / b)` for `b > 0`, in i128 (a side with no step along the row only).
fn ceil_div(a: i128, b: i128) -> i128 {
    -(-a).div_euclid(b)
}

impl RowBounds {
    /// No sides, over `height` rows of `n` steps (both above 0).
    pub fn reset(&mut self, n: i64, height: i64) {
        (self.all.lows, self.all.ups) = (0, 0);
        self.all.rows = (0, height);
        (self.all.n, self.height) = (n, height);
        self.failed = false;
    }

    /// The side `lo <= w + k d < hi` with `w = w0 + t f` in row `t` (`None`: it left i64).
    fn axis(&mut self, w0: Option<i64>, f: Option<i64>, d: Option<i64>, (lo, hi): (i64, i64)) {
        let (Some(w0), Some(f), Some(d)) = (w0, f, d) else {
            self.failed = true;
            return;
        };
        if d == 0 {
            self.rows_within(w0, f, (lo, hi));
            return;
        }
        // Negated for a negative step, as in `row_steps`: 1 - hi <= -w + k |d| < 1 - lo.
        let (x_lo, x_hi, g) = match d > 0 {
            true => (lo.checked_sub(w0), hi.checked_sub(w0), f.checked_neg()),
            false => (w0.checked_sub(hi), w0.checked_sub(lo), Some(f)),
        };
        let shift = if d > 0 { 0 } else { 1 };
        let last = self.height - 1;
        let line = |x: Option<i64>| -> Option<Line> {
            let (first, change) = (x?.checked_add(shift)?, g?);
            Some(Line {
                first,
                last: change.checked_mul(last)?.checked_add(first)?,
                change,
                d: d.checked_abs()?,
            })
        };
        match (line(x_lo), line(x_hi)) {
            (Some(l), Some(h)) if self.all.lows < MAX_SIDES && self.all.ups < MAX_SIDES => {
                self.all.lower[self.all.lows] = l;
                self.all.lows += 1;
                self.all.upper[self.all.ups] = h;
                self.all.ups += 1;
            }
            _ => self.failed = true,
        }
    }

    /// A side with no step along a row, `lo <= w0 + t f < hi`: a row is inside whole or
    /// not at all, so it cuts the rows.
    fn rows_within(&mut self, w0: i64, f: i64, (lo, hi): (i64, i64)) {
        let (w0, f, lo, hi) = (i128::from(w0), i128::from(f), i128::from(lo), i128::from(hi));
        let height = i128::from(self.height);
        let (a, b) = match f {
            0 if lo <= w0 && w0 < hi => (0, height),
            0 => (0, 0),
            f if f > 0 => (ceil_div(lo - w0, f), ceil_div(hi - w0, f)),
            f => (ceil_div(1 - hi + w0, -f), ceil_div(1 - lo + w0, -f)),
        };
        let clamp = |t: i128| t.clamp(0, height) as i64;
        self.all.rows = (self.all.rows.0.max(clamp(a)), self.all.rows.1.min(clamp(b)));
    }

    /// Adds the octagon `b` (`[u0, v0, u1, v1, s0, s1, d0, d1]`, fixed point, half-open:
    /// `u0 <= u < u1`, `v0 <= v < v1`, `s0 <= u + v < s1`, `d0 <= u - v < d1`) for centres
    /// from `at` (row 0's first), stepping by `col0` along a row and `col1` down.
    pub fn octagon(&mut self, at: (i64, i64), col0: (i64, i64), col1: (i64, i64), b: [i64; 8]) {
        self.boxed(at, col0, col1, [b[0], b[1], b[2], b[3]]);
        let sum = |(a, b): (i64, i64)| a.checked_add(b);
        let diff = |(a, b): (i64, i64)| a.checked_sub(b);
        self.axis(sum(at), sum(col1), sum(col0), (b[4], b[5]));
        self.axis(diff(at), diff(col1), diff(col0), (b[6], b[7]));
    }

    /// Adds the box `b` (`[u0, v0, u1, v1]`, fixed point, half-open), as
    /// [`RowBounds::octagon`].
    pub fn boxed(&mut self, at: (i64, i64), col0: (i64, i64), col1: (i64, i64), b: [i64; 4]) {
        self.axis(Some(at.0), Some(col1.0), Some(col0.0), (b[0], b[2]));
        self.axis(Some(at.1), Some(col1.1), Some(col0.1), (b[1], b[3]));
    }

    /// Puts into `sides` the sides that decide a row; `false` when a side would leave
    /// i64.
    pub fn decide(&self, sides: &mut RowSides) -> bool {
        if self.failed {
            return false;
        }
        let n = self.all.n;
        for (lines, lower) in [
            (&self.all.lower[..self.all.lows], true),
            (&self.all.upper[..self.all.ups], false),
        ] {
            let (kept, count) = deciding(lines, n, lower);
            let (out, len) = match lower {
                true => (&mut sides.lower, &mut sides.lows),
                false => (&mut sides.upper, &mut sides.ups),
            };
            *len = count;
            for (o, &i) in out.iter_mut().zip(&kept[..count]) {
                *o = lines[i];
            }
        }
        (sides.rows, sides.n) = (self.all.rows, n);
        true
    }
}

/// The sides of a region that decide its rows ([`RowBounds::decide`]): a row's steps from
/// them alone, a division a side ([`RowSides::row`]).
#[derive(Clone, Debug, Default)]
pub(crate) struct RowSides {
    /// The sides that give a row's first step, and those that give its end.
    lower: [Line; MAX_SIDES],
    lows: usize,
    upper: [Line; MAX_SIDES],
    ups: usize,
    /// The rows `t` that can hold steps (`rows.0 <= t < rows.1`): the sides on a coordinate
    /// that does not change along a row hold a row whole or not at all.
    rows: (i64, i64),
    /// Steps `0..n` a row.
    n: i64,
}

impl RowSides {
    /// Row `t`'s steps `first..end` inside the region (empty when `first >= end`, always
    /// within `0..n`), for `t` among the rows the region was made for.
    #[inline(always)]
    pub fn row(&self, t: i64) -> (i64, i64) {
        if t < self.rows.0 || t >= self.rows.1 {
            return (0, 0);
        }
        // `x` at row `t` fits in i64 (it lies between its values at the end rows), so the
        // wrapping arithmetic is exact; `ceil(x / D)` for `x > 0` is one unsigned division.
        let x = |l: &Line| l.first.wrapping_add(t.wrapping_mul(l.change));
        let mut first = 0;
        for l in &self.lower[..self.lows] {
            let x = x(l);
            if x > 0 {
                first = first.max(((x - 1) as u64 / l.d as u64) as i64 + 1);
            }
        }
        let mut end = self.n;
        for l in &self.upper[..self.ups] {
            let x = x(l);
            if x <= 0 {
                return (0, 0);
            }
            end = end.min(((x - 1) as u64 / l.d as u64) as i64 + 1);
        }
        (first, end)
    }
}

/// How far apart two sides' `x / D` worked out in f64 must be, relative to their size,
/// for the order to be that of the exact values: each is within `2^-51` of its size.
const CLEAR: f64 = 1.0 / (1u64 << 40) as f64;

/// The sides of one end (`lower`: the first steps) that can decide a row: their indices
/// and how many. Not the idle ones, nor one that the tightest side at the first or at the
/// last row (by f64) holds tighter at both rows by more than f64's error (then it is at
/// every row between: both are linear in the row). Over a few dozen rows one side an end
/// is the rule.
fn deciding(lines: &[Line], n: i64, lower: bool) -> ([usize; MAX_SIDES], usize) {
    let mut kept = [0; MAX_SIDES];
    let mut count = 0;
    for (i, l) in lines.iter().enumerate() {
        if !l.idle(n, lower) {
            kept[count] = i;
            count += 1;
        }
    }
    if count <= 1 {
        return (kept, count);
    }
    // Each side's `x / D` at the two end rows, negated for an end: the larger, the tighter.
    let sign = if lower { 1.0 } else { -1.0 };
    let mut at = [(0.0, 0.0); MAX_SIDES];
    for (a, &i) in at.iter_mut().zip(&kept[..count]) {
        let l = &lines[i];
        let d = l.d as f64;
        *a = (sign * l.first as f64 / d, sign * l.last as f64 / d);
    }
    let (mut a, mut b) = (0, 0);
    for k in 1..count {
        a = if at[k].0 > at[a].0 { k } else { a };
        b = if at[k].1 > at[b].1 { k } else { b };
    }
    let clear = |x: f64, y: f64| x - y > (x.abs() + y.abs()) * CLEAR;
    let held = |k: usize, by: usize| clear(at[by].0, at[k].0) && clear(at[by].1, at[k].1);
    let mut left = 0;
    for k in 0..count {
        if !held(k, a) && !held(k, b) {
            kept[left] = kept[k];
            left += 1;
        }
    }
    (kept, left)
}

#[cfg(test)]
mod tests {
    use super::super::row_steps::{BoxSteps, OctagonSteps};
    use super::super::test_rng::Rng;
    use super::*;

    /// A value of any size up to `2^bits`, either sign, often small or zero.
    fn value(rng: &mut Rng, bits: u32) -> i64 {
        match rng.below(4) {
            0 => rng.below(5) - 2,
            1 => rng.below(64) - 32,
            _ => {
                let b = rng.below(i64::from(bits)) as u32 + 1;
                rng.below(1 << b) - (1 << (b - 1))
            }
        }
    }

    /// A random pose's rows (first centre, steps along and down) in fixed point, as a
    /// bitmap pose at scales from 0.01 to 100 in any turn gives them (a step of 0 on an
    /// axis often: turns by right angles), near the bitmap or far from it.
    fn pose(rng: &mut Rng) -> ((i64, i64), (i64, i64), (i64, i64)) {
        let one = 1i64 << 32;
        let scale = match rng.below(3) {
            0 => one / 100 + rng.below(one / 10),
            1 => one + rng.below(one),
            _ => rng.below(100 * one),
        };
        let turn = rng.below(6);
        let (c, s) = match turn {
            0 => (scale, 0),
            1 => (0, scale),
            2 => (-scale, 0),
            3 => (0, -scale),
            _ => (value(rng, 38), value(rng, 38)),
        };
        let col0 = (c, s);
        let col1 = match rng.below(2) {
            0 => (-s, c),
            _ => (value(rng, 38), value(rng, 38)),
        };
        let far = match rng.below(3) {
            0 => 1 << 56,
            _ => 100 * one,
        };
        let at = (rng.below(2 * far) - far, rng.below(2 * far) - far);
        (at, col0, col1)
    }

    /// An octagon of texel space near `at` (often about as large as the rows' centres
    /// spread, `reach`, else of any size), its diagonals often cutting its box and often
    /// not, sometimes empty.
    fn octagon(rng: &mut Rng, at: (i64, i64), reach: i64) -> [i64; 8] {
        let size = match rng.below(3) {
            0 => 1i64 << (rng.below(44) + 1),
            _ => reach.max(1) * (1 + rng.below(4)) / 2 + 1,
        };
        let near = |rng: &mut Rng, c: i64| c + rng.below(size + 1) - size / 2;
        let (cu, cv) = (near(rng, at.0), near(rng, at.1));
        let (u0, v0) = (cu - rng.below(size + 1), cv - rng.below(size + 1));
        let (u1, v1) = (
            cu + rng.below(size + 1) - size / 16,
            cv + rng.below(size + 1) - size / 16,
        );
        let cut = |rng: &mut Rng| rng.below(size + 1) / 2;
        [
            u0,
            v0,
            u1,
            v1,
            u0 + v0 + cut(rng),
            u1 + v1 - cut(rng),
            u0 - v1 + cut(rng),
            u1 - v0 - cut(rng),
        ]
    }

    /// The sides kept give, row after row, the steps the division formula of every side
    /// ([`OctagonSteps`], [`BoxSteps`]) gives, over 6,000 random rectangles of rows
    /// (poses at scales 0.01 to 100, any turn, steps of 0 along or down a row, negative
    /// steps, far from the bitmap, rows that miss), each with an octagon and another pose's
    /// octagon (merged as the kernel merges a pose's octagon and another's reach) or a box;
    /// a brute-force walk over the centres agrees on the narrow rows; and sides were
    /// dropped (fewer than 5 kept a rectangle on average, of 8 to 16).
    #[test]
    fn kept_sides_give_the_division_formulas() {
        let mut rng = Rng(0x51de_57e9_0bd5_1234);
        let (mut inside, mut empty, mut sides, mut rows_all) = (0u64, 0u64, 0usize, 0usize);
        let mut spans = RowSides::default();
        for case in 0..6_000 {
            let (at, col0, col1) = pose(&mut rng);
            let (bt, bcol0, bcol1) = pose(&mut rng);
            let n = 1 + rng.below(if case % 3 == 0 { 200 } else { 40 });
            let height = 1 + rng.below(40);
            // The rows' middle centre and how far the centres spread, per pose.
            let middle = |at: (i64, i64), c0: (i64, i64), c1: (i64, i64)| {
                let (i, j) = (n / 2, height / 2);
                let reach = (c0.0.abs() + c0.1.abs()) * n + (c1.0.abs() + c1.1.abs()) * height;
                ((at.0 + i * c0.0 + j * c1.0, at.1 + i * c0.1 + j * c1.1), reach)
            };
            let (mid, reach) = middle(at, col0, col1);
            let (bmid, breach) = middle(bt, bcol0, bcol1);
            let a = octagon(&mut rng, mid, reach);
            let b = octagon(&mut rng, bmid, breach);
            let boxed = {
                let o = octagon(&mut rng, mid, reach);
                [o[0], o[1], o[2], o[3]]
            };
            // Up to eight sides an end: two octagons, or an octagon and a box.
            let with_b = rng.below(2) == 0;
            let with_box = !with_b && rng.below(2) == 0;
            let mut bounds = RowBounds::default();
            bounds.reset(n, height);
            bounds.octagon(at, col0, col1, a);
            if with_b {
                bounds.octagon(bt, bcol0, bcol1, b);
            }
            if with_box {
                bounds.boxed(at, col0, col1, boxed);
            }
            assert!(bounds.decide(&mut spans), "{at:?} {col0:?} {col1:?} {a:?}");
            sides += [
                (&bounds.all.lower[..bounds.all.lows], true),
                (&bounds.all.upper[..bounds.all.ups], false),
            ]
            .iter()
            .map(|&(l, lower)| deciding(l, n, lower).1)
            .sum::<usize>();
            rows_all += 1;
            let (mut p, mut q) = (at, bt);
            for t in 0..height {
                let want = {
                    let (mut f, mut e) = OctagonSteps::new(col0, a).steps(p, n);
                    if with_b {
                        let (f2, e2) = OctagonSteps::new(bcol0, b).steps(q, n);
                        (f, e) = (f.max(f2), e.min(e2));
                    }
                    if with_box {
                        let (f2, e2) = BoxSteps::new(col0, boxed).steps(p, n);
                        (f, e) = (f.max(f2), e.min(e2));
                    }
                    (f, e)
                };
                let got = spans.row(t);
                let range = |(f, e): (i64, i64)| if f < e { f..e } else { 0..0 };
                assert_eq!(
                    range(got),
                    range(want),
                    "case {case}: {at:?} {col0:?} {col1:?} {a:?}, {bt:?} {bcol0:?} {bcol1:?} {b:?} {with_b}, {boxed:?} {with_box}, n {n} height {height}, at {p:?}"
                );
                assert!(got.0 >= 0 && got.1 <= n);
                if n <= 40 {
                    let brute = (0..n)
                        .filter(|&k| {
                            let c = (p.0 + k * col0.0, p.1 + k * col0.1);
                            // The octagon's eight bounds, each tested (half-open).
                            let o = |b: &[i64; 8], (u, v): (i64, i64)| {
                                b[0] <= u
                                    && u < b[2]
                                    && b[1] <= v
                                    && v < b[3]
                                    && b[4] <= u + v
                                    && u + v < b[5]
                                    && b[6] <= u - v
                                    && u - v < b[7]
                            };
                            let d = (q.0 + k * bcol0.0, q.1 + k * bcol0.1);
                            o(&a, c)
                                && (!with_b || o(&b, d))
                                && (!with_box
                                    || (boxed[0] <= c.0
                                        && c.0 < boxed[2]
                                        && boxed[1] <= c.1
                                        && c.1 < boxed[3]))
                        })
                        .count() as i64;
                    assert_eq!(range(got).count() as i64, brute, "case {case}");
                }
                match got.0 < got.1 {
                    true => inside += (got.1 - got.0) as u64,
                    false => empty += 1,
                }
                p = (p.0 + col1.0, p.1 + col1.1);
                q = (q.0 + bcol1.0, q.1 + bcol1.1);
            }
        }
        // Rows inside and rows that miss both come up, and sides were dropped.
        assert!(
            inside > 300_000 && empty > 30_000,
            "{inside} steps inside, {empty} empty rows"
        );
        assert!(sides < rows_all * 5, "{sides} sides over {rows_all} rectangles");
    }
}
