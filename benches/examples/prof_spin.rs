//! Frames of the `crowd` benchmark's spinning crowd, for profiling: `prof_spin N FRAMES`
//! (default 1000 sprites, 100 frames) prints the time per frame. `RAYON_NUM_THREADS=1`
//! runs the narrow phase on one thread. With `QUERIES=3` every frame asks its query three
//! times, as a game asks rocks/rocks, ship/rocks and bullets/rocks on the same poses.
use pixelhit::CollisionOptions;
use pixelhit_benches::crowd::{Motion, crowd};

fn main() {
    let arg = |k: usize, default: usize| {
        std::env::args()
            .nth(k)
            .and_then(|s| s.parse().ok())
            .unwrap_or(default)
    };
    let (n, frames) = (arg(1, 1000), arg(2, 100));
    let queries: usize = std::env::var("QUERIES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1);
    let mut world = crowd(n, Motion::Spinning);
    let opts = CollisionOptions::default();
    let mut contacts = 0;
    // One frame first, so that shared geometry and texels are in the cache.
    world.step(0);
    world
        .stage
        .contacts_among(&world.sprites, world.world, &opts)
        .unwrap();
    let t = std::time::Instant::now();
    for f in 1..=frames as u64 {
        world.step(f);
        for _ in 0..queries {
            contacts += world
                .stage
                .contacts_among(&world.sprites, world.world, &opts)
                .unwrap()
                .len();
        }
    }
    println!(
        "{contacts} contacts, {:?} per frame, cache {} bytes",
        t.elapsed() / frames as u32,
        world.stage.cache_bytes()
    );
}
