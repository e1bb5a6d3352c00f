//! pixelhit: pixel-exact hit testing for Flash-style display trees.
//!
//! Build a tree of nested, transformed display objects (containers with vector graphics,
//! bitmaps) on a [`Stage`], then ask whether two of them touch on screen and exactly where:
//! [`Stage::collision_rect`] answers in the common parent's space, with rotation, scale, skew,
//! alpha and colour transforms applied as Flash Player would draw them.
//!
//! ```
//! use pixelhit::{FillRule, Graphic, Path, Rect, Stage};
//!
//! let mut stage = Stage::new();
//! let root = stage.root();
//!
//! // A 20 x 20 square, and a circle of radius 10 rotated and moved over its corner.
//! let square = stage.add_container(root)?;
//! stage.add_graphic(square, Graphic::fill(Path::rect(0.0, 0.0, 20.0, 20.0), FillRule::NonZero, 1.0)?)?;
//! let ball = stage.add_container(root)?;
//! stage.add_graphic(ball, Graphic::fill(Path::circle(0.0, 0.0, 10.0), FillRule::NonZero, 1.0)?)?;
//! stage.set_x(ball, 28.0)?;
//! stage.set_y(ball, 28.0)?;
//!
//! // Their boxes overlap, their pixels do not.
//! assert!(stage.collision_rect(square, ball, root, false, 255)?.is_some());
//! assert_eq!(stage.collision_rect(square, ball, root, true, 255)?, None);
//!
//! // Closer, they do: the answer is a whole-pixel rectangle in the root's space.
//! stage.set_x(ball, 22.0)?;
//! stage.set_y(ball, 22.0)?;
//! let hit = stage.collision_rect(square, ball, root, true, 255)?;
//! assert_eq!(hit, Rect::from_ltrb(12.0, 12.0, 20.0, 20.0));
//! # Ok::<(), pixelhit::Error>(())
//! ```
//!
//! The meaning of every query is fixed by the crate's semantics document (`semantics.md`);
//! the modules follow its sections:
//!
//! - the tree and its spaces: [`Stage`], [`NodeId`], [`ColorTransform`];
//! - what nodes draw: [`Graphic`] (fills and strokes of a [`Path`]) and [`Bitmap`];
//! - queries: [`Stage::bounds`], [`Stage::rect`], [`Stage::tight_bounds`],
//!   [`Stage::collision_rect`] and [`Stage::collision`], [`Stage::hit_test_point`],
//!   [`Stage::hit_test_object`];
//! - errors: every fallible call returns [`Error`], which names what and where.

/// The README's examples run as doc tests, so that they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

mod bitmap;
mod bitmask;
mod color;
mod debug;
mod error;
mod path;
mod polygon;
mod query;
mod raster;
mod rect;
mod scene;
mod shape;
mod stage;
mod transform;

pub use bitmap::{Bitmap, ImageLimits};
pub use color::ColorTransform;
pub use debug::{DebugQuery, debug_image};
pub use error::{Error, Result};
pub use glam::{DAffine2, DVec2};
pub use image::RgbaImage;
pub use path::{FillRule, Path, PathSegment};
pub use query::{Collision, CollisionOptions, DEFAULT_MAX_PIXELS};
pub use rect::Rect;
pub use scene::{Query, Scene};
pub use shape::{Fill, Graphic, Stroke};
pub use stage::{NodeId, Stage};
pub use transform::matrix_from_properties;
