//! The outcome of a query (answer or error) does not depend on what the stage's cache
//! holds: random small scenes, each query asked on a fresh stage, again in the same frame,
//! after other queries warmed the cache, and in later frames, with the work budget lowered
//! on the test's thread (and small pixel budgets) so that both budgets bite.

use crate::raster::{LONE_FILL_PAIRS, WORK_BUDGET_FOR_TESTS};
use crate::{Bitmap, CollisionOptions, FillRule, Graphic, NodeId, Path, Rect, Stage};

/// xorshift64*, so that the scenes are the same on every run (the memo's tests use it too).
pub(crate) struct Rng(pub u64);

impl Rng {
    pub(crate) fn next(&mut self) -> u64 {
        self.0 ^= self.0 >> 12;
        self.0 ^= self.0 << 25;
        self.0 ^= self.0 >> 27;
        self.0.wrapping_mul(0x2545_F491_4F6C_DD1D)
    }

    pub(crate) fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }

    /// Uniform in `[lo, hi)`.
    pub(crate) fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }
}

/// A scene: three targets of one to three items each under the root, and a node the
/// test moves to start a new frame.
struct Scene {
    stage: Stage,
    targets: [NodeId; 3],
    frame: NodeId,
}

/// One item under `parent`, in a container of its own placed at random: a fill, a
/// self-crossing stroke stretched hard along one axis, or a small bitmap.
fn add_item(stage: &mut Stage, parent: NodeId, rng: &mut Rng) {
    let n = stage.add_container(parent).unwrap();
    stage.set_x(n, rng.range(-4.0, 12.0)).unwrap();
    stage.set_y(n, rng.range(-4.0, 12.0)).unwrap();
    stage.set_rotation(n, rng.range(-180.0, 180.0)).unwrap();
    let points = |rng: &mut Rng, k: u64, size: f64| -> Vec<(f64, f64)> {
        (0..k)
            .map(|_| (rng.range(0.0, size), rng.range(0.0, size)))
            .collect()
    };
    match rng.below(3) {
        0 => {
            let k = 3 + rng.below(6);
            let rule = [FillRule::NonZero, FillRule::EvenOdd][rng.below(2) as usize];
            let path = Path::polygon(&points(rng, k, 16.0));
            let g = Graphic::fill(path, rule, rng.range(0.2, 1.0)).unwrap();
            stage.add_graphic(n, g).unwrap();
        }
        1 => {
            let k = 3 + rng.below(10);
            let path = match rng.below(3) {
                0 => Path::circle(0.5, 0.5, rng.range(0.2, 2.0)),
                _ => Path::polygon(&points(rng, k, 3.0)),
            };
            let g = Graphic::stroke(path, rng.range(0.3, 4.0), rng.range(0.3, 1.0)).unwrap();
            stage.add_graphic(n, g).unwrap();
            stage.set_scale_x(n, rng.range(1.0, 40.0)).unwrap();
            stage.set_scale_y(n, rng.range(0.5, 4.0)).unwrap();
        }
        _ => {
            let (w, h) = (1 + rng.below(6) as u32, 1 + rng.below(6) as u32);
            let rgba = (0..w * h * 4).map(|_| rng.next() as u8).collect();
            let smoothing = rng.below(2) == 0;
            let b = stage
                .add_bitmap(n, Bitmap::from_rgba8(w, h, rgba).unwrap(), smoothing)
                .unwrap();
            stage.set_scale_x(b, rng.range(0.5, 6.0)).unwrap();
            stage.set_scale_y(b, rng.range(0.5, 6.0)).unwrap();
        }
    }
}

/// A scene of seed `seed`; with `lone`, each target holds one item (the pairs a kernel
/// writes and compares by words: `query::word_overlap`).
fn scene(seed: u64, lone: bool) -> Scene {
    let mut rng = Rng(seed);
    let mut stage = Stage::new();
    let root = stage.root();
    let items = if lone { 1 } else { 3 };
    let targets = [(); 3].map(|_| {
        let t = stage.add_container(root).unwrap();
        for _ in 0..1 + rng.below(items) {
            add_item(&mut stage, t, &mut rng);
        }
        t
    });
    let frame = stage.add_container(root).unwrap();
    Scene {
        stage,
        targets,
        frame,
    }
}

