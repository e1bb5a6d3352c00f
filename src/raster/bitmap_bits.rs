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
use super::row_bounds::{RowBounds, RowSides};
use super::row_steps::{BoxSteps, OctagonSteps};
use super::sample::{TEXEL_BITS, TexelMap, Texels, times_coverage};
use crate::FillRule;
use crate::geom::rect::PixelRect;
use crate::geom::whole::{ceil_small, floor_small};

/// Fixed-point values (texel coordinates, box bounds) kept below this stay in i64 through
/// every difference a row takes (they are linear in the pixel, so a region's corners bound
/// its inside).
const FITS_I64: i128 = 1 << 61;

/// One unsmoothed bitmap item in a pose, with the lowest alpha that is solid.
#[derive(Clone, Copy)]
pub(crate) struct BitmapBits<'a> {
    texels: &'a Texels,
    /// The texels' solid table at the threshold, when they keep one
    /// ([`Texels::solid_table`]): what the pixel loop reads instead of the alphas.
    table: Option<&'a [u8]>,
    map: &'a TexelMap,
    quad: &'a Edges,
    anchor: (i64, i64),
    threshold: u8,
    /// The pixels its quad can touch, in the parent's grid.
    extent: PixelRect,
    /// How its pixels are decided (`None`: not in i64), worked out once.
    rule: Option<Rule>,
    /// The pixels that can be solid ([`BitmapBits::solid_extent`]), worked out once.
    solid: PixelRect,
    /// Pixels (relative to the anchor) no farther than this across and down have texel
    /// coordinates that fit ([`fit_radius`], at most `i32::MAX`: an i32 keeps the kernel
    /// as small as it was); -1 when none is known.
    fit_radius: i32,
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
    /// Without coverage: the sides of the octagon and of the other pose's reach over a
    /// fill's rows, and those that decide them.
    bounds: RowBounds,
    sides: RowSides,
    /// The two targets' masks over a pair's window.
    pub a: BitMask,
    pub b: BitMask,
    pub counts: BitsCounts,
    /// Whether the last [`BitmapBits::fill`] kept to the [`Within::Reach`] it was given:
    /// every bit it set is at a centre the other pose can make solid.
    pub reached: bool,
}

