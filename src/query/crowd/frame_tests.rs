//! The cache's policy seen from a game's frames: what many-object queries keep and find
//! again over a long run of moving frames, by counts.

use crate::raster::CacheCounts;
use crate::{Bitmap, CollisionOptions, Contact, FillRule, Graphic, NodeId, Path, Stage};

/// A game's frames: sprites that move and turn every frame (none of their poses comes
/// back), a few that stand still, three queries a frame.
struct Game {
    stage: Stage,
    world: NodeId,
    rocks: Vec<NodeId>,
    still: Vec<NodeId>,
    ship: NodeId,
    bullets: Vec<NodeId>,
}

impl Game {
    fn new() -> Game {
        let mut stage = Stage::new();
        let world = stage.add_container(stage.root()).unwrap();
        let star = Path::polygon(&[
            (0.0, -14.0),
            (4.0, -4.0),
            (14.0, 0.0),
            (4.0, 4.0),
            (0.0, 14.0),
            (-4.0, 4.0),
            (-14.0, 0.0),
            (-4.0, -4.0),
        ]);
        let rgba: Vec<u8> = (0..20 * 20)
            .flat_map(|k| {
                let (x, y) = (k % 20, k / 20);
                let inside = (x - 10) * (x - 10) + (y - 10) * (y - 10) < 81;
                [0, 0, 0, if inside { 255 } else { 0 }]
            })
            .collect();
        let image = Bitmap::from_rgba8(20, 20, rgba).unwrap();
        let add = |stage: &mut Stage, k: usize| {
            let node = match k % 2 {
                0 => stage.add_bitmap(world, image.clone(), false).unwrap(),
                _ => {
                    let c = stage.add_container(world).unwrap();
                    let g = Graphic::fill(star.clone(), FillRule::NonZero, 1.0).unwrap();
                    stage.add_graphic(c, g).unwrap();
                    c
                }
            };
            stage
                .set_position(node, (k % 7) as f64 * 21.0, (k / 7) as f64 * 19.0)
                .unwrap();
            node
        };
        let rocks = (0..28).map(|k| add(&mut stage, k)).collect();
        let still = (28..34).map(|k| add(&mut stage, k)).collect();
        let ship = add(&mut stage, 35);
        let bullets = (36..42).map(|k| add(&mut stage, k)).collect();
        Game {
            stage,
            world,
            rocks,
            still,
            ship,
            bullets,
        }
    }

    /// Frame `f`: every sprite but the still ones moves by a fraction and turns.
    fn step(&mut self, f: u64) {
        let t = f as f64;
        let moving: Vec<NodeId> = self
            .rocks
            .iter()
            .chain(&self.bullets)
            .chain([&self.ship])
            .copied()
            .collect();
        for (k, &n) in moving.iter().enumerate() {
            let (x, y) = ((k % 7) as f64 * 21.0, (k / 7) as f64 * 19.0);
            let wobble = (t * 0.37 + k as f64).sin() * 3.3;
            self.stage.set_position(n, x + wobble, y - wobble * 0.7).unwrap();
            self.stage.set_rotation(n, t * (0.61 + k as f64 * 0.013)).unwrap();
        }
    }

    fn all(&self) -> Vec<NodeId> {
        self.rocks.iter().chain(&self.still).copied().collect()
    }

    /// The three queries of a frame; returns their answers.
    fn queries(&self) -> Vec<Vec<Contact>> {
        // On one thread: two threads preparing one sprite at once may both make its pose,
        // which would blur the counts (not the answers).
        let opts = CollisionOptions::default().parallel(false);
        let s = &self.stage;
        vec![
            s.contacts_among(&self.all(), self.world, &opts).unwrap(),
            s.contacts_against(self.ship, &self.all(), self.world, &opts)
                .unwrap(),
            s.contacts_between(&self.bullets, &self.all(), self.world, &opts)
                .unwrap(),
        ]
    }
}

