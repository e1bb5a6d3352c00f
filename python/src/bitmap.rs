//! `Bitmap`: an RGBA image from PNG files and bytes, raw RGBA, numpy arrays (either axis
//! order) and pygame Surfaces (as `pygame.mask.from_surface` sees them), every size checked
//! before anything is copied.

use std::path::PathBuf;

use pixelhit as ph;
use pyo3::prelude::*;
use pyo3::types::{PyBytes, PyInt};

use crate::convert::{byte_buffer, copy_exact, int_in, type_name};
use crate::errors::{OrRaise, bad_argument, raise};

/// An RGBA8 image (straight alpha, rows from the top), shared by every node that shows it.
/// Texel `(i, j)` covers `[i, i+1) x [j, j+1)` of the node's local space, so a bitmap turns
/// and scales about its top-left corner. Made by `Bitmap.from_png_file`,
/// `Bitmap.from_png_bytes`, `Bitmap.from_rgba`, `Bitmap.from_array` (numpy) or
/// `Bitmap.from_surface` (pygame). Immutable.
#[pyclass(module = "pixelhit", name = "Bitmap", frozen)]
#[derive(Clone)]
pub(crate) struct PyBitmap(pub(crate) ph::Bitmap);

/// The largest compressed PNG accepted from memory: the decoded-size limit (256 MiB), since
/// PNG data is never larger than what it decodes to by more than its headers.
const MAX_PNG_BYTES: u64 = 256 * 1024 * 1024;

/// A width and a height checked against the crate's image limits (16384 x 16384 and
/// 256 MiB), before any buffer is copied.
fn checked_size(width: i64, height: i64, source: &str) -> PyResult<(u32, u32)> {
    let limits = ph::ImageLimits::default();
    let fits = |v: i64, max: u32| (0..=i64::from(max)).contains(&v);
    let bytes = (width as i128) * (height as i128) * 4;
    if fits(width, limits.max_width)
        && fits(height, limits.max_height)
        && bytes <= i128::from(limits.max_bytes)
    {
        return Ok((width as u32, height as u32));
    }
    Err(raise(ph::Error::Image {
        source: source.into(),
        reason: format!(
            "{width}x{height} exceeds the limits of {}x{} pixels and {} bytes",
            limits.max_width, limits.max_height, limits.max_bytes
        ),
    }))
}

/// How the axes of an image array are laid out.
#[derive(Clone, Copy, PartialEq)]
enum Order {
    /// `(height, width, channels)`: numpy's, PIL's and `pygame.image.tobytes`'s layout.
    HeightWidth,
    /// `(width, height, channels)`: `pygame.surfarray`'s layout.
    WidthHeight,
}

