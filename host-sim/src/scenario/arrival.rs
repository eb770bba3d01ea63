//! `kind = "arrival"`: arrival steering to a sequence of targets, dwelling at each.

use std::path::Path;

use anyhow::Result;
use hopkit::math::Vec3;
use hopkit::steering::{arrival_step, ArrivalParams, ArrivalState, SteeringParams};
use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::config::{non_negative, point, positive, Point};
use super::driver::Progress;
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::readout::num;
use crate::trace::{extras, flag, time_after, Path2, Sample, Trace};

/// `[arrival]`: a steering agent visiting targets in turn.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Arrival {
    /// Start position `[x, z]`, each within ±[`COORD_LIMIT`](super::config::COORD_LIMIT).
    /// Default `[0, 0]`.
    #[serde(deserialize_with = "point")]
    pub start: [f32; 2],
    /// Targets `[[x, z], …]` (at least one, each coordinate within
    /// ±[`COORD_LIMIT`](super::config::COORD_LIMIT)), visited in order; the next one is taken
    /// when the agent has arrived. Default: three points around the arena.
    #[serde(deserialize_with = "targets")]
    pub targets: Vec<[f32; 2]>,
    /// Seconds to wait on arrival before taking the next target. Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub dwell: f32,
    /// Top speed, units/s. Default 6.
    #[serde(deserialize_with = "positive")]
    pub max_speed: f32,
    /// Top acceleration, units/s². Default 12.
    #[serde(deserialize_with = "positive")]
    pub max_accel: f32,
}

impl Default for Arrival {
    fn default() -> Self {
        Arrival {
            start: [0.0, 0.0],
            targets: vec![[20.0, -15.0], [-18.0, -6.0], [4.0, 18.0]],
            dwell: 0.5,
            max_speed: 6.0,
            max_accel: 12.0,
        }
    }
}

/// A non-empty list of points `[[x, z], …]`.
fn targets<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[f32; 2]>, D::Error> {
    let v = Vec::<Point>::deserialize(d)?;
    if v.is_empty() {
        return Err(de::Error::custom(
            "targets must not be empty: give at least one [x, z] (or leave `targets` out for the \
             default three)",
        ));
    }
    Ok(v.into_iter().map(|p| p.0).collect())
}

/// The `arrival` kind.
pub struct ArrivalScenario;

impl Scenario for ArrivalScenario {
    fn kind(&self) -> Kind {
        Kind::Arrival
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "arrival",
            help: "steering to a point",
            file: include_str!("../../scenarios/arrival.toml"),
        }]
    }

    /// Extra columns: `target` (from 1), `target_x`, `target_z`, `distance`, `arrived`.
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let a = file.arrival.clone().unwrap_or_default();
        let ticks = file.ticks();
        let bar = progress.start(ticks);
        let dt = 1.0 / file.tick_hz as f32;
        let sp = SteeringParams {
            max_speed: a.max_speed,
            max_accel: a.max_accel,
            ..SteeringParams::default()
        };
        let ap = ArrivalParams::default();
        let mut st = ArrivalState::new(Vec3::new(a.start[0], 0.0, a.start[1]));
        let targets: Vec<Vec3> = if a.targets.is_empty() {
            vec![st.agent.position]
        } else {
            a.targets
                .iter()
                .map(|t| Vec3::new(t[0], 0.0, t[1]))
                .collect()
        };
        // The target being steered to; after the last one has been reached the agent stays there.
        let mut current = 0usize;
        let mut dwell = 0.0f32;
        let mut trace = Trace {
            tick_hz: file.tick_hz,
            actor: "agent".into(),
            extra_columns: vec![
                "target".into(),
                "target_x".into(),
                "target_z".into(),
                "distance".into(),
                "arrived".into(),
            ],
            others: vec![Path2 {
                label: "targets (in order)".into(),
                points: targets
                    .iter()
                    .map(|t| (f64::from(t.x), f64::from(t.z)))
                    .collect(),
            }],
            ..Trace::default()
        };
        for t in 0..ticks {
            let index = current.min(targets.len() - 1);
            let target = targets[index];
            let arrived = arrival_step(&mut st, &sp, &ap, target, dt).arrived;
            if arrived && current < targets.len() {
                dwell += dt;
                if dwell >= a.dwell {
                    dwell = 0.0;
                    current += 1;
                }
            }
            trace.samples.push(Sample {
                tick: t,
                time: time_after(t, file.tick_hz),
                position: st.agent.position,
                velocity: st.agent.velocity,
                speed: st.agent.velocity.length(),
                extra: extras(&[
                    index as f32 + 1.0,
                    target.x,
                    target.z,
                    st.agent.position.distance(target),
                    flag(arrived),
                ]),
            });
            bar.inc(1);
        }
        Ok(trace)
    }

    fn findings(&self, file: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let reached = arrivals(trace);
        let times: Vec<String> = reached
            .iter()
            .map(|(n, t)| format!("#{n} at {} s", num(*t, 2)))
            .collect();
        vec![format!(
            "reached {} of {} targets{}{}",
            reached.len(),
            arrival_targets(file),
            if times.is_empty() { "" } else { ": " },
            times.join(", ")
        )]
    }
}

/// When each target of an `arrival` run was first reached: `(target number from 1, time in s)`,
/// in order.
pub fn arrivals(trace: &Trace) -> Vec<(u32, f32)> {
    let mut out: Vec<(u32, f32)> = vec![];
    for s in &trace.samples {
        let target = s.extra[0] as u32;
        if s.flag(4) && out.last().is_none_or(|&(t, _)| t != target) {
            out.push((target, s.time));
        }
    }
    out
}

/// Number of targets of an `arrival` scenario.
pub fn arrival_targets(file: &ScenarioFile) -> usize {
    file.arrival
        .clone()
        .unwrap_or_default()
        .targets
        .len()
        .max(1)
}
