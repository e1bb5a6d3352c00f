//! Alpha planes: a target's items composited (source-over, exactly rounded in u8) over a
//! region of the parent's grid, each item computed only where the region needs it.

use super::bitmap_bits::BitsBuffers;
use super::fill_bits::FillBuffers;
use super::item::Scratch;
use super::prepare::{ClipRegion, Item, Prepared};
use super::span_scan::{SpanScan, SpanTarget};
use crate::geom::rect::PixelRect;

/// `a * b / 255`, rounded to nearest, exact for all `a, b` in 0..=255.
pub(crate) fn mul255(a: u32, b: u32) -> u32 {
    let v = a * b + 128;
    (v + (v >> 8)) >> 8
}

/// Source-over of the alphas `src` onto `dst`. Returns whether any source pixel was not 0.
fn composite(dst: &mut [u8], src: &[u8]) -> bool {
    let mut any = false;
    for (d, &s) in dst.iter_mut().zip(src) {
        if s != 0 {
            let (s32, d32) = (u32::from(s), u32::from(*d));
            *d = (s32 + d32 - mul255(s32, d32)) as u8;
            any = true;
        }
    }
    any
}

/// Fills of at most this many edges are computed row by row where only some columns of a
/// row are needed: finding a row's edges again costs less than the columns saved.
const ROW_BY_ROW_EDGES: usize = 64;

/// Pixels of an item composited into a plane that count as one unit of work.
const COMPOSITE_PIXELS_PER_WORK: u128 = 64;

/// Draws targets into alpha planes, reusing its buffers from one call to the next.
#[derive(Default)]
pub(crate) struct Rasterizer {
    scratch: Scratch,
    /// A clipped item's values over its part of the region, and a clip's coverage there.
    clipped: Vec<u8>,
    cover: Vec<u8>,
}

/// Calls `f(y, values)` for each row of `part` (the parent's grid) of one item: slices of
/// a cached raster, or rows computed from its pose.
fn item_rows(
    scratch: &mut Scratch,
    item: &Item,
    part: PixelRect,
    anti_alias: bool,
    mut f: impl FnMut(i64, &[u8]),
) {
    let n = part.width() as usize;
    match item {
        Item::Raster { raster, anchor } => {
            let src_rect = raster.rect.moved(*anchor);
            let sw = src_rect.width() as usize;
            for y in part.y0..part.y1 {
                let s = (y - src_rect.y0) as usize * sw + (part.x0 - src_rect.x0) as usize;
                f(y, &raster.alpha[s..s + n]);
            }
        }
        Item::Shape { shape, anchor } => {
            let local = part.moved((-anchor.0, -anchor.1));
            shape.rows(local, anti_alias, scratch, |j, values| f(j + anchor.1, values));
        }
    }
}

/// Whether `outer` holds every pixel of `inner` (not empty).
fn contains(outer: &PixelRect, inner: &PixelRect) -> bool {
    outer.x0 <= inner.x0 && outer.y0 <= inner.y0 && inner.x1 <= outer.x1 && inner.y1 <= outer.y1
}

/// Composites `item` over `part` into `out`, a buffer of `part`'s own size.
fn item_into(scratch: &mut Scratch, item: &Item, part: PixelRect, anti_alias: bool, out: &mut [u8]) {
    let w = part.width() as usize;
    let (x0, y0) = (part.x0, part.y0);
    let p = item.extent().intersect(&part);
    if p.is_empty() {
        return;
    }
    let (dx, n) = ((p.x0 - x0) as usize, p.width() as usize);
    item_rows(scratch, item, p, anti_alias, |y, values| {
        let d = (y - y0) as usize * w + dx;
        composite(&mut out[d..d + n], values);
    });
}

impl Rasterizer {
    pub fn new() -> Rasterizer {
        Rasterizer::default()
    }

