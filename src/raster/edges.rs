//! Geometry snapping: an item's outline as straight edges with integer end points on the
//! 1/256 px grid, relative to the item's anchor.
//!
//! Everything downstream (area coverage, centre tests) reads only these integers, so an
//! item's value at a pixel is a function of its edges and that pixel alone, and an item
//! that moves by whole pixels (its anchor moves) has the very same edges.

use glam::{DAffine2, DVec2};

use crate::geom::path::Polylines;
use crate::geom::rect::PixelRect;
use crate::geom::whole::round_small;

/// Grid steps per pixel: vertices are snapped to multiples of 1/GRID px.
pub(crate) const GRID: i64 = 256;

/// Largest distance of a snapped vertex from its item's anchor, in pixels (2^40, about
/// 1.1e12). Past it a vertex could not be told apart from its neighbours in f64 after the
/// arithmetic of a row; geometry reaching that far is refused by the caller.
pub(crate) const FAR_LIMIT: f64 = 1_099_511_627_776.0;

/// One non-horizontal edge, top to bottom, in grid units relative to the anchor.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Edge {
    pub x_top: i64,
    pub top: i64,
    pub x_bottom: i64,
    pub bottom: i64,
    /// +1 when the contour runs down (y grows) along it, -1 when it runs up.
    pub dir: i8,
}

impl Edge {
    /// What fills an inline array's unused places (never read as an edge).
    const UNUSED: Edge = Edge {
        x_top: 0,
        top: 0,
        x_bottom: 0,
        bottom: 0,
        dir: 0,
    };

    /// The edge from `a` to `b` (grid units), or `None` when it is horizontal.
    pub fn new(a: (i64, i64), b: (i64, i64)) -> Option<Edge> {
        match a.1.cmp(&b.1) {
            std::cmp::Ordering::Equal => None,
            std::cmp::Ordering::Less => Some(Edge {
                x_top: a.0,
                top: a.1,
                x_bottom: b.0,
                bottom: b.1,
                dir: 1,
            }),
            std::cmp::Ordering::Greater => Some(Edge {
                x_top: b.0,
                top: b.1,
                x_bottom: a.0,
                bottom: a.1,
                dir: -1,
            }),
        }
    }
}

/// `v` (pixels) on the grid, in grid units, or `None` past [`FAR_LIMIT`] or not finite.
pub(crate) fn snap(v: DVec2) -> Option<(i64, i64)> {
    if !(v.x.abs() <= FAR_LIMIT && v.y.abs() <= FAR_LIMIT) {
        return None;
    }
    // Within the limit a coordinate is below 2^48 grid units: rounded without the library
    // call (a turning sprite's pose snaps its quad's four corners every frame).
    let g = GRID as f64;
    Some((round_small(v.x * g), round_small(v.y * g)))
}

/// Edges held inline: a bitmap's quad has up to four.
const INLINE_EDGES: usize = 4;

/// An item's edges: up to [`INLINE_EDGES`] held inline, more in a vector. A bitmap's quad
/// is made for every pose of a turning sprite and kept in the cache; inline, a new pose
/// allocates nothing for it (a thousand blocks a frame at 1,000 turning rocks before).
#[derive(Clone, Debug)]
pub(crate) enum EdgeList {
    Few { edges: [Edge; INLINE_EDGES], len: u8 },
    Many(Vec<Edge>),
}

impl Default for EdgeList {
    fn default() -> Self {
        EdgeList::Many(Vec::new())
    }
}

impl std::ops::Deref for EdgeList {
    type Target = [Edge];
    fn deref(&self) -> &[Edge] {
        match self {
            EdgeList::Few { edges, len } => &edges[..usize::from(*len)],
            EdgeList::Many(all) => all,
        }
    }
}

impl std::ops::DerefMut for EdgeList {
    fn deref_mut(&mut self) -> &mut [Edge] {
        match self {
            EdgeList::Few { edges, len } => &mut edges[..usize::from(*len)],
            EdgeList::Many(all) => all,
        }
    }
}

impl PartialEq for EdgeList {
    fn eq(&self, other: &Self) -> bool {
        **self == **other
    }
}

impl Eq for EdgeList {}

impl EdgeList {
    /// Up to [`INLINE_EDGES`] edges, inline.
    fn few(found: &[Edge]) -> EdgeList {
        let mut edges = [Edge::UNUSED; INLINE_EDGES];
        let len = found.len().min(INLINE_EDGES);
        edges[..len].copy_from_slice(&found[..len]);
        EdgeList::Few {
            edges,
            len: len as u8,
        }
    }

