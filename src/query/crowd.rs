//! Many objects at once: every colliding pair of a group, or one object against a list.
//!
//! A game asks "which of my sprites touch, and how" every frame: among a group
//! ([`Stage::contacts_among`]), one against a list ([`Stage::contacts_against`]), or one group
//! against another ([`Stage::contacts_between`]). The answer here is the same
//! as calling [`Stage::collision`] on every pair, found without trying every pair:
//!
//! - **Broad phase** over the objects' Flash bounds in the parent's space (`broad_phase.rs`):
//!   those are the boxes `collision_rect` intersects first, so a pair it drops could not
//!   have collided. A sweep in x with the crossed boxes indexed by their y extent costs
//!   O(n log n) plus the number of close pairs in any layout (a column of sprites across the
//!   sweep included), with nothing to keep between frames. More than [`MAX_CLOSE_PAIRS`]
//!   close pairs are refused before any is tested.
//! - **Narrow phase** on the remaining pairs, in parallel with rayon (feature `parallel`,
//!   on by default; [`CollisionOptions::parallel`] turns it off per query), keeping only
//!   the pairs that touch. Rasters come from the stage's
//!   cache, so a sprite in several pairs is drawn once, and a sprite that only moved by
//!   whole pixels is not drawn again.
//! - **Contact details** only when asked: they need both planes around the overlap.

use glam::DVec2;

use crate::geom::rect::PixelRect;
use crate::query::broad_phase::{FIRST, SECOND, overlapping_pairs, overlapping_pairs_between};
use crate::query::in_order::hits_one_by_one;
use crate::query::pipeline::{PairRequest, Planes, PreparedPair, Setup, dense_budget, kept_answer_key};
use crate::query::target_memo::{KernelCell, Memos, TargetMemo, give_back_memo_array, memo_array};
use crate::query::target_plan::plan_whole;
use crate::query::work_budget::check_pairs;
use crate::{CollisionOptions, Error, NodeId, Rect, Result, Stage};

/// One colliding pair.
#[derive(Clone, Debug, PartialEq)]
pub struct Contact {
    /// The first object (earlier in the list given).
    pub a: NodeId,
    /// The second object.
    pub b: NodeId,
    /// What [`Stage::collision`] answers for the pair: the overlap's rectangle in the
    /// parent's space.
    pub rect: Rect,
    /// Pixels solid in both (precise queries only).
    pub overlap_pixels: Option<u64>,
    /// Where and how they touch, when asked for (precise queries only).
    pub details: Option<ContactDetails>,
}

impl Contact {
    /// The details' normal: a unit vector from `a` into `b`. `None` unless the query asked
    /// for details ([`CollisionOptions::details`]) and was precise.
    pub fn normal(&self) -> Option<DVec2> {
        self.details.as_ref().map(|d| d.normal)
    }

    /// The details' centroid of the overlapping pixels; `None` as for [`Contact::normal`].
    pub fn centroid(&self) -> Option<DVec2> {
        self.details.as_ref().map(|d| d.centroid)
    }

    /// The other object of the pair: `b` for `a`, `a` for `b`, `None` for any other id.
    pub fn other(&self, node: NodeId) -> Option<NodeId> {
        match node {
            _ if node == self.a => Some(self.b),
            _ if node == self.b => Some(self.a),
            _ => None,
        }
    }
}

/// Where and how two objects touch.
#[derive(Clone, Debug, PartialEq)]
pub struct ContactDetails {
    /// The mean of the overlapping pixels' centres, in the parent's space.
    pub centroid: DVec2,
    /// A unit vector pointing from `a` into `b` (how to push `b` away), or zero when the
    /// overlap gives no direction (see [`Stage::contacts_among`]).
    pub normal: DVec2,
    /// The first overlapping pixel in row-major order (smallest y, then smallest x).
    pub first: (i64, i64),
    /// The overlapping pixels themselves.
    pub mask: OverlapMask,
}

/// The pixels two objects share, over the overlap's rectangle.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct OverlapMask {
    rect: PixelRect,
    words_per_row: usize,
    bits: Vec<u64>,
}

