//! Hostile input (issue 4): whatever comes in, pixelhit answers or refuses clearly, never
//! crashes, hangs or fills the memory, and never corrupts the tree it was given.
//!
//! Sections follow the issue: huge windows, numbers, files (scene files and images), the
//! API. Fuzzing has its own crate (`fuzz/`) and `tests/fuzz_regressions.rs`.

use std::path::{Path as FsPath, PathBuf};
use std::process::Command;

use pixelhit::{
    Bitmap, CollisionOptions, ColorTransform, DAffine2, DVec2, Error, FillRule, Graphic, ImageLimits, NodeId,
    Path, Rect, Scene, SceneLimits, Stage,
};

// ----- helpers -----

fn square(stage: &mut Stage, parent: NodeId, x: f64, y: f64, side: f64) -> NodeId {
    let id = stage.add_container(parent).unwrap();
    let g = Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(id, g).unwrap();
    stage.set_x(id, x).unwrap();
    stage.set_y(id, y).unwrap();
    id
}

/// The tree's invariants: every node reached once from the root, each child's parent is
/// the node that lists it, the root has no parent, `len` counts exactly the reachable nodes.
fn check_tree(stage: &Stage) {
    let root = stage.root();
    assert_eq!(stage.parent(root).unwrap(), None);
    let mut seen = std::collections::HashSet::new();
    let mut stack = vec![root];
    while let Some(id) = stack.pop() {
        assert!(seen.insert(id), "{id:?} reached twice");
        for &c in stage.children(id).unwrap() {
            assert_eq!(stage.parent(c).unwrap(), Some(id), "child and parent disagree");
            stack.push(c);
        }
    }
    assert_eq!(seen.len(), stage.len());
}

fn load(text: &str) -> pixelhit::Result<Scene> {
    Scene::from_json(text, "hostile.json", FsPath::new("."))
}

fn location(e: &Error) -> &str {
    match e {
        Error::Scene { location, .. } => location,
        other => panic!("not a scene error: {other}"),
    }
}

/// A fresh folder for one test.
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pixelhit-hostile-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn run_file(path: &FsPath) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_pixelhit"))
        .arg("run")
        .arg(path)
        .output()
        .unwrap();
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8_lossy(&out.stdout).into_owned(),
        stderr: String::from_utf8_lossy(&out.stderr).into_owned(),
    }
}

/// Runs the command on a file with these bytes and checks the contract for a bad file:
/// exit status 2, nothing on standard output, one message naming the file. Gives the
/// message.
fn refused_by_cli(dir: &FsPath, name: &str, bytes: &[u8]) -> String {
    let path = dir.join(name);
    std::fs::write(&path, bytes).unwrap();
    let run = run_file(&path);
    assert_eq!(run.code, 2, "{name}: {}", run.stderr);
    assert_eq!(run.stdout, "", "{name}");
    assert!(run.stderr.contains(name), "{name}: {}", run.stderr);
    assert_eq!(run.stderr.trim_end().lines().count(), 1, "{name}: {}", run.stderr);
    run.stderr
}

/// A scene file `depth` objects deep (each at x + 1 in its parent), the deepest a 10 x 10
/// square named "deep", with `bottom` as extra fields of it.
fn deep_scene(depth: usize, bottom: &str) -> String {
    let mut text = String::from("{\"pixelhit_scene\": 1, \"root\": {\"name\": \"root\"");
    for _ in 0..depth {
        text.push_str(", \"children\": [{\"x\": 1");
    }
    text.push_str(", \"name\": \"deep\", \"graphics\": [{\"fill\": \"M0 0 H10 V10 H0 Z\"}]");
    text.push_str(bottom);
    text.push_str(&"}]".repeat(depth));
    text.push_str("}, \"queries\": [{\"bounds\": {\"object\": \"deep\", \"space\": \"root\"}}]}");
    text
}

// ----- 1. huge windows -----

