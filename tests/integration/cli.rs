//! Runs the `pixelhit` binary on scene files: answers, query errors and bad files.

use std::path::{Path, PathBuf};
use std::process::Command;

use pixelhit::Bitmap;

/// What one run printed and returned.
struct Run {
    code: i32,
    stdout: String,
    stderr: String,
}

fn pixelhit(args: &[&str]) -> Run {
    let out = Command::new(env!("CARGO_BIN_EXE_pixelhit"))
        .args(args)
        .output()
        .expect("the binary runs");
    Run {
        code: out.status.code().unwrap_or(-1),
        stdout: String::from_utf8(out.stdout).expect("stdout is UTF-8"),
        stderr: String::from_utf8(out.stderr).expect("stderr is UTF-8"),
    }
}

fn run_scene(path: &Path) -> Run {
    pixelhit(&["run", path.to_str().expect("UTF-8 path")])
}

/// A fresh folder for one test (tests run in parallel).
fn temp_dir(test: &str) -> PathBuf {
    let dir = std::env::temp_dir().join(format!("pixelhit-cli-{}-{test}", std::process::id()));
    let _ = std::fs::remove_dir_all(&dir);
    std::fs::create_dir_all(&dir).expect("temp dir");
    dir
}

fn write(dir: &Path, name: &str, text: &str) -> PathBuf {
    let p = dir.join(name);
    std::fs::write(&p, text).expect("write scene");
    p
}

fn scenes_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/scenes")
}

/// A 4 x 4 sprite whose left two columns are transparent and right two opaque.
fn write_sprite(dir: &Path, name: &str) {
    let mut rgba = Vec::new();
    for _y in 0..4 {
        for x in 0..4 {
            rgba.extend_from_slice(&[200, 40, 40, if x < 2 { 0 } else { 255 }]);
        }
    }
    let png = Bitmap::from_rgba8(4, 4, rgba).unwrap().to_png_bytes().unwrap();
    std::fs::write(dir.join(name), png).unwrap();
}

fn lines(s: &str) -> Vec<&str> {
    s.lines().collect()
}

/// The rectangle of an output line, its numbers read with Rust's exact parser (serde_json's
/// default float parser may be one unit in the last place off).
fn rect_of(line: &str, key: &str) -> [f64; 4] {
    let prefix = format!("{{\"{key}\": [");
    let rest = line.strip_prefix(&prefix).unwrap_or_else(|| panic!("{line}"));
    let body = &rest[..rest.find(']').unwrap_or_else(|| panic!("{line}"))];
    let nums: Vec<f64> = body.split(", ").map(|n| n.parse().unwrap()).collect();
    nums.try_into().unwrap_or_else(|_| panic!("{line}"))
}

fn assert_close(got: [f64; 4], want: [f64; 4]) {
    for (g, w) in got.iter().zip(want) {
        assert!((g - w).abs() < 1e-9, "got {got:?}, want {want:?}");
    }
}

#[test]
fn every_query_kind_is_answered() {
    let r = run_scene(&scenes_dir().join("squares.json"));
    let want = std::fs::read_to_string(scenes_dir().join("squares.expected")).unwrap();
    assert_eq!(r.stderr, "");
    assert_eq!(lines(&r.stdout), lines(&want));
    assert_eq!(r.code, 0);
}

