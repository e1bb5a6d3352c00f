//! The calls a game loop makes (issue 14): one-call placement, groups, per-node tolerance,
//! hidden sprites, contact events, display-list editing and the per-query parallel switch,
//! each checked against a plain reference: pairwise `collision` calls, a model of the child
//! lists, exact pixel counts of rectangles, or the alpha planes of the targets.

use std::collections::HashSet;

use crate::common::{Rng, star};
use pixelhit::{
    CollisionOptions, ContactPhase, ContactTracker, DVec2, Error, FillRule, Graphic, Method, NodeId, Path,
    PickOptions, Rect, Stage, matrix_from_properties,
};

fn fill(stage: &mut Stage, parent: NodeId, path: Path, alpha: f64) -> NodeId {
    let n = stage.add_container(parent).unwrap();
    stage
        .add_graphic(n, Graphic::fill(path, FillRule::NonZero, alpha).unwrap())
        .unwrap();
    n
}

// ----- placement -----

#[test]
fn set_transform_builds_the_matrix_of_the_properties_and_reads_them_back() {
    let mut rng = Rng::new(1);
    let mut stage = Stage::new();
    let n = stage.add_container(stage.root()).unwrap();
    for _ in 0..2000 {
        let (x, y) = (rng.range(-1e4, 1e4), rng.range(-1e4, 1e4));
        let r = rng.range(-179.0, 179.0);
        let (sx, sy) = (rng.range(0.1, 5.0), rng.range(0.1, 5.0));
        stage.set_transform(n, x, y, r, sx, sy).unwrap();
        assert_eq!(stage.matrix(n).unwrap(), matrix_from_properties(x, y, r, sx, sy));
        assert_eq!(
            (
                stage.x(n).unwrap(),
                stage.y(n).unwrap(),
                stage.rotation(n).unwrap()
            ),
            (x, y, r)
        );
        assert_eq!((stage.scale_x(n).unwrap(), stage.scale_y(n).unwrap()), (sx, sy));
        // The same pose property by property.
        let m = stage.add_container(stage.root()).unwrap();
        stage.set_position(m, x, y).unwrap();
        stage.set_rotation(m, r).unwrap();
        stage.set_scale_x(m, sx).unwrap();
        stage.set_scale_y(m, sy).unwrap();
        assert_eq!(stage.matrix(m).unwrap(), stage.matrix(n).unwrap());
        stage.remove(m).unwrap();
    }
}

#[test]
fn set_position_moves_only_the_translation_and_set_scale_keeps_rotation_and_skew() {
    let mut rng = Rng::new(2);
    let mut stage = Stage::new();
    let n = stage.add_container(stage.root()).unwrap();
    for _ in 0..500 {
        let m = crate::common::random_matrix(&mut rng, (0.2, 3.0), true, DVec2::new(3.0, 4.0));
        stage.set_matrix(n, m).unwrap();
        let (x, y) = (rng.range(-50.0, 50.0), rng.range(-50.0, 50.0));
        stage.set_position(n, x, y).unwrap();
        let after = stage.matrix(n).unwrap();
        assert_eq!(after.matrix2, m.matrix2, "the linear part is untouched");
        assert_eq!(after.translation, DVec2::new(x, y));
        // Uniform scale: both axes get length s, their directions stay.
        let s = rng.range(0.1, 4.0);
        stage.set_scale(n, s).unwrap();
        let scaled = stage.matrix(n).unwrap();
        for (before, now) in [
            (m.matrix2.x_axis, scaled.matrix2.x_axis),
            (m.matrix2.y_axis, scaled.matrix2.y_axis),
        ] {
            assert!(
                (now.length() - s).abs() < 1e-9 * s,
                "{now:?} has length {}",
                now.length()
            );
            assert!(
                now.normalize().dot(before.normalize()) > 1.0 - 1e-9,
                "{before:?} turned to {now:?}"
            );
        }
        assert_eq!(stage.scale_x(n).unwrap(), s);
        assert_eq!(stage.scale_y(n).unwrap(), s);
    }
}

