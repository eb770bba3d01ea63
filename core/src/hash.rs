//! A 64-bit state hash over the *bit patterns* of simulation state.
//!
//! # Example
//!
//! ```
//! use hopkit::hash::{StateHash, StateHasher};
//! use hopkit::movement::MoverState;
//! use hopkit::math::Vec3;
//!
//! let hash = |s: &MoverState| {
//!     let mut h = StateHasher::new();
//!     s.hash_state(&mut h);
//!     h.finish()
//! };
//! let a = MoverState::new(Vec3::new(1.0, 0.0, 0.0));
//! let mut b = a;
//! assert_eq!(hash(&a), hash(&b));
//! b.velocity.x = -0.0; // bit patterns count: −0.0 differs from 0.0
//! assert_ne!(hash(&a), hash(&b));
//! assert_eq!(StateHasher::new().finish(), 0xcbf2_9ce4_8422_2325); // FNV-1a 64 offset basis
//! ```
//!
//! Used for replay desync detection and the cross-platform proof (`state-hash: 0x…` lines printed by
//! the host simulator, the firmware under QEMU, the C example and the wasm cart). The algorithm is
//! FNV-1a 64 over little-endian bytes, chosen because it is tiny, has no tables, and is trivial to
//! reimplement in C. Floats are hashed by `to_bits()`, so `0.0` and `-0.0` differ and any NaN
//! payload would show — exactly what a determinism check wants.

/// FNV-1a 64 offset basis.
pub const FNV_OFFSET: u64 = 0xcbf2_9ce4_8422_2325;
/// FNV-1a 64 prime.
pub const FNV_PRIME: u64 = 0x0000_0100_0000_01b3;

/// Incremental FNV-1a 64 hasher. Feed fields in a fixed, documented order.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StateHasher {
    state: u64,
}

impl Default for StateHasher {
    fn default() -> Self {
        Self::new()
    }
}

impl StateHasher {
    /// Fresh hasher at the FNV offset basis.
    #[inline]
    pub const fn new() -> Self {
        StateHasher { state: FNV_OFFSET }
    }
    /// Hash raw bytes.
    ///
    /// The `write_*` methods are deliberately not `#[inline]`: a state hash is taken once per
    /// check, not per operation, and a whole scene's `hash_state` inlines to ~2.8 KB of
    /// 64-bit multiplies on a 32-bit microcontroller.
    pub fn write_bytes(&mut self, bytes: &[u8]) {
        for &b in bytes {
            self.state ^= b as u64;
            self.state = self.state.wrapping_mul(FNV_PRIME);
        }
    }
    /// Hash one byte.
    pub fn write_u8(&mut self, v: u8) {
        self.write_bytes(&[v]);
    }
    /// Hash a bool as one byte (0 or 1).
    pub fn write_bool(&mut self, v: bool) {
        self.write_u8(v as u8);
    }
    /// Hash a `u16`, little-endian.
    pub fn write_u16(&mut self, v: u16) {
        self.write_bytes(&v.to_le_bytes());
    }
    /// Hash a `u32`, little-endian. (Never inlined: every `f32` goes through here, one copy keeps
    /// scene hashing small on microcontrollers.)
    #[inline(never)]
    pub fn write_u32(&mut self, v: u32) {
        self.write_bytes(&v.to_le_bytes());
    }
    /// Hash a `u64`, little-endian.
    pub fn write_u64(&mut self, v: u64) {
        self.write_bytes(&v.to_le_bytes());
    }
    /// Hash an `f32` by its bit pattern.
    pub fn write_f32(&mut self, v: f32) {
        self.write_u32(v.to_bits());
    }
    /// Hash a [`crate::math::Vec2`] as `x, y`.
    pub fn write_vec2(&mut self, v: crate::math::Vec2) {
        self.write_f32(v.x);
        self.write_f32(v.y);
    }
    /// Hash a [`crate::math::Vec3`] as `x, y, z`.
    pub fn write_vec3(&mut self, v: crate::math::Vec3) {
        self.write_f32(v.x);
        self.write_f32(v.y);
        self.write_f32(v.z);
    }
    /// Hash a [`crate::math::Quat`] as `x, y, z, w`.
    pub fn write_quat(&mut self, q: crate::math::Quat) {
        self.write_f32(q.x);
        self.write_f32(q.y);
        self.write_f32(q.z);
        self.write_f32(q.w);
    }
    /// The hash so far.
    #[inline]
    pub const fn finish(&self) -> u64 {
        self.state
    }
}

/// Types whose simulation state can be fed to a [`StateHasher`] in a fixed field order.
pub trait StateHash {
    /// Feed every field that affects future simulation, in declaration order.
    fn hash_state(&self, h: &mut StateHasher);

    /// Convenience: a fresh hasher over just `self`.
    fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        self.hash_state(&mut h);
        h.finish()
    }
}

/// Formats a hash the way every hopkit tool prints it: `state-hash: 0x<16 lowercase hex digits>`.
///
/// Writes into `out` (at least [`HASH_LINE_LEN`] bytes) without allocating and returns the used
/// prefix as `&str`; a shorter `out` gets as much of the line as fits.
pub fn format_hash_line(hash: u64, out: &mut [u8]) -> &str {
    const PREFIX: &[u8] = b"state-hash: 0x";
    const HEX: &[u8; 16] = b"0123456789abcdef";
    let mut line = [0u8; HASH_LINE_LEN];
    line[..PREFIX.len()].copy_from_slice(PREFIX);
    for i in 0..16 {
        let nibble = (hash >> (60 - 4 * i)) & 0xf;
        line[PREFIX.len() + i] = HEX[nibble as usize];
    }
    let n = out.len().min(HASH_LINE_LEN);
    out[..n].copy_from_slice(&line[..n]);
    // Every byte written is ASCII, so any prefix is valid UTF-8.
    core::str::from_utf8(&out[..n]).unwrap_or("")
}

/// Length of a `state-hash: 0x…` line without newline.
pub const HASH_LINE_LEN: usize = 14 + 16;

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn fnv1a_reference_vectors() {
        // Published FNV-1a 64 test vectors.
        let mut h = StateHasher::new();
        assert_eq!(h.finish(), 0xcbf29ce484222325);
        h.write_bytes(b"a");
        assert_eq!(h.finish(), 0xaf63dc4c8601ec8c);
        let mut h = StateHasher::new();
        h.write_bytes(b"foobar");
        assert_eq!(h.finish(), 0x85944171f73967e8);
    }

    #[test]
    fn floats_hash_by_bits() {
        let mut a = StateHasher::new();
        a.write_f32(0.0);
        let mut b = StateHasher::new();
        b.write_f32(-0.0);
        assert_ne!(a.finish(), b.finish());
    }

    #[test]
    fn hash_line_format() {
        let mut buf = [0u8; HASH_LINE_LEN];
        assert_eq!(
            format_hash_line(0x0123_4567_89ab_cdef, &mut buf),
            "state-hash: 0x0123456789abcdef"
        );
        let mut short = [0u8; 5];
        assert_eq!(format_hash_line(1, &mut short), "state");
    }
}
