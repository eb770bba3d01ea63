//! `kind = "crouch"`: crouching through a tunnel, then a crouch-jump onto a ledge a plain jump
//! cannot reach.

use std::path::Path;

use anyhow::Result;
use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use serde::Deserialize;

use super::config::size;
use super::driver::{mover_trace, on_ledge_at_end, Progress};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::plot::{PlotSpec, Series};
use crate::readout::num;
use crate::trace::{extras, flag, Sample, Trace};

/// The `crouch` scenario's course (Source units, along +X): a tunnel `TUNNEL` (from, to) whose
/// ceiling is [`TUNNEL_CEILING`] above the floor, then a ledge [`LEDGE_HEIGHT`] high from
/// [`LEDGE_X`] on.
pub const TUNNEL: (f32, f32) = (150.0, 350.0);
/// Height of the tunnel's ceiling, world units (between Source's crouched 36 and standing 72).
pub const TUNNEL_CEILING: f32 = 50.0;
/// Where the ledge starts, world units.
pub const LEDGE_X: f32 = 640.0;
/// Height of the ledge, world units: more than a plain jump reaches (apex 45 + step-up 18), less
/// than a crouch-jump (45 + 36).
pub const LEDGE_HEIGHT: f32 = 70.0;

/// The `crouch` course as a probe.
struct Course;

impl GroundProbe for Course {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if p.x >= LEDGE_X { LEDGE_HEIGHT } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn clearance(&self, feet: Vec3) -> f32 {
        if feet.x >= TUNNEL.0 && feet.x < TUNNEL.1 {
            TUNNEL_CEILING - feet.y
        } else {
            f32::INFINITY
        }
    }
}

/// `[crouch]`: a Source character (`MoveParams::source()`, Quake units) runs along +X through a
/// 50-unit tunnel from x = 150 to 350 (crouching before it, letting go of the key just inside:
/// it stays crouched until it is out) and jumps at `jump_x` towards a 70-unit ledge at x = 640,
/// crouching in the air (the crouch-jump) if `crouch_jump`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Crouch {
    /// Where it jumps, world units along X. Default 560.
    #[serde(deserialize_with = "size")]
    pub jump_x: f32,
    /// Crouch two ticks after the jump (reaching the ledge). Default true.
    pub crouch_jump: bool,
}

impl Default for Crouch {
    fn default() -> Self {
        Crouch {
            jump_x: 560.0,
            crouch_jump: true,
        }
    }
}

/// The `crouch` kind.
pub struct CrouchScenario;

impl Scenario for CrouchScenario {
    fn kind(&self) -> Kind {
        Kind::Crouch
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "crouch",
            help: "a tunnel and a crouch-jump",
            file: include_str!("../../scenarios/crouch.toml"),
        }]
    }

    /// A Source character (`MoveParams::source()`) runs along +X; it crouches before the tunnel
    /// and lets go of the key just inside it (it stays crouched, slow, until it is out), then
    /// runs on and jumps at `jump_x`, crouching two ticks later (`crouch_jump = true`) or not, at
    /// the ledge. Extra columns: `grounded`, `crouched`, `head_y` (feet + body height),
    /// `crouch_key`, `ceiling_y` (the tunnel's ceiling above the character, 0 elsewhere).
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let c = file.crouch.clone().unwrap_or_default();
        let params = MoveParams::source();
        let mut s = MoverState::new(Vec3::ZERO);
        let mut jumped_at = None;
        let columns = ["grounded", "crouched", "head_y", "crouch_key", "ceiling_y"];
        Ok(mover_trace(
            file,
            progress,
            "character",
            &columns,
            |t, dt| {
                let x = s.position.x;
                let jump = jumped_at.is_none() && x >= c.jump_x && s.grounded;
                if jump {
                    jumped_at = Some(t);
                }
                let key = (x >= TUNNEL.0 - 60.0 && x < TUNNEL.0 + 20.0)
                    || (c.crouch_jump && jumped_at.is_some_and(|j| t >= j + 2));
                let input =
                    MoveInput::new(Vec2::new(1.0, 0.0), jump, Vec2::new(1.0, 0.0)).with_crouch(key);
                step(&mut s, &params, &input, &Course, dt);
                let ceiling = if s.position.x >= TUNNEL.0 && s.position.x < TUNNEL.1 {
                    TUNNEL_CEILING
                } else {
                    0.0
                };
                let extra = extras(&[
                    flag(s.grounded),
                    flag(s.crouched),
                    s.position.y + hopkit::movement::crouch_height(&s, &params),
                    flag(key),
                    ceiling,
                ]);
                (s, extra)
            },
        ))
    }

    /// Findings of a `crouch` run: where it stood up after the tunnel, and whether it got onto the
    /// ledge.
    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let mut out = vec![];
        let released_under = trace
            .samples
            .iter()
            .filter(|s| !s.flag(3) && s.flag(1) && s.extra[4] > 0.0)
            .count();
        if let Some(s) = trace
            .samples
            .windows(2)
            .find(|w| w[0].flag(1) && !w[1].flag(1))
            .map(|w| &w[1])
        {
            out.push(format!(
                "stood up at x = {} (tunnel ends at {}), after {released_under} ticks crouched under the ceiling with the key up",
                num(s.position.x, 1),
                num(TUNNEL.1, 1)
            ));
        }
        out.push(on_ledge_at_end(trace, LEDGE_HEIGHT));
        out
    }

    /// The `crouch` plot: a side view (x against height) of the feet and the head, with the tunnel's
    /// ceiling and the ledge.
    fn plot(&self, _: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        let pts = |f: &dyn Fn(&Sample) -> f32| -> Vec<(f64, f64)> {
            trace
                .samples
                .iter()
                .map(|s| (f64::from(s.position.x), f64::from(f(s))))
                .collect()
        };
        let end = trace
            .samples
            .iter()
            .map(|s| f64::from(s.position.x))
            .fold(f64::from(LEDGE_X) + 50.0, f64::max);
        let (t0, t1) = (f64::from(TUNNEL.0), f64::from(TUNNEL.1));
        let ceil = f64::from(TUNNEL_CEILING);
        let (lx, lh) = (f64::from(LEDGE_X), f64::from(LEDGE_HEIGHT));
        PlotSpec {
            title: format!("{title} (side view)"),
            x_label: "x (world units)".into(),
            y_label: "height (world units)".into(),
            series: vec![
                Series::line(
                    "ground",
                    vec![(0.0, 0.0), (lx, 0.0), (lx, lh), (end, lh)],
                    (90, 90, 100),
                ),
                Series::line(
                    "tunnel ceiling",
                    vec![(t0, 90.0), (t0, ceil), (t1, ceil), (t1, 90.0)],
                    (40, 90, 210),
                ),
                Series::line("head", pts(&|s| s.extra[2]), (40, 160, 90)),
                Series::line("feet", pts(&|s| s.position.y), (215, 60, 40)),
            ],
            y_from_zero: true,
            ..PlotSpec::default()
        }
    }
}
