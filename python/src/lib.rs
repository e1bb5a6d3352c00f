//! Python bindings of pixelhit: the same `Stage`, driven from Python.
//!
//! The Python module `pixelhit` has a `Stage` (the display tree and every query), `Node`
//! objects (a handle to one node: its properties are Python attributes), `Path` and
//! `Graphic` (vector content from SVG path data), `Bitmap` (PNG files and bytes, RGBA
//! bytes, numpy arrays and pygame Surfaces), the answers (`Collision`, `Contact`,
//! `OverlapMask`) and one exception class, `PixelhitError`, whose messages are
//! `pixelhit::Error`'s. The stubs in `pixelhit.pyi` give every signature and type.
//!
//! Nothing here panics on input: every id, number and buffer goes through the crate's own
//! checks or the checks below, and the stage is borrowed with `try_borrow`/`try_borrow_mut`
//! (a change from another thread while a query runs raises instead of waiting or failing).

use std::collections::HashMap;
use std::hash::{DefaultHasher, Hash, Hasher};
use std::path::PathBuf;

use ph::{CollisionOptions, DAffine2, DVec2, NodeId, Rect};
use pixelhit as ph;
use pyo3::buffer::PyBuffer;
use pyo3::exceptions::PyValueError;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

pyo3::create_exception!(
    pixelhit,
    PixelhitError,
    PyValueError,
    "A call that pixelhit refuses: a removed node, a node outside the query's parent, bad \
     path data (with its byte offset), a value out of range, an image that cannot be \
     decoded, a query over its budget... The message is the Rust crate's `Error` as it \
     prints; `kind` names its variant (`\"StaleNode\"`, `\"PathData\"`, ...), or is \
     `\"Argument\"` for arguments refused before they reach the crate."
);

/// `(x, y, width, height)`.
type Xywh = (f64, f64, f64, f64);
/// `(a, b, c, d, tx, ty)`.
type Matrix = (f64, f64, f64, f64, f64, f64);
/// `(r_mult, g_mult, b_mult, a_mult, r_off, g_off, b_off, a_off)`.
type ColorTuple = (f64, f64, f64, f64, f64, f64, f64, f64);

/// The Python exception for a crate error: its message, and its variant as `kind`.
fn raise(e: ph::Error) -> PyErr {
    let debug = format!("{e:?}");
    let kind: String = debug.chars().take_while(|c| c.is_alphanumeric()).collect();
    raise_kind(&e.to_string(), &kind)
}

/// A `PixelhitError` with `message` and `kind`.
fn raise_kind(message: &str, kind: &str) -> PyErr {
    Python::attach(|py| {
        let err = PixelhitError::new_err(message.to_string());
        // Setting an attribute on a fresh exception instance cannot fail in practice; if it
        // did, the error is still raised, without `kind`.
        let _ = err.value(py).setattr("kind", kind);
        err
    })
}

/// A `PixelhitError` for an argument refused here, before it reaches the crate.
fn bad_argument(message: String) -> PyErr {
    raise_kind(&message, "Argument")
}

/// `?` on a crate result raises `PixelhitError`.
trait OrRaise<T> {
    fn or_raise(self) -> PyResult<T>;
}

impl<T> OrRaise<T> for ph::Result<T> {
    fn or_raise(self) -> PyResult<T> {
        self.map_err(raise)
    }
}

fn xywh(r: Rect) -> Xywh {
    (r.x(), r.y(), r.width(), r.height())
}

fn pair(p: DVec2) -> (f64, f64) {
    (p.x, p.y)
}

/// A tolerance of a query or a node: 0..=255, refused with the crate's message otherwise.
fn tolerance(what: &str, value: i64) -> PyResult<u8> {
    u8::try_from(value).map_err(|_| {
        raise(ph::Error::OutOfRange {
            what: what.to_string(),
            value: value as f64,
            range: "0..=255",
        })
    })
}

fn fill_rule(name: &str) -> PyResult<ph::FillRule> {
    match name.to_ascii_lowercase().replace(['-', '_'], "").as_str() {
        "nonzero" => Ok(ph::FillRule::NonZero),
        "evenodd" => Ok(ph::FillRule::EvenOdd),
        _ => Err(bad_argument(format!(
            "fill_rule is {name:?}, not \"nonzero\" or \"evenodd\""
        ))),
    }
}

fn fill_rule_name(rule: ph::FillRule) -> &'static str {
    match rule {
        ph::FillRule::EvenOdd => "evenodd",
        _ => "nonzero",
    }
}

/// The bytes of any object with the buffer protocol of unsigned bytes (`bytes`,
/// `bytearray`, `memoryview`, a numpy `uint8` array of any shape, in C order).
fn buffer_bytes(obj: &Bound<'_, PyAny>) -> PyResult<Vec<u8>> {
    PyBuffer::<u8>::get(obj)?.to_vec(obj.py())
}

// ----- paths and graphics -----

/// Vector geometry: a path made from SVG path data (`Path("M0 0 L10 0 L5 8 Z")`) or one of
/// the shapes `Path.rect`, `Path.rounded_rect`, `Path.circle`, `Path.ellipse`,
/// `Path.polygon`. Immutable; coordinates are in the local space of the node that draws it.
#[pyclass(module = "pixelhit", name = "Path", frozen)]
#[derive(Clone)]
struct PyPath(ph::Path);

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

    fn __repr__(&self) -> String {
        let svg = self.0.to_svg();
        match svg.char_indices().nth(60) {
            Some((cut, _)) => format!("Path({:?}...)", &svg[..cut]),
            None => format!("Path({svg:?})"),
        }
    }
}

