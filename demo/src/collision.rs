//! The collision scenarios (issue 34 §4): small levels of solids ([`hopkit::collide::World`]) and a
//! scripted input each, in Quake units with the Quake presets, that show what the body among solids
//! must do — slide in corners without sticking or jitter, fit a hallway of its own width, climb
//! and descend stairs at 60, 120 and 250 Hz, walk over a ramp without launching, gain speed
//! surfing, keep it over a ramp's seams, stop at ceilings, never cross a thin wall at
//! `max_velocity`, get out of a solid it starts in, and not be dragged into a wall by a platform.
//!
//! One home for them: `hopkit-sim scenario NAME` writes their CSV and plot, the integration tests
//! (`tests/tests/integration/collide_scenarios.rs`) check what each must show, and
//! [`collision_hash`] folds every run's state into one hash that the QEMU images print as
//! `collision-hash: 0x…` for the cross-CPU check.

use hopkit::collide::{Brush, Plane, Toward, Tracer, World};
use hopkit::ground::{GroundHit, GroundProbe, SurfaceMotion};
use hopkit::hash::{StateHash, StateHasher};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState, StepEvents};

/// Solids a scenario level holds at most.
pub const LEVEL_CAPACITY: usize = 32;

/// A scenario's level.
pub type Level = World<LEVEL_CAPACITY>;

/// The scenario names, in the order [`collision_hash`] runs them.
pub const SCENARIOS: [&str; 10] = [
    "corner",
    "hallway",
    "stairs",
    "ramp",
    "surf",
    "seam",
    "ceiling",
    "tunnel",
    "startsolid",
    "platform-wall",
];

/// One run of a scenario: its level, start, input and rate. A scenario is one or more runs
/// ([`runs`]): `corner` a right and an acute corner, `stairs` three tick rates, `seam` the same
/// ramp in one piece and in eight.
#[derive(Clone, Copy)]
pub struct Setup {
    /// The scenario's name ([`SCENARIOS`]).
    pub scenario: &'static str,
    /// What this run is (a label for the CSV and plot).
    pub label: &'static str,
    /// Ticks per second.
    pub tick_hz: u32,
    /// Seconds simulated.
    pub seconds: f32,
    /// The movement preset.
    pub params: fn() -> MoveParams,
    /// Fills the level.
    pub build: fn(&mut Level),
    /// The start state.
    pub start: fn() -> MoverState,
    /// The input at a tick, given the state.
    pub input: fn(u32, &MoverState) -> MoveInput,
    /// A moving platform under the rider: the region of the floor it covers (min, max corners of
    /// the feet's `x`/`z`) and its velocity.
    pub platform: Option<(Vec2, Vec2, Vec3)>,
}

impl Setup {
    /// Ticks this run simulates.
    pub fn ticks(&self) -> u32 {
        (self.seconds * self.tick_hz as f32) as u32
    }
}

