//! A target's whole solid mask, made once per many-object query for a target that many
//! pairs read (docs/frame-engine.md, "Planning targets once per query"): a pair between two
//! such targets is then a shifted AND of words, whatever their poses.
//!
//! One unclipped item a kernel writes goes through it: an unsmoothed bitmap or a
//! pygame-rendered one ([`super::solid_bits`]), a fill or a stroke ([`super::fill_bits`]);
//! anything else through the same row scan every pair uses ([`Rasterizer::solid_rows`]),
//! its intervals written as runs of bits. Either way each pixel is the one the pair's own
//! path would compute: a pixel's value depends only on the item and the pixel
//! (semantics.md 4.5).

use super::bitmap_bits::Within;
use super::bitmask::BitMask;
use super::fill_bits::FillBits;
use super::plane::{Rasterizer, dense_band_rows, with_scan_buffers};
use super::prepare::Prepared;
use super::solid_bits::SolidBits;
use crate::Result;

/// Makes `mask` the solid pixels of `target` at `threshold` over everything it can touch,
/// in the parent's grid. `mask` may be a buffer that held another mask: every path resets
/// it first, so nothing of that is left. `what` names the target for a work-budget error.
///
/// # Errors
///
/// [`crate::Error::WorkBudget`] when its edges take more work than a query may do.
pub(crate) fn whole_mask(
    target: &Prepared,
    threshold: u8,
    what: impl Fn() -> String,
    mask: &mut BitMask,
) -> Result<()> {
    let Some(extent) = target.extent().filter(|e| !e.is_empty()) else {
        mask.reset(crate::geom::rect::PixelRect::default());
        return Ok(());
    };
    with_scan_buffers(|buffers| {
        if let Some(fill) = Rasterizer::single_item(target).and_then(|i| FillBits::of(i, threshold)) {
            fill.fill(extent, target.anti_alias(), None, &mut buffers.fills, mask);
            buffers.fills.check(&what)?;
            return Ok(());
        }
        if let Some(bits) =
            Rasterizer::single_item(target).and_then(|i| SolidBits::of(i, threshold, target.anti_alias()))
        {
            let done = bits.fill(extent, Within::All, &mut buffers.bits, mask);
            buffers.bits.check(&what)?;
            if done {
                return Ok(());
            }
        }
        mask.reset(extent);
        let band_rows = dense_band_rows(extent) as i64;
        let mut y0 = extent.y0;
        while y0 < extent.y1 {
            let band = crate::geom::rect::PixelRect {
                y0,
                y1: (y0 + band_rows).min(extent.y1),
                ..extent
            };
            let rows = &mut buffers.a;
            buffers
                .raster
                .solid_rows(target, band, threshold, false, &mut buffers.plane, rows, None);
            buffers.raster.check(&what)?;
            for (k, y) in (band.y0..band.y1).enumerate() {
                for &(x0, x1) in rows.row(k) {
                    let (x0, x1) = ((x0 - extent.x0) as usize, (x1 - extent.x0) as usize);
                    mask.set_run((y - extent.y0) as usize, x0, x1);
                }
            }
            y0 = band.y1;
        }
        Ok(())
    })
}
