//! Differential tests: the fast paths (cached bit masks, rows read as runs, columns bounded
//! by the other target) and the cache give the same answers as the plain path (both
//! targets' alpha planes composited pixel by pixel) on a fresh stage, over thousands of random
//! scenes: rotated, scaled, skewed and nested fills, strokes and bitmaps, with colour
//! transforms, every tolerance and both anti-aliasing modes, including scenes that move
//! between queries so that cached rasters are reused.

use pixelhit::{
    Bitmap, Collision, CollisionOptions, ColorTransform, DAffine2, DVec2, FillRule, Graphic, NodeId, Path,
    Stage,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = self.0;
        (x ^ (x >> 31)).wrapping_mul(0x94d049bb133111eb) >> 11
    }
    fn f(&mut self) -> f64 {
        self.next() as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn chance(&mut self, p: f64) -> bool {
        self.f() < p
    }
}

fn polygon(rng: &mut Rng) -> Path {
    let n = 3 + rng.below(9) as usize;
    let r = rng.range(4.0, 40.0);
    let pts: Vec<DVec2> = (0..n)
        .map(|i| {
            let a = std::f64::consts::TAU * (i as f64 + rng.range(0.0, 0.8)) / n as f64;
            let rr = if rng.chance(0.4) {
                r * rng.range(0.2, 0.7)
            } else {
                r
            };
            DVec2::new(rr * a.cos(), rr * a.sin())
        })
        .collect();
    Path::polygon(&pts)
}

fn bitmap(rng: &mut Rng) -> Bitmap {
    let (w, h) = (1 + rng.below(40) as u32, 1 + rng.below(40) as u32);
    let soft = rng.chance(0.5);
    let (cx, cy, r) = (
        f64::from(w) / 2.0,
        f64::from(h) / 2.0,
        rng.range(0.3, 0.8) * f64::from(w.max(h)),
    );
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let d = ((f64::from(x) + 0.5 - cx).powi(2) + (f64::from(y) + 0.5 - cy).powi(2)).sqrt();
            let a = if soft {
                ((r - d) / 4.0).clamp(0.0, 1.0) * 255.0
            } else if d < r && rng.chance(0.9) {
                255.0
            } else {
                0.0
            };
            rgba.extend_from_slice(&[10, 20, 30, a as u8]);
        }
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

fn matrix(rng: &mut Rng, at: DVec2) -> DAffine2 {
    let whole = rng.chance(0.3);
    let t = if whole { at.round() } else { at };
    if rng.chance(0.25) {
        // Axis-aligned and unscaled: the common sprite case.
        return DAffine2::from_translation(t);
    }
    let (s, c) = rng.range(0.0, std::f64::consts::TAU).sin_cos();
    let (sx, sy) = (rng.range(0.4, 2.0), rng.range(0.4, 2.0));
    let skew = if rng.chance(0.2) {
        rng.range(-0.5, 0.5)
    } else {
        0.0
    };
    DAffine2::from_cols_array(&[sx * c, sx * s, -sy * s + skew, sy * c, t.x, t.y])
}

/// A target: one leaf (fill, stroke or bitmap) in a container, sometimes with more leaves.
fn target(rng: &mut Rng, stage: &mut Stage, parent: NodeId, at: DVec2) -> NodeId {
    let node = if rng.chance(0.35) {
        stage.add_bitmap(parent, bitmap(rng), rng.chance(0.3)).unwrap()
    } else {
        let n = stage.add_container(parent).unwrap();
        let g = if rng.chance(0.25) {
            Graphic::stroke(polygon(rng), rng.range(0.5, 6.0), 1.0).unwrap()
        } else {
            let rule = if rng.chance(0.5) {
                FillRule::EvenOdd
            } else {
                FillRule::NonZero
            };
            let alpha = if rng.chance(0.2) { rng.range(0.0, 1.0) } else { 1.0 };
            Graphic::fill(polygon(rng), rule, alpha).unwrap()
        };
        stage.add_graphic(n, g).unwrap();
        if rng.chance(0.15) {
            let extra = Graphic::fill(polygon(rng), FillRule::NonZero, rng.range(0.2, 1.0)).unwrap();
            stage.add_graphic(n, extra).unwrap();
        }
        n
    };
    stage.set_matrix(node, matrix(rng, at)).unwrap();
    if rng.chance(0.2) {
        let ct = ColorTransform::new(
            [1.0, 1.0, 1.0, rng.range(0.2, 1.0)],
            [0.0, 0.0, 0.0, rng.range(-60.0, 60.0)],
        );
        stage.set_color_transform(node, ct).unwrap();
    }
    node
}

