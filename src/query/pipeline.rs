//! The collision pipeline: a request is set up once (checks, bounds, pixel window, both
//! targets prepared) into a [`Setup`], and a [`PreparedPair`] is compared by its own calls.
//!
//! Every query that compares two targets' pixels comes through here: [`Stage::collision`]
//! and its relatives, the many-object queries with their contact details, the classic
//! methods that work on whole planes, the debug pictures' overlap, and, one target at a
//! time, [`Stage::alpha_plane`] and the radial profiles. What a target is (a node, in its
//! pose in the parent's space or in its own space) is a [`Target`], so that a query with a
//! pose of its own adds a [`Pose`] and nothing else changes. The Flash method
//! (`methods/flash.rs`) is the one that does not: it reproduces Flash's own recipe, bounds
//! and blend modes included, with tiny-skia.
//!
//! The steps:
//!
//! 1. [`Stage::setup_pair`]: both targets inside the parent, not skipped as hidden, their
//!    Flash bounds overlapping; not precise, that intersection is the answer
//!    ([`Setup::Loose`]); for the exact answer with the fast paths, a pair whose outlines
//!    are too far apart to share a pixel is [`Setup::Empty`] before anything is prepared
//!    ([`Stage::outlines_apart`], `near_miss.rs`); precise, the window of whole pixels both can touch, both targets'
//!    items prepared for it ([`Stage::prepare_target`]) and the alpha each needs to be solid
//!    ([`Setup::Pair`]).
//! 2. The compare, a call of the [`PreparedPair`]: [`PreparedPair::collision`] (cached bit
//!    masks a word at a time when both targets are one cached raster, the row scan
//!    otherwise), [`PreparedPair::scan`] (every shared pixel), [`PreparedPair::planes`] and
//!    [`PreparedPair::solid_planes`] (both planes over a region, for the methods and the
//!    contact details).
//!
//! Planes are drawn in one place, [`Stage::draw_planes`].

use std::collections::HashMap;
use std::sync::Arc;

use glam::DAffine2;

use crate::geom::rect::PixelRect;
pub(crate) use crate::query::options::threshold;
pub(crate) use crate::query::target::{Pose, Target};
use crate::query::target_memo::TargetMemo;
use crate::raster::bitmask::Overlap;
use crate::raster::{
    ClipShapes, DrawBudget, Item, MaskRef, Prepared, Rasterizer, RegionPiece, ScanBuffers, SpanTarget,
    dense_band_rows, spans_pay, with_scan_buffers,
};
use crate::raster::{PairKey, pair_key};
use crate::tree::walk::{Clip, ClipLink, Visit};
use crate::{Collision, CollisionOptions, Error, NodeId, Rect, Result, Stage};

/// Most bytes a method that works on whole planes of the window (every [`crate::Method`]
/// but `Exact`, which computes rows as it goes) may hold for them: 256 MiB.
pub const DENSE_BYTES: u64 = 1 << 28;

/// [`Error::PixelBudget`] when `pixels` at `bytes_per_pixel` would take more than
/// [`DENSE_BYTES`], or are more than `opts.max_pixels`.
pub(crate) fn dense_budget(pixels: u128, bytes_per_pixel: u64, opts: &CollisionOptions) -> Result<()> {
    let budget = (DENSE_BYTES / bytes_per_pixel.max(1)).min(opts.max_pixels);
    if pixels > u128::from(budget) {
        return Err(Error::PixelBudget { pixels, budget });
    }
    Ok(())
}

/// Where a pair's answer is kept for the frame (`RasterCache::pair`): the pair in its order,
/// the parent, and every option that can change the answer.
pub(crate) fn kept_answer_key(a: NodeId, b: NodeId, parent: NodeId, opts: &CollisionOptions) -> PairKey {
    let flags = u64::from(opts.precise)
        | u64::from(opts.anti_alias) << 1
        | u64::from(opts.skip_hidden) << 2
        | u64::from(opts.fast_paths) << 3
        | u64::from(opts.tolerance) << 8;
    pair_key(a.index(), b.index(), parent.index(), [flags, opts.max_pixels])
}

/// A pair query: two targets, the parent whose pixel grid they are compared in, and the
/// options.
#[derive(Clone, Copy, Debug)]
pub(crate) struct PairRequest<'o> {
    pub a: Target,
    pub b: Target,
    pub parent: NodeId,
    pub opts: &'o CollisionOptions,
    /// With the fast paths on, answer [`Setup::Empty`] before preparing anything when the
    /// targets' outlines are too far apart to share a pixel ([`Stage::outlines_apart`]).
    /// For the exact answer's queries; the methods keep every pair.
    pub reject_near_misses: bool,
    /// Prepare both targets with every item that fits the pixel budget drawn whole
    /// ([`Stage::run_pair`] asks again so when a compare runs out of work).
    pub draw_whole: bool,
    /// The many-object queries' memo of each target's bounds and preparation
    /// (`target_memo.rs`), for a and b. Given only by a query that has checked both
    /// targets are inside `parent` and, with `skip_hidden`, shown: the pair does not
    /// check again.
    pub memo: Option<(&'o TargetMemo, &'o TargetMemo)>,
}

