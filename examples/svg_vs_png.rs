//! An SVG sprite against a PNG sprite: the ship of `examples/assets/ship.svg` (vector, nested
//! groups) and the rock of `examples/assets/rock.png` (bitmap, soft edges) slide past each
//! other; every step prints whether and where they touch, and `svg_vs_png.png` shows the
//! first contact. Run with `cargo run --release --example svg_vs_png` (it needs the `svg`
//! feature, which is on by default).

use std::error::Error;
use std::path::Path;

use pixelhit::svg::SvgDocument;
use pixelhit::{Bitmap, CollisionOptions, DebugQuery, Stage, debug_image};

fn main() -> Result<(), Box<dyn Error>> {
    let assets = Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/assets");
    let mut stage = Stage::new();
    let root = stage.root();
    stage.set_name(root, "stage")?;

    // The SVG: parsed once, added as a subtree; whatever it cannot show exactly is listed.
    let doc = SvgDocument::from_file(assets.join("ship.svg"))?;
    let ship = doc.add_to(&mut stage, root)?;
    println!(
        "ship.svg: {} x {} canvas, {} warnings",
        doc.size().0,
        doc.size().1,
        ship.warnings.len()
    );
    for w in &ship.warnings {
        println!("  {w}");
    }
    stage.set_name(ship.root, "ship")?;
    // Turn the ship about its canvas centre and put that centre at (100, 80).
    let (w, h) = doc.size();
    let pivot = stage.add_container(root)?;
    stage.set_name(pivot, "pivot")?;
    stage.set_parent(ship.root, pivot)?;
    stage.set_x(ship.root, -w / 2.0)?;
    stage.set_y(ship.root, -h / 2.0)?;
    stage.set_x(pivot, 100.0)?;
    stage.set_y(pivot, 80.0)?;
    stage.set_rotation(pivot, -20.0)?;

    // The PNG: a bitmap node, scaled up and turned.
    let rock = stage.add_bitmap(root, Bitmap::from_png_file(assets.join("rock.png"))?, true)?;
    stage.set_name(rock, "rock")?;
    stage.set_scale_x(rock, 1.25)?;
    stage.set_scale_y(rock, 1.25)?;
    stage.set_rotation(rock, 30.0)?;

    // The rock comes down from the top right, past the ship's nose and wing.
    let opts = CollisionOptions::default();
    let mut first_contact = None;
    for step in 0..12 {
        let (x, y) = (180.0 - 9.0 * f64::from(step), 10.0 + 6.0 * f64::from(step));
        stage.set_x(rock, x)?;
        stage.set_y(rock, y)?;
        let c = stage.collision(pivot, rock, root, &opts)?;
        let part = ["hull", "wing-top", "wing-bottom", "cockpit", "antenna"]
            .into_iter()
            .filter_map(|id| Some((id, ship.node(id)?)))
            .filter(|&(_, node)| {
                stage
                    .collision(node, rock, root, &opts)
                    .is_ok_and(|c| c.rect.is_some())
            })
            .map(|(id, _)| id)
            .collect::<Vec<_>>();
        match c.rect {
            Some(r) => {
                let [rx, ry, rw, rh] = r.to_xywh();
                let n = c.overlap_pixels.unwrap_or(0);
                println!(
                    "rock at ({x}, {y}): touches {} in [{rx}, {ry}, {rw}, {rh}], {n} pixels",
                    part.join(", ")
                );
                first_contact.get_or_insert((x, y));
            }
            None => println!("rock at ({x}, {y}): no contact"),
        }
    }

    let (x, y) = first_contact.ok_or("the rock never touched the ship")?;
    stage.set_x(rock, x)?;
    stage.set_y(rock, y)?;
    let picture = debug_image(&stage, &[DebugQuery::new(pivot, rock, root)])?;
    picture.save("svg_vs_png.png")?;
    println!(
        "wrote svg_vs_png.png ({} x {}): the first contact",
        picture.width(),
        picture.height()
    );
    Ok(())
}
