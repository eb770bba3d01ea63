#!/usr/bin/env bash
# The benchmark table of docs/benchmarks.md from one run (benches/benches/table.rs, package
# hopkit-benches): hopkit and each baseline timed interleaved, every pass from the same fresh
# inputs. Prints the machine and its load first: host timings move with load, the ratios much less.
#   scripts/bench-table.sh            # full run (≈ 1 minute), printed
#   scripts/bench-table.sh --quick    # short run, printed
#   scripts/bench-table.sh --write    # full run, written between the bench-table markers of
#                                     # docs/benchmarks.md (the one place its figures live)
#   scripts/bench-table.sh --collide [--write] [--quick]
#       # the collision rows (issue 34 §5): hopkit's whole step among 256 solids, and side by side
#       # with Rapier's KinematicCharacterController (benches/benches/rapier.rs, feature `rapier`:
#       # the only command that builds rapier3d), printed or written between the bench-collide
#       # markers of docs/benchmarks.md
#   scripts/bench-table.sh --instructions [--write]
#       # the movement rows' instructions per character under valgrind's callgrind (noise-free;
#       # benches/examples/movement_instructions.rs), printed or written between the
#       # bench-instructions markers of docs/benchmarks.md
set -euo pipefail
cd "$(dirname "$0")/.."
collide=0
if [ "${1:-}" = "--collide" ]; then
    collide=1
    shift
fi
instructions=0
if [ "${1:-}" = "--instructions" ]; then
    instructions=1
    shift
fi
write=0
if [ "${1:-}" = "--write" ]; then
    write=1
    shift
fi
if [ "$instructions" = 1 ]; then
    command -v valgrind >/dev/null || { echo "bench-table: needs valgrind" >&2; exit 1; }
    cargo build -q --release -p hopkit-benches --example movement_instructions
    bin=target/release/examples/movement_instructions
    # Instructions per character of one side over the grounded or the airborne half (512 each).
    count() {
        local ir
        ir="$(valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*pass_*' \
            "$bin" "$1" "$2" 2>&1 | sed -n 's/.*Collected : //p')"
        python3 -c "print(f'{$ir / (1000 * 512):.1f}')"
    }
    table="| bench (as the table's row) | hopkit ground | hopkit air | baseline ground | baseline air | ratio (hopkit / baseline, half airborne) |
|---|---|---|---|---|---|"
    while IFS='|' read -r what side base; do
        hg="$(count "$side" ground)"; ha="$(count "$side" air)"
        bg="$(count "$base" ground)"; ba="$(count "$base" air)"
        ratio="$(python3 -c "print(f'{($hg + $ha) / ($bg + $ba):.2f}')")"
        table="$table
| $what | $hg | $ha | $bg | $ba | **${ratio}×** |"
    done <<'ROWS'
raw wish, against the lean step|hopkit|lean
raw wish, against the seed's literal step|hopkit|literal
params a `const` (compiled in, as the lean step has them), raw wish, against the lean step|const|lean
the same `const` with `FrictionMath::SqrtDivide`, raw wish, against the lean step|exact|lean
`TickConsts`, raw wish, against the lean step|kernel_raw|lean
cached wish, against the lean step with its wish cached|hopkit_cached|lean_cached
params a `const`, cached wish, against the lean step with its wish cached|const_cached|lean_cached
the same `const` with `FrictionMath::SqrtDivide`, cached wish, against the lean step with its wish cached|exact_cached|lean_cached
`TickConsts`, cached wish, against the lean step with its wish cached|kernel|lean_cached
`planar_velocity_tick_batch` (start copy included), against the lean step with its wish cached|batch|lean_cached
ROWS
    if [ "$write" = 0 ]; then
        printf '%s\n' "$table"
        exit 0
    fi
    python3 - docs/benchmarks.md "$table" <<'EOF2'
import sys
path, table = sys.argv[1:]
s = open(path).read()
begin = s.index("\n", s.index("<!-- begin bench-instructions")) + 1
end = s.index("<!-- end bench-instructions -->")
open(path + ".tmp", "w").write(s[:begin] + table + "\n" + s[end:])
EOF2
    mv docs/benchmarks.md.tmp docs/benchmarks.md
    echo "bench-table: wrote the instruction counts to docs/benchmarks.md"
    exit 0
fi
cpu="$(sed -n 's/^model name[[:space:]]*: //p' /proc/cpuinfo 2>/dev/null | head -1)"
machine="machine: ${cpu:-unknown CPU}, $(nproc) cores; load average before: $(cut -d' ' -f1-3 /proc/loadavg 2>/dev/null)"
if [ "$collide" = 1 ]; then
    table="$(cargo bench -q -p hopkit-benches --features rapier --bench rapier -- "$@" | grep '^|')"
    [ -n "$table" ] || { echo "bench-table: the rapier bench printed no table" >&2; exit 1; }
    if [ "$write" = 0 ]; then
        printf '%s\n%s\n' "$machine" "$table"
        exit 0
    fi
    python3 - docs/benchmarks.md "$machine" "$table" <<'EOF2'
import sys
path, machine, table = sys.argv[1:]
s = open(path).read()
begin = s.index("\n", s.index("<!-- begin bench-collide")) + 1
end = s.index("<!-- end bench-collide -->")
open(path + ".tmp", "w").write(s[:begin] + machine + "\n\n" + table + "\n" + s[end:])
EOF2
    mv docs/benchmarks.md.tmp docs/benchmarks.md
    echo "bench-table: wrote the collision rows to docs/benchmarks.md"
    exit 0
fi
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
