//! One item (a fill, a stroke's outline, or a bitmap) placed in a pose, and its value at
//! any pixel: the one definition of coverage that every query reads (semantics.md 4.5).

use std::sync::Arc;

use super::centres::{centre_runs, inside};
use super::coverage::{CoverageRow, floor};
use super::edges::{ActiveEdges, Edge, Edges, GRID};
use super::sample::{BitmapPose, TexelMap, Texels, push_run, times_coverage};
use crate::FillRule;
use crate::geom::rect::PixelRect;

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
}

impl Shape {
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
        }
    }

    /// Vertices of its geometry (a bitmap is a quad).
    pub fn vertices(&self) -> usize {
        match self {
            Shape::Fill { edges, .. } => edges.edges.len(),
            Shape::Bitmap { .. } => 4,
        }
    }

    /// Memory it holds of its own (a bitmap's texels are counted where they are cached).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Shape>()
            + match self {
                Shape::Fill { edges, .. } => edges.bytes(),
                Shape::Bitmap { quad, .. } => quad.bytes(),
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
        } = scratch;
        let edges = match self {
            Shape::Fill { edges, .. } => edges,
            Shape::Bitmap { quad, .. } => quad,
        };
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
                    if anti_alias {
                        coverage.runs(&walk.active, j, FillRule::NonZero, span, coverage_runs);
                        pose.row(j, span, Some(coverage_runs), runs);
                    } else {
                        pose.row(j, span, None, runs);
                    }
                }
            }
            emit(j, runs, span.1);
        }
        *active = walk.into_buffer();
    }
}

impl Shape {
    /// For a fill or a bitmap (by its quad): calls `emit(row, x0, x1)` for every row of `region` (relative to the
    /// anchor) where its edges are, with columns `x0..x1` holding every pixel it can touch
    /// in that row (a hull of its edges there), cut to `region`. Cheap: no coverage.
    pub fn row_hulls(&self, region: PixelRect, scratch: &mut Scratch, mut emit: impl FnMut(i64, i64, i64)) {
        // A bitmap's pixels lie where its quad's edges or inside are.
        let (Shape::Fill { edges, .. } | Shape::Bitmap { quad: edges, .. }) = self;
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
                lo = lo.min(floor(xa.min(xb)));
                hi = hi.max(-floor(-xa.max(xb)));
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
