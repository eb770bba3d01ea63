#!/usr/bin/env bash
# Check the house rules of issue 36 §4; exit 1, naming each offending line, if one breaks.
#
#   scripts/check-house-rules.sh              check core/src (rules 1-3) and the repository (rule 4)
#   scripts/check-house-rules.sh DIR          check DIR instead of core/src (a copy of it; rules 1-3)
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
#    forms agree. The forms behind `all_finite!` (`all_finite_by_sum!`, `…_by_flags!`,
#    `…_by_bits!`) are named only there too: which form a target runs is the policy's choice,
#    never a mechanic's.
# 3. No private finiteness helper outside core/src/math/: a free function named `finite…`,
#    `is_finite…` or `all_finite…` (steering's own `finite3` on the bits, follower's `finite`),
#    or a mechanic OR-ing `nonfinite_flag`s itself, is a second policy. Methods (`fn is_finite(&self)`
#    of a state type, indented in its `impl`) are the vocabulary and are not matched.
# 4. No `#[path]` includes in the repository's Rust files, outside tests' own helpers (a file with
#    a `tests` directory in its path): code two targets share is a module of a crate (the benches'
#    library, the firmware library), compiled and linted once, not a file each of them includes.
#
# Checked (rules 1-3): the code that ships, every .rs file under core/src outside test code (an item
# under `#[cfg(test)]`, at the top level or in an `impl`, and files named tests.rs); comment lines
# are skipped. Rule 4: every .rs file of the repository (outside target/, .git and node_modules),
# comments included, as `git grep '#\[path' -- '*.rs'` sees them. A grep, so a rule can be dodged by
# a new spelling: it catches the spellings the core has used (masks as hex literals, `* 0.0` sums,
# the `target_*` cfg keys, the helpers' names).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"

# The homes: the only files where each rule's spellings are allowed (paths relative to core/src).
TARGET_HOME=math/target.rs
BITS_HOME=math/bits.rs
FINITE_HOME=math/

# Rule 1: the cfg keys that name a property of the target, and run-time feature detection.
TARGET_RE='\btarget_(arch|abi|env|os|family|vendor|endian|pointer_width|feature|has_atomic[a-z_]*|thread_local)\b|\bis_[a-z0-9_]+_feature_detected!|\bcfg(_attr)?!?\(([^)]*[(, ])?(unix|windows)\b'
# Rule 2: the IEEE-754 single-precision masks (sign, magnitude, exponent, +inf, f32::MAX's bits,
# significand, implicit one, the normal-number span, −inf) as hex literals, and the float-sum
# finiteness test `x * 0.0` (or `0.0 * x`).
MASK_RE='\b0x(7fff_?ffff|7f80_?0000|8000_?0000|7f7f_?ffff|007f_?ffff|0080_?0000|7f00_?0000|ff80_?0000)(u32)?\b|\* 0\.0([^0-9_e]|$)|\b0\.0 \*|\ball_finite_by_(sum|bits|flags)\b'
# Rule 3: a free (top-level) function named like a finiteness test, and the flag form's pieces.
# The lines come as "path:line:text", so the text starts after the second colon.
FINITE_RE='^[^:]*:[0-9]+:(pub(\([a-z:]+\))? )?(const )?fn (is_|all_)?finite[a-z0-9_]*[ <(]|\bnonfinite_flag\b'
# Rule 4: a `#[path = …]` attribute (inner or outer).
PATH_RE='#!?\[path\b'

# Ship-code lines of every .rs file under $1 as "path:line:text" (path relative to $1): test
# items and comment lines dropped, a trailing ` // comment` cut.
ship_lines() {
    local dir="$1"
    (cd "$dir" && find . -name '*.rs' ! -name tests.rs | sed 's|^\./||' | LC_ALL=C sort |
        while IFS= read -r f; do
            awk -v f="$f" '
                skip == 1 {                       # inside an item under #[cfg(test)]
                    if ($0 ~ ("^" ind "}") || (!opened && $0 ~ /[;}][[:space:]]*$/)) skip = 0
                    if ($0 ~ /\{[[:space:]]*$/) opened = 1
                    next
                }
                /^[[:space:]]*#\[cfg\(test\)\][[:space:]]*$/ {
                    ind = substr($0, 1, index($0, "#") - 1); skip = 1; opened = 0; next
                }
                /^[[:space:]]*\/\// { next }
                { line = $0; sub(/[[:space:]]\/\/.*$/, "", line); print f ":" FNR ":" line }
            ' "$f"
        done)
}

# Lines of $2 (ship_lines output) matching the ERE $1 (any case), outside the home $3 (a file, or a
# directory ending in /).
offenders() {
    grep -E -i -- "$1" <<<"$2" | grep -v "^$3" || true
}

# Rule 4 over the .rs files under $1: "path:line:text" of each `#[path]` outside tests' helpers.
path_offenders() {
    (cd "$1" && find . \( -name target -o -name .git -o -name node_modules \) -prune -o \
        -name '*.rs' -print | sed 's|^\./||' | grep -v -E '(^|/)tests/' | LC_ALL=C sort |
        while IFS= read -r f; do
            grep -n -E -- "$PATH_RE" "$f" | sed "s|^|$f:|" || true
        done)
}

check_paths() { # repository root → 0 if rule 4 holds
    local bad
    bad="$(path_offenders "$1")"
    if [ -n "$bad" ]; then
        echo "check-house-rules: a #[path] include outside tests' helpers (make the shared file a module of a crate):" >&2
        sed 's/^/  /' <<<"$bad" >&2
        return 1
    fi
}

