//! A pygame-rendered bitmap's solid pixels written straight into a bit mask (semantics.md
//! 4.9): the frame engine's kernel for a sprite a game turns with `pygame.transform.rotate`
//! or `rotozoom` every frame.
//!
//! The plain route computes each needed row of the surface as bytes
//! ([`super::pygame_plan::PygamePlan::alpha_row`]), then turns them into runs or intervals.
//! Here a row costs two divisions per axis that give, from the row's own steps, the columns
//! whose step can read a solid texel, then one sample and compare per pixel there, in
//! pygame's own fixed point ([`Steps`]: the same code the plain rows run), the bits
//! gathered a word at a time. What can be skipped without reading:
//!
//! - texels below the threshold. A colour transform applies to the surface's alpha, and
//!   alpha 0 stays 0 through it, so a pixel is solid only where its alpha (before the
//!   transform) reaches the lowest source alpha that the transform takes to the threshold.
//!   `rotate` copies one texel, and `rotozoom`'s blend lies between its four texels' least
//!   and greatest alpha (each weight is below 1, the shifts round down), so a solid pixel
//!   reads at least one texel of that alpha or more: of the box of such texels
//!   ([`Texels::solid_box`], flipped as the source is), or, blending, one texel before it.
//! - rows and columns whose steps cannot fall in that box: the box mapped to the surface's
//!   pixels ([`PygamePlan::texels_to_pixels`]) with two pixels to spare, and in each row the
//!   steps between the box's sides.
//! - pixels whose steps cannot fall in the convex outline of those texels
//!   ([`SolidHull`], kept with the source, grown by a texel for a blend): where the walk
//!   is affine (it wraps nowhere), the outline's preimage in the surface gives each row's
//!   columns ([`OutlineRows`]). The rocks of the game's scene are discs in a square box;
//!   about a fifth of the box's pixels are never read. A row clipped so needs no box: a
//!   `rotozoom` pixel reads nothing outside the source and writes 0 off the path's steps,
//!   and a `rotate` pixel reads a copy of the alpha padded with a clear column and row
//!   ([`super::sample::Texels::padded`]), where a step at most a texel past a side (the
//!   outline's columns are within a small part of a pixel of it) reads 0, as the path
//!   writes nothing there.
//! - pixels whose steps lie strictly inside the source's solid core at the threshold (a
//!   convex polygon of cells all solid there, [`super::pygame_core`]: texels for `rotate`,
//!   blocks whose least alpha reaches it for `rotozoom`) are set without a read, a run of
//!   ones a row ([`OutlineRows::inside`]); only where the core spans at least
//!   [`CORE_PIXELS`] pixels squared in the pose, since each row it serves costs a few
//!   dozen instructions.
//!
//! A pixel costs what its decision needs. The row's steps are pygame's, in the flipped
//! source; they are turned once a row into the same walk over the source as stored
//! ([`Unflipped`]: a flipped axis negated and offset, exactly), so that a pixel is one
//! multiply-add into the alpha (`rotate`) or the blocks (`rotozoom`, [`super::pygame_blocks`],
//! kept for the border's clamped blocks too and one clear block past them, so that a
//! decided pixel tests no border), not the flipped reads of the plain rows. A `rotozoom`
//! pixel whose block's range is all on one side of the threshold is decided by that range;
//! the others (about a sixth in the game's scene) are blended in the loop from the block's
//! four texels (kept beside the ranges, at the same index), put in the flipped order, or,
//! on the border, out of line as the path steps them.
//! With a colour transform every pixel is sampled as the plain rows sample it.
//!
//! Steps in C `int`s wrap as pygame's do; a row is stepped here in i64 only when its last
//! step still fits an `int` (then no step in between wrapped), and the caller takes the
//! plain route otherwise.

use super::bitmap_bits::BitsCounts;
use super::bitmask::BitMask;
use super::item::Shape;
use super::prepare::Item;
use super::pygame_blocks::Blocks;
use super::pygame_core::SolidCores;
use super::pygame_item::RenderedShape;
use super::pygame_outline::OutlineRows;
use super::pygame_plan::{OnSteps, PygamePlan};
use super::pygame_rotozoom::blend;
use super::pygame_texels::{Steps, Texels};
use super::row_steps::AxisSteps;
use super::solid_hull::SolidHull;
use crate::geom::rect::PixelRect;

/// The side in pixels of the square a core must cover at least, in a pose, to be used
/// (set without reading its pixels): below that its rows' set-up costs more than the
/// reads it saves. On the asteroids scene (`prof_pygame`: rocks of 22 to 44 px with two
/// holes each, whose cores are 10 to 30 px across) using every core cost more instructions
/// a frame than it saved.
const CORE_PIXELS: f64 = 32.0;

/// One rendered bitmap item in a pose, with the lowest alpha that is solid.
#[derive(Clone, Copy)]
pub(crate) struct PygameBits<'a> {
    shape: &'a RenderedShape,
    anchor: (i64, i64),
    threshold: u8,
}