/// A path given as SVG path data or as a `Path`.
fn path_of(obj: &Bound<'_, PyAny>) -> PyResult<ph::Path> {
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

fn type_name(obj: &Bound<'_, PyAny>) -> String {
    obj.get_type()
        .name()
        .map_or_else(|_| "an object".to_string(), |n| n.to_string())
}

/// One fill or stroke of a container: `Graphic.fill(path, fill_rule="nonzero", alpha=1.0)`
/// or `Graphic.stroke(path, width, alpha=1.0)` (round joins and caps), where `path` is SVG
/// path data or a `Path`. Immutable.
#[pyclass(module = "pixelhit", name = "Graphic", frozen)]
#[derive(Clone)]
struct PyGraphic(ph::Graphic);

#[pymethods]
impl PyGraphic {
    /// A filled path. `fill_rule` is `"nonzero"` (the default) or `"evenodd"`; `alpha` is
    /// 0..1.
    #[staticmethod]
    #[pyo3(signature = (path, fill_rule = "nonzero", alpha = 1.0))]
    fn fill(path: &Bound<'_, PyAny>, fill_rule: &str, alpha: f64) -> PyResult<Self> {
        let rule = self::fill_rule(fill_rule)?;
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

    fn __repr__(&self) -> String {
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

fn graphic_of(obj: &Bound<'_, PyAny>) -> PyResult<ph::Graphic> {
    obj.cast::<PyGraphic>().map(|g| g.get().0.clone()).map_err(|_| {
        bad_argument(format!(
            "expected a Graphic (Graphic.fill or Graphic.stroke), not {}",
            type_name(obj)
        ))
    })
}

// ----- bitmaps -----

/// An RGBA8 image (straight alpha, rows from the top), shared by every node that shows it.
/// Texel `(i, j)` covers `[i, i+1) x [j, j+1)` of the node's local space, so a bitmap turns
/// and scales about its top-left corner. Made by `Bitmap.from_png_file`,
/// `Bitmap.from_png_bytes`, `Bitmap.from_rgba`, `Bitmap.from_array` (numpy, H x W x 4
/// uint8) or `Bitmap.from_surface` (pygame). Immutable.
#[pyclass(module = "pixelhit", name = "Bitmap", frozen)]
#[derive(Clone)]
struct PyBitmap(ph::Bitmap);

/// A bitmap from RGBA bytes, the size checked here so that no number wraps.
fn bitmap_from_rgba(width: i64, height: i64, rgba: Vec<u8>) -> PyResult<ph::Bitmap> {
    match (u32::try_from(width), u32::try_from(height)) {
        (Ok(w), Ok(h)) => ph::Bitmap::from_rgba8(w, h, rgba).or_raise(),
        _ => Err(raise(ph::Error::Image {
            source: "RGBA buffer".into(),
            reason: format!("size {width}x{height} is not a size (0 to 2^32 - 1 each)"),
        })),
    }
}

#[pymethods]
impl PyBitmap {
    /// Reads and decodes a PNG file (a `str` or `os.PathLike`). Images over 16384 x 16384
    /// pixels or 256 MiB are refused before they are decoded.
    #[staticmethod]
    fn from_png_file(path: PathBuf) -> PyResult<Self> {
        Ok(PyBitmap(ph::Bitmap::from_png_file(path).or_raise()?))
    }

    /// Decodes PNG data from any bytes-like object (`bytes`, `bytearray`, `memoryview`).
    #[staticmethod]
    fn from_png_bytes(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let bytes = buffer_bytes(data)?;
        Ok(PyBitmap(ph::Bitmap::from_png_bytes(&bytes).or_raise()?))
    }

    /// A bitmap from `4 * width * height` bytes of straight RGBA, rows from the top, given
    /// as any bytes-like object (`bytes`, `bytearray`, `memoryview`, a `uint8` array).
    #[staticmethod]
    fn from_rgba(width: i64, height: i64, data: &Bound<'_, PyAny>) -> PyResult<Self> {
        Ok(PyBitmap(bitmap_from_rgba(width, height, buffer_bytes(data)?)?))
    }

    /// A bitmap from an array of shape `(height, width, 4)` and dtype `uint8` (RGBA, as
    /// numpy and PIL lay images out), through the buffer protocol: one copy, no loop in
    /// Python. Non-contiguous arrays (slices) are copied in C order.
    #[staticmethod]
    fn from_array(array: &Bound<'_, PyAny>) -> PyResult<Self> {
        let buf = PyBuffer::<u8>::get(array)?;
        let shape = buf.shape().to_vec();
        let [h, w, 4] = shape[..] else {
            return Err(bad_argument(format!(
                "an image array has the shape (height, width, 4), not {shape:?}"
            )));
        };
        let rgba = buf.to_vec(array.py())?;
        Ok(PyBitmap(bitmap_from_rgba(w as i64, h as i64, rgba)?))
    }

    /// A bitmap from a pygame `Surface`, with the pixels `pygame.mask.from_surface` sees as
    /// there: copied in one call to `pygame.image.tobytes(surface, "RGBA")` for a surface
    /// with per-pixel alpha (`SRCALPHA`), or `tobytes(surface, "RGB")` made opaque for one
    /// without (whose unused alpha byte means nothing); with a colour key (`set_colorkey`),
    /// pixels of that colour are transparent. A surface-wide `set_alpha` is not applied (nor
    /// does pygame's mask apply it). Needs pygame installed.
    #[staticmethod]
    fn from_surface(surface: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = surface.py();
        let pygame = py.import("pygame")?;
        let (w, h): (i64, i64) = surface.call_method0("get_size")?.extract()?;
        let flags: i64 = surface.call_method0("get_flags")?.extract()?;
        let srcalpha: i64 = pygame.getattr("SRCALPHA")?.extract()?;
        // A tuple or a `pygame.Color`, both sequences of 4 channels.
        let key: Option<Vec<u8>> = surface.call_method0("get_colorkey")?.extract()?;
        let image = pygame.getattr("image")?;
        let mut rgba = if flags & srcalpha != 0 {
            buffer_bytes(&image.call_method1("tobytes", (surface, "RGBA"))?)?
        } else {
            let rgb = buffer_bytes(&image.call_method1("tobytes", (surface, "RGB"))?)?;
            rgb.chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect()
        };
        if let Some([r, g, b, ..]) = key.as_deref() {
            for p in rgba.chunks_exact_mut(4) {
                if p[..3] == [*r, *g, *b] {
                    p[3] = 0;
                }
            }
        }
        Ok(PyBitmap(bitmap_from_rgba(w, h, rgba)?))
    }

    /// Width in texels.
    #[getter]
    fn width(&self) -> u32 {
        self.0.width()
    }

    /// Height in texels.
    #[getter]
    fn height(&self) -> u32 {
        self.0.height()
    }

    /// `(width, height)`.
    #[getter]
    fn size(&self) -> (u32, u32) {
        (self.0.width(), self.0.height())
    }

    /// The straight RGBA bytes, rows from the top (`4 * width * height` of them).
    fn tobytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        PyBytes::new(py, self.0.rgba())
    }

    /// The image encoded as PNG.
    fn to_png_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.0.to_png_bytes().or_raise()?))
    }

    /// The texel `(r, g, b, a)` at `(x, y)`, or `None` outside the image.
    fn pixel(&self, x: i64, y: i64) -> Option<(u8, u8, u8, u8)> {
        let (x, y) = (u32::try_from(x).ok()?, u32::try_from(y).ok()?);
        self.0.pixel(x, y).map(|[r, g, b, a]| (r, g, b, a))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBitmap>().is_ok_and(|o| o.get().0 == self.0)
    }

    fn __repr__(&self) -> String {
        format!("<Bitmap {}x{}>", self.0.width(), self.0.height())
    }
}

fn bitmap_of(obj: &Bound<'_, PyAny>) -> PyResult<ph::Bitmap> {
    obj.cast::<PyBitmap>().map(|b| b.get().0.clone()).map_err(|_| {
        bad_argument(format!(
            "expected a Bitmap (Bitmap.from_png_file, from_array, ...), not {}",
            type_name(obj)
        ))
    })
}

// ----- the stage -----

/// The display tree, and every question asked of it.
///
/// `Stage()` holds an empty root container (`stage.root`). Add nodes with
/// `add_container`, `add_bitmap` and `add_frames`, give containers fills and strokes with
/// `add_graphic`, and set each node's properties as attributes of its `Node`. Queries
/// (`collision_rect`, `collision`, `collisions`, `pick`, `hit_test_point`, `bounds`, ...)
/// answer in the space of the node given as `parent` or `space`, in pixels, y down,
/// rotations in degrees clockwise. Rectangles are `(x, y, width, height)` tuples.
#[pyclass(module = "pixelhit", name = "Stage")]
struct PyStage {
    inner: ph::Stage,
}

/// A handle to one node of a `Stage`: its properties are attributes (`node.x = 10`), and
/// it keeps its stage alive. Two `Node` objects for the same node compare equal and hash
/// alike. Using a node after it (or an ancestor) was removed raises `PixelhitError`.
#[pyclass(module = "pixelhit", name = "Node", frozen)]
struct PyNode {
    stage: Py<PyStage>,
    id: NodeId,
}

