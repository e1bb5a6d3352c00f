//! What a stage keeps between queries, each byte counted against one limit:
//!
//! - local geometry: a path flattened (or a stroke outlined) once per detail level, in its
//!   own space, so that a new pose only maps and snaps points;
//! - bitmap texel alphas and their run tables, once per bitmap and colour transform;
//! - poses seen once: an item's snapped edges in a pose, kept so that a second query of
//!   the same pose can draw the whole item;
//! - whole item rasters with their bit masks, for poses used more than once (sprites that
//!   stand still or move by whole pixels), which is what the word-by-word fast path reads;
//! - the answers of a many-object query's pairs, for the frame they were asked in.
//!
//! Which of them stay is [`RasterCache`]'s policy (frames, two generations); the cache is
//! split in shards, each behind its own lock, so that the pairs of a frame can run on every
//! core.

use std::collections::HashMap;
use std::sync::atomic::{AtomicU64, AtomicUsize, Ordering};
use std::sync::{Arc, Mutex, OnceLock};

use super::item::Shape;
use super::sample::Texels;
use super::spares::Spares;
use crate::Bitmap;
use crate::geom::path::Polylines;
use crate::geom::rect::PixelRect;
use crate::geom::renderer::PygameOp;
use crate::raster::bitmask::BitMask;

/// Bytes of cached data a stage keeps; past it what the current frame has not used goes.
pub(crate) const CACHE_BYTES: usize = 128 << 20;
/// What every entry costs besides its data: the map slot, the key, the `Arc` header.
const ENTRY_BYTES: usize = 192;
/// An `Arc`'s two counts, before its value.
const ARC_BYTES: usize = 16;

/// Spares kept ([`super::spares`]): more whole masks than a frame of 1,000 sprites makes
/// (about ten frames' bytes of them); and as many poses as an age drops, so that the
/// poses of turning sprites are written into the `Arc`s of those two ages before (at
/// most an age's intake of bytes, which the old generation held until then).
const SPARE_MASKS: usize = 4096;
const SPARE_MASK_BYTES: usize = 8 << 20;
const SPARE_POSES: usize = 1 << 17;
const SPARE_POSE_BYTES: usize = AGE_BYTES;

/// What an item's pose depends on, besides the shared path or bitmap it was made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct RasterKey {
    /// The path's or bitmap's content id (never reused: `geom::content_id`).
    pub source: u64,
    /// Fill rule, or stroke, or bitmap sampling, or 5 for a bitmap with a renderer.
    pub kind: u8,
    /// Stroke width, or the bitmap's colour transform (alpha multiplier, offset), as bits.
    pub extra: [u64; 2],
    /// Linear part of the matrix and fractional translation, as bits (for a bitmap with a
    /// renderer, whose matrix is the identity there, the renderer's parameters).
    pub matrix: [u64; 6],
    pub alpha: u8,
    pub anti_alias: bool,
}

// Word by word: the derived hash would feed the arrays through `Hasher::write` as bytes.
impl std::hash::Hash for RasterKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.source);
        state.write_u64(u64::from(self.kind) | u64::from(self.alpha) << 8 | u64::from(self.anti_alias) << 16);
        for v in self.extra.iter().chain(&self.matrix) {
            state.write_u64(*v);
        }
    }
}

/// A [`RasterKey`] with its hash worked out once. A new pose looks its key up and keeps
/// it in several maps (the rasters, then the poses, each in two generations, and the shard
/// for each call): hashed each time, the 80-byte key was hashed about nine times a pose;
/// now once, and a map hashes only the one word.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct HashedKey {
    hash: u64,
    key: RasterKey,
}

impl HashedKey {
    pub fn new(key: RasterKey) -> HashedKey {
        use std::hash::{BuildHasher, BuildHasherDefault};
        HashedKey {
            hash: BuildHasherDefault::<KeyHasher>::default().hash_one(key),
            key,
        }
    }
}

// The word worked out from the whole key: equal keys give equal words.
impl std::hash::Hash for HashedKey {
    fn hash<H: std::hash::Hasher>(&self, state: &mut H) {
        state.write_u64(self.hash);
    }
}

/// A whole item raster, relative to the item's anchor, with its bit masks.
#[derive(Debug)]
pub(crate) struct CachedRaster {
    pub rect: PixelRect,
    pub alpha: Vec<u8>,
    /// The pose it was drawn from: a query compares a raster item along the same paths as
    /// the pose (its spans and row hulls come from the edges), reading the raster's values
    /// instead of computing them, so that a raster never costs more work than its pose
    /// (`query::pipeline`, the work budget). Its vertices count against a query's budget.
    pub shape: Arc<Shape>,
    /// The mask at the first threshold asked for (nearly always the only one), readable
    /// without a lock.
    first_mask: OnceLock<(u8, BitMask)>,
    /// Masks at other thresholds.
    masks: Mutex<Vec<(u8, Arc<BitMask>)>>,
    /// Bytes of its masks, counted in the cache when made and given back with the raster.
    mask_bytes: AtomicUsize,
    /// Whether the cache holds it: a mask made after it left is not counted (nothing
    /// would give its bytes back).
    cached: std::sync::atomic::AtomicBool,
}

impl CachedRaster {
    pub fn new(rect: PixelRect, alpha: Vec<u8>, shape: Arc<Shape>) -> CachedRaster {
        CachedRaster {
            rect,
            alpha,
            shape,
            first_mask: OnceLock::new(),
            masks: Mutex::new(Vec::new()),
            mask_bytes: AtomicUsize::new(0),
            cached: std::sync::atomic::AtomicBool::new(false),
        }
    }

    /// Whether the cache holds it (and counts its bytes) now.
    pub fn is_cached(&self) -> bool {
        self.cached.load(Ordering::Relaxed)
    }

    /// Calls `add(x0, x1)` for each run of the columns `x0..x1` of row `j` (relative to the
    /// anchor) whose value reaches `threshold` (at least 1): what its pose's rows give there,
    /// read instead of computed.
    pub fn solid_runs(&self, j: i64, (x0, x1): (i64, i64), threshold: u8, mut add: impl FnMut(i64, i64)) {
        let r = self.rect;
        let (c0, c1) = (x0.max(r.x0), x1.min(r.x1));
        if j < r.y0 || j >= r.y1 || c0 >= c1 {
            return;
        }
        let w = r.width() as usize;
        let row = &self.alpha[(j - r.y0) as usize * w..][..w];
        let solid = |x: i64| row[(x - r.x0) as usize] >= threshold.max(1);
        let mut x = c0;
        while x < c1 {
            if !solid(x) {
                x += 1;
                continue;
            }
            let start = x;
            while x < c1 && solid(x) {
                x += 1;
            }
            add(start, x);
        }
    }

