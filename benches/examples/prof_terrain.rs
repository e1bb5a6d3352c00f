//! Times a 32 px sprite against a 10,000 px terrain stroke, an item drawn in tiles that the
//! stage keeps between queries (the figure in docs/how-it-works.md).
use pixelhit::*;
fn main() {
    let mut stage = Stage::new();
    let root = stage.root();
    let terrain = stage.add_container(root).unwrap();
    let mut d = String::from("M0 500");
    for i in 1..=400 {
        let x = i as f64 * 25.0;
        let y = 500.0 + 200.0 * (i as f64 * 0.07).sin();
        d.push_str(&format!(" L{x} {y}"));
    }
    stage
        .add_graphic(
            terrain,
            Graphic::stroke(Path::from_svg(&d).unwrap(), 20.0, 1.0).unwrap(),
        )
        .unwrap();
    let sprite = stage.add_container(root).unwrap();
    stage
        .add_graphic(
            sprite,
            Graphic::fill(Path::circle(0.0, 0.0, 16.0), FillRule::NonZero, 1.0).unwrap(),
        )
        .unwrap();
    stage.set_x(sprite, 5000.0).unwrap();
    stage
        .set_y(sprite, 500.0 + 200.0 * (200.0f64 * 0.07).sin())
        .unwrap();
    let opts = CollisionOptions::default();
    let n = 200;
    let t = std::time::Instant::now();
    let mut c = None;
    for _ in 0..n {
        c = Some(stage.collision(terrain, sprite, root, &opts).unwrap());
    }
    println!("{c:?} per query {:?}", t.elapsed() / n);
}
