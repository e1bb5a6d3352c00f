//! Scene files end to end: loading, saving, running, and their messages.

use std::path::Path as FsPath;

use glam::DAffine2;

use super::json::{Json, parse_json};
use super::save::MAX_SAVE_DEPTH;
use super::text::fmt_num;
use super::*;
use crate::{
    Bitmap, BitmapRenderer, ColorTransform, Error, FillRule, Graphic, Path, PygameFlavour, PygameTransform,
    Result,
};

fn load(text: &str) -> Result<Scene> {
    Scene::from_json(text, "t.json", FsPath::new("."))
}

fn location(e: &Error) -> String {
    match e {
        Error::Scene { location, .. } => location.clone(),
        other => panic!("not a scene error: {other}"),
    }
}

/// xorshift64*: enough randomness for number tests without a dependency.
fn rng(seed: &mut u64) -> u64 {
    *seed ^= *seed >> 12;
    *seed ^= *seed << 25;
    *seed ^= *seed >> 27;
    seed.wrapping_mul(0x2545_F491_4F6C_DD1D)
}

#[test]
fn numbers_print_shortest_and_read_back_exactly() {
    assert_eq!(fmt_num(10.0), "10");
    assert_eq!(fmt_num(-3.0), "-3");
    assert_eq!(fmt_num(-0.0), "0");
    assert_eq!(fmt_num(0.1), "0.1");
    assert_eq!(fmt_num(1.5), "1.5");
    assert_eq!(fmt_num(1e300), "1e300");
    assert_eq!(fmt_num(999_999_999_999_999.0), "999999999999999");
    let mut seed = 0x9E37_79B9_7F4A_7C15u64;
    let mut values = Vec::new();
    while values.len() < 5000 {
        let bits = rng(&mut seed);
        let v = match values.len() % 4 {
            0 => f64::from_bits(bits),
            1 => (bits >> 11) as f64 / (1u64 << 53) as f64 * 2000.0 - 1000.0,
            2 => ((bits % 2_000_001) as f64 - 1_000_000.0) / 20.0,
            _ => (bits as i64 >> (bits % 60)) as f64,
        };
        if v.is_finite() {
            values.push(v);
        }
    }
    // Rust's parser is exact; the loader must be too (serde_json's default one is not).
    let list: Vec<String> = values.iter().map(|v| fmt_num(*v)).collect();
    for (v, s) in values.iter().zip(&list) {
        let back: f64 = s.parse().unwrap();
        assert!(back == *v, "{v:?} printed as {s}");
    }
    let text = format!("[{}]", list.join(", "));
    let parsed = parse_json(text.as_bytes(), "t").unwrap();
    let Json::Array(items) = &parsed else {
        panic!("not an array")
    };
    for (v, item) in values.iter().zip(items) {
        assert_eq!(*item, Json::Number(*v + 0.0), "{v:?}");
    }
}

#[test]
fn duplicate_keys_are_syntax_errors_with_line_and_column() {
    let e = load("{\"pixelhit_scene\": 1,\n \"root\": {\"x\": 1, \"x\": 2}}").unwrap_err();
    // The colon after the second "x" (the reader has looked at it when the key is checked).
    assert_eq!(location(&e), "line 2, column 22");
    assert!(e.to_string().contains("duplicate key \"x\""), "{e}");
}

