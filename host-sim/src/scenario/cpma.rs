//! `kind = "cpma"`: CPM air control against Quake III — a CPM player and a Quake III one given
//! the same keys and view, so the CSV and the plot show the difference.

use std::path::Path;

use anyhow::Result;
use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{facing_from_yaw, step, MoveInput, MoveParams, MoverState};
use serde::Deserialize;

use super::config::{non_negative, positive};
use super::driver::{mover_trace, Progress};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::readout::num;
use crate::trace::{extras, flag, Path2, Sample, Trace};

/// When the `cpma` script switches from W-only turning to strafe-only, seconds.
pub const CPMA_STRAFE_FROM: f32 = 3.0;
/// When the `cpma` script switches from strafe-only to S-only, seconds.
pub const CPMA_BRAKE_FROM: f32 = 5.5;

/// The `cpma` scenario's key phase at `time`: 0 run-up (W on the ground), 1 W only (view
/// turning), 2 strafe only, 3 S only.
fn cpma_phase(time: f32, run_up: f32) -> u8 {
    if time < run_up {
        0
    } else if time < CPMA_STRAFE_FROM {
        1
    } else if time < CPMA_BRAKE_FROM {
        2
    } else {
        3
    }
}

/// `[cpma]`: a CPM player (`MoveParams::cpma()`) and a Quake III one (`MoveParams::quake3()`)
/// given the same keys and view, jump held (auto-hop) on flat ground, at the scenario's tick rate:
/// a run-up, then W only while the view turns (CPM's air control makes the velocity follow the
/// view; Quake III barely turns) until 3 s, then strafe keys only with the view along the CPM
/// player's velocity, switching sides on every jump (CPM's strafe acceleration turns sharply)
/// until 5.5 s, then S only (CPM's air stop acceleration brakes 2.5× harder in the air).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Cpma {
    /// Seconds of running forward on the ground before the first jump. Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub run_up: f32,
    /// View turn rate while W only is held, degrees per second (to the left). Default 90.
    #[serde(deserialize_with = "positive")]
    pub turn_rate_deg: f32,
}

impl Default for Cpma {
    fn default() -> Self {
        Cpma {
            run_up: 0.5,
            turn_rate_deg: 90.0,
        }
    }
}

/// The `cpma` kind.
pub struct CpmaScenario;

impl Scenario for CpmaScenario {
    fn kind(&self) -> Kind {
        Kind::Cpma
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "cpma",
            help: "CPM air control against Quake III",
            file: include_str!("../../scenarios/cpma.toml"),
        }]
    }

    /// The CPM player is the main actor; the Quake III player's path is the other. Extra
    /// columns: `grounded`, `phase` (0 run-up, 1 W-only, 2 strafe-only, 3 S-only), `yaw_deg`
    /// (the view), `q3_speed` (the Quake III player's horizontal speed), `heading_gap_deg`
    /// (angle between the view and the CPM player's velocity).
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let c = file.cpma.clone().unwrap_or_default();
        let (mut pc, mut pq) = (MoveParams::cpma(), MoveParams::quake3());
        // The pilot holds jump throughout.
        pc.auto_hop = true;
        pq.auto_hop = true;
        let ground = FlatGround::new(0.0);
        let (mut cpm, mut q3) = (MoverState::new(Vec3::ZERO), MoverState::new(Vec3::ZERO));
        let mut yaw = 0.0f32;
        let mut side = 1.0f32;
        let mut q3_path = vec![];
        let columns = [
            "grounded",
            "phase",
            "yaw_deg",
            "q3_speed",
            "heading_gap_deg",
        ];
        let mut trace = mover_trace(file, progress, "CPM", &columns, |t, dt| {
            let time = t as f32 * dt;
            let phase = cpma_phase(time, c.run_up);
            let (wish, jump, facing) = match phase {
                0 => (Vec2::new(1.0, 0.0), false, facing_from_yaw(yaw)),
                1 => {
                    yaw += c.turn_rate_deg.to_radians() * dt;
                    (Vec2::new(1.0, 0.0), true, facing_from_yaw(yaw))
                }
                2 => {
                    // The view along the CPM player's velocity: the strafe wish is at 90° to it.
                    let v = cpm.velocity.planar();
                    if let Some(d) = v.try_normalize() {
                        yaw = (-d.x).atan2(-d.y);
                    }
                    (Vec2::new(0.0, side), true, facing_from_yaw(yaw))
                }
                _ => (Vec2::new(-1.0, 0.0), true, facing_from_yaw(yaw)),
            };
            let input = MoveInput::new(wish, jump, facing);
            let ev = step(&mut cpm, &pc, &input, &ground, dt);
            step(&mut q3, &pq, &input, &ground, dt);
            if ev.jumped && phase == 2 {
                side = -side;
            }
            let v = cpm.velocity.planar();
            let gap = if v.length() > 1.0 {
                let f = facing_from_yaw(yaw);
                (f.x * v.y - f.y * v.x).atan2(f.dot(v)).to_degrees()
            } else {
                0.0
            };
            q3_path.push((f64::from(q3.position.x), f64::from(q3.position.z)));
            let extra = extras(&[
                flag(cpm.grounded),
                f32::from(phase),
                yaw.to_degrees(),
                q3.planar_speed(),
                gap,
            ]);
            (cpm, extra)
        });
        trace.others.push(Path2 {
            label: "Quake III (same keys and view)".into(),
            points: q3_path,
        });
        Ok(trace)
    }

    /// Findings of a `cpma` run: how closely each player's velocity followed the turning view in
    /// the W-only phase, and the top speeds.
    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let w_only: Vec<&Sample> = trace.samples.iter().filter(|s| s.extra[1] == 1.0).collect();
        let mut out = vec![];
        if let Some(last) = w_only.last() {
            out.push(format!(
                "end of the W-only turn: CPM velocity {} degrees off the view (view turned {} degrees)",
                num(last.extra[4].abs(), 1),
                num(last.extra[2], 1)
            ));
        }
        // Where each player is fastest, and why the faster one is.
        let peak = |speed: &dyn Fn(&Sample) -> f32| {
            trace.samples.iter().fold((0.0f32, 0u8), |(best, ph), s| {
                if speed(s) > best {
                    (speed(s), s.extra[1] as u8)
                } else {
                    (best, ph)
                }
            })
        };
        let (top, cpm_phase) = peak(&|s| s.speed);
        let (q3_top, q3_phase) = peak(&|s| s.extra[3]);
        let phase = |p: u8| match p {
            0 => "the run-up",
            1 => "the W-only turn",
            2 => "the strafe-only part",
            _ => "the S-only part",
        };
        out.push(format!(
            "top horizontal speed: CPM {} (in {}), Quake III {} (in {}) world units/s",
            num(top, 1),
            phase(cpm_phase),
            num(q3_top, 1),
            phase(q3_phase)
        ));
        if q3_top > top && q3_phase == 1 {
            out.push(
                "why Quake III is faster there: with W held its velocity lags the turning view, so \
                 every air tick accelerates at an angle to the velocity and adds speed (strafe-jumping \
                 by turning the view); CPM's air control turns the velocity with the view instead and \
                 keeps its speed"
                    .to_string(),
            );
        } else if top > q3_top && cpm_phase == 2 {
            out.push(
                "why CPM is faster there: with strafe keys only, CPM's strafe acceleration adds more \
                 speed each air tick than Quake III's air acceleration"
                    .to_string(),
            );
        }
        out
    }
}
