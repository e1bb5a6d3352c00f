//! Drawing targets into alpha planes: the one place that rasterizes.
//!
//! A target is a list of *items* (a fill, a stroke turned into a fill, or a bitmap), each
//! mapped into the query parent's space in f64. Each item is rasterized on its own, and the
//! target's alpha at a pixel is the source-over of its items' alphas there, in paint order.
//! Four choices make the answers exact in the sense semantics.md needs, and fast:
//!
//! - **An item's raster depends only on the item.** It is drawn relative to its *anchor*, the
//!   whole-pixel part of its matrix's translation, from geometry mapped by the matrix with
//!   only the fractional part of the translation. Which pixels a query window happens to
//!   cover never changes a value, so a tighter window is a valid optimization.
//! - **Integer moves are exact.** Coordinates handed to tiny-skia are snapped in f64 to
//!   1/1024 px, which f32 then holds exactly; moving an item by whole pixels moves its
//!   anchor and hands tiny-skia the very same path.
//! - **Rasters are cached.** The key is everything the raster depends on (the shared path or
//!   bitmap, the linear part and fractional translation of the matrix, alpha, fill rule,
//!   anti-aliasing), so a sprite that did not change, or only moved by whole pixels, is not
//!   drawn again, and its solid pixels are kept as a bit mask per tolerance.
//! - **Bounded memory.** An item larger than 4096 px on a side is not drawn whole: its
//!   geometry is cut into tiles of its own frame (clipped in f64), and each tile is drawn
//!   when a window first needs it and kept in the cache, so that a sprite moving over a large
//!   level does not draw it again. The cache is emptied when it grows past its limit, and the
//!   whole item rasters one query holds count against its pixel budget.

use std::collections::HashMap;
use std::sync::{Arc, Mutex, OnceLock};

use glam::{DAffine2, DVec2};
use tiny_skia::{
    BlendMode, Color, FillRule as SkFillRule, FilterQuality, Mask, Paint, Pattern, Pixmap, Shader,
    SpreadMode, Transform,
};

use crate::bitmask::BitMask;
use crate::color::{ColorTransform, round_channel};
use crate::polygon::{self, Polylines};
use crate::rect::PixelRect;
use crate::stage::{Leaf, invert};
use crate::{Bitmap, Error, FillRule, Graphic, NodeId, Path, Rect, Result, Stage};

/// Curves and circles are flattened to within this distance, in the parent's pixels.
pub(crate) const FLATTEN_TOLERANCE: f64 = 1.0 / 128.0;
/// Side of the tiles a large item is drawn in, in pixels.
const ITEM_TILE: i64 = 1024;
/// Largest side of an item drawn whole and cached (16 MiB of alpha at most); larger items
/// are drawn in tiles of ITEM_TILE. Coordinates of a whole item stay below 2^13 px, so with
/// QUANTUM they still need at most 23 bits.
const WHOLE_ITEM: i64 = 4096;
/// Vertices are snapped to multiples of 1/QUANTUM px relative to their tile or whole item;
/// below 2^13 px that needs at most 13 + 10 bits, which f32 holds exactly.
const QUANTUM: f64 = 1024.0;
/// Geometry of a cut tile is clipped this far outside it, so tiny-skia's own clipping only
/// ever cuts edges it draws straight.
const CLIP_MARGIN: f64 = 2.0;
/// Bytes of cached rasters and masks a stage keeps before it starts over.
const CACHE_BYTES: usize = 128 << 20;
/// Anchors are clamped here so that pixel arithmetic stays exact in i64.
const ANCHOR_LIMIT: f64 = 4_503_599_627_370_496.0;

/// What a raster depends on, besides the shared path or bitmap it was made from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct RasterKey {
    /// Address of the shared path or bitmap (kept alive by the cache entry).
    source: usize,
    /// Fill rule, or stroke, or bitmap sampling.
    kind: u8,
    /// Stroke width, or the bitmap's colour transform (alpha multiplier, offset), as bits.
    extra: [u64; 2],
    /// Linear part of the matrix and fractional translation, as bits.
    matrix: [u64; 6],
    alpha: u8,
    anti_alias: bool,
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

/// Keeps a cached raster's source alive, so that its address cannot be reused by another
/// path or bitmap while the key holds it.
#[allow(dead_code)]
#[derive(Clone)]
enum Source {
    Path(Arc<Path>),
    Bitmap(Bitmap),
}

