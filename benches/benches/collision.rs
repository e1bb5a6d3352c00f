//! Collision benchmarks: pixelhit against the literal Flash pipeline, on the same scenes.
//!
//! Run with `cargo bench -p pixelhit-benches --bench collision`; each group's functions are comparable within
//! one run.

use std::hint::black_box;

use criterion::{BatchSize, Criterion, criterion_group, criterion_main};
use pixelhit::{CollisionOptions, Method, NodeId, RadialOptions, Stage};

use pixelhit_benches::{flash, scenes};

fn pair(c: &mut Criterion, group: &str, (mut stage, a, b): (Stage, NodeId, NodeId), modes: &[(&str, bool)]) {
    let mut g = c.benchmark_group(group);
    let root = stage.root();
    for &(name, anti_alias) in modes {
        let opts = CollisionOptions::default().anti_alias(anti_alias);
        // Nothing changes between queries: the answer kept for the frame is read back (a
        // figure that holds only while the tree does not change).
        g.bench_function(name, |bench| {
            bench.iter(|| black_box(stage.collision(black_box(a), black_box(b), root, &opts).unwrap()))
        });
        // The tree changes between queries (a moves a whole pixel right, then back), so the
        // answer is worked out again, from rasters the cache holds: the cost of a query on
        // sprites that stand still or move by whole pixels while others move.
        let mut step = 1.0;
        g.bench_function(format!("{name}_moved"), |bench| {
            bench.iter(|| {
                let x = stage.x(a).unwrap();
                stage.set_x(a, x + step).unwrap();
                step = -step;
                black_box(stage.collision(black_box(a), black_box(b), root, &opts).unwrap())
            })
        });
        // Cold: a fresh copy of the stage for every query (a clone of a stage starts with an
        // empty cache), so everything is flattened and rasterized again.
        g.bench_function(format!("{name}_cold"), |bench| {
            bench.iter_batched(
                || stage.clone(),
                |fresh| black_box(fresh.collision(a, b, root, &opts).unwrap()),
                BatchSize::SmallInput,
            )
        });
    }
    g.bench_function("flash_pipeline", |bench| {
        bench.iter(|| {
            black_box(flash::flash_pipeline(
                &stage,
                black_box(a),
                black_box(b),
                root,
                255,
            ))
        })
    });
    methods(&mut g, &stage, a, b);
    g.finish();
}

/// One function per collision method of issue 6, each answering yes or no (`pixelhit`
/// above is the exact method's full answer, rectangle and count).
fn methods(
    g: &mut criterion::BenchmarkGroup<'_, criterion::measurement::WallTime>,
    stage: &Stage,
    a: NodeId,
    b: NodeId,
) {
    let root = stage.root();
    let opts = CollisionOptions::default();
    let radial = RadialOptions::default();
    for (name, method) in [
        ("method_exact", Method::Exact),
        ("method_bitmask", Method::Bitmask),
        ("method_linear_scan", Method::LinearScan),
        ("method_incremental_scan", Method::IncrementalScan),
        ("method_summed_area", Method::SummedArea),
        ("method_sampled_4", Method::Sampled { n: 4 }),
        ("method_radial", Method::Radial(radial)),
        ("method_flash", Method::FlashPipeline { compat: false }),
        ("method_flash_compat", Method::FlashPipeline { compat: true }),
    ] {
        g.bench_function(name, |bench| {
            bench.iter(|| {
                black_box(
                    stage
                        .collides_with(black_box(a), black_box(b), root, &opts, method)
                        .unwrap(),
                )
            })
        });
    }
    // The radial test as games use it: profiles built once, tested at every frame.
    let profile = |n| stage.radial_profile(n, root, &opts, radial).unwrap().unwrap();
    let (pa, pb) = (profile(a), profile(b));
    g.bench_function("method_radial_cached", |bench| {
        bench.iter(|| {
            let ma = stage.matrix_to(black_box(a), root).unwrap();
            let mb = stage.matrix_to(black_box(b), root).unwrap();
            black_box(pa.collides(ma, &pb, mb))
        })
    });
}

fn benches(c: &mut Criterion) {
    for size in [64, 256, 1024] {
        pair(
            c,
            &format!("aligned_{size}"),
            scenes::aligned(size),
            &[("pixelhit", true)],
        );
    }
    pair(
        c,
        "rotated_vector_128",
        scenes::rotated_vector(),
        &[("pixelhit", true)],
    );
    pair(
        c,
        "rotated_bitmap_128",
        scenes::rotated_bitmap(),
        &[("pixelhit", true), ("pixelhit_no_aa", false)],
    );
    pair(c, "near_miss", scenes::near_miss(), &[("pixelhit", true)]);
    pair(c, "deep_tree", scenes::deep_tree(), &[("pixelhit", true)]);

    let (mut stage, a, b) = scenes::rotated_vector();
    let root = stage.root();
    let opts = CollisionOptions::default();
    let mut g = c.benchmark_group("moving_pair");
    // Every frame both stars turn and move by a fraction of a pixel, to a pose never seen
    // before (scenes::move_pair: the pose is a function of the frame number, which keeps
    // growing across iterations), so no raster comes from the cache: this is the cost of a
    // frame in which both sprites moved by a fraction of a pixel and turned.
    let mut frame = 0usize;
    g.bench_function("pixelhit", |bench| {
        bench.iter(|| {
            frame += 1;
            scenes::move_pair(&mut stage, a, b, frame);
            black_box(stage.collision(a, b, root, &opts).unwrap())
        })
    });
    let mut frame = 0usize;
    g.bench_function("flash_pipeline", |bench| {
        bench.iter(|| {
            frame += 1;
            scenes::move_pair(&mut stage, a, b, frame);
            black_box(flash::flash_pipeline(&stage, a, b, root, 255))
        })
    });
    g.finish();
}

criterion_group!(collision, benches);
criterion_main!(collision);
