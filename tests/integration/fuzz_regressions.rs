//! Every input the fuzzers (`fuzz/`, run with libFuzzer by `fuzz/run.sh`; AFL++ before)
//! ever crashed on, replayed through the same harness code, one named test per crash, plus
//! the seed corpora and the saved crash files of `tests/fuzz_corpus/<target>/`.
//!
//! A file holds a finding only while the harness reads bytes the same way (the tree
//! harnesses turn bytes into calls), so each finding is also written by hand as a plain
//! test, which holds it for good.

#[allow(dead_code)]
#[path = "../../fuzz/src/lib.rs"]
mod harness;

use std::path::Path;

/// Runs a harness on every file of a folder (a missing folder holds nothing).
fn replay_dir(dir: &Path, run: fn(&[u8])) -> usize {
    let Ok(entries) = std::fs::read_dir(dir) else {
        return 0;
    };
    let mut n = 0;
    for entry in entries {
        let path = entry.expect("a readable folder").path();
        if path.is_file() {
            let bytes = std::fs::read(&path).expect("a readable file");
            let outcome = std::panic::catch_unwind(|| run(&bytes));
            assert!(outcome.is_ok(), "{} fails", path.display());
            n += 1;
        }
    }
    n
}

fn replay(target: &str, run: fn(&[u8])) {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let seeds = replay_dir(&root.join("fuzz/corpus").join(target), run);
    assert!(seeds > 0, "the seed corpus of {target} is empty");
    replay_dir(&root.join("tests/fuzz_corpus").join(target), run);
}

#[test]
fn scene_corpus() {
    replay("scene", harness::scene);
}

#[test]
fn path_corpus() {
    replay("path", harness::path);
}

#[test]
fn png_corpus() {
    replay("png", harness::png);
}

#[test]
fn tree_corpus() {
    replay("tree", harness::tree);
}

#[test]
fn picking_corpus() {
    replay("picking", harness::picking);
}

#[cfg(feature = "svg")]
#[test]
fn svg_corpus() {
    replay("svg", harness::svg);
}

