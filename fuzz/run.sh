#!/usr/bin/env bash
# Coverage-guided fuzzing of pixelhit's targets with libFuzzer, on stable Rust.
#
#   bash fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]   (targets: scene path png tree picking svg)
#
# Builds the targets with SanitizerCoverage (stable rustc takes the LLVM pass through
# RUSTFLAGS; libfuzzer-sys compiles libFuzzer's C++ with the system's C++ compiler, so `c++`
# must be installed) and fuzzes each for the given time (default 30 s), one after another.
# A crash (a panic: a broken promise, see src/lib.rs), an input taking over FUZZ_TIMEOUT
# seconds (default 60) or over FUZZ_RSS_MB of memory (default 1024, issue 22's 1 GiB)
# fails the run; its input is left in $FUZZ_OUT/artifacts/<target>/ and printed in
# base64: keep it as a named test in tests/integration/fuzz_regressions.rs (with
# PIXELHIT_FUZZ_TRACE=1 the tree targets print what the input builds). What the fuzzer learns goes to
# $FUZZ_OUT/corpus/<target>/ (FUZZ_OUT defaults to fuzz/target/fuzz-out, kept between runs;
# the seeds in corpus/<target>/ are only read).
#
# Other libFuzzer flags for every target: FUZZ_FLAGS (e.g. "-jobs=2 -workers=2").
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-30}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(scene path png tree picking svg)
fi
# Compare tracing makes the raster's sorting about 45 times slower than in the test build
# (27 s of CPU for a query the work budget refuses after 0.6 s there): 60 s is a hang,
# what the budgets admit is not.
timeout=${FUZZ_TIMEOUT:-60}
rss_mb=${FUZZ_RSS_MB:-1024}
out=${FUZZ_OUT:-$PWD/target/fuzz-out}
mkdir -p "$out"
out=$(cd "$out" && pwd)

if ! command -v c++ >/dev/null 2>&1; then
    echo "fuzz: no C++ compiler (c++) to build libFuzzer with; install g++ or clang" >&2
    exit 2
fi

# The flags cargo-fuzz passes on nightly, less the sanitizer (AddressSanitizer needs
# nightly; safe Rust does not need it). `--target` keeps them off build scripts and
# proc-macros, which run on the host uninstrumented.
host=$(rustc -vV | sed -n 's/^host: //p')
export RUSTFLAGS="-Cpasses=sancov-module -Cllvm-args=-sanitizer-coverage-level=3 \
-Cllvm-args=-sanitizer-coverage-inline-8bit-counters -Cllvm-args=-sanitizer-coverage-pc-table \
-Cllvm-args=-sanitizer-coverage-trace-compares --cfg fuzzing"
# Not --locked: the main crate's dependencies change under it, and the lock follows them.
cargo build --release --quiet --features libfuzzer --target "$host"
bin=${CARGO_TARGET_DIR:-target}/$host/release

failed=0
for t in "${targets[@]}"; do
    corpus=$out/corpus/$t
    artifacts=$out/artifacts/$t
    mkdir -p "$corpus" "$artifacts"
    # The seeds are corpus/<target>/ alone: the findings kept in ../tests/fuzz_corpus/ are
    # replayed by `cargo test`, and the slow ones among them would only steer the fuzzer
    # towards more of the same (a 20 s run of the picking target ran 6 inputs with them).
    seeds=("corpus/$t")
    dict=()
    if [ -f "dict/$t.dict" ]; then
        dict=(-dict="dict/$t.dict")
    fi
    log=$out/$t.log
    set +e
    "$bin/$t" -max_total_time="$secs" -timeout="$timeout" -rss_limit_mb="$rss_mb" \
        -print_final_stats=1 -artifact_prefix="$artifacts/" "${dict[@]}" ${FUZZ_FLAGS:-} \
        "$corpus" "${seeds[@]}" >"$log" 2>&1
    status=$?
    set -e
    runs=$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -n 1)
    cov=$(grep -o 'cov: [0-9]*' "$log" | tail -n 1)
    echo "fuzz $t: ${runs:-?} runs, ${cov:-cov: ?} edges, $(find "$corpus" -type f | wc -l) inputs in $corpus"
    if [ "$status" -ne 0 ]; then
        failed=1
        echo "fuzz $t: FAILED (libFuzzer exit status $status); the end of $log:"
        grep -v '^#[0-9]' "$log" | tail -n 40
        for f in $(sed -n 's/.*Test unit written to //p' "$log"); do
            echo "fuzz $t: input $f (base64): $(base64 -w0 "$f" | head -c 4000)"
            echo "fuzz $t: replay with: $bin/$t $f"
        done
    fi
done
exit "$failed"
