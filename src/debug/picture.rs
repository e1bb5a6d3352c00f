//! Drawing a debug picture: the scene, the queries' pixels and boxes, the labels and the
//! legend, in that order.

use crate::Result;

use super::colors::ANSWER;
use super::colors::BOUNDS_A;
use super::colors::BOUNDS_B;
use super::colors::HIGHLIGHT;
use super::colors::SceneColors;
use super::frame::Frame;
use super::frame::PAD;
use super::frame::picture_error;
use super::labels::LabelFor;
use super::labels::draw_label;
use super::labels::label_size;
use super::labels::place_labels;
use super::legend::add_legend;
use super::legend::legend_line;
use super::query::DebugOptions;
use super::query::DebugQuery;
use super::scene::draw_checkerboard;
use super::scene::draw_overlap;
use super::scene::draw_scene;
use super::scene::outline;
use crate::Collision;
use crate::Error;
use crate::Rect;
use crate::Stage;
use glam::DAffine2;
use image::RgbaImage;
use tiny_skia::FilterQuality;
use tiny_skia::Pixmap;
use tiny_skia::PixmapPaint;
use tiny_skia::Transform;

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
pub(super) struct Overlay {
    pub(super) collision: Collision,
    /// Maps the query parent's space to the root's.
    pub(super) to_root: DAffine2,
    /// Both targets' bounds and the answer, each with its colour and line width.
    pub(super) rects: [(Option<Rect>, [u8; 3], f32); 3],
}

/// Redoes every query and frames the picture: the given area, or the scene, the targets'
/// bounds and the answers padded, so that nothing a query shows falls outside.
pub(super) fn plan(
    stage: &Stage,
    queries: &[DebugQuery],
    options: &DebugOptions,
) -> Result<(Frame, Vec<Overlay>)> {
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
pub(super) fn answer_labels(
    frame: &Frame,
    overlays: &[Overlay],
    picture: [f32; 2],
) -> Vec<(usize, [f32; 4])> {
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
