//! The radial perimeter test: each object reduced to the distance of its farthest solid
//! pixel in N directions from a centre inside it, and two objects tested by comparing the
//! distance between their centres with the sum of their radii facing each other.
//!
//! The profile is measured once, in the object's own local space (so that it survives any
//! later move, rotation or scale), on the same raster the exact method draws; the test then
//! costs a few directions, whatever the objects' size.

use std::f64::consts::TAU;

use glam::{DAffine2, DMat2, DVec2};

use crate::geom::interop::IntoAffine;
use crate::geom::rect::PixelRect;
use crate::query::pipeline::{Pose, Target, dense_budget, threshold};
use crate::{CollisionOptions, Error, NodeId, Result, Stage};

/// Options of [`Method::Radial`](crate::Method::Radial), fixed when a profile is built.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub struct RadialOptions {
    /// The correction for neighbouring directions: besides the direction facing the other
    /// object, every profile direction within this many degrees of it (in the parent's
    /// space) reaches towards the other object by its radius times the cosine of its
    /// angular offset. 0 turns the correction off; values above 89 are taken as 89.
    /// Default 30.
    pub spread_degrees: u8,
    /// Interpolate the facing radius linearly between the two profile directions around
    /// the facing direction, instead of taking the nearest one. Default true.
    pub interpolate: bool,
}

impl Default for RadialOptions {
    fn default() -> Self {
        RadialOptions {
            spread_degrees: 30,
            interpolate: true,
        }
    }
}

/// An object's radial profile: a centre inside it and, in each of N evenly spaced
/// directions of its local space, the distance from the centre to the far side of its
/// farthest solid pixel in that direction. Built by [`Stage::radial_profile`].
///
/// N comes from the object's outer circumference, `ceil(2 pi r_max)` in local units (about
/// one direction per pixel of the rim), at least 8 and at most 65536. The centre is the
/// centroid of the solid pixels, or the solid pixel nearest to it when the centroid is not
/// solid (a ring, a C). Small objects are measured on a finer raster (up to 8 samples per
/// local unit, for objects under 128 units) so that their profile is not a handful of
/// pixels.
///
/// # Where it fails
///
/// The test is approximate both ways; the methods table of docs/methods.md gives its measured rates.
///
/// - **Concave shapes.** A radius says where the object ends in a direction, not that
///   everything nearer the centre is solid: a notch, a hole or a C's mouth on the line
///   between the centres still counts as solid (false hits). The minimum-radius early-out
///   assumes a solid disc around the centre, which a ring does not have.
/// - **Contact away from the line between the centres.** Two long objects side by side
///   touch far from that line: a miss, unless the touching part lies within the spread of
///   the neighbour correction. The correction itself projects neighbouring radii onto the
///   line between the centres, which can overlap where the objects do not (false hits).
/// - **Non-uniform scale and skew.** A radius is mapped exactly along its own direction,
///   but the profile's evenly spaced directions are spread unevenly by the matrix: in the
///   stretched directions they are far apart, so interpolating between them and the
///   neighbour window are coarse there. The early-outs use the matrix's largest and
///   smallest stretch, so they stay safe but decide less often.
/// - **Pixels, not geometry.** The exact method counts a pixel both objects cover in part;
///   the radial test measures how far the pixels reach. Objects less than about a pixel
///   apart may go either way.
/// - **Colour transforms and hidden children** count when the profile is built, not when
///   it is tested: rebuild the profile when they change.
#[derive(Clone, Debug, PartialEq)]
pub struct RadialProfile {
    centre: DVec2,
    radii: Vec<f32>,
    r_min: f64,
    r_max: f64,
    options: RadialOptions,
}

/// The raster a profile is measured on has at least this many pixels along the object's
/// longer side (unless that needs more than `MAX_UPSCALE` samples per unit).
const PROFILE_SIDE: f64 = 128.0;
const MAX_UPSCALE: f64 = 8.0;
const MAX_DIRECTIONS: usize = 1 << 16;

