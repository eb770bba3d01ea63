//! `elf_to_uf2` against the UF2 spec, on ELF files built byte by byte here (no cross target).

use hopkit_uf2::*;

/// One program header of a test ELF.
#[derive(Clone)]
struct Seg {
    p_type: u32,
    vaddr: u32,
    paddr: u32,
    data: Vec<u8>,
    /// Extra `p_memsz` beyond the file bytes (`.bss`).
    bss: u32,
}

fn load(paddr: u32, data: Vec<u8>) -> Seg {
    Seg {
        p_type: 1,
        vaddr: paddr,
        paddr,
        data,
        bss: 0,
    }
}

/// Bytes `0, 1, 2, …` (mod 251, so pages differ) offset by `seed`, never 0x00.
fn pattern(len: usize, seed: u8) -> Vec<u8> {
    (0..len)
        .map(|i| ((i % 251) as u8).wrapping_add(seed) | 1)
        .collect()
}

/// A minimal ELF32 LE ARM executable: header, program headers, then each segment's bytes
/// (4-aligned), in table order. The segment bytes end the file.
fn build_elf(segs: &[Seg]) -> Vec<u8> {
    let phoff = 52u32;
    let mut data_off = phoff + 32 * segs.len() as u32;
    let mut e = Vec::new();
    e.extend_from_slice(b"\x7fELF");
    e.extend_from_slice(&[1, 1, 1, 0]); // ELFCLASS32, ELFDATA2LSB, EV_CURRENT, SYSV
    e.extend_from_slice(&[0; 8]);
    e.extend_from_slice(&2u16.to_le_bytes()); // ET_EXEC
    e.extend_from_slice(&40u16.to_le_bytes()); // EM_ARM
    e.extend_from_slice(&1u32.to_le_bytes()); // e_version
    e.extend_from_slice(&0x1000_0101u32.to_le_bytes()); // e_entry
    e.extend_from_slice(&phoff.to_le_bytes());
    e.extend_from_slice(&0u32.to_le_bytes()); // e_shoff
    e.extend_from_slice(&0x0500_0200u32.to_le_bytes()); // e_flags
    e.extend_from_slice(&52u16.to_le_bytes()); // e_ehsize
    e.extend_from_slice(&32u16.to_le_bytes()); // e_phentsize
    e.extend_from_slice(&(segs.len() as u16).to_le_bytes());
    e.extend_from_slice(&40u16.to_le_bytes()); // e_shentsize
    e.extend_from_slice(&0u16.to_le_bytes()); // e_shnum
    e.extend_from_slice(&0u16.to_le_bytes()); // e_shstrndx
    assert_eq!(e.len(), 52);
    let mut offsets = Vec::new();
    for s in segs {
        offsets.push(data_off);
        data_off += (s.data.len() as u32).div_ceil(4) * 4;
    }
    for (s, off) in segs.iter().zip(&offsets) {
        let filesz = s.data.len() as u32;
        for w in [
            s.p_type,
            *off,
            s.vaddr,
            s.paddr,
            filesz,
            filesz + s.bss,
            5,
            4,
        ] {
            e.extend_from_slice(&w.to_le_bytes());
        }
    }
    for s in segs {
        e.extend_from_slice(&s.data);
        while e.len() % 4 != 0 {
            e.push(0);
        }
    }
    // Drop the padding after the last segment: its bytes end the file.
    let end = offsets.last().map_or(e.len(), |o| {
        *o as usize + segs.last().map_or(0, |s| s.data.len())
    });
    e.truncate(end.max(52 + 32 * segs.len()));
    e
}

fn rp2040(elf: &[u8]) -> Result<Vec<u8>, Error> {
    elf_to_uf2(elf, RP2040_FAMILY_ID, RP2040_FLASH)
}

fn word(block: &[u8], off: usize) -> u32 {
    u32::from_le_bytes(block[off..off + 4].try_into().unwrap())
}

