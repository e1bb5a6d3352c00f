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
use crate::geom::polygon::Polylines;
use crate::geom::rect::PixelRect;
use crate::raster::bitmask::BitMask;
use crate::{Bitmap, Path};

/// Bytes of cached data a stage keeps; past it the oldest entries go.
pub(crate) const CACHE_BYTES: usize = 128 << 20;
/// What every entry costs besides its data: the map slot, the key, the `Arc` header.
const ENTRY_BYTES: usize = 192;
/// Poses seen once are kept in two generations of at most this many: when the young one
/// is full, the old one is dropped and the young one becomes old. A game whose sprites
/// turn every frame makes only such poses; dropping them a generation at a time keeps every
/// map small (no table of a hundred thousand entries to rehash in one frame, which stalled
/// frames by 70 ms) and the work of a frame even.
const POSE_GENERATION: usize = 4096;

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
    /// Bytes of its masks, counted in the cache when made and given back with the raster.
    mask_bytes: AtomicUsize,
}

impl CachedRaster {
    pub fn new(rect: PixelRect, alpha: Vec<u8>, vertices: usize) -> CachedRaster {
        CachedRaster {
            rect,
            alpha,
            vertices,
            first_mask: OnceLock::new(),
            masks: Mutex::new(Vec::new()),
            mask_bytes: AtomicUsize::new(0),
        }
    }

    /// Everything it holds, masks included, with the cache's entry overhead.
    fn bytes(&self) -> usize {
        self.alpha.capacity() + ENTRY_BYTES + self.mask_bytes.load(Ordering::Relaxed)
    }

