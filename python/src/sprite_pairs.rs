//! `pixelhit.pygame.World.among`'s query in Rust: the touching pairs of a group's sprites
//! straight from the World's entries.
//!
//! The Python code made a `_SpriteRead` and a dict entry per sprite, a `Node` list, a
//! `Contact` object per touching pair, and looked up each contact's two sprites through
//! `Node.data`: at 1,000 rocks about a sixth of a frame's instructions went to that
//! plumbing. Here the nodes come from the entries and each contact is answered with the
//! sprite objects given, in the query's order.

use ph::{CollisionOptions, NodeId};
use pixelhit as ph;
use pyo3::exceptions::PyRuntimeError;
use pyo3::prelude::*;
use pyo3::types::{PyDict, PyList, PyString};

use crate::errors::OrRaise;
use crate::handles::{PyStage, id_of};
use crate::sprite_read::{PySpriteEntry, PySpriteRead, Reading, read_and_pose};

/// Touching pairs of sprites, as `(sprite, sprite)`.
type SpritePairs = Vec<(Py<PyAny>, Py<PyAny>)>;

/// The tolerance a sprite is queried with: its own pygame threshold's when it has one,
/// else the call's; `None` when nothing of it can be solid (threshold 255), as
/// `pixelhit.pygame.tolerance_for` says.
fn sprite_tolerance(own_threshold: Option<u8>, call: Option<u8>) -> Option<u8> {
    match own_threshold {
        Some(255) => None,
        Some(threshold) => Some(254 - threshold),
        None => call,
    }
}

/// The sprite (its index in the query) of each node asked about, two lookups a contact: a
/// table over the nodes' slots when they lie close together (a World adds its sprites'
/// nodes one after another), else the nodes sorted and searched. Either is the size of the
/// query, not of the stage.
enum SpriteOf {
    /// `slots[slot - first]`: the node in that slot and its sprite.
    Table {
        first: u32,
        slots: Vec<Option<(NodeId, usize)>>,
    },
    Sorted(Vec<(NodeId, usize)>),
}

impl SpriteOf {
    fn new(mut nodes: Vec<(NodeId, usize)>) -> SpriteOf {
        let slot = |&(id, _): &(NodeId, usize)| id.index();
        let (Some(first), Some(last)) = (nodes.iter().map(slot).min(), nodes.iter().map(slot).max()) else {
            return SpriteOf::Sorted(nodes);
        };
        let span = (last - first) as usize + 1;
        if span > 4 * nodes.len() + 64 {
            nodes.sort_unstable();
            return SpriteOf::Sorted(nodes);
        }
        let mut slots = vec![None; span];
        for &(id, i) in &nodes {
            slots[(id.index() - first) as usize] = Some((id, i));
        }
        SpriteOf::Table { first, slots }
    }

    /// The sprite of `id`, `None` for a node not asked about.
    fn get(&self, id: NodeId) -> Option<usize> {
        match self {
            SpriteOf::Table { first, slots } => {
                let at = id.index().checked_sub(*first)? as usize;
                slots
                    .get(at)
                    .copied()
                    .flatten()
                    .filter(|&(node, _)| node == id)
                    .map(|(_, i)| i)
            }
            SpriteOf::Sorted(nodes) => nodes
                .binary_search_by_key(&id, |&(node, _)| node)
                .ok()
                .map(|at| nodes[at].1),
        }
    }
}

