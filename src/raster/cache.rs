//! What a stage keeps between queries, each byte counted against one limit:
//!
//! - local geometry: a path flattened (or a stroke outlined) once per detail level, in its
//!   own space, so that a new pose only maps and snaps points;
//! - bitmap texel alphas, once per bitmap and colour transform;
//! - poses seen once: an item's snapped edges in a pose, kept so that a second query of
//!   the same pose can draw the whole item;
//! - whole item rasters with their bit masks, for poses used more than once (sprites that
//!   stand still or move by whole pixels), which is what the word-by-word fast path reads.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::item::Shape;
use super::sample::Texels;
use crate::bitmask::BitMask;
use crate::polygon::Polylines;
use crate::rect::PixelRect;
use crate::{Bitmap, Path};

/// Bytes of cached data a stage keeps before it starts over.
pub(crate) const CACHE_BYTES: usize = 128 << 20;
/// What every entry costs besides its data: the map slot, the key, the `Arc` header.
const ENTRY_BYTES: usize = 192;

/// What an item's pose depends on, besides the shared path or bitmap it was made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RasterKey {
    /// Address of the shared path or bitmap (kept alive by the cache entry).
    pub source: usize,
    /// Fill rule, or stroke, or bitmap sampling.
    pub kind: u8,
    /// Stroke width, or the bitmap's colour transform (alpha multiplier, offset), as bits.
    pub extra: [u64; 2],
    /// Linear part of the matrix and fractional translation, as bits.
    pub matrix: [u64; 6],
    pub alpha: u8,
    pub anti_alias: bool,
}

// Word by word: the derived hash would feed the arrays through `Hasher::write` as bytes.
impl std::hash::Hash for RasterKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.source as u64);
        state.write_u64(u64::from(self.kind) | u64::from(self.alpha) << 8 | u64::from(self.anti_alias) << 16);
        for v in self.extra.iter().chain(&self.matrix) {
            state.write_u64(*v);
        }
    }
}

/// Keeps a cached entry's source alive, so that its address cannot be reused by another
/// path or bitmap while the key holds it.
#[allow(dead_code)]
#[derive(Clone, Debug)]
pub(crate) enum Source {
    Path(Arc<Path>),
    Bitmap(Bitmap),
}

/// A whole item raster, relative to the item's anchor, with its bit masks.
#[derive(Debug)]
pub(crate) struct CachedRaster {
    pub rect: PixelRect,
    pub alpha: Vec<u8>,
    /// Vertices of the geometry it was drawn from (counted against a query's budget).
    pub vertices: usize,
    /// The mask at the first threshold asked for (nearly always the only one), readable
    /// without a lock.
    first_mask: OnceLock<(u8, BitMask)>,
    /// Masks at other thresholds.
    masks: Mutex<Vec<(u8, Arc<BitMask>)>>,
}

impl CachedRaster {
    pub fn new(rect: PixelRect, alpha: Vec<u8>, vertices: usize) -> CachedRaster {
        CachedRaster {
            rect,
            alpha,
            vertices,
            first_mask: OnceLock::new(),
            masks: Mutex::new(Vec::new()),
        }
    }

    /// The solid pixels at `threshold`, made once per threshold; a mask made now is counted
    /// in `cache`.
    pub fn mask(&self, threshold: u8, cache: &RasterCache) -> MaskRef<'_> {
        let (t, m) = self.first_mask.get_or_init(|| {
            let m = BitMask::from_plane(&self.alpha, self.rect, threshold);
            cache.count(m.bytes());
            (threshold, m)
        });
        if *t == threshold {
            return MaskRef::First(m);
        }
        let mut masks = self.masks.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, m)) = masks.iter().find(|(t, _)| *t == threshold) {
            return MaskRef::Other(m.clone());
        }
        let m = Arc::new(BitMask::from_plane(&self.alpha, self.rect, threshold));
        cache.count(m.bytes() + ENTRY_BYTES);
        masks.push((threshold, m.clone()));
        MaskRef::Other(m)
    }
}

/// A cached raster's mask, borrowed or shared.
pub(crate) enum MaskRef<'a> {
    First(&'a BitMask),
    Other(Arc<BitMask>),
}

impl std::ops::Deref for MaskRef<'_> {
    type Target = BitMask;
    fn deref(&self) -> &BitMask {
        match self {
            MaskRef::First(m) => m,
            MaskRef::Other(m) => m,
        }
    }
}

/// A fast hasher for the cache's keys (multiply and rotate, as rustc's FxHash does): keys
/// are made by this crate, not by an adversary, and SipHash cost more than the lookup.
#[derive(Default)]
struct KeyHasher(u64);

impl std::hash::Hasher for KeyHasher {
    fn finish(&self) -> u64 {
        self.0
    }
    fn write(&mut self, bytes: &[u8]) {
        for chunk in bytes.chunks(8) {
            let mut word = [0u8; 8];
            word[..chunk.len()].copy_from_slice(chunk);
            self.write_u64(u64::from_le_bytes(word));
        }
    }
    fn write_u64(&mut self, v: u64) {
        self.0 = (self.0.rotate_left(5) ^ v).wrapping_mul(0x51_7c_c1_b7_27_22_0a_95);
    }
    fn write_u8(&mut self, v: u8) {
        self.write_u64(u64::from(v));
    }
    fn write_usize(&mut self, v: usize) {
        self.write_u64(v as u64);
    }
}

type FastMap<K, V> = HashMap<K, V, std::hash::BuildHasherDefault<KeyHasher>>;

/// Local geometry's key: the path's address, fill rule or stroke, stroke width and the
/// flattening tolerance in local units, as bits.
pub(crate) type LocalKey = (usize, u8, u64, u64);

