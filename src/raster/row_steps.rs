//! Which pixel centres of a row fall inside a box or an octagon of texel space, from the
//! row's own equation, at a few instructions a row: the bitmap kernel's per-row cost
//! ([`super::bitmap_bits`]).
//!
//! A row's centres map to `s + k d` (fixed-point texels, `k` the step along the row), with
//! the same `d` on every row of a pose and only `s` changing from row to row. So the sign
//! of `d` is dealt with once per pose (a negative step is the positive one on negated
//! coordinates), and a row's bound is one unsigned division: no signs, no floor
//! corrections, no search.

/// The steps `k` of a row with `lo <= s + k d < hi` on one texel axis, for any row start
/// `s`; `d` is the same for every row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct AxisSteps {
    /// The bounds, negated (`1 - hi`, `1 - lo`) when `d` is negative.
    lo: i64,
    hi: i64,
    d: u64,
    /// -1 when `d` is negative (row starts are negated too), else 1: a multiplication, not
    /// a branch, on every row.
    sign: i64,
}

impl AxisSteps {
    /// `d` and the bounds must be such that `hi - s` and `s - lo` fit in i64 for the rows
    /// asked (the kernel keeps every value below 2^61).
    pub fn new(d: i64, (lo, hi): (i64, i64)) -> AxisSteps {
        match d < 0 {
            // lo <= s + k d < hi  <=>  1 - hi <= -s + k |d| < 1 - lo (integers).
            true => AxisSteps {
                lo: 1 - hi,
                hi: 1 - lo,
                d: d.unsigned_abs(),
                sign: -1,
            },
            false => AxisSteps {
                lo,
                hi,
                d: d as u64,
                sign: 1,
            },
        }
    }

    /// The steps `first..end` among `0..n` (`n >= 0`) of the row starting at `s` that fall
    /// inside the bounds; empty when `first >= end`.
    #[inline(always)]
    pub fn steps(&self, s: i64, n: i64) -> (i64, i64) {
        let s = s * self.sign;
        if self.d == 0 {
            return match self.lo <= s && s < self.hi {
                true => (0, n),
                false => (0, 0),
            };
        }
        (self.reach(self.lo - s, n), self.reach(self.hi - s, n))
    }

    /// The first step `k` in `0..=n` with `k d >= a`.
    #[inline(always)]
    fn reach(&self, a: i64, n: i64) -> i64 {
        match a <= 0 {
            true => 0,
            false => ((((a - 1) as u64) / self.d) as i64 + 1).min(n),
        }
    }
}

/// The steps of a row whose centres fall inside a box `[u0, v0, u1, v1]` (fixed-point
/// texels, half-open), for a pose whose centres step by `(du, dv)` along a row.
#[derive(Clone, Copy, Debug)]
pub(crate) struct BoxSteps {
    across: AxisSteps,
    down: AxisSteps,
}

impl BoxSteps {
    pub fn new((du, dv): (i64, i64), [u0, v0, u1, v1]: [i64; 4]) -> BoxSteps {
        BoxSteps {
            across: AxisSteps::new(du, (u0, u1)),
            down: AxisSteps::new(dv, (v0, v1)),
        }
    }

    /// The steps `first..end` among `0..n` of the row whose first centre is `(u, v)` that
    /// fall inside the box; empty when `first >= end`.
    #[inline(always)]
    pub fn steps(&self, (u, v): (i64, i64), n: i64) -> (i64, i64) {
        let across = self.across.steps(u, n);
        let down = self.down.steps(v, n);
        (across.0.max(down.0), across.1.min(down.1))
    }
}

/// The steps of a row whose centres fall inside an octagon `[u0, v0, u1, v1, s0, s1, d0,
/// d1]` (fixed-point texels, half-open: `u0 <= u < u1`, `v0 <= v < v1`, `s0 <= u + v < s1`,
/// `d0 <= u - v < d1`), for a pose whose centres step by `(du, dv)` along a row: the box's
/// two axes and the diagonals' two, a division a bound each.
#[derive(Clone, Copy, Debug)]
pub(crate) struct OctagonSteps {
    axes: [AxisSteps; 4],
    /// The diagonals' steps along a row (`du + dv`, `du - dv`) and bounds (`s0, s1, d0,
    /// d1`), for testing a row's ends.
    diagonal_steps: (i64, i64),
    diagonals: [i64; 4],
}

impl OctagonSteps {
    /// `du + dv` and `du - dv` must fit in i64, and so must every bound minus a row start's
    /// `u`, `v`, `u + v` or `u - v`, for the rows asked.
    pub fn new((du, dv): (i64, i64), b: [i64; 8]) -> OctagonSteps {
        OctagonSteps {
            axes: [
                AxisSteps::new(du, (b[0], b[2])),
                AxisSteps::new(dv, (b[1], b[3])),
                AxisSteps::new(du + dv, (b[4], b[5])),
                AxisSteps::new(du - dv, (b[6], b[7])),
            ],
            diagonal_steps: (du + dv, du - dv),
            diagonals: [b[4], b[5], b[6], b[7]],
        }
    }

