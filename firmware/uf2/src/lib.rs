//! ELF → UF2 for the RP2040 board image: what `elf2uf2` does, as a small host library and the
//! `hopkit-uf2` binary, with no dependencies.
//!
//! # What is read
//! [`elf_to_uf2`] takes an ELF file that must be
//! - 32-bit (`EI_CLASS` = 1), little-endian (`EI_DATA` = 1), `EI_VERSION` = 1, an executable
//!   (`e_type` = `ET_EXEC`, 2) for ARM (`e_machine` = `EM_ARM`, 40);
//! - with a program header table of `e_phnum` (not `PN_XNUM`) entries of `e_phentsize` ≥ 32
//!   bytes at `e_phoff`, inside the file.
//!
//! Every `PT_LOAD` (1) segment with `p_filesz` > 0 is taken: its `p_filesz` bytes at `p_offset`
//! (inside the file) are placed at its **physical** address `p_paddr` (the load address: `.data`
//! is linked to run in RAM, `p_vaddr`, but stored in flash after the code, `p_paddr`). The bytes
//! between `p_filesz` and `p_memsz` (`.bss`) are not part of the image. Every placed byte must lie
//! inside the target's flash range (RP2040: [`RP2040_FLASH`], `0x1000_0000..0x1100_0000`); two
//! segments may not place the same byte; at least one byte must be placed. Section headers are
//! not read. Every offset and size is checked before use: malformed input is an [`Error`], never
//! a panic.
//!
//! # What is written
//! A UF2 file (Microsoft's USB Flashing Format) is a sequence of 512-byte blocks, all fields
//! little-endian `u32`:
//!
//! | offset | field | value written here |
//! |---|---|---|
//! | 0 | magic start 0 | [`MAGIC_START0`] `0x0A32_4655` ("UF2\n") |
//! | 4 | magic start 1 | [`MAGIC_START1`] `0x9E5D_5157` |
//! | 8 | flags | [`FLAG_FAMILY_ID_PRESENT`] `0x0000_2000` |
//! | 12 | target address | the flash address of the payload (a multiple of 256) |
//! | 16 | payload size | [`PAYLOAD_SIZE`], 256 |
//! | 20 | block number | 0, 1, 2, … |
//! | 24 | number of blocks | the total number of blocks in the file |
//! | 28 | family ID | the `family` argument (RP2040: [`RP2040_FAMILY_ID`] `0xE48B_FF56`) |
//! | 32 | data | 476 bytes: the 256-byte payload, then zeros |
//! | 508 | magic end | [`MAGIC_END`] `0x0AB1_6F30` |
//!
//! One block is written for every 256-byte-aligned flash page that holds at least one segment
//! byte, in ascending address order (pages holding no byte are not written, so the flash there
//! keeps its old contents). Bytes of a written page that no segment covers are `0x00`, as
//! `elf2uf2` writes them.
//!
//! [`uf2_to_flash`] reads such a file back into one flash image (tests, checks).

#![forbid(unsafe_code)]
#![deny(missing_docs)]

use std::collections::BTreeMap;
use std::fmt;
use std::ops::Range;

/// First magic number of a UF2 block (offset 0).
pub const MAGIC_START0: u32 = 0x0A32_4655;
/// Second magic number of a UF2 block (offset 4).
pub const MAGIC_START1: u32 = 0x9E5D_5157;
/// Final magic number of a UF2 block (offset 508).
pub const MAGIC_END: u32 = 0x0AB1_6F30;
/// Block flag: the block is not for the main flash (readers skip it).
pub const FLAG_NOT_MAIN_FLASH: u32 = 0x0000_0001;
/// Block flag: file container (offset 28 is a file size, not a family ID).
pub const FLAG_FILE_CONTAINER: u32 = 0x0000_1000;
/// Block flag: offset 28 holds the family ID.
pub const FLAG_FAMILY_ID_PRESENT: u32 = 0x0000_2000;
/// Bytes of one UF2 block.
pub const BLOCK_SIZE: usize = 512;
/// Bytes of the data field of a block.
pub const DATA_SIZE: usize = 476;
/// Payload bytes per block written here (one flash page).
pub const PAYLOAD_SIZE: u32 = 256;
/// UF2 family ID of the RP2040.
pub const RP2040_FAMILY_ID: u32 = 0xE48B_FF56;
/// The RP2040's flash window (XIP, 16 MiB at most): where an image's bytes may go.
pub const RP2040_FLASH: Range<u32> = 0x1000_0000..0x1100_0000;
/// Largest address span [`uf2_to_flash`] assembles into one image (16 MiB).
pub const MAX_IMAGE_SPAN: u32 = 0x0100_0000;

