//! A renderer worked out once for a bitmap size and then set on a node: a game that sets
//! every sprite's renderer every frame, and must first check the sprite's drawn size
//! against it, works pygame's plan out once a sprite rather than twice.

use super::bitmap_renderer::rendered_for_size;
use crate::geom::renderer::{BitmapRenderer, Rendered};
use crate::tree::node::Content;
use crate::{Error, NodeId, Result, Stage};

/// A [`BitmapRenderer`] planned for a bitmap of one size: the size of the surface it
/// returns, range-checked, and what queries read of its plan. Set it on a node with
/// [`Stage::set_planned_renderer`].
///
/// ```
/// use pixelhit::{BitmapRenderer, PlannedRenderer, PygameTransform};
/// let turned = BitmapRenderer::Pygame(PygameTransform::rotate(90.0));
/// let planned = PlannedRenderer::new(turned, 30, 20)?;
/// assert_eq!((planned.size(), planned.renderer()), ((20, 30), turned));
/// # Ok::<(), pixelhit::Error>(())
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PlannedRenderer(Rendered);

impl PlannedRenderer {
    /// `renderer` planned for a `width` x `height` bitmap.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] for an angle, scale or size pygame's arithmetic cannot take
    /// ([`crate::PygameTransform::check`]).
    pub fn new(renderer: BitmapRenderer, width: u32, height: u32) -> Result<PlannedRenderer> {
        rendered_for_size(renderer, (width, height)).map(PlannedRenderer)
    }

    /// The size of the surface the renderer returns for the bitmap.
    #[must_use]
    pub fn size(&self) -> (u32, u32) {
        self.0.size
    }

    /// The renderer.
    #[must_use]
    pub fn renderer(&self) -> BitmapRenderer {
        self.0.renderer
    }

    /// The size of the bitmap it was planned for.
    #[must_use]
    pub fn source_size(&self) -> (u32, u32) {
        self.0.source
    }
}

