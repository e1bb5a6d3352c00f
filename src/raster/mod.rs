//! Drawing targets into alpha planes: the one definition of a pixel's value (semantics.md
//! 4.5), computed only where a query needs it.
//!
//! A target is a list of *items* (a fill, a stroke turned into its outline, or a bitmap),
//! each placed by its matrix to the query's parent. The steps, one file each:
//!
//! - [`edges`]: geometry snapping. Local geometry (flattened once per detail level and kept
//!   in the cache) is mapped by the item's matrix relative to its *anchor*, the whole-pixel
//!   part of its translation, and every vertex is put on the 1/256 px grid. Everything after
//!   reads only these integers, so an item's value at a pixel depends on the item and that
//!   pixel alone, and moving by whole pixels moves the anchor and nothing else.
//! - [`coverage`]: anti-aliased coverage, the exact area of the region by its fill rule in
//!   each pixel of a row, summed in fixed point.
//! - [`centres`]: without anti-aliasing, exact integer tests of the pixel centres.
//! - [`sample`]: bitmaps, the texel under each pixel centre in fixed point, stepped along
//!   rows exactly, transparent texels skipped by a per-bitmap run table.
//! - [`spans`]: each row's spans from the edges alone, stepped down the rows: where an item
//!   can be non-zero, and where it covers whole pixels with no area math.
//! - [`item`]: an item in a pose, and its values over any rows and columns.
//! - [`prepare`]: a query target's items, from the cache where they are: a pose seen once
//!   keeps its edges; a pose seen again is drawn whole and keeps its bit masks, which the
//!   word-by-word fast path compares.
//! - [`plane`]: items composited over a region, source-over in u8.
//! - [`span_scan`]: two single-item targets compared row by row, values computed only
//!   where both targets' spans meet.
//! - [`bitmap_bits`]: the frame engine's kernel: an unsmoothed bitmap pose's solid pixels
//!   written straight into a bit mask, a texel read per pixel, area math only on edges;
//!   [`row_steps`]: which centres of a row fall in a box of texels, a division a bound;
//!   [`row_bounds`]: the same for every row of a rectangle without anti-aliasing, from
//!   the sides that decide its rows only;
//!   [`solid_outline`]: per bitmap and threshold, an octagon around its solid texels;
//!   [`solid_table`]: its solid texels at one threshold as 0s and 1s, what the pixel loop
//!   reads.
//! - [`fill_bits`]: the same for a fill or a stroke outline: interior runs written as
//!   words, area math only on the columns an edge crosses, most rows without the sweep;
//!   [`strip_row`]: a row with vertices but no crossing, strip by strip in the sweep's
//!   arithmetic.
//! - [`bitmask`]: which pixels of a plane are solid, one bit per pixel, and the word-by-word
//!   overlap of two masks.
//! - [`pygame_item`]: a bitmap item with a renderer, its rows from the plan below;
//!   [`pygame_bits`]: its solid pixels written straight into a bit mask, the frame
//!   engine's kernel for it ([`solid_bits`] picks the kernel of an item;
//!   [`pygame_blocks`]: a `rotozoom` source's 2 x 2 blocks, range and alphas, that it reads);
//!   [`solid_hull`]: the convex hull of a bitmap's solid texels per level of alpha,
//!   which that kernel clips its rows with ([`pygame_outline`]: the hull seen from a
//!   surface's rows), and [`pygame_core`]: a convex polygon of solid cells per level,
//!   whose rows' pixels that kernel sets without reading them.
//! - [`pygame_plan`], [`pygame_rotate`], [`pygame_rotozoom`], [`pygame_texels`]: bitmaps as pygame's `rotate`
//!   and `rotozoom` draw them (semantics.md 4.9; the names are in `geom::renderer`), in
//!   pygame's own fixed-point steps, any row alone.
//! - [`whole_mask`]: a target's whole solid mask, made once per many-object query for a
//!   target many pairs read; [`spares`]: their buffers, and the `Arc`s of poses an age
//!   dropped, handed to the next frame to fill.
//! - [`cache`] and [`budget`]: what a stage keeps between queries, and what one query may
//!   hold (`region_tests`: a region of a shared image is cached as content of its own);
//!   [`bitmap_patch`]: an edit of a bitmap's texels carried into what the cache
//!   keeps of it, at the cost of the edited rectangle.
//! - [`texel_cover`]: which texels of a bitmap a path covers, for an edit.
//! - `test_rng`: the random numbers the raster tests draw from.
//!
//! tiny-skia is not used here: its anti-aliasing samples 4 x 4 points per pixel (up to
//! 50/255 off the area, and thin bars can vanish), and a window it draws alone differs from
//! the whole item it draws. It still draws the debug pictures and the literal Flash recipe.

mod bitmap_bits;
mod bitmap_patch;
pub(crate) mod bitmask;
mod budget;
mod cache;
mod centres;
mod coverage;
mod edges;
mod fill_bits;
mod item;
mod plane;
mod prepare;
mod pygame_bits;
mod pygame_blocks;
mod pygame_core;
mod pygame_item;
mod pygame_outline;
mod pygame_plan;
mod pygame_rotate;
mod pygame_rotozoom;
mod pygame_texels;
#[cfg(test)]
mod region_tests;
mod row_bounds;
mod row_steps;
mod sample;
mod solid_bits;
mod solid_hull;
mod solid_outline;
mod solid_table;
mod span_scan;
mod spans;
mod spares;
mod strip_row;
#[cfg(test)]
mod test_rng;
mod texel_cover;
mod whole_mask;

#[cfg(test)]
pub(crate) use bitmap_bits::BitsCounts;
pub(crate) use bitmap_bits::Within;
pub(crate) use bitmap_patch::EditWork;
pub(crate) use budget::{DrawBudget, MAX_QUERY_VERTICES};
#[cfg(test)]
pub(crate) use cache::CacheCounts;
#[cfg(test)]
pub(crate) use cache::PAIR_LOOKUPS;
pub(crate) use cache::{MaskRef, PairAnswer, PairKey, RasterCache, pair_key};
pub(crate) use fill_bits::{FillBits, Limit as FillLimit};
pub(crate) use plane::{Rasterizer, ScanBuffers, dense_band_rows, with_scan_buffers};
pub(crate) use prepare::{ClipShapes, Item, Prepared, RegionPiece, anchor_and_bits};
#[cfg(test)]
pub(crate) use prepare::{SERVED_FROM_CACHE, served_from_cache};
pub(crate) use pygame_item::rendered_surface;
pub(crate) use solid_bits::SolidBits;
pub(crate) use span_scan::{SpanTarget, pays as spans_pay};
pub(crate) use texel_cover::path_texels;
pub(crate) use whole_mask::whole_mask;
#[cfg(test)]
pub(crate) use {
    coverage::{AreaCounts, WORK_BUDGET_FOR_TESTS},
    fill_bits::LONE_FILL_PAIRS,
    plane::{last_bits_counts, last_scan_counts},
    sample::texels_made,
    span_scan::{FORCE as FORCE_SPANS, ScanCounts},
};
