//! Instruction counts of the per-tick work under QEMU (`-icount shift=0`, see `rt/qemu.rs` and
//! docs/firmware.md). Prints `key: value` lines that scripts/budgets.sh checks against
//! firmware/budgets.txt:
//!
//! - `instr-per-systick-kilotick`: calibration (≈ 40 000 on mps2-an386, ≈ 62 500 on microbit);
//! - `movement-kernel-ground-instr` / `movement-kernel-air-instr`: one planar movement step
//!   (friction + accelerate, cached world wish) through `TickConsts` (constants folded once per
//!   tick length), mean of many, loop cost subtracted; `movement-kernel-ground-unprepared-instr`:
//!   the same through `planar_velocity_tick` (same bits, constants derived per call);
//!   `movement-kernel-ground-exact-instr`: the `TickConsts` ground step with
//!   `FrictionMath::SqrtDivide` (a correctly rounded square root and a divide instead of the
//!   rsqrt);
//!   `movement-seed-step-instr`: the seed's `GetNextPlayerVector` port;
//!   `movement-full-step-instr`: a whole character `step_wish` (ground probe, jump rules, gravity);
//!   `movement-q3-air-step-instr` / `movement-cpm-air-step-instr`: an airborne `step_wish` with W
//!   only held, Quake III's air step against CPM's (air control); `movement-still-step-instr` /
//!   `movement-platform-step-instr`: a character standing still on flat ground against one
//!   carried by a turning platform (issue 26; hard-float targets only);
//!   `movement-water-step-instr`: a whole `step` of a QuakeWorld swimmer under water (level 3),
//!   W held (the water tick: water friction, 3-D acceleration, no gravity; hard-float only);
//!   `movement-ladder-step-instr`: a whole `step` of a character climbing a ladder, W held into
//!   it; `movement-crouch-step-instr`: a whole `step` of a crouched character walking, crouch key
//!   and W held, against `movement-walk-step-instr`, the same walk standing (seed preset,
//!   hard-float only);
//! - `demo-tick-instr` / `demo-tick-instr-max`: one `DemoRig::tick` on the scripted input
//!   (mean / worst over the run);
//! - `demo-view-instr`, `demo-draw-instr` / `demo-draw-instr-max`, `app-poll-instr` /
//!   `app-poll-instr-max`: snapshot, drawing, and a whole `App::poll` (sample + tick + view + draw).
//!   Frames are drawn into a [`FrameBuffer`], the 1 KiB 1-bpp page buffer the handheld draws into
//!   (not the per-pixel-hashing `PixelCounter`, whose 64-bit FNV multiplies would dominate);
//!   `demo-frames-fingerprint` folds every frame's buffer fingerprint, computed outside the timed
//!   spans, so the drawn pictures stay comparable across CPUs;
//! - `ghost-v2-encode-frame-instr` / `ghost-v2-encode-frame-instr-max`: one frame pushed into a
//!   1,024-byte format-version-2 [`Recorder`] (range coding, the rollback copy, the running CRC;
//!   no state checksums), mean / worst over the bundled demo's 1800 frames;
//!   `ghost-v2-decode-30s-instr`: decoding that whole recording (30 s, the bytes a 1 KiB disk
//!   holds) — CRC check, header, every frame — in one go, `ghost-v2-decode-frame-instr` the same
//!   per frame; `ghost-v2-bytes`: its size;
//! - `math-*-instr`: scalar maths for reference;
//! - `f32-*-instr`: one `f32` add / sub / mul / divide / compare (the soft-float helpers on the Cortex-M0),
//!   the cost of fetching the operands and of the loop subtracted (helper call included).
#![no_std]
#![no_main]

hopkit_firmware::qemu_image!();

use core::fmt::Write as _;
use core::hint::black_box;
use cortex_m_rt::entry;
use hopkit::ghost::{for_each_frame, FlyerState, Recorder, RecordingInfo};
use hopkit::ground::FlatGround;
use hopkit::hash::StateHasher;
use hopkit::math::{scalar, Vec2, Vec3};
use hopkit::movement::next_player_vector;
use hopkit::movement::{
    planar_velocity_tick, planar_velocity_tick_with, step_wish, FrictionMath, MoveParams,
    MoverState, TickConsts, WishDir,
};
use hopkit_demo::app::App;
use hopkit_demo::demo_recording;
use hopkit_demo::framebuffer::FrameBuffer;
use hopkit_demo::seams::{Scripted, StepClock};
use hopkit_demo::{scripted_raw, DemoRig};
use hopkit_firmware::rt::qemu::{exit, stack_high_water, Counter, Out, Tally, MACHINE, TARGET};