/// A whole item raster, relative to the item's anchor, with its bit masks.
pub(crate) struct CachedRaster {
    rect: PixelRect,
    alpha: Vec<u8>,
    /// Vertices of the geometry it was drawn from.
    vertices: usize,
    /// The mask at the first threshold asked for (nearly always the only one), readable
    /// without a lock.
    first_mask: OnceLock<(u8, BitMask)>,
    /// Masks at other thresholds.
    masks: Mutex<Vec<(u8, Arc<BitMask>)>>,
    /// How many queries used this raster. Masks are made from the second use on: a raster
    /// used once (a sprite that moved by a fraction of a pixel) is cheaper to compare over
    /// the query's window than to turn into a whole mask.
    uses: std::sync::atomic::AtomicU32,
    _source: Source,
}

impl CachedRaster {
    /// The solid pixels at `threshold`, made once per threshold.
    pub fn mask(&self, threshold: u8) -> MaskRef<'_> {
        let (t, m) = self
            .first_mask
            .get_or_init(|| (threshold, BitMask::from_plane(&self.alpha, self.rect, threshold)));
        if *t == threshold {
            return MaskRef::First(m);
        }
        let mut masks = self.masks.lock().unwrap_or_else(|e| e.into_inner());
        if let Some((_, m)) = masks.iter().find(|(t, _)| *t == threshold) {
            return MaskRef::Other(m.clone());
        }
        let m = Arc::new(BitMask::from_plane(&self.alpha, self.rect, threshold));
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

/// A tile of a large item: the item's key, the tile's column and row in the item's frame.
type TileKey = (RasterKey, i64, i64);

#[derive(Default)]
struct CacheState {
    rasters: FastMap<RasterKey, Arc<CachedRaster>>,
    /// Transformed alpha of bitmaps, by (bitmap, alpha multiplier, alpha offset).
    pixmaps: FastMap<(usize, u64, u64), (Bitmap, Arc<Pixmap>)>,
    /// Items too large to draw whole, ready to be drawn tile by tile: flattening and
    /// outlining a huge stroke again for every query costs more than its tiles.
    large: FastMap<RasterKey, LargeItem>,
    /// Drawn tiles of large items, by the item's key and the tile's column and row.
    tiles: FastMap<TileKey, (Arc<[u8]>, Source)>,
    bytes: usize,
}

/// Rasters and bitmap alphas kept between queries. Each stage has its own; a clone of a stage
/// starts with an empty one.
#[derive(Default)]
pub(crate) struct RasterCache {
    state: Mutex<CacheState>,
}

impl Clone for RasterCache {
    fn clone(&self) -> Self {
        RasterCache::default()
    }
}

impl std::fmt::Debug for RasterCache {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        let s = self.state.lock().unwrap_or_else(|e| e.into_inner());
        write!(f, "RasterCache({} rasters, {} bytes)", s.rasters.len(), s.bytes)
    }
}

impl RasterCache {
    fn lock(&self) -> std::sync::MutexGuard<'_, CacheState> {
        // A panic while holding the lock cannot leave the maps inconsistent (every update
        // is a single insert), so a poisoned lock is still usable.
        self.state.lock().unwrap_or_else(|e| e.into_inner())
    }

    /// Drops every cached raster and bitmap alpha.
    pub fn clear(&self) {
        let mut state = self.lock();
        state.rasters.clear();
        state.pixmaps.clear();
        state.large.clear();
        state.tiles.clear();
        state.bytes = 0;
    }

    fn make_room(state: &mut CacheState, bytes: usize) {
        if state.bytes + bytes > CACHE_BYTES {
            state.rasters.clear();
            state.pixmaps.clear();
            state.large.clear();
            state.tiles.clear();
            state.bytes = 0;
        }
        state.bytes += bytes;
    }

    fn alpha_pixmap(&self, bitmap: &Bitmap, ct: &ColorTransform) -> Option<Arc<Pixmap>> {
        let key = (
            bitmap.id(),
            ct.alpha_multiplier.to_bits(),
            ct.alpha_offset.to_bits(),
        );
        if let Some((_, pm)) = self.lock().pixmaps.get(&key) {
            return Some(pm.clone());
        }
        let pm = Arc::new(alpha_pixmap(bitmap, ct)?);
        let mut state = self.lock();
        Self::make_room(&mut state, pm.data().len());
        state.pixmaps.insert(key, (bitmap.clone(), pm.clone()));
        Some(pm)
    }
}

