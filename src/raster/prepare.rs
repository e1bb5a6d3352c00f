//! A query target made ready: its items in paint order, each placed in its pose, taken from
//! the cache where an earlier query made it.

use std::sync::Arc;

use glam::{DAffine2, DVec2};

use super::bitmask::BitMask;
use super::budget::DrawBudget;
use super::cache::{CachedRaster, HashedKey, LocalKey, MaskRef, RasterCache, RasterKey};
use super::edges::{Edges, TooFar, snap};
use super::item::{Scratch, Shape};
use super::pygame_item::RenderedShape;
use super::sample::TexelMap;
use crate::geom::color::{ColorTransform, round_channel};
use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::rect::PixelRect;
use crate::geom::renderer::{BitmapRenderer, Rendered};
use crate::geom::shape::Leaf;
use crate::geom::transform::max_scale;
use crate::geom::whole::floor_small;
use crate::{Error, FillRule, Graphic, Result};

/// Curves and circles are flattened to within this distance, in the parent's pixels.
pub(crate) const FLATTEN_TOLERANCE: f64 = crate::geom::tolerance::RASTER;

/// Largest item drawn whole and cached for poses used more than once (4 MiB of alpha).
/// Larger items are computed in the query's window only, from their kept pose.
const WHOLE_ITEM_PIXELS: u128 = 1 << 22;

/// Anchors are clamped here so that pixel arithmetic stays exact in i64.
const ANCHOR_LIMIT: f64 = 4_503_599_627_370_496.0;

/// One item of a target, placed at its anchor (the whole-pixel part of its translation).
#[derive(Clone)]
pub(crate) enum Item {
    /// A whole raster from the cache.
    Raster {
        raster: Arc<CachedRaster>,
        anchor: (i64, i64),
    },
    /// A pose computed where a window needs it.
    Shape { shape: Arc<Shape>, anchor: (i64, i64) },
}

impl Item {
    /// The pixels it may touch in the parent's grid.
    pub fn extent(&self) -> PixelRect {
        match self {
            Item::Raster { raster, anchor } => raster.rect.moved(*anchor),
            Item::Shape { shape, anchor } => shape.rect().moved(*anchor),
        }
    }

    /// Its pose (a raster's is the one it was drawn from) and its anchor: what the compares
    /// decide their paths by, so that a raster goes the way its pose would.
    pub fn shape(&self) -> (&Shape, (i64, i64)) {
        match self {
            Item::Raster { raster, anchor } => (&raster.shape, *anchor),
            Item::Shape { shape, anchor } => (shape, *anchor),
        }
    }

    /// Its whole raster, when it has one: values read, not computed.
    pub fn raster(&self) -> Option<&CachedRaster> {
        match self {
            Item::Raster { raster, .. } => Some(raster),
            Item::Shape { .. } => None,
        }
    }
}

/// A target's items. Most targets are one sprite, so one item is kept inline and a query
/// on it allocates nothing.
#[derive(Clone)]
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

/// One piece of a clip's region, as the tree gives it (semantics.md 6).
#[derive(Clone, Copy, Debug)]
pub(crate) enum RegionPiece<'a> {
    /// A fill, by its own fill rule; its alpha does not count.
    Fill(&'a Graphic),
    /// A rectangle (a bitmap's, or a scroll window) of the space its matrix maps.
    Rect(crate::Rect),
}

/// One clip of an item, ready: its region's pieces, each an item of alpha 255, whose
/// source-over union is the coverage the item's value is multiplied by.
pub(crate) struct ClipRegion {
    pub items: Vec<Item>,
    /// Pixels where the region's coverage is 255 for certain (inside an axis-aligned
    /// rectangle piece, edges on the grid): there, multiplying by it changes nothing.
    pub solid: PixelRect,
}

/// Every clip over an item, innermost first: one clip's region and the list of the clips
/// outside it, shared with every item those alone clip. Nested scroll windows and masks
/// thus make one region per clip, not one per clip per leaf under it (2,900 nested scroll
/// windows made 4.2 million regions, 1.8 GB, before the budget saw them).
pub(crate) struct ClipShapes {
    pub region: ClipRegion,
    pub outer: Option<Arc<ClipShapes>>,
    /// The pixels the whole list can leave showing.
    pub extent: PixelRect,
    /// Where every region of the list is solid.
    pub solid: PixelRect,
}

