//! A target's alpha plane over any pixels: the values a precise query compares, for
//! looking at, testing, or effects of your own.

use crate::geom::rect::PixelRect;
use crate::query::pipeline::Target;
use crate::{CollisionOptions, Error, NodeId, Rect, Result, Stage};

/// The alpha of one target over a rectangle of whole pixels of a parent's grid, as
/// [`Stage::alpha_plane`] computes it.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct AlphaPlane {
    x: i64,
    y: i64,
    width: u32,
    height: u32,
    alpha: Vec<u8>,
}

impl AlphaPlane {
    /// Left edge of the first column, in the parent's pixels.
    pub fn x(&self) -> i64 {
        self.x
    }

    /// Top edge of the first row.
    pub fn y(&self) -> i64 {
        self.y
    }

    /// Columns.
    pub fn width(&self) -> u32 {
        self.width
    }

    /// Rows.
    pub fn height(&self) -> u32 {
        self.height
    }

    /// The values, row by row.
    pub fn alpha(&self) -> &[u8] {
        &self.alpha
    }

    /// The value of pixel `(x, y)` (parent's pixels), or `None` outside the plane.
    pub fn get(&self, x: i64, y: i64) -> Option<u8> {
        let (i, j) = (x.checked_sub(self.x)?, y.checked_sub(self.y)?);
        if i < 0 || j < 0 || i >= i64::from(self.width) || j >= i64::from(self.height) {
            return None;
        }
        Some(self.alpha[j as usize * self.width as usize + i as usize])
    }
}

/// A target's alpha plane, the values precise queries compare.
impl Stage {
    /// The alpha of `obj` drawn alone (its visible subtree in paint order, source-over) in
    /// `parent`'s space, over the pixels `area` touches (`floor(left)..ceil(right)`), as
    /// semantics.md 4.5 defines each pixel: the very values [`Stage::collision`] compares
    /// (with `opts.anti_alias`; the window and tolerance options do not matter here). A
    /// pixel's value does not depend on `area`.
    ///
    /// # Errors
    ///
    /// [`Error::NotDescendant`] when `obj` is not inside `parent`, [`Error::PixelBudget`]
    /// when `area` holds more than `opts.max_pixels` pixels, [`Error::WorkBudget`] for edges
    /// crossing each other too often to compute, and the errors of
    /// [`Stage::collision`] for geometry.
    ///
    /// ```
    /// use pixelhit::{CollisionOptions, FillRule, Graphic, Path, Rect, Stage};
    /// let mut stage = Stage::new();
    /// let root = stage.root();
    /// let bar = stage.add_container(root)?;
    /// // A bar a quarter of a pixel high covers a quarter of every pixel it crosses.
    /// stage.add_graphic(bar, Graphic::fill(Path::rect(0.0, 0.3, 4.0, 0.25), FillRule::NonZero, 1.0)?)?;
    /// let plane = stage.alpha_plane(bar, root, Rect::from_ltrb(0.0, 0.0, 4.0, 1.0).unwrap(), &CollisionOptions::default())?;
    /// assert_eq!(plane.alpha(), &[64, 64, 64, 64]);
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn alpha_plane(
        &self,
        obj: NodeId,
        parent: NodeId,
        area: Rect,
        opts: &CollisionOptions,
    ) -> Result<AlphaPlane> {
        self.ensure_inside(obj, parent)?;
        let window = PixelRect::covering(&area);
        if window.area() > u128::from(opts.max_pixels) || window.width() > u64::from(u32::MAX) {
            return Err(Error::PixelBudget {
                pixels: window.area(),
                budget: opts.max_pixels,
            });
        }
        let name = || format!("the pixels of {}", self.describe(obj));
        let [alpha] = self.run_target(&Target::new(obj), parent, opts, |target| {
            self.draw_planes([&target], window, name)
        })?;
        Ok(AlphaPlane {
            x: window.x0,
            y: window.y0,
            width: window.width() as u32,
            height: window.height() as u32,
            alpha,
        })
    }

    /// [`Error::NotDescendant`] unless `obj` is `parent` or inside it.
    pub(crate) fn ensure_inside(&self, obj: NodeId, parent: NodeId) -> Result<()> {
        if !self.is_ancestor(parent, obj)? {
            return Err(Error::NotDescendant {
                node: self.describe(obj),
                ancestor: self.describe(parent),
            });
        }
        Ok(())
    }
}
