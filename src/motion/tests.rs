//! Unit tests of the motion module: a motion's matrices against the tree's own, and its
//! speed bound against the distances its corners really move.

use glam::{DAffine2, DVec2};

use super::pose::Motion;
use super::{MotionOptions, Pose};
use crate::{Error, FillRule, Graphic, NodeId, Path, Stage};

/// SplitMix64, for reproducible random cases.
struct Rng(u64);

impl Rng {
    fn unit(&mut self) -> f64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        ((z ^ (z >> 31)) >> 11) as f64 / (1u64 << 53) as f64
    }
    fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }
}

/// A target two levels below the root under transformed (one skewed, one scrolled)
/// containers, and a random motion of it.
fn case(seed: u64) -> (Stage, NodeId, Pose) {
    let mut rng = Rng(seed);
    let mut s = Stage::new();
    let outer = s.add_container(s.root()).unwrap();
    let m = DAffine2::from_cols_array(&[
        rng.range(0.5, 2.0),
        rng.range(-0.5, 0.5),
        rng.range(-0.5, 0.5),
        rng.range(0.5, 2.0),
        rng.range(-100.0, 100.0),
        rng.range(-100.0, 100.0),
    ]);
    s.set_matrix(outer, m).unwrap();
    let inner = s.add_container(outer).unwrap();
    s.set_transform(inner, 3.0, -4.0, rng.range(0.0, 360.0), rng.range(0.5, 2.0), 1.0)
        .unwrap();
    let target = s.add_container(inner).unwrap();
    let r = Path::rect(
        rng.range(-20.0, 0.0),
        rng.range(-20.0, 0.0),
        rng.range(1.0, 30.0),
        5.0,
    );
    s.add_graphic(target, Graphic::fill(r, FillRule::NonZero, 1.0).unwrap())
        .unwrap();
    if rng.unit() < 0.3 {
        s.set_scroll_rect(target, Some([2.0, 1.0, 50.0, 50.0])).unwrap();
    }
    let to = Pose::new(
        rng.range(-50.0, 50.0),
        rng.range(-50.0, 50.0),
        rng.range(-400.0, 400.0),
        rng.range(-2.0, 2.0),
        rng.range(0.2, 2.0),
    );
    s.set_transform(target, to.x, to.y, to.rotation, to.scale_x, to.scale_y)
        .unwrap();
    let from = Pose::new(
        to.x + rng.range(-30.0, 30.0),
        to.y + rng.range(-30.0, 30.0),
        to.rotation + rng.range(-200.0, 200.0),
        to.scale_x + rng.range(-1.0, 1.0),
        to.scale_y + rng.range(-1.0, 1.0),
    );
    (s, target, from)
}

#[test]
fn poses_are_the_matrices_the_setters_make() {
    for seed in 0..300 {
        let (s, target, from) = case(seed);
        let root = s.root();
        let motion = Motion::new(&s, target, root, from, "from").unwrap();
        // The end is the node's own pose, bit for bit.
        assert_eq!(
            motion.matrix_at(1.0),
            s.matrix_to(target, root).unwrap(),
            "seed {seed}"
        );
        assert_eq!(
            motion.bounds_at(1.0),
            s.bounds(target, root).unwrap(),
            "seed {seed}"
        );
        // Any time in between is the node set to the interpolated pose.
        let t = (seed as f64 * 0.618).fract();
        let p = from.lerp(&s.pose(target).unwrap(), t);
        let mut posed = s.clone();
        posed
            .set_transform(target, p.x, p.y, p.rotation, p.scale_x, p.scale_y)
            .unwrap();
        assert_eq!(
            motion.matrix_at(t),
            posed.matrix_to(target, root).unwrap(),
            "seed {seed}"
        );
        assert_eq!(
            motion.bounds_at(t),
            posed.bounds(target, root).unwrap(),
            "seed {seed}"
        );
    }
}

