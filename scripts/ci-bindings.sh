#!/usr/bin/env bash
# C ABI and wasm cart checks (called by .ci/run; runnable by hand from anywhere).
#
#  1. hopkit-ffi tests: the committed C header is fresh (bindings/c/tests/integration/header.rs), ABI tests.
#  2. The C examples build with gcc -std=c11 -Wall -Wextra -Werror -pedantic (and one with g++
#     -std=c++17) against the static library and run; the `state-hash:` line they print must equal the Rust reference
#     (`hopkit_demo::scripted_hash`) and `hopkit-sim hash --scene demo --ticks N`; collide.c (a
#     level of solids, the world step and a trace callback) prints the core's hash for the same
#     run (`--example world_hash`).
#  3. hopkit-ffi builds as a bare-metal staticlib for Cortex-M (thumbv7em-none-eabihf); minimal.c,
#     and collide.c, cross-compiled with arm-none-eabi-gcc + newlib against it, run under QEMU
#     (mps2-an386) and print exactly what the host builds print; an LTO build with a panic handler that cannot
#     link proves no entry point can panic.
#  4. The wasm32 cart builds (opt-level z, LTO, one 64 KiB page of memory) and its size is
#     reported; the wasmi host test then runs it and requires the .wasm (bit-exact vs x86_64).
#
# Environment: HOPKIT_BINDINGS_TICKS (default 600), CC (default gcc, else cc), CARGO_TARGET_DIR,
# HOPKIT_CART_MAX_BYTES (size budget of the .wasm, default 147456 = 144 KiB: the cart holds the
# full level and the level of solids with their collision; it was 131072 until moving solids moved
# bodies in every mode, 2026-11-28: 128,710 → 133,373 B, the swimming and climbing carries and the
# water tick's part of them ≈ 4 KB).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
TICKS="${HOPKIT_BINDINGS_TICKS:-600}"
TARGET_DIR="${CARGO_TARGET_DIR:-$REPO/target}"
CART_MAX="${HOPKIT_CART_MAX_BYTES:-147456}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
if [ -z "${CC:-}" ]; then
    if command -v gcc >/dev/null; then CC=gcc; else CC=cc; fi
fi
if [ -z "${CXX:-}" ]; then
    if command -v g++ >/dev/null; then CXX=g++; else CXX=c++; fi
fi
start=$(date +%s)
step() { printf '\n-- bindings: %s (%ss) --\n' "$*" "$(($(date +%s) - start))"; }
fail() { echo "ci-bindings: FAIL: $*" >&2; exit 1; }

step "hopkit-ffi tests (header freshness, ABI)"
cargo test -p hopkit-ffi

step "C examples ($CC -std=c11 / $CXX -std=c++17, -Wall -Wextra -Werror -pedantic)"
make -s -C bindings/c c-examples CC="$CC" CARGO_TARGET_DIR="$TARGET_DIR"
have_cxx=0
if command -v "$CXX" >/dev/null; then
    make -s -C bindings/c cxx-examples CXX="$CXX" CARGO_TARGET_DIR="$TARGET_DIR"
    have_cxx=1
else
    echo "no C++ compiler ($CXX): cpp_smoke.cpp not built"
fi
demo_out="$("$TARGET_DIR/c-examples/hopkit_demo" "$TICKS")" || fail "hopkit_demo exited non-zero"
printf '%s\n' "$demo_out"
minimal_out="$("$TARGET_DIR/c-examples/minimal")" || fail "minimal exited non-zero"
printf '%s\n' "$minimal_out"
collide_out="$("$TARGET_DIR/c-examples/collide")" || fail "collide exited non-zero"
printf '%s\n' "$collide_out"
c_collide="$(printf '%s\n' "$collide_out" | grep '^state-hash: 0x' | tail -1 || true)"
rust_collide="$(cargo run -q -p hopkit-ffi --example world_hash)"
echo "collide.c: $c_collide; core (world_hash): $rust_collide"
[ -n "$c_collide" ] && [ "$c_collide" = "$rust_collide" ] ||
    fail "collide.c hash '$c_collide' differs from the core's '$rust_collide'"
c_cpp=""
if [ "$have_cxx" = 1 ]; then
    cpp_out="$("$TARGET_DIR/c-examples/cpp_smoke")" || fail "cpp_smoke exited non-zero"
    printf '%s\n' "$cpp_out"
    c_cpp="$(printf '%s\n' "$cpp_out" | grep '^state-hash: 0x' | tail -1 || true)"
