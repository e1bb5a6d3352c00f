//! Masks, scroll rectangles and picking (semantics.md sections 5 to 7): the Flash figures
//! the interactivity issue quotes, each picking rule by a case that fails without it, and
//! pick and clipping checked against references written here from plain rectangles.

use crate::common::Rng;
use pixelhit::{
    Bitmap, BitmapHit, CollisionOptions, DAffine2, DVec2, Error, FillRule, Graphic, Method, NodeId, Path,
    PickOptions, Stage,
};

fn fill(path: Path) -> Graphic {
    Graphic::fill(path, FillRule::NonZero, 1.0).unwrap()
}

/// A container under `parent` at (x, y) holding a filled `w x h` rectangle at its origin.
fn rect_node(s: &mut Stage, parent: NodeId, x: f64, y: f64, w: f64, h: f64) -> NodeId {
    let n = s.add_container(parent).unwrap();
    s.add_graphic(n, fill(Path::rect(0.0, 0.0, w, h))).unwrap();
    s.set_x(n, x).unwrap();
    s.set_y(n, y).unwrap();
    n
}

/// A Flash Shape: a non-interactive container with a rectangle.
fn shape(s: &mut Stage, parent: NodeId, x: f64, y: f64, w: f64, h: f64) -> NodeId {
    let n = rect_node(s, parent, x, y, w, h);
    s.set_interactive(n, false).unwrap();
    n
}

fn named(s: &mut Stage, id: NodeId, name: &str) -> NodeId {
    s.set_name(id, name).unwrap();
    id
}

fn pick(s: &Stage, x: f64, y: f64) -> Option<NodeId> {
    s.pick(x, y, &PickOptions::default()).unwrap()
}

// ----- scroll rectangles -----

#[test]
fn scroll_rect_maps_points_as_flash_recorded() {
    let mut s = Stage::new();
    let n = s.add_container(s.root()).unwrap();
    s.set_matrix(n, DAffine2::from_cols_array(&[1.3, 0.2, 0.1, 1.2, 40.0, 50.0]))
        .unwrap();
    s.set_scroll_rect(n, Some([50.0, 60.0, 50.0, 100.0])).unwrap();
    let g = s.local_to_global(n, DVec2::new(10.0, 20.0)).unwrap();
    assert!((g - DVec2::new(-16.0, -6.0)).length() < 1e-9, "{g}");
    let l = s.global_to_local(n, DVec2::new(10.0, 20.0)).unwrap();
    assert!((l - DVec2::new(28.6, 38.6)).length() < 0.051, "{l}");
    // The matrix itself is untouched: only the content moves.
    assert_eq!(s.matrix(n).unwrap().translation, DVec2::new(40.0, 50.0));
}

#[test]
fn scroll_rect_edges_read_back_rounded_as_flash_recorded() {
    let mut s = Stage::new();
    let n = s.add_container(s.root()).unwrap();
    for (given, read) in [
        ([0.2, 0.2, 0.3, 0.3], [0.0, 0.0, 0.0, 0.0]),
        ([1.2, 1.2, 0.3, 0.3], [1.0, 1.0, 1.0, 1.0]),
        ([2.2, 2.2, 0.3, 0.3], [2.0, 2.0, 0.0, 0.0]),
    ] {
        s.set_scroll_rect(n, Some(given)).unwrap();
        assert_eq!(s.scroll_rect(n).unwrap().unwrap().to_xywh(), read, "{given:?}");
    }
    s.set_scroll_rect(n, None).unwrap();
    assert_eq!(s.scroll_rect(n).unwrap(), None);
    assert!(matches!(
        s.set_scroll_rect(n, Some([f64::NAN, 0.0, 1.0, 1.0])),
        Err(Error::NonFinite { .. })
    ));
    assert!(s.set_scroll_rect(s.root(), Some([0.0, 0.0, 1.0, 1.0])).is_err());
}

