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
use pyo3::types::{PyBool, PyDict, PyFloat, PyInt, PyList, PyString};

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
    #[pyo3(get, set)]
    pose: Option<(f64, f64, f64, f64)>,
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
            threshold,
            was_alive: false,
        }
    }

    #[setter]
    fn set_surface(&mut self, surface: Py<PyAny>) {
        self.surface = surface;
        self.surface_size = None;
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
    /// The pygame transform the node is drawn with, `None` for `transform="none"`.
    renderer: Option<ph::PygameTransform>,
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
        pose(py, c)?;
    }
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
    let kept_size = {
        let kept = entry.try_borrow().ok()?;
        if !surface.is(&kept.surface) || (reading.drawn != Drawn::AsItIs && !kept.sampled) {
            return None;
        }
        kept.surface_size
    };
    let rect = sprite.getattr(intern!(py, "rect")).ok()?;
    let whole = |name: &Bound<'py, PyString>| -> Option<i64> {
        let v = rect.getattr(name).ok()?;
        v.is_exact_instance_of::<PyInt>()
            .then(|| v.extract::<i64>().ok())?
    };
    let x = whole(intern!(py, "x"))?;
    let y = whole(intern!(py, "y"))?;
    // Past pygame's C ints the Python read refuses (`_BLIT_LIMIT`).
    if x.unsigned_abs().max(y.unsigned_abs()) >= 1 << 31 {
        return None;
    }
    let w = whole(intern!(py, "width"))?;
    let h = whole(intern!(py, "height"))?;
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
    // The node's renderer (the imported pygame's flavour), made once: its size check is the
    // Python read's (`pygame_output_size`), since pygame's sizes do not depend on the flavour.
    let renderer = match reading.drawn {
        Drawn::AsItIs => None,
        drawn => Some(transform_from(py, drawn.name(), angle, scale, (false, false), None).ok()?),
    };
    let want = match renderer {
        None => (aw, ah),
        Some(t) => {
            // One plan: `output_size` is (0, 0) for what `check` refuses but a side past
            // pygame's limit, which is looked at here; only an empty surface is checked
            // again (it may be a refused transform).
            let size = t.output_size(aw, ah);
            if size.0.max(size.1) > ph::PYGAME_MAX_SIDE || (size == (0, 0) && t.check(aw, ah).is_err()) {
                return None;
            }
            size
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
        renderer,
    })
}

impl Checked<'_> {
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

/// Marks a sprite seen alive and poses its node when the pose changed, as the Python read
/// does.
fn pose<'py>(py: Python<'py>, c: &Checked<'py>) -> PyResult<()> {
    // No borrow of the entry is held while Python code (the sprite's `alive`) runs.
    if !c.entry.try_borrow()?.was_alive
        && c.sprite.hasattr(intern!(py, "alive"))?
        && c.sprite.call_method0(intern!(py, "alive"))?.is_truthy()?
    {
        c.entry.try_borrow_mut()?.was_alive = true;
    }
    // As the node was given it: x and y as floats.
    let pose = (c.x as f64, c.y as f64, c.angle, c.scale);
    let node = {
        let entry = c.entry.try_borrow()?;
        if entry.pose == Some(pose) {
            return Ok(());
        }
        entry.node.clone_ref(py)
    };
    let node = node.get();
    {
        let mut stage = node.stage.bind(py).get().write()?;
        stage.set_position(node.id, pose.0, pose.1).or_raise()?;
        if let Some(t) = c.renderer {
            stage
                .set_bitmap_renderer(node.id, Some(ph::BitmapRenderer::Pygame(t)))
                .or_raise()?;
        }
    }
    c.entry.try_borrow_mut()?.pose = Some(pose);
    Ok(())
}
