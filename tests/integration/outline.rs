//! Outlines: under the even-odd rule a pixel's centre is inside an object's outline
//! exactly when the object's alpha plane says the pixel is solid, over random shapes,
//! bitmaps, rings, poses and tolerances, simplified or not.

use pixelhit::{
    Bitmap, CollisionOptions, DVec2, FillRule, Graphic, NodeId, OutlineOptions, Path, Rect, Stage,
};

use crate::common::{Rng, random_matrix, scribble, star, winding};

/// Whether `p` is inside `loops` by the even-odd rule (every loop closed).
fn inside_even_odd(loops: &[Vec<DVec2>], p: DVec2) -> bool {
    loops.iter().map(|l| winding(l, p)).sum::<i32>() % 2 != 0
}

fn polygon_path(contours: &[Vec<DVec2>]) -> Path {
    let mut path = Path::new();
    for c in contours {
        path.move_to(c[0].x, c[0].y);
        for p in &c[1..] {
            path.line_to(p.x, p.y);
        }
        path.close();
    }
    path
}

/// One random object under the root: a star, a scribble, a ring or a bitmap.
fn random_object(rng: &mut Rng, stage: &mut Stage) -> NodeId {
    let root = stage.root();
    let node = match rng.int(0, 3) {
        0..=2 => {
            let node = stage.add_container(root).unwrap();
            let (contours, rule) = match rng.int(0, 2) {
                0 => {
                    let n = rng.int(5, 12) as usize;
                    (vec![star(rng, n, 2.0, 9.0)], FillRule::NonZero)
                }
                1 => {
                    let n = rng.int(4, 9) as usize;
                    let rule = rng.pick(&[FillRule::NonZero, FillRule::EvenOdd]);
                    (vec![scribble(rng, n, 9.0)], rule)
                }
                _ => {
                    // A ring: a star with a smaller star inside, read even-odd.
                    let outer = star(rng, 8, 6.0, 9.0);
                    let inner = star(rng, 6, 1.5, 4.0);
                    (vec![outer, inner], FillRule::EvenOdd)
                }
            };
            let alpha = if rng.coin() { 1.0 } else { rng.range(0.2, 1.0) };
            stage
                .add_graphic(node, Graphic::fill(polygon_path(&contours), rule, alpha).unwrap())
                .unwrap();
            node
        }
        _ => {
            let (w, h) = (rng.int(1, 8) as u32, rng.int(1, 8) as u32);
            let rgba = (0..w * h)
                .flat_map(|_| {
                    let a = rng.pick(&[0u8, 0, 255, 255, 128, 1, 254, 60]);
                    [10, 20, 30, a]
                })
                .collect();
            let bitmap = Bitmap::from_rgba8(w, h, rgba).unwrap();
            stage.add_bitmap(root, bitmap, rng.coin()).unwrap()
        }
    };
    let t = DVec2::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0));
    let skew = rng.coin();
    stage
        .set_matrix(node, random_matrix(rng, (0.4, 2.5), skew, t))
        .unwrap();
    if rng.int(0, 4) == 0 {
        stage
            .set_tolerance(node, Some(rng.pick(&[0u8, 100, 200, 255])))
            .unwrap();
    }
    node
}