    /// Computes the pixels of `region` (relative to the anchor) again from `shape`, the
    /// pose it now stands for, and the words of its masks over them; returns the pixels
    /// computed. For an edit of its bitmap whose pixels fall in `region` (the rest are the
    /// same in the new pose as in the old, `raster::bitmap_patch`).
    pub(super) fn patch(&mut self, region: PixelRect, shape: Arc<Shape>, anti_alias: bool) -> u64 {
        let r = region.intersect(&self.rect);
        self.shape = shape;
        if r.is_empty() {
            return 0;
        }
        let w = self.rect.width() as usize;
        let (rect, alpha) = (self.rect, &mut self.alpha);
        let mut scratch = super::item::Scratch::default();
        self.shape.rows(r, anti_alias, &mut scratch, |j, values| {
            let start = (j - rect.y0) as usize * w + (r.x0 - rect.x0) as usize;
            alpha[start..start + values.len()].copy_from_slice(values);
        });
        if let Some((t, m)) = self.first_mask.get_mut() {
            m.patch(&self.alpha, r, *t);
        }
        let masks = self.masks.get_mut().unwrap_or_else(|e| e.into_inner());
        for (t, m) in masks.iter_mut() {
            Arc::make_mut(m).patch(&self.alpha, r, *t);
        }
        r.area() as u64
    }

    /// Everything it holds, masks included, with the cache's entry overhead.
    fn bytes(&self) -> usize {
        self.alpha.capacity() + self.shape.bytes() + ENTRY_BYTES + self.mask_bytes.load(Ordering::SeqCst)
    }

    /// Counts a mask's bytes with the raster, and in `cache` while it holds the raster.
    fn count_mask(&self, bytes: usize, cache: &RasterCache) {
        self.mask_bytes.fetch_add(bytes, Ordering::SeqCst);
        if self.cached.load(Ordering::SeqCst) {
            cache.count(bytes);
            cache.shed();
        }
    }

