//! Anti-aliased coverage: the area of an item's region, by its fill rule, inside each pixel
//! of a row (semantics.md 4.5).
//!
//! A pixel row is cut into horizontal strips at every vertex height in it and at every
//! point where two edges cross. Inside a strip no edges cross, so they are ordered left to
//! right, and the winding number is constant between neighbours: sweeping them once tells,
//! for each edge, whether the region starts there (+1), ends there (-1) or goes on (0)
//! under the fill rule. The pixel's coverage is then a sum over the strip pieces of that
//! weight times the area of the pixel's part of the strip lying right of the piece. Because
//! the fill rule is applied between edges rather than to a pixel's summed winding, pieces
//! that overlap (a stroke's quads and discs) or cross inside a pixel count with the area
//! they really cover.
//!
//! Each term is computed in f64 from the integer edges and this pixel only, and rounded to
//! fixed point ([`ONE`] is a whole pixel) before terms are added, so integer sums make the
//! result independent of the window and of the order of the work: computing one pixel or a
//! whole row gives the same bits.

use super::edges::{Edge, GRID};
use crate::FillRule;
use crate::geom::whole::{floor_small, round_small};

/// A whole pixel's area in the fixed point that coverage is summed in.
pub(crate) const ONE: i64 = 1 << 32;

/// Strips thinner than this (px) are not split further at crossings: what their edges'
/// order could still get wrong is below 2^-30 of a pixel.
const MIN_STRIP: f64 = 1.0 / (1u64 << 30) as f64;

/// Terms of a row's coverage: `(column, value)`.
type Terms = Vec<(i64, i64)>;

/// Where a piece lies against the window's columns, over its whole height in the row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) enum Side {
    /// Left of every column and of every `Window` piece: only its winding counts.
    Left,
    Window,
    /// Right of every column: it cannot change a column's value.
    Right,
}

/// An edge's part inside one row: heights relative to the row's top, x in pixels.
#[derive(Clone, Copy, Debug)]
struct Piece {
    edge: Edge,
    /// dx/dy of the edge (the same in grid units and in pixels).
    k: f64,
    top: f64,
    bottom: f64,
    lo: f64,
    hi: f64,
    side: Side,
}

impl Piece {
    /// x (pixels) at height `s` of the row whose top is `band` (grid units).
    fn x(&self, band: i64, s: f64) -> f64 {
        edge_x(&self.edge, self.k, band, s)
    }
}

/// dx/dy of `e`, as the sweep works it out.
pub(super) fn slope(e: &Edge) -> f64 {
    (e.x_bottom - e.x_top) as f64 / (e.bottom - e.top) as f64
}

/// x (pixels) of `e`, whose slope is `k`, at height `s` of the row whose top is `band`
/// (grid units): the one formula every user of an edge's x shares, so they share its bits.
fn edge_x(e: &Edge, k: f64, band: i64, s: f64) -> f64 {
    let y = band as f64 + s * GRID as f64;
    (e.x_top as f64 + (y - e.top as f64) * k) / GRID as f64
}

/// Most work (edge pieces handled, summed over rows and strips) one query may do: about a
/// second on the 2-core machine. Edges crossing each other by the thousand inside a few
/// pixels would otherwise take minutes (issue 12).
pub(crate) const WORK_BUDGET: u64 = 1 << 24;

/// The work budget in force: [`WORK_BUDGET`], or in the crate's tests what
/// `WORK_BUDGET_FOR_TESTS` says on this thread (so that budgets bite on small scenes).
pub(crate) fn work_budget() -> u64 {
    #[cfg(test)]
    if let Some(budget) = WORK_BUDGET_FOR_TESTS.with(std::cell::Cell::get) {
        return budget;
    }
    WORK_BUDGET
}

/// `Ok` unless the work counted (`work`, edge pieces) went `over` the budget: then the
/// error that names `what` stopped.
pub(crate) fn check_work(over: bool, work: u64, what: impl FnOnce() -> String) -> crate::Result<()> {
    match over {
        false => Ok(()),
        true => Err(crate::Error::WorkBudget {
            what: what(),
            work: u128::from(work),
            budget: work_budget(),
            unit: "edge pieces handled when it stopped",
            remedy: "its edges cross each other too often",
        }),
    }
}

#[cfg(test)]
thread_local! {
    /// A work budget for the queries of this thread, in place of [`WORK_BUDGET`].
    pub(crate) static WORK_BUDGET_FOR_TESTS: std::cell::Cell<Option<u64>> =
        const { std::cell::Cell::new(None) };
}

/// Reusable buffers for computing rows.
#[derive(Debug, Default)]
pub(crate) struct CoverageRow {
    /// Work done so far, and the most allowed: past it rows stop being computed (their
    /// values are then meaningless) and [`CoverageRow::over_budget`] says so.
    work: u64,
    pieces: Vec<Piece>,
    heights: Vec<i64>,
    /// Heights (grid units in the row) where the winding of the left pieces changes.
    left_winding: Vec<(i64, i64)>,
    candidates: Vec<usize>,
    window: Vec<usize>,
    live: Vec<usize>,
    /// Per live piece: x at the strip's top, middle and bottom (pixels), and its index.
    xs: Vec<(f64, f64, f64, usize)>,
    strips: Vec<(f64, f64)>,
    /// The last row's terms: `(column, value)` for one column, and steps `(column, value)`
    /// that add to every column from there on.
    cells: Vec<(i64, i64)>,
    steps: Vec<(i64, i64)>,
    /// The columns asked for, when they are not one window (see [`CoverageRow::values_in`]).
    needed: Vec<(i64, i64)>,
    /// The edges of a row taken by [`CoverageRow::values_in_whole_row`].
    whole: Vec<WholeRowEdge>,
    /// Rows computed and pixel areas worked out (a column of a piece), since the last
    /// [`CoverageRow::reset_work`]: what the work follows, for the tests that count it.
    counts: AreaCounts,
}

/// What coverage computed: kept in the reusable buffers (per thread), read by tests.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct AreaCounts {
    /// Rows whose coverage was computed.
    pub rows: u64,
    /// Pixel areas worked out: one per column a piece of an edge crosses in a computed row.
    pub areas: u64,
}

