//! `hopkit_firmware::softfloat` against the host: every result must have exactly the bits of the
//! host's `compiler_builtins` functions (`__addsf3`, `__subsf3`, `__mulsf3`: the code the Cortex-M0
//! would otherwise run, NaN results included) and, when not a NaN, of the host's hardware
//! (`a + b`, `a - b`, `a * b` on x86_64 SSE are IEEE-exact). The general (slow) paths are checked on
//! every input as well, not only on the ones the fast paths hand them.
//!
//! The default tests take well under a second; the long random run is
//! `cargo test --release -p hopkit-firmware --test integration softfloat:: -- --ignored`
//! (`SOFTFLOAT_CASES` per operation, default 2^30, over two threads).

use hopkit_firmware::softfloat as sf;

extern "C" {
    fn __addsf3(a: f32, b: f32) -> f32;
    fn __subsf3(a: f32, b: f32) -> f32;
    fn __mulsf3(a: f32, b: f32) -> f32;
}

fn builtin_add(a: u32, b: u32) -> u32 {
    // SAFETY: compiler_builtins' soft-float addition; pure function of its arguments.
    unsafe { __addsf3(f32::from_bits(a), f32::from_bits(b)) }.to_bits()
}
fn builtin_sub(a: u32, b: u32) -> u32 {
    // SAFETY: as above.
    unsafe { __subsf3(f32::from_bits(a), f32::from_bits(b)) }.to_bits()
}
fn builtin_mul(a: u32, b: u32) -> u32 {
    // SAFETY: as above.
    unsafe { __mulsf3(f32::from_bits(a), f32::from_bits(b)) }.to_bits()
}

fn is_nan(x: u32) -> bool {
    x & 0x7fff_ffff > 0x7f80_0000
}

#[inline(always)]
fn check_pair(a: u32, b: u32) {
    let (fa, fb) = (f32::from_bits(a), f32::from_bits(b));

    let want = builtin_add(a, b);
    let got = sf::add(a, b);
    assert_eq!(
        got, want,
        "add {a:#010x} + {b:#010x}: {got:#010x} != builtins {want:#010x}"
    );
    assert_eq!(
        sf::add_general(a, b),
        want,
        "add_general {a:#010x} + {b:#010x}"
    );
    if !is_nan(want) {
        assert_eq!(
            want,
            (fa + fb).to_bits(),
            "builtins vs hardware add {a:#010x} {b:#010x}"
        );
    }

    let want = builtin_sub(a, b);
    let got = sf::sub(a, b);
    assert_eq!(
        got, want,
        "sub {a:#010x} - {b:#010x}: {got:#010x} != builtins {want:#010x}"
    );
    if !is_nan(want) {
        assert_eq!(
            want,
            (fa - fb).to_bits(),
            "builtins vs hardware sub {a:#010x} {b:#010x}"
        );
    }

    let want = builtin_mul(a, b);
    let got = sf::mul(a, b);
    assert_eq!(
        got, want,
        "mul {a:#010x} * {b:#010x}: {got:#010x} != builtins {want:#010x}"
    );
    assert_eq!(
        sf::mul_general(a, b),
        want,
        "mul_general {a:#010x} * {b:#010x}"
    );
    if !is_nan(want) {
        assert_eq!(
            want,
            (fa * fb).to_bits(),
            "builtins vs hardware mul {a:#010x} {b:#010x}"
        );
    }

    assert_eq!(sf::eq(a, b), fa == fb, "eq {a:#010x} {b:#010x}");
    assert_eq!(sf::lt(a, b), fa < fb, "lt {a:#010x} {b:#010x}");
    assert_eq!(sf::le(a, b), fa <= fb, "le {a:#010x} {b:#010x}");
    assert_eq!(sf::gt(a, b), fa > fb, "gt {a:#010x} {b:#010x}");
    assert_eq!(sf::ge(a, b), fa >= fb, "ge {a:#010x} {b:#010x}");
    assert_eq!(
        sf::unordered(a, b),
        fa.is_nan() || fb.is_nan(),
        "un {a:#010x} {b:#010x}"
    );
}

/// splitmix64.
struct Rng(u64);
impl Rng {
    fn next_u64(&mut self) -> u64 {
        self.0 = self.0.wrapping_add(0x9e37_79b9_7f4a_7c15);
        let mut z = self.0;
        z = (z ^ (z >> 30)).wrapping_mul(0xbf58_476d_1ce4_e5b9);
        z = (z ^ (z >> 27)).wrapping_mul(0x94d0_49bb_1331_11eb);
        z ^ (z >> 31)
    }
    fn u32(&mut self) -> u32 {
        (self.next_u64() >> 32) as u32
    }
    /// A fraction field drawn to make rounding interesting: uniform, sparse (ties and exact
    /// results), dense (carries), or all-ones / all-zeros tails.
    fn frac(&mut self) -> u32 {
        let r = self.u32();
        let f = self.u32() & 0x7f_ffff;
        let (k, k2) = ((r >> 8) % 23, (r >> 16) % 23);
        match r & 7 {
            0 => 0,
            1 => 1 << k,
            2 => (1 << k) | (1 << k2),
            3 => 0x7f_ffff ^ (1 << k),
            4 => 0x7f_ffff,
            5 => f & !((1 << k) - 1),
            _ => f,
        }
    }
    /// A value with a random exponent class (any of the 256 fields, weighted to the common range).
    fn value(&mut self) -> u32 {
        let r = self.u32();
        let e = match r & 3 {
            0 => (r >> 8) & 0xff,
            _ => 100 + (r >> 8) % 56,
        };
        (r & 0x8000_0000) | (e << 23) | self.frac()
    }
}

