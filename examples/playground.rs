//! A live playground: drag sprites with the mouse, turn and scale the selected one with the
//! keys, and watch the overlapping pixels and collision rectangles follow, with the time
//! each query took, every frame.
//!
//! ```sh
//! cargo run --release --example playground --features viewer              # built-in scene
//! cargo run --release --example playground --features viewer -- SCENE.json
//! ```
//!
//! Mouse: a click picks the object under it with `Stage::pick` (Flash's rules: masks, hit
//! areas and mouse flags count), which is outlined and named; drag moves the sprite (the
//! top-level object of the scene) holding it. Left/Right: turn the selected
//! sprite. Up/Down: scale it. Tab: select the next one. Space: spin everything. Esc: quit.
//! `--frames N` quits after N frames (for scripted runs, e.g. under Xvfb).
//!
//! Every frame runs a precise `collision` query for each pair of sprites, times it, and
//! draws the frame with `debug_image_with` (at most four pairs whose bounds overlap get
//! their pixels, boxes and answer drawn; the legend gives the times).

use std::error::Error;
use std::time::{Duration, Instant};

use minifb::{Key, KeyRepeat, MouseButton, MouseMode, Window, WindowOptions};
use pixelhit::{
    Bitmap, CollisionOptions, DVec2, DebugOptions, DebugQuery, FillRule, Graphic, NodeId, Path, PickOptions,
    Rect, Scene, Stage, debug_image_with,
};

const WIDTH: usize = 800;
const HEIGHT: usize = 600;
/// Window rows left for the scene; the legend takes the rest.
const SCENE_HEIGHT: f64 = 460.0;
/// Pairs drawn in full at once; more would bury the picture in outlines.
const MAX_DRAWN: usize = 4;

fn main() -> Result<(), Box<dyn Error>> {
    let mut args = std::env::args().skip(1);
    let (mut scene_file, mut frames) = (None, None);
    while let Some(arg) = args.next() {
        match arg.as_str() {
            "--frames" => frames = Some(args.next().ok_or("--frames needs a number")?.parse::<u64>()?),
            _ => scene_file = Some(arg),
        }
    }
    let (mut stage, title) = match &scene_file {
        Some(f) => {
            let scene = Scene::load(f)?;
            for w in scene.warnings() {
                eprintln!("warning: {w}");
            }
            (scene.stage, format!("pixelhit playground: {f}"))
        }
        None => (default_scene()?, "pixelhit playground".to_string()),
    };
    let root = stage.root();
    let sprites = stage.children(root)?.to_vec();
    if sprites.is_empty() {
        return Err("the scene has no top-level objects to move".into());
    }
    let (origin, zoom) = framing(&stage)?;
    let area = Rect::from_xywh(
        origin.x,
        origin.y,
        WIDTH as f64 / f64::from(zoom),
        SCENE_HEIGHT / f64::from(zoom),
    )
    .ok_or("bad area")?;

    let mut window = Window::new(&title, WIDTH, HEIGHT, WindowOptions::default()).map_err(|e| {
        format!("cannot open a window ({e}); the playground needs an X11 display (try xvfb-run)")
    })?;
    window.set_target_fps(60);
    let mut buffer = vec![0u32; WIDTH * HEIGHT];
    let mut selected = 0usize;
    let mut dragging: Option<DVec2> = None;
    let mut picked: Option<NodeId> = None;
    let mut spin = false;
    let mut frame = 0u64;
    let mut frame_time = Duration::ZERO;

    while window.is_open() && !window.is_key_down(Key::Escape) && frames.is_none_or(|n| frame < n) {
        let started = Instant::now();
        // Input: the mouse picks and drags, the keys turn and scale.
        let mouse = window
            .get_mouse_pos(MouseMode::Clamp)
            .map(|(x, y)| origin + DVec2::new(f64::from(x), f64::from(y)) / f64::from(zoom));
        match (window.get_mouse_down(MouseButton::Left), mouse, dragging) {
            (true, Some(p), None) => {
                // The object a click goes to, by Flash's rules (masks, hit areas, mouse
                // flags); the sprite holding it is the one dragged.
                picked = stage.pick(p.x, p.y, &PickOptions::default())?;
                if let Some(hit) = picked
                    && let Some(i) = sprites
                        .iter()
                        .position(|&s| stage.is_ancestor(s, hit).unwrap_or(false))
                {
                    selected = i;
                    dragging = Some(p);
                }
            }
            (true, Some(p), Some(last)) => {
                let s = sprites[selected];
                stage.set_x(s, stage.x(s)? + p.x - last.x)?;
                stage.set_y(s, stage.y(s)? + p.y - last.y)?;
                dragging = Some(p);
            }
            (false, ..) => dragging = None,
            _ => {}
        }
        if window.is_key_pressed(Key::Tab, KeyRepeat::No) {
            selected = (selected + 1) % sprites.len();
        }
        if window.is_key_pressed(Key::Space, KeyRepeat::No) {
            spin = !spin;
        }
        let s = sprites[selected];
        for (key, turn) in [(Key::Left, -3.0), (Key::Right, 3.0)] {
            if window.is_key_down(key) {
                stage.set_rotation(s, stage.rotation(s)? + turn)?;
            }
        }
        for (key, factor) in [(Key::Up, 1.03), (Key::Down, 1.0 / 1.03)] {
            if window.is_key_down(key) {
                stage.set_scale_x(s, stage.scale_x(s)? * factor)?;
                stage.set_scale_y(s, stage.scale_y(s)? * factor)?;
            }
        }
        if spin {
            for (i, &s) in sprites.iter().enumerate() {
                let turn = if i % 2 == 0 { 1.0 } else { -1.5 };
                stage.set_rotation(s, stage.rotation(s)? + turn)?;
            }
        }

        // Every pair, timed; the pairs whose boxes meet are drawn.
        let opts = CollisionOptions::default();
        let mut total = Duration::ZERO;
        let mut drawn = Vec::new();
        let mut times = Vec::new();
        for (i, &a) in sprites.iter().enumerate() {
            for &b in &sprites[i + 1..] {
                let t = Instant::now();
                let c = stage.collision(a, b, root, &opts)?;
                let took = t.elapsed();
                total += took;
                let near = c.rect.is_some()
                    || matches!(
                        (stage.bounds(a, root)?, stage.bounds(b, root)?),
                        (Some(x), Some(y)) if x.intersect(&y).is_some()
                    );
                if near && drawn.len() < MAX_DRAWN {
                    drawn.push(DebugQuery::new(a, b, root));
                    times.push(format!("{}: {:.3} ms", drawn.len(), millis(took)));
                }
            }
        }
        let pairs = sprites.len() * (sprites.len() - 1) / 2;
        let options = DebugOptions::default()
            .area(area)
            .zoom(zoom)
            .note(format!(
                "{pairs} pair queries: {:.3} ms in all. drawn: {}",
                millis(total),
                if times.is_empty() {
                    "none".to_string()
                } else {
                    times.join(", ")
                }
            ))
            .note(format!(
                "selected: {} x {:.0} y {:.0} turn {:.0} scale {:.2}   frame {:.1} ms",
                label(&stage, s),
                stage.x(s)?,
                stage.y(s)?,
                stage.rotation(s)?,
                stage.scale_x(s)?,
                millis(frame_time)
            ))
            .note(format!(
                "picked: {}",
                picked.map_or("nothing".to_string(), |id| stage.describe(id))
            ))
            .note("drag: mouse  turn: left/right  scale: up/down  next: tab  spin: space  quit: esc")
            .highlight(picked.filter(|&id| stage.contains(id)));
        let picture = debug_image_with(&stage, &drawn, &options)?;
        blit(&picture, &mut buffer);
        frame_time = started.elapsed();
        window.update_with_buffer(&buffer, WIDTH, HEIGHT)?;
        frame += 1;
    }
    Ok(())
}

