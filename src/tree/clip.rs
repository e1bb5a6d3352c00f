//! Masks and scroll rectangles on the tree (semantics.md section 6): setting them, where
//! they refuse, the box they leave visible, and whether a point is inside what they show.
//!
//! Drawing clipped content is the raster core's job ([`crate::raster`]); the walk that hands
//! every leaf its clips is [`crate::tree::walk`].

use glam::{DAffine2, DVec2};

use crate::geom::color::ColorTransform;
use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::shape::Leaf;
use crate::geom::tolerance;
use crate::geom::transform::invert;
use crate::raster::RegionPiece;
use crate::tree::links::Link;
use crate::tree::node::NodeId;
use crate::tree::walk::{Clip, Clips, Visit, Walk, each_clip};
use crate::{Error, FillRule, Graphic, Rect, Result, Stage};

/// A scroll rectangle's edges rounded to whole pixels, halves to even (Flash), sizes below
/// zero made zero. `None` when a value is not finite.
pub(crate) fn round_scroll_rect(x: f64, y: f64, w: f64, h: f64) -> Option<Rect> {
    let (left, top) = (x.round_ties_even(), y.round_ties_even());
    let right = (x + w).round_ties_even().max(left);
    let bottom = (y + h).round_ties_even().max(top);
    Rect::from_ltrb(left, top, right, bottom)
}

/// Both boxes' common part, edges included (a shared edge gives a box of no width), or
/// `None` when they do not touch.
fn common(a: &Rect, b: &Rect) -> Option<Rect> {
    Rect::from_ltrb(
        a.left().max(b.left()),
        a.top().max(b.top()),
        a.right().min(b.right()),
        a.bottom().min(b.bottom()),
    )
}

