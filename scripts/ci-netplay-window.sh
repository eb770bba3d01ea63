#!/usr/bin/env bash
# `hopkit-sim netplay --window` played by real key events (called by .ci/run): two windowed peers,
# each on its own virtual X display (Xvfb, as two machines would be: each window has its display's
# keyboard focus), talking over UDP on 127.0.0.1 without --player (the seats come from the seat
# handshake), driven by xdotool key events (XTEST, as a keyboard would be):
#  1. a session of 300 frames: peer A holds W+D+E+Space (run, strafe right, turn right, hop), peer
#     B holds W+A+Q then F (run, strafe left, turn left, then fire). Both must exit 0 with
#     0 desync events, different seats and the same state-hash; each player's logged confirmed
#     inputs must hold that player's keys as the arena frame they map to (so the keys went
#     window -> input -> GGRS -> the other peer), and `hopkit-sim hash --arena` of the logs must
#     give the session's hash;
#  2. the other side leaving: a second pair plays, B presses Esc after 2 s; A must show the
#     session as ended by the other player (A exits 0 after its own Esc, saying "the other player
#     left", B says "the window was closed").
# Without Xvfb/xdotool (not root, or apt cannot install them) it prints SKIP. About 25 s.
set -euo pipefail
cd "$(dirname "$0")/.."

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1; } || true
fi
if ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null; then
    echo "ci-netplay-window: SKIP: needs Xvfb and xdotool (Debian: xvfb, xdotool; root to install)"
    exit 0
fi

cargo build -q --release -p hopkit-sim
sim="$PWD/target/release/hopkit-sim"
work="$(mktemp -d)"
pids=()
cleanup() {
    for p in "${pids[@]}"; do kill "$p" 2>/dev/null || true; done
    rm -rf "$work"
}
trap cleanup EXIT
fail() { echo "ci-netplay-window: FAIL: $*" >&2; exit 1; }

