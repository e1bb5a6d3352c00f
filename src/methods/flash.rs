//! Flash's `getCollisionRect`, done literally with tiny-skia ([`Method::FlashPipeline`]).
//!
//! An opaque black RGBA window over the intersection of the two targets' bounds; target A
//! drawn into it red, target B white with the Difference blend, both through a colour
//! transform whose alpha offset is the tolerance; the overlap is where the window turned
//! cyan (red 0, green and blue 255), and the answer is the bounds of the cyan pixels.
//!
//! Each target is drawn alone into a transparent layer first and the layer is then blended
//! into the window, as `BitmapData.draw` blends its source as a whole: blending each fill of
//! B with Difference on its own would cancel B's overlapping parts against each other.
//!
//! [`Method::FlashPipeline`]: crate::Method::FlashPipeline

use glam::{DAffine2, DVec2};
use tiny_skia::{
    BlendMode, Color, FillRule as SkFillRule, FilterQuality, Mask, Paint, Pattern, Pixmap, PixmapPaint,
    PremultipliedColorU8, SpreadMode, Transform,
};

use crate::geom::color::round_channel;
use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::rect::PixelRect;
use crate::geom::shape::Leaf;
use crate::geom::tolerance;
use crate::methods::skia_clip::SkiaClips;
use crate::raster::{DrawBudget, rendered_surface};
use crate::tree::walk::{Visit, Walk};
use crate::{CollisionOptions, ColorTransform, Error, FillRule, Graphic, NodeId, Rect, Result, Stage};

/// Geometry is clipped this far outside the window in f64 before tiny-skia sees it in f32,
/// so that objects far larger than the window keep their edges inside it exact.
const CLIP_MARGIN: f64 = 2.0;

/// Which colour a target is drawn in.
#[derive(Clone, Copy, PartialEq, Eq)]
enum Ink {
    Red,
    White,
}