/// Check every block against the UF2 spec; return `(target address, payload)` per block.
fn check_blocks(uf2: &[u8], family: u32) -> Vec<(u32, Vec<u8>)> {
    assert_eq!(uf2.len() % 512, 0, "whole blocks");
    let total = uf2.len() / 512;
    assert!(total > 0);
    let mut out = Vec::new();
    for (i, b) in uf2.chunks_exact(512).enumerate() {
        assert_eq!(word(b, 0), 0x0A32_4655, "magic start 0");
        assert_eq!(&b[0..4], b"UF2\n");
        assert_eq!(word(b, 4), 0x9E5D_5157, "magic start 1");
        assert_eq!(word(b, 8), 0x0000_2000, "flags: family ID present");
        let addr = word(b, 12);
        assert_eq!(addr % 256, 0, "page-aligned target address");
        assert_eq!(word(b, 16), 256, "payload size");
        assert_eq!(word(b, 20), i as u32, "block number");
        assert_eq!(word(b, 24), total as u32, "number of blocks");
        assert_eq!(word(b, 28), family, "family ID");
        assert!(b[32 + 256..508].iter().all(|&x| x == 0), "unused data is 0");
        assert_eq!(word(b, 508), 0x0AB1_6F30, "magic end");
        out.push((addr, b[32..32 + 256].to_vec()));
    }
    for w in out.windows(2) {
        assert!(w[0].0 < w[1].0, "ascending addresses");
    }
    out
}

#[test]
fn constants_are_the_specs() {
    assert_eq!(MAGIC_START0, 0x0A32_4655);
    assert_eq!(MAGIC_START1, 0x9E5D_5157);
    assert_eq!(MAGIC_END, 0x0AB1_6F30);
    assert_eq!(FLAG_FAMILY_ID_PRESENT, 0x2000);
    assert_eq!(RP2040_FAMILY_ID, 0xe48b_ff56);
    assert_eq!(RP2040_FLASH, 0x1000_0000..0x1100_0000);
    assert_eq!(BLOCK_SIZE, 512);
    assert_eq!(DATA_SIZE, 476);
    assert_eq!(32 + DATA_SIZE + 4, BLOCK_SIZE);
}

#[test]
fn one_segment_becomes_numbered_page_blocks() {
    let code = pattern(600, 7);
    let uf2 = rp2040(&build_elf(&[load(0x1000_0000, code.clone())])).unwrap();
    assert_eq!(uf2.len(), 3 * 512);
    let blocks = check_blocks(&uf2, RP2040_FAMILY_ID);
    let addrs: Vec<u32> = blocks.iter().map(|b| b.0).collect();
    assert_eq!(addrs, [0x1000_0000, 0x1000_0100, 0x1000_0200]);
    assert_eq!(blocks[0].1, code[..256]);
    assert_eq!(blocks[1].1, code[256..512]);
    assert_eq!(blocks[2].1[..88], code[512..]);
    assert!(blocks[2].1[88..].iter().all(|&b| b == 0), "page tail is 0");

    let back = uf2_to_flash(&uf2).unwrap();
    assert_eq!(back.base, 0x1000_0000);
    assert_eq!(back.family, Some(RP2040_FAMILY_ID));
    assert_eq!(back.blocks, 3);
    assert_eq!(back.payload_bytes, 768);
    assert_eq!(back.image.len(), 768);
    assert_eq!(back.image[..600], code);
    assert_eq!(back.end(), 0x1000_0300);
}

#[test]
fn family_is_written_as_given() {
    let elf = build_elf(&[load(0x1000_0000, pattern(4, 0))]);
    let uf2 = elf_to_uf2(&elf, 0x1234_5678, RP2040_FLASH).unwrap();
    check_blocks(&uf2, 0x1234_5678);
    assert_eq!(uf2_to_flash(&uf2).unwrap().family, Some(0x1234_5678));
}

#[test]
fn segment_straddling_a_page_boundary_fills_both_pages() {
    let bytes = pattern(32, 3);
    let uf2 = rp2040(&build_elf(&[load(0x1000_00f0, bytes.clone())])).unwrap();
    let blocks = check_blocks(&uf2, RP2040_FAMILY_ID);
    assert_eq!(blocks.len(), 2);
    assert_eq!((blocks[0].0, blocks[1].0), (0x1000_0000, 0x1000_0100));
    assert!(blocks[0].1[..0xf0].iter().all(|&b| b == 0), "gap before");
    assert_eq!(blocks[0].1[0xf0..], bytes[..16]);
    assert_eq!(blocks[1].1[..16], bytes[16..]);
    assert!(blocks[1].1[16..].iter().all(|&b| b == 0), "gap after");
    let back = uf2_to_flash(&uf2).unwrap();
    assert_eq!(back.base, 0x1000_0000);
    assert_eq!(back.image[0xf0..0x110], bytes);
}

