#!/usr/bin/env bash
# The link cable, proven on two emulated RP2040s wired together (called by .ci/run; runnable by
# hand). Both boards run the very UF2 users flash (`cd firmware && cargo pico`); the harness,
# firmware/rp2040-emu/link.mjs, runs two rp2040js instances of it in one node process with their
# UART0s wired TX→RX both ways, each board's sticks and buttons from its own file:
#
#   1. a 3,600-frame match over a wire with 20 ms of delay: both boards' state hashes after 600 and
#      3,600 confirmed frames, and the host's replay of their inputs (`hopkit-sim link inputs` turns
#      each board's sticks file, from the input its match began at, into that seat's recording;
#      `hopkit-sim hash --arena` replays the two) — all equal; rollbacks and deepest rollback shown;
#   2. dropped and flipped bytes on the wire (0.2 % each way): the match ends equal to the replay,
#      or a board reported the desync it detected — never a silent divergence;
#   3. the wire cut from 4 s to 5 s: both boards report the link lost within a second of the cut
#      and a second match after it, whose hashes equal the replay of its inputs;
#   4. negative control: one frame of one board's input changed in its log after the run changes
#      the replay's hash.
#
#   scripts/ci-link.sh                  all of the above
#   scripts/ci-link.sh --measure FILE   only the budget run (600 frames over a 120 ms wire, so that
#                                       rollbacks reach 8 frames): append `rp2040.link-*` lines to
#                                       FILE (scripts/budgets.sh)
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
fail() { echo "ci-link: FAIL: $*" >&2; exit 1; }
mode=check
measure=""
case "${1:-}" in
    --measure) mode=measure; measure="${2:?--measure FILE}" ;;
    "") ;;
    *) fail "unknown option $1" ;;
esac
work="$(mktemp -d)"
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
t0=$(date +%s)

# The image, by the documented command (as scripts/ci-rp2040.sh builds it), and the host tool.
cross_dir="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}"
elf="$cross_dir/thumbv6m-none-eabi/pico/rp2040"
(cd firmware && ../scripts/cross-cargo.sh run -q --profile pico --features rp2040 --bin rp2040 \
    --target thumbv6m-none-eabi) >"$work/pico.txt" || { cat "$work/pico.txt"; fail "cargo pico"; }
uf2="$elf.uf2"
[ -f "$uf2" ] || fail "no $uf2"
cargo build -q --release -p hopkit-sim
sim="${CARGO_TARGET_DIR:-$REPO/target}/release/hopkit-sim"
(cd firmware/rp2040-emu && npm ci --silent --no-audit --no-fund >/dev/null) || fail "npm ci in firmware/rp2040-emu"

# The boards' inputs: board 1 plays the scripted demo's samples; board 2 the same script 900 ticks
# further on with its X axes mirrored (it strafes and turns the other way).
"$sim" sticks --out "$work/script.txt" --ticks 9000 --force >/dev/null
awk '/^[ \t]*(#|$)/ { next } { print }' "$work/script.txt" >"$work/board-1.txt"
awk '/^[ \t]*(#|$)/ { next } { n++; if (n > 900) { $1 = 4095 - $1; $3 = 4095 - $3; print } }' \
    "$work/script.txt" >"$work/board-2.txt"
link() { node firmware/rp2040-emu/link.mjs "$uf2" --sticks "$work/board-1.txt" --sticks "$work/board-2.txt" "$@"; }

# dropped RUN BOARD: frames the board's CRC/framing check dropped (its last report line).
dropped() { sed -n "s/^board $2 rollbacks: .* dropped \([0-9]*\) .*/\1/p" "$1" | tail -1; }
# The host's replay of match M of run RUN after F frames (changing frame C of seat 2 if given).
replay() { # run match frames [change]
    local run="$1" m="$2" f="$3" change="${4:-}"
    for b in 1 2; do
        local line seat from
        line="$(grep "^board $b: link: match $m up," "$run" | head -1)"
        seat="$(echo "$line" | sed -n 's/.* seat \([12]\) of 2.*/\1/p')"
        from="$(echo "$line" | sed -n 's/.* frame 0 at input \([0-9]*\).*/\1/p')"
        [ -n "$seat" ] && [ -n "$from" ] || fail "$run: board $b reported no match $m"
        local extra=()
        [ -n "$change" ] && [ "$seat" = 2 ] && extra=(--change "$change")
        "$sim" link inputs --sticks "$work/board-$b.txt" --from "$from" --frames "$f" \
            --out "$work/seat-$seat.ghost" "${extra[@]}" >/dev/null
    done
    "$sim" hash --arena "$work/seat-1.ghost" "$work/seat-2.ghost" --ticks "$f" | sed -n 's/^state-hash: //p'
}
# Both boards' hashes of match M at frame F equal each other and the host's replay.
check_equal() { # run match frame label
    local run="$1" m="$2" f="$3" label="$4" b1 b2 host
    b1="$(sed -n "s/^board 1 match $m frame $f state-hash: //p" "$run")"
    b2="$(sed -n "s/^board 2 match $m frame $f state-hash: //p" "$run")"
    host="$(replay "$run" "$m" "$f")"
    printf '%s frame %5d: board 1 state-hash: %s\n' "$label" "$f" "$b1"
    printf '%s frame %5d: board 2 state-hash: %s\n' "$label" "$f" "$b2"
    printf '%s frame %5d: host    state-hash: %s (replay of both boards'"'"' inputs)\n' "$label" "$f" "$host"
    [ -n "$b1" ] && [ "$b1" = "$b2" ] && [ "$b1" = "$host" ] || return 1
}
no_dropped_ticks() { # run
    for b in 1 2; do
        grep "^board $b: link frame" "$1" | grep -qv "dropped-ns 0 max-ticks-per-poll 1" &&
            fail "$1: board $b dropped a tick (a line with dropped-ns > 0 or more than one tick per poll)"
    done
    return 0
}

