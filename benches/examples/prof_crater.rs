//! Counts what one crater costs, for callgrind: a 2048 x 1024 terrain drawn whole and kept,
//! then `N` times a crater and the next query, by `Stage::erase` (`edit`) or by
//! `Stage::set_bitmap` with a new bitmap holding the same pixels (`replace`; the 20 new
//! bitmaps are made before, whatever `N`). The instructions of one crater are those of a
//! run with `N = 20` less those of `N = 0`, divided by 20:
//!
//! ```text
//! cargo build --release -p pixelhit-benches --example prof_crater
//! valgrind --tool=callgrind --callgrind-out-file=/tmp/c.out target/release/examples/prof_crater edit 20
//! ```
use pixelhit::{Bitmap, Brush, CollisionOptions, DVec2, Stage};

const W: u32 = 2048;
const H: u32 = 1024;

fn main() {
    let mut args = std::env::args().skip(1);
    let mode = args.next().unwrap_or_else(|| "edit".into());
    let n: usize = args.next().and_then(|s| s.parse().ok()).unwrap_or(20);
    let mut rgba = vec![0u8; (4 * W * H) as usize];
    for x in 0..W {
        let surface = 620.0 + 90.0 * (f64::from(x) / 170.0).sin();
        for y in (surface as u32)..H {
            rgba[(4 * (y * W + x) + 3) as usize] = 255;
        }
    }
    let mut stage = Stage::new();
    let root = stage.root();
    let ground = stage
        .add_bitmap(root, Bitmap::from_rgba8(W, H, rgba.clone()).unwrap(), false)
        .unwrap();
    let walker = stage
        .add_bitmap(root, Bitmap::from_rgba8(10, 16, vec![255; 640]).unwrap(), false)
        .unwrap();
    let opts = CollisionOptions::default();
    for dx in [0.0, 1.0] {
        stage.set_position(walker, 1000.0 + dx, 700.0).unwrap();
        stage.collision(walker, ground, root, &opts).unwrap();
    }
    let crater = |k: usize| Brush::Disc {
        centre: DVec2::new(200.0 + 80.0 * k as f64, 640.0),
        radius: 20.0,
    };
    // The replacements, each with the craters so far, made whatever `n` is.
    let mut painter = Stage::new();
    let p = painter
        .add_bitmap(painter.root(), Bitmap::from_rgba8(W, H, rgba).unwrap(), false)
        .unwrap();
    let mut replacements = Vec::new();
    for k in 0..20 {
        painter.erase(p, &crater(k), 1.0).unwrap();
        let pixels = painter.bitmap(p).unwrap().unwrap().0.rgba().to_vec();
        replacements.push(Bitmap::from_rgba8(W, H, pixels).unwrap());
    }
    let mut overlap = 0;
    for (k, replacement) in replacements.into_iter().enumerate().take(n) {
        match mode.as_str() {
            "replace" => stage.set_bitmap(ground, replacement, false).unwrap(),
            _ => stage.erase(ground, &crater(k), 1.0).unwrap(),
        }
        let c = stage.collision(walker, ground, root, &opts).unwrap();
        overlap += c.overlap_pixels.unwrap_or(0);
    }
    println!("{mode} x {n}: {overlap} pixels in both");
}
