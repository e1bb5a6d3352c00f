//! A bitmap node sampled as another renderer draws it (semantics.md 4.9): set, read, and
//! kept in step with the node's bitmap.

use crate::geom::renderer::{BitmapRenderer, Rendered};
use crate::tree::node::Content;
use crate::{Bitmap, Error, NodeId, Result, Stage};

/// The renderer with its surface's size and texel map for `bitmap`, or the error naming the
/// value pygame cannot take.
fn rendered(renderer: BitmapRenderer, bitmap: &Bitmap) -> Result<Rendered> {
    rendered_for_size(renderer, (bitmap.width(), bitmap.height()))
}

/// [`rendered`] for a bitmap of `(width, height)` texels.
pub(super) fn rendered_for_size(renderer: BitmapRenderer, (width, height): (u32, u32)) -> Result<Rendered> {
    let BitmapRenderer::Pygame(t) = renderer;
    let plan = t.checked_plan(width, height)?;
    Ok(Rendered {
        renderer,
        size: plan.size(),
        hull_map: plan.texels_to_pixels(),
        source: (width, height),
    })
}

/// Bitmaps drawn by another renderer.
impl Stage {
    /// Samples a bitmap node as `renderer` draws it (`None`: pixelhit's own rule, semantics.md
    /// 4.5), from the next query on. Every query then sees, at pixel (X, Y) of its parent's
    /// grid, pixel (X - x, Y - y) of the surface the renderer returns for the node's bitmap
    /// (0 outside it), after colour transforms, where (x, y) is the node's position: the
    /// blit position, as pygame's `rect.topleft`. Bounds are that surface's rectangle. The
    /// node must be placed by a whole-pixel translation relative to a query's parent (a
    /// collision query on it otherwise gives [`Error::RendererPlacement`]).
    ///
    /// Cheap enough to call for every sprite every frame: nothing is allocated or drawn; the
    /// surface's rows are computed where a query needs them, and the rasters kept for other
    /// angles stay kept.
    ///
    /// # Errors
    ///
    /// [`Error::NotBitmap`] for a container or an animated node, [`Error::OutOfRange`] for an
    /// angle, scale or size pygame's arithmetic cannot take ([`crate::PygameTransform::check`]),
    /// [`Error::StaleNode`]. On error nothing changes.
    ///
    /// ```
    /// use pixelhit::{Bitmap, BitmapRenderer, PygameTransform, Stage};
    /// let mut stage = Stage::new();
    /// let bar = Bitmap::from_rgba8(20, 2, vec![255; 20 * 2 * 4])?;
    /// let rock = stage.add_bitmap(stage.root(), bar, false)?;
    /// stage.set_position(rock, 100.0, 50.0)?;
    /// let turned = BitmapRenderer::Pygame(PygameTransform::rotate(90.0));
    /// stage.set_bitmap_renderer(rock, Some(turned))?;
    /// assert_eq!(stage.bitmap_renderer(rock)?, Some(turned));
    /// let b = stage.bounds(rock, stage.root())?.unwrap();
    /// assert_eq!((b.left(), b.top(), b.width(), b.height()), (100.0, 50.0, 2.0, 20.0));
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn set_bitmap_renderer(&mut self, node: NodeId, renderer: Option<BitmapRenderer>) -> Result<()> {
        let n = self.node(node)?;
        let Content::Bitmap { bitmap, .. } = &n.content else {
            return Err(Error::NotBitmap {
                node: self.describe(node),
            });
        };
        let new = match renderer {
            Some(r) => Some(rendered(r, bitmap)?),
            None => None,
        };
        self.node_mut(node)?.renderer = new;
        Ok(())
    }

    /// The renderer a bitmap node is sampled as, `None` for pixelhit's own rule.
    ///
    /// # Errors
    ///
    /// [`Error::NotBitmap`] for a container or an animated node, [`Error::StaleNode`].
    pub fn bitmap_renderer(&self, node: NodeId) -> Result<Option<BitmapRenderer>> {
        let n = self.node(node)?;
        match n.content {
            Content::Bitmap { .. } => Ok(n.renderer.map(|r| r.renderer)),
            Content::Container(_) | Content::Frames { .. } => Err(Error::NotBitmap {
                node: self.describe(node),
            }),
        }
    }

    /// The node's renderer made again for a new bitmap (by [`Stage::set_bitmap`]).
    pub(crate) fn renderer_for(&self, node: NodeId, bitmap: &Bitmap) -> Result<Option<Rendered>> {
        match self.node(node)?.renderer {
            Some(r) => Ok(Some(rendered(r.renderer, bitmap)?)),
            None => Ok(None),
        }
    }
}
