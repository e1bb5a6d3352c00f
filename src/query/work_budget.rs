//! The work budget of a whole call ([`CollisionOptions::max_work`]): many-object and motion
//! queries add up, before they test anything, the work every pair or pose they may test
//! could take, and refuse with [`Error::WorkBudget`] past the budget.
//!
//! The unit is a *pixel test*: each pixel of the window a pair or pose is compared over,
//! each pixel of a target that has to be drawn at a new pose, and [`TEST_OVERHEAD`] for
//! setting up each test. Counting these, not time, makes the same call give the same
//! answer whatever the threads, the machine and the cache hold; per-pair and per-pose
//! budgets ([`CollisionOptions::max_pixels`], `MotionOptions::max_tests`) bound one unit,
//! this bounds how many there are.

use crate::geom::rect::PixelRect;
use crate::{CollisionOptions, Error, Rect, Result};

/// What one precise test costs besides its pixels (the setup of a pair at a pose: matrices,
/// bounds, the preparation of its targets), in pixel tests: a million close pairs of tiny
/// objects, a few seconds, fit the default budget.
pub(crate) const TEST_OVERHEAD: u128 = 64;

/// What [`Error::WorkBudget`] says was counted for a whole call.
const UNIT: &str = "pixel tests (the pixels of every window and new pose it may test)";

/// What to do about a call over its budget.
const REMEDY: &str = "raise max_work in its options (CollisionOptions::max_work, MotionOptions::max_work, \
                      max_work= in Python), or ask about fewer, smaller or slower objects";

/// The pixels of the window two boxes overlap in (zero when they do not).
pub(crate) fn window(a: &Rect, b: &Rect) -> u128 {
    a.intersect(b).map_or(0, |r| PixelRect::covering(&r).area())
}

/// The pixels a box covers.
pub(crate) fn area(r: &Rect) -> u128 {
    PixelRect::covering(r).area()
}

/// The work of a whole call, added up before anything is tested.
pub(crate) struct WorkCount {
    work: u128,
    budget: u64,
}

impl WorkCount {
    /// An empty count against `opts.max_work`.
    pub fn new(opts: &CollisionOptions) -> WorkCount {
        WorkCount {
            work: 0,
            budget: opts.max_work,
        }
    }

    /// Adds one precise test of `pixels` pixels.
    fn add_test(&mut self, pixels: u128) {
        self.work = self.work.saturating_add(pixels).saturating_add(TEST_OVERHEAD);
    }

    /// Adds one test of boxes only (an imprecise query): one unit.
    fn add_box_test(&mut self) {
        self.work = self.work.saturating_add(1);
    }

    /// Adds one test, precise (`pixels` pixels) or of boxes only.
    pub fn add(&mut self, precise: bool, pixels: u128) {
        match precise {
            true => self.add_test(pixels),
            false => self.add_box_test(),
        }
    }

    /// Adds `pixels` drawn once for the whole call.
    pub fn add_pixels(&mut self, pixels: u128) {
        self.work = self.work.saturating_add(pixels);
    }

    /// Whether the count is already past the budget (a caller adding up a long list may
    /// stop there: the answer is a refusal whatever follows).
    pub fn is_over(&self) -> bool {
        self.work > u128::from(self.budget)
    }

    /// [`Error::WorkBudget`] naming `what` when the count is past the budget.
    pub fn check(&self, what: impl FnOnce() -> String) -> Result<()> {
        match self.is_over() {
            false => Ok(()),
            true => Err(Error::WorkBudget {
                what: what(),
                work: self.work,
                budget: self.budget,
                unit: UNIT,
                remedy: REMEDY,
            }),
        }
    }
}

/// [`Error::WorkBudget`] naming `what` when testing `pairs` of objects with bounds `boxes`
/// would take more than `opts.max_work`: each pair's window, and each object in a pair drawn
/// once (the raster cache keeps it for its other pairs). Imprecise queries compare boxes
/// only: a pair costs its overhead.
pub(crate) fn check_pairs(
    boxes: &[Option<Rect>],
    pairs: &[(usize, usize)],
    opts: &CollisionOptions,
    what: impl FnOnce() -> String,
) -> Result<()> {
    let mut count = WorkCount::new(opts);
    let mut drawn = vec![!opts.precise; boxes.len()];
    for &(i, j) in pairs {
        let (Some(a), Some(b)) = (boxes[i], boxes[j]) else {
            count.add(opts.precise, 0);
            continue;
        };
        for (k, r) in [(i, &a), (j, &b)] {
            if !drawn[k] {
                drawn[k] = true;
                count.add_pixels(area(r));
            }
        }
        count.add(opts.precise, window(&a, &b));
        if count.is_over() {
            break;
        }
    }
    count.check(what)
}