/// A `Node` object for `id` of `stage`.
fn node_obj(stage: &Bound<'_, PyStage>, id: NodeId) -> PyResult<Py<PyNode>> {
    Py::new(
        stage.py(),
        PyNode {
            stage: stage.clone().unbind(),
            id,
        },
    )
}

fn node_of<'a, 'py>(obj: &'a Bound<'py, PyAny>) -> PyResult<&'a Bound<'py, PyNode>> {
    obj.cast::<PyNode>()
        .map_err(|_| bad_argument(format!("expected a Node, not {}", type_name(obj))))
}

fn id_of(obj: &Bound<'_, PyAny>) -> PyResult<NodeId> {
    Ok(node_of(obj)?.get().id)
}

fn opt_id(obj: Option<&Bound<'_, PyAny>>) -> PyResult<Option<NodeId>> {
    obj.filter(|o| !o.is_none()).map(id_of).transpose()
}

/// The nodes of an iterable, as ids and as the objects given (answers hand the same objects
/// back).
struct NodeList<'py> {
    ids: Vec<NodeId>,
    objs: Vec<Bound<'py, PyNode>>,
}

impl<'py> NodeList<'py> {
    fn new(iterable: &Bound<'py, PyAny>) -> PyResult<Self> {
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
struct NodeLookup<'a, 'py> {
    stage: &'a Bound<'py, PyStage>,
    given: HashMap<NodeId, Bound<'py, PyNode>>,
}

impl<'a, 'py> NodeLookup<'a, 'py> {
    fn new(stage: &'a Bound<'py, PyStage>, lists: &[&NodeList<'py>]) -> Self {
        let mut given = HashMap::new();
        for list in lists {
            for (id, obj) in list.ids.iter().zip(&list.objs) {
                given.entry(*id).or_insert_with(|| obj.clone());
            }
        }
        NodeLookup { stage, given }
    }

    fn get(&self, id: NodeId) -> PyResult<Py<PyNode>> {
        match self.given.get(&id) {
            Some(obj) => Ok(obj.clone().unbind()),
            None => node_obj(self.stage, id),
        }
    }
}

/// The options of a collision query, checked.
#[allow(clippy::too_many_arguments)]
fn collision_options(
    precise: bool,
    tolerance: i64,
    anti_alias: bool,
    max_pixels: Option<u64>,
    details: bool,
    skip_hidden: bool,
    parallel: bool,
) -> PyResult<CollisionOptions> {
    let mut opts = CollisionOptions::default()
        .precise(precise)
        .tolerance(self::tolerance("tolerance", tolerance)?)
        .anti_alias(anti_alias)
        .details(details)
        .skip_hidden(skip_hidden)
        .parallel(parallel);
    if let Some(m) = max_pixels {
        opts = opts.max_pixels(m);
    }
    Ok(opts)
}

/// Runs a many-object query on the stage with the GIL released (other Python threads go on
/// meanwhile), then gives each contact the node objects the caller passed in `lists`.
fn crowd_query<'py>(
    slf: &Bound<'py, PyStage>,
    lists: &[&NodeList<'py>],
    query: impl FnOnce(&ph::Stage) -> ph::Result<Vec<ph::Contact>> + Send,
) -> PyResult<Vec<PyContact>> {
    let contacts = {
        let me = slf.try_borrow()?;
        let stage = &me.inner;
        slf.py().detach(|| query(stage)).or_raise()?
    };
    contacts_to_py(&NodeLookup::new(slf, lists), contacts)
}

fn contacts_to_py(lookup: &NodeLookup<'_, '_>, contacts: Vec<ph::Contact>) -> PyResult<Vec<PyContact>> {
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

#[pymethods]
impl PyStage {
    /// A stage holding only an empty root container.
    #[new]
    fn new() -> Self {
        PyStage {
            inner: ph::Stage::new(),
        }
    }

    /// The root container (it cannot be removed or moved).
    #[getter]
    fn root(slf: &Bound<'_, Self>) -> PyResult<Py<PyNode>> {
        let root = slf.try_borrow()?.inner.root();
        node_obj(slf, root)
    }

    /// How many nodes live, the root included.
    fn __len__(&self) -> usize {
        self.inner.len()
    }

    fn __repr__(&self) -> String {
        format!("<Stage: {} nodes>", self.inner.len())
    }

    /// The first node named `name`, in tree order, or `None`.
    fn find(slf: &Bound<'_, Self>, name: &str) -> PyResult<Option<Py<PyNode>>> {
        let found = slf.try_borrow()?.inner.find(name);
        found.map(|id| node_obj(slf, id)).transpose()
    }

    /// Whether `node` is a live node of this stage.
    fn contains(&self, node: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.inner.contains(id_of(node)?))
    }

    /// Bytes the stage's raster cache holds now (at most 128 MiB).
    #[getter]
    fn cache_bytes(&self) -> usize {
        self.inner.cache_bytes()
    }

    /// Frees the rasters kept between queries (answers never depend on them).
    fn clear_cache(&self) {
        self.inner.clear_cache();
    }

    // ----- building -----

    /// Adds an empty container as the last child of `parent` and returns it.
    fn add_container(slf: &Bound<'_, Self>, parent: &Bound<'_, PyAny>) -> PyResult<Py<PyNode>> {
        let parent = id_of(parent)?;
        let id = slf.try_borrow_mut()?.inner.add_container(parent).or_raise()?;
        node_obj(slf, id)
    }

    /// Adds a node showing `bitmap` as the last child of `parent` and returns it.
    /// `smoothing` samples the bitmap bilinearly when it is scaled or turned (nearest
    /// otherwise).
    #[pyo3(signature = (parent, bitmap, smoothing = false))]
    fn add_bitmap(
        slf: &Bound<'_, Self>,
        parent: &Bound<'_, PyAny>,
        bitmap: &Bound<'_, PyAny>,
        smoothing: bool,
    ) -> PyResult<Py<PyNode>> {
        let (parent, bitmap) = (id_of(parent)?, bitmap_of(bitmap)?);
        let id = slf
            .try_borrow_mut()?
            .inner
            .add_bitmap(parent, bitmap, smoothing)
            .or_raise()?;
        node_obj(slf, id)
    }

    /// Adds an animated leaf showing one of `frames` at a time (the first to begin with;
    /// `node.frame` picks another). Each frame is a `Bitmap`, a `(Bitmap, smoothing)` pair,
    /// or a list of `Graphic`s.
    fn add_frames(
        slf: &Bound<'_, Self>,
        parent: &Bound<'_, PyAny>,
        frames: &Bound<'_, PyAny>,
    ) -> PyResult<Py<PyNode>> {
        let parent = id_of(parent)?;
        let mut list = Vec::new();
        for frame in frames.try_iter()? {
            let frame = frame?;
            let f = if let Ok(b) = frame.cast::<PyBitmap>() {
                ph::Frame::Bitmap {
                    bitmap: b.get().0.clone(),
                    smoothing: false,
                }
            } else if let Ok((b, smoothing)) = frame.extract::<(Bound<'_, PyAny>, bool)>() {
                ph::Frame::Bitmap {
                    bitmap: bitmap_of(&b)?,
                    smoothing,
                }
            } else {
                let mut gs = Vec::new();
                for g in frame.try_iter()? {
                    gs.push(graphic_of(&g?)?);
                }
                ph::Frame::Graphics(gs)
            };
            list.push(f);
        }
        let id = slf.try_borrow_mut()?.inner.add_frames(parent, list).or_raise()?;
        node_obj(slf, id)
    }

    /// Appends fills and strokes to a container's graphics (drawn below its children, in
    /// order). `path` is SVG path data, a `Path`, or a ready `Graphic` (then the other
    /// arguments are not used). By default the path is filled; with `stroke=WIDTH` it is
    /// stroked instead, and with `fill=True, stroke=WIDTH` filled and then stroked. `alpha`
    /// (0..1) and `fill_rule` (`"nonzero"` or `"evenodd"`) apply to what is added.
    #[pyo3(signature = (node, path, *, fill = None, stroke = None, alpha = 1.0, fill_rule = "nonzero"))]
    fn add_graphic(
        &mut self,
        node: &Bound<'_, PyAny>,
        path: &Bound<'_, PyAny>,
        fill: Option<bool>,
        stroke: Option<f64>,
        alpha: f64,
        fill_rule: &str,
    ) -> PyResult<()> {
        let id = id_of(node)?;
        let mut graphics = Vec::new();
        if let Ok(g) = path.cast::<PyGraphic>() {
            graphics.push(g.get().0.clone());
        } else {
            let p = path_of(path)?;
            if fill.unwrap_or(stroke.is_none()) {
                let rule = self::fill_rule(fill_rule)?;
                graphics.push(ph::Graphic::fill(p.clone(), rule, alpha).or_raise()?);
            }
            if let Some(width) = stroke {
                graphics.push(ph::Graphic::stroke(p, width, alpha).or_raise()?);
            }
            if graphics.is_empty() {
                return Err(bad_argument(
                    "add_graphic with fill=False and no stroke adds nothing".into(),
                ));
            }
        }
        // Only the node can be refused now, and then by the first call: an error adds nothing.
        for g in graphics {
            self.inner.add_graphic(id, g).or_raise()?;
        }
        Ok(())
    }

    /// Replaces a container's graphics with `graphics` (a list of `Graphic`).
    fn set_graphics(&mut self, node: &Bound<'_, PyAny>, graphics: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = id_of(node)?;
        let mut gs = Vec::new();
        for g in graphics.try_iter()? {
            gs.push(graphic_of(&g?)?);
        }
        self.inner.set_graphics(id, gs).or_raise()
    }

    /// Removes `node` and its whole subtree; their `Node` objects raise from then on.
    fn remove(&mut self, node: &Bound<'_, PyAny>) -> PyResult<()> {
        self.inner.remove(id_of(node)?).or_raise()
    }

    // ----- collisions -----

    /// Where `a` and `b` overlap in `parent`'s space, as Flash's `getCollisionRect` without
    /// its mistakes: `None`, or `(x, y, width, height)`. With `precise` (the default) the
    /// smallest whole-pixel rectangle holding every pixel solid in both (alpha at least
    /// `max(1, 255 - tolerance)`, anti-aliased); without it, the intersection of their
    /// bounds. `a` and `b` must be `parent` or inside it.
    #[pyo3(signature = (a, b, parent, precise = true, tolerance = 255))]
    fn collision_rect(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        precise: bool,
        tolerance: i64,
    ) -> PyResult<Option<Xywh>> {
        let (a, b, parent) = (id_of(a)?, id_of(b)?, id_of(parent)?);
        let t = self::tolerance("tolerance", tolerance)?;
        let r = py.detach(|| self.inner.collision_rect(a, b, parent, precise, t));
        Ok(r.or_raise()?.map(xywh))
    }

    /// `collision_rect` with every option, also counting the overlapping pixels: a
    /// `Collision` with `rect` and `overlap_pixels` (`None` for a query that is not
    /// precise). `anti_alias=False` tests pixel centres instead of covered areas;
    /// `max_pixels` bounds the pixels a precise query may compare (default 2^28).
    #[pyo3(signature = (a, b, parent, *, precise = true, tolerance = 255, anti_alias = true, max_pixels = None))]
    #[allow(clippy::too_many_arguments)]
    fn collision(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        precise: bool,
        tolerance: i64,
        anti_alias: bool,
        max_pixels: Option<u64>,
    ) -> PyResult<PyCollision> {
        let (a, b, parent) = (id_of(a)?, id_of(b)?, id_of(parent)?);
        let opts = collision_options(precise, tolerance, anti_alias, max_pixels, false, false, true)?;
        let c = py
            .detach(|| self.inner.collision(a, b, parent, &opts))
            .or_raise()?;
        Ok(PyCollision {
            rect: c.rect.map(xywh),
            overlap_pixels: c.overlap_pixels,
        })
    }

    /// Every colliding pair among `nodes` in `parent`'s space: a list of `Contact`, the
    /// same answers as `collision` on every pair, found by a broad phase over their bounds
    /// and tested on all cores (`parallel=False` keeps it on this thread). Pairs come in
    /// the order of `nodes` (`a` before `b`); `contact.a` and `contact.b` are the objects
    /// given. `details=True` adds each contact's `normal`, `centroid`, `first` and `mask`;
    /// `skip_hidden=True` leaves out nodes that are not shown (they or an ancestor hidden).
    /// The stage is not locked against other threads' reads while it runs (the GIL is
    /// released), but a change from another thread raises.
    #[pyo3(signature = (parent, nodes, *, tolerance = 255, details = false, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None))]
    #[allow(clippy::too_many_arguments)]
    fn collisions(
        slf: &Bound<'_, Self>,
        parent: &Bound<'_, PyAny>,
        nodes: &Bound<'_, PyAny>,
        tolerance: i64,
        details: bool,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
    ) -> PyResult<Vec<PyContact>> {
        let parent = id_of(parent)?;
        let list = NodeList::new(nodes)?;
        let opts = collision_options(
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            details,
            skip_hidden,
            parallel,
        )?;
        crowd_query(slf, &[&list], |stage| stage.collisions(parent, &list.ids, &opts))
    }

    /// Every node of `others` that collides with `node`, in `parent`'s space, in the order of
    /// `others` (`node` is always `a`). Options as `collisions`.
    #[pyo3(signature = (parent, node, others, *, tolerance = 255, details = false, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None))]
    #[allow(clippy::too_many_arguments)]
    fn collisions_with(
        slf: &Bound<'_, Self>,
        parent: &Bound<'_, PyAny>,
        node: &Bound<'_, PyAny>,
        others: &Bound<'_, PyAny>,
        tolerance: i64,
        details: bool,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
    ) -> PyResult<Vec<PyContact>> {
        let parent = id_of(parent)?;
        let node = node_of(node)?.clone();
        let one = NodeList {
            ids: vec![node.get().id],
            objs: vec![node],
        };
        let list = NodeList::new(others)?;
        let opts = collision_options(
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            details,
            skip_hidden,
            parallel,
        )?;
        let object = one.ids[0];
        crowd_query(slf, &[&one, &list], |stage| {
            stage.collisions_with(parent, object, &list.ids, &opts)
        })
    }

    /// Every colliding pair with `a` from `group_a` and `b` from `group_b` (bullets against
    /// enemies, without testing bullets against bullets), ordered by `a`'s place in
    /// `group_a`, then `b`'s in `group_b`. Options as `collisions`.
    #[pyo3(signature = (parent, group_a, group_b, *, tolerance = 255, details = false, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None))]
    #[allow(clippy::too_many_arguments)]
    fn collisions_between(
        slf: &Bound<'_, Self>,
        parent: &Bound<'_, PyAny>,
        group_a: &Bound<'_, PyAny>,
        group_b: &Bound<'_, PyAny>,
        tolerance: i64,
        details: bool,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
    ) -> PyResult<Vec<PyContact>> {
        let parent = id_of(parent)?;
        let (la, lb) = (NodeList::new(group_a)?, NodeList::new(group_b)?);
        let opts = collision_options(
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            details,
            skip_hidden,
            parallel,
        )?;
        crowd_query(slf, &[&la, &lb], |stage| {
            stage.collisions_between(parent, &la.ids, &lb.ids, &opts)
        })
    }

    // ----- points, bounds, picking -----

    /// Whether the point `(x, y)` of the root's space hits `node`: without `shape_flag`,
    /// inside its bounds in the root's space (edges included); with it, inside a fill by its
    /// fill rule (Flash's boundary rule), within half a stroke's width of a stroke, or on a
    /// bitmap texel whose alpha is not 0, inside the masks and scroll windows over it.
    #[pyo3(signature = (node, x, y, shape_flag = false))]
    fn hit_test_point(&self, node: &Bound<'_, PyAny>, x: f64, y: f64, shape_flag: bool) -> PyResult<bool> {
        self.inner
            .hit_test_point(id_of(node)?, x, y, shape_flag)
            .or_raise()
    }

    /// Whether the bounds of `a` and `b` in the root's space overlap or touch (Flash's
    /// `hitTestObject`: boxes, not pixels).
    fn hit_test_object(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.inner.hit_test_object(id_of(a)?, id_of(b)?).or_raise()
    }

    /// The node that a click at `(x, y)` (root space) goes to, by Flash's rules, or `None`.
    /// Bitmaps are hit where their texel's alpha is at least `min_alpha` (default 1), or
    /// anywhere on their rectangle with `bitmap_hit="box"` (Flash).
    #[pyo3(signature = (x, y, *, bitmap_hit = "alpha", min_alpha = 1))]
    fn pick(
        slf: &Bound<'_, Self>,
        x: f64,
        y: f64,
        bitmap_hit: &str,
        min_alpha: i64,
    ) -> PyResult<Option<Py<PyNode>>> {
        let hit = match bitmap_hit {
            "alpha" => ph::BitmapHit::Alpha {
                min: self::tolerance("min_alpha", min_alpha)?,
            },
            "box" => ph::BitmapHit::Box,
            other => {
                return Err(bad_argument(format!(
                    "bitmap_hit is {other:?}, not \"alpha\" or \"box\""
                )));
            }
        };
        let opts = ph::PickOptions::default().bitmap_hit(hit);
        let found = slf.try_borrow()?.inner.pick(x, y, &opts).or_raise()?;
        found.map(|id| node_obj(slf, id)).transpose()
    }

    /// Every node in `container`'s subtree (itself included) whose own content is under
    /// `(x, y)` (root space), bottom to top, as Flash's `getObjectsUnderPoint`.
    fn objects_under_point(
        slf: &Bound<'_, Self>,
        container: &Bound<'_, PyAny>,
        x: f64,
        y: f64,
    ) -> PyResult<Vec<Py<PyNode>>> {
        let found = slf
            .try_borrow()?
            .inner
            .objects_under_point(id_of(container)?, x, y)
            .or_raise()?;
        found.into_iter().map(|id| node_obj(slf, id)).collect()
    }

    /// Flash's `getBounds`: the box of `node` and its descendants in `space`'s coordinates
    /// (the root's when `space` is `None`), strokes included, as `(x, y, width, height)`, or
    /// `None` when it draws nothing.
    #[pyo3(signature = (node, space = None))]
    fn bounds(&self, node: &Bound<'_, PyAny>, space: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.inner.root());
        Ok(self.inner.bounds(id_of(node)?, space).or_raise()?.map(xywh))
    }

    /// Flash's `getRect`: as `bounds`, with strokes counted by their centre line only.
    #[pyo3(signature = (node, space = None))]
    fn rect(&self, node: &Bound<'_, PyAny>, space: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.inner.root());
        Ok(self.inner.rect(id_of(node)?, space).or_raise()?.map(xywh))
    }

    /// The exact box of `node`'s geometry in `space` (never larger than `bounds`).
    #[pyo3(signature = (node, space = None))]
    fn tight_bounds(
        &self,
        node: &Bound<'_, PyAny>,
        space: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.inner.root());
        Ok(self.inner.tight_bounds(id_of(node)?, space).or_raise()?.map(xywh))
    }

    /// `bounds` cut by every mask and scroll window that clips `node`.
    #[pyo3(signature = (node, space = None))]
    fn visible_bounds(
        &self,
        node: &Bound<'_, PyAny>,
        space: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.inner.root());
        Ok(self
            .inner
            .visible_bounds(id_of(node)?, space)
            .or_raise()?
            .map(xywh))
    }

    /// The matrix `(a, b, c, d, tx, ty)` mapping `node`'s space into `ancestor`'s (the
    /// root's when `None`; any node, through the root, when it is not an ancestor).
    #[pyo3(signature = (node, ancestor = None))]
    fn matrix_to(&self, node: &Bound<'_, PyAny>, ancestor: Option<&Bound<'_, PyAny>>) -> PyResult<Matrix> {
        let space = opt_id(ancestor)?.unwrap_or(self.inner.root());
        let m = self.inner.matrix_between(id_of(node)?, space).or_raise()?;
        Ok(matrix_tuple(m))
    }
}

fn matrix_tuple(m: DAffine2) -> Matrix {
    let [a, b, c, d, tx, ty] = m.to_cols_array();
    (a, b, c, d, tx, ty)
}

// ----- nodes -----

impl PyNode {
    /// Runs a read of the stage about this node.
    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&ph::Stage, NodeId) -> ph::Result<T>) -> PyResult<T> {
        let stage = self.stage.bind(py).try_borrow()?;
        f(&stage.inner, self.id).or_raise()
    }

    /// Runs a change of the stage about this node.
    fn write<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut ph::Stage, NodeId) -> ph::Result<T>,
    ) -> PyResult<T> {
        let mut stage = self.stage.bind(py).try_borrow_mut()?;
        f(&mut stage.inner, self.id).or_raise()
    }

    fn node(&self, py: Python<'_>, id: NodeId) -> PyResult<Py<PyNode>> {
        node_obj(self.stage.bind(py), id)
    }

    fn opt_node(&self, py: Python<'_>, id: Option<NodeId>) -> PyResult<Option<Py<PyNode>>> {
        id.map(|id| self.node(py, id)).transpose()
    }
}

