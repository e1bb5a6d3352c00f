//! Editable bitmaps (issue 32, part 2): after any sequence of edits every query equals a
//! fresh stage built with the edited pixels, the edited pixels equal an independent painter
//! (a loop over every texel with its own coverage and rounding), another node showing the
//! same bitmap never changes, and an edit costs its rectangle, not the bitmap (counted).

use glam::{DAffine2, DVec2};

use crate::raster::texels_made;
use crate::tree::bitmap_edit::LAST_EDIT;
use crate::{
    Bitmap, Brush, CollisionOptions, Error, FillRule, Graphic, NodeId, Path, PickOptions, Rect, Stage,
};

struct Rng(u64);

impl Rng {
    fn next(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6_364_136_223_846_793_005)
            .wrapping_add(1_442_695_040_888_963_407);
        self.0 >> 33
    }
    fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
    fn range(&mut self, lo: i64, hi: i64) -> i64 {
        lo + self.below((hi - lo) as u64) as i64
    }
    fn unit(&mut self) -> f64 {
        self.below(1 << 20) as f64 / f64::from(1 << 20)
    }
    fn byte(&mut self) -> u8 {
        // Often the extremes, which the rules treat apart.
        match self.below(4) {
            0 => 0,
            1 => 255,
            _ => self.below(256) as u8,
        }
    }
}

/// The nearest whole number to `num / den` in 0..=255, the larger on a tie, by search.
fn nearest(num: u64, den: u64) -> u8 {
    (0..=255u64)
        .rev()
        .min_by_key(|&c| (c * den).abs_diff(num))
        .unwrap_or(0) as u8
}

/// Source-over and erase, by search instead of division.
fn over(dst: [u8; 4], ink: [u8; 4], e: u8) -> [u8; 4] {
    let s = u64::from(nearest(u64::from(ink[3]) * u64::from(e), 255));
    if s == 0 {
        return dst;
    }
    let a = u64::from(dst[3]);
    let alpha = s * 255 + a * (255 - s);
    let mut out = [0u8; 4];
    for c in 0..3 {
        out[c] = nearest(
            u64::from(ink[c]) * s * 255 + u64::from(dst[c]) * a * (255 - s),
            alpha,
        );
    }
    out[3] = nearest(alpha, 255);
    out
}

/// The texel arithmetic alone, against the search above, over random texels.
#[test]
fn paint_is_source_over_rounded_once() {
    let mut rng = Rng(7);
    for _ in 0..20_000 {
        let dst = [rng.byte(), rng.byte(), rng.byte(), rng.byte()];
        let ink = [rng.byte(), rng.byte(), rng.byte(), 255];
        let e = rng.byte();
        let mut got = dst;
        crate::geom::bitmap_paint::paint_texel(&mut got, [ink[0], ink[1], ink[2]], e);
        assert_eq!(got, over(dst, ink, e), "{dst:?} {ink:?} {e}");
    }
}

fn erased(dst: [u8; 4], ink_alpha: u8, e: u8) -> [u8; 4] {
    let k = u64::from(nearest(u64::from(ink_alpha) * u64::from(e), 255));
    [
        dst[0],
        dst[1],
        dst[2],
        nearest(u64::from(dst[3]) * (255 - k), 255),
    ]
}

/// A polygon brush with vertices on the 1/256 grid, in those units.
#[derive(Clone)]
struct Poly {
    points: Vec<(i64, i64)>,
    rule: FillRule,
}

impl Poly {
    fn path(&self) -> Path {
        let mut p = Path::new();
        let f = |v: i64| v as f64 / 256.0;
        p.move_to(f(self.points[0].0), f(self.points[0].1));
        for &(x, y) in &self.points[1..] {
            p.line_to(f(x), f(y));
        }
        p.close();
        p
    }

