#!/usr/bin/env bash
# Adversarial inputs at CI scale (called by .ci/run): 1,000,000 cases over every public step in a
# debug build (overflow checks on: an arithmetic overflow panics), and 20,000 random arrivals in
# release checked against steering::arrival_time_bound. `cargo test` runs the same tests with
# 20,000 / 150 cases. Prints the case counts.
set -euo pipefail
cd "$(dirname "$0")/.."
HOPKIT_ADVERSARIAL_CASES="${HOPKIT_ADVERSARIAL_CASES:-1000000}" \
    cargo test -q -p hopkit-tests --test integration adversarial:: -- --nocapture 2>&1 | grep -E '^adversarial:|test result'
HOPKIT_ARRIVAL_CASES="${HOPKIT_ARRIVAL_CASES:-20000}" \
    cargo test -q --release -p hopkit-tests --test integration steering_arrival::every_start -- --nocapture 2>&1 |
    grep -E 'random arrivals|test result'
