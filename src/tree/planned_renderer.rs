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