#[test]
fn bad_placements_name_the_value_and_change_nothing() {
    let mut stage = Stage::new();
    let n = stage.add_container(stage.root()).unwrap();
    stage.set_name(n, "ship").unwrap();
    stage.set_transform(n, 1.0, 2.0, 30.0, 2.0, 3.0).unwrap();
    let before = stage.matrix(n).unwrap();
    let bad = [
        stage.set_position(n, f64::NAN, 0.0),
        stage.set_position(n, 0.0, f64::INFINITY),
        stage.set_scale(n, f64::NAN),
        stage.set_transform(n, 0.0, 0.0, f64::NAN, 1.0, 1.0),
        stage.set_transform(n, 0.0, 0.0, 0.0, 1.0, f64::NEG_INFINITY),
    ];
    let whats = [
        "x of \"ship\"",
        "y of \"ship\"",
        "scale of \"ship\"",
        "rotation of \"ship\"",
        "scale_y of \"ship\"",
    ];
    for (i, (r, what)) in bad.iter().zip(whats).enumerate() {
        match r {
            Err(Error::NonFinite { what: w }) => assert_eq!(w, what),
            other => panic!("case {i}: {other:?}"),
        }
    }
    assert_eq!(
        stage.matrix(n).unwrap(),
        before,
        "the refused calls changed nothing"
    );
}

/// The pivot idiom of the crate's front page: art offset by half its size turns about its
/// centre, so the sprite's bounds stay centred on its position at every angle.
#[test]
fn art_offset_by_half_its_size_turns_about_its_centre() {
    let mut stage = Stage::new();
    let root = stage.root();
    let sprite = stage.add_container(root).unwrap();
    let art = fill(&mut stage, sprite, Path::rect(0.0, 0.0, 30.0, 10.0), 1.0);
    stage.set_position(art, -15.0, -5.0).unwrap();
    for k in 0..72 {
        stage
            .set_transform(sprite, 200.0, 100.0, k as f64 * 5.0, 1.5, 1.5)
            .unwrap();
        let b = stage.bounds(sprite, root).unwrap().unwrap();
        let centre = DVec2::new(b.left() + b.right(), b.top() + b.bottom()) / 2.0;
        assert!(centre.distance(DVec2::new(200.0, 100.0)) < 1e-9, "{k}: {b:?}");
    }
}

// ----- display list -----

