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
//! - many sprites a frame: [`Stage::contacts_among`] (every touching pair of a group),
//!   [`Stage::contacts_against`] (one against a list), [`Stage::contacts_between`] (one
//!   group against another), and [`ContactTracker`] (began / continued / ended);
//! - the mouse: [`Stage::pick`], [`Stage::objects_under_point`], masks and scroll
//!   rectangles ([`Stage::set_mask`], [`Stage::set_scroll_rect`]);
//! - errors: every fallible call returns [`Error`], which names what and where.
//!
//! # A short tour
//!
//! 1. **Build a tree.** [`Stage::add_container`] makes a node, [`Stage::add_graphic`] gives
//!    it fills and strokes ([`Graphic::fill`], [`Graphic::stroke`]) of a [`Path`] (built
//!    with `move_to`/`line_to`/..., from SVG path data with [`Path::from_svg`], or
//!    [`Path::rect`], [`Path::circle`], [`Path::polygon`]), [`Stage::add_bitmap`] shows a
//!    [`Bitmap`] (e.g. [`Bitmap::from_png_file`]). Place nodes with one call a frame,
//!    [`Stage::set_position`] or [`Stage::set_transform`] (position, rotation, scales), or
//!    property by property ([`Stage::set_x`], [`Stage::set_rotation`], [`Stage::set_scale`],
//!    ...) or a whole [`Stage::set_matrix`]. Reorder and regroup as Flash does:
//!    [`Stage::add_child_at`], [`Stage::set_child_index`], [`Stage::swap_children`],
//!    [`Stage::remove_children`], [`Stage::set_parent`].
//! 2. **Ask.** [`Stage::collision_rect`] answers like Flash's `getCollisionRect` (without
//!    its mistakes); [`Stage::collision`] takes every option ([`CollisionOptions`]) and also
//!    counts the overlapping pixels. Point and box tests are there too. For a game's frame,
//!    ask once for all of them:
//!
//!    ```
//!    # use pixelhit::{CollisionOptions, ContactPhase, ContactTracker, FillRule, Graphic, Path, Stage};
//!    # let mut stage = Stage::new();
//!    # let world = stage.add_container(stage.root())?;
//!    # let mut add = |x: f64| -> pixelhit::Result<_> {
//!    #     let n = stage.add_container(world)?;
//!    #     stage.add_graphic(n, Graphic::fill(Path::circle(0.0, 0.0, 6.0), FillRule::NonZero, 1.0)?)?;
//!    #     stage.set_x(n, x)?;
//!    #     Ok(n)
//!    # };
//!    # let bullets = vec![add(0.0)?];
//!    # let rocks = vec![add(10.0)?, add(40.0)?];
//!    let opts = CollisionOptions::default().details(true).skip_hidden(true);
//!    let mut tracker = ContactTracker::new();
//!    // every frame, after moving the sprites:
//!    let contacts = stage.contacts_between(&bullets, &rocks, world, &opts)?;
//!    for event in tracker.update(&contacts) {
//!        if let (ContactPhase::Began, Some(hit)) = (event.phase, event.contact(&contacts)) {
//!            let push = hit.normal(); // from the bullet into the rock
//!            # assert!(push.unwrap().x > 0.9);
//!        }
//!    }
//!    # assert_eq!(tracker.len(), 1);
//!    # Ok::<(), pixelhit::Error>(())
//!    ```
//!
//! 3. **Look.** [`debug_image`] draws the scene, the pixels two targets share, their
//!    bounds and the answer, with a legend; [`debug_image_with`] keeps one frame for a
//!    sequence or a window. A game can dump one when a collision looks wrong:
//!
//!    ```
//!    # use pixelhit::{DebugQuery, FillRule, Graphic, Path, Stage, debug_image};
//!    # let mut stage = Stage::new();
//!    # let root = stage.root();
//!    # let a = stage.add_container(root)?;
//!    # stage.add_graphic(a, Graphic::fill(Path::rect(0.0, 0.0, 8.0, 8.0), FillRule::NonZero, 1.0)?)?;
//!    # let b = stage.add_container(root)?;
//!    # stage.add_graphic(b, Graphic::fill(Path::circle(8.0, 8.0, 4.0), FillRule::NonZero, 1.0)?)?;
//!    let picture = debug_image(&stage, &[DebugQuery::new(a, b, root)])?;
//!    // Small scenes are magnified (nearest) so that each pixel is a visible square.
//!    assert!(picture.width() >= 512);
//!    // picture.save("collision.png") writes it (an `image::RgbaImage`).
//!    # Ok::<(), pixelhit::Error>(())
//!    ```
//! 4. **Keep it in a file.** A [`Scene`] is a tree with names and queries, read from and
//!    written to JSON scene files ([`Scene::load`], [`Scene::save`]); the `pixelhit`
//!    command runs a file's queries (`pixelhit run level.json --png out.png`). A bug
//!    report is a scene file: see `examples/bug_report.rs`.
//! 5. **Use your art.** With the `svg` feature (on by default), `pixelhit::svg::load_svg`
//!    turns an SVG file
//!    into a subtree (groups, paths, images), and scene files accept `"svg": "file.svg"`
//!    objects; what SVG can show and the tree cannot is reported, never dropped silently.
//!
//! # Pivots
//!
//! A node turns and scales about its own origin, as in Flash: a bitmap or a shape drawn
//! from `(0, 0)` to `(w, h)` turns about its top-left corner. To turn a sprite about its
//! centre, give it a container and offset the art inside by half its size; then place and
//! turn the container:
//!
//! ```
//! use pixelhit::{Bitmap, Stage};
//! let mut stage = Stage::new();
//! let ship = stage.add_container(stage.root())?; // the sprite: moved and turned
//! let art = stage.add_bitmap(ship, Bitmap::from_rgba8(32, 16, vec![255; 32 * 16 * 4])?, false)?;
//! stage.set_position(art, -16.0, -8.0)?; // the art's centre on the sprite's origin
//! stage.set_transform(ship, 100.0, 100.0, 90.0, 1.0, 1.0)?;
//! let b = stage.bounds(ship, stage.root())?.unwrap();
//! assert_eq!((b.left(), b.top(), b.width(), b.height()), (92.0, 84.0, 16.0, 32.0));
//! # Ok::<(), pixelhit::Error>(())
//! ```
//!
//! `examples/asteroids.rs` builds every sprite this way.
//!
//! # Cargo features
//!
//! | feature | default | what it adds |
//! |---|---|---|
//! | `parallel` | on | [`Stage::contacts_among`] runs its narrow phase on all cores (rayon) |
//! | `simd` | on | the bit-mask word loop compiled for AVX2 and hardware popcount, picked at run time where the CPU has them (pulp); the answers are the same without it |
//! | `svg` | on | the `svg` module and the scene field `"svg"`, with usvg (about 15% more CPU for a clean build) |
//! | `mint` | off | calls that take matrices and points also take the `mint` types (any glam, nalgebra, cgmath or euclid version); see [`IntoAffine`] |
//! | `viewer` | off | the window of `examples/playground.rs` (minifb; X11, loaded when the window opens) |
//!
//! # Why it is built this way
//!
//! - **Each target is drawn alone**, into an alpha plane over the pixels where both
//!   targets' bounds meet, and the planes are compared. That is what Flash users did by
//!   hand with `BitmapData.draw`, so the answers are the ones they expect, but the window
//!   is never cut short, the transforms below the common parent all count, and the
//!   tolerance means one thing everywhere.
//! - **f64 and integers, never f32.** Transforms and bounds are f64; geometry is snapped to
//!   integer edges on the 1/256 px grid next to the item's own position, and each pixel's
//!   exact area is computed from them (semantics.md 4.5) only where a query looks, so a
//!   sprite ten million pixels from the origin collides exactly as one at the origin, and a
//!   pixel's value never depends on the window it was computed in.
//! - **A plain arena**, not `Rc<RefCell>`: nodes live in the [`Stage`], callers hold small
//!   [`NodeId`]s that notice when their node is gone, queries borrow the stage immutably,
//!   and no walk over the tree recurses, so depth costs no stack.
//! - **Strict files, loud warnings.** Scene files refuse unknown fields and say where the
//!   problem is; SVG features that cannot be shown are listed. A collision library that
//!   guesses is worse than one that refuses.

