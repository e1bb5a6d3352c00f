//! What one query may hold: vertices of the items' geometry and pixels of whole item
//! rasters, counted whether they come from the cache or are made now, so that the answer,
//! error or not, never depends on the cache.

use crate::geom::rect::PixelRect;
use crate::{Error, Result};

/// Most vertices of geometry one query may hold over all its items (8 Mi, about 200 MB).
pub(crate) const MAX_QUERY_VERTICES: u64 = 1 << 23;

/// The budget of one query.
pub(crate) struct DrawBudget {
    /// Pixels of whole item rasters held, and the most it may hold.
    pixels: u128,
    max_pixels: u64,
    /// Vertices of the items' geometry (each item's alone is held to
    /// [`crate::geom::polygon::MAX_OUTLINE_VERTICES`] as it is built).
    vertices: u128,
    /// Whether a whole raster was refused for want of room.
    refused: bool,
}

impl DrawBudget {
    /// A budget of `max_pixels` pixels of whole rasters.
    pub fn new(max_pixels: u64) -> DrawBudget {
        DrawBudget {
            pixels: 0,
            max_pixels,
            vertices: 0,
            refused: false,
        }
    }

    /// Counts the vertices of an item's geometry, built now or earlier.
    ///
    /// # Errors
    ///
    /// [`Error::GeometryBudget`] when the total goes over [`MAX_QUERY_VERTICES`].
    pub fn take_vertices(&mut self, vertices: usize, target: impl FnOnce() -> String) -> Result<()> {
        self.vertices += vertices as u128;
        if self.vertices > u128::from(MAX_QUERY_VERTICES) {
            return Err(Error::GeometryBudget {
                what: format!("the geometry of the query's targets, at {}", target()),
                vertices: self.vertices,
                budget: MAX_QUERY_VERTICES,
            });
        }
        Ok(())
    }

    /// Vertices the query may still hold, at most `per_item` (one item's budget).
    pub fn vertices_left(&self, per_item: usize) -> usize {
        let left = u128::from(MAX_QUERY_VERTICES).saturating_sub(self.vertices);
        left.min(per_item as u128) as usize
    }

    /// Takes the pixels of a whole raster if the budget has room for them; a query that
    /// cannot hold a whole raster computes the item's pixels in its window instead.
    pub fn try_take_pixels(&mut self, rect: PixelRect) -> bool {
        let total = self.pixels + rect.area();
        let fits = total <= u128::from(self.max_pixels);
        if fits {
            self.pixels = total;
        }
        self.refused |= !fits;
        fits
    }

    /// What was taken: pixels of whole rasters and vertices, and whether anything was
    /// refused room ([`crate::query::pipeline`]'s per-query memo of prepared targets replays
    /// these to know a pair would have prepared each target the same way).
    pub fn taken(&self) -> (u128, u128, bool) {
        (self.pixels, self.vertices, self.refused)
    }
}
