//! Where the frame engine's bitmap kernel spends its work (issue 29), counted: a pair of
//! turned bitmaps reads at most the texels of its window once per target, and area math
//! runs only near a bitmap's border where a texel there reaches the threshold.

use crate::raster::last_bits_counts;
use crate::{Bitmap, CollisionOptions, DVec2, Stage};

/// A `size` px disc of radius `radius` px (soft by one texel) in a square bitmap.
fn disc(size: u32, radius: f64) -> Bitmap {
    let c = f64::from(size) / 2.0;
    let mut rgba = Vec::new();
    for y in 0..size {
        for x in 0..size {
            let d = (f64::from(x) + 0.5 - c).hypot(f64::from(y) + 0.5 - c);
            let a = ((radius - d) + 0.5).clamp(0.0, 1.0);
            rgba.extend([0, 0, 0, (a * 255.0).round() as u8]);
        }
    }
    Bitmap::from_rgba8(size, size, rgba).unwrap()
}

/// Two turned discs overlapping: the answer, what the kernel counted, and the window.
fn pair(radius: f64, opts: &CollisionOptions) -> (u64, crate::raster::BitsCounts, u64) {
    let mut stage = Stage::new();
    let root = stage.root();
    let mut add = |x: f64, turn: f64| {
        let n = stage.add_bitmap(root, disc(40, radius), false).unwrap();
        stage.set_transform(n, x, 3.25, turn, 1.0, 1.0).unwrap();
        n
    };
    let (a, b) = (add(0.4, 31.0), add(8.7, 8.5));
    let loose = stage.collision(a, b, root, &(*opts).precise(false)).unwrap();
    let r = loose.rect.unwrap();
    let window = ((r.right().ceil() - r.left().floor()) * (r.bottom().ceil() - r.top().floor())) as u64;
    let hit = stage.collision(a, b, root, opts).unwrap();
    let counts = last_bits_counts();
    let plain = stage
        .clone()
        .collision(a, b, root, &(*opts).fast_paths(false))
        .unwrap();
    assert_eq!(hit, plain);
    (hit.overlap_pixels.unwrap(), counts, window)
}

#[test]
fn the_kernel_reads_each_window_texel_at_most_once_per_target() {
    for opts in [
        CollisionOptions::default(),
        CollisionOptions::default().anti_alias(false),
    ] {
        for radius in [14.0, 20.0] {
            let (hits, counts, window) = pair(radius, &opts);
            eprintln!("{opts:?} radius {radius}: {hits} hits, {counts:?}, window {window}");
            assert!(hits > 0);
            assert!(counts.rows > 0, "the kernel answered: {counts:?}");
            assert!(counts.texels_read <= 2 * window, "{counts:?} window {window}");
        }
    }
}

/// A disc well inside its bitmap needs no area math even anti-aliased: the solid texels
/// keep a margin from the border, so coverage cannot decide a pixel. A disc touching the
/// border needs some, on the few pixels near the border whose texel is solid.
#[test]
fn area_math_only_where_a_solid_texel_meets_the_border() {
    let opts = CollisionOptions::default();
    let (_, inside, _) = pair(14.0, &opts);
    assert_eq!(inside.area_pixels, 0, "{inside:?}");
    let (_, touching, _) = pair(20.0, &opts);
    assert!(touching.area_pixels > 0, "{touching:?}");
    assert!(touching.area_pixels * 10 < touching.texels_read, "{touching:?}");
}

/// A fully opaque `size` px square.
fn solid(size: u32) -> Bitmap {
    Bitmap::from_rgba8(size, size, vec![255; (size * size * 4) as usize]).unwrap()
}

/// A pair's first target is read only where the second's solid box reaches, and the second
/// only where the first is solid: a 12 px square turned over the corner of a 40 px one. Each
/// target reads at most the pixel centres inside both squares (counted here from their
/// matrices, grown by 1/100 px, or by a pixel anti-aliased: the band where coverage
/// decides). Reading the first over the pair's window instead (the corner of the big square
/// under the small one's bounding box and its margin) reads 213 texels, not 162, without
/// anti-aliasing, and fails here.
#[test]
fn the_first_target_is_read_only_where_the_second_can_be_solid() {
    let mut stage = Stage::new();
    let root = stage.root();
    let big = stage.add_bitmap(root, solid(40), false).unwrap();
    let small = stage.add_bitmap(root, solid(12), false).unwrap();
    stage.set_transform(small, 34.3, 29.6, 30.0, 1.0, 1.0).unwrap();
    for (opts, grow) in [
        (CollisionOptions::default().anti_alias(false), 0.01),
        (CollisionOptions::default(), 1.0),
    ] {
        let hit = stage.collision(big, small, root, &opts).unwrap();
        let counts = last_bits_counts();
        let plain = stage
            .clone()
            .collision(big, small, root, &opts.fast_paths(false))
            .unwrap();
        assert_eq!(hit, plain);
        assert!(hit.overlap_pixels.unwrap() > 30, "{hit:?}");
        let to_local = stage.matrix_to(small, root).unwrap().inverse();
        let inside = (0..80)
            .flat_map(|y| (0..80).map(move |x| (x, y)))
            .filter(|&(x, y)| {
                let p = to_local.transform_point2(DVec2::new(f64::from(x) + 0.5, f64::from(y) + 0.5));
                let (small, big) = (-grow..=12.0 + grow, -grow..=40.0 + grow);
                let centre = (f64::from(x) + 0.5, f64::from(y) + 0.5);
                small.contains(&p.x)
                    && small.contains(&p.y)
                    && big.contains(&centre.0)
                    && big.contains(&centre.1)
            })
            .count() as u64;
        eprintln!("{opts:?}: {counts:?}, {inside} centres inside both");
        assert!(counts.rows > 0, "the kernel answered: {counts:?}");
        assert!(counts.texels_read <= 2 * inside, "{counts:?}, {inside} inside");
    }
}