impl<'o> PairRequest<'o> {
    /// `a` against `b`, both as the tree places them.
    pub fn new(a: NodeId, b: NodeId, parent: NodeId, opts: &'o CollisionOptions) -> PairRequest<'o> {
        PairRequest {
            a: Target::new(a),
            b: Target::new(b),
            parent,
            opts,
            reject_near_misses: false,
            draw_whole: false,
            memo: None,
        }
    }

    /// The request reading and filling `a`'s and `b`'s memos.
    pub fn with_memo(self, a: &'o TargetMemo, b: &'o TargetMemo) -> PairRequest<'o> {
        PairRequest {
            memo: Some((a, b)),
            ..self
        }
    }

    /// Whether the near-miss test may answer for this request over `window`: asked for,
    /// the fast paths on, both targets as the tree places them, and a window within the
    /// budget (one over it is left to the plain path, which refuses it; under it, nothing
    /// the rejection skips could have turned into an error but the geometry's own vertex
    /// budget, see `near_miss`).
    pub fn may_reject(&self, window: PixelRect) -> bool {
        self.reject_near_misses
            && self.opts.fast_paths
            && (self.a.pose, self.b.pose) == (Pose::InParent, Pose::InParent)
            && window.area() <= u128::from(self.opts.max_pixels)
    }

    /// The request with [`PairRequest::reject_near_misses`] on.
    pub fn rejecting_near_misses(self) -> PairRequest<'o> {
        PairRequest {
            reject_near_misses: true,
            ..self
        }
    }
}

/// What a pair query needs, worked out by [`Stage::setup_pair`].
// Boxing the large variant would cost an allocation per query; the value lives on the stack
// for the length of one query only.
#[allow(clippy::large_enum_variant)]
pub(crate) enum Setup {
    /// No pixel can overlap.
    Empty,
    /// Not precise: the intersection of the bounds is the answer.
    Loose(Rect),
    /// Precise: the two targets ready to compare.
    Pair(PreparedPair),
}

impl Setup {
    /// What [`Stage::collision`] answers for this setup: no overlap (a count of 0 when
    /// precise), the bounds' intersection without a count, or the prepared pair compared.
    pub fn collision(&self, stage: &Stage, opts: &CollisionOptions) -> Result<Collision> {
        match self {
            Setup::Empty => Ok(Collision {
                rect: None,
                overlap_pixels: opts.precise.then_some(0),
            }),
            Setup::Loose(r) => Ok(Collision {
                rect: Some(*r),
                overlap_pixels: None,
            }),
            Setup::Pair(pair) => pair.collision(stage, opts),
        }
    }

    /// The prepared pair, or nothing when there are no pixels to compare (no overlap
    /// possible, or a query that is not precise).
    pub fn pair(&self) -> Option<&PreparedPair> {
        match self {
            Setup::Pair(pair) => Some(pair),
            Setup::Empty | Setup::Loose(_) => None,
        }
    }
}

/// The lowest alpha that counts as solid in target a and in target b.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Thresholds {
    pub a: u8,
    pub b: u8,
}

/// Two targets ready to compare: the pixel window, both targets' items, and the lowest
/// alpha that is solid in each (the query's, or a target's own tolerance).
pub(crate) struct PreparedPair {
    /// The pixels of the parent's grid both targets can touch.
    pub window: PixelRect,
    pub a: Prepared,
    pub b: Prepared,
    pub thresholds: Thresholds,
    /// The nodes, for the messages of errors.
    nodes: (NodeId, NodeId),
}

/// Two targets' alpha planes over one pixel region.
pub(crate) struct Planes {
    /// The pixels of the planes, in the parent's grid.
    pub window: PixelRect,
    /// Target a's alpha, row-major.
    pub a: Vec<u8>,
    /// Target b's alpha, row-major.
    pub b: Vec<u8>,
}

