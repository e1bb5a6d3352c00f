//! Motion queries (semantics.md section 8) against brute force: sweeps against dense
//! sampling of the same motion, bullets against walls, separations checked by moving the
//! object, and the scene-file queries.
//!
//! Every check poses a copy of the stage with the ordinary setters (`set_transform`,
//! `set_position`) and asks `Stage::collision`: the reference never goes through the
//! motion code's own posing.

use pixelhit::{
    Bitmap, CollisionOptions, DAffine2, DVec2, Error, FillRule, Graphic, MotionOptions, NodeId, Path, Pose,
    Query, Scene, Stage,
};

use crate::common::{Rng, star};

/// A moving node of a test: where it starts and where it ends (its current properties).
#[derive(Clone, Copy)]
struct Mover {
    id: NodeId,
    from: Pose,
    to: Pose,
}

/// The pose at `t`, written out from section 8: `from + t x (current - from)` in the form
/// that gives both ends exactly.
fn pose_at(m: &Mover, t: f64) -> Pose {
    let mix = |a: f64, b: f64| (1.0 - t) * a + t * b;
    Pose::new(
        mix(m.from.x, m.to.x),
        mix(m.from.y, m.to.y),
        mix(m.from.rotation, m.to.rotation),
        mix(m.from.scale_x, m.to.scale_x),
        mix(m.from.scale_y, m.to.scale_y),
    )
}

fn set_pose(s: &mut Stage, id: NodeId, p: Pose) {
    s.set_transform(id, p.x, p.y, p.rotation, p.scale_x, p.scale_y)
        .unwrap();
}

/// A copy of the stage with every mover at its pose at `t`.
fn posed(s: &mut Stage, movers: &[Mover], t: f64) {
    for m in movers {
        set_pose(s, m.id, pose_at(m, t));
    }
}

/// The largest distance a corner of the node's own box moves between `t1` and `t2` (the
/// chord; a point's path is at least that long).
fn chord(s: &mut Stage, m: &Mover, parent: NodeId, t1: f64, t2: f64) -> f64 {
    let Some(local) = s.bounds(m.id, m.id).unwrap() else {
        return 0.0;
    };
    set_pose(s, m.id, pose_at(m, t1));
    let m1 = s.matrix_to(m.id, parent).unwrap();
    set_pose(s, m.id, pose_at(m, t2));
    let m2 = s.matrix_to(m.id, parent).unwrap();
    set_pose(s, m.id, m.to);
    local
        .corners()
        .iter()
        .map(|&c| (m1.transform_point2(c) - m2.transform_point2(c)).length())
        .fold(0.0, f64::max)
}

/// An upper bound on how fast any point of the node's box moves per unit of time: the
/// Frobenius norm of the outer matrix (at least its stretch) times translation speed plus
/// turning speed times the farthest scaled corner plus the scaling speed times the corner.
fn speed_bound(s: &Stage, m: &Mover, parent: NodeId) -> f64 {
    let Some(local) = s.bounds(m.id, m.id).unwrap() else {
        return 0.0;
    };
    let up = s.parent(m.id).unwrap().unwrap();
    let outer = s.matrix_to(up, parent).unwrap();
    let [a, b, c, d, _, _] = outer.to_cols_array();
    let norm = (a * a + b * b + c * c + d * d).sqrt();
    let (f, e) = (m.from, m.to);
    let r = local.corners().iter().map(|c| c.length()).fold(0.0, f64::max);
    let smax = f
        .scale_x
        .abs()
        .max(f.scale_y.abs())
        .max(e.scale_x.abs())
        .max(e.scale_y.abs());
    let ds = (e.scale_x - f.scale_x).abs().max((e.scale_y - f.scale_y).abs());
    let v =
        (e.x - f.x).hypot(e.y - f.y) + (e.rotation - f.rotation).to_radians().abs() * r * smax + ds * r * 1.5;
    norm * v * 1.01
}

fn overlap(s: &Stage, a: NodeId, b: NodeId, parent: NodeId, opts: &CollisionOptions) -> pixelhit::Collision {
    s.collision(a, b, parent, opts).unwrap()
}

fn fill(points: &[DVec2]) -> Graphic {
    Graphic::fill(Path::polygon(points), FillRule::NonZero, 1.0).unwrap()
}

/// A small random target under `parent`: a concave fill, a stroke, or a bitmap, centred on
/// the node's origin. Returns the node and its radius.
fn random_art(s: &mut Stage, parent: NodeId, rng: &mut Rng, size: f64) -> NodeId {
    match rng.int(0, 3) {
        3 => {
            // Clipped: a star masked by a disc inside the target (the mask moves with it),
            // sometimes in a scroll window of the target's own (which moves with it too).
            let n = s.add_container(parent).unwrap();
            let art = s.add_container(n).unwrap();
            s.add_graphic(art, fill(&star(rng, 7, 0.5 * size, 1.3 * size)))
                .unwrap();
            let mask = s.add_container(n).unwrap();
            let r = size * rng.range(0.6, 1.0);
            s.add_graphic(
                mask,
                Graphic::fill(Path::circle(rng.range(-0.5, 0.5), 0.0, r), FillRule::NonZero, 1.0).unwrap(),
            )
            .unwrap();
            s.set_mask(art, Some(mask)).unwrap();
            if rng.coin() {
                s.set_scroll_rect(n, Some([-size, -size * 0.7, 2.0 * size, 1.6 * size]))
                    .unwrap();
            }
            n
        }
        0 => {
            let n = s.add_container(parent).unwrap();
            s.add_graphic(n, fill(&star(rng, 7, 0.3 * size, size))).unwrap();
            n
        }
        1 => {
            let n = s.add_container(parent).unwrap();
            let mut p = Path::new();
            p.move_to(rng.range(-size, size), rng.range(-size, size));
            for _ in 0..3 {
                p.line_to(rng.range(-size, size), rng.range(-size, size));
            }
            s.add_graphic(n, Graphic::stroke(p, rng.range(0.3, 1.5), 1.0).unwrap())
                .unwrap();
            n
        }
        _ => {
            let w = rng.int(2, (2.0 * size) as i64 + 1) as u32;
            let h = rng.int(2, (2.0 * size) as i64 + 1) as u32;
            let mut rgba = Vec::new();
            for _ in 0..w * h {
                let alpha = if rng.int(0, 3) == 0 {
                    0
                } else {
                    rng.int(1, 255) as u8
                };
                rgba.extend_from_slice(&[9, 9, 9, alpha]);
            }
            let bm = Bitmap::from_rgba8(w, h, rgba).unwrap();
            // The bitmap in a holder, offset so that the holder turns about its middle.
            let holder = s.add_container(parent).unwrap();
            let pic = s.add_bitmap(holder, bm, rng.int(0, 3) == 0).unwrap();
            s.set_position(pic, -f64::from(w) / 2.0, -f64::from(h) / 2.0)
                .unwrap();
            holder
        }
    }
}