impl OverlapMask {
    /// Left edge, in the parent's pixels.
    pub fn x(&self) -> i64 {
        self.rect.x0
    }
    /// Top edge, in the parent's pixels.
    pub fn y(&self) -> i64 {
        self.rect.y0
    }
    /// Width in pixels.
    pub fn width(&self) -> u64 {
        self.rect.width()
    }
    /// Height in pixels.
    pub fn height(&self) -> u64 {
        self.rect.height()
    }
    /// Whether pixel `(x, y)` of the parent's grid is in the overlap.
    pub fn contains(&self, x: i64, y: i64) -> bool {
        if x < self.rect.x0 || y < self.rect.y0 || x >= self.rect.x1 || y >= self.rect.y1 {
            return false;
        }
        let (i, j) = ((x - self.rect.x0) as usize, (y - self.rect.y0) as usize);
        self.bits[j * self.words_per_row + i / 64] >> (i % 64) & 1 == 1
    }
    /// How many pixels are in the overlap.
    pub fn count(&self) -> u64 {
        self.bits.iter().map(|w| u64::from(w.count_ones())).sum()
    }
    /// The mask as an image of its rectangle: `color` where pixels overlap, transparent
    /// elsewhere.
    pub fn to_image(&self, color: [u8; 4]) -> image::RgbaImage {
        image::RgbaImage::from_fn(self.width() as u32, self.height() as u32, |i, j| {
            let hit = self.contains(self.rect.x0 + i64::from(i), self.rect.y0 + i64::from(j));
            image::Rgba(if hit { color } else { [0; 4] })
        })
    }
}

/// Most pairs of overlapping boxes one many-object query takes to its narrow phase; past
/// it the query is refused ([`Error::WorkBudget`]) before any pair is tested. A million
/// close pairs take a few seconds on two cores; 9,000 objects whose boxes all overlap
/// would make 40 million.
pub const MAX_CLOSE_PAIRS: usize = 1 << 20;

/// Many objects a frame: every touching pair of a group, one against a list, one group
/// against another.
impl Stage {
    /// Every colliding pair among `objects`, in `parent`'s space: the pairs for which
    /// [`Stage::collision`] finds an overlap, with its answer, ordered by the position of
    /// `a` then `b` in `objects` (`a` always earlier). Ids repeated in `objects` count once.
    /// With [`CollisionOptions::skip_hidden`], objects that are not shown take no part.
    ///
    /// With [`CollisionOptions::details`], each contact also carries [`ContactDetails`]. The
    /// normal is the direction from `a`'s solid pixels to `b`'s around the contact: the
    /// difference of their centroids over the overlap's rectangle grown by a quarter of its
    /// size (at least 2 px). For a shallow contact that region holds both bodies on either
    /// side of the touching pixels, so the normal is close to the surfaces' normal; for a
    /// deep one it still points from `a`'s local mass to `b`'s, which is the way to separate
    /// them (the Collision Detection Kit used the direction from `a`'s centre to the
    /// overlap, which turns sideways when a long object is touched near its end). When both
    /// centroids coincide it falls back to that direction, from the centre of `a`'s bounds to
    /// the overlap's centroid, and when that is zero too, the normal is zero.
    ///
    /// # Errors
    ///
    /// As [`Stage::collision`] for any pair; [`Error::NotDescendant`] names the first object
    /// that is not inside `parent`; [`Error::WorkBudget`] when more than
    /// [`MAX_CLOSE_PAIRS`] pairs of boxes overlap, or when the close pairs' windows add up to
    /// more than [`CollisionOptions::max_work`] pixel tests (nothing is tested then); the
    /// error of the first failing pair in the answer's order, whatever `parallel` says;
    /// [`Error::PixelBudget`] when details are asked of an overlap whose planes would take
    /// more than [`crate::DENSE_BYTES`].
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let mut boxes = Vec::new();
    /// for x in [0.0, 8.0, 30.0] {
    ///     let n = stage.add_container(root)?;
    ///     stage.add_graphic(n, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    ///     stage.set_x(n, x)?;
    ///     boxes.push(n);
    /// }
    /// let contacts = stage.contacts_among(&boxes, root, &CollisionOptions::default().details(true))?;
    /// assert_eq!(contacts.len(), 1);
    /// assert_eq!((contacts[0].a, contacts[0].b), (boxes[0], boxes[1]));
    /// assert_eq!(contacts[0].overlap_pixels, Some(20));
    /// let normal = contacts[0].normal().expect("details were asked for");
    /// assert!(normal.x > 0.99); // from the left box into the right one
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn contacts_among(
        &self,
        objects: &[NodeId],
        parent: NodeId,
        opts: &CollisionOptions,
    ) -> Result<Vec<Contact>> {
        let (objects, boxes, pairs) = self.close_pairs_among(objects, parent, opts, "contacts")?;
        self.narrow_phase(parent, &objects, &boxes, &pairs, opts)
    }

