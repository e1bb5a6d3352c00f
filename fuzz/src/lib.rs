//! The fuzz harnesses of pixelhit: one function per target, each taking the fuzzer's bytes.
//!
//! They panic only when pixelhit breaks a promise (a panic inside pixelhit, a broken tree,
//! an answer that contradicts another), so every crash the fuzzer finds is a bug. The
//! binaries in `src/bin` run them under `cargo afl`; `tests/integration/fuzz_regressions.rs` of the
//! main crate includes this file and replays every crash ever found.

use pixelhit::{
    Bitmap, CollisionOptions, ColorTransform, DAffine2, DVec2, FillRule, Graphic, ImageLimits, NodeId, Path,
    Query, Scene, SceneLimits, Stage,
};

/// Pixel budget of the precise queries run here: enough for small scenes, small enough
/// that one input never takes long.
const BUDGET: u64 = 1 << 16;

/// Loads the bytes as a scene file; a scene that loads must answer every query (or give an
/// error), save, and load back to the same answers.
pub fn scene(data: &[u8]) {
    let limits = SceneLimits::default()
        .max_file_bytes(1 << 20)
        .images(small_images());
    let dir = std::path::Path::new("/nonexistent-pixelhit-fuzz");
    let Ok(scene) = Scene::from_bytes(data, "fuzz.json", dir, &limits) else {
        return;
    };
    let answers: Vec<String> = scene.queries().iter().map(|q| answer(&scene, q)).collect();
    check_tree(&scene.stage);
    // A scene with no bitmap saves to text that loads back to the same answers.
    let has_bitmap = all_nodes(&scene.stage)
        .iter()
        .any(|&id| matches!(scene.stage.bitmap(id), Ok(Some(_))));
    if let (Ok(text), false) = (scene.to_json("fuzz.json"), has_bitmap) {
        let back = Scene::from_json(&text, "fuzz.json", dir).expect("a saved scene loads");
        assert_eq!(back.stage.len(), scene.stage.len());
        let again: Vec<String> = back.queries().iter().map(|q| answer(&back, q)).collect();
        assert_eq!(answers, again, "answers changed through save and load:\n{text}");
    }
}

/// A query's output line, with a small pixel budget for precise collisions.
fn answer(scene: &Scene, q: &Query) -> String {
    if let Query::CollisionRect {
        a,
        b,
        parent,
        precise,
        tolerance,
        anti_alias,
        ..
    } = q
    {
        let (Some(a), Some(b), Some(p)) = (scene.node(a), scene.node(b), scene.node(parent)) else {
            return "unknown name".into();
        };
        let opts = CollisionOptions::default()
            .precise(*precise)
            .tolerance(*tolerance)
            .anti_alias(*anti_alias)
            .max_pixels(BUDGET);
        return format!("{:?}", scene.stage.collision(a, b, p, &opts));
    }
    scene.run_query(q).unwrap_or_else(|e| Scene::error_line(&e))
}

/// Parses the bytes as SVG path data; a path that parses prints and parses back to the
/// same path, and can be measured, drawn and hit.
pub fn path(data: &[u8]) {
    let Ok(text) = std::str::from_utf8(data) else {
        return;
    };
    let Ok(p) = Path::from_svg(text) else {
        return;
    };
    let svg = p.to_svg();
    let back = Path::from_svg(&svg).expect("printed path data parses");
    assert_eq!(back.to_svg(), svg, "printing is not stable for {text:?}");
    let _ = p.bounds(DAffine2::IDENTITY);
    let mut stage = Stage::new();
    let root = stage.root();
    let (Ok(a), Ok(b)) = (stage.add_container(root), stage.add_container(root)) else {
        unreachable!("the root is a container")
    };
    if let Ok(g) = Graphic::fill(p.clone(), FillRule::EvenOdd, 1.0) {
        let _ = stage.add_graphic(a, g);
    }
    if let Ok(g) = Graphic::stroke(p, 3.0, 0.5) {
        let _ = stage.add_graphic(b, g);
    }
    let _ = stage.hit_test_point(a, 1.0, 1.0, true);
    let _ = stage.hit_test_point(b, 0.5, 0.5, true);
    let _ = stage.tight_bounds(a, root);
    collide_both_ways(&stage, a, b, root);
}

