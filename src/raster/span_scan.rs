//! Two single-item targets compared row by row through their spans: each row's spans of
//! both (from the edges alone, [`super::spans`]) are intersected first, and values are
//! computed only inside that intersection, so that a row costs its edges, not its width.
//!
//! In the intersection, pixels where both targets are inside spans of fills whose alpha
//! reaches the threshold are solid in both without any value computed (at tolerance 0 too:
//! an inside span is covered whole). Elsewhere the first target's values are computed where
//! it is not known solid, and the second's only where the first turned out solid.

use super::item::{Scratch, Shape, push_interval};
use super::spans::{Kind, SpanRows};
use crate::rect::PixelRect;

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
    /// Tests compare two fills by spans too, on this thread, while it is set.
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
    let active = walk.active();
    t.shape
        .solid_in(y - ay, local, active, anti_alias, t.threshold, scratch, out);
    for v in out.iter_mut() {
        *v = (v.0 + ax, v.1 + ax);
    }
}

#[cfg(test)]
mod tests {
    use super::super::plane::last_scan_counts;
    use crate::{CollisionOptions, FillRule, Graphic, Path, Stage};

    /// Two large turned squares of side `size` px, mostly overlapping: the overlap count, and
    /// what the scan counted.
    fn squares(
        size: f64,
        opts: &CollisionOptions,
    ) -> (u64, super::ScanCounts, super::super::coverage::AreaCounts) {
        let mut stage = Stage::new();
        let root = stage.root();
        let mut add = |x: f64, y: f64, turn: f64| {
            let n = stage.add_container(root).unwrap();
            let square = Path::rect(-size / 2.0, -size / 2.0, size, size);
            let g = Graphic::fill(square, FillRule::NonZero, 1.0).unwrap();
            stage.add_graphic(n, g).unwrap();
            stage.set_x(n, x).unwrap();
            stage.set_y(n, y).unwrap();
            stage.set_rotation(n, turn).unwrap();
            n
        };
        let (a, b) = (add(0.3, 0.1, 31.0), add(0.07 * size + 0.45, 0.05 * size, 8.5));
        let hit = stage.collision(a, b, root, opts).unwrap();
        let (scan, areas) = last_scan_counts();
        (hit.overlap_pixels.unwrap(), scan, areas)
    }

    /// The work of a query between two large items follows their edges, not their area:
    /// four times the side, about four times the rows, pixel areas and computed values, and
    /// sixteen times the pixels found solid from the spans alone. At tolerance 255 and 0,
    /// anti-aliased or not. (A count, not a time.)
    #[test]
    fn work_follows_the_edges_not_the_area() {
        super::FORCE.with(|f| f.set(true));
        for opts in [
            CollisionOptions::default(),
            CollisionOptions::default().tolerance(0),
            CollisionOptions::default().anti_alias(false),
        ] {
            let (small_hits, small, small_areas) = squares(400.0, &opts);
            let (large_hits, large, large_areas) = squares(1600.0, &opts);
            eprintln!(
                "{opts:?}\n  400 px: {small_hits} hits, {small:?}, {small_areas:?}\n  1600 px: {large_hits} hits, {large:?}, {large_areas:?}"
            );
            // The overlap grows with the area, nearly all of it found without values.
            assert!(large_hits > 14 * small_hits, "{large_hits} vs {small_hits}");
            assert!(large.interior_pixels > 14 * small.interior_pixels);
            assert!(large.interior_pixels as f64 > 0.98 * large_hits as f64);
            // The work grows with the edges: rows, areas and values about 4x.
            assert!(large.rows <= 5 * small.rows);
            assert!(
                large.valued_pixels <= 5 * small.valued_pixels,
                "{large:?} vs {small:?}"
            );
            assert!(large_areas.areas <= 5 * small_areas.areas.max(1));
            // And it is a few pixels per row: each row has at most four edges in the window.
            assert!(large.valued_pixels <= 16 * large.rows, "{large:?}");
            assert!(large_areas.areas <= 16 * large.rows, "{large_areas:?} {large:?}");
            // The counts are those of the right answer: the plain path's.
            let (plain_hits, ..) = squares(400.0, &opts.fast_paths(false));
            assert_eq!(small_hits, plain_hits);
        }
        super::FORCE.with(|f| f.set(false));
    }