    /// Whether the centre of texel `(i, j)` is inside, or `None` when it lies on an edge
    /// (the boundary rule of semantics.md 5 decides those; the test takes the edit's).
    fn covers(&self, i: i64, j: i64) -> Option<bool> {
        let (px, py) = (256 * i + 128, 256 * j + 128);
        let n = self.points.len();
        let mut winding = 0i64;
        for k in 0..n {
            let (a, b) = (self.points[k], self.points[(k + 1) % n]);
            let cross = (b.0 - a.0) * (py - a.1) - (b.1 - a.1) * (px - a.0);
            let within = px >= a.0.min(b.0) && px <= a.0.max(b.0) && py >= a.1.min(b.1) && py <= a.1.max(b.1);
            if cross == 0 && within {
                return None;
            }
            if (a.1 <= py) != (b.1 <= py) {
                // Upward edges wind +1 when the point is on their left.
                let up = b.1 > a.1;
                if (cross > 0) == up {
                    winding += if up { 1 } else { -1 };
                }
            }
        }
        Some(match self.rule {
            FillRule::NonZero => winding != 0,
            FillRule::EvenOdd => winding % 2 != 0,
        })
    }
}

enum TestBrush {
    Disc(DVec2, f64),
    Poly(Poly),
    Stamp(Bitmap, i64, i64),
}

impl TestBrush {
    fn brush(&self) -> Brush {
        match self {
            TestBrush::Disc(centre, radius) => Brush::Disc {
                centre: *centre,
                radius: *radius,
            },
            TestBrush::Poly(p) => Brush::Path {
                path: p.path(),
                rule: p.rule,
            },
            TestBrush::Stamp(b, x, y) => Brush::Bitmap {
                bitmap: b.clone(),
                x: *x,
                y: *y,
            },
        }
    }
}