/// Random display-list edits on a stage and on a model of its child lists, compared after
/// each edit; an edit the model refuses must fail and change nothing.
#[test]
fn display_list_edits_match_a_model_of_the_child_lists() {
    let mut rng = Rng::new(3);
    for round in 0..40 {
        let mut stage = Stage::new();
        let root = stage.root();
        // The model: each node's children, by the node's place in `ids`.
        let mut ids = vec![root];
        let mut kids: Vec<Vec<usize>> = vec![Vec::new()];
        let mut parent_of: Vec<Option<usize>> = vec![None];
        for _ in 0..12 {
            let p = rng.int(0, ids.len() as i64 - 1) as usize;
            ids.push(stage.add_container(ids[p]).unwrap());
            kids.push(Vec::new());
            parent_of.push(Some(p));
            kids[p].push(ids.len() - 1);
        }
        let alive = |parent_of: &Vec<Option<usize>>, i: usize| i == 0 || parent_of[i].is_some();
        for step in 0..300 {
            let live: Vec<usize> = (0..ids.len()).filter(|&i| alive(&parent_of, i)).collect();
            let p = live[rng.int(0, live.len() as i64 - 1) as usize];
            let c = live[rng.int(0, live.len() as i64 - 1) as usize];
            let index = rng.int(0, kids[p].len() as i64 + 1) as usize;
            let inside = |mut n: usize, top: usize| loop {
                if n == top {
                    break true;
                }
                match parent_of[n] {
                    Some(up) => n = up,
                    None => break false,
                }
            };
            let before: Vec<Vec<NodeId>> = live
                .iter()
                .map(|&i| stage.children(ids[i]).unwrap().to_vec())
                .collect();
            let (result, ok) = match rng.int(0, 5) {
                0 => {
                    let others = kids[p].iter().filter(|&&k| k != c).count();
                    let ok = c != 0 && !inside(p, c) && index <= others;
                    if ok {
                        let old = parent_of[c].unwrap();
                        kids[old].retain(|&k| k != c);
                        kids[p].insert(index, c);
                        parent_of[c] = Some(p);
                    }
                    (stage.add_child_at(ids[p], ids[c], index).map(|_| ()), ok)
                }
                1 => {
                    let ok = parent_of[c] == Some(p) && index < kids[p].len();
                    if ok {
                        kids[p].retain(|&k| k != c);
                        kids[p].insert(index, c);
                    }
                    (stage.set_child_index(ids[p], ids[c], index), ok)
                }
                2 => {
                    let d = live[rng.int(0, live.len() as i64 - 1) as usize];
                    let ok = parent_of[c] == Some(p) && parent_of[d] == Some(p);
                    if ok {
                        let (i, j) = (
                            kids[p].iter().position(|&k| k == c).unwrap(),
                            kids[p].iter().position(|&k| k == d).unwrap(),
                        );
                        kids[p].swap(i, j);
                    }
                    (stage.swap_children(ids[p], ids[c], ids[d]), ok)
                }
                3 => {
                    let got = stage.child_index(ids[p], ids[c]);
                    let want = kids[p].iter().position(|&k| k == c);
                    assert_eq!(got.as_ref().ok().copied(), want, "round {round} step {step}");
                    (got.map(|_| ()), want.is_some())
                }
                4 => {
                    let end = rng.int(0, kids[p].len() as i64 + 1) as usize;
                    let start = rng.int(0, end as i64) as usize;
                    let ok = end <= kids[p].len();
                    if ok {
                        let gone: Vec<usize> = kids[p].drain(start..end).collect();
                        let mut stack = gone;
                        while let Some(g) = stack.pop() {
                            parent_of[g] = None;
                            stack.append(&mut kids[g]);
                        }
                    }
                    (stage.remove_children(ids[p], start..end).map(|_| ()), ok)
                }
                _ => {
                    let ok = c != 0 && !inside(p, c);
                    if ok {
                        let old = parent_of[c].unwrap();
                        kids[old].retain(|&k| k != c);
                        kids[p].push(c);
                        parent_of[c] = Some(p);
                    }
                    (stage.set_parent(ids[c], ids[p]), ok)
                }
            };
            assert_eq!(result.is_ok(), ok, "round {round} step {step}: {result:?}");
            if !ok {
                let after: Vec<Vec<NodeId>> = live
                    .iter()
                    .map(|&i| stage.children(ids[i]).unwrap().to_vec())
                    .collect();
                assert_eq!(before, after, "a refused edit changed the tree");
            }
            for i in 0..ids.len() {
                if alive(&parent_of, i) {
                    let want: Vec<NodeId> = kids[i].iter().map(|&k| ids[k]).collect();
                    assert_eq!(
                        stage.children(ids[i]).unwrap(),
                        want.as_slice(),
                        "round {round} step {step}"
                    );
                    assert_eq!(stage.parent(ids[i]).unwrap(), parent_of[i].map(|q| ids[q]));
                } else {
                    assert!(!stage.contains(ids[i]));
                }
            }
        }
    }
}

#[test]
fn display_list_errors_say_what_and_where() {
    let mut stage = Stage::new();
    let root = stage.root();
    let layer = stage.add_container(root).unwrap();
    stage.set_name(layer, "layer").unwrap();
    let a = stage.add_container(layer).unwrap();
    stage.set_name(a, "a").unwrap();
    let stray = stage.add_container(root).unwrap();
    stage.set_name(stray, "stray").unwrap();
    let msg = |r: Result<(), Error>| r.unwrap_err().to_string();
    assert_eq!(
        msg(stage.add_child_at(layer, stray, 2)),
        "child index 2 of \"layer\" is outside 0..=1"
    );
    assert_eq!(
        msg(stage.set_child_index(layer, a, 1)),
        "child index 1 of \"layer\" is outside 0..=0"
    );
    assert_eq!(
        msg(stage.set_child_index(layer, stray, 0)),
        "\"stray\" is not a child of \"layer\""
    );
    assert_eq!(
        msg(stage.swap_children(layer, a, stray)),
        "\"stray\" is not a child of \"layer\""
    );
    assert_eq!(
        msg(stage.add_child_at(a, layer, 0)),
        "cannot move \"layer\" under \"a\": \"a\" is inside \"layer\""
    );
    assert_eq!(
        stage.remove_children(layer, 0..3).unwrap_err().to_string(),
        "child index 2 of \"layer\" is outside 0..1, with the range's start no later than its end"
    );
    assert_eq!(
        stage.child_at(stray, 0).unwrap_err().to_string(),
        "child index 0 of \"stray\" is outside the empty range (it has no children)"
    );
    assert_eq!(stage.child_at(layer, 0).unwrap(), a);
}