/// The collision pipeline's steps on the stage (crate-internal).
impl Stage {
    /// Checks a pair query and works out what it needs: nothing (no overlap possible), the
    /// bounds' intersection (not precise), or the prepared pair.
    pub(crate) fn setup_pair(&self, req: &PairRequest<'_>) -> Result<Setup> {
        let PairRequest {
            a, b, parent, opts, ..
        } = *req;
        // A many-object query (the one giving memos) checked every object once, and left
        // out the hidden ones when asked to, on this same tree.
        if req.memo.is_none() {
            for t in [a.node, b.node] {
                if !self.is_ancestor(parent, t)? {
                    return Err(Error::NotDescendant {
                        node: self.describe(t),
                        ancestor: self.describe(parent),
                    });
                }
            }
            if self.skipped_as_hidden(a.node, b.node, opts)? {
                return Ok(Setup::Empty);
            }
        }
        let (ba, bb) = match req.memo {
            Some((ma, mb)) if (a.pose, b.pose) == (Pose::InParent, Pose::InParent) => {
                (self.memo_box(ma, &a, parent)?, self.memo_box(mb, &b, parent)?)
            }
            _ => (self.target_box(&a, parent)?, self.target_box(&b, parent)?),
        };
        let (Some(ba), Some(bb)) = (ba, bb) else {
            return Ok(Setup::Empty);
        };
        let Some(r) = ba.intersect(&bb) else {
            return Ok(Setup::Empty);
        };
        if !opts.precise {
            return Ok(Setup::Loose(r));
        }
        let window = self.pixel_window(&r, || {
            format!(
                "where {} and {} overlap in {}, in pixels",
                self.describe(a.node),
                self.describe(b.node),
                self.describe(parent)
            )
        })?;
        let epoch = self.cache.query_epoch(self.revision());
        let from_memo = match req.memo {
            Some(memos) if !req.draw_whole => {
                let may_reject = req.may_reject(window);
                self.memo_pair(memos, (&a, &b), parent, opts, may_reject, epoch)
            }
            _ => None,
        };
        let prepared = match from_memo {
            Some(prepared) => prepared,
            None => self.prepare_pair(req, epoch, window)?,
        };
        let Some((pa, pb)) = prepared else {
            return Ok(Setup::Empty);
        };
        let (Some(ea), Some(eb)) = (pa.extent(), pb.extent()) else {
            return Ok(Setup::Empty);
        };
        // Outside the pixels each target can touch its plane is empty, and every pixel's
        // value is independent of the window, so the window can shrink to them.
        let window = window.intersect(&ea).intersect(&eb);
        if window.is_empty() {
            return Ok(Setup::Empty);
        }
        if window.area() > u128::from(opts.max_pixels) {
            return Err(Error::PixelBudget {
                pixels: window.area(),
                budget: opts.max_pixels,
            });
        }
        let thresholds = Thresholds {
            a: threshold(self.target_tolerance(a.node, opts)?),
            b: threshold(self.target_tolerance(b.node, opts)?),
        };
        Ok(Setup::Pair(PreparedPair {
            window,
            a: pa,
            b: pb,
            thresholds,
            nodes: (a.node, b.node),
        }))
    }

    /// The box a target's pixels can be in, in `parent`'s space: its Flash bounds
    /// ([`Stage::bounds`]) in the tree's pose; in its own pose, the union of each drawn
    /// leaf's box mapped by its corners.
    pub(crate) fn target_box(&self, target: &Target, parent: NodeId) -> Result<Option<Rect>> {
        match target.pose {
            Pose::InParent => self.bounds(target.node, parent),
            Pose::Moved { to_parent } => match self.own_box(target.node)? {
                None => Ok(None),
                Some(local) => local
                    .transform(to_parent)
                    .map(Some)
                    .ok_or_else(|| Error::NonFinite {
                        what: format!(
                            "bounds of {} in {}",
                            self.describe(target.node),
                            self.describe(parent)
                        ),
                    }),
            },
            Pose::Own { pre } => {
                let mut acc: Option<Rect> = None;
                let id = crate::ColorTransform::IDENTITY;
                let own = self.own_clips(target.node, &pre)?;
                self.walk_leaves_clipped(
                    target.node,
                    target.node,
                    pre,
                    id,
                    own,
                    |leaf_id, visit, m, _, _| {
                        let Visit::Leaf(leaf) = visit else { return Ok(()) };
                        let Some(local) = leaf.flash_box() else {
                            return Ok(());
                        };
                        let mapped = local.transform(*m).ok_or_else(|| Error::NonFinite {
                            what: format!("bounds of {}", self.describe(leaf_id)),
                        })?;
                        acc = Some(acc.map_or(mapped, |a| a.union(&mapped)));
                        Ok(())
                    },
                )?;
                Ok(acc)
            }
        }
    }

    /// The whole pixels `r` touches, refused past 2^52, where an f64 no longer holds every
    /// whole pixel and a window would be cut short and miss pixels (issue 12).
    pub(crate) fn pixel_window(&self, r: &Rect, what: impl FnOnce() -> String) -> Result<PixelRect> {
        const EXACT_PIXELS: f64 = 4_503_599_627_370_496.0;
        let sides = [r.left(), r.top(), r.right(), r.bottom()];
        // One compare a side (a NaN passes, as `f64::max` below passes it over); the
        // farthest is worked out for the message only. A pair of a crowd asks here.
        if sides.iter().any(|v| v.abs() >= EXACT_PIXELS) {
            let far = sides.into_iter().fold(0.0f64, |m, v| m.max(v.abs()));
            return Err(Error::OutOfRange {
                what: what(),
                value: far,
                range: "-2^52..2^52, where an f64 holds every whole pixel",
            });
        }
        Ok(PixelRect::covering(r))
    }