impl ClipShapes {
    /// Every region of the list, innermost first (the order their products are rounded in).
    pub fn regions(&self) -> impl Iterator<Item = &ClipRegion> {
        std::iter::successors(Some(self), |c| c.outer.as_deref()).map(|c| &c.region)
    }
}

/// No pixels.
const NO_PIXELS: PixelRect = PixelRect {
    x0: 0,
    y0: 0,
    x1: 0,
    y1: 0,
};

/// Every pixel a query can name.
const ALL_PIXELS: PixelRect = PixelRect {
    x0: i64::MIN / 4,
    y0: i64::MIN / 4,
    x1: i64::MAX / 4,
    y1: i64::MAX / 4,
};

/// A target made ready to rasterize against one parent.
#[derive(Clone)]
pub(crate) struct Prepared {
    items: Items,
    /// The clips of the items that have any, by the item's index.
    clips: Vec<(usize, Arc<ClipShapes>)>,
    extent: Option<PixelRect>,
    anti_alias: bool,
    /// The query's epoch ([`RasterCache::query_epoch`]).
    epoch: u64,
    /// The clips of the item being added.
    clip_next: Option<Arc<ClipShapes>>,
    /// Draw every item that fits the pixel budget whole (see [`Prepared::add`]).
    draw_whole: bool,
    /// Whether an item that fit the pixel budget was left a window shape without being
    /// tried whole: preparing again with `draw_whole` would give a different target.
    could_draw_more: bool,
    /// Take only rasters the cache holds ([`Prepared::cached_only`]), and whether an item
    /// was left out for that.
    only_cached: bool,
    missed: bool,
    /// Its whole solid mask at a threshold, when a many-object query made one for it
    /// ([`Prepared::with_whole_mask`]).
    whole_mask: Option<(u8, Arc<BitMask>)>,
    /// The threshold of a whole mask a yes-or-no query makes band by band as its pairs
    /// need rows ([`Prepared::planned_lazily`]).
    lazy_whole: Option<u8>,
}

