//! The collision of two objects (semantics.md section 4): `collision_rect`, the signature
//! users come for, and `collision` with every option.

use crate::query::kept_pair::Kept;
use crate::query::pipeline::{PairRequest, kept_answer_key};
use crate::raster::PairKey;
use crate::{Collision, CollisionOptions, NodeId, Rect, Result, Stage};

/// Whether and where two objects touch.
impl Stage {
    /// Where `a` and `b` overlap in `parent`'s space (semantics.md, section 4).
    ///
    /// With `precise = false` the answer is the intersection of their [`Stage::bounds`];
    /// with `precise = true` it is the smallest whole-pixel rectangle holding every pixel
    /// solid in both (alpha at least `max(1, 255 - tolerance)`), anti-aliased. See
    /// [`Stage::collision`](crate::Stage::collision) for the other options and the overlap count.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`](crate::Error::NotDescendant) when `a` or `b` is not inside `parent`, [`Error::StaleNode`](crate::Error::StaleNode)
    /// for a removed id, [`Error::NonFinite`](crate::Error::NonFinite) when a matrix overflows, and
    /// [`Error::PixelBudget`](crate::Error::PixelBudget) when the window is larger than [`DEFAULT_MAX_PIXELS`](crate::DEFAULT_MAX_PIXELS).
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, Rect, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let a = stage.add_container(root)?;
    /// stage.add_graphic(a, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let b = stage.add_container(root)?;
    /// stage.add_graphic(b, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_x(b, 12.0)?;
    /// stage.set_y(b, 5.0)?;
    /// let hit = stage.collision_rect(a, b, root, true, 255)?;
    /// assert_eq!(hit, Rect::from_ltrb(7.0, 0.0, 10.0, 10.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn collision_rect(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        precise: bool,
        tolerance: u8,
    ) -> Result<Option<Rect>> {
        let opts = CollisionOptions::default().precise(precise).tolerance(tolerance);
        Ok(self.collision(a, b, parent, &opts)?.rect)
    }

    /// [`Stage::collision_rect`] with every option, also counting the overlapping pixels.
    ///
    /// The answer is kept until the tree changes: asking the same pair with the same options
    /// again costs a lookup (not with `fast_paths(false)`, which always works it out).
    ///
    /// # Errors
    ///
    /// As [`Stage::collision_rect`], with the budget of `opts.max_pixels`.
    pub fn collision(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
    ) -> Result<Collision> {
        // The answer is kept for the frame (until the tree changes), as the many-object
        // queries keep theirs: asking a pair again in a frame costs a lookup. The plain path
        // (no fast paths) always works the answer out.
        let key = opts.fast_paths.then(|| kept_answer_key(a, b, parent, opts));
        let revision = self.revision();
        if let Some(key) = &key
            && let Some((rect, overlap_pixels)) = self.cache.pair(revision, key)
        {
            return Ok(match rect {
                None => Collision {
                    rect: None,
                    overlap_pixels: opts.precise.then_some(0),
                },
                Some(_) => Collision { rect, overlap_pixels },
            });
        }
        let answer = self.worked_out(a, b, parent, opts, key.as_ref())?;
        if let Some(key) = key {
            self.cache
                .keep_pair(revision, key, (answer.rect, answer.overlap_pixels));
        }
        Ok(answer)
    }

    /// [`Stage::collision`]'s answer when none is kept for the frame. A pair asked before,
    /// whose targets moved by whole pixels since, compares its kept rasters at their new
    /// anchors (`kept_pair`); else it is set up fresh, and kept when it can be. Out of line,
    /// so that the lookup of a kept answer stays as short as it was.
    #[inline(never)]
    fn worked_out(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        key: Option<&PairKey>,
    ) -> Result<Collision> {
        let request = PairRequest::new(a, b, parent, opts).rejecting_near_misses();
        let stale = match key.map(|k| self.kept_answer(k, &request)) {
            Some(Kept::Answer(answer)) => return answer,
            Some(Kept::Stale) => true,
            Some(Kept::None) | None => false,
        };
        let mut fresh = None;
        let answer = self.run_pair(&request, |setup| {
            let answer = setup.collision(self, opts)?;
            fresh = Some(setup);
            Ok(answer)
        });
        if let Some(key) = key {
            let setup = fresh.as_ref().filter(|_| answer.is_ok());
            self.keep_setup(*key, &request, setup, stale);
        }
        answer
    }
}
