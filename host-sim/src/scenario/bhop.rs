//! `kind = "bhop"`: strafe-jumping from a standing start, jump held (auto-hop), on flat ground;
//! the speed over time against the ground max.

use std::path::Path;

use anyhow::Result;
use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{
    air_cap_and_budget, facing_from_yaw, optimal_strafe_cos, step, MoveInput, MoveParams,
    MoverState,
};
use serde::Deserialize;

use super::config::{non_negative, opt_non_negative, opt_positive, positive};
use super::driver::{end_time, mover_trace, Progress, MAIN};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::plot::{PlotSpec, Series};
use crate::readout::num;
use crate::trace::{extras, flag, Trace};

/// `[bhop]`: strafe-jumping from a standing start, jump held (auto-hop), on flat ground.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Bhop {
    /// Movement preset: `seed`, `seed-figure`, `quakeworld`, `q3`, `source`, `cpma`. Default
    /// `seed-figure`.
    pub preset: Preset,
    /// Pilot: `optimal` or `keys`. Default `optimal`.
    pub pilot: Pilot,
    /// Seconds of running forward on the ground before the first jump. Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub run_up: f32,
    /// `keys` pilot: view turn rate, degrees per second. Default 180.
    #[serde(deserialize_with = "positive")]
    pub turn_rate_deg: f32,
    /// Override `MoveParams::auto_hop` (jump again on landing while jump is held). Default: forced
    /// on (the pilot never releases the key).
    pub auto_hop: Option<bool>,
    /// Override `MoveParams::max_speed` (ground max speed), units/s.
    #[serde(deserialize_with = "opt_positive")]
    pub max_speed: Option<f32>,
    /// Override `MoveParams::accel` (ground acceleration).
    #[serde(deserialize_with = "opt_non_negative")]
    pub accel: Option<f32>,
    /// Override `MoveParams::air_max_speed` (air wish speed), units/s.
    #[serde(deserialize_with = "opt_positive")]
    pub air_max_speed: Option<f32>,
    /// Override `MoveParams::air_accel` (air acceleration).
    #[serde(deserialize_with = "opt_non_negative")]
    pub air_accel: Option<f32>,
    /// Override `MoveParams::air_wish_cap` (Quake's 30), units/s.
    #[serde(deserialize_with = "opt_positive")]
    pub air_wish_cap: Option<f32>,
    /// Override `MoveParams::friction`.
    #[serde(deserialize_with = "opt_non_negative")]
    pub friction: Option<f32>,
    /// Override `MoveParams::gravity`, units/s².
    #[serde(deserialize_with = "opt_non_negative")]
    pub gravity: Option<f32>,
    /// Override `MoveParams::jump_speed`, units/s.
    #[serde(deserialize_with = "opt_non_negative")]
    pub jump_speed: Option<f32>,
}

impl Default for Bhop {
    fn default() -> Self {
        Bhop {
            preset: Preset::SeedFigure,
            pilot: Pilot::Optimal,
            run_up: 0.5,
            turn_rate_deg: 180.0,
            auto_hop: None,
            max_speed: None,
            accel: None,
            air_max_speed: None,
            air_accel: None,
            air_wish_cap: None,
            friction: None,
            gravity: None,
            jump_speed: None,
        }
    }
}

/// Movement preset names (`hopkit::movement::MoveParams` constructors).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// `MoveParams::seed()`: the seed article's code constants (metres; ground max 10, air 0.5).
    Seed,
    /// `MoveParams::seed_figure()`: the seed with the ground max of its figure 1 (7.7).
    #[default]
    SeedFigure,
    /// `MoveParams::quakeworld()` (Quake units; ground max 320, air wish cap 30).
    Quakeworld,
    /// `MoveParams::quake3()` (Quake units; air accelerate 1, no air cap).
    Q3,
    /// `MoveParams::source()` (Quake units; ground max 250, air wish cap 30).
    Source,
    /// `MoveParams::cpma()` (Quake units; Quake III with CPM's air step). The `optimal` pilot
    /// aims for the plain air step, not CPM's strafe-only one.
    Cpma,
}

/// How the bhop pilot steers.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Pilot {
    /// Hold a strafe key and turn the view so that the wish direction sits at the optimal strafe
    /// angle to the velocity every tick (`hopkit::movement::optimal_strafe_cos`): the speed-gain
    /// oracle.
    #[default]
    Optimal,
    /// Hold one strafe key and turn at a constant `turn_rate_deg` towards it, switching sides on
    /// every jump (what a player does with A/D and the mouse).
    Keys,
}

/// The `bhop` kind.
pub struct BhopScenario;

