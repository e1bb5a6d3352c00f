//! Allocations a frame lets go of, kept for the next frame to fill: whole-mask buffers and
//! the `Arc`s of poses.
//!
//! A frame of turning sprites plans hundreds of whole masks (`raster::whole_mask`), each a
//! buffer of words behind an `Arc`, and drops them all when the query ends; and it makes a
//! new pose of every sprite, an `Arc` the cache keeps until an age drops it. The next
//! frame then allocated as many again (about 3,000 blocks a frame at 1,000 rocks, each
//! `malloc` slow on a heap that pygame's surfaces fragment). Kept here instead, a query's
//! masks are the buffers of the one before, and a new pose is written into the `Arc` of
//! one an age dropped. Nothing of what a spare held is ever read: a mask buffer is
//! cleared by [`BitMask::reset`](super::bitmask::BitMask::reset) before it is written, and
//! a pose is written whole.
//!
//! The cache counts the spares in its bytes while they wait (`RasterCache`); a list holds
//! at most the count and the bytes it was made with.

use std::sync::{Arc, Mutex};

/// Values alone behind their `Arc`s, waiting to be written over, each with the bytes it
/// was counted at.
pub(super) struct Spares<T> {
    list: Mutex<List<T>>,
    most: usize,
    most_bytes: usize,
}

struct List<T> {
    spares: Vec<(Arc<T>, usize)>,
    bytes: usize,
}

impl<T> Spares<T> {
    /// At most `most` spares and `most_bytes` bytes of them.
    pub fn new(most: usize, most_bytes: usize) -> Spares<T> {
        Spares {
            list: Mutex::new(List {
                spares: Vec::new(),
                bytes: 0,
            }),
            most,
            most_bytes,
        }
    }

    fn list(&self) -> std::sync::MutexGuard<'_, List<T>> {
        // Every update is one push or pop and a sum: a poisoned lock is still consistent.
        self.list.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// A spare, alone behind its `Arc`, and the bytes it was counted at.
    pub fn take(&self) -> Option<(Arc<T>, usize)> {
        let mut list = self.list();
        let (spare, bytes) = list.spares.pop()?;
        list.bytes -= bytes;
        Some((spare, bytes))
    }

    /// Keeps `spare` (which nothing else holds) weighing `bytes`, when there is room;
    /// `false` when it was not kept. The list keeps its length's high-water mark, so that
    /// in a steady frame giving back allocates nothing.
    pub fn give(&self, spare: Arc<T>, bytes: usize) -> bool {
        let mut list = self.list();
        if list.spares.len() >= self.most || list.bytes + bytes > self.most_bytes {
            return false;
        }
        list.bytes += bytes;
        list.spares.push((spare, bytes));
        true
    }

    /// Lets every spare go, returning the bytes they were counted at.
    pub fn clear(&self) -> usize {
        let mut list = self.list();
        let bytes = list.bytes;
        *list = List {
            spares: Vec::new(),
            bytes: 0,
        };
        bytes
    }

    /// How many spares wait.
    #[cfg(test)]
    pub fn len(&self) -> usize {
        self.list().spares.len()
    }

    /// The bytes they were counted at.
    #[cfg(test)]
    pub fn bytes(&self) -> usize {
        self.list().bytes
    }
}
