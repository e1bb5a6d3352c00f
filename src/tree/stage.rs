//! The display tree: an arena of nodes with generational ids.
//!
//! A [`Stage`] owns every node; callers hold [`NodeId`]s, small `Copy` handles that carry a
//! generation so that an id of a removed node is detected instead of silently pointing at
//! whatever reused its slot. There is no `Rc<RefCell>`: the tree is plain data, queries borrow
//! it immutably, and every walk over it is iterative, so a tree 100,000 levels deep is fine.
//!
//! Every node lives under the root. A node is a container (its own graphics, drawn first, then
//! its children in order) or a bitmap (a leaf).

use glam::{DAffine2, DVec2};

use crate::geom::color::ColorTransform;
use crate::geom::interop::{IntoAffine, IntoPoint};
use crate::geom::transform::{self, Props, invert};
use crate::{Bitmap, Error, Graphic, Rect, Result};

/// A handle to a node of a [`Stage`]. Using it after the node was removed gives
/// [`Error::StaleNode`].
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash, PartialOrd, Ord)]
pub struct NodeId {
    index: u32,
    generation: u32,
    /// Which stage made it (clones of a stage share its number).
    stage: u32,
}

/// Numbers stages, so that an id handed to a stage that did not make it is refused.
static NEXT_STAGE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

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
}

impl Node {
    fn new(content: Content) -> Node {
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

#[derive(Clone, Debug)]
struct Slot {
    generation: u32,
    node: Option<Node>,
}

/// The display tree.
///
/// ```
/// use pixelhit::{FillRule, Graphic, Path, Stage};
/// let mut stage = Stage::new();
/// let ship = stage.add_container(stage.root())?;
/// stage.set_name(ship, "ship")?;
/// stage.add_graphic(ship, Graphic::fill(Path::rect(0.0, 0.0, 40.0, 20.0), FillRule::NonZero, 1.0)?)?;
/// stage.set_x(ship, 100.0)?;
/// stage.set_rotation(ship, 90.0)?;
/// let p = stage.local_to_global(ship, pixelhit::DVec2::new(10.0, 0.0))?;
/// assert_eq!((p.x, p.y), (100.0, 10.0));
/// # Ok::<(), pixelhit::Error>(())
/// ```
///
/// # Bad calls and queries during a change
///
/// A call that fails (a removed id, moving a node under itself or one of its descendants,
/// removing or moving the root, a bitmap as a parent, a non-finite number) returns an error
/// and changes nothing, so the tree stays valid.
///
/// A query cannot run while the tree changes, and this needs no lock: queries borrow the
/// stage shared (`&self`), changes borrow it exclusively (`&mut self`), and Rust's borrow
/// rules allow one or the other, never both at once, also across threads (a `Stage` shared
/// between threads needs a `RwLock` or the like, which does the same at run time). An
/// answer that borrows the tree therefore cannot be held across a change:
///
/// ```compile_fail,E0502
/// # use pixelhit::Stage;
/// let mut stage = Stage::new();
/// let root = stage.root();
/// let children = stage.children(root)?; // borrows the stage
/// stage.add_container(root)?; // error[E0502]: cannot borrow `stage` as mutable
/// println!("{children:?}");
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Clone, Debug)]
pub struct Stage {
    /// This stage's number, in its ids.
    id: u32,
    slots: Vec<Slot>,
    free: Vec<u32>,
    root: NodeId,
    /// Rasters kept between queries; keyed by content, so edits never make an entry stale.
    pub(crate) cache: crate::raster::RasterCache,
    /// Counts changes, so that what is kept about the tree's layout knows when it is stale.
    revision: u64,
    /// Root-space boxes of what can be picked, built when a pick needs them.
    pub(crate) pick_index: crate::query::pick::IndexCell,
}

impl Default for Stage {
    fn default() -> Self {
        Stage::new()
    }
}

/// How a node is described in error messages: its name in quotes, or `#index`.
fn describe_node(node: &Node, id: NodeId) -> String {
    match &node.name {
        Some(n) => format!("{n:?}"),
        None => format!("#{}", id.index),
    }
}

impl Stage {
    /// A stage holding only an empty root container.
    pub fn new() -> Stage {
        let id = NEXT_STAGE.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        Stage {
            id,
            slots: vec![Slot {
                generation: 0,
                node: Some(Node::new(Content::Container(Vec::new()))),
            }],
            free: Vec::new(),
            root: NodeId {
                index: 0,
                generation: 0,
                stage: id,
            },
            cache: crate::raster::RasterCache::default(),
            revision: 0,
            pick_index: crate::query::pick::IndexCell::default(),
        }
    }

    /// Goes up by one at every change of the tree.
    pub(crate) fn revision(&self) -> u64 {
        self.revision
    }

    /// Frees the rasters this stage keeps between queries (they are made again when needed).
    /// Answers never depend on the cache; this only trades memory for time.
    pub fn clear_cache(&self) {
        self.cache.clear();
    }

