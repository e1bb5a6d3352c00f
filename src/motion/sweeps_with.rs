//! Fast objects against many that stay put (semantics.md 8, `sweeps_against`, and its group
//! form `sweeps_between`): a broad phase over the boxes the movers sweep, then a sweep of
//! each object a mover can meet.

use super::pose::{Motion, Pose};
use super::sweep::Sweep;
use super::track::Track;
use super::work::add_sweep;
use super::{MotionOptions, check_budget};
use crate::query::broad_phase::{FIRST, SECOND, overlapping_pairs_between};
use crate::query::work_budget::WorkCount;
use crate::{Error, MAX_CLOSE_PAIRS, NodeId, Rect, Result, Stage};

/// One object a mover meets during a step ([`Stage::sweeps_against`],
/// [`Stage::sweeps_between`]).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct SweepHit {
    /// The moving object.
    pub mover: NodeId,
    /// The object met.
    pub other: NodeId,
    /// The first contact with it.
    pub sweep: Sweep,
}

/// Movers against many objects that stay put.
impl Stage {
    /// Every object of `others` that `mover` meets while it moves from `from` to its current
    /// pose, each with its first contact ([`Stage::sweep`] of the pair, the others staying
    /// put), in order of `t`, then of the tree (paint order). Bullets are its use: a bullet
    /// stops at the first entry.
    ///
    /// The broad phase unites the mover's bounds at every tested time into the box it sweeps
    /// over the step and keeps the others whose bounds overlap it: an object outside that box
    /// cannot overlap the mover at any tested time. Ids repeated in `others` count once, the
    /// mover itself is never among the answers, and with `skip_hidden` objects that are not
    /// shown take no part.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, MotionOptions, Path, Pose, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let mut wall = |x: f64| -> pixelhit::Result<_> {
    ///     let n = stage.add_container(root)?;
    ///     stage.add_graphic(n, Graphic::fill(Path::rect(0.0, 0.0, 1.0, 40.0), FillRule::NonZero, 1.0)?)?;
    ///     stage.set_x(n, x)?;
    ///     Ok(n)
    /// };
    /// let walls = [wall(60.0)?, wall(30.0)?, wall(500.0)?];
    /// let bullet = stage.add_container(root)?;
    /// stage.add_graphic(bullet, Graphic::fill(Path::circle(0.0, 0.0, 1.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_position(bullet, 100.0, 20.0)?;
    /// let hits = stage.sweeps_against(bullet, Pose::at(0.0, 20.0), &walls, root, &MotionOptions::default())?;
    /// // The nearer wall first; the far one is not on the way.
    /// assert_eq!(hits.iter().map(|h| h.other).collect::<Vec<_>>(), [walls[1], walls[0]]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::sweep`] for any pair, the error of the first failing pair in the order of
    /// `others` (whatever `parallel` says); [`crate::Error::NotDescendant`] names the first
    /// object that is not inside `parent`; [`crate::Error::WorkBudget`] when the poses of all
    /// its sweeps add up to more than `opts.collision.max_work` pixel tests (nothing is
    /// tested then).
    pub fn sweeps_against(
        &self,
        mover: NodeId,
        from: Pose,
        others: &[NodeId],
        parent: NodeId,
        opts: &MotionOptions,
    ) -> Result<Vec<SweepHit>> {
        self.check_inside(parent, &[mover])?;
        self.check_inside(parent, others)?;
        opts.check()?;
        let copts = &opts.collision;
        if copts.skip_hidden && !self.is_shown(mover)? {
            return Ok(Vec::new());
        }
        let motion = self.motion(mover, parent, Some(from), "from")?;
        let track = match &motion {
            Some(m) => Track::Moving(m),
            None => Track::Still(self.bounds(mover, parent)?),
        };
        let Some(swept) = self.swept_box(&track, opts, mover)? else {
            return Ok(Vec::new());
        };
        let mut seen = std::collections::HashSet::with_capacity(others.len());
        let mut candidates = Vec::new();
        for &o in others {
            if o == mover || !seen.insert(o) || (copts.skip_hidden && !self.is_shown(o)?) {
                continue;
            }
            let bounds = self.bounds(o, parent)?;
            if bounds.is_some_and(|b| b.intersect(&swept).is_some()) {
                candidates.push((o, bounds));
            }
        }
        let mut count = WorkCount::new(copts);
        for &(_, bounds) in &candidates {
            add_sweep(&mut count, &track, &Track::Still(bounds), opts);
        }
        count.check(|| {
            format!(
                "the sweeps of {} against {} objects",
                self.describe(mover),
                candidates.len()
            )
        })?;
        let one = |&(o, bounds): &(NodeId, Option<Rect>)| -> Result<Option<SweepHit>> {
            let still = Track::Still(bounds);
            let hit = self.first_contact(mover, o, parent, &track, &still, opts)?;
            Ok(hit.map(|sweep| SweepHit {
                mover,
                other: o,
                sweep,
            }))
        };
        let mut hits = in_pair_order(&candidates, copts.parallel, one)?;
        self.sort_hits(&mut hits)?;
        Ok(hits)
    }