#[test]
fn an_object_scaled_by_a_million_gives_the_exact_answer() {
    // A 10 x 10 square scaled by 1e6 covers 10^14 pixels; the window shrinks to the small
    // target's pixels, so the answer is exact and nothing grows with the big one.
    let mut s = Stage::new();
    let root = s.root();
    let big = square(&mut s, root, 0.0, 0.0, 10.0);
    s.set_scale_x(big, 1e6).unwrap();
    s.set_scale_y(big, 1e6).unwrap();
    let small = square(&mut s, root, 5_000_000.0, 3_000_000.0, 3.0);
    let c = s
        .collision(big, small, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(c.rect, Rect::from_ltrb(5e6, 3e6, 5e6 + 3.0, 3e6 + 3.0));
    assert_eq!(c.overlap_pixels, Some(9));
    // Past the big square's edge, nothing.
    s.set_x(small, 10_000_000.5).unwrap();
    let c = s
        .collision(big, small, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(c.rect, None);
}

#[test]
fn two_huge_targets_are_refused_by_the_pixel_budget() {
    let mut s = Stage::new();
    let root = s.root();
    let a = square(&mut s, root, 0.0, 0.0, 10.0);
    let b = square(&mut s, root, 0.0, 0.0, 10.0);
    for id in [a, b] {
        s.set_scale_x(id, 1e6).unwrap();
        s.set_scale_y(id, 1e6).unwrap();
    }
    let e = s.collision(a, b, root, &CollisionOptions::default()).unwrap_err();
    match e {
        Error::PixelBudget { pixels, budget } => {
            // The window is the squares' pixels, plus the one-pixel margin of each side.
            assert!(pixels >= 100_000_000_000_000, "{pixels}");
            assert_eq!(budget, pixelhit::DEFAULT_MAX_PIXELS);
        }
        other => panic!("{other}"),
    }
    assert!(e.to_string().contains("budget"), "{e}");
    // The budget is the caller's: a smaller one refuses smaller windows.
    let c = CollisionOptions::default().max_pixels(50);
    let (p, q) = (
        square(&mut s, root, 0.0, 0.0, 10.0),
        square(&mut s, root, 0.0, 0.0, 10.0),
    );
    assert!(matches!(
        s.collision(p, q, root, &c),
        Err(Error::PixelBudget { .. })
    ));
    assert_eq!(
        s.collision(p, q, root, &c.max_pixels(1000))
            .unwrap()
            .overlap_pixels,
        Some(100)
    );
}

/// A target of many large shapes queried against a dot: every shape is drawn whole (so that
/// its pixels never depend on the window), so without a limit 2,000 discs of radius 1,900
/// would hold 29 GB of rasters for a 10 x 10 window. The budget counts those pixels too and
/// refuses the query once they pass it, before drawing the next shape.
#[test]
fn many_large_shapes_against_a_small_target_are_answered_in_the_window() {
    // Each item's pixels are computed only in the query's window (semantics 4.5), so 2,000
    // discs 3,800 px wide against a 10 px dot cost the dot's window, not 2,000 rasters of
    // 14 million pixels (which the whole-item rasterizer before had to refuse).
    let mut s = Stage::new();
    let root = s.root();
    let big = s.add_container(root).unwrap();
    for i in 0..2000 {
        let disc = Path::circle(f64::from(i % 7), 0.0, 1900.0);
        s.add_graphic(big, Graphic::fill(disc, FillRule::NonZero, 1.0).unwrap())
            .unwrap();
    }
    let dot = square(&mut s, root, -5.0, -5.0, 10.0);
    let c = s.collision(big, dot, root, &CollisionOptions::default()).unwrap();
    assert_eq!(c.overlap_pixels, Some(100));
    assert_eq!(c.rect, Rect::from_ltrb(-5.0, -5.0, 5.0, 5.0));
    // With a few shapes the same query is answered.
    let few = s.add_container(root).unwrap();
    for i in 0..3 {
        let disc = Path::circle(f64::from(i), 0.0, 1900.0);
        s.add_graphic(few, Graphic::fill(disc, FillRule::NonZero, 1.0).unwrap())
            .unwrap();
    }
    let c = s.collision(few, dot, root, &CollisionOptions::default()).unwrap();
    assert_eq!(c.overlap_pixels, Some(100));
}

/// Two thin strokes crossing far from the origin, inside a parent scaled so that the
/// window is 20,000 x 20,000 pixels (4e8, over the default budget): refused by default,
/// exact with a larger budget. Run alone under `/usr/bin/time -v` to see that memory
/// stays flat (docs/limits.md's figure).
#[test]
fn far_apart_targets_in_a_huge_parent() {
    let mut s = Stage::new();
    let root = s.root();
    let world = s.add_container(root).unwrap();
    s.set_scale_x(world, 1000.0).unwrap();
    s.set_scale_y(world, 1000.0).unwrap();
    s.set_x(world, 1e7).unwrap();
    let line = |s: &mut Stage, d: &str| {
        let id = s.add_container(world).unwrap();
        let g = Graphic::stroke(Path::from_svg(d).unwrap(), 0.002, 1.0).unwrap();
        s.add_graphic(id, g).unwrap();
        id
    };
    let a = line(&mut s, "M0 0 L20 20");
    let b = line(&mut s, "M20 0 L0 20");
    let e = s.collision(a, b, root, &CollisionOptions::default()).unwrap_err();
    assert!(matches!(e, Error::PixelBudget { .. }), "{e}");
    let opts = CollisionOptions::default().max_pixels(1 << 30);
    let c = s.collision(a, b, root, &opts).unwrap();
    // The strokes are 2 px wide and cross at (1e7 + 10,000, 10,000).
    let r = c.rect.expect("the strokes cross");
    assert!(r.left() >= 1e7 + 9_996.0 && r.right() <= 1e7 + 10_004.0, "{r:?}");
    assert!(r.top() >= 9_996.0 && r.bottom() <= 10_004.0, "{r:?}");
    let n = c.overlap_pixels.unwrap();
    assert!((4..=20).contains(&n), "{n}");
    // Moving both by whole pixels moves the answer by exactly as much.
    s.set_y(world, -3.0).unwrap();
    let moved = s.collision(a, b, root, &opts).unwrap();
    assert_eq!(moved.overlap_pixels, c.overlap_pixels);
    assert_eq!(
        moved.rect,
        Rect::from_ltrb(r.left(), r.top() - 3.0, r.right(), r.bottom() - 3.0)
    );
}

// ----- 2. numbers -----

#[test]
fn non_finite_values_are_refused_naming_the_node() {
    let mut s = Stage::new();
    let root = s.root();
    let ship = s.add_container(root).unwrap();
    s.set_name(ship, "ship").unwrap();
    let nan = f64::NAN;
    let errors = [
        s.set_x(ship, nan).unwrap_err(),
        s.set_y(ship, f64::INFINITY).unwrap_err(),
        s.set_rotation(ship, nan).unwrap_err(),
        s.set_scale_x(ship, f64::NEG_INFINITY).unwrap_err(),
        s.set_matrix(ship, DAffine2::from_cols_array(&[1.0, 0.0, 0.0, nan, 0.0, 0.0]))
            .unwrap_err(),
        s.set_color_transform(ship, ColorTransform::new([1.0, nan, 1.0, 1.0], [0.0; 4]))
            .unwrap_err(),
        s.set_alpha(ship, nan).unwrap_err(),
    ];
    for e in &errors {
        assert!(e.to_string().contains("\"ship\""), "{e}");
    }
    // Nothing changed.
    assert_eq!(s.matrix(ship).unwrap(), DAffine2::IDENTITY);
    assert_eq!(s.color_transform(ship).unwrap(), ColorTransform::IDENTITY);
    // Where they enter: graphics and points.
    let p = Path::rect(0.0, 0.0, 1.0, 1.0);
    assert!(Graphic::fill(p.clone(), FillRule::NonZero, nan).is_err());
    assert!(Graphic::stroke(p.clone(), f64::INFINITY, 1.0).is_err());
    assert!(Graphic::stroke(p.clone(), 1.0, 1.5).is_err());
    assert!(Graphic::fill(Path::rect(0.0, 0.0, f64::INFINITY, 1.0), FillRule::NonZero, 1.0).is_err());
    s.add_graphic(ship, Graphic::fill(p, FillRule::NonZero, 1.0).unwrap())
        .unwrap();
    let e = s.hit_test_point(ship, nan, 0.0, true).unwrap_err();
    assert!(e.to_string().contains("\"ship\""), "{e}");
    assert!(s.global_to_local(ship, DVec2::new(nan, 0.0)).is_err());
}

#[test]
fn overflow_down_a_deep_tree_is_an_error_naming_the_node() {
    // Every matrix is finite; their product is not.
    let mut s = Stage::new();
    let root = s.root();
    let mut cur = root;
    for i in 0..4 {
        cur = s.add_container(cur).unwrap();
        s.set_name(cur, format!("level{i}")).unwrap();
        s.set_scale_x(cur, 1e100).unwrap();
        s.set_x(cur, 1e308).unwrap();
    }
    let leaf = square(&mut s, cur, 0.0, 0.0, 1.0);
    s.set_name(leaf, "leaf").unwrap();
    let other = square(&mut s, root, 0.0, 0.0, 1.0);
    let errors = [
        s.bounds(leaf, root).unwrap_err(),
        s.tight_bounds(leaf, root).unwrap_err(),
        s.collision(leaf, other, root, &CollisionOptions::default())
            .unwrap_err(),
        s.collision(leaf, other, root, &CollisionOptions::default().precise(false))
            .unwrap_err(),
        s.hit_test_point(leaf, 0.0, 0.0, true).unwrap_err(),
        s.hit_test_object(leaf, other).unwrap_err(),
        s.matrix_to(leaf, root).unwrap_err(),
        s.local_to_global(leaf, DVec2::ZERO).unwrap_err(),
    ];
    for e in &errors {
        assert!(matches!(e, Error::NonFinite { .. }), "{e}");
        assert!(
            e.to_string().contains("\"leaf\"") || e.to_string().contains("\"level"),
            "{e}"
        );
    }
    // The subtree's own space is fine: only the product overflows.
    assert!(s.bounds(leaf, cur).unwrap().is_some());
    // The same from a scene file: the query prints an error line naming the node.
    let scene = load(
        r#"{"pixelhit_scene": 1, "root": {"name": "r", "children": [
            {"name": "a", "x": 1e308, "children": [{"name": "b", "x": 1e308,
              "graphics": [{"fill": "M0 0 H1 V1 Z"}]}]}]},
            "queries": [{"bounds": {"object": "b", "space": "r"}},
                        {"bounds": {"object": "b", "space": "a"}}]}"#,
    )
    .unwrap();
    let q = scene.queries();
    let e = scene.run_query(&q[0]).unwrap_err();
    assert!(
        Scene::error_line(&e).contains("\\\"b\\\""),
        "{}",
        Scene::error_line(&e)
    );
    assert_eq!(scene.run_query(&q[1]).unwrap(), r#"{"bounds": [1e308, 0, 0, 1]}"#);
}