/// The largest and smallest stretch of a linear map (its singular values).
fn stretches(m: &DMat2) -> (f64, f64) {
    let (c1, c2) = (m.x_axis, m.y_axis);
    let (a, b, c) = (c1.dot(c1), c1.dot(c2), c2.dot(c2));
    let mid = (a + c) * 0.5;
    let dev = (((a - c) * 0.5).powi(2) + b * b).sqrt();
    ((mid - dev).max(0.0).sqrt(), (mid + dev).sqrt())
}

/// `a - b` as an angle in (-pi, pi].
fn angle_diff(a: f64, b: f64) -> f64 {
    let d = (a - b).rem_euclid(TAU);
    if d > std::f64::consts::PI { d - TAU } else { d }
}

impl RadialProfile {
    /// The centre, in the object's local space.
    pub fn centre(&self) -> DVec2 {
        self.centre
    }

    /// The radius in each direction, in local units; direction `i` is the angle
    /// `2 pi i / N` from the local x axis towards the local y axis.
    pub fn radii(&self) -> &[f32] {
        &self.radii
    }

    /// The smallest radius, in local units.
    pub fn min_radius(&self) -> f64 {
        self.r_min
    }

    /// The largest radius, in local units.
    pub fn max_radius(&self) -> f64 {
        self.r_max
    }

    /// The options the profile was built with.
    pub fn options(&self) -> RadialOptions {
        self.options
    }

    /// Bytes of memory the profile holds.
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<RadialProfile>() + self.radii.len() * std::mem::size_of::<f32>()
    }

    /// Whether the object of this profile, placed by `m_self` (its local space to the
    /// common parent's, e.g. [`Stage::matrix_to`]), collides with the object of `other`
    /// placed by `m_other`, by the radial test. A singular matrix collides with nothing.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, RadialOptions, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let ball = stage.add_container(root)?;
    /// stage.add_graphic(ball, Graphic::fill(Path::circle(0.0, 0.0, 10.0), FillRule::NonZero, 1.0)?)?;
    /// let opts = CollisionOptions::default();
    /// let p = stage.radial_profile(ball, root, &opts, RadialOptions::default())?.unwrap();
    /// let at = |x: f64| pixelhit::DAffine2::from_translation(pixelhit::DVec2::new(x, 0.0));
    /// assert!(p.collides(&at(0.0), &p, &at(19.0)));
    /// assert!(!p.collides(&at(0.0), &p, &at(22.0)));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn collides(&self, m_self: impl IntoAffine, other: &RadialProfile, m_other: impl IntoAffine) -> bool {
        self.test(&m_self.into_affine(), other, &m_other.into_affine()).0
    }

    /// The test, with the number of directions looked at.
    pub(crate) fn test(&self, ma: &DAffine2, other: &RadialProfile, mb: &DAffine2) -> (bool, u64) {
        let (da, db) = (ma.matrix2.determinant(), mb.matrix2.determinant());
        if !(da != 0.0 && da.is_finite() && db != 0.0 && db.is_finite()) {
            return (false, 0);
        }
        let ca = ma.transform_point2(self.centre);
        let cb = mb.transform_point2(other.centre);
        let delta = cb - ca;
        let d = delta.length();
        if !d.is_finite() {
            return (false, 0);
        }
        let (a_min, a_max) = stretches(&ma.matrix2);
        let (b_min, b_max) = stretches(&mb.matrix2);
        if d > self.r_max * a_max + other.r_max * b_max {
            return (false, 0);
        }
        if d <= self.r_min * a_min + other.r_min * b_min {
            return (true, 0);
        }
        let u = delta / d;
        let (ra, va) = self.reach(&ma.matrix2, u);
        let (rb, vb) = other.reach(&mb.matrix2, -u);
        (ra + rb >= d, va + vb)
    }

    /// How far the object reaches from its centre along the parent-space direction `u`
    /// (a unit vector), with `m` its linear map to the parent; and how many directions that
    /// looked at.
    fn reach(&self, m: &DMat2, u: DVec2) -> (f64, u64) {
        let n = self.radii.len();
        let step = TAU / n as f64;
        let inv = m.inverse();
        let radius = |j: i64| f64::from(self.radii[j.rem_euclid(n as i64) as usize]);
        let w = inv * u;
        let phi = w.y.atan2(w.x);
        let f = phi / step;
        let facing = if self.options.interpolate {
            let j = f.floor();
            let t = f - j;
            radius(j as i64) * (1.0 - t) + radius(j as i64 + 1) * t
        } else {
            radius(f.round() as i64)
        };
        // w maps onto u, so a local radius r along w reaches r / |w| along u.
        let mut best = facing / w.length();
        let mut visited = 1u64;
        let spread = f64::from(self.options.spread_degrees.min(89)).to_radians();
        if spread > 0.0 {
            // The local directions whose images lie within the spread of u: the images of
            // the two rotated directions bound them (a linear map keeps the order of
            // directions within a half-turn, reversing it when it mirrors).
            let (s, c) = spread.sin_cos();
            let ends = [
                DVec2::new(c * u.x - s * u.y, s * u.x + c * u.y),
                DVec2::new(c * u.x + s * u.y, -s * u.x + c * u.y),
            ]
            .map(|e| {
                let l = inv * e;
                phi + angle_diff(l.y.atan2(l.x), phi)
            });
            let (lo, hi) = (ends[0].min(ends[1]), ends[0].max(ends[1]));
            let (j0, j1) = ((lo / step).ceil() as i64, (hi / step).floor() as i64);
            // The directions' images projected on u, turned one step at a time (a rotation
            // per step instead of a sine and cosine: large profiles have thousands).
            let (sin0, cos0) = (j0 as f64 * step).sin_cos();
            let (sin_s, cos_s) = step.sin_cos();
            let (mut x, mut y) = (*m * DVec2::new(cos0, sin0), *m * DVec2::new(-sin0, cos0));
            for j in j0..=j1 {
                best = best.max(radius(j) * x.dot(u));
                (x, y) = (x * cos_s + y * sin_s, y * cos_s - x * sin_s);
                visited += 1;
            }
        }
        (best, visited)
    }
}

