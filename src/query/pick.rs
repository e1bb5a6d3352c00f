//! Picking: which object gets the mouse (semantics.md section 7), the mouse properties it
//! reads, and `objects_under_point`.
//!
//! A pick costs in proportion to the objects near the point, not to the tree: the stage
//! keeps the root-space box of every node's own content in a grid ([`PickIndex`]), built
//! again at the first pick after a change. Only the content whose box holds the point is
//! tested exactly, and Flash's rules then run over those nodes and their ancestors alone.

use std::collections::HashMap;
use std::sync::Arc;

use glam::{DAffine2, DVec2};

use crate::geom::shape::Leaf;
use crate::query::point::{BitmapHit, PointTest};
use crate::tree::links::Link;
use crate::tree::node::{Content, NodeId};
use crate::{Error, Graphic, Rect, Result, Stage};

/// How [`Stage::pick`] decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PickOptions {
    /// When a bitmap is hit: where its texel shows (the default, as
    /// [`Stage::hit_test_point`]) or anywhere on its rectangle (Flash).
    pub bitmap_hit: BitmapHit,
}

impl PickOptions {
    /// Sets [`PickOptions::bitmap_hit`].
    pub fn bitmap_hit(mut self, bitmap_hit: BitmapHit) -> Self {
        self.bitmap_hit = bitmap_hit;
        self
    }
}

/// Slack added around every box in the index, in root pixels: a stroke is hit up to 0.5 px
/// from its centreline, and the boxes must never leave out a point the exact test takes.
const SLACK: f64 = 1.0;

/// Boxes covering more grid cells than this are kept in a list tested at every pick (a
/// background, a full-screen panel): few, and cheaper than filling many cells.
const MAX_CELLS_PER_BOX: u64 = 64;

/// What a box in the index stands for.
#[derive(Clone, Copy, Debug)]
enum Entry {
    /// The node's own graphics or bitmap.
    Own(NodeId),
    /// The region of the hit area of the node (which replaces its own content).
    HitArea(NodeId),
}

/// The root-space boxes of everything that can be under the mouse, in a uniform grid.
#[derive(Debug)]
pub(crate) struct PickIndex {
    revision: u64,
    /// Paint order: a node's rank in a pre-order walk of the tree, by slot index.
    rank: Vec<u32>,
    boxes: Vec<(Rect, Entry)>,
    big: Vec<u32>,
    origin: DVec2,
    cell: f64,
    columns: u64,
    rows: u64,
    /// Cell `k`'s boxes are `items[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl PickIndex {
    fn build(stage: &Stage) -> Result<PickIndex> {
        let mut rank = Vec::new();
        let mut boxes = Vec::new();
        let mut next = 0u32;
        // Pre-order, with each node's content matrix to the root carried down.
        let mut stack = vec![(stage.root(), DAffine2::IDENTITY)];
        while let Some((id, m)) = stack.pop() {
            let node = stage.node(id)?;
            let k = id.index() as usize;
            if rank.len() <= k {
                rank.resize(k + 1, u32::MAX);
            }
            rank[k] = next;
            next += 1;
            if let Some(b) = own_box(stage, id, &m) {
                boxes.push((b, Entry::Own(id)));
            }
            if let Some(h) = node.hit_area
                && let Some(b) = stage
                    .bounds(h, stage.root())
                    .ok()
                    .flatten()
                    .and_then(|b| b.outset(SLACK))
            {
                boxes.push((b, Entry::HitArea(id)));
            }
            for &c in node.children.iter().rev() {
                let child = stage.node(c)?;
                stack.push((c, m * child.content_matrix()));
            }
        }
        let mut index = PickIndex {
            revision: stage.revision(),
            rank,
            boxes,
            big: Vec::new(),
            origin: DVec2::ZERO,
            cell: 1.0,
            columns: 0,
            rows: 0,
            starts: Vec::new(),
            items: Vec::new(),
        };
        index.grid();
        Ok(index)
    }