#[pymethods]
impl PyNode {
    /// The stage this node belongs to.
    #[getter]
    fn stage(&self, py: Python<'_>) -> Py<PyStage> {
        self.stage.clone_ref(py)
    }

    /// The node's slot index in its stage (stable while it lives; reused after removal).
    #[getter]
    fn index(&self) -> u32 {
        self.id.index()
    }

    /// Whether the node still lives (it and its ancestors were not removed).
    #[getter]
    fn alive(&self, py: Python<'_>) -> PyResult<bool> {
        Ok(self.stage.bind(py).try_borrow()?.inner.contains(self.id))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other
            .cast::<PyNode>()
            .is_ok_and(|o| o.get().id == self.id && o.get().stage.as_ptr() == self.stage.as_ptr())
    }

    fn __hash__(&self) -> u64 {
        let mut h = DefaultHasher::new();
        (self.stage.as_ptr() as usize).hash(&mut h);
        self.id.hash(&mut h);
        h.finish()
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        match self.stage.bind(py).try_borrow() {
            Ok(s) if s.inner.contains(self.id) => format!("<Node {}>", s.inner.describe(self.id)),
            Ok(_) => format!("<Node #{} (removed)>", self.id.index()),
            Err(_) => format!("<Node #{}>", self.id.index()),
        }
    }

