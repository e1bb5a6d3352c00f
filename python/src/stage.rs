//! `Stage`'s Python methods: building the tree, and every query. The stage itself (behind a
//! lock: a change from another thread during a query is a `BusyError`) and each node's user
//! data are in `handles`.

use ph::NodeId;
use pixelhit as ph;
use pyo3::PyTraverseError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;
use pyo3::types::PyDict;

use crate::answers::{PyCollision, PyContact};
use crate::bitmap::{PyBitmap, bitmap_of};
use crate::convert::{Matrix, Xywh, matrix_tuple, max_tests_arg, point_of, tolerance_arg, xywh};
use crate::crowd::{NodeList, NodeLookup, collision_options, crowd_query, with_max_work};
use crate::errors::{OrRaise, bad_argument, warn_renamed};
use crate::graphic::{PyGraphic, graphic_of};
use crate::handles::{PyNode, PyStage, id_of, node_obj, node_of, opt_id};
use crate::motion::{self, MotionArgs, PySweep, PySweepHit, movers_of, opt_pose, pose_of, sweep_query};
use crate::path::path_of;

// Defaults are written in the signatures below as plain numbers, which Python's signatures
// (and so the stubs, checked against them by stubtest) show; a constant's name would show as
// `...`. These hold those numbers to the crate's constants.
const _: () = assert!(ph::DEFAULT_MAX_TESTS == 262_144);
const _: () = assert!(ph::DEFAULT_MAX_STEP == 0.5);

