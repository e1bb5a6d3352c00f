//! Which boxes overlap: every pair of a list of boxes whose interiors meet, in
//! O(n log n + pairs) for every layout.
//!
//! A sweep over x keeps the boxes the sweep line crosses. A plain sweep compares each new
//! box with all of them, which is quadratic when the boxes line up across the sweep (a
//! column of sprites under a sweep in x: 50,000 of them took 18 s with no pair at all). Here
//! the boxes the line crosses are indexed by their y extent, so that a new box meets only
//! the ones it overlaps: those whose top lies in its y range (found in an ordered set), and
//! those that reach across its top (found by stabbing a segment tree at its top). Both kinds
//! are overlaps, so the work is in proportion to what is reported.

use std::cmp::Reverse;
use std::collections::{BTreeSet, BinaryHeap};

use crate::Rect;
use crate::query::forward_scan::{Scan, ScanBox, forward_scan};
use crate::query::pair_order::sort_pairs;

/// The pairs `(i, j)`, `i < j`, of boxes whose interiors overlap (boxes that only touch do
/// not), sorted; `None` boxes overlap nothing. Stops with `Err(count)` as soon as more than
/// `max_pairs` pairs are found.
pub(crate) fn overlapping_pairs(
    boxes: &[Option<Rect>],
    max_pairs: usize,
) -> Result<Vec<(usize, usize)>, usize> {
    sweep(boxes, |_| FIRST, |_| FIRST, max_pairs)
}

/// A box's membership of the two groups of [`overlapping_pairs_between`], as bits.
pub(crate) const FIRST: u8 = 1;
/// See [`FIRST`].
pub(crate) const SECOND: u8 = 2;

/// The overlapping pairs `(i, j)`, `i < j`, with one box in each group: `groups[i]` is
/// [`FIRST`], [`SECOND`] or both. Boxes of one group are never compared with each other, so
/// a crowd of bullets costs nothing among itself. Otherwise as [`overlapping_pairs`].
pub(crate) fn overlapping_pairs_between(
    boxes: &[Option<Rect>],
    groups: &[u8],
    max_pairs: usize,
) -> Result<Vec<(usize, usize)>, usize> {
    // A box joins the index of its own groups and looks in the index of the other ones.
    let other = |g: u8| (if g & FIRST != 0 { SECOND } else { 0 }) | (if g & SECOND != 0 { FIRST } else { 0 });
    sweep(boxes, |i| groups[i], |i| other(groups[i]), max_pairs)
}

/// The boxes the sweep line crosses, of one group, indexed by their y extent.
struct Crossing {
    tops: BTreeSet<(usize, usize)>,
    across: StabTree,
}

/// The sweep: box `i` is kept in the indices of `joins(i)` (bit 0 the first, bit 1 the
/// second) and compared with the boxes in those of `looks(i)`.
fn sweep(
    boxes: &[Option<Rect>],
    joins: impl Fn(usize) -> u8,
    looks: impl Fn(usize) -> u8,
    max_pairs: usize,
) -> Result<Vec<(usize, usize)>, usize> {
    // The plain scan first: on a scene spread over the plane it is the cheaper; where it
    // would be quadratic it gives up early and the indexed sweep below answers. Its boxes
    // are sorted as they are made, unstably: the scan's pairs are put in order after it, so
    // the order of boxes with the same left edge changes nothing (a stable sort of the
    // boxes with their indices, then a copy, took 0.37 M of a frame of 1,000 rocks).
    let mut flat: Vec<ScanBox> = boxes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| {
            let b = with_area(*b)?;
            Some(ScanBox {
                left: b.left(),
                top: b.top(),
                right: b.right(),
                bottom: b.bottom(),
                index: i,
                joins: joins(i),
                looks: looks(i),
            })
        })
        .collect();
    flat.sort_unstable_by(|a, b| a.left.total_cmp(&b.left));
    match forward_scan(&flat, max_pairs, &mut 0) {
        Scan::Done(mut pairs) => {
            sort_pairs(&mut pairs, boxes.len());
            return Ok(pairs);
        }
        Scan::TooMany(count) => return Err(count),
        Scan::GaveUp => {}
    }
    drop(flat);
    indexed_sweep(&by_left_edge(boxes), joins, looks, max_pairs)
}

/// `b` if it has area: boxes without area overlap nothing (exclusive overlap).
fn with_area(b: Option<Rect>) -> Option<Rect> {
    b.filter(|b| b.left() < b.right() && b.top() < b.bottom())
}

/// The boxes with area, with their indices, sorted by left edge. Boxes without area overlap
/// nothing (exclusive overlap).
fn by_left_edge(boxes: &[Option<Rect>]) -> Vec<(usize, Rect)> {
    let mut order: Vec<(usize, Rect)> = boxes
        .iter()
        .enumerate()
        .filter_map(|(i, b)| with_area(*b).map(|b| (i, b)))
        .collect();
    order.sort_by(|a, b| a.1.left().total_cmp(&b.1.left()));
    order
}

