//! A bitmap item drawn by another renderer (semantics.md 4.9): at pixel (i, j) relative to
//! its anchor it is pixel (i, j) of the surface pygame returns, after the colour transform,
//! and 0 outside it. Rows are computed from the plan where a query needs them, never the
//! whole surface; the fast bitmap kernels are not used (the item's rows are plain runs).

use std::sync::Arc;

use super::edges::Edges;
use super::pygame_plan::PygamePlan;
use super::sample::{Texels, push_run};
use crate::Bitmap;
use crate::geom::color::{ColorTransform, round_channel};
use crate::geom::renderer::{BitmapRenderer, Rendered};

/// The item: the source's alpha, the plan of its renderer, and the colour transform's
/// alpha table.
#[derive(Debug)]
pub(crate) struct RenderedShape {
    /// The source's alpha, untransformed (the transform applies to the surface pygame
    /// returns), shared with every pose of the bitmap and counted once by the cache.
    pub source: Arc<Texels>,
    plan: PygamePlan,
    /// The plan's map from texels to the surface's pixels and its reach
    /// ([`PygamePlan::texels_to_pixels`]), worked out with the renderer (`Rendered`): every
    /// fill of the pose reads it.
    texels_to_pixels: Option<(glam::DAffine2, f64)>,
    /// `alpha -> alpha after the colour transform`, or `None` for the identity.
    table: Option<Box<[u8; 256]>>,
    /// The surface's rectangle `[0, w] x [0, h]`, on whole pixels: its rows' spans.
    pub quad: Edges,
}

impl RenderedShape {
    /// `source` is the bitmap's alpha with no colour transform.
    pub fn new(
        bitmap: &Bitmap,
        source: Arc<Texels>,
        rendered: &Rendered,
        ct: &ColorTransform,
        quad: Edges,
    ) -> RenderedShape {
        let BitmapRenderer::Pygame(t) = rendered.renderer;
        let plan = t.plan(bitmap);
        // Worked out for the node's bitmap when its renderer was set (this one, unless a
        // caller pairs them wrongly: then worked out again).
        let texels_to_pixels = match rendered.source == plan.source_size() {
            true => rendered.hull_map,
            false => plan.texels_to_pixels(),
        };
        RenderedShape {
            source,
            plan,
            texels_to_pixels,
            table: alpha_table(ct),
            quad,
        }
    }

    /// The renderer's plan.
    pub(super) fn plan(&self) -> &PygamePlan {
        &self.plan
    }

    /// [`PygamePlan::texels_to_pixels`] of its plan.
    pub(super) fn texels_to_pixels(&self) -> Option<(glam::DAffine2, f64)> {
        self.texels_to_pixels
    }

    /// `alpha -> alpha after the colour transform`, `None` for the identity.
    pub(super) fn table(&self) -> Option<&[u8; 256]> {
        self.table.as_deref()
    }

    /// Memory of its own (the source's alpha is shared: `Shape::shared_texels`).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<RenderedShape>() + self.table.as_ref().map_or(0, |_| 256) + self.quad.bytes()
    }

    /// The values of columns `x0..x1` of row `j` into `row` (resized to fit).
    fn values(&self, j: i64, (x0, x1): (i64, i64), row: &mut Vec<u8>) {
        row.clear();
        row.resize(usize::try_from(x1 - x0).unwrap_or(0), 0);
        let source = (&self.source.alpha[..], 1, self.source.width as usize);
        self.plan.alpha_row(source, j, x0, row);
        if let Some(table) = &self.table {
            // Inside the surface every pixel goes through the transform (its background
            // too, as a texel of alpha 0 does); outside there is no surface, so 0 stays.
            let (w, h) = self.plan.size();
            if j < 0 || j >= i64::from(h) {
                return;
            }
            let (lo, hi) = (x0.max(0), x1.min(i64::from(w)));
            for x in lo..hi {
                let v = &mut row[(x - x0) as usize];
                *v = table[usize::from(*v)];
            }
        }
    }

    /// Row `j`'s runs over `span` (`(first column, value)`, as `Shape::runs_in_spans`).
    pub fn runs(&self, j: i64, span: (i64, i64), row: &mut Vec<u8>, runs: &mut Vec<(i64, u8)>) {
        self.values(j, span, row);
        for (k, &v) in row.iter().enumerate() {
            push_run(runs, span.0 + k as i64, v);
        }
        if runs.is_empty() {
            runs.push((span.0, 0));
        }
    }

    /// The columns among `needed` of row `j` whose value reaches `threshold`, appended to
    /// `out` as sorted, disjoint intervals.
    pub fn solid_in(
        &self,
        j: i64,
        needed: &[(i64, i64)],
        threshold: u8,
        row: &mut Vec<u8>,
        out: &mut Vec<(i64, i64)>,
    ) {
        for &(n0, n1) in needed {
            self.values(j, (n0, n1), row);
            for (k, &v) in row.iter().enumerate() {
                if v >= threshold {
                    // A run goes on while its columns follow each other.
                    let x = n0 + k as i64;
                    match out.last_mut() {
                        Some(last) if last.1 == x => last.1 = x + 1,
                        _ => out.push((x, x + 1)),
                    }
                }
            }
        }
    }
}

/// `alpha -> alpha after ct` for every alpha, or `None` when that changes none (the usual
/// case, found without building the table: a pose is made every frame for a turning
/// sprite).
fn alpha_table(ct: &ColorTransform) -> Option<Box<[u8; 256]>> {
    if ct.alpha_multiplier == 1.0 && ct.alpha_offset == 0.0 {
        return None;
    }
    let mut table = Box::new([0u8; 256]);
    let mut identity = true;
    for (a, v) in table.iter_mut().enumerate() {
        *v = round_channel(ct.apply_alpha(a as f64));
        identity &= usize::from(*v) == a;
    }
    (!identity).then_some(table)
}

/// The surface a renderer returns for `bitmap`, built whole, alpha only (black texels):
/// for what draws pictures (the debug pictures, Flash's recipe), not for queries.
pub(crate) fn rendered_surface(bitmap: &Bitmap, rendered: &Rendered) -> Option<Bitmap> {
    let BitmapRenderer::Pygame(t) = rendered.renderer;
    let plan = t.plan(bitmap);
    let (w, h) = plan.size();
    // The default image limits (256 MiB), checked before anything is allocated.
    if w == 0 || h == 0 || 4 * u64::from(w) * u64::from(h) > 256 << 20 {
        return None;
    }
    let (rgba, stride) = bitmap.strided();
    let mut row = vec![0u8; w as usize];
    let mut out = vec![0u8; 4 * w as usize * h as usize];
    for j in 0..h {
        plan.alpha_row((rgba, 4, stride), i64::from(j), 0, &mut row);
        let line = &mut out[4 * (j * w) as usize..4 * ((j + 1) * w) as usize];
        for (px, &a) in line.chunks_exact_mut(4).zip(&row) {
            px[3] = a;
        }
    }
    Bitmap::from_rgba8(w, h, out).ok()
}
