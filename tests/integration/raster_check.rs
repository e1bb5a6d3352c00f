//! An independent check of the rasterizer behind `collision` (semantics.md, section 4.5-4.8).
//!
//! Random polygons (star-shaped concave ones, and self-intersecting scribbles for the fill
//! rules) go through random matrices with rotation, scale, flips and skew, nested two deep,
//! at positions near the origin and as far as 1e7 away. The test computes which pixels must,
//! may and must not be solid in both with its own geometry (tests/common: crossing-number
//! point-in-polygon, distance to the outline, exact polygon/pixel areas by clipping in f64)
//! and checks the library's overlap count and rectangle against that.

use crate::common::{
    ANCHORS, Case, Expected, Mode, RefTarget, Rng, add_target, random_case, random_matrix, star,
};
use pixelhit::{CollisionOptions, DAffine2, DVec2, FillRule, Stage};

#[derive(Default)]
struct Tally {
    cases: usize,
    with_certain_hits: usize,
    empty: usize,
}

fn run(seed: u64, c: &Case, opts: &CollisionOptions, ma: Mode, mb: Mode, tally: &mut Tally) {
    let expected = Expected::of(
        &RefTarget::new(c.ref_a.clone(), ma),
        &RefTarget::new(c.ref_b.clone(), mb),
    );
    let got = c.stage.collision(c.a, c.b, c.parent, opts).unwrap();
    if let Err(e) = expected.check(&got) {
        panic!(
            "seed {seed}, anti_alias {}, tolerance {}: {e}\n got {got:?}\n certain {} possible {}\n a = {:?}\n b = {:?}",
            opts.anti_alias,
            opts.tolerance,
            expected.certain.len(),
            expected.possible.len(),
            c.ref_a,
            c.ref_b
        );
    }
    tally.cases += 1;
    if !expected.certain.is_empty() {
        tally.with_certain_hits += 1;
    }
    if expected.possible.is_empty() {
        tally.empty += 1;
    }
}

#[test]
fn aliased_pixels_follow_their_centres() {
    let mut tally = Tally::default();
    for seed in 0..1000u64 {
        let c = random_case(seed, false);
        let opts = CollisionOptions::default()
            .anti_alias(false)
            .tolerance([255, 0, 77][seed as usize % 3]);
        run(
            seed,
            &c,
            &opts,
            Mode::Centre(c.rules.0),
            Mode::Centre(c.rules.1),
            &mut tally,
        );
    }
    // The random scenes must exercise the interesting case, not only misses.
    assert!(
        tally.with_certain_hits > tally.cases / 2,
        "{} of {}",
        tally.with_certain_hits,
        tally.cases
    );
    assert!(tally.empty > 0);
}

#[test]
fn anti_aliased_pixels_follow_exact_coverage() {
    let mut tally = Tally::default();
    for seed in 1000..2000u64 {
        let c = random_case(seed, true);
        let tolerance = [255u8, 0, 128][seed as usize % 3];
        let threshold = (255 - tolerance).max(1);
        let opts = CollisionOptions::default().tolerance(tolerance);
        let mode = Mode::Coverage { threshold };
        run(seed, &c, &opts, mode, mode, &mut tally);
    }
    assert!(
        tally.with_certain_hits > tally.cases / 2,
        "{} of {}",
        tally.with_certain_hits,
        tally.cases
    );
    assert!(tally.empty > 0);
}

/// The same polygon drawn against itself: every pixel whose centre is clearly inside is
/// counted, and the answer is exactly the reference set when no centre is ambiguous.
#[test]
fn a_polygon_overlaps_its_twin_exactly_where_it_is() {
    for seed in 3000..3200u64 {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let root = stage.root();
        let poly = star(&mut rng, 9, 2.0, 20.0);
        let t = DVec2::new(rng.pick(&ANCHORS) + rng.range(0.0, 1.0), rng.range(-5.0, 5.0));
        let outer = random_matrix(&mut rng, (0.5, 2.0), true, t);
        let (a, ref_a) = add_target(
            &mut stage,
            root,
            &poly,
            outer,
            DAffine2::IDENTITY,
            FillRule::NonZero,
        );
        let (b, _) = add_target(
            &mut stage,
            root,
            &poly,
            outer,
            DAffine2::IDENTITY,
            FillRule::EvenOdd,
        );
        let target = RefTarget::new(ref_a, Mode::Centre(FillRule::NonZero));
        let expected = Expected::of(&target, &target);
        let got = stage
            .collision(a, b, root, &CollisionOptions::default().anti_alias(false))
            .unwrap();
        expected
            .check(&got)
            .unwrap_or_else(|e| panic!("seed {seed}: {e}"));
        if expected.certain.len() == expected.possible.len() {
            assert_eq!(
                got.overlap_pixels,
                Some(expected.certain.len() as u64),
                "seed {seed}"
            );
        }
    }
}
