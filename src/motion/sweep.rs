//! The first contact of two objects during a step (semantics.md 8, `sweep`): poses tested
//! from t = 0 upward so that no point of either target moves more than `max_step` between
//! two of them, then bisection to 1/256 px of motion.

use super::pose::{Motion, Pose};
use super::track::{Schedule, Track, Visit, time_of};
use super::{MOTION_RESOLUTION, MotionOptions, check_budget};
use crate::query::pipeline::PairRequest;
use crate::query::work_budget::WorkCount;
use crate::{Error, NodeId, Rect, Result, Stage};

/// The first contact of a motion query: when, and the section 4 answer then.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Sweep {
    /// The time of the contact in the step, 0 (the `from` poses) to 1 (the current ones).
    pub t: f64,
    /// What [`Stage::collision`] answers for the targets at their poses at `t`: the
    /// overlap's rectangle in the parent's space.
    pub rect: Rect,
    /// Pixels solid in both at `t` (precise queries only).
    pub overlap_pixels: Option<u64>,
    /// The last time tested before `t` at which the targets do not overlap: no point of
    /// either moves more than 1/256 px between it and `t`. `None` when `t` is 0.
    pub last_clear: Option<f64>,
}

impl Stage {
    /// The first contact of `a` and `b` during a step (semantics.md section 8): each target
    /// given a `from` pose moves from it to its current properties, each property
    /// interpolated in a straight line ([`Pose::lerp`]); a target without one stays put.
    ///
    /// Times are tested from 0 upward, so close together that no point of either target's
    /// bounds moves more than `opts.max_step` pixels of `parent`'s space between two of them;
    /// at the first where they overlap ([`Stage::collision`] with `opts.collision` at those
    /// poses), bisection with the time tested before narrows the contact until no point moves
    /// more than 1/256 px across it. The answer is the overlapping end: a contact that lasts
    /// while a point moves `max_step` px is never missed, so a wall `max_step` thick stops
    /// any bullet. `None` when they overlap at no tested time. The stage is not changed.
    ///
    /// A target that is `parent` itself does not move relative to it: its `from` is ignored.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, MotionOptions, Path, Pose, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let wall = stage.add_container(root)?;
    /// stage.add_graphic(wall, Graphic::fill(Path::rect(100.0, 0.0, 2.0, 50.0), FillRule::NonZero, 1.0)?)?;
    /// let bullet = stage.add_container(root)?;
    /// stage.add_graphic(bullet, Graphic::fill(Path::rect(0.0, 0.0, 3.0, 3.0), FillRule::NonZero, 1.0)?)?;
    /// // Last frame at x = 20, this frame at x = 180: both poses miss the wall...
    /// let last_frame = Pose::at(20.0, 20.0);
    /// stage.set_position(bullet, 180.0, 20.0)?;
    /// assert_eq!(stage.collision_rect(bullet, wall, root, true, 255)?, None);
    /// // ...but the step between them does not.
    /// let hit = stage.sweep(bullet, wall, root, Some(last_frame), None, &MotionOptions::default())?
    ///     .expect("the bullet meets the wall");
    /// let x_at_contact = 20.0 + hit.t * 160.0;
    /// assert!(x_at_contact > 97.0 && x_at_contact < 97.01); // its right edge at x = 100
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::collision`]; [`Error::Skew`] when a moving target's matrix has skew,
    /// [`Error::NonFinite`] for a non-finite pose, [`Error::OutOfRange`] for a `max_step`
    /// below 1/64, [`Error::MotionBudget`] when more than `opts.max_tests` poses would be
    /// tested, [`Error::WorkBudget`] when the poses it may test add up to more than
    /// `opts.collision.max_work` pixel tests ([`crate::CollisionOptions::max_work`]; nothing
    /// is tested then).
    pub fn sweep(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        a_from: Option<Pose>,
        b_from: Option<Pose>,
        opts: &MotionOptions,
    ) -> Result<Option<Sweep>> {
        self.check_inside(parent, &[a, b])?;
        opts.check()?;
        let ma = self.motion(a, parent, a_from, "a_from")?;
        let mb = self.motion(b, parent, b_from, "b_from")?;
        let ta = match &ma {
            Some(m) => Track::Moving(m),
            None => Track::Still(self.bounds(a, parent)?),
        };
        let tb = match &mb {
            Some(m) => Track::Moving(m),
            None => Track::Still(self.bounds(b, parent)?),
        };
        let mut count = WorkCount::new(&opts.collision);
        super::work::add_sweep(&mut count, &ta, &tb, opts);
        count.check(|| format!("the sweep of {}", self.pair_name(a, b)))?;
        self.first_contact(a, b, parent, &ta, &tb, opts)
    }

    /// [`Error::NotDescendant`] for the first of `targets` that is not inside `parent`.
    pub(crate) fn check_inside(&self, parent: NodeId, targets: &[NodeId]) -> Result<()> {
        for &t in targets {
            if !self.is_ancestor(parent, t)? {
                return Err(Error::NotDescendant {
                    node: self.describe(t),
                    ancestor: self.describe(parent),
                });
            }
        }
        Ok(())
    }

    /// The motion of `target` from `from`, or `None` when it has none (or is `parent`).
    pub(crate) fn motion(
        &self,
        target: NodeId,
        parent: NodeId,
        from: Option<Pose>,
        what: &str,
    ) -> Result<Option<Motion>> {
        match from {
            Some(from) if target != parent => Ok(Some(Motion::new(self, target, parent, from, what)?)),
            _ => Ok(None),
        }
    }

    /// The sweep of two tracks (see [`Stage::sweep`]).
    pub(crate) fn first_contact(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        ta: &Track<'_>,
        tb: &Track<'_>,
        opts: &MotionOptions,
    ) -> Result<Option<Sweep>> {
        let speed = ta.speed().max(tb.speed());
        let (schedule, steps) = Schedule::new(ta, tb, opts);
        check_budget(steps + 1.0, opts, || {
            format!("the sweep of {}", self.pair_name(a, b))
        })?;
        let n = schedule.n;
        let time = |k: u64| time_of(k, n);
        let test = |t: f64| -> Result<Option<(Rect, Option<u64>)>> {
            let request = PairRequest {
                a: ta.target(a, t),
                b: tb.target(b, t),
                parent,
                opts: &opts.collision,
                reject_near_misses: false,
                draw_whole: false,
                memo: None,
            };
            let c = self.pair_collision(&request)?;
            Ok(c.rect.map(|r| (r, c.overlap_pixels)))
        };
        let mut k = 0;
        while k <= n {
            let t = time(k);
            match schedule.visit(k, ta, tb) {
                Visit::Test => {}
                Visit::Skip(next) => {
                    k = next;
                    continue;
                }
                Visit::Done => return Ok(None),
            }
            let Some(mut hit) = test(t)? else {
                k += 1;
                continue;
            };
            if k == 0 {
                return Ok(Some(Sweep {
                    t,
                    rect: hit.0,
                    overlap_pixels: hit.1,
                    last_clear: None,
                }));
            }
            let (mut lo, mut hi) = (time(k - 1), t);
            while speed * (hi - lo) > MOTION_RESOLUTION {
                let mid = 0.5 * (lo + hi);
                if mid <= lo || mid >= hi {
                    break;
                }
                match test(mid)? {
                    Some(h) => (hi, hit) = (mid, h),
                    None => lo = mid,
                }
            }
            return Ok(Some(Sweep {
                t: hi,
                rect: hit.0,
                overlap_pixels: hit.1,
                last_clear: Some(lo),
            }));
        }
        Ok(None)
    }
}
