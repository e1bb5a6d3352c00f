//! The convex hull of a bitmap's solid texels, per level of alpha (for pygame's renderers;
//! the unsmoothed kernel bounds rows by [`super::solid_outline`]'s octagons instead): what a kernel that
//! walks a pixel row through texel space along a straight line clips the row with, so
//! that pixels that cannot read a solid texel are never read (issue 29's "reject with
//! what can be solid"). Made once per bitmap with its texels, counted with them.
//!
//! The outline at a level is the convex hull of the squares `[u, u + 1] x [v, v + 1]` (in
//! texels) of every texel whose alpha reaches the level: a step inside no such square
//! reads no such texel. The levels are a fixed grid (1, 16, 32, ..., 240, 255); a
//! threshold uses the highest level at or below it, whose outline holds its own. Each
//! level also keeps the outline grown by one texel left and up (`reach`): a step whose
//! 2 x 2 block (its texel and the next across and down) holds such a texel lies there.
//! Only the first and last solid texel of each row are hull candidates, so a bitmap costs
//! one pass over its alpha. Outlines of more than [`MAX_VERTICES`] vertices are not kept
//! (the kernel then clips by the solid box alone).

/// The levels whose outlines are kept.
pub(crate) const LEVELS: [u8; 17] = [
    1, 16, 32, 48, 64, 80, 96, 112, 128, 144, 160, 176, 192, 208, 224, 240, 255,
];

/// The most vertices an outline keeps (a kernel maps them into a fixed array).
pub(crate) const MAX_VERTICES: usize = 64;

/// Per level, the outline of the solid texels' squares and the same grown by `reach`.
#[derive(Debug, Clone, Default)]
pub(crate) struct SolidHull {
    /// Every outline's vertices (texel corners, counter-clockwise: `cross > 0` at every
    /// turn), level after level, the plain one then the grown one.
    points: Vec<[i32; 2]>,
    /// Where each outline starts in `points` (one more entry than outlines).
    starts: Vec<u32>,
}

impl SolidHull {
    /// The outlines of a `width`-wide bitmap's alpha (row-major).
    pub fn new(width: u32, alpha: &[u8]) -> SolidHull {
        let mut corners: Vec<Vec<[i32; 2]>> = vec![Vec::new(); LEVELS.len()];
        for (v, row) in alpha.chunks_exact(width.max(1) as usize).enumerate() {
            add_row_extremes(row, v as i32, 0, &mut corners);
        }
        let mut outline = SolidHull::default();
        outline.rebuild(corners);
        outline
    }

