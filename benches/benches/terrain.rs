//! The `terrain` benchmark: one crater in a 2048 x 1024 terrain and the next query, against
//! handing the stage a whole new bitmap with the same crater (issue 32, editable bitmaps).
//!
//! The terrain is drawn whole and kept (a second frame asked of it), a 10 x 16 walker
//! stands on it, and every iteration changes the terrain and asks the walker's collision:
//!
//! - `terrain/erase_then_query`: `Stage::erase` of a disc of radius 20 under the walker,
//!   then the query; the next iteration paints the disc back (`Stage::paint`), so the
//!   terrain stays the same from iteration to iteration. The stage patches the edited
//!   rectangle of its texel table and kept raster.
//! - `terrain/replace_then_query`: `Stage::set_bitmap` with a new bitmap of the cratered or
//!   the whole terrain in turn (made outside the timing), then the query: the stage makes
//!   the new bitmap's texel table whole.
//!
//! Run with `cargo bench -p pixelhit-benches --bench terrain`.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pixelhit::{Bitmap, Brush, CollisionOptions, DVec2, NodeId, Stage};

const W: u32 = 2048;
const H: u32 = 1024;

fn terrain() -> Bitmap {
    let mut rgba = vec![0u8; (4 * W * H) as usize];
    for x in 0..W {
        let surface = 620.0 + 90.0 * (f64::from(x) / 170.0).sin();
        for y in (surface as u32)..H {
            let i = (4 * (y * W + x)) as usize;
            rgba[i..i + 4].copy_from_slice(&[120, 84, 50, 255]);
        }
    }
    Bitmap::from_rgba8(W, H, rgba).unwrap()
}

fn stage() -> (Stage, NodeId, NodeId, DVec2) {
    let mut stage = Stage::new();
    let root = stage.root();
    let ground = stage.add_bitmap(root, terrain(), false).unwrap();
    let walker = stage
        .add_bitmap(root, Bitmap::from_rgba8(10, 16, vec![255; 640]).unwrap(), false)
        .unwrap();
    let x = 1000.0;
    let surface = 620.0 + 90.0 * (x / 170.0f64).sin();
    stage.set_position(walker, x, surface.floor() - 14.0).unwrap();
    let opts = CollisionOptions::default();
    // Two frames: the terrain is drawn whole and kept from the second on.
    for dx in [0.0, 1.0] {
        stage
            .set_position(walker, x + dx, surface.floor() - 14.0)
            .unwrap();
        stage.collision(walker, ground, root, &opts).unwrap();
    }
    (stage, ground, walker, DVec2::new(x + 5.0, surface + 4.0))
}

fn bench(c: &mut Criterion) {
    let opts = CollisionOptions::default();
    let crater = |centre| Brush::Disc { centre, radius: 20.0 };
    let mut g = c.benchmark_group("terrain");
    g.sample_size(20);

    let (mut s, ground, walker, centre) = stage();
    let root = s.root();
    let mut k = 0u64;
    g.bench_function("erase_then_query", |b| {
        b.iter(|| {
            k += 1;
            match k % 2 {
                1 => s.erase(ground, &crater(centre), 1.0).unwrap(),
                _ => s.paint(ground, &crater(centre), [120, 84, 50, 255], 1.0).unwrap(),
            }
            black_box(s.collision(walker, ground, root, &opts).unwrap())
        })
    });

    let (mut s, ground, walker, centre) = stage();
    let whole = terrain();
    // The same crater, made by a stage of its own so the pixels are the edit's.
    let mut painter = Stage::new();
    let n = painter.add_bitmap(painter.root(), whole.clone(), false).unwrap();
    painter.erase(n, &crater(centre), 1.0).unwrap();
    let cratered = painter.bitmap(n).unwrap().unwrap().0.clone();
    let root = s.root();
    let mut k = 0u64;
    g.bench_function("replace_then_query", |b| {
        // A new bitmap each time, as a game that edits its own pixel buffer hands over;
        // making it (an 8 MiB copy) is left out of the time.
        b.iter_batched(
            || {
                k += 1;
                let next = if k % 2 == 1 { &cratered } else { &whole };
                Bitmap::from_rgba8(W, H, next.rgba().to_vec()).unwrap()
            },
            |next| {
                s.set_bitmap(ground, next, false).unwrap();
                black_box(s.collision(walker, ground, root, &opts).unwrap())
            },
            BatchSize::LargeInput,
        )
    });
    g.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
