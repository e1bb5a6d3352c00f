//! Content identities: a number naming one immutable path or bitmap for the life of the
//! process, never handed out twice.
//!
//! The raster cache keys what it derives from a path or a bitmap (flattened geometry, texel
//! tables, poses, whole rasters) by this number. An address would not do: once the content
//! is dropped, new content can be allocated at the same address and would inherit the old
//! content's entries (a stale answer after `set_graphics` or `set_bitmap`).

use std::sync::atomic::{AtomicU64, Ordering};

/// The identity of one piece of immutable content; clones of a handle share it.
#[derive(Clone, Copy)]
pub(crate) struct ContentId(u64);

impl ContentId {
    /// A number no other content has had or will have in this process (a u64 counter does
    /// not wrap: a billion a second would take 584 years).
    pub fn fresh() -> ContentId {
        static NEXT: AtomicU64 = AtomicU64::new(1);
        ContentId(NEXT.fetch_add(1, Ordering::Relaxed))
    }

    pub fn get(self) -> u64 {
        self.0
    }
}

/// Never part of the content's value: two graphics or bitmaps that draw the same are equal,
/// whichever handles they came from.
impl PartialEq for ContentId {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl Eq for ContentId {}

/// Not shown, like the rest of what is kept with content: a value's Debug text describes
/// what it draws (scene round trips compare it).
impl std::fmt::Debug for ContentId {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("ContentId")
    }
}

#[cfg(test)]
mod tests {
    use super::ContentId;

    #[test]
    fn ids_are_never_handed_out_twice() {
        let ids: Vec<u64> = (0..1000).map(|_| ContentId::fresh().get()).collect();
        let mut sorted = ids.clone();
        sorted.sort_unstable();
        sorted.dedup();
        assert_eq!(sorted.len(), ids.len());
    }
}
