//! A quick fuzz run without AFL: the seed corpora mutated at random, every input run through
//! the same harnesses as the AFL targets, in-process, for a fixed time per target.
//!
//!     cargo run --release --bin smoke -- [SECONDS_PER_TARGET] [TARGET...]
//!
//! It needs nothing but cargo (CI runs it on every change, where building AFL++ from source
//! would take minutes). It is blind: no coverage feedback, so it finds what lies a few
//! mutations from the seeds (a number out of range, a cut string, a flipped byte, a token
//! moved from one place to another) and not what only a coverage-guided search would reach;
//! `fuzz/run.sh` runs AFL++ for that. The run is reproducible: the random sequence depends on
//! the target's name only. A panic is a crash: its input is written to
//! `$FUZZ_OUT/<target>/crash-<n>` (FUZZ_OUT defaults to `target/smoke-crashes`) and the run
//! fails.

use std::panic::{AssertUnwindSafe, catch_unwind};
use std::path::{Path, PathBuf};
use std::time::{Duration, Instant};

/// An input taking longer than this is reported (as AFL reports hangs).
const SLOW: Duration = Duration::from_secs(5);

/// Inputs grow no larger than this.
const MAX_LEN: usize = 1 << 16;

type Harness = fn(&[u8]);

const TARGETS: [(&str, Harness); 4] = [
    ("scene", pixelhit_fuzz::scene),
    ("path", pixelhit_fuzz::path),
    ("png", pixelhit_fuzz::png),
    ("tree", pixelhit_fuzz::tree),
];

/// Numbers and words that break parsers more often than random bytes do.
const INTERESTING: [&[u8]; 16] = [
    b"0",
    b"-1",
    b"1e308",
    b"-1e308",
    b"1e-320",
    b"NaN",
    b"65536",
    b"4294967296",
    b"9007199254740993",
    b"-0",
    b"255",
    b"256",
    b"null",
    b"true",
    b"\"\"",
    b"[]",
];

/// SplitMix64, seeded from the target's name.
struct Rng(u64);

impl Rng {
    fn new(name: &str) -> Rng {
        Rng(name.bytes().fold(0x9E37_79B9_7F4A_7C15, |h, b| {
            (h ^ u64::from(b)).wrapping_mul(0x100_0000_01B3)
        }))
    }
    fn next(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9E37_79B9_7F4A_7C15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xBF58_476D_1CE4_E5B9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94D0_49BB_1331_11EB);
        z ^ (z >> 31)
    }
    /// Uniform in `0..n` (`n > 0`).
    fn below(&mut self, n: usize) -> usize {
        (self.next() % n as u64) as usize
    }
}

/// The seeds of a target: its corpus and the crashes kept by the main crate's tests.
fn seeds(target: &str) -> Vec<Vec<u8>> {
    let root = Path::new(env!("CARGO_MANIFEST_DIR"));
    let mut out = Vec::new();
    for dir in [
        root.join("corpus").join(target),
        root.join("../tests/fuzz_corpus").join(target),
    ] {
        let Ok(entries) = std::fs::read_dir(&dir) else {
            continue;
        };
        let mut paths: Vec<PathBuf> = entries.filter_map(|e| Some(e.ok()?.path())).collect();
        paths.sort();
        out.extend(paths.iter().filter_map(|p| std::fs::read(p).ok()));
    }
    if out.is_empty() {
        out.push(Vec::new());
    }
    out
}

/// The runs of letters and digits (and the bytes between them) of the seeds, to splice in.
fn tokens(seeds: &[Vec<u8>]) -> Vec<Vec<u8>> {
    let mut out: Vec<Vec<u8>> = Vec::new();
    for s in seeds {
        for t in s.split(|b| !b.is_ascii_alphanumeric() && *b != b'.' && *b != b'-') {
            if !t.is_empty() && t.len() <= 32 && !out.iter().any(|o| o == t) {
                out.push(t.to_vec());
            }
        }
    }
    out.extend(INTERESTING.iter().map(|t| t.to_vec()));
    out
}