/// Every run of every scenario, in [`SCENARIOS`] order.
pub const SETUPS: [Setup; 15] = [
    Setup {
        scenario: "corner",
        label: "90 degrees",
        tick_hz: 60,
        seconds: 2.0,
        params: MoveParams::quake3,
        build: corner_right,
        start: on_floor_at_origin,
        input: into_corner,
        platform: None,
    },
    Setup {
        scenario: "corner",
        label: "40 degrees",
        tick_hz: 60,
        seconds: 2.0,
        params: MoveParams::quake3,
        build: corner_acute,
        start: on_floor_at_origin,
        input: forward_plus_x,
        platform: None,
    },
    Setup {
        scenario: "hallway",
        label: "30.25 wide",
        tick_hz: 60,
        seconds: 2.0,
        params: MoveParams::quake3,
        build: hallway,
        start: on_floor_at_origin,
        input: forward_plus_x,
        platform: None,
    },
    Setup {
        scenario: "stairs",
        label: "60 Hz",
        tick_hz: 60,
        seconds: 5.0,
        params: MoveParams::quake3,
        build: stairs,
        start: on_floor_at_origin,
        input: walk_plus_x,
        platform: None,
    },
    Setup {
        scenario: "stairs",
        label: "120 Hz",
        tick_hz: 120,
        seconds: 5.0,
        params: MoveParams::quake3,
        build: stairs,
        start: on_floor_at_origin,
        input: walk_plus_x,
        platform: None,
    },
    Setup {
        scenario: "stairs",
        label: "250 Hz",
        tick_hz: 250,
        seconds: 5.0,
        params: MoveParams::quake3,
        build: stairs,
        start: on_floor_at_origin,
        input: walk_plus_x,
        platform: None,
    },
    Setup {
        scenario: "ramp",
        label: "30 degrees",
        tick_hz: 60,
        seconds: 3.0,
        params: MoveParams::quake3,
        build: ramp,
        start: on_floor_at_origin,
        input: forward_plus_x,
        platform: None,
    },
    Setup {
        scenario: "surf",
        label: "one brush",
        tick_hz: SURF_HZ,
        seconds: 3.0,
        params: MoveParams::source,
        build: surf_ramp_whole,
        start: surf_start,
        input: surf_strafe,
        platform: None,
    },
    Setup {
        scenario: "seam",
        label: "one brush",
        tick_hz: SURF_HZ,
        seconds: 3.0,
        params: MoveParams::source,
        build: surf_ramp_whole,
        start: surf_start,
        input: surf_strafe,
        platform: None,
    },
    Setup {
        scenario: "seam",
        label: "eight brushes",
        tick_hz: SURF_HZ,
        seconds: 3.0,
        params: MoveParams::source,
        build: surf_ramp_pieces,
        start: surf_start,
        input: surf_strafe,
        platform: None,
    },
    Setup {
        scenario: "ceiling",
        label: "jumps under a ceiling at 72",
        tick_hz: 60,
        seconds: 2.0,
        params: MoveParams::quake3,
        build: low_ceiling,
        start: on_floor_at_origin,
        input: hop_plus_x,
        platform: None,
    },
    Setup {
        scenario: "tunnel",
        label: "1-unit wall at max_velocity",
        tick_hz: 60,
        seconds: 1.0,
        params: MoveParams::quake3,
        build: thin_wall,
        start: at_max_velocity,
        input: forward_plus_x,
        platform: None,
    },
    Setup {
        scenario: "startsolid",
        label: "overlapping a crate",
        tick_hz: 60,
        seconds: 1.0,
        params: MoveParams::quake3,
        build: crate_at_origin,
        start: on_floor_at_origin,
        input: forward_plus_x,
        platform: None,
    },
    Setup {
        scenario: "startsolid",
        label: "buried in the floor",
        tick_hz: 60,
        seconds: 1.0,
        params: MoveParams::quake3,
        build: crate_at_origin,
        start: buried,
        input: forward_plus_x,
        platform: None,
    },
    Setup {
        scenario: "platform-wall",
        label: "carried at 200 into a wall",
        tick_hz: 60,
        seconds: 2.0,
        params: MoveParams::quake3,
        build: platform_wall,
        start: on_floor_at_origin,
        input: stand,
        platform: Some((
            Vec2::new(-64.0, -64.0),
            Vec2::new(512.0, 64.0),
            Vec3::new(200.0, 0.0, 0.0),
        )),
    },
];

/// The runs of scenario `name` (none for an unknown name).
pub fn runs(name: &str) -> impl Iterator<Item = &'static Setup> + '_ {
    SETUPS.iter().filter(move |s| s.scenario == name)
}

/// The level of a run: the floor and [`Setup::build`]'s solids.
pub fn level_of(setup: &Setup) -> Level {
    let mut level = Level::new();
    fill_level(setup, &mut level);
    level
}

