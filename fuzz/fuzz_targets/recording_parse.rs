//! Any bytes into `Recording::parse` and `decode`: never a panic; an accepted recording's every
//! accessor works and `decode` agrees with the zero-copy view.
#![no_main]
use hopkit::ghost::{decode, FrameVec, Recording};
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let parsed = Recording::parse(data);
    let mut frames: FrameVec<4096> = FrameVec::new();
    let decoded = decode(data, &mut frames);
    match parsed {
        Ok(rec) => {
            let n = rec.frame_count();
            // Every accessor of an accepted recording is total.
            for i in 0..n.min(64) {
                assert!(rec.frame(i).is_some());
                let _ = rec.toward_segment_end(i);
                let _ = rec.checksum_before(i);
            }
            assert!(rec.frame(n).is_none());
            if let Ok(h) = decoded {
                assert_eq!(h, *rec.header());
                assert!(rec.frames().eq(frames.iter().copied()));
            } else {
                assert!(
                    n as usize > frames.capacity(),
                    "decode rejected a parsable recording"
                );
            }
        }
        Err(e) => {
            assert!(decoded.is_err());
            let _ = e.to_string();
        }
    }
});