/// One to eight random edits of `input`.
fn mutate(rng: &mut Rng, input: &mut Vec<u8>, seeds: &[Vec<u8>], tokens: &[Vec<u8>]) {
    for _ in 0..=rng.below(8) {
        let len = input.len();
        let at = if len == 0 { 0 } else { rng.below(len) };
        match rng.below(8) {
            0 if len > 0 => input[at] ^= 1 << rng.below(8),
            1 if len > 0 => input[at] = rng.next() as u8,
            2 => input.insert(at, rng.next() as u8),
            3 if len > 0 => {
                let end = (at + 1 + rng.below(16)).min(len);
                input.drain(at..end);
            }
            4 if len > 0 => {
                let end = (at + 1 + rng.below(64)).min(len);
                let piece = input[at..end].to_vec();
                let to = rng.below(input.len() + 1);
                input.splice(to..to, piece);
            }
            5 => {
                let other = &seeds[rng.below(seeds.len())];
                if !other.is_empty() {
                    let from = rng.below(other.len());
                    let end = (from + 1 + rng.below(256)).min(other.len());
                    input.splice(at..at, other[from..end].iter().copied());
                }
            }
            _ => {
                // A token in place of the run of letters or digits at `at`.
                let token = &tokens[rng.below(tokens.len())];
                let word = |b: &u8| b.is_ascii_alphanumeric() || *b == b'.' || *b == b'-';
                let mut end = at;
                while end < len && word(&input[end]) {
                    end += 1;
                }
                input.splice(at..end, token.iter().copied());
            }
        }
    }
    input.truncate(MAX_LEN);
}

/// Fuzzes one target for `budget`; returns the number of crashes.
fn run(name: &str, harness: Harness, budget: Duration, out: &Path) -> usize {
    let seeds = seeds(name);
    let tokens = tokens(&seeds);
    let mut rng = Rng::new(name);
    let (mut runs, mut crashes, mut slow) = (0u64, 0usize, 0usize);
    let start = Instant::now();
    let mut input = Vec::new();
    while start.elapsed() < budget {
        input.clone_from(&seeds[rng.below(seeds.len())]);
        mutate(&mut rng, &mut input, &seeds, &tokens);
        let began = Instant::now();
        let result = catch_unwind(AssertUnwindSafe(|| harness(&input)));
        runs += 1;
        if began.elapsed() > SLOW {
            slow += 1;
            eprintln!("fuzz {name}: an input took {:.1?}", began.elapsed());
        }
        if result.is_err() {
            let dir = out.join(name);
            let file = dir.join(format!("crash-{crashes}"));
            if let Err(e) = std::fs::create_dir_all(&dir).and_then(|()| std::fs::write(&file, &input)) {
                eprintln!(
                    "fuzz {name}: could not keep the crash input in {}: {e}",
                    file.display()
                );
            } else {
                eprintln!("fuzz {name}: crash input kept in {}", file.display());
            }
            crashes += 1;
        }
    }
    println!(
        "fuzz {name}: {runs} runs from {} seeds, {crashes} crashes, {slow} inputs over 5 s",
        seeds.len()
    );
    crashes
}

fn main() {
    let mut args = std::env::args().skip(1);
    let budget = match args.next() {
        None => Duration::from_secs(20),
        Some(s) => match s.parse().map(Duration::try_from_secs_f64) {
            Ok(Ok(d)) => d,
            _ => {
                eprintln!("smoke: the first argument is the seconds per target, not {s:?}");
                std::process::exit(2);
            }
        },
    };
    let wanted: Vec<String> = args.collect();
    let out = std::env::var_os("FUZZ_OUT")
        .map(PathBuf::from)
        .unwrap_or_else(|| Path::new(env!("CARGO_MANIFEST_DIR")).join("target/smoke-crashes"));
    // Crashes are counted, not printed in full: one line each is enough to see them.
    std::panic::set_hook(Box::new(|info| eprintln!("panic: {info}")));
    let mut crashes = 0;
    for (name, harness) in TARGETS {
        if wanted.is_empty() || wanted.iter().any(|w| w == name) {
            crashes += run(name, harness, budget, &out);
        }
    }
    std::process::exit(i32::from(crashes > 0));
}
