//! The collision world through the C ABI (issue 34 §6): `HkWorld` built and traced as the core's
//! `World`, `hk_mover_step_world` and `hk_mover_step` with a trace callback stepping bit for bit
//! as `movement::step` over `collide::Solid`, and hostile input — NaN, full worlds, NULL,
//! misaligned and uninitialised storage, broken callback answers — reported or survived.

use super::abi::{flat, mover_hash, run_length, WHOLE_RUNS};
use hopkit::collide::{Brush, Plane, Solid, SolidFlags, Toward, Tracer, WaterVolume, World};
use hopkit::ground::GroundProbe;
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{self, MoveInput, MoveParams, MoverState};
use hopkit_ffi::*;
use std::ffi::c_void;
use std::mem::MaybeUninit;
use std::ptr::{null, null_mut};

fn v(x: f32, y: f32, z: f32) -> HkVec3 {
    HkVec3 { x, y, z }
}

fn new_world(skin: f32) -> Box<HkWorld> {
    let mut w = Box::new(HkWorld {
        _opaque: [MaybeUninit::new(0); HK_WORLD_SIZE],
    });
    assert_eq!(unsafe { hk_world_init(&mut *w, skin) }, HK_OK);
    w
}

fn world_len(w: &HkWorld) -> u32 {
    let mut n = u32::MAX;
    assert_eq!(unsafe { hk_world_len(w, &mut n) }, HK_OK);
    n
}

fn q3_params() -> HkMoveParams {
    let mut p = MaybeUninit::<HkMoveParams>::uninit();
    assert_eq!(unsafe { hk_move_params_quake3(p.as_mut_ptr()) }, HK_OK);
    unsafe { p.assume_init() }
}

/// A wedge from six planes (a ramp rising towards −X, as `Brush::from_planes` takes it).
fn wedge_planes() -> [HkPlane; 6] {
    let p = |x: f32, y: f32, z: f32, dist: f32| HkPlane {
        normal: v(x, y, z),
        dist,
    };
    [
        p(0.0, -1.0, 0.0, 0.0),    // bottom at y = 0
        p(1.0, 0.0, 0.0, -200.0),  // x ≤ −200
        p(0.0, 0.0, 1.0, 300.0),   // z ≤ 300
        p(0.0, 0.0, -1.0, -200.0), // z ≥ 200
        p(1.0, 2.0, 0.0, -200.0),  // slope: x + 2y ≤ −200 (rises towards −X)
        p(-1.0, 0.0, 0.0, 400.0),  // x ≥ −400
    ]
}

/// The test level in Quake units, through the C ABI and in the core: a floor, a wall across +X
/// at x = 128, eight 16-unit stairs up towards −Z along it onto a landing 128 high, a ramp, a
/// wedge from planes and a ladder (these three off the path).
fn level() -> (Box<HkWorld>, World<HK_WORLD_CAPACITY>) {
    let mut w = new_world(HK_WORLD_DEFAULT_SKIN);
    let mut core = World::<HK_WORLD_CAPACITY>::new();
    let boxes = [
        (v(-512.0, -16.0, -704.0), v(512.0, 0.0, 512.0), 0),
        (v(128.0, 0.0, -704.0), v(144.0, 160.0, 256.0), 0),
        (v(64.0, 0.0, -640.0), v(128.0, 128.0, -192.0), 0),
        (v(-40.0, 0.0, 100.0), v(-32.0, 96.0, 132.0), HK_SOLID_LADDER),
    ];
    for (i, (a, b, flags)) in boxes.into_iter().enumerate() {
        let mut index = u32::MAX;
        assert_eq!(
            unsafe { hk_world_add_box(&mut *w, a, b, flags, &mut index) },
            HK_OK
        );
        assert_eq!(index as usize, i);
        let brush = Brush::aabb(a.into(), b.into()).unwrap();
        core.push(brush.with_flags(SolidFlags(flags))).unwrap();
    }
    let mut first = u32::MAX;
    assert_eq!(
        unsafe {
            hk_world_add_stairs(
                &mut *w,
                v(64.0, 0.0, -64.0),
                HK_TOWARD_MINUS_Z,
                8,
                16.0,
                16.0,
                64.0,
                0,
                &mut first,
            )
        },
        HK_OK
    );
    assert_eq!(first, 4);
    core.extend(
        Brush::stairs(
            Vec3::new(64.0, 0.0, -64.0),
            Toward::MinusZ,
            8,
            16.0,
            16.0,
            64.0,
        )
        .unwrap(),
    )
    .unwrap();
    assert_eq!(
        unsafe {
            hk_world_add_ramp(
                &mut *w,
                v(-300.0, 0.0, -300.0),
                v(-100.0, 64.0, -200.0),
                HK_TOWARD_PLUS_X,
                1 << 16,
                null_mut(),
            )
        },
        HK_OK
    );
    let ramp = Brush::ramp(
        Vec3::new(-300.0, 0.0, -300.0),
        Vec3::new(-100.0, 64.0, -200.0),
        Toward::PlusX,
    )
    .unwrap();
    core.push(ramp.with_flags(SolidFlags(1 << 16))).unwrap();
    let planes = wedge_planes();
    let mut index = 0;
    assert_eq!(
        unsafe { hk_world_add_planes(&mut *w, planes.as_ptr(), planes.len(), 0, &mut index) },
        HK_OK
    );
    assert_eq!(index, 13);
    let core_planes: Vec<Plane> = planes
        .iter()
        .map(|p| Plane {
            normal: p.normal.into(),
            dist: p.dist,
        })
        .collect();
    core.push(Brush::from_planes(&core_planes).unwrap())
        .unwrap();
    assert_eq!(world_len(&w) as usize, core.len());
    (w, core)
}

