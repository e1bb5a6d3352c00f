//! Steady-state queries allocate nothing: a sprite that did not change since the last query
//! is answered from cached masks without touching the allocator. Counted with a counting
//! global allocator (allocation-counter), which only this test binary links.

use pixelhit::{Bitmap, CollisionOptions, FillRule, Graphic, Path, Stage};

fn blob(size: u32) -> Bitmap {
    let c = f64::from(size) / 2.0;
    let rgba = (0..size * size)
        .flat_map(|i| {
            let (x, y) = (f64::from(i % size) + 0.5 - c, f64::from(i / size) + 0.5 - c);
            let a = if x * x + y * y < c * c { 255 } else { 0 };
            [9, 9, 9, a]
        })
        .collect();
    Bitmap::from_rgba8(size, size, rgba).unwrap()
}

#[test]
fn steady_state_queries_do_not_allocate() {
    let mut stage = Stage::new();
    let root = stage.root();
    let a = stage.add_bitmap(root, blob(100), false).unwrap();
    let b = stage.add_bitmap(root, blob(80), false).unwrap();
    stage.set_x(b, 60.0).unwrap();
    stage.set_y(b, 10.0).unwrap();
    let star = stage.add_container(root).unwrap();
    let pts: Vec<_> = (0..10)
        .map(|i| {
            let (s, c) = (i as f64 * std::f64::consts::PI / 5.0).sin_cos();
            let r = if i % 2 == 0 { 50.0 } else { 20.0 };
            pixelhit::DVec2::new(r * c, r * s)
        })
        .collect();
    stage
        .add_graphic(
            star,
            Graphic::fill(Path::polygon(&pts), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
    stage.set_rotation(star, 17.0).unwrap();
    stage.set_x(star, 90.3).unwrap();
    stage.set_y(star, 60.7).unwrap();
    let opts = CollisionOptions::default();
    // The counter does count: a first query draws rasters into new buffers.
    let cold = allocation_counter::measure(|| {
        stage.clone().collision(a, star, root, &opts).unwrap();
    });
    assert!(cold.count_total > 0);
    for (x, y) in [(a, b), (a, star), (star, b)] {
        // Two warm-up queries: the first draws and caches the rasters, the second makes
        // their masks.
        let first = stage.collision(x, y, root, &opts).unwrap();
        stage.collision(x, y, root, &opts).unwrap();
        let mut again = None;
        let info = allocation_counter::measure(|| {
            again = Some(stage.collision(x, y, root, &opts).unwrap());
        });
        assert_eq!(again, Some(first));
        assert!(
            first.overlap_pixels.unwrap() > 0,
            "the pair must overlap: {first:?}"
        );
        assert_eq!(
            info.count_total, 0,
            "allocations in a steady-state query: {info:?}"
        );
    }
}
