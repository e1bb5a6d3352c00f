//! Matrices and points from another glam version (Bevy 0.15/0.16's glam 0.29, f32 and
//! f64) go in through `mint` with no conversion written by hand, and come back out the same
//! way (feature `mint`; CI runs these with `--features mint`).

#![cfg(feature = "mint")]

use glam_029 as engine;
use pixelhit::{FillRule, Graphic, Path, Stage, from_y_up, to_mint_matrix};

#[test]
fn an_older_glam_matrix_goes_in_through_mint() {
    let mut stage = Stage::new();
    let n = stage.add_container(stage.root()).unwrap();
    // f32, as a Bevy 2D game keeps its transforms.
    let m = engine::Mat3::from_scale_angle_translation(
        engine::Vec2::new(2.0, 0.5),
        0.75,
        engine::Vec2::new(10.5, -3.25),
    );
    stage.set_matrix(n, mint::ColumnMatrix3::from(m)).unwrap();
    let want = [
        m.x_axis.x, m.x_axis.y, m.y_axis.x, m.y_axis.y, m.z_axis.x, m.z_axis.y,
    ]
    .map(f64::from);
    assert_eq!(stage.matrix(n).unwrap().to_cols_array(), want);
    // f64, and y-up: the flip is one call.
    let d = engine::DMat3::from_angle(0.5) * engine::DMat3::from_translation(engine::DVec2::new(4.0, 5.0));
    stage
        .set_matrix(n, from_y_up(mint::ColumnMatrix3::from(d)))
        .unwrap();
    let [a, b, c, e, tx, ty] = [
        d.x_axis.x, d.x_axis.y, d.y_axis.x, d.y_axis.y, d.z_axis.x, d.z_axis.y,
    ];
    assert_eq!(stage.matrix(n).unwrap().to_cols_array(), [a, -b, -c, e, tx, -ty]);
}

#[test]
fn points_and_answers_go_back_to_the_engines_types() {
    let mut stage = Stage::new();
    let root = stage.root();
    let n = stage.add_container(root).unwrap();
    stage
        .add_graphic(
            n,
            Graphic::fill(Path::rect(0.0, 0.0, 4.0, 4.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
    let m = engine::DMat3::from_translation(engine::DVec2::new(100.0, 50.0));
    stage.set_matrix(n, mint::ColumnMatrix3::from(m)).unwrap();
    // A point of the engine's glam in, a point of the engine's glam out.
    let p = stage
        .local_to_global(n, mint::Point2::from(engine::DVec2::new(1.0, 2.0)))
        .unwrap();
    let back: engine::DVec2 = mint::Point2::from(p).into();
    assert_eq!(back, engine::DVec2::new(101.0, 52.0));
    let local = stage
        .global_to_local(n, mint::Vector2::from(engine::Vec2::new(101.0, 52.0)))
        .unwrap();
    assert_eq!(local.to_array(), [1.0, 2.0]);
    // A matrix out as mint's 2 x 3 columns, back in unchanged.
    let out = to_mint_matrix(stage.matrix_to(n, root).unwrap());
    assert_eq!([out.z.x, out.z.y], [100.0, 50.0]);
    let other = stage.add_container(root).unwrap();
    stage.set_matrix(other, out).unwrap();
    assert_eq!(stage.matrix(other).unwrap(), stage.matrix(n).unwrap());
    // Shapes from the engine's points.
    let outline = [
        engine::Vec2::ZERO,
        engine::Vec2::new(3.0, 0.0),
        engine::Vec2::new(0.0, 3.0),
    ]
    .map(mint::Point2::from);
    let tri = Path::polygon(&outline);
    assert_eq!(
        tri.bounds([1.0, 0.0, 0.0, 1.0, 0.0, 0.0]).unwrap().to_xywh(),
        [0.0, 0.0, 3.0, 3.0]
    );
}