fn scene(rng: &mut Rng) -> (Stage, NodeId, NodeId, NodeId) {
    let mut stage = Stage::new();
    let root = stage.root();
    let parent = stage.add_container(root).unwrap();
    if rng.chance(0.3) {
        let at = DVec2::new(rng.range(-1e4, 1e4), rng.range(-1e4, 1e4));
        let m = matrix(rng, at);
        stage.set_matrix(parent, m).unwrap();
    }
    let holder = if rng.chance(0.3) {
        let h = stage.add_container(parent).unwrap();
        let at = DVec2::new(rng.range(-20.0, 20.0), 0.0);
        stage.set_matrix(h, matrix(rng, at)).unwrap();
        h
    } else {
        parent
    };
    let base = DVec2::new(rng.range(-300.0, 300.0), rng.range(-300.0, 300.0));
    let a = target(rng, &mut stage, holder, base);
    let off = DVec2::new(rng.range(-25.0, 25.0), rng.range(-25.0, 25.0));
    let b = target(rng, &mut stage, parent, base + off);
    (stage, a, b, parent)
}

fn options(rng: &mut Rng) -> CollisionOptions {
    let tolerance = match rng.below(4) {
        0 => 255,
        1 => 0,
        _ => rng.below(256) as u8,
    };
    CollisionOptions::default()
        .tolerance(tolerance)
        .anti_alias(rng.chance(0.6))
}

/// The answer on a fresh copy of the stage (empty cache), by the plain path.
fn plain(stage: &Stage, a: NodeId, b: NodeId, parent: NodeId, opts: &CollisionOptions) -> Collision {
    stage
        .clone()
        .collision(a, b, parent, &opts.fast_paths(false))
        .unwrap()
}

#[test]
fn fast_paths_and_cache_agree_with_the_plain_path() {
    let mut rng = Rng(0x5eed_fa57);
    let (mut hits, mut total) = (0, 0);
    for case in 0..3000 {
        let (stage, a, b, parent) = scene(&mut rng);
        let opts = options(&mut rng);
        let want = plain(&stage, a, b, parent, &opts);
        // Twice on the same stage: a cold cache, then a warm one.
        for pass in 0..2 {
            let got = stage.collision(a, b, parent, &opts).unwrap();
            assert_eq!(got, want, "case {case}, pass {pass}, {opts:?}");
        }
        let swapped = stage.collision(b, a, parent, &opts).unwrap();
        assert_eq!(swapped, want, "case {case} swapped");
        hits += usize::from(want.overlap_pixels.unwrap_or(0) > 0);
        total += 1;
    }
    // The corpus must exercise both answers, or it proves little.
    assert!(hits > total / 5 && hits < total * 4 / 5, "{hits} hits of {total}");
}

#[test]
fn moving_sprites_reuse_rasters_without_changing_answers() {
    let mut rng = Rng(0x0bad_cafe);
    for case in 0..300 {
        let (mut stage, a, b, parent) = scene(&mut rng);
        let opts = options(&mut rng);
        for frame in 0..8 {
            // Whole-pixel moves reuse cached rasters; fractional ones and turns make new ones.
            let m = stage.matrix(a).unwrap();
            let step = match frame % 3 {
                0 => DAffine2::from_translation(DVec2::new(
                    rng.below(7) as f64 - 3.0,
                    rng.below(7) as f64 - 3.0,
                )),
                1 => DAffine2::from_translation(DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0))),
                _ => DAffine2::from_angle(rng.range(-0.1, 0.1)),
            };
            stage.set_matrix(a, step * m).unwrap();
            let want = plain(&stage, a, b, parent, &opts);
            // Asked twice (the second answer is the one kept for the frame), then with
            // another tolerance and the other way round, which must not read it.
            for pass in 0..2 {
                let got = stage.collision(a, b, parent, &opts).unwrap();
                assert_eq!(got, want, "case {case}, frame {frame}, pass {pass}");
            }
            let other = opts.tolerance(opts.tolerance ^ 0x80);
            let got = stage.collision(a, b, parent, &other).unwrap();
            assert_eq!(
                got,
                plain(&stage, a, b, parent, &other),
                "case {case}, frame {frame}, other tolerance"
            );
            let swapped = stage.collision(b, a, parent, &opts).unwrap();
            assert_eq!(swapped.rect, want.rect, "case {case}, frame {frame}, swapped");
        }
    }
}

