//! The pick index: one walk of the tree that gives every node what Flash's rules ask of
//! its path to the root, and the root-space boxes of everything that can be under the mouse.
//!
//! Each fact is carried down from the parent, so the walk is linear in the tree and a pick
//! never walks a hit node's path again: before, each hit node recomputed its matrix to the
//! root once per scrolled ancestor (cubic in the depth of nested scroll windows) and walked
//! its path three more times (quadratic in the depth of nested filled containers).

use std::sync::Arc;

use glam::DAffine2;

use super::grid::Grid;
use crate::geom::renderer::Rendered;
use crate::geom::shape::Leaf;
use crate::geom::transform;
use crate::tree::node::{Node, NodeId, ShownBitmap};
use crate::tree::walk::{Clip, ClipLink, Clips};
use crate::{Error, Graphic, Rect, Result, Stage};

/// Slack added around every box in the index, in root pixels: a stroke is hit up to 0.5 px
/// from its centreline, and the boxes must never leave out a point the exact test takes.
const SLACK: f64 = 1.0;

/// No rank: a node that is not hidden, or an empty slot.
pub(crate) const NONE: u32 = u32::MAX;

/// What a box in the index stands for.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Entry {
    /// The node's own graphics or bitmap.
    Own(NodeId),
    /// The region of the hit area of the node (which replaces its own content).
    HitArea(NodeId),
}

impl Entry {
    pub fn node(self) -> NodeId {
        match self {
            Entry::Own(id) | Entry::HitArea(id) => id,
        }
    }
}

/// What the rules ask of one node's path to the root.
#[derive(Clone, Debug)]
pub(crate) struct Facts {
    /// Paint order: the node's rank in a pre-order walk.
    pub rank: u32,
    /// The rank of the last node of its subtree.
    pub last: u32,
    /// The rank of the deepest hidden node on its path (itself included, the root not),
    /// or [`NONE`].
    pub hidden: u32,
    /// Whether it is a mask or inside one (below the root): never drawn, hit or picked.
    pub in_mask: bool,
    /// Whose click a hit on its own content is before mouse-disabled nodes pass it up:
    /// the node itself when it is interactive, else the parent of the outermost
    /// non-interactive node on its path (rule 3).
    pub direct: NodeId,
    /// The outermost container above `direct` (the root included) with
    /// `mouse_children = false` (rule 5), or `direct`.
    pub owner: NodeId,
    /// Its content's matrix to the root.
    pub matrix: DAffine2,
    /// The masks and scroll windows over it, shared with its parent's list.
    pub clips: Clips,
}

/// What a node hands its children.
struct Down {
    id: NodeId,
    matrix: DAffine2,
    clips: Clips,
    hidden: u32,
    in_mask: bool,
    /// The parent of the outermost non-interactive node so far.
    direct: Option<NodeId>,
    /// The outermost container with `mouse_children = false` above that.
    owner: Option<NodeId>,
    /// The outermost node whose matrix to the root overflows, if any.
    overflow: Option<NodeId>,
}

/// The per-node facts and the boxes of everything that can be under the mouse.
#[derive(Debug)]
pub(crate) struct PickIndex {
    /// The tree's layout revision it was built at.
    revision: u64,
    /// By slot index; `None` for empty slots.
    facts: Vec<Option<Facts>>,
    /// What box `k` of the grid stands for.
    entries: Vec<Entry>,
    grid: Grid,
    /// Shown content that cannot be placed in the root's space (its matrix or its box
    /// overflows): its rank and the node to name. Picks refuse as the other queries do.
    unplaceable: Vec<(u32, NodeId)>,
}

fn link(outer: Clips, clip: Clip) -> Clips {
    Some(Arc::new(ClipLink { clip, outer }))
}

