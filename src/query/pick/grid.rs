//! A uniform grid of root-space boxes: which boxes hold a point, in time proportional to
//! the boxes near it.

use glam::DVec2;

use crate::Rect;

/// Boxes covering more grid cells than this are kept in a list tested at every lookup (a
/// background, a full-screen panel): few, and cheaper than filling many cells.
const MAX_CELLS_PER_BOX: u64 = 64;

/// Boxes by number, in a grid of about one cell per box over their union.
#[derive(Debug)]
pub(crate) struct Grid {
    boxes: Vec<Rect>,
    big: Vec<u32>,
    origin: DVec2,
    cell: f64,
    columns: u64,
    rows: u64,
    /// Cell `k`'s boxes are `items[starts[k]..starts[k + 1]]`.
    starts: Vec<u32>,
    items: Vec<u32>,
}

impl Grid {
    /// Puts every box into the grid's cells.
    pub fn new(boxes: Vec<Rect>) -> Grid {
        let mut grid = Grid {
            boxes,
            big: Vec::new(),
            origin: DVec2::ZERO,
            cell: 1.0,
            columns: 0,
            rows: 0,
            starts: vec![0],
            items: Vec::new(),
        };
        let Some(all) = grid.boxes.iter().copied().reduce(|a, b| a.union(&b)) else {
            return grid;
        };
        let n = grid.boxes.len() as f64;
        grid.cell = ((all.width() * all.height() / n).sqrt()).max(1.0);
        grid.origin = DVec2::new(all.left(), all.top());
        grid.columns = ((all.width() / grid.cell).ceil() as u64).clamp(1, 4096);
        grid.rows = ((all.height() / grid.cell).ceil() as u64).clamp(1, 4096);
        grid.cell = grid
            .cell
            .max(all.width() / grid.columns as f64)
            .max(all.height() / grid.rows as f64);
        let cells = (grid.columns * grid.rows) as usize;
        let mut counts = vec![0u32; cells + 1];
        let mut placed = Vec::with_capacity(grid.boxes.len());
        for (k, b) in grid.boxes.iter().enumerate() {
            let (c0, r0) = grid.cell_of(DVec2::new(b.left(), b.top()));
            let (c1, r1) = grid.cell_of(DVec2::new(b.right(), b.bottom()));
            if (c1 - c0 + 1) * (r1 - r0 + 1) > MAX_CELLS_PER_BOX {
                grid.big.push(k as u32);
                continue;
            }
            for r in r0..=r1 {
                for c in c0..=c1 {
                    counts[(r * grid.columns + c) as usize] += 1;
                }
            }
            placed.push((k as u32, c0, r0, c1, r1));
        }
        let mut starts = Vec::with_capacity(cells + 1);
        let mut sum = 0u32;
        for c in &counts {
            starts.push(sum);
            sum += c;
        }
        let mut fill = starts.clone();
        let mut items = vec![0u32; sum as usize];
        for (k, c0, r0, c1, r1) in placed {
            for r in r0..=r1 {
                for c in c0..=c1 {
                    let cell = (r * grid.columns + c) as usize;
                    items[fill[cell] as usize] = k;
                    fill[cell] += 1;
                }
            }
        }
        grid.starts = starts;
        grid.items = items;
        grid
    }

    /// The cell holding `p`, clamped into the grid.
    fn cell_of(&self, p: DVec2) -> (u64, u64) {
        let q = (p - self.origin) / self.cell;
        let clamp = |v: f64, n: u64| (v.floor().max(0.0) as u64).min(n - 1);
        (clamp(q.x, self.columns), clamp(q.y, self.rows))
    }

    /// The numbers of the boxes that hold `p`.
    pub fn at(&self, p: DVec2, mut f: impl FnMut(usize)) {
        let mut each = |k: u32| {
            if self.boxes[k as usize].contains(p) {
                f(k as usize);
            }
        };
        for &k in &self.big {
            each(k);
        }
        if self.columns == 0 {
            return;
        }
        let q = (p - self.origin) / self.cell;
        if q.x < 0.0 || q.y < 0.0 || q.x >= self.columns as f64 || q.y >= self.rows as f64 {
            return;
        }
        let cell = (q.y as u64 * self.columns + q.x as u64) as usize;
        for &k in &self.items[self.starts[cell] as usize..self.starts[cell + 1] as usize] {
            each(k);
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The grid finds exactly the boxes a plain scan finds, for boxes of every size.
    #[test]
    fn the_grid_finds_what_a_scan_finds() {
        let mut seed = 7u64;
        let mut next = move || {
            seed = seed
                .wrapping_mul(6364136223846793005)
                .wrapping_add(1442695040888963407);
            (seed >> 11) as f64 / (1u64 << 53) as f64
        };
        let boxes: Vec<Rect> = (0..500)
            .map(|i| {
                let side = if i % 50 == 0 { 900.0 } else { 1.0 + 40.0 * next() };
                Rect::from_xywh(1000.0 * next() - 100.0, 1000.0 * next() - 100.0, side, side).unwrap()
            })
            .collect();
        let grid = Grid::new(boxes.clone());
        for _ in 0..2000 {
            let p = DVec2::new(1200.0 * next() - 150.0, 1200.0 * next() - 150.0);
            let mut found = Vec::new();
            grid.at(p, |k| found.push(k));
            found.sort_unstable();
            let scan: Vec<usize> = (0..boxes.len()).filter(|&k| boxes[k].contains(p)).collect();
            assert_eq!(found, scan, "at {p}");
        }
    }
}
