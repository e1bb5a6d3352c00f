//! Shared helpers of the integration tests: a deterministic random generator, random
//! geometry, and an independent reference for which pixels two polygons make solid.
//!
//! Nothing here calls into the library's geometry: point-in-polygon, distances and exact
//! polygon/pixel areas are written out below in plain f64 so that the tests compare the
//! library against something it does not share code with.

#![allow(dead_code)]

use std::collections::HashSet;

use pixelhit::{
    Bitmap, Collision, CollisionOptions, DAffine2, DVec2, FillRule, Graphic, NodeId, Path, Rect, Stage,
};

/// xorshift64, the generator of the bitmap and exactness tests (their cases are this
/// sequence's).
pub struct XorShift(pub u64);

impl XorShift {
    pub fn next(&mut self) -> u64 {
        self.0 ^= self.0 << 13;
        self.0 ^= self.0 >> 7;
        self.0 ^= self.0 << 17;
        self.0
    }

    /// Uniform in [0, 1).
    pub fn f(&mut self) -> f64 {
        (self.next() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f()
    }

    /// Uniform in 0..n.
    pub fn below(&mut self, n: u64) -> u64 {
        self.next() % n
    }
}

/// SplitMix64: small, fast, and the same sequence on every platform.
pub struct Rng(u64);

impl Rng {
    pub fn new(seed: u64) -> Rng {
        Rng(seed ^ 0x5DEE_CE66_D1CE_4E5B)
    }

    pub fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }

    /// Uniform in [0, 1).
    pub fn unit(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }

    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.unit()
    }

    /// Uniform in lo..=hi.
    pub fn int(&mut self, lo: i64, hi: i64) -> i64 {
        lo + (self.next_u64() % (hi - lo + 1) as u64) as i64
    }

    pub fn coin(&mut self) -> bool {
        self.next_u64() & 1 == 1
    }

    pub fn pick<T: Copy>(&mut self, items: &[T]) -> T {
        items[self.int(0, items.len() as i64 - 1) as usize]
    }
}

/// `m` applied to `p` written out: `x' = a*x + c*y + tx`, `y' = b*x + d*y + ty`.
pub fn apply(m: &DAffine2, p: DVec2) -> DVec2 {
    let [a, b, c, d, tx, ty] = m.to_cols_array();
    DVec2::new(a * p.x + c * p.y + tx, b * p.x + d * p.y + ty)
}

pub fn map_all(m: &DAffine2, pts: &[DVec2]) -> Vec<DVec2> {
    pts.iter().map(|p| apply(m, *p)).collect()
}

/// A random simple polygon: `n >= 5` vertices at strictly increasing angles around the
/// origin (one per sector of `2*pi/n`, so consecutive gaps stay below pi) with random radii.
/// It is star-shaped about the origin, hence never self-intersecting, and usually concave.
/// The direction (clockwise or not) is random.
pub fn star(rng: &mut Rng, n: usize, r_min: f64, r_max: f64) -> Vec<DVec2> {
    assert!(n >= 5);
    let sector = std::f64::consts::TAU / n as f64;
    let mut pts: Vec<DVec2> = (0..n)
        .map(|i| {
            let ang = sector * (i as f64 + rng.range(0.05, 0.95));
            let r = rng.range(r_min, r_max);
            DVec2::new(r * ang.cos(), r * ang.sin())
        })
        .collect();
    if rng.coin() {
        pts.reverse();
    }
    pts
}

/// A random closed polyline through `n` random points in a disc: usually self-intersecting,
/// so the fill rule matters.
pub fn scribble(rng: &mut Rng, n: usize, r: f64) -> Vec<DVec2> {
    (0..n)
        .map(|_| {
            let ang = rng.range(0.0, std::f64::consts::TAU);
            let rad = r * rng.unit().sqrt();
            DVec2::new(rad * ang.cos(), rad * ang.sin())
        })
        .collect()
}

