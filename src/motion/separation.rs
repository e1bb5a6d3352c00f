//! How far to push one object out of another (semantics.md 8, `separation`).

use glam::{DAffine2, DVec2};

use super::work::{add_separation_scan, add_separation_start};
use super::{MOTION_RESOLUTION, MotionOptions, check_budget};
use crate::query::pipeline::{PairRequest, Pose as Placed, Target};
use crate::query::work_budget::WorkCount;
use crate::{Error, NodeId, Result, Stage};

/// How far to push one object out of another.
impl Stage {
    /// The push-out distance (semantics.md section 8): the smallest `d >= 0`, a multiple of
    /// 1/256 px, such that `a` moved by `d` along the unit vector `direction` (in `parent`'s
    /// pixels) shares no solid pixel with `b`, while `a` moved by `d - 1/256` still does.
    /// Distances are tried every `opts.max_step` px (rounded down to the 1/256 grid) up to
    /// `opts.max_distance`, then narrowed by bisection; `None` when every distance tried
    /// still overlaps. `Some(0.0)` when they do not overlap to begin with.
    ///
    /// Without a direction `a` is pushed against the contact normal (away from `b`): the
    /// normal that [`Stage::contacts_among`] gives with details (from `a`'s solid pixels around
    /// the contact to `b`'s); when that is zero, or the query is not precise, from the
    /// centre of `b`'s bounds to the centre of `a`'s; when those coincide too, up (−y).
    /// `max_distance` defaults to the diagonal of both targets' bounds together (rounded up
    /// to the 1/256 grid, plus 1/256), which always separates the boxes.
    ///
    /// ```
    /// use pixelhit::{DVec2, FillRule, Graphic, MotionOptions, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let ground = stage.add_container(root)?;
    /// stage.add_graphic(ground, Graphic::fill(Path::rect(0.0, 100.0, 200.0, 20.0), FillRule::NonZero, 1.0)?)?;
    /// let crate_ = stage.add_container(root)?;
    /// stage.add_graphic(crate_, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_position(crate_, 50.0, 93.5)?; // sunk 3.5 px into the ground
    /// let up = Some(DVec2::new(0.0, -1.0));
    /// let d = stage.separation(crate_, ground, root, up, &MotionOptions::default())?;
    /// assert_eq!(d, Some(3.5));
    /// // Against the contact normal, which points down into the ground here.
    /// let d = stage.separation(crate_, ground, root, None, &MotionOptions::default())?;
    /// assert_eq!(d, Some(3.5));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::collision`]; [`Error::OutOfRange`] for a zero or non-finite direction, a
    /// negative or non-finite `max_distance`, or a `max_step` below 1/64;
    /// [`Error::MotionBudget`] when more than `opts.max_tests` distances would be tried;
    /// [`Error::WorkBudget`] when the distances it may try add up to more than
    /// `opts.collision.max_work` pixel tests
    /// ([`CollisionOptions::max_work`](crate::CollisionOptions::max_work)).
    pub fn separation(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        direction: Option<DVec2>,
        opts: &MotionOptions,
    ) -> Result<Option<f64>> {
        self.check_inside(parent, &[a, b])?;
        opts.check()?;
        let copts = &opts.collision;
        let name = || format!("the separation of {}", self.pair_name(a, b));
        // The work is counted in two parts: what finds the direction, before it is done,
        // then the distances along it.
        let boxes = match (self.bounds(a, parent)?, self.bounds(b, parent)?) {
            (Some(ba), Some(bb)) => Some((ba, bb)),
            _ => None,
        };
        let mut count = WorkCount::new(copts);
        if let Some(boxes) = boxes {
            add_separation_start(&mut count, boxes, copts.precise);
            count.check(name)?;
        }
        let start = self.collision(a, b, parent, copts)?;
        let Some(rect) = start.rect else {
            return Ok(Some(0.0));
        };
        let dir = match direction {
            Some(d) => {
                let unit = d.normalize_or_zero();
                if !d.is_finite() || unit == DVec2::ZERO {
                    return Err(Error::OutOfRange {
                        what: format!("direction ({}, {}) of a separation", d.x, d.y),
                        value: d.length(),
                        range: "a finite, non-zero vector",
                    });
                }
                unit
            }
            None => self.push_direction(a, b, parent, opts, rect)?,
        };
        let max_distance = match opts.max_distance {
            Some(m) => m,
            None => {
                let (ba, bb) = (self.bounds(a, parent)?, self.bounds(b, parent)?);
                let both = match (ba, bb) {
                    (Some(x), Some(y)) => x.union(&y),
                    // Overlapping targets both have boxes.
                    _ => return Ok(Some(0.0)),
                };
                let diagonal = both.width().hypot(both.height());
                (diagonal / MOTION_RESOLUTION).ceil() * MOTION_RESOLUTION + MOTION_RESOLUTION
            }
        };
        if !(max_distance >= 0.0 && max_distance.is_finite()) {
            return Err(Error::OutOfRange {
                what: "max_distance of a separation, in pixels".into(),
                value: max_distance,
                range: "0 or more, finite",
            });
        }
        // Distances are counted in 1/256 px, so that the answer and 1/256 px less are both
        // tried exactly.
        let last = (max_distance / MOTION_RESOLUTION).floor();
        let step = (opts.max_step / MOTION_RESOLUTION).floor().max(1.0);
        check_budget(last / step + 64.0, opts, name)?;
        let (last, step) = (last as u64, step as u64);
        if let Some(boxes) = boxes {
            add_separation_scan(&mut count, boxes, dir, (last, step), copts.precise);
            count.check(name)?;
        }
        let base = self.matrix_to(a, parent)?;
        let overlaps = |units: u64| -> Result<bool> {
            let moved = dir * (units as f64 * MOTION_RESOLUTION);
            let request = PairRequest {
                a: Target {
                    node: a,
                    pose: Placed::Moved {
                        to_parent: DAffine2::from_translation(moved) * base,
                    },
                },
                b: Target::new(b),
                parent,
                opts: copts,
                reject_near_misses: false,
                draw_whole: false,
                memo: None,
            };
            Ok(self.pair_collision(&request)?.rect.is_some())
        };
        let (mut lo, mut hi) = (0u64, 0u64);
        loop {
            let next = (lo + step).min(last);
            if next == lo {
                return Ok(None);
            }
            if !overlaps(next)? {
                hi = hi.max(next);
                break;
            }
            lo = next;
        }
        while hi - lo > 1 {
            let mid = lo + (hi - lo) / 2;
            match overlaps(mid)? {
                true => lo = mid,
                false => hi = mid,
            }
        }
        Ok(Some(hi as f64 * MOTION_RESOLUTION))
    }

    /// Which way to push `a` out of `b` when no direction is given (see
    /// [`Stage::separation`]).
    fn push_direction(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &MotionOptions,
        rect: crate::Rect,
    ) -> Result<DVec2> {
        let copts = &opts.collision;
        let details = self.run_pair(&PairRequest::new(a, b, parent, copts), |setup| {
            match setup.pair() {
                Some(pair) => self.contact_details(pair, a, parent, copts, rect),
                None => Ok(None),
            }
        })?;
        if let Some(details) = details
            && details.normal != DVec2::ZERO
        {
            return Ok(-details.normal);
        }
        let centre = |r: crate::Rect| DVec2::new(r.left() + r.right(), r.top() + r.bottom()) * 0.5;
        if let (Some(ba), Some(bb)) = (self.bounds(a, parent)?, self.bounds(b, parent)?) {
            let away = (centre(ba) - centre(bb)).normalize_or_zero();
            if away != DVec2::ZERO {
                return Ok(away);
            }
        }
        Ok(DVec2::new(0.0, -1.0))
    }
}
