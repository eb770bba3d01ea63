//! `kind = "follower"`: a companion following a scripted leader's breadcrumb trail.

use std::path::Path;

use anyhow::Result;
use hopkit::follower::{FollowerParams, FollowerState};
use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use serde::Deserialize;

use super::config::{point, positive, size};
use super::driver::Progress;
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::readout::num;
use crate::trace::{extras, time_after, Path2, Sample, Trace};

/// `[follower]`: a companion following a scripted leader.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Follower {
    /// The leader's path. Default `figure8`.
    pub leader_path: LeaderPath,
    /// Leader speed, units/s. Default 5.
    #[serde(deserialize_with = "positive")]
    pub leader_speed: f32,
    /// Size of the path, units, up to [`COORD_LIMIT`](super::config::COORD_LIMIT). Default 16.
    #[serde(deserialize_with = "size")]
    pub path_size: f32,
    /// Follower start offset from the leader `[x, z]`, each within
    /// ±[`COORD_LIMIT`](super::config::COORD_LIMIT). Default `[0, 3]`.
    #[serde(deserialize_with = "point")]
    pub start_offset: [f32; 2],
}

impl Default for Follower {
    fn default() -> Self {
        Follower {
            leader_path: LeaderPath::Figure8,
            leader_speed: 5.0,
            path_size: 16.0,
            start_offset: [0.0, 3.0],
        }
    }
}

/// Leader paths for `[follower]`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LeaderPath {
    /// A figure eight.
    #[default]
    Figure8,
    /// A circle.
    Circle,
    /// Zig-zag with sharp corners.
    Zigzag,
    /// A straight line with stops (walk 2 s, stand 1 s).
    StopAndGo,
}

/// The `follower` kind.
pub struct FollowerScenario;

impl Scenario for FollowerScenario {
    fn kind(&self) -> Kind {
        Kind::Follower
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "follower",
            help: "companion on the breadcrumb trail",
            file: include_str!("../../scenarios/follower.toml"),
        }]
    }

    /// Extra columns: `leader_x`, `leader_z`, `gap`, `crumbs`.
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let f = file.follower.clone().unwrap_or_default();
        let ticks = file.ticks();
        let bar = progress.start(ticks);
        let dt = 1.0 / file.tick_hz as f32;
        let ground = FlatGround::new(0.0);
        let params = FollowerParams::default();
        let leader0 = leader_at(f.leader_path, f.leader_speed, f.path_size, 0.0);
        let start = leader0 + Vec3::new(f.start_offset[0], 0.0, f.start_offset[1]);
        let mut st: FollowerState = FollowerState::new(start, leader0, 0.0);
        let mut leader_path = vec![];
        let mut trace = Trace::new(
            file.tick_hz,
            "companion",
            &["leader_x", "leader_z", "gap", "crumbs"],
        );
        for t in 0..ticks {
            let leader = leader_at(
                f.leader_path,
                f.leader_speed,
                f.path_size,
                (t + 1) as f32 * dt,
            );
            hopkit::follower::step(&mut st, &params, leader, &ground, dt);
            leader_path.push((f64::from(leader.x), f64::from(leader.z)));
            let body = &st.body;
            trace.samples.push(Sample {
                tick: t,
                time: time_after(t, file.tick_hz),
                position: body.position,
                velocity: body.velocity,
                speed: body.velocity.planar().length(),
                extra: extras(&[
                    leader.x,
                    leader.z,
                    body.position.planar().distance(leader.planar()),
                    st.trail.len() as f32,
                ]),
            });
            bar.inc(1);
        }
        trace.others.push(Path2 {
            label: "leader".into(),
            points: leader_path,
        });
        Ok(trace)
    }

    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let gaps: Vec<f64> = trace
            .samples
            .iter()
            .map(|s| f64::from(s.extra[2]))
            .collect();
        let max = gaps.iter().copied().fold(0.0, f64::max);
        let mean = gaps.iter().sum::<f64>() / gaps.len().max(1) as f64;
        vec![format!(
            "gap to leader: mean {}, max {} world units",
            num(mean, 2),
            num(max, 2)
        )]
    }
}

/// The leader's position on its path at time `t` seconds.
pub fn leader_at(path: LeaderPath, speed: f32, size: f32, t: f32) -> Vec3 {
    let s = speed * t; // distance along the path
    let p = match path {
        LeaderPath::Circle => {
            let r = size;
            let a = s / r;
            Vec2::new(r * a.sin(), -r * (1.0 - a.cos()))
        }
        LeaderPath::Figure8 => {
            // Lemniscate-like: x = A sin(w t), z = A/2 sin(2 w t); w from an approximate length.
            let a = size;
            let len = 6.1 * a; // ≈ arc length of one loop
            let w = std::f32::consts::TAU * s / len;
            Vec2::new(a * w.sin(), -0.5 * a * (2.0 * w).sin())
        }
        LeaderPath::Zigzag => {
            let leg = size;
            let n = (s / leg).floor();
            let f = s / leg - n;
            let x = if (n as i64) % 2 == 0 {
                f * leg
            } else {
                (1.0 - f) * leg
            };
            Vec2::new(x - leg * 0.5, -(s * std::f32::consts::FRAC_1_SQRT_2) * 0.7)
        }
        LeaderPath::StopAndGo => {
            // Walk 2 s, stand 1 s, along −Z.
            let cycle = (t / 3.0).floor();
            let within = (t - cycle * 3.0).min(2.0);
            Vec2::new(0.0, -speed * (cycle * 2.0 + within))
        }
    };
    Vec3::new(p.x, 0.0, p.y)
}