/// Masks and scroll rectangles: setting them and testing points against what they show.
impl Stage {
    /// The node whose region masks `node`, if any.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn mask(&self, node: NodeId) -> Result<Option<NodeId>> {
        Ok(self.node(node)?.mask)
    }

    /// The nodes that `mask` masks, in the order they were given it.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn masked_by(&self, mask: NodeId) -> Result<&[NodeId]> {
        Ok(&self.node(mask)?.masking)
    }

    /// Masks `node` (and its subtree) by `mask`'s region: the union of the fills of `mask`
    /// and its descendants (strokes do not mask, a bitmap masks with its rectangle), placed
    /// by `mask`'s own matrices wherever it is in the tree, its visibility, alpha and colour
    /// transforms ignored. `mask` is then never drawn, hit or picked itself. One node may
    /// mask several. `None` takes the mask away.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let portrait = stage.add_container(root)?;
    /// stage.add_graphic(portrait, Graphic::fill(Path::rect(0.0, 0.0, 100.0, 100.0), FillRule::NonZero, 1.0)?)?;
    /// let circle = stage.add_container(root)?;
    /// stage.add_graphic(circle, Graphic::fill(Path::circle(50.0, 50.0, 50.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_mask(portrait, Some(circle))?;
    /// assert!(stage.hit_test_point(portrait, 50.0, 50.0, true)?);
    /// assert!(!stage.hit_test_point(portrait, 2.0, 2.0, true)?); // in the box, not the circle
    /// assert!(!stage.hit_test_point(circle, 50.0, 50.0, true)?); // a mask is never hit
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::Mask`] when `mask` is `node`, inside `node` or holds it, when `mask` is itself
    /// masked or `node` is a mask, or for the root; [`Error::StaleNode`]. Nothing changes
    /// on error.
    pub fn set_mask(&mut self, node: NodeId, mask: Option<NodeId>) -> Result<()> {
        self.node(node)?;
        if let Some(m) = mask {
            self.node(m)?;
            let refuse = |reason| Error::Mask {
                node: self.describe(node),
                mask: self.describe(m),
                reason,
            };
            if node == self.root() {
                return Err(refuse("the root cannot be masked"));
            }
            if m == node {
                return Err(refuse("a node cannot mask itself"));
            }
            if self.is_ancestor(node, m)? {
                return Err(refuse("the mask is inside what it would mask"));
            }
            if self.is_ancestor(m, node)? {
                return Err(refuse("the mask holds what it would mask"));
            }
            if self.node(m)?.mask.is_some() {
                return Err(refuse("the mask is masked itself"));
            }
            if self.node(node)?.is_mask() {
                return Err(refuse("the node is a mask itself"));
            }
        }
        self.set_link(Link::Mask, node, mask)
    }

    /// Moving `id` under `new_parent` must not put a mask inside what it masks or around
    /// it: only pairs with one node in `id`'s subtree and the other above `new_parent` can
    /// change, so those are checked.
    pub(crate) fn check_masks_after_move(&self, id: NodeId, new_parent: NodeId) -> Result<()> {
        let mut cur = Some(new_parent);
        while let Some(a) = cur {
            let node = self.node(a)?;
            let inside = |other: NodeId| self.is_ancestor(id, other);
            let bad = match node.mask {
                Some(m) if inside(m)? => Some((a, m)),
                _ => None,
            };
            let bad = match bad {
                Some(b) => Some(b),
                None => {
                    let mut found = None;
                    for &n in &node.masking {
                        if inside(n)? {
                            found = Some((n, a));
                            break;
                        }
                    }
                    found
                }
            };
            if let Some((masked, mask)) = bad {
                return Err(Error::Mask {
                    node: self.describe(masked),
                    mask: self.describe(mask),
                    reason: "moving the node would put a mask and what it masks one inside the other",
                });
            }
            cur = node.parent;
        }
        Ok(())
    }

    /// The scroll window of `node` in its content space, edges whole pixels, if it has one.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn scroll_rect(&self, node: NodeId) -> Result<Option<Rect>> {
        Ok(self.node(node)?.scroll)
    }

    /// Gives `node` a scroll window `[x, y, w, h]` of its content space (`None` takes it
    /// away; sizes are not checked here, since a negative one is allowed and becomes zero). Each edge is rounded to a whole pixel, halves to even, as Flash does (left =
    /// round(x), right = round(x + w)); a size below zero becomes zero. The node's content
    /// then maps to its parent by `matrix x translate(-x, -y)` in every query, and shows only
    /// inside `[x, x + w) x [y, y + h)`. Unlike Flash, the change applies at once.
    ///
    /// ```
    /// use pixelhit::{DAffine2, DVec2, Rect, Stage};
    /// let mut stage = Stage::new();
    /// let pane = stage.add_container(stage.root())?;
    /// stage.set_matrix(pane, DAffine2::from_cols_array(&[1.3, 0.2, 0.1, 1.2, 40.0, 50.0]))?;
    /// stage.set_scroll_rect(pane, Some([50.0, 60.0, 50.0, 100.0]))?;
    /// let p = stage.local_to_global(pane, DVec2::new(10.0, 20.0))?;
    /// assert!((p - DVec2::new(-16.0, -6.0)).length() < 1e-9); // as Flash
    /// stage.set_scroll_rect(pane, Some([1.2, 1.2, 0.3, 0.3]))?;
    /// assert_eq!(stage.scroll_rect(pane)?, Rect::from_xywh(1.0, 1.0, 1.0, 1.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] when a value is not finite or an edge overflows, [`Error::Root`] for the
    /// root (its space is the stage's), [`Error::StaleNode`]. Nothing changes on error.
    pub fn set_scroll_rect(&mut self, node: NodeId, xywh: Option<[f64; 4]>) -> Result<()> {
        self.node(node)?;
        if node == self.root() && xywh.is_some() {
            return Err(Error::Root);
        }
        let rounded = match xywh {
            Some([x, y, w, h]) => Some(round_scroll_rect(x, y, w, h).ok_or_else(|| Error::NonFinite {
                what: format!("scroll rect of {}", self.describe(node)),
            })?),
            None => None,
        };
        self.node_mut(node)?.scroll = rounded;
        Ok(())
    }

    /// [`Stage::bounds`] cut by the boxes of every mask and scroll window that clips `node`
    /// (its own and its ancestors'), in `space`: what a layout or a culling pass needs.
    /// `None` when nothing of `node` can show.
    ///
    /// # Errors
    ///
    /// As [`Stage::bounds`].
    pub fn visible_bounds(&self, node: NodeId, space: NodeId) -> Result<Option<Rect>> {
        let Some(mut acc) = self.bounds(node, space)? else {
            return Ok(None);
        };
        let mut cur = Some(node);
        while let Some(n) = cur {
            let here = self.node(n)?;
            if n == self.root() {
                break;
            }
            if let Some(m) = here.mask {
                let Some(b) = self.bounds(m, space)? else {
                    return Ok(None);
                };
                let Some(c) = common(&acc, &b) else {
                    return Ok(None);
                };
                acc = c;
            }
            if let Some(window) = here.scroll {
                let m = self.matrix_between(n, space)?;
                let b = window.transform(m).ok_or_else(|| Error::NonFinite {
                    what: format!("scroll rect of {} in {}", self.describe(n), self.describe(space)),
                })?;
                let Some(c) = common(&acc, &b) else {
                    return Ok(None);
                };
                acc = c;
            }
            cur = here.parent;
        }
        Ok(Some(acc))
    }

    /// Visits the region of `mask` (semantics.md 6): its fills and its bitmaps' rectangles,
    /// each with its matrix into `space` (any node) after `pre`. Strokes, visibility and
    /// colour do not count.
    pub(crate) fn for_each_region_leaf<'s>(
        &'s self,
        mask: NodeId,
        space: NodeId,
        pre: DAffine2,
        mut f: impl FnMut(RegionPiece<'s>, &DAffine2) -> Result<()>,
    ) -> Result<()> {
        let m = pre * self.matrix_between(mask, space)?;
        self.walk_leaves(
            mask,
            mask,
            m,
            ColorTransform::IDENTITY,
            Walk::Region,
            |_, visit, m, _, _| match visit {
                Visit::Leaf(Leaf::Graphic(g @ Graphic::Fill(_))) => f(RegionPiece::Fill(g), m),
                Visit::Leaf(leaf @ Leaf::Bitmap(..)) => match leaf.centreline_box() {
                    Some(r) => f(RegionPiece::Rect(r), m),
                    None => Ok(()),
                },
                _ => Ok(()),
            },
        )
    }

    /// Whether the root-space point `p` is inside `mask`'s region. Point tests follow
    /// `hit_test_point`'s rules (fill rule, boundary rule).
    pub(crate) fn region_contains(&self, mask: NodeId, p: DVec2) -> Result<bool> {
        let mut hit = false;
        let mut polys = Polylines::default();
        let name = || self.describe(mask);
        let budget = polygon::MAX_OUTLINE_VERTICES as usize;
        self.for_each_region_leaf(mask, self.root(), DAffine2::IDENTITY, |leaf, m| {
            if hit || m.matrix2.determinant() == 0.0 {
                return Ok(());
            }
            hit = match leaf {
                RegionPiece::Fill(Graphic::Stroke(_)) => false,
                RegionPiece::Fill(g @ Graphic::Fill(_)) => {
                    polys.clear();
                    match g.outline(m, tolerance::POINT_TEST, budget, &mut polys) {
                        Ok(rule) => polygon::contains(&polys, p, rule),
                        Err(_) => return Err(polygon::over_budget("a mask's fill", name)),
                    }
                }
                // A window is tested exactly, not as a polygon.
                RegionPiece::Rect(r) => window_contains(&r, m, p),
            };
            Ok(())
        })?;
        Ok(hit)
    }

    /// Whether the root-space point `p` is shown through every clip of the list (clips of a
    /// walk whose space is the root and whose `pre` is the identity).
    pub(crate) fn clips_contain(&self, clips: &Clips, p: DVec2) -> Result<bool> {
        for clip in each_clip(clips) {
            let inside = match *clip {
                Clip::Window { rect, matrix } => window_contains(&rect, &matrix, p),
                Clip::Mask(m) => self.region_contains(m, p)?,
            };
            if !inside {
                return Ok(false);
            }
        }
        Ok(true)
    }
}

