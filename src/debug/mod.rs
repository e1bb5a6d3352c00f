//! Debug pictures: the scene as it appears in the root's space, with the pixels and
//! rectangles of collision queries drawn over it.
//!
//! This is for looking at answers, not for computing them: the scene is drawn with a colour per
//! query target (per top-level object when there is no query) so objects can be told apart
//! (the tree keeps coverage and alpha, not colours, because that is all a collision depends
//! on), and every query is redone with
//! [`Stage::collision`] (its answer) and the crate's own pixel scan (its overlap pixels), so
//! what the picture shows is exactly what the library answers, pixel for pixel.
//!
//! Small scenes are magnified with nearest sampling because the questions people bring are
//! about single pixels ("why does this corner count?"); the legend goes in a band below the
//! scene so that it never hides the pixels it explains; and the text uses a built-in 3 x 5
//! pixel font so that drawing a picture needs no font files.
//!
//! - [`query`]: what to draw (the queries, the options).
//! - [`picture`]: drawing a picture, step by step.
//! - [`frame`]: the part of the root's space a picture shows, its scale and zoom.
//! - [`colors`]: the colours of targets and overlays.
//! - [`scene`]: the scene's leaves, masks and overlap pixels, and the drawing helpers.
//! - [`labels`] and [`legend`]: the answers' number labels and the legend band.
//! - [`text`]: the built-in pixel font.

mod colors;
mod frame;
mod labels;
mod legend;
mod picture;
mod query;
mod scene;
#[cfg(test)]
mod tests;
mod text;

pub use picture::{debug_image, debug_image_with};
pub use query::{DEBUG_MAX_QUERIES, DebugOptions, DebugQuery};
