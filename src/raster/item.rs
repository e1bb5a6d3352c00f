//! One item (a fill, a stroke's outline, or a bitmap) placed in a pose, and its value at
//! any pixel: the one definition of coverage that every query reads (semantics.md 4.5).

use std::sync::Arc;

use glam::DAffine2;

use super::centres::{inside, winding_row};
use super::coverage::{CoverageRow, ONE};
use super::edges::{ActiveEdges, Edge, Edges, GRID};
use super::sample::{Texels, centre_in_texels};
use crate::FillRule;
use crate::rect::PixelRect;

/// What an item draws in its pose, relative to its anchor.
#[derive(Debug)]
pub(crate) enum Shape {
    /// A fill or a stroke outline: `alpha` times its coverage.
    Fill { edges: Edges, rule: FillRule, alpha: u8 },
    /// A bitmap: `inverse` maps pixels (relative to the anchor) to texels; `quad` is its
    /// rectangle's outline, whose coverage anti-aliases its edges.
    Bitmap {
        texels: Arc<Texels>,
        inverse: DAffine2,
        smoothing: bool,
        quad: Edges,
    },
}

/// Reusable buffers for computing rows.
#[derive(Default, Debug)]
pub(crate) struct Scratch {
    coverage: CoverageRow,
    active: Vec<Edge>,
    acc: Vec<i64>,
    wind: Vec<i32>,
    row: Vec<u8>,
}

/// `value * coverage`, coverage in units of [`ONE`] (clamped to 0..=ONE), rounded.
fn times_coverage(value: u8, coverage: i64) -> u8 {
    let c = coverage.clamp(0, ONE);
    ((i64::from(value) * c + ONE / 2) >> 32) as u8
}

impl Shape {
    /// The pixels it can touch, relative to its anchor.
    pub fn rect(&self) -> PixelRect {
        match self {
            Shape::Fill { edges, .. } => edges.rect,
            // A centre can be inside the unsnapped rectangle and 1/512 px outside the snapped
            // one: one more pixel all round holds it.
            Shape::Bitmap { quad, .. } => {
                let r = quad.rect;
                match r.is_empty() {
                    true => r,
                    false => PixelRect {
                        x0: r.x0 - 1,
                        y0: r.y0 - 1,
                        x1: r.x1 + 1,
                        y1: r.y1 + 1,
                    },
                }
            }
        }
    }

    /// Vertices of its geometry (a bitmap is a quad).
    pub fn vertices(&self) -> usize {
        match self {
            Shape::Fill { edges, .. } => edges.edges.len(),
            Shape::Bitmap { .. } => 4,
        }
    }

    /// Memory it holds of its own (a bitmap's texels are counted where they are cached).
    pub fn bytes(&self) -> usize {
        std::mem::size_of::<Shape>()
            + match self {
                Shape::Fill { edges, .. } => edges.bytes(),
                Shape::Bitmap { quad, .. } => quad.bytes(),
            }
    }

    /// Calls `emit(row, values)` for every row of `region` (pixels relative to the anchor),
    /// top to bottom, `values` holding the columns `region.x0..region.x1`.
    pub fn rows(
        &self,
        region: PixelRect,
        anti_alias: bool,
        scratch: &mut Scratch,
        mut emit: impl FnMut(i64, &[u8]),
    ) {
        if region.is_empty() {
            return;
        }
        let w = region.width() as usize;
        let Scratch {
            coverage,
            active,
            acc,
            wind,
            row,
        } = scratch;
        row.clear();
        row.resize(w, 0);
        acc.resize(w, 0);
        wind.resize(w, 0);
        let edges = match self {
            Shape::Fill { edges, .. } => edges,
            Shape::Bitmap { quad, .. } => quad,
        };
        let mut walk = ActiveEdges::new(&edges.edges, std::mem::take(active));
        for j in region.y0..region.y1 {
            walk.advance(j * GRID, (j + 1) * GRID);
            match self {
                Shape::Fill { rule, alpha, .. } => {
                    if walk.active.is_empty() {
                        row.fill(0);
                    } else if anti_alias {
                        acc.fill(0);
                        coverage.accumulate(&walk.active, j, *rule, region.x0, acc);
                        for (v, &c) in row.iter_mut().zip(acc.iter()) {
                            *v = times_coverage(*alpha, c);
                        }
                    } else {
                        winding_row(&walk.active, j, region.x0, wind);
                        for (v, &n) in row.iter_mut().zip(wind.iter()) {
                            *v = if inside(n, *rule) { *alpha } else { 0 };
                        }
                    }
                }
                Shape::Bitmap {
                    texels,
                    inverse,
                    smoothing,
                    ..
                } => {
                    if anti_alias {
                        acc.fill(0);
                        coverage.accumulate(&walk.active, j, FillRule::NonZero, region.x0, acc);
                    }
                    for (k, v) in row.iter_mut().enumerate() {
                        let p = centre_in_texels(inverse, region.x0 + k as i64, j);
                        *v = match (anti_alias, *smoothing) {
                            (true, _) if acc[k] <= 0 => 0,
                            (true, false) => times_coverage(texels.clamped(p), acc[k]),
                            (true, true) => times_coverage(texels.smoothed(p), acc[k]),
                            (false, false) => texels.nearest(p).unwrap_or(0),
                            (false, true) => texels.nearest(p).map_or(0, |_| texels.smoothed(p)),
                        };
                    }
                }
            }
            emit(j, row);
        }
        *active = walk.into_buffer();
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn coverage_scales_the_value_with_rounding() {
        assert_eq!(times_coverage(255, ONE), 255);
        assert_eq!(times_coverage(255, ONE / 2), 128);
        assert_eq!(times_coverage(100, ONE / 4), 25);
        assert_eq!(times_coverage(255, -5), 0);
        assert_eq!(times_coverage(255, ONE + 7), 255);
    }
}
