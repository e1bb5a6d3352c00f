//! Bitmap sampling in fixed point: the texel under each pixel centre, found by exact integer
//! steps from one pixel to the next (semantics.md 4.5), skipping transparent texels by a
//! table of each texel row's runs.
//!
//! A pose's inverse mapping is kept as three vectors in units of 2^-32 texel ([`TexelMap`]);
//! the centre of pixel `(i, j)` maps to `origin + i col0 + j col1`, added in integers, so a
//! pixel computed alone and a pixel reached by stepping along its row agree to the bit. A
//! row of pixels crosses texel rows and runs of opaque texels at places found by one
//! division each, so its cost follows the texels it reads, not the pixels it skips.

use std::sync::OnceLock;
use std::sync::atomic::{AtomicUsize, Ordering};

use glam::DAffine2;

use super::pygame_blocks::{BLOCK_PAD, Blocks};
use super::pygame_core::SolidCores;
use super::solid_hull::SolidHull;
use super::solid_outline::{Octagon, SolidOutlines};
use super::solid_table::SolidTable;
use crate::Bitmap;
use crate::geom::color::{ColorTransform, round_channel};
use crate::geom::renderer::PygameOp;
use crate::geom::whole::round_small;

/// Bits of a texel coordinate below the texel: the fixed point of semantics.md 4.5.
pub(crate) const TEXEL_BITS: u32 = 32;
const TEXEL: i128 = 1 << TEXEL_BITS;
/// Pixels a row must stay on one texel row, on average, for the run table to be used.
const MIN_PIECE: i128 = 8;
/// Fixed-point values whose texel part reaches this are not kept: such an inverse needs
/// 2^31 texels or more per pixel (the bitmap is squashed below 2^-31 of its size) and the
/// item draws nothing (docs/semantics.md, choices where the contract is silent).
const MAX_FIXED: f64 = 9_223_372_036_854_775_808.0; // 2^63

/// A bitmap's alpha after a colour transform, one byte a texel, with each texel row's runs
/// of alpha above 0: what sampling reads, made once per bitmap and transform and shared by
/// every pose.
#[derive(Debug)]
pub(crate) struct Texels {
    pub width: u32,
    pub height: u32,
    pub alpha: Vec<u8>,
    /// Runs `[u0, u1)` of texels with alpha above 0, row after row.
    runs: Vec<(u32, u32)>,
    /// Where each texel row's runs start in `runs` (one more entry than rows).
    run_starts: Vec<u32>,
    /// For each threshold, the octagon around the texels whose alpha reaches it: no centre
    /// outside it can make a solid pixel without anti-aliasing, and with it only near the
    /// bitmap's border ([`Texels::solid_outline`]).
    outlines: SolidOutlines,
    /// For each 2 x 2 block of texels, its least and greatest alpha and its four alphas
    /// ([`Texels::blocks`]); empty unless made for `rotozoom` ([`Texels::for_renderer`]),
    /// which blends four texels, where a block whose range is all on one side of the
    /// threshold decides its pixels without the blend, and the others blend from it.
    blocks: Blocks,
    /// The convex hull of the solid texels per level of alpha; `None` unless made by
    /// [`Texels::for_renderer`] (a source that a pygame renderer draws).
    hull: Option<Box<SolidHull>>,
    /// Per level of alpha, a convex polygon of the cells the renderer's walk reads (the
    /// padded alpha's texels, or the blocks) that are all solid there; `None` unless made by
    /// [`Texels::for_renderer`]. An edit drops the polygons it touches.
    cores: Option<Box<SolidCores>>,
    /// The alphas again with a clear column after each row and a clear row after the last
    /// (`width + 1` a row); empty unless made for `rotate` ([`Texels::for_renderer`]): a
    /// read one texel past a side is 0, never the next row's texel.
    padded: Box<[u8]>,
    /// The solid texels at the first threshold the bitmap kernel asks for, made then
    /// ([`Texels::solid_table`]; `None` inside for a bitmap too large for one); its bytes
    /// are counted from the start.
    solid_table: OnceLock<Option<SolidTable>>,
    /// Cache entries holding it (its texel entry, poses and rasters of it): the cache
    /// counts its bytes once, while any of them holds it.
    cache_holders: AtomicUsize,
}

/// Texels made or made again on this thread, whole or by [`Texels::patch_rect`]: what
/// the tests of editable bitmaps count.
#[cfg(test)]
pub(crate) fn texels_made() -> u64 {
    TEXELS_MADE.with(std::cell::Cell::get)
}

