//! Pairs tested on several threads, answered as if one after another: the hits in the pairs'
//! order, and when some pairs fail, the error of the first failing pair in that order, so
//! that `parallel(true)` and `parallel(false)` give the same answer and the same error.

use std::cell::Cell;

use crate::Result;

thread_local! {
    /// How many hits this thread's last one-by-one run kept: the room of its next answer.
    static LAST_HITS: Cell<usize> = const { Cell::new(0) };
}

/// The room to give an answer of hits among `items` on this thread: a frame's hits are
/// about its last frame's (a quarter and a few more to spare), never more than the items.
fn room_for_hits(items: usize) -> usize {
    let last = LAST_HITS.with(Cell::get);
    items.min(last.saturating_add(last / 4).saturating_add(8))
}

/// `one` of every item, one after another on this thread: the `Some` answers in the items'
/// order, or the error of the first item whose `one` fails (the items after it are not
/// run). The answer starts with the room of the thread's last one: grown from nothing by
/// doubling, it copied itself about ten times a frame of 600 contacts (0.45 M instructions of
/// `prof_rocks 1000`'s frame).
pub(crate) fn hits_one_by_one<T, R>(items: &[T], one: impl Fn(&T) -> Result<Option<R>>) -> Result<Vec<R>> {
    let mut hits = Vec::with_capacity(room_for_hits(items.len()));
    for item in items {
        if let Some(hit) = one(item)? {
            hits.push(hit);
        }
    }
    LAST_HITS.with(|last| last.set(hits.len()));
    Ok(hits)
}

/// `one` of every item, on the rayon pool: the `Some` answers in the items' order, or the
/// error of the first item (in order) whose `one` fails. Once an item fails, items after it
/// are skipped; those before it still run, since one of them may fail too and come first.
#[cfg(feature = "parallel")]
pub(crate) fn hits_in_order<T: Sync, R: Send>(
    items: &[T],
    one: impl Fn(&T) -> Result<Option<R>> + Sync,
) -> Result<Vec<R>> {
    use rayon::prelude::*;
    use std::sync::atomic::{AtomicUsize, Ordering};
    let first_failed = AtomicUsize::new(usize::MAX);
    let kept: Vec<Result<R>> = items
        .par_iter()
        .enumerate()
        .filter_map(|(k, item)| {
            if k > first_failed.load(Ordering::Relaxed) {
                return None;
            }
            let got = one(item).transpose();
            if let Some(Err(_)) = got {
                first_failed.fetch_min(k, Ordering::Relaxed);
            }
            got
        })
        .collect();
    kept.into_iter().collect()
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Error;
    use crate::query::budget_tests::Rng;

    /// The hits and the first error are those of every item asked in order and collected,
    /// over random runs of hits, misses and failures; the room never passes the items.
    #[test]
    fn one_by_one_answers_as_a_plain_collect() {
        let mut rng = Rng(0x1a57_4175);
        for case in 0..3_000 {
            let n = rng.below(200) as usize;
            let items: Vec<u64> = (0..n).map(|_| rng.below(100)).collect();
            let fail_at = rng.below(10);
            let one = |&v: &u64| -> Result<Option<u64>> {
                match v {
                    _ if v < fail_at => Err(Error::OutOfRange {
                        what: format!("item {v}"),
                        value: v as f64,
                        range: "at least the case's limit",
                    }),
                    _ if v % 3 == 0 => Ok(Some(v * 7)),
                    _ => Ok(None),
                }
            };
            let want: Result<Vec<u64>> = items.iter().filter_map(|v| one(v).transpose()).collect();
            let got = hits_one_by_one(&items, one);
            match (got, want) {
                (Ok(got), Ok(want)) => {
                    assert_eq!(got, want, "case {case}");
                    assert!(got.capacity() <= n.max(got.len()), "case {case}");
                }
                (Err(got), Err(want)) => assert_eq!(got.to_string(), want.to_string(), "case {case}"),
                (got, want) => panic!("case {case}: {got:?} against {want:?}"),
            }
        }
    }
}