/// A random affine matrix: scale in `scale`, any rotation, skew up to 50 degrees when
/// `skew`, translation `t`.
pub fn random_matrix(rng: &mut Rng, scale: (f64, f64), skew: bool, t: DVec2) -> DAffine2 {
    let sx = rng.range(scale.0, scale.1) * if rng.int(0, 5) == 0 { -1.0 } else { 1.0 };
    let sy = rng.range(scale.0, scale.1);
    let r = rng.range(0.0, std::f64::consts::TAU);
    let k = if skew { rng.range(-0.87, 0.87) } else { 0.0 };
    DAffine2::from_cols_array(&[
        sx * r.cos(),
        sx * r.sin(),
        -sy * (r + k).sin(),
        sy * (r + k).cos(),
        t.x,
        t.y,
    ])
}

/// Winding number of `poly` (closed) around `p`, counting edges half-open in y.
pub fn winding(poly: &[DVec2], p: DVec2) -> i32 {
    let mut w = 0;
    for i in 0..poly.len() {
        let a = poly[i];
        let b = poly[(i + 1) % poly.len()];
        if a.y <= p.y && b.y > p.y {
            // Upward crossing to the right of p? cross > 0 means p is left of a->b.
            let cross = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y);
            if cross > 0.0 {
                w += 1;
            }
        } else if a.y > p.y && b.y <= p.y {
            let cross = (b.x - a.x) * (p.y - a.y) - (p.x - a.x) * (b.y - a.y);
            if cross < 0.0 {
                w -= 1;
            }
        }
    }
    w
}

pub fn inside(poly: &[DVec2], p: DVec2, rule: FillRule) -> bool {
    let w = winding(poly, p);
    match rule {
        FillRule::NonZero => w != 0,
        FillRule::EvenOdd => w % 2 != 0,
    }
}

/// Distance from `p` to the closed polygon's outline.
pub fn dist_to_outline(poly: &[DVec2], p: DVec2) -> f64 {
    let mut best = f64::INFINITY;
    for i in 0..poly.len() {
        let a = poly[i];
        let b = poly[(i + 1) % poly.len()];
        let ab = b - a;
        let len2 = ab.dot(ab);
        let t = if len2 > 0.0 {
            ((p - a).dot(ab) / len2).clamp(0.0, 1.0)
        } else {
            0.0
        };
        best = best.min((a + ab * t - p).length());
    }
    best
}

/// Signed area (shoelace).
pub fn signed_area(poly: &[DVec2]) -> f64 {
    let mut s = 0.0;
    for i in 0..poly.len() {
        let a = poly[i];
        let b = poly[(i + 1) % poly.len()];
        s += a.x * b.y - b.x * a.y;
    }
    0.5 * s
}

/// Area of a simple polygon inside the axis-aligned box `[l, r] x [t, b]`, by
/// Sutherland-Hodgman clipping against the four sides and the shoelace formula. For any
/// polygon the signed area of the clipped result is the integral of the winding number over
/// the box; for a simple polygon its absolute value is the covered area.
pub fn clipped_area(poly: &[DVec2], l: f64, t: f64, r: f64, b: f64) -> f64 {
    let mut cur: Vec<DVec2> = poly.to_vec();
    // (axis, bound, keep greater-or-equal)
    for (axis, bound, ge) in [(0, l, true), (0, r, false), (1, t, true), (1, b, false)] {
        if cur.is_empty() {
            return 0.0;
        }
        let coord = |p: DVec2| if axis == 0 { p.x } else { p.y };
        let keep = |p: DVec2| if ge { coord(p) >= bound } else { coord(p) <= bound };
        let mut out = Vec::with_capacity(cur.len() + 4);
        for i in 0..cur.len() {
            let p = cur[i];
            let q = cur[(i + 1) % cur.len()];
            let (kp, kq) = (keep(p), keep(q));
            if kp {
                out.push(p);
            }
            if kp != kq {
                let s = (bound - coord(p)) / (coord(q) - coord(p));
                let mut x = p + (q - p) * s;
                if axis == 0 {
                    x.x = bound;
                } else {
                    x.y = bound;
                }
                out.push(x);
            }
        }
        cur = out;
    }
    signed_area(&cur).abs()
}

