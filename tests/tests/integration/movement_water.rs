//! Water (`hopkit::movement::water`) against a plain port of QuakeWorld's `pmove.c`, tick by tick,
//! and the behaviours it gives: sinking, swimming where the view looks, swimming up with the jump
//! key, the water jump out at the edge, bad water heights.
//!
//! The reference below is `PlayerMove` from `QW/client/pmove.c` (id Software's Quake source,
//! `id-Software/Quake` on GitHub) for a player whose water level is 2 or 3 or whose water jump
//! runs: `PM_CatagorizePosition` (ground and `waterlevel`), `CheckWaterJump`, `JumpButton`,
//! `PM_Friction` (its water branch), `PM_WaterMove` with `PM_Accelerate`, and `PM_AirMove` with
//! `waterjumptime` set, in f32 and in their order of operations (`sqrt` in double). Its world is
//! the height-probe world hopkit moves in, a pool: the traces of `PM_PlayerMove` become point
//! traces against the floor below (a point hull), `PM_PointContents` is "solid below the ground
//! height, water below the surface". The origin is kept at the feet: Quake's `player_mins[2]`
//! (−24) is folded into the heights (`+1`, `+28`, `+46` above the feet for the water level, `+32`
//! and `+56` for the water jump). Frames: Quake's `[0]`, `[1]` are hopkit's planar `(x, z)`, `[2]`
//! (up) is hopkit's `y`; `right` is hopkit's `(−facing.y, facing.x)`; `forward` is the view's 3-D
//! forward `(cos p·facing, sin p)` with `sin p` = `MoveInput::look_up`.
//!
//! Per tick, the reference starts from hopkit's state; velocity and position after the tick must
//! agree within [`PER_TICK_REL`] of the speed (the position also of its own size). Ticks on which
//! hopkit's wall check blocked the move are compared on the velocity only (hopkit undoes the
//! blocked axis of the move, a trace stops at the wall).

// The reference keeps the C's indexed loops.
#![allow(clippy::needless_range_loop)]

use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, water_level, MoveInput, MoveParams, MoverState};
use hopkit::rng::Pcg32;

use super::quake_ref::{length, rel, vector_normalize, PER_TICK_REL};

/// 72 fps (`msec` 13.9 in QuakeWorld's client).
const DT: f32 = 1.0 / 72.0;

/// The pool: floor at 0 for `−400 ≤ x < 0`, a deep end at −100 for `x < −400`, the edge (a wall,
/// ledge at `LEDGE`) for `x ≥ 0`; water up to `SURFACE` over `x < 0`.
struct Pool;
const SURFACE: f32 = 40.0;
const LEDGE: f32 = 56.0;

fn floor_at(x: f32) -> f32 {
    if x >= 0.0 {
        LEDGE
    } else if x >= -400.0 {
        0.0
    } else {
        -100.0
    }
}

impl GroundProbe for Pool {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        if p.x.is_nan() {
            return None;
        }
        Some(GroundHit {
            height: floor_at(p.x),
            normal: Vec3::UP,
        })
    }
    fn water(&self, feet: Vec3) -> Option<f32> {
        (feet.x < 0.0).then_some(SURFACE)
    }
}

// ---- the reference: QW/client/pmove.c ----

const CONTENTS_EMPTY: i32 = -1;
const CONTENTS_SOLID: i32 = -2;
const CONTENTS_WATER: i32 = -3;

/// `PM_PointContents` in the pool.
fn point_contents(p: [f32; 3]) -> i32 {
    if p[2] < floor_at(p[0]) {
        CONTENTS_SOLID
    } else if p[0] < 0.0 && p[2] < SURFACE {
        CONTENTS_WATER
    } else {
        CONTENTS_EMPTY
    }
}

/// `pmove` and the file's globals the water code touches.
#[derive(Clone, Copy, Debug)]
struct Pm {
    origin: [f32; 3],
    velocity: [f32; 3],
    onground: bool,
    waterjumptime: f32,
    oldbuttons_jump: bool,
    waterlevel: i32,
    /// The last move hit the edge (not in `pmove.c`: for the comparison).
    blocked: bool,
}

struct Cmd {
    forwardmove: f32,
    sidemove: f32,
    /// `+movedown` held: hopkit's crouch key, at `MAXSPEED` (QuakeWorld's is `cl_upspeed`).
    upmove: f32,
    jump: bool,
    forward: [f32; 3],
    right: [f32; 3],
}

