//! The C ABI called from Rust exactly as C calls it: status codes for every kind of bad input,
//! no state change on error, and bit-exact agreement with the core.

use hopkit::ghost::{FlyerParams, Ghost, Recording};
use hopkit::hash::StateHash;
use hopkit::movement::{self, FrictionMath, MoveInput, MoveParams, MoverState};
use hopkit_demo as demo;
use hopkit_ffi::*;
use std::ffi::CStr;
use std::mem::MaybeUninit;
use std::ptr::{null, null_mut};

pub(crate) fn flat() -> HkGround {
    HkGround {
        kind: HK_GROUND_FLAT,
        height: 0.0,
        origin: HkVec3::default(),
        normal: HkVec3::default(),
        probe: None,
        user: null_mut(),
        water: None,
        surface_motion: None,
        clearance: None,
        ladder: None,
        trace: None,
    }
}

fn seed_params() -> HkMoveParams {
    let mut p = MaybeUninit::<HkMoveParams>::uninit();
    assert_eq!(unsafe { hk_move_params_seed(p.as_mut_ptr()) }, HK_OK);
    unsafe { p.assume_init() }
}

fn new_mover() -> HkMover {
    let mut m = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    assert_eq!(unsafe { hk_mover_init(&mut m, HkVec3::default()) }, HK_OK);
    m
}

/// Under Miri (scripts/ci-miri.sh) a run is the boundary's memory behaviour, checked on every
/// call: the same calls repeat tick after tick, so a few ticks check what hundreds do, and the
/// interpreter runs about a thousand times slower than native code. Long runs take `under_miri`
/// ticks there and `native` here; the outcomes only a whole run reaches are asserted natively
/// ([`WHOLE_RUNS`]).
pub(crate) fn run_length(native: u32, under_miri: u32) -> u32 {
    if cfg!(miri) {
        under_miri
    } else {
        native
    }
}

/// Runs have their native length ([`run_length`]): the outcomes of a whole run can be asserted.
pub(crate) const WHOLE_RUNS: bool = !cfg!(miri);

pub(crate) fn mover_hash(m: &HkMover) -> u64 {
    let mut h = 0;
    assert_eq!(unsafe { hk_mover_state_hash(m, &mut h) }, HK_OK);
    h
}

#[test]
fn every_status_has_a_message() {
    for code in 0..=9 {
        let s = unsafe { CStr::from_ptr(hk_status_str(code)) };
        assert!(!s.to_bytes().is_empty());
        assert_ne!(s.to_str().unwrap(), "unknown status", "code {code}");
    }
    let s = unsafe { CStr::from_ptr(hk_status_str(99)) };
    assert_eq!(s.to_str().unwrap(), "unknown status");
    assert_eq!(hk_abi_version(), HK_ABI_VERSION);
    let v = unsafe { CStr::from_ptr(hk_version()) };
    assert_eq!(v.to_str().unwrap(), env!("CARGO_PKG_VERSION"));
}

#[test]
fn null_pointers_are_reported() {
    let p = seed_params();
    let g = flat();
    let input = HkMoveInput {
        wish: HkVec2 { x: 1.0, y: 0.0 },
        jump: 0,
        facing: HkVec2 { x: 0.0, y: -1.0 },
        crouch: 0,
        look_up: 0.0,
    };
    let mut m = new_mover();
    unsafe {
        assert_eq!(hk_mover_init(null_mut(), HkVec3::default()), HK_ERR_NULL);
        assert_eq!(
            hk_mover_step(null_mut(), &p, &input, &g, 0.016, null_mut()),
            HK_ERR_NULL
        );
        assert_eq!(
            hk_mover_step(&mut m, null(), &input, &g, 0.016, null_mut()),
            HK_ERR_NULL
        );
        assert_eq!(
            hk_mover_step(&mut m, &p, null(), &g, 0.016, null_mut()),
            HK_ERR_NULL
        );
        // NULL ground is allowed (no ground), NULL events too.
        assert_eq!(
            hk_mover_step(&mut m, &p, &input, null(), 0.016, null_mut()),
            HK_OK
        );
        assert_eq!(hk_mover_get_state(&m, null_mut()), HK_ERR_NULL);
        assert_eq!(hk_move_params_seed(null_mut()), HK_ERR_NULL);
        assert_eq!(hk_demo_init(null_mut()), HK_ERR_NULL);
        assert_eq!(hk_demo_recording(null_mut(), null_mut()), HK_ERR_NULL);
        assert_eq!(
            hk_recording_open(null_mut(), [0u8].as_ptr(), 1, null_mut()),
            HK_ERR_NULL
        );
        let mut line = [0 as std::ffi::c_char; 40];
        assert_eq!(hk_format_hash_line(1, null_mut(), 40), HK_ERR_NULL);
        assert_eq!(
            hk_format_hash_line(1, line.as_mut_ptr(), HK_HASH_LINE_SIZE - 1),
            HK_ERR_BAD_LENGTH
        );
        assert_eq!(
            hk_format_hash_line(0xdead_beef, line.as_mut_ptr(), line.len()),
            HK_OK
        );
        assert_eq!(
            CStr::from_ptr(line.as_ptr()).to_str().unwrap(),
            "state-hash: 0x00000000deadbeef"
        );
        let g = HkGround {
            kind: HK_GROUND_CALLBACK,
            ..flat()
        };
        assert_eq!(
            hk_mover_step(&mut m, &p, &input, &g, 0.016, null_mut()),
            HK_ERR_NULL
        );
    }
}

#[test]
fn misaligned_and_uninitialised_storage_are_reported() {
    #[repr(C, align(8))]
    struct Buf([u8; HK_MOVER_SIZE + 8]);
    let mut buf = Buf([0; HK_MOVER_SIZE + 8]);
    let p = seed_params();
    unsafe {
        let odd = buf.0.as_mut_ptr().add(1).cast::<HkMover>();
        assert_eq!(hk_mover_init(odd, HkVec3::default()), HK_ERR_MISALIGNED);
        let even = buf.0.as_mut_ptr().cast::<HkMover>();
        // Zeroed storage was never initialised.
        let mut s = MaybeUninit::<HkMoverState>::uninit();
        assert_eq!(
            hk_mover_get_state(even, s.as_mut_ptr()),
            HK_ERR_UNINITIALIZED
        );
        let input = HkMoveInput {
            wish: HkVec2::default(),
            jump: 0,
            facing: HkVec2::default(),
            crouch: 0,
            look_up: 0.0,
        };
        assert_eq!(
            hk_mover_step(even, &p, &input, null(), 0.016, null_mut()),
            HK_ERR_UNINITIALIZED
        );
        // Storage of another type is rejected by its tag.
        let mut slope = HkSlope {
            _opaque: [MaybeUninit::new(0); HK_SLOPE_SIZE],
        };
        assert_eq!(hk_slope_init(&mut slope), HK_OK);
        assert_eq!(
            hk_mover_get_state((&slope as *const HkSlope).cast(), s.as_mut_ptr()),
            HK_ERR_UNINITIALIZED
        );
        assert_eq!(hk_mover_init(even, HkVec3::default()), HK_OK);
        assert_eq!(hk_mover_get_state(even, s.as_mut_ptr()), HK_OK);
        let mut misaligned_out = [0u32; 2];
        let out = misaligned_out
            .as_mut_ptr()
            .cast::<u8>()
            .add(2)
            .cast::<f32>();
        assert_eq!(hk_mover_planar_speed(even, out), HK_ERR_MISALIGNED);
    }
}

