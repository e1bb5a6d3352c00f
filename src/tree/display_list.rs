//! Editing a container's children as Flash's `DisplayObjectContainer` does: moving a node
//! under another parent or to another place in the paint order, swapping two, removing a
//! range. Index 0 is painted first (at the back), the last index on top.

use std::ops::{Bound, RangeBounds};

use crate::tree::links::Link;
use crate::{Error, NodeId, Result, Stage};

/// A container's children: adding at an index, moving, swapping, removing.
impl Stage {
    /// Moves `node` to be the last child of `new_parent` (on top of its siblings), keeping its
    /// own matrix, so it moves on screen if the two parents' spaces differ.
    ///
    /// # Errors
    ///
    /// [`Error::Cycle`] when `new_parent` is `node` or inside it, [`Error::Root`] for the root,
    /// [`Error::NotContainer`], [`Error::Mask`] when the move would put a mask inside what it
    /// masks, [`Error::StaleNode`]. Nothing changes on error.
    pub fn set_parent(&mut self, node: NodeId, new_parent: NodeId) -> Result<()> {
        let len = self.children_without(new_parent, node)?;
        self.move_child(node, new_parent, len)
    }

    /// Flash's `addChildAt`: moves `child` (from anywhere in the tree, keeping its own
    /// matrix) to be child number `index` of `parent`; the children from `index` on move up
    /// by one. When `child` is already a child of `parent`, it is taken out first and `index`
    /// counts the others, so `index` may be 0 to the number of `parent`'s other children.
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let back = stage.add_container(root)?;
    /// let front = stage.add_container(root)?;
    /// let hud = stage.add_container(front)?;
    /// stage.add_child_at(root, hud, 1)?; // between `back` and `front`
    /// assert_eq!(stage.children(root)?, &[back, hud, front]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::ChildIndex`] for an index past the end; otherwise as [`Stage::set_parent`].
    /// Nothing changes on error.
    pub fn add_child_at(&mut self, parent: NodeId, child: NodeId, index: usize) -> Result<()> {
        let len = self.children_without(parent, child)?;
        if index > len {
            return Err(self.index_error(parent, index, len + 1));
        }
        self.move_child(child, parent, index)
    }

    /// Flash's `getChildAt`: child number `index` of `parent`.
    ///
    /// # Errors
    ///
    /// [`Error::ChildIndex`] when `parent` has no child there, [`Error::StaleNode`].
    pub fn child_at(&self, parent: NodeId, index: usize) -> Result<NodeId> {
        let children = self.children(parent)?;
        match children.get(index) {
            Some(&c) => Ok(c),
            None => Err(self.index_error(parent, index, children.len())),
        }
    }

    /// Flash's `getChildIndex`: where `child` is in `parent`'s paint order (0 at the back).
    ///
    /// # Errors
    ///
    /// [`Error::NotChild`] when `child` is not a child of `parent`, [`Error::StaleNode`].
    pub fn child_index(&self, parent: NodeId, child: NodeId) -> Result<usize> {
        self.node(child)?;
        self.children(parent)?
            .iter()
            .position(|&c| c == child)
            .ok_or_else(|| Error::NotChild {
                node: self.describe(child),
                parent: self.describe(parent),
            })
    }

    /// Flash's `setChildIndex`: moves `child` to place `index` among `parent`'s children
    /// (0 to one less than their number); the others keep their order.
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let [a, b, c] = [(); 3].map(|_| stage.add_container(root).unwrap());
    /// stage.set_child_index(root, c, 0)?; // to the back
    /// assert_eq!(stage.children(root)?, &[c, a, b]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NotChild`], [`Error::ChildIndex`], [`Error::StaleNode`]. Nothing changes on
    /// error.
    pub fn set_child_index(&mut self, parent: NodeId, child: NodeId, index: usize) -> Result<()> {
        let from = self.child_index(parent, child)?;
        let len = self.children(parent)?.len();
        if index >= len {
            return Err(self.index_error(parent, index, len));
        }
        let children = &mut self.node_mut(parent)?.children;
        children.remove(from);
        children.insert(index, child);
        Ok(())
    }

    /// Flash's `swapChildren`: `a` and `b`, both children of `parent`, trade places in its
    /// paint order.
    ///
    /// # Errors
    ///
    /// [`Error::NotChild`], [`Error::StaleNode`]. Nothing changes on error.
    pub fn swap_children(&mut self, parent: NodeId, a: NodeId, b: NodeId) -> Result<()> {
        let (i, j) = (self.child_index(parent, a)?, self.child_index(parent, b)?);
        self.node_mut(parent)?.children.swap(i, j);
        Ok(())
    }