# Two free display numbers (no X lock file), one X server each.
displays=()
d=90
while [ ${#displays[@]} -lt 2 ]; do
    if [ ! -e "/tmp/.X$d-lock" ] && [ ! -e "/tmp/.X11-unix/X$d" ]; then displays+=(":$d"); fi
    d=$((d + 1))
done
for disp in "${displays[@]}"; do
    Xvfb "$disp" -screen 0 1024x768x24 -nolisten tcp >"$work/xvfb${disp#:}.log" 2>&1 &
    pids+=($!)
done
for disp in "${displays[@]}"; do
    for _ in $(seq 50); do DISPLAY=$disp xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done
done
da=${displays[0]}
db=${displays[1]}

# Free UDP ports.
read -r pa pb pc pd < <(python3 -c '
import socket
s = [socket.socket(socket.AF_INET, socket.SOCK_DGRAM) for _ in range(4)]
for x in s: x.bind(("127.0.0.1", 0))
print(*[x.getsockname()[1] for x in s])')

# Start a windowed peer on a display (in this shell, so that `wait` can collect it); its pid in
# $peer_pid.
peer() { # display local-port remote-port out-file args…
    local disp="$1" lp="$2" rp="$3" out="$4"
    shift 4
    DISPLAY=$disp timeout 90 "$sim" netplay --window --local-port "$lp" --remote "127.0.0.1:$rp" \
        --timeout 30 "$@" >"$out" 2>&1 &
    peer_pid=$!
    pids+=("$peer_pid")
}
# Wait for the window on a display, focus it; prints its id.
window_of() { # display
    local w=""
    for _ in $(seq 100); do
        w="$(DISPLAY=$1 xdotool search --name 'hopkit-sim netplay' 2>/dev/null | head -1 || true)"
        [ -n "$w" ] && break
        sleep 0.1
    done
    [ -n "$w" ] || fail "no netplay window on $1"
    DISPLAY=$1 xdotool windowfocus --sync "$w" 2>/dev/null || DISPLAY=$1 xdotool windowfocus "$w"
    echo "$w"
}
keys() { # display down|up keys…
    local disp="$1" how="$2"
    shift 2
    for k in "$@"; do DISPLAY=$disp xdotool "key$how" "$k"; done
}

echo "-- two windows, 300 frames, seats by handshake, keys by xdotool"
mkdir -p "$work/log"
peer "$da" "$pa" "$pb" "$work/a.txt" --frames 300 --log "$work/log"; a=$peer_pid
peer "$db" "$pb" "$pa" "$work/b.txt" --frames 300; b=$peer_pid
window_of "$da" >/dev/null
window_of "$db" >/dev/null
sleep 0.5
keys "$da" down w d e space
keys "$db" down w a q
sleep 2
keys "$db" up w a q
keys "$db" down f
sleep 1
keys "$da" up w d e space
keys "$db" up f
ra=0; rb=0
wait "$a" || ra=$?
wait "$b" || rb=$?
echo "[peer A, display $da]"; cat "$work/a.txt"
echo "[peer B, display $db]"; cat "$work/b.txt"
[ "$ra" = 0 ] && [ "$rb" = 0 ] || fail "a windowed peer failed (exit $ra, $rb)"
grep -qx 'desync events: 0' "$work/a.txt" && grep -qx 'desync events: 0' "$work/b.txt" || fail "desync events"
ha=$(grep '^state-hash:' "$work/a.txt"); hb=$(grep '^state-hash:' "$work/b.txt")
[ "$ha" = "$hb" ] || fail "the windows disagree: $ha vs $hb"
sa=$(sed -n 's/^seat: player \([0-9]\) of 2.*/\1/p' "$work/a.txt")
sb=$(sed -n 's/^seat: player \([0-9]\) of 2.*/\1/p' "$work/b.txt")
[ -n "$sa" ] && [ -n "$sb" ] && [ "$sa" != "$sb" ] || fail "seats: A '$sa', B '$sb'"
hr=$("$sim" hash --arena "$work/log/player-1.ghost" "$work/log/player-2.ghost")
[ "$hr" = "$ha" ] || fail "the logged inputs replay to $hr, the session ended at $ha"
python3 - "$work/log" "$sa" "$sb" <<'EOF'
import struct, sys
log, sa, sb = sys.argv[1], int(sys.argv[2]), int(sys.argv[3])
def frames(seat):
    d = open(f"{log}/player-{seat}.ghost", "rb").read()
    assert d[:4] == b"HKGH", "not a recording"
    n = struct.unpack_from("<I", d, 8)[0]
    body = d[len(d) - 3 * n:]
    return [body[i] | body[i + 1] << 8 | body[i + 2] << 16 for i in range(0, len(body), 3)]
def word(fire=0, missile=0, toward=0, away=0, pitch=0, yaw=0):
    # hopkit_demo::arena::ArenaInput: fire | missile<<1 | toward<<2 | away<<3 | pitch6<<4 | yaw6<<10
    return fire | missile << 1 | toward << 2 | away << 3 | (pitch & 63) << 4 | (yaw & 63) << 10
# A: W (forward 31), D (strafe right: away), E (turn right: yaw -31), Space (hop: missile).
# B: W, A (strafe left: toward), Q (turn left: yaw +31); then F alone (fire).
checks = [(sa, "A: W+D+E+Space", word(missile=1, away=1, pitch=31, yaw=-31)),
          (sb, "B: W+A+Q", word(toward=1, pitch=31, yaw=31)),
          (sb, "B: F", word(fire=1))]
for seat, what, w in checks:
    n = frames(seat).count(w)
    print(f"player {seat} ({what}): {n} frames of 0x{w:06x}")
    if n < 20:
        sys.exit(f"ci-netplay-window: FAIL: the keys of {what} reached player {seat}'s confirmed inputs on {n} frames")
EOF

echo "-- the other side leaves: B presses Esc, A shows it and quits on its own Esc"
peer "$da" "$pc" "$pd" "$work/c.txt"; a=$peer_pid
peer "$db" "$pd" "$pc" "$work/d.txt"; b=$peer_pid
window_of "$da" >/dev/null
window_of "$db" >/dev/null
sleep 2.5
keys "$db" down Escape; keys "$db" up Escape
rb=0
wait "$b" || rb=$?
sleep 1
kill -0 "$a" 2>/dev/null || fail "peer A did not stay up to show that the other player left"
keys "$da" down Escape; keys "$da" up Escape
ra=0
wait "$a" || ra=$?
echo "[peer A]"; cat "$work/c.txt"
echo "[peer B]"; cat "$work/d.txt"
[ "$ra" = 0 ] && [ "$rb" = 0 ] || fail "exit codes $ra, $rb"
grep -q '^ended: the other player left at frame [1-9]' "$work/c.txt" || fail "A did not report the other player leaving"
grep -q '^ended: the window was closed at frame [1-9]' "$work/d.txt" || fail "B did not report its own close"
echo "ci-netplay-window: ok (two windows: seats $sa and $sb, $ha, 0 desyncs, keys in the confirmed inputs; the other side leaving is shown)"