/// Values of every special class and the edges between classes.
fn specials() -> Vec<u32> {
    let pos = [
        0x0000_0000, // +0
        0x0000_0001, // smallest subnormal
        0x0000_0002,
        0x0000_0003,
        0x0040_0000, // subnormal, half of min normal
        0x0040_0001,
        0x007f_fffe,
        0x007f_ffff, // largest subnormal
        0x0080_0000, // min normal
        0x0080_0001,
        0x00ff_ffff,
        0x0100_0000,
        0x0c00_0000,
        0x1f80_0000,
        0x1fff_ffff,
        0x3380_0000, // 2^-24
        0x33ff_ffff,
        0x3400_0000, // 2^-23
        0x3f00_0000, // 0.5
        0x3f7f_ffff,
        0x3f80_0000, // 1
        0x3f80_0001,
        0x3fc0_0000, // 1.5
        0x3fff_ffff,
        0x4000_0000, // 2
        0x4b00_0000, // 2^23
        0x4b7f_ffff,
        0x4b80_0000, // 2^24
        0x5f80_0000,
        0x5fff_ffff,
        0x7e80_0000,
        0x7eff_ffff,
        0x7f00_0000,
        0x7f7f_fffe,
        0x7f7f_ffff, // max finite
        0x7f80_0000, // inf
        0x7f80_0001, // signalling NaNs
        0x7fa0_0000,
        0x7fbf_ffff,
        0x7fc0_0000, // quiet NaNs
        0x7fc0_0001,
        0x7fff_ffff,
    ];
    pos.iter().flat_map(|&p| [p, p | 0x8000_0000]).collect()
}

#[test]
fn specials_times_specials() {
    let s = specials();
    for &a in &s {
        for &b in &s {
            check_pair(a, b);
        }
    }
}

#[test]
fn every_exponent_pair() {
    let mut rng = Rng(1);
    for ea in 0..256u32 {
        for eb in 0..256u32 {
            for _ in 0..4 {
                let a = (rng.u32() & 0x8000_0000) | (ea << 23) | rng.frac();
                let b = (rng.u32() & 0x8000_0000) | (eb << 23) | rng.frac();
                check_pair(a, b);
            }
        }
    }
}

#[test]
fn near_ties_and_cancellation() {
    let mut rng = Rng(2);
    for _ in 0..100_000 {
        let a = rng.value();
        // b a few ulps from ±a (cancellation, equal magnitudes), or a scaled by 2^-22 .. 2^-27 with
        // a sparse fraction (the halfway cases of addition).
        let k = rng.u32();
        let b = match k & 3 {
            0 => (a ^ 0x8000_0000).wrapping_add((k >> 8) % 7).wrapping_sub(3),
            1 => a.wrapping_add((k >> 8) % 5).wrapping_sub(2),
            _ => {
                let shift = 21 + (k >> 8) % 8;
                let e = ((a >> 23) & 0xff).saturating_sub(shift);
                ((k << 16) & 0x8000_0000) | (e << 23) | rng.frac()
            }
        };
        check_pair(a, b);
        check_pair(b, a);
    }
}

#[test]
fn products_near_halfway_and_at_the_subnormal_edge() {
    let mut rng = Rng(3);
    for _ in 0..100_000 {
        // Significands with few bits (exact products and exact ties), exponents summing to the
        // edges: overflow, the normal/subnormal boundary, underflow to zero.
        let ea = rng.u32() % 256;
        let target = match rng.u32() % 4 {
            0 => 127 + 127, // product near 2^127 .. overflow
            1 => 127,       // product near min normal
            2 => 127 - 24,  // product near the smallest subnormal
            _ => 127 - 12,
        };
        let eb = (target + (rng.u32() % 5) as i32 - 2 - ea as i32).clamp(0, 255) as u32;
        let a = (rng.u32() & 0x8000_0000) | (ea << 23) | rng.frac();
        let b = (rng.u32() & 0x8000_0000) | (eb << 23) | rng.frac();
        check_pair(a, b);
    }
}

#[test]
fn random_pairs() {
    let mut rng = Rng(4);
    for _ in 0..300_000 {
        let (a, b) = (rng.value(), rng.value());
        check_pair(a, b);
        let (a, b) = (rng.u32(), rng.u32());
        check_pair(a, b);
    }
}

/// The long run: `SOFTFLOAT_CASES` (default 2^30) pairs per thread-half, each pair checked through
/// add, sub, mul (fast and general paths) and the six comparisons.
#[test]
#[ignore = "long: cargo test --release -p hopkit-firmware --test integration softfloat:: -- --ignored"]
fn random_pairs_long() {
    let cases: u64 = std::env::var("SOFTFLOAT_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(1 << 30);
    let threads = 2u64;
    std::thread::scope(|scope| {
        for t in 0..threads {
            scope.spawn(move || {
                let mut rng = Rng(0x5eed_0000 + t);
                for i in 0..cases / threads {
                    let (a, b) = if i & 1 == 0 {
                        (rng.value(), rng.value())
                    } else {
                        (rng.u32(), rng.u32())
                    };
                    check_pair(a, b);
                }
            });
        }
    });
}