#[test]
fn singular_matrices_give_empty_answers() {
    let mut s = Stage::new();
    let root = s.root();
    let flat = square(&mut s, root, 0.0, 0.0, 10.0);
    let other = square(&mut s, root, 0.0, 0.0, 10.0);
    s.set_scale_y(flat, 0.0).unwrap();
    let opts = CollisionOptions::default();
    assert_eq!(
        s.collision(flat, other, root, &opts).unwrap(),
        pixelhit::Collision {
            rect: None,
            overlap_pixels: Some(0)
        }
    );
    assert!(!s.hit_test_point(flat, 5.0, 0.0, true).unwrap());
    // The box is degenerate (Flash keeps it), never NaN.
    let b = s.bounds(flat, root).unwrap().unwrap();
    assert_eq!((b.width(), b.height()), (10.0, 0.0));
    // A fully singular matrix too, and a bitmap under it.
    s.set_matrix(flat, DAffine2::from_cols_array(&[0.0; 6])).unwrap();
    let bm = s
        .add_bitmap(flat, Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap(), true)
        .unwrap();
    assert_eq!(s.collision(bm, other, root, &opts).unwrap().rect, None);
    assert_eq!(
        s.collision(flat, other, root, &opts).unwrap().overlap_pixels,
        Some(0)
    );
    // Going into a singular space is the error it should be.
    assert!(matches!(s.bounds(other, flat), Err(Error::Singular { .. })));
    assert!(matches!(
        s.global_to_local(flat, DVec2::ZERO),
        Err(Error::Singular { .. })
    ));
}

#[test]
fn coordinates_of_ten_million_keep_exact_answers() {
    // semantics.md: a scene moved by whole pixels gives the same answer moved as much,
    // however far from the origin (tests/raster_check.rs checks pixel values there).
    let answer = |offset: f64| {
        let mut s = Stage::new();
        let root = s.root();
        let a = s.add_container(root).unwrap();
        let g = Graphic::fill(Path::circle(0.0, 0.0, 7.3), FillRule::NonZero, 1.0).unwrap();
        s.add_graphic(a, g).unwrap();
        s.set_x(a, offset + 0.37).unwrap();
        s.set_y(a, -offset + 0.81).unwrap();
        s.set_rotation(a, 17.0).unwrap();
        let b = square(&mut s, root, offset + 2.25, -offset - 3.5, 9.0);
        s.set_rotation(b, 45.0).unwrap();
        let c = s.collision(a, b, root, &CollisionOptions::default()).unwrap();
        let r = c.rect.unwrap();
        (
            [r.left() - offset, r.top() + offset, r.width(), r.height()],
            c.overlap_pixels,
        )
    };
    let near = answer(0.0);
    assert_eq!(answer(1e7), near);
    assert_eq!(answer(-9_999_999.0), near);
}