/// What an item draws, in its anchor's frame.
enum Shape {
    Fill {
        polys: Polylines,
        rule: FillRule,
    },
    Bitmap {
        alpha: Arc<Pixmap>,
        texel_to_anchor: DAffine2,
        quality: FilterQuality,
    },
}

/// One drawable piece of a target.
enum Item {
    /// A whole raster from the cache, placed at `anchor`.
    Cached {
        raster: Arc<CachedRaster>,
        anchor: (i64, i64),
    },
    /// An item too large to cache, drawn tile by tile (boxed: it is rare, and the common
    /// item stays small enough to move around cheaply).
    Tiled(Box<TiledItem>),
}

/// An item too large to cache whole, kept as its geometry.
struct LargeItem {
    shape: Arc<Shape>,
    /// Pixels it may touch, relative to its anchor.
    rect: PixelRect,
    _source: Source,
}

/// An item too large to cache.
struct TiledItem {
    /// Its key in the cache, where its tiles are kept.
    key: RasterKey,
    source: Source,
    shape: Arc<Shape>,
    alpha: u8,
    anchor: (i64, i64),
    /// Pixels it may touch, relative to the anchor.
    rect: PixelRect,
}

impl Item {
    /// The pixels it may touch in the parent's grid.
    fn extent(&self) -> PixelRect {
        match self {
            Item::Cached { raster, anchor } => raster.rect.moved(*anchor),
            Item::Tiled(t) => t.rect.moved(t.anchor),
        }
    }
}

/// A target's items. Most targets are one sprite, so one item is kept inline and a query
/// on it allocates nothing.
enum Items {
    Empty,
    One(Item),
    Many(Vec<Item>),
}

impl Items {
    fn push(&mut self, item: Item) {
        *self = match std::mem::replace(self, Items::Empty) {
            Items::Empty => Items::One(item),
            Items::One(first) => Items::Many(vec![first, item]),
            Items::Many(mut all) => {
                all.push(item);
                Items::Many(all)
            }
        };
    }

    fn as_slice(&self) -> &[Item] {
        match self {
            Items::Empty => &[],
            Items::One(item) => std::slice::from_ref(item),
            Items::Many(all) => all,
        }
    }
}

/// What one query may hold: the pixels of whole item rasters and the vertices of the items'
/// geometry, counted whether they come from the cache or are made now (so that the answer,
/// error or not, never depends on the cache). Without it a target of many large shapes could
/// hold gigabytes for a tiny window.
pub(crate) struct DrawBudget {
    used: u128,
    max: u64,
    /// Vertices of the items' geometry (each item's alone is held to
    /// [`polygon::MAX_OUTLINE_VERTICES`] as it is built).
    vertices: u128,
}

/// Most vertices of geometry one query may hold over all its items (8 Mi, about 200 MB).
pub(crate) const MAX_QUERY_VERTICES: u64 = 1 << 23;

impl DrawBudget {
    /// A budget of `max` pixels.
    pub fn new(max: u64) -> DrawBudget {
        DrawBudget {
            used: 0,
            max,
            vertices: 0,
        }
    }

    /// Counts the vertices of an item's geometry, built now or earlier (so that the answer
    /// does not depend on the cache).
    ///
    /// # Errors
    ///
    /// [`Error::GeometryBudget`] when the total goes over [`MAX_QUERY_VERTICES`].
    fn take_vertices(&mut self, vertices: usize, target: impl FnOnce() -> String) -> Result<()> {
        self.vertices += vertices as u128;
        if self.vertices > u128::from(MAX_QUERY_VERTICES) {
            return Err(Error::GeometryBudget {
                what: format!("the geometry of the query's targets, at {}", target()),
                vertices: self.vertices,
                budget: MAX_QUERY_VERTICES,
            });
        }
        Ok(())
    }

    /// Counts the pixels of `rect`.
    ///
    /// # Errors
    ///
    /// [`Error::PixelBudget`] when the total goes over the budget.
    fn take(&mut self, rect: PixelRect) -> Result<()> {
        self.used += rect.area();
        if self.used > u128::from(self.max) {
            return Err(Error::PixelBudget {
                pixels: self.used,
                budget: self.max,
            });
        }
        Ok(())
    }
}

