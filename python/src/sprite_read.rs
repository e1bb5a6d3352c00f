//! `pixelhit.pygame.World`'s read of its sprites, the common case in Rust.
//!
//! Every World call reads each sprite it is asked about (its art, rect, angle and scale),
//! checks the rect against the declared transform, and poses the sprite's node when it
//! moved. Written in Python that was about 5 µs a sprite, most of a frame's glue. The case
//! a game meets every frame (a sprite already on the stage, the same art, whole-pixel
//! integers in its rect, finite numbers, a rect of the size the transform gives, art that
//! pixelhit samples) is read here; anything else (a new sprite or art, a value to convert or
//! refuse) makes [`read_posed_sprites`] answer `None` before it changes anything, and the
//! Python code reads the call as before, with its own errors. So the two paths give the same
//! reads and the same poses (python/tests/test_pygame_world_read.py compares them over random
//! games), and an error's text is written in one place only.

use pixelhit as ph;
use pyo3::PyTraverseError;
use pyo3::gc::PyVisit;
use pyo3::intern;
use pyo3::prelude::*;
use pyo3::sync::PyOnceLock;
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PySlice, PyString, PyType};

use crate::errors::OrRaise;
use crate::handles::PyNode;
use crate::renderer::transform_from;

/// What a World keeps for one sprite: its bitmap node, the Surface it shows and whether
/// pixelhit samples that Surface's turned picture, the pose last given to the node, its own
/// threshold, and whether it was ever in a group. A Rust class so that the read below finds
/// these without a Python attribute lookup each.
#[pyclass(module = "pixelhit", name = "_SpriteEntry")]
pub(crate) struct PySpriteEntry {
    #[pyo3(get, set)]
    pub(crate) node: Py<PyNode>,
    #[pyo3(get)]
    surface: Py<PyAny>,
    /// The surface's size, once read: a Surface never changes size in place, and setting
    /// another surface forgets it.
    surface_size: Option<(u32, u32)>,
    #[pyo3(get, set)]
    sampled: bool,
    #[pyo3(get)]
    pose: Option<(f64, f64, f64, f64)>,
    /// The size of the surface drawn at `pose` (of `surface`), once the read below worked it
    /// out: a sprite whose pose did not change is not planned again. Setting the pose or
    /// the surface forgets it.
    drawn_size: Option<(u32, u32)>,
    #[pyo3(get, set)]
    pub(crate) threshold: Option<u8>,
    #[pyo3(get, set)]
    was_alive: bool,
}

#[pymethods]
impl PySpriteEntry {
    #[new]
    fn new(node: Py<PyNode>, surface: Py<PyAny>, sampled: bool, threshold: Option<u8>) -> Self {
        PySpriteEntry {
            node,
            surface,
            surface_size: None,
            sampled,
            pose: None,
            drawn_size: None,
            threshold,
            was_alive: false,
        }
    }

    #[setter]
    fn set_surface(&mut self, surface: Py<PyAny>) {
        self.surface = surface;
        self.surface_size = None;
        self.drawn_size = None;
    }

    #[setter]
    fn set_pose(&mut self, pose: Option<(f64, f64, f64, f64)>) {
        self.pose = pose;
        self.drawn_size = None;
    }

    /// The node holds the stage, which holds the sprite as its data: a cycle the garbage
    /// collector must see through this entry.
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.node)?;
        visit.call(&self.surface)
    }
}

/// One sprite as a World call sees it: the sprite, its World entry, the drawn rect's corner
/// and size, and the angle and scale it was drawn with.
#[pyclass(module = "pixelhit", name = "_SpriteRead", frozen)]
pub(crate) struct PySpriteRead {
    #[pyo3(get)]
    pub(crate) sprite: Py<PyAny>,
    #[pyo3(get)]
    pub(crate) entry: Py<PySpriteEntry>,
    #[pyo3(get)]
    x: i64,
    #[pyo3(get)]
    y: i64,
    #[pyo3(get)]
    w: i64,
    #[pyo3(get)]
    h: i64,
    #[pyo3(get)]
    angle: f64,
    #[pyo3(get)]
    scale: f64,
}

