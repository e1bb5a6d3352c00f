//! Vector graphics of a container: fills and strokes drawn in order below its children.

use std::sync::Arc;

use glam::DAffine2;

use crate::geom::content_id::ContentId;
use crate::geom::hull::{self, Kept, KeptHull};

use crate::geom::path::Polylines;
use crate::geom::polygon;
use crate::geom::renderer::Rendered;
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
    /// What caches key the path by (never reused, unlike the `Arc`'s address).
    id: ContentId,
    rule: FillRule,
    alpha: f64,
    /// The path's exact box, worked out once: every bounds query needs it.
    path_box: Option<Rect>,
    /// The convex hull of the path's points, worked out on first use.
    hull: Kept<KeptHull>,
}

/// A stroked path: round joins and round caps, `width` in the local space of its node.
#[derive(Clone, Debug, PartialEq)]
pub struct Stroke {
    path: Arc<Path>,
    /// What caches key the path by.
    id: ContentId,
    width: f64,
    alpha: f64,
    /// The centreline's exact box, worked out once.
    path_box: Option<Rect>,
    /// The convex hull of the points grown by half the width, worked out on first use.
    hull: Kept<KeptHull>,
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
            id: ContentId::fresh(),
            rule,
            alpha,
            hull: Kept::default(),
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
            id: ContentId::fresh(),
            width,
            alpha,
            hull: Kept::default(),
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

    /// What caches key the path by: never the same for two paths, kept by clones.
    pub(crate) fn content_id(&self) -> u64 {
        match self {
            Graphic::Fill(f) => f.id.get(),
            Graphic::Stroke(s) => s.id.get(),
        }
    }

    /// A convex outline, in the path's space, of every pixel the graphic can cover: the hull
    /// of the path's points (every Bézier lies in the hull of its control points), grown by
    /// half the width for a stroke (round joins and caps reach no farther). Flattening can
    /// stray from a curve by its tolerance (1/128 px), which the caller allows for.
    pub(crate) fn hull(&self) -> &KeptHull {
        let points = || self.path().points().to_vec();
        match self {
            Graphic::Fill(f) => f.hull.get_or_init(|| KeptHull::new(points())),
            Graphic::Stroke(s) => s.hull.get_or_init(|| {
                let mut p = points();
                hull::convex_hull(&mut p);
                KeptHull::new(hull::outset(&p, s.width / 2.0))
            }),
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
    /// A bitmap, its smoothing flag, and the renderer whose surface stands for it when it
    /// has one (semantics.md 4.9): that surface is then sampled as an unsmoothed bitmap.
    Bitmap(&'a Bitmap, bool, Option<&'a Rendered>),
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
            Leaf::Bitmap(_, _, Some(r)) => r.rect(),
            Leaf::Bitmap(bm, _, None) => {
                Rect::from_ltrb(0.0, 0.0, f64::from(bm.width()), f64::from(bm.height()))
            }
        }
    }
}

/// A graphic's outline did not fit in the vertex budget; `what` names it for the error ("a
/// fill", "a stroke").
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct OutlineTooLarge {
    pub what: &'static str,
}

impl Graphic {
    /// The rule its outline is read by: a fill's own, non-zero for a stroke's outline.
    pub(crate) fn fill_rule(&self) -> FillRule {
        match self {
            Graphic::Fill(f) => f.rule(),
            Graphic::Stroke(_) => FillRule::NonZero,
        }
    }

    /// What the graphic covers, appended to `out` as contours in the space `m` maps to, and
    /// the fill rule to read them by: a fill's path flattened (to at most `max_points`
    /// points), a stroke's outline (whose size the caller checks first with
    /// `polygon::check_outline` where it must be an error). Curves are flattened to within
    /// `tolerance` (one of [`crate::geom::tolerance`]'s) in the mapped space.
    pub(crate) fn outline(
        &self,
        m: &DAffine2,
        tolerance: f64,
        max_points: usize,
        out: &mut Polylines,
    ) -> std::result::Result<FillRule, OutlineTooLarge> {
        match self {
            Graphic::Fill(f) => match f.path().flatten_within(m, tolerance, out, max_points) {
                true => Ok(f.rule()),
                false => Err(OutlineTooLarge { what: "a fill" }),
            },
            Graphic::Stroke(s) => match polygon::stroke_outline(s.path(), s.width(), m, tolerance, out) {
                true => Ok(FillRule::NonZero),
                false => Err(OutlineTooLarge { what: "a stroke" }),
            },
        }
    }
}