impl<'a> PygameBits<'a> {
    /// The kernel's view of `item` at `threshold`, when it is one rendered bitmap.
    pub fn of(item: &'a Item, threshold: u8) -> Option<PygameBits<'a>> {
        let Item::Shape { shape, anchor } = item else {
            return None;
        };
        match &**shape {
            Shape::Rendered(shape) => Some(PygameBits {
                shape,
                anchor: *anchor,
                threshold,
            }),
            _ => None,
        }
    }

    /// The lowest source alpha whose value on the surface (after the colour transform)
    /// reaches the threshold; `None` when none does.
    fn source_threshold(&self) -> Option<u8> {
        let t = self.threshold.max(1);
        match self.shape.table() {
            None => Some(t),
            Some(table) => (1..=255u8).find(|&a| table[usize::from(a)] >= t),
        }
    }

    /// The box `[u0, v0, u1, v1]` of the source's texels (unflipped) that a solid pixel
    /// must read one of, `None` when no pixel can be solid.
    fn solid_box(&self) -> Option<[u32; 4]> {
        self.shape.source.solid_box(self.source_threshold()?)
    }

    /// The pixels (the parent's grid) that can be solid: the solid box's reach on the
    /// surface, within the surface.
    pub fn solid_extent(&self) -> PixelRect {
        self.solid_box()
            .map_or_else(PixelRect::default, |b| self.pixels_over(b))
    }

    fn pixels_over(&self, [u0, v0, u1, v1]: [u32; 4]) -> PixelRect {
        let plan = self.shape.plan();
        let (w, h) = plan.size();
        let surface = PixelRect {
            x0: 0,
            y0: 0,
            x1: i64::from(w),
            y1: i64::from(h),
        };
        let reached = self.shape.texels_to_pixels().and_then(|(map, reach)| {
            let (lo, hi) = (
                glam::DVec2::new(f64::from(u0) - reach, f64::from(v0) - reach),
                glam::DVec2::new(f64::from(u1) + reach, f64::from(v1) + reach),
            );
            let corners = [lo, glam::DVec2::new(hi.x, lo.y), glam::DVec2::new(lo.x, hi.y), hi];
            let (mut min, mut max) = (glam::DVec2::MAX, glam::DVec2::MIN);
            for c in corners.map(|c| map.transform_point2(c)) {
                (min, max) = (min.min(c), max.max(c));
            }
            // Surfaces are at most 16384 px a side; anything far past that is no bound.
            let bound = 1.0e9;
            (min.is_finite()
                && max.is_finite()
                && min.abs().max_element() < bound
                && max.abs().max_element() < bound)
                .then(|| PixelRect {
                    x0: min.x.floor() as i64 - 2,
                    y0: min.y.floor() as i64 - 2,
                    x1: max.x.ceil() as i64 + 3,
                    y1: max.y.ceil() as i64 + 3,
                })
        });
        reached
            .map_or(surface, |r| r.intersect(&surface))
            .moved(self.anchor)
    }

    /// Makes `mask` its solid pixels over `region` (the parent's grid). With `within`, only
    /// the pixels that can matter against that mask (over the same region) are decided: in
    /// each row, the columns from its first to its last set bit; the rest stay clear.
    /// `false` (the mask left empty) when a row's steps would wrap C's `int`s: the caller
    /// takes the plain route.
    pub fn fill(
        &self,
        region: PixelRect,
        within: Option<&BitMask>,
        counts: &mut BitsCounts,
        mask: &mut BitMask,
    ) -> bool {
        mask.reset(region);
        let Some(source_threshold) = self.source_threshold() else {
            return true;
        };
        let Some(solid_box) = self.shape.source.solid_box(source_threshold) else {
            return true;
        };
        let rows = region
            .intersect(&self.pixels_over(solid_box))
            .moved((-self.anchor.0, -self.anchor.1));
        if rows.is_empty() {
            return true;
        }
        let plan = self.shape.plan();
        let source = &self.shape.source;
        let kernel = Kernel {
            texels: plan.texels((&source.alpha[..], 1, source.width as usize)),
            padded: source.padded(),
            blocks: source.blocks(),
            outline: source.hull().map(|o| (o, source_threshold)),
            // Its cells are solid at the surface's alpha: of use only without a colour
            // transform, where that is the source's.
            cores: match self.shape.table() {
                None => source.cores(),
                Some(_) => None,
            },
            plan,
            solid_box: flipped(plan, solid_box),
            rows,
            left: region.x0 - self.anchor.0,
            top: region.y0 - self.anchor.1,
            within,
            threshold: self.threshold.max(1),
            table: self.shape.table(),
            counts,
            mask,
        };
        plan.on_steps(kernel).unwrap_or(true)
    }
}

/// `[u0, v0, u1, v1]` of the source as the flipped source's texels.
fn flipped(plan: &PygamePlan, [u0, v0, u1, v1]: [u32; 4]) -> [u32; 4] {
    let ((w, h), (fx, fy)) = (plan.source_size(), plan.flips());
    let (u0, u1) = if fx { (w - u1, w - u0) } else { (u0, u1) };
    let (v0, v1) = if fy { (h - v1, h - v0) } else { (v0, v1) };
    [u0, v0, u1, v1]
}

/// One fill's rows, run for the plan's code path.
struct Kernel<'k> {
    texels: Texels<'k>,
    /// The alpha padded with a clear column and row ([`super::sample::Texels::padded`]):
    /// what a `rotate` walk reads (empty in a `rotozoom` source).
    padded: &'k [u8],
    /// The blocks ([`Blocks`]): what a `rotozoom` walk reads (empty in a `rotate` source).
    blocks: &'k Blocks,
    /// The source's solid outline and the source alpha it is asked at, when it has one.
    outline: Option<(&'k SolidHull, u8)>,
    /// Polygons of cells (texels of `padded`, or blocks) all solid at a level
    /// ([`super::pygame_core`]): steps strictly inside the threshold's are solid without
    /// a read.
    cores: Option<&'k SolidCores>,
    plan: &'k PygamePlan,
    /// The solid box in the flipped source's texels.
    solid_box: [u32; 4],
    /// The rows and columns to decide, relative to the anchor (inside the surface).
    rows: PixelRect,
    /// The mask's top-left pixel, relative to the anchor.
    left: i64,
    top: i64,
    within: Option<&'k BitMask>,
    threshold: u8,
    table: Option<&'k [u8; 256]>,
    counts: &'k mut BitsCounts,
    mask: &'k mut BitMask,
}

impl OnSteps for Kernel<'_> {
    type Output = bool;