#[cfg(test)]
thread_local! {
    /// Pair setups on this thread that took both targets from the cache alone
    /// ([`Prepared::cached_only`], missing nothing).
    pub(crate) static SERVED_FROM_CACHE: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many pair setups on this thread took both targets from the cache alone.
#[cfg(test)]
pub(crate) fn served_from_cache() -> u64 {
    SERVED_FROM_CACHE.with(|n| n.get())
}

/// Splits a matrix into its anchor (the whole-pixel part of the translation) and the matrix
/// relative to it.
fn anchored(m: &DAffine2) -> ((i64, i64), DAffine2) {
    // The limit is whole, so clamping before the floor gives what clamping after would
    // (glam's clamp takes a NaN to the lower limit either way), without the library's
    // floor.
    let c = m
        .translation
        .clamp(DVec2::splat(-ANCHOR_LIMIT), DVec2::splat(ANCHOR_LIMIT));
    let whole = (floor_small(c.x), floor_small(c.y));
    let t = DVec2::new(whole.0 as f64, whole.1 as f64);
    // `+ 0.0` makes a -0.0 (a translation of -0.0 less 0.0) the 0.0 that the floor of
    // -0.0 gave: the matrix's bits are part of its pose's key.
    let rel = DAffine2 {
        matrix2: m.matrix2,
        translation: m.translation - t + DVec2::ZERO,
    };
    (whole, rel)
}

/// A leaf matrix's anchor and the bits of the matrix relative to it: what [`Prepared::add`]
/// places an item at and keys its raster by. Two matrices with the same bits here give the
/// same item, at anchors as far apart as theirs.
pub(crate) fn anchor_and_bits(m: &DAffine2) -> ((i64, i64), [u64; 6]) {
    let (anchor, rel) = anchored(m);
    (anchor, matrix_bits(&rel))
}

fn matrix_bits(m: &DAffine2) -> [u64; 6] {
    m.to_cols_array().map(f64::to_bits)
}

/// The flattening tolerance in an item's own units for a matrix that stretches by up to
/// `scale`: the largest power of two within [`FLATTEN_TOLERANCE`] in the parent's pixels
/// (to one part in a million), so that a sprite that only turns keeps its local geometry.
fn local_tolerance(scale: f64) -> f64 {
    let t = FLATTEN_TOLERANCE / scale * (1.0 + 1e-6);
    2f64.powi(t.log2().floor().clamp(-1000.0, 1000.0) as i32)
}

/// The error for geometry that lands too far from its item's origin.
fn too_far(target: impl FnOnce() -> String) -> Error {
    Error::NonFinite {
        what: format!(
            "geometry of {} lies more than 2^40 px from the item's position in the query's space",
            target()
        ),
    }
}

impl Prepared {
    /// A target with no items yet, for a query of `epoch`; with `draw_whole`, every item
    /// that fits the pixel budget is drawn whole ([`Prepared::add`]).
    pub fn new(anti_alias: bool, epoch: u64, draw_whole: bool) -> Prepared {
        Prepared {
            items: Items::Empty,
            clips: Vec::new(),
            extent: None,
            anti_alias,
            epoch,
            clip_next: None,
            draw_whole,
            could_draw_more: false,
            only_cached: false,
            missed: false,
            whole_mask: None,
            lazy_whole: None,
        }
    }

    /// A target that takes only whole rasters the cache holds: an item that would need
    /// drawing (or clipping) is left out and [`Prepared::missed`] says so, and the target
    /// is then not to be used. Everything it does take it takes as [`Prepared::new`]'s
    /// would, so a target that missed nothing is the same.
    pub fn cached_only(anti_alias: bool, epoch: u64) -> Prepared {
        Prepared {
            only_cached: true,
            ..Prepared::new(anti_alias, epoch, false)
        }
    }

    /// Whether every item is a whole raster from the cache and none is clipped: comparing
    /// such targets costs less than the near-miss outline test.
    pub fn only_rasters(&self) -> bool {
        self.clips.is_empty() && self.items().iter().all(|i| matches!(i, Item::Raster { .. }))
    }

    /// Whether a [`Prepared::cached_only`] target left an item out.
    pub fn missed(&self) -> bool {
        self.missed
    }

    /// For a [`Prepared::cached_only`] target, notes an item it leaves out and says `true`.
    pub fn give_up_if_cached_only(&mut self) -> bool {
        self.missed |= self.only_cached;
        self.only_cached
    }

    /// Whether preparing the target again with `draw_whole` would make more of its items
    /// whole rasters: an item fit the pixel budget but was computed in the window, its pose
    /// not seen in an earlier query (`query::pipeline` then retries a query over its work
    /// budget that way).
    pub fn could_draw_more(&self) -> bool {
        self.could_draw_more
    }

    /// Adds one leaf, drawn by `m` (to the query's parent) with colour transform `ct`,
    /// taking what it can from `cache`. `target` names the query target in errors.
    ///
    /// # Errors
    ///
    /// [`Error::GeometryBudget`] for geometry over its vertex budgets, [`Error::NonFinite`]
    /// for geometry too far from its position.
    #[allow(clippy::too_many_arguments)]
    pub fn add(
        &mut self,
        cache: &RasterCache,
        leaf: Leaf<'_>,
        m: &DAffine2,
        ct: &ColorTransform,
        clip: Option<&Arc<ClipShapes>>,
        budget: &mut DrawBudget,
        target: &dyn Fn() -> String,
    ) -> Result<()> {
        if m.matrix2.determinant() == 0.0 || clip.is_some_and(|c| c.extent.is_empty()) {
            return Ok(());
        }
        self.clip_next = clip.cloned();
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
                    source: g.content_id(),
                    kind,
                    extra: [width.to_bits(), 0],
                    matrix: matrix_bits(&rel),
                    alpha,
                    anti_alias: self.anti_alias,
                }
            }
            Leaf::Bitmap(bitmap, _, Some(rendered)) => {
                if !whole_pixel_translation(&rel) {
                    return Err(Error::RendererPlacement { node: target() });
                }
                rendered_key(bitmap, rendered, ct, self.anti_alias)
            }
            Leaf::Bitmap(bitmap, smoothing, None) => RasterKey {
                source: bitmap.id(),
                kind: 3 + u8::from(smoothing),
                extra: [ct.alpha_multiplier.to_bits(), ct.alpha_offset.to_bits()],
                matrix: matrix_bits(&rel),
                alpha: 255,
                anti_alias: self.anti_alias,
            },
        };
        // Hashed once for the lookups and the keeping below.
        let key = HashedKey::new(key);
        // Which items may be whole rasters is settled by the pixel budget alone, taken by
        // every item that could be one (not empty, not too large), in paint order, whether
        // its raster is cached, drawn now, or not drawn: so it never depends on the cache.
        let may_be_whole = |rect: PixelRect, budget: &mut DrawBudget| {
            !rect.is_empty() && rect.area() <= WHOLE_ITEM_PIXELS && budget.try_take_pixels(rect)
        };
        if let Some(raster) = cache.raster(&key) {
            budget.take_vertices(raster.shape.vertices(), target)?;
            if may_be_whole(raster.rect, budget) {
                self.push(Item::Raster { raster, anchor });
                return Ok(());
            }
            if self.give_up_if_cached_only() {
                return Ok(());
            }
            // No room for the whole raster in this query: its pixels are computed in the
            // window from its pose.
            let shape = raster.shape.clone();
            self.push(Item::Shape { shape, anchor });
            return Ok(());
        }
        if self.give_up_if_cached_only() {
            return Ok(());
        }
        let (shape, seen_before) = match cache.pose(&key) {
            Some((shape, epoch)) => {
                budget.take_vertices(shape.vertices(), target)?;
                (shape, epoch != self.epoch)
            }
            None => {
                // The `Arc` of a pose an age dropped, and its edge vector, when there is
                // one: a turning sprite's new pose allocates nothing.
                let mut spare = cache.spare_pose(matches!(leaf, Leaf::Graphic(_)));
                let room = spare
                    .as_mut()
                    .and_then(Arc::get_mut)
                    .map_or_else(Vec::new, Shape::take_room);
                let Some(shape) = build_shape(cache, leaf, &rel, ct, room, target)? else {
                    return Ok(());
                };
                budget.take_vertices(shape.vertices(), target)?;
                let shape = cache.new_pose(shape, spare);
                cache.keep_pose(key, shape.clone(), self.epoch);
                (shape, false)
            }
        };
        let rect = shape.rect();
        if may_be_whole(rect, budget) {
            // A pose seen by an earlier query (any pose, drawing whole) is drawn whole, to be
            // read from the cache from now on; one whose drawing goes over its own work
            // budget stays a window shape, as it does on every route.
            if seen_before || self.draw_whole {
                if let Some(alpha) = whole_raster(&shape, rect, self.anti_alias) {
                    let raster = Arc::new(CachedRaster::new(rect, alpha, shape));
                    cache.keep_raster(key, raster.clone());
                    self.push(Item::Raster { raster, anchor });
                    return Ok(());
                }
            } else {
                self.could_draw_more = true;
            }
        }
        self.push(Item::Shape { shape, anchor });
        Ok(())
    }

    fn push(&mut self, item: Item) {
        let clip = self.clip_next.take();
        let e = match &clip {
            Some(c) => item.extent().intersect(&c.extent),
            None => item.extent(),
        };
        // An item that draws nothing (all its edges horizontal) is left out, so that its
        // position cannot widen the extent.
        if e.is_empty() {
            return;
        }
        self.extent = Some(match self.extent {
            None => e,
            Some(a) => PixelRect {
                x0: a.x0.min(e.x0),
                y0: a.y0.min(e.y0),
                x1: a.x1.max(e.x1),
                y1: a.y1.max(e.y1),
            },
        });
        if let Some(c) = clip {
            self.clips.push((self.items.as_slice().len(), c));
        }
        self.items.push(item);
    }

    /// The clips of item `k`, if it has any.
    pub fn clip(&self, k: usize) -> Option<&ClipShapes> {
        if self.clips.is_empty() {
            return None;
        }
        self.clips
            .binary_search_by_key(&k, |(i, _)| *i)
            .ok()
            .map(|i| &*self.clips[i].1)
    }

    /// Whether any item is clipped: the fast paths, which read single items as runs or
    /// masks, then give way to compositing.
    pub fn clipped(&self) -> bool {
        !self.clips.is_empty()
    }

    /// One clip over an item made ready, inside the list `outer`: its region's pieces
    /// placed by their matrices (to the query's parent) with alpha 255.
    ///
    /// # Errors
    ///
    /// As [`Prepared::add`].
    pub fn clip_shapes(
        cache: &RasterCache,
        pieces: &[(RegionPiece<'_>, DAffine2)],
        outer: Option<Arc<ClipShapes>>,
        budget: &mut DrawBudget,
        target: &dyn Fn() -> String,
    ) -> Result<Arc<ClipShapes>> {
        let mut items = Vec::new();
        let mut extent: Option<PixelRect> = None;
        let mut solid = NO_PIXELS;
        for (piece, m) in pieces {
            if m.matrix2.determinant() == 0.0 {
                continue;
            }
            let (anchor, rel) = anchored(m);
            let shape = match piece {
                RegionPiece::Fill(g) => {
                    match build_shape(
                        cache,
                        Leaf::Graphic(g),
                        &rel,
                        &ColorTransform::IDENTITY,
                        Vec::new(),
                        target,
                    )? {
                        Some(Shape::Fill { edges, rule, .. }) => Shape::Fill {
                            edges,
                            rule,
                            alpha: 255,
                        },
                        _ => continue,
                    }
                }
                RegionPiece::Rect(r) => quad_shape(r, &rel, target)?,
            };
            // A piece solid over some pixels makes the union solid there (source-over
            // of 255 is 255): the largest such box is kept.
            if let Shape::Fill { edges, .. } = &shape {
                let inside = edges.solid_rect().moved(anchor);
                if inside.area() > solid.area() {
                    solid = inside;
                }
            }
            budget.take_vertices(shape.vertices(), target)?;
            let item = Item::Shape {
                shape: Arc::new(shape),
                anchor,
            };
            let e = item.extent();
            if e.is_empty() {
                continue;
            }
            extent = Some(extent.map_or(e, |a| PixelRect {
                x0: a.x0.min(e.x0),
                y0: a.y0.min(e.y0),
                x1: a.x1.max(e.x1),
                y1: a.y1.max(e.y1),
            }));
            items.push(item);
        }
        let (outer_extent, outer_solid) = outer
            .as_ref()
            .map_or((ALL_PIXELS, ALL_PIXELS), |o| (o.extent, o.solid));
        Ok(Arc::new(ClipShapes {
            region: ClipRegion { items, solid },
            outer,
            extent: extent.map_or(NO_PIXELS, |e| outer_extent.intersect(&e)),
            solid: outer_solid.intersect(&solid),
        }))
    }

    /// The pixels this target can touch in the parent's grid.
    pub fn extent(&self) -> Option<PixelRect> {
        self.extent
    }

    pub fn items(&self) -> &[Item] {
        self.items.as_slice()
    }

    /// Whether it is whole rasters the cache holds now, unclipped, each at `anchor`: a
    /// target that can be kept for asking again after a move (`query::kept_pair`).
    pub fn cached_rasters_at(&self, anchor: (i64, i64)) -> bool {
        self.whole_mask.is_none()
            && self.lazy_whole.is_none()
            && self.only_rasters()
            && self.items().iter().all(|i| match i {
                Item::Raster { raster, anchor: at } => raster.is_cached() && *at == anchor,
                Item::Shape { .. } => false,
            })
    }

    /// Whether every raster it holds is still held by the cache.
    pub fn rasters_cached(&self) -> bool {
        self.items()
            .iter()
            .all(|i| i.raster().is_some_and(CachedRaster::is_cached))
    }

    /// The same target moved by whole pixels: every item's anchor and the extent.
    pub fn moved(&self, (dx, dy): (i64, i64)) -> Prepared {
        let mut moved = self.clone();
        let shift = |item: &mut Item| match item {
            Item::Raster { anchor, .. } | Item::Shape { anchor, .. } => {
                *anchor = (anchor.0 + dx, anchor.1 + dy);
            }
        };
        match &mut moved.items {
            Items::Empty => {}
            Items::One(item) => shift(item),
            Items::Many(all) => all.iter_mut().for_each(shift),
        }
        moved.extent = moved.extent.map(|e| e.moved((dx, dy)));
        moved
    }

    /// Heap bytes it holds of its own (not the rasters, which the cache counts).
    pub fn own_bytes(&self) -> usize {
        let items = match &self.items {
            Items::Many(all) => all.capacity() * std::mem::size_of::<Item>(),
            Items::Empty | Items::One(_) => 0,
        };
        items + self.clips.capacity() * std::mem::size_of::<(usize, Arc<ClipShapes>)>()
    }

    pub fn anti_alias(&self) -> bool {
        self.anti_alias
    }

    /// The same target with its whole solid mask at `threshold` (in the parent's grid),
    /// made once for the many pairs of one query that read it.
    pub fn with_whole_mask(mut self, threshold: u8, mask: Arc<BitMask>) -> Prepared {
        self.whole_mask = Some((threshold, mask));
        self
    }

    /// The same target planned whole by a yes-or-no query at `threshold`, its mask made band
    /// by band as the pairs need rows (`query::lazy_mask`), not at once.
    pub fn planned_lazily(mut self, threshold: u8) -> Prepared {
        self.lazy_whole = Some(threshold);
        self
    }

    /// The threshold it was planned lazily at ([`Prepared::planned_lazily`]).
    pub fn lazy_whole(&self) -> Option<u8> {
        self.lazy_whole
    }

    /// For a target that is one whole cached raster, its solid pixels at `threshold` and
    /// where they sit; or a mask a many-object query made of the whole target: the whole
    /// answer of a query can then come from two masks.
    pub fn single_mask<'a>(
        &'a self,
        threshold: u8,
        cache: &RasterCache,
    ) -> Option<(MaskRef<'a>, (i64, i64))> {
        let whole = self.whole_mask.as_ref().map(|(t, mask)| (*t, &**mask));
        self.single_mask_with(whole, threshold, cache)
    }

    /// [`Prepared::single_mask`] with the whole mask `whole` (its threshold and the mask)
    /// in place of the target's own: a pair that reads a many-object query's memo by
    /// reference (`query::memo_answer`) has it beside the target, not in it.
    pub fn single_mask_with<'a>(
        &'a self,
        whole: Option<(u8, &'a BitMask)>,
        threshold: u8,
        cache: &RasterCache,
    ) -> Option<(MaskRef<'a>, (i64, i64))> {
        if let Some((t, mask)) = whole
            && t == threshold
        {
            return Some((MaskRef::First(mask), (0, 0)));
        }
        match self.items.as_slice() {
            [Item::Raster { raster, anchor }] if !self.clipped() => {
                Some((raster.mask(threshold, cache), *anchor))
            }
            _ => None,
        }
    }
}

