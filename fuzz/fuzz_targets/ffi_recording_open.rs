//! Any bytes through the C ABI: `hk_recording_open` with its error detail, then a ghost stepped
//! on an accepted recording. Never a panic, status codes only.
#![no_main]
use core::mem::MaybeUninit;
use hopkit_ffi::*;
use libfuzzer_sys::fuzz_target;

fuzz_target!(|data: &[u8]| {
    let mut rec = HkRecording {
        _opaque: [MaybeUninit::new(0); HK_RECORDING_SIZE],
    };
    let mut err = HkRecordingError::default();
    let st = unsafe { hk_recording_open(&mut rec, data.as_ptr(), data.len(), &mut err) };
    if st != HkStatus::HK_OK {
        assert_ne!(err.kind, HK_REC_OK);
        return;
    }
    let start = HkFlyerState {
        position: HkVec3 {
            x: 0.0,
            y: 12.0,
            z: 30.0,
        },
        orientation: HkQuat {
            x: 0.0,
            y: 0.0,
            z: 0.0,
            w: 1.0,
        },
        angular_velocity: HkVec3::default(),
        speed: 14.0,
    };
    let mut ghost = HkGhost {
        _opaque: [MaybeUninit::new(0); HK_GHOST_SIZE],
    };
    assert_eq!(
        unsafe { hk_ghost_init(&mut ghost, &start, 0) },
        HkStatus::HK_OK
    );
    let target = HkVec3 {
        x: 0.0,
        y: 5.0,
        z: 0.0,
    };
    let ground = HkGround {
        kind: HK_GROUND_DEMO,
        height: 0.0,
        origin: HkVec3::default(),
        normal: HkVec3 {
            x: 0.0,
            y: 1.0,
            z: 0.0,
        },
        probe: None,
        user: core::ptr::null_mut(),
        water: None,
        surface_motion: None,
        clearance: None,
        ladder: None,
        trace: None,
    };
    for _ in 0..16 {
        let st = unsafe {
            hk_ghost_step(
                &mut ghost,
                &rec,
                core::ptr::null(),
                &target,
                1,
                &ground,
                core::ptr::null_mut(),
            )
        };
        assert_eq!(st, HkStatus::HK_OK);
    }
});
