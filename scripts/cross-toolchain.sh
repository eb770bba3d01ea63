#!/usr/bin/env bash
# Cross toolchain for hopkit's bare-metal and wasm targets.
#
#   scripts/cross-toolchain.sh [setup]        make sure every target below can be built (quiet on success)
#   scripts/cross-toolchain.sh env [TARGET]   setup, then print `export …` lines for building TARGET
#                                             (all targets if omitted): eval "$(scripts/cross-toolchain.sh env)"
#   scripts/cross-toolchain.sh mode TARGET    print `rustup` or `debian`: how TARGET will be built
#   scripts/cross-toolchain.sh lld            print the path of the rust-lld linker
#
# Targets: thumbv7em-none-eabihf (Cortex-M4F), thumbv6m-none-eabi (Cortex-M0), wasm32-unknown-unknown,
# thumbv8m.main-none-eabihf (Cortex-M33), riscv32imac/imafc-unknown-none-elf, aarch64-unknown-none.
#
# Route 1 (the ordinary one): the target's standard library comes from rustup. A missing target is
# added with `rustup target add` (bounded by a timeout: on some networks it has hung). After that,
# plain `cargo build --target …` works and nothing else is needed.
#
# Route 2 (the fallback, when `rustup target add` fails or times out): Debian's rustc of the same or
# a newer release plus its library source are downloaded with `apt-get download` (not installed) and
# unpacked (≈ 480 MB) into a cache OUTSIDE the source tree, $HOPKIT_CROSS_DIR (default
# ${XDG_CACHE_HOME:-~/.cache}/hopkit/cross); `core` is then compiled from source for the target
# with `-Zbuild-std=core` (RUSTC_BOOTSTRAP=1 unlocks that flag on the stable compiler), and rustup's
# own `rust-lld` links. Cargo stays rustup's. Cached: a second run does nothing.
#
# Overrides: HOPKIT_DEBIAN_RUST (the Debian rustc-web release, e.g. 1.96; default: apt's candidate),
#            HOPKIT_CROSS_DIR (the cache, see above), HOPKIT_CROSS_FORCE_DEBIAN=1 (ignore rustup
#            targets), HOPKIT_RUSTUP_ADD=0 (never run `rustup target add`),
#            HOPKIT_RUSTUP_TIMEOUT (seconds for `rustup target add`, default 120).
set -euo pipefail

TARGETS=(thumbv7em-none-eabihf thumbv6m-none-eabi wasm32-unknown-unknown thumbv8m.main-none-eabihf
         riscv32imac-unknown-none-elf riscv32imafc-unknown-none-elf aarch64-unknown-none)
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
CROSS_DIR="${HOPKIT_CROSS_DIR:-${XDG_CACHE_HOME:-$HOME/.cache}/hopkit/cross}"

die() { echo "cross-toolchain: $*" >&2; exit 1; }

# The Debian release must be at least as new as rustup's compiler: the workspace's dependencies are
# resolved for it (a stale Debian package list on a new machine offers an older rustc-web, which
# cannot build them). "1.95.0" -> 195.
minor_of() { echo "$1" | sed -n 's/^\([0-9]*\)\.\([0-9]*\).*/\1 \2/p' | awk '{ print $1 * 100 + $2 }'; }
min_rust() { "$(host_rustc)" -V | awk '{ print $2 }'; }
apt_candidate() { apt-cache policy rustc-web 2>/dev/null | sed -n 's/^ *Candidate: *\([0-9]*\.[0-9]*\).*/\1/p'; }

# The Debian release: an existing unpacked one that is new enough (no apt needed), else apt's
# candidate of rustc-web, refreshing the package lists once when the candidate is missing or too old.
deb_rust_version() {
    if [ -n "${HOPKIT_DEBIAN_RUST:-}" ]; then echo "$HOPKIT_DEBIAN_RUST"; return; fi
    local min d v
    min="$(minor_of "$(min_rust)")"
    for d in "$CROSS_DIR"/debian-rust-*/.complete; do
        [ -f "$d" ] || continue
        v="$(basename "$(dirname "$d")" | sed 's/^debian-rust-//')"
        [ "$(minor_of "$v")" -ge "$min" ] && { echo "$v"; return; }
    done
    command -v apt-cache >/dev/null 2>&1 || { echo 1.96; return; }
    v="$(apt_candidate)"
    if [ -z "$v" ] || [ "$(minor_of "$v")" -lt "$min" ]; then
        apt-get update -qq >/dev/null 2>&1 || true
        v="$(apt_candidate)"
    fi
    [ -n "$v" ] || die "apt offers no rustc-web package (set HOPKIT_DEBIAN_RUST?)"
    [ "$(minor_of "$v")" -ge "$min" ] ||
        die "apt's rustc-web is $v, older than rustup's rustc $(min_rust): enable bookworm-security (or newer) in apt's sources"
    echo "$v"
}
# Resolved only when the Debian route is needed (a rustup-only machine never touches apt).
DEB_RUST=""
DEB_ROOT=""
deb_init() {
    [ -n "$DEB_ROOT" ] && return 0
    DEB_RUST="$(deb_rust_version)"
    DEB_ROOT="$CROSS_DIR/debian-rust-$DEB_RUST"
}

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