    /// Every object of `others` that collides with `object`, in `parent`'s space, in the
    /// order of `others` (`object` is always `a`). Like [`Stage::contacts_among`] otherwise.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let mut disc = |x: f64| -> pixelhit::Result<_> {
    ///     let n = stage.add_container(root)?;
    ///     stage.add_graphic(n, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
    ///     stage.set_position(n, x, 0.0)?;
    ///     Ok(n)
    /// };
    /// let ship = disc(0.0)?;
    /// let rocks = [disc(8.0)?, disc(30.0)?, disc(-9.0)?];
    /// stage.set_visible(rocks[2], false)?; // a rock that was shot
    /// let opts = CollisionOptions::default().skip_hidden(true);
    /// let hits = stage.contacts_against(ship, &rocks, root, &opts)?;
    /// assert_eq!(hits.iter().map(|c| c.b).collect::<Vec<_>>(), [rocks[0]]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::contacts_among`].
    pub fn contacts_against(
        &self,
        object: NodeId,
        others: &[NodeId],
        parent: NodeId,
        opts: &CollisionOptions,
    ) -> Result<Vec<Contact>> {
        let mut all = self.distinct_inside(parent, &[object], opts)?;
        let others = self.distinct_inside(parent, others, opts)?;
        let Some(&object) = all.first() else {
            return Ok(Vec::new());
        };
        all.extend(others.into_iter().filter(|&o| o != object));
        let boxes = self.boxes(&all, parent, opts.parallel)?;
        let Some(mine) = boxes[0] else {
            return Ok(Vec::new());
        };
        let mut pairs = Vec::new();
        for (i, r) in boxes.iter().enumerate().skip(1) {
            if r.is_some_and(|r| r.intersect(&mine).is_some()) {
                pairs.push((0, i));
            }
        }
        check_pairs(&boxes, &pairs, opts, || {
            format!(
                "the contacts of {} against {} objects in {}",
                self.describe(object),
                all.len() - 1,
                self.describe(parent)
            )
        })?;
        self.narrow_phase(parent, &all, &boxes, &pairs, opts)
    }

    /// Every colliding pair with `a` from `group_a` and `b` from `group_b`, in `parent`'s
    /// space: bullets against enemies, without testing bullets against bullets or enemies
    /// against enemies (the broad phase never compares two objects of one group). Ordered
    /// by the position of `a` in `group_a`, then of `b` in `group_b`. An object in both
    /// groups is never paired with itself, and a pair of two such objects is reported once,
    /// with `a` the one earlier in `group_a`. Like [`Stage::contacts_among`] otherwise.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let mut add = |x: f64| -> Result<_, pixelhit::Error> {
    ///     let n = stage.add_container(root)?;
    ///     stage.add_graphic(n, Graphic::fill(Path::circle(0.0, 0.0, 5.0), FillRule::NonZero, 1.0)?)?;
    ///     stage.set_x(n, x)?;
    ///     Ok(n)
    /// };
    /// // Two bullets side by side (they overlap each other) and an enemy on the second.
    /// let bullets = [add(0.0)?, add(4.0)?];
    /// let enemies = [add(10.0)?];
    /// let hits = stage.contacts_between(&bullets, &enemies, root, &CollisionOptions::default())?;
    /// assert_eq!(hits.len(), 1);
    /// assert_eq!((hits[0].a, hits[0].b), (bullets[1], enemies[0]));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::contacts_among`].
    pub fn contacts_between(
        &self,
        group_a: &[NodeId],
        group_b: &[NodeId],
        parent: NodeId,
        opts: &CollisionOptions,
    ) -> Result<Vec<Contact>> {
        let first = self.distinct_inside(parent, group_a, opts)?;
        let second = self.distinct_inside(parent, group_b, opts)?;
        // Every object once: group a's in its order, then group b's that are not in a.
        let mut all = first.clone();
        let mut groups = vec![FIRST; all.len()];
        let mut place_in_b = vec![usize::MAX; all.len()];
        let where_in_all: std::collections::HashMap<NodeId, usize> =
            first.iter().enumerate().map(|(i, &o)| (o, i)).collect();
        for (k, &o) in second.iter().enumerate() {
            let i = match where_in_all.get(&o) {
                Some(&i) => i,
                None => {
                    all.push(o);
                    groups.push(0);
                    place_in_b.push(0);
                    all.len() - 1
                }
            };
            groups[i] |= SECOND;
            place_in_b[i] = k;
        }
        let boxes = self.boxes(&all, parent, opts.parallel)?;
        let mut pairs = overlapping_pairs_between(&boxes, &groups, MAX_CLOSE_PAIRS)
            .map_err(|count| self.too_many_pairs(count, all.len(), parent))?;
        // `i < j`; `i` is `a` when it can be (then it is the earlier in group a).
        for p in &mut pairs {
            if !(groups[p.0] & FIRST != 0 && groups[p.1] & SECOND != 0) {
                *p = (p.1, p.0);
            }
        }
        // Objects only in group b come after all of group a's, so `a`'s index is its place.
        pairs.sort_unstable_by_key(|&(i, j)| (i, place_in_b[j]));
        check_pairs(&boxes, &pairs, opts, || {
            format!(
                "the contacts between {} and {} objects in {}",
                first.len(),
                second.len(),
                self.describe(parent)
            )
        })?;
        self.narrow_phase(parent, &all, &boxes, &pairs, opts)
    }