    /// Puts every box into the grid's cells (about one cell per box over their union).
    fn grid(&mut self) {
        let Some(all) = self.boxes.iter().map(|(b, _)| *b).reduce(|a, b| a.union(&b)) else {
            self.starts = vec![0];
            return;
        };
        let n = self.boxes.len() as f64;
        self.cell = ((all.width() * all.height() / n).sqrt()).max(1.0);
        self.origin = DVec2::new(all.left(), all.top());
        self.columns = ((all.width() / self.cell).ceil() as u64).clamp(1, 4096);
        self.rows = ((all.height() / self.cell).ceil() as u64).clamp(1, 4096);
        self.cell = self
            .cell
            .max(all.width() / self.columns as f64)
            .max(all.height() / self.rows as f64);
        let cells = (self.columns * self.rows) as usize;
        let mut counts = vec![0u32; cells + 1];
        let mut placed = Vec::with_capacity(self.boxes.len());
        for (k, (b, _)) in self.boxes.iter().enumerate() {
            let (c0, r0) = self.cell_of(DVec2::new(b.left(), b.top()));
            let (c1, r1) = self.cell_of(DVec2::new(b.right(), b.bottom()));
            if (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_CELLS_PER_BOX {
                self.big.push(k as u32);
                continue;
            }
            for r in r0..=r1 {
                for c in c0..=c1 {
                    counts[(r * self.columns + c) as usize] += 1;
                }
            }
            placed.push((k as u32, c0, r0, c1, r1));
        }
        let mut starts = Vec::with_capacity(cells + 1);
        let mut sum = 0u32;
        for c in &counts {
            starts.push(sum);
            sum += c;
        }
        let mut fill = starts.clone();
        let mut items = vec![0u32; sum as usize];
        for (k, c0, r0, c1, r1) in placed {
            for r in r0..=r1 {
                for c in c0..=c1 {
                    let cell = (r * self.columns + c) as usize;
                    items[fill[cell] as usize] = k;
                    fill[cell] += 1;
                }
            }
        }
        self.starts = starts;
        self.items = items;
    }

    /// The cell holding `p`, clamped into the grid.
    fn cell_of(&self, p: DVec2) -> (u64, u64) {
        let q = (p - self.origin) / self.cell;
        let clamp = |v: f64, n: u64| (v.floor().max(0.0) as u64).min(n - 1);
        (clamp(q.x, self.columns), clamp(q.y, self.rows))
    }

    /// The entries whose boxes hold `p`.
    fn at(&self, p: DVec2, mut f: impl FnMut(Entry)) {
        let mut each = |k: u32| {
            let (b, e) = self.boxes[k as usize];
            if b.contains(p) {
                f(e);
            }
        };
        for &k in &self.big {
            each(k);
        }
        if self.columns == 0 {
            return;
        }
        let q = (p - self.origin) / self.cell;
        if q.x < 0.0 || q.y < 0.0 || q.x >= self.columns as f64 || q.y >= self.rows as f64 {
            return;
        }
        let cell = (q.y as u64 * self.columns + q.x as u64) as usize;
        for &k in &self.items[self.starts[cell] as usize..self.starts[cell + 1] as usize] {
            each(k);
        }
    }

    fn rank(&self, id: NodeId) -> u32 {
        self.rank.get(id.index() as usize).copied().unwrap_or(u32::MAX)
    }
}

/// The root-space box of a node's own graphics or bitmap, grown by [`SLACK`].
fn own_box(stage: &Stage, id: NodeId, m: &DAffine2) -> Option<Rect> {
    let node = stage.node(id).ok()?;
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
    if let Some((bm, _)) = bitmap
        && let Some(b) = Rect::from_ltrb(0.0, 0.0, f64::from(bm.width()), f64::from(bm.height()))
    {
        local = Some(local.map_or(b, |a| a.union(&b)));
    }
    local?.transform(m)?.outset(SLACK)
}

/// What a subtree answers when asked who takes a click (Flash's rules 4 and 5).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Answer {
    Miss,
    /// Something inside was hit, but no mouse-enabled node there takes it.
    PassUp,
    Hit(NodeId),
}

/// The mouse: picking, objects under a point, and the mouse properties.
impl Stage {
    /// The index, built again when the tree changed since it was made.
    fn pick_index(&self) -> Result<Arc<PickIndex>> {
        let revision = self.revision();
        self.pick_index.get_or_make(
            |index: &PickIndex| index.revision == revision,
            || PickIndex::build(self),
        )
    }

