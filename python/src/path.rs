//! `Path`: vector geometry from SVG path data or shapes, and reading a path argument.

use ph::DVec2;
use pixelhit as ph;
use pyo3::prelude::*;

use crate::convert::type_name;
use crate::errors::{OrRaise, bad_argument};

/// Vector geometry: a path made from SVG path data (`Path("M0 0 L10 0 L5 8 Z")`) or one of
/// the shapes `Path.rect`, `Path.rounded_rect`, `Path.circle`, `Path.ellipse`,
/// `Path.polygon`. Immutable; coordinates are in the local space of the node that draws it.
#[pyclass(module = "pixelhit", name = "Path", frozen)]
#[derive(Clone)]
pub(crate) struct PyPath(pub(crate) ph::Path);

#[pymethods]
impl PyPath {
    /// Parses SVG path data: `M L H V C S Q T A Z`, absolute (upper case) and relative
    /// (lower case). Raises `PixelhitError` with the byte offset of the problem.
    #[new]
    fn new(data: &str) -> PyResult<Self> {
        Ok(PyPath(ph::Path::from_svg(data).or_raise()?))
    }

    /// The same as `Path(data)`.
    #[staticmethod]
    fn from_svg(data: &str) -> PyResult<Self> {
        Self::new(data)
    }

    /// A `w` x `h` rectangle with its top-left corner at `(x, y)`.
    #[staticmethod]
    fn rect(x: f64, y: f64, w: f64, h: f64) -> Self {
        PyPath(ph::Path::rect(x, y, w, h))
    }

    /// A rectangle with circular corners of radius `r` (clamped to half the shorter side).
    #[staticmethod]
    fn rounded_rect(x: f64, y: f64, w: f64, h: f64, r: f64) -> Self {
        PyPath(ph::Path::rounded_rect(x, y, w, h, r))
    }

    /// A circle of radius `r` about `(cx, cy)`.
    #[staticmethod]
    fn circle(cx: f64, cy: f64, r: f64) -> Self {
        PyPath(ph::Path::circle(cx, cy, r))
    }

    /// An axis-aligned ellipse of radii `rx`, `ry` about `(cx, cy)`.
    #[staticmethod]
    fn ellipse(cx: f64, cy: f64, rx: f64, ry: f64) -> Self {
        PyPath(ph::Path::ellipse(cx, cy, rx, ry))
    }

    /// A closed polygon through `points`, a sequence of `(x, y)` pairs (tuples, lists, or
    /// the rows of an N x 2 array).
    #[staticmethod]
    fn polygon(points: &Bound<'_, PyAny>) -> PyResult<Self> {
        let mut pts = Vec::new();
        for p in points.try_iter()? {
            let p = p?;
            match p.extract::<Vec<f64>>().ok().as_deref() {
                Some(&[x, y]) => pts.push(DVec2::new(x, y)),
                _ => {
                    return Err(bad_argument(format!(
                        "a polygon's points are (x, y) pairs, not {}",
                        p.repr().map_or_else(|_| type_name(&p), |r| r.to_string())
                    )));
                }
            }
        }
        Ok(PyPath(ph::Path::polygon(&pts)))
    }

    /// SVG path data for this path (absolute `M L Q C Z`), which parses back to an equal
    /// path.
    fn to_svg(&self) -> String {
        self.0.to_svg()
    }

    /// Whether the path has no segment.
    #[getter]
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyPath>().is_ok_and(|o| o.get().0 == self.0)
    }

    pub(crate) fn __repr__(&self) -> String {
        let svg = self.0.to_svg();
        match svg.char_indices().nth(60) {
            Some((cut, _)) => format!("Path({:?}...)", &svg[..cut]),
            None => format!("Path({svg:?})"),
        }
    }
}

/// A path given as SVG path data or as a `Path`.
pub(crate) fn path_of(obj: &Bound<'_, PyAny>) -> PyResult<ph::Path> {
    if let Ok(p) = obj.cast::<PyPath>() {
        return Ok(p.get().0.clone());
    }
    match obj.extract::<&str>() {
        Ok(data) => ph::Path::from_svg(data).or_raise(),
        Err(_) => Err(bad_argument(format!(
            "a path is SVG path data (str) or a Path, not {}",
            type_name(obj)
        ))),
    }
}
