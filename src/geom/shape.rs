//! Vector graphics of a container: fills and strokes drawn in order below its children.

use std::sync::Arc;

use glam::DAffine2;

use crate::{Bitmap, Error, FillRule, Path, Rect, Result};

/// One entry of a container's graphics: a filled or a stroked path.
///
/// Paths are shared (`Arc`), so cloning a graphic is cheap.
#[derive(Clone, Debug, PartialEq)]
pub enum Graphic {
    /// A filled path.
    Fill(Fill),
    /// A stroked path.
    Stroke(Stroke),
}

/// A filled path with its fill rule and alpha.
#[derive(Clone, Debug, PartialEq)]
pub struct Fill {
    path: Arc<Path>,
    rule: FillRule,
    alpha: f64,
    /// The path's exact box, worked out once: every bounds query needs it.
    path_box: Option<Rect>,
}

/// A stroked path: round joins and round caps, `width` in the local space of its node.
#[derive(Clone, Debug, PartialEq)]
pub struct Stroke {
    path: Arc<Path>,
    width: f64,
    alpha: f64,
    /// The centreline's exact box, worked out once.
    path_box: Option<Rect>,
}

fn check_path(path: &Path) -> Result<()> {
    if path.is_finite() {
        Ok(())
    } else {
        Err(Error::NonFinite {
            what: "a path coordinate".into(),
        })
    }
}

fn check_alpha(alpha: f64) -> Result<()> {
    if (0.0..=1.0).contains(&alpha) {
        Ok(())
    } else {
        Err(Error::OutOfRange {
            what: "graphics alpha".into(),
            value: alpha,
            range: "0..=1",
        })
    }
}

impl Graphic {
    /// A fill.
    ///
    /// # Errors
    ///
    /// [`Error::OutOfRange`] when `alpha` is outside 0..=1 (or NaN), [`Error::NonFinite`] when
    /// the path has a non-finite coordinate.
    ///
    /// ```
    /// use pixelhit::{FillRule, Graphic, Path};
    /// let square = Graphic::fill(Path::rect(0.0, 0.0, 10.0, 10.0), FillRule::NonZero, 1.0)?;
    /// assert!(Graphic::fill(Path::rect(0.0, 0.0, 1.0, 1.0), FillRule::NonZero, 1.5).is_err());
    /// # Ok::<(), pixelhit::Error>(())
    /// ```
    pub fn fill(path: Path, rule: FillRule, alpha: f64) -> Result<Graphic> {
        check_path(&path)?;
        check_alpha(alpha)?;
        Ok(Graphic::Fill(Fill {
            path_box: path.bounds(DAffine2::IDENTITY),
            path: Arc::new(path),
            rule,
            alpha,
        }))
    }

    /// A stroke with round joins and caps.
    ///
    /// # Errors
    ///
    /// As [`Graphic::fill`], and [`Error::OutOfRange`] when `width` is negative or not finite.
    pub fn stroke(path: Path, width: f64, alpha: f64) -> Result<Graphic> {
        check_path(&path)?;
        check_alpha(alpha)?;
        if !(width.is_finite() && width >= 0.0) {
            return Err(Error::OutOfRange {
                what: "stroke width".into(),
                value: width,
                range: "0..",
            });
        }
        Ok(Graphic::Stroke(Stroke {
            path_box: path.bounds(DAffine2::IDENTITY),
            path: Arc::new(path),
            width,
            alpha,
        }))
    }

    /// The path that is filled or stroked.
    pub fn path(&self) -> &Path {
        match self {
            Graphic::Fill(f) => &f.path,
            Graphic::Stroke(s) => &s.path,
        }
    }

    /// The exact box of the path in its own space (the centreline's, for a stroke); `None`
    /// for a path that draws nothing.
    pub(crate) fn path_box(&self) -> Option<Rect> {
        match self {
            Graphic::Fill(f) => f.path_box,
            Graphic::Stroke(s) => s.path_box,
        }
    }

    /// The shared path; caches hold a clone so that its address stays a valid key.
    pub(crate) fn shared_path(&self) -> &Arc<Path> {
        match self {
            Graphic::Fill(f) => &f.path,
            Graphic::Stroke(s) => &s.path,
        }
    }

    /// The alpha of the fill or stroke, 0..=1.
    pub fn alpha(&self) -> f64 {
        match self {
            Graphic::Fill(f) => f.alpha,
            Graphic::Stroke(s) => s.alpha,
        }
    }
}

impl Fill {
    /// The filled path.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// Which points the path covers.
    pub fn rule(&self) -> FillRule {
        self.rule
    }
    /// Alpha, 0..=1.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}

impl Stroke {
    /// The stroked centreline.
    pub fn path(&self) -> &Path {
        &self.path
    }
    /// Stroke width in the local space of the node.
    pub fn width(&self) -> f64 {
        self.width
    }
    /// Alpha, 0..=1.
    pub fn alpha(&self) -> f64 {
        self.alpha
    }
}
/// One drawable thing of a node.
#[derive(Clone, Copy, Debug)]
pub(crate) enum Leaf<'a> {
    Graphic(&'a Graphic),
    Bitmap(&'a Bitmap, bool),
}

impl Leaf<'_> {
    /// The leaf's own box in its space, as Flash's `getBounds` counts it: a path's box,
    /// grown by half the width for a stroke; a bitmap's rectangle. `None` when it has none.
    pub fn flash_box(&self) -> Option<Rect> {
        match self {
            Leaf::Graphic(Graphic::Stroke(s)) => {
                self.centreline_box().and_then(|b| b.outset(s.width() / 2.0))
            }
            _ => self.centreline_box(),
        }
    }

    /// The leaf's own box as Flash's `getRect` counts it: strokes by their centreline.
    pub fn centreline_box(&self) -> Option<Rect> {
        match self {
            Leaf::Graphic(g) => g.path_box(),
            Leaf::Bitmap(bm, _) => Rect::from_ltrb(0.0, 0.0, f64::from(bm.width()), f64::from(bm.height())),
        }
    }
}
