//! The display tree: an arena of nodes with generational ids.
//!
//! A [`Stage`] owns every node; callers hold [`NodeId`]s, small `Copy` handles that carry a
//! generation so that an id of a removed node is detected instead of silently pointing at
//! whatever reused its slot. There is no `Rc<RefCell>`: the tree is plain data, queries borrow
//! it immutably, and every walk over it is iterative, so a tree 100,000 levels deep is fine.
//!
//! Every node lives under the root. A node is a container (its own graphics, drawn first, then
//! its children in order) or a bitmap (a leaf).

use crate::tree::node::{Content, Node, NodeId};
use crate::{Bitmap, Error, Result};

/// Numbers stages, so that an id handed to a stage that did not make it is refused.
static NEXT_STAGE: std::sync::atomic::AtomicU32 = std::sync::atomic::AtomicU32::new(1);

#[derive(Clone, Debug)]
struct Slot {
    generation: u32,
    /// The number of the stage that made the id of the node in this slot now: ids made
    /// before a clone keep working in both stages, ids made after it in their own alone.
    made_by: u32,
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
/// # Methods by topic
///
/// Every query names its objects first and the space of its answer (`parent`) after them;
/// `_with` is the same call with every option, `_by` the same by a chosen method (the rule
/// is written out in the docs of the `query` module, `src/query/mod.rs`).
///
/// | topic | methods |
/// |---|---|
/// | the tree | [`new`](Stage::new), [`root`](Stage::root), [`add_container`](Stage::add_container), [`add_bitmap`](Stage::add_bitmap), [`add_frames`](Stage::add_frames), [`parent`](Stage::parent), [`children`](Stage::children), [`is_ancestor`](Stage::is_ancestor), [`find`](Stage::find), [`contains`](Stage::contains), [`len`](Stage::len), [`is_empty`](Stage::is_empty), [`describe`](Stage::describe) |
/// | the display list | [`set_parent`](Stage::set_parent), [`add_child_at`](Stage::add_child_at), [`child_at`](Stage::child_at), [`child_index`](Stage::child_index), [`set_child_index`](Stage::set_child_index), [`swap_children`](Stage::swap_children), [`remove_children`](Stage::remove_children), [`remove`](Stage::remove) |
/// | placing a node | [`set_position`](Stage::set_position), [`set_transform`](Stage::set_transform), [`set_x`](Stage::set_x), [`set_y`](Stage::set_y), [`set_rotation`](Stage::set_rotation), [`set_scale`](Stage::set_scale), [`set_scale_x`](Stage::set_scale_x), [`set_scale_y`](Stage::set_scale_y), [`set_matrix`](Stage::set_matrix), and the readers [`x`](Stage::x), [`y`](Stage::y), [`rotation`](Stage::rotation), [`scale_x`](Stage::scale_x), [`scale_y`](Stage::scale_y), [`matrix`](Stage::matrix), [`pose`](Stage::pose) |
/// | how a node shows | [`set_visible`](Stage::set_visible), [`is_shown`](Stage::is_shown), [`set_alpha`](Stage::set_alpha), [`set_color_transform`](Stage::set_color_transform), [`set_tolerance`](Stage::set_tolerance), [`set_name`](Stage::set_name), and their readers |
/// | what a node draws | [`add_graphic`](Stage::add_graphic), [`graphics`](Stage::graphics), [`set_graphics`](Stage::set_graphics), [`bitmap`](Stage::bitmap), [`set_bitmap`](Stage::set_bitmap), [`paint`](Stage::paint), [`erase`](Stage::erase), [`frame`](Stage::frame), [`frames`](Stage::frames), [`frame_count`](Stage::frame_count), [`set_frame`](Stage::set_frame) |
/// | masks and scroll windows | [`set_mask`](Stage::set_mask), [`mask`](Stage::mask), [`masked_by`](Stage::masked_by), [`set_scroll_rect`](Stage::set_scroll_rect), [`scroll_rect`](Stage::scroll_rect), [`visible_bounds`](Stage::visible_bounds) |
/// | spaces | [`matrix_to`](Stage::matrix_to), [`matrix_between`](Stage::matrix_between), [`color_transform_to`](Stage::color_transform_to), [`local_to_global`](Stage::local_to_global), [`global_to_local`](Stage::global_to_local) |
/// | bounds | [`bounds`](Stage::bounds), [`rect`](Stage::rect), [`tight_bounds`](Stage::tight_bounds) |
/// | two objects | [`collision_rect`](Stage::collision_rect), [`collision`](Stage::collision), [`hit_test_object`](Stage::hit_test_object), [`alpha_plane`](Stage::alpha_plane) |
/// | many objects a frame | [`contacts_among`](Stage::contacts_among), [`contacts_against`](Stage::contacts_against), [`contacts_between`](Stage::contacts_between) |
/// | by a chosen method | [`collides`](Stage::collides), [`collides_with`](Stage::collides_with), [`collides_probe`](Stage::collides_probe), [`collision_by`](Stage::collision_by), [`radial_profile`](Stage::radial_profile) |
/// | motion | [`sweep`](Stage::sweep), [`sweeps_against`](Stage::sweeps_against), [`sweeps_between`](Stage::sweeps_between), [`separation`](Stage::separation), [`pose`](Stage::pose) |
/// | points and the mouse | [`hit_test_point`](Stage::hit_test_point), [`pick`](Stage::pick), [`objects_under_point`](Stage::objects_under_point), [`set_interactive`](Stage::set_interactive), [`set_mouse_enabled`](Stage::set_mouse_enabled), [`set_mouse_children`](Stage::set_mouse_children), [`set_hit_area`](Stage::set_hit_area), and their readers |
/// | the cache | [`cache_bytes`](Stage::cache_bytes), [`clear_cache`](Stage::clear_cache) |
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
///
/// # Clones
///
/// A clone is a separate tree with a number of its own. The ids of nodes that existed
/// when it was cloned name the same nodes in both (a snapshot is used with the ids one
/// already holds); ids made afterwards, by either, belong to the stage that made them
/// alone, and the other refuses them with [`Error::ForeignNode`], even when both put their
/// new nodes in the same slot:
///
/// ```
/// use pixelhit::{Error, Stage};
/// let mut stage = Stage::new();
/// let ship = stage.add_container(stage.root())?;
/// let mut snapshot = stage.clone();
/// snapshot.set_x(ship, 10.0)?; // an id made before the clone works in both
/// assert_eq!(stage.x(ship)?, 0.0);
/// let in_snapshot = snapshot.add_container(snapshot.root())?;
/// let in_stage = stage.add_container(stage.root())?;
/// assert_ne!(in_snapshot, in_stage);
/// assert!(matches!(stage.remove(in_snapshot), Err(Error::ForeignNode { .. })));
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Debug)]
pub struct Stage {
    /// This stage's number, in its ids.
    id: u32,
    slots: Vec<Slot>,
    free: Vec<u32>,
    root: NodeId,
    /// Rasters kept between queries; keyed by content, so edits never make an entry stale.
    pub(crate) cache: crate::raster::RasterCache,
    /// Counts changes, so that what is kept about the tree knows when it is stale.
    revision: u64,
    /// Counts changes other than edits of a bitmap's pixels, which leave every node's
    /// place and box as they were (what the pick index holds).
    layout_revision: u64,
    /// Root-space boxes of what can be picked, built when a pick needs them.
    pub(crate) pick_index: crate::tree::derived::DerivedCell,
    /// The clips above a moving target, made once per motion query's tree.
    pub(crate) ancestor_clips: crate::tree::ancestor_clips::AncestorClips,
}

