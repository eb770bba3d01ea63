#!/usr/bin/env bash
# Check the core's two house rules (issue 36 §4); exit 1, naming each offending line, if one breaks.
#
#   scripts/check-house-rules.sh              check core/src
#   scripts/check-house-rules.sh DIR          check DIR instead (a copy of core/src)
#   scripts/check-house-rules.sh --self-test  plant each kind of violation in a copy; each must fail
#
# The rules, and why. hopkit promises the same state bits on every CPU, and a per-target choice is
# where that promise breaks first: a form of a computation that one target alone runs is tested
# only where someone remembers to test it.
#
# 1. Target cfgs (`target_arch`, `target_abi`, `target_feature`, `target_has_atomic`,
#    `target_pointer_width`, … in `cfg`, `cfg!` or `cfg_attr`) only in core/src/math/target.rs.
#    One place decides what each target gets; mechanics test its named constants in a plain `if`
#    (every form is then compiled and tested on the host) or take one of its inline policies.
# 2. Float finiteness tests and IEEE-754 bit masks only in core/src/math/bits.rs. One finiteness
#    policy: a mechanic calls a helper of `math::bits` (`all_finite!`, `finite3`, `abs_bits`, the
#    named masks `SIGN`, `ABS`, `INF`, …) or a `math` helper built on it, instead of spelling its
#    own `x * 0.0` sum or mask, so that each trick has one home, one reason and one test that its
#    forms agree.
#
# Checked: the code that ships, every .rs file under core/src outside test code (a top-level item
# under `#[cfg(test)]`, and files named tests.rs); comment lines are skipped. A grep, so a rule can
# be dodged by a new spelling: it catches the spellings the core has used (masks as hex literals,
# `* 0.0` sums, the `target_*` cfg keys).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The homes: the only files where each rule's spellings are allowed (paths relative to core/src).
TARGET_HOME=math/target.rs
BITS_HOME=math/bits.rs

# Rule 1: the cfg keys that name a property of the target, and run-time feature detection.
TARGET_RE='\btarget_(arch|abi|env|os|family|vendor|endian|pointer_width|feature|has_atomic[a-z_]*|thread_local)\b|\bis_[a-z0-9_]+_feature_detected!|\bcfg(_attr)?!?\(([^)]*[(, ])?(unix|windows)\b'
# Rule 2: the IEEE-754 single-precision masks (sign, magnitude, exponent, +inf, f32::MAX's bits,
# significand, implicit one, the normal-number span, −inf) as hex literals, and the float-sum
# finiteness test `x * 0.0` (or `0.0 * x`).
MASK_RE='\b0x(7fff_?ffff|7f80_?0000|8000_?0000|7f7f_?ffff|007f_?ffff|0080_?0000|7f00_?0000|ff80_?0000)(u32)?\b|\* 0\.0([^0-9_e]|$)|\b0\.0 \*'

# Ship-code lines of every .rs file under $1 as "path:line:text" (path relative to $1): test
# items and comment lines dropped, a trailing ` // comment` cut.
ship_lines() {
    local dir="$1"
    (cd "$dir" && find . -name '*.rs' ! -name tests.rs | sed 's|^\./||' | LC_ALL=C sort |
        while IFS= read -r f; do
            awk -v f="$f" '
                skip == 1 {                       # inside a top-level #[cfg(test)] item
                    if ($0 ~ /^}/ || (!opened && $0 ~ /[;}][[:space:]]*$/)) skip = 0
                    if ($0 ~ /\{[[:space:]]*$/) opened = 1
                    next
                }
                /^#\[cfg\(test\)\][[:space:]]*$/ { skip = 1; opened = 0; next }
                /^[[:space:]]*\/\// { next }
                { line = $0; sub(/[[:space:]]\/\/.*$/, "", line); print f ":" FNR ":" line }
            ' "$f"
        done)
}

# Lines of $2 (ship_lines output) matching the ERE $1 (any case), outside the home file $3.
offenders() {
    grep -E -i -- "$1" <<<"$2" | grep -v "^$3:" || true
}

