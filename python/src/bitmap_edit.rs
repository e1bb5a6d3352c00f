//! `Stage.erase` and `Stage.paint`: a bitmap node's pixels edited with a disc, a path or
//! another bitmap (docs/art.md, "Editable bitmaps").

use pixelhit as ph;
use pyo3::prelude::*;

use crate::bitmap::bitmap_of;
use crate::convert::{fill_rule, type_name};
use crate::errors::{OrRaise, bad_argument};
use crate::handles::{PyStage, id_of};
use crate::path::path_of;

/// The brush the keyword arguments name: exactly one of `disc` (`(x, y, radius)`), `path`
/// (with `fill_rule`) or `bitmap` (with its top-left texel at `at`).
pub(crate) fn brush_of(
    disc: Option<(f64, f64, f64)>,
    path: Option<&Bound<'_, PyAny>>,
    rule: &str,
    bitmap: Option<&Bound<'_, PyAny>>,
    at: (i64, i64),
) -> PyResult<ph::Brush> {
    match (disc, path, bitmap) {
        (Some((x, y, radius)), None, None) => Ok(ph::Brush::Disc {
            centre: ph::DVec2::new(x, y),
            radius,
        }),
        (None, Some(p), None) => Ok(ph::Brush::Path {
            path: path_of(p)?,
            rule: fill_rule(rule)?,
        }),
        (None, None, Some(b)) => Ok(ph::Brush::Bitmap {
            bitmap: bitmap_of(b)?,
            x: at.0,
            y: at.1,
        }),
        _ => Err(bad_argument(
            "give one brush: disc=(x, y, radius), path=Path or bitmap=Bitmap".into(),
        )),
    }
}

/// A colour `(r, g, b, a)` of whole numbers 0..255 (a tuple, a list or a `pygame.Color`).
pub(crate) fn rgba_of(obj: &Bound<'_, PyAny>) -> PyResult<[u8; 4]> {
    let v: Vec<i64> = obj
        .extract()
        .map_err(|_| bad_argument(format!("color must be (r, g, b, a), not {}", type_name(obj))))?;
    let bytes: Vec<u8> = v.iter().filter_map(|&c| u8::try_from(c).ok()).collect();
    match <[u8; 4]>::try_from(bytes) {
        Ok(c) if v.len() == 4 => Ok(c),
        _ => Err(bad_argument(format!(
            "color must be four whole numbers 0..255 (r, g, b, a), not {v:?}"
        ))),
    }
}

/// Paints (with a colour) or erases (without) the brush into `node`'s pixels.
pub(crate) fn edit(
    stage: &PyStage,
    node: &Bound<'_, PyAny>,
    brush: &ph::Brush,
    color: Option<[u8; 4]>,
    alpha: f64,
) -> PyResult<()> {
    let node = id_of(node)?;
    let mut stage = stage.write()?;
    match color {
        Some(c) => stage.paint(node, brush, c, alpha),
        None => stage.erase(node, brush, alpha),
    }
    .or_raise()
}
