//! One pair asked again and again after a move, for counting what a warm pair costs beyond
//! its compare (issue 29 item 4: at most 2,000 instructions): `prof_pair_again [asks]
//! [size]`. The `aligned` scene (two `size` px blobs); before each ask the first moves a
//! whole pixel, right then back, so every answer is worked out again from the kept
//! rasters. Under callgrind, (count at N + 1,000 asks - count at N asks) / 1,000 is an
//! ask's cost; the inclusive count of `BitMask::overlap_moved` is its compare.
use pixelhit::CollisionOptions;
use pixelhit_benches::scenes;

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let asks: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(1);
    let size: u32 = arg(2).and_then(|s| s.parse().ok()).unwrap_or(64);
    let (mut stage, a, b) = scenes::aligned(size);
    let root = stage.root();
    let opts = CollisionOptions::default();
    // Both rasters are kept once the pair has been asked twice at these poses.
    for _ in 0..4 {
        stage.collision(a, b, root, &opts).unwrap();
        let x = stage.x(a).unwrap();
        stage.set_x(a, x + 1.0).unwrap();
        stage.collision(a, b, root, &opts).unwrap();
        stage.set_x(a, x).unwrap();
    }
    let mut step = 1.0;
    let mut pixels = 0;
    for _ in 0..asks {
        let x = stage.x(a).unwrap();
        stage.set_x(a, x + step).unwrap();
        step = -step;
        pixels += stage
            .collision(a, b, root, &opts)
            .unwrap()
            .overlap_pixels
            .unwrap_or(0);
    }
    println!("{asks} asks, {pixels} overlap pixels in all");
}
