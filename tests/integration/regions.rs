//! Regions of a shared image (issue 32, part 1): a region of a sprite sheet, drawn as a
//! frame at its trim offset, answers every query exactly as the same pixels copied into a
//! bitmap of their own, drawn by a child node placed at that offset.
//!
//! The copies are made here from the sheet's raw bytes (row by row, by index), never through
//! the region's accessors, so a region reading the wrong texels cannot agree with them.

use glam::{DAffine2, DVec2};
use pixelhit::{
    Bitmap, BitmapHit, CollisionOptions, Frame, NodeId, PickOptions, PygameTransform, Rect, Stage,
};

use crate::common::Rng;

/// A random sheet: clear areas, opaque blobs, partial alpha and stray texels, so that
/// regions cut through runs of every kind.
fn sheet(rng: &mut Rng, w: u32, h: u32) -> Vec<u8> {
    let (cx, cy, r) = (
        rng.range(0.0, f64::from(w)),
        rng.range(0.0, f64::from(h)),
        rng.range(1.0, f64::from(w.max(h))),
    );
    let mut rgba = Vec::with_capacity(4 * (w * h) as usize);
    for j in 0..h {
        for i in 0..w {
            let d = ((f64::from(i) - cx).powi(2) + (f64::from(j) - cy).powi(2)).sqrt();
            let a = match rng.int(0, 9) {
                0 => rng.int(0, 255) as u8,
                1 => 0,
                _ if d < r => 255,
                _ if d < r + 1.5 => rng.int(1, 254) as u8,
                _ => 0,
            };
            rgba.extend([rng.int(0, 255) as u8, i as u8, j as u8, a]);
        }
    }
    rgba
}

/// The texels of `[x, x + w) x [y, y + h)` of a `sheet_w` wide sheet, copied by index.
fn copy_of(raw: &[u8], sheet_w: u32, [x, y, w, h]: [u32; 4]) -> Bitmap {
    let mut out = Vec::new();
    for j in y..y + h {
        for i in x..x + w {
            let k = 4 * (j * sheet_w + i) as usize;
            out.extend_from_slice(&raw[k..k + 4]);
        }
    }
    Bitmap::from_rgba8(w, h, out).unwrap()
}

/// A random rectangle inside a `w` x `h` image.
fn rect_in(rng: &mut Rng, w: u32, h: u32) -> [u32; 4] {
    let x = rng.int(0, i64::from(w) - 1) as u32;
    let y = rng.int(0, i64::from(h) - 1) as u32;
    let rw = rng.int(1, i64::from(w - x)) as u32;
    let rh = rng.int(1, i64::from(h - y)) as u32;
    [x, y, rw, rh]
}

fn pose(rng: &mut Rng) -> DAffine2 {
    let t = DVec2::new(rng.range(-4.0, 30.0), rng.range(-4.0, 30.0));
    match rng.int(0, 3) {
        // Whole-pixel positions: the cached-raster paths.
        0 => DAffine2::from_translation(t.round()),
        1 => DAffine2::from_translation(t),
        2 => {
            DAffine2::from_scale_angle_translation(DVec2::splat(rng.range(0.4, 2.5)), rng.range(-3.2, 3.2), t)
        }
        _ => DAffine2::from_cols_array(&[
            rng.range(-2.0, 2.0),
            rng.range(-1.0, 1.0),
            rng.range(-1.0, 1.0),
            rng.range(-2.0, 2.0),
            t.x,
            t.y,
        ]),
    }
}

/// One stage: a holder container at `m` showing `shown` (a frame at `offset` of a frames
/// node, or the copy in a child at `offset`), and a partner bitmap `other` at `other_m`.
/// Gives the stage, the holder and the partner.
struct Built {
    stage: Stage,
    holder: NodeId,
    other: NodeId,
}