#[test]
fn bad_numbers_are_rejected_and_change_nothing() {
    let p = seed_params();
    let g = flat();
    let good = HkMoveInput {
        wish: HkVec2 { x: 1.0, y: 0.0 },
        jump: 1,
        facing: HkVec2 { x: 0.0, y: -1.0 },
        crouch: 0,
        look_up: 0.0,
    };
    let mut m = new_mover();
    for _ in 0..30 {
        assert_eq!(
            unsafe { hk_mover_step(&mut m, &p, &good, &g, 1.0 / 60.0, null_mut()) },
            HK_OK
        );
    }
    let before = mover_hash(&m);
    let nan_input = HkMoveInput {
        wish: HkVec2 {
            x: f32::NAN,
            y: 0.0,
        },
        ..good
    };
    let bad_jump = HkMoveInput { jump: 2, ..good };
    let mut bad_enum = p;
    bad_enum.friction_model = 7;
    let mut bad_math = p;
    bad_math.friction_math = 2;
    let mut neg = p;
    neg.gravity = -1.0;
    let mut inf = p;
    inf.max_speed = f32::INFINITY;
    let mut cap_inf = p;
    cap_inf.air_wish_cap = f32::INFINITY;
    let nan_ground = HkGround {
        height: f32::NAN,
        ..flat()
    };
    let bad_kind = HkGround { kind: 99, ..flat() };
    let steep = HkGround {
        kind: HK_GROUND_PLANE,
        normal: HkVec3 {
            x: 1.0,
            y: 0.0,
            z: 0.0,
        },
        ..flat()
    };
    unsafe {
        for dt in [0.0, -1.0, f32::NAN, f32::INFINITY, HK_MAX_STEP_DT * 2.0] {
            assert_eq!(
                hk_mover_step(&mut m, &p, &good, &g, dt, null_mut()),
                HK_ERR_INVALID_ARG,
                "dt {dt}"
            );
        }
        for (params, input, ground) in [
            (&p, &nan_input, &g),
            (&p, &bad_jump, &g),
            (&bad_enum, &good, &g),
            (&bad_math, &good, &g),
            (&neg, &good, &g),
            (&inf, &good, &g),
            (&p, &good, &nan_ground),
            (&p, &good, &bad_kind),
            (&p, &good, &steep),
        ] {
            let mut ev = HkStepEvents {
                jumped: 77,
                ..Default::default()
            };
            assert_eq!(
                hk_mover_step(&mut m, params, input, ground, 0.016, &mut ev),
                HK_ERR_INVALID_ARG
            );
            assert_eq!(ev.jumped, 77, "events written on error");
        }
        assert_eq!(mover_hash(&m), before, "state changed on error");
        // INFINITY is a documented value for the air cap.
        assert_eq!(
            hk_mover_step(&mut m, &cap_inf, &good, &g, 0.016, null_mut()),
            HK_OK
        );
        // Bad state writes are rejected too.
        let mut s = MaybeUninit::<HkMoverState>::uninit();
        assert_eq!(hk_mover_get_state(&m, s.as_mut_ptr()), HK_OK);
        let mut s = s.assume_init();
        let h = mover_hash(&m);
        s.velocity.x = f32::NAN;
        assert_eq!(hk_mover_set_state(&mut m, &s), HK_ERR_INVALID_ARG);
        s.velocity.x = 0.0;
        s.ground_normal = HkVec3::default();
        assert_eq!(hk_mover_set_state(&mut m, &s), HK_ERR_INVALID_ARG);
        assert_eq!(mover_hash(&m), h);
    }
}

#[test]
fn mover_matches_the_core_bit_for_bit() {
    mover_matches_the_core(HK_FRICTION_MATH_RSQRT, FrictionMath::Rsqrt);
    mover_matches_the_core(HK_FRICTION_MATH_SQRT_DIVIDE, FrictionMath::SqrtDivide);
}

/// The seed preset with friction computed in the given form, through the ABI and in the core.
fn mover_matches_the_core(c_math: u32, core_math: FrictionMath) {
    let p = HkMoveParams {
        friction_math: c_math,
        ..seed_params()
    };
    let g = flat();
    let mut m = new_mover();
    let mut core = MoverState::new(hopkit::math::Vec3::ZERO);
    let cp = MoveParams {
        friction_math: core_math,
        ..MoveParams::seed()
    };
    let mut top = 0.0f32;
    for tick in 0..run_length(900, 90) {
        let mut s = MaybeUninit::<HkMoverState>::uninit();
        assert_eq!(unsafe { hk_mover_get_state(&m, s.as_mut_ptr()) }, HK_OK);
        let s = unsafe { s.assume_init() };
        let (wish, jump, facing) = if tick < 60 {
            (HkVec2 { x: 1.0, y: 0.0 }, 0, HkVec2 { x: 0.0, y: -1.0 })
        } else {
            let side = if (tick / 90) % 2 == 0 { 1.0 } else { -1.0 };
            (
                HkVec2 { x: 0.0, y: side },
                1,
                HkVec2 {
                    x: s.velocity.x,
                    y: s.velocity.z,
                },
            )
        };
        let input = HkMoveInput {
            wish,
            jump,
            facing,
            crouch: 0,
            look_up: 0.0,
        };
        assert_eq!(
            unsafe { hk_mover_step(&mut m, &p, &input, &g, 1.0 / 60.0, null_mut()) },
            HK_OK
        );
        let ci = MoveInput::new(wish.into(), jump == 1, facing.into());
        movement::step(
            &mut core,
            &cp,
            &ci,
            &hopkit::ground::FlatGround::new(0.0),
            1.0 / 60.0,
        );
        assert_eq!(mover_hash(&m), core.state_hash(), "tick {tick}");
        top = top.max(core.planar_speed());
    }
    assert!(
        !WHOLE_RUNS || top > 1.3 * cp.max_speed,
        "the bot strafe-jumps: {top}"
    );
}

#[test]
fn presets_convert_losslessly() {
    let mut p = MaybeUninit::<HkMoveParams>::uninit();
    for (f, core) in [
        (
            hk_move_params_seed as unsafe extern "C" fn(*mut HkMoveParams) -> HkStatus,
            MoveParams::seed(),
        ),
        (hk_move_params_seed_figure, MoveParams::seed_figure()),
        (hk_move_params_quakeworld, MoveParams::quakeworld()),
        (hk_move_params_quake3, MoveParams::quake3()),
        (hk_move_params_source, MoveParams::source()),
        (hk_move_params_cpma, MoveParams::cpma()),
    ] {
        assert_eq!(unsafe { f(p.as_mut_ptr()) }, HK_OK);
        let c = unsafe { p.assume_init() };
        assert_eq!(c, HkMoveParams::from(core));
        // Every preset passes validation.
        let mut m = new_mover();
        let input = HkMoveInput {
            wish: HkVec2 { x: 1.0, y: 1.0 },
            jump: 1,
            facing: HkVec2 { x: 0.0, y: -1.0 },
            crouch: 1,
            look_up: 0.0,
        };
        assert_eq!(
            unsafe { hk_mover_step(&mut m, &c, &input, &flat(), 0.02, null_mut()) },
            HK_OK
        );
    }
}

fn demo_bytes() -> (*const u8, usize) {
    let mut ptr = null();
    let mut len = 0;
    assert_eq!(unsafe { hk_demo_recording(&mut ptr, &mut len) }, HK_OK);
    (ptr, len)
}

fn open(bytes: &[u8]) -> (HkStatus, HkRecordingError, HkRecording) {
    let mut rec = HkRecording {
        _opaque: [MaybeUninit::new(0); HK_RECORDING_SIZE],
    };
    let mut err = HkRecordingError {
        kind: 99,
        ..Default::default()
    };
    let st = unsafe { hk_recording_open(&mut rec, bytes.as_ptr(), bytes.len(), &mut err) };
    (st, err, rec)
}

#[test]
fn recordings_are_validated_with_reasons() {
    let (ptr, len) = demo_bytes();
    let good = unsafe { std::slice::from_raw_parts(ptr, len) }.to_vec();
    assert_eq!(good, hopkit_demo::DEMO_RECORDING);
    let (st, err, _) = open(&good);
    assert_eq!((st, err.kind), (HK_OK, HK_REC_OK));

    let (st, err, rec) = open(&good[..good.len() - 1]);
    assert_eq!((st, err.kind), (HK_ERR_BAD_RECORDING, HK_REC_TRUNCATED));
    assert_eq!((err.expected, err.found), (len as u64, len as u64 - 1));
    // SAFETY: the test zeroed the storage and a failing open writes nothing.
    let bytes: Vec<u8> = rec
        ._opaque
        .iter()
        .map(|b| unsafe { b.assume_init() })
        .collect();
    assert_eq!(bytes, [0; HK_RECORDING_SIZE], "storage written on error");
    let mut long = good.clone();
    long.push(1); // a non-zero byte: up to 3 zeros would be padding (format::unpadded)
    assert_eq!(open(&long).1.kind, HK_REC_TRAILING_BYTES);
    let mut magic = good.clone();
    magic[0] = b'X';
    assert_eq!(open(&magic).1.kind, HK_REC_BAD_MAGIC);
    let mut version = good.clone();
    version[4] = 9;
    assert_eq!(open(&version).1.kind, HK_REC_UNSUPPORTED_VERSION);
    let mut flipped = good.clone();
    flipped[500] ^= 1;
    assert_eq!(open(&flipped).1.kind, HK_REC_CRC_MISMATCH);
    assert_eq!(open(&good[..3]).1.kind, HK_REC_TRUNCATED);
    assert_eq!(open(&[]).1.kind, HK_REC_TRUNCATED);
    let mut rec = HkRecording {
        _opaque: [MaybeUninit::new(0); HK_RECORDING_SIZE],
    };
    assert_eq!(
        unsafe { hk_recording_open(&mut rec, null(), 0, null_mut()) },
        HK_ERR_NULL
    );
}

