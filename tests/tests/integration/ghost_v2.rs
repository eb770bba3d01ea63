//! Recording format version 2 (issue 25): range-coded frames. Round trips (proptest), the
//! committed corpus (each `.v2.ghost` is exactly the v2 encoding of its `.ghost`, decodes back to
//! it, and is ≤ 0.5 bytes a frame), playback from a loaded v2 recording equals playback from the
//! v1 file, and hostile input: never a panic, never an endless loop, a typed error.

use hopkit::ghost::format::{checksum_count, load_scratch_size, HEADER_LEN};
use hopkit::ghost::Crc32;
use hopkit::ghost::{
    decode, encode_v2, load, to_v1, DecodeError, EncodeError, Frame, FrameVec, Recorder, Recording,
    RecordingInfo,
};
use hopkit::hash::StateHash;
use hopkit_demo::DEMO_RECORDING;
use proptest::prelude::*;

const DEMO_V2: &[u8] = include_bytes!("../../../demo/assets/demo.v2.ghost");

/// The corpus: name and both versions.
const CORPUS: [(&str, &[u8], &[u8]); 5] = [
    (
        "calm",
        include_bytes!("../../../demo/assets/corpus/calm.ghost"),
        include_bytes!("../../../demo/assets/corpus/calm.v2.ghost"),
    ),
    (
        "aggressive",
        include_bytes!("../../../demo/assets/corpus/aggressive.ghost"),
        include_bytes!("../../../demo/assets/corpus/aggressive.v2.ghost"),
    ),
    (
        "noisy-analog",
        include_bytes!("../../../demo/assets/corpus/noisy-analog.ghost"),
        include_bytes!("../../../demo/assets/corpus/noisy-analog.v2.ghost"),
    ),
    (
        "pursuit",
        include_bytes!("../../../demo/assets/corpus/pursuit.ghost"),
        include_bytes!("../../../demo/assets/corpus/pursuit.v2.ghost"),
    ),
    (
        "keyboard",
        include_bytes!("../../../demo/assets/corpus/keyboard.ghost"),
        include_bytes!("../../../demo/assets/corpus/keyboard.v2.ghost"),
    ),
];

fn fix_crc(b: &mut [u8]) {
    let mut c = Crc32::new();
    c.update(&b[HEADER_LEN..]);
    c.update(&b[..HEADER_LEN - 4]);
    let crc = c.finish();
    b[20..24].copy_from_slice(&crc.to_le_bytes());
}

fn v2_of(v1: &[u8]) -> Vec<u8> {
    let r = Recording::parse(v1).unwrap();
    let frames: Vec<Frame> = r.frames().collect();
    let checks: Vec<u32> = r.checksums().collect();
    let mut out = vec![0u8; v1.len() + 64];
    let n = encode_v2(&r.info(), &frames, &checks, &mut out).unwrap();
    out.truncate(n);
    out
}

#[test]
fn corpus_v2_files_are_the_v2_encoding_of_the_v1_files_and_under_half_a_byte_a_frame() {
    for (name, v1, v2) in CORPUS
        .iter()
        .copied()
        .chain([("demo", DEMO_RECORDING, DEMO_V2)])
    {
        assert_eq!(
            v2_of(v1),
            v2,
            "{name}: committed v2 is not the encoding of the v1 file"
        );
        let mut back = vec![0u8; v1.len()];
        let len = to_v1(v2, &mut back).unwrap();
        assert_eq!(&back[..len], v1, "{name}");
        let frames = Recording::parse(v1).unwrap().frame_count();
        assert!(frames >= 1800, "{name}: at least 30 s");
        assert!(
            v2.len() as f64 / frames as f64 <= 0.5,
            "{name}: {} bytes for {frames} frames",
            v2.len()
        );
    }
}

