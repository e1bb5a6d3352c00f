//! Python bindings of pixelhit: the same `Stage`, driven from Python.
//!
//! The Python module `pixelhit` has a `Stage` (the display tree and every query), `Node`
//! objects (a handle to one node: its properties are Python attributes), `Path` and
//! `Graphic` (vector content from SVG path data), `Bitmap` (PNG files and bytes, RGBA
//! bytes, numpy arrays and pygame Surfaces), `Pose` (one end of a motion), the answers
//! (`Collision`, `Contact`, `OverlapMask`, `Sweep`, `SweepHit`) and one exception class, `PixelhitError`, whose messages are
//! `pixelhit::Error`'s. The stubs in `pixelhit.pyi` give every signature and type.
//!
//! Nothing here panics on input: every id, number and buffer goes through the crate's own
//! checks or the checks below, and the stage is borrowed with `try_read`/`try_write`
//! (a change from another thread while a query runs raises instead of waiting or failing).
//!
//! The modules, each importing only those above it (`.ci/check-import-cycles` checks that
//! none imports another that imports it back):
//!
//! | module | holds |
//! |---|---|
//! | `errors` | the exception classes, the crate's errors raised as them, the deprecation warning |
//! | `convert` | numbers, rectangles, matrices, colours and buffers in and out |
//! | `handles` | `PyStage` (the stage behind its lock, user data) and `PyNode` (a node id and its stage), nodes in and out |
//! | `region` | `Bitmap.region`: a sprite sheet's frame sharing its pixels |
//! | `path`, `graphic`, `bitmap`, `overlap_mask` | the content classes and the overlap mask |
//! | `atlas` | `Atlas`: a texture atlas's frames as regions of its sheet |
//! | `answers` | `Collision`, `Contact` |
//! | `crowd` | the many-object queries' plumbing: node lists, options, contacts out |
//! | `motion` | `Pose`, `Sweep`, `SweepHit`, the motion queries' plumbing |
//! | `tracker` | `ContactTracker`, `ContactEvent` |
//! | `bitmap_edit` | `Stage.erase` and `Stage.paint`: brushes and colours in |
//! | `node`, `stage` | the Python methods of `Node` and `Stage` |
//! | `sprite_read` | `pixelhit.pygame.World`'s read of its sprites, the common case |
//! | `sprite_pairs` | `pixelhit.pygame.World.among`'s query: touching pairs of sprites from the reads |

use pyo3::prelude::*;

mod answers;
mod atlas;
mod bitmap;
mod bitmap_edit;
mod convert;
mod crowd;
mod errors;
mod graphic;
mod handles;
mod motion;
mod node;
mod outline;
mod overlap_mask;
mod path;
mod region;
mod renderer;
mod sprite_pairs;
mod sprite_read;
mod stage;
mod tracker;

/// pixelhit: pixel-exact hit testing for Flash-style display trees.
///
/// Build a tree of nested, transformed nodes on a `Stage` (containers with vector fills and
/// strokes from SVG path data, bitmaps from PNG files, numpy arrays or pygame Surfaces) and
/// ask whether two of them touch on screen and exactly where, with rotation, scale, alpha
/// and visibility applied. Every sprite of a frame at once: `Stage.contacts_among`.
#[pymodule]
#[pyo3(name = "_pixelhit")]
fn pixelhit_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<handles::PyStage>()?;
    m.add_class::<handles::PyNode>()?;
    m.add_class::<path::PyPath>()?;
    m.add_class::<graphic::PyGraphic>()?;
    m.add_class::<bitmap::PyBitmap>()?;
    m.add_class::<atlas::PyAtlas>()?;
    m.add_class::<answers::PyCollision>()?;
    m.add_class::<answers::PyContact>()?;
    m.add_class::<overlap_mask::PyOverlapMask>()?;
    m.add_class::<motion::PyPose>()?;
    m.add_class::<motion::PySweep>()?;
    m.add_class::<motion::PySweepHit>()?;
    m.add_class::<stage::PySvgLoad>()?;
    m.add_class::<tracker::PyContactTracker>()?;
    m.add_class::<tracker::PyContactEvent>()?;
    m.add_function(wrap_pyfunction!(renderer::pygame_output_size, m)?)?;
    m.add_function(wrap_pyfunction!(renderer::pygame_alpha_plane, m)?)?;
    m.add_class::<sprite_read::PySpriteEntry>()?;
    m.add_class::<sprite_read::PySpriteRead>()?;
    m.add_function(wrap_pyfunction!(sprite_read::read_posed_sprites, m)?)?;
    m.add_function(wrap_pyfunction!(sprite_pairs::sprite_pairs_among, m)?)?;
    m.add_function(wrap_pyfunction!(sprite_pairs::read_pairs_among, m)?)?;
    errors::add_classes(m)?;
    m.add("DEFAULT_MAX_PIXELS", pixelhit::DEFAULT_MAX_PIXELS)?;
    m.add("MAX_CLOSE_PAIRS", pixelhit::MAX_CLOSE_PAIRS)?;
    m.add("DEFAULT_MAX_STEP", pixelhit::DEFAULT_MAX_STEP)?;
    m.add("MIN_MAX_STEP", pixelhit::MIN_MAX_STEP)?;
    m.add("DEFAULT_MAX_TESTS", pixelhit::DEFAULT_MAX_TESTS)?;
    m.add("DEFAULT_MAX_WORK", pixelhit::DEFAULT_MAX_WORK)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
