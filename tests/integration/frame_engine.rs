//! Differential tests of the frame engine's bitmap kernel (issue 29): a pair of which each
//! target is one unsmoothed bitmap pose (or one kept raster) is answered by writing solid
//! pixels straight into bit masks and comparing words. It must give the plain path's answer
//! (both alpha planes composited pixel by pixel, `fast_paths(false)`) bit for bit, over
//! thousands of random pairs: bitmaps with transparent borders and soft alpha, colour
//! transforms, tolerance 0, 127, 255 and between, anti-aliased and not, scales from 0.01 to
//! 100, turned and skewed, near the origin and far from it, and poses seen again (kept whole
//! rasters against poses computed in the window).

use crate::common::{
    Rng, assert_as_plain, bordered_bitmap, contacts_and_pairs_alone, crowd_options, pair_placement,
    random_matrix, random_tolerance,
};
use pixelhit::{Bitmap, CollisionOptions, ColorTransform, DAffine2, DVec2, NodeId, Stage};

/// A bitmap node placed at `at` with a random pose, scale between `scale.0` and `scale.1`.
fn sprite(rng: &mut Rng, stage: &mut Stage, parent: NodeId, at: DVec2, scale: (f64, f64)) -> NodeId {
    let image = bordered_bitmap(rng, 48, 4);
    let centre =
        DAffine2::from_translation(-DVec2::new(f64::from(image.width()), f64::from(image.height())) / 2.0);
    let node = stage.add_bitmap(parent, image, false).unwrap();
    let m = match rng.int(0, 4) {
        0 if rng.coin() => DAffine2::from_translation(at.round()),
        0 => DAffine2::from_translation(at),
        1 => random_matrix(rng, scale, true, at),
        _ => random_matrix(rng, scale, false, at),
    };
    stage.set_matrix(node, m * centre).unwrap();
    if let Some(ct) = random_alpha_transform(rng) {
        stage.set_color_transform(node, ct).unwrap();
    }
    node
}

/// One time in four, a colour transform that scales and offsets alpha; else none.
fn random_alpha_transform(rng: &mut Rng) -> Option<ColorTransform> {
    (rng.int(0, 4) == 0).then(|| {
        ColorTransform::new(
            [1.0, 1.0, 1.0, rng.range(0.2, 1.5)],
            [0.0, 0.0, 0.0, rng.range(-60.0, 60.0)],
        )
    })
}

#[test]
fn bitmap_words_give_the_plain_answer() {
    let mut rng = Rng::new(0xf4a3_e001);
    let (mut hits, mut cases) = (0, 0);
    for case in 0..8000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let (base, scale) = pair_placement(&mut rng, case);
        let reach = 20.0 * scale.1.min(4.0);
        let a = sprite(&mut rng, &mut stage, root, base, scale);
        let off = DVec2::new(rng.range(-reach, reach), rng.range(-reach, reach));
        let b = sprite(&mut rng, &mut stage, root, base + off, (0.5, 2.5));
        let opts = CollisionOptions::default()
            .tolerance(random_tolerance(&mut rng))
            .anti_alias(rng.int(0, 3) > 0)
            .max_pixels(1 << 26);
        let plain = assert_as_plain(&stage, (a, b), root, &opts, case, true);
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
        cases += 1;
    }
    assert!(hits > cases / 5 && hits < cases * 4 / 5, "{hits} hits of {cases}");
}

/// A bitmap whose texels that reach high alphas keep clear of some of its sides and touch
/// the others: a transparent margin of 0 to 3 texels on each side chosen alone, and a solid
/// core of random alphas.
fn lopsided_bitmap(rng: &mut Rng) -> Bitmap {
    let (w, h) = (rng.int(1, 40) as u32, rng.int(1, 40) as u32);
    let [l, t, r, b] = [0; 4].map(|_| rng.int(0, 3) as u32);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let clear = x < l || y < t || x + r >= w || y + b >= h;
            let a = match clear {
                true => 0,
                false => [255, 255, 200, rng.int(0, 255) as u8][rng.int(0, 3) as usize],
            };
            rgba.extend_from_slice(&[9, 8, 7, a]);
        }
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