impl Stage {
    /// [`Stage::set_bitmap_renderer`] with `Some` of a renderer already planned: the same
    /// change, without working pygame's plan out again when the node's bitmap is the size
    /// it was planned for (for another size it is planned again for the node's bitmap).
    ///
    /// ```
    /// use pixelhit::{Bitmap, BitmapRenderer, PlannedRenderer, PygameTransform, Stage};
    /// let mut stage = Stage::new();
    /// let bar = Bitmap::from_rgba8(20, 2, vec![255; 20 * 2 * 4])?;
    /// let rock = stage.add_bitmap(stage.root(), bar, false)?;
    /// let turned = BitmapRenderer::Pygame(PygameTransform::rotate(90.0));
    /// stage.set_planned_renderer(rock, &PlannedRenderer::new(turned, 20, 2)?)?;
    /// assert_eq!(stage.bitmap_renderer(rock)?, Some(turned));
    /// let b = stage.bounds(rock, stage.root())?.unwrap();
    /// assert_eq!((b.width(), b.height()), (2.0, 20.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    ///
    /// # Errors
    ///
    /// As [`Stage::set_bitmap_renderer`]. On error nothing changes.
    pub fn set_planned_renderer(&mut self, node: NodeId, planned: &PlannedRenderer) -> Result<()> {
        let n = self.node(node)?;
        let Content::Bitmap { bitmap, .. } = &n.content else {
            return Err(Error::NotBitmap {
                node: self.describe(node),
            });
        };
        let size = (bitmap.width(), bitmap.height());
        let rendered = match size == planned.0.source {
            true => planned.0,
            false => rendered_for_size(planned.0.renderer, size)?,
        };
        self.node_mut(node)?.renderer = Some(rendered);
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use crate::{Bitmap, BitmapRenderer, CollisionOptions, Error, PlannedRenderer, PygameTransform, Stage};

    /// A bitmap of `w` x `h` with alpha varying over it (some texels clear), from `seed`.
    fn art(w: u32, h: u32, seed: u64) -> Bitmap {
        let mut s = seed | 1;
        let mut rgba = Vec::new();
        for _ in 0..w * h {
            s ^= s << 13;
            s ^= s >> 7;
            s ^= s << 17;
            rgba.extend([90, 90, 90, [0, 60, 127, 128, 255][(s % 5) as usize]]);
        }
        Bitmap::from_rgba8(w, h, rgba).unwrap()
    }

    /// Two stages with the same two bitmap nodes, one given its renderer by
    /// `set_bitmap_renderer`, the other by `set_planned_renderer` with a renderer planned for
    /// its bitmap's size or another: the same renderer, bounds and collisions.
    #[test]
    fn planned_renderer_sets_what_set_bitmap_renderer_sets() {
        let mut replanned = 0;
        for case in 0..300u64 {
            let (w, h) = (1 + (case * 7 % 23) as u32, 1 + (case * 11 % 17) as u32);
            let angle = (case as f64 * 37.3) % 720.0 - 360.0;
            let scale = 0.25 + (case % 9) as f64 * 0.3;
            let t = match case % 2 {
                0 => PygameTransform::rotate(angle),
                _ => PygameTransform::rotozoom(angle, scale),
            };
            let r = BitmapRenderer::Pygame(t);
            // Planned for the node's bitmap, or for another size (then planned again).
            let planned_for = match case % 3 {
                0 => (w + 1, h),
                _ => (w, h),
            };
            replanned += usize::from(planned_for != (w, h));
            let planned = PlannedRenderer::new(r, planned_for.0, planned_for.1).unwrap();
            let mut answers = Vec::new();
            for by_plan in [false, true] {
                let mut stage = Stage::new();
                let root = stage.root();
                let a = stage.add_bitmap(root, art(w, h, case), false).unwrap();
                let b = stage.add_bitmap(root, art(9, 5, case + 1), false).unwrap();
                stage
                    .set_position(b, (case % 13) as f64 - 4.0, (case % 7) as f64 - 3.0)
                    .unwrap();
                match by_plan {
                    false => stage.set_bitmap_renderer(a, Some(r)).unwrap(),
                    true => stage.set_planned_renderer(a, &planned).unwrap(),
                }
                let opts = CollisionOptions::default().tolerance(127);
                answers.push((
                    stage.bitmap_renderer(a).unwrap(),
                    stage.bounds(a, root).unwrap(),
                    stage.collision(a, b, root, &opts).unwrap(),
                ));
            }
            assert_eq!(answers[0], answers[1], "case {case}");
            assert_eq!(answers[1].0, Some(r));
        }
        assert_eq!(replanned, 100);
    }

    #[test]
    fn planned_renderer_refuses_what_pygame_cannot_compute_and_containers() {
        let r = BitmapRenderer::Pygame(PygameTransform::rotozoom(10.0, f64::NAN));
        assert!(matches!(
            PlannedRenderer::new(r, 4, 4),
            Err(Error::OutOfRange { .. })
        ));
        let turned = BitmapRenderer::Pygame(PygameTransform::rotate(90.0));
        let planned = PlannedRenderer::new(turned, 4, 2).unwrap();
        assert_eq!((planned.size(), planned.source_size()), ((2, 4), (4, 2)));
        let mut stage = Stage::new();
        let box_ = stage.add_container(stage.root()).unwrap();
        assert!(matches!(
            stage.set_planned_renderer(box_, &planned),
            Err(Error::NotBitmap { .. })
        ));
        // Planned for a small bitmap, set on one whose surface would pass pygame's limit
        // (300 texels times 64): planned again, refused, the node's renderer unchanged.
        let zoom = BitmapRenderer::Pygame(PygameTransform::rotozoom(0.0, 64.0));
        let small = PlannedRenderer::new(zoom, 2, 1).unwrap();
        let wide = stage.add_bitmap(stage.root(), art(300, 1, 3), false).unwrap();
        assert!(matches!(
            stage.set_planned_renderer(wide, &small),
            Err(Error::OutOfRange { .. })
        ));
        assert_eq!(stage.bitmap_renderer(wide).unwrap(), None);
    }
}
