//! `ContactTracker`: which pairs began, continued and ended touching from one frame's
//! contacts to the next, over the crate's tracker.

use std::collections::HashMap;

use ph::{NodeId, Rect};
use pixelhit as ph;
use pyo3::PyTraverseError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;

use crate::answers::PyContact;
use crate::errors::bad_argument;
use crate::handles::{PyNode, id_of};

/// Follows contacts from frame to frame: `events = tracker.update(contacts)` once a frame,
/// with the list `Stage.contacts_among` (or `contacts_against`, `contacts_between`) gave.
/// Each `ContactEvent` says whether its pair `began`, `continued` or `ended` touching, with
/// the `Node` objects of the pair and, except for `ended`, this frame's `Contact`. A pair
/// is the same whichever order its nodes come in.
#[pyclass(module = "pixelhit", name = "ContactTracker")]
pub(crate) struct PyContactTracker {
    inner: ph::ContactTracker,
    /// The `Node` objects last seen for each node of a touching pair, so that an `ended`
    /// event hands back the objects the game knows.
    nodes: HashMap<NodeId, Py<PyNode>>,
}

/// One change (or continuation) of a pair's contact, from `ContactTracker.update`.
#[pyclass(module = "pixelhit", name = "ContactEvent", frozen)]
pub(crate) struct PyContactEvent {
    /// `"began"`, `"continued"` or `"ended"`.
    #[pyo3(get)]
    phase: &'static str,
    /// The first node of the pair (as in this frame's contact, or the last one for `ended`).
    #[pyo3(get)]
    a: Py<PyNode>,
    /// The second node of the pair.
    #[pyo3(get)]
    b: Py<PyNode>,
    /// This frame's `Contact` of the pair; `None` for `ended`.
    #[pyo3(get)]
    contact: Option<Py<PyContact>>,
    /// Frames the pair has touched in a row, this one included (for `ended`: the run that
    /// ended).
    #[pyo3(get)]
    frames: u64,
}

#[pymethods]
impl PyContactEvent {
    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "ContactEvent({}, a={}, b={}, frames={})",
            self.phase,
            self.a.get().describe(py),
            self.b.get().describe(py),
            self.frames
        )
    }
}

#[pymethods]
impl PyContactTracker {
    /// A tracker with no pair touching.
    #[new]
    fn new() -> Self {
        PyContactTracker {
            inner: ph::ContactTracker::new(),
            nodes: HashMap::new(),
        }
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        for n in self.nodes.values() {
            visit.call(n)?;
        }
        Ok(())
    }

    fn __clear__(&mut self) {
        self.nodes.clear();
    }

    /// This frame's contacts in, the events out: `began` and `continued` in the order of
    /// `contacts` (a pair listed twice counts once), then `ended` for pairs that touched last
    /// frame and do not now, in the order they were listed then.
    fn update(&mut self, py: Python<'_>, contacts: &Bound<'_, PyAny>) -> PyResult<Vec<PyContactEvent>> {
        let mut given: Vec<Bound<'_, PyContact>> = Vec::new();
        let mut plain = Vec::new();
        for c in contacts.try_iter()? {
            let c = c?;
            let contact = c.cast::<PyContact>().map_err(|_| {
                bad_argument(format!(
                    "ContactTracker.update takes the Contacts of a contacts_* query, not {}",
                    crate::convert::type_name(&c)
                ))
            })?;
            let r = contact.get();
            let (x, y, w, h) = r.rect;
            // Contacts come from the crate, whose rectangles are valid; the tracker reads
            // only the pair.
            let Some(rect) = Rect::from_xywh(x, y, w, h) else {
                return Err(bad_argument(format!("a contact with the rectangle {:?}", r.rect)));
            };
            plain.push(ph::Contact {
                a: r.a.get().id,
                b: r.b.get().id,
                rect,
                overlap_pixels: r.overlap_pixels,
                details: None,
            });
            given.push(contact.clone());
        }
        for c in &given {
            let r = c.get();
            self.nodes.insert(r.a.get().id, r.a.clone_ref(py));
            self.nodes.insert(r.b.get().id, r.b.clone_ref(py));
        }
        let events = self.inner.update(&plain).to_vec();
        let node = |id: NodeId| -> PyResult<Py<PyNode>> {
            self.nodes
                .get(&id)
                .map(|n| n.clone_ref(py))
                .ok_or_else(|| bad_argument("a pair the tracker has not seen".into()))
        };
        let mut out = Vec::with_capacity(events.len());
        for e in &events {
            out.push(PyContactEvent {
                phase: match e.phase {
                    ph::ContactPhase::Began => "began",
                    ph::ContactPhase::Continued => "continued",
                    ph::ContactPhase::Ended => "ended",
                },
                a: node(e.a)?,
                b: node(e.b)?,
                contact: e.index.map(|i| given[i].clone().unbind()),
                frames: e.frames,
            });
        }
        // Keep the objects of the pairs still touching only.
        let inner = &self.inner;
        let touching: std::collections::HashSet<NodeId> = events
            .iter()
            .filter(|e| e.phase != ph::ContactPhase::Ended && inner.is_touching(e.a, e.b))
            .flat_map(|e| [e.a, e.b])
            .collect();
        self.nodes.retain(|id, _| touching.contains(id));
        Ok(out)
    }

    /// Whether `a` and `b` touched in the last update (in either order).
    fn is_touching(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.is_touching(id_of(a)?, id_of(b)?))
    }

    /// Frames in a row that `a` and `b` have touched up to the last update (0 if not now).
    fn frames_touching(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<u64> {
        Ok(self.inner.frames_touching(id_of(a)?, id_of(b)?))
    }

    /// How many pairs touched in the last update.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    /// Forgets every pair, without `ended` events (for a new level).
    fn clear(&mut self) {
        self.inner.clear();
        self.nodes.clear();
    }

    fn __repr__(&self) -> String {
        format!("<ContactTracker: {} pairs touching>", self.inner.len())
    }
}
