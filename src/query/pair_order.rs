//! The broad phase's pairs put in order, `(i, j)` by `i` then `j`, by two counting passes
//! instead of a comparison sort.
//!
//! Every index is below the number of boxes, so a pair's place is found by counting: the
//! pairs are spread by `j` and then, keeping that order, by `i` (a least-significant-first
//! radix sort with the indices as digits). That is a few instructions a pair and a pass over
//! the boxes' counts, where `sort_unstable` compared about 200 instructions' worth a pair
//! (0.58 M of a frame of 1,000 turning rocks, 2,800 pairs). Lists that are short, or short
//! beside their boxes, are left to `sort_unstable`; either way the order is the same, since
//! it is the order of the pairs themselves.

use std::cell::RefCell;

/// Fewest pairs worth counting: below this, the counts' passes over the boxes cost more
/// than comparing.
const FEWEST: usize = 64;

/// Most pairs whose room a thread keeps for the next query (1 MiB).
const KEPT_ROOM: usize = 1 << 16;

/// The counts and the spread pairs' room, kept between queries (nothing in them is read
/// before it is written).
struct Scratch {
    counts: Vec<usize>,
    spread: Vec<(usize, usize)>,
}

thread_local! {
    static SCRATCH: RefCell<Scratch> = const {
        RefCell::new(Scratch {
            counts: Vec::new(),
            spread: Vec::new(),
        })
    };
}

/// Sorts `pairs`, every index of which is below `boxes`, as `sort_unstable` does.
pub(crate) fn sort_pairs(pairs: &mut [(usize, usize)], boxes: usize) {
    // Two passes over the counts (boxes + 1 each) against about log2(pairs) compares a pair.
    if pairs.len() < FEWEST || boxes > pairs.len().saturating_mul(4) {
        pairs.sort_unstable();
        return;
    }
    SCRATCH.with(|cell| {
        // Borrowed only here, which calls nothing that sorts pairs: a failed borrow cannot
        // happen, and would only sort the plain way.
        let Ok(mut scratch) = cell.try_borrow_mut() else {
            pairs.sort_unstable();
            return;
        };
        let Scratch { counts, spread } = &mut *scratch;
        spread.clear();
        spread.resize(pairs.len(), (0, 0));
        spread_by(pairs, spread, counts, boxes, |p| p.1);
        spread_by(spread, pairs, counts, boxes, |p| p.0);
        if spread.capacity() > KEPT_ROOM {
            *spread = Vec::new();
        }
        if counts.capacity() > KEPT_ROOM {
            *counts = Vec::new();
        }
    });
}

/// Writes `from` into `to` ordered by `digit` (below `boxes`), keeping the order of equal
/// digits: a counting sort's one pass.
fn spread_by(
    from: &[(usize, usize)],
    to: &mut [(usize, usize)],
    counts: &mut Vec<usize>,
    boxes: usize,
    digit: impl Fn(&(usize, usize)) -> usize,
) {
    counts.clear();
    counts.resize(boxes + 1, 0);
    for p in from {
        counts[digit(p) + 1] += 1;
    }
    // Each digit's first place: the counts of the smaller digits added up.
    for d in 1..counts.len() {
        counts[d] += counts[d - 1];
    }
    for &p in from {
        let place = &mut counts[digit(&p)];
        to[*place] = p;
        *place += 1;
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn pairs_come_out_as_sort_unstable_puts_them() {
        let mut seed = 5u64;
        let mut next = move |n: usize| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            ((seed >> 33) as usize) % n.max(1)
        };
        let mut counted = 0;
        for case in 0..2000 {
            let boxes = 1 + next(if case % 4 == 0 { 5000 } else { 300 });
            let len = next(if case % 3 == 0 { 40 } else { 3000 });
            let mut pairs: Vec<(usize, usize)> = (0..len)
                .map(|_| {
                    // Repeats of one box's pairs, and pairs of the last box, as well.
                    let i = if case % 5 == 0 { next(3) } else { next(boxes) };
                    (i.min(boxes - 1), next(boxes))
                })
                .collect();
            let mut want = pairs.clone();
            want.sort_unstable();
            if pairs.len() >= FEWEST && boxes <= pairs.len() * 4 {
                counted += 1;
            }
            sort_pairs(&mut pairs, boxes);
            assert_eq!(pairs, want, "case {case}: {boxes} boxes");
        }
        // Both ways were taken many times.
        assert!((500..1500).contains(&counted), "{counted} lists counted");
    }
}
