#!/usr/bin/env bash
# CI stage for the cross targets (called by .ci/run; runnable by hand from a bare machine):
#   1. qemu-system-arm (installed with apt-get if missing, as root), the cross toolchain;
#   2. core for thumbv7em-none-eabihf, thumbv6m-none-eabi, wasm32-unknown-unknown, with the default
#      `libm` backend and with `--no-default-features --features micromath`;
#   3. the STM32F411 board binary (build only: nobody has the board in CI);
#   4. the QEMU demo on mps2-an386 (Cortex-M4F) and microbit (Cortex-M0): its `state-hash` line after
#      600 scripted ticks must equal the host's (hopkit-sim, and the firmware's host-hash example,
#      which also compares the drawn frame's fingerprint, `friction-forms-hash`: one character in
#      both friction forms, `movement::FrictionMath`, the demo using only the default, and
#      `collision-hash`: every collision scenario of `hopkit_demo::collision`, the body among solids);
#   5. the panic-check image links (no reachable panic in the per-tick path, the collision code's
#      included) and prints the same hash;
#   6. budgets (scripts/budgets.sh against firmware/budgets.txt).
# Prints one line per check and a closing `ci-cross: N passed, M failed`; exits 1 if any failed.
set -uo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
TICKS=600 # must match TICKS in firmware/src/bin/qemu-demo.rs
start=$(date +%s)
passed=0
failed=0
failures=()
log="$(mktemp -d)"
trap 'rm -rf "$log"' EXIT

elapsed() { echo "$(($(date +%s) - start))s"; }
ok() { passed=$((passed + 1)); echo "ok    $1 ($(elapsed))"; }
bad() {
    failed=$((failed + 1))
    failures+=("$1")
    echo "FAIL  $1 ($(elapsed))"
    [ -n "${2:-}" ] && [ -f "$2" ] && tail -40 "$2" | sed 's/^/      | /'
    return 0
}
# run NAME CMD…: run quietly, keep the output for a failure report.
run() {
    local name="$1" f
    shift
    f="$log/$(echo "$name" | tr -c 'a-zA-Z0-9' _).log"
    if "$@" >"$f" 2>&1; then ok "$name"; else bad "$name" "$f"; fi
}

# 1. tools --------------------------------------------------------------------------------------
if ! command -v qemu-system-arm >/dev/null; then
    if [ "$(id -u)" = 0 ]; then
        apt-get update -qq >/dev/null 2>&1 || true
        DEBIAN_FRONTEND=noninteractive apt-get install -y -qq qemu-system-arm >/dev/null 2>&1
    fi
fi
if command -v qemu-system-arm >/dev/null; then ok "qemu-system-arm present"; else bad "qemu-system-arm missing (apt-get install qemu-system-arm)"; fi
run "cross toolchain (scripts/cross-toolchain.sh)" scripts/cross-toolchain.sh setup
echo "      cross route: thumbv7em=$(scripts/cross-toolchain.sh mode thumbv7em-none-eabihf)" \
    "thumbv6m=$(scripts/cross-toolchain.sh mode thumbv6m-none-eabi)" \
    "wasm32=$(scripts/cross-toolchain.sh mode wasm32-unknown-unknown)"

xbuild() { scripts/cross-cargo.sh build -q --profile firmware "$@"; }

# 2. core on every target, both maths backends ------------------------------------------------------
for t in thumbv7em-none-eabihf thumbv6m-none-eabi wasm32-unknown-unknown; do
    run "core $t (libm)" xbuild --target "$t" -p hopkit
    run "core $t (micromath)" xbuild --target "$t" -p hopkit --no-default-features --features micromath
done

# 3. board binary ------------------------------------------------------------------------------
run "board binary blackpill (thumbv7em, build only)" \
    xbuild --target thumbv7em-none-eabihf -p hopkit-firmware --features board --bin blackpill

# 4. QEMU demo vs host --------------------------------------------------------------------------
host_lines="$log/host-hash.txt"
if cargo run -q -p hopkit-firmware --example host-hash -- "$TICKS" >"$host_lines" 2>"$log/host-hash.err"; then
    ok "host run of the app (host-hash example, $TICKS ticks): $(grep '^state-hash:' "$host_lines")"
else
    bad "host run of the app (host-hash example)" "$log/host-hash.err"
fi
sim_line=""
host_line="$(grep '^state-hash:' "$host_lines" || true)"
cargo run -q -p hopkit-sim -- hash --scene demo --ticks "$TICKS" >"$log/sim.txt" 2>"$log/sim.err"
sim_line="$(grep '^state-hash:' "$log/sim.txt" || true)"
if [ -n "$sim_line" ]; then
    if [ "$sim_line" = "$host_line" ]; then
        ok "hopkit-sim hash --scene demo --ticks $TICKS agrees with the host app: $sim_line"
    else
        bad "hopkit-sim printed '$sim_line', the host app '$host_line'"
    fi