#[test]
fn data_goes_to_its_load_address_in_flash_and_bss_is_not_written() {
    let text = pattern(300, 1);
    let data = pattern(40, 9);
    let mut data_seg = load(0x1000_0000 + 300, data.clone());
    data_seg.vaddr = 0x2000_0000; // runs in RAM, stored in flash after .text
    let bss = Seg {
        p_type: 1,
        vaddr: 0x2000_0028,
        paddr: 0x2000_0028,
        data: vec![],
        bss: 1024,
    };
    let mut with_bss_tail = load(0x1000_0200, pattern(8, 4));
    with_bss_tail.bss = 4096; // memsz > filesz: only the file bytes are written
    let elf = build_elf(&[
        load(0x1000_0000, text.clone()),
        data_seg,
        bss,
        with_bss_tail,
    ]);
    let uf2 = rp2040(&elf).unwrap();
    let blocks = check_blocks(&uf2, RP2040_FAMILY_ID);
    assert_eq!(blocks.len(), 3);
    let back = uf2_to_flash(&uf2).unwrap();
    assert_eq!(back.base, 0x1000_0000);
    assert_eq!(back.image.len(), 0x300);
    assert_eq!(back.image[..300], text);
    assert_eq!(back.image[300..340], data);
    assert!(back.image[340..0x200].iter().all(|&b| b == 0));
    assert_eq!(back.image[0x200..0x208], pattern(8, 4));
    assert!(back.image[0x208..].iter().all(|&b| b == 0));

    // The virtual address does not matter, the physical one does.
    let mut ram_lma = load(0x2000_0000, pattern(16, 2));
    ram_lma.vaddr = 0x1000_0000;
    assert!(matches!(
        rp2040(&build_elf(&[ram_lma])),
        Err(Error::OutsideFlash {
            start: 0x2000_0000,
            ..
        })
    ));
}

#[test]
fn pages_come_in_address_order_and_untouched_pages_are_skipped() {
    // Table order is not address order; a hole of untouched pages between the two.
    let hi = pattern(10, 5);
    let lo = pattern(20, 6);
    let mut note = load(0, pattern(12, 0));
    note.p_type = 4; // PT_NOTE: ignored
    let elf = build_elf(&[
        load(0x1000_1000, hi.clone()),
        note,
        load(0x1000_0010, lo.clone()),
    ]);
    let uf2 = rp2040(&elf).unwrap();
    let blocks = check_blocks(&uf2, RP2040_FAMILY_ID);
    assert_eq!(
        blocks.iter().map(|b| b.0).collect::<Vec<_>>(),
        [0x1000_0000, 0x1000_1000]
    );
    let back = uf2_to_flash(&uf2).unwrap();
    assert_eq!(back.image.len(), 0x1100);
    assert_eq!(back.payload_bytes, 512);
    assert_eq!(back.image[0x10..0x24], lo);
    assert_eq!(back.image[0x1000..0x100a], hi);
    assert!(back.image[0x100..0x1000].iter().all(|&b| b == 0));
}

#[test]
fn two_segments_sharing_a_page_share_its_block() {
    let a = pattern(16, 1);
    let b = pattern(16, 2);
    let elf = build_elf(&[load(0x1000_0000, a.clone()), load(0x1000_0080, b.clone())]);
    let blocks = check_blocks(&rp2040(&elf).unwrap(), RP2040_FAMILY_ID);
    assert_eq!(blocks.len(), 1);
    assert_eq!(blocks[0].1[..16], a);
    assert_eq!(blocks[0].1[0x80..0x90], b);
}

