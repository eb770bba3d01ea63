#!/usr/bin/env bash
# Flash the Black Pill without a debug probe, through the STM32F411's ROM bootloader over USB DFU.
#
#   scripts/flash-dfu.sh [ELF]          build (if ELF is not given), convert to .bin, flash with dfu-util
#   scripts/flash-dfu.sh --bin-only [ELF]   only write the .bin next to the ELF (no board needed)
#
# Put the board in DFU mode first: hold BOOT0, tap NRST (reset), release BOOT0 — `lsusb` then shows
# "STMicroelectronics STM Device in DFU Mode" (0483:df11). After flashing, `:leave` starts the
# firmware. There is no debug probe, so no defmt log: the OLED is the only output.
#
# Tools: dfu-util from Debian (`apt-get install dfu-util`; on Linux a udev rule or root is needed
# for USB access, see docs/firmware.md), and an objcopy that reads the ELF: rustup's own
# `rust-objcopy` (with the `llvm-tools` component, as cargo-binutils uses), else `llvm-objcopy` or
# `arm-none-eabi-objcopy`.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
bin_only=0
if [ "${1:-}" = "--bin-only" ]; then bin_only=1; shift; fi
elf="${1:-}"
if [ -z "$elf" ]; then
    # The same command the README documents, so the image is the budgeted one.
    (cd "$REPO/firmware" && cargo build --release --features board --bin blackpill)
    elf="${CARGO_TARGET_DIR:-$REPO/target}/thumbv7em-none-eabihf/release/blackpill"
fi
[ -f "$elf" ] || { echo "flash-dfu: no ELF at $elf" >&2; exit 2; }

objcopy=""
sysroot_bin="$(rustc --print sysroot 2>/dev/null)/lib/rustlib/$(rustc -vV 2>/dev/null | sed -n 's/^host: //p')/bin"
for c in "$sysroot_bin/rust-objcopy" rust-objcopy llvm-objcopy arm-none-eabi-objcopy; do
    # rustup's rust-objcopy runs only with the llvm-tools component (`rustup component add llvm-tools`).
    if command -v "$c" >/dev/null 2>&1 && "$c" --version >/dev/null 2>&1; then objcopy="$c"; break; fi
done
[ -n "$objcopy" ] || { echo "flash-dfu: no working objcopy: \`rustup component add llvm-tools\` (rust-objcopy), or apt-get install llvm / binutils-arm-none-eabi" >&2; exit 1; }
bin="${elf%.elf}.bin"
"$objcopy" -O binary "$elf" "$bin"
echo "flash-dfu: $bin ($(stat -c %s "$bin") bytes, for address 0x08000000) from $elf by $(basename "$objcopy")"
[ "$bin_only" = 1 ] && exit 0

command -v dfu-util >/dev/null 2>&1 ||
    { echo "flash-dfu: dfu-util not found (Debian/Ubuntu: sudo apt-get install dfu-util)" >&2; exit 127; }
echo "flash-dfu: flashing over USB DFU (board in DFU mode: hold BOOT0, tap NRST, release BOOT0)"
exec dfu-util -d 0483:df11 -a 0 -s 0x08000000:leave -D "$bin"