pub fn bbox(poly: &[DVec2]) -> (f64, f64, f64, f64) {
    let mut bb = (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for p in poly {
        bb.0 = bb.0.min(p.x);
        bb.1 = bb.1.min(p.y);
        bb.2 = bb.2.max(p.x);
        bb.3 = bb.3.max(p.y);
    }
    bb
}

/// What the reference can say about one pixel.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Tri {
    Yes,
    No,
    Maybe,
}

/// How one polygon is drawn in the reference.
#[derive(Clone, Copy, Debug)]
pub enum Mode {
    /// `anti_alias = false`: the pixel centre decides by the fill rule; a centre within
    /// `CENTRE_MARGIN` of an edge may go either way (fixed-point edges of the rasterizer).
    Centre(FillRule),
    /// Anti-aliased, simple polygon, alpha 1, solid when coverage*255 reaches `threshold`.
    Coverage { threshold: u8 },
}

/// Pixel centres this close to an edge may go either way without anti-aliasing: vertices
/// are snapped to the 1/256 px grid (semantics.md 4.5), which moves an edge by at most
/// sqrt(2)/512 px, and the centre test on the snapped edges is exact.
pub const CENTRE_MARGIN: f64 = 1.0 / 256.0;

/// How far (in 1/255) an anti-aliased pixel may be from 255 times the exact area of the
/// unsnapped polygon in it (semantics.md 4.5).
pub const AREA_MARGIN: f64 = 3.0;

/// One target of the reference: its outline in the parent's space and how it is drawn.
#[derive(Clone, Debug)]
pub struct RefTarget {
    pub poly: Vec<DVec2>,
    pub mode: Mode,
    bb: (f64, f64, f64, f64),
}

impl RefTarget {
    pub fn new(poly: Vec<DVec2>, mode: Mode) -> RefTarget {
        let bb = bbox(&poly);
        RefTarget { poly, mode, bb }
    }

    /// Whether pixel (i, j) is solid.
    pub fn pixel(&self, i: i64, j: i64) -> Tri {
        let (x, y) = (i as f64, j as f64);
        let (l, t, r, b) = self.bb;
        if x + 1.0 < l - 1.0 || x > r + 1.0 || y + 1.0 < t - 1.0 || y > b + 1.0 {
            return Tri::No;
        }
        match self.mode {
            Mode::Centre(rule) => {
                let c = DVec2::new(x + 0.5, y + 0.5);
                if dist_to_outline(&self.poly, c) < CENTRE_MARGIN {
                    Tri::Maybe
                } else if inside(&self.poly, c, rule) {
                    Tri::Yes
                } else {
                    Tri::No
                }
            }
            Mode::Coverage { threshold } => {
                let value = 255.0 * clipped_area(&self.poly, x, y, x + 1.0, y + 1.0);
                let t = f64::from(threshold.max(1));
                if value - AREA_MARGIN >= t {
                    Tri::Yes
                } else if value + AREA_MARGIN < t {
                    Tri::No
                } else {
                    Tri::Maybe
                }
            }
        }
    }
}

/// What the reference expects of a collision: every pixel of `certain` is solid in both,
/// no pixel outside `possible` is.
#[derive(Clone, Debug, Default)]
pub struct Expected {
    pub certain: Vec<(i64, i64)>,
    pub possible: Vec<(i64, i64)>,
}

/// Bounding box `[x0, x1) x [y0, y1)` of pixels.
pub fn pixel_bbox(px: &[(i64, i64)]) -> Option<(i64, i64, i64, i64)> {
    let mut it = px.iter();
    let &(x, y) = it.next()?;
    let mut bb = (x, y, x + 1, y + 1);
    for &(x, y) in it {
        bb.0 = bb.0.min(x);
        bb.1 = bb.1.min(y);
        bb.2 = bb.2.max(x + 1);
        bb.3 = bb.3.max(y + 1);
    }
    Some(bb)
}