elif cargo run -q -p hopkit-sim -- --help 2>/dev/null | grep -qE '^ +hash( |$)'; then
    bad "hopkit-sim hash --scene demo --ticks $TICKS printed no state-hash line" "$log/sim.err"
else
    echo "note  hopkit-sim has no 'hash' command yet: QEMU is compared with the host-hash example only"
fi

for arch in thumbv7em thumbv6m; do
    out="$log/qemu-demo-$arch.txt"
    if scripts/qemu.sh "$arch" demo >"$out" 2>&1; then
        ok "QEMU demo $arch ran and passed its own checks"
    else
        bad "QEMU demo $arch" "$out"
        continue
    fi
    sed 's/^/      | /' "$out"
    for key in state-hash frames friction-forms-hash collision-hash; do
        q="$(grep "^$key:" "$out" || true)"
        h="$(grep "^$key:" "$host_lines" || true)"
        if [ -n "$q" ] && [ "$q" = "$h" ]; then
            ok "QEMU $arch '$key' line identical to the host"
        else
            bad "QEMU $arch '$key' differs: qemu '$q' host '$h'"
        fi
    done
    if [ -n "$sim_line" ]; then
        if [ "$(grep '^state-hash:' "$out")" = "$sim_line" ]; then ok "QEMU $arch state-hash identical to hopkit-sim"; else bad "QEMU $arch state-hash differs from hopkit-sim"; fi
    fi
done

# 5. no reachable panic ---------------------------------------------------------------------------
# The image also steps a body among solids (its `ex_collide`): it exits with a failure if that body
# did not climb the stairs and stop at the wall, and its `panic-check-collide` hash must be the
# same on both CPUs (hardware and soft float).
for arch in thumbv7em thumbv6m; do
    out="$log/panic-check-$arch.txt"
    if scripts/qemu.sh "$arch" panic-check >"$out" 2>&1 &&
        [ "$(grep '^state-hash:' "$out")" = "$(grep '^state-hash:' "$host_lines")" ]; then
        ok "panic-check $arch: linked with an undefined panic handler, same state-hash; $(grep '^panic-check-collide:' "$out")"
    else
        bad "panic-check $arch (a panic path is reachable if the link failed)" "$out"
    fi
done
pc_m4="$(grep -o '^panic-check-collide: 0x[0-9a-f]*' "$log/panic-check-thumbv7em.txt" 2>/dev/null || true)"
pc_m0="$(grep -o '^panic-check-collide: 0x[0-9a-f]*' "$log/panic-check-thumbv6m.txt" 2>/dev/null || true)"
if [ -n "$pc_m4" ] && [ "$pc_m4" = "$pc_m0" ]; then
    ok "panic-check collision run identical on thumbv7em and thumbv6m: $pc_m4"
else
    bad "panic-check collision run differs: thumbv7em '$pc_m4' thumbv6m '$pc_m0'"
fi

# 5b. the same with overflow checks in the core: an arithmetic overflow that can happen is a
# panic path too. Hard check for hopkit itself; with the firmware crate's renderer included too it
# is reported (embedded-graphics' generic geometry, instantiated there, is not ours to change).
core_ovf=(--config 'profile.firmware.package.hopkit.overflow-checks=true')
for target in thumbv7em-none-eabihf thumbv6m-none-eabi; do
    if HOPKIT_CROSS_TARGET_DIR="$REPO/target/cross-overflow" scripts/cross-cargo.sh build -q \
        --target "$target" -p hopkit-firmware --features qemu --bin panic-check \
        --profile firmware "${core_ovf[@]}" >"$log/panic-ovf-$target.txt" 2>&1; then
        ok "panic-check $target with the core's overflow checks on: links (no reachable overflow)"
    else
        bad "panic-check $target with overflow checks: a core overflow is reachable (scripts/panic-culprits.sh ${target%%-*} ${core_ovf[*]})" "$log/panic-ovf-$target.txt"
    fi
done
all_ovf=("${core_ovf[@]}" --config 'profile.firmware.package.hopkit-firmware.overflow-checks=true')
sites="$(scripts/panic-culprits.sh thumbv7em "${all_ovf[@]}" 2>/dev/null | grep -c '^ *[0-9]' || true)"
echo "note  with the firmware crate's overflow checks on as well: $sites call sites (renderer screen arithmetic, embedded-graphics Point ops) — reported, not a check yet"

# 6. budgets ------------------------------------------------------------------------------------
if scripts/budgets.sh >"$log/budgets.txt" 2>&1; then
    sed 's/^/      | /' "$log/budgets.txt"
    ok "budgets (firmware/budgets.txt)"
else
    bad "budgets (firmware/budgets.txt)" "$log/budgets.txt"
fi

echo "ci-cross: total $(elapsed)"
if [ "$failed" -gt 0 ]; then
    printf 'ci-cross failures:\n'
    printf '  %s\n' "${failures[@]}"
fi
echo "ci-cross: $passed passed, $failed failed"
[ "$failed" -eq 0 ]
