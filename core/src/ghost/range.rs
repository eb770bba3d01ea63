//! A binary adaptive range coder (the LZMA construction), integer-only, allocation-free, used by
//! the version 2 recording format ([`super::codec`]).
//!
//! - **Probabilities** are 15-bit integers `p ∈ [15, 2^15 − 15]` (the chance of a 0, in units of
//!   `2^−15`), adapted after every coded bit by `p += (2^15 − p) >> SHIFT` (a 0) or
//!   `p −= p >> SHIFT` (a 1): shifts and adds only, the same on every CPU.
//! - **Coding** a bit splits the 32-bit range at `bound = (range >> 15) · p`; the encoder keeps a
//!   33-bit `low` and emits a byte whenever `range < 2^24` (carries are resolved with LZMA's cache
//!   byte and pending-`0xFF` count, so bytes once written never change).
//! - **Direct bits** (state checksums) halve the range: exactly one bit of output per bit.
//! - LZMA's always-zero first output byte is not stored, so the decoder starts from 4 bytes.
//!
//! The decoder never fails on its own: past the end of its input it reads zeros and counts them,
//! and corrupt input only yields other bits. The caller ([`super::codec`]) checks the count
//! afterwards, so a short or long stream is an error, never a panic or an endless loop.

use crate::math::target::SIZE_FIRST;

/// Probability precision in bits.
pub(crate) const PROB_BITS: u32 = 15;
/// One, in probability units.
pub(crate) const PROB_ONE: u16 = 1 << PROB_BITS;
/// Adaptation shift: each coded bit moves the probability `1/2^SHIFT` of the way to certainty.
pub(crate) const SHIFT: u32 = 4;
/// A fresh probability: even odds.
pub(crate) const PROB_INIT: Prob = Prob::NEW;
/// Below this the range is renormalised (a byte moves out).
const TOP: u32 = 1 << 24;

/// An adaptive probability (of a 0 bit), in `[15, 2^15 − 15]` whatever it has seen: the update
/// moves it `1/2^SHIFT` of the way towards the coded bit and stops short of certainty, so both
/// outcomes always stay codable.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Prob {
    p: u16,
}

impl Prob {
    /// Even odds.
    pub(crate) const NEW: Prob = Prob { p: PROB_ONE / 2 };

    /// The probability of a 0, in units of `2^−15`.
    #[inline(always)]
    pub(crate) fn get(&self) -> u32 {
        self.p as u32
    }

    #[inline(always)]
    fn set(&mut self, p: u32) {
        self.p = p as u16;
    }

    #[inline(always)]
    fn update(&mut self, bit: bool) {
        // `0 < p < PROB_ONE` always (the updates move `p` a fraction of the way to either end),
        // so nothing wraps: the wrapping forms only spare the overflow checks.
        let p = self.get();
        if bit {
            self.set(p.wrapping_sub(p >> SHIFT));
        } else {
            self.set(p.wrapping_add((PROB_ONE as u32).wrapping_sub(p) >> SHIFT));
        }
    }
}

/// Encoder state, `Copy` so a recorder can roll a frame back (see [`super::recorder`]).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct Encoder {
    low: u64,
    range: u32,
    cache: u8,
    /// Bytes held back: the cache byte plus pending `0xFF`s.
    cache_size: u32,
    /// False until the first (always zero, not stored) byte has been dropped.
    started: bool,
}

impl Default for Encoder {
    fn default() -> Self {
        Self::new()
    }
}

/// Where encoded bytes go: a fixed slice and a write position. Writes past the end are dropped
/// and counted in `overflow`, so encoding never panics; the caller rolls back when it overflowed.
#[derive(Debug)]
pub(crate) struct Sink<'a> {
    /// The output bytes.
    pub buf: &'a mut [u8],
    /// Next write position (may pass `buf.len()` when bytes were dropped).
    pub pos: usize,
}

