//! The link's bytes: packets, their checksum and their framing.
//!
//! A packet on the wire is `COBS(payload ‖ CRC-32(payload)) 0x00`: [COBS] (consistent overhead
//! byte stuffing) leaves no zero byte inside a frame, so the zero that ends one is also where the
//! next begins — a receiver that joins mid-stream, or loses or gains bytes, is back in step at the
//! next zero. The CRC-32 is the IEEE one the ghost recordings use ([`hopkit::ghost::crc32`]); a frame
//! whose CRC, length or fields do not check out is dropped whole, never applied.
//!
//! | payload | bytes (little-endian) |
//! |---|---|
//! | hello | `1`, nonce `u32`, seen `u32` (the peer's nonce this board has heard, 0 = none) |
//! | frame | `2`, match `u32`, frame `u32`, lead `i16`, ack `u32`, first `u32`, count `u8`, `count` × 3 input bytes, has-check `u8` (0/1), [check frame `u32`, check hash `u64`] |
//!
//! [COBS]: https://en.wikipedia.org/wiki/Consistent_Overhead_Byte_Stuffing

use crate::arena::{ArenaInput, INPUT_BYTES, NEUTRAL_INPUT};
use hopkit::ghost::crc32;

/// Most inputs one frame packet carries (the oldest the peer has not acknowledged first).
pub const MAX_SEND: usize = 16;
/// Largest payload: a frame packet with [`MAX_SEND`] inputs and a checksum.
pub const MAX_PAYLOAD: usize = 1 + 4 + 4 + 2 + 4 + 4 + 1 + MAX_SEND * INPUT_BYTES + 1 + 12;
/// Largest frame on the wire: the payload and its CRC, COBS-encoded (one byte more per 254), and
/// the closing zero.
pub const MAX_FRAME: usize = MAX_PAYLOAD + 4 + 1 + 1;

const TAG_HELLO: u8 = 1;
const TAG_FRAME: u8 = 2;

/// A board looking for a peer: who it is, and whom it has heard.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    /// This board's random nonce for this handshake (never 0).
    pub nonce: u32,
    /// The peer's nonce this board has heard (0 = none yet).
    pub seen: u32,
}

/// One frame's message of a match: inputs, acknowledgement, timing and a state checksum.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct FramePacket {
    /// The match (both nonces mixed, [`match_id`]): packets of another match are ignored.
    pub match_id: u32,
    /// The sender's current frame (the next it will simulate).
    pub frame: u32,
    /// The sender's lead: its frame minus the latest frame it heard from this board.
    pub lead: i16,
    /// Frames of this board's input the sender has, in order (it needs `ack` next).
    pub ack: u32,
    /// The frame of `inputs[0]`.
    pub first: u32,
    /// Inputs carried (≤ [`MAX_SEND`]).
    pub count: u8,
    /// The sender's inputs for frames `first..first + count`.
    pub inputs: [ArenaInput; MAX_SEND],
    /// The sender's latest confirmed state checksum: `(frame, state hash at that tick)`.
    pub check: Option<(u32, u64)>,
}

impl FramePacket {
    /// The inputs carried.
    pub fn inputs(&self) -> &[ArenaInput] {
        &self.inputs[..usize::from(self.count).min(MAX_SEND)]
    }
}

/// A decoded packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packet {
    /// Handshake.
    Hello(Hello),
    /// A match frame.
    Frame(FramePacket),
}

/// The match id both boards derive from their nonces (order-independent, never 0 for nonces
/// that are not).
pub fn match_id(a: u32, b: u32) -> u32 {
    let (lo, hi) = if a < b { (a, b) } else { (b, a) };
    let x = (u64::from(lo) << 32 | u64::from(hi)).wrapping_mul(0x9e37_79b9_7f4a_7c15);
    ((x >> 32) as u32) | 1
}

struct Writer<'a> {
    buf: &'a mut [u8; MAX_PAYLOAD],
    len: usize,
}

impl Writer<'_> {
    fn put(&mut self, bytes: &[u8]) {
        for &b in bytes {
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
    }
}

struct Reader<'a> {
    bytes: &'a [u8],
    at: usize,
}