impl Expected {
    /// The reference answer for two targets drawn against a common parent.
    pub fn of(a: &RefTarget, b: &RefTarget) -> Expected {
        let mut e = Expected::default();
        let l = a.bb.0.max(b.bb.0).floor() as i64 - 1;
        let t = a.bb.1.max(b.bb.1).floor() as i64 - 1;
        let r = a.bb.2.min(b.bb.2).ceil() as i64 + 1;
        let bt = a.bb.3.min(b.bb.3).ceil() as i64 + 1;
        for j in t..bt {
            for i in l..r {
                let pa = a.pixel(i, j);
                if pa == Tri::No {
                    continue;
                }
                match (pa, b.pixel(i, j)) {
                    (_, Tri::No) => {}
                    (Tri::Yes, Tri::Yes) => {
                        e.certain.push((i, j));
                        e.possible.push((i, j));
                    }
                    _ => e.possible.push((i, j)),
                }
            }
        }
        e
    }

    /// Maps every pixel by `f` (e.g. a quarter turn of the scene).
    pub fn map(&self, f: impl Fn((i64, i64)) -> (i64, i64)) -> Expected {
        Expected {
            certain: self.certain.iter().map(|p| f(*p)).collect(),
            possible: self.possible.iter().map(|p| f(*p)).collect(),
        }
    }

    /// Whether the library's answer is one the reference allows.
    pub fn check(&self, got: &Collision) -> Result<(), String> {
        let count = got.overlap_pixels.ok_or("no overlap count for a precise query")?;
        let (lo, hi) = (self.certain.len() as u64, self.possible.len() as u64);
        if count < lo || count > hi {
            return Err(format!("overlap count {count} outside {lo}..={hi}"));
        }
        let rect = got.rect.map(|r| {
            let v = [r.left(), r.top(), r.right(), r.bottom()];
            assert!(
                v.iter().all(|x| x.fract() == 0.0),
                "precise rect not whole pixels: {r:?}"
            );
            (v[0] as i64, v[1] as i64, v[2] as i64, v[3] as i64)
        });
        if (count == 0) != rect.is_none() {
            return Err(format!("count {count} but rect {rect:?}"));
        }
        let Some(rect) = rect else {
            return if lo == 0 {
                Ok(())
            } else {
                Err(format!(
                    "no hit, but {lo} pixels certainly overlap, e.g. {:?}",
                    self.certain[0]
                ))
            };
        };
        if let Some(c) = pixel_bbox(&self.certain)
            && !(rect.0 <= c.0 && rect.1 <= c.1 && rect.2 >= c.2 && rect.3 >= c.3)
        {
            return Err(format!(
                "rect {rect:?} does not hold the certain pixels' box {c:?}"
            ));
        }
        match pixel_bbox(&self.possible) {
            Some(p) if rect.0 >= p.0 && rect.1 >= p.1 && rect.2 <= p.2 && rect.3 <= p.3 => Ok(()),
            p => Err(format!("rect {rect:?} outside the possible pixels' box {p:?}")),
        }
    }
}

/// A set of pixels, for exact comparisons.
pub fn pixel_set(px: &[(i64, i64)]) -> HashSet<(i64, i64)> {
    px.iter().copied().collect()
}

/// A rectangle from its edges, for expected values.
pub fn ltrb(l: f64, t: f64, r: f64, b: f64) -> Rect {
    Rect::from_ltrb(l, t, r, b).expect("valid rectangle")
}

// ----- random polygon scenes -----

/// Where the scenes are placed: near the origin and far from it.
pub const ANCHORS: [f64; 7] = [0.0, 37.0, -1000.0, 1.0e6, -1.0e6, 4.0e6, -1.0e7];

pub struct Case {
    pub stage: Stage,
    pub a: NodeId,
    pub b: NodeId,
    pub parent: NodeId,
    pub ref_a: Vec<DVec2>,
    pub ref_b: Vec<DVec2>,
    pub rules: (FillRule, FillRule),
}