fn trace(w: &HkWorld, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> HkTrace {
    let mut t = HkTrace::default();
    let st = unsafe {
        hk_world_trace(
            w,
            start.into(),
            end.into(),
            mins.into(),
            maxs.into(),
            &mut t,
        )
    };
    assert_eq!(st, HK_OK);
    t
}

fn same_bits(c: &HkTrace, r: &hopkit::collide::TraceResult, what: &str) {
    let want = HkTrace::from(*r);
    let bits = |t: &HkTrace| {
        [
            t.fraction.to_bits(),
            t.end.x.to_bits(),
            t.end.y.to_bits(),
            t.end.z.to_bits(),
            t.plane.normal.x.to_bits(),
            t.plane.normal.y.to_bits(),
            t.plane.normal.z.to_bits(),
            t.plane.dist.to_bits(),
            u32::from(t.start_solid),
            u32::from(t.all_solid),
            t.solid as u32,
            t.flags,
        ]
    };
    assert_eq!(bits(c), bits(&want), "{what}");
}

#[test]
fn world_is_built_and_traced_as_the_core() {
    let (w, core) = level();
    let (mins, maxs) = (Vec3::new(-15.0, 0.0, -15.0), Vec3::new(15.0, 56.0, 15.0));
    // Into the wall, down onto the floor, up the stairs' face, into the ramp, the wedge, the
    // ladder, a point trace, a move inside the floor (all solid), a long diagonal.
    let moves = [
        (Vec3::new(0.0, 0.125, 0.0), Vec3::new(300.0, 0.125, 0.0)),
        (Vec3::new(0.0, 40.0, 0.0), Vec3::new(0.0, -40.0, 0.0)),
        (Vec3::new(96.0, 0.125, 0.0), Vec3::new(96.0, 0.125, -300.0)),
        (
            Vec3::new(-400.0, 0.125, -250.0),
            Vec3::new(0.0, 0.125, -250.0),
        ),
        (
            Vec3::new(-100.0, 0.125, 250.0),
            Vec3::new(-300.0, 0.125, 250.0),
        ),
        (Vec3::new(0.0, 1.0, 116.0), Vec3::new(-100.0, 1.0, 116.0)),
        (Vec3::new(10.0, 50.0, 10.0), Vec3::new(10.0, -50.0, 10.0)),
        (Vec3::new(0.0, -8.0, 0.0), Vec3::new(5.0, -8.0, 0.0)),
        (
            Vec3::new(-480.0, 300.0, 480.0),
            Vec3::new(480.0, -30.0, -480.0),
        ),
    ];
    let mut hits = 0;
    let mut ladder = false;
    let mut game_flag = false;
    for (i, (a, b)) in moves.into_iter().enumerate() {
        for (lo, hi) in [(mins, maxs), (Vec3::ZERO, Vec3::ZERO)] {
            let c = trace(&w, a, b, lo, hi);
            let r = core.trace(a, b, lo, hi);
            same_bits(&c, &r, &format!("move {i}"));
            hits += usize::from(c.fraction < 1.0);
            ladder |= c.flags & HK_SOLID_LADDER != 0;
            game_flag |= c.flags == 1 << 16;
        }
    }
    assert!(
        hits >= 8 && ladder && game_flag,
        "hits {hits}, ladder {ladder}, game {game_flag}"
    );
    let all = trace(
        &w,
        Vec3::new(0.0, -8.0, 0.0),
        Vec3::new(5.0, -8.0, 0.0),
        mins,
        maxs,
    );
    assert!(all.all_solid == 1 && all.solid == 0 && all.fraction == 0.0);
    let miss = trace(
        &w,
        Vec3::new(0.0, 400.0, 0.0),
        Vec3::new(10.0, 400.0, 0.0),
        mins,
        maxs,
    );
    assert!(miss.solid == HK_SOLID_NONE && miss.fraction == 1.0 && miss.plane.normal.y == 0.0);
    // Copied storage is the same world; a cleared one is empty.
    let mut copy = Box::new(HkWorld { _opaque: w._opaque });
    let c = trace(
        &copy,
        Vec3::new(0.0, 0.125, 0.0),
        Vec3::new(300.0, 0.125, 0.0),
        mins,
        maxs,
    );
    assert_eq!(c.solid, 1);
    assert_eq!(unsafe { hk_world_clear(&mut *copy) }, HK_OK);
    assert_eq!(world_len(&copy), 0);
    assert_eq!(world_len(&w) as usize, core.len());
}

/// One scripted run: into the wall (+X) for 1.5 s, then −Z along it, up the stairs onto the
/// landing, with a jump on the stairs; `facing` and `wish` per tick.
fn script(tick: u32) -> (Vec2, Vec2, bool) {
    let wish = Vec2::new(1.0, 0.0);
    if tick < 90 {
        (wish, Vec2::new(1.0, 0.0), false)
    } else {
        (wish, Vec2::new(0.0, -1.0), tick == 110)
    }
}

fn hk_input(wish: Vec2, facing: Vec2, jump: bool) -> HkMoveInput {
    HkMoveInput {
        wish: wish.into(),
        jump: jump as u8,
        facing: facing.into(),
        crouch: 0,
        look_up: 0.0,
    }
}

/// The game's own physics for the callback path: the same built-in world through
/// `hk_world_trace` (trace) and the core's `Solid` (probe).
struct Physics {
    world: *const HkWorld,
    core: *const World<HK_WORLD_CAPACITY>,
    traces: u32,
}

unsafe extern "C" fn physics_trace(
    user: *mut c_void,
    start: HkVec3,
    end: HkVec3,
    mins: HkVec3,
    maxs: HkVec3,
    out: *mut HkTrace,
) -> i32 {
    let phys = unsafe { &mut *(user as *mut Physics) };
    phys.traces += 1;
    let st = unsafe { hk_world_trace(phys.world, start, end, mins, maxs, out) };
    i32::from(st == HK_OK)
}

unsafe extern "C" fn physics_probe(user: *mut c_void, p: HkVec3, hit: *mut HkGroundHit) -> i32 {
    let phys = unsafe { &*(user as *const Physics) };
    match Solid(unsafe { &*phys.core }).probe(p.into()) {
        Some(h) => {
            unsafe {
                *hit = HkGroundHit {
                    height: h.height,
                    normal: h.normal.into(),
                }
            };
            1
        }
        None => 0,
    }
}

fn state(m: &HkMover) -> HkMoverState {
    let mut s = MaybeUninit::<HkMoverState>::uninit();
    assert_eq!(unsafe { hk_mover_get_state(m, s.as_mut_ptr()) }, HK_OK);
    unsafe { s.assume_init() }
}

#[test]
fn world_step_and_trace_callback_step_as_the_core() {
    let (w, core) = level();
    let p = q3_params();
    let cp = MoveParams::quake3();
    let start = Vec3::new(0.0, 0.125, 0.0);
    let mut by_world = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    let mut by_callback = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    assert_eq!(unsafe { hk_mover_init(&mut by_world, start.into()) }, HK_OK);
    assert_eq!(
        unsafe { hk_mover_init(&mut by_callback, start.into()) },
        HK_OK
    );
    let mut phys = Physics {
        world: &*w,
        core: &core,
        traces: 0,
    };
    let g = HkGround {
        kind: HK_GROUND_CALLBACK,
        probe: Some(physics_probe),
        user: (&mut phys as *mut Physics).cast(),
        trace: Some(physics_trace),
        ..flat()
    };
    let mut s = MoverState::new(start);
    let solid = Solid(&core);
    let mut hit_wall = false;
    let mut jumped = false;
    let mut min_x_gap = f32::INFINITY;
    let ticks = run_length(200, 12);
    for t in 0..ticks {
        let (wish, facing, jump) = script(t);
        let input = hk_input(wish, facing, jump);
        let mut e1 = HkStepEvents::default();
        let mut e2 = HkStepEvents::default();
        let dt = 1.0 / 60.0;
        assert_eq!(
            unsafe { hk_mover_step_world(&mut by_world, &p, &input, &*w, dt, &mut e1) },
            HK_OK
        );
        assert_eq!(
            unsafe { hk_mover_step(&mut by_callback, &p, &input, &g, dt, &mut e2) },
            HK_OK
        );
        let ci = MoveInput::new(wish, jump, facing);
        let ev = movement::step(&mut s, &cp, &ci, &solid, dt);
        assert_eq!(mover_hash(&by_world), s.state_hash(), "world, tick {t}");
        assert_eq!(
            mover_hash(&by_callback),
            s.state_hash(),
            "callback, tick {t}"
        );
        assert_eq!(e1, HkStepEvents::from(ev), "tick {t}");
        assert_eq!(e1, e2, "tick {t}");
        hit_wall |= e1.hit_wall != 0;
        jumped |= e1.jumped != 0;
        min_x_gap = min_x_gap.min(128.0 - (s.position.x + 15.0));
        // Never inside a solid.
        let (mins, maxs) = (Vec3::new(-15.0, 0.0, -15.0), Vec3::new(15.0, 56.0, 15.0));
        let inside = core.trace(s.position, s.position, mins, maxs);
        assert!(
            !inside.all_solid,
            "tick {t}: inside solid {:?}",
            inside.solid
        );
    }
    assert!(phys.traces > 0, "the trace callback was used");
    let end = state(&by_world);
    assert_eq!(end, state(&by_callback));
    if WHOLE_RUNS {
        assert!(hit_wall && jumped, "wall {hit_wall}, jumped {jumped}");
        assert!(
            (0.0..0.2).contains(&min_x_gap),
            "stopped {min_x_gap} in front of the wall"
        );
        // Up the stairs, onto the landing (its top 128, the feet a skin above), after a jump.
        assert!(
            end.grounded == 1 && (end.position.y - 128.125).abs() < 1e-3,
            "not on the landing: {end:?}"
        );
        assert!(
            end.position.z < -192.0 && end.position.z > -640.0,
            "{end:?}"
        );
    }
}

/// What a hostile trace callback answers, by call number.
struct Hostile {
    calls: u32,
    mover: *mut HkMover,
    busy: Vec<HkStatus>,
}

unsafe extern "C" fn hostile_trace(
    user: *mut c_void,
    start: HkVec3,
    end: HkVec3,
    _mins: HkVec3,
    _maxs: HkVec3,
    out: *mut HkTrace,
) -> i32 {
    let h = unsafe { &mut *(user as *mut Hostile) };
    h.calls += 1;
    // The stepped mover is busy for a callback.
    let mut s = MaybeUninit::<HkMoverState>::uninit();
    h.busy
        .push(unsafe { hk_mover_get_state(h.mover, s.as_mut_ptr()) });
    let nan = f32::NAN;
    let inf = f32::INFINITY;
    let t = unsafe { &mut *out };
    // Before writing: the "nothing hit" answer is there.
    assert_eq!(t.fraction, 1.0);
    assert_eq!(t.end, end);
    match h.calls % 8 {
        0 => t.fraction = nan,
        1 => {
            t.fraction = 0.5;
            t.end = v(inf, nan, -inf);
            t.plane.normal = v(nan, 1.0, 0.0);
        }
        2 => {
            t.fraction = -3.0;
            t.plane = HkPlane {
                normal: v(0.0, 0.0, 0.0),
                dist: nan,
            };
        }
        3 => {
            t.fraction = 7.0;
            t.end = v(start.x + 1.0e30, start.y, start.z);
            t.plane.normal = v(1.0e-30, 1.0e-30, 0.0);
        }
        4 => {
            t.all_solid = 200;
            t.fraction = nan;
            t.end = v(nan, nan, nan);
            t.solid = i32::MIN;
        }
        5 => {
            t.fraction = 0.25;
            t.plane.normal = v(0.0, 3.0e30, 0.0);
            t.start_solid = 9;
            t.solid = 1 << 20;
            t.flags = u32::MAX;
        }
        6 => return 0,
        _ => {
            t.fraction = f32::MIN_POSITIVE;
            t.plane.normal = v(-1.0, 0.0, 0.0);
            t.plane.dist = inf;
        }
    }
    1
}

#[test]
fn broken_trace_answers_never_make_bad_numbers() {
    let mut m = Box::new(HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    });
    let mp: *mut HkMover = &mut *m;
    assert_eq!(unsafe { hk_mover_init(mp, v(0.0, 1.0, 0.0)) }, HK_OK);
    let mut h = Hostile {
        calls: 0,
        mover: mp,
        busy: Vec::new(),
    };
    let g = HkGround {
        kind: HK_GROUND_CALLBACK,
        probe: Some(floor_probe),
        user: (&mut h as *mut Hostile).cast(),
        trace: Some(hostile_trace),
        ..flat()
    };
    let p = q3_params();
    for t in 0..run_length(400, 16) {
        let input = hk_input(
            Vec2::new(1.0, (t % 3) as f32 - 1.0),
            Vec2::new(0.0, -1.0),
            t % 7 == 0,
        );
        let input = HkMoveInput {
            crouch: u8::from(t % 50 > 40),
            ..input
        };
        assert_eq!(
            unsafe { hk_mover_step(mp, &p, &input, &g, 1.0 / 60.0, null_mut()) },
            HK_OK
        );
        let s = state(unsafe { &*mp });
        for x in [
            s.position.x,
            s.position.y,
            s.position.z,
            s.velocity.x,
            s.velocity.y,
            s.velocity.z,
            s.ground_normal.x,
            s.ground_normal.y,
            s.ground_normal.z,
        ] {
            assert!(x.is_finite(), "tick {t}: {s:?}");
        }
    }
    assert!(h.calls > 8, "every kind of answer was given");
    assert!(
        h.busy.iter().all(|&s| s == HK_ERR_BUSY),
        "a callback reached the stepped mover: {:?}",
        h.busy
    );
}

