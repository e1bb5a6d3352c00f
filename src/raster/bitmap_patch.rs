//! An edit of a bitmap's texels carried into what the cache keeps of that bitmap, at a cost
//! that follows the edited rectangle, not the bitmap (issue 32, a 2048 x 1024 terrain).
//!
//! The edited bitmap has a new content id, so nothing is read under the old one again. What
//! was kept under the old id moves to the new one: each texel table has the rectangle's
//! texels and those rows' runs made again in place; each pose keeps its mapping with the
//! patched table; each whole raster computes again only the pixels whose centres can read
//! an edited texel, and the words of its masks over them. An item's value at a pixel
//! depends only on the item and that pixel (semantics.md 4.5), so a patched raster holds
//! the same bytes as one drawn whole from the new pixels.
//!
//! A table or raster that something outside the cache still holds (a memo of an earlier
//! tree revision) is not changed under it: the table is made whole again, the raster
//! dropped. Both are counted ([`EditWork`]).

use std::sync::Arc;

use super::cache::{PoseEntry, RasterCache, RasterKey, TakenBitmap, TexelKey, rendered_op};
use super::edges::Edges;
use super::item::Shape;
use super::sample::{TEXEL_BITS, TexelMap, Texels};
use crate::geom::rect::PixelRect;
use crate::{Bitmap, ColorTransform};

/// What carrying one edit into the cache took.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub(crate) struct EditWork {
    /// Texels made again by patching a table in place.
    pub texels: u64,
    /// Tables made whole again (another holder shared them), and their texels.
    pub whole_tables: u64,
    pub whole_texels: u64,
    /// Pixels of kept rasters computed again.
    pub pixels: u64,
    /// Rasters dropped (another holder shared them).
    pub dropped: u64,
}

/// A bitmap pose's parts, its texels let go.
struct Parts {
    ct: (u64, u64),
    map: TexelMap,
    smoothing: bool,
    quad: Edges,
}

fn parts(key: &RasterKey, shape: &Shape) -> Option<(Parts, Arc<Texels>)> {
    match shape {
        Shape::Bitmap {
            texels,
            map,
            smoothing,
            quad,
        } => Some((
            Parts {
                ct: (key.extra[0], key.extra[1]),
                map: *map,
                smoothing: *smoothing,
                quad: quad.clone(),
            },
            texels.clone(),
        )),
        // A pose drawn by another renderer reads the source through its own plan: it is
        // dropped and made again when asked for.
        Shape::Fill { .. } | Shape::Rendered(_) => None,
    }
}

/// The colour transform a table was made for, from its key's bits (only alpha is read);
/// a pygame renderer's source table ([`rendered_op`]) is untransformed.
fn alpha_transform(key @ (multiplier, offset): (u64, u64)) -> ColorTransform {
    if rendered_op(key).is_some() {
        return ColorTransform::IDENTITY;
    }
    ColorTransform {
        alpha_multiplier: f64::from_bits(multiplier),
        alpha_offset: f64::from_bits(offset),
        ..ColorTransform::IDENTITY
    }
}

/// A table made whole again for the key's colour transform (with a renderer's tables when
/// the key names one).
fn whole_table(bitmap: &Bitmap, key: (u64, u64)) -> Texels {
    let t = Texels::new(bitmap, &alpha_transform(key));
    match rendered_op(key) {
        Some(op) => t.for_renderer(op),
        None => t,
    }
}

impl RasterCache {
    /// Moves what the cache keeps of the bitmap whose content id was `old` to `bitmap`, the
    /// same bitmap with the texels of `rect` (`[x0, y0, x1, y1]`) changed.
    pub fn bitmap_edited(&self, old: u64, bitmap: &Bitmap, rect: [u32; 4]) -> EditWork {
        let TakenBitmap {
            texels,
            poses,
            rasters,
        } = self.take_bitmap(old);
        let mut work = EditWork::default();
        // One table per colour transform; every shape lets its texels go, so that each
        // table is held here alone and can be patched in place.
        let mut tables: Vec<((u64, u64), Arc<Texels>)> = Vec::new();
        let mut add_table = |ct: (u64, u64), t: Arc<Texels>| {
            if !tables.iter().any(|(c, _)| *c == ct) {
                tables.push((ct, t));
            }
        };
        for ((_, m, o), t) in texels {
            add_table((m, o), t);
        }
        let mut kept_poses = Vec::with_capacity(poses.len());
        for (key, (shape, epoch)) in poses {
            if let Some((p, t)) = parts(&key, &shape) {
                add_table(p.ct, t);
                kept_poses.push((key, p, epoch));
            }
        }
        let mut kept_rasters = Vec::with_capacity(rasters.len());
        for (key, mut raster) in rasters {
            let Some(r) = Arc::get_mut(&mut raster) else {
                work.dropped += 1;
                continue;
            };
            let Some((p, t)) = parts(&key, &r.shape) else {
                continue;
            };
            add_table(p.ct, t);
            r.shape = Arc::new(Shape::Fill {
                edges: Edges::default(),
                rule: crate::FillRule::NonZero,
                alpha: 0,
            });
            kept_rasters.push((key, p, raster));
        }
        for (ct, table) in &mut tables {
            match Arc::get_mut(table) {
                Some(t) => work.texels += t.patch_rect(bitmap, &alpha_transform(*ct), rect),
                None => {
                    *table = Arc::new(whole_table(bitmap, *ct));
                    work.whole_tables += 1;
                    work.whole_texels += u64::from(bitmap.width()) * u64::from(bitmap.height());
                }
            }
        }
        let new = bitmap.id();
        let table = |ct: (u64, u64)| tables.iter().find(|(c, _)| *c == ct).map(|(_, t)| t.clone());
        let shape = |p: Parts| {
            table(p.ct).map(|texels| {
                Arc::new(Shape::Bitmap {
                    texels,
                    map: p.map,
                    smoothing: p.smoothing,
                    quad: p.quad,
                })
            })
        };
        for (key, p, mut raster) in kept_rasters {
            let size = (bitmap.width(), bitmap.height());
            let (map, smoothing) = (p.map, p.smoothing);
            let (Some(s), Some(r)) = (shape(p), Arc::get_mut(&mut raster)) else {
                continue;
            };
            let region = touched(&map, smoothing, size, rect, r.rect);
            work.pixels += r.patch(region, s, key.anti_alias);
            self.put_raster(RasterKey { source: new, ..key }, raster);
        }
        for (key, p, epoch) in kept_poses {
            if let Some(s) = shape(p) {
                let entry: PoseEntry = (s, epoch);
                self.put_pose(RasterKey { source: new, ..key }, entry);
            }
        }
        for ((m, o), t) in tables {
            let key: TexelKey = (new, m, o);
            self.put_texels(key, t);
        }
        work
    }
}

