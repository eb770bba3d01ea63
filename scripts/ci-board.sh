#!/usr/bin/env bash
# The Black Pill image the way a user builds and flashes it (called by .ci/run; runnable by hand).
#
#  1. The documented command, `cd firmware && cargo build --release --features board --bin
#     blackpill` (firmware/.cargo/config.toml: target, size profile, flip-link, probe-rs runner),
#     through scripts/cross-cargo.sh so a machine without rustup targets works too. flip-link is
#     installed from crates.io when missing and the image must show its layout (an image built
#     earlier without it relinks: firmware/build.rs tracks the choice).
#  2. The flash budget of exactly that image (≤ 64 KiB) — scripts/budgets.sh measures the same
#     build; here it is checked directly too.
#  3. `cargo run` without probe-rs prints the one-line hint (exit 127), not cargo's bare error.
#  4. The probe-less path: scripts/flash-dfu.sh --bin-only writes the .bin dfu-util would flash;
#     its size is the image's flash size and it starts with the ELF's vector table.
#  5. The image on the level of solids (`cargo board-solids`: `--features board,solids`; it does not
#     fit the default image's 64 KiB, docs/firmware.md "The level of solids") builds; its own flash
#     row (≤ 128 KiB) is scripts/budgets.sh's. Built last: both images are the same path.
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
fail() { echo "ci-board: FAIL: $*" >&2; exit 1; }

elf="${HOPKIT_CROSS_TARGET_DIR:-${CARGO_TARGET_DIR:-$REPO/target}/cross}/thumbv7em-none-eabihf/release/blackpill"
if ! command -v flip-link >/dev/null 2>&1; then
    # .ci/run installs it first; by hand, do it here. An image linked before flip-link existed
    # relinks by itself: firmware/build.rs puts the linker choice in cargo's fingerprint.
    timeout 600 cargo install -q flip-link --locked || echo "ci-board: flip-link could not be installed; the image links with rust-lld"
fi
(cd firmware && ../scripts/cross-cargo.sh build -q --release --features board --bin blackpill --target thumbv7em-none-eabihf)
[ -f "$elf" ] || fail "no $elf"

read -r flash ram vt_sp vt_reset stack_start sdata < <(python3 - "$elf" <<'PY'
import struct, sys
d = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<I", d, 0x20)
shentsize, shnum, shstrndx = struct.unpack_from("<HHH", d, 0x2E)
secs = [struct.unpack_from("<IIIIIIIIII", d, shoff + i * shentsize) for i in range(shnum)]
stroff = secs[shstrndx][4]
def name(s): return d[stroff + s[0]:d.index(b"\0", stroff + s[0])].decode()
text = dat = bss = 0
vt = syms = strs = None
for s in secs:
    _, t, flags, addr, off, size = s[:6]
    if name(s) == ".vector_table": vt = struct.unpack_from("<II", d, off)
    if t == 2: syms, strs = s, secs[s[6]]
    if not flags & 2: continue
    if t == 8: bss += size
    elif flags & 1: dat += size
    else: text += size
want = {"_stack_start": 0, "__sdata": 0}
for i in range(syms[5] // 16):
    st_name, st_value = struct.unpack_from("<II", d, syms[4] + 16 * i)
    n = d[strs[4] + st_name:d.index(b"\0", strs[4] + st_name)].decode()
    if n in want: want[n] = st_value
print(text + dat, dat + bss, vt[0], vt[1], want["_stack_start"], want["__sdata"])
PY
)
echo "board image (cd firmware && cargo build --release --features board --bin blackpill): flash $flash B, static RAM $ram B"
[ "$flash" -le 65536 ] || fail "flash $flash B > 64 KiB"
if command -v flip-link >/dev/null 2>&1; then
    [ "$stack_start" = "$sdata" ] || fail "flip-link is installed but the image has the default layout"
    printf 'flip-link: stack below the statics (_stack_start = __sdata = %#x)\n' "$sdata"
fi

hint="$(cd firmware && PATH="$(dirname "$(command -v cargo)"):/usr/bin:/bin" \
    ../scripts/probe-run.sh "$elf" 2>&1 >/dev/null)" && fail "probe-run.sh succeeded without probe-rs?" || rc=$?
if command -v probe-rs >/dev/null 2>&1; then
    echo "probe-rs installed here: the missing-probe-rs hint is not exercised"
else
    [ "${rc:-0}" = 127 ] || fail "probe-run.sh without probe-rs exited ${rc:-0}, not 127"
    [ "$(printf '%s\n' "$hint" | wc -l)" = 1 ] || fail "the probe-rs hint is not one line: $hint"
    echo "without probe-rs, cargo run says: $hint"
fi

scripts/flash-dfu.sh --bin-only "$elf"
bin="$elf.bin"
[ "$(stat -c %s "$bin")" = "$flash" ] || fail ".bin is $(stat -c %s "$bin") B, the image's flash is $flash B"
read -r b_sp b_reset < <(python3 -c "import struct,sys; print(*struct.unpack_from('<II', open(sys.argv[1],'rb').read()))" "$bin")
[ "$b_sp" = "$vt_sp" ] && [ "$b_reset" = "$vt_reset" ] || fail ".bin does not start with the vector table"
printf 'DFU .bin: %s B, initial SP %#x, reset vector %#x (as in the ELF)\n' "$flash" "$b_sp" "$b_reset"
(cd firmware && ../scripts/cross-cargo.sh build -q --release --features board,solids --bin blackpill \
    --target thumbv7em-none-eabihf) || fail "the Black Pill image on the level of solids does not build"
echo "the Black Pill image on the level of solids (cd firmware && cargo board-solids) builds: $(python3 - "$elf" <<'PY'
import struct, sys
data = open(sys.argv[1], "rb").read()
shoff, = struct.unpack_from("<I", data, 0x20)
shentsize, shnum = struct.unpack_from("<HH", data, 0x2E)
flash = 0
for i in range(shnum):
    _, sh_type, flags, _, _, size = struct.unpack_from("<IIIIII", data, shoff + i * shentsize)
    if flags & 0x2 and sh_type != 8:
        flash += size
print(f"flash {flash} B")
PY
)"
echo "ci-board: ok"
