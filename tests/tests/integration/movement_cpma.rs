//! The CPM preset against a plain port of Challenge ProMode's air step, tick by tick.
//!
//! The reference below is Quake III's `PmoveSingle` for an airborne player as CPM changes it,
//! written from `code/game/bg_pmove.c` (`PM_Friction`, `PM_CmdScale`, `PM_SetMovementDir`,
//! `PM_AirMove` with its `g_promode` branch, `PM_Accelerate`, `PM_SlideMove`'s gravity) and
//! `code/game/bg_promode.c` (`CPM_PM_Aircontrol`, `CPM_UpdateSettings` pro mode) in the public
//! repository `pbrochart/oaunofficial`, in f32 and in their order of operations (C's double
//! promotions kept where the C has them: `sqrt`, and `127.0` in `PM_CmdScale`). Without
//! `SnapVector`, as [`MoveParams::quake3`] documents. Frames: Quake's `[0]`, `[1]` are hopkit's
//! planar `(x, z)`, `[2]` (up) is hopkit's `y`; `right` is hopkit's `(−facing.y, facing.x)`.
//!
//! Two comparisons, both at Quake III's 125 fps (`msec = 8`):
//! - **per tick**: the reference starts every tick from hopkit's state; the velocity after the
//!   tick must agree within [`PER_TICK_REL`] of the speed (the same bound as the QuakeWorld
//!   comparison: hopkit forms the budget as `accel·wishspeed·dt` and applies gravity half before
//!   and half after the move, Quake as `accel·dt·wishspeed` and the mean velocity; single
//!   roundings apart);
//! - **free running**: both run the whole script on their own; the deviation grows only by
//!   those roundings and must stay within [`RUN_REL`] of the speed after 2 s (250 ticks).

// The reference keeps the C's indexed loops.
#![allow(clippy::needless_range_loop)]

