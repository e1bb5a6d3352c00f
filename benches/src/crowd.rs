//! The crowd of the `crowd` benchmark and the profiling examples: many sprites, half vector
//! stars and half bitmaps, 24 to 96 px, random rotation and scale, spread over a 2048 x 2048
//! world (at 1,000 sprites) so that each touches a few others, moved frame by frame.
//!
//! In `Fractional` and `Spinning` motion no pose ever comes back: a sprite's pose is a
//! function of the frame number, its position runs along a straight line folded into the
//! field and its angle grows by a constant step, and neither step is a whole number of pixels
//! or a whole turn over a frame count a run reaches.

use pixelhit::{CollisionOptions, FillRule, Graphic, NodeId, Stage};

use crate::scenes;

/// How the sprites move from one frame to the next.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Motion {
    /// Not at all.
    Still,
    /// By whole pixels, back and forth every 64 frames ([`Crowd::step`]).
    WholePixels,
    /// By fractions of a pixel, bouncing inside the field, never turning.
    Fractional,
    /// By fractions of a pixel, bouncing inside the field, turning a little every frame.
    Spinning,
}

/// Where a sprite starts and how it moves.
#[derive(Clone, Copy, Debug)]
struct Start {
    x: f64,
    y: f64,
    /// Degrees.
    rotation: f64,
    /// Pixels per frame.
    velocity: (f64, f64),
    /// Degrees per frame.
    spin: f64,
}

/// The sprites, their starts and how they move. A clone's stage starts with an empty cache.
#[derive(Clone)]
pub struct Crowd {
    /// The stage holding them.
    pub stage: Stage,
    /// The container they are all in, the queries' parent.
    pub world: NodeId,
    /// One node per sprite.
    pub sprites: Vec<NodeId>,
    start: Vec<Start>,
    /// Side of the square field the sprites bounce in.
    side: f64,
    motion: Motion,
}

/// `n` sprites, half bitmaps and half vector stars, that move by `motion`.
pub fn crowd(n: usize, motion: Motion) -> Crowd {
    // Density chosen so that a sprite touches a few others: n sprites of ~60 px in a world
    // whose side grows with sqrt(n) (2048 at 1,000).
    crowd_on(n, motion, 2048.0 * (n as f64 / 1000.0).sqrt())
}

/// The same sprites as [`crowd`] packed five times as densely (a field of a fifth of the
/// area), so that each sprite's box overlaps about 20 others' (issue 29's dense pile: a
/// sprite in many pairs).
pub fn dense_crowd(n: usize, motion: Motion) -> Crowd {
    crowd_on(n, motion, 2048.0 * (n as f64 / 5000.0).sqrt())
}

/// `n` sprites that move by `motion` in a square field of side `side`.
fn crowd_on(n: usize, motion: Motion, side: f64) -> Crowd {
    let mut rng = scenes::Rng::new(n as u64);
    // A generator of its own for the turning speeds, so that the crowd itself (kinds,
    // places, angles, scales, velocities) is the same whatever the motion.
    let mut spin_rng = scenes::Rng::new(0x5b1_0000 + n as u64);
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    // A few shared images and shapes, as a game has a few sprite sheets.
    let bitmaps: Vec<_> = (0..8)
        .map(|i| scenes::blob(24 + 8 * i, 100 + u64::from(i)))
        .collect();
    let stars: Vec<_> = (0..8)
        .map(|i| scenes::star(5 + i % 3, 12.0 + 4.5 * i as f64, 0.5))
        .collect();
    let mut sprites = Vec::new();
    let mut start = Vec::new();
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
        let (x, y) = (rng.range(0.0, side).round(), rng.range(0.0, side).round());
        let rotation = rng.range(0.0, 360.0);
        stage.set_x(s, x).unwrap();
        stage.set_y(s, y).unwrap();
        stage.set_rotation(s, rotation).unwrap();
        let scale = rng.range(0.8, 1.2);
        stage.set_scale_x(s, scale).unwrap();
        stage.set_scale_y(s, scale).unwrap();
        let v = (rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
        let velocity = match motion {
            Motion::Still => (0.0, 0.0),
            Motion::WholePixels => (v.0.round(), v.1.round()),
            Motion::Fractional | Motion::Spinning => v,
        };
        // 0.25 to 2 degrees a frame, either way.
        let turn = spin_rng.range(0.25, 2.0);
        let spin = if spin_rng.f64() < 0.5 { turn } else { -turn };
        start.push(Start {
            x,
            y,
            rotation,
            velocity,
            spin,
        });
        sprites.push(s);
    }
    Crowd {
        stage,
        world,
        sprites,
        start,
        side,
        motion,
    }
}

