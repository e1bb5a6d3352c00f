//! Drawing targets into alpha planes: the one place that rasterizes.
//!
//! A target is a list of *items* (a fill, a stroke turned into a fill, or a bitmap), each
//! already mapped into the query parent's space in f64. Each item is rasterized on its own,
//! into tiles anchored at its own integer corner, and the target's alpha at a pixel is the
//! source-over of its items' alphas there, in paint order. Three choices make the answers
//! exact in the sense semantics.md needs:
//!
//! - **An item's raster depends only on the item.** Its tiles sit at fixed offsets from its own
//!   anchor (the pixel holding its box's top-left corner, less a margin), so which pixels a
//!   query window happens to cover never changes a value: a tighter window is a valid
//!   optimization, and a raster can be reused by later queries.
//! - **Integer moves are exact.** Coordinates handed to tiny-skia are measured from the anchor
//!   and snapped in f64 to 1/1024 px, which f32 then holds exactly; moving an item by whole
//!   pixels moves its anchor by the same amount and hands tiny-skia the very same path.
//! - **Bounded memory.** An item larger than one tile is cut into tiles (clipped in f64, in the
//!   item's own frame), rendered only where a window needs them and dropped when the cache
//!   grows past a fixed size.

use std::collections::HashMap;
use std::sync::Arc;

use glam::{DAffine2, DVec2};
use tiny_skia::{
    BlendMode, Color, FillRule as SkFillRule, FilterQuality, Mask, Paint, PathBuilder, Pattern, Pixmap,
    Shader, SpreadMode, Transform,
};

use crate::color::{ColorTransform, round_channel};
use crate::polygon::{self, Polylines};
use crate::rect::PixelRect;
use crate::stage::{Leaf, invert};
use crate::{Bitmap, FillRule, Graphic, NodeId, Rect, Result, Stage};

/// Curves and circles are flattened to within this distance, in the parent's pixels.
pub(crate) const FLATTEN_TOLERANCE: f64 = 1.0 / 128.0;
/// Side of an item tile, in pixels. An item up to this size is one tile and is handed to
/// tiny-skia whole.
const ITEM_TILE: i64 = 1024;
/// Vertices are snapped to multiples of 1/QUANTUM px relative to their tile; with tiles of
/// at most ITEM_TILE + 2 * CLIP_MARGIN px that needs 11 + 10 bits, which f32 holds exactly.
const QUANTUM: f64 = 1024.0;
/// Geometry of a cut tile is clipped this far outside it, so tiny-skia's own clipping only
/// ever cuts edges it draws straight.
const CLIP_MARGIN: f64 = 2.0;
/// Item tiles kept during one query before the oldest are dropped (in bytes of alpha).
const TILE_CACHE_BYTES: usize = 64 << 20;

/// What an item draws.
enum Shape {
    Fill {
        polys: Polylines,
        rule: FillRule,
    },
    Bitmap {
        alpha: Arc<Pixmap>,
        texel_to_parent: DAffine2,
        quality: FilterQuality,
    },
}

/// One drawable piece of a target, in the parent's space.
struct Item {
    shape: Shape,
    /// Alpha of a fill after the colour transform (bitmaps carry theirs per texel).
    alpha: u8,
    /// The pixels the item may touch, with a one-pixel margin; its raster's anchor is the
    /// top-left corner.
    extent: PixelRect,
}

/// A target made ready to rasterize against one parent.
pub(crate) struct Prepared {
    items: Vec<Item>,
    extent: Option<PixelRect>,
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

/// The pixels a box can touch, grown by one pixel so that snapping never leaves them.
fn extent_of(bounds: &Rect) -> PixelRect {
    let p = PixelRect::covering(bounds);
    PixelRect {
        x0: p.x0 - 1,
        y0: p.y0 - 1,
        x1: p.x1 + 1,
        y1: p.y1 + 1,
    }
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
                    let alpha = round_channel(ct.apply_alpha(g.alpha() * 255.0));
                    if alpha == 0 {
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
                        items.push(Item {
                            shape: Shape::Fill { polys, rule },
                            alpha,
                            extent: extent_of(&bounds),
                        });
                    }
                }
                Leaf::Bitmap(bitmap, smoothing) => {
                    let local =
                        Rect::from_ltrb(0.0, 0.0, f64::from(bitmap.width()), f64::from(bitmap.height()));
                    let (Some(bounds), Some(alpha), Some(_)) = (
                        local.and_then(|r| r.transform(m)),
                        alpha_pixmap(bitmap, ct),
                        invert(m),
                    ) else {
                        return Ok(());
                    };
                    items.push(Item {
                        shape: Shape::Bitmap {
                            alpha: Arc::new(alpha),
                            texel_to_parent: *m,
                            quality: if smoothing {
                                FilterQuality::Bilinear
                            } else {
                                FilterQuality::Nearest
                            },
                        },
                        alpha: 255,
                        extent: extent_of(&bounds),
                    });
                }
            }
            Ok(())
        })?;
        let extent = items.iter().map(|i| i.extent).reduce(|a, b| PixelRect {
            x0: a.x0.min(b.x0),
            y0: a.y0.min(b.y0),
            x1: a.x1.max(b.x1),
            y1: a.y1.max(b.y1),
        });
        Ok(Prepared { items, extent })
    }

    /// The pixels this target can touch in the parent's grid.
    pub fn extent(&self) -> Option<PixelRect> {
        self.extent
    }
}

