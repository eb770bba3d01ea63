#!/usr/bin/env bash
# Rollback netplay at CI scale (called by .ci/run), with the release `hopkit-sim`:
#  1. GGRS's SyncTest at check distance 7 over 100,000 frames of mixed input (scripted runs, the
#     recorded demo ghost, random frames): must report 0 mismatches;
#  2. two peers over 127.0.0.1 through the lossy socket (5 % loss, 150 ± 30 ms each way), input
#     delay 0, desync detection every frame, 3,600 frames: same state hash, 0 desync events; the
#     logged inputs replayed through `hopkit-sim hash --arena` give that hash;
#     the same session played straight (no rollback) by the Cortex-M4F and Cortex-M0 images under
#     QEMU (qemu-netplay's arena-session-hash) gives that hash too;
#  3. negative controls: a synctest whose step flips a bit once must fail; a peer that flips one
#     state bit at tick 300 must be reported as a desync (both peers exit 1).
# Prints every run's summary. Takes about 70 s (the peers play in real time, 60 frames/s; the
# synctests run while they play).
set -euo pipefail
cd "$(dirname "$0")/.."
cargo build -q --release -p hopkit-sim
sim=target/release/hopkit-sim
tmp=$(mktemp -d)
trap 'kill $(jobs -p) 2>/dev/null || true; rm -rf "$tmp"' EXIT
fail() { echo "ci-netplay: $*" >&2; exit 1; }

# The peers play in real time (60 s, mostly asleep): they start first, and the synctests (CPU
# bound) run while they play.
# Four free UDP ports.
read -r pa pb pc pd < <(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(4)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')
common=(--headless --input-delay 0 --desync-interval 1 --max-prediction 8)
mkdir -p "$tmp/a" "$tmp/b"
"$sim" netplay --local-port "$pa" --remote "127.0.0.1:$pb" "${common[@]}" --frames 3600 --player 1 \
  --lossy 5,150,30,1 --input mixed --log "$tmp/a" >"$tmp/a.txt" 2>&1 & a=$!
"$sim" netplay --local-port "$pb" --remote "127.0.0.1:$pa" "${common[@]}" --frames 3600 --player 2 \
  --lossy 5,150,30,2 --input random --log "$tmp/b" >"$tmp/b.txt" 2>&1 & b=$!
"$sim" netplay --local-port "$pc" --remote "127.0.0.1:$pd" "${common[@]}" --frames 600 \
  --lossy 5,150,30,3 --perturb-at 300 >"$tmp/c.txt" 2>&1 & c=$!
"$sim" netplay --local-port "$pd" --remote "127.0.0.1:$pc" "${common[@]}" --frames 600 \
  --lossy 5,150,30,4 >"$tmp/d.txt" 2>&1 & d=$!
echo "-- synctest --check-distance 7 --frames 100000"
"$sim" synctest --check-distance 7 --frames 100000 --input mixed | tee "$tmp/sync.txt"
grep -q ': 0 mismatches' "$tmp/sync.txt" || fail "synctest found mismatches"

echo "-- synctest negative control (--perturb-at 5000 must fail)"
if "$sim" synctest --frames 10000 --perturb-at 5000 >"$tmp/sync-bad.txt" 2>&1; then
  cat "$tmp/sync-bad.txt"; fail "the perturbed synctest passed"
fi
cat "$tmp/sync-bad.txt"

echo "-- two peers, 3600 frames, --lossy 5,150,30 (and the control pair: 600 frames, one peer flips a bit at tick 300)"
ra=0; rb=0; rc=0; rd=0
wait "$a" || ra=$?; wait "$b" || rb=$?; wait "$c" || rc=$?; wait "$d" || rd=$?
for p in a b c d; do echo "[peer $p]"; cat "$tmp/$p.txt"; done
[ "$ra" = 0 ] && [ "$rb" = 0 ] || fail "a lossy peer failed (exit $ra, $rb)"
grep -qx 'desync events: 0' "$tmp/a.txt" && grep -qx 'desync events: 0' "$tmp/b.txt" ||
  fail "desync events on the lossy pair"
ha=$(grep '^state-hash:' "$tmp/a.txt"); hb=$(grep '^state-hash:' "$tmp/b.txt")
[ "$ha" = "$hb" ] || fail "the peers disagree: $ha vs $hb"
[ "$rc" = 1 ] && [ "$rd" = 1 ] || fail "the flipped bit was not reported by both peers (exit $rc, $rd)"
grep -q '^desync events: [1-9]' "$tmp/c.txt" || fail "control: no desync event"

echo "-- the session's inputs replayed: hash --arena player-1.ghost player-2.ghost"
hr=$("$sim" hash --arena "$tmp/a/player-1.ghost" "$tmp/a/player-2.ghost")
echo "$hr"
[ "$hr" = "$ha" ] || fail "replay $hr differs from the session's $ha"
cmp -s "$tmp/a/player-1.ghost" "$tmp/b/player-1.ghost" && cmp -s "$tmp/a/player-2.ghost" "$tmp/b/player-2.ghost" ||
  fail "the peers logged different confirmed inputs"
echo "-- the same session played straight on the Cortex-M4F and the Cortex-M0 (qemu-netplay: arena-session-hash)"
for arch in thumbv7em thumbv6m; do
  hq=$(scripts/qemu.sh "$arch" netplay | sed -n 's/^arena-session-hash: /state-hash: /p')
  echo "$arch: $hq"
  [ "$hq" = "$ha" ] || fail "$arch: $hq differs from the session's $ha"
done
echo "ci-netplay: ok (synctest 100000 frames 0 mismatches; lossy pair $ha, 0 desyncs; control reported; replay equal on the host, the M4F and the M0)"