/// Whether `p` (in the space `matrix` maps the window's content space into) is inside the
/// window `[x, x + w) x [y, y + h)`.
pub(crate) fn window_contains(rect: &Rect, matrix: &DAffine2, p: DVec2) -> bool {
    invert(matrix).is_some_and(|inv| {
        let q = inv.transform_point2(p);
        q.x >= rect.left() && q.x < rect.right() && q.y >= rect.top() && q.y < rect.bottom()
    })
}

impl RegionPiece<'_> {
    /// The piece as contours appended to `out` in the space `m` maps to, and the fill rule
    /// to read them by: a fill flattened to within `tolerance`, a rectangle's four corners;
    /// `None` for a stroke, which is no part of a region. A fill whose geometry would pass
    /// the vertex budget adds nothing, for the drawing callers (the queries report it;
    /// point tests ask [`Graphic::outline`] to learn of it).
    pub(crate) fn outline(&self, m: &DAffine2, tolerance: f64, out: &mut Polylines) -> Option<FillRule> {
        match self {
            RegionPiece::Fill(g @ Graphic::Fill(_)) => {
                let budget = polygon::MAX_OUTLINE_VERTICES as usize;
                Some(g.outline(m, tolerance, budget, out).unwrap_or(g.fill_rule()))
            }
            RegionPiece::Fill(Graphic::Stroke(_)) => None,
            RegionPiece::Rect(r) => {
                out.push_contour(r.corners().map(|c| m.transform_point2(c)), true);
                Some(FillRule::NonZero)
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn scroll_rect_edges_round_halves_to_even_as_flash() {
        let r = |x, y, w, h| round_scroll_rect(x, y, w, h).unwrap().to_xywh();
        assert_eq!(r(0.2, 0.2, 0.3, 0.3), [0.0, 0.0, 0.0, 0.0]);
        assert_eq!(r(1.2, 1.2, 0.3, 0.3), [1.0, 1.0, 1.0, 1.0]);
        assert_eq!(r(2.2, 2.2, 0.3, 0.3), [2.0, 2.0, 0.0, 0.0]);
        assert_eq!(r(5.0, 5.0, -3.0, 2.0), [5.0, 5.0, 0.0, 2.0]);
        assert!(round_scroll_rect(f64::NAN, 0.0, 1.0, 1.0).is_none());
    }
}