impl CoverageRow {
    /// Adds the coverage of row `row` (pixels relative to the anchor) to `acc`, whose entry
    /// `k` is column `x0 + k`, in units of [`ONE`]. `active` must hold every edge of the item
    /// that reaches into the row (others may be there too). The reference that the tests
    /// hold [`CoverageRow::runs`] to.
    #[cfg(test)]
    pub fn accumulate(&mut self, active: &[Edge], row: i64, rule: FillRule, x0: i64, acc: &mut [i64]) {
        self.needed.clear();
        self.needed.push((x0, x0 + acc.len() as i64));
        self.compute(active, row, rule);
        for &(c, v) in &self.cells {
            acc[(c - x0) as usize] += v;
        }
        self.steps.sort_unstable_by_key(|s| s.0);
        let mut carry = 0;
        let mut steps = self.steps.iter().peekable();
        for (k, a) in acc.iter_mut().enumerate() {
            while let Some(&&(c, v)) = steps.peek() {
                if c > x0 + k as i64 {
                    break;
                }
                carry += v;
                steps.next();
            }
            *a += carry;
        }
    }

    /// The coverage of row `row` over columns `x0..x1` as runs `(first column, coverage)`,
    /// each lasting until the next one starts (the last until `x1`), in units of [`ONE`]:
    /// the same numbers as [`CoverageRow::accumulate`], in work proportional to the edges.
    pub fn runs(
        &mut self,
        active: &[Edge],
        row: i64,
        rule: FillRule,
        (x0, x1): (i64, i64),
        out: &mut Vec<(i64, i64)>,
    ) {
        out.clear();
        self.needed.clear();
        self.needed.push((x0, x1));
        self.compute(active, row, rule);
        self.for_each_value(|x, _, here| {
            if out.last().is_none_or(|&(_, v)| v != here) {
                out.push((x, here));
            }
        });
    }

    /// The coverage of row `row` over the columns `needed` only (sorted, disjoint, non-empty
    /// intervals `[x0, x1)`), as `(x0, x1, coverage)` in units of [`ONE`], covering exactly
    /// those columns, left to right: the same numbers as [`CoverageRow::accumulate`], with
    /// area math only for the columns asked for that an edge piece crosses.
    pub fn values_in(
        &mut self,
        active: &[Edge],
        row: i64,
        rule: FillRule,
        needed: &[(i64, i64)],
        out: &mut Vec<(i64, i64, i64)>,
    ) {
        out.clear();
        if needed.is_empty() {
            return;
        }
        self.needed.clear();
        self.needed.extend_from_slice(needed);
        self.compute(active, row, rule);
        self.for_each_value(|x, end, here| match out.last_mut() {
            Some(last) if last.1 == x && last.2 == here => last.1 = end,
            _ => out.push((x, end, here)),
        });
    }

    /// [`CoverageRow::values_in`] for a row that every edge of `active` crosses from top to
    /// bottom (no vertex inside the row) in columns apart from each other's, with a
    /// winding of 0 right of the last (a bitmap's quad in most of its rows): the sweep has
    /// one strip and no crossing there, so a column an edge crosses is the winding's
    /// coverage left of that edge plus the one term the sweep makes there
    /// ([`WholeRowPiece::cell`]), and any other column a whole pixel or nothing, as
    /// `fill_bits` writes such rows (both take the row by [`whole_row_edges`]). The same
    /// numbers, one value a column asked for (equal neighbours not merged), and the same
    /// work counted. `false` (nothing computed, no work counted) for any other row, which
    /// [`CoverageRow::values_in`] then computes.
    pub fn values_in_whole_row(
        &mut self,
        active: &[Edge],
        row: i64,
        rule: FillRule,
        needed: &[(i64, i64)],
        out: &mut Vec<(i64, i64, i64)>,
    ) -> bool {
        out.clear();
        let (Some(&(x0, _)), Some(&(_, x1))) = (needed.first(), needed.last()) else {
            // No columns: nothing to compute and no work, as for the sweep.
            return true;
        };
        let Some(work) = whole_row_edges(active, row, (x0, x1), &mut self.whole) else {
            return false;
        };
        self.add_work(work);
        if self.over_budget() {
            // As the sweep leaves it: no terms, every value 0 (not to be used).
            out.extend(needed.iter().map(|&(a, b)| (a, b, 0)));
            return true;
        }
        self.counts.rows += 1;
        let edges = &self.whole[..];
        let (mut next, mut winding) = (0, 0i64);
        for &(n0, n1) in needed {
            for c in n0..n1 {
                // The edges wholly left of the column wind around it.
                while let Some(e) = edges.get(next)
                    && e.c_hi < c
                {
                    winding += i64::from(e.dir);
                    next += 1;
                }
                let value = match edges.get(next) {
                    Some(e) if e.c_lo <= c => {
                        let before = inside(winding, rule);
                        let after = inside(winding + i64::from(e.dir), rule);
                        match (before, after) {
                            (false, false) => 0,
                            (true, true) => ONE,
                            _ => {
                                self.counts.areas += 1;
                                let cell = e.piece.cell(c);
                                if after { cell } else { ONE - cell }
                            }
                        }
                    }
                    _ if inside(winding, rule) => ONE,
                    _ => 0,
                };
                out.push((c, c + 1, value));
            }
        }
        true
    }

    /// Walks the terms of the row just computed over the columns `self.needed`, calling
    /// `emit(x0, x1, coverage)` for each stretch of one value, left to right: the running
    /// sum of the steps, plus a column's own cells where it has any.
    fn for_each_value(&mut self, mut emit: impl FnMut(i64, i64, i64)) {
        self.cells.sort_unstable_by_key(|c| c.0);
        self.steps.sort_unstable_by_key(|s| s.0);
        let (mut cells, mut steps) = (0, 0);
        let mut carry = 0;
        for &(n0, n1) in &self.needed {
            let mut x = n0;
            while x < n1 {
                while let Some(&(c, v)) = self.steps.get(steps) {
                    if c > x {
                        break;
                    }
                    carry += v;
                    steps += 1;
                }
                let mut here = carry;
                let mut has_cell = false;
                while let Some(&(c, v)) = self.cells.get(cells) {
                    if c != x {
                        break;
                    }
                    here += v;
                    has_cell = true;
                    cells += 1;
                }
                // A cell lasts one column, and cells are only made in the columns asked
                // for, so none is skipped; without one the value holds until the next term.
                let end = if has_cell {
                    x + 1
                } else {
                    let next_cell = self.cells.get(cells).map_or(n1, |c| c.0);
                    let next_step = self.steps.get(steps).map_or(n1, |s| s.0);
                    next_cell.min(next_step).min(n1)
                };
                emit(x, end, here);
                x = end;
            }
        }
    }

