//! Debug pictures: the scene as it appears in the root's space, with the pixels and
//! rectangles of collision queries drawn over it.
//!
//! This is for looking at answers, not for computing them: the scene is drawn with a colour per
//! top-level object so objects can be told apart, and every query is redone with
//! [`Stage::collision`] (its answer) and the crate's own pixel scan (its overlap pixels), so
//! what the picture shows is exactly what the library answers.

use glam::{DAffine2, DVec2};
use image::RgbaImage;
use tiny_skia::{
    Color, ColorU8, FillRule as SkFillRule, FilterQuality, Paint, PathBuilder, Pattern, Pixmap, PixmapPaint,
    Shader, SpreadMode, Stroke, Transform,
};

use crate::polygon::{self, Polylines};
use crate::stage::Leaf;
use crate::{
    Bitmap, CollisionOptions, ColorTransform, Error, FillRule, Graphic, NodeId, Rect, Result, Stage,
};

/// One collision query to draw: `a` against `b` in `parent`'s space, as
/// [`Stage::collision`] would answer it.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DebugQuery {
    /// The first target.
    pub a: NodeId,
    /// The second target.
    pub b: NodeId,
    /// The common parent whose pixel grid the query works on.
    pub parent: NodeId,
    /// Precision, tolerance, anti-aliasing and pixel budget of the query.
    pub options: CollisionOptions,
}

impl DebugQuery {
    /// A query with [`CollisionOptions::default`] (precise, tolerance 255, anti-aliased).
    pub fn new(a: NodeId, b: NodeId, parent: NodeId) -> DebugQuery {
        DebugQuery {
            a,
            b,
            parent,
            options: CollisionOptions::default(),
        }
    }
}

/// Blank space around the scene, in root pixels.
const PAD: f64 = 8.0;
/// The most root pixels drawn along either side; larger scenes are scaled down.
const MAX_SOURCE: f64 = 4096.0;
/// Small scenes are magnified by a whole factor until the longer side reaches this.
const MIN_SIDE: f64 = 512.0;

/// Muted colours for the top-level objects, so the strong overlay colours stand out.
const PALETTE: [[u8; 3]; 8] = [
    [78, 121, 167],
    [242, 142, 43],
    [118, 183, 178],
    [89, 161, 79],
    [237, 201, 72],
    [176, 122, 161],
    [156, 117, 95],
    [186, 176, 172],
];
/// The root's own graphics belong to no top-level object.
const ROOT_COLOR: [u8; 3] = [140, 140, 140];
const OVERLAP: [u8; 3] = [255, 0, 255];
const ANSWER: [u8; 3] = [230, 0, 0];
const BOUNDS_A: [u8; 3] = [0, 80, 255];
const BOUNDS_B: [u8; 3] = [0, 150, 40];
const CHECKER: [[u8; 3]; 2] = [[250, 250, 250], [234, 234, 234]];