    /// Every object of `others` that each mover meets while it moves from its pose to its
    /// current one, the others staying put: [`Stage::sweeps_with`] for every mover, in one
    /// call. A frame of bullets is its use: one broad phase over the boxes the movers sweep
    /// and the others' boxes, which never compares two movers or two others. Ordered by the
    /// mover's place in `movers`, then `t`, then the tree. A mover listed twice moves from its
    /// first pose; a mover is never among the others (movers do not meet each other here).
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, MotionOptions, Path, Pose, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let mut shape = |path: Path, x: f64, y: f64| -> pixelhit::Result<_> {
    ///     let n = stage.add_container(root)?;
    ///     stage.add_graphic(n, Graphic::fill(path, FillRule::NonZero, 1.0)?)?;
    ///     stage.set_position(n, x, y)?;
    ///     Ok(n)
    /// };
    /// let wall = shape(Path::rect(0.0, 0.0, 1.0, 100.0), 50.0, 0.0)?;
    /// let bullets = [shape(Path::circle(0.0, 0.0, 1.0), 90.0, 10.0)?, shape(Path::circle(0.0, 0.0, 1.0), 40.0, 80.0)?];
    /// let movers = [(bullets[0], Pose::at(10.0, 10.0)), (bullets[1], Pose::at(30.0, 80.0))];
    /// let hits = stage.sweeps_between(root, &movers, &[wall], &MotionOptions::default())?;
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!((hits[0].mover, hits[0].other), (bullets[0], wall));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::sweeps_with`]; [`Error::WorkBudget`] when more than [`MAX_CLOSE_PAIRS`]
    /// pairs of boxes overlap (nothing is tested then).
    pub fn sweeps_between(
        &self,
        parent: NodeId,
        movers: &[(NodeId, Pose)],
        others: &[NodeId],
        opts: &MotionOptions,
    ) -> Result<Vec<SweepHit>> {
        let ids: Vec<NodeId> = movers.iter().map(|m| m.0).collect();
        self.check_inside(parent, &ids)?;
        self.check_inside(parent, others)?;
        opts.check()?;
        let skip = opts.collision.skip_hidden;
        let mut seen = std::collections::HashSet::with_capacity(movers.len() + others.len());
        let mut moving: Vec<(NodeId, Option<Motion>)> = Vec::new();
        let mut boxes = Vec::new();
        for &(id, from) in movers {
            if !seen.insert(id) || (skip && !self.is_shown(id)?) {
                continue;
            }
            let motion = self.motion(id, parent, Some(from), "from")?;
            let track = match &motion {
                Some(m) => Track::Moving(m),
                None => Track::Still(self.bounds(id, parent)?),
            };
            boxes.push(self.swept_box(&track, opts, id)?);
            moving.push((id, motion));
        }
        let mut still = Vec::new();
        for &o in others {
            if !seen.insert(o) || (skip && !self.is_shown(o)?) {
                continue;
            }
            let b = self.bounds(o, parent)?;
            boxes.push(b);
            still.push((o, b));
        }
        let mut groups = vec![FIRST; moving.len()];
        groups.resize(boxes.len(), SECOND);
        let pairs = overlapping_pairs_between(&boxes, &groups, MAX_CLOSE_PAIRS).map_err(|count| {
            Error::WorkBudget {
                what: format!(
                    "the pairs of {} movers and {} objects whose boxes overlap in {}",
                    moving.len(),
                    still.len(),
                    self.describe(parent)
                ),
                work: count as u128,
                budget: MAX_CLOSE_PAIRS as u64,
                unit: "pairs of overlapping boxes",
                remedy: "ask about fewer movers or objects at once",
            }
        })?;
        let n = moving.len();
        let track_of = |i: usize| match &moving[i].1 {
            Some(m) => Track::Moving(m),
            None => Track::Still(boxes[i]),
        };
        let mut count = WorkCount::new(&opts.collision);
        for &(i, j) in &pairs {
            add_sweep(&mut count, &track_of(i), &Track::Still(still[j - n].1), opts);
        }
        count.check(|| {
            format!(
                "the sweeps of {} movers against {} objects",
                moving.len(),
                still.len()
            )
        })?;
        let one = |&(i, j): &(usize, usize)| -> Result<Option<SweepHit>> {
            // Movers come first in the boxes, so `i` is the mover.
            let (mover, (other, bounds)) = (moving[i].0, still[j - n]);
            let hit = self.first_contact(mover, other, parent, &track_of(i), &Track::Still(bounds), opts)?;
            Ok(hit.map(|sweep| SweepHit { mover, other, sweep }))
        };
        let mut hits = in_pair_order(&pairs, opts.collision.parallel, one)?;
        // The pairs come sorted by mover; within one mover, by t and the tree.
        let mut start = 0;
        while start < hits.len() {
            let mover = hits[start].mover;
            let end = start + hits[start..].iter().take_while(|h| h.mover == mover).count();
            self.sort_hits(&mut hits[start..end])?;
            start = end;
        }
        Ok(hits)
    }

    /// Sorts one mover's hits by `t`, then by the others' places in the tree.
    fn sort_hits(&self, hits: &mut [SweepHit]) -> Result<()> {
        if hits.len() < 2 {
            return Ok(());
        }
        let mut keyed = hits
            .iter()
            .map(|h| Ok((self.tree_path(h.other)?, *h)))
            .collect::<Result<Vec<_>>>()?;
        keyed.sort_by(|(pa, a), (pb, b)| a.sweep.t.total_cmp(&b.sweep.t).then_with(|| pa.cmp(pb)));
        for (slot, (_, h)) in hits.iter_mut().zip(keyed) {
            *slot = h;
        }
        Ok(())
    }

    /// The union of the track's bounds at every time a sweep would test: `None` when it
    /// draws nothing.
    fn swept_box(&self, track: &Track<'_>, opts: &MotionOptions, mover: NodeId) -> Result<Option<Rect>> {
        let Track::Moving(m) = track else {
            return Ok(match track {
                Track::Still(r) => *r,
                Track::Moving(_) => None,
            });
        };
        if m.local_box.is_none() {
            return Ok(None);
        }
        let steps = (m.speed / opts.max_step).ceil();
        check_budget(steps + 1.0, opts, || {
            format!("the sweep of {}", self.describe(mover))
        })?;
        let n = steps as u64;
        let mut acc: Option<Rect> = None;
        for k in 0..=n {
            let t = if n == 0 { 0.0 } else { k as f64 / n as f64 };
            let Some(r) = m.bounds_at(t) else {
                return Err(crate::Error::NonFinite {
                    what: format!("bounds of {} during its motion", self.describe(mover)),
                });
            };
            acc = Some(acc.map_or(r, |a| a.union(&r)));
        }
        Ok(acc)
    }

    /// Where `id` is in the tree: its child index at each level from the root (comparing
    /// two of them gives paint order).
    fn tree_path(&self, id: NodeId) -> Result<Vec<usize>> {
        let mut path = Vec::new();
        let mut cur = id;
        while let Some(p) = self.node(cur)?.parent {
            let i = self.node(p)?.children.iter().position(|&c| c == cur).unwrap_or(0);
            path.push(i);
            cur = p;
        }
        path.reverse();
        Ok(path)
    }
}

/// The former name of [`Stage::sweeps_against`] (deprecated, for one release: it took the
/// parent first, and `_with` there meant "with a list", against the naming rule of
/// `query/mod.rs`).
impl Stage {
    /// [`Stage::sweeps_against`] under its former name and argument order.
    ///
    /// # Errors
    ///
    /// As [`Stage::sweeps_against`].
    #[deprecated(
        note = "renamed `sweeps_against(mover, from, others, parent, opts)`: `_with` means \"with every option\", and `parent` comes after the objects"
    )]
    pub fn sweeps_with(
        &self,
        parent: NodeId,
        mover: NodeId,
        from: Pose,
        others: &[NodeId],
        opts: &MotionOptions,
    ) -> Result<Vec<SweepHit>> {
        self.sweeps_against(mover, from, others, parent, opts)
    }
}

/// The hits of `one` over `items` in their order, or the error of the first item that fails
/// in that order, on several threads when `parallel` (and the feature) says so: the same
/// answer and the same error either way.
fn in_pair_order<T: Sync>(
    items: &[T],
    parallel: bool,
    one: impl Fn(&T) -> Result<Option<SweepHit>> + Sync,
) -> Result<Vec<SweepHit>> {
    #[cfg(feature = "parallel")]
    if parallel && items.len() > 1 {
        return crate::query::in_order::hits_in_order(items, one);
    }
    let _ = parallel;
    items.iter().filter_map(|i| one(i).transpose()).collect()
}
