//! The `crowd` benchmark: every colliding pair among many sprites, frame after frame.
//!
//! Half vector stars, half bitmaps, 24 to 96 px, random rotation and scale, spread over a
//! 2048 x 2048 world (at 1,000 sprites) so that each touches a few others. One iteration is
//! one frame: every sprite is moved, then `collisions` finds every colliding pair. How they
//! move:
//!
//! - `pixelhit`: by whole pixels, back and forth every 64 frames (the usual case for sprites;
//!   their rasters come from the cache);
//! - `pixelhit_fractional`: by fractions of a pixel, bouncing inside the field, never
//!   turning; every sprite must be drawn again at every frame;
//! - `spinning`: by fractions of a pixel, bouncing inside the field, and every sprite turns a
//!   little at every frame; every sprite must be drawn again at every frame;
//! - `still`: the same crowd, nothing moves (everything from the cache after the first frame).
//!
//! `naive` checks every pair's bounds and calls `collision` on each overlapping pair with an
//! empty cache (whole-pixel moves).
//!
//! In `pixelhit_fractional` and `spinning` no pose ever comes back: a sprite's pose is a
//! function of the frame number, which keeps growing across criterion's iterations (the crowd
//! and the counter live outside the measured closure), its position runs along a straight
//! line folded into the field and its angle grows by a constant step, and neither step is a
//! whole number of pixels or a whole turn over a frame count a run reaches.
//!
//! `dense_spinning/1000` and `dense_still/1000`: the same sprites five times as densely packed
//! (about 20 box neighbours a sprite; `prof_spinning 1000 spin 1 1 dense` prints the figure).
//!
//! `spinning_threads_1/1000` and `spinning_threads_2/1000` run the spinning crowd on a pool of
//! one and of two threads.
//!
//! Run with `cargo bench -p pixelhit-benches --bench crowd`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pixelhit::CollisionOptions;

use pixelhit_benches::crowd::{Motion, crowd, dense_crowd};

fn benches(c: &mut Criterion) {
    let opts = CollisionOptions::default();
    let mut g = c.benchmark_group("crowd");
    g.sample_size(20);
    for n in [250usize, 1000, 4000] {
        for (name, motion) in [
            ("pixelhit", Motion::WholePixels),
            ("pixelhit_fractional", Motion::Fractional),
            ("spinning", Motion::Spinning),
            ("still", Motion::Still),
        ] {
            // The crowd and the frame counter outlive the measured closure: each iteration
            // is the next frame, through warm-up and every sample.
            let mut world = crowd(n, motion);
            let mut frame = 0u64;
            g.bench_function(format!("{name}/{n}"), |bench| {
                bench.iter(|| {
                    frame += 1;
                    world.step(frame);
                    let contacts = world
                        .stage
                        .contacts_among(&world.sprites, world.world, &opts)
                        .unwrap();
                    black_box(contacts.len())
                })
            });
        }
        if n == 1000 {
            // A still frame of three queries after 200 moving, turning frames of three
            // queries each (the cache has seen 600 queries of poses that never come back),
            // next to the same still frame on a fresh stage (a clone: its cache is empty).
            // Each iteration touches the tree, so that it is a new frame for the cache, and
            // asks the three queries on the same poses.
            let mut world = crowd(n, Motion::Spinning);
            for frame in 1..=200 {
                world.step(frame);
                world.three_queries(&opts);
            }
            let mut fresh = world.clone();
            for (name, w) in [
                ("still_after_200_moving", &mut world),
                ("still_fresh", &mut fresh),
            ] {
                g.bench_function(format!("{name}/{n}"), |bench| {
                    bench.iter(|| {
                        w.touch();
                        black_box(w.three_queries(&opts))
                    })
                });
            }
        }
        if n <= 1000 {
            let mut world = crowd(n, Motion::WholePixels);
            let mut frame = 0;
            g.bench_function(format!("naive/{n}"), |bench| {
                bench.iter(|| {
                    frame += 1;
                    world.step(frame);
                    black_box(world.naive(&opts))
                })
            });
        }
    }
    // The dense crowd (about 20 box neighbours a sprite), turning and still (issue 29: a
    // moving frame at most 4x a still one). Both touch the tree every frame, as a game that
    // sets every position does, so the still frame is a new frame for the cache too.
    for (name, motion) in [
        ("dense_spinning", Motion::Spinning),
        ("dense_still", Motion::Still),
    ] {
        let mut world = dense_crowd(1000, motion);
        let mut frame = 0u64;
        g.bench_function(format!("{name}/1000"), |bench| {
            bench.iter(|| {
                frame += 1;
                world.step(frame);
                world.touch();
                let contacts = world
                    .stage
                    .contacts_among(&world.sprites, world.world, &opts)
                    .unwrap();
                black_box(contacts.len())
            })
        });
    }
    // The spinning crowd on pools of 1 and 2 threads (issue 21: 2 threads vs 1).
    for threads in [1usize, 2] {
        let pool = rayon::ThreadPoolBuilder::new()
            .num_threads(threads)
            .build()
            .unwrap();
        let opts = opts.parallel(threads > 1);
        let mut world = crowd(1000, Motion::Spinning);
        let mut frame = 0u64;
        g.bench_function(format!("spinning_threads_{threads}/1000"), |bench| {
            bench.iter(|| {
                frame += 1;
                world.step(frame);
                let contacts = pool.install(|| {
                    world
                        .stage
                        .contacts_among(&world.sprites, world.world, &opts)
                        .unwrap()
                });
                black_box(contacts.len())
            })
        });
    }
    g.finish();
}

criterion_group!(crowd_benches, benches);
criterion_main!(crowd_benches);