fn random_pose(rng: &mut Rng, at: DVec2) -> Pose {
    let s = rng.range(0.8, 1.25);
    Pose::new(
        at.x,
        at.y,
        rng.range(-180.0, 540.0),
        s * rng.range(0.9, 1.1),
        s * rng.range(0.9, 1.1),
    )
}

/// A nested parent for the targets: the query's parent is the root, the targets sit in a
/// transformed container (sometimes skewed: only the moving nodes must not be).
fn random_space(s: &mut Stage, rng: &mut Rng) -> NodeId {
    let root = s.root();
    if rng.int(0, 2) == 0 {
        return root;
    }
    let c = s.add_container(root).unwrap();
    let sx = rng.range(0.7, 1.3);
    let sy = rng.range(0.7, 1.3);
    let (sin, cos) = rng.range(0.0, std::f64::consts::TAU).sin_cos();
    let skew = if rng.coin() { rng.range(-0.3, 0.3) } else { 0.0 };
    let m = DAffine2::from_cols_array(&[
        sx * cos,
        sx * sin,
        -sy * sin + skew,
        sy * cos,
        rng.range(-50.0, 50.0),
        rng.range(-50.0, 50.0),
    ]);
    s.set_matrix(c, m).unwrap();
    c
}

/// One random sweep checked against dense sampling; returns whether the sweep found a
/// contact (for the statistics that keep the generator honest).
fn dense_case(seed: u64) -> (bool, bool) {
    let mut rng = Rng::new(seed);
    let mut s = Stage::new();
    let root = s.root();
    let space = random_space(&mut s, &mut rng);
    let size_a = rng.range(1.0, 3.0);
    let size_b = rng.range(1.0, 3.0);
    let a = random_art(&mut s, space, &mut rng, size_a);
    let b = random_art(&mut s, space, &mut rng, size_b);
    let start = DVec2::new(rng.range(-2.0, 2.0), rng.range(-2.0, 2.0));
    let step = DVec2::new(rng.range(-1.2, 1.2), rng.range(-1.2, 1.2));
    let from_a = random_pose(&mut rng, start);
    let to_a = Pose::new(
        from_a.x + step.x,
        from_a.y + step.y,
        from_a.rotation + rng.range(-12.0, 12.0),
        from_a.scale_x * rng.range(0.95, 1.05),
        from_a.scale_y * rng.range(0.95, 1.05),
    );
    // b near the middle of a's path, at a distance around contact.
    let dir = rng.range(0.0, std::f64::consts::TAU);
    let dist = (size_a + size_b) * rng.range(0.4, 1.1);
    let mid = start + step * 0.5 + DVec2::new(dir.cos(), dir.sin()) * dist;
    let to_b = random_pose(&mut rng, mid);
    let mut movers = vec![Mover {
        id: a,
        from: from_a,
        to: to_a,
    }];
    let b_moves = rng.int(0, 2) == 0;
    if b_moves {
        let from_b = Pose::new(
            to_b.x + rng.range(-0.6, 0.6),
            to_b.y + rng.range(-0.6, 0.6),
            to_b.rotation + rng.range(-8.0, 8.0),
            to_b.scale_x,
            to_b.scale_y * rng.range(0.97, 1.03),
        );
        movers.push(Mover {
            id: b,
            from: from_b,
            to: to_b,
        });
    }
    set_pose(&mut s, a, to_a);
    set_pose(&mut s, b, to_b);
    let max_step = rng.pick(&[0.5, 0.5, 0.25, 1.0, 1.0 / 64.0 * 8.0]);
    let copts = CollisionOptions::default()
        .anti_alias(rng.int(0, 3) != 0)
        .tolerance(rng.pick(&[255, 255, 128, 0]));
    let opts = MotionOptions::from(copts).max_step(max_step);
    let b_from = b_moves.then(|| movers[1].from);
    let got = s.sweep(a, b, root, Some(from_a), b_from, &opts).unwrap();

    let mut r = s.clone();
    let ctx = format!("seed {seed}: {got:?}");
    // The answer's pose overlaps, with the same answer as the plain query there, and the
    // last clear pose, at most 1/256 px of motion earlier, does not.
    if let Some(hit) = got {
        assert!((0.0..=1.0).contains(&hit.t), "{ctx}");
        posed(&mut r, &movers, hit.t);
        let c = overlap(&r, a, b, root, &copts);
        assert_eq!(
            (c.rect, c.overlap_pixels),
            (Some(hit.rect), hit.overlap_pixels),
            "{ctx}"
        );
        match hit.last_clear {
            None => assert_eq!(hit.t, 0.0, "{ctx}"),
            Some(lc) => {
                assert!(lc < hit.t, "{ctx}");
                posed(&mut r, &movers, lc);
                assert_eq!(overlap(&r, a, b, root, &copts).rect, None, "{ctx}");
                for m in &movers {
                    let moved = chord(&mut r, m, root, lc, hit.t);
                    assert!(
                        moved <= 1.0 / 256.0 + 1e-9,
                        "{ctx}: {moved} px between clear and contact"
                    );
                }
            }
        }
    }
    // Dense sampling: no point moves more than 1/1024 px between samples.
    let speed = movers
        .iter()
        .map(|m| speed_bound(&s, m, root))
        .fold(0.0, f64::max);
    let samples = (speed * 1024.0).ceil().max(1.0) as u64;
    let hits: Vec<bool> = (0..=samples)
        .map(|j| {
            let t = j as f64 / samples as f64;
            posed(&mut r, &movers, t);
            overlap(&r, a, b, root, &copts).rect.is_some()
        })
        .collect();
    // The first contact that lasts while a point moves max_step px or more.
    let time = |j: usize| j as f64 / samples as f64;
    let mut j = 0;
    let mut lasting = None;
    while j < hits.len() {
        if !hits[j] {
            j += 1;
            continue;
        }
        let start = j;
        while j + 1 < hits.len() && hits[j + 1] {
            j += 1;
        }
        let moved = movers
            .iter()
            .map(|m| chord(&mut r, m, root, time(start), time(j)))
            .fold(0.0, f64::max);
        if moved >= max_step {
            lasting = Some(start);
            break;
        }
        j += 1;
    }
    if let Some(first) = lasting {
        let hit = got.unwrap_or_else(|| panic!("{ctx}: missed a contact from t = {}", time(first)));
        if hit.t > time(first) {
            for m in &movers {
                let late = chord(&mut r, m, root, time(first), hit.t);
                assert!(
                    late <= 1.0 / 256.0 + 1e-9,
                    "{ctx}: {late} px after the dense contact at {}",
                    time(first)
                );
            }
        }
    }
    (got.is_some(), lasting.is_some())
}

