//! The answers of collision queries: `Collision` (one pair) and `Contact` (one pair of a
//! many-object query, with its details).

use pixelhit as ph;
use pyo3::prelude::*;

use crate::convert::{Xywh, pair};
use crate::handles::{PyNode, id_of};
use crate::overlap_mask::PyOverlapMask;

/// The answer of `Stage.collision`: `rect` is `(x, y, width, height)` or `None`, and
/// `overlap_pixels` the number of pixels solid in both (`None` when the query was not
/// precise). True when the targets overlap.
#[pyclass(module = "pixelhit", name = "Collision", frozen)]
pub(crate) struct PyCollision {
    /// The overlap's rectangle in the parent's space, or `None`.
    #[pyo3(get)]
    pub(crate) rect: Option<Xywh>,
    /// Pixels solid in both targets (precise queries only).
    #[pyo3(get)]
    pub(crate) overlap_pixels: Option<u64>,
}

#[pymethods]
impl PyCollision {
    fn __bool__(&self) -> bool {
        self.rect.is_some()
    }

    fn __repr__(&self) -> String {
        let rect = self.rect.map_or("None".into(), |r| format!("{r:?}"));
        let count = self.overlap_pixels.map_or("None".into(), |n| n.to_string());
        format!("Collision(rect={rect}, overlap_pixels={count})")
    }
}

/// One colliding pair of a many-object query: `a` and `b` (the `Node` objects given),
/// `rect` (the overlap's `(x, y, width, height)` in the parent's space), `overlap_pixels`,
/// and with `details=True`: `normal` (a unit vector from `a` into `b`, the way to push `b`
/// out), `centroid` (the mean of the overlapping pixels' centres), `first` (the first
/// overlapping pixel in row-major order) and `mask` (the overlapping pixels).
#[pyclass(module = "pixelhit", name = "Contact", frozen)]
pub(crate) struct PyContact {
    /// The first node of the pair (earlier in the list given).
    #[pyo3(get)]
    pub(crate) a: Py<PyNode>,
    /// The second node of the pair.
    #[pyo3(get)]
    pub(crate) b: Py<PyNode>,
    /// The overlap's rectangle `(x, y, width, height)` in the parent's space.
    #[pyo3(get)]
    pub(crate) rect: Xywh,
    /// Pixels solid in both (`None` for a query that is not precise).
    #[pyo3(get)]
    pub(crate) overlap_pixels: Option<u64>,
    pub(crate) details: Option<ph::ContactDetails>,
}

#[pymethods]
impl PyContact {
    /// A unit vector `(x, y)` from `a` into `b`, or `None` without details.
    #[getter]
    fn normal(&self) -> Option<(f64, f64)> {
        self.details.as_ref().map(|d| pair(d.normal))
    }

    /// The mean `(x, y)` of the overlapping pixels' centres, or `None` without details.
    #[getter]
    fn centroid(&self) -> Option<(f64, f64)> {
        self.details.as_ref().map(|d| pair(d.centroid))
    }

    /// The first overlapping pixel `(x, y)` in row-major order, or `None` without details.
    #[getter]
    fn first(&self) -> Option<(i64, i64)> {
        self.details.as_ref().map(|d| d.first)
    }

    /// The overlapping pixels as an `OverlapMask`, or `None` without details.
    #[getter]
    fn mask(&self) -> Option<PyOverlapMask> {
        self.details.as_ref().map(|d| PyOverlapMask(d.mask.clone()))
    }

    /// The other node of the pair: `b` for `a`, `a` for `b`, `None` for any other node.
    fn other(&self, py: Python<'_>, node: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyNode>>> {
        let id = id_of(node)?;
        Ok(if id == self.a.get().id {
            Some(self.b.clone_ref(py))
        } else if id == self.b.get().id {
            Some(self.a.clone_ref(py))
        } else {
            None
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let a = self.a.get().describe(py);
        let b = self.b.get().describe(py);
        let count = self.overlap_pixels.map_or("None".into(), |n| n.to_string());
        format!(
            "Contact(a={a}, b={b}, rect={:?}, overlap_pixels={count})",
            self.rect
        )
    }
}
