//! Masks and picking: a portrait cut by a round mask, a scroll pane, and a button whose
//! click area is a hit area; prints what `pick` answers at a few points and writes a debug
//! picture (masked content drawn clipped, masks outlined, the picked object outlined).
//!
//! ```sh
//! cargo run --release --example picking                  # writes target/picking.png
//! cargo run --release --example picking -- OUT.png
//! ```

use pixelhit::{DebugOptions, FillRule, Graphic, NodeId, Path, PickOptions, Stage, debug_image_with};

fn fill(p: Path) -> pixelhit::Result<Graphic> {
    Graphic::fill(p, FillRule::NonZero, 1.0)
}

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut stage = Stage::new();
    let root = stage.root();
    // A square portrait, shown only inside a circle.
    let portrait = stage.add_container(root)?;
    stage.set_name(portrait, "portrait")?;
    stage.add_graphic(portrait, fill(Path::rect(20.0, 20.0, 120.0, 120.0))?)?;
    let round = stage.add_container(root)?;
    stage.set_name(round, "round mask")?;
    stage.add_graphic(round, fill(Path::circle(80.0, 80.0, 55.0))?)?;
    stage.set_mask(portrait, Some(round))?;
    // A pane scrolled 40 px down its content, showing a 100 x 80 window of a long list.
    let pane = stage.add_container(root)?;
    stage.set_name(pane, "pane")?;
    stage.set_x(pane, 170.0)?;
    stage.set_y(pane, 30.0)?;
    stage.set_rotation(pane, 8.0)?;
    for row in 0..8 {
        let item = stage.add_container(pane)?;
        stage.set_name(item, format!("row {row}"))?;
        stage.add_graphic(item, fill(Path::rect(0.0, f64::from(row) * 24.0, 100.0, 20.0))?)?;
    }
    stage.set_scroll_rect(pane, Some([0.0, 40.0, 100.0, 80.0]))?;
    // A button drawn as a small Shape, clicked through a larger, invisible hit area.
    let button = stage.add_container(root)?;
    stage.set_name(button, "button")?;
    let face = stage.add_container(button)?;
    stage.set_interactive(face, false)?;
    stage.add_graphic(face, fill(Path::circle(320.0, 80.0, 12.0))?)?;
    let area = stage.add_container(root)?;
    stage.set_name(area, "button area")?;
    stage.add_graphic(area, fill(Path::rect(290.0, 50.0, 60.0, 60.0))?)?;
    stage.set_visible(area, false)?;
    stage.set_mouse_enabled(area, false)?;
    stage.set_hit_area(button, Some(area))?;

    let opts = PickOptions::default();
    let mut last: Option<NodeId> = None;
    for (x, y) in [
        (80.0, 80.0),
        (25.0, 25.0),
        (200.0, 60.0),
        (200.0, 140.0),
        (300.0, 60.0),
    ] {
        let picked = stage.pick(x, y, &opts)?;
        let name = picked.map_or("nothing".to_string(), |id| stage.describe(id));
        println!("pick({x}, {y}) = {name}");
        last = picked.or(last);
    }
    let out = std::env::args().nth(1).unwrap_or_else(|| {
        let dir = std::env::var("CARGO_TARGET_DIR").unwrap_or_else(|_| "target".into());
        format!("{dir}/picking.png")
    });
    let picture = debug_image_with(
        &stage,
        &[],
        &DebugOptions::default().highlight(last).note(format!(
            "outlined: the last object picked, {}",
            last.map_or("nothing".into(), |id| stage.describe(id))
        )),
    )?;
    picture.save(&out)?;
    println!("wrote {out}");
    Ok(())
}