/// Paint order is what `pick` and `objects_under_point` follow: moving a child to the back
/// with `set_child_index` hands the click to the one now on top.
#[test]
fn reordering_children_changes_what_is_on_top() {
    let mut stage = Stage::new();
    let root = stage.root();
    let below = fill(&mut stage, root, Path::rect(0.0, 0.0, 20.0, 20.0), 1.0);
    let above = fill(&mut stage, root, Path::rect(10.0, 10.0, 20.0, 20.0), 1.0);
    let click = PickOptions::default();
    assert_eq!(stage.pick(15.0, 15.0, &click).unwrap(), Some(above));
    stage.set_child_index(root, above, 0).unwrap();
    assert_eq!(stage.pick(15.0, 15.0, &click).unwrap(), Some(below));
    stage.swap_children(root, above, below).unwrap();
    assert_eq!(stage.pick(15.0, 15.0, &click).unwrap(), Some(above));
    assert_eq!(stage.remove_children(root, ..).unwrap(), 2);
    assert_eq!(stage.pick(15.0, 15.0, &click).unwrap(), None);
}

// ----- groups, hidden sprites, parallel switch -----

/// A field of moving, turning stars: `n` of them in `world`, with a few hidden directly or
/// through a hidden layer.
struct Field {
    stage: Stage,
    world: NodeId,
    sprites: Vec<NodeId>,
    poses: Vec<(DVec2, DVec2, f64)>,
}

impl Field {
    fn new(seed: u64, n: usize) -> Field {
        let mut rng = Rng::new(seed);
        let mut stage = Stage::new();
        let world = stage.add_container(stage.root()).unwrap();
        let hidden_layer = stage.add_container(world).unwrap();
        stage.set_visible(hidden_layer, false).unwrap();
        let mut sprites = Vec::new();
        let mut poses = Vec::new();
        for i in 0..n {
            let holder = if i % 9 == 4 { hidden_layer } else { world };
            let s = stage.add_container(holder).unwrap();
            let pts = star(&mut rng, 7, 4.0, 14.0);
            fill(&mut stage, s, Path::polygon(&pts), 1.0);
            if i % 7 == 3 {
                stage.set_visible(s, false).unwrap();
            }
            sprites.push(s);
            let at = DVec2::new(rng.range(0.0, 160.0), rng.range(0.0, 160.0));
            let v = DVec2::new(rng.range(-1.3, 1.3), rng.range(-1.3, 1.3));
            poses.push((at, v, rng.range(0.0, 360.0)));
        }
        Field {
            stage,
            world,
            sprites,
            poses,
        }
    }

    /// Frame `f`: every sprite moved by fractions of a pixel and turned.
    fn frame(&mut self, f: usize) {
        for (i, &s) in self.sprites.iter().enumerate() {
            let (at, v, r) = self.poses[i];
            let p = at + v * f as f64;
            self.stage
                .set_transform(s, p.x, p.y, r + 3.7 * f as f64, 1.0, 1.0)
                .unwrap();
        }
    }
}

#[test]
fn collisions_between_is_every_cross_pair_that_collision_finds() {
    let mut field = Field::new(11, 40);
    let mut rng = Rng::new(12);
    let mut contacts_seen = 0;
    for f in 0..60 {
        field.frame(f);
        let stage = &field.stage;
        // Random groups, overlapping sometimes (an id in both lists, or twice in one).
        let group = |rng: &mut Rng| -> Vec<NodeId> {
            field
                .sprites
                .iter()
                .copied()
                .filter(|_| rng.int(0, 2) == 0)
                .collect()
        };
        let (mut ga, gb) = (group(&mut rng), group(&mut rng));
        if let Some(&x) = ga.first() {
            ga.push(x);
        }
        for skip_hidden in [false, true] {
            let opts = CollisionOptions::default()
                .skip_hidden(skip_hidden)
                .anti_alias(f % 2 == 0);
            let got = stage.contacts_between(&ga, &gb, field.world, &opts).unwrap();
            // The reference: every pair (a from ga, b from gb), each unordered pair once,
            // asked of `collision` directly.
            let mut want = Vec::new();
            let mut done = HashSet::new();
            let distinct = |g: &[NodeId]| {
                let mut seen = HashSet::new();
                g.iter().copied().filter(|x| seen.insert(*x)).collect::<Vec<_>>()
            };
            let (da, db) = (distinct(&ga), distinct(&gb));
            for (ia, &a) in da.iter().enumerate() {
                for (ib, &b) in db.iter().enumerate() {
                    if a == b || !done.insert((a.min(b), a.max(b))) {
                        continue;
                    }
                    let shown = stage.is_shown(a).unwrap() && stage.is_shown(b).unwrap();
                    if skip_hidden && !shown {
                        continue;
                    }
                    let c = stage.collision(a, b, field.world, &opts).unwrap();
                    if let Some(rect) = c.rect {
                        want.push((ia, ib, a, b, rect, c.overlap_pixels));
                    }
                }
            }
            want.sort_by_key(|w| (w.0, w.1));
            let want: Vec<_> = want.into_iter().map(|w| (w.2, w.3, w.4, w.5)).collect();
            let got: Vec<_> = got.iter().map(|c| (c.a, c.b, c.rect, c.overlap_pixels)).collect();
            assert_eq!(got, want, "frame {f}, skip_hidden {skip_hidden}");
            contacts_seen += got.len();
        }
    }
    assert!(
        contacts_seen > 100,
        "the field should make contacts: {contacts_seen}"
    );
}

