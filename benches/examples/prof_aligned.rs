//! Times one query of the `aligned_256` scene (for profiling with perf or callgrind):
//! `prof_aligned [size] [kept|moved]`. `kept` (the default) asks on an unchanged tree, so
//! the answer kept for the frame is read back; `moved` moves one target a whole pixel and
//! back between queries, so the answer is worked out again from cached rasters.
use pixelhit::*;
use pixelhit_benches::scenes;
fn main() {
    let size = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    let moved = std::env::args().nth(2).as_deref() == Some("moved");
    let (mut stage, a, b) = scenes::aligned(size);
    let root = stage.root();
    let opts = CollisionOptions::default();
    let n = 20_000;
    let mut best = std::time::Duration::MAX;
    let mut c = None;
    let mut step = 1.0;
    for _ in 0..15 {
        let t = std::time::Instant::now();
        for _ in 0..n {
            if moved {
                let x = stage.x(a).unwrap();
                stage.set_x(a, x + step).unwrap();
                step = -step;
            }
            c = Some(stage.collision(a, b, root, &opts).unwrap());
        }
        best = best.min(t.elapsed() / n);
    }
    println!("{c:?}\nbest per call: {best:?}");
}