/// The pixels of `raster` (relative to the anchor) whose values can read a texel of `rect`
/// in a pose mapped by `map`: the centres that fall in a texel of it, or, with smoothing,
/// within half a texel of one; when the rectangle reaches the bitmap's border, clamped
/// centres beyond that border too. Found by mapping the box of those centres back to pixels
/// (in f64, then grown by 2 px, far more than its rounding).
fn touched(
    map: &TexelMap,
    smoothing: bool,
    (w, h): (u32, u32),
    rect: [u32; 4],
    raster: PixelRect,
) -> PixelRect {
    if raster.is_empty() {
        return raster;
    }
    let one = f64::from(1u32 << 16) * f64::from(1u32 << 16);
    debug_assert_eq!(one, (1u64 << TEXEL_BITS) as f64);
    let grow = if smoothing { 1.0 } else { 0.0 };
    let [x0, y0, x1, y1] = rect;
    let side = |v: u32, edge: u32, out: f64, g: f64| if v == edge { out } else { f64::from(v) + g };
    let (mut l, mut t) = (
        side(x0, 0, f64::NEG_INFINITY, -grow),
        side(y0, 0, f64::NEG_INFINITY, -grow),
    );
    let (mut r, mut b) = (side(x1, w, f64::INFINITY, grow), side(y1, h, f64::INFINITY, grow));
    // The box of the raster's centres in texels: the rest of the plane is read by none.
    let corners = [
        (raster.x0, raster.y0),
        (raster.x1 - 1, raster.y0),
        (raster.x0, raster.y1 - 1),
        (raster.x1 - 1, raster.y1 - 1),
    ]
    .map(|(i, j)| {
        let (u, v) = map.at(i, j);
        (u as f64 / one, v as f64 / one)
    });
    let (us, vs) = (corners.map(|c| c.0), corners.map(|c| c.1));
    let lo = |a: [f64; 4]| a.iter().copied().fold(f64::INFINITY, f64::min);
    let hi = |a: [f64; 4]| a.iter().copied().fold(f64::NEG_INFINITY, f64::max);
    l = l.max(lo(us) - 1.0);
    t = t.max(lo(vs) - 1.0);
    r = r.min(hi(us) + 1.0);
    b = b.min(hi(vs) + 1.0);
    if !(l < r && t < b) {
        return PixelRect::default();
    }
    // Pixel (i, j)'s centre is at origin + i col0 + j col1: invert that for the box's corners.
    let f = |v: (i64, i64)| (v.0 as f64 / one, v.1 as f64 / one);
    let (o, c0, c1) = (f(map.origin), f(map.col0), f(map.col1));
    let det = c0.0 * c1.1 - c1.0 * c0.1;
    if det == 0.0 || !det.is_finite() {
        return raster;
    }
    let (mut i0, mut j0, mut i1, mut j1) =
        (f64::INFINITY, f64::INFINITY, f64::NEG_INFINITY, f64::NEG_INFINITY);
    for (u, v) in [(l, t), (r, t), (l, b), (r, b)] {
        let (du, dv) = (u - o.0, v - o.1);
        let i = (du * c1.1 - dv * c1.0) / det;
        let j = (c0.0 * dv - c0.1 * du) / det;
        (i0, i1, j0, j1) = (i0.min(i), i1.max(i), j0.min(j), j1.max(j));
    }
    if !(i0.is_finite() && i1.is_finite() && j0.is_finite() && j1.is_finite()) {
        return raster;
    }
    let clamp = |v: f64| v.clamp(-(2f64.powi(62)), 2f64.powi(62)) as i64;
    PixelRect {
        x0: clamp(i0.floor()) - 2,
        y0: clamp(j0.floor()) - 2,
        x1: clamp(i1.ceil()) + 3,
        y1: clamp(j1.ceil()) + 3,
    }
    .intersect(&raster)
}