/// Builds the profile of `obj` (the caller has checked that `parent` is above it).
pub(crate) fn build(
    stage: &Stage,
    obj: NodeId,
    parent: NodeId,
    opts: &CollisionOptions,
    options: RadialOptions,
) -> Result<Option<RadialProfile>> {
    // A profile is made of pixels whatever the query asks for.
    let opts = &opts.precise(true);
    let Some(local) = stage.bounds(obj, obj)? else {
        return Ok(None);
    };
    let side = local.width().max(local.height());
    let k = if side > 0.0 {
        (PROFILE_SIDE / side).clamp(1.0, MAX_UPSCALE)
    } else {
        1.0
    };
    let Some(raster) = solid_raster(stage, obj, parent, opts, k)? else {
        return Ok(None);
    };
    let SolidRaster { window, solid } = &raster;
    let (w, h) = (window.width() as usize, window.height() as usize);
    let (x0, y0) = (window.x0 as f64, window.y0 as f64);
    let is_solid = |x: usize, y: usize| solid[y * w + x];
    // The solid pixel holding `p` (parent space), if any.
    let solid_at = |p: DVec2| {
        let (x, y) = ((p.x - x0).floor(), (p.y - y0).floor());
        (x >= 0.0 && y >= 0.0 && x < w as f64 && y < h as f64 && is_solid(x as usize, y as usize))
            .then(|| DVec2::new(x0 + x, y0 + y))
    };
    // Only the rim is kept (and the sums for the mean), so that memory follows the outline
    // rather than the area.
    let (mut sum, mut count) = (DVec2::ZERO, 0usize);
    let mut rim = Vec::new();
    for y in 0..h {
        for x in 0..w {
            if !is_solid(x, y) {
                continue;
            }
            let p = DVec2::new(x0 + x as f64, y0 + y as f64);
            sum += p;
            count += 1;
            // A ray leaves a pixel whose four neighbours are solid into one of them (or
            // through a corner they share), which reaches farther: only rim pixels can be
            // the farthest in a direction.
            let inner = x > 0
                && y > 0
                && x + 1 < w
                && y + 1 < h
                && is_solid(x - 1, y)
                && is_solid(x + 1, y)
                && is_solid(x, y - 1)
                && is_solid(x, y + 1);
            if !inner {
                rim.push(p);
            }
        }
    }
    if count == 0 {
        return Ok(None);
    }
    let mean = sum / count as f64 + DVec2::splat(0.5);
    let centre = if solid_at(mean).is_some() {
        mean
    } else {
        // The centre of the solid pixel nearest the mean (first in row order among equals).
        let mut nearest: Option<(f64, DVec2)> = None;
        for y in 0..h {
            for x in 0..w {
                if is_solid(x, y) {
                    let c = DVec2::new(x0 + x as f64 + 0.5, y0 + y as f64 + 0.5);
                    let d = (c - mean).length_squared();
                    if nearest.is_none_or(|(best, _)| d < best) {
                        nearest = Some((d, c));
                    }
                }
            }
        }
        nearest.map_or(mean, |(_, c)| c)
    };
    let far = rim
        .iter()
        .map(|p| {
            let d = (*p + DVec2::splat(0.5) - centre).abs() + DVec2::splat(0.5);
            d.length()
        })
        .fold(0.0f64, f64::max);
    let n = ((TAU * far / k).ceil() as usize).clamp(8, MAX_DIRECTIONS);
    // The pixel holding the centre covers every direction; it is kept even when inside.
    rim.extend(solid_at(centre));
    let radii = profile(&rim, centre, n);
    let r: Vec<f32> = radii.iter().map(|v| (v / k) as f32).collect();
    let r_min = r.iter().copied().fold(f32::INFINITY, f32::min);
    let r_max = r.iter().copied().fold(0.0f32, f32::max);
    Ok(Some(RadialProfile {
        centre: centre / k,
        radii: r,
        r_min: f64::from(r_min),
        r_max: f64::from(r_max),
        options,
    }))
}

