//! Motion (semantics.md section 8): `Pose`, the answers `Sweep` and `SweepHit`, and the
//! options and arguments of `Stage.sweep`, `sweeps_against`, `sweeps_between` and
//! `separation` (whose methods live on `Stage`, pyo3 allowing one method block a class).

use ph::{MotionOptions, NodeId};
use pixelhit as ph;
use pyo3::prelude::*;
use pyo3::types::PyTuple;

use crate::convert::{Xywh, type_name, xywh};
use crate::crowd::{NodeList, NodeLookup, collision_options, with_max_work};
use crate::errors::{OrRaise, bad_argument};
use crate::handles::PyStage;
use crate::handles::{PyNode, node_of};

/// Where a node is at one end of a motion: `x`, `y`, `rotation` (degrees clockwise, as
/// given: 370 is not reduced to 10) and `scale_x`, `scale_y`. `node.pose` reads a node's
/// current one (keep it as last frame's); `Pose(x=..., y=...)` makes one (unturned and
/// unscaled unless told). Wherever a pose is asked for, a sequence of 2 `(x, y)`, 3 `(x, y,
/// rotation)` or 5 numbers works too. Poses compare equal when their five numbers do.
#[pyclass(module = "pixelhit", name = "Pose", frozen)]
#[derive(Clone, Copy)]
pub(crate) struct PyPose(pub(crate) ph::Pose);

#[pymethods]
impl PyPose {
    #[new]
    #[pyo3(signature = (x = 0.0, y = 0.0, rotation = 0.0, scale_x = 1.0, scale_y = 1.0))]
    fn new(x: f64, y: f64, rotation: f64, scale_x: f64, scale_y: f64) -> Self {
        PyPose(ph::Pose::new(x, y, rotation, scale_x, scale_y))
    }

    /// x position in the parent.
    #[getter]
    fn x(&self) -> f64 {
        self.0.x
    }

    /// y position in the parent.
    #[getter]
    fn y(&self) -> f64 {
        self.0.y
    }

    /// Rotation in degrees, clockwise on screen, as given.
    #[getter]
    fn rotation(&self) -> f64 {
        self.0.rotation
    }

    /// Horizontal scale (negative mirrors).
    #[getter]
    fn scale_x(&self) -> f64 {
        self.0.scale_x
    }

    /// Vertical scale (negative mirrors).
    #[getter]
    fn scale_y(&self) -> f64 {
        self.0.scale_y
    }

    /// The pose at time `t` of the motion from this pose to `to` (each property
    /// interpolated, rotation as given: 350 to 370 turns 20 degrees clockwise): where a
    /// sweep's moving node is at its answer's `t`.
    fn lerp(&self, to: &Bound<'_, PyAny>, t: f64) -> PyResult<PyPose> {
        Ok(PyPose(self.0.lerp(&pose_of(to, "to")?, t)))
    }

    fn __iter__<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        Ok(self.tuple(py)?.as_any().try_iter()?.into_any())
    }

    fn __len__(&self) -> usize {
        5
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyPose>().is_ok_and(|o| o.get().0 == self.0)
    }

    fn __hash__(&self, py: Python<'_>) -> PyResult<isize> {
        self.tuple(py)?.hash()
    }

    fn __repr__(&self) -> String {
        let p = &self.0;
        format!(
            "Pose(x={}, y={}, rotation={}, scale_x={}, scale_y={})",
            p.x, p.y, p.rotation, p.scale_x, p.scale_y
        )
    }
}

impl PyPose {
    fn tuple<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyTuple>> {
        let p = &self.0;
        PyTuple::new(py, [p.x, p.y, p.rotation, p.scale_x, p.scale_y])
    }
}

