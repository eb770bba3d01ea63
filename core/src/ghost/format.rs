//! The ghost recording file format (version 1): a 24-byte header, then 3-byte frames with optional
//! interleaved 4-byte state checksums. Decoding is zero-copy ([`Recording`]) or into a
//! caller-sized `heapless::Vec` ([`decode`]).
//!
//! # Specification
//!
//! All multi-byte integers are **little-endian**. Offsets are in bytes.
//!
//! ## Header (24 bytes)
//!
//! | offset | size | field | meaning |
//! |---|---|---|---|
//! | 0 | 4 | magic | ASCII `HKGH` (`48 4B 47 48`) |
//! | 4 | 2 | version | format version, `1`; anything else is refused |
//! | 6 | 2 | tick_hz | fixed simulation tick rate the frames were recorded at, `1..=10000` |
//! | 8 | 4 | frame_count | number of frames `F` |
//! | 12 | 2 | flags | bit 0 = state checksums present; bits 1–15 must be 0 |
//! | 14 | 2 | checksum_interval | `K` ticks between checksums, `≥ 1` if bit 0 is set, else `0` |
//! | 16 | 4 | condition_unit | `f32` bits: world units per Condition step, finite and `> 0` |
//! | 20 | 4 | crc32 | CRC-32 (IEEE) of bytes `24..end` followed by bytes `0..20` |
//!
//! The CRC covers the body *and* the header fields (only the CRC field itself is excluded). The
//! body comes first in the CRC input so that a recorder can keep a running CRC while it appends
//! frames and finish it in constant time.
//!
//! ## Body
//!
//! Without checksums: `F` frames of 3 bytes, frame `i` at offset `24 + 3·i`.
//!
//! With checksums (interval `K`): blocks of one 4-byte checksum followed by up to `K` frames:
//!
//! ```text
//! [check 0][frame 0 … frame K−1][check 1][frame K … frame 2K−1] … [check n−1][frames … F−1]
//! ```
//!
//! There are `n = ceil(F / K)` checksums. Checksum `j` is at offset `24 + j·(3K + 4)`, frame `i`
//! at `24 + 3·i + 4·(⌊i / K⌋ + 1)`. Checksum `j` is a 32-bit hash of the recorded pilot's
//! [`FlyerState`](super::flyer::FlyerState) *before* frame `j·K` was applied (see
//! [`state_check`]). Every frame still has a fixed position, so any frame can be read directly.
//!
//! Total length is exactly `24 + 3·F + 4·n`; shorter input is *truncated*, longer input has
//! *trailing bytes*; both are errors — except **padding**: up to [`MAX_PADDING`] (3) zero bytes
//! after the exact end are ignored when the recording without them is valid (length and CRC).
//! Storage kept in 4-byte groups adds them: WASM-4's web runtime keeps a cart's disk in
//! localStorage as Z85 text and reads a 790-byte recording back as 792 bytes. Every reader
//! ([`Recording::parse`], [`load`], [`decode`], [`for_each_frame`]) strips it the same way
//! ([`unpadded`]); any other extra byte is still an error.
//!
//! ## Frame (3 bytes)
//!
//! A little-endian 24-bit word `w`:
//!
//! | bits | field |
//! |---|---|
//! | 0 | fire (gun held) |
//! | 1 | missile (pressed this tick; an edge) |
//! | 2 | Toward held |
//! | 3 | Away held |
//! | 4–9 | pitch, 6-bit two's complement, `−32..=31`, steps of 1/31 of max pitch rate (+ = nose up) |
//! | 10–15 | yaw, 6-bit two's complement, `−32..=31`, steps of 1/31 of max yaw rate (+ = left) |
//! | 16–23 | Condition: distance to the nearest target in `condition_unit`s, rounded down, 0 = none |
//!
//! Every 24-bit value is a valid frame, and frames never refer to each other in version 1: no
//! cross-frame compression (the seed's advice), so playback may start anywhere and wrap from the
//! end to the start. (Version 2 compresses across frames and gets the same random access by
//! decoding once at load.)
//!
//! ## Version 2
//!
//! The same 24-byte header with `version = 2`; the body is one range-coded stream (frames predicted
//! from the frames before, and the state checksums as 32 raw bits before frame `j·K`) whose exact
//! length is the file's (after [`unpadded`]): see `core/src/ghost/codec.rs` and docs/recordings.md. Frames no longer have fixed
//! offsets, so a version 2 file is decoded once ([`load`] into the version 1 layout, [`decode`],
//! [`for_each_frame`]); [`Recording::parse`] reads version 1 only and refuses version 2 with
//! [`DecodeError::UnsupportedVersion`]. A version 2 file with 0 frames has an empty body.
//!
//! ## Decoding order
//!
//! length ≥ 24 → magic → version → exact length → CRC → header fields → caller's capacity. The
//! first failing check is reported as a [`DecodeError`]; nothing is returned on error, so a load is
//! never partial.

use super::crc::Crc32;
use super::frame::Frame;
use crate::math::target::SIZE_FIRST;

/// File magic, ASCII `HKGH`.
pub const MAGIC: [u8; 4] = *b"HKGH";
/// Format version 1: 3 bytes per frame, zero-copy ([`Recording::parse`]).
pub const FORMAT_VERSION: u16 = 1;
/// Format version 2: the same header, frames range-coded (`codec.rs`); loaded by [`load`]
/// or [`decode`], written by [`encode_v2`] or a [`Recorder::new_v2`](super::Recorder::new_v2).
pub const FORMAT_VERSION_2: u16 = 2;
/// Header length in bytes.
pub const HEADER_LEN: usize = 24;
/// Stored frame length in bytes.
pub const FRAME_LEN: usize = 3;
/// Stored state-checksum length in bytes.
pub const CHECKSUM_LEN: usize = 4;
/// Most zero bytes of padding after a recording's end that the readers ignore ([`unpadded`]):
/// storage in 4-byte groups adds up to 3.
pub const MAX_PADDING: usize = 3;
/// Header flag bit 0: state checksums are interleaved in the body.
pub const FLAG_CHECKSUMS: u16 = 1;
/// Most frames one Condition skip jumps ahead ([`Recording::toward_segment_end`]): bounded work
/// per ghost tick for any recording, valid or hostile.
pub const MAX_TOWARD_SKIP: u32 = 1024;

/// Highest tick rate a header may declare (matches [`crate::timestep::MAX_TICK_HZ`]).
pub const MAX_TICK_HZ: u16 = 10_000;

