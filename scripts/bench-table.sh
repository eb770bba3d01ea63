#!/usr/bin/env bash
# Regenerate the README's benchmark table from one run (benches/benches/table.rs, package hopkit-benches): hopkit and each
# baseline timed interleaved, every pass from the same fresh inputs. Prints the machine and its
# load first: host timings move with load, the ratios much less.
#   scripts/bench-table.sh            # full run (≈ 1 minute)
#   scripts/bench-table.sh --quick    # short run
set -euo pipefail
cd "$(dirname "$0")/.."
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
echo "machine: ${cpu:-unknown CPU}, $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
cargo bench -q -p hopkit-benches --bench table -- "$@" 2>/dev/null | grep '^|'
echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
