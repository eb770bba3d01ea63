#!/usr/bin/env bash
# Measure the firmware budgets and check them against firmware/budgets.txt.
#
#   scripts/budgets.sh            build (cached), measure, print a table, exit 1 if a budget fails
#   scripts/budgets.sh --update   same, then write the measured values as the new baseline
#
# Measured:
# - image sizes from the ELF section headers (like Berkeley `size`): flash = .text+.rodata+vectors
#   + .data (its load image), static RAM = .data + .bss (+ .uninit); the board and QEMU apps keep
#   their whole state in statics, so static RAM includes the scene and the frame buffer;
# - instruction counts from the qemu-bench image under `qemu-system-arm -icount shift=0` on
#   mps2-an386 (Cortex-M4F) and microbit (Cortex-M0), see docs/firmware.md;
# - the RP2040 board image's cycles and sleep share in rp2040js (scripts/ci-rp2040.sh --measure);
# - the WASM-4 cart's bytes after wasm-opt, without and with record mode (scripts/wasm4-cart.sh).
# A value fails if it is over its hard limit, or more than `tolerance-percent` over its baseline
# (a regression: update the baseline in the commit that knowingly causes it).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
update=0
[ "${1:-}" = "--update" ] && update=1

cross_dir="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}"
measured="$(mktemp)"

build() { "$REPO/scripts/cross-cargo.sh" build -q -p hopkit-firmware --profile firmware "$@"; }
# The link cable's budget run (issue 38: two boards wired in rp2040js, rollbacks 8 frames deep) is
# one single-threaded node process of a few minutes: it starts now and runs beside the builds and
# QEMU runs below; its lines are added at the end.
link_measured="$(mktemp)"
link_log="$(mktemp)"
blackpill_solids=""
trap 'kill $(jobs -p) 2>/dev/null || true; rm -f "$measured" "$link_measured" "$link_log" $blackpill_solids' EXIT
"$REPO/scripts/ci-link.sh" --measure "$link_measured" >"$link_log" 2>&1 &
link_pid=$!
# The board image on the level of solids (`cargo board-solids`), first: both images are the same
# path, so this one is copied aside and measured below.
(cd "$REPO/firmware" && "$REPO/scripts/cross-cargo.sh" build -q --release --features board,solids \
    --bin blackpill --target thumbv7em-none-eabihf)
blackpill_solids="$(mktemp)"
cp "$cross_dir/thumbv7em-none-eabihf/release/blackpill" "$blackpill_solids"
# The board image exactly as users build it: `cd firmware && cargo build --release --features board
# --bin blackpill` (firmware/.cargo/config.toml sets the size profile, flip-link and the runner).
(cd "$REPO/firmware" && "$REPO/scripts/cross-cargo.sh" build -q --release --features board \
    --bin blackpill --target thumbv7em-none-eabihf)
build --target thumbv7em-none-eabihf --features qemu --bins
build --target thumbv6m-none-eabi --features qemu --bins

# Sizes: section flags decide the bucket, exactly as Berkeley `size` does.
elf_sizes() { # name elf
    python3 - "$1" "$2" >>"$measured" <<'EOF'
import struct, sys
name, path = sys.argv[1], sys.argv[2]
data = open(path, "rb").read()
assert data[:4] == b"\x7fELF" and data[4] == 1, "32-bit ELF expected"
shoff, = struct.unpack_from("<I", data, 0x20)
shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
text = dat = bss = 0
for i in range(shnum):
    _, sh_type, flags, _, _, size = struct.unpack_from("<IIIIII", data, shoff + i * shentsize)
    if not flags & 0x2:          # SHF_ALLOC
        continue
    if sh_type == 8:             # SHT_NOBITS
        bss += size
    elif flags & 0x1:            # SHF_WRITE
        dat += size
    else:
        text += size
print(f"{name}.text {text}")
print(f"{name}.data {dat}")
print(f"{name}.bss {bss}")
print(f"{name}.flash {text + dat}")
print(f"{name}.static-ram {dat + bss}")
EOF
}
elf_sizes blackpill "$cross_dir/thumbv7em-none-eabihf/release/blackpill"
elf_sizes blackpill-solids "$blackpill_solids"
elf_sizes qemu-demo.thumbv7em "$cross_dir/thumbv7em-none-eabihf/firmware/qemu-demo"
elf_sizes qemu-demo.thumbv6m "$cross_dir/thumbv6m-none-eabi/firmware/qemu-demo"

