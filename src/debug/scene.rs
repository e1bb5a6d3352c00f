//! Drawing the scene itself: each leaf in its target's colour, masks outlined, the overlap
//! pixels, and the small drawing helpers the picture uses.

use crate::Result;

use super::colors::CHECKER;
use super::colors::MASK_COLOR;
use super::colors::NEUTRAL;
use super::colors::OVERLAP;
use super::colors::SceneColors;
use super::frame::Frame;
use super::query::DebugQuery;
use crate::Bitmap;
use crate::ColorTransform;
use crate::FillRule;
use crate::Rect;
use crate::Stage;
use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::shape::Leaf;
use crate::methods::skia_clip::SkiaClips;
use crate::raster::rendered_surface;
use crate::tree::walk::Visit;
use crate::tree::walk::Walk;
use glam::DAffine2;
use glam::DVec2;
use tiny_skia::Color;
use tiny_skia::ColorU8;
use tiny_skia::FillRule as SkFillRule;
use tiny_skia::FilterQuality;
use tiny_skia::Mask;
use tiny_skia::Paint;
use tiny_skia::Pattern;
use tiny_skia::Pixmap;
use tiny_skia::Shader;
use tiny_skia::SpreadMode;
use tiny_skia::Stroke;
use tiny_skia::Transform;

use crate::geom::tolerance;

/// Draws every visible leaf under the root in the colour [`SceneColors`] gives its node.
pub(super) fn draw_scene(
    stage: &Stage,
    frame: &Frame,
    layer: &mut Pixmap,
    colors: &mut SceneColors,
) -> Result<()> {
    let root = stage.root();
    let base = frame.root_to_layer();
    let clip = frame.clip(frame.layer_size);
    let root_color = colors.of(stage, root)?.unwrap_or(NEUTRAL);
    for g in stage.graphics(root)? {
        draw_leaf(
            layer,
            clip,
            Leaf::Graphic(g),
            &base,
            &ColorTransform::IDENTITY,
            root_color,
            None,
        );
    }
    for (i, &child) in stage.children(root)?.iter().enumerate() {
        if !stage.visible(child)? {
            continue;
        }
        let outside = colors.outside_targets(i);
        let ct = stage.color_transform(child)?;
        // Masked and scrolled content is drawn clipped; the masks are outlined after.
        let (w, h) = (layer.width(), layer.height());
        let mut skia = SkiaClips::new(w, h, root, base, true);
        stage.walk_leaves(child, root, base, ct, Walk::Draw, |id, visit, m, ct, clips| {
            if let Visit::Leaf(leaf) = visit {
                let color = colors.of(stage, id)?.unwrap_or(outside);
                let mask = skia.mask(stage, clips)?;
                draw_leaf(layer, clip, leaf, m, ct, color, mask);
            }
            Ok(())
        })?;
    }
    outline_masks(stage, &base, layer)
}

/// Outlines every mask's region (dashed by nothing: a thin line in the mask colour), so
/// that what clips a picture is seen.
pub(super) fn outline_masks(stage: &Stage, base: &DAffine2, layer: &mut Pixmap) -> Result<()> {
    let root = stage.root();
    let mut masks = Vec::new();
    stage.walk(root, |id, node| {
        if node.is_mask() {
            masks.push(id);
        }
    });
    let mut polys = Polylines::default();
    for m in masks {
        stage.for_each_region_leaf(m, root, *base, |piece, m| {
            polys.clear();
            // Geometry over the budget is left out (the queries report it).
            if piece
                .outline(m, tolerance::DEBUG_MASK_OUTLINE, &mut polys)
                .is_none()
            {
                return Ok(());
            }
            stroke_polys(layer, &polys, MASK_COLOR, 1.0);
            Ok(())
        })?;
    }
    Ok(())
}

/// Draws one fill, stroke or bitmap whose space `m` maps into the layer.
pub(super) fn draw_leaf(
    layer: &mut Pixmap,
    clip: Option<Rect>,
    leaf: Leaf<'_>,
    m: &DAffine2,
    ct: &ColorTransform,
    rgb: [u8; 3],
    mask: Option<&Mask>,
) {
    if m.matrix2.determinant() == 0.0 {
        return;
    }
    let mut polys = Polylines::default();
    match leaf {
        Leaf::Graphic(g) => {
            // Geometry over the budget is left out of the picture (the queries report it).
            let budget = polygon::MAX_OUTLINE_VERTICES as usize;
            let rule = match g.outline(m, tolerance::DEBUG_SHAPE, budget, &mut polys) {
                Ok(rule) => rule,
                Err(_) => g.fill_rule(),
            };
            // Only the alpha goes through the colour transform: the colour names the object.
            let alpha = ct.apply_alpha(g.alpha() * 255.0) / 255.0;
            fill(layer, clip, &polys, rule, &solid(rgb, alpha as f32), mask);
        }
        // The renderer's surface, built whole, drawn as the bitmap it stands for.
        Leaf::Bitmap(bitmap, _, Some(rendered)) => {
            if let Some(surface) = rendered_surface(bitmap, rendered) {
                draw_leaf(layer, clip, Leaf::Bitmap(&surface, false, None), m, ct, rgb, mask);
            }
        }
        Leaf::Bitmap(bitmap, smoothing, None) => {
            let Some(texels) = colored_pixmap(bitmap, ct) else {
                return;
            };
            let (w, h) = (f64::from(bitmap.width()), f64::from(bitmap.height()));
            let quad = [
                DVec2::ZERO,
                DVec2::new(w, 0.0),
                DVec2::new(w, h),
                DVec2::new(0.0, h),
            ];
            polys.push_contour(quad.map(|c| m.transform_point2(c)), true);
            let quality = if smoothing {
                FilterQuality::Bilinear
            } else {
                FilterQuality::Nearest
            };
            let shader = Pattern::new(texels.as_ref(), SpreadMode::Pad, quality, 1.0, to_skia(m));
            if !matches!(shader, Shader::SolidColor(_)) {
                let paint = Paint {
                    shader,
                    ..Paint::default()
                };
                fill(layer, clip, &polys, FillRule::NonZero, &paint, mask);
            }
        }
    }
}