#[test]
fn hidden_sprites_are_skipped_only_when_asked() {
    let mut field = Field::new(21, 60);
    let mut hidden_hits = 0;
    for f in 0..40 {
        field.frame(f);
        let stage = &field.stage;
        let all = CollisionOptions::default();
        let shown_only = all.skip_hidden(true);
        let every = stage.contacts_among(&field.sprites, field.world, &all).unwrap();
        let shown = stage
            .contacts_among(&field.sprites, field.world, &shown_only)
            .unwrap();
        // Skipping hidden sprites is exactly dropping the contacts that involve one.
        let want: Vec<_> = every
            .iter()
            .filter(|c| stage.is_shown(c.a).unwrap() && stage.is_shown(c.b).unwrap())
            .cloned()
            .collect();
        hidden_hits += every.len() - want.len();
        assert_eq!(shown, want, "frame {f}");
        // The same through contacts_against and collision.
        for &s in &field.sprites[..10] {
            let with = stage
                .contacts_against(s, &field.sprites, field.world, &shown_only)
                .unwrap();
            let want_with: Vec<_> = shown
                .iter()
                .filter(|c| c.a == s || c.b == s)
                .map(|c| c.other(s).unwrap())
                .collect();
            let mut got_with: Vec<_> = with.iter().map(|c| c.b).collect();
            let order = |id: &NodeId| field.sprites.iter().position(|x| x == id);
            got_with.sort_by_key(order);
            let mut want_with = want_with;
            want_with.sort_by_key(order);
            assert_eq!(got_with, want_with, "frame {f}");
        }
    }
    assert!(
        hidden_hits > 10,
        "hidden sprites should touch others: {hidden_hits}"
    );
    // A single query: a hidden target collides with nothing when asked, as Flash otherwise.
    let stage = &mut field.stage;
    let root = stage.root();
    let a = fill(stage, root, Path::rect(0.0, 0.0, 10.0, 10.0), 1.0);
    let b = fill(stage, root, Path::rect(5.0, 5.0, 10.0, 10.0), 1.0);
    stage.set_visible(a, false).unwrap();
    let opts = CollisionOptions::default();
    assert_eq!(
        stage.collision(a, b, root, &opts).unwrap().overlap_pixels,
        Some(25)
    );
    assert_eq!(
        stage.collision(a, b, root, &opts.skip_hidden(true)).unwrap().rect,
        None
    );
    for m in [
        Method::Bitmask,
        Method::LinearScan,
        Method::FlashPipeline { compat: false },
        Method::Radial(Default::default()),
    ] {
        assert!(stage.collides_with(a, b, root, &opts, m).unwrap(), "{m}");
        assert!(
            !stage
                .collides_with(a, b, root, &opts.skip_hidden(true), m)
                .unwrap(),
            "{m}"
        );
    }
}