#[test]
fn scroll_windows_clip_pixels_points_and_bounds() {
    let mut s = Stage::new();
    let root = s.root();
    // A 100 x 100 pane at (10, 10) showing [20, 50) x [0, 30) of its content: a 200 x 200
    // square of content shows as a 30 x 30 square at (10, 10).
    let pane = s.add_container(root).unwrap();
    s.set_x(pane, 10.0).unwrap();
    s.set_y(pane, 10.0).unwrap();
    let content = rect_node(&mut s, pane, 0.0, 0.0, 200.0, 200.0);
    s.set_scroll_rect(pane, Some([20.0, 0.0, 30.0, 30.0])).unwrap();
    let probe = rect_node(&mut s, root, 0.0, 0.0, 300.0, 300.0);
    let c = s
        .collision(content, probe, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(c.rect.unwrap().to_xywh(), [10.0, 10.0, 30.0, 30.0]);
    assert_eq!(c.overlap_pixels, Some(900));
    // Bounds: the window stands for the content (not shifted as Flash shifts it).
    assert_eq!(
        s.bounds(pane, root).unwrap().unwrap().to_xywh(),
        [10.0, 10.0, 30.0, 30.0]
    );
    assert_eq!(
        s.bounds(content, root).unwrap().unwrap().to_xywh(),
        [-10.0, 10.0, 200.0, 200.0]
    );
    assert_eq!(
        s.visible_bounds(content, root).unwrap().unwrap().to_xywh(),
        [10.0, 10.0, 30.0, 30.0]
    );
    // Points: the window is [x, x + w) x [y, y + h).
    assert!(s.hit_test_point(content, 10.0, 10.0, true).unwrap());
    assert!(s.hit_test_point(content, 39.9, 39.9, true).unwrap());
    assert!(!s.hit_test_point(content, 40.0, 20.0, true).unwrap());
    assert!(!s.hit_test_point(content, 5.0, 20.0, true).unwrap());
    // Without the shape flag: the box (the content's own, masks and windows aside).
    assert!(s.hit_test_point(content, 5.0, 20.0, false).unwrap());
    // Relative to the pane itself the pane's own window does not count (its space is the
    // query's), as its colour transform would not.
    let inner = rect_node(&mut s, pane, 100.0, 100.0, 10.0, 10.0);
    let c = s
        .collision(content, inner, pane, &CollisionOptions::default())
        .unwrap();
    assert_eq!(c.overlap_pixels, Some(100));
}

// ----- masks -----

fn circle_node(s: &mut Stage, parent: NodeId, cx: f64, cy: f64, r: f64) -> NodeId {
    let n = s.add_container(parent).unwrap();
    s.add_graphic(n, fill(Path::circle(cx, cy, r))).unwrap();
    n
}

#[test]
fn masks_clip_by_their_shape_not_their_box_and_are_never_hit() {
    let mut s = Stage::new();
    let root = s.root();
    let portrait = rect_node(&mut s, root, 0.0, 0.0, 100.0, 100.0);
    let mask = circle_node(&mut s, root, 50.0, 50.0, 50.0);
    s.set_mask(portrait, Some(mask)).unwrap();
    assert!(s.hit_test_point(portrait, 50.0, 50.0, true).unwrap());
    // Inside the mask's box, outside its circle.
    assert!(!s.hit_test_point(portrait, 3.0, 3.0, true).unwrap());
    assert!(s.hit_test_point(portrait, 3.0, 3.0, false).unwrap());
    // The mask itself: never hit with the shape flag, its box still is without it.
    assert!(!s.hit_test_point(mask, 50.0, 50.0, true).unwrap());
    assert!(s.hit_test_point(mask, 50.0, 50.0, false).unwrap());
    // Pixels: the masked square has the circle's pixels (within the edge's rounding).
    let probe = rect_node(&mut s, root, -10.0, -10.0, 200.0, 200.0);
    let c = s
        .collision(portrait, probe, root, &CollisionOptions::default().tolerance(0))
        .unwrap();
    let area = std::f64::consts::PI * 50.0 * 50.0;
    let n = c.overlap_pixels.unwrap() as f64;
    assert!(
        n < area && n > area - 2.0 * std::f64::consts::PI * 50.0 * 1.5,
        "{n} vs {area}"
    );
    // The mask has no pixels of its own.
    let m = s
        .collision(mask, probe, root, &CollisionOptions::default())
        .unwrap();
    assert_eq!(m.rect, None);
    // An invisible mask still masks; its alpha does not matter either.
    s.set_visible(mask, false).unwrap();
    s.set_alpha(mask, 0.0).unwrap();
    assert!(!s.hit_test_point(portrait, 3.0, 3.0, true).unwrap());
    let c2 = s
        .collision(portrait, probe, root, &CollisionOptions::default().tolerance(0))
        .unwrap();
    assert_eq!(c2, c);
    // Taken away, the square is whole again.
    s.set_mask(portrait, None).unwrap();
    assert!(s.hit_test_point(portrait, 3.0, 3.0, true).unwrap());
    assert!(s.masked_by(mask).unwrap().is_empty());
}

#[test]
fn strokes_do_not_mask_and_bitmaps_mask_with_their_rectangle() {
    let mut s = Stage::new();
    let root = s.root();
    let target = rect_node(&mut s, root, 0.0, 0.0, 100.0, 100.0);
    let mask = s.add_container(root).unwrap();
    s.add_graphic(
        mask,
        Graphic::stroke(Path::rect(10.0, 10.0, 20.0, 20.0), 6.0, 1.0).unwrap(),
    )
    .unwrap();
    s.set_mask(target, Some(mask)).unwrap();
    assert!(!s.hit_test_point(target, 10.0, 10.0, true).unwrap());
    // A bitmap of transparent texels masks with its whole rectangle.
    let bm = s
        .add_bitmap(mask, Bitmap::from_rgba8(4, 4, vec![0; 64]).unwrap(), false)
        .unwrap();
    s.set_x(bm, 40.0).unwrap();
    s.set_y(bm, 40.0).unwrap();
    assert!(s.hit_test_point(target, 41.0, 41.0, true).unwrap());
    assert!(!s.hit_test_point(target, 45.0, 41.0, true).unwrap());
}

#[test]
fn refused_masks_leave_the_tree_unchanged() {
    let mut s = Stage::new();
    let root = s.root();
    let a = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    let inner = rect_node(&mut s, a, 0.0, 0.0, 5.0, 5.0);
    let m = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    let m2 = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    s.set_mask(a, Some(m)).unwrap();
    let before = format!(
        "{:?}",
        (
            s.mask(a),
            s.mask(inner),
            s.mask(m),
            s.mask(m2),
            s.masked_by(m).map(|v| v.to_vec())
        )
    );
    let refused = [
        s.set_mask(a, Some(a)),     // itself
        s.set_mask(a, Some(inner)), // inside what it masks
        s.set_mask(inner, Some(a)), // holding what it masks
        s.set_mask(m2, Some(a)),    // a mask that is masked
        s.set_mask(m, Some(m2)),    // a mask being masked
        s.set_mask(root, Some(m2)), // the root
        s.set_parent(m, a),         // moving the mask into what it masks
        s.set_parent(a, m),         // moving what is masked into its mask
    ];
    for r in refused {
        assert!(matches!(r, Err(Error::Mask { .. })), "{r:?}");
    }
    let after = format!(
        "{:?}",
        (
            s.mask(a),
            s.mask(inner),
            s.mask(m),
            s.mask(m2),
            s.masked_by(m).map(|v| v.to_vec())
        )
    );
    assert_eq!(before, after);
    assert_eq!(s.parent(m).unwrap(), Some(root));
    // One node may mask several.
    s.set_mask(m2, None).unwrap();
    let b = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    s.set_mask(b, Some(m)).unwrap();
    assert_eq!(s.masked_by(m).unwrap(), &[a, b]);
    // Removing the mask unmasks what it masked; removing a masked node frees the mask.
    s.remove(b).unwrap();
    assert_eq!(s.masked_by(m).unwrap(), &[a]);
    s.remove(m).unwrap();
    assert_eq!(s.mask(a).unwrap(), None);
}

#[test]
fn every_method_sees_the_mask() {
    let mut s = Stage::new();
    let root = s.root();
    let a = rect_node(&mut s, root, 0.0, 0.0, 40.0, 40.0);
    let b = rect_node(&mut s, root, 20.0, 20.0, 40.0, 40.0);
    // The mask leaves a's left half only: a and b then do not meet.
    let mask = rect_node(&mut s, root, 0.0, 0.0, 18.0, 40.0);
    let opts = CollisionOptions::default();
    let methods = [
        Method::Exact,
        Method::Bitmask,
        Method::LinearScan,
        Method::SummedArea,
    ];
    for m in methods {
        assert!(
            s.collision_by(a, b, root, &opts, m).unwrap().rect.is_some(),
            "{m}"
        );
    }
    s.set_mask(a, Some(mask)).unwrap();
    for m in methods {
        let c = s.collision_by(a, b, root, &opts, m).unwrap();
        assert_eq!(c.rect, None, "{m}");
    }
    for m in [
        "exact",
        "bitmask",
        "linear_scan",
        "incremental_scan",
        "summed_area",
        "sampled:3",
        "flash",
    ] {
        let method: Method = m.parse().unwrap();
        assert!(!s.collides(a, b, root, 255, method).unwrap(), "{m}");
    }
    // The radial test compares outlines by angle, which says yes for shapes near each other
    // (its documented limit); a mask that leaves a small corner far from b is seen.
    let radial: Method = "radial".parse().unwrap();
    let corner = rect_node(&mut s, root, 0.0, 0.0, 6.0, 6.0);
    s.set_mask(a, Some(corner)).unwrap();
    assert!(!s.collides(a, b, root, 255, radial).unwrap());
    s.set_mask(a, None).unwrap();
    assert!(s.collides(a, b, root, 255, radial).unwrap());
    s.set_mask(a, Some(mask)).unwrap();
    // Half of b under a's mask: every method finds the same rectangle.
    s.set_x(mask, 0.0).unwrap();
    s.remove(mask).unwrap();
    let mask = rect_node(&mut s, root, 0.0, 0.0, 30.0, 40.0);
    s.set_mask(a, Some(mask)).unwrap();
    let want = s.collision_by(a, b, root, &opts, Method::Exact).unwrap();
    assert_eq!(want.rect.unwrap().to_xywh(), [20.0, 20.0, 10.0, 20.0]);
    for m in methods {
        assert_eq!(s.collision_by(a, b, root, &opts, m).unwrap(), want, "{m}");
    }
    for m in ["flash", "bitmask", "summed_area", "radial"] {
        let method: Method = m.parse().unwrap();
        assert!(s.collides(a, b, root, 255, method).unwrap(), "{m}");
    }
}

/// The pixels of a target solid against a probe covering everything, as a set.
fn solid_pixels(s: &Stage, t: NodeId, probe: NodeId, opts: &CollisionOptions) -> Vec<(i64, i64)> {
    let root = s.root();
    let mut out = Vec::new();
    let Some(r) = s.collision(t, probe, root, opts).unwrap().rect else {
        return out;
    };
    for y in r.top() as i64..r.bottom() as i64 {
        for x in r.left() as i64..r.right() as i64 {
            let px = rect_node_probe(s, x, y);
            if px(t, opts) {
                out.push((x, y));
            }
        }
    }
    out
}

/// Whether pixel (x, y) of `t` is solid: asked of the library by a 1 x 1 probe, a clone of
/// the stage with one more node.
fn rect_node_probe(s: &Stage, x: i64, y: i64) -> impl Fn(NodeId, &CollisionOptions) -> bool {
    let mut c = s.clone();
    let root = c.root();
    let p = rect_node(&mut c, root, x as f64, y as f64, 1.0, 1.0);
    move |t, opts| c.collision(t, p, c.root(), opts).unwrap().overlap_pixels.unwrap() > 0
}

#[test]
fn clipping_never_adds_pixels_and_a_mask_over_everything_changes_nothing() {
    let mut rng = Rng::new(13);
    for case in 0..60 {
        let mut s = Stage::new();
        let root = s.root();
        let t = s.add_container(root).unwrap();
        let star = crate::common::star(&mut rng, 7, 4.0, 12.0);
        s.add_graphic(t, fill(Path::polygon(&star))).unwrap();
        let at = DVec2::new(rng.range(0.0, 8.0), rng.range(0.0, 8.0));
        s.set_matrix(t, crate::common::random_matrix(&mut rng, (0.5, 2.0), true, at))
            .unwrap();
        let probe = rect_node(&mut s, root, -60.0, -60.0, 140.0, 140.0);
        let opts = CollisionOptions::default()
            .tolerance(rng.int(0, 255) as u8)
            .anti_alias(rng.coin());
        let plain = s.collision(t, probe, root, &opts).unwrap();
        // A mask over everything changes nothing, bit for bit.
        let all = rect_node(&mut s, root, -100.0, -100.0, 300.0, 300.0);
        s.set_mask(t, Some(all)).unwrap();
        assert_eq!(s.collision(t, probe, root, &opts).unwrap(), plain, "case {case}");
        // A random mask only takes pixels away: fewer, and every one was there before.
        let circle = s.add_container(root).unwrap();
        s.add_graphic(
            circle,
            fill(Path::circle(
                rng.range(-5.0, 10.0),
                rng.range(-5.0, 10.0),
                rng.range(2.0, 12.0),
            )),
        )
        .unwrap();
        s.set_mask(t, Some(circle)).unwrap();
        let clipped = s.collision(t, probe, root, &opts).unwrap();
        assert!(clipped.overlap_pixels <= plain.overlap_pixels, "case {case}");
        if case % 10 == 0 {
            let before = solid_pixels(&s.clone_without_mask(t), t, probe, &opts);
            let after = solid_pixels(&s, t, probe, &opts);
            assert!(after.iter().all(|p| before.contains(p)), "case {case}");
        }
    }
}

/// Scroll windows clip exactly as masks of the same rectangle do, bit for bit, nested up to
/// three deep, turned or axis-aligned, at whole or fractional positions. Compositing leaves
/// out a clip's region where it is solid over an item's pixels (issue 22: 2,900 nested
/// windows); a window's rectangle and a mask's rectangle fill are built apart, and must
/// give the same pixels.
#[test]
fn scroll_windows_clip_as_masks_of_the_same_rectangle() {
    let mut rng = Rng::new(22);
    for case in 0..400 {
        let (mut a, mut b) = (Stage::new(), Stage::new());
        let (mut pa, mut pb) = (a.root(), b.root());
        let mut top = None;
        for _ in 0..rng.int(1, 3) {
            let at = DVec2::new(rng.range(-4.0, 12.0), rng.range(-4.0, 12.0));
            let m = match rng.int(0, 2) {
                0 => DAffine2::from_translation(at.round()),
                1 => DAffine2::from_scale_angle_translation(
                    DVec2::new(rng.range(0.5, 2.0), rng.range(0.5, 2.0)),
                    0.0,
                    at,
                ),
                _ => {
                    let skew = rng.coin();
                    crate::common::random_matrix(&mut rng, (0.5, 2.0), skew, at)
                }
            };
            let [x, y, w, h] = [-4, -4, 4, 4].map(|v| rng.int(v, v + 20) as f64);
            let star = crate::common::star(&mut rng, 7, 4.0, 14.0);
            // A: a scrolled node drawing the star.
            let na = a.add_container(pa).unwrap();
            a.set_matrix(na, m).unwrap();
            a.set_scroll_rect(na, Some([x, y, w, h])).unwrap();
            a.add_graphic(na, fill(Path::polygon(&star))).unwrap();
            // B: the same node masked by a sibling with its matrix and the window's
            // rectangle, the star in a child moved by the scroll offset.
            let nb = b.add_container(pb).unwrap();
            b.set_matrix(nb, m).unwrap();
            let mask = b.add_container(pb).unwrap();
            b.set_matrix(mask, m).unwrap();
            b.add_graphic(mask, fill(Path::rect(0.0, 0.0, w.max(0.0), h.max(0.0))))
                .unwrap();
            b.set_mask(nb, Some(mask)).unwrap();
            let content = b.add_container(nb).unwrap();
            b.set_matrix(content, DAffine2::from_translation(DVec2::new(-x, -y)))
                .unwrap();
            b.add_graphic(content, fill(Path::polygon(&star))).unwrap();
            top.get_or_insert((na, nb));
            (pa, pb) = (na, content);
        }
        let (ta, tb) = top.unwrap();
        let opts = CollisionOptions::default()
            .tolerance(rng.int(0, 255) as u8)
            .anti_alias(rng.coin());
        let probe = [
            rng.range(-20.0, 20.0),
            rng.range(-20.0, 20.0),
            rng.range(1.0, 60.0),
        ];
        let (ra, rb) = (a.root(), b.root());
        let qa = rect_node(&mut a, ra, probe[0], probe[1], probe[2], probe[2]);
        let qb = rect_node(&mut b, rb, probe[0], probe[1], probe[2], probe[2]);
        assert_eq!(
            a.collision(ta, qa, ra, &opts).unwrap(),
            b.collision(tb, qb, rb, &opts).unwrap(),
            "case {case}"
        );
    }
}

/// What leaving out solid clip regions rests on, checked against plain arithmetic: every
/// pixel wholly inside an axis-aligned rectangle (scaled, flipped, at fractional positions)
/// has coverage 255, with and without anti-aliasing (tolerance 0 counts only 255).
#[test]
fn pixels_wholly_inside_an_axis_aligned_rectangle_are_fully_covered() {
    let mut rng = Rng::new(2022);
    for case in 0..300 {
        let mut s = Stage::new();
        let root = s.root();
        let (w, h) = (rng.range(1.0, 30.0), rng.range(1.0, 30.0));
        let t = rect_node(&mut s, root, 0.0, 0.0, w, h);
        let sign = |rng: &mut Rng| if rng.coin() { 1.0 } else { -1.0 };
        let scale = DVec2::new(
            sign(&mut rng) * rng.range(0.3, 3.0),
            sign(&mut rng) * rng.range(0.3, 3.0),
        );
        let at = DVec2::new(rng.range(-20.0, 20.0), rng.range(-20.0, 20.0));
        s.set_matrix(t, DAffine2::from_scale_angle_translation(scale, 0.0, at))
            .unwrap();
        // The pixels wholly inside, 1/128 px in from the edges.
        let (x0, x1) = (at.x.min(at.x + scale.x * w), at.x.max(at.x + scale.x * w));
        let (y0, y1) = (at.y.min(at.y + scale.y * h), at.y.max(at.y + scale.y * h));
        let m = 1.0 / 128.0;
        let inside = [
            (x0 + m).ceil(),
            (y0 + m).ceil(),
            (x1 - m).floor(),
            (y1 - m).floor(),
        ];
        if inside[0] >= inside[2] || inside[1] >= inside[3] {
            continue;
        }
        let (iw, ih) = (inside[2] - inside[0], inside[3] - inside[1]);
        let probe = rect_node(&mut s, root, inside[0], inside[1], iw, ih);
        let opts = CollisionOptions::default().tolerance(0).anti_alias(rng.coin());
        let c = s.collision(t, probe, root, &opts).unwrap();
        assert_eq!(c.overlap_pixels, Some((iw * ih) as u64), "case {case}");
    }
}

trait CloneWithoutMask {
    fn clone_without_mask(&self, t: NodeId) -> Stage;
}

impl CloneWithoutMask for Stage {
    fn clone_without_mask(&self, t: NodeId) -> Stage {
        let mut c = self.clone();
        c.set_mask(t, None).unwrap();
        c
    }
}

#[test]
fn masked_pixels_are_the_item_times_the_mask_coverage() {
    // Half-pixel edges: the item covers half of column 10, the mask half of row 10. Where
    // both cover a pixel, its value is round(128 x 128 / 255) = 64, solid at tolerance 255
    // and 191, not at 190.
    let mut s = Stage::new();
    let root = s.root();
    let t = s.add_container(root).unwrap();
    s.add_graphic(t, fill(Path::rect(0.0, 0.0, 10.5, 20.0))).unwrap();
    let mask = s.add_container(root).unwrap();
    s.add_graphic(mask, fill(Path::rect(0.0, 0.0, 20.0, 10.5)))
        .unwrap();
    s.set_mask(t, Some(mask)).unwrap();
    let probe = rect_node(&mut s, root, 10.0, 10.0, 1.0, 1.0);
    for (tol, hit) in [(255, true), (191, true), (190, false)] {
        let c = s
            .collision(t, probe, root, &CollisionOptions::default().tolerance(tol))
            .unwrap();
        assert_eq!(c.overlap_pixels == Some(1), hit, "tolerance {tol}");
    }
    // Centre tests: (10.5, 10.5) lies on both edges; x in (left, right] keeps it in the
    // item, y in [top, bottom) keeps it out of the mask.
    let c = s
        .collision(t, probe, root, &CollisionOptions::default().anti_alias(false))
        .unwrap();
    assert_eq!(c.overlap_pixels, Some(0));
}

// ----- objects under a point -----

#[test]
fn objects_under_point_as_flash_recorded() {
    let mut s = Stage::new();
    let root = s.root();
    let square = |s: &mut Stage, parent: NodeId, name: &str| {
        let n = rect_node(s, parent, 0.0, 0.0, 10.0, 10.0);
        named(s, n, name)
    };
    let s1 = square(&mut s, root, "s1");
    let s3 = square(&mut s, s1, "s3");
    let s5 = square(&mut s, s3, "s5");
    let s2 = square(&mut s, root, "s2");
    let s4 = square(&mut s, s2, "s4");
    let s6 = square(&mut s, root, "s6");
    s.set_visible(s6, false).unwrap();
    let s8 = s.add_container(root).unwrap();
    let s9 = square(&mut s, s8, "s9");
    let mask = square(&mut s, root, "mask");
    let masked = square(&mut s, root, "masked");
    s.set_mask(masked, Some(mask)).unwrap();
    assert_eq!(
        s.objects_under_point(root, 5.0, 5.0).unwrap(),
        vec![s1, s3, s5, s2, s4, s9, masked]
    );
    assert!(s.hit_test_point(mask, 5.0, 5.0, false).unwrap());
    // A container's own subtree only.
    assert_eq!(s.objects_under_point(s1, 5.0, 5.0).unwrap(), vec![s1, s3, s5]);
    assert_eq!(s.objects_under_point(root, 50.0, 5.0).unwrap(), vec![]);
}

// ----- picking -----

#[test]
fn picking_follows_the_flash_recording() {
    let mut s = Stage::new();
    let root = s.root();
    let outer = rect_node(&mut s, root, 0.0, 0.0, 200.0, 200.0);
    let normal = s.add_container(outer).unwrap();
    shape(&mut s, normal, 0.0, 0.0, 100.0, 100.0);
    let no_mouse1 = s.add_container(outer).unwrap();
    s.set_x(no_mouse1, 10.0).unwrap();
    s.set_mouse_enabled(no_mouse1, false).unwrap();
    shape(&mut s, no_mouse1, 0.0, 0.0, 30.0, 30.0);
    let no_mouse2 = s.add_container(outer).unwrap();
    s.set_x(no_mouse2, 60.0).unwrap();
    s.set_mouse_enabled(no_mouse2, false).unwrap();
    shape(&mut s, no_mouse2, 0.0, 0.0, 30.0, 30.0);
    let sub = s.add_container(no_mouse2).unwrap();
    shape(&mut s, sub, 0.0, 0.0, 20.0, 20.0);
    assert_eq!(pick(&s, 22.0, 15.0), Some(normal));
    assert_eq!(pick(&s, 74.0, 15.0), Some(sub));
    assert_eq!(pick(&s, 46.0, 129.0), Some(outer));
    assert_eq!(pick(&s, 300.0, 300.0), None);
}

#[test]
fn rule_1_hidden_masked_and_scrolled_out_objects_are_not_picked() {
    let mut s = Stage::new();
    let root = s.root();
    let low = rect_node(&mut s, root, 0.0, 0.0, 50.0, 50.0);
    let top = rect_node(&mut s, root, 0.0, 0.0, 50.0, 50.0);
    assert_eq!(pick(&s, 10.0, 10.0), Some(top));
    s.set_visible(top, false).unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), Some(low));
    s.set_visible(top, true).unwrap();
    let mask = rect_node(&mut s, root, 20.0, 20.0, 30.0, 30.0);
    s.set_mask(top, Some(mask)).unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), Some(low));
    assert_eq!(pick(&s, 25.0, 25.0), Some(top));
    s.set_mask(top, None).unwrap();
    s.set_scroll_rect(top, Some([0.0, 0.0, 5.0, 5.0])).unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), Some(low));
    assert_eq!(pick(&s, 2.0, 2.0), Some(top));
}