#[test]
fn sweeps_agree_with_dense_sampling() {
    let cases = 400;
    let (mut found, mut lasting) = (0, 0);
    for seed in 0..cases {
        let (f, l) = dense_case(seed);
        found += usize::from(f);
        lasting += usize::from(l);
    }
    // The generator makes contacts and misses both, so both branches are exercised.
    assert!(
        lasting > cases as usize / 5 && lasting < cases as usize * 9 / 10,
        "{lasting} lasting contacts"
    );
    assert!(found >= lasting, "{found} found");
}

/// A wall of thickness `w` and length 180 through the origin, its normal at angle `theta`
/// (bullets cross it within 60 px of its middle).
fn wall(s: &mut Stage, w: f64, theta: f64) -> NodeId {
    let n = s.add_container(s.root()).unwrap();
    s.add_graphic(
        n,
        fill(&[
            DVec2::new(-w / 2.0, -90.0),
            DVec2::new(w / 2.0, -90.0),
            DVec2::new(w / 2.0, 90.0),
            DVec2::new(-w / 2.0, 90.0),
        ]),
    )
    .unwrap();
    s.set_transform(n, 0.0, 0.0, theta.to_degrees(), 1.0, 1.0)
        .unwrap();
    n
}

#[test]
fn no_bullet_passes_through_a_wall() {
    let root_opts = CollisionOptions::default();
    for seed in 0..2000u64 {
        let mut rng = Rng::new(1000 + seed);
        let mut s = Stage::new();
        let root = s.root();
        let max_step = rng.pick(&[0.5, 0.5, 0.25, 1.0, 1.0 / 64.0]);
        let thickness = max_step * rng.pick(&[1.0, 1.0, 1.5, 3.0]);
        let theta = rng.range(0.0, std::f64::consts::TAU);
        let wall = wall(&mut s, thickness, theta);
        let normal = DVec2::new(theta.cos(), theta.sin());
        let size = if rng.coin() { 1.0 } else { rng.range(1.0, 8.0) };
        let bullet = s.add_container(root).unwrap();
        let shape = if rng.coin() {
            Path::rect(-size / 2.0, -size / 2.0, size, size)
        } else {
            Path::circle(0.0, 0.0, size / 2.0)
        };
        s.add_graphic(bullet, Graphic::fill(shape, FillRule::NonZero, 1.0).unwrap())
            .unwrap();
        // Any heading that crosses the wall, at any speed up to 1,000 px a step (at least
        // enough to start and end clear of it).
        let heading = loop {
            let a = rng.range(0.0, std::f64::consts::TAU);
            let u = DVec2::new(a.cos(), a.sin());
            if u.dot(normal).abs() > 0.2 {
                break u;
            }
        };
        let across = heading.dot(normal).abs();
        // Start and end at least a bullet and a pixel away from the wall.
        let need = (thickness + size + 2.0) / across;
        // At most 2,000 tested poses a step, so that the suite stays quick: up to 1,000 px a
        // step at max_step 0.5 and more, up to 31 px at 1/64.
        let speed = (10f64.powf(rng.range(0.0, 3.0)))
            .min(2000.0 * max_step)
            .max(2.0 * need + 0.01);
        let along = DVec2::new(-normal.y, normal.x) * rng.range(-20.0, 20.0);
        let centre = along + normal * rng.range(-thickness, thickness) * 0.5;
        let p0 = centre - heading * (need + rng.unit() * (speed - 2.0 * need));
        let p1 = p0 + heading * speed;
        let spin = rng.range(-30.0, 30.0);
        let from = Pose::new(p0.x, p0.y, 0.0, 1.0, 1.0);
        let to = Pose::new(p1.x, p1.y, spin, 1.0, 1.0);
        set_pose(&mut s, bullet, to);
        let mover = Mover { id: bullet, from, to };
        let opts = MotionOptions::default().max_step(max_step);
        let ctx = format!("seed {seed}: speed {speed}, wall {thickness}, bullet {size}");
        // Both ends are clear of the wall: a discrete test sees nothing.
        let mut r = s.clone();
        for t in [0.0, 1.0] {
            posed(&mut r, &[mover], t);
            assert_eq!(
                overlap(&r, bullet, wall, root, &root_opts).rect,
                None,
                "{ctx}: end {t}"
            );
        }
        let hit = s
            .sweep(bullet, wall, root, Some(from), None, &opts)
            .unwrap()
            .unwrap_or_else(|| panic!("{ctx}: the bullet tunnelled"));
        assert!(hit.t > 0.0 && hit.t < 1.0, "{ctx}: {hit:?}");
        posed(&mut r, &[mover], hit.t);
        assert!(
            overlap(&r, bullet, wall, root, &root_opts).rect.is_some(),
            "{ctx}"
        );
        let centre_at = pose_at(&mover, hit.t);
        let depth = (DVec2::new(centre_at.x, centre_at.y)).dot(normal).abs();
        assert!(
            depth <= thickness / 2.0 + size * 0.75 + 1.5,
            "{ctx}: stopped {depth} px from the wall's middle"
        );
        let lc = hit.last_clear.unwrap();
        posed(&mut r, &[mover], lc);
        assert_eq!(overlap(&r, bullet, wall, root, &root_opts).rect, None, "{ctx}");
        assert!(
            chord(&mut r, &mover, root, lc, hit.t) <= 1.0 / 256.0 + 1e-9,
            "{ctx}"
        );
    }
}