const PAGE: u32 = PAYLOAD_SIZE;
const ELF_HEADER_SIZE: usize = 52;
const PHDR_SIZE: usize = 32;
const ET_EXEC: u16 = 2;
const EM_ARM: u16 = 40;
const PT_LOAD: u32 = 1;
const PN_XNUM: u16 = 0xffff;

/// Why an ELF file could not be converted.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Error {
    /// The file ends before a structure it must hold.
    Truncated {
        /// What was being read.
        what: &'static str,
        /// Bytes needed up to the end of it.
        needed: u64,
        /// Bytes in the file.
        len: usize,
    },
    /// The file does not start with `\x7fELF`.
    NotElf,
    /// An ELF the converter does not take (wrong class, byte order, type, machine, …).
    Unsupported(String),
    /// A loadable segment's file bytes lie (partly) outside the file.
    SegmentOutsideFile {
        /// Index of the program header.
        index: usize,
        /// `p_offset`.
        offset: u32,
        /// `p_filesz`.
        size: u32,
        /// Bytes in the file.
        len: usize,
    },
    /// A loadable segment's bytes would go (partly) outside the flash range.
    OutsideFlash {
        /// Index of the program header.
        index: usize,
        /// First address (`p_paddr`).
        start: u32,
        /// One past the last address (may exceed `u32`).
        end: u64,
        /// The flash range.
        flash: Range<u32>,
    },
    /// Two loadable segments place bytes at the same address.
    Overlap {
        /// Index of the earlier program header.
        first: usize,
        /// Index of the later program header.
        second: usize,
        /// An address both cover.
        at: u32,
    },
    /// No `PT_LOAD` segment with file bytes.
    NoLoadableData,
    /// The flash range given is empty.
    EmptyFlashRange,
}

impl fmt::Display for Error {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            Error::Truncated { what, needed, len } => write!(
                f,
                "truncated ELF: the {what} needs {needed} bytes, the file has {len}"
            ),
            Error::NotElf => f.write_str("not an ELF file (no \\x7fELF magic)"),
            Error::Unsupported(why) => write!(f, "unsupported ELF: {why}"),
            Error::SegmentOutsideFile {
                index,
                offset,
                size,
                len,
            } => write!(
                f,
                "segment {index}: file bytes {offset:#x}+{size:#x} lie outside the file ({len} bytes)"
            ),
            Error::OutsideFlash {
                index,
                start,
                end,
                flash,
            } => write!(
                f,
                "segment {index}: load address {start:#010x}..{end:#010x} is outside flash {:#010x}..{:#010x}",
                flash.start, flash.end
            ),
            Error::Overlap { first, second, at } => {
                write!(f, "segments {first} and {second} both load address {at:#010x}")
            }
            Error::NoLoadableData => f.write_str("no PT_LOAD segment with file bytes"),
            Error::EmptyFlashRange => f.write_str("the flash range is empty"),
        }
    }
}

impl std::error::Error for Error {}

/// Little-endian `u16` at `off` (the caller has checked the bounds of the whole structure).
fn u16_at(b: &[u8], off: usize) -> Option<u16> {
    let s = b.get(off..off.checked_add(2)?)?;
    Some(u16::from_le_bytes([s[0], s[1]]))
}

/// Little-endian `u32` at `off`.
fn u32_at(b: &[u8], off: usize) -> Option<u32> {
    let s = b.get(off..off.checked_add(4)?)?;
    Some(u32::from_le_bytes([s[0], s[1], s[2], s[3]]))
}