/// Decodes the bytes as PNG under small limits; an image that decodes has the size it
/// claims and survives encoding.
pub fn png(data: &[u8]) {
    let Ok(b) = Bitmap::decode_png(data, "fuzz.png", &small_images()) else {
        return;
    };
    assert_eq!(b.rgba().len(), 4 * b.width() as usize * b.height() as usize);
    let again = Bitmap::from_png_bytes(&b.to_png_bytes().expect("a decoded image encodes"))
        .expect("an encoded image decodes");
    assert_eq!(again.rgba(), b.rgba());
}

fn small_images() -> ImageLimits {
    ImageLimits {
        max_width: 1024,
        max_height: 1024,
        max_bytes: 4 << 20,
    }
}

/// Reads the fuzzer's bytes as decisions.
struct Bytes<'a>(&'a [u8]);

impl Bytes<'_> {
    fn byte(&mut self) -> u8 {
        let (&b, rest) = self.0.split_first().unwrap_or((&0, &[]));
        self.0 = rest;
        b
    }
    fn is_empty(&self) -> bool {
        self.0.is_empty()
    }
    /// A number from a small table of ordinary and extreme values.
    fn number(&mut self) -> f64 {
        const TABLE: [f64; 24] = [
            0.0,
            -0.0,
            1.0,
            -1.0,
            0.5,
            2.0,
            3.0,
            10.0,
            -7.25,
            45.0,
            90.0,
            33.0,
            1e-9,
            1e-300,
            1e7,
            -1e7,
            1e15,
            1e200,
            -1e300,
            1e308,
            f64::MAX,
            f64::MIN_POSITIVE,
            f64::NAN,
            f64::INFINITY,
        ];
        let b = self.byte();
        match TABLE.get(usize::from(b % 32)) {
            Some(&v) => v,
            None => f64::from(self.byte()) / 8.0 - 16.0,
        }
    }
    fn pick<T: Copy>(&mut self, items: &[T]) -> Option<T> {
        if items.is_empty() {
            return None;
        }
        items.get(usize::from(self.byte()) % items.len()).copied()
    }
}

/// Builds a small random tree from the bytes, changes it with every kind of call (bad
/// ones included) and runs every query on it. Errors are fine; the tree must stay valid
/// after each call, and answers must agree with each other.
pub fn tree(data: &[u8]) {
    let mut r = Bytes(data);
    let mut stage = Stage::new();
    let mut ids = vec![stage.root()];
    let mut removed: Vec<NodeId> = Vec::new();
    let sprite = Bitmap::from_rgba8(
        3,
        2,
        (0u8..24).map(|v| if v % 4 == 3 { v * 10 } else { 9 }).collect(),
    )
    .expect("a valid bitmap");
    let mut steps = 0;
    while !r.is_empty() && steps < 64 {
        steps += 1;
        let Some(id) = r.pick(&ids) else { break };
        let len = stage.len();
        let result = match r.byte() % 16 {
            0 | 1 => stage.add_container(id).map(|n| ids.push(n)),
            2 => stage
                .add_bitmap(id, sprite.clone(), r.byte().is_multiple_of(2))
                .map(|n| ids.push(n)),
            3 => {
                let (x, y, w, h) = (r.number(), r.number(), r.number(), r.number());
                Graphic::fill(Path::rect(x, y, w, h), FillRule::NonZero, 1.0)
                    .and_then(|g| stage.add_graphic(id, g))
            }
            4 => {
                let (x, y, radius) = (r.number(), r.number(), r.number());
                let alpha = r.number();
                Graphic::stroke(Path::circle(x, y, radius), 2.0, alpha).and_then(|g| stage.add_graphic(id, g))
            }
            5 => {
                let m = DAffine2::from_cols_array(&[
                    r.number(),
                    r.number(),
                    r.number(),
                    r.number(),
                    r.number(),
                    r.number(),
                ]);
                stage.set_matrix(id, m)
            }
            6 => stage.set_x(id, r.number()),
            7 => stage.set_rotation(id, r.number()),
            8 => stage.set_scale_x(id, r.number()),
            9 => stage.set_alpha(id, r.number()),
            10 => stage.set_visible(id, r.byte().is_multiple_of(2)),
            11 => {
                let ct = ColorTransform::new([r.number(), 1.0, 1.0, r.number()], [0.0, 0.0, 0.0, r.number()]);
                stage.set_color_transform(id, ct)
            }
            12 => match r.pick(&ids) {
                Some(to) => stage.set_parent(id, to),
                None => Ok(()),
            },
            13 => {
                let before = all_nodes(&stage);
                let res = stage.remove(id);
                if res.is_ok() {
                    // The whole subtree went with it.
                    let after = all_nodes(&stage);
                    removed.extend(before.into_iter().filter(|n| !after.contains(n)));
                    ids.retain(|n| stage.contains(*n));
                }
                res
            }
            14 => match r.pick(&removed) {
                // Stale ids are refused and change nothing.
                Some(stale) => {
                    assert!(stage.x(stale).is_err());
                    assert!(stage.set_x(stale, 1.0).is_err());
                    assert!(stage.add_container(stale).is_err());
                    assert!(stage.remove(stale).is_err());
                    Ok(())
                }
                None => Ok(()),
            },
            _ => {
                queries(&stage, &mut r, &ids);
                Ok(())
            }
        };
        if result.is_err() {
            assert_eq!(stage.len(), len, "a failed call changed the number of nodes");
        }
        check_tree(&stage);
    }
    queries(&stage, &mut r, &ids);
}

