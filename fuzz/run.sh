#!/usr/bin/env bash
# Short fuzz runs of pixelhit's targets with cargo afl (AFL++; works with stable Rust).
#
#   bash fuzz/run.sh [SECONDS_PER_TARGET] [TARGET...]      (targets: scene path png tree)
#
# Installs cargo-afl when it is missing, builds the targets with AFL's instrumentation and
# fuzzes each for the given time (default 20 s), one after another. Any crash fails the
# run; its input is left under $FUZZ_OUT/<target>/default/crashes (FUZZ_OUT defaults to a
# new temporary folder): keep it as a named test in tests/integration/fuzz_regressions.rs.
set -euo pipefail
cd "$(dirname "$0")"
secs=${1:-20}
shift || true
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
    targets=(scene path png tree)
fi

if ! cargo afl --version >/dev/null 2>&1; then
    echo "installing cargo-afl"
    cargo install cargo-afl --locked --version 0.18.2
fi
# Builds AFL++ itself on the first use; says so and fails when it is already built.
cargo afl config --build >/dev/null 2>&1 || true
# Not --locked: the main crate's dependencies change under it, and the lock follows them.
cargo afl build --release --quiet --features afl
bin=${CARGO_TARGET_DIR:-target}/release

out=${FUZZ_OUT:-$(mktemp -d)}
# No screen, no CPU tuning (not ours to change on a shared machine), crashes are seen
# through the exit status whatever core_pattern says, and a FUZZ_OUT used before goes on
# from where it was.
export AFL_NO_UI=1 AFL_SKIP_CPUFREQ=1 AFL_NO_AFFINITY=1 AFL_I_DONT_CARE_ABOUT_MISSING_CRASHES=1
export AFL_AUTORESUME=1

failed=0
for t in "${targets[@]}"; do
    mkdir -p "$out/$t"
    if ! cargo afl fuzz -V "$secs" -t 5000 -i "corpus/$t" -o "$out/$t" "$bin/$t" >"$out/$t.log" 2>&1; then
        echo "fuzz $t: afl-fuzz failed:"
        tail -n 20 "$out/$t.log"
        failed=1
        continue
    fi
    stats=$out/$t/default/fuzzer_stats
    execs=$(awk -F' *: *' '$1 == "execs_done" {print $2}' "$stats")
    paths=$(awk -F' *: *' '$1 == "corpus_count" {print $2}' "$stats")
    crashes=$(find "$out/$t/default/crashes" -type f -name 'id:*' | wc -l)
    hangs=$(find "$out/$t/default/hangs" -type f -name 'id:*' | wc -l)
    echo "fuzz $t: $execs runs, $paths inputs in the corpus, $crashes crashes, $hangs hangs (over 5 s)"
    if [ "$crashes" -ne 0 ]; then
        echo "fuzz $t: crash inputs in $out/$t/default/crashes:"
        ls "$out/$t/default/crashes"
        failed=1
    fi
done
exit "$failed"
