//! Differential tests of the span scan (issue 21, item 2): two single shapes compared by
//! their row spans, values computed only where the spans meet, must give the plain path's
//! answer (both targets' alpha planes composited pixel by pixel), bit for bit, over
//! thousands of random pairs: self-intersecting scribbles under both fill rules, slivers
//! thinner than a pixel, rectangles whose horizontal edges lie inside rows, strokes (whose
//! pieces overlap), bitmaps with transparent borders, alpha below and above the threshold,
//! tolerance 0 and 255 and between, anti-aliased and not, turned, scaled and skewed, near
//! the origin and up to 1e9 px away.

use crate::common::{Rng, bordered_bitmap, random_matrix, scribble, star};
use pixelhit::{CollisionOptions, DAffine2, DVec2, FillRule, Graphic, NodeId, Path, Stage};

/// A target: one fill, stroke or bitmap, placed by a random matrix at `at`.
fn target(rng: &mut Rng, stage: &mut Stage, parent: NodeId, at: DVec2) -> NodeId {
    let r = rng.range(3.0, 40.0);
    let alpha = if rng.int(0, 4) == 0 {
        rng.range(0.05, 1.0)
    } else {
        1.0
    };
    let rule = if rng.coin() {
        FillRule::EvenOdd
    } else {
        FillRule::NonZero
    };
    let node = match rng.int(0, 6) {
        0 => stage
            .add_bitmap(parent, bordered_bitmap(rng, 40, 3), rng.coin())
            .unwrap(),
        kind => {
            let n = stage.add_container(parent).unwrap();
            let vertices = rng.int(5, 14) as usize;
            let g = match kind {
                1 => Graphic::fill(Path::polygon(&star(rng, vertices, r * 0.3, r)), rule, alpha),
                2 => Graphic::fill(Path::polygon(&scribble(rng, vertices * 2, r)), rule, alpha),
                // A sliver: a long bar thinner than a pixel.
                3 => Graphic::fill(Path::rect(-r, 0.0, 2.0 * r, rng.range(0.01, 0.9)), rule, alpha),
                // Rectangles: unturned, their horizontal edges cut rows.
                4 => Graphic::fill(Path::rect(-r, -r / 2.0, r * rng.range(0.5, 2.0), r), rule, alpha),
                _ => Graphic::stroke(
                    Path::polygon(&scribble(rng, vertices / 2, r)),
                    rng.range(0.3, 8.0),
                    alpha,
                ),
            };
            stage.add_graphic(n, g.unwrap()).unwrap();
            n
        }
    };
    let m = match rng.int(0, 3) {
        // Unturned, at a whole or a fractional position.
        0 if rng.coin() => DAffine2::from_translation(at.round()),
        0 => DAffine2::from_translation(at),
        1 => random_matrix(rng, (0.3, 3.0), true, at),
        _ => random_matrix(rng, (0.5, 2.0), false, at),
    };
    stage.set_matrix(node, m).unwrap();
    node
}

#[test]
fn span_scan_gives_the_plain_answer() {
    let mut rng = Rng::new(0x5a4e_5ca4);
    let (mut hits, mut cases) = (0, 0);
    for case in 0..4000 {
        let mut stage = Stage::new();
        let root = stage.root();
        let far = [0.0, 1e5, -3.3e7, 1e9][case % 4];
        let base = DVec2::new(
            far + rng.range(-100.0, 100.0),
            -far / 3.0 + rng.range(-100.0, 100.0),
        );
        let a = target(&mut rng, &mut stage, root, base);
        let off = DVec2::new(rng.range(-40.0, 40.0), rng.range(-40.0, 40.0));
        let b = target(&mut rng, &mut stage, root, base + off);
        let tolerance = match rng.int(0, 3) {
            0 => 0,
            1 => 255,
            _ => rng.int(0, 255) as u8,
        };
        let opts = CollisionOptions::default()
            .tolerance(tolerance)
            .anti_alias(rng.int(0, 2) > 0);
        let plain = stage
            .clone()
            .collision(a, b, root, &opts.fast_paths(false))
            .unwrap();
        let fast = stage.clone().collision(a, b, root, &opts).unwrap();
        assert_eq!(fast, plain, "case {case}, {opts:?}");
        let swapped = stage.clone().collision(b, a, root, &opts).unwrap();
        assert_eq!(swapped, plain, "case {case} swapped, {opts:?}");
        hits += usize::from(plain.overlap_pixels.unwrap_or(0) > 0);
        cases += 1;
    }
    // Both answers must be common, or the corpus proves little.
    assert!(hits > cases / 5 && hits < cases * 4 / 5, "{hits} hits of {cases}");
}