    /// Writes the alpha of `target` over `region` into `out` (row-major, `region.width()`
    /// per row). Returns whether any pixel is not zero.
    pub fn plane(&mut self, target: &Prepared, region: PixelRect, out: &mut [u8]) -> bool {
        out.fill(0);
        let w = region.width() as usize;
        let aa = target.anti_alias();
        let mut any = false;
        for (k, item) in target.items().iter().enumerate() {
            let clip = target.clip(k);
            let mut part = item.extent().intersect(&region);
            if let Some(c) = clip {
                part = part.intersect(&c.extent);
            }
            if part.is_empty() {
                continue;
            }
            // Compositing counts against the work budget too (a unit per 64 pixels): many
            // large items over a large window would otherwise take minutes (issue 12).
            let units = (part.area() / COMPOSITE_PIXELS_PER_WORK) as u64;
            // Regions solid over the whole part multiply by 255, which changes nothing:
            // they are left out (a part inside every region leaves out the whole list).
            let needed = |r: &ClipRegion| !contains(&r.solid, &part);
            let regions = match clip {
                Some(c) if !contains(&c.solid, &part) => c.regions().filter(|r| needed(r)).count() as u64,
                _ => 0,
            };
            self.scratch.add_work(units * (1 + 2 * regions));
            if self.scratch.over_budget() {
                return any;
            }
            let dx0 = (part.x0 - region.x0) as usize;
            let clip = clip.filter(|_| regions > 0);
            let Some(clip) = clip else {
                let n = part.width() as usize;
                item_rows(&mut self.scratch, item, part, aa, |y, values| {
                    let d = (y - region.y0) as usize * w + dx0;
                    any |= composite(&mut out[d..d + n], values);
                });
                continue;
            };
            // A clipped item: its values over its part, times each clip's coverage there
            // (the source-over union of the clip's pieces), rounded (semantics.md 6).
            let size = part.area() as usize;
            self.clipped.clear();
            self.clipped.resize(size, 0);
            item_into(&mut self.scratch, item, part, aa, &mut self.clipped);
            for r in clip.regions().filter(|r| needed(r)) {
                self.cover.clear();
                self.cover.resize(size, 0);
                for piece in &r.items {
                    item_into(&mut self.scratch, piece, part, aa, &mut self.cover);
                }
                for (v, &c) in self.clipped.iter_mut().zip(&self.cover) {
                    *v = mul255(u32::from(*v), u32::from(c)) as u8;
                }
            }
            let n = part.width() as usize;
            for (j, row) in self.clipped.chunks_exact(n).enumerate() {
                let d = (part.y0 - region.y0) as usize * w + j * w + dx0;
                any |= composite(&mut out[d..d + n], row);
            }
        }
        any
    }
}

/// The buffers of one two-target scan: kept per thread between queries, so that a frame
/// of many pairs does not allocate for each (they are scratch, not cache: emptied, and
/// shrunk after a query that grew them past [`KEPT_SCAN_BYTES`]).
#[derive(Default)]
pub(crate) struct ScanBuffers {
    pub raster: Rasterizer,
    pub a: SolidRows,
    pub b: SolidRows,
    pub hull: SolidRows,
    pub plane: Vec<u8>,
    pub spans: SpanScan,
    pub bits: BitsBuffers,
    pub fills: FillBuffers,
}

/// The most a thread keeps of a dense band between queries (a band is at most 2^16 px).
const KEPT_SCAN_BYTES: usize = BAND_PIXELS as usize;

thread_local! {
    /// Boxed: the buffers are a few hundred bytes of vectors' headers and counts, and
    /// moving them out and back by value cost two copies of that a pair (about 0.75 M
    /// instructions a frame of 1,000 rocks); a box moves as a pointer.
    static SCAN_BUFFERS: std::cell::RefCell<Option<Box<ScanBuffers>>> = const { std::cell::RefCell::new(None) };
}

/// Pixels of a dense band: what a target that is not a single fill is computed in at once.
const BAND_PIXELS: u64 = 1 << 16;

/// Rows of `region` in one dense band ([`BAND_PIXELS`] pixels, at least one row), as every
/// row scan bands a region (a pair's window, a target's whole mask).
pub(crate) fn dense_band_rows(region: PixelRect) -> u64 {
    (BAND_PIXELS / region.width().max(1)).max(1)
}

/// Runs `f` with this thread's scan buffers (fresh ones when they are in use, as in a
/// query nested in another), their work count started again for a new query.
pub(crate) fn with_scan_buffers<R>(f: impl FnOnce(&mut ScanBuffers) -> R) -> R {
    let mut buffers = SCAN_BUFFERS.with(|b| b.borrow_mut().take()).unwrap_or_default();
    buffers.raster.scratch.reset_work();
    buffers.spans.counts = Default::default();
    buffers.bits.reset_work();
    buffers.fills.reset_work();
    let result = f(&mut buffers);
    if buffers.plane.capacity() > KEPT_SCAN_BYTES {
        buffers.plane = Vec::new();
    }
    SCAN_BUFFERS.with(|b| *b.borrow_mut() = Some(buffers));
    result
}

/// What the bitmap kernel counted in the last query on this thread.
#[cfg(test)]
pub(crate) fn last_bits_counts() -> super::bitmap_bits::BitsCounts {
    SCAN_BUFFERS.with(|b| b.borrow().as_ref().map(|b| b.bits.counts).unwrap_or_default())
}

