//! pygame's pictures of a bitmap (semantics.md 4.9) for Python: the output size pygame gives,
//! the alpha plane of the surface it returns, computed without pygame, and the transform a
//! bitmap node is drawn by (`Node.set_pygame_transform`, whose method is in `node`).

use pixelhit as ph;
use pyo3::prelude::*;
use pyo3::types::PyBytes;

use crate::bitmap::PyBitmap;
use crate::errors::{bad_argument, raise};

/// A transform from Python's words: `transform` is "rotate" or "rotozoom", `flavour`
/// "pygame", "pygame-ce" or None for the imported pygame's (`pygame.IS_CE`).
pub(crate) fn transform_from(
    py: Python<'_>,
    transform: &str,
    angle: f64,
    scale: f64,
    flip: (bool, bool),
    flavour: Option<&str>,
) -> PyResult<ph::PygameTransform> {
    let t = match transform {
        "rotate" => ph::PygameTransform::rotate(angle),
        "rotozoom" => ph::PygameTransform::rotozoom(angle, scale),
        other => {
            return Err(bad_argument(format!(
                "transform {other:?} is not \"rotate\" or \"rotozoom\""
            )));
        }
    };
    let flavour = match flavour {
        Some("pygame") => ph::PygameFlavour::Pygame,
        Some("pygame-ce") => ph::PygameFlavour::PygameCe,
        Some(other) => {
            return Err(bad_argument(format!(
                "flavour {other:?} is not \"pygame\", \"pygame-ce\" or None"
            )));
        }
        None => imported_flavour(py),
    };
    Ok(t.flip(flip.0, flip.1).flavour(flavour))
}

/// The flavour of the pygame Python would import: pygame-ce sets `pygame.IS_CE`. Found once
/// per process (one environment holds one of the two: they install the same module), so a
/// game setting every sprite's transform every frame does not import each time; until
/// pygame can be imported, "pygame".
fn imported_flavour(py: Python<'_>) -> ph::PygameFlavour {
    static FOUND: std::sync::OnceLock<ph::PygameFlavour> = std::sync::OnceLock::new();
    if let Some(f) = FOUND.get() {
        return *f;
    }
    let Ok(pygame) = py.import("pygame") else {
        return ph::PygameFlavour::Pygame;
    };
    let is_ce = pygame
        .getattr("IS_CE")
        .and_then(|v| v.is_truthy())
        .unwrap_or(false);
    *FOUND.get_or_init(|| match is_ce {
        true => ph::PygameFlavour::PygameCe,
        false => ph::PygameFlavour::Pygame,
    })
}

/// The size of the surface `pygame.transform.rotate(surface, angle)` (transform "rotate")
/// or `rotozoom(surface, angle, scale)` (transform "rotozoom") returns for a source of
/// `width` x `height`, exactly as pygame computes it. Raises ArgumentError for an unknown
/// transform, or an angle or scale pygame cannot compute (semantics.md 4.9).
#[pyfunction]
#[pyo3(signature = (width, height, transform, angle, scale = 1.0))]
pub(crate) fn pygame_output_size(
    py: Python<'_>,
    width: u32,
    height: u32,
    transform: &str,
    angle: f64,
    scale: f64,
) -> PyResult<(u32, u32)> {
    let t = transform_from(py, transform, angle, scale, (false, false), Some("pygame"))?;
    t.check(width, height).map_err(raise)?;
    Ok(t.output_size(width, height))
}

/// `(width, height, alpha)`: the alpha plane (row-major bytes) of the surface pygame's
/// `rotate` or `rotozoom`, after `flip`, returns for `bitmap` (its alpha read as the
/// surface's), bit for bit, computed without pygame. `flavour` None means the imported
/// pygame's.
#[pyfunction]
#[pyo3(signature = (bitmap, transform, angle, scale = 1.0, flip_x = false, flip_y = false, flavour = None))]
#[allow(clippy::too_many_arguments)]
pub(crate) fn pygame_alpha_plane<'py>(
    py: Python<'py>,
    bitmap: &PyBitmap,
    transform: &str,
    angle: f64,
    scale: f64,
    flip_x: bool,
    flip_y: bool,
    flavour: Option<&str>,
) -> PyResult<(u32, u32, Bound<'py, PyBytes>)> {
    let t = transform_from(py, transform, angle, scale, (flip_x, flip_y), flavour)?;
    let b = &bitmap.0;
    t.check(b.width(), b.height()).map_err(raise)?;
    let (w, h) = t.output_size(b.width(), b.height());
    let mut plane = vec![0u8; w as usize * h as usize];
    if w > 0 {
        for (y, row) in plane.chunks_exact_mut(w as usize).enumerate() {
            t.alpha_row(b, y as i64, 0, row).map_err(raise)?;
        }
    }
    Ok((w, h, PyBytes::new(py, &plane)))
}