    /// What was computed since the last [`CoverageRow::reset_work`].
    #[cfg(test)]
    pub fn counts(&self) -> AreaCounts {
        self.counts
    }

    /// Whether the work went over [`work_budget`]: what was computed since is not to be used.
    pub fn over_budget(&self) -> bool {
        self.work > work_budget()
    }

    /// The work done so far.
    pub fn work(&self) -> u64 {
        self.work
    }

    /// Starts counting work again, for a new query reusing these buffers.
    pub fn reset_work(&mut self) {
        self.work = 0;
        self.counts = AreaCounts::default();
    }

    /// Counts work done outside coverage (pixels composited), in the same units.
    pub fn add_work(&mut self, work: u64) {
        self.work = self.work.saturating_add(work);
    }

    /// Computes the terms of row `row` for the columns `self.needed` (sorted intervals) into
    /// `cells` and `steps`: steps from the first column asked for on, cells only in the
    /// columns asked for.
    ///
    /// Only the pieces that reach the columns, and those left of them that they could cross,
    /// are ordered and swept; the others count as a winding number (left) or not at all
    /// (right), which gives the same bits as computing the whole row: see `add_piece`.
    fn compute(&mut self, active: &[Edge], row: i64, rule: FillRule) {
        self.cells.clear();
        self.steps.clear();
        let (Some(&(x0, _)), Some(&(_, x1))) = (self.needed.first(), self.needed.last()) else {
            return;
        };
        self.work += active.len() as u64 + 1;
        if self.over_budget() {
            return;
        }
        self.counts.rows += 1;
        let band = row * GRID;
        let (wx0, wx1) = (x0 as f64, x1 as f64);
        self.pieces.clear();
        self.heights.clear();
        for e in active {
            let (t, b) = (e.top.max(band), e.bottom.min(band + GRID));
            if t >= b {
                continue;
            }
            self.heights.push(t - band);
            self.heights.push(b - band);
            let mut piece = Piece {
                edge: *e,
                k: slope(e),
                top: (t - band) as f64 / GRID as f64,
                bottom: (b - band) as f64 / GRID as f64,
                lo: 0.0,
                hi: 0.0,
                side: Side::Left,
            };
            let (xt, xb) = (piece.x(band, piece.top), piece.x(band, piece.bottom));
            (piece.lo, piece.hi) = (smaller(xt, xb), larger(xt, xb));
            if piece.lo >= wx1 {
                piece.side = Side::Right;
            }
            self.pieces.push(piece);
        }
        if self.pieces.is_empty() {
            return;
        }
        self.classify(wx0);
        // Strips between the heights where any piece starts or ends: the same for any window.
        self.heights.sort_unstable();
        self.heights.dedup();
        self.left_winding.clear();
        self.window.clear();
        for (i, p) in self.pieces.iter().enumerate() {
            match p.side {
                Side::Left => {
                    let d = i64::from(p.edge.dir);
                    self.left_winding.push((p.edge.top.max(band) - band, d));
                    self.left_winding
                        .push((p.edge.bottom.min(band + GRID) - band, -d));
                }
                Side::Window => self.window.push(i),
                Side::Right => {}
            }
        }
        self.left_winding.sort_unstable_by_key(|w| w.0);
        let pieces = &self.pieces;
        self.window
            .sort_by(|&a, &b| pieces[a].top.total_cmp(&pieces[b].top).then(a.cmp(&b)));
        self.live.clear();
        let (mut next, mut left, mut changes) = (0, 0i64, 0);
        for k in 1..self.heights.len() {
            let (h0, h1) = (self.heights[k - 1], self.heights[k]);
            while let Some(&(h, d)) = self.left_winding.get(changes) {
                if h > h0 {
                    break;
                }
                left += d;
                changes += 1;
            }
            let (g0, g1) = (h0 as f64 / GRID as f64, h1 as f64 / GRID as f64);
            if inside(left, rule) {
                self.steps.push((x0, fixed(g1 - g0)));
            }
            let pieces = &self.pieces;
            self.live.retain(|&p| pieces[p].bottom > g0);
            while let Some(&p) = self.window.get(next) {
                if pieces[p].top > g0 {
                    break;
                }
                if pieces[p].bottom > g0 {
                    self.live.push(p);
                }
                next += 1;
            }
            if !self.live.is_empty() {
                self.strip(band, g0, g1, left, rule, (x0, x1));
            }
        }
    }

    /// Marks the pieces that reach the window (x beyond `wx0`), and with them every piece
    /// that reaches left of where any of those goes, so that `Left` pieces lie left of all
    /// `Window` pieces and can cross none of them.
    fn classify(&mut self, wx0: f64) {
        classify(
            &mut self.pieces,
            wx0,
            &mut self.candidates,
            |p| (p.lo, p.hi),
            |p| &mut p.side,
        );
    }

    /// The part `[g0, g1]` of the row between two consecutive heights, split where its
    /// window pieces cross; `left` is the winding number of the left pieces.
    #[allow(clippy::too_many_arguments)]
    fn strip(&mut self, band: i64, g0: f64, g1: f64, left: i64, rule: FillRule, window: (i64, i64)) {
        self.strips.clear();
        self.strips.push((g0, g1));
        // Splits are bounded: each removes a crossing between two pieces.
        let mut splits_left = 4 * self.live.len() * self.live.len() + 16;
        while let Some((s0, s1)) = self.strips.pop() {
            self.work += self.live.len() as u64 + 1;
            if self.over_budget() {
                self.strips.clear();
                return;
            }
            let mid = 0.5 * (s0 + s1);
            self.xs.clear();
            for &p in &self.live {
                let pc = &self.pieces[p];
                self.xs.push((pc.x(band, s0), pc.x(band, mid), pc.x(band, s1), p));
            }
            // Ties at the middle go by the bottom, then the top: a left neighbour stays left.
            self.xs.sort_by(|a, b| {
                a.1.total_cmp(&b.1)
                    .then(a.2.total_cmp(&b.2))
                    .then(a.0.total_cmp(&b.0))
                    .then(a.3.cmp(&b.3))
            });
            if splits_left > 0 && s1 - s0 > MIN_STRIP {
                let pieces = &self.pieces;
                let crossing = self.xs.windows(2).find_map(|w| {
                    if w[1].0 >= w[0].0 && w[1].2 >= w[0].2 {
                        return None;
                    }
                    let y = crossing_height(&pieces[w[0].3].edge, &pieces[w[1].3].edge, band);
                    (y > s0 && y < s1).then_some(y)
                });
                if let Some(y) = crossing {
                    splits_left -= 1;
                    self.strips.push((y, s1));
                    self.strips.push((s0, y));
                    continue;
                }
            }
            let mut winding = left;
            for &(_, _, _, p) in &self.xs {
                let before = inside(winding, rule);
                winding += i64::from(self.pieces[p].edge.dir);
                let weight = i64::from(inside(winding, rule)) - i64::from(before);
                if weight != 0 {
                    let terms = (&mut self.cells, &mut self.steps);
                    let needed = &self.needed;
                    let piece = &self.pieces[p];
                    self.counts.areas += add_piece(piece, band, g0, (s0, s1), weight, window, needed, terms);
                }
            }
        }
    }
}

