//! A bitmap's solid pixels written straight into a bit mask: the frame engine's kernel for
//! the commonest target, one unsmoothed bitmap in a pose that changes every frame.
//!
//! The general route ([`super::span_scan`]) walks the quad's outline through a span walker,
//! turns texels into run lists pixel by pixel and intersects interval lists; on a frame of
//! turning sprites that was five times the work the pixels need (docs/frame-engine.md).
//! Here a row costs a few integer divisions that give, from the row's own equation, the
//! columns whose centres fall in a box of texels, then one texel read and compare per pixel
//! there, stepped by integer additions, the bits gathered a word at a time. Two boxes
//! matter:
//!
//! - the box of the texels that reach the threshold ([`Texels::solid_box`]): a centre
//!   outside it reads a texel below the threshold, so without anti-aliasing no pixel outside
//!   its columns can be solid;
//! - with anti-aliasing, the bitmap's rectangle shrunk and grown by a margin of half a
//!   pixel's reach in texels (and room for snapping and rounding): a centre inside the
//!   shrunk rectangle has its whole pixel inside the snapped quad (coverage a whole pixel,
//!   value its texel), a centre outside the grown one has none of it (value 0). Only the
//!   band between needs area math, and only where its clamped texel reaches the threshold;
//!   the quad's edges are walked to those rows only. When the solid box keeps that margin
//!   from the border, the band holds no solid texel and anti-aliasing decides nothing.
//!
//! The values are those of [`super::item`] bit for bit, by the same arithmetic: the texel
//! under a centre is `map.at(i, j)` stepped by `col0` and `col1` (semantics.md 4.5; exact
//! integers, here in i64 because the region's corners are checked to fit), and an edge
//! pixel's coverage comes from [`CoverageRow::values_in`], the crate's one coverage
//! computation.

use super::bitmask::BitMask;
use super::coverage::CoverageRow;
use super::edges::{ActiveEdges, Edge, Edges, GRID};
use super::item::{Shape, push_interval};
use super::prepare::Item;
use super::sample::{TEXEL_BITS, TexelMap, Texels, times_coverage};
use crate::FillRule;
use crate::geom::rect::PixelRect;

/// Fixed-point values (texel coordinates, box bounds) kept below this stay in i64 through
/// every difference a row takes (they are linear in the pixel, so a region's corners bound
/// its inside).
const FITS_I64: i128 = 1 << 61;

/// One unsmoothed bitmap item in a pose, with the lowest alpha that is solid.
#[derive(Clone, Copy)]
pub(crate) struct BitmapBits<'a> {
    texels: &'a Texels,
    map: &'a TexelMap,
    quad: &'a Edges,
    anchor: (i64, i64),
    threshold: u8,
    /// The pixels its quad can touch, in the parent's grid.
    extent: PixelRect,
}

/// What the kernel did, for the tests that prove where the work goes.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct BitsCounts {
    /// Texels read to decide a pixel.
    pub texels_read: u64,
    /// Pixels whose coverage was worked out (near the border, with a texel that reaches
    /// the threshold).
    pub area_pixels: u64,
    /// Rows written.
    pub rows: u64,
}

/// Reusable buffers of the kernel.
#[derive(Debug)]
pub(crate) struct BitsBuffers {
    coverage: CoverageRow,
    active: Vec<Edge>,
    uncertain: Vec<(i64, i64)>,
    values: Vec<(i64, i64, i64)>,
    /// The two targets' masks over a pair's window.
    pub a: BitMask,
    pub b: BitMask,
    pub counts: BitsCounts,
}

impl Default for BitsBuffers {
    fn default() -> BitsBuffers {
        BitsBuffers {
            coverage: CoverageRow::default(),
            active: Vec::new(),
            uncertain: Vec::new(),
            values: Vec::new(),
            a: BitMask::empty(),
            b: BitMask::empty(),
            counts: BitsCounts::default(),
        }
    }
}

impl BitsBuffers {
    /// `Ok` unless the coverage worked out went over the work budget; the error names `what`.
    pub fn check(&self, what: impl FnOnce() -> String) -> crate::Result<()> {
        super::coverage::check_work(self.coverage.over_budget(), self.coverage.work(), what)
    }

    pub fn reset_work(&mut self) {
        self.coverage.reset_work();
        self.counts = BitsCounts::default();
    }
}

/// A box of texel space in fixed point: `[u0, v0, u1, v1]`, half-open.
type TexelBox = [i64; 4];

/// How a pose's solid pixels are decided.
#[derive(Clone, Copy)]
enum Rule {
    /// No texel reaches the threshold.
    Nothing,
    /// By the texel under each centre inside this box (the solid texels').
    Centres(TexelBox),
    /// Anti-aliased with solid texels near the border: exactly inside the `inner` box the
    /// texel decides, outside the `outer` one nothing is solid, between them the clamped
    /// texel times the quad's coverage.
    Covered { inner: TexelBox, outer: TexelBox },
}

