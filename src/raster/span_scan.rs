//! Two single-item targets compared row by row through their spans: each row's spans of
//! both (from the edges alone, [`super::spans`]) are intersected first, and values are
//! computed only inside that intersection, so that a row costs its edges, not its width.
//!
//! In the intersection, pixels where both targets are inside spans of fills whose alpha
//! reaches the threshold are solid in both without any value computed (at tolerance 0 too:
//! an inside span is covered whole). Elsewhere the first target's values are computed where
//! it is not known solid, and the second's only where the first turned out solid.

use super::cache::CachedRaster;
use super::item::{Scratch, Shape, push_interval};
use super::spans::{Kind, SpanRows};
use crate::geom::rect::PixelRect;

/// Whether a pair of single shapes is compared by spans: when one of them is a bitmap.
///
/// Two fills are compared as runs instead (`Rasterizer::solid_rows`: a's runs in the
/// columns where b can be, b's where a is solid), whose area math already follows the
/// edges: each row costs one coverage computation per target in both ways, and that fixed
/// cost per row, not the pixels, is what a row of two fills costs. Counted with callgrind
/// (instructions; timings on the shared machine were too noisy): `prof_crowd 300 spin`
/// 2.29 G by spans against 2.10 G as runs, `prof_cold` 1.62 G against 1.48 G, two 1,000 px
/// squares (`prof_large squares`) 237 M against 218 M in the query. A bitmap's row as runs
/// costs its whole width (quad coverage summed per pixel, a texel per pixel); by spans, the
/// query part of `prof_large bitmaps` took 9.7 M instead of 19.5 M.
pub(crate) fn pays(a: &Shape, b: &Shape) -> bool {
    #[cfg(test)]
    if FORCE.with(std::cell::Cell::get) {
        return true;
    }
    a.inside_value().is_none() || b.inside_value().is_none()
}

#[cfg(test)]
thread_local! {
    /// Tests compare two fills by spans too (not by the fill kernel's words:
    /// `query::word_overlap`), on this thread, while it is set.
    pub(crate) static FORCE: std::cell::Cell<bool> = const { std::cell::Cell::new(false) };
}

/// Sorted, disjoint columns `[x0, x1)` of a row.
type Intervals = Vec<(i64, i64)>;

/// One side of a comparison: a shape placed at its anchor, and the lowest solid alpha.
#[derive(Clone, Copy)]
pub(crate) struct SpanTarget<'a> {
    pub shape: &'a Shape,
    pub anchor: (i64, i64),
    pub threshold: u8,
    /// The shape's whole raster, when the item is one: its values are read there (no
    /// work), everything else goes as for the shape.
    pub raster: Option<&'a CachedRaster>,
}

/// What a scan did, counted per thread (in its buffers), for the tests that prove where
/// the work goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct ScanCounts {
    /// Rows of the window where both targets had spans.
    pub rows: u64,
    /// Pixels found solid in both from the spans alone.
    pub interior_pixels: u64,
    /// Pixels whose value was computed (in either target).
    pub valued_pixels: u64,
}

/// Reusable buffers of a scan.
#[derive(Debug, Default)]
pub(crate) struct SpanScan {
    walk_a: SpanRows,
    walk_b: SpanRows,
    /// Each target's spans in the row, in the parent's grid: `(x0, x1, known solid)`.
    spans_a: Vec<(i64, i64, bool)>,
    spans_b: Vec<(i64, i64, bool)>,
    /// The intersection: `(x0, x1, known solid in a, known solid in b)`.
    both: Vec<(i64, i64, bool, bool)>,
    needed: Vec<(i64, i64)>,
    found: Vec<(i64, i64)>,
    local: Vec<(i64, i64)>,
    solid_a: Vec<(i64, i64)>,
    solid_b: Vec<(i64, i64)>,
    pub counts: ScanCounts,
}

impl SpanScan {
    /// Calls `emit(y, x0, x1)` for every run of pixels of `window` solid in both targets,
    /// row by row, left to right. Work is counted in `scratch` (its budget stops the scan).
    pub fn run(
        &mut self,
        window: PixelRect,
        (a, b): (SpanTarget, SpanTarget),
        anti_alias: bool,
        scratch: &mut Scratch,
        mut emit: impl FnMut(i64, i64, i64),
    ) {
        // A fill whose alpha is below its threshold has no solid pixel anywhere.
        if [a, b]
            .iter()
            .any(|t| t.shape.inside_value().is_some_and(|v| v < t.threshold))
        {
            return;
        }
        self.walk_a.start();
        self.walk_b.start();
        let cols = (window.x0, window.x1);
        for y in window.y0..window.y1 {
            if scratch.over_budget() {
                return;
            }
            let active = target_spans(&mut self.walk_a, a, y, cols, &mut self.spans_a);
            scratch.add_work(active as u64 / 16 + 1);
            if self.spans_a.is_empty() {
                continue;
            }
            let active = target_spans(&mut self.walk_b, b, y, cols, &mut self.spans_b);
            scratch.add_work(active as u64 / 16 + 1);
            intersect_spans(&self.spans_a, &self.spans_b, &mut self.both);
            if self.both.is_empty() {
                continue;
            }
            self.counts.rows += 1;
            // Target a: known where its span is inside, computed elsewhere.
            self.needed.clear();
            for &(x0, x1, known, _) in &self.both {
                if !known {
                    push_interval(&mut self.needed, x0, x1);
                }
            }
            self.solid_a.clear();
            let bufs = (&mut self.local, &mut self.found);
            solid_where_needed(
                a,
                &self.walk_a,
                y,
                anti_alias,
                scratch,
                &self.needed,
                bufs,
                &mut self.counts,
            );
            union_known(&self.both, |p| p.2, &self.found, &mut self.solid_a);
            if self.solid_a.is_empty() {
                continue;
            }
            // Target b: only where a is solid.
            self.found.clear();
            for &(x0, x1, _, known) in &self.both {
                if !known {
                    self.found.push((x0, x1));
                }
            }
            intersect(&self.found, &self.solid_a, &mut self.needed);
            let bufs = (&mut self.local, &mut self.found);
            solid_where_needed(
                b,
                &self.walk_b,
                y,
                anti_alias,
                scratch,
                &self.needed,
                bufs,
                &mut self.counts,
            );
            union_known(&self.both, |p| p.3, &self.found, &mut self.solid_b);
            intersect(&self.solid_a, &self.solid_b, &mut self.needed);
            for (x0, x1, known_a, known_b) in self.both.iter().copied() {
                if known_a && known_b {
                    self.counts.interior_pixels += (x1 - x0) as u64;
                }
            }
            for &(x0, x1) in &self.needed {
                emit(y, x0, x1);
            }
        }
    }
}