impl Sink<'_> {
    #[inline]
    fn put(&mut self, b: u8) {
        if let Some(d) = self.buf.get_mut(self.pos) {
            *d = b;
        }
        self.pos = self.pos.saturating_add(1);
    }

    /// True if a byte was dropped (the position ran past the buffer).
    #[inline]
    pub(crate) fn overflowed(&self) -> bool {
        self.pos > self.buf.len()
    }
}

impl Encoder {
    /// A fresh encoder.
    pub(crate) const fn new() -> Self {
        Encoder {
            low: 0,
            range: u32::MAX,
            cache: 0,
            cache_size: 1,
            started: false,
        }
    }

    /// Bytes [`Encoder::flush`] will still write: the held-back bytes and four of `low`.
    #[inline]
    pub(crate) fn pending(&self) -> usize {
        self.cache_size as usize + 4 - if self.started { 0 } else { 1 }
    }

    #[inline]
    fn shift_low(&mut self, out: &mut Sink<'_>) {
        if (self.low as u32) < 0xFF00_0000 || (self.low >> 32) != 0 {
            let carry = (self.low >> 32) as u8;
            let mut temp = self.cache;
            loop {
                if self.started {
                    out.put(temp.wrapping_add(carry));
                } else {
                    self.started = true;
                }
                temp = 0xFF;
                self.cache_size = self.cache_size.wrapping_sub(1);
                if self.cache_size == 0 {
                    break;
                }
            }
            self.cache = (self.low >> 24) as u8;
        }
        self.cache_size = self.cache_size.saturating_add(1);
        self.low = (self.low & 0x00FF_FFFF) << 8;
    }

    #[inline]
    fn normalize(&mut self, out: &mut Sink<'_>) {
        while self.range < TOP {
            self.range <<= 8;
            self.shift_low(out);
        }
    }

    /// Code `bit` with the adaptive probability `p`. One shared copy (not inlined): encoding
    /// happens once per recorded tick, and the WASM-4 cart that records counts its bytes.
    #[inline(never)]
    pub(crate) fn bit(&mut self, p: &mut Prob, bit: bool, out: &mut Sink<'_>) {
        // `bound < range` (`p < PROB_ONE`), and `low` stays below 2³³ (`shift_low` takes the
        // carry out every byte): modular arithmetic by construction, written so.
        let bound = (self.range >> PROB_BITS).wrapping_mul(p.get());
        if bit {
            self.low = self.low.wrapping_add(bound as u64);
            self.range = self.range.wrapping_sub(bound);
        } else {
            self.range = bound;
        }
        p.update(bit);
        self.normalize(out);
    }

    /// Code the low `n` bits of `v` (most significant first) at even odds, `n ≤ 32`.
    pub(crate) fn direct(&mut self, v: u32, n: u32, out: &mut Sink<'_>) {
        let mut i = n.min(32);
        while i > 0 {
            i -= 1;
            self.range >>= 1;
            if (v >> i) & 1 != 0 {
                self.low = self.low.wrapping_add(self.range as u64);
            }
            self.normalize(out);
        }
    }

    /// Write the remaining bytes ([`Encoder::pending`] of them). The encoder is spent afterwards;
    /// flush a copy to keep encoding.
    pub(crate) fn flush(&mut self, out: &mut Sink<'_>) {
        for _ in 0..5 {
            self.shift_low(out);
        }
    }
}

/// [`Decoder::bit`]'s arithmetic on a coder held in two locals (a hot loop's registers), without
/// the renormalisation: the caller refills when `range < 2^24` ([`Decoder::refill_regs`]).
#[inline(always)]
pub(crate) fn bit_regs(range: &mut u32, code: &mut u32, p: &mut Prob) -> bool {
    // In 32-bit arithmetic (no 16-bit masking in the hot path); the same values as
    // `Prob::update`.
    // As in `Encoder::bit` and `Prob::update`: `bound < range`, `0 < q < PROB_ONE`.
    let q = p.get();
    let bound = (*range >> PROB_BITS).wrapping_mul(q);
    if *code < bound {
        *range = bound;
        p.set(q.wrapping_add((PROB_ONE as u32).wrapping_sub(q) >> SHIFT));
        false
    } else {
        // Corrupt input can leave `code ≥ range`; wrapping keeps every value defined.
        *code = code.wrapping_sub(bound);
        *range = range.wrapping_sub(bound);
        p.set(q.wrapping_sub(q >> SHIFT));
        true
    }
}