impl PickIndex {
    fn build(stage: &Stage) -> Result<PickIndex> {
        let root = stage.root();
        let root_node = stage.node(root)?;
        let mut facts: Vec<Option<Facts>> = Vec::new();
        let mut boxes = Vec::new();
        let mut entries = Vec::new();
        let mut unplaceable = Vec::new();
        let mut order = Vec::new();
        let mut stack = vec![Down {
            id: root,
            matrix: DAffine2::IDENTITY,
            clips: None,
            hidden: NONE,
            in_mask: false,
            direct: None,
            // Rule 5 holds for the root too: with `mouse_children = false` every hit is the
            // root's, which is never the target (rule 6).
            owner: (!root_node.mouse_children).then_some(root),
            overflow: None,
        }];
        while let Some(down) = stack.pop() {
            let id = down.id;
            let node = stage.node(id)?;
            let rank = order.len() as u32;
            order.push(id);
            let k = id.index() as usize;
            if facts.len() <= k {
                facts.resize(k + 1, None);
            }
            let direct = down.direct.unwrap_or(id);
            let hidden = match id != root && !node.visible {
                true => rank,
                false => down.hidden,
            };
            let shown = hidden == NONE && !down.in_mask;
            match own_box(node, &down.matrix) {
                Placed::Nothing => {}
                Placed::At(b) => {
                    boxes.push(b);
                    entries.push(Entry::Own(id));
                }
                Placed::Overflows if shown => unplaceable.push((rank, down.overflow.unwrap_or(id))),
                Placed::Overflows => {}
            }
            if let Some(h) = node.hit_area {
                match stage.bounds(h, root) {
                    Ok(Some(b)) => {
                        if let Some(b) = b.outset(SLACK) {
                            boxes.push(b);
                            entries.push(Entry::HitArea(id));
                        }
                    }
                    Ok(None) => {}
                    Err(Error::NonFinite { .. }) if shown => unplaceable.push((rank, h)),
                    Err(Error::NonFinite { .. }) => {}
                    Err(e) => return Err(e),
                }
            }
            for &c in node.children.iter().rev() {
                let child = stage.node(c)?;
                let matrix = down.matrix * child.content_matrix();
                let mut clips = down.clips.clone();
                if let Some(mask) = child.mask {
                    clips = link(clips, Clip::Mask(mask));
                }
                if let Some(rect) = child.scroll {
                    clips = link(clips, Clip::Window { rect, matrix });
                }
                let (direct, owner) = match down.direct {
                    Some(d) => (Some(d), down.owner),
                    None if !child.interactive => (Some(id), down.owner),
                    None => (None, down.owner.or((!child.mouse_children).then_some(c))),
                };
                let overflow = down.overflow.or((!transform::is_finite(&matrix)).then_some(c));
                stack.push(Down {
                    id: c,
                    matrix,
                    clips,
                    hidden,
                    in_mask: down.in_mask || child.is_mask(),
                    direct,
                    owner,
                    overflow,
                });
            }
            facts[k] = Some(Facts {
                rank,
                last: rank,
                hidden,
                in_mask: down.in_mask,
                direct,
                owner: down.owner.unwrap_or(direct),
                matrix: down.matrix,
                clips: down.clips,
            });
        }
        // Each subtree's last rank, children before parents.
        for &id in order.iter().rev() {
            let last = facts[id.index() as usize].as_ref().map_or(0, |f| f.last);
            if let Some(p) = stage.node(id)?.parent
                && let Some(pf) = facts[p.index() as usize].as_mut()
            {
                pf.last = pf.last.max(last);
            }
        }
        Ok(PickIndex {
            revision: stage.layout_revision(),
            facts,
            entries,
            grid: Grid::new(boxes),
            unplaceable,
        })
    }

    /// The entries whose boxes hold `p`.
    pub fn at(&self, p: glam::DVec2, mut f: impl FnMut(Entry)) {
        self.grid.at(p, |k| f(self.entries[k]));
    }

    /// The facts of a live node.
    pub fn facts(&self, node: NodeId) -> &Facts {
        self.facts[node.index() as usize]
            .as_ref()
            .expect("the index holds every live node")
    }

    /// Paint order of a node.
    pub fn rank(&self, node: NodeId) -> u32 {
        self.facts
            .get(node.index() as usize)
            .and_then(Option::as_ref)
            .map_or(NONE, |f| f.rank)
    }

    /// The first shown content in ranks `first..=last` that cannot be placed, if any.
    pub fn unplaceable_in(&self, first: u32, last: u32) -> Option<NodeId> {
        self.unplaceable
            .iter()
            .find(|(r, _)| (first..=last).contains(r))
            .map(|&(_, id)| id)
    }
}

/// Where a node's own content is.
enum Placed {
    Nothing,
    At(Rect),
    Overflows,
}

/// The root-space box of a node's own graphics or bitmap, grown by [`SLACK`].
fn own_box(node: &Node, m: &DAffine2) -> Placed {
    let (graphics, bitmap) = node.content.shown();
    let mut local: Option<Rect> = None;
    for g in graphics {
        let b = match g {
            Graphic::Fill(_) => g.path_box(),
            Graphic::Stroke(s) => g.path_box().and_then(|b| b.outset(s.width() / 2.0)),
        };
        if let Some(b) = b {
            local = Some(local.map_or(b, |a| a.union(&b)));
        }
    }
    if let Some(shown) = bitmap
        && let Some(b) = bitmap_box(&shown, node.renderer.as_ref())
    {
        local = Some(local.map_or(b, |a| a.union(&b)));
    }
    let Some(local) = local else {
        return Placed::Nothing;
    };
    if !transform::is_finite(m) {
        return Placed::Overflows;
    }
    match local.transform(m).and_then(|b| b.outset(SLACK)) {
        Some(b) => Placed::At(b),
        None => Placed::Overflows,
    }
}

/// The local box of a node's bitmap, at its frame's offset.
fn bitmap_box(shown: &ShownBitmap<'_>, renderer: Option<&Rendered>) -> Option<Rect> {
    let (x, y) = (f64::from(shown.offset.0), f64::from(shown.offset.1));
    let r = Leaf::Bitmap(shown.bitmap, shown.smoothing, renderer).centreline_box()?;
    Rect::from_ltrb(r.left() + x, r.top() + y, r.right() + x, r.bottom() + y)
}

/// The pick index of the stage, made again after the tree changed (crate-internal).
impl Stage {
    /// The index, built again when the tree changed since it was made (an edit of a
    /// bitmap's pixels leaves every box as it was, and the index too).
    pub(crate) fn pick_index(&self) -> Result<Arc<PickIndex>> {
        let revision = self.layout_revision();
        self.pick_index.get_or_make(
            |index: &PickIndex| index.revision == revision,
            || PickIndex::build(self),
        )
    }
}