const MAXSPEED: f32 = 320.0;
const WATERACCELERATE: f32 = 10.0;
const WATERFRICTION: f32 = 4.0;
const GRAVITY: f32 = 800.0;

impl Pm {
    /// `PM_CatagorizePosition` (point hull; origin at the feet).
    fn catagorize_position(&mut self) {
        if self.velocity[2] > 180.0 {
            self.onground = false;
        } else {
            // The trace one unit down: the floor within it (or the point below it) stops it.
            let floor = floor_at(self.origin[0]);
            self.onground = self.origin[2] - 1.0 <= floor;
            if self.onground {
                self.waterjumptime = 0.0;
                self.origin[2] = floor;
            }
        }
        self.waterlevel = 0;
        let mut point = self.origin;
        point[2] = self.origin[2] + 1.0;
        if point_contents(point) <= CONTENTS_WATER {
            self.waterlevel = 1;
            point[2] = self.origin[2] + 28.0;
            if point_contents(point) <= CONTENTS_WATER {
                self.waterlevel = 2;
                point[2] = self.origin[2] + 46.0;
                if point_contents(point) <= CONTENTS_WATER {
                    self.waterlevel = 3;
                }
            }
        }
    }

    /// `CheckWaterJump`.
    fn check_water_jump(&mut self, cmd: &Cmd) {
        if self.waterjumptime != 0.0 {
            return;
        }
        if self.velocity[2] < -180.0 {
            return;
        }
        let mut flatforward = [cmd.forward[0], cmd.forward[1], 0.0];
        vector_normalize(&mut flatforward);
        let mut spot = [
            self.origin[0] + 24.0 * flatforward[0],
            self.origin[1] + 24.0 * flatforward[1],
            self.origin[2] + 32.0,
        ];
        if point_contents(spot) != CONTENTS_SOLID {
            return;
        }
        spot[2] = self.origin[2] + 56.0;
        if point_contents(spot) != CONTENTS_EMPTY {
            return;
        }
        self.velocity = [flatforward[0] * 50.0, flatforward[1] * 50.0, 310.0];
        self.waterjumptime = 2.0;
        self.oldbuttons_jump = true;
    }

    /// `JumpButton`, the parts that run in water or during a water jump.
    fn jump_button(&mut self, dt: f32) {
        if self.waterjumptime != 0.0 {
            self.waterjumptime -= dt;
            if self.waterjumptime < 0.0 {
                self.waterjumptime = 0.0;
            }
            return;
        }
        if self.waterlevel >= 2 {
            self.onground = false;
            self.velocity[2] = 100.0; // CONTENTS_WATER
        }
    }

    /// `PM_Friction` (the ground branch never runs here: level ≥ 2 or a water jump).
    fn friction(&mut self, dt: f32) {
        if self.waterjumptime != 0.0 {
            return;
        }
        let vel = &mut self.velocity;
        let speed = ((vel[0] * vel[0] + vel[1] * vel[1] + vel[2] * vel[2]) as f64).sqrt() as f32;
        if speed < 1.0 {
            vel[0] = 0.0;
            vel[1] = 0.0;
            return;
        }
        let mut drop = 0.0;
        if self.waterlevel >= 2 {
            drop += speed * WATERFRICTION * self.waterlevel as f32 * dt;
        }
        let mut newspeed = speed - drop;
        if newspeed < 0.0 {
            newspeed = 0.0;
        }
        newspeed /= speed;
        vel[0] *= newspeed;
        vel[1] *= newspeed;
        vel[2] *= newspeed;
    }

    /// `PM_Accelerate`.
    fn accelerate(&mut self, wishdir: [f32; 3], wishspeed: f32, accel: f32, dt: f32) {
        if self.waterjumptime != 0.0 {
            return;
        }
        let v = self.velocity;
        let currentspeed = v[0] * wishdir[0] + v[1] * wishdir[1] + v[2] * wishdir[2];
        let addspeed = wishspeed - currentspeed;
        if addspeed <= 0.0 {
            return;
        }
        let mut accelspeed = accel * dt * wishspeed;
        if accelspeed > addspeed {
            accelspeed = addspeed;
        }
        for i in 0..3 {
            self.velocity[i] += accelspeed * wishdir[i];
        }
    }