/// Every pixel of `shape` over `rect` (relative to its anchor), row-major, or `None` when
/// that is over the work budget.
fn whole_raster(shape: &Shape, rect: PixelRect, anti_alias: bool) -> Option<Vec<u8>> {
    let w = rect.width() as usize;
    let mut out = vec![0u8; w * rect.height() as usize];
    let mut scratch = Scratch::default();
    shape.rows(rect, anti_alias, &mut scratch, |j, values| {
        let start = (j - rect.y0) as usize * w;
        out[start..start + w].copy_from_slice(values);
    });
    (!scratch.over_budget()).then_some(out)
}

/// The local geometry of a fill or a stroke, flattened for a matrix that stretches by up to
/// `scale`, from the cache.
fn local_geometry(
    cache: &RasterCache,
    g: &Graphic,
    scale: f64,
    target: &dyn Fn() -> String,
) -> Result<Arc<Polylines>> {
    let tol = local_tolerance(scale);
    let (kind, width) = match g {
        Graphic::Fill(f) => (f.rule() as u8, 0.0),
        Graphic::Stroke(s) => (2, s.width()),
    };
    let key: LocalKey = (g.content_id(), kind, width.to_bits(), tol.to_bits());
    let budget = polygon::MAX_OUTLINE_VERTICES as usize;
    cache.local(key, || {
        let mut polys = Polylines::default();
        let id = DAffine2::IDENTITY;
        let ok = match g {
            Graphic::Fill(f) => f.path().flatten_within(&id, tol, &mut polys, budget),
            Graphic::Stroke(s) => polygon::stroke_outline(s.path(), s.width(), &id, tol, &mut polys),
        };
        match (ok, g) {
            (true, _) => Ok(polys),
            (false, Graphic::Fill(_)) => Err(polygon::over_budget("a fill", target)),
            (false, Graphic::Stroke(_)) => Err(polygon::over_budget("a stroke", target)),
        }
    })
}

