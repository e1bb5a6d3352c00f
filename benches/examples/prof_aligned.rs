//! Times one steady-state query of the `aligned_256` scene (for profiling with perf).
use pixelhit::*;
use pixelhit_benches::scenes;
fn main() {
    let size = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    let (stage, a, b) = scenes::aligned(size);
    let root = stage.root();
    let opts = CollisionOptions::default();
    let n = 20_000;
    let mut best = std::time::Duration::MAX;
    let mut c = None;
    for _ in 0..15 {
        let t = std::time::Instant::now();
        for _ in 0..n {
            c = Some(stage.collision(a, b, root, &opts).unwrap());
        }
        best = best.min(t.elapsed() / n);
    }
    println!("{c:?}\nbest per call: {best:?}");
}
