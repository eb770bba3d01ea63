//! The frame model of the version 2 recording format: frames entropy-coded with the binary range
//! coder of [`super::range`], each frame predicted from the one before it.
//!
//! # What is coded, per frame
//!
//! The frame's fields as stored in version 1 ([`Frame::pack`]: four flags, 6-bit pitch, 6-bit
//! yaw, 8-bit Condition), each against the previous frame's (the frame before frame 0 is
//! [`Frame::NEUTRAL`]):
//!
//! 1. one bit "the sticks or flags changed" — context: whether each stick moved in the previous
//!    frame and how long the controls have been unchanged (0, 1, 2–3, 4+ frames). Most frames of
//!    a human's flight stop here (89 % of the demo's), and decoding them costs two coded bits.
//! 2. only if they changed: one bit "a flag changed" and, if so, the four flags (context: which
//!    flag, its previous value); then **pitch** and **yaw** as deltas from the previous frame
//!    (6-bit wrapping, `−32..=31`): a zero bit (context: the sizes 0 / 1 / 2+ of the axis's last
//!    two deltas, and for yaw whether pitch moved in this frame; yaw's is skipped when neither the
//!    flags nor pitch changed, as yaw must have), a sign bit (context: the signs of the last delta
//!    and of the last non-zero one) and `|d|` in adaptive Elias-gamma (length in unary, then the
//!    bits below the leading one, each adaptive by length and position; set chosen by the size of
//!    the last delta).
//! 3. **Condition** delta (8-bit wrapping, `−128..=127`): a zero bit whose context is the number of
//!    frames since the Condition last changed (0..=7) and how that compares with the length of
//!    the run before (the distance changes at a steady pace), a sign bit (context: the previous
//!    change's sign), `|d|` in adaptive Elias-gamma.
//! 4. before frame `j·K` (`K` = the checksum interval), the 32-bit state check as 32 even-odds bits.
//!
//! Every decision is a binary choice with a 15-bit adaptive probability ([`super::range::Prob`]),
//! so the model is a fixed table of probabilities plus a few bytes of history: [`FrameModel`],
//! `Copy`, no allocation, `size_of::<FrameModel>()` bytes (612; a test pins it). Every bit pattern decodes to *some* frame (deltas wrap), so decoding cannot fail;
//! only the stream's length is checked (see [`super::format`]).

use super::frame::Frame;
use crate::math::target::SIZE_FIRST;

use super::range::{bit_regs, Decoder, Encoder, Prob, Sink, PROB_INIT, RENORM_BELOW};

/// Bucket of the controls' unchanged run (0, 1, 2–3, 4+ frames), by the run kept at most 4.
const RUN_BUCKET: [u8; 8] = [0, 1, 2, 2, 3, 3, 3, 3];
/// The run after one more unchanged frame, kept at most 4.
const RUN_NEXT: [u8; 8] = [1, 2, 3, 4, 4, 4, 4, 4];
/// The "controls changed" context of a run of at least one unchanged frame (its bucket times 4:
/// the sticks did not move in the frame before).
const RUN_CTX: [u8; 8] = [0, 4, 8, 8, 12, 12, 12, 12];

/// Contexts of the Condition zero bit (frames since the last Condition change, capped).
const COND_RUN_CTX: usize = 16;

/// [`FrameModel::cond_zero_ctx`] by the previous run (`cond_prev_run ≤ 16`) and the current one
/// (`cond_run ≤ 15`): one load per frame in [`FrameModel::decode_frames`] (272 bytes, Arm
/// targets only: the wasm32 cart decodes frame by frame).
const COND_ZERO_CTX: [[u8; COND_RUN_CTX]; COND_RUN_CTX + 1] = cond_zero_table();