/// The pose of one leaf relative to its anchor (`rel`), or `None` when it draws nothing; a
/// fill's edges are made in the room of `room`.
fn build_shape(
    cache: &RasterCache,
    leaf: Leaf<'_>,
    rel: &DAffine2,
    ct: &ColorTransform,
    room: Vec<super::edges::Edge>,
    target: &dyn Fn() -> String,
) -> Result<Option<Shape>> {
    let alpha = |g: &Graphic| round_channel(ct.apply_alpha(g.alpha() * 255.0));
    Ok(Some(match leaf {
        Leaf::Graphic(g) => {
            let scale = max_scale(rel);
            if !(scale > 0.0 && scale.is_finite()) {
                return Ok(None);
            }
            let rule = match g {
                Graphic::Fill(f) => f.rule(),
                Graphic::Stroke(s) => {
                    polygon::check_outline(s.path(), s.width(), rel, FLATTEN_TOLERANCE, target)?;
                    FillRule::NonZero
                }
            };
            let local = local_geometry(cache, g, scale, target)?;
            let edges = Edges::from_contours_in(&local, rel, room).map_err(|TooFar| too_far(target))?;
            Shape::Fill {
                edges,
                rule,
                alpha: alpha(g),
            }
        }
        Leaf::Bitmap(bitmap, _, Some(rendered)) => {
            let (w, h) = rendered.size;
            if w == 0 || h == 0 {
                return Ok(None);
            }
            let quad = quad_edges([0.0, 0.0, f64::from(w), f64::from(h)], rel, target)?;
            let BitmapRenderer::Pygame(t) = rendered.renderer;
            let source = cache.rendered_texels(bitmap, t.op);
            Shape::Rendered(RenderedShape::new(bitmap, source, rendered, ct, quad))
        }
        Leaf::Bitmap(bitmap, smoothing, None) => {
            let Some(map) = TexelMap::new(rel) else {
                return Ok(None);
            };
            let (w, h) = (f64::from(bitmap.width()), f64::from(bitmap.height()));
            let quad = quad_edges([0.0, 0.0, w, h], rel, target)?;
            Shape::Bitmap {
                texels: cache.texels(bitmap, ct),
                map,
                smoothing,
                quad,
            }
        }
    }))
}