/// Below this a coder held in locals must be renormalised ([`Decoder::refill_regs`]).
pub(crate) const RENORM_BELOW: u32 = TOP;

/// Decoder state over a byte slice. `Copy` (five words), so hot loops can keep it in registers
/// and hand copies to out-of-line code.
#[derive(Clone, Copy, Debug)]
pub(crate) struct Decoder<'a> {
    bytes: &'a [u8],
    pos: usize,
    range: u32,
    code: u32,
}

impl<'a> Decoder<'a> {
    /// Start decoding `bytes` (reads the first 4).
    pub(crate) fn new(bytes: &'a [u8]) -> Self {
        let mut d = Decoder {
            bytes,
            pos: 0,
            range: u32::MAX,
            code: 0,
        };
        for _ in 0..4 {
            d.code = (d.code << 8) | d.next_byte() as u32;
        }
        d
    }

    #[inline(always)]
    fn next_byte(&mut self) -> u8 {
        let b = self.bytes.get(self.pos).copied().unwrap_or(0);
        self.pos = self.pos.saturating_add(1);
        b
    }

    /// Bytes consumed so far (more than the input's length if the decoder ran past its end).
    #[inline]
    pub(crate) fn consumed(&self) -> usize {
        self.pos
    }

    #[inline(always)]
    fn normalize(&mut self) {
        if self.range < TOP {
            self.refill();
        }
    }

    /// Shift bytes in until the range is back above `2^24` — out of line: a human's flight
    /// needs a new byte only every few frames, and the per-bit path stays short.
    #[inline(never)]
    #[cold]
    fn refill(&mut self) {
        while self.range < TOP {
            self.range <<= 8;
            self.code = (self.code << 8) | self.next_byte() as u32;
        }
    }

    /// Decode one bit with the adaptive probability `p` (updated as the encoder did).
    #[inline(always)]
    pub(crate) fn bit(&mut self, p: &mut Prob) -> bool {
        let bit = bit_regs(&mut self.range, &mut self.code, p);
        self.normalize();
        bit
    }

    /// The coder's `(range, code)`, for a hot loop that keeps them in locals ([`bit_regs`]);
    /// [`Decoder::set_regs`] hands them back.
    #[inline(always)]
    pub(crate) fn regs(&self) -> (u32, u32) {
        (self.range, self.code)
    }

    /// Store the `(range, code)` a hot loop kept in locals.
    #[inline(always)]
    pub(crate) fn set_regs(&mut self, range: u32, code: u32) {
        self.range = range;
        self.code = code;
    }

    /// Renormalise a coder held in locals (`range < 2^24`): bytes move in through the
    /// out-of-line [`Decoder::refill`].
    #[inline(always)]
    pub(crate) fn refill_regs(&mut self, range: &mut u32, code: &mut u32) {
        self.set_regs(*range, *code);
        self.refill();
        (*range, *code) = self.regs();
    }

    /// [`Decoder::bit`] as one shared function: for the rare paths of a model (a frame whose
    /// controls changed), where one copy of the bit decoder costs less code than one per call
    /// site (the WASM-4 cart's 64 KiB) and the call costs little next to the decoder's state
    /// being in memory there anyway.
    #[inline(never)]
    pub(crate) fn bit_outlined(&mut self, p: &mut Prob) -> bool {
        self.bit(p)
    }

    /// [`Decoder::bit`] for the rare paths of a model: the shared copy
    /// ([`Decoder::bit_outlined`]) where code size comes first (wasm32, the WASM-4 cart), the
    /// inline one elsewhere (the Cortex-M0's decode-within-a-frame requirement).
    #[inline(always)]
    pub(crate) fn bit_rare(&mut self, p: &mut Prob) -> bool {
        if SIZE_FIRST {
            self.bit_outlined(p)
        } else {
            self.bit(p)
        }
    }

