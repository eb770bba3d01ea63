#!/usr/bin/env bash
# The C ABI's tests under Miri (called by .ci/run): undefined behaviour at the boundary — aliasing
# through re-entrant callbacks, uninitialised storage, misaligned or dangling pointers — is an
# error, under both Stacked Borrows (all ABI and collision-world tests except the proptest ones,
# ≈ 5 min) and Tree Borrows (the pointer, storage and re-entrancy tests, the trace callbacks).
# libm runs its soft-float path there (feature `miri` of hopkit-ffi: Miri cannot run its x86
# inline assembly).
# Needs nightly with the miri and rust-src components; installs them (bounded by a timeout) and
# prints a visible SKIP when that is impossible.
set -euo pipefail
cd "$(dirname "$0")/.."
export CARGO_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/miri"
if ! rustup toolchain list 2>/dev/null | grep -q '^nightly'; then
    timeout 300 rustup toolchain install nightly --profile minimal >/dev/null 2>&1 || true
fi
if ! rustup +nightly component list --installed 2>/dev/null | grep -q '^miri'; then
    timeout 300 rustup +nightly component add miri rust-src >/dev/null 2>&1 || true
fi
if ! cargo +nightly miri --version >/dev/null 2>&1; then
    echo "ci-miri: SKIP: nightly Miri could not be installed on this machine"
    exit 0
fi
cargo +nightly miri setup >/dev/null 2>&1
echo "-- Stacked Borrows: hopkit-ffi ABI and world tests"
cargo +nightly miri test -q -p hopkit-ffi --features miri --test integration -- abi:: world:: --skip props 2>&1 |
    grep -E '^test result|error|Undefined' || { echo "ci-miri: FAIL" >&2; exit 1; }
echo "-- Tree Borrows: pointer, storage and re-entrancy tests"
MIRIFLAGS="${MIRIFLAGS:-} -Zmiri-tree-borrows" cargo +nightly miri test -q -p hopkit-ffi --features miri --test integration -- \
    reentering initialised_storage misaligned null_pointers callback_ground \
    world_storage_and_step broken_trace_answers trace_callback_step world_water_input 2>&1 |
    grep -E '^test result|error|Undefined' || { echo "ci-miri: FAIL" >&2; exit 1; }
echo "ci-miri: ok"