    /// The tolerance `target`'s pixels are judged by: its own ([`Stage::set_tolerance`]),
    /// else the query's. Every method asks here, so that the rule is written once.
    pub(crate) fn target_tolerance(&self, target: NodeId, opts: &CollisionOptions) -> Result<u8> {
        Ok(self.node(target)?.tolerance.unwrap_or(opts.tolerance))
    }

    /// Whether `opts.skip_hidden` leaves the pair out: one of them is not shown. Every
    /// method asks here before it looks at pixels.
    pub(crate) fn skipped_as_hidden(&self, a: NodeId, b: NodeId, opts: &CollisionOptions) -> Result<bool> {
        Ok(opts.skip_hidden && !(self.is_shown(a)? && self.is_shown(b)?))
    }

    /// How errors name a query of `a` against `b`.
    pub(crate) fn pair_name(&self, a: NodeId, b: NodeId) -> String {
        format!("the pixels of {} against {}", self.describe(a), self.describe(b))
    }

    /// Both targets prepared for `window`, or `None` when their outlines are too far apart
    /// to share a pixel (with [`PairRequest::reject_near_misses`]).
    ///
    /// The rejection saves drawing; when every item of both targets is a raster the cache
    /// already holds, there is nothing to save, and comparing the cached masks costs less
    /// than mapping the outlines. So the targets are first prepared from the cache alone;
    /// only when that leaves something to draw is the outline test run, then both prepared
    /// in full. Either way the prepared targets are the same (a target served wholly by the
    /// cache takes the same route in full), and so is the answer.
    fn prepare_pair(
        &self,
        req: &PairRequest<'_>,
        epoch: u64,
        window: PixelRect,
    ) -> Result<Option<(Prepared, Prepared)>> {
        let PairRequest {
            a, b, parent, opts, ..
        } = *req;
        let reject = req.may_reject(window);
        if reject {
            let mut budget = DrawBudget::new(opts.max_pixels);
            let cached = |t: &Target, budget: &mut DrawBudget| {
                self.prepare_into(t, parent, Prepared::cached_only(opts.anti_alias, epoch), budget)
                    .ok()
                    .filter(|p| !p.missed())
            };
            if let Some(pa) = cached(&a, &mut budget)
                && let Some(pb) = cached(&b, &mut budget)
            {
                #[cfg(test)]
                crate::raster::SERVED_FROM_CACHE.with(|n| n.set(n.get() + 1));
                return Ok(Some((pa, pb)));
            }
            if self.outlines_apart(a.node, b.node, parent) {
                return Ok(None);
            }
        }
        let mut budget = DrawBudget::new(opts.max_pixels);
        let epoch = (epoch, req.draw_whole);
        let pa = self.prepare_target(&a, parent, opts.anti_alias, epoch, &mut budget)?;
        let pb = self.prepare_target(&b, parent, opts.anti_alias, epoch, &mut budget)?;
        Ok(Some((pa, pb)))
    }

    /// `target`'s visible leaves in its pose relative to `parent` (the caller has checked
    /// that `parent` is an ancestor), ready to rasterize, for a query of `epoch`; with
    /// `draw_whole`, every item that fits the pixel budget drawn whole (see
    /// [`Stage::run_prepared`]).
    pub(crate) fn prepare_target(
        &self,
        target: &Target,
        parent: NodeId,
        anti_alias: bool,
        (epoch, draw_whole): (u64, bool),
        budget: &mut DrawBudget,
    ) -> Result<Prepared> {
        self.prepare_into(
            target,
            parent,
            Prepared::new(anti_alias, epoch, draw_whole),
            budget,
        )
    }

