//! Spaces: the matrix and colour transform from a node to an ancestor or any other node,
//! and points mapped between a node's space and the root's.

use glam::{DAffine2, DVec2};

use crate::geom::interop::IntoPoint;
use crate::geom::transform::{self, invert};
use crate::tree::node::Node;
use crate::{ColorTransform, Error, NodeId, Result, Stage};

/// Spaces: matrices and colour transforms between nodes, points between spaces.
impl Stage {
    /// The matrix mapping `node`'s space into `parent`'s: the product of the matrices on
    /// the path, `node`'s own applied first. Identity when `node == parent`.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `parent` is not above `node`, [`Error::NonFinite`]
    /// when the product overflows, [`Error::StaleNode`].
    pub fn matrix_to(&self, node: NodeId, parent: NodeId) -> Result<DAffine2> {
        let m = self.matrix_to_checked(node, parent, |_| true)?;
        Ok(m.expect("every node is accepted"))
    }

    /// [`Stage::matrix_to`], with `accept` asked about every node whose matrix is in the
    /// product (`node` and those between it and `parent`): `None` as soon as it refuses one.
    pub(crate) fn matrix_to_checked(
        &self,
        node: NodeId,
        parent: NodeId,
        mut accept: impl FnMut(&Node) -> bool,
    ) -> Result<Option<DAffine2>> {
        self.node(parent)?;
        // Walking up multiplies each parent's matrix on the left; no path is collected, so
        // the per-query cost is a few multiplications and no allocation.
        let mut m = DAffine2::IDENTITY;
        let mut cur = node;
        while cur != parent {
            let here = self.node(cur)?;
            if !accept(here) {
                return Ok(None);
            }
            m = here.content_matrix() * m;
            cur = here.parent.ok_or_else(|| Error::NotDescendant {
                node: self.describe(node),
                ancestor: self.describe(parent),
            })?;
        }
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!(
                    "matrix of {} relative to {}",
                    self.describe(node),
                    self.describe(parent)
                ),
            });
        }
        Ok(Some(m))
    }

    /// The colour transform of `node` relative to `parent`: its own, then each ancestor's
    /// below `parent`. Identity when `node == parent`.
    ///
    /// # Errors
    ///
    /// As [`Stage::matrix_to`].
    pub fn color_transform_to(&self, node: NodeId, parent: NodeId) -> Result<ColorTransform> {
        self.node(parent)?;
        let mut ct = ColorTransform::IDENTITY;
        let mut cur = node;
        while cur != parent {
            let here = self.node(cur)?;
            ct = here.color.concat(&ct);
            cur = here.parent.ok_or_else(|| Error::NotDescendant {
                node: self.describe(node),
                ancestor: self.describe(parent),
            })?;
        }
        ct.check_finite(|| {
            format!(
                "colour transform of {} relative to {}",
                self.describe(node),
                self.describe(parent)
            )
        })?;
        Ok(ct)
    }

    /// The matrix mapping `node`'s space into `space`'s, for any two nodes (through the root).
    ///
    /// # Errors
    ///
    /// [`Error::Singular`] when `space` is not `node`'s ancestor and its matrix to the root
    /// has no inverse, [`Error::NonFinite`], [`Error::StaleNode`].
    pub fn matrix_between(&self, node: NodeId, space: NodeId) -> Result<DAffine2> {
        if self.is_ancestor(space, node)? {
            return self.matrix_to(node, space);
        }
        let to_root = self.matrix_to(node, self.root())?;
        let space_to_root = self.matrix_to(space, self.root())?;
        let inv = invert(&space_to_root).ok_or_else(|| Error::Singular {
            what: format!("matrix of {} to the root", self.describe(space)),
        })?;
        let m = inv * to_root;
        if !transform::is_finite(&m) {
            return Err(Error::NonFinite {
                what: format!(
                    "matrix of {} relative to {}",
                    self.describe(node),
                    self.describe(space)
                ),
            });
        }
        Ok(m)
    }

    /// Maps a point of `node`'s space into the root's.
    ///
    /// # Errors
    ///
    /// [`Error::NonFinite`] when the result overflows, [`Error::StaleNode`].
    pub fn local_to_global(&self, node: NodeId, p: impl IntoPoint) -> Result<DVec2> {
        let q = self
            .matrix_to(node, self.root())?
            .transform_point2(p.into_point());
        if q.is_finite() {
            Ok(q)
        } else {
            Err(Error::NonFinite {
                what: format!("point mapped from {} to the root", self.describe(node)),
            })
        }
    }

    /// Maps a point of the root's space into `node`'s.
    ///
    /// # Errors
    ///
    /// [`Error::Singular`] when `node`'s matrix to the root has no inverse,
    /// [`Error::NonFinite`], [`Error::StaleNode`].
    pub fn global_to_local(&self, node: NodeId, p: impl IntoPoint) -> Result<DVec2> {
        let p = p.into_point();
        let m = self.matrix_to(node, self.root())?;
        let inv = invert(&m).ok_or_else(|| Error::Singular {
            what: format!("matrix of {} to the root", self.describe(node)),
        })?;
        let q = inv.transform_point2(p);
        if q.is_finite() {
            Ok(q)
        } else {
            Err(Error::NonFinite {
                what: format!("point mapped from the root to {}", self.describe(node)),
            })
        }
    }
}
