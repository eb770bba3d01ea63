//! The frame model of the version 2 recording format: frames entropy-coded with the binary range
//! coder of [`super::range`], each frame predicted from the one before it.
//!
//! # What is coded, per frame
//!
//! The frame's fields as stored in version 1 ([`Frame::pack`]: four flags, 6-bit pitch, 6-bit
//! yaw, 8-bit Condition), each against the previous frame's (the frame before frame 0 is
//! [`Frame::NEUTRAL`]):
//!
//! 1. **same** — one bit: flags, pitch and yaw all equal the previous frame's. Context: how many
//!    frames in a row were "same" before (0..=15).
//! 2. only if not same: the four **flags**, one bit each, context = which flag and its previous
//!    value; then **pitch** and **yaw** as a delta `d` (6-bit wrapping, `−32..=31`): a zero bit
//!    (context: was the previous delta of this axis zero), a sign bit (context: sign of the
//!    previous non-zero delta) and `|d|` in adaptive Elias-gamma (length in unary, then the bits
//!    below the leading one, each adaptive by length and position).
//! 3. **Condition** delta (8-bit wrapping, `−128..=127`): a zero bit whose context is the number of
//!    frames since the Condition last changed (0..=15, the distance changes at a steady pace), a
//!    sign bit (context: the previous change's sign), `|d|` in adaptive Elias-gamma.
//! 4. before frame `j·K` (`K` = the checksum interval), the 32-bit state check as 32 even-odds bits.
//!
//! Every decision is a binary choice with a 15-bit adaptive probability, so the model is a fixed
//! table of 180 probabilities (360 bytes) plus the previous frame: [`FrameModel`], `Copy`, no
//! allocation. Every bit pattern decodes to *some* frame (deltas wrap), so decoding cannot fail;
//! only the stream's length is checked (see [`super::format`]).

use super::frame::Frame;
use super::range::{Decoder, Encoder, Prob, Sink, PROB_INIT};

/// Contexts of the "same" bit (run length of "same" frames, capped).
const SAME_CTX: usize = 16;
/// Contexts of the Condition zero bit (frames since the last Condition change, capped).
const COND_RUN_CTX: usize = 16;

/// Adaptive Elias-gamma code for magnitudes `1..=2^BITS` (`BITS + 1` possible lengths).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Gamma<const LEN: usize, const MANT: usize> {
    /// `len[k]`: "the length is more than k + 1".
    len: [Prob; LEN],
    /// Bits below the leading one, by length and position.
    mant: [[Prob; MANT]; LEN],
}

impl<const LEN: usize, const MANT: usize> Gamma<LEN, MANT> {
    const NEW: Self = Gamma {
        len: [PROB_INIT; LEN],
        mant: [[PROB_INIT; MANT]; LEN],
    };

    /// Encode `m ≥ 1` (values above `2^LEN` are never passed).
    fn encode(&mut self, m: u32, e: &mut Encoder, out: &mut Sink<'_>) {
        let n = 32 - m.leading_zeros(); // 1..=LEN+1... bit length
        let extra = (n as usize).saturating_sub(1);
        for k in 0..LEN {
            let more = k < extra;
            e.bit(&mut self.len[k], more, out);
            if !more {
                break;
            }
        }
        let row = extra.min(LEN - 1);
        for i in (0..extra).rev() {
            let slot = i.min(MANT - 1);
            e.bit(&mut self.mant[row][slot], (m >> i) & 1 != 0, out);
        }
    }

    fn decode(&mut self, d: &mut Decoder<'_>) -> u32 {
        let mut extra = 0usize;
        while extra < LEN && d.bit(&mut self.len[extra]) {
            extra += 1;
        }
        let row = extra.min(LEN - 1);
        let mut m = 1u32;
        for i in (0..extra).rev() {
            let slot = i.min(MANT - 1);
            m = (m << 1) | d.bit(&mut self.mant[row][slot]) as u32;
        }
        m
    }
}