/// A target made ready to rasterize against one parent.
pub(crate) struct Prepared {
    items: Items,
    extent: Option<PixelRect>,
}

/// A premultiplied pixmap holding only the transformed alpha of a bitmap's texels.
fn alpha_pixmap(bitmap: &Bitmap, ct: &ColorTransform) -> Option<Pixmap> {
    let mut pm = Pixmap::new(bitmap.width(), bitmap.height())?;
    for (dst, src) in pm
        .data_mut()
        .chunks_exact_mut(4)
        .zip(bitmap.rgba().chunks_exact(4))
    {
        dst[3] = round_channel(ct.apply_alpha(f64::from(src[3])));
    }
    Some(pm)
}

/// The pixels a box can touch, grown by one pixel so that snapping never leaves them.
fn extent_of(bounds: &Rect) -> PixelRect {
    let p = PixelRect::covering(bounds);
    PixelRect {
        x0: p.x0 - 1,
        y0: p.y0 - 1,
        x1: p.x1 + 1,
        y1: p.y1 + 1,
    }
}

/// Splits a matrix into its anchor (the whole-pixel part of the translation) and the matrix
/// relative to it.
fn anchored(m: &DAffine2) -> ((i64, i64), DAffine2) {
    let t = m
        .translation
        .floor()
        .clamp(DVec2::splat(-ANCHOR_LIMIT), DVec2::splat(ANCHOR_LIMIT));
    let rel = DAffine2 {
        matrix2: m.matrix2,
        translation: m.translation - t,
    };
    ((t.x as i64, t.y as i64), rel)
}

fn matrix_bits(m: &DAffine2) -> [u64; 6] {
    m.to_cols_array().map(f64::to_bits)
}

impl Prepared {
    /// Collects the visible leaves of `target` relative to `parent` (the caller has checked
    /// that `parent` is an ancestor, and `base` is `target`'s matrix to it), taking rasters from the stage's cache where it has them.
    pub fn new(
        stage: &Stage,
        target: NodeId,
        parent: NodeId,
        base: DAffine2,
        anti_alias: bool,
        budget: &mut DrawBudget,
    ) -> Result<Prepared> {
        let base_color = stage.color_transform_to(target, parent)?;
        let cache = &stage.cache;
        let mut items = Items::Empty;
        stage.for_each_leaf(target, base, base_color, true, |_, leaf, m, ct| {
            if m.matrix2.determinant() == 0.0 {
                return Ok(());
            }
            let (anchor, rel) = anchored(m);
            let key = match leaf {
                Leaf::Graphic(g) => {
                    let alpha = round_channel(ct.apply_alpha(g.alpha() * 255.0));
                    if alpha == 0 {
                        return Ok(());
                    }
                    let (kind, width) = match g {
                        Graphic::Fill(f) => (f.rule() as u8, 0.0),
                        Graphic::Stroke(s) => (2, s.width()),
                    };
                    RasterKey {
                        source: Arc::as_ptr(g.shared_path()) as usize,
                        kind,
                        extra: [width.to_bits(), 0],
                        matrix: matrix_bits(&rel),
                        alpha,
                        anti_alias,
                    }
                }
                Leaf::Bitmap(bitmap, smoothing) => RasterKey {
                    source: bitmap.id(),
                    kind: 3 + u8::from(smoothing),
                    extra: [ct.alpha_multiplier.to_bits(), ct.alpha_offset.to_bits()],
                    matrix: matrix_bits(&rel),
                    alpha: 255,
                    anti_alias,
                },
            };
            if let Some(raster) = cache.lock().rasters.get(&key) {
                budget.take_vertices(raster.vertices, || stage.describe(target))?;
                budget.take(raster.rect)?;
                // Only "used more than once" matters, so a raster past that is not written
                // again: an atomic add on every query costs more than the check.
                if raster.uses.load(std::sync::atomic::Ordering::Relaxed) < 2 {
                    raster.uses.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
                }
                items.push(Item::Cached {
                    raster: raster.clone(),
                    anchor,
                });
                return Ok(());
            }
            // The item's geometry: kept from an earlier query that could not draw it whole,
            // or built now.
            let kept = cache.lock().large.get(&key).map(|l| (l.shape.clone(), l.rect));
            let built = kept.is_none();
            let (shape, rect) = match kept {
                Some(kept) => kept,
                None => {
                    let Some(shape) = build_shape(stage, target, cache, leaf, &rel, ct)? else {
                        return Ok(());
                    };
                    let Some(bounds) = shape.bounds() else {
                        return Ok(());
                    };
                    (Arc::new(shape), extent_of(&bounds))
                }
            };

            let source = || match leaf {
                Leaf::Graphic(g) => Source::Path(g.shared_path().clone()),
                Leaf::Bitmap(bitmap, _) => Source::Bitmap(bitmap.clone()),
            };
            // Keeps geometry that is not drawn whole now, so that the next query does not
            // flatten and outline it again (a huge stroke takes 64 MiB and seconds).
            let keep = |shape: &Arc<Shape>| {
                if built {
                    let mut state = cache.lock();
                    RasterCache::make_room(&mut state, shape.bytes() + 64);
                    let large = LargeItem {
                        shape: shape.clone(),
                        rect,
                        _source: source(),
                    };
                    state.large.insert(key, large);
                }
            };
            if let Err(e) = budget.take_vertices(shape.vertices(), || stage.describe(target)) {
                keep(&shape);
                return Err(e);
            }
            if rect.width() as i64 > WHOLE_ITEM || rect.height() as i64 > WHOLE_ITEM {
                keep(&shape);
                items.push(Item::Tiled(Box::new(TiledItem {
                    key,
                    source: source(),
                    shape,
                    alpha: key.alpha,
                    anchor,
                    rect,
                })));
                return Ok(());
            }
            if let Err(e) = budget.take(rect) {
                keep(&shape);
                return Err(e);
            }
            let mut scratch = Scratch::default();
            let alpha = scratch.render(&shape, key.alpha, rect, true, anti_alias);
            let raster = Arc::new(CachedRaster {
                rect,
                alpha,
                vertices: shape.vertices(),
                first_mask: OnceLock::new(),
                masks: Mutex::new(Vec::new()),
                uses: std::sync::atomic::AtomicU32::new(1),
                _source: source(),
            });
            let mut state = cache.lock();
            RasterCache::make_room(&mut state, raster.alpha.len() + 64);
            state.large.remove(&key);
            state.rasters.insert(key, raster.clone());
            drop(state);
            items.push(Item::Cached { raster, anchor });
            Ok(())
        })?;
        let extent = items
            .as_slice()
            .iter()
            .map(Item::extent)
            .reduce(|a, b| PixelRect {
                x0: a.x0.min(b.x0),
                y0: a.y0.min(b.y0),
                x1: a.x1.max(b.x1),
                y1: a.y1.max(b.y1),
            });
        Ok(Prepared { items, extent })
    }

