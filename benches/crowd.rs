//! The `crowd` benchmark: every colliding pair among many sprites, frame after frame.
//!
//! Half vector stars, half bitmaps, 24 to 96 px, random rotation and scale, spread over a
//! 2048 x 2048 world so that each touches a few others. Every frame each sprite moves by its
//! own velocity: whole pixels (`pixelhit`, the usual case for sprites) or fractions of a pixel
//! (`pixelhit_fractional`, where every moved sprite must be drawn again). `naive` checks every
//! pair's bounds and calls `collision` on each overlapping pair with an empty cache.
//!
//! Run with `cargo bench --bench crowd`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pixelhit::{CollisionOptions, FillRule, Graphic, NodeId, Stage};

mod scenes;

struct Crowd {
    stage: Stage,
    world: NodeId,
    sprites: Vec<NodeId>,
    velocity: Vec<(f64, f64)>,
}

fn crowd(n: usize, fractional: bool) -> Crowd {
    let mut rng = scenes::Rng::new(n as u64);
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    // A few shared images and shapes, as a game has a few sprite sheets.
    let bitmaps: Vec<_> = (0..8)
        .map(|i| scenes::blob(24 + 8 * i, 100 + u64::from(i)))
        .collect();
    let stars: Vec<_> = (0..8)
        .map(|i| scenes::star(5 + i % 3, 12.0 + 4.5 * i as f64, 0.5))
        .collect();
    // Density chosen so that a sprite touches a few others: n sprites of ~60 px in a world
    // whose side grows with sqrt(n) (2048 at 1,000).
    let side = 2048.0 * (n as f64 / 1000.0).sqrt();
    let mut sprites = Vec::new();
    let mut velocity = Vec::new();
    for i in 0..n {
        let k = (rng.f64() * 8.0) as usize;
        let s = if i % 2 == 0 {
            stage.add_bitmap(world, bitmaps[k].clone(), false).unwrap()
        } else {
            let c = stage.add_container(world).unwrap();
            let g = Graphic::fill(stars[k].clone(), FillRule::NonZero, 1.0).unwrap();
            stage.add_graphic(c, g).unwrap();
            c
        };
        stage.set_x(s, rng.range(0.0, side).round()).unwrap();
        stage.set_y(s, rng.range(0.0, side).round()).unwrap();
        stage.set_rotation(s, rng.range(0.0, 360.0)).unwrap();
        let scale = rng.range(0.8, 1.2);
        stage.set_scale_x(s, scale).unwrap();
        stage.set_scale_y(s, scale).unwrap();
        let v = (rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        velocity.push(if fractional { v } else { (v.0.round(), v.1.round()) });
        sprites.push(s);
    }
    Crowd {
        stage,
        world,
        sprites,
        velocity,
    }
}

impl Crowd {
    /// Moves every sprite by its velocity, bouncing back and forth every 64 frames so that
    /// the crowd stays spread.
    fn step(&mut self, frame: usize) {
        let sign = if (frame / 64).is_multiple_of(2) { 1.0 } else { -1.0 };
        for (&s, &(vx, vy)) in self.sprites.iter().zip(&self.velocity) {
            let x = self.stage.x(s).unwrap() + sign * vx;
            let y = self.stage.y(s).unwrap() + sign * vy;
            self.stage.set_x(s, x).unwrap();
            self.stage.set_y(s, y).unwrap();
        }
    }

    fn naive(&self, opts: &CollisionOptions) -> usize {
        let mut found = 0;
        for (i, &a) in self.sprites.iter().enumerate() {
            for &b in &self.sprites[i + 1..] {
                let (ba, bb) = (
                    self.stage.bounds(a, self.world).unwrap(),
                    self.stage.bounds(b, self.world).unwrap(),
                );
                if let (Some(ba), Some(bb)) = (ba, bb)
                    && ba.intersect(&bb).is_some()
                {
                    self.stage.clear_cache();
                    found += usize::from(
                        self.stage
                            .collision(a, b, self.world, opts)
                            .unwrap()
                            .rect
                            .is_some(),
                    );
                }
            }
        }
        found
    }
}

fn benches(c: &mut Criterion) {
    let opts = CollisionOptions::default();
    let mut g = c.benchmark_group("crowd");
    g.sample_size(20);
    for n in [250usize, 1000, 4000] {
        for (name, fractional) in [("pixelhit", false), ("pixelhit_fractional", true)] {
            let mut world = crowd(n, fractional);
            let mut frame = 0;
            g.bench_function(format!("{name}/{n}"), |bench| {
                bench.iter(|| {
                    frame += 1;
                    world.step(frame);
                    let contacts = world
                        .stage
                        .collisions(world.world, &world.sprites, &opts, false)
                        .unwrap();
                    black_box(contacts.len())
                })
            });
        }
        if n <= 1000 {
            let mut world = crowd(n, false);
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
    g.finish();
}

criterion_group!(crowd_benches, benches);
criterion_main!(crowd_benches);