    /// Whether `id`'s own content (its graphics or bitmap, not its children) is under the
    /// root-space point `p`, through every mask and scroll window over it.
    fn own_content_hit(&self, id: NodeId, p: DVec2, test: &mut PointTest) -> Result<bool> {
        let node = self.node(id)?;
        let (graphics, bitmap) = node.content.shown();
        let Some(clips) = self.clips_above(id, self.root(), &DAffine2::IDENTITY)? else {
            return Ok(false);
        };
        let m = self.matrix_to(id, self.root())?;
        let name = || self.describe(id);
        let mut on = false;
        for g in graphics {
            if test.leaf(Leaf::Graphic(g), &m, p, &name)? {
                on = true;
                break;
            }
        }
        if !on && let Some((bm, smoothing)) = bitmap {
            on = test.leaf(Leaf::Bitmap(bm, smoothing), &m, p, &name)?;
        }
        Ok(on && self.clips_contain(&clips, p)?)
    }

    /// Whether `id` and its ancestors below `top` are all visible (`top`'s own visibility
    /// and those above it do not count).
    fn shown_below(&self, id: NodeId, top: NodeId) -> Result<bool> {
        let mut cur = id;
        while cur != top {
            let node = self.node(cur)?;
            if !node.visible {
                return Ok(false);
            }
            match node.parent {
                Some(p) => cur = p,
                None => break,
            }
        }
        Ok(true)
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
    /// container for the container; masks and what is in them are never picked.
    ///
    /// The cost grows with the objects whose boxes hold the point, not with the tree: the
    /// stage keeps an index of boxes, built again (in time linear in the tree) at the first
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
    /// [`Error::NonFinite`] for a point that is not finite, [`Error::GeometryBudget`] for
    /// geometry over its budgets.
    pub fn pick(&self, x: f64, y: f64, options: &PickOptions) -> Result<Option<NodeId>> {
        let p = DVec2::new(x, y);
        if !p.is_finite() {
            return Err(Error::NonFinite {
                what: format!("point ({x}, {y}) to pick at"),
            });
        }
        let index = self.pick_index()?;
        let root = self.root();
        let mut test = PointTest::new(options.bitmap_hit);
        let mut entries = Vec::new();
        index.at(p, |e| entries.push(e));
        // Each hit content makes a node hit "itself": the node whose click it is before the
        // rules about mouse-disabled nodes apply.
        let mut hit_self: Vec<NodeId> = Vec::new();
        for e in entries {
            let id = match e {
                Entry::Own(id) | Entry::HitArea(id) => id,
            };
            let Some((direct, owner)) = self.owner_of_content(id)? else {
                continue;
            };
            // A node with a hit area is hit through it alone (and a container that takes
            // every hit inside it, through its own).
            let replaced = |n: NodeId| -> Result<bool> { Ok(self.node(n)?.hit_area.is_some()) };
            let counts = match e {
                Entry::Own(_) => !replaced(direct)? && (owner == direct || !replaced(owner)?),
                Entry::HitArea(_) => direct == id && (owner == direct || !replaced(owner)?),
            };
            if !counts || !self.shown_below(id, root)? {
                continue;
            }
            let hit = match e {
                Entry::Own(_) => self.own_content_hit(id, p, &mut test)?,
                Entry::HitArea(_) => match (
                    self.node(id)?.hit_area,
                    self.clips_above(id, root, &DAffine2::IDENTITY)?,
                ) {
                    (Some(h), Some(clips)) => self.clips_contain(&clips, p)? && self.region_contains(h, p)?,
                    _ => false,
                },
            };
            if hit {
                hit_self.push(owner);
            }
        }
        self.decide(&index, &hit_self)
    }

    /// Who a hit on `id`'s own content belongs to, before mouse-disabled nodes pass it up:
    /// `(direct, owner)`. `direct` is `id` when it is interactive, else the parent of the
    /// outermost non-interactive node around it (rule 3); `owner` is the outermost
    /// container above with `mouse_children = false` (rule 5), or `direct`. `None` when
    /// `id` is a mask or inside one (rule 7).
    fn owner_of_content(&self, id: NodeId) -> Result<Option<(NodeId, NodeId)>> {
        let mut path = Vec::new();
        let mut cur = Some(id);
        while let Some(c) = cur {
            path.push(c);
            cur = self.node(c)?.parent;
        }
        path.reverse();
        let (mut direct, mut owner) = (None, None);
        for (i, &n) in path.iter().enumerate().skip(1) {
            let node = self.node(n)?;
            if node.is_mask() {
                return Ok(None);
            }
            if direct.is_none() {
                if !node.interactive {
                    direct = Some(path[i - 1]);
                } else if !node.mouse_children && owner.is_none() {
                    owner = Some(n);
                }
            }
        }
        let direct = direct.unwrap_or(id);
        Ok(Some((direct, owner.unwrap_or(direct))))
    }

    /// Flash's rules over the nodes hit themselves and their ancestors only: each container
    /// tries its hit children from the top down, a real hit wins at once, and a hit that
    /// passes up makes the container hit itself.
    fn decide(&self, index: &PickIndex, hit_self: &[NodeId]) -> Result<Option<NodeId>> {
        let root = self.root();
        if hit_self.is_empty() {
            return Ok(None);
        }
        let mut selves: HashMap<NodeId, ()> = HashMap::new();
        let mut children: HashMap<NodeId, Vec<NodeId>> = HashMap::new();
        for &n in hit_self {
            selves.insert(n, ());
            let mut cur = n;
            while cur != root {
                let Some(parent) = self.node(cur)?.parent else {
                    break;
                };
                let list = children.entry(parent).or_default();
                let known = list.contains(&cur);
                if !known {
                    list.push(cur);
                }
                if known {
                    break;
                }
                cur = parent;
            }
        }
        for list in children.values_mut() {
            // Top first: the last painted is tried first.
            list.sort_by_key(|&c| std::cmp::Reverse(index.rank(c)));
        }
        // Depth-first, without recursion (trees may be 100,000 levels deep).
        struct Frame {
            node: NodeId,
            next: usize,
            passed_up: bool,
        }
        let mut stack = vec![Frame {
            node: root,
            next: 0,
            passed_up: false,
        }];
        let mut answer = Answer::Miss;
        while let Some(top) = stack.last_mut() {
            // What the child just finished answered.
            match std::mem::replace(&mut answer, Answer::Miss) {
                Answer::Hit(x) => {
                    answer = Answer::Hit(x);
                    stack.pop();
                    continue;
                }
                Answer::PassUp => top.passed_up = true,
                Answer::Miss => {}
            }
            let kids = children.get(&top.node).map_or(&[][..], |v| v.as_slice());
            if let Some(&child) = kids.get(top.next) {
                top.next += 1;
                stack.push(Frame {
                    node: child,
                    next: 0,
                    passed_up: false,
                });
                continue;
            }
            let frame = stack.pop().expect("the loop holds a frame");
            let node = self.node(frame.node)?;
            answer = if selves.contains_key(&frame.node) || frame.passed_up {
                match node.mouse_enabled && frame.node != root {
                    true => Answer::Hit(frame.node),
                    false => Answer::PassUp,
                }
            } else {
                Answer::Miss
            };
        }
        Ok(match answer {
            Answer::Hit(x) if x != root => Some(x),
            _ => None,
        })
    }

    /// Every object in `container`'s subtree (itself included) whose own content is under
    /// `(x, y)` (root space), bottom to top, each container before its children, as Flash's
    /// `getObjectsUnderPoint`. Hidden subtrees, masked-out content and masks are left out;
    /// mouse properties and hit areas do not matter. Bitmaps count where their texel shows.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] for a point that is not finite, [`Error::StaleNode`].
    pub fn objects_under_point(&self, container: NodeId, x: f64, y: f64) -> Result<Vec<NodeId>> {
        self.node(container)?;
        let p = DVec2::new(x, y);
        if !p.is_finite() {
            return Err(Error::NonFinite {
                what: format!("point ({x}, {y}) under {}", self.describe(container)),
            });
        }
        let index = self.pick_index()?;
        let mut test = PointTest::new(BitmapHit::default());
        let mut entries = Vec::new();
        index.at(p, |e| entries.push(e));
        let mut found = Vec::new();
        for e in entries {
            let Entry::Own(id) = e else { continue };
            if self.is_ancestor(container, id)?
                && self.shown_below(id, container)?
                && self.own_content_hit(id, p, &mut test)?
            {
                found.push(id);
            }
        }
        found.sort_by_key(|&id| index.rank(id));
        found.dedup();
        Ok(found)
    }

    // ----- mouse properties -----

    fn interactive_node(&mut self, id: NodeId, what: &'static str) -> Result<&mut crate::tree::node::Node> {
        if !self.node(id)?.interactive {
            return Err(Error::NotInteractive {
                node: self.describe(id),
                what,
            });
        }
        self.node_mut(id)
    }

    /// Whether the node is interactive (a Flash Sprite: a target of clicks itself) rather
    /// than content of its parent (a Flash Shape or Bitmap). Containers are by default;
    /// bitmaps and animated leaves never are.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn interactive(&self, id: NodeId) -> Result<bool> {
        Ok(self.node(id)?.interactive)
    }

