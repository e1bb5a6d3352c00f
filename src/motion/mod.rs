//! Motion (semantics.md section 8): the first contact of two objects during a step
//! ([`Stage::sweep`]), of fast objects against many that stay put ([`Stage::sweeps_against`],
//! [`Stage::sweeps_between`]), and how far to push an object out of another
//! ([`Stage::separation`]).
//!
//! Every answer comes from the exact collision rule of section 4 at poses in between: a
//! tested pose is handed to the collision pipeline as the target's matrix to the parent
//! (`query::pipeline::Pose::Moved`), so it is rasterized and cached like any other pose,
//! and the tree is never changed.
//!
//! - `pose.rs`: [`Pose`] and one target's motion (its matrix at a time, how fast its bounds
//!   move).
//! - `track.rs`: how one target of a pair moves, and the times a sweep tests.
//! - `sweep.rs`: tested times and bisection for one pair.
//! - `sweeps_with.rs`: movers against many still objects, with a broad phase over the
//!   boxes they sweep.
//! - `separation.rs`: the push-out distance.
//! - `work.rs`: the work a motion query may take, counted against
//!   [`CollisionOptions::max_work`] before anything is tested.

mod pose;
mod separation;
mod sweep;
mod sweeps_with;
mod track;
mod work;

pub use pose::Pose;
pub use sweep::Sweep;
pub use sweeps_with::SweepHit;

use crate::{CollisionOptions, Error, Result, Stage};

/// The default [`MotionOptions::max_step`]: half a pixel.
pub const DEFAULT_MAX_STEP: f64 = 0.5;

/// The smallest [`MotionOptions::max_step`] allowed: 1/64 px.
pub const MIN_MAX_STEP: f64 = 1.0 / 64.0;

/// The default [`MotionOptions::max_tests`]: 2^18 tested poses per pair.
pub const DEFAULT_MAX_TESTS: u64 = 1 << 18;

/// How finely a motion query steps: 1/256 px, the resolution of the answers.
pub const MOTION_RESOLUTION: f64 = 1.0 / 256.0;

/// Options of the motion queries; `MotionOptions::default()` tests precise collisions at
/// tolerance 255 every half pixel of motion.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct MotionOptions {
    /// The collision test at each tested pose (precise or boxes, tolerance, anti-aliasing,
    /// pixel budget, `skip_hidden`, `parallel` for [`crate::Stage::sweeps_against`]).
    pub collision: CollisionOptions,
    /// The most any point of a target's bounds moves between two tested poses, in the
    /// parent's pixels: a contact that lasts while a point moves this far is never missed.
    /// At least [`MIN_MAX_STEP`]; default [`DEFAULT_MAX_STEP`].
    pub max_step: f64,
    /// [`crate::Stage::separation`]: how far to search; `None` is the diagonal of the two
    /// targets' bounds together (far enough to separate their boxes in any direction).
    pub max_distance: Option<f64>,
    /// The most poses one pair may need tested (the steps of a huge motion of a huge
    /// target): past it the query is refused with [`Error::MotionBudget`] before any is tested.
    pub max_tests: u64,
}

impl Default for MotionOptions {
    fn default() -> Self {
        MotionOptions {
            collision: CollisionOptions::default(),
            max_step: DEFAULT_MAX_STEP,
            max_distance: None,
            max_tests: DEFAULT_MAX_TESTS,
        }
    }
}

impl From<CollisionOptions> for MotionOptions {
    fn from(collision: CollisionOptions) -> Self {
        MotionOptions {
            collision,
            ..MotionOptions::default()
        }
    }
}

impl MotionOptions {
    /// Sets `collision`.
    pub fn collision(mut self, collision: CollisionOptions) -> Self {
        self.collision = collision;
        self
    }
    /// Sets `max_step`.
    pub fn max_step(mut self, max_step: f64) -> Self {
        self.max_step = max_step;
        self
    }
    /// Sets `max_distance`.
    pub fn max_distance(mut self, max_distance: f64) -> Self {
        self.max_distance = Some(max_distance);
        self
    }
    /// Sets `max_tests`.
    pub fn max_tests(mut self, max_tests: u64) -> Self {
        self.max_tests = max_tests;
        self
    }
    /// Sets the work budget of the whole query, `collision.max_work`
    /// ([`CollisionOptions::max_work`]): the pixel tests of every pose it may test.
    ///
    /// ```
    /// use pixelhit::MotionOptions;
    /// let opts = MotionOptions::default().max_work(u64::MAX); // no limit
    /// assert_eq!(opts.collision.max_work, u64::MAX);
    /// ```
    pub fn max_work(mut self, max_work: u64) -> Self {
        self.collision.max_work = max_work;
        self
    }

    /// [`Error::OutOfRange`] for a `max_step` below [`MIN_MAX_STEP`] or not finite.
    fn check(&self) -> Result<()> {
        if !(self.max_step >= MIN_MAX_STEP && self.max_step.is_finite()) {
            return Err(Error::OutOfRange {
                what: "max_step of a motion query, in pixels".into(),
                value: self.max_step,
                range: "1/64 (0.015625) or more",
            });
        }
        Ok(())
    }
}

/// The collision of a pair whose targets may be posed (crate-internal).
impl Stage {
    /// What [`Stage::collision`] answers for a request whose targets may be posed.
    fn pair_collision(&self, request: &crate::query::pipeline::PairRequest<'_>) -> Result<crate::Collision> {
        self.run_pair(request, |setup| setup.collision(self, request.opts))
    }
}

/// [`Error::MotionBudget`] when `tests` poses are more than `opts.max_tests`.
fn check_budget(tests: f64, opts: &MotionOptions, what: impl FnOnce() -> String) -> Result<()> {
    if tests > opts.max_tests as f64 {
        return Err(Error::MotionBudget {
            what: what(),
            tests: tests as u128,
            budget: opts.max_tests,
        });
    }
    Ok(())
}

#[cfg(test)]
mod tests;
