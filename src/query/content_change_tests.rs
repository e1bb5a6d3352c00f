//! Content changes never leave a stale answer (issue 28, item 1): whatever the cache kept of
//! a path or a bitmap that is gone, new content never reads it, even when the allocator
//! hands the new content the old one's address (the old handle is dropped first and the
//! new one, of the same size, made right after, which is what makes a LIFO allocator hand
//! the address out again). The stage here ages its cache every frame (the policy's byte
//! threshold lowered), so that the few hundred frames of a game that age shared geometry
//! and texels out of the cache, while the target's whole raster stays in use, take
//! milliseconds.

use crate::{Bitmap, CollisionOptions, FillRule, Graphic, NodeId, Path, Rect, Stage};

fn square(side: f64) -> Graphic {
    Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap()
}

/// A 10 x 10 square with a 4 x 4 hole in its middle: the hole winds the other way, so
/// that the non-zero rule of the solid square it replaces leaves it open (the fill rule is
/// part of the cache's key, so the new fill must have the old one's).
fn square_with_hole() -> Path {
    let mut p = Path::new();
    p.move_to(0.0, 0.0)
        .line_to(10.0, 0.0)
        .line_to(10.0, 10.0)
        .line_to(0.0, 10.0)
        .close();
    p.move_to(3.0, 3.0)
        .line_to(3.0, 7.0)
        .line_to(7.0, 7.0)
        .line_to(7.0, 3.0)
        .close();
    p
}

/// A bitmap of 10 x 10 opaque texels, with a 4 x 4 hole in the middle when `holed`.
fn bitmap(holed: bool) -> Bitmap {
    let mut rgba = Vec::new();
    for y in 0..10 {
        for x in 0..10 {
            let hole = holed && (3..7).contains(&x) && (3..7).contains(&y);
            rgba.extend_from_slice(&[9, 9, 9, if hole { 0 } else { 255 }]);
        }
    }
    Bitmap::from_rgba8(10, 10, rgba).unwrap()
}

fn answer(stage: &Stage, a: NodeId, b: NodeId) -> (Option<Rect>, Option<u64>) {
    let c = stage
        .collision(a, b, stage.root(), &CollisionOptions::default())
        .unwrap();
    (c.rect, c.overlap_pixels)
}

/// `big` (made by `make`, a 10 x 10 solid at the origin) and a 2 x 2 square in its middle
/// asked about in each of `frames` frames, until `big`'s whole raster is all the cache keeps
/// of it; then `replace` puts a hole where the small square is, and the answer must be the
/// fresh clone's (no overlap).
fn replay(frames: usize, make: impl Fn(&mut Stage) -> NodeId, replace: impl Fn(&mut Stage, NodeId)) {
    let mut stage = Stage::new();
    stage.cache.set_age_bytes(1);
    let root = stage.root();
    let big = make(&mut stage);
    let small = stage.add_container(root).unwrap();
    stage.add_graphic(small, square(2.0)).unwrap();
    stage.set_position(small, 4.0, 4.0).unwrap();
    // Another sprite turning every frame: new poses come into the cache, so frames age it.
    let mover = stage.add_container(root).unwrap();
    stage.add_graphic(mover, square(3.0)).unwrap();
    stage.set_position(mover, 5.0, 5.0).unwrap();
    let overlap = (Rect::from_ltrb(4.0, 4.0, 6.0, 6.0), Some(4));
    for frame in 0..frames {
        stage.set_rotation(mover, frame as f64).unwrap();
        let _ = answer(&stage, mover, small);
        assert_eq!(answer(&stage, big, small), overlap, "frame {frame}");
    }
    let c = stage.cache.counts();
    assert!(
        c.rasters >= 2 && c.local + c.texels <= 1,
        "not the reproducer's state: {c:?}"
    );
    replace(&mut stage, big);
    let fresh = stage.clone();
    assert_eq!(answer(&fresh, big, small), (None, Some(0)), "the fresh stage");
    assert_eq!(
        answer(&stage, big, small),
        answer(&fresh, big, small),
        "after the change"
    );
    assert_eq!(
        answer(&stage, small, big),
        answer(&fresh, small, big),
        "after the change, b first"
    );
}

/// A container drawing `make()`: made here, so that only the stage holds the graphic.
fn container_with(make: fn() -> Graphic) -> impl Fn(&mut Stage) -> NodeId {
    move |s: &mut Stage| {
        let n = s.add_container(s.root()).unwrap();
        s.add_graphic(n, make()).unwrap();
        n
    }
}

#[test]
fn a_new_fill_never_reads_the_old_fills_raster() {
    replay(140, container_with(|| square(10.0)), |s, big| {
        // The new path is built first: dropping the old graphic frees its shared path
        // last, and the new graphic's shared path is the next allocation of that size.
        let holed = square_with_hole();
        s.set_graphics(big, Vec::new()).unwrap();
        let g = Graphic::fill(holed, FillRule::NonZero, 1.0).unwrap();
        s.set_graphics(big, vec![g]).unwrap();
    });
}

#[test]
fn a_new_stroke_never_reads_the_old_strokes_raster() {
    // A stroke 5 px wide round a 5 x 5 square covers 10 x 10 whole; the new one, as wide
    // (the width is part of the cache's key), goes round a 12 x 12 square and leaves the
    // middle open.
    let wide = || Graphic::stroke(Path::rect(2.5, 2.5, 5.0, 5.0), 5.0, 1.0).unwrap();
    replay(140, container_with(wide), |s, big| {
        let centreline = Path::rect(-1.0, -1.0, 12.0, 12.0);
        s.set_graphics(big, Vec::new()).unwrap();
        let ring = Graphic::stroke(centreline, 5.0, 1.0).unwrap();
        s.set_graphics(big, vec![ring]).unwrap();
    });
}

#[test]
fn new_pixels_never_read_the_old_pixels_raster() {
    replay(
        140,
        |s| s.add_bitmap(s.root(), bitmap(false), false).unwrap(),
        |s, big| {
            s.set_bitmap(big, bitmap(false), false).unwrap();
            let holed = bitmap(true);
            s.set_bitmap(big, holed, false).unwrap();
        },
    );
}