    /// As [`Stage::prepare_target`], adding to `prepared` (which may take only what the
    /// cache holds: [`Prepared::cached_only`]).
    fn prepare_into(
        &self,
        target: &Target,
        parent: NodeId,
        mut prepared: Prepared,
        budget: &mut DrawBudget,
    ) -> Result<Prepared> {
        let node = target.node;
        let base_color = self.color_transform_to(node, parent)?;
        let name = || self.describe(node);
        // The leaves under one clip share its list, and a list shares its outer clips with
        // its parent's: each clip's shapes are made once per query, and each list's shapes
        // hold its outer list's (the list's link is kept, so that its address stays its own).
        let mut made: HashMap<*const ClipLink, (Arc<ClipLink>, Arc<ClipShapes>)> = HashMap::new();
        let (space, pre, clips) = match target.pose {
            Pose::InParent => {
                let pre = DAffine2::IDENTITY;
                match self.clips_above(node, parent, &pre)? {
                    Some(clips) => (parent, pre, clips),
                    None => return Ok(prepared),
                }
            }
            Pose::Own { pre } => (node, pre, self.own_clips(node, &pre)?),
            // Walked in its own space, placed by the pose.
            Pose::Moved { to_parent } => {
                match self.clips_above_posed(node, parent, Some(to_parent), &DAffine2::IDENTITY)? {
                    Some(clips) => (node, to_parent, clips),
                    None => return Ok(prepared),
                }
            }
        };
        // Where a mask's region is placed: a moved target carries the masks inside it; the
        // others stay put.
        let mask_space = |mask: NodeId| -> Result<(NodeId, DAffine2)> {
            Ok(match target.pose {
                Pose::Moved { .. } if !self.is_ancestor(target.node, mask)? => (parent, DAffine2::IDENTITY),
                _ => (space, pre),
            })
        };
        self.walk_leaves_clipped(node, space, pre, base_color, clips, |id, visit, m, ct, clips| {
            let Visit::Leaf(leaf) = visit else { return Ok(()) };
            if clips.is_some() && prepared.give_up_if_cached_only() {
                return Ok(());
            }
            let clip = match clips {
                None => None,
                Some(link) => Some(self.clip_shapes(link, &mask_space, &mut made, budget, &name)?),
            };
            // Multipliers that overflow down the tree make NaN, which would round to an
            // opaque alpha: refused, naming the node (issue 12).
            if !ct.is_finite() {
                return Err(Error::NonFinite {
                    what: format!(
                        "colour transform of {} relative to the query's space",
                        self.describe(id)
                    ),
                });
            }
            prepared.add(&self.cache, leaf, m, ct, clip.as_ref(), budget, &name)
        })?;
        Ok(prepared)
    }

    /// The shapes of a list of clips (a mask's pieces placed by their matrices into the
    /// space, and after the matrix, that `mask_space` gives for it), made for the links not made yet in this query, the outermost
    /// first.
    fn clip_shapes(
        &self,
        link: &Arc<ClipLink>,
        mask_space: &dyn Fn(NodeId) -> Result<(NodeId, DAffine2)>,
        made: &mut HashMap<*const ClipLink, (Arc<ClipLink>, Arc<ClipShapes>)>,
        budget: &mut DrawBudget,
        name: &dyn Fn() -> String,
    ) -> Result<Arc<ClipShapes>> {
        let mut todo = Vec::new();
        let mut cur = Some(link);
        let mut outer = None;
        while let Some(l) = cur {
            if let Some((_, shapes)) = made.get(&Arc::as_ptr(l)) {
                outer = Some(shapes.clone());
                break;
            }
            todo.push(l);
            cur = l.outer.as_ref();
        }
        for l in todo.into_iter().rev() {
            let pieces = match l.clip {
                Clip::Window { rect, matrix } => vec![(RegionPiece::Rect(rect), matrix)],
                Clip::Mask(mask) => {
                    let (space, pre) = mask_space(mask)?;
                    let mut pieces = Vec::new();
                    self.for_each_region_leaf(mask, space, pre, |piece, m| {
                        pieces.push((piece, *m));
                        Ok(())
                    })?;
                    pieces
                }
            };
            let shapes = Prepared::clip_shapes(&self.cache, &pieces, outer, budget, name)?;
            made.insert(Arc::as_ptr(l), (l.clone(), shapes.clone()));
            outer = Some(shapes);
        }
        Ok(outer.expect("a list has at least one link"))
    }

    /// Prepared targets' alpha planes over `region` (row-major), drawn by one rasterizer
    /// whose work budget they share: the one place planes are drawn. `name` says what was
    /// asked, in errors.
    pub(crate) fn draw_planes<const N: usize>(
        &self,
        targets: [&Prepared; N],
        region: PixelRect,
        name: impl FnOnce() -> String,
    ) -> Result<[Vec<u8>; N]> {
        let n = (region.width() * region.height()) as usize;
        let mut planes = std::array::from_fn(|_| vec![0u8; n]);
        let mut raster = Rasterizer::new();
        for (target, plane) in targets.into_iter().zip(&mut planes) {
            raster.plane(target, region, plane);
        }
        raster.check(name)?;
        Ok(planes)
    }

