//! The frame engine's kernels by kind of item: whichever writes a single item's solid
//! pixels straight into a bit mask ([`BitmapBits`] for an unsmoothed bitmap pose,
//! [`PygameBits`] for a pygame-rendered bitmap), behind one face for the pair scan and a
//! target's whole mask.

use super::bitmap_bits::{BitmapBits, BitsBuffers};
use super::bitmask::BitMask;
use super::prepare::Item;
use super::pygame_bits::PygameBits;
use crate::geom::rect::PixelRect;

/// A single item that a kernel writes as bits.
#[derive(Clone, Copy)]
pub(crate) enum SolidBits<'a> {
    Bitmap(BitmapBits<'a>),
    Pygame(PygameBits<'a>),
}

impl<'a> SolidBits<'a> {
    /// The kernel for `item` at `threshold`, `None` when no kernel writes it.
    pub fn of(item: &'a Item, threshold: u8) -> Option<SolidBits<'a>> {
        BitmapBits::of(item, threshold)
            .map(SolidBits::Bitmap)
            .or_else(|| PygameBits::of(item, threshold).map(SolidBits::Pygame))
    }

    /// The pixels (the parent's grid) that can be solid.
    pub fn solid_extent(&self, anti_alias: bool) -> PixelRect {
        match self {
            SolidBits::Bitmap(b) => b.solid_extent(anti_alias),
            SolidBits::Pygame(p) => p.solid_extent(),
        }
    }

    /// Makes `mask` the item's solid pixels over `region`, as [`BitmapBits::fill`] does;
    /// `false` (the mask left empty) when the caller must take the general route.
    pub fn fill(
        &self,
        region: PixelRect,
        anti_alias: bool,
        within: Option<&BitMask>,
        bufs: &mut BitsBuffers,
        mask: &mut BitMask,
    ) -> bool {
        match self {
            SolidBits::Bitmap(b) => b.fill(region, anti_alias, within, bufs, mask),
            // The surface's pixels do not depend on anti-aliasing (semantics.md 4.9).
            SolidBits::Pygame(p) => p.fill(region, within, &mut bufs.counts, mask),
        }
    }
}
