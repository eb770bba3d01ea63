#!/usr/bin/env bash
# cargo-fuzz (libFuzzer, nightly) over the recording decoder, the C ABI and the character step with
# every probe query (mover_step) and the collision world's trace (collide_trace, at most 100,000)
# (called by .ci/run): per target at most a fixed number of executions (HOPKIT_FUZZ_RUNS, default
# 200,000) and at most a fixed time (HOPKIT_FUZZ_SECONDS, default 60), whichever ends first — the
# v2 decoder under AddressSanitizer runs ~300 inputs/s once its corpus reaches 5 KB inputs, so a
# count alone cost 640 s of CI for that target; every target's corpus is seeded with the bundled demo recording in both format
# versions (demo.ghost, demo.v2.ghost): the recording readers start from real files of each
# version, and the other targets read them as plain bytes. Prints executions and crashes per
# target; any
# crash fails the run (libFuzzer saves the input under fuzz/artifacts/).
# Longer runs by hand:  cd fuzz && cargo +nightly fuzz run recording_corrupt -- -max_total_time=3600
# Needs nightly and cargo-fuzz (installed here from crates.io when missing); prints SKIP if not.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
RUNS="${HOPKIT_FUZZ_RUNS:-200000}"
SECONDS_PER_TARGET="${HOPKIT_FUZZ_SECONDS:-60}"
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    timeout 300 rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || true
fi
if ! cargo +nightly --version >/dev/null 2>&1; then
    echo "ci-fuzz: SKIP: no nightly toolchain (cargo-fuzz needs -Zsanitizer)"
    exit 0
fi
if ! command -v cargo-fuzz >/dev/null 2>&1; then
    timeout 600 cargo install -q cargo-fuzz --locked ||
        { echo "ci-fuzz: SKIP: cargo-fuzz could not be installed"; exit 0; }
fi
cd fuzz
cargo +nightly fuzz build -O >/dev/null 2>&1 || cargo +nightly fuzz build -O
# One target: its corpus seeded, libFuzzer run with the caps, its log kept.
fuzz_one() { # target
    local t="$1" corpus="$REPO/target/fuzz-corpus/$1" runs="$RUNS"
    mkdir -p "$corpus"
    cp "$REPO/demo/assets/demo.ghost" "$REPO/demo/assets/demo.v2.ghost" "$corpus/"
    # The collision world rebuilds its grid on each push: a fixed, smaller count keeps it modest.
    case "$t" in collide_trace) [ "$RUNS" -lt 100000 ] || runs=100000 ;; esac
    echo "$runs" >"$REPO/target/fuzz-corpus/$t.runs"
    cargo +nightly fuzz run -O "$t" "$corpus" -- -runs="$runs" -max_total_time="$SECONDS_PER_TARGET" \
        -print_final_stats=1 >"$REPO/target/fuzz-corpus/$t.log" 2>&1
}
# libFuzzer is single-threaded: two targets at a time (CI machines have two cores), reported in
# order.
targets=(recording_parse recording_corrupt recording_v2 ffi_recording_open mover_step collide_trace)
total_crashes=0
for ((i = 0; i < ${#targets[@]}; i += 2)); do
    pair=("${targets[@]:i:2}")
    pids=()
    for t in "${pair[@]}"; do fuzz_one "$t" & pids+=($!); done
    for j in "${!pair[@]}"; do
        t="${pair[$j]}"
        log="$REPO/target/fuzz-corpus/$t.log"
        if wait "${pids[$j]}"; then crashes=0; else crashes=1; fi
        execs="$(sed -n 's/^stat::number_of_executed_units: *//p' "$log" | tail -1)"
        echo "fuzz $t: ${execs:-?} executions (at most $(cat "$REPO/target/fuzz-corpus/$t.runs"), at most ${SECONDS_PER_TARGET} s), $crashes crashes"
        if [ "$crashes" != 0 ]; then
            tail -30 "$log" >&2
            total_crashes=$((total_crashes + 1))
        fi
    done
done
[ "$total_crashes" = 0 ] || { echo "ci-fuzz: FAIL" >&2; exit 1; }
echo "ci-fuzz: ok"