#[test]
fn a_long_run_of_moving_frames_keeps_two_frames_and_serves_repeated_queries() {
    let mut game = Game::new();
    // Every frame that takes anything in is an age here: the game is small, and the
    // policy is the same at any size (ages by bytes: the next test).
    game.stage.cache.set_age_bytes(1);
    let sprites = game.all().len() + 1 + game.bullets.len();
    let mut most = CacheCounts::default();
    let mut last_frame_made = [0; 3];
    for f in 0..300 {
        game.step(f);
        let before = game.stage.cache.made();
        let answers = game.queries();
        let after_first = game.stage.cache.made();
        // The same three queries again in the frame: every pair answer is found, nothing
        // is drawn, the answers are the same.
        assert_eq!(game.queries(), answers, "frame {f}");
        let again = game.stage.cache.made();
        assert_eq!(
            again[..2],
            after_first[..2],
            "frame {f}: the repeat made poses or rasters"
        );
        assert!(again[2] > after_first[2] || answers.iter().all(Vec::is_empty));
        let c = game.stage.cache.counts();
        assert_eq!(c.bytes, game.stage.cache.recount(), "frame {f}: bytes miscounted");
        // Poses and rasters of at most two frames: one leaf a sprite.
        assert!(c.poses + c.rasters <= 2 * sprites, "frame {f}: {c:?}");
        // Shared geometry and texels: a star each (each graphic has its own path), one
        // image.
        assert!(
            c.local <= sprites.div_ceil(2) && c.texels <= 1,
            "frame {f}: {c:?}"
        );
        most.poses = most.poses.max(c.poses);
        most.rasters = most.rasters.max(c.rasters);
        most.pairs = most.pairs.max(c.pairs);
        most.bytes = most.bytes.max(c.bytes);
        most.local = most.local.max(c.local);
        most.texels = most.texels.max(c.texels);
        last_frame_made = [again[0] - before[0], again[1] - before[1], again[2] - before[2]];
    }
    println!("most held over the run: {most:?}; the last frame made {last_frame_made:?}");
    // The still sprites were drawn whole once and kept: a frame makes poses for the
    // moving sprites only.
    let moving = game.rocks.len() + 1 + game.bullets.len();
    assert!(last_frame_made[0] <= moving, "{last_frame_made:?}");
    // A still frame after the run: nothing moves, the revision changes (a property set
    // to what it was). It makes no pose (all kept from the last moving frame) and
    // matches a fresh stage's answers.
    let x = game.stage.x(game.ship).unwrap();
    game.stage.set_x(game.ship, x).unwrap();
    let before = game.stage.cache.made();
    let answers = game.queries();
    let made = game.stage.cache.made();
    assert_eq!(made[0], before[0], "a still frame made poses");
    let fresh = Stage::clone(&game.stage);
    let fresh_game = Game {
        stage: fresh,
        world: game.world,
        rocks: game.rocks.clone(),
        still: game.still.clone(),
        ship: game.ship,
        bullets: game.bullets.clone(),
    };
    assert_eq!(fresh_game.queries(), answers);
}

#[test]
fn a_repeated_query_with_details_gives_the_same_contacts_and_details() {
    let mut game = Game::new();
    let opts = CollisionOptions::default().details(true);
    for f in 0..5 {
        game.step(f);
        let first = game.stage.contacts_among(&game.all(), game.world, &opts).unwrap();
        // Answers kept by a query without details, then asked with them.
        let plain = game
            .stage
            .contacts_among(&game.all(), game.world, &CollisionOptions::default())
            .unwrap();
        let again = game.stage.contacts_among(&game.all(), game.world, &opts).unwrap();
        assert!(!first.is_empty() && first.iter().all(|c| c.details.is_some()));
        assert_eq!(again, first, "frame {f}");
        assert_eq!(plain.len(), first.len());
        assert!(
            plain
                .iter()
                .zip(&first)
                .all(|(p, d)| (p.a, p.b, p.rect) == (d.a, d.b, d.rect))
        );
    }
}