/// Runs the pipeline; returns the answer and the number of window pixels.
pub(crate) fn pipeline(
    stage: &Stage,
    a: NodeId,
    b: NodeId,
    parent: NodeId,
    opts: &CollisionOptions,
    compat: bool,
) -> Result<(Option<Rect>, u64)> {
    for t in [a, b] {
        if !stage.is_ancestor(parent, t)? {
            return Err(Error::NotDescendant {
                node: stage.describe(t),
                ancestor: stage.describe(parent),
            });
        }
    }
    if stage.skipped_as_hidden(a, b, opts)? {
        return Ok((None, 0));
    }
    let (Some(ba), Some(bb)) = (stage.bounds(a, parent)?, stage.bounds(b, parent)?) else {
        return Ok((None, 0));
    };
    let Some(r) = ba.intersect(&bb) else {
        return Ok((None, 0));
    };
    // pixelhit: the whole pixels of the parent's grid that the intersection touches. Flash:
    // the same corner, but ceil(width) x ceil(height) pixels, which is one short of the
    // intersection's right (bottom) edge when the fractions of its left edge and of its
    // width add up to more than a pixel.
    let p = PixelRect::covering(&r);
    let origin = DVec2::new(p.x0 as f64, p.y0 as f64);
    let (w, h) = if compat {
        (r.width().ceil(), r.height().ceil())
    } else {
        (p.width() as f64, p.height() as f64)
    };
    let budget_error = || Error::PixelBudget {
        pixels: (w * h) as u128,
        budget: opts.max_pixels,
    };
    // A black RGBA window, a layer and a mask: 9 bytes a pixel.
    crate::query::pipeline::dense_budget((w * h) as u128, 9, opts)?;
    let (Ok(wi), Ok(hi)) = (u32::try_from(w as u64), u32::try_from(h as u64)) else {
        return Err(budget_error());
    };
    let (Some(mut window), Some(mut layer), Some(mut mask)) =
        (Pixmap::new(wi, hi), Pixmap::new(wi, hi), Mask::new(wi, hi))
    else {
        return Err(budget_error());
    };
    window.fill(Color::BLACK);
    let pixels = u64::from(wi) * u64::from(hi);
    let mut painter = Painter {
        stage,
        parent,
        origin,
        clip: Rect::from_ltrb(-CLIP_MARGIN, -CLIP_MARGIN, w + CLIP_MARGIN, h + CLIP_MARGIN),
        tolerance: opts.tolerance,
        anti_alias: opts.anti_alias,
        compat,
        polys: Polylines::default(),
        clipped: Polylines::default(),
        vertices: DrawBudget::new(0),
    };
    for (target, ink, blend) in [
        (a, Ink::Red, BlendMode::SourceOver),
        (b, Ink::White, BlendMode::Difference),
    ] {
        // A target with a tolerance of its own is drawn with it (Stage::set_tolerance).
        let own = stage.target_tolerance(target, opts)?;
        painter.tolerance = own;
        layer.fill(Color::TRANSPARENT);
        painter.draw(target, ink, &mut layer)?;
        // A layer that is the ink at some alpha everywhere (always, unless a colour
        // transform inside a target changes its colour in compat mode) is blended as its
        // alpha plane: a solid fill of the ink through that mask is the same blend, and
        // tiny-skia does it several times faster than drawing the layer as an image.
        let tolerance = if compat { 0 } else { own };
        if ink_mask(&layer, ink, tolerance, &mut mask) {
            let mut paint = Paint {
                blend_mode: blend,
                anti_alias: false,
                ..Paint::default()
            };
            let [r, g, b] = if ink == Ink::Red { [255, 0, 0] } else { [255; 3] };
            paint.set_color_rgba8(r, g, b, 255);
            if let Some(all) = tiny_skia::Rect::from_xywh(0.0, 0.0, w as f32, h as f32) {
                window.fill_rect(all, &paint, Transform::identity(), Some(&mask));
            }
        } else {
            let paint = PixmapPaint {
                blend_mode: blend,
                quality: FilterQuality::Nearest,
                ..PixmapPaint::default()
            };
            window.draw_pixmap(0, 0, layer.as_ref(), &paint, Transform::identity(), None);
        }
    }
    let cyan =
        |p: &PremultipliedColorU8| p.red() == 0 && p.green() == 255 && p.blue() == 255 && p.alpha() == 255;
    let mut found: Option<(u32, u32, u32, u32)> = None;
    for (i, p) in window.pixels().iter().enumerate() {
        if cyan(p) {
            let (x, y) = (i as u32 % wi, i as u32 / wi);
            let f = found.get_or_insert((x, y, x + 1, y + 1));
            *f = (f.0.min(x), f.1.min(y), f.2.max(x + 1), f.3.max(y + 1));
        }
    }
    // Flash's getColorBoundsRect reports nothing for a lone match at (0, 0).
    if compat && found == Some((0, 0, 1, 1)) {
        found = None;
    }
    let rect = found.and_then(|(x0, y0, x1, y1)| {
        Rect::from_ltrb(
            origin.x + f64::from(x0),
            origin.y + f64::from(y0),
            origin.x + f64::from(x1),
            origin.y + f64::from(y1),
        )
    });
    Ok((rect, pixels))
}

/// The layer's alpha into `mask`, plus `tolerance` (clamped) where it is not 0, when every
/// pixel of the layer is the ink at its alpha; `false` (mask unspecified) otherwise.
///
/// Adding the tolerance to the drawn alpha, not to each fill's alpha before its edges are
/// anti-aliased, makes a pixel count when its alpha is at least `255 - tolerance`: that is
/// pixelhit's rule (Flash's, in compat mode, adds it before and passes 0 here).
fn ink_mask(layer: &Pixmap, ink: Ink, tolerance: u8, mask: &mut Mask) -> bool {
    for (m, px) in mask.data_mut().iter_mut().zip(layer.data().chunks_exact(4)) {
        let a = px[3];
        let c = if ink == Ink::White { a } else { 0 };
        if px != [a, c, c, a] {
            return false;
        }
        *m = if a == 0 { 0 } else { a.saturating_add(tolerance) };
    }
    true
}