/// A signed delta coder: zero bit, sign bit, magnitude.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Delta<const Z: usize, const LEN: usize, const MANT: usize> {
    zero: [Prob; Z],
    sign: [Prob; 3],
    mag: Gamma<LEN, MANT>,
}

impl<const Z: usize, const LEN: usize, const MANT: usize> Delta<Z, LEN, MANT> {
    const NEW: Self = Delta {
        zero: [PROB_INIT; Z],
        sign: [PROB_INIT; 3],
        mag: Gamma::NEW,
    };

    fn encode(&mut self, d: i32, zctx: usize, sctx: usize, e: &mut Encoder, out: &mut Sink<'_>) {
        e.bit(&mut self.zero[zctx.min(Z - 1)], d != 0, out);
        if d != 0 {
            e.bit(&mut self.sign[sctx.min(2)], d < 0, out);
            self.mag.encode(d.unsigned_abs(), e, out);
        }
    }

    fn decode(&mut self, zctx: usize, sctx: usize, dec: &mut Decoder<'_>) -> i32 {
        if !dec.bit(&mut self.zero[zctx.min(Z - 1)]) {
            return 0;
        }
        let neg = dec.bit(&mut self.sign[sctx.min(2)]);
        let m = self.mag.decode(dec) as i32;
        if neg {
            -m
        } else {
            m
        }
    }
}

/// Sign context: 0 none yet, 1 positive, 2 negative.
#[inline]
fn sign_ctx(d: i32) -> usize {
    match d {
        0 => 0,
        d if d > 0 => 1,
        _ => 2,
    }
}

/// The adaptive model and the previous frame: everything the coder remembers between frames.
/// Encoder and decoder keep identical copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FrameModel {
    prev: u32,
    same_run: u8,
    cond_run: u8,
    /// Previous deltas (pitch, yaw) and the last non-zero ones, for the contexts.
    last_d: [i8; 2],
    last_nz: [i8; 2],
    cond_last_nz: i8,
    same: [Prob; SAME_CTX],
    flags: [[Prob; 2]; 4],
    stick: [Delta<2, 5, 4>; 2],
    cond: Delta<COND_RUN_CTX, 7, 4>,
}

impl Default for FrameModel {
    fn default() -> Self {
        Self::new()
    }
}

/// Sign-extend the low `bits` of `v`.
#[inline]
fn sext(v: u32, bits: u32) -> i32 {
    ((v << (32 - bits)) as i32) >> (32 - bits)
}

impl FrameModel {
    /// The model before the first frame (previous frame [`Frame::NEUTRAL`], even odds).
    pub const fn new() -> Self {
        FrameModel {
            prev: 0,
            same_run: 0,
            cond_run: 0,
            last_d: [0; 2],
            last_nz: [0; 2],
            cond_last_nz: 0,
            same: [PROB_INIT; SAME_CTX],
            flags: [[PROB_INIT; 2]; 4],
            stick: [Delta::NEW; 2],
            cond: Delta::NEW,
        }
    }

    fn word(f: &Frame) -> u32 {
        let b = f.pack();
        b[0] as u32 | (b[1] as u32) << 8 | (b[2] as u32) << 16
    }

    /// Encode one frame (its stored form: out-of-range sticks are clamped as [`Frame::pack`] does).
    pub fn encode(&mut self, frame: &Frame, e: &mut Encoder, out: &mut Sink<'_>) {
        let w = Self::word(frame);
        let p = self.prev;
        let same = (w ^ p) & 0xFFFF == 0;
        e.bit(
            &mut self.same[self.same_run as usize % SAME_CTX],
            !same,
            out,
        );
        if same {
            self.same_run = (self.same_run + 1).min(SAME_CTX as u8 - 1);
            self.last_d = [0; 2];
        } else {
            self.same_run = 0;
            for k in 0..4 {
                let was = (p >> k) & 1;
                e.bit(&mut self.flags[k][was as usize], (w >> k) & 1 != 0, out);
            }
            for a in 0..2 {
                let shift = 4 + 6 * a as u32;
                let d = sext(((w >> shift).wrapping_sub(p >> shift)) & 0x3F, 6);
                let zctx = (self.last_d[a] != 0) as usize;
                let sctx = sign_ctx(self.last_nz[a] as i32);
                self.stick[a].encode(d, zctx, sctx, e, out);
                self.note_stick(a, d);
            }
        }
        let d = sext(((w >> 16).wrapping_sub(p >> 16)) & 0xFF, 8);
        self.cond.encode(
            d,
            self.cond_run as usize,
            sign_ctx(self.cond_last_nz as i32),
            e,
            out,
        );
        self.note_cond(d);
        self.prev = w;
    }

