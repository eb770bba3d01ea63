//! `kind = "slope"`: a walker running a straight line over the demo level's ramps, its body
//! tilting to the ground it stands on.

use std::path::Path;

use anyhow::Result;
use hopkit::math::{Quat, Vec2, Vec3};
use hopkit::movement::{facing_from_yaw, step, MoveInput, MoveParams, MoverState};
use hopkit::slope::{SlopeParams, SlopeState};
use hopkit_demo::level::DemoGround;
use serde::Deserialize;

use super::config::{degrees, point, positive};
use super::driver::{mover_trace, over_time, Progress, MAIN};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::plot::{PlotSpec, Series};
use crate::readout::num;
use crate::trace::{extras, flag, Trace};

/// `[slope]`: a walker running a straight line across the demo level's ramps.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Slope {
    /// Start `[x, z]`, each within ±[`COORD_LIMIT`](super::config::COORD_LIMIT). Default
    /// `[0, -24]` (runs over the 20° ramp along +X).
    #[serde(deserialize_with = "point")]
    pub start: [f32; 2],
    /// Walking direction in degrees, yaw convention (0 = −Z, 90 = −X). Default −90 (towards +X).
    #[serde(deserialize_with = "degrees")]
    pub heading_deg: f32,
    /// Walking speed, units/s. Default 5.
    #[serde(deserialize_with = "positive")]
    pub speed: f32,
}

impl Default for Slope {
    fn default() -> Self {
        Slope {
            start: [0.0, -24.0],
            heading_deg: -90.0,
            speed: 5.0,
        }
    }
}

/// The `slope` kind.
pub struct SlopeScenario;

impl Scenario for SlopeScenario {
    fn kind(&self) -> Kind {
        Kind::Slope
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "slope",
            help: "tilting over the ramps",
            file: include_str!("../../scenarios/slope.toml"),
        }]
    }

    /// Extra columns: `tilt_deg`, `ground_slope_deg`, `ground_normal_y`, `grounded`.
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let s = file.slope.clone().unwrap_or_default();
        let ground = DemoGround;
        let mut params = MoveParams::seed();
        params.max_speed = s.speed;
        let yaw = s.heading_deg.to_radians();
        let facing = facing_from_yaw(yaw);
        let mut mover = MoverState::new(Vec3::new(s.start[0], 0.0, s.start[1]));
        let slope_params = SlopeParams::seed();
        let mut tilt = SlopeState::new();
        let body = Quat::from_yaw(yaw);
        let columns = [
            "tilt_deg",
            "ground_slope_deg",
            "ground_normal_y",
            "grounded",
        ];
        Ok(mover_trace(file, progress, "walker", &columns, |_, dt| {
            let input = MoveInput::new(Vec2::new(1.0, 0.0), false, facing);
            step(&mut mover, &params, &input, &ground, dt);
            let normal = mover.grounded.then_some(mover.ground_normal);
            hopkit::slope::step(&mut tilt, &slope_params, body, normal, dt);
            let extra = extras(&[
                tilt.tilt_angle().to_degrees(),
                slope_deg(mover.ground_normal),
                mover.ground_normal.y,
                flag(mover.grounded),
            ]);
            (mover, extra)
        }))
    }

    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let max = |i: usize| trace.samples.iter().map(|s| s.extra[i]).fold(0.0, f32::max);
        vec![format!(
            "steepest ground {} degrees, largest tilt {} degrees",
            num(max(1), 1),
            num(max(0), 1)
        )]
    }

    /// The body's tilt over time against the slope of the ground under the walker.
    fn plot(&self, _: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        // The ground slope only where the walker stands on it (gaps while airborne).
        let ground: Vec<(f64, f64)> = trace
            .samples
            .iter()
            .map(|s| {
                let y = if s.flag(3) {
                    f64::from(s.extra[1])
                } else {
                    f64::NAN
                };
                (f64::from(s.time), y)
            })
            .collect();
        PlotSpec {
            title: title.to_string(),
            x_label: "time (s)".into(),
            y_label: "angle from upright (degrees)".into(),
            series: vec![
                Series::area("ground slope (none in the air)", ground, (40, 90, 210)),
                Series::line("body tilt", over_time(trace, |s| s.extra[0]), MAIN),
            ],
            y_from_zero: true,
            ..PlotSpec::default()
        }
    }
}

/// Angle of the ground with normal `n` from horizontal, degrees (host-side maths).
fn slope_deg(n: Vec3) -> f32 {
    let len = n.length();
    if len > 0.0 && len.is_finite() {
        (n.y / len).clamp(-1.0, 1.0).acos().to_degrees()
    } else {
        0.0
    }
}
