//! Differential tests of the frame engine's kernel for pygame-rendered bitmaps
//! (`raster::pygame_bits`, semantics.md 4.9): a pair in which a target is one bitmap drawn
//! by `rotate` or `rotozoom` is answered by writing its solid pixels straight into bit
//! masks and comparing words, and a crowd of them has its targets' whole masks made by the
//! same kernel. Both must give the plain path's answer (the surfaces' rows computed as
//! bytes and composited, `fast_paths(false)`) bit for bit, over thousands of random pairs:
//! rotate and rotozoom (and its zoom-only path), flips, both flavours, hard (colour-key
//! like) and soft art with clear borders, colour transforms, tolerance 0, 127 and 255 and
//! between, angles negative, past 360, at and near multiples of 90, scales 0.1 to 5, and
//! windows that cut the surfaces (sprites half over each other, and against plain bitmaps
//! and fills).

use crate::common::{
    Rng, assert_as_plain, bordered_bitmap, contacts_and_pairs_alone, crowd_options, random_tolerance,
};
use pixelhit::{
    Bitmap, BitmapRenderer, CollisionOptions, ColorTransform, FillRule, Graphic, NodeId, Path, PygameFlavour,
    PygameTransform, Stage,
};

/// Random art: `bordered_bitmap`'s soft, clear and opaque texels, or hard art (alpha 0 or
/// 255 only, as a colour key makes it), or a soft disc.
fn art(rng: &mut Rng) -> Bitmap {
    match rng.int(0, 6) {
        // A disc with holes, or thin bars: outlines much smaller than the box, and rows
        // that cross clear texels inside them.
        4 | 5 => {
            let (w, h) = (rng.int(3, 48) as u32, rng.int(3, 48) as u32);
            let bars = rng.coin();
            let holes: Vec<(f64, f64, f64)> = (0..rng.int(0, 3))
                .map(|_| {
                    (
                        rng.range(0.0, f64::from(w)),
                        rng.range(0.0, f64::from(h)),
                        rng.range(1.0, 6.0),
                    )
                })
                .collect();
            let (rim, core) = (rng.int(1, 255) as u8, rng.pick(&[255u8, 200, 128, 127]));
            let rgba = (0..w * h)
                .flat_map(|k| {
                    let (x, y) = (f64::from(k % w) + 0.5, f64::from(k / w) + 0.5);
                    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
                    let r = ((x - cx) / cx).hypot((y - cy) / cy);
                    let hole = holes.iter().any(|&(hx, hy, hr)| (x - hx).hypot(y - hy) < hr);
                    let a = match bars {
                        true if (k % w) % 5 == 2 || (k / w) % 7 == 3 => core,
                        true => 0,
                        false if hole || r >= 1.0 => 0,
                        false if r < 0.8 => core,
                        false => rim,
                    };
                    [4, 5, 6, a]
                })
                .collect();
            Bitmap::from_rgba8(w, h, rgba).unwrap()
        }
        0 => bordered_bitmap(rng, 40, 3),
        1 => bordered_bitmap(rng, 40, 4),
        2 => {
            let (w, h) = (rng.int(1, 40) as u32, rng.int(1, 40) as u32);
            let rgba = (0..w * h)
                .flat_map(|_| [5, 6, 7, if rng.int(0, 3) == 0 { 0 } else { 255 }])
                .collect();
            Bitmap::from_rgba8(w, h, rgba).unwrap()
        }
        _ => {
            let s = rng.int(2, 40) as u32;
            let c = f64::from(s) / 2.0;
            let rgba = (0..s * s)
                .flat_map(|k| {
                    let (x, y) = (f64::from(k % s) + 0.5 - c, f64::from(k / s) + 0.5 - c);
                    let a = (255.0 * (c - x.hypot(y)) / 3.0).clamp(0.0, 255.0) as u8;
                    [1, 2, 3, a]
                })
                .collect();
            Bitmap::from_rgba8(s, s, rgba).unwrap()
        }
    }
}

fn angle(rng: &mut Rng) -> f64 {
    let quarter = f64::from(rng.int(-8, 8) as i32) * 90.0;
    match rng.int(0, 4) {
        0 => quarter,
        1 => quarter + rng.pick(&[-1e-3, 1e-3, -1e-4, 2e-4, 0.5, -0.5, 0.0011]),
        _ => rng.range(-800.0, 800.0),
    }
}