    /// The move. `stair`: `PM_WaterMove`'s "press down from stepheight above" (19 units) onto the
    /// floor first. Else, or where that start is solid, `PM_FlyMove` with a point hull: the edge
    /// (a wall) clips `vx` and the move slides along it, the floor clips `vz`, and a water jump
    /// restores the velocity. Returns whether the wall was hit.
    fn move_position(&mut self, dt: f32, stair: bool) -> bool {
        let mut dest = [
            self.origin[0] + dt * self.velocity[0],
            self.origin[1] + dt * self.velocity[1],
            self.origin[2] + dt * self.velocity[2],
        ];
        let floor = floor_at(dest[0]);
        if stair && floor <= dest[2] + 19.0 {
            self.origin = dest;
            if self.origin[2] < floor {
                self.origin[2] = floor;
            }
            return false;
        }
        let primal = self.velocity;
        let mut blocked = false;
        if floor > dest[2] && floor_at(self.origin[0]) != floor {
            blocked = true;
            self.velocity[0] = 0.0;
            dest[0] = self.origin[0];
        }
        let floor = floor_at(dest[0]);
        if dest[2] < floor {
            dest[2] = floor;
            if self.velocity[2] < 0.0 {
                self.velocity[2] = 0.0;
            }
        }
        self.origin = dest;
        if self.waterjumptime != 0.0 {
            self.velocity = primal;
        }
        blocked
    }

    /// `PM_WaterMove`.
    fn water_move(&mut self, cmd: &Cmd, dt: f32) {
        let mut wishvel = [0.0f32; 3];
        for i in 0..3 {
            wishvel[i] = cmd.forward[i] * cmd.forwardmove + cmd.right[i] * cmd.sidemove;
        }
        if cmd.forwardmove == 0.0 && cmd.sidemove == 0.0 && cmd.upmove == 0.0 {
            wishvel[2] -= 60.0; // drift towards bottom
        } else {
            wishvel[2] += cmd.upmove;
        }
        let mut wishdir = wishvel;
        let mut wishspeed = vector_normalize(&mut wishdir);
        if wishspeed > MAXSPEED {
            wishspeed = MAXSPEED;
        }
        wishspeed *= 0.7;
        self.accelerate(wishdir, wishspeed, WATERACCELERATE, dt);
        self.blocked = self.move_position(dt, true);
    }

    /// `PM_AirMove` off the ground with `waterjumptime` set (`PM_AirAccelerate` returns).
    fn air_move(&mut self, dt: f32) {
        self.velocity[2] -= GRAVITY * dt;
        self.blocked = self.move_position(dt, false);
    }

    /// `PlayerMove` from `PM_CatagorizePosition` on.
    fn player_move(&mut self, cmd: &Cmd, dt: f32) {
        self.catagorize_position();
        if self.waterlevel == 2 {
            self.check_water_jump(cmd);
        }
        if self.velocity[2] < 0.0 {
            self.waterjumptime = 0.0;
        }
        if cmd.jump {
            self.jump_button(dt);
        } else {
            self.oldbuttons_jump = false;
        }
        self.friction(dt);
        if self.waterlevel >= 2 {
            self.water_move(cmd, dt);
        } else {
            self.air_move(dt);
        }
        self.catagorize_position();
    }
}

/// The command for `input`, given by a character that is `grounded` before the tick. QuakeWorld
/// has no crouch: hopkit's crouch key is its `+movedown`, and a crouched character starting the
/// tick on the ground has its front and side moves scaled by `crouch_speed_scale`, as Source
/// crops a command (`movement::crouch`).
fn cmd_of(input: &MoveInput, grounded: bool) -> Cmd {
    let mut w = input.wish;
    let l = (w.x * w.x + w.y * w.y).sqrt();
    if l > 1.0 {
        w = Vec2::new(w.x / l, w.y / l);
    }
    if input.crouch && grounded {
        w *= MoveParams::quakeworld().crouch_speed_scale;
    }
    let f = input.facing;
    let lu = input.look_up;
    let cp = (1.0 - lu * lu).max(0.0).sqrt();
    Cmd {
        forwardmove: w.x * MAXSPEED,
        sidemove: w.y * MAXSPEED,
        upmove: if input.crouch { -MAXSPEED } else { 0.0 },
        jump: input.jump,
        forward: [cp * f.x, cp * f.y, lu],
        right: [-f.y, f.x, 0.0],
    }
}