    /// Adds an edge at the end.
    pub fn push(&mut self, e: Edge) {
        match self {
            EdgeList::Many(all) => all.push(e),
            EdgeList::Few { edges, len } if usize::from(*len) < INLINE_EDGES => {
                edges[usize::from(*len)] = e;
                *len += 1;
            }
            EdgeList::Few { edges, .. } => {
                let mut all = edges.to_vec();
                all.push(e);
                *self = EdgeList::Many(all);
            }
        }
    }

    /// Heap memory it holds (inline edges are in the size of what holds them).
    pub fn heap_bytes(&self) -> usize {
        match self {
            EdgeList::Few { .. } => 0,
            EdgeList::Many(all) => all.capacity() * std::mem::size_of::<Edge>(),
        }
    }
}

/// An item's edges, sorted by their top, and the pixels they can touch.
#[derive(Clone, Debug, Default)]
pub(crate) struct Edges {
    pub edges: EdgeList,
    /// Pixels (relative to the anchor) any part of the edges reaches; empty when no edge.
    pub rect: PixelRect,
}

/// Up to this many edges are sorted by insertion ([`Edges::finish`]).
const SMALL_SORT: usize = 8;

/// The order of an item's edges: by top, then the rest of the edge.
fn sort_key(e: &Edge) -> (i64, i64, i64, i64, i8) {
    (e.top, e.bottom, e.x_top, e.x_bottom, e.dir)
}

/// A few edges sorted by insertion, in place: stable, as `sort_by_key` is, so the same
/// order, at a third of its set-up (a bitmap's quad has four).
fn sort_few(edges: &mut [Edge]) {
    for i in 1..edges.len() {
        let mut j = i;
        while j > 0 && sort_key(&edges[j - 1]) > sort_key(&edges[j]) {
            edges.swap(j - 1, j);
            j -= 1;
        }
    }
}

/// The pixels (relative to the anchor) any part of `edges` reaches; empty when none.
fn pixels_reached(edges: &[Edge]) -> PixelRect {
    let mut r: Option<(i64, i64, i64, i64)> = None;
    for e in edges {
        let (l, rr) = (e.x_top.min(e.x_bottom), e.x_top.max(e.x_bottom));
        r = Some(match r {
            None => (l, e.top, rr, e.bottom),
            Some((x0, y0, x1, y1)) => (x0.min(l), y0.min(e.top), x1.max(rr), y1.max(e.bottom)),
        });
    }
    match r {
        None => PixelRect::default(),
        Some((x0, y0, x1, y1)) => PixelRect {
            x0: x0.div_euclid(GRID),
            y0: y0.div_euclid(GRID),
            x1: (x1 + GRID - 1).div_euclid(GRID),
            y1: (y1 + GRID - 1).div_euclid(GRID),
        },
    }
}

/// Why a contour could not be snapped.
#[derive(Debug, PartialEq, Eq)]
pub(crate) struct TooFar;

impl Edges {
    /// The closed contours of `local` mapped by `rel` (the item's matrix relative to its
    /// anchor) and snapped, every contour closed.
    ///
    /// # Errors
    ///
    /// [`TooFar`] when a vertex lands farther than [`FAR_LIMIT`] from the anchor.
    pub fn from_contours(local: &Polylines, rel: &DAffine2) -> Result<Edges, TooFar> {
        Edges::from_contours_in(local, rel, Vec::new())
    }

    /// [`Edges::from_contours`] in the room of `room` (emptied first): a turning fill's new
    /// pose reuses the vector of a pose an age dropped. Each contour's edges are made as
    /// its points are snapped, closing edge last; [`Edges::finish`] sorts them by their
    /// whole value, so the order they were made in does not show.
    ///
    /// # Errors
    ///
    /// As [`Edges::from_contours`].
    pub fn from_contours_in(local: &Polylines, rel: &DAffine2, mut room: Vec<Edge>) -> Result<Edges, TooFar> {
        room.clear();
        // A contour of n points makes at most n edges: room for all at once, where a new
        // vector grew by doubling (a turning star's 60 edges: six reallocations and their
        // copies, 1.7 M instructions a frame of the dense crowd).
        room.reserve(local.points.len());
        let mut out = Edges {
            edges: EdgeList::Many(room),
            rect: PixelRect::default(),
        };
        for c in &local.contours {
            let mut points = local.slice(c).iter().map(|p| snap(rel.transform_point2(*p)));
            let Some(first) = points.next() else { continue };
            let first = first.ok_or(TooFar)?;
            let mut prev = first;
            for p in points {
                let p = p.ok_or(TooFar)?;
                if let Some(e) = Edge::new(prev, p) {
                    out.edges.push(e);
                }
                prev = p;
            }
            if let Some(e) = Edge::new(prev, first) {
                out.edges.push(e);
            }
        }
        out.finish();
        Ok(out)
    }

