//! Link-time proof that the core's per-tick path has no reachable panic.
//!
//! The panic handler of this image calls `hopkit_panic_is_reachable`, a function that exists
//! nowhere. With fat LTO (the `firmware` profile) every panic that the optimiser cannot prove
//! unreachable keeps a call to the handler, so the link fails with
//! `undefined symbol: hopkit_panic_is_reachable` — naming the culprit in the linker's "referenced by"
//! lines. If it links, no panic path survives in what `main` calls:
//!
//! - `DemoRig::new`, `DemoRig::tick` on *arbitrary* raw input (every input is laundered through
//!   `black_box`, so the optimiser must keep every branch of the stick pipeline and the scene),
//!   `DemoRig::view` and `DemoRig::state_hash`;
//! - every other public mechanic, each on `black_box`ed (so: arbitrary) state, params and inputs
//!   ([`exercise_everything`]): `movement::step`; every steering behaviour (seek, flee, pursue,
//!   evade, arrive / `arrival_step`, wander, face, align, look-where-going, separation, cohesion,
//!   alignment, flock, obstacle avoidance, containment, path following), the three combiners and
//!   `integrate`; `follower::step`, `regroup` and `follower::party::step`; `slope::step`; ghosts
//!   (`Ghost::step`, `step_following`, fleets, formations, `Recorder` (format v1 and v2) +
//!   `record_and_fly` + v2 `load` / `for_each_frame` / `encode_v2` +
//!   `finish`, `encode`, `decode`, `Recording::parse`, `verify`); `FixedStep` and `SubSteps`;
//!   the firmware `App::poll` with the shared renderer;
//! - the body among solids ([`ex_collide`]): a `World` built (`Brush::aabb`, `stairs`, `ramp`;
//!   `push`, `extend`: the grid's rebuild) from opaque corners, a scripted body's collide-and-slide
//!   `movement::step`s through it, then an arbitrary body's, `World::trace` and `World::contents`
//!   on arbitrary boxes, `move_solid` with arbitrary motion and `Brush::from_planes` on an
//!   arbitrary number of arbitrary planes (its result not hashed);
//! - `format_hash_line` and the semihosting output of the result.
//!
//! `scripts/ci-cross.sh` links it once more with `overflow-checks = true`, so an integer
//! overflow that can happen is a reachable panic too. **Finding the culprit** when the link
//! fails: the linker's error lists the functions that reference `hopkit_panic_is_reachable`
//! ("referenced by …", demangled); comment calls out of [`exercise_everything`] to bisect, or
//! build with `-C link-arg=--print-map` and look for the caller.
//!
//! It also runs: under QEMU it prints the scripted demo's `state-hash` line, so CI can check that
//! the panic-free build computes the same thing as the others, and `panic-check-collide: 0x…`, the
//! collision run's hash, which CI compares across the CPUs; it exits with a failure if that run's
//! body did not climb the stairs and stop at the wall.
#![no_std]
#![no_main]

#[cfg(not(target_os = "none"))]
compile_error!(
    "this binary runs on bare metal only: build it with --target (see docs/firmware.md)"
);

use core::cell::RefCell;
use core::hint::black_box;
use cortex_m::interrupt::Mutex;
use cortex_m_rt::entry;
use cortex_m_semihosting::{debug, hio};
use hopkit::hash::{format_hash_line, StateHash, StateHasher, HASH_LINE_LEN};
use hopkit::math::{Quat, Vec2, Vec3};
use hopkit::stick::RawSticks;
use hopkit_demo::{scripted_raw, DemoRig};
// Links the soft float (its AEABI exports on ARMv6-M): a dependency never named is not linked.
use hopkit_firmware as _;

#[cfg(not(hopkit_panic_report))]
extern "C" {
    /// Deliberately undefined: referenced only if a panic path is reachable.
    fn hopkit_panic_is_reachable() -> !;
}