    struct Rng(u64);
    impl Rng {
        fn f(&mut self) -> f64 {
            self.0 ^= self.0 << 13;
            self.0 ^= self.0 >> 7;
            self.0 ^= self.0 << 17;
            (self.0 >> 11) as f64 / (1u64 << 53) as f64
        }
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.f()
        }
        fn below(&mut self, n: usize) -> usize {
            (self.f() * n as f64) as usize
        }
    }

    /// A fill or a stroke: a self-intersecting scribble, a sliver, an unturned rectangle
    /// (horizontal edges inside rows) or a star, of random rule and alpha.
    fn graphic(rng: &mut Rng) -> Graphic {
        let r = rng.range(2.0, 60.0);
        let rule = [FillRule::NonZero, FillRule::EvenOdd][rng.below(2)];
        let alpha = if rng.below(4) == 0 {
            rng.range(0.05, 1.0)
        } else {
            1.0
        };
        let points = |n: usize, rng: &mut Rng| -> Vec<crate::DVec2> {
            (0..n)
                .map(|_| crate::DVec2::new(rng.range(-r, r), rng.range(-r, r)))
                .collect()
        };
        match rng.below(5) {
            0 => Graphic::fill(Path::polygon(&points(3 + rng.below(30), rng)), rule, alpha),
            1 => Graphic::fill(Path::rect(-r, 0.0, 2.0 * r, rng.range(0.01, 0.9)), rule, alpha),
            2 => Graphic::fill(Path::rect(-r, -r / 3.0, r, r * 0.7), rule, alpha),
            3 => Graphic::stroke(
                Path::polygon(&points(2 + rng.below(6), rng)),
                rng.range(0.2, 9.0),
                alpha,
            ),
            _ => Graphic::fill(Path::circle(0.0, 0.0, r), rule, alpha),
        }
        .unwrap()
    }

    /// Two fills compared by spans give the plain path's answer (both alpha planes
    /// composited pixel by pixel), both ways round, over 3,000 random pairs: turned, scaled
    /// and skewed, up to 1e9 px from the origin, tolerance 0, 255 or any, with and without
    /// anti-aliasing.
    #[test]
    fn two_fills_by_spans_give_the_plain_answer() {
        super::FORCE.with(|f| f.set(true));
        let mut rng = Rng(0x0f11_5a75_9e37_79b9);
        let mut hits = 0;
        for case in 0..3000 {
            let mut stage = Stage::new();
            let root = stage.root();
            let far = [0.0, 2.5e4, -7.7e6, 1e9][case % 4];
            let mut add = |rng: &mut Rng, at: crate::DVec2| {
                let n = stage.add_container(root).unwrap();
                stage.add_graphic(n, graphic(rng)).unwrap();
                let (s, c) = rng.range(0.0, 6.3).sin_cos();
                let (sx, sy, k) = (rng.range(0.3, 3.0), rng.range(0.3, 3.0), rng.range(-0.8, 0.8));
                let m = match rng.below(3) {
                    0 => crate::DAffine2::from_translation(at),
                    1 => crate::DAffine2::from_cols_array(&[sx * c, sx * s, -sy * s + k, sy * c, at.x, at.y]),
                    _ => crate::DAffine2::from_translation(at.round()),
                };
                stage.set_matrix(n, m).unwrap();
                n
            };
            let at = crate::DVec2::new(far + rng.range(-50.0, 50.0), far / 2.0);
            let a = add(&mut rng, at);
            let off = crate::DVec2::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0));
            let b = add(&mut rng, at + off);
            let tolerance = [0, 255, rng.below(256) as u8][rng.below(3)];
            let opts = CollisionOptions::default()
                .tolerance(tolerance)
                .anti_alias(rng.below(3) > 0);
            let plain = stage
                .clone()
                .collision(a, b, root, &opts.fast_paths(false))
                .unwrap();
            for (x, y) in [(a, b), (b, a)] {
                let got = stage.clone().collision(x, y, root, &opts).unwrap();
                assert_eq!(got, plain, "case {case}, {opts:?}");
            }
            hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
        }
        assert!((600..2400).contains(&hits), "{hits} hits of 3000");
        super::FORCE.with(|f| f.set(false));
    }
}