    /// Its vector of edges, emptied, for another item's edges to be made in (none when its
    /// edges are inline).
    pub fn take_room(&mut self) -> Vec<Edge> {
        let mut room = match std::mem::take(&mut self.edges) {
            EdgeList::Many(all) => all,
            EdgeList::Few { .. } => Vec::new(),
        };
        room.clear();
        self.rect = PixelRect::default();
        room
    }

    /// The closed polygon through `points` (grid units): what the tests make edges with
    /// to check [`Edges::from_contours_in`] and [`Edges::quad`] against.
    #[cfg(test)]
    pub fn push_closed(&mut self, points: &[(i64, i64)]) {
        let Some(&last) = points.last() else { return };
        let mut prev = last;
        for &p in points {
            if let Some(e) = Edge::new(prev, p) {
                self.edges.push(e);
            }
            prev = p;
        }
    }

    /// The closed quad through `corners` (grid units), finished: the edges and pixels
    /// [`Edges::push_closed`] and [`Edges::finish`] give, made and sorted on the stack and
    /// held inline (a bitmap's quad, made for every pose of a turning sprite).
    pub fn quad(corners: [(i64, i64); 4]) -> Edges {
        let (mut found, mut n) = ([Edge::UNUSED; 4], 0);
        let mut prev = corners[3];
        for p in corners {
            if let Some(e) = Edge::new(prev, p) {
                found[n] = e;
                n += 1;
            }
            prev = p;
        }
        let found = &mut found[..n];
        sort_few(found);
        Edges {
            edges: EdgeList::few(found),
            rect: pixels_reached(found),
        }
    }

    /// Sorts the edges by top and works out the pixels they can touch.
    pub fn finish(&mut self) {
        if self.edges.len() <= SMALL_SORT {
            sort_few(&mut self.edges);
        } else {
            self.edges.sort_by_key(sort_key);
        }
        self.rect = pixels_reached(&self.edges);
    }

    /// The pixels (relative to the anchor) wholly inside the edges when they are one
    /// axis-aligned rectangle (two vertical edges of opposite directions over the same
    /// rows): there both the area and the centre rules give full coverage under either
    /// fill rule. No pixels otherwise.
    pub fn solid_rect(&self) -> PixelRect {
        let [a, b] = &self.edges[..] else {
            return PixelRect::default();
        };
        let vertical = |e: &Edge| e.x_top == e.x_bottom;
        if !(vertical(a) && vertical(b) && a.top == b.top && a.bottom == b.bottom && a.dir != b.dir) {
            return PixelRect::default();
        }
        let (left, right) = (a.x_top.min(b.x_top), a.x_top.max(b.x_top));
        let up = |v: i64| v.div_euclid(GRID) + i64::from(v.rem_euclid(GRID) != 0);
        let solid = PixelRect {
            x0: up(left),
            y0: up(a.top),
            x1: right.div_euclid(GRID),
            y1: a.bottom.div_euclid(GRID),
        };
        if solid.is_empty() {
            PixelRect::default()
        } else {
            solid
        }
    }

    /// Memory the edges hold outside what holds them.
    pub fn bytes(&self) -> usize {
        self.edges.heap_bytes()
    }
}

/// Walks the edges of pixel rows from top to bottom, keeping the list of edges that reach
/// into the current row, so that each row sees only its own edges.
pub(crate) struct ActiveEdges<'a> {
    edges: &'a [Edge],
    next: usize,
    pub active: Vec<Edge>,
}

