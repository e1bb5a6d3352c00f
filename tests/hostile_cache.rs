//! Hostile input, round four (issue 28, items 1 and 2): no stale answer after a content
//! change, and memory within the cache limit while content changes every frame.
//!
//! Item 1: the cache used to key rasters by the address of a path or bitmap, and a raster's
//! entry did not keep that address alive, so new content allocated at a freed address
//! inherited the old content's raster. The reproducers, with the cache aged every frame,
//! are unit tests (src/query/content_change_tests.rs); here thousands of content changes
//! through the public API are each compared with a fresh clone of the stage, whose cache is
//! empty.
//!
//! Item 2: every byte a cache entry keeps is counted, the texels a pose or a raster holds
//! included. The process's memory is measured by a counting global allocator
//! (allocation-counter), which is why this is a test binary of its own.

use pixelhit::{Bitmap, CollisionOptions, FillRule, Graphic, NodeId, Path, Stage};

/// The raster cache's limit (`CACHE_BYTES` in src/raster/cache.rs, 128 MiB).
const CACHE_LIMIT: u64 = 128 << 20;

fn square(side: f64) -> Graphic {
    Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap()
}

/// A 10 x 10 square with a 4 x 4 hole in its middle (even-odd).
fn square_with_hole() -> Graphic {
    let mut p = Path::new();
    for (x0, x1) in [(0.0, 10.0), (3.0, 7.0)] {
        p.move_to(x0, x0)
            .line_to(x1, x0)
            .line_to(x1, x1)
            .line_to(x0, x1)
            .close();
    }
    Graphic::fill(p, FillRule::EvenOdd, 1.0).unwrap()
}

fn stroked_square() -> Graphic {
    Graphic::stroke(Path::rect(1.0, 1.0, 8.0, 8.0), 2.0, 1.0).unwrap()
}

/// An RGBA bitmap of `w` x `h`, opaque where `solid(x, y)`.
fn bitmap(w: u32, h: u32, solid: impl Fn(u32, u32) -> bool) -> Bitmap {
    let mut rgba = Vec::with_capacity((4 * w * h) as usize);
    for y in 0..h {
        for x in 0..w {
            rgba.extend_from_slice(&[200, 40, 40, if solid(x, y) { 255 } else { 0 }]);
        }
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

/// The answer of the pair's precise query, with the count of shared pixels.
fn answer(stage: &Stage, a: NodeId, b: NodeId) -> (Option<pixelhit::Rect>, Option<u64>) {
    let c = stage
        .collision(a, b, stage.root(), &CollisionOptions::default())
        .unwrap();
    (c.rect, c.overlap_pixels)
}

/// Thousands of content changes, each followed by queries that a fresh clone answers too.
#[test]
fn thousands_of_content_changes_match_a_fresh_stage() {
    let mut stage = Stage::new();
    let root = stage.root();
    let shape = stage.add_container(root).unwrap();
    let pic = stage
        .add_bitmap(root, bitmap(10, 10, |_, _| true), false)
        .unwrap();
    let probe = stage.add_container(root).unwrap();
    stage.add_graphic(probe, square(2.0)).unwrap();
    let mut seed = 0x9e37_79b9_7f4a_7c15_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    for step in 0..3000 {
        let r = next();
        match r % 4 {
            0 => {
                stage.set_graphics(shape, Vec::new()).unwrap();
                let g = [square(10.0), square_with_hole(), stroked_square()][(r >> 8) as usize % 3].clone();
                stage.set_graphics(shape, vec![g]).unwrap();
            }
            1 => {
                stage.set_bitmap(pic, bitmap(1, 1, |_, _| false), false).unwrap();
                let hole = (r >> 8) % 2 == 0;
                let b = bitmap(10, 10, |x, y| {
                    !(hole && (3..7).contains(&x) && (3..7).contains(&y))
                });
                stage.set_bitmap(pic, b, false).unwrap();
            }
            _ => {
                let (x, y) = ((r >> 16) % 10, (r >> 24) % 10);
                stage.set_position(probe, x as f64, y as f64).unwrap();
            }
        }
        for target in [shape, pic] {
            // Asked twice, so that the second reads what the first kept.
            let first = answer(&stage, target, probe);
            let second = answer(&stage, target, probe);
            let fresh = answer(&stage.clone(), target, probe);
            assert_eq!(first, fresh, "step {step}");
            assert_eq!(second, fresh, "step {step}, asked again");
        }
    }
}

/// Frames of a bitmap whose content changes every frame, one query a frame, all measured:
/// the most the process holds stays within the cache limit plus `slack`.
fn frames_stay_within_the_limit(what: &str, frames: usize, slack: u64, mut frame: impl FnMut(usize)) {
    let info = allocation_counter::measure(|| {
        for f in 0..frames {
            frame(f);
        }
    });
    assert!(
        info.bytes_max <= CACHE_LIMIT + slack,
        "{what}: held {} MiB at its peak (cache limit {} MiB + {} MiB)",
        info.bytes_max >> 20,
        CACHE_LIMIT >> 20,
        slack >> 20
    );
}

/// A 1024 x 1024 bitmap and a probe over its middle.
fn big_bitmap_stage() -> (Stage, NodeId, NodeId) {
    let mut stage = Stage::new();
    let root = stage.root();
    let pic = stage
        .add_bitmap(root, bitmap(1024, 1024, |x, y| (x ^ y) & 8 == 0), false)
        .unwrap();
    let probe = stage.add_container(root).unwrap();
    stage.add_graphic(probe, square(64.0)).unwrap();
    stage.set_position(probe, 480.0, 480.0).unwrap();
    (stage, pic, probe)
}

/// The slack: one frame's new content (the bitmap's RGBA, 4 MiB, and its texels, 1 MiB)
/// and what one query holds while it runs, well under 16 MiB.
const SLACK: u64 = 24 << 20;

#[test]
fn a_bitmap_replaced_every_frame_keeps_memory_within_the_cache_limit() {
    let (mut stage, pic, probe) = big_bitmap_stage();
    // Seven pictures, copied into a new bitmap every frame (as a game that edits its
    // pixels makes a new one).
    let pictures: Vec<Vec<u8>> = (0..7)
        .map(|shift| {
            bitmap(1024, 1024, |x, y| ((x + shift) ^ y) & 8 == 0)
                .rgba()
                .to_vec()
        })
        .collect();
    frames_stay_within_the_limit("new pixels", 300, SLACK, |f| {
        let next = Bitmap::from_rgba8(1024, 1024, pictures[f % 7].clone()).unwrap();
        stage.set_bitmap(pic, next, false).unwrap();
        let _ = answer(&stage, pic, probe);
        let _ = answer(&stage, probe, pic);
    });
}