#[test]
fn rule_2_interactive_children_are_tried_before_shapes_painted_over_them() {
    let mut s = Stage::new();
    let root = s.root();
    let panel = s.add_container(root).unwrap();
    let button = rect_node(&mut s, panel, 0.0, 0.0, 50.0, 50.0);
    // A Shape painted above the button: in paint order it is on top, yet the click is the
    // button's.
    shape(&mut s, panel, 0.0, 0.0, 50.0, 50.0);
    assert_eq!(pick(&s, 10.0, 10.0), Some(button));
    // Among interactive siblings, the top one.
    let over = rect_node(&mut s, panel, 0.0, 0.0, 20.0, 20.0);
    assert_eq!(pick(&s, 10.0, 10.0), Some(over));
    assert_eq!(pick(&s, 30.0, 30.0), Some(button));
}

#[test]
fn rule_3_a_hit_on_a_shape_or_bitmap_makes_its_parent_the_target() {
    let mut s = Stage::new();
    let root = s.root();
    let holder = s.add_container(root).unwrap();
    let bm = s
        .add_bitmap(
            holder,
            Bitmap::from_rgba8(2, 1, vec![0, 0, 0, 255, 0, 0, 0, 0]).unwrap(),
            false,
        )
        .unwrap();
    s.set_scale_x(bm, 10.0).unwrap();
    s.set_scale_y(bm, 10.0).unwrap();
    assert_eq!(pick(&s, 5.0, 5.0), Some(holder));
    // The transparent texel: not hit by alpha, hit by Flash's box.
    assert_eq!(pick(&s, 15.0, 5.0), None);
    let boxed = PickOptions::default().bitmap_hit(BitmapHit::Box);
    assert_eq!(s.pick(15.0, 5.0, &boxed).unwrap(), Some(holder));
    // A Shape straight under the root: the root is never the target.
    shape(&mut s, root, 100.0, 0.0, 10.0, 10.0);
    assert_eq!(pick(&s, 105.0, 5.0), None);
}

