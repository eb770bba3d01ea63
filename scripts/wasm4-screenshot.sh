#!/usr/bin/env bash
# Regenerate docs/wasm4-browser.png: the WASM-4 cart's bundled page in headless Chromium at tick
# 1800 of the browser test's tour of the cart's level (frame-locked, so the same pixels every
# run: scripts/ci-wasm4.sh fails when the committed picture differs).
#
#   scripts/wasm4-screenshot.sh           rewrite docs/wasm4-browser.png
#   scripts/wasm4-screenshot.sh --check   fail if docs/wasm4-browser.png shows other pixels
set -euo pipefail
cd "$(dirname "$0")/.."
check=0
[ "${1:-}" = "--check" ] && check=1
scripts/wasm4-cart.sh
out="$(mktemp -d)"
trap 'rm -rf "$out"' EXIT
(cd carts/wasm4/web && node browser-test.mjs out/hopkit.html "$out/run" --tour --screenshot "$out/shot.png")
if [ "$check" = 1 ]; then
    scripts/png-same.py "$out/shot.png" docs/wasm4-browser.png ||
        { echo "docs/wasm4-browser.png is stale: run scripts/wasm4-screenshot.sh" >&2; exit 1; }
    echo "docs/wasm4-browser.png: up to date"
else
    cp "$out/shot.png" docs/wasm4-browser.png
    echo "wrote docs/wasm4-browser.png"
fi
