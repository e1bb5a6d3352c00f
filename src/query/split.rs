//! Whether a many-object query's close pairs are worth handing to the thread pool.
//!
//! Handing pairs to the pool costs waking its threads, splitting the list and gathering
//! the answers; a frame of a few hundred sprites through Python took longer on two threads
//! than on one (docs/frame-engine.md, "Two threads"). So a query splits its pairs only
//! when their estimated work is large enough to pay for that. The estimate is made from
//! the boxes the broad phase already has: a fixed part a pair (setting it up, preparing
//! both targets, the near-miss test) and a part a pixel of its window (the targets'
//! kernels and the compare). Both weights are callgrind counts: `prof_rocks 1000`, one
//! thread, 1,340 close pairs and 953,753 window pixels a frame, takes about 56 M
//! instructions a frame, and the estimate gives 55 M.
//!
//! A query made on a thread of the pool already (`pool.install(|| ..)`) always splits:
//! there the pairs are pushed on that thread's own queue and nothing is woken to take
//! them. That is also how a caller who knows better asks for the split.
//!
//! The choice only decides which threads do the work: answers and errors are the same
//! either way (`in_order`).

// Without the `parallel` feature nothing is split: only the tests ask for the estimate.
#![cfg_attr(not(feature = "parallel"), allow(dead_code))]

use crate::Rect;

/// Estimated instructions a close pair costs before its pixels.
const PAIR_WORK: f64 = 20_000.0;

/// Estimated instructions a pixel of a pair's window costs.
const PIXEL_WORK: f64 = 30.0;

/// Least estimated work (instructions) split over the pool: about 5 ms of one core, the
/// work of about 370 rocks of `prof_rocks` (through Python two threads lost at 100 and
/// 300 rocks, and drew even at 1,000).
pub(crate) const MIN_SPLIT_WORK: f64 = 20_000_000.0;

/// The estimated work of the close `pairs` of objects whose boxes are `boxes`
/// (instructions; a pair of objects without a box costs its fixed part).
pub(crate) fn estimated_work(boxes: &[Option<Rect>], pairs: &[(usize, usize)]) -> f64 {
    pairs
        .iter()
        .map(|&(i, j)| {
            let window = match (&boxes[i], &boxes[j]) {
                (Some(a), Some(b)) => a.intersect(b).map_or(0.0, |r| r.width() * r.height()),
                _ => 0.0,
            };
            // A box can be as large as the plane; a pixel count past 2^40 decides as much.
            PAIR_WORK + PIXEL_WORK * window.min((1u64 << 40) as f64)
        })
        .sum()
}

/// Whether the close `pairs` are worth splitting over the pool (see the module's text):
/// always when the query runs on a thread of the pool already (`pool.install`, or inside
/// another parallel loop), where handing work on costs a push on its own queue, and else
/// when their estimated work is at least [`MIN_SPLIT_WORK`].
pub(crate) fn pays(boxes: &[Option<Rect>], pairs: &[(usize, usize)]) -> bool {
    let on_pool = cfg!(feature = "parallel") && on_pool();
    let split = on_pool || estimated_work(boxes, pairs) >= MIN_SPLIT_WORK;
    #[cfg(test)]
    DECISIONS.with(|d| {
        let (serial, parallel) = d.get();
        d.set(if split {
            (serial, parallel + 1)
        } else {
            (serial + 1, parallel)
        });
    });
    split
}

/// Least number of objects whose boxes are worked out on the pool from outside it: a box
/// is about 1,600 instructions (`prof_rocks`), so 512 of them are about 0.8 M, well over
/// waking the pool.
pub(crate) const MIN_SPLIT_OBJECTS: usize = 512;

/// `one` of every object, in the objects' order, or the error of the first object (in that
/// order) whose `one` fails: on the pool when `parallel` and there are at least
/// [`MIN_SPLIT_OBJECTS`] objects or this thread is the pool's, else one after another.
/// The objects' boxes are the serial part of a many-object query that splits most easily.
///
/// # Errors
///
/// The first failing object's error, whichever thread met it.
pub(crate) fn map_in_order<T: Sync, R: Send>(
    items: &[T],
    parallel: bool,
    one: impl Fn(&T) -> crate::Result<R> + Sync,
) -> crate::Result<Vec<R>> {
    #[cfg(feature = "parallel")]
    if parallel && (items.len() >= MIN_SPLIT_OBJECTS || on_pool()) {
        use rayon::prelude::*;
        let all: Vec<crate::Result<R>> = items.par_iter().map(&one).collect();
        return all.into_iter().collect();
    }
    let _ = parallel;
    // Sized at once: collected through `Result`, the vector grew by doubling (nine
    // allocations for a crowd of 1,000).
    let mut all = Vec::with_capacity(items.len());
    for item in items {
        all.push(one(item)?);
    }
    Ok(all)
}