impl Order {
    fn parse(name: &str) -> PyResult<Order> {
        match name {
            "hw" | "rows" => Ok(Order::HeightWidth),
            "wh" | "columns" | "surfarray" => Ok(Order::WidthHeight),
            _ => Err(bad_argument(format!(
                "order is {name:?}, not \"hw\" (height, width, channels: numpy's and PIL's) or \"wh\" \
                 (width, height, channels: pygame.surfarray's)"
            ))),
        }
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

    /// Decodes PNG data from any bytes-like object (`bytes`, `bytearray`, `memoryview`, a
    /// `uint8` array). Data over 256 MiB is refused before it is copied, images over the
    /// limits of `from_png_file` before they are decoded.
    #[staticmethod]
    fn from_png_bytes(data: &Bound<'_, PyAny>) -> PyResult<Self> {
        let buf = byte_buffer(data, "PNG data")?;
        let declared = buf.item_count() as u64;
        if declared > MAX_PNG_BYTES {
            return Err(raise(ph::Error::Image {
                source: "PNG bytes".into(),
                reason: format!("{declared} bytes of PNG data exceed the limit of {MAX_PNG_BYTES}"),
            }));
        }
        let bytes = copy_exact(data, &buf, declared, "PNG data")?;
        Ok(PyBitmap(ph::Bitmap::from_png_bytes(&bytes).or_raise()?))
    }

    /// A bitmap from `4 * width * height` bytes of straight RGBA, rows from the top, given
    /// as any bytes-like object (`bytes`, `bytearray`, `memoryview`, a `uint8` array). The
    /// size and the buffer's length are checked before anything is copied.
    #[staticmethod]
    fn from_rgba(
        width: &Bound<'_, PyAny>,
        height: &Bound<'_, PyAny>,
        data: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        let w = int_in(width, "width", 0, i64::MAX, "0..=16384")?;
        let h = int_in(height, "height", 0, i64::MAX, "0..=16384")?;
        let (w, h) = checked_size(w, h, "RGBA buffer")?;
        let buf = byte_buffer(data, "RGBA data")?;
        let rgba = copy_exact(data, &buf, 4 * u64::from(w) * u64::from(h), "RGBA data")?;
        Ok(PyBitmap(ph::Bitmap::from_rgba8(w, h, rgba).or_raise()?))
    }

    /// A bitmap from a `uint8` array through the buffer protocol (one copy, no loop in
    /// Python; slices and negative strides are copied right). `order` says how its axes
    /// are laid out: `"hw"` (the default) for `(height, width, channels)` as numpy, PIL and
    /// `pygame.image.tobytes` lay images out, `"wh"` for `(width, height, channels)` as
    /// `pygame.surfarray` does (`surfarray.array3d`, `pixels3d`). `channels` is 4 (RGBA,
    /// straight alpha) or 3 (RGB, opaque). The shape is checked against the image limits
    /// before anything is copied.
    #[staticmethod]
    #[pyo3(signature = (array, order = "hw"))]
    fn from_array(array: &Bound<'_, PyAny>, order: &str) -> PyResult<Self> {
        let order = Order::parse(order)?;
        let buf = byte_buffer(array, "an image array")?;
        let shape = buf.shape().to_vec();
        let (first, second, channels) = match shape[..] {
            [a, b, c @ (3 | 4)] => (a as i64, b as i64, c),
            _ => {
                let form = match order {
                    Order::HeightWidth => "(height, width, 4) or (height, width, 3)",
                    Order::WidthHeight => "(width, height, 4) or (width, height, 3)",
                };
                return Err(bad_argument(format!(
                    "an image array with order={:?} has the shape {form}, not {shape:?}",
                    if order == Order::HeightWidth { "hw" } else { "wh" }
                )));
            }
        };
        let (w, h) = match order {
            Order::HeightWidth => (second, first),
            Order::WidthHeight => (first, second),
        };
        let (w, h) = checked_size(w, h, "image array")?;
        let (wu, hu) = (w as usize, h as usize);
        let raw = copy_exact(array, &buf, (wu * hu * channels) as u64, "an image array")?;
        if order == Order::HeightWidth && channels == 4 {
            return Ok(PyBitmap(ph::Bitmap::from_rgba8(w, h, raw).or_raise()?));
        }
        let mut rgba = vec![255u8; wu * hu * 4];
        for y in 0..hu {
            for x in 0..wu {
                let from = match order {
                    Order::HeightWidth => (y * wu + x) * channels,
                    Order::WidthHeight => (x * hu + y) * channels,
                };
                let to = (y * wu + x) * 4;
                rgba[to..to + channels].copy_from_slice(&raw[from..from + channels]);
            }
        }
        Ok(PyBitmap(ph::Bitmap::from_rgba8(w, h, rgba).or_raise()?))
    }

    /// A bitmap from a pygame `Surface` (pygame or pygame-ce) whose pixels are solid exactly
    /// where `pygame.mask.from_surface(surface, threshold)` sets a bit, for every
    /// threshold, in every format: a surface with per-pixel alpha keeps its alpha; one
    /// without (8, 16, 24 or 32 bits, a surface-wide `set_alpha` or not) is opaque, as
    /// pygame's masks ignore surface alpha; with a colour key, the pixels pygame's own mask
    /// leaves out (the raw pixel equal to the key, alpha and palette index included) are
    /// transparent and every other pixel opaque, as pygame then ignores the threshold. Needs
    /// pygame installed.
    #[staticmethod]
    fn from_surface(surface: &Bound<'_, PyAny>) -> PyResult<Self> {
        let py = surface.py();
        let pygame = py.import("pygame")?;
        let (w, h): (i64, i64) = surface.call_method0("get_size")?.extract()?;
        let (w, h) = checked_size(w, h, "pygame Surface")?;
        let pixels = (w as usize) * (h as usize);
        let masks: (u32, u32, u32, u32) = surface.call_method0("get_masks")?.extract()?;
        let image = pygame.getattr("image")?;
        let mut rgba = if masks.3 != 0 {
            let data = image.call_method1("tobytes", (surface, "RGBA"))?;
            let buf = byte_buffer(&data, "pygame's RGBA bytes")?;
            let mut rgba = copy_exact(&data, &buf, 4 * pixels as u64, "pygame's RGBA bytes")?;
            let losses: (u32, u32, u32, u32) = surface.call_method0("get_losses")?.extract()?;
            if (1..8).contains(&losses.3) {
                // Alpha of fewer than 8 bits (16-bit SRCALPHA is ARGB4444): `tobytes` shifts
                // the bits up, SDL's `GetRGBA` (what pygame's mask reads) scales them to
                // 0..=255 (4 bits: v * 17), so that 15 is 255 and 8 is 136, not 128.
                let max = (1u32 << (8 - losses.3)) - 1;
                for p in rgba.chunks_exact_mut(4) {
                    let v = u32::from(p[3]) >> losses.3;
                    p[3] = ((v * 255 + max / 2) / max) as u8;
                }
            }
            rgba
        } else {
            let data = image.call_method1("tobytes", (surface, "RGB"))?;
            let buf = byte_buffer(&data, "pygame's RGB bytes")?;
            let rgb = copy_exact(&data, &buf, 3 * pixels as u64, "pygame's RGB bytes")?;
            rgb.chunks_exact(3)
                .flat_map(|p| [p[0], p[1], p[2], 255])
                .collect()
        };
        if !surface.call_method0("get_colorkey")?.is_none() {
            // pygame compares the raw pixel with the raw key (a palette index, all four
            // channels), which the RGBA bytes cannot tell apart: its own mask says.
            let mask = pygame.getattr("mask")?.call_method1("from_surface", (surface,))?;
            let kwargs = pyo3::types::PyDict::new(py);
            kwargs.set_item("setcolor", (255, 255, 255, 255))?;
            kwargs.set_item("unsetcolor", (0, 0, 0, 0))?;
            let bits = mask.call_method("to_surface", (), Some(&kwargs))?;
            let data = image.call_method1("tobytes", (bits, "RGBA"))?;
            let buf = byte_buffer(&data, "pygame's mask bytes")?;
            let solid = copy_exact(&data, &buf, 4 * pixels as u64, "pygame's mask bytes")?;
            for (p, s) in rgba.chunks_exact_mut(4).zip(solid.chunks_exact(4)) {
                p[3] = if s[3] != 0 { 255 } else { 0 };
            }
        }
        Ok(PyBitmap(ph::Bitmap::from_rgba8(w, h, rgba).or_raise()?))
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
        PyBytes::new(py, &self.0.rgba())
    }

    /// The image encoded as PNG.
    fn to_png_bytes<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyBytes>> {
        Ok(PyBytes::new(py, &self.0.to_png_bytes().or_raise()?))
    }

    /// Writes the image to a PNG file (a `str` or `os.PathLike`).
    fn save_png(&self, path: PathBuf) -> PyResult<()> {
        let bytes = self.0.to_png_bytes().or_raise()?;
        std::fs::write(&path, bytes).map_err(|e| {
            raise(ph::Error::Io {
                path: path.display().to_string(),
                reason: e.to_string(),
            })
        })
    }

    /// The image as a pygame Surface with per-pixel alpha (`pygame.image.frombytes`).
    /// Needs pygame.
    fn to_surface<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let bytes = PyBytes::new(py, &self.0.rgba());
        py.import("pygame")?
            .getattr("image")?
            .call_method1("frombytes", (bytes, (self.0.width(), self.0.height()), "RGBA"))
    }