    fn on<S: Steps>(self, steps: &S) -> bool {
        let t = self.threshold;
        let ((w, h), flips) = (self.plan.source_size(), self.plan.flips());
        let (w, h) = (i64::from(w), i64::from(h));
        match (self.table, S::REACH) {
            // A source made for the other renderer lacks the table this walk reads
            // (`Texels::for_renderer`): the caller takes the plain route, which reads the
            // alpha alone. The cache never hands one over; the tests see it if it does.
            (None, 1) if self.blocks.is_empty() => false,
            (None, 0) if self.padded.is_empty() => false,
            // A blend lies between its texels' least and greatest alpha: a block all at or
            // above the threshold is solid, one all below it is clear, whatever the weights.
            // Blocks are read unflipped: the 2 x 2 block a step blends is the same four
            // texels, whichever way the source is flipped.
            (None, 1) => {
                let unflipped = Unflipped::new(flips, (w, h), S::REACH);
                let (ranges, quads) = (&self.blocks.ranges[..], &self.blocks.quads[..]);
                let border = Border {
                    steps,
                    texels: self.texels,
                    unflipped,
                };
                // Block (b, c) at (c + 2) (w + 3) + b + 2: the border's blocks are kept
                // clamped, and one more clear one past them ([`Blocks`]). The
                // walk is stepped two blocks on across and down (`PAD`), so that its whole
                // parts are that index's terms as they are; the fractions stay.
                let stride = w + 3;
                const PAD: i64 = 2 << 16;
                // An inner block (`0 <= b < w - 1`, `0 <= c < h - 1`: one unsigned compare
                // an axis) is its four texels unclamped, which both paths blend.
                let inner = ((w - 1) as u64, (h - 1) as u64);
                self.unflipped_rows(
                    steps,
                    #[inline(always)]
                    |mask, my, bits, (u, v), (du, dv)| {
                        let (mut u, mut v) = (u + PAD, v + PAD);
                        words(mask, my, bits, || {
                            let k = ((v >> 16) * stride + (u >> 16)) as usize;
                            let solid = match ranges.get(k) {
                                Some(&[least, _]) if least >= t => true,
                                Some(&[_, greatest]) if greatest < t => false,
                                Some(_)
                                    if (((u - PAD) >> 16) as u64) < inner.0
                                        && (((v - PAD) >> 16) as u64) < inner.1 =>
                                {
                                    let quad = quads.get(k).copied().unwrap_or_default();
                                    unflipped.blend(quad, (u, v)) >= t
                                }
                                _ => border.value((u - PAD, v - PAD)) >= t,
                            };
                            (u, v) = (u + du, v + dv);
                            u64::from(solid)
                        });
                    },
                )
            }
            // A nearest texel is read where the source keeps it: one multiply-add.
            (None, 0) => {
                // Read padded, a step a texel past a side reads 0 (the path writes nothing
                // there either), so a row the outline clips needs no box.
                let (alpha, stride) = (self.padded, w + 1);
                self.unflipped_rows(
                    steps,
                    #[inline(always)]
                    |mask, my, bits, (mut u, mut v), (du, dv)| {
                        words(mask, my, bits, || {
                            let a = alpha
                                .get(((v >> 16) * stride + (u >> 16)) as usize)
                                .copied()
                                .unwrap_or(0);
                            (u, v) = (u + du, v + dv);
                            u64::from(a >= t)
                        });
                    },
                )
            }
            // No pygame walk reads more than a blend's block; any other reads as the plain
            // rows do.
            (None, _) => {
                let texels = self.texels;
                self.rows_of(steps, false, |mask, my, bits, start, d| {
                    pixels(mask, my, bits, start, d, |p| steps.value(&texels, p) >= t);
                })
            }
            (Some(table), _) => {
                let texels = self.texels;
                self.rows_of(steps, false, |mask, my, bits, start, d| {
                    pixels(mask, my, bits, start, d, |p| {
                        table[usize::from(steps.value(&texels, p))] >= t
                    });
                })
            }
        }
    }
}

/// A walk of the flipped source's steps as the same walk over the source as stored: the
/// whole part of a step is then the unflipped texel (nearest) or block (blending) it reads.
/// Flipped texel `i'` of `w` is texel `w - 1 - i'`, and flipped block `i'` (texels `i'`,
/// `i' + 1`) is block `w - 2 - i'`; `off - s` has whole part `n - 1 - (s >> 16)` for
/// `off = (n << 16) - 1`, so a flipped axis is negated and offset, exactly, in integers.
#[derive(Clone, Copy)]
struct Unflipped {
    /// Per axis: the offset, and whether it is flipped.
    u: (i64, bool),
    v: (i64, bool),
}

