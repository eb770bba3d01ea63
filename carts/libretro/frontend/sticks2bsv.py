#!/usr/bin/env python3
"""Turn a hopkit-sim sticks file into a RetroArch BSV movie for hopkit_libretro.so.

usage: sticks2bsv.py START.bsv STICKS.txt OUT.bsv

RetroArch 1.14's BSV movie (`retroarch -P OUT.bsv`) is a 16-byte header (magic "BSV1", content
CRC, a reserved word, the savestate's size; little-endian u32s), the savestate the run starts
from, then one little-endian int16 per `input_state` call the core makes, in call order. The
header and start state are taken from START.bsv, a movie RetroArch recorded itself (`-R`) from the
core's start. hopkit_libretro asks for 12 values per frame, in this order (`Frontend::read_pad`
in carts/libretro/src/lib.rs, `JOYPAD_IDS` in input.rs): left stick x, y, right stick x, y
(RETRO_DEVICE_ANALOG), then the joypad's B, A, up, down, left, right, L3, R3. Counts become axis values as in
frontend/frontend.c: round(c * 65535 / 4095) - 32768, y of 4095 - c (libretro's y points down);
buttons JUMP 1 -> B, FIRE 2 -> A, LEFT_STICK 4 -> L3, RIGHT_STICK 8 -> R3.
"""
import struct
import sys


def axis(c):
    return (c * 65535 + 2047) // 4095 - 32768


def main():
    if len(sys.argv) != 4:
        sys.exit("usage: sticks2bsv.py START.bsv STICKS.txt OUT.bsv")
    start = open(sys.argv[1], "rb").read()
    magic, _crc, _reserved, size = struct.unpack_from("<4sIII", start)
    if magic != b"BSV1" or len(start) < 16 + size:
        sys.exit(f"{sys.argv[1]}: not a BSV1 movie with its start state")
    out = bytearray(start[: 16 + size])
    frames = 0
    for n, line in enumerate(open(sys.argv[2]), 1):
        line = line.strip()
        if not line or line.startswith("#"):
            continue
        lx, ly, rx, ry, buttons = (int(v) for v in line.split())
        if not all(0 <= c <= 4095 for c in (lx, ly, rx, ry)) or not 0 <= buttons <= 15:
            sys.exit(f"{sys.argv[2]} line {n}: value out of range")
        values = [axis(lx), axis(4095 - ly), axis(rx), axis(4095 - ry)]
        values += [buttons & 1, (buttons >> 1) & 1, 0, 0, 0, 0, (buttons >> 2) & 1, (buttons >> 3) & 1]
        out += struct.pack("<12h", *values)
        frames += 1
    open(sys.argv[3], "wb").write(out)
    print(f"sticks2bsv: {frames} frames, {len(out)} bytes")


main()