/// A target: parent > outer (matrix) > inner (matrix) holding the polygon. Returns the
/// outer node and the polygon mapped into the parent's space by the test's own arithmetic.
pub fn add_target(
    stage: &mut Stage,
    parent: NodeId,
    poly: &[DVec2],
    outer: DAffine2,
    inner: DAffine2,
    rule: FillRule,
) -> (NodeId, Vec<DVec2>) {
    let t = stage.add_container(parent).unwrap();
    stage.set_matrix(t, outer).unwrap();
    let c = stage.add_container(t).unwrap();
    stage.set_matrix(c, inner).unwrap();
    stage
        .add_graphic(c, Graphic::fill(Path::polygon(poly), rule, 1.0).unwrap())
        .unwrap();
    (t, map_all(&outer, &map_all(&inner, poly)))
}

/// Two random polygon targets near each other under a common parent (sometimes the root,
/// sometimes a transformed container), at one of [`ANCHORS`]. With `simple_only` both are
/// star-shaped (simple); otherwise a third of them are self-intersecting scribbles.
pub fn random_case(seed: u64, simple_only: bool) -> Case {
    let mut rng = Rng::new(seed);
    let mut stage = Stage::new();
    let root = stage.root();
    // Half the time the common parent is a transformed container: its own matrix (and
    // everything above it) must not matter, the pixel grid is its local one.
    let parent = if rng.coin() {
        let p = stage.add_container(root).unwrap();
        let t = DVec2::new(rng.range(-50.0, 50.0), 3.0);
        let m = random_matrix(&mut rng, (0.5, 2.0), true, t);
        stage.set_matrix(p, m).unwrap();
        p
    } else {
        root
    };
    let anchor = DVec2::new(
        rng.pick(&ANCHORS) + rng.range(0.0, 1.0),
        rng.pick(&ANCHORS) + rng.range(0.0, 1.0),
    );
    let make = |rng: &mut Rng, stage: &mut Stage| {
        let poly = if simple_only || rng.int(0, 2) > 0 {
            let n = rng.int(5, 16) as usize;
            let r_min = rng.range(0.5, 8.0);
            let r_max = r_min + rng.range(2.0, 25.0);
            star(rng, n, r_min, r_max)
        } else {
            let n = rng.int(3, 9) as usize;
            let r = rng.range(5.0, 25.0);
            scribble(rng, n, r)
        };
        let (skew, shift) = (rng.coin(), DVec2::new(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0)));
        let inner = random_matrix(rng, (0.4, 2.0), skew, shift);
        let t = anchor + DVec2::new(rng.range(-12.0, 12.0), rng.range(-12.0, 12.0));
        let skew = rng.coin();
        let outer = random_matrix(rng, (0.5, 1.5), skew, t);
        let rule = if rng.coin() {
            FillRule::NonZero
        } else {
            FillRule::EvenOdd
        };
        let (node, mapped) = add_target(stage, parent, &poly, outer, inner, rule);
        (node, mapped, rule)
    };
    let (a, ref_a, rule_a) = make(&mut rng, &mut stage);
    let (b, ref_b, rule_b) = make(&mut rng, &mut stage);
    Case {
        stage,
        a,
        b,
        parent,
        ref_a,
        ref_b,
        rules: (rule_a, rule_b),
    }
}

/// A random bitmap up to `max_side` texels a side with a clear border 0 to 3 texels wide.
/// Inside, a texel is one of `kinds` kinds, drawn evenly: a random alpha (0), clear (1, when
/// `kinds` is 4) or opaque (the rest).
pub fn bordered_bitmap(rng: &mut Rng, max_side: i64, kinds: i64) -> Bitmap {
    let (w, h) = (rng.int(1, max_side) as u32, rng.int(1, max_side) as u32);
    let border = rng.int(0, 4) as u32;
    let mut rgba = Vec::with_capacity((w * h * 4) as usize);
    for y in 0..h {
        for x in 0..w {
            let edge = x < border || y < border || x + border >= w || y + border >= h;
            let a = match (edge, rng.int(0, kinds)) {
                (true, _) => 0,
                (false, 0) => rng.int(0, 255) as u8,
                (false, 1) if kinds == 4 => 0,
                _ => 255,
            };
            rgba.extend_from_slice(&[9, 8, 7, a]);
        }
    }
    Bitmap::from_rgba8(w, h, rgba).unwrap()
}

