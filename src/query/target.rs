//! What one query compares: a node and the pose its leaves are placed in.

use glam::DAffine2;

use crate::NodeId;

/// Where a target's leaves are placed for a query.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Pose {
    /// As the tree places it: its matrix to the query's parent, clipped by its own masks and
    /// scroll window and those of its ancestors below the parent.
    InParent,
    /// In its own space after `pre` (the radial profiles measure objects there), clipped by
    /// its own mask and scroll window only; colours still as seen from the parent.
    Own {
        /// The matrix applied after the target's own space.
        pre: DAffine2,
    },
    /// As the tree places it, but with `to_parent` as its matrix to the query's parent: a
    /// pose a motion query tests (`src/motion/`). Its subtree (masks inside it and its own
    /// scroll window included) moves with it; the masks and windows of its ancestors, and
    /// its own mask, stay where the tree has them.
    Moved {
        /// The target's matrix to the query's parent in this pose.
        to_parent: DAffine2,
    },
}

/// One target of a query: a node and its pose.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Target {
    /// The node whose subtree is drawn.
    pub node: NodeId,
    /// Where its leaves go.
    pub pose: Pose,
}

impl Target {
    /// `node` as the tree places it.
    pub fn new(node: NodeId) -> Target {
        Target {
            node,
            pose: Pose::InParent,
        }
    }
}