    /// Runs a query that prepares targets: `attempt(draw_whole)` prepares them (with
    /// [`Prepared::could_draw_more`] telling whether drawing whole would change them) and
    /// compares them. When the compare goes over the work budget and drawing whole would
    /// change the targets, the query is asked again with every item that fits the pixel
    /// budget drawn whole, and that is its answer or error. Every query that prepares
    /// targets comes through here ([`Stage::run_pair`], and the single-target ones), so
    /// that the outcome never depends on the cache.
    ///
    /// Why it does not: an item is a whole raster or a window shape depending on the cache
    /// (a raster kept by an earlier query, a pose seen before drawn whole now, or a pose
    /// computed in the window), and drawing whole costs work of its own budget, not the
    /// query's. But which items *may* be rasters is the pixel budget's alone, taken in the
    /// same order on every route ([`Prepared::add`]), and whether an item's whole drawing
    /// stays within its budget is the item's alone; so the targets prepared drawing whole
    /// hold as rasters every item that any route holds as one. The pixels are the same on
    /// every route, and a raster never costs a compare more work than the same item as a
    /// window shape: the compares choose their paths by the item's pose either way (its
    /// spans, its row hulls, single or not, clipped or not: `Item::shape`), a raster's
    /// values are read where a shape's are computed, and compositing costs the same for
    /// both; the one path only rasters take, two cached masks compared word by word, costs
    /// no work at all. So the targets drawn whole cost the least work of all routes: if
    /// they go over the budget, every route does, and the error is theirs (the same on
    /// every route, work count included, as the targets drawn whole are); if any route
    /// answers, they answer too, with the same pixels.
    ///
    /// `attempt` may run twice; what it did the first time must not matter (answers and
    /// pixels it passed on are the same the second time).
    pub(crate) fn run_prepared<T>(
        &self,
        draw_whole: bool,
        mut attempt: impl FnMut(bool) -> (Result<T>, bool),
    ) -> Result<T> {
        match attempt(draw_whole) {
            (Err(Error::WorkBudget { .. }), true) if !draw_whole => attempt(true).0,
            (outcome, _) => outcome,
        }
    }

    /// Sets up a pair request ([`Stage::setup_pair`]) and runs `compare` on it, with the
    /// retry of [`Stage::run_prepared`]: every query that compares two targets' pixels
    /// comes through here.
    pub(crate) fn run_pair<T>(
        &self,
        req: &PairRequest<'_>,
        mut compare: impl FnMut(Setup) -> Result<T>,
    ) -> Result<T> {
        self.run_prepared(req.draw_whole, |draw_whole| {
            match self.setup_pair(&PairRequest { draw_whole, ..*req }) {
                Err(e) => (Err(e), false),
                Ok(setup) => {
                    let more =
                        matches!(&setup, Setup::Pair(p) if p.a.could_draw_more() || p.b.could_draw_more());
                    (compare(setup), more)
                }
            }
        })
    }

    /// Prepares one target (relative to `parent`, which the caller has checked is an
    /// ancestor) and runs `draw` on it, with the retry of [`Stage::run_prepared`]: the
    /// queries of one target's pixels come through here.
    pub(crate) fn run_target<T>(
        &self,
        target: &Target,
        parent: NodeId,
        opts: &CollisionOptions,
        mut draw: impl FnMut(Prepared) -> Result<T>,
    ) -> Result<T> {
        self.run_prepared(false, |draw_whole| {
            let mut budget = DrawBudget::new(opts.max_pixels);
            let epoch = self.cache.query_epoch(self.revision());
            let how = (epoch, draw_whole);
            match self.prepare_target(target, parent, opts.anti_alias, how, &mut budget) {
                Err(e) => (Err(e), false),
                Ok(prepared) => {
                    let more = prepared.could_draw_more();
                    (draw(prepared), more)
                }
            }
        })
    }

    /// Calls `on_pixel(x, y)` for every pixel solid in both targets, row by row within each
    /// chunk. For a query that is not precise, returns the bounds' intersection instead.
    /// A scan over the work budget may be run again ([`Stage::run_prepared`]): `on_pixel`
    /// then sees the pixels of the first run again.
    pub(crate) fn scan_overlap(
        &self,
        a: NodeId,
        b: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        on_pixel: impl FnMut(i64, i64),
    ) -> Result<Option<Rect>> {
        let mut on_pixel = on_pixel;
        self.run_pair(&PairRequest::new(a, b, parent, opts), |setup| match setup {
            Setup::Empty => Ok(None),
            Setup::Loose(r) => Ok(Some(r)),
            Setup::Pair(pair) => {
                pair.scan(self, opts, &mut on_pixel)?;
                Ok(None)
            }
        })
    }
}

impl PreparedPair {
    /// Two targets prepared for `window`, judged by `thresholds`; `nodes` name them in errors.
    pub fn new(
        window: PixelRect,
        (a, b): (Prepared, Prepared),
        thresholds: Thresholds,
        nodes: (NodeId, NodeId),
    ) -> PreparedPair {
        PreparedPair {
            window,
            a,
            b,
            thresholds,
            nodes,
        }
    }