/// A contact as the many-object tests compare them: the pair, its rectangle and count.
pub type ContactKey = (NodeId, NodeId, Rect, Option<u64>);

/// Where a random pair's first target goes, by `case`: near the origin or up to 1e9 px from
/// it; and its scale range: mostly a sprite's, now and then a tiny or a huge one.
pub fn pair_placement(rng: &mut Rng, case: usize) -> (DVec2, (f64, f64)) {
    let far = [0.0, 0.0, 1e5, -3.3e7, 1e9][case % 5];
    let base = DVec2::new(
        far + rng.range(-100.0, 100.0),
        -far / 3.0 + rng.range(-100.0, 100.0),
    );
    let scale = match rng.int(0, 10) {
        0 => (0.01, 0.2),
        1 => (3.0, 100.0),
        _ => (0.5, 2.5),
    };
    (base, scale)
}

/// A random tolerance: 0, 255, 127 or any, one time in four each.
pub fn random_tolerance(rng: &mut Rng) -> u8 {
    match rng.int(0, 4) {
        0 => 0,
        1 => 255,
        2 => 127,
        _ => rng.int(0, 255) as u8,
    }
}

/// Asserts that `collision(a, b)` with `opts` gives the plain path's answer
/// (`fast_paths(false)`), cold and, with `warm`, on one stage asked three more times (poses
/// seen before become kept rasters, so a kept mask meets a pose computed in the window, and
/// two kept masks meet). Returns that answer.
pub fn assert_as_plain(
    stage: &Stage,
    (a, b): (NodeId, NodeId),
    root: NodeId,
    opts: &CollisionOptions,
    case: usize,
    warm: bool,
) -> Collision {
    let plain = stage
        .clone()
        .collision(a, b, root, &opts.fast_paths(false))
        .unwrap();
    let fast = stage.clone().collision(a, b, root, opts).unwrap();
    assert_eq!(fast, plain, "case {case}, {opts:?}");
    if warm {
        let warm = stage.clone();
        for round in 0..3 {
            let (x, y) = if round == 1 { (b, a) } else { (a, b) };
            // A key of its own each round, so that no answer is kept from the round before.
            let again = warm
                .collision(x, y, root, &opts.max_pixels((1 << 26) + round))
                .unwrap();
            assert_eq!(again, plain, "case {case} round {round}, {opts:?}");
        }
    }
    plain
}

/// The options of random crowd `case`: tolerance 0, 127 or 255, anti-aliased three times in
/// four, on one thread or several.
pub fn crowd_options(case: usize) -> CollisionOptions {
    CollisionOptions::default()
        .tolerance([0, 127, 255][case % 3])
        .anti_alias(!case.is_multiple_of(4))
        .parallel(case % 2 == 1)
}

/// `contacts_among(sprites)` with `opts`, and what every pair asked alone on the plain path
/// (`fast_paths(false)`) gives, in the same order: the many-object query's fast paths
/// (targets planned whole, kernels) against the plain per-pair answer. Asked `parallel`,
/// the query runs on a pool of two threads, where its pairs are always split (a small
/// crowd asked from outside a pool stays on its thread: `query::split`).
pub fn contacts_and_pairs_alone(
    stage: &Stage,
    sprites: &[NodeId],
    root: NodeId,
    opts: &CollisionOptions,
) -> (Vec<ContactKey>, Vec<ContactKey>) {
    let ask = || stage.contacts_among(sprites, root, opts).unwrap();
    let got = match opts.parallel {
        true => {
            let pool = rayon::ThreadPoolBuilder::new().num_threads(2).build().unwrap();
            pool.install(ask)
        }
        false => ask(),
    };
    let got = got.iter().map(|c| (c.a, c.b, c.rect, c.overlap_pixels)).collect();
    let mut want = Vec::new();
    for (i, &a) in sprites.iter().enumerate() {
        for &b in &sprites[i + 1..] {
            let c = stage
                .clone()
                .collision(a, b, root, &opts.fast_paths(false))
                .unwrap();
            if let Some(rect) = c.rect {
                want.push((a, b, rect, c.overlap_pixels));
            }
        }
    }
    (got, want)
}