/// Draws the stage's visible nodes in the root's space, and for each query its overlap
/// pixels, both targets' bounds and its answer.
///
/// - Scene: fills and strokes in a colour per top-level object (a child of the root; the
///   root's own graphics are grey), with their alpha through their colour transform; bitmaps
///   in their own colours through their concatenated colour transform, nearest or bilinear
///   per their smoothing flag. A hidden node and its subtree are not drawn, the root
///   included. The background is a light checkerboard.
/// - Each query: the pixels solid in both targets in magenta, each in the query parent's
///   pixel grid mapped into the root's space; `bounds(a, parent)` outlined in blue and
///   `bounds(b, parent)` in green; the answer's rectangle outlined in red.
/// - A legend in the top-left corner: one row per query (numbered from 1) with the swatches
///   overlap, answer rectangle, bounds of A, bounds of B.
///
/// The picture covers the union of the root's [`Stage::tight_bounds`], the targets' bounds
/// and the answers (all in the root's space), padded by 8 pixels and rounded out to whole
/// pixels. A scene more than 4096 pixels wide or high is scaled down uniformly to 4096;
/// a small one is magnified by the smallest whole factor that makes its longer side at least
/// 512 pixels, with nearest sampling, so that single pixels show as squares.
///
/// # Errors
///
/// The errors of [`Stage::collision`] for each query (such as [`Error::NotDescendant`] or
/// [`Error::PixelBudget`]), and those of [`Stage::tight_bounds`] and [`Stage::matrix_to`].
pub fn debug_image(stage: &Stage, queries: &[DebugQuery]) -> Result<RgbaImage> {
    let root = stage.root();
    let mut area = stage.tight_bounds(root, root)?;
    let mut overlays = Vec::with_capacity(queries.len());
    for q in queries {
        let answer = stage.collision(q.a, q.b, q.parent, &q.options)?.rect;
        let to_root = stage.matrix_to(q.parent, root)?;
        let rects = [
            (stage.bounds(q.a, q.parent)?, BOUNDS_A, 1.5),
            (stage.bounds(q.b, q.parent)?, BOUNDS_B, 1.5),
            (answer, ANSWER, 2.0),
        ];
        for r in rects.iter().filter_map(|(r, ..)| *r) {
            let in_root = r.transform(&to_root).ok_or_else(|| Error::NonFinite {
                what: "a query rectangle mapped to the root".into(),
            })?;
            area = Some(area.map_or(in_root, |a| a.union(&in_root)));
        }
        overlays.push((to_root, rects));
    }
    let frame = Frame::new(area)?;

    let mut layer = frame.pixmap(frame.layer_size)?;
    if stage.visible(root)? {
        draw_scene(stage, &frame, &mut layer)?;
    }
    let mut pic = frame.pixmap(frame.picture_size())?;
    draw_checkerboard(&mut pic);
    // Magnify the layer with nearest sampling so each root pixel becomes a crisp square.
    let zoom = frame.zoom as f32;
    let paint = PixmapPaint {
        quality: FilterQuality::Nearest,
        ..PixmapPaint::default()
    };
    pic.draw_pixmap(
        0,
        0,
        layer.as_ref(),
        &paint,
        Transform::from_scale(zoom, zoom),
        None,
    );

    for (q, (to_root, rects)) in queries.iter().zip(&overlays) {
        let to_pic = frame.root_to_picture() * *to_root;
        draw_overlap(stage, q, &to_pic, &mut pic)?;
        for (r, color, width) in rects {
            if let Some(r) = r {
                outline(
                    &mut pic,
                    r.corners().map(|c| to_pic.transform_point2(c)),
                    *color,
                    *width,
                );
            }
        }
    }
    draw_legend(&mut pic, queries.len());

    let (w, h) = (pic.width(), pic.height());
    RgbaImage::from_raw(w, h, pic.take_demultiplied()).ok_or_else(|| picture_error(f64::from(w)))
}

/// Where the picture lies in the root's space and how it is scaled.
struct Frame {
    /// The root point at the picture's top-left corner (whole pixels).
    origin: DVec2,
    /// Layer pixels per root pixel: 1, or less for scenes larger than [`MAX_SOURCE`].
    scale: f64,
    /// Picture pixels per layer pixel.
    zoom: u32,
    /// Size of the layer the scene is drawn into before magnification.
    layer_size: (u32, u32),
}

impl Frame {
    /// The frame around `area` (an empty stage is a point at the origin).
    fn new(area: Option<Rect>) -> Result<Frame> {
        let [l, t, r, b] = area.map_or([0.0; 4], |a| [a.left(), a.top(), a.right(), a.bottom()]);
        let (left, top) = ((l - PAD).floor(), (t - PAD).floor());
        let (w, h) = ((r + PAD).ceil() - left, (b + PAD).ceil() - top);
        let longer = w.max(h);
        let scale = if longer > MAX_SOURCE {
            MAX_SOURCE / longer
        } else {
            1.0
        };
        let zoom = (MIN_SIDE / longer).ceil().max(1.0);
        // Casts saturate (NaN to 0), and the sizes are at most MAX_SOURCE anyway.
        let side = |v: f64| ((v * scale).ceil().min(MAX_SOURCE) as u32).max(1);
        let frame = Frame {
            origin: DVec2::new(left, top),
            scale,
            zoom: zoom.min(MIN_SIDE) as u32,
            layer_size: (side(w), side(h)),
        };
        if !(frame.scale > 0.0 && frame.origin.is_finite()) {
            return Err(picture_error(longer));
        }
        Ok(frame)
    }