#[test]
fn rule_4_a_disabled_hit_loses_to_a_real_hit_below_and_otherwise_goes_up() {
    let mut s = Stage::new();
    let root = s.root();
    let panel = s.add_container(root).unwrap();
    let below = rect_node(&mut s, panel, 0.0, 0.0, 50.0, 50.0);
    let disabled = rect_node(&mut s, panel, 0.0, 0.0, 100.0, 100.0);
    s.set_mouse_enabled(disabled, false).unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), Some(below));
    // Where nothing else is hit, the nearest enabled ancestor takes it.
    assert_eq!(pick(&s, 80.0, 80.0), Some(panel));
    s.set_mouse_enabled(panel, false).unwrap();
    assert_eq!(pick(&s, 80.0, 80.0), None);
}

#[test]
fn rule_5_mouse_children_false_takes_every_hit_inside() {
    let mut s = Stage::new();
    let root = s.root();
    let panel = s.add_container(root).unwrap();
    let child = rect_node(&mut s, panel, 0.0, 0.0, 50.0, 50.0);
    assert_eq!(pick(&s, 10.0, 10.0), Some(child));
    s.set_mouse_children(panel, false).unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), Some(panel));
    // Not enabled itself: the hit passes up.
    s.set_mouse_enabled(panel, false).unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), None);
    let outer = s.add_container(root).unwrap();
    s.set_parent(panel, outer).unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), Some(outer));
}