/// The parsed header of a recording.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Header {
    /// Format version: [`FORMAT_VERSION`] (1) or [`FORMAT_VERSION_2`] (2).
    pub version: u16,
    /// Tick rate in Hz the frames were recorded at; playback steps with `dt = 1 / tick_hz`.
    pub tick_hz: u16,
    /// Number of frames.
    pub frame_count: u32,
    /// Flag bits ([`FLAG_CHECKSUMS`]).
    pub flags: u16,
    /// Ticks between state checksums (0 = none).
    pub checksum_interval: u16,
    /// World units per Condition step.
    pub condition_unit: f32,
    /// The stored CRC-32.
    pub crc: u32,
}

/// The header fields a writer chooses (the rest follow from the frames).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct RecordingInfo {
    /// Fixed tick rate in Hz, `1..=10000`. Default 60.
    pub tick_hz: u16,
    /// Ticks between state checksums; 0 disables them. Default 60 (one per second at 60 Hz).
    pub checksum_interval: u16,
    /// World units per Condition step, finite and > 0. Default 0.5 (so 0..127.5 units, which
    /// spans the demo arena).
    pub condition_unit: f32,
}

impl Default for RecordingInfo {
    fn default() -> Self {
        RecordingInfo {
            tick_hz: 60,
            checksum_interval: 60,
            condition_unit: 0.5,
        }
    }
}

impl RecordingInfo {
    /// Check the fields; the first bad one is returned.
    pub fn validate(&self) -> Result<(), HeaderField> {
        if self.tick_hz == 0 || self.tick_hz > MAX_TICK_HZ {
            return Err(HeaderField::TickRate);
        }
        if !(self.condition_unit.is_finite() && self.condition_unit > 0.0) {
            return Err(HeaderField::ConditionUnit);
        }
        Ok(())
    }
}

/// Which header field holds an invalid value.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum HeaderField {
    /// `tick_hz` is 0 or above [`MAX_TICK_HZ`].
    TickRate,
    /// Unknown flag bits are set.
    Flags,
    /// Checksum flag and interval disagree (flag set with interval 0, or clear with interval ≠ 0).
    ChecksumInterval,
    /// `condition_unit` is not finite or not > 0.
    ConditionUnit,
}

/// Why a byte string is not a usable recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum DecodeError {
    /// The first four bytes are not [`MAGIC`].
    BadMagic,
    /// The version is neither 1 nor 2, or is 2 where only version 1 is read in place
    /// ([`Recording::parse`]; load a version 2 recording with [`load`] or [`decode`]).
    UnsupportedVersion {
        /// The version found.
        version: u16,
    },
    /// Fewer bytes than the header (or the header's frame count) requires.
    Truncated {
        /// Bytes required.
        expected: u64,
        /// Bytes given.
        found: usize,
    },
    /// More bytes than the header's frame count accounts for.
    TrailingBytes {
        /// Bytes expected.
        expected: u64,
        /// Bytes given.
        found: usize,
    },
    /// The CRC-32 does not match the content.
    CrcMismatch {
        /// CRC stored in the header.
        stored: u32,
        /// CRC computed over the bytes.
        computed: u32,
    },
    /// A header field holds an invalid value (CRC was valid: the writer produced it).
    InvalidHeader {
        /// Which field.
        field: HeaderField,
    },
    /// The recording has more frames than the caller's buffer holds.
    CapacityExceeded {
        /// Frames in the recording.
        frames: u32,
        /// Frames the caller can hold.
        capacity: usize,
    },
}

/// Why [`encode`] could not write a recording.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum EncodeError {
    /// The output buffer is too small.
    BufferTooSmall {
        /// Bytes needed.
        needed: usize,
        /// Bytes available.
        available: usize,
    },
    /// `checksums.len()` is not `ceil(frames / interval)` (or not 0 without checksums).
    ChecksumCount {
        /// Checksums required.
        expected: usize,
        /// Checksums given.
        found: usize,
    },
    /// More than `u32::MAX` frames.
    TooManyFrames,
    /// A [`RecordingInfo`] field is invalid.
    InvalidInfo {
        /// Which field.
        field: HeaderField,
    },
}

impl core::fmt::Display for HeaderField {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            HeaderField::TickRate => write!(f, "the tick rate is 0 or above {MAX_TICK_HZ} Hz"),
            HeaderField::Flags => f.write_str("unknown flag bits are set"),
            HeaderField::ChecksumInterval => {
                f.write_str("the checksum flag and the checksum interval disagree")
            }
            HeaderField::ConditionUnit => {
                f.write_str("the condition unit is not a finite number > 0")
            }
        }
    }
}

/// One line a person can read, CRCs in hex, e.g.
/// `damaged: its CRC-32 is 0x0badf00d but the header says 0x1234abcd`.
impl core::fmt::Display for DecodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            DecodeError::BadMagic => {
                f.write_str("not a hopkit ghost recording (it does not start with \"HKGH\")")
            }
            DecodeError::UnsupportedVersion { version: FORMAT_VERSION_2 } => f.write_str(
                "format version 2 is compressed: it cannot be read in place, decode it first (ghost::load)"
            ),
            DecodeError::UnsupportedVersion { version } => write!(
                f,
                "format version {version} is not supported (this build reads versions 1 and 2)"
            ),
            DecodeError::Truncated { expected, found } => {
                write!(f, "truncated: {found} bytes, the header calls for {expected}")
            }
            DecodeError::TrailingBytes { expected, found } => write!(
                f,
                "{found} bytes where the header calls for {expected}: extra bytes after the recording"
            ),
            DecodeError::CrcMismatch { stored, computed } => write!(
                f,
                "damaged: its CRC-32 is {computed:#010x} but the header says {stored:#010x}"
            ),
            DecodeError::InvalidHeader { field } => write!(f, "invalid header: {field}"),
            DecodeError::CapacityExceeded { frames, capacity } => write!(
                f,
                "{frames} frames, more than the {capacity} the caller's buffer can hold"
            ),
        }
    }
}

impl core::fmt::Display for EncodeError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match *self {
            EncodeError::BufferTooSmall { needed, available } => write!(
                f,
                "output buffer too small: {needed} bytes needed, {available} available"
            ),
            EncodeError::ChecksumCount { expected, found } => {
                write!(f, "{found} state checksums given, {expected} required")
            }
            EncodeError::TooManyFrames => f.write_str("more than 4294967295 frames"),
            EncodeError::InvalidInfo { field } => write!(f, "invalid recording settings: {field}"),
        }
    }
}

#[cfg(test)]
mod display_tests {
    use super::*;