fn random_bitmap(rng: &mut Rng, w: u32, h: u32) -> Bitmap {
    let mut rgba = vec![0u8; (4 * w * h) as usize];
    // A few blobs of one alpha each, over a clear or a solid ground.
    let ground = if rng.below(2) == 0 { 0 } else { 255 };
    for px in rgba.chunks_exact_mut(4) {
        px[3] = ground;
    }
    for _ in 0..rng.range(1, 5) {
        let (cx, cy, r) = (
            rng.range(0, i64::from(w)),
            rng.range(0, i64::from(h)),
            rng.range(1, 10),
        );
        let a = rng.byte();
        for y in 0..i64::from(h) {
            for x in 0..i64::from(w) {
                if (x - cx).pow(2) + (y - cy).pow(2) <= r * r {
                    rgba[(4 * (y * i64::from(w) + x) + 3) as usize] = a;
                }
            }
        }
    }
    for px in rgba.chunks_exact_mut(4) {
        px[0] = 200;
        px[1] = 90;
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

fn random_brush(rng: &mut Rng, w: u32, h: u32) -> TestBrush {
    let (w, h) = (i64::from(w), i64::from(h));
    match rng.below(3) {
        0 => TestBrush::Disc(
            DVec2::new(
                rng.range(-4, w + 4) as f64 + rng.unit(),
                rng.range(-4, h + 4) as f64 + rng.unit(),
            ),
            rng.range(0, 12) as f64 * rng.unit() * 1.5,
        ),
        1 => {
            let n = rng.range(3, 7) as usize;
            let (ox, oy) = (rng.range(-3, w), rng.range(-3, h));
            let points = (0..n)
                .map(|_| {
                    (
                        256 * ox + rng.range(0, 256 * 14),
                        256 * oy + rng.range(0, 256 * 14),
                    )
                })
                .collect();
            let rule = if rng.below(2) == 0 {
                FillRule::NonZero
            } else {
                FillRule::EvenOdd
            };
            TestBrush::Poly(Poly { points, rule })
        }
        _ => {
            let (bw, bh) = (rng.range(1, 9) as u32, rng.range(1, 9) as u32);
            let stamp = random_bitmap(rng, bw, bh);
            TestBrush::Stamp(stamp, rng.range(-8, w + 2), rng.range(-8, h + 2))
        }
    }
}

/// The independent painter: every texel of the bitmap, each by its own rule; texels whose
/// centres lie on a polygon's edge take `edited`'s value (counted in `on_edge`).
fn paint_reference(
    before: &[[u8; 4]],
    w: u32,
    brush: &TestBrush,
    ink: Option<[u8; 4]>,
    e: u8,
    edited: &Bitmap,
    on_edge: &mut u64,
) -> Vec<[u8; 4]> {
    let mut out = before.to_vec();
    for (k, px) in out.iter_mut().enumerate() {
        let (i, j) = ((k as u32 % w) as i64, (k as u32 / w) as i64);
        let texel_ink = match brush {
            TestBrush::Disc(c, r) => {
                let (dx, dy) = (i as f64 + 0.5 - c.x, j as f64 + 0.5 - c.y);
                (dx * dx + dy * dy <= r * r).then(|| ink.unwrap_or([0, 0, 0, 255]))
            }
            TestBrush::Poly(p) => match p.covers(i, j) {
                Some(inside) => inside.then(|| ink.unwrap_or([0, 0, 0, 255])),
                None => {
                    *on_edge += 1;
                    *px = edited.pixel(i as u32, j as u32).unwrap();
                    continue;
                }
            },
            TestBrush::Stamp(b, x, y) => {
                let (u, v) = (i - x, j - y);
                let inside = u >= 0 && v >= 0 && u < i64::from(b.width()) && v < i64::from(b.height());
                inside.then(|| {
                    let t = b.pixel(u as u32, v as u32).unwrap();
                    match ink {
                        Some(c) => [0, 1, 2, 3].map(|n| nearest(u64::from(t[n]) * u64::from(c[n]), 255)),
                        None => [0, 0, 0, t[3]],
                    }
                })
            }
        };
        if let Some(t) = texel_ink {
            *px = match ink {
                Some(_) => over(*px, t, e),
                None => erased(*px, t[3], e),
            };
        }
    }
    out
}

fn texels(b: &Bitmap) -> Vec<[u8; 4]> {
    b.rgba()
        .chunks_exact(4)
        .map(|p| [p[0], p[1], p[2], p[3]])
        .collect()
}

/// The scene both stages hold: the edited bitmap at `pose`, a twin showing the original
/// bitmap, and two probes (a disc bitmap and a vector bar) at `probe`.
struct Scene {
    stage: Stage,
    edited: NodeId,
    twin: NodeId,
    probe: NodeId,
    bar: NodeId,
}

fn probe_bitmap() -> Bitmap {
    let mut rgba = Vec::new();
    for y in 0..9i64 {
        for x in 0..9i64 {
            let d = (x - 4).pow(2) + (y - 4).pow(2);
            rgba.extend_from_slice(&[
                1,
                2,
                3,
                if d <= 9 {
                    255
                } else if d <= 16 {
                    120
                } else {
                    0
                },
            ]);
        }
    }
    Bitmap::from_rgba8(9, 9, rgba).unwrap()
}

fn scene(bitmap: Bitmap, original: Bitmap, smoothing: bool, pose: DAffine2, probe: DVec2) -> Scene {
    let mut stage = Stage::new();
    let root = stage.root();
    let edited = stage.add_bitmap(root, bitmap, smoothing).unwrap();
    stage.set_matrix(edited, pose).unwrap();
    let twin = stage.add_bitmap(root, original, smoothing).unwrap();
    stage
        .set_matrix(twin, DAffine2::from_translation(DVec2::new(70.0, 3.0)))
        .unwrap();
    let probe_node = stage.add_bitmap(root, probe_bitmap(), false).unwrap();
    let bar = stage.add_container(root).unwrap();
    let g = Graphic::fill(Path::rect(0.0, 0.0, 13.0, 2.5), FillRule::NonZero, 0.8).unwrap();
    stage.add_graphic(bar, g).unwrap();
    let mut s = Scene {
        stage,
        edited,
        twin,
        probe: probe_node,
        bar,
    };
    s.place(probe);
    s
}

impl Scene {
    fn place(&mut self, at: DVec2) {
        self.stage.set_position(self.probe, at.x, at.y).unwrap();
        self.stage.set_position(self.bar, at.y * 0.7, at.x * 0.5).unwrap();
    }
}

type Answers = Vec<String>;

/// Every kind of query about the edited node, as text to compare.
fn ask(s: &Scene, rng_seed: u64) -> Answers {
    let mut rng = Rng(rng_seed);
    let st = &s.stage;
    let root = st.root();
    let mut out = Vec::new();
    for other in [s.probe, s.bar, s.twin] {
        let opts = CollisionOptions::default()
            .tolerance(rng.byte())
            .anti_alias(rng.below(3) != 0);
        out.push(format!("{:?}", st.collision(s.edited, other, root, &opts)));
    }
    for _ in 0..4 {
        let (x, y) = (
            rng.range(-5, 80) as f64 + rng.unit(),
            rng.range(-5, 60) as f64 + rng.unit(),
        );
        out.push(format!("{:?}", st.hit_test_point(s.edited, x, y, true)));
        let under = st.objects_under_point(root, x, y).unwrap();
        let names = [
            (s.edited, "edited"),
            (s.twin, "twin"),
            (s.probe, "probe"),
            (s.bar, "bar"),
        ];
        let under: Vec<&str> = under
            .iter()
            .map(|p| names.iter().find(|n| n.0 == *p).map_or("other", |n| n.1))
            .collect();
        out.push(format!("{under:?}"));
    }
    // Every pair at once (the many-object path, whose answers are kept for the frame).
    let names = [
        (s.edited, "edited"),
        (s.twin, "twin"),
        (s.probe, "probe"),
        (s.bar, "bar"),
    ];
    let name = |n: NodeId| names.iter().find(|x| x.0 == n).map_or("other", |x| x.1);
    let opts = CollisionOptions::default().tolerance(rng.byte());
    let contacts = st.contacts_among(&names.map(|n| n.0), root, &opts).unwrap();
    for c in contacts {
        out.push(format!(
            "{} {} {:?} {:?}",
            name(c.a),
            name(c.b),
            c.rect,
            c.overlap_pixels
        ));
    }
    let area = Rect::from_ltrb(-3.0, -2.0, 64.0, 50.0).unwrap();
    let opts = CollisionOptions::default().anti_alias(rng.below(2) == 0);
    out.push(format!("{:?}", st.alpha_plane(s.edited, root, area, &opts)));
    out
}

/// Asserts equal answers, showing the first that differs (cut short: planes are long).
fn same(got: &Answers, want: &Answers, what: &str) {
    if let Some(k) = (0..got.len().max(want.len())).find(|&k| got.get(k) != want.get(k)) {
        let cut = |a: Option<&String>| a.map(|s| s.chars().take(400).collect::<String>());
        panic!(
            "{what}: answer {k} is {:?}, a fresh stage's {:?}",
            cut(got.get(k)),
            cut(want.get(k))
        );
    }
}

/// Thousands of random edits (discs, polygons by both rules, bitmap stamps; painted and
/// erased with random alphas) of a bitmap in random poses, each followed by queries asked
/// twice (the second reads the rasters the first kept, which later edits patch): every
/// answer equals a fresh stage's built with the edited pixels, the pixels equal the
/// independent painter's, and the twin showing the original bitmap never changes.
#[test]
fn edits_answer_as_a_fresh_stage_with_the_edited_pixels() {
    let poses = [
        DAffine2::from_translation(DVec2::new(3.0, 4.0)),
        DAffine2::from_translation(DVec2::new(2.5, 1.25)),
        DAffine2::from_scale_angle_translation(DVec2::splat(1.3), 0.5, DVec2::new(20.0, -4.0)),
        DAffine2::from_scale_angle_translation(DVec2::new(0.7, 1.1), -0.2, DVec2::new(5.3, 8.9)),
    ];
    let (mut edits, mut on_edge, mut covered) = (0u64, 0u64, 0u64);
    let (mut copies, mut patched_pixels) = (0u64, 0u64);
    for trial in 0..8u64 {
        let mut rng = Rng(trial * 7919 + 1);
        let (w, h) = (rng.range(20, 48) as u32, rng.range(16, 40) as u32);
        let original = random_bitmap(&mut rng, w, h);
        let pose = poses[trial as usize % poses.len()];
        let smoothing = trial % 3 == 1;
        let mut s = scene(
            original.clone(),
            original.clone(),
            smoothing,
            pose,
            DVec2::new(10.0, 10.0),
        );
        let mut shadow = texels(&original);
        for step in 0..250u64 {
            let brush = random_brush(&mut rng, w, h);
            let alpha = match rng.below(3) {
                0 => 1.0,
                _ => rng.unit(),
            };
            let e = (alpha * 255.0).round() as u8;
            let paint = rng.below(2) == 0;
            let ink = [rng.byte(), rng.byte(), rng.byte(), rng.byte()];
            let result = match paint {
                true => s.stage.paint(s.edited, &brush.brush(), ink, alpha),
                false => s.stage.erase(s.edited, &brush.brush(), alpha),
            };
            result.unwrap();
            edits += 1;
            copies += u64::from(LAST_EDIT.with(|c| c.get()).1);
            patched_pixels += LAST_EDIT.with(|c| c.get()).0.pixels;
            LAST_EDIT.with(|c| c.set(Default::default()));
            let edited = s.stage.bitmap(s.edited).unwrap().unwrap().0.clone();
            let want = paint_reference(&shadow, w, &brush, paint.then_some(ink), e, &edited, &mut on_edge);
            covered += want.iter().zip(&shadow).filter(|(a, b)| a != b).count() as u64;
            assert_eq!(texels(&edited), want, "trial {trial} step {step}");
            shadow = want;
            // Now and then the probes move or the edited node takes another pose (its
            // rasters in each pose stay kept and are patched by later edits).
            if rng.below(4) == 0 {
                s.place(DVec2::new(rng.range(-4, 60) as f64, rng.range(-4, 40) as f64));
            }
            if rng.below(25) == 0 {
                let p = poses[rng.below(poses.len() as u64) as usize];
                s.stage.set_matrix(s.edited, p).unwrap();
            }
            let fresh_bitmap = Bitmap::from_rgba8(w, h, edited.rgba().to_vec()).unwrap();
            let mut fresh = scene(
                fresh_bitmap,
                original.clone(),
                smoothing,
                s.stage.matrix(s.edited).unwrap(),
                DVec2::ZERO,
            );
            for n in [s.probe, s.bar] {
                let m = s.stage.matrix(n).unwrap();
                let fresh_node = if n == s.probe { fresh.probe } else { fresh.bar };
                fresh.stage.set_matrix(fresh_node, m).unwrap();
            }
            let seed = rng.next();
            let first = ask(&s, seed);
            same(&first, &ask(&fresh, seed), &format!("trial {trial} step {step}"));
            same(
                &ask(&s, seed),
                &first,
                &format!("asked again, trial {trial} step {step}"),
            );
        }
        assert_eq!(s.stage.cache.bytes(), s.stage.cache.recount(), "trial {trial}");
        assert_eq!(
            s.stage.bitmap(s.twin).unwrap().unwrap().0.rgba(),
            original.rgba(),
            "the twin shows the original pixels"
        );
    }
    assert!(edits >= 2000, "{edits}");
    // The polygons' centres almost never fall on an edge, the edits changed texels, and
    // the kept rasters were patched rather than dropped.
    assert!(
        on_edge * 100 < covered,
        "{on_edge} on an edge of {covered} changed"
    );
    assert!(covered > 20_000, "{covered}");
    assert!(patched_pixels > 10_000, "{patched_pixels}");
    // The twin shares the pixels until the first edit, which copies them; later edits
    // are in place.
    assert_eq!(copies, 8);
}

fn terrain() -> Bitmap {
    let (w, h) = (2048u32, 1024u32);
    let mut rgba = vec![0u8; (4 * w * h) as usize];
    for x in 0..w {
        let ground = 600.0 + 80.0 * (f64::from(x) / 150.0).sin();
        for y in 0..h {
            if f64::from(y) >= ground {
                rgba[(4 * (y * w + x) + 3) as usize] = 255;
            }
        }
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

/// A crater in a 2048 x 1024 terrain remakes the texels of its rectangle and the pixels of
/// the kept raster over it, not the bitmap's two million; replacing the bitmap remakes them
/// all. The answers after the edit are a fresh stage's.
#[test]
fn a_crater_costs_its_rectangle_not_the_terrain() {
    let mut stage = Stage::new();
    let root = stage.root();
    let ground = stage.add_bitmap(root, terrain(), false).unwrap();
    let probe = stage.add_bitmap(root, probe_bitmap(), false).unwrap();
    stage.set_position(probe, 1000.0, 628.0).unwrap();
    let opts = CollisionOptions::default();
    let before = stage.collision(ground, probe, root, &opts).unwrap();
    assert!(before.overlap_pixels.unwrap() > 0);
    // A second frame draws the terrain whole and keeps its raster.
    stage.set_position(probe, 1001.0, 628.0).unwrap();
    stage.collision(ground, probe, root, &opts).unwrap();
    assert_eq!(stage.cache.counts().rasters, 2, "{:?}", stage.cache.counts());
    let made = texels_made();
    stage
        .erase(
            ground,
            &Brush::Disc {
                centre: DVec2::new(1004.0, 632.0),
                radius: 30.0,
            },
            1.0,
        )
        .unwrap();
    let (work, copied) = LAST_EDIT.with(|c| c.get());
    assert!(!copied);
    assert_eq!(stage.cache.bytes(), stage.cache.recount());
    // The disc's rectangle is 60 x 60 texels; its raster pixels the same plus a margin.
    assert!(work.texels > 0 && work.texels <= 61 * 61, "{work:?}");
    assert!(work.pixels > 0 && work.pixels <= 66 * 66, "{work:?}");
    assert_eq!((work.whole_tables, work.dropped), (0, 0), "{work:?}");
    let after = stage.collision(ground, probe, root, &opts).unwrap();
    assert_eq!(texels_made() - made, work.texels, "the query made no table again");
    assert_eq!(stage.cache.counts().rasters, 2, "{:?}", stage.cache.counts());
    assert_ne!(after, before);
    // A fresh stage with the cratered pixels answers the same.
    let cratered = stage.bitmap(ground).unwrap().unwrap().0.rgba().to_vec();
    let mut fresh = Stage::new();
    let froot = fresh.root();
    let fground = fresh
        .add_bitmap(
            froot,
            Bitmap::from_rgba8(2048, 1024, cratered.clone()).unwrap(),
            false,
        )
        .unwrap();
    let fprobe = fresh.add_bitmap(froot, probe_bitmap(), false).unwrap();
    fresh.set_position(fprobe, 1001.0, 628.0).unwrap();
    assert_eq!(fresh.collision(fground, fprobe, froot, &opts).unwrap(), after);
    // Replacing the bitmap instead makes its whole table again.
    let made = texels_made();
    stage
        .set_bitmap(ground, Bitmap::from_rgba8(2048, 1024, cratered).unwrap(), false)
        .unwrap();
    assert_eq!(stage.collision(ground, probe, root, &opts).unwrap(), after);
    assert_eq!(texels_made() - made, 2048 * 1024);
}

/// A refused edit names what is wrong and changes nothing.
#[test]
fn bad_edits_are_refused_and_change_nothing() {
    let mut stage = Stage::new();
    let root = stage.root();
    let b = Bitmap::from_rgba8(4, 4, vec![255; 64]).unwrap();
    let node = stage.add_bitmap(root, b, false).unwrap();
    stage.set_name(node, "rock").unwrap();
    let disc = |x: f64, r: f64| Brush::Disc {
        centre: DVec2::new(x, 2.0),
        radius: r,
    };
    let revision = stage.revision();
    let e = stage.erase(node, &disc(2.0, 1.0), 1.5).unwrap_err();
    assert!(
        matches!(e, Error::OutOfRange { .. }) && e.to_string().contains("\"rock\""),
        "{e}"
    );
    let e = stage.paint(node, &disc(f64::NAN, 1.0), [0; 4], 1.0).unwrap_err();
    assert!(
        matches!(e, Error::NonFinite { .. }) && e.to_string().contains("\"rock\""),
        "{e}"
    );
    let e = stage.erase(node, &disc(2.0, -1.0), 1.0).unwrap_err();
    assert!(matches!(e, Error::OutOfRange { .. }), "{e}");
    let mut far = Path::new();
    far.move_to(0.0, 0.0)
        .line_to(1e300, 0.0)
        .line_to(0.0, f64::INFINITY)
        .close();
    let e = stage
        .erase(
            node,
            &Brush::Path {
                path: far,
                rule: FillRule::NonZero,
            },
            1.0,
        )
        .unwrap_err();
    assert!(matches!(e, Error::NonFinite { .. }), "{e}");
    let e = stage.erase(root, &disc(2.0, 1.0), 1.0).unwrap_err();
    assert!(matches!(e, Error::NotBitmap { .. }), "{e}");
    assert_eq!(stage.revision(), revision);
    assert_eq!(stage.bitmap(node).unwrap().unwrap().0.rgba(), &[255; 64][..]);
    // An edit that covers no texel, or of alpha 0, changes nothing either.
    stage.erase(node, &disc(40.0, 3.0), 1.0).unwrap();
    stage.erase(node, &disc(2.0, 3.0), 0.0).unwrap();
    assert_eq!(stage.revision(), revision);
}

/// Picks read the edited pixels, and an edit keeps the pick index (no box changed).
#[test]
fn an_edit_keeps_the_pick_index_and_picks_see_it() {
    let mut stage = Stage::new();
    let root = stage.root();
    let button = stage.add_container(root).unwrap();
    let node = stage
        .add_bitmap(button, Bitmap::from_rgba8(8, 8, vec![255; 256]).unwrap(), false)
        .unwrap();
    let opts = PickOptions::default();
    assert_eq!(stage.pick(4.5, 4.5, &opts).unwrap(), Some(button));
    assert_eq!(stage.objects_under_point(root, 4.5, 4.5).unwrap(), vec![node]);
    let index = stage.pick_index().unwrap();
    stage
        .erase(
            node,
            &Brush::Disc {
                centre: DVec2::new(4.5, 4.5),
                radius: 1.0,
            },
            1.0,
        )
        .unwrap();
    assert_eq!(stage.pick(4.5, 4.5, &opts).unwrap(), None);
    assert!(stage.objects_under_point(root, 4.5, 4.5).unwrap().is_empty());
    assert_eq!(stage.pick(6.5, 6.5, &opts).unwrap(), Some(button));
    assert!(std::sync::Arc::ptr_eq(&index, &stage.pick_index().unwrap()));
    stage.set_x(node, 1.0).unwrap();
    assert!(!std::sync::Arc::ptr_eq(&index, &stage.pick_index().unwrap()));
}

/// The answers kept for a frame stay after an edit for pairs whose targets do not hold the
/// edited bitmap, and are worked out again for those that do (a container holding it
/// included); either way they are a fresh stage's.
#[test]
fn an_edit_keeps_the_answers_of_pairs_that_do_not_hold_the_bitmap() {
    let build = |ground_pixels: Vec<u8>| {
        let mut stage = Stage::new();
        let root = stage.root();
        let land = stage.add_container(root).unwrap();
        let ground = stage
            .add_bitmap(land, Bitmap::from_rgba8(64, 32, ground_pixels).unwrap(), false)
            .unwrap();
        let solid = || Bitmap::from_rgba8(6, 6, vec![255; 144]).unwrap();
        let [a, b, c] = [(2.0, -20.0), (5.0, -18.0), (30.0, -3.0)].map(|(x, y)| {
            let n = stage.add_bitmap(root, solid(), false).unwrap();
            stage.set_position(n, x, y).unwrap();
            n
        });
        (stage, ground, [a, b, c, land])
    };
    let (mut stage, ground, objects) = build(vec![255; 64 * 32 * 4]);
    let root = stage.root();
    let opts = CollisionOptions::default();
    let before = stage.contacts_among(&objects, root, &opts).unwrap();
    assert_eq!(before.len(), 2, "{before:?}");
    let found = stage.cache.made()[2];
    stage
        .erase(
            ground,
            &Brush::Disc {
                centre: DVec2::new(33.0, 0.0),
                radius: 8.0,
            },
            1.0,
        )
        .unwrap();
    let after = stage.contacts_among(&objects, root, &opts).unwrap();
    // (a, b) read from the kept answers; (c, land) worked out again: c floats over the crater.
    assert_eq!(stage.cache.made()[2] - found, 1);
    assert_eq!(after.len(), 1, "{after:?}");
    let pixels = stage.bitmap(ground).unwrap().unwrap().0.rgba().to_vec();
    let (fresh, _, fresh_objects) = build(pixels);
    let fresh_after = fresh.contacts_among(&fresh_objects, fresh.root(), &opts).unwrap();
    let strip = |cs: &[crate::Contact]| cs.iter().map(|c| (c.rect, c.overlap_pixels)).collect::<Vec<_>>();
    assert_eq!(strip(&after), strip(&fresh_after));
}