impl Reader<'_> {
    fn take<const N: usize>(&mut self) -> Option<[u8; N]> {
        let s = self.bytes.get(self.at..self.at + N)?;
        self.at += N;
        let mut out = [0u8; N];
        out.copy_from_slice(s);
        Some(out)
    }
    fn u8(&mut self) -> Option<u8> {
        self.take::<1>().map(|b| b[0])
    }
    fn u32(&mut self) -> Option<u32> {
        self.take::<4>().map(u32::from_le_bytes)
    }
}

impl Packet {
    /// The payload bytes (no CRC, no framing) into `out`; returns their length.
    pub fn encode(&self, out: &mut [u8; MAX_PAYLOAD]) -> usize {
        let mut w = Writer { buf: out, len: 0 };
        match self {
            Packet::Hello(h) => {
                w.put(&[TAG_HELLO]);
                w.put(&h.nonce.to_le_bytes());
                w.put(&h.seen.to_le_bytes());
            }
            Packet::Frame(f) => {
                w.put(&[TAG_FRAME]);
                w.put(&f.match_id.to_le_bytes());
                w.put(&f.frame.to_le_bytes());
                w.put(&f.lead.to_le_bytes());
                w.put(&f.ack.to_le_bytes());
                w.put(&f.first.to_le_bytes());
                let inputs = f.inputs();
                w.put(&[inputs.len() as u8]);
                for i in inputs {
                    w.put(i);
                }
                match f.check {
                    Some((frame, hash)) => {
                        w.put(&[1]);
                        w.put(&frame.to_le_bytes());
                        w.put(&hash.to_le_bytes());
                    }
                    None => w.put(&[0]),
                }
            }
        }
        w.len
    }

    /// Parse a payload. `None` for anything that is not exactly one well-formed packet (unknown
    /// tag, short, long, a count above [`MAX_SEND`], a flag that is not 0 or 1, a zero nonce).
    pub fn decode(bytes: &[u8]) -> Option<Packet> {
        let mut r = Reader { bytes, at: 0 };
        let p = match r.u8()? {
            TAG_HELLO => {
                let nonce = r.u32()?;
                let seen = r.u32()?;
                if nonce == 0 {
                    return None;
                }
                Packet::Hello(Hello { nonce, seen })
            }
            TAG_FRAME => {
                let match_id = r.u32()?;
                let frame = r.u32()?;
                let lead = i16::from_le_bytes(r.take::<2>()?);
                let ack = r.u32()?;
                let first = r.u32()?;
                let count = r.u8()?;
                if usize::from(count) > MAX_SEND {
                    return None;
                }
                let mut inputs = [NEUTRAL_INPUT; MAX_SEND];
                for i in inputs.iter_mut().take(usize::from(count)) {
                    *i = r.take::<INPUT_BYTES>()?;
                }
                let check = match r.u8()? {
                    0 => None,
                    1 => Some((r.u32()?, u64::from_le_bytes(r.take::<8>()?))),
                    _ => return None,
                };
                Packet::Frame(FramePacket {
                    match_id,
                    frame,
                    lead,
                    ack,
                    first,
                    count,
                    inputs,
                    check,
                })
            }
            _ => return None,
        };
        (r.at == bytes.len()).then_some(p)
    }

    /// The whole frame for the wire (payload, CRC, COBS, closing zero) into `out`; returns its
    /// length.
    pub fn frame(&self, out: &mut [u8; MAX_FRAME]) -> usize {
        let mut raw = [0u8; MAX_PAYLOAD + 4];
        let mut payload = [0u8; MAX_PAYLOAD];
        let n = self.encode(&mut payload);
        raw[..n].copy_from_slice(&payload[..n]);
        raw[n..n + 4].copy_from_slice(&crc32(&payload[..n]).to_le_bytes());
        let len = cobs_encode(&raw[..n + 4], out);
        if let Some(z) = out.get_mut(len) {
            *z = 0;
        }
        len + 1
    }
}

/// COBS-encode `src` into `out` (no closing zero); returns the length. `out` must hold
/// `src.len() + src.len() / 254 + 1` bytes (bytes past its end are not written).
fn cobs_encode(src: &[u8], out: &mut [u8]) -> usize {
    let mut code_at = 0;
    let mut w = 1;
    let mut code = 1u8;
    let put = |i: usize, b: u8, out: &mut [u8]| {
        if let Some(s) = out.get_mut(i) {
            *s = b;
        }
    };
    for &b in src {
        if b != 0 {
            put(w, b, out);
            w += 1;
            code += 1;
        }
        if b == 0 || code == 0xff {
            put(code_at, code, out);
            code_at = w;
            w += 1;
            code = 1;
        }
    }
    put(code_at, code, out);
    w
}

