#!/usr/bin/env python3
"""Drive the WASM-4 cart in WASM-4's native runtime over the tour of its level, closed-loop.

    scripts/wasm4-native-tour.py WINDOW TRACE LEVEL_TOUR OUT.bin OUT-hash.txt

Real-time key events (xdotool) do not land on exact frames, so a fixed key script drifts: a
turn held two frames too long points the next 70 m walk 4 degrees off. This driver steers by
what the cart itself read: after every key is released, the cart's trace (`pad 0xNN xCOUNT`,
one line per run, in TRACE) gives the exact bytes so far; LEVEL_TOUR (the `level_tour` example
of carts/wasm4, the cart's game on the host) replays them with `--state` and prints where the
player is; the next key is held for as long as that state needs (turns are corrected until the
heading is within 3 degrees). The legs are the browser test's tour (carts/wasm4/web/
browser-test.mjs, TOUR): along -Z, up the 20 degree ramp and off its drop into the east wall,
back west, up the 30 degree ramp and off its drop, then strafe-jumps until the next
`state-hash` line (every 600 ticks). The bytes up to that line go to OUT.bin and the line to
OUT-hash.txt; the caller compares the hash with `hopkit-sim hash --gamepad OUT.bin` and checks
the tour with `level_tour OUT.bin`.
"""
import re
import subprocess
import sys
import time

win, trace_path, level_tour, out_bin, out_hash = sys.argv[1:6]
UP, DOWN, LEFT, RIGHT, X, Z = "Up", "Down", "Left", "Right", "x", "z"
TURN_DEG_PER_FRAME = 2.2  # LEFT/RIGHT turn the view ~2.2 degrees a tick (measured on the host)
WALK = 10.0  # u/s on the ground
DEADLINE = time.monotonic() + 150


def read_trace():
    """(bytes so far, hash lines [(tick, line)]) from the cart's trace."""
    data, hashes = bytearray(), []
    with open(trace_path, errors="replace") as f:
        for line in f:
            line = line.strip()
            m = re.fullmatch(r"pad 0x([0-9a-f]{2}) x(\d+)", line)
            if m:
                data += bytes([int(m.group(1), 16)]) * int(m.group(2))
            m = re.fullmatch(r"(state-hash: 0x[0-9a-f]{16}) tick (\d+)", line)
            if m:
                hashes.append((int(m.group(2)), m.group(1), len(data)))
    return bytes(data), hashes


def xdo(*args):
    subprocess.run(["xdotool", *args], check=True)


def hold(keys, seconds):
    """Hold `keys` for `seconds`, release, and wait until the trace has the run (the byte after
    the release differs, so the run's line follows on the next frame)."""
    before = len(read_trace()[0])
    for k in keys:
        xdo("keydown", "--window", win, k)
    time.sleep(max(seconds, 0.02))
    for k in keys:
        xdo("keyup", "--window", win, k)
    while len(read_trace()[0]) == before:
        if time.monotonic() > DEADLINE:
            sys.exit("wasm4-native-tour: FAIL: the cart's trace stopped")
        time.sleep(0.02)
    time.sleep(0.4)  # let the player come to rest


def state():
    """The player once at rest after the bytes so far: x, y, z, yaw_deg, tour counters."""
    data = read_trace()[0] + bytes(60)
    open(out_bin, "wb").write(data)
    out = subprocess.run([level_tour, out_bin, "--state"], capture_output=True, text=True, check=True)
    f = out.stdout.split()
    assert f[0] == "state", out.stdout
    return [float(v) for v in f[1:]]


def wrap(deg):
    return (deg + 180.0) % 360.0 - 180.0


def turn_to(yaw):
    for _ in range(8):
        err = wrap(yaw - state()[3])
        if abs(err) <= 3.0:
            return
        # Positive yaw turns left (LEFT).
        frames = abs(err) / TURN_DEG_PER_FRAME
        hold([LEFT if err > 0 else RIGHT], frames / 60.0)
    sys.exit(f"wasm4-native-tour: FAIL: could not turn to {yaw} degrees (at {state()[3]:.1f})")


def walk(axis, target, keys=(UP,), extra=0.0):
    """Walk forward until coordinate `axis` (0 = x, 2 = z) is within 1 m of `target` or past it;
    `extra` seconds more on the first hold (into a wall)."""
    sign = 1.0 if target > state()[axis] else -1.0
    for _ in range(6):
        left = (target - state()[axis]) * sign
        if left <= 1.0:
            return
        hold(list(keys), left / WALK + extra)
        extra = 0.0
    sys.exit(f"wasm4-native-tour: FAIL: could not walk to {target} (at {state()[axis]:.1f})")


def log(leg):
    x, y, z, yaw = state()[:4]
    print(f"native tour: {leg:<28} at ({x:6.1f}, {y:4.1f}, {z:6.1f}) yaw {yaw:6.1f}, "
          f"{len(read_trace()[0])} ticks", flush=True)


# Wait for the first frames (keys before them are lost), then the legs.
time.sleep(1.0)
# The turns from rest strafe the player about 4.5 m (RIGHT and LEFT move it sideways as they
# turn), so each walk stops that much short of the line the next leg should run on.
walk(2, -28.0)                  # along -Z to z = -28 (the turn ends near z = -24)
log("to z = -28")
turn_to(-90.0)                  # facing +X
log("facing +X")
walk(0, 48.0, extra=0.5)        # up the 20 degree ramp, off its drop, into the east wall
log("over the 20 deg ramp, wall")
turn_to(180.0)                  # facing +Z
walk(2, -7.0)
log("to z = -7")
turn_to(90.0)                   # facing -X
walk(0, -27.0)                  # to x = -27 (the turn ends near x = -22.5)
log("to x = -27")
turn_to(180.0)                  # facing +Z
log("facing +Z")
walk(2, 34.0, keys=(UP, Z))     # up the 30 degree ramp and off its drop, firing
log("over the 30 deg ramp")
# Strafe-jumps until the next hash line.
n = len(read_trace()[0])
for k in (RIGHT, X):
    xdo("keydown", "--window", win, k)
while True:
    data, hashes = read_trace()
    done = [h for h in hashes if h[0] > n]
    if done or time.monotonic() > DEADLINE:
        break
    time.sleep(0.05)
for k in (RIGHT, X):
    xdo("keyup", "--window", win, k)
if not done:
    sys.exit("wasm4-native-tour: FAIL: no state-hash line after the tour")
tick, line, at = done[0]
if at != tick:
    sys.exit(f"wasm4-native-tour: FAIL: {at} traced ticks before the tick-{tick} hash line")
open(out_bin, "wb").write(data[:tick])
open(out_hash, "w").write(line + "\n")
print(f"native: the tour in {tick} ticks ({len(set(data[:tick]))} distinct gamepad bytes), {line}")