/// What an edge pixel's coverage is worked out with: the row's coverage, the pixels asked
/// for, the values found.
type CoverageBuffers<'b> = (
    &'b mut CoverageRow,
    &'b mut Vec<(i64, i64)>,
    &'b mut Vec<(i64, i64, i64)>,
);

/// One row of the mask being written.
struct Row<'m> {
    mask: &'m mut BitMask,
    y: usize,
}

/// The steps `k` in `0..n` with `lo <= s + k d < hi`, as `(first, end)` (empty when
/// `first >= end`), from the row's equation: two divisions, no search. Every value and
/// difference stays in i64 (see [`FITS_I64`]).
#[inline(always)]
pub(super) fn steps_between(s: i64, d: i64, (lo, hi): (i64, i64), n: i64) -> (i64, i64) {
    let (first, end) = match d.signum() {
        0 => match (lo..hi).contains(&s) {
            true => (0, n),
            false => (0, 0),
        },
        1 => (ceil_div(lo - s, d), ceil_div(hi - s, d)),
        _ => ((s - hi).div_euclid(-d) + 1, (s - lo).div_euclid(-d) + 1),
    };
    (first.clamp(0, n), end.clamp(0, n))
}

#[inline(always)]
fn ceil_div(a: i64, b: i64) -> i64 {
    -(-a).div_euclid(b)
}