fn build(
    as_frame: Option<&Bitmap>,
    copy: Option<&Bitmap>,
    offset: (i32, i32),
    smoothing: bool,
    m: DAffine2,
    other: (&Bitmap, DAffine2, bool),
) -> Built {
    let mut stage = Stage::new();
    let root = stage.root();
    let holder = stage.add_container(root).unwrap();
    stage.set_matrix(holder, m).unwrap();
    if let Some(region) = as_frame {
        // A first frame that is not shown, so the frame shown is not simply the first.
        let blank = Frame::bitmap(Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap(), false);
        let frame = Frame::Bitmap {
            bitmap: region.clone(),
            smoothing,
            offset,
        };
        let node = stage.add_frames(holder, vec![blank, frame]).unwrap();
        stage.set_frame(node, 1).unwrap();
    }
    if let Some(copy) = copy {
        let at = stage.add_container(holder).unwrap();
        // Content of the holder, as the frames node is: a hit on it picks the holder.
        stage.set_interactive(at, false).unwrap();
        stage.set_x(at, f64::from(offset.0)).unwrap();
        stage.set_y(at, f64::from(offset.1)).unwrap();
        stage.add_bitmap(at, copy.clone(), smoothing).unwrap();
    }
    let other_node = stage.add_bitmap(root, other.0.clone(), other.2).unwrap();
    stage.set_matrix(other_node, other.1).unwrap();
    Built {
        stage,
        holder,
        other: other_node,
    }
}

/// Everything the two stages answer, side by side.
fn compare(a: &Built, b: &Built, rng: &mut Rng, case: usize) -> u64 {
    let (sa, sb) = (&a.stage, &b.stage);
    let (ra, rb) = (sa.root(), sb.root());
    let mut solid = 0;
    assert_eq!(
        sa.bounds(a.holder, ra).unwrap(),
        sb.bounds(b.holder, rb).unwrap(),
        "case {case}"
    );
    for tolerance in [0u8, 127, 255] {
        for anti_alias in [true, false] {
            let opts = CollisionOptions::default()
                .tolerance(tolerance)
                .anti_alias(anti_alias);
            let ca = sa.collision(a.holder, a.other, ra, &opts).unwrap();
            let cb = sb.collision(b.holder, b.other, rb, &opts).unwrap();
            assert_eq!(
                ca, cb,
                "case {case}: tolerance {tolerance}, anti_alias {anti_alias}"
            );
            solid += ca.overlap_pixels.unwrap_or(0);
            let area = Rect::from_ltrb(-8.0, -8.0, 48.0, 48.0).unwrap();
            let pa = sa.alpha_plane(a.holder, ra, area, &opts).unwrap();
            let pb = sb.alpha_plane(b.holder, rb, area, &opts).unwrap();
            assert_eq!(
                pa.alpha(),
                pb.alpha(),
                "case {case}: alpha plane, anti_alias {anti_alias}"
            );
            solid += pa.alpha().iter().filter(|&&v| v > 0).count() as u64;
            let lines = pixelhit::OutlineOptions::default()
                .tolerance(tolerance)
                .anti_alias(anti_alias);
            let oa = sa.outline_with(a.holder, ra, &lines);
            let ob = sb.outline_with(b.holder, rb, &lines);
            assert_eq!(oa.unwrap(), ob.unwrap(), "case {case}: outline");
        }
    }
    for _ in 0..24 {
        let (x, y) = (rng.range(-6.0, 46.0), rng.range(-6.0, 46.0));
        for shape_flag in [true, false] {
            assert_eq!(
                sa.hit_test_point(a.holder, x, y, shape_flag).unwrap(),
                sb.hit_test_point(b.holder, x, y, shape_flag).unwrap(),
                "case {case}: hit test at ({x}, {y}), shape_flag {shape_flag}"
            );
        }
        for hit in [
            BitmapHit::Alpha { min: 1 },
            BitmapHit::Alpha { min: 128 },
            BitmapHit::Box,
        ] {
            let opts = PickOptions::default().bitmap_hit(hit);
            let pa = sa.pick(x, y, &opts).unwrap() == Some(a.holder);
            let pb = sb.pick(x, y, &opts).unwrap() == Some(b.holder);
            assert_eq!(pa, pb, "case {case}: pick at ({x}, {y}), {hit:?}");
        }
    }
    solid
}

