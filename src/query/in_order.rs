//! Pairs tested on several threads, answered as if one after another: the hits in the pairs'
//! order, and when some pairs fail, the error of the first failing pair in that order, so
//! that `parallel(true)` and `parallel(false)` give the same answer and the same error.

use crate::Result;

/// `one` of every item, on the rayon pool: the `Some` answers in the items' order, or the
/// error of the first item (in order) whose `one` fails. Once an item fails, items after it
/// are skipped; those before it still run, since one of them may fail too and come first.
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