    /// The `width` x `height` rectangle whose top-left texel is `(x, y)`, as a bitmap that
    /// shares this one's pixels (a frame of a sprite sheet): it answers every query as the
    /// same pixels copied, and frames of one sheet share the tables made from them.
    fn region(
        &self,
        x: &Bound<'_, PyAny>,
        y: &Bound<'_, PyAny>,
        width: &Bound<'_, PyAny>,
        height: &Bound<'_, PyAny>,
    ) -> PyResult<Self> {
        Ok(PyBitmap(crate::region::region(&self.0, x, y, width, height)?))
    }

    /// The texel `(r, g, b, a)` at `(x, y)`, or `None` outside the image.
    fn pixel(&self, x: &Bound<'_, PyInt>, y: &Bound<'_, PyInt>) -> Option<(u8, u8, u8, u8)> {
        let (x, y) = (x.extract::<u32>().ok()?, y.extract::<u32>().ok()?);
        self.0.pixel(x, y).map(|[r, g, b, a]| (r, g, b, a))
    }

    fn __eq__(&self, other: &Bound<'_, PyAny>) -> bool {
        other.cast::<PyBitmap>().is_ok_and(|o| o.get().0 == self.0)
    }

    fn __repr__(&self) -> String {
        format!("<Bitmap {}x{}>", self.0.width(), self.0.height())
    }
}

pub(crate) fn bitmap_of(obj: &Bound<'_, PyAny>) -> PyResult<ph::Bitmap> {
    obj.cast::<PyBitmap>().map(|b| b.get().0.clone()).map_err(|_| {
        bad_argument(format!(
            "expected a Bitmap (Bitmap.from_png_file, from_array, ...), not {}",
            type_name(obj)
        ))
    })
}
