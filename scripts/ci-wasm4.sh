#!/usr/bin/env bash
# The WASM-4 cart in a real runtime (called by .ci/run; runnable by hand).
#
#  1. Build the cart with WASM-4's toolchain and check it is ≤ 64 KiB (scripts/wasm4-cart.sh).
#  2. Open the `w4 bundle --html` page in headless Chromium (Debian's `chromium`, driven by
#     puppeteer-core from npm; no browser download), frame-locked, play the tour of the cart's
#     level (`--tour`: both ramps, a ramp's drop, the wall; 30 s), and collect the gamepad bytes
#     the cart says it read and the hash it printed at tick 1800
#     (carts/wasm4/web/browser-test.mjs). `level_tour` (carts/wasm4/examples) replays the bytes
#     through the cart's game on the host and fails unless every part of the level was visited.
#  3. `hopkit-sim hash --gamepad FILE --level L` over exactly those bytes (L: the cart's level,
#     `plain`, as `level_tour` names it) must print the same hash; the picture at tick 1800 must be docs/wasm4-browser.png
#     (pixels; regenerate with scripts/wasm4-screenshot.sh).
#  4. The same with a recording on the cart's disk (`--disk`, the page reloaded): the cart says it
#     flies it and `hopkit-sim hash --gamepad … --ghost FILE` agrees; a corrupt disk: the bundled one.
#  5. Record mode (feature `record`, on in the shipped cart): record with a key script, reload,
#     the cart flies the recording and `hopkit-sim hash --gamepad … --ghost DISK` agrees, also
#     on the disk as the runtime stored it (zero-padded to 4-byte groups: `hopkit-sim info` must
#     load it with its recorded length).
#  6. The same cart, key script and check in WASM-4's native runtime under Xvfb
#     (scripts/ci-wasm4-native.sh; it runs first, right after the build).
# Without a browser (not root, or apt cannot install chromium) step 2–3 print SKIP with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
WEB="$REPO/carts/wasm4/web"
RUN="$WEB/out/run"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

scripts/wasm4-cart.sh
# The solid level's cart (feature `level-solids`: measured, too big to ship, docs/bindings.md)
# plays the level `hopkit-sim hash --gamepad FILE --level solid` runs (host test, a few seconds).
cargo test -q -p hopkit-wasm4 --features level-solids --lib solid_level
scripts/ci-wasm4-native.sh

chromium="${CHROMIUM:-/usr/bin/chromium}"
if [ ! -x "$chromium" ] && [ "$(id -u)" = 0 ]; then
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1 ||
        { apt-get update -qq >/dev/null 2>&1 && DEBIAN_FRONTEND=noninteractive apt-get install -y -qq chromium >/dev/null 2>&1; } || true
fi
if [ ! -x "$chromium" ]; then
    echo "ci-wasm4: SKIP browser test: no Chromium at $chromium and it could not be installed (needs root + apt)"
    exit 0
fi
rm -rf "$RUN"
(cd "$WEB" && CHROMIUM="$chromium" node browser-test.mjs out/hopkit.html out/run --tour --screenshot out/run/shot.png)
cargo run -q -p hopkit-wasm4 --example level_tour -- "$RUN/gamepad.bin" | tee "$RUN/level-tour.txt"
# Every host command below runs the level the cart's game names (`level NAME:`: the cart's
# `LEVEL`, `plain`), by name.
level="$(sed -n 's/^level \([a-z]*\):.*/\1/p' "$RUN/level-tour.txt")"
[ -n "$level" ] || { echo "ci-wasm4: FAIL: level_tour did not name the cart's level" >&2; exit 1; }
cart="$(cat "$RUN/cart-hash.txt")"
host="$(cargo run -q -p hopkit-sim --release -- hash --gamepad "$RUN/gamepad.bin" --level "$level")"
echo "cart in Chromium: $cart"
echo "host (x86_64)   : $host  (hopkit-sim hash --gamepad FILE --level $level, $(stat -c %s "$RUN/gamepad.bin") bytes)"
[ "$cart" = "$host" ] || { echo "ci-wasm4: FAIL: the browser cart and the host disagree" >&2; exit 1; }
scripts/png-same.py "$RUN/shot.png" docs/wasm4-browser.png ||
    { echo "ci-wasm4: FAIL: docs/wasm4-browser.png is stale: run scripts/wasm4-screenshot.sh" >&2; exit 1; }
echo "docs/wasm4-browser.png: up to date"
want_ghost() { # run-dir expected-line
    [ "$(cat "$1/ghost.txt")" = "$2" ] ||
        { echo "ci-wasm4: FAIL: the cart says '$(cat "$1/ghost.txt")', expected '$2'" >&2; exit 1; }
}
want_ghost "$RUN" "ghost: bundled"

