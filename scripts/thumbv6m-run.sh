#!/usr/bin/env bash
# cargo's runner for thumbv6m-none-eabi (firmware/.cargo/config.toml). Two kinds of image share
# that target: the RP2040 board image (`--bin rp2040`) goes to scripts/rp2040-flash.sh (UF2 for
# drag-and-drop, or probe-rs); the QEMU images run on QEMU's `microbit` (Cortex-M0).
set -euo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
if [ "$(basename "$1")" = rp2040 ]; then
    exec "$here/rp2040-flash.sh" "$@"
fi
exec qemu-system-arm -machine microbit -nographic -monitor none -serial none -icount shift=0 \
    -semihosting-config enable=on,target=native -kernel "$@"
