//! The classic collision methods, each selectable on the same display tree (issue 6).
//!
//! People come to pixel collision from one of a few well-known write-ups: bit masks, Play My
//! Code's per-pixel scans, summed-area tables, the Android "n-distributed" sampling, the
//! radial perimeter test and Flash's own `getCollisionRect` pipeline. Each is offered here as
//! a [`Method`] of [`Stage::collides`], measured against the default exact method (see the
//! methods table of docs/methods.md and `tests/integration/methods.rs`, which enforce the exactness claims).
//!
//! All methods that look at pixels go through the collision pipeline (`query/pipeline.rs`):
//! its setup checks that the targets are inside the parent and that their Flash bounds
//! overlap, and clips the pixel window to what both can touch, so that the methods differ
//! only in what they do with the two alpha planes. The radial test measures each object
//! alone through the same pipeline (`radial.rs`); the Flash pipeline has its own first step,
//! Flash's (`flash.rs`).
//!
//! - [`method`]: the method enums and their names.
//! - [`dispatch`]: running a test by a chosen method through the collision pipeline.
//! - [`scans`]: the bit-mask, linear, incremental and sampled scans over two planes.
//! - [`summed_area`]: summed-area tables.
//! - [`radial`]: the radial perimeter test.
//! - [`flash`]: Flash's own `getCollisionRect` pipeline, done literally with tiny-skia, and
//!   [`skia_clip`], the clips it draws with (the debug pictures use them too).

mod dispatch;
pub(crate) mod flash;
mod method;
pub(crate) mod radial;
mod scans;
pub(crate) mod skia_clip;
mod summed_area;
#[cfg(test)]
mod tests;

pub use dispatch::Probe;
pub(crate) use method::no_rectangle;
pub use method::{Method, ParseMethodError};