# 4. The disk (issue 25): a recording on the cart's disk (put in localStorage, the page reloaded)
#    is what the formation flies — the host replays the same bytes with that ghost and must print
#    the same hash; a corrupt disk falls back to the bundled ghost. The recording is a corpus file
#    of 275 bytes, not a multiple of 4: the web runtime reads it back zero-padded to 276.
disk="$REPO/demo/assets/corpus/keyboard.v2.ghost"
run_disk="$WEB/out/run-disk"
rm -rf "$run_disk"
(cd "$WEB" && CHROMIUM="$chromium" node browser-test.mjs out/hopkit.html out/run-disk --disk "$disk")
want_ghost "$run_disk" "ghost: from disk"
cart="$(cat "$run_disk/cart-hash.txt")"
host="$(cargo run -q -p hopkit-sim --release -- hash --gamepad "$run_disk/gamepad.bin" --ghost "$disk" --level "$level")"
echo "cart with the disk's ghost: $cart"
echo "host (hash --ghost)       : $host"
[ "$cart" = "$host" ] ||
    { echo "ci-wasm4: FAIL: the browser cart and the host disagree on the disk's ghost" >&2; exit 1; }
bad="$WEB/out/corrupt.ghost"
python3 -c 'import sys; b = bytearray(open(sys.argv[1], "rb").read()); b[100] ^= 0x10; open(sys.argv[2], "wb").write(b)' "$disk" "$bad"
run_bad="$WEB/out/run-corrupt"
rm -rf "$run_bad"
(cd "$WEB" && CHROMIUM="$chromium" node browser-test.mjs out/hopkit.html out/run-corrupt --disk "$bad")
want_ghost "$run_bad" "ghost: disk corrupt"
cart="$(cat "$run_bad/cart-hash.txt")"
host="$(cargo run -q -p hopkit-sim --release -- hash --gamepad "$run_bad/gamepad.bin" --level "$level")"
[ "$cart" = "$host" ] ||
    { echo "ci-wasm4: FAIL: corrupt disk: the cart ($cart) and the host's bundled ghost ($host) disagree" >&2; exit 1; }
echo "corrupt disk: the bundled ghost, $cart"

# 5. Record mode (issue 25 §2, in the shipped cart): fly a recording with a key script in the
#    cart's record mode; the cart writes it to its disk (localStorage) and the page is reloaded;
#    the cart must fly it (`ghost: from disk`), and the host replaying the disk's bytes (read
#    back out of localStorage) with the same gamepad bytes must print the same hash.
run_rec="$WEB/out/run-record"
rm -rf "$run_rec"
(cd "$WEB" && CHROMIUM="$chromium" node browser-test.mjs out/hopkit.html out/run-record --record)
want_ghost "$run_rec" "ghost: from disk"
cargo run -q -p hopkit-sim --release -- info "$run_rec/disk.ghost"
cart="$(cat "$run_rec/cart-hash.txt")"
host="$(cargo run -q -p hopkit-sim --release -- hash --gamepad "$run_rec/gamepad.bin" --ghost "$run_rec/disk.ghost" --level "$level")"
echo "cart flying the recording it made: $cart"
echo "host (hash --ghost disk.ghost)    : $host"
[ "$cart" = "$host" ] ||
    { echo "ci-wasm4: FAIL: the browser cart and the host disagree on the recorded ghost" >&2; exit 1; }
# The disk as the runtime stored it: zero-padded to a multiple of 4 bytes. It must load in the
# host's tools with the recorded length, and fly as the same ghost.
stored="$run_rec/disk-stored.ghost"
cargo run -q -p hopkit-sim --release -- info "$stored" | tee "$run_rec/info-stored.txt"
frames="$(sed -n 's/^recorded \([0-9]*\) ticks.*/\1/p' "$run_rec/recorded.txt")"
grep -qx "frames: $frames" "$run_rec/info-stored.txt" ||
    { echo "ci-wasm4: FAIL: hopkit-sim info does not load the stored disk with its $frames frames" >&2; exit 1; }
padded="$(cargo run -q -p hopkit-sim --release -- hash --gamepad "$run_rec/gamepad.bin" --ghost "$stored" --level "$level")"
[ "$padded" = "$host" ] ||
    { echo "ci-wasm4: FAIL: the stored ($(stat -c %s "$stored") B) and exact disk fly differently" >&2; exit 1; }
echo "the disk as stored: $(stat -c %s "$stored") bytes ($(stat -c %s "$run_rec/disk.ghost") recorded), loads and flies the same"
echo "ci-wasm4: ok"
