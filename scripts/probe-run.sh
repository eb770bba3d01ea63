#!/usr/bin/env bash
# cargo's runner for the Black Pill (firmware/.cargo/config.toml): flash the ELF with probe-rs and
# stream its defmt log over RTT. Without probe-rs, one line says how to get it (or to flash over
# USB DFU without a probe) instead of cargo's bare "could not execute process".
set -euo pipefail
chip="${HOPKIT_CHIP:-STM32F411CEUx}"
if ! command -v probe-rs >/dev/null 2>&1; then
    echo "probe-rs not found: install it (https://probe.rs/docs/getting-started/installation/, or \`cargo install probe-rs-tools --locked\`), or flash without a probe: $(cd "$(dirname "$0")" && pwd)/flash-dfu.sh $1" >&2
    exit 127
fi
exec probe-rs run --chip "$chip" "$@"