/// The issue 26 feature rows (hard-float targets only, see `main`).
#[cfg(target_abi = "eabihf")]
mod features {
    use super::*;
    use hopkit::ground::{GroundHit, GroundProbe, NoGround, SurfaceMotion};
    use hopkit::movement::WishKeys;

    /// Flat ground at height 0 turning at 1 rad/s about the origin (a turntable).
    struct Turntable;

    impl GroundProbe for Turntable {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            FlatGround::new(0.0).probe(p)
        }
        fn surface_motion(&self, _p: Vec3) -> SurfaceMotion {
            SurfaceMotion::rotating(Vec3::ZERO, 1.0)
        }
    }

    /// Flat ground at height 0 that does not move, as its own type: the still-standing comparison
    /// for [`Turntable`] must not share `step_wish::<FlatGround>` with `movement-full-step-instr`
    /// (a second caller changes that instance's inlining and so the figure it measures).
    struct Floor;

    impl GroundProbe for Floor {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            FlatGround::new(0.0).probe(p)
        }
    }

    /// A pool: flat floor 1000 units down, the water surface at 0.
    struct Pool;

    impl GroundProbe for Pool {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            FlatGround::new(-1000.0).probe(p)
        }
        fn water(&self, _feet: Vec3) -> Option<f32> {
            Some(0.0)
        }
    }

    /// A wall with a ladder facing +Z at every point, flat floor 1000 units down (nothing tops
    /// the climb).
    struct Ladder;

    impl GroundProbe for Ladder {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            FlatGround::new(-1000.0).probe(p)
        }
        fn ladder(&self, _feet: Vec3) -> Option<Vec3> {
            Some(Vec3::new(0.0, 0.0, 1.0))
        }
    }

    /// Flat ground at height 0 with a ceiling 2 units up: a crouched character (0.9 tall in the
    /// seed preset) fits, a standing one (1.8) would too; the crouch key stays down, so the
    /// clearance is never asked. Its own type, as [`Floor`].
    struct LowRoof;

    impl GroundProbe for LowRoof {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            FlatGround::new(0.0).probe(p)
        }
        fn clearance(&self, _feet: Vec3) -> f32 {
            2.0
        }
    }

    /// Flat ground at height 0, for the walking comparison of the crouched step (its own type, as
    /// [`Floor`]).
    struct Walkway;

    impl GroundProbe for Walkway {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            FlatGround::new(0.0).probe(p)
        }
    }

    /// The movement features of issue 26, each on its own path (a character using none of them is
    /// `movement-full-step-instr`): an airborne `step_wish` with W only held, Quake III's air step
    /// against CPM's (air control: two sqrt, two divides); a character standing still on flat
    /// ground against one carried by a turning platform (the carry: one `sin_cos`). Out of line so
    /// the figures above are built as before.
    #[inline(never)]
    pub fn feature_steps(c: &Counter, dt: f32) -> [u64; 8] {
        let w_only = WishDir::from_world(Vec2::new(0.6, -0.8)).with_keys(WishKeys::ForwardBack);
        let air_step = |p: MoveParams| {
            let p = black_box(p);
            let mut flyer = MoverState::new(Vec3::new(0.0, 1.0e4, 0.0));
            flyer.velocity = Vec3::new(400.0, 0.0, 0.0);
            let n = per_call(c, |_| {
                step_wish(&mut flyer, &p, black_box(w_only), false, &NoGround, dt);
            });
            black_box(flyer);
            n
        };
        let q3 = air_step(MoveParams::quake3());
        let cpm = air_step(MoveParams::cpma());
        let params = black_box(MoveParams::seed());
        let rider = || {
            let mut r = MoverState::new(Vec3::new(5.0, 0.0, 0.0));
            r.grounded = true;
            r
        };
        let mut r = rider();
        let still = per_call(c, |_| {
            step_wish(&mut r, &params, black_box(WishDir::NONE), false, &Floor, dt);
        });
        let mut q = rider();
        let platform = per_call(c, |_| {
            step_wish(
                &mut q,
                &params,
                black_box(WishDir::NONE),
                false,
                &Turntable,
                dt,
            );
        });
        black_box((r, q));
        // Swimming: W with a level view keeps the depth (level 3) at the swimming speed.
        let qw = black_box(MoveParams::quakeworld());
        let mut swimmer = MoverState::new(Vec3::new(0.0, -200.0, 0.0));
        swimmer.velocity = Vec3::new(0.0, 0.0, -224.0);
        let swim = black_box(hopkit::movement::MoveInput::new(
            Vec2::new(1.0, 0.0),
            false,
            Vec2::new(0.0, -1.0),
        ));
        let water = per_call(c, |_| {
            hopkit::movement::step(&mut swimmer, &qw, &swim, &Pool, dt);
        });
        black_box(swimmer);
        // Climbing: W held facing the ladder (world −Z, into its +Z normal), seed preset.
        let climb_in = black_box(hopkit::movement::MoveInput::new(
            Vec2::new(1.0, 0.0),
            false,
            Vec2::new(0.0, -1.0),
        ));
        let mut climber = MoverState::new(Vec3::new(0.0, -900.0, 0.0));
        let ladder = per_call(c, |_| {
            hopkit::movement::step(&mut climber, &params, &climb_in, &Ladder, dt);
        });
        black_box(climber);
        // Crouch-walking: crouched on flat ground, crouch key and W held (the wish scaled by
        // `crouch_speed_scale`), seed preset.
        let crouch_in = black_box(climb_in.with_crouch(true));
        let mut croucher = rider();
        croucher.crouched = true;
        let crouch = per_call(c, |_| {
            hopkit::movement::step(&mut croucher, &params, &crouch_in, &LowRoof, dt);
        });
        black_box(croucher);
        // The same walk standing, crouch key up: what the crouch adds is the difference.
        let mut walker = rider();
        let walk = per_call(c, |_| {
            hopkit::movement::step(&mut walker, &params, &climb_in, &Walkway, dt);
        });
        black_box(walker);
        [q3, cpm, still, platform, water, ladder, crouch, walk]
    }
}