/// Walks `t` to row `y` of the parent's grid and writes its spans there, cut to the columns
/// `cols`, into `out`: `(x0, x1, known solid)`, leaving out inside spans that are not solid.
/// Returns the number of active edges.
fn target_spans(
    walk: &mut SpanRows,
    t: SpanTarget,
    y: i64,
    (c0, c1): (i64, i64),
    out: &mut Vec<(i64, i64, bool)>,
) -> usize {
    out.clear();
    let (edges, rule) = t.shape.span_edges();
    let j = y - t.anchor.1;
    // Rows outside the edges have no spans: the walk skips them.
    if j < edges.rect.y0 || j >= edges.rect.y1 {
        return 0;
    }
    let known = t.shape.inside_value().is_some_and(|v| v >= t.threshold);
    let ax = t.anchor.0;
    walk.walk_row(&edges.edges, j, rule, |x0, x1, kind| {
        let (x0, x1) = (x0.saturating_add(ax).max(c0), x1.saturating_add(ax).min(c1));
        if x0 >= x1 {
            return;
        }
        let solid = kind == Kind::Inside && known;
        match out.last_mut() {
            Some(last) if last.1 == x0 && last.2 == solid => last.1 = x1,
            _ => out.push((x0, x1, solid)),
        }
    });
    walk.active().len()
}

/// The parts of both span lists that overlap, with what each knows there.
fn intersect_spans(a: &[(i64, i64, bool)], b: &[(i64, i64, bool)], out: &mut Vec<(i64, i64, bool, bool)>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while let (Some(&(a0, a1, ka)), Some(&(b0, b1, kb))) = (a.get(i), b.get(j)) {
        let (x0, x1) = (a0.max(b0), a1.min(b1));
        if x0 < x1 {
            out.push((x0, x1, ka, kb));
        }
        if a1 < b1 {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// The overlap of two sorted lists of disjoint intervals.
fn intersect(a: &[(i64, i64)], b: &[(i64, i64)], out: &mut Vec<(i64, i64)>) {
    out.clear();
    let (mut i, mut j) = (0, 0);
    while let (Some(&(a0, a1)), Some(&(b0, b1))) = (a.get(i), b.get(j)) {
        let (x0, x1) = (a0.max(b0), a1.min(b1));
        if x0 < x1 {
            push_interval(out, x0, x1);
        }
        if a1 < b1 {
            i += 1;
        } else {
            j += 1;
        }
    }
}

/// `out` = the pieces of `both` that `known` says are solid, and the intervals `found`
/// (disjoint from those), in order.
fn union_known(
    both: &[(i64, i64, bool, bool)],
    known: impl Fn(&(i64, i64, bool, bool)) -> bool,
    found: &[(i64, i64)],
    out: &mut Vec<(i64, i64)>,
) {
    out.clear();
    let mut f = found.iter().peekable();
    for p in both.iter().filter(|p| known(p)) {
        while let Some(&&(x0, x1)) = f.peek() {
            if x0 >= p.0 {
                break;
            }
            push_interval(out, x0, x1);
            f.next();
        }
        push_interval(out, p.0, p.1);
    }
    for &(x0, x1) in f {
        push_interval(out, x0, x1);
    }
}

/// The columns among `needed` (parent's grid) of row `y` where `t` is solid, into `out`;
/// `local` is a buffer.
#[allow(clippy::too_many_arguments)]
fn solid_where_needed(
    t: SpanTarget,
    walk: &SpanRows,
    y: i64,
    anti_alias: bool,
    scratch: &mut Scratch,
    needed: &[(i64, i64)],
    (local, out): (&mut Intervals, &mut Intervals),
    counts: &mut ScanCounts,
) {
    out.clear();
    if needed.is_empty() {
        return;
    }
    let (ax, ay) = t.anchor;
    local.clear();
    local.extend(needed.iter().map(|&(x0, x1)| (x0 - ax, x1 - ax)));
    counts.valued_pixels += local.iter().map(|n| (n.1 - n.0) as u64).sum::<u64>();
    match t.raster {
        Some(raster) => {
            for &(n0, n1) in local.iter() {
                raster.solid_runs(y - ay, (n0, n1), t.threshold, |x0, x1| push_interval(out, x0, x1));
            }
        }
        None => {
            let active = walk.active();
            t.shape
                .solid_in(y - ay, local, active, anti_alias, t.threshold, scratch, out);
        }
    }
    for v in out.iter_mut() {
        *v = (v.0 + ax, v.1 + ax);
    }
}