/// One loadable segment: its program header index, load address and file bytes.
#[derive(Clone, Copy, Debug)]
struct Segment<'a> {
    index: usize,
    paddr: u32,
    bytes: &'a [u8],
}

/// The loadable segments of `elf` (checked as the module docs say), sorted by load address.
fn load_segments<'a>(elf: &'a [u8], flash: &Range<u32>) -> Result<Vec<Segment<'a>>, Error> {
    let truncated = |what, needed: u64| Error::Truncated {
        what,
        needed,
        len: elf.len(),
    };
    if elf.len() < 4 || &elf[..4] != b"\x7fELF" {
        return if elf.len() < 4 && b"\x7fELF".starts_with(elf) {
            Err(truncated("ELF header", ELF_HEADER_SIZE as u64))
        } else {
            Err(Error::NotElf)
        };
    }
    if elf.len() < ELF_HEADER_SIZE {
        return Err(truncated("ELF header", ELF_HEADER_SIZE as u64));
    }
    let unsupported = |s: String| Err(Error::Unsupported(s));
    if elf[4] != 1 {
        return unsupported(format!("class {} (only 32-bit, 1, is taken)", elf[4]));
    }
    if elf[5] != 1 {
        return unsupported(format!(
            "data encoding {} (only little-endian, 1, is taken)",
            elf[5]
        ));
    }
    if elf[6] != 1 {
        return unsupported(format!("ELF version {}", elf[6]));
    }
    // The header is 52 bytes long (checked above), so these reads cannot fail.
    let h16 = |off| u16_at(elf, off).unwrap_or(0);
    let h32 = |off| u32_at(elf, off).unwrap_or(0);
    let (e_type, e_machine) = (h16(16), h16(18));
    if e_type != ET_EXEC {
        return unsupported(format!("type {e_type} (only executables, ET_EXEC = 2)"));
    }
    if e_machine != EM_ARM {
        return unsupported(format!("machine {e_machine} (only ARM, EM_ARM = 40)"));
    }
    let phoff = h32(28);
    let phentsize = h16(42);
    let phnum = h16(44);
    if phnum == PN_XNUM {
        return unsupported("more than 65534 program headers (PN_XNUM)".into());
    }
    if phnum == 0 {
        return Err(Error::NoLoadableData);
    }
    if usize::from(phentsize) < PHDR_SIZE {
        return unsupported(format!(
            "program header entry size {phentsize} (at least {PHDR_SIZE})"
        ));
    }
    let table_end = u64::from(phoff) + u64::from(phentsize) * u64::from(phnum);
    if table_end > elf.len() as u64 {
        return Err(truncated("program header table", table_end));
    }
    if flash.start >= flash.end {
        return Err(Error::EmptyFlashRange);
    }
    let mut segs = Vec::new();
    for index in 0..usize::from(phnum) {
        // In bounds: the whole table was checked against the file length above.
        let base = phoff as usize + index * usize::from(phentsize);
        let field = |i: usize| u32_at(elf, base + 4 * i).unwrap_or(0);
        let (p_type, offset, paddr, filesz) = (field(0), field(1), field(3), field(4));
        if p_type != PT_LOAD || filesz == 0 {
            continue;
        }
        let file_end = u64::from(offset) + u64::from(filesz);
        if file_end > elf.len() as u64 {
            return Err(Error::SegmentOutsideFile {
                index,
                offset,
                size: filesz,
                len: elf.len(),
            });
        }
        let end = u64::from(paddr) + u64::from(filesz);
        if paddr < flash.start || end > u64::from(flash.end) {
            return Err(Error::OutsideFlash {
                index,
                start: paddr,
                end,
                flash: flash.clone(),
            });
        }
        segs.push(Segment {
            index,
            paddr,
            bytes: &elf[offset as usize..file_end as usize],
        });
    }
    if segs.is_empty() {
        return Err(Error::NoLoadableData);
    }
    segs.sort_by_key(|s| (s.paddr, s.index));
    for w in segs.windows(2) {
        let (a, b) = (w[0], w[1]);
        // Both ends fit in u32 + 1: they were checked against the flash range.
        if u64::from(a.paddr) + a.bytes.len() as u64 > u64::from(b.paddr) {
            let (first, second) = (a.index.min(b.index), a.index.max(b.index));
            return Err(Error::Overlap {
                first,
                second,
                at: b.paddr,
            });
        }
    }
    Ok(segs)
}