/// The windows of `TILE x TILE` pixels (at multiples of `TILE`) that cover `window`, row by
/// row, each cut to `window`.
pub(crate) fn chunks(window: PixelRect, tile: i64) -> impl Iterator<Item = PixelRect> {
    let t0x = window.x0.div_euclid(tile);
    let t0y = window.y0.div_euclid(tile);
    let t1x = (window.x1 - 1).div_euclid(tile);
    let t1y = (window.y1 - 1).div_euclid(tile);
    let rows = if window.is_empty() { 0..0 } else { t0y..t1y + 1 };
    rows.flat_map(move |ty| {
        (t0x..=t1x).map(move |tx| {
            PixelRect {
                x0: tx * tile,
                y0: ty * tile,
                x1: tx * tile + tile,
                y1: ty * tile + tile,
            }
            .intersect(&window)
        })
    })
}

/// `a * b / 255`, rounded to nearest, exact for all `a, b` in 0..=255.
fn mul255(a: u32, b: u32) -> u32 {
    let v = a * b + 128;
    (v + (v >> 8)) >> 8
}

/// One rendered tile of an item: its pixels in the parent's grid and their alphas.
struct ItemTile {
    rect: PixelRect,
    alpha: Vec<u8>,
}

/// Draws targets into alpha planes, keeping the item tiles it rendered for the rest of the
/// query.
pub(crate) struct Rasterizer {
    anti_alias: bool,
    tiles: HashMap<(usize, usize, i64, i64), ItemTile>,
    bytes: usize,
    clipped: Polylines,
    quad: Polylines,
}

impl Rasterizer {
    pub fn new(anti_alias: bool) -> Rasterizer {
        Rasterizer {
            anti_alias,
            tiles: HashMap::new(),
            bytes: 0,
            clipped: Polylines::default(),
            quad: Polylines::default(),
        }
    }

    /// Writes the alpha of `target` over `region` into `out` (row-major, `region.width()`
    /// per row). `key` tells targets apart in the tile cache. Returns whether any pixel is
    /// not zero.
    pub fn plane(&mut self, key: usize, target: &Prepared, region: PixelRect, out: &mut [u8]) -> bool {
        out.fill(0);
        let w = region.width() as usize;
        let mut any = false;
        for (index, item) in target.items.iter().enumerate() {
            let part = item.extent.intersect(&region);
            if part.is_empty() {
                continue;
            }
            // Item tiles overlapping `part`, in the item's own tile grid.
            let e = item.extent;
            let (tx0, tx1) = ((part.x0 - e.x0) / ITEM_TILE, (part.x1 - 1 - e.x0) / ITEM_TILE);
            let (ty0, ty1) = ((part.y0 - e.y0) / ITEM_TILE, (part.y1 - 1 - e.y0) / ITEM_TILE);
            for ty in ty0..=ty1 {
                for tx in tx0..=tx1 {
                    let tile = self.item_tile(key, index, item, tx, ty);
                    let over = tile.rect.intersect(&part);
                    let tw = tile.rect.width() as usize;
                    for y in over.y0..over.y1 {
                        let src_row = (y - tile.rect.y0) as usize * tw;
                        let dst_row = (y - region.y0) as usize * w;
                        let src = &tile.alpha[src_row + (over.x0 - tile.rect.x0) as usize..]
                            [..over.width() as usize];
                        let dst =
                            &mut out[dst_row + (over.x0 - region.x0) as usize..][..over.width() as usize];
                        for (d, &s) in dst.iter_mut().zip(src) {
                            if s != 0 {
                                let (s32, d32) = (u32::from(s), u32::from(*d));
                                *d = (s32 + d32 - mul255(s32, d32)) as u8;
                                any = true;
                            }
                        }
                    }
                }
            }
        }
        any
    }

    fn item_tile(&mut self, key: usize, index: usize, item: &Item, tx: i64, ty: i64) -> &ItemTile {
        let k = (key, index, tx, ty);
        if !self.tiles.contains_key(&k) {
            if self.bytes > TILE_CACHE_BYTES {
                self.tiles.clear();
                self.bytes = 0;
            }
            let tile = self.render(item, tx, ty);
            self.bytes += tile.alpha.len();
            self.tiles.insert(k, tile);
        }
        &self.tiles[&k]
    }

