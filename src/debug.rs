//! Debug pictures: the scene as it appears in the root's space, with the pixels and
//! rectangles of collision queries drawn over it.
//!
//! This is for looking at answers, not for computing them: the scene is drawn with a colour per
//! top-level object so objects can be told apart (the tree keeps coverage and alpha, not
//! colours, because that is all a collision depends on), and every query is redone with
//! [`Stage::collision`] (its answer) and the crate's own pixel scan (its overlap pixels), so
//! what the picture shows is exactly what the library answers, pixel for pixel.
//!
//! Small scenes are magnified with nearest sampling because the questions people bring are
//! about single pixels ("why does this corner count?"); the legend goes in a band below the
//! scene so that it never hides the pixels it explains; and the text uses a built-in 3 x 5
//! pixel font so that drawing a picture needs no font files.

use glam::{DAffine2, DVec2};
use image::RgbaImage;
use tiny_skia::{
    Color, ColorU8, FillRule as SkFillRule, FilterQuality, Mask, Paint, Pattern, Pixmap, PixmapPaint, Shader,
    SpreadMode, Stroke, Transform,
};

use crate::polygon::{self, Polylines};
use crate::raster::RegionPiece;
use crate::shape::Leaf;
use crate::skia_clip::SkiaClips;
use crate::walk::{Visit, Walk};
use crate::{
    Bitmap, Collision, CollisionOptions, ColorTransform, Error, FillRule, Graphic, NodeId, Rect, Result,
    Stage,
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

/// How [`debug_image_with`] frames and labels its picture. The default is what
/// [`debug_image`] draws.
///
/// ```
/// use pixelhit::{DebugOptions, Rect};
/// // Always the same 320 x 240 part of the root's space, twice as large, with a note: the
/// // frames of a game line up, and mouse positions map back with `origin + pixel / 2`.
/// let opts = DebugOptions::default()
///     .area(Rect::from_xywh(0.0, 0.0, 320.0, 240.0).unwrap())
///     .zoom(2)
///     .note("frame 17");
/// assert_eq!(opts.zoom, Some(2));
/// ```
#[derive(Clone, Debug, PartialEq)]
#[non_exhaustive]
pub struct DebugOptions {
    /// The part of the root's space to draw, rounded out to whole pixels, without padding.
    /// `None` (the default) fits the scene, the targets' bounds and the answers, padded by 8
    /// pixels.
    pub area: Option<Rect>,
    /// Picture pixels per root pixel. `None` (the default) magnifies a small picture by the
    /// smallest whole factor that makes its longer side at least 512 pixels.
    pub zoom: Option<u32>,
    /// Draw the legend band below the scene (the default), when there is a query or a note.
    pub legend: bool,
    /// Lines added at the end of the legend, e.g. timings or a frame number.
    pub notes: Vec<String>,
    /// The most queries drawn (default [`DEBUG_MAX_QUERIES`]): the first ones are redone and
    /// drawn, and the legend says how many more were left out. Each drawn query costs its
    /// own collision and 16 pixels of legend height, so this bounds the picture's height
    /// and the time to draw it, however many queries are given.
    pub max_queries: usize,
    /// A node to outline (its visible bounds, in a colour of its own), e.g. the one
    /// [`Stage::pick`] gave.
    pub highlight: Option<NodeId>,
}

/// How many queries [`debug_image`] draws at most (see [`DebugOptions::max_queries`]): a
/// legend of 100 lines is 1,626 pixels high.
pub const DEBUG_MAX_QUERIES: usize = 100;

impl Default for DebugOptions {
    fn default() -> Self {
        DebugOptions {
            area: None,
            zoom: None,
            legend: true,
            notes: Vec::new(),
            max_queries: DEBUG_MAX_QUERIES,
            highlight: None,
        }
    }
}

impl DebugOptions {
    /// Sets `area`.
    pub fn area(mut self, area: Rect) -> Self {
        self.area = Some(area);
        self
    }
    /// Sets `zoom`.
    pub fn zoom(mut self, zoom: u32) -> Self {
        self.zoom = Some(zoom);
        self
    }
    /// Sets `legend`.
    pub fn legend(mut self, legend: bool) -> Self {
        self.legend = legend;
        self
    }
    /// Adds a line to `notes`.
    pub fn note(mut self, line: impl Into<String>) -> Self {
        self.notes.push(line.into());
        self
    }
    /// Sets `max_queries`.
    pub fn max_queries(mut self, max: usize) -> Self {
        self.max_queries = max;
        self
    }
    /// Sets `highlight`.
    pub fn highlight(mut self, node: Option<NodeId>) -> Self {
        self.highlight = node;
        self
    }
}

/// Blank space around the scene, in root pixels.
const PAD: f64 = 8.0;
/// The most root pixels drawn along either side; larger scenes are scaled down.
const MAX_SOURCE: f64 = 4096.0;
/// Small scenes are magnified by a whole factor until the longer side reaches this.
const MIN_SIDE: f64 = 512.0;
/// The longest side of a picture with a given zoom, so that a large zoom cannot allocate
/// gigabytes.
const MAX_PICTURE: f64 = 16384.0;

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
/// The highlighted node's box.
const HIGHLIGHT: [u8; 3] = [255, 160, 0];
/// Masks are outlined in this colour (they are never drawn themselves).
const MASK_COLOR: [u8; 3] = [120, 0, 200];
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
/// - Each answer's number (queries count from 1) on a small label above its rectangle.
/// - A legend in a white band below the scene (when there are queries): a key to the four
///   colours, then one line per query with its targets, parent and answer, e.g.
///   `1  SHIP / ROCK IN STAGE: [138, 141, 10, 7], 31 PX`, `NO PIXEL IN BOTH` when only the
///   boxes overlap, `BOUNDS APART` when not even they do. Nodes are named by their name or
///   `#index`. The picture is widened if the legend needs it.
/// - At most [`DEBUG_MAX_QUERIES`] queries, the first ones; when there are more, the others
///   are neither run nor drawn, and the legend's last query line says how many were left
///   out (e.g. `+ 4900 MORE QUERIES NOT DRAWN`).
///
/// The scene part covers the union of the root's [`Stage::tight_bounds`], the targets'
/// bounds and the answers (all in the root's space), padded by 8 pixels and rounded out to
/// whole pixels. A scene more than 4096 pixels wide or high is scaled down uniformly to 4096;
/// a small one is magnified by the smallest whole factor that makes its longer side at least
/// 512 pixels, with nearest sampling, so that single pixels show as squares.
///
/// ```
/// use pixelhit::{DebugQuery, FillRule, Graphic, Path, Stage, debug_image};
///
/// let mut stage = Stage::new();
/// let root = stage.root();
/// let wall = stage.add_container(root)?;
/// stage.set_name(wall, "wall")?;
/// stage.add_graphic(wall, Graphic::fill(Path::rect(0.0, 0.0, 4.0, 40.0), FillRule::NonZero, 1.0)?)?;
/// let ball = stage.add_container(root)?;
/// stage.set_name(ball, "ball")?;
/// stage.add_graphic(ball, Graphic::fill(Path::circle(6.0, 20.0, 5.0), FillRule::NonZero, 1.0)?)?;
///
/// let picture = debug_image(&stage, &[DebugQuery::new(wall, ball, root)])?;
/// // [0, 11] x [0, 40] padded by 8 is 27 x 56 root pixels, magnified 10 times to fill the
/// // top 560 rows; the legend goes below.
/// assert!(picture.width() >= 270 && picture.height() > 560);
/// // A magenta square at root pixel (2, 20): solid in both the wall and the ball.
/// assert_eq!(picture.get_pixel((8 + 2) * 10 + 5, (8 + 20) * 10 + 5).0, [255, 0, 255, 255]);
/// # Ok::<(), pixelhit::Error>(())
/// ```
///
/// # Errors
///
/// The errors of [`Stage::collision`] for each query drawn (such as [`Error::NotDescendant`]
/// or [`Error::PixelBudget`]), and those of [`Stage::tight_bounds`] and [`Stage::matrix_to`].
pub fn debug_image(stage: &Stage, queries: &[DebugQuery]) -> Result<RgbaImage> {
    debug_image_with(stage, queries, &DebugOptions::default())
}

/// [`debug_image`] with a chosen frame, zoom, legend and notes (see [`DebugOptions`]): for
/// the frames of a game, which must line up, or for a window that maps mouse positions
/// back to the root's space. With an `area`, root point `(x, y)` is at picture pixel
/// `((x - floor(area.left)) * zoom, (y - floor(area.top)) * zoom)` (for areas up to 4096
/// pixels; larger ones are scaled down as in [`debug_image`]). Only the first
/// `max_queries` queries are drawn.
///
/// # Errors
///
/// As [`debug_image`], and [`Error::OutOfRange`] when `zoom` is 0 or makes a side longer
/// than 16384 pixels.
pub fn debug_image_with(stage: &Stage, queries: &[DebugQuery], options: &DebugOptions) -> Result<RgbaImage> {
    let root = stage.root();
    let left_out = queries.len().saturating_sub(options.max_queries);
    let queries = &queries[..queries.len() - left_out];
    let mut area = stage.tight_bounds(root, root)?;
    let mut overlays = Vec::with_capacity(queries.len());
    let mut answers = Vec::with_capacity(queries.len());
    for q in queries {
        let collision = stage.collision(q.a, q.b, q.parent, &q.options)?;
        let answer = collision.rect;
        answers.push(collision);
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
    let frame = match options.area {
        Some(a) => Frame::new(Some(a), 0.0, options.zoom)?,
        None => Frame::new(area, PAD, options.zoom)?,
    };

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
    if let Some(h) = options.highlight
        && let Some(r) = stage.visible_bounds(h, stage.root())?
    {
        let to_pic = frame.root_to_picture();
        outline(
            &mut pic,
            r.corners().map(|c| to_pic.transform_point2(c)),
            HIGHLIGHT,
            3.0,
        );
    }
    // Numbers last, so that no outline crosses them.
    for (i, (to_root, rects)) in overlays.iter().enumerate() {
        if let (Some(r), _, _) = rects[2] {
            let to_pic = frame.root_to_picture() * *to_root;
            tag(&mut pic, r.corners().map(|c| to_pic.transform_point2(c)), i + 1);
        }
    }

    if !options.legend {
        let (w, h) = (pic.width(), pic.height());
        return RgbaImage::from_raw(w, h, pic.take_demultiplied()).ok_or_else(|| picture_error(f64::from(w)));
    }
    let mut lines: Vec<String> = queries
        .iter()
        .zip(&answers)
        .enumerate()
        .zip(&overlays)
        .map(|((i, (q, c)), (_, rects))| {
            let meet = matches!((rects[0].0, rects[1].0), (Some(a), Some(b)) if a.intersect(&b).is_some());
            legend_line(stage, i + 1, q, c, meet)
        })
        .collect();
    if left_out > 0 {
        lines.push(format!("+ {left_out} more queries not drawn"));
    }
    let pic = add_legend(pic, &lines, &options.notes)?;
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
    /// The frame around `area` grown by `pad` (an empty stage is a point at the origin),
    /// magnified by `zoom` or by the automatic factor.
    fn new(area: Option<Rect>, pad: f64, zoom: Option<u32>) -> Result<Frame> {
        let [l, t, r, b] = area.map_or([0.0; 4], |a| [a.left(), a.top(), a.right(), a.bottom()]);
        let (left, top) = ((l - pad).floor(), (t - pad).floor());
        let (w, h) = ((r + pad).ceil() - left, (b + pad).ceil() - top);
        // An area thinner than a pixel still gets one.
        let (w, h) = (w.max(1.0), h.max(1.0));
        let longer = w.max(h);
        let scale = if longer > MAX_SOURCE {
            MAX_SOURCE / longer
        } else {
            1.0
        };
        let auto = (MIN_SIDE / longer).ceil().clamp(1.0, MIN_SIDE);
        let zoom = match zoom {
            None => auto,
            Some(z) => {
                let z = f64::from(z);
                if z < 1.0 || (longer * scale).ceil() * z > MAX_PICTURE {
                    return Err(Error::OutOfRange {
                        what: "debug picture zoom".into(),
                        value: z,
                        range: "1.. with sides up to 16384 pixels",
                    });
                }
                z
            }
        };
        // Casts saturate (NaN to 0), and the sizes are at most MAX_SOURCE anyway.
        let side = |v: f64| ((v * scale).ceil().min(MAX_SOURCE) as u32).max(1);
        let frame = Frame {
            origin: DVec2::new(left, top),
            scale,
            zoom: zoom as u32,
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
            None,
        );
    }
    for (i, &child) in stage.children(root)?.iter().enumerate() {
        if !stage.visible(child)? {
            continue;
        }
        // The colour goes by position among all children, so hiding one keeps the others'.
        let color = PALETTE[i % PALETTE.len()];
        let ct = stage.color_transform(child)?;
        // Masked and scrolled content is drawn clipped; the masks are outlined after.
        let (w, h) = (layer.width(), layer.height());
        let mut skia = SkiaClips::new(w, h, root, base, true);
        stage.walk_leaves(child, root, base, ct, Walk::Draw, |_, visit, m, ct, clips| {
            if let Visit::Leaf(leaf) = visit {
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
fn outline_masks(stage: &Stage, base: &DAffine2, layer: &mut Pixmap) -> Result<()> {
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
            match piece {
                RegionPiece::Fill(Graphic::Fill(f)) => {
                    let budget = polygon::MAX_OUTLINE_VERTICES as usize;
                    let _ = f.path().flatten_within(m, 0.25, &mut polys, budget);
                }
                RegionPiece::Fill(Graphic::Stroke(_)) => return Ok(()),
                RegionPiece::Rect(r) => polys.push_contour(r.corners().map(|c| m.transform_point2(c)), true),
            }
            stroke_polys(layer, &polys, MASK_COLOR, 1.0);
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
    mask: Option<&Mask>,
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
                // Geometry over the budget is left out of the picture (the queries report it).
                Graphic::Fill(f) => {
                    let _ =
                        f.path()
                            .flatten_within(m, TOL, &mut polys, polygon::MAX_OUTLINE_VERTICES as usize);
                    f.rule()
                }
                Graphic::Stroke(s) => {
                    let _ = polygon::stroke_outline(s.path(), s.width(), m, TOL, &mut polys);
                    FillRule::NonZero
                }
            };
            // Only the alpha goes through the colour transform: the colour names the object.
            let alpha = ct.apply_alpha(g.alpha() * 255.0) / 255.0;
            fill(layer, clip, &polys, rule, &solid(rgb, alpha as f32), mask);
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
                fill(layer, clip, &polys, FillRule::NonZero, &paint, mask);
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
fn fill(
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
fn outline(pic: &mut Pixmap, corners: [DVec2; 4], rgb: [u8; 3], width: f32) {
    let mut polys = Polylines::default();
    polys.push_contour(corners, true);
    stroke_polys(pic, &polys, rgb, width);
}

/// Strokes closed contours given in picture coordinates.
fn stroke_polys(pic: &mut Pixmap, polys: &Polylines, rgb: [u8; 3], width: f32) {
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
fn skia_path(polys: &Polylines) -> Option<tiny_skia::Path> {
    polys.to_skia_path(|p| p)
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

/// Glyphs of a 3 x 5 pixel font, rows top to bottom, 3 bits each: digits, capitals and the
/// punctuation the legend uses. Lower case is drawn as capitals, anything else as `?`.
const FONT: [(char, u16); 56] = [
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
    ('D', 0b110_101_101_101_110),
    ('E', 0b111_100_110_100_111),
    ('F', 0b111_100_110_100_100),
    ('G', 0b011_100_101_101_011),
    ('H', 0b101_101_111_101_101),
    ('I', 0b111_010_010_010_111),
    ('J', 0b001_001_001_101_010),
    ('K', 0b101_101_110_101_101),
    ('L', 0b100_100_100_100_111),
    ('M', 0b101_111_111_101_101),
    ('N', 0b110_101_101_101_101),
    ('O', 0b010_101_101_101_010),
    ('P', 0b110_101_110_100_100),
    ('Q', 0b010_101_101_110_011),
    ('R', 0b110_101_110_101_101),
    ('S', 0b011_100_010_001_110),
    ('T', 0b111_010_010_010_010),
    ('U', 0b101_101_101_101_111),
    ('V', 0b101_101_101_101_010),
    ('W', 0b101_101_111_111_101),
    ('X', 0b101_101_010_101_101),
    ('Y', 0b101_101_010_010_010),
    ('Z', 0b111_001_010_100_111),
    (' ', 0),
    ('.', 0b000_000_000_000_010),
    (',', 0b000_000_000_010_100),
    (':', 0b000_010_000_010_000),
    ('(', 0b001_010_010_010_001),
    (')', 0b100_010_010_010_100),
    ('[', 0b011_010_010_010_011),
    (']', 0b110_010_010_010_110),
    ('-', 0b000_000_111_000_000),
    ('+', 0b000_010_111_010_000),
    ('/', 0b001_001_010_100_100),
    ('#', 0b101_111_101_111_101),
    ('_', 0b000_000_000_000_111),
    ('=', 0b000_111_000_111_000),
    ('"', 0b101_101_000_000_000),
    ('\'', 0b010_010_000_000_000),
    ('!', 0b010_010_010_000_010),
    ('<', 0b001_010_100_010_001),
    ('>', 0b100_010_001_010_100),
    ('?', 0b110_001_010_000_010),
];
/// Picture pixels per font pixel.
const DOT: f32 = 2.0;
/// Width of one character cell (3 dots and a space).
const ADVANCE: f32 = 4.0 * DOT;
/// Height of one legend row.
const ROW: f32 = 16.0;
/// Side of a legend swatch.
const SWATCH: f32 = 10.0;
const INK: [u8; 3] = [30, 30, 30];

fn glyph(ch: char) -> u16 {
    let ch = ch.to_ascii_uppercase();
    FONT.iter()
        .find(|(c, _)| *c == ch)
        .or_else(|| FONT.iter().find(|(c, _)| *c == '?'))
        .map_or(0, |(_, b)| *b)
}

/// Writes `s` with its top-left corner at `(x, y)`; returns the x after it.
fn text(pm: &mut Pixmap, mut x: f32, y: f32, s: &str, rgb: [u8; 3]) -> f32 {
    for ch in s.chars() {
        let bits = glyph(ch);
        for k in 0..15 {
            if bits & (1 << (14 - k)) != 0 {
                let (col, row) = ((k % 3) as f32, (k / 3) as f32);
                fill_rect(pm, x + col * DOT, y + row * DOT, DOT, DOT, rgb, 1.0);
            }
        }
        x += ADVANCE;
    }
    x
}

fn text_width(s: &str) -> f32 {
    s.chars().count() as f32 * ADVANCE
}

/// The query's number on a white label just above the top-left corner of its answer, so
/// that several answers can be told apart and matched with the legend.
fn tag(pic: &mut Pixmap, corners: [DVec2; 4], number: usize) {
    let label = number.to_string();
    let left = corners.iter().map(|c| c.x).fold(f64::INFINITY, f64::min) as f32;
    let top = corners.iter().map(|c| c.y).fold(f64::INFINITY, f64::min) as f32;
    let (w, h) = (text_width(&label) + 2.0, 5.0 * DOT + 4.0);
    let x = left.clamp(0.0, (pic.width() as f32 - w).max(0.0));
    let y = (top - h - 1.0).clamp(0.0, (pic.height() as f32 - h).max(0.0));
    fill_rect(pic, x, y, w, h, [255, 255, 255], 0.9);
    text(pic, x + 2.0, y + 2.0, &label, ANSWER);
}

/// How the legend names a node: its name, or `#index`, cut to 24 characters.
fn node_label(stage: &Stage, id: NodeId) -> String {
    match stage.name(id) {
        Ok(Some(n)) if n.chars().count() > 24 => format!("{}..", n.chars().take(22).collect::<String>()),
        Ok(Some(n)) => n.to_string(),
        _ => format!("#{}", id.index()),
    }
}

/// A number for the legend: whole numbers bare, others to two decimals.
fn legend_num(v: f64) -> String {
    if v == v.trunc() && v.abs() < 1e15 {
        format!("{}", v as i64)
    } else {
        format!("{v:.2}")
    }
}

/// One legend line: the query's number, its targets and parent, and its answer (`meet`:
/// whether the targets' bounds overlap).
fn legend_line(stage: &Stage, number: usize, q: &DebugQuery, c: &Collision, meet: bool) -> String {
    let who = format!(
        "{number}  {} / {} in {}",
        node_label(stage, q.a),
        node_label(stage, q.b),
        node_label(stage, q.parent)
    );
    let what = match (c.rect, c.overlap_pixels) {
        _ if !meet => "bounds apart".to_string(),
        (Some(r), n) => {
            let [x, y, w, h] = r.to_xywh().map(legend_num);
            match n {
                Some(n) => format!("[{x}, {y}, {w}, {h}], {n} px"),
                None => format!("[{x}, {y}, {w}, {h}] (bounds only)"),
            }
        }
        (None, _) => "no pixel in both".to_string(),
    };
    format!("{who}: {what}")
}

/// The picture with a white band below it: a key to the colours, then one line per query.
/// The band never covers the scene, and the picture widens when the band needs it.
fn add_legend(pic: Pixmap, queries: &[String], notes: &[String]) -> Result<Pixmap> {
    if queries.is_empty() && notes.is_empty() {
        return Ok(pic);
    }
    let lines: Vec<&String> = queries.iter().chain(notes).collect();
    let key = [
        (OVERLAP, true, "pixels in both"),
        (ANSWER, false, "answer"),
        (BOUNDS_A, false, "bounds of a"),
        (BOUNDS_B, false, "bounds of b"),
    ];
    let key_width: f32 = key
        .iter()
        .map(|(.., l)| SWATCH + 4.0 + text_width(l) + 12.0)
        .sum();
    let widest = lines.iter().map(|l| text_width(l)).fold(key_width, f32::max);
    let band = legend_height(lines.len());
    let width = pic.width().max((widest + 16.0).ceil() as u32);
    let mut out = Pixmap::new(width, pic.height() + band).ok_or_else(|| picture_error(f64::from(width)))?;
    out.fill(Color::WHITE);
    out.draw_pixmap(
        0,
        0,
        pic.as_ref(),
        &PixmapPaint::default(),
        Transform::identity(),
        None,
    );
    let top = pic.height() as f32;
    fill_rect(&mut out, 0.0, top, width as f32, 1.0, [160, 160, 160], 1.0);
    let mut x = 8.0;
    let y = top + 8.0;
    for (rgb, filled, label) in key {
        if filled {
            fill_rect(&mut out, x, y, SWATCH, SWATCH, rgb, 1.0);
        } else {
            let c = [(x, y), (x + SWATCH, y), (x + SWATCH, y + SWATCH), (x, y + SWATCH)];
            outline(
                &mut out,
                c.map(|(x, y)| DVec2::new(f64::from(x), f64::from(y))),
                rgb,
                2.0,
            );
        }
        x = text(&mut out, x + SWATCH + 4.0, y, label, INK) + 12.0;
    }
    for (i, line) in lines.iter().enumerate() {
        text(&mut out, 8.0, y + (i + 1) as f32 * ROW, line, INK);
    }
    Ok(out)
}

/// Height of the legend band for `queries` queries (0 for none).
fn legend_height(queries: usize) -> u32 {
    if queries == 0 {
        0
    } else {
        (8.0 + (queries + 1) as f32 * ROW + 2.0) as u32
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
        // Area [0, 15] padded by 8: 31 root pixels, magnified 17 times to 527; the legend
        // goes below.
        assert_eq!(img.dimensions(), (527, 527 + legend_height(1)));
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
        assert_eq!(img.dimensions(), (540, 540 + legend_height(1)));
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
        assert_eq!(
            debug_image(&s, &[q]).unwrap().dimensions(),
            (560, 560 + legend_height(1))
        );
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
    fn legend_lines_name_the_targets_and_give_the_answer() {
        let mut s = Stage::new();
        s.set_name(s.root(), "stage").unwrap();
        let a = square(&mut s, 0.0, 0.0, 10.0);
        s.set_name(a, "ship").unwrap();
        let b = square(&mut s, 5.0, 5.0, 10.0);
        let far = square(&mut s, 100.0, 0.0, 10.0);
        let root = s.root();
        // A circle in a square's corner: the boxes overlap, the pixels do not.
        let ball = s.add_container(root).unwrap();
        let g = Graphic::fill(Path::circle(0.0, 0.0, 10.0), FillRule::NonZero, 1.0).unwrap();
        s.add_graphic(ball, g).unwrap();
        s.set_x(ball, 18.5).unwrap();
        s.set_y(ball, 18.5).unwrap();
        let line = |q: DebugQuery| {
            let c = s.collision(q.a, q.b, q.parent, &q.options).unwrap();
            let meet = s.collision(q.a, q.b, q.parent, &CollisionOptions::default().precise(false));
            legend_line(&s, 3, &q, &c, meet.unwrap().rect.is_some())
        };
        assert_eq!(
            line(DebugQuery::new(a, b, root)),
            format!("3  ship / #{} in stage: [5, 5, 5, 5], 25 px", b.index())
        );
        assert!(line(DebugQuery::new(a, far, root)).ends_with(": bounds apart"));
        let loose = DebugQuery {
            options: CollisionOptions::default().precise(false),
            ..DebugQuery::new(a, b, root)
        };
        assert!(line(loose).ends_with(": [5, 5, 5, 5] (bounds only)"));
        assert!(line(DebugQuery::new(a, ball, root)).ends_with(": no pixel in both"));
    }

    #[test]
    fn the_legend_goes_below_the_scene_and_widens_a_narrow_picture() {
        let mut s = Stage::new();
        let a = square(&mut s, 0.0, 0.0, 10.0);
        let b = square(&mut s, 5.0, 5.0, 10.0);
        // 15 x 1005: no magnification, 31 pixels wide, too narrow for the legend.
        s.set_scale_y(b, 100.0).unwrap();
        let img = debug_image(&s, &[DebugQuery::new(a, b, s.root())]).unwrap();
        let scene_height = 1021;
        assert_eq!(img.height(), scene_height + legend_height(1));
        assert!(img.width() > 300, "{}", img.width());
        // The band is white with dark text in it, and the scene above keeps its pixels.
        let band = (scene_height + 1..img.height()).flat_map(|y| (0..img.width()).map(move |x| (x, y)));
        let ink = band.filter(|&(x, y)| img.get_pixel(x, y).0[..3] == INK).count();
        assert!(ink > 100, "{ink}");
        // Root (2, 7) is only in `a`, left of the answer and its number label.
        assert_eq!(img.get_pixel(10, 15).0[..3], PALETTE[0]);
    }

    #[test]
    fn a_fixed_area_and_zoom_put_root_points_where_promised() {
        let mut s = Stage::new();
        let a = square(&mut s, 10.0, 20.0, 4.0);
        let b = square(&mut s, 12.0, 22.0, 4.0);
        let area = Rect::from_xywh(5.5, 15.0, 20.0, 10.0).unwrap();
        let bare = DebugOptions::default().area(area).zoom(3).legend(false);
        let q = [DebugQuery::new(a, b, s.root())];
        let img = debug_image_with(&s, &q, &bare).unwrap();
        // floor(5.5) = 5, so [5, 26) x [15, 25): 21 x 10 root pixels, 3 picture pixels each.
        assert_eq!(img.dimensions(), (63, 30));
        let grid = (5, 15, 3);
        assert_eq!(at(&img, grid, 10, 20)[..3], PALETTE[0]);
        assert_eq!(at(&img, grid, 12, 22), MAGENTA);
        assert_eq!(at(&img, grid, 15, 24)[..3], PALETTE[1]);
        // The same frame with the legend and a note: the scene part is unchanged.
        let noted = bare.clone().legend(true).note("frame 1");
        let tall = debug_image_with(&s, &q, &noted).unwrap();
        assert_eq!(tall.height(), 30 + legend_height(2));
        assert_eq!(tall.get_pixel(37, 22), img.get_pixel(37, 22));
        // Notes alone still get a legend.
        let note_only = debug_image_with(&s, &[], &DebugOptions::default().note("x")).unwrap();
        assert_eq!(
            note_only.height(),
            debug_image(&s, &[]).unwrap().height() + legend_height(1)
        );
        for zoom in [0, 2000] {
            let e = debug_image_with(&s, &q, &bare.clone().zoom(zoom));
            assert!(matches!(e, Err(Error::OutOfRange { .. })), "{zoom}: {e:?}");
        }
    }

    #[test]
    fn every_character_has_a_glyph_and_unknown_ones_are_marked() {
        for ch in "abcdefghijklmnopqrstuvwxyz0123456789.,:()[]-+/#_=\"'!<>?".chars() {
            assert_ne!(glyph(ch), 0, "{ch:?}");
        }
        assert_eq!(glyph(' '), 0);
        assert_eq!(glyph('é'), glyph('?'));
    }

    #[test]
    fn errors_are_passed_on() {
        let mut s = Stage::new();
        let a = square(&mut s, 0.0, 0.0, 10.0);
        let b = s.add_container(a).unwrap();
        let q = DebugQuery::new(a, s.root(), b);
        assert!(matches!(debug_image(&s, &[q]), Err(Error::NotDescendant { .. })));
    }

    #[test]
    fn five_thousand_queries_draw_the_first_hundred_and_count_the_rest() {
        let mut s = Stage::new();
        let squares: Vec<NodeId> = (0..20)
            .map(|i| square(&mut s, f64::from(i) * 6.0, 0.0, 10.0))
            .collect();
        let root = s.root();
        let mut queries: Vec<DebugQuery> = (0..DEBUG_MAX_QUERIES)
            .map(|i| DebugQuery::new(squares[i % 20], squares[(i + 1) % 20], root))
            .collect();
        let drawn = debug_image(&s, &queries).unwrap();
        // Past the first hundred, queries that would fail: they are not run, so they cannot.
        let b = s.add_container(squares[0]).unwrap();
        queries.resize(5000, DebugQuery::new(squares[0], root, b));
        let img = debug_image(&s, &queries).unwrap();
        // One legend line more, saying how many were left out; the scene is the same.
        assert_eq!(
            img.dimensions(),
            (
                drawn.width(),
                drawn.height() + legend_height(DEBUG_MAX_QUERIES + 1) - legend_height(DEBUG_MAX_QUERIES)
            )
        );
        let scene_height = drawn.height() - legend_height(DEBUG_MAX_QUERIES);
        let scene_bytes = (img.width() * scene_height * 4) as usize;
        assert!(img.as_raw()[..scene_bytes] == drawn.as_raw()[..scene_bytes]);
        // Asking for fewer draws fewer: none at all leaves the scene and the count.
        let none = debug_image_with(&s, &queries, &DebugOptions::default().max_queries(0)).unwrap();
        assert_eq!(
            none.height(),
            drawn.height() - legend_height(DEBUG_MAX_QUERIES) + legend_height(1)
        );
        let magenta = |img: &RgbaImage| {
            img.as_raw()[..scene_bytes]
                .chunks_exact(4)
                .filter(|p| *p == MAGENTA)
                .count()
        };
        assert!(magenta(&drawn) > 0);
        assert_eq!(magenta(&none), 0, "no overlap is drawn");
    }
}