    /// The node's name, or `None`. Names need not be unique; `stage.find(name)` finds the
    /// first.
    #[getter]
    fn name(&self, py: Python<'_>) -> PyResult<Option<String>> {
        self.read(py, |s, id| Ok(s.name(id)?.map(str::to_string)))
    }

    #[setter]
    fn set_name(&self, py: Python<'_>, name: String) -> PyResult<()> {
        self.write(py, |s, id| s.set_name(id, name))
    }

    /// x position in the parent (the matrix's `tx`); setting it changes nothing else.
    #[getter]
    fn x(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, id| s.x(id))
    }

    #[setter]
    fn set_x(&self, py: Python<'_>, x: f64) -> PyResult<()> {
        self.write(py, |s, id| s.set_x(id, x))
    }

    /// y position in the parent (the matrix's `ty`); setting it changes nothing else.
    #[getter]
    fn y(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, id| s.y(id))
    }

    #[setter]
    fn set_y(&self, py: Python<'_>, y: f64) -> PyResult<()> {
        self.write(py, |s, id| s.set_y(id, y))
    }

    /// Rotation in degrees, clockwise on screen, about the node's own origin; setting it
    /// keeps the scales and any skew.
    #[getter]
    fn rotation(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, id| s.rotation(id))
    }

    #[setter]
    fn set_rotation(&self, py: Python<'_>, degrees: f64) -> PyResult<()> {
        self.write(py, |s, id| s.set_rotation(id, degrees))
    }

    /// Horizontal scale (the length of the matrix's x axis).
    #[getter]
    fn scale_x(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, id| s.scale_x(id))
    }

    #[setter]
    fn set_scale_x(&self, py: Python<'_>, v: f64) -> PyResult<()> {
        self.write(py, |s, id| s.set_scale_x(id, v))
    }

    /// Vertical scale (the length of the matrix's y axis).
    #[getter]
    fn scale_y(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, id| s.scale_y(id))
    }

    #[setter]
    fn set_scale_y(&self, py: Python<'_>, v: f64) -> PyResult<()> {
        self.write(py, |s, id| s.set_scale_y(id, v))
    }

    /// The matrix `(a, b, c, d, tx, ty)` mapping the node's space into its parent's:
    /// `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`. Set it to any 6 numbers (skew allowed).
    #[getter]
    fn matrix(&self, py: Python<'_>) -> PyResult<Matrix> {
        self.read(py, |s, id| s.matrix(id).map(matrix_tuple))
    }

    #[setter]
    fn set_matrix(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<()> {
        let v: Vec<f64> = m.extract().map_err(|_| {
            bad_argument(format!(
                "a matrix is 6 numbers (a, b, c, d, tx, ty), not {}",
                type_name(m)
            ))
        })?;
        let Ok(arr) = <[f64; 6]>::try_from(v.as_slice()) else {
            return Err(bad_argument(format!(
                "a matrix is 6 numbers (a, b, c, d, tx, ty), not {}",
                v.len()
            )));
        };
        self.write(py, |s, id| s.set_matrix(id, DAffine2::from_cols_array(&arr)))
    }

    /// The alpha multiplier, 0..1 (a node at 0 has no solid pixel).
    #[getter]
    fn alpha(&self, py: Python<'_>) -> PyResult<f64> {
        self.read(py, |s, id| s.alpha(id))
    }

    #[setter]
    fn set_alpha(&self, py: Python<'_>, alpha: f64) -> PyResult<()> {
        self.write(py, |s, id| s.set_alpha(id, alpha))
    }

    /// Whether the node is drawn. A hidden descendant has no pixels; a hidden query target
    /// still collides unless the query has `skip_hidden=True` (as in Flash).
    #[getter]
    fn visible(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s, id| s.visible(id))
    }

    #[setter]
    fn set_visible(&self, py: Python<'_>, visible: bool) -> PyResult<()> {
        self.write(py, |s, id| s.set_visible(id, visible))
    }

    /// Whether the node and every ancestor up to the root are visible.
    #[getter]
    fn is_shown(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s, id| s.is_shown(id))
    }

    /// The node's own collision tolerance (0..255), used instead of the query's whenever the
    /// node is a collision target, or `None` to use the query's.
    #[getter]
    fn tolerance(&self, py: Python<'_>) -> PyResult<Option<u8>> {
        self.read(py, |s, id| s.tolerance(id))
    }

    #[setter]
    fn set_tolerance(&self, py: Python<'_>, value: Option<i64>) -> PyResult<()> {
        let t = value.map(|v| self::tolerance("tolerance", v)).transpose()?;
        self.write(py, |s, id| s.set_tolerance(id, t))
    }

    /// The colour transform `(r_mult, g_mult, b_mult, a_mult, r_off, g_off, b_off, a_off)`;
    /// offsets in 0..255 units; its alpha multiplier is `alpha`.
    #[getter]
    fn color_transform(&self, py: Python<'_>) -> PyResult<ColorTuple> {
        self.read(py, |s, id| {
            let [a, b, c, d, e, f, g, h] = s.color_transform(id)?.to_array();
            Ok((a, b, c, d, e, f, g, h))
        })
    }

    #[setter]
    fn set_color_transform(&self, py: Python<'_>, ct: ColorTuple) -> PyResult<()> {
        let (a, b, c, d, e, f, g, h) = ct;
        let ct = ph::ColorTransform::new([a, b, c, d], [e, f, g, h]);
        self.write(py, |s, id| s.set_color_transform(id, ct))
    }

    /// The parent node, or `None` for the root.
    #[getter]
    fn parent(&self, py: Python<'_>) -> PyResult<Option<Py<PyNode>>> {
        let p = self.read(py, |s, id| s.parent(id))?;
        self.opt_node(py, p)
    }

    /// The children in paint order (index 0 at the back); empty for a bitmap.
    #[getter]
    fn children(&self, py: Python<'_>) -> PyResult<Vec<Py<PyNode>>> {
        let ids = self.read(py, |s, id| Ok(s.children(id)?.to_vec()))?;
        ids.into_iter().map(|id| self.node(py, id)).collect()
    }

    /// The node whose fills clip this node and its subtree, or `None`. Set it to a node or
    /// `None`.
    #[getter]
    fn mask(&self, py: Python<'_>) -> PyResult<Option<Py<PyNode>>> {
        let m = self.read(py, |s, id| s.mask(id))?;
        self.opt_node(py, m)
    }

    #[setter]
    fn set_mask(&self, py: Python<'_>, mask: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let m = opt_id(mask)?;
        self.write(py, |s, id| s.set_mask(id, m))
    }

    /// The scroll window `(x, y, width, height)` of the node's content space (edges rounded
    /// to whole pixels when set), or `None`.
    #[getter]
    fn scroll_rect(&self, py: Python<'_>) -> PyResult<Option<Xywh>> {
        self.read(py, |s, id| Ok(s.scroll_rect(id)?.map(xywh)))
    }

    #[setter]
    fn set_scroll_rect(&self, py: Python<'_>, r: Option<Xywh>) -> PyResult<()> {
        let r = r.map(|(x, y, w, h)| [x, y, w, h]);
        self.write(py, |s, id| s.set_scroll_rect(id, r))
    }

    /// Whether the node is a target of clicks itself (a Flash Sprite; containers by
    /// default) rather than content of its parent (a Shape or Bitmap).
    #[getter]
    fn interactive(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s, id| s.interactive(id))
    }

    #[setter]
    fn set_interactive(&self, py: Python<'_>, v: bool) -> PyResult<()> {
        self.write(py, |s, id| s.set_interactive(id, v))
    }

    /// Flash's `mouseEnabled` (interactive nodes only).
    #[getter]
    fn mouse_enabled(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s, id| s.mouse_enabled(id))
    }

    #[setter]
    fn set_mouse_enabled(&self, py: Python<'_>, v: bool) -> PyResult<()> {
        self.write(py, |s, id| s.set_mouse_enabled(id, v))
    }

    /// Flash's `mouseChildren` (interactive nodes only).
    #[getter]
    fn mouse_children(&self, py: Python<'_>) -> PyResult<bool> {
        self.read(py, |s, id| s.mouse_children(id))
    }

    #[setter]
    fn set_mouse_children(&self, py: Python<'_>, v: bool) -> PyResult<()> {
        self.write(py, |s, id| s.set_mouse_children(id, v))
    }

    /// Flash's `hitArea`: the node whose fills stand for this one's content when picking,
    /// or `None`.
    #[getter]
    fn hit_area(&self, py: Python<'_>) -> PyResult<Option<Py<PyNode>>> {
        let a = self.read(py, |s, id| s.hit_area(id))?;
        self.opt_node(py, a)
    }

    #[setter]
    fn set_hit_area(&self, py: Python<'_>, area: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let a = opt_id(area)?;
        self.write(py, |s, id| s.set_hit_area(id, a))
    }

    /// The bitmap shown (a bitmap node, or an animated node showing a bitmap frame), or
    /// `None`.
    #[getter]
    fn bitmap(&self, py: Python<'_>) -> PyResult<Option<PyBitmap>> {
        self.read(py, |s, id| Ok(s.bitmap(id)?.map(|(b, _)| PyBitmap(b.clone()))))
    }

    /// Replaces a bitmap node's image and smoothing flag.
    #[pyo3(signature = (bitmap, smoothing = false))]
    fn set_bitmap(&self, py: Python<'_>, bitmap: &Bound<'_, PyAny>, smoothing: bool) -> PyResult<()> {
        let b = bitmap_of(bitmap)?;
        self.write(py, |s, id| s.set_bitmap(id, b, smoothing))
    }

    /// The container's graphics (or those of the frame shown), as a list of `Graphic`.
    #[getter]
    fn graphics(&self, py: Python<'_>) -> PyResult<Vec<PyGraphic>> {
        self.read(py, |s, id| {
            Ok(s.graphics(id)?.iter().cloned().map(PyGraphic).collect())
        })
    }

    /// The frame shown by an animated node (`None` for other nodes); set it to show another.
    #[getter]
    fn frame(&self, py: Python<'_>) -> PyResult<Option<usize>> {
        self.read(py, |s, id| s.frame(id))
    }

    #[setter]
    fn set_frame(&self, py: Python<'_>, index: usize) -> PyResult<()> {
        self.write(py, |s, id| s.set_frame(id, index))
    }

    /// How many frames an animated node has (0 for other nodes).
    #[getter]
    fn frame_count(&self, py: Python<'_>) -> PyResult<usize> {
        self.read(py, |s, id| s.frame_count(id))
    }

    /// Sets position, rotation (degrees, clockwise) and both scales in one call, as a game
    /// does every frame; any skew is dropped. The node turns about its own origin: for a
    /// sprite turning about its centre, put the art in a child moved by half its size.
    #[pyo3(signature = (x, y, rotation = 0.0, scale_x = 1.0, scale_y = 1.0))]
    fn set_transform(
        &self,
        py: Python<'_>,
        x: f64,
        y: f64,
        rotation: f64,
        scale_x: f64,
        scale_y: f64,
    ) -> PyResult<()> {
        self.write(py, |s, id| s.set_transform(id, x, y, rotation, scale_x, scale_y))
    }

    /// Places the node at `(x, y)` in its parent (only the translation changes).
    fn set_position(&self, py: Python<'_>, x: f64, y: f64) -> PyResult<()> {
        self.write(py, |s, id| s.set_position(id, x, y))
    }

    /// Sets both scales to `s`, keeping rotation and skew.
    fn set_scale(&self, py: Python<'_>, s: f64) -> PyResult<()> {
        self.write(py, |st, id| st.set_scale(id, s))
    }

    /// Maps a point of this node's space into the root's.
    fn local_to_global(&self, py: Python<'_>, x: f64, y: f64) -> PyResult<(f64, f64)> {
        self.read(py, |s, id| s.local_to_global(id, DVec2::new(x, y)).map(pair))
    }

    /// Maps a point of the root's space into this node's.
    fn global_to_local(&self, py: Python<'_>, x: f64, y: f64) -> PyResult<(f64, f64)> {
        self.read(py, |s, id| s.global_to_local(id, DVec2::new(x, y)).map(pair))
    }

    /// Removes the node and its subtree from the stage.
    fn remove(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |s, id| s.remove(id))
    }

    /// Moves the node under `parent` as its last child (it keeps its own matrix).
    fn set_parent(&self, py: Python<'_>, parent: &Bound<'_, PyAny>) -> PyResult<()> {
        let p = id_of(parent)?;
        self.write(py, |s, id| s.set_parent(id, p))
    }

    /// Moves `child` (from wherever it is) into this container at paint index `index`
    /// (Flash's `addChildAt`).
    fn add_child_at(&self, py: Python<'_>, child: &Bound<'_, PyAny>, index: usize) -> PyResult<()> {
        let c = id_of(child)?;
        self.write(py, |s, id| s.add_child_at(id, c, index))
    }

    /// The child at paint index `index`.
    fn child_at(&self, py: Python<'_>, index: usize) -> PyResult<Py<PyNode>> {
        let c = self.read(py, |s, id| s.child_at(id, index))?;
        self.node(py, c)
    }

    /// The paint index of `child` among this container's children.
    fn child_index(&self, py: Python<'_>, child: &Bound<'_, PyAny>) -> PyResult<usize> {
        let c = id_of(child)?;
        self.read(py, |s, id| s.child_index(id, c))
    }

    /// Moves `child` to paint index `index` among this container's children.
    fn set_child_index(&self, py: Python<'_>, child: &Bound<'_, PyAny>, index: usize) -> PyResult<()> {
        let c = id_of(child)?;
        self.write(py, |s, id| s.set_child_index(id, c, index))
    }

    /// Swaps the paint order of two children of this container.
    fn swap_children(&self, py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<()> {
        let (a, b) = (id_of(a)?, id_of(b)?);
        self.write(py, |s, id| s.swap_children(id, a, b))
    }

    /// Removes the children with paint indices `start` up to `end` (excluded; all the rest
    /// when `None`) with their subtrees, and returns how many were removed.
    #[pyo3(signature = (start = 0, end = None))]
    fn remove_children(&self, py: Python<'_>, start: usize, end: Option<usize>) -> PyResult<usize> {
        self.write(py, |s, id| match end {
            Some(end) => s.remove_children(id, start..end),
            None => s.remove_children(id, start..),
        })
    }
}