    /// The solid pixels at `threshold`, made once per threshold; a mask made now is counted
    /// in `cache`.
    pub fn mask(&self, threshold: u8, cache: &RasterCache) -> MaskRef<'_> {
        let (t, m) = self.first_mask.get_or_init(|| {
            let m = BitMask::from_plane(&self.alpha, self.rect, threshold);
            self.count_mask(m.bytes(), cache);
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
        self.count_mask(m.bytes() + ENTRY_BYTES, cache);
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

/// Local geometry's key: the path's content id, fill rule or stroke, stroke width and the
/// flattening tolerance in local units, as bits.
pub(crate) type LocalKey = (u64, u8, u64, u64);

/// Texels' key: the bitmap's content id, its colour transform's alpha multiplier and
/// offset, as bits.
pub(super) type TexelKey = (u64, u64, u64);

/// The colour-transform part of the key of [`RasterCache::rendered_texels`]' tables for
/// `op`: NaN's bits, which no finite colour transform (all that reach the cache) has, one
/// for each renderer (each keeps only the tables its kernel reads).
pub(super) fn rendered_key(op: PygameOp) -> (u64, u64) {
    match op {
        PygameOp::Rotozoom => (u64::MAX, u64::MAX),
        PygameOp::Rotate => (u64::MAX, u64::MAX - 1),
    }
}

/// The renderer whose source a texel key's colour-transform part names
/// ([`rendered_key`]), `None` for a colour transform's.
pub(super) fn rendered_op(key: (u64, u64)) -> Option<PygameOp> {
    [PygameOp::Rotate, PygameOp::Rotozoom]
        .into_iter()
        .find(|&op| rendered_key(op) == key)
}

/// A pair query's key, made by the many-object queries: the two targets and the parent (by
/// index, which names one node while the tree is unchanged) and the options that can change
/// the answer, as bits. Answers are kept only for the frame (tree revision) they were made
/// in.
pub(crate) type PairKey = [u64; 4];

/// A pair's key: the node indices of its targets `a` and `b` and of `parent`, and the bits
/// of the options that can change the answer.
pub(crate) fn pair_key(a: u32, b: u32, parent: u32, options: [u64; 2]) -> PairKey {
    [
        u64::from(a) | u64::from(b) << 32,
        u64::from(parent),
        options[0],
        options[1],
    ]
}

/// The node indices of a pair's two targets ([`pair_key`]).
fn pair_targets(key: &PairKey) -> [u32; 2] {
    [key[0] as u32, (key[0] >> 32) as u32]
}

/// A pair query's answer: the overlap rectangle and the count of pixels solid in both.
pub(crate) type PairAnswer = (Option<crate::Rect>, Option<u64>);

/// A pair's setup kept for asking it again after a move (`query::kept_pair`, which alone
/// knows its type), and its weight. Whatever it holds of the cache (whole rasters) is
/// counted there while the cache holds it; when rasters go, every kept setup goes.
type KeptSetup = (Arc<dyn std::any::Any + Send + Sync>, usize);

/// Shards of the cache, each behind its own lock: the pairs of a frame run on several
/// threads and look entries up at once, and with one lock they took turns (a frame of 1,000
/// turning sprites ran no faster on two threads than on one).
const SHARDS: usize = 16;

/// Ages that shared geometry and texels stay after their last use: they do not depend on
/// poses and cost more to make again than a pose.
const SOURCE_FRAMES: u64 = 64;

/// Bytes the cache takes in between two ages of its generations (16 MiB): a new frame ages
/// them only once this much has come in since the last age. Aging by what comes in, not
/// by the tree's revisions, keeps a loop that changes the tree before each query (update a
/// sprite, ask about it, update the next) from dropping what every other sprite uses: a
/// still scene never ages, a turning crowd ages every few frames.
pub(crate) const AGE_BYTES: usize = 16 << 20;

/// What an entry costs, counted against [`CACHE_BYTES`]: its own bytes, and the texels it
/// shares with other entries, counted once while any entry holds them (a pose or a raster
/// of a bitmap keeps its texels alive after their own entry has gone, so they must count).
trait Weighed {
    /// Bytes of its own.
    fn weight(&self) -> usize;
    /// Shared bytes it holds that no entry holds now: what keeping it may add besides its
    /// own bytes.
    fn shared_if_unheld(&self) -> usize {
        0
    }
    /// Called when the entry enters the cache: the shared bytes that are counted now.
    fn joins(&self) -> usize {
        0
    }
    /// Called when the entry leaves the cache: the shared bytes that no entry holds now.
    fn leaves(&self) -> usize {
        0
    }
}

fn texels_held(shape: &Shape) -> usize {
    shape.shared_texels().map_or(0, Texels::held_by_entry)
}

fn texels_let_go(shape: &Shape) -> usize {
    shape.shared_texels().map_or(0, Texels::let_go_by_entry)
}

fn texels_if_unheld(shape: &Shape) -> usize {
    shape.shared_texels().map_or(0, Texels::bytes_if_unheld)
}

impl Weighed for Arc<CachedRaster> {
    fn weight(&self) -> usize {
        self.bytes()
    }
    fn shared_if_unheld(&self) -> usize {
        texels_if_unheld(&self.shape)
    }
    fn joins(&self) -> usize {
        self.cached.store(true, Ordering::SeqCst);
        texels_held(&self.shape)
    }
    fn leaves(&self) -> usize {
        self.cached.store(false, Ordering::SeqCst);
        texels_let_go(&self.shape)
    }
}

/// The bytes given back by entries leaving the cache.
fn weigh_leaving<'a, V: Weighed + 'a>(values: impl Iterator<Item = &'a V>) -> usize {
    values.map(|v| v.leaves() + v.weight()).sum()
}

impl Weighed for PoseEntry {
    fn weight(&self) -> usize {
        self.0.bytes() + ENTRY_BYTES
    }
    fn shared_if_unheld(&self) -> usize {
        texels_if_unheld(&self.0)
    }
    fn joins(&self) -> usize {
        texels_held(&self.0)
    }
    fn leaves(&self) -> usize {
        texels_let_go(&self.0)
    }
}

impl Weighed for LocalEntry {
    fn weight(&self) -> usize {
        polylines_bytes(self) + ENTRY_BYTES
    }
}

impl Weighed for TexelEntry {
    fn weight(&self) -> usize {
        ENTRY_BYTES
    }
    fn shared_if_unheld(&self) -> usize {
        self.bytes_if_unheld()
    }
    fn joins(&self) -> usize {
        self.held_by_entry()
    }
    fn leaves(&self) -> usize {
        self.let_go_by_entry()
    }
}

/// How a frame is told apart: its tree revision plus one (0 stands for none yet).
fn frame_tag(revision: u64) -> u64 {
    revision.wrapping_add(1).max(1)
}

/// A pair's answer and the frame (tree revision, plus one) it was asked in: an answer of an
/// earlier frame is not read, and is replaced by the next one kept, so a new frame has
/// nothing to clear.
type KeptPair = (u64, PairAnswer);

impl Weighed for KeptPair {
    fn weight(&self) -> usize {
        std::mem::size_of::<(PairKey, KeptPair)>() + 16
    }
}

/// Entries of one kind in two generations: those used since the last [`Generations::age`]
/// (young) and those used only before it (old). A use moves an old entry to the young
/// generation; aging drops the old one. So what was used in the current or the previous
/// period stays, and what was not is dropped a generation at a time, never one by one.
struct Generations<K, V> {
    young: FastMap<K, V>,
    old: FastMap<K, V>,
}

impl<K, V> Default for Generations<K, V> {
    fn default() -> Self {
        Generations {
            young: FastMap::default(),
            old: FastMap::default(),
        }
    }
}

impl<K: std::hash::Hash + Eq + Copy, V: Clone + Weighed> Generations<K, V> {
    fn get(&mut self, key: &K) -> Option<V> {
        if let Some(v) = self.young.get(key) {
            return Some(v.clone());
        }
        let v = self.old.remove(key)?;
        self.young.insert(*key, v.clone());
        Some(v)
    }

    /// Keeps `value`, returning the weight of what it replaced.
    fn insert(&mut self, key: K, value: V) -> usize {
        let old = self.old.remove(&key);
        let young = self.young.insert(key, value);
        weigh_leaving(old.iter().chain(&young))
    }

    fn remove(&mut self, key: &K) -> usize {
        let (young, old) = (self.young.remove(key), self.old.remove(key));
        weigh_leaving(young.iter().chain(&old))
    }

    /// Makes the young generation old, returning the old one (to be dropped outside the
    /// lock) and its weight.
    fn age(&mut self) -> (FastMap<K, V>, usize) {
        let dropped = std::mem::replace(&mut self.old, std::mem::take(&mut self.young));
        let weight = weigh_leaving(dropped.values());
        (dropped, weight)
    }

    /// Takes out every entry whose key `pick` accepts, with its key as `into` makes it,
    /// returning their weight.
    fn take_where<O>(
        &mut self,
        pick: impl Fn(&K) -> bool,
        into: impl Fn(K) -> O,
        out: &mut Vec<(O, V)>,
    ) -> usize {
        let first = out.len();
        for map in [&mut self.young, &mut self.old] {
            out.extend(map.extract_if(|k, _| pick(k)).map(|(k, v)| (into(k), v)));
        }
        weigh_leaving(out[first..].iter().map(|(_, v)| v))
    }

    /// Drops the old generation, returning it and its weight.
    fn drop_old(&mut self) -> (FastMap<K, V>, usize) {
        let dropped = std::mem::take(&mut self.old);
        let weight = weigh_leaving(dropped.values());
        (dropped, weight)
    }

    fn len(&self) -> usize {
        self.young.len() + self.old.len()
    }
}

/// A pose seen, and the epoch that saw it.
pub(super) type PoseEntry = (Arc<Shape>, u64);
type LocalEntry = Arc<Polylines>;
pub(super) type TexelEntry = Arc<Texels>;

/// What a cache kept of one bitmap, taken out of it to be made again for its edited pixels.
#[derive(Default)]
pub(super) struct TakenBitmap {
    pub texels: Vec<(TexelKey, TexelEntry)>,
    pub poses: Vec<(RasterKey, PoseEntry)>,
    pub rasters: Vec<(RasterKey, Arc<CachedRaster>)>,
}

/// One shard of the cache.
#[derive(Default)]
struct Shard {
    rasters: Generations<HashedKey, Arc<CachedRaster>>,
    /// Poses seen, with the epoch of the query that saw them.
    poses: Generations<HashedKey, PoseEntry>,
    local: Generations<LocalKey, LocalEntry>,
    /// Transformed alpha of bitmaps, by (bitmap, alpha multiplier, alpha offset).
    texels: Generations<TexelKey, TexelEntry>,
    /// Pair answers of the current frame only.
    pairs: FastMap<PairKey, KeptPair>,
}

/// What a shard drops, kept until its lock is let go.
#[derive(Default)]
struct Dropped {
    rasters: Option<FastMap<HashedKey, Arc<CachedRaster>>>,
    poses: Option<FastMap<HashedKey, PoseEntry>>,
    sources: Option<(FastMap<LocalKey, LocalEntry>, FastMap<TexelKey, TexelEntry>)>,
}

impl Shard {
    /// A new frame: pose-dependent entries of the frame before the last are dropped, pair
    /// answers of the last frame too (in place: their map keeps its room), and shared
    /// sources every [`SOURCE_FRAMES`] frames.
    fn new_frame(&mut self, frame: u64, out: &mut Dropped) -> usize {
        let (r, wr) = self.rasters.age();
        let (p, wp) = self.poses.age();
        let wq = weigh_leaving(self.pairs.values());
        self.pairs.clear();
        out.rasters = Some(r);
        out.poses = Some(p);
        let mut freed = wr + wp + wq;
        if frame.is_multiple_of(SOURCE_FRAMES) {
            let (l, wl) = self.local.age();
            let (t, wt) = self.texels.age();
            out.sources = Some((l, t));
            freed += wl + wt;
        }
        freed
    }

    /// Takes back the maps of `dropped`, emptied outside the lock, as the young
    /// generations (when those are still empty): a turning crowd fills a young generation
    /// again every age, and the room of the one it dropped saves the map's growing.
    fn reuse_maps(&mut self, dropped: &mut Dropped) {
        fn reuse<K, V>(young: &mut FastMap<K, V>, emptied: Option<&mut FastMap<K, V>>) {
            if let Some(map) = emptied
                && map.is_empty()
                && young.is_empty()
                && map.capacity() > young.capacity()
            {
                std::mem::swap(young, map);
            }
        }
        reuse(&mut self.poses.young, dropped.poses.as_mut());
        reuse(&mut self.rasters.young, dropped.rasters.as_mut());
    }

    /// Every entry leaves (the shard is being dropped whole).
    fn leave_all(&self) {
        fn each<K, V: Weighed>(g: &Generations<K, V>) {
            for v in g.young.values().chain(g.old.values()) {
                v.leaves();
            }
        }
        each(&self.rasters);
        each(&self.poses);
        each(&self.local);
        each(&self.texels);
    }

    /// Makes room by dropping what was last used before the current frame.
    fn drop_old(&mut self, out: &mut Dropped) -> usize {
        let (r, wr) = self.rasters.drop_old();
        let (p, wp) = self.poses.drop_old();
        let (l, wl) = self.local.drop_old();
        let (t, wt) = self.texels.drop_old();
        out.rasters = Some(r);
        out.poses = Some(p);
        out.sources = Some((l, t));
        wr + wp + wl + wt
    }
}

/// What a stage keeps between queries. Each stage has its own; a clone of a stage starts
/// with an empty one.
///
/// The policy: a *frame* is everything asked while the tree is unchanged (a game moves its
/// sprites, then asks its queries). Entries live in two generations, the current *age*
/// and the one before; an entry used is in the current one. A frame that starts after at
/// least [`AGE_BYTES`] came into the cache starts a new age: what neither the current nor
/// the previous age used is dropped (shared geometry and texels after [`SOURCE_FRAMES`]
/// ages). So what a game keeps using stays, however often the tree changes between
/// queries, and the poses of turning sprites go within two ages. Every byte is counted
/// against [`CACHE_BYTES`]; past it, what the current age has not used goes, and then
/// nothing new is kept until the next age. Pair answers are kept for their frame only, so
/// that asking again before the tree changes costs lookups.
pub(crate) struct RasterCache {
    shards: Vec<Mutex<Shard>>,
    bytes: AtomicUsize,
    /// The tree revision of the current frame, plus one (0: none yet).
    revision: AtomicU64,
    /// Ages of the generations so far.
    frame: AtomicU64,
    /// Bytes taken in since the last age, and how many make an age ([`AGE_BYTES`]).
    taken: AtomicUsize,
    age_bytes: AtomicUsize,
    /// Taken only to start a frame.
    frame_lock: Mutex<()>,
    /// The frame of the last pair answer kept: in a frame that has kept none (the first
    /// many-object query after the tree changed) a lookup needs no lock.
    pairs_frame: AtomicU64,
    /// Pair setups kept for asking again after a move, by pair key, in shards as the
    /// answers are (threads asking pairs at once do not take turns). Locked after a
    /// shard's lock (when rasters go, the setups holding them go too), never before one.
    kept: Vec<Mutex<FastMap<PairKey, KeptSetup>>>,
    /// Counts queries, for [`RasterCache::query_epoch`].
    epoch: AtomicU64,
    batches: AtomicUsize,
    /// Whole-mask buffers of the last many-object query, for the next one, and poses
    /// an age dropped, to be written over by new ones (both counted in `bytes` while they
    /// wait: `raster::spares`).
    spare_masks: Spares<BitMask>,
    /// Pose `Arc`s without, then with, an edge vector's room (a fill's).
    spare_poses: [Spares<Shape>; 2],
    /// What the tests of the policy count: poses and rasters made, pair answers found.
    #[cfg(test)]
    made: [AtomicUsize; 3],
    /// Spare mask buffers and pose `Arc`s taken.
    #[cfg(test)]
    reused: [AtomicUsize; 2],
}

impl Default for RasterCache {
    fn default() -> Self {
        RasterCache {
            shards: (0..SHARDS).map(|_| Mutex::default()).collect(),
            bytes: AtomicUsize::new(0),
            revision: AtomicU64::new(0),
            frame: AtomicU64::new(0),
            taken: AtomicUsize::new(0),
            age_bytes: AtomicUsize::new(AGE_BYTES),
            frame_lock: Mutex::new(()),
            pairs_frame: AtomicU64::new(0),
            kept: (0..SHARDS).map(|_| Mutex::default()).collect(),
            epoch: AtomicU64::new(0),
            batches: AtomicUsize::new(0),
            spare_masks: Spares::new(SPARE_MASKS, SPARE_MASK_BYTES),
            spare_poses: [(); 2].map(|()| Spares::new(SPARE_POSES, SPARE_POSE_BYTES)),
            #[cfg(test)]
            made: Default::default(),
            #[cfg(test)]
            reused: Default::default(),
        }
    }
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

#[cfg(test)]
thread_local! {
    /// Pair answers looked up in a frame that keeps some, on this thread.
    pub(crate) static PAIR_LOOKUPS: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many entries of each kind a cache holds: what the tests of its policy count.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct CacheCounts {
    pub rasters: usize,
    pub poses: usize,
    pub local: usize,
    pub texels: usize,
    pub pairs: usize,
    pub bytes: usize,
}

impl std::fmt::Debug for RasterCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let c = self.counts();
        write!(
            f,
            "RasterCache({} rasters, {} poses, {} pairs, {} bytes)",
            c.rasters, c.poses, c.pairs, c.bytes
        )
    }
}

fn polylines_bytes(p: &Polylines) -> usize {
    p.points.capacity() * std::mem::size_of::<glam::DVec2>()
        + p.contours.capacity() * std::mem::size_of::<crate::geom::path::Contour>()
}

fn shard_of(key: &impl std::hash::Hash) -> usize {
    use std::hash::{BuildHasher, BuildHasherDefault};
    let h = BuildHasherDefault::<KeyHasher>::default().hash_one(key);
    // Middle bits: the maps inside a shard use the low ones and the top seven.
    (h >> 40) as usize % SHARDS
}

impl RasterCache {
    fn shard(&self, i: usize) -> std::sync::MutexGuard<'_, Shard> {
        // A panic while holding the lock cannot leave the maps inconsistent (every update
        // is a single insert or remove), so a poisoned lock is still usable.
        self.shards[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    fn shard_for(&self, key: &impl std::hash::Hash) -> std::sync::MutexGuard<'_, Shard> {
        self.shard(shard_of(key))
    }

    /// Drops everything (each entry leaves, so that texels still held elsewhere are not
    /// taken for counted).
    pub fn clear(&self) {
        for i in 0..SHARDS {
            let old = std::mem::take(&mut *self.shard(i));
            old.leave_all();
        }
        self.drop_setups();
        self.spare_masks.clear();
        for list in &self.spare_poses {
            list.clear();
        }
        self.bytes.store(0, Ordering::Relaxed);
    }

    /// A buffer for a whole mask ([`super::whole_mask`]): one a query gave back
    /// ([`RasterCache::give_back_mask`]) when there is one, else a new one. Its words are
    /// for [`BitMask::reset`] to clear.
    pub fn spare_mask(&self) -> Arc<BitMask> {
        match self.spare_masks.take() {
            Some((mask, bytes)) => {
                self.release(bytes);
                #[cfg(test)]
                self.reused[0].fetch_add(1, Ordering::Relaxed);
                mask
            }
            None => Arc::new(BitMask::empty()),
        }
    }

    /// Keeps a whole mask's buffer for the next query when nothing else holds it and the
    /// cache has room for its bytes.
    pub fn give_back_mask(&self, mut mask: Arc<BitMask>) {
        let Some(m) = Arc::get_mut(&mut mask) else {
            return;
        };
        let bytes = m.bytes() + std::mem::size_of::<BitMask>() + ARC_BYTES;
        self.keep_spare(&self.spare_masks, mask, bytes);
    }

    /// The `Arc` of a pose an age dropped ([`RasterCache::give_back_poses`]), for a new
    /// pose to be written into ([`RasterCache::new_pose`]): for a fill (`fill`), one of a
    /// fill first, which keeps its emptied edge vector ([`Shape::take_room`]); for
    /// anything else, one without first.
    pub fn spare_pose(&self, fill: bool) -> Option<Arc<Shape>> {
        let [first, then] = match fill {
            true => [&self.spare_poses[1], &self.spare_poses[0]],
            false => [&self.spare_poses[0], &self.spare_poses[1]],
        };
        let (spare, bytes) = first.take().or_else(|| then.take())?;
        self.release(bytes);
        Some(spare)
    }

    /// `shape` behind an `Arc`: `spare` ([`RasterCache::spare_pose`]) written over when
    /// nothing else holds it, else a new one.
    pub fn new_pose(&self, shape: Shape, spare: Option<Arc<Shape>>) -> Arc<Shape> {
        if let Some(mut spare) = spare
            && let Some(s) = Arc::get_mut(&mut spare)
        {
            *s = shape;
            #[cfg(test)]
            self.reused[1].fetch_add(1, Ordering::Relaxed);
            return spare;
        }
        Arc::new(shape)
    }

    /// Keeps the `Arc`s of dropped poses that nothing else holds, emptied (their texels
    /// let go), for new poses to be written into; empties the dropped maps.
    fn give_back_poses(&self, dropped: &mut Dropped) {
        for (_, (mut shape, _)) in dropped.poses.iter_mut().flat_map(|map| map.drain()) {
            let Some(s) = Arc::get_mut(&mut shape) else {
                continue;
            };
            s.make_spare();
            let bytes = s.bytes() + ARC_BYTES;
            let with_room = bytes > std::mem::size_of::<Shape>() + ARC_BYTES;
            self.keep_spare(&self.spare_poses[usize::from(with_room)], shape, bytes);
        }
        if let Some(rasters) = &mut dropped.rasters {
            rasters.clear();
        }
    }

    /// Keeps a spare in `list` when the cache has room for its bytes, counting them (not
    /// as taken in: a spare is not new to the cache and does not bring an age nearer).
    fn keep_spare<T>(&self, list: &Spares<T>, spare: Arc<T>, bytes: usize) -> bool {
        if self.bytes() + bytes > CACHE_BYTES || !list.give(spare, bytes) {
            return false;
        }
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        true
    }

    /// How many mask buffers and pose `Arc`s wait, and how many of each were taken so far
    /// (tests).
    #[cfg(test)]
    pub fn spares(&self) -> [usize; 4] {
        [
            self.spare_masks.len(),
            self.spare_poses.iter().map(Spares::len).sum(),
            self.reused[0].load(Ordering::Relaxed),
            self.reused[1].load(Ordering::Relaxed),
        ]
    }

    /// Counts bytes allocated outside the maps (masks made on demand).
    fn count(&self, bytes: usize) {
        self.bytes.fetch_add(bytes, Ordering::Relaxed);
        self.taken.fetch_add(bytes, Ordering::Relaxed);
    }

    /// Makes an age of `bytes` taken in instead of [`AGE_BYTES`] (tests of the policy).
    #[cfg(test)]
    pub fn set_age_bytes(&self, bytes: usize) {
        self.age_bytes.store(bytes, Ordering::Relaxed);
    }

    fn release(&self, bytes: usize) {
        // Saturating: entries are weighed again when dropped, and a mask counted while
        // the raster was out of the cache is given back with it.
        let _ = self
            .bytes
            .fetch_update(Ordering::Relaxed, Ordering::Relaxed, |b| {
                Some(b.saturating_sub(bytes))
            });
    }

    /// Bytes held now, by this count (every entry's data and overhead).
    pub fn bytes(&self) -> usize {
        self.bytes.load(Ordering::Relaxed)
    }

    /// Entries held now, of each kind.
    pub fn counts(&self) -> CacheCounts {
        let mut c = CacheCounts {
            bytes: self.bytes(),
            ..CacheCounts::default()
        };
        for i in 0..SHARDS {
            let s = self.shard(i);
            c.rasters += s.rasters.len();
            c.poses += s.poses.len();
            c.local += s.local.len();
            c.texels += s.texels.len();
            c.pairs += s.pairs.len();
        }
        c
    }

    /// Whether `weight` more bytes may be kept in `shard`: when the limit is reached, the
    /// shard first drops what the current frame has not used, into `dropped` (let go after
    /// the lock), which is made only then: an empty one still costs its four vectors'
    /// drops, and nearly every entry is kept with room to spare.
    fn room(&self, shard: &mut Shard, weight: usize, dropped: &mut Option<Dropped>) -> bool {
        if self.bytes() + weight <= CACHE_BYTES {
            return true;
        }
        let freed = shard.drop_old(dropped.get_or_insert_default());
        self.release(freed);
        self.drop_setups();
        self.bytes() + weight <= CACHE_BYTES
    }

    /// Past the limit (a mask is counted after its raster was kept), drops what the current
    /// age has not used, shard by shard, until the count is within it again: only masks of
    /// rasters the current age uses can keep it past the limit.
    fn shed(&self) {
        for i in 0..SHARDS {
            if self.bytes() <= CACHE_BYTES {
                return;
            }
            let mut dropped = Dropped::default();
            let freed = self.shard(i).drop_old(&mut dropped);
            self.release(freed);
            drop(dropped);
            self.drop_setups();
        }
    }

    /// Keeps `value` under `key` in the generations `pick` chooses, if there is room.
    fn keep<K, V>(&self, key: K, value: V, pick: impl FnOnce(&mut Shard) -> &mut Generations<K, V>)
    where
        K: std::hash::Hash + Eq + Copy,
        V: Clone + Weighed,
    {
        self.keep_as(key, value, pick, true);
    }

    /// [`RasterCache::keep`]; `taken_in` is false for an entry kept again under a new key
    /// (an edited bitmap's), which is not new to the cache and does not bring an age nearer.
    fn keep_as<K, V>(
        &self,
        key: K,
        value: V,
        pick: impl FnOnce(&mut Shard) -> &mut Generations<K, V>,
        taken_in: bool,
    ) where
        K: std::hash::Hash + Eq + Copy,
        V: Clone + Weighed,
    {
        let weight = value.weight();
        let mut dropped = None;
        let mut shard = self.shard_for(&key);
        if self.room(&mut shard, weight + value.shared_if_unheld(), &mut dropped) {
            let bytes = weight + value.joins();
            match taken_in {
                true => self.count(bytes),
                false => {
                    self.bytes.fetch_add(bytes, Ordering::Relaxed);
                }
            }
            let replaced = pick(&mut shard).insert(key, value);
            self.release(replaced);
        }
        drop(shard);
        drop(dropped);
    }

    /// Starts a frame when the tree's revision is not the current frame's: the generations
    /// age if at least [`AGE_BYTES`] came in since they last did (pair answers carry their
    /// frame, see [`KeptPair`]). Lock-free when the frame goes on.
    fn frame_for(&self, revision: u64) -> u64 {
        let tag = frame_tag(revision);
        if self.revision.load(Ordering::Acquire) == tag {
            return self.frame.load(Ordering::Acquire);
        }
        let _only = self.frame_lock.lock().unwrap_or_else(|e| e.into_inner());
        if self.revision.load(Ordering::Acquire) == tag {
            return self.frame.load(Ordering::Acquire);
        }
        let age = self.taken.load(Ordering::Relaxed) >= self.age_bytes.load(Ordering::Relaxed);
        let frame = match age {
            true => {
                self.taken.store(0, Ordering::Relaxed);
                self.frame.fetch_add(1, Ordering::AcqRel) + 1
            }
            false => self.frame.load(Ordering::Acquire),
        };
        if age {
            for i in 0..SHARDS {
                let mut dropped = Dropped::default();
                let freed = self.shard(i).new_frame(frame, &mut dropped);
                self.release(freed);
                self.give_back_poses(&mut dropped);
                self.shard(i).reuse_maps(&mut dropped);
                drop(dropped);
            }
            self.drop_setups();
        }
        self.revision.store(tag, Ordering::Release);
        frame
    }

    pub fn raster(&self, key: &HashedKey) -> Option<Arc<CachedRaster>> {
        self.shard_for(key).rasters.get(key)
    }

    /// Keeps a whole raster, and forgets the pose it was drawn from.
    pub fn keep_raster(&self, key: HashedKey, raster: Arc<CachedRaster>) {
        let freed = self.shard_for(&key).poses.remove(&key);
        self.release(freed);
        #[cfg(test)]
        self.made[1].fetch_add(1, Ordering::Relaxed);
        self.keep(key, raster, |s| &mut s.rasters);
    }

    /// A pose seen before, and the epoch it was seen in.
    pub fn pose(&self, key: &HashedKey) -> Option<(Arc<Shape>, u64)> {
        self.shard_for(key).poses.get(key)
    }

    pub fn keep_pose(&self, key: HashedKey, shape: Arc<Shape>, epoch: u64) {
        #[cfg(test)]
        self.made[0].fetch_add(1, Ordering::Relaxed);
        self.keep(key, (shape, epoch), |s| &mut s.poses);
    }

    /// The epoch of a query starting now on a tree at `revision`: a new one, unless a
    /// batch is running. A new revision also starts a new frame ([`RasterCache`]).
    pub fn query_epoch(&self, revision: u64) -> u64 {
        self.frame_for(revision);
        if self.batches.load(Ordering::Relaxed) == 0 {
            self.epoch.fetch_add(1, Ordering::Relaxed) + 1
        } else {
            self.epoch.load(Ordering::Relaxed)
        }
    }

    /// Makes the queries until the guard is dropped one epoch, on a tree at `revision`: a
    /// pose used by several pairs of one many-object query is not drawn whole for that (it
    /// is drawn whole when a later query uses it again).
    pub fn batch(&self, revision: u64) -> Batch<'_> {
        self.frame_for(revision);
        self.epoch.fetch_add(1, Ordering::Relaxed);
        self.batches.fetch_add(1, Ordering::Relaxed);
        Batch(self)
    }

    /// The answer kept for a pair in the frame of a tree at `revision` (a new revision
    /// starts a new frame, which keeps none yet).
    pub fn pair(&self, revision: u64, key: &PairKey) -> Option<PairAnswer> {
        self.frame_for(revision);
        if self.pairs_frame.load(Ordering::Acquire) != frame_tag(revision) {
            return None;
        }
        #[cfg(test)]
        PAIR_LOOKUPS.with(|n| n.set(n.get() + 1));
        let found = self
            .shard_for(key)
            .pairs
            .get(key)
            .filter(|(frame, _)| *frame == frame_tag(revision))
            .map(|&(_, answer)| answer);
        #[cfg(test)]
        if found.is_some() {
            self.made[2].fetch_add(1, Ordering::Relaxed);
        }
        found
    }

    /// Whether answers are kept for the frame of a tree at `revision`, so that
    /// [`RasterCache::pair`] can find one: a many-object query that starts where none are
    /// looks none up, since it asks each pair once and keeps what it finds (a moving frame's
    /// 10,400 close pairs of the dense crowd looked up 1.2 M instructions' worth of
    /// answers that could not be there).
    pub fn keeps_pairs_at(&self, revision: u64) -> bool {
        self.pairs_frame.load(Ordering::Acquire) == frame_tag(revision)
    }

    /// Keeps a pair's answer for the current frame.
    pub fn keep_pair(&self, revision: u64, key: PairKey, answer: PairAnswer) {
        let kept = (frame_tag(revision), answer);
        self.pairs_frame.store(kept.0, Ordering::Release);
        let weight = kept.weight();
        let mut shard = self.shard_for(&key);
        // Room is nearly always there: what making it drops is made only when it is not.
        let mut dropped = None;
        if self.room(&mut shard, weight, &mut dropped) && shard.pairs.insert(key, kept).is_none() {
            // Answers are not what ages the generations: one a pair and its options, the
            // next frame's replacing the last's.
            self.bytes.fetch_add(weight, Ordering::Relaxed);
        }
        // What was dropped is freed outside the lock.
        drop(shard);
        drop(dropped);
    }

    /// Carries the pair answers kept in the frame of a tree at `from` into the frame of the
    /// tree at `to`, but for pairs with a target `changed` accepts (by node index): an edit
    /// of a bitmap's pixels changes no answer of a pair whose targets do not hold that
    /// bitmap. The others are not read again.
    pub fn carry_pairs(&self, from: u64, to: u64, changed: impl Fn(u32) -> bool) {
        let keep = |key: &PairKey| !pair_targets(key).into_iter().any(&changed);
        let (from, to) = (frame_tag(from), frame_tag(to));
        if self.pairs_frame.load(Ordering::Acquire) != from {
            return;
        }
        for i in 0..SHARDS {
            for (key, kept) in self.shard(i).pairs.iter_mut() {
                if kept.0 == from && keep(key) {
                    kept.0 = to;
                }
            }
        }
        self.pairs_frame.store(to, Ordering::Release);
    }

    /// The kept setups' shard `i`.
    fn setups_in(&self, i: usize) -> std::sync::MutexGuard<'_, FastMap<PairKey, KeptSetup>> {
        // As the shards: every update is a single insert or remove.
        self.kept[i].lock().unwrap_or_else(|e| e.into_inner())
    }

    /// The kept setups' shard of `key`.
    fn setups(&self, key: &PairKey) -> std::sync::MutexGuard<'_, FastMap<PairKey, KeptSetup>> {
        self.setups_in(shard_of(key))
    }

