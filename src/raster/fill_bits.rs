//! A fill's (or a stroke outline's) solid pixels written straight into a bit mask: the
//! frame engine's kernel for a vector sprite whose pose changes every frame.
//!
//! The row scan it replaces ([`super::item`]'s runs, read by `Rasterizer::solid_rows`)
//! runs the general coverage sweep on every row: the row's heights sorted, the pieces
//! classified, ordered and checked for crossings, every term pushed, sorted and summed
//! again. On a turning star that was about 2,800 instructions a row
//! (docs/frame-engine.md, "The fill kernel"). Most rows of a fill need none of it: every
//! edge in the row crosses it from top to bottom (no vertex inside the row), and the
//! columns the edges cross are apart. In such a row the sweep has one strip and no
//! crossing, so the coverage of a column an edge crosses is the winding's coverage left of
//! that edge plus (or minus) the one term the sweep makes there, and every column between
//! two edges is a whole pixel or nothing. The kernel takes those rows by
//! [`whole_row_edges`] (the test [`CoverageRow::values_in_whole_row`] shares) and writes
//! them directly:
//!
//! - between edges, runs of whole pixels set as words ([`BitMask::set_run`]) where the
//!   winding is inside by the fill rule and the fill's alpha reaches the threshold;
//! - on the columns an edge crosses, the very term the sweep adds
//!   ([`WholeRowPiece::cell`](super::coverage::WholeRowPiece::cell), the same operations on the same numbers), and only where
//!   the edge changes whether the region is inside (where it does not, the pixel is a whole
//!   pixel or nothing too).
//!
//! Any other row (a vertex in it, edges whose columns touch) goes through
//! [`CoverageRow::runs`] over its edges' columns: the same computation the row scan does.
//! Without anti-aliasing a row is the exact centre test ([`centre_runs`]), runs of inside
//! centres written as words.
//!
//! The work it counts against the query's budget is the row scan's over the whole region,
//! row for row (a direct row counts what the sweep would have counted for it), whatever
//! part of the region it is asked to write ([`Limit`]), and a fill below the threshold is
//! walked all the same: whether a mask is refused for work must depend on the fill and the
//! region alone, or a pair's outcome would depend on whether a crowd query ran before it
//! or on what the other target is made of in the cache (`query::budget_tests`).
//!
//! Bit for bit equal to the plain path because every number is the one the sweep makes:
//! coverage is summed in integers, so the order of its terms does not matter, and a
//! pixel's value depends on the item and that pixel alone, not on the columns computed
//! with it (semantics.md 4.5).

use super::bitmask::BitMask;
use super::centres::{centre_runs, inside as centre_inside};
use super::coverage::{CoverageRow, ONE, WholeRowEdge, inside, whole_row_edges};
use super::edges::{ActiveEdges, Edge, Edges, GRID};
use super::item::Shape;
use super::prepare::Item;
use super::strip_row::StripRow;
use crate::FillRule;
use crate::geom::rect::PixelRect;

#[cfg(test)]
thread_local! {
    /// Lone pairs with a fill this thread compared by words (`query::word_overlap`), and
    /// those left to the general route because a fill went over the work budget: for the
    /// tests that prove the route is taken.
    pub(crate) static LONE_FILL_PAIRS: std::cell::Cell<(u64, u64)> =
        const { std::cell::Cell::new((0, 0)) };
}

/// One fill item (a fill or a stroke's outline) in a pose, with the lowest alpha that is
/// solid.
#[derive(Clone, Copy)]
pub(crate) struct FillBits<'a> {
    edges: &'a Edges,
    rule: FillRule,
    anchor: (i64, i64),
    /// The least coverage (units of a whole pixel, `1 << 32`) that makes a pixel solid:
    /// [`solid_from`] of its alpha and the threshold.
    cut: i64,
}

/// What the kernel did, for the tests that prove where the work goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct FillCounts {
    /// Rows written directly (every edge crossing the whole row, their columns apart).
    pub direct_rows: u64,
    /// Rows with a vertex (or edges sharing a column) but no crossing, written strip by
    /// strip ([`StripRow`]).
    pub strip_rows: u64,
    /// Rows that went through the general coverage sweep.
    pub swept_rows: u64,
    /// Pixel areas worked out in direct rows: one per column an edge crosses where it
    /// changes whether the region is inside.
    pub area_pixels: u64,
}

