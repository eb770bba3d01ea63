//! Format version 2 (range-coded frames). The fuzzer's bytes are used twice:
//! 1. as a v2 *body* behind a header whose CRC is made valid (so the range decoder itself is
//!    exercised, not only the CRC check), frame count and checksum interval from the first bytes:
//!    `decode` and `load` never panic, terminate, and agree when they accept;
//! 2. as frames (3 bytes each): `encode_v2` then `decode` gives the same frames back.
#![no_main]
use hopkit::ghost::Crc32;
use hopkit::ghost::format::HEADER_LEN;
use hopkit::ghost::{decode, encode_v2, load, Frame, FrameVec, RecordingInfo};
use libfuzzer_sys::fuzz_target;

const HEADER: &[u8] = include_bytes!("../../demo/assets/demo.v2.ghost");

fuzz_target!(|data: &[u8]| {
    if data.len() < 3 {
        return;
    }
    let count = u16::from_le_bytes([data[0], data[1]]) as u32 % 3000;
    let k = (data[2] % 8) as u16;
    let mut b = Vec::from(&HEADER[..HEADER_LEN]);
    b[8..12].copy_from_slice(&count.to_le_bytes());
    b[12..14].copy_from_slice(&((k > 0) as u16).to_le_bytes());
    b[14..16].copy_from_slice(&k.to_le_bytes());
    b.extend_from_slice(&data[3..]);
    let mut c = Crc32::new();
    c.update(&b[HEADER_LEN..]);
    c.update(&b[..HEADER_LEN - 4]);
    let crc = c.finish();
    b[20..24].copy_from_slice(&crc.to_le_bytes());
    let mut frames: FrameVec<3000> = FrameVec::new();
    let decoded = decode(&b, &mut frames);
    let mut scratch = vec![0u8; 24 + 7 * 3000];
    match (decoded, load(&b, &mut scratch)) {
        (Ok(h), Ok(r)) => {
            assert_eq!(h, *r.header());
            assert!(r.frames().eq(frames.iter().copied()));
        }
        (Err(e), Err(f)) => {
            assert_eq!(e, f);
            assert!(frames.is_empty());
        }
        (a, r) => panic!("decode {a:?} but load {:?}", r.map(|r| *r.header())),
    }

    let input: Vec<Frame> = data
        .chunks_exact(3)
        .map(|c| Frame::unpack([c[0], c[1], c[2]]))
        .collect();
    let info = RecordingInfo {
        checksum_interval: 0,
        ..RecordingInfo::default()
    };
    let mut out = vec![0u8; 64 + 8 * input.len()];
    let n = encode_v2(&info, &input, &[], &mut out).expect("a big enough buffer");
    let mut back: FrameVec<4096> = FrameVec::new();
    if input.len() <= back.capacity() {
        decode(&out[..n], &mut back).expect("own output decodes");
        assert_eq!(back.as_slice(), input.as_slice());
    }
});