/// The body among solids (issue 34 §5; hard-float targets only: the levels are 36 KB statics).
#[cfg(target_abi = "eabihf")]
mod solids {
    use super::*;
    use core::cell::RefCell;
    use cortex_m::interrupt::Mutex;
    use hopkit::collide::{Brush, Solid, SolidFlags, Tracer, WaterVolume, SURFACE_CLIP_EPSILON};
    use hopkit::movement::body_box;
    use hopkit::movement::{step, MoveInput, StepEvents};
    use hopkit_demo::collision::{scattered_level, scattered_start, ScatteredLevel};

    /// [`scattered_level`], built in place (36 KB); flooded ([`FLOOD`]) for the swimming row.
    static LEVEL: Mutex<RefCell<ScatteredLevel>> = Mutex::new(RefCell::new(ScatteredLevel::new()));
    /// The climbing row's level (36 KB): [`LEVEL`]'s first `256 − LADDERS` solids and
    /// [`LADDERS`] ladders on the faces of its walls (the 256-solid level is full). The same type
    /// as [`LEVEL`]: the same `movement::step` is measured.
    static LADDER_LEVEL: Mutex<RefCell<ScatteredLevel>> =
        Mutex::new(RefCell::new(ScatteredLevel::new()));

    /// Bodies measured per row at most (the mean is over them, round robin).
    const BODIES: usize = 16;
    /// Running speed of the Quake III preset, units/s.
    const SPEED: f32 = 320.0;
    /// The water added to [`LEVEL`] for the swimming row: one volume over the whole floor (and
    /// into it) up to 112, under the walls' tops (128), so a swimmer with its feet at
    /// [`SWIM_FEET`] is submerged (level 3: eyes at 32 + 46 = 78).
    const FLOOD: (Vec3, Vec3) = (
        Vec3::new(-1024.0, -16.0, -1024.0),
        Vec3::new(1024.0, 112.0, 1024.0),
    );
    /// A swimmer's feet above the floor: clear of it, of the ramps' low ends and of the steps.
    const SWIM_FEET: f32 = 32.0;
    /// Ladders of [`LADDER_LEVEL`]: 4 units thick, 64 wide, as high as the wall (128).
    const LADDERS: usize = 8;
    /// A climber's feet above the floor on each ladder (two climbers a ladder).
    const CLIMB_FEET: [f32; 2] = [16.0, 48.0];

    /// One measured case: the state before the step and the input.
    type Case = (MoverState, MoveInput);

    /// Up to [`BODIES`] cases (more are ignored).
    struct Cases {
        at: [Case; BODIES],
        len: usize,
    }

    impl Cases {
        fn new() -> Cases {
            Cases {
                at: [(MoverState::new(Vec3::ZERO), MoveInput::default()); BODIES],
                len: 0,
            }
        }
        fn push(&mut self, case: Case) {
            if self.len < BODIES {
                self.at[self.len] = case;
                self.len += 1;
            }
        }
        fn all(&self) -> &[Case] {
            &self.at[..self.len]
        }
    }