# Instruction counts: every `key: N` line of the bench, prefixed with the target.
for arch in thumbv7em thumbv6m; do
    out="$("$REPO/scripts/qemu.sh" "$arch" bench)" || { echo "$out"; echo "budgets: qemu-bench $arch failed" >&2; exit 1; }
    echo "$out" | sed -n "s/^\([a-z0-9-]*\): \([0-9][0-9]*\)$/$arch.\1 \2/p" >>"$measured"
    out="$("$REPO/scripts/qemu.sh" "$arch" netplay)" || { echo "$out"; echo "budgets: qemu-netplay $arch failed" >&2; exit 1; }
    echo "$out" | sed -n "s/^\([a-z0-9-]*\): \([0-9][0-9]*\)$/$arch.\1 \2/p" >>"$measured"
done

# The other CPUs (issue 15): the Cortex-M33 runs the same qemu-bench; RISC-V and AArch64 print
# their counts from cpu-demo (src/bin/cpu-demo.rs). Reported and baselined like the others.
out="$("$REPO/scripts/qemu.sh" thumbv8m bench)" || { echo "$out"; echo "budgets: qemu-bench thumbv8m failed" >&2; exit 1; }
echo "$out" | sed -n "s/^\(movement-kernel-ground-instr\|demo-tick-instr\): \([0-9][0-9]*\)$/thumbv8m.\1 \2/p" >>"$measured"
for arch in riscv32imac riscv32imafc aarch64; do
    out="$("$REPO/scripts/qemu.sh" "$arch" demo)" || { echo "$out"; echo "budgets: cpu-demo $arch failed" >&2; exit 1; }
    echo "$out" | sed -n "s/^\(movement-kernel-ground-instr\|demo-tick-instr\): \([0-9][0-9]*\)$/$arch.\1 \2/p" >>"$measured"
done

# RAM at its peak in the real demo image: statics + deepest stack.
for arch in thumbv7em thumbv6m; do
    out="$("$REPO/scripts/qemu.sh" "$arch" demo)" || { echo "$out"; echo "budgets: qemu-demo $arch failed" >&2; exit 1; }
    echo "$out" | sed -n "s/^\(stack-high-water\|ram-peak\): \([0-9][0-9]*\)$/qemu-demo.$arch.\1 \2/p" >>"$measured"
done

# The WASM-4 cart after wasm-opt (scripts/wasm4-cart.sh, which also checks the shipped one against
# WASM-4's 64 KiB): the shipped cart, with its record mode (feature `record`, a default), and the
# play-only cart without it (`--no-default-features`).
for spec in cart:1 record-cart:; do
    name="${spec%%:*}"
    out="$(HOPKIT_WASM4_NO_DEFAULT="${spec#*:}" HOPKIT_WASM4_NAME="budget-$name" HOPKIT_WASM4_MAX_BYTES=1000000 \
        "$REPO/scripts/wasm4-cart.sh" 2>&1)" || { echo "$out"; echo "budgets: wasm4 $name failed" >&2; exit 1; }
    echo "$out" | sed -n "s/^wasm4 cart: [0-9]* bytes from cargo, \([0-9]*\) bytes after wasm-opt.*/wasm4.$name-bytes \1/p" >>"$measured"
    # The shipped cart's memory layout and interface (docs/bindings.md's table): data bytes,
    # __data_end, __heap_base, free bytes of the page, function exports, imports.
    if [ "$name" = record-cart ]; then
        echo "$out" | sed -n "s/^wasm4 figures (budget-$name.wasm): //p" | tr ' ' '\n' | paste - - |
            awk '{print "wasm4." $1, $2}' >>"$measured"
    fi