    /// The setup kept for the pair `key`, if any ([`RasterCache::keep_setup`]).
    pub fn kept_setup(&self, key: &PairKey) -> Option<Arc<dyn std::any::Any + Send + Sync>> {
        self.setups(key).get(key).map(|(setup, _)| setup.clone())
    }

    /// Keeps a pair's setup, weighing `bytes` besides the entry's overhead, in place of the
    /// one kept for the pair before (written over it, without allocating, when nothing else
    /// holds that one); when there is no room, nothing is kept for the pair (setups never
    /// make room: they are the first to go).
    pub fn keep_setup<T: std::any::Any + Send + Sync>(&self, key: PairKey, setup: T, bytes: usize) {
        let weight = bytes + ENTRY_BYTES;
        let mut setups = self.setups(&key);
        let before = setups.get(&key).map_or(0, |(_, w)| *w);
        if self.bytes().saturating_sub(before) + weight > CACHE_BYTES {
            setups.remove(&key);
            drop(setups);
            self.release(before);
            return;
        }
        match setups.get_mut(&key) {
            Some((kept, w)) => {
                match Arc::get_mut(kept).and_then(|k| k.downcast_mut::<T>()) {
                    Some(slot) => *slot = setup,
                    None => *kept = Arc::new(setup),
                }
                *w = weight;
            }
            None => {
                setups.insert(key, (Arc::new(setup), weight));
            }
        }
        self.bytes.fetch_add(weight, Ordering::Relaxed);
        drop(setups);
        self.release(before);
    }

