//! A pygame source's solid cores: per level of alpha, a convex polygon of the cells a
//! kernel's walk reads (texels for `rotate`, 2 x 2 blocks for `rotozoom`) inside which
//! every point lies in a cell that is solid at that level. The kernel
//! ([`super::pygame_bits`]) sets a row's pixels whose steps fall strictly inside it
//! without reading them, and reads only the pixels between it and the outline
//! ([`super::solid_hull`]).
//!
//! A step strictly inside the polygon reads a solid cell: the polygon lies in the union of
//! the solid cells' closed squares, so a small square around the step does too, and the
//! part of it in the step's own half-open cell is in no other cell's closed square.
//!
//! The polygon of a level is made around one column `c` of cells: in each row `j` of a
//! band of rows whose cell at `c` is solid, the solid run `[a_j, b_j)` through `c`; on
//! each line `v` between rows, the part `[lo_v, hi_v]` that is in the runs of both rows
//! next to it. The polygon lies in those runs when its cross-section at every line lies in
//! that line's part (its vertices are on lines, so between two lines it lies within the
//! hull of its two cross-sections). The left sides `lo_v` of a rounded disc are not quite
//! convex in `v`, so the left chain is their convex minorant moved right by its largest
//! shortfall (the right chain the same, mirrored), and the polygon the convex hull of
//! those chains' points rounded inward onto whole cells. It is then checked exactly, in
//! integers, against every run, and dropped if any check fails. Around a few columns (and,
//! the grid turned, a few rows), over sub-bands that leave a hole's rows out, the largest
//! polygon is kept. Made once per source and level (a level whose solid cells are the
//! level before's shares its polygon); an edit of cells that a level's polygon covers
//! drops that polygon (a kernel then reads every pixel of the outline, as before).

use super::solid_hull::{LEVELS, MAX_VERTICES, convex_hull};

/// Sides of a source above which no cores are made (their making reads the cells a few
/// times per level; the kernel then reads every pixel of the outline, as it did).
const MAX_SIDE: usize = 256;

/// Columns tried per level.
const COLUMNS: usize = 3;

/// Parts of a band whose boundaries are tried as a sub-band's first and last rows.
const SUB_BANDS: usize = 4;

/// Per level of [`LEVELS`], a convex polygon of cell corners (counter-clockwise as
/// [`convex_hull`] makes them) inside the cells whose value reaches the level.
#[derive(Debug, Clone, Default)]
pub(crate) struct SolidCores {
    /// Every level's vertices, level after level.
    points: Vec<[i32; 2]>,
    /// Where each level's polygon starts and ends in `points`; an empty range for none.
    spans: Vec<(u32, u32)>,
    /// Each polygon's area in cells (0 for none).
    areas: Vec<f64>,
}

/// One core: its vertices and its area in cells.
#[derive(Debug, Clone, Copy, Default)]
pub(crate) struct Core<'c> {
    pub vertices: &'c [[i32; 2]],
    pub area: f64,
}

impl SolidCores {
    /// The cores of a `w` x `h` grid of cells (row-major `values`), cell `(i, j)` of it
    /// being the square `[i + origin.0, i + origin.0 + 1) x [j + origin.1, ...)` of the
    /// walk's whole steps. Cells outside the grid count as clear.
    pub fn new(values: &[u8], (w, h): (usize, usize), origin: (i32, i32)) -> SolidCores {
        let mut cores = SolidCores::default();
        if w == 0 || h == 0 || w > MAX_SIDE || h > MAX_SIDE || values.len() != w * h {
            cores.spans = vec![(0, 0); LEVELS.len()];
            cores.areas = vec![0.0; LEVELS.len()];
            return cores;
        }
        let grid = Grid { values, w, h };
        let flipped: Vec<u8> = (0..w * h).map(|k| values[(k % h) * w + k / h]).collect();
        let across = Grid {
            values: &flipped,
            w: h,
            h: w,
        };
        // A level whose solid cells are the level before's (no value between the two) shares
        // its polygon: art of a few alphas makes a few polygons, not one a level.
        let mut seen = [false; 256];
        for &v in values {
            seen[usize::from(v)] = true;
        }
        for (l, &level) in LEVELS.iter().enumerate() {
            let same = l > 0 && !seen[usize::from(LEVELS[l - 1])..usize::from(level)].contains(&true);
            if let (true, Some(&span), Some(&area)) = (same, cores.spans.last(), cores.areas.last()) {
                cores.spans.push(span);
                cores.areas.push(area);
                continue;
            }
            // Runs along rows around a few columns, and along columns around a few rows
            // (the polygon's corners swapped back).
            let mut candidates: Vec<Vec<[i32; 2]>> = (0..COLUMNS)
                .flat_map(|k| grid.cores(level, (2 * k + 1) * w / (2 * COLUMNS)))
                .collect();
            for k in 0..COLUMNS {
                for p in across.cores(level, (2 * k + 1) * h / (2 * COLUMNS)) {
                    let mut swapped: Vec<[i32; 2]> = p.iter().map(|&[u, v]| [v, u]).collect();
                    candidates.push(convex_hull(&mut swapped));
                }
            }
            // The largest (three cores a level, each adding the most cells not covered
            // yet, cost the asteroids scene more a row than they saved).
            let best = candidates.iter().max_by_key(|p| twice_area(p));
            let start = cores.points.len() as u32;
            for &[u, v] in best.map_or(&[][..], |p| &p[..]) {
                cores.points.push([u + origin.0, v + origin.1]);
            }
            let vertices = &cores.points[start as usize..];
            cores.areas.push(twice_area(vertices) as f64 / 2.0);
            cores.spans.push((start, cores.points.len() as u32));
        }
        cores.points.shrink_to_fit();
        cores
    }