/// Whether `rel` (a matrix relative to its anchor) is the identity: the item is placed by a
/// whole-pixel translation, as a blit places a surface.
fn whole_pixel_translation(rel: &DAffine2) -> bool {
    rel.matrix2 == glam::DMat2::IDENTITY && rel.translation == DVec2::ZERO
}

/// The cache key of a rendered bitmap: its placement is the identity relative to its anchor,
/// so the matrix's words hold the renderer's parameters instead (angle, scale, flips, which
/// call, which flavour): a new angle is a new pose, never a stale one.
fn rendered_key(
    bitmap: &crate::Bitmap,
    rendered: &Rendered,
    ct: &ColorTransform,
    anti_alias: bool,
) -> RasterKey {
    let BitmapRenderer::Pygame(t) = rendered.renderer;
    let (flip_x, flip_y) = t.flips();
    RasterKey {
        source: bitmap.id(),
        kind: 5,
        extra: [ct.alpha_multiplier.to_bits(), ct.alpha_offset.to_bits()],
        matrix: [
            u64::from(t.angle().to_bits()),
            u64::from(t.scale().to_bits()),
            u64::from(flip_x) | u64::from(flip_y) << 1,
            u64::from(t.is_rotozoom()),
            t.flavour_of() as u64,
            0,
        ],
        alpha: 255,
        anti_alias,
    }
}