#[test]
fn every_byte_must_be_in_flash() {
    let at = |addr: u32, len: usize| rp2040(&build_elf(&[load(addr, pattern(len, 0))]));
    assert!(matches!(
        at(0x2000_0000, 4),
        Err(Error::OutsideFlash { index: 0, .. })
    ));
    assert!(matches!(
        at(0x0fff_fffc, 8),
        Err(Error::OutsideFlash { .. })
    ));
    assert!(matches!(
        at(0x10ff_fff0, 32),
        Err(Error::OutsideFlash { .. })
    ));
    assert!(matches!(
        at(0xffff_fff0, 32),
        Err(Error::OutsideFlash {
            end: 0x1_0000_0010,
            ..
        })
    ));
    // Up to the last byte of flash is fine.
    let uf2 = at(0x10ff_fff0, 16).unwrap();
    assert_eq!(check_blocks(&uf2, RP2040_FAMILY_ID)[0].0, 0x10ff_ff00);
    // A second, bad segment fails the whole file, naming its index.
    let elf = build_elf(&[
        load(0x1000_0000, pattern(4, 0)),
        load(0x2000_0000, pattern(4, 0)),
    ]);
    let e = rp2040(&elf).unwrap_err();
    assert!(matches!(e, Error::OutsideFlash { index: 1, .. }), "{e:?}");
    assert!(e.to_string().contains("segment 1"), "{e}");
    assert!(e.to_string().contains("0x20000000"), "{e}");
    // Another flash range.
    let elf = build_elf(&[load(0x1000_0000, pattern(4, 0))]);
    assert!(elf_to_uf2(&elf, 1, 0x0..0x1000_0000).is_err());
    assert_eq!(elf_to_uf2(&elf, 1, 5..5), Err(Error::EmptyFlashRange));
}

#[test]
fn overlapping_segments_are_rejected() {
    let elf = build_elf(&[
        load(0x1000_0000, pattern(64, 0)),
        load(0x1000_003f, pattern(4, 0)),
    ]);
    assert_eq!(
        rp2040(&elf),
        Err(Error::Overlap {
            first: 0,
            second: 1,
            at: 0x1000_003f
        })
    );
    // Touching is not overlapping.
    let elf = build_elf(&[
        load(0x1000_0040, pattern(4, 0)),
        load(0x1000_0000, pattern(64, 0)),
    ]);
    assert!(rp2040(&elf).is_ok());
}

#[test]
fn not_an_arm_executable_is_rejected() {
    let good = build_elf(&[load(0x1000_0000, pattern(8, 0))]);
    let with = |off: usize, bytes: &[u8]| {
        let mut e = good.clone();
        e[off..off + bytes.len()].copy_from_slice(bytes);
        rp2040(&e)
    };
    assert_eq!(with(0, b"\x7fELG"), Err(Error::NotElf));
    assert!(matches!(with(4, &[2]), Err(Error::Unsupported(s)) if s.contains("class")));
    assert!(matches!(with(5, &[2]), Err(Error::Unsupported(s)) if s.contains("little-endian")));
    assert!(matches!(with(16, &[3, 0]), Err(Error::Unsupported(s)) if s.contains("type")));
    assert!(matches!(with(18, &[62, 0]), Err(Error::Unsupported(s)) if s.contains("machine")));
    assert!(matches!(with(42, &[16, 0]), Err(Error::Unsupported(_))));
    assert!(matches!(
        with(44, &[0xff, 0xff]),
        Err(Error::Unsupported(_))
    ));
    assert_eq!(with(44, &[0, 0]), Err(Error::NoLoadableData));
    assert!(matches!(
        with(28, &[0xff, 0xff, 0xff, 0xff]),
        Err(Error::Truncated { .. })
    ));
    // Only PT_LOAD with file bytes counts.
    let bss_only = build_elf(&[Seg {
        p_type: 1,
        vaddr: 0x2000_0000,
        paddr: 0x2000_0000,
        data: vec![],
        bss: 64,
    }]);
    assert_eq!(rp2040(&bss_only), Err(Error::NoLoadableData));
    assert_eq!(
        rp2040(b""),
        Err(Error::Truncated {
            what: "ELF header",
            needed: 52,
            len: 0
        })
    );
    assert_eq!(rp2040(b"MZ\x90\x00 a PE file"), Err(Error::NotElf));
}

#[test]
fn every_truncation_of_a_valid_elf_is_an_error() {
    let mut data = load(0x1000_0100, pattern(40, 3));
    data.vaddr = 0x2000_0000;
    let elf = build_elf(&[load(0x1000_0000, pattern(200, 1)), data]);
    assert!(rp2040(&elf).is_ok());
    for len in 0..elf.len() {
        let r = rp2040(&elf[..len]);
        assert!(r.is_err(), "truncated to {len} bytes: {r:?}");
        // Every message is one line.
        assert!(!r.unwrap_err().to_string().contains('\n'));
    }
}

