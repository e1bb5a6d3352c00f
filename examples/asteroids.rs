//! A small game loop, written the way a game would use pixelhit: rotating rocks drift across
//! a 320 x 200 field that a camera scrolls, a ship flies through firing bullets, and every
//! frame asks which of them touch.
//!
//! - Sprites are placed with one call a frame (`set_transform`), each turning about its
//!   centre: its art sits in a child offset by half its size (the pivot idiom).
//! - Layers are containers under a `world` that the camera moves; queries are asked in the
//!   world's space, so the answers do not move with the camera.
//! - Bullets against rocks with `contacts_between` (bullets are never tested against each
//!   other), rocks among themselves with `collisions`, the ship against the rocks with
//!   `contacts_against`; a `ContactTracker` turns each list into began / continued / ended.
//! - A shot rock is hidden, not removed, and `skip_hidden` leaves it out of every query; a
//!   spent bullet is removed. A shield bubble has a tolerance of its own (only its opaque
//!   rim counts). A hit rock is moved to the back of its layer with `set_child_index`.
//!
//! Every 6th frame goes into one strip, written to `asteroids.png` in the system's temporary
//! folder (or the path given). Run with `cargo run --release --example asteroids [OUT.png]`.

use std::error::Error;

use pixelhit::{
    CollisionOptions, ContactPhase, ContactTracker, DVec2, DebugOptions, DebugQuery, FillRule, Graphic,
    NodeId, Path, Rect, RgbaImage, Stage, debug_image_with,
};

const FIELD: (f64, f64) = (320.0, 200.0);
const FRAMES: u32 = 60;
const EVERY: u32 = 6;

/// A moving sprite: its node and how it moves.
struct Body {
    node: NodeId,
    at: DVec2,
    velocity: DVec2,
    angle: f64,
    spin: f64,
}

impl Body {
    /// One step of the game's physics, then one call to place the sprite.
    fn step(&mut self, stage: &mut Stage) -> pixelhit::Result<()> {
        self.at = (self.at + self.velocity).rem_euclid(DVec2::new(FIELD.0, FIELD.1));
        self.angle += self.spin;
        stage.set_transform(self.node, self.at.x, self.at.y, self.angle, 1.0, 1.0)
    }
}

