//! `Atlas`: a TexturePacker or Aseprite texture atlas, its frames as regions of one sheet
//! at their trim offsets, ready for `Stage.add_frames`.

use std::path::PathBuf;

use pixelhit as ph;
use pyo3::prelude::*;

use crate::bitmap::{PyBitmap, bitmap_of};
use crate::errors::OrRaise;

/// A frame as `Stage.add_frames` takes it: `(bitmap, smoothing, (x, y))`.
type FrameTuple = (PyBitmap, bool, (i32, i32));

/// A texture atlas (TexturePacker's JSON hash or array, Aseprite's json-hash or
/// json-array): its sheet and its named frames, each a region of the sheet drawn at its trim
/// offset, in the file's order. Immutable.
#[pyclass(module = "pixelhit", name = "Atlas", frozen)]
pub(crate) struct PyAtlas(ph::Atlas);

fn tuple_of(frame: &ph::Frame) -> Option<FrameTuple> {
    match frame {
        ph::Frame::Bitmap {
            bitmap,
            smoothing,
            offset,
        } => Some((PyBitmap(bitmap.clone()), *smoothing, *offset)),
        ph::Frame::Graphics(_) => None,
    }
}

#[pymethods]
impl PyAtlas {
    /// Reads an atlas file (a `str` or `os.PathLike`) and the PNG its `meta.image` names,
    /// relative to the file. Raises `DataError` naming the file and the field
    /// (`frames["run 0"].frame.w`) for a bad atlas, a rotated frame or a frame outside the
    /// sheet.
    #[staticmethod]
    fn from_file(path: PathBuf) -> PyResult<Self> {
        Ok(PyAtlas(ph::Atlas::from_file(path).or_raise()?))
    }

    /// An atlas from its JSON text and its sheet, already loaded; `name` is what errors
    /// call the JSON.
    #[staticmethod]
    #[pyo3(signature = (text, sheet, name = "atlas.json"))]
    fn from_json(text: &str, sheet: &Bound<'_, PyAny>, name: &str) -> PyResult<Self> {
        let sheet = bitmap_of(sheet)?;
        Ok(PyAtlas(
            ph::Atlas::from_json(text.as_bytes(), name, sheet).or_raise()?,
        ))
    }

    /// The sheet every frame is a region of.
    #[getter]
    fn sheet(&self) -> PyBitmap {
        PyBitmap(self.0.sheet().clone())
    }

    /// The frames' names, in the file's order.
    #[getter]
    fn names(&self) -> Vec<String> {
        self.0.names().map(str::to_string).collect()
    }

    /// Every frame as `(bitmap, smoothing, (x, y))`, in the file's order, ready for
    /// `Stage.add_frames`.
    fn frames(&self) -> Vec<FrameTuple> {
        self.0.frames().iter().filter_map(tuple_of).collect()
    }

    /// The frame named `name` as `(bitmap, smoothing, (x, y))`, or `None`.
    fn frame(&self, name: &str) -> Option<FrameTuple> {
        self.0.frame(name).and_then(tuple_of)
    }

    /// The frames of the animation Aseprite tagged `name` (`meta.frameTags`: `from` to
    /// `to`, in the file's order) as `(bitmap, smoothing, (x, y))`, or `None`.
    fn tag(&self, name: &str) -> Option<Vec<FrameTuple>> {
        self.0
            .tag(name)
            .map(|frames| frames.iter().filter_map(tuple_of).collect())
    }

    /// The names of Aseprite's tags, in the file's order (empty for TexturePacker).
    #[getter]
    fn tag_names(&self) -> Vec<String> {
        self.0.tag_names().map(str::to_string).collect()
    }

    fn __len__(&self) -> usize {
        self.0.names().count()
    }

    fn __repr__(&self) -> String {
        let s = self.0.sheet();
        format!(
            "<Atlas of {} frames on a {}x{} sheet>",
            self.__len__(),
            s.width(),
            s.height()
        )
    }
}