    /// The steps `first..end` among `0..n` of the row whose first centre is `(u, v)` that
    /// fall inside the octagon; empty when `first >= end`.
    #[inline(always)]
    pub fn steps(&self, (u, v): (i64, i64), n: i64) -> (i64, i64) {
        let [a, b, c, d] = &self.axes;
        let (a0, a1) = a.steps(u, n);
        let (b0, b1) = b.steps(v, n);
        let (first, end) = (a0.max(b0), a1.min(b1));
        // A row that misses the box misses the octagon: its diagonals are not worked out.
        if first >= end {
            return (first, end);
        }
        // When the box's first and last centres of the row are within the diagonals, all
        // between are (a strip is convex): a few compares, not four divisions.
        let (ds, dd) = self.diagonal_steps;
        let [s0, s1, d0, d1] = self.diagonals;
        let (sa, da) = (u + v + first * ds, u - v + first * dd);
        let (sb, db) = (sa + (end - 1 - first) * ds, da + (end - 1 - first) * dd);
        if s0 <= sa.min(sb) && sa.max(sb) < s1 && d0 <= da.min(db) && da.max(db) < d1 {
            return (first, end);
        }
        let (c0, c1) = c.steps(u + v, n);
        let (d0, d1) = d.steps(u - v, n);
        (first.max(c0.max(d0)), end.min(c1.min(d1)))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The steps inside, one by one: what the divisions must find.
    fn brute(s: (i64, i64), d: (i64, i64), b: [i64; 4], n: i64) -> Vec<i64> {
        (0..n)
            .filter(|&k| {
                let (u, v) = (s.0 + k * d.0, s.1 + k * d.1);
                b[0] <= u && u < b[2] && b[1] <= v && v < b[3]
            })
            .collect()
    }

    #[test]
    fn divisions_find_the_steps_a_search_finds() {
        let mut state = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = |m: i64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % (2 * m as u64 + 1)) as i64 - m
        };
        let mut inside = 0;
        for case in 0..20_000 {
            // Small values make every edge case common; large ones check the arithmetic.
            let m = if case % 4 == 0 { 1 << 40 } else { 40 };
            let d = (next(m / 4), next(m / 4));
            let (u0, v0) = (next(m), next(m));
            let b = [u0, v0, u0 + next(m).abs(), v0 + next(m).abs()];
            let s = (u0 + next(m), v0 + next(m));
            let n = next(60).abs();
            let want = brute(s, d, b, n);
            let (first, end) = BoxSteps::new(d, b).steps(s, n);
            let got: Vec<i64> = (first..end).collect();
            assert_eq!(got, want, "start {s:?} step {d:?} box {b:?} n {n}");
            inside += want.len();
        }
        // The cases were not all empty rows.
        assert!(inside > 5_000, "{inside}");
    }

    /// The octagon's steps are the steps a search finds over 20,000 random rows, steps and
    /// octagons (the diagonals often the tighter bounds, and often not).
    #[test]
    fn octagon_divisions_find_the_steps_a_search_finds() {
        let mut state = 0x9e37_79b9_7f4a_7c15_u64;
        let mut next = |m: i64| {
            state ^= state << 13;
            state ^= state >> 7;
            state ^= state << 17;
            (state % (2 * m as u64 + 1)) as i64 - m
        };
        let (mut inside, mut cut) = (0, 0);
        for case in 0..20_000 {
            let m = if case % 4 == 0 { 1 << 40 } else { 40 };
            let d = (next(m / 4), next(m / 4));
            let (u0, v0) = (next(m), next(m));
            let (u1, v1) = (u0 + next(m).abs(), v0 + next(m).abs());
            let (s0, d0) = (u0 + v0 + next(m).abs() / 2, u0 - v1 + next(m).abs() / 2);
            let b = [
                u0,
                v0,
                u1,
                v1,
                s0,
                u1 + v1 - next(m).abs() / 2,
                d0,
                u1 - v0 - next(m).abs() / 2,
            ];
            let s = (u0 + next(m), v0 + next(m));
            let n = next(60).abs();
            let want: Vec<i64> = (0..n)
                .filter(|&k| {
                    let (u, v) = (s.0 + k * d.0, s.1 + k * d.1);
                    b[0] <= u
                        && u < b[2]
                        && b[1] <= v
                        && v < b[3]
                        && b[4] <= u + v
                        && u + v < b[5]
                        && b[6] <= u - v
                        && u - v < b[7]
                })
                .collect();
            let (first, end) = OctagonSteps::new(d, b).steps(s, n);
            let got: Vec<i64> = (first..end).collect();
            assert_eq!(got, want, "start {s:?} step {d:?} octagon {b:?} n {n}");
            inside += want.len();
            cut += usize::from(brute(s, d, [b[0], b[1], b[2], b[3]], n).len() > want.len());
        }
        assert!(inside > 3_000, "{inside}");
        assert!(cut > 2_000, "{cut} rows cut by a diagonal");
    }
}