fn to_pm(s: &MoverState) -> Pm {
    Pm {
        origin: [s.position.x, s.position.z, s.position.y],
        velocity: [s.velocity.x, s.velocity.z, s.velocity.y],
        onground: s.grounded,
        waterjumptime: s.water_jump_timer,
        oldbuttons_jump: s.jump_latched,
        waterlevel: 0,
        blocked: false,
    }
}

fn input(front: f32, right: f32, jump: bool, yaw: f32, pitch: f32) -> MoveInput {
    MoveInput::with_yaw(Vec2::new(front, right), jump, yaw).with_pitch(pitch)
}

/// What the comparison saw.
#[derive(Default, Debug)]
struct Seen {
    compared: u32,
    worst_v: f32,
    worst_p: f32,
    level3: u32,
    water_jumps: u32,
    swim_ups: u32,
    sinking: u32,
    dives: u32,
}

/// Run `script` from `start` through hopkit's `step`, comparing every water tick with the port.
fn compare(start: MoverState, ticks: u32, script: &mut dyn FnMut(u32) -> MoveInput) -> Seen {
    let p = MoveParams::quakeworld();
    let mut s = start;
    let mut seen = Seen::default();
    for t in 0..ticks {
        let inp = script(t);
        let lvl = water_level(&Pool, s.position, &p);
        let in_water = lvl >= 2 || s.water_jump_timer != 0.0;
        let mut r = to_pm(&s);
        let grounded = s.grounded;
        let ev = step(&mut s, &p, &inp, &Pool, DT);
        if !in_water {
            continue;
        }
        r.player_move(&cmd_of(&inp, grounded), DT);
        if r.waterlevel < 2 && r.waterjumptime == 0.0 {
            // The tick left the water and hopkit handed it to its normal tick.
            continue;
        }
        let hv = [s.velocity.x, s.velocity.z, s.velocity.y];
        let hp = [s.position.x, s.position.z, s.position.y];
        let speed = length(r.velocity).max(1.0);
        let ev_v = rel(hv, r.velocity, speed);
        assert!(ev_v <= PER_TICK_REL, "tick {t}: {s:?} vs {r:?} ({ev_v:e})");
        seen.worst_v = seen.worst_v.max(ev_v);
        if !ev.hit_wall && !r.blocked {
            let ev_p = rel(hp, r.origin, length(r.origin) + speed * DT);
            assert!(
                ev_p <= PER_TICK_REL,
                "tick {t}: position {s:?} vs {r:?} ({ev_p:e})"
            );
            seen.worst_p = seen.worst_p.max(ev_p);
        }
        assert_eq!(s.water_jump_timer, r.waterjumptime, "tick {t}");
        assert_eq!(s.grounded, r.onground, "tick {t}: {s:?} vs {r:?}");
        seen.compared += 1;
        seen.level3 += (lvl == 3) as u32;
        seen.water_jumps += ev.jumped as u32;
        seen.swim_ups += (inp.jump && lvl >= 2) as u32;
        seen.sinking += (inp.wish == Vec2::ZERO && !inp.crouch && s.velocity.y < 0.0) as u32;
        seen.dives += (inp.crouch && lvl >= 2 && s.velocity.y < -100.0) as u32;
    }
    seen
}