/// [`level_of`] into a level the caller has (emptied first): for a small stack, where the level
/// lives in a static (a [`Level`] is about 4.5 KB).
pub fn fill_level(setup: &Setup, level: &mut Level) {
    level.clear();
    add(
        level,
        aabb((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0)),
    );
    (setup.build)(level);
}

/// A level as the movement's probe, with the run's moving platform.
#[derive(Clone, Copy)]
pub struct ScenarioGround<'a> {
    /// The solids.
    pub level: &'a Level,
    /// [`Setup::platform`].
    pub platform: Option<(Vec2, Vec2, Vec3)>,
}

impl GroundProbe for ScenarioGround<'_> {
    const SOLID: bool = true;

    fn trace(
        &self,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> hopkit::collide::TraceResult {
        self.level.trace(start, end, mins, maxs)
    }

    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        hopkit::collide::Solid(self.level).probe(point)
    }

    fn clearance(&self, feet: Vec3) -> f32 {
        hopkit::collide::Solid(self.level).clearance(feet)
    }

    fn surface_motion(&self, point: Vec3) -> SurfaceMotion {
        match self.platform {
            Some((lo, hi, v))
                if point.x >= lo.x && point.x <= hi.x && point.z >= lo.y && point.z <= hi.y =>
            {
                SurfaceMotion {
                    velocity: v,
                    ..SurfaceMotion::STILL
                }
            }
            _ => SurfaceMotion::STILL,
        }
    }
}

/// Run `setup`, calling `each(tick, state, events)` after every tick; returns the final state.
pub fn run(setup: &Setup, each: impl FnMut(u32, &MoverState, &StepEvents)) -> MoverState {
    run_in(setup, &mut Level::new(), each)
}

/// [`run`] with the run's level built in `level` (see [`fill_level`]).
pub fn run_in(
    setup: &Setup,
    level: &mut Level,
    mut each: impl FnMut(u32, &MoverState, &StepEvents),
) -> MoverState {
    fill_level(setup, level);
    let ground = ScenarioGround {
        level,
        platform: setup.platform,
    };
    let params = (setup.params)();
    let dt = 1.0 / setup.tick_hz as f32;
    let mut s = (setup.start)();
    for t in 0..setup.ticks() {
        let input = (setup.input)(t, &s);
        let ev = step(&mut s, &params, &input, &ground, dt);
        each(t, &s, &ev);
    }
    s
}

/// Every run of every scenario, each tick's state hashed, folded into one hash: the collision
/// golden hash the QEMU images and `hopkit-sim` print as `collision-hash: 0x…`.
pub fn collision_hash() -> u64 {
    collision_hash_in(&mut Level::new())
}

/// [`collision_hash`] with each run's level built in `level` (see [`fill_level`]): the QEMU
/// images pass a static one, off their small stacks.
pub fn collision_hash_in(level: &mut Level) -> u64 {
    let mut h = StateHasher::new();
    for setup in &SETUPS {
        run_in(setup, level, |_, s, _| s.hash_state(&mut h));
    }
    h.finish()
}

// --- the measurements' level ---

/// Solids of [`scattered_level`].
pub const SCATTERED_SOLIDS: usize = 256;

/// The level of the collision measurements (issue 34 §5): the host benchmarks (`benches/`) and the
/// Cortex-M instruction counts (`firmware/src/bin/qemu-bench.rs`) step bodies through it.
pub type ScatteredLevel = World<SCATTERED_SOLIDS>;