#[pymethods]
impl PyStage {
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        self.traverse_data(visit)
    }

    fn __clear__(&self) {
        self.clear_data();
    }

    /// A stage holding only an empty root container.
    #[new]
    fn new() -> Self {
        PyStage::empty()
    }

    /// The root container (it cannot be removed or moved).
    #[getter]
    fn root(slf: &Bound<'_, Self>) -> PyResult<Py<PyNode>> {
        let root = slf.get().read()?.root();
        node_obj(slf, root)
    }

    /// How many nodes live, the root included.
    fn __len__(&self) -> PyResult<usize> {
        Ok(self.read()?.len())
    }

    fn __repr__(&self) -> String {
        match self.read() {
            Ok(s) => format!("<Stage: {} nodes>", s.len()),
            Err(_) => "<Stage (in use by another thread)>".to_string(),
        }
    }

    /// The first node named `name`, in tree order, or `None`.
    fn find(slf: &Bound<'_, Self>, name: &str) -> PyResult<Option<Py<PyNode>>> {
        let found = slf.get().read()?.find(name);
        found.map(|id| node_obj(slf, id)).transpose()
    }

    /// Whether `node` is a live node of this stage.
    fn contains(&self, node: &Bound<'_, PyAny>) -> PyResult<bool> {
        Ok(self.read()?.contains(id_of(node)?))
    }

    /// Bytes the stage's raster cache holds now (at most 128 MiB).
    #[getter]
    fn cache_bytes(&self) -> PyResult<usize> {
        Ok(self.read()?.cache_bytes())
    }

    /// Frees the rasters kept between queries (answers never depend on them).
    fn clear_cache(&self) -> PyResult<()> {
        self.read()?.clear_cache();
        Ok(())
    }

    // ----- building -----

    /// Adds an empty container as the last child of `parent` and returns it.
    fn add_container(slf: &Bound<'_, Self>, parent: &Bound<'_, PyAny>) -> PyResult<Py<PyNode>> {
        let parent = id_of(parent)?;
        let id = slf.get().write()?.add_container(parent).or_raise()?;
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
            .get()
            .write()?
            .add_bitmap(parent, bitmap, smoothing)
            .or_raise()?;
        node_obj(slf, id)
    }

    /// Adds an animated leaf showing one of `frames` at a time (the first to begin with;
    /// `node.frame` picks another). Each frame is a `Bitmap`, a `(Bitmap, smoothing)` pair,
    /// a `(Bitmap, smoothing, (x, y))` triple (the bitmap's top-left corner at `(x, y)` of
    /// the node's space: a trimmed atlas frame's offset), or a list of `Graphic`s.
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
                ph::Frame::bitmap(b.get().0.clone(), false)
            } else if let Ok((b, smoothing)) = frame.extract::<(Bound<'_, PyAny>, bool)>() {
                ph::Frame::bitmap(bitmap_of(&b)?, smoothing)
            } else if let Ok((b, smoothing, offset)) = frame.extract::<(Bound<'_, PyAny>, bool, (i32, i32))>()
            {
                ph::Frame::Bitmap {
                    bitmap: bitmap_of(&b)?,
                    smoothing,
                    offset,
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
        let id = slf.get().write()?.add_frames(parent, list).or_raise()?;
        node_obj(slf, id)
    }

    /// Appends fills and strokes to a container's graphics (drawn below its children, in
    /// order). `path` is SVG path data, a `Path`, or a ready `Graphic` (then the other
    /// arguments are not used). By default the path is filled; with `stroke=WIDTH` it is
    /// stroked instead, and with `fill=True, stroke=WIDTH` filled and then stroked. `alpha`
    /// (0..1) and `fill_rule` (`"nonzero"` or `"evenodd"`) apply to what is added.
    #[pyo3(signature = (node, path, *, fill = None, stroke = None, alpha = 1.0, fill_rule = "nonzero"))]
    fn add_graphic(
        &self,
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
                let rule = crate::convert::fill_rule(fill_rule)?;
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
        let mut stage = self.write()?;
        for g in graphics {
            stage.add_graphic(id, g).or_raise()?;
        }
        Ok(())
    }

    /// Replaces a container's graphics with `graphics` (a list of `Graphic`).
    fn set_graphics(&self, node: &Bound<'_, PyAny>, graphics: &Bound<'_, PyAny>) -> PyResult<()> {
        let id = id_of(node)?;
        let mut gs = Vec::new();
        for g in graphics.try_iter()? {
            gs.push(graphic_of(&g?)?);
        }
        self.write()?.set_graphics(id, gs).or_raise()
    }

    /// Poses many nodes in one call, as `node.set_transform` would each: `poses` is an
    /// `(N, 3)` array of `(x, y, rotation)` or an `(N, 5)` array of `(x, y, rotation,
    /// scale_x, scale_y)` rows, one per node of `nodes` (a float64 numpy array is read
    /// through the buffer protocol without a Python loop; any sequence of rows works too).
    /// All or nothing: a bad row or node raises and leaves every node as it was.
    fn set_transforms(&self, nodes: &Bound<'_, PyAny>, poses: &Bound<'_, PyAny>) -> PyResult<()> {
        let list = NodeList::new(nodes)?;
        let (rows, width) = pose_rows(poses, list.ids.len())?;
        let batch: Vec<(NodeId, ph::Pose)> = list
            .ids
            .iter()
            .zip(rows.chunks_exact(width))
            .map(|(&id, r)| {
                let (sx, sy) = if width == 5 { (r[3], r[4]) } else { (1.0, 1.0) };
                (id, ph::Pose::new(r[0], r[1], r[2], sx, sy))
            })
            .collect();
        // All or nothing: the crate checks every pose before it changes a node (restoring a
        // node afterwards could only go through its matrix, which forgets the properties it
        // was set with: a rotation of 370 would read back as 10).
        self.write()?.set_poses(&batch).or_raise()
    }

    /// Reads an SVG file (a `str` or `os.PathLike`) and adds it under `parent`: a
    /// `SvgLoad` with the container holding it (`root`, its local space the SVG's canvas),
    /// the nodes made for SVG ids (`ids`, `node(id)`), and what was not loaded as the file
    /// shows it (`warnings`).
    fn load_svg(
        slf: &Bound<'_, Self>,
        parent: &Bound<'_, PyAny>,
        path: std::path::PathBuf,
    ) -> PyResult<PySvgLoad> {
        let parent = id_of(parent)?;
        let doc = ph::svg::SvgDocument::from_file(&path).or_raise()?;
        let load = doc.add_to(&mut *slf.get().write()?, parent).or_raise()?;
        PySvgLoad::new(slf, load)
    }

    /// `load_svg` from the text of an SVG document.
    fn load_svg_string(slf: &Bound<'_, Self>, parent: &Bound<'_, PyAny>, text: &str) -> PyResult<PySvgLoad> {
        let parent = id_of(parent)?;
        let doc = ph::svg::SvgDocument::from_str(text).or_raise()?;
        let load = doc.add_to(&mut *slf.get().write()?, parent).or_raise()?;
        PySvgLoad::new(slf, load)
    }

    /// A picture of the stage for finding out why two things collide (or not): the scene
    /// in the root's space with a colour per query target, and for each query `(a, b,
    /// parent)` of `queries` the pixels solid in both (magenta), both targets' bounds
    /// (blue, green), the answer's rectangle (red) and a numbered legend line. `area`
    /// (`(x, y, w, h)`, a `pygame.Rect` or `FRect`, root space) and `zoom` fix the frame (by
    /// default it fits the scene, magnified to at least 512 pixels); `notes` are lines added
    /// to the legend; `highlight` outlines one node. Returns a `Bitmap`:
    /// `.save_png(path)`, `.to_surface()` (pygame), `.to_png_bytes()`.
    #[pyo3(signature = (queries = None, *, tolerance = 255, area = None, zoom = None, legend = true, notes = None, max_queries = None, highlight = None))]
    #[allow(clippy::too_many_arguments)]
    fn debug_image(
        &self,
        py: Python<'_>,
        queries: Option<&Bound<'_, PyAny>>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        area: Option<&Bound<'_, PyAny>>,
        zoom: Option<crate::convert::Index>,
        legend: bool,
        notes: Option<Vec<String>>,
        max_queries: Option<crate::convert::Index>,
        highlight: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<PyBitmap> {
        let opts = ph::CollisionOptions::default().tolerance(tolerance);
        let mut list = Vec::new();
        if let Some(qs) = queries {
            for q in qs.try_iter()? {
                let q = q?;
                let (a, b, parent): (Bound<'_, PyAny>, Bound<'_, PyAny>, Bound<'_, PyAny>) = q
                    .extract()
                    .map_err(|_| bad_argument("a debug query is a tuple (a, b, parent) of Nodes".into()))?;
                let mut dq = ph::DebugQuery::new(id_of(&a)?, id_of(&b)?, id_of(&parent)?);
                dq.options = opts;
                list.push(dq);
            }
        }
        let mut options = ph::DebugOptions::default()
            .legend(legend)
            .highlight(opt_id(highlight)?);
        if let Some(area) = area.filter(|a| !a.is_none()) {
            let [x, y, w, h] = crate::convert::rect_of(area, "area")?;
            let r = ph::Rect::from_xywh(x, y, w, h)
                .ok_or_else(|| bad_argument(format!("area ({x}, {y}, {w}, {h}) is not a rectangle")))?;
            options = options.area(r);
        }
        if let Some(z) = zoom {
            options = options.zoom(u32::try_from(z.0).unwrap_or(u32::MAX));
        }
        if let Some(m) = max_queries {
            options = options.max_queries(m.0);
        }
        for n in notes.unwrap_or_default() {
            options = options.note(n);
        }
        let guard = self.read()?;
        let stage = &*guard;
        let image = py
            .detach(|| ph::debug_image_with(stage, &list, &options))
            .or_raise()?;
        let (w, h) = image.dimensions();
        Ok(PyBitmap(
            ph::Bitmap::from_rgba8(w, h, image.into_raw()).or_raise()?,
        ))
    }

    /// Removes `node` and its whole subtree; their `Node` objects raise from then on.
    fn remove(&self, node: &Bound<'_, PyAny>) -> PyResult<()> {
        self.write()?.remove(id_of(node)?).or_raise()?;
        self.forget_removed()
    }

    /// The boundary of `node`'s solid pixels in `parent`'s pixel grid (alpha at least
    /// `max(1, 255 - tolerance)`, as in collisions) as closed polygons, lists of `(x, y)`
    /// tuples: by the even-odd rule a pixel's centre is inside exactly when the pixel is
    /// solid, holes included. `simplify` (pixels) drops vertices within that distance;
    /// below 0.5 no pixel centre changes side.
    #[pyo3(signature = (node, parent, tolerance = 255, simplify = 0.0, anti_alias = true))]
    fn outline(
        &self,
        py: Python<'_>,
        node: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        simplify: f64,
        anti_alias: bool,
    ) -> PyResult<Vec<crate::outline::Polygon>> {
        let opts = ph::OutlineOptions::default()
            .tolerance(tolerance)
            .simplify(simplify)
            .anti_alias(anti_alias);
        crate::outline::outline(self, py, node, parent, opts)
    }

    // ----- editing a bitmap's pixels -----

    /// Erases from a bitmap node's pixels the texels a brush covers, each texel's alpha
    /// scaled by `1 - alpha` (times the brush texel's alpha for a bitmap brush). One brush,
    /// in the bitmap's texels: `disc=(x, y, radius)` (texel centres within it), `path=Path`
    /// with `fill_rule` (centres inside it), or `bitmap=Bitmap` with its top-left texel at
    /// `at` (`(column, row)`, `(0, 0)` when `None`). Another node showing the same bitmap
    /// keeps its pixels; the stage makes again only what the edited rectangle touches. See
    /// docs/art.md, "Editable bitmaps".
    #[pyo3(signature = (node, *, disc = None, path = None, fill_rule = "nonzero", bitmap = None, at = None, alpha = 1.0))]
    #[allow(clippy::too_many_arguments)]
    fn erase(
        &self,
        node: &Bound<'_, PyAny>,
        disc: Option<(f64, f64, f64)>,
        path: Option<&Bound<'_, PyAny>>,
        fill_rule: &str,
        bitmap: Option<&Bound<'_, PyAny>>,
        at: Option<(i64, i64)>,
        alpha: f64,
    ) -> PyResult<()> {
        let brush = crate::bitmap_edit::brush_of(disc, path, fill_rule, bitmap, at.unwrap_or((0, 0)))?;
        crate::bitmap_edit::edit(self, node, &brush, None, alpha)
    }

    /// Paints `color` (`(r, g, b, a)`, straight alpha) over the texels a brush covers,
    /// source-over with strength `round(a x alpha)`; a bitmap brush paints its own texels
    /// times `color` (white keeps them). Brushes as for `erase`.
    #[pyo3(signature = (node, color, *, disc = None, path = None, fill_rule = "nonzero", bitmap = None, at = None, alpha = 1.0))]
    #[allow(clippy::too_many_arguments)]
    fn paint(
        &self,
        node: &Bound<'_, PyAny>,
        color: &Bound<'_, PyAny>,
        disc: Option<(f64, f64, f64)>,
        path: Option<&Bound<'_, PyAny>>,
        fill_rule: &str,
        bitmap: Option<&Bound<'_, PyAny>>,
        at: Option<(i64, i64)>,
        alpha: f64,
    ) -> PyResult<()> {
        let color = crate::bitmap_edit::rgba_of(color)?;
        let brush = crate::bitmap_edit::brush_of(disc, path, fill_rule, bitmap, at.unwrap_or((0, 0)))?;
        crate::bitmap_edit::edit(self, node, &brush, Some(color), alpha)
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
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
    ) -> PyResult<Option<Xywh>> {
        let (a, b, parent) = (id_of(a)?, id_of(b)?, id_of(parent)?);
        let t = tolerance;
        let guard = self.read()?;
        let stage = &*guard;
        let r = py.detach(|| stage.collision_rect(a, b, parent, precise, t));
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
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        anti_alias: bool,
        max_pixels: Option<u64>,
    ) -> PyResult<PyCollision> {
        let (a, b, parent) = (id_of(a)?, id_of(b)?, id_of(parent)?);
        let opts = collision_options(precise, tolerance, anti_alias, max_pixels, false, false, true)?;
        let guard = self.read()?;
        let stage = &*guard;
        let c = py.detach(|| stage.collision(a, b, parent, &opts)).or_raise()?;
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
    #[pyo3(signature = (nodes, parent, *, tolerance = 255, details = false, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn contacts_among(
        slf: &Bound<'_, Self>,
        nodes: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        details: bool,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
        max_work: Option<u64>,
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
        let opts = with_max_work(opts, max_work);
        crowd_query(slf, &[&list], |stage| {
            stage.contacts_among(&list.ids, parent, &opts)
        })
    }

    /// Which pairs among `nodes` touch in `parent`'s space, yes or no: the pairs of
    /// `contacts_among` with the same options, as `(a, b)` tuples of the objects given, in
    /// the same order, without rectangles or counts. Each pair stops at its first shared
    /// word of pixels, so it costs less than `contacts_among` when the answer is all a game
    /// needs (pygame's `Mask.overlap` answers the same question).
    #[pyo3(signature = (nodes, parent, *, tolerance = 255, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn touching_among(
        slf: &Bound<'_, Self>,
        nodes: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
        max_work: Option<u64>,
    ) -> PyResult<Vec<(Py<PyNode>, Py<PyNode>)>> {
        let parent = id_of(parent)?;
        let list = NodeList::new(nodes)?;
        let opts = collision_options(
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            false,
            skip_hidden,
            parallel,
        )?;
        let opts = with_max_work(opts, max_work);
        let pairs = {
            let guard = slf.get().read()?;
            let stage = &*guard;
            slf.py()
                .detach(|| stage.touching_among(&list.ids, parent, &opts))
                .or_raise()?
        };
        let lookup = NodeLookup::new(slf, &[&list]);
        pairs
            .into_iter()
            .map(|(a, b)| Ok((lookup.get(a)?, lookup.get(b)?)))
            .collect()
    }

    /// Every node of `others` that collides with `node`, in `parent`'s space, in the order of
    /// `others` (`node` is always `a`). Options as `contacts_among`.
    #[pyo3(signature = (node, others, parent, *, tolerance = 255, details = false, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn contacts_against(
        slf: &Bound<'_, Self>,
        node: &Bound<'_, PyAny>,
        others: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        details: bool,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
        max_work: Option<u64>,
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
        let opts = with_max_work(opts, max_work);
        let object = one.ids[0];
        crowd_query(slf, &[&one, &list], |stage| {
            stage.contacts_against(object, &list.ids, parent, &opts)
        })
    }

    /// Every colliding pair with `a` from `group_a` and `b` from `group_b` (bullets against
    /// enemies, without testing bullets against bullets), ordered by `a`'s place in
    /// `group_a`, then `b`'s in `group_b`. Options as `contacts_among`.
    #[pyo3(signature = (group_a, group_b, parent, *, tolerance = 255, details = false, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn contacts_between(
        slf: &Bound<'_, Self>,
        group_a: &Bound<'_, PyAny>,
        group_b: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        details: bool,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
        max_work: Option<u64>,
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
        let opts = with_max_work(opts, max_work);
        crowd_query(slf, &[&la, &lb], |stage| {
            stage.contacts_between(&la.ids, &lb.ids, parent, &opts)
        })
    }

    // The names before this release, with `parent` first (deprecated: a `DeprecationWarning`,
    // then the same call under the new name with the same keywords; they go in the next
    // release, as the crate's).

    /// Deprecated: `contacts_among(nodes, parent, ...)` under its former name and argument
    /// order.
    #[pyo3(signature = (parent, nodes, **options))]
    fn collisions<'py>(
        slf: &Bound<'py, Self>,
        parent: &Bound<'py, PyAny>,
        nodes: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        warn_renamed(
            slf.py(),
            c"Stage.collisions(parent, nodes) is deprecated: call Stage.contacts_among(nodes, parent), the crate's name and order (parent after the nodes)",
        )?;
        slf.call_method("contacts_among", (nodes, parent), options)
    }

    /// Deprecated: `contacts_against(node, others, parent, ...)` under its former name and
    /// argument order.
    #[pyo3(signature = (parent, node, others, **options))]
    fn collisions_with<'py>(
        slf: &Bound<'py, Self>,
        parent: &Bound<'py, PyAny>,
        node: &Bound<'py, PyAny>,
        others: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        warn_renamed(
            slf.py(),
            c"Stage.collisions_with(parent, node, others) is deprecated: call Stage.contacts_against(node, others, parent), the crate's name and order (parent after the nodes)",
        )?;
        slf.call_method("contacts_against", (node, others, parent), options)
    }

    /// Deprecated: `contacts_between(group_a, group_b, parent, ...)` under its former name
    /// and argument order.
    #[pyo3(signature = (parent, group_a, group_b, **options))]
    fn collisions_between<'py>(
        slf: &Bound<'py, Self>,
        parent: &Bound<'py, PyAny>,
        group_a: &Bound<'py, PyAny>,
        group_b: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        warn_renamed(
            slf.py(),
            c"Stage.collisions_between(parent, group_a, group_b) is deprecated: call Stage.contacts_between(group_a, group_b, parent), the crate's name and order (parent after the nodes)",
        )?;
        slf.call_method("contacts_between", (group_a, group_b, parent), options)
    }

    // ----- motion (semantics.md section 8) -----

    /// The first contact of `a` and `b` while they move from `a_from` and `b_from` (each a
    /// `Pose`, a sequence of 2, 3 or 5 numbers, or `None`: that node stays put) to their
    /// current poses: a `Sweep` (`t`, and `collision`'s answer at `t`) or `None` when they
    /// do not meet. Poses are tested so that no point moves more than `max_step` px of
    /// `parent` (default 0.5, at least 1/64) between two of them, so a wall at least
    /// `max_step` thick stops any bullet; the contact is narrowed to 1/256 px of motion.
    /// `max_tests` bounds the tested poses (a `BudgetError` past it); a moving node with
    /// skew is a `NodeError`. Other options as `collision`.
    #[pyo3(signature = (a, b, parent, *, a_from = None, b_from = None, precise = true, tolerance = 255, anti_alias = true, max_pixels = None, max_step = 0.5, max_tests = 262144, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn sweep(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        a_from: Option<&Bound<'_, PyAny>>,
        b_from: Option<&Bound<'_, PyAny>>,
        precise: bool,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        anti_alias: bool,
        max_pixels: Option<u64>,
        max_step: f64,
        #[pyo3(from_py_with = max_tests_arg)] max_tests: u64,
        max_work: Option<u64>,
    ) -> PyResult<Option<PySweep>> {
        let ids = (id_of(a)?, id_of(b)?, id_of(parent)?);
        let (a_from, b_from) = (opt_pose(a_from, "a_from")?, opt_pose(b_from, "b_from")?);
        let opts = MotionArgs {
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            skip_hidden: false,
            parallel: true,
            max_step,
            max_distance: None,
            max_tests,
            max_work,
        }
        .options()?;
        motion::sweep(self, py, ids, a_from, b_from, &opts)
    }

    /// Every node of `others` that `mover` meets while it moves from `from_pose` to its
    /// current pose (the others stay put), each with its first contact: a list of
    /// `SweepHit` in order of `t`, then of the tree. A bullet stops at the first. The mover
    /// is never among the answers; a node listed twice counts once. Options as `sweep`,
    /// with `skip_hidden` and `parallel` as `contacts_among`.
    #[pyo3(signature = (mover, from_pose, others, parent, *, tolerance = 255, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None, max_step = 0.5, max_tests = 262144, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn sweeps_against(
        slf: &Bound<'_, Self>,
        mover: &Bound<'_, PyAny>,
        from_pose: &Bound<'_, PyAny>,
        others: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
        max_step: f64,
        #[pyo3(from_py_with = max_tests_arg)] max_tests: u64,
        max_work: Option<u64>,
    ) -> PyResult<Vec<PySweepHit>> {
        let parent = id_of(parent)?;
        let node = node_of(mover)?.clone();
        let one = NodeList {
            ids: vec![node.get().id],
            objs: vec![node],
        };
        let from = pose_of(from_pose, "from_pose")?;
        let list = NodeList::new(others)?;
        let opts = MotionArgs {
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            skip_hidden,
            parallel,
            max_step,
            max_distance: None,
            max_tests,
            max_work,
        }
        .options()?;
        let mover = one.ids[0];
        sweep_query(slf, &[&one, &list], |stage| {
            stage.sweeps_against(mover, from, &list.ids, parent, &opts)
        })
    }

    /// Deprecated: `sweeps_against(mover, from_pose, others, parent, ...)` under its former
    /// name and argument order.
    #[pyo3(signature = (parent, mover, from_pose, others, **options))]
    fn sweeps_with<'py>(
        slf: &Bound<'py, Self>,
        parent: &Bound<'py, PyAny>,
        mover: &Bound<'py, PyAny>,
        from_pose: &Bound<'py, PyAny>,
        others: &Bound<'py, PyAny>,
        options: Option<&Bound<'py, PyDict>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        warn_renamed(
            slf.py(),
            c"Stage.sweeps_with(parent, mover, from_pose, others) is deprecated: call Stage.sweeps_against(mover, from_pose, others, parent), the crate's name and order (parent after the nodes)",
        )?;
        slf.call_method("sweeps_against", (mover, from_pose, others, parent), options)
    }

    /// `sweeps_against` for a whole frame of movers in one call: `movers` is an iterable of
    /// `(node, from_pose)` pairs (a dict's `.items()` works). Hits are ordered by the
    /// mover's place in `movers`, then `t`, then the tree; movers do not meet each other,
    /// and a mover listed among `others` is left out of them. Options as `sweeps_against`.
    /// (`parent` comes first here, as semantics.md section 8 writes this call.)
    #[pyo3(signature = (parent, movers, others, *, tolerance = 255, skip_hidden = false, precise = true, anti_alias = true, parallel = true, max_pixels = None, max_step = 0.5, max_tests = 262144, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn sweeps_between(
        slf: &Bound<'_, Self>,
        parent: &Bound<'_, PyAny>,
        movers: &Bound<'_, PyAny>,
        others: &Bound<'_, PyAny>,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        skip_hidden: bool,
        precise: bool,
        anti_alias: bool,
        parallel: bool,
        max_pixels: Option<u64>,
        max_step: f64,
        #[pyo3(from_py_with = max_tests_arg)] max_tests: u64,
        max_work: Option<u64>,
    ) -> PyResult<Vec<PySweepHit>> {
        let parent = id_of(parent)?;
        let (moving, poses) = movers_of(movers)?;
        let list = NodeList::new(others)?;
        let opts = MotionArgs {
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            skip_hidden,
            parallel,
            max_step,
            max_distance: None,
            max_tests,
            max_work,
        }
        .options()?;
        let pairs: Vec<(NodeId, ph::Pose)> = moving.ids.iter().copied().zip(poses).collect();
        sweep_query(slf, &[&moving, &list], |stage| {
            stage.sweeps_between(parent, &pairs, &list.ids, &opts)
        })
    }

    /// How far to push `a` out of `b`: the smallest distance `d` (px of `parent`, a
    /// multiple of 1/256) such that `a` moved by `d` along `direction` (an `(x, y)` vector,
    /// any length but zero) shares no solid pixel with `b`, while `d - 1/256` still does;
    /// `0.0` when they do not overlap, `None` when nothing up to `max_distance` separates
    /// them (default: the diagonal of both nodes' bounds together). Without a direction `a`
    /// is pushed against the contact normal (away from `b`). The tree is not changed: move
    /// `a` yourself. Options as `sweep`.
    #[pyo3(signature = (a, b, parent, *, direction = None, max_distance = None, precise = true, tolerance = 255, anti_alias = true, max_pixels = None, max_step = 0.5, max_tests = 262144, max_work = None))]
    #[allow(clippy::too_many_arguments)]
    fn separation(
        &self,
        py: Python<'_>,
        a: &Bound<'_, PyAny>,
        b: &Bound<'_, PyAny>,
        parent: &Bound<'_, PyAny>,
        direction: Option<&Bound<'_, PyAny>>,
        max_distance: Option<f64>,
        precise: bool,
        #[pyo3(from_py_with = tolerance_arg)] tolerance: u8,
        anti_alias: bool,
        max_pixels: Option<u64>,
        max_step: f64,
        #[pyo3(from_py_with = max_tests_arg)] max_tests: u64,
        max_work: Option<u64>,
    ) -> PyResult<Option<f64>> {
        let (a, b, parent) = (id_of(a)?, id_of(b)?, id_of(parent)?);
        let direction = direction
            .filter(|d| !d.is_none())
            .map(|d| point_of(d, "direction"))
            .transpose()?;
        let opts = MotionArgs {
            precise,
            tolerance,
            anti_alias,
            max_pixels,
            skip_hidden: false,
            parallel: true,
            max_step,
            max_distance,
            max_tests,
            max_work,
        }
        .options()?;
        let guard = self.read()?;
        let stage = &*guard;
        py.detach(|| stage.separation(a, b, parent, direction, &opts))
            .or_raise()
    }

    // ----- points, bounds, picking -----

    /// Whether the point `(x, y)` of the root's space hits `node`: without `shape_flag`,
    /// inside its bounds in the root's space (edges included); with it, inside a fill by its
    /// fill rule (Flash's boundary rule), within half a stroke's width of a stroke, or on a
    /// bitmap texel whose alpha is not 0, inside the masks and scroll windows over it.
    #[pyo3(signature = (node, x, y, shape_flag = false))]
    fn hit_test_point(&self, node: &Bound<'_, PyAny>, x: f64, y: f64, shape_flag: bool) -> PyResult<bool> {
        self.read()?
            .hit_test_point(id_of(node)?, x, y, shape_flag)
            .or_raise()
    }

    /// Whether the bounds of `a` and `b` in the root's space overlap or touch (Flash's
    /// `hitTestObject`: boxes, not pixels).
    fn hit_test_object(&self, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<bool> {
        self.read()?.hit_test_object(id_of(a)?, id_of(b)?).or_raise()
    }

    /// The node that a click at `(x, y)` (root space) goes to, by Flash's rules, or `None`.
    /// Bitmaps are hit where their texel's alpha is at least `min_alpha` (default 1), or
    /// anywhere on their rectangle with `bitmap_hit="box"` (Flash).
    #[pyo3(signature = (x, y, *, bitmap_hit = "alpha", min_alpha = None))]
    fn pick(
        slf: &Bound<'_, Self>,
        x: f64,
        y: f64,
        bitmap_hit: &str,
        min_alpha: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Py<PyNode>>> {
        let hit = match bitmap_hit {
            "alpha" => ph::BitmapHit::Alpha {
                min: min_alpha.map_or(Ok(1), |m| crate::convert::level(m, "min_alpha"))?,
            },
            "box" => ph::BitmapHit::Box,
            other => {
                return Err(bad_argument(format!(
                    "bitmap_hit is {other:?}, not \"alpha\" or \"box\""
                )));
            }
        };
        let opts = ph::PickOptions::default().bitmap_hit(hit);
        let found = slf.get().read()?.pick(x, y, &opts).or_raise()?;
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
            .get()
            .read()?
            .objects_under_point(id_of(container)?, x, y)
            .or_raise()?;
        found.into_iter().map(|id| node_obj(slf, id)).collect()
    }

    /// Flash's `getBounds`: the box of `node` and its descendants in `space`'s coordinates
    /// (the root's when `space` is `None`), strokes included, as `(x, y, width, height)`, or
    /// `None` when it draws nothing.
    #[pyo3(signature = (node, space = None))]
    fn bounds(&self, node: &Bound<'_, PyAny>, space: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.read()?.root());
        Ok(self.read()?.bounds(id_of(node)?, space).or_raise()?.map(xywh))
    }

    /// Flash's `getRect`: as `bounds`, with strokes counted by their centre line only.
    #[pyo3(signature = (node, space = None))]
    fn rect(&self, node: &Bound<'_, PyAny>, space: Option<&Bound<'_, PyAny>>) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.read()?.root());
        Ok(self.read()?.rect(id_of(node)?, space).or_raise()?.map(xywh))
    }

    /// The exact box of `node`'s geometry in `space` (never larger than `bounds`).
    #[pyo3(signature = (node, space = None))]
    fn tight_bounds(
        &self,
        node: &Bound<'_, PyAny>,
        space: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.read()?.root());
        Ok(self
            .read()?
            .tight_bounds(id_of(node)?, space)
            .or_raise()?
            .map(xywh))
    }

    /// `bounds` cut by every mask and scroll window that clips `node`.
    #[pyo3(signature = (node, space = None))]
    fn visible_bounds(
        &self,
        node: &Bound<'_, PyAny>,
        space: Option<&Bound<'_, PyAny>>,
    ) -> PyResult<Option<Xywh>> {
        let space = opt_id(space)?.unwrap_or(self.read()?.root());
        Ok(self
            .read()?
            .visible_bounds(id_of(node)?, space)
            .or_raise()?
            .map(xywh))
    }

    /// The matrix `(a, b, c, d, tx, ty)` mapping `node`'s space into `ancestor`'s (the
    /// root's when `None`; any node, through the root, when it is not an ancestor).
    #[pyo3(signature = (node, ancestor = None))]
    fn matrix_to(&self, node: &Bound<'_, PyAny>, ancestor: Option<&Bound<'_, PyAny>>) -> PyResult<Matrix> {
        let space = opt_id(ancestor)?.unwrap_or(self.read()?.root());
        let m = self.read()?.matrix_between(id_of(node)?, space).or_raise()?;
        Ok(matrix_tuple(m))
    }
}