#[test]
fn corpus_recordings_replay_against_their_own_checksums() {
    // They are real flights: replaying the frames reproduces every stored state checksum.
    for (name, v1, _) in CORPUS {
        let r = Recording::parse(v1).unwrap();
        let start = hopkit_demo::pilot::start_state();
        let end = hopkit::ghost::verify(
            &r,
            &hopkit::ghost::FlyerParams::default(),
            start,
            &hopkit_demo::pilot::TARGETS,
            &hopkit_demo::level::DemoGround,
        );
        assert!(end.is_ok(), "{name}: {end:?}");
    }
}

#[test]
fn playback_of_a_loaded_v2_recording_equals_v1_playback() {
    let mut scratch = vec![0u8; load_scratch_size(1800, 60)];
    let v2 = load(DEMO_V2, &mut scratch).unwrap();
    let v1 = Recording::parse(DEMO_RECORDING).unwrap();
    assert_eq!(v2.header().version, 2);
    let mut a = hopkit_demo::pilot::formation::<4>(&v1);
    let mut b = hopkit_demo::pilot::formation::<4>(&v2);
    for _ in 0..2000 {
        a.step(&v1, &hopkit_demo::level::DemoGround);
        b.step(&v2, &hopkit_demo::level::DemoGround);
    }
    assert_eq!(a.state_hash(), b.state_hash());
    // Random access: every frame, looped, and the Toward-segment ends agree.
    for i in (0..4000).step_by(7) {
        assert_eq!(v1.frame_looped(i), v2.frame_looped(i));
        assert_eq!(v1.toward_segment_end(i), v2.toward_segment_end(i));
        assert_eq!(v1.checksum_before(i), v2.checksum_before(i));
    }
    // Too small a scratch buffer is a typed error.
    let mut small = vec![0u8; 100];
    assert!(matches!(
        load(DEMO_V2, &mut small),
        Err(DecodeError::CapacityExceeded { frames: 1800, .. })
    ));
}

#[test]
fn v2_errors_are_typed() {
    assert!(matches!(
        Recording::parse(DEMO_V2),
        Err(DecodeError::UnsupportedVersion { version: 2 })
    ));
    let mut out = FrameVec::<1800>::new();
    // Truncated stream (CRC fixed): the decoder runs past the end.
    let mut b = DEMO_V2[..DEMO_V2.len() - 3].to_vec();
    fix_crc(&mut b);
    assert!(matches!(
        decode(&b, &mut out),
        Err(DecodeError::Truncated { .. })
    ));
    assert!(out.is_empty());
    // Trailing bytes.
    let mut b = DEMO_V2.to_vec();
    b.extend_from_slice(&[0; 9]);
    fix_crc(&mut b);
    assert!(matches!(
        decode(&b, &mut out),
        Err(DecodeError::TrailingBytes { .. })
    ));
    // A flipped byte anywhere is a CRC error.
    for at in [5, 9, 30, DEMO_V2.len() - 1] {
        let mut b = DEMO_V2.to_vec();
        b[at] ^= 0x40;
        assert!(decode(&b, &mut out).is_err(), "{at}");
    }
    // Capacity is checked before anything is decoded.
    let mut small = FrameVec::<100>::new();
    assert!(matches!(
        decode(DEMO_V2, &mut small),
        Err(DecodeError::CapacityExceeded {
            frames: 1800,
            capacity: 100
        })
    ));
    let mut tiny = [0u8; 30];
    let r = Recording::parse(DEMO_RECORDING).unwrap();
    let frames: Vec<Frame> = r.frames().collect();
    let checks: Vec<u32> = r.checksums().collect();
    assert_eq!(
        encode_v2(&r.info(), &frames, &checks, &mut tiny),
        Err(EncodeError::BufferTooSmall {
            needed: DEMO_V2.len(),
            available: 30
        })
    );
}

#[test]
fn thirty_seconds_of_any_corpus_style_fit_a_1024_byte_v2_recorder() {
    for (name, v1, _) in CORPUS {
        let r = Recording::parse(v1).unwrap();
        let mut rec = Recorder::<1024>::new_v2(RecordingInfo {
            checksum_interval: 0,
            ..r.info()
        })
        .unwrap();
        let pilot = hopkit::ghost::FlyerState::default();
        for f in r.frames().take(1800) {
            rec.push(f, &pilot)
                .unwrap_or_else(|e| panic!("{name}: full at {e:?}"));
        }
        assert!(rec.len() <= 1024, "{name}");
    }
}