/// Marks as `Window` the `Left` pieces that reach past `wx0`, and then, of the other `Left`
/// ones reaching past the least x of those, from the farthest reaching, each that reaches
/// past the least x of all marked so far. `span` is a piece's least and greatest x in the
/// row; `candidates` a buffer.
pub(super) fn classify<P>(
    pieces: &mut [P],
    wx0: f64,
    candidates: &mut Vec<usize>,
    span: impl Fn(&P) -> (f64, f64),
    side: impl Fn(&mut P) -> &mut Side,
) {
    let mut bound = wx0;
    for p in pieces.iter_mut() {
        let (lo, hi) = span(p);
        let s = side(p);
        if *s == Side::Left && hi > wx0 {
            *s = Side::Window;
            bound = bound.min(lo);
        }
    }
    candidates.clear();
    for (i, p) in pieces.iter_mut().enumerate() {
        if span(p).1 > bound && *side(p) == Side::Left {
            candidates.push(i);
        }
    }
    candidates.sort_by(|&a, &b| span(&pieces[b]).1.total_cmp(&span(&pieces[a]).1));
    for &i in candidates.iter() {
        let (lo, hi) = span(&pieces[i]);
        if hi <= bound {
            break;
        }
        *side(&mut pieces[i]) = Side::Window;
        bound = bound.min(lo);
    }
}

/// Whether a winding number is inside by `rule`.
pub(super) fn inside(winding: i64, rule: FillRule) -> bool {
    match rule {
        FillRule::NonZero => winding != 0,
        FillRule::EvenOdd => winding & 1 != 0,
    }
}

/// The larger of `a` and `b`, neither NaN (no x, height or area here is one), in one
/// instruction: `f64::max` also orders NaNs. Of two equal numbers (0.0 and -0.0 among
/// them) it gives `b`: the same number to everything that reads it, which compares, adds,
/// multiplies and rounds it but never divides by it.
#[inline]
pub(super) fn larger(a: f64, b: f64) -> f64 {
    if a > b { a } else { b }
}

/// The smaller of `a` and `b`, neither NaN, as [`larger`] is the larger.
#[inline]
pub(super) fn smaller(a: f64, b: f64) -> f64 {
    if a < b { a } else { b }
}

/// `v` (a part of a pixel) in fixed point, rounded half away from zero as `f64::round`
/// (`round_small`: no library call on baseline x86-64).
fn fixed(v: f64) -> i64 {
    round_small(v * ONE as f64)
}

/// Where two edges cross, as a height in the row whose top is `band` (pixels), computed from
/// the two edges alone (in a fixed order), so that every strip and every window that splits
/// there splits at the same number.
fn crossing_height(a: &Edge, b: &Edge, band: i64) -> f64 {
    let key = |e: &Edge| (e.top, e.x_top, e.bottom, e.x_bottom);
    let (p, q) = if key(a) <= key(b) { (a, b) } else { (b, a) };
    let k = |e: &Edge| (e.x_bottom - e.x_top) as f64 / (e.bottom - e.top) as f64;
    let (kp, kq) = (k(p), k(q));
    let y = ((q.x_top - p.x_top) as f64 + p.top as f64 * kp - q.top as f64 * kq) / (kp - kq);
    (y - band as f64) / GRID as f64
}

/// Adds `weight` times the piece's area over `s0..s1` in every column of the window
/// `x0..x1`: a cell for each column the piece crosses, and a step for the columns right of
/// it, where that area is the whole height.
///
/// The area of column `c` is `Q(F(s1)) - Q(F(s0))`, `F(s)` being the area of the column
/// right of the piece from `g0` (the top of the strip between heights) down to `s`, and `Q`
/// the rounding to fixed point. Cuts of a strip at crossings then add up to the uncut
/// strip exactly, and where the piece lies wholly right of a column `F` stays the very same
/// number: computing only some columns, whose pieces see fewer crossings, gives the bits
/// of the whole row. Cells are made only in the columns of `needed` (sorted intervals
/// within `x0..x1`); returns how many.
#[allow(clippy::too_many_arguments)]
fn add_piece(
    p: &Piece,
    band: i64,
    g0: f64,
    (s0, s1): (f64, f64),
    weight: i64,
    (x0, x1): (i64, i64),
    needed: &[(i64, i64)],
    (cells, steps): (&mut Terms, &mut Terms),
) -> u64 {
    let column = ColumnArea {
        x_g0: p.x(band, g0),
        slope: p.k,
        g0,
    };
    let x_s1 = p.x(band, s1);
    let (lo, hi) = (smaller(column.x_g0, x_s1), larger(column.x_g0, x_s1));
    // Saturating casts: a piece far outside the window only adds its tail, or nothing.
    let (c_lo, c_hi) = (floor_small(lo), floor_small(hi));
    let (first, last) = (c_lo.max(x0), c_hi.min(x1 - 1));
    let mut areas = 0;
    if first <= last {
        let from = needed.partition_point(|n| n.1 <= first);
        for &(n0, n1) in &needed[from..] {
            if n0 > last {
                break;
            }
            for c in first.max(n0)..=last.min(n1 - 1) {
                areas += 1;
                let c = c as f64;
                // F(g0) is 0 exactly: a strip not cut at a crossing needs one area per column.
                let before = if s0 == g0 { 0 } else { fixed(column.area(c, s0)) };
                let v = weight * (fixed(column.area(c, s1)) - before);
                if v != 0 {
                    cells.push((c as i64, v));
                }
            }
        }
    }
    let start = c_hi.saturating_add(1);
    if start < x1 {
        steps.push((start.max(x0), weight * (fixed(s1 - g0) - fixed(s0 - g0))));
    }
    areas
}

