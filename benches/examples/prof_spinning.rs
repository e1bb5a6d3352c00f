//! Frames of the `crowd` benchmark's crowd, for profiling and counting (callgrind, perf):
//! `prof_spinning N [spin|still|frac|whole] [frames] [threads] [dense]`. With `dense`, the
//! dense crowd (about 20 box neighbours a sprite). Prints the mean number of box neighbours,
//! the contacts and the time per frame (noisy on a shared machine: prefer instruction counts).
use pixelhit::CollisionOptions;
use pixelhit_benches::crowd::{Motion, crowd, dense_crowd};

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let n: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let motion = match arg(2).as_deref() {
        Some("still") => Motion::Still,
        Some("frac") => Motion::Fractional,
        Some("whole") => Motion::WholePixels,
        _ => Motion::Spinning,
    };
    let frames: u64 = arg(3).and_then(|s| s.parse().ok()).unwrap_or(20);
    let threads: usize = arg(4).and_then(|s| s.parse().ok()).unwrap_or(1);
    let pool = rayon::ThreadPoolBuilder::new()
        .num_threads(threads)
        .build()
        .unwrap();
    let mut world = match arg(5).as_deref() {
        Some("dense") => dense_crowd(n, motion),
        _ => crowd(n, motion),
    };
    let boxes: Vec<_> = world
        .sprites
        .iter()
        .map(|&s| world.stage.bounds(s, world.world).unwrap())
        .collect();
    let mut close = 0usize;
    for (i, a) in boxes.iter().enumerate() {
        for b in &boxes[i + 1..] {
            if let (Some(a), Some(b)) = (a, b)
                && a.intersect(b).is_some()
            {
                close += 1;
            }
        }
    }
    println!("{:.1} box neighbours a sprite", 2.0 * close as f64 / n as f64);
    let opts = CollisionOptions::default().parallel(threads > 1);
    let mut contacts = 0;
    let t = std::time::Instant::now();
    for frame in 1..=frames {
        world.step(frame);
        contacts += pool.install(|| {
            world
                .stage
                .contacts_among(&world.sprites, world.world, &opts)
                .unwrap()
                .len()
        });
    }
    println!(
        "{contacts} contacts in {frames} frames, {:?} per frame",
        t.elapsed() / frames as u32
    );
}
