//! What a debug picture draws: the queries and the options.

use crate::{CollisionOptions, NodeId, Rect};

/// One collision query to draw: `a` against `b` in `parent`'s space, as
/// [`Stage::collision`] would answer it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugQuery {
    /// The first target.
    pub a: NodeId,
    /// The second target.
    pub b: NodeId,
    /// The common parent whose pixel grid the query works on.
    pub parent: NodeId,
    /// Precision, tolerance, anti-aliasing and pixel budget of the query.
    pub options: CollisionOptions,
}

impl DebugQuery {
    /// A query with [`CollisionOptions::default`] (precise, tolerance 255, anti-aliased).
    pub fn new(a: NodeId, b: NodeId, parent: NodeId) -> DebugQuery {
        DebugQuery {
            a,
            b,
            parent,
            options: CollisionOptions::default(),
        }
    }
}

/// How [`debug_image_with`] frames and labels its picture. The default is what
/// [`debug_image`] draws.
///
/// ```
/// use pixelhit::{DebugOptions, Rect};
/// // Always the same 320 x 240 part of the root's space, twice as large, with a note: the
/// // frames of a game line up, and mouse positions map back with `origin + pixel / 2`.
/// let opts = DebugOptions::default()
///     .area(Rect::from_xywh(0.0, 0.0, 320.0, 240.0).unwrap())
///     .zoom(2)
///     .note("frame 17");
/// assert_eq!(opts.zoom, Some(2));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DebugOptions {
    /// The part of the root's space to draw, rounded out to whole pixels, without padding.
    /// `None` (the default) fits the scene, the targets' bounds and the answers, padded by 8
    /// pixels.
    pub area: Option<Rect>,
    /// Picture pixels per root pixel. `None` (the default) magnifies a small picture by the
    /// smallest whole factor that makes its longer side at least 512 pixels.
    pub zoom: Option<u32>,
    /// Draw the legend band below the scene (the default), when there is a query or a note.
    pub legend: bool,
    /// Lines added at the end of the legend, e.g. timings or a frame number.
    pub notes: Vec<String>,
    /// The most queries drawn (default [`DEBUG_MAX_QUERIES`]): the first ones are redone and
    /// drawn, and the legend says how many more were left out. Each drawn query costs its
    /// own collision and 16 pixels of legend height, so this bounds the picture's height
    /// and the time to draw it, however many queries are given.
    pub max_queries: usize,
    /// A node to outline (its visible bounds, in a colour of its own), e.g. the one
    /// [`Stage::pick`] gave.
    pub highlight: Option<NodeId>,
}

/// How many queries [`debug_image`] draws at most (see [`DebugOptions::max_queries`]): a
/// legend of 100 lines is 1,626 pixels high.
pub const DEBUG_MAX_QUERIES: usize = 100;

impl Default for DebugOptions {
    fn default() -> Self {
        DebugOptions {
            area: None,
            zoom: None,
            legend: true,
            notes: Vec::new(),
            max_queries: DEBUG_MAX_QUERIES,
            highlight: None,
        }
    }
}

impl DebugOptions {
    /// Sets `area`.
    pub fn area(mut self, area: Rect) -> Self {
        self.area = Some(area);
        self
    }
    /// Sets `zoom`.
    pub fn zoom(mut self, zoom: u32) -> Self {
        self.zoom = Some(zoom);
        self
    }
    /// Sets `legend`.
    pub fn legend(mut self, legend: bool) -> Self {
        self.legend = legend;
        self
    }
    /// Adds a line to `notes`.
    pub fn note(mut self, line: impl Into<String>) -> Self {
        self.notes.push(line.into());
        self
    }
    /// Sets `max_queries`.
    pub fn max_queries(mut self, max: usize) -> Self {
        self.max_queries = max;
        self
    }
    /// Sets `highlight`.
    pub fn highlight(mut self, node: Option<NodeId>) -> Self {
        self.highlight = node;
        self
    }
}
