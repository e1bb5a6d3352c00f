//! How a pick decides: [`PickOptions`].

use crate::query::point::BitmapHit;

/// How [`Stage::pick`](crate::Stage::pick) decides.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[non_exhaustive]
pub struct PickOptions {
    /// When a bitmap is hit: where its texel shows (the default, as
    /// [`Stage::hit_test_point`](crate::Stage::hit_test_point)) or anywhere on its
    /// rectangle (Flash).
    pub bitmap_hit: BitmapHit,
}

impl PickOptions {
    /// Sets [`PickOptions::bitmap_hit`].
    ///
    /// ```
    /// use pixelhit::{BitmapHit, PickOptions};
    /// let flash = PickOptions::default().bitmap_hit(BitmapHit::Box);
    /// assert_eq!(flash.bitmap_hit, BitmapHit::Box);
    /// ```
    pub fn bitmap_hit(mut self, bitmap_hit: BitmapHit) -> Self {
        self.bitmap_hit = bitmap_hit;
        self
    }
}