/// Which pixels of an object are solid, over a window of the raster its profile is measured
/// on, row-major.
struct SolidRaster {
    window: PixelRect,
    solid: Vec<bool>,
}

/// `obj` drawn through the collision pipeline in its own space scaled by `k`, clipped by its
/// own mask and scroll window (not its ancestors': the profile is the object's own), with
/// its colour transforms as seen from `parent` and its own tolerance: exactly the exact
/// method's pixel rule.
fn solid_raster(
    stage: &Stage,
    obj: NodeId,
    parent: NodeId,
    opts: &CollisionOptions,
    k: f64,
) -> Result<Option<SolidRaster>> {
    let target = Target {
        node: obj,
        pose: Pose::Own {
            pre: DAffine2::from_scale(DVec2::splat(k)),
        },
    };
    let Some(bounds) = stage.target_box(&target, parent)? else {
        return Ok(None);
    };
    // The window is that of a pair query against a rectangle 2 pixels larger than the
    // object's box (how profiles were measured before the pipeline had single targets).
    if bounds.outset(2.0).is_none() {
        return Ok(None);
    }
    let name = || format!("the pixels of {} for its radial profile", stage.describe(obj));
    let window = stage.pixel_window(&bounds, name)?;
    stage.run_target(&target, parent, opts, |prepared| {
        let Some(extent) = prepared.extent() else {
            return Ok(None);
        };
        let window = window.intersect(&extent);
        if window.is_empty() {
            return Ok(None);
        }
        if window.area() > u128::from(opts.max_pixels) {
            return Err(Error::PixelBudget {
                pixels: window.area(),
                budget: opts.max_pixels,
            });
        }
        let t = threshold(stage.target_tolerance(obj, opts)?);
        // A plane of a byte and, at worst (every pixel on the rim), 16 bytes of rim a pixel;
        // one more byte for the plane of the rectangle the window was once compared with.
        dense_budget(window.area(), 18, opts)?;
        let [plane] = stage.draw_planes([&prepared], window, name)?;
        Ok(Some(SolidRaster {
            window,
            solid: plane.iter().map(|&v| v >= t).collect(),
        }))
    })
}

