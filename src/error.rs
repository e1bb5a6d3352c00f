//! The one error type of the crate.
//!
//! Every fallible call returns [`Error`]. Each variant carries enough to say what went wrong
//! and where: node errors name the node (its name, or `#index` when it has none), scene
//! errors give the file and the JSON path of the bad field, path data errors the byte offset.

use std::fmt;

/// Why a method that answers only yes or no is refused where a rectangle is wanted, as the
/// rest of the sentence after the method's name. Here, at the bottom layer, so that the
/// error and the method parser (`methods::method`) share one text without an import loop.
pub(crate) const NO_RECTANGLE: &str = "cannot give a rectangle: it answers only yes or no, so it works in \
                                       `collides` and not here; the methods that give a rectangle are \
                                       exact, bitmask, linear_scan, summed_area, flash and flash_compat";

/// What went wrong, and where.
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub enum Error {
    /// The id belongs to a node that was removed.
    StaleNode {
        /// The id as printed by `{:?}`.
        node: String,
    },
    /// The id was made by another stage (a clone of a stage shares its ids).
    ForeignNode {
        /// The id's slot, as `#index`.
        node: String,
    },
    /// A query needs `node` to be `ancestor` itself or one of its descendants.
    NotDescendant {
        /// The node that is not inside `ancestor`.
        node: String,
        /// The node that was given as the common parent.
        ancestor: String,
    },
    /// Moving `node` under `parent` would put it inside itself.
    Cycle {
        /// The node being moved.
        node: String,
        /// The new parent, which is `node` or one of its descendants.
        parent: String,
    },
    /// The root of a stage cannot be removed or moved.
    Root,
    /// A child index outside the range a display-list call allows (Flash's `RangeError`).
    ChildIndex {
        /// The container whose children are counted.
        parent: String,
        /// The index that was given.
        index: usize,
        /// The allowed range, e.g. `0..=3`.
        range: String,
    },
    /// A display-list call that needs `node` to be a child of `parent` (Flash's
    /// `ArgumentError` "must be a child of the caller").
    NotChild {
        /// The node that was given.
        node: String,
        /// The container it should be a child of.
        parent: String,
    },
    /// Only containers have children and graphics.
    NotContainer {
        /// The bitmap node that was given.
        node: String,
    },
    /// A mask that cannot be set (semantics.md 6): a node masking itself, a mask inside
    /// what it masks or holding it, a mask that is masked, or the root.
    Mask {
        /// The node that would be masked.
        node: String,
        /// The mask.
        mask: String,
        /// Why it is refused.
        reason: &'static str,
    },
    /// Mouse properties belong to interactive nodes (Flash's Sprites), and bitmaps and
    /// animated leaves cannot be interactive (semantics.md 7).
    NotInteractive {
        /// The node that was given.
        node: String,
        /// What was asked of it, e.g. `mouse_enabled`.
        what: &'static str,
    },
    /// Only bitmap nodes have a bitmap (and a renderer).
    NotBitmap {
        /// The container or animated node that was given.
        node: String,
    },
    /// A bitmap drawn by another renderer (semantics.md 4.9) placed, relative to a query's
    /// parent, by more than a whole-pixel translation: the renderer's picture is defined at
    /// whole pixels only.
    RendererPlacement {
        /// The bitmap node.
        node: String,
    },
    /// A number that must be finite is not (set directly, or produced by multiplying
    /// matrices down the tree).
    NonFinite {
        /// What the number is, e.g. `matrix of "ship"`.
        what: String,
    },
    /// A matrix that must be inverted has no inverse.
    Singular {
        /// What the matrix is, e.g. `matrix of "ship" to the root`.
        what: String,
    },
    /// A value outside the range its argument allows.
    OutOfRange {
        /// What the value is, e.g. `alpha of "ship"`.
        what: String,
        /// The value that was given.
        value: f64,
        /// The allowed range, e.g. `0..=1`.
        range: &'static str,
    },
    /// SVG path data that cannot be parsed.
    PathData {
        /// Byte offset of the problem in the path string.
        offset: usize,
        /// What is wrong there.
        reason: String,
    },
    /// An image that cannot be decoded, or that exceeds the size limits.
    Image {
        /// Where the image came from (a file name, or `bytes`).
        source: String,
        /// What is wrong with it.
        reason: String,
    },
    /// A file that cannot be read or written.
    Io {
        /// The file.
        path: String,
        /// The operating system's message.
        reason: String,
    },
    /// A scene file that is not valid JSON or not a valid scene.
    Scene {
        /// The scene file.
        file: String,
        /// Where in it: `line 3, column 7` for JSON syntax, or a field path such as
        /// `root.children[1].matrix`.
        location: String,
        /// What is wrong there.
        reason: String,
    },
    /// A stroke whose outline would take more vertices than the fixed budget (a very wide
    /// stroke with a great many dots or joins), refused rather than filling the memory.
    GeometryBudget {
        /// What would be built, e.g. `the stroke outline of "ship"`.
        what: String,
        /// Vertices it would take: the estimate that refused it before anything was built,
        /// or how many there were when building stopped at the budget.
        vertices: u128,
        /// The budget.
        budget: u64,
    },
    /// A query would take more work than its budget allows: computing pixels whose edges
    /// cross each other by the thousand inside a few pixels (counted in edge pieces), more
    /// close pairs than [`MAX_CLOSE_PAIRS`](crate::MAX_CLOSE_PAIRS), or a many-object or
    /// motion query whose pairs and poses add up to more than
    /// [`CollisionOptions::max_work`](crate::CollisionOptions::max_work) (counted in pixel
    /// tests before anything is tested).
    WorkBudget {
        /// What was being computed, e.g. `the contacts among 300 objects in the root`.
        what: String,
        /// Work counted: done when it stopped, or counted ahead until it passed the budget.
        work: u128,
        /// The budget.
        budget: u64,
        /// What `work` and `budget` count, e.g. `edge pieces handled`.
        unit: &'static str,
        /// Why, or how to raise the budget.
        remedy: &'static str,
    },
    /// A node whose matrix has skew was asked to move in a motion query (semantics.md 8:
    /// only x, y, rotation and the scales are interpolated).
    Skew {
        /// The node.
        node: String,
    },
    /// A motion query would test more poses than its budget
    /// ([`MotionOptions::max_tests`](crate::MotionOptions::max_tests)) allows: a huge
    /// motion of a huge target at a small `max_step`.
    MotionBudget {
        /// The query, e.g. `the sweep of "bullet" against "wall"`.
        what: String,
        /// Poses it would test.
        tests: u128,
        /// The budget.
        budget: u64,
    },
    /// A precise query would have to rasterize more pixels than its budget allows.
    PixelBudget {
        /// Pixels the query would rasterize.
        pixels: u128,
        /// The budget it was given.
        budget: u64,
    },
    /// A method that answers only yes or no was asked for the overlap's rectangle
    /// ([`Stage::collision_by`](crate::Stage::collision_by)).
    NoRectangle {
        /// The method's name, as in scene files (e.g. `radial`).
        method: String,
    },
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::StaleNode { node } => write!(f, "node {node} was removed"),
            Error::ForeignNode { node } => write!(f, "node {node} belongs to another stage"),
            Error::NotDescendant { node, ancestor } => {
                write!(f, "{node} is not {ancestor} or one of its descendants")
            }
            Error::Cycle { node, parent } => {
                write!(f, "cannot move {node} under {parent}: {parent} is inside {node}")
            }
            Error::Root => write!(f, "the root cannot be removed or moved"),
            Error::ChildIndex { parent, index, range } => {
                write!(f, "child index {index} of {parent} is outside {range}")
            }
            Error::NotChild { node, parent } => write!(f, "{node} is not a child of {parent}"),
            Error::NotContainer { node } => {
                write!(f, "{node} is a bitmap: it has no children or graphics")
            }
            Error::Mask { node, mask, reason } => {
                write!(f, "{mask} cannot mask {node}: {reason}")
            }
            Error::NotInteractive { node, what } => {
                write!(f, "{node} is not interactive, so it has no {what}")
            }
            Error::NotBitmap { node } => write!(f, "{node} is not a bitmap node"),
            Error::RendererPlacement { node } => write!(
                f,
                "{node} is drawn by a renderer whose picture is defined at whole pixels only, but its \
                 placement relative to the query's parent is not a whole-pixel translation (a rotation, \
                 scale or fractional position lies above it)"
            ),
            Error::NonFinite { what } => write!(f, "{what} is not finite"),
            Error::Singular { what } => write!(f, "{what} is singular (it has no inverse)"),
            Error::OutOfRange { what, value, range } => {
                write!(f, "{what} is {value}, outside {range}")
            }
            Error::PathData { offset, reason } => {
                write!(f, "path data at byte {offset}: {reason}")
            }
            Error::Image { source, reason } => write!(f, "image {source}: {reason}"),
            Error::Io { path, reason } => write!(f, "{path}: {reason}"),
            Error::Scene {
                file,
                location,
                reason,
            } => write!(f, "{file}: {location}: {reason}"),
            Error::GeometryBudget {
                what,
                vertices,
                budget,
            } => write!(
                f,
                "{what} would take too many vertices ({vertices} estimated or counted), over the budget of {budget}"
            ),
            Error::WorkBudget {
                what,
                work,
                budget,
                unit,
                remedy,
            } => write!(
                f,
                "{what} would take more work than its budget: {work} {unit}, over the budget of {budget}; {remedy}"
            ),
            Error::Skew { node } => write!(
                f,
                "{node} has skew: its matrix is not x, y, rotation and scales, which is all a motion can move"
            ),
            Error::MotionBudget { what, tests, budget } => write!(
                f,
                "{what} would test {tests} poses, over the budget of {budget}: raise max_step or max_tests, or split the motion"
            ),
            Error::PixelBudget { pixels, budget } => write!(
                f,
                "the query would rasterize {pixels} pixels, over its budget of {budget}"
            ),
            Error::NoRectangle { method } => write!(f, "{method:?} {}", NO_RECTANGLE),
        }
    }
}