    /// Forgets the setup kept for the pair `key`.
    pub fn forget_setup(&self, key: &PairKey) {
        let removed = self.setups(key).remove(key);
        self.release(removed.map_or(0, |(_, w)| w));
    }

    /// Forgets the setups kept for pairs with a target `changed` accepts (by node index):
    /// before an edit of a bitmap's pixels patches its rasters in place, which needs them
    /// held by the cache alone.
    pub fn forget_setups(&self, changed: impl Fn(u32) -> bool) {
        for i in 0..SHARDS {
            let mut freed = 0;
            self.setups_in(i).retain(|key, (_, w)| {
                let keep = !pair_targets(key).into_iter().any(&changed);
                freed += if keep { 0 } else { *w };
                keep
            });
            self.release(freed);
        }
    }

    /// Forgets every kept setup: rasters left the cache, and a setup must not hold one
    /// that the cache no longer counts.
    fn drop_setups(&self) {
        for i in 0..SHARDS {
            let taken = std::mem::take(&mut *self.setups_in(i));
            self.release(taken.values().map(|(_, w)| w).sum());
        }
    }

    /// How many pair setups are kept.
    #[cfg(test)]
    pub fn kept_setups(&self) -> usize {
        (0..SHARDS).map(|i| self.setups_in(i).len()).sum()
    }