    #[test]
    fn errors_read_as_one_line_with_hex_crcs() {
        let e = DecodeError::CrcMismatch {
            stored: 0x1234_abcd,
            computed: 0xbad,
        };
        assert_eq!(
            e.to_string(),
            "damaged: its CRC-32 is 0x00000bad but the header says 0x1234abcd"
        );
        let e = DecodeError::InvalidHeader {
            field: HeaderField::TickRate,
        };
        assert_eq!(
            e.to_string(),
            "invalid header: the tick rate is 0 or above 10000 Hz"
        );
        for e in [
            DecodeError::BadMagic,
            DecodeError::UnsupportedVersion { version: 9 },
            DecodeError::Truncated {
                expected: 30,
                found: 3,
            },
            DecodeError::TrailingBytes {
                expected: 30,
                found: 31,
            },
            DecodeError::CapacityExceeded {
                frames: 9,
                capacity: 8,
            },
        ] {
            let s = e.to_string();
            assert!(!s.contains('{') && !s.contains('\n'), "{s}");
        }
        let e = EncodeError::BufferTooSmall {
            needed: 10,
            available: 4,
        };
        assert_eq!(
            e.to_string(),
            "output buffer too small: 10 bytes needed, 4 available"
        );
    }
}

/// Number of state checksums for `frames` frames at `interval` (0 = none): `ceil(frames / interval)`.
pub const fn checksum_count(frames: u64, interval: u16) -> u64 {
    if interval == 0 {
        0
    } else {
        frames.div_ceil(interval as u64)
    }
}

/// Exact encoded length in bytes of a recording with `frames` frames and checksum `interval`.
///
/// A `const fn`, so it can size a buffer: `Recorder::<{ recording_size(1800, 60) }>`.
pub const fn recording_size(frames: usize, interval: u16) -> usize {
    HEADER_LEN
        + FRAME_LEN * frames
        + CHECKSUM_LEN * checksum_count(frames as u64, interval) as usize
}

fn encoded_len_u64(frames: u64, interval: u16) -> u64 {
    HEADER_LEN as u64
        + FRAME_LEN as u64 * frames
        + CHECKSUM_LEN as u64 * checksum_count(frames, interval)
}

/// Byte offset of frame `i` in a recording with checksum `interval` (0 = none).
#[inline]
pub const fn frame_offset(i: u32, interval: u16) -> usize {
    let blocks = if interval == 0 {
        0
    } else {
        i as usize / interval as usize + 1
    };
    // Wrapping: only meaningful for offsets inside a validated recording, never panics.
    HEADER_LEN
        .wrapping_add(FRAME_LEN.wrapping_mul(i as usize))
        .wrapping_add(CHECKSUM_LEN.wrapping_mul(blocks))
}

/// `i % n` for `n > 0`, without the division when `i < n` already (cursors usually are; an
/// integer division is a library call on the Cortex-M0).
#[inline]
pub(crate) fn mod_index(i: u32, n: u32) -> u32 {
    if i < n {
        i
    } else {
        i % n
    }
}

/// Byte offset of checksum `j` (interval `≥ 1`).
#[inline]
pub const fn checksum_offset(j: u32, interval: u16) -> usize {
    HEADER_LEN.wrapping_add((j as usize).wrapping_mul(FRAME_LEN * interval as usize + CHECKSUM_LEN))
}

/// Fold a 64-bit [`StateHash`](crate::hash::StateHash) to the 32-bit value stored in recordings:
/// `(h ^ (h >> 32)) as u32`.
#[inline]
pub const fn fold_hash(h: u64) -> u32 {
    (h ^ (h >> 32)) as u32
}

/// The 32-bit state check stored in recordings for a pilot state.
#[inline]
pub fn state_check(state: &super::flyer::FlyerState) -> u32 {
    use crate::hash::StateHash;
    fold_hash(state.state_hash())
}

fn read_u16(b: &[u8], at: usize) -> u16 {
    match b.get(at..at + 2) {
        Some(s) => u16::from_le_bytes([s[0], s[1]]),
        None => 0,
    }
}

fn read_u32(b: &[u8], at: usize) -> u32 {
    match b.get(at..at + 4) {
        Some(s) => u32::from_le_bytes([s[0], s[1], s[2], s[3]]),
        None => 0,
    }
}

/// Copy `src` into `dst` at `at` (as much as fits): a copy that cannot panic, so the link-time
/// panic check (firmware/src/bin/panic-check.rs) holds for the writers that use it. Not
/// `#[inline]`: one copy under LTO, inlined where LLVM sees fit (the WASM-4 cart had two, 282 B).
pub(crate) fn put_bytes(dst: &mut [u8], at: usize, src: &[u8]) {
    if let Some(d) = dst.get_mut(at..) {
        for (d, s) in d.iter_mut().zip(src) {
            *d = *s;
        }
    }
}

/// Write the 20 header bytes before the CRC into `out[0..20]` (`out` at least 20 bytes).
pub(crate) fn write_header_fields_v(
    out: &mut [u8],
    info: &RecordingInfo,
    frame_count: u32,
    version: u16,
) {
    if out.len() < HEADER_LEN - 4 {
        return;
    }
    let flags = if info.checksum_interval > 0 {
        FLAG_CHECKSUMS
    } else {
        0
    };
    put_bytes(out, 0, &MAGIC);
    put_bytes(out, 4, &version.to_le_bytes());
    put_bytes(out, 6, &info.tick_hz.to_le_bytes());
    put_bytes(out, 8, &frame_count.to_le_bytes());
    put_bytes(out, 12, &flags.to_le_bytes());
    put_bytes(out, 14, &info.checksum_interval.to_le_bytes());
    put_bytes(out, 16, &info.condition_unit.to_bits().to_le_bytes());
}

/// Encode a recording into `out`; returns the number of bytes written.
///
/// `checksums` must hold exactly `ceil(frames.len() / info.checksum_interval)` values (none if the
/// interval is 0): checksum `j` is the [`state_check`] of the pilot before frame `j·K`.
/// Nothing is written on error.
pub fn encode(
    info: &RecordingInfo,
    frames: &[Frame],
    checksums: &[u32],
    out: &mut [u8],
) -> Result<usize, EncodeError> {
    let count = check_encode_args(info, frames, checksums)?;
    let k = info.checksum_interval;
    let needed = encoded_len_u64(count as u64, k);
    let needed = usize::try_from(needed).map_err(|_| EncodeError::TooManyFrames)?;
    if out.len() < needed {
        return Err(EncodeError::BufferTooSmall {
            needed,
            available: out.len(),
        });
    }
    let Some(out) = out.get_mut(..needed) else {
        return Err(EncodeError::BufferTooSmall {
            needed,
            available: out.len(),
        });
    };
    let mut at = HEADER_LEN;
    let mut checks = checksums.iter();
    for (i, f) in frames.iter().enumerate() {
        if k > 0 && i % k as usize == 0 {
            // `checksums.len()` was checked above: there is one per interval.
            let c = checks.next().copied().unwrap_or(0);
            put_bytes(out, at, &c.to_le_bytes());
            at = at.saturating_add(CHECKSUM_LEN);
        }
        put_bytes(out, at, &f.pack());
        at = at.saturating_add(FRAME_LEN);
    }
    seal(out, info, count, FORMAT_VERSION);
    Ok(needed)
}

