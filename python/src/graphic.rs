//! `Graphic`: one fill or stroke of a container, and reading a graphic argument.

use pixelhit as ph;
use pyo3::prelude::*;

use crate::convert::{fill_rule_name, type_name};
use crate::errors::{OrRaise, bad_argument};
use crate::path::{PyPath, path_of};

/// One fill or stroke of a container: `Graphic.fill(path, fill_rule="nonzero", alpha=1.0)`
/// or `Graphic.stroke(path, width, alpha=1.0)` (round joins and caps), where `path` is SVG
/// path data or a `Path`. Immutable.
#[pyclass(module = "pixelhit", name = "Graphic", frozen)]
#[derive(Clone)]
pub(crate) struct PyGraphic(pub(crate) ph::Graphic);

#[pymethods]
impl PyGraphic {
    /// A filled path. `fill_rule` is `"nonzero"` (the default) or `"evenodd"`; `alpha` is
    /// 0..1.
    #[staticmethod]
    #[pyo3(signature = (path, fill_rule = "nonzero", alpha = 1.0))]
    fn fill(path: &Bound<'_, PyAny>, fill_rule: &str, alpha: f64) -> PyResult<Self> {
        let rule = crate::convert::fill_rule(fill_rule)?;
        Ok(PyGraphic(
            ph::Graphic::fill(path_of(path)?, rule, alpha).or_raise()?,
        ))
    }

    /// A stroked path `width` wide (in the node's local space), round joins and caps.
    #[staticmethod]
    #[pyo3(signature = (path, width, alpha = 1.0))]
    fn stroke(path: &Bound<'_, PyAny>, width: f64, alpha: f64) -> PyResult<Self> {
        Ok(PyGraphic(
            ph::Graphic::stroke(path_of(path)?, width, alpha).or_raise()?,
        ))
    }

    /// `"fill"` or `"stroke"`.
    #[getter]
    fn kind(&self) -> &'static str {
        match self.0 {
            ph::Graphic::Stroke(_) => "stroke",
            _ => "fill",
        }
    }

    /// The path filled or stroked.
    #[getter]
    fn path(&self) -> PyPath {
        PyPath(self.0.path().clone())
    }

    /// The graphic's own alpha, 0..1.
    #[getter]
    fn alpha(&self) -> f64 {
        match &self.0 {
            ph::Graphic::Fill(f) => f.alpha(),
            ph::Graphic::Stroke(s) => s.alpha(),
        }
    }

    /// A stroke's width; `None` for a fill.
    #[getter]
    fn width(&self) -> Option<f64> {
        match &self.0 {
            ph::Graphic::Stroke(s) => Some(s.width()),
            _ => None,
        }
    }

    /// A fill's rule, `"nonzero"` or `"evenodd"`; `None` for a stroke.
    #[getter]
    fn fill_rule(&self) -> Option<&'static str> {
        match &self.0 {
            ph::Graphic::Fill(f) => Some(fill_rule_name(f.rule())),
            _ => None,
        }
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyGraphic>().is_ok_and(|o| o.get().0 == self.0)
    }

    pub(crate) fn __repr__(&self) -> String {
        let path = PyPath(self.0.path().clone()).__repr__();
        match (self.width(), self.fill_rule()) {
            (Some(w), _) => format!("Graphic.stroke({path}, width={w}, alpha={})", self.alpha()),
            (None, rule) => format!(
                "Graphic.fill({path}, fill_rule={:?}, alpha={})",
                rule.unwrap_or("nonzero"),
                self.alpha()
            ),
        }
    }
}

pub(crate) fn graphic_of(obj: &Bound<'_, PyAny>) -> PyResult<ph::Graphic> {
    obj.cast::<PyGraphic>().map(|g| g.get().0.clone()).map_err(|_| {
        bad_argument(format!(
            "expected a Graphic (Graphic.fill or Graphic.stroke), not {}",
            type_name(obj)
        ))
    })
}
