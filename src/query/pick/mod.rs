//! Picking: which object gets the mouse (semantics.md section 7), and
//! `objects_under_point`.
//!
//! A pick costs in proportion to the objects near the point plus the depth of the tree
//! there, never their product: the stage keeps, for every node, what Flash's rules ask of
//! its path to the root (its matrix and clips to the root, whether it is shown, inside a
//! mask, and whose click a hit on it is), together with the root-space boxes of every
//! node's own content in a grid. Both are made in one walk at the first pick after a change.
//!
//! - [`options`]: [`PickOptions`], how a pick decides.
//! - [`grid`]: the uniform grid of boxes that finds the content near a point.
//! - [`index`]: the walk that makes the per-node facts and the grid, kept by the stage.
//! - [`rules`]: Flash's rules over the nodes hit and their ancestors.
//! - [`query`]: `pick` and `objects_under_point` themselves.
//! - [`mouse`]: the mouse properties the rules read, and their setters.

pub(crate) mod grid;
pub(crate) mod index;
pub(crate) mod mouse;
pub(crate) mod options;
pub(crate) mod query;
pub(crate) mod rules;

pub use options::PickOptions;