/// The encoders' one check of their arguments ([`encode`], [`encode_v2`]), in this order: the
/// info's fields, the frame count (at most `u32::MAX`), the number of checksums. Returns the
/// frame count.
fn check_encode_args(
    info: &RecordingInfo,
    frames: &[Frame],
    checksums: &[u32],
) -> Result<u32, EncodeError> {
    info.validate()
        .map_err(|field| EncodeError::InvalidInfo { field })?;
    let count = u32::try_from(frames.len()).map_err(|_| EncodeError::TooManyFrames)?;
    let expected = checksum_count(count as u64, info.checksum_interval) as usize;
    if checksums.len() != expected {
        return Err(EncodeError::ChecksumCount {
            expected,
            found: checksums.len(),
        });
    }
    Ok(count)
}

/// Every writer's last step: the header fields of `version`, then the CRC over `out` (the whole
/// file, its body already written).
fn seal(out: &mut [u8], info: &RecordingInfo, frame_count: u32, version: u16) {
    write_header_fields_v(out, info, frame_count, version);
    let crc = crc_of(out);
    put_bytes(out, 20, &crc.to_le_bytes());
}

/// CRC as the spec defines it: bytes `24..` then bytes `0..20`.
fn crc_of(bytes: &[u8]) -> u32 {
    let mut c = Crc32::new();
    c.update(bytes.get(HEADER_LEN..).unwrap_or(&[]));
    c.update(bytes.get(..HEADER_LEN - 4).unwrap_or(&[]));
    c.finish()
}

/// `bytes` without the zero padding storage in 4-byte groups may have added after the recording's
/// end: the longest of `bytes` and `bytes` cut by 1 to [`MAX_PADDING`] trailing **zero** bytes
/// whose CRC-32 is the header's — else `bytes` unchanged, so that every error (a damaged file, a
/// wrong length, a fourth zero) is the one the bytes as given produce. The readers then check the
/// rest (version 1: the exact length; version 2: the stream ends exactly there). Free for bytes
/// that do not end in a zero; else one CRC pass per candidate length (at most 4). Out of line:
/// one copy for every reader (the WASM-4 cart counts its bytes).
#[inline(never)]
pub fn unpadded(bytes: &[u8]) -> &[u8] {
    if bytes.last() != Some(&0) || bytes.len() <= HEADER_LEN {
        return bytes;
    }
    // The stored CRC only: the readers check the magic, the version and the fields after.
    let stored = read_u32(bytes, 20);
    let mut cut = bytes;
    for _ in 0..=MAX_PADDING {
        if crc_of(cut) == stored {
            return cut;
        }
        match cut.split_last() {
            Some((0, rest)) if rest.len() >= HEADER_LEN => cut = rest,
            _ => break,
        }
    }
    bytes
}

/// A validated, zero-copy view of a recording in a byte slice, with random access to frames.
///
/// Created only by [`Recording::parse`], which checks everything (length, CRC, header) up front,
/// so every accessor afterwards is infallible and cheap.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Recording<'a> {
    bytes: &'a [u8],
    header: Header,
}

impl<'a> Recording<'a> {
    /// Validate `bytes` as a recording (see the decoding order in the module docs; padding is
    /// ignored: [`unpadded`]). Allocation-free; runs the CRC over the whole input once (twice
    /// for a padded one).
    pub fn parse(bytes: &'a [u8]) -> Result<Recording<'a>, DecodeError> {
        Self::parse_exact(unpadded(bytes))
    }

    /// [`Recording::parse`] of bytes already [`unpadded`] (the readers strip the padding once,
    /// at their entry).
    fn parse_exact(bytes: &'a [u8]) -> Result<Recording<'a>, DecodeError> {
        let header = read_header(bytes)?;
        if header.version != FORMAT_VERSION {
            return Err(DecodeError::UnsupportedVersion {
                version: header.version,
            });
        }
        Self::check_v1(bytes, header)
    }

    /// The checks of a version 1 file after its [`read_header`]: the exact length, then the CRC
    /// and the fields ([`check_crc_and_fields`]).
    fn check_v1(bytes: &'a [u8], header: Header) -> Result<Recording<'a>, DecodeError> {
        // The layout only depends on the interval when the flag says checksums are present.
        let layout_k = if header.flags & FLAG_CHECKSUMS != 0 {
            header.checksum_interval
        } else {
            0
        };
        let expected = encoded_len_u64(header.frame_count as u64, layout_k);
        if (bytes.len() as u64) < expected {
            return Err(DecodeError::Truncated {
                expected,
                found: bytes.len(),
            });
        }
        if (bytes.len() as u64) > expected {
            return Err(DecodeError::TrailingBytes {
                expected,
                found: bytes.len(),
            });
        }
        check_crc_and_fields(bytes, &header)?;
        Ok(Recording { bytes, header })
    }

    /// The header.
    #[inline]
    pub fn header(&self) -> &Header {
        &self.header
    }

    /// The validated bytes.
    #[inline]
    pub fn as_bytes(&self) -> &'a [u8] {
        self.bytes
    }

    /// Number of frames.
    #[inline]
    pub fn frame_count(&self) -> u32 {
        self.header.frame_count
    }

    /// True if there are no frames.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.header.frame_count == 0
    }

    /// Tick rate in Hz.
    #[inline]
    pub fn tick_hz(&self) -> u16 {
        self.header.tick_hz
    }

    /// Tick length in seconds (`1 / tick_hz`).
    #[inline]
    pub fn tick_dt(&self) -> f32 {
        1.0 / self.header.tick_hz as f32
    }

    /// World units per Condition step.
    #[inline]
    pub fn condition_unit(&self) -> f32 {
        self.header.condition_unit
    }

    /// The distance a Condition value stands for: `condition · condition_unit`.
    #[inline]
    pub(crate) fn condition_distance(&self, condition: u8) -> f32 {
        condition as f32 * self.header.condition_unit
    }

    /// Ticks between state checksums (0 = none).
    #[inline]
    pub fn checksum_interval(&self) -> u16 {
        self.header.checksum_interval
    }

    /// Frame `i`, or `None` past the end.
    #[inline]
    pub fn frame(&self, i: u32) -> Option<Frame> {
        if i >= self.header.frame_count {
            return None;
        }
        let at = frame_offset(i, self.header.checksum_interval);
        self.bytes
            .get(at..at.wrapping_add(FRAME_LEN))
            .and_then(|s| Some(Frame::unpack([*s.first()?, *s.get(1)?, *s.get(2)?])))
    }

    /// Frame `i mod frame_count` (looping); [`Frame::NEUTRAL`] for an empty recording.
    #[inline]
    pub fn frame_looped(&self, i: u32) -> Frame {
        match self.header.frame_count {
            0 => Frame::NEUTRAL,
            n => {
                // `self.frame(mod_index(i, n))` (in range by construction), one slice test.
                let at = frame_offset(mod_index(i, n), self.header.checksum_interval);
                match self.bytes.get(at..at.wrapping_add(FRAME_LEN)) {
                    Some(&[a, b, c]) => Frame::unpack([a, b, c]),
                    _ => Frame::NEUTRAL,
                }
            }
        }
    }

    /// The index after `i`, wrapping from the last frame to 0 (0 for an empty recording).
    #[inline]
    pub(crate) fn next_index(&self, i: u32) -> u32 {
        let n = self.header.frame_count;
        match i.checked_add(1) {
            Some(next) if next < n => next,
            _ => 0,
        }
    }

    /// Last frame index of the Toward segment containing frame `i`: walks forward (wrapping) while
    /// the next frame still holds Toward, at most [`MAX_TOWARD_SKIP`] frames (and never more than
    /// `frame_count − 1`). Returns `i` if frame `i` is the segment's last frame or does not hold
    /// Toward. The bound makes a ghost tick O(1) whatever a recording holds: a Toward segment
    /// longer than the bound (17 s at 60 Hz; no human holds Toward that long) is crossed in
    /// several skips, one per tick while the Condition still holds.
    pub fn toward_segment_end(&self, i: u32) -> u32 {
        let n = self.header.frame_count;
        if n == 0 {
            return 0;
        }
        let mut at = mod_index(i, n);
        if !self.frame_looped(at).toward {
            return at;
        }
        for _ in 1..n.min(MAX_TOWARD_SKIP + 1) {
            let next = self.next_index(at);
            if !self.frame_looped(next).toward {
                break;
            }
            at = next;
        }
        at
    }

    /// Number of stored state checksums.
    #[inline]
    pub fn checksum_count(&self) -> u32 {
        checksum_count(
            self.header.frame_count as u64,
            self.header.checksum_interval,
        ) as u32
    }

    /// Checksum `j`, or `None` if there is none.
    #[inline]
    pub fn checksum(&self, j: u32) -> Option<u32> {
        if j >= self.checksum_count() {
            return None;
        }
        let at = checksum_offset(j, self.header.checksum_interval);
        self.bytes
            .get(at..at + CHECKSUM_LEN)
            .map(|s| u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
    }

    /// The stored state check for the pilot *before* frame `tick`, if `tick` is a checksum tick
    /// (a multiple of the interval, below the frame count).
    #[inline]
    pub fn checksum_before(&self, tick: u32) -> Option<u32> {
        let k = self.header.checksum_interval;
        if k == 0 || tick % k as u32 != 0 || tick >= self.header.frame_count {
            return None;
        }
        self.checksum(tick / k as u32)
    }

    /// All frames in order.
    pub fn frames(&self) -> impl Iterator<Item = Frame> + 'a {
        let r = *self;
        (0..r.header.frame_count).map(move |i| r.frame(i).unwrap_or(Frame::NEUTRAL))
    }

    /// All state checksums in order.
    pub fn checksums(&self) -> impl Iterator<Item = u32> + 'a {
        let r = *self;
        (0..r.checksum_count()).map(move |j| r.checksum(j).unwrap_or(0))
    }

