//! Adversarial inputs over every public `step` (issue 13): NaN, ±inf, ±1e38, ±f32::MAX, subnormals,
//! `dt` of 0 / −0 / NaN / 1e9 / +inf, counters near `u32::MAX`, poisoned params — in debug builds
//! (so an arithmetic overflow panics) and without a single panic, every mechanic must
//! - leave its state finite, whatever the inputs and params;
//! - leave no subnormal in its state after a step that ran (the explicit flush);
//! - reject an invalid `dt` as documented (nothing changes).
//!
//! Cases come from a fixed-seed PCG32, so a failure reproduces. `HOPKIT_ADVERSARIAL_CASES` sets the
//! count (default 20,000 here; `scripts/ci-adversarial.sh` runs 1,000,000 in release and prints
//! it). A failing case is printed with its number and inputs.

use hopkit::follower::{self, FollowerParams, FollowerState, Party, PartyParams};
use hopkit::ghost::flyer::{self, FlyerParams, FlyerState};
use hopkit::ghost::{Ghost, PilotInput, Recorder, RecordingInfo};
use hopkit::ground::{FlatGround, GroundHit, GroundProbe, PlaneGround};
use hopkit::math::{Quat, Vec2, Vec3};
use hopkit::movement::{self, MoveInput, MoveParams, MoverState, StepEvents};
use hopkit::rng::Pcg32;
use hopkit::slope::{self, SlopeParams, SlopeState};
use hopkit::steering::{
    arrival_step, integrate, seek, Agent, ArrivalParams, ArrivalState, SteeringParams,
};
use hopkit::stick::{RawSticks, ShapeParams, StickPipeline};
use hopkit::timestep::{FixedStep, SubSteps, MAX_SUBSTEPS};
use hopkit_demo::demo_recording;
use hopkit_demo::level::DemoGround;

const SUB: f32 = 1.0e-40; // subnormal

/// Values that break naive code.
const SPECIAL: [f32; 22] = [
    0.0,
    -0.0,
    1.0,
    -1.0,
    0.5,
    1.0e-3,
    3.0,
    100.0,
    1.0e9,
    -1.0e9,
    1.0e38,
    -1.0e38,
    f32::MAX,
    f32::MIN,
    f32::MIN_POSITIVE,
    SUB,
    -SUB,
    f32::NAN,
    f32::INFINITY,
    f32::NEG_INFINITY,
    1.0e-30,
    -7.5,
];

const DTS: [f32; 13] = [
    0.0,
    -0.0,
    f32::NAN,
    1.0e9,
    f32::INFINITY,
    f32::NEG_INFINITY,
    -1.0,
    1.0 / 60.0,
    1.0 / 144.0,
    0.25,
    1.0e-30,
    SUB,
    4.0,
];

struct Gen(Pcg32);

impl Gen {
    fn f(&mut self) -> f32 {
        match self.0.below(4) {
            0 | 1 => SPECIAL[self.0.below(SPECIAL.len() as u32) as usize],
            2 => self.0.range_f32(-50.0, 50.0),
            _ => self.0.range_f32(-1.0, 1.0),
        }
    }
    /// Mostly sane, sometimes poisoned.
    fn maybe(&mut self, sane: f32) -> f32 {
        if self.0.below(6) == 0 {
            self.f()
        } else {
            sane
        }
    }
    fn v2(&mut self) -> Vec2 {
        Vec2::new(self.f(), self.f())
    }
    fn v3(&mut self) -> Vec3 {
        Vec3::new(self.f(), self.f(), self.f())
    }
    fn q(&mut self) -> Quat {
        match self.0.below(3) {
            0 => Quat::from_xyzw(self.f(), self.f(), self.f(), self.f()),
            _ => Quat::from_yaw(self.0.range_f32(-4.0, 4.0)),
        }
    }
    fn dt(&mut self) -> f32 {
        DTS[self.0.below(DTS.len() as u32) as usize]
    }
    fn u32(&mut self) -> u32 {
        match self.0.below(3) {
            0 => u32::MAX - self.0.below(4),
            1 => self.0.below(64),
            _ => self.0.next_u32(),
        }
    }
    fn bool(&mut self) -> bool {
        self.0.below(2) == 0
    }
}

