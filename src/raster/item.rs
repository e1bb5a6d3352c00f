//! One item (a fill, a stroke's outline, or a bitmap) placed in a pose, and its value at
//! any pixel: the one definition of coverage that every query reads (semantics.md 4.5).

use std::sync::Arc;

use super::centres::{centre_runs, inside};
use super::coverage::{CoverageRow, ONE};
use super::edges::{ActiveEdges, Edge, EdgeList, Edges, GRID};
use super::pygame_item::RenderedShape;
use super::sample::{BitmapPose, TexelMap, Texels, push_run, times_coverage};
use crate::FillRule;
use crate::geom::rect::PixelRect;
use crate::geom::whole::floor_small;

/// What an item draws in its pose, relative to its anchor.
#[derive(Debug)]
pub(crate) enum Shape {
    /// A fill or a stroke outline: `alpha` times its coverage.
    Fill { edges: Edges, rule: FillRule, alpha: u8 },
    /// A bitmap: `map` takes pixels (relative to the anchor) to texels; `quad` is its
    /// rectangle's outline, whose coverage anti-aliases its edges.
    Bitmap {
        texels: Arc<Texels>,
        map: TexelMap,
        smoothing: bool,
        quad: Edges,
    },
    /// A bitmap as another renderer draws it (semantics.md 4.9), on whole pixels.
    Rendered(RenderedShape),
}

/// Reusable buffers for computing rows.
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    coverage: CoverageRow,
    active: Vec<Edge>,
    wind: Vec<(i64, i32)>,
    row: Vec<u8>,
    coverage_runs: Vec<(i64, i64)>,
    runs: Vec<(i64, u8)>,
    values: Vec<(i64, i64, i64)>,
    /// A rendered bitmap's values along a row.
    rendered: Vec<u8>,
}

impl Scratch {
    /// Whether the rows computed with it went over the work budget
    /// ([`WORK_BUDGET`](super::coverage::WORK_BUDGET)).
    pub fn over_budget(&self) -> bool {
        self.coverage.over_budget()
    }

    pub fn work(&self) -> u64 {
        self.coverage.work()
    }

    /// Starts counting work again, for a new query reusing these buffers.
    pub fn reset_work(&mut self) {
        self.coverage.reset_work()
    }

    /// Counts work done outside coverage.
    pub fn add_work(&mut self, work: u64) {
        self.coverage.add_work(work)
    }

    /// Rows and pixel areas coverage computed since the last [`Scratch::reset_work`].
    #[cfg(test)]
    pub fn area_counts(&self) -> super::coverage::AreaCounts {
        self.coverage.counts()
    }
}

impl Shape {
    /// Makes it what a spare pose's `Arc` holds until a new pose is written into it
    /// (`raster::spares`): an empty fill, holding no texels, with the room of a fill's
    /// edge vector (for [`Shape::take_room`]).
    pub fn make_spare(&mut self) {
        let room = self.take_room();
        *self = Shape::Fill {
            edges: Edges {
                edges: EdgeList::Many(room),
                rect: PixelRect::default(),
            },
            rule: FillRule::NonZero,
            alpha: 0,
        };
    }

    /// A fill's edge vector, emptied, for a new pose's edges to be made in (an empty one
    /// for anything else).
    pub fn take_room(&mut self) -> Vec<Edge> {
        match self {
            Shape::Fill { edges, .. } => edges.take_room(),
            Shape::Bitmap { .. } | Shape::Rendered(_) => Vec::new(),
        }
    }

    /// The pixels it can touch, relative to its anchor.
    pub fn rect(&self) -> PixelRect {
        match self {
            Shape::Fill { edges, .. } => edges.rect,
            // A centre can be inside the unsnapped rectangle and 1/512 px outside the snapped
            // one: one more pixel all round holds it.
            Shape::Bitmap { quad, .. } => {
                let r = quad.rect;
                match r.is_empty() {
                    true => r,
                    false => PixelRect {
                        x0: r.x0 - 1,
                        y0: r.y0 - 1,
                        x1: r.x1 + 1,
                        y1: r.y1 + 1,
                    },
                }
            }
            // The surface's rectangle is on whole pixels: no centre falls outside it.
            Shape::Rendered(r) => r.quad.rect,
        }
    }