#[test]
fn ghost_playback_matches_the_core_and_verifies() {
    let (ptr, len) = demo_bytes();
    let bytes = unsafe { std::slice::from_raw_parts(ptr, len) };
    let (st, _, rec) = open(bytes);
    assert_eq!(st, HK_OK);
    let mut info = HkRecordingInfo::default();
    assert_eq!(unsafe { hk_recording_info(&rec, &mut info) }, HK_OK);
    assert_eq!(
        (info.tick_hz, info.frame_count, info.checksum_count),
        (60, 1800, 30)
    );
    let mut frame = HkFrame::default();
    assert_eq!(unsafe { hk_recording_frame(&rec, 1799, &mut frame) }, HK_OK);
    assert_eq!(
        unsafe { hk_recording_frame(&rec, 1800, &mut frame) },
        HK_ERR_BAD_LENGTH
    );

    let mut start = MaybeUninit::<HkFlyerState>::uninit();
    let mut targets = null();
    let mut n = 0;
    assert_eq!(
        unsafe { hk_demo_recording_setup(start.as_mut_ptr(), &mut targets, &mut n) },
        HK_OK
    );
    let start = unsafe { start.assume_init() };
    let level = HkGround {
        kind: HK_GROUND_DEMO,
        ..flat()
    };
    let mut checks = 0;
    let mut desync = HkDesync::default();
    let verified = unsafe {
        hk_recording_verify(
            &rec,
            null(),
            &start,
            targets,
            n,
            &level,
            &mut checks,
            &mut desync,
        )
    };
    // The bundled recording's checksums were made with the `libm` backend (a build with
    // `--features hopkit/micromath` replays it differently and reports the desync).
    if hopkit::math::scalar::BACKEND == "libm" {
        assert_eq!(verified, HK_OK);
        assert_eq!(checks, 30);
    } else {
        assert_eq!(verified, HK_ERR_DESYNC);
    }
    // From the wrong start the replay desyncs at the first checksum.
    let mut moved = start;
    moved.position.x += 1.0;
    assert_eq!(
        unsafe {
            hk_recording_verify(
                &rec,
                null(),
                &moved,
                targets,
                n,
                &level,
                &mut checks,
                &mut desync,
            )
        },
        HK_ERR_DESYNC
    );
    assert_eq!(desync.tick, 0);

    // AI playback through the ABI equals the core's Ghost::step.
    let mut g = HkGhost {
        _opaque: [MaybeUninit::new(0); HK_GHOST_SIZE],
    };
    assert_eq!(unsafe { hk_ghost_init(&mut g, &start, 123) }, HK_OK);
    let core_rec = Recording::parse(hopkit_demo::DEMO_RECORDING).unwrap();
    let ts = demo::pilot::TARGETS;
    let mut core = Ghost::new(demo::pilot::start_state(), 123);
    let mut fired = 0;
    for t in 0..run_length(1200, 60) {
        let mut tick = HkGhostTick::default();
        assert_eq!(
            unsafe { hk_ghost_step(&mut g, &rec, null(), targets, n, &level, &mut tick) },
            HK_OK
        );
        let ct = core.step(
            &core_rec,
            &FlyerParams::default(),
            &ts,
            &hopkit_demo::level::DemoGround,
        );
        assert_eq!(tick.frame_index, ct.frame_index);
        fired += tick.firing as u32;
        let mut h = 0;
        assert_eq!(unsafe { hk_ghost_state_hash(&g, &mut h) }, HK_OK);
        assert_eq!(h, core.state_hash(), "tick {t}");
    }
    let mut view = MaybeUninit::<HkGhostView>::uninit();
    assert_eq!(unsafe { hk_ghost_view(&g, view.as_mut_ptr()) }, HK_OK);
    assert_eq!(unsafe { view.assume_init() }.fire_ticks, fired);
    // Non-finite targets are rejected.
    let bad = [HkVec3 {
        x: f32::NAN,
        y: 0.0,
        z: 0.0,
    }];
    assert_eq!(
        unsafe { hk_ghost_step(&mut g, &rec, null(), bad.as_ptr(), 1, &level, null_mut()) },
        HK_ERR_INVALID_ARG
    );
    assert_eq!(
        unsafe { hk_ghost_step(&mut g, &rec, null(), null(), 3, &level, null_mut()) },
        HK_ERR_NULL
    );
}

#[test]
fn demo_rig_matches_scripted_hash() {
    let mut rig = Box::new(HkDemoRig {
        _opaque: [MaybeUninit::new(0); HK_DEMO_RIG_SIZE],
    });
    assert_eq!(unsafe { hk_demo_init(&mut *rig) }, HK_OK);
    let ticks = run_length(240, 12);
    for t in 0..ticks {
        let mut raw = HkRawSticks::default();
        assert_eq!(unsafe { hk_demo_scripted_raw(t, &mut raw) }, HK_OK);
        assert_eq!(hopkit::stick::RawSticks::from(raw), demo::scripted_raw(t));
        assert_eq!(unsafe { hk_demo_tick(&mut *rig, &raw) }, HK_OK);
    }
    let (mut h, mut expected, mut n) = (0, 0, 0);
    assert_eq!(unsafe { hk_demo_state_hash(&*rig, &mut h) }, HK_OK);
    assert_eq!(
        unsafe { hk_demo_scripted_hash(ticks, &mut expected) },
        HK_OK
    );
    assert_eq!(unsafe { hk_demo_tick_count(&*rig, &mut n) }, HK_OK);
    assert_eq!((h, n), (demo::scripted_hash(ticks), ticks));
    assert_eq!(expected, h);
    // A byte copy of initialised storage is a snapshot that continues identically.
    let mut copy = rig.clone_bytes();
    let raw = HkRawSticks::from(demo::scripted_raw(ticks));
    assert_eq!(unsafe { hk_demo_tick(&mut *rig, &raw) }, HK_OK);
    assert_eq!(unsafe { hk_demo_tick(&mut *copy, &raw) }, HK_OK);
    let (mut a, mut b) = (0, 0);
    unsafe {
        hk_demo_state_hash(&*rig, &mut a);
        hk_demo_state_hash(&*copy, &mut b);
    }
    assert_eq!(a, b);
    let mut view = HkDemoView::default();
    assert_eq!(unsafe { hk_demo_view(&*rig, &mut view) }, HK_OK);
    assert_eq!((view.critter_count, view.ghost_count), (4, 4));
    assert_eq!(view.tick, ticks + 1);
}

trait CloneBytes {
    fn clone_bytes(&self) -> Box<Self>;
}
impl CloneBytes for HkDemoRig {
    fn clone_bytes(&self) -> Box<Self> {
        Box::new(HkDemoRig {
            _opaque: self._opaque,
        })
    }
}

