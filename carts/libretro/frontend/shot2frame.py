#!/usr/bin/env python3
"""Turn a RetroArch screenshot of hopkit_libretro (a PNG of the 128x64 picture scaled by a whole
number, 8-bit RGB or RGBA) back into the handheld's 1-bit frame: 1024 bytes in the SSD1306 page
layout (byte page*128 + x, bit y % 8), the layout `hopkit-sim hash --sticks FILE --frames OUT`
writes, so the two compare with cmp.

    shot2frame.py SCREENSHOT.png OUT.bin

Each pixel is read at the centre of its block; lit = brightness above half.
"""
import struct
import sys
import zlib

W, H = 128, 64


def decode(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"shot2frame: {path}: not a PNG file")
    pos, header, idat = 8, None, b""
    while pos + 8 <= len(data):
        (length,) = struct.unpack_from(">I", data, pos)
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    width, height, depth, colour, _, _, interlace = struct.unpack(">IIBBBBB", header)
    if depth != 8 or colour not in (2, 6) or interlace:
        sys.exit(f"shot2frame: {path}: expected 8-bit RGB or RGBA, not interlaced")
    bpp = 3 if colour == 2 else 4
    raw, stride = zlib.decompress(idat), width * bpp
    rows, prev, at = [], bytearray(stride), 0
    for _ in range(height):
        kind, line = raw[at], bytearray(raw[at + 1 : at + 1 + stride])
        at += 1 + stride
        for i in range(stride):
            a = line[i - bpp] if i >= bpp else 0
            b = prev[i]
            c = prev[i - bpp] if i >= bpp else 0
            if kind == 1:
                line[i] = (line[i] + a) & 255
            elif kind == 2:
                line[i] = (line[i] + b) & 255
            elif kind == 3:
                line[i] = (line[i] + (a + b) // 2) & 255
            elif kind == 4:
                p = a + b - c
                pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                line[i] = (line[i] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
        rows.append(line)
        prev = line
    return width, height, bpp, rows


def main():
    if len(sys.argv) != 3:
        sys.exit("usage: shot2frame.py SCREENSHOT.png OUT.bin")
    width, height, bpp, rows = decode(sys.argv[1])
    if width % W or height % H or width // W != height // H:
        sys.exit(f"shot2frame: {width}x{height} is not 128x64 scaled by a whole number")
    k = width // W
    frame = bytearray(W * H // 8)
    for y in range(H):
        row = rows[y * k + k // 2]
        for x in range(W):
            px = (x * k + k // 2) * bpp
            if sum(row[px : px + 3]) > 3 * 127:
                frame[(y // 8) * W + x] |= 1 << (y % 8)
    open(sys.argv[2], "wb").write(frame)
    print(f"shot2frame: {width}x{height} (x{k}) -> {sum(bin(b).count('1') for b in frame)} lit pixels")


main()
