#!/usr/bin/env bash
# The libretro core (carts/libretro, hopkit_libretro.so) in a real frontend and in one of our own
# (called by .ci/run; runnable by hand from anywhere, as root to install packages).
#
#  1. Packages: retroarch (Debian's RetroArch 1.14), retroarch-dev (libretro.h), dbus (Debian's
#     RetroArch aborts inside D-Bus without a session bus: it runs under dbus-run-session).
#     The cost is the download: on Debian 12 retroarch brings 37 packages, about 200 MB, mostly
#     its menu assets (107 MB) and their fonts (69 MB), hard dependencies both; recommends (only
#     gamemode) are skipped.
#  2. The project's frontend (carts/libretro/frontend/frontend.c, compiled against the real
#     libretro.h) loads the core with dlopen and feeds it input files; each final state-hash must
#     equal hopkit-sim's for the same file:
#       - the scripted demo as analog sticks (a `hopkit-sim sticks` file) = `hash --sticks FILE`,
#         with every frame's picture = `hash --sticks FILE --frames OUT` (cmp), savestates taken at
#         several frames restored and replayed to the same bytes, corrupt / wrong-version /
#         non-hopkit / short savestates refused, time per retro_run;
#       - random stick counts (0 and 4095 included) and all buttons = `hash --sticks FILE`;
#       - random d-pad + buttons = `hash --gamepad FILE`; the same with a .ghost recording as
#         content = `hash --gamepad FILE --ghost GHOST`; junk content refused.
#  3. RetroArch itself, headless (null video/audio/input/menu drivers, --max-frames):
#       - no content, no input, with run-ahead (3 frames) and rewind on: every state-hash line the
#         core logs equals `hash --gamepad` of as many zero bytes; the final line is for exactly
#         --max-frames ticks although RetroArch ran, saved and restored extra frames;
#       - the scripted demo's analog sticks played as a BSV movie (`-P`, made by
#         frontend/sticks2bsv.py from a start movie RetroArch recorded with `-R`): = `hash --sticks`;
#       - a .ghost recording loaded as content: = `hash --gamepad ZEROS --ghost GHOST`;
#       - with the GL driver on Xvfb, RetroArch's own screenshot after 600 frames (--max-frames-ss),
#         reduced to 1 bit by frontend/shot2frame.py = hopkit-sim's frame 600 (`hash --sticks
#         --frames` on centred sticks).
#
# Environment: CARGO_TARGET_DIR, CC (default gcc).
set -euo pipefail
cd "$(dirname "$0")/.."
REPO="$PWD"
TARGET_DIR="${CARGO_TARGET_DIR:-$REPO/target}"
CC="${CC:-gcc}"
export CARGO_TERM_COLOR="${CARGO_TERM_COLOR:-never}"
start=$(date +%s)
step() { printf '\n-- libretro: %s (%ss) --\n' "$*" "$(($(date +%s) - start))"; }
fail() { echo "ci-libretro: FAIL: $*" >&2; exit 1; }

step "system packages (retroarch, retroarch-dev, dbus)"
need=()
command -v retroarch >/dev/null || need+=(retroarch)
header=""
for h in /usr/include/libretro-common/libretro.h /usr/include/libretro.h; do
    [ -f "$h" ] && header="$h" && break
