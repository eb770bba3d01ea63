#!/usr/bin/env bash
# `cargo` for a cross target, with whatever scripts/cross-toolchain.sh decided that target needs
# (rustup's installed target, or Debian's rustc + `-Zbuild-std=core`).
#
#   scripts/cross-cargo.sh build --target thumbv7em-none-eabihf -p hopkit --profile firmware
#
# Exactly one `--target T` must be given. Builds go to $HOPKIT_CROSS_TARGET_DIR, default
# "${CARGO_TARGET_DIR:-<repo>/target}/cross", so host and cross builds never invalidate each other.
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

target=""
prev=""
for a in "$@"; do
    case "$a" in
        --target=*) target="${a#--target=}" ;;
    esac
    [ "$prev" = "--target" ] && target="$a"
    prev="$a"
done
[ -n "$target" ] || { echo "cross-cargo: give --target TARGET" >&2; exit 2; }

"$REPO/scripts/cross-toolchain.sh" setup
eval "$("$REPO/scripts/cross-toolchain.sh" env "$target")"

export CARGO_TARGET_DIR="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}"
# Firmware images are measured (firmware/budgets.txt): an incremental build splits them into
# more codegen units and inlines differently (the RP2040 image's worst frame measured 354,027
# cycles with CARGO_INCREMENTAL=1 against 344,384 without), so cross builds are never incremental,
# whatever the caller's environment says (release profiles are not by default; the variable
# overrides that).
export CARGO_INCREMENTAL=0
sub="$1"
shift
# shellcheck disable=SC2086 # HOPKIT_BUILD_STD is one flag or empty.
exec cargo "$sub" $HOPKIT_BUILD_STD "$@"
