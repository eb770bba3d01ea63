//! Bit-exact IEEE 754 binary32 add, subtract, multiply and compare in 32-bit integer steps, for the
//! Cortex-M0 (ARMv6-M has no FPU, no CLZ and only a 32 × 32 → 32 multiply).
//!
//! Rust's `compiler_builtins` soft-float helpers are generic over the float type and cost ≈ 100
//! instructions per add and ≈ 64 per multiply on the M0 (plus `__clzsi2` calls). The functions here
//! compute exactly the same bits (round to nearest, ties to even; subnormals kept, no flush to zero;
//! signed zeros; infinities; NaN results follow `compiler_builtins`' rule, see below) with a short
//! fast path for the common case — both operands normal and the result normal — and an exact
//! general path for everything else (zeros, subnormals, infinities, NaNs, overflow, underflow).
//!
//! They are plain functions on the bit patterns (`u32`), built and tested on every host: the tests
//! (`firmware/tests/integration/softfloat.rs`) compare them with the host's hardware float unit and with the
//! host's own `compiler_builtins` functions (`__addsf3`, `__subsf3`, `__mulsf3`), which are the same
//! code the M0 would otherwise run. On ARMv6-M the `aeabi` module exports them under the AEABI
//! names the compiler calls (`__aeabi_fadd`, `__aeabi_fmul`, `__aeabi_fcmplt`, …), replacing the
//! `compiler_builtins` versions in the firmware images.
//!
//! NaN rule (`compiler_builtins` of this toolchain): a NaN result from a NaN operand is that operand
//! (`a` if `a` is a NaN, else `b`) with the quiet bit set — addition clears its sign, multiplication
//! keeps it; invalid operations (`inf - inf`, `0 × inf`) give `0x7fc0_0000`. Subtraction is
//! addition of `b` with its sign flipped (so NaN signs are dropped there too).

// ARMv6-M only (the core's test for it). `#[unsafe(no_mangle)]` on the AEABI exports is the only
// unsafe in this crate.
#[cfg(all(target_arch = "arm", not(target_has_atomic = "32")))]
#[allow(unsafe_code)]
mod aeabi;

const SIGN: u32 = 0x8000_0000;
const ABS: u32 = 0x7fff_ffff;
const INF: u32 = 0x7f80_0000;
const QUIET: u32 = 0x0040_0000;
const QNAN: u32 = 0x7fc0_0000;
const FRAC: u32 = 0x007f_ffff;
const HIDDEN: u32 = 0x0080_0000;

/// Rounds a significand `m` with its leading bit at bit 30 (7 bits below the last kept bit, the
/// lowest of them sticky) to nearest, ties to even, and packs it with `sign` and the biased
/// exponent `e` (`1..=254`; the leading bit adds the last 1; a carry out of the significand or out
/// of exponent 254 gives the next binade or infinity, both correct). With `e == 1` and the leading
/// bit below 30 it packs a subnormal.
#[inline(always)]
fn round_pack_30(sign: u32, e: u32, m: u32) -> u32 {
    let r = m.wrapping_add(0x3f + ((m >> 7) & 1)) >> 7;
    sign | (e.wrapping_sub(1) << 23).wrapping_add(r)
}

