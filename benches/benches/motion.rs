//! The `motion` benchmark: sweeps next to the discrete queries of the same frame.
//!
//! - `bullets/sweeps_with` and `bullets/collisions_with`: 2,000 bullets (3 x 3 px) move
//!   20 px a frame in every direction across a 1024 x 1024 field of 100 rocks (vector stars
//!   and bitmaps, 24 to 80 px) that all turn at every frame. One iteration is one frame:
//!   the rocks turn, the bullets move, and each bullet asks `sweeps_with` (from its last
//!   pose) or `collisions_with` (its current pose only) against the rocks. Poses never come
//!   back: they are functions of the frame number, which keeps growing across iterations.
//!   `bullets/sweeps_between` and `bullets/collisions_between` are the same frames in one
//!   call each (one broad phase for all bullets).
//! - `pair/sweep` and `pair/collision`: one 80 px star moving 50 px and turning 30 degrees
//!   towards a rock, sweeps the step; next to one `collision` at the end pose. Each
//!   iteration shifts the whole pair by a fraction of a pixel, so no pose repeats.
//!
//! Run with `cargo bench -p pixelhit-benches --bench motion`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pixelhit::{CollisionOptions, FillRule, Graphic, MotionOptions, NodeId, Path, Pose, Stage};

use pixelhit_benches::scenes;

const FIELD: f64 = 1024.0;

struct Field {
    stage: Stage,
    world: NodeId,
    rocks: Vec<NodeId>,
    /// Each rock's angle at frame 0 and degrees per frame.
    turns: Vec<(f64, f64)>,
    bullets: Vec<NodeId>,
    /// Each bullet's start and velocity (px per frame).
    paths: Vec<(f64, f64, f64, f64)>,
    /// Each bullet's pose at the frame before.
    last: Vec<Pose>,
}