    /// The objects of a many-object query among `objects` (without repeats, checked inside
    /// `parent`), their boxes and the close pairs, the pairs' work checked; `what` names the
    /// answer in a work-budget error ("contacts", "touching pairs").
    #[allow(clippy::type_complexity)]
    pub(crate) fn close_pairs_among(
        &self,
        objects: &[NodeId],
        parent: NodeId,
        opts: &CollisionOptions,
        what: &str,
    ) -> Result<(Vec<NodeId>, Vec<Option<Rect>>, Vec<(usize, usize)>)> {
        let objects = self.distinct_inside(parent, objects, opts)?;
        let boxes = self.boxes(&objects, parent, opts.parallel)?;
        let pairs = overlapping_pairs(&boxes, MAX_CLOSE_PAIRS)
            .map_err(|count| self.too_many_pairs(count, objects.len(), parent))?;
        check_pairs(&boxes, &pairs, opts, || {
            format!(
                "the {what} among {} objects in {}",
                objects.len(),
                self.describe(parent)
            )
        })?;
        Ok((objects, boxes, pairs))
    }

    /// The objects without repeats, in their first order, after checking that each is inside
    /// `parent`; without the hidden ones when `opts.skip_hidden`.
    fn distinct_inside(
        &self,
        parent: NodeId,
        objects: &[NodeId],
        opts: &CollisionOptions,
    ) -> Result<Vec<NodeId>> {
        for &o in objects {
            if !self.is_ancestor(parent, o)? {
                return Err(Error::NotDescendant {
                    node: self.describe(o),
                    ancestor: self.describe(parent),
                });
            }
        }
        // Live nodes only from here, so their indices are within the tree's slots: a bit
        // each costs less than hashing every id.
        let words = objects
            .iter()
            .map(|o| o.index() as usize / 64 + 1)
            .max()
            .unwrap_or(0);
        let mut seen = vec![0u64; words];
        let mut out = Vec::with_capacity(objects.len());
        for &o in objects {
            let (word, bit) = (o.index() as usize / 64, 1u64 << (o.index() % 64));
            if seen[word] & bit == 0 {
                seen[word] |= bit;
                if !opts.skip_hidden || self.is_shown(o)? {
                    out.push(o);
                }
            }
        }
        Ok(out)
    }

    /// The objects' Flash bounds in `parent`'s space: what the broad phase sorts (on the
    /// pool when `parallel` and they are many: `split::map_in_order`). Every object has been
    /// checked to be inside `parent` (`distinct_inside`).
    fn boxes(&self, objects: &[NodeId], parent: NodeId, parallel: bool) -> Result<Vec<Option<Rect>>> {
        crate::query::split::map_in_order(objects, parallel, |&o| self.bounds_in_ancestor(o, parent))
    }

    fn too_many_pairs(&self, count: usize, objects: usize, parent: NodeId) -> Error {
        Error::WorkBudget {
            what: format!(
                "the pairs of {objects} objects whose boxes overlap in {}",
                self.describe(parent)
            ),
            work: count as u128,
            budget: MAX_CLOSE_PAIRS as u64,
            unit: "pairs of overlapping boxes",
            remedy: "ask about smaller groups of objects",
        }
    }

