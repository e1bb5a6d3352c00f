//! `Node`'s Python methods: a node's properties as attributes, its user data, and Flash's
//! display-list calls (the handle itself, a node id with its stage, is in `handles`).

use std::hash::{DefaultHasher, Hash, Hasher};

use ph::{DVec2, NodeId};
use pixelhit as ph;
use pyo3::PyTraverseError;
use pyo3::gc::PyVisit;
use pyo3::prelude::*;

use crate::bitmap::{PyBitmap, bitmap_of};
use crate::convert::{
    ColorTuple, Index, Matrix, Xywh, color_of, index_arg, matrix_of, matrix_tuple, pair, rect_of, xywh,
};
use crate::errors::OrRaise;
use crate::graphic::PyGraphic;
use crate::handles::{PyNode, PyStage, id_of, node_obj, opt_id};
use crate::motion::{PyPose, pose_of};

impl PyNode {
    /// Runs a read of the stage about this node.
    fn read<T>(&self, py: Python<'_>, f: impl FnOnce(&ph::Stage, NodeId) -> ph::Result<T>) -> PyResult<T> {
        let stage = self.stage.bind(py).get().read()?;
        f(&stage, self.id).or_raise()
    }

    /// Runs a change of the stage about this node.
    fn write<T>(
        &self,
        py: Python<'_>,
        f: impl FnOnce(&mut ph::Stage, NodeId) -> ph::Result<T>,
    ) -> PyResult<T> {
        let mut stage = self.stage.bind(py).get().write()?;
        f(&mut stage, self.id).or_raise()
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
    /// The stage is reachable from here: a sprite that holds its node, whose stage holds
    /// the sprite as user data, is a cycle the garbage collector must see.
    fn __traverse__(&self, visit: PyVisit<'_>) -> Result<(), PyTraverseError> {
        visit.call(&self.stage)
    }

    /// Any Python object the game attaches to the node (its Sprite, say), or `None`. Kept
    /// by the stage, so every `Node` object of this node sees it (`contact.b.data` is the
    /// sprite); dropped when the node is removed; `del node.data` drops it.
    #[getter]
    fn data(&self, py: Python<'_>) -> PyResult<Option<Py<PyAny>>> {
        let stage = self.stage.bind(py).get();
        if !stage.read()?.contains(self.id) {
            self.read(py, |s, id| s.parent(id))?;
        }
        Ok(stage.data_of(py, self.id))
    }

    #[setter]
    fn set_data(&self, py: Python<'_>, value: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        let value = value.filter(|v| !v.is_none()).map(Bound::unbind);
        self.stage.bind(py).get().set_data(self.id, value)
    }

    #[deleter(data)]
    fn delete_data(&self, py: Python<'_>) -> PyResult<()> {
        self.stage.bind(py).get().set_data(self.id, None)
    }

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
        Ok(self.stage.bind(py).get().read()?.contains(self.id))
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
        self.describe(py)
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

    /// The node's pose now, a `Pose` (x, y, rotation as it was set, scales): keep it as
    /// last frame's for `Stage.sweep`. Setting a `Pose` (or 2, 3 or 5 numbers) sets all
    /// five properties, as `set_transform` (any skew is dropped). Reading a node with skew
    /// raises `NodeError` (a pose cannot hold it); a mirror set through `matrix` reads as a
    /// negative `scale_y`.
    #[getter]
    fn pose(&self, py: Python<'_>) -> PyResult<PyPose> {
        self.read(py, |s, id| s.pose(id)).map(PyPose)
    }

    #[setter]
    fn set_pose(&self, py: Python<'_>, pose: &Bound<'_, PyAny>) -> PyResult<()> {
        let p = pose_of(pose, "a pose")?;
        self.write(py, |s, id| {
            s.set_transform(id, p.x, p.y, p.rotation, p.scale_x, p.scale_y)
        })
    }

    /// The matrix `(a, b, c, d, tx, ty)` mapping the node's space into its parent's:
    /// `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`. Set it to any 6 numbers (skew allowed).
    #[getter]
    fn matrix(&self, py: Python<'_>) -> PyResult<Matrix> {
        self.read(py, |s, id| s.matrix(id).map(matrix_tuple))
    }

    #[setter]
    fn set_matrix(&self, py: Python<'_>, m: &Bound<'_, PyAny>) -> PyResult<()> {
        let m = matrix_of(m)?;
        self.write(py, |s, id| s.set_matrix(id, m))
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
    fn set_tolerance(&self, py: Python<'_>, value: Option<Bound<'_, PyAny>>) -> PyResult<()> {
        let t = value
            .filter(|v| !v.is_none())
            .map(|v| crate::convert::level(&v, "tolerance"))
            .transpose()?;
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
    fn set_color_transform(&self, py: Python<'_>, ct: &Bound<'_, PyAny>) -> PyResult<()> {
        let ct = color_of(ct)?;
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
    /// Set it to `(x, y, width, height)`, a `pygame.Rect` or `FRect`, or `None`.
    fn set_scroll_rect(&self, py: Python<'_>, r: Option<&Bound<'_, PyAny>>) -> PyResult<()> {
        let r = r
            .filter(|r| !r.is_none())
            .map(|r| rect_of(r, "a scroll_rect"))
            .transpose()?;
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

    /// Draws this bitmap node as pygame does: `pygame.transform.rotate(image, angle)`
    /// (transform "rotate") or `rotozoom(image, angle, scale)` ("rotozoom"), after
    /// `pygame.transform.flip(image, flip_x, flip_y)`, blitted with its top-left at the node's
    /// `x`, `y` (whole pixels, as `rect.topleft`). Every query then sees that surface bit for
    /// bit (semantics.md 4.9). `flavour` is "pygame", "pygame-ce" or None for the imported
    /// pygame's. Cheap enough for every sprite every frame.
    ///
    /// Raises ArgumentError for an unknown transform or flavour, or an angle or scale pygame
    /// cannot compute; NodeError for a node that is not a bitmap node (and, from a query,
    /// for one not placed by whole pixels).
    #[pyo3(signature = (transform, angle, scale = 1.0, flip_x = false, flip_y = false, flavour = None))]
    #[allow(clippy::too_many_arguments)]
    fn set_pygame_transform(
        &self,
        py: Python<'_>,
        transform: &str,
        angle: f64,
        scale: f64,
        flip_x: bool,
        flip_y: bool,
        flavour: Option<&str>,
    ) -> PyResult<()> {
        let t = crate::renderer::transform_from(py, transform, angle, scale, (flip_x, flip_y), flavour)?;
        self.write(py, |s, id| {
            s.set_bitmap_renderer(id, Some(ph::BitmapRenderer::Pygame(t)))
        })
    }

    /// Draws this bitmap node by pixelhit's own rule again (no pygame transform).
    fn clear_pygame_transform(&self, py: Python<'_>) -> PyResult<()> {
        self.write(py, |s, id| s.set_bitmap_renderer(id, None))
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
    fn set_frame(&self, py: Python<'_>, index: Index) -> PyResult<()> {
        self.write(py, |s, id| s.set_frame(id, index.0))
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
        self.write(py, |s, id| s.remove(id))?;
        self.stage.bind(py).get().forget_removed()
    }

    /// Moves the node under `parent` as its last child (it keeps its own matrix).
    fn set_parent(&self, py: Python<'_>, parent: &Bound<'_, PyAny>) -> PyResult<()> {
        let p = id_of(parent)?;
        self.write(py, |s, id| s.set_parent(id, p))
    }

    /// Moves `child` (from wherever it is) into this container at paint index `index`
    /// (Flash's `addChildAt`).
    fn add_child_at(&self, py: Python<'_>, child: &Bound<'_, PyAny>, index: Index) -> PyResult<()> {
        let c = id_of(child)?;
        self.write(py, |s, id| s.add_child_at(id, c, index.0))
    }

    /// The child at paint index `index`.
    fn child_at(&self, py: Python<'_>, index: Index) -> PyResult<Py<PyNode>> {
        let c = self.read(py, |s, id| s.child_at(id, index.0))?;
        self.node(py, c)
    }

    /// The paint index of `child` among this container's children.
    fn child_index(&self, py: Python<'_>, child: &Bound<'_, PyAny>) -> PyResult<usize> {
        let c = id_of(child)?;
        self.read(py, |s, id| s.child_index(id, c))
    }

    /// Moves `child` to paint index `index` among this container's children.
    fn set_child_index(&self, py: Python<'_>, child: &Bound<'_, PyAny>, index: Index) -> PyResult<()> {
        let c = id_of(child)?;
        self.write(py, |s, id| s.set_child_index(id, c, index.0))
    }

    /// Swaps the paint order of two children of this container.
    fn swap_children(&self, py: Python<'_>, a: &Bound<'_, PyAny>, b: &Bound<'_, PyAny>) -> PyResult<()> {
        let (a, b) = (id_of(a)?, id_of(b)?);
        self.write(py, |s, id| s.swap_children(id, a, b))
    }

    /// Removes the children with paint indices `start` up to `end` (excluded; all the rest
    /// when `None`) with their subtrees, and returns how many were removed.
    #[pyo3(signature = (start = 0, end = None))]
    fn remove_children(
        &self,
        py: Python<'_>,
        #[pyo3(from_py_with = index_arg)] start: usize,
        end: Option<Index>,
    ) -> PyResult<usize> {
        let removed = self.write(py, |s, id| match end {
            Some(end) => s.remove_children(id, start..end.0),
            None => s.remove_children(id, start..),
        })?;
        self.stage.bind(py).get().forget_removed()?;
        Ok(removed)
    }
}
