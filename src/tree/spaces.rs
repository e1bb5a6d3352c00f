//! Spaces: the matrix and colour transform from a node to an ancestor or any other node,
//! and points mapped between a node's space and the root's.

use glam::{DAffine2, DVec2};

use crate::geom::interop::IntoPoint;
use crate::geom::transform::{self, invert};
use crate::{ColorTransform, Error, NodeId, Result, Stage};

/// Spaces: matrices and colour transforms between nodes, points between spaces.
impl Stage {
    /// The matrix mapping `id`'s space into `ancestor`'s: the product of the matrices on
    /// the path, `id`'s own applied first. Identity when `id == ancestor`.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `ancestor` is not above `id`, [`Error::NonFinite`]
    /// when the product overflows, [`Error::StaleNode`].
    pub fn matrix_to(&self, id: NodeId, ancestor: NodeId) -> Result<DAffine2> {
        self.node(ancestor)?;
        // Walking up multiplies each parent's matrix on the left; no path is collected, so
        // the per-query cost is a few multiplications and no allocation.
        let mut m = DAffine2::IDENTITY;
        let mut cur = id;
        while cur != ancestor {
            let node = self.node(cur)?;
            m = node.content_matrix() * m;
            cur = node.parent.ok_or_else(|| Error::NotDescendant {
                node: self.describe(id),
                ancestor: self.describe(ancestor),
            })?;
        }
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!(
                    "matrix of {} relative to {}",
                    self.describe(id),
                    self.describe(ancestor)
                ),
            });
        }
        Ok(m)
    }

    /// The colour transform of `id` relative to `ancestor`: its own, then each ancestor's
    /// below `ancestor`. Identity when `id == ancestor`.
    ///
    /// # Errors
    ///
    /// As [`Stage::matrix_to`].
    pub fn color_transform_to(&self, id: NodeId, ancestor: NodeId) -> Result<ColorTransform> {
        self.node(ancestor)?;
        let mut ct = ColorTransform::IDENTITY;
        let mut cur = id;
        while cur != ancestor {
            let node = self.node(cur)?;
            ct = node.color.concat(&ct);
            cur = node.parent.ok_or_else(|| Error::NotDescendant {
                node: self.describe(id),
                ancestor: self.describe(ancestor),
            })?;
        }
        ct.check_finite(|| {
            format!(
                "colour transform of {} relative to {}",
                self.describe(id),
                self.describe(ancestor)
            )
        })?;
        Ok(ct)
    }

    /// The matrix mapping `id`'s space into `space`'s, for any two nodes (through the root).
    ///
    /// # Errors
    ///
    /// [`Error::Singular`] when `space` is not `id`'s ancestor and its matrix to the root
    /// has no inverse, [`Error::NonFinite`], [`Error::StaleNode`].
    pub fn matrix_between(&self, id: NodeId, space: NodeId) -> Result<DAffine2> {
        if self.is_ancestor(space, id)? {
            return self.matrix_to(id, space);
        }
        let to_root = self.matrix_to(id, self.root())?;
        let space_to_root = self.matrix_to(space, self.root())?;
        let inv = invert(&space_to_root).ok_or_else(|| Error::Singular {
            what: format!("matrix of {} to the root", self.describe(space)),
        })?;
        let m = inv * to_root;
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!(
                    "matrix of {} relative to {}",
                    self.describe(id),
                    self.describe(space)
                ),
            });
        }
        Ok(m)
    }

    /// Maps a point of `id`'s space into the root's.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] when the result overflows, [`Error::StaleNode`].
    pub fn local_to_global(&self, id: NodeId, p: impl IntoPoint) -> Result<DVec2> {
        let q = self.matrix_to(id, self.root())?.transform_point2(p.into_point());
        if q.is_finite() {
            Ok(q)
        } else {
            Err(Error::NonFinite {
                what: format!("point mapped from {} to the root", self.describe(id)),
            })
        }
    }

    /// Maps a point of the root's space into `id`'s.
    ///
    /// # Errors
    ///
    /// [`Error::Singular`] when `id`'s matrix to the root has no inverse,
    /// [`Error::NonFinite`], [`Error::StaleNode`].
    pub fn global_to_local(&self, id: NodeId, p: impl IntoPoint) -> Result<DVec2> {
        let p = p.into_point();
        let m = self.matrix_to(id, self.root())?;
        let inv = invert(&m).ok_or_else(|| Error::Singular {
            what: format!("matrix of {} to the root", self.describe(id)),
        })?;
        let q = inv.transform_point2(p);
        if q.is_finite() {
            Ok(q)
        } else {
            Err(Error::NonFinite {
                what: format!("point mapped from the root to {}", self.describe(id)),
            })
        }
    }
}
