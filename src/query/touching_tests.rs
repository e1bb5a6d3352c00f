//! [`Stage::touching_among`] against [`Stage::contacts_among`]: the same pairs in the same
//! order (and the same error) over random crowds, each query on its own copy of the stage
//! (an empty cache, so neither reads the other's kept answers); and counts of the work a
//! touching pair stops early with.

use std::cell::Cell;

use crate::query::budget_tests::Rng;
use crate::query::lazy_mask::BANDS_MADE;
use crate::query::touching::{BAND_TEXELS, FORCE_BANDS, WORDS_COMPARED};
use crate::{
    Bitmap, BitmapRenderer, CollisionOptions, ColorTransform, FillRule, Graphic, NodeId, Path, PygameFlavour,
    PygameTransform, Stage,
};

/// A `size` px bitmap of random art: a lumpy disc with a soft rim (alpha falling off),
/// holes and a thin bar, or noise.
fn art(rng: &mut Rng) -> Bitmap {
    let (w, h) = (4 + rng.below(40) as u32, 4 + rng.below(40) as u32);
    let noise = rng.below(5) == 0;
    let hole = (rng.range(0.2, 0.8), rng.range(0.2, 0.8));
    let rim = rng.below(256) as f64;
    let rgba = (0..w * h)
        .flat_map(|k| {
            let (x, y) = (
                (f64::from(k % w) + 0.5) / f64::from(w) - 0.5,
                (f64::from(k / w) + 0.5) / f64::from(h) - 0.5,
            );
            let d = (x * x + y * y).sqrt() * 2.0;
            let in_hole = (x + 0.5 - hole.0).hypot(y + 0.5 - hole.1) < 0.12;
            let bar = (y - 0.3).abs() < 0.04;
            let a = match () {
                _ if noise => ((k as u64).wrapping_mul(0x9e37_79b9) >> 7) as u8,
                _ if bar => 255,
                _ if in_hole || d >= 1.0 => 0,
                _ if d < 0.7 => 255,
                _ => (rim * (1.0 - d) / 0.3) as u8,
            };
            [20, 30, 40, a]
        })
        .collect();
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

/// An angle, a quarter of the time a multiple of 90 degrees (negative or past 360), or
/// within a hair of one.
fn angle(rng: &mut Rng) -> f64 {
    let right = 90.0 * (rng.below(9) as f64 - 4.0);
    match rng.below(4) {
        0 => right,
        1 => right + rng.range(-0.01, 0.01),
        _ => rng.range(-400.0, 400.0),
    }
}

/// A sprite of one to three items: pygame-rendered bitmaps (rotate, rotozoom, flips, both
/// flavours, scales 0.1 to 5), unsmoothed and smoothed bitmaps turned and scaled, fills;
/// sometimes a colour transform, a mask or a scroll rect; placed around `origin`.
fn sprite(stage: &mut Stage, world: NodeId, rng: &mut Rng, origin: (f64, f64)) -> NodeId {
    let s = stage.add_container(world).unwrap();
    let items = if rng.below(3) == 0 { 2 + rng.below(2) } else { 1 };
    let mut first = None;
    for _ in 0..items {
        let item = match rng.below(6) {
            0..=2 => {
                let n = stage.add_bitmap(s, art(rng), false).unwrap();
                let t = match rng.below(2) {
                    0 => PygameTransform::rotate(angle(rng)),
                    _ => PygameTransform::rotozoom(angle(rng), rng.range(0.1, 5.0)),
                };
                let flavour = [PygameFlavour::Pygame, PygameFlavour::PygameCe][rng.below(2) as usize];
                let t = t.flip(rng.below(2) == 0, rng.below(2) == 0).flavour(flavour);
                stage
                    .set_bitmap_renderer(n, Some(BitmapRenderer::Pygame(t)))
                    .unwrap();
                stage
                    .set_position(n, rng.below(9) as f64 - 4.0, rng.below(9) as f64 - 4.0)
                    .unwrap();
                n
            }
            3 | 4 => {
                let n = stage.add_bitmap(s, art(rng), rng.below(2) == 0).unwrap();
                stage.set_rotation(n, angle(rng)).unwrap();
                stage.set_scale(n, rng.range(0.1, 5.0)).unwrap();
                stage
                    .set_position(n, rng.range(-8.0, 8.0), rng.range(-8.0, 8.0))
                    .unwrap();
                n
            }
            _ => {
                let pts: Vec<(f64, f64)> = (0..3 + rng.below(5))
                    .map(|_| (rng.range(-14.0, 14.0), rng.range(-14.0, 14.0)))
                    .collect();
                let g = Graphic::fill(Path::polygon(&pts), FillRule::NonZero, rng.range(0.3, 1.0));
                let c = stage.add_container(s).unwrap();
                stage.add_graphic(c, g.unwrap()).unwrap();
                stage.set_rotation(c, rng.range(0.0, 360.0)).unwrap();
                c
            }
        };
        if rng.below(8) == 0 {
            let ct = ColorTransform {
                alpha_multiplier: rng.range(0.0, 1.5),
                alpha_offset: rng.range(-100.0, 100.0),
                ..ColorTransform::IDENTITY
            };
            stage.set_color_transform(item, ct).unwrap();
        }
        first.get_or_insert(item);
    }
    match rng.below(10) {
        0 => {
            let mask = stage.add_container(s).unwrap();
            let square = Graphic::fill(Path::rect(-8.0, -8.0, 16.0, 16.0), FillRule::NonZero, 1.0);
            stage.add_graphic(mask, square.unwrap()).unwrap();
            stage.set_mask(first.unwrap(), Some(mask)).unwrap();
        }
        1 => {
            let r = [rng.range(-10.0, 0.0), rng.range(-10.0, 0.0), 14.0, 12.0];
            stage.set_scroll_rect(first.unwrap(), Some(r)).unwrap();
        }
        _ => {}
    }
    // Whole pixels, as a pygame-rendered item needs, but now and then (an error then,
    // which both queries must give alike).
    let fraction = if rng.below(40) == 0 { 0.5 } else { 0.0 };
    stage
        .set_position(
            s,
            (origin.0 + rng.range(0.0, 80.0)).round() + fraction,
            (origin.1 + rng.range(0.0, 80.0)).round(),
        )
        .unwrap();
    s
}

/// The pairs a query gives.
type Pairs = crate::Result<Vec<(NodeId, NodeId)>>;

/// What each query gives, on its own copy of the stage.
fn both(stage: &Stage, sprites: &[NodeId], world: NodeId, opts: &CollisionOptions) -> (Pairs, Pairs) {
    let touching = stage.clone().touching_among(sprites, world, opts);
    let contacts = stage
        .clone()
        .contacts_among(sprites, world, opts)
        .map(|c| c.iter().map(|c| (c.a, c.b)).collect());
    (touching, contacts)
}

/// Thousands of random crowds: `touching_among` gives exactly `contacts_among`'s pairs, or
/// its error, whatever the art, the options and the place.
#[test]
fn touching_among_gives_the_contacts_pairs() {
    let mut rng = Rng(0x70c4_1a2e);
    let (mut cases, mut pairs, mut touching, mut refused) = (0, 0, 0, 0);
    let bands_before = BANDS_MADE.with(Cell::get).0;
    for case in 0..1_500 {
        let mut stage = Stage::new();
        let world = stage.add_container(stage.root()).unwrap();
        // Far from the origin a fifth of the time.
        let far = [0.0, 0.0, 0.0, 0.0, 3.0e6][rng.below(5) as usize];
        let origin = (far * rng.range(-1.0, 1.0), far * rng.range(-1.0, 1.0));
        let n = 2 + rng.below(12);
        let mut sprites: Vec<NodeId> = (0..n)
            .map(|_| sprite(&mut stage, world, &mut rng, origin))
            .collect();
        // A repeated object counts once.
        if rng.below(10) == 0 {
            sprites.push(sprites[0]);
        }
        let mut opts = CollisionOptions::default()
            .tolerance([0, 127, 255][rng.below(3) as usize])
            .anti_alias(rng.below(2) == 0)
            .parallel(rng.below(2) == 0);
        if rng.below(20) == 0 {
            opts = opts.precise(false);
        }
        if rng.below(20) == 0 {
            opts = opts.fast_paths(false);
        }
        if rng.below(20) == 0 {
            opts = opts.skip_hidden(true);
            stage.set_visible(sprites[0], false).unwrap();
        }
        // Planned targets by bands half the time, whole the other half.
        FORCE_BANDS.with(|f| f.set(Some(case % 2 == 0)));
        let (got, want) = both(&stage, &sprites, world, &opts);
        FORCE_BANDS.with(|f| f.set(None));
        match (&got, &want) {
            (Ok(got), Ok(want)) => {
                assert_eq!(got, want, "case {case}, {opts:?}");
                touching += got.len();
                pairs += n * (n - 1) / 2;
            }
            (Err(a), Err(b)) => {
                assert_eq!(a.to_string(), b.to_string(), "case {case}");
                if refused < 5 {
                    eprintln!("{a}");
                }
                refused += 1;
            }
            _ => panic!("case {case}: {got:?} against {want:?}"),
        }
        cases += 1;
    }
    let bands = BANDS_MADE.with(Cell::get).0 - bands_before;
    eprintln!("{cases} crowds, {pairs} pairs, {touching} touching, {refused} refused; {bands} bands made");
    // The crowds are dense enough that many pairs touch and many targets go by bands.
    assert!(touching > 3_000, "{touching} touching pairs");
    assert!(bands > 3_000, "{bands} bands made");
}

/// The same over frames of one crowd of pygame-rendered rocks turning and drifting, the
/// pixelhit.pygame case, with the answers kept in a frame read by the other query.
#[test]
fn touching_among_follows_a_turning_crowd() {
    let mut rng = Rng(0x0bad_5eed);
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let images: Vec<Bitmap> = (0..3).map(|_| art(&mut rng)).collect();
    let rocks: Vec<NodeId> = (0..60)
        .map(|k| stage.add_bitmap(world, images[k % 3].clone(), false).unwrap())
        .collect();
    let mut touching = 0;
    for frame in 0..40 {
        for &r in &rocks {
            let t = match frame % 2 {
                0 => PygameTransform::rotate(angle(&mut rng)),
                _ => PygameTransform::rotozoom(angle(&mut rng), rng.range(0.5, 2.0)),
            };
            stage
                .set_bitmap_renderer(r, Some(BitmapRenderer::Pygame(t)))
                .unwrap();
            stage
                .set_position(r, rng.below(120) as f64, rng.below(120) as f64)
                .unwrap();
        }
        let opts = CollisionOptions::default()
            .tolerance(127)
            .anti_alias(false)
            .parallel(frame % 3 == 0);
        FORCE_BANDS.with(|f| f.set(Some(frame % 2 == 1)));
        let (got, want) = both(&stage, &rocks, world, &opts);
        let (got, want) = (got.unwrap(), want.unwrap());
        assert_eq!(got, want, "frame {frame}");
        // Asked on the stage itself after the contacts: read from the kept answers.
        let contacts = stage.contacts_among(&rocks, world, &opts).unwrap();
        let kept = stage.touching_among(&rocks, world, &opts).unwrap();
        assert!(contacts.iter().map(|c| (c.a, c.b)).eq(kept.iter().copied()));
        FORCE_BANDS.with(|f| f.set(None));
        touching += got.len();
    }
    assert!(touching > 1_000, "{touching} touching pairs");
}

/// A 40 px square bitmap, opaque in the columns whose index has parity `odd` (all when
/// `None`), drawn by `rotate(0)` (a copy) at `(x, 0)`.
fn comb(stage: &mut Stage, odd: Option<u32>, x: f64) -> NodeId {
    let rgba = (0..40 * 40)
        .flat_map(|k: u32| {
            [
                9,
                9,
                9,
                if odd.is_none_or(|o| k % 40 % 2 == o) {
                    255
                } else {
                    0
                },
            ]
        })
        .collect();
    let root = stage.root();
    let n = stage
        .add_bitmap(root, Bitmap::from_rgba8(40, 40, rgba).unwrap(), false)
        .unwrap();
    let t = PygameTransform::rotate(0.0);
    stage
        .set_bitmap_renderer(n, Some(BitmapRenderer::Pygame(t)))
        .unwrap();
    stage.set_position(n, x, 0.0).unwrap();
    n
}

/// The pairs `touching_among` gives for `nodes`, the bands it made, the words it compared
/// and the pairs it scanned by rows.
fn counted(stage: &Stage, nodes: &[NodeId]) -> (Vec<(NodeId, NodeId)>, u64, u64, u64) {
    let opts = CollisionOptions::default().parallel(false);
    let (bands, words) = (BANDS_MADE.with(Cell::get), WORDS_COMPARED.with(Cell::get));
    FORCE_BANDS.with(|f| f.set(Some(true)));
    let got = stage.touching_among(nodes, stage.root(), &opts).unwrap();
    FORCE_BANDS.with(|f| f.set(None));
    let bands = BANDS_MADE.with(Cell::get).0 - bands.0;
    let now = WORDS_COMPARED.with(Cell::get);
    (got, bands, now.0 - words.0, now.1 - words.1)
}

/// Three opaque 40 px squares 10 px apart, each in two pairs (so planned whole, by
/// bands): every pair touches, and stops at its first word, its middle row's, having made
/// the middle band of each target not made yet: 3 bands of the 15, 3 words.
#[test]
fn a_touching_pair_stops_at_its_first_word() {
    let mut stage = Stage::new();
    let nodes: Vec<NodeId> = [0.0, 10.0, 20.0]
        .into_iter()
        .map(|x| comb(&mut stage, None, x))
        .collect();
    let (got, bands, words, scanned) = counted(&stage, &nodes);
    assert_eq!(
        got,
        [(nodes[0], nodes[1]), (nodes[0], nodes[2]), (nodes[1], nodes[2])]
    );
    assert_eq!((scanned, words, bands), (3, 3, 3));
}

/// The same squares as combs of alternate columns, the middle one's odd: the two even
/// ones touch (their middle row's first word, and the one band of the third not made
/// yet), and each pair with the odd one reads its whole window (40 rows of one word) and
/// makes all its bands.
#[test]
fn a_pair_that_does_not_touch_reads_its_whole_window() {
    let mut stage = Stage::new();
    let nodes = [
        comb(&mut stage, Some(0), 0.0),
        comb(&mut stage, Some(1), 10.0),
        comb(&mut stage, Some(0), 20.0),
    ];
    let (got, bands, words, scanned) = counted(&stage, &nodes);
    assert_eq!(got, [(nodes[0], nodes[2])]);
    assert_eq!((scanned, words, bands), (3, 40 + 1 + 40, 15));
}

/// A `size` px rock as the asteroids bench draws one, roughly: an opaque disc with a rim
/// of alpha 120 and a hole.
fn rock(size: u32) -> Bitmap {
    let c = f64::from(size) / 2.0;
    let rgba = (0..size * size)
        .flat_map(|k| {
            let (x, y) = (f64::from(k % size) + 0.5 - c, f64::from(k / size) + 0.5 - c);
            let d = x.hypot(y) / c;
            let hole = (x - c * 0.3).hypot(y + c * 0.2) < c * 0.2;
            let a = match () {
                _ if hole || d >= 0.95 => 0,
                _ if d < 0.8 => 255,
                _ => 120,
            };
            [150, 140, 120, a]
        })
        .collect();
    Bitmap::from_rgba8(size, size, rgba).unwrap()
}

/// The pixels of masks a frame of `prof_pygame`'s scene makes (1,000 rocks of 44, 32 and
/// 22 px turned every frame, tolerance 127), and the texels the kernels read for them:
/// whole masks for `contacts_among` against bands for `touching_among`, the same pairs.
/// Counted, printed, and held to bounds.
#[test]
fn bands_make_fewer_pixels_than_whole_masks_on_the_rocks_scene() {
    use crate::query::target_memo::tests::{WHOLE_MASK_PIXELS, WHOLE_MASK_TEXELS};
    for rotozoom in [false, true] {
        let mut rng = Rng(0x2a57_e401);
        let mut stage = Stage::new();
        let world = stage.add_container(stage.root()).unwrap();
        let sizes = [44u32, 32, 22];
        let images: Vec<Bitmap> = sizes.iter().map(|&s| rock(s)).collect();
        let n = 1_000;
        let field = (n as f64).sqrt() * 34.0;
        let rocks: Vec<(NodeId, usize)> = (0..n)
            .map(|k| {
                (
                    stage.add_bitmap(world, images[k % 3].clone(), false).unwrap(),
                    k % 3,
                )
            })
            .collect();
        let opts = CollisionOptions::default().tolerance(127).parallel(false);
        let (mut whole, mut bands, mut pairs, mut texels) = (0, 0, 0, (0, 0));
        let frames = 3;
        for _ in 0..frames {
            for &(r, k) in &rocks {
                let t = match rotozoom {
                    false => PygameTransform::rotate(rng.range(0.0, 360.0)),
                    true => PygameTransform::rotozoom(rng.range(0.0, 360.0), [0.75, 1.0, 1.25][k]),
                };
                let (w, h) = t.output_size(sizes[k], sizes[k]);
                let (x, y) = (rng.range(0.0, field).round(), rng.range(0.0, field).round());
                stage
                    .set_bitmap_renderer(r, Some(BitmapRenderer::Pygame(t)))
                    .unwrap();
                stage
                    .set_position(r, x - f64::from(w / 2), y - f64::from(h / 2))
                    .unwrap();
            }
            let nodes: Vec<NodeId> = rocks.iter().map(|r| r.0).collect();
            let before = (
                WHOLE_MASK_PIXELS.with(Cell::get),
                BANDS_MADE.with(Cell::get).1,
                WHOLE_MASK_TEXELS.with(Cell::get),
                BAND_TEXELS.with(Cell::get),
            );
            FORCE_BANDS.with(|f| f.set(Some(true)));
            let (got, want) = both(&stage, &nodes, world, &opts);
            FORCE_BANDS.with(|f| f.set(None));
            assert_eq!(got.as_ref().unwrap(), want.as_ref().unwrap());
            whole += WHOLE_MASK_PIXELS.with(Cell::get) - before.0;
            bands += BANDS_MADE.with(Cell::get).1 - before.1;
            texels.0 += WHOLE_MASK_TEXELS.with(Cell::get) - before.2;
            texels.1 += BAND_TEXELS.with(Cell::get) - before.3;
            pairs += got.unwrap().len();
        }
        let (whole, bands, pairs) = (whole / frames, bands / frames, pairs / frames as usize);
        let texels = (texels.0 / frames, texels.1 / frames);
        eprintln!(
            "rotozoom {rotozoom}: {pairs} touching pairs a frame; mask pixels made a frame: {whole} whole, \
             {bands} by bands; texels read {} whole, {} by bands",
            texels.0, texels.1
        );
        assert!(pairs > 200, "{pairs} touching pairs");
        // Bands leave out about half the masks' pixels and over a third of their texels.
        // (The frame still costs more by bands: docs/frame-engine.md, "Yes or no".)
        assert!(
            bands * 4 < whole * 3,
            "{bands} pixels by bands against {whole} whole"
        );
        assert!(texels.1 * 4 < texels.0 * 3, "{texels:?} texels read");
    }
}