/// What the last scan on this thread counted: the span scan's rows and pixels, and the rows
/// and pixel areas coverage computed.
#[cfg(test)]
pub(crate) fn last_scan_counts() -> (super::span_scan::ScanCounts, super::coverage::AreaCounts) {
    SCAN_BUFFERS.with(|b| {
        b.borrow()
            .as_ref()
            .map(|b| (b.spans.counts, b.raster.area_counts()))
            .unwrap_or_default()
    })
}

/// The solid pixels of a target over a band of rows: intervals `[x0, x1)` per row.
#[derive(Default, Debug)]
pub(crate) struct SolidRows {
    intervals: Vec<(i64, i64)>,
    /// Where each row's intervals start in `intervals` (one more entry than rows).
    starts: Vec<usize>,
}

impl SolidRows {
    /// The intervals of the band's row `k`.
    pub fn row(&self, k: usize) -> &[(i64, i64)] {
        &self.intervals[self.starts[k]..self.starts[k + 1]]
    }

    pub fn is_empty(&self) -> bool {
        self.intervals.is_empty()
    }

    fn clear(&mut self) {
        self.intervals.clear();
        self.starts.clear();
        self.starts.push(0);
    }

    fn add(&mut self, x0: i64, x1: i64) {
        let row_started = self.starts.last() == Some(&self.intervals.len());
        match self.intervals.last_mut() {
            Some(last) if !row_started && last.1 == x0 => last.1 = x1,
            _ => self.intervals.push((x0, x1)),
        }
    }

    fn end_row(&mut self) {
        self.starts.push(self.intervals.len());
    }
}

impl Rasterizer {
    /// [`Error::WorkBudget`](crate::Error::WorkBudget) when the rows computed so far went over the work budget (their
    /// values are then not to be used), naming `what` was asked.
    pub fn check(&self, what: impl FnOnce() -> String) -> crate::Result<()> {
        super::coverage::check_work(self.scratch.over_budget(), self.scratch.work(), what)
    }

    /// For a target that is a single fill or bitmap, the columns of each row of `band` that it can
    /// touch, into `out`; `false` (and nothing written) for other targets.
    pub fn hulls(&mut self, target: &Prepared, band: PixelRect, out: &mut SolidRows) -> bool {
        let Some(item) = Self::single_item(target) else {
            return false;
        };
        let (shape, anchor) = item.shape();
        out.clear();
        let local = band.moved((-anchor.0, -anchor.1));
        let mut y = band.y0;
        shape.row_hulls(local, &mut self.scratch, |j, x0, x1| {
            while y < j + anchor.1 {
                out.end_row();
                y += 1;
            }
            out.add(x0 + anchor.0, x1 + anchor.0);
            out.end_row();
            y += 1;
        });
        while y < band.y1 {
            out.end_row();
            y += 1;
        }
        true
    }

    /// The item of a target that is a single unclipped item: what [`Rasterizer::span_scan`]
    /// compares. A whole raster counts as its pose ([`Item::shape`]): the compares choose
    /// their paths by the pose, so that a raster costs no more work than the pose would.
    pub fn single_item(target: &Prepared) -> Option<&Item> {
        match target.items() {
            [item] if !target.clipped() => Some(item),
            _ => None,
        }
    }

    /// Calls `emit(y, x0, x1)` for the runs of pixels of `window` solid in both single-shape
    /// targets ([`Rasterizer::single_shape`]), values computed only where both targets' row
    /// spans meet.
    pub fn span_scan(
        &mut self,
        scan: &mut SpanScan,
        window: PixelRect,
        targets: (SpanTarget, SpanTarget),
        anti_alias: bool,
        emit: impl FnMut(i64, i64, i64),
    ) {
        scan.run(window, targets, anti_alias, &mut self.scratch, emit);
    }

    /// Rows and pixel areas coverage computed since the query started.
    #[cfg(test)]
    pub fn area_counts(&self) -> super::coverage::AreaCounts {
        self.scratch.area_counts()
    }

    /// Whether `target`'s rows come as runs: a single fill, stroke or bitmap computed in the
    /// window (a bitmap's row costs its width there, but only the columns asked for), or
    /// read from its whole raster.
    pub fn has_runs(target: &Prepared) -> bool {
        Self::single_item(target).is_some()
    }

