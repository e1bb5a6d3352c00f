//! The many-object queries' plumbing: node lists in, the stage read with the GIL released,
//! contacts out with the very `Node` objects given.

use std::collections::HashMap;

use ph::{CollisionOptions, NodeId};
use pixelhit as ph;
use pyo3::prelude::*;

use crate::answers::PyContact;
use crate::convert::xywh;
use crate::errors::{OrRaise, bad_argument};
use crate::handles::PyStage;
use crate::handles::{PyNode, node_obj, node_of};

/// The nodes of an iterable, as ids and as the objects given (answers hand the same objects
/// back).
pub(crate) struct NodeList<'py> {
    pub(crate) ids: Vec<NodeId>,
    pub(crate) objs: Vec<Bound<'py, PyNode>>,
}

impl<'py> NodeList<'py> {
    pub(crate) fn new(iterable: &Bound<'py, PyAny>) -> PyResult<Self> {
        if iterable.is_instance_of::<pyo3::types::PyString>() {
            return Err(bad_argument("expected an iterable of Nodes, not a str".into()));
        }
        let mut list = NodeList {
            ids: Vec::new(),
            objs: Vec::new(),
        };
        for item in iterable.try_iter()? {
            let item = item?;
            let node = node_of(&item)?.clone();
            list.ids.push(node.get().id);
            list.objs.push(node);
        }
        Ok(list)
    }
}

/// Finds the `Node` objects of answers among those given, making new ones only for ids that
/// were not given.
pub(crate) struct NodeLookup<'a, 'py> {
    stage: &'a Bound<'py, PyStage>,
    given: HashMap<NodeId, Bound<'py, PyNode>>,
}

impl<'a, 'py> NodeLookup<'a, 'py> {
    pub(crate) fn new(stage: &'a Bound<'py, PyStage>, lists: &[&NodeList<'py>]) -> Self {
        let mut given = HashMap::new();
        for list in lists {
            for (id, obj) in list.ids.iter().zip(&list.objs) {
                given.entry(*id).or_insert_with(|| obj.clone());
            }
        }
        NodeLookup { stage, given }
    }

    pub(crate) fn get(&self, id: NodeId) -> PyResult<Py<PyNode>> {
        match self.given.get(&id) {
            Some(obj) => Ok(obj.clone().unbind()),
            None => node_obj(self.stage, id),
        }
    }
}

/// The options of a collision query, checked.
#[allow(clippy::too_many_arguments)]
pub(crate) fn collision_options(
    precise: bool,
    tolerance: u8,
    anti_alias: bool,
    max_pixels: Option<u64>,
    details: bool,
    skip_hidden: bool,
    parallel: bool,
) -> PyResult<CollisionOptions> {
    let mut opts = CollisionOptions::default()
        .precise(precise)
        .tolerance(tolerance)
        .anti_alias(anti_alias)
        .details(details)
        .skip_hidden(skip_hidden)
        .parallel(parallel);
    if let Some(m) = max_pixels {
        opts = opts.max_pixels(m);
    }
    Ok(opts)
}

/// `opts` with the work budget of the whole call when one is given
/// (`CollisionOptions::max_work`; the default otherwise).
pub(crate) fn with_max_work(opts: CollisionOptions, max_work: Option<u64>) -> CollisionOptions {
    match max_work {
        Some(m) => opts.max_work(m),
        None => opts,
    }
}

/// Runs a many-object query on the stage with the GIL released (other Python threads go on
/// meanwhile), then gives each contact the node objects the caller passed in `lists`.
pub(crate) fn crowd_query<'py>(
    slf: &Bound<'py, PyStage>,
    lists: &[&NodeList<'py>],
    query: impl FnOnce(&ph::Stage) -> ph::Result<Vec<ph::Contact>> + Send,
) -> PyResult<Vec<PyContact>> {
    let contacts = {
        let guard = slf.get().read()?;
        let stage = &*guard;
        slf.py().detach(|| query(stage)).or_raise()?
    };
    contacts_to_py(&NodeLookup::new(slf, lists), contacts)
}

pub(crate) fn contacts_to_py(
    lookup: &NodeLookup<'_, '_>,
    contacts: Vec<ph::Contact>,
) -> PyResult<Vec<PyContact>> {
    contacts
        .into_iter()
        .map(|c| {
            Ok(PyContact {
                a: lookup.get(c.a)?,
                b: lookup.get(c.b)?,
                rect: xywh(c.rect),
                overlap_pixels: c.overlap_pixels,
                details: c.details,
            })
        })
        .collect()
}
