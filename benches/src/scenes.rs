//! The benchmark scenes, shared by the benchmarks, the differential tests and the tool that
//! exports sprites for the pygame comparison. Deterministic: the same seed gives the same
//! scene on every machine.

use pixelhit::{Bitmap, DVec2, FillRule, Graphic, NodeId, Path, Stage};

/// A small deterministic generator (64-bit LCG with a xorshift output).
pub struct Rng(u64);

impl Rng {
    /// A generator seeded with `seed`.
    pub fn new(seed: u64) -> Rng {
        Rng(seed
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407))
    }
    /// The next 64 random bits.
    pub fn next_u64(&mut self) -> u64 {
        self.0 = self
            .0
            .wrapping_mul(6364136223846793005)
            .wrapping_add(1442695040888963407);
        let x = self.0;
        (x ^ (x >> 29)).wrapping_mul(0xbf58476d1ce4e5b9) ^ (x >> 32)
    }
    /// Uniform in [0, 1).
    pub fn f64(&mut self) -> f64 {
        (self.next_u64() >> 11) as f64 / (1u64 << 53) as f64
    }
    /// Uniform in [lo, hi).
    pub fn range(&mut self, lo: f64, hi: f64) -> f64 {
        lo + (hi - lo) * self.f64()
    }
}

/// A random blob: a few overlapping discs with soft one-pixel edges, filling most of a
/// `size` x `size` bitmap, with some holes.
pub fn blob(size: u32, seed: u64) -> Bitmap {
    let mut rng = Rng::new(seed);
    let s = f64::from(size);
    let discs: Vec<(f64, f64, f64, bool)> = (0..12)
        .map(|i| {
            let hole = i >= 9;
            let r = if hole {
                rng.range(0.05, 0.1)
            } else {
                rng.range(0.18, 0.3)
            } * s;
            (rng.range(0.3, 0.7) * s, rng.range(0.3, 0.7) * s, r, hole)
        })
        .collect();
    let mut rgba = vec![0u8; (size * size * 4) as usize];
    for y in 0..size {
        for x in 0..size {
            let p = (f64::from(x) + 0.5, f64::from(y) + 0.5);
            let mut a: f64 = 0.0;
            for &(cx, cy, r, hole) in &discs {
                let d = ((p.0 - cx).powi(2) + (p.1 - cy).powi(2)).sqrt();
                let cover = (r - d + 0.5).clamp(0.0, 1.0);
                a = if hole { a.min(1.0 - cover) } else { a.max(cover) };
            }
            let i = ((y * size + x) * 4) as usize;
            rgba[i..i + 4].copy_from_slice(&[200, 120, 60, (a * 255.0).round() as u8]);
        }
    }
    Bitmap::from_rgba8(size, size, rgba).expect("valid blob")
}

/// Two blobs of `size`, B offset by whole pixels so that about half of each overlaps.
pub fn aligned(size: u32) -> (Stage, NodeId, NodeId) {
    let mut stage = Stage::new();
    let root = stage.root();
    let a = stage.add_bitmap(root, blob(size, 1), false).unwrap();
    let b = stage.add_bitmap(root, blob(size, 2), false).unwrap();
    stage.set_x(a, 10.0).unwrap();
    stage.set_y(a, 20.0).unwrap();
    stage.set_x(b, 10.0 + f64::from(size / 2)).unwrap();
    stage.set_y(b, 20.0 + f64::from(size / 8)).unwrap();
    (stage, a, b)
}

/// The offset of B relative to A in [`aligned`].
pub fn aligned_offset(size: u32) -> (i64, i64) {
    (i64::from(size / 2), i64::from(size / 8))
}

/// A star of `points` points with outer radius `r`, centred at the origin.
pub fn star(points: usize, r: f64, inner: f64) -> Path {
    let pts: Vec<DVec2> = (0..points * 2)
        .map(|i| {
            let a = std::f64::consts::PI * i as f64 / points as f64;
            let rr = if i % 2 == 0 { r } else { r * inner };
            DVec2::new(rr * a.cos(), rr * a.sin())
        })
        .collect();
    Path::polygon(&pts)
}

fn add_fill(stage: &mut Stage, parent: NodeId, path: Path) -> NodeId {
    let n = stage.add_container(parent).unwrap();
    stage
        .add_graphic(n, Graphic::fill(path, FillRule::NonZero, 1.0).unwrap())
        .unwrap();
    n
}