#[test]
fn the_parallel_switch_and_a_callers_pool_give_the_same_answer() {
    let mut field = Field::new(31, 80);
    let pool = rayon::ThreadPoolBuilder::new().num_threads(1).build().unwrap();
    for f in 0..20 {
        field.frame(f);
        let stage = &field.stage;
        let opts = CollisionOptions::default().details(true);
        let parallel = stage.contacts_among(&field.sprites, field.world, &opts).unwrap();
        let serial = stage
            .contacts_among(&field.sprites, field.world, &opts.parallel(false))
            .unwrap();
        let pooled = pool
            .install(|| stage.contacts_among(&field.sprites, field.world, &opts))
            .unwrap();
        assert_eq!(parallel, serial, "frame {f}");
        assert_eq!(parallel, pooled, "frame {f}");
        assert!(
            parallel
                .iter()
                .all(|c| c.normal().is_some() && c.centroid().is_some())
        );
    }
}

// ----- per-node tolerance -----

/// Axis-aligned rectangles on whole pixels with fill alphas of `k / 255`: every covered pixel
/// has alpha exactly `k`, so the overlap is the rectangles' common area when both alphas pass
/// their targets' thresholds (own tolerance over the query's), and nothing otherwise.
#[test]
fn a_node_tolerance_overrides_the_querys_for_that_target_only() {
    let mut rng = Rng::new(41);
    let methods = [
        Method::Exact,
        Method::Bitmask,
        Method::LinearScan,
        Method::SummedArea,
    ];
    for case in 0..600 {
        let mut stage = Stage::new();
        let root = stage.root();
        let rect = |rng: &mut Rng| {
            let (x, y) = (rng.int(-20, 20) as f64, rng.int(-20, 20) as f64);
            let (w, h) = (rng.int(1, 25) as f64, rng.int(1, 25) as f64);
            (x, y, w, h)
        };
        let (ra, rb) = (rect(&mut rng), rect(&mut rng));
        let (ka, kb) = (rng.int(1, 255) as u8, rng.int(1, 255) as u8);
        let a = fill(
            &mut stage,
            root,
            Path::rect(ra.0, ra.1, ra.2, ra.3),
            f64::from(ka) / 255.0,
        );
        let b = fill(
            &mut stage,
            root,
            Path::rect(rb.0, rb.1, rb.2, rb.3),
            f64::from(kb) / 255.0,
        );
        let own = |rng: &mut Rng| {
            if rng.coin() {
                Some(rng.int(0, 255) as u8)
            } else {
                None
            }
        };
        let (ta, tb) = (own(&mut rng), own(&mut rng));
        stage.set_tolerance(a, ta).unwrap();
        stage.set_tolerance(b, tb).unwrap();
        let query = rng.int(0, 255) as u8;
        let threshold = |t: u8| (255 - i32::from(t)).max(1);
        let solid_a = i32::from(ka) >= threshold(ta.unwrap_or(query));
        let solid_b = i32::from(kb) >= threshold(tb.unwrap_or(query));
        let (l, t) = (ra.0.max(rb.0), ra.1.max(rb.1));
        let (r, bo) = ((ra.0 + ra.2).min(rb.0 + rb.2), (ra.1 + ra.3).min(rb.1 + rb.3));
        let common = ((r - l).max(0.0) * (bo - t).max(0.0)) as u64;
        let want = if solid_a && solid_b { common } else { 0 };
        let opts = CollisionOptions::default().tolerance(query);
        for aa in [true, false] {
            let opts = opts.anti_alias(aa);
            for m in methods {
                let c = stage.collision_by(a, b, root, &opts, m).unwrap();
                assert_eq!(c.overlap_pixels, Some(want), "case {case} {m:?} aa {aa}");
                assert_eq!(c.rect.is_some(), want > 0);
                let swapped = stage.collision_by(b, a, root, &opts, m).unwrap();
                assert_eq!(swapped, c, "case {case} {m:?}: the override follows the node");
            }
            for m in [
                Method::IncrementalScan,
                Method::Sampled { n: 1 },
                Method::FlashPipeline { compat: false },
            ] {
                assert_eq!(
                    stage.collides_with(a, b, root, &opts, m).unwrap(),
                    want > 0,
                    "case {case} {m}"
                );
            }
            let contacts = stage.contacts_among(&[a, b], root, &opts.details(true)).unwrap();
            assert_eq!(contacts.len(), usize::from(want > 0));
        }
    }
}