    /// The core of the lowest level at or above `threshold` (every cell it covers reaches
    /// the threshold); empty when there is none.
    pub fn core(&self, threshold: u8) -> Core<'_> {
        let level = LEVELS.iter().position(|&l| l >= threshold);
        match level.and_then(|l| Some((self.spans.get(l)?, self.areas.get(l)?))) {
            Some((&(a, b), &area)) => Core {
                vertices: &self.points[a as usize..b as usize],
                area,
            },
            None => Core::default(),
        }
    }

    /// Drops every core that covers a cell of `[i0, i1) x [j0, j1)` (in the walk's whole
    /// steps): an edit there may have cleared one. Keeps its storage, so that its bytes
    /// stay what the cache counted.
    pub fn drop_touching(&mut self, [i0, j0, i1, j1]: [i32; 4]) {
        for (span, area) in self.spans.iter_mut().zip(&mut self.areas) {
            let core = &self.points[span.0 as usize..span.1 as usize];
            let meets = |axis: usize, lo: i32, hi: i32| {
                let min = core.iter().map(|p| p[axis]).min().unwrap_or(0);
                let max = core.iter().map(|p| p[axis]).max().unwrap_or(0);
                min < hi && lo < max
            };
            if !core.is_empty() && meets(0, i0, i1) && meets(1, j0, j1) {
                *area = 0.0;
                span.1 = span.0;
            }
        }
    }

    /// Bytes it holds.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<SolidCores>()
            + self.points.capacity() * std::mem::size_of::<[i32; 2]>()
            + self.spans.capacity() * std::mem::size_of::<(u32, u32)>()
            + self.areas.capacity() * std::mem::size_of::<f64>()
    }
}

/// Solid runs `[a, b)` of consecutive rows.
type Runs = Vec<(i64, i64)>;

/// The cells a core is made from.
struct Grid<'g> {
    values: &'g [u8],
    w: usize,
    h: usize,
}

impl Grid<'_> {
    /// The solid run `[a, b)` of row `j` at `level` through column `c`, `None` when cell
    /// `(c, j)` is below it.
    fn run(&self, level: u8, c: usize, j: usize) -> Option<(i64, i64)> {
        let row = &self.values[j * self.w..][..self.w];
        if row[c] < level {
            return None;
        }
        let a = row[..c].iter().rposition(|&x| x < level).map_or(0, |k| k + 1);
        let b = row[c..].iter().position(|&x| x < level).map_or(self.w, |k| c + k);
        Some((a as i64, b as i64))
    }

    /// The core at `level` around column `c` (in the grid's cells), checked; `None` when
    /// it has no area or fails its check.
    fn cores(&self, level: u8, c: usize) -> Vec<Vec<[i32; 2]>> {
        // The longest band of rows whose cell at `c` is solid: its first row and runs.
        let (mut best, mut band): ((i64, Runs), Runs) = ((0, Vec::new()), Vec::new());
        for j in 0..=self.h {
            match (j < self.h).then(|| self.run(level, c, j)).flatten() {
                Some(run) => band.push(run),
                None if band.len() > best.1.len() => {
                    best = ((j - band.len()) as i64, std::mem::take(&mut band));
                }
                None => band.clear(),
            }
        }
        let (top, runs) = (best.0, &best.1[..]);
        // A hole or notch beside the column pushes a whole side of the polygon in (a
        // convex side cannot bend around it): sub-bands that leave such rows out are tried
        // too, on a grid of quarters of the band.
        let n = runs.len();
        let cuts: Vec<usize> = (0..=SUB_BANDS).map(|k| k * n / SUB_BANDS).collect();
        let mut found = Vec::new();
        for (i, &s) in cuts.iter().enumerate() {
            for &e in &cuts[i + 1..] {
                if e > s {
                    found.extend(polygon(top + s as i64, &runs[s..e]));
                }
            }
        }
        found
    }
}