impl Scenario for BhopScenario {
    fn kind(&self) -> Kind {
        Kind::Bhop
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "bhop",
            help: "strafe-jumping speed gain",
            file: include_str!("../../scenarios/bhop.toml"),
        }]
    }

    fn default_seconds(&self) -> f64 {
        15.0
    }

    /// Extra columns: `grounded`, `jumped`, `yaw_deg`, `ground_max_speed`.
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let b = file.bhop.clone().unwrap_or_default();
        let params = move_params(&b);
        let ground = FlatGround::new(0.0);
        let mut state = MoverState::new(Vec3::ZERO);
        let run_up_ticks = (b.run_up * file.tick_hz as f32).round() as u32;
        let mut yaw = 0.0f32;
        // +1: strafe right (D) turning right; −1: strafe left (A) turning left.
        let mut side = 1.0f32;
        let columns = ["grounded", "jumped", "yaw_deg", "ground_max_speed"];
        Ok(mover_trace(file, progress, "player", &columns, |t, dt| {
            let input = if t < run_up_ticks {
                MoveInput::with_yaw(Vec2::new(1.0, 0.0), false, yaw)
            } else {
                let wish = Vec2::new(0.0, side);
                let facing = match b.pilot {
                    Pilot::Optimal => optimal_facing(&state, &params, side, dt, yaw),
                    Pilot::Keys => {
                        // Turning right is negative yaw.
                        yaw -= side * b.turn_rate_deg.to_radians() * dt;
                        facing_from_yaw(yaw)
                    }
                };
                if b.pilot == Pilot::Optimal {
                    yaw = (-facing.x).atan2(-facing.y);
                }
                MoveInput::new(wish, true, facing)
            };
            let ev = step(&mut state, &params, &input, &ground, dt);
            if ev.jumped && b.pilot == Pilot::Keys && t > run_up_ticks {
                side = -side;
            }
            let extra = extras(&[
                flag(state.grounded),
                flag(ev.jumped),
                yaw.to_degrees(),
                params.max_speed,
            ]);
            (state, extra)
        }))
    }

    fn findings(&self, file: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let gmax = move_params(&file.bhop.clone().unwrap_or_default()).max_speed;
        let top = trace.max_speed();
        let jumps = trace.samples.iter().filter(|s| s.flag(1)).count();
        vec![
            format!(
                "ground max {} world units/s; top speed {} = {}x ground max",
                num(gmax, 3),
                num(top, 3),
                num(top / gmax, 2)
            ),
            format!("{jumps} jumps"),
        ]
    }

    /// Speed over time against the ground max and twice it.
    fn plot(&self, _: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        let end = end_time(trace);
        let gmax = trace.samples.first().map_or(0.0, |s| f64::from(s.extra[3]));
        let speed: Vec<(f64, f64)> = trace
            .samples
            .iter()
            .map(|s| (f64::from(s.time), f64::from(s.speed)))
            .collect();
        PlotSpec {
            title: title.to_string(),
            x_label: "time (s)".into(),
            y_label: "horizontal speed (world units/s)".into(),
            series: vec![
                Series::line("speed", speed, MAIN),
                Series::dashed(
                    &format!("ground max ({})", num(gmax, 1)),
                    vec![(0.0, gmax), (end, gmax)],
                    (40, 90, 210),
                ),
                Series::dashed(
                    "2x ground max",
                    vec![(0.0, 2.0 * gmax), (end, 2.0 * gmax)],
                    (150, 150, 165),
                ),
            ],
            y_from_zero: true,
            ..PlotSpec::default()
        }
    }
}

/// The movement parameters of a `[bhop]` section: preset plus overrides.
pub fn move_params(b: &Bhop) -> MoveParams {
    let mut p = match b.preset {
        Preset::Seed => MoveParams::seed(),
        Preset::SeedFigure => MoveParams::seed_figure(),
        Preset::Quakeworld => MoveParams::quakeworld(),
        Preset::Q3 => MoveParams::quake3(),
        Preset::Source => MoveParams::source(),
        Preset::Cpma => MoveParams::cpma(),
    };
    // The pilot holds jump the whole time, so without auto-hop it would jump once.
    p.auto_hop = b.auto_hop.unwrap_or(true);
    let set = |dst: &mut f32, v: Option<f32>| {
        if let Some(v) = v {
            *dst = v;
        }
    };
    set(&mut p.max_speed, b.max_speed);
    set(&mut p.accel, b.accel);
    set(&mut p.air_max_speed, b.air_max_speed);
    set(&mut p.air_accel, b.air_accel);
    set(&mut p.air_wish_cap, b.air_wish_cap);
    set(&mut p.friction, b.friction);
    set(&mut p.gravity, b.gravity);
    set(&mut p.jump_speed, b.jump_speed);
    p
}

/// Rotate planar `v` counter-clockwise seen from above (positive yaw direction) by `angle` rad.
/// Host-side helper (std maths is fine outside the core).
fn rotate_left(v: Vec2, angle: f32) -> Vec2 {
    let (s, c) = angle.sin_cos();
    Vec2::new(v.x * c + v.y * s, -v.x * s + v.y * c)
}

/// The view direction that puts a pure strafe wish (`side` = +1 right, −1 left) at the optimal
/// strafe angle to the current velocity, turning towards the strafe side.
fn optimal_facing(state: &MoverState, params: &MoveParams, side: f32, dt: f32, yaw: f32) -> Vec2 {
    let v = state.velocity.planar();
    let speed = v.length();
    let Some(dir) = v.try_normalize() else {
        return facing_from_yaw(yaw);
    };
    let (cap, budget) = if state.grounded {
        (params.max_speed, params.accel * dt)
    } else {
        air_cap_and_budget(params, 1.0, dt)
    };
    let cos = optimal_strafe_cos(speed, cap, budget).clamp(-1.0, 1.0);
    let angle = cos.acos();
    // Wish direction: velocity rotated towards the strafe side (right = negative rotation).
    let wish = rotate_left(dir, -side * angle);
    // The wish is `side·right(facing)`; right(f) = (−f.y, f.x), so f = (w.y, −w.x)·side.
    Vec2::new(side * wish.y, -side * wish.x)
}