/// `a + b` on binary32 bit patterns.
///
/// Shaped for the Cortex-M0 (Thumb-1: few registers, no CLZ): exponents and the magnitude order
/// come from `x << 1` (sign dropped), the result's sign and exponent ride in one word (`xe`), and
/// normalisation after cancellation is a few compare-and-shift steps.
#[inline]
pub fn add(a: u32, b: u32) -> u32 {
    // x: the operand of larger magnitude (its sign is the result's).
    let (x, y) = if (a << 1) < (b << 1) { (b, a) } else { (a, b) };
    let ex = (x << 1) >> 24;
    let ey = (y << 1) >> 24;
    if ey == 0 || ex == 255 {
        // y zero or subnormal (then so may be x), or x infinite or NaN.
        return add_special(a, b);
    }
    let d = ex.wrapping_sub(ey);
    // Significands with the leading bit at bit 30: 7 bits for guard, round and sticky.
    let mx = ((x << 8) | SIGN) >> 1;
    let my0 = ((y << 8) | SIGN) >> 1;
    let my = if d < 8 {
        // Only zero bits are shifted out.
        my0 >> d
    } else if d < 32 {
        let s = my0 >> d;
        s | ((s << d != my0) as u32)
    } else {
        1
    };
    // x's sign and exponent; the result is xe - 2^23 + the rounded significand (its leading bit
    // adds the 2^23 back), adjusted by the normalisation below.
    let mut xe = (x >> 23) << 23;
    let mut m;
    if ((x ^ y) as i32) >= 0 {
        m = mx.wrapping_add(my);
        if (m as i32) < 0 {
            // Carry: one more binade (the sticky bit stays in bit 0).
            if ex == 254 {
                return xe.wrapping_add(1 << 23); // ±inf
            }
            m = (m >> 1) | (m & 1);
            xe = xe.wrapping_add(1 << 23);
        }
    } else {
        m = mx.wrapping_sub(my);
        if m < 1 << 30 {
            if m == 0 {
                return 0;
            }
            if ex < 26 {
                // Massive cancellation may leave a subnormal: the general path.
                return add_general(a, b);
            }
            // Cancellation (exact when more than one bit goes, d ≤ 1): normalise without CLZ.
            if m < 1 << 15 {
                m <<= 16;
                xe = xe.wrapping_sub(16 << 23);
            }
            if m < 1 << 23 {
                m <<= 8;
                xe = xe.wrapping_sub(8 << 23);
            }
            if m < 1 << 27 {
                m <<= 4;
                xe = xe.wrapping_sub(4 << 23);
            }
            if m < 1 << 29 {
                m <<= 2;
                xe = xe.wrapping_sub(2 << 23);
            }
            if m < 1 << 30 {
                m <<= 1;
                xe = xe.wrapping_sub(1 << 23);
            }
        }
    }
    // Round to nearest, ties to even (a carry out of the significand is the next binade, or inf).
    xe.wrapping_sub(1 << 23)
        .wrapping_add(m.wrapping_add(0x3f + ((m >> 7) & 1)) >> 7)
}

/// `add` when an operand is zero, subnormal, infinite or a NaN: zeros here, the rest in
/// [`add_general`].
#[inline(never)]
fn add_special(a: u32, b: u32) -> u32 {
    let a2 = a << 1;
    let b2 = b << 1;
    // x + 0 = x unless x is a NaN (then the NaN rule); 0 + 0 = +0 unless both are -0.
    if b2 == 0 && a2 <= INF << 1 {
        return if a2 == 0 { a & b } else { a };
    }
    if a2 == 0 && b2 <= INF << 1 {
        return b;
    }
    add_general(a, b)
}

/// `a - b` on binary32 bit patterns (`compiler_builtins`: `a + (-b)`).
#[inline]
pub fn sub(a: u32, b: u32) -> u32 {
    add(a, b ^ SIGN)
}

/// The exact general addition: every class of operand and result.
#[cold]
#[inline(never)]
pub fn add_general(a: u32, b: u32) -> u32 {
    let aa = a & ABS;
    let ba = b & ABS;
    if aa > INF {
        return aa | QUIET;
    }
    if ba > INF {
        return ba | QUIET;
    }
    if aa == INF {
        return if b == a ^ SIGN { QNAN } else { a };
    }
    if ba == INF {
        return b;
    }
    if aa == 0 {
        return if ba == 0 { a & b } else { b };
    }
    if ba == 0 {
        return a;
    }
    let (x, y) = if aa < ba { (b, a) } else { (a, b) };
    // Subnormals: exponent 1 without the hidden bit.
    let (ex, mx) = unpack(x);
    let (ey, my) = unpack(y);
    let d = ex.wrapping_sub(ey) as u32;
    let mx = mx << 7;
    let my0 = my << 7;
    let my = if d < 32 {
        let s = my0 >> d;
        s | ((s << d != my0) as u32)
    } else {
        1
    };
    let sign = x & SIGN;
    let mut e = ex;
    let mut m;
    if ((x ^ y) as i32) >= 0 {
        m = mx.wrapping_add(my);
        if m >= 1 << 31 {
            m = (m >> 1) | (m & 1);
            e = e.wrapping_add(1);
            if e >= 255 {
                return sign | INF;
            }
        }
    } else {
        m = mx.wrapping_sub(my);
        if m == 0 {
            return 0;
        }
    }
    // Normalise to bit 30, but not below exponent 1 (subnormal results are exact).
    if m < 1 << 30 {
        let shift = (m.leading_zeros() as i32)
            .wrapping_sub(1)
            .min(e.wrapping_sub(1));
        if shift > 0 {
            m = m.wrapping_shl(shift as u32);
            e = e.wrapping_sub(shift);
        }
    }
    round_pack_30(sign, e as u32, m)
}