/// An edge that crosses a whole row, top to bottom, in a row where no other height splits
/// the strip: the numbers [`CoverageRow`] works out for it there (`Piece::x` at the row's
/// top and bottom, and the cell `add_piece` makes in a column), in the same operations, so
/// that a caller that knows a row has one strip and no crossing gets the same bits without
/// the general sweep (`super::fill_bits`).
#[derive(Clone, Copy, Debug)]
pub(super) struct WholeRowPiece {
    column: ColumnArea,
    lo: f64,
    hi: f64,
}

impl WholeRowPiece {
    /// The piece of an edge of slope `k` ([`slope`]) whose x at the row's top and bottom are
    /// `top` and `bottom` ([`edge_x_in_row_by`] at 0 and 1): a caller walking down the rows
    /// computes the slope once an edge and takes the x at a row's top from the row above
    /// (the same number: the height `band + GRID` is exact either way).
    pub(super) fn from_xs(k: f64, top: f64, bottom: f64) -> WholeRowPiece {
        WholeRowPiece {
            column: ColumnArea {
                x_g0: top,
                slope: k,
                g0: 0.0,
            },
            lo: smaller(top, bottom),
            hi: larger(top, bottom),
        }
    }

    /// Whether the sweep over the columns `[x0, x1)` takes it into the strip (neither left
    /// of them nor right of them), as `compute` classifies a piece with no other in the way.
    pub(super) fn reaches(&self, (x0, x1): (i64, i64)) -> bool {
        self.hi > x0 as f64 && self.lo < x1 as f64
    }

    /// The columns it crosses, first and last (as `add_piece` finds them).
    pub(super) fn columns(&self) -> (i64, i64) {
        (floor_small(self.lo), floor_small(self.hi))
    }

    /// The area of column `c` right of it over the whole row, in fixed point: the cell
    /// `add_piece` makes there for a weight of 1.
    pub(super) fn cell(&self, c: i64) -> i64 {
        fixed(self.column.whole_row_area(c as f64))
    }
}

/// An edge crossing the whole of a row, as [`whole_row_edges`] finds it.
#[derive(Clone, Copy, Debug)]
pub(super) struct WholeRowEdge {
    pub piece: WholeRowPiece,
    /// The columns it crosses, first and last.
    pub c_lo: i64,
    pub c_hi: i64,
    pub dir: i8,
}

/// The edges of `active` in row `row`, in their columns' order, into `edges`, when the
/// row is one that needs no sweep: every edge crosses it from top to bottom (no vertex
/// inside it), no column holds two edges (so none crosses another in the row, and the
/// sweep's one strip orders them as their columns do), and the winding is 0 right of the
/// last (closed contours; should it not be, the sweep decides). Returns the work the sweep
/// counts for the row over the columns `cols` (a unit per edge and one more, then as much
/// for its strip's pieces that reach the columns), for the caller to add so that the
/// budget stops exactly where it would stop the sweep; `None` for any other row (`edges`
/// then holds nothing to use, and no work is due). The one test of such a row for the
/// fill kernel (`super::fill_bits`) and [`CoverageRow::values_in_whole_row`].
// Inlined into both callers: called, it cost prof_rocks about 0.1 M instructions a frame.
#[inline(always)]
pub(super) fn whole_row_edges(
    active: &[Edge],
    row: i64,
    cols: (i64, i64),
    edges: &mut Vec<WholeRowEdge>,
) -> Option<u64> {
    let (top, bottom) = (row * GRID, (row + 1) * GRID);
    if active.iter().any(|e| e.top > top || e.bottom < bottom) {
        return None;
    }
    /// Rows of no more edges than this (a bitmap's quad and a few more) are put in order
    /// as the edges come, in place; more go through a sort, to stay `n log n`.
    const FEW: usize = 8;
    let few = active.len() <= FEW;
    edges.clear();
    // In one pass: whether the edges come in their columns' order and apart (then no sort
    // is needed), their winding, and how many reach the columns.
    let (mut apart, mut last_hi, mut winding, mut reaching) = (true, i64::MIN, 0i64, 0u64);
    for e in active {
        let k = slope(e);
        let (x_top, x_bottom) = (edge_x_in_row_by(e, k, row, 0.0), edge_x_in_row_by(e, k, row, 1.0));
        let piece = WholeRowPiece::from_xs(k, x_top, x_bottom);
        let (c_lo, c_hi) = piece.columns();
        apart &= last_hi < c_lo;
        last_hi = c_hi;
        winding += i64::from(e.dir);
        reaching += u64::from(piece.reaches(cols));
        edges.push(WholeRowEdge {
            piece,
            c_lo,
            c_hi,
            dir: e.dir,
        });
        if !apart && few {
            // The edges before it are in order: it moves left into its place.
            let mut at = edges.len() - 1;
            while at > 0 && edges[at - 1].c_lo > c_lo {
                edges.swap(at - 1, at);
                at -= 1;
            }
        }
    }
    if !apart {
        if !few {
            edges.sort_unstable_by_key(|r| r.c_lo);
        }
        if edges.windows(2).any(|w| w[0].c_hi >= w[1].c_lo) {
            return None;
        }
    }
    if winding != 0 {
        return None;
    }
    let strip = if reaching > 0 { reaching + 1 } else { 0 };
    Some(active.len() as u64 + 1 + strip)
}

/// An edge's piece in one strip of a row (between two consecutive heights where pieces
/// start or end, `g0..g1`, not cut at a crossing): the numbers [`CoverageRow`] works out
/// for it there (`Piece::x` at the strip's top, middle and bottom, and the cell
/// `add_piece` makes in a column), in the same operations, so that a caller that knows the
/// strip has no crossing gets the sweep's bits without its bookkeeping
/// (`super::strip_row`).
#[derive(Clone, Copy, Debug)]
pub(super) struct StripPiece {
    column: ColumnArea,
    /// x at the strip's top, middle and bottom: the keys the sweep orders pieces by.
    pub top: f64,
    pub mid: f64,
    pub bottom: f64,
}

