//! Point tests of single leaves (semantics.md 5 and 7): inside a fill by its fill rule,
//! within half a stroke's width of a stroke (at least 0.5 px), on a bitmap's texel.

use glam::{DAffine2, DVec2};

use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::renderer::{BitmapRenderer, Rendered};
use crate::geom::shape::Leaf;
use crate::geom::transform::invert;
use crate::raster::DrawBudget;
use crate::{Bitmap, Graphic, Result};

use crate::geom::tolerance::POINT_TEST;

/// When a point on a bitmap counts as a hit.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum BitmapHit {
    /// Where the texel under the point has an alpha of at least `min` (before colour
    /// transforms, which do not change what is clicked; `min` 0 counts as 1).
    Alpha {
        /// The least alpha that counts, 1 by default: every texel that shows at all.
        min: u8,
    },
    /// Anywhere on the bitmap's rectangle, as Flash tests bitmaps.
    Box,
}

impl Default for BitmapHit {
    fn default() -> Self {
        BitmapHit::Alpha { min: 1 }
    }
}

/// Tests leaves against points, reusing its buffers, with one vertex budget over all the
/// leaves it tests: many leaves just under the per-item budget would otherwise take time
/// without end.
pub(crate) struct PointTest {
    polys: Polylines,
    total: DrawBudget,
    bitmap: BitmapHit,
}

impl PointTest {
    pub fn new(bitmap: BitmapHit) -> PointTest {
        PointTest {
            polys: Polylines::default(),
            total: DrawBudget::new(0),
            bitmap,
        }
    }

    /// Whether `p` hits `leaf`, placed by `m` in the point's space.
    ///
    /// # Errors
    ///
    /// [`crate::Error::GeometryBudget`] naming `name()` when the geometry goes over its own
    /// budget or the test's.
    pub fn leaf(
        &mut self,
        leaf: Leaf<'_>,
        m: &DAffine2,
        p: DVec2,
        name: &dyn Fn() -> String,
    ) -> Result<bool> {
        if m.matrix2.determinant() == 0.0 {
            return Ok(false);
        }
        let per_item = polygon::MAX_OUTLINE_VERTICES as usize;
        let polys = &mut self.polys;
        polys.clear();
        Ok(match leaf {
            Leaf::Graphic(g @ Graphic::Fill(_)) => {
                let cap = self.total.vertices_left(per_item);
                let rule = g.outline(m, POINT_TEST, cap, polys);
                count_leaf(
                    &mut self.total,
                    rule.is_ok(),
                    cap < per_item,
                    polys.points.len(),
                    "a fill",
                    name,
                )?;
                rule.is_ok_and(|rule| polygon::contains(polys, p, rule))
            }
            Leaf::Graphic(g @ Graphic::Stroke(s)) => {
                polygon::check_outline(s.path(), s.width(), m, POINT_TEST, name)?;
                let rule = g.outline(m, POINT_TEST, per_item, polys);
                count_leaf(
                    &mut self.total,
                    rule.is_ok(),
                    false,
                    polys.points.len(),
                    "a stroke",
                    name,
                )?;
                let inside = rule.is_ok_and(|rule| polygon::contains(polys, p, rule));
                polys.clear();
                // Within half a pixel of the centreline counts too (thin strokes).
                let cap = self.total.vertices_left(per_item);
                let built = s.path().flatten_within(m, POINT_TEST, polys, cap);
                count_leaf(
                    &mut self.total,
                    built,
                    cap < per_item,
                    polys.points.len(),
                    "a stroke",
                    name,
                )?;
                inside || polygon::distance(polys, p).is_some_and(|d| d <= 0.5)
            }
            Leaf::Bitmap(bm, _, rendered) => invert(m).is_some_and(|inv| {
                let t = inv.transform_point2(p).floor();
                // A renderer's surface stands for the bitmap, as an unsmoothed bitmap.
                let (w, h) = rendered.map_or((bm.width(), bm.height()), |r| r.size);
                let on = t.x >= 0.0 && t.y >= 0.0 && t.x < f64::from(w) && t.y < f64::from(h);
                match self.bitmap {
                    BitmapHit::Box => on,
                    BitmapHit::Alpha { min } => {
                        on && texel_alpha(bm, rendered, t.x as u32, t.y as u32) >= min.max(1)
                    }
                }
            }),
        })
    }
}

/// The alpha of texel (x, y) of what a bitmap leaf shows: the bitmap's own, or its
/// renderer's surface's (computed for that one pixel).
fn texel_alpha(bm: &Bitmap, rendered: Option<&Rendered>, x: u32, y: u32) -> u8 {
    match rendered {
        None => bm.pixel(x, y).map_or(0, |px| px[3]),
        Some(Rendered {
            renderer: BitmapRenderer::Pygame(t),
            ..
        }) => {
            let mut one = [0u8];
            // The renderer was checked for this bitmap when set.
            match t.alpha_row(bm, i64::from(y), i64::from(x), &mut one) {
                Ok(()) => one[0],
                Err(_) => 0,
            }
        }
    }
}

/// Counts the `made` vertices of a point test's leaf against the test's budget; a leaf that
/// was not `built` went over its own budget, or over what was left of the test's (`capped`).
fn count_leaf(
    total: &mut DrawBudget,
    built: bool,
    capped: bool,
    made: usize,
    what: &str,
    name: &dyn Fn() -> String,
) -> Result<()> {
    if !built {
        if capped {
            total.take_vertices(polygon::MAX_OUTLINE_VERTICES as usize, name)?;
        }
        return Err(polygon::over_budget(what, name));
    }
    total.take_vertices(made, name)
}