    /// Decode one frame.
    pub fn decode(&mut self, dec: &mut Decoder<'_>) -> Frame {
        let p = self.prev;
        let changed = dec.bit(&mut self.same[self.same_run as usize % SAME_CTX]);
        let mut w = p & 0xFFFF;
        if !changed {
            self.same_run = (self.same_run + 1).min(SAME_CTX as u8 - 1);
            self.last_d = [0; 2];
        } else {
            self.same_run = 0;
            w = 0;
            for k in 0..4 {
                let was = (p >> k) & 1;
                w |= (dec.bit(&mut self.flags[k][was as usize]) as u32) << k;
            }
            for a in 0..2 {
                let shift = 4 + 6 * a as u32;
                let zctx = (self.last_d[a] != 0) as usize;
                let sctx = sign_ctx(self.last_nz[a] as i32);
                let d = self.stick[a].decode(zctx, sctx, dec);
                let v = ((p >> shift) as i32).wrapping_add(d) as u32 & 0x3F;
                w |= v << shift;
                // Store the delta as the encoder saw it (6-bit wrapped), so contexts agree even
                // for corrupt magnitudes.
                self.note_stick(a, sext(v.wrapping_sub(p >> shift) & 0x3F, 6));
            }
        }
        let d = self.cond.decode(
            self.cond_run as usize,
            sign_ctx(self.cond_last_nz as i32),
            dec,
        );
        let c = ((p >> 16) as i32).wrapping_add(d) as u32 & 0xFF;
        self.note_cond(sext(c.wrapping_sub(p >> 16) & 0xFF, 8));
        w |= c << 16;
        self.prev = w;
        Frame::unpack([w as u8, (w >> 8) as u8, (w >> 16) as u8])
    }

    #[inline]
    fn note_stick(&mut self, a: usize, d: i32) {
        self.last_d[a] = d as i8;
        if d != 0 {
            self.last_nz[a] = d as i8;
        }
    }

    #[inline]
    fn note_cond(&mut self, d: i32) {
        if d == 0 {
            self.cond_run = (self.cond_run + 1).min(COND_RUN_CTX as u8 - 1);
        } else {
            self.cond_run = 0;
            self.cond_last_nz = d as i8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::{self, encode_v2, load, Recording};
    use super::*;

    #[test]
    fn demo_recording_round_trips_in_under_half_a_byte_per_frame() {
        let rec = crate::ghost::demo_recording().unwrap();
        let frames: heapless::Vec<Frame, 1800> = rec.frames().collect();
        let checks: heapless::Vec<u32, 30> = rec.checksums().collect();
        let mut out = [0u8; 2048];
        let n = encode_v2(&rec.info(), &frames, &checks, &mut out).unwrap();
        std::println!("demo v2: {n} bytes, {:.3} bytes/frame", n as f64 / 1800.0);
        assert!(n * 2 <= 1800, "{n}");
        let mut scratch = [0u8; 5544];
        let back = load(&out[..n], &mut scratch).unwrap();
        assert!(back.frames().eq(rec.frames()));
        assert!(back.checksums().eq(rec.checksums()));
        let mut v1 = [0u8; 5544];
        let len = format::to_v1(&out[..n], &mut v1).unwrap();
        assert_eq!(&v1[..len], rec.as_bytes());
        let _ = Recording::parse(&v1[..len]).unwrap();
    }
}