#[test]
fn rule_6_the_root_is_never_the_target() {
    let mut s = Stage::new();
    let root = s.root();
    s.add_graphic(root, fill(Path::rect(0.0, 0.0, 100.0, 100.0)))
        .unwrap();
    assert_eq!(pick(&s, 10.0, 10.0), None);
    let child = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    assert_eq!(pick(&s, 5.0, 5.0), Some(child));
}

#[test]
fn rule_7_masks_and_their_content_are_never_targets() {
    let mut s = Stage::new();
    let root = s.root();
    let masked = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    let mask = s.add_container(root).unwrap();
    let inside_mask = rect_node(&mut s, mask, 0.0, 0.0, 100.0, 100.0);
    s.set_mask(masked, Some(mask)).unwrap();
    assert_eq!(pick(&s, 5.0, 5.0), Some(masked));
    // A click on the mask's own shape where nothing else is: nothing.
    assert_eq!(pick(&s, 50.0, 50.0), None);
    assert!(!s.hit_test_point(inside_mask, 50.0, 50.0, true).unwrap());
    assert!(s.objects_under_point(root, 50.0, 50.0).unwrap().is_empty());
}

#[test]
fn hit_areas_replace_what_makes_a_node_the_target() {
    let mut s = Stage::new();
    let root = s.root();
    let button = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    let area = s.add_container(root).unwrap();
    s.set_visible(area, false).unwrap();
    s.add_graphic(area, fill(Path::rect(50.0, 50.0, 10.0, 10.0)))
        .unwrap();
    s.set_mouse_enabled(area, false).unwrap();
    s.set_hit_area(button, Some(area)).unwrap();
    assert_eq!(pick(&s, 5.0, 5.0), None);
    assert_eq!(pick(&s, 55.0, 55.0), Some(button));
    assert_eq!(s.hit_area(button).unwrap(), Some(area));
    // Non-interactive nodes have no mouse properties.
    let shp = shape(&mut s, root, 0.0, 0.0, 1.0, 1.0);
    assert!(matches!(
        s.set_hit_area(shp, Some(area)),
        Err(Error::NotInteractive { .. })
    ));
    assert!(matches!(
        s.set_mouse_enabled(shp, true),
        Err(Error::NotInteractive { .. })
    ));
    let bm = s
        .add_bitmap(root, Bitmap::from_rgba8(1, 1, vec![0; 4]).unwrap(), false)
        .unwrap();
    assert!(matches!(
        s.set_interactive(bm, true),
        Err(Error::NotInteractive { .. })
    ));
    s.remove(area).unwrap();
    assert_eq!(s.hit_area(button).unwrap(), None);
    assert_eq!(pick(&s, 5.0, 5.0), Some(button));
}

