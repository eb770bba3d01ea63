//! Ghost recording format: round trips, every decoder error, recorder capacity, and property tests
//! (no input makes the decoder panic; a flipped byte never decodes silently to something else).

use hopkit::ghost::format::{
    checksum_count, recording_size, DecodeError, HeaderField, Recording, RecordingInfo, HEADER_LEN,
};
use hopkit::ghost::{crc32, Crc32};
use hopkit::ghost::{decode, encode, FlyerState, Frame, FrameVec, PilotInput, Recorder};
use hopkit_demo::pilot as demo_pilot;
use hopkit_demo::DEMO_RECORDING;
use proptest::prelude::*;

fn fix_crc(b: &mut [u8]) {
    let mut c = Crc32::new();
    c.update(&b[HEADER_LEN..]);
    c.update(&b[..HEADER_LEN - 4]);
    let crc = c.finish();
    b[20..24].copy_from_slice(&crc.to_le_bytes());
}

fn sample(n: usize, k: u16) -> (RecordingInfo, Vec<Frame>, Vec<u32>, Vec<u8>) {
    let info = RecordingInfo {
        tick_hz: 60,
        checksum_interval: k,
        condition_unit: 0.5,
    };
    let frames: Vec<Frame> = (0..n)
        .map(|i| Frame::unpack([(i * 37) as u8, (i * 11 + 5) as u8, (i * 3) as u8]))
        .collect();
    let checks: Vec<u32> = (0..checksum_count(n as u64, k))
        .map(|j| 0x9E37_79B9u32.wrapping_mul(j as u32 + 1))
        .collect();
    let mut buf = vec![0u8; recording_size(n, k)];
    let len = encode(&info, &frames, &checks, &mut buf).unwrap();
    assert_eq!(len, buf.len());
    (info, frames, checks, buf)
}

#[test]
fn crc_check_value() {
    assert_eq!(crc32(b"123456789"), 0xCBF4_3926);
}

#[test]
fn demo_recording_parses_and_is_three_bytes_per_frame() {
    let r = Recording::parse(DEMO_RECORDING).unwrap();
    assert_eq!(r.frame_count(), demo_pilot::FRAMES);
    assert_eq!(r.tick_hz(), 60);
    assert_eq!(r.checksum_count(), 30);
    assert_eq!(DEMO_RECORDING.len(), demo_pilot::RECORDING_LEN);
    // 3 bytes per frame + 24 header + 4 per 60 frames.
    assert_eq!(DEMO_RECORDING.len(), 24 + 3 * 1800 + 4 * 30);
    let per_frame = DEMO_RECORDING.len() as f64 / r.frame_count() as f64;
    assert!(per_frame < 3.1, "{per_frame}");
    // Re-encoding the decoded recording gives back the same bytes.
    let frames: Vec<Frame> = r.frames().collect();
    let checks: Vec<u32> = r.checksums().collect();
    let mut out = vec![0u8; DEMO_RECORDING.len()];
    encode(&r.info(), &frames, &checks, &mut out).unwrap();
    assert_eq!(out, DEMO_RECORDING);
}

#[test]
fn decode_into_heapless_vec() {
    let (_, frames, _, bytes) = sample(40, 7);
    let mut out = FrameVec::<64>::new();
    let h = decode(&bytes, &mut out).unwrap();
    assert_eq!(h.frame_count, 40);
    assert_eq!(out.as_slice(), frames.as_slice());
}

#[test]
fn error_truncated_header_and_body() {
    let (_, _, _, bytes) = sample(10, 4);
    assert_eq!(
        Recording::parse(&bytes[..10]),
        Err(DecodeError::Truncated {
            expected: 24,
            found: 10
        })
    );
    assert_eq!(
        Recording::parse(&[]),
        Err(DecodeError::Truncated {
            expected: 24,
            found: 0
        })
    );
    let cut = bytes.len() - 1;
    assert_eq!(
        Recording::parse(&bytes[..cut]),
        Err(DecodeError::Truncated {
            expected: bytes.len() as u64,
            found: cut
        })
    );
}

#[test]
fn error_trailing_bytes() {
    // A non-zero extra byte, or more zeros than padding (`format::MAX_PADDING`, 3), is an error.
    let (_, _, _, exact) = sample(10, 0);
    for extra in [&[1u8][..], &[0, 0, 0, 0], &[0, 7]] {
        let mut bytes = exact.clone();
        bytes.extend_from_slice(extra);
        assert!(
            matches!(
                Recording::parse(&bytes),
                Err(DecodeError::TrailingBytes { .. })
            ),
            "{extra:?}"
        );
    }
    // Up to 3 zeros are padding (storage in 4-byte groups): the recording as written.
    let mut bytes = exact.clone();
    bytes.push(0);
    assert_eq!(Recording::parse(&bytes).unwrap().as_bytes(), &exact[..]);
}

