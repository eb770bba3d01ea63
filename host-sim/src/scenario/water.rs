//! `kind = "water"`: walking into a pool, sinking, swimming up, and the water jump out at the
//! edge.

use std::path::Path;

use anyhow::Result;
use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{facing_from_yaw, step, MoveInput, MoveParams, MoverState};
use serde::Deserialize;

use super::config::{coord, non_negative, pitch};
use super::driver::{end_time, mover_trace, over_time, Progress};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::plot::{PlotSpec, Series};
use crate::readout::num;
use crate::trace::{extras, flag, Trace};

/// The `water` scenario's water surface height, world units.
pub const POOL_SURFACE: f32 = -16.0;
/// The `water` scenario's pool floor height, world units.
pub const POOL_FLOOR: f32 = -80.0;
/// Where the `water` scenario's pool ends (the edge wall up to the ledge at 0), world units.
pub const POOL_EDGE: f32 = 520.0;

/// The `water` course (Quake units): dry floor at 0 for x < 0, a ramp down to the pool floor at
/// [`POOL_FLOOR`] over x 0..160, the floor to [`POOL_EDGE`], then the edge: a wall up to a ledge
/// at 0. Water up to [`POOL_SURFACE`] over the pool (0 < x < the edge).
struct Pool;

/// The `water` course's floor height at `x`.
fn pool_floor(x: f32) -> f32 {
    if !(0.0..POOL_EDGE).contains(&x) {
        0.0
    } else if x < 160.0 {
        -x * 0.5
    } else {
        POOL_FLOOR
    }
}

impl GroundProbe for Pool {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let ramp = (0.0..160.0).contains(&p.x);
        // The ramp falls 1 unit per 2 along +X: its normal leans towards +X.
        let normal = if ramp {
            Vec3::new(0.447_213_6, 0.894_427_2, 0.0)
        } else {
            Vec3::UP
        };
        Some(GroundHit {
            height: pool_floor(p.x),
            normal,
        })
    }
    fn water(&self, feet: Vec3) -> Option<f32> {
        (feet.x > 0.0 && feet.x < POOL_EDGE).then_some(POOL_SURFACE)
    }
}

/// `[water]`: a QuakeWorld character walks down a ramp into a pool, swims on, sinks to the
/// floor, swims up with the jump key, then swims up and ahead to the edge and jumps out.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Water {
    /// Where the walk-in/swim phase stops (x, world units). Default 300.
    #[serde(deserialize_with = "coord")]
    pub stop_x: f32,
    /// Seconds with no keys (sinking). Default 1.5.
    #[serde(deserialize_with = "non_negative")]
    pub sink_for: f32,
    /// Seconds with the jump key held (swimming up at 100). Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub swim_up_for: f32,
    /// View pitch of the last phase (W towards the edge), degrees up. Default 20.
    #[serde(deserialize_with = "pitch")]
    pub pitch_deg: f32,
}

impl Default for Water {
    fn default() -> Self {
        Water {
            stop_x: 300.0,
            sink_for: 1.5,
            swim_up_for: 0.5,
            pitch_deg: 20.0,
        }
    }
}

/// The `water` kind.
pub struct WaterScenario;