/// Two 128 px stars, rotated 33 and -20 degrees, scaled 1.3, about half overlapping.
pub fn rotated_vector() -> (Stage, NodeId, NodeId) {
    let mut stage = Stage::new();
    let root = stage.root();
    let a = add_fill(&mut stage, root, star(7, 64.0, 0.55));
    let b = add_fill(&mut stage, root, star(5, 64.0, 0.5));
    for (n, x, rot) in [(a, 100.0, 33.0), (b, 180.0, -20.0)] {
        stage.set_x(n, x).unwrap();
        stage.set_y(n, 100.0).unwrap();
        stage.set_rotation(n, rot).unwrap();
        stage.set_scale_x(n, 1.3).unwrap();
        stage.set_scale_y(n, 1.3).unwrap();
    }
    (stage, a, b)
}

/// Two 128 px blobs, rotated, nearest sampling, about half overlapping.
pub fn rotated_bitmap() -> (Stage, NodeId, NodeId) {
    let mut stage = Stage::new();
    let root = stage.root();
    let a = stage.add_bitmap(root, blob(128, 3), false).unwrap();
    let b = stage.add_bitmap(root, blob(128, 4), false).unwrap();
    for (n, x, rot) in [(a, 60.0, 27.0), (b, 150.0, -41.0)] {
        stage.set_x(n, x).unwrap();
        stage.set_y(n, 40.0).unwrap();
        stage.set_rotation(n, rot).unwrap();
    }
    (stage, a, b)
}

/// Two interlocking C shapes: their boxes overlap widely, their pixels stay 2 px apart.
pub fn near_miss() -> (Stage, NodeId, NodeId) {
    let mut stage = Stage::new();
    let root = stage.root();
    // A "C" opening to the right: outer 120 x 120, bar 20 thick.
    let c = Path::from_svg("M0,0 H120 V20 H20 V100 H120 V120 H0 Z").unwrap();
    // The other "C" opens to the left and reaches into the first one's mouth.
    let d = Path::from_svg("M0,0 H120 V120 H0 V100 H100 V20 H0 Z").unwrap();
    let a = add_fill(&mut stage, root, c);
    let b = add_fill(&mut stage, root, d);
    stage.set_x(a, 10.5).unwrap();
    stage.set_y(a, 10.25).unwrap();
    // b's inner bars (y 20..100 at x 100..120 of b) sit inside a's mouth (y 30.25..110.25).
    stage.set_x(b, 52.5).unwrap();
    stage.set_y(b, 32.25 + 40.0).unwrap();
    stage.set_scale_y(b, 0.35).unwrap();
    (stage, a, b)
}

/// Each target a container of 100 small rotated shapes.
pub fn deep_tree() -> (Stage, NodeId, NodeId) {
    let mut stage = Stage::new();
    let root = stage.root();
    let mut rng = Rng::new(7);
    let mut make = |stage: &mut Stage, x0: f64| {
        let group = stage.add_container(root).unwrap();
        stage.set_x(group, x0).unwrap();
        stage.set_rotation(group, 10.0).unwrap();
        for i in 0..100 {
            let shape = if i % 2 == 0 {
                star(5, 6.0, 0.5)
            } else {
                Path::rect(-4.0, -3.0, 8.0, 6.0)
            };
            let n = add_fill(stage, group, shape);
            stage.set_x(n, rng.range(0.0, 120.0)).unwrap();
            stage.set_y(n, rng.range(0.0, 120.0)).unwrap();
            stage.set_rotation(n, rng.range(0.0, 360.0)).unwrap();
        }
        group
    };
    let a = make(&mut stage, 0.0);
    let b = make(&mut stage, 60.0);
    (stage, a, b)
}

/// Moves the pair of [`rotated_vector`] to frame `f` of a drift that never comes back to an
/// earlier pose: both stars turn at every frame (A by 0.5 x sqrt 2 degrees, B by -0.3 x sqrt 3,
/// steps whose multiples are never a whole number of turns) and slide by fractions of a pixel
/// along sine waves of incommensurate periods (about 0.1 to 0.2 px per frame), staying about
/// half overlapping. Frame 0 is the [`rotated_vector`] scene.
pub fn move_pair(stage: &mut Stage, a: NodeId, b: NodeId, f: usize) {
    let t = f as f64;
    let (s2, s3, s5, s7) = (2f64.sqrt(), 3f64.sqrt(), 5f64.sqrt(), 7f64.sqrt());
    let wave = |amplitude: f64, rate: f64| amplitude * (0.01 * rate * t).sin();
    stage.set_x(a, 100.0 + wave(12.0, s2)).unwrap();
    stage.set_y(a, 100.0 + wave(8.0, s3)).unwrap();
    stage
        .set_rotation(a, (33.0 + 0.5 * s2 * t).rem_euclid(360.0))
        .unwrap();
    stage.set_x(b, 180.0 - wave(10.0, s5)).unwrap();
    stage.set_y(b, 100.0 + wave(6.0, s7)).unwrap();
    stage
        .set_rotation(b, (-20.0 - 0.3 * s3 * t).rem_euclid(360.0))
        .unwrap();
}