/// `u` folded into `[0, side]`: where a point that started at `u mod 2 side` and moved along
/// a line would be if it bounced off walls at 0 and `side`.
fn bounce(u: f64, side: f64) -> f64 {
    let m = u.rem_euclid(2.0 * side);
    if m > side { 2.0 * side - m } else { m }
}

impl Crowd {
    /// The three queries a game asks in a frame on the same poses (rocks/rocks, ship/rocks,
    /// bullets/rocks): every pair of the crowd, the first sprite against all, and the first
    /// ten against all. Returns the contacts found.
    pub fn three_queries(&self, opts: &CollisionOptions) -> usize {
        let (s, w, all) = (&self.stage, self.world, &self.sprites);
        s.contacts_among(all, w, opts).unwrap().len()
            + s.contacts_against(all[0], all, w, opts).unwrap().len()
            + s.contacts_between(&all[..10.min(all.len())], all, w, opts)
                .unwrap()
                .len()
    }

    /// A frame in which nothing moves but the tree is touched (a sprite set to where it
    /// is), as in a game that sets every position every frame: a new frame for the cache.
    pub fn touch(&mut self) {
        let s = self.sprites[0];
        let x = self.stage.x(s).unwrap();
        self.stage.set_x(s, x).unwrap();
    }

    /// Moves every sprite to frame `frame` of its motion.
    pub fn step(&mut self, frame: u64) {
        match self.motion {
            Motion::Still => {}
            Motion::WholePixels => self.step_whole(frame),
            Motion::Fractional | Motion::Spinning => self.step_fractional(frame),
        }
    }

    /// Moves every sprite by its velocity, bouncing back and forth every 64 frames so that
    /// the crowd stays spread (poses repeat, as for sprites that move on the pixel grid).
    fn step_whole(&mut self, frame: u64) {
        let sign = if (frame / 64).is_multiple_of(2) { 1.0 } else { -1.0 };
        for (&s, start) in self.sprites.iter().zip(&self.start) {
            let (vx, vy) = start.velocity;
            let x = self.stage.x(s).unwrap() + sign * vx;
            let y = self.stage.y(s).unwrap() + sign * vy;
            self.stage.set_x(s, x).unwrap();
            self.stage.set_y(s, y).unwrap();
        }
    }

    /// Puts every sprite where its straight, bouncing path is at `frame` and, when the
    /// crowd spins, turns it to its start angle plus `frame` steps. Computed from the frame
    /// number rather than added up, so that no pose comes back by rounding.
    fn step_fractional(&mut self, frame: u64) {
        let t = frame as f64;
        let spin = self.motion == Motion::Spinning;
        for (&s, start) in self.sprites.iter().zip(&self.start) {
            let (vx, vy) = start.velocity;
            self.stage.set_x(s, bounce(start.x + vx * t, self.side)).unwrap();
            self.stage.set_y(s, bounce(start.y + vy * t, self.side)).unwrap();
            if spin {
                let rotation = (start.rotation + start.spin * t).rem_euclid(360.0);
                self.stage.set_rotation(s, rotation).unwrap();
            }
        }
    }

    /// Every pair whose boxes overlap, by `collision` on an empty cache each time.
    pub fn naive(&self, opts: &CollisionOptions) -> usize {
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