// ----- answers -----

/// The answer of `Stage.collision`: `rect` is `(x, y, width, height)` or `None`, and
/// `overlap_pixels` the number of pixels solid in both (`None` when the query was not
/// precise). True when the targets overlap.
#[pyclass(module = "pixelhit", name = "Collision", frozen)]
struct PyCollision {
    /// The overlap's rectangle in the parent's space, or `None`.
    #[pyo3(get)]
    rect: Option<Xywh>,
    /// Pixels solid in both targets (precise queries only).
    #[pyo3(get)]
    overlap_pixels: Option<u64>,
}

#[pymethods]
impl PyCollision {
    fn __bool__(&self) -> bool {
        self.rect.is_some()
    }

    fn __repr__(&self) -> String {
        let rect = self.rect.map_or("None".into(), |r| format!("{r:?}"));
        let count = self.overlap_pixels.map_or("None".into(), |n| n.to_string());
        format!("Collision(rect={rect}, overlap_pixels={count})")
    }
}

/// One colliding pair of a many-object query: `a` and `b` (the `Node` objects given),
/// `rect` (the overlap's `(x, y, width, height)` in the parent's space), `overlap_pixels`,
/// and with `details=True`: `normal` (a unit vector from `a` into `b`, the way to push `b`
/// out), `centroid` (the mean of the overlapping pixels' centres), `first` (the first
/// overlapping pixel in row-major order) and `mask` (the overlapping pixels).
#[pyclass(module = "pixelhit", name = "Contact", frozen)]
struct PyContact {
    /// The first node of the pair (earlier in the list given).
    #[pyo3(get)]
    a: Py<PyNode>,
    /// The second node of the pair.
    #[pyo3(get)]
    b: Py<PyNode>,
    /// The overlap's rectangle `(x, y, width, height)` in the parent's space.
    #[pyo3(get)]
    rect: Xywh,
    /// Pixels solid in both (`None` for a query that is not precise).
    #[pyo3(get)]
    overlap_pixels: Option<u64>,
    details: Option<ph::ContactDetails>,
}

