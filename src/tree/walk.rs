//! Walking a target's subtree in paint order: each leaf with its matrix and colour transform
//! relative to a query's space, and the masks and scroll windows that clip it.
//!
//! Every query that draws, bounds or point-tests a subtree goes through [`Stage::walk_leaves`],
//! so that masks and scroll rectangles (semantics.md section 6) mean the same thing in all of
//! them. The walk is iterative: a tree 100,000 levels deep is fine.

use std::sync::Arc;

use glam::DAffine2;

use crate::geom::color::ColorTransform;
use crate::geom::shape::Leaf;
use crate::geom::transform;
use crate::tree::node::{Node, NodeId};
use crate::{Error, Rect, Result, Stage};

/// One thing that clips a leaf.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) enum Clip {
    /// Only inside this mask's region (its fills, placed by its own matrices).
    Mask(NodeId),
    /// Only inside `rect` of a scrolled node's content space, which `matrix` maps into the
    /// walk's space.
    Window { rect: Rect, matrix: DAffine2 },
}

/// The clips over a leaf, innermost first: a shared list, so that the leaves of one masked
/// node share it and a walk without masks allocates nothing for it.
#[derive(Debug)]
pub(crate) struct ClipLink {
    pub clip: Clip,
    pub outer: Clips,
}

/// See [`ClipLink`].
pub(crate) type Clips = Option<Arc<ClipLink>>;

/// Every clip of a list, innermost first.
pub(crate) fn each_clip(clips: &Clips) -> impl Iterator<Item = &Clip> {
    std::iter::successors(clips.as_deref(), |l| l.outer.as_deref()).map(|l| &l.clip)
}

fn with(outer: Clips, clip: Clip) -> Clips {
    Some(Arc::new(ClipLink { clip, outer }))
}

/// The matrix a walk starts from: `pre` times the target's matrix to the walk's space.
/// A kept pair (`query::kept_pair`) works its leaves' matrices out here too, so that they
/// are the walk's to the bit.
pub(crate) fn leaf_base(pre: &DAffine2, to_space: DAffine2) -> DAffine2 {
    *pre * to_space
}

/// The matrix of `node`'s own leaves when `m` is its matrix in the walk: `m` for its
/// graphics, the shown bitmap's (after its frame's offset) for a bitmap.
pub(crate) fn own_leaf_matrix(node: &Node, m: &DAffine2) -> DAffine2 {
    match node.content.shown() {
        (_, Some(b)) => b.matrix(m),
        (_, None) => *m,
    }
}

/// What a walk visits.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Visit<'a> {
    /// A fill, stroke or bitmap.
    Leaf(Leaf<'a>),
    /// In [`Walk::Boxes`], a scrolled node's window, which stands for all its content.
    Window(Rect),
}

/// How a walk treats visibility, masks and scroll rectangles.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) enum Walk {
    /// Bounds (semantics.md 3 and 6): every node counts, masks and hidden ones too, and a
    /// scrolled node's window replaces its content.
    Boxes,
    /// Drawing and point tests: hidden descendants and masks (with what is inside them) are
    /// left out, and each leaf comes with the clips over it. A target that is a mask, or is
    /// inside one below the query's space, draws nothing.
    Draw,
    /// A mask's region: every leaf of the subtree, hidden or not, unclipped (scroll offsets
    /// still place them).
    Region,
}

/// Walks over a target's leaves (crate-internal).
impl Stage {
    /// Visits the leaves of `target`'s subtree in paint order. `space` is the query's space:
    /// each leaf's matrix is `pre` times its matrix to `space`, its colour transform
    /// `base_color` then its own and those between it and `target`. In [`Walk::Draw`] the
    /// clips handed over are the target's own, those of its ancestors below `space`, and
    /// those inside the subtree; a [`Clip::Window`]'s matrix includes `pre`.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `space` is not above `target`, [`Error::NonFinite`]
    /// when a matrix overflows, and whatever `f` returns.
    pub(crate) fn walk_leaves<'s>(
        &'s self,
        target: NodeId,
        space: NodeId,
        pre: DAffine2,
        base_color: ColorTransform,
        walk: Walk,
        f: impl FnMut(NodeId, Visit<'s>, &DAffine2, &ColorTransform, &Clips) -> Result<()>,
    ) -> Result<()> {
        let clips = match walk {
            Walk::Draw => match self.clips_above(target, space, &pre)? {
                Some(clips) => clips,
                None => return Ok(()),
            },
            Walk::Boxes | Walk::Region => None,
        };
        self.walk_from(target, space, pre, base_color, walk, clips, f)
    }

    /// [`Stage::walk_leaves`] in [`Walk::Draw`] with the clips over `target` given by the
    /// caller instead of those above it (a target drawn in a pose of its own).
    pub(crate) fn walk_leaves_clipped<'s>(
        &'s self,
        target: NodeId,
        space: NodeId,
        pre: DAffine2,
        base_color: ColorTransform,
        clips: Clips,
        f: impl FnMut(NodeId, Visit<'s>, &DAffine2, &ColorTransform, &Clips) -> Result<()>,
    ) -> Result<()> {
        self.walk_from(target, space, pre, base_color, Walk::Draw, clips, f)
    }

