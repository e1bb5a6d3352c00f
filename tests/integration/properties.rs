//! Properties of `collision` (semantics.md, section 4), checked with proptest on random
//! scenes: symmetry in the two targets, integer translations, precise inside non-precise,
//! quarter turns of the whole scene, and independence from the window and from which
//! ancestor with the same space is the parent.
//!
//! Seeds are fixed (`RngSeed::Fixed`) and nothing is persisted, so every run checks the
//! same cases; scenes are built from a proptest-chosen `u64` by the tests' own generator.

use crate::common::{Expected, Mode, RefTarget, Rng, add_target, random_case, random_matrix, scribble, star};
use pixelhit::{
    Bitmap, Collision, CollisionOptions, ColorTransform, DAffine2, DVec2, FillRule, Graphic, NodeId, Path,
    Rect, Stage,
};
use proptest::prelude::{Just, Strategy, any, prop_assert, prop_assert_eq, prop_oneof, proptest};
use proptest::test_runner::{Config, RngSeed, TestCaseError};

fn config(cases: u32, seed: u64) -> Config {
    Config {
        cases,
        failure_persistence: None,
        rng_seed: RngSeed::Fixed(seed),
        ..Config::default()
    }
}

fn tolerances() -> impl Strategy<Value = u8> {
    prop_oneof![3 => Just(255u8), 1 => Just(0u8), 1 => Just(128u8), 2 => any::<u8>()]
}

fn opts(precise: bool, aa: bool, tolerance: u8) -> CollisionOptions {
    CollisionOptions::default()
        .precise(precise)
        .anti_alias(aa)
        .tolerance(tolerance)
}

/// Where the mixed scenes are placed.
const PLACES: [f64; 5] = [0.0, 50.5, -3000.0, 1.0e6, -7.0e6];

