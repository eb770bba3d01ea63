//! Corruptions of a valid recording (the bundled demo ghost): the fuzzer's bytes choose where and
//! how to damage it. Never a panic; and every corruption CRC-32 is guaranteed to catch — any burst
//! of at most 32 bits, i.e. changes confined to 4 consecutive bytes — is rejected.
#![no_main]
use hopkit::ghost::Recording;

/// The demo's bundled recording (`hopkit_demo::DEMO_RECORDING`; the fuzz workspace links only the core).
const DEMO_RECORDING: &[u8] = include_bytes!("../../demo/assets/demo.ghost");
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    if data.len() < 4 {
        return;
    }
    let mut bytes = DEMO_RECORDING.to_vec();
    let at = u16::from_le_bytes([data[0], data[1]]) as usize % bytes.len();
    match data[2] % 4 {
        // XOR a burst of up to 4 bytes: always detected by CRC-32.
        0 => {
            let burst = &data[3..data.len().min(7)];
            let mut changed = false;
            for (i, &x) in burst.iter().enumerate() {
                if let Some(b) = bytes.get_mut(at + i) {
                    *b ^= x;
                    changed |= x != 0;
                }
            }
            let r = Recording::parse(&bytes);
            if changed {
                assert!(r.is_err(), "a ≤ 32-bit burst at {at} was accepted");
            } else {
                assert!(r.is_ok());
            }
        }
        // Truncate or extend: the length check rejects it.
        1 => {
            bytes.truncate(at);
            assert!(Recording::parse(&bytes).is_err());
        }
        // ... except up to 3 zero bytes, which are padding (`format::unpadded`): the same
        // recording.
        2 => {
            let extra = &data[3..];
            bytes.extend_from_slice(extra);
            let padding = extra.len() <= 3 && extra.iter().all(|&b| b == 0);
            match Recording::parse(&bytes) {
                Ok(rec) => {
                    assert!(padding, "{} extra bytes accepted", extra.len());
                    assert_eq!(rec.as_bytes(), DEMO_RECORDING);
                }
                Err(_) => assert!(!padding, "padding of {} zeros refused", extra.len()),
            }
        }
        // Overwrite anywhere with arbitrary bytes: no panic (CRC collisions are possible in
        // principle for long changes, so only totality is checked).
        _ => {
            for (i, &x) in data[3..].iter().enumerate() {
                if let Some(b) = bytes.get_mut(at + i) {
                    *b = x;
                }
            }
            if let Ok(rec) = Recording::parse(&bytes) {
                for i in 0..rec.frame_count().min(64) {
                    let _ = rec.toward_segment_end(i);
                }
            }
        }
    }
});