/// For each of `n` directions from `c`, the largest distance at which a ray leaves one of
/// the unit squares whose top-left corners are `solid`.
fn profile(solid: &[DVec2], c: DVec2, n: usize) -> Vec<f64> {
    let step = TAU / n as f64;
    let dirs: Vec<DVec2> = (0..n)
        .map(|i| {
            let a = i as f64 * step;
            DVec2::new(a.cos(), a.sin())
        })
        .collect();
    let mut radii = vec![0.0f64; n];
    for &p in solid {
        let q = p + DVec2::ONE;
        let (j0, j1) = if c.cmpge(p).all() && c.cmple(q).all() {
            (0, n as i64 - 1)
        } else {
            // The directions the square subtends, from its corners' angles around the
            // angle of its centre (the square does not hold c, so they span under a
            // half-turn).
            let mid = p + DVec2::splat(0.5) - c;
            let a0 = mid.y.atan2(mid.x);
            let (mut lo, mut hi) = (0.0f64, 0.0f64);
            for corner in [p, DVec2::new(q.x, p.y), q, DVec2::new(p.x, q.y)] {
                let v = corner - c;
                let d = angle_diff(v.y.atan2(v.x), a0);
                lo = lo.min(d);
                hi = hi.max(d);
            }
            (
                ((a0 + lo) / step).ceil() as i64,
                ((a0 + hi) / step).floor() as i64,
            )
        };
        for j in j0..=j1 {
            let i = j.rem_euclid(n as i64) as usize;
            if let Some(t) = exit_distance(c, dirs[i], p, q) {
                radii[i] = radii[i].max(t);
            }
        }
    }
    radii
}

/// Where the ray from `c` along `d` leaves the box `[p, q]`, if it meets it.
fn exit_distance(c: DVec2, d: DVec2, p: DVec2, q: DVec2) -> Option<f64> {
    let (mut near, mut far) = (0.0f64, f64::INFINITY);
    for (ci, di, lo, hi) in [(c.x, d.x, p.x, q.x), (c.y, d.y, p.y, q.y)] {
        if di.abs() < 1e-12 {
            if ci < lo || ci > hi {
                return None;
            }
            continue;
        }
        let (t0, t1) = ((lo - ci) / di, (hi - ci) / di);
        near = near.max(t0.min(t1));
        far = far.min(t0.max(t1));
    }
    // Rays grazing a corner by rounding still count: the square was found by its angles.
    (far >= near - 1e-9 && far >= 0.0).then_some(far)
}

#[cfg(test)]
mod tests {
    use super::*;

    use crate::query::pipeline::PairRequest;
    use crate::raster::RegionPiece;
    use crate::tree::walk::{Clip, Visit, Walk, each_clip};
    use crate::{Bitmap, ColorTransform, FillRule, Graphic, Path, geom::shape::Leaf};

