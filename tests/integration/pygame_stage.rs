//! Bitmap nodes drawn by pygame's renderers (`Stage::set_bitmap_renderer`, semantics.md
//! 4.9) in every query, against a brute-force overlap of the two surfaces built whole from
//! `PygameTransform::alpha_row` (itself checked against recordings of pygame, in
//! `pygame_renderer`) and placed at the nodes' positions.

use pixelhit::{
    Bitmap, BitmapRenderer, CollisionOptions, ColorTransform, Error, FillRule, Graphic, NodeId, Path,
    PygameFlavour, PygameTransform, Rect, Stage,
};

use super::common::Rng;

/// Random art: soft discs, noise with holes, thin bars, hard squares.
fn art(rng: &mut Rng) -> Bitmap {
    let (w, h) = (rng.int(1, 36) as u32, rng.int(1, 36) as u32);
    let kind = rng.int(0, 3);
    let (cx, cy) = (f64::from(w) / 2.0, f64::from(h) / 2.0);
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for j in 0..h {
        for i in 0..w {
            let (x, y) = (f64::from(i) + 0.5 - cx, f64::from(j) + 0.5 - cy);
            let a = match kind {
                0 => {
                    let d = (x * x / (cx * cx) + y * y / (cy * cy)).sqrt();
                    (255.0 * (1.2 - d).clamp(0.0, 1.0) / 0.4).min(255.0) as u8
                }
                1 => {
                    if rng.int(0, 3) == 0 {
                        0
                    } else {
                        rng.int(0, 255) as u8
                    }
                }
                2 => {
                    if i % 4 == 1 || j % 5 == 2 {
                        255
                    } else {
                        0
                    }
                }
                _ => 255,
            };
            rgba.extend_from_slice(&[1, 2, 3, a]);
        }
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

fn angle(rng: &mut Rng) -> f64 {
    let quarter = f64::from(rng.int(-8, 8) as i32) * 90.0;
    match rng.int(0, 4) {
        0 => quarter,
        1 => quarter + rng.pick(&[-1e-3, 1e-3, -1e-4, 2e-4, 0.5, -0.5]),
        _ => rng.range(-720.0, 720.0),
    }
}

fn transform(rng: &mut Rng, source: &Bitmap) -> PygameTransform {
    let side = f64::from(source.width().max(source.height()));
    let t = if rng.coin() {
        PygameTransform::rotate(angle(rng))
    } else {
        // Surfaces up to about 100 px a side keep the brute force cheap.
        let scale = rng.range(0.1, (100.0 / side).clamp(0.2, 5.0));
        PygameTransform::rotozoom(angle(rng), scale)
    };
    let flavour = if rng.coin() {
        PygameFlavour::Pygame
    } else {
        PygameFlavour::PygameCe
    };
    t.flip(rng.coin(), rng.coin()).flavour(flavour)
}

/// The surface pygame returns, whole, after the node's alpha multiplier, at `(left, top)`.
struct Surface {
    left: i64,
    top: i64,
    w: i64,
    h: i64,
    alpha: Vec<u8>,
}

impl Surface {
    fn new(t: &PygameTransform, source: &Bitmap, (left, top): (i64, i64), multiplier: f64) -> Surface {
        let (w, h) = t.output_size(source.width(), source.height());
        let (w, h) = (i64::from(w), i64::from(h));
        let mut alpha = vec![0; (w * h) as usize];
        for (y, row) in alpha.chunks_mut(w.max(1) as usize).enumerate() {
            t.alpha_row(source, y as i64, 0, row).unwrap();
        }
        // The colour transform's alpha, written out: a * m, rounded; 0 stays 0.
        for a in &mut alpha {
            *a = (f64::from(*a) * multiplier + 0.5).floor().clamp(0.0, 255.0) as u8;
        }
        Surface {
            left,
            top,
            w,
            h,
            alpha,
        }
    }

    /// Alpha at pixel (x, y) of the parent's grid.
    fn at(&self, x: i64, y: i64) -> u8 {
        let (i, j) = (x - self.left, y - self.top);
        if i < 0 || j < 0 || i >= self.w || j >= self.h {
            return 0;
        }
        self.alpha[(j * self.w + i) as usize]
    }

    fn rect(&self) -> Option<Rect> {
        (self.w > 0 && self.h > 0).then(|| {
            Rect::from_ltrb(
                self.left as f64,
                self.top as f64,
                (self.left + self.w) as f64,
                (self.top + self.h) as f64,
            )
            .unwrap()
        })
    }
}

/// The overlap rectangle and count of two surfaces at a tolerance, pixel by pixel.
fn brute_overlap(a: &Surface, b: &Surface, tolerance: u8) -> (Option<Rect>, u64) {
    let min = 255u8.saturating_sub(tolerance).max(1);
    let (x0, x1) = (a.left.max(b.left), (a.left + a.w).min(b.left + b.w));
    let (y0, y1) = (a.top.max(b.top), (a.top + a.h).min(b.top + b.h));
    let mut count = 0;
    let mut bbox: Option<(i64, i64, i64, i64)> = None;
    for y in y0..y1 {
        for x in x0..x1 {
            if a.at(x, y) >= min && b.at(x, y) >= min {
                count += 1;
                bbox = Some(match bbox {
                    None => (x, y, x + 1, y + 1),
                    Some((l, t, r, b)) => (l.min(x), t.min(y), r.max(x + 1), b.max(y + 1)),
                });
            }
        }
    }
    let rect = bbox.map(|(l, t, r, b)| Rect::from_ltrb(l as f64, t as f64, r as f64, b as f64).unwrap());
    (rect, count)
}

/// A sprite: a bitmap node with a random renderer at a random whole-pixel position inside
/// `holder` (itself at a whole-pixel position), its alpha sometimes halved.
fn place(stage: &mut Stage, rng: &mut Rng, node: NodeId, source: &Bitmap, holder_at: (i64, i64)) -> Surface {
    let t = transform(rng, source);
    stage
        .set_bitmap_renderer(node, Some(BitmapRenderer::Pygame(t)))
        .unwrap();
    let (x, y) = (rng.int(-10, 30), rng.int(-10, 30));
    stage.set_position(node, x as f64, y as f64).unwrap();
    let multiplier = if rng.int(0, 3) == 0 { 0.5 } else { 1.0 };
    stage.set_alpha(node, multiplier).unwrap();
    Surface::new(&t, source, (holder_at.0 + x, holder_at.1 + y), multiplier)
}

#[test]
fn two_rendered_sprites_collide_as_their_surfaces_overlap() {
    let mut rng = Rng::new(0x9e_0030);
    let mut stage = Stage::new();
    let root = stage.root();
    let holder = stage.add_container(root).unwrap();
    let holder_at = (7, -3);
    stage.set_position(holder, 7.0, -3.0).unwrap();
    let placeholder = Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap();
    let a = stage.add_bitmap(holder, placeholder.clone(), false).unwrap();
    let b = stage.add_bitmap(root, placeholder, true).unwrap();
    let mut touching = 0;
    let (mut sa, mut sb) = (art(&mut rng), art(&mut rng));
    for case in 0..4000 {
        // The same nodes every case, and the same images for several: a kept raster, pose
        // or answer of an earlier angle must never be read for a new one.
        if case % 4 == 0 {
            (sa, sb) = (art(&mut rng), art(&mut rng));
            stage.set_bitmap(a, sa.clone(), rng.coin()).unwrap();
            stage.set_bitmap(b, sb.clone(), rng.coin()).unwrap();
        }
        let surf_a = place(&mut stage, &mut rng, a, &sa, holder_at);
        let surf_b = place(&mut stage, &mut rng, b, &sb, (0, 0));
        assert_eq!(
            stage.bounds(a, root).unwrap(),
            surf_a.rect(),
            "case {case}: bounds of a"
        );
        for _ in 0..2 {
            let tolerance = rng.pick(&[0u8, 127, 255]);
            let opts = CollisionOptions::default()
                .tolerance(tolerance)
                .anti_alias(rng.coin())
                .fast_paths(rng.int(0, 3) != 0);
            let want = brute_overlap(&surf_a, &surf_b, tolerance);
            touching += usize::from(want.1 > 0);
            // Twice: the second time the poses were seen, and are drawn whole and masked.
            for round in 0..2 {
                let got = stage.collision(a, b, root, &opts).unwrap();
                assert_eq!(
                    (got.rect, got.overlap_pixels),
                    (want.0, Some(want.1)),
                    "case {case} round {round}: {:?} vs {:?}, tolerance {tolerance}",
                    stage.bitmap_renderer(a),
                    stage.bitmap_renderer(b)
                );
            }
            let contacts = stage.contacts_among(&[a, b], root, &opts).unwrap();
            assert_eq!(
                contacts.len(),
                usize::from(want.1 > 0),
                "case {case}: contacts_among"
            );
            if let Some(c) = contacts.first() {
                assert_eq!(
                    c.overlap_pixels,
                    Some(want.1),
                    "case {case}: contacts_among count"
                );
            }
        }
    }
    assert!(touching > 1600, "only {touching} touching cases");
}

#[test]
fn every_query_reads_the_surface() {
    let mut rng = Rng::new(0x9e_0031);
    let mut stage = Stage::new();
    let root = stage.root();
    let placeholder = Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap();
    let sprite = stage.add_bitmap(root, placeholder, false).unwrap();
    // A hard square of whole pixels: a fill whose alpha plane is known exactly.
    let wall = stage.add_container(root).unwrap();
    let fill = Graphic::fill(Path::rect(0.0, 0.0, 30.0, 17.0), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(wall, fill).unwrap();
    for case in 0..400 {
        let source = art(&mut rng);
        stage.set_bitmap(sprite, source.clone(), false).unwrap();
        let surf = place(&mut stage, &mut rng, sprite, &source, (0, 0));
        let (wx, wy) = (rng.int(-10, 70), rng.int(-10, 70));
        stage.set_position(wall, wx as f64, wy as f64).unwrap();
        // Its alpha plane over its box and a margin.
        if let Some(r) = surf.rect() {
            let area =
                Rect::from_ltrb(r.left() - 2.0, r.top() - 2.0, r.right() + 3.0, r.bottom() + 1.0).unwrap();
            let opts = CollisionOptions::default().anti_alias(rng.coin());
            let plane = stage.alpha_plane(sprite, root, area, &opts).unwrap();
            for y in plane.y()..plane.y() + i64::from(plane.height()) {
                for x in plane.x()..plane.x() + i64::from(plane.width()) {
                    assert_eq!(
                        plane.get(x, y),
                        Some(surf.at(x, y)),
                        "case {case}: alpha at ({x}, {y})"
                    );
                }
            }
        } else {
            assert_eq!(stage.bounds(sprite, root).unwrap(), None);
        }
        // Against a fill of whole pixels.
        let wall_surf = Surface {
            left: wx,
            top: wy,
            w: 30,
            h: 17,
            alpha: vec![255; 30 * 17],
        };
        let tolerance = rng.pick(&[0u8, 127, 255]);
        let opts = CollisionOptions::default().tolerance(tolerance);
        let want = brute_overlap(&surf, &wall_surf, tolerance);
        let got = stage.collision(sprite, wall, root, &opts).unwrap();
        assert_eq!(
            (got.rect, got.overlap_pixels),
            (want.0, Some(want.1)),
            "case {case}: against a wall"
        );
        // Point tests read the surface's own alpha (before the colour transform).
        let Some(BitmapRenderer::Pygame(t)) = stage.bitmap_renderer(sprite).unwrap() else {
            unreachable!("set by place")
        };
        let raw = Surface::new(&t, &source, (surf.left, surf.top), 1.0);
        for _ in 0..20 {
            let (px, py) = (rng.range(-25.0, 100.0), rng.range(-25.0, 100.0));
            let want = raw.at(px.floor() as i64, py.floor() as i64) > 0;
            assert_eq!(
                stage.hit_test_point(sprite, px, py, true).unwrap(),
                want,
                "case {case}: point ({px}, {py})"
            );
        }
    }
}

#[test]
fn a_placement_other_than_a_whole_pixel_move_is_an_error_naming_the_node() {
    let mut stage = Stage::new();
    let root = stage.root();
    let source = Bitmap::from_rgba8(8, 8, vec![255; 256]).unwrap();
    let sprite = stage.add_bitmap(root, source.clone(), false).unwrap();
    stage.set_name(sprite, "rock").unwrap();
    let other = stage.add_bitmap(root, source, false).unwrap();
    let t = BitmapRenderer::Pygame(PygameTransform::rotate(30.0));
    stage.set_bitmap_renderer(sprite, Some(t)).unwrap();
    let opts = CollisionOptions::default();
    assert!(
        stage
            .collision(sprite, other, root, &opts)
            .unwrap()
            .rect
            .is_some()
    );
    for bad in [
        |s: &mut Stage, n| s.set_x(n, 0.5),
        |s: &mut Stage, n| s.set_rotation(n, 10.0),
        |s: &mut Stage, n| s.set_scale(n, 2.0),
    ] {
        let mut stage = stage.clone();
        bad(&mut stage, sprite).unwrap();
        let err = stage.collision(sprite, other, root, &opts).unwrap_err();
        assert!(
            matches!(&err, Error::RendererPlacement { node } if node == "\"rock\""),
            "{err:?}"
        );
        assert!(err.to_string().contains("whole pixels only"), "{err}");
        // Bounds are still the surface's rectangle, placed by the matrix.
        assert!(stage.bounds(sprite, root).unwrap().is_some());
    }
    // A turned parent, with the query asked in the parent's own space: a whole-pixel move.
    let turned = stage.add_container(root).unwrap();
    stage.set_rotation(turned, 33.0).unwrap();
    let inner = stage
        .add_bitmap(turned, Bitmap::from_rgba8(3, 3, vec![255; 36]).unwrap(), false)
        .unwrap();
    stage.set_bitmap_renderer(inner, Some(t)).unwrap();
    let mate = stage
        .add_bitmap(turned, Bitmap::from_rgba8(3, 3, vec![255; 36]).unwrap(), false)
        .unwrap();
    assert!(
        stage
            .collision(inner, mate, turned, &opts)
            .unwrap()
            .rect
            .is_some()
    );
    assert!(matches!(
        stage.collision(inner, mate, root, &opts),
        Err(Error::RendererPlacement { .. })
    ));
}

#[test]
fn setting_a_renderer_checks_the_node_and_the_values_and_changes_nothing_on_error() {
    let mut stage = Stage::new();
    let root = stage.root();
    let box_ = stage.add_container(root).unwrap();
    let sprite = stage
        .add_bitmap(root, Bitmap::from_rgba8(10, 4, vec![255; 160]).unwrap(), false)
        .unwrap();
    let t = BitmapRenderer::Pygame(PygameTransform::rotate(90.0));
    assert!(matches!(
        stage.set_bitmap_renderer(box_, Some(t)),
        Err(Error::NotBitmap { .. })
    ));
    assert!(matches!(
        stage.bitmap_renderer(box_),
        Err(Error::NotBitmap { .. })
    ));
    stage.set_bitmap_renderer(sprite, Some(t)).unwrap();
    let turned = stage.bounds(sprite, root).unwrap();
    assert_eq!(turned, Rect::from_ltrb(0.0, 0.0, 4.0, 10.0));
    for bad in [
        PygameTransform::rotate(f64::NAN),
        PygameTransform::rotozoom(5.0, 1000.0),
    ] {
        let err = stage
            .set_bitmap_renderer(sprite, Some(BitmapRenderer::Pygame(bad)))
            .unwrap_err();
        assert!(matches!(err, Error::OutOfRange { .. }), "{err:?}");
        assert_eq!(stage.bitmap_renderer(sprite).unwrap(), Some(t));
    }
    // A new bitmap is drawn by the same renderer; one it cannot draw is refused.
    stage
        .set_bitmap(sprite, Bitmap::from_rgba8(6, 2, vec![255; 48]).unwrap(), false)
        .unwrap();
    assert_eq!(
        stage.bounds(sprite, root).unwrap(),
        Rect::from_ltrb(0.0, 0.0, 2.0, 6.0)
    );
    let zoom = BitmapRenderer::Pygame(PygameTransform::rotozoom(0.0, 60.0));
    stage.set_bitmap_renderer(sprite, Some(zoom)).unwrap();
    let wide = Bitmap::from_rgba8(400, 1, vec![255; 1600]).unwrap();
    assert!(matches!(
        stage.set_bitmap(sprite, wide, false),
        Err(Error::OutOfRange { .. })
    ));
    assert_eq!(stage.bitmap(sprite).unwrap().unwrap().0.width(), 6);
    stage.set_bitmap_renderer(sprite, None).unwrap();
    assert_eq!(
        stage.bounds(sprite, root).unwrap(),
        Rect::from_ltrb(0.0, 0.0, 6.0, 2.0)
    );
}

#[test]
fn a_colour_transform_applies_to_the_surface_pygame_returns() {
    // rotozoom interpolates: halving the surface's alpha is not halving the source's.
    let mut stage = Stage::new();
    let root = stage.root();
    let source = Bitmap::from_rgba8(2, 1, vec![0, 0, 0, 255, 0, 0, 0, 0]).unwrap();
    let sprite = stage.add_bitmap(root, source.clone(), false).unwrap();
    let t = PygameTransform::rotozoom(0.0, 2.0);
    stage
        .set_bitmap_renderer(sprite, Some(BitmapRenderer::Pygame(t)))
        .unwrap();
    stage
        .set_color_transform(
            sprite,
            ColorTransform::new([1.0, 1.0, 1.0, 0.5], [0.0, 0.0, 0.0, 10.0]),
        )
        .unwrap();
    let surf = Surface::new(&t, &source, (0, 0), 1.0);
    let area = Rect::from_ltrb(0.0, 0.0, 4.0, 2.0).unwrap();
    let plane = stage
        .alpha_plane(sprite, root, area, &CollisionOptions::default())
        .unwrap();
    for (k, &a) in surf.alpha.iter().enumerate() {
        let want = if a == 0 {
            0
        } else {
            (f64::from(a) * 0.5 + 10.0 + 0.5).floor() as u8
        };
        assert_eq!(plane.alpha()[k], want, "pixel {k} of {:?}", surf.alpha);
    }
}

#[test]
fn picking_and_sweeps_see_the_surface() {
    let mut rng = Rng::new(0x9e_0032);
    let mut stage = Stage::new();
    let root = stage.root();
    let holder = stage.add_container(root).unwrap();
    let source = art(&mut rng);
    let sprite = stage.add_bitmap(holder, source.clone(), false).unwrap();
    let bullet = stage.add_container(root).unwrap();
    let square = Graphic::fill(Path::rect(0.0, 0.0, 3.0, 3.0), FillRule::NonZero, 1.0).unwrap();
    stage.add_graphic(bullet, square).unwrap();
    let opts = pixelhit::MotionOptions::default();
    let mut contacts = 0;
    for case in 0..300 {
        let surf = place(&mut stage, &mut rng, sprite, &source, (0, 0));
        let Some(BitmapRenderer::Pygame(t)) = stage.bitmap_renderer(sprite).unwrap() else {
            unreachable!("set by place")
        };
        let raw = Surface::new(&t, &source, (surf.left, surf.top), 1.0);
        // Clicks go to the holder where the surface shows.
        for _ in 0..10 {
            let (px, py) = (rng.range(-15.0, 80.0), rng.range(-15.0, 80.0));
            let shows = raw.at(px.floor() as i64, py.floor() as i64) > 0;
            let picked = stage.pick(px, py, &pixelhit::PickOptions::default()).unwrap();
            assert_eq!(
                picked,
                shows.then_some(holder),
                "case {case}: pick at ({px}, {py})"
            );
        }
        // A bullet crossing a still sprite stops where the sprite's surface is: its
        // contact is the collision of the bullet placed at that time.
        let y = rng.int(-12, 70) as f64;
        stage.set_position(bullet, 90.0, y).unwrap();
        let from = pixelhit::Pose::at(-30.0, y);
        let hit = stage
            .sweep(bullet, sprite, root, Some(from), None, &opts)
            .unwrap();
        let crossed = (0..3).any(|dy| (-35..95).any(|x| raw.at(x, y as i64 + dy) > 0));
        assert_eq!(hit.is_some(), crossed, "case {case}: sweep at y = {y}");
        if let Some(hit) = hit {
            contacts += 1;
            let mut at_t = stage.clone();
            at_t.set_position(bullet, -30.0 + 120.0 * hit.t, y).unwrap();
            let c = at_t
                .collision(bullet, sprite, root, &CollisionOptions::default())
                .unwrap();
            assert_eq!(
                (c.rect, c.overlap_pixels),
                (Some(hit.rect), hit.overlap_pixels),
                "case {case}"
            );
        }
        stage.set_position(bullet, 200.0, 200.0).unwrap();
    }
    assert!(contacts > 50, "only {contacts} contacts");
    // A sprite drawn by a renderer cannot move in a sweep: its poses between are not
    // whole-pixel moves.
    let t = BitmapRenderer::Pygame(PygameTransform::rotate(10.0));
    stage.set_bitmap_renderer(sprite, Some(t)).unwrap();
    stage.set_position(sprite, 0.0, 0.0).unwrap();
    stage.set_position(bullet, 1.0, 1.0).unwrap();
    let half_a_pixel_away = Some(pixelhit::Pose::at(0.5, 0.0));
    let err = stage
        .sweep(sprite, bullet, root, half_a_pixel_away, None, &opts)
        .unwrap_err();
    assert!(matches!(err, Error::RendererPlacement { .. }), "{err:?}");
}

#[test]
fn every_method_reads_the_surface() {
    use pixelhit::{Method, RadialOptions};
    let mut rng = Rng::new(0x9e_0033);
    let mut stage = Stage::new();
    let root = stage.root();
    let placeholder = Bitmap::from_rgba8(1, 1, vec![0, 0, 0, 255]).unwrap();
    let a = stage.add_bitmap(root, placeholder.clone(), false).unwrap();
    let b = stage.add_bitmap(root, placeholder, false).unwrap();
    let exact = [
        Method::Exact,
        Method::Bitmask,
        Method::LinearScan,
        Method::IncrementalScan,
        Method::SummedArea,
    ];
    for case in 0..300 {
        let (sa, sb) = (art(&mut rng), art(&mut rng));
        stage.set_bitmap(a, sa.clone(), false).unwrap();
        stage.set_bitmap(b, sb.clone(), false).unwrap();
        let surf_a = place(&mut stage, &mut rng, a, &sa, (0, 0));
        let surf_b = place(&mut stage, &mut rng, b, &sb, (0, 0));
        let tolerance = rng.pick(&[0u8, 127, 255]);
        let touching = brute_overlap(&surf_a, &surf_b, tolerance).1 > 0;
        for method in exact {
            let got = stage.collides(a, b, root, tolerance, method).unwrap();
            assert_eq!(got, touching, "case {case}: {method:?} at tolerance {tolerance}");
        }
        // Flash's literal recipe is an approximation of its own: it draws the surface
        // (built whole) without error. Radial profiles are measured on the object drawn at
        // a scale of its own, which a renderer's picture does not have: refused, naming it.
        let flash = Method::FlashPipeline { compat: false };
        stage.collides(a, b, root, tolerance, flash).unwrap();
        let radial = Method::Radial(RadialOptions::default());
        match stage.collides(a, b, root, tolerance, radial) {
            Ok(_) => {}
            Err(Error::RendererPlacement { node }) => assert!(node == "#1" || node == "#2", "{node}"),
            Err(other) => panic!("case {case}: radial: {other}"),
        }
    }
}
