//! `kind = "platform"`: standing still on a turntable, carried round with it, then jumping off
//! it with the table's velocity.

use std::path::Path;

use anyhow::Result;
use hopkit::ground::{GroundHit, GroundProbe, SurfaceMotion};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{facing_from_yaw, step, MoveInput, MoveParams, MoverState};
use serde::Deserialize;

use super::config::{degrees, non_negative};
use super::driver::{mover_trace, Progress};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::readout::num;
use crate::trace::{extras, flag, Path2, Trace};

/// The `platform` scenario's turntable: radius 6 at height 0.5 about the origin.
struct Turntable {
    yaw_rate: f32,
}

/// Radius of the `platform` scenario's turntable, world units.
pub const TURNTABLE_RADIUS: f32 = 6.0;
/// Height of its top, world units.
pub const TURNTABLE_TOP: f32 = 0.5;

impl Turntable {
    fn on(p: Vec3) -> bool {
        p.x * p.x + p.z * p.z <= TURNTABLE_RADIUS * TURNTABLE_RADIUS
    }
}

impl GroundProbe for Turntable {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if Turntable::on(p) { TURNTABLE_TOP } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn surface_motion(&self, p: Vec3) -> SurfaceMotion {
        if Turntable::on(p) {
            SurfaceMotion::rotating(Vec3::ZERO, self.yaw_rate)
        } else {
            SurfaceMotion::STILL
        }
    }
}

/// `[platform]`: a character (`MoveParams::seed()`, metres) standing still on a turntable — a disc
/// of radius 6 at height 0.5 turning about the origin — carried round with it, then jumping
/// (straight up, no input) at `jump_at` seconds: it keeps the table's velocity at its feet and
/// flies off on the tangent onto the floor.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Platform {
    /// Turning rate of the table, degrees per second (positive turns left). Default 60.
    #[serde(deserialize_with = "degrees")]
    pub yaw_rate_deg: f32,
    /// Where the character stands, distance from the centre, world units (at most 6). Default 5.5.
    #[serde(deserialize_with = "non_negative")]
    pub radius: f32,
    /// When it jumps, seconds. Default 4.
    #[serde(deserialize_with = "non_negative")]
    pub jump_at: f32,
}

impl Default for Platform {
    fn default() -> Self {
        Platform {
            yaw_rate_deg: 60.0,
            radius: 5.5,
            jump_at: 4.0,
        }
    }
}

/// The `platform` kind.
pub struct PlatformScenario;

impl Scenario for PlatformScenario {
    fn kind(&self) -> Kind {
        Kind::Platform
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "platform",
            help: "carried by a turntable, then jumping off it",
            file: include_str!("../../scenarios/platform.toml"),
        }]
    }

    /// Extra columns: `grounded`, `on_table` (feet over the turntable), `carried_yaw_deg` (the
    /// view turned by the table so far), `spot_error` (distance from the spot of the table the
    /// character started on, while it has not jumped; 0 after), `jumped`.
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let c = file.platform.clone().unwrap_or_default();
        let rate = c.yaw_rate_deg.to_radians();
        let table = Turntable { yaw_rate: rate };
        let params = MoveParams::seed();
        let r = c.radius.min(TURNTABLE_RADIUS);
        let mut s = MoverState::new(Vec3::new(r, TURNTABLE_TOP, 0.0));
        s.grounded = true; // standing on it at rest
        let mut yaw = 0.0f32;
        let mut jumped = false;
        let mut table_path = vec![];
        let columns = [
            "grounded",
            "on_table",
            "carried_yaw_deg",
            "spot_error",
            "jumped",
        ];
        let mut trace = mover_trace(file, progress, "character", &columns, |t, dt| {
            let time = t as f32 * dt;
            let jump = !jumped && time >= c.jump_at;
            let input = MoveInput::new(Vec2::ZERO, jump, facing_from_yaw(yaw));
            let ev = step(&mut s, &params, &input, &table, dt);
            yaw += ev.carried_yaw;
            jumped |= ev.jumped;
            // The spot the character started on, turned with the table (f64 for the reference).
            let a = f64::from(rate) * f64::from(t + 1) * f64::from(dt);
            let spot = (f64::from(r) * a.cos(), -f64::from(r) * a.sin());
            table_path.push((spot.0 as f32 as f64, spot.1 as f32 as f64));
            let spot_error = if jumped {
                0.0
            } else {
                let (dx, dz) = (
                    f64::from(s.position.x) - spot.0,
                    f64::from(s.position.z) - spot.1,
                );
                (dx * dx + dz * dz).sqrt() as f32
            };
            let extra = extras(&[
                flag(s.grounded),
                flag(Turntable::on(s.position)),
                yaw.to_degrees(),
                spot_error,
                flag(ev.jumped),
            ]);
            (s, extra)
        });
        trace.others.push(Path2 {
            label: "the starting spot on the table".into(),
            points: table_path,
        });
        trace.others.push(Path2 {
            label: "table edge".into(),
            points: (0..=64)
                .map(|i| {
                    let a = f64::from(i) / 64.0 * std::f64::consts::TAU;
                    (
                        f64::from(TURNTABLE_RADIUS) * a.cos(),
                        f64::from(TURNTABLE_RADIUS) * a.sin(),
                    )
                })
                .collect(),
        });
        Ok(trace)
    }

    /// Findings of a `platform` run: how far the character drifted from its spot on the table, how
    /// far the view turned with it, and where it landed.
    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let drift = trace.samples.iter().map(|s| s.extra[3]).fold(0.0, f32::max);
        let mut out = vec![format!(
            "largest distance from the spot on the table while standing: {} world units",
            num(drift, 6)
        )];
        if let Some(j) = trace.samples.iter().position(|s| s.flag(4)) {
            let s = &trace.samples[j];
            out.push(format!(
                "jumped at {} s with the table's velocity {} world units/s; view turned {} degrees",
                num(s.time, 2),
                num(s.speed, 3),
                num(s.extra[2], 1)
            ));
        }
        out
    }
}