#[test]
fn values_out_of_range_are_refused_where_they_enter() {
    let mut s = Stage::new();
    let a = s.add_container(s.root()).unwrap();
    for bad in [-0.01, 1.01, f64::NAN] {
        assert!(matches!(s.set_alpha(a, bad), Err(Error::OutOfRange { .. })));
        assert!(Graphic::fill(Path::rect(0.0, 0.0, 1.0, 1.0), FillRule::NonZero, bad).is_err());
    }
    assert!(Graphic::stroke(Path::rect(0.0, 0.0, 1.0, 1.0), -1.0, 1.0).is_err());
    let scene = |field: &str| {
        format!(r#"{{"pixelhit_scene": 1, "root": {{"children": [{{"name": "a", {field}}}]}}}}"#)
    };
    let q = |field: &str| {
        format!(
            r#"{{"pixelhit_scene": 1, "root": {{"name": "a"}}, "queries": [{{"collision_rect": {{"a": "a", "b": "a", "parent": "a", {field}}}}}]}}"#
        )
    };
    for (text, at) in [
        (scene(r#""alpha": 1.5"#), "root.children[0].alpha"),
        (scene(r#""alpha": -0"#), ""),
        (
            scene(r#""graphics": [{"fill": "M0 0 H1 V1", "alpha": 2}]"#),
            "root.children[0].graphics[0].alpha",
        ),
        (
            scene(r#""graphics": [{"stroke": "M0 0 H1", "width": -2}]"#),
            "root.children[0].graphics[0].width",
        ),
        (q(r#""tolerance": 256"#), "queries[0].collision_rect.tolerance"),
        (q(r#""tolerance": 2.5"#), "queries[0].collision_rect.tolerance"),
        (q(r#""tolerance": -1"#), "queries[0].collision_rect.tolerance"),
    ] {
        match load(&text) {
            Ok(_) => assert_eq!(at, "", "{text}"),
            Err(e) => assert_eq!(location(&e), at, "{text}: {e}"),
        }
    }
}

// ----- 3. scene files -----

#[test]
fn a_scene_nested_100_000_levels_loads_answers_and_saves() {
    let depth = 100_000;
    let scene = load(&deep_scene(depth, "")).unwrap();
    assert_eq!(scene.stage.len(), depth + 1);
    assert_eq!(
        scene.run_query(&scene.queries()[0]).unwrap(),
        r#"{"bounds": [100000, 0, 10, 10]}"#
    );
    check_tree(&scene.stage);
    // Saving needs no recursion either, and gives a file that loads back.
    let text = scene.to_json("deep.json").unwrap();
    let back = load(&text).unwrap();
    assert_eq!(back.stage.len(), depth + 1);
    assert_eq!(
        back.run_query(&back.queries()[0]).unwrap(),
        r#"{"bounds": [100000, 0, 10, 10]}"#
    );
}

#[test]
fn the_command_runs_a_scene_nested_100_000_levels_on_its_main_thread() {
    let dir = temp_dir("deep-cli");
    let path = dir.join("deep.json");
    std::fs::write(&path, deep_scene(100_000, "")).unwrap();
    let run = run_file(&path);
    assert_eq!(run.code, 0, "{}", run.stderr);
    assert_eq!(run.stdout, "{\"bounds\": [100000, 0, 10, 10]}\n");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn errors_at_the_bottom_of_a_deep_file_are_located_quickly() {
    // A bad field 100,000 levels down: its path is spelled out in full.
    let e = load(&deep_scene(100_000, ", \"visible\": 1")).unwrap_err();
    let at = location(&e);
    assert!(at.starts_with("root.children[0].children[0]."), "{}", &at[..60]);
    assert!(at.ends_with(".children[0].visible"), "{}", &at[at.len() - 60..]);
    assert_eq!(at.matches(".children[0]").count(), 100_000);
    // A syntax error there: line and column. (serde_json closes every level after an
    // error; reading from a slice this took minutes, see `parse_json`.)
    let e = load(&deep_scene(100_000, ", \"visible\": tru")).unwrap_err();
    assert!(location(&e).starts_with("line 1, column "), "{e}");
    // Deeper than the limit: refused at the first level past it.
    let e = load(&"[".repeat(300_000)).unwrap_err();
    assert_eq!(location(&e), "line 1, column 262146", "{e}");
    assert!(e.to_string().contains("nest deeper than 262144 levels"), "{e}");
    let e = load(&"{\"a\":".repeat(300_000)).unwrap_err();
    assert!(e.to_string().contains("nest deeper"), "{e}");
}

#[test]
fn saving_refuses_only_trees_deeper_than_a_file_may_nest() {
    let mut s = Stage::new();
    let mut cur = s.root();
    for _ in 0..131_070 {
        cur = s.add_container(cur).unwrap();
    }
    s.add_graphic(
        cur,
        Graphic::fill(Path::rect(0.0, 0.0, 1.0, 1.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let scene = Scene::from_stage(s, vec![]);
    let text = scene.to_json("deepest.json").unwrap();
    assert_eq!(load(&text).unwrap().stage.len(), 131_071);
    let mut s = scene.stage;
    s.add_container(cur).unwrap();
    let e = Scene::from_stage(s, vec![]).to_json("deeper.json").unwrap_err();
    assert!(e.to_string().contains("131070 levels"), "{e}");
}

/// 200,000 objects and 200,000 queries (1,000,000 measured by hand for docs/limits.md):
/// loading and answering take time in proportion to the file.
#[test]
fn many_objects_and_queries() {
    let n = 200_000;
    let mut text = String::from("{\"pixelhit_scene\": 1, \"root\": {\"name\": \"root\", \"children\": [");
    for i in 0..n {
        if i > 0 {
            text.push_str(",\n");
        }
        text.push_str(&format!(
            "{{\"name\": \"o{i}\", \"x\": {}, \"y\": {}, \"graphics\": [{{\"fill\": \"M0 0 H10 V10 H0 Z\"}}]}}",
            i % 1000 * 20,
            i / 1000 * 20
        ));
    }
    text.push_str("]}, \"queries\": [");
    for i in 0..n {
        if i > 0 {
            text.push_str(",\n");
        }
        text.push_str(&format!(
            "{{\"hit_test_point\": {{\"object\": \"o{i}\", \"x\": {}, \"y\": 5, \"shape_flag\": true}}}}",
            i % 1000 * 20 + 5
        ));
    }
    text.push_str("]}");
    let scene = load(&text).unwrap();
    assert_eq!(scene.stage.len(), n + 1);
    assert_eq!(scene.queries().len(), n);
    let hits = scene
        .queries()
        .iter()
        .filter(|q| scene.run_query(q).unwrap() == "{\"hit_test_point\": true}")
        .count();
    // Only the first row of objects (y = 0) is under y = 5.
    assert_eq!(hits, 1000);
    assert_eq!(scene.stage.children(scene.stage.root()).unwrap().len(), n);
}

#[test]
fn huge_numbers_load_and_overflowing_ones_are_refused() {
    let scene = load(
        r#"{"pixelhit_scene": 1, "root": {"name": "r", "children": [
            {"name": "a", "x": 1e308, "y": -1.7976931348623157e308, "scale_x": 1e-308,
             "graphics": [{"fill": "M0 0 H1e308 V1e308 Z"}]}]},
           "queries": [{"bounds": {"object": "a", "space": "a"}}]}"#,
    )
    .unwrap();
    let a = scene.node("a").unwrap();
    assert_eq!(scene.stage.x(a).unwrap(), 1e308);
    assert_eq!(scene.stage.y(a).unwrap(), -f64::MAX);
    assert_eq!(
        scene.run_query(&scene.queries()[0]).unwrap(),
        r#"{"bounds": [0, 0, 1e308, 1e308]}"#
    );
    for (text, at) in [
        (
            r#"{"pixelhit_scene": 1, "root": {"x": 1e309}}"#,
            "line 1, column ",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"x": -1e400}}"#,
            "line 1, column ",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"graphics": [{"fill": "M0 0 H1e309 V1 Z"}]}}"#,
            "root.graphics[0].fill",
        ),
    ] {
        let e = load(text).unwrap_err();
        assert!(location(&e).starts_with(at), "{text}: {e}");
    }
}

#[test]
fn bad_files_exit_2_with_one_message() {
    let dir = temp_dir("bad-files");
    let good = br#"{"pixelhit_scene": 1, "root": {"name": "r", "children": [{"name": "a", "x": 3, "graphics": [{"fill": "M0 0 H4 V4 H0 Z"}]}]}, "queries": [{"bounds": {"object": "a", "space": "r"}}]}"#;
    // Every truncation of a good file, through the library: an error, never a panic.
    for cut in 0..good.len() {
        let text = std::str::from_utf8(&good[..cut]).unwrap();
        let e = load(text).unwrap_err();
        assert!(location(&e).starts_with("line 1, column "), "{text}: {e}");
    }
    // A few through the command.
    for cut in [0, 1, 20, good.len() / 2, good.len() - 1] {
        refused_by_cli(&dir, &format!("cut{cut}.json"), &good[..cut]);
    }
    let msg = refused_by_cli(
        &dir,
        "dup.json",
        br#"{"pixelhit_scene": 1, "pixelhit_scene": 1, "root": {}}"#,
    );
    assert!(msg.contains("duplicate key"), "{msg}");
    // Invalid UTF-8 inside a string, and outside one.
    let mut bad = br#"{"pixelhit_scene": 1, "root": {"name": "#.to_vec();
    bad.extend_from_slice(b"\"\xff\xfe\"}}");
    let msg = refused_by_cli(&dir, "utf8.json", &bad);
    assert!(msg.contains("line 1, column"), "{msg}");
    let msg = refused_by_cli(&dir, "utf8b.json", b"\xc3\x28{}");
    assert!(msg.contains("line 1, column"), "{msg}");
    // The limits of SceneLimits: a file larger than allowed is not even parsed.
    let path = dir.join("big.json");
    std::fs::write(&path, good).unwrap();
    let limits = SceneLimits::default().max_file_bytes(100);
    let e = Scene::load_with_limits(&path, &limits).unwrap_err();
    assert!(e.to_string().contains("more than 100 bytes, the limit"), "{e}");
    assert!(Scene::load_with_limits(&path, &limits.max_file_bytes(1000)).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn path_data_with_a_million_commands() {
    // A zigzag of a million line commands, closed into a comb 1 px tall.
    let mut d = String::with_capacity(12_000_000);
    d.push_str("M0 0");
    for i in 0..1_000_000u32 {
        d.push_str(if i.is_multiple_of(2) { " l1 1" } else { " l1 -1" });
    }
    d.push_str(" V-5 H0 Z");
    let path = Path::from_svg(&d).unwrap();
    let mut s = Stage::new();
    let root = s.root();
    let comb = s.add_container(root).unwrap();
    s.add_graphic(comb, Graphic::fill(path, FillRule::NonZero, 1.0).unwrap())
        .unwrap();
    assert_eq!(
        s.bounds(comb, root).unwrap(),
        Rect::from_ltrb(0.0, -5.0, 1e6, 1.0)
    );
    let probe = square(&mut s, root, 500_000.0, -2.0, 2.0);
    let c = s
        .collision(comb, probe, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(c.rect, Rect::from_ltrb(5e5, -2.0, 5e5 + 2.0, 0.0));
    assert_eq!(c.overlap_pixels, Some(4));
    assert!(s.hit_test_point(comb, 999_999.5, -0.1, true).unwrap());
    // The same with a mistake at the very end: the byte offset of the mistake.
    let e = Path::from_svg(&format!("{d} L5")).unwrap_err();
    match e {
        // At the end of the text, where the missing number should be.
        Error::PathData { offset, .. } => assert_eq!(offset, d.len() + 3),
        other => panic!("{other}"),
    }
}

// ----- 3. images -----

/// CRC-32 of PNG chunks (ISO 3309), to forge headers.
fn crc32(bytes: &[u8]) -> u32 {
    let mut crc = !0u32;
    for &b in bytes {
        crc ^= u32::from(b);
        for _ in 0..8 {
            crc = if crc & 1 == 1 {
                (crc >> 1) ^ 0xEDB8_8320
            } else {
                crc >> 1
            };
        }
    }
    !crc
}

/// A valid PNG whose header is rewritten to claim `width` x `height`.
fn png_claiming(width: u32, height: u32) -> Vec<u8> {
    let mut png = Bitmap::from_rgba8(1, 1, vec![1, 2, 3, 255])
        .unwrap()
        .to_png_bytes()
        .unwrap();
    // Signature (8), length (4), "IHDR" (4), then width and height; the CRC covers the
    // type and data (17 bytes) and follows them.
    png[16..20].copy_from_slice(&width.to_be_bytes());
    png[20..24].copy_from_slice(&height.to_be_bytes());
    let crc = crc32(&png[12..29]);
    png[29..33].copy_from_slice(&crc.to_be_bytes());
    png
}

fn gray_png(width: u32, height: u32) -> Vec<u8> {
    use image::ImageEncoder as _;
    let mut out = Vec::new();
    image::codecs::png::PngEncoder::new(&mut out)
        .write_image(
            &vec![0u8; width as usize * height as usize],
            width,
            height,
            image::ExtendedColorType::L8,
        )
        .unwrap();
    out
}

#[test]
fn a_png_claiming_100000_by_100000_pixels_is_refused() {
    let png = png_claiming(100_000, 100_000);
    let e = Bitmap::from_png_bytes(&png).unwrap_err();
    assert!(e.to_string().contains("100000x100000 exceeds the limits"), "{e}");
    // Through a scene file and the command.
    let dir = temp_dir("png-claim");
    std::fs::write(dir.join("huge.png"), &png).unwrap();
    let msg = refused_by_cli(
        &dir,
        "claim.json",
        br#"{"pixelhit_scene": 1, "root": {"children": [{"bitmap": {"png": "huge.png"}}]}}"#,
    );
    assert!(msg.contains("root.children[0].bitmap.png"), "{msg}");
    assert!(msg.contains("exceeds the limits"), "{msg}");
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn truncated_and_corrupt_pngs_are_refused() {
    let rgba: Vec<u8> = (0..16 * 16 * 4).map(|v| (v * 7) as u8).collect();
    let png = Bitmap::from_rgba8(16, 16, rgba).unwrap().to_png_bytes().unwrap();
    let whole = Bitmap::from_png_bytes(&png).unwrap();
    for cut in 0..png.len() {
        match Bitmap::from_png_bytes(&png[..cut]) {
            Err(e) => assert!(matches!(e, Error::Image { .. }), "{e}"),
            // Only the 12-byte end chunk may be missing: the pixels are all there.
            Ok(b) => {
                assert!(png.len() - cut <= 12, "cut at {cut} of {}", png.len());
                assert_eq!(b, whole);
            }
        }
    }
    // Every single flipped byte: refused (CRCs) or decoded at the size it claims.
    for i in 0..png.len() {
        let mut bad = png.clone();
        bad[i] ^= 0x5A;
        match Bitmap::from_png_bytes(&bad) {
            Ok(b) => assert_eq!(b.rgba().len(), 4 * b.width() as usize * b.height() as usize),
            Err(e) => assert!(matches!(e, Error::Image { .. }), "{e}"),
        }
    }
    assert!(Bitmap::from_png_bytes(&[]).is_err());
    assert!(Bitmap::from_png_bytes(&png_claiming(0, 5)).is_err());
}

#[test]
fn decompression_bombs_are_refused_by_the_memory_limits() {
    // 64 MiB of grey zeros compress to a file of some 350 KB, and would decode to 256 MiB
    // of RGBA and more: over the default limit of 256 MiB.
    let bomb = gray_png(8192, 8200);
    assert!(bomb.len() < 400_000, "{}", bomb.len());
    let e = Bitmap::from_png_bytes(&bomb).unwrap_err();
    assert!(e.to_string().contains("exceeds the limits"), "{e}");
    // The limits are the caller's: a smaller bomb under small limits, then allowed.
    let small = gray_png(2048, 2048);
    let tight = ImageLimits {
        max_bytes: 8 << 20,
        ..ImageLimits::default()
    };
    assert!(Bitmap::decode_png(&small, "small.png", &tight).is_err());
    let loose = ImageLimits {
        max_bytes: 16 << 20,
        ..ImageLimits::default()
    };
    assert_eq!(
        Bitmap::decode_png(&small, "small.png", &loose).unwrap().width(),
        2048
    );
    // In a scene: each image within its limits, but not all of them together.
    let dir = temp_dir("bombs");
    for name in ["a.png", "b.png", "c.png"] {
        std::fs::write(dir.join(name), &small).unwrap();
    }
    let text = r#"{"pixelhit_scene": 1, "root": {"children": [
        {"bitmap": {"png": "a.png"}}, {"bitmap": {"png": "b.png"}}, {"bitmap": {"png": "a.png"}},
        {"bitmap": {"png": "c.png"}}]}}"#;
    let limits = SceneLimits::default().max_image_bytes(40 << 20);
    let e = Scene::from_bytes(text.as_bytes(), "s.json", &dir, &limits).unwrap_err();
    // a.png is shared, so the third distinct file is the one over 40 MiB.
    assert_eq!(location(&e), "root.children[3].bitmap.png", "{e}");
    assert!(Scene::from_bytes(text.as_bytes(), "s.json", &dir, &limits.max_image_bytes(48 << 20)).is_ok());
    let _ = std::fs::remove_dir_all(&dir);
}

// ----- 4. the API -----

#[test]
fn bad_calls_are_errors_and_leave_the_tree_valid() {
    let mut s = Stage::new();
    let root = s.root();
    let a = s.add_container(root).unwrap();
    let b = s.add_container(a).unwrap();
    let c = s.add_container(b).unwrap();
    let sprite = s
        .add_bitmap(root, Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap(), false)
        .unwrap();
    let gone = s.add_container(root).unwrap();
    s.remove(gone).unwrap();
    let len = s.len();
    let children_of = |s: &Stage, id| s.children(id).unwrap().to_vec();
    let before: Vec<Vec<NodeId>> = [root, a, b, c].iter().map(|&id| children_of(&s, id)).collect();
    let errors = [
        // Moving a node under itself or under its own descendant.
        s.set_parent(a, a).unwrap_err(),
        s.set_parent(a, c).unwrap_err(),
        s.set_parent(b, c).unwrap_err(),
        // The root.
        s.remove(root).unwrap_err(),
        s.set_parent(root, a).unwrap_err(),
        // Under a bitmap.
        s.set_parent(c, sprite).unwrap_err(),
        s.add_container(sprite).map(|_| ()).unwrap_err(),
        // Stale ids, as the node and as the parent.
        s.set_parent(gone, root).unwrap_err(),
        s.set_parent(c, gone).unwrap_err(),
        s.remove(gone).unwrap_err(),
        s.add_container(gone).map(|_| ()).unwrap_err(),
        s.set_x(gone, 1.0).unwrap_err(),
        s.bounds(gone, root).map(|_| ()).unwrap_err(),
        s.collision(a, gone, root, &CollisionOptions::default())
            .map(|_| ())
            .unwrap_err(),
        // A parent that is not above the targets.
        s.collision(a, c, c, &CollisionOptions::default())
            .map(|_| ())
            .unwrap_err(),
    ];
    assert!(matches!(errors[0], Error::Cycle { .. }));
    assert!(matches!(errors[1], Error::Cycle { .. }));
    assert_eq!(errors[3], Error::Root);
    assert!(matches!(errors[5], Error::NotContainer { .. }));
    assert!(matches!(errors[7], Error::StaleNode { .. }));
    assert!(matches!(errors[14], Error::NotDescendant { .. }));
    assert_eq!(s.len(), len);
    let after: Vec<Vec<NodeId>> = [root, a, b, c].iter().map(|&id| children_of(&s, id)).collect();
    assert_eq!(before, after);
    check_tree(&s);
    // A stale id stays stale after its slot is reused.
    let reused = s.add_container(root).unwrap();
    assert_eq!(reused.index(), gone.index());
    assert!(s.set_x(gone, 1.0).is_err());
    assert_eq!(s.x(reused).unwrap(), 0.0);
    // Valid moves still work afterwards, and keep the tree valid.
    s.set_parent(c, root).unwrap();
    s.set_parent(a, c).unwrap();
    check_tree(&s);
    assert_eq!(s.parent(a).unwrap(), Some(c));
    s.remove(c).unwrap();
    assert!(!s.contains(a) && !s.contains(b));
    check_tree(&s);
}

#[test]
fn random_bad_calls_never_break_the_tree() {
    let mut seed = 0x1234_5678_9ABC_DEF1u64;
    let mut next = move || {
        seed ^= seed >> 12;
        seed ^= seed << 25;
        seed ^= seed >> 27;
        seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
    };
    let mut s = Stage::new();
    let mut ids = vec![s.root()];
    for _ in 0..5000 {
        let pick = |r: u64, ids: &[NodeId]| ids[(r % ids.len() as u64) as usize];
        let (x, y) = (pick(next(), &ids), pick(next(), &ids));
        let len = s.len();
        let res = match next() % 4 {
            0 => s.add_container(x).map(|n| ids.push(n)),
            1 => s.set_parent(x, y),
            2 => s.remove(x),
            _ => s.set_rotation(x, 90.0),
        };
        if res.is_err() {
            assert_eq!(s.len(), len);
        }
        check_tree(&s);
        if next().is_multiple_of(8) {
            // Old ids are kept on purpose: they are stale now and then.
            ids.retain(|&n| s.contains(n) || next().is_multiple_of(2));
        }
    }
}

#[test]
fn a_stroke_too_complex_to_outline_is_refused_not_built() {
    // 10,000 dots, each a disc of radius 5e5 px: an outline of 160 million vertices.
    let data: String = (0..10_000)
        .map(|i| format!("M{} 0 L{} 0 ", i % 100, i % 100))
        .collect();
    let mut stage = Stage::new();
    let root = stage.root();
    let dots = stage.add_container(root).unwrap();
    stage
        .add_graphic(
            dots,
            Graphic::stroke(Path::from_svg(&data).unwrap(), 1e6, 1.0).unwrap(),
        )
        .unwrap();
    let probe = stage.add_container(root).unwrap();
    stage
        .add_graphic(
            probe,
            Graphic::fill(Path::rect(0.0, 0.0, 2.0, 2.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
    let e = stage
        .collision(dots, probe, root, &CollisionOptions::default())
        .unwrap_err();
    assert!(matches!(e, Error::GeometryBudget { .. }), "{e}");
    let e = stage.hit_test_point(dots, 1.0, 1.0, true).unwrap_err();
    assert!(matches!(e, Error::GeometryBudget { .. }), "{e}");
    // The tree is still usable, and a reasonable stroke still answers.
    stage
        .set_graphics(
            dots,
            vec![Graphic::stroke(Path::from_svg("M0,1 L2,1").unwrap(), 2.0, 1.0).unwrap()],
        )
        .unwrap();
    assert!(
        stage
            .collision(dots, probe, root, &CollisionOptions::default())
            .unwrap()
            .rect
            .is_some()
    );
}

/// Curves under a huge scale flatten into up to 65,536 segments each: a unit circle stroked
/// under a scale of 1e12 once gave an outline of 16.5 million vertices (0.4 s, 448 MB), and
/// ten of them in one target 3.7 GB. The budget now holds while the geometry is built, for
/// fills as for strokes, and over all the items of one query.
#[test]
fn curves_flattened_under_a_huge_scale_are_held_to_the_vertex_budget() {
    let mut stage = Stage::new();
    let root = stage.root();
    let probe = stage.add_container(root).unwrap();
    stage
        .add_graphic(
            probe,
            Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
    let huge = |stage: &mut Stage, graphics: Vec<Graphic>, scale: f64| {
        let id = stage.add_container(root).unwrap();
        stage.set_graphics(id, graphics).unwrap();
        stage.set_scale_x(id, scale).unwrap();
        stage.set_scale_y(id, scale).unwrap();
        id
    };
    let budget_error = |r: Result<pixelhit::Collision, Error>, what: &str| match r {
        Err(Error::GeometryBudget {
            what: w,
            vertices,
            budget,
        }) => {
            assert!(w.contains(what), "{w}");
            assert!(vertices > u128::from(budget), "{vertices} {budget}");
        }
        other => panic!("expected a geometry budget error, got {other:?}"),
    };
    let ring = Graphic::stroke(Path::circle(0.0, 0.0, 1.0), 2.0, 1.0).unwrap();
    // Three unit circles in one fill path: 108 curves, 7 million points flattened.
    let circles = "M-1 0 A1 1 0 1 0 1 0 A1 1 0 1 0 -1 0 Z ".repeat(3);
    let disc = Graphic::fill(Path::from_svg(&circles).unwrap(), FillRule::NonZero, 1.0).unwrap();
    for (graphic, what) in [(ring, "a stroke"), (disc, "a fill")] {
        let id = huge(&mut stage, vec![graphic], 1e12);
        stage.set_x(probe, 1e12 - 20.0).unwrap();
        budget_error(
            stage.collision(id, probe, root, &CollisionOptions::default()),
            what,
        );
        assert!(matches!(
            stage.hit_test_point(id, 1e12, 0.0, true),
            Err(Error::GeometryBudget { .. })
        ));
    }
    // Each of these rings is within the budget alone (1.8 million vertices), ten are not.
    let rings: Vec<Graphic> = (0..10)
        .map(|i| Graphic::stroke(Path::circle(0.0, f64::from(i) * 1e-3, 1.0), 2.0, 1.0).unwrap())
        .collect();
    let one = huge(&mut stage, rings[..1].to_vec(), 1e8);
    let ten = huge(&mut stage, rings, 1e8);
    stage.set_x(probe, 1e8).unwrap();
    let c = stage
        .collision(one, probe, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(c.overlap_pixels, Some(100));
    budget_error(
        stage.collision(ten, probe, root, &CollisionOptions::default()),
        "the geometry of the query's targets",
    );
}

/// Issue 12, item 1: files a scene names are read as the scene file is, with a byte limit,
/// and only when they are regular files: `/dev/zero` never ends and a FIFO blocks forever.
#[test]
fn files_a_scene_names_must_be_regular_files() {
    let dir = temp_dir("asset_files");
    let fifo = dir.join("pipe.png");
    let made = Command::new("mkfifo")
        .arg(&fifo)
        .status()
        .map(|s| s.success())
        .unwrap_or(false);
    let mut names = vec!["/dev/zero".to_string(), dir.display().to_string()];
    if made {
        names.push(fifo.display().to_string());
    }
    for kind in ["png", "svg"] {
        if kind == "svg" && !cfg!(feature = "svg") {
            continue;
        }
        for name in &names {
            let leaf = match kind {
                "png" => format!(r#""bitmap": {{"png": {name:?}}}"#),
                _ => format!(r#""svg": {name:?}"#),
            };
            let text =
                format!(r#"{{"pixelhit_scene": 1, "root": {{"children": [{{"name": "a", {leaf}}}]}}}}"#);
            // Before, this read /dev/zero until the memory ran out and waited on the FIFO
            // for ever.
            let e = load(&text).unwrap_err().to_string();
            assert!(
                e.contains(name.as_str()) && e.contains("not a regular file"),
                "{e}"
            );
        }
    }
}

/// Issue 12, item 7: answers that were silently wrong are now errors naming what and where.
#[test]
fn overflowing_positions_colours_and_boxes_are_refused_not_answered_wrong() {
    // Two overlapping squares past 2^52, where an f64 no longer holds every whole pixel:
    // before, the precise answer was "no collision" while the loose one said they overlap.
    let mut s = Stage::new();
    let root = s.root();
    let a = square(&mut s, root, 4.6e15, 0.0, 64.0);
    let b = square(&mut s, root, 4.6e15 + 8.0, 8.0, 64.0);
    let loose = s.collision_rect(a, b, root, false, 255).unwrap();
    assert!(loose.is_some());
    match s.collision_rect(a, b, root, true, 255) {
        Err(Error::OutOfRange { what, value, .. }) => {
            assert!(what.contains("overlap") && value >= 4.6e15, "{what}");
        }
        other => panic!("{other:?}"),
    }
    // Colour multipliers that overflow to infinity on the way down (1e300 x 1e300) over
    // an alpha-0 child: before, NaN rounded to an opaque pixel.
    let mut s = Stage::new();
    let root = s.root();
    let outer = s.add_container(root).unwrap();
    let inner = s.add_container(outer).unwrap();
    let big = ColorTransform::new([1.0, 1.0, 1.0, 1e300], [0.0; 4]);
    s.set_color_transform(outer, big).unwrap();
    s.set_color_transform(inner, big).unwrap();
    let ghost = square(&mut s, inner, 0.0, 0.0, 10.0);
    s.set_alpha(ghost, 0.0).unwrap();
    s.set_name(ghost, "ghost").unwrap();
    let probe = square(&mut s, root, 0.0, 0.0, 10.0);
    // The ghost alone is fine (its own product, taken upwards, is 0); the container above
    // it multiplies downwards, 1e300 x 1e300 x 0, which is NaN.
    let alone = s
        .collision(ghost, probe, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(alone.overlap_pixels, Some(0));
    match s.collision(outer, probe, root, &CollisionOptions::default()) {
        Err(Error::NonFinite { what }) => assert!(
            what.contains("colour transform") && what.contains("ghost"),
            "{what}"
        ),
        other => panic!("{other:?}"),
    }
    // A box wider than an f64 holds: before, its width printed as `null`.
    let mut s = Stage::new();
    let root = s.root();
    let wide = s.add_container(root).unwrap();
    for x in [-1.7e308, 1.7e308] {
        let g = Graphic::fill(Path::rect(x, 0.0, 1.0, 1.0), FillRule::NonZero, 1.0).unwrap();
        s.add_graphic(wide, g).unwrap();
    }
    assert!(matches!(s.bounds(wide, root), Err(Error::NonFinite { .. })));
    assert!(matches!(s.tight_bounds(wide, root), Err(Error::NonFinite { .. })));
}

/// Issue 12, item 5: edges that cross each other by the thousand inside a few pixels (a
/// 9 x 9 px scribble of 40,000 segments) are refused by the work budget, naming it, instead
/// of taking minutes; a scribble of a few hundred segments is still answered exactly.
#[test]
fn edges_crossing_by_the_thousand_are_refused_by_the_work_budget() {
    let scribble = |n: usize| {
        let mut d = String::from("M0 0");
        let mut seed = 12345u64;
        for _ in 0..n {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            let (x, y) = ((seed >> 33) % 900, (seed >> 13) % 900);
            d.push_str(&format!(
                " L{}.{:02} {}.{:02}",
                x / 100,
                x % 100,
                y / 100,
                y % 100
            ));
        }
        d.push_str(" Z");
        Path::from_svg(&d).unwrap()
    };
    for (n, refused) in [(300, false), (40_000, true)] {
        let mut s = Stage::new();
        let root = s.root();
        let knot = s.add_container(root).unwrap();
        s.set_name(knot, "knot").unwrap();
        let g = Graphic::fill(scribble(n), FillRule::EvenOdd, 1.0).unwrap();
        s.add_graphic(knot, g).unwrap();
        let probe = square(&mut s, root, 0.0, 0.0, 9.0);
        let got = s.collision(knot, probe, root, &CollisionOptions::default());
        match (got, refused) {
            (Ok(c), false) => assert!(c.overlap_pixels.unwrap() > 0),
            (
                Err(Error::WorkBudget {
                    what, work, budget, ..
                }),
                true,
            ) => {
                assert!(what.contains("knot"), "{what}");
                assert!(work > u128::from(budget));
            }
            (other, _) => panic!("{n} segments: {other:?}"),
        }
    }
}

/// `hit_test_point` held each leaf to the per-item vertex budget but not all of them
/// together: many leaves just under it took 17 s from a 51 KB file, and more without end.
/// Now the query's total budget holds as for collisions.
#[test]
fn point_tests_hold_all_their_leaves_to_one_vertex_budget() {
    let mut stage = Stage::new();
    let root = stage.root();
    let node = stage.add_container(root).unwrap();
    // A unit disc under a scale of 2e8 flattens (to 1/1024 px) into about a million points:
    // one is within the budget, twelve are not.
    let disc = Graphic::fill(Path::circle(0.0, 0.0, 1.0), FillRule::NonZero, 1.0).unwrap();
    stage.set_graphics(node, vec![disc.clone()]).unwrap();
    stage.set_scale_x(node, 2e8).unwrap();
    stage.set_scale_y(node, 2e8).unwrap();
    // Outside the disc: every leaf must be looked at.
    assert!(!stage.hit_test_point(node, 3e8, 0.0, true).unwrap());
    assert!(stage.hit_test_point(node, 1e8, 0.0, true).unwrap());
    stage.set_graphics(node, vec![disc; 12]).unwrap();
    match stage.hit_test_point(node, 3e8, 0.0, true) {
        Err(Error::GeometryBudget {
            what,
            vertices,
            budget,
        }) => {
            assert!(what.contains("the geometry of the query's targets"), "{what}");
            assert!(vertices > u128::from(budget));
        }
        other => panic!("expected the query's vertex budget, got {other:?}"),
    }
}

/// The methods that hold whole planes of the window were bounded only by the pixel budget,
/// at up to 34 bytes a pixel: `radial` took 4.6 GB from a 283 B scene, `summed_area` 2.8 GB,
/// `flash` 2.4 GB. Each is now held to `DENSE_BYTES` for what it holds per pixel, and
/// refuses past it (the exact method answers the same query in its window).
#[test]
fn methods_on_whole_planes_are_held_to_their_memory_budget() {
    use pixelhit::{DENSE_BYTES, Method, RadialOptions};
    let mut stage = Stage::new();
    let root = stage.root();
    // Two 12,000 px squares overlapping by 10,000 x 10,000 px (1e8 pixels of window).
    let square = |stage: &mut Stage, x: f64| {
        let id = stage.add_container(root).unwrap();
        let g = Graphic::fill(Path::rect(0.0, 0.0, 12_000.0, 12_000.0), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(id, g).unwrap();
        stage.set_x(id, x).unwrap();
        stage.set_y(id, x).unwrap();
        id
    };
    let (a, b) = (square(&mut stage, 0.0), square(&mut stage, 2_000.0));
    let opts = CollisionOptions::default();
    for method in [
        Method::SummedArea,
        Method::Radial(RadialOptions::default()),
        Method::FlashPipeline { compat: false },
    ] {
        match stage.collides_with(a, b, root, &opts, method) {
            Err(Error::PixelBudget { pixels, budget }) => {
                assert!(pixels > u128::from(budget), "{method:?}");
                assert!(budget < DENSE_BYTES, "{method:?}: {budget}");
            }
            other => panic!("{method:?}: expected the pixel budget, got {other:?}"),
        }
    }
    // Within the budget they answer, as the exact method does.
    let small = CollisionOptions::default();
    stage.set_scale_x(a, 0.1).unwrap();
    stage.set_scale_y(a, 0.1).unwrap();
    stage.set_scale_x(b, 0.1).unwrap();
    stage.set_scale_y(b, 0.1).unwrap();
    stage.set_x(b, 200.0).unwrap();
    stage.set_y(b, 200.0).unwrap();
    for method in [
        Method::Exact,
        Method::SummedArea,
        Method::FlashPipeline { compat: false },
    ] {
        assert!(
            stage.collides_with(a, b, root, &small, method).unwrap(),
            "{method:?}"
        );
    }
}

/// The `flash` methods drew geometry over the vertex budget as nothing, answering "no
/// collision" where the exact method refuses: they refuse too, with the same error.
#[test]
fn flash_methods_refuse_what_the_exact_method_refuses() {
    use pixelhit::Method;
    let mut stage = Stage::new();
    let root = stage.root();
    let huge = stage.add_container(root).unwrap();
    let circles = "M-1 0 A1 1 0 1 0 1 0 A1 1 0 1 0 -1 0 Z ".repeat(3);
    let disc = Graphic::fill(Path::from_svg(&circles).unwrap(), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(huge, disc).unwrap();
    stage.set_scale_x(huge, 1e12).unwrap();
    stage.set_scale_y(huge, 1e12).unwrap();
    let probe = stage.add_container(root).unwrap();
    let g = Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(probe, g).unwrap();
    stage.set_x(probe, 1e12 - 20.0).unwrap();
    let opts = CollisionOptions::default();
    for method in [
        Method::Exact,
        Method::FlashPipeline { compat: false },
        Method::FlashPipeline { compat: true },
    ] {
        assert!(
            matches!(
                stage.collides_with(huge, probe, root, &opts, method),
                Err(Error::GeometryBudget { .. })
            ),
            "{method:?}"
        );
    }
}

/// Directions were taken by normalizing, whose square overflows past about 1e154 and
/// vanishes under about 1e-154: such strokes drew nothing. Now they draw what they cover,
/// or are refused where they reach past the pixel grid.
#[test]
fn strokes_of_extreme_lengths_still_draw() {
    let mut stage = Stage::new();
    let root = stage.root();
    let probe = stage.add_container(root).unwrap();
    let g = Graphic::fill(Path::rect(0.0, 0.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(probe, g).unwrap();
    stage.set_x(probe, 100.0).unwrap();
    stage.set_y(probe, -2.0).unwrap();
    // A segment 1e160 long and 2 px wide through the probe reaches past what the grid holds
    // (2^40 px from the item's position): refused, never answered as "no collision".
    let long = stage.add_container(root).unwrap();
    let mut path = Path::new();
    path.move_to(-1e160, 0.0).line_to(1e160, 0.0);
    stage
        .add_graphic(long, Graphic::stroke(path, 2.0, 1.0).unwrap())
        .unwrap();
    assert!(matches!(
        stage.collision(long, probe, root, &CollisionOptions::default()),
        Err(Error::NonFinite { .. })
    ));
    // The point test has no grid: it answers.
    assert!(stage.hit_test_point(long, 101.0, 0.5, true).unwrap());
    assert!(!stage.hit_test_point(long, 101.0, 1.5, true).unwrap());
    // A segment 4e-160 long, 2e-160 wide, scaled by 1e160: 4 px by 2 px with round caps.
    let short = stage.add_container(root).unwrap();
    let mut path = Path::new();
    path.move_to(0.0, 0.0).line_to(4e-160, 0.0);
    stage
        .add_graphic(short, Graphic::stroke(path, 2e-160, 1.0).unwrap())
        .unwrap();
    stage.set_scale_x(short, 1e160).unwrap();
    stage.set_scale_y(short, 1e160).unwrap();
    stage.set_x(short, 100.0).unwrap();
    let c = stage
        .collision(short, probe, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(c.overlap_pixels, Some(8), "{c:?}");
}

/// Large items composited over a large window once each: a 307 B scene took 5.6 s, a 3.9 KB
/// one 5 min. Compositing counts against the work budget.
#[test]
fn many_large_items_over_a_large_window_are_held_to_the_work_budget() {
    let mut stage = Stage::new();
    let root = stage.root();
    let target = |stage: &mut Stage, items: usize, at: f64| {
        let id = stage.add_container(root).unwrap();
        let squares = (0..items)
            .map(|k| {
                let d = k as f64 * 0.5;
                Graphic::fill(Path::rect(d, d, 4096.0, 4096.0), FillRule::NonZero, 0.5).unwrap()
            })
            .collect();
        stage.set_graphics(id, squares).unwrap();
        stage.set_x(id, at).unwrap();
        id
    };
    let opts = CollisionOptions::default();
    let (a, b) = (target(&mut stage, 200, 0.0), target(&mut stage, 200, 10.0));
    match stage.collision(a, b, root, &opts) {
        Err(Error::WorkBudget { work, budget, .. }) => assert!(work > u128::from(budget)),
        other => panic!("expected the work budget, got {other:?}"),
    }
    let (a, b) = (target(&mut stage, 3, 0.0), target(&mut stage, 3, 10.0));
    let c = stage.collision(a, b, root, &opts).unwrap();
    assert!(c.overlap_pixels.unwrap() > 4000 * 4000);
}

/// A stroke of 5,000 short curves in a few pixels (92 KB of path data took 10.7 s): its
/// outline's pieces cross each other by the thousand, which the work budget holds.
#[test]
fn a_stroke_of_five_thousand_short_curves_is_answered_or_refused_in_its_budget() {
    let mut stage = Stage::new();
    let root = stage.root();
    let mut d = String::from("M0,0");
    for k in 0..5000 {
        let (x, y) = ((k * 7 % 13) as f64 * 0.7, (k * 11 % 17) as f64 * 0.6);
        d.push_str(&format!(" Q{:.2},{:.2} {:.2},{:.2}", x + 0.5, y - 0.4, y, x));
    }
    let scribble = stage.add_container(root).unwrap();
    let g = Graphic::stroke(Path::from_svg(&d).unwrap(), 1.5, 1.0).unwrap();
    stage.add_graphic(scribble, g).unwrap();
    let probe = stage.add_container(root).unwrap();
    let square = Graphic::fill(Path::rect(0.0, 0.0, 12.0, 12.0), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(probe, square).unwrap();
    match stage.collision(scribble, probe, root, &CollisionOptions::default()) {
        Ok(c) => assert!(c.overlap_pixels.unwrap() > 50, "{c:?}"),
        Err(Error::WorkBudget { work, budget, .. }) => assert!(work > u128::from(budget)),
        Err(other) => panic!("{other}"),
    }
}
