#!/usr/bin/env bash
# Regenerate docs/wasm4-browser.png: the WASM-4 cart's bundled page in headless Chromium at tick
# 600 of the browser test's key script (strafe-jumping to the right, past the ground max speed).
set -euo pipefail
cd "$(dirname "$0")/.."
scripts/wasm4-cart.sh
cd carts/wasm4/web
node browser-test.mjs out/hopkit.html out/shot --screenshot ../../../docs/wasm4-browser.png
echo "wrote docs/wasm4-browser.png"