impl StripPiece {
    /// `e`, of slope `k` ([`slope`]), over the heights `g0..g1` (parts of a pixel) of row
    /// `row`, which it must span.
    pub(super) fn new(e: &Edge, k: f64, row: i64, (g0, g1): (f64, f64)) -> StripPiece {
        let band = row * GRID;
        let top = edge_x(e, k, band, g0);
        StripPiece {
            column: ColumnArea {
                x_g0: top,
                slope: k,
                g0,
            },
            top,
            mid: edge_x(e, k, band, 0.5 * (g0 + g1)),
            bottom: edge_x(e, k, band, g1),
        }
    }

    /// The columns it crosses in the strip, first and last (as `add_piece` finds them).
    pub(super) fn columns(&self) -> (i64, i64) {
        (
            floor_small(smaller(self.top, self.bottom)),
            floor_small(larger(self.top, self.bottom)),
        )
    }

    /// The area of column `c` right of it over the strip down to `g1`, in fixed point:
    /// the cell `add_piece` makes there for a weight of 1.
    pub(super) fn cell(&self, c: i64, g1: f64) -> i64 {
        fixed(self.column.area(c as f64, g1))
    }
}

/// An edge's x (pixels) at heights `s` (parts of a pixel) of row `row`, as the sweep works
/// it out (`k` is its [`slope`]): for where a piece lies in its row.
pub(super) fn edge_x_in_row_by(e: &Edge, k: f64, row: i64, s: f64) -> f64 {
    edge_x(e, k, row * GRID, s)
}

/// Whether the sweep cuts the strip `s0..s1` (parts of a pixel) of row `row` where `a` and
/// `b` cross: their crossing, worked out as the sweep does, lies strictly inside it.
pub(super) fn cross_inside(a: &Edge, b: &Edge, row: i64, (s0, s1): (f64, f64)) -> bool {
    let y = crossing_height(a, b, row * GRID);
    y > s0 && y < s1
}

/// The height `g1 - g0` of a strip in fixed point: the step a piece of weight 1 adds to the
/// columns right of it there, and what the sweep adds left of every piece where the winding
/// is inside.
pub(super) fn strip_height(g0: f64, g1: f64) -> i64 {
    fixed(g1 - g0) - fixed(0.0)
}

/// A straight piece from height `g0` down, for the areas it leaves to its right in one
/// column.
#[derive(Clone, Copy, Debug)]
struct ColumnArea {
    x_g0: f64,
    slope: f64,
    g0: f64,
}

impl ColumnArea {
    fn x(&self, y: f64) -> f64 {
        self.x_g0 + (y - self.g0) * self.slope
    }

    /// [`ColumnArea::area`] over a whole row (`g0` 0, `s` 1), the same number in fewer
    /// operations: `0.0 + h` is `h` but for `h` -0.0, which the clamp to `g0` (`larger(h,
    /// 0.0)` gives its second number on a tie) turns into the same 0.0; `h - 0.0` is `h`
    /// and `1.0 * v` is `v` exactly.
    fn whole_row_area(&self, c: f64) -> f64 {
        debug_assert!(self.g0 == 0.0);
        let (x0, k) = (self.x_g0, self.slope);
        if k == 0.0 {
            return match x0 {
                x if x <= c => 1.0,
                x if x >= c + 1.0 => 0.0,
                x => c + 1.0 - x,
            };
        }
        let (enter_left, enter_right) = ((c - x0) / k, (c + 1.0 - x0) / k);
        let (a, b) = if k > 0.0 {
            (enter_left, enter_right)
        } else {
            (enter_right, enter_left)
        };
        let (a, b) = (larger(a, 0.0), larger(b, 0.0));
        let (ac, bc) = (smaller(a, 1.0), smaller(b, 1.0));
        let middle = if bc > ac {
            (bc - ac) * (c + 1.0 - 0.5 * ((x0 + ac * k) + (x0 + bc * k)))
        } else {
            0.0
        };
        let after = 1.0 - larger(bc, ac);
        if k > 0.0 {
            ac + middle
        } else {
            middle + if 1.0 > b { after } else { 0.0 }
        }
    }