/// xorshift64*, so that the inputs below are the same on every run.
fn next(seed: &mut u64) -> u64 {
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

/// A short fuzz run without the fuzzer: random bytes through the tree harness, which
/// builds, breaks and queries trees. (The real runs are `fuzz/run.sh`, see `.ci/run`.)
#[test]
fn tree_harness_on_random_bytes() {
    let mut seed = 0x005E_ED0F_F022_u64;
    for _ in 0..400 {
        let len = (next(&mut seed) % 200) as usize;
        let bytes: Vec<u8> = (0..len).map(|_| next(&mut seed) as u8).collect();
        harness::tree(&bytes);
    }
}

// ----- crashes found by the fuzzers, one test each -----

/// A tree whose hit test flattened a stroke's circle with a tolerance lyon refuses (its
/// debug assertion `tolerance >= EPSILON^2`). The tree harness reads its bytes differently
/// since it learned the interactivity steps (issue 22), so this file is now just another
/// input; the test by hand below holds the bug.
#[test]
fn tree_stroke_flatten_tolerance() {
    harness::tree(include_bytes!("../fuzz_corpus/tree/stroke_flatten_tolerance"));
}

/// The same bug by hand: a tiny circle stroked under a scale of 1e16 is flattened in its
/// local space with the query's tolerance divided by the scale, below lyon's minimum.
#[test]
fn tree_stroke_flatten_tolerance_by_hand() {
    use pixelhit::{CollisionOptions, Graphic, Path, Stage};
    let mut s = Stage::new();
    let root = s.root();
    let ring = s.add_container(root).unwrap();
    let g = Graphic::stroke(Path::circle(0.0, 0.0, 1e-6), 1e-15, 1.0).unwrap();
    s.add_graphic(ring, g).unwrap();
    s.set_scale_x(ring, 1e16).unwrap();
    s.set_scale_y(ring, 1e16).unwrap();
    // The stroke is 10 px wide on a circle of radius 1e10 px through (1e10, 0).
    assert!(s.hit_test_point(ring, 1e10, 0.0, true).unwrap());
    assert!(!s.hit_test_point(ring, 0.0, 0.0, true).unwrap());
    let dot = s.add_container(root).unwrap();
    let g = Graphic::fill(Path::rect(0.0, 0.0, 1.0, 1.0), pixelhit::FillRule::NonZero, 1.0).unwrap();
    s.add_graphic(dot, g).unwrap();
    s.set_x(dot, 1e10).unwrap();
    let opts = CollisionOptions::default().max_pixels(1 << 16);
    let c = s.collision(ring, dot, root, &opts).unwrap();
    assert_eq!(c.overlap_pixels, Some(1));
}

/// The picking fuzzer's finding behind the test below (a timeout at 5 s under the fuzzer),
/// written again for the harness's present reading of bytes: a 29.25 px stroke of the
/// curved shape on the root, then the root collided with itself.
#[test]
fn picking_slow_thick_stroke_self_collision() {
    harness::picking(include_bytes!(
        "../fuzz_corpus/picking/slow_thick_stroke_self_collision"
    ));
}

/// A thick stroke of curves (the picking fuzzer's tree with one graphic, 84 x 44 px, its
/// outline crossing itself many times in every row) collided with itself: the exact
/// coverage splits each row's strips at every crossing and sorts its pieces again for each
/// split. It answers, but took 14 s under the fuzzer's first build: see the fuzzing notes
/// in docs/limits.md. With
/// tolerance 255 every pixel the stroke reaches is solid: at least every pixel whose centre
/// it covers (point tests), at most the pixels of its rectangle, inside its box.
#[test]
fn thick_self_crossing_stroke_collides_with_itself() {
    use pixelhit::{CollisionOptions, Graphic, Path, Stage};
    let mut s = Stage::new();
    let root = s.root();
    let path = Path::from_svg("M0,20 Q20,-20 40,20 T80,20 A10,10 0 1 1 60,40").unwrap();
    s.add_graphic(root, Graphic::stroke(path, 29.25, 1.0).unwrap())
        .unwrap();
    let c = s
        .collision(root, root, root, &CollisionOptions::default().max_pixels(1 << 16))
        .unwrap();
    let r = c.rect.expect("a stroke overlaps itself");
    let n = c.overlap_pixels.expect("a precise answer counts pixels");
    assert!(n as f64 <= r.width() * r.height());
    let b = s.tight_bounds(root, root).unwrap().unwrap();
    assert!(r.left() >= b.left().floor() && r.right() <= b.right().ceil());
    assert!(r.top() >= b.top().floor() && r.bottom() <= b.bottom().ceil());
    let mut centres = 0;
    for y in b.top().floor() as i64..b.bottom().ceil() as i64 {
        for x in b.left().floor() as i64..b.right().ceil() as i64 {
            centres += u64::from(
                s.hit_test_point(root, x as f64 + 0.5, y as f64 + 0.5, true)
                    .unwrap(),
            );
        }
    }
    assert!(
        centres > 1000 && n >= centres,
        "{n} solid pixels, {centres} centres covered"
    );
}

/// The tree fuzzer's finding: the same precise query asked twice in a row was refused the
/// first time (`WorkBudget`, 16,790,056 units of 16,777,216) and answered the second (389
/// pixels): the second found a pose drawn whole in the stage's cache, whose drawing is not
/// counted against the query. A query over its work budget is now asked again with every
/// item that can be drawn whole drawn so, the route of least work (`query::pipeline`,
/// `Stage::run_prepared`).
#[test]
fn tree_same_query_twice() {
    harness::tree(include_bytes!("../fuzz_corpus/tree/same_query_twice"));
}

/// The same by hand: a circle stroked wider than itself, stretched 45 times along x, and a
/// bitmap; the root collided with itself twice, then in a new frame.
#[test]
fn the_same_query_twice_gets_the_same_answer() {
    use pixelhit::{Bitmap, CollisionOptions, Graphic, Path, Stage};
    let mut s = Stage::new();
    let root = s.root();
    let ring = s.add_container(root).unwrap();
    s.add_graphic(
        ring,
        Graphic::stroke(Path::circle(0.5, 0.5, 0.5), 2.0, 0.5).unwrap(),
    )
    .unwrap();
    s.set_scale_x(ring, 45.0).unwrap();
    let rgba = (0u8..24).map(|v| if v % 4 == 3 { v * 10 } else { 9 }).collect();
    s.add_bitmap(root, Bitmap::from_rgba8(3, 2, rgba).unwrap(), false)
        .unwrap();
    let opts = CollisionOptions::default().max_pixels(1 << 16);
    let first = format!("{:?}", s.collision(root, root, root, &opts));
    let second = format!("{:?}", s.collision(root, root, root, &opts));
    assert_eq!(first, second);
    s.set_x(ring, 0.0).unwrap();
    let third = format!("{:?}", s.collision(root, root, root, &opts));
    assert_eq!(first, third);
    // Drawn whole, the stroke's rows cost the query nothing: it answers.
    assert!(first.starts_with("Ok"), "{first}");
}