    /// How errors name this pair.
    pub fn name(&self, stage: &Stage) -> String {
        stage.pair_name(self.nodes.0, self.nodes.1)
    }

    /// The pixels solid in both targets, counted and bounded. Two targets that are one
    /// cached raster each (a sprite, a bitmap, a shape) compare their cached bit masks a
    /// word at a time; so do two targets that are each such a raster or one pose a kernel
    /// writes (`query::word_overlap`); anything else is scanned row by row
    /// ([`PreparedPair::scan`]).
    pub fn overlap(&self, stage: &Stage, opts: &CollisionOptions) -> Result<Overlap> {
        let t = self.thresholds;
        if opts.fast_paths {
            let masks = (
                self.a.single_mask(t.a, &stage.cache),
                self.b.single_mask(t.b, &stage.cache),
            );
            if let (Some((ma, at_a)), Some((mb, at_b))) = &masks {
                return Ok(ma.overlap_moved(*at_a, mb, *at_b, self.window));
            }
            if let Some(overlap) = self.word_overlap(stage, masks)? {
                return Ok(overlap);
            }
        }
        self.scan(stage, opts, |_, _| {})
    }

    /// [`PreparedPair::overlap`] as the answer of [`Stage::collision`].
    pub fn collision(&self, stage: &Stage, opts: &CollisionOptions) -> Result<Collision> {
        Ok(collision_of(self.overlap(stage, opts)?))
    }

    /// The pixels of the window solid in both targets, counted and bounded; `on_pixel(x, y)`
    /// is called for each of them, row by row. The window is taken in bands of rows; a band
    /// where the first target has no solid pixel is skipped before the second is computed.
    /// Each row is a list of solid intervals per target (runs for a single fill, so that the
    /// work grows with the edges rather than the area), and the two lists are intersected.
    /// Two single shapes of which one is a bitmap go row by row through their spans instead
    /// (`raster::span_scan`): values only where both can be non-zero.
    pub fn scan(
        &self,
        stage: &Stage,
        opts: &CollisionOptions,
        on_pixel: impl FnMut(i64, i64),
    ) -> Result<Overlap> {
        let name = || self.name(stage);
        with_scan_buffers(|buffers| {
            scan_with(
                self.window,
                (&self.a, &self.b),
                self.thresholds,
                opts,
                on_pixel,
                name,
                buffers,
            )
        })
    }

    /// Both targets' alpha planes over `region`, as drawn.
    pub fn planes(&self, stage: &Stage, region: PixelRect) -> Result<Planes> {
        let [a, b] = stage.draw_planes([&self.a, &self.b], region, || self.name(stage))?;
        Ok(Planes { window: region, a, b })
    }

    /// Both targets' alpha planes over the window, for the methods that work on whole
    /// planes, which compare both with the query's threshold. They hold `bytes_per_pixel`
    /// bytes per window pixel in all (the planes and what the method builds from them),
    /// which must fit in [`DENSE_BYTES`].
    ///
    /// # Errors
    ///
    /// [`Error::PixelBudget`] when the window has more pixels than `DENSE_BYTES /
    /// bytes_per_pixel` (or `opts.max_pixels`).
    pub fn solid_planes(
        &self,
        stage: &Stage,
        opts: &CollisionOptions,
        bytes_per_pixel: u64,
    ) -> Result<Planes> {
        dense_budget(self.window.area(), bytes_per_pixel, opts)?;
        let mut planes = self.planes(stage, self.window)?;
        // A target with a tolerance of its own has its plane made solid or empty by its own
        // threshold first.
        let query = opts.threshold();
        if self.thresholds != (Thresholds { a: query, b: query }) {
            for (plane, t) in [
                (&mut planes.a, self.thresholds.a),
                (&mut planes.b, self.thresholds.b),
            ] {
                plane.iter_mut().for_each(|v| *v = if *v >= t { 255 } else { 0 });
            }
        }
        Ok(planes)
    }
}

/// The answer of [`Stage::collision`] for the pixels solid in both targets.
#[inline]
pub(crate) fn collision_of(overlap: Overlap) -> Collision {
    Collision {
        rect: overlap.rect.and_then(PixelRect::to_rect),
        overlap_pixels: Some(overlap.count),
    }
}

/// A cached raster's mask and the anchor it sits at, when a target is one.
pub(crate) type PlacedMask<'a> = Option<(MaskRef<'a>, (i64, i64))>;