/// Anti-aliased pairs whose solid texels touch some sides of their bitmaps and not others:
/// coverage is worked out beyond the sides they touch only, and the window is cut to where
/// they can reach; the answers are the plain path's.
#[test]
fn solid_boxes_touching_some_sides_give_the_plain_answer() {
    let mut rng = Rng::new(0x10b5_1de5);
    let mut hits = 0;
    for case in 0..3000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let base = DVec2::new(rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        let nodes = [0, 1].map(|k| {
            let image = lopsided_bitmap(&mut rng);
            let node = stage.add_bitmap(root, image, false).unwrap();
            let at = base + DVec2::new(rng.range(-25.0, 25.0), rng.range(-25.0, 25.0)) * f64::from(k);
            let skew = rng.coin();
            let m = random_matrix(&mut rng, (0.3, 3.0), skew, at);
            stage.set_matrix(node, m).unwrap();
            node
        });
        let opts = CollisionOptions::default().tolerance([0, 55, 127, 254][case % 4]);
        let plain = stage
            .clone()
            .collision(nodes[0], nodes[1], root, &opts.fast_paths(false))
            .unwrap();
        let fast = stage.clone().collision(nodes[0], nodes[1], root, &opts).unwrap();
        assert_eq!(fast, plain, "case {case}, {opts:?}");
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
    }
    assert!(hits > 600 && hits < 2400, "{hits} hits");
}

/// Crowds dense enough that targets are planned whole (their masks made once per query and
/// read by every pair): `contacts_among` gives what each pair asked alone on the plain path
/// gives, over random crowds of bitmaps (turned, scaled, colour-transformed, smoothed or
/// not) and fills, at tolerance 0, 127 and 255, anti-aliased or not, on one thread and on
/// several.
#[test]
fn planned_crowds_give_every_pair_alone() {
    let mut rng = Rng::new(0xc40f_d001);
    let mut contacts = 0;
    for case in 0..160 {
        let mut stage = Stage::new();
        let root = stage.root();
        let sprites: Vec<NodeId> = (0..12)
            .map(|_| {
                let at = DVec2::new(rng.range(0.0, 50.0), rng.range(0.0, 50.0));
                match rng.int(0, 4) {
                    0 => {
                        let n = stage.add_container(root).unwrap();
                        let pts: Vec<(f64, f64)> = (0..3 + rng.int(0, 5))
                            .map(|_| (rng.range(-14.0, 14.0), rng.range(-14.0, 14.0)))
                            .collect();
                        let g = pixelhit::Graphic::fill(
                            pixelhit::Path::polygon(&pts),
                            pixelhit::FillRule::NonZero,
                            rng.range(0.3, 1.0),
                        );
                        stage.add_graphic(n, g.unwrap()).unwrap();
                        stage
                            .set_matrix(n, random_matrix(&mut rng, (0.5, 2.0), true, at))
                            .unwrap();
                        n
                    }
                    1 => {
                        let n = sprite(&mut rng, &mut stage, root, at, (0.5, 2.0));
                        let image = stage.bitmap(n).unwrap().unwrap().0.clone();
                        stage.set_bitmap(n, image, true).unwrap();
                        n
                    }
                    _ => sprite(&mut rng, &mut stage, root, at, (0.5, 2.0)),
                }
            })
            .collect();
        let opts = crowd_options(case);
        let (got, want) = contacts_and_pairs_alone(&stage, &sprites, root, &opts);
        assert_eq!(got, want, "case {case}, {opts:?}");
        contacts += got.len();
    }
    assert!(contacts > 3000, "{contacts} contacts");
}

