//! Where the frame engine's kernel for pygame-rendered bitmaps spends its work, counted
//! (`raster::pygame_bits`): a pair reads only the pixels whose step can fall on a solid
//! texel (a small solid core in a large clear sprite costs its core, not its surface), and
//! nothing at all when no texel can reach the threshold.

use crate::raster::{BitsCounts, last_bits_counts};
use crate::{Bitmap, BitmapRenderer, CollisionOptions, ColorTransform, PygameTransform, Stage};

/// A `size` px square bitmap, clear but for an opaque `core` x `core` square in its middle.
fn cored(size: u32, core: u32) -> Bitmap {
    let lo = (size - core) / 2;
    let inside = |c: u32| (lo..lo + core).contains(&c);
    let rgba = (0..size * size)
        .flat_map(|k| {
            [
                7,
                7,
                7,
                if inside(k % size) && inside(k / size) {
                    255
                } else {
                    0
                },
            ]
        })
        .collect();
    Bitmap::from_rgba8(size, size, rgba).unwrap()
}

/// Two cored sprites drawn by `rotate(30)` and `rotozoom(-20, 1.5)` (flipped), their cores
/// over each other: the answer, what the kernel counted, and the pair's window in pixels.
fn pair(core: u32, ct: ColorTransform, opts: &CollisionOptions) -> (Option<u64>, BitsCounts, i64) {
    let mut stage = Stage::new();
    let root = stage.root();
    let mut add = |t: PygameTransform, at: f64| {
        let n = stage.add_bitmap(root, cored(60, core), false).unwrap();
        let (w, _) = t.output_size(60, 60);
        let left = at - f64::from(w / 2);
        stage
            .set_bitmap_renderer(n, Some(BitmapRenderer::Pygame(t)))
            .unwrap();
        stage.set_position(n, left, left).unwrap();
        stage.set_color_transform(n, ct).unwrap();
        n
    };
    let a = add(PygameTransform::rotate(30.0), 100.0);
    let b = add(PygameTransform::rotozoom(-20.0, 1.5).flip(true, false), 103.0);
    let r = stage
        .collision(a, b, root, &opts.precise(false))
        .unwrap()
        .rect
        .unwrap();
    let window = ((r.right() - r.left()) * (r.bottom() - r.top())) as i64;
    let hit = stage.collision(a, b, root, opts).unwrap();
    let counts = last_bits_counts();
    let plain = stage
        .clone()
        .collision(a, b, root, &opts.fast_paths(false))
        .unwrap();
    assert_eq!(hit, plain);
    (hit.overlap_pixels, counts, window)
}

#[test]
fn a_pair_reads_the_pixels_over_its_solid_texels_only() {
    let opts = CollisionOptions::default().tolerance(127);
    let core = 8;
    let (hits, counts, window) = pair(core, ColorTransform::IDENTITY, &opts);
    eprintln!("{hits:?} hits, {counts:?}, window {window}");
    assert!(hits.unwrap() > 0);
    // The core covers at most (8 x 1)^2 pixels turned and (9 x 1.5)^2 zoomed, stepped or
    // blended; each pixel whose step falls in it is read once, with a row of slack each
    // side for the pixels a turned edge cuts.
    let (a, b) = (f64::from(core), f64::from(core + 1) * 1.5);
    let bound = (a * a + 4.0 * a + b * b + 4.0 * b) as u64;
    assert!(
        counts.texels_read > 0 && counts.texels_read <= bound,
        "{counts:?} bound {bound}"
    );
    // The surfaces are 60 px and more a side: their overlap is far larger than the cores.
    assert!(window > 10 * bound as i64, "window {window}");
}

#[test]
fn nothing_is_read_when_no_texel_reaches_the_threshold() {
    // Alpha times 0.5 never reaches 255: tolerance 0 asks for fully opaque pixels.
    let faded = ColorTransform::new([1.0, 1.0, 1.0, 0.5], [0.0; 4]);
    let (hits, counts, _) = pair(8, faded, &CollisionOptions::default().tolerance(0));
    assert_eq!(hits, Some(0));
    assert_eq!(counts.texels_read, 0, "{counts:?}");
    // The same fade at tolerance 255 (any alpha above 0) reads the cores again.
    let (hits, counts, _) = pair(8, faded, &CollisionOptions::default().tolerance(255));
    assert!(hits.unwrap() > 0 && counts.texels_read > 0, "{counts:?}");
}