/// COBS-decode `buf[..len]` in place; returns the decoded length, or `None` if malformed.
fn cobs_decode(buf: &mut [u8], len: usize) -> Option<usize> {
    let mut r = 0;
    let mut w = 0;
    while r < len {
        let code = *buf.get(r)?;
        if code == 0 {
            return None;
        }
        r += 1;
        for _ in 1..code {
            if r >= len {
                return None;
            }
            let b = buf[r];
            buf[w] = b;
            w += 1;
            r += 1;
        }
        if code != 0xff && r < len {
            buf[w] = 0;
            w += 1;
        }
    }
    Some(w)
}

/// What [`Deframer::push`] made of a byte.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Received {
    /// Nothing yet (inside a frame, or a stray zero).
    Nothing,
    /// A whole, checked packet.
    Packet(Packet),
    /// A frame ended that was too long, malformed, failed its CRC or its decoding: dropped.
    Dropped,
}

/// Collects bytes into frames and checks them. Fixed buffer of [`MAX_FRAME`] bytes: a frame longer
/// than that is dropped (its bytes ignored up to the next zero).
#[derive(Clone, Copy, Debug)]
pub struct Deframer {
    buf: [u8; MAX_FRAME],
    len: usize,
    overflow: bool,
}

impl Default for Deframer {
    fn default() -> Self {
        Self::new()
    }
}

impl Deframer {
    /// Empty, waiting for a frame.
    pub const fn new() -> Self {
        Deframer {
            buf: [0; MAX_FRAME],
            len: 0,
            overflow: false,
        }
    }

    /// Forget a partial frame (e.g. when a match ends).
    pub fn reset(&mut self) {
        self.len = 0;
        self.overflow = false;
    }