/// A pose from a `Pose` or a sequence of 2, 3 or 5 numbers (`(x, y)`, `(x, y, rotation)`,
/// `(x, y, rotation, scale_x, scale_y)`); `what` names the argument in the message.
pub(crate) fn pose_of(obj: &Bound<'_, PyAny>, what: &str) -> PyResult<ph::Pose> {
    if let Ok(p) = obj.cast::<PyPose>() {
        return Ok(p.get().0);
    }
    let refuse = |got: String| {
        bad_argument(format!(
            "{what} is a Pose or (x, y), (x, y, rotation) or (x, y, rotation, scale_x, scale_y), not {got}"
        ))
    };
    if obj.is_instance_of::<pyo3::types::PyString>() {
        return Err(refuse("a str".into()));
    }
    let v: Vec<f64> = obj.extract().map_err(|_| refuse(type_name(obj)))?;
    match v[..] {
        [x, y] => Ok(ph::Pose::at(x, y)),
        [x, y, r] => Ok(ph::Pose::new(x, y, r, 1.0, 1.0)),
        [x, y, r, sx, sy] => Ok(ph::Pose::new(x, y, r, sx, sy)),
        _ => Err(refuse(format!("{} numbers", v.len()))),
    }
}

/// `pose_of` for an optional argument (`None`: the node stays put).
pub(crate) fn opt_pose(obj: Option<&Bound<'_, PyAny>>, what: &str) -> PyResult<Option<ph::Pose>> {
    obj.filter(|o| !o.is_none()).map(|o| pose_of(o, what)).transpose()
}

/// The keyword options every motion query takes, as given.
pub(crate) struct MotionArgs {
    pub(crate) precise: bool,
    pub(crate) tolerance: u8,
    pub(crate) anti_alias: bool,
    pub(crate) max_pixels: Option<u64>,
    pub(crate) skip_hidden: bool,
    pub(crate) parallel: bool,
    pub(crate) max_step: f64,
    pub(crate) max_distance: Option<f64>,
    pub(crate) max_tests: u64,
    /// The work budget of the whole query (`None`: the default).
    pub(crate) max_work: Option<u64>,
}

impl MotionArgs {
    /// The crate's options (`max_step` and `max_distance` are checked by the crate, which
    /// names them in its message).
    pub(crate) fn options(&self) -> PyResult<MotionOptions> {
        let collision = collision_options(
            self.precise,
            self.tolerance,
            self.anti_alias,
            self.max_pixels,
            false,
            self.skip_hidden,
            self.parallel,
        )?;
        let mut opts = MotionOptions::from(with_max_work(collision, self.max_work))
            .max_step(self.max_step)
            .max_tests(self.max_tests);
        if let Some(d) = self.max_distance {
            opts = opts.max_distance(d);
        }
        Ok(opts)
    }
}

/// The first contact of `Stage.sweep`: `t` (0 is the `from` poses, 1 the current ones),
/// `rect` and `overlap_pixels` (what `Stage.collision` answers with the nodes at their
/// poses at `t`), and `last_clear` (the last time tested before `t` with no overlap, no
/// point having moved more than 1/256 px since; `None` when `t` is 0). Always true.
#[pyclass(module = "pixelhit", name = "Sweep", frozen)]
pub(crate) struct PySweep {
    /// The time of the contact in the step, 0 to 1.
    #[pyo3(get)]
    t: f64,
    /// The overlap's `(x, y, width, height)` in the parent's space at `t`.
    #[pyo3(get)]
    rect: Xywh,
    /// Pixels solid in both at `t` (`None` for a query that is not precise).
    #[pyo3(get)]
    overlap_pixels: Option<u64>,
    /// The last time tested clear before `t`, or `None` when `t` is 0.
    #[pyo3(get)]
    last_clear: Option<f64>,
}

impl From<ph::Sweep> for PySweep {
    fn from(s: ph::Sweep) -> Self {
        PySweep {
            t: s.t,
            rect: xywh(s.rect),
            overlap_pixels: s.overlap_pixels,
            last_clear: s.last_clear,
        }
    }
}

fn sweep_text(t: f64, rect: Xywh, count: Option<u64>, last_clear: Option<f64>) -> String {
    let count = count.map_or("None".into(), |n| n.to_string());
    let clear = last_clear.map_or("None".into(), |c| c.to_string());
    format!("t={t}, rect={rect:?}, overlap_pixels={count}, last_clear={clear}")
}

#[pymethods]
impl PySweep {
    fn __bool__(&self) -> bool {
        true
    }

    fn __repr__(&self) -> String {
        format!(
            "Sweep({})",
            sweep_text(self.t, self.rect, self.overlap_pixels, self.last_clear)
        )
    }
}