#[cfg(not(hopkit_panic_report))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    // SAFETY: never actually called — if any call to it survives optimisation, linking fails.
    unsafe { hopkit_panic_is_reachable() }
}

/// `scripts/panic-culprits.sh` builds with `--cfg hopkit_panic_report`: an ordinary handler, so
/// the image links and its disassembly shows which `ex_*` function still calls into a panic.
#[cfg(hopkit_panic_report)]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        cortex_m::asm::bkpt();
    }
}

/// Ticks of the scripted demo (the same as `qemu-demo`).
const TICKS: u32 = 600;

/// [`ex_collide`]'s world of solids.
type Level = hopkit::collide::World<16>;

/// [`ex_collide`]'s level, in a static: on the stack it would crowd the Cortex-M0's 16 KiB.
static COLLISION_LEVEL: Mutex<RefCell<Level>> = Mutex::new(RefCell::new(Level::new()));

#[entry]
fn main() -> ! {
    let mut rig = DemoRig::new();
    let mut views = 0u32;
    for t in 0..black_box(TICKS) {
        // Launder the input: as far as the optimiser knows, `raw` can be any bit pattern.
        let raw: RawSticks = black_box(scripted_raw(black_box(t)));
        rig.tick(&raw);
        let view = black_box(rig.view());
        views = views.wrapping_add(view.tick & 1);
    }
    black_box(views);
    black_box(exercise_everything(black_box(7)));
    let (collide, collide_ok) = ex_collide(black_box(5));
    let mut buf = [0u8; HASH_LINE_LEN + 1];
    let line = format_hash_line(rig.state_hash(), &mut buf);
    if let Ok(mut out) = hio::hstdout() {
        let _ = out.write_all(line.as_bytes());
        // `panic-check-collide: 0x…` (the hash's 16 digits after the line's `state-hash: `),
        // compared across the CPUs by ci-cross, and whether the body did what its level makes it.
        let mut cbuf = [0u8; HASH_LINE_LEN + 1];
        let cline = format_hash_line(collide, &mut cbuf);
        let _ = out.write_all(b"\npanic-check-collide: ");
        let _ = out.write_all(cline.get(12..).unwrap_or(cline).as_bytes());
        let _ = out.write_all(if collide_ok {
            b" (climbed the stairs, stopped at the wall)"
        } else {
            b" FAILED: the body did not climb the stairs and stop at the wall"
        });
        let _ = out.write_all(b"\npanic-check: linked without reachable panics\n");
    }
    debug::exit(if collide_ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    loop {
        cortex_m::asm::bkpt();
    }
}

/// An opaque copy of `x`: the optimiser must assume any value.
#[inline(always)]
fn any<T>(x: T) -> T {
    black_box(x)
}

/// Call every public mechanic once on opaque inputs and hash what comes out (see the module docs).
/// One `#[inline(never)]` function per area, so `scripts/panic-culprits.sh` can name the area that
/// still holds a panic path.
#[inline(never)]
fn exercise_everything(seed: u32) -> u64 {
    let mut h = StateHasher::new();
    ex_movement(&mut h);
    ex_steering(&mut h, seed);
    ex_follower(&mut h);
    ex_slope(&mut h);
    ex_ghost(&mut h, seed);
    ex_time(&mut h);
    ex_app(&mut h);
    h.finish()
}

fn v3(x: f32) -> Vec3 {
    any(Vec3::new(x, any(0.5), any(-x)))
}

#[inline(never)]
fn ex_movement(h: &mut StateHasher) {
    use hopkit::ground::FlatGround;
    use hopkit::movement::{self, MoveInput, MoveParams, MoverState};
    let mut m: MoverState = any(MoverState::new(v3(1.0)));
    let mp: MoveParams = any(MoveParams::quakeworld());
    let input = any(MoveInput::new(
        any(Vec2::new(1.0, 0.5)),
        any(true),
        any(Vec2::new(0.0, -1.0)),
    ));
    let ev = movement::step(
        &mut m,
        &mp,
        &input,
        &any(FlatGround::new(0.0)),
        any(1.0 / 60.0),
    );
    m.hash_state(h);
    h.write_u32(ev.substeps);
}

#[inline(never)]
fn ex_steering(h: &mut StateHasher, seed: u32) {
    use hopkit::steering::{
        self, Aabb, Agent, ArrivalParams, ArrivalState, AvoidParams, ContainParams, FlockParams,
        Neighbour, Obstacle, Path, PathFollowState, PathParams, SteeringParams, WanderParams,
        WanderState,
    };
    let dt: f32 = any(1.0 / 60.0);
    let sp: SteeringParams = any(SteeringParams::default());
    let agent: Agent = any(Agent::new(v3(2.0)));
    let target = v3(5.0);
    let nb = [any(Neighbour {
        position: v3(2.5),
        velocity: v3(0.1),
        id: any(1),
    }); 4];
    let fp: FlockParams = any(FlockParams::default());
    let obstacles = [any(Obstacle {
        centre: v3(3.0),
        radius: any(1.0),
    }); 2];
    let bounds = any(Aabb::new(v3(-20.0), v3(20.0)));
    let mut wander_state = any(WanderState::new(any(seed as u64)));
    let path: Path<8> =
        any(Path::from_points(&[v3(0.0), v3(4.0), v3(8.0)], any(false)).unwrap_or_default());
    let mut path_state = any(PathFollowState::default());
    let flock = steering::flock(&agent, any(0), &nb, &fp, &sp, dt);
    let items = [
        steering::seek(&agent, target, &sp, dt),
        steering::flee(&agent, target, &sp, dt),
        steering::pursue(&agent, target, v3(1.0), any(1.0), &sp, dt),
        steering::evade(&agent, target, v3(1.0), any(1.0), &sp, dt),
        steering::arrive(&agent, target, &sp, &any(ArrivalParams::default()), dt),
        steering::wander(
            &agent,
            &mut wander_state,
            &sp,
            &any(WanderParams::default()),
            dt,
        ),
        steering::face(&agent, target, &sp, dt),
        steering::align(&agent, any(1.0), &sp, dt),
        steering::look_where_going(&agent, &sp, dt),
        steering::separation(&agent, any(0), &nb, &fp, &sp),
        steering::cohesion(&agent, any(0), &nb, &fp, &sp),
        steering::alignment(&agent, any(0), &nb, &fp, &sp, dt),
        steering::avoid_obstacles(&agent, &obstacles, &sp, &any(AvoidParams::default())),
        steering::contain(&agent, &bounds, &sp, &any(ContainParams::default())),
        steering::follow_path(
            &agent,
            &path,
            &mut path_state,
            &sp,
            &any(PathParams::default()),
            dt,
        ),
    ];
    let weighted = [
        (items[0], any(1.0)),
        (items[1], any(0.5)),
        (flock.separation, any(1.0)),
        (flock.cohesion, any(0.3)),
        (flock.alignment, any(0.3)),
    ];
    let mut a2 = agent;
    steering::integrate(&mut a2, &sp, steering::blend(&weighted, &sp), dt);
    steering::integrate(&mut a2, &sp, steering::priority(&items, any(1.0e-3)), dt);
    steering::integrate(
        &mut a2,
        &sp,
        steering::truncated_budget(&items, any(8.0)),
        dt,
    );
    a2.hash_state(h);
    let mut arr = any(ArrivalState::new(v3(0.0)));
    steering::arrival_step(&mut arr, &sp, &any(ArrivalParams::default()), target, dt);
    arr.hash_state(h);
    h.write_f32(steering::stopping_speed(any(3.0), any(8.0), dt));
}

#[inline(never)]
fn ex_follower(h: &mut StateHasher) {
    use hopkit::follower::{self, FollowerParams, FollowerState, Party, PartyParams};
    use hopkit::ground::FlatGround;
    let ground = any(FlatGround::new(0.0));
    let dt: f32 = any(1.0 / 60.0);
    let fparams: FollowerParams = any(FollowerParams::default());
    let mut f: FollowerState = any(FollowerState::new(v3(0.0), v3(2.0), any(0.0)));
    follower::step(&mut f, &fparams, v3(3.0), &ground, dt);
    follower::regroup(&mut f, &fparams, v3(4.0), any(Vec2::new(0.0, 1.0)));
    f.hash_state(h);
    let mut party: Party = any(Party::new(v3(0.0)));
    let _ = party.add_member(v3(1.0), any(0.0));
    follower::party::step(
        &mut party,
        &any(PartyParams::default()),
        v3(2.0),
        &ground,
        dt,
    );
    party.hash_state(h);
}

#[inline(never)]
fn ex_slope(h: &mut StateHasher) {
    use hopkit::slope::{self, SlopeParams, SlopeState};
    let mut sl = any(SlopeState::default());
    slope::step(
        &mut sl,
        &any(SlopeParams::default()),
        any(Quat::IDENTITY),
        Some(v3(0.3)),
        any(1.0 / 60.0),
    );
    sl.hash_state(h);
}

#[inline(never)]
fn ex_ghost(h: &mut StateHasher, seed: u32) {
    use hopkit::ghost::{
        self, decode, encode, record_and_fly, spawn_fleet, spawn_formation, verify, FlyerParams,
        FlyerState, FormationParams, Frame, FrameVec, Ghost, GhostVec, PilotInput, Recorder,
        Recording, RecordingInfo, SpawnArea,
    };
    use hopkit::ground::FlatGround;
    use hopkit::rng::Pcg32;
    let ground = any(FlatGround::new(0.0));
    let fly: FlyerParams = any(FlyerParams::default());
    let targets = [v3(4.0), v3(-4.0)];
    let Ok(mut rec) = Recorder::<{ ghost::recording_size(32, 8) }>::new(any(RecordingInfo {
        tick_hz: 60,
        checksum_interval: 8,
        condition_unit: 0.5,
    })) else {
        return;
    };
    let mut pilot = any(FlyerState::level(v3(0.0), any(0.0), any(8.0)));
    for _ in 0..any(40u32) {
        let input = any(PilotInput::default());
        let _ = record_and_fly(&mut rec, &mut pilot, &fly, &input, &targets, &ground);
    }
    let bytes = rec.finish();
    h.write_u32(bytes.len() as u32);
    let Ok(recording) = Recording::parse(any(bytes)) else {
        return;
    };
    let mut g = any(Ghost::new(pilot, any(3)));
    let t = g.step(&recording, &fly, &targets, &ground);
    h.write_u32(t.frame_index);
    let leader = g.flyer;
    let mut w = any(Ghost::new(pilot, any(1)));
    w.step_following(
        &recording,
        &fly,
        &any(FormationParams::default()),
        &targets,
        &ground,
        &leader,
        t.frame_index,
    );
    w.flyer.hash_state(h);
    h.write_u32(verify(&recording, &fly, pilot, &targets, &ground).unwrap_or(0));
    let mut frames: FrameVec<64> = FrameVec::new();
    let _ = decode(any(recording.as_bytes()), &mut frames);
    let mut out = [0u8; 256];
    let fr = [any(Frame::NEUTRAL); 8];
    let _ = encode(&recording.info(), &fr, &[any(1), any(2)], &mut out);
    h.write_bytes(&out[..32]);
    // Format version 2: the range-coding recorder, encoder and decoders.
    if let Ok(mut rec2) = Recorder::<96>::new_v2(any(RecordingInfo {
        tick_hz: 60,
        checksum_interval: 8,
        condition_unit: 0.5,
    })) {
        let mut p2 = pilot;
        for _ in 0..any(40u32) {
            let input = any(PilotInput::default());
            let _ = record_and_fly(&mut rec2, &mut p2, &fly, &input, &targets, &ground);
        }
        let b2 = rec2.finish();
        let mut scratch = [0u8; ghost::recording_size(64, 8)];
        if let Ok(r2) = ghost::load(any(b2), &mut scratch) {
            h.write_u32(r2.frame(any(3)).map_or(0, |f| f.pack()[0] as u32));
        }
        let _ = decode(any(b2), &mut frames);
        let _ = ghost::for_each_frame(any(b2), |i, f| h.write_u32(i ^ f.condition as u32));
    }
    let _ = ghost::encode_v2(&recording.info(), &fr, &[any(1)], &mut out);
    h.write_bytes(&out[..32]);
    let mut fleet: GhostVec<8> = GhostVec::new();
    let mut rng = any(Pcg32::seeded(any(seed as u64)));
    let area = any(SpawnArea {
        center: v3(0.0),
        half_extent: v3(10.0),
    });
    spawn_fleet(
        &mut fleet,
        &mut rng,
        any(3),
        &area,
        recording.frame_count(),
        any(8.0),
    );
    spawn_formation(
        &mut fleet,
        &mut rng,
        leader,
        any(0),
        any(2),
        &any(FormationParams::default()),
        recording.frame_count(),
        any(60),
    );
    for g in &fleet {
        g.flyer.hash_state(h);
    }
}

#[inline(never)]
fn ex_time(h: &mut StateHasher) {
    use hopkit::timestep::{FixedStep, SubSteps};
    let mut fs = any(FixedStep::new(any(60)).with_max_frame_ns(any(u64::MAX)));
    let a = fs.advance_nanos(any(u64::MAX));
    let b = fs.advance(any(f32::INFINITY));
    h.write_u32(a.ticks ^ b.ticks);
    h.write_f32(a.alpha + b.alpha);
    let s = SubSteps::split(any(1.0e30), any(1.0e-30), any(u32::MAX));
    h.write_u32(s.count);
}

/// The firmware application with the shared renderer (display: a pixel counter).
#[inline(never)]
fn ex_app(h: &mut StateHasher) {
    use hopkit_demo::seams::{Scripted, StepClock};
    let mut app = hopkit_demo::app::App::new(
        Scripted,
        Scripted,
        hopkit_demo::counting::PixelCounter::new(),
        StepClock::new(any(16_666_667)),
    );
    for _ in 0..any(3u32) {
        let Ok(p) = app.poll();
        h.write_u32(p.ticks);
    }
    h.write_u64(app.state_hash());
}

/// Ticks of [`ex_collide`]'s scripted run (1.5 s at 60 Hz: up the stairs and into the wall).
const COLLIDE_TICKS: u32 = 90;

/// The body among solids (see the module docs), in [`COLLISION_LEVEL`] (0 if it is already
/// borrowed: it cannot be, only this function uses it). The level — a floor, four stairs up to a
/// plateau at height 64, a wall across it at x = 256 and a ramp — is built from `black_box`ed
/// corners, so as far as the optimiser knows it can hold any solids. A scripted Quake III body runs
/// along +X for [`COLLIDE_TICKS`] ticks (each tick's state hashed); then an arbitrary body steps
/// in it (`seed` picks the preset), the world is traced and queried with arbitrary boxes and its
/// ramp moved with arbitrary motion. Returns the run's hash and whether the body did what the
/// level makes it do: climbed to the plateau and stopped at the wall.
#[inline(never)]
fn ex_collide(seed: u32) -> (u64, bool) {
    use hopkit::collide::{BodyBox, Brush, Solid, Toward, Tracer, SURFACE_CLIP_EPSILON};
    use hopkit::movement::{self, MoveInput, MoveParams, MoverState};
    let corner = |x: f32, y: f32, z: f32| any(Vec3::new(x, y, z));
    cortex_m::interrupt::free(|cs| {
        let Ok(mut level) = COLLISION_LEVEL.borrow(cs).try_borrow_mut() else {
            return (0, false);
        };
        let level: &mut Level = any(&mut *level);
        level.clear();
        let boxes = [
            ((-512.0, -16.0, -512.0), (512.0, 0.0, 512.0)), // floor
            ((128.0, 0.0, -64.0), (320.0, 64.0, 64.0)),     // plateau
            ((256.0, 64.0, -64.0), (272.0, 192.0, 64.0)),   // wall on it
        ];
        for (a, b) in boxes {
            let Ok(brush) = Brush::aabb(corner(a.0, a.1, a.2), corner(b.0, b.1, b.2)) else {
                return (0, false);
            };
            let _ = level.push(brush);
        }
        let Ok(stairs) = Brush::stairs(
            corner(64.0, 0.0, -32.0),
            Toward::PlusX,
            any(4),
            any(16.0),
            any(16.0),
            any(64.0),
        ) else {
            return (0, false);
        };
        let _ = level.extend(stairs);
        if let Ok(ramp) = Brush::ramp(
            corner(-256.0, 0.0, -256.0),
            corner(-128.0, 48.0, -192.0),
            Toward::PlusX,
        ) {
            let _ = level.push(ramp);
        }

        // The scripted run.
        let params = MoveParams::quake3();
        let mut h = StateHasher::new();
        let mut s = MoverState::new(Vec3::new(0.0, SURFACE_CLIP_EPSILON, 0.0));
        s.grounded = true;
        s.velocity = Vec3::new(320.0, 0.0, 0.0);
        let input = MoveInput::new(Vec2::new(1.0, 0.0), false, Vec2::new(1.0, 0.0));
        for _ in 0..any(COLLIDE_TICKS) {
            movement::step(&mut s, &params, &input, &Solid(&*level), 1.0 / 60.0);
            s.hash_state(&mut h);
        }
        let on_plateau = s.grounded && s.position.y > 63.0 && s.position.y < 65.0;
        let at_wall = s.position.x > 200.0 && s.position.x < 256.0 && s.velocity.x.abs() < 1.0;
        let run = h.finish();

        // Arbitrary bodies and queries.
        let mut h = StateHasher::new();
        let presets = [MoveParams::quake3(), MoveParams::quakeworld()];
        let params: MoveParams = any(presets[any(seed as usize) % presets.len()]);
        let mut m: MoverState = any(MoverState::new(v3(1.0)));
        for _ in 0..any(4u32) {
            let input = any(MoveInput::new(
                any(Vec2::new(1.0, 0.5)),
                any(true),
                any(Vec2::new(0.0, -1.0)),
            ));
            let ev = movement::step(&mut m, &params, &input, &Solid(&*level), any(1.0 / 60.0));
            h.write_u32(ev.substeps);
        }
        m.hash_state(&mut h);
        let t = level.trace(v3(2.0), v3(-3.0), v3(-0.5), v3(0.5));
        h.write_f32(t.fraction);
        h.write_f32(t.end.x);
        let c = level.contents(v3(1.5), v3(-0.5), v3(0.5));
        h.write_u32(u32::from(c.solid.unwrap_or(u16::MAX)));
        let body = any(BodyBox {
            feet: v3(0.0),
            mins: v3(-16.0),
            maxs: v3(16.0),
        });
        let _ = level.move_solid(any(7), v3(40.0), any(1.0 / 60.0), &[body]);
        let planes = any([hopkit::collide::Plane {
            normal: v3(1.0),
            dist: any(1.0f32),
        }; 20]);
        let k: usize = any(7);
        let _ = black_box(Brush::from_planes(planes.get(..k).unwrap_or(&planes)));
        black_box(h.finish());
        (run, on_plateau && at_wall)
    })
}