impl Scenario for WaterScenario {
    fn kind(&self) -> Kind {
        Kind::Water
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "water",
            help: "into a pool, sinking, swimming up, the water jump out",
            file: include_str!("../../scenarios/water.toml"),
        }]
    }

    /// A QuakeWorld character (`MoveParams::quakeworld()`: water accelerate 10, friction 4,
    /// swimming at 0.7 × 320) faces the pool (+X). Phases: 0 W with a level view: walks down the
    /// ramp into the water and swims on at its depth until x ≥ `stop_x`; 1 no keys for
    /// `sink_for` seconds: sinks to the floor; 2 the jump key for `swim_up_for` seconds: swims
    /// up at 100; 3 W with the view `pitch_deg` up: swims up and ahead to the surface and the
    /// edge, where the water jump takes it out onto the ledge. Extra columns: `grounded`,
    /// `water_level` (0–3), `water_jump` (its timer runs), `jumped`, `phase`.
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let c = file.water.clone().unwrap_or_default();
        let params = MoveParams::quakeworld();
        let mut s = MoverState::new(Vec3::new(-60.0, 0.0, 0.0));
        let east = facing_from_yaw(-core::f32::consts::FRAC_PI_2);
        let (mut phase, mut since) = (0u8, 0.0f32);
        let columns = ["grounded", "water_level", "water_jump", "jumped", "phase"];
        Ok(mover_trace(
            file,
            progress,
            "character",
            &columns,
            |_, dt| {
                let next = match phase {
                    0 if s.position.x >= c.stop_x => 1,
                    1 if since >= c.sink_for => 2,
                    2 if since >= c.swim_up_for => 3,
                    p => p,
                };
                if next != phase {
                    (phase, since) = (next, 0.0);
                }
                since += dt;
                let (front, jump, pitch) = match phase {
                    0 => (1.0, false, 0.0),
                    1 => (0.0, false, 0.0),
                    2 => (0.0, true, 0.0),
                    _ => (1.0, false, c.pitch_deg.to_radians()),
                };
                let input = MoveInput::new(Vec2::new(front, 0.0), jump, east).with_pitch(pitch);
                let ev = step(&mut s, &params, &input, &Pool, dt);
                let extra = extras(&[
                    flag(s.grounded),
                    f32::from(hopkit::movement::water_level(&Pool, s.position, &params)),
                    flag(s.water_jump_timer > 0.0),
                    flag(ev.jumped),
                    f32::from(phase),
                ]);
                (s, extra)
            },
        ))
    }

    /// Findings of a `water` run: how deep it went, the slowest sinking, the water jump, the end.
    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let mut out = vec![];
        if let Some(deep) = trace
            .samples
            .iter()
            .min_by(|a, b| a.position.y.total_cmp(&b.position.y))
        {
            out.push(format!(
                "deepest feet at height {} (floor {}, surface {})",
                num(deep.position.y, 1),
                num(POOL_FLOOR, 0),
                num(POOL_SURFACE, 0)
            ));
        }
        let sinking = trace
            .samples
            .iter()
            .filter(|s| s.extra[4] == 1.0 && !s.flag(0))
            .map(|s| s.velocity.y)
            .fold(0.0f32, f32::min);
        out.push(format!(
            "fastest sinking with no keys: {} world units/s (no gravity in water)",
            num(-sinking, 1)
        ));
        if let Some(s) = trace.samples.iter().find(|s| s.flag(3) && s.flag(2)) {
            out.push(format!(
                "water jump at x {} with {} world units/s up",
                num(s.position.x, 1),
                num(s.velocity.y, 1)
            ));
        }
        let out_on_ledge = trace
            .samples
            .last()
            .is_some_and(|s| s.flag(0) && s.position.x >= POOL_EDGE && s.position.y == 0.0);
        out.push(format!(
            "out of the pool on the ledge at the end: {}",
            if out_on_ledge { "yes" } else { "no" }
        ));
        out
    }

    /// The feet's height against time, with the floor under them and the water surface (the
    /// sinking, swimming up and the water jump read off as slopes).
    fn plot(&self, _: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        let surface = f64::from(POOL_SURFACE);
        PlotSpec {
            title: format!("{title} (height over time)"),
            x_label: "time (s)".into(),
            y_label: "height (world units)".into(),
            series: vec![
                Series::line(
                    "floor under the feet",
                    over_time(trace, |s| pool_floor(s.position.x)),
                    (90, 90, 100),
                ),
                Series::dashed(
                    "water surface",
                    vec![(0.0, surface), (end_time(trace), surface)],
                    (40, 110, 220),
                ),
                Series::line("feet", over_time(trace, |s| s.position.y), (215, 60, 40)),
            ],
            ..PlotSpec::default()
        }
    }
}
