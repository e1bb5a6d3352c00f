//! Summed-area tables: two targets' solid pixels counted over any rectangle in constant
//! time, and the overlap found by halving.

use crate::geom::rect::PixelRect;
use crate::methods::scans::{dims, union};
use crate::query::pipeline::Planes;

/// Summed-area tables of both planes' solid pixels: entry `(x, y)` (of `w + 1` per row)
/// counts the solid pixels above and left of pixel `(x, y)`.
pub(super) struct SummedAreas<'a> {
    planes: &'a Planes,
    w: usize,
    h: usize,
    a: Vec<u32>,
    b: Vec<u32>,
}

/// A rectangle of the window, in plane coordinates: columns `x0..x1`, rows `y0..y1`.
#[derive(Clone, Copy)]
pub(super) struct Area {
    x0: usize,
    y0: usize,
    x1: usize,
    y1: usize,
}

impl Area {
    fn size(&self) -> u64 {
        ((self.x1 - self.x0) * (self.y1 - self.y0)) as u64
    }

    /// The two halves along the longer side (the area has more than one pixel).
    fn halves(&self) -> [Area; 2] {
        if self.x1 - self.x0 >= self.y1 - self.y0 {
            let m = (self.x0 + self.x1) / 2;
            [Area { x1: m, ..*self }, Area { x0: m, ..*self }]
        } else {
            let m = (self.y0 + self.y1) / 2;
            [Area { y1: m, ..*self }, Area { y0: m, ..*self }]
        }
    }
}

pub(super) fn table(plane: &[u8], w: usize, h: usize, t: u8) -> Vec<u32> {
    // u32 is enough: a window holds at most the pixel budget, and the tables of a budget
    // above 2^32 pixels would not fit in memory anyway.
    let mut s = vec![0u32; (w + 1) * (h + 1)];
    for y in 0..h {
        let mut run = 0u32;
        for x in 0..w {
            run = run.wrapping_add(u32::from(plane[y * w + x] >= t));
            s[(y + 1) * (w + 1) + x + 1] = s[y * (w + 1) + x + 1].wrapping_add(run);
        }
    }
    s
}

impl SummedAreas<'_> {
    pub(super) fn new(planes: &Planes, t: u8) -> SummedAreas<'_> {
        let (w, h) = dims(planes);
        SummedAreas {
            planes,
            w,
            h,
            a: table(&planes.a, w, h, t),
            b: table(&planes.b, w, h, t),
        }
    }

    fn whole(&self) -> Area {
        Area {
            x0: 0,
            y0: 0,
            x1: self.w,
            y1: self.h,
        }
    }

    /// Solid pixels of `s` in `r`: four lookups.
    fn count(&self, s: &[u32], r: Area) -> u64 {
        let row = self.w + 1;
        let v = s[r.y1 * row + r.x1]
            .wrapping_sub(s[r.y0 * row + r.x1])
            .wrapping_sub(s[r.y1 * row + r.x0])
            .wrapping_add(s[r.y0 * row + r.x0]);
        u64::from(v)
    }

    /// Whether some pixel is solid in both; `(hit, rectangles looked up)`.
    pub(super) fn any(&self) -> (bool, u64) {
        let mut visited = 0u64;
        let mut stack = vec![self.whole()];
        while let Some(r) = stack.pop() {
            if r.size() == 0 {
                continue;
            }
            visited += 1;
            let (ca, cb) = (self.count(&self.a, r), self.count(&self.b, r));
            if ca == 0 || cb == 0 {
                continue;
            }
            // One side solid everywhere and the other somewhere: they share that pixel.
            if ca == r.size() || cb == r.size() {
                return (true, visited);
            }
            stack.extend(r.halves());
        }
        (false, visited)
    }

    /// The overlap's rectangle and count, subdividing only where neither side is solid
    /// everywhere (where one is, the overlap is the other's solid pixels, whose count and
    /// box come from the table).
    pub(super) fn overlap(&self) -> (Option<PixelRect>, u64) {
        let mut rect = None;
        let mut count = 0u64;
        let mut stack = vec![self.whole()];
        while let Some(r) = stack.pop() {
            if r.size() == 0 {
                continue;
            }
            let (ca, cb) = (self.count(&self.a, r), self.count(&self.b, r));
            if ca == 0 || cb == 0 {
                continue;
            }
            let other = if ca == r.size() {
                Some((&self.b, cb))
            } else if cb == r.size() {
                Some((&self.a, ca))
            } else {
                None
            };
            match other {
                Some((s, c)) => {
                    count += c;
                    let tight = self.tight(s, r);
                    let (x0, y0) = (self.planes.window.x0, self.planes.window.y0);
                    rect = union(
                        rect,
                        PixelRect {
                            x0: x0 + tight.x0 as i64,
                            y0: y0 + tight.y0 as i64,
                            x1: x0 + tight.x1 as i64,
                            y1: y0 + tight.y1 as i64,
                        },
                    );
                }
                None => stack.extend(r.halves()),
            }
        }
        (rect, count)
    }

    /// The smallest area inside `r` holding every solid pixel of `s` in `r` (which has
    /// some), by four binary searches on counts.
    fn tight(&self, s: &[u32], r: Area) -> Area {
        // The smallest k in lo..=hi with f(k), f monotone and true at hi.
        let search = |lo: usize, hi: usize, f: &dyn Fn(usize) -> bool| {
            let (mut lo, mut hi) = (lo, hi);
            while lo < hi {
                let mid = (lo + hi) / 2;
                if f(mid) { hi = mid } else { lo = mid + 1 }
            }
            lo
        };
        let y1 = search(r.y0 + 1, r.y1, &|k| self.count(s, Area { y1: k, ..r }) > 0);
        let x1 = search(r.x0 + 1, r.x1, &|k| self.count(s, Area { x1: k, ..r }) > 0);
        // Counting from the other side: the first k whose rows/columns k.. hold nothing.
        let y_end = search(r.y0 + 1, r.y1, &|k| self.count(s, Area { y0: k, ..r }) == 0);
        let x_end = search(r.x0 + 1, r.x1, &|k| self.count(s, Area { x0: k, ..r }) == 0);
        Area {
            x0: x1 - 1,
            y0: y1 - 1,
            x1: x_end.max(x1),
            y1: y_end.max(y1),
        }
    }
}
