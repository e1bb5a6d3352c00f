//! Row spans: where an item's value can be non-zero in each pixel row, and where it is a
//! whole pixel without any area math, found from its edges alone.
//!
//! In a row, every edge reaching into it is one *piece*; the columns a piece can touch are
//! those between its x at the top and at the bottom of its part of the row, computed with
//! the very float expression that coverage uses (`Piece::x` in [`super::coverage`]). That
//! expression is monotonic in the height, so no cell that coverage makes for the piece lies
//! outside those columns. Touching column ranges are merged into *edge spans*. Between two
//! edge spans no piece comes near, so at each height the winding number there is that of the
//! pieces to the left; when it is the same at every height of the row (no piece to the left
//! starts or ends inside the row without its partner, as a horizontal edge's neighbours do),
//! coverage sums it to exactly 0 or exactly one whole pixel ([`ONE`](super::coverage::ONE)),
//! and a pixel centre there has that winding too. Such a gap is an *inside* span when the
//! fill rule counts its winding, and nothing when it does not; a gap whose winding changes
//! within the row joins the edge spans around it.
//!
//! The edges are stepped down the rows: an active edge list (the same edges, in the same
//! order, as [`ActiveEdges`](super::edges::ActiveEdges) gives coverage) keeps each edge's x
//! at the bottom of the last row, which is its x at the top of the next one.

use super::edges::{Edge, GRID};
use crate::FillRule;
use crate::geom::whole::floor_small;

/// What an item is over a span of a row.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Kind {
    /// An edge piece may touch these pixels, or the winding changes inside them: their
    /// values need computing.
    Edge,
    /// No edge piece comes near, and the winding is inside by the fill rule: each pixel is
    /// covered whole.
    Inside,
}

/// Columns `x0..x1` of a row, and what the item is there. Outside its spans a row's pixels
/// have the value 0.
#[cfg(test)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Span {
    pub x0: i64,
    pub x1: i64,
    pub kind: Kind,
}

/// An active edge's x (pixels, as coverage computes it) at a height (grid units), kept from
/// one row to the next.
#[derive(Clone, Copy, Debug)]
struct Stepped {
    /// dx/dy, as coverage computes it.
    k: f64,
    y: i64,
    x: f64,
}

/// A piece of an edge in the current row.
#[derive(Clone, Copy, Debug)]
struct RowPiece {
    c_lo: i64,
    c_hi: i64,
    dir: i64,
    /// Heights in the row (grid units from its top) where the piece starts and ends.
    top: i64,
    bottom: i64,
}

/// Walks an item's rows top to bottom, giving each row's spans; reusable buffers.
#[derive(Debug, Default)]
pub(crate) struct SpanRows {
    next: usize,
    active: Vec<Edge>,
    stepped: Vec<Stepped>,
    pieces: Vec<RowPiece>,
    /// Per edge span: its columns, the winding of its pieces live at the row's top, and
    /// whether the gap after it changes winding within the row.
    groups: Vec<(i64, i64, i64, bool)>,
    /// `(height, group, change of winding)` where a piece starts or ends inside the row.
    events: Vec<(i64, usize, i64)>,
    #[cfg(test)]
    spans: Vec<Span>,
    /// Rows walked since the last [`SpanRows::start`].
    pub rows: u64,
}

/// x (pixels) of `e` at height `y` (grid units): `Piece::x` of coverage, in the same
/// operations, for a height on the grid.
fn x_at(e: &Edge, k: f64, y: i64) -> f64 {
    (e.x_top as f64 + (y as f64 - e.top as f64) * k) / GRID as f64
}

impl SpanRows {
    /// Starts a walk down a new item's edges.
    pub fn start(&mut self) {
        self.next = 0;
        self.active.clear();
        self.stepped.clear();
        self.rows = 0;
    }

    /// The edges reaching into the row last walked, in the order coverage takes them.
    pub fn active(&self) -> &[Edge] {
        &self.active
    }

    /// The spans of row `row` (pixels relative to the item's anchor) of the item whose edges
    /// are `edges` (the same slice for the whole walk; rows in increasing order, any skipped),
    /// left to right.
    #[cfg(test)]
    pub fn row(&mut self, edges: &[Edge], row: i64, rule: FillRule) -> &[Span] {
        let mut spans = std::mem::take(&mut self.spans);
        spans.clear();
        self.walk_row(edges, row, rule, |x0, x1, kind| {
            push_span(&mut spans, x0, x1, kind)
        });
        self.spans = spans;
        &self.spans
    }