fn transform(rng: &mut Rng) -> PygameTransform {
    let t = match rng.int(0, 3) {
        0 => PygameTransform::rotate(angle(rng)),
        _ => PygameTransform::rotozoom(angle(rng), rng.range(0.1, 5.0)),
    };
    let flavour = match rng.coin() {
        true => PygameFlavour::Pygame,
        false => PygameFlavour::PygameCe,
    };
    t.flip(rng.coin(), rng.coin()).flavour(flavour)
}

/// A rendered sprite with its surface's top-left near `at`, now and then colour-transformed.
fn rendered(rng: &mut Rng, stage: &mut Stage, parent: NodeId, at: (f64, f64)) -> NodeId {
    let node = stage.add_bitmap(parent, art(rng), false).unwrap();
    stage
        .set_bitmap_renderer(node, Some(BitmapRenderer::Pygame(transform(rng))))
        .unwrap();
    stage.set_position(node, at.0.round(), at.1.round()).unwrap();
    if rng.int(0, 4) == 0 {
        let ct = ColorTransform::new(
            [1.0, 1.0, 1.0, rng.range(0.2, 1.5)],
            [0.0, 0.0, 0.0, rng.range(-60.0, 60.0)],
        );
        stage.set_color_transform(node, ct).unwrap();
    }
    node
}

/// The other target: another rendered sprite mostly, else a plain bitmap (turned now and
/// then) or a fill, so that the kernel meets the bitmap kernel and the general route.
fn other(rng: &mut Rng, stage: &mut Stage, parent: NodeId, at: (f64, f64)) -> NodeId {
    match rng.int(0, 6) {
        0 => {
            let node = stage.add_bitmap(parent, art(rng), false).unwrap();
            let turn = if rng.coin() { 0.0 } else { rng.range(-180.0, 180.0) };
            stage.set_transform(node, at.0, at.1, turn, 1.0, 1.0).unwrap();
            node
        }
        1 => {
            let node = stage.add_container(parent).unwrap();
            let pts: Vec<(f64, f64)> = (0..3 + rng.int(0, 4))
                .map(|_| (at.0 + rng.range(0.0, 40.0), at.1 + rng.range(0.0, 40.0)))
                .collect();
            let g = Graphic::fill(Path::polygon(&pts), FillRule::NonZero, rng.range(0.3, 1.0));
            stage.add_graphic(node, g.unwrap()).unwrap();
            node
        }
        _ => rendered(rng, stage, parent, at),
    }
}

#[test]
fn rendered_words_give_the_plain_answer() {
    let mut rng = Rng::new(0x9a3e_b175);
    let (mut hits, mut cases) = (0, 0);
    for case in 0..6000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let base = (rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        let a = rendered(&mut rng, &mut stage, root, base);
        let at = (base.0 + rng.range(-40.0, 40.0), base.1 + rng.range(-40.0, 40.0));
        let b = other(&mut rng, &mut stage, root, at);
        let (a, b) = if rng.coin() { (a, b) } else { (b, a) };
        let opts = CollisionOptions::default()
            .tolerance(random_tolerance(&mut rng))
            .anti_alias(rng.coin());
        let plain = assert_as_plain(&stage, (a, b), root, &opts, case, false);
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
        cases += 1;
    }
    assert!(hits > cases / 5 && hits < cases * 4 / 5, "{hits} hits of {cases}");
}

/// Crowds of rendered sprites close enough that targets are planned whole (each one's mask
/// made once by the kernel and read by all its pairs): `contacts_among` gives what each
/// pair asked alone on the plain path gives, on one thread and on several.
#[test]
fn rendered_crowds_give_every_pair_alone() {
    let mut rng = Rng::new(0x51c0_44e1);
    let mut contacts = 0;
    for case in 0..120 {
        let mut stage = Stage::new();
        let root = stage.root();
        let sprites: Vec<NodeId> = (0..12)
            .map(|_| {
                let at = (rng.range(0.0, 40.0), rng.range(0.0, 40.0));
                match rng.int(0, 5) {
                    0 => other(&mut rng, &mut stage, root, at),
                    _ => rendered(&mut rng, &mut stage, root, at),
                }
            })
            .collect();
        let opts = crowd_options(case);
        let (got, want) = contacts_and_pairs_alone(&stage, &sprites, root, &opts);
        assert_eq!(got, want, "case {case}, {opts:?}");
        contacts += got.len();
    }
    assert!(contacts > 1000, "{contacts} contacts");
}
