//! The yardstick: the original ActionScript `getCollisionRect` done literally with tiny-skia.
//!
//! Bounds in the common parent's space, intersected; an opaque RGBA window of
//! `ceil(width) x ceil(height)`; target A drawn red through a colour transform whose alpha
//! offset is the tolerance; target B drawn white with the Difference blend; then a scan for
//! the cyan that marks the overlap. It lives in benches/ only: it is what pixelhit is
//! measured against, not part of the library.

use pixelhit::{ColorTransform, DAffine2, Graphic, NodeId, PathSegment, Stage};
use tiny_skia::{
    BlendMode, Color, FillRule, FilterQuality, Paint, PathBuilder, Pixmap, PixmapPaint, Transform,
};

fn skia_transform(m: &DAffine2) -> Transform {
    let [a, b, c, d, tx, ty] = m.to_cols_array().map(|v| v as f32);
    Transform::from_row(a, b, c, d, tx, ty)
}

fn skia_path(path: &pixelhit::Path) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    path.for_each_segment(|s| match s {
        PathSegment::MoveTo(p) => pb.move_to(p.x as f32, p.y as f32),
        PathSegment::LineTo(p) => pb.line_to(p.x as f32, p.y as f32),
        PathSegment::QuadTo(c, p) => pb.quad_to(c.x as f32, c.y as f32, p.x as f32, p.y as f32),
        PathSegment::CubicTo(c1, c2, p) => pb.cubic_to(
            c1.x as f32,
            c1.y as f32,
            c2.x as f32,
            c2.y as f32,
            p.x as f32,
            p.y as f32,
        ),
        PathSegment::Close => pb.close(),
    });
    pb.finish()
}

/// Draws `node`'s subtree like `BitmapData.draw` with a matrix and a colour transform.
fn draw(stage: &Stage, node: NodeId, m: DAffine2, ct: &ColorTransform, blend: BlendMode, pm: &mut Pixmap) {
    let own = stage.color_transform(node).unwrap();
    let ct = ct.concat(&own);
    if let Some((bitmap, smoothing)) = stage.bitmap(node).unwrap() {
        // Flash applies the colour transform to every texel of the source.
        let mut tinted = Pixmap::new(bitmap.width(), bitmap.height()).unwrap();
        for (dst, src) in tinted
            .data_mut()
            .chunks_exact_mut(4)
            .zip(bitmap.rgba().chunks_exact(4))
        {
            let [r, g, b, a] = ct.apply_rgba([src[0], src[1], src[2], src[3]]);
            let c = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
            dst.copy_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
        }
        let paint = PixmapPaint {
            blend_mode: blend,
            quality: if smoothing {
                FilterQuality::Bilinear
            } else {
                FilterQuality::Nearest
            },
            ..PixmapPaint::default()
        };
        pm.draw_pixmap(0, 0, tinted.as_ref(), &paint, skia_transform(&m), None);
        return;
    }
    for g in stage.graphics(node).unwrap() {
        let Some(path) = skia_path(g.path()) else { continue };
        let [r, gg, b, a] = ct.apply_rgba([0, 0, 0, (g.alpha() * 255.0).round() as u8]);
        let mut paint = Paint {
            blend_mode: blend,
            ..Paint::default()
        };
        paint.set_color(Color::from_rgba8(r, gg, b, a));
        match g {
            Graphic::Fill(f) => {
                let rule = match f.rule() {
                    pixelhit::FillRule::NonZero => FillRule::Winding,
                    pixelhit::FillRule::EvenOdd => FillRule::EvenOdd,
                };
                pm.fill_path(&path, &paint, rule, skia_transform(&m), None);
            }
            Graphic::Stroke(s) => {
                let stroke = tiny_skia::Stroke {
                    width: s.width() as f32,
                    line_cap: tiny_skia::LineCap::Round,
                    line_join: tiny_skia::LineJoin::Round,
                    ..tiny_skia::Stroke::default()
                };
                pm.stroke_path(&path, &paint, &stroke, skia_transform(&m), None);
            }
        }
    }
    for &c in stage.children(node).unwrap() {
        if stage.visible(c).unwrap() {
            draw(stage, c, m * stage.matrix(c).unwrap(), &ct, blend, pm);
        }
    }
}

/// The literal pipeline. Returns the overlap's `(x, y, w, h)` in the parent's space, found by
/// colour as Flash's `getColorBoundsRect` would (without its corner quirk).
pub fn flash_pipeline(
    stage: &Stage,
    a: NodeId,
    b: NodeId,
    parent: NodeId,
    tolerance: u8,
) -> Option<[i64; 4]> {
    let ba = stage.bounds(a, parent).ok()??;
    let bb = stage.bounds(b, parent).ok()??;
    let r = ba.intersect(&bb)?;
    let (w, h) = (r.width().ceil() as u32, r.height().ceil() as u32);
    let mut pm = Pixmap::new(w, h)?;
    pm.fill(Color::BLACK);
    // The window's pixels are the parent's: it starts at whole pixels.
    let to_window = DAffine2::from_translation(-pixelhit::DVec2::new(r.left().floor(), r.top().floor()));
    let t = f64::from(tolerance);
    // Base matrices: each target relative to the parent, without the target's own colour
    // transform applied twice (draw() applies the node's own).
    let place = |n: NodeId| -> (DAffine2, ColorTransform) {
        let above = stage.parent(n).unwrap().unwrap();
        let m = if n == parent {
            DAffine2::IDENTITY
        } else {
            stage.matrix_to(n, parent).unwrap()
        };
        let ct = if above == parent || n == parent {
            ColorTransform::IDENTITY
        } else {
            stage.color_transform_to(above, parent).unwrap()
        };
        (to_window * m, ct)
    };
    let (ma, ca) = place(a);
    let red = ColorTransform::new([1.0; 4], [255.0, -255.0, -255.0, t]).concat(&ca);
    draw(stage, a, ma, &red, BlendMode::SourceOver, &mut pm);
    // BitmapData.draw renders the whole of B, then blends it: B goes into a layer of its own
    // first, so that B's overlapping parts do not cancel each other.
    let (mb, cb) = place(b);
    let white = ColorTransform::new([1.0; 4], [255.0, 255.0, 255.0, t]).concat(&cb);
    let mut layer = Pixmap::new(w, h)?;
    draw(stage, b, mb, &white, BlendMode::SourceOver, &mut layer);
    let paint = PixmapPaint {
        blend_mode: BlendMode::Difference,
        ..PixmapPaint::default()
    };
    pm.draw_pixmap(0, 0, layer.as_ref(), &paint, Transform::identity(), None);
    let (mut x0, mut y0, mut x1, mut y1) = (i64::MAX, i64::MAX, i64::MIN, i64::MIN);
    for (i, px) in pm.pixels().iter().enumerate() {
        if px.red() == 0 && px.green() == 255 && px.blue() == 255 && px.alpha() == 255 {
            let (x, y) = ((i as u32 % w) as i64, (i as u32 / w) as i64);
            x0 = x0.min(x);
            y0 = y0.min(y);
            x1 = x1.max(x + 1);
            y1 = y1.max(y + 1);
        }
    }
    (x0 < x1).then(|| {
        let (ox, oy) = (r.left().floor() as i64, r.top().floor() as i64);
        [ox + x0, oy + y0, x1 - x0, y1 - y0]
    })
}