    /// As `SpanRows::row` (tests), calling `emit(x0, x1, kind)` for the spans left to right
    /// instead (a span may meet the one before it, of the other kind).
    pub fn walk_row(
        &mut self,
        edges: &[Edge],
        row: i64,
        rule: FillRule,
        mut emit: impl FnMut(i64, i64, Kind),
    ) {
        self.rows += 1;
        let (band, below) = (row * GRID, (row + 1) * GRID);
        self.advance(edges, band, below);
        self.pieces.clear();
        let mut events = false;
        for (e, s) in self.active.iter().zip(&mut self.stepped) {
            let (ya, yb) = (e.top.max(band), e.bottom.min(below));
            let xa = if s.y == ya { s.x } else { x_at(e, s.k, ya) };
            let xb = x_at(e, s.k, yb);
            (s.y, s.x) = (yb, xb);
            events |= ya > band || yb < below;
            self.pieces.push(RowPiece {
                c_lo: floor_small(xa.min(xb)),
                c_hi: floor_small(xa.max(xb)),
                dir: i64::from(e.dir),
                top: ya - band,
                bottom: yb - band,
            });
        }
        if !self.pieces.is_sorted_by_key(|p| p.c_lo) {
            self.pieces.sort_unstable_by_key(|p| p.c_lo);
        }
        let Some(first) = self.pieces.first().copied() else {
            return;
        };
        if events {
            self.spans_with_events(rule, emit);
            return;
        }
        // Every piece crosses the whole row: the winding right of a group of pieces is
        // the sum of their directions, at every height.
        let (mut lo, mut hi, mut group) = (first.c_lo, first.c_hi, first.dir);
        let mut winding = 0;
        for p in &self.pieces[1..] {
            if p.c_lo <= hi.saturating_add(1) {
                hi = hi.max(p.c_hi);
                group += p.dir;
                continue;
            }
            emit(lo, hi + 1, Kind::Edge);
            winding += group;
            if inside(winding, rule) {
                emit(hi + 1, p.c_lo, Kind::Inside);
            }
            (lo, hi, group) = (p.c_lo, p.c_hi, p.dir);
        }
        emit(lo, hi.saturating_add(1), Kind::Edge);
    }

    /// The spans of a row where some pieces start or end inside it (the pieces sorted).
    fn spans_with_events(&mut self, rule: FillRule, mut emit: impl FnMut(i64, i64, Kind)) {
        // Edge spans: the pieces' column ranges merged where they overlap or meet (two
        // pieces sharing a vertex may round to neighbouring columns).
        self.groups.clear();
        self.events.clear();
        for p in &self.pieces {
            match self.groups.last_mut() {
                Some(g) if p.c_lo <= g.1.saturating_add(1) => g.1 = g.1.max(p.c_hi),
                _ => self.groups.push((p.c_lo, p.c_hi, 0, false)),
            }
            let k = self.groups.len() - 1;
            if p.top == 0 {
                self.groups[k].2 += p.dir;
            } else {
                self.events.push((p.top, k, p.dir));
            }
            if p.bottom < GRID {
                self.events.push((p.bottom, k, -p.dir));
            }
        }
        self.mark_changing_gaps();
        let mut winding = 0;
        for (k, &(c_lo, c_hi, top_winding, changing)) in self.groups.iter().enumerate() {
            emit(c_lo, c_hi.saturating_add(1), Kind::Edge);
            winding += top_winding;
            let Some(&(next_lo, ..)) = self.groups.get(k + 1) else {
                break;
            };
            let gap = (c_hi + 1, next_lo);
            if changing {
                emit(gap.0, gap.1, Kind::Edge);
            } else if inside(winding, rule) {
                emit(gap.0, gap.1, Kind::Inside);
            }
        }
    }

    /// The active edge list for the band `[band, below)`: as `ActiveEdges::advance`, which
    /// coverage's callers use, so that both give coverage the same edges in the same order.
    fn advance(&mut self, edges: &[Edge], band: i64, below: i64) {
        if self.active.iter().any(|e| e.bottom <= band) {
            self.drop_ended(band);
        }
        while let Some(e) = edges.get(self.next) {
            if e.top >= below {
                break;
            }
            if e.bottom > band {
                self.active.push(*e);
                let k = (e.x_bottom - e.x_top) as f64 / (e.bottom - e.top) as f64;
                self.stepped.push(Stepped {
                    k,
                    y: e.top,
                    x: e.x_top as f64 / GRID as f64,
                });
            }
            self.next += 1;
        }
    }