#[test]
fn stick_pipeline_and_digital_adapters() {
    let mut p = HkStickPipeline {
        _opaque: [MaybeUninit::new(0); HK_STICK_PIPELINE_SIZE],
    };
    let mut cfg = MaybeUninit::<HkStickConfig>::uninit();
    assert_eq!(unsafe { hk_stick_config_default(cfg.as_mut_ptr()) }, HK_OK);
    let mut cfg = unsafe { cfg.assume_init() };
    assert_eq!(unsafe { hk_stick_pipeline_init(&mut p, &cfg) }, HK_OK);
    // An even ADC max has an exact mid-scale count.
    let raw = HkRawSticks {
        left_x: 4096,
        left_y: 2048,
        right_x: 2048,
        right_y: 2048,
        adc_max: 4096,
        buttons: 1,
    };
    let mut f = HkStickFrame::default();
    assert_eq!(
        unsafe { hk_stick_pipeline_process(&mut p, &raw, &mut f) },
        HK_OK
    );
    assert_eq!((f.left.x, f.buttons.just_pressed), (1.0, 1));
    let mut w = HkWish::default();
    assert_eq!(unsafe { hk_wish_from_stick(f.left, &mut w) }, HK_OK);
    assert_eq!((w.front, w.right, w.magnitude), (0.0, 1.0, 1.0));
    // Bad config values are rejected and leave the pipeline as it was.
    let mut h0 = 0;
    unsafe { hk_stick_pipeline_state_hash(&p, &mut h0) };
    cfg.left_x.centre = 1.5;
    assert_eq!(
        unsafe { hk_stick_pipeline_set_config(&mut p, &cfg) },
        HK_ERR_INVALID_ARG
    );
    cfg.left_x.centre = 0.5;
    cfg.left_y.invert = 2;
    assert_eq!(
        unsafe { hk_stick_pipeline_set_config(&mut p, &cfg) },
        HK_ERR_INVALID_ARG
    );
    cfg.left_y.invert = 0;
    cfg.right_shape.curve = f32::NAN;
    assert_eq!(
        unsafe { hk_stick_pipeline_init(&mut p, &cfg) },
        HK_ERR_INVALID_ARG
    );
    let mut h1 = 0;
    unsafe { hk_stick_pipeline_state_hash(&p, &mut h1) };
    assert_eq!(h0, h1);
    // Centre capture: count limits.
    let rest = [raw; 2];
    assert_eq!(
        unsafe { hk_stick_pipeline_capture_centres(&mut p, rest.as_ptr(), 0) },
        HK_ERR_BAD_LENGTH
    );
    assert_eq!(
        unsafe { hk_stick_pipeline_capture_centres(&mut p, rest.as_ptr(), HK_MAX_REST_FRAMES + 1) },
        HK_ERR_BAD_LENGTH
    );
    assert_eq!(
        unsafe { hk_stick_pipeline_capture_centres(&mut p, rest.as_ptr(), 2) },
        HK_OK
    );
    let no_adc = [HkRawSticks::default()];
    assert_eq!(
        unsafe { hk_stick_pipeline_capture_centres(&mut p, no_adc.as_ptr(), 1) },
        HK_ERR_INVALID_ARG
    );

    // The seed's diagonal rule through every digital path.
    let h = std::f32::consts::FRAC_1_SQRT_2;
    assert_eq!(
        unsafe { hk_wish_from_keys(HK_DPAD_UP | HK_DPAD_RIGHT, &mut w) },
        HK_OK
    );
    assert_eq!((w.front, w.right, w.magnitude), (h, h, 1.0));
    assert_eq!(
        unsafe { hk_wish_from_keys(HK_DPAD_UP | HK_DPAD_RIGHT | HK_DPAD_LEFT, &mut w) },
        HK_OK
    );
    assert_eq!((w.front, w.right), (1.0, 0.0));
    assert_eq!(unsafe { hk_wish_from_keys(16, &mut w) }, HK_ERR_INVALID_ARG);
    let mut s = HkVec2::default();
    let walk = HkDPadParams {
        walk: 0.25,
        run: 1.0,
    };
    assert_eq!(
        unsafe { hk_dpad_to_stick(HK_DPAD_DOWN, 0, &walk, &mut s) },
        HK_OK
    );
    assert_eq!((s.x, s.y), (0.0, -0.25));
    assert_eq!(
        unsafe { hk_dpad_to_stick(HK_DPAD_DOWN, 2, &walk, &mut s) },
        HK_ERR_INVALID_ARG
    );
    let bad = HkDPadParams {
        walk: 1.5,
        run: 1.0,
    };
    assert_eq!(
        unsafe { hk_dpad_wish(HK_DPAD_DOWN, 1, &bad, &mut w) },
        HK_ERR_INVALID_ARG
    );
    assert_eq!(
        unsafe { hk_dpad_wish(HK_DPAD_DOWN, 1, null(), &mut w) },
        HK_OK
    );
    assert_eq!((w.front, w.magnitude), (-1.0, 1.0));
    let mut digital = MaybeUninit::<HkStickConfig>::uninit();
    assert_eq!(
        unsafe { hk_stick_config_digital(digital.as_mut_ptr()) },
        HK_OK
    );
    for g in 0..=255u8 {
        let mut pipe = HkStickPipeline {
            _opaque: [MaybeUninit::new(0); HK_STICK_PIPELINE_SIZE],
        };
        assert_eq!(
            unsafe { hk_stick_pipeline_init(&mut pipe, digital.as_ptr()) },
            HK_OK
        );
        let mut raw = HkRawSticks::default();
        assert_eq!(unsafe { hk_wasm4_to_raw(g, &mut raw) }, HK_OK);
        // The carts' mapping, not a second one.
        assert_eq!(raw, demo::gamepad_raw(g).into(), "gamepad {g:#010b}");
        assert_eq!(
            unsafe { hk_stick_pipeline_process(&mut pipe, &raw, &mut f) },
            HK_OK
        );
        let mut direct = HkVec2::default();
        assert_eq!(unsafe { hk_wasm4_to_stick(g, &mut direct) }, HK_OK);
        // 12-bit counts read back within a count of the d-pad's direction.
        let count = 2.0 / 4095.0;
        assert!(
            (f.left.x - direct.x).abs() <= count && (f.left.y - direct.y).abs() <= count,
            "gamepad {g:#010b}: {:?} vs {direct:?}",
            f.left
        );
        assert!((f.right.x - HK_W4_TURN_WITH_STRAFE * direct.x).abs() <= count);
        // Jump and fire as `hk_wasm4_buttons`; bit 2 (crouch, unused by WASM-4) passes through.
        assert_eq!(f.buttons.held, hk_wasm4_buttons(g) | (g & 4));
    }
    let mut yaw = 0.0;
    assert_eq!(unsafe { hk_crank_yaw_delta(90.0, 1.0, &mut yaw) }, HK_OK);
    assert!((yaw + std::f32::consts::FRAC_PI_2).abs() < 1e-6);
    assert_eq!(
        unsafe { hk_crank_look_rate(10.0, 0.0, 1.0, &mut yaw) },
        HK_ERR_INVALID_ARG
    );
    assert_eq!(unsafe { hk_crank_to_stick(90.0, &mut s) }, HK_OK);
    assert_eq!((s.x, s.y), (1.0, 0.0));
    let mut d = 0.0;
    assert_eq!(unsafe { hk_crank_change_deg(350.0, 10.0, &mut d) }, HK_OK);
    assert_eq!(d, 20.0);
}

#[test]
fn follower_slope_and_arrival() {
    let mut fp = MaybeUninit::<HkFollowerParams>::uninit();
    assert_eq!(unsafe { hk_follower_params_seed(fp.as_mut_ptr()) }, HK_OK);
    let fp = unsafe { fp.assume_init() };
    let mut f = HkFollower {
        _opaque: [MaybeUninit::new(0); HK_FOLLOWER_SIZE],
    };
    let origin = HkVec3::default();
    let start = HkVec3 {
        x: 0.0,
        y: 0.0,
        z: 3.0,
    };
    assert_eq!(
        unsafe { hk_follower_init(&mut f, start, origin, 0.0) },
        HK_OK
    );
    let g = flat();
    let mut recorded = 0;
    for t in 0..300 {
        let leader = HkVec3 {
            x: t as f32 * 0.1,
            y: 0.0,
            z: 0.0,
        };
        let mut ev = HkFollowerEvents::default();
        assert_eq!(
            unsafe { hk_follower_step(&mut f, &fp, leader, &g, 1.0 / 60.0, &mut ev) },
            HK_OK
        );
        recorded += ev.crumb_recorded as u32;
    }
    assert!(recorded > 10);
    let mut view = MaybeUninit::<HkFollowerView>::uninit();
    assert_eq!(unsafe { hk_follower_view(&f, view.as_mut_ptr()) }, HK_OK);
    let view = unsafe { view.assume_init() };
    assert!(view.position.x > 15.0, "the follower followed: {view:?}");
    let mut crumbs = [HkVec3::default(); HK_FOLLOWER_TRAIL_CAPACITY];
    let mut n = 0;
    assert_eq!(
        unsafe { hk_follower_crumbs(&f, crumbs.as_mut_ptr(), crumbs.len(), &mut n) },
        HK_OK
    );
    assert_eq!(n, view.crumb_count as usize);
    if n > 0 {
        assert_eq!(
            unsafe { hk_follower_crumbs(&f, crumbs.as_mut_ptr(), n - 1, &mut n) },
            HK_ERR_BAD_LENGTH
        );
    }
    let mut bad = fp;
    bad.reference_hz = 0.0;
    assert_eq!(
        unsafe { hk_follower_step(&mut f, &bad, origin, &g, 0.016, null_mut()) },
        HK_ERR_INVALID_ARG
    );
    bad = fp;
    bad.integrate = 3;
    assert_eq!(
        unsafe { hk_follower_step(&mut f, &bad, origin, &g, 0.016, null_mut()) },
        HK_ERR_INVALID_ARG
    );

    // Slope: a 30° ramp normal tilts the body, NaN is rejected.
    let mut sp = MaybeUninit::<HkSlopeParams>::uninit();
    assert_eq!(unsafe { hk_slope_params_seed(sp.as_mut_ptr()) }, HK_OK);
    let sp = unsafe { sp.assume_init() };
    let mut s = HkSlope {
        _opaque: [MaybeUninit::new(0); HK_SLOPE_SIZE],
    };
    assert_eq!(unsafe { hk_slope_init(&mut s) }, HK_OK);
    let id = HkQuat {
        x: 0.0,
        y: 0.0,
        z: 0.0,
        w: 1.0,
    };
    let n30 = HkVec3 {
        x: 0.5,
        y: 0.866_025_4,
        z: 0.0,
    };
    for _ in 0..60 {
        assert_eq!(
            unsafe { hk_slope_step(&mut s, &sp, id, &n30, 1.0 / 60.0, null_mut()) },
            HK_OK
        );
    }
    let mut sv = MaybeUninit::<HkSlopeView>::uninit();
    assert_eq!(unsafe { hk_slope_view(&s, sv.as_mut_ptr()) }, HK_OK);
    let sv = unsafe { sv.assume_init() };
    assert!((sv.tilt_angle - std::f32::consts::FRAC_PI_6).abs() < 1e-3);
    let zero_q = HkQuat { w: 0.0, ..id };
    assert_eq!(
        unsafe { hk_slope_step(&mut s, &sp, zero_q, null(), 0.016, null_mut()) },
        HK_ERR_INVALID_ARG
    );

    // Arrival: stops exactly, never overshoots.
    let mut stp = MaybeUninit::<HkSteeringParams>::uninit();
    let mut ap = MaybeUninit::<HkArrivalParams>::uninit();
    assert_eq!(
        unsafe { hk_steering_params_critter(stp.as_mut_ptr()) },
        HK_OK
    );
    assert_eq!(unsafe { hk_arrival_params_default(ap.as_mut_ptr()) }, HK_OK);
    let mut a = HkArrival {
        _opaque: [MaybeUninit::new(0); HK_ARRIVAL_SIZE],
    };
    assert_eq!(unsafe { hk_arrival_init(&mut a, origin) }, HK_OK);
    let target = HkVec3 {
        x: 5.0,
        y: 0.0,
        z: -3.0,
    };
    let mut arrived = 0;
    let mut max_x = 0.0f32;
    for _ in 0..600 {
        assert_eq!(
            unsafe {
                hk_arrival_step(
                    &mut a,
                    stp.as_ptr(),
                    ap.as_ptr(),
                    target,
                    1.0 / 60.0,
                    &mut arrived,
                )
            },
            HK_OK
        );
        let mut agent = HkAgent::default();
        assert_eq!(unsafe { hk_arrival_get(&a, &mut agent, null_mut()) }, HK_OK);
        max_x = max_x.max(agent.position.x);
    }
    assert_eq!(arrived, 1);
    assert!(max_x <= 5.0 + 1e-4, "overshoot {max_x}");
    assert_eq!(
        unsafe { hk_arrival_get(&a, null_mut(), null_mut()) },
        HK_ERR_NULL
    );
}

