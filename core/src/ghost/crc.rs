//! CRC-32 (IEEE 802.3, the zlib/PNG/Ethernet one) with a 16-entry nibble table.
//!
//! Parameters: reflected polynomial `0xEDB88320`, initial value `0xFFFFFFFF`, final XOR
//! `0xFFFFFFFF`, input and output reflected. Check value: `crc32(b"123456789") == 0xCBF43926`.
//!
//! The 16-entry table (64 bytes of flash) processes one nibble per lookup: about twice the work of a
//! 256-entry table but a sixteenth of its size, which suits microcontrollers; a recording is checked
//! once when it is loaded, not every tick.

/// `crc · x^4 mod P` for each nibble value, reflected (`0xEDB88320`). A `static`, not a `const`:
/// one table in an image (a `const` is copied into each crate that inlines `update`; the WASM-4
/// cart had two tables and two `update`s differing only in the table's address).
static NIBBLE_TABLE: [u32; 16] = make_table();

const fn make_table() -> [u32; 16] {
    let mut table = [0u32; 16];
    let mut i = 0;
    while i < 16 {
        let mut c = i as u32;
        let mut k = 0;
        while k < 4 {
            c = if c & 1 != 0 {
                (c >> 1) ^ 0xEDB8_8320
            } else {
                c >> 1
            };
            k += 1;
        }
        table[i] = c;
        i += 1;
    }
    table
}

/// Incremental CRC-32 (IEEE). Feed bytes with [`Crc32::update`], read with [`Crc32::finish`].
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Crc32 {
    /// Running register (pre-inverted).
    state: u32,
}

impl Default for Crc32 {
    fn default() -> Self {
        Self::new()
    }
}

impl Crc32 {
    /// A fresh CRC (register `0xFFFFFFFF`).
    #[inline]
    pub const fn new() -> Self {
        Crc32 { state: 0xFFFF_FFFF }
    }

    /// Feed `bytes`.
    #[inline]
    pub fn update(&mut self, bytes: &[u8]) {
        let mut c = self.state;
        for &b in bytes {
            c ^= b as u32;
            c = (c >> 4) ^ NIBBLE_TABLE[(c & 0xF) as usize];
            c = (c >> 4) ^ NIBBLE_TABLE[(c & 0xF) as usize];
        }
        self.state = c;
    }

    /// The CRC of everything fed so far (does not reset; more bytes may follow).
    #[inline]
    pub const fn finish(&self) -> u32 {
        !self.state
    }
}

/// CRC-32 (IEEE) of `bytes` in one call.
pub fn crc32(bytes: &[u8]) -> u32 {
    let mut c = Crc32::new();
    c.update(bytes);
    c.finish()
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn standard_check_value() {
        assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
        assert_eq!(crc32(b""), 0);
        // zlib.crc32(b"The quick brown fox jumps over the lazy dog")
        assert_eq!(
            crc32(b"The quick brown fox jumps over the lazy dog"),
            0x414F_A339
        );
    }

    #[test]
    fn incremental_equals_one_shot() {
        let data = b"hopkit ghost recording";
        let mut c = Crc32::new();
        c.update(&data[..5]);
        c.update(&data[5..]);
        assert_eq!(c.finish(), crc32(data));
    }

    #[test]
    fn table_matches_bitwise_definition() {
        // Bit-at-a-time reference over every single byte value.
        for b in 0u32..256 {
            let mut c = 0xFFFF_FFFFu32 ^ b;
            for _ in 0..8 {
                c = if c & 1 != 0 {
                    (c >> 1) ^ 0xEDB8_8320
                } else {
                    c >> 1
                };
            }
            assert_eq!(crc32(&[b as u8]), !c);
        }
    }
}