    /// The settable header fields, for re-encoding.
    pub fn info(&self) -> RecordingInfo {
        RecordingInfo {
            tick_hz: self.header.tick_hz,
            checksum_interval: self.header.checksum_interval,
            condition_unit: self.header.condition_unit,
        }
    }

    /// Copy the frames into `out` (cleared first). Fails with
    /// [`DecodeError::CapacityExceeded`] — leaving `out` empty — if they do not fit.
    pub fn decode_into<const N: usize>(
        &self,
        out: &mut heapless::Vec<Frame, N>,
    ) -> Result<(), DecodeError> {
        out.clear();
        if self.header.frame_count as u64 > N as u64 {
            return Err(DecodeError::CapacityExceeded {
                frames: self.header.frame_count,
                capacity: N,
            });
        }
        for f in self.frames() {
            if out.push(f).is_err() {
                out.clear();
                return Err(DecodeError::CapacityExceeded {
                    frames: self.header.frame_count,
                    capacity: N,
                });
            }
        }
        Ok(())
    }
}

fn validate_header(h: &Header) -> Result<(), HeaderField> {
    if h.tick_hz == 0 || h.tick_hz > MAX_TICK_HZ {
        return Err(HeaderField::TickRate);
    }
    if h.flags & !FLAG_CHECKSUMS != 0 {
        return Err(HeaderField::Flags);
    }
    let has = h.flags & FLAG_CHECKSUMS != 0;
    if has != (h.checksum_interval != 0) {
        return Err(HeaderField::ChecksumInterval);
    }
    if !(h.condition_unit.is_finite() && h.condition_unit > 0.0) {
        return Err(HeaderField::ConditionUnit);
    }
    Ok(())
}

/// Validate `bytes` and copy its frames into `out` (cleared first); returns the header.
///
/// Every failure is a typed [`DecodeError`] and leaves `out` empty: never a partial load.
pub fn decode<const N: usize>(
    bytes: &[u8],
    out: &mut heapless::Vec<Frame, N>,
) -> Result<Header, DecodeError> {
    out.clear();
    let (header, body) = match check(unpadded(bytes))? {
        Checked::V1(r) => {
            r.decode_into(out)?;
            return Ok(r.header);
        }
        Checked::V2(header, body) => (header, body),
    };
    if header.frame_count as u64 > N as u64 {
        return Err(DecodeError::CapacityExceeded {
            frames: header.frame_count,
            capacity: N,
        });
    }
    let r = decode_v2_body(&header, body, |item| {
        if let V2Item::Frame(_, w) = item {
            // Capacity was checked: every push fits.
            let _ = out.push(Frame::unpack([w as u8, (w >> 8) as u8, (w >> 16) as u8]));
        }
    });
    if let Err(e) = r {
        out.clear();
        return Err(e);
    }
    Ok(header)
}

// ---------------------------------------------------------------------------------------------
// Version 2
// ---------------------------------------------------------------------------------------------

/// The header fields of a recording of either version, checking only length ≥ 24, the magic and
/// the version (1 or 2): **not** the CRC nor the fields — for tools that must know the version
/// and frame count before decoding (e.g. to size a buffer for [`load`]). Decode with [`load`] /
/// [`decode`] / [`Recording::parse`], which check everything.
pub fn peek_header(bytes: &[u8]) -> Result<Header, DecodeError> {
    read_header(bytes)
}

