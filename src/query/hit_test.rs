//! Flash's hit tests (semantics.md section 5): a point against an object's box or its
//! shapes, and two objects' boxes against each other.

use glam::{DAffine2, DVec2};

use crate::query::point::{BitmapHit, PointTest};
use crate::tree::walk::{Visit, Walk};
use crate::{ColorTransform, Error, NodeId, Result, Stage};

/// Flash's `hitTestPoint` and `hitTestObject`.
impl Stage {
    /// Whether the point `(x, y)` of the root's space hits `node`.
    ///
    /// Without `shape_flag`: inside `node`'s bounds in the root's space, edges included.
    /// With it: inside a fill by its fill rule (a point on a shape's top or left edge is
    /// inside, on its bottom or right edge outside... as Flash: x in (left, right], y in
    /// [top, bottom)), within half a stroke's width of a stroke (at least 0.5 px), or on a
    /// bitmap texel whose alpha is not 0. Hidden descendants do not count; colour transforms
    /// and alpha do not matter (as in Flash).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`], [`Error::NonFinite`] for a non-finite point or matrix.
    pub fn hit_test_point(&self, node: NodeId, x: f64, y: f64, shape_flag: bool) -> Result<bool> {
        let p = DVec2::new(x, y);
        if !p.is_finite() {
            return Err(Error::NonFinite {
                what: format!("point ({x}, {y}) tested against {}", self.describe(node)),
            });
        }
        if !shape_flag {
            return Ok(self.bounds(node, self.root())?.is_some_and(|b| b.contains(p)));
        }
        let mut hit = false;
        let mut test = PointTest::new(BitmapHit::default());
        let name = || self.describe(node);
        let (root, id, walk) = (self.root(), DAffine2::IDENTITY, Walk::Draw);
        self.walk_leaves(
            node,
            root,
            id,
            ColorTransform::IDENTITY,
            walk,
            |_, visit, m, _, clips| {
                let Visit::Leaf(leaf) = visit else { return Ok(()) };
                if hit {
                    return Ok(());
                }
                // Masks and scroll windows over the leaf cut it (semantics.md 6).
                hit = test.leaf(leaf, m, p, &name)? && self.clips_contain(clips, p)?;
                Ok(())
            },
        )?;
        Ok(hit)
    }

    /// Whether the boxes of `a` and `b` in the root's space ([`Stage::bounds`], Flash's
    /// loose two-step boxes) overlap or touch, as Flash's `hitTestObject` answers: under a
    /// rotated parent the boxes grow, and objects whose shapes are apart can hit. An object
    /// that draws nothing hits nothing. For the exact answer, ask [`Stage::collision_rect`].
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`], [`Error::NonFinite`].
    pub fn hit_test_object(&self, a: NodeId, b: NodeId) -> Result<bool> {
        let root = self.root();
        Ok(match (self.bounds(a, root)?, self.bounds(b, root)?) {
            (Some(ra), Some(rb)) => ra.touches(&rb),
            _ => false,
        })
    }
}