impl Unflipped {
    fn new((fx, fy): (bool, bool), (w, h): (i64, i64), reach: i64) -> Unflipped {
        let off = |n: i64| ((n - reach) << 16) - 1;
        Unflipped {
            u: (off(w), fx),
            v: (off(h), fy),
        }
    }

    /// The step `s` and the step between pixels `d` of a flipped walk, unflipped (its own
    /// inverse: `walk` of an unflipped step gives the flipped one back).
    #[inline(always)]
    fn walk(&self, (su, sv): (i64, i64), (du, dv): (i64, i64)) -> ((i64, i64), (i64, i64)) {
        let axis = |(off, flip): (i64, bool), s: i64, d: i64| if flip { (off - s, -d) } else { (s, d) };
        let ((su, du), (sv, dv)) = (axis(self.u, su, du), axis(self.v, sv, dv));
        ((su, sv), (du, dv))
    }

    /// SDL_gfx's blend at the unflipped step `(u, v)` of a blending walk whose block is
    /// inside the source (both paths blend such a block's four texels, `Rotozoom::value`
    /// and `Zoom::value`), from the block's texels as stored (`quad`, unflipped): put in the
    /// flipped order, the weights of a flipped axis mirrored (`off - s` has fraction
    /// `0xffff - (s & 0xffff)`).
    #[inline(always)]
    fn blend(&self, [mut q00, mut q01, mut q10, mut q11]: [u8; 4], (u, v): (i64, i64)) -> u8 {
        let (mut ex, mut ey) = ((u & 0xffff) as i32, (v & 0xffff) as i32);
        if self.u.1 {
            (q00, q01, q10, q11) = (q01, q00, q11, q10);
            ex = 0xffff - ex;
        }
        if self.v.1 {
            (q00, q01, q10, q11) = (q10, q11, q00, q01);
            ey = 0xffff - ey;
        }
        blend(q00, q01, q10, q11, ex, ey)
    }
}

/// The rows of `rows` that `outline` can hold.
fn rows_within(rows: PixelRect, outline: &OutlineRows<'_>) -> PixelRect {
    let (y0, y1) = outline.rows();
    PixelRect {
        y0: rows.y0.max(y0),
        y1: rows.y1.min(y1),
        ..rows
    }
}

/// An affine walk over the source as stored: pixel `(x, y)` of the surface (relative to the
/// anchor) steps to `s0 + x d + y e`.
#[derive(Clone, Copy)]
struct AffineWalk {
    s0: (i64, i64),
    d: (i64, i64),
    e: (i64, i64),
}

/// What a blending walk's steps off the inner blocks read: one reference for the
/// out-of-line call.
struct Border<'b, S> {
    steps: &'b S,
    texels: Texels<'b>,
    unflipped: Unflipped,
}

impl<S: Steps> Border<'_, S> {
    /// The alpha of the unflipped step `p` off the inner blocks, when its block's range
    /// leaves it undecided: as the path steps it (SDL_gfx clamps the border's blocks its
    /// own way, in the flipped source), or 0 (a step the path does not write: a row clipped
    /// by the outline alone can step past them). Out of line, so that the loop over the
    /// other pixels keeps its registers.
    #[cold]
    #[inline(never)]
    fn value(&self, p: (i64, i64)) -> u8 {
        let (u, v) = self.unflipped.walk(p, (0, 0)).0;
        let [u0, u1, v0, v1] = self.steps.written();
        match u >= u0 && u < u1 && v >= v0 && v < v1 {
            true => self.steps.value(&self.texels, (u, v)),
            false => 0,
        }
    }
}

/// Sets the bits `first..end` of row `my` of `mask` that `pixel` gives (0 or 1, called once
/// a bit, in order), a word at a time.
#[inline(always)]
fn words(mask: &mut BitMask, my: usize, (first, end): (usize, usize), mut pixel: impl FnMut() -> u64) {
    let mut x = first;
    while x < end {
        let k = x / 64;
        let stop = ((k + 1) * 64).min(end);
        let mut word = 0u64;
        for bit in x % 64..stop - k * 64 {
            word |= pixel() << bit;
        }
        mask.or_word(my, k, word);
        x = stop;
    }
}

/// [`words`] with `solid` deciding each pixel from its step in the flipped source.
#[inline(always)]
fn pixels(
    mask: &mut BitMask,
    my: usize,
    bits: (usize, usize),
    (mut u, mut v): (i64, i64),
    (du, dv): (i64, i64),
    solid: impl Fn((i64, i64)) -> bool,
) {
    words(mask, my, bits, || {
        let bit = u64::from(solid((u, v)));
        (u, v) = (u + du, v + dv);
        bit
    });
}

impl<'k> Kernel<'k> {
    /// The outline's preimage in the surface ([`OutlineRows`]) and the walk over the source
    /// as stored, when the source has an outline and the walk is affine over the whole
    /// surface (it cannot wrap).
    fn outline_rows<S: Steps>(&self, steps: &S) -> Option<(OutlineRows<'k>, AffineWalk)> {
        self.outline_walks(steps).map(|(rows, _, walk)| (rows, walk))
    }