    /// The local geometry under `key`, made by `make` on a miss (`None`: nothing to keep).
    pub fn local<E>(
        &self,
        key: LocalKey,
        make: impl FnOnce() -> Result<Polylines, E>,
    ) -> Result<Arc<Polylines>, E> {
        if let Some(p) = self.shard_for(&key).local.get(&key) {
            return Ok(p);
        }
        let p = Arc::new(make()?);
        self.keep(key, p.clone(), |s| &mut s.local);
        Ok(p)
    }

    /// The bitmap's alpha after the colour transform's alpha part.
    pub fn texels(&self, bitmap: &Bitmap, ct: &crate::ColorTransform) -> Arc<Texels> {
        let key = (
            bitmap.id(),
            ct.alpha_multiplier.to_bits(),
            ct.alpha_offset.to_bits(),
        );
        self.texels_under(key, || Texels::new(bitmap, ct))
    }

    /// The texels kept under `key`, made by `make` on a miss.
    fn texels_under(&self, key: TexelKey, make: impl FnOnce() -> Texels) -> Arc<Texels> {
        if let Some(t) = self.shard_for(&key).texels.get(&key) {
            return t;
        }
        let t = Arc::new(make());
        self.keep(key, t.clone(), |s| &mut s.texels);
        t
    }

