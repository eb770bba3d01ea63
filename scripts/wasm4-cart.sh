#!/usr/bin/env bash
# Build the WASM-4 cart and its one-page HTML bundle with WASM-4's own tools.
#
#   scripts/wasm4-cart.sh            → carts/wasm4/web/out/hopkit.wasm and hopkit.html
#
# Environment: HOPKIT_WASM4_FEATURES (extra cargo features of hopkit-wasm4), HOPKIT_WASM4_NO_DEFAULT=1
# (without the default features: the cart without record mode, measured by scripts/budgets.sh),
# HOPKIT_WASM4_NAME (output name, default `hopkit`), HOPKIT_WASM4_MAX_BYTES (the size check),
# HOPKIT_WASM4_TOP=N (where the bytes go: list the N largest functions of the optimised cart, named
# from a copy `wasm-opt -g` keeps the name section in, before the size check).
# The solid level's cart, measured (it does not fit, docs/bindings.md "The solid level on WASM-4"):
#   HOPKIT_WASM4_FEATURES=level-solids HOPKIT_WASM4_NAME=solid HOPKIT_WASM4_MAX_BYTES=200000 \
#   HOPKIT_WASM4_TOP=40 scripts/wasm4-cart.sh
#
# 1. `cargo build` for wasm32-unknown-unknown (opt-level z, fat LTO, panic=abort, stripped), via
#    scripts/cross-cargo.sh (rustup's target, added on demand, or the Debian fallback), with the
#    firmware's plain `f32` renderer (feature `f32-render`: the same pixels as the fixed-point one,
#    in less code; wasm has hardware float).
# 2. `wasm-opt -Oz` from the npm `binaryen` package (WASM-4 refuses carts over 64 KiB; this step
#    takes the cart from ≈ 107 KB to ≈ 64.7 KB). Cargo keeps the function names (strip only the
#    debug info) for wasm-opt's `--no-inline` pattern; wasm-opt strips them.
# 3. The size check: at most 65,536 bytes (HOPKIT_WASM4_MAX_BYTES).
# 4. The memory layout check: stack, data and statics above the console's 6,560 B, inside 64 KiB.
# 5. `w4 bundle --html` from the npm `wasm4` package: one self-contained page with WASM-4's runtime.
# npm packages come from carts/wasm4/web/package-lock.json (`npm ci`, offline-safe from the
# registry; nothing is downloaded at run time).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
WEB="$REPO/carts/wasm4/web"
OUT="$WEB/out"
MAX="${HOPKIT_WASM4_MAX_BYTES:-65536}"
NAME="${HOPKIT_WASM4_NAME:-hopkit}" # out/NAME.wasm and out/NAME.html
command -v npm >/dev/null || { echo "wasm4-cart: npm is needed (Debian: apt-get install npm)" >&2; exit 1; }
if [ ! -x "$WEB/node_modules/.bin/w4" ] || [ "$WEB/package-lock.json" -nt "$WEB/node_modules/.package-lock.json" ]; then
    (cd "$WEB" && npm ci --no-audit --no-fund --loglevel=error)
fi
scripts/cross-cargo.sh build --target wasm32-unknown-unknown -p hopkit-wasm4 --lib --release \
    ${HOPKIT_WASM4_NO_DEFAULT:+--no-default-features} --features "f32-render${HOPKIT_WASM4_FEATURES:+,$HOPKIT_WASM4_FEATURES}" \
    --config 'profile.release.opt-level="z"' --config 'profile.release.lto="fat"' \
    --config 'profile.release.panic="abort"' --config 'profile.release.strip="debuginfo"' \
    --config 'profile.release.debug=0' --config 'profile.release.codegen-units=1'
raw="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}/wasm32-unknown-unknown/release/hopkit_wasm4.wasm"
mkdir -p "$OUT"
# Binaryen passes, measured on this cart: flattening and re-looping first, then merging
# near-identical functions, gains ≈ 500 B over plain -Oz. `-iit` (ignore implicit traps: a load
# or conversion that would trap may be moved or dropped; the cart's loads are in its one page and
# its float-to-int conversions saturate) ≈ 300 B. Not used: `--low-memory-unused` (≈ 470 B
# less) — its premise, that the low 1 KiB of memory is unused, is false on WASM-4 (its registers
# live there).
# Inlining and WASM-4's native runtime (`w4 run-native`, the wasm3 interpreter): binaryen's
# inlining saves ≈ 3 KB, but with everything inlined (one-caller functions all the way into the
# `update` export) the native runtime segfaults on the first frames (a 62,347-byte cart, measured
# 2026-11 with wasm-opt 132; Chromium runs it). With the cart crate's own functions
# (`hopkit_wasm4::*`, a few hundred bytes of glue) never inlined by binaryen (`--no-inline`, by
# name, before the passes that inline) and everything else inlined, it runs and hashes the same
# as the host (scripts/ci-wasm4-native.sh; the cart was 65,305 bytes with binaryen's inlining off).
WASM_OPT_PASSES=('--no-inline=*hopkit_wasm4*' --flatten --rereloop -Oz --merge-similar-functions
    -Oz --converge -iit --strip-producers --strip-target-features --enable-bulk-memory
    --enable-sign-ext --enable-mutable-globals --enable-nontrapping-float-to-int)
