//! Times one query of the `aligned_256` scene (for profiling with perf or callgrind):
//! `prof_aligned [size] [kept|moved] [calls]`. `kept` (the default) asks on an unchanged
//! tree, so the answer kept for the frame is read back; `moved` moves one target a whole
//! pixel and back between queries, so the answer is worked out again from cached rasters.
//! With `calls`, it makes exactly that many queries and no timing (for callgrind: the
//! instructions of a query are the difference of two runs over the difference of their
//! calls; docs/frame-engine.md).
use pixelhit::*;
use pixelhit_benches::scenes;
fn main() {
    let size = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(256);
    let moved = std::env::args().nth(2).as_deref() == Some("moved");
    let counted: Option<u32> = std::env::args().nth(3).and_then(|s| s.parse().ok());
    let (mut stage, a, b) = scenes::aligned(size);
    let root = stage.root();
    let opts = CollisionOptions::default();
    let mut step = 1.0;
    let mut query = || {
        if moved {
            let x = stage.x(a).unwrap();
            stage.set_x(a, x + step).unwrap();
            step = -step;
        }
        stage.collision(a, b, root, &opts).unwrap()
    };
    let mut c = None;
    if let Some(calls) = counted {
        for _ in 0..calls {
            c = Some(query());
        }
        println!("{c:?} after {calls} calls");
        return;
    }
    let n = 20_000;
    let mut best = std::time::Duration::MAX;
    for _ in 0..15 {
        let t = std::time::Instant::now();
        for _ in 0..n {
            c = Some(query());
        }
        best = best.min(t.elapsed() / n);
    }
    println!("{c:?}\nbest per call: {best:?}");
}