    /// A Quake III body at `feet` moving at [`SPEED`] along `dir` (x, z), stick forward,
    /// grounded or not.
    fn mover(feet: Vec3, dir: Vec2, grounded: bool) -> Case {
        let mut s = MoverState::new(feet);
        s.grounded = grounded;
        s.velocity = Vec3::new(dir.x * SPEED, 0.0, dir.y * SPEED);
        (s, MoveInput::new(Vec2::new(1.0, 0.0), false, dir))
    }

    /// A grounded Quake III body at `feet` running at [`SPEED`] along `dir` (x, z), stick forward.
    fn runner(feet: Vec3, dir: Vec2) -> Case {
        mover(feet, dir, true)
    }

    /// The step from `case` in `level`, for a body clear of every solid (else not stepped:
    /// `false`).
    fn try_step(level: &ScatteredLevel, case: &Case) -> (MoverState, StepEvents, bool) {
        let params = MoveParams::quake3();
        let (mut s, input) = *case;
        let (mins, maxs) = body_box(&s, &params);
        if level.contents(s.position, mins, maxs).solid.is_some() {
            return (s, StepEvents::default(), false);
        }
        let ev = step(&mut s, &params, &input, &Solid(level), 1.0 / 60.0);
        (s, ev, true)
    }

    /// Mean instructions of one whole `movement::step` (Quake III preset, 60 Hz) over `cases`,
    /// each stepped from its own copy (the copy is in the subtracted harness too).
    fn mean_step(c: &Counter, level: &ScatteredLevel, cases: &[Case]) -> u64 {
        let params = black_box(MoveParams::quake3());
        let probe = Solid(level);
        let n = cases.len().max(1) as u32;
        let pick = |i: u32| black_box(cases[(i % n) as usize]);
        per_call_minus(
            c,
            |i| {
                black_box(pick(i));
            },
            |i| {
                let (mut s, input) = pick(i);
                step(&mut s, &params, &input, &probe, 1.0 / 60.0);
                black_box(s);
            },
        )
    }

    /// A long X wall of [`scattered_level`] (16 thick along Z, at least 64 long, 128 high).
    fn long_x_wall(b: &Brush) -> bool {
        let (lo, hi) = (b.mins(), b.maxs());
        hi.y == 128.0 && hi.x - lo.x >= 64.0 && hi.z - lo.z == 16.0
    }

    /// Fails the run unless every row found a body.
    fn check_found(rows: &[(&str, &Cases)]) {
        for (name, cases) in rows {
            if cases.len == 0 {
                let mut out = Out::new();
                let _ = writeln!(out, "FAIL: no {name} body in the level");
                exit(false)
            }
        }
    }