    /// The pixels this target can touch in the parent's grid.
    pub fn extent(&self) -> Option<PixelRect> {
        self.extent
    }

    /// For a target that is one cached raster used before, its solid pixels at `threshold`
    /// and where they sit: the whole answer of a query can then come from two masks.
    pub fn single_mask(&self, threshold: u8) -> Option<(MaskRef<'_>, (i64, i64))> {
        match self.items.as_slice() {
            [Item::Cached { raster, anchor }]
                if raster.uses.load(std::sync::atomic::Ordering::Relaxed) > 1 =>
            {
                Some((raster.mask(threshold), *anchor))
            }
            _ => None,
        }
    }
}

/// The geometry of one leaf relative to its anchor (`rel`), or `None` when it draws nothing.
///
/// # Errors
///
/// [`Error::GeometryBudget`] for a fill or a stroke outline over its vertex budget.
fn build_shape(
    stage: &Stage,
    target: NodeId,
    cache: &RasterCache,
    leaf: Leaf<'_>,
    rel: &DAffine2,
    ct: &ColorTransform,
) -> Result<Option<Shape>> {
    Ok(Some(match leaf {
        Leaf::Graphic(g) => {
            let mut polys = Polylines::default();
            let rule = match g {
                Graphic::Fill(f) => {
                    let budget = polygon::MAX_OUTLINE_VERTICES as usize;
                    if !f
                        .path()
                        .flatten_within(rel, FLATTEN_TOLERANCE, &mut polys, budget)
                    {
                        return Err(polygon::over_budget("a fill", || stage.describe(target)));
                    }
                    f.rule()
                }
                Graphic::Stroke(s) => {
                    polygon::check_outline(s.path(), s.width(), rel, FLATTEN_TOLERANCE, || {
                        stage.describe(target)
                    })?;
                    if !polygon::stroke_outline(s.path(), s.width(), rel, FLATTEN_TOLERANCE, &mut polys) {
                        return Err(polygon::over_budget("a stroke", || stage.describe(target)));
                    }
                    FillRule::NonZero
                }
            };
            Shape::Fill { polys, rule }
        }
        Leaf::Bitmap(bitmap, smoothing) => {
            let Some(alpha) = cache.alpha_pixmap(bitmap, ct) else {
                return Ok(None);
            };
            if invert(rel).is_none() {
                return Ok(None);
            }
            Shape::Bitmap {
                alpha,
                texel_to_anchor: *rel,
                quality: if smoothing {
                    FilterQuality::Bilinear
                } else {
                    FilterQuality::Nearest
                },
            }
        }
    }))
}