#[test]
fn callback_ground_is_used_and_validated() {
    unsafe extern "C" fn floor(
        user: *mut std::ffi::c_void,
        _p: HkVec3,
        hit: *mut HkGroundHit,
    ) -> i32 {
        let h = unsafe { *(user as *const f32) };
        unsafe {
            (*hit).height = h;
            (*hit).normal = HkVec3 {
                x: 0.0,
                y: 2.0,
                z: 0.0,
            };
        }
        1
    }
    let mut height = 5.0f32;
    let height_ptr: *mut f32 = &mut height;
    let g = HkGround {
        kind: HK_GROUND_CALLBACK,
        probe: Some(floor),
        user: height_ptr.cast(),
        water: None,
        surface_motion: None,
        clearance: None,
        ladder: None,
        trace: None,
        ..flat()
    };
    let p = seed_params();
    let mut m = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    assert_eq!(
        unsafe {
            hk_mover_init(
                &mut m,
                HkVec3 {
                    x: 0.0,
                    y: 5.0,
                    z: 0.0,
                },
            )
        },
        HK_OK
    );
    let input = HkMoveInput {
        wish: HkVec2::default(),
        jump: 0,
        facing: HkVec2::default(),
        crouch: 0,
        look_up: 0.0,
    };
    assert_eq!(
        unsafe { hk_mover_step(&mut m, &p, &input, &g, 1.0 / 60.0, null_mut()) },
        HK_OK
    );
    let mut s = MaybeUninit::<HkMoverState>::uninit();
    assert_eq!(unsafe { hk_mover_get_state(&m, s.as_mut_ptr()) }, HK_OK);
    let s = unsafe { s.assume_init() };
    assert_eq!(s.grounded, 1);
    assert_eq!(s.position.y, 5.0);
    assert_eq!(s.ground_normal.y, 1.0, "normal normalised");
    unsafe { *height_ptr = f32::NAN }; // a broken probe is "no ground", never NaN state
    assert_eq!(
        unsafe { hk_mover_step(&mut m, &p, &input, &g, 1.0 / 60.0, null_mut()) },
        HK_OK
    );
    let mut st = MaybeUninit::<HkMoverState>::uninit();
    assert_eq!(unsafe { hk_mover_get_state(&m, st.as_mut_ptr()) }, HK_OK);
    let st = unsafe { st.assume_init() };
    assert!(st.position.y.is_finite() && st.grounded == 0);
}

mod props {
    use super::*;
    use proptest::prelude::*;

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(128))]

        /// Any bytes: a recording or a typed rejection, never a crash.
        #[test]
        fn arbitrary_recording_bytes(mut bytes in proptest::collection::vec(any::<u8>(), 0..200), keep_header in any::<bool>()) {
            if keep_header && bytes.len() >= 24 {
                bytes[..24].copy_from_slice(&hopkit_demo::DEMO_RECORDING[..24]);
            }
            let (st, err, _) = open(&bytes);
            prop_assert_eq!(st, HK_ERR_BAD_RECORDING);
            prop_assert!((1..=6).contains(&err.kind));
        }

        /// Any float inputs: either rejected or a finite state.
        #[test]
        fn arbitrary_mover_inputs(
            wx in any::<f32>(), wy in any::<f32>(), fx in any::<f32>(), fy in any::<f32>(),
            dt in any::<f32>(), jump in 0u8..3, h in any::<f32>(),
        ) {
            let p = seed_params();
            let mut m = new_mover();
            let g = HkGround { height: h, ..flat() };
            let input = HkMoveInput { wish: HkVec2 { x: wx, y: wy }, jump, facing: HkVec2 { x: fx, y: fy }, crouch: jump, look_up: 0.0 };
            let before = mover_hash(&m);
            let st = unsafe { hk_mover_step(&mut m, &p, &input, &g, dt, null_mut()) };
            let mut s = MaybeUninit::<HkMoverState>::uninit();
            prop_assert_eq!(unsafe { hk_mover_get_state(&m, s.as_mut_ptr()) }, HK_OK);
            let s = unsafe { s.assume_init() };
            if st == HK_OK {
                let finite = |v: HkVec3| v.x.is_finite() && v.y.is_finite() && v.z.is_finite();
                prop_assert!(finite(s.position) && finite(s.velocity));
            } else {
                prop_assert_eq!(st, HK_ERR_INVALID_ARG);
                prop_assert_eq!(mover_hash(&m), before);
            }
        }
    }
}