/// A loop that changes the tree before every query (update one sprite, ask about it, update
/// the next: each query is a frame of its own) on sprites that stand still: after the first
/// round everything comes from the cache, round after round, with the default ages.
#[test]
fn queries_between_changes_to_the_tree_keep_what_they_use() {
    let game = Game::new();
    let mut stage = game.stage.clone();
    let (all, world) = (game.all(), game.world);
    let opts = CollisionOptions::default();
    let round = |stage: &mut Stage| -> Vec<Vec<Contact>> {
        all.iter()
            .map(|&s| {
                let x = stage.x(s).unwrap();
                stage.set_x(s, x).unwrap();
                stage.contacts_against(s, &all, world, &opts).unwrap()
            })
            .collect()
    };
    let first = round(&mut stage);
    // The second round draws what the first saw once (a pose seen by an earlier query is
    // drawn whole); from the third on, nothing is made.
    let second = round(&mut stage);
    let before = stage.cache.made();
    for r in 0..20 {
        assert_eq!(round(&mut stage), first, "round {r}");
    }
    let after = stage.cache.made();
    assert_eq!(after[..2], before[..2], "poses or rasters made again");
    assert_eq!(second, first);
    assert!(first.iter().any(|c| !c.is_empty()));
    // The same rounds with every frame an age (the policy before ages went by bytes) make
    // them again and again: the test can tell.
    let mut aging = game.stage.clone();
    aging.cache.set_age_bytes(0);
    round(&mut aging);
    round(&mut aging);
    let before = aging.cache.made();
    round(&mut aging);
    assert!(aging.cache.made()[..2] != before[..2]);
}

/// A frame's first many-object query looks no pair answer up (none can be kept for its
/// tree yet), and keeps every answer; the same query again in the frame finds each one:
/// a crowd of 40 overlapping discs, moved every frame.
#[test]
fn a_frames_first_query_looks_no_answer_up_and_the_next_finds_them_all() {
    use crate::raster::PAIR_LOOKUPS;
    let mut stage = Stage::new();
    let world = stage.add_container(stage.root()).unwrap();
    let discs: Vec<NodeId> = (0..40)
        .map(|k| {
            let g = Graphic::fill(Path::circle(0.0, 0.0, 6.0), FillRule::NonZero, 1.0).unwrap();
            let n = stage.add_container(world).unwrap();
            stage.add_graphic(n, g).unwrap();
            stage
                .set_position(n, f64::from(k % 8) * 10.0, f64::from(k / 8) * 10.0)
                .unwrap();
            n
        })
        .collect();
    let opts = CollisionOptions::default().parallel(false);
    for frame in 0..5 {
        for &n in &discs {
            let x = stage.x(n).unwrap();
            stage.set_x(n, x + 0.5).unwrap();
        }
        let looked_up = PAIR_LOOKUPS.with(std::cell::Cell::get);
        let first = stage.contacts_among(&discs, world, &opts).unwrap();
        assert_eq!(
            PAIR_LOOKUPS.with(std::cell::Cell::get),
            looked_up,
            "frame {frame}"
        );
        let found = stage.cache.made()[2];
        let again = stage.contacts_among(&discs, world, &opts).unwrap();
        assert_eq!(again, first, "frame {frame}");
        // Every close pair's answer was kept by the first query and found by the second.
        let close = PAIR_LOOKUPS.with(std::cell::Cell::get) - looked_up;
        assert!(
            close as usize > first.len() && first.len() >= 60,
            "frame {frame}: {close} pairs"
        );
        assert_eq!(stage.cache.made()[2] - found, close as usize, "frame {frame}");
        assert_eq!(first, stage.clone().contacts_among(&discs, world, &opts).unwrap());
    }
}
