//! Debug pictures: the scene as it appears in the root's space, with the pixels and
//! rectangles of collision queries drawn over it.
//!
//! This is for looking at answers, not for computing them: the scene is drawn with a colour per
//! query target (per top-level object when there is no query) so objects can be told apart
//! (the tree keeps coverage and alpha, not colours, because that is all a collision depends
//! on), and every query is redone with
//! [`Stage::collision`] (its answer) and the crate's own pixel scan (its overlap pixels), so
//! what the picture shows is exactly what the library answers, pixel for pixel.
//!
//! Small scenes are magnified with nearest sampling because the questions people bring are
//! about single pixels ("why does this corner count?"); the legend goes in a band below the
//! scene so that it never hides the pixels it explains; and the text uses a built-in 3 x 5
//! pixel font so that drawing a picture needs no font files.

use std::collections::HashMap;
use std::collections::hash_map::Entry;

use glam::{DAffine2, DVec2};
use image::RgbaImage;
use tiny_skia::{
    Color, ColorU8, FillRule as SkFillRule, FilterQuality, Mask, Paint, Pattern, Pixmap, PixmapPaint, Shader,
    SpreadMode, Stroke, Transform,
};

use crate::geom::polygon::{self, Polylines};
use crate::geom::shape::Leaf;
use crate::methods::skia_clip::SkiaClips;
use crate::raster::RegionPiece;
use crate::tree::walk::{Visit, Walk};
use crate::{
    Bitmap, Collision, CollisionOptions, ColorTransform, Error, FillRule, Graphic, NodeId, Rect, Result,
    Stage,
};

mod colors;
mod labels;
mod legend;
mod scene;
#[cfg(test)]
mod tests;
mod text;

use colors::*;
use labels::*;
use legend::*;
use scene::*;
use text::*;

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

