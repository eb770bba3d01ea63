#!/usr/bin/env bash
# Flash the RP2040 board image (the runner of `cd firmware && cargo pico`, via scripts/thumbv6m-run.sh):
#
#   1. writes ELF.uf2 beside the ELF (hopkit-uf2: RP2040 family 0xe48bff56, built on first use);
#   2. if a board in BOOTSEL mode is mounted (a drive named RPI-RP2), copies the UF2 onto it: the
#      board reboots into the image;
#   3. otherwise says how: hold BOOTSEL, plug the board in, copy the file to the RPI-RP2 drive.
#
# With HOPKIT_PROBE=1 it runs the ELF through probe-rs instead (a debug probe on SWD, e.g. a second
# Pico running debugprobe), as the Black Pill's runner does.
set -euo pipefail
REPO="$(cd "$(dirname "$0")/.." && pwd)"
elf="$(cd "$(dirname "$1")" && pwd)/$(basename "$1")"
if [ "${HOPKIT_PROBE:-0}" = 1 ]; then
    HOPKIT_CHIP=RP2040 exec "$REPO/scripts/probe-run.sh" "$elf"
fi
uf2="$elf.uf2"
# The converter is a host tool: build it from the repository root (not firmware/, whose cargo
# config targets the board) into its own target dir, so it never waits on the board build's lock.
(cd "$REPO" && CARGO_TARGET_DIR="$REPO/target/tools" cargo build -q --release -p hopkit-uf2)
"$REPO/target/tools/release/hopkit-uf2" "$elf" -o "$uf2"
for drive in /media/*/RPI-RP2 /run/media/*/RPI-RP2 /media/RPI-RP2 /Volumes/RPI-RP2; do
    if [ -d "$drive" ] && [ -f "$drive/INFO_UF2.TXT" ]; then
        cp "$uf2" "$drive/" && sync
        echo "copied to $drive: the board reboots into hopkit"
        exit 0
    fi
done
echo "to flash: hold BOOTSEL, plug the board in, then copy $uf2 to the RPI-RP2 drive"