/// The one reader of the header, and the first checks of every reader in the order the module
/// docs give: length ≥ 24, the magic, the version (1 or 2); then the header's fields as stored
/// (neither the CRC nor the fields are checked here: [`check_crc_and_fields`]).
fn read_header(bytes: &[u8]) -> Result<Header, DecodeError> {
    if bytes.len() < HEADER_LEN {
        return Err(DecodeError::Truncated {
            expected: HEADER_LEN as u64,
            found: bytes.len(),
        });
    }
    if bytes.get(0..4) != Some(&MAGIC[..]) {
        return Err(DecodeError::BadMagic);
    }
    let version = read_u16(bytes, 4);
    if version != FORMAT_VERSION && version != FORMAT_VERSION_2 {
        return Err(DecodeError::UnsupportedVersion { version });
    }
    Ok(Header {
        version,
        tick_hz: read_u16(bytes, 6),
        frame_count: read_u32(bytes, 8),
        flags: read_u16(bytes, 12),
        checksum_interval: read_u16(bytes, 14),
        condition_unit: f32::from_bits(read_u32(bytes, 16)),
        crc: read_u32(bytes, 20),
    })
}

/// The last checks every version shares: the CRC, then the header's fields.
fn check_crc_and_fields(bytes: &[u8], header: &Header) -> Result<(), DecodeError> {
    let computed = crc_of(bytes);
    if computed != header.crc {
        return Err(DecodeError::CrcMismatch {
            stored: header.crc,
            computed,
        });
    }
    validate_header(header).map_err(|field| DecodeError::InvalidHeader { field })
}

/// A file of either version after every check that comes before decoding.
enum Checked<'a> {
    /// Version 1: the checked zero-copy view.
    V1(Recording<'a>),
    /// Version 2: its header (CRC and fields checked) and its coded body, whose exact length is
    /// only known once decoded ([`decode_v2_body`]).
    V2(Header, &'a [u8]),
}

/// Every decoding reader's checks ([`decode`], [`for_each_frame`], [`load`]) in the order of the
/// module docs, the header read once: [`read_header`], then version 1's exact length, the CRC and
/// the fields. The bytes must be [`unpadded`] already.
fn check(bytes: &[u8]) -> Result<Checked<'_>, DecodeError> {
    let header = read_header(bytes)?;
    if header.version == FORMAT_VERSION {
        return Recording::check_v1(bytes, header).map(Checked::V1);
    }
    check_crc_and_fields(bytes, &header)?;
    Ok(Checked::V2(header, bytes.get(HEADER_LEN..).unwrap_or(&[])))
}

/// One decoded item of a version 2 body.
enum V2Item {
    /// A state checksum.
    Check(u32),
    /// Frame `i`, as its stored 24-bit word ([`Frame::pack`]'s bytes, little-endian).
    Frame(u32, u32),
}

/// Decode a version 2 body, calling `on_item` for every checksum and frame in file order. Work is `O(frame_count)` (the caller bounds `frame_count` by its
/// buffer first); the stream must end exactly at the end of `body`.
fn decode_v2_body(
    header: &Header,
    body: &[u8],
    mut on_item: impl FnMut(V2Item),
) -> Result<(), DecodeError> {
    let k = if header.flags & FLAG_CHECKSUMS != 0 {
        header.checksum_interval as u32
    } else {
        0
    };
    if header.frame_count == 0 {
        // No frames, no stream (not even the coder's flush).
        return if body.is_empty() {
            Ok(())
        } else {
            Err(DecodeError::TrailingBytes {
                expected: HEADER_LEN as u64,
                found: HEADER_LEN.saturating_add(body.len()),
            })
        };
    }
    let mut dec = super::range::Decoder::new(body);
    let mut model = super::codec::FrameModel::new();
    // Without checksums the next one is "never" (`i < frame_count ≤ u32::MAX`).
    let mut next_check = if k > 0 { 0 } else { u32::MAX };
    // A stream that ran far past its end is cut short (after the frame that read past `limit`)
    // rather than decoded on zeros.
    let limit = body.len().saturating_add(8);
    let n = header.frame_count;
    let mut i = 0u32;
    if SIZE_FIRST {
        // The smaller form (the WASM-4 cart): one frame at a time, the same frames.
        while i < n {
            if i == next_check {
                on_item(V2Item::Check(dec.direct(32)));
                next_check = next_check.saturating_add(k);
            }
            on_item(V2Item::Frame(i, model.decode_word(&mut dec)));
            i = i.wrapping_add(1);
            if dec.consumed() > limit {
                break;
            }
        }
    }
    // The frames between two checksums in one loop (`FrameModel::decode_frames`).
    while !SIZE_FIRST && i < n {
        if i == next_check {
            on_item(V2Item::Check(dec.direct(32)));
            next_check = next_check.saturating_add(k);
        }
        // `i < next_check` (k ≥ 1, or "never") and `i < n`: at least one frame.
        i = model.decode_frames(&mut dec, i, next_check.min(n), limit, |i, w| {
            on_item(V2Item::Frame(i, w));
        });
        if dec.consumed() > limit {
            break;
        }
    }
    let used = dec.consumed();
    let expected = (HEADER_LEN as u64).saturating_add(used as u64);
    let found = HEADER_LEN.saturating_add(body.len());
    if used > body.len() {
        Err(DecodeError::Truncated { expected, found })
    } else if used < body.len() {
        Err(DecodeError::TrailingBytes { expected, found })
    } else {
        Ok(())
    }
}

/// Decode a recording of either version frame by frame without a buffer: `on_frame(i, frame)`
/// for every frame in order (state checksums are skipped). Everything [`decode`] checks is checked,
/// but for version 2 the stream's exact length is only known at its end, so frames may have been
/// reported before a [`DecodeError::Truncated`] / [`DecodeError::TrailingBytes`]: use the frames
/// only on `Ok`. Work is proportional to the header's frame count, and a version 2 stream is cut
/// short once it has read 8 bytes past its end.
pub fn for_each_frame(
    bytes: &[u8],
    mut on_frame: impl FnMut(u32, Frame),
) -> Result<Header, DecodeError> {
    match check(unpadded(bytes))? {
        Checked::V1(r) => {
            for i in 0..r.frame_count() {
                on_frame(i, r.frame(i).unwrap_or(Frame::NEUTRAL));
            }
            Ok(r.header)
        }
        Checked::V2(header, body) => {
            decode_v2_body(&header, body, |item| {
                if let V2Item::Frame(i, w) = item {
                    on_frame(i, Frame::unpack([w as u8, (w >> 8) as u8, (w >> 16) as u8]));
                }
            })?;
            Ok(header)
        }
    }
}