/// Reusable buffers of the kernel.
#[derive(Debug, Default)]
pub(crate) struct FillBuffers {
    coverage: CoverageRow,
    strips: StripRow,
    active: Vec<Edge>,
    /// The edges of a row written directly.
    row: Vec<WholeRowEdge>,
    runs: Vec<(i64, i64)>,
    wind: Vec<(i64, i32)>,
    pub counts: FillCounts,
}

impl FillBuffers {
    /// `Ok` unless the rows worked out went over the work budget; the error names `what`.
    ///
    /// # Errors
    ///
    /// [`crate::Error::WorkBudget`] when they did.
    pub fn check(&self, what: impl FnOnce() -> String) -> crate::Result<()> {
        super::coverage::check_work(self.coverage.over_budget(), self.coverage.work(), what)
    }

    /// Starts counting work again, for a new query.
    pub fn reset_work(&mut self) {
        self.coverage.reset_work();
        self.strips.areas = 0;
        self.counts = FillCounts::default();
    }
}

/// Which pixels of its region a fill decides (the others stay clear); its work is counted
/// over the whole region either way.
#[derive(Clone, Copy)]
pub(crate) struct Limit<'m> {
    /// Only pixels inside this rectangle (the parent's grid).
    pub rect: PixelRect,
    /// And in each row, only the columns from the first to the last set bit of this mask
    /// moved by the offset (whole pixels): a pair's second target, decided only where the
    /// first one is solid. A row the mask does not cover is not decided.
    pub rows: Option<(&'m BitMask, (i64, i64))>,
}

impl Limit<'_> {
    /// The columns `[x0, x1)` of row `y` (the parent's grid) to decide, possibly empty.
    fn cols(&self, y: i64) -> (i64, i64) {
        let r = self.rect;
        if y < r.y0 || y >= r.y1 {
            return (0, 0);
        }
        let Some((mask, at)) = self.rows else {
            return (r.x0, r.x1);
        };
        let m = mask.rect().moved(at);
        if y < m.y0 || y >= m.y1 {
            return (0, 0);
        }
        match mask.row_extent((y - m.y0) as usize) {
            Some((x0, x1)) => (r.x0.max(m.x0 + x0 as i64), r.x1.min(m.x0 + x1 as i64)),
            None => (0, 0),
        }
    }
}

/// One row of the mask being written, and its columns in the item's own grid.
struct Row<'m> {
    mask: &'m mut BitMask,
    y: usize,
    /// The item's column of the mask's first column.
    left: i64,
    /// The columns that may be written (the item's grid), `[x0, x1)`; possibly empty.
    cols: (i64, i64),
    /// The region's columns (the item's grid): the work is counted as over these.
    all: (i64, i64),
    /// Columns set but not written yet: runs that meet are written as one.
    pending: Option<(i64, i64)>,
    /// Whether a whole pixel of the fill is solid (its alpha reaches the threshold).
    whole_solid: bool,
}

impl Row<'_> {
    /// Sets the item's columns `x0..x1`, cut to the row's columns.
    fn set(&mut self, x0: i64, x1: i64) {
        let (a, b) = (x0.max(self.cols.0), x1.min(self.cols.1));
        if a >= b {
            return;
        }
        match &mut self.pending {
            Some(run) if run.1 == a => run.1 = b,
            _ => {
                self.flush();
                self.pending = Some((a, b));
            }
        }
    }

    /// Sets the columns `x0..x1` where each is a whole pixel of the fill, when that is solid.
    fn set_whole(&mut self, x0: i64, x1: i64) {
        if self.whole_solid {
            self.set(x0, x1);
        }
    }

    /// Writes what is pending.
    fn flush(&mut self) {
        if let Some((a, b)) = self.pending.take() {
            let (a, b) = ((a - self.left) as usize, (b - self.left) as usize);
            self.mask.set_run(self.y, a, b);
        }
    }
}