#[pymethods]
impl PyContact {
    /// A unit vector `(x, y)` from `a` into `b`, or `None` without details.
    #[getter]
    fn normal(&self) -> Option<(f64, f64)> {
        self.details.as_ref().map(|d| pair(d.normal))
    }

    /// The mean `(x, y)` of the overlapping pixels' centres, or `None` without details.
    #[getter]
    fn centroid(&self) -> Option<(f64, f64)> {
        self.details.as_ref().map(|d| pair(d.centroid))
    }

    /// The first overlapping pixel `(x, y)` in row-major order, or `None` without details.
    #[getter]
    fn first(&self) -> Option<(i64, i64)> {
        self.details.as_ref().map(|d| d.first)
    }

    /// The overlapping pixels as an `OverlapMask`, or `None` without details.
    #[getter]
    fn mask(&self) -> Option<PyOverlapMask> {
        self.details.as_ref().map(|d| PyOverlapMask(d.mask.clone()))
    }

    /// The other node of the pair: `b` for `a`, `a` for `b`, `None` for any other node.
    fn other(&self, py: Python<'_>, node: &Bound<'_, PyAny>) -> PyResult<Option<Py<PyNode>>> {
        let id = id_of(node)?;
        Ok(if id == self.a.get().id {
            Some(self.b.clone_ref(py))
        } else if id == self.b.get().id {
            Some(self.a.clone_ref(py))
        } else {
            None
        })
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        let a = self.a.get().__repr__(py);
        let b = self.b.get().__repr__(py);
        let count = self.overlap_pixels.map_or("None".into(), |n| n.to_string());
        format!(
            "Contact(a={a}, b={b}, rect={:?}, overlap_pixels={count})",
            self.rect
        )
    }
}

