//! The broad phase's first try: the boxes sorted by left edge, and each compared with the
//! boxes after it whose left edge is before its right edge, over flat arrays.
//!
//! For a scene spread over the plane this is the cheapest way to the close pairs (on the
//! rocks scene of issue 29, 1,000 boxes: about 30 comparisons a box, and no allocation past
//! the arrays). It is quadratic when the boxes line up across the sweep (a column), so it
//! works under a budget of comparisons in proportion to the boxes and the pairs found, and
//! gives up when that is spent: [`broad_phase`](super::broad_phase) then runs its indexed
//! sweep, whose work is in proportion to what it reports. The answer is the same either way;
//! the budget bounds the wasted try to a constant times the indexed sweep's own work.

/// Comparisons allowed per box and per pair found before the scan gives up.
const COMPARISONS_PER_ITEM: usize = 32;

/// One box of the scan: its edges, its index in the caller's list and its groups.
#[derive(Clone, Copy, Debug)]
pub(crate) struct ScanBox {
    pub left: f64,
    pub top: f64,
    pub right: f64,
    pub bottom: f64,
    pub index: usize,
    pub joins: u8,
    pub looks: u8,
}

/// What the scan ended with.
#[derive(Debug, PartialEq)]
pub(crate) enum Scan {
    /// Every pair `(i, j)`, `i < j`, of boxes whose interiors overlap and where one looks in
    /// a group the other joins; unsorted.
    Done(Vec<(usize, usize)>),
    /// More than the caller's most pairs: how many had been found when it stopped.
    TooMany(usize),
    /// The budget of comparisons ran out: nothing is known.
    GaveUp,
}

/// The overlapping pairs of `boxes`, which must be sorted by `left` and have area. Stops
/// with [`Scan::TooMany`] past `max_pairs`, and with [`Scan::GaveUp`] (and the comparisons it
/// made, in `work`) when the comparisons pass the budget: the budget is checked a box at a
/// time, so the try costs at most the budget and one box's run of comparisons (fewer than
/// the boxes).
pub(crate) fn forward_scan(boxes: &[ScanBox], max_pairs: usize, work: &mut usize) -> Scan {
    // About as many close pairs as boxes in a spread-out crowd: room for them at once, not
    // a dozen doublings.
    let mut pairs = Vec::with_capacity(boxes.len().min(max_pairs.saturating_add(1)));
    let mut budget = COMPARISONS_PER_ITEM.saturating_mul(boxes.len());
    for (k, a) in boxes.iter().enumerate() {
        let after = &boxes[k + 1..];
        // Sorted by left edge: the boxes that start before this one ends are a run, found
        // by one compare each and counted as a whole (the run is then compared in y with
        // no budget check a box: the check and the break were half of each comparison).
        let run = after
            .iter()
            .position(|b| b.left >= a.right)
            .unwrap_or(after.len());
        *work += run;
        if *work > budget {
            return Scan::GaveUp;
        }
        for b in &after[..run] {
            // x overlaps: b.left is in [a.left, a.right) and b has width. Both have height,
            // so the y ranges meet when each starts before the other ends: two compares,
            // not f64's max and min with their NaN rules.
            let meets = b.top < a.bottom && a.top < b.bottom;
            if meets && (a.looks & b.joins != 0 || b.looks & a.joins != 0) {
                pairs.push((a.index.min(b.index), a.index.max(b.index)));
                if pairs.len() > max_pairs {
                    return Scan::TooMany(pairs.len());
                }
                budget = budget.saturating_add(COMPARISONS_PER_ITEM);
            }
        }
    }
    Scan::Done(pairs)
}

#[cfg(test)]
mod tests {
    use super::*;

    fn column(n: usize) -> Vec<ScanBox> {
        // Same x extent, one above the other: every box is in every other's x range.
        (0..n)
            .map(|i| ScanBox {
                left: 0.0,
                top: 2.0 * i as f64,
                right: 10.0,
                bottom: 2.0 * i as f64 + 1.0,
                index: i,
                joins: 1,
                looks: 1,
            })
            .collect()
    }

    #[test]
    fn a_column_spends_its_budget_and_gives_up() {
        let mut work = 0;
        assert_eq!(forward_scan(&column(1000), usize::MAX, &mut work), Scan::GaveUp);
        // The try costs at most its budget and one box's run: box k meets the 999 - k
        // after it, and the runs of boxes 0 to 32 add up to 32,439, past 32,000.
        assert_eq!(work, (0..=32).map(|k| 999 - k).sum::<usize>());
        assert!(work > COMPARISONS_PER_ITEM * 1000 && work < COMPARISONS_PER_ITEM * 1000 + 1000);
    }

    #[test]
    fn a_spread_scene_is_answered_within_the_budget() {
        // A 40 x 25 grid of 13 x 10 px boxes on a 12 px pitch: each overlaps its right
        // neighbour by one pixel and nothing else.
        let mut boxes: Vec<ScanBox> = (0..1000)
            .map(|i| {
                let (x, y) = ((i % 40) as f64 * 12.0, (i / 40) as f64 * 12.0);
                ScanBox {
                    left: x,
                    top: y,
                    right: x + 13.0,
                    bottom: y + 10.0,
                    index: i,
                    joins: 1,
                    looks: 1,
                }
            })
            .collect();
        boxes.sort_by(|a, b| a.left.total_cmp(&b.left));
        let mut work = 0;
        let Scan::Done(mut pairs) = forward_scan(&boxes, usize::MAX, &mut work) else {
            panic!("the scan gave up on a spread scene");
        };
        pairs.sort_unstable();
        // Each box overlaps its right neighbour by one pixel in x, and nothing else.
        let want: Vec<(usize, usize)> = (0..1000).filter(|i| i % 40 != 39).map(|i| (i, i + 1)).collect();
        assert_eq!(pairs, want);
        // Each box is compared with the boxes after it in its own column (25 * 24 / 2 per
        // column) and with the 25 of the next column (39 columns have one).
        assert_eq!(work, 40 * 300 + 39 * 25 * 25);
    }
}
