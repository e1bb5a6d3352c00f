//! Flattening tolerances: how far a flattened curve (or a circle's polygon in a stroke's
//! joins and caps) may stray from the true one, in the pixels of the space it is flattened
//! in. Each use has its own, for its own reason; they are all here so that they can be
//! compared.

/// The rasterizer's (`raster/`): geometry is snapped to a 1/256 px grid after flattening,
/// and half a grid step keeps the flattening error under the snapping error, so finer
/// flattening would only add vertices. Also what decides how a stroke's outline is checked
/// against the vertex budget.
pub(crate) const RASTER: f64 = 1.0 / 128.0;

/// The literal Flash method's (`methods/flash.rs`): the same as the rasterizer's, so that
/// the two methods differ in how they draw, not in what geometry they draw.
pub(crate) const FLASH_METHOD: f64 = RASTER;

/// Point tests (`hit_test_point`, picking, and point tests against mask regions, which must
/// agree with them): a point is a single sample with no grid to hide in, so a point near a
/// curve is decided by the curve to 1/1024 px, finer than anything a pixel query can see.
pub(crate) const POINT_TEST: f64 = 1.0 / 1024.0;

/// Masks and scroll windows as tiny-skia masks (the Flash method's clips and the debug
/// pictures'): tiny-skia anti-aliases on a 4 x 4 grid of samples per pixel, so a quarter of
/// a sample step is below what it can show.
pub(crate) const SKIA_CLIP: f64 = 1.0 / 16.0;

/// Shapes in the debug pictures: a tenth of a picture pixel is invisible.
pub(crate) const DEBUG_SHAPE: f64 = 0.1;

/// Mask outlines in the debug pictures, drawn as 1 px lines: a quarter of a pixel is
/// invisible in a line.
pub(crate) const DEBUG_MASK_OUTLINE: f64 = 0.25;
