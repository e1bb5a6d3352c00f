//! Bounds (semantics.md section 3): Flash's `getBounds` and `getRect`, and the exact box of
//! an object's geometry.

use glam::DAffine2;

use crate::geom::shape::Leaf;
use crate::tree::walk::{Visit, Walk};
use crate::{ColorTransform, Error, Graphic, NodeId, Rect, Result, Stage};

/// Which box of each leaf [`Stage::local_box`] collects.
#[derive(Clone, Copy, PartialEq, Eq)]
enum BoxKind {
    WithStrokes,
    WithoutStrokes,
}

/// Bounds of objects in any space.
impl Stage {
    /// Flash's `getBounds`: the box of `node` and its descendants in `space`'s coordinates,
    /// strokes included, or `None` when `node` draws nothing. `space` may be any node.
    ///
    /// Like Flash, this is a loose box: each node's own graphics box is mapped into `node`'s
    /// space by its 4 corners, and the union is mapped into `space` by its 4 corners again.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`], [`Error::NonFinite`] when a matrix overflows,
    /// [`Error::Singular`] when `space` is not an ancestor of `node` and cannot be inverted.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let box_ = stage.add_container(stage.root())?;
    /// stage.add_graphic(box_, Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// stage.set_rotation(box_, 45.0)?;
    /// let b = stage.bounds(box_, stage.root())?.unwrap();
    /// assert!((b.width() - 2f64.sqrt() * 10.0).abs() < 1e-9);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn bounds(&self, node: NodeId, space: NodeId) -> Result<Option<Rect>> {
        self.flash_box(node, space, BoxKind::WithStrokes)
    }

    /// Flash's `getRect`: like [`Stage::bounds`] but strokes count by their centreline only.
    ///
    /// # Errors
    ///
    /// As [`Stage::bounds`].
    pub fn rect(&self, node: NodeId, space: NodeId) -> Result<Option<Rect>> {
        self.flash_box(node, space, BoxKind::WithoutStrokes)
    }

    fn flash_box(&self, obj: NodeId, space: NodeId, kind: BoxKind) -> Result<Option<Rect>> {
        Ok(self.flash_box_and_matrix(obj, space, kind)?.map(|(b, _)| b))
    }

    /// [`Stage::bounds`] of `node` in `ancestor`, which the caller has checked is `node` or
    /// above it: the matrix is the path's product ([`Stage::matrix_to`]), as
    /// [`Stage::matrix_between`] finds it after asking whether `ancestor` is one (a walk up
    /// the tree a box, 1,000 a frame of a crowd's broad phase).
    pub(crate) fn bounds_in_ancestor(&self, node: NodeId, ancestor: NodeId) -> Result<Option<Rect>> {
        let found = self.flash_box_by(node, ancestor, BoxKind::WithStrokes, || {
            self.matrix_to(node, ancestor)
        })?;
        Ok(found.map(|(b, _)| b))
    }

    /// [`Stage::flash_box`] and, when there is a box, the matrix from `obj` to `space`.
    fn flash_box_and_matrix(
        &self,
        obj: NodeId,
        space: NodeId,
        kind: BoxKind,
    ) -> Result<Option<(Rect, DAffine2)>> {
        self.flash_box_by(obj, space, kind, || self.matrix_between(obj, space))
    }

    /// [`Stage::flash_box_and_matrix`] with the matrix from `obj` to `space` worked out by
    /// `matrix`, when there is a box.
    fn flash_box_by(
        &self,
        obj: NodeId,
        space: NodeId,
        kind: BoxKind,
        matrix: impl FnOnce() -> Result<DAffine2>,
    ) -> Result<Option<(Rect, DAffine2)>> {
        let Some(local) = self.local_box(obj, kind)? else {
            return Ok(None);
        };
        let m = matrix()?;
        let mapped = local.transform(m).ok_or_else(|| Error::NonFinite {
            what: format!("bounds of {} in {}", self.describe(obj), self.describe(space)),
        })?;
        Ok(Some((mapped, m)))
    }

    /// The box [`Stage::bounds`] maps into other spaces: the union, in `obj`'s space, of its
    /// nodes' own graphics boxes (strokes included). Motion queries map it by the poses
    /// they test.
    pub(crate) fn own_box(&self, obj: NodeId) -> Result<Option<Rect>> {
        self.local_box(obj, BoxKind::WithStrokes)
    }

    /// The union, in `obj`'s space, of each node's own graphics box mapped by its corners.
    fn local_box(&self, obj: NodeId, kind: BoxKind) -> Result<Option<Rect>> {
        // A node's leaves come one after another, so its own box is the run of equal ids;
        // each run is mapped into obj's space when the next one starts, and at the end.
        let mut acc: Option<Rect> = None;
        let mut run: Option<(NodeId, Rect, DAffine2)> = None;
        let add = |acc: &mut Option<Rect>, (id, r, m): (NodeId, Rect, DAffine2)| -> Result<()> {
            // obj's own graphics need no mapping (the identity maps every finite box to itself).
            let mapped = match m == DAffine2::IDENTITY {
                true => r,
                false => r.transform(m).ok_or_else(|| Error::NonFinite {
                    what: format!("bounds of {}", self.describe(id)),
                })?,
            };
            *acc = Some(acc.map_or(mapped, |a| a.union(&mapped)));
            Ok(())
        };
        self.walk_leaves(
            obj,
            obj,
            DAffine2::IDENTITY,
            ColorTransform::IDENTITY,
            Walk::Boxes,
            |id, visit, m, _, _| {
                let r = match (visit, kind) {
                    // A scrolled node's window stands for its content (semantics.md 6).
                    (Visit::Window(w), _) => Some(w),
                    (Visit::Leaf(leaf), BoxKind::WithStrokes) => leaf.flash_box(),
                    (Visit::Leaf(leaf), BoxKind::WithoutStrokes) => leaf.centreline_box(),
                };
                let Some(r) = r else { return Ok(()) };
                match &mut run {
                    Some((last, lr, _)) if *last == id => *lr = lr.union(&r),
                    _ => {
                        if let Some(done) = run.replace((id, r, *m)) {
                            add(&mut acc, done)?;
                        }
                    }
                }
                Ok(())
            },
        )?;
        if let Some(done) = run {
            add(&mut acc, done)?;
        }
        Ok(acc)
    }

    /// The exact box of `node`'s geometry in `space`: every leaf mapped straight into `space`
    /// (curve extrema, stroke ends and joins included). Never larger than [`Stage::bounds`].
    ///
    /// # Errors
    ///
    /// As [`Stage::bounds`].
    pub fn tight_bounds(&self, node: NodeId, space: NodeId) -> Result<Option<Rect>> {
        let base = self.matrix_between(node, space)?;
        let mut acc: Option<Rect> = None;
        let walk = Walk::Boxes;
        self.walk_leaves(
            node,
            node,
            base,
            ColorTransform::IDENTITY,
            walk,
            |_, visit, m, _, _| {
                let r = match visit {
                    Visit::Window(w) => w.transform(m),
                    Visit::Leaf(Leaf::Graphic(Graphic::Fill(f))) => f.path().bounds(m),
                    Visit::Leaf(Leaf::Graphic(Graphic::Stroke(s))) => {
                        let r = s.width() / 2.0;
                        let (a, b) = (m.matrix2.x_axis.x, m.matrix2.x_axis.y);
                        let (c, d) = (m.matrix2.y_axis.x, m.matrix2.y_axis.y);
                        let (ex, ey) = (r * a.hypot(c), r * b.hypot(d));
                        s.path().bounds(m).and_then(|bx| {
                            Rect::from_ltrb(bx.left() - ex, bx.top() - ey, bx.right() + ex, bx.bottom() + ey)
                        })
                    }
                    Visit::Leaf(leaf @ Leaf::Bitmap(..)) => {
                        leaf.centreline_box().and_then(|r| r.transform(m))
                    }
                };
                if let Some(r) = r {
                    acc = Some(acc.map_or(r, |a| a.union(&r)));
                }
                Ok(())
            },
        )?;
        // A union can be wider than an f64 holds, which no box may be.
        acc.map(|r| {
            Rect::from_ltrb(r.left(), r.top(), r.right(), r.bottom()).ok_or_else(|| Error::NonFinite {
                what: format!(
                    "tight bounds of {} in {}",
                    self.describe(node),
                    self.describe(space)
                ),
            })
        })
        .transpose()
    }
}