/// A random target of mixed content: a container with a random matrix (and sometimes a
/// colour transform) holding fills, strokes, circles and bitmaps, some in child nodes.
fn mixed_target(rng: &mut Rng, stage: &mut Stage, parent: NodeId, anchor: DVec2) -> NodeId {
    let t = stage.add_container(parent).unwrap();
    let pos = anchor + DVec2::new(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
    let skew = rng.coin();
    let m = random_matrix(rng, (0.5, 1.5), skew, pos);
    stage.set_matrix(t, m).unwrap();
    if rng.int(0, 3) == 0 {
        let ct = ColorTransform::new(
            [1.0, 1.0, 1.0, rng.range(0.3, 1.0)],
            [0.0, 0.0, 0.0, rng.range(-60.0, 60.0)],
        );
        stage.set_color_transform(t, ct).unwrap();
    }
    for _ in 0..rng.int(1, 3) {
        let holder = if rng.coin() {
            t
        } else {
            let c = stage.add_container(t).unwrap();
            let shift = DVec2::new(rng.range(-4.0, 4.0), rng.range(-4.0, 4.0));
            let skew = rng.coin();
            let m = random_matrix(rng, (0.5, 1.5), skew, shift);
            stage.set_matrix(c, m).unwrap();
            c
        };
        let alpha = if rng.coin() { 1.0 } else { rng.range(0.2, 1.0) };
        match rng.int(0, 3) {
            0 => {
                let n = rng.int(5, 12) as usize;
                let r_min = rng.range(1.0, 6.0);
                let r_max = r_min + rng.range(2.0, 15.0);
                let p = star(rng, n, r_min, r_max);
                let rule = if rng.coin() {
                    FillRule::NonZero
                } else {
                    FillRule::EvenOdd
                };
                let g = Graphic::fill(Path::polygon(&p), rule, alpha).unwrap();
                stage.add_graphic(holder, g).unwrap();
            }
            1 => {
                let n = rng.int(2, 5) as usize;
                let pts = scribble(rng, n, 12.0);
                let mut p = Path::new();
                p.move_to(pts[0].x, pts[0].y);
                for q in &pts[1..] {
                    p.line_to(q.x, q.y);
                }
                let w = rng.range(0.0, 4.0);
                stage
                    .add_graphic(holder, Graphic::stroke(p, w, alpha).unwrap())
                    .unwrap();
            }
            2 => {
                let (cx, cy, r) = (rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(1.0, 12.0));
                let g = Graphic::fill(Path::circle(cx, cy, r), FillRule::NonZero, alpha).unwrap();
                stage.add_graphic(holder, g).unwrap();
            }
            _ => {
                let (w, h) = (rng.int(2, 12) as u32, rng.int(2, 12) as u32);
                let levels = [0u8, 1, 90, 128, 200, 255, 255, 255];
                let rgba = (0..w * h).flat_map(|_| [1, 2, 3, rng.pick(&levels)]).collect();
                let bm = Bitmap::from_rgba8(w, h, rgba).unwrap();
                let n = stage.add_bitmap(t, bm, rng.coin()).unwrap();
                let shift = DVec2::new(rng.range(-6.0, 0.0), rng.range(-6.0, 0.0));
                let skew = rng.coin();
                let m = random_matrix(rng, (0.5, 2.0), skew, shift);
                stage.set_matrix(n, m).unwrap();
            }
        }
    }
    t
}

/// Two mixed targets near each other under `parent`, at a random place.
fn mixed_pair(rng: &mut Rng, stage: &mut Stage, parent: NodeId) -> (NodeId, NodeId) {
    let anchor = DVec2::new(
        rng.pick(&PLACES) + rng.range(0.0, 1.0),
        rng.pick(&PLACES) + rng.range(0.0, 1.0),
    );
    let a = mixed_target(rng, stage, parent, anchor);
    let b = mixed_target(rng, stage, parent, anchor);
    (a, b)
}

fn translated(r: Option<Rect>, dx: f64, dy: f64) -> Option<Rect> {
    r.map(|r| Rect::from_ltrb(r.left() + dx, r.top() + dy, r.right() + dx, r.bottom() + dy).unwrap())
}

/// `r` turned by `quarter` quarter turns about the origin ((x, y) -> (-y, x) each).
fn turned(r: Option<Rect>, quarter: u32) -> Option<Rect> {
    let mut r = r?;
    for _ in 0..quarter {
        r = Rect::from_ltrb(-r.bottom(), r.left(), -r.top(), r.right()).unwrap();
    }
    Some(r)
}

proptest! {
    #![proptest_config(config(96, 0x5157_4150))]

    /// The answer does not depend on which target is `a`.
    #[test]
    fn swapping_the_targets_changes_nothing(
        seed in any::<u64>(),
        precise in prop_oneof![3 => Just(true), 1 => Just(false)],
        aa in any::<bool>(),
        tolerance in tolerances(),
        polygons_only in any::<bool>(),
    ) {
        let o = opts(precise, aa, tolerance);
        let (stage, a, b, parent) = if polygons_only {
            let c = random_case(seed, false);
            (c.stage, c.a, c.b, c.parent)
        } else {
            let mut rng = Rng::new(seed);
            let mut stage = Stage::new();
            let root = stage.root();
            let (a, b) = mixed_pair(&mut rng, &mut stage, root);
            (stage, a, b, root)
        };
        let ab = stage.collision(a, b, parent, &o).unwrap();
        let ba = stage.collision(b, a, parent, &o).unwrap();
        prop_assert_eq!(ab, ba);
    }
}

proptest! {
    #![proptest_config(config(128, 0x7472_616E))]

    /// Moving both targets by an integer vector (through their x and y) moves the answer by
    /// it, exactly, for geometry on the pixel grid (see `grid_target`), near the origin and
    /// millions of pixels away.
    #[test]
    fn integer_moves_move_the_answer(
        seed in any::<u64>(),
        dx in prop_oneof![-400i64..400, -3_000_000i64..3_000_000],
        dy in prop_oneof![-400i64..400, -3_000_000i64..3_000_000],
        aa in any::<bool>(),
        tolerance in tolerances(),
    ) {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let root = stage.root();
        let a = grid_target(&mut rng, &mut stage, root);
        let b = grid_target(&mut rng, &mut stage, root);
        check_integer_move(&mut stage, a, b, root, (dx as f64, dy as f64), aa, tolerance)?;
    }

    /// With random rotated, scaled and skewed polygons (no anti-aliasing) both the answer
    /// before and after an integer move lie within what the independent reference of
    /// tests/raster_check.rs allows for the moved pixels.
    #[test]
    fn integer_moves_of_polygons_stay_within_the_reference(
        seed in any::<u64>(),
        dx in prop_oneof![-400i64..400, -3_000_000i64..3_000_000],
        dy in prop_oneof![-400i64..400, -3_000_000i64..3_000_000],
        tolerance in tolerances(),
    ) {
        let c = random_case(seed, false);
        let mut stage = c.stage;
        let refs = (
            RefTarget::new(c.ref_a.clone(), Mode::Centre(c.rules.0)),
            RefTarget::new(c.ref_b.clone(), Mode::Centre(c.rules.1)),
        );
        let expected = Expected::of(&refs.0, &refs.1);
        let o = opts(true, false, tolerance);
        let before = stage.collision(c.a, c.b, c.parent, &o).unwrap();
        if let Err(e) = expected.check(&before) {
            prop_assert!(false, "before: {}", e);
        }
        for t in [c.a, c.b] {
            stage.set_x(t, stage.x(t).unwrap() + dx as f64).unwrap();
            stage.set_y(t, stage.y(t).unwrap() + dy as f64).unwrap();
        }
        let after = stage.collision(c.a, c.b, c.parent, &o).unwrap();
        if let Err(e) = expected.map(|(i, j)| (i + dx, j + dy)).check(&after) {
            prop_assert!(false, "after: {}", e);
        }
    }
}

proptest! {
    // Tiles fixed in the parent's grid once failed this in about one case in 170.
    #![proptest_config(config(1000, 0x7472_616E))]

    /// The exact form of the property for any geometry: rasters are anchored at each item's
    /// own corner and snapped there, so a whole-pixel move hands tiny-skia the same path.
    /// See `integer_move_keeps_a_pixel_next_to_an_edge` for the case that used to fail.
    #[test]
    fn integer_moves_move_the_answer_for_any_geometry(
        seed in any::<u64>(),
        dx in -400i64..400,
        dy in -400i64..400,
        aa in any::<bool>(),
        tolerance in tolerances(),
    ) {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let root = stage.root();
        let (a, b) = mixed_pair(&mut rng, &mut stage, root);
        check_integer_move(&mut stage, a, b, root, (dx as f64, dy as f64), aa, tolerance)?;
    }
}

/// Moves `a` and `b` by `(dx, dy)` through their x and y and checks that the precise answer
/// moves by exactly that, and the loose one by that up to the rounding of the sums.
fn check_integer_move(
    stage: &mut Stage,
    a: NodeId,
    b: NodeId,
    parent: NodeId,
    (dx, dy): (f64, f64),
    aa: bool,
    tolerance: u8,
) -> Result<(), TestCaseError> {
    let before = stage.collision(a, b, parent, &opts(true, aa, tolerance)).unwrap();
    let loose_before = stage.collision_rect(a, b, parent, false, tolerance).unwrap();
    for t in [a, b] {
        stage.set_x(t, stage.x(t).unwrap() + dx).unwrap();
        stage.set_y(t, stage.y(t).unwrap() + dy).unwrap();
    }
    let after = stage.collision(a, b, parent, &opts(true, aa, tolerance)).unwrap();
    prop_assert_eq!(after.overlap_pixels, before.overlap_pixels);
    prop_assert_eq!(after.rect, translated(before.rect, dx, dy));
    let loose_after = stage.collision_rect(a, b, parent, false, tolerance).unwrap();
    prop_assert_eq!(loose_after.is_some(), loose_before.is_some());
    if let (Some(x), Some(y)) = (loose_after, translated(loose_before, dx, dy)) {
        let eps = 1e-6 * (1.0 + x.left().abs().max(x.top().abs()));
        let close = (x.left() - y.left()).abs() < eps
            && (x.top() - y.top()).abs() < eps
            && (x.right() - y.right()).abs() < eps
            && (x.bottom() - y.bottom()).abs() < eps;
        prop_assert!(close, "{:?} vs {:?}", x, y);
    }
    Ok(())
}

/// The minimal case that once broke the property above. The triangle's top edge runs from
/// (-23.41, 2.88) to (11.15, 1.95); at x = -9.5 it is at y = 2.50569, so the centre
/// (-9.5, 2.5) of pixel (-10, 2) lies 0.0057 px above it: close enough to the edge that the
/// pixel may go either way (semantics allow 0.05 px), but it must go the same way wherever
/// the pair sits. Rasters cut by tiles at fixed positions in the parent once flipped it
/// after moves of 1, 20, 30 or 64 px; rasters anchored at each item's own corner do not.
#[test]
fn integer_move_keeps_a_pixel_next_to_an_edge() {
    let tri = [
        DVec2::new(-23.41, 2.88),
        DVec2::new(11.15, 1.95),
        DVec2::new(-10.91, 24.08),
    ];
    let mut answers = Vec::new();
    for dx in [0.0, 1.0, 10.0, 20.0, 30.0, 64.0, 128.0, -1e6 + 0.0, 12345678.0] {
        let mut s = Stage::new();
        let root = s.root();
        let a = s.add_container(root).unwrap();
        s.add_graphic(
            a,
            Graphic::fill(Path::polygon(&tri), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
        s.set_x(a, dx).unwrap();
        let probe = Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap();
        let b = s.add_bitmap(root, probe, false).unwrap();
        s.set_x(b, -10.0 + dx).unwrap();
        s.set_y(b, 2.0).unwrap();
        let c = s.collision(a, b, root, &opts(true, false, 255)).unwrap();
        answers.push((c.overlap_pixels, translated(c.rect, -dx, 0.0)));
    }
    assert!(answers.windows(2).all(|w| w[0] == w[1]), "{answers:?}");
}

proptest! {
    #![proptest_config(config(128, 0x696E_7369))]

    /// The precise answer lies inside the non-precise one rounded out to whole pixels
    /// (section 4.4: the window is floor/ceil of r), and counts no more pixels than that
    /// rectangle holds.
    #[test]
    fn precise_lies_inside_the_rounded_out_loose_answer(
        seed in any::<u64>(),
        aa in any::<bool>(),
        tolerance in tolerances(),
    ) {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let root = stage.root();
        let parent = if rng.coin() {
            root
        } else {
            let p = stage.add_container(root).unwrap();
            let t = DVec2::new(rng.range(-20.0, 20.0), 0.0);
            let m = random_matrix(&mut rng, (0.5, 2.0), true, t);
            stage.set_matrix(p, m).unwrap();
            p
        };
        let (a, b) = mixed_pair(&mut rng, &mut stage, parent);
        let loose = stage.collision(a, b, parent, &opts(false, aa, tolerance)).unwrap().rect;
        let tight = stage.collision(a, b, parent, &opts(true, aa, tolerance)).unwrap();
        match (loose, tight.rect) {
            (None, Some(t)) => prop_assert!(false, "precise {:?} without a loose answer", t),
            (Some(l), Some(t)) => {
                let (l0, t0, r0, b0) = (l.left().floor(), l.top().floor(), l.right().ceil(), l.bottom().ceil());
                prop_assert!(t.left() >= l0 && t.top() >= t0 && t.right() <= r0 && t.bottom() <= b0,
                    "precise {:?} outside rounded-out {:?}", t, l);
                let cells = (r0 - l0) * (b0 - t0);
                prop_assert!(tight.overlap_pixels.unwrap() as f64 <= cells);
                let area = t.width() * t.height();
                prop_assert!(tight.overlap_pixels.unwrap() as f64 <= area);
                prop_assert!(tight.overlap_pixels.unwrap() >= 1);
            }
            (_, None) => prop_assert_eq!(tight.overlap_pixels, Some(0)),
        }
    }
}

/// A target whose geometry the pixel grid maps onto itself under quarter turns: integer
/// rectangles (some in one even-odd path), bitmaps at integer offsets, integer scales and
/// rotations by multiples of 90 degrees, alpha and colour transforms.
fn grid_target(rng: &mut Rng, stage: &mut Stage, parent: NodeId) -> NodeId {
    let t = stage.add_container(parent).unwrap();
    stage.set_x(t, rng.int(-4, 4) as f64).unwrap();
    stage.set_y(t, rng.int(-4, 4) as f64).unwrap();
    stage.set_rotation(t, 90.0 * rng.int(0, 3) as f64).unwrap();
    if rng.int(0, 3) == 0 {
        stage.set_alpha(t, rng.range(0.2, 1.0)).unwrap();
    }
    for _ in 0..rng.int(1, 4) {
        let alpha = if rng.coin() { 1.0 } else { rng.range(0.1, 1.0) };
        match rng.int(0, 2) {
            0 => {
                let (x, y) = (rng.int(-8, 3) as f64, rng.int(-8, 3) as f64);
                let (w, h) = (rng.int(1, 14) as f64, rng.int(1, 14) as f64);
                let g = Graphic::fill(Path::rect(x, y, w, h), FillRule::NonZero, alpha).unwrap();
                stage.add_graphic(t, g).unwrap();
            }
            1 => {
                // Two overlapping rectangles in one path: even-odd cuts their overlap out.
                let mut p = Path::new();
                for _ in 0..2 {
                    let (x, y) = (rng.int(-8, 3) as f64, rng.int(-8, 3) as f64);
                    let (w, h) = (rng.int(2, 14) as f64, rng.int(2, 14) as f64);
                    p.move_to(x, y)
                        .line_to(x + w, y)
                        .line_to(x + w, y + h)
                        .line_to(x, y + h)
                        .close();
                }
                let rule = if rng.coin() {
                    FillRule::EvenOdd
                } else {
                    FillRule::NonZero
                };
                let c = stage.add_container(t).unwrap();
                stage.set_rotation(c, 90.0 * rng.int(0, 3) as f64).unwrap();
                stage
                    .add_graphic(c, Graphic::fill(p, rule, alpha).unwrap())
                    .unwrap();
            }
            _ => {
                let (w, h) = (rng.int(1, 8) as u32, rng.int(1, 8) as u32);
                let levels = [0u8, 1, 60, 127, 128, 254, 255, 255];
                let rgba = (0..w * h).flat_map(|_| [4, 5, 6, rng.pick(&levels)]).collect();
                let n = stage
                    .add_bitmap(t, Bitmap::from_rgba8(w, h, rgba).unwrap(), false)
                    .unwrap();
                stage.set_x(n, rng.int(-5, 5) as f64).unwrap();
                stage.set_y(n, rng.int(-5, 5) as f64).unwrap();
                stage.set_rotation(n, 90.0 * rng.int(0, 3) as f64).unwrap();
                let s = rng.pick(&[1.0, 1.0, 2.0, -1.0, 3.0]);
                stage.set_scale_x(n, s).unwrap();
                stage.set_scale_y(n, rng.pick(&[1.0, 2.0, -2.0])).unwrap();
            }
        }
    }
    t
}

proptest! {
    #![proptest_config(config(128, 0x7475_726E))]

    /// Turning the common parent's whole content by quarter turns about the origin turns the
    /// answer, exactly, for geometry that the pixel grid maps onto itself.
    #[test]
    fn quarter_turns_of_the_scene_turn_the_answer(
        seed in any::<u64>(),
        quarter in 1u32..4,
        aa in any::<bool>(),
        tolerance in tolerances(),
    ) {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let root = stage.root();
        let wrapper = stage.add_container(root).unwrap();
        let a = grid_target(&mut rng, &mut stage, wrapper);
        let b = grid_target(&mut rng, &mut stage, wrapper);
        let o = opts(true, aa, tolerance);
        let before = stage.collision(a, b, root, &o).unwrap();
        stage.set_rotation(wrapper, 90.0 * f64::from(quarter)).unwrap();
        let after = stage.collision(a, b, root, &o).unwrap();
        prop_assert_eq!(after.overlap_pixels, before.overlap_pixels);
        prop_assert_eq!(after.rect, turned(before.rect, quarter));
    }
}

proptest! {
    #![proptest_config(config(96, 0x726F_7450))]

    /// With random rotated polygons a quarter turn is not bit-exact through the fixed-point
    /// rasterizer, so without anti-aliasing both answers are checked against the independent
    /// reference of tests/raster_check.rs: the turned scene's answer must lie within what the
    /// reference allows for the turned pixels.
    #[test]
    fn quarter_turns_of_polygons_stay_within_the_reference(seed in any::<u64>(), tolerance in tolerances()) {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let root = stage.root();
        let wrapper = stage.add_container(root).unwrap();
        let anchor = DVec2::new(rng.range(-2000.0, 2000.0), rng.range(-2000.0, 2000.0));
        let mut refs = Vec::new();
        let mut ids = Vec::new();
        for _ in 0..2 {
            let (poly, rule) = if rng.coin() {
                let n = rng.int(5, 14) as usize;
                (star(&mut rng, n, 2.0, 22.0), FillRule::NonZero)
            } else {
                let n = rng.int(3, 8) as usize;
                (scribble(&mut rng, n, 20.0), FillRule::EvenOdd)
            };
            let t = anchor + DVec2::new(rng.range(-10.0, 10.0), rng.range(-10.0, 10.0));
            let skew = rng.coin();
            let outer = random_matrix(&mut rng, (0.5, 1.5), skew, t);
            let (id, mapped) = add_target(&mut stage, wrapper, &poly, outer, DAffine2::IDENTITY, rule);
            ids.push(id);
            refs.push(RefTarget::new(mapped, Mode::Centre(rule)));
        }
        let expected = Expected::of(&refs[0], &refs[1]);
        let o = opts(true, false, tolerance);
        let before = stage.collision(ids[0], ids[1], root, &o).unwrap();
        if let Err(e) = expected.check(&before) {
            prop_assert!(false, "unturned: {}", e);
        }
        stage.set_rotation(wrapper, 90.0).unwrap();
        let after = stage.collision(ids[0], ids[1], root, &o).unwrap();
        // (x, y) -> (-y, x) takes the centre of pixel (i, j) to the centre of (-j - 1, i).
        let turned_expected = expected.map(|(i, j)| (-j - 1, i));
        if let Err(e) = turned_expected.check(&after) {
            prop_assert!(false, "turned: {}", e);
        }
    }
}

/// Adds, below `target`, things that grow its bounds (and so the window) without drawing a
/// pixel: a hidden subtree with a large opaque square and a fill of alpha 0.
fn add_invisible_reach(stage: &mut Stage, target: NodeId, far: DVec2) {
    let hidden = stage.add_container(target).unwrap();
    let big = Graphic::fill(
        Path::rect(far.x - 500.0, far.y - 500.0, 1000.0, 1000.0),
        FillRule::NonZero,
        1.0,
    );
    stage.add_graphic(hidden, big.unwrap()).unwrap();
    stage.set_visible(hidden, false).unwrap();
    // A positive alpha offset on the target would lift a fill of alpha 0 (section 2 leaves
    // that case to Flash), so the clear fill goes only where there is none.
    if stage.color_transform(target).unwrap().alpha_offset <= 0.0 {
        let clear = Graphic::fill(
            Path::rect(-far.x - 300.0, -far.y - 300.0, 600.0, 600.0),
            FillRule::NonZero,
            0.0,
        );
        stage.add_graphic(target, clear.unwrap()).unwrap();
    }
}

proptest! {
    #![proptest_config(config(64, 0x7769_6E64))]

    /// Section 4.4: the answer does not depend on the window. The same targets answer the
    /// same against a near parent with the identity matrix (and colour transform) and
    /// against the ancestors above it, which share its space; and growing both targets'
    /// bounds (a larger window) with things that draw nothing changes nothing.
    #[test]
    fn the_answer_does_not_depend_on_the_window(
        seed in any::<u64>(),
        aa in any::<bool>(),
        tolerance in tolerances(),
    ) {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let root = stage.root();
        let g = stage.add_container(root).unwrap();
        let near = stage.add_container(g).unwrap();
        let (a, b) = mixed_pair(&mut rng, &mut stage, near);
        let o = opts(true, aa, tolerance);
        let want: Collision = stage.collision(a, b, near, &o).unwrap();
        for parent in [g, root] {
            prop_assert_eq!(stage.collision(a, b, parent, &o).unwrap(), want);
        }
        let far = DVec2::new(rng.range(-200.0, 200.0), rng.range(-200.0, 200.0));
        add_invisible_reach(&mut stage, a, far);
        add_invisible_reach(&mut stage, b, far);
        for parent in [near, g, root] {
            prop_assert_eq!(stage.collision(a, b, parent, &o).unwrap(), want);
        }
    }
}