#[test]
fn a_region_drawn_at_its_offset_answers_as_its_pixels_copied() {
    let mut rng = Rng::new(32);
    let (mut solid, mut offsets, mut nested) = (0, 0, 0);
    for case in 0..1500 {
        let (w, h) = (rng.int(2, 40) as u32, rng.int(2, 40) as u32);
        let raw = sheet(&mut rng, w, h);
        let sheet_bm = Bitmap::from_rgba8(w, h, raw.clone()).unwrap();
        let mut abs = rect_in(&mut rng, w, h);
        let mut region = sheet_bm.region(abs[0], abs[1], abs[2], abs[3]).unwrap();
        if rng.int(0, 3) == 0 {
            // A region of a region: its rectangle counts from the outer region's corner.
            let inner = rect_in(&mut rng, abs[2], abs[3]);
            region = region.region(inner[0], inner[1], inner[2], inner[3]).unwrap();
            abs = [abs[0] + inner[0], abs[1] + inner[1], inner[2], inner[3]];
            nested += 1;
        }
        let copy = copy_of(&raw, w, abs);
        assert_eq!(region, copy, "case {case}");
        let offset = match rng.int(0, 2) {
            0 => (0, 0),
            _ => (rng.int(-6, 12) as i32, rng.int(-6, 12) as i32),
        };
        offsets += usize::from(offset != (0, 0));
        let smoothing = rng.coin();
        let m = pose(&mut rng);
        let (ow, oh) = (rng.int(3, 24) as u32, rng.int(3, 24) as u32);
        let other_bm = Bitmap::from_rgba8(ow, oh, sheet(&mut rng, ow, oh)).unwrap();
        let other = (&other_bm, pose(&mut rng), rng.coin());
        let subject = build(Some(&region), None, offset, smoothing, m, other);
        let reference = build(None, Some(&copy), offset, smoothing, m, other);
        solid += compare(&subject, &reference, &mut rng, case);
    }
    // The cases must not all be empty, and must cover what they claim to.
    assert!(solid > 150_000, "{solid} solid pixels compared");
    assert!(
        offsets > 800 && nested > 250,
        "{offsets} offsets, {nested} nested"
    );
}

#[test]
fn a_region_reads_as_its_copy_through_every_accessor() {
    let mut rng = Rng::new(3201);
    for case in 0..300 {
        let (w, h) = (rng.int(1, 30) as u32, rng.int(1, 30) as u32);
        let raw = sheet(&mut rng, w, h);
        let sheet_bm = Bitmap::from_rgba8(w, h, raw.clone()).unwrap();
        let r = rect_in(&mut rng, w, h);
        let region = sheet_bm.region(r[0], r[1], r[2], r[3]).unwrap();
        let copy = copy_of(&raw, w, r);
        assert_eq!((region.width(), region.height()), (r[2], r[3]));
        assert_eq!(&*region.rgba(), &*copy.rgba(), "case {case}");
        for y in 0..=r[3] {
            assert_eq!(region.row(y), copy.row(y), "case {case}: row {y}");
            for x in 0..=r[2] {
                assert_eq!(region.pixel(x, y), copy.pixel(x, y), "case {case}: ({x}, {y})");
            }
        }
        let png = region.to_png_bytes().unwrap();
        assert_eq!(Bitmap::from_png_bytes(&png).unwrap(), copy, "case {case}: PNG");
        assert_eq!(format!("{region:?}"), format!("{copy:?}"));
        // pygame's renderers read the region in place too.
        let t = PygameTransform::rotozoom(rng.range(-180.0, 180.0), rng.range(0.3, 2.5));
        let (ow, oh) = t.output_size(r[2], r[3]);
        let (mut ra, mut rb) = (vec![0u8; ow as usize + 4], vec![0u8; ow as usize + 4]);
        for y in -1..=i64::from(oh) {
            t.alpha_row(&region, y, -2, &mut ra).unwrap();
            t.alpha_row(&copy, y, -2, &mut rb).unwrap();
            assert_eq!(ra, rb, "case {case}: pygame row {y}");
        }
    }
}