/// Slivers (a bitmap squashed to 0.01 to 0.3 of a pixel a texel one way and stretched 2 to
/// 40 the other, turned, sometimes skewed), regions of a shared sheet, smoothing on and off,
/// at tolerance 0, 127 and 255, anti-aliased and not, near the origin and far from it: the
/// kernel's row bounds and its whole-row tests (a row whose first and last centres lie in a
/// box) give the plain path's answer.
#[test]
fn slivers_regions_and_smoothing_give_the_plain_answer() {
    let mut rng = Rng::new(0x511c_e7a5);
    let sheet = bordered_bitmap(&mut rng, 64, 3);
    let mut hits = 0;
    for case in 0..3000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let (base, _) = pair_placement(&mut rng, case);
        let nodes = [0, 1].map(|k| {
            let image = match rng.int(0, 2) {
                0 => {
                    let (w, h) = (sheet.width(), sheet.height());
                    let (x, y) = (
                        rng.int(0, i64::from(w) - 1) as u32,
                        rng.int(0, i64::from(h) - 1) as u32,
                    );
                    let (rw, rh) = (
                        rng.int(1, i64::from(w - x)) as u32,
                        rng.int(1, i64::from(h - y)) as u32,
                    );
                    sheet.region(x, y, rw, rh).unwrap()
                }
                _ => bordered_bitmap(&mut rng, 40, 4),
            };
            let smoothing = rng.int(0, 4) == 0;
            let centre = DAffine2::from_translation(
                -DVec2::new(f64::from(image.width()), f64::from(image.height())) / 2.0,
            );
            let node = stage.add_bitmap(root, image, smoothing).unwrap();
            let at = base + DVec2::new(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0)) * f64::from(k);
            let m = match (k, rng.int(0, 3)) {
                (0, _) | (1, 0) => {
                    let (thin, long) = (rng.range(0.01, 0.3), rng.range(2.0, 40.0));
                    let (sx, sy) = if rng.coin() { (thin, long) } else { (long, thin) };
                    let turn = DAffine2::from_angle(rng.range(0.0, std::f64::consts::TAU));
                    let skew = match rng.coin() {
                        true => DAffine2::from_cols_array(&[1.0, 0.0, rng.range(-0.8, 0.8), 1.0, 0.0, 0.0]),
                        false => DAffine2::IDENTITY,
                    };
                    DAffine2::from_translation(at) * turn * skew * DAffine2::from_scale(DVec2::new(sx, sy))
                }
                _ => {
                    let skew = rng.coin();
                    random_matrix(&mut rng, (0.5, 2.5), skew, at)
                }
            };
            stage.set_matrix(node, m * centre).unwrap();
            node
        });
        let opts = CollisionOptions::default()
            .tolerance([0, 127, 255][case % 3])
            .anti_alias(case % 2 == 0)
            .max_pixels(1 << 26);
        let plain = assert_as_plain(&stage, (nodes[0], nodes[1]), root, &opts, case, case % 4 == 1);
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
    }
    // Slivers meet often enough to test something, and miss often enough too.
    assert!(hits > 300 && hits < 2700, "{hits} hits");
}

/// A bitmap whose solid texels are a shape the diagonals cut (a disc, a diamond, a
/// triangle or a lumpy rock, soft-edged or hard), placed so that it touches some sides of
/// the bitmap and keeps clear of others.
fn outlined_bitmap(rng: &mut Rng) -> Bitmap {
    let (w, h) = (rng.int(2, 48) as u32, rng.int(2, 48) as u32);
    let (cx, cy) = (
        rng.range(-0.2, 1.2) * f64::from(w),
        rng.range(-0.2, 1.2) * f64::from(h),
    );
    let r = rng.range(0.2, 0.8) * f64::from(w.max(h));
    let (kind, soft) = (rng.int(0, 3), rng.range(0.0, 3.0));
    let lumps = [rng.range(0.0, 0.15), rng.range(0.0, 6.3)];
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = (f64::from(x) + 0.5 - cx, f64::from(y) + 0.5 - cy);
            let inside = match kind {
                0 => r - dx.hypot(dy),
                1 => r - dx.abs() - dy.abs(),
                2 => (r - dx - dy).min(dx + r / 2.0).min(dy + r / 2.0),
                _ => r * (1.0 + lumps[0] * (5.0 * dy.atan2(dx) + lumps[1]).cos()) - dx.hypot(dy),
            };
            let a = ((inside / soft.max(0.01)) * 255.0 + 128.0).clamp(0.0, 255.0) as u8;
            rgba.extend_from_slice(&[30, 60, 90, a]);
        }
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

/// Pairs of sprites whose solid texels' octagon is much smaller than their box (discs,
/// diamonds, triangles, rocks): rows are read only where centres fall in both octagons
/// (with anti-aliasing, carried past the sides the solid texels touch), and windows are
/// cut to the octagons' pixels. Turned, scaled 0.01 to 100, skewed, colour-transformed,
/// near the origin and far from it, at tolerance 0, 127, 255 and others, anti-aliased and
/// not: the plain path's answers.
#[test]
fn solid_octagons_give_the_plain_answer() {
    let mut rng = Rng::new(0x0c7a_90d5);
    let mut hits = 0;
    for case in 0..3000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let (base, scale) = pair_placement(&mut rng, case);
        let reach = 12.0 * scale.1.min(4.0);
        let nodes = [0, 1].map(|k| {
            let image = outlined_bitmap(&mut rng);
            let centre = DAffine2::from_translation(
                -DVec2::new(f64::from(image.width()), f64::from(image.height())) / 2.0,
            );
            let node = stage.add_bitmap(root, image, false).unwrap();
            let at = base + DVec2::new(rng.range(-reach, reach), rng.range(-reach, reach)) * f64::from(k);
            let skew = rng.int(0, 3) == 0;
            let scale = if k == 0 { scale } else { (0.5, 2.5) };
            stage
                .set_matrix(node, random_matrix(&mut rng, scale, skew, at) * centre)
                .unwrap();
            if let Some(ct) = random_alpha_transform(&mut rng) {
                stage.set_color_transform(node, ct).unwrap();
            }
            node
        });
        let tolerance = match case % 4 {
            0 => 0,
            1 => 127,
            2 => 255,
            _ => random_tolerance(&mut rng),
        };
        let opts = CollisionOptions::default()
            .tolerance(tolerance)
            .anti_alias(case % 3 != 0)
            .max_pixels(1 << 26);
        let plain = assert_as_plain(&stage, (nodes[0], nodes[1]), root, &opts, case, case % 5 == 1);
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
    }
    assert!(hits > 600 && hits < 2400, "{hits} hits");
}

