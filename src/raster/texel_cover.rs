//! Which texels of a bitmap a path covers, for an edit of the bitmap (`tree::bitmap_edit`):
//! the texels whose centres are inside it, decided as a fill drawn without anti-aliasing
//! (semantics.md 4.5) on the texel grid, so the one rule of centres serves both.

use glam::DAffine2;

use super::edges::{Edges, TooFar};
use super::item::{Scratch, Shape};
use super::prepare::FLATTEN_TOLERANCE;
use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::rect::PixelRect;
use crate::{Error, FillRule, Path, Result};

/// The texels of `within` whose centres are inside `path` by `rule`: the rectangle of
/// `within` the path can reach, and 255 (inside) or 0 for each of its texels, row-major.
///
/// # Errors
///
/// [`Error::NonFinite`] for a path with a non-finite point or too far from the origin,
/// [`Error::GeometryBudget`] when flattening it takes too many vertices,
/// [`Error::WorkBudget`] when its edges cross too often inside the texels.
pub(crate) fn path_texels(
    path: &Path,
    rule: FillRule,
    within: PixelRect,
    target: &dyn Fn() -> String,
) -> Result<(PixelRect, Vec<u8>)> {
    if !path.is_finite() {
        return Err(Error::NonFinite {
            what: format!("a point of {}", target()),
        });
    }
    let mut lines = Polylines::default();
    let budget = polygon::MAX_OUTLINE_VERTICES as usize;
    if !path.flatten_within(&DAffine2::IDENTITY, FLATTEN_TOLERANCE, &mut lines, budget) {
        return Err(polygon::over_budget("a path", target));
    }
    let edges = Edges::from_contours(&lines, &DAffine2::IDENTITY).map_err(|TooFar| Error::NonFinite {
        what: format!("{}, which lies more than 2^40 texels from the origin", target()),
    })?;
    let shape = Shape::Fill {
        edges,
        rule,
        alpha: 255,
    };
    let rect = shape.rect().intersect(&within);
    if rect.is_empty() {
        return Ok((PixelRect::default(), Vec::new()));
    }
    let w = rect.width() as usize;
    let mut out = vec![0u8; w * rect.height() as usize];
    let mut scratch = Scratch::default();
    shape.rows(rect, false, &mut scratch, |j, values| {
        let start = (j - rect.y0) as usize * w;
        out[start..start + w].copy_from_slice(values);
    });
    if scratch.over_budget() {
        return Err(Error::WorkBudget {
            what: format!("the texels {} covers", target()),
            work: u128::from(scratch.work()),
            budget: super::coverage::WORK_BUDGET,
            unit: "edge pieces handled",
            remedy: "a path with fewer crossing edges",
        });
    }
    Ok((rect, out))
}