#[test]
fn no_corner_moves_faster_than_the_speed_bound() {
    let mut tightest = 0.0f64;
    for seed in 0..300 {
        let (s, target, from) = case(1000 + seed);
        let root = s.root();
        let motion = Motion::new(&s, target, root, from, "from").unwrap();
        let local = s.bounds(target, target).unwrap().unwrap();
        let n = 400;
        for k in 0..n {
            let (t0, t1) = (k as f64 / n as f64, (k + 1) as f64 / n as f64);
            let (m0, m1) = (motion.matrix_at(t0), motion.matrix_at(t1));
            let moved = local
                .corners()
                .iter()
                .map(|&c| (m1.transform_point2(c) - m0.transform_point2(c)).length())
                .fold(0.0, f64::max);
            let allowed = motion.speed * (t1 - t0);
            assert!(moved <= allowed, "seed {seed}: {moved} > {allowed} at {t0}");
            tightest = tightest.max(moved / allowed);
        }
    }
    // The bound is not loose for nothing: some interval comes close to it.
    assert!(tightest > 0.5, "{tightest}");
}

#[test]
fn lerp_gives_both_ends_exactly() {
    let a = Pose::new(0.1, -7.3, 350.0, 0.3, -1.7);
    let b = Pose::new(1e7 + 0.3, 2.9, 370.0, 1.1, 2.3);
    assert_eq!(a.lerp(&b, 0.0), a);
    assert_eq!(a.lerp(&b, 1.0), b);
    assert_eq!(a.lerp(&b, 0.5).rotation, 360.0);
    assert_eq!(
        Pose::at(2.0, 3.0).matrix(),
        DAffine2::from_translation(DVec2::new(2.0, 3.0))
    );
}

#[test]
fn max_step_is_checked() {
    assert!(MotionOptions::default().check().is_ok());
    assert!(MotionOptions::default().max_step(1.0 / 64.0).check().is_ok());
    for bad in [1.0 / 64.0 - 1e-12, 0.0, f64::NAN, f64::INFINITY, -1.0] {
        assert!(matches!(
            MotionOptions::default().max_step(bad).check(),
            Err(Error::OutOfRange { .. })
        ));
    }
}

/// Issue 28, class 5: a bullet under 300 nested scroll windows that clip nothing, swept
/// 200 px into a wall: its ancestors' clips (src/tree/ancestor_clips.rs) are made once for
/// the whole sweep (every pose it tests near the wall), not once per pose.
#[test]
fn a_sweep_makes_the_clips_above_its_mover_once() {
    use std::sync::atomic::Ordering;
    let square = |side: f64| Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap();
    let mut s = Stage::new();
    let mut parent = s.root();
    for _ in 0..300 {
        let c = s.add_container(parent).unwrap();
        s.set_scroll_rect(c, Some([0.0, 0.0, 3000.0, 3000.0])).unwrap();
        parent = c;
    }
    let bullet = s.add_container(parent).unwrap();
    s.add_graphic(bullet, square(4.0)).unwrap();
    s.set_position(bullet, 200.0, 0.0).unwrap();
    let wall = s.add_container(s.root()).unwrap();
    s.add_graphic(wall, square(10.0)).unwrap();
    s.set_position(wall, 100.0, -3.0).unwrap();
    let root = s.root();
    let before = s.ancestor_clips.made.load(Ordering::Relaxed);
    let hit = s
        .sweep(
            bullet,
            wall,
            root,
            Some(Pose::at(0.0, 0.0)),
            None,
            &MotionOptions::default(),
        )
        .unwrap();
    assert!(hit.is_some(), "the bullet meets the wall");
    let made = s.ancestor_clips.made.load(Ordering::Relaxed) - before;
    assert_eq!(made, 1, "lists made for one sweep");
}