    /// Flash's `removeChildren`: removes the children of `parent` whose indices are in
    /// `range` (`..` for all of them), with their subtrees. Unlike Flash, a removed node is
    /// gone, not set aside: its id becomes stale ([`Stage::remove`]); move a node you want to
    /// keep with [`Stage::set_parent`] instead. Returns how many children were removed.
    ///
    /// ```
    /// use pixelhit::Stage;
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let [a, b, c, d] = [(); 4].map(|_| stage.add_container(root).unwrap());
    /// assert_eq!(stage.remove_children(root, 1..3)?, 2);
    /// assert_eq!(stage.children(root)?, &[a, d]);
    /// assert!(!stage.contains(b) && !stage.contains(c));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::ChildIndex`] when the range reaches past the last child or ends before it
    /// starts, [`Error::StaleNode`]. Nothing changes on error.
    pub fn remove_children(&mut self, parent: NodeId, range: impl RangeBounds<usize>) -> Result<usize> {
        let len = self.children(parent)?.len();
        let start = match range.start_bound() {
            Bound::Included(&s) => Some(s),
            Bound::Excluded(&s) => s.checked_add(1),
            Bound::Unbounded => Some(0),
        };
        let end = match range.end_bound() {
            Bound::Included(&e) => e.checked_add(1),
            Bound::Excluded(&e) => Some(e),
            Bound::Unbounded => Some(len),
        };
        let (start, end) = match (start, end) {
            (Some(s), Some(e)) if s <= e && e <= len => (s, e),
            (s, e) => {
                let bad = match e {
                    Some(e) if e > len => e - 1,
                    _ => s.unwrap_or(usize::MAX),
                };
                return Err(Error::ChildIndex {
                    parent: self.describe(parent),
                    index: bad,
                    range: format!("0..{len}, with the range's start no later than its end"),
                });
            }
        };
        let doomed: Vec<NodeId> = self.children(parent)?[start..end].to_vec();
        for &c in &doomed {
            self.remove(c)?;
        }
        Ok(doomed.len())
    }

    /// How many children `parent` has besides `child`, after checking that `child` may move
    /// under it.
    fn children_without(&self, parent: NodeId, child: NodeId) -> Result<usize> {
        if child == self.root() {
            return Err(Error::Root);
        }
        self.node(child)?;
        self.check_container(parent)?;
        if self.is_ancestor(child, parent)? {
            return Err(Error::Cycle {
                node: self.describe(child),
                parent: self.describe(parent),
            });
        }
        self.check_masks_after_move(child, parent)?;
        let children = self.children(parent)?;
        Ok(children.len() - usize::from(children.contains(&child)))
    }

    /// Takes `child` out of its parent and puts it at `index` among `parent`'s children; the
    /// caller has checked the move.
    fn move_child(&mut self, child: NodeId, parent: NodeId, index: usize) -> Result<()> {
        if let Some(old) = self.node(child)?.parent {
            self.node_mut(old)?.children.retain(|&c| c != child);
        }
        self.node_mut(parent)?.children.insert(index, child);
        self.node_mut(child)?.parent = Some(parent);
        Ok(())
    }

    /// The error for an index outside `0..places`.
    fn index_error(&self, parent: NodeId, index: usize, places: usize) -> Error {
        Error::ChildIndex {
            parent: self.describe(parent),
            index,
            range: match places {
                0 => "the empty range (it has no children)".into(),
                n => format!("0..={}", n - 1),
            },
        }
    }

    /// Removes a node and its whole subtree; their ids become stale.
    ///
    /// # Errors
    ///
    /// [`Error::Root`] for the root, [`Error::StaleNode`] for a removed node. Nothing changes
    /// on error.
    pub fn remove(&mut self, node: NodeId) -> Result<()> {
        if node == self.root() {
            return Err(Error::Root);
        }
        let parent = self.node(node)?.parent;
        if let Some(p) = parent {
            self.node_mut(p)?.children.retain(|c| *c != node);
        }
        for (n, removed) in self.free_subtree(node) {
            self.unlink_removed(Link::Mask, n, removed.mask, removed.masking);
            self.unlink_removed(Link::HitArea, n, removed.hit_area, removed.hit_area_of);
        }
        Ok(())
    }
}