/// The rows of a pose array: `(N, 3)` or `(N, 5)` numbers with `N` = `count`, read from a
/// float64 buffer (checked before it is copied) or from any sequence of rows.
fn pose_rows(poses: &Bound<'_, PyAny>, count: usize) -> PyResult<(Vec<f64>, usize)> {
    const FORM: &str =
        "an (N, 3) array of (x, y, rotation) or an (N, 5) array of (x, y, rotation, scale_x, scale_y)";
    if let Ok(buf) = pyo3::buffer::PyBuffer::<f64>::get(poses) {
        return match *buf.shape() {
            [n, w @ (3 | 5)] if n == count => Ok((
                buf.to_vec(poses.py())
                    .map_err(|e| crate::errors::argument_from("poses", e))?,
                w,
            )),
            ref shape => Err(bad_argument(format!(
                "poses is {FORM} with N = {count} nodes, not an array of shape {shape:?}"
            ))),
        };
    }
    if let Some(flat) = list_of_triples(poses, count) {
        return Ok((flat, 3));
    }
    let rows: Vec<Vec<f64>> = poses.extract().map_err(|_| {
        bad_argument(format!(
            "poses is {FORM}, not {}",
            crate::convert::type_name(poses)
        ))
    })?;
    let width = rows.first().map_or(3, Vec::len);
    if rows.len() != count || !(width == 3 || width == 5) || rows.iter().any(|r| r.len() != width) {
        return Err(bad_argument(format!(
            "poses is {FORM} with N = {count} nodes: got {} rows of lengths {:?}",
            rows.len(),
            rows.iter()
                .map(Vec::len)
                .collect::<std::collections::BTreeSet<_>>()
        )));
    }
    Ok((rows.concat(), width))
}