#[test]
fn query_errors_print_an_error_line_and_the_others_still_run() {
    let r = run_scene(&scenes_dir().join("query_errors.json"));
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stderr, "");
    let l = lines(&r.stdout);
    assert_eq!(l.len(), 4, "{}", r.stdout);
    assert_eq!(l[0], r#"{"hit_test_object": true}"#);
    assert_eq!(l[1], r#"{"error": "bounds.object: no object named \"nobody\""}"#);
    let err: serde_json::Value = serde_json::from_str(l[2]).unwrap();
    assert!(err["error"].as_str().unwrap().contains("\"b\""), "{}", l[2]);
    assert_eq!(l[3], r#"{"collision_rect": [5, 5, 5, 5]}"#);
}

#[test]
fn rotated_objects_have_loose_and_tight_boxes() {
    let dir = temp_dir("rotated");
    let scene = write(
        &dir,
        "rot.json",
        r#"{
  "pixelhit_scene": 1,
  "root": { "name": "stage", "children": [
    { "name": "rot", "x": 100, "y": 100, "rotation": 45,
      "graphics": [ { "fill": "M-5,-5 H5 V5 H-5 Z" } ] },
    { "name": "outer", "x": 200, "y": 200, "rotation": 45, "children": [
      { "name": "inner", "rotation": 45, "graphics": [ { "fill": "M-5,-5 H5 V5 H-5 Z" } ] } ] }
  ] },
  "queries": [
    { "bounds": { "object": "rot", "space": "stage" } },
    { "bounds": { "object": "outer", "space": "stage" } },
    { "tight_bounds": { "object": "outer", "space": "stage" } },
    { "hit_test_point": { "object": "rot", "x": 106.9, "y": 100, "shape_flag": true } },
    { "hit_test_point": { "object": "rot", "x": 106, "y": 106, "shape_flag": true } },
    { "hit_test_point": { "object": "rot", "x": 106, "y": 106 } }
  ]
}"#,
    );
    let r = run_scene(&scene);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let l = lines(&r.stdout);
    let h = 5.0 * 2f64.sqrt();
    // A square of half-side 5 turned 45 degrees reaches 5 * sqrt(2) along each axis.
    assert_close(rect_of(l[0], "bounds"), [100.0 - h, 100.0 - h, 2.0 * h, 2.0 * h]);
    // Flash's loose box: inner's box in outer's space is +-5*sqrt(2), turned again +-10.
    assert_close(rect_of(l[1], "bounds"), [190.0, 190.0, 20.0, 20.0]);
    // Two 45-degree turns are a quarter turn: the exact box is the square itself.
    assert_close(rect_of(l[2], "tight_bounds"), [195.0, 195.0, 10.0, 10.0]);
    assert_eq!(
        &l[3..],
        [
            r#"{"hit_test_point": true}"#,
            r#"{"hit_test_point": false}"#,
            r#"{"hit_test_point": true}"#,
        ]
    );
}

#[test]
fn bitmaps_collide_by_their_opaque_texels() {
    let dir = temp_dir("bitmap");
    write_sprite(&dir, "sprite.png");
    let scene = write(
        &dir,
        "sprite.json",
        r#"{
  "pixelhit_scene": 1,
  "root": { "name": "stage", "children": [
    { "name": "a", "graphics": [ { "fill": "M0,0 H10 V10 H0 Z" } ] },
    { "name": "sprite", "x": 2, "y": 2, "bitmap": { "png": "sprite.png" } },
    { "name": "big", "x": 20, "scale_x": 2, "scale_y": 2,
      "bitmap": { "png": "sprite.png", "smoothing": true } }
  ] },
  "queries": [
    { "collision_rect": { "a": "a", "b": "sprite", "parent": "stage" } },
    { "bounds": { "object": "sprite", "space": "stage" } },
    { "bounds": { "object": "big", "space": "stage" } },
    { "hit_test_point": { "object": "sprite", "x": 2.5, "y": 3, "shape_flag": true } },
    { "hit_test_point": { "object": "sprite", "x": 4.5, "y": 3, "shape_flag": true } },
    { "hit_test_point": { "object": "sprite", "x": 2.5, "y": 3 } },
    { "hit_test_object": { "a": "a", "b": "big" } }
  ]
}"#,
    );
    let r = run_scene(&scene);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(
        lines(&r.stdout),
        [
            // Only texel columns 2 and 3 are opaque: x 4..6, y 2..6.
            r#"{"collision_rect": [4, 2, 2, 4], "overlap_pixels": 8}"#,
            r#"{"bounds": [2, 2, 4, 4]}"#,
            r#"{"bounds": [20, 0, 8, 8]}"#,
            r#"{"hit_test_point": false}"#,
            r#"{"hit_test_point": true}"#,
            r#"{"hit_test_point": true}"#,
            r#"{"hit_test_object": false}"#,
        ]
    );
}