#[test]
fn regions_outside_or_empty_are_refused_with_the_rectangle() {
    let sheet = Bitmap::from_rgba8(8, 4, vec![255; 128]).unwrap();
    for (x, y, w, h) in [
        (0, 0, 9, 1),
        (7, 0, 2, 1),
        (0, 4, 1, 1),
        (0, 0, 0, 3),
        (u32::MAX, 0, 2, 1),
    ] {
        let e = sheet.region(x, y, w, h).unwrap_err();
        let text = e.to_string();
        assert!(matches!(e, pixelhit::Error::Image { .. }), "{text}");
        assert!(
            text.contains(&format!("({x}, {y})")) && text.contains("8x4"),
            "{text}"
        );
    }
    let inner = sheet.region(2, 1, 4, 2).unwrap();
    let e = inner.region(1, 0, 4, 2).unwrap_err().to_string();
    assert!(e.contains("4x2"), "a region's limits are its own: {e}");
}

fn atlas_dir() -> std::path::PathBuf {
    std::path::Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/data/atlas")
}

/// The frames every layout of tests/data/atlas describes: rectangle in hero.png (20 x 8)
/// and trim offset in the untrimmed 8 x 8 frame, in file order ("hero 8", "hero 9",
/// "hero 10": sorted by name, 10 would come first).
const HERO: [([u32; 4], (i32, i32)); 3] = [
    ([0, 0, 5, 6], (2, 1)),
    ([5, 0, 6, 7], (1, 1)),
    ([11, 0, 8, 8], (0, 0)),
];

