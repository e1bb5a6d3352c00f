//! A row of a fill whose edges start or end inside it (a vertex, a star's tip) but do not
//! cross each other there: its coverage worked out strip by strip in the sweep's own
//! arithmetic, without the sweep's general bookkeeping.
//!
//! The sweep ([`super::coverage::CoverageRow`]) cuts a row into strips at every height
//! where a piece starts or ends, orders each strip's pieces, cuts the strip again where
//! two of them cross, and pushes every term into lists that it sorts and sums. When no two
//! pieces of a strip cross (their order at the strip's top and bottom is the order at its
//! middle), each strip is one ordered list of pieces; a piece's weight (+1, -1 or 0) comes
//! from the winding left of it, and a column's coverage is, over the strips, the cells of
//! the pieces that cross it plus the steps of the pieces left of it. This file works those
//! out directly: the pieces of a strip sorted by the sweep's own keys, the cells from
//! [`StripPiece::cell`] (the same operations on the same numbers), and the columns between
//! cells as runs of one value. Coverage is summed in integers, so the bits are the sweep's.
//!
//! A row whose pieces do cross (or whose winding does not close) is left to the sweep:
//! [`StripRow::coverage`] then says so before it has emitted anything.
//!
//! The work it returns is what the sweep counts for the row over the same columns (a unit
//! per edge and one more, then per strip its pieces that reach the columns and one more),
//! so that a query's work budget stops exactly where it stopped the sweep.

use super::coverage::{
    Side, StripPiece, classify, cross_inside, edge_x_in_row_by, inside, larger, slope, smaller, strip_height,
};
use super::edges::{Edge, GRID};
use crate::FillRule;

/// Most pieces in a strip whose pairs are checked for a crossing when two are out of order.
const MAX_CHECKED: usize = 64;

/// An edge's part in the row.
#[derive(Clone, Copy, Debug)]
struct RowPiece {
    edge: Edge,
    /// Its slope ([`slope`]), worked out once for the row's strips.
    k: f64,
    /// Where it starts and ends in the row (grid units below the row's top).
    top: i64,
    bottom: i64,
    /// Its least and greatest x in the row (pixels).
    lo: f64,
    hi: f64,
    /// Where the sweep over the columns asked for puts it: into its strips (`Window`: it
    /// reaches them, or could cross a piece that does), or only as a winding (`Left`), or
    /// nowhere (`Right` of every column).
    side: Side,
}

/// A piece of nonzero weight in one strip: cells on the columns it crosses, and its step on
/// every column right of them.
#[derive(Clone, Copy, Debug)]
struct Cut {
    piece: StripPiece,
    first: i64,
    last: i64,
    /// The strip's bottom (parts of a pixel), which its cells are measured down to.
    g1: f64,
    weight: i64,
}

/// Reusable buffers.
#[derive(Debug, Default)]
pub(crate) struct StripRow {
    pieces: Vec<RowPiece>,
    heights: Vec<i64>,
    order: Vec<(StripPiece, usize)>,
    cuts: Vec<Cut>,
    /// `(column, value)`: from that column on, every column gains the value.
    steps: Vec<(i64, i64)>,
    covering: Vec<usize>,
    candidates: Vec<usize>,
    /// Areas worked out (a column of a cut), for the tests that count work.
    pub areas: u64,
}

impl StripRow {
    /// The coverage of row `row` over the columns `cols` (`[x0, x1)`), by `emit(x0, x1,
    /// coverage)` for stretches of one value left to right (in units of a whole pixel
    /// `1 << 32`; stretches of 0 may be left out), when no two pieces of a strip cross;
    /// `active` holds every edge that reaches into the row. Returns the work the sweep
    /// counts for the row, or `None` (nothing emitted) when the row is the sweep's.
    #[cfg(test)]
    pub fn coverage(
        &mut self,
        active: &[Edge],
        row: i64,
        rule: FillRule,
        cols: (i64, i64),
        emit: impl FnMut(i64, i64, i64),
    ) -> Option<u64> {
        self.coverage_in(active, row, rule, (cols, cols), emit)
    }

