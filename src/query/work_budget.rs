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

/// [`window`] from the boxes and the pixels each covers (`pa`, `pb`): the covering
/// pixels of an intersection are the intersection of the covering pixels, since rounding
/// each edge outward (down for the left and top, up for the right and bottom, clamped) keeps
/// the order of edges, so the larger of two left edges rounds to the larger of their
/// roundings.
fn pixel_window(a: &Rect, b: &Rect, pa: &PixelRect, pb: &PixelRect) -> u128 {
    match a.intersect(b) {
        Some(_) => pa.intersect(pb).area(),
        None => 0,
    }
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
    // Each box's pixels once, and whether it is counted as drawn: a pair's window is then
    // the intersection of its boxes' pixels (`pixel_window`), not four roundings a pair.
    let mut objects: Vec<(bool, Option<PixelRect>)> = boxes
        .iter()
        .map(|b| (!opts.precise, b.as_ref().map(PixelRect::covering)))
        .collect();
    for &(i, j) in pairs {
        let (Some(a), Some(b), Some(pa), Some(pb)) = (boxes[i], boxes[j], objects[i].1, objects[j].1) else {
            count.add(opts.precise, 0);
            continue;
        };
        for (k, pixels) in [(i, pa), (j, pb)] {
            if !objects[k].0 {
                objects[k].0 = true;
                count.add_pixels(pixels.area());
            }
        }
        count.add(opts.precise, pixel_window(&a, &b, &pa, &pb));
        if count.is_over() {
            break;
        }
    }
    count.check(what)
}

#[cfg(test)]
mod tests {
    use super::*;

    /// A pair's window from its boxes' pixels is the pixels of its boxes' intersection,
    /// over 30,000 random pairs: touching, apart, on whole pixels, tiny, huge and far ones.
    #[test]
    fn windows_from_the_boxes_pixels_are_the_intersections_pixels() {
        let mut rng = crate::query::budget_tests::Rng(0x2545_f491_4f6c_dd1d);
        // Magnitudes from 1 to 2^60, a quarter on whole pixels and a quarter on quarters.
        let mut value = move || {
            let v = rng.range(-1.0, 1.0) * f64::from(rng.below(60) as u32).exp2();
            match rng.below(4) {
                0 => v.round(),
                1 => (v * 4.0).round() / 4.0,
                _ => v,
            }
        };
        let (mut overlapping, mut compared) = (0, 0);
        while compared < 30_000 {
            let (l, t) = (value(), value());
            let Some(a) = Rect::from_ltrb(l, t, l + value().abs(), t + value().abs()) else {
                continue;
            };
            // The second box near the first half the time, so that many pairs overlap or touch.
            let (l, t) = match compared % 2 {
                0 => (a.left() + value() % 8.0, a.top() + value() % 8.0),
                _ => (value(), value()),
            };
            let Some(b) = Rect::from_ltrb(l, t, l + value().abs() % 16.0, t + value().abs() % 16.0) else {
                continue;
            };
            let (pa, pb) = (PixelRect::covering(&a), PixelRect::covering(&b));
            assert_eq!(pixel_window(&a, &b, &pa, &pb), window(&a, &b), "{a:?} and {b:?}");
            overlapping += usize::from(window(&a, &b) > 0);
            compared += 1;
        }
        assert!(overlapping > 5_000, "{overlapping} overlapping pairs");
    }
}