fn main() -> Result<(), Box<dyn Error>> {
    let mut stage = Stage::new();
    let root = stage.root();
    stage.set_name(root, "screen")?;
    // The camera moves the world; the layers keep rocks behind the ship and bullets on top.
    let world = stage.add_container(root)?;
    stage.set_name(world, "world")?;
    let [rock_layer, bullet_layer, ship_layer] = ["rocks", "bullets", "ships"].map(|name| {
        let layer = stage.add_container(world).expect("the world is a container");
        stage.set_name(layer, name).expect("a live node");
        layer
    });

    // The ship's art is drawn from (0, 0) to (26, 16); offset by half that, it turns about
    // its middle.
    let hull = [(0.0, 0.0), (26.0, 8.0), (0.0, 16.0), (5.0, 8.0)].map(|(x, y)| DVec2::new(x, y));
    let mut ship = sprite(&mut stage, ship_layer, "ship", &hull, DVec2::new(13.0, 8.0))?;
    ship.at = DVec2::new(20.0, 100.0);
    ship.velocity = DVec2::new(4.0, -0.3);
    ship.angle = -4.0;
    // A shield bubble around the ship: faint inside, opaque at the rim. With a tolerance of
    // its own of 0, only the rim's fully opaque pixels collide, whatever the query says.
    let shield = stage.add_container(ship.node)?;
    stage.set_name(shield, "shield")?;
    stage.add_graphic(
        shield,
        Graphic::fill(Path::circle(0.0, 0.0, 20.0), FillRule::NonZero, 0.15)?,
    )?;
    let rim = Path::circle(0.0, 0.0, 20.0);
    stage.add_graphic(shield, Graphic::stroke(rim, 2.0, 1.0)?)?;
    stage.set_tolerance(shield, Some(0))?;

    let mut rocks = Vec::new();
    for (at, velocity, spin, radius, seed) in [
        ((110.0, 70.0), (-0.5, 0.9), 4.0, 22.0, 1),
        ((180.0, 130.0), (-1.2, -0.6), -3.0, 18.0, 2),
        ((250.0, 60.0), (-1.6, 0.7), 5.0, 26.0, 3),
        ((240.0, 150.0), (-3.0, -1.2), -6.0, 14.0, 4),
        ((60.0, 40.0), (0.8, 0.5), 2.5, 16.0, 5),
    ] {
        let outline = asteroid(radius, seed);
        let mut rock = sprite(
            &mut stage,
            rock_layer,
            &format!("rock{seed}"),
            &outline,
            DVec2::ZERO,
        )?;
        rock.at = DVec2::new(at.0, at.1);
        rock.velocity = DVec2::new(velocity.0, velocity.1);
        rock.spin = spin;
        rocks.push(rock);
    }
    let mut bullets: Vec<Body> = Vec::new();

    let opts = CollisionOptions::default().skip_hidden(true).details(true);
    let (mut rocks_meeting, mut ship_hits) = (ContactTracker::new(), ContactTracker::new());
    let area = Rect::from_xywh(0.0, 0.0, FIELD.0, FIELD.1).ok_or("bad field")?;
    let mut cells = Vec::new();
    for frame in 0..FRAMES {
        // The camera drifts; the world's space (where we ask) does not.
        stage.set_position(world, -(f64::from(frame) * 0.5).sin() * 3.0, 0.0)?;
        ship.step(&mut stage)?;
        for body in rocks.iter_mut().chain(bullets.iter_mut()) {
            body.step(&mut stage)?;
        }
        if frame % 8 == 0 {
            bullets.push(fire(&mut stage, bullet_layer, &ship, frame)?);
        }

        let rock_ids: Vec<NodeId> = rocks.iter().map(|r| r.node).collect();
        let bullet_ids: Vec<NodeId> = bullets.iter().map(|b| b.node).collect();

        // Bullets against rocks: a hit hides the rock (it is out of every later query) and
        // removes the bullet.
        let shots = stage.contacts_between(&bullet_ids, &rock_ids, world, &opts)?;
        let mut spent = Vec::new();
        for shot in &shots {
            let at = shot.centroid().unwrap_or_default();
            println!(
                "frame {frame:2}: {} destroys {} at ({:.1}, {:.1})",
                name(&stage, shot.a),
                name(&stage, shot.b),
                at.x,
                at.y
            );
            spent.push(shot.a);
        }
        for shot in &shots {
            stage.set_visible(shot.b, false)?;
            stage.set_child_index(rock_layer, shot.b, 0)?;
        }
        for id in spent {
            if stage.contains(id) {
                stage.remove(id)?;
            }
        }
        bullets.retain(|b| stage.contains(b.node));

        // Rocks among themselves: they bounce apart along the contact's normal when they meet.
        let meetings = stage.contacts_among(&rock_ids, world, &opts)?;
        for event in rocks_meeting.update(&meetings) {
            match (event.phase, event.contact(&meetings)) {
                (ContactPhase::Began, Some(hit)) => {
                    let n = hit.normal().unwrap_or(DVec2::X);
                    let (i, j) = (index_of(&rocks, hit.a), index_of(&rocks, hit.b));
                    // Equal masses: exchange the velocity components along the normal.
                    let (va, vb) = (rocks[i].velocity.dot(n), rocks[j].velocity.dot(n));
                    if va > vb {
                        rocks[i].velocity += (vb - va) * n;
                        rocks[j].velocity += (va - vb) * n;
                    }
                    println!(
                        "frame {frame:2}: {} and {} meet",
                        name(&stage, hit.a),
                        name(&stage, hit.b)
                    );
                }
                (ContactPhase::Ended, _) => {
                    println!(
                        "frame {frame:2}: {} and {} part after {} frames",
                        name(&stage, event.a),
                        name(&stage, event.b),
                        event.frames
                    );
                }
                _ => {}
            }
        }

        // The ship's shield against the rocks: told once per contact.
        let hits = stage.contacts_against(shield, &rock_ids, world, &opts)?;
        for event in ship_hits.update(&hits) {
            if event.phase == ContactPhase::Began {
                println!(
                    "frame {frame:2}: the shield takes a hit from {}",
                    name(&stage, event.b)
                );
            }
        }

        if frame % EVERY == 0 {
            let queries: Vec<DebugQuery> = shots
                .iter()
                .chain(&meetings)
                .chain(&hits)
                .map(|c| DebugQuery::new(c.a, c.b, world))
                .collect();
            // One fixed frame, no legend: the cells of the strip line up.
            let options = DebugOptions::default().area(area).zoom(1).legend(false);
            cells.push(debug_image_with(&stage, &queries, &options)?);
        }
    }
    let strip = tile(&cells, 5);
    let out = match std::env::args_os().nth(1) {
        Some(p) => std::path::PathBuf::from(p),
        None => std::env::temp_dir().join("asteroids.png"),
    };
    strip.save(&out)?;
    println!(
        "wrote {} ({} x {}): frames 0, {EVERY}, {}, ... left to right, top to bottom",
        out.display(),
        strip.width(),
        strip.height(),
        2 * EVERY
    );
    Ok(())
}

/// A sprite under `layer`: a container (what the game moves and turns) holding the filled
/// outline moved by `-pivot`, so that the sprite turns about the outline's point `pivot`.
fn sprite(
    stage: &mut Stage,
    layer: NodeId,
    name: &str,
    outline: &[DVec2],
    pivot: DVec2,
) -> pixelhit::Result<Body> {
    let node = stage.add_container(layer)?;
    stage.set_name(node, name)?;
    let art = stage.add_container(node)?;
    stage.add_graphic(
        art,
        Graphic::fill(Path::polygon(outline), FillRule::NonZero, 1.0)?,
    )?;
    stage.set_position(art, -pivot.x, -pivot.y)?;
    Ok(Body {
        node,
        at: DVec2::ZERO,
        velocity: DVec2::ZERO,
        angle: 0.0,
        spin: 0.0,
    })
}

/// A bullet leaving the ship's nose along its heading.
fn fire(stage: &mut Stage, layer: NodeId, ship: &Body, frame: u32) -> pixelhit::Result<Body> {
    let square = [(-2.0, -1.0), (2.0, -1.0), (2.0, 1.0), (-2.0, 1.0)].map(|(x, y)| DVec2::new(x, y));
    let mut bullet = sprite(stage, layer, &format!("bullet{frame}"), &square, DVec2::ZERO)?;
    let heading = DVec2::from_angle(ship.angle.to_radians());
    bullet.at = ship.at + heading * 16.0;
    bullet.velocity = ship.velocity + heading * 6.0;
    bullet.angle = ship.angle;
    bullet.step(stage)?;
    Ok(bullet)
}

fn name(stage: &Stage, id: NodeId) -> String {
    stage.name(id).ok().flatten().unwrap_or("?").to_string()
}

fn index_of(bodies: &[Body], id: NodeId) -> usize {
    bodies
        .iter()
        .position(|b| b.node == id)
        .expect("a rock of the list")
}

/// A lumpy polygon of about `radius` around the origin, the same for the same `seed`.
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
