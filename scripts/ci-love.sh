#!/usr/bin/env bash
# hopkit from LuaJIT and LÖVE 11 over the C ABI (bindings/love; called by .ci/run; runnable by hand
# from anywhere, as root to install packages).
#
#  1. Packages: luajit, love (Debian's LÖVE 11.4), xvfb (for the windowed run).
#  2. bindings/love/hopkit_cdef.lua (the ffi.cdef LuaJIT loads) is what tools/gen-cdef.lua makes
#     of the committed C header, bindings/c/include/hopkit.h: a stale copy fails here.
#  3. A sticks recording (the scripted demo, 3600 ticks, from `hopkit-sim sticks`) and a random one
#     (counts 0 and 4095 included, all buttons), each run through libhopkit_ffi.so by
#       - the plain LuaJIT script (bindings/love/replay.lua),
#       - the LÖVE game headless (--headless: conf.lua turns off window, graphics, audio, sound and
#         joystick),
#       - the LÖVE game in a window under Xvfb, drawing every frame (first 600 ticks; its last
#         frame saved with --screenshot must be a real picture),
#     print a state-hash equal to `hopkit-sim hash --sticks FILE [--ticks N]`.
#  4. A bad sticks line is refused (exit 2, the line named) by the LuaJIT script.
#
# Environment: CARGO_TARGET_DIR.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
TARGET_DIR="${CARGO_TARGET_DIR:-$REPO/target}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
start=$(date +%s)
step() { printf '\n-- love: %s (%ss) --\n' "$*" "$(($(date +%s) - start))"; }
fail() { echo "ci-love: FAIL: $*" >&2; exit 1; }

step "system packages (luajit, love, xvfb)"
need=()
command -v luajit >/dev/null || need+=(luajit)
command -v love >/dev/null || need+=(love)
command -v xvfb-run >/dev/null || need+=(xvfb)
if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || fail "missing packages (need root to install): ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
        for p in "${need[@]}"; do DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" >/dev/null; done
fi
luajit -v
love --version 2>/dev/null | head -1 || true
echo "packages ready after $(($(date +%s) - start)) s"

step "the ffi.cdef is the C header's (tools/gen-cdef.lua --check)"
luajit bindings/love/tools/gen-cdef.lua bindings/c/include/hopkit.h bindings/love/hopkit_cdef.lua --check

step "build: libhopkit_ffi.so and hopkit-sim (release)"
# Separate builds, as the main job and ci-bindings.sh make them: built together, the two would
# unify features differently and rebuild both.
cargo build -q --release -p hopkit-ffi
cargo build -q --release -p hopkit-sim
lib="$TARGET_DIR/release/libhopkit_ffi.so"
sim="$TARGET_DIR/release/hopkit-sim"
[ -f "$lib" ] || fail "no $lib"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
# LÖVE (SDL) wants a runtime directory; a CI shell has none.
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 "$XDG_RUNTIME_DIR"
export HOPKIT_FFI_LIB="$lib"

"$sim" sticks --out "$work/demo-sticks.txt" --ticks 3600 >/dev/null
python3 - "$work/random-sticks.txt" <<'EOF'
import random, sys
r = random.Random(11)
with open(sys.argv[1], "w") as f:
    f.write("# random stick counts and buttons, held for 1-40 ticks\n")
    n = 0
    while n < 2400:
        pick = lambda: r.choice([0, 4095, 2048, 2047, r.randint(0, 4095), r.randint(0, 4095)])
        k = r.randint(1, 40)
        f.write(f"{pick()} {pick()} {pick()} {pick()} {r.randint(0, 15)}\n" * k)
        n += k
EOF

same() { # what, ours, host
    echo "$1: $2"
    [ -n "$2" ] && [ "$2" = "$3" ] || fail "$1: '$2' differs from hopkit-sim's '$3'"
}
hash_of() { grep '^state-hash: 0x' | tail -1; }

for f in demo-sticks random-sticks; do
    file="$work/$f.txt"
    host="$("$sim" hash --sticks "$file" -q)"
    host600="$("$sim" hash --sticks "$file" --ticks 600 -q)"
    step "$f: LuaJIT script, LÖVE headless, LÖVE in a window (Xvfb)"
    echo "hopkit-sim hash --sticks $f.txt: $host"
    same "luajit replay.lua" "$(luajit bindings/love/replay.lua "$lib" "$file")" "$host"
    out="$(timeout 120 love bindings/love --headless --sticks "$file" 2>&1)" ||
        { printf '%s\n' "$out"; fail "love --headless failed"; }
    printf '%s\n' "$out" | grep '^love:'
    same "love --headless" "$(printf '%s\n' "$out" | hash_of)" "$host"
    out="$(timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" love bindings/love --sticks "$file" --ticks 600 \
        --screenshot "$work/$f-600.png" 2>&1)" ||
        { printf '%s\n' "$out"; fail "love in a window failed"; }
    printf '%s\n' "$out" | grep '^love:'
    printf '%s\n' "$out" | grep -q 'drawn by' || fail "the windowed LÖVE run drew nothing"
    [ "$(wc -c <"$work/$f-600.png")" -gt 4000 ] || fail "the windowed LÖVE run's screenshot is empty"
    echo "screenshot of tick 600: $(wc -c <"$work/$f-600.png") bytes of PNG"
    same "love (window, 600 ticks)" "$(printf '%s\n' "$out" | hash_of)" "$host600"
    echo "hopkit-sim hash --sticks $f.txt --ticks 600: $host600"
done

step "a bad sticks line is refused"
printf '2048 2048 2048 2048 0\n2048 4096 2048 2048 0\n' >"$work/bad.txt"
set +e
err="$(luajit bindings/love/replay.lua "$lib" "$work/bad.txt" 2>&1)"
code=$?
set -e
echo "$err (exit $code)"
[ "$code" = 2 ] && printf '%s\n' "$err" | grep -q 'line 2' || fail "bad sticks line: exit $code, '$err'"

step "done"