    /// Drops the edges that end above `band`, keeping the others' order.
    fn drop_ended(&mut self, band: i64) {
        let mut kept = 0;
        for i in 0..self.active.len() {
            if self.active[i].bottom > band {
                self.active[kept] = self.active[i];
                self.stepped[kept] = self.stepped[i];
                kept += 1;
            }
        }
        self.active.truncate(kept);
        self.stepped.truncate(kept);
    }

    /// Marks the gaps after which the winding changes at some height inside the row: where,
    /// at a height where pieces start or end, the changes of the groups up to the gap do not
    /// cancel.
    fn mark_changing_gaps(&mut self) {
        if self.events.is_empty() {
            return;
        }
        self.events.sort_unstable();
        let last = self.groups.len() - 1;
        let mut i = 0;
        while i < self.events.len() {
            let h = self.events[i].0;
            let mut sum = 0;
            while let Some(&(eh, group, d)) = self.events.get(i) {
                if eh != h {
                    break;
                }
                sum += d;
                i += 1;
                let next_group = match self.events.get(i) {
                    Some(&(nh, ng, _)) if nh == h => ng,
                    // The changes at one height cancel over the whole row (the contours are
                    // closed); should they not, every gap after is marked.
                    _ => last + 1,
                };
                if sum != 0 && next_group > group {
                    for g in &mut self.groups[group..next_group.min(last + 1)] {
                        g.3 = true;
                    }
                }
            }
        }
    }
}

/// Appends a span, or lets the last one go on when it is of the same kind and meets it.
#[cfg(test)]
fn push_span(spans: &mut Vec<Span>, x0: i64, x1: i64, kind: Kind) {
    if x0 >= x1 {
        return;
    }
    match spans.last_mut() {
        Some(s) if s.x1 == x0 && s.kind == kind => s.x1 = x1,
        _ => spans.push(Span { x0, x1, kind }),
    }
}

fn inside(winding: i64, rule: FillRule) -> bool {
    match rule {
        FillRule::NonZero => winding != 0,
        FillRule::EvenOdd => winding & 1 != 0,
    }
}

#[cfg(test)]
pub(super) mod tests {
    use super::super::centres::winding_row;
    use super::super::coverage::{CoverageRow, ONE};
    use super::super::edges::{ActiveEdges, Edges};
    use super::*;

    pub(in super::super) use super::super::test_rng::Rng;

    /// Random closed contours on the grid: self-intersecting scribbles, slivers, rectangles
    /// with horizontal edges inside rows, far from the origin, large and small.
    pub(in super::super) fn random_edges(rng: &mut Rng, case: usize) -> Edges {
        let mut e = Edges::default();
        let far = [0, 1 << 20, -(1 << 44), 1 << 47][case % 4];
        let spread = [256 * 3, 256 * 30, 256 * 400][case / 4 % 3];
        for _ in 0..1 + rng.below(3) {
            let n = 3 + rng.below(12);
            let kind = rng.below(4);
            let (ox, oy) = (far + rng.below(2 * spread) - spread, rng.below(256 * 24));
            let pts: Vec<(i64, i64)> = match kind {
                // Axis-aligned rectangles, edges anywhere on the grid or on pixel lines.
                0 => {
                    let snap = |v: i64, r: &mut Rng| if r.below(2) == 0 { v & !255 } else { v };
                    let (w, h) = (1 + rng.below(spread), 1 + rng.below(256 * 8));
                    let (x0, y0) = (snap(ox, rng), snap(oy, rng));
                    let (x1, y1) = (snap(x0 + w, rng), snap(y0 + h, rng));
                    vec![(x0, y0), (x1, y0), (x1, y1), (x0, y1)]
                }
                // Slivers: a long thin quad.
                1 => {
                    let (dx, dy) = (rng.below(2 * spread) - spread, rng.below(256 * 8));
                    let t = 1 + rng.below(40);
                    vec![
                        (ox, oy),
                        (ox + dx, oy + dy),
                        (ox + dx + t, oy + dy),
                        (ox + t, oy + rng.below(3)),
                    ]
                }
                _ => (0..n)
                    .map(|_| (ox + rng.below(2 * spread) - spread, oy + rng.below(256 * 8)))
                    .collect(),
            };
            e.push_closed(&pts);
        }
        e.finish();
        e
    }

