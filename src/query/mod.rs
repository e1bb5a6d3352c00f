//! The questions one asks a stage (semantics.md sections 3 to 7).
//!
//! - [`collision`]: bounds, the collision of two objects, and hit tests.
//! - [`pipeline`]: the collision pipeline every pixel query goes through: a request set up
//!   once into a prepared pair, compared by the pair's own calls.
//! - [`point`]: point tests of single leaves.
//! - [`alpha_plane`]: a target's alpha plane over any pixels.
//! - [`crowd`]: many objects at once, with [`broad_phase`] finding the close pairs.
//! - [`tracker`]: contacts turned into began / continued / ended events.
//! - [`pick`]: which object gets the mouse, and the mouse properties it reads.

pub(crate) mod alpha_plane;
pub(crate) mod broad_phase;
pub(crate) mod collision;
pub(crate) mod crowd;
pub(crate) mod pick;
pub(crate) mod pipeline;
pub(crate) mod point;
pub(crate) mod tracker;