    fn narrow_phase(
        &self,
        parent: NodeId,
        objects: &[NodeId],
        boxes: &[Option<Rect>],
        pairs: &[(usize, usize)],
        opts: &CollisionOptions,
    ) -> Result<Vec<Contact>> {
        // Answers are kept for the frame (the tree unchanged): asking the same pairs again
        // in a frame costs a lookup each.
        let revision = self.revision();
        // A frame's first query finds no answer kept: it looks none up (`keeps_pairs_at`).
        let look_up = self.cache.keeps_pairs_at(revision);
        let one = |&(i, j): &(usize, usize),
                   Memos {
                       targets: memos,
                       kernels,
                   }: Memos<'_>|
         -> Result<Option<Contact>> {
            let (a, b) = (objects[i], objects[j]);
            let key = kept_answer_key(a, b, parent, opts);
            if look_up && let Some((rect, overlap_pixels)) = self.cache.pair(revision, &key) {
                let Some(rect) = rect else { return Ok(None) };
                // Details need the prepared targets: only those are made again.
                if !(opts.details && opts.precise) {
                    return Ok(Some(Contact {
                        a,
                        b,
                        rect,
                        overlap_pixels,
                        details: None,
                    }));
                }
            }
            // One setup per pair: the contact's details reuse the prepared targets. Near
            // misses are answered before drawing, as `Stage::collision` answers them.
            let request = PairRequest::new(a, b, parent, opts)
                .rejecting_near_misses()
                .with_memo(&memos[i], &memos[j]);
            // Two made masks answer at once, as the pipeline would (`made_masks.rs`), and so
            // do two targets of one mask or kernel item each, read from their memos
            // (`memo_answer.rs`).
            if !opts.details
                && let Some(answer) = self.made_masks_answer(&request).or_else(|| {
                    self.memo_answer(&request, (&memos[i], &memos[j]), (&kernels[i], &kernels[j]))
                })
            {
                self.cache.keep_pair(revision, key, answer);
                return Ok(answer.0.map(|rect| Contact {
                    a,
                    b,
                    rect,
                    overlap_pixels: answer.1,
                    details: None,
                }));
            }
            let found = self.run_pair(&request, |setup| {
                Ok(match setup {
                    Setup::Empty => {
                        self.cache.keep_pair(revision, key, (None, None));
                        None
                    }
                    Setup::Loose(rect) => {
                        self.cache.keep_pair(revision, key, (Some(rect), None));
                        Some((rect, None, None))
                    }
                    Setup::Pair(pair) => {
                        let c = pair.collision(self, opts)?;
                        self.cache.keep_pair(revision, key, (c.rect, c.overlap_pixels));
                        let Some(rect) = c.rect else { return Ok(None) };
                        let details = match opts.details {
                            true => self.contact_details(&pair, a, parent, opts, rect)?,
                            false => None,
                        };
                        Some((rect, c.overlap_pixels, details))
                    }
                })
            })?;
            let Some((rect, overlap_pixels, details)) = found else {
                return Ok(None);
            };
            Ok(Some(Contact {
                a,
                b,
                rect,
                overlap_pixels,
                details,
            }))
        };
        self.each_close_pair(objects, boxes, pairs, opts, false, one)
    }