    /// [`StripRow::coverage`] with the work counted as over the columns `counted` and the
    /// values emitted over the columns `written` only (a pixel's value does not depend on
    /// the columns asked, only the work does).
    pub fn coverage_in(
        &mut self,
        active: &[Edge],
        row: i64,
        rule: FillRule,
        (counted, written): ((i64, i64), (i64, i64)),
        mut emit: impl FnMut(i64, i64, i64),
    ) -> Option<u64> {
        let work = self.plan(active, row, rule, counted)?;
        self.emit(written, &mut emit);
        Some(work)
    }

    /// The work [`StripRow::coverage`] counts over the columns `cols`, nothing emitted;
    /// `None` when the row is the sweep's.
    pub fn work(&mut self, active: &[Edge], row: i64, rule: FillRule, cols: (i64, i64)) -> Option<u64> {
        self.plan(active, row, rule, cols)
    }

    /// The row's cuts and steps, and the sweep's work; `None` when a strip's pieces cross.
    fn plan(&mut self, active: &[Edge], row: i64, rule: FillRule, (x0, x1): (i64, i64)) -> Option<u64> {
        let band = row * GRID;
        self.pieces.clear();
        self.heights.clear();
        for e in active {
            let (t, b) = (e.top.max(band) - band, e.bottom.min(band + GRID) - band);
            if t >= b {
                continue;
            }
            self.heights.extend([t, b]);
            let k = slope(e);
            let xt = edge_x_in_row_by(e, k, row, t as f64 / GRID as f64);
            let xb = edge_x_in_row_by(e, k, row, b as f64 / GRID as f64);
            self.pieces.push(RowPiece {
                edge: *e,
                k,
                top: t,
                bottom: b,
                lo: smaller(xt, xb),
                hi: larger(xt, xb),
                side: if smaller(xt, xb) >= x1 as f64 {
                    Side::Right
                } else {
                    Side::Left
                },
            });
        }
        let mut work = active.len() as u64 + 1;
        if self.pieces.is_empty() {
            self.cuts.clear();
            self.steps.clear();
            return Some(work);
        }
        classify(
            &mut self.pieces,
            x0 as f64,
            &mut self.candidates,
            |p| (p.lo, p.hi),
            |p| &mut p.side,
        );
        self.heights.sort_unstable();
        self.heights.dedup();
        self.cuts.clear();
        self.steps.clear();
        for k in 1..self.heights.len() {
            let (h0, h1) = (self.heights[k - 1], self.heights[k]);
            let (g0, g1) = (h0 as f64 / GRID as f64, h1 as f64 / GRID as f64);
            self.order.clear();
            let mut swept = 0;
            for (i, p) in self.pieces.iter().enumerate() {
                if p.top <= h0 && p.bottom > h0 {
                    swept += u64::from(p.side == Side::Window);
                    self.order.push((StripPiece::new(&p.edge, p.k, row, (g0, g1)), i));
                }
            }
            if swept > 0 {
                work += swept + 1;
            }
            // The sweep's order: x at the middle, then the bottom, then the top, then the
            // piece's place in the row.
            self.order.sort_unstable_by(|(a, i), (b, j)| {
                a.mid
                    .total_cmp(&b.mid)
                    .then(a.bottom.total_cmp(&b.bottom))
                    .then(a.top.total_cmp(&b.top))
                    .then(i.cmp(j))
            });
            // In that order at the top and the bottom too, nothing crosses inside the strip.
            // Pieces out of order there (two edges meeting at a vertex, their x there
            // rounded apart) are the sweep's order still if they cross at no height inside
            // the strip, which the sweep checks as below before it cuts; any two are
            // checked, since the sweep meets them in its own neighbours.
            let reversed = |a: &StripPiece, b: &StripPiece| b.top < a.top || b.bottom < a.bottom;
            if self.order.windows(2).any(|w| reversed(&w[0].0, &w[1].0)) {
                // Any two: bounded, or a scribble of thousands of edges would pay their
                // square on every row; past it the sweep decides.
                if self.order.len() > MAX_CHECKED {
                    return None;
                }
                let pieces = &self.pieces;
                for (n, (a, i)) in self.order.iter().enumerate() {
                    for (b, j) in &self.order[n + 1..] {
                        let (ea, eb) = (&pieces[*i].edge, &pieces[*j].edge);
                        if reversed(a, b) && cross_inside(ea, eb, row, (g0, g1)) {
                            return None;
                        }
                    }
                }
            }
            let (height, mut winding) = (strip_height(g0, g1), 0i64);
            for &(piece, i) in &self.order {
                let before = inside(winding, rule);
                winding += i64::from(self.pieces[i].edge.dir);
                let weight = i64::from(inside(winding, rule)) - i64::from(before);
                if weight != 0 {
                    let (first, last) = piece.columns();
                    self.cuts.push(Cut {
                        piece,
                        first,
                        last,
                        g1,
                        weight,
                    });
                    self.steps.push((last.saturating_add(1), weight * height));
                }
            }
            if winding != 0 {
                return None;
            }
        }
        Some(work)
    }