#[test]
fn small_helpers_match_the_core() {
    use hopkit::math::{Quat, Vec2, Vec3};
    use hopkit::steering::{self, Agent, ArrivalParams, SteeringParams};
    unsafe {
        // facing / wish conversions
        let mut f = HkVec2::default();
        assert_eq!(hk_facing_from_yaw(0.5, &mut f), HK_OK);
        assert_eq!(Vec2::from(f), movement::facing_from_yaw(0.5));
        assert_eq!(hk_facing_from_yaw(f32::NAN, &mut f), HK_ERR_INVALID_ARG);
        let w = HkWish {
            front: std::f32::consts::FRAC_1_SQRT_2,
            right: std::f32::consts::FRAC_1_SQRT_2,
            magnitude: 0.5,
        };
        let mut input = MaybeUninit::<HkMoveInput>::uninit();
        assert_eq!(hk_move_input_from_wish(&w, 1, f, input.as_mut_ptr()), HK_OK);
        let input = input.assume_init();
        assert_eq!(input.jump, 1);
        assert!((input.wish.x - 0.353_553_4).abs() < 1e-6);
        let bad = HkWish {
            magnitude: 2.0,
            ..w
        };
        let mut i2 = MaybeUninit::<HkMoveInput>::uninit();
        assert_eq!(
            hk_move_input_from_wish(&bad, 0, f, i2.as_mut_ptr()),
            HK_ERR_INVALID_ARG
        );
        let skew = HkWish { front: 0.3, ..w };
        assert_eq!(
            hk_move_input_from_wish(&skew, 0, f, i2.as_mut_ptr()),
            HK_ERR_INVALID_ARG
        );
        let mut dir = HkVec2::default();
        assert_eq!(hk_wish_world_direction(&w, 0.5, &mut dir), HK_OK);
        let cw = hopkit::stick::Wish {
            front: w.front,
            right: w.right,
            magnitude: w.magnitude,
        };
        assert_eq!(Vec2::from(dir), cw.world_direction(0.5));
        let mut rate = 0.0;
        assert_eq!(
            hk_look_rate(HkVec2 { x: 0.5, y: 0.0 }, 3.0, &mut rate),
            HK_OK
        );
        assert_eq!(rate, -1.5);
        assert_eq!(
            hk_look_rate(HkVec2 { x: 0.5, y: 0.0 }, -3.0, &mut rate),
            HK_ERR_INVALID_ARG
        );

        // arrival behaviour, stopping speed, per-frame import
        let mut sp = MaybeUninit::<HkSteeringParams>::uninit();
        assert_eq!(hk_steering_params_default(sp.as_mut_ptr()), HK_OK);
        let sp = sp.assume_init();
        let mut ap = MaybeUninit::<HkArrivalParams>::uninit();
        assert_eq!(hk_arrival_params_time_optimal(ap.as_mut_ptr()), HK_OK);
        let ap = ap.assume_init();
        let agent = HkAgent {
            position: HkVec3 {
                x: 1.0,
                y: 0.0,
                z: 2.0,
            },
            velocity: HkVec3 {
                x: 0.5,
                y: 0.0,
                z: 0.0,
            },
            yaw: 0.0,
        };
        let target = HkVec3 {
            x: 4.0,
            y: 0.0,
            z: -1.0,
        };
        let mut s = HkSteering::default();
        assert_eq!(
            hk_arrive(&agent, &sp, &ap, target, 1.0 / 60.0, &mut s),
            HK_OK
        );
        let cs = steering::arrive(
            &Agent {
                position: agent.position.into(),
                velocity: agent.velocity.into(),
                yaw: 0.0,
            },
            target.into(),
            &SteeringParams::default(),
            &ArrivalParams::time_optimal(),
            1.0 / 60.0,
        );
        assert_eq!((Vec3::from(s.linear), s.angular), (cs.linear, cs.angular));
        let mut v = 0.0;
        assert_eq!(hk_stopping_speed(2.0, 8.0, 1.0 / 60.0, &mut v), HK_OK);
        assert_eq!(v, steering::stopping_speed(2.0, 8.0, 1.0 / 60.0));
        assert_eq!(
            hk_stopping_speed(-2.0, 8.0, 0.1, &mut v),
            HK_ERR_INVALID_ARG
        );
        let mut pf = MaybeUninit::<HkSteeringParams>::uninit();
        assert_eq!(
            hk_steering_params_from_per_frame(0.1, 0.01, 60.0, pf.as_mut_ptr()),
            HK_OK
        );
        let pf = pf.assume_init();
        assert_eq!(
            pf,
            HkSteeringParams::from(SteeringParams::from_per_frame(0.1, 0.01, 60.0))
        );
        assert_eq!(
            hk_steering_params_from_per_frame(0.1, 0.01, 0.0, null_mut()),
            HK_ERR_INVALID_ARG
        );

        // arrival set/get
        let mut a = HkArrival {
            _opaque: [MaybeUninit::new(0); HK_ARRIVAL_SIZE],
        };
        assert_eq!(hk_arrival_init(&mut a, HkVec3::default()), HK_OK);
        assert_eq!(hk_arrival_set(&mut a, &agent), HK_OK);
        let mut got = HkAgent::default();
        let mut arrived = 9;
        assert_eq!(hk_arrival_get(&a, &mut got, &mut arrived), HK_OK);
        assert_eq!((got, arrived), (agent, 0));
        let nan_agent = HkAgent {
            yaw: f32::NAN,
            ..agent
        };
        assert_eq!(hk_arrival_set(&mut a, &nan_agent), HK_ERR_INVALID_ARG);

        // slope world tilt = body * tilt
        let mut sl = HkSlope {
            _opaque: [MaybeUninit::new(0); HK_SLOPE_SIZE],
        };
        assert_eq!(hk_slope_init(&mut sl), HK_OK);
        let body = HkQuat::from(Quat::from_yaw(1.0));
        let mut q = HkQuat::from(Quat::IDENTITY);
        assert_eq!(hk_slope_world_tilt(&sl, body, &mut q), HK_OK);
        assert_eq!(
            Quat::from(q),
            hopkit::slope::SlopeState::new().world_tilt(Quat::from_yaw(1.0))
        );
        let mut sub = MaybeUninit::<HkSlopeParams>::uninit();
        assert_eq!(hk_slope_params_subtle(sub.as_mut_ptr()), HK_OK);
        let mut sub = sub.assume_init();
        assert_eq!(sub.trace_angle_limit_deg, 20.0);
        sub.slope_limit_deg = 200.0;
        assert_eq!(
            hk_slope_step(&mut sl, &sub, body, null(), 0.1, null_mut()),
            HK_ERR_INVALID_ARG
        );

        // follower regroup and host-moved body
        let mut fp = MaybeUninit::<HkFollowerParams>::uninit();
        assert_eq!(hk_follower_params_close_companion(fp.as_mut_ptr()), HK_OK);
        let fp = fp.assume_init();
        let mut fo = HkFollower {
            _opaque: [MaybeUninit::new(0); HK_FOLLOWER_SIZE],
        };
        assert_eq!(
            hk_follower_init(&mut fo, HkVec3::default(), HkVec3::default(), 0.0),
            HK_OK
        );
        let leader = HkVec3 {
            x: 10.0,
            y: 0.0,
            z: 0.0,
        };
        assert_eq!(
            hk_follower_regroup(&mut fo, &fp, leader, HkVec2 { x: -1.0, y: 0.0 }),
            HK_OK
        );
        let mut view = MaybeUninit::<HkFollowerView>::uninit();
        assert_eq!(hk_follower_view(&fo, view.as_mut_ptr()), HK_OK);
        let view = view.assume_init();
        assert!((view.position.x - (10.0 - fp.regroup_distance)).abs() < 1e-5);
        assert_eq!(view.crumb_count, 1);
        let p = HkVec3 {
            x: 1.0,
            y: 2.0,
            z: 3.0,
        };
        assert_eq!(hk_follower_set_body(&mut fo, p, HkVec3::default()), HK_OK);
        let mut view = MaybeUninit::<HkFollowerView>::uninit();
        assert_eq!(hk_follower_view(&fo, view.as_mut_ptr()), HK_OK);
        assert_eq!(view.assume_init().position, p);
        let nan = HkVec3 { x: f32::NAN, ..p };
        assert_eq!(
            hk_follower_set_body(&mut fo, nan, HkVec3::default()),
            HK_ERR_INVALID_ARG
        );

        // flyer presets
        let mut fl = MaybeUninit::<HkFlyerParams>::uninit();
        assert_eq!(hk_flyer_params_agile(fl.as_mut_ptr()), HK_OK);
        assert_eq!(fl.assume_init(), HkFlyerParams::from(FlyerParams::agile()));
        assert_eq!(hk_flyer_params_scaled(2.0, fl.as_mut_ptr()), HK_OK);
        assert_eq!(
            fl.assume_init(),
            HkFlyerParams::from(FlyerParams::scaled(2.0))
        );
        assert_eq!(
            hk_flyer_params_scaled(0.0, fl.as_mut_ptr()),
            HK_ERR_INVALID_ARG
        );
    }
}

