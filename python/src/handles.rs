//! The handles every class file shares: `PyStage` (the stage behind its lock, and each
//! node's user data) and `PyNode` (a node id with its stage), and the conversions between
//! Python objects and node ids. The classes' Python methods are in `stage.rs` and
//! `node.rs`; the answers, the many-object and motion plumbing and the classes all import
//! this module and none of it imports them, so no module imports one that imports it back.

use std::collections::HashMap;
use std::sync::{Mutex, RwLock, RwLockReadGuard, RwLockWriteGuard, TryLockError};

use ph::NodeId;
use pixelhit as ph;
use pyo3::PyTraverseError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;

use crate::convert::type_name;
use crate::errors::{OrRaise, bad_argument, busy};

/// The display tree, and every question asked of it.
///
/// `Stage()` holds an empty root container (`stage.root`). Add nodes with
/// `add_container`, `add_bitmap` and `add_frames`, give containers fills and strokes with
/// `add_graphic`, and set each node's properties as attributes of its `Node`. Queries
/// (`collision_rect`, `collision`, `contacts_among`, `pick`, `hit_test_point`, `bounds`, ...)
/// answer in the space of the node given as `parent` or `space`, in pixels, y down,
/// rotations in degrees clockwise. Rectangles are `(x, y, width, height)` tuples.
#[pyclass(module = "pixelhit", name = "Stage", frozen)]
pub(crate) struct PyStage {
    inner: RwLock<ph::Stage>,
    /// Each node's user data (`node.data`), kept here so that every `Node` object of the
    /// node sees it; entries of removed nodes are dropped when they are removed.
    data: Mutex<HashMap<NodeId, Py<PyAny>>>,
}

impl PyStage {
    /// The stage for a query; `BusyError` while another thread changes it.
    pub(crate) fn read(&self) -> PyResult<RwLockReadGuard<'_, ph::Stage>> {
        match self.inner.try_read() {
            Ok(g) => Ok(g),
            Err(TryLockError::WouldBlock) => Err(busy("reads")),
            // A panic while changing the stage cannot happen on input (nothing here
            // panics); should one have happened, the stage is still whole (every change is
            // checked before it is made).
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        }
    }

    /// The stage for a change; `BusyError` while another thread reads or changes it.
    pub(crate) fn write(&self) -> PyResult<RwLockWriteGuard<'_, ph::Stage>> {
        match self.inner.try_write() {
            Ok(g) => Ok(g),
            Err(TryLockError::WouldBlock) => Err(busy("changes")),
            Err(TryLockError::Poisoned(p)) => Ok(p.into_inner()),
        }
    }

    /// The user data map (never held while Python code runs).
    fn data_map(&self) -> std::sync::MutexGuard<'_, HashMap<NodeId, Py<PyAny>>> {
        self.data.lock().unwrap_or_else(|p| p.into_inner())
    }

    /// `node`'s user data, or `None`.
    pub(crate) fn data_of(&self, py: Python<'_>, id: NodeId) -> Option<Py<PyAny>> {
        self.data_map().get(&id).map(|d| d.clone_ref(py))
    }

    /// Sets (`Some`) or deletes (`None`) `node`'s user data; the old value is dropped after
    /// the map is unlocked (its `__del__` may run Python code that reads the map).
    pub(crate) fn set_data(&self, id: NodeId, value: Option<Py<PyAny>>) -> PyResult<()> {
        if !self.read()?.contains(id) {
            // The crate's message for a removed node.
            self.read()?.parent(id).or_raise()?;
        }
        let old = match value {
            Some(v) => self.data_map().insert(id, v),
            None => self.data_map().remove(&id),
        };
        drop(old);
        Ok(())
    }

    /// Drops the user data of nodes that no longer live (after a removal).
    pub(crate) fn forget_removed(&self) -> PyResult<()> {
        let removed: Vec<Py<PyAny>> = {
            let stage = self.read()?;
            let mut map = self.data_map();
            let gone: Vec<NodeId> = map.keys().copied().filter(|id| !stage.contains(*id)).collect();
            gone.iter().filter_map(|id| map.remove(id)).collect()
        };
        drop(removed);
        Ok(())
    }

    /// A stage holding only an empty root container.
    pub(crate) fn empty() -> Self {
        PyStage {
            inner: RwLock::new(ph::Stage::new()),
            data: Mutex::new(HashMap::new()),
        }
    }

    /// Shows the garbage collector the user data. Never blocks it: a map in use (by a call
    /// on another thread) is skipped this time.
    pub(crate) fn traverse_data(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        if let Ok(map) = self.data.try_lock() {
            for v in map.values() {
                visit.call(v)?;
            }
        }
        Ok(())
    }

    /// Drops all user data (the collector breaking a cycle through it).
    pub(crate) fn clear_data(&self) {
        let old = std::mem::take(&mut *self.data_map());
        drop(old);
    }
}

/// A handle to one node of a `Stage`: its properties are attributes (`node.x = 10`), and
/// it keeps its stage alive. Two `Node` objects for the same node compare equal and hash
/// alike. Using a node after it (or an ancestor) was removed raises `PixelhitError`.
#[pyclass(module = "pixelhit", name = "Node", frozen)]
pub(crate) struct PyNode {
    pub(crate) stage: Py<PyStage>,
    pub(crate) id: NodeId,
}

/// A `Node` object for `id` of `stage`.
pub(crate) fn node_obj(stage: &Bound<'_, PyStage>, id: NodeId) -> PyResult<Py<PyNode>> {
    Py::new(
        stage.py(),
        PyNode {
            stage: stage.clone().unbind(),
            id,
        },
    )
}

pub(crate) fn node_of<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyNode>> {
    obj.cast::<PyNode>()
        .map_err(|_| bad_argument(format!("expected a Node, not {}", type_name(obj))))
}

pub(crate) fn id_of(obj: &Bound<'_, PyAny>) -> PyResult<NodeId> {
    Ok(node_of(obj)?.get().id)
}

pub(crate) fn opt_id(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<NodeId>> {
    obj.filter(|o| !o.is_none()).map(id_of).transpose()
}

impl PyNode {
    /// `<Node NAME>` as `repr` shows it (also in the answers' reprs).
    pub(crate) fn describe(&self, py: Python<'_>) -> String {
        match self.stage.bind(py).get().read() {
            Ok(s) if s.contains(self.id) => format!("<Node {}>", s.describe(self.id)),
            Ok(_) => format!("<Node #{} (removed)>", self.id.index()),
            Err(_) => format!("<Node #{}>", self.id.index()),
        }
    }
}