/// Fill `level` (emptied first) with [`SCATTERED_SOLIDS`] solids over 2,048 × 2,048 Quake units:
/// solid 0 the floor (its top at height 0), then, at random, walls (16 thick, 32..256 long, 128
/// high), 128 × 64 ramps rising 16..96 towards +X and 4-step staircases (16 rise, 16 run, 64
/// wide, rising towards −Z) until full. The same solids on every machine (`Pcg32`, plain `f32`).
pub fn scattered_level(level: &mut ScatteredLevel) {
    level.clear();
    let mut rng = hopkit::rng::Pcg32::new(34, 5);
    let mut made = 0;
    let mut stairs: Option<hopkit::collide::Stairs> = None;
    let solids = core::iter::from_fn(|| {
        if made == SCATTERED_SOLIDS {
            return None;
        }
        made += 1;
        if made == 1 {
            return Some(aabb((-1024.0, -16.0, -1024.0), (1024.0, 0.0, 1024.0)));
        }
        loop {
            if let Some(b) = stairs.as_mut().and_then(Iterator::next) {
                return Some(b);
            }
            let (x, z) = (rng.range_f32(-960.0, 900.0), rng.range_f32(-960.0, 900.0));
            match rng.below(3) {
                0 => {
                    let long = rng.range_f32(32.0, 256.0);
                    let (dx, dz) = if rng.below(2) == 0 {
                        (long, 16.0)
                    } else {
                        (16.0, long)
                    };
                    return Some(aabb((x, 0.0, z), (x + dx, 128.0, z + dz)));
                }
                1 => {
                    let rise = rng.range_f32(16.0, 96.0);
                    let b = Brush::ramp(
                        Vec3::new(x, 0.0, z),
                        Vec3::new(x + 128.0, rise, z + 64.0),
                        Toward::PlusX,
                    );
                    return Some(b.unwrap_or_else(|_| unreachable!()));
                }
                _ => {
                    let s =
                        Brush::stairs(Vec3::new(x, 0.0, z), Toward::MinusZ, 4, 16.0, 16.0, 64.0);
                    stairs = Some(s.unwrap_or_else(|_| unreachable!()));
                }
            }
        }
    });
    // Exactly `SCATTERED_SOLIDS`: never full before the end.
    let _ = level.extend(solids);
}

/// Start `i` of the bodies the measurements step through `level` ([`scattered_level`]) with the
/// Quake III preset (any `i`; the benchmarks use 0..256): feet a skin above the floor somewhere
/// in ±1,000, grounded, clear of every solid (positions are drawn again, up to 64 times, while
/// the body would overlap one), and a unit direction to run in (random yaw). The same on every
/// machine.
pub fn scattered_start(level: &ScatteredLevel, i: u32) -> (MoverState, Vec2) {
    let mut rng = hopkit::rng::Pcg32::new(34, 6 + u64::from(i));
    let params = MoveParams::quake3();
    let mut s = MoverState::new(Vec3::ZERO);
    s.grounded = true;
    for _ in 0..64 {
        s.position = Vec3::new(
            rng.range_f32(-1000.0, 1000.0),
            hopkit::collide::SURFACE_CLIP_EPSILON,
            rng.range_f32(-1000.0, 1000.0),
        );
        let (mins, maxs) = hopkit::movement::body_box(&s, &params);
        if level.contents(s.position, mins, maxs).solid.is_none() {
            break;
        }
    }
    let yaw = rng.range_f32(-core::f32::consts::PI, core::f32::consts::PI);
    let (sin, cos) = hopkit::math::scalar::sin_cos(yaw);
    (s, Vec2::new(cos, sin))
}

// --- levels ---

fn aabb(a: (f32, f32, f32), b: (f32, f32, f32)) -> Brush {
    Brush::aabb(Vec3::new(a.0, a.1, a.2), Vec3::new(b.0, b.1, b.2))
        .unwrap_or_else(|_| unreachable!())
}

fn add(level: &mut Level, b: Brush) {
    // Every level here holds far fewer than `LEVEL_CAPACITY` solids (tested).
    let _ = level.push(b);
}

fn corner_right(level: &mut Level) {
    add(level, aabb((64.0, 0.0, -256.0), (80.0, 128.0, 80.0)));
    add(level, aabb((-256.0, 0.0, 64.0), (80.0, 128.0, 80.0)));
}

