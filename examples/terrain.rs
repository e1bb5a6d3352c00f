//! Destructible terrain, the classic home of per-pixel collision (Worms, Liero): a 2048 x
//! 1024 bitmap that a stream of explosions carves craters into, and a walker kept on its
//! surface by `separation` (climbing out of the ground) and `sweep` (falling onto it).
//!
//! - Each explosion is one `Stage::erase` with a disc; now and then one throws up a clod
//!   of earth, a `Stage::paint`. The stage makes again only what an edit's rectangle touches
//!   (the terrain's texel table and its kept raster), never the whole bitmap.
//! - Each frame the walker steps right; in the ground it is pushed up along -y by
//!   `separation` (a step it can climb), then it falls with gravity until a `sweep` finds
//!   the ground.
//!
//! It checks, and prints, that after every frame the walker shares no solid pixel with the
//! terrain and stands on it or falls; and that the cratered stage answers as a fresh stage
//! built from the final pixels. It exits 0 when every check holds and writes a picture of
//! the end to `terrain.png` in the system's temporary folder (or the path given). Run with
//! `cargo run --release --example terrain [OUT.png]`.

use std::error::Error;

use pixelhit::{
    Bitmap, Brush, CollisionOptions, DVec2, DebugOptions, DebugQuery, MotionOptions, NodeId, Pose, Rect,
    Stage, debug_image_with,
};

const WIDTH: u32 = 2048;
const HEIGHT: u32 = 1024;
const FRAMES: u32 = 600;
/// Pixels the walker steps right each frame, the most it climbs in one step and in one hop,
/// and the most it falls in a frame.
const STEP: f64 = 3.0;
const CLIMB: f64 = 12.0;
const HOP: f64 = 64.0;
const GRAVITY: f64 = 12.0;

/// Rolling hills, solid below the surface: earth brown, opaque.
fn hills() -> Result<Bitmap, Box<dyn Error>> {
    let mut rgba = vec![0u8; (4 * WIDTH * HEIGHT) as usize];
    for x in 0..WIDTH {
        let fx = f64::from(x);
        let surface = 620.0 + 90.0 * (fx / 170.0).sin() + 25.0 * (fx / 37.0).cos();
        for y in (surface.max(0.0) as u32)..HEIGHT {
            let i = (4 * (y * WIDTH + x)) as usize;
            rgba[i..i + 4].copy_from_slice(&[120, 84, 50, 255]);
        }
    }
    Ok(Bitmap::from_rgba8(WIDTH, HEIGHT, rgba)?)
}

/// A walker 10 px wide and 16 high, its feet rounded.
fn walker() -> Result<Bitmap, Box<dyn Error>> {
    let (w, h) = (10u32, 16u32);
    let mut rgba = Vec::new();
    for y in 0..h {
        for x in 0..w {
            let (dx, dy) = (f64::from(x) + 0.5 - 5.0, f64::from(y) + 0.5 - 11.0);
            let solid = y < 11 || dx * dx + dy * dy <= 25.0;
            rgba.extend_from_slice(&[40, 90, 220, if solid { 255 } else { 0 }]);
        }
    }
    Ok(Bitmap::from_rgba8(w, h, rgba)?)
}

/// A small generator, so the run is the same every time.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        (self.0 >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// The first row of column `x` holding a solid texel, or the bottom.
fn surface(stage: &Stage, ground: NodeId, x: f64) -> pixelhit::Result<f64> {
    let column = x.clamp(0.0, f64::from(WIDTH - 1)) as u32;
    let Some((bitmap, _)) = stage.bitmap(ground)? else {
        return Ok(f64::from(HEIGHT));
    };
    let top = (0..HEIGHT).find(|&y| bitmap.pixel(column, y).is_some_and(|p| p[3] > 0));
    Ok(f64::from(top.unwrap_or(HEIGHT)))
}