/// xorshift32: deterministic garbage.
fn xorshift(state: &mut u32) -> u32 {
    let mut x = *state;
    x ^= x << 13;
    x ^= x >> 17;
    x ^= x << 5;
    *state = x;
    x
}

#[test]
fn damaged_and_garbage_elfs_never_panic() {
    let good = build_elf(&[
        load(0x1000_0000, pattern(300, 1)),
        load(0x1000_0400, pattern(20, 2)),
    ]);
    // Every byte of the headers set to a few telling values.
    for off in 0..52 + 2 * 32 {
        for v in [0x00, 0x01, 0x7f, 0x80, 0xfe, 0xff] {
            let mut e = good.clone();
            e[off] = v;
            let _ = rp2040(&e);
        }
    }
    // Random garbage behind a valid identification, and fully random bytes.
    let mut s = 0x1234_5678;
    for round in 0..2000 {
        let len = (xorshift(&mut s) % 400) as usize;
        let mut e: Vec<u8> = (0..len).map(|_| xorshift(&mut s) as u8).collect();
        if round % 2 == 0 {
            let n = e.len().min(good.len()).min(52);
            e[..n].copy_from_slice(&good[..n]);
        }
        let _ = rp2040(&e);
        let _ = uf2_to_flash(&e);
    }
}

#[test]
fn reader_checks_the_blocks() {
    let uf2 = rp2040(&build_elf(&[load(0x1000_0000, pattern(600, 1))])).unwrap();
    assert!(uf2_to_flash(&uf2).is_ok());
    assert_eq!(uf2_to_flash(&[]), Err(ReadError::Length(0)));
    assert_eq!(uf2_to_flash(&uf2[..1000]), Err(ReadError::Length(1000)));
    let damaged = |off: usize, v: u8| {
        let mut u = uf2.clone();
        u[off] ^= v;
        uf2_to_flash(&u)
    };
    for off in [0, 4, 508, 512 + 508] {
        assert!(
            matches!(damaged(off, 1), Err(ReadError::Block { .. })),
            "{off}"
        );
    }
    // Block number, total, family, payload size.
    assert!(damaged(512 + 20, 1).is_err());
    assert!(damaged(24, 1).is_err());
    assert!(damaged(1024 + 28, 1).is_err());
    assert!(damaged(16, 0xff).is_err());
    // Two blocks for the same page.
    let mut u = uf2.clone();
    u[512 + 12..512 + 16].copy_from_slice(&0x1000_0000u32.to_le_bytes());
    assert!(matches!(
        uf2_to_flash(&u),
        Err(ReadError::Block { block: 1, .. })
    ));
    // Blocks too far apart to assemble.
    let mut u = uf2.clone();
    u[1024 + 12..1024 + 16].copy_from_slice(&0xf000_0000u32.to_le_bytes());
    assert!(matches!(uf2_to_flash(&u), Err(ReadError::TooWide { .. })));
}

#[test]
fn a_real_gcc_arm_elf_matches_objcopys_binary() {
    // tests/data/README.md says how these were made.
    let elf = include_bytes!("../data/tiny.elf");
    let bin = include_bytes!("../data/tiny.bin");
    let uf2 = rp2040(elf).unwrap();
    let blocks = check_blocks(&uf2, RP2040_FAMILY_ID);
    assert_eq!(blocks.len(), 3);
    let back = uf2_to_flash(&uf2).unwrap();
    assert_eq!(back.base, 0x1000_0000);
    // The boot2 room is zeros, then objcopy's image, then the page's zero tail.
    assert!(back.image[..0x100].iter().all(|&b| b == 0));
    assert_eq!(&back.image[0x100..0x100 + bin.len()], &bin[..]);
    assert!(back.image[0x100 + bin.len()..].iter().all(|&b| b == 0));
    // `.data`'s initial values (counter = 0x12345678) sit at its load address in flash.
    let at = back
        .image
        .windows(4)
        .position(|w| w == 0x1234_5678u32.to_le_bytes())
        .unwrap();
    assert!(at >= 0x111, "in .data's flash copy after the code: {at:#x}");
}