use hopkit::ground::NoGround;
use hopkit::math::{yaw_forward, Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use hopkit::rng::Pcg32;

use super::quake_ref::{dot, vector_normalize, PER_TICK_REL};

/// Free-running bound after 250 ticks, on the same measure (velocity) and on the position
/// (`|p_hopkit − p_ref| / max(distance flown, 1)`).
const RUN_REL: f32 = 3e-5;
/// Quake III's `msec = 8`.
const DT: f32 = 0.008;

/// One player's reference state and its CPM settings.
#[derive(Clone, Copy, Debug)]
struct Ref {
    origin: [f32; 3],
    velocity: [f32; 3],
    movement_dir: i32,
}

/// CPM pro-mode constants (`CPM_UpdateSettings(1)`) and Q3's.
const PM_AIRACCELERATE: f32 = 1.0;
const CPM_PM_AIRSTOPACCELERATE: f32 = 2.5;
const CPM_PM_AIRCONTROL: f32 = 150.0;
const CPM_PM_STRAFEACCELERATE: f32 = 70.0;
const CPM_PM_WISHSPEED: f32 = 30.0;
const PS_SPEED: i32 = 320;
const PS_GRAVITY: i32 = 800;

impl Ref {
    fn pm_accelerate(&mut self, wishdir: &[f32; 3], wishspeed: f32, accel: f32, frametime: f32) {
        let currentspeed = dot(&self.velocity, wishdir);
        let addspeed = wishspeed - currentspeed;
        if addspeed <= 0.0 {
            return;
        }
        let mut accelspeed = accel * frametime * wishspeed;
        if accelspeed > addspeed {
            accelspeed = addspeed;
        }
        for i in 0..3 {
            self.velocity[i] += accelspeed * wishdir[i];
        }
    }

    fn cpm_pm_aircontrol(&mut self, wishdir: &[f32; 3], wishspeed: f32, frametime: f32) {
        if (self.movement_dir != 0 && self.movement_dir != 4) || wishspeed == 0.0 {
            return;
        }
        let zspeed = self.velocity[2];
        self.velocity[2] = 0.0;
        let speed = vector_normalize(&mut self.velocity);
        let d = dot(&self.velocity, wishdir);
        let mut k = 32.0f32;
        k *= CPM_PM_AIRCONTROL * d * d * frametime;
        if d > 0.0 {
            for i in 0..2 {
                self.velocity[i] = self.velocity[i] * speed + wishdir[i] * k;
            }
            vector_normalize(&mut self.velocity);
        }
        for i in 0..2 {
            self.velocity[i] *= speed;
        }
        self.velocity[2] = zspeed;
    }

    fn pm_set_movement_dir(&mut self, fmove: i32, smove: i32) {
        if fmove != 0 || smove != 0 {
            self.movement_dir = match (smove.signum(), fmove.signum()) {
                (0, 1) => 0,
                (-1, 1) => 1,
                (-1, 0) => 2,
                (-1, -1) => 3,
                (0, -1) => 4,
                (1, -1) => 5,
                (1, 0) => 6,
                _ => 7,
            };
        } else if self.movement_dir == 2 {
            self.movement_dir = 1;
        } else if self.movement_dir == 6 {
            self.movement_dir = 7;
        }
    }

    /// One airborne `PmoveSingle` with CPM's `PM_AirMove`; `forward` is the planar view.
    fn air_tick(&mut self, forward: [f32; 3], fmove: i32, smove: i32, frametime: f32) {
        // PM_Friction: in the air only the "speed < 1" stop acts (3-D speed, not walking).
        let speed = (dot(&self.velocity, &self.velocity) as f64).sqrt() as f32;
        if speed < 1.0 {
            self.velocity[0] = 0.0;
            self.velocity[1] = 0.0;
        } else {
            let drop = 0.0f32;
            let mut newspeed = speed - drop;
            if newspeed < 0.0 {
                newspeed = 0.0;
            }
            newspeed /= speed;
            for v in &mut self.velocity {
                *v *= newspeed;
            }
        }
        // PM_CmdScale (upmove 0).
        let scale = {
            let (f, s) = (fmove.abs(), smove.abs());
            let max = f.max(s);
            if max == 0 {
                0.0
            } else {
                let total = ((f * f + s * s) as f64).sqrt() as f32;
                (((PS_SPEED as f32) * max as f32) as f64 / (127.0 * total as f64)) as f32
            }
        };
        self.pm_set_movement_dir(fmove, smove);
        let mut fwd = forward;
        let mut right = [-forward[1], forward[0], 0.0];
        fwd[2] = 0.0;
        right[2] = 0.0;
        vector_normalize(&mut fwd);
        vector_normalize(&mut right);
        let mut wishvel = [0.0f32; 3];
        for i in 0..2 {
            wishvel[i] = fwd[i] * fmove as f32 + right[i] * smove as f32;
        }
        wishvel[2] = 0.0;
        let mut wishdir = wishvel;
        let mut wishspeed = vector_normalize(&mut wishdir);
        wishspeed *= scale;
        // CPM: Air Control.
        let wishspeed2 = wishspeed;
        let mut accel = if dot(&self.velocity, &wishdir) < 0.0 {
            CPM_PM_AIRSTOPACCELERATE
        } else {
            PM_AIRACCELERATE
        };
        if self.movement_dir == 2 || self.movement_dir == 6 {
            if wishspeed > CPM_PM_WISHSPEED {
                wishspeed = CPM_PM_WISHSPEED;
            }
            accel = CPM_PM_STRAFEACCELERATE;
        }
        self.pm_accelerate(&wishdir, wishspeed, accel, frametime);
        if CPM_PM_AIRCONTROL != 0.0 {
            self.cpm_pm_aircontrol(&wishdir, wishspeed2, frametime);
        }
        // PM_StepSlideMove(gravity) in free air: PM_SlideMove moves with the mean vertical
        // velocity and leaves the end velocity.
        let mut end_velocity = self.velocity;
        end_velocity[2] -= PS_GRAVITY as f32 * frametime;
        self.velocity[2] = (self.velocity[2] + end_velocity[2]) * 0.5;
        for i in 0..3 {
            self.origin[i] += frametime * self.velocity[i];
        }
        self.velocity = end_velocity;
    }
}

fn to_ref(s: &MoverState, movement_dir: i32) -> Ref {
    Ref {
        origin: [s.position.x, s.position.z, s.position.y],
        velocity: [s.velocity.x, s.velocity.z, s.velocity.y],
        movement_dir,
    }
}

fn ref_velocity(r: &Ref) -> Vec3 {
    Vec3::new(r.velocity[0], r.velocity[2], r.velocity[1])
}

fn ref_position(r: &Ref) -> Vec3 {
    Vec3::new(r.origin[0], r.origin[2], r.origin[1])
}

/// One scripted tick: keys (`fmove`, `smove` in −1, 0, 1) and the view yaw.
#[derive(Clone, Copy)]
struct Cmd {
    f: i32,
    s: i32,
    yaw: f32,
}

/// The scripts: strafe-only turns, W-only air control, S-only air stop, diagonal, and random.
fn scripts() -> Vec<(&'static str, Vec3, Vec<Cmd>)> {
    let mut out = Vec::new();
    let v0 = Vec3::new(0.0, 270.0, -400.0); // flying towards −Z at 400 ups, just jumped
                                            // A/D only, the view turning with the velocity (90°/s), switching sides every 0.5 s.
    out.push((
        "strafe",
        v0,
        (0..250)
            .map(|t| {
                let side = if (t / 62) % 2 == 0 { 1 } else { -1 };
                Cmd {
                    f: 0,
                    s: side,
                    yaw: -(side as f32) * 1.5 * t as f32 * DT,
                }
            })
            .collect(),
    ));
    // W only, the view swinging left at 90°/s: air control turns the velocity after it.
    out.push((
        "w-turn",
        v0,
        (0..250)
            .map(|t| Cmd {
                f: 1,
                s: 0,
                yaw: 1.5 * t as f32 * DT,
            })
            .collect(),
    ));
    // S only for 1 s (air stop), then W only with a fixed view 60° off (air control), then
    // nothing.
    out.push((
        "air-stop",
        v0,
        (0..250)
            .map(|t| match t {
                0..=124 => Cmd {
                    f: -1,
                    s: 0,
                    yaw: 0.0,
                },
                125..=199 => Cmd {
                    f: 1,
                    s: 0,
                    yaw: 1.05,
                },
                _ => Cmd {
                    f: 0,
                    s: 0,
                    yaw: 1.05,
                },
            })
            .collect(),
    ));
    // W+D: plain Quake III air acceleration (1) with the view turning right.
    out.push((
        "diagonal",
        v0,
        (0..250)
            .map(|t| Cmd {
                f: 1,
                s: 1,
                yaw: -0.8 * t as f32 * DT,
            })
            .collect(),
    ));
    // Random keys held for random spans and a random-walk view.
    let mut rng = Pcg32::seeded(0xc9a);
    for _ in 0..12 {
        let mut yaw = rng.range_f32(-3.0, 3.0);
        let mut cmd = Cmd { f: 0, s: 0, yaw };
        let v = Vec3::new(
            rng.range_f32(-500.0, 500.0),
            rng.range_f32(0.0, 300.0),
            rng.range_f32(-500.0, 500.0),
        );
        let ticks = (0..250)
            .map(|_| {
                if rng.below(20) == 0 {
                    cmd.f = rng.below(3) as i32 - 1;
                    cmd.s = rng.below(3) as i32 - 1;
                }
                yaw += rng.range_f32(-0.05, 0.05);
                cmd.yaw = yaw;
                cmd
            })
            .collect();
        out.push(("random", v, ticks));
    }
    out
}

fn input(c: Cmd) -> MoveInput {
    MoveInput::new(Vec2::new(c.f as f32, c.s as f32), false, yaw_forward(c.yaw))
}

fn forward3(c: Cmd) -> [f32; 3] {
    let f = yaw_forward(c.yaw);
    [f.x, f.y, 0.0]
}

/// [`super::quake_ref::rel`] of two hopkit vectors.
fn rel(a: Vec3, b: Vec3, scale: f32) -> f32 {
    super::quake_ref::rel([a.x, a.y, a.z], [b.x, b.y, b.z], scale)
}

#[test]
fn cpm_air_step_follows_the_reference_per_tick() {
    let p = MoveParams::cpma();
    let mut worst = 0.0f32;
    let mut air_control_ticks = 0;
    for (name, v0, cmds) in scripts() {
        let mut s = MoverState::new(Vec3::new(0.0, 1000.0, 0.0));
        s.velocity = v0;
        let mut dir = 0;
        for (t, &c) in cmds.iter().enumerate() {
            let mut r = to_ref(&s, dir);
            r.air_tick(forward3(c), 127 * c.f, 127 * c.s, DT);
            dir = r.movement_dir;
            let before = s.velocity;
            step(&mut s, &p, &input(c), &NoGround, DT);
            assert!(!s.grounded);
            let rv = ref_velocity(&r);
            let e = rel(s.velocity, rv, rv.length());
            assert!(
                e <= PER_TICK_REL,
                "{name} tick {t}: hopkit {:?} reference {rv:?} (rel {e:e})",
                s.velocity
            );
            let ep = (s.position - ref_position(&r)).length();
            assert!(
                ep <= 1e-6 * s.position.length().max(1.0) + 1e-4,
                "{name} tick {t}: position off by {ep}"
            );
            worst = worst.max(e);
            // Count ticks where air control actually turned the velocity by more than 0.1°.
            let (a, b) = (before.planar(), s.velocity.planar());
            if c.f != 0 && c.s == 0 && a.length() > 1.0 {
                let cross = (a.x * b.y - a.y * b.x) / (a.length() * b.length());
                air_control_ticks += (cross.abs() > 0.0017) as u32;
            }
        }
    }
    println!("CPM per-tick max relative velocity deviation: {worst:e} (bound {PER_TICK_REL:e}), {air_control_ticks} air-control turning ticks");
    assert!(
        air_control_ticks > 100,
        "the scripts must exercise air control"
    );
}

#[test]
fn cpm_air_step_follows_the_reference_free_running() {
    let p = MoveParams::cpma();
    let mut worst_v = 0.0f32;
    let mut worst_p = 0.0f32;
    for (name, v0, cmds) in scripts() {
        let mut s = MoverState::new(Vec3::new(0.0, 1000.0, 0.0));
        s.velocity = v0;
        let mut r = to_ref(&s, 0);
        let start = s.position;
        for &c in &cmds {
            r.air_tick(forward3(c), 127 * c.f, 127 * c.s, DT);
            step(&mut s, &p, &input(c), &NoGround, DT);
        }
        let rv = ref_velocity(&r);
        let ev = rel(s.velocity, rv, rv.length());
        let rp = ref_position(&r);
        let ep = rel(s.position, rp, (rp - start).length());
        assert!(
            ev <= RUN_REL && ep <= RUN_REL,
            "{name}: velocity {:?} vs {rv:?} ({ev:e}), position {:?} vs {rp:?} ({ep:e})",
            s.velocity,
            s.position
        );
        worst_v = worst_v.max(ev);
        worst_p = worst_p.max(ep);
    }
    println!(
        "CPM free-running (250 ticks) max relative deviation: velocity {worst_v:e}, position {worst_p:e} (bound {RUN_REL:e})"
    );
}

/// The features are real: against plain Quake III, the same scripts end elsewhere.
#[test]
fn cpm_differs_from_quake3_where_it_should() {
    let run = |p: &MoveParams, cmds: &[Cmd], v0: Vec3| {
        let mut s = MoverState::new(Vec3::new(0.0, 1000.0, 0.0));
        s.velocity = v0;
        for &c in cmds {
            step(&mut s, p, &input(c), &NoGround, DT);
        }
        s
    };
    let (cpm, q3) = (MoveParams::cpma(), MoveParams::quake3());
    let scripts = scripts();
    // Strafe-only with the view along the velocity (the wish at 90° to it), 0.5 s: CPM adds
    // 70·30·dt = 16.8 ups sideways per tick against Quake III's 1·320·dt = 2.56, so it turns
    // ≈ 2.4° per tick at 400 ups against ≈ 0.37°: CPM's sharp "A/D" turns.
    let strafe_turn = |p: &MoveParams| {
        let mut s = MoverState::new(Vec3::new(0.0, 1000.0, 0.0));
        s.velocity = Vec3::new(0.0, 270.0, -400.0);
        let mut turned = 0.0f32;
        for _ in 0..62 {
            let a = s.velocity.planar();
            let facing = a * (1.0 / a.length());
            step(
                &mut s,
                p,
                &MoveInput::new(Vec2::new(0.0, 1.0), false, facing),
                &NoGround,
                DT,
            );
            let b = s.velocity.planar();
            turned += (a.x * b.y - a.y * b.x).atan2(a.dot(b)).to_degrees();
        }
        turned.abs()
    };
    let (tc, tq) = (strafe_turn(&cpm), strafe_turn(&q3));
    println!("strafe-only turn in 0.5 s: CPM {tc}°, Quake III {tq}°");
    assert!(tc > 100.0 && tq < 30.0, "cpm {tc}°, q3 {tq}°");
    // W-only turn: CPM's velocity follows the view (now 2 s · 90°/s = 171.9° round), Q3's barely.
    let (_, v0, w) = &scripts[1];
    let turned = |s: MoverState| {
        let (a, b) = (v0.planar(), s.velocity.planar());
        (a.x * b.y - a.y * b.x).atan2(a.dot(b)).to_degrees()
    };
    let (hc, hq) = (turned(run(&cpm, w, *v0)), turned(run(&q3, w, *v0)));
    println!("W-only turn after 2 s: CPM {hc}°, Quake III {hq}°");
    assert!(hc.abs() > 90.0 && hq.abs() < 60.0, "cpm {hc}°, q3 {hq}°");
}