impl Default for Stage {
    fn default() -> Self {
        Stage::new()
    }
}

impl Clone for Stage {
    /// A copy of the tree with a stage number of its own (see [`Stage`], "Clones").
    fn clone(&self) -> Self {
        Stage {
            id: next_stage_number(),
            slots: self.slots.clone(),
            free: self.free.clone(),
            root: self.root,
            cache: self.cache.clone(),
            revision: self.revision,
            layout_revision: self.layout_revision,
            pick_index: self.pick_index.clone(),
            ancestor_clips: self.ancestor_clips.clone(),
        }
    }
}

fn next_stage_number() -> u32 {
    NEXT_STAGE.fetch_add(1, std::sync::atomic::Ordering::Relaxed)
}

/// How a node is described in error messages: its name in quotes, or `#index`.
pub(crate) fn describe_node(node: &Node, id: NodeId) -> String {
    match &node.name {
        Some(n) => format!("{n:?}"),
        None => format!("#{}", id.index),
    }
}

/// The arena: making, finding and freeing nodes, and the shape of the tree.
impl Stage {
    /// A stage holding only an empty root container.
    pub fn new() -> Stage {
        let id = next_stage_number();
        Stage {
            id,
            slots: vec![Slot {
                generation: 0,
                made_by: id,
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
            layout_revision: 0,
            pick_index: crate::tree::derived::DerivedCell::default(),
            ancestor_clips: crate::tree::ancestor_clips::AncestorClips::default(),
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
    /// never more than its limit of 128 MiB. It keeps what the queries of the current and
    /// the previous frame used (a frame: every query while the tree is unchanged) and drops
    /// the rest a generation at a time when a frame starts.
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
    pub fn contains(&self, node: NodeId) -> bool {
        self.slot(node).is_some()
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
        let s = self.slots.get(id.index as usize)?;
        if s.generation != id.generation || s.made_by != id.stage {
            return None;
        }
        s.node.as_ref()
    }

    /// The error for an id that names no live node here: stale when this stage (or the one
    /// it was cloned from, for the slot) made it, foreign otherwise.
    fn missing(&self, id: NodeId) -> Error {
        let ours = id.stage == self.id
            || self
                .slots
                .get(id.index as usize)
                .is_some_and(|s| s.made_by == id.stage);
        match ours {
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

    /// Goes up by one at every change of the tree but edits of a bitmap's pixels.
    pub(crate) fn layout_revision(&self) -> u64 {
        self.layout_revision
    }

    pub(crate) fn node_mut(&mut self, id: NodeId) -> Result<&mut Node> {
        self.layout_revision += 1;
        self.pixels_mut(id)
    }

    /// The node, for a change of its bitmap's pixels alone: its place and box stay.
    pub(crate) fn pixels_mut(&mut self, id: NodeId) -> Result<&mut Node> {
        // The revision `changed_mut` raises to.
        let revision = self.revision + 1;
        let node = self.changed_mut(id)?;
        node.stamp = revision;
        Ok(node)
    }

    /// The node, for a change of its matrix alone (and the properties it is read as): its
    /// stamp stays, so that a kept pair can tell a move from any other change.
    pub(crate) fn placement_mut(&mut self, id: NodeId) -> Result<&mut Node> {
        self.layout_revision += 1;
        self.changed_mut(id)
    }

    /// The node, for any change: the revision goes up.
    fn changed_mut(&mut self, id: NodeId) -> Result<&mut Node> {
        // Every change goes through here (or through `remove`).
        self.revision += 1;
        // The error's text is built only on the error path: formatting it first cost most of
        // a `set_transform` call (813 of 1,330 instructions, issue 29).
        if self.slot(id).is_none() {
            return Err(self.missing(id));
        }
        let s = self
            .slots
            .get_mut(id.index as usize)
            .and_then(|s| s.node.as_mut());
        s.ok_or_else(|| Error::StaleNode {
            node: format!("#{}", id.index),
        })
    }

    /// The node's name in quotes, or `#index`, as error messages show it.
    pub fn describe(&self, node: NodeId) -> String {
        match self.slot(node) {
            Some(n) => describe_node(n, node),
            None => format!("#{} (removed)", node.index),
        }
    }

    pub(crate) fn insert(&mut self, parent: NodeId, content: Content) -> Result<NodeId> {
        self.check_container(parent)?;
        let mut node = Node::new(content);
        node.parent = Some(parent);
        // New: changed at the revision that adds it (its parent's change below).
        node.stamp = self.revision + 1;
        let id = match self.free.pop() {
            Some(index) => {
                let slot = &mut self.slots[index as usize];
                slot.node = Some(node);
                slot.made_by = self.id;
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
                    made_by: self.id,
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

    /// Takes `id` and its whole subtree out of the arena (their ids become stale) and
    /// hands back their nodes, for [`Stage::remove`] to undo their links. The caller has
    /// detached `id` from its parent.
    pub(crate) fn free_subtree(&mut self, id: NodeId) -> Vec<(NodeId, Node)> {
        self.revision += 1;
        self.layout_revision += 1;
        let mut stack = vec![id];
        let mut removed = Vec::new();
        while let Some(n) = stack.pop() {
            let slot = &mut self.slots[n.index as usize];
            if let Some(mut node) = slot.node.take() {
                stack.append(&mut node.children);
                removed.push((n, node));
            }
            // A slot whose generation would wrap is retired, so that an old id can never
            // name a new node (it costs one empty slot per 2^32 reuses).
            if let Some(next) = slot.generation.checked_add(1) {
                slot.generation = next;
                self.free.push(n.index);
            }
        }
        removed
    }

    /// The node of a live id, or `None` (no error) for a stale one, stamped as changed now
    /// (the caller has raised the revision: a removal unlinking what stays).
    pub(crate) fn live_node_mut(&mut self, id: NodeId) -> Option<&mut Node> {
        let revision = self.revision;
        let s = self.slots.get_mut(id.index as usize)?;
        let node = (s.generation == id.generation && s.made_by == id.stage)
            .then_some(s.node.as_mut())
            .flatten()?;
        node.stamp = revision;
        Some(node)
    }

    /// The parent, or `None` for the root.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn parent(&self, node: NodeId) -> Result<Option<NodeId>> {
        Ok(self.node(node)?.parent)
    }

    /// The children in paint order (empty for a bitmap).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn children(&self, node: NodeId) -> Result<&[NodeId]> {
        Ok(&self.node(node)?.children)
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
}

#[cfg(test)]
mod tests {
    use glam::{DAffine2, DVec2};

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