done
[ -n "$header" ] || need+=(retroarch-dev)
command -v dbus-run-session >/dev/null || need+=(dbus)
# The screenshot run: RetroArch's GL driver on Xvfb with Mesa's software renderer.
command -v xvfb-run >/dev/null || need+=(xvfb)
dpkg -s libgl1-mesa-dri >/dev/null 2>&1 || need+=(libgl1-mesa-dri)
if [ ${#need[@]} -gt 0 ]; then
    [ "$(id -u)" = 0 ] || fail "missing packages (need root to install): ${need[*]}"
    apt-get update -qq
    DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${need[@]}" >/dev/null ||
        for p in "${need[@]}"; do DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "$p" >/dev/null; done
fi
for h in /usr/include/libretro-common/libretro.h /usr/include/libretro.h; do
    [ -f "$h" ] && header="$h" && break
done
[ -n "$header" ] || fail "no libretro.h after installing retroarch-dev"
retroarch --version 2>&1 | head -1 || true
echo "packages ready after $(($(date +%s) - start)) s"

step "build: the core and hopkit-sim (release), the frontend ($CC against $header)"
# Separate builds, as the main job makes hopkit-sim: built together, the two would unify
# features differently and rebuild hopkit-sim.
cargo build -q --release -p hopkit-libretro
cargo build -q --release -p hopkit-sim
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
core="$work/cores/hopkit_libretro.so"
mkdir -p "$work/cores" "$work/home"
# RetroArch's name for the core, next to its info file (what an install looks like).
cp "$TARGET_DIR/release/libhopkit_libretro.so" "$core"
cp carts/libretro/hopkit_libretro.info "$work/cores/"
"$CC" -std=c11 -Wall -Wextra -Werror -pedantic -O2 -I"$(dirname "$header")" \
    carts/libretro/frontend/frontend.c -o "$work/frontend" -ldl
sim="$TARGET_DIR/release/hopkit-sim"
ls -l "$core" | awk '{ print "core: " $5 " bytes" }'
# Exported: the libretro API and nothing else.
exports="$(nm -D --defined-only "$core" | awk '$2 == "T" { print $3 }' | sort)"
[ "$(printf '%s\n' "$exports" | grep -vc '^retro_')" = 0 ] || fail "non-libretro symbols exported: $(printf '%s\n' "$exports" | grep -v '^retro_' | head -5)"
echo "exports: $(printf '%s\n' "$exports" | wc -l) retro_* functions"

# One hopkit-sim line vs the frontend's last line.
same() { # what, ours, host
    echo "$1: core $2"
    echo "$1: host $3"
    [ -n "$2" ] && [ "$2" = "$3" ] || fail "$1: the core's hash differs from hopkit-sim's"
}
last_hash() { grep '^state-hash: 0x' | tail -1; }

step "own frontend: the scripted demo as analog sticks (3600 frames), pictures, savestates"
"$sim" sticks --out "$work/demo-sticks.txt" --ticks 3600 >/dev/null
out="$("$work/frontend" "$core" sticks "$work/demo-sticks.txt" \
    --savestates 1,299,900,1799,3599 --frames "$work/core-frames.bin")" ||
    { printf '%s\n' "$out"; fail "frontend (sticks) failed"; }
printf '%s\n' "$out" | grep -v '^core: state-hash'
host="$("$sim" hash --sticks "$work/demo-sticks.txt" --frames "$work/host-frames.bin" -q)"
same "scripted sticks, 3600 ticks" "$(printf '%s\n' "$out" | last_hash)" "$host"
cmp "$work/core-frames.bin" "$work/host-frames.bin" ||
    fail "the core's pictures differ from hopkit-sim's firmware renderer"
echo "pictures: all 3600 frames equal to hopkit-sim hash --sticks --frames"

step "own frontend: random sticks and buttons; d-pad; a .ghost as content; junk content"
python3 - "$work" <<'EOF'
import random, sys
work = sys.argv[1]
r = random.Random(35)
with open(f"{work}/random-sticks.txt", "w") as f:
    f.write("# random stick counts and buttons, held for 1-40 ticks\n")
    n = 0
    while n < 2400:
        pick = lambda: r.choice([0, 4095, 2048, 2047, r.randint(0, 4095), r.randint(0, 4095)])
        line = f"{pick()} {pick()} {pick()} {pick()} {r.randint(0, 15)}\n"
        k = r.randint(1, 40)
        f.write(line * k)
        n += k
pad = bytearray()
while len(pad) < 2400:
    dirs = r.choice([0, 16, 32, 64, 128, 64 | 16, 64 | 32, 128 | 16, 128 | 32])
    pad += bytes([dirs | r.choice([0, 1, 2, 3])]) * r.randint(1, 90)
open(f"{work}/random.pad", "wb").write(pad[:2400])
EOF
out="$("$work/frontend" "$core" sticks "$work/random-sticks.txt" --savestates 1000)" ||
    { printf '%s\n' "$out"; fail "frontend (random sticks) failed"; }
same "random sticks" "$(printf '%s\n' "$out" | last_hash)" \
    "$("$sim" hash --sticks "$work/random-sticks.txt" -q)"
out="$("$work/frontend" "$core" gamepad "$work/random.pad")" ||
    { printf '%s\n' "$out"; fail "frontend (d-pad) failed"; }
same "random d-pad" "$(printf '%s\n' "$out" | last_hash)" "$("$sim" hash --gamepad "$work/random.pad")"
ghost=demo/assets/corpus/aggressive.v2.ghost
out="$("$work/frontend" "$core" gamepad "$work/random.pad" --content "$ghost" --savestates 700)" ||
    { printf '%s\n' "$out"; fail "frontend (content) failed"; }
printf '%s\n' "$out" | grep -m1 -E '^core: hopkit'
same "d-pad with $ghost as content" "$(printf '%s\n' "$out" | last_hash)" \
    "$("$sim" hash --gamepad "$work/random.pad" --ghost "$ghost")"
head -c 300 /dev/urandom >"$work/junk.ghost"
if out="$("$work/frontend" "$core" gamepad "$work/random.pad" --content "$work/junk.ghost" 2>&1)"; then
    fail "junk content was accepted"
fi
printf '%s\n' "$out" | grep -q 'content refused' || { printf '%s\n' "$out"; fail "no logged reason for refused content"; }
printf '%s\n' "$out" | grep 'content refused'

# RetroArch, headless. Without a session bus Debian's build aborts inside D-Bus; without a frame
# limit it never exits.
cat >"$work/retroarch.cfg" <<EOF
video_driver = "null"
audio_driver = "null"
input_driver = "null"
joypad_driver = "null"
menu_driver = "null"
audio_enable = "false"
gamemode_enable = "false"
log_verbosity = "true"
libretro_log_level = "1"
libretro_directory = "$work/cores"
libretro_info_path = "$work/cores"
core_info_cache_enable = "false"
savestate_directory = "$work/states"
savefile_directory = "$work/saves"
EOF
cp "$work/retroarch.cfg" "$work/runahead.cfg"
cat >>"$work/runahead.cfg" <<EOF
run_ahead_enabled = "true"
run_ahead_frames = "3"
run_ahead_secondary_instance = "false"
rewind_enable = "true"
rewind_granularity = "1"
EOF
retroarch_run() { # cfg log frames [args...]
    local cfg="$1" log="$2" frames="$3"
    shift 3
    HOME="$work/home" timeout 120 dbus-run-session -- retroarch --appendconfig="$cfg" -L "$core" \
        --max-frames="$frames" -v "$@" >"$log" 2>&1 || { tail -20 "$log"; fail "retroarch exited non-zero"; }
    grep '\[libretro' "$log" | grep -v 'state-hash' || true
}
# Every state-hash line RetroArch's log holds for tick T equals hopkit-sim's for T zero bytes.
check_lines() { # what log frames [--ghost G]
    local what="$1" log="$2" frames="$3"
    shift 3
    local lines t n=0
    lines="$(grep -o 'state-hash: 0x[0-9a-f]* tick [0-9]*' "$log" || true)"
    [ -n "$lines" ] || fail "$what: no state-hash lines in RetroArch's log"
    for t in $(printf '%s\n' "$lines" | awk '{ print $4 }' | sort -un); do
        head -c "$t" /dev/zero >"$work/zeros.pad"
        host="$("$sim" hash --gamepad "$work/zeros.pad" "$@")"
        while read -r line; do
            same "$what, tick $t" "$line" "$host"
            n=$((n + 1))
        done < <(printf '%s\n' "$lines" | awk -v t="$t" '$4 == t { print $1, $2 }')
    done
    last="$(printf '%s\n' "$lines" | tail -1 | awk '{ print $4 }')"
    [ "$last" = "$frames" ] || fail "$what: the core ended at tick $last, not $frames"
    echo "$what: $n state-hash lines equal to hopkit-sim's; ended at tick $frames"
}

step "RetroArch $(retroarch --version 2>&1 | grep -o '[0-9]*\.[0-9]*\.[0-9]*' | head -1): no content, run-ahead 3 frames + rewind, 1200 frames"
retroarch_run "$work/runahead.cfg" "$work/ra-runahead.log" 1200
check_lines "RetroArch run-ahead" "$work/ra-runahead.log" 1200
restored="$(grep -o 'savestates: [0-9]* written, [0-9]* restored' "$work/ra-runahead.log" | awk '{ print $4 }')"
[ "${restored:-0}" -gt 0 ] || fail "RetroArch restored no savestate (run-ahead and rewind off?)"
grep -q 'lacks.*save state support' "$work/ra-runahead.log" && fail "RetroArch saw no savestate support"

step "RetroArch: the scripted demo's analog sticks as a BSV movie (1800 frames)"
retroarch_run "$work/retroarch.cfg" "$work/ra-record.log" 1 -R "$work/start.bsv"
# (awk, not grep | head: head closing the pipe early fails grep under pipefail)
awk '!/^#/ && n < 1800 { print; n++ }' "$work/demo-sticks.txt" >"$work/sticks-1800.txt"
python3 carts/libretro/frontend/sticks2bsv.py "$work/start.bsv" "$work/sticks-1800.txt" "$work/demo.bsv"
retroarch_run "$work/retroarch.cfg" "$work/ra-movie.log" 1800 -P "$work/demo.bsv"
grep -q 'Starting movie playback' "$work/ra-movie.log" || fail "RetroArch did not play the movie"
same "RetroArch BSV movie, scripted sticks, 1800 ticks" \
    "$(grep -o 'state-hash: 0x[0-9a-f]* tick 1800' "$work/ra-movie.log" | tail -1 | awk '{ print $1, $2 }')" \
    "$("$sim" hash --sticks "$work/sticks-1800.txt" -q)"

step "RetroArch: $ghost as content, 600 frames"
retroarch_run "$work/retroarch.cfg" "$work/ra-content.log" 600 "$REPO/$ghost"
grep -q 'ghost from content' "$work/ra-content.log" || fail "the core did not fly the content"
check_lines "RetroArch with content" "$work/ra-content.log" 600 --ghost "$ghost"

step "RetroArch: its own screenshot after 600 frames (GL driver on Xvfb)"
sed 's/^video_driver = "null"/video_driver = "gl"/' "$work/retroarch.cfg" >"$work/gl.cfg"
cat >>"$work/gl.cfg" <<EOF
video_font_enable = "false"
video_smooth = "false"
config_save_on_exit = "false"
EOF
export XDG_RUNTIME_DIR="$work/xdg"
mkdir -m 700 "$XDG_RUNTIME_DIR"
HOME="$work/home" timeout 120 xvfb-run -a -s "-screen 0 1024x768x24" dbus-run-session -- retroarch \
    --appendconfig="$work/gl.cfg" -L "$core" --max-frames=600 --max-frames-ss \
    --max-frames-ss-path="$work/retroarch-600.png" -v >"$work/ra-gl.log" 2>&1 ||
    { tail -20 "$work/ra-gl.log"; fail "retroarch (gl) exited non-zero"; }
[ -f "$work/retroarch-600.png" ] || { tail -20 "$work/ra-gl.log"; fail "RetroArch wrote no screenshot"; }
python3 carts/libretro/frontend/shot2frame.py "$work/retroarch-600.png" "$work/retroarch-600.bin"
# The same 600 ticks on the host: the sticks centred as the core reads libretro's 0 (2048, 2047).
for _ in $(seq 600); do echo "2048 2047 2048 2047 0"; done >"$work/centred.txt"
host="$("$sim" hash --sticks "$work/centred.txt" --frames "$work/centred-frames.bin" -q)"
same "RetroArch (gl), no input, 600 ticks" \
    "$(grep -o 'state-hash: 0x[0-9a-f]* tick 600' "$work/ra-gl.log" | tail -1 | awk '{ print $1, $2 }')" "$host"
tail -c 1024 "$work/centred-frames.bin" >"$work/host-600.bin"
cmp "$work/retroarch-600.bin" "$work/host-600.bin" ||
    fail "RetroArch's screenshot differs from hopkit-sim's frame 600"
echo "RetroArch's screenshot of frame 600 = hopkit-sim hash --sticks --frames, frame 600"

step "done"
