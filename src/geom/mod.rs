//! Geometry: the values a display tree is made of, with no tree in sight.
//!
//! - [`rect`]: axis-aligned rectangles in f64 (`Rect`) and whole-pixel windows (`PixelRect`).
//! - [`transform`]: matrices from Flash-style properties and back.
//! - [`interop`]: matrices and points in any engine's form.
//! - [`path`]: vector paths (building, SVG path data, exact bounds, flattening).
//! - [`polygon`]: flattened contours and the polygon operations on them.
//! - [`shape`]: what a node draws, fills and strokes of a path (`Graphic`), and a leaf.
//! - [`bitmap`]: RGBA8 images shared between the nodes that show them; [`bitmap_paint`]:
//!   brushes, and the arithmetic of painting and erasing a texel.
//! - [`renderer`]: how a bitmap is sampled when another renderer draws it (pygame's
//!   `rotate` and `rotozoom`, semantics.md 4.9): the names; `raster` computes the pictures.
//! - [`content_id`]: identities of paths and bitmaps that caches key by, never reused.
//! - [`color`]: colour transforms.
//! - [`hull`]: convex hulls, the conservative outlines that reject near misses.
//! - [`tolerance`]: the flattening tolerances, each with why.
//! - [`whole`]: floor, ceil and round to integers without the library call.

pub(crate) mod bitmap;
pub(crate) mod bitmap_paint;
pub(crate) mod color;
pub(crate) mod content_id;
pub(crate) mod hull;
pub(crate) mod interop;
pub(crate) mod path;
pub(crate) mod polygon;
pub(crate) mod rect;
pub(crate) mod renderer;
pub(crate) mod shape;
pub(crate) mod tolerance;
pub(crate) mod transform;
pub(crate) mod whole;