    /// The bytes this stage's cache holds now, every entry's data and bookkeeping counted;
    /// never more than its limit of 128 MiB. Old entries make room for new ones a few at a
    /// time, so that no frame pays for emptying the cache.
    ///
    /// ```
    /// let stage = pixelhit::Stage::new();
    /// assert_eq!(stage.cache_bytes(), 0);
    /// ```
    pub fn cache_bytes(&self) -> usize {
        self.cache.bytes()
    }

    /// The root container. It cannot be removed or moved.
    pub fn root(&self) -> NodeId {
        self.root
    }

    /// Whether the id refers to a live node of this stage.
    pub fn contains(&self, id: NodeId) -> bool {
        self.slot(id).is_some()
    }

    /// How many nodes live, the root included.
    pub fn len(&self) -> usize {
        self.slots.len() - self.free.len()
    }

    /// Whether only the root lives.
    pub fn is_empty(&self) -> bool {
        self.len() == 1
    }

    fn slot(&self, id: NodeId) -> Option<&Node> {
        if id.stage != self.id {
            return None;
        }
        let s = self.slots.get(id.index as usize)?;
        if s.generation != id.generation {
            return None;
        }
        s.node.as_ref()
    }

    /// The error for an id that names no live node here.
    fn missing(&self, id: NodeId) -> Error {
        match id.stage == self.id {
            true => Error::StaleNode {
                node: format!("#{}", id.index),
            },
            false => Error::ForeignNode {
                node: format!("#{}", id.index),
            },
        }
    }

