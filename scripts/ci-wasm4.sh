#!/usr/bin/env bash
# The WASM-4 cart in a real runtime (called by .ci/run; runnable by hand).
#
#  1. Build the cart with WASM-4's toolchain and check it is ≤ 64 KiB (scripts/wasm4-cart.sh).
#  2. Open the `w4 bundle --html` page in headless Chromium (Debian's `chromium`, driven by
#     puppeteer-core from npm; no browser download), play a fixed key script, and collect the
#     gamepad bytes the cart says it read and the hash it printed at tick 600
#     (carts/wasm4/web/browser-test.mjs).
#  3. `hopkit-sim hash --gamepad` over exactly those bytes must print the same hash.
#  4. The same cart, key script and check in WASM-4's native runtime under Xvfb
#     (scripts/ci-wasm4-native.sh).
# Without a browser (not root, or apt cannot install chromium) step 2–3 print SKIP with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
WEB="$REPO/carts/wasm4/web"
RUN="$WEB/out/run"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"

scripts/wasm4-cart.sh
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
(cd "$WEB" && CHROMIUM="$chromium" node browser-test.mjs out/hopkit.html out/run)
cart="$(cat "$RUN/cart-hash.txt")"
host="$(cargo run -q -p hopkit-sim --release -- hash --gamepad "$RUN/gamepad.bin")"
echo "cart in Chromium: $cart"
echo "host (x86_64)   : $host  (hopkit-sim hash --gamepad, $(stat -c %s "$RUN/gamepad.bin") bytes)"
[ "$cart" = "$host" ] || { echo "ci-wasm4: FAIL: the browser cart and the host disagree" >&2; exit 1; }
echo "ci-wasm4: ok"
