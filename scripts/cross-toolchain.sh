#!/usr/bin/env bash
# Cross toolchain for hopkit's bare-metal and wasm targets.
#
#   scripts/cross-toolchain.sh [setup]        make sure every target below can be built (quiet on success)
#   scripts/cross-toolchain.sh env [TARGET]   setup, then print `export …` lines for building TARGET
#                                             (all targets if omitted): eval "$(scripts/cross-toolchain.sh env)"
#   scripts/cross-toolchain.sh mode TARGET    print `rustup` or `debian`: how TARGET will be built
#   scripts/cross-toolchain.sh lld            print the path of the rust-lld linker
#
# Targets: thumbv7em-none-eabihf (Cortex-M4F), thumbv6m-none-eabi (Cortex-M0), wasm32-unknown-unknown.
#
# Route 1 (a normal developer machine): the target's standard library is installed by rustup
# (`rustup target add …`). Nothing is downloaded and no variable is needed.
#
# Route 2 (CI, bare machines, anywhere `rustup target add` is unavailable): Debian's rustc of the next
# release plus its library source are downloaded with `apt-get download` (not installed) and unpacked
# under .cross/ in the repository; `core` is then compiled from source for the target with
# `-Zbuild-std=core` (RUSTC_BOOTSTRAP=1 unlocks that flag on the stable compiler), and rustup's own
# `rust-lld` links. Cargo stays rustup's. Cached: a second run does nothing.
#
# Overrides: HOPKIT_DEBIAN_RUST (default 1.96, the Debian rustc-web release to use),
#            HOPKIT_CROSS_DIR (default <repo>/.cross), HOPKIT_CROSS_FORCE_DEBIAN=1 (ignore rustup targets).
set -euo pipefail

TARGETS=(thumbv7em-none-eabihf thumbv6m-none-eabi wasm32-unknown-unknown)
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CROSS_DIR="${HOPKIT_CROSS_DIR:-$REPO/.cross}"
DEB_RUST="${HOPKIT_DEBIAN_RUST:-1.96}"
DEB_ROOT="$CROSS_DIR/debian-rust-$DEB_RUST"
DEB_PACKAGES=(rustc-web rust-web-src "libstd-rust-web-$DEB_RUST" libstd-rust-web-dev libllvm22)

die() { echo "cross-toolchain: $*" >&2; exit 1; }

# rustup's rustc, even when the caller's environment already points RUSTC at the Debian one.
host_rustc() {
    if command -v rustup >/dev/null 2>&1; then rustup which rustc 2>/dev/null && return; fi
    command -v rustc || die "no rustc on PATH"
}

lld_path() {
    local sysroot
    sysroot="$("$(host_rustc)" --print sysroot)"
    local lld="$sysroot/lib/rustlib/x86_64-unknown-linux-gnu/bin/rust-lld"
    [ -x "$lld" ] || lld="$(command -v rust-lld || true)"
    [ -n "$lld" ] && [ -x "$lld" ] || die "rust-lld not found (it ships with rustup's rustc component)"
    echo "$lld"
}

# True when rustup has the target's prebuilt standard library.
rustup_has() {
    [ "${HOPKIT_CROSS_FORCE_DEBIAN:-0}" = 1 ] && return 1
    local libdir
    libdir="$("$(host_rustc)" --print target-libdir --target "$1" 2>/dev/null)" || return 1
    compgen -G "$libdir/libcore-*.rlib" >/dev/null
}

target_mode() { if rustup_has "$1"; then echo rustup; else echo debian; fi; }

debian_ready() {
    [ -f "$DEB_ROOT/.complete" ] && [ -x "$DEB_ROOT/usr/bin/rustc" ] &&
        [ -d "$DEB_ROOT/usr/lib/rustlib/src/rust/library/core" ]
}

debian_setup() {
    debian_ready && return 0
    command -v apt-get >/dev/null 2>&1 || die "no rustup target and no apt-get: run \`rustup target add ${TARGETS[*]}\`"
    local debs="$CROSS_DIR/debs-$DEB_RUST"
    rm -rf "$debs" "$DEB_ROOT"
    mkdir -p "$debs" "$DEB_ROOT"
    # The package lists may be missing or stale on a fresh machine.
    if ! apt-cache show "libstd-rust-web-$DEB_RUST" >/dev/null 2>&1; then
        apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
    fi
    (cd "$debs" && apt-get download -qq "${DEB_PACKAGES[@]}" >/dev/null 2>"$debs/download.log") ||
        die "apt-get download ${DEB_PACKAGES[*]} failed: $(tail -3 "$debs/download.log")"
    local deb
    for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$DEB_ROOT"; done
    deb_env_run "$DEB_ROOT/usr/bin/rustc" -vV >/dev/null 2>&1 || die "unpacked Debian rustc does not run"
    [ -d "$DEB_ROOT/usr/lib/rustlib/src/rust/library/core" ] || die "library source missing in $DEB_ROOT"
    rm -rf "$debs"
    touch "$DEB_ROOT/.complete"
}

deb_ld_path() { echo "$DEB_ROOT/usr/lib/x86_64-linux-gnu:$DEB_ROOT/usr/lib/llvm-22/lib"; }
deb_env_run() { LD_LIBRARY_PATH="$(deb_ld_path)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"; }

setup() {
    local t need_debian=0
    for t in "${TARGETS[@]}"; do
        [ "$(target_mode "$t")" = debian ] && need_debian=1
    done
    [ "$need_debian" = 1 ] && debian_setup
    lld_path >/dev/null
}

# Environment for one target (or the union for all targets). Printed as shell `export` lines.
print_env() {
    local targets=("$@") t mode any_debian=0
    [ ${#targets[@]} -eq 0 ] && targets=("${TARGETS[@]}")
    for t in "${targets[@]}"; do
        [ "$(target_mode "$t")" = debian ] && any_debian=1
    done
    if [ "$any_debian" = 1 ]; then
        debian_setup
        echo "export HOPKIT_CROSS_MODE=debian"
        echo "export RUSTC='$DEB_ROOT/usr/bin/rustc'"
        echo "export RUSTC_BOOTSTRAP=1"
        echo "export LD_LIBRARY_PATH='$(deb_ld_path)'\${LD_LIBRARY_PATH:+:\$LD_LIBRARY_PATH}"
        echo "export HOPKIT_BUILD_STD='-Zbuild-std=core'"
    else
        echo "export HOPKIT_CROSS_MODE=rustup"
        echo "export HOPKIT_BUILD_STD="
    fi
    local lld
    lld="$(lld_path)"
    for t in "${targets[@]}"; do
        mode="$(echo "$t" | tr 'a-z-' 'A-Z_')"
        echo "export CARGO_TARGET_${mode}_LINKER='$lld'"
    done
}

cmd="${1:-setup}"
[ $# -gt 0 ] && shift
case "$cmd" in
    setup) setup ;;
    env) print_env "$@" ;;
    mode) [ $# -eq 1 ] || die "usage: $0 mode TARGET"; target_mode "$1" ;;
    lld) lld_path ;;
    -h | --help | help) sed -n '2,22p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) die "unknown command '$cmd' (setup | env [TARGET] | mode TARGET | lld)" ;;
esac