    /// [`Kernel::outline_rows`], and the core's preimage ([`OutlineRows::inside`]) when it
    /// has one that pays ([`CORE_PIXELS`]).
    fn outline_walks<S: Steps>(
        &self,
        steps: &S,
    ) -> Option<(OutlineRows<'k>, Option<OutlineRows<'k>>, AffineWalk)> {
        let (outline, threshold) = self.outline?;
        if !steps.affine() {
            return None;
        }
        let ((w, h), flips) = (self.plan.source_size(), self.plan.flips());
        let unflipped = Unflipped::new(flips, (i64::from(w), i64::from(h)), S::REACH);
        let (first, d) = steps.row_steps(0, 0);
        let (s0, d) = unflipped.walk(first, d);
        let (s1, _) = unflipped.walk(steps.row_steps(1, 0).0, (0, 0));
        let e = (s1.0 - s0.0, s1.1 - s0.1);
        let rows = OutlineRows::new(outline.hull(threshold, S::REACH == 1), s0, d, e)?;
        // A core costs a few dozen instructions a row and its set-up; it pays only where it
        // spans many pixels of a row: its area in pixels (a texel is `|d x e| / 2^32` of a
        // pixel's) at least `CORE_PIXELS` squared.
        let texel = ((d.0 as f64) * (e.1 as f64) - (d.1 as f64) * (e.0 as f64)).abs();
        let core = self.cores.and_then(|cores| {
            let c = cores.core(self.threshold);
            (c.area * 4_294_967_296.0 >= CORE_PIXELS * CORE_PIXELS * texel)
                .then(|| OutlineRows::new(c.vertices, s0, d, e))?
        });
        Some((rows, core, AffineWalk { s0, d, e }))
    }

    /// The rows of a walk that `run` takes at any step (it reads nothing outside the source
    /// and writes 0 where the path does not write), `run` writing the bits `first..end` of
    /// mask row `my` from the step of the first and the step between pixels, both over the
    /// source as stored ([`Unflipped`]). Where the walk is affine and the outline clips it
    /// (a pixel at most 16 texels: the outline's columns step within a texel of it, the
    /// padding of the tables such a `run` reads), each row costs its outline's columns and
    /// its first step, two multiply-adds an axis from the walk set up once
    /// ([`Kernel::outline_walk`]); elsewhere row by row as the plain rows step
    /// ([`Kernel::rows_of`]).
    fn unflipped_rows<S: Steps>(
        self,
        steps: &S,
        mut run: impl FnMut(&mut BitMask, usize, (usize, usize), (i64, i64), (i64, i64)),
    ) -> bool {
        let near = |(du, dv): (i64, i64)| du.abs().max(dv.abs()) <= 1 << 20;
        match self.outline_walks(steps) {
            Some((rows, core, walk)) if near(walk.d) => self.outline_walk(rows, core, walk, run),
            _ => {
                let ((w, h), flips) = (self.plan.source_size(), self.plan.flips());
                let unflipped = Unflipped::new(flips, (i64::from(w), i64::from(h)), S::REACH);
                self.rows_of(steps, true, move |mask, my, bits, start, d| {
                    let (s, d) = unflipped.walk(start, d);
                    run(mask, my, bits, s, d);
                })
            }
        }
    }

    /// Columns `[c0, c1)` of mask row `my` cut to what `within` leaves; `None` when that
    /// row of it is clear.
    #[inline(always)]
    fn within_columns(&self, my: usize, (c0, c1): (i64, i64)) -> Option<(i64, i64)> {
        let Some(other) = self.within else {
            return Some((c0, c1));
        };
        let (x0, x1) = other.row_extent(my)?;
        Some((c0.max(self.left + x0 as i64), c1.min(self.left + x1 as i64)))
    }

    /// [`Kernel::unflipped_rows`] over the outline's rows: pixel `(x, y)` (relative to the
    /// anchor) steps to `s0 + x d + y e` exactly, the walk being affine. The columns whose
    /// steps lie strictly inside the core (`core`, [`OutlineRows::inside`]) are set
    /// without a read (such a step reads a solid cell, [`super::pygame_core`]); only the
    /// columns between it and the outline are read.
    fn outline_walk(
        self,
        outline: OutlineRows<'_>,
        core: Option<OutlineRows<'_>>,
        walk: AffineWalk,
        run: impl FnMut(&mut BitMask, usize, (usize, usize), (i64, i64), (i64, i64)),
    ) -> bool {
        // Without a core, the rows as they were before cores: nothing of its own a row.
        match core.is_some() {
            true => self.outline_walk_by::<true>(outline, core, walk, run),
            false => self.outline_walk_by::<false>(outline, None, walk, run),
        }
    }