/// Biased exponent (subnormals: 1) and significand (with the hidden bit if normal) of a finite
/// non-zero binary32.
#[inline(always)]
fn unpack(x: u32) -> (i32, u32) {
    let e = (x >> 23) & 0xff;
    if e == 0 {
        (1, x & FRAC)
    } else {
        (e as i32, (x & FRAC) | HIDDEN)
    }
}

/// The 48-bit product of two 24-bit significands as `(high, low)`: `a × b = high × 2²⁴ + low`,
/// `low < 2²⁴`. Four 12 × 12-bit multiplies (the M0's MULS keeps only 32 bits).
#[inline(always)]
fn mul24(a: u32, b: u32) -> (u32, u32) {
    let (ah, al) = (a >> 12, a & 0xfff);
    let (bh, bl) = (b >> 12, b & 0xfff);
    let mid = ah.wrapping_mul(bl).wrapping_add(al.wrapping_mul(bh)); // < 2^25
    let t = al.wrapping_mul(bl).wrapping_add((mid & 0xfff) << 12); // < 2^25
    let hi = ah
        .wrapping_mul(bh)
        .wrapping_add(mid >> 12)
        .wrapping_add(t >> 24);
    (hi, t & 0x00ff_ffff)
}

/// Rounds `hi` (24-bit significand, leading bit at 23) with the 24 bits below it in `lo` to
/// nearest, ties to even, and packs it with `sign` and biased exponent `e` (`1..=254`).
#[inline(always)]
fn round_pack_24(sign: u32, e: i32, hi: u32, lo: u32) -> u32 {
    let r = hi.wrapping_add(lo.wrapping_add(0x007f_ffff + (hi & 1)) >> 24);
    sign | ((e.wrapping_sub(1) as u32) << 23).wrapping_add(r)
}

/// `a × b` on binary32 bit patterns.
///
/// Fast path: both exponent fields in `64..=191` (|x| in [2^-63, 2^65): one OR and one compare
/// check both) and their sum at most 380, so the result is normal whatever the product's
/// normalisation and rounding (its biased exponent before rounding is in `1..=254`). Everything
/// else (zeros, subnormals, infinities, NaNs, and normal operands outside that window) takes
/// `mul_special` / `mul_general`.
/// The significands are split 8 + 16 bits: the low × low product fills 32 bits exactly, and the
/// top 32 bits of the 48-bit product come out with two adds (the lowest 16 only as a sticky bit).
#[inline(always)]
pub fn mul(a: u32, b: u32) -> u32 {
    let da = ((a << 1) >> 24).wrapping_sub(64);
    let db = ((b << 1) >> 24).wrapping_sub(64);
    if (da | db) >= 128 {
        return mul_special(a, b);
    }
    // ea + eb - 128, in 0..=254.
    let es = da.wrapping_add(db);
    if es > 252 {
        // The result may overflow.
        return mul_general(a, b);
    }
    // Sign and biased exponent - 1 of a product in [1, 2) (the hidden bit adds the last 1).
    let base = ((a ^ b) & SIGN).wrapping_add(es << 23);
    // Significand = h × 2^16 + l: h the top 8 bits (hidden bit included), l the low 16.
    let ah = ((a << 8) | SIGN) >> 24;
    let bh = ((b << 8) | SIGN) >> 24;
    let al = (a << 16) >> 16;
    let bl = (b << 16) >> 16;
    let ll = al.wrapping_mul(bl);
    // < 2^25
    let cross = ah.wrapping_mul(bl).wrapping_add(al.wrapping_mul(bh));
    // u = product >> 16 (< 2^32), with the 16 bits below ORed into bit 0 as a sticky bit.
    let mut u = (ah.wrapping_mul(bh) << 16)
        .wrapping_add(cross)
        .wrapping_add(ll >> 16);
    u |= (ll << 16 != 0) as u32;
    let mut base = base;
    if (u as i32) < 0 {
        // Product in [2, 4).
        base = base.wrapping_add(1 << 23);
    } else {
        u <<= 1;
    }
    // 24-bit significand in u's top bits, round bit at bit 7, sticky below: round to nearest,
    // ties to even (a carry out of bit 31 is a significand of 2^24: the next binade).
    let (r, carry) = u.overflowing_add(0x7f + ((u >> 8) & 1));
    base.wrapping_add(r >> 8).wrapping_add((carry as u32) << 24)
}

