//! The clips of a node's ancestors below a space, kept while the tree is unchanged.
//!
//! A motion query tests one target in many poses (issue 28, class 5: a bullet under 1,000
//! nested scroll windows, 500 px of travel, took 12.7 s). Only the target's own scroll
//! window moves with its pose; its ancestors' windows and masks, and the matrix of each
//! window to the space (a walk up the tree each, so depth squared per pose), are the same
//! in every pose. They are made once per (node, space) and tree revision, with the same
//! arithmetic as before, so the answers are the same to the bit.

use std::any::Any;
use std::collections::HashMap;
use std::sync::Mutex;

use crate::tree::node::NodeId;

/// Most (node, space) lists kept at once; past it the kept ones go (a frame's motion queries
/// ask for a few per mover).
const MAX_KEPT: usize = 4096;

/// What is kept: the lists of the tree at `revision` (the walk's `Option<Clips>`, `None`
/// where an ancestor is a mask; held as `Any` so that the tree's stage, which holds this,
/// need not know the walk's types).
#[derive(Default)]
struct Kept {
    revision: u64,
    lists: HashMap<(NodeId, NodeId), Box<dyn Any + Send + Sync>>,
}

/// The kept lists of a stage. A clone of a stage starts empty.
#[derive(Default)]
pub(crate) struct AncestorClips {
    kept: Mutex<Kept>,
    /// Lists made (not found kept): what the tests of motion queries count.
    #[cfg(test)]
    pub made: std::sync::atomic::AtomicUsize,
}

impl AncestorClips {
    /// The list kept for `(node, space)` in the tree at `revision`, or the one `make` gives,
    /// which is kept. An error is not kept.
    pub fn get_or_make<T: Clone + Any + Send + Sync>(
        &self,
        revision: u64,
        key: (NodeId, NodeId),
        make: impl FnOnce() -> crate::Result<T>,
    ) -> crate::Result<T> {
        {
            let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.revision == revision
                && let Some(list) = kept.lists.get(&key).and_then(|l| l.downcast_ref::<T>())
            {
                return Ok(list.clone());
            }
        }
        let list = make()?;
        #[cfg(test)]
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.revision != revision || kept.lists.len() >= MAX_KEPT {
            kept.lists.clear();
            kept.revision = revision;
        }
        kept.lists.insert(key, Box::new(list.clone()));
        Ok(list)
    }
}

impl Clone for AncestorClips {
    fn clone(&self) -> Self {
        AncestorClips::default()
    }
}

impl std::fmt::Debug for AncestorClips {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AncestorClips")
    }
}
