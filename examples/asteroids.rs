//! A tiny game loop: rotating asteroids drift across a 320 x 200 field, a ship flies through,
//! and every frame asks pixelhit which of them touch. Asteroids that touch bounce apart; the
//! ship reports each hit. Every 6th frame goes into one strip, `asteroids.png` (4 x 2 frames,
//! overlaps in magenta). Run with `cargo run --release --example asteroids`.

use std::error::Error;

use pixelhit::{
    CollisionOptions, DVec2, DebugOptions, DebugQuery, FillRule, Graphic, NodeId, Path, Rect, RgbaImage,
    Stage, debug_image_with,
};

const FIELD: (f64, f64) = (320.0, 200.0);
const FRAMES: u32 = 48;
const EVERY: u32 = 6;

struct Body {
    node: NodeId,
    name: String,
    velocity: DVec2,
    spin: f64,
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut stage = Stage::new();
    let root = stage.root();
    stage.set_name(root, "field")?;

    let ship_shape = [(-12.0, -8.0), (14.0, 0.0), (-12.0, 8.0), (-7.0, 0.0)].map(|(x, y)| DVec2::new(x, y));
    let ship = body(&mut stage, "ship", &ship_shape, (20.0, 100.0), (5.0, -0.4), 0.0)?;
    stage.set_rotation(ship.node, -5.0)?;
    let mut bodies = vec![ship];
    let rocks = [
        ((110.0, 70.0), (-0.5, 0.9), 4.0, 22.0, 1),
        ((180.0, 130.0), (-1.2, -0.6), -3.0, 18.0, 2),
        ((250.0, 60.0), (-1.6, 0.7), 5.0, 26.0, 3),
        ((240.0, 150.0), (-3.0, -1.2), -6.0, 14.0, 4),
    ];
    for (at, velocity, spin, radius, seed) in rocks {
        let outline = asteroid(radius, seed);
        let name = format!("rock{seed}");
        bodies.push(body(&mut stage, &name, &outline, at, velocity, spin)?);
    }

    let opts = CollisionOptions::default();
    let area = Rect::from_xywh(0.0, 0.0, FIELD.0, FIELD.1).ok_or("bad field")?;
    let mut cells = Vec::new();
    for frame in 0..FRAMES {
        // Move and turn everything, wrapping around the field's edges.
        for b in &bodies {
            let x = (stage.x(b.node)? + b.velocity.x).rem_euclid(FIELD.0);
            let y = (stage.y(b.node)? + b.velocity.y).rem_euclid(FIELD.1);
            stage.set_x(b.node, x)?;
            stage.set_y(b.node, y)?;
            stage.set_rotation(b.node, stage.rotation(b.node)? + b.spin)?;
        }
        // Every pair, by their pixels.
        let mut hits = Vec::new();
        for i in 0..bodies.len() {
            for j in i + 1..bodies.len() {
                let (a, b) = (&bodies[i], &bodies[j]);
                let c = stage.collision(a.node, b.node, root, &opts)?;
                if let Some(r) = c.rect {
                    let [x, y, w, h] = r.to_xywh();
                    let n = c.overlap_pixels.unwrap_or(0);
                    println!(
                        "frame {frame:2}: {} x {}: [{x}, {y}, {w}, {h}], {n} pixels",
                        a.name, b.name
                    );
                    hits.push((i, j));
                }
            }
        }
        // Rocks that touch swap velocities (equal masses, a head-on bounce); the ship is
        // only told.
        for &(i, j) in &hits {
            if i > 0 {
                let v = bodies[i].velocity;
                bodies[i].velocity = bodies[j].velocity;
                bodies[j].velocity = v;
            }
        }
        if frame % EVERY == 0 {
            let queries: Vec<DebugQuery> = hits
                .iter()
                .map(|&(i, j)| DebugQuery::new(bodies[i].node, bodies[j].node, root))
                .collect();
            // One fixed frame, no legend: the cells of the strip line up.
            let options = DebugOptions::default().area(area).zoom(1).legend(false);
            cells.push(debug_image_with(&stage, &queries, &options)?);
        }
    }
    let strip = tile(&cells, 4);
    strip.save("asteroids.png")?;
    println!(
        "wrote asteroids.png ({} x {}): frames 0, {EVERY}, {}, ... left to right, top to bottom",
        strip.width(),
        strip.height(),
        2 * EVERY
    );
    Ok(())
}

/// A container named `name` holding a filled outline, placed and set moving.
fn body(
    stage: &mut Stage,
    name: &str,
    outline: &[DVec2],
    at: (f64, f64),
    velocity: (f64, f64),
    spin: f64,
) -> pixelhit::Result<Body> {
    let node = stage.add_container(stage.root())?;
    stage.set_name(node, name)?;
    stage.add_graphic(
        node,
        Graphic::fill(Path::polygon(outline), FillRule::NonZero, 1.0)?,
    )?;
    stage.set_x(node, at.0)?;
    stage.set_y(node, at.1)?;
    Ok(Body {
        node,
        name: name.to_string(),
        velocity: DVec2::new(velocity.0, velocity.1),
        spin,
    })
}

/// A lumpy polygon of about `radius`, the same for the same `seed`.
fn asteroid(radius: f64, seed: u32) -> Vec<DVec2> {
    (0..11)
        .map(|k| {
            let a = f64::from(k) * std::f64::consts::TAU / 11.0;
            let bump = ((f64::from(k * 7 + seed * 13) * 1.7).sin() * 0.25 + 0.85) * radius;
            DVec2::new(bump * a.cos(), bump * a.sin())
        })
        .collect()
}

/// The cells side by side, `columns` to a row, with a 2 pixel grey gap.
fn tile(cells: &[RgbaImage], columns: usize) -> RgbaImage {
    const GAP: u32 = 2;
    let (w, h) = cells.first().map_or((1, 1), |c| c.dimensions());
    let rows = cells.len().div_ceil(columns) as u32;
    let cols = columns.min(cells.len()).max(1) as u32;
    let mut out = RgbaImage::from_pixel(
        cols * (w + GAP) - GAP,
        rows * (h + GAP) - GAP,
        image::Rgba([90, 90, 90, 255]),
    );
    for (k, cell) in cells.iter().enumerate() {
        let (x0, y0) = ((k % columns) as u32 * (w + GAP), (k / columns) as u32 * (h + GAP));
        for (x, y, p) in cell.enumerate_pixels() {
            if x0 + x < out.width() && y0 + y < out.height() {
                out.put_pixel(x0 + x, y0 + y, *p);
            }
        }
    }
    out
}
