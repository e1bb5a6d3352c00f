//! Differential tests around the frame engine's fill kernel (issue 29): a fill's or a
//! stroke's solid pixels written straight into a bit mask, for the whole masks a
//! many-object query plans and for a lone pair compared by words. Every answer must be the
//! plain path's (`fast_paths(false)`: both alpha planes composited pixel by pixel) bit for
//! bit, over random cases: stars, scribbles and rectangles under both fill rules, strokes,
//! colour transforms, tolerance 0, 127, 255 and between, anti-aliased and not, scales 0.01
//! to 100, turned and skewed, far from the origin. The pairs test holds the routes a lone
//! pair of such sprites takes (the kernel against a kernel or a kept mask, cold and warm)
//! to the same standard.

use crate::common::{
    Rng, assert_as_plain, bordered_bitmap, contacts_and_pairs_alone, pair_placement, random_matrix, scribble,
    star,
};
use pixelhit::{CollisionOptions, ColorTransform, DAffine2, DVec2, FillRule, Graphic, NodeId, Path, Stage};

/// A random vector sprite (a fill under either rule, or a stroke) of about `r` px in its
/// own units, or now and then a bitmap, placed at `at` by a random pose of scale `scale`.
fn sprite(rng: &mut Rng, stage: &mut Stage, parent: NodeId, at: DVec2, scale: (f64, f64)) -> NodeId {
    let r = rng.range(4.0, 20.0);
    let n = rng.int(0, 8) as usize;
    let points: Vec<(f64, f64)> = match rng.int(0, 3) {
        0 => star(rng, 5 + n / 2, 0.4 * r, r),
        1 => scribble(rng, 3 + n, r),
        _ => vec![
            DVec2::new(-r, -0.6 * r),
            DVec2::new(r, -0.6 * r),
            DVec2::new(r, 0.6 * r),
            DVec2::new(-r, 0.6 * r),
        ],
    }
    .iter()
    .map(|p| (p.x, p.y))
    .collect();
    let path = Path::polygon(&points);
    let alpha = if rng.coin() { 1.0 } else { rng.range(0.05, 1.0) };
    let node = match rng.int(0, 6) {
        0 => {
            let image = bordered_bitmap(rng, 32, 3);
            let n = stage.add_bitmap(parent, image, false).unwrap();
            let centre = DAffine2::from_translation(DVec2::new(-16.0, -16.0));
            let skew = rng.coin();
            stage
                .set_matrix(n, random_matrix(rng, scale, skew, at) * centre)
                .unwrap();
            return n;
        }
        1 => Graphic::stroke(path, rng.range(0.3, 4.0), alpha).unwrap(),
        k => {
            let rule = if k % 2 == 0 {
                FillRule::NonZero
            } else {
                FillRule::EvenOdd
            };
            Graphic::fill(path, rule, alpha).unwrap()
        }
    };
    let n = stage.add_container(parent).unwrap();
    stage.add_graphic(n, node).unwrap();
    let m = match rng.int(0, 4) {
        0 => DAffine2::from_translation(at.round()),
        1 => random_matrix(rng, scale, true, at),
        _ => random_matrix(rng, scale, false, at),
    };
    stage.set_matrix(n, m).unwrap();
    if rng.int(0, 4) == 0 {
        let ct = ColorTransform::new(
            [1.0, 1.0, 1.0, rng.range(0.2, 1.5)],
            [0.0, 0.0, 0.0, rng.range(-60.0, 60.0)],
        );
        stage.set_color_transform(n, ct).unwrap();
    }
    n
}

fn random_options(rng: &mut Rng) -> CollisionOptions {
    let tolerance = match rng.int(0, 4) {
        0 => 0,
        1 => 255,
        2 => 127,
        _ => rng.int(0, 255) as u8,
    };
    CollisionOptions::default()
        .tolerance(tolerance)
        .anti_alias(rng.int(0, 3) > 0)
        .max_pixels(1 << 26)
}

/// Pairs of a fill or stroke against a fill, a stroke or a bitmap, asked cold and then
/// again and again (poses seen before become kept rasters): the plain path's answer.
/// These are the sprites the crowds below are made of, asked one pair at a time.
#[test]
fn fill_words_give_the_plain_answer() {
    let mut rng = Rng::new(0xf111_b175);
    let mut hits = 0;
    for case in 0..3000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let (base, scale) = pair_placement(&mut rng, case);
        let reach = 8.0 * scale.1.min(4.0);
        let a = sprite(&mut rng, &mut stage, root, base, scale);
        let off = DVec2::new(rng.range(-reach, reach), rng.range(-reach, reach));
        let b = sprite(&mut rng, &mut stage, root, base + off, (0.5, 2.5));
        let opts = random_options(&mut rng);
        let plain = assert_as_plain(&stage, (a, b), root, &opts, case, true);
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
    }
    assert!(hits > 800, "{hits} touching pairs");
}

/// Dense crowds of vector sprites (and a few bitmaps), whose targets are planned whole:
/// every contact is the one the pair asked alone on the plain path gives.
#[test]
fn planned_fill_crowds_give_every_pair_alone() {
    let mut rng = Rng::new(0xc40f_f111);
    let mut contacts = 0;
    for case in 0..120 {
        let mut stage = Stage::new();
        let root = stage.root();
        let far = [0.0, 2e6, -1e9][case % 3];
        let sprites: Vec<NodeId> = (0..12)
            .map(|_| {
                let at = DVec2::new(far + rng.range(0.0, 50.0), rng.range(0.0, 50.0));
                let scale = if rng.int(0, 8) == 0 {
                    (0.01, 0.3)
                } else {
                    (0.5, 2.0)
                };
                sprite(&mut rng, &mut stage, root, at, scale)
            })
            .collect();
        let opts = random_options(&mut rng).parallel(case % 2 == 1);
        let (got, want) = contacts_and_pairs_alone(&stage, &sprites, root, &opts);
        assert_eq!(got, want, "case {case}, {opts:?}");
        contacts += got.len();
    }
    assert!(contacts > 1200, "{contacts} contacts");
}