    /// The area of column `[c, c + 1]` right of the piece between heights `g0` and `s`.
    ///
    /// Over the heights the piece spends left of the column (`x <= c`) the whole width
    /// counts, inside it `c + 1 - x`, right of it nothing; those three stretches end at
    /// heights that depend on the piece and the column only, and `s` merely cuts them.
    fn area(&self, c: f64, s: f64) -> f64 {
        let (enter_left, enter_right) = if self.slope == 0.0 {
            // Vertical: the whole height in one of the three.
            match self.x_g0 {
                x if x <= c => return s - self.g0,
                x if x >= c + 1.0 => return 0.0,
                x => return (s - self.g0) * (c + 1.0 - x),
            }
        } else {
            (
                self.g0 + (c - self.x_g0) / self.slope,
                self.g0 + (c + 1.0 - self.x_g0) / self.slope,
            )
        };
        // Heights where x crosses c and c + 1, in the order the piece meets them.
        let (a, b) = if self.slope > 0.0 {
            (enter_left, enter_right)
        } else {
            (enter_right, enter_left)
        };
        let (a, b) = (larger(a, self.g0), larger(b, self.g0));
        let (ac, bc) = (smaller(a, s), smaller(b, s));
        let middle = if bc > ac {
            (bc - ac) * (c + 1.0 - 0.5 * (self.x(ac) + self.x(bc)))
        } else {
            0.0
        };
        // Before `a` the piece is left of the column (moving right) or right of it (moving
        // left); after `b` the other way round.
        let (before, after) = (ac - self.g0, s - larger(bc, ac));
        if self.slope > 0.0 {
            before + middle
        } else {
            middle + if s > b { after } else { 0.0 }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::edges::Edges;
    use super::*;

    /// Rows of thousands of random quads (a bitmap pose's: turned, skewed, squashed to
    /// slivers, from a fraction of a pixel to hundreds, near the anchor and 2^39 px away)
    /// and of random polygons (spikes and crossings), both fill rules, at random sets of columns: where
    /// [`CoverageRow::values_in_whole_row`] takes a row, its values are the sweep's
    /// ([`CoverageRow::values_in`]) column for column, and the work it counts is the
    /// sweep's.
    #[test]
    fn whole_rows_give_the_sweeps_values_and_work() {
        use super::super::edges::ActiveEdges;
        use super::super::test_rng::Rng;
        let mut rng = Rng(0x9a11_e7c0_ffee_0029);
        let (mut taken, mut left, mut areas) = (0u64, 0u64, 0u64);
        let (mut got, mut want) = (Vec::new(), Vec::new());
        for case in 0..6000 {
            let e = match case % 3 {
                // A random polygon of 3 to 9 vertices, spikes and crossings included.
                2 => {
                    let size = [40, 256 * 4, 256 * 40][case / 3 % 3];
                    let (ox, oy) = (rng.below(1 << 12), rng.below(1 << 12));
                    let pts: Vec<(i64, i64)> = (0..3 + rng.below(7))
                        .map(|_| {
                            (
                                ox + rng.below(2 * size + 1) - size,
                                oy + rng.below(2 * size + 1) - size,
                            )
                        })
                        .collect();
                    let mut e = Edges::default();
                    e.push_closed(&pts);
                    e.finish();
                    e
                }
                _ => {
                    let far = [0, 1 << 20, -(1 << 47)][case % 9 / 3];
                    let size = [40, 256 * 4, 256 * 60][case / 9 % 3];
                    let (ox, oy) = (far + rng.below(1 << 12), rng.below(1 << 12));
                    let at = |rng: &mut Rng, m: i64| rng.below(2 * m + 1) - m;
                    let a = (ox + at(&mut rng, size), oy + at(&mut rng, size));
                    let (d0, d1) = (
                        (at(&mut rng, size), at(&mut rng, size)),
                        (at(&mut rng, size), at(&mut rng, size)),
                    );
                    Edges::quad([
                        a,
                        (a.0 + d0.0, a.1 + d0.1),
                        (a.0 + d0.0 + d1.0, a.1 + d0.1 + d1.1),
                        (a.0 + d1.0, a.1 + d1.1),
                    ])
                }
            };
            if e.rect.is_empty() || e.rect.height() > 400 {
                continue;
            }
            let rule = [FillRule::NonZero, FillRule::EvenOdd][case / 2 % 2];
            let mut walk = ActiveEdges::new(&e.edges, Vec::new());
            let r = e.rect;
            for j in r.y0..r.y1 {
                walk.advance(j * GRID, (j + 1) * GRID);
                // A few random intervals of columns around the row, sorted and apart.
                let mut needed: Vec<(i64, i64)> = Vec::new();
                let mut x = r.x0 - 2 + rng.below(3);
                while x < r.x1.min(r.x0 + 300) + 2 {
                    let end = x + 1 + rng.below(4);
                    needed.push((x, end));
                    x = end + 1 + rng.below(6);
                }
                let mut whole = CoverageRow::default();
                if !whole.values_in_whole_row(&walk.active, j, rule, &needed, &mut got) {
                    assert_eq!(whole.work(), 0);
                    left += 1;
                    continue;
                }
                taken += 1;
                areas += whole.counts().areas;
                let mut sweep = CoverageRow::default();
                sweep.values_in(&walk.active, j, rule, &needed, &mut want);
                let by_column = |runs: &[(i64, i64, i64)]| -> Vec<(i64, i64)> {
                    runs.iter()
                        .flat_map(|&(a, b, c)| (a..b).map(move |x| (x, c)))
                        .collect()
                };
                assert_eq!(
                    by_column(&got),
                    by_column(&want),
                    "case {case} row {j} {needed:?}"
                );
                assert_eq!(whole.work(), sweep.work(), "case {case} row {j}: work");
            }
        }
        eprintln!("{taken} rows taken ({areas} areas), {left} left to the sweep");
        assert!(
            taken > 20_000 && left > 2_000 && areas > 20_000,
            "{taken} {left} {areas}"
        );
    }

    fn coverage(points: &[(f64, f64)], rule: FillRule, row: i64, x0: i64, n: usize) -> Vec<f64> {
        let mut e = Edges::default();
        let pts: Vec<(i64, i64)> = points
            .iter()
            .map(|&(x, y)| ((x * 256.0) as i64, (y * 256.0) as i64))
            .collect();
        e.push_closed(&pts);
        e.finish();
        let mut acc = vec![0; n];
        CoverageRow::default().accumulate(&e.edges, row, rule, x0, &mut acc);
        acc.iter().map(|&v| v as f64 / ONE as f64).collect()
    }

    #[test]
    fn a_quarter_pixel_bar_covers_a_quarter_wherever_it_lies() {
        for off in [0.0, 0.1, 0.375, 0.75] {
            let c = coverage(
                &[(0.0, off), (4.0, off), (4.0, off + 0.25), (0.0, off + 0.25)],
                FillRule::NonZero,
                0,
                0,
                4,
            );
            for v in c {
                assert!((v - 0.25).abs() < 1e-9, "{off}: {v}");
            }
        }
    }

    #[test]
    fn a_diagonal_halves_the_pixels_it_crosses() {
        let c = coverage(&[(0.0, 0.0), (3.0, 3.0), (0.0, 3.0)], FillRule::NonZero, 1, -1, 4);
        assert_eq!(
            c.iter().map(|v| (v * 1e9).round() / 1e9).collect::<Vec<_>>(),
            vec![0.0, 1.0, 0.5, 0.0]
        );
    }

    #[test]
    fn overlapping_pieces_count_once_under_non_zero_and_cancel_under_even_odd() {
        // Two unit squares over the same pixel, the second shifted right by half a pixel.
        let mut e = Edges::default();
        e.push_closed(&[(0, 0), (256, 0), (256, 256), (0, 256)]);
        e.push_closed(&[(128, 0), (384, 0), (384, 256), (128, 256)]);
        e.finish();
        let mut acc = vec![0; 2];
        CoverageRow::default().accumulate(&e.edges, 0, FillRule::NonZero, 0, &mut acc);
        assert_eq!(acc, vec![ONE, ONE / 2]);
        let mut acc = vec![0; 2];
        CoverageRow::default().accumulate(&e.edges, 0, FillRule::EvenOdd, 0, &mut acc);
        assert_eq!(acc, vec![ONE / 2, ONE / 2]);
    }

    #[test]
    fn crossing_edges_inside_a_pixel_give_the_bowtie_area() {
        // A bowtie (0,0) (1,1) (1,0) (0,1): two triangles meeting at the centre, a quarter
        // each, with opposite windings: half the pixel under both rules.
        for rule in [FillRule::NonZero, FillRule::EvenOdd] {
            let c = coverage(&[(0.0, 0.0), (1.0, 1.0), (1.0, 0.0), (0.0, 1.0)], rule, 0, 0, 1);
            assert!((c[0] - 0.5).abs() < 1e-9, "{c:?}");
        }
    }

    #[test]
    fn windows_give_the_same_bits_as_the_whole_row() {
        let pts = [(0.3, 0.1), (7.9, 0.7), (2.2, 0.95), (6.1, 0.05), (0.7, 0.9)];
        let whole = coverage(&pts, FillRule::NonZero, 0, -2, 12);
        for x0 in -2..10 {
            for n in 1..(10 - x0) as usize {
                let part = coverage(&pts, FillRule::NonZero, 0, x0, n);
                assert_eq!(part[..], whole[(x0 + 2) as usize..(x0 + 2) as usize + n]);
            }
        }
    }

    /// The whole-row area is the general one's number over a whole row, for edges on the
    /// grid at any slope (vertical, nearly so, nearly flat) up to 2^40 px out, in every
    /// column they cross and a column either side.
    #[test]
    fn whole_row_areas_are_the_general_ones() {
        let mut rng = super::super::test_rng::Rng(0x0a2e_a5ee_d000_0001);
        let mut next = |n: u64| rng.below(n as i64) as u64;
        let mut columns = 0;
        for case in 0..20_000u64 {
            let far = [0, 1 << 20, -(1 << 40), 1 << 48][(case % 4) as usize];
            let x_top = far + next(1 << 16) as i64 - (1 << 15);
            let dx = match case % 5 {
                0 => 0,
                1 => next(3) as i64 - 1,
                2 => next(1 << 12) as i64 - (1 << 11),
                _ => next(1 << 20) as i64 - (1 << 19),
            };
            let height = 256 + next(1 << 12) as i64;
            let e = Edge {
                x_top,
                top: -(next(height as u64) as i64),
                x_bottom: x_top + dx,
                bottom: 0,
                dir: 1,
            };
            let e = Edge {
                bottom: e.top + height,
                ..e
            };
            let k = slope(&e);
            let piece = WholeRowPiece::from_xs(
                k,
                edge_x_in_row_by(&e, k, 0, 0.0),
                edge_x_in_row_by(&e, k, 0, 1.0),
            );
            let (c_lo, c_hi) = piece.columns();
            for c in c_lo - 1..=(c_hi + 1).min(c_lo + 64) {
                let (whole, general) = (
                    piece.column.whole_row_area(c as f64),
                    piece.column.area(c as f64, 1.0),
                );
                assert!(
                    whole == general,
                    "case {case}, column {c}: {whole} against {general}"
                );
                assert_eq!(piece.cell(c), fixed(general), "case {case}, column {c}");
                columns += 1;
            }
        }
        assert!(columns > 100_000, "{columns} columns");
    }

    /// Self-intersecting scribbles of up to 40 vertices (on the grid, some far outside the
    /// window), every row computed whole and in random windows: the same bits.
    #[test]
    fn random_windows_give_the_same_bits_as_the_whole_row() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move |n: i64| {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            (seed % n as u64) as i64
        };
        for case in 0..600 {
            let n = 3 + next(38);
            let spread = [256 * 6, 256 * 40, 256 * 4000][case % 3];
            let pts: Vec<(i64, i64)> = (0..n)
                .map(|_| (next(2 * spread) - spread, next(256 * 8)))
                .collect();
            let mut e = Edges::default();
            e.push_closed(&pts);
            e.finish();
            let rule = if case % 2 == 0 {
                FillRule::NonZero
            } else {
                FillRule::EvenOdd
            };
            for row in 0..8 {
                let (x0, w) = (-48, 96usize);
                let mut whole = vec![0; w];
                CoverageRow::default().accumulate(&e.edges, row, rule, x0, &mut whole);
                for _ in 0..6 {
                    let a = next(w as i64);
                    let len = 1 + next(w as i64 - a) as usize;
                    let mut part = vec![0; len];
                    CoverageRow::default().accumulate(&e.edges, row, rule, x0 + a, &mut part);
                    assert_eq!(
                        part[..],
                        whole[a as usize..a as usize + len],
                        "case {case} row {row} at {a}"
                    );
                }
                for v in &whole {
                    assert!((-8..=ONE + 8).contains(v), "case {case}: coverage {v}");
                }
                let mut runs = Vec::new();
                CoverageRow::default().runs(&e.edges, row, rule, (x0, x0 + w as i64), &mut runs);
                let mut expanded = vec![i64::MIN; w];
                for (k, &(x, v)) in runs.iter().enumerate() {
                    let end = runs.get(k + 1).map_or(x0 + w as i64, |r| r.0);
                    expanded[(x - x0) as usize..(end - x0) as usize].fill(v);
                }
                assert_eq!(expanded, whole, "case {case} row {row}: runs");
                // Chosen columns only: the same values there, areas only there.
                let mut needed: Vec<(i64, i64)> = Vec::new();
                let mut x = x0 + next(8);
                while x < x0 + w as i64 {
                    let end = (x + 1 + next(12)).min(x0 + w as i64);
                    needed.push((x, end));
                    x = end + 1 + next(20);
                }
                if needed.is_empty() {
                    continue;
                }
                let mut values = Vec::new();
                let mut chosen = CoverageRow::default();
                chosen.values_in(&e.edges, row, rule, &needed, &mut values);
                let mut covered = Vec::new();
                for &(a, b, v) in &values {
                    for x in a..b {
                        assert_eq!(v, whole[(x - x0) as usize], "case {case} row {row} column {x}");
                        covered.push(x);
                    }
                }
                let want: Vec<i64> = needed.iter().flat_map(|&(a, b)| a..b).collect();
                assert_eq!(covered, want, "case {case} row {row}: the columns asked for");
                let mut all = CoverageRow::default();
                all.values_in(&e.edges, row, rule, &[(x0, x0 + w as i64)], &mut values);
                assert!(chosen.counts().areas <= all.counts().areas);
            }
        }
    }
}