check() { # dir → 0 if rules 1-3 hold
    local dir="$1" lines bad1 bad2 bad3 status=0
    lines="$(ship_lines "$dir")"
    [ -n "$lines" ] || { echo "check-house-rules: no Rust sources under $dir" >&2; return 2; }
    bad1="$(offenders "$TARGET_RE" "$lines" "$TARGET_HOME:")"
    bad2="$(offenders "$MASK_RE" "$lines" "$BITS_HOME:")"
    bad3="$(offenders "$FINITE_RE" "$lines" "$FINITE_HOME")"
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
    if [ -n "$bad3" ]; then
        echo "check-house-rules: a finiteness helper of its own outside core/src/$FINITE_HOME (use x.is_finite(), bits::all_finite! or a vector's is_finite):" >&2
        sed 's/^/  core\/src\//' <<<"$bad3" >&2
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
    plant "a form of all_finite!" movement/kernels.rs 'fn a(x: f32, y: f32) -> bool { crate::math::bits::all_finite_by_sum!(x, y) }' fail
    plant "a form in its home" math/bits.rs 'fn a(x: f32) -> bool { all_finite_by_flags!(x) }' pass
    plant "a form in a test method" ghost/flyer.rs $'impl B {\n    #[cfg(test)]\n    fn a(&self) -> bool {\n        bits::all_finite_by_bits!(self.x)\n    }\n}' pass
    plant "after a test method" ghost/flyer.rs $'impl B {\n    #[cfg(test)]\n    fn a(&self) -> bool {\n        true\n    }\n    fn b(&self) -> bool {\n        bits::all_finite_by_flags!(self.x)\n    }\n}' fail
    plant "private finite3" steering/mod.rs 'pub(crate) fn finite3(v: Vec3) -> bool { v.is_finite() }' fail
    plant "private finite" follower/mod.rs 'fn finite(v: Vec3) -> bool { v.is_finite() }' fail
    plant "private all_finite" movement/state.rs 'const fn all_finite_xyz(a: f32) -> bool { a.is_finite() }' fail
    plant "flags OR-ed by hand" movement/walk.rs 'fn a(x: f32, y: f32) -> bool { (nonfinite_flag(x) | nonfinite_flag(y)) & SIGN == 0 }' fail
    plant "finiteness helper in math" math/mod.rs 'pub(crate) fn finite_pair(a: f32, b: f32) -> bool { a.is_finite() && b.is_finite() }' pass
    plant "an is_finite method" movement/state.rs $'impl C {\n    pub fn is_finite(&self) -> bool {\n        self.x.is_finite()\n    }\n}' pass
    plant "a helper that is not one" collide/trace.rs 'fn ordered_finite_pair(a: f32) -> f32 { a }' pass
    # Rule 4, on a small tree: a #[path] include fails outside a tests/ directory.
    plant_path() { # NAME FILE TEXT EXPECT
        rm -rf "$tmp/repo" && mkdir -p "$tmp/repo/$(dirname "$2")" "$tmp/repo/target/x"
        printf 'fn main() {}\n' >"$tmp/repo/src.rs"
        printf '#[path = "x.rs"]\nmod x;\n' >"$tmp/repo/target/x/built.rs" # build output: ignored
        printf '%s\n' "$3" >"$tmp/repo/$2"
        local got=pass
        check_paths "$tmp/repo" >/dev/null 2>&1 || got=fail
        if [ "$got" = "$4" ]; then
            echo "ok   $1 ($got)"
        else
            echo "FAIL $1: expected $4, got $got"
            fails=$((fails + 1))
        fi
    }
    plant_path "no #[path]" benches/benches/a.rs 'use hopkit_benches::interleave;' pass
    plant_path "#[path] in a bench" benches/benches/a.rs $'#[path = "shared/b.rs"]\nmod b;' fail
    plant_path "#[path] in a binary" firmware/src/bin/a.rs $'#[path = "../rt/qemu.rs"]\nmod qemu_rt;' fail
    plant_path "#![path] inner" firmware/src/a.rs '#![path = "b.rs"]' fail
    plant_path "#[path] in a test helper" core/tests/common/a.rs $'#[path = "../shared/b.rs"]\nmod b;' pass
    plant_path "the repository as it is" src.rs 'fn b() {}' pass
    if check_paths "$REPO"; then
        echo "ok   the repository's own files (pass)"
    else
        echo "FAIL the repository's own files: expected pass"
        fails=$((fails + 1))
    fi
    [ "$fails" = 0 ] && echo "check-house-rules: self-test passed" || { echo "check-house-rules: self-test failed" >&2; return 1; }
}

case "${1:-}" in
    --self-test) self_test ;;
    -h | --help) sed -n '2,6p' "$0" | sed 's/^# \{0,1\}//' ;;
    "") status=0
        check "$REPO/core/src" || status=$?
        check_paths "$REPO" || status=$((status > 0 ? status : 1))
        [ "$status" = 0 ] || exit "$status"
        echo "check-house-rules: target cfgs only in core/src/$TARGET_HOME, finiteness and masks only in core/src/$BITS_HOME, finiteness helpers only in core/src/$FINITE_HOME, no #[path] includes outside tests" ;;
    *) [ -d "$1" ] || { echo "check-house-rules: no such directory: $1" >&2; exit 2; }
       check "$1" ;;
esac