impl std::error::Error for Error {}

/// Largest file [`read_file`] reads (a PNG or SVG asset): 256 MiB.
pub(crate) const MAX_ASSET_FILE_BYTES: u64 = 256 << 20;

/// Reads a whole regular file of at most [`MAX_ASSET_FILE_BYTES`], naming it in the error
/// when it cannot be read. Anything else (a FIFO that would block, a device such as
/// `/dev/zero` that never ends, a directory) is refused before it is opened, and a file
/// that grows past the limit is not read further.
pub(crate) fn read_file(path: &std::path::Path) -> Result<Vec<u8>> {
    use std::io::Read as _;
    let err = |reason: String| Error::Io {
        path: path.display().to_string(),
        reason,
    };
    let meta = std::fs::metadata(path).map_err(|e| err(e.to_string()))?;
    if !meta.is_file() {
        return Err(err(
            "not a regular file (a device, a pipe or a directory is refused)".into(),
        ));
    }
    if meta.len() > MAX_ASSET_FILE_BYTES {
        return Err(err(format!(
            "{} bytes, over the limit of {MAX_ASSET_FILE_BYTES}",
            meta.len()
        )));
    }
    let mut bytes = Vec::new();
    std::fs::File::open(path)
        .map_err(|e| err(e.to_string()))?
        .take(MAX_ASSET_FILE_BYTES + 1)
        .read_to_end(&mut bytes)
        .map_err(|e| err(e.to_string()))?;
    if bytes.len() as u64 > MAX_ASSET_FILE_BYTES {
        return Err(err(format!("over the limit of {MAX_ASSET_FILE_BYTES} bytes")));
    }
    Ok(bytes)
}

/// Shorthand for results of this crate.
pub type Result<T, E = Error> = std::result::Result<T, E>;