fn bad(x: f32) -> bool {
    !x.is_finite() || (x != 0.0 && x.abs() < f32::MIN_POSITIVE)
}
fn bad2(v: Vec2) -> bool {
    bad(v.x) || bad(v.y)
}
fn bad3(v: Vec3) -> bool {
    bad(v.x) || bad(v.y) || bad(v.z)
}
fn badq(q: Quat) -> bool {
    bad(q.x) || bad(q.y) || bad(q.z) || bad(q.w)
}

use super::answers::{WeirdFeatures, WeirdGround};

fn hash(s: &impl hopkit::hash::StateHash) -> u64 {
    let mut h = hopkit::hash::StateHasher::new();
    s.hash_state(&mut h);
    h.finish()
}

fn valid_dt(dt: f32) -> bool {
    dt > 0.0 && dt.is_finite() || dt == f32::INFINITY
}

/// Cases to run: `HOPKIT_ADVERSARIAL_CASES` (default 20,000) divided by `share` (the feature
/// tests run a quarter each).
fn cases(share: u64) -> u64 {
    std::env::var("HOPKIT_ADVERSARIAL_CASES")
        .ok()
        .and_then(|s| s.parse().ok())
        .unwrap_or(20_000u64)
        / share
}

/// One of four presets, picked by `g`, in either friction form.
fn preset(g: &mut Gen, presets: [fn() -> MoveParams; 4]) -> MoveParams {
    let mut p = presets[g.0.below(4) as usize]();
    if g.bool() {
        p.friction_math = movement::FrictionMath::SqrtDivide;
    }
    p
}

/// A character at the origin or anywhere (NaN, ±inf, huge), at rest or moving anyhow.
fn poisoned_mover(g: &mut Gen) -> MoverState {
    let mut s = MoverState::new(if g.bool() { Vec3::ZERO } else { g.v3() });
    s.velocity = if g.bool() { Vec3::ZERO } else { g.v3() };
    s
}

/// Ground at an adversarial height (NaN: none) with an up or an adversarial normal.
fn weird_ground(g: &mut Gen) -> WeirdGround {
    WeirdGround {
        height: g.maybe(0.0),
        normal: if g.bool() { Vec3::UP } else { g.v3() },
    }
}

/// `Err` if a step that ran ticks left a bad number in the character (a negative water jump
/// timer included) or in the carried yaw.
fn check_mover(
    s: &MoverState,
    ev: &StepEvents,
    what: impl FnOnce() -> String,
) -> Result<(), String> {
    if ev.substeps > 0
        && (bad3(s.position)
            || bad3(s.velocity)
            || bad3(s.ground_normal)
            || bad(s.coyote_timer)
            || bad(s.jump_buffer_timer)
            || bad(s.water_jump_timer)
            || s.water_jump_timer < 0.0
            || bad(ev.carried_yaw))
    {
        return Err(format!("bad state {s:?} ({}, ev {ev:?})", what()));
    }
    Ok(())
}

fn movement_case(g: &mut Gen) -> Result<(), String> {
    let p = preset(
        g,
        [
            MoveParams::seed,
            MoveParams::quakeworld,
            MoveParams::quake3,
            MoveParams::source,
        ],
    );
    movement_case_with(g, p, |g| g.v2())
}

/// [`movement_case`] from the CPM preset with its air-step fields poisoned too, and wishes that
/// often hold only forward/back or only strafe (the CPM key cases).
fn cpm_movement_case(g: &mut Gen) -> Result<(), String> {
    let mut p = MoveParams::cpma();
    p.air_stop_accel = g.maybe(p.air_stop_accel);
    p.strafe_accel = g.maybe(p.strafe_accel);
    p.strafe_wish_cap = g.maybe(p.strafe_wish_cap);
    p.air_control = g.maybe(p.air_control);
    p.air_max_speed = g.maybe(p.air_max_speed);
    movement_case_with(g, p, |g| match g.0.below(3) {
        0 => Vec2::new(g.f(), 0.0),
        1 => Vec2::new(0.0, g.f()),
        _ => g.v2(),
    })
}

