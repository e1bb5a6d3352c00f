//! `PlannedRenderer`: a pygame renderer planned once for a bitmap size, then set with
//! `Stage::set_planned_renderer`, does what `set_bitmap_renderer` does.

use pixelhit::{Bitmap, BitmapRenderer, CollisionOptions, Error, PlannedRenderer, PygameTransform, Stage};

/// A bitmap of `w` x `h` with alpha varying over it (some texels clear), from `seed`.
fn art(w: u32, h: u32, seed: u64) -> Bitmap {
    let mut s = seed | 1;
    let mut rgba = Vec::new();
    for _ in 0..w * h {
        s ^= s << 13;
        s ^= s >> 7;
        s ^= s << 17;
        rgba.extend([90, 90, 90, [0, 60, 127, 128, 255][(s % 5) as usize]]);
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

/// Two stages with the same two bitmap nodes, one given its renderer by
/// `set_bitmap_renderer`, the other by `set_planned_renderer` with a renderer planned for
/// its bitmap's size or another: the same renderer, bounds and collisions.
#[test]
fn planned_renderer_sets_what_set_bitmap_renderer_sets() {
    let mut replanned = 0;
    for case in 0..300u64 {
        let (w, h) = (1 + (case * 7 % 23) as u32, 1 + (case * 11 % 17) as u32);
        let angle = (case as f64 * 37.3) % 720.0 - 360.0;
        let scale = 0.25 + (case % 9) as f64 * 0.3;
        let t = match case % 2 {
            0 => PygameTransform::rotate(angle),
            _ => PygameTransform::rotozoom(angle, scale),
        };
        let r = BitmapRenderer::Pygame(t);
        // Planned for the node's bitmap, or for another size (then planned again).
        let planned_for = match case % 3 {
            0 => (w + 1, h),
            _ => (w, h),
        };
        replanned += usize::from(planned_for != (w, h));
        let planned = PlannedRenderer::new(r, planned_for.0, planned_for.1).unwrap();
        let mut answers = Vec::new();
        for by_plan in [false, true] {
            let mut stage = Stage::new();
            let root = stage.root();
            let a = stage.add_bitmap(root, art(w, h, case), false).unwrap();
            let b = stage.add_bitmap(root, art(9, 5, case + 1), false).unwrap();
            stage
                .set_position(b, (case % 13) as f64 - 4.0, (case % 7) as f64 - 3.0)
                .unwrap();
            match by_plan {
                false => stage.set_bitmap_renderer(a, Some(r)).unwrap(),
                true => stage.set_planned_renderer(a, &planned).unwrap(),
            }
            let opts = CollisionOptions::default().tolerance(127);
            answers.push((
                stage.bitmap_renderer(a).unwrap(),
                stage.bounds(a, root).unwrap(),
                stage.collision(a, b, root, &opts).unwrap(),
            ));
        }
        assert_eq!(answers[0], answers[1], "case {case}");
        assert_eq!(answers[1].0, Some(r));
    }
    assert_eq!(replanned, 100);
}

#[test]
fn planned_renderer_refuses_what_pygame_cannot_compute_and_containers() {
    let r = BitmapRenderer::Pygame(PygameTransform::rotozoom(10.0, f64::NAN));
    assert!(matches!(
        PlannedRenderer::new(r, 4, 4),
        Err(Error::OutOfRange { .. })
    ));
    let turned = BitmapRenderer::Pygame(PygameTransform::rotate(90.0));
    let planned = PlannedRenderer::new(turned, 4, 2).unwrap();
    assert_eq!((planned.size(), planned.source_size()), ((2, 4), (4, 2)));
    let mut stage = Stage::new();
    let box_ = stage.add_container(stage.root()).unwrap();
    assert!(matches!(
        stage.set_planned_renderer(box_, &planned),
        Err(Error::NotBitmap { .. })
    ));
    // Planned for a small bitmap, set on one whose surface would pass pygame's limit
    // (300 texels times 64): planned again, refused, the node's renderer unchanged.
    let zoom = BitmapRenderer::Pygame(PygameTransform::rotozoom(0.0, 64.0));
    let small = PlannedRenderer::new(zoom, 2, 1).unwrap();
    let wide = stage.add_bitmap(stage.root(), art(300, 1, 3), false).unwrap();
    assert!(matches!(
        stage.set_planned_renderer(wide, &small),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(stage.bitmap_renderer(wide).unwrap(), None);
}