/// The sweep with the crossing boxes indexed by y, over `order` (boxes with area, sorted by
/// left edge): O(n log n + pairs) for every layout.
fn indexed_sweep(
    order: &[(usize, Rect)],
    joins: impl Fn(usize) -> u8,
    looks: impl Fn(usize) -> u8,
    max_pairs: usize,
) -> Result<Vec<(usize, usize)>, usize> {
    // y coordinates as ranks, so that the index is over integers.
    let mut ys: Vec<f64> = order.iter().flat_map(|(_, b)| [b.top(), b.bottom()]).collect();
    ys.sort_by(f64::total_cmp);
    ys.dedup();
    let rank = |y: f64| ys.partition_point(|&v| v < y);
    let spans: Vec<(usize, usize)> = order
        .iter()
        .map(|(_, b)| (rank(b.top()), rank(b.bottom())))
        .collect();

    let mut index = [FIRST, SECOND].map(|_| Crossing {
        tops: BTreeSet::new(),
        across: StabTree::new(ys.len()),
    });
    let mut alive = vec![false; order.len()];
    let mut leaving: BinaryHeap<(Reverse<Ordered>, usize)> = BinaryHeap::new();
    let mut pairs = Vec::new();
    for (k, &(i, bi)) in order.iter().enumerate() {
        // Boxes whose right edge is at or before this left edge meet no later box either.
        while let Some(&(Reverse(Ordered(right)), j)) = leaving.peek() {
            if right > bi.left() {
                break;
            }
            leaving.pop();
            alive[j] = false;
            for crossing in &mut index {
                crossing.tops.remove(&(spans[j].0, j));
            }
        }
        let (top, bottom) = spans[k];
        let mut report = |j: usize| -> Result<(), usize> {
            let other = order[j].0;
            pairs.push((i.min(other), i.max(other)));
            if pairs.len() > max_pairs {
                return Err(pairs.len());
            }
            Ok(())
        };
        let look = looks(i);
        for (g, crossing) in index.iter_mut().enumerate() {
            if look & (1 << g) == 0 {
                continue;
            }
            // A box in both indices that this one looks in both is reported from the first.
            let seen = |j: usize| g == 1 && look & FIRST != 0 && joins(order[j].0) & FIRST != 0;
            for &(_, j) in crossing.tops.range((top, 0)..(bottom, 0)) {
                if !seen(j) {
                    report(j)?;
                }
            }
            let mut result = Ok(());
            crossing.across.stab(top, &alive, |j| {
                // Tops at this very rank were reported from the ordered set.
                if result.is_ok() && spans[j].0 < top && !seen(j) {
                    result = report(j);
                }
            });
            result?;
        }
        alive[k] = true;
        let join = joins(i);
        for (g, crossing) in index.iter_mut().enumerate() {
            if join & (1 << g) != 0 {
                crossing.tops.insert((top, k));
                crossing.across.insert(top, bottom, k);
            }
        }
        leaving.push((Reverse(Ordered(bi.right())), k));
    }
    let boxes = order.iter().map(|&(i, _)| i + 1).max().unwrap_or(0);
    sort_pairs(&mut pairs, boxes);
    Ok(pairs)
}

/// An f64 ordered by `total_cmp`, for the heap of right edges.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Ordered(f64);

impl Eq for Ordered {}

impl PartialOrd for Ordered {
    fn partial_cmp(&self, other: &Self) -> Option<std::cmp::Ordering> {
        Some(self.cmp(other))
    }
}

impl Ord for Ordered {
    fn cmp(&self, other: &Self) -> std::cmp::Ordering {
        self.0.total_cmp(&other.0)
    }
}

/// Intervals `[lo, hi)` of ranks, stored in the O(log n) nodes of a segment tree that cover
/// them, so that all intervals holding a point are found on the path from its leaf to the
/// root. Removed intervals are dropped lazily, when a stab meets them: each is dropped once.
struct StabTree {
    size: usize,
    nodes: Vec<Vec<usize>>,
}

impl StabTree {
    fn new(points: usize) -> StabTree {
        let size = points.next_power_of_two().max(1);
        StabTree {
            size,
            nodes: vec![Vec::new(); 2 * size],
        }
    }

    fn insert(&mut self, lo: usize, hi: usize, id: usize) {
        let (mut l, mut r) = (lo + self.size, hi + self.size);
        while l < r {
            if l & 1 == 1 {
                self.nodes[l].push(id);
                l += 1;
            }
            if r & 1 == 1 {
                r -= 1;
                self.nodes[r].push(id);
            }
            l /= 2;
            r /= 2;
        }
    }