    /// Vertices of its geometry (a bitmap is a quad).
    pub fn vertices(&self) -> usize {
        match self {
            Shape::Fill { edges, .. } => edges.edges.len(),
            Shape::Bitmap { .. } | Shape::Rendered(_) => 4,
        }
    }

    /// A bitmap's texels, which it shares with the other poses of that bitmap and colour
    /// transform (the cache counts them once).
    pub fn shared_texels(&self) -> Option<&Texels> {
        match self {
            Shape::Fill { .. } => None,
            Shape::Bitmap { texels, .. } => Some(texels),
            Shape::Rendered(r) => Some(&r.source),
        }
    }

    /// Memory it holds of its own (a bitmap's texels are shared: [`Shape::shared_texels`]).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Shape>()
            + match self {
                Shape::Fill { edges, .. } => edges.bytes(),
                Shape::Bitmap { quad, .. } => quad.bytes(),
                Shape::Rendered(r) => r.bytes(),
            }
    }

    /// Calls `emit(row, values)` for every row of `region` (pixels relative to the anchor),
    /// top to bottom, `values` holding the columns `region.x0..region.x1`.
    pub fn rows(
        &self,
        region: PixelRect,
        anti_alias: bool,
        scratch: &mut Scratch,
        mut emit: impl FnMut(i64, &[u8]),
    ) {
        let mut row = std::mem::take(&mut scratch.row);
        row.clear();
        row.resize(region.width() as usize, 0);
        self.runs_rows(region, anti_alias, scratch, |j, runs| {
            for (k, &(x, v)) in runs.iter().enumerate() {
                let end = runs.get(k + 1).map_or(region.x1, |r| r.0);
                row[(x - region.x0) as usize..(end - region.x0) as usize].fill(v);
            }
            emit(j, &row);
        });
        scratch.row = row;
    }

    /// Calls `emit(row, runs)` for every row of `region` (pixels relative to the anchor),
    /// top to bottom: `runs` are `(first column, value)`, each lasting until the next one
    /// starts and the last until `region.x1`. A fill's row costs work in proportion to its
    /// edges there, not to the width.
    pub fn runs_rows(
        &self,
        region: PixelRect,
        anti_alias: bool,
        scratch: &mut Scratch,
        mut emit: impl FnMut(i64, &[(i64, u8)]),
    ) {
        if region.is_empty() {
            return;
        }
        let span = (region.x0, region.x1);
        self.runs_in_spans(
            region.y0..region.y1,
            |_| Some(span),
            anti_alias,
            scratch,
            |j, runs, _| emit(j, runs),
        );
    }

    /// As [`Shape::runs_rows`], over rows `rows` with columns `span(row)` in each (none
    /// where it gives `None`, and then no call to `emit`); `emit(row, runs, end)` gets the
    /// column `end` where the last run stops. One walk down the edges serves every row.
    pub fn runs_in_spans(
        &self,
        rows: std::ops::Range<i64>,
        mut span: impl FnMut(i64) -> Option<(i64, i64)>,
        anti_alias: bool,
        scratch: &mut Scratch,
        mut emit: impl FnMut(i64, &[(i64, u8)], i64),
    ) {
        let Scratch {
            coverage,
            active,
            wind,
            row: _,
            coverage_runs,
            runs,
            values: _,
            rendered,
        } = scratch;
        let (edges, _) = self.span_edges();
        let mut walk = ActiveEdges::new(&edges.edges, std::mem::take(active));
        for j in rows {
            walk.advance(j * GRID, (j + 1) * GRID);
            let Some(span) = span(j).filter(|s| s.0 < s.1) else {
                continue;
            };
            let x0 = span.0;
            runs.clear();
            match self {
                Shape::Fill { rule, alpha, .. } => {
                    if walk.active.is_empty() {
                        runs.push((x0, 0));
                    } else if anti_alias {
                        coverage.runs(&walk.active, j, *rule, span, coverage_runs);
                        for &(x, c) in coverage_runs.iter() {
                            push_run(runs, x, times_coverage(*alpha, c));
                        }
                    } else {
                        centre_runs(&walk.active, j, span, wind, |x, winding| {
                            push_run(runs, x, if inside(winding, *rule) { *alpha } else { 0 });
                        });
                    }
                }
                Shape::Bitmap {
                    texels,
                    map,
                    smoothing,
                    ..
                } => {
                    let pose = BitmapPose {
                        texels,
                        map,
                        smoothing: *smoothing,
                    };
                    // Asked only with anti-aliasing: without it there is no coverage to spare.
                    let interior = || {
                        quad_interior(&walk.active, j).is_some_and(|(i0, i1)| i0 <= span.0 && span.1 <= i1)
                    };
                    if anti_alias && interior() {
                        pose.row(j, span, Some(&[(span.0, ONE)]), runs);
                    } else if anti_alias {
                        coverage.runs(&walk.active, j, FillRule::NonZero, span, coverage_runs);
                        pose.row(j, span, Some(coverage_runs), runs);
                    } else {
                        pose.row(j, span, None, runs);
                    }
                }
                Shape::Rendered(r) => r.runs(j, span, rendered, runs),
            }
            emit(j, runs, span.1);
        }
        *active = walk.into_buffer();
    }
}

