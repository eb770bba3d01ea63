#!/usr/bin/env bash
# The WASM-4 cart in WASM-4's native runtime (`w4 run-native`: the `wasm4-linux` binary the npm
# package ships), under a virtual X display (Xvfb), driven by real key events (xdotool).
#
#   scripts/ci-wasm4-native.sh [CART.wasm]     (default: carts/wasm4/web/out/hopkit.wasm, the
#                                              cart scripts/wasm4-cart.sh builds and ci-wasm4.sh
#                                              plays in Chromium)
#
# The same check as the browser test (carts/wasm4/web/browser-test.mjs): the cart traces every
# gamepad byte it read as run-length lines (`pad 0x21 x588`) and its state hash every 600 ticks;
# the bytes are rebuilt from that trace (key events never land on known frames), `level_tour`
# (carts/wasm4/examples) requires them to visit every part of the cart's level, and
# `hopkit-sim hash --gamepad FILE --level L` over exactly those bytes (L: the cart's level, `plain`, as
# `level_tour` names it) must print the
# cart's hash. The legs are the browser test's tour, steered closed-loop. Without Xvfb/xdotool
# (not root, or apt cannot install them) it prints SKIP.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
WEB="$REPO/carts/wasm4/web"
cart="$(realpath "${1:-$WEB/out/hopkit.wasm}")"
native="$WEB/node_modules/wasm4/assets/natives/wasm4-linux"
[ -f "$cart" ] || { echo "ci-wasm4-native: no cart at $cart (run scripts/wasm4-cart.sh)" >&2; exit 1; }
[ -x "$native" ] || { echo "ci-wasm4-native: no native runtime at $native (run scripts/wasm4-cart.sh: npm ci)" >&2; exit 1; }

need=()
command -v Xvfb >/dev/null || need+=(xvfb)
command -v xdotool >/dev/null || need+=(xdotool)
if [ ${#need[@]} -gt 0 ] && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1; } || true
fi
if ! command -v Xvfb >/dev/null || ! command -v xdotool >/dev/null; then
    echo "ci-wasm4-native: SKIP: needs Xvfb and xdotool (Debian: xvfb, xdotool; root to install)"
    exit 0
fi

# The host replay the closed-loop driver steers by (built before the real-time run starts).
cargo build -q -p hopkit-wasm4 --example level_tour
level_tour="${CARGO_TARGET_DIR:-$REPO/target}/debug/examples/level_tour"

work="$(mktemp -d)"
xvfb_pid=""
cart_pid=""
cleanup() {
    [ -n "$cart_pid" ] && kill "$cart_pid" 2>/dev/null || true
    [ -n "$xvfb_pid" ] && kill "$xvfb_pid" 2>/dev/null || true
    rm -rf "$work"
}
trap cleanup EXIT

# A free display number: the first without an X lock file.
d=90
while [ -e "/tmp/.X$d-lock" ] || [ -e "/tmp/.X11-unix/X$d" ]; do d=$((d + 1)); done
export DISPLAY=":$d"
Xvfb "$DISPLAY" -screen 0 800x600x24 -nolisten tcp >"$work/xvfb.log" 2>&1 &
xvfb_pid=$!
for _ in $(seq 50); do xdotool getdisplaygeometry >/dev/null 2>&1 && break; sleep 0.1; done

# The runtime keeps the cart's disk beside it: run a copy in an empty folder (a fresh disk).
cp "$cart" "$work/cart.wasm"
# Line-buffered stdout (stdbuf): the trace must reach the file as it is printed, not when the
# runtime exits. No audio device under Xvfb: the runtime says so on stderr and plays on.
(cd "$work" && exec timeout 180 stdbuf -oL "$native" cart.wasm >"$work/trace.txt" 2>"$work/stderr.txt") &
cart_pid=$!
win=""
for _ in $(seq 100); do
    win="$(xdotool search --name 'WASM-4' 2>/dev/null | head -1 || true)"
    [ -n "$win" ] && break
    sleep 0.1
done
[ -n "$win" ] || { echo "ci-wasm4-native: FAIL: the runtime opened no window" >&2; cat "$work/stderr.txt" >&2; exit 1; }
xdotool windowfocus "$win" 2>/dev/null || true

# The tour of the cart's level (both ramps, a ramp's drop, the wall), steered closed-loop from the
# cart's own trace (scripts/wasm4-native-tour.py): real-time key events never land on known
# frames, so each key is held for as long as the state replayed from the bytes read so far needs.
python3 "$REPO/scripts/wasm4-native-tour.py" "$win" "$work/trace.txt" "$level_tour" \
    "$work/gamepad.bin" "$work/cart-hash.txt"
kill "$cart_pid" 2>/dev/null || true
wait "$cart_pid" 2>/dev/null || true
cart_pid=""
"$level_tour" "$work/gamepad.bin" | tee "$work/level-tour.txt"
# The host runs the level the cart's game names (`level NAME:`, the cart's `LEVEL`), by name.
level="$(sed -n 's/^level \([a-z]*\):.*/\1/p' "$work/level-tour.txt")"
[ -n "$level" ] || { echo "ci-wasm4-native: FAIL: level_tour did not name the cart's level" >&2; exit 1; }
cart_hash="$(cat "$work/cart-hash.txt")"
host="$(cargo run -q -p hopkit-sim --release -- hash --gamepad "$work/gamepad.bin" --level "$level")"
echo "cart in the native runtime: $cart_hash"
echo "host (x86_64)             : $host  (hopkit-sim hash --gamepad FILE --level $level, $(stat -c %s "$work/gamepad.bin") bytes)"
[ "$cart_hash" = "$host" ] || { echo "ci-wasm4-native: FAIL: the native runtime's cart and the host disagree" >&2; exit 1; }
echo "ci-wasm4-native: ok"
