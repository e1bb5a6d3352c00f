//! Times one query of a benchmark scene after a whole-pixel move (for callgrind or perf):
//! `prof_scene deep_tree|near_miss|rotated_vector|rotated_bitmap [queries] [cold]`. Each
//! query moves the first target a whole pixel and back, so the answer is worked out again
//! from cached rasters; with `cold`, each query runs on a fresh copy of the stage.
use pixelhit::*;
use pixelhit_benches::scenes;
fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let (mut stage, a, b) = match arg(1).as_deref() {
        Some("near_miss") => scenes::near_miss(),
        Some("rotated_vector") => scenes::rotated_vector(),
        Some("rotated_bitmap") => scenes::rotated_bitmap(),
        _ => scenes::deep_tree(),
    };
    let n: u32 = arg(2).and_then(|s| s.parse().ok()).unwrap_or(2_000);
    let cold = arg(3).as_deref() == Some("cold");
    let root = stage.root();
    let opts = CollisionOptions::default();
    let mut step = 1.0;
    let mut c = None;
    let t = std::time::Instant::now();
    for _ in 0..n {
        if cold {
            c = Some(stage.clone().collision(a, b, root, &opts).unwrap());
            continue;
        }
        let x = stage.x(a).unwrap();
        stage.set_x(a, x + step).unwrap();
        step = -step;
        c = Some(stage.collision(a, b, root, &opts).unwrap());
    }
    println!("{c:?}\nper query: {:?}", t.elapsed() / n);
}