    /// `(open ground, sliding along a wall, climbing stairs, swimming along a wall, climbing a
    /// ladder)`: a whole `movement::step` of a Quake III body in the 256-solid level of the host
    /// benchmarks (`hopkit_demo::collision::scattered_level`), mean over up to [`BODIES`] bodies
    /// each, every body clear of every solid:
    /// - open ground: the level's starts (`scattered_start`) running at 320 units/s whose step
    ///   hits nothing;
    /// - a wall: a body against the −Z face of each long X wall, running at 45° into it (the
    ///   step must hit the wall and slide along it, staying on the floor);
    /// - stairs: a body a skin in front of each staircase's first step, running up it (the step
    ///   must climb it: feet up 16 units, still grounded);
    /// - swimming: the same level flooded after those three rows ([`FLOOD`], one
    ///   `World::add_water` volume), a swimmer against the −Z face of each long X wall, feet
    ///   [`SWIM_FEET`] up (submerged), moving at 320 units/s at 45° into it, W held (the swept
    ///   water tick: the slide must hit the wall and carry the body along it);
    /// - a ladder: in [`LADDER_LEVEL`] (the level's first 248 solids and 8 ladders), two climbers
    ///   a ladder at rest a skin in front of it, feet [`CLIMB_FEET`] up, facing it, W held (the
    ///   step must find the ladder and climb: feet up, not grounded).
    ///
    /// Fails the run if a row finds no body.
    #[inline(never)]
    pub fn steps(c: &Counter) -> [u64; 5] {
        cortex_m::interrupt::free(|cs| {
            let mut level = LEVEL.borrow(cs).borrow_mut();
            scattered_level(&mut level);
            let params = MoveParams::quake3();
            let (r, skin) = (params.body_radius, SURFACE_CLIP_EPSILON);
            let d = core::f32::consts::FRAC_1_SQRT_2;
            let (mut open, mut walls, mut stairs) = (Cases::new(), Cases::new(), Cases::new());
            {
                let level = &*level;
                for i in 0..256 {
                    let (s, dir) = scattered_start(level, i);
                    let case = runner(s.position, dir);
                    let (after, ev, clear) = try_step(level, &case);
                    if clear && !ev.hit_wall && after.grounded && after.position.y == s.position.y {
                        open.push(case);
                    }
                }
                for b in level.brushes() {
                    let (lo, hi) = (b.mins(), b.maxs());
                    let mid_x = (lo.x + hi.x) * 0.5;
                    if long_x_wall(b) {
                        let feet = Vec3::new(mid_x, skin, lo.z - r - skin);
                        let case = runner(feet, Vec2::new(d, d));
                        let (after, ev, clear) = try_step(level, &case);
                        if clear && ev.hit_wall && after.grounded && after.position.x > feet.x + 1.0
                        {
                            walls.push(case);
                        }
                    } else if lo.y == 0.0 && hi.y == 16.0 && hi.x - lo.x == 64.0 {
                        // A staircase's first step (they rise towards −Z): run at it from +Z.
                        let feet = Vec3::new(mid_x, skin, hi.z + r + skin);
                        let case = runner(feet, Vec2::new(0.0, -1.0));
                        let (after, _, clear) = try_step(level, &case);
                        if clear && after.grounded && after.position.y > 15.0 {
                            stairs.push(case);
                        }
                    }
                }
                check_found(&[("open", &open), ("wall", &walls), ("stairs", &stairs)]);
            }
            let dry = [
                mean_step(c, &level, open.all()),
                mean_step(c, &level, walls.all()),
                mean_step(c, &level, stairs.all()),
            ];
            // Swimming: the level flooded (after the dry rows: their world has no water).
            let flood = WaterVolume::new(FLOOD.0, FLOOD.1);
            if flood.map(|w| level.add_water(w)).is_err() {
                let mut out = Out::new();
                let _ = writeln!(out, "FAIL: the level takes no water");
                exit(false)
            }
            let level = &*level;
            let mut swims = Cases::new();
            for b in level.brushes().iter().filter(|b| long_x_wall(b)) {
                let (lo, hi) = (b.mins(), b.maxs());
                let feet = Vec3::new((lo.x + hi.x) * 0.5, SWIM_FEET, lo.z - r - skin);
                let case = mover(feet, Vec2::new(d, d), false);
                let (after, ev, clear) = try_step(level, &case);
                // Still submerged (the swim, not a fall), stopped by the wall, slid along it.
                let eyes = after.position + Vec3::new(0.0, params.water_eye_height, 0.0);
                let wet = level.water(eyes);
                if clear && wet.is_some() && ev.hit_wall && after.position.x > feet.x + 1.0 {
                    swims.push(case);
                }
            }
            // Climbing: ladders on walls of the level's first 248 solids.
            let mut ladder_level = LADDER_LEVEL.borrow(cs).borrow_mut();
            ladder_level.clear();
            let kept = level.len() - LADDERS;
            let _ = ladder_level.extend(level.brushes()[..kept].iter().copied());
            let mut climbs = [Vec3::ZERO; LADDERS];
            let mut n = 0;
            for b in level.brushes()[..kept].iter().filter(|b| long_x_wall(b)) {
                let (lo, hi) = (b.mins(), b.maxs());
                let mid_x = (lo.x + hi.x) * 0.5;
                let slab = Brush::aabb(
                    Vec3::new(mid_x - 32.0, 0.0, lo.z - 4.0),
                    Vec3::new(mid_x + 32.0, hi.y, lo.z),
                );
                if n == LADDERS {
                    break;
                }
                if let Ok(slab) = slab {
                    if ladder_level
                        .push(slab.with_flags(SolidFlags::LADDER))
                        .is_ok()
                    {
                        climbs[n] = Vec3::new(mid_x, 0.0, lo.z - 4.0 - r - skin);
                        n += 1;
                    }
                }
            }
            let ladder_level = &*ladder_level;
            let mut ladders = Cases::new();
            for at in &climbs[..n] {
                for y in CLIMB_FEET {
                    let feet = Vec3::new(at.x, y, at.z);
                    let mut case = mover(feet, Vec2::new(0.0, 1.0), false);
                    case.0.velocity = Vec3::ZERO;
                    let (after, _, clear) = try_step(ladder_level, &case);
                    if clear && !after.grounded && after.position.y > feet.y + 1.0 {
                        ladders.push(case);
                    }
                }
            }
            check_found(&[("swimming", &swims), ("ladder", &ladders)]);
            [
                dry[0],
                dry[1],
                dry[2],
                mean_step(c, level, swims.all()),
                mean_step(c, ladder_level, ladders.all()),
            ]
        })
    }
}