/// The least coverage `c` (units of a whole pixel, `1 << 32`) with
/// `times_coverage(value, c) >= threshold` (`threshold` at least 1), or `i64::MAX` when no
/// coverage is enough: `value * c + 2^31 >= threshold * 2^32`, solved in integers, so that
/// a pixel's test is one compare (`times_coverage` clamps to a whole pixel, which the
/// second case covers; no coverage, a sum of a few cells, comes near `i64::MAX`).
fn solid_from(value: u8, threshold: u8) -> i64 {
    let need = (i64::from(threshold) << 32) - (1 << 31);
    match i64::from(value) {
        0 => i64::MAX,
        v => match (need + v - 1) / v {
            c if c > ONE => i64::MAX,
            c => c,
        },
    }
}

impl<'a> FillBits<'a> {
    /// The kernel's view of `item` at `threshold`, when it is a fill or a stroke outline
    /// computed from its pose (a whole cached raster has its mask already).
    /// At threshold 0 every pixel is solid, the ones no edge reaches too: not for it.
    pub fn of(item: &'a Item, threshold: u8) -> Option<FillBits<'a>> {
        let Item::Shape { shape, anchor } = item else {
            return None;
        };
        if threshold == 0 {
            return None;
        }
        match &**shape {
            Shape::Fill { edges, rule, alpha } => Some(FillBits {
                edges,
                rule: *rule,
                anchor: *anchor,
                cut: solid_from(*alpha, threshold),
            }),
            _ => None,
        }
    }

    /// The pixels (the parent's grid) its edges reach: none outside can be solid.
    pub fn extent(&self) -> PixelRect {
        self.edges.rect.moved(self.anchor)
    }

    /// Makes `mask` its solid pixels over `region` (the parent's grid). With a `limit`,
    /// only the pixels it names are decided; the rest stay clear. Work is counted in
    /// `bufs` as for the whole region, limited or not ([`FillBuffers::check`] says whether
    /// it went over the budget, and then the mask is not to be used).
    pub fn fill(
        &self,
        region: PixelRect,
        anti_alias: bool,
        limit: Option<Limit<'_>>,
        bufs: &mut FillBuffers,
        mask: &mut BitMask,
    ) {
        mask.reset(region);
        // A fill whose alpha is below the threshold has no solid pixel, but its rows are
        // still walked: the work they count is the row scan's, so that the budget refuses
        // this mask exactly when it refused the row scan's (answers must not depend on
        // which route a cached pose takes).
        let (ax, ay) = self.anchor;
        let local = region.moved((-ax, -ay));
        let rows = local.intersect(&self.edges.rect);
        if rows.is_empty() {
            return;
        }
        let mut walk = ActiveEdges::new(&self.edges.edges, std::mem::take(&mut bufs.active));
        for j in rows.y0..rows.y1 {
            walk.advance(j * GRID, (j + 1) * GRID);
            if bufs.coverage.over_budget() {
                break;
            }
            if walk.active.is_empty() {
                continue;
            }
            let y = (j - local.y0) as usize;
            let all = (rows.x0, rows.x1);
            let cols = match limit {
                None => all,
                Some(limit) => {
                    let (x0, x1) = limit.cols(j + ay);
                    (all.0.max(x0 - ax), all.1.min(x1 - ax))
                }
            };
            let mut row = Row {
                mask: &mut *mask,
                y,
                left: local.x0,
                cols,
                all,
                pending: None,
                whole_solid: self.cut <= ONE,
            };
            if !anti_alias {
                // Centre tests count no work (nor does the row scan's).
                if cols.0 < cols.1 {
                    self.centre_row(&walk.active, j, &mut row, &mut bufs.wind);
                }
            } else if !self.direct_row(&walk.active, j, &mut row, bufs)
                && !self.strip_row(&walk.active, j, &mut row, bufs)
            {
                self.swept_row(&walk.active, j, &mut row, bufs);
            }
            row.flush();
        }
        bufs.active = walk.into_buffer();
    }

    /// Without anti-aliasing: the runs of centres inside by the fill rule.
    fn centre_row(&self, active: &[Edge], j: i64, row: &mut Row, wind: &mut Vec<(i64, i32)>) {
        let cols = row.cols;
        let mut start = None;
        centre_runs(active, j, cols, wind, |x, winding| {
            match (start, centre_inside(winding, self.rule)) {
                (None, true) => start = Some(x),
                (Some(s), false) => {
                    row.set_whole(s, x);
                    start = None;
                }
                _ => {}
            }
        });
        if let Some(s) = start {
            row.set_whole(s, cols.1);
        }
    }

    /// An anti-aliased row where every edge crosses the whole row and their columns are
    /// apart, written without the sweep; `false` (nothing written) for any other row.
    fn direct_row(&self, active: &[Edge], j: i64, row: &mut Row, bufs: &mut FillBuffers) -> bool {
        // The work the sweep would count for the row over the region's columns, so that
        // the budget stops a whole mask exactly where the row scan stopped.
        let Some(work) = whole_row_edges(active, j, row.all, &mut bufs.row) else {
            return false;
        };
        bufs.coverage.add_work(work);
        bufs.counts.direct_rows += 1;
        if row.cols.0 >= row.cols.1 {
            return true;
        }
        let (cols, mut winding) = (row.cols, 0i64);
        for (n, r) in bufs.row.iter().enumerate() {
            let before = inside(winding, self.rule);
            winding += i64::from(r.dir);
            let after = inside(winding, self.rule);
            if before == after {
                // Its columns are whole pixels (inside) or nothing: its term has weight 0.
                if after {
                    let end = bufs.row.get(n + 1).map_or(r.c_hi + 1, |next| next.c_lo);
                    row.set_whole(r.c_lo, end);
                }
                continue;
            }
            let (a, b) = (r.c_lo.max(cols.0), (r.c_hi + 1).min(cols.1));
            if a < b {
                bufs.counts.area_pixels += (b - a) as u64;
                for c in a..b {
                    let cell = r.piece.cell(c);
                    // The winding's coverage left of the edge (a whole pixel when it was
                    // inside) plus the edge's own term, weighted +1 or -1.
                    let coverage = if after { cell } else { ONE - cell };
                    if coverage >= self.cut {
                        row.set(c, c + 1);
                    }
                }
            }
            if after && let Some(next) = bufs.row.get(n + 1) {
                row.set_whole(r.c_hi + 1, next.c_lo);
            }
        }
        true
    }

    /// An anti-aliased row with vertices but no crossing, strip by strip; `false` (nothing
    /// written) for a row whose pieces cross.
    fn strip_row(&self, active: &[Edge], j: i64, row: &mut Row, bufs: &mut FillBuffers) -> bool {
        let cut = self.cut;
        // Planned over the region's columns (the work the sweep counts there), emitted
        // only where asked.
        let done = if row.cols.0 < row.cols.1 {
            let cols = (row.all, row.cols);
            bufs.strips.coverage_in(active, j, self.rule, cols, |x0, x1, c| {
                if c >= cut {
                    row.set(x0, x1);
                }
            })
        } else {
            bufs.strips.work(active, j, self.rule, row.all)
        };
        let Some(work) = done else {
            return false;
        };
        bufs.coverage.add_work(work);
        bufs.counts.strip_rows += 1;
        true
    }

    /// Any other anti-aliased row: the general sweep over its edges' columns.
    fn swept_row(&self, active: &[Edge], j: i64, row: &mut Row, bufs: &mut FillBuffers) {
        bufs.counts.swept_rows += 1;
        // Over the region's columns, as the row scan asked: the same work counted.
        let cols = row.all;
        bufs.coverage.runs(active, j, self.rule, cols, &mut bufs.runs);
        for (k, &(x, c)) in bufs.runs.iter().enumerate() {
            if c >= self.cut {
                let end = bufs.runs.get(k + 1).map_or(cols.1, |r| r.0);
                row.set(x, end);
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::super::item::Scratch;
    use super::super::spans::tests::{Rng, random_edges as spans_edges};
    use super::super::strip_row::tests::random_edges as vertex_edges;
    use super::*;

    /// A random fill on the grid: every other case a star (turned, skewed, scaled from
    /// 0.01 to 100, far from the anchor), else the span tests' contours (self-crossing
    /// scribbles, slivers, rectangles on pixel lines or not, far from the origin), or
    /// the strip tests' (several vertices in a row, horizontal edges, sub-pixel spikes).
    fn random_edges(rng: &mut Rng, case: usize) -> Edges {
        if case % 4 == 3 {
            return vertex_edges(rng, case / 4);
        }
        if case % 2 == 1 {
            return spans_edges(rng, case / 2);
        }
        let mut e = Edges::default();
        let far = [0, 1 << 20, -(1 << 40), 1 << 44][case / 2 % 4];
        let scale = [0.01, 0.3, 1.0, 4.0, 30.0, 100.0][case / 8 % 6];
        for _ in 0..1 + rng.below(2) {
            let (ox, oy) = (far + rng.below(4096) - 2048, rng.below(4096) - 2048);
            let points = 3 + rng.below(6) as usize;
            let (turn, r) = (rng.below(1000) as f64 / 1000.0, 2.0 + rng.below(40) as f64);
            let skew = (rng.below(200) - 100) as f64 / 100.0;
            let pts: Vec<(i64, i64)> = (0..2 * points)
                .map(|i| {
                    let a = std::f64::consts::PI * (i as f64 / points as f64 + turn);
                    let d = if i % 2 == 0 { r } else { 0.5 * r } * scale * 256.0;
                    let (x, y) = (d * a.cos(), d * a.sin());
                    (ox + (x + skew * y) as i64, oy + y as i64)
                })
                .collect();
            e.push_closed(&pts);
        }
        e.finish();
        e
    }

    /// The plain path's plane: the item's values over `region` row by row (the row scan that
    /// composites a target into an alpha plane).
    fn plain(item: &Item, region: PixelRect, anti_alias: bool) -> Vec<u8> {
        let (shape, anchor) = item.shape();
        let mut plane = vec![0u8; region.area() as usize];
        let w = region.width() as usize;
        let part = region.intersect(&shape.rect().moved(anchor));
        if !part.is_empty() {
            let local = part.moved((-anchor.0, -anchor.1));
            shape.rows(local, anti_alias, &mut Scratch::default(), |j, values| {
                let y = (j + anchor.1 - region.y0) as usize;
                let x = (part.x0 - region.x0) as usize;
                plane[y * w + x..y * w + x + values.len()].copy_from_slice(values);
            });
        }
        plane
    }

    /// Thousands of random fills, anti-aliased and not, both fill rules, thresholds 1, 127,
    /// 255 and between, alphas from 1 to 255, in windows that hold them or cut them: the
    /// kernel's mask is the plain path's, bit for bit; with a [`Limit`], the same inside it,
    /// and the work counted is the same.
    #[test]
    fn masks_are_the_plain_paths() {
        let mut rng = Rng(0x0f11_b175_5eed_0001);
        let mut bufs = FillBuffers::default();
        let (mut direct, mut strip, mut swept) = (0, 0, 0);
        for case in 0..3000 {
            let edges = random_edges(&mut rng, case);
            if edges.rect.is_empty() {
                continue;
            }
            let rule = [FillRule::NonZero, FillRule::EvenOdd][rng.below(2) as usize];
            let alpha = [255, 255, 128, 1 + rng.below(255) as u8][case / 2 % 4];
            let threshold = [1, 127, 255, 1 + rng.below(255) as u8][case / 8 % 4];
            let anti_alias = case % 3 != 0;
            let anchor = (rng.below(2000) - 1000, rng.below(2000) - 1000);
            let rect = edges.rect.moved(anchor);
            let item = Item::Shape {
                shape: Arc::new(Shape::Fill { edges, rule, alpha }),
                anchor,
            };
            let fill = FillBits::of(&item, threshold).unwrap();
            // The whole item, or a window cutting it (at most 150 x 150 pixels).
            let region = match case % 4 {
                0 if rect.area() <= 40_000 => rect,
                _ => {
                    let (w, h) = (1 + rng.below(150), 1 + rng.below(150));
                    let x0 = rect.x0 + rng.below(rect.width().max(1) as i64 + 20) - 10 - w / 2;
                    let y0 = rect.y0 + rng.below(rect.height().max(1) as i64 + 20) - 10 - h / 2;
                    PixelRect {
                        x0,
                        y0,
                        x1: x0 + w,
                        y1: y0 + h,
                    }
                }
            };
            let mut plane = plain(&item, region, anti_alias);
            let want = BitMask::from_plane(&plane, region, threshold);
            let mut got = BitMask::empty();
            bufs.reset_work();
            fill.fill(region, anti_alias, None, &mut bufs, &mut got);
            assert!(bufs.check(String::new).is_ok());
            let work = bufs.coverage.work();
            assert_eq!(
                got, want,
                "case {case}: {region:?} aa {anti_alias} t {threshold} a {alpha}"
            );
            direct += bufs.counts.direct_rows;
            strip += bufs.counts.strip_rows;
            swept += bufs.counts.swept_rows;
            // Limited to a rectangle and to each row's extent of another mask (made over
            // the region moved, and moved back): the plain mask cut there, and the same
            // work counted as for the whole region.
            let (w, h) = (region.width() as usize, region.height() as usize);
            let shift = (rng.below(200) - 100, rng.below(200) - 100);
            let mut other = BitMask::empty();
            other.reset(region.moved(shift));
            for y in 0..h {
                if rng.below(4) != 0 {
                    let a = rng.below(w as i64) as usize;
                    let b = a + 1 + rng.below((w - a) as i64) as usize;
                    other.set_run(y, a, b);
                }
            }
            let (x0, y0) = (rng.below(w as i64 + 1), rng.below(h as i64 + 1));
            let (x1, y1) = (
                x0 + rng.below(w as i64 + 1 - x0),
                y0 + rng.below(h as i64 + 1 - y0),
            );
            let rect = match case % 3 {
                0 => region,
                _ => PixelRect { x0, y0, x1, y1 }.moved((region.x0, region.y0)),
            };
            let rows = (case % 5 != 0).then_some((&other, (-shift.0, -shift.1)));
            bufs.reset_work();
            fill.fill(
                region,
                anti_alias,
                Some(Limit { rect, rows }),
                &mut bufs,
                &mut got,
            );
            assert_eq!(bufs.coverage.work(), work, "case {case}: work when limited");
            for (y, row) in plane.chunks_exact_mut(w).enumerate() {
                let (mut a, mut b) = match rows {
                    Some(_) => other.row_extent(y).unwrap_or((0, 0)),
                    None => (0, w),
                };
                let yy = region.y0 + y as i64;
                if yy < rect.y0 || yy >= rect.y1 {
                    (a, b) = (0, 0);
                }
                a = a.max((rect.x0 - region.x0) as usize);
                b = b.min((rect.x1 - region.x0) as usize);
                if a >= b {
                    row.fill(0);
                } else {
                    row[..a].fill(0);
                    row[b..].fill(0);
                }
            }
            let cut = BitMask::from_plane(&plane, region, threshold);
            assert_eq!(got, cut, "case {case} limited");
        }
        // Every kind of row was met, the direct ones most.
        assert!(
            direct > 2 * strip && strip > 1000 && swept > 100,
            "{direct} direct, {strip} strip, {swept} swept rows"
        );
    }
}

/// The integer cut is `times_coverage`'s test, at every alpha and threshold.
#[cfg(test)]
mod cut_tests {
    use super::super::sample::times_coverage;
    use super::*;

    #[test]
    fn a_coverage_is_solid_from_the_cut_on() {
        for value in 0..=255u8 {
            for threshold in 1..=255u8 {
                let cut = solid_from(value, threshold);
                let solid = |c: i64| times_coverage(value, c) >= threshold;
                // No coverage comes near i64::MAX (a few whole pixels at most, summed in i64).
                for c in [i64::MIN, -1, 0, 1, ONE / 2, ONE - 1, ONE, ONE + 1, 1 << 62] {
                    assert_eq!(c >= cut, solid(c), "value {value}, threshold {threshold}, c {c}");
                }
                if cut != i64::MAX {
                    assert!(
                        solid(cut) && !solid(cut - 1),
                        "value {value}, threshold {threshold}"
                    );
                } else {
                    assert!(!solid(ONE), "value {value}, threshold {threshold}");
                }
            }
        }
    }
}

/// Where the kernel's work goes, counted on large fills: area math only on the columns
/// edges cross (bounded by the edges' lengths, not the area), the sweep only on rows that
/// hold a vertex.
#[cfg(test)]
mod count_tests {
    use std::sync::Arc;

    use super::*;

    /// A closed polygon through `points` (pixels), turned by `turn` radians about the
    /// origin, on the grid; and the bound on the pixels its edges cross: an edge from
    /// `(x0, y0)` to `(x1, y1)` crosses at most `|dx| + |dy| + 2` pixels' squares.
    fn polygon(points: &[(f64, f64)], turn: f64) -> (Edges, u64, Vec<i64>) {
        let (s, c) = turn.sin_cos();
        let grid: Vec<(i64, i64)> = points
            .iter()
            .map(|&(x, y)| {
                let (x, y) = (x * c - y * s, x * s + y * c);
                ((x * 256.0).round() as i64, (y * 256.0).round() as i64)
            })
            .collect();
        let mut bound = 0;
        for (k, &(x0, y0)) in grid.iter().enumerate() {
            let (x1, y1) = grid[(k + 1) % grid.len()];
            bound += ((x1 - x0).abs() + (y1 - y0).abs()) as u64 / 256 + 2;
        }
        let vertex_rows = grid.iter().map(|p| p.1.div_euclid(256)).collect();
        let mut e = Edges::default();
        e.push_closed(&grid);
        e.finish();
        (e, bound, vertex_rows)
    }

    #[test]
    fn area_math_only_on_columns_edges_cross() {
        let disc: Vec<(f64, f64)> = (0..256)
            .map(|i| {
                let a = std::f64::consts::TAU * f64::from(i) / 256.0;
                (200.0 * a.cos(), 200.0 * a.sin())
            })
            .collect();
        let star: Vec<(f64, f64)> = (0..14)
            .map(|i| {
                let a = std::f64::consts::PI * f64::from(i) / 7.0;
                let r = if i % 2 == 0 { 150.0 } else { 60.0 };
                (r * a.cos(), r * a.sin())
            })
            .collect();
        for (points, turn) in [(&disc, 0.3), (&star, 0.0), (&star, 1.1)] {
            let (edges, bound, mut vertex_rows) = polygon(points, turn);
            vertex_rows.sort_unstable();
            vertex_rows.dedup();
            let rect = edges.rect;
            let item = Item::Shape {
                shape: Arc::new(Shape::Fill {
                    edges,
                    rule: FillRule::NonZero,
                    alpha: 255,
                }),
                anchor: (0, 0),
            };
            let mut bufs = FillBuffers::default();
            let mut mask = BitMask::empty();
            FillBits::of(&item, 1)
                .unwrap()
                .fill(rect, true, None, &mut bufs, &mut mask);
            let c = bufs.counts;
            let solid = mask.overlap(&mask, rect).count;
            // The sweep's areas in the rows it took (one per column a piece crosses in a
            // strip of the row).
            let swept_areas = bufs.coverage.counts().areas + bufs.strips.areas;
            eprintln!(
                "{c:?}, {swept_areas} swept areas: bound {bound}, {} vertex rows, {solid} solid",
                vertex_rows.len()
            );
            // Direct rows work out a column once; the sweep once per strip of its row.
            assert!(c.area_pixels <= bound, "{c:?} bound {bound}");
            assert!(c.area_pixels + swept_areas <= 2 * bound, "{c:?} bound {bound}");
            assert!(
                (c.area_pixels + swept_areas) * 10 < solid,
                "{c:?}: {solid} solid pixels"
            );
            // Every row is written; the sweep runs only in a row with a vertex or next to
            // one (where a star's two edges near its tip share a column).
            assert_eq!(c.direct_rows + c.strip_rows + c.swept_rows, rect.height());
            assert!(c.strip_rows <= 2 * vertex_rows.len() as u64, "{c:?}");
            // No edge crosses another: the sweep itself never runs.
            assert_eq!(c.swept_rows, 0, "{c:?}");
        }
    }
}
