//! The scans over two whole planes: the bit masks, the linear, incremental and sampled
//! scans.

use crate::geom::rect::PixelRect;
use crate::query::pipeline::Planes;
use crate::raster::bitmask::{BitMask, Overlap};

/// Width and height of the planes' window, as indices.
pub(super) fn dims(p: &Planes) -> (usize, usize) {
    (p.window.width() as usize, p.window.height() as usize)
}

/// The window's pixel at column `x`, row `y` of the planes (row-major offsets).
pub(super) fn pixel(p: &Planes, x: usize, y: usize) -> PixelRect {
    let (px, py) = (p.window.x0 + x as i64, p.window.y0 + y as i64);
    PixelRect {
        x0: px,
        y0: py,
        x1: px + 1,
        y1: py + 1,
    }
}

pub(super) fn union(acc: Option<PixelRect>, r: PixelRect) -> Option<PixelRect> {
    Some(acc.map_or(r, |a| PixelRect {
        x0: a.x0.min(r.x0),
        y0: a.y0.min(r.y0),
        x1: a.x1.max(r.x1),
        y1: a.y1.max(r.y1),
    }))
}

/// Both planes as bit masks, compared a word at a time.
pub(super) fn mask_overlap(p: &Planes, t: u8) -> Overlap {
    let (ma, mb) = (
        BitMask::from_plane(&p.a, p.window, t),
        BitMask::from_plane(&p.b, p.window, t),
    );
    ma.overlap_moved((0, 0), &mb, (0, 0), p.window)
}

/// Row by row until the first pixel solid in both; `(hit, pixel pairs visited)`.
pub(super) fn linear_scan(p: &Planes, t: u8) -> (bool, u64) {
    match p.a.iter().zip(&p.b).position(|(&va, &vb)| va >= t && vb >= t) {
        Some(i) => (true, i as u64 + 1),
        None => (false, p.a.len().min(p.b.len()) as u64),
    }
}

/// Every pixel, row by row: the overlap's rectangle and count.
pub(super) fn linear_overlap(p: &Planes, t: u8) -> (Option<PixelRect>, u64) {
    let (w, _) = dims(p);
    let mut rect = None;
    let mut count = 0u64;
    for (i, (&va, &vb)) in p.a.iter().zip(&p.b).enumerate() {
        if va >= t && vb >= t {
            count += 1;
            rect = union(rect, pixel(p, i % w, i / w));
        }
    }
    (rect, count)
}

/// The step of the incremental scan in a dimension of `size` pixels.
pub(super) fn incremental_step(size: usize) -> usize {
    if size < 4 { 1 } else { size.div_ceil(3) }
}

/// Play My Code's incremental scan; `(hit, pixel pairs visited)`.
pub(super) fn incremental_scan(p: &Planes, t: u8) -> (bool, u64) {
    let (w, h) = dims(p);
    let (sx, sy) = (incremental_step(w), incremental_step(h));
    let mut visited = 0u64;
    for ys in 0..sy {
        for xs in 0..sx {
            for y in (ys..h).step_by(sy) {
                let row = y * w;
                for x in (xs..w).step_by(sx) {
                    visited += 1;
                    if p.a[row + x] >= t && p.b[row + x] >= t {
                        return (true, visited);
                    }
                }
            }
        }
    }
    (false, visited)
}

/// The sample offsets of [`Method::Sampled`] in a dimension of `size` pixels: a step of
/// `n`, lowered to `size - 1` when the dimension is not larger than `n` (so both ends are
/// tested), on a grid centred in the dimension.
pub(super) fn sample_axis(size: usize, n: u32) -> impl Iterator<Item = usize> {
    let step = (n.max(1) as usize).min(size.saturating_sub(1)).max(1);
    let start = if size == 0 { 0 } else { ((size - 1) % step) / 2 };
    (start..size).step_by(step)
}

/// The "n-distributed" test; `(hit, pixel pairs visited)`.
pub(super) fn sampled_scan(p: &Planes, t: u8, n: u32) -> (bool, u64) {
    let (w, h) = dims(p);
    let mut visited = 0u64;
    for y in sample_axis(h, n) {
        let row = y * w;
        for x in sample_axis(w, n) {
            visited += 1;
            if p.a[row + x] >= t && p.b[row + x] >= t {
                return (true, visited);
            }
        }
    }
    (false, visited)
}
