//! `pick` and `objects_under_point`: the content near the point tested exactly, through
//! the clips over it, then Flash's rules.

use std::collections::HashMap;

use glam::DVec2;

use super::index::{Entry, NONE, PickIndex};
use super::options::PickOptions;
use crate::geom::shape::Leaf;
use crate::query::point::{BitmapHit, PointTest};
use crate::tree::clip::window_contains;
use crate::tree::node::NodeId;
use crate::tree::walk::{Clip, ClipLink, Clips};
use crate::{Error, Result, Stage};

/// Whether the point is inside each list of clips met so far in one query, by the list's
/// head: lists are shared down the tree, so each clip is tested once per query however many
/// nodes it clips.
#[derive(Default)]
struct ClipAnswers(HashMap<*const ClipLink, bool>);

/// Which object a point picks, and every object under a point.
impl Stage {
    /// Whether the root-space point `p` shows through every clip of the list.
    fn shows_through(&self, clips: &Clips, p: DVec2, known: &mut ClipAnswers) -> Result<bool> {
        // The links not tested yet, innermost first, down to the first one known.
        let mut todo: Vec<&ClipLink> = Vec::new();
        let mut cur = clips.as_deref();
        let mut outer_inside = true;
        while let Some(l) = cur {
            if let Some(&inside) = known.0.get(&std::ptr::from_ref(l)) {
                outer_inside = inside;
                break;
            }
            todo.push(l);
            cur = l.outer.as_deref();
        }
        for l in todo.into_iter().rev() {
            outer_inside = outer_inside
                && match l.clip {
                    Clip::Window { rect, matrix } => window_contains(&rect, &matrix, p),
                    Clip::Mask(m) => self.region_contains(m, p)?,
                };
            known.0.insert(std::ptr::from_ref(l), outer_inside);
        }
        Ok(outer_inside)
    }

    /// Whether `id`'s own content (its graphics or bitmap, not its children) is under the
    /// root-space point `p`, through every mask and scroll window over it.
    fn own_content_hit(
        &self,
        index: &PickIndex,
        id: NodeId,
        p: DVec2,
        test: &mut PointTest,
        known: &mut ClipAnswers,
    ) -> Result<bool> {
        let facts = index.facts(id);
        if facts.in_mask {
            return Ok(false);
        }
        let node = self.node(id)?;
        let (graphics, bitmap) = node.content.shown();
        let m = facts.matrix;
        let name = || self.describe(id);
        let mut on = false;
        for g in graphics {
            if test.leaf(Leaf::Graphic(g), &m, p, &name)? {
                on = true;
                break;
            }
        }
        if !on && let Some(b) = bitmap {
            let leaf = Leaf::Bitmap(b.bitmap, b.smoothing, node.renderer.as_ref());
            on = test.leaf(leaf, &b.matrix(&m), p, &name)?;
        }
        Ok(on && self.shows_through(&facts.clips, p, known)?)
    }

    /// The refusal for content that cannot be placed in the root's space.
    fn refuse_unplaceable(&self, id: NodeId) -> Error {
        Error::NonFinite {
            what: format!("matrix of {} relative to the root, to pick in", self.describe(id)),
        }
    }

