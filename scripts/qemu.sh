#!/usr/bin/env bash
# Build a hopkit QEMU image and run it, printing its output; exits with the image's status.
#
#   scripts/qemu.sh [ARCH] [demo|bench|netplay|panic-check]
#
#   thumbv7em (default): thumbv7em-none-eabihf on `qemu-system-arm -machine mps2-an386 -cpu cortex-m4`
#   thumbv6m:            thumbv6m-none-eabi   on `qemu-system-arm -machine microbit` (Cortex-M0, 16 KiB RAM)
#   thumbv8m:            thumbv8m.main-none-eabihf on `qemu-system-arm -machine mps2-an505` (Cortex-M33)
#   riscv32imac:         riscv32imac-unknown-none-elf on `qemu-system-riscv32 -machine virt` (soft float)
#   riscv32imafc:        riscv32imafc-unknown-none-elf on the same (hardware single precision)
#   aarch64:             aarch64-unknown-none on `qemu-system-aarch64 -machine virt -cpu cortex-a53`
#
#   demo (default): the handheld app on scripted input; prints `state-hash: 0x…` after 600 ticks and
#                   `state-hash-3600: 0x…` after 3,600 (RISC-V / AArch64: src/bin/cpu-demo.rs, which
#                   also prints its instruction counts)
#   netplay:        rollback netplay's instruction counts and session hash (src/bin/qemu-netplay.rs)
#   bench:          instruction counts (`-icount shift=0`): movement-step-instr, demo-tick-instr, …
#   panic-check:    the image that only links if the core's per-tick path has no reachable panic
#
# Needs qemu-system-arm (Debian: apt-get install qemu-system-arm; RISC-V: qemu-system-misc). The cross toolchain is set up by
# scripts/cross-toolchain.sh on first use. Set HOPKIT_QEMU_TIMEOUT (seconds, default 120) to change
# the guard against a hung guest.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

arch="${1:-thumbv7em}"
image="${2:-demo}"
qemu=qemu-system-arm
features=qemu
extra_features="${HOPKIT_QEMU_FEATURES:-}" # e.g. `micromath` (scripts/ci-cpus.sh)
case "$arch" in
    thumbv7em | thumbv7em-none-eabihf)
        target=thumbv7em-none-eabihf
        machine=(-machine mps2-an386 -cpu cortex-m4)
        ;;
    thumbv6m | thumbv6m-none-eabi)
        target=thumbv6m-none-eabi
        machine=(-machine microbit)
        ;;
    thumbv8m | thumbv8m.main | thumbv8m.main-none-eabihf)
        target=thumbv8m.main-none-eabihf
        machine=(-machine mps2-an505 -cpu cortex-m33)
        ;;
    riscv32imac | riscv32imac-unknown-none-elf)
        target=riscv32imac-unknown-none-elf
        qemu=qemu-system-riscv32
        machine=(-machine virt -bios none)
        ;;
    riscv32imafc | riscv32imafc-unknown-none-elf)
        target=riscv32imafc-unknown-none-elf
        qemu=qemu-system-riscv32
        machine=(-machine virt -bios none)
        ;;
    aarch64 | aarch64-unknown-none)
        target=aarch64-unknown-none
        qemu=qemu-system-aarch64
        machine=(-machine virt -cpu cortex-a53)
        ;;
    *) echo "usage: $0 [thumbv7em|thumbv6m|thumbv8m|riscv32imac|riscv32imafc|aarch64] [demo|bench|netplay|panic-check]" >&2; exit 2 ;;
esac
case "$target:$image" in
    riscv32* | aarch64*)
        # One image for these CPUs: the hashes and the instruction counts (src/bin/cpu-demo.rs).
        bin=cpu-demo
        features=cpus
        ;;
    *:demo) bin=qemu-demo ;;
    *:bench) bin=qemu-bench ;;
    *:netplay) bin=qemu-netplay ;;
    *:panic-check) bin=panic-check ;;
    *) echo "usage: $0 [thumbv7em|thumbv6m|thumbv8m|riscv32imac|riscv32imafc|aarch64] [demo|bench|netplay|panic-check]" >&2; exit 2 ;;
esac

command -v "$qemu" >/dev/null ||
    { echo "qemu.sh: $qemu not found (apt-get install qemu-system-arm qemu-system-misc)" >&2; exit 1; }

cd "$REPO"
[ -n "$extra_features" ] && features="$features,$extra_features"
"$REPO/scripts/cross-cargo.sh" build -q --target "$target" -p hopkit-firmware --features "$features" \
    --bin "$bin" --profile firmware
elf="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}/$target/firmware/$bin"

# -icount shift=0: one guest instruction = 1 ns of virtual time (exact, repeatable instruction
# counts for the bench; harmless for the others). Semihosting carries output and the exit status.
exec timeout "${HOPKIT_QEMU_TIMEOUT:-120}" "$qemu" "${machine[@]}" \
    -nographic -monitor none -serial none -icount shift=0 \
    -semihosting-config enable=on,target=native -kernel "$elf"