/// The flash pages (address → 256 bytes) holding the segments of `elf`.
fn pages(elf: &[u8], flash: &Range<u32>) -> Result<BTreeMap<u32, [u8; PAGE as usize]>, Error> {
    let mut pages: BTreeMap<u32, [u8; PAGE as usize]> = BTreeMap::new();
    for seg in load_segments(elf, flash)? {
        let mut addr = seg.paddr;
        let mut rest = seg.bytes;
        while !rest.is_empty() {
            let page = addr & !(PAGE - 1);
            let at = (addr - page) as usize;
            let n = rest.len().min(PAGE as usize - at);
            let buf = pages.entry(page).or_insert([0; PAGE as usize]);
            buf[at..at + n].copy_from_slice(&rest[..n]);
            rest = &rest[n..];
            // Cannot overflow past u32: the segment ends at or below flash.end.
            addr = addr.wrapping_add(n as u32);
        }
    }
    Ok(pages)
}

/// Convert the ELF executable `elf` into a UF2 file for the family `family`, every byte inside
/// `flash` (see the module docs for what is taken and written).
///
/// ```
/// # use hopkit_uf2::*;
/// assert_eq!(elf_to_uf2(b"MZ", RP2040_FAMILY_ID, RP2040_FLASH), Err(Error::NotElf));
/// ```
pub fn elf_to_uf2(elf: &[u8], family: u32, flash: Range<u32>) -> Result<Vec<u8>, Error> {
    let pages = pages(elf, &flash)?;
    // At most 2^24 pages (a 32-bit address space of 256-byte pages): fits in u32.
    let total = pages.len() as u32;
    let mut out = Vec::with_capacity(pages.len() * BLOCK_SIZE);
    for (number, (addr, data)) in pages.iter().enumerate() {
        let mut block = [0u8; BLOCK_SIZE];
        let words = [
            MAGIC_START0,
            MAGIC_START1,
            FLAG_FAMILY_ID_PRESENT,
            *addr,
            PAYLOAD_SIZE,
            number as u32,
            total,
            family,
        ];
        for (i, w) in words.iter().enumerate() {
            block[4 * i..4 * i + 4].copy_from_slice(&w.to_le_bytes());
        }
        block[32..32 + PAGE as usize].copy_from_slice(data);
        block[508..512].copy_from_slice(&MAGIC_END.to_le_bytes());
        out.extend_from_slice(&block);
    }
    Ok(out)
}

/// A UF2 file read back by [`uf2_to_flash`].
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct FlashImage {
    /// Lowest address written.
    pub base: u32,
    /// Bytes from `base` to the end of the highest block; bytes no block wrote are `0x00`.
    pub image: Vec<u8>,
    /// The family ID of the blocks (`None` if they carry none).
    pub family: Option<u32>,
    /// Blocks in the file (including any skipped as not for the main flash).
    pub blocks: u32,
    /// Bytes the blocks wrote (the sum of their payload sizes).
    pub payload_bytes: u64,
}

impl FlashImage {
    /// One past the last address of the image.
    pub fn end(&self) -> u64 {
        u64::from(self.base) + self.image.len() as u64
    }
}

/// Why a UF2 file could not be read.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum ReadError {
    /// The length is not a positive multiple of 512.
    Length(usize),
    /// Block `block` is malformed: `what`.
    Block {
        /// Block index in the file.
        block: usize,
        /// What is wrong.
        what: String,
    },
    /// The blocks span more than [`MAX_IMAGE_SPAN`] bytes.
    TooWide {
        /// Lowest address.
        base: u32,
        /// One past the highest.
        end: u64,
    },
}