    /// [`Kernel::outline_walk`], with the core's columns worked out when `CORE`.
    fn outline_walk_by<const CORE: bool>(
        self,
        mut outline: OutlineRows<'_>,
        mut core: Option<OutlineRows<'_>>,
        AffineWalk { s0, d, e }: AffineWalk,
        mut run: impl FnMut(&mut BitMask, usize, (usize, usize), (i64, i64), (i64, i64)),
    ) -> bool {
        let rows = rows_within(self.rows, &outline);
        for y in rows.y0..rows.y1 {
            let my = (y - self.top) as usize;
            let Some((mut c0, mut c1)) = self.within_columns(my, (rows.x0, rows.x1)) else {
                continue;
            };
            let (x0, x1) = outline.row(y);
            (c0, c1) = (c0.max(x0), c1.min(x1));
            if c0 >= c1 {
                continue;
            }
            self.counts.rows += 1;
            // The core's columns are set; only those on either side of it are read. One
            // call site of `run`, so that it stays inlined.
            let (i0, i1) = match (CORE, &mut core) {
                (true, Some(core)) => {
                    let (i0, i1) = core.inside(y);
                    (i0.max(c0), i1.min(c1))
                }
                _ => (c1, c1),
            };
            let reads = match CORE && i0 < i1 {
                true => {
                    let first = (i0 - self.left) as usize;
                    self.mask.set_run(my, first, first + (i1 - i0) as usize);
                    [(c0, i0), (i1, c1)]
                }
                false => [(c0, c1), (c1, c1)],
            };
            for (x0, x1) in reads {
                if x0 < x1 {
                    self.counts.texels_read += (x1 - x0) as u64;
                    let first = (x0 - self.left) as usize;
                    let start = (s0.0 + x0 * d.0 + y * e.0, s0.1 + x0 * d.1 + y * e.1);
                    run(self.mask, my, (first, first + (x1 - x0) as usize), start, d);
                }
            }
        }
        true
    }

    /// The rows, `run` writing the bits `first..end` of mask row `my` from the step of the
    /// first (in the flipped source) and the step between pixels. `any_step`: `run` takes
    /// any step (it reads nothing outside the source and writes 0 where the path does not
    /// write), so that a row the outline clips needs no clip by the box.
    fn rows_of<S: Steps>(
        self,
        steps: &S,
        any_step: bool,
        mut run: impl FnMut(&mut BitMask, usize, (usize, usize), (i64, i64), (i64, i64)),
    ) -> bool {
        let mut outline = self.outline_rows(steps).map(|(rows, _)| rows);
        let affine = outline.is_some();
        // The outline's columns step within 1/16 px of it, so within a texel (the padding
        // of the tables an `any_step` run reads) while a pixel is at most 16 texels.
        let d = steps.row_steps(0, 0).1;
        let near = d.0.abs().max(d.1.abs()) <= 1 << 20;
        let [wu0, wu1, wv0, wv1] = steps.written();
        // A step can read a texel of the box when its whole part is in the box, or (a
        // blend) one texel before it.
        let [bu0, bv0, bu1, bv1] = self.solid_box.map(|c| i64::from(c) << 16);
        let reach = S::REACH << 16;
        let across = (wu0.max(bu0 - reach), wu1.min(bu1));
        let down = (wv0.max(bv0 - reach), wv1.min(bv1));
        let rows = match &outline {
            Some(o) => rows_within(self.rows, o),
            None => self.rows,
        };
        for y in rows.y0..rows.y1 {
            let my = (y - self.top) as usize;
            let Some((mut c0, mut c1)) = self.within_columns(my, (rows.x0, rows.x1)) else {
                continue;
            };
            if let Some(o) = &mut outline {
                let (x0, x1) = o.row(y);
                (c0, c1) = (c0.max(x0), c1.min(x1));
            }
            if c0 >= c1 {
                continue;
            }
            let n = c1 - c0;
            // Inside the surface, rows and columns fit an `int` (sides are at most 16384).
            let ((su, sv), (du, dv)) = steps.row_steps(y as i32, c0 as i32);
            let fits = |s: i64, d: i64| i32::try_from(s + (n - 1) * d).is_ok();
            // An affine walk (the outline's rows need one) wraps nowhere in the surface.
            if S::WRAPS && !affine && !(fits(su, du) && fits(sv, dv)) {
                self.mask.reset(self.mask.rect());
                return false;
            }
            let (a, b) = match any_step && affine && near {
                true => (0, n),
                false => {
                    let (a0, b0) = AxisSteps::new(du, across).steps(su, n);
                    let (a1, b1) = AxisSteps::new(dv, down).steps(sv, n);
                    (a0.max(a1), b0.min(b1))
                }
            };
            self.counts.rows += 1;
            if a >= b {
                continue;
            }
            self.counts.texels_read += (b - a) as u64;
            let first = (c0 + a - self.left) as usize;
            let bits = (first, first + (b - a) as usize);
            run(self.mask, my, bits, (su + a * du, sv + a * dv), (du, dv));
        }
        true
    }
}

#[cfg(test)]
mod tests {
    use std::sync::Arc;

    use super::*;
    use crate::geom::renderer::{BitmapRenderer, PygameOp, Rendered};
    use crate::raster::cache::RasterCache;
    use crate::raster::edges::Edges;
    use crate::raster::test_rng::Rng;
    use crate::{Bitmap, ColorTransform, PygameTransform};

    /// The surface `t` makes of `bitmap` with `pad` pixels around it, and its pixels at
    /// `threshold` as the public rows compute them.
    fn public_mask(bitmap: &Bitmap, t: PygameTransform, threshold: u8, pad: i64) -> (PixelRect, BitMask) {
        let (sw, sh) = t.output_size(bitmap.width(), bitmap.height());
        let region = PixelRect {
            x0: -pad,
            y0: -pad,
            x1: i64::from(sw) + pad,
            y1: i64::from(sh) + pad,
        };
        let mut plane = vec![0u8; (region.width() * region.height()) as usize];
        for (y, row) in (region.y0..).zip(plane.chunks_exact_mut(region.width() as usize)) {
            t.alpha_row(bitmap, y, region.x0, row).unwrap();
        }
        (region, BitMask::from_plane(&plane, region, threshold))
    }