#[cfg(test)]
thread_local! {
    static TEXELS_MADE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

#[cfg(test)]
fn count_made(texels: u64) {
    TEXELS_MADE.with(|c| c.set(c.get() + texels));
}

impl Texels {
    /// The texels of what `bitmap` shows (a region's own: its table costs the region's
    /// texels, never its image's), after `ct`.
    pub fn new(bitmap: &Bitmap, ct: &ColorTransform) -> Texels {
        #[cfg(test)]
        count_made(u64::from(bitmap.width()) * u64::from(bitmap.height()));
        let alpha = (0..bitmap.height())
            .flat_map(|y| bitmap.row(y).unwrap_or(&[]).chunks_exact(4))
            .map(|px| round_channel(ct.apply_alpha(f64::from(px[3]))))
            .collect();
        Texels::from_alpha(bitmap.width(), bitmap.height(), alpha)
    }

    /// Texels of a `width` x `height` bitmap (at least 1 x 1) from their alphas, row-major.
    pub fn from_alpha(width: u32, height: u32, alpha: Vec<u8>) -> Texels {
        let mut runs = Vec::new();
        let mut run_starts = Vec::with_capacity(height as usize + 1);
        for row in alpha.chunks_exact(width as usize) {
            run_starts.push(runs.len() as u32);
            let mut u = 0;
            while u < row.len() {
                if row[u] == 0 {
                    u += 1;
                    continue;
                }
                let start = u;
                while u < row.len() && row[u] != 0 {
                    u += 1;
                }
                runs.push((start as u32, u as u32));
            }
        }
        run_starts.push(runs.len() as u32);
        runs.shrink_to_fit();
        let outlines = SolidOutlines::new(width, height, &alpha);
        Texels {
            width,
            height,
            alpha,
            runs,
            run_starts,
            outlines,
            blocks: Blocks::default(),
            hull: None,
            cores: None,
            padded: Box::default(),
            solid_table: OnceLock::new(),
            cache_holders: AtomicUsize::new(0),
        }
    }

    /// The same texels with the tables that `op`'s kernel reads (`raster::pygame_bits`),
    /// patched with the texels by [`Texels::patch_rect`]: the outline of the solid texels
    /// ([`Texels::hull`]) for both, and the alpha padded with a clear column and row
    /// ([`Texels::padded`], 1 byte a texel) for `rotate`, which reads one texel a pixel, or
    /// the blocks ([`Texels::blocks`], 6 bytes a texel) for `rotozoom`, which blends four.
    /// Each renderer has its own source, so neither pays for the other's table.
    pub fn for_renderer(mut self, op: PygameOp) -> Texels {
        self.hull = Some(Box::new(SolidHull::new(self.width, &self.alpha)));
        match op {
            PygameOp::Rotate => {
                let (w, h) = (self.width as usize, self.height as usize);
                let mut padded = vec![0u8; (w + 1) * (h + 1)];
                for (row, alpha) in padded.chunks_exact_mut(w + 1).zip(self.alpha.chunks_exact(w)) {
                    row[..w].copy_from_slice(alpha);
                }
                self.cores = Some(Box::new(SolidCores::new(&padded, (w + 1, h + 1), (0, 0))));
                self.padded = padded.into_boxed_slice();
            }
            PygameOp::Rotozoom => {
                self.blocks = Blocks::new(&self.alpha, (self.width, self.height));
                let least: Vec<u8> = self.blocks.ranges.iter().map(|r| r[0]).collect();
                let (w, h) = (self.width as usize, self.height as usize);
                let pad = BLOCK_PAD as i32;
                self.cores = Some(Box::new(SolidCores::new(&least, (w + 3, h + 3), (-pad, -pad))));
            }
        }
        self
    }

    /// Each block `(b, c)` (texels `b`, `b + 1` of rows `c`, `c + 1`, clamped into the
    /// bitmap, as SDL_gfx's blend clamps them on the border) with `-2 <= b <= width` and
    /// `-2 <= c <= height` ([`Blocks`]): row-major, block `(b, c)` at
    /// `(c + 2) (width + 3) + b + 2`. Empty unless made for `rotozoom`
    /// ([`Texels::for_renderer`]).
    pub fn blocks(&self) -> &Blocks {
        &self.blocks
    }

    /// The alphas with a clear column after each row and a clear row after the last
    /// (`width + 1` a row); empty unless made for `rotate` ([`Texels::for_renderer`]).
    pub fn padded(&self) -> &[u8] {
        &self.padded
    }

    /// The solid cores of the cells the renderer's walk reads, when made
    /// ([`Texels::for_renderer`]).
    pub fn cores(&self) -> Option<&SolidCores> {
        self.cores.as_deref()
    }

    /// The convex hull of the solid texels, when made ([`Texels::for_renderer`]).
    pub fn hull(&self) -> Option<&SolidHull> {
        self.hull.as_deref()
    }

    /// The box `(u0, v0, u1, v1)` of the texels whose alpha reaches `threshold`, `None` when
    /// there are none.
    pub fn solid_box(&self, threshold: u8) -> Option<[u32; 4]> {
        let b = self.outlines.at(threshold);
        (!b.is_empty()).then(|| b.texel_box())
    }

    /// The octagon around the texels whose alpha reaches `threshold`, `None` when there are
    /// none.
    pub fn solid_outline(&self, threshold: u8) -> Option<&Octagon> {
        let b = self.outlines.at(threshold);
        (!b.is_empty()).then_some(b)
    }

    /// Its solid texels at `threshold` as a padded table of 0s and 1s
    /// ([`SolidTable::bits`]), when it keeps the table of that threshold: made now for the
    /// first threshold asked, `None` for any other and for bitmaps too large for one.
    pub fn solid_table(&self, threshold: u8) -> Option<&[u8]> {
        let table = self
            .solid_table
            .get_or_init(|| SolidTable::new(&self.alpha, threshold));
        table
            .as_ref()
            .filter(|t| t.threshold() == threshold)
            .map(SolidTable::bits)
    }

    /// Makes the texels of `[u0, u1) x [v0, v1)` (inside the bitmap) again from `bitmap`,
    /// whose texels elsewhere are those these were made from, and the run table of those
    /// rows: runs left of `u0` and right of `u1` are kept (cut at the rectangle), the texels
    /// inside are scanned, and the pieces joined. Returns the texels it read: the
    /// rectangle's area (an edit's cost follows its area, not the bitmap's).
    pub fn patch_rect(&mut self, bitmap: &Bitmap, ct: &ColorTransform, [u0, v0, u1, v1]: [u32; 4]) -> u64 {
        let w = self.width as usize;
        let (u0, u1) = (u0 as usize, u1 as usize);
        let rgba = bitmap.rgba();
        let mut fresh: Vec<(u32, u32)> = Vec::new();
        for v in v0 as usize..v1 as usize {
            let row = &mut self.alpha[v * w..][..w];
            for (u, a) in row.iter_mut().enumerate().take(u1).skip(u0) {
                *a = round_channel(ct.apply_alpha(f64::from(rgba[4 * (v * w + u) + 3])));
            }
            let old = &self.runs[self.run_starts[v] as usize..self.run_starts[v + 1] as usize];
            let mut add = |a: u32, b: u32| match fresh.last_mut() {
                Some(last) if last.1 == a => last.1 = b,
                _ => fresh.push((a, b)),
            };
            for &(a, b) in old.iter().filter(|r| (r.0 as usize) < u0) {
                add(a, b.min(u0 as u32));
            }
            let mut u = u0;
            while u < u1 {
                if row[u] == 0 {
                    u += 1;
                    continue;
                }
                let start = u;
                while u < u1 && row[u] != 0 {
                    u += 1;
                }
                add(start as u32, u as u32);
            }
            for &(a, b) in old.iter().filter(|r| r.1 as usize > u1) {
                add(a.max(u1 as u32), b);
            }
            // A new row: its first run must not join the last row's.
            fresh.push((u32::MAX, u32::MAX));
        }
        // Row by row into one splice: the table moves once, whatever the rows.
        let (first, end) = (
            self.run_starts[v0 as usize] as usize,
            self.run_starts[v1 as usize] as usize,
        );
        let mut starts = Vec::with_capacity((v1 - v0) as usize);
        let mut rows = Vec::with_capacity(fresh.len());
        for r in fresh {
            if r.0 == u32::MAX {
                starts.push((first + rows.len()) as u32);
            } else {
                rows.push(r);
            }
        }
        let grown = rows.len() as i64 - (end - first) as i64;
        self.runs.splice(first..end, rows);
        // `starts` holds where each row ends; row v's start is the end of row v - 1.
        for (k, s) in starts.into_iter().enumerate() {
            self.run_starts[v0 as usize + k + 1] = s;
        }
        for s in &mut self.run_starts[v1 as usize + 1..] {
            *s = (i64::from(*s) + grown) as u32;
        }
        // The solid outlines grow by the rectangle's texels; an erase leaves them as they
        // were (an outline larger than the solid texels is still a bound).
        let rect_alpha = (v0 as usize..v1 as usize).flat_map(|v| &self.alpha[v * w + u0..v * w + u1]);
        let height = self.height;
        self.outlines
            .grow(rect_alpha, [u0 as u32, v0, (u1 - u0) as u32], height);
        if let Some(Some(table)) = self.solid_table.get_mut() {
            table.patch(&self.alpha, w, [u0, v0 as usize, u1, v1 as usize]);
        }
        if !self.padded.is_empty() {
            for v in v0 as usize..v1 as usize {
                let (from, to) = (v * w, v * (w + 1));
                self.padded[to + u0..to + u1].copy_from_slice(&self.alpha[from + u0..from + u1]);
            }
        }
        if let Some(hull) = &mut self.hull {
            hull.grow(self.width, &self.alpha, [u0 as u32, v0, u1 as u32, v1]);
        }
        if let Some(cores) = &mut self.cores {
            // A block reads its texel and the next: the blocks before the rectangle too.
            let before = i32::from(!self.blocks.is_empty());
            let [u0, v0, u1, v1] = [u0 as i32, v0 as i32, u1 as i32, v1 as i32];
            cores.drop_touching([u0 - before, v0 - before, u1, v1]);
        }
        if !self.blocks.is_empty() {
            let size = (self.width, self.height);
            self.blocks
                .patch(&self.alpha, size, [u0 as u32, v0, u1 as u32, v1]);
        }
        let read = ((u1 - u0) * (v1 - v0) as usize) as u64;
        #[cfg(test)]
        count_made(read);
        read
    }

    /// One more cache entry holds it: its bytes when no entry held it before (to be
    /// counted now), else 0.
    pub fn held_by_entry(&self) -> usize {
        match self.cache_holders.fetch_add(1, Ordering::AcqRel) {
            0 => self.bytes(),
            _ => 0,
        }
    }

    /// A cache entry holding it left: its bytes when no entry holds it any more (to be
    /// given back now), else 0.
    pub fn let_go_by_entry(&self) -> usize {
        match self.cache_holders.fetch_sub(1, Ordering::AcqRel) {
            1 => self.bytes(),
            _ => 0,
        }
    }

    /// Its bytes if no cache entry holds it now: what keeping one more entry of it may add.
    pub fn bytes_if_unheld(&self) -> usize {
        match self.cache_holders.load(Ordering::Acquire) {
            0 => self.bytes(),
            _ => 0,
        }
    }

    /// Bytes it holds: the alphas, the run table, the solid octagons, the blocks, the
    /// padded alphas, the solid hull and cores, and the solid table (made or not).
    pub fn bytes(&self) -> usize {
        SolidOutlines::BYTES
            + SolidTable::bytes_for(self.alpha.len())
            + self.alpha.capacity()
            + self.blocks.bytes()
            + self.hull.as_ref().map_or(0, |o| o.bytes())
            + self.cores.as_ref().map_or(0, |c| c.bytes())
            + self.padded.len()
            + self.runs.capacity() * std::mem::size_of::<(u32, u32)>()
            + self.run_starts.capacity() * std::mem::size_of::<u32>()
    }

    /// The runs of texels with alpha above 0 in texel row `v`.
    fn row_runs(&self, v: usize) -> &[(u32, u32)] {
        &self.runs[self.run_starts[v] as usize..self.run_starts[v + 1] as usize]
    }

    fn at(&self, u: i64, v: i64) -> u8 {
        self.alpha[v as usize * self.width as usize + u as usize]
    }

    /// Column `u` clamped into the bitmap.
    fn clamp_u(&self, u: i128) -> i64 {
        u.clamp(0, i128::from(self.width) - 1) as i64
    }

    fn clamp_v(&self, v: i128) -> i64 {
        v.clamp(0, i128::from(self.height) - 1) as i64
    }

    /// Whether the fixed-point point `(u, v)` is inside the bitmap.
    #[cfg(test)]
    pub fn contains(&self, (u, v): (i128, i128)) -> bool {
        u >= 0
            && v >= 0
            && u < i128::from(self.width) << TEXEL_BITS
            && v < i128::from(self.height) << TEXEL_BITS
    }

    /// The texel under the fixed-point point `(u, v)`, clamped into the bitmap.
    #[cfg(test)]
    pub fn clamped(&self, (u, v): (i128, i128)) -> u8 {
        self.at(self.clamp_u(u >> TEXEL_BITS), self.clamp_v(v >> TEXEL_BITS))
    }

    /// The bilinear interpolation at the fixed-point point `(u, v)` of the clamped texels'
    /// alphas, texel centres at integer + 1/2: weights from the fixed-point fractions of
    /// `u - 1/2` and `v - 1/2`, summed exactly in units of 2^-64 and rounded once (half up).
    pub fn smoothed(&self, (u, v): (i128, i128)) -> u8 {
        let (qu, qv) = (u - TEXEL / 2, v - TEXEL / 2);
        let (fu, fv) = (qu >> TEXEL_BITS, qv >> TEXEL_BITS);
        let (tu, tv) = ((qu & (TEXEL - 1)) as u128, (qv & (TEXEL - 1)) as u128);
        let (u0, u1) = (self.clamp_u(fu), self.clamp_u(fu + 1));
        let (v0, v1) = (self.clamp_v(fv), self.clamp_v(fv + 1));
        let t = |u, v| u128::from(self.at(u, v));
        let one = TEXEL as u128;
        let top = t(u0, v0) * (one - tu) + t(u1, v0) * tu;
        let bottom = t(u0, v1) * (one - tu) + t(u1, v1) * tu;
        let sum = top * (one - tv) + bottom * tv;
        ((sum + (1 << 63)) >> 64) as u8
    }
}

/// A bitmap pose's inverse mapping in fixed point (semantics.md 4.5): pixel `(i, j)`,
/// relative to the item's anchor, has its centre at `origin + i col0 + j col1` in texels,
/// in units of 2^-32 texel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct TexelMap {
    pub origin: (i64, i64),
    pub col0: (i64, i64),
    pub col1: (i64, i64),
}