/// Items too large to be kept whole (over 4 Mi px) are computed in each query's window from
/// their kept pose: a sprite moving over a long terrain stroke, a large filled polygon and a
/// bitmap scaled far up must get the answers a fresh stage gives, frame after frame.
#[test]
fn large_items_computed_in_windows_give_the_plain_answers() {
    let mut rng = Rng(0x7113_5eed);
    let mut stage = Stage::new();
    let root = stage.root();
    let terrain = stage.add_container(root).unwrap();
    let ground = |x: f64| 600.0 + 250.0 * (x * 0.003).sin();
    let mut d = String::from("M0 600");
    for i in 1..=300 {
        let x = f64::from(i) * 30.0;
        d.push_str(&format!(" L{x} {}", ground(x)));
    }
    let stroke = Graphic::stroke(Path::from_svg(&d).unwrap(), rng.range(8.0, 30.0), 1.0).unwrap();
    stage.add_graphic(terrain, stroke).unwrap();
    let rock = stage.add_container(root).unwrap();
    let outline: Vec<DVec2> = (0..40)
        .map(|i| {
            let a = std::f64::consts::TAU * f64::from(i) / 40.0;
            let r = 3000.0 * (0.8 + 0.2 * (3.0 * a).sin());
            DVec2::new(4500.0 + r * a.cos(), 600.0 + 0.7 * r * a.sin())
        })
        .collect();
    let fill = Graphic::fill(Path::polygon(&outline), FillRule::EvenOdd, 0.8).unwrap();
    stage.add_graphic(rock, fill).unwrap();
    let picture = bitmap(&mut rng);
    let scale = DVec2::new(
        9000.0 / f64::from(picture.width()),
        3000.0 / f64::from(picture.height()),
    );
    let backdrop = stage.add_bitmap(root, picture, false).unwrap();
    stage.set_matrix(backdrop, DAffine2::from_scale(scale)).unwrap();
    for (i, large) in [terrain, rock, backdrop].into_iter().enumerate() {
        assert!(
            stage.bounds(large, root).unwrap().unwrap().width() > 4096.0,
            "large item {i} must be too large to be kept whole"
        );
    }
    let sprite = target(&mut rng, &mut stage, root, DVec2::new(100.0, ground(100.0)));
    let mut x = 100.0;
    let (mut hits, mut total) = (0, 0);
    for frame in 0..120 {
        // Along the ground: whole-pixel and fractional steps, now and then a turn, and
        // now and then a jump to another place.
        x += match frame % 4 {
            0 => rng.below(40) as f64,
            1 => rng.range(0.0, 40.0),
            2 => rng.range(2000.0, 3000.0),
            _ => 0.0,
        };
        if x > 8800.0 {
            x -= 8700.0;
        }
        let m = stage.matrix(sprite).unwrap();
        let turn = if frame % 4 == 3 {
            DAffine2::from_angle(rng.range(-0.5, 0.5))
        } else {
            DAffine2::IDENTITY
        };
        // Mostly on the ground; sometimes anywhere over the rock and the backdrop, so that
        // every row of them is visited.
        let y = if rng.chance(0.3) {
            rng.range(-1400.0, 2900.0)
        } else {
            ground(x) + rng.range(-30.0, 30.0)
        };
        let at = DVec2::new(x, y);
        let moved = DAffine2::from_translation(at) * turn * DAffine2::from_mat2(m.matrix2);
        stage.set_matrix(sprite, moved).unwrap();
        let opts = options(&mut rng);
        for large in [terrain, rock, backdrop] {
            let got = stage.collision(large, sprite, root, &opts).unwrap();
            assert_eq!(
                got,
                plain(&stage, large, sprite, root, &opts),
                "frame {frame}, {opts:?}"
            );
            hits += usize::from(got.overlap_pixels.unwrap_or(0) > 0);
            total += 1;
        }
    }
    assert!(hits > total / 4, "{hits} hits of {total}");
}
