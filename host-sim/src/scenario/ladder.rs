//! `kind = "ladder"`: climbing a ladder, jumping off it (the push-off), climbing it again and over
//! the top onto the ledge.

use std::path::Path;

use anyhow::Result;
use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use serde::Deserialize;

use super::config::non_negative;
use super::driver::{mover_trace, on_ledge_at_end, Progress};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::plot::{Label, PlotSpec, Series};
use crate::readout::num;
use crate::trace::{extras, flag, Trace};

/// Height of the `ladder` scenario's wall (and of the ledge on top of it), world units.
pub const LADDER_TOP: f32 = 160.0;

/// The `ladder` course: floor at 0 for x < 0, a wall at x = 0 with a ladder on its −X face (felt
/// within 16 units of it, below the top), a ledge at [`LADDER_TOP`] for x ≥ 0.
struct LadderWall;

impl GroundProbe for LadderWall {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if p.x >= 0.0 { LADDER_TOP } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        (feet.x < 0.0 && feet.x > -16.0 && feet.y < LADDER_TOP).then_some(Vec3::new(-1.0, 0.0, 0.0))
    }
}

/// `[ladder]`: a QuakeWorld character walks to a ladder on a 160-unit wall, climbs it for
/// `climb_first` seconds, jumps off (the push-off), walks back and climbs over the top onto the
/// ledge.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Ladder {
    /// Seconds of climbing before the push-off jump. Default 0.4.
    #[serde(deserialize_with = "non_negative")]
    pub climb_first: f32,
}

impl Default for Ladder {
    fn default() -> Self {
        Ladder { climb_first: 0.4 }
    }
}

/// The `ladder` kind.
pub struct LadderScenario;

impl Scenario for LadderScenario {
    fn kind(&self) -> Kind {
        Kind::Ladder
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "ladder",
            help: "climbing, the push-off, over the top",
            file: include_str!("../../scenarios/ladder.toml"),
        }]
    }

    /// A QuakeWorld character (`MoveParams::quakeworld()`, ladder climb 200, push-off 270) starts
    /// 100 units from the wall facing it: W to the ladder and up it for `climb_first` seconds,
    /// jump off (pushed away, falls), then W again: back to the ladder, up it and over the top
    /// onto the ledge. Extra columns: `grounded`, `on_ladder`, `jumped`, `w_key`.
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let c = file.ladder.clone().unwrap_or_default();
        let params = MoveParams::quakeworld();
        let mut s = MoverState::new(Vec3::new(-100.0, 0.0, 0.0));
        let mut climbed = 0.0f32;
        let mut pushed_off_at = None;
        let half_second = file.tick_hz / 2;
        let columns = ["grounded", "on_ladder", "jumped", "w_key"];
        Ok(mover_trace(
            file,
            progress,
            "character",
            &columns,
            |t, dt| {
                let on = LadderWall.ladder(s.position).is_some() && !s.grounded;
                if on && pushed_off_at.is_none() {
                    climbed += dt;
                }
                let jump = pushed_off_at.is_none() && climbed >= c.climb_first;
                // After the push-off, let go of W for half a second, then walk back in.
                let w = pushed_off_at.is_none_or(|p| t >= p + half_second);
                let input = MoveInput::new(
                    Vec2::new(if w { 1.0 } else { 0.0 }, 0.0),
                    jump,
                    Vec2::new(1.0, 0.0),
                );
                let ev = step(&mut s, &params, &input, &LadderWall, dt);
                if ev.jumped && pushed_off_at.is_none() {
                    pushed_off_at = Some(t);
                }
                let extra = extras(&[
                    flag(s.grounded),
                    flag(LadderWall.ladder(s.position).is_some() && !s.grounded),
                    flag(ev.jumped),
                    flag(w),
                ]);
                (s, extra)
            },
        ))
    }

    /// Findings of a `ladder` run: the push-off, and whether it ended on the ledge.
    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let mut out = vec![];
        if let Some(s) = trace.samples.iter().find(|s| s.flag(2)) {
            out.push(format!(
                "pushed off the ladder at height {} with {} world units/s",
                num(s.position.y, 1),
                num(s.speed, 1)
            ));
        }
        out.push(on_ledge_at_end(trace, LADDER_TOP));
        out
    }

    /// The `ladder` plot, over time (a side view would draw the climb, the fall and the re-climb on
    /// top of each other): the feet's height in three colours, one per act — 1 the climb, 2 the
    /// push-off and the fall, 3 the walk back, the re-climb and over the top — numbered where each
    /// starts, with the distance from the wall (dashed) and the ledge's height.
    fn plot(&self, _: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        let s = &trace.samples;
        let push = s.iter().position(|x| x.flag(2)).unwrap_or(s.len());
        let landed = s
            .iter()
            .skip(push + 1)
            .position(|x| x.flag(0))
            .map_or(s.len(), |i| push + 1 + i);
        // Each act starts where the previous one ended, so the line is unbroken.
        let act = |from: usize, to: usize| -> Vec<(f64, f64)> {
            s.get(from.saturating_sub(1)..to.min(s.len()))
                .unwrap_or(&[])
                .iter()
                .map(|x| (f64::from(x.time), f64::from(x.position.y)))
                .collect()
        };
        let acts = [
            ("1 climb", act(0, push + 1), (215, 60, 40)),
            ("2 push-off and fall", act(push + 1, landed), (40, 110, 200)),
            (
                "3 walk back, climb, over the top",
                act(landed, s.len()),
                (40, 160, 90),
            ),
        ];
        let end = s.last().map_or(1.0, |x| f64::from(x.time));
        let top = f64::from(LADDER_TOP);
        let mut series = vec![
            Series::dashed(
                &format!("ledge ({})", num(LADDER_TOP, 0)),
                vec![(0.0, top), (end, top)],
                (90, 90, 100),
            ),
            Series::dashed(
                "distance from the wall",
                s.iter()
                    .map(|x| (f64::from(x.time), f64::from(-x.position.x).max(0.0)))
                    .collect(),
                (200, 140, 30),
            ),
        ];
        let mut labels = vec![];
        for (label, points, color) in acts {
            if let Some(&first) = points.get(usize::from(!label.starts_with('1'))) {
                labels.push(Label {
                    at: first,
                    text: label[..1].to_string(),
                });
            }
            series.push(Series::line(&format!("feet: {label}"), points, color));
        }
        PlotSpec {
            title: format!("{title} (height over time)"),
            x_label: "time (s)".into(),
            y_label: "world units".into(),
            series,
            labels,
            y_from_zero: true,
            ..PlotSpec::default()
        }
    }
}