/// Ticks of the scripted demo measured one by one.
const DEMO_TICKS: u32 = 600;
/// Repetitions for the small kernels.
const REPS: u32 = 2_000;

/// Mean instructions of `f(i)` over `REPS` calls, minus the cost of the same loop around nothing.
fn per_call(c: &Counter, f: impl FnMut(u32)) -> u64 {
    per_call_minus(
        c,
        |i| {
            black_box(i);
        },
        f,
    )
}

/// Mean instructions of `f(i)` over `REPS` calls, minus those of `harness(i)`: the same loop doing
/// only the bookkeeping around the measured call (picking its inputs the same way), so that is not
/// counted.
fn per_call_minus(c: &Counter, mut harness: impl FnMut(u32), mut f: impl FnMut(u32)) -> u64 {
    let s = c.start();
    for i in 0..REPS {
        harness(black_box(i));
    }
    let empty = c.stop_ticks(s) as u64;
    let s = c.start();
    for i in 0..REPS {
        f(black_box(i));
    }
    let full = c.stop_ticks(s) as u64;
    c.instructions(full.saturating_sub(empty)) / REPS as u64
}

/// The format-version-2 rows: the demo's 1800 frames recorded into a 1 KiB v2 recorder frame by
/// frame, then the finished recording decoded in one span.
#[inline(never)]
fn ghost_v2(c: &Counter, out: &mut Out) {
    let Ok(demo) = demo_recording() else {
        exit(false)
    };
    let info = RecordingInfo {
        checksum_interval: 0,
        ..demo.info()
    };
    let Ok(mut rec) = Recorder::<1024>::new_v2(info) else {
        exit(false)
    };
    let pilot = FlyerState::default();
    let mut enc = Tally::new();
    for i in 0..demo.frame_count() {
        let f = demo.frame_looped(i);
        let s = c.start();
        let r = black_box(&mut rec).push(black_box(f), &pilot);
        enc.add(c, c.stop_ticks(s));
        if r.is_err() {
            exit(false)
        }
    }
    let bytes = rec.finish();
    let mut sum = 0u32;
    let s = c.start();
    let r = for_each_frame(black_box(bytes), |i, f| {
        sum = sum.wrapping_add(i ^ f.pack()[0] as u32 ^ (f.condition as u32) << 8);
    });
    let dec = c.instructions(c.stop_ticks(s) as u64);
    black_box(sum);
    let Ok(h) = r else { exit(false) };
    let n = h.frame_count.max(1) as u64;
    let _ = writeln!(out, "ghost-v2-encode-frame-instr: {}", enc.mean());
    let _ = writeln!(out, "ghost-v2-encode-frame-instr-max: {}", enc.max);
    let _ = writeln!(out, "ghost-v2-decode-30s-instr: {dec}");
    let _ = writeln!(out, "ghost-v2-decode-frame-instr: {}", dec / n);
    let _ = writeln!(out, "ghost-v2-bytes: {}", bytes.len());
}