#[test]
fn numbers_print_in_shortest_round_trip_form() {
    let dir = temp_dir("numbers");
    let scene = write(
        &dir,
        "n.json",
        r#"{"pixelhit_scene": 1,
  "root": {"name": "s", "children": [
    {"name": "t", "x": 0.1, "y": -3, "graphics": [{"fill": "M0,0 H0.2 V1e-7 H0 Z"}]},
    {"name": "huge", "x": 1e300, "graphics": [{"fill": "M0,0 H1 V1 H0 Z"}]}]},
  "queries": [{"bounds": {"object": "t", "space": "s"}},
              {"collision_rect": {"a": "t", "b": "t", "parent": "s", "precise": false}},
              {"bounds": {"object": "huge", "space": "s"}}]}"#,
    );
    let r = run_scene(&scene);
    assert_eq!(r.code, 0, "{}", r.stderr);
    let l = lines(&r.stdout);
    // Reading the printed digits back gives exactly the f64 the library computed.
    let s = pixelhit::Scene::load(&scene).unwrap();
    let (t, root) = (s.node("t").unwrap(), s.node("s").unwrap());
    let want = s.stage.bounds(t, root).unwrap().unwrap().to_xywh();
    assert_eq!(rect_of(l[0], "bounds"), want);
    assert_eq!(rect_of(l[1], "collision_rect"), want);
    assert!(l[0].starts_with(r#"{"bounds": [0.1, -3, 0.2"#), "{}", l[0]);
    assert_eq!(l[2], r#"{"bounds": [1e300, 0, 0, 1]}"#);
}

/// Runs a bad scene and checks the failure contract: exit 2, nothing on stdout, one line
/// on stderr that names the file and contains every `needles`.
fn assert_refused(dir: &Path, name: &str, text: &str, needles: &[&str]) {
    let path = write(dir, name, text);
    let r = run_scene(&path);
    assert_eq!(r.code, 2, "{name}: {}", r.stderr);
    assert_eq!(r.stdout, "", "{name}");
    assert_eq!(r.stderr.lines().count(), 1, "{name}: {}", r.stderr);
    assert!(r.stderr.starts_with("pixelhit: "), "{}", r.stderr);
    assert!(r.stderr.contains(name), "{name} not named: {}", r.stderr);
    for n in needles {
        assert!(r.stderr.contains(n), "{name}: {n:?} not in {}", r.stderr);
    }
}

const HEAD: &str = r#"{"pixelhit_scene": 1, "#;

#[test]
fn bad_files_are_refused_with_file_and_location() {
    let dir = temp_dir("bad");
    let sq = r#"{"fill": "M0,0 H10 V10 H0 Z"}"#;
    let cases: Vec<(&str, String, Vec<&str>)> = vec![
        (
            "syntax.json",
            format!("{HEAD}\n  \"root\": {{,}}}}"),
            vec!["line 2, column 12"],
        ),
        ("empty.json", String::new(), vec!["line 1, column 0"]),
        (
            "version.json",
            r#"{"pixelhit_scene": 2, "root": {}}"#.into(),
            vec!["pixelhit_scene", "version 2"],
        ),
        ("noversion.json", r#"{"root": {}}"#.into(), vec!["pixelhit_scene"]),
        (
            "unknown_field.json",
            format!(r#"{HEAD}"root": {{"children": [{{"colour": 1}}]}}}}"#),
            vec!["root.children[0].colour", "unknown field"],
        ),
        (
            "unknown_top.json",
            format!(r#"{HEAD}"root": {{}}, "query": []}}"#),
            vec!["query: unknown field"],
        ),
        (
            "matrix_and_x.json",
            format!(r#"{HEAD}"root": {{"children": [{{}}, {{"matrix": [1, 0, 0, 1, 0, 0], "x": 3}}]}}}}"#),
            vec!["root.children[1].matrix", "`x`"],
        ),
        (
            "matrix_length.json",
            format!(r#"{HEAD}"root": {{"matrix": [1, 0, 0, 1, 0]}}}}"#),
            vec!["root.matrix", "6 numbers"],
        ),
        (
            "bitmap_and_children.json",
            format!(r#"{HEAD}"root": {{"children": [{{"bitmap": {{"png": "x.png"}}, "children": []}}]}}}}"#),
            vec!["root.children[0].bitmap", "children"],
        ),
        (
            "bitmap_and_graphics.json",
            format!(
                r#"{HEAD}"root": {{"children": [{{"bitmap": {{"png": "x.png"}}, "graphics": [{sq}]}}]}}}}"#
            ),
            vec!["root.children[0].bitmap", "graphics"],
        ),
        (
            "duplicate_name.json",
            format!(r#"{HEAD}"root": {{"name": "n", "children": [{{"name": "m"}}, {{"name": "n"}}]}}}}"#),
            vec!["root.children[1].name", "duplicate name \"n\"", "root.name"],
        ),
        (
            "duplicate_key.json",
            format!("{HEAD}\n\"root\": {{\"x\": 1, \"y\": 2, \"x\": 3}}}}"),
            vec!["line 2, column", "duplicate key \"x\""],
        ),
        (
            "bad_path.json",
            format!(
                r#"{HEAD}"root": {{"children": [{{"graphics": [{sq}, {{"fill": "M0,0 L10,0 X5"}}]}}]}}}}"#
            ),
            vec!["root.children[0].graphics[1].fill", "byte 11"],
        ),
        (
            "bad_fill_rule.json",
            format!(
                r#"{HEAD}"root": {{"graphics": [{{"fill": "M0 0 H1 V1 Z", "fill_rule": "even-odd"}}]}}}}"#
            ),
            vec!["root.graphics[0].fill_rule", "evenodd"],
        ),
        (
            "stroke_without_width.json",
            format!(r#"{HEAD}"root": {{"graphics": [{{"stroke": "M0 0 H1"}}]}}}}"#),
            vec!["root.graphics[0].width"],
        ),
        (
            "alpha.json",
            format!(r#"{HEAD}"root": {{"children": [{{"alpha": 1.5}}]}}}}"#),
            vec!["root.children[0].alpha", "1.5"],
        ),
        (
            "graphics_alpha.json",
            format!(r#"{HEAD}"root": {{"graphics": [{{"fill": "M0 0 H1 V1 Z", "alpha": -0.5}}]}}}}"#),
            vec!["root.graphics[0].alpha"],
        ),
        (
            "wrong_type.json",
            format!(r#"{HEAD}"root": {{"x": "10"}}}}"#),
            vec!["root.x", "expected a number"],
        ),
        (
            "huge_number.json",
            format!(r#"{HEAD}"root": {{"x": 1e999}}}}"#),
            vec!["line 1, column"],
        ),
        (
            "tolerance_fraction.json",
            format!(
                r#"{HEAD}"root": {{"name": "r"}}, "queries": [{{"collision_rect": {{"a": "r", "b": "r", "parent": "r", "tolerance": 3.5}}}}]}}"#
            ),
            vec!["queries[0].collision_rect.tolerance", "3.5"],
        ),
        (
            "tolerance_range.json",
            format!(
                r#"{HEAD}"root": {{"name": "r"}}, "queries": [{{"bounds": {{"object": "r", "space": "r"}}}}, {{"collision_rect": {{"a": "r", "b": "r", "parent": "r", "tolerance": 300}}}}]}}"#
            ),
            vec!["queries[1].collision_rect.tolerance", "300"],
        ),
        (
            "query_kind.json",
            format!(r#"{HEAD}"root": {{}}, "queries": [{{"collide": {{"a": "r", "b": "r"}}}}]}}"#),
            vec!["queries[0].collide", "unknown query kind"],
        ),
        (
            "query_field.json",
            format!(
                r#"{HEAD}"root": {{}}, "queries": [{{"hit_test_object": {{"a": "r", "b": "r", "c": 1}}}}]}}"#
            ),
            vec!["queries[0].hit_test_object.c"],
        ),
        (
            "query_missing.json",
            format!(r#"{HEAD}"root": {{}}, "queries": [{{"collision_rect": {{"a": "r", "b": "r"}}}}]}}"#),
            vec!["queries[0].collision_rect.parent"],
        ),
        (
            "missing_png.json",
            format!(r#"{HEAD}"root": {{"children": [{{"bitmap": {{"png": "nowhere.png"}}}}]}}}}"#),
            vec!["root.children[0].bitmap.png", "nowhere.png"],
        ),
        (
            "corrupt_png.json",
            format!(r#"{HEAD}"root": {{"children": [{{}}, {{"bitmap": {{"png": "corrupt.png"}}}}]}}}}"#),
            vec!["root.children[1].bitmap.png", "corrupt.png"],
        ),
    ];
    std::fs::write(dir.join("corrupt.png"), b"\x89PNG\r\n\x1a\nnot really").unwrap();
    for (name, text, needles) in &cases {
        assert_refused(&dir, name, text, needles);
    }
}

#[test]
fn a_missing_file_is_refused() {
    let dir = temp_dir("missing");
    let path = dir.join("absent.json");
    let r = run_scene(&path);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert!(r.stderr.starts_with("pixelhit: "), "{}", r.stderr);
    assert!(r.stderr.contains("absent.json"), "{}", r.stderr);
    assert_eq!(r.stderr.lines().count(), 1, "{}", r.stderr);
}

#[test]
fn usage_errors_exit_2_and_help_exits_0() {
    for args in [
        &[][..],
        &["frobnicate"][..],
        &["run"][..],
        &["run", "a.json", "--verbose"][..],
        &["run", "a.json", "b.json"][..],
        &["run", "a.json", "--png"][..],
    ] {
        let r = pixelhit(args);
        assert_eq!(r.code, 2, "{args:?}");
        assert_eq!(r.stdout, "", "{args:?}");
        assert!(r.stderr.contains("usage: pixelhit run"), "{args:?}: {}", r.stderr);
    }
    let r = pixelhit(&["--help"]);
    assert_eq!(r.code, 0);
    assert!(
        r.stdout.contains("usage: pixelhit run SCENE.json"),
        "{}",
        r.stdout
    );
    assert_eq!(r.stderr, "");
    // The version, as Cargo.toml has it, on its own line.
    for flag in ["--version", "-V"] {
        let r = pixelhit(&[flag]);
        assert_eq!(r.code, 0);
        assert_eq!(r.stdout, format!("pixelhit {}\n", env!("CARGO_PKG_VERSION")));
        assert_eq!(r.stderr, "");
    }
}

#[test]
fn png_output_draws_a_picture_and_prints_the_same_answers() {
    let dir = temp_dir("png");
    let out = dir.join("out.png");
    let scene = scenes_dir().join("squares.json");
    let plain = run_scene(&scene);
    let r = pixelhit(&["run", scene.to_str().unwrap(), "--png", out.to_str().unwrap()]);
    assert_eq!(r.code, 0, "{}", r.stderr);
    assert_eq!(r.stdout, plain.stdout);
    let picture = Bitmap::from_png_file(&out).expect("a PNG was written");
    assert!(picture.width() > 0 && picture.height() > 0);

    // Failed queries are left out of the picture; the exit status still says they failed.
    let out2 = dir.join("errors.png");
    let scene = scenes_dir().join("query_errors.json");
    let r = pixelhit(&[
        "run",
        scene.to_str().unwrap(),
        &format!("--png={}", out2.display()),
    ]);
    assert_eq!(r.code, 1, "{}", r.stderr);
    assert_eq!(r.stdout.lines().count(), 4);
    assert!(out2.exists());

    // A picture that cannot be written is a failure of the whole run: nothing on stdout.
    let bad = dir.join("no-such-folder").join("out.png");
    let r = pixelhit(&["run", scene.to_str().unwrap(), "--png", bad.to_str().unwrap()]);
    assert_eq!(r.code, 2);
    assert_eq!(r.stdout, "");
    assert!(r.stderr.starts_with("pixelhit: cannot write "), "{}", r.stderr);
    assert!(r.stderr.contains("out.png"), "{}", r.stderr);
}

#[test]
fn a_saved_scene_runs_like_the_original() {
    let dir = temp_dir("saved");
    let original = pixelhit::Scene::load(scenes_dir().join("squares.json")).unwrap();
    let copy = dir.join("copy.json");
    original.save(&copy).unwrap();
    let a = run_scene(&scenes_dir().join("squares.json"));
    let b = run_scene(&copy);
    assert_eq!((a.code, a.stdout), (b.code, b.stdout));
}

/// A scene of 20 overlapping squares in a row and `queries` `collision_rect` queries over
/// neighbours, as text.
fn many_collision_rects(queries: usize) -> String {
    let squares: Vec<String> = (0..20)
        .map(|i| {
            format!(
                r#"{{"name": "s{i}", "x": {}, "graphics": [{{"fill": "M0,0 H10 V10 H0 Z"}}]}}"#,
                i * 6
            )
        })
        .collect();
    let qs: Vec<String> = (0..queries)
        .map(|k| {
            format!(
                r#"{{"collision_rect": {{"a": "s{}", "b": "s{}", "parent": "root"}}}}"#,
                k % 20,
                (k + 1) % 20
            )
        })
        .collect();
    format!(
        r#"{{"pixelhit_scene": 1, "root": {{"name": "root", "children": [{}]}}, "queries": [{}]}}"#,
        squares.join(", "),
        qs.join(", ")
    )
}

#[test]
fn png_of_five_thousand_queries_is_as_large_as_of_a_hundred_and_one() {
    let dir = temp_dir("png-many");
    let mut sizes = Vec::new();
    for n in [101, 5000] {
        let scene = write(&dir, &format!("many{n}.json"), &many_collision_rects(n));
        let out = dir.join(format!("many{n}.png"));
        let r = pixelhit(&["run", scene.to_str().unwrap(), "--png", out.to_str().unwrap()]);
        assert_eq!(r.code, 0, "{}", r.stderr);
        // Every query is still answered on standard output.
        assert_eq!(r.stdout.lines().count(), n);
        assert_eq!(r.stdout, run_scene(&scene).stdout);
        // Standard error says what the picture leaves out.
        let want = format!(
            "the picture shows the first 100 of the {n} collision_rect queries answered; {} more are left out",
            n - 100
        );
        assert!(r.stderr.contains(&want), "{}", r.stderr);
        let picture = Bitmap::from_png_file(&out).expect("a PNG was written");
        sizes.push((picture.width(), picture.height()));
    }
    // The legend lists the first 100 and a line for the rest: the picture does not grow
    // with the number of queries.
    assert_eq!(sizes[0], sizes[1]);
    assert!(sizes[1].1 < 4096, "{:?}", sizes[1]);
}

#[test]
fn interactivity_fields_and_queries_run_as_the_format_says() {
    let dir = temp_dir("interactivity");
    let sq = r#"[{"fill": "M0,0 H10 V10 H0 Z"}]"#;
    let scene = format!(
        r#"{{"pixelhit_scene": 1, "root": {{"name": "root", "children": [
          {{"name": "s1", "graphics": {sq}, "children": [{{"name": "s3", "graphics": {sq}}}]}},
          {{"name": "hidden", "visible": false, "graphics": {sq}}},
          {{"name": "masked", "mask": "mask", "graphics": {sq}}},
          {{"name": "mask", "graphics": [{{"fill": "M0,0 H6 V6 H0 Z"}}]}},
          {{"name": "pane", "matrix": [1.3, 0.2, 0.1, 1.2, 40, 50], "scroll_rect": [50, 60, 50, 100]}},
          {{"name": "art", "interactive": false, "x": 100, "graphics": {sq}}},
          {{"name": "button", "x": 200, "mouse_children": false, "hit_area": "zone",
            "children": [{{"name": "face", "graphics": {sq}}}]}},
          {{"name": "zone", "x": 300, "visible": false, "graphics": {sq}}}
        ]}},
        "queries": [
          {{"objects_under_point": {{"container": "root", "x": 5, "y": 5}}}},
          {{"objects_under_point": {{"container": "root", "x": 8, "y": 8}}}},
          {{"pick": {{"x": 5, "y": 5}}}},
          {{"pick": {{"x": 105, "y": 5}}}},
          {{"pick": {{"x": 205, "y": 5}}}},
          {{"pick": {{"x": 305, "y": 5, "bitmap_hit": "box"}}}},
          {{"local_to_global": {{"object": "pane", "x": 10, "y": 20}}}},
          {{"scroll_rect": {{"object": "pane"}}}},
          {{"scroll_rect": {{"object": "s1"}}}},
          {{"rect": {{"object": "s1", "space": "root"}}}},
          {{"visible_bounds": {{"object": "masked", "space": "root"}}}},
          {{"hit_test_point": {{"object": "mask", "x": 5, "y": 5, "shape_flag": true}}}}
        ]}}"#
    );
    let run = run_scene(&write(&dir, "ui.json", &scene));
    assert_eq!(run.code, 0, "{}", run.stderr);
    let lines: Vec<&str> = run.stdout.lines().collect();
    assert_eq!(
        lines,
        [
            r#"{"objects_under_point": ["s1", "s3", "masked"]}"#,
            r#"{"objects_under_point": ["s1", "s3"]}"#,
            r#"{"pick": "masked"}"#,
            r#"{"pick": null}"#,
            r#"{"pick": null}"#,
            r#"{"pick": "button"}"#,
            r#"{"local_to_global": [-16, -6]}"#,
            r#"{"scroll_rect": [50, 60, 50, 100]}"#,
            r#"{"scroll_rect": null}"#,
            r#"{"rect": [0, 0, 10, 10]}"#,
            r#"{"visible_bounds": [0, 0, 6, 6]}"#,
            r#"{"hit_test_point": false}"#,
        ]
    );
}

#[test]
fn interactivity_errors_exit_2_with_the_field_path() {
    let dir = temp_dir("interactivity-errors");
    let sq = r#"[{"fill": "M0,0 H10 V10 H0 Z"}]"#;
    let cases = [
        (
            format!(r#"{{"name": "a", "mask": "nobody", "graphics": {sq}}}"#),
            "root.children[0].mask",
            "no object is named",
        ),
        (
            format!(r#"{{"name": "a", "mask": "b", "children": [{{"name": "b", "graphics": {sq}}}]}}"#),
            "root.children[0].mask",
            "inside what it would mask",
        ),
        (
            format!(r#"{{"name": "a", "mask": "a", "graphics": {sq}}}"#),
            "root.children[0].mask",
            "cannot mask itself",
        ),
        (
            r#"{"name": "a", "interactive": true, "bitmap": {"png": "sprite.png"}}"#.to_string(),
            "root.children[0].interactive",
            "never interactive",
        ),
        (
            format!(r#"{{"name": "a", "interactive": false, "mouse_enabled": false, "graphics": {sq}}}"#),
            "root.children[0].mouse_enabled",
            "interactive objects only",
        ),
        (
            r#"{"name": "a", "scroll_rect": [0, 0, 1]}"#.to_string(),
            "root.children[0].scroll_rect",
            "expected 4 numbers",
        ),
    ];
    write_sprite(&dir, "sprite.png");
    for (k, (object, at, why)) in cases.iter().enumerate() {
        let scene = format!(r#"{{"pixelhit_scene": 1, "root": {{"children": [{object}]}}}}"#);
        let run = run_scene(&write(&dir, &format!("bad{k}.json"), &scene));
        assert_eq!(run.code, 2, "{object}: {}", run.stdout);
        assert!(run.stdout.is_empty());
        assert!(
            run.stderr.contains(at) && run.stderr.contains(why),
            "{object}: {}",
            run.stderr
        );
    }
}