#[cfg(test)]
mod tests {
    use crate::query::budget_tests::Rng;
    use crate::{Bitmap, FillRule, Graphic, NodeId, Path, Stage};

    /// `bounds_in_ancestor` is `bounds` for every node and each of its ancestors (itself
    /// included), over random trees of containers, fills, strokes and bitmaps, turned,
    /// scaled (to nothing, and past what an f64 holds) and skewed: the same box bit for bit,
    /// or the same error.
    #[test]
    fn bounds_in_an_ancestor_are_bounds() {
        let mut rng = Rng(0xb0_d5a7);
        let art = Bitmap::from_rgba8(3, 2, vec![255; 24]).unwrap();
        let mut compared = (0, 0);
        for _ in 0..300 {
            let mut stage = Stage::new();
            let mut nodes = vec![stage.root()];
            let mut containers = vec![stage.root()];
            for _ in 0..12 {
                let parent = containers[rng.below(containers.len() as u64) as usize];
                let n = match rng.below(4) {
                    0 => stage.add_bitmap(parent, art.clone(), false).unwrap(),
                    _ => {
                        let c = stage.add_container(parent).unwrap();
                        containers.push(c);
                        c
                    }
                };
                if rng.below(3) == 0 && stage.bitmap(n).unwrap().is_none() {
                    let path = Path::rect(rng.range(-9.0, 9.0), rng.range(-9.0, 9.0), 5.0, 3.0);
                    let g = match rng.below(2) {
                        0 => Graphic::fill(path, FillRule::NonZero, 1.0),
                        _ => Graphic::stroke(path, rng.range(0.5, 4.0), 1.0),
                    };
                    stage.add_graphic(n, g.unwrap()).unwrap();
                }
                let scale = [1.0, 0.0, 1e200, rng.range(0.1, 3.0)][rng.below(4) as usize];
                let m = [
                    scale * rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    rng.range(-1.0, 1.0),
                    scale,
                    rng.range(-1e3, 1e3),
                    rng.range(-1e3, 1e3),
                ];
                stage.set_matrix(n, m).unwrap();
                nodes.push(n);
            }
            for &n in &nodes {
                let mut at: Option<NodeId> = Some(n);
                while let Some(a) = at {
                    let (want, got) = (stage.bounds(n, a), stage.bounds_in_ancestor(n, a));
                    match (want, got) {
                        (Ok(w), Ok(g)) => {
                            let bits = |r: Option<crate::Rect>| {
                                r.map(|r| [r.left(), r.top(), r.right(), r.bottom()].map(f64::to_bits))
                            };
                            assert_eq!(bits(w), bits(g));
                            compared.0 += 1;
                        }
                        (Err(w), Err(g)) => {
                            assert_eq!(w.to_string(), g.to_string());
                            compared.1 += 1;
                        }
                        (w, g) => panic!("{w:?} against {g:?}"),
                    }
                    at = stage.parent(a).unwrap();
                }
            }
        }
        assert!(compared.0 > 5_000 && compared.1 > 50, "{compared:?}");
    }
}
