//! Writes the sprites of the `aligned_N` benchmarks as PNG files, so that
//! `../shared/peers/pygame_bench.py` can time pygame.mask on exactly the same pixels:
//!
//! ```sh
//! cargo run --release --example bench_sprites -- /tmp/sprites
//! python3 ../shared/peers/pygame_bench.py /tmp/sprites/a256.png /tmp/sprites/b256.png 128 32
//! ```

use pixelhit_benches::scenes;

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let dir = std::env::args().nth(1).unwrap_or_else(|| "sprites".into());
    std::fs::create_dir_all(&dir)?;
    for size in [64u32, 256, 1024] {
        for (name, seed) in [("a", 1), ("b", 2)] {
            let png = scenes::blob(size, seed).to_png_bytes()?;
            std::fs::write(format!("{dir}/{name}{size}.png"), png)?;
        }
        let (dx, dy) = scenes::aligned_offset(size);
        println!("{dir}/a{size}.png {dir}/b{size}.png offset {dx} {dy}");
    }
    Ok(())
}
