//! Frame times of a small game over many frames: 50 sprites (stars and bitmaps) that move
//! by fractions of a pixel and turn every frame, `collisions` once per frame, for 10,000
//! frames (or the number given). Prints the median, the 99th percentile and the slowest
//! frame, and the stage's cache size at a few points, so that a stall (the cache emptying
//! in one go, a table growing) shows as a slow frame far above the median.
//!
//! `cargo run --release -p pixelhit-benches --example frame_stalls [FRAMES]`
use pixelhit_benches::scenes;

use pixelhit::{Bitmap, CollisionOptions, FillRule, Graphic, Stage};
use std::time::Instant;

fn main() {
    let frames: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(10_000);
    let mut rng = scenes::Rng::new(7);
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let mut rgba = vec![0u8; 32 * 32 * 4];
    for (i, px) in rgba.chunks_exact_mut(4).enumerate() {
        let (x, y) = ((i % 32) as f64 - 15.5, (i / 32) as f64 - 15.5);
        if x * x + y * y < 15.0 * 15.0 {
            px.copy_from_slice(&[200, 80, 40, 255]);
        }
    }
    let bitmap = Bitmap::from_rgba8(32, 32, rgba).unwrap();
    let mut sprites = Vec::new();
    for i in 0..50 {
        let s = stage.add_container(world).unwrap();
        if i % 2 == 0 {
            let star = scenes::star(5 + i % 3, 14.0 + (i % 4) as f64 * 4.0, 0.5);
            stage
                .add_graphic(s, Graphic::fill(star, FillRule::NonZero, 1.0).unwrap())
                .unwrap();
        } else {
            stage.add_bitmap(s, bitmap.clone(), false).unwrap();
        }
        let start = (rng.range(0.0, 400.0), rng.range(0.0, 300.0));
        let velocity = (rng.range(-1.5, 1.5), rng.range(-1.5, 1.5));
        let spin = rng.range(-3.0, 3.0);
        sprites.push((s, start, velocity, spin));
    }
    let fold = |u: f64, side: f64| {
        let m = u.rem_euclid(2.0 * side);
        if m > side { 2.0 * side - m } else { m }
    };
    let opts = CollisionOptions::default();
    let ids: Vec<_> = sprites.iter().map(|s| s.0).collect();
    let mut times = Vec::with_capacity(frames);
    let mut contacts = 0;
    for f in 0..frames {
        let t = f as f64;
        let begin = Instant::now();
        for &(s, (x, y), (vx, vy), spin) in &sprites {
            stage.set_x(s, fold(x + vx * t, 400.0)).unwrap();
            stage.set_y(s, fold(y + vy * t, 300.0)).unwrap();
            stage.set_rotation(s, (spin * t).rem_euclid(360.0)).unwrap();
        }
        contacts += stage.contacts_among(&ids, world, &opts).unwrap().len();
        times.push(begin.elapsed().as_secs_f64() * 1e6);
        if (f + 1) % (frames / 5).max(1) == 0 {
            println!(
                "frame {:>6}: cache {:.1} MiB",
                f + 1,
                stage.cache_bytes() as f64 / 1048576.0
            );
        }
    }
    let mut sorted = times.clone();
    sorted.sort_by(f64::total_cmp);
    let at = |q: f64| sorted[((sorted.len() - 1) as f64 * q) as usize];
    let slowest = times
        .iter()
        .enumerate()
        .max_by(|a, b| a.1.total_cmp(b.1))
        .unwrap();
    println!(
        "{frames} frames, {contacts} contacts: median {:.0} µs, p99 {:.0} µs, slowest {:.0} µs (frame {}), slowest / median {:.1}",
        at(0.5),
        at(0.99),
        slowest.1,
        slowest.0,
        slowest.1 / at(0.5)
    );
}
