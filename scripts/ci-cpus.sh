#!/usr/bin/env bash
# One hash on every CPU (issue 15; called by .ci/run): the scripted demo's state hash after 600
# and 3,600 ticks on x86_64 (hopkit-sim), and the collision scenarios' hash (issue 34:
# `collision-hash`, the host's from the host-hash example) must be printed, bit for bit, by the
# QEMU images of
#   thumbv7em (Cortex-M4F, mps2-an386)    thumbv6m (Cortex-M0, microbit)    thumbv8m (Cortex-M33, mps2-an505)
#   riscv32imac (RISC-V soft float, virt) riscv32imafc (RISC-V F, virt)     aarch64 (Cortex-A53, virt)
# and with the micromath backend, the micromath golden hashes on x86_64, thumbv7em, thumbv6m and
# wasm32 (tests/tests/integration/micromath_golden.rs; the cores built with --features micromath).
# Prints one line per platform and the table docs/determinism.md shows.
set -uo pipefail
cd "$(dirname "$0")/.."
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
fail=0
if [ "$(id -u)" = 0 ]; then
    need=()
    command -v qemu-system-arm >/dev/null || need+=(qemu-system-arm)
    command -v qemu-system-riscv32 >/dev/null || need+=(qemu-system-misc)
    if [ ${#need[@]} -gt 0 ]; then
        apt-get update -qq >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq "${need[@]}" >/dev/null 2>&1 || true
    fi
fi
h600="$(cargo run -q -p hopkit-sim --release -- hash --scene demo --ticks 600 | sed -n 's/^state-hash: //p')"
h3600="$(cargo run -q -p hopkit-sim --release -- hash --scene demo --ticks 3600 | sed -n 's/^state-hash: //p')"
hcol="$(cargo run -q -p hopkit-firmware --example host-hash | sed -n 's/^collision-hash: //p')"
echo "x86_64 (hopkit-sim): 600 ticks $h600, 3600 ticks $h3600; collision $hcol (host-hash)"
log="$(mktemp -d)"
for arch in thumbv7em thumbv6m thumbv8m riscv32imac riscv32imafc aarch64; do
    out="$log/$arch.txt"
    if ! scripts/qemu.sh "$arch" demo >"$out" 2>&1; then
        echo "FAIL  $arch: the image did not run"; tail -5 "$out"; fail=1; continue
    fi
    q600="$(sed -n 's/^state-hash: //p' "$out")"
    q3600="$(sed -n 's/^state-hash-3600: //p' "$out")"
    qcol="$(sed -n 's/^collision-hash: //p' "$out")"
    if [ "$q600" = "$h600" ] && [ "$q3600" = "$h3600" ] && [ -n "$hcol" ] && [ "$qcol" = "$hcol" ]; then
        echo "ok    $arch: 600 ticks $q600, 3600 ticks $q3600, collision $qcol (equal to x86_64)"
    else
        echo "FAIL  $arch: 600 ticks '$q600', 3600 ticks '$q3600', collision '$qcol' (x86_64: $h600, $h3600, $hcol)"; fail=1
    fi
done

# The micromath backend: its own golden hashes (demo/tests/backend_golden.rs), the same on every CPU.
g() { sed -n "s/^const MICROMATH_$1: u64 = 0x\([0-9a-f_]*\);/\1/p" demo/tests/backend_golden.rs | tr -d _; }
m600="0x$(g 600)"
m3600="0x$(g 3600)"
mforms="0x$(g FORMS)"
mcol="0x$(g COLLISION)"
if cargo test -q -p hopkit-demo --features micromath --test backend_golden >"$log/mm-host.txt" 2>&1; then
    echo "ok    micromath x86_64: 600 ticks $m600, 3600 ticks $m3600, collision $mcol (demo/tests/backend_golden.rs)"
else
    echo "FAIL  micromath x86_64 golden hashes"; tail -5 "$log/mm-host.txt"; fail=1
fi
for arch in thumbv7em thumbv6m; do
    out="$log/mm-$arch.txt"
    if HOPKIT_QEMU_FEATURES=micromath HOPKIT_CROSS_TARGET_DIR="$PWD/target/cross-micromath" \
        scripts/qemu.sh "$arch" demo >"$out" 2>&1 &&
        [ "$(sed -n 's/^state-hash: //p' "$out")" = "$m600" ] &&
        [ "$(sed -n 's/^state-hash-3600: //p' "$out")" = "$m3600" ] &&
        [ "$(sed -n 's/^friction-forms-hash: //p' "$out")" = "$mforms" ] &&
        [ "$(sed -n 's/^collision-hash: //p' "$out")" = "$mcol" ]; then
        echo "ok    micromath $arch: 600 ticks $m600, 3600 ticks $m3600, friction forms $mforms, collision $mcol (equal to x86_64)"
    else
        echo "FAIL  micromath $arch"; grep -E 'state-hash|friction-forms|collision-hash|FAIL|PANIC' "$out"; fail=1
    fi
done
# wasm32: the cart built with micromath under wasmi, compared with the same code on x86_64 (the
# host side of that test is micromath too, whose hash the x86_64 line above pins to the golden).
wasm_dir="$PWD/target/cross-micromath"
if HOPKIT_CROSS_TARGET_DIR="$wasm_dir" scripts/cross-cargo.sh build -q --target wasm32-unknown-unknown \
        -p hopkit-cart --lib --release --features micromath \
        --config 'profile.release.opt-level="z"' --config 'profile.release.lto="fat"' \
        --config 'profile.release.panic="abort"' >"$log/mm-wasm.txt" 2>&1 &&
    HOPKIT_CART_WASM="$wasm_dir/wasm32-unknown-unknown/release/hopkit_cart.wasm" \
        cargo test -q -p hopkit-cart --features micromath --test wasm -- --include-ignored \
        scripted_demo_is_bit_exact_on_wasm32 --nocapture >>"$log/mm-wasm.txt" 2>&1; then
    echo "ok    micromath wasm32: $(grep -o 'wasm32 state-hash: 0x[0-9a-f]*' "$log/mm-wasm.txt" | head -1) (equal to x86_64 micromath)"
else
    echo "FAIL  micromath wasm32"; tail -8 "$log/mm-wasm.txt"; fail=1
fi

# Host CPU features: a user building with -C target-cpu=native (FMA, AVX-512 where the machine has
# them) must get the same golden hashes. Rust never contracts a*b+c into an FMA on its own.
feat="$(grep -o -m1 -w 'avx512f\|fma' /proc/cpuinfo 2>/dev/null | sort -u | tr '\n' ' ')"
if RUSTFLAGS="${RUSTFLAGS:-} -C target-cpu=native" CARGO_TARGET_DIR="$PWD/target/native" \
    cargo test -q -p hopkit-tests --release --test integration -- demo_golden:: ghost_golden:: \
    steering_determinism:: >"$log/native.txt" 2>&1; then
    echo "ok    x86_64 -C target-cpu=native (${feat:-no FMA/AVX-512 here}): golden hashes unchanged"
else
    echo "FAIL  -C target-cpu=native changed the golden hashes"; tail -8 "$log/native.txt"; fail=1
fi
rm -rf "$log"
[ "$fail" = 0 ] && echo "ci-cpus: every CPU printed the host's hashes" || { echo "ci-cpus: FAIL" >&2; exit 1; }