    /// The outline for `threshold` (a source alpha, at least 1), grown for a 2 x 2 block
    /// when `reach`; empty when no texel reaches it, or when it was too large to keep.
    pub fn hull(&self, threshold: u8, reach: bool) -> &[[i32; 2]] {
        let level = LEVELS.iter().rposition(|&l| l <= threshold.max(1)).unwrap_or(0);
        let k = 2 * level + usize::from(reach);
        match self.starts.get(k..k + 2) {
            Some(&[a, b]) => &self.points[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Grows the outlines by the texels `[u0, u1) x [v0, v1)` of `alpha` (the whole
    /// bitmap's, `width` a row), changed by an edit: each level's outline becomes the hull
    /// of itself and the rectangle's solid rows. An erase leaves it as it was (an outline
    /// larger than the solid texels is still a bound).
    pub fn grow(&mut self, width: u32, alpha: &[u8], [u0, v0, u1, v1]: [u32; 4]) {
        let mut corners: Vec<Vec<[i32; 2]>> = (0..LEVELS.len()).map(|l| self.plain(l).to_vec()).collect();
        let w = width as usize;
        for v in v0..v1 {
            let row = &alpha[v as usize * w..][u0 as usize..u1 as usize];
            add_row_extremes(row, v as i32, u0 as i32, &mut corners);
        }
        self.rebuild(corners);
    }

    /// Bytes it holds.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<SolidHull>()
            + self.points.capacity() * std::mem::size_of::<[i32; 2]>()
            + self.starts.capacity() * std::mem::size_of::<u32>()
    }

    /// The plain outline of level index `l`.
    fn plain(&self, l: usize) -> &[[i32; 2]] {
        match self.starts.get(2 * l..2 * l + 2) {
            Some(&[a, b]) => &self.points[a as usize..b as usize],
            _ => &[],
        }
    }

    /// Makes the outlines again from each level's candidate corners.
    fn rebuild(&mut self, corners: Vec<Vec<[i32; 2]>>) {
        let (mut points, mut starts) = (Vec::new(), vec![0u32]);
        for mut c in corners {
            let plain = kept(convex_hull(&mut c));
            let mut grown: Vec<[i32; 2]> = plain
                .iter()
                .flat_map(|&[u, v]| [[u, v], [u - 1, v], [u, v - 1], [u - 1, v - 1]])
                .collect();
            let grown = match plain.is_empty() {
                true => Vec::new(),
                false => kept(convex_hull(&mut grown)),
            };
            for hull in [plain, grown] {
                points.extend_from_slice(&hull);
                starts.push(points.len() as u32);
            }
        }
        points.shrink_to_fit();
        *self = SolidHull { points, starts };
    }
}

/// Adds to each level's `corners` the squares' corners of the first and last texel of
/// `row` (texel row `v`, its first texel at column `u0`) whose alpha reaches the level.
fn add_row_extremes(row: &[u8], v: i32, u0: i32, corners: &mut [Vec<[i32; 2]>]) {
    // The first texel reaching each level: where the running greatest alpha passes it.
    let mut first = [i32::MAX; LEVELS.len()];
    let mut last = [i32::MIN; LEVELS.len()];
    let mut greatest = 0u8;
    for (k, &a) in row.iter().enumerate() {
        if a > greatest {
            for (l, &level) in LEVELS.iter().enumerate() {
                if level > greatest && level <= a {
                    first[l] = u0 + k as i32;
                }
            }
            greatest = a;
        }
    }
    greatest = 0;
    for (k, &a) in row.iter().enumerate().rev() {
        if a > greatest {
            for (l, &level) in LEVELS.iter().enumerate() {
                if level > greatest && level <= a {
                    last[l] = u0 + k as i32;
                }
            }
            greatest = a;
        }
    }
    for (l, c) in corners.iter_mut().enumerate() {
        if first[l] <= last[l] {
            let (a, b) = (first[l], last[l] + 1);
            c.extend_from_slice(&[[a, v], [b, v], [a, v + 1], [b, v + 1]]);
        }
    }
}

/// `hull` when it has at most [`MAX_VERTICES`] vertices, else nothing.
fn kept(hull: Vec<[i32; 2]>) -> Vec<[i32; 2]> {
    match hull.len() <= MAX_VERTICES {
        true => hull,
        false => Vec::new(),
    }
}

/// `(a - o) x (b - o)`, exactly (texel corners are below 2^15).
fn cross(o: [i32; 2], a: [i32; 2], b: [i32; 2]) -> i64 {
    let d = |p: [i32; 2], q: [i32; 2]| {
        [
            i64::from(p[0]) - i64::from(q[0]),
            i64::from(p[1]) - i64::from(q[1]),
        ]
    };
    let (a, b) = (d(a, o), d(b, o));
    a[0] * b[1] - a[1] * b[0]
}

/// The convex hull of `points` (Andrew's monotone chain, in integers), counter-clockwise
/// with no repeated or collinear vertices.
pub(crate) fn convex_hull(points: &mut [[i32; 2]]) -> Vec<[i32; 2]> {
    points.sort_unstable();
    let mut hull: Vec<[i32; 2]> = Vec::with_capacity(points.len() + 1);
    for pass in 0..2 {
        let floor = hull.len();
        let mut take = |p: [i32; 2]| {
            while hull.len() >= floor + 2 && cross(hull[hull.len() - 2], hull[hull.len() - 1], p) <= 0 {
                hull.pop();
            }
            hull.push(p);
        };
        match pass {
            0 => points.iter().for_each(|&p| take(p)),
            _ => points.iter().rev().for_each(|&p| take(p)),
        }
        // Each chain's last point is the next chain's first.
        hull.pop();
    }
    hull.dedup();
    hull
}

#[cfg(test)]
mod tests {
    use super::{LEVELS, SolidHull, cross};

    fn inside(hull: &[[i32; 2]], p: [i32; 2]) -> bool {
        (0..hull.len()).all(|i| cross(hull[i], hull[(i + 1) % hull.len()], p) >= 0)
    }

    /// Every solid texel's square is inside the outline of every level at or below its
    /// alpha (grown: every corner of its block's reach), and each outline's vertices are
    /// corners of solid texels' squares (it is no larger than needed), on random art.
    #[test]
    fn outlines_hold_every_solid_texel_and_no_more() {
        let mut rng = super::super::test_rng::Rng(0x51d0_0c7a_11e5);
        for case in 0..300 {
            let (w, h) = (rng.below(30) as u32 + 1, rng.below(30) as u32 + 1);
            let style = case % 3;
            let alpha: Vec<u8> = (0..w * h)
                .map(|_| match style {
                    0 => rng.below(256) as u8,
                    1 => [0, 0, 0, 255][rng.below(4) as usize],
                    _ => [0, 90, 127, 128, 200, 255][rng.below(6) as usize],
                })
                .collect();
            let mut outline = SolidHull::new(w, &alpha);
            if case % 5 == 0 {
                // An edit that grows it: the outline of the new alpha must still hold.
                let mut edited = alpha.clone();
                let (u0, v0) = (rng.below(i64::from(w)) as u32, rng.below(i64::from(h)) as u32);
                let (u1, v1) = (u0 + 1 + rng.below(i64::from(w - u0)) as u32, v0 + 1);
                for u in u0..u1 {
                    edited[(v0 * w + u) as usize] = 255;
                }
                outline.grow(w, &edited, [u0, v0, u1, v1]);
                check(&outline, w, &edited, false);
            } else {
                check(&outline, w, &alpha, true);
            }
        }
    }

    fn check(outline: &SolidHull, w: u32, alpha: &[u8], tight: bool) {
        for t in [1u8, 2, 16, 100, 127, 128, 129, 200, 254, 255] {
            for reach in [false, true] {
                let hull = outline.hull(t, reach);
                let level = *LEVELS.iter().rev().find(|&&l| l <= t).unwrap();
                let solid: Vec<[i32; 2]> = (0..alpha.len())
                    .filter(|&k| alpha[k] >= level)
                    .map(|k| [(k as u32 % w) as i32, (k as u32 / w) as i32])
                    .collect();
                assert_eq!(hull.is_empty(), solid.is_empty(), "t {t}");
                let grow = i32::from(reach);
                for &[u, v] in &solid {
                    for p in [
                        [u - grow, v - grow],
                        [u + 1, v - grow],
                        [u - grow, v + 1],
                        [u + 1, v + 1],
                    ] {
                        assert!(inside(hull, p), "t {t} reach {reach}: {p:?} outside {hull:?}");
                    }
                }
                if tight && !reach {
                    for p in hull {
                        let corner = solid
                            .iter()
                            .any(|&[u, v]| (p[0] == u || p[0] == u + 1) && (p[1] == v || p[1] == v + 1));
                        assert!(corner, "t {t}: vertex {p:?} is no solid texel's corner");
                    }
                }
            }
        }
    }
}