/// `v` texels in units of 2^-32, rounded to nearest, ties away from zero; `None` when out
/// of range (or not a number).
fn to_fixed(v: f64) -> Option<i64> {
    // From 2^52 up every float is whole, so `|round(f)| < 2^63` exactly when `|f| < 2^63`:
    // the check comes first and the rounding needs no library call.
    let f = v * TEXEL as f64;
    (f.abs() < MAX_FIXED).then(|| round_small(f))
}

impl TexelMap {
    /// The mapping of a bitmap whose matrix relative to its anchor is `rel` (its
    /// translation is the fractional part `f` of the item's, each in [0, 1)). `None` when
    /// the linear part cannot be inverted or its inverse reaches 2^31 texels per pixel.
    ///
    /// In f64, as the contract spells out: `inverse(L) = adjugate(L) x (1 / det L)` with
    /// `det L = a d - b c`; `origin = inverse(L) x (0.5 - fx, 0.5 - fy)`; each then rounded
    /// to 2^-32 texel.
    pub fn new(rel: &DAffine2) -> Option<TexelMap> {
        let [a, b, c, d, tx, ty] = rel.to_cols_array();
        let det = a * d - b * c;
        if det == 0.0 || !det.is_finite() {
            return None;
        }
        let r = 1.0 / det;
        // Columns of inverse(L) = [[d, -c], [-b, a]] / det.
        let (c0, c1) = ((d * r, -b * r), (-c * r, a * r));
        let (px, py) = (0.5 - tx, 0.5 - ty);
        let origin = (c0.0 * px + c1.0 * py, c0.1 * px + c1.1 * py);
        Some(TexelMap {
            origin: (to_fixed(origin.0)?, to_fixed(origin.1)?),
            col0: (to_fixed(c0.0)?, to_fixed(c0.1)?),
            col1: (to_fixed(c1.0)?, to_fixed(c1.1)?),
        })
    }

