#!/usr/bin/env bash
# Build the WASM-4 cart and its one-page HTML bundle with WASM-4's own tools.
#
#   scripts/wasm4-cart.sh            → bindings/wasm4/web/out/hopkit.wasm and hopkit.html
#
# 1. `cargo build` for wasm32-unknown-unknown (opt-level z, fat LTO, panic=abort, stripped), via
#    scripts/cross-cargo.sh (rustup's target, added on demand, or the Debian fallback), with the
#    firmware's plain `f32` renderer (feature `f32-render`: the same pixels as the fixed-point one,
#    in less code; wasm has hardware float).
# 2. `wasm-opt -Oz` from the npm `binaryen` package (WASM-4 refuses carts over 64 KiB; this step
#    takes the cart from ≈ 72 KB to ≈ 61 KB).
# 3. The size check: at most 65,536 bytes (HOPKIT_WASM4_MAX_BYTES).
# 4. `w4 bundle --html` from the npm `wasm4` package: one self-contained page with WASM-4's runtime.
# npm packages come from bindings/wasm4/web/package-lock.json (`npm ci`, offline-safe from the
# registry; nothing is downloaded at run time).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
WEB="$REPO/bindings/wasm4/web"
OUT="$WEB/out"
MAX="${HOPKIT_WASM4_MAX_BYTES:-65536}"
command -v npm >/dev/null || { echo "wasm4-cart: npm is needed (Debian: apt-get install npm)" >&2; exit 1; }
if [ ! -x "$WEB/node_modules/.bin/w4" ] || [ "$WEB/package-lock.json" -nt "$WEB/node_modules/.package-lock.json" ]; then
    (cd "$WEB" && npm ci --no-audit --no-fund --loglevel=error)
fi
scripts/cross-cargo.sh build --target wasm32-unknown-unknown -p hopkit-wasm4 --lib --release \
    --features f32-render \
    --config 'profile.release.opt-level="z"' --config 'profile.release.lto="fat"' \
    --config 'profile.release.panic="abort"' --config 'profile.release.strip=true' \
    --config 'profile.release.debug=0' --config 'profile.release.codegen-units=1'
raw="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}/wasm32-unknown-unknown/release/hopkit_wasm4.wasm"
mkdir -p "$OUT"
# Binaryen passes, measured on this cart: flattening and re-looping first, then merging
# near-identical functions, gains ≈ 500 B over plain -Oz. Not used: `--low-memory-unused` (≈ 470 B
# less) — its premise, that the low 1 KiB of memory is unused, is false on WASM-4 (its registers
# live there), and the cart has the margin without it.
"$WEB/node_modules/.bin/wasm-opt" --flatten --rereloop -Oz --merge-similar-functions -Oz --converge \
    --enable-bulk-memory --enable-sign-ext \
    --enable-mutable-globals --enable-nontrapping-float-to-int "$raw" -o "$OUT/hopkit.wasm"
size=$(stat -c %s "$OUT/hopkit.wasm")
echo "wasm4 cart: $(stat -c %s "$raw") bytes from cargo, $size bytes after wasm-opt -Oz (limit $MAX)"
[ "$size" -le "$MAX" ] || { echo "wasm4-cart: FAIL: $size bytes > $MAX (WASM-4 refuses carts over 64 KiB)" >&2; exit 1; }
(cd "$WEB" && node_modules/.bin/w4 bundle out/hopkit.wasm --html out/hopkit.html \
    --title "hopkit handheld" --description "strafe-jumping, a follower, critters and ghost pilots")
