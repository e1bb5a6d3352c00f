//! Painting into and erasing from a bitmap node's pixels (issue 32, editable bitmaps; the
//! arithmetic is in `geom::bitmap_paint`, docs/art.md "Editable bitmaps").
//!
//! An edit works out which texels its brush covers inside the bitmap and what each becomes
//! before anything changes, so a refused edit leaves the tree as it was. The node's bitmap
//! then changes in place, or on a copy when another handle shares its pixels (so no other
//! node showing the same `Bitmap` changes), and what the stage's cache kept of the old
//! pixels is carried over at the cost of the edited rectangle (`raster::bitmap_patch`). An
//! edit moves no node and changes no box, so the pick index stays; the pair answers kept
//! for the frame stay too, but for pairs with a target that holds the edited node.

use crate::geom::bitmap_paint::{Brush, erase_texel, paint_texel, times, weight};
use crate::geom::rect::PixelRect;
use crate::tree::node::Content;
use crate::{Bitmap, Error, NodeId, Result, Stage};

/// What an edit does to each texel it covers.
#[derive(Clone, Copy)]
enum Ink {
    /// Source-over of this straight RGBA colour (a bitmap brush: each channel of its texel
    /// times this one's, `/ 255`, rounded).
    Paint([u8; 4]),
    Erase,
}

/// The texels an edit covers, worked out before anything changes.
enum Cover<'a> {
    /// The covered texels of `rect`, 255 each (a path), or all of them within the disc.
    Mask { rect: PixelRect, mask: Vec<u8> },
    Disc {
        rect: PixelRect,
        centre: (f64, f64),
        r2: f64,
    },
    /// The brush bitmap's texels, its top-left texel at `at`.
    Stamp {
        rect: PixelRect,
        brush: &'a Bitmap,
        at: (i64, i64),
    },
}

impl Cover<'_> {
    fn rect(&self) -> PixelRect {
        match self {
            Cover::Mask { rect, .. } | Cover::Disc { rect, .. } | Cover::Stamp { rect, .. } => *rect,
        }
    }
}

// What the last edit on this thread carried into the cache, and whether it copied the
// pixels: what the tests of editable bitmaps count.
#[cfg(test)]
thread_local! {
    pub(crate) static LAST_EDIT: std::cell::Cell<(crate::raster::EditWork, bool)> =
        std::cell::Cell::new((crate::raster::EditWork::default(), false));
}