impl Shape {
    /// Vertices of its geometry (a bitmap is a quad).
    fn vertices(&self) -> usize {
        match self {
            Shape::Fill { polys, .. } => polys.points.len(),
            Shape::Bitmap { .. } => 4,
        }
    }

    /// Memory it holds of its own (a bitmap's pixels are the bitmap's).
    fn bytes(&self) -> usize {
        match self {
            Shape::Fill { polys, .. } => {
                polys.points.len() * std::mem::size_of::<DVec2>()
                    + polys.contours.len() * std::mem::size_of::<polygon::Contour>()
            }
            Shape::Bitmap { .. } => 0,
        }
    }

    fn bounds(&self) -> Option<Rect> {
        match self {
            Shape::Fill { polys, .. } => polys.bounds(),
            Shape::Bitmap {
                alpha,
                texel_to_anchor,
                ..
            } => Rect::from_ltrb(0.0, 0.0, f64::from(alpha.width()), f64::from(alpha.height()))
                .and_then(|r| r.transform(texel_to_anchor)),
        }
    }
}

/// The windows of `tile x tile` pixels (at multiples of `tile`) that cover `window`, row by
/// row, each cut to `window`.
pub(crate) fn chunks(window: PixelRect, tile: i64) -> impl Iterator<Item = PixelRect> {
    let t0x = window.x0.div_euclid(tile);
    let t0y = window.y0.div_euclid(tile);
    let t1x = (window.x1 - 1).div_euclid(tile);
    let t1y = (window.y1 - 1).div_euclid(tile);
    let rows = if window.is_empty() { 0..0 } else { t0y..t1y + 1 };
    rows.flat_map(move |ty| {
        (t0x..=t1x).map(move |tx| {
            PixelRect {
                x0: tx * tile,
                y0: ty * tile,
                x1: tx * tile + tile,
                y1: ty * tile + tile,
            }
            .intersect(&window)
        })
    })
}

/// `a * b / 255`, rounded to nearest, exact for all `a, b` in 0..=255.
fn mul255(a: u32, b: u32) -> u32 {
    let v = a * b + 128;
    (v + (v >> 8)) >> 8
}

/// Source-over of the alphas `src` onto `dst`. Returns whether any source pixel was not 0.
fn composite(dst: &mut [u8], src: &[u8]) -> bool {
    let mut any = false;
    for (d, &s) in dst.iter_mut().zip(src) {
        if s != 0 {
            let (s32, d32) = (u32::from(s), u32::from(*d));
            *d = (s32 + d32 - mul255(s32, d32)) as u8;
            any = true;
        }
    }
    any
}

/// Reusable buffers for drawing item tiles.
#[derive(Default)]
struct Scratch {
    clipped: Polylines,
    quad: Polylines,
}

