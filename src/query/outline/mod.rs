//! Exact outlines: the boundary of an object's solid pixels as closed polygons, for physics
//! engines and anything else that wants shapes instead of pixels.
//!
//! - this file: [`OutlineOptions`] and [`Stage::outline`] / [`Stage::outline_with`].
//! - [`trace`]: the pixel-edge loops around a grid of solid pixels.
//! - [`simplify`]: fewer vertices within a distance, keeping every pixel centre's side.

pub(crate) mod simplify;
pub(crate) mod trace;

use glam::DVec2;

use crate::query::options::threshold;
use crate::{CollisionOptions, DEFAULT_MAX_PIXELS, Error, NodeId, Result, Stage};

/// Options of [`Stage::outline_with`]; the default is tolerance 255 (every pixel that
/// shows), no simplification, anti-aliased pixels, and the default pixel budget.
#[derive(Clone, Copy, Debug, PartialEq)]
#[non_exhaustive]
pub struct OutlineOptions {
    /// A pixel is solid when its alpha is at least `max(1, 255 - tolerance)`, as in
    /// collision queries; a node's own tolerance ([`Stage::set_tolerance`]) replaces it.
    pub tolerance: u8,
    /// Simplify the polygons within this many pixels (0: none). Below 0.5 every solid
    /// pixel's centre stays inside and every clear one's outside; from 0.5 up the shape
    /// may lose pixels, and loops left with fewer than three vertices are dropped.
    pub simplify: f64,
    /// Pixels' values with exact area coverage (`true`) or pixel-centre tests, as
    /// [`CollisionOptions::anti_alias`].
    pub anti_alias: bool,
    /// The most pixels the object's bounds may cover; more gives
    /// [`Error::PixelBudget`].
    pub max_pixels: u64,
}

impl Default for OutlineOptions {
    fn default() -> Self {
        OutlineOptions {
            tolerance: 255,
            simplify: 0.0,
            anti_alias: true,
            max_pixels: DEFAULT_MAX_PIXELS,
        }
    }
}

impl OutlineOptions {
    /// Sets `tolerance`.
    pub fn tolerance(mut self, tolerance: u8) -> Self {
        self.tolerance = tolerance;
        self
    }
    /// Sets `simplify`.
    pub fn simplify(mut self, simplify: f64) -> Self {
        self.simplify = simplify;
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
}

/// Outlines of an object's solid pixels.
impl Stage {
    /// The boundary of `node`'s solid pixels in `parent`'s pixel grid (pixel `(i, j)` is the
    /// square `[i, i+1) x [j, j+1)`, its value as semantics.md 4.5 defines it, solid at
    /// `tolerance` as in collision queries) as closed polygons: each a list of vertices,
    /// the last joined to the first. Read with the even-odd rule, a pixel's centre is
    /// inside exactly when the pixel is solid; holes are loops of their own (outer loops
    /// turn clockwise on a y-down screen, holes the other way) and pixels that touch only
    /// at a corner get separate loops. Vertices are whole pixel corners, only where the
    /// boundary turns (simplified ones may also be the middles of pixel edges). The current frame and the current pose count, as in every query.
    ///
    /// # Errors
    ///
    /// As [`Stage::outline_with`].
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let ring = stage.add_container(root)?;
    /// let path = Path::from_svg("M0 0H6V6H0Z M2 2H4V4H2Z")?;
    /// stage.add_graphic(ring, Graphic::fill(path, FillRule::EvenOdd, 1.0)?)?;
    /// let loops = stage.outline(ring, root, 255)?;
    /// // The outer square and its hole.
    /// assert_eq!(loops.len(), 2);
    /// assert_eq!(loops[1].len(), 4);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn outline(&self, node: NodeId, parent: NodeId, tolerance: u8) -> Result<Vec<Vec<DVec2>>> {
        self.outline_with(node, parent, &OutlineOptions::default().tolerance(tolerance))
    }

    /// [`Stage::outline`] with every option: tolerance, simplification, anti-aliasing and
    /// pixel budget.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `obj` is not inside `parent`, [`Error::OutOfRange`]
    /// for a negative or non-finite `simplify`, [`Error::PixelBudget`] when `obj`'s bounds
    /// cover more than `opts.max_pixels` pixels, and the errors of
    /// [`Stage::alpha_plane`] for geometry.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, OutlineOptions, Path, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let disc = stage.add_container(root)?;
    /// stage.add_graphic(disc, Graphic::fill(Path::circle(20.0, 20.0, 15.0), FillRule::NonZero, 1.0)?)?;
    /// let exact = stage.outline(disc, root, 255)?;
    /// let fewer = stage.outline_with(disc, root, &OutlineOptions::default().simplify(0.45))?;
    /// assert!(fewer[0].len() < exact[0].len());
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn outline_with(
        &self,
        obj: NodeId,
        parent: NodeId,
        opts: &OutlineOptions,
    ) -> Result<Vec<Vec<DVec2>>> {
        if !opts.simplify.is_finite() || opts.simplify < 0.0 {
            return Err(Error::OutOfRange {
                what: format!("simplify distance of the outline of {}", self.describe(obj)),
                value: opts.simplify,
                range: "0 up, finite",
            });
        }
        self.ensure_inside(obj, parent)?;
        let Some(area) = self.bounds(obj, parent)? else {
            return Ok(Vec::new());
        };
        let copts = CollisionOptions::default()
            .tolerance(opts.tolerance)
            .anti_alias(opts.anti_alias)
            .max_pixels(opts.max_pixels);
        let solid_from = threshold(self.target_tolerance(obj, &copts)?);
        let plane = self.alpha_plane(obj, parent, area, &copts)?;
        let solid: Vec<bool> = plane.alpha().iter().map(|&a| a >= solid_from).collect();
        let loops = trace::trace(&solid, plane.width() as usize, plane.height() as usize);
        // In half pixels from here.
        let loops = simplify::simplify(loops, opts.simplify);
        let (x0, y0) = (plane.x() as f64, plane.y() as f64);
        Ok(loops
            .into_iter()
            .map(|l| {
                l.into_iter()
                    .map(|(x, y)| DVec2::new(x0 + x as f64 / 2.0, y0 + y as f64 / 2.0))
                    .collect()
            })
            .collect())
    }
}
