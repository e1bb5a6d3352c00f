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

/// Draws every visible leaf under the root in the colour [`SceneColors`] gives its node.
fn draw_scene(stage: &Stage, frame: &Frame, layer: &mut Pixmap, colors: &mut SceneColors) -> Result<()> {
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

/// Which colour each node is drawn in. Every query target gets a colour of its own (in the
/// order the queries name them) for its whole subtree, the innermost target winning, so
/// that sprites under one container still differ; whatever is inside no target is grey.
/// Without queries each child of the root gets a colour, so that objects still differ.
struct SceneColors {
    /// How many targets the queries name.
    targets: usize,
    /// Each target's own colour, and the innermost target's colour of each other node
    /// looked up so far (`None`: inside no target), so that a deep tree's ancestors are
    /// climbed once, not once per leaf.
    memo: HashMap<NodeId, Option<[u8; 3]>>,
}

impl SceneColors {
    fn new(queries: &[DebugQuery]) -> SceneColors {
        let mut targets = 0;
        let mut memo = HashMap::new();
        for id in queries.iter().flat_map(|q| [q.a, q.b]) {
            if let Entry::Vacant(e) = memo.entry(id) {
                e.insert(Some(target_color(targets)));
                targets += 1;
            }
        }
        SceneColors { targets, memo }
    }

    /// The own colour of a node a query names (grey for one none names).
    fn target(&self, id: NodeId) -> [u8; 3] {
        self.memo.get(&id).copied().flatten().unwrap_or(NEUTRAL)
    }

    /// The colour of what lies under the root's `index`th child and inside no target.
    fn outside_targets(&self, index: usize) -> [u8; 3] {
        if self.targets == 0 {
            // By position among all children, so that hiding one keeps the others' colours.
            PALETTE[index % PALETTE.len()]
        } else {
            NEUTRAL
        }
    }

    /// The colour of the innermost target that holds `id` (itself included), if any.
    fn of(&mut self, stage: &Stage, id: NodeId) -> Result<Option<[u8; 3]>> {
        if self.targets == 0 {
            return Ok(None);
        }
        let mut path = Vec::new();
        let mut cur = Some(id);
        let found = loop {
            let Some(c) = cur else { break None };
            if let Some(&known) = self.memo.get(&c) {
                break known;
            }
            path.push(c);
            cur = stage.parent(c)?;
        };
        for n in path {
            self.memo.insert(n, found);
        }
        Ok(found)
    }
}

/// The `k`th target's colour: the palette, then muted hues between orange and violet, so
/// that any number of targets differ and none looks like the red answers or the magenta
/// overlap.
fn target_color(k: usize) -> [u8; 3] {
    if let Some(&c) = PALETTE.get(k) {
        return c;
    }
    // Steps of the golden ratio spread the hues evenly however many there are.
    let hue = 30.0 + ((k - PALETTE.len()) as f32 * 0.618_034).fract() * 240.0;
    let (v, c) = (0.8, 0.8 * 0.45);
    let x = c * (1.0 - ((hue / 60.0) % 2.0 - 1.0).abs());
    let (r, g, b) = match (hue / 60.0) as u32 {
        0 => (c, x, 0.0),
        1 => (x, c, 0.0),
        2 => (0.0, c, x),
        3 => (0.0, x, c),
        _ => (x, 0.0, c),
    };
    [r, g, b].map(|ch| ((ch + v - c) * 255.0).round() as u8)
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

/// The query's number on a white label, so that several answers can be told apart and
/// matched with the legend; `rect` comes from [`place_labels`]. A thin frame keeps labels
/// placed side by side from reading as one number.
fn draw_label(pic: &mut Pixmap, rect: [f32; 4], number: usize) {
    const FRAME: [u8; 3] = [150, 150, 150];
    let [x, y, r, b] = rect;
    let (w, h) = (r - x, b - y);
    fill_rect(pic, x, y, w, h, [255, 255, 255], 0.9);
    for (fx, fy, fw, fh) in [
        (x, y, w, 1.0),
        (x, b - 1.0, w, 1.0),
        (x, y, 1.0, h),
        (r - 1.0, y, 1.0, h),
    ] {
        fill_rect(pic, fx, fy, fw, fh, FRAME, 1.0);
    }
    text(pic, x + 2.0, y + 2.0, &number.to_string(), ANSWER);
}

/// Width and height of the label of answer `number`: its digits with a margin of 2 pixels
/// (the frame and 1 pixel of white).
fn label_size(number: usize) -> [f32; 2] {
    [text_width(&number.to_string()) + 2.0, 5.0 * DOT + 4.0]
}

/// Blank space between a label and its answer's box.
const LABEL_GAP: f32 = 1.0;
/// Coordinates of answers are kept within this many pixels of the picture, so that label
/// arithmetic stays on whole numbers that f32 holds exactly.
const LABEL_FAR: f32 = 1e6;

/// A label to place: its answer's rectangle as a quad in the picture, and its size.
#[derive(Clone, Copy, Debug)]
struct LabelFor {
    quad: [DVec2; 4],
    size: [f32; 2],
}

/// Where each label goes (`[left, top, right, bottom]` in the picture, whole pixels), in
/// order, each overlapping none placed before it.
///
/// A label touches its answer's box on screen (the bounding box of the quad) wherever it
/// can: first above it, sliding right from the quad's topmost corner and then left, then
/// below, right and left of it the same way; then those sides pulled into the picture
/// (onto the box, when it reaches past the picture's edge); then in rings further out; then
/// wherever the picture still has room, as near the box as the search finds; and only when
/// the picture is full, below everything placed. Sliding jumps past the labels in the way,
/// so it finds the first free spot on each side exactly.
fn place_labels(wanted: &[LabelFor], picture: [f32; 2]) -> Vec<[f32; 4]> {
    let mut placed: Vec<[f32; 4]> = Vec::with_capacity(wanted.len());
    for w in wanted {
        let spot = Spot::new(&w.quad);
        let at = spot
            .touching(&placed, w.size, picture, false)
            .or_else(|| spot.touching(&placed, w.size, picture, true))
            .or_else(|| spot.clamped(picture).rings(&placed, w.size, picture))
            .or_else(|| spot.nearest_free(&placed, w.size, picture))
            .unwrap_or_else(|| {
                let below = placed.iter().map(|p| p[3]).fold(picture[1], f32::max);
                [spot.l.clamp(0.0, (picture[0] - w.size[0]).max(0.0)), below]
            });
        placed.push([at[0], at[1], at[0] + w.size[0], at[1] + w.size[1]]);
    }
    placed
}

/// An answer as the labels see it: its box in whole picture pixels, and where along each
/// side the quad reaches the box (its corner there), so that a label starting there touches
/// the quad itself, not only its box.
#[derive(Clone, Copy, Debug)]
struct Spot {
    l: f32,
    t: f32,
    r: f32,
    b: f32,
    /// The x of the topmost and of the bottommost corner, the y of the rightmost and of the
    /// leftmost; the leftmost or topmost of those where several tie.
    anchors: [f32; 4],
}

impl Spot {
    fn new(quad: &[DVec2; 4]) -> Spot {
        let pts = quad.map(|c| [c.x, c.y].map(|v| (v as f32).clamp(-LABEL_FAR, LABEL_FAR)));
        // NaN never comes from a finite matrix, but a label must not loop on one either.
        let pts = pts.map(|p| p.map(|v| if v.is_nan() { 0.0 } else { v }));
        // The other coordinate of the corner furthest along `axis` (`least`: furthest back).
        let extreme = |axis: usize, least: bool| {
            let key = |p: &[f32; 2]| (if least { p[axis] } else { -p[axis] }, p[1 - axis]);
            let best = pts[1..]
                .iter()
                .fold(pts[0], |best, p| if key(p) < key(&best) { *p } else { best });
            best[1 - axis].round()
        };
        let least = |axis: usize| pts.iter().map(|p| p[axis]).fold(f32::INFINITY, f32::min);
        let most = |axis: usize| pts.iter().map(|p| p[axis]).fold(f32::NEG_INFINITY, f32::max);
        Spot {
            l: least(0).floor(),
            t: least(1).floor(),
            r: most(0).ceil(),
            b: most(1).ceil(),
            anchors: [
                extreme(1, true),
                extreme(1, false),
                extreme(0, false),
                extreme(0, true),
            ],
        }
    }

    /// The first free spot touching the box's outside, side after side. `pull_in` moves a
    /// side lying past the picture's edge onto that edge instead of leaving it out.
    fn touching(
        &self,
        placed: &[[f32; 4]],
        size: [f32; 2],
        picture: [f32; 2],
        pull_in: bool,
    ) -> Option<[f32; 2]> {
        let [w, h] = size;
        let g = LABEL_GAP;
        // (axis that stays fixed, its value, where the slide starts, how far it may go)
        let sides = [
            (1, self.t - h - g, self.anchors[0], self.l - w, self.r),
            (1, self.b + g, self.anchors[1], self.l - w, self.r),
            (0, self.r + g, self.anchors[2], self.t - h, self.b),
            (0, self.l - w - g, self.anchors[3], self.t - h, self.b),
        ];
        for (fixed_axis, fixed, start, lo, hi) in sides {
            let moving = 1 - fixed_axis;
            let fixed_max = (picture[fixed_axis] - size[fixed_axis]).max(0.0);
            let fixed = match (0.0..=fixed_max).contains(&fixed) {
                true => fixed,
                false if pull_in => fixed.clamp(0.0, fixed_max),
                false => continue,
            };
            let (lo, hi) = (lo.max(0.0), hi.min((picture[moving] - size[moving]).max(0.0)));
            if lo > hi {
                continue;
            }
            let mut pos = [0.0; 2];
            pos[fixed_axis] = fixed;
            pos[moving] = start.clamp(lo, hi);
            let found = slide(placed, size, pos, moving, hi).or_else(|| slide(placed, size, pos, moving, lo));
            if found.is_some() {
                return found;
            }
        }
        None
    }

    /// The box cut to the picture (a box wholly outside becomes a line on its edge), so
    /// that rings around it start near what is seen.
    fn clamped(&self, picture: [f32; 2]) -> Spot {
        let [w, h] = picture;
        Spot {
            l: self.l.clamp(0.0, w),
            t: self.t.clamp(0.0, h),
            r: self.r.clamp(0.0, w),
            b: self.b.clamp(0.0, h),
            anchors: self.anchors,
        }
    }

    /// The first free spot on rings one label height apart around the box, until the rings
    /// hold the whole picture.
    fn rings(&self, placed: &[[f32; 4]], size: [f32; 2], picture: [f32; 2]) -> Option<[f32; 2]> {
        let step = size[1] + LABEL_GAP;
        for k in 1.. {
            let d = k as f32 * step;
            let ring = Spot {
                l: self.l - d,
                t: self.t - d,
                r: self.r + d,
                b: self.b + d,
                anchors: self.anchors,
            };
            if let Some(at) = ring.touching(placed, size, picture, false) {
                return Some(at);
            }
            if ring.l - size[0] <= 0.0
                && ring.t - size[1] <= 0.0
                && ring.r >= picture[0]
                && ring.b >= picture[1]
            {
                return None;
            }
        }
        None
    }

    /// The free spot of the picture nearest the box among the first free ones of each row
    /// a label can rest in. Any free spot can move up until a label's bottom or the
    /// picture's top stops it, so those rows find room wherever there is some.
    fn nearest_free(&self, placed: &[[f32; 4]], size: [f32; 2], picture: [f32; 2]) -> Option<[f32; 2]> {
        let (x_max, y_max) = (picture[0] - size[0], picture[1] - size[1]);
        if x_max < 0.0 || y_max < 0.0 {
            return None;
        }
        let mut rows: Vec<f32> = std::iter::once(0.0)
            .chain(placed.iter().map(|p| p[3]))
            .filter(|y| (0.0..=y_max).contains(y))
            .collect();
        rows.sort_by(f32::total_cmp);
        rows.dedup();
        let start = self.l.clamp(0.0, x_max);
        let own = [self.l, self.t, self.r, self.b];
        let away = |at: &[f32; 2]| {
            let r = [at[0], at[1], at[0] + size[0], at[1] + size[1]];
            let dx = (own[0] - r[2]).max(r[0] - own[2]).max(0.0);
            let dy = (own[1] - r[3]).max(r[1] - own[3]).max(0.0);
            dx.hypot(dy)
        };
        rows.into_iter()
            .flat_map(|y| {
                [
                    slide(placed, size, [start, y], 0, x_max),
                    slide(placed, size, [start, y], 0, 0.0),
                ]
            })
            .flatten()
            .fold(None, |best: Option<[f32; 2]>, at| match best {
                Some(b) if away(&b) <= away(&at) => Some(b),
                _ => Some(at),
            })
    }
}

/// Moves a label of `size` from `pos` along `axis` towards `to` (either way) until it
/// overlaps nothing placed; `None` when it passes `to` first. Each step jumps past the
/// label in the way, so the spot found is the first free one and the steps are at most
/// one per placed label.
fn slide(placed: &[[f32; 4]], size: [f32; 2], mut pos: [f32; 2], axis: usize, to: f32) -> Option<[f32; 2]> {
    let forward = to >= pos[axis];
    loop {
        if (forward && pos[axis] > to) || (!forward && pos[axis] < to) {
            return None;
        }
        let rect = [pos[0], pos[1], pos[0] + size[0], pos[1] + size[1]];
        match placed.iter().find(|p| overlaps(p, &rect)) {
            None => return Some(pos),
            Some(p) if forward => pos[axis] = p[axis + 2],
            Some(p) => pos[axis] = p[axis] - size[axis],
        }
    }
}

/// Whether two rectangles share more than an edge.
fn overlaps(a: &[f32; 4], b: &[f32; 4]) -> bool {
    a[0] < b[2] && b[0] < a[2] && a[1] < b[3] && b[1] < a[3]
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

/// The picture with a white band below it: a key to the colours, then one line per query,
/// led by the colours of its two targets (`swatches`, one pair per query line). The band
/// never covers the scene, and the picture widens when the band needs it.
fn add_legend(
    pic: Pixmap,
    queries: &[String],
    swatches: &[[[u8; 3]; 2]],
    notes: &[String],
) -> Result<Pixmap> {
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
    // Every line starts after the swatches, so that the numbers stay in one column.
    let indent = if swatches.is_empty() {
        0.0
    } else {
        2.0 * SWATCH + 8.0
    };
    let widest = lines
        .iter()
        .map(|l| indent + text_width(l))
        .fold(key_width, f32::max);
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
        let row = y + (i + 1) as f32 * ROW;
        for (k, rgb) in swatches.get(i).into_iter().flatten().enumerate() {
            fill_rect(
                &mut out,
                8.0 + k as f32 * (SWATCH + 2.0),
                row,
                SWATCH,
                SWATCH,
                *rgb,
                1.0,
            );
        }
        text(&mut out, 8.0 + indent, row, line, INK);
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

    /// A container under `parent` at `(x, y)` holding a `side` square at its origin.
    fn sprite(stage: &mut Stage, parent: NodeId, x: f64, y: f64, side: f64) -> NodeId {
        let id = stage.add_container(parent).unwrap();
        let g = Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(id, g).unwrap();
        stage.set_x(id, x).unwrap();
        stage.set_y(id, y).unwrap();
        id
    }

    /// The picture pixel at point `(x, y)` of `id`'s space, for a picture of root
    /// `[0, 0, ...]` magnified `zoom` times.
    fn pixel_of(img: &RgbaImage, s: &Stage, id: NodeId, (x, y): (f64, f64), zoom: f64) -> [u8; 4] {
        let p = s
            .matrix_to(id, s.root())
            .unwrap()
            .transform_point2(DVec2::new(x, y))
            * zoom;
        img.get_pixel(p.x as u32, p.y as u32).0
    }

    /// A 100 x 100 root area at zoom 4, without a legend.
    fn fixed_frame() -> DebugOptions {
        let area = Rect::from_xywh(0.0, 0.0, 100.0, 100.0).unwrap();
        DebugOptions::default().area(area).zoom(4).legend(false)
    }

    /// How far apart two rectangles are (0 when they touch or overlap), along the axis
    /// where they are furthest apart.
    fn gap(a: &[f32; 4], b: &[f32; 4]) -> f32 {
        let dx = (b[0] - a[2]).max(a[0] - b[2]);
        let dy = (b[1] - a[3]).max(a[1] - b[3]);
        dx.max(dy).max(0.0)
    }

    /// The bounding box of a quad, rounded out to whole pixels as the labels see it.
    fn screen_box(quad: &[DVec2; 4]) -> [f32; 4] {
        let s = Spot::new(quad);
        [s.l, s.t, s.r, s.b]
    }

    fn assert_apart(labels: &[[f32; 4]]) {
        for (i, a) in labels.iter().enumerate() {
            for b in &labels[..i] {
                assert!(!overlaps(a, b), "{a:?} overlaps {b:?} in {labels:?}");
            }
        }
    }

    #[test]
    fn targets_under_one_rotated_container_get_colours_of_their_own() {
        let mut s = Stage::new();
        let camera = s.add_container(s.root()).unwrap();
        s.set_rotation(camera, 30.0).unwrap();
        s.set_x(camera, 40.0).unwrap();
        s.set_y(camera, 10.0).unwrap();
        let a = sprite(&mut s, camera, 0.0, 0.0, 20.0);
        let b = sprite(&mut s, camera, 10.0, 10.0, 20.0);
        let bystander = sprite(&mut s, camera, 40.0, 0.0, 20.0);
        let img = debug_image_with(&s, &[DebugQuery::new(a, b, camera)], &fixed_frame()).unwrap();
        let in_a = pixel_of(&img, &s, a, (4.0, 4.0), 4.0);
        let in_b = pixel_of(&img, &s, b, (16.0, 16.0), 4.0);
        let in_both = pixel_of(&img, &s, a, (15.5, 15.5), 4.0);
        assert_eq!(in_a, [PALETTE[0][0], PALETTE[0][1], PALETTE[0][2], 255]);
        assert_eq!(in_b, [PALETTE[1][0], PALETTE[1][1], PALETTE[1][2], 255]);
        assert_ne!(in_a, in_b);
        assert_ne!(in_a, MAGENTA);
        assert_ne!(in_b, MAGENTA);
        assert_eq!(in_both, MAGENTA);
        // What no query names is grey, whatever container it shares with the targets.
        assert_eq!(pixel_of(&img, &s, bystander, (10.0, 10.0), 4.0)[..3], NEUTRAL);
    }

    #[test]
    fn a_target_inside_another_gets_its_own_colour() {
        let mut s = Stage::new();
        let camera = s.add_container(s.root()).unwrap();
        s.set_rotation(camera, -20.0).unwrap();
        s.set_x(camera, 10.0).unwrap();
        s.set_y(camera, 40.0).unwrap();
        let outer = sprite(&mut s, camera, 0.0, 0.0, 20.0);
        let inner = sprite(&mut s, outer, 30.0, 0.0, 10.0);
        // Inside the inner target, though no query names it.
        let deep = sprite(&mut s, inner, 0.0, 20.0, 10.0);
        let other = sprite(&mut s, camera, 10.0, 10.0, 20.0);
        let color = |img: &RgbaImage, id: NodeId| pixel_of(img, &s, id, (5.0, 5.0), 4.0);
        let rgb = |c: [u8; 3]| [c[0], c[1], c[2], 255];
        // Whichever target a query names first, the inner one's subtree keeps its own colour.
        for (order, [c_outer, c_inner]) in [
            ([outer, inner], [PALETTE[0], PALETTE[2]]),
            ([inner, outer], [PALETTE[2], PALETTE[0]]),
        ] {
            let queries = order.map(|t| DebugQuery::new(t, other, camera));
            let img = debug_image_with(&s, &queries, &fixed_frame()).unwrap();
            assert_eq!(color(&img, outer), rgb(c_outer), "{order:?}");
            assert_eq!(color(&img, inner), rgb(c_inner), "{order:?}");
            assert_eq!(color(&img, deep), rgb(c_inner), "{order:?}");
            assert_ne!(c_outer, c_inner);
        }
    }

    #[test]
    fn target_colours_keep_clear_of_the_overlay_colours() {
        let far =
            |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).map(|(x, y)| x.abs_diff(y) as u32).sum::<u32>() >= 60;
        let colors: Vec<[u8; 3]> = (0..500).map(target_color).collect();
        for (k, &c) in colors.iter().enumerate() {
            for overlay in [OVERLAP, ANSWER, NEUTRAL] {
                assert!(far(c, overlay), "{k}: {c:?} is near {overlay:?}");
            }
        }
        for (k, w) in colors.windows(2).enumerate() {
            assert_ne!(w[0], w[1], "{k}");
        }
        // A colour per target: more targets than the palette still get colours of their own.
        let ids: Vec<NodeId> = {
            let mut s = Stage::new();
            (0..30).map(|_| s.add_container(s.root()).unwrap()).collect()
        };
        let queries: Vec<DebugQuery> = ids.chunks(2).map(|p| DebugQuery::new(p[0], p[1], p[0])).collect();
        let scene = SceneColors::new(&queries);
        let mut seen: Vec<[u8; 3]> = ids.iter().map(|&id| scene.target(id)).collect();
        seen.sort_unstable();
        seen.dedup();
        assert_eq!(seen.len(), ids.len());
    }

    #[test]
    fn the_legend_leads_each_query_line_with_its_targets_colours() {
        let mut s = Stage::new();
        let a = square(&mut s, 0.0, 0.0, 10.0);
        let b = square(&mut s, 5.0, 5.0, 10.0);
        let c = square(&mut s, 12.0, 0.0, 10.0);
        let root = s.root();
        let img = debug_image(&s, &[DebugQuery::new(a, b, root), DebugQuery::new(c, a, root)]).unwrap();
        let scene_height = img.height() - legend_height(2);
        let swatch = |line: u32, k: u32| {
            let y = scene_height + 8 + (line + 1) * ROW as u32 + 5;
            img.get_pixel(8 + k * (SWATCH as u32 + 2) + 5, y).0[..3].to_vec()
        };
        assert_eq!(swatch(0, 0), PALETTE[0]);
        assert_eq!(swatch(0, 1), PALETTE[1]);
        assert_eq!(swatch(1, 0), PALETTE[2]);
        assert_eq!(swatch(1, 1), PALETTE[0]);
    }

    #[test]
    fn labels_of_answers_at_the_same_spot_do_not_overlap() {
        let mut s = Stage::new();
        let root = s.root();
        let a = square(&mut s, 0.0, 0.0, 10.0);
        let b = square(&mut s, 5.0, 5.0, 10.0);
        let c = square(&mut s, 5.0, 5.0, 10.0);
        let mut queries = vec![DebugQuery::new(a, b, root); 3];
        queries.extend([DebugQuery::new(a, c, root), DebugQuery::new(b, c, root)]);
        let (frame, overlays) = plan(&s, &queries, &DebugOptions::default()).unwrap();
        let (w, h) = frame.picture_size();
        let labels = answer_labels(&frame, &overlays, [w as f32, h as f32]);
        assert_eq!(labels.iter().map(|l| l.0).collect::<Vec<_>>(), [1, 2, 3, 4, 5]);
        let rects: Vec<[f32; 4]> = labels.iter().map(|l| l.1).collect();
        assert_apart(&rects);
        for ((n, label), o) in labels.iter().zip(&overlays) {
            let to_pic = frame.root_to_picture() * o.to_root;
            let quad = o.rects[2]
                .0
                .unwrap()
                .corners()
                .map(|c| to_pic.transform_point2(c));
            assert!(gap(label, &screen_box(&quad)) <= LABEL_GAP, "{n}: {label:?}");
        }
        // Twelve answers at one spot of a roomy picture all find a place touching it.
        let quad = Rect::from_xywh(200.0, 200.0, 40.0, 40.0).unwrap().corners();
        let wanted: Vec<LabelFor> = (1..=12)
            .map(|n| LabelFor {
                quad,
                size: label_size(n),
            })
            .collect();
        let placed = place_labels(&wanted, [512.0, 512.0]);
        assert_apart(&placed);
        for p in &placed {
            assert!(gap(p, &[200.0, 200.0, 240.0, 240.0]) <= LABEL_GAP, "{p:?}");
        }
        // The first goes just above the top-left corner.
        assert_eq!(placed[0], [200.0, 185.0, 210.0, 199.0]);
    }

    #[test]
    fn labels_touch_their_answer_under_a_rotated_parent() {
        for angle in [30.0, 90.0, 200.0] {
            let mut s = Stage::new();
            let camera = s.add_container(s.root()).unwrap();
            s.set_rotation(camera, angle).unwrap();
            s.set_x(camera, 60.0).unwrap();
            s.set_y(camera, 60.0).unwrap();
            let a = sprite(&mut s, camera, 0.0, 0.0, 20.0);
            let b = sprite(&mut s, camera, 8.0, 5.0, 20.0);
            let queries = [DebugQuery::new(a, b, camera); 2];
            let (frame, overlays) = plan(&s, &queries, &DebugOptions::default()).unwrap();
            let (w, h) = frame.picture_size();
            let labels = answer_labels(&frame, &overlays, [w as f32, h as f32]);
            assert_eq!(labels.len(), 2, "{angle}");
            assert_apart(&labels.iter().map(|l| l.1).collect::<Vec<_>>());
            let to_pic = frame.root_to_picture() * overlays[0].to_root;
            let quad = overlays[0].rects[2]
                .0
                .unwrap()
                .corners()
                .map(|c| to_pic.transform_point2(c));
            for (_, label) in &labels {
                assert!(gap(label, &screen_box(&quad)) <= LABEL_GAP, "{angle}: {label:?}");
            }
            // The first label starts at the quad's topmost corner, so it touches the quad
            // itself, not only its box.
            let first = labels[0].1;
            let near = quad.iter().any(|c| {
                let corner = [c.x as f32, c.y as f32, c.x as f32, c.y as f32];
                gap(&first, &corner) <= LABEL_GAP + 1.0
            });
            assert!(near, "{angle}: {first:?} {quad:?}");
            // The picture draws the labels where they were placed: white, the number after a
            // margin of 2 pixels.
            let img = debug_image(&s, &queries).unwrap();
            for (_, [x, y, ..]) in &labels {
                let px = img.get_pixel(*x as u32 + 1, *y as u32 + 1).0;
                assert!(px[..3].iter().all(|&v| v >= 225), "{angle}: {px:?}");
            }
        }
    }

    #[test]
    fn random_labels_never_overlap_and_touch_their_box_when_there_is_room() {
        // xorshift64*: a fixed seed, so a failure repeats.
        let mut state = 0x9E37_79B9_7F4A_7C15_u64;
        let mut next = |n: u32| {
            state ^= state >> 12;
            state ^= state << 25;
            state ^= state >> 27;
            (state.wrapping_mul(0x2545_F491_4F6C_DD1D) >> 33) as u32 % n
        };
        let mut away = 0;
        let mut fell_out = 0;
        for case in 0..400 {
            let picture = [(40 + next(400)) as f32, (40 + next(400)) as f32];
            let [pw, ph] = picture;
            let wanted: Vec<LabelFor> = (0..1 + next(15))
                .map(|_| {
                    // Boxes of any size, some reaching past the picture's edges, all in sight.
                    let (bw, bh) = ((1 + next(80)) as f64, (1 + next(80)) as f64);
                    let l = f64::from(next(pw as u32 + 40)) - 40.0 - bw / 2.0;
                    let t = f64::from(next(ph as u32 + 40)) - 40.0 - bh / 2.0;
                    let l = l.clamp(1.0 - bw, f64::from(pw) - 1.0);
                    let t = t.clamp(1.0 - bh, f64::from(ph) - 1.0);
                    LabelFor {
                        quad: Rect::from_xywh(l.round(), t.round(), bw, bh).unwrap().corners(),
                        size: label_size(1 + next(150) as usize),
                    }
                })
                .collect();
            let placed = place_labels(&wanted, picture);
            assert_eq!(placed, place_labels(&wanted, picture), "deterministic");
            assert_apart(&placed);
            for (i, (p, w)) in placed.iter().zip(&wanted).enumerate() {
                assert_eq!([p[2] - p[0], p[3] - p[1]], w.size);
                let b = screen_box(&w.quad);
                let inside = p[0] >= 0.0 && p[1] >= 0.0 && p[2] <= pw && p[3] <= ph;
                if gap(p, &b) <= LABEL_GAP {
                    assert!(inside, "case {case}, label {i}: {p:?} outside {picture:?}");
                    continue;
                }
                // Away from its box: only when every spot touching it from outside (pulled
                // into the picture) was taken by an earlier label.
                away += 1;
                if !inside {
                    // Out of the picture only when it has no room left: any free spot could
                    // move up and then left until a label or the edge stops it.
                    fell_out += 1;
                    let xs = placed[..i].iter().map(|q| q[2]).chain([0.0]);
                    for x in xs.filter(|x| *x + w.size[0] <= pw) {
                        let ys = placed[..i].iter().map(|q| q[3]).chain([0.0]);
                        for y in ys.filter(|y| *y + w.size[1] <= ph) {
                            let r = [x, y, x + w.size[0], y + w.size[1]];
                            let taken = placed[..i].iter().any(|q| overlaps(q, &r));
                            assert!(taken, "case {case}, label {i} at {p:?}: {r:?} was free");
                        }
                    }
                }
                let [lw, lh] = w.size;
                let g = LABEL_GAP;
                let clamp_x = |x: f32| x.clamp(0.0, pw - lw);
                let clamp_y = |y: f32| y.clamp(0.0, ph - lh);
                let mut spots = Vec::new();
                for x in (b[0] - lw) as i32..=b[2] as i32 {
                    for y in [b[1] - lh - g, b[3] + g] {
                        spots.push([clamp_x(x as f32), clamp_y(y)]);
                    }
                }
                for y in (b[1] - lh) as i32..=b[3] as i32 {
                    for x in [b[2] + g, b[0] - lw - g] {
                        spots.push([clamp_x(x), clamp_y(y as f32)]);
                    }
                }
                for [x, y] in spots {
                    let r = [x, y, x + lw, y + lh];
                    assert!(
                        placed[..i].iter().any(|q| overlaps(q, &r)),
                        "case {case}, label {i} at {p:?} for {b:?}: {r:?} was free"
                    );
                }
            }
        }
        // Crowded cases do happen, and some pictures fill up.
        assert!(away > 0 && fell_out > 0, "{away}, {fell_out}");
    }
}