fi
c_line="$(printf '%s\n' "$demo_out" | grep '^state-hash: 0x' | tail -1 || true)"
c_minimal="$(printf '%s\n' "$minimal_out" | grep '^state-hash: 0x' | tail -1 || true)"
rust_line="$(cargo run -q -p hopkit-ffi --example demo_hash -- "$TICKS")"
rust_600="$(cargo run -q -p hopkit-ffi --example demo_hash -- 600)"
echo "C    ($TICKS ticks): $c_line"
echo "Rust ($TICKS ticks): $rust_line"
[ -n "$c_line" ] && [ "$c_line" = "$rust_line" ] || fail "C example hash differs from Rust"
[ "$c_minimal" = "$rust_600" ] || fail "minimal.c hash '$c_minimal' differs from Rust '$rust_600'"
[ "$have_cxx" = 0 ] || [ "$c_cpp" = "$rust_600" ] || fail "cpp_smoke.cpp hash '$c_cpp' differs from Rust '$rust_600'"
# hopkit-sim's `hash --scene demo` (strict once the command exists in this tree).
sim_help="$(cargo run -q -p hopkit-sim -- hash --help 2>&1 || true)"
if printf '%s\n' "$sim_help" | grep -q -- '--scene'; then
    sim_out="$(cargo run -q -p hopkit-sim -- hash --scene demo --ticks "$TICKS")" ||
        fail "hopkit-sim hash --scene demo failed"
    sim_line="$(printf '%s\n' "$sim_out" | grep '^state-hash: 0x' | tail -1 || true)"
    echo "sim  ($TICKS ticks): $sim_line"
    [ "$sim_line" = "$c_line" ] || fail "hopkit-sim hash differs from the C example"
else
    echo "hopkit-sim has no 'hash --scene' command in this tree: compared with the Rust reference only"
fi

step "shared library (cdylib) loaded at run time: dlopen from C, ctypes from Python"
so="$TARGET_DIR/release/libhopkit_ffi.so"
[ -f "$so" ] || fail "no $so (cargo build -p hopkit-ffi --release builds it)"
# Exported symbols: exactly the hk_* functions the header declares, nothing of Rust's.
nm -D --defined-only "$so" | awk '{ print $NF }' | sort >"$TARGET_DIR/hopkit-ffi-exports.txt"
so_hk=$(grep -c '^hk_' "$TARGET_DIR/hopkit-ffi-exports.txt" || true)
so_other=$(grep -vc '^hk_' "$TARGET_DIR/hopkit-ffi-exports.txt" || true)
header_decl=$(grep -o '\bhk_[a-z0-9_]*(' bindings/c/include/hopkit.h | sort -u | wc -l)
echo "libhopkit_ffi.so exports $so_hk hk_* functions and $so_other other symbols (header declares $header_decl)"
[ "$so_other" = 0 ] || { grep -v '^hk_' "$TARGET_DIR/hopkit-ffi-exports.txt" | head; fail "the shared library exports more than hk_*"; }
[ "$so_hk" = "$header_decl" ] || fail "exported hk_* ($so_hk) != functions in hopkit.h ($header_decl)"
make -s -C bindings/c dlopen-example CC="$CC" CARGO_TARGET_DIR="$TARGET_DIR"
dl_line="$("$TARGET_DIR/c-examples/dlopen_demo" "$so" "$TICKS")" || fail "dlopen_demo failed"
echo "C via dlopen ($TICKS ticks): $dl_line"
[ "$dl_line" = "$rust_line" ] || fail "dlopen_demo hash differs from Rust"
if command -v python3 >/dev/null; then
    py_line="$(python3 bindings/c/examples/ctypes_demo.py "$so" "$TICKS")" || fail "ctypes_demo.py failed"
    echo "Python ctypes ($TICKS ticks): $py_line"
    [ "$py_line" = "$rust_line" ] || fail "ctypes_demo.py hash differs from Rust"
else
    echo "no python3: ctypes example skipped"
fi

if [ ! -x scripts/cross-cargo.sh ]; then
    fail "scripts/cross-cargo.sh (the wasm32/Cortex-M toolchain route) is missing"
fi
CROSS_DIR="${HOPKIT_CROSS_TARGET_DIR:-$TARGET_DIR/cross}"
# Size-optimised, abort-on-panic release builds (no top-level profile needed).
SIZE_FLAGS=(--release
    --config 'profile.release.opt-level="z"' --config 'profile.release.lto="fat"'
    --config 'profile.release.codegen-units=1' --config 'profile.release.panic="abort"'
    --config 'profile.release.debug=0' --config 'profile.release.strip=true')

step "hopkit-ffi as a bare-metal staticlib (thumbv7em-none-eabihf, no_std, panic-halt)"
# No LTO here: a fat-LTO staticlib would carry LLVM bitcode that a GCC toolchain cannot link.
scripts/cross-cargo.sh rustc --target thumbv7em-none-eabihf -p hopkit-ffi --lib --crate-type staticlib \
    --no-default-features --features panic-halt --release \
    --config 'profile.release.opt-level="s"' --config 'profile.release.panic="abort"' \
    --config 'profile.release.debug=0'