/// A rendered source keeps the table its renderer's kernel reads with its texels
/// (`Texels::for_renderer`: `rotate` the padded alpha, `rotozoom` each 2 x 2 block's least
/// and greatest alpha), which an edit of the bitmap patches in place. After every edit the
/// sprites (the edited one drawn by each renderer in turn) must answer as a fresh stage made
/// with the edited pixels, and the cache must count what it holds.
#[test]
fn an_edited_rendered_source_answers_as_a_fresh_stage() {
    let mut rng = crate::query::budget_tests::Rng(0x1234_5678_9abc_def1);
    let mut next = |n: u64| rng.below(n);
    let (mut touching, mut patched, mut remade) = (0, 0, 0);
    for trial in 0..6u64 {
        let (w, h) = (8 + next(24) as u32, 8 + next(24) as u32);
        let rgba: Vec<u8> = (0..w * h * 4)
            .map(|_| [0, 255, next(256) as u8][next(3) as usize])
            .collect();
        let art = Bitmap::from_rgba8(w, h, rgba).unwrap();
        let other = Bitmap::from_rgba8(w, h, vec![9; (w * h * 4) as usize]).unwrap();
        let turn = |k: u64| {
            let angle = -170.0 + 37.3 * k as f64;
            match k % 2 {
                0 => PygameTransform::rotozoom(angle, 0.6 + 0.3 * k as f64),
                _ => PygameTransform::rotate(angle),
            }
            .flip(k.is_multiple_of(2), k.is_multiple_of(3))
        };
        let build = |art: &Bitmap| {
            let mut stage = Stage::new();
            let root = stage.root();
            let mut add = |bitmap: &Bitmap, t: PygameTransform, at: f64| {
                let n = stage.add_bitmap(root, bitmap.clone(), false).unwrap();
                stage
                    .set_bitmap_renderer(n, Some(BitmapRenderer::Pygame(t)))
                    .unwrap();
                stage.set_position(n, at, at).unwrap();
                n
            };
            let a = add(art, turn(trial), 0.0);
            let b = add(&other, turn(trial + 1), 5.0);
            (stage, root, a, b)
        };
        let (mut stage, root, a, b) = build(&art);
        // The stage holds the only handle: edits change its pixels (and the cache's
        // tables) in place instead of copying them.
        drop(art);
        for step in 0..40 {
            let opts = CollisionOptions::default().tolerance([0, 127, 255][step % 3]);
            let got = stage.collision(a, b, root, &opts).unwrap();
            let crowd = stage.contacts_among(&[a, b], root, &opts).unwrap();
            let pixels = stage.bitmap(a).unwrap().unwrap().0.rgba().to_vec();
            let copy = Bitmap::from_rgba8(w, h, pixels).unwrap();
            let (fresh, froot, fa, fb) = build(&copy);
            let want = fresh.collision(fa, fb, froot, &opts).unwrap();
            assert_eq!(got, want, "trial {trial} step {step}");
            assert_eq!(
                crowd.len(),
                usize::from(want.overlap_pixels.unwrap_or(0) > 0),
                "trial {trial} step {step}"
            );
            touching += crowd.len();
            assert_eq!(
                stage.cache.bytes(),
                stage.cache.recount(),
                "trial {trial} step {step}"
            );
            let brush = crate::Brush::Disc {
                centre: glam::DVec2::new(next(u64::from(w)) as f64, next(u64::from(h)) as f64),
                radius: 1.0 + next(6) as f64,
            };
            match next(2) {
                0 => stage.paint(a, &brush, [1, 2, 3, [0, 255, 140][next(3) as usize]], 1.0),
                _ => stage.erase(a, &brush, [1.0, 0.5][next(2) as usize]),
            }
            .unwrap();
            let (work, copied) = crate::tree::bitmap_edit::LAST_EDIT.with(std::cell::Cell::get);
            assert!(!copied);
            (patched, remade) = (patched + work.texels, remade + work.whole_tables);
        }
    }
    assert!(touching > 40, "{touching} touching answers");
    assert!(
        patched > 1_000,
        "{patched} texels patched in place, {remade} tables made whole"
    );
}