    /// How profiles were measured before the pipeline had single targets: the object's
    /// leaves copied flat under a fresh stage, with its clips as masks, compared against a
    /// rectangle over them. The solid pixels, in the parent's grid, row by row.
    fn reference_solid(
        stage: &Stage,
        obj: NodeId,
        parent: NodeId,
        opts: &CollisionOptions,
        k: f64,
    ) -> Result<Option<Vec<(i64, i64)>>> {
        // The object's leaves copied flat under a fresh root, in paint order, with the matrix
        // scaled by k and the colour transforms relative to `parent`: drawn there, they give
        // the object's own raster with exactly the exact method's pixel rule.
        let mut tmp = Stage::new();
        let holder = tmp.add_container(tmp.root())?;
        // The object's own tolerance decides which of its pixels are solid, as in every method.
        tmp.set_tolerance(holder, stage.tolerance(obj)?)?;
        let base = DAffine2::from_scale(DVec2::splat(k));
        let base_color = stage.color_transform_to(obj, parent)?;
        // The object's own mask and scroll window clip it (those of its ancestors are not
        // looked at: the profile is the object's own, in its own space).
        let mut own = Vec::new();
        if let Some(rect) = stage.scroll_rect(obj)? {
            own.push(Clip::Window { rect, matrix: base });
        }
        if let Some(mask) = stage.mask(obj)? {
            own.push(Clip::Mask(mask));
        }
        let walk = Walk::Draw;
        stage.walk_leaves(obj, obj, base, base_color, walk, |_, visit, m, ct, clips| {
            let Visit::Leaf(leaf) = visit else { return Ok(()) };
            // A clipped leaf goes inside containers masked by copies of its clips' regions.
            let mut inside = holder;
            let all: Vec<Clip> = each_clip(clips).chain(&own).copied().collect();
            for clip in all.iter().rev() {
                let wrap = tmp.add_container(inside)?;
                let mask = tmp.add_container(tmp.root())?;
                match *clip {
                    Clip::Window { rect, matrix } => {
                        let path = Path::rect(rect.left(), rect.top(), rect.width(), rect.height());
                        tmp.add_graphic(mask, Graphic::fill(path, FillRule::NonZero, 1.0)?)?;
                        tmp.set_matrix(mask, matrix)?;
                    }
                    Clip::Mask(m) => stage.for_each_region_leaf(m, obj, base, |piece, pm| {
                        let n = tmp.add_container(mask)?;
                        let g = match piece {
                            RegionPiece::Fill(g) => g.clone(),
                            RegionPiece::Rect(r) => {
                                let path = Path::rect(r.left(), r.top(), r.width(), r.height());
                                Graphic::fill(path, FillRule::NonZero, 1.0)?
                            }
                        };
                        tmp.add_graphic(n, g)?;
                        tmp.set_matrix(n, *pm)
                    })?,
                }
                tmp.set_mask(wrap, Some(mask))?;
                inside = wrap;
            }
            let node = match leaf {
                Leaf::Graphic(g) => {
                    let n = tmp.add_container(inside)?;
                    tmp.add_graphic(n, g.clone())?;
                    n
                }
                Leaf::Bitmap(bitmap, smoothing, None) => tmp.add_bitmap(inside, bitmap.clone(), smoothing)?,
                // The profile is taken in the object's own space, placed by fractions: the
                // renderer's surface goes in built whole, as the unsmoothed bitmap it is.
                Leaf::Bitmap(bitmap, _, Some(rendered)) => {
                    match crate::raster::rendered_surface(bitmap, rendered) {
                        Some(surface) => tmp.add_bitmap(inside, surface, false)?,
                        None => tmp.add_container(inside)?,
                    }
                }
            };
            tmp.set_matrix(node, *m)?;
            tmp.set_color_transform(node, *ct)
        })?;
        let root = tmp.root();
        // The planes come in pairs; the second target is a plain rectangle over the first one's
        // box, which costs next to nothing to draw (drawing the object twice would not).
        let Some(bounds) = tmp.bounds(holder, root)?.and_then(|r| r.outset(2.0)) else {
            return Ok(None);
        };
        let cover = tmp.add_container(root)?;
        let rect = Path::rect(bounds.left(), bounds.top(), bounds.width(), bounds.height());
        tmp.add_graphic(cover, Graphic::fill(rect, FillRule::NonZero, 1.0)?)?;
        // Two planes of a byte and, at worst (every pixel on the rim), 16 bytes of rim a pixel.
        let planes = tmp.run_pair(&PairRequest::new(holder, cover, root, opts), |setup| {
            setup
                .pair()
                .map(|pair| pair.solid_planes(&tmp, opts, 18))
                .transpose()
        })?;
        let Some(planes) = planes else {
            return Ok(None);
        };
        let t = opts.threshold();
        let w = planes.window.width() as usize;
        Ok(Some(
            planes
                .a
                .iter()
                .enumerate()
                .filter(|(_, v)| **v >= t)
                .map(|(i, _)| {
                    (
                        planes.window.x0 + (i % w) as i64,
                        planes.window.y0 + (i / w) as i64,
                    )
                })
                .collect(),
        ))
    }

