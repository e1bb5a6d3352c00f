//! A small scene of rotated, scaled and nested sprites: which of them touch, where, and a
//! picture of it all. Run with `cargo run --release --example demo`; it writes `demo.png`.

use std::error::Error;

use pixelhit::{
    Bitmap, CollisionOptions, DAffine2, DVec2, DebugQuery, FillRule, Graphic, NodeId, Path, Stage,
    debug_image,
};

fn main() -> Result<(), Box<dyn Error>> {
    let mut stage = Stage::new();
    let root = stage.root();

    // A ship: a hull and, in a nested container, a stroked antenna; the whole ship turned.
    let ship = stage.add_container(root)?;
    let hull = [(-40.0, -18.0), (42.0, 0.0), (-40.0, 18.0), (-26.0, 0.0)];
    let hull: Vec<DVec2> = hull.iter().map(|&(x, y)| DVec2::new(x, y)).collect();
    stage.add_graphic(ship, Graphic::fill(Path::polygon(&hull), FillRule::NonZero, 1.0)?)?;
    let antenna = stage.add_container(ship)?;
    let mut line = Path::new();
    line.move_to(0.0, 0.0).line_to(0.0, -30.0);
    stage.add_graphic(antenna, Graphic::stroke(line, 3.0, 1.0)?)?;
    stage.set_x(antenna, -20.0)?;
    stage.set_y(antenna, -8.0)?;
    stage.set_rotation(antenna, -35.0)?;
    place(&mut stage, ship, 110.0, 130.0, 25.0)?;

    // A rock: a bitmap blob with soft edges, scaled and turned inside a turned "belt".
    let belt = stage.add_container(root)?;
    place(&mut stage, belt, 160.0, 152.0, -20.0)?;
    let rock = stage.add_bitmap(belt, rock_bitmap(40)?, true)?;
    stage.set_scale_x(rock, 1.4)?;
    stage.set_scale_y(rock, 1.4)?;
    stage.set_rotation(rock, 30.0)?;
    // Centre the bitmap on the belt's origin.
    let c = stage.matrix(rock)?.transform_vector2(DVec2::splat(20.0));
    stage.set_x(rock, -c.x)?;
    stage.set_y(rock, -c.y)?;

    // A ring: two circles filled even-odd, so the inner one is a hole.
    let ring = stage.add_container(root)?;
    let disc = Path::from_svg(
        "M45 0 A45 45 0 1 1 -45 0 A45 45 0 1 1 45 0 Z M28 0 A28 28 0 1 1 -28 0 A28 28 0 1 1 28 0 Z",
    )?;
    stage.add_graphic(ring, Graphic::fill(disc, FillRule::EvenOdd, 0.8)?)?;
    place(&mut stage, ring, 216.0, 192.0, 0.0)?;

    // A skewed flag standing in the ring's hole: its box overlaps the ring, its pixels don't.
    let flag = stage.add_container(root)?;
    let mut pole = Path::new();
    pole.move_to(0.0, 15.0).line_to(0.0, -18.0);
    stage.add_graphic(flag, Graphic::stroke(pole, 2.0, 1.0)?)?;
    stage.add_graphic(
        flag,
        Graphic::fill(Path::rect(0.0, -18.0, 12.0, 9.0), FillRule::NonZero, 1.0)?,
    )?;
    stage.set_matrix(
        flag,
        DAffine2::from_cols_array(&[1.0, 0.0, -0.3, 1.0, 211.0, 194.0]),
    )?;

    let sprites = [("ship", ship), ("rock", rock), ("ring", ring), ("flag", flag)];
    // Names show in error messages and in the picture's legend.
    stage.set_name(root, "stage")?;
    for (name, id) in sprites {
        stage.set_name(id, name)?;
    }
    let mut hits = Vec::new();
    for (i, &(name_a, a)) in sprites.iter().enumerate() {
        for &(name_b, b) in &sprites[i + 1..] {
            let c = stage.collision(a, b, root, &CollisionOptions::default())?;
            let boxes = stage.collision(a, b, root, &CollisionOptions::default().precise(false))?;
            match (c.rect, boxes.rect) {
                (Some(r), _) => {
                    let [x, y, w, h] = r.to_xywh();
                    let n = c.overlap_pixels.unwrap_or(0);
                    println!("{name_a} x {name_b}: rect [{x}, {y}, {w}, {h}], {n} pixels");
                    hits.push(DebugQuery::new(a, b, root));
                }
                (None, Some(_)) => {
                    println!("{name_a} x {name_b}: near miss (bounds overlap, no pixel)");
                    hits.push(DebugQuery::new(a, b, root));
                }
                (None, None) => println!("{name_a} x {name_b}: no collision"),
            }
        }
    }

    let img = debug_image(&stage, &hits)?;
    img.save("demo.png")?;
    println!("wrote demo.png ({} x {})", img.width(), img.height());
    Ok(())
}

/// Moves and turns a node (degrees, clockwise).
fn place(stage: &mut Stage, id: NodeId, x: f64, y: f64, rotation: f64) -> pixelhit::Result<()> {
    stage.set_x(id, x)?;
    stage.set_y(id, y)?;
    stage.set_rotation(id, rotation)
}

/// A lumpy grey-brown blob, opaque inside and fading out over its last 3 pixels.
fn rock_bitmap(size: u32) -> pixelhit::Result<Bitmap> {
    let mut rgba = Vec::with_capacity((size * size * 4) as usize);
    let half = f64::from(size) / 2.0;
    for j in 0..size {
        for i in 0..size {
            let (dx, dy) = (f64::from(i) + 0.5 - half, f64::from(j) + 0.5 - half);
            let angle = dy.atan2(dx);
            let radius = half - 4.0 + 2.0 * (3.0 * angle).sin() + 1.5 * (5.0 * angle).cos();
            let alpha = ((radius - dx.hypot(dy)) / 3.0 + 0.5).clamp(0.0, 1.0);
            let shade = (100.0 + 30.0 * ((i * 7 + j * 13) % 5) as f64 / 4.0 - dy) as u8;
            rgba.extend([shade + 30, shade + 10, shade, (alpha * 255.0) as u8]);
        }
    }
    Bitmap::from_rgba8(size, size, rgba)
}