fn scan_with(
    window: PixelRect,
    (pa, pb): (&Prepared, &Prepared),
    t: Thresholds,
    opts: &CollisionOptions,
    mut on_pixel: impl FnMut(i64, i64),
    name: impl Fn() -> String,
    buffers: &mut ScanBuffers,
) -> Result<Overlap> {
    let ScanBuffers {
        raster,
        a: sa,
        b: sb,
        hull: hull_b,
        plane,
        spans,
        ..
    } = buffers;
    // The plain path (no fast paths): both targets composited into dense planes, pixel by
    // pixel, which the differential tests hold the runs and the hints to.
    let plain = !opts.fast_paths;
    let mut o = Overlap::default();
    let mut count = 0u64;
    let mut found = |y: i64, x0: i64, x1: i64| {
        count += (x1 - x0) as u64;
        let r = PixelRect {
            x0,
            y0: y,
            x1,
            y1: y + 1,
        };
        o.rect = Some(o.rect.map_or(r, |h| PixelRect {
            x0: h.x0.min(r.x0),
            y0: h.y0.min(r.y0),
            x1: h.x1.max(r.x1),
            y1: h.y1.max(r.y1),
        }));
        for x in x0..x1 {
            on_pixel(x, y);
        }
    };
    // Two single items, one a bitmap: each row's spans intersected first, values only
    // inside (see `spans_pay` for why two fills go as runs). An item that is a whole
    // raster goes the same way by its pose, its values read instead of computed.
    if let (false, Some(item_a), Some(item_b)) =
        (plain, Rasterizer::single_item(pa), Rasterizer::single_item(pb))
        && spans_pay(item_a.shape().0, item_b.shape().0)
    {
        fn target(item: &Item, threshold: u8) -> SpanTarget<'_> {
            let (shape, anchor) = item.shape();
            SpanTarget {
                shape,
                anchor,
                threshold,
                raster: item.raster(),
            }
        }
        let targets = (target(item_a, t.a), target(item_b, t.b));
        raster.span_scan(spans, window, targets, pa.anti_alias(), &mut found);
        raster.check(&name)?;
        o.count = count;
        return Ok(o);
    }
    let band_rows = if !plain && Rasterizer::has_runs(pa) && Rasterizer::has_runs(pb) {
        window.height()
    } else {
        dense_band_rows(window)
    } as i64;
    let mut y0 = window.y0;
    while y0 < window.y1 {
        let band = PixelRect {
            y0,
            y1: (y0 + band_rows).min(window.y1),
            ..window
        };
        y0 = band.y1;
        // Where b can have pixels at all, when that is cheap to know, bounds a's columns.
        let hint = (!plain && raster.hulls(pb, band, hull_b)).then_some(&*hull_b);
        raster.solid_rows(pa, band, t.a, plain, plane, sa, hint);
        raster.check(&name)?;
        if sa.is_empty() {
            continue;
        }
        let hint = (!plain).then_some(&*sa);
        raster.solid_rows(pb, band, t.b, plain, plane, sb, hint);
        raster.check(&name)?;
        for (k, y) in (band.y0..band.y1).enumerate() {
            let (ra, rb) = (sa.row(k), sb.row(k));
            let (mut i, mut j) = (0, 0);
            while i < ra.len() && j < rb.len() {
                let (x0, x1) = (ra[i].0.max(rb[j].0), ra[i].1.min(rb[j].1));
                if x0 < x1 {
                    found(y, x0, x1);
                }
                if ra[i].1 < rb[j].1 {
                    i += 1;
                } else {
                    j += 1;
                }
            }
        }
    }
    o.count = count;
    Ok(o)
}

#[cfg(test)]
mod tests {
    use crate::query::budget_tests::Rng;
    use crate::{Rect, Stage};

    /// A window is refused exactly where the farthest side, folded by `f64::max`, reaches
    /// 2^52, with that side in the message, over 20,000 random rectangles of every size.
    #[test]
    fn windows_are_refused_where_the_farthest_side_reaches_2_to_52() {
        const EXACT_PIXELS: f64 = 4_503_599_627_370_496.0;
        let stage = Stage::new();
        let mut rng = Rng(0x51de_5eed);
        let mut refused = 0;
        for _ in 0..20_000 {
            let mut value = || f64::from(rng.below(60) as u32).exp2() * rng.range(-1.0, 1.0);
            let (l, t) = (value(), value());
            let Some(r) = Rect::from_ltrb(l, t, l + value().abs(), t + value().abs()) else {
                continue;
            };
            let far = [r.left(), r.top(), r.right(), r.bottom()]
                .into_iter()
                .fold(0.0f64, |m, v| m.max(v.abs()));
            match stage.pixel_window(&r, || "the window".to_string()) {
                Ok(w) => {
                    assert!(far < EXACT_PIXELS, "{r:?}");
                    assert_eq!(w, crate::geom::rect::PixelRect::covering(&r));
                }
                Err(crate::Error::OutOfRange { value, .. }) => {
                    assert!(far >= EXACT_PIXELS && value.to_bits() == far.to_bits(), "{r:?}");
                    refused += 1;
                }
                Err(e) => panic!("{e}"),
            }
        }
        assert!(refused > 1_000, "{refused} refused");
    }
}