    /// Every row of random items: outside the spans every pixel's coverage (by the plain
    /// per-pixel sum) is exactly 0, in inside spans exactly one whole pixel, and the centre
    /// tests agree (0 outside, inside by the rule in inside spans).
    #[test]
    fn spans_hold_every_non_zero_pixel_and_inside_spans_are_whole() {
        let mut rng = Rng(0x5a17_ab1e_0dd5_eed5);
        let (mut inside_pixels, mut edge_pixels, mut rows) = (0u64, 0u64, 0u64);
        for case in 0..3000 {
            let e = random_edges(&mut rng, case);
            let rule = if case % 2 == 0 {
                FillRule::NonZero
            } else {
                FillRule::EvenOdd
            };
            let mut walk = SpanRows::default();
            walk.start();
            let mut plain = ActiveEdges::new(&e.edges, Vec::new());
            let r = e.rect;
            let mut j = r.y0 - 1;
            while j < r.y1 + 1 {
                let spans = walk.row(&e.edges, j, rule).to_vec();
                plain.advance(j * GRID, (j + 1) * GRID);
                assert_eq!(
                    walk.active(),
                    &plain.active[..],
                    "case {case} row {j}: active edges"
                );
                // Every column of the item and two more each side (at most 1,200).
                let x0 = r.x0 - 2;
                let w = (r.x1 + 2 - x0).min(1200) as usize;
                let mut acc = vec![0; w];
                CoverageRow::default().accumulate(&plain.active, j, rule, x0, &mut acc);
                let mut wind = vec![0; w];
                winding_row(&plain.active, j, x0, &mut wind);
                for (k, (&c, &wi)) in acc.iter().zip(&wind).enumerate() {
                    let x = x0 + k as i64;
                    let centre_in = super::super::centres::inside(wi, rule);
                    match spans.iter().find(|s| s.x0 <= x && x < s.x1).map(|s| s.kind) {
                        None => {
                            assert_eq!(c, 0, "case {case} row {j} column {x}: outside spans");
                            assert!(!centre_in, "case {case} row {j} column {x}: centre outside");
                        }
                        Some(Kind::Inside) => {
                            assert_eq!(c, ONE, "case {case} row {j} column {x}: inside span");
                            assert!(centre_in, "case {case} row {j} column {x}: centre inside");
                            inside_pixels += 1;
                        }
                        Some(Kind::Edge) => edge_pixels += 1,
                    }
                }
                rows += 1;
                // Rows are skipped now and then, as a scan whose other target is absent does.
                j += 1 + i64::from(rng.below(5) == 0) * rng.below(4);
            }
            let below = walk.row(&e.edges, r.y1 + 5, rule);
            assert!(below.is_empty(), "case {case}: spans below the item: {below:?}");
        }
        // The corpus must exercise both kinds, or it proves little.
        assert!(
            inside_pixels > 100_000 && edge_pixels > 100_000,
            "{inside_pixels} {edge_pixels} {rows}"
        );
    }

    #[test]
    fn a_horizontal_edge_inside_a_row_makes_its_columns_edge_pixels() {
        // A rectangle from y = 0.5 to 2: row 0's middle columns are half covered, though no
        // (non-horizontal) edge piece touches them.
        let mut e = Edges::default();
        e.push_closed(&[(0, 128), (2560, 128), (2560, 512), (0, 512)]);
        e.finish();
        let mut walk = SpanRows::default();
        walk.start();
        let row0 = walk.row(&e.edges, 0, FillRule::NonZero).to_vec();
        assert_eq!(
            row0,
            vec![Span {
                x0: 0,
                x1: 11,
                kind: Kind::Edge
            }]
        );
        let row1 = walk.row(&e.edges, 1, FillRule::NonZero).to_vec();
        assert_eq!(
            row1.iter().map(|s| (s.x0, s.x1, s.kind)).collect::<Vec<_>>(),
            vec![(0, 1, Kind::Edge), (1, 10, Kind::Inside), (10, 11, Kind::Edge)]
        );
    }
}