#[test]
fn water_ticks_match_pmove() {
    // Scripted: in the deep end, sink, swim down and up along the view, strafe (diving with the
    // crouch key for a while), swim up with the jump key, then swim to the edge and jump out.
    let start = MoverState::new(Vec3::new(-600.0, -20.0, 0.0));
    let yaw_east = -core::f32::consts::FRAC_PI_2; // facing +X: yaw −90°
    let seen = compare(start, 900, &mut |t| match t {
        0..=99 => input(0.0, 0.0, false, yaw_east, 0.0),
        100..=199 => input(1.0, 0.0, false, yaw_east, -0.6),
        200..=299 => input(1.0, 0.4, false, yaw_east, 0.7),
        300..=339 => input(0.0, -1.0, false, yaw_east + 0.5, 0.0).with_crouch(true),
        340..=399 => input(0.0, -1.0, false, yaw_east + 0.5, 0.0),
        400..=499 => input(0.0, 0.0, t % 40 < 25, yaw_east, 0.0),
        _ => input(1.0, 0.0, false, yaw_east, 0.1),
    });
    assert!(seen.compared > 500, "{seen:?}");
    assert!(
        seen.level3 > 100 && seen.sinking > 50 && seen.swim_ups >= 10 && seen.dives >= 10,
        "{seen:?}"
    );
    assert!(seen.water_jumps >= 1, "{seen:?}");
    println!("scripted: {seen:?}");
    // Random keys, views and jump presses.
    let mut rng = Pcg32::seeded(26);
    let mut worst = (0.0f32, 0.0f32);
    let mut total = 0;
    for run in 0..24 {
        let start = MoverState::new(Vec3::new(
            rng.range_f32(-700.0, -20.0),
            rng.range_f32(-90.0, 30.0),
            rng.range_f32(-50.0, 50.0),
        ));
        let mut cur = input(0.0, 0.0, false, 0.0, 0.0);
        let seen = compare(start, 300, &mut |t| {
            if t % 20 == 0 {
                let keys = [-1.0, 0.0, 0.0, 1.0];
                cur = input(
                    keys[rng.below(4) as usize],
                    keys[rng.below(4) as usize],
                    rng.below(4) == 0,
                    rng.range_f32(-3.2, 3.2),
                    rng.range_f32(-1.5, 1.5),
                )
                .with_crouch(rng.below(4) == 0);
            }
            cur
        });
        assert!(seen.compared > 0, "run {run}");
        total += seen.compared;
        worst = (worst.0.max(seen.worst_v), worst.1.max(seen.worst_p));
    }
    println!(
        "random: {total} ticks, worst velocity {:e}, position {:e}",
        worst.0, worst.1
    );
}

fn qw() -> MoveParams {
    MoveParams::quakeworld()
}

#[test]
fn sinks_to_the_floor_and_swims_where_it_looks() {
    let p = qw();
    let mut s = MoverState::new(Vec3::new(-100.0, 30.0, 0.0));
    s.velocity = Vec3::new(0.0, 0.0, 0.0);
    // No keys: sinks (no gravity: far slower than a fall) and ends standing on the floor.
    for _ in 0..72 {
        step(&mut s, &p, &input(0.0, 0.0, false, 0.0, 0.0), &Pool, DT);
    }
    assert!(s.velocity.y < 0.0 && s.velocity.y > -60.0, "{s:?}");
    for _ in 0..144 {
        step(&mut s, &p, &input(0.0, 0.0, false, 0.0, 0.0), &Pool, DT);
    }
    assert!(s.grounded && s.position.y == 0.0, "{s:?}");
    // W looking 45° up: rises and moves ahead at the same rate, never faster than 0.7·320.
    let mut s = MoverState::new(Vec3::new(-600.0, -80.0, 0.0));
    let up45 = input(1.0, 0.0, false, 0.0, core::f32::consts::FRAC_PI_4);
    for _ in 0..30 {
        step(&mut s, &p, &up45, &Pool, DT);
        assert!(s.velocity.length() <= 224.0 + 1e-3, "{s:?}");
    }
    assert!(
        s.velocity.y > 100.0 && (s.velocity.y + s.velocity.z).abs() < 1e-2,
        "{s:?}"
    );
    // The jump key swims up at 100, then water friction (level 3) and the sinking wish (42
    // down) take their share of the tick.
    let mut s = MoverState::new(Vec3::new(-600.0, -80.0, 0.0));
    step(&mut s, &p, &input(0.0, 0.0, true, 0.0, 0.0), &Pool, DT);
    let want = 100.0 * (1.0 - 4.0 * 3.0 * DT) - 10.0 * DT * 42.0;
    assert!((s.velocity.y - want).abs() < 1e-3, "{s:?} {want}");
}

#[test]
fn jumps_out_at_the_edge() {
    let p = qw();
    // Swimming at the surface towards the edge (+X), level 2.
    let mut s = MoverState::new(Vec3::new(-120.0, 0.0, 0.0));
    s.grounded = true;
    let w = input(1.0, 0.0, false, -core::f32::consts::FRAC_PI_2, 0.0);
    let mut jumped = false;
    let mut landed_on_ledge = false;
    for _ in 0..240 {
        let ev = step(&mut s, &p, &w, &Pool, DT);
        jumped |= ev.jumped;
        landed_on_ledge |= s.grounded && s.position.y == LEDGE;
    }
    assert!(jumped && landed_on_ledge && s.position.x > 0.0, "{s:?}");
    assert_eq!(s.water_jump_timer, 0.0);
    // Facing away from the edge: no water jump.
    let mut s = MoverState::new(Vec3::new(-10.0, 0.0, 0.0));
    s.grounded = true;
    let away = input(0.0, 0.0, false, core::f32::consts::FRAC_PI_2, 0.0);
    for _ in 0..60 {
        assert!(!step(&mut s, &p, &away, &Pool, DT).jumped);
    }
    assert!(s.position.y <= 0.0 + 1e-3);
}