    /// A small random generator, so that the cases are the same on every run.
    struct Rng(u64);

    impl Rng {
        fn next(&mut self) -> u64 {
            self.0 = self
                .0
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            self.0 >> 33
        }
        fn unit(&mut self) -> f64 {
            self.next() as f64 / (1u64 << 31) as f64
        }
        fn range(&mut self, lo: f64, hi: f64) -> f64 {
            lo + (hi - lo) * self.unit()
        }
        fn chance(&mut self, p: f64) -> bool {
            self.unit() < p
        }
    }

    fn random_content(rng: &mut Rng, stage: &mut Stage, node: NodeId) -> Result<()> {
        match rng.next() % 5 {
            0 => {
                let (w, h) = (1 + rng.next() % 12, 1 + rng.next() % 12);
                let rgba = (0..w * h * 4).map(|_| (rng.next() % 256) as u8).collect();
                let bm = Bitmap::from_rgba8(w as u32, h as u32, rgba)?;
                stage.add_bitmap(node, bm, rng.chance(0.5))?;
            }
            1 => {
                let p = Path::circle(rng.range(-5.0, 5.0), rng.range(-5.0, 5.0), rng.range(0.5, 9.0));
                stage.add_graphic(
                    node,
                    Graphic::stroke(p, rng.range(0.3, 4.0), rng.range(0.2, 1.0))?,
                )?;
            }
            2 => {
                let pts: Vec<[f64; 2]> = (0..3 + rng.next() % 4)
                    .map(|_| [rng.range(-10.0, 10.0), rng.range(-10.0, 10.0)])
                    .collect();
                let rule = if rng.chance(0.5) {
                    FillRule::EvenOdd
                } else {
                    FillRule::NonZero
                };
                stage.add_graphic(
                    node,
                    Graphic::fill(Path::polygon(&pts), rule, rng.range(0.2, 1.0))?,
                )?;
            }
            _ => {
                let p = Path::rect(
                    rng.range(-8.0, 2.0),
                    rng.range(-8.0, 2.0),
                    rng.range(0.3, 12.0),
                    rng.range(0.3, 12.0),
                );
                stage.add_graphic(node, Graphic::fill(p, FillRule::NonZero, rng.range(0.2, 1.0))?)?;
            }
        }
        Ok(())
    }

    fn random_pose(rng: &mut Rng, stage: &mut Stage, node: NodeId) -> Result<()> {
        stage.set_transform(
            node,
            rng.range(-6.0, 6.0),
            rng.range(-6.0, 6.0),
            rng.range(-180.0, 180.0),
            rng.range(0.3, 2.5),
            rng.range(0.3, 2.5),
        )
    }