impl Shape {
    /// The edges its row spans come from (a bitmap's are its quad's) and their fill rule.
    pub fn span_edges(&self) -> (&Edges, FillRule) {
        match self {
            Shape::Fill { edges, rule, .. } => (edges, *rule),
            Shape::Bitmap { quad, .. } => (quad, FillRule::NonZero),
            Shape::Rendered(r) => (&r.quad, FillRule::NonZero),
        }
    }

    /// The value of every pixel of its inside spans, when that is known without looking at
    /// them: a fill's alpha (a bitmap's pixels there still need their texels).
    pub fn inside_value(&self) -> Option<u8> {
        match self {
            Shape::Fill { alpha, .. } => Some(*alpha),
            Shape::Bitmap { .. } | Shape::Rendered(_) => None,
        }
    }

    /// Writes into `out` the columns among `needed` (sorted, disjoint, not touching
    /// intervals, pixels relative to the anchor) of row `j` whose value reaches `threshold`,
    /// as sorted, disjoint intervals. `active` must hold every edge of [`Shape::span_edges`]
    /// that reaches into the row. Area math is done for the needed columns only.
    #[allow(clippy::too_many_arguments)]
    pub fn solid_in(
        &self,
        j: i64,
        needed: &[(i64, i64)],
        active: &[Edge],
        anti_alias: bool,
        threshold: u8,
        scratch: &mut Scratch,
        out: &mut Vec<(i64, i64)>,
    ) {
        out.clear();
        let (Some(&(hull0, _)), Some(&(_, hull1))) = (needed.first(), needed.last()) else {
            return;
        };
        let Scratch {
            coverage,
            wind,
            runs,
            values,
            coverage_runs,
            rendered,
            ..
        } = scratch;
        match self {
            Shape::Fill { rule, alpha, .. } if anti_alias => {
                coverage.values_in(active, j, *rule, needed, values);
                for &(x0, x1, c) in values.iter() {
                    if times_coverage(*alpha, c) >= threshold {
                        push_interval(out, x0, x1);
                    }
                }
            }
            Shape::Fill { rule, alpha, .. } => {
                if *alpha < threshold {
                    return;
                }
                runs.clear();
                centre_runs(active, j, (hull0, hull1), wind, |x, winding| {
                    push_run(runs, x, u8::from(inside(winding, *rule)));
                });
                // The runs that are inside, cut to the needed columns.
                let mut k = 0;
                for (r, &(x, v)) in runs.iter().enumerate() {
                    let end = runs.get(r + 1).map_or(hull1, |n| n.0);
                    if v == 0 {
                        continue;
                    }
                    while let Some(&(n0, n1)) = needed.get(k) {
                        let (a, b) = (n0.max(x), n1.min(end));
                        if a < b {
                            push_interval(out, a, b);
                        }
                        if n1 > end {
                            break;
                        }
                        k += 1;
                    }
                }
            }
            Shape::Bitmap {
                texels,
                map,
                smoothing,
                ..
            } => {
                let pose = BitmapPose {
                    texels,
                    map,
                    smoothing: *smoothing,
                };
                if anti_alias {
                    bitmap_solid_in(
                        &pose,
                        j,
                        needed,
                        active,
                        threshold,
                        coverage,
                        runs,
                        coverage_runs,
                        values,
                        out,
                    );
                    return;
                }
                for &(n0, n1) in needed {
                    runs.clear();
                    pose.row(j, (n0, n1), None, runs);
                    for (r, &(x, v)) in runs.iter().enumerate() {
                        if v >= threshold {
                            push_interval(out, x, runs.get(r + 1).map_or(n1, |n| n.0));
                        }
                    }
                }
            }
            Shape::Rendered(r) => r.solid_in(j, needed, threshold, rendered, out),
        }
    }
}