/// Random stars with random alphas: the overlap under per-node tolerances is the set of
/// pixels whose alpha planes pass each target's own threshold.
#[test]
fn node_tolerances_agree_with_the_alpha_planes() {
    let mut rng = Rng::new(42);
    for case in 0..300 {
        let mut stage = Stage::new();
        let root = stage.root();
        let target = |rng: &mut Rng, stage: &mut Stage| {
            let pts = star(rng, 8, 3.0, 12.0);
            let n = fill(stage, root, Path::polygon(&pts), rng.range(0.2, 1.0));
            let at = DVec2::new(rng.range(0.0, 8.0), rng.range(0.0, 8.0));
            let m = crate::common::random_matrix(rng, (0.6, 1.6), true, at);
            stage.set_matrix(n, m).unwrap();
            stage
                .set_tolerance(n, rng.coin().then(|| rng.int(0, 255) as u8))
                .unwrap();
            n
        };
        let (a, b) = (target(&mut rng, &mut stage), target(&mut rng, &mut stage));
        let query = rng.int(0, 255) as u8;
        let opts = CollisionOptions::default()
            .tolerance(query)
            .anti_alias(rng.coin());
        let area = Rect::from_ltrb(-30.0, -30.0, 40.0, 40.0).unwrap();
        let (pa, pb) = (
            stage.alpha_plane(a, root, area, &opts).unwrap(),
            stage.alpha_plane(b, root, area, &opts).unwrap(),
        );
        let threshold = |id: NodeId| {
            let t = stage.tolerance(id).unwrap().unwrap_or(query);
            (255 - t).max(1)
        };
        let (sa, sb) = (threshold(a), threshold(b));
        let want = pa
            .alpha()
            .iter()
            .zip(pb.alpha())
            .filter(|(x, y)| **x >= sa && **y >= sb)
            .count() as u64;
        let got = stage.collision(a, b, root, &opts).unwrap();
        assert_eq!(got.overlap_pixels, Some(want), "case {case}");
        let plain = stage.collision(a, b, root, &opts.fast_paths(false)).unwrap();
        assert_eq!(plain, got, "case {case}: fast paths against the plain path");
    }
}

// ----- contact events -----

#[test]
fn the_tracker_follows_a_moving_field() {
    let mut field = Field::new(51, 30);
    let mut tracker = ContactTracker::new();
    let mut before: HashSet<(NodeId, NodeId)> = HashSet::new();
    let (mut began, mut ended) = (0, 0);
    for f in 0..120 {
        field.frame(f);
        let opts = CollisionOptions::default().skip_hidden(true);
        let contacts = field
            .stage
            .contacts_among(&field.sprites, field.world, &opts)
            .unwrap();
        let now: HashSet<(NodeId, NodeId)> = contacts.iter().map(|c| (c.a.min(c.b), c.a.max(c.b))).collect();
        for e in tracker.update(&contacts) {
            let k = (e.a.min(e.b), e.a.max(e.b));
            match e.phase {
                ContactPhase::Began => {
                    assert!(now.contains(&k) && !before.contains(&k));
                    assert_eq!(e.contact(&contacts).map(|c| (c.a, c.b)), Some((e.a, e.b)));
                    began += 1;
                }
                ContactPhase::Continued => assert!(now.contains(&k) && before.contains(&k)),
                ContactPhase::Ended => {
                    assert!(!now.contains(&k) && before.contains(&k));
                    ended += 1;
                }
            }
        }
        assert_eq!(tracker.len(), now.len());
        before = now;
    }
    assert!(began > 10 && ended > 10, "{began} began, {ended} ended");
}

#[test]
fn contact_accessors_read_the_details() {
    let mut stage = Stage::new();
    let root = stage.root();
    let a = fill(&mut stage, root, Path::rect(0.0, 0.0, 10.0, 10.0), 1.0);
    let b = fill(&mut stage, root, Path::rect(8.0, 0.0, 10.0, 10.0), 1.0);
    let plain = stage
        .contacts_among(&[a, b], root, &CollisionOptions::default())
        .unwrap();
    assert_eq!((plain[0].normal(), plain[0].centroid()), (None, None));
    let detailed = stage
        .contacts_among(&[a, b], root, &CollisionOptions::default().details(true))
        .unwrap();
    let c = &detailed[0];
    assert_eq!(c.centroid(), Some(DVec2::new(9.0, 5.0)));
    assert!(c.normal().unwrap().x > 0.99);
    assert_eq!((c.other(a), c.other(b), c.other(root)), (Some(b), Some(a), None));
}