/// Whether this thread is one of a rayon pool's.
fn on_pool() -> bool {
    #[cfg(feature = "parallel")]
    return rayon::current_thread_index().is_some();
    #[cfg(not(feature = "parallel"))]
    false
}

#[cfg(test)]
thread_local! {
    /// Queries of this thread kept on it and split over the pool, for the tests that count.
    static DECISIONS: std::cell::Cell<(u64, u64)> = const { std::cell::Cell::new((0, 0)) };
}

/// How many queries of this thread kept their pairs on it and how many split them.
#[cfg(test)]
pub(crate) fn decisions() -> (u64, u64) {
    DECISIONS.with(std::cell::Cell::get)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::{Bitmap, CollisionOptions, Stage};

    fn square(x: f64, y: f64, size: f64) -> Option<Rect> {
        Rect::from_ltrb(x, y, x + size, y + size)
    }

    /// The estimate is the pairs' fixed parts and their windows' pixels; a few hundred
    /// small pairs stay serial, large windows or many pairs split.
    #[test]
    fn estimate_counts_pairs_and_window_pixels() {
        let boxes = [square(0.0, 0.0, 40.0), square(20.0, 10.0, 40.0), None];
        let got = estimated_work(&boxes, &[(0, 1), (1, 2)]);
        assert_eq!(got, 2.0 * PAIR_WORK + PIXEL_WORK * 20.0 * 30.0);
        // 400 close pairs of 30 px sprites: serial; 2,000: split; one pair of two
        // 1,000 px squares: split.
        let row: Vec<Option<Rect>> = (0..2001)
            .map(|k| square(20.0 * f64::from(k), 0.0, 30.0))
            .collect();
        let pairs: Vec<(usize, usize)> = (0..2000).map(|k| (k, k + 1)).collect();
        assert!(!pays(&row, &pairs[..400]));
        assert!(pays(&row, &pairs));
        let big = [square(0.0, 0.0, 1000.0), square(1.0, 1.0, 1000.0)];
        assert!(pays(&big, &[(0, 1)]));
        // Boxes as large as the plane do not overflow the estimate.
        let huge = [square(-1e300, -1e300, 2e300), square(-1e300, -1e300, 2e300)];
        assert!(estimated_work(&huge, &[(0, 1)]).is_finite());
    }

    /// Mapped on the pool or not, the results come in order, and the error is the first
    /// failing item's.
    #[test]
    fn maps_in_order_with_the_first_error() {
        let items: Vec<u32> = (0..2000).collect();
        for parallel in [false, true] {
            let got = map_in_order(&items, parallel, |&k| Ok(k * 3)).unwrap();
            assert_eq!(got, items.iter().map(|k| k * 3).collect::<Vec<_>>());
            let failing = |&k: &u32| match k {
                700 | 1500 => Err(crate::Error::StaleNode {
                    node: format!("item {k}"),
                }),
                _ => Ok(k),
            };
            let err = map_in_order(&items, parallel, failing).unwrap_err();
            assert!(err.to_string().contains("item 700"), "{err}");
        }
    }

    /// A small crowd asked on several threads stays on this one, and answers as it does
    /// when asked serially; asked from a thread of a pool, it is split.
    #[test]
    fn small_crowds_stay_on_one_thread() {
        let mut stage = Stage::new();
        let root = stage.root();
        let sprites: Vec<_> = (0..30)
            .map(|k| {
                let square = Bitmap::from_rgba8(12, 12, vec![255; 12 * 12 * 4]).unwrap();
                let n = stage.add_bitmap(root, square, false).unwrap();
                stage
                    .set_transform(n, 7.0 * f64::from(k), 0.5, f64::from(k), 1.0, 1.0)
                    .unwrap();
                n
            })
            .collect();
        let before = decisions();
        let opts = CollisionOptions::default();
        let parallel = stage.contacts_among(&sprites, root, &opts).unwrap();
        let after = decisions();
        if cfg!(feature = "parallel") {
            assert_eq!((after.0 - before.0, after.1 - before.1), (1, 0));
        }
        let serial = stage
            .contacts_among(&sprites, root, &opts.parallel(false))
            .unwrap();
        assert_eq!(parallel, serial);
        assert!(!serial.is_empty());
        #[cfg(feature = "parallel")]
        {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            let (pooled, split) = pool.install(|| {
                let before = decisions();
                let got = stage.contacts_among(&sprites, root, &opts).unwrap();
                let after = decisions();
                (got, (after.0 - before.0, after.1 - before.1))
            });
            assert_eq!(split, (0, 1));
            assert_eq!(pooled, serial);
        }
    }
}