fn movement_case_with(
    g: &mut Gen,
    mut p: MoveParams,
    wish: impl Fn(&mut Gen) -> Vec2,
) -> Result<(), String> {
    p.max_speed = g.maybe(p.max_speed);
    p.accel = g.maybe(p.accel);
    p.friction = g.maybe(p.friction);
    p.stop_speed = g.maybe(p.stop_speed);
    p.air_accel = g.maybe(p.air_accel);
    p.air_wish_cap = g.maybe(p.air_wish_cap);
    p.gravity = g.maybe(p.gravity);
    p.jump_speed = g.maybe(p.jump_speed);
    p.coyote_time = g.maybe(p.coyote_time);
    p.jump_buffer_time = g.maybe(p.jump_buffer_time);
    p.max_tick_dt = g.maybe(p.max_tick_dt);
    p.max_velocity = g.maybe(p.max_velocity);
    p.step_up = g.maybe(p.step_up);
    p.ground_snap = g.maybe(p.ground_snap);
    if g.0.below(4) == 0 {
        p.max_substeps = g.u32();
    }
    let mut s = poisoned_mover(g);
    s.coyote_timer = g.maybe(0.0);
    s.jump_buffer_timer = g.maybe(0.0);
    let input = MoveInput::new(wish(g), g.bool(), g.v2());
    let ground = weird_ground(g);
    for _ in 0..3 {
        let before = s;
        let dt = g.dt();
        let ev = movement::step(&mut s, &p, &input, &ground, dt);
        if !valid_dt(dt) {
            // Bit for bit (a NaN state compares unequal to itself).
            if !ev.rejected || hash(&s) != hash(&before) {
                return Err(format!("dt {dt} not rejected: {ev:?}"));
            }
            continue;
        }
        if ev.substeps > MAX_SUBSTEPS {
            return Err(format!("{} substeps", ev.substeps));
        }
        check_mover(&s, &ev, || format!("params {p:?}, dt {dt}"))?;
    }
    Ok(())
}

fn steering_case(g: &mut Gen) -> Result<(), String> {
    let p = SteeringParams {
        max_speed: g.maybe(4.0),
        max_accel: g.maybe(8.0),
        max_turn_rate: g.maybe(6.0),
        radius: g.maybe(0.5),
    };
    let ap = ArrivalParams {
        brake_distance: g.maybe(2.0),
        tolerance: g.maybe(0.05),
        min_speed_fraction: g.maybe(0.05),
        face_velocity: g.bool(),
    };
    let mut s = ArrivalState::new(g.v3());
    s.agent.velocity = g.v3();
    s.agent.yaw = g.f();
    let target = g.v3();
    let dt = g.dt();
    arrival_step(&mut s, &p, &ap, target, dt);
    let mut a = Agent::new(g.v3());
    a.velocity = g.v3();
    let st = seek(&a, target, &p, dt);
    integrate(&mut a, &p, st, dt);
    // Steering rejects NaN, ±inf and ≤ 0 (documented: nothing changes).
    if dt > 0.0 && dt.is_finite() {
        for ag in [s.agent, a] {
            if bad3(ag.position) || bad3(ag.velocity) || bad(ag.yaw) {
                // A state that was already non-finite is repaired by integrate; the arrival
                // early return (non-finite target) coasts through integrate too.
                return Err(format!("bad agent {ag:?} (params {p:?} {ap:?}, dt {dt})"));
            }
        }
    }
    Ok(())
}