    fn picture_size(&self) -> (u32, u32) {
        (self.layer_size.0 * self.zoom, self.layer_size.1 * self.zoom)
    }

    /// Maps the root's space into the layer; origin first, so f32 only sees small numbers.
    fn root_to_layer(&self) -> DAffine2 {
        DAffine2::from_scale(DVec2::splat(self.scale)) * DAffine2::from_translation(-self.origin)
    }

    fn root_to_picture(&self) -> DAffine2 {
        DAffine2::from_scale(DVec2::splat(f64::from(self.zoom))) * self.root_to_layer()
    }

    /// The layer or picture as a rectangle, grown a little so clipping stays off-screen.
    fn clip(&self, size: (u32, u32)) -> Option<Rect> {
        Rect::from_ltrb(-2.0, -2.0, f64::from(size.0) + 2.0, f64::from(size.1) + 2.0)
    }

    fn pixmap(&self, size: (u32, u32)) -> Result<Pixmap> {
        Pixmap::new(size.0, size.1).ok_or_else(|| picture_error(f64::from(size.0.max(size.1))))
    }
}

fn picture_error(value: f64) -> Error {
    Error::OutOfRange {
        what: "debug picture size".into(),
        value,
        range: "1..=4096 pixels per side",
    }
}

/// Draws every visible leaf under the root, coloured by the top-level object it belongs to.
fn draw_scene(stage: &Stage, frame: &Frame, layer: &mut Pixmap) -> Result<()> {
    let root = stage.root();
    let base = frame.root_to_layer();
    let clip = frame.clip(frame.layer_size);
    for g in stage.graphics(root)? {
        draw_leaf(
            layer,
            clip,
            Leaf::Graphic(g),
            &base,
            &ColorTransform::IDENTITY,
            ROOT_COLOR,
        );
    }
    for (i, &child) in stage.children(root)?.iter().enumerate() {
        if !stage.visible(child)? {
            continue;
        }
        // The colour goes by position among all children, so hiding one keeps the others'.
        let color = PALETTE[i % PALETTE.len()];
        let m = base * stage.matrix(child)?;
        let ct = stage.color_transform(child)?;
        stage.for_each_leaf(child, m, ct, true, |_, leaf, m, ct| {
            draw_leaf(layer, clip, leaf, m, ct, color);
            Ok(())
        })?;
    }
    Ok(())
}

/// Draws one fill, stroke or bitmap whose space `m` maps into the layer.
fn draw_leaf(
    layer: &mut Pixmap,
    clip: Option<Rect>,
    leaf: Leaf<'_>,
    m: &DAffine2,
    ct: &ColorTransform,
    rgb: [u8; 3],
) {
    // A flattening tolerance of a tenth of a layer pixel is invisible.
    const TOL: f64 = 0.1;
    if m.matrix2.determinant() == 0.0 {
        return;
    }
    let mut polys = Polylines::default();
    match leaf {
        Leaf::Graphic(g) => {
            let rule = match g {
                Graphic::Fill(f) => {
                    f.path().flatten(m, TOL, &mut polys);
                    f.rule()
                }
                Graphic::Stroke(s) => {
                    polygon::stroke_outline(s.path(), s.width(), m, TOL, &mut polys);
                    FillRule::NonZero
                }
            };
            // Only the alpha goes through the colour transform: the colour names the object.
            let alpha = ct.apply_alpha(g.alpha() * 255.0) / 255.0;
            fill(layer, clip, &polys, rule, &solid(rgb, alpha as f32));
        }
        Leaf::Bitmap(bitmap, smoothing) => {
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
                fill(layer, clip, &polys, FillRule::NonZero, &paint);
            }
        }
    }
}