/// Every touching pair among `sprites` (each with its World entry, each once, in the
/// group's order) as `(sprite, sprite)`, in the order of `Stage.contacts_among` on their
/// nodes in `parent` with `tolerance` (the call's: `None` when only sprites with a
/// threshold of their own can be solid) and without anti-aliasing; sprites that cannot be
/// solid are left out.
fn touching_pairs<'py>(
    stage: &Bound<'py, PyStage>,
    sprites: &[(&Bound<'py, PyAny>, &Bound<'py, PySpriteEntry>)],
    parent: NodeId,
    tolerance: Option<u8>,
) -> PyResult<SpritePairs> {
    let py = stage.py();
    let mut ids = Vec::with_capacity(sprites.len());
    // Each node with its sprite's index.
    let mut nodes: Vec<(NodeId, usize)> = Vec::with_capacity(sprites.len());
    for (i, (_, entry)) in sprites.iter().enumerate() {
        let entry = entry.try_borrow()?;
        if sprite_tolerance(entry.threshold, tolerance).is_none() {
            continue;
        }
        let id = entry.node.get().id;
        ids.push(id);
        nodes.push((id, i));
    }
    if ids.len() < 2 {
        return Ok(Vec::new());
    }
    let opts = CollisionOptions::default()
        .tolerance(tolerance.unwrap_or(0))
        .anti_alias(false);
    // Only which pairs touch: `touching_among` gives `contacts_among`'s pairs, each pair
    // stopping at its first shared word.
    let touching = {
        let guard = stage.get().read()?;
        let stage = &*guard;
        py.detach(|| stage.touching_among(&ids, parent, &opts))
            .or_raise()?
    };
    // The pairs name only nodes of `ids`.
    let sprite_of = SpriteOf::new(nodes);
    let sprite = |id: NodeId| -> PyResult<Py<PyAny>> {
        let i = sprite_of.get(id).ok_or_else(|| {
            PyRuntimeError::new_err(format!("a contact names node {id:?}, not one asked about"))
        })?;
        Ok(sprites[i].0.clone().unbind())
    };
    touching
        .iter()
        .map(|&(a, b)| Ok((sprite(a)?, sprite(b)?)))
        .collect()
}

/// Every touching pair among the sprites of `reads` (the World's reads, each sprite once,
/// in the group's order): see [`touching_pairs`].
///
/// # Errors
/// What `Stage.contacts_among` raises.
#[pyfunction(name = "_sprite_pairs_among")]
#[pyo3(signature = (stage, reads, parent, tolerance))]
pub(crate) fn sprite_pairs_among<'py>(
    stage: &Bound<'py, PyStage>,
    reads: Vec<Bound<'py, PySpriteRead>>,
    parent: &Bound<'py, PyAny>,
    tolerance: Option<u8>,
) -> PyResult<SpritePairs> {
    let py = stage.py();
    let bound: Vec<_> = reads
        .iter()
        .map(|r| (r.get().sprite.bind(py), r.get().entry.bind(py)))
        .collect();
    let sprites: Vec<_> = bound.iter().map(|(s, e)| (*s, *e)).collect();
    touching_pairs(stage, &sprites, id_of(parent)?, tolerance)
}

/// `World.among` in one call for the common case: reads and poses `sprites` (distinct:
/// the caller's dict keys) as `_read_posed_sprites` does, then answers as
/// [`sprite_pairs_among`]; `None`, having changed nothing, when a sprite is not the common
/// case.
///
/// # Errors
/// What posing a node or `Stage.contacts_among` raises, or an unknown transform.
#[pyfunction(name = "_read_pairs_among")]
#[pyo3(signature = (sprites, entries, image, angle, scale, transform, stage, parent, tolerance))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn read_pairs_among<'py>(
    sprites: &Bound<'py, PyList>,
    entries: &Bound<'py, PyDict>,
    image: &Bound<'py, PyString>,
    angle: Option<&Bound<'py, PyString>>,
    scale: Option<&Bound<'py, PyString>>,
    transform: &str,
    stage: &Bound<'py, PyStage>,
    parent: &Bound<'py, PyAny>,
    tolerance: Option<u8>,
) -> PyResult<Option<SpritePairs>> {
    let py = stage.py();
    let parent = id_of(parent)?;
    let reading = Reading::new(image, angle, scale, transform)?;
    let Some(checked) = read_and_pose(py, sprites, entries, &reading, |_| Ok(false), |_| Ok(()))? else {
        return Ok(None);
    };
    let sprites: Vec<_> = checked.iter().map(|c| (&c.sprite, &c.entry)).collect();
    touching_pairs(stage, &sprites, parent, tolerance).map(Some)
}
