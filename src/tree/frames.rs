//! Animated nodes: a node that shows one of several frames (bitmaps or graphics).

use crate::tree::node::{Content, Frame};
use crate::{Error, NodeId, Result, Stage};

/// Animated nodes: adding one, and choosing its frame.
impl Stage {
    /// Adds an animated leaf showing one of `frames` at a time (the first to begin with), as
    /// the last child of `parent`. Queries see the frame shown. A bitmap frame is drawn at
    /// its `offset` (a trimmed frame of a sprite sheet; [`Atlas`](crate::Atlas) reads a
    /// sheet's frames, regions of it at their trim offsets).
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] when `frames` is empty, and as [`Stage::add_container`].
    pub fn add_frames(&mut self, parent: NodeId, frames: Vec<Frame>) -> Result<NodeId> {
        if frames.is_empty() {
            return Err(Error::OutOfRange {
                what: "number of frames".into(),
                value: 0.0,
                range: "1..",
            });
        }
        self.insert(parent, Content::Frames { frames, current: 0 })
    }

    /// The index of the frame shown, for an animated node.
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn frame(&self, node: NodeId) -> Result<Option<usize>> {
        Ok(match &self.node(node)?.content {
            Content::Frames { current, .. } => Some(*current),
            _ => None,
        })
    }

    /// The frames of an animated node (empty for other nodes).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn frames(&self, node: NodeId) -> Result<&[Frame]> {
        Ok(match &self.node(node)?.content {
            Content::Frames { frames, .. } => frames,
            _ => &[],
        })
    }

    /// How many frames an animated node has (0 for other nodes).
    ///
    /// # Errors
    ///
    /// [`Error::StaleNode`].
    pub fn frame_count(&self, node: NodeId) -> Result<usize> {
        Ok(match &self.node(node)?.content {
            Content::Frames { frames, .. } => frames.len(),
            _ => 0,
        })
    }

    /// Shows frame `index` of an animated node.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] naming the node when there is no such frame or the node is not
    /// animated; [`Error::StaleNode`].
    pub fn set_frame(&mut self, node: NodeId, index: usize) -> Result<()> {
        let what = format!("frame of {}", self.describe(node));
        match &mut self.node_mut(node)?.content {
            Content::Frames { frames, current } if index < frames.len() => {
                *current = index;
                Ok(())
            }
            Content::Frames { frames, .. } => Err(Error::OutOfRange {
                what,
                value: index as f64,
                range: if frames.len() == 1 {
                    "0..1"
                } else {
                    "0..frame_count"
                },
            }),
            _ => Err(Error::OutOfRange {
                what: format!("{what} (not an animated node)"),
                value: index as f64,
                range: "none",
            }),
        }
    }
}