fn follower_case(g: &mut Gen) -> Result<(), String> {
    let mut fp = FollowerParams::default();
    fp.record_distance = g.maybe(fp.record_distance);
    fp.stop_distance = g.maybe(fp.stop_distance);
    fp.move_speed = g.maybe(fp.move_speed);
    fp.gravity = g.maybe(fp.gravity);
    fp.reference_hz = g.maybe(fp.reference_hz);
    let mut s: FollowerState = FollowerState::new(g.v3(), g.v3(), g.f());
    s.body.velocity = g.v3();
    let ground = WeirdGround {
        height: g.maybe(0.0),
        normal: Vec3::UP,
    };
    let mut party: Party = Party::new(g.v3());
    let _ = party.add_member(g.v3(), g.f());
    let _ = party.add_member(g.v3(), g.f());
    let mut pp = PartyParams::default();
    pp.body.move_speed = g.maybe(pp.body.move_speed);
    for _ in 0..3 {
        let dt = g.dt();
        let leader = g.v3();
        follower::step(&mut s, &fp, leader, &ground, dt);
        follower::party::step(&mut party, &pp, leader, &ground, dt);
        if dt > 0.0 {
            let b = s.body;
            if bad3(b.position) || bad3(b.velocity) || bad2(b.move_dir) || bad(b.yaw) {
                return Err(format!("bad follower {b:?} (dt {dt})"));
            }
            for m in party.members() {
                if bad3(m.position) || bad3(m.velocity) || bad(m.neck_yaw) {
                    return Err(format!("bad party member {m:?} (dt {dt})"));
                }
            }
            if s.trail.iter().any(bad3) {
                let t: Vec<Vec3> = s.trail.iter().collect();
                return Err(format!(
                    "bad crumb in {t:?} (params {fp:?}, dt {dt}, leader {leader:?})"
                ));
            }
        }
    }
    Ok(())
}

fn slope_case(g: &mut Gen) -> Result<(), String> {
    let params = SlopeParams {
        slope_limit_deg: g.maybe(45.0),
        walkable_epsilon: g.maybe(2.0e-3),
        animation_angle_deg: g.maybe(270.0),
        trace_angle_limit_deg: g.maybe(f32::INFINITY),
    };
    let mut s = SlopeState::default();
    if g.bool() {
        s.tilt = g.q();
        s.accepted_normal = g.v3();
    }
    let normal = if g.bool() { Some(g.v3()) } else { None };
    slope::step(&mut s, &params, g.q(), normal, g.dt());
    if bad3(s.accepted_normal) || badq(s.tilt) {
        return Err(format!("bad slope state {s:?} ({params:?})"));
    }
    Ok(())
}

fn ghost_case(g: &mut Gen, rec: &hopkit::ghost::Recording<'_>) -> Result<(), String> {
    let mut fp = FlyerParams::default();
    fp.cruise_speed = g.maybe(fp.cruise_speed);
    fp.max_angular_speed = g.maybe(fp.max_angular_speed);
    fp.angular_damping = g.maybe(fp.angular_damping);
    let mut flyer = FlyerState::new(g.v3(), g.q(), g.f());
    flyer.angular_velocity = g.v3();
    let mut ghost = Ghost::new(flyer, g.u32());
    let targets = [g.v3(), Vec3::new(0.0, 3.0, 0.0)];
    let mut flyer_ran = false;
    for _ in 0..2 {
        ghost.step(rec, &fp, &targets, &DemoGround);
        let dt = g.dt();
        flyer::step(&mut flyer, &fp, g.v3(), dt);
        flyer_ran |= dt > 0.0; // NaN, 0 and negative dt are rejected: nothing changes
    }
    let checked: &[FlyerState] = if flyer_ran {
        &[ghost.flyer, flyer]
    } else {
        &[ghost.flyer]
    };
    for &f in checked {
        if bad3(f.position) || badq(f.orientation) || bad3(f.angular_velocity) || bad(f.speed) {
            return Err(format!("bad flyer {f:?} ({fp:?})"));
        }
    }
    // The recorder never panics and keeps what it stored.
    let mut r = Recorder::<64>::new(RecordingInfo::default()).map_err(|e| format!("{e:?}"))?;
    for _ in 0..20 {
        let input = PilotInput {
            pitch: g.f(),
            yaw: g.f(),
            fire: g.bool(),
            missile: g.bool(),
            toward: g.bool(),
            away: g.bool(),
        };
        let _ = r.record(&input, Some(g.f()), &flyer);
    }
    hopkit::ghost::Recording::parse(r.finish()).map_err(|e| e.to_string())?;
    Ok(())
}

