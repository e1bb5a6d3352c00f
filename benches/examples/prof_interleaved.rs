//! A still crowd queried the way some game loops do it: each sprite is updated (set to the
//! position it has, so the tree's revision changes) and then asked against the crowd at
//! once, `prof_interleaved N [interleaved|batched] [frames]`; `batched` updates every
//! sprite first, then asks the same queries. Prints the time per frame.
use pixelhit::CollisionOptions;
use pixelhit_benches::crowd::{Motion, crowd};

fn main() {
    let arg = |i: usize| std::env::args().nth(i);
    let n: usize = arg(1).and_then(|s| s.parse().ok()).unwrap_or(300);
    let interleaved = arg(2).as_deref() != Some("batched");
    let frames: u64 = arg(3).and_then(|s| s.parse().ok()).unwrap_or(10);
    let mut world = crowd(n, Motion::Still);
    let opts = CollisionOptions::default().parallel(false);
    let sprites = world.sprites.clone();
    let mut contacts = 0;
    let mut per_frame = Vec::new();
    for _ in 0..frames {
        let t = std::time::Instant::now();
        if !interleaved {
            for &s in &sprites {
                let x = world.stage.x(s).unwrap();
                world.stage.set_x(s, x).unwrap();
            }
        }
        for &s in &sprites {
            if interleaved {
                let x = world.stage.x(s).unwrap();
                world.stage.set_x(s, x).unwrap();
            }
            contacts += world
                .stage
                .contacts_against(s, &sprites, world.world, &opts)
                .unwrap()
                .len();
        }
        per_frame.push(t.elapsed());
    }
    println!(
        "{contacts} contacts; per frame (first, last): {:?} {:?}",
        per_frame[0],
        per_frame[per_frame.len() - 1]
    );
}