/// A thin bar, a ring (concave), or a concave star, around the origin.
fn separation_shape(s: &mut Stage, rng: &mut Rng) -> NodeId {
    let n = s.add_container(s.root()).unwrap();
    match rng.int(0, 2) {
        0 => {
            let (w, h) = (rng.range(0.3, 2.0), rng.range(4.0, 14.0));
            s.add_graphic(
                n,
                Graphic::fill(Path::rect(-w / 2.0, -h / 2.0, w, h), FillRule::NonZero, 1.0).unwrap(),
            )
            .unwrap();
            s.set_rotation(n, rng.range(0.0, 360.0)).unwrap();
        }
        1 => {
            let r = rng.range(3.0, 8.0);
            let inner = r * rng.range(0.4, 0.8);
            let mut ring = Path::new();
            for radius in [r, inner] {
                ring.move_to(radius, 0.0);
                for k in 1..32 {
                    let ang = f64::from(k) * std::f64::consts::TAU / 32.0;
                    ring.line_to(radius * ang.cos(), radius * ang.sin());
                }
                ring.close();
            }
            s.add_graphic(n, Graphic::fill(ring, FillRule::EvenOdd, 1.0).unwrap())
                .unwrap();
        }
        _ => {
            let r = rng.range(3.0, 8.0);
            s.add_graphic(n, fill(&star(rng, 9, 1.0, r))).unwrap();
        }
    }
    n
}

#[test]
fn separations_leave_no_shared_pixel_and_1_256_less_does() {
    let (mut apart, mut pushed, mut along_normal) = (0, 0, 0);
    for seed in 0..1500u64 {
        let mut rng = Rng::new(5000 + seed);
        let mut s = Stage::new();
        let root = s.root();
        let a = separation_shape(&mut s, &mut rng);
        let b = separation_shape(&mut s, &mut rng);
        let offset = DVec2::new(rng.range(-6.0, 6.0), rng.range(-6.0, 6.0));
        s.set_position(a, offset.x, offset.y).unwrap();
        let copts = CollisionOptions::default().tolerance(rng.pick(&[255, 255, 100]));
        let max_step = rng.pick(&[0.5, 0.5, 1.0 / 64.0, 0.25, 3.0]);
        let opts = MotionOptions::from(copts).max_step(max_step);
        let given = rng.int(0, 2) != 0;
        let dir = if given {
            let ang = rng.range(0.0, std::f64::consts::TAU);
            DVec2::new(ang.cos(), ang.sin())
        } else {
            // The direction the query takes: against the contact normal of `contacts_among`.
            let normal = s
                .contacts_among(&[a, b], root, &copts.details(true))
                .unwrap()
                .first()
                .and_then(|c| c.normal())
                .unwrap_or(DVec2::ZERO);
            -normal
        };
        let ctx = format!("seed {seed}");
        let d = s
            .separation(a, b, root, given.then_some(dir), &opts)
            .unwrap()
            .unwrap_or_else(|| panic!("{ctx}: the default distance always separates"));
        let mut r = s.clone();
        let shifted = |r: &mut Stage, by: f64| {
            let p = offset + dir * by;
            r.set_position(a, p.x, p.y).unwrap();
            overlap(r, a, b, root, &copts).rect.is_some()
        };
        if d == 0.0 {
            assert!(!shifted(&mut r, 0.0), "{ctx}: 0 while overlapping");
            apart += 1;
            continue;
        }
        if !given && dir == DVec2::ZERO {
            continue;
        }
        assert_eq!(d * 256.0, (d * 256.0).round(), "{ctx}: {d} is on the 1/256 grid");
        assert!(!shifted(&mut r, d), "{ctx}: still overlapping after {d}");
        assert!(
            shifted(&mut r, d - 1.0 / 256.0),
            "{ctx}: free already at {d} - 1/256"
        );
        pushed += 1;
        along_normal += usize::from(!given);
    }
    assert!(
        apart > 50 && pushed > 700 && along_normal > 200,
        "{apart} {pushed} {along_normal}"
    );
}

