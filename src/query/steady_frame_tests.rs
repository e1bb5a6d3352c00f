//! A steady frame of turning sprites allocates next to nothing (issue 29, item 4): a new
//! pose's quad is held inline (a fill's edges are made in the vector of a pose an age
//! dropped), its `Arc` is one an age dropped, the query's whole masks
//! fill the buffers the last query gave back, and near-miss hulls are mapped into the
//! thread's buffers (`raster::spares`), and the memos' array is the room of the thread's
//! last one. What is left is the query's own arrays (the broad phase's, the plan, the
//! answer), a few dozen a query whatever the number of sprites.
//! Counted with allocation-counter's global allocator, which only the test binaries link.

use crate::query::budget_tests::Rng;
use crate::{
    Bitmap, BitmapRenderer, CollisionOptions, FillRule, Graphic, NodeId, Path, PygameTransform, Stage,
};

/// A `size` px lumpy disc with a soft rim and a hole, as the asteroids bench draws rocks.
fn rock(size: u32, rng: &mut Rng) -> Bitmap {
    let c = f64::from(size) / 2.0;
    let lumps: Vec<f64> = (0..7).map(|_| rng.range(0.7, 1.0)).collect();
    let rgba = (0..size * size)
        .flat_map(|k| {
            let (x, y) = (f64::from(k % size) + 0.5 - c, f64::from(k / size) + 0.5 - c);
            let angle = y.atan2(x).rem_euclid(std::f64::consts::TAU);
            let r = c * lumps[(angle / std::f64::consts::TAU * 7.0) as usize % 7];
            let d = x.hypot(y);
            let alpha = match () {
                _ if d >= r || (x - c / 3.0).hypot(y) < c / 6.0 => 0,
                _ if d < 0.8 * r => 255,
                _ => 120,
            };
            [150, 140, 120, alpha]
        })
        .collect();
    Bitmap::from_rgba8(size, size, rgba).unwrap()
}

/// How turning sprites are drawn.
#[derive(Clone, Copy, Debug)]
enum Turn {
    /// The node's rotation (semantics.md 4.5).
    Rotation,
    /// pygame's `rotate` and `rotozoom` (semantics.md 4.9).
    Pygame,
    /// Stars (fills) instead of rocks, turned by their rotation.
    Stars,
}

/// A star of `points` tips, `r` px out, as a fill.
fn star(points: u32, r: f64) -> Graphic {
    let pts: Vec<(f64, f64)> = (0..2 * points)
        .map(|k| {
            let (sin, cos) = (f64::from(k) * std::f64::consts::PI / f64::from(points)).sin_cos();
            let reach = if k % 2 == 0 { r } else { r * 0.45 };
            (reach * cos, reach * sin)
        })
        .collect();
    Graphic::fill(Path::polygon(&pts), FillRule::NonZero, 1.0).unwrap()
}

/// Allocations of each of `measured` frames of `n` rocks (or stars) drifting and turning every frame,
/// after `warm` frames, with an age of the cache every few frames; and the contacts found.
fn allocations_a_frame(turn: Turn, n: usize, warm: usize, measured: usize) -> (Vec<u64>, usize) {
    let mut rng = Rng(0x57ea_d7f0 + n as u64);
    let images: Vec<Bitmap> = [30, 22, 16].iter().map(|&s| rock(s, &mut rng)).collect();
    let mut stage = Stage::new();
    // An age every few frames here (every 16 MiB taken in by default: every 30 frames of
    // 1,000 rocks), so that the frames measured come after many ages.
    stage.cache.set_age_bytes(48 << 10);
    let world = stage.add_container(stage.root()).unwrap();
    let field = (n as f64).sqrt() * 22.0;
    let mut rocks: Vec<(NodeId, usize, [f64; 6])> = (0..n)
        .map(|k| {
            let image = k % 3;
            let node = match turn {
                Turn::Stars => {
                    let node = stage.add_container(world).unwrap();
                    let size = f64::from(images[image].width());
                    stage
                        .add_graphic(node, star(5 + image as u32, size / 2.0))
                        .unwrap();
                    node
                }
                _ => stage.add_bitmap(world, images[image].clone(), false).unwrap(),
            };
            let state = [
                rng.range(0.0, field),
                rng.range(0.0, field),
                rng.range(-1.3, 1.3),
                rng.range(-1.3, 1.3),
                rng.range(0.0, 360.0),
                rng.range(-3.0, 3.0),
            ];
            (node, image, state)
        })
        .collect();
    let nodes: Vec<NodeId> = rocks.iter().map(|r| r.0).collect();
    let opts = CollisionOptions::default().tolerance(127).parallel(false);
    let (mut counts, mut contacts) = (Vec::new(), 0);
    for frame in 0..warm + measured {
        for (k, (node, image, st)) in rocks.iter_mut().enumerate() {
            st[0] = (st[0] + st[2]).rem_euclid(field);
            st[1] = (st[1] + st[3]).rem_euclid(field);
            st[4] = (st[4] + st[5]).rem_euclid(360.0);
            match turn {
                Turn::Rotation | Turn::Stars => {
                    stage.set_position(*node, st[0], st[1]).unwrap();
                    stage.set_rotation(*node, st[4]).unwrap();
                }
                Turn::Pygame => {
                    let t = match k % 2 {
                        0 => PygameTransform::rotate(st[4]),
                        _ => PygameTransform::rotozoom(st[4], 1.25),
                    };
                    let size = images[*image].width();
                    let (w, h) = t.output_size(size, size);
                    let (x, y) = (st[0].round() - f64::from(w / 2), st[1].round() - f64::from(h / 2));
                    stage
                        .set_bitmap_renderer(*node, Some(BitmapRenderer::Pygame(t)))
                        .unwrap();
                    stage.set_position(*node, x, y).unwrap();
                }
            }
        }
        let mut found = 0;
        let info = allocation_counter::measure(|| {
            found = stage.contacts_among(&nodes, world, &opts).unwrap().len();
        });
        if frame >= warm {
            counts.push(info.count_total);
            contacts += found;
        }
    }
    (counts, contacts)
}

/// At most this many allocations a steady frame, whatever the number of sprites: the
/// query's arrays and their growth, about 21 at 60 rocks and 28 at 240 (before the
/// spares, about 4 a rock: 1,000 at 240), and once in a while a bitmap's texels made
/// again after 64 ages (57 once here).
const FRAME_ALLOCATIONS: u64 = 80;

#[test]
fn a_steady_frame_of_turning_sprites_allocates_a_bounded_amount() {
    for turn in [Turn::Rotation, Turn::Pygame, Turn::Stars] {
        let mut worst = Vec::new();
        for n in [60, 240] {
            let (counts, contacts) = allocations_a_frame(turn, n, 40, 12);
            let most = counts.iter().copied().max().unwrap_or(0);
            eprintln!("{turn:?}, {n} rocks: allocations a frame {counts:?}; {contacts} contacts");
            assert!(
                contacts > n,
                "{turn:?}, {n} rocks: the rocks must meet ({contacts} contacts)"
            );
            assert!(most <= FRAME_ALLOCATIONS, "{turn:?}, {n} rocks: {counts:?}");
            worst.push(most);
        }
        // Four times the rocks, four times the poses: not four times the allocations.
        assert!(worst[1] < worst[0] + 24, "{turn:?}: {worst:?}");
    }
}
