//! The display tree: nodes in an arena, their properties and content, and the walks over it.
//!
//! - [`stage`]: the arena of nodes with generational ids: adding, finding, freeing.
//! - [`node`]: a node, its id and what it draws.
//! - [`properties`]: a node's own properties (matrix, Flash-style properties, visibility,
//!   tolerance, alpha, colour transform).
//! - [`content`]: what nodes draw; [`frames`]: animated nodes; [`bitmap_renderer`]: a
//!   bitmap node drawn by another renderer (pygame's `rotate`, `rotozoom`);
//!   [`planned_renderer`]: such a renderer worked out once for a bitmap size, then set;
//!   [`bitmap_edit`]: painting into and erasing from a bitmap node's pixels.
//! - [`spaces`]: matrices and colour transforms between nodes, points between spaces.
//! - [`display_list`]: a container's children edited as Flash's `DisplayObjectContainer` does.
//! - [`clip`]: masks and scroll rectangles on the tree, and what they leave visible.
//! - [`derived`]: a value made from the whole tree by a layer above (the pick index), kept
//!   until the tree changes.
//! - [`links`]: the two-way links (mask and masked, hit area and owner), kept by one pair
//!   of functions.
//! - [`walk`]: a target's subtree in paint order, each leaf with its matrix and its clips;
//!   [`ancestor_clips`]: the clips above a node, kept while the tree is unchanged.

pub(crate) mod ancestor_clips;
pub(crate) mod bitmap_edit;
pub(crate) mod bitmap_renderer;
pub(crate) mod clip;
pub(crate) mod content;
pub(crate) mod derived;
pub(crate) mod display_list;
pub(crate) mod frames;
pub(crate) mod links;
pub(crate) mod node;
pub(crate) mod planned_renderer;
pub(crate) mod properties;
pub(crate) mod spaces;
pub(crate) mod stage;
pub(crate) mod walk;