#[test]
fn separation_gives_none_when_the_distance_is_too_short() {
    let mut s = Stage::new();
    let root = s.root();
    let big = s.add_container(root).unwrap();
    s.add_graphic(
        big,
        Graphic::fill(Path::rect(0.0, 0.0, 40.0, 40.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let small = s.add_container(root).unwrap();
    s.add_graphic(
        small,
        Graphic::fill(Path::rect(0.0, 0.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    s.set_position(small, 10.0, 18.0).unwrap();
    let left = Some(DVec2::new(-1.0, 0.0));
    let short = MotionOptions::default().max_distance(10.0);
    assert_eq!(s.separation(small, big, root, left, &short).unwrap(), None);
    let enough = MotionOptions::default().max_distance(14.0);
    assert_eq!(s.separation(small, big, root, left, &enough).unwrap(), Some(14.0));
    // Not touching: nothing to push.
    s.set_position(small, 60.0, 18.0).unwrap();
    assert_eq!(s.separation(small, big, root, left, &short).unwrap(), Some(0.0));
}

#[test]
fn sweeps_with_is_every_pairwise_sweep_in_order_of_t_then_the_tree() {
    let mut total = 0;
    for seed in 0..150u64 {
        let mut rng = Rng::new(9000 + seed);
        let mut s = Stage::new();
        let root = s.root();
        let space = random_space(&mut s, &mut rng);
        let mut others = Vec::new();
        for _ in 0..rng.int(5, 25) {
            let size = rng.range(1.0, 4.0);
            let o = random_art(&mut s, space, &mut rng, size);
            let at = DVec2::new(rng.range(-30.0, 30.0), rng.range(-30.0, 30.0));
            let p = random_pose(&mut rng, at);
            set_pose(&mut s, o, p);
            others.push(o);
        }
        // Twins at one pose meet the mover at the same t: tree order decides.
        if rng.coin() {
            let twin = s.add_container(space).unwrap();
            s.add_graphic(
                twin,
                fill(&[
                    DVec2::new(-2.0, -2.0),
                    DVec2::new(2.0, -2.0),
                    DVec2::new(0.0, 3.0),
                ]),
            )
            .unwrap();
            let twin2 = s.add_container(space).unwrap();
            s.add_graphic(
                twin2,
                fill(&[
                    DVec2::new(-2.0, -2.0),
                    DVec2::new(2.0, -2.0),
                    DVec2::new(0.0, 3.0),
                ]),
            )
            .unwrap();
            others.insert(0, twin2);
            others.push(twin);
        }
        let size = rng.range(1.0, 3.0);
        let mover = random_art(&mut s, space, &mut rng, size);
        let x = rng.range(-30.0, 30.0);
        let from = random_pose(&mut rng, DVec2::new(x, -35.0));
        let to = Pose::new(
            from.x + rng.range(-20.0, 20.0),
            35.0,
            from.rotation + rng.range(-90.0, 90.0),
            from.scale_x,
            from.scale_y,
        );
        set_pose(&mut s, mover, to);
        let opts = MotionOptions::default().collision(CollisionOptions::default().parallel(rng.coin()));
        let got = s.sweeps_against(mover, from, &others, root, &opts).unwrap();
        let mut want = Vec::new();
        for (order, &o) in s.children(space).unwrap().iter().enumerate() {
            if !others.contains(&o) {
                continue;
            }
            if let Some(hit) = s.sweep(mover, o, root, Some(from), None, &opts).unwrap() {
                want.push((hit.t, order, o, hit));
            }
        }
        want.sort_by(|x, y| x.0.total_cmp(&y.0).then(x.1.cmp(&y.1)));
        let want: Vec<_> = want.into_iter().map(|(_, _, o, h)| (o, h)).collect();
        let got: Vec<_> = got.into_iter().map(|h| (h.other, h.sweep)).collect();
        assert_eq!(got, want, "seed {seed}");
        total += got.len();
    }
    assert!(total > 150, "{total} hits");
}

#[test]
fn a_sweep_changes_nothing_in_the_tree_and_poses_like_the_setters() {
    let mut s = Stage::new();
    let root = s.root();
    let a = s.add_container(root).unwrap();
    s.add_graphic(
        a,
        Graphic::fill(Path::circle(0.0, 0.0, 3.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let b = s.add_container(root).unwrap();
    s.add_graphic(
        b,
        Graphic::fill(Path::rect(20.0, -10.0, 3.0, 20.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    s.set_transform(a, 40.0, 0.0, 370.0, 1.0, 1.0).unwrap();
    let before = [s.matrix(a).unwrap(), s.matrix(b).unwrap()];
    let opts = MotionOptions::default();
    let hit = s
        .sweep(
            a,
            b,
            root,
            Some(Pose::new(0.0, 0.0, 350.0, 1.0, 1.0)),
            None,
            &opts,
        )
        .unwrap()
        .unwrap();
    assert_eq!([s.matrix(a).unwrap(), s.matrix(b).unwrap()], before);
    assert_eq!(s.rotation(a).unwrap(), 370.0);
    // The circle's edge reaches x = 20 when its centre is at 17: t = 17/40, a little later
    // for the area a solid pixel needs (1/510 of a pixel) and the flattening (1/128 px).
    assert!(hit.t > 16.99 / 40.0 && hit.t <= 17.05 / 40.0, "{hit:?}");
    // At t = 1 the sweep's pose is the node's own: a sweep of a still pair is the collision.
    let still = s
        .sweep(a, b, root, Some(s.pose(a).unwrap()), None, &opts)
        .unwrap();
    let c = s.collision(a, b, root, &CollisionOptions::default()).unwrap();
    assert_eq!(
        still.map(|h| (h.rect, h.overlap_pixels)),
        c.rect.map(|r| (r, c.overlap_pixels))
    );
    assert!(still.is_none());
}

#[test]
fn rotation_is_interpolated_as_given() {
    // A long arm turning about its origin: from 350 to 370 it sweeps across 0 (where the
    // post is); from 350 to 10 it turns back through 180 and meets the post on the way.
    let mut s = Stage::new();
    let root = s.root();
    let arm = s.add_container(root).unwrap();
    s.add_graphic(
        arm,
        Graphic::fill(Path::rect(0.0, -0.5, 50.0, 1.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let post = s.add_container(root).unwrap();
    s.add_graphic(
        post,
        Graphic::fill(Path::circle(40.0, 0.0, 1.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let opts = MotionOptions::default();
    s.set_rotation(arm, 370.0).unwrap();
    let behind = s.add_container(root).unwrap();
    s.add_graphic(
        behind,
        Graphic::fill(Path::circle(-40.0, 0.0, 1.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let from = Some(Pose::new(0.0, 0.0, 350.0, 1.0, 1.0));
    let fwd = s.sweep(arm, post, root, from, None, &opts).unwrap().unwrap();
    // Forward 20 degrees: it meets the post shortly before half way (at 360 degrees).
    assert!(fwd.t > 0.3 && fwd.t < 0.5, "{fwd:?}");
    assert_eq!(s.sweep(arm, behind, root, from, None, &opts).unwrap(), None);
    // Back 340 degrees: away from the post at 0, through the one at 180 (half way).
    s.set_rotation(arm, 10.0).unwrap();
    assert_eq!(s.sweep(arm, post, root, from, None, &opts).unwrap(), None);
    let back = s.sweep(arm, behind, root, from, None, &opts).unwrap().unwrap();
    assert!(back.t > 0.45 && back.t < 0.5, "{back:?}");
}

#[test]
fn boxes_sweep_like_pixels_when_not_precise() {
    let mut s = Stage::new();
    let root = s.root();
    let a = s.add_container(root).unwrap();
    s.add_graphic(
        a,
        Graphic::fill(Path::circle(0.0, 0.0, 2.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let b = s.add_container(root).unwrap();
    s.add_graphic(
        b,
        Graphic::fill(Path::rect(10.0, -5.0, 1.0, 10.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    s.set_x(a, 20.0).unwrap();
    let opts = MotionOptions::from(CollisionOptions::default().precise(false));
    let hit = s
        .sweep(a, b, root, Some(Pose::at(0.0, 0.0)), None, &opts)
        .unwrap()
        .unwrap();
    // The box's right edge passes x = 10 when the centre passes 8: t just over 0.4.
    assert!(
        hit.t > 0.4 && hit.t <= 0.4 + 1.0 / 256.0 / 20.0 + 1e-12,
        "{hit:?}"
    );
    assert_eq!(hit.overlap_pixels, None);
    assert!(
        hit.rect.width() > 0.0 && hit.rect.width() <= 1.0 / 256.0 + 1e-9,
        "{hit:?}"
    );
}

fn two_boxes() -> (Stage, NodeId, NodeId) {
    let mut s = Stage::new();
    let root = s.root();
    let a = s.add_container(root).unwrap();
    s.add_graphic(
        a,
        Graphic::fill(Path::rect(0.0, 0.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    let b = s.add_container(root).unwrap();
    s.add_graphic(
        b,
        Graphic::fill(Path::rect(50.0, 0.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    s.set_x(a, 100.0).unwrap();
    (s, a, b)
}

#[test]
fn motion_errors_are_clear_and_never_hang() {
    let (mut s, a, b) = two_boxes();
    let root = s.root();
    let opts = MotionOptions::default();
    let from = Some(Pose::at(0.0, 0.0));
    // A node with skew cannot move; standing still it may have skew.
    s.set_matrix(b, DAffine2::from_cols_array(&[1.0, 0.0, 0.4, 1.0, 0.0, 0.0]))
        .unwrap();
    s.set_name(b, "sheared").unwrap();
    match s.sweep(a, b, root, None, from, &opts) {
        Err(Error::Skew { node }) => assert!(node.contains("sheared"), "{node}"),
        other => panic!("{other:?}"),
    }
    assert!(s.sweep(a, b, root, from, None, &opts).is_ok());
    // Non-finite poses.
    let bad = Some(Pose::new(f64::NAN, 0.0, 0.0, 1.0, 1.0));
    let e = s.sweep(a, b, root, bad, None, &opts).unwrap_err();
    assert!(
        matches!(e, Error::NonFinite { .. }) && e.to_string().contains("a_from"),
        "{e}"
    );
    let e = s
        .sweeps_against(a, Pose::new(0.0, f64::INFINITY, 0.0, 1.0, 1.0), &[b], root, &opts)
        .unwrap_err();
    assert!(matches!(e, Error::NonFinite { .. }), "{e}");
    // max_step below 1/64 or not a number.
    for step in [1.0 / 65.0, 0.0, -1.0, f64::NAN] {
        let e = s.sweep(a, b, root, from, None, &opts.max_step(step)).unwrap_err();
        assert!(
            matches!(e, Error::OutOfRange { .. }) && e.to_string().contains("max_step"),
            "{e}"
        );
    }
    assert!(
        s.sweep(a, b, root, from, None, &opts.max_step(1.0 / 64.0))
            .is_ok()
    );
    // A huge motion of a huge target: refused at once.
    let huge = s.add_container(root).unwrap();
    s.add_graphic(
        huge,
        Graphic::fill(Path::rect(0.0, 0.0, 1e6, 1e6), FillRule::NonZero, 1.0).unwrap(),
    )
    .unwrap();
    s.set_rotation(huge, 360.0).unwrap();
    let started = std::time::Instant::now();
    let e = s
        .sweep(huge, a, root, Some(Pose::at(0.0, 0.0)), None, &opts)
        .unwrap_err();
    assert!(matches!(e, Error::MotionBudget { .. }), "{e}");
    assert!(e.to_string().contains("poses"), "{e}");
    let e = s
        .sweeps_against(huge, Pose::at(0.0, 0.0), &[a], root, &opts)
        .unwrap_err();
    assert!(matches!(e, Error::MotionBudget { .. }), "{e}");
    assert!(started.elapsed().as_secs() < 5);
    // Separation: a direction that is no direction.
    s.set_x(a, 50.0).unwrap();
    s.set_matrix(b, DAffine2::IDENTITY).unwrap();
    for d in [DVec2::ZERO, DVec2::new(f64::NAN, 1.0)] {
        let e = s.separation(a, b, root, Some(d), &opts).unwrap_err();
        assert!(matches!(e, Error::OutOfRange { .. }), "{e}");
    }
    let e = s
        .separation(a, b, root, None, &opts.max_distance(-1.0))
        .unwrap_err();
    assert!(matches!(e, Error::OutOfRange { .. }), "{e}");
    // Targets outside the parent.
    let other = s.add_container(root).unwrap();
    let e = s.sweep(a, b, other, from, None, &opts).unwrap_err();
    assert!(matches!(e, Error::NotDescendant { .. }), "{e}");
    let e = s
        .sweeps_against(a, Pose::at(0.0, 0.0), &[b], other, &opts)
        .unwrap_err();
    assert!(matches!(e, Error::NotDescendant { .. }), "{e}");
}

#[test]
fn pose_reads_mirrors_and_refuses_skew() {
    let mut s = Stage::new();
    let n = s.add_container(s.root()).unwrap();
    s.set_matrix(n, DAffine2::from_cols_array(&[-2.0, 0.0, 0.0, 3.0, 1.0, 2.0]))
        .unwrap();
    let p = s.pose(n).unwrap();
    assert!(
        (p.matrix()
            .to_cols_array()
            .iter()
            .zip([-2.0, 0.0, 0.0, 3.0, 1.0, 2.0]))
        .all(|(x, y)| (x - y).abs() < 1e-12),
        "{p:?}"
    );
    s.set_matrix(n, DAffine2::from_cols_array(&[1.0, 0.0, 1e-12, 1.0, 0.0, 0.0]))
        .unwrap();
    assert!(s.pose(n).is_ok(), "within 1e-9 is no skew");
    s.set_matrix(n, DAffine2::from_cols_array(&[1.0, 0.0, 1e-6, 1.0, 0.0, 0.0]))
        .unwrap();
    assert!(matches!(s.pose(n), Err(Error::Skew { .. })));
}

const SCENE: &str = r#"{
  "pixelhit_scene": 1,
  "root": { "name": "stage", "children": [
    { "name": "wall", "graphics": [ { "fill": "M100,0 H102 V50 H100 Z" } ] },
    { "name": "post", "graphics": [ { "fill": "M140,20 H150 V30 H140 Z" } ] },
    { "name": "bullet", "x": 180, "y": 20, "graphics": [ { "fill": "M0,0 H3 V3 H0 Z" } ] },
    { "name": "crate", "x": 100, "y": 45, "graphics": [ { "fill": "M0,0 H10 V10 H0 Z" } ] }
  ] },
  "queries": [
    { "sweep": { "a": "bullet", "b": "wall", "parent": "stage", "a_from": { "x": 20 } } },
    { "sweep": { "a": "bullet", "b": "wall", "parent": "stage", "a_from": { "x": 170 }, "max_step": 0.25, "precise": false } },
    { "sweeps_with": { "parent": "stage", "mover": "bullet", "from": { "x": 20, "y": 20 }, "others": "children" } },
    { "sweeps_with": { "parent": "stage", "mover": "bullet", "from": { "x": 20 }, "others": ["post"], "tolerance": 0, "anti_alias": false } },
    { "separation": { "a": "crate", "b": "wall", "parent": "stage", "direction": [1, 0] } },
    { "separation": { "a": "crate", "b": "wall", "parent": "stage", "direction": [0, -1], "max_distance": 2 } },
    { "separation": { "a": "crate", "b": "post", "parent": "stage" } },
    { "sweep": { "a": "bullet", "b": "ghost", "parent": "stage", "a_from": { "x": 20 } } }
  ]
}"#;

#[test]
fn scene_motion_queries_run_and_round_trip() {
    let scene = Scene::from_json(SCENE, "motion.json", std::path::Path::new(".")).unwrap();
    let lines: Vec<String> = scene
        .answers()
        .map(|a| a.unwrap_or_else(|e| Scene::error_line(&e)))
        .collect();
    // The bullet (3 px wide) meets the wall's left edge at x = 97, t = 77/160 (to 1/256 px).
    let t0 = 77.0 / 160.0;
    let sweep: serde_json::Value = serde_json::from_str(&lines[0]).unwrap();
    let t = sweep["sweep"]["t"].as_f64().unwrap();
    // (Later by at most the 1/510 px a solid pixel needs and the 1/256 px grid.)
    assert!(t > t0 && t <= t0 + 2.0 / 256.0 / 160.0, "{}", lines[0]);
    assert_eq!(
        sweep["sweep"]["collision_rect"],
        serde_json::json!([100, 20, 1, 3]),
        "{}",
        lines[0]
    );
    assert_eq!(sweep["sweep"]["overlap_pixels"], 3, "{}", lines[0]);
    assert_eq!(lines[1], r#"{"sweep": null}"#);
    let with: serde_json::Value = serde_json::from_str(&lines[2]).unwrap();
    let names: Vec<&str> = with["sweeps_with"]
        .as_array()
        .unwrap()
        .iter()
        .map(|h| h["other"].as_str().unwrap())
        .collect();
    assert_eq!(names, ["wall", "post"], "{}", lines[2]);
    assert!(
        lines[3].starts_with(r#"{"sweeps_with": [{"other": "post", "t": "#),
        "{}",
        lines[3]
    );
    // The crate overlaps the wall by 2 px to the right of x = 100: pushed right, 2 px.
    assert_eq!(lines[4], r#"{"separation": 2}"#);
    // Up, it needs 5 px: more than the 2 allowed.
    assert_eq!(lines[5], r#"{"separation": null}"#);
    // Not touching the post: nothing to push.
    assert_eq!(lines[6], r#"{"separation": 0}"#);
    assert_eq!(lines[7], r#"{"error": "sweep.b: no object named \"ghost\""}"#);

    // Written back and read again: the same queries and the same answers.
    let saved = scene.to_json("motion.json").unwrap();
    let again = Scene::from_json(&saved, "motion.json", std::path::Path::new(".")).unwrap();
    assert_eq!(again.queries(), scene.queries());
    let lines2: Vec<String> = again
        .answers()
        .map(|a| a.unwrap_or_else(|e| Scene::error_line(&e)))
        .collect();
    assert_eq!(lines2, lines);
    assert!(matches!(scene.queries()[0], Query::Motion(_)));
}

#[test]
fn scene_motion_query_errors_name_the_field() {
    let cases = [
        (
            r#"{"sweep": {"a": "x", "b": "x", "parent": "x"}}"#,
            "queries[0].sweep",
        ),
        (
            r#"{"sweep": {"a": "x", "b": "x", "parent": "x", "a_from": {"z": 1}}}"#,
            "queries[0].sweep.a_from",
        ),
        (
            r#"{"sweep": {"a": "x", "b": "x", "parent": "x", "a_from": {"x": "1"}}}"#,
            "queries[0].sweep.a_from.x",
        ),
        (
            r#"{"sweep": {"a": "x", "b": "x", "parent": "x", "a_from": {}, "max_step": 0.01}}"#,
            "queries[0].sweep.max_step",
        ),
        (
            r#"{"sweep": {"a": "x", "b": "x", "parent": "x", "a_from": {}, "speed": 1}}"#,
            "queries[0].sweep",
        ),
        (
            r#"{"sweeps_with": {"parent": "x", "mover": "x", "others": "children"}}"#,
            "queries[0].sweeps_with",
        ),
        (
            r#"{"sweeps_with": {"parent": "x", "mover": "x", "from": {}, "others": 3}}"#,
            "queries[0].sweeps_with.others",
        ),
        (
            r#"{"separation": {"a": "x", "b": "x", "parent": "x", "direction": [0, 0]}}"#,
            "queries[0].separation.direction",
        ),
        (
            r#"{"separation": {"a": "x", "b": "x", "parent": "x", "direction": [1]}}"#,
            "queries[0].separation.direction",
        ),
        (
            r#"{"separation": {"a": "x", "b": "x", "parent": "x", "max_distance": -1}}"#,
            "queries[0].separation.max_distance",
        ),
        (
            r#"{"separation": {"a": "x", "b": "x", "parent": "x", "precise": false}}"#,
            "queries[0].separation",
        ),
    ];
    for (query, location) in cases {
        let text = format!(r#"{{"pixelhit_scene": 1, "root": {{"name": "x"}}, "queries": [{query}]}}"#);
        match Scene::from_json(&text, "bad.json", std::path::Path::new(".")) {
            Err(Error::Scene { location: got, .. }) => {
                assert!(
                    got.starts_with(location),
                    "{query}: at {got}, expected {location}"
                )
            }
            other => panic!("{query}: {other:?}"),
        }
    }
    // A query error at run time: skew on a moving object.
    let text = r#"{"pixelhit_scene": 1, "root": {"name": "r", "children": [
        {"name": "s", "matrix": [1, 0, 0.5, 1, 0, 0], "graphics": [{"fill": "M0,0 H1 V1 Z"}]}]},
        "queries": [{"sweep": {"a": "s", "b": "r", "parent": "r", "a_from": {"x": 3}}}]}"#;
    let scene = Scene::from_json(text, "skew.json", std::path::Path::new(".")).unwrap();
    let e = scene.run_query(&scene.queries()[0]).unwrap_err();
    assert!(matches!(e, Error::Skew { .. }), "{e}");
}

#[test]
fn the_command_line_tool_prints_motion_answers() {
    let dir = std::env::temp_dir().join(format!("pixelhit-motion-cli-{}", std::process::id()));
    std::fs::create_dir_all(&dir).unwrap();
    let file = dir.join("motion.json");
    std::fs::write(&file, SCENE).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pixelhit"))
        .args(["run", file.to_str().unwrap()])
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    let lines: Vec<&str> = stdout.lines().collect();
    // One line per query, the same as the library's; the unknown name makes the status 1.
    let scene = Scene::from_json(SCENE, "motion.json", std::path::Path::new(".")).unwrap();
    let want: Vec<String> = scene
        .answers()
        .map(|a| a.unwrap_or_else(|e| Scene::error_line(&e)))
        .collect();
    assert_eq!(lines, want);
    assert_eq!(out.status.code(), Some(1));
    // A bad motion field is a file error: status 2, nothing on standard output.
    let bad = SCENE.replace(r#""max_step": 0.25"#, r#""max_step": 0.001"#);
    std::fs::write(&file, bad).unwrap();
    let out = std::process::Command::new(env!("CARGO_BIN_EXE_pixelhit"))
        .args(["run", file.to_str().unwrap()])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(2));
    assert!(out.stdout.is_empty());
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains("motion.json") && err.contains("queries[1].sweep.max_step"),
        "{err}"
    );
    std::fs::remove_dir_all(&dir).unwrap();
}

#[test]
fn sweeps_between_is_sweeps_with_for_every_mover() {
    let mut total = 0;
    for seed in 0..60u64 {
        let mut rng = Rng::new(12_000 + seed);
        let mut s = Stage::new();
        let root = s.root();
        let space = random_space(&mut s, &mut rng);
        let mut others = Vec::new();
        for _ in 0..rng.int(5, 20) {
            let size = rng.range(1.0, 4.0);
            let o = random_art(&mut s, space, &mut rng, size);
            let at = DVec2::new(rng.range(-30.0, 30.0), rng.range(-30.0, 30.0));
            let p = random_pose(&mut rng, at);
            set_pose(&mut s, o, p);
            others.push(o);
        }
        let mut movers = Vec::new();
        for _ in 0..rng.int(1, 12) {
            let size = rng.range(1.0, 3.0);
            let m = random_art(&mut s, space, &mut rng, size);
            let x = rng.range(-30.0, 30.0);
            let from = random_pose(&mut rng, DVec2::new(x, -35.0));
            let to = Pose::new(
                from.x + rng.range(-20.0, 20.0),
                35.0,
                from.rotation + rng.range(-90.0, 90.0),
                1.0,
                1.0,
            );
            set_pose(&mut s, m, to);
            movers.push((m, from));
        }
        // A mover listed again (its first pose counts) and among the others (left out there).
        movers.push((movers[0].0, Pose::at(1e3, 1e3)));
        others.push(movers[0].0);
        let opts = MotionOptions::default().collision(CollisionOptions::default().parallel(rng.coin()));
        let got = s.sweeps_between(root, &movers, &others, &opts).unwrap();
        // Movers do not meet each other: each sweeps against the others that do not move.
        let still: Vec<NodeId> = others
            .iter()
            .copied()
            .filter(|o| !movers.iter().any(|m| m.0 == *o))
            .collect();
        let mut want = Vec::new();
        for &(m, from) in &movers[..movers.len() - 1] {
            want.extend(s.sweeps_against(m, from, &still, root, &opts).unwrap());
        }
        assert_eq!(got, want, "seed {seed}");
        total += got.len();
    }
    assert!(total > 60, "{total} hits");
}