fn millis(d: Duration) -> f64 {
    d.as_secs_f64() * 1000.0
}

fn label(stage: &Stage, id: NodeId) -> String {
    match stage.name(id) {
        Ok(Some(n)) => n.to_string(),
        _ => format!("#{}", id.index()),
    }
}

/// The root point at the window's top-left corner and the zoom that fits the scene.
fn framing(stage: &Stage) -> pixelhit::Result<(DVec2, u32)> {
    let root = stage.root();
    let Some(b) = stage.tight_bounds(root, root)? else {
        return Ok((DVec2::ZERO, 1));
    };
    let b = b.outset(20.0).unwrap_or(b);
    let fit = (WIDTH as f64 / b.width()).min(SCENE_HEIGHT / b.height()).floor();
    let zoom = fit.clamp(1.0, 8.0) as u32;
    // Centre the scene in the window's scene part.
    let view = DVec2::new(WIDTH as f64, SCENE_HEIGHT) / f64::from(zoom);
    let centre = DVec2::new(b.left() + b.width() / 2.0, b.top() + b.height() / 2.0);
    Ok(((centre - view / 2.0).floor(), zoom))
}

/// Copies the picture into the window's 0RGB buffer, cropping or padding with white.
fn blit(picture: &pixelhit::RgbaImage, buffer: &mut [u32]) {
    for (y, row) in buffer.chunks_mut(WIDTH).enumerate() {
        for (x, px) in row.iter_mut().enumerate() {
            *px = match picture.get_pixel_checked(x as u32, y as u32) {
                Some(p) => {
                    let [r, g, b, _] = p.0;
                    u32::from(r) << 16 | u32::from(g) << 8 | u32::from(b)
                }
                None => 0x00FF_FFFF,
            };
        }
    }
}