    /// The bitmap's alpha, untransformed, with the tables that `op`'s kernel reads
    /// ([`Texels::for_renderer`]): the source of a bitmap that `op` draws. Kept apart from
    /// [`RasterCache::texels`]' tables (a bitmap sampled otherwise does not pay for them),
    /// and apart for each renderer, under [`rendered_key`].
    pub fn rendered_texels(&self, bitmap: &Bitmap, op: PygameOp) -> Arc<Texels> {
        let (a, b) = rendered_key(op);
        self.texels_under((bitmap.id(), a, b), || {
            Texels::new(bitmap, &crate::ColorTransform::IDENTITY).for_renderer(op)
        })
    }

    /// Takes everything kept of the bitmap whose content id is `source` out of the cache
    /// (`raster::bitmap_patch`), its bytes given back.
    pub(super) fn take_bitmap(&self, source: u64) -> TakenBitmap {
        let mut taken = TakenBitmap::default();
        for i in 0..SHARDS {
            let mut s = self.shard(i);
            let mut freed = s.texels.take_where(|k| k.0 == source, |k| k, &mut taken.texels);
            let (pick, into) = (|k: &HashedKey| k.key.source == source, |k: HashedKey| k.key);
            freed += s.poses.take_where(pick, into, &mut taken.poses);
            freed += s.rasters.take_where(pick, into, &mut taken.rasters);
            drop(s);
            self.release(freed);
        }
        taken
    }

    /// Keeps texels again (taken by [`RasterCache::take_bitmap`]), if there is room.
    pub(super) fn put_texels(&self, key: TexelKey, texels: Arc<Texels>) {
        self.keep_as(key, texels, |s| &mut s.texels, false);
    }

    /// Keeps a pose again, if there is room.
    pub(super) fn put_pose(&self, key: RasterKey, pose: PoseEntry) {
        self.keep_as(HashedKey::new(key), pose, |s| &mut s.poses, false);
    }

    /// Keeps a whole raster again, if there is room.
    pub(super) fn put_raster(&self, key: RasterKey, raster: Arc<CachedRaster>) {
        self.keep_as(HashedKey::new(key), raster, |s| &mut s.rasters, false);
    }

