//! Bitmaps as another renderer draws them (semantics.md 4.9): pygame's `rotate`, `rotozoom`
//! and `flip`, named here; sized and sampled by `raster::pygame_plan`, `raster::pygame_rotate`
//! and `raster::pygame_rotozoom`.

/// Which pygame computes the picture. pygame 2.6.1 and pygame-ce 2.5.8 share the arithmetic
/// of `rotate`, `rotozoom` and `flip` on a surface's alpha (read from both sources and
/// checked against both, tests/data/pygame); they are kept apart because their code can
/// differ (pygame-ce keeps a 32-bit surface's colour key through `rotozoom`).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq, Hash)]
pub enum PygameFlavour {
    /// pygame (2.6.1 is the version checked).
    #[default]
    Pygame,
    /// pygame-ce (2.5.8 is the version checked).
    PygameCe,
}

/// Which pygame call draws the surface.
#[derive(Clone, Copy, Debug, PartialEq, Eq, Hash)]
pub(crate) enum PygameOp {
    /// `pygame.transform.rotate(surface, angle)`.
    Rotate,
    /// `pygame.transform.rotozoom(surface, angle, scale)` (always smoothed, as pygame calls it).
    Rotozoom,
}

/// A bitmap drawn by `pygame.transform.rotate` or `rotozoom`, optionally after
/// `pygame.transform.flip`, to be sampled bit for bit as pygame returns it.
///
/// The angle and scale are kept as the `float` (f32) pygame parses them into, so the value
/// a game passes to pygame and to pixelhit gives the same picture.
///
/// ```
/// use pixelhit::{PygameFlavour, PygameTransform};
/// let t = PygameTransform::rotate(45.0).flip(true, false).flavour(PygameFlavour::PygameCe);
/// assert_eq!(t.output_size(10, 10), (14, 14));
/// assert_eq!(PygameTransform::rotate(90.0).output_size(30, 10), (10, 30));
/// assert_eq!(PygameTransform::rotozoom(0.0, 2.0).output_size(30, 10), (60, 20));
/// ```
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct PygameTransform {
    pub(crate) op: PygameOp,
    pub(crate) angle: f32,
    pub(crate) scale: f32,
    pub(crate) flip_x: bool,
    pub(crate) flip_y: bool,
    pub(crate) flavour: PygameFlavour,
}

/// The largest |angle| accepted: pygame turns the angle into an `int` for multiples of 90
/// degrees, which is only defined well inside i32.
pub const PYGAME_MAX_ANGLE: f32 = 1.0e6;
/// The largest scale accepted: above it the output of a modest sprite outgrows pygame's
/// 16.16 fixed point.
pub const PYGAME_MAX_SCALE: f32 = 64.0;
/// The largest source or output side: pygame steps in 16.16 fixed point in an `int`.
pub const PYGAME_MAX_SIDE: u32 = 16_384;

impl PygameTransform {
    /// `pygame.transform.rotate(surface, angle)`: degrees, counter-clockwise.
    #[must_use]
    pub fn rotate(angle: f64) -> PygameTransform {
        PygameTransform::new(PygameOp::Rotate, angle, 1.0)
    }

    /// `pygame.transform.rotozoom(surface, angle, scale)`, smoothed as pygame always does.
    #[must_use]
    pub fn rotozoom(angle: f64, scale: f64) -> PygameTransform {
        PygameTransform::new(PygameOp::Rotozoom, angle, scale)
    }

    #[allow(clippy::cast_possible_truncation)]
    fn new(op: PygameOp, angle: f64, scale: f64) -> PygameTransform {
        // pygame parses both with the "f" format: the nearest float.
        PygameTransform {
            op,
            angle: angle as f32,
            scale: scale as f32,
            flip_x: false,
            flip_y: false,
            flavour: PygameFlavour::Pygame,
        }
    }

    /// The same transform applied after `pygame.transform.flip(surface, flip_x, flip_y)`.
    #[must_use]
    pub fn flip(mut self, flip_x: bool, flip_y: bool) -> PygameTransform {
        self.flip_x = flip_x;
        self.flip_y = flip_y;
        self
    }

    /// The same transform as the given pygame computes it.
    #[must_use]
    pub fn flavour(mut self, flavour: PygameFlavour) -> PygameTransform {
        self.flavour = flavour;
        self
    }

    /// True for `rotozoom`, false for `rotate`.
    #[must_use]
    pub fn is_rotozoom(&self) -> bool {
        self.op == PygameOp::Rotozoom
    }

    /// The angle in degrees, as pygame's float.
    #[must_use]
    pub fn angle(&self) -> f32 {
        self.angle
    }

    /// The scale (1 for `rotate`), as pygame's float.
    #[must_use]
    pub fn scale(&self) -> f32 {
        self.scale
    }

    /// `(flip_x, flip_y)`.
    #[must_use]
    pub fn flips(&self) -> (bool, bool) {
        (self.flip_x, self.flip_y)
    }

    /// The flavour.
    #[must_use]
    pub fn flavour_of(&self) -> PygameFlavour {
        self.flavour
    }
}

/// How a bitmap item is sampled when not by pixelhit's own rule (semantics.md 4.5): another
/// renderer's picture (4.9).
#[derive(Clone, Copy, Debug, PartialEq)]
pub enum BitmapRenderer {
    /// As pygame draws it.
    Pygame(PygameTransform),
}

/// A bitmap node's renderer with the size of the surface it returns for the node's bitmap,
/// worked out (and range-checked) when either is set, so that bounds read it for free.
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct Rendered {
    pub renderer: BitmapRenderer,
    /// The surface's width and height in pixels.
    pub size: (u32, u32),
    /// The map from the bitmap's texels to the surface's pixels and its reach in texels,
    /// for the near-miss test (`PygamePlan::texels_to_pixels`), worked out with the size:
    /// every pair of a turned sprite read it, each working out pygame's plan again.
    pub hull_map: Option<(glam::DAffine2, f64)>,
    /// The size of the bitmap they were worked out for (what a pose checks before it
    /// takes `hull_map` rather than working it out again).
    pub source: (u32, u32),
}

impl Rendered {
    /// The surface's rectangle in the node's local space, `None` when it is empty.
    pub fn rect(&self) -> Option<crate::Rect> {
        let (w, h) = self.size;
        if w == 0 || h == 0 {
            return None;
        }
        crate::Rect::from_ltrb(0.0, 0.0, f64::from(w), f64::from(h))
    }
}