    /// Where the centre of pixel `(i, j)` (relative to the anchor) falls, in 2^-32 texel.
    pub fn at(&self, i: i64, j: i64) -> (i128, i128) {
        let (i, j) = (i128::from(i), i128::from(j));
        (
            i128::from(self.origin.0) + i * i128::from(self.col0.0) + j * i128::from(self.col1.0),
            i128::from(self.origin.1) + i * i128::from(self.col0.1) + j * i128::from(self.col1.1),
        )
    }
}

/// The steps `k` in `0..n` where `lo <= s + k d < hi` (either bound may be absent), as a
/// range `(first, end)`, empty when `first >= end`.
pub(crate) fn steps_within(s: i128, d: i128, lo: Option<i128>, hi: Option<i128>, n: i64) -> (i64, i64) {
    // In i64 where everything fits (nearly always): an i128 division is a library call.
    const FITS: i128 = 1 << 62;
    let fits = |v: Option<i128>| v.is_none_or(|v| v.abs() < FITS);
    if s.abs() < FITS && d.abs() < FITS && fits(lo) && fits(hi) {
        let (s, d) = (s as i64, d as i64);
        let (lo, hi) = (lo.map(|v| v as i64), hi.map(|v| v as i64));
        return steps_within_by(s, d, lo, hi, n, i64::div_euclid);
    }
    let (first, end) = steps_within_by(s, d, lo, hi, i128::from(n), i128::div_euclid);
    (first as i64, end as i64)
}

/// [`steps_within`] in the integer type `T`, with its floor division `floor_div` (for a
/// positive divisor).
fn steps_within_by<T>(s: T, d: T, lo: Option<T>, hi: Option<T>, n: T, floor_div: fn(T, T) -> T) -> (T, T)
where
    T: Copy
        + Ord
        + From<i8>
        + std::ops::Sub<Output = T>
        + std::ops::Add<Output = T>
        + std::ops::Neg<Output = T>,
{
    let (zero, one) = (T::from(0), T::from(1));
    let ceil_div = |a: T, b: T| -floor_div(-a, b);
    let (mut first, mut end) = (zero, n);
    if d == zero {
        let inside = lo.is_none_or(|lo| s >= lo) && hi.is_none_or(|hi| s < hi);
        return if inside { (zero, n) } else { (zero, zero) };
    }
    if d > zero {
        if let Some(lo) = lo {
            first = first.max(ceil_div(lo - s, d));
        }
        if let Some(hi) = hi {
            end = end.min(ceil_div(hi - s, d));
        }
    } else {
        if let Some(lo) = lo {
            end = end.min(floor_div(s - lo, -d) + one);
        }
        if let Some(hi) = hi {
            first = first.max(floor_div(s - hi, -d) + one);
        }
    }
    (first.clamp(zero, n), end.clamp(zero, n))
}