/// Half of a 40° V opening towards −X, its tip at (160, 0): a wall 16 thick along
/// `(−cos 20°, ±sin 20°)` from the tip, `side` +1 for the +Z arm.
fn v_arm(side: f32) -> Brush {
    let (s, c) = (0.342_020_14, 0.939_692_6); // sin 20°, cos 20°
    let tip = Vec3::new(160.0, 0.0, 0.0);
    let face = Vec3::new(-s, 0.0, -side * c); // out of the wall, into the V
    let along = Vec3::new(-c, 0.0, side * s);
    let planes = [
        Plane::through(face, tip),
        Plane::through(face * -1.0, tip - face * 16.0),
        Plane::through(along, tip + along * 256.0),
        Plane::through(along * -1.0, tip - along * 24.0),
        Plane::new(Vec3::UP, 128.0),
        Plane::new(Vec3::new(0.0, -1.0, 0.0), 0.0),
    ];
    let planes = planes.map(|p| p.unwrap_or_else(|| unreachable!()));
    Brush::from_planes(&planes).unwrap_or_else(|_| unreachable!())
}

fn corner_acute(level: &mut Level) {
    add(level, v_arm(1.0));
    add(level, v_arm(-1.0));
}

/// Walls 30.25 apart (the Quake III body, 30 wide, and its 1/8 skin on each side), 512 long.
fn hallway(level: &mut Level) {
    let half = 15.0 + hopkit::collide::SURFACE_CLIP_EPSILON;
    add(
        level,
        aabb((64.0, 0.0, -half - 16.0), (576.0, 128.0, -half)),
    );
    add(level, aabb((64.0, 0.0, half), (576.0, 128.0, half + 16.0)));
}

/// Eight steps of 16 × 32 up towards +X from x = 64 to a landing 128 high at x = 320..416, then
/// seven steps down to the floor at x = 640.
fn stairs(level: &mut Level) {
    let up = Brush::stairs(
        Vec3::new(64.0, 0.0, -64.0),
        Toward::PlusX,
        8,
        16.0,
        32.0,
        128.0,
    );
    for b in up.unwrap_or_else(|_| unreachable!()) {
        add(level, b);
    }
    add(level, aabb((320.0, 0.0, -64.0), (416.0, 128.0, 64.0)));
    let down = Brush::stairs(
        Vec3::new(640.0, 0.0, -64.0),
        Toward::MinusX,
        7,
        16.0,
        32.0,
        128.0,
    );
    for b in down.unwrap_or_else(|_| unreachable!()) {
        add(level, b);
    }
}

/// A 30° ramp from x = 64 up to a plateau 64 high, 128 long.
fn ramp(level: &mut Level) {
    let run = 64.0 * 1.732_050_8; // 64 / tan 30°
    let r = Brush::ramp(
        Vec3::new(64.0, 0.0, -128.0),
        Vec3::new(64.0 + run, 64.0, 128.0),
        Toward::PlusX,
    );
    add(level, r.unwrap_or_else(|_| unreachable!()));
    add(
        level,
        aabb((64.0 + run, 0.0, -128.0), (192.0 + run, 64.0, 128.0)),
    );
}

/// A surf ramp: a wedge 2,048 long along X whose face rises at 60° towards +Z (normal y 0.5, too
/// steep to stand on), from z = 0 at the floor to 512 high, in `pieces` brushes end to end.
fn surf_ramp(level: &mut Level, pieces: u16) {
    let (h, w) = (512.0, 512.0 / 1.732_050_8);
    let len = 2048.0 / pieces as f32;
    for i in 0..pieces {
        let x0 = i as f32 * len;
        let b = Brush::ramp(
            Vec3::new(x0, 0.0, 0.0),
            Vec3::new(x0 + len, h, w),
            Toward::PlusZ,
        );
        add(level, b.unwrap_or_else(|_| unreachable!()));
    }
}

fn surf_ramp_whole(level: &mut Level) {
    surf_ramp(level, 1);
}

fn surf_ramp_pieces(level: &mut Level) {
    surf_ramp(level, 8);
}