/// The README's examples run as doc tests, so that they cannot go stale.
#[cfg(doctest)]
#[doc = include_str!("../README.md")]
struct ReadmeDoctests;

/// The examples of the pages moved out of the README run as doc tests too.
#[cfg(doctest)]
#[doc = include_str!("../docs/methods.md")]
struct MethodsDoctests;

#[cfg(doctest)]
#[doc = include_str!("../docs/game-notes.md")]
struct GameNotesDoctests;
/// docs/art.md's examples too.
#[cfg(doctest)]
#[doc = include_str!("../docs/art.md")]
struct ArtDoctests;

mod debug;
mod error;
mod geom;
mod methods;
mod motion;
mod query;
mod raster;
mod scene;
#[cfg(feature = "svg")]
pub mod svg;
mod tree;

pub use debug::{DEBUG_MAX_QUERIES, DebugOptions, DebugQuery, debug_image, debug_image_with};
pub use error::{Error, Result};
pub use geom::bitmap::{Bitmap, ImageLimits};
pub use geom::bitmap_paint::Brush;
pub use geom::color::ColorTransform;
#[cfg(feature = "mint")]
pub use geom::interop::to_mint_matrix;
pub use geom::interop::{IntoAffine, IntoPoint, from_y_up, from_y_up_parts, point_from_y_up};
pub use geom::path::{FillRule, Path, PathSegment};
pub use geom::rect::Rect;
pub use geom::renderer::{
    BitmapRenderer, PYGAME_MAX_ANGLE, PYGAME_MAX_SCALE, PYGAME_MAX_SIDE, PygameFlavour, PygameTransform,
};
pub use geom::shape::{Fill, Graphic, Stroke};
pub use geom::transform::matrix_from_properties;
pub use glam::{DAffine2, DVec2};
pub use image::RgbaImage;
pub use methods::radial::{RadialOptions, RadialProfile};
pub use methods::{Method, ParseMethodError, Probe};
pub use motion::{
    DEFAULT_MAX_STEP, DEFAULT_MAX_TESTS, MIN_MAX_STEP, MOTION_RESOLUTION, MotionOptions, Pose, Sweep,
    SweepHit,
};
pub use query::alpha_plane::AlphaPlane;
pub use query::crowd::{Contact, ContactDetails, MAX_CLOSE_PAIRS, OverlapMask};
pub use query::options::{Collision, CollisionOptions, DEFAULT_MAX_PIXELS, DEFAULT_MAX_WORK};
pub use query::outline::OutlineOptions;
pub use query::pick::PickOptions;
pub use query::pipeline::DENSE_BYTES;
pub use query::point::BitmapHit;
pub use query::tracker::{ContactEvent, ContactPhase, ContactTracker};
pub use scene::{Atlas, MotionFields, MotionQuery, Query, Scene, SceneLimits, ScenePose};
pub use tree::node::{Frame, NodeId};
pub use tree::planned_renderer::PlannedRenderer;
pub use tree::stage::Stage;