    /// `one(pair, memos)` of every close pair, with the targets' memos of the query
    /// (`target_memo.rs`; planned `lazily` for a yes-or-no query, `lazy_mask.rs`): the
    /// `Some` answers in the pairs' order, or the error of the first failing pair in that
    /// order, on the pool when `opts.parallel` and the pairs' work pays for it (`split.rs`).
    pub(crate) fn each_close_pair<T: Send>(
        &self,
        objects: &[NodeId],
        boxes: &[Option<Rect>],
        pairs: &[(usize, usize)],
        opts: &CollisionOptions,
        lazily: bool,
        one: impl Fn(&(usize, usize), Memos<'_>) -> Result<Option<T>> + Sync,
    ) -> Result<Vec<T>> {
        let _frame = self.cache.batch(self.revision());
        // Each object's bounds and preparation, made by its first pair (`target_memo.rs`),
        // and the whole mask of those many pairs read (`target_plan.rs`). A mask made band
        // by band costs only the bands read, so there a lone bitmap's windows need cover it
        // once, as any other target's.
        // Each box is the broad phase's, which is the one a pair would work out.
        let mut memos = memo_array();
        memos.extend(
            plan_whole(boxes, pairs, |i| {
                !lazily && self.lone_unsmoothed_bitmap(objects[i])
            })
            .into_iter()
            .zip(boxes)
            .map(|(whole, &bounds)| TargetMemo::planned(bounds, whole, lazily)),
        );
        // Each target's kernel, beside its memo (it borrows the memo's prepared target).
        let kernels: Vec<KernelCell<'_>> = memos.iter().map(|_| KernelCell::new()).collect();
        let both = Memos {
            targets: &memos,
            kernels: &kernels,
        };
        let one = |p: &(usize, usize)| one(p, both);
        // Only the hits are kept, in the pairs' order: a frame of many close pairs that do
        // not touch holds no memory for them.
        #[cfg(feature = "parallel")]
        let hits = match opts.parallel && crate::query::split::pays(boxes, pairs) {
            true => crate::query::in_order::hits_in_order(pairs, one),
            false => hits_one_by_one(pairs, one),
        };
        #[cfg(not(feature = "parallel"))]
        let hits = {
            // Without the pool, `opts.parallel` has nothing to choose.
            let _ = opts.parallel;
            hits_one_by_one(pairs, one)
        };
        // Every pair is done: the whole masks are the memos' alone, and the next query
        // fills their buffers.
        for memo in memos.drain(..) {
            memo.give_back_mask(self);
        }
        give_back_memo_array(memos);
        hits
    }

    /// The details of a contact whose overlap is `rect` (whole pixels), `a` being the
    /// pair's first target.
    pub(crate) fn contact_details(
        &self,
        pair: &PreparedPair,
        a: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        rect: Rect,
    ) -> Result<Option<ContactDetails>> {
        let t = pair.thresholds;
        let overlap = PixelRect::covering(&rect);
        let grow = ((overlap.width().max(overlap.height()) as i64 + 3) / 4).max(2);
        let region = PixelRect {
            x0: overlap.x0 - grow,
            y0: overlap.y0 - grow,
            x1: overlap.x1 + grow,
            y1: overlap.y1 + grow,
        };
        // Two planes of a byte and the overlap's bits: held to the dense methods' budget
        // (details of a 10,000 px overlap took 2.5 GB before).
        dense_budget(region.area(), 3, opts)?;
        let Planes {
            a: plane_a,
            b: plane_b,
            ..
        } = pair.planes(self, region)?;
        let w = region.width() as usize;
        let words_per_row = (overlap.width() as usize).div_ceil(64);
        let mut bits = vec![0u64; words_per_row * overlap.height() as usize];
        let (mut sum_a, mut sum_b, mut sum_o) = (DVec2::ZERO, DVec2::ZERO, DVec2::ZERO);
        let (mut n_a, mut n_b, mut n_o) = (0.0, 0.0, 0.0);
        let mut first = None;
        for (k, (&va, &vb)) in plane_a.iter().zip(&plane_b).enumerate() {
            let (x, y) = (region.x0 + (k % w) as i64, region.y0 + (k / w) as i64);
            let centre = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
            let (sa, sb) = (va >= t.a, vb >= t.b);
            if sa {
                sum_a += centre;
                n_a += 1.0;
            }
            if sb {
                sum_b += centre;
                n_b += 1.0;
            }
            let inside = x >= overlap.x0 && x < overlap.x1 && y >= overlap.y0 && y < overlap.y1;
            if sa && sb && inside {
                sum_o += centre;
                n_o += 1.0;
                first.get_or_insert((x, y));
                let (i, j) = ((x - overlap.x0) as usize, (y - overlap.y0) as usize);
                bits[j * words_per_row + i / 64] |= 1 << (i % 64);
            }
        }
        let Some(first) = first else { return Ok(None) };
        let centroid = sum_o / n_o;
        let mut normal = (sum_b / n_b - sum_a / n_a).normalize_or_zero();
        if normal == DVec2::ZERO
            && let Some(ba) = self.bounds(a, parent)?
        {
            let centre = DVec2::new(ba.left() + ba.right(), ba.top() + ba.bottom()) * 0.5;
            normal = (centroid - centre).normalize_or_zero();
        }
        Ok(Some(ContactDetails {
            centroid,
            normal,
            first,
            mask: OverlapMask {
                rect: overlap,
                words_per_row,
                bits,
            },
        }))
    }
}

#[cfg(test)]
mod distinct_tests;
#[cfg(test)]
mod frame_tests;