/// `mul` off its fast path (an operand zero, subnormal, infinite, a NaN, or outside 2^±64): zeros
/// times finite numbers here, the rest in [`mul_general`].
#[inline(never)]
fn mul_special(a: u32, b: u32) -> u32 {
    let a2 = a << 1;
    let b2 = b << 1;
    if (a2 == 0 && b2 < INF << 1) || (b2 == 0 && a2 < INF << 1) {
        return (a ^ b) & SIGN;
    }
    mul_general(a, b)
}

/// The exact general multiplication: every class of operand and result.
#[cold]
#[inline(never)]
pub fn mul_general(a: u32, b: u32) -> u32 {
    let sign = (a ^ b) & SIGN;
    let aa = a & ABS;
    let ba = b & ABS;
    // NaN: unlike addition, multiplication keeps the NaN operand's sign.
    if aa > INF {
        return a | QUIET;
    }
    if ba > INF {
        return b | QUIET;
    }
    if aa == INF {
        return if ba == 0 { QNAN } else { sign | INF };
    }
    if ba == INF {
        return if aa == 0 { QNAN } else { sign | INF };
    }
    if aa == 0 || ba == 0 {
        return sign;
    }
    let (ea, ma) = unpack_normalised(a);
    let (eb, mb) = unpack_normalised(b);
    let (mut hi, mut lo) = mul24(ma, mb);
    let mut e = ea.wrapping_add(eb).wrapping_sub(127);
    if hi < HIDDEN {
        hi = (hi << 1) | (lo >> 23);
        lo = (lo << 1) & 0x00ff_ffff;
    } else {
        e = e.wrapping_add(1);
    }
    if e >= 255 {
        return sign | INF;
    }
    if e >= 1 {
        return round_pack_24(sign, e, hi, lo);
    }
    // Subnormal result: shift right by 1 - e, keeping round and sticky.
    let shift = 1i32.wrapping_sub(e) as u32;
    if shift > 24 {
        // Below half the smallest subnormal: rounds to zero.
        return sign;
    }
    let kept = hi >> shift;
    // Round and sticky: the bits shifted out of `hi` on top (the round bit at bit 31), `lo` ORed
    // in well below the round bit (only whether the rest is non-zero matters).
    let out = hi.wrapping_shl(32u32.wrapping_sub(shift)) | (lo >> 8) | ((lo & 0xff != 0) as u32);
    let up = (out > SIGN || (out == SIGN && kept & 1 == 1)) as u32;
    sign | kept.wrapping_add(up)
}

/// Biased exponent (may be ≤ 0 for subnormals) and 24-bit significand with its leading bit at 23
/// of a finite non-zero binary32.
#[inline(always)]
fn unpack_normalised(x: u32) -> (i32, u32) {
    let e = (x >> 23) & 0xff;
    if e == 0 {
        let m = x & FRAC;
        let shift = m.leading_zeros().wrapping_sub(8);
        (1i32.wrapping_sub(shift as i32), m.wrapping_shl(shift))
    } else {
        (e as i32, (x & FRAC) | HIDDEN)
    }
}

/// Either operand a NaN.
#[inline(always)]
pub fn unordered(a: u32, b: u32) -> bool {
    (a << 1) > INF << 1 || (b << 1) > INF << 1
}

/// `a == b` (false if either is a NaN; `-0 == +0`).
#[inline]
pub fn eq(a: u32, b: u32) -> bool {
    !unordered(a, b) && (a == b || ((a | b) << 1) == 0)
}

/// `a < b` (false if either is a NaN). As signed integers the bit patterns order like the floats
/// when at least one is positive (except `-0 < +0`), and in reverse when both are negative.
#[inline]
pub fn lt(a: u32, b: u32) -> bool {
    if unordered(a, b) {
        return false;
    }
    if ((a & b) as i32) < 0 {
        return (b as i32) < (a as i32);
    }
    (a as i32) < (b as i32) && ((a | b) << 1) != 0
}

/// `a <= b` (false if either is a NaN).
#[inline]
pub fn le(a: u32, b: u32) -> bool {
    if unordered(a, b) {
        return false;
    }
    if ((a & b) as i32) < 0 {
        return (b as i32) <= (a as i32);
    }
    (a as i32) <= (b as i32) || ((a | b) << 1) == 0
}

/// `a > b` (false if either is a NaN).
#[inline]
pub fn gt(a: u32, b: u32) -> bool {
    lt(b, a)
}

/// `a >= b` (false if either is a NaN).
#[inline]
pub fn ge(a: u32, b: u32) -> bool {
    le(b, a)
}