/// A bitmap keeps the table of its solid texels for the first tolerance its kernel is asked
/// at (read without bounds checks); any other tolerance reads the alphas, and an edit of
/// its pixels carries into the table. Two sprites (of one bitmap, or each of its own), asked
/// at one tolerance, then at another (0, 127, 255 or between, sometimes the same), then at
/// the first again, with paint and erase strokes between the asks, anti-aliased and not,
/// colour-transformed, scaled 0.01 to 100, near the origin and far from it: each ask is the
/// plain path's answer on a fresh copy of the stage.
#[test]
fn solid_tables_and_alphas_give_the_plain_answer() {
    let mut rng = Rng::new(0x5011_d7ab);
    let (mut hits, mut asks) = (0, 0);
    for case in 0..2500 {
        let mut stage = Stage::new();
        let root = stage.root();
        let (base, scale) = pair_placement(&mut rng, case);
        let reach = 16.0 * scale.1.min(4.0);
        let image = if case % 2 == 0 {
            outlined_bitmap(&mut rng)
        } else {
            bordered_bitmap(&mut rng, 40, 4)
        };
        let size = DVec2::new(f64::from(image.width()), f64::from(image.height()));
        let centre = DAffine2::from_translation(-size / 2.0);
        let ct = random_alpha_transform(&mut rng);
        // Shared (one table), or each sprite its own copy of the pixels: then an edit of the
        // first patches its texels, and its table, in place (a shared bitmap is copied).
        let shared = case % 4 < 2;
        let own = Bitmap::from_rgba8(image.width(), image.height(), image.rgba().into_owned()).unwrap();
        let mut images = [Some(image), Some(own)];
        let nodes = [0, 1].map(|k| {
            let bitmap = match (shared, k) {
                (true, 0) => images[0].clone(),
                (false, 0) | (true, _) => images[0].take(),
                _ => images[1].take(),
            };
            let node = stage.add_bitmap(root, bitmap.unwrap(), false).unwrap();
            if let Some(ct) = ct {
                stage.set_color_transform(node, ct).unwrap();
            }
            node
        });
        let first = [0, 127, 255][case % 3];
        let second = match rng.int(0, 5) {
            0 => first,
            _ => random_tolerance(&mut rng),
        };
        let anti_alias = case % 4 != 0;
        for (round, tolerance) in [first, second, first].into_iter().enumerate() {
            // New poses every round, so that each ask runs the kernels (a pose seen again is
            // drawn whole and read from its mask).
            for (k, &node) in nodes.iter().enumerate() {
                let at = base + DVec2::new(rng.range(-reach, reach), rng.range(-reach, reach)) * k as f64;
                let scale = if k == 0 { scale } else { (0.5, 2.5) };
                let skew = rng.int(0, 3) == 0;
                stage
                    .set_matrix(node, random_matrix(&mut rng, scale, skew, at) * centre)
                    .unwrap();
            }
            if round == 2 && rng.coin() {
                // An edit of the first sprite's pixels (its own copy from now on).
                let brush = pixelhit::Brush::Disc {
                    centre: DVec2::new(rng.range(0.0, size.x), rng.range(0.0, size.y)),
                    radius: rng.range(0.5, 8.0),
                };
                match rng.coin() {
                    true => stage.paint(nodes[0], &brush, [9, 9, 9, 255], rng.range(0.2, 1.0)),
                    false => stage.erase(nodes[0], &brush, rng.range(0.2, 1.0)),
                }
                .unwrap();
            }
            let opts = CollisionOptions::default()
                .tolerance(tolerance)
                .anti_alias(anti_alias)
                .max_pixels(1 << 26);
            let plain = stage
                .clone()
                .collision(nodes[0], nodes[1], root, &opts.fast_paths(false))
                .unwrap();
            let fast = stage.collision(nodes[0], nodes[1], root, &opts).unwrap();
            assert_eq!(fast, plain, "case {case} round {round}, {opts:?}");
            hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
            asks += 1;
        }
    }
    assert!(hits > asks / 5 && hits < asks * 4 / 5, "{hits} hits of {asks}");
}