/// A ceiling slab at 72 (16 above a standing Quake III body), 8 thick.
fn low_ceiling(level: &mut Level) {
    add(level, aabb((-128.0, 72.0, -128.0), (512.0, 80.0, 128.0)));
}

/// A wall 1 unit thick at x = 256.
fn thin_wall(level: &mut Level) {
    add(level, aabb((256.0, 0.0, -512.0), (257.0, 256.0, 512.0)));
}

/// A crate overlapping a body at the origin by 8 units.
fn crate_at_origin(level: &mut Level) {
    add(level, aabb((7.0, 0.0, -32.0), (71.0, 64.0, 32.0)));
}

/// A wall at x = 256 across the platform's path.
fn platform_wall(level: &mut Level) {
    add(level, aabb((256.0, 0.0, -128.0), (272.0, 128.0, 128.0)));
}

// --- starts ---

fn on_floor_at_origin() -> MoverState {
    MoverState::new(Vec3::new(0.0, 0.125, 0.0))
}

/// Tick rate of the surf runs (Counter-Strike's 66).
const SURF_HZ: u32 = 66;
/// Start height of the surf runs: in the air, 33 units above the ramp's face at z = 220.
const SURF_START_HEIGHT: f32 = 440.0;

fn surf_start() -> MoverState {
    // In the air above the ramp's face, moving along it at 400.
    let mut s = MoverState::new(Vec3::new(64.0, SURF_START_HEIGHT, 220.0));
    s.velocity = Vec3::new(400.0, 0.0, 0.0);
    s
}

/// In the air, flying at the Quake presets' `max_velocity` (2,000) towards the wall: 33 units a
/// tick at 60 Hz, the wall 1 thick.
fn at_max_velocity() -> MoverState {
    let mut s = MoverState::new(Vec3::new(0.0, 32.0, 0.0));
    s.velocity = Vec3::new(2000.0, 0.0, 0.0);
    s
}

fn buried() -> MoverState {
    MoverState::new(Vec3::new(-200.0, -6.0, 0.0))
}

// --- inputs ---

const PLUS_X: Vec2 = Vec2::new(1.0, 0.0);

fn into_corner(_: u32, _: &MoverState) -> MoveInput {
    let d = core::f32::consts::FRAC_1_SQRT_2;
    MoveInput::new(Vec2::new(1.0, 0.0), false, Vec2::new(d, d))
}

fn forward_plus_x(_: u32, _: &MoverState) -> MoveInput {
    MoveInput::new(Vec2::new(1.0, 0.0), false, PLUS_X)
}

/// Half the stick: walking speed (160 units/s in Quake III).
fn walk_plus_x(_: u32, _: &MoverState) -> MoveInput {
    MoveInput::new(Vec2::new(0.5, 0.0), false, PLUS_X)
}

fn hop_plus_x(t: u32, _: &MoverState) -> MoveInput {
    MoveInput::new(Vec2::new(0.3, 0.0), t % 60 < 30, PLUS_X)
}

/// Air-strafing on the ramp as a surfer does: the view along the planar velocity, the key towards
/// the ramp's face (right: it rises towards +Z) held while the body is below a line that sinks
/// 60 units a second from the start height, released above it. Held, the air acceleration adds
/// speed at right angles to the velocity and pushes into the face, which turns it along the
/// ramp; released, the body slides down the face and gravity adds speed. (With the view held
/// along +X instead the speed stays at the entry's: tested.)
fn surf_strafe(t: u32, s: &MoverState) -> MoveInput {
    let line = SURF_START_HEIGHT - 60.0 * t as f32 / SURF_HZ as f32;
    let strafe = if s.position.y < line { 1.0 } else { 0.0 };
    MoveInput::new(Vec2::new(0.0, strafe), false, s.velocity.planar())
}

fn stand(_: u32, _: &MoverState) -> MoveInput {
    MoveInput::new(Vec2::ZERO, false, PLUS_X)
}