    /// Every entry weighed again, masks included: what `bytes` must equal.
    #[cfg(test)]
    pub(crate) fn recount(&self) -> usize {
        let mut total = 0;
        let mut texels = std::collections::HashSet::new();
        let mut shared = |t: Option<&Texels>| {
            if let Some(t) = t
                && texels.insert(std::ptr::from_ref(t) as usize)
            {
                return t.bytes();
            }
            0
        };
        for i in 0..SHARDS {
            let s = self.shard(i);
            let g = &s.rasters;
            total += g
                .young
                .values()
                .chain(g.old.values())
                .map(|r| shared(r.shape.shared_texels()))
                .sum::<usize>();
            let g = &s.poses;
            total += g
                .young
                .values()
                .chain(g.old.values())
                .map(|p| shared(p.0.shared_texels()))
                .sum::<usize>();
            let g = &s.texels;
            total += g
                .young
                .values()
                .chain(g.old.values())
                .map(|t| shared(Some(t)))
                .sum::<usize>();
            let sum = |w: &mut dyn Iterator<Item = usize>| w.sum::<usize>();
            let g = &s.rasters;
            total += sum(&mut g.young.values().chain(g.old.values()).map(Weighed::weight));
            let g = &s.poses;
            total += sum(&mut g.young.values().chain(g.old.values()).map(Weighed::weight));
            let g = &s.local;
            total += sum(&mut g.young.values().chain(g.old.values()).map(Weighed::weight));
            let g = &s.texels;
            total += sum(&mut g.young.values().chain(g.old.values()).map(Weighed::weight));
            total += sum(&mut s.pairs.values().map(Weighed::weight));
        }
        total += (0..SHARDS)
            .map(|i| self.setups_in(i).values().map(|(_, w)| w).sum::<usize>())
            .sum::<usize>();
        total + self.spare_bytes()
    }

    /// The bytes of the spares waiting (`raster::spares`).
    #[cfg(test)]
    pub(crate) fn spare_bytes(&self) -> usize {
        self.spare_masks.bytes() + self.spare_poses.iter().map(Spares::bytes).sum::<usize>()
    }

    /// Poses made, whole rasters made and pair answers found so far.
    #[cfg(test)]
    pub(crate) fn made(&self) -> [usize; 3] {
        self.made.each_ref().map(|m| m.load(Ordering::Relaxed))
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::FillRule;
    use crate::raster::edges::Edges;

    fn key(n: usize) -> HashedKey {
        HashedKey::new(RasterKey {
            source: n as u64,
            kind: 0,
            extra: [0; 2],
            matrix: [0; 6],
            alpha: 255,
            anti_alias: true,
        })
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

    #[test]
    fn what_no_frame_used_lately_is_dropped_and_the_rest_kept() {
        let cache = RasterCache::default();
        // Every new frame is a new age here (see the next test for the bytes).
        cache.set_age_bytes(0);
        let keep = |n: usize, frame_revision: u64| {
            cache.query_epoch(frame_revision);
            cache.keep_pose(key(n), shape(8), 0);
        };
        keep(1, 10);
        keep(2, 10);
        keep(3, 11);
        assert!(cache.pose(&key(1)).is_some());
        // Frame 12: 2 was last used by frame 10 and goes; 1 and 3 were used by frame 11.
        cache.query_epoch(12);
        assert_eq!(cache.counts().poses, 2);
        assert!(cache.pose(&key(2)).is_none());
        assert!(cache.pose(&key(1)).is_some());
        // Frame 13: 1 was used by frame 12, 3 last by frame 11.
        cache.query_epoch(13);
        assert!(cache.pose(&key(3)).is_none());
        assert!(cache.pose(&key(1)).is_some());
        // Queries of one frame do not age anything.
        for _ in 0..5 {
            cache.query_epoch(13);
        }
        assert!(cache.pose(&key(1)).is_some());
        assert_eq!(cache.bytes(), cache.recount());
        cache.query_epoch(14);
        cache.query_epoch(15);
        assert_eq!(cache.counts().poses, 0);
        // What is left are the three poses' `Arc`s, emptied, for new poses.
        assert_eq!(cache.spares()[1], 3);
        assert_eq!(cache.bytes(), cache.spare_bytes());
        cache.clear();
        assert_eq!(cache.bytes(), 0);
    }

    #[test]
    fn ages_follow_the_bytes_taken_in_not_the_revisions() {
        let cache = RasterCache::default();
        let weight = (shape(8), 0).weight();
        cache.set_age_bytes(10 * weight);
        for n in 0..5 {
            cache.query_epoch(1);
            cache.keep_pose(key(n), shape(8), 0);
        }
        // A thousand frames, each changing the tree and using one entry: nothing came in,
        // so nothing ages, and the entries no frame used lately stay.
        for revision in 2..1002 {
            cache.query_epoch(revision);
            assert!(
                cache.pose(&key(revision as usize % 5)).is_some(),
                "revision {revision}"
            );
        }
        assert_eq!(cache.counts().poses, 5);
        // Ten new entries in one frame make the next frame an age (the five are in the
        // generation before it); the age after that drops what neither used.
        for n in 5..15 {
            cache.keep_pose(key(n), shape(8), 0);
        }
        cache.query_epoch(1002);
        assert_eq!(cache.counts().poses, 15);
        assert!(cache.pose(&key(7)).is_some());
        for n in 15..25 {
            cache.keep_pose(key(n), shape(8), 0);
        }
        cache.query_epoch(1003);
        // Kept: 7 (used in the age before) and the ten of the last age; the other 14 went.
        assert_eq!(cache.counts().poses, 11);
        assert!(cache.pose(&key(7)).is_some() && cache.pose(&key(3)).is_none());
        assert_eq!(cache.bytes(), cache.recount());
    }

    #[test]
    fn the_cache_stays_within_its_bytes_and_counts_masks() {
        let cache = RasterCache::default();
        cache.set_age_bytes(0);
        let one = shape(1000);
        let per_entry = one.bytes() + ENTRY_BYTES;
        let n = 3 * CACHE_BYTES / per_entry;
        // Frame after frame of big poses: past the limit, what the current frame has not
        // used goes, then nothing more is kept in the frame.
        for i in 0..n {
            cache.query_epoch((i / 2000) as u64);
            cache.keep_pose(key(i), one.clone(), 0);
            assert!(cache.bytes() <= CACHE_BYTES, "{} bytes after {i}", cache.bytes());
        }
        assert_eq!(cache.bytes(), cache.recount());
        assert!(cache.counts().poses >= 2000, "{:?}", cache.counts());
        // A raster made from a pose replaces it; masks made while it is kept are counted
        // with it, a mask made after it left is not.
        let raster = Arc::new(CachedRaster::new(
            PixelRect {
                x0: 0,
                y0: 0,
                x1: 64,
                y1: 64,
            },
            vec![255; 4096],
            shape(4),
        ));
        cache.query_epoch(u64::MAX - 7);
        cache.keep_raster(key(n - 1), raster.clone());
        assert!(cache.pose(&key(n - 1)).is_none());
        let before = cache.bytes();
        let _ = raster.mask(1, &cache);
        let _ = raster.mask(7, &cache);
        assert!(cache.bytes() > before);
        assert_eq!(cache.bytes(), cache.recount());
        cache.query_epoch(u64::MAX - 6);
        cache.query_epoch(u64::MAX - 5);
        assert_eq!(cache.bytes(), 0);
        let _ = raster.mask(9, &cache);
        assert_eq!(cache.bytes(), 0);
    }
}