    /// Decode `n ≤ 32` bits at even odds, most significant first.
    pub(crate) fn direct(&mut self, n: u32) -> u32 {
        let mut v = 0u32;
        for _ in 0..n.min(32) {
            self.range >>= 1;
            let bit = self.code >= self.range;
            if bit {
                self.code = self.code.wrapping_sub(self.range);
            }
            v = (v << 1) | bit as u32;
            self.normalize();
        }
        v
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn bits_round_trip_and_consume_exactly_what_was_written() {
        let mut rng = crate::rng::Pcg32::new(7, 1);
        for len in [0usize, 1, 5, 100, 5000] {
            let bits: heapless::Vec<(bool, u8), 5000> = (0..len)
                .map(|_| (rng.below(10) < 2, rng.below(4) as u8))
                .collect();
            let mut buf = [0u8; 4096];
            let mut out = Sink {
                buf: &mut buf,
                pos: 0,
            };
            let mut e = Encoder::new();
            let mut probs = [PROB_INIT; 4];
            for (i, &(b, ctx)) in bits.iter().enumerate() {
                if i % 97 == 5 {
                    e.direct(0xdead_beef ^ i as u32, 32, &mut out);
                }
                e.bit(&mut probs[ctx as usize], b, &mut out);
            }
            let expect = out.pos + e.pending();
            e.flush(&mut out);
            assert_eq!(out.pos, expect);
            assert!(!out.overflowed());
            let n = out.pos;
            let mut d = Decoder::new(&buf[..n]);
            let mut probs = [PROB_INIT; 4];
            for (i, &(b, ctx)) in bits.iter().enumerate() {
                if i % 97 == 5 {
                    assert_eq!(d.direct(32), 0xdead_beef ^ i as u32);
                }
                assert_eq!(d.bit(&mut probs[ctx as usize]), b, "{len} {i}");
            }
            assert_eq!(d.consumed(), n, "{len}");
        }
    }

    #[test]
    fn garbage_decodes_without_panic() {
        let mut rng = crate::rng::Pcg32::new(3, 9);
        let mut buf = [0u8; 64];
        for _ in 0..200 {
            for b in buf.iter_mut() {
                *b = rng.next_u32() as u8;
            }
            let mut d = Decoder::new(&buf);
            let mut p = [PROB_INIT; 3];
            for i in 0..2000 {
                let _ = d.bit(&mut p[i % 3]);
                if i % 50 == 0 {
                    let _ = d.direct(32);
                }
            }
            assert!(p.iter().all(|p| p.get() > 0 && p.get() < PROB_ONE as u32));
        }
    }
}
#[cfg(test)]
mod efficiency {
    use super::*;

    /// The coder spends what the model predicts: output within a few bytes of the sum of
    /// `−log2 p` over the coded bits.
    #[test]
    fn output_matches_the_model_cost() {
        let mut rng = crate::rng::Pcg32::new(1, 1);
        let mut buf = [0u8; 8192];
        let mut out = Sink {
            buf: &mut buf,
            pos: 0,
        };
        let mut e = Encoder::new();
        let mut p = PROB_INIT;
        let mut cost = 0.0f64;
        for _ in 0..40000 {
            let b = rng.below(100) < 5;
            let q = p.get() as f64 / PROB_ONE as f64;
            cost += if b {
                -libm::log2(1.0 - q)
            } else {
                -libm::log2(q)
            };
            e.bit(&mut p, b, &mut out);
        }
        e.flush(&mut out);
        let bytes = cost / 8.0;
        assert!((out.pos as f64) < bytes + 6.0, "{} vs {bytes}", out.pos);
        assert!((out.pos as f64) > bytes - 1.0, "{} vs {bytes}", out.pos);
    }
}