/// One node that a mover meets during a step (`Stage.sweeps_against`, `sweeps_between`):
/// `mover` and `other` (the `Node` objects given) and the first contact as in `Sweep`:
/// `t`, `rect`, `overlap_pixels`, `last_clear`.
#[pyclass(module = "pixelhit", name = "SweepHit", frozen)]
pub(crate) struct PySweepHit {
    /// The moving node.
    #[pyo3(get)]
    mover: Py<PyNode>,
    /// The node met.
    #[pyo3(get)]
    other: Py<PyNode>,
    /// The time of the first contact in the step, 0 to 1.
    #[pyo3(get)]
    t: f64,
    /// The overlap's `(x, y, width, height)` in the parent's space at `t`.
    #[pyo3(get)]
    rect: Xywh,
    /// Pixels solid in both at `t` (`None` for a query that is not precise).
    #[pyo3(get)]
    overlap_pixels: Option<u64>,
    /// The last time tested clear before `t`, or `None` when `t` is 0.
    #[pyo3(get)]
    last_clear: Option<f64>,
}

#[pymethods]
impl PySweepHit {
    fn __repr__(&self, py: Python<'_>) -> String {
        let (m, o) = (self.mover.get().describe(py), self.other.get().describe(py));
        format!(
            "SweepHit(mover={m}, other={o}, {})",
            sweep_text(self.t, self.rect, self.overlap_pixels, self.last_clear)
        )
    }
}

/// `(node, pose)` pairs: the movers of `sweeps_between`.
pub(crate) fn movers_of<'py>(iterable: &Bound<'py, PyAny>) -> PyResult<(NodeList<'py>, Vec<ph::Pose>)> {
    if iterable.is_instance_of::<pyo3::types::PyString>() {
        return Err(bad_argument(
            "movers is an iterable of (Node, pose) pairs, not a str".into(),
        ));
    }
    let mut list = NodeList {
        ids: Vec::new(),
        objs: Vec::new(),
    };
    let mut poses = Vec::new();
    for (i, item) in iterable.try_iter()?.enumerate() {
        let item = item?;
        let (node, pose): (Bound<'py, PyAny>, Bound<'py, PyAny>) = item.extract().map_err(|_| {
            bad_argument(format!(
                "movers[{i}] is a (Node, pose) pair, not {}",
                type_name(&item)
            ))
        })?;
        let node = node_of(&node)?.clone();
        poses.push(pose_of(&pose, &format!("the pose of movers[{i}]"))?);
        list.ids.push(node.get().id);
        list.objs.push(node);
    }
    Ok((list, poses))
}

/// Runs a many-mover query with the GIL released, then gives each hit the node objects
/// the caller passed in `lists`.
pub(crate) fn sweep_query<'py>(
    slf: &Bound<'py, PyStage>,
    lists: &[&NodeList<'py>],
    query: impl FnOnce(&ph::Stage) -> ph::Result<Vec<ph::SweepHit>> + Send,
) -> PyResult<Vec<PySweepHit>> {
    let hits = {
        let guard = slf.get().read()?;
        let stage = &*guard;
        slf.py().detach(|| query(stage)).or_raise()?
    };
    let lookup = NodeLookup::new(slf, lists);
    hits.into_iter()
        .map(|h| {
            Ok(PySweepHit {
                mover: lookup.get(h.mover)?,
                other: lookup.get(h.other)?,
                t: h.sweep.t,
                rect: xywh(h.sweep.rect),
                overlap_pixels: h.sweep.overlap_pixels,
                last_clear: h.sweep.last_clear,
            })
        })
        .collect()
}

/// `Stage.sweep` once the arguments are read.
#[allow(clippy::too_many_arguments)]
pub(crate) fn sweep(
    stage: &PyStage,
    py: Python<'_>,
    (a, b, parent): (NodeId, NodeId, NodeId),
    a_from: Option<ph::Pose>,
    b_from: Option<ph::Pose>,
    opts: &MotionOptions,
) -> PyResult<Option<PySweep>> {
    let guard = stage.read()?;
    let s = &*guard;
    let r = py.detach(|| s.sweep(a, b, parent, a_from, b_from, opts));
    Ok(r.or_raise()?.map(PySweep::from))
}
