#!/usr/bin/env bash
# The RP2040 board image, proven on an emulator of the chip (called by .ci/run; runnable by hand):
#
#   1. the documented command, `cd firmware && cargo pico` (through scripts/cross-cargo.sh), builds
#      the image and writes the .uf2 a user copies to the RPI-RP2 drive;
#   2. the host writes the scripted demo as raw ADC samples (`hopkit-sim sticks`), its hashes after
#      600 and 3,600 ticks (`hopkit-sim hash --sticks`) and its rendering of every tick (`--frames`);
#   3. firmware/rp2040-emu/run.mjs runs that .uf2 on rp2040js, feeding the same samples to the
#      emulated ADC and buttons, decoding the SSD1306 bytes on I2C0 and reading the UART report:
#      the emulator's 600- and 3,600-tick hashes must equal the host's, and every frame the board
#      sent must equal the host's rendering of its tick, pixel for pixel;
#   4. negative controls: one ADC count changed in the input changes the board's hash (to the host's
#      hash of the changed input), and one flipped display bit is reported as a differing frame;
#   5. docs/rp2040-oled.png (the OLED as the emulated board drew it) must show what this run drew;
#   6. the level of solids (FIRE held at power-on): the same image on its scripted run
#      (firmware/src/solid_run.rs, 600 ticks of gamepad bytes, fed as the samples `gamepad_raw`
#      makes of them: examples/gamepad-sticks.rs) must report the hash `hopkit-sim hash --gamepad
#      FILE --level solid` prints, and that hash must not be the full level's of the same input.
#
#   scripts/ci-rp2040.sh                  all of the above
#   scripts/ci-rp2040.sh --update-docs    the same, then rewrite docs/rp2040-oled.png
#   scripts/ci-rp2040.sh --measure FILE   only build, run 3,600 ticks and the solid level's 600; append
#                                         the budget values (`rp2040.<name> N` lines) to FILE
#                                         (scripts/budgets.sh)
#
# With HOPKIT_BUDGET_MEASURED=FILE in the environment, the check run (1–5) also appends its budget
# values to FILE: the cycles of the same image over the same 3,600 ticks, so scripts/budgets.sh
# (given the same variable) takes them from there instead of running the emulator again (.ci/run).
set -euo pipefail
REPO="$(cd "$(dirname "${BASH_SOURCE[0]}")/.." && pwd)"
cd "$REPO"
fail() { echo "ci-rp2040: FAIL: $*" >&2; exit 1; }
mode=check
measure=""
case "${1:-}" in
    --update-docs) mode=update ;;
    --measure) mode=measure; measure="${2:?--measure FILE}" ;;
    "") ;;
    *) fail "unknown option $1" ;;
esac
TICKS=3600
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT

# 1. The image and its UF2, by the documented command (its runner writes the UF2 and, with no
#    RPI-RP2 drive mounted, says how to flash it).
cross_dir="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}"
elf="$cross_dir/thumbv6m-none-eabi/pico/rp2040"
(cd firmware && ../scripts/cross-cargo.sh run -q --profile pico --features rp2040 --bin rp2040 \
    --target thumbv6m-none-eabi) >"$work/pico.txt" || { cat "$work/pico.txt"; fail "cargo pico"; }
grep -q "^wrote .*rp2040.uf2: " "$work/pico.txt" || { cat "$work/pico.txt"; fail "cargo pico wrote no UF2"; }
uf2="$elf.uf2"
[ -f "$uf2" ] || fail "no $uf2"
echo "image: $(sed -n 's/^wrote //p' "$work/pico.txt")"

# 2. The host side.
cargo build -q --release -p hopkit-sim
sim="${CARGO_TARGET_DIR:-$REPO/target}/release/hopkit-sim"
"$sim" sticks --out "$work/sticks.txt" --ticks "$TICKS" --force >/dev/null

# 3. The emulator (rp2040js, pinned in package-lock.json).
(cd firmware/rp2040-emu && npm ci --silent --no-audit --no-fund >/dev/null) || fail "npm ci in firmware/rp2040-emu"
emu() { node firmware/rp2040-emu/run.mjs "$uf2" --sticks "$@"; }

