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
    /// A bitmap, its smoothing flag and where it is drawn.
    Bitmap {
        /// The image, often a region of a sprite sheet ([`Bitmap::region`]).
        bitmap: Bitmap,
        /// Bilinear (`true`) or nearest sampling.
        smoothing: bool,
        /// Where the bitmap's top-left corner is in the node's local space, in texels:
        /// texel `(i, j)` covers `[x + i, x + i + 1) x [y + j, y + j + 1)`. A trimmed
        /// frame of a texture atlas is drawn at its trim offset (TexturePacker's and
        /// Aseprite's `spriteSourceSize.x`, `.y`), so that the node's origin is the
        /// untrimmed frame's top-left corner and every frame of an animation lines up.
        /// `(0, 0)` for an untrimmed frame.
        offset: (i32, i32),
    },
    /// Fills and strokes, drawn in order.
    Graphics(Vec<Graphic>),
}

impl Frame {
    /// A bitmap frame drawn at the node's origin (offset `(0, 0)`).
    ///
    /// ```
    /// use pixelhit::{Bitmap, Frame};
    /// let f = Frame::bitmap(Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255])?, false);
    /// assert!(matches!(f, Frame::Bitmap { offset: (0, 0), .. }));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn bitmap(bitmap: Bitmap, smoothing: bool) -> Frame {
        Frame::Bitmap {
            bitmap,
            smoothing,
            offset: (0, 0),
        }
    }
}

/// The bitmap a node shows now: the image, its smoothing flag and the offset its frame
/// draws it at (`(0, 0)` but for a frame's, [`Frame::Bitmap`]).
#[derive(Clone, Copy, Debug)]
pub(crate) struct ShownBitmap<'a> {
    pub bitmap: &'a Bitmap,
    pub smoothing: bool,
    pub offset: (i32, i32),
}

impl ShownBitmap<'_> {
    /// The bitmap's matrix for a node whose content matrix is `m`: `m` after the offset's
    /// translation, computed as a child at that position would have it (the same f64
    /// steps), so a frame drawn at an offset draws the same pixels as its bitmap in a
    /// child node there.
    pub fn matrix(&self, m: &DAffine2) -> DAffine2 {
        match self.offset {
            (0, 0) => *m,
            (x, y) => *m * DAffine2::from_translation(DVec2::new(f64::from(x), f64::from(y))),
        }
    }
}

impl Content {
    /// What is drawn now: a container's graphics, a bitmap, or the current frame.
    pub(crate) fn shown(&self) -> (&[Graphic], Option<ShownBitmap<'_>>) {
        let shown = |bitmap, smoothing, offset| ShownBitmap {
            bitmap,
            smoothing,
            offset,
        };
        match self {
            Content::Container(g) => (g, None),
            Content::Bitmap { bitmap, smoothing } => (&[], Some(shown(bitmap, *smoothing, (0, 0)))),
            Content::Frames { frames, current } => match frames.get(*current) {
                Some(Frame::Graphics(g)) => (g, None),
                Some(Frame::Bitmap {
                    bitmap,
                    smoothing,
                    offset,
                }) => (&[], Some(shown(bitmap, *smoothing, *offset))),
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
    /// The tree revision of its last change of anything but its matrix (content, links,
    /// children, parent, visibility, colour, tolerance, scroll window, renderer, pixels):
    /// a pair kept for asking again (`query::kept_pair`) holds while its targets' stamps
    /// are not newer than the pair, and only their matrices may have moved.
    pub stamp: u64,
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
            stamp: 0,
        }
    }

    /// The matrix mapping the node's content into its parent: its matrix, after the scroll
    /// window's offset.
    #[inline]
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
