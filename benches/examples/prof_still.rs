//! A still frame of three queries after 200 moving frames of three queries each, against
//! the same still frame on a fresh stage (a clone), frames interleaved so that both see the
//! same load: `prof_still N FRAMES` prints the time per frame of each and the caches' bytes.
use pixelhit::CollisionOptions;
use pixelhit_benches::crowd::{Motion, crowd};

fn main() {
    let arg = |k: usize, default: usize| {
        std::env::args()
            .nth(k)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let (n, frames) = (arg(1, 1000), arg(2, 50));
    let opts = CollisionOptions::default();
    let mut world = crowd(n, Motion::Spinning);
    for frame in 1..=200 {
        world.step(frame);
        world.three_queries(&opts);
    }
    let mut fresh = world.clone();
    let mut times = [std::time::Duration::ZERO; 2];
    let mut found = [0; 2];
    for _ in 0..frames {
        for (k, w) in [&mut world, &mut fresh].into_iter().enumerate() {
            let t = std::time::Instant::now();
            w.touch();
            found[k] += w.three_queries(&opts);
            times[k] += t.elapsed();
        }
    }
    assert_eq!(found[0], found[1]);
    println!(
        "after 200 moving frames: {:?} per still frame, cache {} bytes; fresh: {:?}, cache {} bytes",
        times[0] / frames as u32,
        world.stage.cache_bytes(),
        times[1] / frames as u32,
        fresh.stage.cache_bytes()
    );
}
