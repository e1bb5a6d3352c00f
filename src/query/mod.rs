//! The questions one asks a stage (semantics.md sections 3 to 7).
//!
//! - [`options`]: what a collision query is asked with and answers.
//! - [`bounds`]: Flash's boxes and the exact box of an object's geometry.
//! - [`collision`]: the collision of two objects.
//! - [`pipeline`]: the collision pipeline every pixel query goes through: a request set up
//!   once into a prepared pair, compared by the pair's own calls; [`target`]: what it
//!   compares (a node in a pose); [`target_memo`]: each target's bounds and preparation
//!   made once per many-object query.
//! - [`near_miss`]: pairs whose outlines are too far apart to touch, answered before drawing.
//! - [`hit_test`]: Flash's hit tests; [`point`]: point tests of single leaves.
//! - [`alpha_plane`]: a target's alpha plane over any pixels.
//! - [`crowd`]: many objects at once, with [`broad_phase`] finding the close pairs and
//!   `in_order` testing them on several threads with the answer and error of one thread.
//! - [`tracker`]: contacts turned into began / continued / ended events.
//! - [`pick`]: which object gets the mouse, and the mouse properties it reads.
//! - [`work_budget`]: the work a whole many-object or motion call may take, counted before
//!   it tests anything.

pub(crate) mod alpha_plane;
pub(crate) mod bounds;
pub(crate) mod broad_phase;
#[cfg(test)]
mod budget_tests;
pub(crate) mod collision;
pub(crate) mod crowd;
pub(crate) mod hit_test;
#[cfg(feature = "parallel")]
pub(crate) mod in_order;
pub(crate) mod near_miss;
pub(crate) mod options;
pub(crate) mod pick;
pub(crate) mod pipeline;
pub(crate) mod point;
#[cfg(test)]
mod span_tests;
pub(crate) mod target;
pub(crate) mod target_memo;
pub(crate) mod tracker;
pub(crate) mod work_budget;