/// The core of the runs of rows `top, top + 1, ...` (each holding its column), checked;
/// `None` when it has no area or fails its check.
fn polygon(top: i64, runs: &[(i64, i64)]) -> Option<Vec<[i32; 2]>> {
    if runs.is_empty() {
        return None;
    }
    // The part of each line `v = top + k` (k = 0 ..= rows) in both runs next to it.
    let parts: Vec<(i64, i64)> = (0..=runs.len())
        .map(|k| {
            let (above, below) = (runs[k.saturating_sub(1)], runs[k.min(runs.len() - 1)]);
            (above.0.max(below.0), above.1.min(below.1))
        })
        .collect();
    let left = shifted_minorant(parts.iter().map(|p| p.0));
    let right: Vec<f64> = shifted_minorant(parts.iter().map(|p| -p.1))
        .into_iter()
        .map(|x| -x)
        .collect();
    let mut points = Vec::new();
    for (k, (&l, &r)) in left.iter().zip(&right).enumerate() {
        let (l, r) = (l.ceil(), r.floor());
        if l <= r {
            let v = (top + k as i64) as i32;
            points.extend([[l as i32, v], [r as i32, v]]);
        }
    }
    let mut hull = convex_hull(&mut points);
    while hull.len() > MAX_VERTICES {
        // A hull of some of its vertices lies inside it.
        hull = hull.iter().copied().step_by(2).collect();
    }
    (hull.len() >= 3 && inside_runs(&hull, top, runs)).then_some(hull)
}

/// For values `x_k` at `k = 0, 1, ...`: the greatest convex function of `k` below them
/// (the lower hull of the points `(k, x_k)`), moved up by its largest shortfall, so that it
/// is convex and at least every `x_k`; its values at each `k`.
fn shifted_minorant(xs: impl Iterator<Item = i64>) -> Vec<f64> {
    let xs: Vec<i64> = xs.collect();
    // Lower hull by monotone chain: a point is kept only where the chain turns upward.
    let mut hull: Vec<(i64, i64)> = Vec::with_capacity(xs.len());
    for (k, &x) in xs.iter().enumerate() {
        let p = (k as i64, x);
        while let [.., a, b] = hull[..] {
            // `b` is above (or on) the chord from `a` to `p`: not on the lower hull.
            if (b.1 - a.1) * (p.0 - a.0) >= (p.1 - a.1) * (b.0 - a.0) {
                hull.pop();
            } else {
                break;
            }
        }
        hull.push(p);
    }
    let mut values = Vec::with_capacity(xs.len());
    for w in hull.windows(2) {
        let ((k0, x0), (k1, x1)) = (w[0], w[1]);
        for k in k0..k1 {
            values.push(x0 as f64 + (x1 - x0) as f64 * (k - k0) as f64 / (k1 - k0) as f64);
        }
    }
    values.push(hull.last().map_or(0.0, |p| p.1 as f64));
    let short = xs
        .iter()
        .zip(&values)
        .map(|(&x, &m)| x as f64 - m)
        .fold(0.0, f64::max);
    values.iter().map(|m| m + short).collect()
}

/// Whether the polygon `hull` (cell corners) lies in the runs (`runs[k]` the run of row
/// `top + k`): checked exactly, in integers. Its vertices are on whole lines, so between
/// two lines it lies within the hull of its two cross-sections, and those lie within the
/// convex hull of where its edges meet the lines: each meeting point must lie in the run
/// of each row next to its line.
fn inside_runs(hull: &[[i32; 2]], top: i64, runs: &[(i64, i64)]) -> bool {
    let rows = top..top + runs.len() as i64;
    let n = hull.len();
    (0..n).all(|i| {
        let (p, q) = (hull[i].map(i64::from), hull[(i + 1) % n].map(i64::from));
        let (lo, hi) = (p[1].min(q[1]), p[1].max(q[1]));
        if lo < top || hi > rows.end {
            return false;
        }
        (lo..=hi).all(|v| {
            // The meeting point's u is `p.u + (v - p.v) (q.u - p.u) / (q.v - p.v)`, or
            // both ends' on a flat edge: kept as `num / den` with `den > 0`.
            let points: [(i64, i64); 2] = match q[1] - p[1] {
                0 => [(p[0], 1), (q[0], 1)],
                dv => {
                    let num = p[0] * dv + (v - p[1]) * (q[0] - p[0]);
                    let f = (num * dv.signum(), dv.abs());
                    [f, f]
                }
            };
            [v - 1, v].into_iter().filter(|j| rows.contains(j)).all(|j| {
                let (a, b) = runs[(j - top) as usize];
                points.iter().all(|&(num, den)| a * den <= num && num <= b * den)
            })
        })
    })
}