/// Picking written again from the rules, recursively, over a tree of translated
/// rectangles (so that the test decides points itself).
struct Ref {
    nodes: Vec<RefNode>,
}

#[derive(Clone)]
struct RefNode {
    id: NodeId,
    /// Root-space rectangle of its own graphics, if any.
    own: Option<(f64, f64, f64, f64)>,
    children: Vec<usize>,
    interactive: bool,
    enabled: bool,
    mouse_children: bool,
    visible: bool,
}

#[derive(Clone, Copy, PartialEq, Debug)]
enum RefAnswer {
    Miss,
    Up,
    Hit(NodeId),
}

impl Ref {
    fn inside(r: Option<(f64, f64, f64, f64)>, p: DVec2) -> bool {
        // Flash's boundary rule for a rectangle fill: x in (left, right], y in [top, bottom).
        r.is_some_and(|(l, t, w, h)| p.x > l && p.x <= l + w && p.y >= t && p.y < t + h)
    }

    /// Whether anything visible in k's subtree is under p.
    fn any(&self, k: usize, p: DVec2) -> bool {
        let n = &self.nodes[k];
        Self::inside(n.own, p)
            || n.children
                .iter()
                .any(|&c| self.nodes[c].visible && self.any(c, p))
    }

    fn answer(&self, k: usize, p: DVec2) -> RefAnswer {
        let n = &self.nodes[k];
        let claim = |hit: bool| match (hit, n.enabled) {
            (false, _) => RefAnswer::Miss,
            (true, true) => RefAnswer::Hit(n.id),
            (true, false) => RefAnswer::Up,
        };
        if !n.mouse_children {
            return claim(self.any(k, p));
        }
        let mut up = false;
        for &c in n.children.iter().rev() {
            let child = &self.nodes[c];
            if !child.visible || !child.interactive {
                continue;
            }
            match self.answer(c, p) {
                RefAnswer::Hit(x) => return RefAnswer::Hit(x),
                RefAnswer::Up => up = true,
                RefAnswer::Miss => {}
            }
        }
        let own = Self::inside(n.own, p)
            || n.children.iter().any(|&c| {
                let child = &self.nodes[c];
                child.visible && !child.interactive && self.any(c, p)
            });
        claim(own || up)
    }

