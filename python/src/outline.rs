//! `Stage.outline`: the boundary of a node's solid pixels as polygons of `(x, y)` tuples.

use pixelhit as ph;
use pyo3::prelude::*;

use crate::errors::OrRaise;
use crate::handles::{PyStage, id_of};

/// One closed polygon, its last vertex joined to its first.
pub(crate) type Polygon = Vec<(f64, f64)>;

/// [`ph::Stage::outline_with`] for `node` in `parent`'s pixels, computed without holding
/// the GIL.
pub(crate) fn outline(
    stage: &PyStage,
    py: Python<'_>,
    node: &Bound<'_, PyAny>,
    parent: &Bound<'_, PyAny>,
    opts: ph::OutlineOptions,
) -> PyResult<Vec<Polygon>> {
    let (node, parent) = (id_of(node)?, id_of(parent)?);
    let stage = stage.read()?;
    let stage = &*stage;
    let loops = py.detach(|| stage.outline_with(node, parent, &opts)).or_raise()?;
    Ok(loops
        .into_iter()
        .map(|l| l.into_iter().map(|p| (p.x, p.y)).collect())
        .collect())
}