#[test]
fn error_bad_magic_and_version() {
    let (_, _, _, bytes) = sample(5, 0);
    let mut b = bytes.clone();
    b[0] = b'X';
    assert_eq!(Recording::parse(&b), Err(DecodeError::BadMagic));
    let mut b = bytes.clone();
    b[4] = 2;
    fix_crc(&mut b);
    assert_eq!(
        Recording::parse(&b),
        Err(DecodeError::UnsupportedVersion { version: 2 })
    );
}

#[test]
fn error_crc_mismatch_in_body_and_header_fields() {
    let (_, _, _, bytes) = sample(20, 5);
    for at in [HEADER_LEN, HEADER_LEN + 4, bytes.len() - 1, 6, 16, 21] {
        let mut b = bytes.clone();
        b[at] ^= 0x10;
        assert!(
            matches!(Recording::parse(&b), Err(DecodeError::CrcMismatch { .. })),
            "byte {at}"
        );
    }
}

#[test]
fn error_invalid_header_fields() {
    let (_, _, _, bytes) = sample(6, 3);
    let cases: [(usize, &[u8], HeaderField); 4] = [
        (6, &[0, 0], HeaderField::TickRate),
        (12, &[0x03, 0], HeaderField::Flags),
        (
            16,
            &f32::NAN.to_bits().to_le_bytes(),
            HeaderField::ConditionUnit,
        ),
        (
            16,
            &(-1.0f32).to_bits().to_le_bytes(),
            HeaderField::ConditionUnit,
        ),
    ];
    for (at, patch, field) in cases {
        let mut b = bytes.clone();
        b[at..at + patch.len()].copy_from_slice(patch);
        fix_crc(&mut b);
        assert_eq!(
            Recording::parse(&b),
            Err(DecodeError::InvalidHeader { field }),
            "{field:?}"
        );
    }
    // Checksum flag clear but an interval given (frames-only layout, so the length still fits).
    let (_, _, _, plain) = sample(6, 0);
    let mut b = plain.clone();
    b[14] = 5;
    fix_crc(&mut b);
    assert_eq!(
        Recording::parse(&b),
        Err(DecodeError::InvalidHeader {
            field: HeaderField::ChecksumInterval
        })
    );
    // Flag set with interval 0.
    let mut b = plain.clone();
    b[12] = 1;
    fix_crc(&mut b);
    assert_eq!(
        Recording::parse(&b),
        Err(DecodeError::InvalidHeader {
            field: HeaderField::ChecksumInterval
        })
    );
}

#[test]
fn error_capacity_exceeded_leaves_output_empty() {
    let (_, _, _, bytes) = sample(40, 0);
    let mut out = FrameVec::<16>::new();
    out.push(Frame::NEUTRAL).unwrap();
    assert_eq!(
        decode(&bytes, &mut out),
        Err(DecodeError::CapacityExceeded {
            frames: 40,
            capacity: 16
        })
    );
    assert!(out.is_empty());
    // A corrupt input also leaves it empty.
    let mut out = FrameVec::<64>::new();
    out.push(Frame::NEUTRAL).unwrap();
    assert!(decode(&bytes[..30], &mut out).is_err());
    assert!(out.is_empty());
}

#[test]
fn huge_frame_count_is_truncation_not_panic() {
    let (_, _, _, mut bytes) = sample(3, 1);
    bytes[8..12].copy_from_slice(&u32::MAX.to_le_bytes());
    assert!(matches!(
        Recording::parse(&bytes),
        Err(DecodeError::Truncated { .. })
    ));
}

#[test]
fn recorder_full_keeps_the_prefix_of_the_demo() {
    // Replay the demo's frames into a recorder with room for 100 frames: it stops at 100 and
    // what it holds equals the demo's first 100 frames and their checksums.
    let demo = Recording::parse(DEMO_RECORDING).unwrap();
    const CAP: usize = recording_size(100, 60);
    let mut rec = Recorder::<CAP>::new(demo.info()).unwrap();
    let mut full_at = None;
    let mut replay = hopkit::ghost::Replay::new(demo_pilot::start_state());
    let params = hopkit::ghost::FlyerParams::default();
    for i in 0..demo.frame_count() {
        let f = demo.frame(i).unwrap();
        if let Err(e) = rec.push(f, &replay.flyer) {
            full_at.get_or_insert(i);
            assert_eq!(e.frames_recorded, 100);
        }
        replay
            .step(
                &demo,
                &params,
                &demo_pilot::TARGETS,
                &hopkit_demo::level::DemoGround,
            )
            .unwrap();
    }
    assert_eq!(full_at, Some(100));
    assert!(rec.is_full());
    let bytes = rec.finish().to_vec();
    let r = Recording::parse(&bytes).unwrap();
    assert_eq!(r.frame_count(), 100);
    assert!(r.frames().eq(demo.frames().take(100)));
    assert!(r.checksums().eq(demo.checksums().take(2)));
}