fn field() -> Field {
    let mut rng = scenes::Rng::new(23);
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let mut rocks = Vec::new();
    let mut turns = Vec::new();
    for i in 0..100 {
        let size = rng.range(24.0, 80.0);
        let rock = if i % 2 == 0 {
            let bm = scenes::blob(size as u32, 500 + i);
            let holder = stage.add_container(world).unwrap();
            let pic = stage.add_bitmap(holder, bm, false).unwrap();
            stage.set_position(pic, -size / 2.0, -size / 2.0).unwrap();
            holder
        } else {
            let c = stage.add_container(world).unwrap();
            let g = Graphic::fill(
                scenes::star(5 + (i as usize) % 3, size / 2.0, 0.55),
                FillRule::NonZero,
                1.0,
            );
            stage.add_graphic(c, g.unwrap()).unwrap();
            c
        };
        stage
            .set_position(rock, rng.range(0.0, FIELD), rng.range(0.0, FIELD))
            .unwrap();
        let spin = rng.range(0.25, 2.0) * if rng.f64() < 0.5 { 1.0 } else { -1.0 };
        turns.push((rng.range(0.0, 360.0), spin));
        rocks.push(rock);
    }
    let mut bullets = Vec::new();
    let mut paths = Vec::new();
    for _ in 0..2000 {
        let b = stage.add_container(world).unwrap();
        let g = Graphic::fill(Path::rect(-1.5, -1.5, 3.0, 3.0), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(b, g).unwrap();
        let a = rng.range(0.0, std::f64::consts::TAU);
        paths.push((
            rng.range(0.0, FIELD),
            rng.range(0.0, FIELD),
            20.0 * a.cos(),
            20.0 * a.sin(),
        ));
        bullets.push(b);
    }
    let last = vec![Pose::at(0.0, 0.0); bullets.len()];
    Field {
        stage,
        world,
        rocks,
        turns,
        bullets,
        paths,
        last,
    }
}

impl Field {
    /// Moves everything to frame `f`; each bullet's `last` is where it was a frame before
    /// (20 px back along its path, also across the field's wrap).
    fn step(&mut self, f: u64) {
        let f = f as f64;
        for (&rock, &(r0, spin)) in self.rocks.iter().zip(&self.turns) {
            self.stage.set_rotation(rock, r0 + spin * f).unwrap();
        }
        for (i, (&b, &(x0, y0, vx, vy))) in self.bullets.iter().zip(&self.paths).enumerate() {
            let (x, y) = ((x0 + vx * f).rem_euclid(FIELD), (y0 + vy * f).rem_euclid(FIELD));
            self.stage.set_position(b, x, y).unwrap();
            self.last[i] = Pose::at(x - vx, y - vy);
        }
    }
}

fn bullets(c: &mut Criterion) {
    let mut g = c.benchmark_group("motion");
    g.sample_size(10);
    let opts = MotionOptions::default();
    let copts = CollisionOptions::default();
    let mut world = field();
    let mut frame = 0u64;
    g.bench_function("bullets/sweeps_with", |bench| {
        bench.iter(|| {
            frame += 1;
            world.step(frame);
            let mut hits = 0;
            for (&b, &from) in world.bullets.iter().zip(&world.last) {
                hits += world
                    .stage
                    .sweeps_against(b, from, &world.rocks, world.world, &opts)
                    .unwrap()
                    .len();
            }
            black_box(hits)
        })
    });
    let mut world = field();
    let mut frame = 0u64;
    g.bench_function("bullets/collisions_with", |bench| {
        bench.iter(|| {
            frame += 1;
            world.step(frame);
            let mut hits = 0;
            for &b in &world.bullets {
                hits += world
                    .stage
                    .contacts_against(b, &world.rocks, world.world, &copts)
                    .unwrap()
                    .len();
            }
            black_box(hits)
        })
    });

    // The group form: every bullet of the frame in one call, one broad phase.
    let mut world = field();
    let mut frame = 0u64;
    g.bench_function("bullets/sweeps_between", |bench| {
        bench.iter(|| {
            frame += 1;
            world.step(frame);
            let movers: Vec<(NodeId, Pose)> = world
                .bullets
                .iter()
                .copied()
                .zip(world.last.iter().copied())
                .collect();
            let hits = world
                .stage
                .sweeps_between(world.world, &movers, &world.rocks, &opts);
            black_box(hits.unwrap().len())
        })
    });
    // The discrete test as a game would write it for a frame: one call, bullets against rocks.
    let mut world = field();
    let mut frame = 0u64;
    g.bench_function("bullets/collisions_between", |bench| {
        bench.iter(|| {
            frame += 1;
            world.step(frame);
            let hits = world
                .stage
                .contacts_between(&world.bullets, &world.rocks, world.world, &copts);
            black_box(hits.unwrap().len())
        })
    });

    // One pair: a star moving 50 px and turning 30 degrees towards a rock.
    let mut stage = Stage::new();
    let root = stage.root();
    let mover = stage.add_container(root).unwrap();
    let g1 = Graphic::fill(scenes::star(7, 40.0, 0.55), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(mover, g1).unwrap();
    let rock = stage.add_container(root).unwrap();
    let g2 = Graphic::fill(scenes::star(5, 40.0, 0.5), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(rock, g2).unwrap();
    let mut k = 0u64;
    let mut place = move |stage: &mut Stage| -> Pose {
        k += 1;
        // A new fraction of a pixel and a new angle at every iteration: no raster of either
        // target comes from the cache.
        let shift = (k as f64 * 0.377).rem_euclid(64.0);
        let turn = (k as f64 * 0.0731).rem_euclid(5.0);
        stage
            .set_transform(rock, 200.0 + shift, 100.0, turn, 1.0, 1.0)
            .unwrap();
        stage
            .set_transform(mover, 150.0 + shift, 100.0, 40.0 + turn, 1.0, 1.0)
            .unwrap();
        Pose::new(100.0 + shift, 100.0, 10.0 + turn, 1.0, 1.0)
    };
    g.bench_function("pair/sweep", |bench| {
        bench.iter(|| {
            let from = place(&mut stage);
            black_box(stage.sweep(mover, rock, root, Some(from), None, &opts).unwrap())
        })
    });
    g.bench_function("pair/collision", |bench| {
        bench.iter(|| {
            place(&mut stage);
            black_box(stage.collision(mover, rock, root, &copts).unwrap())
        })
    });
    g.finish();
}

criterion_group!(motion_benches, bullets);
criterion_main!(motion_benches);