    /// Emits the values over `x0..x1` from the cuts and steps planned.
    fn emit(&mut self, (x0, x1): (i64, i64), emit: &mut impl FnMut(i64, i64, i64)) {
        self.cuts.sort_unstable_by_key(|c| c.first);
        self.steps.sort_unstable_by_key(|s| s.0);
        self.covering.clear();
        let (mut carry, mut next_cut, mut next_step) = (0i64, 0, 0);
        let Some(mut x) = self.cuts.first().map(|c| c.first) else {
            return;
        };
        while x < x1 {
            while let Some(&(c, v)) = self.steps.get(next_step)
                && c <= x
            {
                carry += v;
                next_step += 1;
            }
            let cuts = &self.cuts;
            self.covering.retain(|&k| cuts[k].last >= x);
            while let Some(cut) = cuts.get(next_cut)
                && cut.first <= x
            {
                self.covering.push(next_cut);
                next_cut += 1;
            }
            let next = match (cuts.get(next_cut), self.steps.get(next_step)) {
                (Some(c), Some(s)) => c.first.min(s.0),
                (Some(c), None) => c.first,
                (None, Some(s)) => s.0,
                // Past every piece of every strip: the winding closed, nothing is covered.
                (None, None) => break,
            };
            let (a, b) = (x.max(x0), next.min(x1));
            if a < b {
                if self.covering.is_empty() {
                    emit(a, b, carry);
                } else {
                    self.areas += ((b - a) as usize * self.covering.len()) as u64;
                    for c in a..b {
                        let cells: i64 = self
                            .covering
                            .iter()
                            .map(|&k| cuts[k].weight * cuts[k].piece.cell(c, cuts[k].g1))
                            .sum();
                        emit(c, c + 1, carry + cells);
                    }
                }
            }
            x = next;
        }
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::coverage::CoverageRow;
    use super::super::edges::{ActiveEdges, Edges};
    use super::super::spans::tests::{Rng, random_edges as spans_edges};
    use super::*;

    /// Contours whose rows hold many vertices: combs and zigzags with several vertices in a
    /// row, staircases of horizontal edges at any height, spikes thinner than a pixel,
    /// stars and self-crossing scribbles squeezed into a few rows; from 0.01 px to hundreds
    /// of pixels, up to 2^39 px from the anchor. Every other case is the span tests'.
    pub(in super::super) fn random_edges(rng: &mut Rng, case: usize) -> Edges {
        if case % 2 == 1 {
            return spans_edges(rng, case / 2);
        }
        let mut e = Edges::default();
        let far = [0, 1 << 20, -(1 << 44), 1 << 47][case / 2 % 4];
        let scale = [2, 30, 256, 256 * 10, 256 * 100][case / 8 % 5];
        for _ in 0..1 + rng.below(2) {
            let (ox, oy) = (far + rng.below(1 << 14) - (1 << 13), rng.below(256 * 8));
            let n = 3 + rng.below(10);
            let at = |rng: &mut Rng, max: i64| rng.below(2 * max + 1) - max;
            let pts: Vec<(i64, i64)> = match case / 2 % 5 {
                // A comb: teeth whose tips and roots share a few heights.
                0 => {
                    let (root, tip) = (oy + at(rng, 300), oy + at(rng, 300));
                    let mut p = vec![(ox, oy + 600)];
                    for k in 0..n {
                        let x = ox + k * (1 + scale / 4) + at(rng, 3);
                        p.push((x, if k % 2 == 0 { root } else { tip + at(rng, 2) }));
                    }
                    p.push((ox + n * (1 + scale / 4), oy + 600));
                    p
                }
                // A staircase: horizontal and vertical edges at any grid position.
                1 => {
                    let (mut x, mut y) = (ox, oy);
                    let mut p = vec![(x, y)];
                    for _ in 0..n {
                        x += 1 + rng.below(scale.max(2));
                        p.push((x, y));
                        y += 1 + rng.below(scale.clamp(2, 600));
                        p.push((x, y));
                    }
                    p.push((ox, y));
                    p
                }
                // A spike thinner than a pixel, its tip inside a row.
                2 => {
                    let t = 1 + rng.below(200);
                    let (dx, dy) = (at(rng, 4 * scale), 1 + rng.below(4 * scale));
                    vec![(ox, oy), (ox + t, oy + at(rng, 3)), (ox + dx, oy + dy)]
                }
                // A star, any turn and size.
                3 => {
                    let turn = rng.below(1000) as f64 / 1000.0;
                    (0..2 * n)
                        .map(|i| {
                            let a = std::f64::consts::PI * (i as f64 / n as f64 + turn);
                            let r = if i % 2 == 0 {
                                1.0
                            } else {
                                0.1 * (1 + rng.below(9)) as f64
                            };
                            let d = r * scale as f64;
                            (ox + (d * a.cos()) as i64, oy + (d * a.sin()) as i64)
                        })
                        .collect()
                }
                // A scribble squeezed into a row or three: vertices and crossings in rows.
                _ => {
                    let rows = 1 + rng.below(3);
                    (0..n)
                        .map(|_| (ox + at(rng, 4 * scale), oy + rng.below(256 * rows)))
                        .collect()
                }
            };
            e.push_closed(&pts);
        }
        e.finish();
        e
    }

    /// Every row of thousands of random contours, both fill rules, over the whole row and
    /// over random windows: where the strips take a row, their values are the sweep's
    /// (`CoverageRow::accumulate`, the reference) on every column, and the work they count
    /// is what the sweep counts over the same columns.
    #[test]
    fn strips_give_the_sweeps_values_and_work() {
        let mut rng = Rng(0x5791_b0a5_feed_0029);
        let (mut taken, mut left, mut several) = (0u64, 0u64, 0u64);
        let mut strips = StripRow::default();
        let mut values = Vec::new();
        for case in 0..4000 {
            let e = random_edges(&mut rng, case);
            if e.rect.is_empty() || e.rect.height() > 400 {
                continue;
            }
            let rule = [FillRule::NonZero, FillRule::EvenOdd][case / 3 % 2];
            let mut walk = ActiveEdges::new(&e.edges, Vec::new());
            let r = e.rect;
            for j in r.y0..r.y1 {
                walk.advance(j * GRID, (j + 1) * GRID);
                let whole = (r.x0 - 2, r.x1.min(r.x0 + 2000) + 2);
                let w = whole.1 - whole.0;
                let a = whole.0 + rng.below(w);
                let cut = (a, a + 1 + rng.below(whole.1 - a));
                for cols in [whole, cut] {
                    let n = (cols.1 - cols.0) as usize;
                    values.clear();
                    values.resize(n, 0i64);
                    let done = strips.coverage(&walk.active, j, rule, cols, |x0, x1, c| {
                        values[(x0 - cols.0) as usize..(x1 - cols.0) as usize].fill(c);
                    });
                    let Some(work) = done else {
                        left += 1;
                        continue;
                    };
                    taken += 1;
                    let band = (j * GRID, (j + 1) * GRID);
                    let inside = |h: i64| h > band.0 && h < band.1;
                    if walk
                        .active
                        .iter()
                        .filter(|e| inside(e.top) || inside(e.bottom))
                        .count()
                        > 2
                    {
                        several += 1;
                    }
                    let mut want = vec![0i64; n];
                    let mut sweep = CoverageRow::default();
                    sweep.accumulate(&walk.active, j, rule, cols.0, &mut want);
                    assert_eq!(values, want, "case {case} row {j} columns {cols:?}");
                    let mut sweep = CoverageRow::default();
                    sweep.runs(&walk.active, j, rule, cols, &mut Vec::new());
                    assert_eq!(work, sweep.work(), "case {case} row {j} columns {cols:?}: work");
                }
            }
        }
        // Most rows are taken, many of them with several vertices; the sweep keeps some.
        eprintln!("{taken} rows taken, {several} with several vertices, {left} left to the sweep");
        assert!(
            taken > 10 * left && several > 5000 && left > 500,
            "{taken} {several} {left}"
        );
    }
}