/// Appends a run, or lets the last one go on when the value is the same.
pub(crate) fn push_run(runs: &mut Vec<(i64, u8)>, x: i64, v: u8) {
    if runs.last().is_none_or(|&(_, last)| last != v) {
        runs.push((x, v));
    }
}

/// `value * coverage`, coverage in units of 2^32 (clamped to 0..=2^32), rounded.
pub(crate) fn times_coverage(value: u8, coverage: i64) -> u8 {
    const ONE: i64 = 1 << 32;
    let c = coverage.clamp(0, ONE);
    ((i64::from(value) * c + ONE / 2) >> 32) as u8
}

/// A bitmap in one pose: what a row of its values is computed from.
#[derive(Clone, Copy)]
pub(crate) struct BitmapPose<'a> {
    pub texels: &'a Texels,
    pub map: &'a TexelMap,
    pub smoothing: bool,
}

/// Pixels of one row whose texels are read while stepping, with how a texel becomes a
/// value there.
#[derive(Clone, Copy)]
enum Reading {
    /// The centre rule: the texel where the centre is inside the bitmap, else 0.
    Inside,
    /// Anti-aliased: the clamped texel times the quad's coverage `c` (2^32 a pixel).
    Clamped(i64),
}

impl BitmapPose<'_> {
    /// Appends to `runs` the values of row `j` (relative to the anchor) over columns
    /// `x0..x1`, as `(first column, value)` runs (see [`push_run`]). `coverage` is, with
    /// anti-aliasing, the coverage runs of the bitmap's quad over those columns
    /// (`(first column, coverage)`, the last lasting until `x1`); without it, `None`.
    pub fn row(
        &self,
        j: i64,
        (x0, x1): (i64, i64),
        coverage: Option<&[(i64, i64)]>,
        runs: &mut Vec<(i64, u8)>,
    ) {
        match coverage {
            Some(coverage) => {
                for (k, &(xa, c)) in coverage.iter().enumerate() {
                    let xb = coverage.get(k + 1).map_or(x1, |r| r.0).min(x1);
                    if xa >= xb {
                        continue;
                    }
                    match c > 0 {
                        true => self.segment(j, xa, xb, Reading::Clamped(c), runs),
                        false => push_run(runs, xa, 0),
                    }
                }
            }
            None => {
                // The pixels whose centre is inside the bitmap: one interval of the row.
                let (w, h) = (i128::from(self.texels.width), i128::from(self.texels.height));
                let (u, v) = self.map.at(x0, j);
                let (du, dv) = (i128::from(self.map.col0.0), i128::from(self.map.col0.1));
                let n = x1 - x0;
                let across = steps_within(u, du, Some(0), Some(w << TEXEL_BITS), n);
                let down = steps_within(v, dv, Some(0), Some(h << TEXEL_BITS), n);
                let (a, b) = (across.0.max(down.0), across.1.min(down.1));
                if a >= b {
                    push_run(runs, x0, 0);
                    return;
                }
                if a > 0 {
                    push_run(runs, x0, 0);
                }
                self.segment(j, x0 + a, x0 + b, Reading::Inside, runs);
                if x0 + b < x1 {
                    push_run(runs, x0 + b, 0);
                }
            }
        }
    }

    /// The values of columns `xa..xb` of row `j`, every centre there read as `reading`
    /// says (with [`Reading::Inside`], all inside the bitmap).
    fn segment(&self, j: i64, xa: i64, xb: i64, reading: Reading, runs: &mut Vec<(i64, u8)>) {
        let value = |texel: u8| match reading {
            Reading::Inside => texel,
            Reading::Clamped(c) => times_coverage(texel, c),
        };
        let t = self.texels;
        let (du, dv) = (i128::from(self.map.col0.0), i128::from(self.map.col0.1));
        let (mut u, mut v) = self.map.at(xa, j);
        if self.smoothing {
            for x in xa..xb {
                let s = t.smoothed((u, v));
                push_run(runs, x, value(s));
                u += du;
                v += dv;
            }
            return;
        }
        // The run table pays where a row of pixels stays on a texel row for several pixels
        // and crosses each texel in more than one: elsewhere a division costs more than the
        // pixels it would skip, and the row is stepped pixel by pixel.
        if dv.abs() * MIN_PIECE >= TEXEL || du.abs() * 2 >= TEXEL {
            self.step_pixels(xa, xb, (u, v), (du, dv), value, runs);
            return;
        }
        let (w, h) = (i64::from(t.width), i64::from(t.height));
        let mut x = xa;
        while x < xb {
            // The pixels from `x` on that read texel row `tv` (clamped: the first and last
            // rows stand for everything above and below).
            let tv = t.clamp_v(v >> TEXEL_BITS);
            let lo = (tv > 0).then(|| i128::from(tv) << TEXEL_BITS);
            let hi = (tv < h - 1).then(|| i128::from(tv + 1) << TEXEL_BITS);
            let row_end = x + steps_within(v, dv, lo, hi, xb - x).1.max(1);
            let n = row_end - x;
            // Its runs of opaque texels, in the order the row meets them.
            let row = t.row_runs(tv as usize);
            let mut at = 0;
            let mut each = |r0: u32, r1: u32| {
                let lo = (r0 > 0).then(|| i128::from(r0) << TEXEL_BITS);
                let hi = (i64::from(r1) < w).then(|| i128::from(r1) << TEXEL_BITS);
                let (a, b) = steps_within(u, du, lo, hi, n);
                if a >= b {
                    return;
                }
                if a > at {
                    push_run(runs, x + at, value(0));
                }
                let base = tv as usize * w as usize;
                let mut uu = u + i128::from(a) * du;
                for k in a..b {
                    let tu = t.clamp_u(uu >> TEXEL_BITS);
                    push_run(runs, x + k, value(t.alpha[base + tu as usize]));
                    uu += du;
                }
                at = b;
            };
            if du >= 0 {
                row.iter().for_each(|&(r0, r1)| each(r0, r1));
            } else {
                row.iter().rev().for_each(|&(r0, r1)| each(r0, r1));
            }
            if at < n {
                push_run(runs, x + at, value(0));
            }
            u += i128::from(n) * du;
            v += i128::from(n) * dv;
            x = row_end;
        }
    }

    /// The values of columns `xa..xb` of a row whose first centre is at `(u, v)`, stepped
    /// by `(du, dv)` and read pixel by pixel (clamped; the caller keeps centres inside
    /// where that matters).
    fn step_pixels(
        &self,
        xa: i64,
        xb: i64,
        (u, v): (i128, i128),
        (du, dv): (i128, i128),
        value: impl Fn(u8) -> u8,
        runs: &mut Vec<(i64, u8)>,
    ) {
        let t = self.texels;
        let n = i128::from(xb - xa);
        let (ue, ve) = (u + n * du, v + n * dv);
        const FITS: i128 = 1 << 62;
        if [u, v, ue, ve].iter().all(|c| c.abs() < FITS) {
            // In i64: every centre of the row lies between its ends.
            let (w1, h1) = (i64::from(t.width) - 1, i64::from(t.height) - 1);
            let (mut u, mut v, du, dv) = (u as i64, v as i64, du as i64, dv as i64);
            let w = t.width as usize;
            for x in xa..xb {
                let tu = (u >> TEXEL_BITS).clamp(0, w1) as usize;
                let tv = (v >> TEXEL_BITS).clamp(0, h1) as usize;
                push_run(runs, x, value(t.alpha[tv * w + tu]));
                u += du;
                v += dv;
            }
            return;
        }
        let (mut u, mut v) = (u, v);
        for x in xa..xb {
            let texel = t.at(t.clamp_u(u >> TEXEL_BITS), t.clamp_v(v >> TEXEL_BITS));
            push_run(runs, x, value(texel));
            u += du;
            v += dv;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// Each block's least and greatest alpha and its four texels, by reading the texels one
    /// by one.
    fn blocks_by_hand(w: usize, h: usize, alpha: &[u8]) -> (Vec<[u8; 2]>, Vec<[u8; 4]>) {
        let (mut ranges, mut quads) = (Vec::new(), Vec::new());
        let (w, h) = (w as i64, h as i64);
        for j in -2..=h {
            for i in -2..=w {
                let read = |u: i64, v: i64| alpha[(v.min(h - 1).max(0) * w + u.min(w - 1).max(0)) as usize];
                let four = [(0, 0), (1, 0), (0, 1), (1, 1)].map(|(a, b)| read(i + a, j + b));
                let outside = i < -1 || j < -1 || i >= w || j >= h;
                let four = if outside { [0; 4] } else { four };
                ranges.push([*four.iter().min().unwrap(), *four.iter().max().unwrap()]);
                quads.push(four);
            }
        }
        (ranges, quads)
    }

    /// Each renderer's source keeps its own table and not the other's, every byte counted,
    /// and both follow the texels through edits: a `rotate` source the padded alpha (one
    /// byte a texel), a `rotozoom` source the blocks (six bytes a texel: the range and the
    /// four alphas), both the solid hull.
    #[test]
    fn each_renderers_tables_follow_the_texels_through_edits() {
        let mut rng = super::super::test_rng::Rng(0x9e37_79b9_7f4a_7c15);
        let mut next = |n: u64| rng.below(n as i64) as u64;
        let (mut blocks, mut padded) = (0, 0);
        for _ in 0..300 {
            let (w, h) = (1 + next(9) as u32, 1 + next(9) as u32);
            let mut rgba: Vec<u8> = (0..w * h * 4)
                .map(|_| [0, 255, next(256) as u8][next(3) as usize])
                .collect();
            let bitmap = Bitmap::from_rgba8(w, h, rgba.clone()).unwrap();
            let made = |op| Texels::new(&bitmap, &ColorTransform::IDENTITY).for_renderer(op);
            let (mut rotate, mut zoom) = (made(PygameOp::Rotate), made(PygameOp::Rotozoom));
            let plain = Texels::new(&bitmap, &ColorTransform::IDENTITY);
            let outline =
                |t: &Texels| t.hull().map_or(0, SolidHull::bytes) + t.cores().map_or(0, SolidCores::bytes);
            assert!(outline(&rotate) > 0 && outline(&zoom) > 0);
            let (texels, blocks_kept) = (((w + 1) * (h + 1)) as usize, ((w + 3) * (h + 3)) as usize);
            assert_eq!(rotate.bytes(), plain.bytes() + outline(&rotate) + texels);
            assert_eq!(zoom.bytes(), plain.bytes() + outline(&zoom) + 6 * blocks_kept);
            let padded_by_hand = |alpha: &[u8]| -> Vec<u8> {
                let mut p = vec![0u8; ((w + 1) * (h + 1)) as usize];
                for (k, &a) in alpha.iter().enumerate() {
                    p[k / w as usize * (w as usize + 1) + k % w as usize] = a;
                }
                p
            };
            for _ in 0..20 {
                let alpha: Vec<u8> = rgba.chunks_exact(4).map(|p| p[3]).collect();
                let (ranges, quads) = blocks_by_hand(w as usize, h as usize, &alpha);
                assert_eq!(&zoom.blocks().ranges[..], &ranges[..]);
                assert_eq!(&zoom.blocks().quads[..], &quads[..]);
                assert_eq!(rotate.padded(), &padded_by_hand(&alpha)[..]);
                // Neither grows the other's table through an edit.
                assert!(rotate.blocks().is_empty() && zoom.padded().is_empty());
                assert!(rotate.alpha == alpha && zoom.alpha == alpha);
                // A core kept through the edits covers only cells solid at its level: the
                // centre of every cell inside it, at the level's lowest threshold.
                let least: Vec<u8> = ranges.iter().map(|r| r[0]).collect();
                let padded_now = padded_by_hand(&alpha);
                for (t, values, cells, origin) in [
                    (&rotate, &padded_now[..], (w + 1, h + 1), 0),
                    (&zoom, &least[..], (w + 3, h + 3), -2),
                ] {
                    let cores = t.cores().unwrap();
                    for threshold in [1, 128, 255] {
                        let core = cores.core(threshold).vertices;
                        {
                            for (k, &value) in values.iter().enumerate() {
                                let (i, j) = (
                                    (k as u32 % cells.0) as i64 + origin,
                                    (k as u32 / cells.0) as i64 + origin,
                                );
                                let centre = (2 * i + 1, 2 * j + 1);
                                let n = core.len();
                                let inside = n >= 3
                                    && (0..n).all(|e| {
                                        let (a, b) = (
                                            core[e].map(|x| 2 * i64::from(x)),
                                            core[(e + 1) % n].map(|x| 2 * i64::from(x)),
                                        );
                                        (b[0] - a[0]) * (centre.1 - a[1]) - (b[1] - a[1]) * (centre.0 - a[0])
                                            > 0
                                    });
                                assert!(
                                    !inside || value >= threshold,
                                    "cell ({i}, {j}) in {core:?} at {threshold}"
                                );
                            }
                        }
                    }
                }
                blocks += zoom.blocks().ranges.len();
                padded += rotate.padded().len();
                let (u0, v0) = (next(u64::from(w)) as u32, next(u64::from(h)) as u32);
                let (u1, v1) = (
                    u0 + 1 + next(u64::from(w - u0)) as u32,
                    v0 + 1 + next(u64::from(h - v0)) as u32,
                );
                for v in v0..v1 {
                    for u in u0..u1 {
                        rgba[((v * w + u) * 4 + 3) as usize] = [0, 255, next(256) as u8][next(3) as usize];
                    }
                }
                let edited = Bitmap::from_rgba8(w, h, rgba.clone()).unwrap();
                for t in [&mut rotate, &mut zoom] {
                    t.patch_rect(&edited, &ColorTransform::IDENTITY, [u0, v0, u1, v1]);
                }
            }
        }
        assert!(
            blocks > 50_000 && padded > 30_000,
            "{blocks} blocks, {padded} padded texels"
        );
    }

    /// `to_fixed` is the library's round with its range check, over values of every size
    /// around the limit, halves of a unit, and values that are not finite.
    #[test]
    fn to_fixed_is_the_library_round() {
        let library = |v: f64| {
            let f = (v * TEXEL as f64).round();
            (f.abs() < MAX_FIXED).then_some(f as i64)
        };
        let unit = 1.0 / TEXEL as f64;
        let mut seed = 0x8c3f_21d7_45e9_a601_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut values = vec![
            f64::NAN,
            f64::INFINITY,
            -f64::INFINITY,
            2f64.powi(31),
            -2f64.powi(31),
        ];
        for _ in 0..20_000 {
            let mag = f64::from((next() % 96) as u32).exp2() * unit;
            let v = ((next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2.0 * mag;
            values.extend([v, ((v / unit).trunc() + 0.5) * unit]);
        }
        for v in values {
            assert_eq!(to_fixed(v), library(v), "{v}");
        }
    }

    fn texels() -> Texels {
        Texels::from_alpha(2, 2, vec![0, 100, 200, 255])
    }

    fn fixed(u: f64, v: f64) -> (i128, i128) {
        ((u * TEXEL as f64) as i128, (v * TEXEL as f64) as i128)
    }

    #[test]
    fn reading_clamps_and_tests_the_texel() {
        let t = texels();
        assert!(t.contains(fixed(1.5, 0.2)));
        assert!(!t.contains(fixed(2.0, 0.2)));
        assert!(!t.contains((-1, 1 << 32)));
        assert_eq!(t.clamped(fixed(1.5, 0.2)), 100);
        assert_eq!(t.clamped(fixed(-3.0, 9.0)), 200);
    }

    #[test]
    fn smoothing_interpolates_between_texel_centres() {
        let t = texels();
        assert_eq!(t.smoothed(fixed(0.5, 0.5)), 0);
        assert_eq!(t.smoothed(fixed(1.0, 0.5)), 50);
        assert_eq!(t.smoothed(fixed(1.0, 1.0)), 139); // (0 + 100 + 200 + 255) / 4 = 138.75
        assert_eq!(t.smoothed(fixed(-5.0, 1.5)), 200);
    }

    #[test]
    fn coverage_scales_the_value_with_rounding() {
        const ONE: i64 = 1 << 32;
        assert_eq!(times_coverage(255, ONE), 255);
        assert_eq!(times_coverage(255, ONE / 2), 128);
        assert_eq!(times_coverage(100, ONE / 4), 25);
        assert_eq!(times_coverage(255, -5), 0);
        assert_eq!(times_coverage(255, ONE + 7), 255);
    }

    #[test]
    fn the_run_table_holds_each_rows_opaque_texels() {
        let t = Texels::from_alpha(5, 2, vec![0, 3, 9, 0, 1, 7, 7, 7, 7, 7]);
        assert_eq!(t.row_runs(0), &[(1, 3), (4, 5)]);
        assert_eq!(t.row_runs(1), &[(0, 5)]);
        // The outlines: eight u32 bounds for each of 256 thresholds.
        assert_eq!(SolidOutlines::BYTES, 8192);
        // The outlines, the alphas, the runs and their starts, and the solid table (16).
        assert_eq!(t.bytes(), 8192 + 10 + 3 * 8 + 3 * 4 + 16);
        assert_eq!(t.solid_box(1), Some([0, 0, 5, 2]));
        assert_eq!(t.solid_box(8), Some([2, 0, 3, 1]));
        assert_eq!(t.solid_box(10), None);
    }

    #[test]
    fn the_mapping_rounds_to_the_fixed_point_and_steps_exactly() {
        // Scale 2, translation (0.25, 0.75): inverse 1/2, origin (0.125, -0.125) texel.
        let m = DAffine2::from_cols_array(&[2.0, 0.0, 0.0, 2.0, 0.25, 0.75]);
        let map = TexelMap::new(&m).unwrap();
        assert_eq!(map.col0, (1 << 31, 0));
        assert_eq!(map.col1, (0, 1 << 31));
        assert_eq!(map.origin, (1 << 29, -(1 << 29)));
        assert_eq!(map.at(3, -2), ((3 << 31) + (1 << 29), -(2 << 31) - (1 << 29)));
        // A third of a texel is not a multiple of 2^-32: rounded to nearest.
        let third = TexelMap::new(&DAffine2::from_cols_array(&[3.0, 0.0, 0.0, 3.0, 0.5, 0.5])).unwrap();
        assert_eq!(third.col0.0, 1_431_655_765);
        assert_eq!(third.origin, (0, 0));
        // Squashed beyond 2^31 texels a pixel: nothing drawn.
        assert!(TexelMap::new(&DAffine2::from_cols_array(&[1e-10, 0.0, 0.0, 1.0, 0.0, 0.0])).is_none());
        assert!(TexelMap::new(&DAffine2::from_cols_array(&[1.0, 2.0, 2.0, 4.0, 0.0, 0.0])).is_none());
    }

    /// One pixel's value computed alone: its centre mapped on its own, no stepping, no
    /// run table.
    fn alone(pose: &BitmapPose<'_>, i: i64, j: i64, coverage: Option<i64>) -> u8 {
        let p = pose.map.at(i, j);
        let t = pose.texels;
        let texel = |p| {
            if pose.smoothing {
                t.smoothed(p)
            } else {
                t.clamped(p)
            }
        };
        match coverage {
            Some(c) if c > 0 => times_coverage(texel(p), c),
            Some(_) => 0,
            None if t.contains(p) => texel(p),
            None => 0,
        }
    }

    fn values(runs: &[(i64, u8)], (x0, x1): (i64, i64)) -> Vec<u8> {
        let mut out = Vec::new();
        for (k, &(x, v)) in runs.iter().enumerate() {
            let end = runs.get(k + 1).map_or(x1, |r| r.0);
            assert!(x >= x0 && end <= x1 && x < end, "run {x}..{end} in {x0}..{x1}");
            out.extend(std::iter::repeat_n(v, (end - x) as usize));
        }
        out
    }

    #[test]
    fn stepping_a_row_gives_every_pixel_computed_alone() {
        let mut seed = 0x9e37_79b9_7f4a_7c15u64;
        let mut next = move || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let mut unit = move || (next() >> 11) as f64 / (1u64 << 53) as f64;
        let mut checked = 0;
        for case in 0..4000 {
            let (w, h) = (1 + (unit() * 9.0) as u32, 1 + (unit() * 9.0) as u32);
            let alpha = (0..w * h)
                .map(|_| match (unit() * 4.0) as u32 {
                    0 | 1 => 0,
                    2 => 255,
                    _ => (unit() * 256.0) as u8,
                })
                .collect();
            let texels = Texels::from_alpha(w, h, alpha);
            let angle = match case % 4 {
                0 => (unit() - 0.5) * 1e-6,
                1 => std::f64::consts::FRAC_PI_2 + (unit() - 0.5) * 1e-6,
                2 => std::f64::consts::FRAC_PI_4 + (unit() - 0.5) * 1e-6,
                _ => unit() * std::f64::consts::TAU,
            };
            let scale = 10f64.powf(unit() * 4.0 - 2.0);
            let (s, c) = angle.sin_cos();
            let rel =
                DAffine2::from_cols_array(&[scale * c, scale * s, -scale * s, scale * c, unit(), unit()]);
            let Some(map) = TexelMap::new(&rel) else { continue };
            let pose = BitmapPose {
                texels: &texels,
                map: &map,
                smoothing: case % 3 == 0,
            };
            let reach = (f64::from(w.max(h)) * scale * 1.5) as i64 + 3;
            let j = (unit() * (2 * reach) as f64) as i64 - reach;
            let x0 = (unit() * (2 * reach) as f64) as i64 - reach;
            let x1 = x0 + 1 + (unit() * (2 * reach) as f64) as i64;
            // Coverage runs as the quad would give them: zero, partial and whole pixels.
            let cover = [0, 1 << 31, 1 << 32, 7, -3];
            let mut coverage = vec![(x0, cover[case % 5])];
            let mut x = x0;
            while x < x1 {
                x += 1 + (unit() * 6.0) as i64;
                if x < x1 {
                    coverage.push((x, cover[(unit() * 5.0) as usize]));
                }
            }
            for cov in [None, Some(&coverage)] {
                let mut runs = Vec::new();
                pose.row(j, (x0, x1), cov.map(|c| c.as_slice()), &mut runs);
                let got = values(&runs, (x0, x1));
                for (k, &v) in got.iter().enumerate() {
                    let i = x0 + k as i64;
                    let c = cov.map(|c| c.iter().rev().find(|r| r.0 <= i).unwrap().1);
                    assert_eq!(v, alone(&pose, i, j, c), "case {case}: pixel ({i}, {j}), {rel:?}");
                    checked += 1;
                }
            }
        }
        assert!(checked > 200_000, "{checked} pixels");
    }

    #[test]
    fn steps_within_finds_the_exact_interval() {
        for s in -20i128..20 {
            for d in -7i128..=7 {
                for (lo, hi) in [
                    (Some(-3), Some(5)),
                    (None, Some(2)),
                    (Some(4), None),
                    (None, None),
                ] {
                    let want: Vec<i64> = (0..9)
                        .filter(|&k| {
                            let x = s + i128::from(k) * d;
                            lo.is_none_or(|lo| x >= lo) && hi.is_none_or(|hi| x < hi)
                        })
                        .collect();
                    let (a, b) = steps_within(s, d, lo, hi, 9);
                    let got: Vec<i64> = (a..b).collect();
                    assert_eq!(got, want, "s {s} d {d} lo {lo:?} hi {hi:?}");
                }
            }
        }
    }
}
