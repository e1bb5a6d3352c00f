//! The scene of `python/bench/rotating_sprites.py` in Rust, for profiling the frame it times:
//! `prof_rocks [sprites] [frames] [snap]`. Rocks from two shared images (48 and 28 px,
//! lumpy discs with anti-aliased edges), each in a container turned about its centre,
//! drifting by fractions of a pixel and turning every frame; one `contacts_among` a frame
//! at tolerance 127, on one thread (`parallel`: on the default pool). With `snap`, poses
//! are snapped to whole degrees and pixels (`exact` for the poses themselves). Prints the
//! median time per frame: `prof_rocks [sprites] [frames] [snap|exact] [parallel|serial] [aliased]`
//! (`aliased`: `anti_alias(false)`), and a sixth argument `touching` asks `touching_among`
//! (which pairs touch, yes or no) in place of `contacts_among`.
use pixelhit::{Bitmap, CollisionOptions, Stage};
use pixelhit_benches::scenes::Rng;

fn rock(rng: &mut Rng, size: usize) -> Bitmap {
    let c = size as f64 / 2.0;
    let lumps: Vec<(f64, f64, f64)> = [3.0, 5.0, 7.0]
        .iter()
        .map(|&k| (k, rng.range(0.03, 0.08), rng.range(0.0, 6.3)))
        .collect();
    let mut rgba = Vec::with_capacity(size * size * 4);
    for y in 0..size {
        for x in 0..size {
            let (dx, dy) = (x as f64 + 0.5 - c, y as f64 + 0.5 - c);
            let angle = dy.atan2(dx);
            let lump: f64 = lumps.iter().map(|&(k, a, p)| a * (k * angle + p).cos()).sum();
            let radius = (0.45 + lump) * size as f64;
            let edge = ((radius - dx.hypot(dy)) / 1.5 + 0.5).clamp(0.0, 1.0);
            rgba.extend([120, 100, 80, (edge * 255.0).round() as u8]);
        }
    }
    Bitmap::from_rgba8(size as u32, size as u32, rgba).unwrap()
}

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let n: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(1000);
    let frames: usize = arg(2).and_then(|s| s.parse().ok()).unwrap_or(60);
    let snap = arg(3).as_deref() == Some("snap");
    let parallel = arg(4).as_deref() == Some("parallel");
    let mut rng = Rng::new(1);
    let sizes = [48usize, 28];
    let images: Vec<Bitmap> = sizes.iter().map(|&s| rock(&mut rng, s)).collect();
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let kinds: Vec<usize> = (0..n).map(|_| (rng.next_u64() % 2) as usize).collect();
    let mean_area = kinds.iter().map(|&k| (sizes[k] * sizes[k]) as f64).sum::<f64>() / n as f64;
    let side = (n as f64 * mean_area * 2.2).sqrt();
    let mut sprites = Vec::new();
    let mut state = Vec::new();
    for &k in &kinds {
        let s = stage.add_container(world).unwrap();
        let art = stage.add_bitmap(s, images[k].clone(), false).unwrap();
        let h = sizes[k] as f64 / 2.0;
        stage.set_position(art, -h, -h).unwrap();
        sprites.push(s);
        state.push([
            rng.range(0.0, side),
            rng.range(0.0, side),
            rng.range(-1.5, 1.5),
            rng.range(-1.5, 1.5),
            rng.range(0.0, 360.0),
            rng.range(-5.0, 5.0),
        ]);
    }
    let aliased = arg(5).as_deref() == Some("aliased");
    let touching = arg(6).as_deref() == Some("touching");
    let opts = CollisionOptions::default()
        .tolerance(127)
        .parallel(parallel)
        .anti_alias(!aliased);
    let mut times = Vec::new();
    let mut contacts = 0;
    for _ in 0..frames {
        for (&s, st) in sprites.iter().zip(&mut state) {
            st[0] = (st[0] + st[2]).rem_euclid(side);
            st[1] = (st[1] + st[3]).rem_euclid(side);
            st[4] = (st[4] + st[5]).rem_euclid(360.0);
            let (x, y, a) = match snap {
                true => (st[0].round(), st[1].round(), st[4].round().rem_euclid(360.0)),
                false => (st[0], st[1], st[4]),
            };
            stage.set_transform(s, x, y, a, 1.0, 1.0).unwrap();
        }
        let t = std::time::Instant::now();
        contacts += match touching {
            true => stage.touching_among(&sprites, world, &opts).unwrap().len(),
            false => stage.contacts_among(&sprites, world, &opts).unwrap().len(),
        };
        times.push(t.elapsed());
    }
    times.sort();
    println!("{contacts} contacts; median frame {:?}", times[times.len() / 2]);
}