done

# The link cable (issue 38), started at the top (joined before the RP2040 run below, which
# would run `npm ci` in the same emulator directory).
wait "$link_pid" || { cat "$link_log"; echo "budgets: ci-link.sh --measure failed" >&2; exit 1; }
cat "$link_measured" >>"$measured"

# The RP2040 board image in rp2040js (issue 22): sizes, cycles per phase from its phase pins, and
# the time it sleeps (scripts/ci-rp2040.sh proves the same image against the host). When
# HOPKIT_BUDGET_MEASURED names a file where scripts/ci-rp2040.sh's check run already wrote them
# (.ci/run runs it first), they are taken from there: the same image over the same 3,600 ticks.
premeasured="${HOPKIT_BUDGET_MEASURED:-}"
if [ -n "$premeasured" ] && grep -q '^rp2040\.frame-work-cycles-max ' "$premeasured" 2>/dev/null; then
    grep '^rp2040\.' "$premeasured" | grep -v '^rp2040\.link-' >>"$measured"
    echo "budgets: the RP2040 values from $premeasured (scripts/ci-rp2040.sh's run)" >&2
else
    "$REPO/scripts/ci-rp2040.sh" --measure "$measured" >/dev/null
fi

python3 - "$REPO/firmware/budgets.txt" "$measured" "$update" <<'EOF'
import sys
path, measured_path, update = sys.argv[1], sys.argv[2], sys.argv[3] == "1"
measured = dict(l.split() for l in open(measured_path) if l.strip())
measured = {k: int(v) for k, v in measured.items()}
lines = open(path).read().splitlines()
tol = 10.0
rows, failed, out = [], [], []
for line in lines:
    s = line.split("#", 1)[0].split()
    if len(s) == 2 and s[0] == "tolerance-percent":
        tol = float(s[1])
for line in lines:
    s = line.split("#", 1)[0].split()
    if len(s) != 3:
        out.append(line)
        continue
    name, limit, base = s
    got = measured.get(name)
    if got is None:
        failed.append(f"{name}: not measured")
        out.append(line)
        continue
    verdict = "ok"
    soft = limit.startswith("~")
    if soft and got > int(limit[1:]):
        verdict = "over target (soft: reported, not failed)"
    elif limit != "-" and not soft and got > int(limit):
        verdict = "OVER LIMIT"
    elif base != "-" and got > int(base) * (1 + tol / 100):
        verdict = f"REGRESSION (>{tol:g}% over baseline)"
    elif base != "-" and got < int(base) * (1 - tol / 100):
        verdict = "better than baseline (update it)"
    if verdict.startswith(("OVER", "REGRESSION")):
        failed.append(f"{name}: {got} ({verdict})")
    rows.append((name, got, limit, base, verdict))
    out.append(f"{name:<40} {limit:>8} {got if update else base:>9}")
w = max(len(r[0]) for r in rows) if rows else 10
print(f"{'budget':<{w}} {'measured':>9} {'limit':>8} {'baseline':>9}  verdict")
for name, got, limit, base, verdict in rows:
    print(f"{name:<{w}} {got:>9} {limit:>8} {base:>9}  {verdict}")
known = {r[0] for r in rows}
extra = sorted(k for k in measured if k not in known)
if extra:
    print("also measured (no budget): " + ", ".join(f"{k}={measured[k]}" for k in extra))
if update:
    open(path, "w").write("\n".join(out) + "\n")
    print(f"budgets: baseline updated in {path}")
    failed = [f for f in failed if "OVER LIMIT" in f or "not measured" in f]
if failed:
    print("budgets: FAILED\n  " + "\n  ".join(failed), file=sys.stderr)
    sys.exit(1)
print(f"budgets: {len(rows)} passed, 0 failed")
EOF
# The figures the docs cite are written from budgets.txt (a test checks them in `cargo test`).
if [ "$update" = 1 ]; then
    "$REPO/scripts/docs-numbers.sh" --write
fi
