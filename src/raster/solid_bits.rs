//! The frame engine's kernels by kind of item: whichever writes a single item's solid
//! pixels straight into a bit mask ([`BitmapBits`] for an unsmoothed bitmap pose,
//! [`PygameBits`] for a pygame-rendered bitmap), behind one face for the pair scan and a
//! target's whole mask.

use super::bitmap_bits::{BitmapBits, BitsBuffers, Within};
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
    /// The kernel for `item` at `threshold`, anti-aliased or not, `None` when no kernel
    /// writes it.
    pub fn of(item: &'a Item, threshold: u8, anti_alias: bool) -> Option<SolidBits<'a>> {
        BitmapBits::of(item, threshold, anti_alias)
            .map(SolidBits::Bitmap)
            .or_else(|| PygameBits::of(item, threshold).map(SolidBits::Pygame))
    }

    /// The pixels (the parent's grid) that can be solid.
    pub fn solid_extent(&self) -> PixelRect {
        match self {
            SolidBits::Bitmap(b) => b.solid_extent(),
            SolidBits::Pygame(p) => p.solid_extent(),
        }
    }

    /// Makes `mask` the item's solid pixels over `region`, as [`BitmapBits::fill`] does;
    /// `false` (the mask left empty) when the caller must take the general route.
    /// [`Within::Reach`] limits only a bitmap pose (a rendered one reads its whole rows).
    pub fn fill(
        &self,
        region: PixelRect,
        within: Within<'_>,
        bufs: &mut BitsBuffers,
        mask: &mut BitMask,
    ) -> bool {
        match self {
            SolidBits::Bitmap(b) => b.fill(region, within, bufs, mask),
            SolidBits::Pygame(p) => {
                // Its rows are read whole: no reach is kept to.
                bufs.reached = false;
                let within = match within {
                    Within::Mask(m) | Within::Reached(m) => Some(m),
                    Within::All | Within::Reach(_) => None,
                };
                p.fill(region, within, &mut bufs.counts, mask)
            }
        }
    }

    /// The bitmap pose, when it is one: what [`Within::Reach`] reads.
    pub fn bitmap(&self) -> Option<&BitmapBits<'a>> {
        match self {
            SolidBits::Bitmap(b) => Some(b),
            SolidBits::Pygame(_) => None,
        }
    }
}
