//! The scene of `python/bench/asteroids.py` in Rust, for counting the work of a frame of
//! pygame-rendered sprites (semantics.md 4.9): `prof_pygame [rocks] [frames] [rotate|rotozoom]
//! [plain|touching]`. Rocks from three shared images (44, 32 and 22 px: an opaque lumpy core, a rim of
//! alpha 90 to 160, two holes), drifting by fractions of a pixel and turning every frame;
//! each is a bitmap node whose renderer is set every frame to `rotate(angle)` (or
//! `rotozoom(angle, scale)`, scale 0.75, 1 or 1.25 per rock) and placed at the drawn
//! surface's `rect.topleft`, as pygame blits it; then one `contacts_among` at tolerance 127
//! (pygame's mask threshold 127), on one thread. `plain`: `fast_paths(false)`; `touching`:
//! `touching_among` in place of `contacts_among` (which pairs touch, yes or no, as
//! pixelhit.pygame's `World.among` asks). Prints the contacts and the median time per frame
//! (read counts under callgrind, not times).
use pixelhit::{Bitmap, BitmapRenderer, CollisionOptions, PygameTransform, Stage};
use pixelhit_benches::scenes::Rng;

/// A lumpy disc as the Python bench draws it: a 13-gon rim of one alpha, the same polygon
/// shrunk to 0.8 opaque, two round holes (polygon tests by angle sector, no anti-aliasing).
fn rock(rng: &mut Rng, size: usize) -> Bitmap {
    let c = size as f64 / 2.0;
    let radii: Vec<f64> = (0..13).map(|_| rng.range(0.7, 0.98) * c).collect();
    let rim = rng.range(90.0, 160.0).round() as u8;
    let holes: Vec<(f64, f64)> = (0..2)
        .map(|_| {
            (
                rng.range(0.3, 0.7) * size as f64,
                rng.range(0.3, 0.7) * size as f64,
            )
        })
        .collect();
    let sector = std::f64::consts::TAU / 13.0;
    let mut rgba = Vec::with_capacity(size * size * 4);
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = (x as f64 + 0.5 - c, y as f64 + 0.5 - c);
            let a = dy.atan2(dx).rem_euclid(std::f64::consts::TAU) / sector;
            let (k, t) = (a.floor() as usize % 13, a.fract());
            let r = radii[k] * (1.0 - t) + radii[(k + 1) % 13] * t;
            let d = dx.hypot(dy);
            let hole = holes
                .iter()
                .any(|&(hx, hy)| (x as f64 + 0.5 - hx).hypot(y as f64 + 0.5 - hy) < size as f64 * 0.1);
            let alpha = match () {
                _ if hole || d >= r => 0,
                _ if d < 0.8 * r => 255,
                _ => rim,
            };
            rgba.extend([150, 140, 120, alpha]);
        }
    }
    Bitmap::from_rgba8(size as u32, size as u32, rgba).unwrap()
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let n: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(200);
    let frames: usize = arg(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let rotozoom = arg(3).as_deref() == Some("rotozoom");
    let plain = arg(4).as_deref() == Some("plain");
    let touching = arg(4).as_deref() == Some("touching");
    let mut rng = Rng::new(1);
    let sizes = [44usize, 32, 22];
    let images: Vec<Bitmap> = sizes.iter().map(|&s| rock(&mut rng, s)).collect();
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let field = (n as f64).sqrt() * 34.0;
    let mut rocks = Vec::new();
    let mut state = Vec::new();
    for _ in 0..n {
        let k = (rng.next_u64() % 3) as usize;
        let node = stage.add_bitmap(world, images[k].clone(), false).unwrap();
        let scale = if rotozoom {
            [0.75, 1.0, 1.25][(rng.next_u64() % 3) as usize]
        } else {
            1.0
        };
        rocks.push(node);
        state.push((
            k,
            [
                rng.range(0.0, field),
                rng.range(0.0, field),
                rng.range(-1.3, 1.3),
                rng.range(-1.3, 1.3),
                rng.range(0.0, 360.0),
                rng.range(-3.0, 3.0),
                scale,
            ],
        ));
    }
    let opts = CollisionOptions::default()
        .tolerance(127)
        .parallel(false)
        .fast_paths(!plain);
    let mut times = Vec::new();
    let mut contacts = 0;
    for _ in 0..frames {
        for (&node, (k, st)) in rocks.iter().zip(&mut state) {
            st[0] = (st[0] + st[2]).rem_euclid(field);
            st[1] = (st[1] + st[3]).rem_euclid(field);
            st[4] = (st[4] + st[5]).rem_euclid(360.0);
            let t = match rotozoom {
                true => PygameTransform::rotozoom(st[4], st[6]),
                false => PygameTransform::rotate(st[4]),
            };
            // `image.get_rect(center=round(pos)).topleft`.
            let (w, h) = t.output_size(sizes[*k] as u32, sizes[*k] as u32);
            let (x, y) = (st[0].round() - f64::from(w / 2), st[1].round() - f64::from(h / 2));
            stage
                .set_bitmap_renderer(node, Some(BitmapRenderer::Pygame(t)))
                .unwrap();
            stage.set_position(node, x, y).unwrap();
        }
        let t = std::time::Instant::now();
        contacts += match touching {
            true => stage.touching_among(&rocks, world, &opts).unwrap().len(),
            false => stage.contacts_among(&rocks, world, &opts).unwrap().len(),
        };
        times.push(t.elapsed());
    }
    times.sort();
    println!("{contacts} contacts; median frame {:?}", times[times.len() / 2]);
}
