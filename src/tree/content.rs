//! What a node draws: a container's graphics, a bitmap node's bitmap.

use crate::tree::node::Content;
use crate::{Bitmap, Error, Graphic, NodeId, Result, Stage};

/// What nodes draw, read and replaced.
impl Stage {
    /// The container's graphics, or the graphics of the frame an animated node shows (empty
    /// for a bitmap).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn graphics(&self, node: NodeId) -> Result<&[Graphic]> {
        Ok(self.node(node)?.content.shown().0)
    }

    /// Appends a fill or stroke to a container's graphics.
    ///
    /// # Errors
    ///
    /// [`Error::NotContainer`] for a bitmap; [`Error::StaleNode`].
    pub fn add_graphic(&mut self, node: NodeId, g: Graphic) -> Result<()> {
        self.check_container(node)?;
        if let Content::Container(gs) = &mut self.node_mut(node)?.content {
            gs.push(g);
        }
        Ok(())
    }

    /// Replaces a container's graphics.
    ///
    /// # Errors
    ///
    /// As [`Stage::add_graphic`].
    pub fn set_graphics(&mut self, node: NodeId, graphics: Vec<Graphic>) -> Result<()> {
        self.check_container(node)?;
        if let Content::Container(gs) = &mut self.node_mut(node)?.content {
            *gs = graphics;
        }
        Ok(())
    }

    /// The bitmap and its smoothing flag, for a bitmap node or an animated node showing a
    /// bitmap frame (whose offset [`Stage::frames`] gives).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn bitmap(&self, node: NodeId) -> Result<Option<(&Bitmap, bool)>> {
        Ok(self
            .node(node)?
            .content
            .shown()
            .1
            .map(|b| (b.bitmap, b.smoothing)))
    }

    /// Replaces a bitmap node's image and smoothing flag (its renderer, if it has one, then
    /// draws the new image: [`Stage::set_bitmap_renderer`]).
    ///
    /// # Errors
    ///
    /// [`Error::NotBitmap`] for a container or an animated node; [`Error::OutOfRange`] when
    /// the node's renderer cannot draw an image of this size; [`Error::StaleNode`]. On error
    /// nothing changes.
    pub fn set_bitmap(&mut self, node: NodeId, bitmap: Bitmap, smoothing: bool) -> Result<()> {
        if !matches!(self.node(node)?.content, Content::Bitmap { .. }) {
            return Err(Error::NotBitmap {
                node: self.describe(node),
            });
        }
        let renderer = self.renderer_for(node, &bitmap)?;
        let entry = self.node_mut(node)?;
        entry.content = Content::Bitmap { bitmap, smoothing };
        entry.renderer = renderer;
        Ok(())
    }

    // ----- spaces -----
}
