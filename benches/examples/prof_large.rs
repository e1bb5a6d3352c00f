//! Times cold queries (empty cache each time) of two large turned squares, mostly
//! overlapping (1,000 px), and of two turned 128 px bitmaps (`prof_large squares` or
//! `prof_large bitmaps` for one of them), for perf and callgrind.
use pixelhit::*;
use pixelhit_benches::scenes;
fn main() {
    let mut stage = Stage::new();
    let root = stage.root();
    let mut add = |x: f64, turn: f64| {
        let n = stage.add_container(root).unwrap();
        let g = Graphic::fill(Path::rect(-500.0, -500.0, 1000.0, 1000.0), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(n, g).unwrap();
        stage.set_x(n, x).unwrap();
        stage.set_rotation(n, turn).unwrap();
        n
    };
    let (a, b) = (add(0.3, 31.0), add(70.45, 8.5));
    let (mut bitmaps, ba, bb) = scenes::rotated_bitmap();
    // Closer than the benchmark's pair, so that they overlap.
    bitmaps.set_x(bb, 110.0).unwrap();
    let opts = CollisionOptions::default();
    let only = std::env::args().nth(1).unwrap_or_default();
    for (name, stage, a, b) in [("squares", &stage, a, b), ("bitmaps", &bitmaps, ba, bb)] {
        if !only.is_empty() && only != name {
            continue;
        }
        let copies: Vec<Stage> = (0..50).map(|_| stage.clone()).collect();
        let t = std::time::Instant::now();
        let mut hits = 0;
        for s in &copies {
            hits += s
                .collision(a, b, s.root(), &opts)
                .unwrap()
                .overlap_pixels
                .unwrap();
        }
        println!("{name}: {hits} pixels, {:?} per cold call", t.elapsed() / 50);
    }
}