impl<'a> ActiveEdges<'a> {
    pub fn new(edges: &'a [Edge], mut active: Vec<Edge>) -> ActiveEdges<'a> {
        active.clear();
        ActiveEdges {
            edges,
            next: 0,
            active,
        }
    }

    /// Moves to the band `[y0, y1)` (grid units; bands must come in increasing order):
    /// afterwards `active` holds the edges with `top < y1` and `bottom > y0`, in the order of
    /// the item's sorted edges.
    pub fn advance(&mut self, y0: i64, y1: i64) {
        self.active.retain(|e| e.bottom > y0);
        while let Some(e) = self.edges.get(self.next) {
            if e.top >= y1 {
                break;
            }
            if e.bottom > y0 {
                self.active.push(*e);
            }
            self.next += 1;
        }
    }

    /// Gives the buffer back for reuse.
    pub fn into_buffer(self) -> Vec<Edge> {
        self.active
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn horizontal_edges_are_dropped_and_others_point_down() {
        assert_eq!(Edge::new((0, 5), (9, 5)), None);
        let e = Edge::new((10, 20), (0, 0)).unwrap();
        assert_eq!((e.x_top, e.top, e.x_bottom, e.bottom, e.dir), (0, 0, 10, 20, -1));
    }

    #[test]
    fn snapping_is_to_the_nearest_grid_point_and_refuses_far_points() {
        assert_eq!(snap(DVec2::new(1.0 / 512.0 + 1e-9, -0.3)), Some((1, -77)));
        assert_eq!(snap(DVec2::new(2e12, 0.0)), None);
        assert_eq!(snap(DVec2::new(f64::NAN, 0.0)), None);
    }

    #[test]
    fn the_rect_holds_every_pixel_the_edges_reach() {
        let mut e = Edges::default();
        e.push_closed(&[(-1, 0), (512, 0), (512, 257)]);
        e.finish();
        assert_eq!(
            e.rect,
            PixelRect {
                x0: -1,
                y0: 0,
                x1: 2,
                y1: 2
            }
        );
    }

    /// A few edges are sorted by insertion, many by the library: both give the order of
    /// `sort_by_key` on the full key, over 5,000 random polygons of 3 to 12 vertices on a
    /// small grid (so that tops, bottoms and whole edges tie).
    #[test]
    fn small_and_large_sorts_give_the_library_order() {
        let mut rng = super::super::test_rng::Rng(0x51ed_2701_7a3c_9e4b);
        let mut next = |n: i64| rng.below(n);
        for _ in 0..5_000 {
            let n = 3 + next(10) as usize;
            let points: Vec<(i64, i64)> = (0..n).map(|_| (next(4) * 128, next(4) * 128)).collect();
            let mut e = Edges::default();
            e.push_closed(&points);
            let mut want = e.edges.clone();
            want.sort_by_key(sort_key);
            e.finish();
            assert_eq!(e.edges, want, "{points:?}");
        }
    }

    /// A quad made on the stack is the quad pushed and finished, edges and pixels, held
    /// inline, over 5,000 random quads on a small grid: turned, axis-aligned, flat and
    /// folded ones (corners repeated or in a line).
    #[test]
    fn a_quad_is_its_corners_pushed_and_finished() {
        let mut rng = super::super::test_rng::Rng(0x1b87_3593_cc9e_2d51);
        let mut next = |n: i64| rng.below(n);
        let mut counts = [0; 5];
        for _ in 0..5_000 {
            let corners: [(i64, i64); 4] =
                std::array::from_fn(|_| (next(5) * 200 - 300, next(5) * 200 - 300));
            let got = Edges::quad(corners);
            let mut want = Edges::default();
            want.push_closed(&corners);
            want.finish();
            assert_eq!(got.edges, want.edges, "{corners:?}");
            assert_eq!(got.rect, want.rect, "{corners:?}");
            assert!(matches!(got.edges, EdgeList::Few { .. }), "{corners:?}");
            assert_eq!(got.bytes(), 0, "{corners:?}");
            counts[got.edges.len()] += 1;
        }
        // Every count of edges a closed quad can have came up (never one: what goes
        // down comes back up).
        assert!(
            counts[1] == 0 && [0, 2, 3, 4].iter().all(|&n| counts[n] > 0),
            "{counts:?}"
        );
    }

    /// Edges pushed past the inline room move to a vector, in order: the list reads as
    /// the same edges pushed onto a vector, at every length from 0 to 9.
    #[test]
    fn edges_pushed_past_the_inline_room_stay_in_order() {
        let mut rng = super::super::test_rng::Rng(0x2545_f491_4f6c_dd1d);
        for n in 0..10 {
            let mut all = Vec::new();
            while all.len() < n {
                let (a, b) = ((rng.below(9), rng.below(9)), (rng.below(9), rng.below(9)));
                all.extend(Edge::new(a, b));
            }
            let mut list = EdgeList::few(&[]);
            for &e in &all {
                list.push(e);
            }
            assert_eq!(&list[..], &all[..]);
            assert_eq!(matches!(list, EdgeList::Few { .. }), n <= INLINE_EDGES, "{n}");
        }
    }

    /// Edges made as the points are snapped, in the room of an old vector, are the
    /// contours' points snapped and pushed closed, then finished, over 2,000 random sets
    /// of one to four contours of one to nine points on a small grid (repeated points,
    /// flat and horizontal edges), turned and scaled; a point too far refuses the whole.
    #[test]
    fn contours_made_in_a_vectors_room_are_the_snapped_polygons() {
        use crate::geom::path::Polylines;
        let mut rng = super::super::test_rng::Rng(0x6c07_8965_d1b5_4a32);
        let mut room = Vec::new();
        for case in 0..2_000 {
            let mut local = Polylines::default();
            for _ in 0..1 + rng.below(4) {
                let n = 1 + rng.below(9);
                let pts: Vec<DVec2> = (0..n)
                    .map(|_| DVec2::new(rng.below(6) as f64 * 1.5 - 4.0, rng.below(6) as f64 * 1.5 - 4.0))
                    .collect();
                local.push_contour(pts, true);
            }
            let turn = rng.below(360) as f64;
            let rel = DAffine2::from_scale_angle_translation(
                DVec2::splat(0.5 + rng.below(4) as f64),
                turn.to_radians(),
                DVec2::new(0.25, 0.75),
            );
            let mut want = Edges::default();
            for c in &local.contours {
                let snapped: Vec<(i64, i64)> = local
                    .slice(c)
                    .iter()
                    .map(|p| snap(rel.transform_point2(*p)).unwrap())
                    .collect();
                want.push_closed(&snapped);
            }
            want.finish();
            let got = Edges::from_contours_in(&local, &rel, room).unwrap();
            assert_eq!((&got.edges, got.rect), (&want.edges, want.rect), "case {case}");
            let mut got = got;
            room = got.take_room();
            assert!(room.is_empty() && got.edges.is_empty());
        }
        let mut far = Polylines::default();
        far.push_contour([DVec2::ZERO, DVec2::new(FAR_LIMIT * 2.0, 0.0), DVec2::ONE], true);
        assert_eq!(
            Edges::from_contours_in(&far, &DAffine2::IDENTITY, room).err(),
            Some(TooFar)
        );
    }

    #[test]
    fn active_edges_follow_the_rows() {
        let mut e = Edges::default();
        e.push_closed(&[(0, 0), (0, 512), (256, 512)]);
        e.finish();
        let mut a = ActiveEdges::new(&e.edges, Vec::new());
        a.advance(0, 256);
        assert_eq!(a.active.len(), 2);
        a.advance(512, 768);
        assert!(a.active.is_empty());
    }

    /// The solid box of a rectangle is exactly its pixels wholly inside (counted one by
    /// one), in every orientation; anything but one rectangle has none.
    #[test]
    fn solid_rect_is_the_pixels_wholly_inside() {
        let mut seed = 11u64;
        let mut next = |n: i64| {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 33) as i64 % n
        };
        for _ in 0..2000 {
            let (l, t) = (next(2000) - 1000, next(2000) - 1000);
            let (r, b) = (l + 1 + next(1500), t + 1 + next(1500));
            let mut corners = [(l, t), (r, t), (r, b), (l, b)];
            corners.rotate_left(next(4) as usize);
            if next(2) == 0 {
                corners.reverse();
            }
            let mut e = Edges::default();
            e.push_closed(&corners);
            e.finish();
            let solid = e.solid_rect();
            let inside = |p: i64, lo: i64, hi: i64| lo <= p * GRID && (p + 1) * GRID <= hi;
            for py in -5..7 {
                for px in -5..7 {
                    let (x, y) = (l.div_euclid(GRID) + px, t.div_euclid(GRID) + py);
                    let want = inside(x, l, r) && inside(y, t, b);
                    let got = solid.x0 <= x && x < solid.x1 && solid.y0 <= y && y < solid.y1;
                    assert_eq!(got, want, "({x}, {y}) in {corners:?}");
                }
            }
        }
        // A triangle, and a rectangle with a vertex more on a side.
        let mut e = Edges::default();
        e.push_closed(&[(0, 0), (2560, 0), (0, 2560)]);
        e.finish();
        assert!(e.solid_rect().is_empty());
        let mut e = Edges::default();
        e.push_closed(&[(0, 0), (2560, 0), (2560, 1280), (2560, 2560), (0, 2560)]);
        e.finish();
        assert!(e.solid_rect().is_empty());
    }
}
