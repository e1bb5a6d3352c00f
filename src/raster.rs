//! Drawing one target into an alpha plane, tile by tile.
//!
//! This is the one place that rasterizes; everything else asks it for alpha planes. Two
//! choices make the answers exact and bounded:
//!
//! - **Canonical tiles.** The parent's pixel grid is cut into fixed `TILE x TILE` tiles at
//!   multiples of `TILE`. A tile is always drawn the same way, from geometry mapped in f64 and
//!   clipped to the tile (plus a margin) before it is handed to tiny-skia in f32, relative to
//!   the tile's corner. So a pixel's alpha depends only on the target and the pixel, never on
//!   the query window, on how far the scene is from the origin, or on which other tiles were
//!   drawn; a tighter window is therefore a valid optimization, and memory is one tile per
//!   target whatever the window.
//! - **Geometry in f64 until the last step.** Curves are flattened in the parent's space, and
//!   strokes are turned into polygons there (round joins and caps as a union of pieces), so
//!   tiny-skia only ever fills small, clipped polygons.

use std::sync::Arc;

use glam::{DAffine2, DVec2};
use tiny_skia::{
    BlendMode, Color, FillRule as SkFillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, Shader,
    SpreadMode, Transform,
};

use crate::color::{ColorTransform, round_channel};
use crate::polygon::{self, Polylines};
use crate::rect::PixelRect;
use crate::stage::{Leaf, invert};
use crate::{Bitmap, FillRule, Graphic, NodeId, Rect, Result, Stage};

/// Side of a tile, in pixels.
pub(crate) const TILE: i64 = 128;
/// Curves and circles are flattened to within this distance, in the parent's pixels.
pub(crate) const FLATTEN_TOLERANCE: f64 = 1.0 / 128.0;
/// Geometry is clipped this far outside a tile, so that tiny-skia's own clipping happens on
/// edges it draws straight.
const CLIP_MARGIN: f64 = 2.0;

/// One drawable piece of a target, in the parent's space.
enum Item {
    Fill {
        polys: Polylines,
        rule: FillRule,
        alpha: f32,
        bounds: Rect,
    },
    Bitmap {
        alpha: Arc<Pixmap>,
        texel_to_parent: DAffine2,
        quality: FilterQuality,
        bounds: Rect,
    },
}

impl Item {
    fn bounds(&self) -> &Rect {
        match self {
            Item::Fill { bounds, .. } | Item::Bitmap { bounds, .. } => bounds,
        }
    }
}

/// A target made ready to rasterize against one parent.
pub(crate) struct Prepared {
    items: Vec<Item>,
    bounds: Option<Rect>,
}

/// The alpha of a fill after the colour transform, 0..=1.
fn fill_alpha(alpha: f64, ct: &ColorTransform) -> f32 {
    (ct.apply_alpha(alpha * 255.0) / 255.0) as f32
}

/// A premultiplied pixmap holding only the transformed alpha of a bitmap's texels.
fn alpha_pixmap(bitmap: &Bitmap, ct: &ColorTransform) -> Option<Pixmap> {
    let mut pm = Pixmap::new(bitmap.width(), bitmap.height())?;
    for (dst, src) in pm
        .data_mut()
        .chunks_exact_mut(4)
        .zip(bitmap.rgba().chunks_exact(4))
    {
        dst[3] = round_channel(ct.apply_alpha(f64::from(src[3])));
    }
    Some(pm)
}

impl Prepared {
    /// Collects the visible leaves of `target` with their matrices and colour transforms
    /// relative to `parent` (the caller has checked that `parent` is an ancestor).
    pub fn new(stage: &Stage, target: NodeId, parent: NodeId) -> Result<Prepared> {
        let base = stage.matrix_to(target, parent)?;
        let base_color = stage.color_transform_to(target, parent)?;
        let mut items = Vec::new();
        stage.for_each_leaf(target, base, base_color, true, |_, leaf, m, ct| {
            if m.matrix2.determinant() == 0.0 {
                return Ok(());
            }
            match leaf {
                Leaf::Graphic(g) => {
                    let alpha = fill_alpha(g.alpha(), ct);
                    if alpha <= 0.0 {
                        return Ok(());
                    }
                    let mut polys = Polylines::default();
                    let rule = match g {
                        Graphic::Fill(f) => {
                            f.path().flatten(m, FLATTEN_TOLERANCE, &mut polys);
                            f.rule()
                        }
                        Graphic::Stroke(s) => {
                            polygon::stroke_outline(s.path(), s.width(), m, FLATTEN_TOLERANCE, &mut polys);
                            FillRule::NonZero
                        }
                    };
                    if let Some(bounds) = polys.bounds() {
                        items.push(Item::Fill {
                            polys,
                            rule,
                            alpha,
                            bounds,
                        });
                    }
                }
                Leaf::Bitmap(bitmap, smoothing) => {
                    let local =
                        Rect::from_ltrb(0.0, 0.0, f64::from(bitmap.width()), f64::from(bitmap.height()));
                    let (Some(bounds), Some(alpha)) =
                        (local.and_then(|r| r.transform(m)), alpha_pixmap(bitmap, ct))
                    else {
                        return Ok(());
                    };
                    items.push(Item::Bitmap {
                        alpha: Arc::new(alpha),
                        texel_to_parent: *m,
                        quality: if smoothing {
                            FilterQuality::Bilinear
                        } else {
                            FilterQuality::Nearest
                        },
                        bounds,
                    });
                }
            }
            Ok(())
        })?;
        let bounds = items.iter().map(|i| *i.bounds()).reduce(|a, b| a.union(&b));
        Ok(Prepared { items, bounds })
    }

    /// The box of everything this target can draw, in the parent's space.
    pub fn bounds(&self) -> Option<Rect> {
        self.bounds
    }
}