    /// Calls `found(id)` for every interval alive that holds `point`.
    fn stab(&mut self, point: usize, alive: &[bool], mut found: impl FnMut(usize)) {
        let mut node = point + self.size;
        while node >= 1 {
            self.nodes[node].retain(|&id| {
                if alive[id] {
                    found(id);
                }
                alive[id]
            });
            node /= 2;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    fn brute_force(boxes: &[Option<Rect>]) -> Vec<(usize, usize)> {
        let mut want = Vec::new();
        for i in 0..boxes.len() {
            for j in i + 1..boxes.len() {
                if let (Some(a), Some(b)) = (boxes[i], boxes[j])
                    && a.intersect(&b).is_some()
                {
                    want.push((i, j));
                }
            }
        }
        want
    }

    fn indexed_only(boxes: &[Option<Rect>]) -> Vec<(usize, usize)> {
        indexed_sweep(&by_left_edge(boxes), |_| FIRST, |_| FIRST, usize::MAX).unwrap()
    }

    #[test]
    fn a_column_past_the_scans_budget_is_answered_by_the_indexed_sweep() {
        // 2,000 boxes one above the other, each overlapping the next: the forward scan
        // would compare every two of them.
        let boxes: Vec<Option<Rect>> = (0..2000)
            .map(|i| Rect::from_ltrb(0.0, i as f64, 10.0, i as f64 + 1.5))
            .collect();
        let want: Vec<(usize, usize)> = (0..1999).map(|i| (i, i + 1)).collect();
        assert_eq!(overlapping_pairs(&boxes, usize::MAX), Ok(want));
    }

    #[test]
    fn the_pairs_are_exactly_the_overlapping_boxes() {
        let mut seed = 99u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as f64 / (1u64 << 31) as f64
        };
        for case in 0..3000 {
            let n = 1 + (next() * 80.0) as usize;
            // Coarse coordinates, so that edges often coincide and boxes touch.
            let grid = if case % 2 == 0 { 1.0 } else { 0.0 };
            let q = |v: f64| if grid > 0.0 { v.floor() } else { v };
            let boxes: Vec<Option<Rect>> = (0..n)
                .map(|_| {
                    if next() < 0.05 {
                        return None;
                    }
                    let (x, y) = (q(next() * 100.0), q(next() * 100.0));
                    let (w, h) = match case % 3 {
                        0 => (q(next() * 20.0), q(next() * 20.0)),
                        // Long thin boxes in both directions.
                        1 => (q(next() * 100.0), q(next() * 4.0)),
                        _ => (q(next() * 4.0), q(next() * 100.0)),
                    };
                    Rect::from_ltrb(x, y, x + w, y + h)
                })
                .collect();
            assert_eq!(
                overlapping_pairs(&boxes, usize::MAX),
                Ok(brute_force(&boxes)),
                "case {case}"
            );
            // The indexed sweep alone, which the forward scan leaves to the layouts it
            // gives up on.
            assert_eq!(indexed_only(&boxes), brute_force(&boxes), "case {case}");
        }
    }

    #[test]
    fn pairs_between_groups_are_exactly_the_overlapping_boxes_of_different_groups() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as f64 / (1u64 << 31) as f64
        };
        for case in 0..3000 {
            let n = 1 + (next() * 60.0) as usize;
            let boxes: Vec<Option<Rect>> = (0..n)
                .map(|_| {
                    let (x, y) = ((next() * 60.0).floor(), (next() * 60.0).floor());
                    let (w, h) = ((next() * 25.0).floor(), (next() * 25.0).floor());
                    Rect::from_ltrb(x, y, x + w, y + h)
                })
                .collect();
            // Some boxes in both groups, as when a list is given twice.
            let groups: Vec<u8> = (0..n)
                .map(|_| [FIRST, SECOND, FIRST | SECOND][(next() * 3.0) as usize % 3])
                .collect();
            let want: Vec<(usize, usize)> = brute_force(&boxes)
                .into_iter()
                .filter(|&(i, j)| {
                    (groups[i] & FIRST != 0 && groups[j] & SECOND != 0)
                        || (groups[i] & SECOND != 0 && groups[j] & FIRST != 0)
                })
                .collect();
            assert_eq!(
                overlapping_pairs_between(&boxes, &groups, usize::MAX),
                Ok(want),
                "case {case}"
            );
        }
    }

    #[test]
    fn counting_stops_past_the_budget() {
        let boxes: Vec<Option<Rect>> = (0..100).map(|_| Rect::from_ltrb(0.0, 0.0, 10.0, 10.0)).collect();
        assert_eq!(overlapping_pairs(&boxes, 4950).map(|p| p.len()), Ok(4950));
        assert_eq!(overlapping_pairs(&boxes, 1000), Err(1001));
    }
}