fn scene_of(objects: &str, dir: &std::path::Path) -> pixelhit::Result<pixelhit::Scene> {
    let text = format!(r#"{{"pixelhit_scene": 1, "root": {{"name": "stage", "children": [{objects}]}}}}"#);
    pixelhit::Scene::from_json(&text, "t.json", dir)
}

#[test]
fn scene_files_load_the_frames_of_texturepacker_and_aseprite_atlases() {
    let sheet = Bitmap::from_png_file(atlas_dir().join("hero.png")).unwrap();
    let raw = sheet.rgba().into_owned();
    for layout in [
        "texturepacker_hash",
        "texturepacker_array",
        "aseprite_hash",
        "aseprite_array",
    ] {
        let scene = scene_of(
            &format!(
                r#"{{"name": "hero", "x": 3, "frames": {{"atlas": "{layout}.json", "smoothing": true}}}}"#
            ),
            &atlas_dir(),
        )
        .unwrap();
        let hero = scene.node("hero").unwrap();
        let mut stage = scene.stage;
        let frames = stage.frames(hero).unwrap().to_vec();
        assert_eq!(frames.len(), 3, "{layout}");
        for (k, (frame, (rect, offset))) in frames.into_iter().zip(HERO).enumerate() {
            let Frame::Bitmap {
                bitmap,
                smoothing,
                offset: o,
            } = frame
            else {
                panic!("{layout}: frame {k} is not a bitmap");
            };
            assert_eq!((o, smoothing), (offset, true), "{layout}: frame {k}");
            assert_eq!(bitmap, copy_of(&raw, 20, rect), "{layout}: frame {k}");
            // The node's origin is the untrimmed frame's corner: the trimmed pixels sit at
            // the trim offset from it.
            stage.set_frame(hero, k).unwrap();
            let [x, y, w, h] = rect.map(f64::from);
            let want = Rect::from_ltrb(
                3.0 + f64::from(offset.0),
                f64::from(offset.1),
                3.0 + f64::from(offset.0) + w,
                f64::from(offset.1) + h,
            );
            assert_eq!(
                stage.bounds(hero, stage.root()).unwrap(),
                want,
                "{layout}: frame {k} at ({x}, {y})"
            );
        }
    }
    // `names` picks frames in its own order.
    let scene = scene_of(
        r#"{"name": "hero", "frames": {"atlas": "aseprite_hash.json", "names": ["hero 10.aseprite", "hero 8.aseprite"]}, "frame": 1}"#,
        &atlas_dir(),
    )
    .unwrap();
    let hero = scene.node("hero").unwrap();
    let frames = scene.stage.frames(hero).unwrap();
    assert!(matches!(&frames[0], Frame::Bitmap { offset: (0, 0), bitmap, .. } if bitmap.width() == 8));
    assert!(matches!(&frames[1], Frame::Bitmap { offset: (2, 1), bitmap, .. } if bitmap.width() == 5));
    assert_eq!(scene.stage.frame(hero).unwrap(), Some(1));
    // `tag` picks an Aseprite animation.
    let scene = scene_of(
        r#"{"name": "hero", "frames": {"atlas": "aseprite_array.json", "tag": "fall"}}"#,
        &atlas_dir(),
    )
    .unwrap();
    let frames = scene.stage.frames(scene.node("hero").unwrap()).unwrap();
    assert!(matches!(frames, [Frame::Bitmap { offset: (0, 0), bitmap, .. }] if bitmap.width() == 8));
}

#[test]
fn a_saved_atlas_scene_keeps_one_sheet_and_each_frames_region() {
    let scene = scene_of(
        r#"{"name": "a", "frames": {"atlas": "texturepacker_hash.json"}, "frame": 1},
           {"name": "b", "x": 9, "frames": {"atlas": "aseprite_array.json"}},
           {"name": "c", "bitmap": {"png": "hero.png", "region": [5, 0, 6, 7]}}"#,
        &atlas_dir(),
    )
    .unwrap();
    let dir = std::env::temp_dir().join(format!("pixelhit-atlas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("saved.json");
    scene.save(&file).unwrap();
    let text = std::fs::read_to_string(&file).unwrap();
    let pngs = std::fs::read_dir(&dir)
        .unwrap()
        .filter(|e| e.as_ref().unwrap().path().extension().is_some_and(|x| x == "png"))
        .count();
    assert_eq!(pngs, 1, "one sheet for every frame: {text}");
    assert!(
        text.contains(r#""region": [5, 0, 6, 7]}, "offset": [1, 1]"#),
        "{text}"
    );
    let again = pixelhit::Scene::load(&file).unwrap();
    for name in ["a", "b", "c"] {
        let (x, y) = (scene.node(name).unwrap(), again.node(name).unwrap());
        assert_eq!(
            scene.stage.frames(x).unwrap(),
            again.stage.frames(y).unwrap(),
            "{name}"
        );
        assert_eq!(
            scene.stage.bitmap(x).unwrap(),
            again.stage.bitmap(y).unwrap(),
            "{name}"
        );
        assert_eq!(
            scene.stage.frame(x).unwrap(),
            again.stage.frame(y).unwrap(),
            "{name}"
        );
    }
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn bad_atlases_are_scene_errors_at_the_field() {
    let dir = std::env::temp_dir().join(format!("pixelhit-bad-atlas-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    std::fs::copy(atlas_dir().join("hero.png"), dir.join("hero.png")).unwrap();
    let frame = |x: u32, extra: &str| {
        format!(
            r#"{{"frames": [{{"filename": "f", "frame": {{"x": {x}, "y": 0, "w": 5, "h": 6}}{extra}}}], "meta": {{"image": "hero.png"}}}}"#
        )
    };
    std::fs::write(dir.join("outside.json"), frame(18, "")).unwrap();
    std::fs::write(dir.join("inside.json"), frame(0, "")).unwrap();
    std::fs::write(dir.join("rotated.json"), frame(0, r#", "rotated": true"#)).unwrap();
    std::fs::write(dir.join("no_image.json"), r#"{"frames": [], "meta": {}}"#).unwrap();
    let cases = [
        (
            r#"{"atlas": "outside.json"}"#,
            "frames.atlas",
            "frames[0].frame: image bitmap region: the rectangle at (18, 0)",
        ),
        (
            r#"{"atlas": "rotated.json"}"#,
            "frames.atlas",
            "frames[0].rotated: rotated frames are not supported",
        ),
        (
            r#"{"atlas": "no_image.json"}"#,
            "frames.atlas",
            "meta.image: missing",
        ),
        (r#"{"atlas": "nothing.json"}"#, "frames.atlas", "nothing.json"),
        (
            r#"{"atlas": "inside.json", "names": ["g"]}"#,
            "frames.names[0]",
            "no frame named \"g\"",
        ),
        (
            r#"{"atlas": "inside.json", "name": ["g"]}"#,
            "frames.name",
            "unknown field",
        ),
        (
            r#"{"atlas": "inside.json", "tag": "run"}"#,
            "frames.tag",
            "no tag named \"run\" in",
        ),
        (
            r#"{"atlas": "inside.json", "tag": "run", "names": ["f"]}"#,
            "frames.tag",
            "not both",
        ),
    ];
    for (frames, location, reason) in cases {
        let e = scene_of(&format!(r#"{{"name": "x", "frames": {frames}}}"#), &dir).unwrap_err();
        let text = e.to_string();
        assert!(
            text.contains(&format!("root.children[0].{location}: ")),
            "{frames}: {text}"
        );
        assert!(text.contains(reason), "{frames}: {text}");
    }
    let e = scene_of(
        r#"{"name": "x", "bitmap": {"png": "hero.png", "region": [0, 0, 21, 1]}}"#,
        &dir,
    )
    .unwrap_err();
    assert!(
        e.to_string().contains("bitmap.region: image bitmap region"),
        "{e}"
    );
    let _ = std::fs::remove_dir_all(&dir);
}

#[test]
fn atlases_load_from_rust_as_they_do_in_scene_files() {
    let sheet = Bitmap::from_png_file(atlas_dir().join("hero.png")).unwrap();
    let raw = sheet.rgba().into_owned();
    for (layout, suffix) in [
        ("texturepacker_hash", ".png"),
        ("texturepacker_array", ".png"),
        ("aseprite_hash", ".aseprite"),
        ("aseprite_array", ".aseprite"),
    ] {
        let atlas = pixelhit::Atlas::from_file(atlas_dir().join(format!("{layout}.json"))).unwrap();
        assert_eq!(*atlas.sheet(), sheet, "{layout}");
        let names: Vec<String> = ["hero 8", "hero 9", "hero 10"]
            .map(|n| format!("{n}{suffix}"))
            .into();
        assert_eq!(atlas.names().collect::<Vec<_>>(), names, "{layout}");
        for (name, (rect, offset)) in names.iter().zip(HERO) {
            let want = Frame::Bitmap {
                bitmap: copy_of(&raw, 20, rect),
                smoothing: false,
                offset,
            };
            assert_eq!(atlas.frame(name), Some(&want), "{layout}: {name}");
        }
        assert_eq!(atlas.frames().len(), 3);
        // Aseprite's tags: "run" is every frame, "fall" the last.
        let tags: Vec<&str> = atlas.tag_names().collect();
        if suffix == ".aseprite" {
            assert_eq!(tags, ["run", "fall"]);
            assert_eq!(atlas.tag("run"), Some(atlas.frames()));
            assert_eq!(atlas.tag("fall"), Some(atlas.frames()[2..].to_vec()));
        } else {
            assert!(tags.is_empty() && atlas.tag("run").is_none());
        }
    }
    // A frame outside the sheet given: the error names the file and the frame.
    let json = std::fs::read(atlas_dir().join("texturepacker_array.json")).unwrap();
    let small = sheet.region(0, 0, 12, 8).unwrap();
    let e = pixelhit::Atlas::from_json(&json, "tp.json", small)
        .unwrap_err()
        .to_string();
    assert!(
        e.starts_with("tp.json: frames[2].frame: ") && e.contains("12x8"),
        "{e}"
    );
}