/// Runs every query on nodes picked from `ids`.
fn queries(stage: &Stage, r: &mut Bytes, ids: &[NodeId]) {
    let (Some(a), Some(b), Some(p)) = (r.pick(ids), r.pick(ids), r.pick(ids)) else {
        return;
    };
    let _ = stage.bounds(a, p);
    let _ = stage.rect(a, p);
    let _ = stage.tight_bounds(a, p);
    let _ = stage.matrix_to(a, p);
    let _ = stage.global_to_local(a, DVec2::new(r.number(), r.number()));
    let _ = stage.hit_test_point(a, r.number(), r.number(), r.byte().is_multiple_of(2));
    let ab = stage.hit_test_object(a, b);
    let ba = stage.hit_test_object(b, a);
    assert_eq!(ab.is_ok(), ba.is_ok());
    if let (Ok(x), Ok(y)) = (ab, ba) {
        assert_eq!(x, y, "hit_test_object is not symmetric");
    }
    collide_both_ways(stage, a, b, p);
}

/// A collision and the same with the targets swapped: same answer (or both errors); a
/// precise answer lies within the bounds' intersection and counts no more pixels than its
/// rectangle holds.
fn collide_both_ways(stage: &Stage, a: NodeId, b: NodeId, parent: NodeId) {
    let opts = CollisionOptions::default().max_pixels(BUDGET);
    let ab = stage.collision(a, b, parent, &opts);
    let ba = stage.collision(b, a, parent, &opts);
    match (&ab, &ba) {
        (Ok(x), Ok(y)) => assert_eq!(x, y, "collision is not symmetric"),
        (Err(_), Err(_)) => {}
        _ => panic!("collision fails one way only: {ab:?} / {ba:?}"),
    }
    let Ok(c) = ab else { return };
    if let (Some(r), Some(n)) = (c.rect, c.overlap_pixels) {
        assert!(
            n >= 1 && n as f64 <= r.width() * r.height(),
            "{n} pixels in {r:?}"
        );
        let loose = stage
            .collision(a, b, parent, &opts.precise(false))
            .expect("a precise query that answered also answers loosely");
        let l = loose
            .rect
            .expect("precise pixels lie inside the bounds' intersection");
        assert!(
            r.left() >= l.left().floor() && r.right() <= l.right().ceil(),
            "{r:?} is outside {l:?}"
        );
        assert!(
            r.top() >= l.top().floor() && r.bottom() <= l.bottom().ceil(),
            "{r:?} is outside {l:?}"
        );
    }
}

/// Every live node, reached from the root.
fn all_nodes(stage: &Stage) -> Vec<NodeId> {
    let mut out = Vec::new();
    let mut stack = vec![stage.root()];
    while let Some(id) = stack.pop() {
        out.push(id);
        stack.extend(stage.children(id).expect("a reachable node is live"));
    }
    out
}

/// The tree's invariants: every node reached once from the root, each child's parent is
/// the node that lists it, the root has no parent, and `len` counts exactly those nodes.
pub fn check_tree(stage: &Stage) {
    let root = stage.root();
    assert_eq!(stage.parent(root).expect("the root lives"), None);
    let nodes = all_nodes(stage);
    assert_eq!(nodes.len(), stage.len(), "len does not count the reachable nodes");
    let mut seen = std::collections::HashSet::new();
    for &id in &nodes {
        assert!(seen.insert(id), "node {id:?} is reached twice");
        for &c in stage.children(id).expect("live") {
            assert_eq!(
                stage.parent(c).expect("live"),
                Some(id),
                "child and parent disagree"
            );
        }
    }
}