/// Issue 13: a ground callback that calls back into the mover being stepped used to alias the
/// `&mut` the step held (undefined behaviour under Stacked and Tree Borrows). Now the mover is
/// marked busy for the duration of the step: the re-entrant calls get HK_ERR_BUSY and change
/// nothing, and the step itself completes.
#[test]
fn a_callback_reentering_the_stepped_mover_gets_busy() {
    struct Probe {
        mover: *mut HkMover,
        statuses: Vec<HkStatus>,
    }
    unsafe extern "C" fn reentrant(
        user: *mut std::ffi::c_void,
        _p: HkVec3,
        hit: *mut HkGroundHit,
    ) -> i32 {
        let probe = unsafe { &mut *(user as *mut Probe) };
        let mut s = MaybeUninit::<HkMoverState>::uninit();
        probe
            .statuses
            .push(unsafe { hk_mover_get_state(probe.mover, s.as_mut_ptr()) });
        let teleport = HkMoverState {
            position: HkVec3 {
                x: 9.0,
                y: 9.0,
                z: 9.0,
            },
            velocity: HkVec3::default(),
            grounded: 0,
            ground_normal: HkVec3 {
                x: 0.0,
                y: 1.0,
                z: 0.0,
            },
            coyote_timer: 0.0,
            jump_buffer_timer: 0.0,
            jump_held: 0,
            jump_latched: 0,
            jump_rising: 0,
            crouched: 0,
            water_jump_timer: 0.0,
        };
        probe
            .statuses
            .push(unsafe { hk_mover_set_state(probe.mover, &teleport) });
        unsafe {
            (*hit).height = 0.0;
            (*hit).normal = HkVec3 {
                x: 0.0,
                y: 1.0,
                z: 0.0,
            };
        }
        1
    }
    let mut m = Box::new(HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    });
    let mp: *mut HkMover = &mut *m;
    assert_eq!(unsafe { hk_mover_init(mp, HkVec3::default()) }, HK_OK);
    let mut probe = Probe {
        mover: mp,
        statuses: Vec::new(),
    };
    let g = HkGround {
        kind: HK_GROUND_CALLBACK,
        probe: Some(reentrant),
        user: (&mut probe as *mut Probe).cast(),
        water: None,
        surface_motion: None,
        clearance: None,
        ladder: None,
        trace: None,
        ..flat()
    };
    let input = HkMoveInput {
        wish: HkVec2 { x: 1.0, y: 0.0 },
        jump: 0,
        facing: HkVec2 { x: 0.0, y: -1.0 },
        crouch: 0,
        look_up: 0.0,
    };
    assert_eq!(
        unsafe { hk_mover_step(mp, &seed_params(), &input, &g, 1.0 / 60.0, null_mut()) },
        HK_OK
    );
    assert!(!probe.statuses.is_empty(), "the callback ran");
    assert!(
        probe.statuses.iter().all(|&s| s == HK_ERR_BUSY),
        "{:?}",
        probe.statuses
    );
    // After the step the mover is usable again and was not teleported by the callback.
    let mut s = MaybeUninit::<HkMoverState>::uninit();
    assert_eq!(unsafe { hk_mover_get_state(mp, s.as_mut_ptr()) }, HK_OK);
    let s = unsafe { s.assume_init() };
    assert!(
        s.position.x.abs() < 1.0 && s.position.z < 0.0,
        "{:?}",
        s.position
    );
}

/// `hk_*_init` defines every byte of the storage (zeroed tail), so copying initialised storage
/// is sound; the copy is a working object.
#[test]
fn initialised_storage_can_be_copied() {
    let mut m = HkMover {
        _opaque: [MaybeUninit::uninit(); HK_MOVER_SIZE],
    };
    assert_eq!(unsafe { hk_mover_init(&mut m, HkVec3::default()) }, HK_OK);
    let copy = HkMover { _opaque: m._opaque };
    let mut s = MaybeUninit::<HkMoverState>::uninit();
    assert_eq!(unsafe { hk_mover_get_state(&copy, s.as_mut_ptr()) }, HK_OK);
    // The tail beyond the Rust value is defined (zero).
    let last = unsafe { m._opaque[HK_MOVER_SIZE - 1].assume_init() };
    assert_eq!(last, 0);
}

/// Issue 13: the scripted hash's tick count is bounded (10 minutes of demo), so one call does
/// bounded work.
#[test]
fn scripted_hash_ticks_are_bounded() {
    let mut h = 0u64;
    assert_eq!(
        unsafe { hk_demo_scripted_hash(HK_DEMO_MAX_HASH_TICKS + 1, &mut h) },
        HK_ERR_INVALID_ARG
    );
    assert_eq!(h, 0, "nothing written");
    assert_eq!(
        unsafe { hk_demo_scripted_hash(u32::MAX, &mut h) },
        HK_ERR_INVALID_ARG
    );
    assert_eq!(unsafe { hk_demo_scripted_hash(3, &mut h) }, HK_OK);
    assert_eq!(h, hopkit_demo::scripted_hash(3));
}

/// Gamepad bytes from a cart's trace (`pad 0xNN xCOUNT` runs, as the WASM-4 cart prints them).
fn pad_trace(lines: &str) -> Vec<u8> {
    let mut bytes = Vec::new();
    for l in lines.lines().map(str::trim).filter(|l| !l.is_empty()) {
        let (b, n) = l.strip_prefix("pad 0x").unwrap().split_once(" x").unwrap();
        let (b, n) = (u8::from_str_radix(b, 16).unwrap(), n.parse().unwrap());
        bytes.extend(std::iter::repeat_n(b, n));
    }
    bytes
}

/// The C ABI replays a cart's gamepad bytes to the cart's hash: `hk_wasm4_to_raw` +
/// `hk_demo_tick` is exactly `hopkit_demo::gamepad_hash`, the code the WASM-4 and wasm32 carts run.
#[test]
fn wasm4_gamepad_bytes_replay_to_the_carts_hash() {
    let c_hash = |bytes: &[u8]| {
        let mut rig = HkDemoRig {
            _opaque: [MaybeUninit::new(0); HK_DEMO_RIG_SIZE],
        };
        assert_eq!(unsafe { hk_demo_init(&mut rig) }, HK_OK);
        for &b in bytes {
            let mut raw = HkRawSticks::default();
            assert_eq!(unsafe { hk_wasm4_to_raw(b, &mut raw) }, HK_OK);
            assert_eq!(unsafe { hk_demo_tick(&mut rig, &raw) }, HK_OK);
        }
        let mut h = 0;
        assert_eq!(unsafe { hk_demo_state_hash(&rig, &mut h) }, HK_OK);
        h
    };
    // Traced by the WASM-4 cart in WASM-4's native runtime (`w4 run-native`, RIGHT + X held),
    // which printed `state-hash: 0xbd22fcb927f22eca tick 600` after these runs.
    let native = pad_trace(
        "pad 0x00 x125
         pad 0x20 x1
         pad 0x21 x474",
    );
    assert_eq!(native.len(), 600);
    if WHOLE_RUNS {
        assert_eq!(demo::gamepad_hash(&native), 0xbd22_fcb9_27f2_2eca);
        assert_eq!(c_hash(&native), 0xbd22_fcb9_27f2_2eca);
    }
    // Every d-pad and button combination, and the unused bits, in runs of varied length.
    let mixed: Vec<u8> = (0..=255u8)
        .flat_map(|b| std::iter::repeat_n(b.rotate_left(3), 1 + (b as usize % 5)))
        .collect();
    let whole = run_length(mixed.len() as u32, 12) as usize;
    for n in [0, 1, 12, whole] {
        assert_eq!(
            c_hash(&mixed[..n]),
            demo::gamepad_hash(&mixed[..n]),
            "{n} bytes"
        );
    }
}

