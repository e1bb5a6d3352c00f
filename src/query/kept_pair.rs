//! A pair asked again after a move (issue 29 item 4): [`Stage::collision`] keeps the setup
//! of a pair of whole cached rasters (both prepared targets, their local boxes and where
//! their leaves sat), and the next ask after the targets moved by whole pixels compares
//! the same rasters at the new anchors, without walking the targets or looking them up.
//!
//! # When a kept pair holds
//!
//! A pair is kept when it was set up precise with the fast paths, each target is a node
//! without children whose items are all whole rasters the cache holds, unclipped. Asked
//! again at a later revision, it holds when, for both targets:
//!
//! - the target node is the same live node, and its stamp (the revision of its last change
//!   of anything but its matrix: `Node::stamp`) and the stamps of every node between it
//!   and the parent are not newer than the kept pair; so its content, bitmap pixels,
//!   renderer, colour transforms, visibility, tolerance, masks, scroll windows, children
//!   and its path to the parent are as they were (a mask set on it, or on a node between,
//!   stamps that node; a change inside the mask node cannot reach an unclipped target);
//! - its leaf matrix, worked out from the tree now exactly as the walk does, has the same
//!   bits relative to its anchor (linear part and fractional translation): a fresh setup
//!   would look up the same rasters, at the new anchor;
//! - the cache still holds its rasters (their bytes are counted there);
//! - with `skip_hidden`, it is still shown (visibility above the parent is not stamped
//!   into the pair, so it is asked).
//!
//! Then the boxes are the kept local boxes mapped by the new matrices, as
//! [`Stage::bounds`] maps them (the kept box when the matrix is the kept one, the kept
//! linear extent plus the translation when only the translation moved), and the window
//! and the answer follow as in a fresh setup;
//! anything else (a failed check, a window over the budget) goes the fresh way, which
//! gives the answer or the error, and keeps the pair it sets up in place of the stale one
//! (written over it, so that a frame of turning sprites allocates nothing for it). A kept
//! pair is forgotten when its rasters leave the cache, and before an edit of a bitmap its
//! targets hold.

use glam::DAffine2;

use crate::query::pipeline::{PairRequest, Pose, PreparedPair, Setup, Thresholds, collision_of};
use crate::raster::{PairKey, Prepared, anchor_and_bits};
use crate::tree::node::Node;
use crate::tree::walk::{leaf_base, own_leaf_matrix};
use crate::{Collision, CollisionOptions, NodeId, Rect, Result, Stage};

/// One target of a kept pair, as it was set up.
struct KeptTarget {
    node: NodeId,
    prepared: Prepared,
    /// Where its leaves were anchored, and the bits of their matrix relative to it.
    anchor: (i64, i64),
    bits: [u64; 6],
    /// Its box in its own space ([`Stage::own_box`]), which [`Stage::bounds`] maps.
    local_box: Rect,
    /// Its matrix to the parent, as bits, and its box there, when it was kept: a target
    /// that has not moved since needs neither worked out again.
    matrix: [u64; 6],
    placed: Rect,
    /// The local box mapped by the matrix's linear part ([`Rect::linear_extent`]): a
    /// target that only moved needs the translation added.
    extent: Option<[f64; 4]>,
}

/// Where a childless target's leaves are anchored in the parent's grid and the bits of
/// their matrix relative to the anchor, for `m` its matrix to the parent: as the walk
/// works them out. `m` is finite (`Stage::matrix_to` checked it), and so is the identity
/// times it, which the walk checks.
fn own_leaves(node: &Node, m: DAffine2) -> ((i64, i64), [u64; 6]) {
    let base = leaf_base(&DAffine2::IDENTITY, m);
    anchor_and_bits(&own_leaf_matrix(node, &base))
}

/// Whether two runs of bits are the same, compared inline (an array's `==` calls
/// `memcmp`, which costs more than the six words).
fn same(a: &[u64], b: &[u64]) -> bool {
    a.len() == b.len() && a.iter().zip(b).all(|(x, y)| x == y)
}

/// What [`Stage::kept_answer`] found.
pub(crate) enum Kept {
    /// No pair kept.
    None,
    /// A pair kept that does not hold now.
    Stale,
    /// The answer from the pair kept.
    Answer(Result<Collision>),
}

/// A pair's setup kept for asking again after a move.
pub(crate) struct KeptPair {
    /// The tree revision it was set up at.
    revision: u64,
    parent: NodeId,
    targets: [KeptTarget; 2],
    thresholds: Thresholds,
}

#[cfg(test)]
thread_local! {
    /// Asks on this thread answered from a kept pair.
    static ANSWERED_KEPT: std::cell::Cell<u64> = const { std::cell::Cell::new(0) };
}

/// How many asks on this thread were answered from a kept pair.
#[cfg(test)]
pub(crate) fn answered_kept() -> u64 {
    ANSWERED_KEPT.with(std::cell::Cell::get)
}

/// Kept pairs: made after a fresh setup, checked and used before one (crate-internal).
impl Stage {
    /// The answer to `req` from the pair kept under `key`, when it holds (see the module's
    /// docs); else whether a pair was kept there at all.
    pub(crate) fn kept_answer(&self, key: &PairKey, req: &PairRequest<'_>) -> Kept {
        let Some(kept) = self.cache.kept_setup(key) else {
            return Kept::None;
        };
        let answer = kept
            .downcast_ref::<KeptPair>()
            .and_then(|kept| self.kept_answer_now(kept, req));
        #[cfg(test)]
        if answer.is_some() {
            ANSWERED_KEPT.with(|n| n.set(n.get() + 1));
        }
        answer.map_or(Kept::Stale, Kept::Answer)
    }