    fn pick(&self, p: DVec2) -> Option<NodeId> {
        match self.answer(0, p) {
            RefAnswer::Hit(x) if x != self.nodes[0].id => Some(x),
            _ => None,
        }
    }
}

/// A random tree of rectangles with random mouse flags, built in both the stage and the
/// reference.
fn random_tree(rng: &mut Rng, size: usize) -> (Stage, Ref) {
    let mut s = Stage::new();
    let root = s.root();
    let mut r = Ref {
        nodes: vec![RefNode {
            id: root,
            own: None,
            children: vec![],
            interactive: true,
            enabled: true,
            mouse_children: true,
            visible: true,
        }],
    };
    let mut offsets = vec![DVec2::ZERO];
    for _ in 0..size {
        // Parents are interactive containers (a non-interactive one is content as a whole,
        // which the reference treats as such only for its own children).
        let candidates: Vec<usize> = (0..r.nodes.len()).filter(|&k| r.nodes[k].interactive).collect();
        let parent = rng.pick(&candidates);
        let id = s.add_container(r.nodes[parent].id).unwrap();
        let off = DVec2::new(rng.int(0, 40) as f64, rng.int(0, 40) as f64);
        s.set_x(id, off.x).unwrap();
        s.set_y(id, off.y).unwrap();
        let at = offsets[parent] + off;
        let own = if rng.unit() < 0.7 {
            let (w, h) = (rng.int(5, 40) as f64, rng.int(5, 40) as f64);
            s.add_graphic(id, fill(Path::rect(0.0, 0.0, w, h))).unwrap();
            Some((at.x, at.y, w, h))
        } else {
            None
        };
        let interactive = rng.unit() < 0.75;
        s.set_interactive(id, interactive).unwrap();
        let (mut enabled, mut mouse_children) = (true, true);
        if interactive {
            enabled = rng.unit() < 0.7;
            mouse_children = rng.unit() < 0.8;
            s.set_mouse_enabled(id, enabled).unwrap();
            s.set_mouse_children(id, mouse_children).unwrap();
        }
        let visible = rng.unit() < 0.9;
        s.set_visible(id, visible).unwrap();
        let k = r.nodes.len();
        r.nodes.push(RefNode {
            id,
            own,
            children: vec![],
            interactive,
            enabled,
            mouse_children,
            visible,
        });
        r.nodes[parent].children.push(k);
        offsets.push(at);
    }
    (s, r)
}