    /// Makes a container interactive or not. A non-interactive container is content: a hit
    /// anywhere inside it goes to its parent, and nothing inside it is picked itself.
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] when asking a bitmap or an animated leaf to be interactive,
    /// [`Error::StaleNode`].
    pub fn set_interactive(&mut self, id: NodeId, interactive: bool) -> Result<()> {
        let leaf = !matches!(self.node(id)?.content, Content::Container(_));
        if interactive && leaf {
            return Err(Error::NotInteractive {
                node: self.describe(id),
                what: "way to become interactive (bitmaps and animated leaves are content)",
            });
        }
        self.node_mut(id)?.interactive = interactive;
        Ok(())
    }

    /// Flash's `mouseEnabled` (default true).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn mouse_enabled(&self, id: NodeId) -> Result<bool> {
        Ok(self.node(id)?.mouse_enabled)
    }

    /// Sets Flash's `mouseEnabled`: a node that is not takes no click itself; a hit on it
    /// loses to any real hit below it, and otherwise goes to its nearest enabled ancestor.
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] for a node that is not interactive, [`Error::StaleNode`].
    pub fn set_mouse_enabled(&mut self, id: NodeId, enabled: bool) -> Result<()> {
        self.interactive_node(id, "mouse_enabled")?.mouse_enabled = enabled;
        Ok(())
    }

    /// Flash's `mouseChildren` (default true).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn mouse_children(&self, id: NodeId) -> Result<bool> {
        Ok(self.node(id)?.mouse_children)
    }

    /// Sets Flash's `mouseChildren`: with `false`, a hit anywhere inside the container is
    /// the container's (or passes up when it is not mouse-enabled).
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] for a node that is not interactive, [`Error::StaleNode`].
    pub fn set_mouse_children(&mut self, id: NodeId, children: bool) -> Result<()> {
        self.interactive_node(id, "mouse_children")?.mouse_children = children;
        Ok(())
    }

    /// The node whose region stands for `id`'s content when picking, if any.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn hit_area(&self, id: NodeId) -> Result<Option<NodeId>> {
        Ok(self.node(id)?.hit_area)
    }

    /// Sets Flash's `hitArea`: the fills of `area` and its descendants (visibility ignored,
    /// placed by `area`'s own matrices wherever it is) replace what would make `id` itself
    /// the target: its own graphics and its non-interactive children (and, with
    /// `mouse_children = false`, its whole subtree). Interactive children still take their
    /// own clicks. `None` takes it away.
    ///
    /// # Errors
    ///
    /// [`Error::NotInteractive`] for a node that is not interactive, [`Error::StaleNode`].
    /// Nothing changes on error.
    pub fn set_hit_area(&mut self, id: NodeId, area: Option<NodeId>) -> Result<()> {
        if let Some(a) = area {
            self.node(a)?;
        }
        self.interactive_node(id, "hit_area")?;
        self.set_link(Link::HitArea, id, area)
    }
}
