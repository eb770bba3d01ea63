#!/usr/bin/env bash
# Where the instructions go: per-function instruction counts of a QEMU run, from QEMU's own exec
# trace (no instrumentation in the image).
#
#   scripts/qemu-profile.sh [thumbv6m|thumbv7em] [tick|frame|step|solid] [TOP]
#
# Builds src/bin/qemu-profile.rs (the workload named by the second argument, 600 runs; see that
# file), runs it with `-d in_asm,exec,nochain`: every translated block's instructions are counted
# once from `in_asm`, every execution of a block is one `exec` line, so a block's instructions ×
# its executions is exact (QEMU splits blocks at branches, so every instruction of a block runs).
# The trace streams through a FIFO into the aggregator (it would be gigabytes on disk).
# Prints, for the whole run:
#   1. instructions by innermost function (inlined functions resolved from the debug line tables:
#      `addr2line -i`), with the share of the total;
#   2. calls into the soft-float / integer helpers (`__aeabi_*`, `__*sf*`, compiler-builtins) by the
#      calling function, and each helper's instructions per call.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
arch="${1:-thumbv6m}"
what="${2:-tick}"
top="${3:-40}"
case "$arch" in
    thumbv7em) target=thumbv7em-none-eabihf; machine=(-machine mps2-an386 -cpu cortex-m4) ;;
    thumbv6m) target=thumbv6m-none-eabi; machine=(-machine microbit) ;;
    *) echo "usage: $0 [thumbv6m|thumbv7em] [tick|frame|step|solid] [TOP]" >&2; exit 2 ;;
esac
case "$what" in tick | frame | step | solid) ;; *) echo "usage: $0 [thumbv6m|thumbv7em] [tick|frame|step|solid] [TOP]" >&2; exit 2 ;; esac
features=qemu
[ "$what" = solid ] && features=qemu,solids # the level of solids' code is linked only with it
HOPKIT_PROFILE="$what" "$REPO/scripts/cross-cargo.sh" build -q --target "$target" -p hopkit-firmware \
    --features "$features" --bin qemu-profile --profile firmware
elf="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}/$target/firmware/qemu-profile"
bindir="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin"
tool() { command -v "llvm-$1" || command -v "$bindir/llvm-$1" || command -v "arm-none-eabi-$1" || echo "$1"; }
addr2line="$(tool addr2line)"
nm="$(tool nm)"
tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
mkfifo "$tmp/trace"
timeout "${HOPKIT_QEMU_TIMEOUT:-600}" qemu-system-arm "${machine[@]}" -nographic -monitor none -serial none \
    -icount shift=0 -semihosting-config enable=on,target=native \
    -d in_asm,exec,nochain -D "$tmp/trace" -kernel "$elf" >"$tmp/out" 2>&1 &
qpid=$!
python3 "$REPO/scripts/qemu-profile.py" "$elf" "$addr2line" "$nm" "$top" "$arch" "$what" <"$tmp/trace"
wait $qpid || { cat "$tmp/out"; echo "qemu-profile: the image failed" >&2; exit 1; }
