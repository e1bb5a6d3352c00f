//! The display tree: nodes in an arena, their properties and content, and the walks over it.
//!
//! - [`stage`]: the arena of nodes with generational ids, each node's properties, content
//!   and spaces.
//! - [`display_list`]: a container's children edited as Flash's `DisplayObjectContainer` does.
//! - [`clip`]: masks and scroll rectangles on the tree, and what they leave visible.
//! - [`walk`]: a target's subtree in paint order, each leaf with its matrix and its clips.

pub(crate) mod clip;
pub(crate) mod display_list;
pub(crate) mod stage;
pub(crate) mod walk;