    /// The pixels of `target` whose alpha reaches `threshold` over `band`, row by row. A
    /// single fill is read as runs (work in proportion to its edges); anything else is
    /// composited into `plane` first, and so is everything with `dense`. With `only`, a single small fill computes each row
    /// only between the first and last pixel that `only` has in it (pixels elsewhere are
    /// not needed), and nothing in rows where `only` has none: every pixel's value is
    /// independent of the columns computed with it.
    #[allow(clippy::too_many_arguments)]
    pub fn solid_rows(
        &mut self,
        target: &Prepared,
        band: PixelRect,
        threshold: u8,
        dense: bool,
        plane: &mut Vec<u8>,
        out: &mut SolidRows,
        only: Option<&SolidRows>,
    ) {
        out.clear();
        if let (Some(item), Some(only)) = (Self::single_item(target), only)
            && item.shape().0.vertices() <= ROW_BY_ROW_EDGES
        {
            let (shape, anchor) = item.shape();
            let anchor = &anchor;
            let extent = shape.rect().moved(*anchor);
            let local = band.intersect(&extent).moved((-anchor.0, -anchor.1));
            // Each row between the first and last pixel `only` needs there.
            let need = |j: i64| {
                let row = only.row((j + anchor.1 - band.y0) as usize);
                let (first, last) = (row.first()?, row.last()?);
                let (x0, x1) = (first.0.max(extent.x0), last.1.min(extent.x1));
                (x0 < x1).then_some((x0 - anchor.0, x1 - anchor.0))
            };
            let mut y = band.y0;
            if let (false, Some(raster)) = (local.is_empty(), item.raster()) {
                for j in local.y0..local.y1 {
                    let Some(span) = need(j) else { continue };
                    while y < j + anchor.1 {
                        out.end_row();
                        y += 1;
                    }
                    raster.solid_runs(j, span, threshold, |x0, x1| out.add(x0 + anchor.0, x1 + anchor.0));
                    out.end_row();
                    y += 1;
                }
            } else if !local.is_empty() {
                shape.runs_in_spans(
                    local.y0..local.y1,
                    need,
                    target.anti_alias(),
                    &mut self.scratch,
                    |j, runs, end| {
                        while y < j + anchor.1 {
                            out.end_row();
                            y += 1;
                        }
                        for (k, &(x, v)) in runs.iter().enumerate() {
                            if v >= threshold {
                                let stop = runs.get(k + 1).map_or(end, |r| r.0);
                                out.add(x + anchor.0, stop + anchor.0);
                            }
                        }
                        out.end_row();
                        y += 1;
                    },
                );
            }
            while y < band.y1 {
                out.end_row();
                y += 1;
            }
            return;
        }
        if let Some(item) = Self::single_item(target)
            && !dense
        {
            let (shape, anchor) = item.shape();
            let anchor = &anchor;
            let part = shape.rect().moved(*anchor).intersect(&band);
            let mut y = band.y0;
            if let (false, Some(raster)) = (part.is_empty(), item.raster()) {
                let local = part.moved((-anchor.0, -anchor.1));
                for j in local.y0..local.y1 {
                    raster.solid_runs(j, (local.x0, local.x1), threshold, |x0, x1| {
                        out.add(x0 + anchor.0, x1 + anchor.0)
                    });
                    out.end_row();
                }
                y = part.y1;
            } else if !part.is_empty() {
                let local = part.moved((-anchor.0, -anchor.1));
                shape.runs_rows(local, target.anti_alias(), &mut self.scratch, |j, runs| {
                    while y < j + anchor.1 {
                        out.end_row();
                        y += 1;
                    }
                    for (k, &(x, v)) in runs.iter().enumerate() {
                        if v >= threshold {
                            let end = runs.get(k + 1).map_or(local.x1, |r| r.0);
                            out.add(x + anchor.0, end + anchor.0);
                        }
                    }
                    out.end_row();
                    y += 1;
                });
            }
            while y < band.y1 {
                out.end_row();
                y += 1;
            }
            return;
        }
        let w = band.width() as usize;
        plane.clear();
        plane.resize(w * band.height() as usize, 0);
        let any = self.plane(target, band, plane);
        for row in plane.chunks_exact(w) {
            if any {
                let mut x = 0;
                while x < w {
                    if row[x] >= threshold {
                        let start = x;
                        while x < w && row[x] >= threshold {
                            x += 1;
                        }
                        out.add(band.x0 + start as i64, band.x0 + x as i64);
                    }
                    x += 1;
                }
            }
            out.end_row();
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn mul255_rounds_exactly() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let want = ((a * b) as f64 / 255.0).round() as u32;
                assert_eq!(mul255(a, b), want, "{a} * {b}");
            }
        }
    }
}
