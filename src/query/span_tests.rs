//! Tests of the span scan through the collision pipeline: two fills compared by spans (forced
//! on the test's thread; pairs with a bitmap use them anyway) give the plain path's answers,
//! and the work they count follows the edges, not the area.

use crate::raster::{AreaCounts, FORCE_SPANS, ScanCounts, last_scan_counts};
use crate::{CollisionOptions, FillRule, Graphic, Path, Stage};

/// Two large turned squares of side `size` px, mostly overlapping: the overlap count, and
/// what the scan counted.
fn squares(size: f64, opts: &CollisionOptions) -> (u64, ScanCounts, AreaCounts) {
    let mut stage = Stage::new();
    let root = stage.root();
    let mut add = |x: f64, y: f64, turn: f64| {
        let n = stage.add_container(root).unwrap();
        let square = Path::rect(-size / 2.0, -size / 2.0, size, size);
        let g = Graphic::fill(square, FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(n, g).unwrap();
        stage.set_x(n, x).unwrap();
        stage.set_y(n, y).unwrap();
        stage.set_rotation(n, turn).unwrap();
        n
    };
    let (a, b) = (add(0.3, 0.1, 31.0), add(0.07 * size + 0.45, 0.05 * size, 8.5));
    let hit = stage.collision(a, b, root, opts).unwrap();
    let (scan, areas) = last_scan_counts();
    (hit.overlap_pixels.unwrap(), scan, areas)
}

/// The work of a query between two large items follows their edges, not their area:
/// four times the side, about four times the rows, pixel areas and computed values, and
/// sixteen times the pixels found solid from the spans alone. At tolerance 255 and 0,
/// anti-aliased or not. (A count, not a time.)
#[test]
fn work_follows_the_edges_not_the_area() {
    FORCE_SPANS.with(|f| f.set(true));
    for opts in [
        CollisionOptions::default(),
        CollisionOptions::default().tolerance(0),
        CollisionOptions::default().anti_alias(false),
    ] {
        let (small_hits, small, small_areas) = squares(400.0, &opts);
        let (large_hits, large, large_areas) = squares(1600.0, &opts);
        eprintln!(
            "{opts:?}\n  400 px: {small_hits} hits, {small:?}, {small_areas:?}\n  1600 px: {large_hits} hits, {large:?}, {large_areas:?}"
        );
        // The overlap grows with the area, nearly all of it found without values.
        assert!(large_hits > 14 * small_hits, "{large_hits} vs {small_hits}");
        assert!(large.interior_pixels > 14 * small.interior_pixels);
        assert!(large.interior_pixels as f64 > 0.98 * large_hits as f64);
        // The work grows with the edges: rows, areas and values about 4x.
        assert!(large.rows <= 5 * small.rows);
        assert!(
            large.valued_pixels <= 5 * small.valued_pixels,
            "{large:?} vs {small:?}"
        );
        assert!(large_areas.areas <= 5 * small_areas.areas.max(1));
        // And it is a few pixels per row: each row has at most four edges in the window.
        assert!(large.valued_pixels <= 16 * large.rows, "{large:?}");
        assert!(large_areas.areas <= 16 * large.rows, "{large_areas:?} {large:?}");
        // The counts are those of the right answer: the plain path's.
        let (plain_hits, ..) = squares(400.0, &opts.fast_paths(false));
        assert_eq!(small_hits, plain_hits);
    }
    FORCE_SPANS.with(|f| f.set(false));
}

struct Rng(u64);
impl Rng {
    fn f(&mut self) -> f64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    fn below(&mut self, n: usize) -> usize {
        (self.f() * n as f64) as usize
    }
}

/// A fill or a stroke: a self-intersecting scribble, a sliver, an unturned rectangle
/// (horizontal edges inside rows) or a star, of random rule and alpha.
fn graphic(rng: &mut Rng) -> Graphic {
    let r = rng.range(2.0, 60.0);
    let rule = [FillRule::NonZero, FillRule::EvenOdd][rng.below(2)];
    let alpha = if rng.below(4) == 0 {
        rng.range(0.05, 1.0)
    } else {
        1.0
    };
    let points = |n: usize, rng: &mut Rng| -> Vec<crate::DVec2> {
        (0..n)
            .map(|_| crate::DVec2::new(rng.range(-r, r), rng.range(-r, r)))
            .collect()
    };
    match rng.below(5) {
        0 => Graphic::fill(Path::polygon(&points(3 + rng.below(30), rng)), rule, alpha),
        1 => Graphic::fill(Path::rect(-r, 0.0, 2.0 * r, rng.range(0.01, 0.9)), rule, alpha),
        2 => Graphic::fill(Path::rect(-r, -r / 3.0, r, r * 0.7), rule, alpha),
        3 => Graphic::stroke(
            Path::polygon(&points(2 + rng.below(6), rng)),
            rng.range(0.2, 9.0),
            alpha,
        ),
        _ => Graphic::fill(Path::circle(0.0, 0.0, r), rule, alpha),
    }
    .unwrap()
}

/// Two fills compared by spans give the plain path's answer (both alpha planes
/// composited pixel by pixel), both ways round, over 3,000 random pairs: turned, scaled
/// and skewed, up to 1e9 px from the origin, tolerance 0, 255 or any, with and without
/// anti-aliasing.
#[test]
fn two_fills_by_spans_give_the_plain_answer() {
    FORCE_SPANS.with(|f| f.set(true));
    let mut rng = Rng(0x0f11_5a75_9e37_79b9);
    let mut hits = 0;
    for case in 0..3000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let far = [0.0, 2.5e4, -7.7e6, 1e9][case % 4];
        let mut add = |rng: &mut Rng, at: crate::DVec2| {
            let n = stage.add_container(root).unwrap();
            stage.add_graphic(n, graphic(rng)).unwrap();
            let (s, c) = rng.range(0.0, 6.3).sin_cos();
            let (sx, sy, k) = (rng.range(0.3, 3.0), rng.range(0.3, 3.0), rng.range(-0.8, 0.8));
            let m = match rng.below(3) {
                0 => crate::DAffine2::from_translation(at),
                1 => crate::DAffine2::from_cols_array(&[sx * c, sx * s, -sy * s + k, sy * c, at.x, at.y]),
                _ => crate::DAffine2::from_translation(at.round()),
            };
            stage.set_matrix(n, m).unwrap();
            n
        };
        let at = crate::DVec2::new(far + rng.range(-50.0, 50.0), far / 2.0);
        let a = add(&mut rng, at);
        let off = crate::DVec2::new(rng.range(-60.0, 60.0), rng.range(-60.0, 60.0));
        let b = add(&mut rng, at + off);
        let tolerance = [0, 255, rng.below(256) as u8][rng.below(3)];
        let opts = CollisionOptions::default()
            .tolerance(tolerance)
            .anti_alias(rng.below(3) > 0);
        let plain = stage
            .clone()
            .collision(a, b, root, &opts.fast_paths(false))
            .unwrap();
        for (x, y) in [(a, b), (b, a)] {
            let got = stage.clone().collision(x, y, root, &opts).unwrap();
            assert_eq!(got, plain, "case {case}, {opts:?}");
        }
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
    }
    assert!((600..2400).contains(&hits), "{hits} hits of 3000");
    FORCE_SPANS.with(|f| f.set(false));
}