impl<'a> BitmapBits<'a> {
    /// The kernel's view of `item` at `threshold`, when it is one unsmoothed bitmap pose
    /// (a whole cached raster has its mask already; a smoothed bitmap takes the general
    /// route).
    pub fn of(item: &'a Item, threshold: u8) -> Option<BitmapBits<'a>> {
        let Item::Shape { shape, anchor } = item else {
            return None;
        };
        match &**shape {
            Shape::Bitmap {
                texels,
                map,
                smoothing: false,
                quad,
            } => Some(BitmapBits {
                texels,
                map,
                quad,
                anchor: *anchor,
                threshold,
                extent: shape.rect().moved(*anchor),
            }),
            _ => None,
        }
    }

    /// How far (fixed point, texels) a centre must be inside the bitmap's rectangle for
    /// its pixel's square, grown by 1/64 px, to lie inside the rectangle, across and down:
    /// the square's half reach in texels, with room for rounding. Snapping moves the quad's
    /// edges by under 1/256 px, so such a pixel is inside the snapped quad with no edge
    /// piece in it (coverage a whole pixel); one whose centre is as far outside has none.
    /// The map's columns are rounded to 2^-32 texel, so a centre `(i, j)` pixels from the
    /// anchor is off by under `|i| + |j| + 1` units: the pixels near the rectangle lie in
    /// the quad's reach, whose farthest corner bounds that.
    fn margins(&self) -> (i64, i64) {
        let (c0, c1) = (self.map.col0, self.map.col1);
        let r = self.quad.rect;
        let far = [r.x0, r.x1].map(i64::unsigned_abs).into_iter().max().unwrap_or(0)
            + [r.y0, r.y1].map(i64::unsigned_abs).into_iter().max().unwrap_or(0);
        let reach = |a: i64, b: i64| {
            let units = (a.unsigned_abs() as f64 + b.unsigned_abs() as f64) * (0.5 + 1.0 / 64.0);
            let rounding = (far as f64 + 8.0) + f64::from(1u32 << (TEXEL_BITS - 10));
            (units + rounding).ceil().min(FITS_I64 as f64) as i64
        };
        (reach(c0.0, c1.0), reach(c0.1, c1.1))
    }

    /// How its solid pixels are decided (see [`Rule`]); `None` when a bound leaves i64.
    fn rule(&self, anti_alias: bool) -> Option<Rule> {
        let Some(solid) = self.texels.solid_box(self.threshold) else {
            return Some(Rule::Nothing);
        };
        let fixed = solid.map(|c| i64::from(c) << TEXEL_BITS);
        if !anti_alias {
            return Some(Rule::Centres(fixed));
        }
        let (mu, mv) = self.margins();
        let [w, h] = [self.texels.width, self.texels.height].map(|s| i64::from(s) << TEXEL_BITS);
        if [mu, mv, w, h].iter().any(|&c| i128::from(c) * 2 >= FITS_I64) {
            return None;
        }
        // A solid box this far from the border leaves nothing for coverage to decide.
        if fixed[0] >= mu && fixed[1] >= mv && w - fixed[2] >= mu && h - fixed[3] >= mv {
            return Some(Rule::Centres(fixed));
        }
        Some(Rule::Covered {
            inner: [mu, mv, w - mu, h - mv],
            outer: [-mu, -mv, w + mu, h + mv],
        })
    }

    /// The pixels (the parent's grid) that can be solid: where the solid box's centres can
    /// be under the centre rule, the quad's reach otherwise.
    pub fn solid_extent(&self, anti_alias: bool) -> PixelRect {
        match self.rule(anti_alias) {
            Some(Rule::Nothing) => PixelRect::default(),
            Some(Rule::Centres(b)) => self.pixels_over(b).unwrap_or(self.extent),
            Some(Rule::Covered { .. }) | None => self.extent,
        }
    }

    /// The pixels whose centres can map into the box `b`, with two pixels to spare all
    /// round for rounding, in the parent's grid; `None` when the mapping cannot be turned
    /// round in f64.
    fn pixels_over(&self, [u0, v0, u1, v1]: TexelBox) -> Option<PixelRect> {
        let m = self.map;
        let (a, b, c, d) = (m.col0.0 as f64, m.col1.0 as f64, m.col0.1 as f64, m.col1.1 as f64);
        let det = a * d - b * c;
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for (u, v) in [(u0, v0), (u1, v0), (u0, v1), (u1, v1)] {
            let (du, dv) = ((u - m.origin.0) as f64, (v - m.origin.1) as f64);
            let (i, j) = ((d * du - b * dv) / det, (a * dv - c * du) / det);
            lo = (lo.0.min(i), lo.1.min(j));
            hi = (hi.0.max(i), hi.1.max(j));
        }
        const LIMIT: f64 = (1u64 << 52) as f64;
        if ![lo.0, lo.1, hi.0, hi.1].iter().all(|c| c.abs() < LIMIT) {
            return None;
        }
        Some(
            PixelRect {
                x0: lo.0.floor() as i64 - 2,
                y0: lo.1.floor() as i64 - 2,
                x1: hi.0.ceil() as i64 + 3,
                y1: hi.1.ceil() as i64 + 3,
            }
            .moved(self.anchor),
        )
    }

    /// Makes `mask` its solid pixels over `region` (the parent's grid). With `within`, only
    /// the pixels that can matter against that mask (over the same region) are decided: in
    /// each row, the columns from its first to its last set bit; the rest stay clear.
    /// `false` (the mask left empty) when the region lies so far from the bitmap that its
    /// texel coordinates leave i64: the caller takes the general route.
    pub fn fill(
        &self,
        region: PixelRect,
        anti_alias: bool,
        within: Option<&BitMask>,
        bufs: &mut BitsBuffers,
        mask: &mut BitMask,
    ) -> bool {
        mask.reset(region);
        let Some(rule) = self.rule(anti_alias) else {
            return false;
        };
        let (ax, ay) = self.anchor;
        let local = region.moved((-ax, -ay));
        let rows = match rule {
            Rule::Nothing => return true,
            Rule::Centres(_) => region.intersect(&self.solid_extent(anti_alias)).moved((-ax, -ay)),
            Rule::Covered { .. } => local,
        };
        if rows.is_empty() {
            return true;
        }
        let corners = [
            (rows.x0, rows.y0),
            (rows.x1, rows.y0),
            (rows.x0, rows.y1),
            (rows.x1, rows.y1),
        ];
        if corners.iter().any(|&(i, j)| {
            let (u, v) = self.map.at(i, j);
            u.abs() >= FITS_I64 || v.abs() >= FITS_I64
        }) {
            return false;
        }
        let BitsBuffers {
            coverage,
            active,
            uncertain,
            values,
            counts,
            ..
        } = bufs;
        let mut walk = ActiveEdges::new(&self.quad.edges, std::mem::take(active));
        // The centre of the row's first column, stepped down by `col1` (exact integers).
        let start = self.map.at(rows.x0, rows.y0);
        let (mut u, mut v) = (start.0 as i64, start.1 as i64);
        for j in rows.y0..rows.y1 {
            let row_start = (u, v);
            (u, v) = (u + self.map.col1.0, v + self.map.col1.1);
            let y = (j - local.y0) as usize;
            let (mut c0, mut c1) = (rows.x0, rows.x1);
            if let Some(other) = within {
                let Some((x0, x1)) = other.row_extent(y) else {
                    continue;
                };
                (c0, c1) = (c0.max(local.x0 + x0 as i64), c1.min(local.x0 + x1 as i64));
            }
            if c0 >= c1 {
                continue;
            }
            let (du, dv) = self.map.col0;
            let first = (
                row_start.0 + (c0 - rows.x0) * du,
                row_start.1 + (c0 - rows.x0) * dv,
            );
            let mut row = Row { mask, y };
            let cols = (c0, c1, local.x0);
            match rule {
                Rule::Nothing => {}
                Rule::Centres(solid) => {
                    let (a, b) = self.steps_inside(first, c1 - c0, solid);
                    if a < b {
                        let at = (first.0 + a * du, first.1 + a * dv);
                        self.inside_run(at, (c0 + a - local.x0) as usize, (b - a) as usize, &mut row);
                        counts.texels_read += (b - a) as u64;
                    }
                }
                Rule::Covered { inner, outer } => {
                    let parts = (&mut *coverage, &mut *uncertain, &mut *values);
                    self.covered_row(
                        (j, first),
                        cols,
                        (inner, outer),
                        &mut walk,
                        parts,
                        &mut row,
                        counts,
                    );
                }
            }
            counts.rows += 1;
        }
        *active = walk.into_buffer();
        true
    }

    /// The steps `a..b` among `0..n` of a row from the centre `(u, v)` whose centres lie in
    /// the box `[u0, v0, u1, v1]` (`a >= b` when none does).
    #[inline]
    fn steps_inside(&self, (u, v): (i64, i64), n: i64, [u0, v0, u1, v1]: TexelBox) -> (i64, i64) {
        let across = steps_between(u, self.map.col0.0, (u0, u1), n);
        let down = steps_between(v, self.map.col0.1, (v0, v1), n);
        (across.0.max(down.0), across.1.min(down.1))
    }

    /// An anti-aliased row near the border (see [`Rule::Covered`]): texels decide inside
    /// `inner`; between `inner` and `outer`, pixels whose clamped texel reaches the
    /// threshold have their coverage worked out; outside `outer` nothing is solid.
    #[allow(clippy::too_many_arguments)]
    fn covered_row(
        &self,
        (j, first): (i64, (i64, i64)),
        (c0, c1, x_left): (i64, i64, i64),
        (inner, outer): (TexelBox, TexelBox),
        walk: &mut ActiveEdges,
        (coverage, uncertain, values): CoverageBuffers<'_>,
        row: &mut Row,
        counts: &mut BitsCounts,
    ) {
        let n = c1 - c0;
        let (ga, gb) = self.steps_inside(first, n, outer);
        if ga >= gb {
            return;
        }
        let (sa, sb) = match self.steps_inside(first, n, inner) {
            (sa, sb) if sa < sb => (sa, sb),
            _ => (gb, gb),
        };
        let (du, dv) = self.map.col0;
        let at = |k: i64| (first.0 + k * du, first.1 + k * dv);
        uncertain.clear();
        for k in (ga..sa).chain(sb.max(sa)..gb) {
            if self.clamped(at(k)) >= self.threshold {
                push_interval(uncertain, c0 + k, c0 + k + 1);
            }
        }
        if sa < sb {
            self.inside_run(at(sa), (c0 + sa - x_left) as usize, (sb - sa) as usize, row);
        }
        counts.texels_read += (gb - ga) as u64;
        if uncertain.is_empty() {
            return;
        }
        walk.advance(j * GRID, (j + 1) * GRID);
        coverage.values_in(&walk.active, j, FillRule::NonZero, uncertain, values);
        for &(x0, x1, c) in values.iter() {
            counts.area_pixels += (x1 - x0) as u64;
            for x in x0..x1 {
                if times_coverage(self.clamped(at(x - c0)), c) >= self.threshold {
                    row.mask
                        .set_run(row.y, (x - x_left) as usize, (x - x_left) as usize + 1);
                }
            }
        }
    }

    /// Writes the `n` pixels from mask column `first` on, whose centres, from the one at
    /// `(u, v)` on, all lie inside the bitmap: one texel read and compare a pixel, the bits
    /// gathered a word at a time.
    fn inside_run(&self, (mut u, mut v): (i64, i64), first: usize, n: usize, row: &mut Row) {
        let t = self.texels;
        let (du, dv) = self.map.col0;
        let (w, threshold) = (t.width as usize, self.threshold);
        let alpha = &t.alpha[..];
        let (mut x, end) = (first, first + n);
        while x < end {
            let k = x / 64;
            let stop = ((k + 1) * 64).min(end);
            let mut word = 0u64;
            for bit in x % 64..stop - k * 64 {
                let texel = alpha[(v >> TEXEL_BITS) as usize * w + (u >> TEXEL_BITS) as usize];
                word |= u64::from(texel >= threshold) << bit;
                u += du;
                v += dv;
            }
            row.mask.or_word(row.y, k, word);
            x = stop;
        }
    }

    /// The texel under the centre `(u, v)`, clamped into the bitmap.
    fn clamped(&self, (u, v): (i64, i64)) -> u8 {
        let t = self.texels;
        let tu = (u >> TEXEL_BITS).clamp(0, i64::from(t.width) - 1) as usize;
        let tv = (v >> TEXEL_BITS).clamp(0, i64::from(t.height) - 1) as usize;
        t.alpha[tv * t.width as usize + tu]
    }
}