/// A list of `count` tuples of three numbers (a frame's `(x, y, rotation)` poses as a game
/// builds them), flat, without a list per row; `None` for anything else, which
/// [`pose_rows`] reads the general way (a list is read twice then, never a generator).
fn list_of_triples(poses: &Bound<'_, PyAny>, count: usize) -> Option<Vec<f64>> {
    let list = poses.cast::<pyo3::types::PyList>().ok()?;
    if list.len() != count {
        return None;
    }
    let mut flat = Vec::with_capacity(3 * count);
    for row in list.iter() {
        let (x, y, rotation): (f64, f64, f64) = row.cast::<pyo3::types::PyTuple>().ok()?.extract().ok()?;
        flat.extend([x, y, rotation]);
    }
    Some(flat)
}

/// What `Stage.load_svg` built: `root` (the container holding the SVG), `ids` (a dict from
/// SVG id to `Node`), `warnings` (what was not loaded as the file shows it, one line each).
#[pyclass(module = "pixelhit", name = "SvgLoad", frozen)]
pub(crate) struct PySvgLoad {
    /// The container holding the SVG's content (its local space is the SVG's canvas).
    #[pyo3(get)]
    root: Py<PyNode>,
    /// The node made for each SVG `id`, in the order they were found.
    #[pyo3(get)]
    ids: Py<pyo3::types::PyDict>,
    /// Everything not loaded as the file shows it, in document order.
    #[pyo3(get)]
    warnings: Vec<String>,
}

impl PySvgLoad {
    fn new(stage: &Bound<'_, PyStage>, load: ph::svg::SvgLoad) -> PyResult<Self> {
        let ids = pyo3::types::PyDict::new(stage.py());
        for (name, id) in load.ids() {
            ids.set_item(name, node_obj(stage, id)?)?;
        }
        Ok(PySvgLoad {
            root: node_obj(stage, load.root)?,
            ids: ids.unbind(),
            warnings: load.warnings.iter().map(ToString::to_string).collect(),
        })
    }
}

#[pymethods]
impl PySvgLoad {
    /// The node made for the SVG element with this `id`, or `None`.
    fn node(&self, py: Python<'_>, id: &str) -> PyResult<Option<Py<PyAny>>> {
        Ok(self.ids.bind(py).get_item(id)?.map(Bound::unbind))
    }

    fn __repr__(&self, py: Python<'_>) -> String {
        format!(
            "<SvgLoad root={} with {} ids, {} warnings>",
            self.root.get().describe(py),
            self.ids.bind(py).len(),
            self.warnings.len()
        )
    }
}
