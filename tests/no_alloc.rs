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

/// Turning a renderer-drawn sprite every frame (`set_bitmap_renderer`, semantics.md 4.9)
/// allocates nothing, and a frame whose angles were all seen before is answered from the
/// cached masks without allocating either.
#[test]
fn setting_a_renderer_every_frame_does_not_allocate() {
    use pixelhit::{BitmapRenderer, PygameTransform};
    let mut stage = Stage::new();
    let root = stage.root();
    let a = stage.add_bitmap(root, blob(40), false).unwrap();
    let b = stage.add_bitmap(root, blob(30), false).unwrap();
    stage.set_position(b, 25.0, 12.0).unwrap();
    let turn = |k: u32| {
        let t = if k.is_multiple_of(2) {
            PygameTransform::rotate(f64::from(k) * 7.5)
        } else {
            PygameTransform::rotozoom(f64::from(k) * 7.5, 1.25)
        };
        Some(BitmapRenderer::Pygame(t))
    };
    let opts = CollisionOptions::default();
    // Two rounds of warm-up over every angle: the first makes the poses, the second draws
    // them whole and masks them.
    for _ in 0..2 {
        for k in 0..8 {
            stage.set_bitmap_renderer(a, turn(k)).unwrap();
            stage.set_bitmap_renderer(b, turn(k + 3)).unwrap();
            stage.collision(a, b, root, &opts).unwrap();
        }
    }
    let setting = allocation_counter::measure(|| {
        for k in 0..1000 {
            stage.set_bitmap_renderer(a, turn(k)).unwrap();
        }
    });
    assert_eq!(
        setting.count_total, 0,
        "allocations setting renderers: {setting:?}"
    );
    let mut touching = 0;
    let frames = allocation_counter::measure(|| {
        for k in 0..8 {
            stage.set_bitmap_renderer(a, turn(k)).unwrap();
            stage.set_bitmap_renderer(b, turn(k + 3)).unwrap();
            let hit = stage.collision(a, b, root, &opts).unwrap();
            touching += usize::from(hit.rect.is_some());
        }
    });
    assert!(
        touching > 4,
        "the sprites must overlap at most angles: {touching}"
    );
    assert_eq!(
        frames.count_total, 0,
        "allocations in frames of seen angles: {frames:?}"
    );
}

/// Resident memory of this process (Linux), in bytes.
fn resident_bytes() -> Option<u64> {
    let statm = std::fs::read_to_string("/proc/self/statm").ok()?;
    let pages: u64 = statm.split_whitespace().nth(1)?.parse().ok()?;
    Some(pages * 4096)
}

/// A game whose sprites turn and move by fractions of a pixel every frame makes a new pose
/// of every sprite every frame. What the stage keeps of them must stay flat (issue 12: the
/// cache grew to 128 MiB and then emptied in one go, stalling a frame), whether counted by
/// the cache or seen in the process's resident memory.
#[test]
fn spinning_sprites_keep_memory_flat_frame_after_frame() {
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let mut sprites = Vec::new();
    for i in 0..50u32 {
        let s = stage.add_container(world).unwrap();
        if i % 2 == 0 {
            let pts: Vec<_> = (0..10)
                .map(|k| {
                    let (sin, cos) = (f64::from(k) * std::f64::consts::PI / 5.0).sin_cos();
                    let r = if k % 2 == 0 { 16.0 } else { 7.0 };
                    glam::DVec2::new(r * cos, r * sin)
                })
                .collect();
            let star = Graphic::fill(Path::polygon(&pts), FillRule::NonZero, 1.0).unwrap();
            stage.add_graphic(s, star).unwrap();
        } else {
            stage.add_bitmap(s, blob(24), false).unwrap();
        }
        sprites.push(s);
    }
    let opts = CollisionOptions::default();
    let fold = |u: f64, side: f64| {
        let m = u.rem_euclid(2.0 * side);
        if m > side { 2.0 * side - m } else { m }
    };
    let (mut cached, mut resident) = (Vec::new(), Vec::new());
    let mut contacts = 0;
    for frame in 0..3000u32 {
        let t = f64::from(frame);
        for (i, &s) in sprites.iter().enumerate() {
            let k = i as f64;
            stage
                .set_x(s, fold(k * 37.0 + t * (0.3 + 0.017 * k), 300.0))
                .unwrap();
            stage
                .set_y(s, fold(k * 23.0 + t * (0.7 - 0.013 * k), 200.0))
                .unwrap();
            stage
                .set_rotation(s, (k * 11.0 + t * (1.0 + 0.05 * k)).rem_euclid(360.0))
                .unwrap();
        }
        contacts += stage.contacts_among(&sprites, world, &opts).unwrap().len();
        assert!(stage.cache_bytes() <= 128 << 20);
        if frame >= 1000 {
            cached.push(stage.cache_bytes());
            resident.extend(resident_bytes());
        }
    }
    assert!(contacts > 1000, "the sprites must meet: {contacts} contacts");
    let spread = |v: &[u64]| v.iter().max().unwrap_or(&0) - v.iter().min().unwrap_or(&0);
    let cached: Vec<u64> = cached.into_iter().map(|b| b as u64).collect();
    // 150,000 new poses in all (tens of MB of edges). The cache ages once 16 MiB came in
    // since its last age and then drops what neither age used, so what it holds swings by
    // about an age's intake (docs/how-it-works.md): it may swing by that, but must not
    // grow with the poses.
    eprintln!(
        "cache bytes over frames 1,000 to 3,000: {:?} to {:?}",
        cached.iter().min(),
        cached.iter().max()
    );
    assert!(
        spread(&cached) < 24 << 20,
        "the cache went from {:?} to {:?} bytes",
        cached.iter().min(),
        cached.iter().max()
    );
    let (early, late) = cached.split_at(cached.len() / 2);
    let most = |v: &[u64]| v.iter().copied().max().unwrap_or(0);
    assert!(
        most(late) <= most(early) + (2 << 20),
        "the cache grew: at most {} bytes in frames 1,000 to 2,000, {} after",
        most(early),
        most(late)
    );
    eprintln!(
        "resident bytes over frames 1,000 to 3,000: {:?} to {:?}",
        resident.iter().min(),
        resident.iter().max()
    );
    assert!(
        spread(&resident) < 32 << 20,
        "resident memory went from {:?} to {:?}",
        resident.iter().min(),
        resident.iter().max()
    );
}