/// Bytes [`load`] needs in its scratch buffer for a recording of `frames` frames with checksum
/// `interval`: the version 1 layout, [`recording_size`] (5,544 bytes for the 30 s demo; 3 bytes a
/// frame plus 4 per checksum plus the 24-byte header).
pub const fn load_scratch_size(frames: usize, interval: u16) -> usize {
    recording_size(frames, interval)
}

/// A usable [`Recording`] from the bytes of either version.
///
/// - Version 1 is viewed in place: `scratch` is not touched (zero-copy, as [`Recording::parse`]).
/// - Version 2 is decoded into `scratch` in the version 1 layout (frame `i` at its fixed offset),
///   so playback keeps its random access — Condition skips, loops, start offsets — at no cost per
///   tick. **RAM cost:** [`load_scratch_size`] bytes, 3 per frame (+ 4 per checksum + 24). The
///   view's [`Recording::header`] is the version 2 header (version 2, its CRC); its
///   [`Recording::as_bytes`] is the expanded image after that header, whose CRC is not recomputed
///   (use [`to_v1`] for a version 1 file).
///
/// Errors as [`decode`]; a `scratch` too small for a version 2 recording is
/// [`DecodeError::CapacityExceeded`] with `capacity` = the frames it could hold at 3 bytes each.
/// Decoding is bounded by `scratch`: at most `scratch.len() / 3` frames are decoded.
pub fn load<'a>(bytes: &'a [u8], scratch: &'a mut [u8]) -> Result<Recording<'a>, DecodeError> {
    let bytes = unpadded(bytes);
    let (header, body) = match check(bytes)? {
        Checked::V1(r) => return Ok(r),
        Checked::V2(header, body) => (header, body),
    };
    let k = if header.flags & FLAG_CHECKSUMS != 0 {
        header.checksum_interval
    } else {
        0
    };
    let needed = encoded_len_u64(header.frame_count as u64, k);
    if needed > scratch.len() as u64 {
        return Err(DecodeError::CapacityExceeded {
            frames: header.frame_count,
            capacity: scratch.len().saturating_sub(HEADER_LEN) / FRAME_LEN,
        });
    }
    let image: &mut [u8] = scratch;
    // The version 1 layout is the items in file order (each checksum before its block of
    // frames), so the write position just advances: no per-frame offset (a division on the
    // Cortex-M0). `needed ≤ image.len()` was checked, so the writes land.
    let mut at = HEADER_LEN;
    decode_v2_body(&header, body, |item| match item {
        V2Item::Check(c) => {
            put_bytes(image, at, &c.to_le_bytes());
            at = at.saturating_add(CHECKSUM_LEN);
        }
        V2Item::Frame(_, w) => {
            if let Some([b0, b1, b2]) = image.get_mut(at..at.saturating_add(FRAME_LEN)) {
                [*b0, *b1, *b2] = [w as u8, (w >> 8) as u8, (w >> 16) as u8];
            }
            at = at.saturating_add(FRAME_LEN);
        }
    })?;
    put_bytes(image, 0, bytes.get(..HEADER_LEN).unwrap_or(&[]));
    let len = needed as usize;
    let image: &'a [u8] = image;
    Ok(Recording {
        bytes: image.get(..len).unwrap_or(&[]),
        header,
    })
}

/// Check the arguments and range-code the body into `out[24..]`; returns the file length.
fn v2_body(
    info: &RecordingInfo,
    frames: &[Frame],
    checksums: &[u32],
    out: &mut [u8],
) -> Result<usize, EncodeError> {
    let count = check_encode_args(info, frames, checksums)?;
    let k = info.checksum_interval;
    let available = out.len();
    let mut sink = super::range::Sink {
        buf: out.get_mut(HEADER_LEN..).unwrap_or(&mut []),
        pos: 0,
    };
    let mut enc = super::range::Encoder::new();
    let mut model = super::codec::FrameModel::new();
    let mut checks = checksums.iter();
    for (i, f) in frames.iter().enumerate() {
        if k > 0 && i % k as usize == 0 {
            enc.direct(checks.next().copied().unwrap_or(0), 32, &mut sink);
        }
        model.encode(f, &mut enc, &mut sink);
    }
    if count > 0 {
        enc.flush(&mut sink);
    }
    let needed = HEADER_LEN.saturating_add(sink.pos);
    if sink.overflowed() || available < HEADER_LEN {
        return Err(EncodeError::BufferTooSmall { needed, available });
    }
    Ok(needed)
}

/// Encode a version 2 recording into `out`; returns the number of bytes written. Arguments and
/// errors as [`encode`] (on [`EncodeError::BufferTooSmall`] `needed` is exact); the header is
/// the version 1 header with version 2, the body the range-coded frames and checksums
/// (`codec.rs`).
pub fn encode_v2(
    info: &RecordingInfo,
    frames: &[Frame],
    checksums: &[u32],
    out: &mut [u8],
) -> Result<usize, EncodeError> {
    let len = v2_body(info, frames, checksums, out)?;
    let out = out.get_mut(..len).unwrap_or(&mut []);
    seal(out, info, frames.len() as u32, FORMAT_VERSION_2);
    Ok(len)
}