/// The tiles (multiples of [`TILE`]) that cover a window, row by row.
pub(crate) fn tiles(window: PixelRect) -> impl Iterator<Item = PixelRect> {
    let t0x = window.x0.div_euclid(TILE);
    let t0y = window.y0.div_euclid(TILE);
    let t1x = (window.x1 - 1).div_euclid(TILE);
    let t1y = (window.y1 - 1).div_euclid(TILE);
    let rows = if window.is_empty() { 0..0 } else { t0y..t1y + 1 };
    rows.flat_map(move |ty| {
        (t0x..=t1x).map(move |tx| PixelRect {
            x0: tx * TILE,
            y0: ty * TILE,
            x1: tx * TILE + TILE,
            y1: ty * TILE + TILE,
        })
    })
}

/// Scratch space for drawing tiles; reused across tiles and queries.
pub(crate) struct TileCanvas {
    pixmap: Pixmap,
    clipped: Polylines,
    quad: Polylines,
}

impl TileCanvas {
    pub fn new() -> TileCanvas {
        TileCanvas {
            pixmap: Pixmap::new(TILE as u32, TILE as u32).expect("TILE is a valid pixmap size"),
            clipped: Polylines::default(),
            quad: Polylines::default(),
        }
    }

    /// Draws `target` into `plane` (`TILE * TILE` alpha values, row-major) for the tile whose
    /// top-left pixel is `(tile.x0, tile.y0)`. Returns whether any pixel is non-zero.
    pub fn draw(&mut self, target: &Prepared, tile: PixelRect, anti_alias: bool, plane: &mut [u8]) -> bool {
        self.pixmap.fill(Color::TRANSPARENT);
        let origin = DVec2::new(tile.x0 as f64, tile.y0 as f64);
        let tile_rect = match tile.to_rect() {
            Some(r) => r,
            None => return false,
        };
        let Some(clip) = tile_rect.outset(CLIP_MARGIN) else {
            return false;
        };
        let mut drawn = false;
        for item in &target.items {
            if !item.bounds().touches(&tile_rect) {
                continue;
            }
            match item {
                Item::Fill {
                    polys, rule, alpha, ..
                } => {
                    self.clipped.clear();
                    polygon::clip_to_rect(polys, &clip, &mut self.clipped);
                    let Some(path) = to_skia_path(&self.clipped, origin) else {
                        continue;
                    };
                    let mut paint = Paint {
                        anti_alias,
                        blend_mode: BlendMode::SourceOver,
                        ..Paint::default()
                    };
                    paint.set_color(Color::from_rgba(0.0, 0.0, 0.0, *alpha).unwrap_or(Color::BLACK));
                    let rule = match rule {
                        FillRule::NonZero => SkFillRule::Winding,
                        FillRule::EvenOdd => SkFillRule::EvenOdd,
                    };
                    self.pixmap
                        .fill_path(&path, &paint, rule, Transform::identity(), None);
                    drawn = true;
                }
                Item::Bitmap {
                    alpha,
                    texel_to_parent,
                    quality,
                    ..
                } => {
                    let (w, h) = (f64::from(alpha.width()), f64::from(alpha.height()));
                    let corners = [
                        DVec2::ZERO,
                        DVec2::new(w, 0.0),
                        DVec2::new(w, h),
                        DVec2::new(0.0, h),
                    ];
                    self.quad.clear();
                    self.quad
                        .push_contour(corners.iter().map(|c| texel_to_parent.transform_point2(*c)), true);
                    self.clipped.clear();
                    polygon::clip_to_rect(&self.quad, &clip, &mut self.clipped);
                    let Some(path) = to_skia_path(&self.clipped, origin) else {
                        continue;
                    };
                    if invert(texel_to_parent).is_none() {
                        continue;
                    }
                    let rel = DAffine2::from_translation(-origin) * *texel_to_parent;
                    let [a, b, c, d, tx, ty] = rel.to_cols_array().map(|v| v as f32);
                    let paint = Paint {
                        shader: Pattern::new(
                            alpha.as_ref().as_ref(),
                            SpreadMode::Pad,
                            *quality,
                            1.0,
                            Transform::from_row(a, b, c, d, tx, ty),
                        ),
                        anti_alias,
                        blend_mode: BlendMode::SourceOver,
                        ..Paint::default()
                    };
                    if matches!(paint.shader, Shader::SolidColor(_)) {
                        continue;
                    }
                    self.pixmap
                        .fill_path(&path, &paint, SkFillRule::Winding, Transform::identity(), None);
                    drawn = true;
                }
            }
        }
        if !drawn {
            plane.fill(0);
            return false;
        }
        let mut any = 0u8;
        for (dst, px) in plane.iter_mut().zip(self.pixmap.data().chunks_exact(4)) {
            *dst = px[3];
            any |= px[3];
        }
        any != 0
    }
}

/// The contours as a tiny-skia path, relative to `origin`, or `None` when nothing is left.
fn to_skia_path(polys: &Polylines, origin: DVec2) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    for i in 0..polys.contours.len() {
        let c = polys.contour(i);
        let mut pts = c.iter().map(|p| *p - origin);
        let first = pts.next()?;
        pb.move_to(first.x as f32, first.y as f32);
        for p in pts {
            pb.line_to(p.x as f32, p.y as f32);
        }
        pb.close();
    }
    pb.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn tiles_cover_negative_windows() {
        let w = PixelRect {
            x0: -130,
            y0: 5,
            x1: 1,
            y1: 6,
        };
        let t: Vec<_> = tiles(w).collect();
        assert_eq!(t.len(), 3);
        assert_eq!(t[0].x0, -256);
        assert_eq!(t[2].x1, 128);
    }
}
