//! Flattened contours: the polylines a path is flattened into, in one reusable buffer.

#[cfg(test)]
use glam::DAffine2;
use glam::DVec2;

#[cfg(test)]
use crate::geom::rect::Rect;

/// Flattened contours, reusable buffer (clear() keeps capacity).
#[derive(Clone, Debug, Default)]
pub(crate) struct Polylines {
    /// The points of every contour, one after the other.
    pub points: Vec<DVec2>,
    /// Which runs of `points` form contours.
    pub contours: Vec<Contour>,
}

/// One contour: `points[start..end]` of its [`Polylines`].
#[derive(Clone, Copy, Debug)]
pub(crate) struct Contour {
    /// First point.
    pub start: usize,
    /// One past the last point.
    pub end: usize,
    /// Whether the subpath was closed with `Z` (fills treat every contour as closed).
    pub closed: bool,
}

impl Polylines {
    /// Empties the buffer, keeping its capacity for the next use.
    pub fn clear(&mut self) {
        self.points.clear();
        self.contours.clear();
    }

    /// The points of contour `i`; empty when there is no such contour.
    pub fn contour(&self, i: usize) -> &[DVec2] {
        self.contours.get(i).map_or(&[], |c| self.slice(c))
    }

    /// The points of a contour, tolerating bad indices rather than panicking.
    pub fn slice(&self, c: &Contour) -> &[DVec2] {
        self.points.get(c.start..c.end).unwrap_or(&[])
    }

    /// Box of every contour's points; `None` when there is none or one is not finite.
    #[cfg(test)]
    pub fn bounds(&self) -> Option<Rect> {
        Rect::from_points(self.contours.iter().flat_map(|c| self.slice(c).iter().copied()))
    }

    /// Appends another set.
    #[cfg(test)]
    pub fn extend_from(&mut self, other: &Polylines) {
        let off = self.points.len();
        self.points.extend_from_slice(&other.points);
        self.contours.extend(other.contours.iter().map(|c| Contour {
            start: c.start + off,
            end: c.end + off,
            closed: c.closed,
        }));
    }

    /// Maps every point by `m`.
    #[cfg(test)]
    pub fn transform(&mut self, m: &DAffine2) {
        for p in &mut self.points {
            *p = m.transform_point2(*p);
        }
    }

    /// The contours as a closed tiny-skia path, each point mapped by `map` (which moves it
    /// near the pixmap it is drawn into), or `None` when nothing is left.
    pub fn to_skia_path(&self, map: impl Fn(DVec2) -> DVec2) -> Option<tiny_skia::Path> {
        let mut pb = tiny_skia::PathBuilder::new();
        for i in 0..self.contours.len() {
            let mut pts = self.contour(i).iter().map(|&p| map(p));
            let Some(first) = pts.next() else { continue };
            pb.move_to(first.x as f32, first.y as f32);
            for p in pts {
                pb.line_to(p.x as f32, p.y as f32);
            }
            pb.close();
        }
        pb.finish()
    }

    /// Appends `pts` as one contour (nothing when `pts` is empty).
    pub fn push_contour(&mut self, pts: impl IntoIterator<Item = DVec2>, closed: bool) {
        let start = self.points.len();
        self.points.extend(pts);
        let end = self.points.len();
        if end > start {
            self.contours.push(Contour { start, end, closed });
        }
    }
}
