#!/usr/bin/env bash
# Fails if the default build of the workspace depends on a `-sys` crate that links a system library
# (a bare Debian + rustup machine has no `-dev` packages and no pkg-config).
#
# `cargo tree -e normal,build` lists what `cargo build`/`cargo run` compile (dev-dependencies are
# checked by building the tests with PKG_CONFIG=/bin/false in .ci/run). Extra arguments go to
# `cargo tree` (CI passes `--features hopkit-sim/gilrs` once to see the check fail). Crates that end in `-sys`
# but link nothing from the system are allowed by name below, each with the reason.
set -euo pipefail
cd "$(dirname "$0")/.."

# Pure-Rust `-sys` crates: raw syscall bindings, no C library, no build-time probing.
allowed=(
  linux-raw-sys   # rustix's raw Linux syscall numbers and structs (no libc, no pkg-config)
)

tree="$(cargo tree --workspace -e normal,build --prefix none --format '{p}' "$@" 2>/dev/null)" || {
  echo "check-bare-deps: cargo tree failed" >&2
  cargo tree --workspace -e normal,build >/dev/null
  exit 1
}
sys="$(printf '%s\n' "$tree" | awk '{print $1}' | grep -E -- '-sys$' | sort -u || true)"
bad=()
for c in $sys; do
  ok=0
  for a in "${allowed[@]}"; do [ "$c" = "$a" ] && ok=1; done
  [ $ok = 1 ] || bad+=("$c")
done
if [ ${#bad[@]} -gt 0 ]; then
  echo "check-bare-deps: the default build pulls in -sys crates that need system libraries: ${bad[*]}" >&2
  for c in "${bad[@]}"; do cargo tree --workspace -e normal,build "$@" -i "$c" >&2 || true; done
  exit 1
fi
echo "check-bare-deps: default build has no system-library -sys crates (allowed pure-Rust: ${sys:-none})" | tr '\n' ' '
echo