unsafe extern "C" fn floor_probe(_u: *mut c_void, _p: HkVec3, hit: *mut HkGroundHit) -> i32 {
    unsafe {
        *hit = HkGroundHit {
            height: 0.0,
            normal: v(0.0, 1.0, 0.0),
        }
    };
    1
}

/// The documented readings of a callback's answer, one rule per run: a NaN fraction blocks (the
/// body stays), "nothing in the way" (0) lets it fall, a scaled axis normal is the unit one.
#[test]
fn trace_answers_are_read_as_documented() {
    unsafe extern "C" fn nan_fraction(
        _u: *mut c_void,
        _s: HkVec3,
        _e: HkVec3,
        _lo: HkVec3,
        _hi: HkVec3,
        out: *mut HkTrace,
    ) -> i32 {
        unsafe {
            (*out).fraction = f32::NAN;
            (*out).end = v(f32::NAN, 0.0, 0.0);
        }
        1
    }
    unsafe extern "C" fn nothing(
        _u: *mut c_void,
        _s: HkVec3,
        _e: HkVec3,
        _lo: HkVec3,
        _hi: HkVec3,
        out: *mut HkTrace,
    ) -> i32 {
        unsafe { (*out).fraction = 0.0 }; // not read: 0 returned
        0
    }
    /// The built-in world's answer with the normal scaled by 3.
    unsafe extern "C" fn scaled(
        user: *mut c_void,
        s: HkVec3,
        e: HkVec3,
        lo: HkVec3,
        hi: HkVec3,
        out: *mut HkTrace,
    ) -> i32 {
        let st = unsafe { hk_world_trace(user as *const HkWorld, s, e, lo, hi, out) };
        let n = unsafe { &mut (*out).plane.normal };
        *n = v(n.x * 3.0, n.y * 3.0, n.z * 3.0);
        i32::from(st == HK_OK)
    }
    let p = q3_params();
    let run = |g: &HkGround, world: Option<&HkWorld>, ticks: u32| {
        let mut m = HkMover {
            _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
        };
        assert_eq!(unsafe { hk_mover_init(&mut m, v(0.0, 0.125, 0.0)) }, HK_OK);
        for t in 0..ticks {
            let (wish, facing, jump) = script(t);
            let input = hk_input(wish, facing, jump);
            let st = match world {
                Some(w) => unsafe {
                    hk_mover_step_world(&mut m, &p, &input, w, 1.0 / 60.0, null_mut())
                },
                None => unsafe { hk_mover_step(&mut m, &p, &input, g, 1.0 / 60.0, null_mut()) },
            };
            assert_eq!(st, HK_OK);
        }
        state(&m)
    };
    let ticks = run_length(120, 8);
    let stuck = run(
        &HkGround {
            kind: HK_GROUND_CALLBACK,
            probe: Some(floor_probe),
            trace: Some(nan_fraction),
            ..flat()
        },
        None,
        ticks,
    );
    assert_eq!(stuck.position, v(0.0, 0.125, 0.0), "a NaN fraction blocks");
    let falling = run(
        &HkGround {
            kind: HK_GROUND_CALLBACK,
            probe: Some(floor_probe),
            trace: Some(nothing),
            ..flat()
        },
        None,
        ticks,
    );
    assert!(
        falling.grounded == 0 && falling.position.y < 0.0,
        "{falling:?}"
    );
    // Boxes only: every normal is an axis, so scaling it by 3 and normalising is exact.
    let mut w = new_world(HK_WORLD_DEFAULT_SKIN);
    for (a, b) in [
        (v(-512.0, -16.0, -512.0), v(512.0, 0.0, 512.0)),
        (v(128.0, 0.0, -512.0), v(144.0, 160.0, 256.0)),
        (v(64.0, 0.0, -448.0), v(128.0, 12.0, -64.0)),
    ] {
        assert_eq!(
            unsafe { hk_world_add_box(&mut *w, a, b, 0, null_mut()) },
            HK_OK
        );
    }
    let g = HkGround {
        kind: HK_GROUND_CALLBACK,
        probe: Some(floor_probe),
        user: (&mut *w as *mut HkWorld).cast(),
        trace: Some(scaled),
        ..flat()
    };
    let by_callback = run(&g, None, ticks);
    let by_world = run(&g, Some(&w), ticks);
    assert_eq!(by_callback, by_world);
    if WHOLE_RUNS {
        assert!(
            by_world.position.y > 12.0,
            "stepped onto the block: {by_world:?}"
        );
    }
}