    #[test]
    fn profiles_are_measured_on_the_pixels_of_the_former_copied_stage() {
        let mut rng = Rng(20);
        let mut compared = 0;
        let mut clipped = 0;
        for case in 0..400 {
            let mut stage = Stage::new();
            let root = stage.root();
            let parent = stage.add_container(root).unwrap();
            random_pose(&mut rng, &mut stage, parent).unwrap();
            let obj = stage.add_container(parent).unwrap();
            random_pose(&mut rng, &mut stage, obj).unwrap();
            let mut nodes = vec![obj];
            for _ in 0..1 + rng.next() % 5 {
                let at = nodes[(rng.next() as usize) % nodes.len()];
                let n = stage.add_container(at).unwrap();
                random_pose(&mut rng, &mut stage, n).unwrap();
                random_content(&mut rng, &mut stage, n).unwrap();
                if rng.chance(0.2) {
                    stage.set_alpha(n, rng.range(0.1, 1.0)).unwrap();
                }
                if rng.chance(0.1) {
                    stage.set_visible(n, false).unwrap();
                }
                nodes.push(n);
            }
            if rng.chance(0.3) {
                random_content(&mut rng, &mut stage, obj).unwrap();
            }
            // Scroll windows (fractional edges) and masks, on the object and inside it.
            for &n in &nodes {
                if rng.chance(0.2) {
                    let r = [
                        rng.range(-9.0, 3.0),
                        rng.range(-9.0, 3.0),
                        rng.range(0.5, 14.0),
                        rng.range(0.5, 14.0),
                    ];
                    stage.set_scroll_rect(n, Some(r)).unwrap();
                }
                if rng.chance(0.2) {
                    let mask = stage
                        .add_container(if rng.chance(0.5) { root } else { parent })
                        .unwrap();
                    random_pose(&mut rng, &mut stage, mask).unwrap();
                    random_content(&mut rng, &mut stage, mask).unwrap();
                    if rng.chance(0.3) {
                        random_content(&mut rng, &mut stage, mask).unwrap();
                    }
                    stage.set_mask(n, Some(mask)).unwrap();
                }
            }
            if rng.chance(0.2) {
                let c = ColorTransform::new(
                    [1.0, 1.0, 1.0, rng.range(0.1, 2.0)],
                    [0.0, 0.0, 0.0, rng.range(-60.0, 60.0)],
                );
                stage.set_color_transform(parent, c).unwrap();
            }
            if rng.chance(0.3) {
                stage.set_tolerance(obj, Some((rng.next() % 256) as u8)).unwrap();
            }
            let opts = CollisionOptions::default()
                .tolerance((rng.next() % 256) as u8)
                .anti_alias(rng.chance(0.8));
            let k = [1.0, 2.0, 3.7, 8.0][(rng.next() % 4) as usize];
            let want = reference_solid(&stage, obj, parent, &opts, k).unwrap();
            let got = solid_raster(&stage, obj, parent, &opts, k).unwrap().map(|r| {
                let w = r.window.width() as usize;
                r.solid
                    .iter()
                    .enumerate()
                    .filter(|(_, s)| **s)
                    .map(|(i, _)| (r.window.x0 + (i % w) as i64, r.window.y0 + (i / w) as i64))
                    .collect::<Vec<_>>()
            });
            // An empty raster and no raster give the same (empty) profile.
            let norm = |v: Option<Vec<(i64, i64)>>| v.filter(|v| !v.is_empty());
            if stage.mask(obj).unwrap().is_some() || stage.scroll_rect(obj).unwrap().is_some() {
                clipped += 1;
            }
            compared += usize::from(norm(want.clone()).is_some());
            assert_eq!(norm(got), norm(want), "case {case}");
        }
        // The cases are not all empty, and the object's own clips are exercised.
        assert!(compared > 200 && clipped > 50, "{compared} {clipped}");
    }

    #[test]
    fn stretches_are_singular_values() {
        let (lo, hi) = stretches(&DMat2::from_cols_array(&[3.0, 0.0, 0.0, 0.5]));
        assert!((lo - 0.5).abs() < 1e-12 && (hi - 3.0).abs() < 1e-12);
        let r = DMat2::from_angle(0.7) * DMat2::from_diagonal(DVec2::new(2.0, 5.0));
        let (lo, hi) = stretches(&r);
        assert!((lo - 2.0).abs() < 1e-9 && (hi - 5.0).abs() < 1e-9);
    }

    #[test]
    fn a_square_profile_reaches_its_corners() {
        let solid: Vec<DVec2> = (0..10)
            .flat_map(|y| (0..10).map(move |x| DVec2::new(f64::from(x), f64::from(y))))
            .collect();
        let r = profile(&solid, DVec2::splat(5.0), 8);
        for (i, v) in r.iter().enumerate() {
            let want = if i % 2 == 0 { 5.0 } else { 50f64.sqrt() };
            assert!((v - want).abs() < 1e-9, "{i}: {v}");
        }
    }
}
