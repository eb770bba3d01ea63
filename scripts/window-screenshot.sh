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
set -euo pipefail
cd "$(dirname "$0")/.."
cargo run -q -p hopkit-sim --release --example window_screenshot -- \
  docs/window-strafe-hud.png docs/window-guide.png
out=$(mktemp -d)
trap 'rm -rf "$out"' EXIT
cargo run -q -p hopkit-sim --release -- --headless -q --seconds 11 --frame-every 660 \
  --out-dir "$out" >/dev/null
cp "$out/frame-00660.png" docs/screenshot.png
echo "wrote docs/screenshot.png"