impl Scratch {
    /// Draws `shape` over `rect` (pixels relative to its anchor). `whole` says that `rect`
    /// holds all of it, so no clipping is needed.
    fn render(
        &mut self,
        shape: &Shape,
        alpha: u8,
        rect: PixelRect,
        whole: bool,
        anti_alias: bool,
    ) -> Vec<u8> {
        let (w, h) = (rect.width() as u32, rect.height() as u32);
        let mut out = Vec::new();
        let origin = DVec2::new(rect.x0 as f64, rect.y0 as f64);
        let clip = rect.to_rect().and_then(|r| r.outset(CLIP_MARGIN));
        match shape {
            Shape::Fill { polys, rule } => {
                let polys = if whole {
                    polys
                } else {
                    self.clipped.clear();
                    if let Some(c) = clip {
                        polygon::clip_to_rect(polys, &c, &mut self.clipped);
                    }
                    &self.clipped
                };
                if let (Some(path), Some(mut mask)) = (snapped_path(polys, origin), Mask::new(w, h)) {
                    let rule = match rule {
                        FillRule::NonZero => SkFillRule::Winding,
                        FillRule::EvenOdd => SkFillRule::EvenOdd,
                    };
                    mask.fill_path(&path, rule, anti_alias, Transform::identity());
                    out = mask.take();
                    if alpha != 255 {
                        let a = u32::from(alpha);
                        out.iter_mut().for_each(|v| *v = mul255(u32::from(*v), a) as u8);
                    }
                }
            }
            Shape::Bitmap {
                alpha: texels,
                texel_to_anchor,
                quality,
            } => {
                let (tw, th) = (f64::from(texels.width()), f64::from(texels.height()));
                let corners = [
                    DVec2::ZERO,
                    DVec2::new(tw, 0.0),
                    DVec2::new(tw, th),
                    DVec2::new(0.0, th),
                ];
                self.quad.clear();
                self.quad
                    .push_contour(corners.iter().map(|c| texel_to_anchor.transform_point2(*c)), true);
                let quad = if whole {
                    &self.quad
                } else {
                    self.clipped.clear();
                    if let Some(c) = clip {
                        polygon::clip_to_rect(&self.quad, &c, &mut self.clipped);
                    }
                    &self.clipped
                };
                let rel = DAffine2 {
                    matrix2: texel_to_anchor.matrix2,
                    translation: snap(texel_to_anchor.translation - origin),
                };
                let [a, b, c, d, x, y] = rel.to_cols_array().map(|v| v as f32);
                let paint = Paint {
                    shader: Pattern::new(
                        texels.as_ref().as_ref(),
                        SpreadMode::Pad,
                        *quality,
                        1.0,
                        Transform::from_row(a, b, c, d, x, y),
                    ),
                    anti_alias,
                    blend_mode: BlendMode::Source,
                    ..Paint::default()
                };
                if let (Some(path), Some(mut pm), false) = (
                    snapped_path(quad, origin),
                    Pixmap::new(w, h),
                    matches!(paint.shader, Shader::SolidColor(_)),
                ) {
                    pm.fill(Color::TRANSPARENT);
                    pm.fill_path(&path, &paint, SkFillRule::Winding, Transform::identity(), None);
                    out = pm.data().chunks_exact(4).map(|px| px[3]).collect();
                }
            }
        }
        // Nothing drawn (an empty or degenerate path): all transparent.
        out.resize(w as usize * h as usize, 0);
        out
    }
}

/// Draws targets into alpha planes. Tiles of large items are kept in the stage's cache, so
/// that the next query over the same place does not draw them again.
pub(crate) struct Rasterizer<'a> {
    anti_alias: bool,
    cache: &'a RasterCache,
    scratch: Scratch,
}