"$WEB/node_modules/.bin/wasm-opt" "${WASM_OPT_PASSES[@]}" --strip-debug "$raw" -o "$OUT/$NAME.wasm"
size=$(stat -c %s "$OUT/$NAME.wasm")
echo "wasm4 cart: $(stat -c %s "$raw") bytes from cargo, $size bytes after wasm-opt -Oz (limit $MAX)"
if [ -n "${HOPKIT_WASM4_TOP:-}" ]; then
    # The same passes keeping the names (-g: the same code, plus a name section).
    "$WEB/node_modules/.bin/wasm-opt" -g "${WASM_OPT_PASSES[@]}" "$raw" -o "$OUT/$NAME.named.wasm"
    python3 - "$OUT/$NAME.named.wasm" "$HOPKIT_WASM4_TOP" <<'PY'
import re, sys

b = open(sys.argv[1], "rb").read()

def leb(i):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7F) << s; s += 7
        if not x & 0x80:
            return r, i

def skip_limits(j):
    fl, j = leb(j); _, j = leb(j)
    return leb(j)[1] if fl & 1 else j

sizes, names, n_imports, data, i = [], {}, 0, 0, 8
while i < len(b):
    sid = b[i]; size, j = leb(i + 1); end = j + size
    if sid == 2:  # imports: function indices start after the imported functions
        n, j = leb(j)
        for _ in range(n):
            for _ in range(2):
                ln, j = leb(j); j += ln
            kind = b[j]; j += 1
            if kind == 0: _, j = leb(j); n_imports += 1
            elif kind == 1: j = skip_limits(j + 1)
            elif kind == 2: j = skip_limits(j)
            elif kind == 3: j += 2
    elif sid == 10:  # code: each body's size (with its size prefix)
        n, j = leb(j)
        for _ in range(n):
            sz, k = leb(j); sizes.append(sz + k - j); j = k + sz
    elif sid == 11:
        data = size
    elif sid == 0:
        ln, j = leb(j)
        if b[j:j + ln] == b"name":
            j += ln
            while j < end:
                sub = b[j]; ssz, j = leb(j + 1); e = j + ssz
                if sub == 1:
                    n, j = leb(j)
                    for _ in range(n):
                        idx, j = leb(j); ln, j = leb(j)
                        names[idx] = b[j:j + ln].decode("utf-8", "replace"); j += ln
                j = e
    i = end

def pretty(n):  # legacy (_ZN) Rust symbols as paths, without the hash
    if not n.startswith("_ZN"):
        return n
    r, parts = n[3:], []
    while r[:1].isdigit():
        k = re.match(r"\d+", r).group(0); r = r[len(k):]
        parts.append(r[:int(k)]); r = r[int(k):]
    if parts and re.fullmatch(r"h[0-9a-f]{16}", parts[-1]):
        parts.pop()
    p = "::".join(parts)
    for a, z in (("$LT$", "<"), ("$GT$", ">"), ("$u20$", " "), ("$RF$", "&"), ("$C$", ","),
                 ("$u7b$", "{"), ("$u7d$", "}"), ("..", "::")):
        p = p.replace(a, z)
    return p

rows = sorted(((s, pretty(names.get(n_imports + k, f"#{n_imports + k}")))
               for k, s in enumerate(sizes)), reverse=True)
print(f"wasm4 sizes: code {sum(sizes)} B in {len(sizes)} functions, data section {data} B; "
      f"the {sys.argv[2]} largest functions (callees inlined into them count there):")
for s, n in rows[:int(sys.argv[2])]:
    print(f"  {s:6d}  {n[:150]}")
PY
fi
[ "$size" -le "$MAX" ] || { echo "wasm4-cart: FAIL: $size bytes > $MAX (WASM-4 refuses carts over 64 KiB)" >&2; exit 1; }
# 4. The linked memory layout (parsed from the binaries, both before and after wasm-opt): the
#    console owns bytes 0..0x19a0 (registers, framebuffer) of the one 64 KiB page, so the stack's
#    HOPKIT_WASM4_STACK bytes below its top, every data segment and the statics up to __heap_base
#    must lie in [0x19a0, 65536), the data above the stack. A dependency's link flags overriding
#    the cart's (rust-lang/cargo#9562) once put the stack top at 16384, inside the framebuffer's
#    reach; this step fails on that.
for wasm in "$raw" "$OUT/$NAME.wasm"; do
    python3 - "$wasm" "${HOPKIT_WASM4_STACK:-16384}" <<'PY' || { echo "wasm4-cart: FAIL: memory layout of $wasm" >&2; exit 1; }
import sys

CONSOLE_END, PAGE = 0x19A0, 65536
path, stack = sys.argv[1], int(sys.argv[2])
b = open(path, "rb").read()
assert b[:8] == b"\0asm\1\0\0\0", "not a wasm module"

