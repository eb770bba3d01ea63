#!/usr/bin/env python3
"""Exit 0 if two PNG files hold the same picture: the same header (size, depth, colour type) and
the same decompressed pixel rows. The compressed bytes may differ between zlib versions, so the
screenshot checks (scripts/ci-rp2040.sh, scripts/window-screenshot.sh --check) compare pixels.

    scripts/png-same.py A.png B.png
"""
import struct
import sys
import zlib


def pixels(path):
    data = open(path, "rb").read()
    if data[:8] != b"\x89PNG\r\n\x1a\n":
        sys.exit(f"png-same: {path}: not a PNG file")
    pos, header, idat = 8, None, b""
    while pos + 8 <= len(data):
        (length,) = struct.unpack_from(">I", data, pos)
        kind, body = data[pos + 4 : pos + 8], data[pos + 8 : pos + 8 + length]
        if kind == b"IHDR":
            header = body
        elif kind == b"IDAT":
            idat += body
        pos += 12 + length
    return header, zlib.decompress(idat)


if len(sys.argv) != 3:
    sys.exit("usage: png-same.py A.png B.png")
a, b = pixels(sys.argv[1]), pixels(sys.argv[2])
if a != b:
    print(f"png-same: {sys.argv[1]} and {sys.argv[2]} differ", file=sys.stderr)
    sys.exit(1)