const fn cond_zero_table() -> [[u8; COND_RUN_CTX]; COND_RUN_CTX + 1] {
    let mut t = [[0u8; COND_RUN_CTX]; COND_RUN_CTX + 1];
    let mut prev = 0;
    while prev <= COND_RUN_CTX {
        let mut r = 0;
        while r < COND_RUN_CTX {
            t[prev][r] = cond_zero_index(r as u32, prev as u32) as u8;
            r += 1;
        }
        prev += 1;
    }
    t
}

/// The Condition zero bit's context: the frames since the Condition last changed (`run`, 0..=7
/// used) and how `run + 1` compares with the previous run's length `prev` (before, equal, one
/// more, later).
const fn cond_zero_index(run: u32, prev: u32) -> usize {
    let run1 = run + 1;
    let rel = if run1 < prev {
        0
    } else if run1 == prev {
        1
    } else if run1 == prev + 1 {
        2
    } else {
        3
    };
    let r = if run < 7 { run } else { 7 };
    (r * 4 + rel) as usize
}

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
    #[inline(always)]
    fn encode(&mut self, m: u32, e: &mut Encoder, out: &mut Sink<'_>) {
        let n = 32u32.wrapping_sub(m.leading_zeros()); // the bit length (leading_zeros ≤ 32)
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
            // `i < extra < 32`: the shift never wraps (the wrapping form spares its check).
            e.bit(
                &mut self.mant[row][slot],
                m.wrapping_shr(i as u32) & 1 != 0,
                out,
            );
        }
    }

    /// Decode a magnitude, each bit from `bit` (a decoder's adaptive bit), the first `extra`
    /// "longer" bits already decoded as 1.
    #[inline(always)]
    fn decode_from(&mut self, mut extra: usize, bit: &mut impl FnMut(&mut Prob) -> bool) -> u32 {
        while extra < LEN && bit(&mut self.len[extra]) {
            extra += 1;
        }
        let row = extra.min(LEN - 1);
        let mut m = 1u32;
        for i in (0..extra).rev() {
            let slot = i.min(MANT - 1);
            m = (m << 1) | bit(&mut self.mant[row][slot]) as u32;
        }
        m
    }
}

/// A signed delta coder: a zero bit (`Z` contexts), a sign bit (`S` contexts), the magnitude
/// (`G` sets of Elias-gamma probabilities).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
struct Delta<const Z: usize, const S: usize, const G: usize, const LEN: usize, const MANT: usize> {
    zero: [Prob; Z],
    sign: [Prob; S],
    mag: [Gamma<LEN, MANT>; G],
}

/// Contexts of one delta: zero bit, sign bit, magnitude set.
#[derive(Clone, Copy)]
struct Ctx {
    zero: usize,
    sign: usize,
    mag: usize,
}

impl<const Z: usize, const S: usize, const G: usize, const LEN: usize, const MANT: usize>
    Delta<Z, S, G, LEN, MANT>
{
    const NEW: Self = Delta {
        zero: [PROB_INIT; Z],
        sign: [PROB_INIT; S],
        mag: [Gamma::NEW; G],
    };

    #[inline(always)]
    fn encode(&mut self, d: i32, c: Ctx, nonzero: bool, e: &mut Encoder, out: &mut Sink<'_>) {
        if !nonzero {
            e.bit(&mut self.zero[c.zero.min(Z - 1)], d != 0, out);
        }
        if d != 0 {
            e.bit(&mut self.sign[c.sign.min(S - 1)], d < 0, out);
            self.mag[c.mag.min(G - 1)].encode(d.unsigned_abs(), e, out);
        }
    }

    /// Decode a delta, each bit from `bit` (a decoder's adaptive bit).
    #[inline(always)]
    fn decode(&mut self, c: Ctx, nonzero: bool, bit: &mut impl FnMut(&mut Prob) -> bool) -> i32 {
        if !nonzero && !bit(&mut self.zero[c.zero.min(Z - 1)]) {
            return 0;
        }
        let neg = bit(&mut self.sign[c.sign.min(S - 1)]);
        let m = self.mag[c.mag.min(G - 1)].decode_from(0, bit) as i32;
        // A corrupt stream can decode any magnitude: wrapping keeps `i32::MIN` defined.
        if neg {
            m.wrapping_neg()
        } else {
            m
        }
    }
}