#[entry]
fn main() -> ! {
    let mut out = Out::new();
    let Some(cp) = cortex_m::Peripherals::take() else {
        exit(false)
    };
    let c = Counter::new(cp.SYST);
    let _ = writeln!(out, "hopkit qemu-bench: {MACHINE}");
    let _ = writeln!(out, "target: {TARGET}");
    let _ = writeln!(
        out,
        "instr-per-systick-kilotick: {}",
        c.instr_per_kilotick()
    );

    // --- scalar maths, for reference ---
    let xs = |i: u32| 0.5 + (i & 1023) as f32 * 0.01;
    let sqrt = per_call(&c, |i| {
        black_box(scalar::sqrt(black_box(xs(i))));
    });
    let sincos = per_call(&c, |i| {
        black_box(scalar::sin_cos(black_box(xs(i))));
    });
    let normalize = per_call(&c, |i| {
        let v = Vec3::new(xs(i), 1.0, -xs(i));
        black_box(black_box(v).normalize_or_zero());
    });
    let _ = writeln!(out, "math-sqrt-instr: {sqrt}");
    let _ = writeln!(out, "math-sin-cos-instr: {sincos}");
    let _ = writeln!(out, "math-vec3-normalize-instr: {normalize}");

    // --- one f32 operation (soft float on the Cortex-M0: firmware/src/softfloat/) ---
    // Normal operands of mixed sign and magnitude (64 pairs), minus the cost of fetching them.
    const OPS: [f32; 8] = [1.5, -0.3, 12.25, 0.017, -7.0, 3.1e-3, 250.0, -0.75];
    let pair = |i: u32| {
        (
            black_box(OPS[(i & 7) as usize]),
            black_box(OPS[((i >> 3) & 7) as usize]),
        )
    };
    let raw = |f: &mut dyn FnMut(f32, f32)| {
        per_call(&c, |i| {
            let (a, b) = pair(i);
            f(a, b);
        })
    };
    let fetch = raw(&mut |a, b| {
        black_box(a.to_bits() ^ b.to_bits());
    });
    let op = |f: &mut dyn FnMut(f32, f32)| raw(f).saturating_sub(fetch);
    let fadd = op(&mut |a, b| {
        black_box(a + b);
    });
    let fsub = op(&mut |a, b| {
        black_box(a - b);
    });
    let fmul = op(&mut |a, b| {
        black_box(a * b);
    });
    let fdiv = op(&mut |a, b| {
        black_box(a / b);
    });
    let flt = op(&mut |a, b| {
        black_box(a < b);
    });
    let fadd_zero = op(&mut |a, _| {
        black_box(a + black_box(0.0));
    });
    let _ = writeln!(out, "f32-add-instr: {fadd}");
    let _ = writeln!(out, "f32-sub-instr: {fsub}");
    let _ = writeln!(out, "f32-mul-instr: {fmul}");
    let _ = writeln!(out, "f32-div-instr: {fdiv}");
    let _ = writeln!(out, "f32-lt-instr: {flt}");
    let _ = writeln!(out, "f32-add-zero-instr: {fadd_zero}");

    // --- one movement step (seed preset, 60 Hz) ---
    // The planar kernel (friction + projection-capped accelerate) with the wish direction already
    // in world space, as the mover caches it; a running character, so friction and the cap work.
    // `v` is carried from call to call (and black-boxed at the end), so nothing can be folded away;
    // `params` goes through `black_box` once, so its fields are runtime values as in a game.
    let params = black_box(MoveParams::seed());
    let dt = 1.0 / 60.0;
    let wish = WishDir::from_world(Vec2::new(0.6, -0.8));
    let other = WishDir::from_world(Vec2::new(-0.8, -0.6));
    // The kernel as a fixed-tick game runs it: constants folded once (`TickConsts`), bit-identical
    // to `planar_velocity_tick`, which is measured too (`-unprepared`). The wish turns every 64
    // calls; both loops pick it and pass it through `black_box` alike, so only the kernel differs.
    // The same loop measures the ground step a second time with friction in Quake's form
    // (`FrictionMath::SqrtDivide`: a correctly rounded square root and a divide), through the same
    // call site so that the first figure's code is not changed by the second.
    let exact_params = MoveParams {
        friction_math: FrictionMath::SqrtDivide,
        ..params
    };
    let kernels = black_box([
        TickConsts::new(&params, dt),
        TickConsts::new(&exact_params, dt),
    ]);
    let kernel = black_box(kernels[0]);
    let pick = move |i: u32| black_box(if i & 64 == 0 { wish } else { other });
    let [kernel_ground, kernel_ground_exact] = kernels.map(|k| {
        let mut v = Vec2::new(6.0, -4.0);
        per_call_minus(
            &c,
            |i| {
                pick(i);
            },
            |i| v = planar_velocity_tick_with(v, pick(i), &k, true),
        )
    });
    let mut v = Vec2::new(12.0, 0.0);
    let kernel_air = per_call(&c, |_| {
        v = planar_velocity_tick_with(v, wish, &kernel, false);
    });
    let mut v = Vec2::new(6.0, -4.0);
    let kernel_ground_unprepared = per_call_minus(
        &c,
        |i| {
            pick(i);
        },
        |i| v = planar_velocity_tick(v, pick(i), &params, true, dt),
    );
    let mut sv = Vec2::new(6.0, -4.0);
    let seed_step = per_call(&c, |_| {
        sv = next_player_vector(black_box(sv), black_box(Vec2::new(1.0, 1.0)), dt, true);
    });
    let ground = FlatGround::new(0.0);
    let mut mover = MoverState::new(Vec3::ZERO);
    let full_step = per_call(&c, |i| {
        let jump = i & 127 == 0;
        step_wish(&mut mover, &params, black_box(wish), jump, &ground, dt);
    });
    // Hard-float targets only: on the soft-float Cortex-M0 the extra `step_wish` instances change
    // how the shared movement code is inlined into `movement-full-step-instr` (+350 there).
    #[cfg(target_abi = "eabihf")]
    let [q3_air_step, cpm_air_step, still_step, platform_step, water_step, ladder_step, crouch_step, walk_step] =
        features::feature_steps(&c, dt);
    #[cfg(target_abi = "eabihf")]
    let [solid_open_step, solid_wall_step, solid_stairs_step, solid_swim_step, solid_ladder_step] =
        solids::steps(&c);
    black_box((v, sv, mover));
    let _ = writeln!(out, "movement-kernel-ground-instr: {kernel_ground}");
    let _ = writeln!(out, "movement-kernel-air-instr: {kernel_air}");
    let _ = writeln!(
        out,
        "movement-kernel-ground-exact-instr: {kernel_ground_exact}"
    );
    let _ = writeln!(
        out,
        "movement-kernel-ground-unprepared-instr: {kernel_ground_unprepared}"
    );
    let _ = writeln!(out, "movement-seed-step-instr: {seed_step}");
    let _ = writeln!(out, "movement-full-step-instr: {full_step}");
    #[cfg(target_abi = "eabihf")]
    {
        let _ = writeln!(out, "movement-q3-air-step-instr: {q3_air_step}");
        let _ = writeln!(out, "movement-cpm-air-step-instr: {cpm_air_step}");
        let _ = writeln!(out, "movement-still-step-instr: {still_step}");
        let _ = writeln!(out, "movement-platform-step-instr: {platform_step}");
        let _ = writeln!(out, "movement-water-step-instr: {water_step}");
        let _ = writeln!(out, "movement-ladder-step-instr: {ladder_step}");
        let _ = writeln!(out, "movement-crouch-step-instr: {crouch_step}");
        let _ = writeln!(out, "movement-walk-step-instr: {walk_step}");
        let _ = writeln!(out, "movement-solid-open-step-instr: {solid_open_step}");
        let _ = writeln!(out, "movement-solid-wall-step-instr: {solid_wall_step}");
        let _ = writeln!(out, "movement-solid-stairs-step-instr: {solid_stairs_step}");
        let _ = writeln!(out, "movement-solid-swim-step-instr: {solid_swim_step}");
        let _ = writeln!(out, "movement-solid-ladder-step-instr: {solid_ladder_step}");
    }

    // --- ghost recording format v2: encode per frame, decode of a 30 s recording ---
    ghost_v2(&c, &mut out);

    // --- one demo tick, span by span over the scripted run ---
    let mut rig = DemoRig::new();
    let mut tick = Tally::new();
    let mut view = Tally::new();
    let mut draw = Tally::new();
    let mut fb = FrameBuffer::new();
    let mut frames = StateHasher::new();
    for t in 0..DEMO_TICKS {
        let raw = scripted_raw(t);
        let s = c.start();
        rig.tick(black_box(&raw));
        tick.add(&c, c.stop_ticks(s));
        let s = c.start();
        let v = black_box(rig.view());
        view.add(&c, c.stop_ticks(s));
        let s = c.start();
        let Ok(()) = hopkit_demo::render::draw_frame(&v, &mut fb);
        draw.add(&c, c.stop_ticks(s));
        frames.write_u64(fb.fingerprint());
    }
    black_box(rig.state_hash());
    let _ = writeln!(out, "demo-tick-instr: {}", tick.mean());
    let _ = writeln!(out, "demo-tick-instr-max: {}", tick.max);
    let _ = writeln!(out, "demo-view-instr: {}", view.mean());
    let _ = writeln!(out, "demo-draw-instr: {}", draw.mean());
    let _ = writeln!(out, "demo-draw-instr-max: {}", draw.max);
    let _ = writeln!(out, "demo-frames-fingerprint: 0x{:016x}", frames.finish());

    // --- the whole application step ---
    let mut app = App::new(
        Scripted,
        Scripted,
        FrameBuffer::new(),
        StepClock::per_tick(),
    );
    let Ok(_) = app.poll();
    let mut poll = Tally::new();
    for _ in 0..DEMO_TICKS {
        let s = c.start();
        let Ok(_) = black_box(app.poll());
        poll.add(&c, c.stop_ticks(s));
    }
    let _ = writeln!(out, "app-poll-instr: {}", poll.mean());
    let _ = writeln!(out, "app-poll-instr-max: {}", poll.max);
    let _ = writeln!(out, "stack-high-water: {}", stack_high_water());
    let _ = writeln!(out, "qemu-bench {TARGET}: done");
    exit(true)
}