armlib="$CROSS_DIR/thumbv7em-none-eabihf/release/libhopkit_ffi.a"
[ -f "$armlib" ] || fail "no $armlib"
echo "Cortex-M staticlib: $armlib ($(stat -c %s "$armlib") bytes, with libcore)"
if command -v readelf >/dev/null; then
    exported=$(readelf -s "$armlib" | grep -c ' GLOBAL DEFAULT .* hk_' || true)
    header_fns=$(grep -c '^HkStatus hk_\|^[a-z0-9_ ]*\*\? *hk_[a-z0-9_]*(' bindings/c/include/hopkit.h || true)
    echo "  $exported hk_* functions defined as ARM machine code (header declares $header_fns)"
    [ "$exported" -ge "$header_fns" ] || fail "the Cortex-M staticlib lacks hk_* functions"
fi

step "the C examples on a Cortex-M4F (arm-none-eabi-gcc + newlib, QEMU mps2-an386)"
# The same minimal.c and collide.c, cross-compiled with GCC against the staticlib above and run under QEMU with
# semihosting: its output must equal the host build's, line for line.
if command -v arm-none-eabi-gcc >/dev/null && command -v qemu-system-arm >/dev/null; then
    make -s -B -C bindings/c cortex-m ARM_LIB="$armlib" CARGO_TARGET_DIR="$TARGET_DIR"
    m4_out="$(make -s -C bindings/c run-cortex-m ARM_LIB="$armlib" CARGO_TARGET_DIR="$TARGET_DIR")" ||
        fail "minimal.elf failed under QEMU: $m4_out"
    printf '%s\n' "$m4_out"
    arm-none-eabi-size "$TARGET_DIR/c-cortex-m/minimal.elf"
    [ "$m4_out" = "$minimal_out" ] || fail "the Cortex-M C example prints something else than on the host"
    m4_collide="$(make -s -C bindings/c run-cortex-m EXAMPLE=collide ARM_LIB="$armlib" CARGO_TARGET_DIR="$TARGET_DIR")" ||
        fail "collide.elf failed under QEMU: $m4_collide"
    printf '%s\n' "$m4_collide"
    arm-none-eabi-size "$TARGET_DIR/c-cortex-m/collide.elf"
    [ "$m4_collide" = "$collide_out" ] || fail "collide.c prints something else on the Cortex-M4F than on the host"
    echo "C on Cortex-M4F: identical to the host builds (minimal.c, collide.c)"
elif [ "${CI:-}" = true ]; then
    fail "arm-none-eabi-gcc or qemu-system-arm missing (.ci/run installs gcc-arm-none-eabi, libnewlib-arm-none-eabi, qemu-system-arm)"
else
    echo "arm-none-eabi-gcc or qemu-system-arm not installed: C-on-Cortex-M check skipped"
fi

step "C ABI: link-time proof that no entry point can panic (wasm32 cdylib, LTO, panic-never)"
# The `panic-never` handler calls a symbol that exists nowhere and wasm-ld rejects undefined
# symbols, so this links only if optimisation removed every panic path behind the exports.
scripts/cross-cargo.sh rustc --target wasm32-unknown-unknown -p hopkit-ffi --lib \
    --crate-type cdylib --no-default-features --features panic-never "${SIZE_FLAGS[@]}" ||
    fail "hopkit-ffi keeps a reachable panic path (see the undefined symbol above)"
echo "no reachable panic path in hopkit-ffi"

step "wasm32 cart (64 KiB of linear memory in total)"
scripts/cross-cargo.sh build --target wasm32-unknown-unknown -p hopkit-cart --lib "${SIZE_FLAGS[@]}"
wasm="$CROSS_DIR/wasm32-unknown-unknown/release/hopkit_cart.wasm"
[ -f "$wasm" ] || fail "no $wasm"
size=$(stat -c %s "$wasm")
echo "cart: $wasm: $size bytes (budget $CART_MAX)"
[ "$size" -le "$CART_MAX" ] || fail "hopkit_cart.wasm is $size bytes, over the $CART_MAX budget"

step "wasm cart under wasmi vs x86_64"
# The interpreter itself optimised (3 s instead of ~2 min of an unoptimised wasmi).
WASMI_FAST=()
for p in wasmi wasmi_ir wasmi_core wasmi_collections wasmparser; do
    WASMI_FAST+=(--config "profile.dev.package.$p.opt-level=3")
done
HOPKIT_CART_WASM="$wasm" HOPKIT_CART_TICKS="$TICKS" \
    cargo test -p hopkit-cart --test wasm "${WASMI_FAST[@]}" -- --include-ignored --nocapture

step "bindings done"