#[test]
fn bad_world_input_is_rejected_and_changes_nothing() {
    let mut w = new_world(HK_WORLD_DEFAULT_SKIN);
    let wp: *mut HkWorld = &mut *w;
    let nan = f32::NAN;
    let far = 2.0 * HK_WORLD_MAX_COORD;
    let (a, b) = (v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0));
    let mut index = 77u32;
    unsafe {
        // Skins.
        for skin in [nan, -1.0, f32::INFINITY, HK_WORLD_MAX_SKIN * 2.0] {
            assert_eq!(hk_world_init(wp, skin), HK_ERR_INVALID_ARG, "skin {skin}");
        }
        assert_eq!(hk_world_init(null_mut(), 0.125), HK_ERR_NULL);
        // Boxes and ramps.
        assert_eq!(
            hk_world_add_box(wp, v(nan, 0.0, 0.0), b, 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            hk_world_add_box(wp, a, v(0.0, far, 0.0), 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            hk_world_add_box(wp, a, b, 2, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            hk_world_add_box(wp, a, b, 0x8000, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            hk_world_add_ramp(wp, a, b, 4, 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            hk_world_add_ramp(
                wp,
                a,
                v(f32::INFINITY, 1.0, 1.0),
                HK_TOWARD_PLUS_X,
                0,
                &mut index
            ),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            hk_world_add_box(null_mut(), a, b, 0, &mut index),
            HK_ERR_NULL
        );
        let mut odd = [0u32; 2];
        let odd_index = odd.as_mut_ptr().cast::<u8>().add(1).cast::<u32>();
        assert_eq!(hk_world_add_box(wp, a, b, 0, odd_index), HK_ERR_MISALIGNED);
        // Stairs.
        let st = |steps: u32, rise: f32, base: HkVec3, toward: u32, out: *mut u32| {
            hk_world_add_stairs(wp, base, toward, steps, rise, 16.0, 64.0, 0, out)
        };
        assert_eq!(
            st(0, 16.0, a, HK_TOWARD_PLUS_X, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            st(4, nan, a, HK_TOWARD_PLUS_X, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(st(4, 16.0, a, 9, &mut index), HK_ERR_INVALID_ARG);
        assert_eq!(
            st(4, far, a, HK_TOWARD_PLUS_X, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(st(300, 1.0, a, HK_TOWARD_PLUS_X, &mut index), HK_ERR_FULL);
        assert_eq!(
            st(u32::MAX, 1.0, a, HK_TOWARD_PLUS_X, &mut index),
            HK_ERR_FULL
        );
        // Planes.
        let planes = wedge_planes();
        let mut many = [planes[0]; HK_WORLD_MAX_INPUT_PLANES + 1];
        many[..6].copy_from_slice(&planes);
        assert_eq!(
            hk_world_add_planes(wp, many.as_ptr(), many.len(), 0, &mut index),
            HK_ERR_BAD_LENGTH
        );
        assert_eq!(
            hk_world_add_planes(wp, null(), 3, 0, &mut index),
            HK_ERR_NULL
        );
        assert_eq!(
            hk_world_add_planes(wp, null(), 0, 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        let mut bad = planes;
        bad[4].dist = nan;
        assert_eq!(
            hk_world_add_planes(wp, bad.as_ptr(), bad.len(), 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        bad = planes;
        bad[2].normal = v(0.0, 0.0, 0.0);
        assert_eq!(
            hk_world_add_planes(wp, bad.as_ptr(), bad.len(), 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        // Unbounded (no top) and empty (two opposite half-spaces that do not meet).
        assert_eq!(
            hk_world_add_planes(wp, planes.as_ptr(), 4, 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        let apart = [
            HkPlane {
                normal: v(1.0, 0.0, 0.0),
                dist: -10.0,
            },
            HkPlane {
                normal: v(-1.0, 0.0, 0.0),
                dist: -10.0,
            },
        ];
        assert_eq!(
            hk_world_add_planes(wp, apart.as_ptr(), 2, 0, &mut index),
            HK_ERR_INVALID_ARG
        );
        assert_eq!(
            hk_world_add_planes(wp, planes.as_ptr(), planes.len(), 4, &mut index),
            HK_ERR_INVALID_ARG
        );
        // Nothing was added and no index written.
        assert_eq!(world_len(&w), 0);
        assert_eq!(index, 77);
        // Traces: non-finite vectors, NULL and misaligned outputs; the output stays untouched.
        let mut t = HkTrace {
            fraction: 42.0,
            ..HkTrace::default()
        };
        for (s, e, lo, hi) in [
            (v(nan, 0.0, 0.0), b, a, b),
            (a, v(0.0, f32::INFINITY, 0.0), a, b),
            (a, b, v(0.0, 0.0, nan), b),
            (a, b, a, v(f32::NEG_INFINITY, 0.0, 0.0)),
        ] {
            assert_eq!(hk_world_trace(wp, s, e, lo, hi, &mut t), HK_ERR_INVALID_ARG);
        }
        assert_eq!(t.fraction, 42.0);
        assert_eq!(hk_world_trace(wp, a, b, a, b, null_mut()), HK_ERR_NULL);
        assert_eq!(hk_world_trace(null(), a, b, a, b, &mut t), HK_ERR_NULL);
        let mut raw = [0u64; 8];
        let odd_trace = raw.as_mut_ptr().cast::<u8>().add(2).cast::<HkTrace>();
        assert_eq!(hk_world_trace(wp, a, b, a, b, odd_trace), HK_ERR_MISALIGNED);
        // Far but finite trace inputs are clamped, not rejected.
        assert_eq!(
            hk_world_trace(wp, v(far, 0.0, 0.0), v(-far, 0.0, 0.0), a, b, &mut t),
            HK_OK
        );
        assert!(t.end.x.is_finite() && t.end.x.abs() <= HK_WORLD_MAX_COORD);
        assert_eq!(hk_world_len(wp, null_mut()), HK_ERR_NULL);
    }
}

#[test]
fn a_full_world_takes_nothing_more() {
    let mut w = new_world(HK_WORLD_DEFAULT_SKIN);
    let wp: *mut HkWorld = &mut *w;
    let mut first = 0u32;
    unsafe {
        // 255 steps in one call (one grid rebuild), then one box: full.
        assert_eq!(
            hk_world_add_stairs(
                wp,
                v(0.0, 0.0, 0.0),
                HK_TOWARD_PLUS_X,
                255,
                1.0,
                2.0,
                8.0,
                0,
                &mut first
            ),
            HK_OK
        );
        assert_eq!(first, 0);
        // Two more steps do not fit: none is added.
        assert_eq!(
            hk_world_add_stairs(
                wp,
                v(0.0, 0.0, 50.0),
                HK_TOWARD_PLUS_X,
                2,
                1.0,
                2.0,
                8.0,
                0,
                &mut first
            ),
            HK_ERR_FULL
        );
        assert_eq!(world_len(&w), 255);
        let mut index = 0u32;
        assert_eq!(
            hk_world_add_box(wp, v(0.0, -1.0, 0.0), v(600.0, 0.0, 8.0), 0, &mut index),
            HK_OK
        );
        assert_eq!(index as usize, HK_WORLD_CAPACITY - 1);
        index = 9;
        assert_eq!(
            hk_world_add_box(wp, v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0), 0, &mut index),
            HK_ERR_FULL
        );
        assert_eq!(
            hk_world_add_ramp(wp, v(0.0, 0.0, 0.0), v(1.0, 1.0, 1.0), 0, 0, &mut index),
            HK_ERR_FULL
        );
        let planes = wedge_planes();
        assert_eq!(
            hk_world_add_planes(wp, planes.as_ptr(), planes.len(), 0, &mut index),
            HK_ERR_FULL
        );
        assert_eq!(index, 9);
        assert_eq!(world_len(&w) as usize, HK_WORLD_CAPACITY);
        // Still a working world: a point dropped onto step 100 lands on its top.
        let mut t = HkTrace::default();
        let x = 2.0 * 100.0 + 1.0;
        assert_eq!(
            hk_world_trace(
                wp,
                v(x, 500.0, 4.0),
                v(x, -10.0, 4.0),
                v(0.0, 0.0, 0.0),
                v(0.0, 0.0, 0.0),
                &mut t
            ),
            HK_OK
        );
        assert_eq!(t.solid, 100);
        assert!(
            (t.end.y - (101.0 + HK_WORLD_DEFAULT_SKIN)).abs() < 1e-3,
            "{t:?}"
        );
        assert_eq!(hk_world_clear(wp), HK_OK);
        assert_eq!(world_len(&w), 0);
    }
}

#[test]
fn world_storage_and_step_pointers_are_checked() {
    #[repr(C, align(8))]
    struct Buf([u8; HK_WORLD_SIZE + 8]);
    let mut buf = Box::new(Buf([0; HK_WORLD_SIZE + 8]));
    let p = q3_params();
    let input = hk_input(Vec2::new(1.0, 0.0), Vec2::new(0.0, -1.0), false);
    let mut m = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    assert_eq!(unsafe { hk_mover_init(&mut m, v(0.0, 0.125, 0.0)) }, HK_OK);
    let before = state(&m);
    unsafe {
        let odd = buf.0.as_mut_ptr().add(4).cast::<HkWorld>();
        assert_eq!(hk_world_init(odd, 0.125), HK_ERR_MISALIGNED);
        let even = buf.0.as_mut_ptr().cast::<HkWorld>();
        let a = v(0.0, 0.0, 0.0);
        // Zeroed storage was never initialised; a mover is not a world.
        assert_eq!(
            hk_world_add_box(even, a, a, 0, null_mut()),
            HK_ERR_UNINITIALIZED
        );
        let mut n = 0u32;
        assert_eq!(hk_world_len(even, &mut n), HK_ERR_UNINITIALIZED);
        let mover_as_world = (&m as *const HkMover).cast::<HkWorld>();
        assert_eq!(hk_world_len(mover_as_world, &mut n), HK_ERR_UNINITIALIZED);
        assert_eq!(
            hk_mover_step_world(&mut m, &p, &input, even, 1.0 / 60.0, null_mut()),
            HK_ERR_UNINITIALIZED
        );
        assert_eq!(hk_world_init(even, 0.125), HK_OK);
        assert_eq!(
            hk_world_add_box(
                even,
                v(-64.0, -1.0, -64.0),
                v(64.0, 0.0, 64.0),
                0,
                null_mut()
            ),
            HK_OK
        );
        // Step arguments: every one checked before anything changes.
        let dt = 1.0 / 60.0;
        assert_eq!(
            hk_mover_step_world(null_mut(), &p, &input, even, dt, null_mut()),
            HK_ERR_NULL
        );
        assert_eq!(
            hk_mover_step_world(&mut m, null(), &input, even, dt, null_mut()),
            HK_ERR_NULL
        );
        assert_eq!(
            hk_mover_step_world(&mut m, &p, null(), even, dt, null_mut()),
            HK_ERR_NULL
        );
        assert_eq!(
            hk_mover_step_world(&mut m, &p, &input, null(), dt, null_mut()),
            HK_ERR_NULL
        );
        for bad_dt in [f32::NAN, 0.0, -1.0, HK_MAX_STEP_DT * 2.0] {
            assert_eq!(
                hk_mover_step_world(&mut m, &p, &input, even, bad_dt, null_mut()),
                HK_ERR_INVALID_ARG
            );
        }
        let nan_input = HkMoveInput {
            look_up: f32::NAN,
            ..input
        };
        assert_eq!(
            hk_mover_step_world(&mut m, &p, &nan_input, even, dt, null_mut()),
            HK_ERR_INVALID_ARG
        );
        let mut bad_p = p;
        bad_p.body_radius = f32::NAN;
        assert_eq!(
            hk_mover_step_world(&mut m, &bad_p, &input, even, dt, null_mut()),
            HK_ERR_INVALID_ARG
        );
        bad_p = p;
        bad_p.surf = 2;
        assert_eq!(
            hk_mover_step_world(&mut m, &bad_p, &input, even, dt, null_mut()),
            HK_ERR_INVALID_ARG
        );
        let mut raw = [0u64; 8];
        let odd_events = raw.as_mut_ptr().cast::<u8>().add(1).cast::<HkStepEvents>();
        assert_eq!(
            hk_mover_step_world(&mut m, &p, &input, even, dt, odd_events),
            HK_ERR_MISALIGNED
        );
        // The world passed as the mover: refused by its tag, nothing written.
        assert_eq!(
            hk_mover_step_world(even.cast::<HkMover>(), &p, &input, even, dt, null_mut()),
            HK_ERR_UNINITIALIZED
        );
        assert_eq!(state(&m), before);
        assert_eq!(
            hk_mover_step_world(&mut m, &p, &input, even, dt, null_mut()),
            HK_OK
        );
        assert_ne!(state(&m), before);
    }
}

mod props {
    use super::*;
    use proptest::prelude::*;

    /// Any float: the bit patterns NaN, ±inf, subnormals and huge values included.
    fn any_f32() -> impl Strategy<Value = f32> {
        prop_oneof![
            3 => -2000.0f32..2000.0,
            1 => any::<u32>().prop_map(f32::from_bits),
        ]
    }

    fn any_v3() -> impl Strategy<Value = HkVec3> {
        (any_f32(), any_f32(), any_f32()).prop_map(|(x, y, z)| v(x, y, z))
    }

    proptest! {
        #![proptest_config(ProptestConfig::with_cases(96))]

        /// Any boxes, ramps and traces: the C ABI accepts exactly what the core builds, and
        /// traces the same bits; a step through the result never leaves a bad number.
        #[test]
        fn any_world_is_the_cores(
            solids in proptest::collection::vec((any_v3(), any_v3(), 0u32..5, any::<u32>()), 1..12),
            traces in proptest::collection::vec((any_v3(), any_v3(), any_v3(), any_v3()), 1..8),
            wish in (any_f32(), any_f32()),
        ) {
            let mut w = new_world(HK_WORLD_DEFAULT_SKIN);
            let mut core = World::<HK_WORLD_CAPACITY>::new();
            for (a, b, kind, flags) in solids {
                let flags = flags & !0x7ffe; // some reserved bits still set (bit 15)
                let st = unsafe {
                    if kind < 4 {
                        hk_world_add_ramp(&mut *w, a, b, kind, flags, null_mut())
                    } else {
                        hk_world_add_box(&mut *w, a, b, flags, null_mut())
                    }
                };
                let (ca, cb) = (Vec3::from(a), Vec3::from(b));
                let built = if kind < 4 {
                    let t = [Toward::PlusX, Toward::MinusX, Toward::PlusZ, Toward::MinusZ];
                    Brush::ramp(ca, cb, t[kind as usize])
                } else {
                    Brush::aabb(ca, cb)
                };
                match built {
                    Ok(brush) if flags & HK_SOLID_RESERVED_MASK == 0 => {
                        prop_assert_eq!(st, HK_OK);
                        core.push(brush.with_flags(SolidFlags(flags))).unwrap();
                    }
                    _ => prop_assert_eq!(st, HK_ERR_INVALID_ARG),
                }
            }
            prop_assert_eq!(world_len(&w) as usize, core.len());
            for (s, e, lo, hi) in traces {
                let mut t = HkTrace::default();
                let st = unsafe { hk_world_trace(&*w, s, e, lo, hi, &mut t) };
                let all = [s, e, lo, hi];
                if all.iter().all(|x| Vec3::from(*x).is_finite()) {
                    prop_assert_eq!(st, HK_OK);
                    let r = core.trace(s.into(), e.into(), lo.into(), hi.into());
                    same_bits(&t, &r, "random trace");
                    prop_assert!((0.0..=1.0).contains(&t.fraction) && Vec3::from(t.end).is_finite());
                } else {
                    prop_assert_eq!(st, HK_ERR_INVALID_ARG);
                }
            }
            let p = q3_params();
            let mut m = HkMover {
                _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
            };
            prop_assert_eq!(unsafe { hk_mover_init(&mut m, v(0.0, 30.0, 0.0)) }, HK_OK);
            let input = hk_input(Vec2::new(wish.0, wish.1), Vec2::new(0.0, -1.0), true);
            for _ in 0..10 {
                let st = unsafe { hk_mover_step_world(&mut m, &p, &input, &*w, 1.0 / 60.0, null_mut()) };
                if !(wish.0.is_finite() && wish.1.is_finite()) {
                    prop_assert_eq!(st, HK_ERR_INVALID_ARG);
                    break;
                }
                prop_assert_eq!(st, HK_OK);
                let s = state(&m);
                prop_assert!(Vec3::from(s.position).is_finite() && Vec3::from(s.velocity).is_finite());
            }
        }
    }
}

/// `hk_world_init` builds the 36 KiB world in its storage, never on the stack: it runs in a thread
/// with a 16 KiB stack (the smallest glibc gives; a debug build, where nothing is optimised
/// away). Built on the stack and moved in, as before, it overflowed even a 128 KiB one here.
/// The world it leaves is empty, with the skin asked for, and works.
#[test]
#[cfg_attr(miri, ignore = "Miri does not model native stack sizes")]
fn world_init_builds_in_place_on_a_small_stack() {
    let mut storage = Box::<HkWorld>::new_uninit();
    // Dirty storage: init must not depend on what was there.
    unsafe { std::ptr::write_bytes(storage.as_mut_ptr(), 0xA5, 1) };
    let addr = storage.as_mut_ptr() as usize;
    let status = std::thread::Builder::new()
        .stack_size(16 * 1024)
        .spawn(move || unsafe { hk_world_init(addr as *mut HkWorld, 1.0 / 256.0) })
        .unwrap()
        .join()
        .unwrap();
    assert_eq!(status, HK_OK);
    let mut w = unsafe { storage.assume_init() };
    assert_eq!(world_len(&w), 0);
    let mut index = u32::MAX;
    let (lo, hi) = (v(-1.0, 0.0, -1.0), v(1.0, 1.0, 1.0));
    assert_eq!(
        unsafe { hk_world_add_box(&mut *w, lo, hi, 0, &mut index) },
        HK_OK
    );
    assert_eq!((index, world_len(&w)), (0, 1));
    // A box dropped onto it stops a skin (1/256) above its top, as in the core's world.
    let core = {
        let mut c = World::<4>::new().with_skin(1.0 / 256.0);
        let b = Brush::aabb(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(1.0, 1.0, 1.0)).unwrap();
        c.push(b).unwrap();
        c
    };
    let (start, end) = (v(0.0, 3.0, 0.0), v(0.0, -3.0, 0.0));
    let (mins, maxs) = (v(-0.4, 0.0, -0.4), v(0.4, 1.8, 0.4));
    let mut t = HkTrace::default();
    assert_eq!(
        unsafe { hk_world_trace(&*w, start, end, mins, maxs, &mut t) },
        HK_OK
    );
    let r = core.trace(
        Vec3::new(0.0, 3.0, 0.0),
        Vec3::new(0.0, -3.0, 0.0),
        Vec3::new(-0.4, 0.0, -0.4),
        Vec3::new(0.4, 1.8, 0.4),
    );
    assert_eq!(t.fraction.to_bits(), r.fraction.to_bits());
    assert_eq!(t.end.y.to_bits(), r.end.y.to_bits());
    assert!((t.end.y - (1.0 + 1.0 / 256.0)).abs() < 1e-5, "{t:?}");
}

/// The water test level (Quake units), through the C ABI and in the core: a floor (top 0) for
/// `x < 0`, a pool 256 long (floor −96, water up to −8) and a ledge beyond it (top 0).
fn pool_level() -> (Box<HkWorld>, World<HK_WORLD_CAPACITY>) {
    let mut w = new_world(HK_WORLD_DEFAULT_SKIN);
    let mut core = World::new();
    let boxes = [
        (v(-512.0, -112.0, -512.0), v(0.0, 0.0, 512.0)),
        (v(0.0, -112.0, -512.0), v(256.0, -96.0, 512.0)),
        (v(256.0, -112.0, -512.0), v(4096.0, 0.0, 512.0)),
    ];
    for (i, (a, b)) in boxes.into_iter().enumerate() {
        let mut index = u32::MAX;
        assert_eq!(
            unsafe { hk_world_add_box(&mut *w, a, b, 0, &mut index) },
            HK_OK
        );
        assert_eq!(index as usize, i);
        core.push(Brush::aabb(a.into(), b.into()).unwrap()).unwrap();
    }
    // Corners in any order, as the core's `WaterVolume::new`.
    let (a, b) = (v(256.0, -8.0, 512.0), v(0.0, -100.0, -512.0));
    let mut index = u32::MAX;
    assert_eq!(
        unsafe { hk_world_add_water(&mut *w, a, b, &mut index) },
        HK_OK
    );
    assert_eq!(index, 0);
    core.add_water(WaterVolume::new(a.into(), b.into()).unwrap())
        .unwrap();
    (w, core)
}

fn water_at(w: &HkWorld, p: Vec3) -> Option<f32> {
    let (mut inside, mut surface) = (7u8, f32::NAN);
    assert_eq!(
        unsafe { hk_world_water(w, p.into(), &mut inside, &mut surface) },
        HK_OK
    );
    assert!(inside <= 1 && surface.is_finite());
    (inside == 1).then_some(surface)
}

/// `hk_world_add_water` and `hk_world_water` answer as the core's `World`, and
/// `hk_mover_step_world` swims in the water bit for bit as `movement::step` over
/// `collide::Solid`: a body walks into the pool, swims, and leaves it by a water jump onto the
/// ledge.
#[test]
fn world_water_steps_as_the_core() {
    let (w, core) = pool_level();
    for p in [
        Vec3::new(100.0, -50.0, 0.0),
        Vec3::new(100.0, -8.0, 0.0),
        Vec3::new(100.0, -7.5, 0.0),
        Vec3::new(0.0, -100.0, 512.0),
        Vec3::new(-0.5, -50.0, 0.0),
        Vec3::new(100.0, -101.0, 0.0),
    ] {
        assert_eq!(water_at(&w, p), core.water(p), "{p:?}");
    }
    assert_eq!(water_at(&w, Vec3::new(100.0, -50.0, 0.0)), Some(-8.0));
    assert_eq!(water_at(&w, Vec3::new(100.0, -7.5, 0.0)), None);

    let mut p = MaybeUninit::<HkMoveParams>::uninit();
    assert_eq!(unsafe { hk_move_params_quakeworld(p.as_mut_ptr()) }, HK_OK);
    let p = unsafe { p.assume_init() };
    let cp = MoveParams::quakeworld();
    let start = Vec3::new(-60.0, 0.125, 0.0);
    let mut m = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    assert_eq!(unsafe { hk_mover_init(&mut m, start.into()) }, HK_OK);
    let mut s = MoverState::new(start);
    let solid = Solid(&core);
    let (mut swam, mut water_jumped) = (false, false);
    let facing = Vec2::new(1.0, 0.0);
    for t in 0..run_length(420, 8) {
        // Walk in, drift down for a second, then swim forward holding jump.
        let (wish, jump) = match t {
            0..60 => (Vec2::new(1.0, 0.0), false),
            60..120 => (Vec2::ZERO, false),
            _ => (Vec2::new(1.0, 0.0), true),
        };
        let input = hk_input(wish, facing, jump);
        let mut e = HkStepEvents::default();
        let dt = 1.0 / 60.0;
        assert_eq!(
            unsafe { hk_mover_step_world(&mut m, &p, &input, &*w, dt, &mut e) },
            HK_OK
        );
        let ev = movement::step(&mut s, &cp, &MoveInput::new(wish, jump, facing), &solid, dt);
        assert_eq!(mover_hash(&m), s.state_hash(), "tick {t}");
        assert_eq!(e, HkStepEvents::from(ev), "tick {t}");
        swam |= movement::water_level(&solid, s.position, &cp) >= 2;
        water_jumped |= s.water_jump_timer != 0.0;
    }
    if WHOLE_RUNS {
        let end = state(&m);
        assert!(
            swam && water_jumped,
            "swam {swam}, water jump {water_jumped}"
        );
        assert!(
            end.grounded == 1 && end.position.x > 256.0 && (end.position.y - 0.125).abs() < 1e-3,
            "not on the ledge: {end:?}"
        );
    }
}

/// Water volumes: bad corners and a full list are reported and change nothing, the pointers are
/// checked, `hk_world_clear` empties the water too.
#[test]
fn world_water_input_is_checked() {
    let mut w = new_world(HK_WORLD_DEFAULT_SKIN);
    // Every access through `wp` (Tree Borrows: no read through `w` while `wp` writes).
    let wp: *mut HkWorld = &mut *w;
    let (a, b) = (v(0.0, -10.0, 0.0), v(10.0, 0.0, 10.0));
    let big = HK_WORLD_MAX_COORD * 2.0;
    unsafe {
        let mut index = 9u32;
        for (x, y) in [
            (v(f32::NAN, 0.0, 0.0), b),
            (a, v(0.0, f32::INFINITY, 0.0)),
            (v(0.0, 0.0, big), b),
            (a, v(-big, 0.0, 0.0)),
        ] {
            assert_eq!(hk_world_add_water(wp, x, y, &mut index), HK_ERR_INVALID_ARG);
        }
        assert_eq!(index, 9);
        assert_eq!(
            hk_world_add_water(null_mut(), a, b, &mut index),
            HK_ERR_NULL
        );
        let mut odd = [0u64; 2];
        let odd_index = odd.as_mut_ptr().cast::<u8>().add(1).cast::<u32>();
        assert_eq!(hk_world_add_water(wp, a, b, odd_index), HK_ERR_MISALIGNED);
        assert_eq!(water_at(&*wp, Vec3::new(5.0, -5.0, 5.0)), None);
        // Fill it; one more is full and changes nothing.
        for i in 0..HK_WORLD_MAX_WATER {
            let top = i as f32;
            assert_eq!(
                hk_world_add_water(wp, a, v(10.0, top, 10.0), &mut index),
                HK_OK
            );
            assert_eq!(index as usize, i);
        }
        assert_eq!(
            hk_world_add_water(wp, a, v(10.0, 100.0, 10.0), &mut index),
            HK_ERR_FULL
        );
        assert_eq!(index as usize, HK_WORLD_MAX_WATER - 1);
        // The highest surface containing the point: the last added (top 7), not the refused 100.
        let top = (HK_WORLD_MAX_WATER - 1) as f32;
        assert_eq!(water_at(&*wp, Vec3::new(5.0, -5.0, 5.0)), Some(top));
        assert_eq!(water_at(&*wp, Vec3::new(5.0, 50.0, 5.0)), None);
        // The query's checks.
        let (mut inside, mut surface) = (0u8, 0.0f32);
        let p = v(5.0, -5.0, 5.0);
        assert_eq!(hk_world_water(wp, p, null_mut(), &mut surface), HK_ERR_NULL);
        assert_eq!(hk_world_water(wp, p, &mut inside, null_mut()), HK_ERR_NULL);
        assert_eq!(
            hk_world_water(null(), p, &mut inside, &mut surface),
            HK_ERR_NULL
        );
        for bad in [f32::NAN, f32::INFINITY] {
            assert_eq!(
                hk_world_water(wp, v(5.0, bad, 5.0), &mut inside, &mut surface),
                HK_ERR_INVALID_ARG
            );
        }
        // Water is no solid: no solid was added, traces through it hit nothing.
        assert_eq!(world_len(&*wp), 0);
        let mut t = HkTrace::default();
        assert_eq!(
            hk_world_trace(
                wp,
                v(-5.0, -5.0, 5.0),
                v(20.0, -5.0, 5.0),
                v(-1.0, 0.0, -1.0),
                v(1.0, 2.0, 1.0),
                &mut t
            ),
            HK_OK
        );
        assert_eq!((t.fraction, t.solid), (1.0, HK_SOLID_NONE));
        assert_eq!(hk_world_clear(wp), HK_OK);
        assert_eq!(water_at(&*wp, Vec3::new(5.0, -5.0, 5.0)), None);
        assert_eq!(hk_world_add_water(wp, a, b, &mut index), HK_OK);
        assert_eq!(index, 0);
        // Uninitialised storage is refused.
        #[repr(C, align(8))]
        struct Buf([u8; HK_WORLD_SIZE]);
        let mut buf = Box::new(Buf([0; HK_WORLD_SIZE]));
        let raw = buf.0.as_mut_ptr().cast::<HkWorld>();
        assert_eq!(
            hk_world_add_water(raw, a, b, null_mut()),
            HK_ERR_UNINITIALIZED
        );
        assert_eq!(
            hk_world_water(raw, p, &mut inside, &mut surface),
            HK_ERR_UNINITIALIZED
        );
    }
}

/// `hk_mover_step_world` climbs an `HK_SOLID_LADDER` solid (its docs say so): a body walking
/// into the level's ladder goes up it, bit for bit as the core's `movement::step` over
/// `collide::Solid`, and never inside it.
#[test]
fn world_step_climbs_a_ladder_as_the_core() {
    let (w, core) = level();
    let p = q3_params();
    let cp = MoveParams::quake3();
    // The ladder is the box x −40..−32, z 100..132, 96 high; the body faces it from −X.
    let start = Vec3::new(-60.0, 0.0, 116.0);
    let mut m = HkMover {
        _opaque: [MaybeUninit::new(0); HK_MOVER_SIZE],
    };
    assert_eq!(unsafe { hk_mover_init(&mut m, start.into()) }, HK_OK);
    let mut s = MoverState::new(start);
    let solid = Solid(&core);
    let facing = Vec2::new(1.0, 0.0);
    let input = hk_input(Vec2::new(1.0, 0.0), facing, false);
    let mut top = start.y;
    for t in 0..run_length(120, 8) {
        let mut e = HkStepEvents::default();
        let dt = 1.0 / 60.0;
        assert_eq!(
            unsafe { hk_mover_step_world(&mut m, &p, &input, &*w, dt, &mut e) },
            HK_OK
        );
        let ev = movement::step(
            &mut s,
            &cp,
            &MoveInput::new(Vec2::new(1.0, 0.0), false, facing),
            &solid,
            dt,
        );
        assert_eq!(mover_hash(&m), s.state_hash(), "tick {t}");
        assert_eq!(e, HkStepEvents::from(ev), "tick {t}");
        let (lo, hi) = (
            s.position + Vec3::new(-15.0, 0.0, -15.0),
            s.position + Vec3::new(15.0, 56.0, 15.0),
        );
        assert!(
            !(hi.x > -40.0 && lo.x < -32.0 && hi.z > 100.0 && lo.z < 132.0 && lo.y < 96.0),
            "tick {t}: inside the ladder at {:?}",
            s.position
        );
        top = top.max(s.position.y);
    }
    if WHOLE_RUNS {
        assert!(top > 48.0, "did not climb: highest feet {top}");
    }
}
