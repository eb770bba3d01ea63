#!/usr/bin/env bash
# Regenerates the pictures of the hopkit-sim window in docs/, without a display:
# - docs/window-strafe-hud.png: 12 s into the guide's recipe (W+D+E, then also Space), played
#   through the window's own frame logic (host-sim/examples/window_screenshot.rs): strafe meter,
#   legend, name tags;
# - docs/window-guide.png: the guide shown on first start;
# - docs/screenshot.png: tick 660 of the scripted demo, the headless frame the README shows
#   (`hopkit-sim --headless` writes it as hopkit-sim-out/frame-00660.png).
# The window composition is the same code headless and in the window (host-sim/src/desktop.rs),
# so no X server is needed.
#
#   scripts/window-screenshot.sh           rewrite the three pictures
#   scripts/window-screenshot.sh --check   make them in a temporary folder and fail if a committed
#                                          one shows other pixels (.ci/run: stale pictures fail CI)
#
# The other pictures in docs/ are checked where what they show is built and run:
# docs/wasm4-browser.png by scripts/ci-wasm4.sh (the cart in Chromium, frame-locked; regenerate
# with scripts/wasm4-screenshot.sh), docs/rp2040-oled.png by scripts/ci-rp2040.sh.
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run -q -p hopkit-sim --release --example window_screenshot -- \
  "$out/window-strafe-hud.png" "$out/window-guide.png"
cargo run -q -p hopkit-sim --release -- --headless -q --seconds 11 --frame-every 660 \
  --out-dir "$out/headless" >/dev/null
cp "$out/headless/frame-00660.png" "$out/screenshot.png"
for png in window-strafe-hud.png window-guide.png screenshot.png; do
  if [ "$check" = 1 ]; then
    scripts/png-same.py "$out/$png" "docs/$png" ||
      { echo "docs/$png is stale: run scripts/window-screenshot.sh" >&2; exit 1; }
    echo "docs/$png: up to date"
  else
    cp "$out/$png" "docs/$png"
    echo "wrote docs/$png"
  fi
done