impl Rasterizer<'_> {
    pub fn new(anti_alias: bool, cache: &RasterCache) -> Rasterizer<'_> {
        Rasterizer {
            anti_alias,
            cache,
            scratch: Scratch::default(),
        }
    }

    /// Writes the alpha of `target` over `region` into `out` (row-major, `region.width()`
    /// per row). Returns whether any pixel is not zero.
    pub fn plane(&mut self, target: &Prepared, region: PixelRect, out: &mut [u8]) -> bool {
        out.fill(0);
        let mut any = false;
        for (index, item) in target.items.as_slice().iter().enumerate() {
            let part = item.extent().intersect(&region);
            if part.is_empty() {
                continue;
            }
            match item {
                Item::Cached { raster, anchor } => {
                    any |= blend_rows(
                        out,
                        region,
                        &raster.alpha,
                        raster.rect.moved(*anchor),
                        part,
                        index == 0,
                    );
                }
                Item::Tiled(tiled) => {
                    let TiledItem {
                        key,
                        source,
                        shape,
                        alpha,
                        anchor,
                        rect,
                    } = &**tiled;
                    // Item tiles overlapping `part`, in the item's own tile grid.
                    let local = part.moved((-anchor.0, -anchor.1));
                    let (tx0, tx1) = (
                        (local.x0 - rect.x0) / ITEM_TILE,
                        (local.x1 - 1 - rect.x0) / ITEM_TILE,
                    );
                    let (ty0, ty1) = (
                        (local.y0 - rect.y0) / ITEM_TILE,
                        (local.y1 - 1 - rect.y0) / ITEM_TILE,
                    );
                    for ty in ty0..=ty1 {
                        for tx in tx0..=tx1 {
                            let tile = PixelRect {
                                x0: rect.x0 + tx * ITEM_TILE,
                                y0: rect.y0 + ty * ITEM_TILE,
                                x1: (rect.x0 + (tx + 1) * ITEM_TILE).min(rect.x1),
                                y1: (rect.y0 + (ty + 1) * ITEM_TILE).min(rect.y1),
                            };
                            let kept = self
                                .cache
                                .lock()
                                .tiles
                                .get(&(*key, tx, ty))
                                .map(|(p, _)| p.clone());
                            let pixels = match kept {
                                Some(pixels) => pixels,
                                None => {
                                    let pixels: Arc<[u8]> = self
                                        .scratch
                                        .render(shape, *alpha, tile, false, self.anti_alias)
                                        .into();
                                    let mut state = self.cache.lock();
                                    RasterCache::make_room(&mut state, pixels.len() + 64);
                                    state
                                        .tiles
                                        .insert((*key, tx, ty), (pixels.clone(), source.clone()));
                                    pixels
                                }
                            };
                            any |= blend_rows(out, region, &pixels, tile.moved(*anchor), part, false);
                        }
                    }
                }
            }
        }
        any
    }
}

/// Source-over of the part of `src` (pixels over `src_rect`) that lies in `part` onto `out`
/// (pixels over `region`).
fn blend_rows(
    out: &mut [u8],
    region: PixelRect,
    src: &[u8],
    src_rect: PixelRect,
    part: PixelRect,
    first: bool,
) -> bool {
    let over = src_rect.intersect(&part);
    if over.is_empty() {
        return false;
    }
    let (w, sw, n) = (
        region.width() as usize,
        src_rect.width() as usize,
        over.width() as usize,
    );
    let mut any = false;
    for y in over.y0..over.y1 {
        let s = (y - src_rect.y0) as usize * sw + (over.x0 - src_rect.x0) as usize;
        let d = (y - region.y0) as usize * w + (over.x0 - region.x0) as usize;
        let (dst, src) = (&mut out[d..d + n], &src[s..s + n]);
        if first {
            // Source-over onto nothing is the source itself.
            dst.copy_from_slice(src);
            any |= src.iter().any(|&v| v != 0);
        } else {
            any |= composite(dst, src);
        }
    }
    any
}

/// `v` snapped to the 1/QUANTUM grid.
fn snap(v: DVec2) -> DVec2 {
    (v * QUANTUM).round() / QUANTUM
}

/// The contours as a tiny-skia path, measured from `origin` and snapped, or `None` when
/// nothing is left.
fn snapped_path(polys: &Polylines, origin: DVec2) -> Option<tiny_skia::Path> {
    polys.to_skia_path(|p| snap(p - origin))
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn chunks_cover_negative_windows() {
        let w = PixelRect {
            x0: -130,
            y0: 5,
            x1: 1,
            y1: 6,
        };
        let t: Vec<_> = chunks(w, 128).collect();
        assert_eq!(t.len(), 3);
        assert_eq!((t[0].x0, t[0].x1), (-130, -128));
        assert_eq!((t[2].x0, t[2].x1), (0, 1));
    }

    #[test]
    fn mul255_rounds_exactly() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let want = ((a * b) as f64 / 255.0).round() as u32;
                assert_eq!(mul255(a, b), want, "{a} * {b}");
            }
        }
    }

    #[test]
    fn snapped_coordinates_survive_f32() {
        let v = snap(DVec2::new(1023.123456789, -2.000_4));
        assert_eq!(f64::from(v.x as f32), v.x);
        assert_eq!(f64::from(v.y as f32), v.y);
    }

    #[test]
    fn anchors_take_the_whole_pixels_of_the_translation() {
        let m = DAffine2::from_cols_array(&[2.0, 0.0, 0.0, 1.0, -3.25, 7.5]);
        let (anchor, rel) = anchored(&m);
        assert_eq!(anchor, (-4, 7));
        assert_eq!(rel.translation, DVec2::new(0.75, 0.5));
    }
}
