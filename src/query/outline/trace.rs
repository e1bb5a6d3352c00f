//! The boundary of a grid of solid pixels traced into closed loops along pixel edges.
//!
//! Every edge between a solid pixel and a clear one (or the outside) is on exactly one
//! loop, so under the even-odd rule a point is inside the loops exactly when it lies in a
//! solid pixel's open square: a pixel's centre is inside exactly when the pixel is solid.

/// Headings on the vertex grid (y down), in clockwise order so that `(d + 1) % 4` is a
/// right turn.
const STEPS: [(i64, i64); 4] = [(1, 0), (0, 1), (-1, 0), (0, -1)];

/// The loops around the solid pixels of a `width` x `height` grid (row by row), as
/// corner vertices in the grid's own coordinates (pixel `(i, j)` is the square from
/// `(i, j)` to `(i + 1, j + 1)`). Each loop goes clockwise on screen around solid pixels
/// (so holes go the other way) and lists only the vertices where it turns.
pub(crate) fn trace(solid: &[bool], width: usize, height: usize) -> Vec<Vec<(i64, i64)>> {
    let (vw, vh) = (width + 1, height + 1);
    let is_solid = |i: i64, j: i64| {
        i >= 0
            && j >= 0
            && (i as usize) < width
            && (j as usize) < height
            && solid[j as usize * width + i as usize]
    };
    // Outgoing edges of each vertex, one bit per heading: the sides of solid pixels that
    // face a clear one, walked with the solid pixel on the right.
    let mut out = vec![0u8; vw * vh];
    for j in 0..height as i64 {
        for i in 0..width as i64 {
            if !is_solid(i, j) {
                continue;
            }
            let sides = [
                ((i, j - 1), (i, j), 0),
                ((i + 1, j), (i + 1, j), 1),
                ((i, j + 1), (i + 1, j + 1), 2),
                ((i - 1, j), (i, j + 1), 3),
            ];
            for ((ni, nj), (vx, vy), heading) in sides {
                if !is_solid(ni, nj) {
                    out[vy as usize * vw + vx as usize] |= 1 << heading;
                }
            }
        }
    }
    // Where two solid pixels meet only at a corner the vertex has two ways out; turning
    // right keeps walking around the same pixel, so such pixels get loops of their own.
    let saddle: Vec<bool> = out.iter().map(|&b| b.count_ones() == 2).collect();
    let choose = |v: usize, heading: usize, bits: u8| -> usize {
        if saddle[v] {
            (heading + 1) % 4
        } else {
            bits.trailing_zeros() as usize
        }
    };
    let original = out.clone();
    let mut loops = Vec::new();
    for start in 0..out.len() {
        while out[start] != 0 {
            let first = out[start].trailing_zeros() as usize;
            let mut corners = vec![((start % vw) as i64, (start / vw) as i64)];
            let (mut v, mut heading) = (start, first);
            loop {
                out[v] &= !(1 << heading);
                let (dx, dy) = STEPS[heading];
                let (x, y) = ((v % vw) as i64 + dx, (v / vw) as i64 + dy);
                v = y as usize * vw + x as usize;
                let next = choose(v, heading, original[v]);
                if v == start && next == first {
                    if heading == first {
                        // The start was in the middle of a straight run.
                        corners.remove(0);
                    }
                    break;
                }
                if next != heading {
                    corners.push((x, y));
                }
                heading = next;
            }
            loops.push(corners);
        }
    }
    loops
}

#[cfg(test)]
mod tests {
    use super::*;

    fn grid(rows: &[&str]) -> (Vec<bool>, usize, usize) {
        let solid = rows.iter().flat_map(|r| r.bytes().map(|b| b == b'#')).collect();
        (solid, rows[0].len(), rows.len())
    }

    #[test]
    fn a_ring_gives_an_outer_loop_and_a_hole_turning_the_other_way() {
        let (s, w, h) = grid(&["###", "#.#", "###"]);
        let loops = trace(&s, w, h);
        assert_eq!(
            loops,
            vec![
                vec![(0, 0), (3, 0), (3, 3), (0, 3)],
                vec![(1, 1), (1, 2), (2, 2), (2, 1)],
            ]
        );
    }

    #[test]
    fn pixels_meeting_at_a_corner_get_a_loop_each() {
        let (s, w, h) = grid(&["#.", ".#"]);
        let loops = trace(&s, w, h);
        assert_eq!(loops.len(), 2);
        assert!(loops.iter().all(|l| l.len() == 4));
    }
}
