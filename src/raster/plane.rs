//! Alpha planes: a target's items composited (source-over, exactly rounded in u8) over a
//! region of the parent's grid, each item computed only where the region needs it.

use super::item::Scratch;
use super::prepare::{Item, Prepared};
use crate::rect::PixelRect;

/// The windows of `tile x tile` pixels (at multiples of `tile`) that cover `window`, row by
/// row, each cut to `window`.
pub(crate) fn chunks(window: PixelRect, tile: i64) -> impl Iterator<Item = PixelRect> {
    let t0x = window.x0.div_euclid(tile);
    let t0y = window.y0.div_euclid(tile);
    let t1x = (window.x1 - 1).div_euclid(tile);
    let t1y = (window.y1 - 1).div_euclid(tile);
    let rows = if window.is_empty() { 0..0 } else { t0y..t1y + 1 };
    rows.flat_map(move |ty| {
        (t0x..=t1x).map(move |tx| {
            PixelRect {
                x0: tx * tile,
                y0: ty * tile,
                x1: tx * tile + tile,
                y1: ty * tile + tile,
            }
            .intersect(&window)
        })
    })
}

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

/// Draws targets into alpha planes, reusing its buffers from one call to the next.
#[derive(Default)]
pub(crate) struct Rasterizer {
    scratch: Scratch,
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
        let mut any = false;
        for item in target.items() {
            let part = item.extent().intersect(&region);
            if part.is_empty() {
                continue;
            }
            let (dx0, n) = ((part.x0 - region.x0) as usize, part.width() as usize);
            match item {
                Item::Raster { raster, anchor } => {
                    let src_rect = raster.rect.moved(*anchor);
                    let sw = src_rect.width() as usize;
                    for y in part.y0..part.y1 {
                        let s = (y - src_rect.y0) as usize * sw + (part.x0 - src_rect.x0) as usize;
                        let d = (y - region.y0) as usize * w + dx0;
                        any |= composite(&mut out[d..d + n], &raster.alpha[s..s + n]);
                    }
                }
                Item::Shape { shape, anchor } => {
                    let local = part.moved((-anchor.0, -anchor.1));
                    shape.rows(local, target.anti_alias(), &mut self.scratch, |j, values| {
                        let d = (j + anchor.1 - region.y0) as usize * w + dx0;
                        any |= composite(&mut out[d..d + n], values);
                    });
                }
            }
        }
        any
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_negative_windows() {
        let w = PixelRect {
            x0: -130,
            y0: 5,
            x1: 1,
            y1: 6,
        };
        let t: Vec<_> = chunks(w, 128).collect();
        assert_eq!(t.len(), 3);
        assert_eq!((t[0].x0, t[0].x1), (-130, -128));
        assert_eq!((t[2].x0, t[2].x1), (0, 1));
    }

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