    /// The solid pixels at `threshold`, made once per threshold; a mask made now is counted
    /// in `cache`.
    pub fn mask(&self, threshold: u8, cache: &RasterCache) -> MaskRef<'_> {
        let (t, m) = self.first_mask.get_or_init(|| {
            let m = BitMask::from_plane(&self.alpha, self.rect, threshold);
            self.mask_bytes.fetch_add(m.bytes(), Ordering::Relaxed);
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
        self.mask_bytes
            .fetch_add(m.bytes() + ENTRY_BYTES, Ordering::Relaxed);
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

/// Which entry an eviction queue slot names.
#[derive(Clone, Copy, Debug)]
enum Entry {
    Raster(RasterKey),
    Local(LocalKey),
    Texels((usize, u64, u64)),
}

#[derive(Default)]
struct CacheState {
    rasters: FastMap<RasterKey, Arc<CachedRaster>>,
    /// Poses seen once, with the epoch of the query that saw them: the young generation
    /// and the old one ([`POSE_GENERATION`]), with their bytes.
    poses: [PoseGeneration; 2],
    local: FastMap<LocalKey, (Arc<Polylines>, Source)>,
    /// Transformed alpha of bitmaps, by (bitmap, alpha multiplier, alpha offset).
    texels: FastMap<(usize, u64, u64), (Arc<Texels>, Source)>,
    /// Entries in the order they came in: the oldest go first when room is needed, a few at
    /// a time, so that no single query pays for emptying the whole cache.
    order: std::collections::VecDeque<Entry>,
    bytes: usize,
}

/// Poses kept together, and dropped together.
#[derive(Default)]
struct PoseGeneration {
    poses: FastMap<RasterKey, (Arc<Shape>, Source, u64)>,
    bytes: usize,
}

impl CacheState {
    fn entries(&self) -> usize {
        self.rasters.len() + self.local.len() + self.texels.len()
    }

    /// Forgets the pose `key` wherever it is.
    fn forget_pose(&mut self, key: &RasterKey) {
        for generation in &mut self.poses {
            if let Some((shape, ..)) = generation.poses.remove(key) {
                let freed = shape.bytes() + ENTRY_BYTES;
                generation.bytes -= freed;
                self.bytes -= freed;
            }
        }
    }

    /// Drops the old generation of poses and makes the young one old.
    fn age_poses(&mut self) {
        let [young, old] = &mut self.poses;
        self.bytes -= old.bytes;
        *old = std::mem::take(young);
    }

    /// Removes one entry (if it is still there), giving its bytes back.
    fn evict(&mut self, entry: Entry) {
        let freed = match entry {
            Entry::Raster(k) => self.rasters.remove(&k).map(|r| r.bytes()),
            Entry::Local(k) => self
                .local
                .remove(&k)
                .map(|(p, _)| polylines_bytes(&p) + ENTRY_BYTES),
            Entry::Texels(k) => self.texels.remove(&k).map(|(t, _)| t.bytes() + ENTRY_BYTES),
        };
        self.bytes = self.bytes.saturating_sub(freed.unwrap_or(0));
    }

    /// Makes room for `bytes` more, oldest entries first, and counts them; `entry` joins
    /// the queue.
    /// Poses go first (a generation at a time: they are the cheapest to make again), then
    /// the other entries in the order they came. `entry` joins the queue.
    fn make_room(&mut self, bytes: usize, entry: Option<Entry>) {
        while self.bytes + bytes > CACHE_BYTES {
            if !self.poses[1].poses.is_empty() || !self.poses[0].poses.is_empty() {
                self.age_poses();
                continue;
            }
            match self.order.pop_front() {
                Some(old) => self.evict(old),
                None => break,
            }
        }
        // Slots whose entry was replaced (kept again under the same key) are not in the
        // maps any more; a few are skipped at each call, so that the queue stays in
        // proportion to the entries without a pass over all of it in one frame.
        for _ in 0..4 {
            if self.order.len() <= 2 * self.entries() + 64 {
                break;
            }
            if let Some(slot) = self.order.pop_front() {
                let live = match slot {
                    Entry::Raster(k) => self.rasters.contains_key(&k),
                    Entry::Local(k) => self.local.contains_key(&k),
                    Entry::Texels(k) => self.texels.contains_key(&k),
                };
                if live {
                    self.order.push_back(slot);
                }
            }
        }
        self.bytes += bytes;
        self.order.extend(entry);
    }
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
            s.poses[0].poses.len() + s.poses[1].poses.len(),
            s.bytes
        )
    }
}

fn polylines_bytes(p: &Polylines) -> usize {
    p.points.capacity() * std::mem::size_of::<glam::DVec2>()
        + p.contours.capacity() * std::mem::size_of::<crate::geom::polygon::Contour>()
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

    /// Counts bytes allocated outside the maps (masks made on demand).
    fn count(&self, bytes: usize) {
        self.lock().make_room(bytes, None);
    }

    /// Bytes held now, by this count (every entry's data and overhead).
    pub fn bytes(&self) -> usize {
        self.lock().bytes
    }

    pub fn raster(&self, key: &RasterKey) -> Option<Arc<CachedRaster>> {
        self.lock().rasters.get(key).cloned()
    }

    /// Keeps a whole raster, and forgets the pose it was drawn from.
    pub fn keep_raster(&self, key: RasterKey, raster: Arc<CachedRaster>) {
        let mut state = self.lock();
        state.forget_pose(&key);
        state.evict(Entry::Raster(key));
        state.make_room(raster.bytes(), Some(Entry::Raster(key)));
        state.rasters.insert(key, raster);
    }

    /// A pose seen before, and the epoch it was seen in.
    pub fn pose(&self, key: &RasterKey) -> Option<(Arc<Shape>, u64)> {
        let state = self.lock();
        let [young, old] = &state.poses;
        young
            .poses
            .get(key)
            .or_else(|| old.poses.get(key))
            .map(|(s, _, e)| (s.clone(), *e))
    }

    pub fn keep_pose(&self, key: RasterKey, shape: Arc<Shape>, source: Source, epoch: u64) {
        let mut state = self.lock();
        state.forget_pose(&key);
        if state.poses[0].poses.len() >= POSE_GENERATION {
            state.age_poses();
        }
        let bytes = shape.bytes() + ENTRY_BYTES;
        state.make_room(bytes, None);
        state.poses[0].bytes += bytes;
        state.poses[0].poses.insert(key, (shape, source, epoch));
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
        state.evict(Entry::Local(key));
        state.make_room(polylines_bytes(&p) + ENTRY_BYTES, Some(Entry::Local(key)));
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
        state.evict(Entry::Texels(key));
        state.make_room(t.bytes() + ENTRY_BYTES, Some(Entry::Texels(key)));
        state
            .texels
            .insert(key, (t.clone(), Source::Bitmap(bitmap.clone())));
        t
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FillRule;
    use crate::raster::edges::Edges;

    fn key(n: usize) -> RasterKey {
        RasterKey {
            source: n,
            kind: 0,
            extra: [0; 2],
            matrix: [0; 6],
            alpha: 255,
            anti_alias: true,
        }
    }

    fn shape(edges: usize) -> Arc<Shape> {
        let mut e = Edges::default();
        let pts: Vec<(i64, i64)> = (0..edges as i64).map(|i| (i, i * i % 97)).collect();
        e.push_closed(&pts);
        e.finish();
        Arc::new(Shape::Fill {
            edges: e,
            rule: FillRule::NonZero,
            alpha: 255,
        })
    }

    /// How many of the poses `0..n` the cache holds, checking that they are the newest.
    fn newest_poses_kept(cache: &RasterCache, n: usize) -> usize {
        let kept = (0..n)
            .rev()
            .take_while(|&i| cache.pose(&key(i)).is_some())
            .count();
        assert!(
            (0..n - kept).all(|i| cache.pose(&key(i)).is_none()),
            "an older pose outlived a newer one"
        );
        kept
    }

    #[test]
    fn the_cache_stays_within_its_bytes_and_drops_the_oldest_first() {
        let cache = RasterCache::default();
        let path = Arc::new(Path::rect(0.0, 0.0, 1.0, 1.0));
        let one = shape(1000);
        let per_entry = one.bytes() + ENTRY_BYTES;
        let n = 3 * CACHE_BYTES / per_entry;
        for i in 0..n {
            cache.keep_pose(key(i), one.clone(), Source::Path(path.clone()), 0);
            assert!(cache.bytes() <= CACHE_BYTES, "{} bytes after {i}", cache.bytes());
        }
        let kept = newest_poses_kept(&cache, n);
        assert_eq!(cache.bytes(), kept * per_entry);
        // At least half of what fits stays (a generation is dropped at a time).
        assert!(
            kept >= (CACHE_BYTES / per_entry / 2).min(POSE_GENERATION),
            "{kept} kept"
        );
        // A raster made from a pose replaces it, masks counted with it.
        let raster = Arc::new(CachedRaster::new(
            PixelRect {
                x0: 0,
                y0: 0,
                x1: 64,
                y1: 64,
            },
            vec![255; 4096],
            4,
        ));
        cache.keep_raster(key(n - 1), raster.clone());
        assert!(cache.pose(&key(n - 1)).is_none());
        let poses_left = newest_poses_kept(&cache, n - 1);
        let before = cache.bytes();
        assert_eq!(before, poses_left * per_entry + raster.bytes());
        let _ = raster.mask(1, &cache);
        let _ = raster.mask(7, &cache);
        assert!(cache.bytes() > before);
        let mut state = cache.lock();
        state.evict(Entry::Raster(key(n - 1)));
        assert_eq!(state.bytes, poses_left * per_entry);
    }

    #[test]
    fn poses_seen_once_are_dropped_a_generation_at_a_time() {
        let cache = RasterCache::default();
        let path = Arc::new(Path::rect(0.0, 0.0, 1.0, 1.0));
        let small = shape(4);
        let per_entry = small.bytes() + ENTRY_BYTES;
        let n = 5 * POSE_GENERATION + 17;
        let mut most = 0;
        for i in 0..n {
            cache.keep_pose(key(i), small.clone(), Source::Path(path.clone()), 0);
            let state = cache.lock();
            let held = state.poses[0].poses.len() + state.poses[1].poses.len();
            most = most.max(held);
            assert_eq!(state.bytes, held * per_entry);
        }
        // Small poses are bounded by their number, not only by bytes: no map grows past
        // two generations, whatever the limit in bytes would allow.
        assert_eq!(most, 2 * POSE_GENERATION);
        assert_eq!(newest_poses_kept(&cache, n), POSE_GENERATION + 17);
    }
}
