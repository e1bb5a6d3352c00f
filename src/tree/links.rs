//! The tree's two-way links: a node's mask and the nodes a mask masks, a node's hit area and
//! the nodes it is the hit area of. One pair of functions keeps both ends consistent: every
//! setter links through [`Stage::set_link`], and removal unlinks through
//! [`Stage::unlink_removed`].

use crate::tree::node::Node;
use crate::{NodeId, Result, Stage};

/// Which two-way link.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Link {
    /// `Node::mask` one way, `Node::masking` the other.
    Mask,
    /// `Node::hit_area` one way, `Node::hit_area_of` the other.
    HitArea,
}

impl Link {
    fn forward(self, node: &mut Node) -> &mut Option<NodeId> {
        match self {
            Link::Mask => &mut node.mask,
            Link::HitArea => &mut node.hit_area,
        }
    }

    fn back(self, node: &mut Node) -> &mut Vec<NodeId> {
        match self {
            Link::Mask => &mut node.masking,
            Link::HitArea => &mut node.hit_area_of,
        }
    }
}

/// The two-way links, kept consistent (crate-internal).
impl Stage {
    /// Points `owner`'s `link` at `to` (or at nothing), taking `owner` off the back list of
    /// what it pointed at before and onto that of `to`. The caller has checked both nodes
    /// and the rules of the link.
    pub(crate) fn set_link(&mut self, link: Link, owner: NodeId, to: Option<NodeId>) -> Result<()> {
        if let Some(old) = *link.forward(self.node_mut(owner)?) {
            link.back(self.node_mut(old)?).retain(|&x| x != owner);
        }
        *link.forward(self.node_mut(owner)?) = to;
        if let Some(t) = to {
            link.back(self.node_mut(t)?).push(owner);
        }
        Ok(())
    }

    /// The links of `removed`, a node already taken out of the arena with `forward` (what it
    /// pointed at) and `back` (what pointed at it), undone on the nodes that stay: a node
    /// whose mask or hit area was removed is no longer masked, or picked by its own content
    /// again.
    pub(crate) fn unlink_removed(
        &mut self,
        link: Link,
        removed: NodeId,
        forward: Option<NodeId>,
        back: Vec<NodeId>,
    ) {
        if let Some(node) = forward.and_then(|f| self.live_node_mut(f)) {
            link.back(node).retain(|&x| x != removed);
        }
        for owner in back {
            if let Some(node) = self.live_node_mut(owner) {
                *link.forward(node) = None;
            }
        }
    }
}