    /// One byte off the wire.
    pub fn push(&mut self, b: u8) -> Received {
        if b != 0 {
            match self.buf.get_mut(self.len) {
                Some(s) if !self.overflow => {
                    *s = b;
                    self.len += 1;
                }
                _ => self.overflow = true,
            }
            return Received::Nothing;
        }
        let (len, overflow) = (self.len, self.overflow);
        self.reset();
        if len == 0 && !overflow {
            return Received::Nothing;
        }
        if overflow {
            return Received::Dropped;
        }
        let Some(n) = cobs_decode(&mut self.buf, len) else {
            return Received::Dropped;
        };
        if n < 4 {
            return Received::Dropped;
        }
        let (payload, crc) = self.buf[..n].split_at(n - 4);
        if crc32(payload).to_le_bytes() != crc {
            return Received::Dropped;
        }
        match Packet::decode(payload) {
            Some(p) => Received::Packet(p),
            None => Received::Dropped,
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::rng::Pcg32;

    fn full_frame() -> Packet {
        let mut inputs = [NEUTRAL_INPUT; MAX_SEND];
        for (i, x) in inputs.iter_mut().enumerate() {
            *x = [i as u8, 0, 0xff];
        }
        Packet::Frame(FramePacket {
            match_id: 0xdead_beef,
            frame: 1234,
            lead: -3,
            ack: 1200,
            first: 1199,
            count: MAX_SEND as u8,
            inputs,
            check: Some((1140, 0x0123_4567_89ab_cdef)),
        })
    }

    fn feed(d: &mut Deframer, bytes: &[u8]) -> std::vec::Vec<Received> {
        bytes
            .iter()
            .map(|&b| d.push(b))
            .filter(|r| *r != Received::Nothing)
            .collect()
    }

    #[test]
    fn packets_round_trip_through_the_framing() {
        let hello = Packet::Hello(Hello {
            nonce: 7,
            seen: 0x0100_0000,
        });
        let mut small = full_frame();
        if let Packet::Frame(f) = &mut small {
            f.count = 0;
            f.inputs = [NEUTRAL_INPUT; MAX_SEND];
            f.check = None;
        }
        let mut d = Deframer::new();
        for p in [hello, full_frame(), small] {
            let mut out = [0u8; MAX_FRAME];
            let n = p.frame(&mut out);
            assert!(n <= MAX_FRAME);
            assert_eq!(out[n - 1], 0);
            assert!(!out[..n - 1].contains(&0), "COBS leaves no zero inside");
            assert_eq!(feed(&mut d, &out[..n]), [Received::Packet(p)]);
        }
        // The largest packet is exactly the stated capacity.
        let mut out = [0u8; MAX_FRAME];
        assert_eq!(full_frame().frame(&mut out), MAX_FRAME);
    }

    #[test]
    fn a_corrupted_or_partial_frame_is_dropped_and_the_next_one_is_read() {
        let p = full_frame();
        let mut out = [0u8; MAX_FRAME];
        let n = p.frame(&mut out);
        let mut rng = Pcg32::seeded(38);
        let mut d = Deframer::new();
        for _ in 0..2000 {
            let mut bad = out;
            // Flip one to three bits anywhere but the closing zero (a flipped zero would split
            // the frame, which is the partial case below).
            for _ in 0..=rng.below(3) {
                let i = rng.below(n as u32 - 1) as usize;
                bad[i] ^= 1 << rng.below(8);
            }
            let got = feed(&mut d, &bad[..n]);
            assert!(
                got.iter().all(|r| *r != Received::Packet(p)) || bad == out,
                "a corrupted frame was accepted"
            );
            assert!(got
                .iter()
                .all(|r| matches!(r, Received::Dropped | Received::Packet(_))));
            // The good frame right after it is read.
            assert_eq!(feed(&mut d, &out[..n]), [Received::Packet(p)]);
        }
        // A frame cut short (its tail and closing zero lost) runs into the next: the two are one
        // bad frame, dropped; the one after is read.
        let mut stream = std::vec::Vec::new();
        stream.extend_from_slice(&out[..n / 2]);
        stream.extend_from_slice(&out[..n]);
        stream.extend_from_slice(&out[..n]);
        assert_eq!(
            feed(&mut d, &stream),
            [Received::Dropped, Received::Packet(p)]
        );
        // Joining mid-frame: the tail is dropped, the next is read.
        assert_eq!(
            feed(&mut d, &out[n / 2..n]),
            [Received::Dropped],
            "a tail alone is not a packet"
        );
        // Garbage longer than any frame, then a frame.
        let junk = [0x55u8; 3 * MAX_FRAME];
        let mut stream = std::vec::Vec::from(junk);
        stream.push(0);
        stream.extend_from_slice(&out[..n]);
        assert_eq!(
            feed(&mut d, &stream),
            [Received::Dropped, Received::Packet(p)]
        );
    }

    #[test]
    fn decoding_is_total_and_strict() {
        let mut rng = Pcg32::seeded(3);
        for _ in 0..20_000 {
            let len = rng.below(MAX_PAYLOAD as u32 + 8) as usize;
            let mut b = [0u8; MAX_PAYLOAD + 8];
            for x in b.iter_mut().take(len) {
                *x = rng.next_u32() as u8;
            }
            if let Some(p) = Packet::decode(&b[..len]) {
                // Whatever decodes re-encodes to the same bytes.
                let mut out = [0u8; MAX_PAYLOAD];
                let n = p.encode(&mut out);
                assert_eq!(&out[..n], &b[..len]);
            }
        }
        let mut out = [0u8; MAX_PAYLOAD];
        let n = full_frame().encode(&mut out);
        assert!(Packet::decode(&out[..n - 1]).is_none(), "short");
        let mut long = [0u8; MAX_PAYLOAD + 1];
        long[..n].copy_from_slice(&out[..n]);
        assert!(Packet::decode(&long[..n + 1]).is_none(), "long");
        let mut many = out;
        many[19] = MAX_SEND as u8 + 1;
        assert!(Packet::decode(&many[..n]).is_none(), "count above capacity");
        assert!(
            Packet::decode(&[TAG_HELLO, 0, 0, 0, 0, 1, 0, 0, 0]).is_none(),
            "nonce 0"
        );
        assert_eq!(match_id(3, 9), match_id(9, 3));
        assert_ne!(match_id(3, 9), match_id(3, 10));
        assert_eq!(match_id(0, 0) & 1, 1);
    }
}
