//! How a target moves in a step ([`Track`]) and which times a sweep tests ([`Schedule`]):
//! shared by the sweep (`sweep.rs`) and the count of its work (`work.rs`), so that the
//! count walks exactly the poses the sweep may test.

use super::MotionOptions;
use super::pose::Motion;
use crate::query::pipeline::{Pose as Placed, Target};
use crate::{NodeId, Rect};

/// How one target of a pair moves in a step.
pub(crate) enum Track<'m> {
    /// Along a motion.
    Moving(&'m Motion),
    /// Not at all; its bounds in the parent.
    Still(Option<Rect>),
}

impl Track<'_> {
    pub(crate) fn speed(&self) -> f64 {
        match self {
            Track::Moving(m) => m.speed,
            Track::Still(_) => 0.0,
        }
    }

    /// The target `node` on this track at time `t`, for the collision pipeline.
    pub(crate) fn target(&self, node: NodeId, t: f64) -> Target {
        match self {
            Track::Moving(m) => Target {
                node,
                pose: Placed::Moved {
                    to_parent: m.matrix_at(t),
                },
            },
            Track::Still(_) => Target::new(node),
        }
    }

    /// The bounds at `t`; `Err(())` when there are none because the box overflows (the
    /// collision test then reports it).
    pub(crate) fn bounds_at(&self, t: f64) -> std::result::Result<Option<Rect>, ()> {
        match self {
            Track::Moving(m) => match m.local_box {
                None => Ok(None),
                Some(_) => m.bounds_at(t).map(Some).ok_or(()),
            },
            Track::Still(r) => Ok(*r),
        }
    }
}

/// Time `k` of `n` steps.
pub(crate) fn time_of(k: u64, n: u64) -> f64 {
    if n == 0 { 0.0 } else { k as f64 / n as f64 }
}

/// Which tested time comes after which in a sweep: shared by the sweep and by the count of
/// its work (`work.rs`), so that the count walks exactly the poses the sweep may test.
pub(crate) struct Schedule {
    /// Steps of the motion: times `0/n ..= n/n`.
    pub n: u64,
    /// How fast the two targets' boxes can close on each other.
    pub closing: f64,
}

/// What a sweep does at a tested time.
pub(crate) enum Visit {
    /// Test the pair there.
    Test,
    /// Skip to this step: the boxes are apart until then.
    Skip(u64),
    /// Stop: nothing can overlap from here on.
    Done,
}

impl Schedule {
    /// The steps and closing speed of a sweep of two tracks at `opts.max_step`.
    pub fn new(ta: &Track<'_>, tb: &Track<'_>, opts: &MotionOptions) -> (Schedule, f64) {
        let speed = ta.speed().max(tb.speed());
        let steps = (speed / opts.max_step).ceil();
        let schedule = Schedule {
            n: steps as u64,
            closing: ta.speed() + tb.speed(),
        };
        (schedule, steps)
    }

    /// What to do at step `k`.
    pub fn visit(&self, k: u64, ta: &Track<'_>, tb: &Track<'_>) -> Visit {
        let (n, closing) = (self.n, self.closing);
        let t = time_of(k, n);
        let (Ok(ba), Ok(bb)) = (ta.bounds_at(t), tb.bounds_at(t)) else {
            // A box that overflows: the collision test reports it.
            return Visit::Test;
        };
        let (Some(ba), Some(bb)) = (ba, bb) else {
            // A target that draws nothing meets nothing, at any time.
            return Visit::Done;
        };
        if ba.intersect(&bb).is_some() {
            return Visit::Test;
        }
        // Boxes apart by `gap` stay apart until the targets have closed it: each box edge
        // moves no faster than the fastest point of its target's bounds.
        if closing == 0.0 {
            return Visit::Done;
        }
        let gap = (bb.left() - ba.right())
            .max(ba.left() - bb.right())
            .max(bb.top() - ba.bottom())
            .max(ba.top() - bb.bottom());
        let far = [ba, bb]
            .iter()
            .flat_map(|r| [r.left(), r.top(), r.right(), r.bottom()])
            .fold(1.0f64, |m, v| m.max(v.abs()));
        // Less a margin for the rounding of boxes computed in f64.
        let safe = (gap - 1e-9 * far).max(0.0) / closing * (1.0 - 1e-9);
        let next = ((t + safe) * n as f64).ceil();
        Visit::Skip(if next.is_finite() && next > (k + 1) as f64 {
            (next as u64).min(n + 1)
        } else {
            k + 1
        })
    }
}