    /// The kernel's fill of `region` at `threshold` for `bitmap` drawn by `t`, over the
    /// source the cache makes for `op`: whether it took it, the mask, its counts.
    fn kernel_fill(
        cache: &RasterCache,
        bitmap: &Bitmap,
        (t, op): (PygameTransform, PygameOp),
        region: PixelRect,
        threshold: u8,
    ) -> (bool, BitMask, BitsCounts) {
        let plan = t.checked_plan(bitmap.width(), bitmap.height()).unwrap();
        let rendered = Rendered {
            renderer: BitmapRenderer::Pygame(t),
            size: plan.size(),
            hull_map: plan.texels_to_pixels(),
            source: (bitmap.width(), bitmap.height()),
        };
        let source = cache.rendered_texels(bitmap, op);
        let shape = RenderedShape::new(
            bitmap,
            source,
            &rendered,
            &ColorTransform::IDENTITY,
            Edges::default(),
        );
        let item = Item::Shape {
            shape: Arc::new(Shape::Rendered(shape)),
            anchor: (0, 0),
        };
        let (mut mask, mut counts) = (BitMask::empty(), BitsCounts::default());
        let bits = PygameBits::of(&item, threshold).unwrap();
        let done = bits.fill(region, None, &mut counts, &mut mask);
        (done, mask, counts)
    }

    /// `rotate` (or `rotozoom` at a scale of 0.1 to 5) at an angle at, near or between
    /// quarter turns (negative and past 360), flipped at random.
    fn random_transform(next: &mut impl FnMut(i64) -> i64, zoom: bool) -> PygameTransform {
        let angle = match next(4) {
            0 => (next(17) - 8) as f64 * 90.0,
            1 => (next(17) - 8) as f64 * 90.0 + [1e-3, -1e-3, 2e-4, 0.5, -0.0011][next(5) as usize],
            _ => next(16_000) as f64 / 10.0 - 800.0,
        };
        match zoom {
            false => PygameTransform::rotate(angle),
            true => PygameTransform::rotozoom(angle, 0.1 + next(491) as f64 / 100.0),
        }
        .flip(next(2) == 0, next(2) == 0)
    }

    /// The source the cache makes for a renderer holds the table that renderer's walk reads:
    /// the kernel over it takes its own route and gives pygame's pixels (the public rows,
    /// read from the RGBA), while over the other renderer's source it finds its table
    /// missing and hands the item to the plain route (`false`, nothing written). A source
    /// made with the wrong table, or none, fails here.
    #[test]
    fn each_renderers_source_holds_the_table_its_walk_reads() {
        let cache = RasterCache::default();
        let mut rng = Rng(0x2545_f491_4f6c_dd1d);
        let mut next = |n: i64| rng.below(n);
        let mut checked = [0u64; 2];
        for case in 0..400 {
            let (w, h) = (1 + next(12) as u32, 1 + next(12) as u32);
            let mut rgba: Vec<u8> = (0..w * h * 4)
                .map(|_| [0, 255, next(256) as u8][next(3) as usize])
                .collect();
            // One opaque texel at least: some pixel can be solid at any threshold.
            rgba[4 * next(i64::from(w * h)) as usize + 3] = 255;
            let bitmap = Bitmap::from_rgba8(w, h, rgba).unwrap();
            let angle = [0.0, 90.0, 180.0, -270.0][next(4) as usize]
                + [0.0, next(3600) as f64 / 10.0][next(2) as usize];
            let t = match case % 2 {
                0 => PygameTransform::rotate(angle),
                _ => PygameTransform::rotozoom(angle, 0.3 + next(30) as f64 / 10.0),
            }
            .flip(next(2) == 0, next(2) == 0);
            let threshold = [1, 100, 255][next(3) as usize];
            let (region, want) = public_mask(&bitmap, t, threshold, 2);
            let nothing = BitMask::from_plane(&vec![0; region.area() as usize], region, 1);
            for op in [PygameOp::Rotate, PygameOp::Rotozoom] {
                let (done, mask, counts) = kernel_fill(&cache, &bitmap, (t, op), region, threshold);
                if op == t.op {
                    assert!(done, "case {case}: {t:?} refused its own source");
                    assert_eq!(mask, want, "case {case}: {t:?} at {threshold}");
                    checked[case % 2] += counts.texels_read;
                } else {
                    assert!(!done, "case {case}: {t:?} drew from {op:?}'s source");
                    assert_eq!(mask, nothing, "case {case}");
                }
            }
        }
        assert!(checked.iter().all(|&n| n > 5_000), "pixels read {checked:?}");
    }

