//! A correctly rounded `f32` square root in 32-bit integer arithmetic, for CPUs without a 32×32→64
//! multiply (ARMv6-M: Cortex-M0/M0+).
//!
//! A correctly rounded square root has exactly one right answer for every input (IEEE 754), so
//! this gives **the same bits** as `libm::sqrtf`, x86's `sqrtss` and the M4F's `VSQRT.F32` for every
//! non-negative input (checked against `libm` over every 2³¹ non-negative bit pattern by the
//! ignored test `exhaustive_against_libm`, and on a sample in the default tests). `libm`'s own
//! `sqrtf` refines an estimate with 64-bit multiplies, which an M0 does in software (`__aeabi_lmul`,
//! ≈ 140 instructions each): 854 instructions per call under QEMU. This is the classic
//! restoring, bit-by-bit method (as in FreeBSD's `e_sqrtf.c`): 25 steps of compare, subtract and
//! shift, ≈ 250 instructions on an M0. It is slower than `libm`'s on CPUs with a long multiply, so
//! [`super::scalar::sqrt`] uses it only on ARMv6-M.

use super::bits::{IMPLICIT, INF, MANTISSA};

/// Square root of `x`, correctly rounded (round to nearest, ties to even). `±0` → `±0`, `+∞` → `+∞`;
/// NaN or negative input → NaN (`f32::NAN`).
#[inline(never)]
pub(crate) fn sqrt(x: f32) -> f32 {
    let bits = x.to_bits();
    if bits << 1 == 0 {
        return x; // ±0
    }
    if bits >= INF {
        // +inf stays +inf; NaN and every negative number (sign bit set) give NaN.
        return if bits == INF { x } else { f32::NAN };
    }
    // x = m · 2^e with m in [2^23, 2^24) (subnormals normalised first).
    let mut e = (bits >> 23) as i32;
    let mut m = bits & MANTISSA;
    if e == 0 {
        let shift = m.leading_zeros() as i32 - 8;
        m <<= shift;
        e = 1 - shift;
    } else {
        m |= IMPLICIT;
    }
    e -= 127;
    if e & 1 != 0 {
        m <<= 1; // make the exponent even
    }
    // Restoring square root: s/2 collects 25 bits (one more than the significand) of √m
    // (FreeBSD keeps q = s/2 in a register of its own; an M0 has too few).
    let mut ix = m << 1;
    let mut s = 0u32;
    let mut r = 0x0100_0000u32;
    // Wrapping operations only to keep overflow checks out of the loop: s < 2^26 and t ≤ ix here,
    // so nothing wraps.
    while r != 0 {
        let t = s.wrapping_add(r);
        if t <= ix {
            s = t.wrapping_add(r);
            ix = ix.wrapping_sub(t);
        }
        ix <<= 1;
        r >>= 1;
    }
    let mut q = s >> 1;
    // A non-zero remainder means the result is inexact: round half to even on the last bit.
    if ix != 0 {
        q = q.wrapping_add(q & 1);
    }
    let out = (q >> 1)
        .wrapping_add(0x3f00_0000)
        .wrapping_add(((e >> 1) as u32) << 23);
    f32::from_bits(out)
}

#[cfg(test)]
mod tests {
    use super::sqrt;

    fn check(bits: u32) {
        let x = f32::from_bits(bits);
        let want = libm::sqrtf(x);
        let got = sqrt(x);
        assert!(
            got.to_bits() == want.to_bits() || (got.is_nan() && want.is_nan()),
            "sqrt({x:e} = {bits:#010x}) = {got:e} ({:#010x}), libm {want:e} ({:#010x})",
            got.to_bits(),
            want.to_bits()
        );
    }

    #[test]
    fn specials() {
        for b in [
            0u32,
            0x8000_0000,
            1,
            2,
            3,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0x4000_0000,
            0x4080_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0xff80_0000,
            0x7fc0_0000,
            0xbf80_0000,
            0x8000_0001,
        ] {
            check(b);
        }
        assert_eq!(sqrt(-0.0).to_bits(), 0x8000_0000);
        assert!(sqrt(-1.0).is_nan() && sqrt(f32::NAN).is_nan());
    }

    #[test]
    fn same_bits_as_libm_on_a_sample() {
        // Every 997th non-negative pattern (2.2 M values, every binade, subnormals included).
        let mut b = 0u32;
        while b < 0x7f80_0000 {
            check(b);
            b += 997;
        }
        // Around perfect squares, where rounding ties would show.
        for i in 1u32..4096 {
            let s = (i as f32) * (i as f32);
            let sb = s.to_bits();
            for d in 0..3 {
                check(sb - d);
                check(sb + d);
            }
        }
    }

    /// All 2^31 non-negative patterns (≈ 1 min in release: `cargo test -p hopkit --release --lib
    /// sqrt32 -- --ignored`).
    #[test]
    #[ignore = "exhaustive: 2^31 inputs, run in release"]
    fn exhaustive_against_libm() {
        for b in 0..=0x7fff_ffffu32 {
            check(b);
        }
    }
}
