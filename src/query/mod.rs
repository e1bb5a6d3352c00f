//! The questions one asks a stage (semantics.md sections 3 to 7).
//!
//! - [`options`]: what a collision query is asked with and answers.
//! - [`bounds`]: Flash's boxes and the exact box of an object's geometry.
//! - [`collision`]: the collision of two objects.
//! - [`pipeline`]: the collision pipeline every pixel query goes through: a request set up
//!   once into a prepared pair, compared by the pair's own calls; [`target`]: what it
//!   compares (a node in a pose); [`target_memo`]: each target's bounds and preparation
//!   made once per many-object query; [`target_plan`]: which targets get their whole mask
//!   made once for all their pairs; [`made_masks`]: a pair of two made masks answered from
//!   them at once; [`memo_answer`]: a pair of masks or kernel items answered from its
//!   targets' memos by reference; [`word_overlap`]: a lone pair of kept masks and
//!   kernel-written poses compared by words.
//! - [`kept_pair`]: a pair's setup kept, so that asking it again after its targets moved by
//!   whole pixels compares the kept rasters at their new anchors.
//! - [`near_miss`]: pairs whose outlines are too far apart to touch, answered before drawing.
//! - [`hit_test`]: Flash's hit tests; [`point`]: point tests of single leaves.
//! - [`alpha_plane`]: a target's alpha plane over any pixels.
//! - [`outline`]: the boundary of a target's solid pixels as polygons.
//! - [`crowd`]: many objects at once, with [`broad_phase`] finding the close pairs
//!   ([`forward_scan`] its first try, [`pair_order`] its pairs' order) and `in_order` testing them one after another, or on several threads with
//!   the answer and error of one thread, when [`split`] finds their work worth the pool.
//! - [`touching`]: which pairs of a group touch, yes or no, each pair stopping at its first
//!   shared word, with [`lazy_mask`] making planned targets' masks band by band as pairs
//!   read their rows.
//! - [`tracker`]: contacts turned into began / continued / ended events.
//! - [`pick`]: which object gets the mouse, and the mouse properties it reads.
//! - [`work_budget`]: the work a whole many-object or motion call may take, counted before
//!   it tests anything.
//!
//! # Names
//!
//! Every public query of the crate (here, in `methods/` and in `motion/`) is named and
//! ordered by one rule, and the scene files use the same names:
//!
//! - **Objects first, then the space.** The objects asked about come first (`a`, `b`; a
//!   list `objects`; one `object` against a list `others`; `group_a`, `group_b`; a `mover`
//!   and its `from` pose), then `parent`, the node whose space (and pixel grid) the answer
//!   is in, then the options: `collision_rect(a, b, parent, precise, tolerance)`,
//!   `contacts_against(object, others, parent, opts)`,
//!   `sweeps_against(mover, from, others, parent, opts)`.
//! - **One node, one name.** A call about a single node (a property, its bounds, a point
//!   test) names it `node`; the space its answer is in is `parent` when the objects must be
//!   inside it, `space` when any node will do (bounds, matrices between two nodes). A
//!   parameter keeps another name only where it names a role the call is about
//!   (`is_ancestor(ancestor, node)`, `masked_by(mask)`, `add_child_at(parent, child, index)`).
//! - **`_with` is the same call with every option**: `collides_with` is `collides` with a
//!   [`CollisionOptions`](crate::CollisionOptions), `debug_image_with` is `debug_image` with a
//!   [`DebugOptions`](crate::DebugOptions). It never means "with a list".
//! - **`_by` is the same call by a chosen method**: `collision_by(a, b, parent, opts, method)`.
//! - **Many objects**: `_among` a list (every pair), `_against` a list (one against each),
//!   `_between` two lists (each of one against each of the other): `contacts_among`,
//!   `contacts_against`, `contacts_between`, `sweeps_against`, `sweeps_between`.
//!
//! A renamed item keeps its old name as a deprecated alias for one release (CHANGELOG.md).
//! Where the contract names a call, its name wins: scene files keep `sweeps_with`
//! (scene-format.md), which Rust and Python call `sweeps_against`.
//! `sweeps_between(parent, movers, others, opts)` still takes the parent first, as the
//! contract (semantics.md section 8) writes it.

pub(crate) mod alpha_plane;
#[cfg(test)]
mod bitmap_edit_tests;
pub(crate) mod bounds;
pub(crate) mod broad_phase;
#[cfg(test)]
mod budget_tests;
pub(crate) mod collision;
#[cfg(test)]
mod content_change_tests;
pub(crate) mod crowd;
pub(crate) mod forward_scan;
#[cfg(test)]
mod frame_tests;
pub(crate) mod hit_test;
pub(crate) mod in_order;
pub(crate) mod kept_pair;
#[cfg(test)]
mod kept_pair_tests;
pub(crate) mod lazy_mask;
pub(crate) mod made_masks;
pub(crate) mod memo_answer;
pub(crate) mod near_miss;
pub(crate) mod options;
pub(crate) mod outline;
pub(crate) mod pair_order;
pub(crate) mod pick;
pub(crate) mod pipeline;
pub(crate) mod point;
#[cfg(test)]
mod pygame_frame_tests;
#[cfg(test)]
mod span_tests;
pub(crate) mod split;
#[cfg(test)]
mod steady_frame_tests;
pub(crate) mod target;
pub(crate) mod target_memo;
pub(crate) mod target_plan;
pub(crate) mod touching;
#[cfg(test)]
mod touching_tests;
pub(crate) mod tracker;
pub(crate) mod word_overlap;
pub(crate) mod work_budget;
