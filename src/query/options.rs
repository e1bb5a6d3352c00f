//! What a collision query is asked with and what it answers: [`CollisionOptions`], the
//! tolerance's threshold, and [`Collision`].

use crate::Rect;

/// The lowest alpha that counts as solid at `tolerance`.
pub(crate) fn threshold(tolerance: u8) -> u8 {
    (255 - tolerance).max(1)
}

/// Options of a collision query; `CollisionOptions::default()` is a precise query at
/// tolerance 255 with anti-aliasing.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct CollisionOptions {
    /// Test pixels (`true`) or only the intersection of the bounds (`false`).
    pub precise: bool,
    /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`.
    pub tolerance: u8,
    /// Exact area coverage (`true`) or exact pixel-centre tests (`false`); semantics.md 4.5.
    pub anti_alias: bool,
    /// The most pixels a precise query may compare: a larger window gives
    /// [`Error::PixelBudget`](crate::Error::PixelBudget) instead of an answer. Whole item rasters kept for poses used
    /// again also count against it; an item with no room left is computed in the window.
    pub max_pixels: u64,
    /// Use the fast paths: cached bit masks compared a word at a time, rows of single fills
    /// read as runs of equal value, and the columns of one target bounded by where the
    /// other has pixels; and, for [`Stage::collision`](crate::Stage::collision) and the
    /// many-object queries, pairs whose convex outlines are more than a pixel's diagonal
    /// apart answered `None` before anything is drawn. They give the same answer as the
    /// plain path, which composites both targets' alpha planes pixel by pixel; turning them
    /// off is for tests and measurements. (One difference by design: a pair rejected by its
    /// outlines answers `None` without building its geometry, so geometry that would go over
    /// its vertex budget ([`Error::GeometryBudget`](crate::Error::GeometryBudget)) is not
    /// refused there.)
    pub fast_paths: bool,
    /// Many-object queries ([`Stage::contacts_among`](crate::Stage::contacts_among) and the like): give each contact its
    /// [`ContactDetails`](crate::ContactDetails) (centroid, normal, first pixel, overlap
    /// mask). Precise queries only; they cost a second look at each touching pair.
    pub details: bool,
    /// Leave out targets that are not on screen because they or an ancestor are hidden
    /// ([`Stage::is_shown`](crate::Stage::is_shown)): such a target collides with nothing. Off by default, as in
    /// Flash, where a query looks at the object you name whatever its visibility
    /// (semantics.md 2); games that hide dead sprites turn it on.
    pub skip_hidden: bool,
    /// Many-object queries: test the close pairs on several threads (feature `parallel`,
    /// rayon). They run on the rayon pool the call is made from, so
    /// `pool.install(|| stage.contacts_among(..))` keeps them on a pool of yours; `false` tests
    /// them one after another on the calling thread. The answer is the same either way.
    pub parallel: bool,
    /// The most work a whole many-object query ([`Stage::contacts_among`](crate::Stage::contacts_among) and the like) or
    /// motion query ([`Stage::sweep`](crate::Stage::sweep) and the like) may take, in pixel tests: the pixels of
    /// the window of every pair or pose it may test, plus the pixels of each target drawn at a
    /// new pose, plus 64 a precise test (1 a test of boxes only). It is added up before anything is tested; past it the call
    /// is refused with [`Error::WorkBudget`](crate::Error::WorkBudget). Default
    /// [`DEFAULT_MAX_WORK`](crate::DEFAULT_MAX_WORK); `u64::MAX` is no limit. A single
    /// [`Stage::collision`](crate::Stage::collision) is bounded by `max_pixels` instead.
    pub max_work: u64,
}

/// The default [`CollisionOptions::max_work`] (`work_budget.rs`): 2^26 pixel tests, a few seconds of the
/// slowest work per pixel measured (pixel tests of turning rings and of crowds of rings on
/// one spot, about 2.5 s on two loaded cores), and far over what a frame of a game asks.
pub const DEFAULT_MAX_WORK: u64 = 1 << 26;

/// The default pixel budget of a precise query: 2^28 pixels (16384 x 16384).
pub const DEFAULT_MAX_PIXELS: u64 = 1 << 28;

impl Default for CollisionOptions {
    fn default() -> Self {
        CollisionOptions {
            precise: true,
            tolerance: 255,
            anti_alias: true,
            max_pixels: DEFAULT_MAX_PIXELS,
            fast_paths: true,
            details: false,
            skip_hidden: false,
            parallel: true,
            max_work: DEFAULT_MAX_WORK,
        }
    }
}

impl CollisionOptions {
    /// Sets `precise`.
    pub fn precise(mut self, precise: bool) -> Self {
        self.precise = precise;
        self
    }
    /// Sets `tolerance`.
    pub fn tolerance(mut self, tolerance: u8) -> Self {
        self.tolerance = tolerance;
        self
    }
    /// Sets `anti_alias`.
    pub fn anti_alias(mut self, anti_alias: bool) -> Self {
        self.anti_alias = anti_alias;
        self
    }
    /// Sets `max_pixels`.
    pub fn max_pixels(mut self, max_pixels: u64) -> Self {
        self.max_pixels = max_pixels;
        self
    }
    /// Sets `fast_paths`.
    pub fn fast_paths(mut self, fast_paths: bool) -> Self {
        self.fast_paths = fast_paths;
        self
    }

    /// Sets `details`.
    pub fn details(mut self, details: bool) -> Self {
        self.details = details;
        self
    }
    /// Sets `skip_hidden`.
    pub fn skip_hidden(mut self, skip_hidden: bool) -> Self {
        self.skip_hidden = skip_hidden;
        self
    }
    /// Sets `parallel`.
    pub fn parallel(mut self, parallel: bool) -> Self {
        self.parallel = parallel;
        self
    }

    /// Sets `max_work`.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, DEFAULT_MAX_WORK};
    /// let opts = CollisionOptions::default().max_work(DEFAULT_MAX_WORK * 4);
    /// assert_eq!(opts.max_work, 1 << 28);
    /// ```
    pub fn max_work(mut self, max_work: u64) -> Self {
        self.max_work = max_work;
        self
    }

    /// The lowest alpha that counts as solid.
    pub fn threshold(&self) -> u8 {
        threshold(self.tolerance)
    }
}

/// The answer of [`Stage::collision`](crate::Stage::collision).
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Collision {
    /// Where the two targets overlap, in the parent's space; `None` when they do not.
    pub rect: Option<Rect>,
    /// How many pixels are solid in both (only for precise queries).
    pub overlap_pixels: Option<u64>,
}