/// Editing a bitmap node's pixels.
impl Stage {
    /// Paints `color` (straight RGBA) over the texels `brush` covers, weighted by `alpha`
    /// in 0..=1: each covered texel becomes the source-over of the ink with strength
    /// `round(ink alpha x alpha)`, rounded once (docs/art.md, "Editable bitmaps"). A bitmap
    /// brush's ink at a texel is its own texel times `color`, channel by channel (white
    /// keeps it as it is).
    ///
    /// Only the node's pixels change: another node showing the same [`Bitmap`] keeps the
    /// old ones (the edited node's pixels are copied first, once, when shared). What the
    /// stage keeps between queries is made again for the edited rectangle only.
    ///
    /// # Errors
    ///
    /// [`Error::NotBitmap`] for a node that is not a bitmap node, [`Error::StaleNode`],
    /// [`Error::OutOfRange`] for `alpha` outside 0..=1 or a negative radius,
    /// [`Error::NonFinite`] for a brush with a non-finite number, [`Error::GeometryBudget`]
    /// or [`Error::WorkBudget`] for a path brush too large to fill. Nothing changes then.
    ///
    /// ```
    /// use pixelhit::{Bitmap, Brush, DVec2, Stage};
    /// let mut stage = Stage::new();
    /// let ground = Bitmap::from_rgba8(16, 8, vec![0; 16 * 8 * 4])?;
    /// let node = stage.add_bitmap(stage.root(), ground, false)?;
    /// let dot = Brush::Disc { centre: DVec2::new(4.0, 4.0), radius: 1.0 };
    /// stage.paint(node, &dot, [10, 200, 30, 255], 1.0)?;
    /// let (b, _) = stage.bitmap(node)?.unwrap();
    /// assert_eq!(b.pixel(3, 3), Some([10, 200, 30, 255])); // centre (3.5, 3.5) is inside
    /// assert_eq!(b.pixel(2, 3), Some([0, 0, 0, 0]));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn paint(&mut self, node: NodeId, brush: &Brush, color: [u8; 4], alpha: f64) -> Result<()> {
        self.edit_pixels(node, brush, Ink::Paint(color), alpha)
    }

    /// Erases the texels `brush` covers by `alpha` in 0..=1: each covered texel's alpha is
    /// scaled by `1 - round(ink alpha x alpha) / 255`, rounded (its colour stays). The ink
    /// alpha is 255 for a disc or a path, the brush texel's alpha for a bitmap brush. As
    /// [`Stage::paint`] for what changes and what is kept.
    ///
    /// # Errors
    ///
    /// As [`Stage::paint`].
    ///
    /// ```
    /// use pixelhit::{Bitmap, Brush, DVec2, Stage};
    /// let mut stage = Stage::new();
    /// let rock = Bitmap::from_rgba8(8, 8, vec![255; 8 * 8 * 4])?;
    /// let node = stage.add_bitmap(stage.root(), rock.clone(), false)?;
    /// stage.erase(node, &Brush::Disc { centre: DVec2::new(4.0, 4.0), radius: 2.0 }, 1.0)?;
    /// assert_eq!(stage.bitmap(node)?.unwrap().0.pixel(4, 4), Some([255, 255, 255, 0]));
    /// assert_eq!(rock.pixel(4, 4), Some([255; 4])); // the handle kept outside is not changed
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn erase(&mut self, node: NodeId, brush: &Brush, alpha: f64) -> Result<()> {
        self.edit_pixels(node, brush, Ink::Erase, alpha)
    }

    fn edit_pixels(&mut self, node: NodeId, brush: &Brush, ink: Ink, alpha: f64) -> Result<()> {
        let verb = match ink {
            Ink::Paint(_) => "paint",
            Ink::Erase => "erase",
        };
        let Content::Bitmap { bitmap, .. } = &self.node(node)?.content else {
            return Err(Error::NotBitmap {
                node: self.describe(node),
            });
        };
        let target = || format!("the brush of the {verb} on {}", self.describe(node));
        if !(0.0..=1.0).contains(&alpha) {
            return Err(Error::OutOfRange {
                what: format!("alpha of the {verb} on {}", self.describe(node)),
                value: alpha,
                range: "0..=1",
            });
        }
        let e = weight(alpha);
        let cover = cover(brush, bitmap.width(), bitmap.height(), &target)?;
        let rect = cover.rect();
        if e == 0 || rect.is_empty() {
            return Ok(());
        }
        let old = bitmap.id();
        let w = bitmap.width();
        // The node and its ancestors: the targets whose answers can read its pixels.
        let revision = self.revision();
        let mut holders = Vec::new();
        let mut at = Some(node);
        while let Some(n) = at {
            holders.push(n.index());
            at = self.node(n)?.parent;
        }
        holders.sort_unstable();
        let texels = [rect.x0, rect.y0, rect.x1, rect.y1].map(|v| v as u32);
        let Content::Bitmap { bitmap, .. } = &mut self.pixels_mut(node)?.content else {
            return Ok(());
        };
        let copied = bitmap.edit_texels(texels, matches!(ink, Ink::Paint(_)), |rgba| {
            apply(&cover, ink, e, w as usize, rgba)
        });
        let edited = bitmap.clone();
        // Pairs kept for asking again hold this bitmap's rasters when a target holds it;
        // they no longer hold (the node is stamped), and the rasters are patched in place
        // below only when the cache alone holds them.
        self.cache
            .forget_setups(|index| holders.binary_search(&index).is_ok());
        let work = match copied {
            // The old pixels are another holder's now, and what is kept of them stays theirs.
            true => crate::raster::EditWork::default(),
            false => self.cache.bitmap_edited(old, &edited, texels),
        };
        self.cache.carry_pairs(revision, self.revision(), |index| {
            holders.binary_search(&index).is_ok()
        });
        // What it took is for the tests to count; the edit itself needs nothing of it.
        #[cfg(test)]
        LAST_EDIT.with(|c| c.set((work, copied)));
        let _ = work;
        Ok(())
    }
}

