//! `OverlapMask`: the pixels two nodes share, as bytes, a `pygame.mask.Mask` or a Surface.

use pixelhit as ph;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

/// The pixels two nodes share, over the overlap's rectangle, in the parent's pixel grid.
#[pyclass(module = "pixelhit", name = "OverlapMask", frozen)]
pub(crate) struct PyOverlapMask(pub(crate) ph::OverlapMask);

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

    /// The mask as a `pygame.mask.Mask` of `width` x `height` (its bit `(i, j)` is pixel
    /// `(x + i, y + j)` of the parent's grid): `mask.count()` equals `count()`, and
    /// `surface.blit(m.to_mask().to_surface(), (m.x, m.y))` draws it in place. Needs
    /// pygame.
    fn to_mask<'py>(&self, py: Python<'py>) -> PyResult<Bound<'py, PyAny>> {
        let surface = self.to_surface(py, None, None)?;
        let pygame = py.import("pygame")?;
        pygame
            .getattr("mask")?
            .call_method1("from_surface", (surface, 127))
    }

    /// The mask as a `width` x `height` pygame Surface with per-pixel alpha: `setcolor`
    /// (default opaque white) where the pixels overlap, `unsetcolor` (default transparent)
    /// elsewhere, as `pygame.mask.Mask.to_surface` colours them; any colour pygame takes
    /// (`(r, g, b)`, `(r, g, b, a)`, a name, a `pygame.Color`). Blit it at `(x, y)`. Needs
    /// pygame.
    #[pyo3(signature = (setcolor = None, unsetcolor = None))]
    fn to_surface<'py>(
        &self,
        py: Python<'py>,
        setcolor: Option<&Bound<'py, PyAny>>,
        unsetcolor: Option<&Bound<'py, PyAny>>,
    ) -> PyResult<Bound<'py, PyAny>> {
        let pygame = py.import("pygame")?;
        let color = |c: Option<&Bound<'py, PyAny>>, default: [u8; 4]| -> PyResult<[u8; 4]> {
            match c.filter(|c| !c.is_none()) {
                None => Ok(default),
                Some(c) => {
                    let rgba: Vec<u8> = pygame.getattr("Color")?.call1((c,))?.extract()?;
                    <[u8; 4]>::try_from(rgba.as_slice()).map_err(|_| {
                        crate::errors::bad_argument(format!("a colour has 4 channels, not {}", rgba.len()))
                    })
                }
            }
        };
        let (set, unset) = (color(setcolor, [255; 4])?, color(unsetcolor, [0; 4])?);
        let m = &self.0;
        let (x0, y0) = (m.x(), m.y());
        let mut rgba = Vec::with_capacity((m.width() * m.height() * 4) as usize);
        for j in 0..m.height() as i64 {
            for i in 0..m.width() as i64 {
                rgba.extend_from_slice(if m.contains(x0 + i, y0 + j) { &set } else { &unset });
            }
        }
        let bytes = PyBytes::new(py, &rgba);
        let surface = pygame
            .getattr("image")?
            .call_method1("frombytes", (bytes, (m.width(), m.height()), "RGBA"))?;
        Ok(surface)
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