impl Shape {
    /// For a fill or a bitmap (by its quad): calls `emit(row, x0, x1)` for every row of `region` (relative to the
    /// anchor) where its edges are, with columns `x0..x1` holding every pixel it can touch
    /// in that row (a hull of its edges there), cut to `region`. Cheap: no coverage.
    pub fn row_hulls(&self, region: PixelRect, scratch: &mut Scratch, mut emit: impl FnMut(i64, i64, i64)) {
        // A bitmap's pixels lie where its quad's edges or inside are.
        let (edges, _) = self.span_edges();
        if region.is_empty() {
            return;
        }
        let mut walk = ActiveEdges::new(&edges.edges, std::mem::take(&mut scratch.active));
        for j in region.y0..region.y1 {
            let (y0, y1) = (j * GRID, (j + 1) * GRID);
            walk.advance(y0, y1);
            let (mut lo, mut hi) = (i64::MAX, i64::MIN);
            for e in &walk.active {
                // The edge's x over the row lies between its x at the row's top and bottom
                // (or its end points there); grid units, one pixel of margin each side.
                let x_at = |y: i64| {
                    let t = (y - e.top) as f64 / (e.bottom - e.top) as f64;
                    e.x_top as f64 + t * (e.x_bottom - e.x_top) as f64
                };
                let (xa, xb) = (x_at(e.top.max(y0)), x_at(e.bottom.min(y1)));
                lo = lo.min(floor_small(xa.min(xb)));
                hi = hi.max(-floor_small(-xa.max(xb)));
            }
            if lo <= hi {
                let x0 = lo.div_euclid(GRID) - 1;
                let x1 = hi.div_euclid(GRID) + 2;
                let (x0, x1) = (x0.max(region.x0), x1.min(region.x1));
                if x0 < x1 {
                    emit(j, x0, x1);
                }
            }
        }
        scratch.active = walk.into_buffer();
    }
}

/// Appends the interval `[x0, x1)`, or lets the last one go on when it ends at `x0`.
/// The columns `i0..i1` of row `j` (pixels relative to the anchor) whose pixels lie wholly
/// inside a bitmap's quad, found without area math, or `None`: the row must be crossed from
/// top to bottom by exactly two of the `active` edges, of opposite directions (so the
/// winding between them is not zero), and nothing else. A pixel that no edge piece touches
/// has a constant winding and so, inside, exactly a whole pixel's coverage ([`ONE`]),
/// which is what the area math gives it too; the columns are kept a grid unit clear of
/// both edges.
pub(crate) fn quad_interior(active: &[Edge], j: i64) -> Option<(i64, i64)> {
    let (top, bottom) = (j * GRID, (j + 1) * GRID);
    let mut crossing = active.iter().filter(|e| e.top < bottom && e.bottom > top);
    let (first, second) = (crossing.next()?, crossing.next()?);
    if crossing.next().is_some() || first.dir == second.dir {
        return None;
    }
    if [first, second].iter().any(|e| e.top > top || e.bottom < bottom) {
        return None;
    }
    // Each edge's extent across the row, in grid units, with room for rounding: the
    // coordinates are below 2^49 grid units, where an f64 is within 2^-4 of them.
    let reach = |e: &Edge| {
        let at = |y: i64| {
            let k = (e.x_bottom - e.x_top) as f64 / (e.bottom - e.top) as f64;
            e.x_top as f64 + (y - e.top) as f64 * k
        };
        let (a, b) = (at(top), at(bottom));
        (a.min(b) - 2.0, a.max(b) + 2.0)
    };
    let (r1, r2) = (reach(first), reach(second));
    let (left, right) = if r1.1 < r2.0 {
        (r1, r2)
    } else if r2.1 < r1.0 {
        (r2, r1)
    } else {
        return None;
    };
    let g = GRID as f64;
    let (i0, i1) = ((left.1 / g).ceil(), (right.0 / g).floor() - 1.0);
    (i0 <= i1).then_some((i0 as i64, i1 as i64 + 1))
}