/// The pixels two nodes share, over the overlap's rectangle, in the parent's pixel grid.
#[pyclass(module = "pixelhit", name = "OverlapMask", frozen)]
struct PyOverlapMask(ph::OverlapMask);

#[pymethods]
impl PyOverlapMask {
    /// Left edge, in the parent's pixels.
    #[getter]
    fn x(&self) -> i64 {
        self.0.x()
    }

    /// Top edge, in the parent's pixels.
    #[getter]
    fn y(&self) -> i64 {
        self.0.y()
    }

    /// Width in pixels.
    #[getter]
    fn width(&self) -> u64 {
        self.0.width()
    }

    /// Height in pixels.
    #[getter]
    fn height(&self) -> u64 {
        self.0.height()
    }

    /// How many pixels overlap.
    fn count(&self) -> u64 {
        self.0.count()
    }

    /// Whether pixel `(x, y)` of the parent's grid is in the overlap.
    fn contains(&self, x: i64, y: i64) -> bool {
        self.0.contains(x, y)
    }

    /// The mask as `width * height` bytes, rows from the top: 1 where the pixels overlap,
    /// 0 elsewhere (`numpy.frombuffer(m.tobytes(), numpy.uint8).reshape(m.height, m.width)`).
    fn tobytes<'py>(&self, py: Python<'py>) -> Bound<'py, PyBytes> {
        let m = &self.0;
        let (x0, y0) = (m.x(), m.y());
        let mut out = Vec::with_capacity((m.width() * m.height()) as usize);
        for j in 0..m.height() as i64 {
            for i in 0..m.width() as i64 {
                out.push(u8::from(m.contains(x0 + i, y0 + j)));
            }
        }
        PyBytes::new(py, &out)
    }

    fn __repr__(&self) -> String {
        let m = &self.0;
        format!(
            "<OverlapMask {}x{} at ({}, {}), {} pixels>",
            m.width(),
            m.height(),
            m.x(),
            m.y(),
            m.count()
        )
    }
}

/// pixelhit: pixel-exact hit testing for Flash-style display trees.
///
/// Build a tree of nested, transformed nodes on a `Stage` (containers with vector fills and
/// strokes from SVG path data, bitmaps from PNG files, numpy arrays or pygame Surfaces) and
/// ask whether two of them touch on screen and exactly where, with rotation, scale, alpha
/// and visibility applied. Every sprite of a frame at once: `Stage.collisions`.
#[pymodule]
#[pyo3(name = "pixelhit")]
fn pixelhit_module(m: &Bound<'_, PyModule>) -> PyResult<()> {
    m.add_class::<PyStage>()?;
    m.add_class::<PyNode>()?;
    m.add_class::<PyPath>()?;
    m.add_class::<PyGraphic>()?;
    m.add_class::<PyBitmap>()?;
    m.add_class::<PyCollision>()?;
    m.add_class::<PyContact>()?;
    m.add_class::<PyOverlapMask>()?;
    m.add("PixelhitError", m.py().get_type::<PixelhitError>())?;
    m.add("DEFAULT_MAX_PIXELS", ph::DEFAULT_MAX_PIXELS)?;
    m.add("MAX_CLOSE_PAIRS", ph::MAX_CLOSE_PAIRS)?;
    m.add("__version__", env!("CARGO_PKG_VERSION"))?;
    Ok(())
}