    fn kept_answer_now(&self, kept: &KeptPair, req: &PairRequest<'_>) -> Option<Result<Collision>> {
        let [ka, kb] = &kept.targets;
        if (ka.node, kb.node, kept.parent) != (req.a.node, req.b.node, req.parent) {
            return None;
        }
        let opts = req.opts;
        let (box_a, da) = self.kept_target_now(ka, kept)?;
        let (box_b, db) = self.kept_target_now(kb, kept)?;
        if opts.skip_hidden && self.skipped_as_hidden(ka.node, kb.node, opts).ok()? {
            return None;
        }
        // As `setup_pair` goes on from the two boxes.
        let empty = || Some(Setup::Empty.collision(self, opts));
        let Some(r) = box_a.intersect(&box_b) else {
            return empty();
        };
        let window = self.pixel_window(&r, String::new).ok()?;
        let window = window
            .intersect(&ka.prepared.extent()?.moved(da))
            .intersect(&kb.prepared.extent()?.moved(db));
        if window.is_empty() {
            return empty();
        }
        if window.area() > u128::from(opts.max_pixels) {
            return None;
        }
        let t = kept.thresholds;
        let masks = (
            ka.prepared.single_mask(t.a, &self.cache),
            kb.prepared.single_mask(t.b, &self.cache),
        );
        // Two single rasters, the common case, are compared as `PreparedPair::overlap`
        // compares them, without moving the prepared targets.
        if let (Some((ma, at_a)), Some((mb, at_b))) = masks {
            let shift = |(x, y): (i64, i64), (dx, dy): (i64, i64)| (x + dx, y + dy);
            let overlap = ma.overlap_moved(shift(at_a, da), &mb, shift(at_b, db), window);
            return Some(Ok(collision_of(overlap)));
        }
        let pair = PreparedPair::new(
            window,
            (ka.prepared.moved(da), kb.prepared.moved(db)),
            t,
            (ka.node, kb.node),
        );
        Some(pair.collision(self, opts))
    }

    /// A kept target's box in the parent's space and how far its leaves' anchor moved,
    /// when it holds.
    fn kept_target_now(&self, t: &KeptTarget, kept: &KeptPair) -> Option<(Rect, (i64, i64))> {
        let node = self.node(t.node).ok()?;
        if node.stamp > kept.revision || !node.children.is_empty() || !t.prepared.rasters_cached() {
            return None;
        }
        // The target (again, unless it is the parent) and every node between it and the
        // parent: unchanged but for their matrices, which are multiplied as they are now.
        let unchanged = |n: &Node| n.stamp <= kept.revision;
        let m = self.matrix_to_checked(t.node, kept.parent, unchanged).ok()??;
        let now = m.to_cols_array().map(f64::to_bits);
        if same(&now, &t.matrix) {
            return Some((t.placed, (0, 0)));
        }
        let (anchor, bits) = own_leaves(node, m);
        if !same(&bits, &t.bits) {
            return None;
        }
        // As `Rect::transform` maps the box: by the kept extent when the linear part is the
        // kept one.
        let placed = match t.extent {
            Some(e) if same(&now[..4], &t.matrix[..4]) && m.translation.is_finite() => {
                Rect::placed(e, m.translation)
            }
            _ => t.local_box.transform(m),
        };
        let moved = (anchor.0 - t.anchor.0, anchor.1 - t.anchor.1);
        Some((placed?, moved))
    }

    /// Keeps `setup`, just worked out fresh for `req` (`None`: it ended in an error), under
    /// `key` when it can be asked again after a move (see the module's docs); else forgets
    /// the pair kept there, when `stale` says there is one.
    pub(crate) fn keep_setup(&self, key: PairKey, req: &PairRequest<'_>, setup: Option<&Setup>, stale: bool) {
        match setup.and_then(|setup| self.keepable(req, setup)) {
            Some(kept) => {
                let bytes = std::mem::size_of::<KeptPair>()
                    + kept.targets.iter().map(|t| t.prepared.own_bytes()).sum::<usize>();
                self.cache.keep_setup(key, kept, bytes);
            }
            None if stale => self.cache.forget_setup(&key),
            None => {}
        }
    }

    fn keepable(&self, req: &PairRequest<'_>, setup: &Setup) -> Option<KeptPair> {
        let Setup::Pair(pair) = setup else { return None };
        let opts: &CollisionOptions = req.opts;
        let posed = (req.a.pose, req.b.pose) != (Pose::InParent, Pose::InParent);
        if !(opts.precise && opts.fast_paths) || posed || req.memo.is_some() {
            return None;
        }
        // Most fresh setups that cannot be kept hold an item computed in the window: they
        // go before anything is worked out.
        if !(pair.a.only_rasters() && pair.b.only_rasters()) {
            return None;
        }
        let target = |node: NodeId, prepared: &Prepared| -> Option<KeptTarget> {
            let n = self.node(node).ok()?;
            if !n.children.is_empty() {
                return None;
            }
            let m = self.matrix_to(node, req.parent).ok()?;
            let (anchor, bits) = own_leaves(n, m);
            if !prepared.cached_rasters_at(anchor) {
                return None;
            }
            let local_box = self.own_box(node).ok()??;
            Some(KeptTarget {
                node,
                prepared: prepared.clone(),
                anchor,
                bits,
                local_box,
                matrix: m.to_cols_array().map(f64::to_bits),
                placed: local_box.transform(m)?,
                extent: local_box.linear_extent(&m.matrix2),
            })
        };
        Some(KeptPair {
            revision: self.revision(),
            parent: req.parent,
            targets: [target(req.a.node, &pair.a)?, target(req.b.node, &pair.b)?],
            thresholds: pair.thresholds,
        })
    }
}
