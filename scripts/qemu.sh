#!/usr/bin/env bash
# Build a hopkit QEMU image and run it, printing its output; exits with the image's status.
#
#   scripts/qemu.sh [thumbv7em|thumbv6m] [demo|bench|panic-check]
#
#   thumbv7em (default): thumbv7em-none-eabihf on `qemu-system-arm -machine mps2-an386 -cpu cortex-m4`
#   thumbv6m:            thumbv6m-none-eabi   on `qemu-system-arm -machine microbit` (Cortex-M0, 16 KiB RAM)
#
#   demo (default): the handheld app on scripted input; prints `state-hash: 0x…` after 600 ticks
#   bench:          instruction counts (`-icount shift=0`): movement-step-instr, demo-tick-instr, …
#   panic-check:    the image that only links if the core's per-tick path has no reachable panic
#
# Needs qemu-system-arm (Debian: apt-get install qemu-system-arm). The cross toolchain is set up by
# scripts/cross-toolchain.sh on first use. Set HOPKIT_QEMU_TIMEOUT (seconds, default 120) to change
# the guard against a hung guest.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

arch="${1:-thumbv7em}"
image="${2:-demo}"
case "$arch" in
    thumbv7em | thumbv7em-none-eabihf)
        target=thumbv7em-none-eabihf
        machine=(-machine mps2-an386 -cpu cortex-m4)
        ;;
    thumbv6m | thumbv6m-none-eabi)
        target=thumbv6m-none-eabi
        machine=(-machine microbit)
        ;;
    *) echo "usage: $0 [thumbv7em|thumbv6m] [demo|bench|panic-check]" >&2; exit 2 ;;
esac
case "$image" in
    demo) bin=qemu-demo ;;
    bench) bin=qemu-bench ;;
    panic-check) bin=panic-check ;;
    *) echo "usage: $0 [thumbv7em|thumbv6m] [demo|bench|panic-check]" >&2; exit 2 ;;
esac

command -v qemu-system-arm >/dev/null ||
    { echo "qemu.sh: qemu-system-arm not found (apt-get install qemu-system-arm)" >&2; exit 1; }

cd "$REPO"
"$REPO/scripts/cross-cargo.sh" build -q --target "$target" -p hopkit-firmware --features qemu \
    --bin "$bin" --profile firmware
elf="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}/$target/firmware/$bin"

# -icount shift=0: one guest instruction = 1 ns of virtual time (exact, repeatable instruction
# counts for the bench; harmless for the others). Semihosting carries output and the exit status.
exec timeout "${HOPKIT_QEMU_TIMEOUT:-120}" qemu-system-arm "${machine[@]}" \
    -nographic -monitor none -serial none -icount shift=0 \
    -semihosting-config enable=on,target=native -kernel "$elf"