/// The queries asked of a scene: their results' Debug, errors included.
fn ask(scene: &Scene, query: usize, opts: &CollisionOptions) -> String {
    let s = &scene.stage;
    let root = s.root();
    let [a, b, c] = scene.targets;
    match query {
        0 => format!("{:?}", s.collision(a, b, root, opts)),
        1 => format!("{:?}", s.collision(root, root, root, opts)),
        2 => format!("{:?}", s.contacts_among(&[a, b, c], root, opts)),
        3 => format!("{:?}", s.contacts_among(&[a, b, c], root, &opts.details(true))),
        _ => {
            let area = Rect::from_ltrb(-30.0, -30.0, 40.0, 40.0).unwrap();
            format!("{:?}", s.alpha_plane(a, root, area, opts))
        }
    }
}

const QUERIES: usize = 5;

/// Runs `f` with the work budget set to `budget` on this thread.
fn with_work_budget<R>(budget: u64, f: impl FnOnce() -> R) -> R {
    WORK_BUDGET_FOR_TESTS.with(|b| b.set(Some(budget)));
    let r = f();
    WORK_BUDGET_FOR_TESTS.with(|b| b.set(None));
    r
}

/// Every query of a scene gives the same Debug (answer or error) whatever the cache holds:
/// fresh, again, after every other query, in a new frame and once more there.
/// Returns the number of queries that answered and that were refused for work.
fn check_scene(seed: u64, lone: bool) -> Result<(u64, u64), String> {
    let mut rng = Rng(seed ^ 0x9E37_79B9_7F4A_7C15);
    let opts = CollisionOptions::default()
        .parallel(false)
        .max_pixels(64 << rng.below(9))
        .anti_alias(rng.below(4) != 0)
        .fast_paths(rng.below(5) != 0)
        .tolerance(rng.below(256) as u8);
    // Log-uniform from 2^7 to 2^17.
    let budget = 1u64 << (7 + rng.below(10)) | rng.below(128);
    with_work_budget(budget, || {
        let (mut answered, mut refused) = (0, 0);
        for q in 0..QUERIES {
            let mut sc = scene(seed, lone);
            let first = ask(&sc, q, &opts);
            let mut seen = vec![("again", ask(&sc, q, &opts))];
            for other in 0..QUERIES {
                ask(&sc, other, &opts);
            }
            seen.push(("after the others", ask(&sc, q, &opts)));
            sc.stage.set_x(sc.frame, 1.0).unwrap();
            seen.push(("in a new frame", ask(&sc, q, &opts)));
            seen.push(("again in it", ask(&sc, q, &opts)));
            for (when, got) in seen {
                if got != first {
                    return Err(format!(
                        "seed {seed}, query {q}, work budget {budget}, {opts:?}: first {first}, {when} {got}"
                    ));
                }
            }
            if first.contains("WorkBudget") {
                refused += 1;
            } else if first.starts_with("Ok") {
                answered += 1;
            } else if !first.contains("PixelBudget") {
                return Err(format!(
                    "seed {seed}, query {q}: an error of another kind: {first}"
                ));
            }
        }
        Ok((answered, refused))
    })
}

/// Checks `scenes` random scenes (seeds from `first`): none gives a query an outcome that
/// depends on the cache, and the budgets do bite (a good share of the queries is refused
/// for work, a good share answers).
fn check_scenes(first: u64, scenes: u64, lone: bool) {
    let (mut answered, mut refused, mut failures) = (0, 0, Vec::new());
    for seed in first..first + scenes {
        match check_scene(seed, lone) {
            Ok((a, r)) => {
                answered += a;
                refused += r;
            }
            Err(e) => failures.push(e),
        }
    }
    let total = scenes * QUERIES as u64;
    eprintln!(
        "{answered} answered, {refused} refused for work, of {total}; {} scenes differ",
        failures.len()
    );
    assert!(
        failures.is_empty(),
        "{} scenes differ, the first: {}",
        failures.len(),
        failures[0]
    );
    assert!(
        refused > total / 20 && answered > total / 4,
        "{answered} answered, {refused} refused"
    );
}

/// Thousands of random scenes: no outcome depends on the cache.
#[test]
fn outcomes_do_not_depend_on_the_cache() {
    check_scenes(1, 1500, false);
}

/// The same with every target one item: the lone pairs of fills, strokes and bitmaps that
/// are compared by words (`query::word_overlap`). A fill's work does not depend on what
/// the other target is made of in the cache, and a fill over the budget leaves the pair to
/// the general route: no outcome depends on the cache, and both happen often.
#[test]
fn lone_pairs_outcomes_do_not_depend_on_the_cache() {
    LONE_FILL_PAIRS.with(|c| c.set((0, 0)));
    check_scenes(0x10_0000, 600, true);
    let (by_words, left) = LONE_FILL_PAIRS.with(std::cell::Cell::get);
    eprintln!("fill pairs by words {by_words}, left to the general route {left}");
    assert!(by_words > 1000 && left > 100, "{by_words} by words, {left} left");
}
