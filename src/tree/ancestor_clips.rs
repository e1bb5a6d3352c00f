//! The clips of a node's ancestors below a space, kept while the tree is unchanged.
//!
//! A motion query tests one target in many poses (issue 28, class 5: a bullet under 1,000
//! nested scroll windows, 500 px of travel, took 12.7 s). Only the target's own scroll
//! window moves with its pose; its ancestors' windows and masks, and the matrix of each
//! window to the space (a walk up the tree each, so depth squared per pose), are the same
//! in every pose. They are made once per (node, space) and tree revision, with the same
//! arithmetic as before, so the answers are the same to the bit.

use std::collections::HashMap;
use std::sync::{Arc, Mutex};

use crate::tree::node::NodeId;
use crate::tree::walk::Clips;

/// Most (node, space) lists kept at once; past it the kept ones go (a frame's motion queries
/// ask for a few per mover).
const MAX_KEPT: usize = 4096;

/// What is kept: the lists of the tree at `revision`, `None` where an ancestor is a mask.
#[derive(Default)]
struct Kept {
    revision: u64,
    lists: HashMap<(NodeId, NodeId), Option<Clips>>,
}

/// The kept lists of a stage. A clone of a stage starts empty.
#[derive(Default)]
pub(crate) struct AncestorClips {
    kept: Mutex<Kept>,
    /// Lists made (not found kept): what the tests of motion queries count.
    #[cfg(test)]
    pub made: std::sync::atomic::AtomicUsize,
}

impl AncestorClips {
    /// The list kept for `(node, space)` in the tree at `revision`, or the one `make` gives,
    /// which is kept. An error is not kept.
    pub fn get_or_make(
        &self,
        revision: u64,
        key: (NodeId, NodeId),
        make: impl FnOnce() -> crate::Result<Option<Clips>>,
    ) -> crate::Result<Option<Clips>> {
        {
            let kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
            if kept.revision == revision
                && let Some(list) = kept.lists.get(&key)
            {
                return Ok(list.clone());
            }
        }
        let list = make()?;
        #[cfg(test)]
        self.made.fetch_add(1, std::sync::atomic::Ordering::Relaxed);
        let mut kept = self.kept.lock().unwrap_or_else(|e| e.into_inner());
        if kept.revision != revision || kept.lists.len() >= MAX_KEPT {
            kept.lists.clear();
            kept.revision = revision;
        }
        kept.lists.insert(key, list.clone());
        Ok(list)
    }
}

impl Clone for AncestorClips {
    fn clone(&self) -> Self {
        AncestorClips::default()
    }
}

impl std::fmt::Debug for AncestorClips {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str("AncestorClips")
    }
}

// A list holds only clips (windows and mask ids), shared by `Arc`.
const _: fn() = || {
    fn shareable<T: Send + Sync>() {}
    shareable::<Option<Arc<crate::tree::walk::ClipLink>>>();
};

#[cfg(test)]
mod tests {
    use std::sync::atomic::Ordering;

    use glam::DAffine2;

    use crate::{FillRule, Graphic, MotionOptions, NodeId, Path, Pose, Stage};

    fn square(stage: &mut Stage, node: NodeId, side: f64) {
        let g = Graphic::fill(Path::rect(0.0, 0.0, side, side), FillRule::NonZero, 1.0).unwrap();
        stage.add_graphic(node, g).unwrap();
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
                square(&mut s, n, 5.0 + unit() * 50.0);
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
                    square(&mut s, m, 30.0);
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

    /// Issue 28, class 5: a bullet under 300 nested scroll windows that clip nothing, swept
    /// 200 px into a wall: its ancestors' clips are made once for the whole sweep (every
    /// pose it tests near the wall), not once per pose.
    #[test]
    fn a_sweep_makes_the_clips_above_its_mover_once() {
        let mut s = Stage::new();
        let mut parent = s.root();
        for _ in 0..300 {
            let c = s.add_container(parent).unwrap();
            s.set_scroll_rect(c, Some([0.0, 0.0, 3000.0, 3000.0])).unwrap();
            parent = c;
        }
        let bullet = s.add_container(parent).unwrap();
        square(&mut s, bullet, 4.0);
        s.set_position(bullet, 200.0, 0.0).unwrap();
        let wall = s.add_container(s.root()).unwrap();
        square(&mut s, wall, 10.0);
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
}