#[test]
fn water_callback_swims_as_the_core() {
    // Quake units: floor at 0, water up to 40 everywhere x < 0, a dry ledge at 56 for x ≥ 0.
    unsafe extern "C" fn floor(_u: *mut std::ffi::c_void, p: HkVec3, hit: *mut HkGroundHit) -> i32 {
        unsafe {
            (*hit).height = if p.x >= 0.0 { 56.0 } else { 0.0 };
            (*hit).normal = HkVec3 {
                x: 0.0,
                y: 1.0,
                z: 0.0,
            };
        }
        1
    }
    unsafe extern "C" fn water(_u: *mut std::ffi::c_void, p: HkVec3, out: *mut f32) -> i32 {
        if p.x < 0.0 {
            unsafe { *out = 40.0 };
            1
        } else {
            0
        }
    }
    struct Pool;
    impl hopkit::ground::GroundProbe for Pool {
        fn probe(&self, p: hopkit::math::Vec3) -> Option<hopkit::ground::GroundHit> {
            Some(hopkit::ground::GroundHit {
                height: if p.x >= 0.0 { 56.0 } else { 0.0 },
                normal: hopkit::math::Vec3::UP,
            })
        }
        fn water(&self, p: hopkit::math::Vec3) -> Option<f32> {
            (p.x < 0.0).then_some(40.0)
        }
    }
    let g = HkGround {
        kind: HK_GROUND_CALLBACK,
        probe: Some(floor),
        water: Some(water),
        surface_motion: None,
        clearance: None,
        ladder: None,
        trace: None,
        ..flat()
    };
    let mut p = MaybeUninit::<HkMoveParams>::uninit();
    assert_eq!(unsafe { hk_move_params_quakeworld(p.as_mut_ptr()) }, HK_OK);
    let p = unsafe { p.assume_init() };
    assert_eq!(
        (p.water_accel, p.water_friction, p.water_jump_speed),
        (10.0, 4.0, 310.0)
    );
    let mut m = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    let start = hopkit::math::Vec3::new(-200.0, 30.0, 0.0);
    assert_eq!(unsafe { hk_mover_init(&mut m, start.into()) }, HK_OK);
    let mut core = MoverState::new(start);
    let cp = MoveParams::quakeworld();
    let east = movement::facing_from_yaw(-core::f32::consts::FRAC_PI_2);
    let (mut min_y, mut jumped) = (f32::MAX, false);
    // Under Miri the first 130 ticks (sinking, swimming down, the jump key); the jump out needs
    // all 400.
    let ticks = run_length(400, 130);
    for t in 0..ticks {
        let (front, look_up, jump) = match t {
            0..=59 => (0.0, 0.0, false),
            60..=119 => (1.0, -0.5, false),
            120..=159 => (0.0, 0.0, true),
            _ => (1.0, 0.0, false),
        };
        let input = HkMoveInput {
            wish: HkVec2 { x: front, y: 0.0 },
            jump: jump as u8,
            facing: east.into(),
            crouch: 0,
            look_up,
        };
        let mut ev = HkStepEvents::default();
        assert_eq!(
            unsafe { hk_mover_step(&mut m, &p, &input, &g, 1.0 / 72.0, &mut ev) },
            HK_OK
        );
        let ci = MoveInput {
            look_up,
            ..MoveInput::new(hopkit::math::Vec2::new(front, 0.0), jump, east)
        };
        let cev = movement::step(&mut core, &cp, &ci, &Pool, 1.0 / 72.0);
        assert_eq!(ev.jumped, cev.jumped as u8);
        jumped |= cev.jumped;
        let mut h = 0u64;
        assert_eq!(unsafe { hk_mover_state_hash(&m, &mut h) }, HK_OK);
        assert_eq!(h, core.state_hash(), "tick {t}");
        min_y = min_y.min(core.position.y);
    }
    // It sank, swam down, came up and jumped out onto the ledge.
    assert!(
        !WHOLE_RUNS || (min_y < 10.0 && jumped && core.position.x > 0.0),
        "{core:?}"
    );
    let bad = HkMoveInput {
        wish: HkVec2::default(),
        jump: 0,
        facing: east.into(),
        crouch: 0,
        look_up: 1.5,
    };
    assert_eq!(
        unsafe { hk_mover_step(&mut m, &p, &bad, &g, 1.0 / 72.0, null_mut()) },
        HK_ERR_INVALID_ARG
    );
}

/// The ground callbacks for moving platforms, clearance and ladders: a character stepped through
/// the C ABI on a callback ground (a turntable, a low ceiling, a ladder wall) has the core's
/// state hash on every tick, and each callback is really used.
#[test]
fn platform_clearance_and_ladder_callbacks_step_as_the_core() {
    use hopkit::ground::{GroundHit, GroundProbe, SurfaceMotion};
    use hopkit::math::{Vec2, Vec3};
    // Seed units: floor at 0; a wall with a ladder on its −X face at x = 10 (ledge at 3 beyond);
    // a turntable of radius 4 round (0, −10); a ceiling 1.2 m up for z > 5.
    fn height(p: Vec3) -> f32 {
        if p.x >= 10.0 {
            3.0
        } else {
            0.0
        }
    }
    fn motion(p: Vec3) -> Option<SurfaceMotion> {
        let (dx, dz) = (p.x, p.z + 10.0);
        (dx * dx + dz * dz <= 16.0)
            .then(|| SurfaceMotion::rotating(Vec3::new(0.0, 0.0, -10.0), 0.9))
    }
    fn room(p: Vec3) -> Option<f32> {
        (p.z > 5.0).then_some(1.2)
    }
    fn ladder(p: Vec3) -> Option<Vec3> {
        (p.x < 10.0 && p.x > 9.4 && p.y < 3.0).then_some(Vec3::new(-1.0, 0.0, 0.0))
    }
    struct Level;
    impl GroundProbe for Level {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            Some(GroundHit {
                height: height(p),
                normal: Vec3::UP,
            })
        }
        fn surface_motion(&self, p: Vec3) -> SurfaceMotion {
            motion(p).unwrap_or(SurfaceMotion::STILL)
        }
        fn clearance(&self, p: Vec3) -> f32 {
            room(p).unwrap_or(f32::INFINITY)
        }
        fn ladder(&self, p: Vec3) -> Option<Vec3> {
            ladder(p)
        }
    }
    unsafe extern "C" fn c_probe(
        _u: *mut std::ffi::c_void,
        p: HkVec3,
        hit: *mut HkGroundHit,
    ) -> i32 {
        unsafe {
            (*hit).height = height(p.into());
            (*hit).normal = Vec3::UP.into();
        }
        1
    }
    unsafe extern "C" fn c_motion(
        _u: *mut std::ffi::c_void,
        p: HkVec3,
        out: *mut HkSurfaceMotion,
    ) -> i32 {
        match motion(p.into()) {
            Some(m) => {
                unsafe {
                    *out = HkSurfaceMotion {
                        velocity: m.velocity.into(),
                        yaw_rate: m.yaw_rate,
                        pivot: m.pivot.into(),
                    }
                };
                1
            }
            None => 0,
        }
    }
    unsafe extern "C" fn c_room(_u: *mut std::ffi::c_void, p: HkVec3, out: *mut f32) -> i32 {
        match room(p.into()) {
            Some(h) => {
                unsafe { *out = h };
                1
            }
            None => 0,
        }
    }
    unsafe extern "C" fn c_ladder(_u: *mut std::ffi::c_void, p: HkVec3, out: *mut HkVec3) -> i32 {
        match ladder(p.into()) {
            Some(n) => {
                unsafe { *out = n.into() };
                1
            }
            None => 0,
        }
    }
    let g = HkGround {
        kind: HK_GROUND_CALLBACK,
        probe: Some(c_probe),
        surface_motion: Some(c_motion),
        clearance: Some(c_room),
        ladder: Some(c_ladder),
        ..flat()
    };
    let p = seed_params();
    let cp = MoveParams::seed();
    // Three runs: standing on the turntable; crouched under the ceiling with the crouch key let
    // go (it must stay crouched); walking into the ladder and up it.
    let runs: [(Vec3, f32, Vec2, bool); 3] = [
        (Vec3::new(2.0, 0.0, -10.0), 0.0, Vec2::ZERO, false),
        (Vec3::new(0.0, 0.0, 7.0), 0.0, Vec2::ZERO, true),
        (
            Vec3::new(7.0, 0.0, 0.0),
            -core::f32::consts::FRAC_PI_2,
            Vec2::new(1.0, 0.0),
            false,
        ),
    ];
    for (k, (start, yaw, wish, crouch_first)) in runs.into_iter().enumerate() {
        let mut m = HkMover {
            _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
        };
        assert_eq!(unsafe { hk_mover_init(&mut m, start.into()) }, HK_OK);
        let mut core = MoverState::new(start);
        let facing = movement::facing_from_yaw(yaw);
        let mut carried = 0.0f32;
        // Under Miri a few ticks exercise the callbacks; the outcomes need 4 s.
        let ticks = run_length(240, 20);
        for t in 0..ticks {
            let crouch = crouch_first && t < 30;
            let input = HkMoveInput {
                wish: wish.into(),
                jump: 0,
                facing: facing.into(),
                crouch: crouch as u8,
                look_up: 0.0,
            };
            let mut ev = HkStepEvents::default();
            assert_eq!(
                unsafe { hk_mover_step(&mut m, &p, &input, &g, 1.0 / 60.0, &mut ev) },
                HK_OK
            );
            let ci = MoveInput::new(wish, false, facing).with_crouch(crouch);
            let cev = movement::step(&mut core, &cp, &ci, &Level, 1.0 / 60.0);
            assert_eq!(
                ev.carried_yaw.to_bits(),
                cev.carried_yaw.to_bits(),
                "run {k} tick {t}"
            );
            carried += cev.carried_yaw;
            let mut h = 0u64;
            assert_eq!(unsafe { hk_mover_state_hash(&m, &mut h) }, HK_OK);
            assert_eq!(h, core.state_hash(), "run {k} tick {t}");
        }
        if !WHOLE_RUNS {
            continue;
        }
        match k {
            0 => assert!(
                carried > 3.0,
                "the turntable turned the character by {carried}"
            ),
            1 => assert!(core.crouched, "stood up under the ceiling: {core:?}"),
            _ => assert!(
                core.grounded && core.position.y == 3.0,
                "not on the ledge: {core:?}"
            ),
        }
    }
}
