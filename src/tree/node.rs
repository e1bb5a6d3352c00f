//! A node of the display tree: its id, what it draws, and its properties.

use glam::{DAffine2, DVec2};

use crate::geom::color::ColorTransform;
use crate::geom::renderer::Rendered;
use crate::geom::transform::Props;
use crate::{Bitmap, Graphic, Rect};

/// A handle to a node of a [`Stage`](crate::Stage). Using it after the node was removed gives
/// [`Error::StaleNode`](crate::Error::StaleNode).
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    pub(crate) index: u32,
    pub(crate) generation: u32,
    /// Which stage made it: a stage's own number, or for ids made before a clone, the
    /// number of the stage that made them (see `Stage`'s `Clone`).
    pub(crate) stage: u32,
}

impl NodeId {
    /// The slot index, stable while the node lives (useful as a compact key).
    pub fn index(self) -> u32 {
        self.index
    }
}

/// What a node draws.
#[derive(Clone, Debug)]
pub(crate) enum Content {
    Container(Vec<Graphic>),
    Bitmap { bitmap: Bitmap, smoothing: bool },
    Frames { frames: Vec<Frame>, current: usize },
}

/// One frame of an animated node: a bitmap, or vector graphics.
///
/// Each frame's rasters are cached by content, so switching back to a frame shown before
/// costs nothing to draw.
#[derive(Clone, Debug, PartialEq)]
pub enum Frame {
    /// A bitmap and its smoothing flag.
    Bitmap {
        /// The image.
        bitmap: Bitmap,
        /// Bilinear (`true`) or nearest sampling.
        smoothing: bool,
    },
    /// Fills and strokes, drawn in order.
    Graphics(Vec<Graphic>),
}

impl Content {
    /// What is drawn now: a container's graphics, a bitmap, or the current frame.
    pub(crate) fn shown(&self) -> (&[Graphic], Option<(&Bitmap, bool)>) {
        match self {
            Content::Container(g) => (g, None),
            Content::Bitmap { bitmap, smoothing } => (&[], Some((bitmap, *smoothing))),
            Content::Frames { frames, current } => match frames.get(*current) {
                Some(Frame::Graphics(g)) => (g, None),
                Some(Frame::Bitmap { bitmap, smoothing }) => (&[], Some((bitmap, *smoothing))),
                None => (&[], None),
            },
        }
    }
}

#[derive(Clone, Debug)]
pub(crate) struct Node {
    pub name: Option<String>,
    pub parent: Option<NodeId>,
    pub children: Vec<NodeId>,
    pub matrix: DAffine2,
    pub(crate) props: Props,
    pub visible: bool,
    pub color: ColorTransform,
    pub content: Content,
    /// The node whose region clips this one (semantics.md 6).
    pub mask: Option<NodeId>,
    /// The nodes this one masks: a mask is never drawn, hit or picked.
    pub masking: Vec<NodeId>,
    /// The scroll window, edges already whole pixels.
    pub scroll: Option<Rect>,
    /// A Flash Sprite (true) or Shape/Bitmap (false), for picking (semantics.md 7).
    pub interactive: bool,
    pub mouse_enabled: bool,
    pub mouse_children: bool,
    /// The node whose fills stand for this one's content when picking.
    pub hit_area: Option<NodeId>,
    /// The nodes this one is the hit area of.
    pub hit_area_of: Vec<NodeId>,
    /// The tolerance collision queries use for this node as a target, over the query's.
    pub tolerance: Option<u8>,
    /// The renderer a bitmap node is sampled as, with its surface's size (semantics.md 4.9).
    pub renderer: Option<Rendered>,
}

impl Node {
    pub(crate) fn new(content: Content) -> Node {
        Node {
            name: None,
            parent: None,
            children: Vec::new(),
            matrix: DAffine2::IDENTITY,
            props: Props::IDENTITY,
            visible: true,
            color: ColorTransform::IDENTITY,
            interactive: matches!(content, Content::Container(_)),
            content,
            mask: None,
            masking: Vec::new(),
            scroll: None,
            mouse_enabled: true,
            mouse_children: true,
            hit_area: None,
            hit_area_of: Vec::new(),
            tolerance: None,
            renderer: None,
        }
    }

    /// The matrix mapping the node's content into its parent: its matrix, after the scroll
    /// window's offset.
    pub fn content_matrix(&self) -> DAffine2 {
        match self.scroll {
            Some(r) => self.matrix * DAffine2::from_translation(-DVec2::new(r.left(), r.top())),
            None => self.matrix,
        }
    }

    /// Whether the node masks any other.
    pub fn is_mask(&self) -> bool {
        !self.masking.is_empty()
    }
}