/// The outline of the rectangle `[left, top, right, bottom]` mapped by `rel`, snapped.
fn quad_edges([l, t, r, b]: [f64; 4], rel: &DAffine2, target: &dyn Fn() -> String) -> Result<Edges> {
    let corners = [
        DVec2::new(l, t),
        DVec2::new(r, t),
        DVec2::new(r, b),
        DVec2::new(l, b),
    ];
    // On the stack: a pose is made for every new pose of a turning sprite.
    let mut snapped = [(0, 0); 4];
    for (s, c) in snapped.iter_mut().zip(corners) {
        *s = snap(rel.transform_point2(c)).ok_or_else(|| too_far(target))?;
    }
    Ok(Edges::quad(snapped))
}

/// A rectangle of a clip's region as a fill of alpha 255.
fn quad_shape(r: &crate::Rect, rel: &DAffine2, target: &dyn Fn() -> String) -> Result<Shape> {
    Ok(Shape::Fill {
        edges: quad_edges([r.left(), r.top(), r.right(), r.bottom()], rel, target)?,
        rule: FillRule::NonZero,
        alpha: 255,
    })
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn anchors_take_the_whole_pixels_of_the_translation() {
        let m = DAffine2::from_cols_array(&[2.0, 0.0, 0.0, 1.0, -3.25, 7.5]);
        let (anchor, rel) = anchored(&m);
        assert_eq!(anchor, (-4, 7));
        assert_eq!(rel.translation, DVec2::new(0.75, 0.5));
    }

    /// The anchor and the matrix relative to it are the library floor's, clamped, over
    /// translations of every size, whole ones, and ones that are not finite.
    #[test]
    fn anchors_are_the_library_floor_clamped() {
        let library = |m: &DAffine2| {
            let t = m
                .translation
                .floor()
                .clamp(DVec2::splat(-ANCHOR_LIMIT), DVec2::splat(ANCHOR_LIMIT));
            ((t.x as i64, t.y as i64), m.translation - t)
        };
        let mut seed = 0x2545_f491_4f6c_dd1d_u64;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 7;
            seed ^= seed << 17;
            seed
        };
        let special = [
            f64::NAN,
            f64::INFINITY,
            f64::NEG_INFINITY,
            1e300,
            -1e300,
            -0.0,
            0.0,
        ];
        for k in 0..20_000 {
            let mut value = || match next() % 8 {
                0 => special[(next() % special.len() as u64) as usize],
                1 => (((next() >> 11) as f64) - (1u64 << 52) as f64).round(),
                _ => {
                    let mag = f64::from((next() % 64) as u32).exp2();
                    ((next() >> 11) as f64 / (1u64 << 53) as f64 - 0.5) * 2.0 * mag
                }
            };
            let m = DAffine2::from_cols_array(&[1.0, 0.0, 0.0, 1.0, value(), value()]);
            let (anchor, rel) = anchored(&m);
            let (want_anchor, want_t) = library(&m);
            assert_eq!(anchor, want_anchor, "case {k}: {m:?}");
            let same = |a: f64, b: f64| a.to_bits() == b.to_bits() || (a.is_nan() && b.is_nan());
            assert!(
                same(rel.translation.x, want_t.x) && same(rel.translation.y, want_t.y),
                "case {k}: {m:?}"
            );
        }
    }

    #[test]
    fn local_tolerance_is_a_power_of_two_within_the_parent_tolerance() {
        assert_eq!(local_tolerance(1.0), 1.0 / 128.0);
        assert_eq!(local_tolerance(1.0 + 1e-12), 1.0 / 128.0);
        assert_eq!(local_tolerance(3.0), 1.0 / 512.0);
        assert_eq!(local_tolerance(0.25), 1.0 / 32.0);
    }
}