check() { # dir → 0 if both rules hold
    local dir="$1" lines bad1 bad2 status=0
    lines="$(ship_lines "$dir")"
    [ -n "$lines" ] || { echo "check-house-rules: no Rust sources under $dir" >&2; return 2; }
    bad1="$(offenders "$TARGET_RE" "$lines" "$TARGET_HOME")"
    bad2="$(offenders "$MASK_RE" "$lines" "$BITS_HOME")"
    if [ -n "$bad1" ]; then
        echo "check-house-rules: a target cfg outside core/src/$TARGET_HOME (use one of its constants or inline policies):" >&2
        sed 's/^/  core\/src\//' <<<"$bad1" >&2
        status=1
    fi
    if [ -n "$bad2" ]; then
        echo "check-house-rules: a finiteness test or float mask outside core/src/$BITS_HOME (use a math::bits helper):" >&2
        sed 's/^/  core\/src\//' <<<"$bad2" >&2
        status=1
    fi
    return "$status"
}

self_test() {
    local tmp fails=0
    tmp="$(mktemp -d)"
    trap 'rm -rf "$tmp"' RETURN
    # plant NAME FILE TEXT EXPECT: append TEXT to a fresh copy's FILE; the check must EXPECT (fail|pass).
    plant() {
        rm -rf "$tmp/src" && cp -r "$REPO/core/src" "$tmp/src"
        printf '%s\n' "$3" >>"$tmp/src/$2"
        local got=pass
        check "$tmp/src" >/dev/null 2>&1 || got=fail
        if [ "$got" = "$4" ]; then
            echo "ok   $1 ($got)"
        else
            echo "FAIL $1: expected $4, got $got"
            fails=$((fails + 1))
        fi
    }
    plant "the tree as it is" lib.rs '' pass
    plant "cfg attribute" movement/walk.rs '#[cfg(target_arch = "arm")] fn a() {}' fail
    plant "cfg! macro" math/scalar.rs 'const A: bool = cfg!(target_pointer_width = "64");' fail
    plant "cfg_attr inline" steering/mod.rs '#[cfg_attr(target_has_atomic = "32", inline(never))] fn a() {}' fail
    plant "target_feature" math/vec3.rs 'const B: bool = cfg!(target_feature = "f");' fail
    plant "cfg(unix)" ghost/mod.rs '#[cfg(unix)] fn a() {}' fail
    plant "mask literal" follower/body.rs 'fn a(x: f32) -> u32 { x.to_bits() & 0x7fff_ffff }' fail
    plant "mask without separator" math/trig.rs 'const M: u32 = 0x7F800000;' fail
    plant "float-sum finiteness" movement/state.rs 'fn a(x: f32) -> bool { x * 0.0 == 0.0 }' fail
    plant "target cfg in its home" math/target.rs 'const C: bool = cfg!(target_os = "none");' pass
    plant "mask in its home" math/bits.rs 'const D: u32 = 0x8000_0000;' pass
    plant "mask in a test module" math/trig.rs $'#[cfg(test)]\nmod more_tests {\n    const M: u32 = 0x7f80_0000;\n}' pass
    plant "after a test module" math/trig.rs $'#[cfg(test)]\nmod more_tests {}\nconst M: u32 = 0x7f80_0000;' fail
    plant "in a comment" movement/kernels.rs '// a cfg!(target_arch = "x86") or 0x7f80_0000 in prose' pass
    plant "not a float mask" stick/digital.rs 'const E: u32 = 0x7f80_0001 + 3 * 10;' pass
    [ "$fails" = 0 ] && echo "check-house-rules: self-test passed" || { echo "check-house-rules: self-test failed" >&2; return 1; }
}

case "${1:-}" in
    --self-test) self_test ;;
    -h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//' ;;
    "") check "$REPO/core/src" && echo "check-house-rules: target cfgs only in core/src/$TARGET_HOME, finiteness and masks only in core/src/$BITS_HOME" ;;
    *) [ -d "$1" ] || { echo "check-house-rules: no such directory: $1" >&2; exit 2; }
       check "$1" ;;
esac