fn sample_stage() -> (Stage, Vec<Query>) {
    let mut s = Stage::new();
    let root = s.root();
    s.set_name(root, "stage").unwrap();
    let a = s.add_container(root).unwrap();
    s.set_name(a, "a \"quoted\"").unwrap();
    s.set_x(a, 3.25).unwrap();
    s.set_rotation(a, 33.0).unwrap();
    s.set_scale_x(a, 0.0).unwrap(); // keeps its rotation through the file
    s.set_scale_y(a, 0.1).unwrap();
    s.add_graphic(
        a,
        Graphic::fill(
            Path::from_svg("M0,0 L40,0 L20,30 Z").unwrap(),
            FillRule::EvenOdd,
            0.3,
        )
        .unwrap(),
    )
    .unwrap();
    s.add_graphic(
        a,
        Graphic::stroke(Path::from_svg("M0 0 C 10 20 30 40 0.1 0.7").unwrap(), 2.5, 1.0).unwrap(),
    )
    .unwrap();
    let b = s.add_container(a).unwrap();
    s.set_matrix(b, DAffine2::from_cols_array(&[1.3, 0.2, 0.1, 1.2, 1e-7, -4e20]))
        .unwrap();
    s.set_visible(b, false).unwrap();
    s.set_alpha(b, 0.7).unwrap();
    s.set_tolerance(b, Some(17)).unwrap();
    let c = s.add_container(b).unwrap();
    s.set_name(c, "c").unwrap();
    s.set_color_transform(
        c,
        ColorTransform::new([0.5, 1.0, 2.0, 1.5], [10.0, -20.0, 0.0, 0.3]),
    )
    .unwrap();
    s.add_graphic(
        c,
        Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let img = Bitmap::from_rgba8(3, 2, (0..24).map(|v| (v * 11) as u8).collect()).unwrap();
    let d = s.add_bitmap(root, img.clone(), true).unwrap();
    s.set_name(d, "d").unwrap();
    s.set_rotation(d, 90.0).unwrap();
    let e = s.add_bitmap(c, img.clone(), false).unwrap();
    s.set_name(e, "e").unwrap();
    // Values that serde_json's default float parser reads one unit in the last place off.
    let skew = s.add_container(root).unwrap();
    let m = [
        -1.638344060600543e-227,
        2.6104882325689648e-130,
        0.30000000000000004,
        1.0,
        1e22,
        -0.0,
    ];
    s.set_matrix(skew, DAffine2::from_cols_array(&m)).unwrap();
    let other = Bitmap::from_rgba8(1, 1, vec![1, 2, 3, 4]).unwrap();
    s.add_bitmap(root, other, false).unwrap();
    // Drawn by pygame: angles and scales as f32s that must read back bit for bit.
    for (k, t) in [
        PygameTransform::rotate(-33.3).flip(true, false),
        PygameTransform::rotozoom(721.1, 0.3)
            .flip(false, true)
            .flavour(PygameFlavour::PygameCe),
    ]
    .into_iter()
    .enumerate()
    {
        let rock = s.add_bitmap(root, img.clone(), k == 0).unwrap();
        s.set_bitmap_renderer(rock, Some(BitmapRenderer::Pygame(t)))
            .unwrap();
        s.set_position(rock, 5.0, 7.0 * k as f64).unwrap();
        s.set_name(rock, format!("rock{k}")).unwrap();
    }
    let queries = vec![
        Query::CollisionRect {
            a: "rock0".into(),
            b: "rock1".into(),
            parent: "stage".into(),
            precise: true,
            tolerance: 255,
            anti_alias: true,
            method: Method::Exact,
        },
        Query::CollisionRect {
            a: "c".into(),
            b: "d".into(),
            parent: "stage".into(),
            precise: false,
            tolerance: 7,
            anti_alias: false,
            method: Method::Exact,
        },
        Query::Bounds {
            object: "a \"quoted\"".into(),
            space: "stage".into(),
        },
        Query::TightBounds {
            object: "e".into(),
            space: "c".into(),
        },
        Query::HitTestPoint {
            object: "d".into(),
            x: 0.1,
            y: -1e-9,
            shape_flag: true,
        },
        Query::HitTestObject {
            a: "missing".into(),
            b: "d".into(),
        },
    ];
    (s, queries)
}

/// Every node's observable state, in paint order.
fn describe_tree(s: &Stage) -> Vec<String> {
    let mut out = Vec::new();
    s.walk(s.root(), |id, _| {
        let bitmap = s
            .bitmap(id)
            .unwrap()
            .map(|(b, sm)| (b.width(), b.height(), b.rgba().to_vec(), sm));
        out.push(format!(
            "{:?} {:?} {:?} {} {:?} {:?} {:?} {} {:?} {:?}",
            s.name(id).unwrap(),
            // -0 is written as 0 (the same number in every computation).
            s.matrix(id).unwrap().to_cols_array().map(|v| v + 0.0),
            (
                s.rotation(id).unwrap(),
                s.scale_x(id).unwrap(),
                s.scale_y(id).unwrap()
            ),
            s.visible(id).unwrap(),
            s.color_transform(id).unwrap().to_array(),
            s.graphics(id).unwrap(),
            bitmap,
            s.children(id).unwrap().len(),
            s.parent(id)
                .unwrap()
                .map(|p| s.name(p).unwrap().map(str::to_string)),
            s.tolerance(id).unwrap(),
        ));
        if bitmap.is_some() {
            out.push(format!("{:?}", s.bitmap_renderer(id).ok().flatten()));
        }
    });
    out
}

fn temp_dir(tag: &str) -> std::path::PathBuf {
    let dir = std::env::temp_dir().join(format!("pixelhit-scene-{tag}-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    dir
}

#[test]
fn save_then_load_gives_the_same_tree_and_answers() {
    let (stage, queries) = sample_stage();
    let scene = Scene::from_stage(stage, queries);
    let dir = temp_dir("roundtrip");
    let file = dir.join("level.json");
    scene.save(&file).unwrap();
    assert!(dir.join("level_0.png").exists());
    assert!(dir.join("level_1.png").exists());
    assert!(
        !dir.join("level_2.png").exists(),
        "a shared bitmap is written once"
    );
    let back = Scene::load(&file).unwrap();
    assert_eq!(describe_tree(&scene.stage), describe_tree(&back.stage));
    assert_eq!(scene.queries(), back.queries());
    for name in ["stage", "a \"quoted\"", "c", "d", "e"] {
        assert!(back.node(name).is_some(), "{name}");
    }
    for q in scene.queries() {
        let want = scene.run_query(q).map_err(|e| Scene::error_line(&e));
        let got = back.run_query(q).map_err(|e| Scene::error_line(&e));
        assert_eq!(want, got);
    }
    // Saving what was loaded writes the same text.
    let again = back.to_json("level.json").unwrap();
    assert_eq!(std::fs::read_to_string(&file).unwrap(), again);
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn saving_refuses_what_a_file_cannot_hold() {
    let mut s = Stage::new();
    let a = s.add_container(s.root()).unwrap();
    let b = s.add_container(s.root()).unwrap();
    s.set_name(a, "twin").unwrap();
    s.set_name(b, "twin").unwrap();
    let e = Scene::from_stage(s, vec![]).to_json("x.json").unwrap_err();
    assert_eq!(location(&e), "root.children[1].name");

    let mut s = Stage::new();
    let mut cur = s.root();
    for _ in 0..MAX_SAVE_DEPTH {
        cur = s.add_container(cur).unwrap();
    }
    s.add_graphic(
        cur,
        Graphic::fill(Path::rect(0.0, 0.0, 1.0, 1.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    s.set_alpha(cur, 0.5).unwrap();
    let scene = Scene::from_stage(s, vec![]);
    let text = scene.to_json("deep.json").unwrap();
    let back = load(&text).unwrap();
    assert_eq!(describe_tree(&scene.stage), describe_tree(&back.stage));
    let mut s = scene.stage;
    s.add_container(cur).unwrap();
    assert!(Scene::from_stage(s, vec![]).to_json("deep.json").is_err());
}

#[test]
fn alpha_and_colour_transform_multiply() {
    let scene = load(
        r#"{"pixelhit_scene": 1, "root": {"children": [
            {"name": "n", "alpha": 0.5, "color_transform": {"alpha_multiplier": 0.5, "red_offset": 10}}]}}"#,
    )
    .unwrap();
    let n = scene.node("n").unwrap();
    let ct = scene.stage.color_transform(n).unwrap();
    assert_eq!(
        ct,
        ColorTransform::new([1.0, 1.0, 1.0, 0.25], [10.0, 0.0, 0.0, 0.0])
    );
}

#[test]
fn errors_name_the_field_path() {
    let cases = [
        (
            r#"{"pixelhit_scene": 1, "root": {"children": [{}, {"matrix": [1, 0, 0, 1, 0]}]}}"#,
            "root.children[1].matrix",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"matrix": [1, 0, 0, "1", 0, 0]}}"#,
            "root.matrix[3]",
        ),
        (r#"{"pixelhit_scene": 1, "root": {"x": true}}"#, "root.x"),
        (
            r#"{"pixelhit_scene": 1, "root": {"tolerance": 256}}"#,
            "root.tolerance",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"children": [{"graphics": [{"fill": "M0 0 L1 1"}, {"fill": "M0 0 Q"}]}]}}"#,
            "root.children[0].graphics[1].fill",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"graphics": [{"stroke": "M0 0 L1 1"}]}}"#,
            "root.graphics[0].width",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"graphics": [{"stroke": "M0 0 L1 1", "width": -1}]}}"#,
            "root.graphics[0].width",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"graphics": [{"fill": "M0 0 L1 1", "stroke": "M0 0"}]}}"#,
            "root.graphics[0].stroke",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"graphics": [{"alpha": 1}]}}"#,
            "root.graphics[0]",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"color_transform": {"red": 1}}}"#,
            "root.color_transform.red",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {"bitmap": {"png": "x.png"}}}"#,
            "root.bitmap",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {}, "queries": [{"bounds": {"object": "a"}}]}"#,
            "queries[0].bounds.space",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {}, "queries": [{}]}"#,
            "queries[0]",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {}, "queries": [{"hit_test_point": {"object": "a", "x": 1, "y": null}}]}"#,
            "queries[0].hit_test_point.y",
        ),
        (
            r#"{"pixelhit_scene": 1, "root": {}, "queries": [{"collision_rect": {"a": "a", "b": "b", "parent": "p", "tolerance": -1}}]}"#,
            "queries[0].collision_rect.tolerance",
        ),
        (r#"{"pixelhit_scene": 1}"#, "root"),
        (r#"{"root": {}}"#, "pixelhit_scene"),
        (r#"[1]"#, "top level"),
    ];
    for (text, want) in cases {
        let e = load(text).unwrap_err();
        assert_eq!(location(&e), want, "{text}: {e}");
    }
}

#[test]
fn bitmap_svg_and_frames_objects_are_leaves() {
    let cases = [
        (
            r#"{"children": [{"bitmap": {"png": "x.png"}, "children": []}]}"#,
            "root.children[0].bitmap",
            "an object with `bitmap` cannot have `children`",
        ),
        (
            r#"{"children": [{"svg": "x.svg", "graphics": [], "bitmap": {"png": "x.png"}}]}"#,
            "root.children[0].bitmap",
            "an object with `bitmap` cannot have `graphics`",
        ),
        (
            r#"{"children": [{"svg": "x.svg", "bitmap": {"png": "x.png"}}]}"#,
            "root.children[0].svg",
            "an object with `svg` cannot have `bitmap`",
        ),
        (
            r#"{"svg": "x.svg"}"#,
            "root.svg",
            "the root cannot be an svg object; give it a child",
        ),
        (
            r#"{"children": [{"frames": [], "svg": "x.svg"}]}"#,
            "root.children[0].frames",
            "an object with `frames` cannot have `svg`",
        ),
        (
            r#"{"frames": []}"#,
            "root.frames",
            "the root is a container; it cannot have frames",
        ),
        (
            r#"{"children": [{"frame": 0}]}"#,
            "root.children[0].frame",
            "`frame` needs `frames`",
        ),
    ];
    for (root, want_at, want_why) in cases {
        let text = format!(r#"{{"pixelhit_scene": 1, "root": {root}}}"#);
        match load(&text) {
            Err(Error::Scene { location, reason, .. }) => {
                assert_eq!(
                    (location.as_str(), reason.as_str()),
                    (want_at, want_why),
                    "{text}"
                );
            }
            other => panic!("{text}: {other:?}"),
        }
    }
}

#[test]
fn query_errors_come_from_running_not_loading() {
    let scene = load(
        r#"{"pixelhit_scene": 1, "root": {"name": "r", "children": [{"name": "a"}]},
            "queries": [{"hit_test_object": {"a": "a", "b": "nobody"}},
                        {"collision_rect": {"a": "r", "b": "a", "parent": "a"}}]}"#,
    )
    .unwrap();
    let lines: Vec<String> = scene
        .queries()
        .iter()
        .map(|q| scene.run_query(q).unwrap_or_else(|e| Scene::error_line(&e)))
        .collect();
    assert_eq!(
        lines[0],
        r#"{"error": "hit_test_object.b: no object named \"nobody\""}"#
    );
    assert!(lines[1].starts_with(r#"{"error": "#), "{}", lines[1]);
    assert!(lines[1].contains("\\\"r\\\" is not \\\"a\\\""), "{}", lines[1]);
}

#[test]
fn objects_showing_one_png_share_one_bitmap() {
    let dir = temp_dir("shared");
    let png = Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255])
        .unwrap()
        .to_png_bytes()
        .unwrap();
    std::fs::write(dir.join("p.png"), png).unwrap();
    let text = r#"{"pixelhit_scene": 1, "root": {"children": [
        {"name": "a", "bitmap": {"png": "p.png"}}, {"name": "b", "bitmap": {"png": "p.png", "smoothing": true}}]}}"#;
    let scene = Scene::from_json(text, "s.json", &dir).unwrap();
    let a = scene.stage.bitmap(scene.node("a").unwrap()).unwrap().unwrap();
    let b = scene.stage.bitmap(scene.node("b").unwrap()).unwrap().unwrap();
    assert!(a.0.ptr_eq(b.0));
    assert_eq!((a.1, b.1), (false, true));
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn query_defaults_follow_the_format() {
    let scene = load(
        "\u{FEFF}{\"pixelhit_scene\": 1.0, \"root\": {}, \"queries\": [
           {\"collision_rect\": {\"a\": \"x\", \"b\": \"y\", \"parent\": \"z\", \"tolerance\": 3.0}},
           {\"hit_test_point\": {\"object\": \"x\", \"x\": 1, \"y\": 2}}]}",
    )
    .unwrap();
    assert_eq!(
        scene.queries(),
        [
            Query::CollisionRect {
                a: "x".into(),
                b: "y".into(),
                parent: "z".into(),
                precise: true,
                tolerance: 3,
                anti_alias: true,
                method: Method::Exact,
            },
            Query::HitTestPoint {
                object: "x".into(),
                x: 1.0,
                y: 2.0,
                shape_flag: false,
            },
        ]
    );
}

#[test]
fn a_bitmap_renderer_is_read_with_errors_at_its_fields() {
    let dir = temp_dir("renderer");
    let img = Bitmap::from_rgba8(4, 2, vec![255; 32]).unwrap();
    let png = dir.join("rock.png");
    image::RgbaImage::from_raw(4, 2, img.rgba().to_vec())
        .unwrap()
        .save(&png)
        .unwrap();
    let scene = |renderer: &str| {
        let text = format!(
            r#"{{"pixelhit_scene": 1, "root": {{"children": [{{"name": "rock", "x": 3, "y": 4, "bitmap": {{"png": "rock.png", "renderer": {renderer}}}}}]}}}}"#
        );
        Scene::from_json(&text, "t.json", &dir)
    };
    let ok =
        scene(r#"{"pygame": "rotozoom", "angle": 90, "scale": 2, "flip_x": true, "flavour": "pygame-ce"}"#)
            .unwrap();
    let rock = ok.node("rock").unwrap();
    let want = PygameTransform::rotozoom(90.0, 2.0)
        .flip(true, false)
        .flavour(PygameFlavour::PygameCe);
    assert_eq!(
        ok.stage.bitmap_renderer(rock).unwrap(),
        Some(BitmapRenderer::Pygame(want))
    );
    // The turned, doubled surface at the object's x, y (SDL_gfx's size for 90 degrees is
    // 6 x 8, not 4 x 8: its sine and cosine are not exact).
    let b = ok.stage.bounds(rock, ok.stage.root()).unwrap().unwrap();
    assert_eq!(want.output_size(4, 2), (6, 8));
    assert_eq!((b.left(), b.top(), b.width(), b.height()), (3.0, 4.0, 6.0, 8.0));
    let plain = scene(r#"{"pygame": "rotate", "angle": -45.5}"#).unwrap();
    let t = PygameTransform::rotate(-45.5);
    assert_eq!(
        plain.stage.bitmap_renderer(plain.node("rock").unwrap()).unwrap(),
        Some(BitmapRenderer::Pygame(t))
    );
    let at = "root.children[0].bitmap.renderer";
    for (renderer, field, words) in [
        (
            r#"{"pygame": "spin", "angle": 1}"#,
            "pygame",
            "expected \"rotate\" or \"rotozoom\"",
        ),
        (r#"{"angle": 1}"#, "pygame", "missing"),
        (r#"{"pygame": "rotate"}"#, "angle", "missing"),
        (
            r#"{"pygame": "rotate", "angle": "1"}"#,
            "angle",
            "expected a number",
        ),
        (r#"{"pygame": "rotate", "angle": 1e9}"#, "angle", "outside"),
        (
            r#"{"pygame": "rotate", "angle": 1, "scale": 2}"#,
            "scale",
            "only \"rotozoom\"",
        ),
        (
            r#"{"pygame": "rotozoom", "angle": 1, "scale": 100}"#,
            "scale",
            "outside",
        ),
        (
            r#"{"pygame": "rotate", "angle": 1, "flip_x": 1}"#,
            "flip_x",
            "true or false",
        ),
        (
            r#"{"pygame": "rotate", "angle": 1, "flavour": "sdl"}"#,
            "flavour",
            "\"pygame-ce\"",
        ),
        (
            r#"{"pygame": "rotate", "angle": 1, "zoom": 2}"#,
            "zoom",
            "unknown field",
        ),
    ] {
        let err = scene(renderer).unwrap_err();
        assert_eq!(location(&err), format!("{at}.{field}"), "{renderer}: {err}");
        assert!(err.to_string().contains(words), "{renderer}: {err}");
    }
    // Frames have no renderer.
    let text = r#"{"pixelhit_scene": 1, "root": {"children": [{"frames": [{"bitmap": {"png": "rock.png", "renderer": {"pygame": "rotate", "angle": 1}}}]}]}}"#;
    let err = Scene::from_json(text, "t.json", &dir).unwrap_err();
    assert_eq!(location(&err), "root.children[0].frames[0].bitmap.renderer");
    let _ = std::fs::remove_dir_all(&dir);
}