#[test]
fn a_pixel_centre_is_inside_the_outline_exactly_when_the_pixel_is_solid() {
    let mut rng = Rng::new(0x7011_1e00);
    let mut loops_seen = 0;
    for case in 0..1500 {
        let mut stage = Stage::new();
        let node = random_object(&mut rng, &mut stage);
        let root = stage.root();
        let tolerance = rng.pick(&[0u8, 50, 128, 254, 255]);
        let anti_alias = rng.int(0, 3) != 0;
        let simplify = match rng.int(0, 2) {
            0 => 0.0,
            1 => rng.range(0.0, 0.499),
            _ => 0.49,
        };
        let opts = OutlineOptions::default()
            .tolerance(tolerance)
            .anti_alias(anti_alias)
            .simplify(simplify);
        let loops = stage.outline_with(node, root, &opts).unwrap();
        loops_seen += loops.len();
        // The plane over the bounds and two pixels around them, straight from the stage.
        let Some(b) = stage.bounds(node, root).unwrap() else {
            assert!(loops.is_empty());
            continue;
        };
        let area = Rect::from_ltrb(b.left() - 2.0, b.top() - 2.0, b.right() + 2.0, b.bottom() + 2.0).unwrap();
        let copts = CollisionOptions::default().anti_alias(anti_alias);
        let plane = stage.alpha_plane(node, root, area, &copts).unwrap();
        let own = stage.tolerance(node).unwrap().unwrap_or(tolerance);
        let solid_from = (255 - own).max(1);
        for j in 0..plane.height() as i64 {
            for i in 0..plane.width() as i64 {
                let (x, y) = (plane.x() + i, plane.y() + j);
                let solid = plane.get(x, y).unwrap() >= solid_from;
                let centre = DVec2::new(x as f64 + 0.5, y as f64 + 0.5);
                assert_eq!(
                    inside_even_odd(&loops, centre),
                    solid,
                    "case {case}: pixel ({x}, {y}), simplify {simplify}, tolerance {own}, aa {anti_alias}"
                );
            }
        }
        for l in &loops {
            assert!(l.len() >= 3, "case {case}: a loop of {} vertices", l.len());
            assert!(
                l.iter()
                    .all(|p| (p.x * 2.0).fract() == 0.0 && (p.y * 2.0).fract() == 0.0)
            );
            if simplify == 0.0 {
                assert!(l.iter().all(|p| p.x.fract() == 0.0 && p.y.fract() == 0.0));
            }
        }
    }
    assert!(loops_seen > 1500, "too few loops to mean anything: {loops_seen}");
}

#[test]
fn simplifying_below_half_a_pixel_takes_vertices_off_a_disc_and_keeps_the_ring_hole() {
    let mut stage = Stage::new();
    let root = stage.root();
    let ring = stage.add_container(root).unwrap();
    let path = Path::from_svg("M 50 20 A 30 30 0 1 1 49.99 20 Z M 50 35 A 15 15 0 1 0 50.01 35 Z").unwrap();
    stage
        .add_graphic(ring, Graphic::fill(path, FillRule::EvenOdd, 1.0).unwrap())
        .unwrap();
    let exact = stage.outline(ring, root, 255).unwrap();
    let fewer = stage
        .outline_with(ring, root, &OutlineOptions::default().simplify(0.45))
        .unwrap();
    assert_eq!(exact.len(), 2, "the ring and its hole");
    assert_eq!(fewer.len(), 2);
    let count = |l: &[Vec<DVec2>]| l.iter().map(Vec::len).sum::<usize>();
    // Pixel-exact, a digitised circle keeps most of its steps: about a third go.
    assert!(
        count(&fewer) * 5 < count(&exact) * 4,
        "{} vs {}",
        count(&fewer),
        count(&exact)
    );
    // The hole's middle is outside, the band's inside.
    assert!(!inside_even_odd(&fewer, DVec2::new(50.5, 50.5)));
    assert!(inside_even_odd(&fewer, DVec2::new(50.5, 25.5)));
}

#[test]
fn bad_simplify_distances_and_outsiders_are_errors() {
    let mut stage = Stage::new();
    let root = stage.root();
    let a = stage.add_container(root).unwrap();
    let b = stage.add_container(root).unwrap();
    for bad in [-0.1, f64::NAN, f64::INFINITY] {
        let e = stage
            .outline_with(a, root, &OutlineOptions::default().simplify(bad))
            .unwrap_err();
        assert!(e.to_string().contains("simplify"), "{e}");
    }
    assert!(stage.outline(a, b, 255).is_err());
    assert_eq!(stage.outline(a, root, 255).unwrap(), Vec::<Vec<DVec2>>::new());
}

#[test]
fn a_huge_object_is_refused_by_the_pixel_budget() {
    let mut stage = Stage::new();
    let root = stage.root();
    let big = stage.add_container(root).unwrap();
    stage
        .add_graphic(
            big,
            Graphic::fill(Path::rect(0.0, 0.0, 1000.0, 1000.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
    let e = stage
        .outline_with(big, root, &OutlineOptions::default().max_pixels(10_000))
        .unwrap_err();
    assert!(matches!(e, pixelhit::Error::PixelBudget { .. }), "{e}");
}
