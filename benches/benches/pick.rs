//! The `pick` benchmark: which object gets a click, in a UI of nested, rotated nodes.
//!
//! A tree of panels (containers turned a few degrees, each holding rows of buttons: a
//! container with a non-interactive round face and a label-sized shape inside), laid out
//! on a grid with a panel every 260 px, so that the screen grows with the UI and a point
//! has as many objects near it at 1,000 nodes as at 10,000; `N` counts every node. One
//! iteration picks at a point that moves on along a fixed path over the whole UI (never
//! the same point twice in a row), as a mouse does.
//!
//! - `pick/N`: the tree does not change between picks (the usual mouse move; the index of
//!   boxes is built once);
//! - `pick_after_move/N`: one panel moves before every pick, so the index is built again
//!   each time (what a pick costs in a frame where the UI moved).
//!
//! Run with `cargo bench -p pixelhit-benches --bench pick`.

use std::hint::black_box;

use criterion::{Criterion, criterion_group, criterion_main};
use pixelhit::{FillRule, Graphic, NodeId, Path, PickOptions, Stage};

/// A UI of about `n` nodes: panels of 4 x 4 buttons, each button 3 nodes.
fn ui(n: usize) -> (Stage, Vec<NodeId>, f64) {
    let mut s = Stage::new();
    let root = s.root();
    let per_panel = 1 + 16 * 3;
    let panels = n.div_ceil(per_panel);
    let side = (panels as f64).sqrt().ceil() as usize;
    let pitch = 260.0;
    let fill = |p: Path| Graphic::fill(p, FillRule::NonZero, 1.0).unwrap();
    let mut all = Vec::new();
    for k in 0..panels {
        let panel = s.add_container(root).unwrap();
        s.add_graphic(panel, fill(Path::rect(0.0, 0.0, 200.0, 200.0)))
            .unwrap();
        s.set_x(panel, (k % side) as f64 * pitch + 10.0).unwrap();
        s.set_y(panel, (k / side) as f64 * pitch + 10.0).unwrap();
        s.set_rotation(panel, (k % 7) as f64 * 3.0 - 9.0).unwrap();
        for b in 0..16 {
            let button = s.add_container(panel).unwrap();
            s.set_x(button, 8.0 + (b % 4) as f64 * 48.0).unwrap();
            s.set_y(button, 8.0 + (b / 4) as f64 * 48.0).unwrap();
            s.set_rotation(button, (b % 5) as f64 * 2.0).unwrap();
            let face = s.add_container(button).unwrap();
            s.set_interactive(face, false).unwrap();
            s.add_graphic(face, fill(Path::circle(20.0, 20.0, 20.0))).unwrap();
            let label = s.add_container(button).unwrap();
            s.set_interactive(label, false).unwrap();
            s.add_graphic(label, fill(Path::rect(8.0, 16.0, 24.0, 8.0)))
                .unwrap();
        }
        all.push(panel);
    }
    (s, all, side as f64 * pitch)
}

/// The `i`-th point of the mouse's path over a screen of `side` x `side` pixels.
fn point(i: u64, side: f64) -> (f64, f64) {
    let t = i as f64;
    ((t * 37.17).rem_euclid(side), (t * 23.71).rem_euclid(side))
}

fn bench(c: &mut Criterion) {
    let opts = PickOptions::default();
    let mut group = c.benchmark_group("pick");
    for n in [1_000, 10_000] {
        let (stage, _, side) = ui(n);
        let mut i = 0u64;
        stage.pick(0.0, 0.0, &opts).unwrap();
        group.bench_function(format!("{n}"), |b| {
            b.iter(|| {
                i += 1;
                let (x, y) = point(i, side);
                black_box(stage.pick(x, y, &opts).unwrap())
            })
        });
    }
    group.finish();
    let mut group = c.benchmark_group("pick_after_move");
    group.sample_size(20);
    for n in [1_000, 10_000] {
        let (mut stage, panels, side) = ui(n);
        let mut i = 0u64;
        group.bench_function(format!("{n}"), |b| {
            b.iter(|| {
                i += 1;
                let p = panels[i as usize % panels.len()];
                stage.set_x(p, stage.x(p).unwrap() + 0.25).unwrap();
                let (x, y) = point(i, side);
                black_box(stage.pick(x, y, &opts).unwrap())
            })
        });
    }
    group.finish();
}

criterion_group!(benches, bench);
criterion_main!(benches);
