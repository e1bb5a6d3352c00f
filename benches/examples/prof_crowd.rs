//! Times frames of a moving crowd (for profiling the many-object query with perf):
//! `prof_crowd N` moves by whole pixels, `prof_crowd N frac` by fractions, `prof_crowd N spin`
//! by fractions while every sprite turns.
use pixelhit::*;
use pixelhit_benches::scenes;
fn main() {
    let n: usize = std::env::args()
        .nth(1)
        .and_then(|s| s.parse().ok())
        .unwrap_or(1000);
    let mode = std::env::args().nth(2).unwrap_or_default();
    let fractional = !mode.is_empty();
    let spin = mode == "spin";
    let mut rng = scenes::Rng::new(n as u64);
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let stars: Vec<_> = (0..8)
        .map(|i| scenes::star(5 + i % 3, 12.0 + 4.5 * i as f64, 0.5))
        .collect();
    let side = 2048.0 * (n as f64 / 1000.0).sqrt();
    let mut sprites = vec![];
    for i in 0..n {
        let c = stage.add_container(world).unwrap();
        stage
            .add_graphic(
                c,
                Graphic::fill(stars[i % 8].clone(), FillRule::NonZero, 1.0).unwrap(),
            )
            .unwrap();
        stage.set_x(c, rng.range(0.0, side).round()).unwrap();
        stage.set_y(c, rng.range(0.0, side).round()).unwrap();
        stage.set_rotation(c, rng.range(0.0, 360.0)).unwrap();
        sprites.push(c);
    }
    let opts = CollisionOptions::default();
    let t = std::time::Instant::now();
    let mut total = 0;
    for f in 0..50usize {
        for &s in &sprites {
            let d = if fractional { 0.37 } else { 1.0 };
            let sign = if (f / 10).is_multiple_of(2) { d } else { -d };
            stage.set_x(s, stage.x(s).unwrap() + sign).unwrap();
            if spin {
                stage.set_rotation(s, stage.rotation(s).unwrap() + 0.731).unwrap();
            }
        }
        total += stage.contacts_among(&sprites, world, &opts).unwrap().len();
    }
    println!("{total} contacts, {:?} per frame", t.elapsed() / 50);
}