#[pymethods]
impl PySpriteRead {
    #[new]
    #[allow(clippy::too_many_arguments)]
    fn new(
        sprite: Py<PyAny>,
        entry: Py<PySpriteEntry>,
        x: i64,
        y: i64,
        w: i64,
        h: i64,
        angle: f64,
        scale: f64,
    ) -> Self {
        PySpriteRead {
            sprite,
            entry,
            x,
            y,
            w,
            h,
            angle,
            scale,
        }
    }

    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.sprite)?;
        visit.call(&self.entry)
    }

    /// Whether the two drawn rects overlap (share a pixel).
    fn touches_box(&self, other: &PySpriteRead) -> bool {
        self.x < other.x + other.w
            && other.x < self.x + self.w
            && self.y < other.y + other.h
            && other.y < self.y + self.h
    }
}

/// How the game draws a sprite, as `World(transform=...)` names it.
#[derive(Clone, Copy, PartialEq)]
enum Drawn {
    AsItIs,
    Rotate,
    Rotozoom,
}

impl Drawn {
    fn name(self) -> &'static str {
        match self {
            Drawn::AsItIs => "none",
            Drawn::Rotate => "rotate",
            Drawn::Rotozoom => "rotozoom",
        }
    }
}

/// The attribute names a World reads and how its sprites are drawn.
pub(crate) struct Reading<'a, 'py> {
    image: &'a Bound<'py, PyString>,
    angle: Option<&'a Bound<'py, PyString>>,
    scale: Option<&'a Bound<'py, PyString>>,
    drawn: Drawn,
}

impl<'a, 'py> Reading<'a, 'py> {
    /// The reading of a World whose `transform` is given by name.
    ///
    /// # Errors
    /// An unknown transform.
    pub(crate) fn new(
        image: &'a Bound<'py, PyString>,
        angle: Option<&'a Bound<'py, PyString>>,
        scale: Option<&'a Bound<'py, PyString>>,
        transform: &str,
    ) -> PyResult<Self> {
        let drawn = match transform {
            "none" => Drawn::AsItIs,
            "rotate" => Drawn::Rotate,
            "rotozoom" => Drawn::Rotozoom,
            other => {
                return Err(crate::errors::bad_argument(format!(
                    "unknown transform {other:?}"
                )));
            }
        };
        Ok(Reading {
            image,
            angle,
            scale,
            drawn,
        })
    }
}

/// A sprite read and checked, its node not yet posed.
pub(crate) struct Checked<'py> {
    pub(crate) sprite: Bound<'py, PyAny>,
    pub(crate) entry: Bound<'py, PySpriteEntry>,
    x: i64,
    y: i64,
    w: i64,
    h: i64,
    angle: f64,
    scale: f64,
    /// The pygame transform the node is drawn with, planned for its art, and the size of
    /// the surface it draws; `None` for `transform="none"` or a pose the node already has.
    planned: Option<ph::PlannedRenderer>,
}

/// Reads `sprites` (each once) for a World whose entries are `entries` (sprite to
/// `_Entry`), poses the nodes that moved and returns each sprite's `_SpriteRead`; or
/// `None`, having changed nothing, when a sprite is not the common case (see the module).
/// `image`, `angle` and `scale` name the attributes read; `transform` is the World's.
///
/// # Errors
/// What posing a node raises (a node removed by hand), or an unknown transform.
#[pyfunction(name = "_read_posed_sprites")]
#[pyo3(signature = (sprites, entries, image, angle, scale, transform))]
pub(crate) fn read_posed_sprites<'py>(
    py: Python<'py>,
    sprites: &Bound<'py, PyList>,
    entries: &Bound<'py, PyDict>,
    image: &Bound<'py, PyString>,
    angle: Option<&Bound<'py, PyString>>,
    scale: Option<&Bound<'py, PyString>>,
    transform: &str,
) -> PyResult<Option<Bound<'py, PyDict>>> {
    let reading = Reading::new(image, angle, scale, transform)?;
    let out = PyDict::new(py);
    let read = read_and_pose(
        py,
        sprites,
        entries,
        &reading,
        |sprite| out.contains(sprite),
        |checked| out.set_item(&checked.sprite, checked.read()),
    )?;
    Ok(read.map(|_| out))
}