/// Random nested containers with scroll windows and masks, turned and moved: the clips
/// above a posed target, kept or not, are the ones the walk makes, to the bit.
#[test]
fn kept_lists_are_the_walked_ones() {
    let mut seed = 0x2545_f491_4f6c_dd1d_u64;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 7;
        seed ^= seed << 17;
        seed
    };
    let mut unit = move || (next() >> 11) as f64 / (1u64 << 53) as f64;
    for case in 0..400 {
        let mut s = Stage::new();
        let mut chain = vec![s.root()];
        for _ in 0..1 + (unit() * 12.0) as usize {
            let parent = chain[(unit() * chain.len() as f64) as usize];
            let n = s.add_container(parent).unwrap();
            add_square(&mut s, n, 5.0 + unit() * 50.0);
            s.set_transform(
                n,
                unit() * 40.0 - 20.0,
                unit() * 40.0 - 20.0,
                unit() * 720.0 - 360.0,
                0.3 + unit() * 2.0,
                0.3 + unit() * 2.0,
            )
            .unwrap();
            if unit() < 0.5 {
                s.set_scroll_rect(
                    n,
                    Some([
                        unit() * 5.0,
                        unit() * 5.0,
                        10.0 + unit() * 40.0,
                        10.0 + unit() * 40.0,
                    ]),
                )
                .unwrap();
            }
            if unit() < 0.2 && parent != s.root() {
                let m = s.add_container(parent).unwrap();
                add_square(&mut s, m, 30.0);
                s.set_mask(n, Some(m)).unwrap();
            }
            chain.push(n);
        }
        let target = *chain.last().unwrap();
        for space in chain
            .iter()
            .copied()
            .filter(|&a| a == s.root() || s.is_ancestor(a, target).unwrap())
        {
            for _ in 0..3 {
                let pose = DAffine2::from_angle_translation(
                    unit() * 6.0,
                    glam::DVec2::new(unit() * 99.0, unit() * 99.0),
                );
                let kept = s
                    .clips_above_posed(target, space, Some(pose), &DAffine2::IDENTITY)
                    .unwrap();
                let walked = s
                    .clips_walked(target, space, Some(pose), &DAffine2::IDENTITY)
                    .unwrap();
                assert_eq!(format!("{kept:?}"), format!("{walked:?}"), "case {case}");
            }
        }
    }
}

fn add_square(stage: &mut Stage, node: NodeId, side: f64) {
    let g = Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(node, g).unwrap();
}

/// `set_poses` against `set_transform` one node at a time: the same matrices and poses over
/// random batches (nodes repeated, removed nodes, values that are not finite or overflow
/// the matrix), the same first error, and nothing changed when it refuses.
#[test]
fn set_poses_is_set_transform_in_order_or_nothing() {
    let mut rng = Rng(29);
    let (mut refused, mut set) = (0, 0);
    for _ in 0..2_000 {
        let mut s = Stage::new();
        let mut nodes: Vec<NodeId> = (0..6).map(|_| s.add_container(s.root()).unwrap()).collect();
        let gone = nodes.pop().unwrap();
        s.remove(gone).unwrap();
        let mut batch = Vec::new();
        for _ in 0..(1 + (rng.unit() * 8.0) as usize) {
            let node = match rng.unit() {
                u if u < 0.03 => gone,
                u => nodes[(u * nodes.len() as f64) as usize % nodes.len()],
            };
            let mut v = [
                rng.range(-1e3, 1e3),
                rng.range(-1e3, 1e3),
                rng.range(-720.0, 720.0),
                rng.range(-4.0, 4.0),
                rng.range(-4.0, 4.0),
            ];
            if rng.unit() < 0.03 {
                v[(rng.unit() * 5.0) as usize % 5] =
                    [f64::NAN, f64::INFINITY, 1e308][(rng.unit() * 3.0) as usize % 3];
            }
            batch.push((node, Pose::new(v[0], v[1], v[2], v[3], v[4])));
        }
        let mut one_by_one = s.clone();
        let want = batch
            .iter()
            .try_for_each(|&(n, p)| one_by_one.set_transform(n, p.x, p.y, p.rotation, p.scale_x, p.scale_y));
        let before: Vec<_> = nodes.iter().map(|&n| s.matrix(n).unwrap()).collect();
        match (s.set_poses(&batch), want) {
            (Ok(()), Ok(())) => {
                set += 1;
                for &n in &nodes {
                    assert_eq!(s.matrix(n).unwrap(), one_by_one.matrix(n).unwrap());
                    assert_eq!(s.pose(n).ok(), one_by_one.pose(n).ok());
                }
            }
            (Err(got), Err(first)) => {
                refused += 1;
                assert_eq!(got.to_string(), first.to_string());
                let after: Vec<_> = nodes.iter().map(|&n| s.matrix(n).unwrap()).collect();
                assert_eq!(after, before, "a refused batch changed a node");
            }
            (got, want) => panic!("set_poses gave {got:?}, one at a time {want:?}"),
        }
    }
    assert!(refused > 100 && set > 1_000, "{refused} refused, {set} set");
}
