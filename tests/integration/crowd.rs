//! Many-object queries: every pair they report equals `collision` on that pair, no colliding
//! pair is ever missed (checked against all pairs over thousands of random moving frames),
//! and the contact details agree with the overlap.

use pixelhit::{Bitmap, CollisionOptions, DAffine2, DVec2, FillRule, Frame, Graphic, NodeId, Path, Stage};

struct Rng(u64);

impl Rng {
    fn f(&mut self) -> f64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        ((self.0 ^ (self.0 >> 29)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }
}

fn star(rng: &mut Rng) -> Path {
    let n = 5 + (rng.f() * 4.0) as usize;
    let r = rng.range(6.0, 20.0);
    let pts: Vec<DVec2> = (0..2 * n)
        .map(|i| {
            let a = std::f64::consts::PI * i as f64 / n as f64;
            let rr = if i % 2 == 0 { r } else { r * 0.5 };
            DVec2::new(rr * a.cos(), rr * a.sin())
        })
        .collect();
    Path::polygon(&pts)
}

fn disc_bitmap(size: u32) -> Bitmap {
    let c = f64::from(size) / 2.0;
    let rgba = (0..size * size)
        .flat_map(|i| {
            let (x, y) = (f64::from(i % size) + 0.5 - c, f64::from(i / size) + 0.5 - c);
            [1, 2, 3, if x * x + y * y < c * c { 255 } else { 0 }]
        })
        .collect();
    Bitmap::from_rgba8(size, size, rgba).unwrap()
}

fn crowd(rng: &mut Rng, n: usize) -> (Stage, NodeId, Vec<NodeId>) {
    let mut stage = Stage::new();
    let root = stage.root();
    let world = stage.add_container(root).unwrap();
    let disc = disc_bitmap(24);
    let mut sprites = Vec::new();
    for i in 0..n {
        let s = if i % 2 == 0 {
            stage.add_bitmap(world, disc.clone(), false).unwrap()
        } else {
            let c = stage.add_container(world).unwrap();
            stage
                .add_graphic(c, Graphic::fill(star(rng), FillRule::NonZero, 1.0).unwrap())
                .unwrap();
            c
        };
        stage.set_x(s, rng.range(0.0, 200.0)).unwrap();
        stage.set_y(s, rng.range(0.0, 200.0)).unwrap();
        stage.set_rotation(s, rng.range(0.0, 360.0)).unwrap();
        sprites.push(s);
    }
    (stage, world, sprites)
}

#[test]
fn group_queries_match_every_pair() {
    let mut rng = Rng(42);
    let (mut found, mut frames) = (0usize, 0usize);
    for round in 0..40 {
        let (mut stage, world, sprites) = crowd(&mut rng, 40);
        let opts = CollisionOptions::default()
            .tolerance(if round % 3 == 0 { 128 } else { 255 })
            .anti_alias(round % 2 == 0);
        for _ in 0..50 {
            // Everyone moves a little, by whole or fractional pixels.
            for &s in &sprites {
                let whole = rng.f() < 0.5;
                let (dx, dy) = (rng.range(-3.0, 3.0), rng.range(-3.0, 3.0));
                let (dx, dy) = if whole { (dx.round(), dy.round()) } else { (dx, dy) };
                stage.set_x(s, stage.x(s).unwrap() + dx).unwrap();
                stage.set_y(s, stage.y(s).unwrap() + dy).unwrap();
            }
            let contacts = stage.contacts_among(&sprites, world, &opts).unwrap();
            let mut want = Vec::new();
            for i in 0..sprites.len() {
                for j in i + 1..sprites.len() {
                    let c = stage.collision(sprites[i], sprites[j], world, &opts).unwrap();
                    if let Some(rect) = c.rect {
                        want.push((sprites[i], sprites[j], rect, c.overlap_pixels));
                    }
                }
            }
            let got: Vec<_> = contacts
                .iter()
                .map(|c| (c.a, c.b, c.rect, c.overlap_pixels))
                .collect();
            assert_eq!(got, want);
            found += got.len();
            frames += 1;
            // One against the list gives the same pairs as the group for that sprite.
            let me = sprites[3];
            let mine: Vec<_> = stage
                .contacts_against(me, &sprites, world, &opts)
                .unwrap()
                .iter()
                .map(|c| (c.b, c.rect))
                .collect();
            let from_group: Vec<_> = want
                .iter()
                .filter_map(|&(a, b, r, _)| match (a == me, b == me) {
                    (true, _) => Some((b, r)),
                    (_, true) => Some((a, r)),
                    _ => None,
                })
                .collect();
            let mut sorted = from_group.clone();
            sorted.sort_by_key(|(o, _)| sprites.iter().position(|s| s == o));
            assert_eq!(mine, sorted);
        }
    }
    assert!(
        found > frames,
        "the crowds must collide: {found} contacts in {frames} frames"
    );
}

#[test]
fn details_describe_the_overlap() {
    let mut rng = Rng(7);
    let (stage, world, sprites) = crowd(&mut rng, 60);
    let opts = CollisionOptions::default();
    let contacts = stage
        .contacts_among(&sprites, world, &opts.details(true))
        .unwrap();
    assert!(!contacts.is_empty());
    for c in &contacts {
        let d = c.details.as_ref().unwrap();
        assert_eq!(Some(d.mask.count()), c.overlap_pixels);
        assert_eq!(
            (
                d.mask.x(),
                d.mask.y(),
                d.mask.width() as f64,
                d.mask.height() as f64
            ),
            (
                c.rect.x() as i64,
                c.rect.y() as i64,
                c.rect.width(),
                c.rect.height()
            )
        );
        assert!(d.mask.contains(d.first.0, d.first.1));
        // Row-major first: nothing earlier in the mask.
        for y in d.mask.y()..=d.first.1 {
            for x in d.mask.x()..d.mask.x() + d.mask.width() as i64 {
                if (y, x) < (d.first.1, d.first.0) {
                    assert!(!d.mask.contains(x, y));
                }
            }
        }
        assert!(c.rect.contains(d.centroid));
        let len = d.normal.length();
        assert!(len == 0.0 || (len - 1.0).abs() < 1e-9);
    }
}

#[test]
fn the_normal_points_from_a_into_b() {
    let mut stage = Stage::new();
    let root = stage.root();
    let square = |stage: &mut Stage, x: f64, y: f64| {
        let n = stage.add_container(root).unwrap();
        stage
            .add_graphic(
                n,
                Graphic::fill(Path::rect(0.0, 0.0, 20.0, 20.0), FillRule::NonZero, 1.0).unwrap(),
            )
            .unwrap();
        stage
            .set_matrix(n, DAffine2::from_translation(DVec2::new(x, y)))
            .unwrap();
        n
    };
    let a = square(&mut stage, 0.0, 0.0);
    let right = square(&mut stage, 17.0, 1.0);
    let below = square(&mut stage, 2.0, 16.0);
    let opts = CollisionOptions::default();
    let to_right = stage
        .contacts_among(&[a, right], root, &opts.details(true))
        .unwrap();
    let n = to_right[0].normal().expect("details");
    assert!(n.x > 0.9, "{n:?}");
    let to_below = stage
        .contacts_among(&[a, below], root, &opts.details(true))
        .unwrap();
    let n = to_below[0].normal().expect("details");
    assert!(n.y > 0.9, "{n:?}");
}

#[test]
fn animated_sprites_collide_with_the_frame_shown() {
    let mut stage = Stage::new();
    let root = stage.root();
    let small = Graphic::fill(Path::rect(0.0, 0.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap();
    let wide = Graphic::fill(Path::rect(0.0, 0.0, 30.0, 4.0), FillRule::NonZero, 1.0).unwrap();
    let anim = stage
        .add_frames(
            root,
            vec![
                Frame::Graphics(vec![small]),
                Frame::Graphics(vec![wide]),
                Frame::bitmap(disc_bitmap(30), false),
            ],
        )
        .unwrap();
    let wall = stage.add_container(root).unwrap();
    stage
        .add_graphic(
            wall,
            Graphic::fill(Path::rect(20.0, 0.0, 5.0, 40.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
    let opts = CollisionOptions::default();
    let hits = |stage: &Stage| stage.contacts_among(&[anim, wall], root, &opts).unwrap().len();
    assert_eq!(hits(&stage), 0);
    stage.set_frame(anim, 1).unwrap();
    assert_eq!(hits(&stage), 1);
    stage.set_frame(anim, 2).unwrap();
    assert_eq!(hits(&stage), 1);
    stage.set_frame(anim, 0).unwrap();
    assert_eq!(hits(&stage), 0);
    assert!(stage.set_frame(anim, 3).is_err());
    assert_eq!(stage.frame(anim).unwrap(), Some(0));
}

#[test]
fn scene_files_run_collisions_and_keep_frames() {
    let text = r#"{
      "pixelhit_scene": 1,
      "root": { "name": "stage", "children": [
        { "name": "world", "children": [
          { "name": "left", "graphics": [ { "fill": "M0,0 H10 V10 H0 Z" } ] },
          { "name": "anim", "x": 8, "frames": [
              { "graphics": [ { "fill": "M5,0 H6 V1 H5 Z" } ] },
              { "graphics": [ { "fill": "M0,0 H10 V10 H0 Z" } ] } ], "frame": 1 },
          { "name": "far", "x": 100, "graphics": [ { "fill": "M0,0 H10 V10 H0 Z" } ] } ] } ] },
      "queries": [
        { "contacts_among": { "parent": "world", "objects": "children" } },
        { "collisions": { "parent": "world", "objects": ["far", "anim", "left"], "details": true } },
        { "collisions": { "parent": "world", "objects": ["left", "nobody"] } }
      ]
    }"#;
    let scene = pixelhit::Scene::from_json(text, "t.json", std::path::Path::new(".")).unwrap();
    let lines: Vec<_> = scene.queries().iter().map(|q| scene.run_query(q)).collect();
    assert_eq!(
        lines[0].as_ref().unwrap(),
        r#"{"contacts_among": [{"a": "left", "b": "anim", "rect": [8, 0, 2, 10], "overlap_pixels": 20}]}"#
    );
    // Pairs come in tree order whatever the order of the list; details add three fields.
    // The query's former name, `collisions`, still runs (deprecated), answering under the
    // new one.
    assert_eq!(
        lines[1].as_ref().unwrap(),
        r#"{"contacts_among": [{"a": "left", "b": "anim", "rect": [8, 0, 2, 10], "overlap_pixels": 20, "centroid": [9, 5], "normal": [1, 0], "first": [8, 0]}]}"#
    );
    assert!(lines[2].is_err());
    // Saving keeps the frames and the frame shown.
    let dir = std::env::temp_dir().join(format!("pixelhit-crowd-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("frames.json");
    scene.save(&file).unwrap();
    // Saving writes the new name only.
    let saved = std::fs::read_to_string(&file).unwrap();
    assert_eq!(saved.matches("\"contacts_among\"").count(), 3, "{saved}");
    assert!(!saved.contains("\"collisions\""), "{saved}");
    let again = pixelhit::Scene::load(&file).unwrap();
    let anim = again.node("anim").unwrap();
    assert_eq!(again.stage.frame_count(anim).unwrap(), 2);
    assert_eq!(again.stage.frame(anim).unwrap(), Some(1));
    assert_eq!(
        again.run_query(&again.queries()[0]).unwrap(),
        *lines[0].as_ref().unwrap()
    );
    // Bad frames are refused where they are.
    let bad = text.replace(r#""frame": 1"#, r#""frame": 2"#);
    let e = pixelhit::Scene::from_json(&bad, "t.json", std::path::Path::new(".")).unwrap_err();
    assert!(e.to_string().contains("frame"), "{e}");
    let _ = std::fs::remove_dir_all(&dir);
}

/// `n` 4 x 4 squares placed by `at(k)`, and the world holding them.
fn lined_up(n: usize, at: impl Fn(usize) -> (f64, f64)) -> (Stage, NodeId, Vec<NodeId>) {
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let square = Path::rect(0.0, 0.0, 4.0, 4.0);
    let objects = (0..n)
        .map(|k| {
            let s = stage.add_container(world).unwrap();
            stage
                .add_graphic(s, Graphic::fill(square.clone(), FillRule::NonZero, 1.0).unwrap())
                .unwrap();
            let (x, y) = at(k);
            stage.set_x(s, x).unwrap();
            stage.set_y(s, y).unwrap();
            s
        })
        .collect();
    (stage, world, objects)
}

#[test]
fn a_hundred_thousand_objects_in_a_column_a_row_and_a_diagonal() {
    // Lined up across the sweep, a plain sweep and prune compares every box with every
    // other (5e9 comparisons: minutes); the broad phase's work follows the close pairs.
    let opts = CollisionOptions::default();
    let n = 100_000;
    for (layout, at) in [
        (
            "column",
            Box::new(|k: usize| (0.0, 5.0 * k as f64)) as Box<dyn Fn(usize) -> (f64, f64)>,
        ),
        ("row", Box::new(|k: usize| (5.0 * k as f64, 0.0))),
        ("diagonal", Box::new(|k: usize| (5.0 * k as f64, 5.0 * k as f64))),
    ] {
        let (stage, world, objects) = lined_up(n, at);
        let contacts = stage.contacts_among(&objects, world, &opts).unwrap();
        assert!(contacts.is_empty(), "{layout}: {} contacts", contacts.len());
    }
    // Neighbours overlapping by one pixel in a column: exactly the n - 1 neighbour pairs.
    let (stage, world, objects) = lined_up(n, |k| (0.0, 3.0 * k as f64));
    let contacts = stage.contacts_among(&objects, world, &opts).unwrap();
    assert_eq!(contacts.len(), n - 1);
    for (k, c) in contacts.iter().enumerate() {
        assert_eq!((c.a, c.b), (objects[k], objects[k + 1]));
        assert_eq!(c.overlap_pixels, Some(4));
    }
}

#[test]
fn too_many_close_pairs_are_refused_before_any_is_tested() {
    // 9,000 objects whose boxes all overlap (40 million close pairs) while no two touch:
    // each is two 1 px squares of its own, 1,000 px apart. Kept as results, such pairs
    // took 7 GB. Refused, naming the budget, before the narrow phase.
    let n = 9_000;
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let objects: Vec<NodeId> = (0..n)
        .map(|k| {
            let s = stage.add_container(world).unwrap();
            let (u, v) = (2.0 * (k % 100) as f64, 2.0 * (k / 100) as f64);
            for d in [0.0, 1000.0] {
                let dot = Path::rect(u + d, v + d, 1.0, 1.0);
                stage
                    .add_graphic(s, Graphic::fill(dot, FillRule::NonZero, 1.0).unwrap())
                    .unwrap();
            }
            s
        })
        .collect();
    let err = stage
        .contacts_among(&objects, world, &CollisionOptions::default())
        .unwrap_err();
    match &err {
        pixelhit::Error::WorkBudget { budget, work, .. } => {
            assert_eq!(*budget, pixelhit::MAX_CLOSE_PAIRS as u64);
            assert!(*work > u128::from(*budget));
        }
        other => panic!("expected the pair budget, got {other}"),
    }
    assert!(err.to_string().contains("9000 objects"), "{err}");
    // Within the budget, the same kind of crowd is answered: 1,000 rings, 499,500 pairs.
    let contacts = stage
        .contacts_among(
            &objects[..1000],
            world,
            &CollisionOptions::default().precise(false),
        )
        .unwrap();
    assert_eq!(contacts.len(), 1000 * 999 / 2);
}

#[test]
fn details_of_a_huge_overlap_are_held_to_the_dense_budget() {
    // Two 12,000 px squares overlapping by 10,000 x 10,000: details need both planes
    // around the overlap (2.5 GB and 67 s before). Refused; without details, answered.
    // The windows are over the default work budget of the whole call (`max_work`, 2^26
    // pixel tests), which refuses them first: raised here, so that the dense budget is
    // what is tested.
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let objects: Vec<NodeId> = [0.0, 2000.0]
        .iter()
        .map(|&at| {
            let s = stage.add_container(world).unwrap();
            let g = Graphic::fill(Path::rect(0.0, 0.0, 12_000.0, 12_000.0), FillRule::NonZero, 1.0).unwrap();
            stage.add_graphic(s, g).unwrap();
            stage.set_x(s, at).unwrap();
            stage.set_y(s, at).unwrap();
            s
        })
        .collect();
    let opts = CollisionOptions::default().max_work(u64::MAX);
    assert!(matches!(
        stage.contacts_among(&objects, world, &opts.details(true)),
        Err(pixelhit::Error::PixelBudget { .. })
    ));
    let contacts = stage.contacts_among(&objects, world, &opts).unwrap();
    assert_eq!(contacts[0].overlap_pixels, Some(10_000 * 10_000));
}
