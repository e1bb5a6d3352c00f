//! Reproducing a bug report with the scene file API.
//!
//! A player reports: "my bullet flies through the wall". The report comes with a scene file
//! (below, as the reporter pasted it). This example loads it, runs its queries as
//! `pixelhit run` would, steps the bullet along its path to find what really happens (and
//! asks `Stage::sweep`, which finds it in one call), and
//! saves the scene of the moment it matters, with a picture, into a folder (by default
//! `pixelhit-bug-report` in the system's temporary folder, so that the checkout stays
//! clean), where `pixelhit run FOLDER/scene.json --png out.png` reproduces it for anyone.
//! Run with `cargo run --release --example bug_report [FOLDER]`.

use std::error::Error;
use std::path::Path;

use pixelhit::{CollisionOptions, DebugQuery, Scene, debug_image};

/// The reporter's scene: a thin wall turned 45 degrees, a bullet before it and one after it
/// (the positions of two frames of the game), and a rock bitmap nearby.
const REPORT: &str = r#"{
  "pixelhit_scene": 1,
  "root": {
    "name": "level",
    "children": [
      { "name": "wall", "x": 100, "y": 60, "rotation": 45,
        "graphics": [ { "fill": "M-40,-1.5 H40 V1.5 H-40 Z" } ] },
      { "name": "bullet", "x": 90, "y": 70,
        "graphics": [ { "fill": "M-3,-1 H3 V1 H-3 Z" } ] },
      { "name": "bullet_next", "x": 110, "y": 50,
        "graphics": [ { "fill": "M-3,-1 H3 V1 H-3 Z" } ] },
      { "name": "rock", "x": 130, "y": 20, "bitmap": { "png": "rock.png" } }
    ]
  },
  "queries": [
    { "collision_rect": { "a": "bullet", "b": "wall", "parent": "level" } },
    { "collision_rect": { "a": "bullet_next", "b": "wall", "parent": "level" } },
    { "hit_test_object": { "a": "bullet", "b": "wall" } }
  ]
}"#;

fn main() -> Result<(), Box<dyn Error>> {
    // Bitmap paths in a scene are relative to the scene file; the report's PNG is an asset.
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/assets");
    let mut scene = Scene::from_json(REPORT, "report.json", &assets)?;

    println!("The report's queries, as `pixelhit run` prints them:");
    let lines = run_all(&scene);
    for line in &lines {
        println!("  {line}");
    }

    // Neither frame touches the wall, yet the boxes meet (hit_test_object is true). The
    // bullet moves 20 px right and 20 px up per frame, across a 3 px wall: step it between
    // the two frames, 20 steps of (1, -1), to see where it would touch.
    let (bullet, wall, level) = (
        scene.node("bullet").ok_or("no bullet")?,
        scene.node("wall").ok_or("no wall")?,
        scene.node("level").ok_or("no level")?,
    );
    let opts = CollisionOptions::default();
    let mut touching = None;
    for step in 0..=20 {
        scene.stage.set_x(bullet, 90.0 + f64::from(step))?;
        scene.stage.set_y(bullet, 70.0 - f64::from(step))?;
        let c = scene.stage.collision(bullet, wall, level, &opts)?;
        if let (Some(r), None) = (c.rect, touching) {
            touching = Some((step, r));
        }
    }
    let (step, r) = touching.ok_or("the bullet never touches the wall")?;
    let [x, y, w, h] = r.to_xywh();
    println!(
        "Stepping 1 px at a time, the bullet first touches the wall at step {step} of 20, in \
         [{x}, {y}, {w}, {h}]:\nnot a missed collision but tunnelling: the game tests once per \
         frame and the bullet jumps over the wall."
    );
    // A sweep finds it in one call, between last frame's pose and this frame's (the loop
    // above left the bullet at this frame's, (110, 50)), to 1/256 px.
    let last_frame = pixelhit::Pose::at(90.0, 70.0);
    let motion = pixelhit::MotionOptions::default();
    if let Some(hit) = scene
        .stage
        .sweep(bullet, wall, level, Some(last_frame), None, &motion)?
    {
        println!(
            "Stage::sweep: first contact at t = {:.4} of the frame (bullet at x = {:.3}), in {:?}",
            hit.t,
            90.0 + 20.0 * hit.t,
            hit.rect.to_xywh()
        );
    }

    // Save the scene of the first touch for the record: the file, its bitmap beside it, and
    // a picture. Loading it back must give the same answers.
    scene.stage.set_x(bullet, 90.0 + f64::from(step))?;
    scene.stage.set_y(bullet, 70.0 - f64::from(step))?;
    let dir = match std::env::args_os().nth(1) {
        Some(d) => std::path::PathBuf::from(d),
        None => std::env::temp_dir().join("pixelhit-bug-report"),
    };
    std::fs::create_dir_all(&dir)?;
    let file = dir.join("scene.json");
    scene.save(&file)?;
    let saved = Scene::load(&file)?;
    assert_eq!(
        run_all(&saved),
        run_all(&scene),
        "the saved scene answers the same"
    );
    println!(
        "Saved {} (and its rock as scene_0.png beside it); its queries now print:",
        file.display()
    );
    for line in run_all(&saved) {
        println!("  {line}");
    }
    let picture = debug_image(&scene.stage, &[DebugQuery::new(bullet, wall, level)])?;
    let png = dir.join("scene.png");
    picture.save(&png)?;
    println!(
        "Wrote {}. Reproduce with: pixelhit run {} --png out.png",
        png.display(),
        file.display()
    );
    Ok(())
}

/// Every query's output line, or its error line, in file order.
fn run_all(scene: &Scene) -> Vec<String> {
    scene
        .answers()
        .map(|a| a.unwrap_or_else(|e| Scene::error_line(&e)))
        .collect()
}
