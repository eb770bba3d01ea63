#!/usr/bin/env bash
# When the panic-check image does not link (a panic path is reachable), name the culprit: build it
# with an ordinary panic handler (`--cfg hopkit_panic_report`) and list, from the disassembly, every
# function that still calls into `core::panicking` / `core::slice::index` / the handler, and what it
# calls. panic-check.rs exercises each area in its own `#[inline(never)]` `ex_*` function, so the
# caller names the area (movement, steering, follower, slope, ghost, time, app).
#   scripts/panic-culprits.sh [thumbv7em|thumbv6m] [extra cargo args, e.g. --config 'profile.firmware.overflow-checks=true']
set -euo pipefail
cd "$(dirname "$0")/.."
arch="${1:-thumbv7em}"; shift || true
case "$arch" in thumbv7em) target=thumbv7em-none-eabihf ;; thumbv6m) target=thumbv6m-none-eabi ;; *) echo "arch?" >&2; exit 2 ;; esac
export HOPKIT_CROSS_TARGET_DIR="${CARGO_TARGET_DIR:-$PWD/target}/panic-report"
RUSTFLAGS="${RUSTFLAGS:-} --cfg hopkit_panic_report" \
    scripts/cross-cargo.sh build -q --target "$target" -p hopkit-firmware --features qemu --bin panic-check --profile firmware "$@"
elf="$HOPKIT_CROSS_TARGET_DIR/$target/firmware/panic-check"
bindir="$(rustc --print sysroot)/lib/rustlib/x86_64-unknown-linux-gnu/bin"
tool() { command -v "llvm-$1" || command -v "$bindir/llvm-$1" || command -v "arm-none-eabi-$1" || echo "$1"; }
objdump="$(tool objdump)"
addr2line="$(tool addr2line)"
dis="$(mktemp)"
trap 'rm -f "$dis"' EXIT
"$objdump" -d --demangle --no-show-raw-insn "$elf" >"$dis"
# Addresses of the panic entry points (and the stubs that branch to them).
panics="$(grep -E '^[0-9a-f]+ <(core::panicking::|core::slice::index::slice_index_fail|core::slice::copy_from_slice_impl::len_mismatch_fail|core::option::unwrap_failed|core::result::unwrap_failed)' "$dis" | awk '{print $1}' | sed 's/^0*//' || true)"
if [ -z "$panics" ]; then
    echo "panic-culprits: no panic entry point in the image: nothing reachable"
    exit 0
fi
# Branch sites that call a panic entry point directly, or jump to a stub that does.
pattern="$(printf '0x%s <|' $panics | sed 's/|$//')"
stubs="$(grep -E "\bbl\b.*($pattern)" "$dis" | awk '{print $1}' | tr -d ':' | sed 's/^0*//')"
targets="$(printf '%s\n%s\n' "$panics" "$stubs" | sort -u | sed '/^$/d')"
pattern="$(printf '0x%s <|' $targets | sed 's/|$//')"
echo "call sites that reach a panic (innermost hopkit frame first):"
grep -E "\b(b|bl|b\.w|b[a-z][a-z](\.w)?|cbn?z)\b.*($pattern)" "$dis" | awk '{print $1}' | tr -d ':' | sort -u |
while read -r a; do
    # `|| true`: a site whose frames are all in core (e.g. an inlined `+`) prints nothing here.
    { "$addr2line" -e "$elf" -f -i -C "0x$a" | paste - - | grep -v -E '/rustc/|^[?][?]' | head -3 | tr '\n' ' '; } || true
    echo
done | sed '/^\s*$/d' | sort | uniq -c | sort -rn