    #[allow(clippy::too_many_arguments)]
    fn walk_from<'s>(
        &'s self,
        target: NodeId,
        space: NodeId,
        pre: DAffine2,
        base_color: ColorTransform,
        walk: Walk,
        clips: Clips,
        mut f: impl FnMut(NodeId, Visit<'s>, &DAffine2, &ColorTransform, &Clips) -> Result<()>,
    ) -> Result<()> {
        let base = leaf_base(&pre, self.matrix_to(target, space)?);
        // A node's first child is walked next without going through the stack (it would be
        // popped next), so the stack only allocates once a node has two children: a query
        // on a sprite of one container and its image allocates nothing here.
        let mut stack = Vec::new();
        let mut next = Some((target, base, base_color, clips));
        while let Some((id, m, ct, clips)) = next.take().or_else(|| stack.pop()) {
            let node = self.node(id)?;
            if !transform::is_finite(&m) {
                return Err(Error::NonFinite {
                    what: format!("matrix of {} relative to the query's space", self.describe(id)),
                });
            }
            if walk == Walk::Boxes
                && let Some(window) = node.scroll
            {
                f(id, Visit::Window(window), &m, &ct, &clips)?;
                continue;
            }
            let (graphics, bitmap) = node.content.shown();
            for g in graphics {
                f(id, Visit::Leaf(Leaf::Graphic(g)), &m, &ct, &clips)?;
            }
            if let Some(b) = bitmap {
                let bm = own_leaf_matrix(node, &m);
                let rendered = node.renderer.as_ref();
                f(
                    id,
                    Visit::Leaf(Leaf::Bitmap(b.bitmap, b.smoothing, rendered)),
                    &bm,
                    &ct,
                    &clips,
                )?;
            }
            for &c in node.children.iter().rev() {
                let child = self.node(c)?;
                let cm = m * child.content_matrix();
                let mut child_clips = clips.clone();
                if walk == Walk::Draw {
                    if !child.visible || child.is_mask() {
                        continue;
                    }
                    if let Some(mask) = child.mask {
                        child_clips = with(child_clips, Clip::Mask(mask));
                    }
                    if let Some(rect) = child.scroll {
                        child_clips = with(child_clips, Clip::Window { rect, matrix: cm });
                    }
                }
                // Children are visited in reverse, so the one held in `next` is always the
                // first child so far; the one it replaces goes on the stack above the rest.
                if let Some(later) = next.replace((c, cm, ct.concat(&child.color), child_clips)) {
                    stack.push(later);
                }
            }
        }
        Ok(())
    }

    /// The clips of `target` itself, in its own space after `pre` (scroll window inside,
    /// mask outside), whether or not it is a mask.
    pub(crate) fn own_clips(&self, target: NodeId, pre: &DAffine2) -> Result<Clips> {
        let node = self.node(target)?;
        let mut clips = None;
        if let Some(mask) = node.mask {
            clips = with(clips, Clip::Mask(mask));
        }
        if let Some(rect) = node.scroll {
            clips = with(clips, Clip::Window { rect, matrix: *pre });
        }
        Ok(clips)
    }

    /// The clips of `target` itself and of its ancestors below `space`, or `None` when one of
    /// them is a mask (its content is never drawn).
    pub(crate) fn clips_above(&self, target: NodeId, space: NodeId, pre: &DAffine2) -> Result<Option<Clips>> {
        self.clips_above_posed(target, space, None, pre)
    }

    /// [`Stage::clips_above`] with `posed`, when given, standing in for `target`'s matrix to
    /// `space` (a motion's pose, `src/motion/`): its own scroll window moves with it.
    ///
    /// With a pose (a motion query, which tests the target in many), the part above the
    /// target is made once per tree revision
    /// ([`AncestorClips`](crate::tree::ancestor_clips::AncestorClips)): only the target's own
    /// window moves with the pose.
    pub(crate) fn clips_above_posed(
        &self,
        target: NodeId,
        space: NodeId,
        posed: Option<DAffine2>,
        pre: &DAffine2,
    ) -> Result<Option<Clips>> {
        let Some(to_space) = posed.filter(|_| target != space && *pre == DAffine2::IDENTITY) else {
            return self.clips_walked(target, space, posed, pre);
        };
        let node = self.node(target)?;
        if node.is_mask() {
            return Ok(None);
        }
        let mut clips = match node.parent {
            None => None,
            Some(parent) => {
                let above = self
                    .ancestor_clips
                    .get_or_make(self.revision(), (parent, space), || {
                        self.clips_walked(parent, space, None, pre)
                    })?;
                match above {
                    Some(clips) => clips,
                    None => return Ok(None),
                }
            }
        };
        // As the walk below adds them: the mask, then the window innermost.
        if let Some(mask) = node.mask {
            clips = with(clips, Clip::Mask(mask));
        }
        if let Some(rect) = node.scroll {
            clips = with(
                clips,
                Clip::Window {
                    rect,
                    matrix: *pre * to_space,
                },
            );
        }
        Ok(Some(clips))
    }

    /// [`Stage::clips_above_posed`] walked up from `target`, every window's matrix made.
    pub(crate) fn clips_walked(
        &self,
        target: NodeId,
        space: NodeId,
        posed: Option<DAffine2>,
        pre: &DAffine2,
    ) -> Result<Option<Clips>> {
        let mut found = Vec::new();
        let mut cur = target;
        while cur != space {
            let node = self.node(cur)?;
            if node.is_mask() {
                return Ok(None);
            }
            if let Some(rect) = node.scroll {
                let to_space = match posed {
                    Some(m) if cur == target => m,
                    _ => self.matrix_to(cur, space)?,
                };
                found.push(Clip::Window {
                    rect,
                    matrix: *pre * to_space,
                });
            }
            if let Some(mask) = node.mask {
                found.push(Clip::Mask(mask));
            }
            let Some(parent) = node.parent else { break };
            cur = parent;
        }
        // Outermost first into the list, so that the innermost ends up at its head.
        Ok(Some(found.into_iter().rev().fold(None, with)))
    }
}