fn stick_and_time_case(g: &mut Gen) -> Result<(), String> {
    let mut pipe = StickPipeline::default();
    if g.bool() {
        pipe.left_shape = ShapeParams {
            inner: g.f(),
            outer: g.f(),
            curve: g.f(),
        };
    }
    let raw = RawSticks {
        left_x: g.0.next_u32() as u16,
        left_y: g.0.next_u32() as u16,
        right_x: g.0.next_u32() as u16,
        right_y: g.0.next_u32() as u16,
        adc_max: if g.bool() {
            4095
        } else {
            g.0.next_u32() as u16
        },
        buttons: g.0.next_u32() as u8,
    };
    let f = pipe.process(&raw);
    if bad2(f.left) || bad2(f.right) || f.left.length() > 1.0 + 1e-5 {
        return Err(format!("bad stick frame {f:?}"));
    }
    let mut fs = FixedStep::new(g.u32()).with_max_frame_ns(if g.bool() {
        u64::MAX
    } else {
        g.0.next_u32() as u64
    });
    let a = fs.advance(g.dt());
    let b = fs.advance_nanos(if g.bool() {
        u64::MAX
    } else {
        g.0.next_u32() as u64
    });
    for adv in [a, b] {
        if !(adv.alpha >= 0.0 && adv.alpha < 1.0) {
            return Err(format!("alpha {}", adv.alpha));
        }
    }
    let s = SubSteps::split(g.dt(), g.f(), g.u32());
    if s.count > MAX_SUBSTEPS || (s.count > 0 && !(s.step.is_finite() && s.step > 0.0)) {
        return Err(format!("bad split {s:?}"));
    }
    Ok(())
}

#[test]
fn no_mechanic_panics_or_leaves_bad_numbers() {
    let cases = cases(1);
    let rec = demo_recording().unwrap();
    let mut g = Gen(Pcg32::seeded(0x0ad7_e125));
    let _ = (FlatGround::new(0.0), PlaneGround::new(Vec3::ZERO, Vec3::UP));
    let mut per_mechanic = [0u64; 6];
    for case in 0..cases {
        let which = (case % 6) as usize;
        let r = match which {
            0 => movement_case(&mut g),
            1 => steering_case(&mut g),
            2 => follower_case(&mut g),
            3 => slope_case(&mut g),
            4 => ghost_case(&mut g, &rec),
            _ => stick_and_time_case(&mut g),
        };
        if let Err(e) = r {
            panic!("adversarial case {case} (mechanic {which}): {e}");
        }
        per_mechanic[which] += 1;
    }
    println!(
        "adversarial: {cases} cases (movement {}, steering {}, follower+party {}, slope {}, ghost+recorder {}, sticks+timestep {}), 0 failures",
        per_mechanic[0], per_mechanic[1], per_mechanic[2], per_mechanic[3], per_mechanic[4], per_mechanic[5]
    );
}

#[test]
fn cpm_air_step_never_leaves_bad_numbers() {
    let cases = cases(4);
    let mut g = Gen(Pcg32::seeded(0xc0_3a1c));
    for case in 0..cases {
        if let Err(e) = cpm_movement_case(&mut g) {
            panic!("adversarial CPM case {case}: {e}");
        }
    }
}

/// Moving platforms, crouching and ladders: poisoned surface motions, clearances, ladder
/// normals, crouch and ladder params, and a crouch key that comes and goes.
fn platform_crouch_case(g: &mut Gen) -> Result<(), String> {
    let mut p = preset(
        g,
        [
            MoveParams::seed,
            MoveParams::quake3,
            MoveParams::source,
            MoveParams::cpma,
        ],
    );
    p.stand_height = g.maybe(p.stand_height);
    p.crouch_height = g.maybe(p.crouch_height);
    p.crouch_speed_scale = g.maybe(p.crouch_speed_scale);
    p.crouch_jump = g.bool();
    p.max_velocity = g.maybe(p.max_velocity);
    p.ladder_climb_speed = g.maybe(p.ladder_climb_speed);
    p.ladder_jump_speed = g.maybe(p.ladder_jump_speed);
    let mut s = poisoned_mover(g);
    s.grounded = g.bool();
    s.crouched = g.bool();
    let probe = WeirdFeatures {
        ground: weird_ground(g),
        motion: hopkit::ground::SurfaceMotion {
            velocity: g.v3(),
            yaw_rate: g.f(),
            pivot: if g.bool() { Vec3::ZERO } else { g.v3() },
        },
        clearance: g.f(),
        ladder: if g.bool() { Some(g.v3()) } else { None },
        water: None,
    };
    for _ in 0..4 {
        let input = MoveInput::new(g.v2(), g.bool(), g.v2()).with_crouch(g.bool());
        let dt = g.dt();
        let ev = movement::step(&mut s, &p, &input, &probe, dt);
        check_mover(&s, &ev, || format!("params {p:?}, dt {dt}"))?;
    }
    Ok(())
}