fn arb_frame() -> impl Strategy<Value = Frame> {
    (any::<[u8; 3]>()).prop_map(Frame::unpack)
}

/// Frames like a human's: runs of slowly changing values, with occasional jumps.
fn arb_smooth(n: usize) -> impl Strategy<Value = Vec<Frame>> {
    proptest::collection::vec((0u8..8, -2i8..=2, -2i8..=2, -1i8..=1, 0u8..16), n).prop_map(
        |steps| {
            let mut f = Frame::NEUTRAL;
            steps
                .into_iter()
                .map(|(flags, dp, dy, dc, jump)| {
                    f.pitch = (f.pitch + dp).clamp(-32, 31);
                    f.yaw = (f.yaw + dy).clamp(-32, 31);
                    f.condition = f.condition.wrapping_add(dc as u8);
                    if jump == 0 {
                        f.fire = flags & 1 != 0;
                        f.toward = flags & 2 != 0;
                        f.condition = f.condition.wrapping_mul(3);
                    }
                    f.missile = flags == 7 && jump == 1;
                    f
                })
                .collect()
        },
    )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn v2_encode_then_decode_is_identity(
        frames in prop_oneof![
            proptest::collection::vec(arb_frame(), 0..300),
            arb_smooth(300),
        ],
        k in prop_oneof![Just(0u16), 1u16..70],
        seed in any::<u32>(),
    ) {
        let info = RecordingInfo { tick_hz: 60, checksum_interval: k, condition_unit: 0.5 };
        let checks: Vec<u32> = (0..checksum_count(frames.len() as u64, k))
            .map(|j| seed.wrapping_mul(j as u32 + 7)).collect();
        let mut buf = vec![0u8; 24 + 8 * frames.len() + 4 * checks.len() + 8];
        let len = encode_v2(&info, &frames, &checks, &mut buf).unwrap();
        let mut out = FrameVec::<300>::new();
        let h = decode(&buf[..len], &mut out).unwrap();
        prop_assert_eq!(h.version, 2);
        prop_assert_eq!(out.as_slice(), frames.as_slice());
        let mut scratch = vec![0u8; load_scratch_size(frames.len(), k)];
        let r = load(&buf[..len], &mut scratch).unwrap();
        prop_assert!(r.frames().eq(frames.iter().copied()));
        prop_assert!(r.checksums().eq(checks.iter().copied()));
        // The same frames pushed through a v2 recorder give the same bytes.
        if k == 0 {
            let mut rec = Box::new(Recorder::<4096>::new_v2(info).unwrap());
            for f in &frames {
                rec.push(*f, &hopkit::ghost::FlyerState::default()).unwrap();
            }
            prop_assert_eq!(rec.finish(), &buf[..len]);
        }
    }

    #[test]
    fn any_v2_body_behind_a_valid_header_gives_a_typed_result(
        body in proptest::collection::vec(any::<u8>(), 0..300),
        count in prop_oneof![0u32..2000, Just(u32::MAX)],
        k in 0u16..10,
    ) {
        let mut b = Vec::from(&DEMO_V2[..HEADER_LEN]);
        b[8..12].copy_from_slice(&count.to_le_bytes());
        b[12..14].copy_from_slice(&((k > 0) as u16).to_le_bytes());
        b[14..16].copy_from_slice(&k.to_le_bytes());
        b.extend_from_slice(&body);
        fix_crc(&mut b);
        let mut out = FrameVec::<2000>::new();
        match decode(&b, &mut out) {
            Ok(h) => prop_assert_eq!(h.frame_count as usize, out.len()),
            Err(_) => prop_assert!(out.is_empty()),
        }
        let mut scratch = vec![0u8; 4096];
        if let Ok(r) = load(&b, &mut scratch) {
            prop_assert_eq!(r.frame_count(), count);
            prop_assert_eq!(r.frames().count(), count as usize);
        }
    }
}