/// Twice a polygon's area.
fn twice_area(p: &[[i32; 2]]) -> i64 {
    let n = p.len();
    (0..n)
        .map(|i| {
            let (a, b) = (p[i].map(i64::from), p[(i + 1) % n].map(i64::from));
            a[0] * b[1] - a[1] * b[0]
        })
        .sum::<i64>()
        .abs()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::raster::test_rng::Rng;

    /// Whether the point `(u, v)` (in 1/4 cells) lies strictly inside `core`.
    fn strictly_inside(core: &[[i32; 2]], (u, v): (i64, i64)) -> bool {
        let n = core.len();
        let turns: Vec<i64> = (0..n)
            .map(|i| {
                let (a, b) = (
                    core[i].map(|x| 4 * i64::from(x)),
                    core[(i + 1) % n].map(|x| 4 * i64::from(x)),
                );
                (b[0] - a[0]) * (v - a[1]) - (b[1] - a[1]) * (u - a[0])
            })
            .collect();
        n >= 3 && (turns.iter().all(|&t| t > 0) || turns.iter().all(|&t| t < 0))
    }

    /// Every point strictly inside a level's core (on a grid of quarter cells) lies in a
    /// cell whose value reaches that level, on random discs with holes, bars and noise; and
    /// on discs the cores cover most of the solid cells (they are worth reading around).
    #[test]
    fn cores_hold_only_solid_cells() {
        let mut rng = Rng(0x9e37_79b9_7f4a_7c15);
        let (mut covered, mut solid_in_discs) = (0u64, 0u64);
        for case in 0..300 {
            let (w, h) = (1 + rng.below(40) as usize, 1 + rng.below(40) as usize);
            let origin = ([0, -2][case % 2], [0, -2][case % 2]);
            let style = case % 3;
            let (cx, cy, r) = (w as f64 / 2.0, h as f64 / 2.0, w.min(h) as f64 / 2.0);
            let hole = (rng.below(w as i64) as f64, rng.below(h as i64) as f64);
            let values: Vec<u8> = (0..w * h)
                .map(|k| {
                    let (x, y) = ((k % w) as f64 + 0.5, (k / w) as f64 + 0.5);
                    match style {
                        0 if (x - hole.0).hypot(y - hole.1) < r / 4.0 => 0,
                        0 if (x - cx).hypot(y - cy) < r * 0.8 => 255,
                        0 if (x - cx).hypot(y - cy) < r => 128,
                        0 => 0,
                        1 if k % w % 4 == 1 || k / w % 5 == 2 => 255,
                        1 => 0,
                        _ => [0, 127, 128, 255, rng.below(256) as u8][rng.below(5) as usize],
                    }
                })
                .collect();
            let cores = SolidCores::new(&values, (w, h), origin);
            for t in [1u8, 100, 127, 128, 200, 255] {
                let core = cores.core(t).vertices;
                for v in 4 * (origin.1 as i64 - 1)..4 * (h as i64 + origin.1 as i64 + 1) {
                    for u in 4 * (origin.0 as i64 - 1)..4 * (w as i64 + origin.0 as i64 + 1) {
                        let (i, j) = (
                            u.div_euclid(4) - origin.0 as i64,
                            v.div_euclid(4) - origin.1 as i64,
                        );
                        let value = match (usize::try_from(i), usize::try_from(j)) {
                            (Ok(i), Ok(j)) if i < w && j < h => values[j * w + i],
                            _ => 0,
                        };
                        let inside = strictly_inside(core, (u, v));
                        assert!(
                            !inside || value >= t,
                            "case {case} at {t}: ({u}, {v})/4 in {core:?}"
                        );
                        if style == 0 && t == 128 && inside && u % 4 == 2 && v % 4 == 2 {
                            covered += 1;
                        }
                    }
                }
                if style == 0 && t == 128 {
                    solid_in_discs += values.iter().filter(|&&x| x >= 128).count() as u64;
                }
            }
        }
        assert!(
            covered * 2 > solid_in_discs,
            "{covered} of {solid_in_discs} solid cells covered"
        );
    }

    /// An edit of a cell a core covers drops that core and keeps the bytes; one elsewhere
    /// keeps it.
    #[test]
    fn edits_drop_the_cores_they_touch() {
        let values = vec![255u8; 16 * 16];
        let mut cores = SolidCores::new(&values, (16, 16), (0, 0));
        let bytes = cores.bytes();
        assert!(cores.core(128).vertices.len() >= 3);
        cores.drop_touching([20, 20, 22, 22]);
        assert!(cores.core(128).vertices.len() >= 3);
        cores.drop_touching([7, 7, 8, 8]);
        assert!(cores.core(128).vertices.is_empty() && cores.core(1).vertices.is_empty());
        assert!(cores.core(128).area == 0.0);
        assert_eq!(cores.bytes(), bytes);
    }
}
