//! Writes the sprites of the `aligned_N` benchmarks as PNG files, with pixelhit's answer for
//! each pair, so that `benches/pygame_compare.py` can time pygame.mask on exactly the same
//! pixels and check that it finds the same overlap:
//!
//! ```sh
//! cargo run --release -p pixelhit-benches --example bench_sprites -- /tmp/sprites
//! python3 benches/pygame_compare.py /tmp/sprites
//! ```
//!
//! `DIR/pairs.txt` gets one line per size: `size dx dy count x y w h`, B's offset from A and
//! the overlap's pixel count and rectangle relative to A's top-left pixel.

use pixelhit::CollisionOptions;
use pixelhit_benches::scenes;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::path::PathBuf::from(std::env::args().nth(1).unwrap_or_else(|| "sprites".into()));
    std::fs::create_dir_all(&dir)?;
    let mut pairs = String::new();
    for size in [64u32, 256, 1024] {
        for (name, seed) in [("a", 1), ("b", 2)] {
            let png = scenes::blob(size, seed).to_png_bytes()?;
            std::fs::write(dir.join(format!("{name}{size}.png")), png)?;
        }
        let (dx, dy) = scenes::aligned_offset(size);
        let (stage, a, b) = scenes::aligned(size);
        let c = stage.collision(a, b, stage.root(), &CollisionOptions::default())?;
        let (ax, ay) = (stage.x(a)?, stage.y(a)?);
        let [x, y, w, h] = c.rect.ok_or("the aligned sprites overlap")?.to_xywh();
        let count = c.overlap_pixels.unwrap_or(0);
        pairs.push_str(&format!(
            "{size} {dx} {dy} {count} {} {} {w} {h}\n",
            x - ax,
            y - ay
        ));
    }
    std::fs::write(dir.join("pairs.txt"), &pairs)?;
    print!("{pairs}");
    println!("wrote the sprites and {}", dir.join("pairs.txt").display());
    Ok(())
}
