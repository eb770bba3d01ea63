#!/usr/bin/env bash
# The benchmark table of docs/benchmarks.md from one run (benches/benches/table.rs, package
# hopkit-benches): hopkit and each baseline timed interleaved, every pass from the same fresh
# inputs. Prints the machine and its load first: host timings move with load, the ratios much less.
#   scripts/bench-table.sh            # full run (≈ 1 minute), printed
#   scripts/bench-table.sh --quick    # short run, printed
#   scripts/bench-table.sh --write    # full run, written between the bench-table markers of
#                                     # docs/benchmarks.md (the one place its figures live)
set -euo pipefail
cd "$(dirname "$0")/.."
write=0
if [ "${1:-}" = "--write" ]; then
    write=1
    shift
fi
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
machine="machine: ${cpu:-unknown CPU}, $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
table="$(cargo bench -q -p hopkit-benches --bench table -- "$@" 2>/dev/null | grep '^|')"
if [ "$write" = 0 ]; then
    printf '%s\n%s\n' "$machine" "$table"
    echo "load average after: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
    exit 0
fi
[ -n "$table" ] || { echo "bench-table: the bench printed no table" >&2; exit 1; }
python3 - docs/benchmarks.md "$machine" "$table" <<'EOF'
import sys
path, machine, table = sys.argv[1:]
s = open(path).read()
begin = s.index("\n", s.index("<!-- begin bench-table")) + 1
end = s.index("<!-- end bench-table -->")
open(path + ".tmp", "w").write(s[:begin] + machine + "\n\n" + table + "\n" + s[end:])
EOF
mv docs/benchmarks.md.tmp docs/benchmarks.md
echo "bench-table: wrote docs/benchmarks.md"