    /// The kernel's own routes (affine rows stepped from a walk set up once, clipped by the
    /// outline; `rotozoom`'s straddling blocks blended in the loop from the block's four
    /// texels, its border's steps out of line) give the surface pygame returns, as the
    /// public rows compute it, over random soft art with holes and thin bars, every flip,
    /// angles at, near and between quarter turns (negative and past 360), scales 0.1 to 5
    /// and the zoom-only path, and thresholds 1, 127, 128, 255 and between.
    #[test]
    fn kernel_routes_give_the_public_rows() {
        let cache = RasterCache::default();
        let mut rng = Rng(0x7f4a_7c15_9e37_79b9);
        let mut next = |n: i64| rng.below(n);
        let mut read = [0u64; 2];
        for case in 0..2000 {
            let (w, h) = (1 + next(24) as u32, 1 + next(24) as u32);
            let bars = next(3) == 0;
            let rgba: Vec<u8> = (0..w * h)
                .flat_map(|k| {
                    let (x, y) = (k % w, k / w);
                    let a = match (bars, next(6)) {
                        (true, _) if x % 4 == 1 || y % 5 == 2 => [255, 128, 127][case % 3],
                        (true, _) => 0,
                        (false, 0) => 0,
                        (false, 1) => 255,
                        _ => next(256) as u8,
                    };
                    [9, 8, 7, a]
                })
                .collect();
            let bitmap = Bitmap::from_rgba8(w, h, rgba).unwrap();
            let t = random_transform(&mut next, case % 2 == 1);
            let threshold = [1, 127, 128, 255, 1 + next(255) as u8][next(5) as usize];
            let (region, want) = public_mask(&bitmap, t, threshold, 1);
            let (done, mask, counts) = kernel_fill(&cache, &bitmap, (t, t.op), region, threshold);
            assert!(done, "case {case}: {t:?}");
            assert_eq!(mask, want, "case {case}: {t:?} of {w} x {h} at {threshold}");
            read[case % 2] += counts.texels_read;
        }
        assert!(read.iter().all(|&n| n > 100_000), "pixels read {read:?}");
    }

    /// Pixels set without a read, inside a source's solid core ([`super::super::pygame_core`]),
    /// give the surface pygame returns too, as the public rows compute it: over random
    /// discs with holes and soft rims, thin bars, colour-key-like art (0 or 255) and noise,
    /// both flavours, every flip, angles at, near and between quarter turns (negative and
    /// past 360), scales 0.1 to 5, and thresholds 1, 128 and 255 (pygame's 0, 127 and
    /// 254) and between. On the discs fewer pixels are read than are solid: without the
    /// cores each solid pixel would be read.
    #[test]
    fn core_pixels_give_the_public_rows() {
        use crate::PygameFlavour;
        let cache = RasterCache::default();
        let mut rng = Rng(0x3c6e_f372_fe94_f82b);
        let mut next = |n: i64| rng.below(n);
        let (mut solid, mut read) = ([0u64; 2], [0u64; 2]);
        for case in 0..3000 {
            // Large enough that cores are used ([`CORE_PIXELS`]) in many poses.
            let (w, h) = (1 + next(64) as u32, 1 + next(64) as u32);
            let style = next(4);
            let holes: Vec<(i64, i64, i64)> = (0..next(3))
                .map(|_| (next(i64::from(w)), next(i64::from(h)), 1 + next(5)))
                .collect();
            let (rim, inner) = (1 + next(255) as u8, [255, 200, 128, 127][next(4) as usize]);
            let rgba: Vec<u8> = (0..w * h)
                .flat_map(|k| {
                    let (x, y) = (i64::from(k % w), i64::from(k / w));
                    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
                    let r = ((x as f64 + 0.5 - cx) / cx).hypot((y as f64 + 0.5 - cy) / cy);
                    let hole = holes
                        .iter()
                        .any(|&(hx, hy, hr)| (x - hx) * (x - hx) + (y - hy) * (y - hy) < hr * hr);
                    let a = match style {
                        0 | 1 if hole || r >= 1.0 => 0,
                        0 if r < 0.75 => inner,
                        0 => rim,
                        // A soft rim: alpha falling from 255 to 0 over the outer third.
                        1 => (255.0 * (1.0 - r) * 3.0).min(255.0) as u8,
                        2 if x % 6 == 2 || y % 4 == 1 => inner,
                        2 => 0,
                        _ => [0, 255, 255, next(256) as u8][next(4) as usize],
                    };
                    [9, 8, 7, a]
                })
                .collect();
            let bitmap = Bitmap::from_rgba8(w, h, rgba).unwrap();
            let t = random_transform(&mut next, case % 2 == 1)
                .flavour([PygameFlavour::Pygame, PygameFlavour::PygameCe][next(2) as usize]);
            let threshold = [1, 128, 255, 1 + next(255) as u8][next(4) as usize];
            let (region, want) = public_mask(&bitmap, t, threshold, 1);
            let (done, mask, counts) = kernel_fill(&cache, &bitmap, (t, t.op), region, threshold);
            assert!(done, "case {case}: {t:?}");
            assert_eq!(
                mask, want,
                "case {case}: {t:?} of {w} x {h} at {threshold}, style {style}"
            );
            if style == 0 && threshold == 128 {
                let (r, words) = (mask.rect(), (mask.rect().width() as usize).div_ceil(64));
                solid[case % 2] += (0..r.height() as usize)
                    .flat_map(|y| (0..words).map(move |k| (y, k)))
                    .map(|(y, k)| u64::from(mask.word(y, k).count_ones()))
                    .sum::<u64>();
                read[case % 2] += counts.texels_read;
            }
        }
        assert!(
            (0..2).all(|k| solid[k] > read[k] && read[k] > 10_000),
            "solid pixels {solid:?}, pixels read {read:?}"
        );
    }
}