/// Sign context: 0 zero (or none yet), 1 positive, 2 negative.
#[inline(always)]
fn sign_ctx(d: i8) -> usize {
    if SIZE_FIRST {
        sign_ctx_of(d)
    } else {
        (CTX_OF[d as u8 as usize] >> 2) as usize
    }
}

/// `min(|d|, 2)`.
#[inline(always)]
fn mag_ctx(d: i8) -> usize {
    if SIZE_FIRST {
        mag_ctx_of(d)
    } else {
        (CTX_OF[d as u8 as usize] & 3) as usize
    }
}

const fn sign_ctx_of(d: i8) -> usize {
    if d == 0 {
        0
    } else if d > 0 {
        1
    } else {
        2
    }
}

const fn mag_ctx_of(d: i8) -> usize {
    let m = d.unsigned_abs() as usize;
    if m < 2 {
        m
    } else {
        2
    }
}

/// [`mag_ctx`] `| ` [`sign_ctx`] `<< 2` of every `i8` (by its bits): one load for both, on the
/// Arm targets (256 bytes of flash; the wasm32 cart computes them).
const CTX_OF: [u8; 256] = ctx_table();

const fn ctx_table() -> [u8; 256] {
    let mut t = [0u8; 256];
    let mut i = 0;
    while i < 256 {
        let d = i as u8 as i8;
        t[i] = (mag_ctx_of(d) | sign_ctx_of(d) << 2) as u8;
        i += 1;
    }
    t
}

/// The adaptive model and the previous frame: everything the coder remembers between frames.
/// Encoder and decoder keep identical copies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(crate) struct FrameModel {
    prev: u32,
    cond_run: u8,
    /// Length of the Condition's previous run of unchanged frames (capped).
    cond_prev_run: u8,
    /// The last two deltas of each stick (pitch, yaw), and the last non-zero one.
    last_d: [[i8; 2]; 2],
    last_nz: [i8; 2],
    cond_last_nz: i8,
    /// "Sticks or flags changed", by [`FrameModel::controls_ctx`].
    controls_changed: [Prob; 16],
    /// Frames since the sticks or flags last changed, kept at most 4 (all the context uses).
    controls_run: u8,
    /// "Any flag changed" (once the controls changed).
    flags_changed: Prob,
    flags: [[Prob; 2]; 4],
    stick: [Delta<18, 9, 3, 5, 4>; 2],
    cond: Delta<{ 8 * 4 }, 3, 1, 7, 4>,
}

impl Default for FrameModel {
    fn default() -> Self {
        Self::new()
    }
}

/// Sign-extend the low `bits` of `v`.
#[inline(always)]
fn sext(v: u32, bits: u32) -> i32 {
    ((v << (32 - bits)) as i32) >> (32 - bits)
}

