//! Keeping a `Stage` in step with a game engine's own hierarchy, frame by frame.
//!
//! The engine here is plain data (so that this compiles without one): entities with a parent,
//! a position, a rotation in radians counter-clockwise and a scale, y pointing up, in f32, and
//! a "changed" flag, which is what Bevy's `Transform` with `Changed<Transform>` or a
//! macroquad game's own structs give. The mirror makes one node per entity once, then each
//! frame makes one call per entity that moved: `set_matrix(node, from_y_up_parts(..))`.
//! Answers come back in pixelhit's y-down space and convert back with `point_from_y_up`.
//!
//! Run with `cargo run --release --example engine_sync`.

use std::collections::HashMap;

use pixelhit::{
    CollisionOptions, ContactPhase, ContactTracker, FillRule, Graphic, NodeId, Path, Stage, from_y_up_parts,
    point_from_y_up,
};

/// An entity as the engine keeps it.
struct Entity {
    id: u32,
    parent: Option<u32>,
    translation: [f32; 2],
    rotation: f32,
    scale: [f32; 2],
    /// A sprite's size, drawn centred on the entity (engines anchor sprites at their centre).
    sprite: Option<[f32; 2]>,
    changed: bool,
}

/// The stage that mirrors the engine: one node per entity, made when first seen.
struct Mirror {
    stage: Stage,
    nodes: HashMap<u32, NodeId>,
}

impl Mirror {
    fn new() -> Mirror {
        Mirror {
            stage: Stage::new(),
            nodes: HashMap::new(),
        }
    }

    /// Brings the stage up to date: new entities get nodes (parents come before children
    /// in the engine's list here; an engine with another order would make parents first),
    /// moved ones one `set_matrix` each.
    fn sync(&mut self, entities: &mut [Entity]) -> pixelhit::Result<usize> {
        let mut calls = 0;
        for e in entities.iter_mut() {
            let node = match self.nodes.get(&e.id) {
                Some(&n) => n,
                None => {
                    let parent = match e.parent {
                        Some(p) => self.nodes[&p],
                        None => self.stage.root(),
                    };
                    let n = self.stage.add_container(parent)?;
                    self.stage.set_name(n, format!("entity{}", e.id))?;
                    if let Some([w, h]) = e.sprite {
                        // The engine's sprite is centred on its entity: the art is offset by
                        // half its size (in y-down space the rectangle starts at -h/2 too).
                        let (w, h) = (f64::from(w), f64::from(h));
                        let art = Path::rect(-w / 2.0, -h / 2.0, w, h);
                        self.stage
                            .add_graphic(n, Graphic::fill(art, FillRule::NonZero, 1.0)?)?;
                    }
                    self.nodes.insert(e.id, n);
                    e.changed = true;
                    n
                }
            };
            if e.changed {
                self.stage
                    .set_matrix(node, from_y_up_parts(e.translation, e.rotation, e.scale))?;
                e.changed = false;
                calls += 1;
            }
        }
        Ok(calls)
    }
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    // A world (moved as a camera), a ship with a turret, and three crates.
    let mut entities = vec![
        entity(1, None, [0.0, 0.0], None),
        entity(2, Some(1), [-60.0, 0.0], Some([30.0, 14.0])),
        entity(3, Some(2), [10.0, 0.0], Some([16.0, 4.0])),
        entity(4, Some(1), [0.0, 12.0], Some([12.0, 12.0])),
        entity(5, Some(1), [30.0, -10.0], Some([12.0, 12.0])),
        entity(6, Some(1), [60.0, 4.0], Some([12.0, 12.0])),
    ];
    let crates = [4u32, 5, 6];
    let mut mirror = Mirror::new();
    let mut tracker = ContactTracker::new();
    let opts = CollisionOptions::default().details(true);
    for frame in 0..40 {
        // The game moves the ship right and turns its turret; only those entities change.
        let t = frame as f32;
        entities[1].translation = [-60.0 + 3.5 * t, 0.0];
        entities[2].rotation = 0.2 * t;
        entities[1].changed = true;
        entities[2].changed = true;
        let calls = mirror.sync(&mut entities)?;

        let stage = &mirror.stage;
        let world = mirror.nodes[&1];
        let ship = mirror.nodes[&2];
        let crate_nodes: Vec<NodeId> = crates.iter().map(|c| mirror.nodes[c]).collect();
        let hits = stage.contacts_against(ship, &crate_nodes, world, &opts)?;
        for event in tracker.update(&hits) {
            let name = stage.name(event.b)?.unwrap_or("?");
            match (event.phase, event.contact(&hits)) {
                (ContactPhase::Began, Some(hit)) => {
                    // Back into the engine's y-up space for the game's own use.
                    let at = point_from_y_up(hit.centroid().unwrap_or_default());
                    println!(
                        "frame {frame:2} ({calls} set_matrix calls): the ship touches {name} at ({:.1}, {:.1}) in the engine's space",
                        at.x, at.y
                    );
                }
                (ContactPhase::Ended, _) => println!("frame {frame:2}: the ship leaves {name}"),
                _ => {}
            }
        }
    }
    Ok(())
}

fn entity(id: u32, parent: Option<u32>, translation: [f32; 2], sprite: Option<[f32; 2]>) -> Entity {
    Entity {
        id,
        parent,
        translation,
        rotation: 0.0,
        scale: [1.0, 1.0],
        sprite,
        changed: true,
    }
}