def leb(i, signed=False):
    r = s = 0
    while True:
        x = b[i]; i += 1; r |= (x & 0x7F) << s; s += 7
        if not x & 0x80:
            return (r - (1 << s) if signed and x & 0x40 else r), i

def name(i):
    n, i = leb(i)
    return b[i:i + n].decode(), i + n

def const_i32(i):  # an init expression: i32.const N; end
    assert b[i] == 0x41, "non-constant init expression"
    v, i = leb(i + 1, True)
    assert b[i] == 0x0B
    return v, i + 1

memory, globals_, exports, data = None, [], {}, []
exports_all, n_imports = {}, 0
i = 8
while i < len(b):
    sid = b[i]; size, i = leb(i + 1); end = i + size
    if sid == 2:  # imports
        n, j = leb(i)
        n_imports = n
        for _ in range(n):
            m, j = name(j); f, j = name(j); kind = b[j]; j += 1
            if kind == 0: _, j = leb(j)
            elif kind == 1: j += 1; fl, j = leb(j); _, j = leb(j); j = leb(j)[1] if fl & 1 else j
            elif kind == 2:
                fl, j = leb(j); lo, j = leb(j); hi = None
                if fl & 1: hi, j = leb(j)
                memory = (m, f, lo, hi)
            elif kind == 3: j += 2
    elif sid == 6:  # globals
        n, j = leb(i)
        for _ in range(n):
            ty, mut = b[j], b[j + 1]
            v, j = const_i32(j + 2) if ty == 0x7F else (None, end)
            globals_.append((ty, mut, v))
    elif sid == 7:  # exports
        n, j = leb(i)
        for _ in range(n):
            nm, j = name(j); kind = b[j]; idx, j = leb(j + 1)
            exports_all[nm] = kind
            if kind == 3: exports[nm] = idx
    elif sid == 11:  # data
        n, j = leb(i)
        for _ in range(n):
            fl, j = leb(j)
            if fl == 1:  # passive: not placed in memory
                ln, j = leb(j); j += ln; continue
            if fl == 2: _, j = leb(j)
            off, j = const_i32(j); ln, j = leb(j); j += ln
            data.append((off, off + ln))
    i = end

sps = [v for ty, mut, v in globals_ if ty == 0x7F and mut]
assert len(sps) == 1, f"expected one mutable i32 global (__stack_pointer), found {len(sps)}"
top = sps[0]
data_end = globals_[exports["__data_end"]][2]
heap_base = globals_[exports["__heap_base"]][2]
lo = top - stack
print(f"wasm4 layout ({path.rsplit('/', 1)[-1]}): console 0x0000..0x{CONSOLE_END:04x}, "
      f"stack 0x{lo:04x}..0x{top:04x} ({stack} B below the top {top}), "
      f"data {', '.join(f'0x{a:04x}..0x{z:04x}' for a, z in data) or 'none'}, "
      f"__data_end {data_end}, __heap_base {heap_base} ({PAGE - heap_base} B of the page free)")
bad = []
if memory != ("env", "memory", 1, 1):
    bad.append(f"memory import {memory}, want env.memory of exactly one page")
if not (CONSOLE_END <= lo and top <= PAGE):
    bad.append(f"stack 0x{lo:04x}..0x{top:04x} not inside 0x{CONSOLE_END:04x}..0x{PAGE:x}")
for a, z in data:
    if not (CONSOLE_END <= a and z <= PAGE):
        bad.append(f"data 0x{a:04x}..0x{z:04x} not inside 0x{CONSOLE_END:04x}..0x{PAGE:x}")
    if a < top and z > lo:
        bad.append(f"data 0x{a:04x}..0x{z:04x} overlaps the stack")
if not (max([top] + [z for _, z in data]) <= data_end <= heap_base <= PAGE):
    bad.append("statics (__data_end/__heap_base) below the data or beyond the page")
# The figures docs/bindings.md's layout table shows (<!--b wasm4.…--> markers, rows of
# firmware/budgets.txt that scripts/budgets.sh measures from this line).
fn_exports = sum(1 for nm in exports_all if exports_all[nm] == 0)
print(f"wasm4 figures ({path.rsplit('/', 1)[-1]}): data-bytes {sum(z - a for a, z in data)} "
      f"data-end {data_end} heap-base {heap_base} heap-free {PAGE - heap_base} "
      f"function-exports {fn_exports} imports {n_imports}")
for m in bad:
    print("  FAIL:", m)
sys.exit(1 if bad else 0)
PY
done
# WASM-4 (`w4 bundle` and its web runtime) refuses carts over 64 KiB: a cart built with a higher
# HOPKIT_WASM4_MAX_BYTES (to measure it) gets no page.
if [ "$size" -gt 65536 ]; then
    echo "wasm4-cart: $size bytes > 65536: no $NAME.html (WASM-4 refuses the cart)"
    rm -f "$OUT/$NAME.html"
    exit 0
fi
(cd "$WEB" && node_modules/.bin/w4 bundle "out/$NAME.wasm" --html "out/$NAME.html" \
    --title "hopkit handheld" --description "strafe-jumping, a follower, critters and ghost pilots")