impl Default for BitsBuffers {
    fn default() -> BitsBuffers {
        BitsBuffers {
            coverage: CoverageRow::default(),
            active: Vec::new(),
            uncertain: Vec::new(),
            values: Vec::new(),
            bounds: RowBounds::default(),
            sides: RowSides::default(),
            a: BitMask::empty(),
            b: BitMask::empty(),
            counts: BitsCounts::default(),
            reached: false,
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

/// An octagon of texel space in fixed point: `[u0, v0, u1, v1, s0, s1, d0, d1]`, the points
/// with `u0 <= u < u1`, `v0 <= v < v1`, `s0 <= u + v < s1` and `d0 <= u - v < d1`
/// ([`super::solid_outline::Octagon::bounds`]).
type TexelOctagon = [i64; 8];

/// Columns (fixed point) whose sum or difference could leave i64 are not stepped on the
/// diagonals: such a pose squashes 2^28 texels into a pixel.
const MAX_COLUMN_SUM: u64 = 1 << 62;

/// Which pixels of a region a pose's [`BitmapBits::fill`] decides; the others stay clear.
#[derive(Clone, Copy)]
pub(crate) enum Within<'w> {
    /// Every pixel.
    All,
    /// In each row, the columns from the first to the last set bit of this mask (over the
    /// same region): a pair's second target, read only where the first one is solid.
    Mask(&'w BitMask),
    /// As `Mask`, and every set bit of the mask is at a centre this pose can make solid:
    /// the mask was written with [`Within::Reach`] of this pose ([`BitsBuffers::reached`]).
    /// A row's first and last such centres lie in its octagon, so all between do (it is
    /// convex): a pose decided by its centres alone reads them without its own bounds.
    Reached(&'w BitMask),
    /// The columns whose centres this other pose can make solid: a pair's first target,
    /// read only where the second can be solid too.
    Reach(&'w BitmapBits<'w>),
}

impl<'w> Within<'w> {
    /// [`Within::Reached`] when `reached` (the mask was written with [`Within::Reach`] of
    /// the pose it limits, and kept to it: [`BitsBuffers::reached`]), else [`Within::Mask`].
    pub fn mask(mask: &'w BitMask, reached: bool) -> Within<'w> {
        match reached {
            true => Within::Reached(mask),
            false => Within::Mask(mask),
        }
    }
}

/// The steps of each row whose centres fall in a box of a pose's texel space, row after
/// row down a rectangle.
struct RowReach {
    steps: OctagonSteps,
    /// The centre of the row's first pixel, stepped down by `down`.
    at: (i64, i64),
    down: (i64, i64),
    n: i64,
}

impl RowReach {
    /// The steps of the octagon `b` along the rows of `rect` (the parent's grid); `None`
    /// when a texel coordinate there leaves i64.
    fn new(bits: &BitmapBits, b: TexelOctagon, rect: PixelRect) -> Option<RowReach> {
        let local = rect.moved((-bits.anchor.0, -bits.anchor.1));
        if !bits.fits(local) {
            return None;
        }
        let at = bits.map.at(local.x0, local.y0);
        Some(RowReach {
            steps: OctagonSteps::new(bits.map.col0, b),
            at: (at.0 as i64, at.1 as i64),
            down: bits.map.col1,
            n: i64::try_from(rect.width()).ok()?,
        })
    }

    /// This row's steps `first..end` inside the box (empty when `first >= end`); then on to
    /// the next row.
    #[inline(always)]
    fn next_row(&mut self) -> (i64, i64) {
        let steps = self.steps.steps(self.at, self.n);
        self.at = (self.at.0 + self.down.0, self.at.1 + self.down.1);
        steps
    }
}

/// The corners of `local` (pixels relative to the anchor), where [`BitmapBits::fits`]
/// checks the texel coordinates.
fn corners(local: PixelRect) -> [(i64, i64); 4] {
    [
        (local.x0, local.y0),
        (local.x1, local.y0),
        (local.x0, local.y1),
        (local.x1, local.y1),
    ]
}

/// Whether the texel coordinates of `local`'s corners under `map` lie within
/// [`FITS_I64`]. A pair's window is a few dozen pixels near the anchor and a pose's columns
/// far below 2^40 (2^8 texels a pixel), so the products and sums fit in i64 and are
/// worked out there (about a fifth of the i128 arithmetic, twice a pair); anything larger
/// goes through [`corners_fit_wide`], with the same answer.
fn corners_fit(map: &TexelMap, local: PixelRect) -> bool {
    const NEAR: u64 = 1 << 20;
    const STEEP: u64 = 1 << 40;
    const FAR: u64 = 1 << 60;
    let near = [local.x0, local.y0, local.x1, local.y1]
        .iter()
        .all(|c| c.unsigned_abs() <= NEAR);
    let (c0, c1) = (map.col0, map.col1);
    let steep = [c0.0, c0.1, c1.0, c1.1].iter().any(|c| c.unsigned_abs() > STEEP);
    if !near || steep || map.origin.0.unsigned_abs() > FAR || map.origin.1.unsigned_abs() > FAR {
        return corners_fit_wide(map, local);
    }
    // |i c| <= 2^60 and |origin| <= 2^60: every sum is below 2^62 in magnitude.
    let limit = FITS_I64 as u64;
    corners(local).iter().all(|&(i, j)| {
        let u = map.origin.0 + i * c0.0 + j * c1.0;
        let v = map.origin.1 + i * c0.1 + j * c1.1;
        u.unsigned_abs() < limit && v.unsigned_abs() < limit
    })
}

/// The largest `r` such that every pixel `(i, j)` with `|i|, |j| <= r` has texel
/// coordinates under `map` below [`FITS_I64`] in magnitude (`|origin| + r (|col0| +
/// |col1|)` is), or less; -1 when even the anchor's may not. Worked out once per pose, so
/// that the check a region's rows make ([`BitmapBits::fits`]) is four compares when it
/// passes: a region inside the radius fits by [`corners_fit`] too, and one outside it is
/// asked there.
fn fit_radius(map: &TexelMap) -> i64 {
    let axis = |o: i64, a: i64, b: i64| -> i64 {
        let Some(room) = (FITS_I64 as u64 - 1).checked_sub(o.unsigned_abs()) else {
            return -1;
        };
        match a.unsigned_abs().saturating_add(b.unsigned_abs()) {
            0 => i64::MAX,
            step => (room / step) as i64,
        }
    };
    let (m0, m1) = (map.col0, map.col1);
    axis(map.origin.0, m0.0, m1.0).min(axis(map.origin.1, m0.1, m1.1))
}

/// [`corners_fit`] in i128, for any corners and map.
fn corners_fit_wide(map: &TexelMap, local: PixelRect) -> bool {
    corners(local).iter().all(|&(i, j)| {
        let (u, v) = map.at(i, j);
        u.abs() < FITS_I64 && v.abs() < FITS_I64
    })
}

/// Whether the centre `(u, v)` (fixed point) lies in the box `b`.
#[inline(always)]
fn within_box(b: TexelBox, (u, v): (i64, i64)) -> bool {
    b[0] <= u && u < b[2] && b[1] <= v && v < b[3]
}

/// Whether the centre `(u, v)` (fixed point) lies in the octagon `b`.
#[inline(always)]
fn within_octagon(b: TexelOctagon, (u, v): (i64, i64)) -> bool {
    let (s, d) = (u + v, u - v);
    within_box([b[0], b[1], b[2], b[3]], (u, v)) && b[4] <= s && s < b[5] && b[6] <= d && d < b[7]
}

/// The corners of the octagon `b` (fixed point, as f64), eight with repeats: where the
/// diagonals cut each side of its box. Every side of an octagon whose eight bounds are each
/// met (as [`super::solid_outline::Octagon::bounds`] and the margins added to them give)
/// keeps a piece, whose ends are its corners. When a side keeps none, the box's corners
/// stand for it (they hold the octagon).
fn octagon_corners(b: TexelOctagon) -> [(f64, f64); 8] {
    let [u0, v0, u1, v1, s0, s1, d0, d1] = b.map(|c| c as f64);
    // The pieces of the top and bottom sides (`u` from, to) and of the left and right
    // sides (`v` from, to).
    let across = |v: f64| ((s0 - v).max(d0 + v).max(u0), (s1 - v).min(d1 + v).min(u1));
    let down = |u: f64| ((s0 - u).max(u - d1).max(v0), (s1 - u).min(u - d0).min(v1));
    let [(ta, tb), (ba, bb), (la, lb), (ra, rb)] = [across(v0), across(v1), down(u0), down(u1)];
    if ta > tb || ba > bb || la > lb || ra > rb {
        return [(u0, v0), (u1, v0), (u0, v1), (u1, v1)]
            .map(|c| [c, c])
            .as_flattened()
            .try_into()
            .unwrap_or([(u0, v0); 8]);
    }
    [
        (ta, v0),
        (tb, v0),
        (ba, v1),
        (bb, v1),
        (u0, la),
        (u0, lb),
        (u1, ra),
        (u1, rb),
    ]
}

/// How a pose's solid pixels are decided, with its boxes and octagons in texel space
/// (`B = TexelBox`, `O = TexelOctagon`) or as the steps of a row inside them ([`BoxSteps`],
/// [`OctagonSteps`]).
#[derive(Clone, Copy)]
enum Rule<B = TexelBox, O = TexelOctagon> {
    /// No texel reaches the threshold.
    Nothing,
    /// By the texel under each centre inside this octagon (the solid texels').
    Centres(O),
    /// Anti-aliased with solid texels near the border: exactly inside the `inner` box the
    /// texel decides, outside the `outer` octagon nothing is solid (it is the solid
    /// texels', carried out to the margin beyond the border where they touch it), between
    /// them the clamped texel times the quad's coverage.
    Covered { inner: B, outer: O },
}

impl Rule {
    /// The same rule as row steps for centres stepping by `d` along a row.
    fn steps(self, d: (i64, i64)) -> Rule<BoxSteps, OctagonSteps> {
        match self {
            Rule::Nothing => Rule::Nothing,
            Rule::Centres(b) => Rule::Centres(OctagonSteps::new(d, b)),
            Rule::Covered { inner, outer } => Rule::Covered {
                inner: BoxSteps::new(d, inner),
                outer: OctagonSteps::new(d, outer),
            },
        }
    }
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

impl<'a> BitmapBits<'a> {
    /// The kernel's view of `item` at `threshold`, anti-aliased or not, when it is one
    /// unsmoothed bitmap pose (a whole cached raster has its mask already; a smoothed bitmap
    /// takes the general route).
    pub fn of(item: &'a Item, threshold: u8, anti_alias: bool) -> Option<BitmapBits<'a>> {
        let Item::Shape { shape, anchor } = item else {
            return None;
        };
        match &**shape {
            Shape::Bitmap {
                texels,
                map,
                smoothing: false,
                quad,
            } => {
                let extent = shape.rect().moved(*anchor);
                let mut bits = BitmapBits {
                    texels,
                    table: texels.solid_table(threshold),
                    map,
                    quad,
                    anchor: *anchor,
                    threshold,
                    extent,
                    rule: None,
                    solid: extent,
                    fit_radius: fit_radius(map).min(i64::from(i32::MAX)) as i32,
                };
                bits.rule = bits.rule(anti_alias);
                bits.solid = bits.solid_pixels();
                Some(bits)
            }
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
            ceil_small((units + rounding).min(FITS_I64 as f64))
        };
        (reach(c0.0, c1.0), reach(c0.1, c1.1))
    }

    /// Whether the texel coordinates of the centres of `local` (its own grid) stay in i64
    /// through every step a row takes: they are linear in the pixel, so its corners bound
    /// them.
    fn fits(&self, local: PixelRect) -> bool {
        let r = self.fit_radius;
        let near = |c: i64| c.unsigned_abs() <= u64::from(r.unsigned_abs());
        (r >= 0 && near(local.x0) && near(local.y0) && near(local.x1) && near(local.y1))
            || corners_fit(self.map, local)
    }

    /// How its solid pixels are decided (see [`Rule`]); `None` when a bound leaves i64.
    fn rule(&self, anti_alias: bool) -> Option<Rule> {
        // First: any rule's octagon (even `Nothing`'s, as another pose's reach) is stepped
        // on the diagonals.
        let c0 = self.map.col0;
        if c0.0.unsigned_abs() + c0.1.unsigned_abs() >= MAX_COLUMN_SUM {
            return None;
        }
        let Some(solid) = self.texels.solid_outline(self.threshold) else {
            return Some(Rule::Nothing);
        };
        let octagon = solid.bounds(self.texels.height).map(|c| c << TEXEL_BITS);
        let fixed = [octagon[0], octagon[1], octagon[2], octagon[3]];
        if !anti_alias {
            return Some(Rule::Centres(octagon));
        }
        let (mu, mv) = self.margins();
        let [w, h] = [self.texels.width, self.texels.height].map(|s| i64::from(s) << TEXEL_BITS);
        if [mu, mv, w, h].iter().any(|&c| i128::from(c) * 2 >= FITS_I64) {
            return None;
        }
        // A solid box this far from the border leaves nothing for coverage to decide: a
        // centre in it is inside the bitmap, where its own texel decides.
        if fixed[0] >= mu && fixed[1] >= mv && w - fixed[2] >= mu && h - fixed[3] >= mv {
            return Some(Rule::Centres(octagon));
        }
        // A pixel is solid only if its clamped texel is, so its centre lies in the solid
        // octagon, or beyond the bitmap's border where the solid texels touch it (clamping
        // carries that texel out), and no farther than the margin (no coverage beyond).
        // Clamping moves a centre by at most the margin, and only across a side the
        // solid box touches: `u` by up to `mu` left of the left side or right of the right
        // one, `v` likewise by `mv`, and `u + v` and `u - v` by their sums.
        let [u0, v0, u1, v1] = fixed;
        let touch = [u0 == 0, v0 == 0, u1 == w, v1 == h].map(i64::from);
        let [left, top, right, bottom] = touch;
        let [_, _, _, _, s0, s1, d0, d1] = octagon;
        Some(Rule::Covered {
            inner: [mu, mv, w - mu, h - mv],
            outer: [
                u0 - left * mu,
                v0 - top * mv,
                u1 + right * mu,
                v1 + bottom * mv,
                s0 - left * mu - top * mv,
                s1 + right * mu + bottom * mv,
                d0 - left * mu - bottom * mv,
                d1 + right * mu + top * mv,
            ],
        })
    }

    /// The steps of the centres it can make solid along the rows of `rect` (the parent's
    /// grid); `None` when they cannot be stepped in i64.
    #[inline(always)]
    fn row_reach(&self, rect: PixelRect) -> Option<RowReach> {
        let reach = match self.rule? {
            Rule::Nothing => [0; 8],
            Rule::Centres(b) => b,
            Rule::Covered { outer, .. } => outer,
        };
        RowReach::new(self, reach, rect)
    }

    /// Adds to `bounds` the centres it can make solid, along the rows of `rect` (the
    /// parent's grid); `false` (nothing added) when they cannot be stepped in i64.
    fn add_reach(&self, bounds: &mut RowBounds, rect: PixelRect) -> bool {
        let reach = match self.rule {
            None => return false,
            Some(Rule::Nothing) => [0; 8],
            Some(Rule::Centres(b) | Rule::Covered { outer: b, .. }) => b,
        };
        let local = rect.moved((-self.anchor.0, -self.anchor.1));
        if !self.fits(local) {
            return false;
        }
        let at = self.map.at(local.x0, local.y0);
        bounds.octagon((at.0 as i64, at.1 as i64), self.map.col0, self.map.col1, reach);
        true
    }

    /// The pixels (the parent's grid) that can be solid: where the centres of the box that
    /// can be solid (the solid box, or with coverage the `outer` one) can be, within the
    /// quad's reach.
    pub fn solid_extent(&self) -> PixelRect {
        self.solid
    }

    /// [`BitmapBits::solid_extent`], worked out.
    fn solid_pixels(&self) -> PixelRect {
        match self.rule {
            Some(Rule::Nothing) => PixelRect::default(),
            Some(Rule::Centres(b) | Rule::Covered { outer: b, .. }) => self
                .pixels_over(b)
                .map_or(self.extent, |p| p.intersect(&self.extent)),
            None => self.extent,
        }
    }

    /// The pixels whose centres can map into the octagon `b`, with two pixels to spare all
    /// round for rounding, in the parent's grid; `None` when the mapping cannot be turned
    /// round in f64.
    fn pixels_over(&self, octagon: TexelOctagon) -> Option<PixelRect> {
        let m = self.map;
        let (a, b, c, d) = (m.col0.0 as f64, m.col1.0 as f64, m.col0.1 as f64, m.col1.1 as f64);
        let det = a * d - b * c;
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
        for (u, v) in octagon_corners(octagon) {
            let (du, dv) = (u - m.origin.0 as f64, v - m.origin.1 as f64);
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
                x0: floor_small(lo.0) - 2,
                y0: floor_small(lo.1) - 2,
                x1: ceil_small(hi.0) + 3,
                y1: ceil_small(hi.1) + 3,
            }
            .moved(self.anchor),
        )
    }

    /// Makes `mask` its solid pixels over `region` (the parent's grid), deciding only the
    /// pixels `within` names (the rest stay clear).
    /// `false` (the mask left empty) when the region lies so far from the bitmap that its
    /// texel coordinates leave i64: the caller takes the general route.
    pub fn fill(
        &self,
        region: PixelRect,
        within: Within<'_>,
        bufs: &mut BitsBuffers,
        mask: &mut BitMask,
    ) -> bool {
        mask.reset(region);
        bufs.reached = false;
        let Some(rule) = self.rule else {
            return false;
        };
        let (ax, ay) = self.anchor;
        let local = region.moved((-ax, -ay));
        let rows = match rule {
            Rule::Nothing => return true,
            _ => region.intersect(&self.solid).moved((-ax, -ay)),
        };
        if rows.is_empty() {
            return true;
        }
        if !self.fits(rows) {
            return false;
        }
        if let Rule::Centres(octagon) = rule {
            return self.fill_centres(octagon, (rows, local), within, bufs, mask);
        }
        let BitsBuffers {
            coverage,
            active,
            uncertain,
            values,
            counts,
            reached: kept,
            ..
        } = bufs;
        let mut walk = ActiveEdges::new(&self.quad.edges, std::mem::take(active));
        let steps = rule.steps(self.map.col0);
        // The octagon a row's ends are tested against, to skip its bounds (see below):
        // with coverage, the `inner` box and the `outer` octagon at once (their
        // intersection is an octagon: the larger lower bounds, the smaller upper ones).
        let solid = match rule {
            Rule::Centres(b) => b,
            Rule::Covered { inner, outer: o } => [
                inner[0].max(o[0]),
                inner[1].max(o[1]),
                inner[2].min(o[2]),
                inner[3].min(o[3]),
                o[4],
                o[5],
                o[6],
                o[7],
            ],
            Rule::Nothing => [0; 8],
        };
        // The centre of the row's first column, stepped down by `col1` (exact integers).
        let start = self.map.at(rows.x0, rows.y0);
        let (mut u, mut v) = (start.0 as i64, start.1 as i64);
        let mut other = match within {
            Within::Reach(bits) => bits.row_reach(rows.moved(self.anchor)),
            _ => None,
        };
        *kept = other.is_some();
        let limit = match within {
            Within::Mask(m) | Within::Reached(m) => Some(m),
            Within::All | Within::Reach(_) => None,
        };
        for j in rows.y0..rows.y1 {
            let row_start = (u, v);
            (u, v) = (u + self.map.col1.0, v + self.map.col1.1);
            let y = (j - local.y0) as usize;
            let (mut c0, mut c1) = (rows.x0, rows.x1);
            if let Some(other) = &mut other {
                let (a, b) = other.next_row();
                (c0, c1) = (c0.max(rows.x0 + a), c1.min(rows.x0 + b));
            }
            if let Some(other) = limit {
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
            let last_of = |first: (i64, i64), n: i64| (first.0 + (n - 1) * du, first.1 + (n - 1) * dv);
            let mut row = Row { mask, y };
            let cols = (c0, c1, local.x0);
            match steps {
                // Without coverage, [`BitmapBits::fill_centres`].
                Rule::Nothing | Rule::Centres(_) => {}
                // A row whose first and last centres are in both boxes has every pixel
                // decided by its texel, as `covered_row` would find from the bounds.
                Rule::Covered { .. }
                    if within_octagon(solid, first) && within_octagon(solid, last_of(first, c1 - c0)) =>
                {
                    self.inside_run(first, (c0 - local.x0) as usize, (c1 - c0) as usize, &mut row);
                    counts.texels_read += (c1 - c0) as u64;
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

    /// [`BitmapBits::fill`] by [`Rule::Centres`] over the rows `rows` of `local` (both
    /// relative to the anchor, `rows` not empty and fitting in i64): a row's columns from
    /// the sides of its octagon and of the other pose's reach that decide the fill's rows
    /// ([`RowBounds`]), a division for each side left, not two for each of their axes.
    #[inline(never)]
    fn fill_centres(
        &self,
        octagon: TexelOctagon,
        (rows, local): (PixelRect, PixelRect),
        within: Within<'_>,
        bufs: &mut BitsBuffers,
        mask: &mut BitMask,
    ) -> bool {
        let (Ok(n), Ok(height)) = (i64::try_from(rows.width()), i64::try_from(rows.height())) else {
            return false;
        };
        let (limit, reached) = match within {
            Within::Mask(m) => (Some(m), false),
            Within::Reached(m) => (Some(m), true),
            Within::All | Within::Reach(_) => (None, false),
        };
        let BitsBuffers {
            bounds,
            sides,
            counts,
            reached: kept_reach,
            ..
        } = bufs;
        // The centre of the rows' first column, stepped down by `col1` (exact integers).
        let start = self.map.at(rows.x0, rows.y0);
        let (mut u, mut v) = (start.0 as i64, start.1 as i64);
        let (col0, col1) = (self.map.col0, self.map.col1);
        // A row's steps (from its first column) inside its octagon, none when the limiting
        // mask's bits are known to lie in it, and inside the other pose's reach.
        bounds.reset(n, height);
        if !reached {
            bounds.octagon((u, v), col0, col1, octagon);
        }
        let kept = match within {
            Within::Reach(bits) => bits.add_reach(bounds, rows.moved(self.anchor)),
            _ => false,
        };
        if !bounds.decide(sides) {
            return false;
        }
        *kept_reach = kept;
        // The rows' first column in the mask, and where the mask's columns start in steps.
        let (x_first, off) = (rows.x0 - local.x0, local.x0 - rows.x0);
        for j in rows.y0..rows.y1 {
            let row_start = (u, v);
            (u, v) = (u + col1.0, v + col1.1);
            let y = (j - local.y0) as usize;
            let (mut a, mut b) = (0, n);
            if let Some(other) = limit {
                let Some((x0, x1)) = other.row_extent(y) else {
                    continue;
                };
                (a, b) = (off + x0 as i64, off + x1 as i64);
            }
            // Worked out only for a row the limiting mask leaves something in.
            let (sa, sb) = sides.row(j - rows.y0);
            (a, b) = (a.max(sa), b.min(sb));
            if a >= b {
                continue;
            }
            let at = (row_start.0 + a * col0.0, row_start.1 + a * col0.1);
            self.inside_run(at, (x_first + a) as usize, (b - a) as usize, &mut Row { mask, y });
            counts.texels_read += (b - a) as u64;
            counts.rows += 1;
        }
        true
    }

    /// An anti-aliased row near the border (see [`Rule::Covered`]): texels decide inside
    /// `inner`; between `inner` and `outer`, pixels whose clamped texel reaches the
    /// threshold have their coverage worked out; outside `outer` nothing is solid.
    #[allow(clippy::too_many_arguments)]
    fn covered_row(
        &self,
        (j, first): (i64, (i64, i64)),
        (c0, c1, x_left): (i64, i64, i64),
        (inner, outer): (BoxSteps, OctagonSteps),
        walk: &mut ActiveEdges,
        (coverage, uncertain, values): CoverageBuffers<'_>,
        row: &mut Row,
        counts: &mut BitsCounts,
    ) {
        let n = c1 - c0;
        let (ga, gb) = outer.steps(first, n);
        if ga >= gb {
            return;
        }
        // Inside `inner` only the centres inside `outer` too can be solid.
        let (sa, sb) = match inner.steps(first, n) {
            (sa, sb) if sa.max(ga) < sb.min(gb) => (sa.max(ga), sb.min(gb)),
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
        if !coverage.values_in_whole_row(&walk.active, j, FillRule::NonZero, uncertain, values) {
            coverage.values_in(&walk.active, j, FillRule::NonZero, uncertain, values);
        }
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
    /// `(u, v)` on, all lie inside the bitmap: one texel read a pixel, from the solid table
    /// when there is one (the bit itself, its index masked to the table's length: no bounds
    /// check), else from the alphas compared with the threshold.
    fn inside_run(&self, at: (i64, i64), first: usize, n: usize, row: &mut Row) {
        let w = self.texels.width as usize;
        match self.table {
            Some(table) => {
                let last = table.len() - 1;
                let table = &table[..=last];
                self.run_words(at, first, n, row, |v, u| u64::from(table[(v * w + u) & last]));
            }
            None => {
                let (alpha, threshold) = (&self.texels.alpha[..], self.threshold);
                self.run_words(at, first, n, row, |v, u| u64::from(alpha[v * w + u] >= threshold));
            }
        }
    }

    /// [`BitmapBits::inside_run`] with `solid(v, u)` the bit (0 or 1) of the texel in row
    /// `v`, column `u`, the bits gathered a word at a time. Each pixel's bit enters at the
    /// top of the word, which moves down one (one `shrd`, no bit counter), and the word is
    /// put in place once.
    #[inline(always)]
    fn run_words(
        &self,
        (mut u, mut v): (i64, i64),
        first: usize,
        n: usize,
        row: &mut Row,
        solid: impl Fn(usize, usize) -> u64,
    ) {
        let (du, dv) = self.map.col0;
        let (mut x, end) = (first, first + n);
        while x < end {
            let k = x / 64;
            let stop = (end - k * 64).min(64);
            let mut word = 0u64;
            // Counted down to zero: one decrement and one branch a pixel.
            let mut left = stop - x % 64;
            while left != 0 {
                let bit = solid((v >> TEXEL_BITS) as usize, (u >> TEXEL_BITS) as usize);
                word = word >> 1 | bit << 63;
                (u, v) = (u + du, v + dv);
                left -= 1;
            }
            // The last pixel's bit is at 63: down to `stop - 1`.
            row.mask.or_word(row.y, k, word >> (64 - stop));
            x = k * 64 + stop;
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

#[cfg(test)]
mod tests {
    use super::super::solid_outline::SolidOutlines;
    use super::super::test_rng::Rng;
    use super::{
        PixelRect, TEXEL_BITS, TexelMap, corners_fit, corners_fit_wide, fit_radius, octagon_corners,
    };

    /// The corners found for an octagon hold it: over 3,000 random bitmaps' solid
    /// octagons at random thresholds, with random margins carried out as an anti-aliased
    /// pose's outer octagon carries them, every corner is in the octagon and the corners'
    /// box holds every point of every solid texel's square, as a brute-force walk over the
    /// texels finds them.
    #[test]
    fn octagon_corners_hold_the_octagon() {
        let mut rng = Rng(0x5eed_0c7a);
        let mut cut = 0;
        for _ in 0..3000 {
            let (w, h) = (rng.below(24) as u32 + 1, rng.below(24) as u32 + 1);
            let (cx, cy, r) = (rng.below(24), rng.below(24), rng.below(16) + 1);
            let alpha: Vec<u8> = (0..h as i64)
                .flat_map(|v| (0..w as i64).map(move |u| (u, v)))
                .map(|(u, v)| ((u - cx).abs() + (v - cy).abs() <= r) as u8 * 255)
                .collect();
            let oct = *SolidOutlines::new(w, h, &alpha).at(200);
            if oct.is_empty() {
                continue;
            }
            let fixed = oct.bounds(h).map(|c| c << TEXEL_BITS);
            let [mu, mv] = [rng.below(1 << 33), rng.below(1 << 33)];
            let [l, t, rr, b] = [0; 4].map(|_| rng.below(2));
            let grown = [
                fixed[0] - l * mu,
                fixed[1] - t * mv,
                fixed[2] + rr * mu,
                fixed[3] + b * mv,
                fixed[4] - l * mu - t * mv,
                fixed[5] + rr * mu + b * mv,
                fixed[6] - l * mu - b * mv,
                fixed[7] + rr * mu + t * mv,
            ];
            let corners = octagon_corners(grown);
            let g = grown.map(|c| c as f64);
            let slack = 1.0;
            for &(u, v) in &corners {
                assert!(g[0] - slack <= u && u <= g[2] + slack && g[1] - slack <= v && v <= g[3] + slack);
                assert!(
                    g[4] - slack <= u + v && u + v <= g[5] + slack,
                    "{grown:?} {corners:?}"
                );
                assert!(
                    g[6] - slack <= u - v && u - v <= g[7] + slack,
                    "{grown:?} {corners:?}"
                );
            }
            let lo = corners
                .iter()
                .fold((f64::MAX, f64::MAX), |a, c| (a.0.min(c.0), a.1.min(c.1)));
            let hi = corners
                .iter()
                .fold((f64::MIN, f64::MIN), |a, c| (a.0.max(c.0), a.1.max(c.1)));
            let one = (1u64 << TEXEL_BITS) as f64;
            for (k, _) in alpha.iter().enumerate().filter(|&(_, &a)| a >= 200) {
                let (u, v) = ((k as u32 % w) as f64 * one, (k as u32 / w) as f64 * one);
                // The square's corners, moved by the margins where they apply.
                let (u0, u1) = (u - (l * mu) as f64, u + one + (rr * mu) as f64);
                let (v0, v1) = (v - (t * mv) as f64, v + one + (b * mv) as f64);
                assert!(lo.0 <= u0 + slack && u1 <= hi.0 + slack, "{grown:?} {corners:?}");
                assert!(lo.1 <= v0 + slack && v1 <= hi.1 + slack, "{grown:?} {corners:?}");
            }
            // The diagonals cut the box's corners (the corners found are not all the box's).
            let box_corner = |&(u, v): &(f64, f64)| (u == g[0] || u == g[2]) && (v == g[1] || v == g[3]);
            cut += usize::from(!corners.iter().all(box_corner));
        }
        assert!(cut > 1000, "{cut}");
    }

    /// The i64 check gives the i128 one's answer over 20,000 random maps and regions,
    /// from a few pixels near the anchor to coordinates and columns of every size, the
    /// edges of the fast path's bounds included; and every region inside a map's fit
    /// radius fits.
    #[test]
    fn corners_fit_in_i64_as_in_i128() {
        let mut seed = 0x7f4a_7c15_9e37_79b9_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut value = |bits: u32| -> i64 {
            let r = next();
            let size = match r % 4 {
                0 => 1i64 << (bits - 1),
                _ => (next() >> (64 - bits)) as i64,
            };
            let v = size - (r >> 2) as i64 % 3;
            if r & 1 << 40 == 0 { v } else { -v }
        };
        let (mut narrow, mut fit, mut inside) = (0, 0, 0);
        for k in 0..20_000 {
            let wide = k % 5 == 0;
            let (cb, ob, pb) = if wide { (62, 62, 62) } else { (41, 61, 21) };
            let map = TexelMap {
                origin: (value(ob), value(ob)),
                col0: (value(cb), value(cb)),
                col1: (value(cb), value(cb)),
            };
            let (x0, y0) = (value(pb), value(pb));
            let local = PixelRect {
                x0,
                y0,
                x1: x0.saturating_add(value(pb).abs()),
                y1: y0.saturating_add(value(pb).abs()),
            };
            let got = corners_fit(&map, local);
            assert_eq!(got, corners_fit_wide(&map, local), "{map:?} over {local:?}");
            // Inside the radius, the corners fit.
            let r = fit_radius(&map);
            let within = [local.x0, local.y0, local.x1, local.y1]
                .iter()
                .all(|c| r >= 0 && c.unsigned_abs() <= r as u64);
            assert!(!within || got, "radius {r} for {map:?} over {local:?}");
            inside += u32::from(within);
            narrow += u32::from(!wide);
            fit += u32::from(got);
        }
        // Both answers come up.
        assert!(fit > 1_000 && fit < 19_000, "{fit} of 20,000 fit");
        assert!(narrow > 10_000);
        assert!(inside > 50, "{inside} inside the radius");
        // Maps of sprites (a few texels a pixel, near the origin): a pair's window of a
        // few hundred pixels is inside the radius.
        for _ in 0..5_000 {
            let map = TexelMap {
                origin: (value(44), value(44)),
                col0: (value(36), value(36)),
                col1: (value(36), value(36)),
            };
            let (x0, y0) = (value(12), value(12));
            let local = PixelRect {
                x0,
                y0,
                x1: x0 + value(9).abs(),
                y1: y0 + value(9).abs(),
            };
            let r = fit_radius(&map);
            assert!(r >= 1 << 20, "radius {r} for {map:?}");
            assert!(corners_fit_wide(&map, local));
        }
    }
}