/// The bitmap's texels through the colour transform, premultiplied as tiny-skia wants them.
pub(super) fn colored_pixmap(bitmap: &Bitmap, ct: &ColorTransform) -> Option<Pixmap> {
    let mut pm = Pixmap::new(bitmap.width(), bitmap.height())?;
    for (dst, src) in pm.pixels_mut().iter_mut().zip(bitmap.rgba().chunks_exact(4)) {
        let [r, g, b, a] = ct.apply_rgba([src[0], src[1], src[2], src[3]]);
        *dst = ColorU8::from_rgba(r, g, b, a).premultiply();
    }
    Some(pm)
}

/// Paints the pixels solid in both targets, each a quad in the picture. The scan reports
/// them row by row, so runs along a row are merged into one quad.
pub(super) fn draw_overlap(stage: &Stage, q: &DebugQuery, to_pic: &DAffine2, pic: &mut Pixmap) -> Result<()> {
    let paint = solid(OVERLAP, 1.0);
    let mut cells = |(y, x0, x1): (i64, i64, i64)| {
        let (x0, x1, y0, y1) = (x0 as f64, x1 as f64, y as f64, y as f64 + 1.0);
        let quad =
            [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|(x, y)| to_pic.transform_point2(DVec2::new(x, y)));
        let mut polys = Polylines::default();
        polys.push_contour(quad, true);
        fill(pic, None, &polys, FillRule::NonZero, &paint, None);
    };
    let mut run: Option<(i64, i64, i64)> = None;
    stage.scan_overlap(q.a, q.b, q.parent, &q.options, |x, y| match &mut run {
        Some((ry, _, x1)) if *ry == y && *x1 == x => *x1 += 1,
        _ => {
            if let Some(done) = run.replace((y, x, x + 1)) {
                cells(done);
            }
        }
    })?;
    if let Some(done) = run {
        cells(done);
    }
    Ok(())
}

/// Fills polygons given in pixmap coordinates, clipped first so that tiny-skia never sees
/// coordinates far outside the pixmap.
pub(super) fn fill(
    pm: &mut Pixmap,
    clip: Option<Rect>,
    polys: &Polylines,
    rule: FillRule,
    paint: &Paint<'_>,
    mask: Option<&Mask>,
) {
    let mut clipped = Polylines::default();
    let polys = match clip {
        Some(c) => {
            polygon::clip_to_rect(polys, &c, &mut clipped);
            &clipped
        }
        None => polys,
    };
    let Some(path) = skia_path(polys) else { return };
    let rule = match rule {
        FillRule::NonZero => SkFillRule::Winding,
        FillRule::EvenOdd => SkFillRule::EvenOdd,
    };
    pm.fill_path(&path, paint, rule, Transform::identity(), mask);
}

/// Outlines a quad (a rectangle mapped into the picture).
pub(super) fn outline(pic: &mut Pixmap, corners: [DVec2; 4], rgb: [u8; 3], width: f32) {
    let mut polys = Polylines::default();
    polys.push_contour(corners, true);
    stroke_polys(pic, &polys, rgb, width);
}

/// Strokes closed contours given in picture coordinates.
pub(super) fn stroke_polys(pic: &mut Pixmap, polys: &Polylines, rgb: [u8; 3], width: f32) {
    let mut cut = Polylines::default();
    let (w, h) = (f64::from(pic.width()), f64::from(pic.height()));
    if let Some(b) = Rect::from_ltrb(-4.0, -4.0, w + 4.0, h + 4.0) {
        polygon::clip_to_rect(polys, &b, &mut cut);
    }
    if let Some(path) = skia_path(&cut) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        pic.stroke_path(&path, &solid(rgb, 1.0), &stroke, Transform::identity(), None);
    }
}

/// Closed contours as a tiny-skia path (coordinates already near the pixmap).
pub(super) fn skia_path(polys: &Polylines) -> Option<tiny_skia::Path> {
    polys.to_skia_path(|p| p)
}

pub(super) fn to_skia(m: &DAffine2) -> Transform {
    let [a, b, c, d, tx, ty] = m.to_cols_array().map(|v| v as f32);
    Transform::from_row(a, b, c, d, tx, ty)
}

pub(super) fn solid(rgb: [u8; 3], alpha: f32) -> Paint<'static> {
    let mut paint = Paint::default();
    let alpha = (alpha.clamp(0.0, 1.0) * 255.0).round() as u8;
    paint.set_color(Color::from_rgba8(rgb[0], rgb[1], rgb[2], alpha));
    paint
}

pub(super) fn fill_rect(pm: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, rgb: [u8; 3], alpha: f32) {
    if let Some(r) = tiny_skia::Rect::from_xywh(x, y, w, h) {
        pm.fill_rect(r, &solid(rgb, alpha), Transform::identity(), None);
    }
}

pub(super) fn draw_checkerboard(pic: &mut Pixmap) {
    const CELL: usize = 16;
    let w = pic.width() as usize;
    for (i, px) in pic.pixels_mut().iter_mut().enumerate() {
        let [r, g, b] = CHECKER[((i % w) / CELL + (i / w) / CELL) % 2];
        *px = ColorU8::from_rgba(r, g, b, 255).premultiply();
    }
}