#[test]
fn platforms_and_crouching_never_leave_bad_numbers() {
    let cases = cases(4);
    let mut g = Gen(Pcg32::seeded(0x9_1a7f));
    for case in 0..cases {
        if let Err(e) = platform_crouch_case(&mut g) {
            panic!("adversarial platform/crouch case {case}: {e}");
        }
    }
}

/// A ground with adversarial heights and normals and an adversarial water surface (NaN, ±inf,
/// huge, subnormal, or a sane pool surface), the same or a different one ahead of the feet.
struct WeirdWater {
    ground: WeirdGround,
    surface: Option<f32>,
    ahead: Option<f32>,
}
impl GroundProbe for WeirdWater {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        self.ground.probe(p)
    }
    fn water(&self, feet: Vec3) -> Option<f32> {
        if feet.x.to_bits() & 1 == 0 {
            self.surface
        } else {
            self.ahead
        }
    }
}

/// Water: poisoned water heights, water params, views (`look_up`) and water jump timers.
fn water_case(g: &mut Gen) -> Result<(), String> {
    let mut p = preset(
        g,
        [
            MoveParams::seed,
            MoveParams::quakeworld,
            MoveParams::source,
            MoveParams::cpma,
        ],
    );
    p.water_accel = g.maybe(p.water_accel);
    p.water_friction = g.maybe(p.water_friction);
    p.swim_speed_scale = g.maybe(p.swim_speed_scale);
    p.water_sink_speed = g.maybe(p.water_sink_speed);
    p.swim_up_speed = g.maybe(p.swim_up_speed);
    p.water_feet_height = g.maybe(p.water_feet_height);
    p.water_waist_height = g.maybe(p.water_waist_height);
    p.water_eye_height = g.maybe(p.water_eye_height);
    p.water_jump_reach = g.maybe(p.water_jump_reach);
    p.water_jump_wall_height = g.maybe(p.water_jump_wall_height);
    p.water_jump_clear_height = g.maybe(p.water_jump_clear_height);
    p.water_jump_speed = g.maybe(p.water_jump_speed);
    p.water_jump_push = g.maybe(p.water_jump_push);
    p.water_jump_max_sink = g.maybe(p.water_jump_max_sink);
    p.water_jump_time = g.maybe(p.water_jump_time);
    p.max_speed = g.maybe(p.max_speed);
    p.max_velocity = g.maybe(p.max_velocity);
    let mut s = poisoned_mover(g);
    s.grounded = g.bool();
    s.water_jump_timer = if g.bool() { 0.0 } else { g.f() };
    let surface = |g: &mut Gen| match g.0.below(3) {
        0 => None,
        1 => Some(g.0.range_f32(-2.0, 60.0)),
        _ => Some(g.f()),
    };
    let probe = WeirdWater {
        ground: weird_ground(g),
        surface: surface(g),
        ahead: surface(g),
    };
    for _ in 0..4 {
        let input = MoveInput {
            look_up: g.f(),
            ..MoveInput::new(g.v2(), g.bool(), g.v2()).with_crouch(g.bool())
        };
        let dt = g.dt();
        let ev = movement::step(&mut s, &p, &input, &probe, dt);
        check_mover(&s, &ev, || format!("params {p:?}, dt {dt}"))?;
    }
    Ok(())
}

#[test]
fn water_never_leaves_bad_numbers() {
    let cases = cases(4);
    let mut g = Gen(Pcg32::seeded(0x3a_7e25));
    for case in 0..cases {
        if let Err(e) = water_case(&mut g) {
            panic!("adversarial water case {case}: {e}");
        }
    }
}
