//! Debug pictures end to end: what they show, their frames, colours, labels and legend.

use super::colors::ANSWER;
use super::colors::CHECKER;
use super::colors::NEUTRAL;
use super::colors::OVERLAP;
use super::colors::PALETTE;
use super::colors::SceneColors;
use super::colors::target_color;
use super::labels::LABEL_GAP;
use super::labels::LabelFor;
use super::labels::Spot;
use super::labels::label_size;
use super::labels::overlaps;
use super::labels::place_labels;
use super::legend::legend_height;
use super::legend::legend_line;
use super::picture::{answer_labels, plan};
use super::text::INK;
use super::text::ROW;
use super::text::SWATCH;
use super::text::glyph;
use super::*;
use crate::Bitmap;
use crate::CollisionOptions;
use crate::ColorTransform;
use crate::Error;
use crate::FillRule;
use crate::NodeId;
use crate::Rect;
use crate::Stage;
use crate::{Graphic, Path};
use glam::DAffine2;
use glam::DVec2;
use image::RgbaImage;

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
    let far = |a: [u8; 3], b: [u8; 3]| a.iter().zip(b).map(|(x, y)| x.abs_diff(y) as u32).sum::<u32>() >= 60;
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