/// Rewrite a recording of either version as a version 1 file into `out` (exactly
/// [`recording_size`] bytes); returns the length. For tools: `hopkit-sim info`, the corpus table.
pub fn to_v1(bytes: &[u8], out: &mut [u8]) -> Result<usize, DecodeError> {
    let (info, n, len, copy) = match load(bytes, out) {
        Ok(rec) => (
            rec.info(),
            rec.frame_count(),
            rec.as_bytes().len(),
            rec.header().version == FORMAT_VERSION,
        ),
        Err(e) => return Err(e),
    };
    if copy {
        if out.len() < len {
            return Err(DecodeError::CapacityExceeded {
                frames: n,
                capacity: out.len().saturating_sub(HEADER_LEN) / FRAME_LEN,
            });
        }
        put_bytes(out, 0, bytes);
        return Ok(len);
    }
    let out = out.get_mut(..len).unwrap_or(&mut []);
    seal(out, &info, n, FORMAT_VERSION);
    Ok(len)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn frame_looped_is_frame_of_the_index_mod_n() {
        let bytes = crate::ghost::test_recording_bytes();
        let rec = Recording::parse(&bytes).unwrap();
        let n = rec.frame_count();
        for i in (0..3 * n).chain([u32::MAX - 1, u32::MAX]) {
            assert_eq!(rec.frame_looped(i), rec.frame(i % n).unwrap(), "{i}");
        }
    }

    fn frames(n: usize) -> heapless::Vec<Frame, 64> {
        (0..n)
            .map(|i| Frame {
                pitch: (i as i8 % 63) - 31,
                yaw: 31 - (i as i8 % 40),
                fire: i % 2 == 0,
                missile: i % 7 == 0,
                toward: i % 5 < 2,
                away: i % 11 == 3,
                condition: (i * 13) as u8,
            })
            .collect()
    }

    #[test]
    fn offsets_match_layout() {
        assert_eq!(frame_offset(0, 0), 24);
        assert_eq!(frame_offset(5, 0), 39);
        assert_eq!(checksum_offset(0, 4), 24);
        assert_eq!(frame_offset(0, 4), 28);
        assert_eq!(frame_offset(3, 4), 37);
        assert_eq!(checksum_offset(1, 4), 40);
        assert_eq!(frame_offset(4, 4), 44);
        assert_eq!(recording_size(10, 4), 24 + 30 + 12);
        assert_eq!(recording_size(0, 4), 24);
    }

    #[test]
    fn encode_decode_identity_with_and_without_checksums() {
        for k in [0u16, 1, 4, 7, 60] {
            for n in [0usize, 1, 4, 5, 33] {
                let fs = frames(n);
                let checks: heapless::Vec<u32, 64> = (0..checksum_count(n as u64, k))
                    .map(|j| 0x1234_5678u32.wrapping_mul(j as u32 + 1))
                    .collect();
                let info = RecordingInfo {
                    tick_hz: 60,
                    checksum_interval: k,
                    condition_unit: 0.5,
                };
                let mut buf = [0u8; 512];
                let len = encode(&info, &fs, &checks, &mut buf).unwrap();
                assert_eq!(len, recording_size(n, k));
                let r = Recording::parse(&buf[..len]).unwrap();
                assert_eq!(r.info(), info);
                assert!(r.frames().eq(fs.iter().copied()));
                assert!(r.checksums().eq(checks.iter().copied()));
                let mut out: heapless::Vec<Frame, 64> = heapless::Vec::new();
                let h = decode(&buf[..len], &mut out).unwrap();
                assert_eq!(h.frame_count as usize, n);
                assert_eq!(out, fs);
            }
        }
    }

    /// Version 1 and 2 recordings of every length mod 4, as a store in 4-byte groups reads them
    /// back (zeros up to a multiple of 4), and with 1..=3 zeros added: every reader loads the
    /// same recording; a fourth zero, a non-zero byte or a damaged padded file is refused with
    /// the error the bytes as given produce.
    #[test]
    fn up_to_three_zero_bytes_of_padding_are_ignored() {
        let mut lengths_mod_4 = [false; 4];
        for n in [1usize, 2, 3, 4, 5, 9, 17, 33, 40] {
            let fs = frames(n);
            let info = RecordingInfo {
                tick_hz: 60,
                checksum_interval: 4,
                condition_unit: 0.5,
            };
            let checks: heapless::Vec<u32, 64> = (0..checksum_count(n as u64, 4))
                .map(|j| 0x9e37_79b9u32.wrapping_mul(j as u32 + 3))
                .collect();
            let mut v1 = [0u8; 512];
            let len1 = encode(&info, &fs, &checks, &mut v1).unwrap();
            let mut v2 = [0u8; 512];
            let len2 = encode_v2(&info, &fs, &checks, &mut v2).unwrap();
            for exact in [&v1[..len1], &v2[..len2]] {
                lengths_mod_4[exact.len() % 4] = true;
                let mut scratch = [0u8; 512];
                let want = load(exact, &mut scratch)
                    .unwrap()
                    .frames()
                    .collect::<std::vec::Vec<_>>();
                assert_eq!(want.len(), n);
                for pad in 1..=MAX_PADDING {
                    let mut padded = exact.to_vec();
                    padded.resize(exact.len() + pad, 0);
                    assert_eq!(unpadded(&padded), exact, "{pad} zeros");
                    let mut scratch = [0u8; 512];
                    let rec = load(&padded, &mut scratch).unwrap();
                    assert!(rec.frames().eq(want.iter().copied()));
                    let mut out: heapless::Vec<Frame, 64> = heapless::Vec::new();
                    decode(&padded, &mut out).unwrap();
                    assert_eq!(&out[..], &want[..]);
                    let mut m = 0;
                    for_each_frame(&padded, |_, _| m += 1).unwrap();
                    assert_eq!(m, n);
                    if exact == &v1[..len1] {
                        assert_eq!(Recording::parse(&padded).unwrap().as_bytes(), exact);
                    }
                    // A non-zero last byte is not padding: the error of the bytes as given.
                    let mut bad = padded.clone();
                    *bad.last_mut().unwrap() = 1;
                    assert_eq!(unpadded(&bad), &bad[..]);
                    assert!(decode(&bad, &mut out).is_err());
                    // A damaged body stays damaged, padded or not.
                    let mut hurt = padded.clone();
                    hurt[HEADER_LEN] ^= 0x40;
                    assert_eq!(unpadded(&hurt), &hurt[..]);
                    assert!(matches!(
                        decode(&hurt, &mut out),
                        Err(DecodeError::CrcMismatch { .. } | DecodeError::TrailingBytes { .. })
                    ));
                }
                // Four zeros are more than padding.
                let mut four = exact.to_vec();
                four.resize(exact.len() + 4, 0);
                assert_eq!(unpadded(&four), &four[..]);
                let mut out: heapless::Vec<Frame, 64> = heapless::Vec::new();
                assert!(decode(&four, &mut out).is_err());
            }
            // The version 1 error for 4 zeros is still the trailing bytes.
            let mut four = v1[..len1].to_vec();
            four.resize(len1 + 4, 0);
            assert!(matches!(
                Recording::parse(&four),
                Err(DecodeError::TrailingBytes { .. })
            ));
        }
        assert_eq!(lengths_mod_4, [true; 4], "every length mod 4 covered");
        // Short or headerless input is returned as it is.
        for b in [&[][..], &[0u8; 3][..], &[0u8; 30][..], &b"HKGH\x01\x00"[..]] {
            assert_eq!(unpadded(b), b);
        }
    }

    #[test]
    fn encode_rejects_bad_arguments() {
        let fs = frames(5);
        let mut buf = [0u8; 64];
        let info = RecordingInfo {
            checksum_interval: 2,
            ..RecordingInfo::default()
        };
        assert_eq!(
            encode(&info, &fs, &[1, 2], &mut buf),
            Err(EncodeError::ChecksumCount {
                expected: 3,
                found: 2
            })
        );
        assert_eq!(
            encode(&info, &fs, &[1, 2, 3], &mut buf[..20]),
            Err(EncodeError::BufferTooSmall {
                needed: 24 + 15 + 12,
                available: 20
            })
        );
        let bad = RecordingInfo { tick_hz: 0, ..info };
        assert_eq!(
            encode(&bad, &fs, &[1, 2, 3], &mut buf),
            Err(EncodeError::InvalidInfo {
                field: HeaderField::TickRate
            })
        );
    }
}