#[derive(Default)]
struct CacheState {
    rasters: FastMap<RasterKey, Arc<CachedRaster>>,
    /// Poses seen once, with the epoch of the query that saw them.
    poses: FastMap<RasterKey, (Arc<Shape>, Source, u64)>,
    local: FastMap<LocalKey, (Arc<Polylines>, Source)>,
    /// Transformed alpha of bitmaps, by (bitmap, alpha multiplier, alpha offset).
    texels: FastMap<(usize, u64, u64), (Arc<Texels>, Source)>,
    bytes: usize,
}

/// What a stage keeps between queries. Each stage has its own; a clone of a stage starts
/// with an empty one.
#[derive(Default)]
pub(crate) struct RasterCache {
    state: Mutex<CacheState>,
    /// Counts queries; one many-object query (a frame of `collisions`) is one epoch.
    epoch: AtomicU64,
    batches: AtomicUsize,
}

/// A running batch of queries ([`RasterCache::batch`]).
pub(crate) struct Batch<'a>(&'a RasterCache);

impl Drop for Batch<'_> {
    fn drop(&mut self) {
        self.0.batches.fetch_sub(1, Ordering::Relaxed);
    }
}

impl Clone for RasterCache {
    fn clone(&self) -> Self {
        RasterCache::default()
    }
}

impl std::fmt::Debug for RasterCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.lock();
        write!(
            f,
            "RasterCache({} rasters, {} poses, {} bytes)",
            s.rasters.len(),
            s.poses.len(),
            s.bytes
        )
    }
}

fn polylines_bytes(p: &Polylines) -> usize {
    p.points.capacity() * std::mem::size_of::<glam::DVec2>()
        + p.contours.capacity() * std::mem::size_of::<crate::polygon::Contour>()
}

impl RasterCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, CacheState> {
        // A panic while holding the lock cannot leave the maps inconsistent (every update
        // is a single insert), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops everything.
    pub fn clear(&self) {
        *self.lock() = CacheState::default();
    }

    fn make_room(state: &mut CacheState, bytes: usize) {
        if state.bytes + bytes > CACHE_BYTES {
            *state = CacheState::default();
        }
        state.bytes += bytes;
    }

    /// Counts bytes allocated outside the maps (masks made on demand).
    fn count(&self, bytes: usize) {
        let mut state = self.lock();
        Self::make_room(&mut state, bytes);
    }

    pub fn raster(&self, key: &RasterKey) -> Option<Arc<CachedRaster>> {
        self.lock().rasters.get(key).cloned()
    }

    /// Keeps a whole raster, and forgets the pose it was drawn from.
    pub fn keep_raster(&self, key: RasterKey, raster: Arc<CachedRaster>) {
        let mut state = self.lock();
        if let Some((shape, ..)) = state.poses.remove(&key) {
            state.bytes = state.bytes.saturating_sub(shape.bytes() + ENTRY_BYTES);
        }
        Self::make_room(&mut state, raster.alpha.capacity() + ENTRY_BYTES);
        state.rasters.insert(key, raster);
    }

    /// A pose seen before, and the epoch it was seen in.
    pub fn pose(&self, key: &RasterKey) -> Option<(Arc<Shape>, u64)> {
        self.lock().poses.get(key).map(|(s, _, e)| (s.clone(), *e))
    }

    pub fn keep_pose(&self, key: RasterKey, shape: Arc<Shape>, source: Source, epoch: u64) {
        let mut state = self.lock();
        Self::make_room(&mut state, shape.bytes() + ENTRY_BYTES);
        state.poses.insert(key, (shape, source, epoch));
    }

    /// The epoch of a query starting now: a new one, unless a batch is running.
    pub fn query_epoch(&self) -> u64 {
        if self.batches.load(Ordering::Relaxed) == 0 {
            self.epoch.fetch_add(1, Ordering::Relaxed) + 1
        } else {
            self.epoch.load(Ordering::Relaxed)
        }
    }

    /// Makes the queries until the guard is dropped one epoch: a pose used by several
    /// pairs of one frame is not drawn whole for that (it is drawn whole when a later
    /// frame uses it again).
    pub fn batch(&self) -> Batch<'_> {
        self.epoch.fetch_add(1, Ordering::Relaxed);
        self.batches.fetch_add(1, Ordering::Relaxed);
        Batch(self)
    }

    /// The local geometry under `key`, made by `make` on a miss (`None`: nothing to keep).
    pub fn local<E>(
        &self,
        key: LocalKey,
        source: impl FnOnce() -> Source,
        make: impl FnOnce() -> Result<Polylines, E>,
    ) -> Result<Arc<Polylines>, E> {
        if let Some((p, _)) = self.lock().local.get(&key) {
            return Ok(p.clone());
        }
        let p = Arc::new(make()?);
        let mut state = self.lock();
        Self::make_room(&mut state, polylines_bytes(&p) + ENTRY_BYTES);
        state.local.insert(key, (p.clone(), source()));
        Ok(p)
    }

    /// The bitmap's alpha after the colour transform's alpha part.
    pub fn texels(&self, bitmap: &Bitmap, ct: &crate::ColorTransform) -> Arc<Texels> {
        let key = (
            bitmap.id(),
            ct.alpha_multiplier.to_bits(),
            ct.alpha_offset.to_bits(),
        );
        if let Some((t, _)) = self.lock().texels.get(&key) {
            return t.clone();
        }
        let t = Arc::new(Texels::new(bitmap, ct));
        let mut state = self.lock();
        Self::make_room(&mut state, t.bytes() + ENTRY_BYTES);
        state
            .texels
            .insert(key, (t.clone(), Source::Bitmap(bitmap.clone())));
        t
    }
}