/// Water heights NaN, ±inf, huge, and heights that move every query.
struct Wild(u32);
impl GroundProbe for Wild {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        Pool.probe(p)
    }
    fn water(&self, feet: Vec3) -> Option<f32> {
        let k = (feet.x.to_bits() ^ self.0) % 7;
        [
            Some(f32::NAN),
            Some(f32::INFINITY),
            Some(f32::NEG_INFINITY),
            Some(f32::MAX),
            Some(-f32::MAX),
            Some(1.0e30),
            None,
        ][k as usize]
    }
}

#[test]
fn bad_water_heights_are_no_water_and_never_bad_numbers() {
    let p = qw();
    for &h in &[f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        // A non-finite surface is dry: the same bits as no water at all.
        struct One(f32);
        impl GroundProbe for One {
            fn probe(&self, p: Vec3) -> Option<GroundHit> {
                Pool.probe(p)
            }
            fn water(&self, _feet: Vec3) -> Option<f32> {
                Some(self.0)
            }
        }
        struct Dry;
        impl GroundProbe for Dry {
            fn probe(&self, p: Vec3) -> Option<GroundHit> {
                Pool.probe(p)
            }
        }
        let (mut a, mut b) = (
            MoverState::new(Vec3::new(-50.0, 10.0, 0.0)),
            MoverState::new(Vec3::new(-50.0, 10.0, 0.0)),
        );
        for t in 0..200 {
            let i = input(1.0, (t % 3) as f32 - 1.0, t % 50 == 0, 0.3 * t as f32, 0.2);
            step(&mut a, &p, &i, &One(h), DT);
            step(&mut b, &p, &i, &Dry, DT);
            assert_eq!(a.state_hash(), b.state_hash(), "{h}");
        }
    }
    let mut rng = Pcg32::seeded(9);
    for run in 0..200u32 {
        let mut s = MoverState::new(Vec3::new(
            rng.range_f32(-700.0, 10.0),
            rng.range_f32(-100.0, 60.0),
            0.0,
        ));
        for t in 0..100 {
            let i = input(
                rng.signed_unit(),
                rng.signed_unit(),
                rng.below(3) == 0,
                rng.range_f32(-4.0, 4.0),
                [0.3, f32::NAN, f32::INFINITY, -7.0][(t % 4) as usize],
            );
            step(&mut s, &p, &i, &Wild(run), DT);
            assert!(s.is_finite(), "run {run}: {s:?}");
        }
    }
}

#[test]
fn the_crouch_key_dives_at_swimming_speed() {
    // Quake III's crouch is `+movedown`: under water it swims straight down at the full swimming
    // speed (0.7 × 320), where no keys only sink (at most 42).
    let p = qw();
    let (mut dive, mut sink) = (
        MoverState::new(Vec3::new(-600.0, 0.0, 0.0)),
        MoverState::new(Vec3::new(-600.0, 0.0, 0.0)),
    );
    let down = input(0.0, 0.0, false, 0.0, 0.0).with_crouch(true);
    let none = input(0.0, 0.0, false, 0.0, 0.0);
    let mut fastest = 0.0f32;
    for _ in 0..36 {
        step(&mut dive, &p, &down, &Pool, DT);
        step(&mut sink, &p, &none, &Pool, DT);
        fastest = fastest.min(dive.velocity.y);
        assert!(dive.velocity.y >= -224.0 - 1e-3, "{dive:?}");
        assert!(dive.crouched);
    }
    assert!(fastest < -150.0, "dived at {fastest}");
    assert!(
        dive.position.y < sink.position.y - 40.0,
        "{dive:?} vs {sink:?}"
    );
    assert!(dive.velocity.x == 0.0 && dive.velocity.z == 0.0);
}