#[test]
fn pick_agrees_with_the_rules_written_again_on_thousands_of_random_points() {
    let mut rng = Rng::new(77);
    let mut picked = 0;
    for _ in 0..120 {
        let size = rng.int(1, 30) as usize;
        let (s, r) = random_tree(&mut rng, size);
        for _ in 0..60 {
            // Whole and half pixels, so that points fall on edges too.
            let p = DVec2::new(rng.int(-4, 180) as f64 / 2.0, rng.int(-4, 180) as f64 / 2.0);
            let want = r.pick(p);
            picked += usize::from(want.is_some());
            assert_eq!(s.pick(p.x, p.y, &PickOptions::default()).unwrap(), want, "at {p}");
        }
    }
    assert!(picked > 1000, "too few points picked something: {picked}");
}

#[test]
fn all_64_mouse_flag_combinations_on_three_levels() {
    // a > b > c, each with its own square under the point; the reference is the rules
    // applied by hand: the deepest enabled node whose ancestors let children through, or
    // an enabled ancestor that a disabled hit passes up to.
    for bits in 0..64u32 {
        let flag = |k: u32| bits & (1 << k) != 0;
        let mut s = Stage::new();
        let root = s.root();
        let a = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
        let b = rect_node(&mut s, a, 0.0, 0.0, 10.0, 10.0);
        let c = rect_node(&mut s, b, 0.0, 0.0, 10.0, 10.0);
        let nodes = [a, b, c];
        for (k, &n) in nodes.iter().enumerate() {
            s.set_mouse_enabled(n, flag(2 * k as u32)).unwrap();
            s.set_mouse_children(n, flag(2 * k as u32 + 1)).unwrap();
        }
        // The deepest level reached: children are looked into while mouse_children holds.
        let mut reach = 0;
        while reach < 2 && flag(2 * reach as u32 + 1) {
            reach += 1;
        }
        // Every level down to `reach` is hit (each has its own square); the answer is the
        // deepest enabled one among them.
        let want = (0..=reach).rev().find(|&k| flag(2 * k as u32)).map(|k| nodes[k]);
        assert_eq!(pick(&s, 5.0, 5.0), want, "flags {bits:06b}");
    }
}

#[test]
fn the_index_follows_every_change() {
    let mut s = Stage::new();
    let root = s.root();
    let a = rect_node(&mut s, root, 0.0, 0.0, 10.0, 10.0);
    assert_eq!(pick(&s, 5.0, 5.0), Some(a));
    s.set_x(a, 100.0).unwrap();
    assert_eq!(pick(&s, 5.0, 5.0), None);
    assert_eq!(pick(&s, 105.0, 5.0), Some(a));
    let holder = s.add_container(root).unwrap();
    s.set_parent(a, holder).unwrap();
    s.set_x(holder, -100.0).unwrap();
    assert_eq!(pick(&s, 5.0, 5.0), Some(a));
    s.set_graphics(a, vec![]).unwrap();
    assert_eq!(pick(&s, 5.0, 5.0), None);
    assert!(s.pick(f64::NAN, 0.0, &PickOptions::default()).is_err());
}