if [ "$mode" = measure ]; then
    link --frames 600 --delay-ms 120 --json "$work/budget.json" >"$work/budget.txt" ||
        { cat "$work/budget.txt"; fail "the budget run"; }
    no_dropped_ticks "$work/budget.txt"
    python3 - "$work/budget.json" >>"$measure" <<'EOF'
import json, sys
r = json.load(open(sys.argv[1]))
b = r["boards"]
deepest = min(x["counters"]["deepest"] for x in b)
if deepest < 8:
    sys.exit(f"ci-link: the budget run's deepest rollback is {deepest} frames, not 8")
print(f"rp2040.link-frame-work-cycles-max {max(x['work']['max'] for x in b)}")
print(f"rp2040.link-frame-work-cycles-mean {max(x['work']['mean'] for x in b)}")
print(f"rp2040.link-deepest-rollback {max(x['counters']['deepest'] for x in b)}")
print(f"rp2040.link-dropped-ns {max(x['counters']['dropped-ns'] for x in b)}")
print(f"rp2040.link-max-ticks-per-poll {max(x['counters']['max-ticks-per-poll'] for x in b)}")
EOF
    sed -n 's/^board 1: link: static RAM \([0-9]*\) B.*/rp2040.link-static-ram \1/p' "$work/budget.txt" | head -1 >>"$measure"
    exit 0
fi

# Runs 2 and 3 (one node process each, single-threaded) start now, beside run 1: on a two-core
# machine the three emulations take about the wall time of run 1 alone. Their logs are checked
# after run 1's, in order.
link --frames 600 --delay-ms 5 --drop-ppm 2000 --flip-ppm 2000 --seed 7 >"$work/b.txt" 2>&1 &
pid_b=$!
link --frames 600 --delay-ms 5 --cut-s 4-5 >"$work/c.txt" 2>&1 &
pid_c=$!

# 1. The match over a 20 ms wire.
s=$(date +%s)
link --frames 3600 --delay-ms 20 >"$work/a.txt" || { cat "$work/a.txt"; fail "the 3,600-frame run"; }
grep -E "^(image|board [12]: (hopkit|link: )|board [12] (seat|rollbacks|cycles|links)|wire|wall)" "$work/a.txt"
check_equal "$work/a.txt" 1 600 "delay 20 ms" || fail "600-frame hashes differ"
check_equal "$work/a.txt" 1 3600 "delay 20 ms" || fail "3,600-frame hashes differ"
no_dropped_ticks "$work/a.txt"
echo "run 1 took $(($(date +%s) - s)) s"

# 4. Negative control on run 1's logs: frame 300 of seat 2 changed.
c600="$(replay "$work/a.txt" 1 600 300)"
h600="$(replay "$work/a.txt" 1 600)"
[ "$c600" != "$h600" ] || fail "changing one input in a log did not change the replay's hash"
echo "negative control: frame 300 of seat 2 changed in its log → replay state-hash $c600 (was $h600)"

# 2. Dropped and flipped bytes (started beside run 1).
s=$(date +%s)
wait "$pid_b" || { cat "$work/b.txt"; fail "the corrupted-bytes run"; }
grep -E "^(board [12] (rollbacks|links)|wire)" "$work/b.txt"
if check_equal "$work/b.txt" 1 600 "dropped+flipped"; then
    echo "corrupted bytes: the match ended equal (damaged frames dropped: board 1 $(dropped "$work/b.txt" 1), board 2 $(dropped "$work/b.txt" 2))"
elif grep -q "^board [12]: link: DESYNC" "$work/b.txt"; then
    echo "corrupted bytes: the boards diverged and reported it:"
    grep "^board [12]: link: DESYNC" "$work/b.txt"
else
    fail "the corrupted-bytes run diverged silently"
fi
grep -q "^wire 1→2: [0-9]* bytes sent, [1-9][0-9]* dropped, [1-9][0-9]* flipped" "$work/b.txt" ||
    fail "the corrupted-bytes run corrupted nothing"
no_dropped_ticks "$work/b.txt"
echo "run 2 done $(($(date +%s) - s)) s after run 1"

# 3. The wire cut for a second, then joined again (started beside run 1).
s=$(date +%s)
wait "$pid_c" || { cat "$work/c.txt"; fail "the cut-wire run"; }
grep -E "^(board [12]: link: (match|lost)|board [12] links)" "$work/c.txt"
for b in 1 2; do
    lost="$(sed -n "s/^board $b links-lost: \([0-9]*\) (at \([0-9.]*\) s.*/\2/p" "$work/c.txt")"
    [ -n "$lost" ] || fail "board $b never reported the link lost"
    awk -v t="$lost" 'BEGIN { exit !(t >= 4.0 && t <= 5.0) }' ||
        fail "board $b: link lost at $lost s, not within a second of the cut at 4 s"
    echo "cut wire: board $b showed LINK LOST at $lost s (cut at 4.000 s)"
done
check_equal "$work/c.txt" 2 600 "after the cut" || fail "the second match's hashes differ"
no_dropped_ticks "$work/c.txt"
echo "run 3 done $(($(date +%s) - s)) s after run 2"
echo "ci-link: ok ($(($(date +%s) - t0)) s)"