    fn render(&mut self, item: &Item, tx: i64, ty: i64) -> ItemTile {
        let e = item.extent;
        let rect = PixelRect {
            x0: e.x0 + tx * ITEM_TILE,
            y0: e.y0 + ty * ITEM_TILE,
            x1: (e.x0 + (tx + 1) * ITEM_TILE).min(e.x1),
            y1: (e.y0 + (ty + 1) * ITEM_TILE).min(e.y1),
        };
        let (w, h) = (rect.width() as u32, rect.height() as u32);
        let mut alpha = vec![0u8; w as usize * h as usize];
        let whole = e.width() as i64 <= ITEM_TILE && e.height() as i64 <= ITEM_TILE;
        let origin = DVec2::new(rect.x0 as f64, rect.y0 as f64);
        let clip = rect.to_rect().and_then(|r| r.outset(CLIP_MARGIN));
        match &item.shape {
            Shape::Fill { polys, rule } => {
                let polys = if whole {
                    polys
                } else {
                    self.clipped.clear();
                    if let Some(c) = clip {
                        polygon::clip_to_rect(polys, &c, &mut self.clipped);
                    }
                    &self.clipped
                };
                if let (Some(path), Some(mut mask)) = (snapped_path(polys, origin), Mask::new(w, h)) {
                    let rule = match rule {
                        FillRule::NonZero => SkFillRule::Winding,
                        FillRule::EvenOdd => SkFillRule::EvenOdd,
                    };
                    mask.fill_path(&path, rule, self.anti_alias, Transform::identity());
                    alpha.copy_from_slice(mask.data());
                    if item.alpha != 255 {
                        let a = u32::from(item.alpha);
                        alpha.iter_mut().for_each(|v| *v = mul255(u32::from(*v), a) as u8);
                    }
                }
            }
            Shape::Bitmap {
                alpha: texels,
                texel_to_parent,
                quality,
            } => {
                let (tw, th) = (f64::from(texels.width()), f64::from(texels.height()));
                let corners = [
                    DVec2::ZERO,
                    DVec2::new(tw, 0.0),
                    DVec2::new(tw, th),
                    DVec2::new(0.0, th),
                ];
                self.quad.clear();
                self.quad
                    .push_contour(corners.iter().map(|c| texel_to_parent.transform_point2(*c)), true);
                let quad = if whole {
                    &self.quad
                } else {
                    self.clipped.clear();
                    if let Some(c) = clip {
                        polygon::clip_to_rect(&self.quad, &c, &mut self.clipped);
                    }
                    &self.clipped
                };
                let rel = DAffine2 {
                    matrix2: texel_to_parent.matrix2,
                    translation: snap(texel_to_parent.translation - origin),
                };
                let [a, b, c, d, x, y] = rel.to_cols_array().map(|v| v as f32);
                let paint = Paint {
                    shader: Pattern::new(
                        texels.as_ref().as_ref(),
                        SpreadMode::Pad,
                        *quality,
                        1.0,
                        Transform::from_row(a, b, c, d, x, y),
                    ),
                    anti_alias: self.anti_alias,
                    blend_mode: BlendMode::Source,
                    ..Paint::default()
                };
                if let (Some(path), Some(mut pm), false) = (
                    snapped_path(quad, origin),
                    Pixmap::new(w, h),
                    matches!(paint.shader, Shader::SolidColor(_)),
                ) {
                    pm.fill(Color::TRANSPARENT);
                    pm.fill_path(&path, &paint, SkFillRule::Winding, Transform::identity(), None);
                    for (dst, px) in alpha.iter_mut().zip(pm.data().chunks_exact(4)) {
                        *dst = px[3];
                    }
                }
            }
        }
        ItemTile { rect, alpha }
    }
}

/// `v` snapped to the 1/QUANTUM grid.
fn snap(v: DVec2) -> DVec2 {
    (v * QUANTUM).round() / QUANTUM
}

/// The contours as a tiny-skia path, measured from `origin` and snapped, or `None` when
/// nothing is left.
fn snapped_path(polys: &Polylines, origin: DVec2) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    for i in 0..polys.contours.len() {
        let mut pts = polys.contour(i).iter().map(|p| snap(*p - origin));
        let Some(first) = pts.next() else { continue };
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
    fn chunks_cover_negative_windows() {
        let w = PixelRect {
            x0: -130,
            y0: 5,
            x1: 1,
            y1: 6,
        };
        let t: Vec<_> = chunks(w, 128).collect();
        assert_eq!(t.len(), 3);
        assert_eq!((t[0].x0, t[0].x1), (-130, -128));
        assert_eq!((t[2].x0, t[2].x1), (0, 1));
    }

    #[test]
    fn mul255_rounds_exactly() {
        for a in 0..=255u32 {
            for b in 0..=255u32 {
                let want = ((a * b) as f64 / 255.0).round() as u32;
                assert_eq!(mul255(a, b), want, "{a} * {b}");
            }
        }
    }

    #[test]
    fn snapped_coordinates_survive_f32() {
        let v = snap(DVec2::new(1023.123456789, -2.000_4));
        assert_eq!(f64::from(v.x as f32), v.x);
        assert_eq!(f64::from(v.y as f32), v.y);
    }
}
