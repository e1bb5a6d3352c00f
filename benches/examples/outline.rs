//! Exact outlines handed to a physics engine: a ring sprite's outline, hole included, as
//! parry2d polylines, and a ball dropped inside the ring's hole comes to rest on the hole's
//! floor (a collider traced without holes would have no room for it).
//!
//! `cargo run -p pixelhit-benches --example outline` prints its checks and exits 0.

use parry2d::math::{Pose, Vector};
use parry2d::query;
use parry2d::shape::{Ball, Polyline};
use pixelhit::{Bitmap, DAffine2, DVec2, OutlineOptions, Stage};

/// A ring bitmap: solid between radii 14 and 28 of a 64 x 64 picture.
fn ring_bitmap() -> Bitmap {
    let size = 64u32;
    let rgba = (0..size * size)
        .flat_map(|k| {
            let (x, y) = ((k % size) as f64 + 0.5 - 32.0, (k / size) as f64 + 0.5 - 32.0);
            let r = x.hypot(y);
            let a = if (14.0..28.0).contains(&r) { 255 } else { 0 };
            [200, 120, 40, a]
        })
        .collect();
    Bitmap::from_rgba8(size, size, rgba).expect("a 64 x 64 picture")
}

/// Whether `p` is inside the loops by the even-odd rule.
fn inside(loops: &[Vec<DVec2>], p: DVec2) -> bool {
    let mut odd = false;
    for l in loops {
        for (i, &a) in l.iter().enumerate() {
            let b = l[(i + 1) % l.len()];
            if (a.y > p.y) != (b.y > p.y) && p.x < a.x + (p.y - a.y) * (b.x - a.x) / (b.y - a.y) {
                odd = !odd;
            }
        }
    }
    odd
}

fn main() -> Result<(), pixelhit::Error> {
    let mut stage = Stage::new();
    let root = stage.root();
    let ring = stage.add_bitmap(root, ring_bitmap(), false)?;
    // Drawn at twice its size, a little turned, somewhere on the screen.
    stage.set_matrix(
        ring,
        DAffine2::from_translation(DVec2::new(200.0, 150.0))
            * DAffine2::from_angle(0.3)
            * DAffine2::from_scale(DVec2::splat(2.0))
            * DAffine2::from_translation(DVec2::splat(-32.0)),
    )?;
    let loops = stage.outline_with(ring, root, &OutlineOptions::default().simplify(0.45))?;
    let exact = stage.outline(ring, root, 255)?;
    let count = |l: &[Vec<DVec2>]| l.iter().map(Vec::len).sum::<usize>();
    println!(
        "outline: {} loops, {} vertices ({} before simplifying within 0.45 px)",
        loops.len(),
        count(&loops),
        count(&exact)
    );
    assert_eq!(loops.len(), 2, "the ring and its hole");

    // Every pixel centre of the ring's picture: inside the outline exactly when solid.
    let bounds = stage.bounds(ring, root)?.expect("the ring shows");
    let plane = stage.alpha_plane(ring, root, bounds, &Default::default())?;
    let mut checked = 0;
    for j in 0..i64::from(plane.height()) {
        for i in 0..i64::from(plane.width()) {
            let (x, y) = (plane.x() + i, plane.y() + j);
            let solid = plane.get(x, y) != Some(0);
            assert_eq!(inside(&loops, DVec2::new(x as f64 + 0.5, y as f64 + 0.5)), solid);
            checked += 1;
        }
    }
    println!("pixel centres: all {checked} agree with the ring's pixels");

    // The loops as parry2d polylines, each closed.
    let shapes: Vec<Polyline> = loops
        .iter()
        .map(|l| {
            let vertices = l.iter().map(|p| Vector::new(p.x as f32, p.y as f32)).collect();
            let n = l.len() as u32;
            let indices = (0..n).map(|i| [i, (i + 1) % n]).collect();
            Polyline::new(vertices, Some(indices))
        })
        .collect();
    let gap = |centre: DVec2, ball: &Ball| -> f32 {
        let at = Pose::translation(centre.x as f32, centre.y as f32);
        shapes
            .iter()
            .map(|s| {
                query::distance(&at, ball, &Pose::IDENTITY, s)
                    .expect("ball and polyline")
                    .distance
            })
            .fold(f32::INFINITY, f32::min)
    };

    // A ball of radius 10 (the hole's radius is 28 px on screen) dropped from the hole's
    // centre, in steps of a tenth of a pixel, until it touches.
    let ball = Ball::new(10.0);
    let mut centre = DVec2::new(200.0, 150.0);
    assert!(!inside(&loops, centre), "the ring's centre is in the hole");
    let start_gap = gap(centre, &ball);
    println!("ball at the hole's centre: {start_gap:.2} px from the ring");
    assert!(start_gap > 10.0);
    while gap(centre + DVec2::new(0.0, 0.1), &ball) > 0.0 {
        centre.y += 0.1;
        assert!(centre.y < 200.0, "the ball fell through the ring");
    }
    // It rests on the hole's floor: the first solid pixel below the centre column.
    let floor = (150..250)
        .find(|&y| plane.get(200, y).is_some_and(|a| a != 0))
        .expect("the ring below the hole") as f64;
    let bottom = centre.y + 10.0;
    println!(
        "ball rests at y = {:.1}: its bottom {bottom:.1}, the hole's floor at {floor}",
        centre.y
    );
    assert!(!inside(&loops, centre), "the ball is still in the hole");
    assert!((bottom - floor).abs() <= 1.0, "resting on the floor");
    println!("ok");
    Ok(())
}
