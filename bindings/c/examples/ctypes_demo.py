#!/usr/bin/env python3
"""Load hopkit's shared library with Python's ctypes (standard library only), step the demo rig
through the C ABI and print its state hash: the line `hopkit-sim hash --scene demo --ticks N`
prints.

    cargo build -p hopkit-ffi --release
    python3 bindings/c/examples/ctypes_demo.py target/release/libhopkit_ffi.so 600
"""
import ctypes
import sys

HK_OK = 0
HK_DEMO_RIG_SIZE = 3072  # hopkit.h: HK_DEMO_RIG_SIZE, aligned to HK_OPAQUE_ALIGN (8)
HK_HASH_LINE_SIZE = 31


class HkRawSticks(ctypes.Structure):
    """hopkit.h's HkRawSticks."""

    _fields_ = [
        ("left_x", ctypes.c_uint16),
        ("left_y", ctypes.c_uint16),
        ("right_x", ctypes.c_uint16),
        ("right_y", ctypes.c_uint16),
        ("adc_max", ctypes.c_uint16),
        ("buttons", ctypes.c_uint8),
    ]


class HkDemoRig(ctypes.Structure):
    """Opaque, caller-owned storage (8-byte aligned: an array of uint64)."""

    _fields_ = [("_opaque", ctypes.c_uint64 * (HK_DEMO_RIG_SIZE // 8))]


def load(path):
    lib = ctypes.CDLL(path)
    sigs = {
        "hk_demo_init": [ctypes.POINTER(HkDemoRig)],
        "hk_demo_scripted_raw": [ctypes.c_uint32, ctypes.POINTER(HkRawSticks)],
        "hk_demo_tick": [ctypes.POINTER(HkDemoRig), ctypes.POINTER(HkRawSticks)],
        "hk_demo_state_hash": [ctypes.POINTER(HkDemoRig), ctypes.POINTER(ctypes.c_uint64)],
        "hk_format_hash_line": [ctypes.c_uint64, ctypes.c_char_p, ctypes.c_size_t],
        "hk_demo_scripted_hash": [ctypes.c_uint32, ctypes.POINTER(ctypes.c_uint64)],
    }
    for name, args in sigs.items():
        f = getattr(lib, name)
        f.argtypes = args
        f.restype = ctypes.c_int
    return lib


def check(status, what):
    if status != HK_OK:
        sys.exit(f"{what} returned status {status}")


def main():
    path = sys.argv[1] if len(sys.argv) > 1 else "libhopkit_ffi.so"
    ticks = int(sys.argv[2]) if len(sys.argv) > 2 else 600
    lib = load(path)
    rig = HkDemoRig()
    check(lib.hk_demo_init(ctypes.byref(rig)), "hk_demo_init")
    raw = HkRawSticks()
    for t in range(ticks):
        check(lib.hk_demo_scripted_raw(t, ctypes.byref(raw)), "hk_demo_scripted_raw")
        check(lib.hk_demo_tick(ctypes.byref(rig), ctypes.byref(raw)), "hk_demo_tick")
    h = ctypes.c_uint64()
    check(lib.hk_demo_state_hash(ctypes.byref(rig), ctypes.byref(h)), "hk_demo_state_hash")
    # The library's own one-call version must agree with the rig stepped from Python.
    h2 = ctypes.c_uint64()
    check(lib.hk_demo_scripted_hash(ticks, ctypes.byref(h2)), "hk_demo_scripted_hash")
    if h.value != h2.value:
        sys.exit(f"stepped rig {h.value:#018x} != hk_demo_scripted_hash {h2.value:#018x}")
    line = ctypes.create_string_buffer(HK_HASH_LINE_SIZE)
    check(lib.hk_format_hash_line(h.value, line, len(line)), "hk_format_hash_line")
    print(line.value.decode())


if __name__ == "__main__":
    main()