impl FrameModel {
    /// The model before the first frame (previous frame [`Frame::NEUTRAL`], even odds).
    pub(crate) const fn new() -> Self {
        FrameModel {
            prev: 0,
            cond_run: 0,
            cond_prev_run: 0,
            last_d: [[0; 2]; 2],
            last_nz: [0; 2],
            cond_last_nz: 0,
            controls_changed: [PROB_INIT; 16],
            controls_run: 0,
            flags_changed: PROB_INIT,
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
    pub(crate) fn encode(&mut self, frame: &Frame, e: &mut Encoder, out: &mut Sink<'_>) {
        let w = Self::word(frame);
        let p = self.prev;
        let controls = (w ^ p) & 0xFFFF != 0;
        let sc = self.controls_ctx();
        e.bit(&mut self.controls_changed[sc], controls, out);
        if controls {
            self.controls_run = 0;
            let flags = (w ^ p) & 0xF != 0;
            e.bit(&mut self.flags_changed, flags, out);
            if flags {
                for k in 0..4 {
                    let was = (p >> k) & 1;
                    e.bit(&mut self.flags[k][was as usize], (w >> k) & 1 != 0, out);
                }
            }
            let mut moved = false;
            for a in 0..2 {
                let shift = 4 + 6 * a as u32;
                let d = sext(((w >> shift).wrapping_sub(p >> shift)) & 0x3F, 6);
                let c = self.stick_ctx(a, moved);
                // Something changed: with the flags and pitch unchanged, yaw moved.
                let nonzero = a == 1 && !flags && !moved;
                self.stick[a].encode(d, c, nonzero, e, out);
                self.note_stick(a, d);
                moved |= d != 0;
            }
        } else {
            self.note_unmoved();
        }
        let d = sext(((w >> 16).wrapping_sub(p >> 16)) & 0xFF, 8);
        let c = self.cond_ctx();
        self.cond.encode(d, c, false, e, out);
        self.note_cond(d);
        self.prev = w;
    }

    /// Decode one frame as its stored 24-bit word ([`Frame::pack`]'s bytes, little-endian).
    ///
    /// Shaped for the Cortex-M0 (the "fits in one 60 Hz frame" requirement): the common frame —
    /// controls and Condition unchanged, two coded bits — stays in this function's few
    /// registers; the rare branches (the controls changed, the Condition changed) are out of
    /// line.
    #[inline(always)]
    pub(crate) fn decode_word(&mut self, dec: &mut Decoder<'_>) -> u32 {
        let sc = self.controls_ctx();
        let w = if dec.bit(&mut self.controls_changed[sc]) {
            self.decode_controls(dec)
        } else {
            self.note_unmoved();
            self.prev & 0xFFFF
        };
        let zc = self.cond_zero_ctx();
        let p = self.prev >> 16;
        let c = if dec.bit(&mut self.cond.zero[zc]) {
            self.decode_cond_change(dec, p)
        } else {
            self.cond_run = self.cond_run.saturating_add(1).min(COND_RUN_CTX as u8 - 1);
            p
        };
        let w = w | c << 16;
        self.prev = w;
        w
    }

    /// Decode frames `i..end`, calling `emit(i, word)` with each one's stored word ([`Frame::pack`]'s bytes,
    /// little-endian) in order: [`FrameModel::decode_word`] for each, shaped for the Cortex-M0
    /// (the "a 30 s recording decodes within one 60 Hz frame" requirement).
    ///
    /// The loop keeps the coder's `range` and `code`, the previous word and the run counters in
    /// locals; the model's other fields stay in memory, where the rare paths (the controls
    /// changed, the Condition changed, a byte is read) find them. The "controls changed" context
    /// of a frame after an unchanged one is the run's bucket alone (the sticks did not move), so
    /// only the first frame after a change reads the stick history, and the history's shift
    /// stops once it is all zeros (two unchanged frames); the Condition's context is a table
    /// row per previous run ([`COND_ZERO_CTX`]), chosen once per Condition change.
    ///
    /// Stops early after the frame in which the decoder has read more than `limit` bytes;
    /// returns the index after the last frame decoded.
    #[inline(always)]
    pub(crate) fn decode_frames(
        &mut self,
        dec: &mut Decoder<'_>,
        mut i: u32,
        end: u32,
        limit: usize,
        mut emit: impl FnMut(u32, u32),
    ) -> u32 {
        let (mut range, mut code) = dec.regs();
        let mut prev = self.prev;
        // Kept at most 4 (`RUN_NEXT`).
        let mut run = self.controls_run as usize;
        // The "controls changed" context, updated with the run: after a change, which sticks
        // moved in it; after an unchanged frame the run's bucket alone.
        let mut sc = if run == 0 {
            self.moved_ctx()
        } else {
            RUN_CTX[run & 7] as usize
        };
        let mut cond_run = self.cond_run as usize;
        let mut cond_row = &COND_ZERO_CTX[(self.cond_prev_run as usize).min(COND_RUN_CTX)];
        // `stop`: the frame in which the decoder read past `limit` is the last.
        let mut stop = end;
        while i < stop {
            // 1. Did the sticks or flags change?
            if bit_regs(&mut range, &mut code, &mut self.controls_changed[sc & 15]) {
                if range < RENORM_BELOW {
                    dec.refill_regs(&mut range, &mut code);
                }
                dec.set_regs(range, code);
                self.prev = prev;
                let lo = self.decode_controls_regs(dec);
                (range, code) = dec.regs();
                run = 0;
                sc = self.moved_ctx();
                if dec.consumed() > limit {
                    stop = 0;
                }
                prev = (prev & 0xFF_0000) | lo;
            } else {
                if range < RENORM_BELOW {
                    dec.refill_regs(&mut range, &mut code);
                    if dec.consumed() > limit {
                        stop = 0;
                    }
                }
                // `RUN_NEXT`: the run is kept at most 4, the stick history shifts until it is
                // all zeros.
                if run < 4 {
                    if run < 2 {
                        self.note_stick(0, 0);
                        self.note_stick(1, 0);
                    }
                    run += 1;
                    sc = RUN_CTX[run & 7] as usize;
                }
            }
            // 2. The Condition: unchanged, or a delta (out of line).
            let zc = cond_row[cond_run & (COND_RUN_CTX - 1)] as usize;
            if bit_regs(&mut range, &mut code, &mut self.cond.zero[zc & 31]) {
                if range < RENORM_BELOW {
                    dec.refill_regs(&mut range, &mut code);
                }
                // Its sign and the first bit of its magnitude here: most changes are ±1.
                let sc = sign_ctx(self.cond_last_nz);
                let neg = bit_regs(&mut range, &mut code, &mut self.cond.sign[sc]);
                if range < RENORM_BELOW {
                    dec.refill_regs(&mut range, &mut code);
                }
                let longer = bit_regs(&mut range, &mut code, &mut self.cond.mag[0].len[0]);
                if range < RENORM_BELOW {
                    dec.refill_regs(&mut range, &mut code);
                }
                let p = prev >> 16;
                let c = if longer {
                    dec.set_regs(range, code);
                    self.cond_run = cond_run as u8;
                    let c = self.cond_change_tail(dec, p, neg);
                    (range, code) = dec.regs();
                    c
                } else {
                    // ±1: `note_cond` of a non-zero delta.
                    let d = if neg { -1i32 } else { 1 };
                    self.cond_prev_run = (cond_run as u8).saturating_add(1);
                    self.cond_run = 0;
                    self.cond_last_nz = d as i8;
                    (p as i32).wrapping_add(d) as u32 & 0xFF
                };
                cond_run = self.cond_run as usize;
                cond_row = &COND_ZERO_CTX[(self.cond_prev_run as usize).min(COND_RUN_CTX)];
                if dec.consumed() > limit {
                    stop = 0;
                }
                prev = (prev & 0xFFFF) | c << 16;
            } else {
                if range < RENORM_BELOW {
                    dec.refill_regs(&mut range, &mut code);
                    if dec.consumed() > limit {
                        stop = 0;
                    }
                }
                cond_run = (cond_run + 1).min(COND_RUN_CTX - 1);
            }
            emit(i, prev);
            i = i.wrapping_add(1);
        }
        dec.set_regs(range, code);
        self.prev = prev;
        self.controls_run = run as u8;
        self.cond_run = cond_run as u8;
        i
    }

    /// The controls changed: flags and stick deltas (returns the low 16 bits of the word).
    #[inline(never)]
    fn decode_controls(&mut self, dec: &mut Decoder<'_>) -> u32 {
        self.controls_from(&mut |p| dec.bit_rare(p))
    }

    /// [`FrameModel::decode_controls`] on a coder kept in locals for its few bits (the
    /// Cortex-M0's loop, [`FrameModel::decode_frames`]).
    #[inline(never)]
    fn decode_controls_regs(&mut self, dec: &mut Decoder<'_>) -> u32 {
        let (mut range, mut code) = dec.regs();
        let w = self.controls_from(&mut |p| {
            let b = bit_regs(&mut range, &mut code, p);
            if range < RENORM_BELOW {
                dec.refill_regs(&mut range, &mut code);
            }
            b
        });
        dec.set_regs(range, code);
        w
    }

    /// The controls changed: flags and stick deltas, each bit from `bit` (returns the low 16
    /// bits of the word).
    #[inline(always)]
    fn controls_from(&mut self, bit: &mut impl FnMut(&mut Prob) -> bool) -> u32 {
        let p = self.prev;
        self.controls_run = 0;
        let mut w = 0;
        let flags = bit(&mut self.flags_changed);
        if flags {
            for k in 0..4 {
                let was = (p >> k) & 1;
                w |= (bit(&mut self.flags[k][was as usize]) as u32) << k;
            }
        } else {
            w |= p & 0xF;
        }
        // Pitch, then yaw: written out on Arm (constant offsets into the model), one copy in a
        // loop for the wasm32 cart.
        if SIZE_FIRST {
            let mut moved = false;
            for a in 0..2 {
                moved |= self.stick_from(a, p, a == 1 && !flags && !moved, moved, &mut w, bit);
            }
        } else {
            let moved = self.stick_from(0, p, false, false, &mut w, bit);
            self.stick_from(1, p, !flags && !moved, moved, &mut w, bit);
        }
        w
    }

    /// One stick's delta of [`FrameModel::controls_from`] (`nonzero`: yaw must have moved),
    /// into `w`; returns whether it moved.
    #[inline(always)]
    fn stick_from(
        &mut self,
        a: usize,
        p: u32,
        nonzero: bool,
        pitch_moved: bool,
        w: &mut u32,
        bit: &mut impl FnMut(&mut Prob) -> bool,
    ) -> bool {
        let shift = 4 + 6 * a as u32;
        let c = self.stick_ctx(a, pitch_moved);
        let d = self.stick[a].decode(c, nonzero, bit);
        let v = ((p >> shift) as i32).wrapping_add(d) as u32 & 0x3F;
        *w |= v << shift;
        // The delta as the encoder saw it (6-bit wrapped), so the contexts agree even for
        // corrupt magnitudes.
        let d = sext(v.wrapping_sub(p >> shift) & 0x3F, 6);
        self.note_stick(a, d);
        d != 0
    }

    /// The Condition changed (its zero bit was 1): sign and magnitude; returns the new value.
    #[inline(never)]
    fn decode_cond_change(&mut self, dec: &mut Decoder<'_>, p: u32) -> u32 {
        let c = self.cond_ctx();
        let d = self.cond.decode(c, true, &mut |p| dec.bit_rare(p));
        let c = (p as i32).wrapping_add(d) as u32 & 0xFF;
        self.note_cond(sext(c.wrapping_sub(p) & 0xFF, 8));
        c
    }

    /// The Condition changed by more than 1 (its sign `neg` and its magnitude's first "longer"
    /// bit decoded by [`FrameModel::decode_frames`]): the rest of the magnitude; returns the new
    /// value. The same as [`FrameModel::decode_cond_change`].
    #[inline(never)]
    fn cond_change_tail(&mut self, dec: &mut Decoder<'_>, p: u32, neg: bool) -> u32 {
        let m = self.cond.mag[0].decode_from(1, &mut |p| dec.bit_rare(p)) as i32;
        let d = if neg { m.wrapping_neg() } else { m };
        let c = (p as i32).wrapping_add(d) as u32 & 0xFF;
        self.note_cond(sext(c.wrapping_sub(p) & 0xFF, 8));
        c
    }

    /// Index of the Condition's zero bit (see [`FrameModel::cond_ctx`]).
    #[inline(always)]
    fn cond_zero_ctx(&self) -> usize {
        cond_zero_index(self.cond_run as u32, self.cond_prev_run as u32)
    }

    /// Context of the "controls changed" bit: whether each stick moved in the previous frame and
    /// how long the controls have been unchanged (0, 1, 2–3, 4+ frames).
    #[inline(always)]
    fn controls_ctx(&self) -> usize {
        self.moved_ctx() | (RUN_BUCKET[self.controls_run as usize & 7] as usize) << 2
    }

    /// Whether each stick moved in the previous frame (bits 0 and 1 of [`Self::controls_ctx`];
    /// both 0 after an unchanged frame).
    #[inline(always)]
    fn moved_ctx(&self) -> usize {
        (self.last_d[0][0] != 0) as usize | ((self.last_d[1][0] != 0) as usize) << 1
    }

    #[inline(always)]
    fn note_unmoved(&mut self) {
        self.note_stick(0, 0);
        self.note_stick(1, 0);
        // Only the bucket matters: the run is kept at most 4 ("4+").
        self.controls_run = RUN_NEXT[self.controls_run as usize & 7];
    }

    /// Stick contexts: the sizes of the last two deltas and, for yaw, whether pitch moved in this
    /// frame (zero bit), the signs of the last delta
    /// and of the last non-zero one (sign bit), the size of the last delta (magnitude).
    #[inline(always)]
    fn stick_ctx(&self, a: usize, pitch_moved: bool) -> Ctx {
        let [d1, d2] = self.last_d[a];
        Ctx {
            zero: mag_ctx(d1) * 3 + mag_ctx(d2) + 9 * pitch_moved as usize,
            sign: sign_ctx(d1) * 3 + sign_ctx(self.last_nz[a]),
            mag: mag_ctx(d1),
        }
    }

    /// Condition contexts: frames since it last changed (0..=7) and how that compares with the
    /// previous run's length (the distance changes at a steady pace); the last change's sign.
    #[inline(always)]
    fn cond_ctx(&self) -> Ctx {
        Ctx {
            zero: self.cond_zero_ctx(),
            sign: sign_ctx(self.cond_last_nz),
            mag: 0,
        }
    }

    #[inline(always)]
    fn note_stick(&mut self, a: usize, d: i32) {
        self.last_d[a] = [d as i8, self.last_d[a][0]];
        if d != 0 {
            self.last_nz[a] = d as i8;
        }
    }

    #[inline(always)]
    fn note_cond(&mut self, d: i32) {
        if d == 0 {
            self.cond_run = self.cond_run.saturating_add(1).min(COND_RUN_CTX as u8 - 1);
        } else {
            self.cond_prev_run = self.cond_run.saturating_add(1);
            self.cond_run = 0;
            self.cond_last_nz = d as i8;
        }
    }
}

#[cfg(test)]
mod tests {
    use super::super::format::{self, encode_v2, load, Recording};
    use super::*;

    /// The two decode loops (`decode_frames` for Arm, `decode_word` per frame for the wasm32
    /// cart) are the same function: same words, same model, same position, on valid streams
    /// and on garbage, in blocks of any length.
    #[test]
    fn decode_frames_is_decode_word_n_times() {
        let mut rng = crate::rng::Pcg32::new(11, 5);
        let mut buf = [0u8; 600];
        let bytes = crate::ghost::test_recording_bytes();
        let rec = Recording::parse(&bytes).unwrap();
        let frames: heapless::Vec<Frame, 1200> = rec.frames().collect();
        let mut valid = [0u8; 4096];
        let info = format::RecordingInfo {
            checksum_interval: 0,
            ..rec.info()
        };
        let n = encode_v2(&info, &frames, &[], &mut valid).unwrap();
        for round in 0..300 {
            let body: &[u8] = if round == 0 {
                &valid[24..n]
            } else {
                let len = rng.below(buf.len() as u32) as usize;
                for b in buf[..len].iter_mut() {
                    // Mostly zeros (long runs of unchanged frames), some noise.
                    *b = if rng.below(4) == 0 {
                        rng.next_u32() as u8
                    } else {
                        0
                    };
                }
                &buf[..len]
            };
            let mut a = (FrameModel::new(), Decoder::new(body));
            let mut b = (FrameModel::new(), Decoder::new(body));
            let limit = body.len() + 8;
            let mut left = frames.len() as u32;
            while left > 0 {
                let block = (rng.below(70) + 1).min(left);
                let mut words: heapless::Vec<u32, 80> = heapless::Vec::new();
                let start = frames.len() as u32 - left;
                let next =
                    b.0.decode_frames(&mut b.1, start, start + block, limit, |i, w| {
                        assert_eq!(i, start + words.len() as u32);
                        words.push(w).unwrap()
                    });
                assert_eq!(next, start + words.len() as u32);
                for (k, &w) in words.iter().enumerate() {
                    assert_eq!(a.0.decode_word(&mut a.1), w, "round {round} frame {k}");
                }
                assert_eq!(a.0, b.0, "round {round}");
                assert_eq!(a.1.consumed(), b.1.consumed());
                assert_eq!(a.1.regs(), b.1.regs());
                if (words.len() as u32) < block {
                    assert!(b.1.consumed() > limit);
                    break;
                }
                left -= block;
            }
        }
    }

    /// The Arm table of the stick contexts and the wasm32 cart's arithmetic agree on every `i8`.
    #[test]
    fn context_table_is_the_formulas() {
        for d in i8::MIN..=i8::MAX {
            let e = CTX_OF[d as u8 as usize] as usize;
            assert_eq!(e & 3, (d as i32).unsigned_abs().min(2) as usize, "{d}");
            assert_eq!(
                e >> 2,
                [0, 1, 2][(d != 0) as usize + (d < 0) as usize],
                "{d}"
            );
            assert_eq!(e & 3, mag_ctx_of(d));
            assert_eq!(e >> 2, sign_ctx_of(d));
        }
    }

    #[test]
    fn a_flight_round_trips_in_a_fraction_of_its_v1_size() {
        // The bundled demo recording's ≤ 0.5 bytes/frame is checked with the corpus
        // (tests/tests/integration/ghost_v2.rs); here a synthetic flight whose sticks move every
        // tick.
        let bytes = crate::ghost::test_recording_bytes();
        let rec = Recording::parse(&bytes).unwrap();
        let frames: heapless::Vec<Frame, 1200> = rec.frames().collect();
        let checks: heapless::Vec<u32, 20> = rec.checksums().collect();
        let mut out = [0u8; 4096];
        let n = encode_v2(&rec.info(), &frames, &checks, &mut out).unwrap();
        std::println!(
            "v2: {n} bytes for {} of v1, {:.3} bytes/frame, model {} bytes",
            bytes.len(),
            n as f64 / frames.len() as f64,
            core::mem::size_of::<FrameModel>()
        );
        assert!(n * 3 <= bytes.len(), "{n}");
        assert_eq!(core::mem::size_of::<FrameModel>(), 612);
        let mut scratch = [0u8; 4000];
        let back = load(&out[..n], &mut scratch).unwrap();
        assert!(back.frames().eq(rec.frames()));
        assert!(back.checksums().eq(rec.checksums()));
        let mut v1 = [0u8; 4000];
        let len = format::to_v1(&out[..n], &mut v1).unwrap();
        assert_eq!(&v1[..len], rec.as_bytes());
        let _ = Recording::parse(&v1[..len]).unwrap();
    }
}
