//! Times cold queries (empty cache each time) of the `rotated_vector_128` scene, for perf.
use pixelhit::*;
use pixelhit_benches::scenes;
fn main() {
    let (stage, a, b) = scenes::rotated_vector();
    let root = stage.root();
    let opts = CollisionOptions::default();
    let mut best = std::time::Duration::MAX;
    for _ in 0..10 {
        let copies: Vec<Stage> = (0..300).map(|_| stage.clone()).collect();
        let t = std::time::Instant::now();
        for s in &copies {
            std::hint::black_box(s.collision(a, b, root, &opts).unwrap());
        }
        best = best.min(t.elapsed() / 300);
    }
    println!("best per cold call: {best:?}");
}