fn overlap(stage: &Stage, a: NodeId, b: NodeId) -> pixelhit::Result<u64> {
    let c = stage.collision(a, b, stage.root(), &CollisionOptions::default())?;
    Ok(c.overlap_pixels.unwrap_or(0))
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut stage = Stage::new();
    let root = stage.root();
    let ground = stage.add_bitmap(root, hills()?, false)?;
    stage.set_name(ground, "terrain")?;
    let body = stage.add_bitmap(root, walker()?, false)?;
    stage.set_name(body, "walker")?;
    let (mut x, mut y) = (40.0, surface(&stage, ground, 45.0)? - 40.0);
    stage.set_position(body, x, y)?;
    let mut rng = Rng(2026);
    let motion = MotionOptions::default();
    let (mut craters, mut clods, mut standing, mut falling, mut blocked, mut hops) = (0, 0, 0, 0, 0, 0);
    let mut failures = Vec::new();
    let mut blasts = Vec::new();
    for frame in 0..FRAMES {
        // The stream of explosions: anywhere on the map, and one in twenty under the walker.
        if frame % 4 == 0 {
            let cx = match frame % 80 {
                0 => x + 5.0,
                _ => f64::from(WIDTH) * rng.unit(),
            };
            let cy = surface(&stage, ground, cx)? + 12.0 * rng.unit();
            let radius = 14.0 + 30.0 * rng.unit();
            let centre = DVec2::new(cx, cy);
            stage.erase(ground, &Brush::Disc { centre, radius }, 1.0)?;
            blasts.push((centre, radius));
            craters += 1;
            // One blast in five throws up a clod of earth beside its crater.
            if craters % 5 == 0 {
                let clod = DVec2::new(
                    cx + radius + 8.0,
                    surface(&stage, ground, cx + radius + 8.0)? - 4.0,
                );
                stage.paint(
                    ground,
                    &Brush::Disc {
                        centre: clod,
                        radius: 7.0,
                    },
                    [150, 100, 60, 255],
                    1.0,
                )?;
                clods += 1;
            }
        }
        // A step right; in the ground it climbs, up to CLIMB, or the step is taken back.
        x += STEP;
        stage.set_position(body, x, y)?;
        if overlap(&stage, body, ground)? > 0 {
            let up = motion.max_distance(CLIMB);
            let hop = motion.max_distance(HOP);
            let up_dir = Some(DVec2::new(0.0, -1.0));
            let climbed = match stage.separation(body, ground, root, up_dir, &up)? {
                Some(d) => Some(d),
                // A wall higher than a step: a hop out of the crater, if one gets it out.
                None => stage
                    .separation(body, ground, root, up_dir, &hop)?
                    .inspect(|_| hops += 1),
            };
            match climbed {
                Some(d) => y -= d.ceil(),
                None => {
                    x -= STEP;
                    blocked += 1;
                }
            }
            stage.set_position(body, x, y)?;
        }
        // Gravity: from where it stands, down until the sweep meets the ground.
        let from = Pose::new(x, y, 0.0, 1.0, 1.0);
        stage.set_position(body, x, y + GRAVITY)?;
        match stage.sweep(body, ground, root, Some(from), None, &motion)? {
            Some(hit) => {
                y += (hit.last_clear.unwrap_or(0.0) * GRAVITY).floor();
                standing += 1;
            }
            None => {
                y += GRAVITY;
                falling += 1;
            }
        }
        stage.set_position(body, x, y)?;
        if overlap(&stage, body, ground)? > 0 {
            failures.push(format!(
                "frame {frame}: the walker is inside the terrain at ({x}, {y})"
            ));
        }
        if y > f64::from(HEIGHT) {
            failures.push(format!("frame {frame}: the walker fell out of the world"));
            break;
        }
    }
    println!(
        "{FRAMES} frames: {craters} craters and {clods} clods; the walker reached x = {x} \
         (stood {standing} frames, fell {falling}, hopped {hops}, was blocked {blocked})"
    );
    if x < 1200.0 {
        failures.push(format!("the walker got only to x = {x}"));
    }
    if standing < FRAMES / 2 {
        failures.push(format!("the walker stood on the ground only {standing} frames"));
    }

    // The edited stage answers as a fresh one built from the final pixels.
    let pixels = stage
        .bitmap(ground)?
        .map(|(b, _)| b.rgba().to_vec())
        .unwrap_or_default();
    let mut fresh = Stage::new();
    let froot = fresh.root();
    let fground = fresh.add_bitmap(froot, Bitmap::from_rgba8(WIDTH, HEIGHT, pixels)?, false)?;
    let fbody = fresh.add_bitmap(froot, walker()?, false)?;
    let mut compared = 0;
    for (centre, radius) in blasts.iter().step_by(7) {
        for (dx, dy) in [(-1.0, -1.0), (0.0, 0.0), (0.5, 0.25)] {
            let (px, py) = (centre.x + dx * radius, centre.y + dy * radius);
            stage.set_position(body, px, py)?;
            fresh.set_position(fbody, px, py)?;
            let opts = CollisionOptions::default();
            let (a, b) = (
                stage.collision(body, ground, root, &opts)?,
                fresh.collision(fbody, fground, froot, &opts)?,
            );
            let area = Rect::from_ltrb(px - 20.0, py - 20.0, px + 20.0, py + 20.0).ok_or("an area")?;
            let same_plane = stage.alpha_plane(ground, root, area, &opts)?
                == fresh.alpha_plane(fground, froot, area, &opts)?;
            let same_point =
                stage.hit_test_point(ground, px, py, true)? == fresh.hit_test_point(fground, px, py, true)?;
            if a != b || !same_plane || !same_point {
                failures.push(format!(
                    "at ({px}, {py}) the cratered stage answers {a:?}, a fresh one {b:?}"
                ));
            }
            compared += 1;
        }
    }
    println!(
        "{compared} places asked of the cratered stage and of a fresh one built from its pixels: the same answers"
    );
    stage.set_position(body, x, y)?;

    let out = match std::env::args().nth(1) {
        Some(p) => std::path::PathBuf::from(p),
        None => std::env::temp_dir().join("terrain.png"),
    };
    let shown = Rect::from_ltrb(0.0, 300.0, f64::from(WIDTH), f64::from(HEIGHT)).ok_or("an area")?;
    let options = DebugOptions::default().area(shown);
    debug_image_with(&stage, &[DebugQuery::new(body, ground, root)], &options)?.save(&out)?;
    println!("picture: {}", out.display());

    if failures.is_empty() {
        println!("every check holds");
        Ok(())
    } else {
        for f in &failures {
            eprintln!("FAILED: {f}");
        }
        Err(format!("{} checks failed", failures.len()).into())
    }
}