/// Calls `f(x0, x1, value, inside)` for each run of `runs` (each lasting until the next
/// starts) whose value reaches `threshold`, cut where the interior columns `i0..i1` start
/// and end.
fn for_each_piece(
    runs: &[(i64, u8)],
    threshold: u8,
    (i0, i1): (i64, i64),
    mut f: impl FnMut(i64, i64, u8, bool),
) {
    for w in runs.windows(2) {
        let (x, v, end) = (w[0].0, w[0].1, w[1].0);
        if v < threshold {
            continue;
        }
        for (a, b, inside) in [
            (x, end.min(i0), false),
            (x.max(i0), end.min(i1), true),
            (x.max(i1), end, false),
        ] {
            if a < b {
                f(a, b, v, inside);
            }
        }
    }
}

/// [`Shape::solid_in`] for an anti-aliased bitmap: each needed column's texel (clamped) is
/// read first; a pixel is solid when its texel times the quad's coverage reaches
/// `threshold`, and the coverage (area math) is worked out only for the columns whose texel
/// reaches it and that are not wholly inside the quad ([`quad_interior`]): elsewhere a
/// texel below the threshold stays below it, and inside the coverage is a whole pixel.
#[allow(clippy::too_many_arguments)]
fn bitmap_solid_in(
    pose: &BitmapPose<'_>,
    j: i64,
    needed: &[(i64, i64)],
    active: &[Edge],
    threshold: u8,
    coverage: &mut CoverageRow,
    runs: &mut Vec<(i64, u8)>,
    uncertain: &mut Vec<(i64, i64)>,
    values: &mut Vec<(i64, i64, i64)>,
    out: &mut Vec<(i64, i64)>,
) {
    // The texels of every needed interval, one after another, each closed by a run of 0
    // (below any threshold) at its end, so that a run lasts until the next one starts.
    runs.clear();
    for &(n0, n1) in needed {
        pose.row(j, (n0, n1), Some(&[(n0, ONE)]), runs);
        push_run(runs, n1, 0);
    }
    let (i0, i1) = quad_interior(active, j).unwrap_or((i64::MAX, i64::MAX));
    uncertain.clear();
    for_each_piece(runs, threshold, (i0, i1), |a, b, _, inside| {
        if !inside {
            push_interval(uncertain, a, b);
        }
    });
    if !uncertain.is_empty() {
        coverage.values_in(active, j, FillRule::NonZero, uncertain, values);
    }
    let mut k = 0;
    for_each_piece(runs, threshold, (i0, i1), |a, b, v, inside| {
        if inside {
            push_interval(out, a, b);
            return;
        }
        while values.get(k).is_some_and(|c| c.1 <= a) {
            k += 1;
        }
        for &(c0, c1, c) in values[k..].iter().take_while(|c| c.0 < b) {
            if times_coverage(v, c) >= threshold {
                push_interval(out, c0.max(a), c1.min(b));
            }
        }
    });
}

pub(crate) fn push_interval(out: &mut Vec<(i64, i64)>, x0: i64, x1: i64) {
    match out.last_mut() {
        Some(last) if last.1 == x0 => last.1 = x1,
        _ => out.push((x0, x1)),
    }
}