    /// The node that a click at `(x, y)` (root space) goes to, as Flash decides
    /// (semantics.md 7), or `None` when only the root is there.
    ///
    /// In short: only visible objects inside their masks and scroll windows count; a
    /// container tries its interactive children from the top down before its own graphics
    /// and its non-interactive children (a Shape drawn over an interactive sibling does not
    /// take its click); a hit on non-interactive content goes to its parent; a hit on a node
    /// with `mouse_enabled = false` loses to any real hit below it and otherwise goes to the
    /// nearest mouse-enabled ancestor; `mouse_children = false` takes every hit inside a
    /// container for the container (for the root, whose hits are nobody's, every pick is
    /// `None`); masks and what is in them are never picked.
    ///
    /// The cost grows with the objects whose boxes hold the point and the depth of the tree
    /// there, not with the tree nor their product: the stage keeps an index of boxes and of
    /// each node's path to the root, built again (in time linear in the tree) at the first
    /// pick after a change.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, PickOptions, Stage};
    /// let mut stage = Stage::new();
    /// let button = stage.add_container(stage.root())?;
    /// let art = stage.add_container(button)?;
    /// stage.set_interactive(art, false)?; // a Flash Shape
    /// stage.add_graphic(art, Graphic::fill(Path::rect(0.0, 0.0, 80.0, 30.0), FillRule::NonZero, 1.0)?)?;
    /// assert_eq!(stage.pick(10.0, 10.0, &PickOptions::default())?, Some(button));
    /// assert_eq!(stage.pick(90.0, 10.0, &PickOptions::default())?, None);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a point that is not finite, or when shown content's matrix
    /// to the root overflows (as [`Stage::hit_test_point`] and [`Stage::bounds`] refuse it),
    /// naming the node; [`Error::GeometryBudget`] for geometry over its budgets.
    pub fn pick(&self, x: f64, y: f64, options: &PickOptions) -> Result<Option<NodeId>> {
        let p = DVec2::new(x, y);
        if !p.is_finite() {
            return Err(Error::NonFinite {
                what: format!("point ({x}, {y}) to pick at"),
            });
        }
        let index = self.pick_index()?;
        if let Some(bad) = index.unplaceable_in(0, NONE) {
            return Err(self.refuse_unplaceable(bad));
        }
        let mut test = PointTest::new(options.bitmap_hit);
        let mut known = ClipAnswers::default();
        let mut entries = Vec::new();
        index.at(p, |e| entries.push(e));
        // Each hit content makes a node hit "itself": the node whose click it is before the
        // rules about mouse-disabled nodes apply.
        let mut hit_self: Vec<NodeId> = Vec::new();
        for e in entries {
            let id = e.node();
            let facts = index.facts(id);
            if facts.in_mask || facts.hidden != NONE {
                continue;
            }
            let (direct, owner) = (facts.direct, facts.owner);
            // A node with a hit area is hit through it alone (and a container that takes
            // every hit inside it, through its own).
            let replaced = |n: NodeId| -> Result<bool> { Ok(self.node(n)?.hit_area.is_some()) };
            let counts = match e {
                Entry::Own(_) => !replaced(direct)? && (owner == direct || !replaced(owner)?),
                Entry::HitArea(_) => direct == id && (owner == direct || !replaced(owner)?),
            };
            if !counts {
                continue;
            }
            let hit = match e {
                Entry::Own(_) => self.own_content_hit(&index, id, p, &mut test, &mut known)?,
                Entry::HitArea(_) => match self.node(id)?.hit_area {
                    Some(h) => {
                        self.shows_through(&facts.clips, p, &mut known)? && self.region_contains(h, p)?
                    }
                    None => false,
                },
            };
            if hit {
                hit_self.push(owner);
            }
        }
        self.decide(&index, &hit_self)
    }

    /// Every object in `container`'s subtree (itself included) whose own content is under
    /// `(x, y)` (root space), bottom to top, each container before its children, as Flash's
    /// `getObjectsUnderPoint`. Hidden subtrees, masked-out content and masks are left out;
    /// mouse properties and hit areas do not matter. Bitmaps count where their texel shows.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let back = stage.add_container(root)?;
    /// stage.add_graphic(back, Graphic::fill(Path::rect(0.0, 0.0, 100.0, 100.0), FillRule::NonZero, 1.0)?)?;
    /// let front = stage.add_container(root)?;
    /// stage.add_graphic(front, Graphic::fill(Path::rect(40.0, 40.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// assert_eq!(stage.objects_under_point(root, 45.0, 45.0)?, vec![back, front]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a point that is not finite, or when shown content in the
    /// subtree cannot be placed (as [`Stage::pick`]); [`Error::StaleNode`].
    pub fn objects_under_point(&self, parent: NodeId, x: f64, y: f64) -> Result<Vec<NodeId>> {
        self.node(parent)?;
        let p = DVec2::new(x, y);
        if !p.is_finite() {
            return Err(Error::NonFinite {
                what: format!("point ({x}, {y}) under {}", self.describe(parent)),
            });
        }
        let index = self.pick_index()?;
        let top = index.facts(parent);
        let (first, last) = (top.rank, top.last);
        if let Some(bad) = index.unplaceable_in(first, last) {
            return Err(self.refuse_unplaceable(bad));
        }
        let mut test = PointTest::new(BitmapHit::default());
        let mut known = ClipAnswers::default();
        let mut entries = Vec::new();
        index.at(p, |e| entries.push(e));
        let mut found = Vec::new();
        for e in entries {
            let Entry::Own(id) = e else { continue };
            let facts = index.facts(id);
            // Inside the container's subtree, and no hidden node between them (the
            // container's own visibility and those above it do not count).
            let inside = (first..=last).contains(&facts.rank);
            let shown = facts.hidden == NONE || facts.hidden <= first;
            if inside && shown && self.own_content_hit(&index, id, p, &mut test, &mut known)? {
                found.push(id);
            }
        }
        found.sort_by_key(|&id| index.rank(id));
        found.dedup();
        Ok(found)
    }
}