#[test]
fn recorder_quantizes_like_the_live_pilot() {
    let mut rec = Recorder::<256>::new(RecordingInfo::default()).unwrap();
    let pilot = FlyerState::default();
    let input = PilotInput {
        pitch: 0.5,
        yaw: -0.25,
        fire: true,
        missile: true,
        toward: true,
        away: false,
    };
    let a = rec.record(&input, Some(12.3), &pilot).unwrap();
    let b = rec.record(&input, Some(12.3), &pilot).unwrap();
    assert_eq!((a.pitch, a.yaw, a.condition), (16, -8, 24));
    assert!(a.missile && !b.missile, "held missile is one press");
    let r = Recording::parse(rec.finish()).unwrap();
    assert_eq!(r.frame(0), Some(a));
    assert_eq!(r.frame(1), Some(b));
}

fn arb_frame() -> impl Strategy<Value = Frame> {
    (
        -32i8..=31,
        -32i8..=31,
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<bool>(),
        any::<u8>(),
    )
        .prop_map(
            |(pitch, yaw, fire, missile, toward, away, condition)| Frame {
                pitch,
                yaw,
                fire,
                missile,
                toward,
                away,
                condition,
            },
        )
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    #[test]
    fn encode_then_decode_is_identity(
        frames in proptest::collection::vec(arb_frame(), 0..200),
        k in prop_oneof![Just(0u16), 1u16..70],
        hz in 1u16..=10_000,
        unit in 0.01f32..100.0,
        seed in any::<u32>(),
    ) {
        let info = RecordingInfo { tick_hz: hz, checksum_interval: k, condition_unit: unit };
        let checks: Vec<u32> = (0..checksum_count(frames.len() as u64, k))
            .map(|j| seed.wrapping_mul(j as u32 + 7)).collect();
        let mut buf = vec![0u8; recording_size(frames.len(), k)];
        let len = encode(&info, &frames, &checks, &mut buf).unwrap();
        let r = Recording::parse(&buf[..len]).unwrap();
        prop_assert_eq!(r.info(), info);
        prop_assert!(r.frames().eq(frames.iter().copied()));
        prop_assert!(r.checksums().eq(checks.iter().copied()));
        for (i, f) in frames.iter().enumerate() {
            prop_assert_eq!(r.frame(i as u32), Some(*f));
        }
        let mut out = FrameVec::<256>::new();
        decode(&buf[..len], &mut out).unwrap();
        prop_assert_eq!(out.as_slice(), frames.as_slice());
    }

    #[test]
    fn any_bytes_give_a_typed_result(bytes in proptest::collection::vec(any::<u8>(), 0..400)) {
        let mut out = FrameVec::<32>::new();
        match decode(&bytes, &mut out) {
            Ok(h) => prop_assert_eq!(h.frame_count as usize, out.len()),
            Err(_) => prop_assert!(out.is_empty()),
        }
        let _ = Recording::parse(&bytes);
    }

    #[test]
    fn any_body_behind_a_valid_header_gives_a_typed_result(
        body in proptest::collection::vec(any::<u8>(), 0..300),
        count in 0u32..100,
        k in 0u16..10,
        fix in any::<bool>(),
    ) {
        // A plausible header makes the decoder get past magic/version/length more often.
        let mut b = Vec::from(&DEMO_RECORDING[..HEADER_LEN]);
        b[8..12].copy_from_slice(&count.to_le_bytes());
        b[12..14].copy_from_slice(&((k > 0) as u16).to_le_bytes());
        b[14..16].copy_from_slice(&k.to_le_bytes());
        b.extend_from_slice(&body);
        if fix {
            fix_crc(&mut b);
        }
        if let Ok(r) = Recording::parse(&b) {
            prop_assert_eq!(r.frame_count(), count);
            prop_assert_eq!(r.frames().count(), count as usize);
            prop_assert_eq!(r.checksums().count(), r.checksum_count() as usize);
        }
    }

    #[test]
    fn a_flipped_byte_never_decodes_silently(at in 0usize..5544, flip in 1u8..=255) {
        let mut b = DEMO_RECORDING.to_vec();
        prop_assume!(at < b.len());
        b[at] ^= flip;
        match Recording::parse(&b) {
            // A flip that decodes must decode to the very same recording (impossible in practice).
            Ok(r) => prop_assert!(r.frames().eq(Recording::parse(DEMO_RECORDING).unwrap().frames())),
            Err(e) => {
                // Everything the CRC covers and the length does not depend on is a CRC error.
                if at >= 16 || (6..8).contains(&at) {
                    prop_assert!(matches!(e, DecodeError::CrcMismatch { .. }), "byte {} → {:?}", at, e);
                }
            }
        }
    }
}