    pub(crate) fn node(&self, id: NodeId) -> Result<&Node> {
        self.slot(id).ok_or_else(|| self.missing(id))
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> Result<&mut Node> {
        // Every change goes through here (or through `remove`).
        self.revision += 1;
        let err = self.missing(id);
        if id.stage != self.id {
            return Err(err);
        }
        let s = self
            .slots
            .get_mut(id.index as usize)
            .filter(|s| s.generation == id.generation)
            .and_then(|s| s.node.as_mut());
        s.ok_or(err)
    }

    /// The node's name in quotes, or `#index`, as error messages show it.
    pub fn describe(&self, id: NodeId) -> String {
        match self.slot(id) {
            Some(n) => describe_node(n, id),
            None => format!("#{} (removed)", id.index),
        }
    }

    fn insert(&mut self, parent: NodeId, content: Content) -> Result<NodeId> {
        self.check_container(parent)?;
        let mut node = Node::new(content);
        node.parent = Some(parent);
        let id = match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.node = Some(node);
                NodeId {
                    index,
                    generation: slot.generation,
                    stage: self.id,
                }
            }
            None => {
                let index = u32::try_from(self.slots.len()).map_err(|_| Error::OutOfRange {
                    what: "number of nodes".into(),
                    value: self.slots.len() as f64,
                    range: "0..2^32",
                })?;
                self.slots.push(Slot {
                    generation: 0,
                    node: Some(node),
                });
                NodeId {
                    index,
                    generation: 0,
                    stage: self.id,
                }
            }
        };
        self.node_mut(parent)?.children.push(id);
        Ok(id)
    }

    pub(crate) fn check_container(&self, id: NodeId) -> Result<()> {
        match self.node(id)?.content {
            Content::Container(_) => Ok(()),
            Content::Bitmap { .. } | Content::Frames { .. } => Err(Error::NotContainer {
                node: self.describe(id),
            }),
        }
    }

    /// Adds an empty container as the last child of `parent`.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`] for a removed parent, [`Error::NotContainer`] when the parent is
    /// a bitmap.
    pub fn add_container(&mut self, parent: NodeId) -> Result<NodeId> {
        self.insert(parent, Content::Container(Vec::new()))
    }

    /// Adds a bitmap as the last child of `parent`; `smoothing` samples it bilinearly instead
    /// of nearest.
    ///
    /// # Errors
    ///
    /// As [`Stage::add_container`].
    pub fn add_bitmap(&mut self, parent: NodeId, bitmap: Bitmap, smoothing: bool) -> Result<NodeId> {
        self.insert(parent, Content::Bitmap { bitmap, smoothing })
    }

    /// Adds an animated leaf showing one of `frames` at a time (the first to begin with), as
    /// the last child of `parent`. Queries see the frame shown.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] when `frames` is empty, and as [`Stage::add_container`].
    pub fn add_frames(&mut self, parent: NodeId, frames: Vec<Frame>) -> Result<NodeId> {
        if frames.is_empty() {
            return Err(Error::OutOfRange {
                what: "number of frames".into(),
                value: 0.0,
                range: "1..",
            });
        }
        self.insert(parent, Content::Frames { frames, current: 0 })
    }

    /// The index of the frame shown, for an animated node.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn frame(&self, id: NodeId) -> Result<Option<usize>> {
        Ok(match &self.node(id)?.content {
            Content::Frames { current, .. } => Some(*current),
            _ => None,
        })
    }

    /// The frames of an animated node (empty for other nodes).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn frames(&self, id: NodeId) -> Result<&[Frame]> {
        Ok(match &self.node(id)?.content {
            Content::Frames { frames, .. } => frames,
            _ => &[],
        })
    }

    /// How many frames an animated node has (0 for other nodes).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn frame_count(&self, id: NodeId) -> Result<usize> {
        Ok(match &self.node(id)?.content {
            Content::Frames { frames, .. } => frames.len(),
            _ => 0,
        })
    }

    /// Shows frame `index` of an animated node.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] naming the node when there is no such frame or the node is not
    /// animated; [`Error::StaleNode`].
    pub fn set_frame(&mut self, id: NodeId, index: usize) -> Result<()> {
        let what = format!("frame of {}", self.describe(id));
        match &mut self.node_mut(id)?.content {
            Content::Frames { frames, current } if index < frames.len() => {
                *current = index;
                Ok(())
            }
            Content::Frames { frames, .. } => Err(Error::OutOfRange {
                what,
                value: index as f64,
                range: if frames.len() == 1 {
                    "0..1"
                } else {
                    "0..frame_count"
                },
            }),
            _ => Err(Error::OutOfRange {
                what: format!("{what} (not an animated node)"),
                value: index as f64,
                range: "none",
            }),
        }
    }

    /// Removes a node and its whole subtree; their ids become stale.
    ///
    /// # Errors
    ///
    /// [`Error::Root`] for the root, [`Error::StaleNode`] for a removed node. Nothing changes
    /// on error.
    pub fn remove(&mut self, id: NodeId) -> Result<()> {
        if id == self.root {
            return Err(Error::Root);
        }
        let parent = self.node(id)?.parent;
        if let Some(p) = parent {
            self.node_mut(p)?.children.retain(|c| *c != id);
        }
        self.revision += 1;
        let mut stack = vec![id];
        let mut links = Vec::new();
        while let Some(n) = stack.pop() {
            let slot = &mut self.slots[n.index as usize];
            if let Some(node) = slot.node.take() {
                stack.extend(node.children);
                links.push((n, node.mask, node.masking, node.hit_area, node.hit_area_of));
            }
            // A slot whose generation would wrap is retired, so that an old id can never
            // name a new node (it costs one empty slot per 2^32 reuses).
            if let Some(next) = slot.generation.checked_add(1) {
                slot.generation = next;
                self.free.push(n.index);
            }
        }
        // Nodes that stay lose their links to the removed ones: a node whose mask or hit
        // area was removed is no longer masked, or picked by its own content again.
        for (n, mask, masking, hit_area, hit_area_of) in links {
            if let Some(m) = mask.and_then(|m| self.slot_mut(m)) {
                m.masking.retain(|&x| x != n);
            }
            for masked in masking {
                if let Some(node) = self.slot_mut(masked) {
                    node.mask = None;
                }
            }
            if let Some(h) = hit_area.and_then(|h| self.slot_mut(h)) {
                h.hit_area_of.retain(|&x| x != n);
            }
            for owner in hit_area_of {
                if let Some(node) = self.slot_mut(owner) {
                    node.hit_area = None;
                }
            }
        }
        Ok(())
    }

    fn slot_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        let s = self.slots.get_mut(id.index as usize)?;
        (s.generation == id.generation)
            .then_some(s.node.as_mut())
            .flatten()
    }

    /// The parent, or `None` for the root.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn parent(&self, id: NodeId) -> Result<Option<NodeId>> {
        Ok(self.node(id)?.parent)
    }

    /// The children in paint order (empty for a bitmap).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn children(&self, id: NodeId) -> Result<&[NodeId]> {
        Ok(&self.node(id)?.children)
    }

    /// Whether `ancestor` is `node` itself or one of its ancestors.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`] for either id.
    pub fn is_ancestor(&self, ancestor: NodeId, node: NodeId) -> Result<bool> {
        self.node(ancestor)?;
        let mut cur = Some(node);
        while let Some(c) = cur {
            if c == ancestor {
                return Ok(true);
            }
            cur = self.node(c)?.parent;
        }
        Ok(false)
    }

    /// The first node with this name, in tree order.
    pub fn find(&self, name: &str) -> Option<NodeId> {
        let mut found = None;
        self.walk(self.root, |id, node| {
            if found.is_none() && node.name.as_deref() == Some(name) {
                found = Some(id);
            }
        });
        found
    }

    /// Visits `top` and its subtree in paint order (pre-order), without recursion.
    pub(crate) fn walk(&self, top: NodeId, mut f: impl FnMut(NodeId, &Node)) {
        let mut stack = vec![top];
        while let Some(id) = stack.pop() {
            if let Some(node) = self.slot(id) {
                f(id, node);
                stack.extend(node.children.iter().rev());
            }
        }
    }

    // ----- properties -----

    /// The node's name.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn name(&self, id: NodeId) -> Result<Option<&str>> {
        Ok(self.node(id)?.name.as_deref())
    }

    /// Names the node (names need not be unique in a stage; scene files require it).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn set_name(&mut self, id: NodeId, name: impl Into<String>) -> Result<()> {
        self.node_mut(id)?.name = Some(name.into());
        Ok(())
    }

    /// The matrix `[a, b, c, d, tx, ty]` mapping the node's space into its parent's.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn matrix(&self, id: NodeId) -> Result<DAffine2> {
        Ok(self.node(id)?.matrix)
    }

    /// Sets the matrix (skew allowed; a singular matrix makes the node cover nothing).
    ///
    /// The property getters then read it as Flash does: [`Stage::x`] and [`Stage::y`] are
    /// `tx` and `ty`; [`Stage::rotation`] is the angle of the x axis, `atan2(b, a)` in
    /// degrees, in `-180..=180`; [`Stage::scale_x`] and [`Stage::scale_y`] are the lengths of
    /// the two axes, `hypot(a, b)` and `hypot(c, d)`, never negative (a mirrored matrix
    /// shows as a skew of 180 degrees, which the setters keep). Setting one property
    /// afterwards keeps the others, skew included.
    ///
    /// ```
    /// use pixelhit::{DAffine2, Stage};
    /// let mut stage = Stage::new();
    /// let n = stage.add_container(stage.root())?;
    /// stage.set_matrix(n, DAffine2::from_cols_array(&[0.0, -3.0, 2.0, 0.0, 5.0, 6.0]))?;
    /// assert_eq!(stage.rotation(n)?, -90.0);
    /// assert_eq!((stage.scale_x(n)?, stage.scale_y(n)?), (3.0, 2.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node when an entry is not finite; [`Error::StaleNode`].
    pub fn set_matrix(&mut self, id: NodeId, m: impl IntoAffine) -> Result<()> {
        let m = m.into_affine();
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!("matrix of {}", self.describe(id)),
            });
        }
        let node = self.node_mut(id)?;
        node.matrix = m;
        node.props = Props::from_matrix(&m);
        Ok(())
    }

    fn set_prop(&mut self, id: NodeId, what: &str, value: f64, f: impl FnOnce(&mut Props)) -> Result<()> {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: format!("{what} of {}", self.describe(id)),
            });
        }
        let node = self.node_mut(id)?;
        let mut props = node.props;
        f(&mut props);
        let m = props.to_matrix();
        if !transform::is_finite(&m) {
            let what = format!("matrix of {}", describe_node(node, id));
            return Err(Error::NonFinite { what });
        }
        node.props = props;
        node.matrix = m;
        Ok(())
    }

    /// Sets `tx` or `ty` alone: the rest of the matrix stays exactly as it is (recomposing it
    /// from the properties would move its other entries by rounding).
    fn set_translation(
        &mut self,
        id: NodeId,
        what: &str,
        value: f64,
        f: impl FnOnce(&mut DVec2),
    ) -> Result<()> {
        if !value.is_finite() {
            return Err(Error::NonFinite {
                what: format!("{what} of {}", self.describe(id)),
            });
        }
        let node = self.node_mut(id)?;
        f(&mut node.matrix.translation);
        node.props.x = node.matrix.translation.x;
        node.props.y = node.matrix.translation.y;
        Ok(())
    }

    /// x position in the parent (`tx`).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn x(&self, id: NodeId) -> Result<f64> {
        Ok(self.node(id)?.matrix.translation.x)
    }
    /// y position in the parent (`ty`).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn y(&self, id: NodeId) -> Result<f64> {
        Ok(self.node(id)?.matrix.translation.y)
    }
    /// Rotation in degrees, clockwise on screen.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn rotation(&self, id: NodeId) -> Result<f64> {
        Ok(self.node(id)?.props.rotation)
    }
    /// Horizontal scale (length of the matrix's x axis).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn scale_x(&self, id: NodeId) -> Result<f64> {
        Ok(self.node(id)?.props.scale_x)
    }
    /// Vertical scale (length of the matrix's y axis).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn scale_y(&self, id: NodeId) -> Result<f64> {
        Ok(self.node(id)?.props.scale_y)
    }

    /// Sets the x position.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node; [`Error::StaleNode`].
    pub fn set_x(&mut self, id: NodeId, x: f64) -> Result<()> {
        self.set_translation(id, "x", x, |t| t.x = x)
    }
    /// Sets the y position.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_y(&mut self, id: NodeId, y: f64) -> Result<()> {
        self.set_translation(id, "y", y, |t| t.y = y)
    }
    /// Places the node at `(x, y)` in its parent: one call for a sprite's position each
    /// frame. Only the matrix's translation changes, exactly (its other entries are kept as
    /// they are, not recomposed).
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let ship = stage.add_container(stage.root())?;
    /// stage.set_position(ship, 120.5, 80.25)?;
    /// assert_eq!((stage.x(ship)?, stage.y(ship)?), (120.5, 80.25));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node and the coordinate; [`Error::StaleNode`]. Nothing
    /// changes on error.
    pub fn set_position(&mut self, id: NodeId, x: f64, y: f64) -> Result<()> {
        if !y.is_finite() {
            return Err(Error::NonFinite {
                what: format!("y of {}", self.describe(id)),
            });
        }
        self.set_translation(id, "x", x, |t| *t = DVec2::new(x, y))
    }

    /// Sets both scales to `s`, keeping rotation and skew (Flash's `scaleX = scaleY = s`). A
    /// negative `s` turns the node half a turn.
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let n = stage.add_container(stage.root())?;
    /// stage.set_rotation(n, 30.0)?;
    /// stage.set_scale(n, 2.5)?;
    /// assert_eq!((stage.scale_x(n)?, stage.scale_y(n)?, stage.rotation(n)?), (2.5, 2.5, 30.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_scale(&mut self, id: NodeId, s: f64) -> Result<()> {
        self.set_prop(id, "scale", s, |p| (p.scale_x, p.scale_y) = (s, s))
    }

    /// Sets position, rotation (degrees, clockwise on screen) and both scales in one call:
    /// the matrix becomes scale, then rotate, then translate, as
    /// [`matrix_from_properties`](crate::matrix_from_properties) builds it; any skew is
    /// dropped. The node turns and scales about its own origin, as in Flash: to turn a sprite
    /// about its centre, put its art in a child offset by half its size (see the crate's
    /// front page, "Pivots").
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let ship = stage.add_container(stage.root())?;
    /// stage.set_transform(ship, 100.0, 50.0, 90.0, 2.0, 2.0)?;
    /// assert_eq!(stage.matrix(ship)?.to_cols_array(), [0.0, 2.0, -2.0, 0.0, 100.0, 50.0]);
    /// assert_eq!(stage.rotation(ship)?, 90.0);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node and the property, or the matrix when the product
    /// overflows; [`Error::StaleNode`]. Nothing changes on error.
    pub fn set_transform(
        &mut self,
        id: NodeId,
        x: f64,
        y: f64,
        rotation: f64,
        scale_x: f64,
        scale_y: f64,
    ) -> Result<()> {
        let values = [("x", x), ("y", y), ("rotation", rotation), ("scale_x", scale_x)];
        if let Some((what, _)) = values.iter().find(|(_, v)| !v.is_finite()) {
            return Err(Error::NonFinite {
                what: format!("{what} of {}", self.describe(id)),
            });
        }
        self.set_prop(id, "scale_y", scale_y, |p| {
            *p = Props {
                x,
                y,
                rotation,
                skew: 0.0,
                scale_x,
                scale_y,
            }
        })
    }

    /// Sets the rotation in degrees, keeping scale and any skew.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_rotation(&mut self, id: NodeId, degrees: f64) -> Result<()> {
        self.set_prop(id, "rotation", degrees, |p| p.rotation = degrees)
    }
    /// Sets the horizontal scale, keeping rotation.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_scale_x(&mut self, id: NodeId, s: f64) -> Result<()> {
        self.set_prop(id, "scale_x", s, |p| p.scale_x = s)
    }
    /// Sets the vertical scale, keeping rotation.
    ///
    /// # Errors
    ///
    /// As [`Stage::set_x`].
    pub fn set_scale_y(&mut self, id: NodeId, s: f64) -> Result<()> {
        self.set_prop(id, "scale_y", s, |p| p.scale_y = s)
    }

    /// Whether the node is drawn. A hidden descendant has no pixels; the target of a query
    /// is drawn whatever its own visibility.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn visible(&self, id: NodeId) -> Result<bool> {
        Ok(self.node(id)?.visible)
    }
    /// Shows or hides the node.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn set_visible(&mut self, id: NodeId, visible: bool) -> Result<()> {
        self.node_mut(id)?.visible = visible;
        Ok(())
    }

    /// Whether the node is on screen as far as visibility goes: it and every ancestor up to
    /// the root are visible. [`CollisionOptions::skip_hidden`](crate::CollisionOptions)
    /// queries leave out nodes for which this is false.
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let layer = stage.add_container(stage.root())?;
    /// let sprite = stage.add_container(layer)?;
    /// stage.set_visible(layer, false)?;
    /// assert!(stage.visible(sprite)? && !stage.is_shown(sprite)?);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn is_shown(&self, id: NodeId) -> Result<bool> {
        let mut cur = Some(id);
        while let Some(c) = cur {
            let node = self.node(c)?;
            if !node.visible {
                return Ok(false);
            }
            cur = node.parent;
        }
        Ok(true)
    }

    /// The node's own collision tolerance, if it has one (see [`Stage::set_tolerance`]).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn tolerance(&self, id: NodeId) -> Result<Option<u8>> {
        Ok(self.node(id)?.tolerance)
    }

    /// Gives the node a collision tolerance of its own, used instead of the query's whenever
    /// the node is a target of a collision query (`collision_rect`, `collision`, the
    /// many-object queries, the methods): a pixel of it is solid when its alpha is at least
    /// `max(1, 255 - tolerance)`. A ghost with `Some(0)` collides only where it is fully
    /// opaque, whatever the query asks. `None` goes back to the query's tolerance. Only the
    /// targets' own settings count, not those of their ancestors or descendants.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let ghost = stage.add_container(root)?;
    /// stage.add_graphic(ghost, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 0.5)?)?;
    /// let wall = stage.add_container(root)?;
    /// stage.add_graphic(wall, Graphic::fill(Path::rect(5.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let opts = CollisionOptions::default(); // tolerance 255: any alpha counts
    /// assert!(stage.collision(ghost, wall, root, &opts)?.rect.is_some());
    /// stage.set_tolerance(ghost, Some(0))?; // only fully opaque pixels of the ghost
    /// assert!(stage.collision(ghost, wall, root, &opts)?.rect.is_none());
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn set_tolerance(&mut self, id: NodeId, tolerance: Option<u8>) -> Result<()> {
        self.node_mut(id)?.tolerance = tolerance;
        Ok(())
    }

    /// The alpha multiplier, 0..=1.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn alpha(&self, id: NodeId) -> Result<f64> {
        Ok(self.node(id)?.color.alpha_multiplier)
    }
    /// Sets the alpha multiplier.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] naming the node when `alpha` is outside 0..=1 or NaN;
    /// [`Error::StaleNode`].
    pub fn set_alpha(&mut self, id: NodeId, alpha: f64) -> Result<()> {
        if !(0.0..=1.0).contains(&alpha) {
            return Err(Error::OutOfRange {
                what: format!("alpha of {}", self.describe(id)),
                value: alpha,
                range: "0..=1",
            });
        }
        self.node_mut(id)?.color.alpha_multiplier = alpha;
        Ok(())
    }

    /// The colour transform (its alpha multiplier is the `alpha` property).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn color_transform(&self, id: NodeId) -> Result<ColorTransform> {
        Ok(self.node(id)?.color)
    }
    /// Sets the colour transform, alpha included.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] naming the node; [`Error::StaleNode`].
    pub fn set_color_transform(&mut self, id: NodeId, ct: ColorTransform) -> Result<()> {
        ct.check_finite(|| format!("colour transform of {}", self.describe(id)))?;
        self.node_mut(id)?.color = ct;
        Ok(())
    }

    /// The container's graphics, or the graphics of the frame an animated node shows (empty
    /// for a bitmap).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn graphics(&self, id: NodeId) -> Result<&[Graphic]> {
        Ok(self.node(id)?.content.shown().0)
    }

    /// Appends a fill or stroke to a container's graphics.
    ///
    /// # Errors
    ///
    /// [`Error::NotContainer`] for a bitmap; [`Error::StaleNode`].
    pub fn add_graphic(&mut self, id: NodeId, g: Graphic) -> Result<()> {
        self.check_container(id)?;
        if let Content::Container(gs) = &mut self.node_mut(id)?.content {
            gs.push(g);
        }
        Ok(())
    }

    /// Replaces a container's graphics.
    ///
    /// # Errors
    ///
    /// As [`Stage::add_graphic`].
    pub fn set_graphics(&mut self, id: NodeId, graphics: Vec<Graphic>) -> Result<()> {
        self.check_container(id)?;
        if let Content::Container(gs) = &mut self.node_mut(id)?.content {
            *gs = graphics;
        }
        Ok(())
    }

    /// The bitmap and its smoothing flag, for a bitmap node or an animated node showing a
    /// bitmap frame.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn bitmap(&self, id: NodeId) -> Result<Option<(&Bitmap, bool)>> {
        Ok(self.node(id)?.content.shown().1)
    }

    /// Replaces a bitmap node's image and smoothing flag.
    ///
    /// # Errors
    ///
    /// [`Error::NotBitmap`] for a container; [`Error::StaleNode`].
    pub fn set_bitmap(&mut self, id: NodeId, bitmap: Bitmap, smoothing: bool) -> Result<()> {
        let desc = self.describe(id);
        let node = self.node_mut(id)?;
        match node.content {
            Content::Bitmap { .. } => {
                node.content = Content::Bitmap { bitmap, smoothing };
                Ok(())
            }
            Content::Container(_) | Content::Frames { .. } => Err(Error::NotBitmap { node: desc }),
        }
    }

    // ----- spaces -----

    /// The matrix mapping `id`'s space into `ancestor`'s: the product of the matrices on
    /// the path, `id`'s own applied first. Identity when `id == ancestor`.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `ancestor` is not above `id`, [`Error::NonFinite`]
    /// when the product overflows, [`Error::StaleNode`].
    pub fn matrix_to(&self, id: NodeId, ancestor: NodeId) -> Result<DAffine2> {
        self.node(ancestor)?;
        // Walking up multiplies each parent's matrix on the left; no path is collected, so
        // the per-query cost is a few multiplications and no allocation.
        let mut m = DAffine2::IDENTITY;
        let mut cur = id;
        while cur != ancestor {
            let node = self.node(cur)?;
            m = node.content_matrix() * m;
            cur = node.parent.ok_or_else(|| Error::NotDescendant {
                node: self.describe(id),
                ancestor: self.describe(ancestor),
            })?;
        }
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!(
                    "matrix of {} relative to {}",
                    self.describe(id),
                    self.describe(ancestor)
                ),
            });
        }
        Ok(m)
    }

    /// The colour transform of `id` relative to `ancestor`: its own, then each ancestor's
    /// below `ancestor`. Identity when `id == ancestor`.
    ///
    /// # Errors
    ///
    /// As [`Stage::matrix_to`].
    pub fn color_transform_to(&self, id: NodeId, ancestor: NodeId) -> Result<ColorTransform> {
        self.node(ancestor)?;
        let mut ct = ColorTransform::IDENTITY;
        let mut cur = id;
        while cur != ancestor {
            let node = self.node(cur)?;
            ct = node.color.concat(&ct);
            cur = node.parent.ok_or_else(|| Error::NotDescendant {
                node: self.describe(id),
                ancestor: self.describe(ancestor),
            })?;
        }
        ct.check_finite(|| {
            format!(
                "colour transform of {} relative to {}",
                self.describe(id),
                self.describe(ancestor)
            )
        })?;
        Ok(ct)
    }

    /// The matrix mapping `id`'s space into `space`'s, for any two nodes (through the root).
    ///
    /// # Errors
    ///
    /// [`Error::Singular`] when `space` is not `id`'s ancestor and its matrix to the root
    /// has no inverse, [`Error::NonFinite`], [`Error::StaleNode`].
    pub fn matrix_between(&self, id: NodeId, space: NodeId) -> Result<DAffine2> {
        if self.is_ancestor(space, id)? {
            return self.matrix_to(id, space);
        }
        let to_root = self.matrix_to(id, self.root)?;
        let space_to_root = self.matrix_to(space, self.root)?;
        let inv = invert(&space_to_root).ok_or_else(|| Error::Singular {
            what: format!("matrix of {} to the root", self.describe(space)),
        })?;
        let m = inv * to_root;
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!(
                    "matrix of {} relative to {}",
                    self.describe(id),
                    self.describe(space)
                ),
            });
        }
        Ok(m)
    }

    /// Maps a point of `id`'s space into the root's.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] when the result overflows, [`Error::StaleNode`].
    pub fn local_to_global(&self, id: NodeId, p: impl IntoPoint) -> Result<DVec2> {
        let q = self.matrix_to(id, self.root)?.transform_point2(p.into_point());
        if q.is_finite() {
            Ok(q)
        } else {
            Err(Error::NonFinite {
                what: format!("point mapped from {} to the root", self.describe(id)),
            })
        }
    }

    /// Maps a point of the root's space into `id`'s.
    ///
    /// # Errors
    ///
    /// [`Error::Singular`] when `id`'s matrix to the root has no inverse,
    /// [`Error::NonFinite`], [`Error::StaleNode`].
    pub fn global_to_local(&self, id: NodeId, p: impl IntoPoint) -> Result<DVec2> {
        let p = p.into_point();
        let m = self.matrix_to(id, self.root)?;
        let inv = invert(&m).ok_or_else(|| Error::Singular {
            what: format!("matrix of {} to the root", self.describe(id)),
        })?;
        let q = inv.transform_point2(p);
        if q.is_finite() {
            Ok(q)
        } else {
            Err(Error::NonFinite {
                what: format!("point mapped from the root to {}", self.describe(id)),
            })
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn a_slot_whose_generation_would_wrap_is_retired() {
        let mut s = Stage::new();
        let root = s.root();
        let a = s.add_container(root).unwrap();
        s.slots[a.index as usize].generation = u32::MAX;
        let old = NodeId {
            generation: u32::MAX,
            ..a
        };
        s.remove(old).unwrap();
        // Before, the generation wrapped to 0 and the next node took the slot: an id from
        // 2^32 reuses ago named it again.
        let b = s.add_container(root).unwrap();
        assert_ne!(b.index, a.index);
        let ancient = NodeId { generation: 0, ..a };
        assert!(matches!(s.name(ancient), Err(Error::StaleNode { .. })));
    }

    #[test]
    fn ids_of_another_stage_are_refused_and_clones_share_ids() {
        let mut one = Stage::new();
        let mut two = Stage::new();
        let a = one.add_container(one.root()).unwrap();
        let b = two.add_container(two.root()).unwrap();
        assert_eq!((a.index, a.generation), (b.index, b.generation));
        let e = two.set_x(a, 5.0).unwrap_err();
        assert!(matches!(e, Error::ForeignNode { .. }), "{e}");
        assert_eq!(e.to_string(), "node #1 belongs to another stage");
        assert!(!two.contains(a));
        assert!(matches!(
            two.bounds(a, two.root()),
            Err(Error::ForeignNode { .. })
        ));
        let copy = one.clone();
        assert!(copy.contains(a));
    }

    #[test]
    fn removed_ids_are_detected_even_after_reuse() {
        let mut s = Stage::new();
        let a = s.add_container(s.root()).unwrap();
        s.remove(a).unwrap();
        let b = s.add_container(s.root()).unwrap();
        assert_eq!(a.index(), b.index());
        assert!(matches!(s.x(a), Err(Error::StaleNode { .. })));
        assert!(s.x(b).is_ok());
    }

    #[test]
    fn removing_a_subtree_frees_every_node() {
        let mut s = Stage::new();
        let a = s.add_container(s.root()).unwrap();
        let b = s.add_container(a).unwrap();
        let c = s.add_container(b).unwrap();
        s.remove(a).unwrap();
        assert!(!s.contains(c));
        assert_eq!(s.len(), 1);
        assert_eq!(s.children(s.root()).unwrap(), &[]);
        assert_eq!(s.remove(s.root()), Err(Error::Root));
    }

    #[test]
    fn cycles_are_refused_and_the_tree_is_unchanged() {
        let mut s = Stage::new();
        let a = s.add_container(s.root()).unwrap();
        let b = s.add_container(a).unwrap();
        assert!(matches!(s.set_parent(a, b), Err(Error::Cycle { .. })));
        assert!(matches!(s.set_parent(a, a), Err(Error::Cycle { .. })));
        assert_eq!(s.parent(b).unwrap(), Some(a));
        assert_eq!(s.parent(a).unwrap(), Some(s.root()));
        s.set_parent(b, s.root()).unwrap();
        assert_eq!(s.children(s.root()).unwrap(), &[a, b]);
        assert_eq!(s.children(a).unwrap(), &[]);
    }

    #[test]
    fn concatenated_matrix_matches_flash() {
        let mut s = Stage::new();
        let p = s.add_container(s.root()).unwrap();
        let c = s.add_container(p).unwrap();
        s.set_matrix(p, DAffine2::from_cols_array(&[1.3, 0.2, 0.1, 1.2, 40.0, 50.0]))
            .unwrap();
        s.set_matrix(c, DAffine2::from_cols_array(&[1.3, 0.2, 0.2, 1.2, 60.0, 70.0]))
            .unwrap();
        let m = s.matrix_to(c, s.root()).unwrap().to_cols_array();
        let want = [1.71, 0.5, 0.38, 1.48, 125.0, 146.0];
        for (got, want) in m.iter().zip(want) {
            assert!((got - want).abs() < 1e-9, "{m:?}");
        }
    }

    #[test]
    fn deep_trees_do_not_recurse() {
        let mut s = Stage::new();
        let mut cur = s.root();
        for _ in 0..100_000 {
            cur = s.add_container(cur).unwrap();
            s.set_x(cur, 1.0).unwrap();
        }
        assert_eq!(s.local_to_global(cur, DVec2::ZERO).unwrap().x, 100_000.0);
        let first = s.children(s.root()).unwrap()[0];
        s.remove(first).unwrap();
        assert_eq!(s.len(), 1);
    }

    #[test]
    fn non_finite_and_out_of_range_values_are_refused_with_the_node_named() {
        let mut s = Stage::new();
        let a = s.add_container(s.root()).unwrap();
        s.set_name(a, "ship").unwrap();
        let e = s.set_x(a, f64::NAN).unwrap_err();
        assert!(e.to_string().contains("\"ship\""), "{e}");
        assert!(s.set_alpha(a, 1.5).is_err());
        assert!(s.set_alpha(a, f64::NAN).is_err());
        assert_eq!(s.x(a).unwrap(), 0.0);
        s.set_scale_x(a, 1e300).unwrap();
        s.set_scale_y(a, 1e300).unwrap();
        let b = s.add_container(a).unwrap();
        s.set_scale_x(b, 1e300).unwrap();
        assert!(matches!(s.matrix_to(b, s.root()), Err(Error::NonFinite { .. })));
    }

    #[test]
    fn rotation_keeps_scale_through_zero() {
        let mut s = Stage::new();
        let a = s.add_container(s.root()).unwrap();
        s.set_rotation(a, 30.0).unwrap();
        s.set_scale_x(a, 0.0).unwrap();
        s.set_scale_x(a, 2.0).unwrap();
        assert!((s.rotation(a).unwrap() - 30.0).abs() < 1e-12);
        assert_eq!(s.scale_x(a).unwrap(), 2.0);
    }

    #[test]
    fn global_to_local_inverts_local_to_global() {
        let mut s = Stage::new();
        let a = s.add_container(s.root()).unwrap();
        s.set_matrix(a, DAffine2::from_cols_array(&[1.0, 2.0, 0.5, 3.0, 3.0, 4.0]))
            .unwrap();
        let p = DVec2::new(7.0, -2.0);
        let back = s.global_to_local(a, s.local_to_global(a, p).unwrap()).unwrap();
        assert!((back - p).length() < 1e-12);
        s.set_scale_x(a, 0.0).unwrap();
        assert!(matches!(s.global_to_local(a, p), Err(Error::Singular { .. })));
    }
}