# The budget values of an emulator run (its --json report) and the image's sizes, appended to $2;
# with a third argument, the level of solids' run: its values as `rp2040.solid.<name>`.
write_measure() { # run.json file [solid]
    python3 - "$1" "$elf" "${3:-}" >>"$2" <<'EOF'
import json, struct, sys
r = json.load(open(sys.argv[1]))
c = r["cycles"]
p = "rp2040.solid." if sys.argv[3] else "rp2040."
print(f"{p}frame-work-cycles-max {c['frameWork']['max']}")
print(f"{p}frame-work-cycles-mean {c['frameWork']['mean']}")
print(f"{p}tick-cycles-max {c['ticks']['max']}")
print(f"{p}draw-cycles-max {c['draw']['max']}")
if sys.argv[3]:
    print(f"{p}awake-permille {round((1 - r['asleep']) * 1000)}")
    sys.exit(0)
print(f"{p}flush-pass-cycles-max {c['flush']['max']}")
print(f"{p}awake-permille {round((1 - r['asleep']) * 1000)}")
d = open(sys.argv[2], "rb").read()
shoff, = struct.unpack_from("<I", d, 0x20)
shentsize, shnum = struct.unpack_from("<HH", d, 0x2E)
text = dat = bss = 0
for i in range(shnum):
    _, t, flags, _, _, size = struct.unpack_from("<IIIIII", d, shoff + i * shentsize)
    if not flags & 2:
        continue
    if t == 8:
        bss += size
    elif flags & 1:
        dat += size
    else:
        text += size
print(f"rp2040.flash {text + dat}")
print(f"rp2040.static-ram {dat + bss}")
EOF
}

# The level of solids' run: its gamepad bytes and the board's samples of them (6.).
cargo run -q -p hopkit-firmware --example gamepad-sticks -- --solid-run "$work/solid.gamepad" \
    "$work/solid-sticks.txt" || fail "gamepad-sticks"
SOLID_TICKS="$(stat -c %s "$work/solid.gamepad")"
# FIRE (button bit 2) held at power-on: the level of solids.
solid_emu() { emu "$work/solid-sticks.txt" --ticks "$SOLID_TICKS" --boot-buttons 2 "$@"; }

if [ "$mode" = measure ]; then
    emu "$work/sticks.txt" --ticks "$TICKS" --json "$work/run.json" >"$work/run.txt" || { cat "$work/run.txt"; fail "emulator run"; }
    write_measure "$work/run.json" "$measure"
    solid_emu --json "$work/solid.json" >"$work/solid.txt" || { cat "$work/solid.txt"; fail "emulator run, level of solids"; }
    write_measure "$work/solid.json" "$measure" solid
    exit 0
fi

host_hash() { "$sim" hash --sticks "$@" | sed -n 's/^state-hash: //p'; }
h600="$(host_hash "$work/sticks.txt" --ticks 600)"
h3600="$(host_hash "$work/sticks.txt" --ticks "$TICKS" --frames "$work/host-frames.bin")"
emu "$work/sticks.txt" --ticks "$TICKS" --host-frames "$work/host-frames.bin" \
    --png-dir "$work/png" --png-ticks 3000 --json "$work/run.json" >"$work/run.txt" || { cat "$work/run.txt"; fail "emulator run"; }
if [ -n "${HOPKIT_BUDGET_MEASURED:-}" ]; then
    write_measure "$work/run.json" "$HOPKIT_BUDGET_MEASURED"
    echo "budget values of this run appended to $HOPKIT_BUDGET_MEASURED (scripts/budgets.sh reads them)"
fi
grep -E "^(image|board|i2c|cycles|asleep|frames-compared|png)" "$work/run.txt"
e600="$(sed -n 's/^emulator tick 600: state-hash: //p' "$work/run.txt")"
e3600="$(sed -n "s/^emulator tick $TICKS: state-hash: //p" "$work/run.txt")"
echo "emulator tick 600:  state-hash: $e600"
echo "host     tick 600:  state-hash: $h600"
echo "emulator tick $TICKS: state-hash: $e3600"
echo "host     tick $TICKS: state-hash: $h3600"
[ -n "$e600" ] && [ "$e600" = "$h600" ] || fail "600-tick hash: emulator $e600, host $h600"
[ -n "$e3600" ] && [ "$e3600" = "$h3600" ] || fail "$TICKS-tick hash: emulator $e3600, host $h3600"
grep -q "^frames-compared: [1-9][0-9]*, differing: 0$" "$work/run.txt" || fail "frame check"
grep -q "^board: level: full " "$work/run.txt" || fail "the board did not report the full level"