/// Muted colours for the query targets (or, without queries, the top-level objects), so the
/// strong overlay colours stand out. No grey (that is [`NEUTRAL`]) and no red or magenta
/// (the answers and the overlap pixels).
const PALETTE: [[u8; 3]; 8] = [
    [78, 121, 167],
    [242, 142, 43],
    [118, 183, 178],
    [89, 161, 79],
    [237, 201, 72],
    [176, 122, 161],
    [156, 117, 95],
    [255, 157, 167],
];
/// What belongs to no target (with queries) or to no top-level object (the root's own
/// graphics): grey, so that the targets stand out.
const NEUTRAL: [u8; 3] = [140, 140, 140];
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
/// - Scene: fills and strokes with their alpha through their colour transform, in a colour
///   per query target: each node that is `a` or `b` of a query gets a colour of its own, in
///   the order the queries name them, for its whole subtree (the innermost target wins when
///   one is inside another), and everything inside no target is grey. Without queries, each
///   child of the root gets a colour (the root's own graphics are grey). Bitmaps show in
///   their own colours through their concatenated colour transform, nearest or bilinear per
///   their smoothing flag. A hidden node and its subtree are not drawn, the root included.
///   The background is a light checkerboard.
/// - Each query: the pixels solid in both targets in magenta, each in the query parent's
///   pixel grid mapped into the root's space; `bounds(a, parent)` outlined in blue and
///   `bounds(b, parent)` in green; the answer's rectangle outlined in red.
/// - Each answer's number (queries count from 1) on a small label touching its rectangle
///   on screen (above it where there is room, else below or beside it), never over another
///   label: a label in the way moves it along the rectangle, or further out.
/// - A legend in a white band below the scene (when there are queries): a key to the four
///   colours, then one line per query, led by its two targets' colours, with its targets,
///   parent and answer, e.g.
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
    let left_out = queries.len().saturating_sub(options.max_queries);
    let queries = &queries[..queries.len() - left_out];
    let (frame, overlays) = plan(stage, queries, options)?;
    let mut colors = SceneColors::new(queries);
    let mut pic = draw_base(stage, &frame, &mut colors)?;

    for (q, o) in queries.iter().zip(&overlays) {
        let to_pic = frame.root_to_picture() * o.to_root;
        draw_overlap(stage, q, &to_pic, &mut pic)?;
        for (r, color, width) in &o.rects {
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
    let size = [pic.width() as f32, pic.height() as f32];
    for (number, label) in answer_labels(&frame, &overlays, size) {
        draw_label(&mut pic, label, number);
    }

    if !options.legend {
        let (w, h) = (pic.width(), pic.height());
        return RgbaImage::from_raw(w, h, pic.take_demultiplied()).ok_or_else(|| picture_error(f64::from(w)));
    }
    let mut lines: Vec<String> = queries
        .iter()
        .zip(&overlays)
        .enumerate()
        .map(|(i, (q, o))| {
            let meet =
                matches!((o.rects[0].0, o.rects[1].0), (Some(a), Some(b)) if a.intersect(&b).is_some());
            legend_line(stage, i + 1, q, &o.collision, meet)
        })
        .collect();
    let swatches: Vec<[[u8; 3]; 2]> = queries
        .iter()
        .map(|q| [colors.target(q.a), colors.target(q.b)])
        .collect();
    if left_out > 0 {
        lines.push(format!("+ {left_out} more queries not drawn"));
    }
    let pic = add_legend(pic, &lines, &swatches, &options.notes)?;
    let (w, h) = (pic.width(), pic.height());
    RgbaImage::from_raw(w, h, pic.take_demultiplied()).ok_or_else(|| picture_error(f64::from(w)))
}

/// One query redone: its answer and the rectangles drawn for it, in its parent's space.
struct Overlay {
    collision: Collision,
    /// Maps the query parent's space to the root's.
    to_root: DAffine2,
    /// Both targets' bounds and the answer, each with its colour and line width.
    rects: [(Option<Rect>, [u8; 3], f32); 3],
}

/// Redoes every query and frames the picture: the given area, or the scene, the targets'
/// bounds and the answers padded, so that nothing a query shows falls outside.
fn plan(stage: &Stage, queries: &[DebugQuery], options: &DebugOptions) -> Result<(Frame, Vec<Overlay>)> {
    let root = stage.root();
    let mut area = stage.tight_bounds(root, root)?;
    let mut overlays = Vec::with_capacity(queries.len());
    for q in queries {
        let collision = stage.collision(q.a, q.b, q.parent, &q.options)?;
        let to_root = stage.matrix_to(q.parent, root)?;
        let rects = [
            (stage.bounds(q.a, q.parent)?, BOUNDS_A, 1.5),
            (stage.bounds(q.b, q.parent)?, BOUNDS_B, 1.5),
            (collision.rect, ANSWER, 2.0),
        ];
        for r in rects.iter().filter_map(|(r, ..)| *r) {
            // The box of the corners as drawn (what `Rect::transform` gives, too).
            let in_root = Rect::from_points(r.corners().map(|c| to_root.transform_point2(c)));
            let in_root = in_root.ok_or_else(|| Error::NonFinite {
                what: "a query rectangle mapped to the root".into(),
            })?;
            area = Some(area.map_or(in_root, |a| a.union(&in_root)));
        }
        overlays.push(Overlay {
            collision,
            to_root,
            rects,
        });
    }
    let frame = match options.area {
        Some(a) => Frame::new(Some(a), 0.0, options.zoom)?,
        None => Frame::new(area, PAD, options.zoom)?,
    };
    Ok((frame, overlays))
}

/// The checkerboard with the scene over it, magnified with nearest sampling so that each
/// root pixel becomes a crisp square.
fn draw_base(stage: &Stage, frame: &Frame, colors: &mut SceneColors) -> Result<Pixmap> {
    let mut layer = frame.pixmap(frame.layer_size)?;
    if stage.visible(stage.root())? {
        draw_scene(stage, frame, &mut layer, colors)?;
    }
    let mut pic = frame.pixmap(frame.picture_size())?;
    draw_checkerboard(&mut pic);
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
    Ok(pic)
}

/// Each answer's number with its label's rectangle in the picture (see [`place_labels`]).
fn answer_labels(frame: &Frame, overlays: &[Overlay], picture: [f32; 2]) -> Vec<(usize, [f32; 4])> {
    let mut numbers = Vec::new();
    let mut wanted = Vec::new();
    for (i, o) in overlays.iter().enumerate() {
        if let Some(r) = o.rects[2].0 {
            let to_pic = frame.root_to_picture() * o.to_root;
            numbers.push(i + 1);
            wanted.push(LabelFor {
                quad: r.corners().map(|c| to_pic.transform_point2(c)),
                size: label_size(i + 1),
            });
        }
    }
    numbers.into_iter().zip(place_labels(&wanted, picture)).collect()
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