impl fmt::Display for ReadError {
    fn fmt(&self, f: &mut fmt::Formatter<'_>) -> fmt::Result {
        match self {
            ReadError::Length(n) => write!(
                f,
                "a UF2 file is a positive multiple of {BLOCK_SIZE} bytes, this one has {n}"
            ),
            ReadError::Block { block, what } => write!(f, "UF2 block {block}: {what}"),
            ReadError::TooWide { base, end } => write!(
                f,
                "the blocks span {base:#010x}..{end:#010x}, more than {MAX_IMAGE_SPAN} bytes"
            ),
        }
    }
}

impl std::error::Error for ReadError {}

/// Read a UF2 file back into a flash image.
///
/// Every block must have the three magic numbers, no file-container flag, a payload of at most
/// 476 bytes, its own index as block number, the same total (the file's block count) and the same
/// family ID (or none) as the others; no two blocks may write the same address. Blocks flagged
/// "not main flash" are counted but not placed.
pub fn uf2_to_flash(uf2: &[u8]) -> Result<FlashImage, ReadError> {
    if uf2.is_empty() || uf2.len() % BLOCK_SIZE != 0 {
        return Err(ReadError::Length(uf2.len()));
    }
    let count = uf2.len() / BLOCK_SIZE;
    let mut placed: Vec<(u32, &[u8], usize)> = Vec::new();
    let mut family: Option<Option<u32>> = None;
    for (i, block) in uf2.chunks_exact(BLOCK_SIZE).enumerate() {
        let bad = |what: String| ReadError::Block { block: i, what };
        let w = |off| u32_at(block, off).unwrap_or(0);
        if w(0) != MAGIC_START0 || w(4) != MAGIC_START1 || w(508) != MAGIC_END {
            return Err(bad("bad magic numbers".into()));
        }
        let flags = w(8);
        if flags & FLAG_FILE_CONTAINER != 0 {
            return Err(bad("file container blocks are not flash images".into()));
        }
        let (addr, size, number, total) = (w(12), w(16), w(20), w(24));
        if number as usize != i {
            return Err(bad(format!("block number {number}, expected {i}")));
        }
        if total as usize != count {
            return Err(bad(format!(
                "says {total} blocks in all, the file has {count}"
            )));
        }
        let fam = (flags & FLAG_FAMILY_ID_PRESENT != 0).then(|| w(28));
        match family {
            None => family = Some(fam),
            Some(f) if f != fam => {
                return Err(bad(format!("family {fam:x?}, block 0 has {f:x?}")));
            }
            Some(_) => {}
        }
        if size as usize > DATA_SIZE {
            return Err(bad(format!("payload size {size} > {DATA_SIZE}")));
        }
        if u64::from(addr) + u64::from(size) > 1 << 32 {
            return Err(bad(format!("payload {addr:#x}+{size} passes 4 GiB")));
        }
        if flags & FLAG_NOT_MAIN_FLASH == 0 && size > 0 {
            placed.push((addr, &block[32..32 + size as usize], i));
        }
    }
    placed.sort_by_key(|p| p.0);
    for w in placed.windows(2) {
        if u64::from(w[0].0) + w[0].1.len() as u64 > u64::from(w[1].0) {
            return Err(ReadError::Block {
                block: w[1].2.max(w[0].2),
                what: format!("overlaps block {}", w[1].2.min(w[0].2)),
            });
        }
    }
    let base = placed.first().map_or(0, |p| p.0);
    let end = placed
        .last()
        .map_or(u64::from(base), |p| u64::from(p.0) + p.1.len() as u64);
    if end - u64::from(base) > u64::from(MAX_IMAGE_SPAN) {
        return Err(ReadError::TooWide { base, end });
    }
    let mut image = vec![0u8; (end - u64::from(base)) as usize];
    let mut payload_bytes = 0u64;
    for (addr, data, _) in &placed {
        let at = (addr - base) as usize;
        image[at..at + data.len()].copy_from_slice(data);
        payload_bytes += data.len() as u64;
    }
    Ok(FlashImage {
        base,
        image,
        family: family.flatten(),
        blocks: count as u32,
        payload_bytes,
    })
}
