//! Any bytes into the three readers of a recording: `Recording::parse` (version 1 only, zero-copy),
//! `load` and `decode` (either version). Never a panic; the readers agree: an accepted
//! recording's every accessor works, `load` and `decode` accept the same files (within their
//! capacities) with the same header and frames, and `parse` accepts exactly the version 1 files
//! `load` accepts, with the same view. A version 2 file is refused by `parse` by design
//! (`UnsupportedVersion`), never by a disagreement.
#![no_main]
use hopkit::ghost::format::FORMAT_VERSION_2;
use hopkit::ghost::{decode, load, load_scratch_size, DecodeError, FrameVec, Recording};
use libfuzzer_sys::fuzz_target;

/// Frames `decode` holds.
const CAPACITY: usize = 4096;

/// Every accessor of an accepted recording is total.
fn exercise(rec: &Recording<'_>) {
    let n = rec.frame_count();
    for i in 0..n.min(64) {
        assert!(rec.frame(i).is_some());
        let _ = rec.toward_segment_end(i);
        let _ = rec.checksum_before(i);
    }
    assert!(rec.frame(n).is_none());
    let _ = rec.info();
}

fuzz_target!(|data: &[u8]| {
    let parsed = Recording::parse(data);
    // Room for every recording `decode` can hold, whatever its checksum interval.
    let mut scratch = vec![0u8; load_scratch_size(CAPACITY, 1)];
    let loaded = load(data, &mut scratch);
    let mut frames: FrameVec<CAPACITY> = FrameVec::new();
    let decoded = decode(data, &mut frames);

    match (&loaded, &decoded) {
        (Ok(rec), Ok(h)) => {
            exercise(rec);
            assert_eq!(*h, *rec.header());
            assert!(rec.frames().eq(frames.iter().copied()));
        }
        (Ok(rec), Err(e)) => {
            exercise(rec);
            assert!(
                matches!(e, DecodeError::CapacityExceeded { .. })
                    && rec.frame_count() as usize > CAPACITY,
                "decode refused what load accepted: {e}"
            );
        }
        (Err(e), Ok(_)) => panic!("load refused what decode accepted: {e}"),
        (Err(a), Err(b)) => {
            let _ = (a.to_string(), b.to_string());
        }
    }

    match parsed {
        Ok(rec) => {
            exercise(&rec);
            let l = loaded
                .as_ref()
                .expect("load refused a version 1 file parse accepted");
            assert_eq!(rec.header(), l.header());
            assert_eq!(rec.as_bytes(), l.as_bytes());
        }
        Err(DecodeError::UnsupportedVersion { version }) if version == FORMAT_VERSION_2 => {
            // Version 2 is read by `load` / `decode` only (checked above).
        }
        Err(e) => {
            let _ = e.to_string();
            assert!(loaded.is_err(), "load accepted what parse refused: {e}");
            assert!(decoded.is_err(), "decode accepted what parse refused: {e}");
        }
    }
});