# 4. Negative controls, on 600 ticks: right stick X one count lower at tick 400 (the view is
#    turning then), and one display bit flipped in one captured frame.
awk 'BEGIN { n = 0 } /^[ \t]*(#|$)/ { print; next } { if (n == 400) { $3 = $3 - 1 } print; n++ }' \
    "$work/sticks.txt" >"$work/changed.txt"
cmp -s "$work/sticks.txt" "$work/changed.txt" && fail "the changed input is the same"
c600="$(host_hash "$work/changed.txt" --ticks 600 --frames "$work/changed-frames.bin")"
[ "$c600" != "$h600" ] || fail "the host's hash ignores the changed ADC count"
if emu "$work/changed.txt" --ticks 600 --host-frames "$work/changed-frames.bin" --flip-byte 300 >"$work/neg.txt"; then
    cat "$work/neg.txt"
    fail "a flipped display bit was not detected"
fi
grep -q "^frames-compared: [0-9]*, differing: 1$" "$work/neg.txt" || { cat "$work/neg.txt"; fail "the flipped bit should make exactly one frame differ"; }
n600="$(sed -n 's/^emulator tick 600: state-hash: //p' "$work/neg.txt")"
[ "$n600" = "$c600" ] || fail "changed input: emulator $n600, host $c600"
echo "negative control: one ADC count changed → emulator and host both $n600 (was $h600)"
echo "negative control: one display bit flipped → $(grep '^frames-compared' "$work/neg.txt")"

# 5. The picture in the docs: the frame the emulated board sent at tick 3,000 (first drawn at or
#    after it), compared by its pixels (PNG bytes may differ between zlib versions).
png="$(sed -n 's/^png: //p' "$work/run.txt" | head -1)"
[ -f "$png" ] || fail "no picture written"
if [ "$mode" = update ]; then
    cp "$png" docs/rp2040-oled.png
    echo "updated docs/rp2040-oled.png"
else
    scripts/png-same.py "$png" docs/rp2040-oled.png ||
        fail "docs/rp2040-oled.png is stale: run scripts/ci-rp2040.sh --update-docs"
    echo "docs/rp2040-oled.png shows what this run drew"
fi
# 6. The level of solids, FIRE held at power-on: the board's hash after its scripted run is the
#    host's (`hopkit-sim hash --gamepad FILE --level solid`, what the report line names), and not
#    the full level's of the same input.
hs="$("$sim" hash --gamepad "$work/solid.gamepad" --level solid | sed -n 's/^state-hash: //p')"
hf="$("$sim" hash --gamepad "$work/solid.gamepad" --level full | sed -n 's/^state-hash: //p')"
[ -n "$hs" ] && [ "$hs" != "$hf" ] || fail "the solid level's host hash $hs is the full level's $hf"
solid_emu --json "$work/solid.json" >"$work/solid.txt" || { cat "$work/solid.txt"; fail "emulator run, level of solids"; }
if [ -n "${HOPKIT_BUDGET_MEASURED:-}" ]; then
    write_measure "$work/solid.json" "$HOPKIT_BUDGET_MEASURED" solid
fi
grep -q "^board: level: solid (host: hopkit-sim hash --gamepad FILE --level solid)$" "$work/solid.txt" ||
    { cat "$work/solid.txt"; fail "the board did not report the level of solids"; }
es="$(sed -n "s/^emulator tick $SOLID_TICKS: state-hash: //p" "$work/solid.txt")"
grep -E "^(cycles-frame-work|worst-frame|asleep)" "$work/solid.txt" | sed 's/^/level of solids: /'
echo "level of solids, emulator tick $SOLID_TICKS: state-hash: $es"
echo "level of solids, host (hash --gamepad --level solid): state-hash: $hs (full level: $hf)"
[ -n "$es" ] && [ "$es" = "$hs" ] || fail "level of solids: emulator $es, host $hs"
echo "ci-rp2040: ok"