/// The bitmap's texels through the colour transform, premultiplied as tiny-skia wants them.
fn colored_pixmap(bitmap: &Bitmap, ct: &ColorTransform) -> Option<Pixmap> {
    let mut pm = Pixmap::new(bitmap.width(), bitmap.height())?;
    for (dst, src) in pm.pixels_mut().iter_mut().zip(bitmap.rgba().chunks_exact(4)) {
        let [r, g, b, a] = ct.apply_rgba([src[0], src[1], src[2], src[3]]);
        *dst = ColorU8::from_rgba(r, g, b, a).premultiply();
    }
    Some(pm)
}

/// Paints the pixels solid in both targets, each a quad in the picture. The scan reports
/// them row by row, so runs along a row are merged into one quad.
fn draw_overlap(stage: &Stage, q: &DebugQuery, to_pic: &DAffine2, pic: &mut Pixmap) -> Result<()> {
    let paint = solid(OVERLAP, 1.0);
    let mut cells = |(y, x0, x1): (i64, i64, i64)| {
        let (x0, x1, y0, y1) = (x0 as f64, x1 as f64, y as f64, y as f64 + 1.0);
        let quad =
            [(x0, y0), (x1, y0), (x1, y1), (x0, y1)].map(|(x, y)| to_pic.transform_point2(DVec2::new(x, y)));
        let mut polys = Polylines::default();
        polys.push_contour(quad, true);
        fill(pic, None, &polys, FillRule::NonZero, &paint);
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
fn fill(pm: &mut Pixmap, clip: Option<Rect>, polys: &Polylines, rule: FillRule, paint: &Paint<'_>) {
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
    pm.fill_path(&path, paint, rule, Transform::identity(), None);
}

/// Outlines a quad (a rectangle mapped into the picture).
fn outline(pic: &mut Pixmap, corners: [DVec2; 4], rgb: [u8; 3], width: f32) {
    let mut polys = Polylines::default();
    polys.push_contour(corners, true);
    if let Some(path) = skia_path(&polys) {
        let stroke = Stroke {
            width,
            ..Stroke::default()
        };
        pic.stroke_path(&path, &solid(rgb, 1.0), &stroke, Transform::identity(), None);
    }
}

/// Closed contours as a tiny-skia path (coordinates already near the pixmap).
fn skia_path(polys: &Polylines) -> Option<tiny_skia::Path> {
    let mut pb = PathBuilder::new();
    for i in 0..polys.contours.len() {
        let mut pts = polys.contour(i).iter();
        let Some(first) = pts.next() else { continue };
        pb.move_to(first.x as f32, first.y as f32);
        for p in pts {
            pb.line_to(p.x as f32, p.y as f32);
        }
        pb.close();
    }
    pb.finish()
}

fn to_skia(m: &DAffine2) -> Transform {
    let [a, b, c, d, tx, ty] = m.to_cols_array().map(|v| v as f32);
    Transform::from_row(a, b, c, d, tx, ty)
}

fn solid(rgb: [u8; 3], alpha: f32) -> Paint<'static> {
    let mut paint = Paint::default();
    let alpha = (alpha.clamp(0.0, 1.0) * 255.0).round() as u8;
    paint.set_color(Color::from_rgba8(rgb[0], rgb[1], rgb[2], alpha));
    paint
}

fn fill_rect(pm: &mut Pixmap, x: f32, y: f32, w: f32, h: f32, rgb: [u8; 3], alpha: f32) {
    if let Some(r) = tiny_skia::Rect::from_xywh(x, y, w, h) {
        pm.fill_rect(r, &solid(rgb, alpha), Transform::identity(), None);
    }
}

fn draw_checkerboard(pic: &mut Pixmap) {
    const CELL: usize = 16;
    let w = pic.width() as usize;
    for (i, px) in pic.pixels_mut().iter_mut().enumerate() {
        let [r, g, b] = CHECKER[((i % w) / CELL + (i / w) / CELL) % 2];
        *px = ColorU8::from_rgba(r, g, b, 255).premultiply();
    }
}

/// Glyphs of a 3 x 5 pixel font, rows top to bottom, 3 bits each (the legend needs only
/// digits and the letters of OVERLAP, RECT, A and B).
const FONT: [(char, u16); 20] = [
    ('0', 0b111_101_101_101_111),
    ('1', 0b010_110_010_010_111),
    ('2', 0b111_001_111_100_111),
    ('3', 0b111_001_111_001_111),
    ('4', 0b101_101_111_001_001),
    ('5', 0b111_100_111_001_111),
    ('6', 0b111_100_111_101_111),
    ('7', 0b111_001_001_001_001),
    ('8', 0b111_101_111_101_111),
    ('9', 0b111_101_111_001_111),
    ('A', 0b010_101_111_101_101),
    ('B', 0b110_101_110_101_110),
    ('C', 0b011_100_100_100_011),
    ('E', 0b111_100_110_100_111),
    ('L', 0b100_100_100_100_111),
    ('O', 0b010_101_101_101_010),
    ('P', 0b110_101_110_100_100),
    ('R', 0b110_101_110_101_101),
    ('T', 0b111_010_010_010_010),
    ('V', 0b101_101_101_101_010),
];
/// Picture pixels per font pixel.
const DOT: f32 = 2.0;

/// Writes `text` with its top-left corner at `(x, y)`; returns the x after it.
fn text(pm: &mut Pixmap, mut x: f32, y: f32, s: &str) -> f32 {
    for ch in s.chars() {
        let bits = FONT.iter().find(|(c, _)| *c == ch).map_or(0, |(_, b)| *b);
        for k in 0..15 {
            if bits & (1 << (14 - k)) != 0 {
                let (col, row) = ((k % 3) as f32, (k / 3) as f32);
                fill_rect(pm, x + col * DOT, y + row * DOT, DOT, DOT, [30, 30, 30], 1.0);
            }
        }
        x += 4.0 * DOT;
    }
    x
}

/// One row per query: its number, then a swatch and a label for each overlay colour.
fn draw_legend(pic: &mut Pixmap, queries: usize) {
    const ROW: f32 = 16.0;
    const SWATCH: f32 = 10.0;
    if queries == 0 {
        return;
    }
    let entries = [
        (OVERLAP, true, "OVERLAP"),
        (ANSWER, false, "RECT"),
        (BOUNDS_A, false, "A"),
        (BOUNDS_B, false, "B"),
    ];
    let text_width = |s: &str| s.len() as f32 * 4.0 * DOT;
    let entries_width: f32 = entries
        .iter()
        .map(|(.., label)| SWATCH + 9.0 + text_width(label))
        .sum();
    let width = 8.0 + text_width(&queries.to_string()) + entries_width;
    fill_rect(
        pic,
        4.0,
        4.0,
        width,
        8.0 + queries as f32 * ROW,
        [255, 255, 255],
        0.85,
    );
    for q in 0..queries {
        let y = 8.0 + q as f32 * ROW;
        let mut x = text(pic, 8.0, y + 3.0, &(q + 1).to_string()) + 4.0;
        for (rgb, filled, label) in entries {
            if filled {
                fill_rect(pic, x, y + 2.0, SWATCH, SWATCH, rgb, 1.0);
            } else {
                let c = [
                    (x, y + 2.0),
                    (x + SWATCH, y + 2.0),
                    (x + SWATCH, y + 2.0 + SWATCH),
                    (x, y + 2.0 + SWATCH),
                ];
                outline(
                    pic,
                    c.map(|(x, y)| DVec2::new(f64::from(x), f64::from(y))),
                    rgb,
                    2.0,
                );
            }
            x = text(pic, x + SWATCH + 3.0, y + 3.0, label) + 6.0;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::Path;

    fn square(stage: &mut Stage, x: f64, y: f64, side: f64) -> NodeId {
        let root = stage.root();
        let id = stage.add_container(root).unwrap();
        let g = Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(id, g).unwrap();
        stage.set_x(id, x).unwrap();
        stage.set_y(id, y).unwrap();
        id
    }

    /// The picture pixel at the centre of root pixel `(i, j)`, for a picture whose area
    /// starts at root `(x0, y0)` with magnification `zoom`.
    fn at(img: &RgbaImage, (x0, y0, zoom): (i64, i64, i64), i: i64, j: i64) -> [u8; 4] {
        let px = (i - x0) * zoom + zoom / 2;
        let py = (j - y0) * zoom + zoom / 2;
        img.get_pixel(px as u32, py as u32).0
    }

    const MAGENTA: [u8; 4] = [255, 0, 255, 255];

    #[test]
    fn overlap_pixels_are_magenta_and_nothing_else_is() {
        let mut s = Stage::new();
        let a = square(&mut s, 0.0, 0.0, 10.0);
        let b = square(&mut s, 5.0, 5.0, 10.0);
        let img = debug_image(&s, &[DebugQuery::new(a, b, s.root())]).unwrap();
        // Area [0, 15] padded by 8: 31 root pixels, magnified 17 times to 527.
        assert_eq!(img.dimensions(), (527, 527));
        let grid = (-8, -8, 17);
        for (i, j) in [(5, 5), (9, 9), (5, 9), (9, 5), (7, 7)] {
            assert_eq!(at(&img, grid, i, j), MAGENTA, "({i}, {j})");
        }
        for (i, j) in [(4, 5), (10, 9), (5, 10), (9, 4), (2, 2), (12, 12), (20, 20)] {
            assert_ne!(at(&img, grid, i, j), MAGENTA, "({i}, {j})");
        }
        // Outside the overlap the squares show in their own colours.
        assert_eq!(at(&img, grid, 2, 2)[..3], PALETTE[0]);
        assert_eq!(at(&img, grid, 12, 12)[..3], PALETTE[1]);
    }

    #[test]
    fn overlap_pixels_follow_a_transformed_parent() {
        let mut s = Stage::new();
        let parent = s.add_container(s.root()).unwrap();
        s.set_matrix(parent, DAffine2::from_cols_array(&[2.0, 0.0, 0.0, 2.0, 3.0, 1.0]))
            .unwrap();
        let a = s.add_container(parent).unwrap();
        s.add_graphic(
            a,
            Graphic::fill(Path::rect(0.0, 0.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
        let b = s.add_container(parent).unwrap();
        s.add_graphic(
            b,
            Graphic::fill(Path::rect(3.0, 3.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
        let img = debug_image(&s, &[DebugQuery::new(a, b, parent)]).unwrap();
        // Root area [3, 17] padded: [-5, 25], 30 pixels, zoom 18. Parent pixel (3, 3) is
        // root [9, 11) x [7, 9).
        let grid = (-5, -7, 18);
        assert_eq!(img.dimensions(), (540, 540));
        assert_eq!(at(&img, grid, 9, 7), MAGENTA);
        assert_eq!(at(&img, grid, 10, 8), MAGENTA);
        assert_ne!(at(&img, grid, 8, 8), MAGENTA);
        assert_ne!(at(&img, grid, 11, 9), MAGENTA);
    }

    #[test]
    fn picture_size_follows_the_rules() {
        // Empty stage: the padding only, 16 pixels magnified 32 times.
        let s = Stage::new();
        assert_eq!(debug_image(&s, &[]).unwrap().dimensions(), (512, 512));
        // 600 pixels wide: no magnification.
        let mut s = Stage::new();
        square(&mut s, 0.0, 0.0, 600.0);
        assert_eq!(debug_image(&s, &[]).unwrap().dimensions(), (616, 616));
        // 10000 x 100: scaled down to 4096 on the longer side.
        let mut s = Stage::new();
        let wide = square(&mut s, 0.0, 0.0, 100.0);
        s.set_scale_x(wide, 100.0).unwrap();
        let (w, h) = debug_image(&s, &[]).unwrap().dimensions();
        assert_eq!(w, 4096);
        assert_eq!(h, (116.0 * 4096.0 / 10016.0_f64).ceil() as u32);
        // Loose bounds of a query grow the area: a circle of radius 10 inside two 45 degree
        // rotations has a tight box of 20 but bounds of 2 * 20 (semantics.md, section 3).
        let mut s = Stage::new();
        let outer = s.add_container(s.root()).unwrap();
        let inner = s.add_container(outer).unwrap();
        s.add_graphic(
            inner,
            Graphic::fill(Path::circle(0.0, 0.0, 10.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
        s.set_rotation(outer, 45.0).unwrap();
        s.set_rotation(inner, 45.0).unwrap();
        assert_eq!(debug_image(&s, &[]).unwrap().dimensions(), (540, 540));
        let q = DebugQuery {
            options: CollisionOptions::default().precise(false),
            ..DebugQuery::new(outer, inner, s.root())
        };
        assert_eq!(debug_image(&s, &[q]).unwrap().dimensions(), (560, 560));
    }

    #[test]
    fn hidden_nodes_are_not_drawn() {
        let mut s = Stage::new();
        let shown = square(&mut s, 0.0, 0.0, 10.0);
        let hidden = square(&mut s, 20.0, 0.0, 10.0);
        let inner = s.add_container(shown).unwrap();
        s.add_graphic(
            inner,
            Graphic::fill(Path::rect(0.0, 20.0, 10.0, 10.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
        s.set_visible(hidden, false).unwrap();
        s.set_visible(inner, false).unwrap();
        let img = debug_image(&s, &[]).unwrap();
        let zoom = i64::from(img.width()) / 46;
        let grid = (-8, -8, zoom);
        assert_eq!(at(&img, grid, 5, 5)[..3], PALETTE[0]);
        assert!(CHECKER.iter().any(|c| at(&img, grid, 25, 5)[..3] == *c));
        assert!(CHECKER.iter().any(|c| at(&img, grid, 5, 25)[..3] == *c));
        // A hidden root hides everything.
        s.set_visible(s.root(), false).unwrap();
        let img = debug_image(&s, &[]).unwrap();
        assert!(CHECKER.iter().any(|c| at(&img, grid, 5, 5)[..3] == *c));
    }

    #[test]
    fn bitmaps_far_away_show_their_colours_through_the_colour_transform() {
        let mut s = Stage::new();
        let red = Bitmap::from_rgba8(2, 2, [255, 0, 0, 255].repeat(4)).unwrap();
        let holder = s.add_container(s.root()).unwrap();
        let bm = s.add_bitmap(holder, red, false).unwrap();
        s.set_scale_x(bm, 4.0).unwrap();
        s.set_scale_y(bm, 4.0).unwrap();
        s.set_x(holder, 1e7).unwrap();
        s.set_y(holder, -1e7).unwrap();
        let ct = ColorTransform::new([0.0, 1.0, 1.0, 1.0], [0.0, 0.0, 255.0, 0.0]);
        s.set_color_transform(holder, ct).unwrap();
        let img = debug_image(&s, &[]).unwrap();
        // Area [1e7, 1e7 + 8] padded: 24 pixels, zoom 22.
        assert_eq!(img.dimensions(), (528, 528));
        let grid = (10_000_000 - 8, -10_000_000 - 8, 22);
        for (i, j) in [(10_000_000, -10_000_000), (10_000_007, -9_999_993)] {
            assert_eq!(at(&img, grid, i, j), [0, 0, 255, 255]);
        }
    }

    #[test]
    fn errors_are_passed_on() {
        let mut s = Stage::new();
        let a = square(&mut s, 0.0, 0.0, 10.0);
        let b = s.add_container(a).unwrap();
        let q = DebugQuery::new(a, s.root(), b);
        assert!(matches!(debug_image(&s, &[q]), Err(Error::NotDescendant { .. })));
    }
}