/// Reads `sprites` as [`read_posed_sprites`] does, handing each checked sprite to `store`
/// (which makes its `_SpriteRead` if it wants one: `World.among` does not); a sprite
/// that `seen` says was read already is skipped. `None`, having changed nothing, when a
/// sprite is not the common case; otherwise the nodes are posed and the checked sprites
/// returned in order.
pub(crate) fn read_and_pose<'py>(
    py: Python<'py>,
    sprites: &Bound<'py, PyList>,
    entries: &Bound<'py, PyDict>,
    reading: &Reading<'_, 'py>,
    seen: impl Fn(&Bound<'py, PyAny>) -> PyResult<bool>,
    mut store: impl FnMut(&Checked<'py>) -> PyResult<()>,
) -> PyResult<Option<Vec<Checked<'py>>>> {
    let mut checked = Vec::with_capacity(sprites.len());
    for sprite in sprites.iter() {
        if seen(&sprite)? {
            continue;
        }
        let Some(entry) = entries.get_item(&sprite)? else {
            return Ok(None);
        };
        let Ok(entry) = entry.cast_into::<PySpriteEntry>() else {
            return Ok(None);
        };
        let Some(sprite_checked) = check(py, reading, sprite, entry) else {
            return Ok(None);
        };
        store(&sprite_checked)?;
        checked.push(sprite_checked);
    }
    for c in &checked {
        mark_alive(py, c)?;
    }
    pose_all(py, &checked)?;
    Ok(Some(checked))
}

/// The sprite's read, if it is the common case.
fn check<'py>(
    py: Python<'py>,
    reading: &Reading<'_, 'py>,
    sprite: Bound<'py, PyAny>,
    entry: Bound<'py, PySpriteEntry>,
) -> Option<Checked<'py>> {
    let surface = sprite.getattr(reading.image).ok()?;
    let (kept_size, kept_pose) = {
        let kept = entry.try_borrow().ok()?;
        if !surface.is(&kept.surface) || (reading.drawn != Drawn::AsItIs && !kept.sampled) {
            return None;
        }
        (kept.surface_size, kept.pose.zip(kept.drawn_size))
    };
    let [x, y, w, h] = rect_ints(&sprite.getattr(intern!(py, "rect")).ok()?)?;
    // Past pygame's C ints the Python read refuses (`_BLIT_LIMIT`).
    if x.unsigned_abs().max(y.unsigned_abs()) >= 1 << 31 {
        return None;
    }
    let angle = match reading.angle {
        Some(name) => finite(&sprite.getattr(name).ok()?)?,
        None => 0.0,
    };
    let scale = match reading.scale {
        Some(name) => finite(&sprite.getattr(name).ok()?)?,
        None => 1.0,
    };
    let (aw, ah) = match kept_size {
        Some(size) => size,
        None => {
            let size: (u32, u32) = surface
                .call_method0(intern!(py, "get_size"))
                .ok()?
                .extract()
                .ok()?;
            entry.try_borrow_mut().ok()?.surface_size = Some(size);
            size
        }
    };
    // As the node is given it: x and y as floats.
    let pose = (x as f64, y as f64, angle, scale);
    let (planned, want) = match (reading.drawn, kept_pose) {
        (Drawn::AsItIs, _) => (None, (aw, ah)),
        // The node has this pose (and so its renderer) already: the size it was planned to.
        (_, Some((kept, size))) if kept == pose => (None, size),
        // The node's renderer (the imported pygame's flavour), planned once for the size
        // check and the node: pygame's sizes do not depend on the flavour, so the check is
        // the Python read's (`pygame_output_size`). A transform pygame cannot compute
        // (semantics 4.9) is left to the Python read, which refuses it.
        (drawn, _) => {
            let t = transform_from(py, drawn.name(), angle, scale, (false, false), None).ok()?;
            let planned = ph::PlannedRenderer::new(ph::BitmapRenderer::Pygame(t), aw, ah).ok()?;
            (Some(planned), planned.size())
        }
    };
    if (w, h) != (i64::from(want.0), i64::from(want.1)) {
        return None;
    }
    Some(Checked {
        sprite,
        entry,
        x,
        y,
        w,
        h,
        angle,
        scale,
        planned,
    })
}

impl Checked<'_> {
    /// The pose its node is given: the rect's corner (as floats), the angle and the scale.
    fn pose(&self) -> (f64, f64, f64, f64) {
        (self.x as f64, self.y as f64, self.angle, self.scale)
    }

    /// The sprite's `_SpriteRead`.
    fn read(&self) -> PySpriteRead {
        PySpriteRead {
            sprite: self.sprite.clone().unbind(),
            entry: self.entry.clone().unbind(),
            x: self.x,
            y: self.y,
            w: self.w,
            h: self.h,
            angle: self.angle,
            scale: self.scale,
        }
    }
}

/// pygame's `Rect` type (pygame's or pygame-ce's: the one imported), found once.
static RECT: PyOnceLock<Py<PyType>> = PyOnceLock::new();

/// `slice(None)`, made once.
static WHOLE: PyOnceLock<Py<PySlice>> = PyOnceLock::new();

