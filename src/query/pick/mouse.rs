//! The mouse properties Flash's rules read (`interactive`, `mouse_enabled`,
//! `mouse_children`, `hit_area`), and their setters.

use crate::tree::links::Link;
use crate::tree::node::{Content, NodeId};
use crate::{Error, Result, Stage};

/// The mouse properties Flash reads when it picks: `mouse_enabled`, `mouse_children`, hit areas.
impl Stage {
    fn interactive_node(&mut self, id: NodeId, what: &'static str) -> Result<&mut crate::tree::node::Node> {
        if !self.node(id)?.interactive {
            return Err(Error::NotInteractive {
                node: self.describe(id),
                what,
            });
        }
        self.node_mut(id)
    }

    /// Whether the node is interactive (a Flash Sprite: a target of clicks itself) rather
    /// than content of its parent (a Flash Shape or Bitmap). Containers are by default;
    /// bitmaps and animated leaves never are.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn interactive(&self, node: NodeId) -> Result<bool> {
        Ok(self.node(node)?.interactive)
    }

    /// Makes a container interactive or not. A non-interactive container is content: a hit
    /// anywhere inside it goes to its parent, and nothing inside it is picked itself.
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] when asking a bitmap or an animated leaf to be interactive,
    /// [`Error::StaleNode`].
    pub fn set_interactive(&mut self, node: NodeId, interactive: bool) -> Result<()> {
        let leaf = !matches!(self.node(node)?.content, Content::Container(_));
        if interactive && leaf {
            return Err(Error::NotInteractive {
                node: self.describe(node),
                what: "way to become interactive (bitmaps and animated leaves are content)",
            });
        }
        self.node_mut(node)?.interactive = interactive;
        Ok(())
    }

    /// Flash's `mouseEnabled` (default true).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn mouse_enabled(&self, node: NodeId) -> Result<bool> {
        Ok(self.node(node)?.mouse_enabled)
    }

    /// Sets Flash's `mouseEnabled`: a node that is not takes no click itself; a hit on it
    /// loses to any real hit below it, and otherwise goes to its nearest enabled ancestor.
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] for a node that is not interactive, [`Error::StaleNode`].
    pub fn set_mouse_enabled(&mut self, node: NodeId, enabled: bool) -> Result<()> {
        self.interactive_node(node, "mouse_enabled")?.mouse_enabled = enabled;
        Ok(())
    }

    /// Flash's `mouseChildren` (default true).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn mouse_children(&self, node: NodeId) -> Result<bool> {
        Ok(self.node(node)?.mouse_children)
    }

    /// Sets Flash's `mouseChildren`: with `false`, a hit anywhere inside the container is
    /// the container's (or passes up when it is not mouse-enabled).
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] for a node that is not interactive, [`Error::StaleNode`].
    pub fn set_mouse_children(&mut self, node: NodeId, children: bool) -> Result<()> {
        self.interactive_node(node, "mouse_children")?.mouse_children = children;
        Ok(())
    }

    /// The node whose region stands for `node`'s content when picking, if any.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn hit_area(&self, node: NodeId) -> Result<Option<NodeId>> {
        Ok(self.node(node)?.hit_area)
    }

    /// Sets Flash's `hitArea`: the fills of `area` and its descendants (visibility ignored,
    /// placed by `area`'s own matrices wherever it is) replace what would make `node` itself
    /// the target: its own graphics and its non-interactive children (and, with
    /// `mouse_children = false`, its whole subtree). Interactive children still take their
    /// own clicks. `None` takes it away.
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] for a node that is not interactive, [`Error::StaleNode`].
    /// Nothing changes on error.
    pub fn set_hit_area(&mut self, node: NodeId, area: Option<NodeId>) -> Result<()> {
        if let Some(a) = area {
            self.node(a)?;
        }
        self.interactive_node(node, "hit_area")?;
        self.set_link(Link::HitArea, node, area)
    }
}