/// Draws targets into layers in window coordinates.
struct Painter<'a> {
    stage: &'a Stage,
    parent: NodeId,
    origin: DVec2,
    clip: Option<Rect>,
    tolerance: u8,
    anti_alias: bool,
    compat: bool,
    polys: Polylines,
    /// Vertices of the geometry drawn so far, held to the query's budget as the exact
    /// method holds them.
    vertices: DrawBudget,
    clipped: Polylines,
}

impl Painter<'_> {
    /// The colour transform a target is drawn through, before its descendants' own.
    fn base_color(&self, target: NodeId, ink: Ink) -> Result<ColorTransform> {
        if self.compat {
            // BitmapData.draw(target, matrix, colorTransform): only the transform given and
            // those inside the target count, the target's own and its ancestors' do not.
            let rgb = if ink == Ink::Red {
                [255.0, -255.0, -255.0]
            } else {
                [255.0; 3]
            };
            Ok(ColorTransform::new(
                [1.0; 4],
                [rgb[0], rgb[1], rgb[2], f64::from(self.tolerance)],
            ))
        } else {
            self.stage.color_transform_to(target, self.parent)
        }
    }

    /// The straight RGBA a fill of alpha `alpha` (0..1) is drawn in, through `ct`.
    fn fill_color(&self, alpha: f64, ct: &ColorTransform, ink: Ink) -> [u8; 4] {
        let a = round_channel(ct.apply_alpha(alpha * 255.0));
        if self.compat {
            // pixelhit's fills have no colour: Flash would see black.
            let [r, g, b, _] = ct.apply_rgba([0, 0, 0, 255]);
            [r, g, b, a]
        } else if ink == Ink::Red {
            [255, 0, 0, a]
        } else {
            [255, 255, 255, a]
        }
    }

    fn draw(&mut self, target: NodeId, ink: Ink, layer: &mut Pixmap) -> Result<()> {
        let pre = DAffine2::from_translation(-self.origin);
        let base_color = self.base_color(target, ink)?;
        let stage = self.stage;
        let (w, h) = (layer.width(), layer.height());
        // Masks and scroll windows clip the recipe's drawing too (semantics.md 6).
        let mut skia = SkiaClips::new(w, h, self.parent, pre, self.anti_alias);
        let walk = Walk::Draw;
        stage.walk_leaves(
            target,
            self.parent,
            pre,
            base_color,
            walk,
            |_, visit, m, ct, clips| {
                let Visit::Leaf(leaf) = visit else { return Ok(()) };
                if m.matrix2.determinant() == 0.0 {
                    return Ok(());
                }
                let mask = skia.mask(stage, clips)?;
                match leaf {
                    Leaf::Graphic(g) => self.fill(g, m, ct, ink, layer, mask, || stage.describe(target))?,
                    Leaf::Bitmap(bitmap, smoothing, None) => {
                        self.bitmap(bitmap, smoothing, m, ct, ink, layer, mask)
                    }
                    // Flash's recipe draws the renderer's surface, built whole.
                    Leaf::Bitmap(bitmap, _, Some(rendered)) => {
                        if let Some(surface) = rendered_surface(bitmap, rendered) {
                            self.bitmap(&surface, false, m, ct, ink, layer, mask)
                        }
                    }
                }
                Ok(())
            },
        )
    }

    /// `self.polys` clipped to the window, as a tiny-skia path.
    fn clipped_path(&mut self) -> Option<tiny_skia::Path> {
        self.clipped.clear();
        if let Some(c) = self.clip {
            polygon::clip_to_rect(&self.polys, &c, &mut self.clipped);
        }
        self.clipped.to_skia_path(|p| p)
    }

    /// Draws a fill or stroke. Geometry over the vertex budgets is refused as the exact
    /// method refuses it ([`Error::GeometryBudget`]), never drawn as nothing.
    #[allow(clippy::too_many_arguments)]
    fn fill(
        &mut self,
        g: &Graphic,
        m: &DAffine2,
        ct: &ColorTransform,
        ink: Ink,
        layer: &mut Pixmap,
        mask: Option<&Mask>,
        name: impl Fn() -> String,
    ) -> Result<()> {
        let [r, gr, b, a] = self.fill_color(g.alpha(), ct, ink);
        if a == 0 {
            return Ok(());
        }
        self.polys.clear();
        let per_item = polygon::MAX_OUTLINE_VERTICES as usize;
        // A fill is capped by what the query's vertex budget has left; a stroke's outline is
        // checked against the budget before it is made.
        let cap = match g {
            Graphic::Fill(_) => self.vertices.vertices_left(per_item),
            Graphic::Stroke(s) => {
                polygon::check_outline(s.path(), s.width(), m, tolerance::FLASH_METHOD, &name)?;
                per_item
            }
        };
        let rule = match g.outline(m, tolerance::FLASH_METHOD, cap, &mut self.polys) {
            Ok(rule) => rule,
            Err(too_large) => {
                if matches!(g, Graphic::Fill(_)) && cap < per_item {
                    self.vertices.take_vertices(per_item, &name)?;
                }
                return Err(polygon::over_budget(too_large.what, name));
            }
        };
        self.vertices.take_vertices(self.polys.points.len(), &name)?;
        let Some(path) = self.clipped_path() else {
            return Ok(());
        };
        let mut paint = Paint {
            anti_alias: self.anti_alias,
            ..Paint::default()
        };
        paint.set_color_rgba8(r, gr, b, a);
        let rule = match rule {
            FillRule::NonZero => SkFillRule::Winding,
            FillRule::EvenOdd => SkFillRule::EvenOdd,
        };
        layer.fill_path(&path, &paint, rule, Transform::identity(), mask);
        Ok(())
    }

    #[allow(clippy::too_many_arguments)]
    fn bitmap(
        &mut self,
        bitmap: &crate::Bitmap,
        smoothing: bool,
        m: &DAffine2,
        ct: &ColorTransform,
        ink: Ink,
        layer: &mut Pixmap,
        mask: Option<&Mask>,
    ) {
        let Some(mut texels) = Pixmap::new(bitmap.width(), bitmap.height()) else {
            return;
        };
        for (dst, src) in texels
            .data_mut()
            .chunks_exact_mut(4)
            .zip(bitmap.rgba().chunks_exact(4))
        {
            let [r, g, b, a] = if self.compat {
                // Flash applies the colour transform to every texel (alpha 0 stays as it is).
                ct.apply_rgba([src[0], src[1], src[2], src[3]])
            } else {
                let a = round_channel(ct.apply_alpha(f64::from(src[3])));
                if ink == Ink::Red {
                    [255, 0, 0, a]
                } else {
                    [255, 255, 255, a]
                }
            };
            let c = tiny_skia::ColorU8::from_rgba(r, g, b, a).premultiply();
            dst.copy_from_slice(&[c.red(), c.green(), c.blue(), c.alpha()]);
        }
        let (tw, th) = (f64::from(bitmap.width()), f64::from(bitmap.height()));
        self.polys.clear();
        self.polys.push_contour(
            [
                DVec2::ZERO,
                DVec2::new(tw, 0.0),
                DVec2::new(tw, th),
                DVec2::new(0.0, th),
            ]
            .map(|c| m.transform_point2(c)),
            true,
        );
        let Some(path) = self.clipped_path() else { return };
        let [a, b, c, d, x, y] = m.to_cols_array().map(|v| v as f32);
        let paint = Paint {
            shader: Pattern::new(
                texels.as_ref(),
                SpreadMode::Pad,
                if smoothing {
                    FilterQuality::Bilinear
                } else {
                    FilterQuality::Nearest
                },
                1.0,
                Transform::from_row(a, b, c, d, x, y),
            ),
            anti_alias: self.anti_alias,
            ..Paint::default()
        };
        layer.fill_path(&path, &paint, SkFillRule::Winding, Transform::identity(), mask);
    }
}