/// Five sprites: a ship with a nested antenna, a rock bitmap, a ring with a hole, a star
/// cut by a round mask and a thin bar, some of them touching from the start; and an SVG ship.
fn default_scene() -> pixelhit::Result<Stage> {
    let mut stage = Stage::new();
    let root = stage.root();
    stage.set_name(root, "stage")?;

    let ship = sprite(&mut stage, "ship", 280.0, 215.0, 20.0)?;
    let hull = [(-40.0, -18.0), (42.0, 0.0), (-40.0, 18.0), (-26.0, 0.0)].map(|(x, y)| DVec2::new(x, y));
    stage.add_graphic(ship, Graphic::fill(Path::polygon(&hull), FillRule::NonZero, 1.0)?)?;
    let antenna = stage.add_container(ship)?;
    let mut line = Path::new();
    line.move_to(0.0, 0.0).line_to(0.0, -30.0);
    stage.add_graphic(antenna, Graphic::stroke(line, 3.0, 1.0)?)?;
    stage.set_x(antenna, -20.0)?;
    stage.set_rotation(antenna, -35.0)?;

    let rock = sprite(&mut stage, "rock", 330.0, 230.0, 0.0)?;
    let blob = stage.add_bitmap(rock, rock_bitmap(48)?, true)?;
    stage.set_x(blob, -24.0)?;
    stage.set_y(blob, -24.0)?;
    stage.set_scale_x(rock, 1.5)?;
    stage.set_scale_y(rock, 1.5)?;

    let ring = sprite(&mut stage, "ring", 520.0, 250.0, 0.0)?;
    let disc = Path::from_svg(
        "M60 0 A60 60 0 1 1 -60 0 A60 60 0 1 1 60 0 Z M38 0 A38 38 0 1 1 -38 0 A38 38 0 1 1 38 0 Z",
    )?;
    stage.add_graphic(ring, Graphic::fill(disc, FillRule::EvenOdd, 0.8)?)?;

    let star = sprite(&mut stage, "star", 470.0, 170.0, 10.0)?;
    let points: Vec<DVec2> = (0..10)
        .map(|i| {
            let r = if i % 2 == 0 { 40.0 } else { 16.0 };
            let a = f64::from(i) * std::f64::consts::PI / 5.0;
            DVec2::new(r * a.sin(), -r * a.cos())
        })
        .collect();
    // The star's tips are cut by a circular mask that travels with it: click a tip outside
    // the circle and nothing is picked there.
    let star_art = stage.add_container(star)?;
    stage.set_name(star_art, "star art")?;
    stage.add_graphic(
        star_art,
        Graphic::fill(Path::polygon(&points), FillRule::NonZero, 1.0)?,
    )?;
    let window = stage.add_container(star)?;
    stage.set_name(window, "star mask")?;
    stage.add_graphic(
        window,
        Graphic::fill(Path::circle(0.0, 0.0, 30.0), FillRule::NonZero, 1.0)?,
    )?;
    stage.set_mask(star_art, Some(window))?;

    let bar = sprite(&mut stage, "bar", 610.0, 330.0, -30.0)?;
    stage.add_graphic(
        bar,
        Graphic::fill(Path::rect(-70.0, -4.0, 140.0, 8.0), FillRule::NonZero, 1.0)?,
    )?;

    // With the `svg` feature (on by default), the ship of examples/assets/ship.svg as well,
    // turned about its centre.
    #[cfg(feature = "svg")]
    {
        let assets = std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("examples/assets");
        let doc = pixelhit::svg::SvgDocument::from_file(assets.join("ship.svg"))?;
        let svg_ship = sprite(&mut stage, "svg ship", 160.0, 330.0, -30.0)?;
        let art = doc.add_to(&mut stage, svg_ship)?;
        let (w, h) = doc.size();
        stage.set_x(art.root, -w / 2.0)?;
        stage.set_y(art.root, -h / 2.0)?;
        stage.set_scale_x(svg_ship, 1.5)?;
        stage.set_scale_y(svg_ship, 1.5)?;
    }
    Ok(stage)
}

fn sprite(stage: &mut Stage, name: &str, x: f64, y: f64, rotation: f64) -> pixelhit::Result<NodeId> {
    let id = stage.add_container(stage.root())?;
    stage.set_name(id, name)?;
    stage.set_x(id, x)?;
    stage.set_y(id, y)?;
    stage.set_rotation(id, rotation)?;
    Ok(id)
}

/// A lumpy blob, opaque inside and fading out over its last 3 pixels.
fn rock_bitmap(size: u32) -> pixelhit::Result<Bitmap> {
    let half = f64::from(size) / 2.0;
    let mut rgba = Vec::with_capacity((size * size * 4) as usize);
    for j in 0..size {
        for i in 0..size {
            let (dx, dy) = (f64::from(i) + 0.5 - half, f64::from(j) + 0.5 - half);
            let angle = dy.atan2(dx);
            let radius = half - 4.0 + 2.0 * (3.0 * angle).sin() + 1.5 * (5.0 * angle).cos();
            let alpha = ((radius - dx.hypot(dy)) / 3.0 + 0.5).clamp(0.0, 1.0);
            rgba.extend([140, 120, 100, (alpha * 255.0) as u8]);
        }
    }
    Bitmap::from_rgba8(size, size, rgba)
}