# Route 1: add the missing targets with rustup (once per run, bounded by a timeout).
RUSTUP_TRIED=0
rustup_add_missing() {
    [ "$RUSTUP_TRIED" = 1 ] && return 0
    RUSTUP_TRIED=1
    [ "${HOPKIT_RUSTUP_ADD:-1}" = 0 ] || [ "${HOPKIT_CROSS_FORCE_DEBIAN:-0}" = 1 ] && return 0
    command -v rustup >/dev/null 2>&1 || return 0
    local t missing=()
    for t in "$@"; do rustup_has "$t" || missing+=("$t"); done
    [ ${#missing[@]} -eq 0 ] && return 0
    echo "cross-toolchain: rustup target add ${missing[*]} (the standard library for each target)" >&2
    timeout "${HOPKIT_RUSTUP_TIMEOUT:-120}" rustup target add "${missing[@]}" >/dev/null 2>&1 ||
        echo "cross-toolchain: rustup target add failed or timed out; falling back to Debian's rustc" >&2
}

debian_ready() {
    deb_init
    [ -f "$DEB_ROOT/.complete" ] && [ -x "$DEB_ROOT/usr/bin/rustc" ] &&
        [ -d "$DEB_ROOT/usr/lib/rustlib/src/rust/library/core" ]
}

debian_setup() {
    debian_ready && return 0
    command -v apt-get >/dev/null 2>&1 || die "no rustup target and no apt-get: run \`rustup target add ${TARGETS[*]}\`"
    local debs="$CROSS_DIR/debs-$DEB_RUST"
    echo "cross-toolchain: fetching Debian's rustc-web $DEB_RUST + library source (≈ 480 MB unpacked) into $CROSS_DIR, to build core for targets rustup could not add" >&2
    rm -rf "$debs" "$DEB_ROOT"
    mkdir -p "$debs" "$DEB_ROOT"
    # The package lists may be missing or stale on a fresh machine.
    if ! apt-cache show "libstd-rust-web-$DEB_RUST" >/dev/null 2>&1; then
        apt-get update -qq >/dev/null 2>&1 || die "apt-get update failed"
    fi
    # rustc's LLVM: whatever libllvmNN its standard library package depends on.
    local llvm
    llvm="$(apt-cache depends "libstd-rust-web-$DEB_RUST" 2>/dev/null | grep -o 'libllvm[0-9]*' | head -1)"
    [ -n "$llvm" ] || die "no Debian package libstd-rust-web-$DEB_RUST (set HOPKIT_DEBIAN_RUST?)"
    local packages=(rustc-web rust-web-src "libstd-rust-web-$DEB_RUST" libstd-rust-web-dev "$llvm")
    (cd "$debs" && apt-get download -qq "${packages[@]}" >/dev/null 2>"$debs/download.log") ||
        die "apt-get download ${packages[*]} failed: $(tail -3 "$debs/download.log")"
    local deb
    for deb in "$debs"/*.deb; do dpkg-deb -x "$deb" "$DEB_ROOT"; done
    # Only library/ of the source is needed by -Zbuild-std; drop the compiler's source and docs.
    rm -rf "$DEB_ROOT"/usr/src/rustc-*/src "$DEB_ROOT"/usr/src/rustc-*/compiler "$DEB_ROOT/usr/share/doc"
    deb_env_run "$DEB_ROOT/usr/bin/rustc" -vV >/dev/null 2>&1 || die "unpacked Debian rustc does not run"
    [ -d "$DEB_ROOT/usr/lib/rustlib/src/rust/library/core" ] || die "library source missing in $DEB_ROOT"
    rm -rf "$debs"
    touch "$DEB_ROOT/.complete"
}

deb_ld_path() { deb_init; echo "$DEB_ROOT/usr/lib/x86_64-linux-gnu"; }
deb_env_run() { LD_LIBRARY_PATH="$(deb_ld_path)${LD_LIBRARY_PATH:+:$LD_LIBRARY_PATH}" "$@"; }

setup() {
    local t need_debian=0
    rustup_add_missing "${TARGETS[@]}"
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
    rustup_add_missing "${targets[@]}"
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
    # Debian's rustc does not ship rust-lld: point it at rustup's. With rustup's own targets the
    # default linker (rust-lld) or a project's configured one (firmware/.cargo/config.toml) stays.
    if [ "$any_debian" = 1 ]; then
        local lld
        lld="$(lld_path)"
        for t in "${targets[@]}"; do
            mode="$(echo "$t" | tr 'a-z-' 'A-Z_')"
            echo "export CARGO_TARGET_${mode}_LINKER='$lld'"
        done
    fi
}

cmd="${1:-setup}"
[ $# -gt 0 ] && shift
case "$cmd" in
    setup) setup ;;
    env) print_env "$@" ;;
    mode) [ $# -eq 1 ] || die "usage: $0 mode TARGET"; target_mode "$1" ;;
    lld) lld_path ;;
    -h | --help | help) sed -n '2,26p' "$0" | sed 's/^# \{0,1\}//' ;;
    *) die "unknown command '$cmd' (setup | env [TARGET] | mode TARGET | lld)" ;;
esac