/// The texels of a `w` x `h` bitmap that `brush` covers.
fn cover<'a>(brush: &'a Brush, w: u32, h: u32, target: &dyn Fn() -> String) -> Result<Cover<'a>> {
    let all = PixelRect {
        x0: 0,
        y0: 0,
        x1: i64::from(w),
        y1: i64::from(h),
    };
    Ok(match brush {
        Brush::Disc { centre, radius } => {
            if !(centre.is_finite() && radius.is_finite()) {
                return Err(Error::NonFinite {
                    what: format!("the disc of {}", target()),
                });
            }
            if *radius < 0.0 {
                return Err(Error::OutOfRange {
                    what: format!("the radius of {}", target()),
                    value: *radius,
                    range: "0..",
                });
            }
            // One texel more all round than the centres within the radius: the test
            // below decides, so rounding here cannot leave a covered texel out.
            let lim = f64::from(w.max(h)) + 2.0;
            let at = |v: f64| v.clamp(-lim, lim) as i64;
            let rect = PixelRect {
                x0: at((centre.x - radius - 0.5).floor()) - 1,
                y0: at((centre.y - radius - 0.5).floor()) - 1,
                x1: at((centre.x + radius - 0.5).floor()) + 2,
                y1: at((centre.y + radius - 0.5).floor()) + 2,
            }
            .intersect(&all);
            let r2 = radius * radius;
            Cover::Disc {
                rect: tighten_disc(rect, (centre.x, centre.y), r2),
                centre: (centre.x, centre.y),
                r2,
            }
        }
        Brush::Path { path, rule } => {
            let (rect, mask) = crate::raster::path_texels(path, *rule, all, target)?;
            Cover::Mask { rect, mask }
        }
        Brush::Bitmap { bitmap, x, y } => {
            let (x, y) = (*x, *y);
            let rect = PixelRect {
                x0: x,
                y0: y,
                x1: x.saturating_add(i64::from(bitmap.width())),
                y1: y.saturating_add(i64::from(bitmap.height())),
            }
            .intersect(&all);
            Cover::Stamp {
                rect,
                brush: bitmap,
                at: (x, y),
            }
        }
    })
}

fn in_disc(i: i64, j: i64, (cx, cy): (f64, f64), r2: f64) -> bool {
    let (dx, dy) = (i as f64 + 0.5 - cx, j as f64 + 0.5 - cy);
    dx * dx + dy * dy <= r2
}

/// The rows and columns of `rect` that hold a covered texel (empty when none does): the
/// rectangle an edit reports, so that the cache makes again no more than it must.
fn tighten_disc(rect: PixelRect, c: (f64, f64), r2: f64) -> PixelRect {
    let mut out = PixelRect {
        x0: i64::MAX,
        y0: i64::MAX,
        x1: i64::MIN,
        y1: i64::MIN,
    };
    // Each row's covered texels are one interval around the centre's column: its ends
    // are found from the outside in, so the cost is the rows times the slack columns.
    for j in rect.y0..rect.y1 {
        let Some(first) = (rect.x0..rect.x1).find(|&i| in_disc(i, j, c, r2)) else {
            continue;
        };
        let last = (first..rect.x1)
            .rev()
            .find(|&i| in_disc(i, j, c, r2))
            .unwrap_or(first);
        out.x0 = out.x0.min(first);
        out.x1 = out.x1.max(last + 1);
        out.y0 = out.y0.min(j);
        out.y1 = j + 1;
    }
    if out.is_empty() {
        return PixelRect::default();
    }
    out
}

/// Applies the edit to the RGBA buffer of a bitmap `w` texels wide.
fn apply(cover: &Cover<'_>, ink: Ink, e: u8, w: usize, rgba: &mut [u8]) {
    let rect = cover.rect();
    let texel = |rgba: &mut [u8], i: i64, j: i64, [r, g, b, a]: [u8; 4]| {
        let k = 4 * (j as usize * w + i as usize);
        let dst = &mut rgba[k..k + 4];
        match ink {
            Ink::Paint(_) => paint_texel(dst, [r, g, b], times(a, e)),
            Ink::Erase => erase_texel(dst, times(a, e)),
        }
    };
    let plain = match ink {
        Ink::Paint(c) => c,
        Ink::Erase => [0, 0, 0, 255],
    };
    for j in rect.y0..rect.y1 {
        for i in rect.x0..rect.x1 {
            match cover {
                Cover::Disc { centre, r2, .. } => {
                    if in_disc(i, j, *centre, *r2) {
                        texel(rgba, i, j, plain);
                    }
                }
                Cover::Mask { mask, .. } => {
                    let k = (j - rect.y0) as usize * rect.width() as usize + (i - rect.x0) as usize;
                    if mask[k] != 0 {
                        texel(rgba, i, j, plain);
                    }
                }
                Cover::Stamp { brush, at, .. } => {
                    let Some(p) = brush.pixel((i - at.0) as u32, (j - at.1) as u32) else {
                        continue;
                    };
                    let ink = match ink {
                        Ink::Paint(c) => [0, 1, 2, 3].map(|n| times(p[n], c[n])),
                        Ink::Erase => [0, 0, 0, p[3]],
                    };
                    texel(rgba, i, j, ink);
                }
            }
        }
    }
}
