#!/usr/bin/env bash
# The README's "Use from Rust" section, as a newcomer uses it: a new crate next to a checkout named
# `hopkit`, the section's dependency line verbatim in its Cargo.toml, the section's Rust block
# verbatim as its src/main.rs, then `cargo run`. Offline: the workspace's Cargo.lock is copied in,
# so every dependency resolves from the local cache. Fails if the block does not compile or run.
set -euo pipefail
cd "$(dirname "$0")/.."
repo="$PWD"
readme="${1:-README.md}" # or another copy of it (negative controls)

# The section: from its heading to the next `## ` heading.
section="$(awk '/^## Use from Rust$/ { on = 1; next } on && /^## / { exit } on' "$readme")"
[ -n "$section" ] || { echo "$readme has no '## Use from Rust' section" >&2; exit 1; }
# Its first ```toml block's first non-comment `hopkit = …` line, and its first ```rust block.
dep="$(printf '%s\n' "$section" | awk '/^```toml$/ { on = 1; next } on && /^```$/ { exit }
  on && /^hopkit *=/ { print; exit }')"
code="$(printf '%s\n' "$section" | awk '/^```rust$/ { on = 1; next } on && /^```$/ { exit } on')"
[ -n "$dep" ] || { echo "no 'hopkit = …' dependency line in the section's toml block" >&2; exit 1; }
[ -n "$code" ] || { echo "no rust block in the section" >&2; exit 1; }
if printf '%s\n' "$code" | grep -qE '^ *# '; then
  echo "the rust block has rustdoc-hidden '# ' lines: they break a paste" >&2; exit 1
fi

tmp="$(mktemp -d)"
trap 'rm -rf "$tmp"' EXIT
ln -s "$repo" "$tmp/hopkit" # "a checkout next to your project"
mkdir -p "$tmp/app/src"
cat > "$tmp/app/Cargo.toml" <<TOML
[package]
name = "readme-app"
version = "0.1.0"
edition = "2021"
publish = false

[dependencies]
$dep

[workspace]
TOML
printf '%s\n' "$code" > "$tmp/app/src/main.rs"
cp Cargo.lock "$tmp/app/Cargo.lock"
echo "dependency line: $dep"
echo "src/main.rs: $(wc -l < "$tmp/app/src/main.rs") lines from $readme"
# Its own target dir (a newcomer's build), but keep a reusable one if the caller sets one.
export CARGO_TARGET_DIR="${README_CHECK_TARGET_DIR:-$tmp/target}"
(cd "$tmp/app" && cargo run --offline -q)
echo "README 'Use from Rust' block: pasted, built and ran"