/// A rect's `(x, y, width, height)` when each is an `int` (what the Python read takes
/// without converting or refusing). A `pygame.Rect` (that very type, whose `rect[:]` is
/// `[x, y, width, height]`) is read in one call; anything else by its four attributes,
/// as the Python read reads it (half a sprite's read went to those four lookups).
fn rect_ints(rect: &Bound<'_, PyAny>) -> Option<[i64; 4]> {
    let py = rect.py();
    let int =
        |v: Bound<'_, PyAny>| -> Option<i64> { v.is_exact_instance_of::<PyInt>().then(|| v.extract().ok())? };
    let is_rect = RECT
        .import(py, "pygame", "Rect")
        .is_ok_and(|t| rect.get_type().is(t));
    if is_rect {
        let whole = WHOLE.get_or_init(py, || PySlice::full(py).unbind()).bind(py);
        let items = rect.get_item(whole).ok()?;
        let items = items.cast::<PyList>().ok()?;
        if items.len() != 4 {
            return None;
        }
        let mut out = [0; 4];
        for (o, v) in out.iter_mut().zip(items.iter()) {
            *o = int(v)?;
        }
        return Some(out);
    }
    let x = int(rect.getattr(intern!(py, "x")).ok()?)?;
    let y = int(rect.getattr(intern!(py, "y")).ok()?)?;
    let w = int(rect.getattr(intern!(py, "width")).ok()?)?;
    let h = int(rect.getattr(intern!(py, "height")).ok()?)?;
    Some([x, y, w, h])
}

/// A finite int or float that is not a bool, as a float (what the Python read accepts
/// without converting or refusing).
fn finite(v: &Bound<'_, PyAny>) -> Option<f64> {
    if v.is_instance_of::<PyBool>() {
        return None;
    }
    let number = if let Ok(f) = v.cast::<PyFloat>() {
        f.value()
    } else if v.is_exact_instance_of::<PyInt>() {
        v.extract::<f64>().ok()?
    } else {
        return None;
    };
    number.is_finite().then_some(number)
}

/// Marks a sprite seen alive (in a group), as the Python read does.
fn mark_alive<'py>(py: Python<'py>, c: &Checked<'py>) -> PyResult<()> {
    // No borrow of the entry is held while Python code (the sprite's `alive`) runs.
    if !c.entry.try_borrow()?.was_alive
        && c.sprite.hasattr(intern!(py, "alive"))?
        && c.sprite.call_method0(intern!(py, "alive"))?.is_truthy()?
    {
        c.entry.try_borrow_mut()?.was_alive = true;
    }
    Ok(())
}

/// Poses the nodes whose pose changed, as the Python read does, under one lock of the
/// stage for them all (a World's nodes are all on its stage; a node on another stage is
/// posed under that one's lock, after). No Python code runs meanwhile.
fn pose_all<'py>(py: Python<'py>, checked: &[Checked<'py>]) -> PyResult<()> {
    let changed = |c: &Checked<'py>| -> PyResult<bool> { Ok(c.entry.try_borrow()?.pose != Some(c.pose())) };
    let mut first = None;
    for c in checked {
        if changed(c)? {
            first = Some(c.entry.try_borrow()?.node.get().stage.clone_ref(py));
            break;
        }
    }
    let Some(main) = first else {
        return Ok(());
    };
    let main = main.bind(py);
    let mut elsewhere = Vec::new();
    {
        let mut stage = main.get().write()?;
        for c in checked {
            if !changed(c)? {
                continue;
            }
            if c.entry.try_borrow()?.node.get().stage.is(main) {
                pose_node(&mut stage, c)?;
            } else {
                elsewhere.push(c);
            }
        }
    }
    for c in elsewhere {
        let on = c.entry.try_borrow()?.node.get().stage.clone_ref(py);
        pose_node(&mut *on.bind(py).get().write()?, c)?;
    }
    Ok(())
}

/// Places the sprite's node at its rect's corner and gives it its planned renderer.
fn pose_node(stage: &mut ph::Stage, c: &Checked<'_>) -> PyResult<()> {
    let mut entry = c.entry.try_borrow_mut()?;
    let pose = c.pose();
    let id = entry.node.get().id;
    stage.set_position(id, pose.0, pose.1).or_raise()?;
    if let Some(planned) = &c.planned {
        stage.set_planned_renderer(id, planned).or_raise()?;
    }
    entry.pose = Some(pose);
    entry.drawn_size = c.planned.map(|p| p.size());
    Ok(())
}
