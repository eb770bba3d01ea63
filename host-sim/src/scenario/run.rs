//! Running scenarios on the core's mechanics, tick by tick, into a [`Trace`].

use std::path::Path;

use anyhow::{Context, Result};
use hopkit::demo::level::{DemoGround, RAMPS};
use hopkit::follower::{FollowerParams, FollowerState};
use hopkit::ghost::{GhostScene, Recording};
use hopkit::ground::FlatGround;
use hopkit::math::{Quat, Vec2, Vec3};
use hopkit::movement::{
    air_cap_and_budget, facing_from_yaw, optimal_strafe_cos, step, MoveInput, MoveParams,
    MoverState,
};
use hopkit::slope::{SlopeParams, SlopeState};
use hopkit::steering::{arrival_step, ArrivalParams, ArrivalState, SteeringParams};

use super::config::{self, GhostLayout, Kind, LeaderPath, Pilot, Preset, ScenarioFile};
use crate::plot::{PlotSpec, Series};
use crate::progress::ticks_bar;
use crate::trace::{Path2, Sample, Trace};
use crate::UserError;

/// Ghosts in the `ghosts` scenario (the demo's formation size).
pub const GHOSTS: usize = 4;

/// Run a scenario. `base_dir` resolves relative paths in the file.
pub fn run(file: &ScenarioFile, base_dir: &Path, quiet: bool) -> Result<Trace> {
    let ticks = file.ticks();
    let bar = ticks_bar(u64::from(ticks), file.kind.name(), quiet);
    let trace = match file.kind {
        Kind::Bhop => bhop(file, ticks, &mut || bar.inc(1)),
        Kind::Arrival => arrival(file, ticks, &mut || bar.inc(1)),
        Kind::Follower => follower(file, ticks, &mut || bar.inc(1)),
        Kind::Slope => slope(file, ticks, &mut || bar.inc(1)),
        Kind::Ghosts => ghosts(file, base_dir, ticks, &mut || bar.inc(1))?,
    };
    bar.finish_and_clear();
    Ok(trace)
}

fn dt_of(file: &ScenarioFile) -> f32 {
    1.0 / file.tick_hz as f32
}

fn time_of(file: &ScenarioFile, tick: u32) -> f64 {
    f64::from(tick + 1) / f64::from(file.tick_hz)
}

/// The movement parameters of a `[bhop]` section: preset plus overrides.
pub fn move_params(b: &config::Bhop) -> MoveParams {
    let mut p = match b.preset {
        Preset::Seed => MoveParams::seed(),
        Preset::SeedFigure => MoveParams::seed_figure(),
        Preset::Quakeworld => MoveParams::quakeworld(),
        Preset::Q3 => MoveParams::quake3(),
        Preset::Source => MoveParams::source(),
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

fn bhop(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let b = file.bhop.clone().unwrap_or_default();
    let params = move_params(&b);
    let dt = dt_of(file);
    let ground = FlatGround::new(0.0);
    let mut state = MoverState::new(Vec3::ZERO);
    let run_up_ticks = (b.run_up * file.tick_hz as f32).round() as u32;
    let mut yaw = 0.0f32;
    // +1: strafe right (D) turning right; −1: strafe left (A) turning left.
    let mut side = 1.0f32;
    let mut trace = Trace {
        actor: "player".into(),
        extra_columns: vec![
            "grounded".into(),
            "jumped".into(),
            "yaw_deg".into(),
            "ground_max_speed".into(),
        ],
        ..Trace::default()
    };
    for t in 0..ticks {
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
        trace.samples.push(Sample {
            tick: t,
            time: time_of(file, t),
            position: state.position,
            velocity: state.velocity,
            speed: state.planar_speed(),
            extra: vec![
                f64::from(u8::from(state.grounded)),
                f64::from(u8::from(ev.jumped)),
                f64::from(yaw.to_degrees()),
                f64::from(params.max_speed),
            ],
        });
        progress();
    }
    trace
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

fn arrival(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let a = file.arrival.clone().unwrap_or_default();
    let dt = dt_of(file);
    let sp = SteeringParams {
        max_speed: a.max_speed,
        max_accel: a.max_accel,
        ..SteeringParams::default()
    };
    let ap = ArrivalParams::default();
    let mut st = ArrivalState::at(Vec3::new(a.start[0], 0.0, a.start[1]));
    let targets: Vec<Vec3> = if a.targets.is_empty() {
        vec![st.agent.position]
    } else {
        a.targets
            .iter()
            .map(|t| Vec3::new(t[0], 0.0, t[1]))
            .collect()
    };
    let mut current = 0usize;
    let mut dwell = 0.0f32;
    let mut trace = Trace {
        actor: "agent".into(),
        extra_columns: vec![
            "target_x".into(),
            "target_z".into(),
            "distance".into(),
            "arrived".into(),
        ],
        others: targets
            .iter()
            .enumerate()
            .map(|(i, t)| Path2 {
                label: if i == 0 {
                    "targets".into()
                } else {
                    String::new()
                },
                points: vec![(f64::from(t.x), f64::from(t.z))],
            })
            .collect(),
        ..Trace::default()
    };
    for t in 0..ticks {
        let target = targets[current % targets.len()];
        let arrived = arrival_step(&mut st, &sp, &ap, target, dt);
        if arrived {
            dwell += dt;
            if dwell >= a.dwell {
                dwell = 0.0;
                current += 1;
            }
        }
        trace.samples.push(Sample {
            tick: t,
            time: time_of(file, t),
            position: st.agent.position,
            velocity: st.agent.velocity,
            speed: st.agent.velocity.length(),
            extra: vec![
                f64::from(target.x),
                f64::from(target.z),
                f64::from(st.agent.position.distance(target)),
                f64::from(u8::from(arrived)),
            ],
        });
        progress();
    }
    trace
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

fn follower(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let f = file.follower.clone().unwrap_or_default();
    let dt = dt_of(file);
    let ground = FlatGround::new(0.0);
    let params = FollowerParams::default();
    let leader0 = leader_at(f.leader_path, f.leader_speed, f.path_size, 0.0);
    let start = leader0 + Vec3::new(f.start_offset[0], 0.0, f.start_offset[1]);
    let mut st: FollowerState = FollowerState::new(start, leader0, 0.0);
    let mut leader_path = vec![];
    let mut trace = Trace {
        actor: "companion".into(),
        extra_columns: vec![
            "leader_x".into(),
            "leader_z".into(),
            "gap".into(),
            "crumbs".into(),
        ],
        ..Trace::default()
    };
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
            time: time_of(file, t),
            position: body.position,
            velocity: body.velocity,
            speed: body.velocity.planar().length(),
            extra: vec![
                f64::from(leader.x),
                f64::from(leader.z),
                f64::from(body.position.planar().distance(leader.planar())),
                st.trail.len() as f64,
            ],
        });
        progress();
    }
    trace.others.push(Path2 {
        label: "leader".into(),
        points: leader_path,
    });
    trace
}

fn ramp_outlines() -> Vec<Path2> {
    RAMPS
        .iter()
        .enumerate()
        .map(|(i, r)| Path2 {
            label: if i == 0 {
                "ramps".into()
            } else {
                String::new()
            },
            points: vec![
                (f64::from(r.min.x), f64::from(r.min.y)),
                (f64::from(r.max.x), f64::from(r.min.y)),
                (f64::from(r.max.x), f64::from(r.max.y)),
                (f64::from(r.min.x), f64::from(r.max.y)),
                (f64::from(r.min.x), f64::from(r.min.y)),
            ],
        })
        .collect()
}

fn slope(file: &ScenarioFile, ticks: u32, progress: &mut dyn FnMut()) -> Trace {
    let s = file.slope.clone().unwrap_or_default();
    let dt = dt_of(file);
    let ground = DemoGround;
    let mut params = MoveParams::seed();
    params.max_speed = s.speed;
    let yaw = s.heading_deg.to_radians();
    let facing = facing_from_yaw(yaw);
    let mut mover = MoverState::new(Vec3::new(s.start[0], 0.0, s.start[1]));
    let slope_params = SlopeParams::seed();
    let mut tilt = SlopeState::new();
    let body = Quat::from_yaw(yaw);
    let mut trace = Trace {
        actor: "walker".into(),
        extra_columns: vec![
            "tilt_deg".into(),
            "ground_normal_y".into(),
            "grounded".into(),
        ],
        others: ramp_outlines(),
        ..Trace::default()
    };
    for t in 0..ticks {
        let input = MoveInput::new(Vec2::new(1.0, 0.0), false, facing);
        step(&mut mover, &params, &input, &ground, dt);
        let normal = mover.grounded.then_some(mover.ground_normal);
        hopkit::slope::step(&mut tilt, &slope_params, body, normal, dt);
        trace.samples.push(Sample {
            tick: t,
            time: time_of(file, t),
            position: mover.position,
            velocity: mover.velocity,
            speed: mover.planar_speed(),
            extra: vec![
                f64::from(tilt.tilt_angle().to_degrees()),
                f64::from(mover.ground_normal.y),
                f64::from(u8::from(mover.grounded)),
            ],
        });
        progress();
    }
    trace
}

fn ghosts(
    file: &ScenarioFile,
    base_dir: &Path,
    ticks: u32,
    progress: &mut dyn FnMut(),
) -> Result<Trace> {
    let g = file.ghosts.clone().unwrap_or_default();
    let bytes: Vec<u8> = match &g.recording {
        Some(p) => {
            let path = base_dir.join(p);
            std::fs::read(&path).with_context(|| format!("reading {}", path.display()))?
        }
        None => hopkit::ghost::DEMO_RECORDING.to_vec(),
    };
    let recording = Recording::parse(&bytes)
        .map_err(|e| UserError(format!("recording {:?} is not usable: {e:?}", g.recording)))?;
    let mut scene: GhostScene<GHOSTS> = match g.layout {
        GhostLayout::Formation => GhostScene::demo(&recording),
        GhostLayout::Fleet => GhostScene::fleet(&recording, g.seed.unwrap_or(2)),
    };
    let hz = f64::from(recording.tick_hz());
    let ground = DemoGround;
    let mut paths: Vec<Vec<(f64, f64)>> = vec![vec![]; scene.ghosts.len()];
    let mut trace = Trace {
        actor: "ghost 0".into(),
        extra_columns: vec!["firing".into(), "missile".into(), "frame".into()],
        ..Trace::default()
    };
    for t in 0..ticks {
        scene.step(&recording, &ground);
        for (path, ghost) in paths.iter_mut().zip(scene.ghosts.iter()) {
            path.push((
                f64::from(ghost.flyer.position.x),
                f64::from(ghost.flyer.position.z),
            ));
        }
        if let Some(lead) = scene.ghosts.first() {
            trace.samples.push(Sample {
                tick: t,
                time: f64::from(t + 1) / hz,
                position: lead.flyer.position,
                velocity: lead.flyer.velocity(),
                speed: lead.flyer.speed,
                extra: vec![
                    f64::from(u8::from(lead.firing)),
                    f64::from(u8::from(lead.missile)),
                    f64::from(lead.last_index),
                ],
            });
        }
        progress();
    }
    for (i, p) in paths.into_iter().enumerate().skip(1) {
        trace.others.push(Path2 {
            label: format!("ghost {i}"),
            points: p,
        });
    }
    for (i, t) in scene.targets.iter().enumerate() {
        trace.others.push(Path2 {
            label: if i == 0 {
                "targets".into()
            } else {
                String::new()
            },
            points: vec![(f64::from(t.x), f64::from(t.z))],
        });
    }
    Ok(trace)
}

/// One-line findings worth printing after a run.
pub fn findings(file: &ScenarioFile, trace: &Trace) -> Vec<String> {
    let mut out = vec![];
    let last = trace.samples.last();
    match file.kind {
        Kind::Bhop => {
            let gmax = file
                .bhop
                .as_ref()
                .map(|b| move_params(b).max_speed)
                .unwrap_or_else(|| move_params(&config::Bhop::default()).max_speed);
            let top = trace.max_speed();
            out.push(format!(
                "ground max {gmax:.3}, top speed {top:.3} = {:.2}x ground max",
                top / gmax
            ));
            let jumps = trace
                .samples
                .iter()
                .filter(|s| s.extra.get(1).copied() == Some(1.0))
                .count();
            out.push(format!("{jumps} jumps"));
        }
        Kind::Arrival => {
            let arrivals = trace
                .samples
                .windows(2)
                .filter(|w| w[0].extra[3] == 0.0 && w[1].extra[3] == 1.0)
                .count();
            out.push(format!("{arrivals} arrivals"));
        }
        Kind::Follower => {
            let gaps: Vec<f64> = trace.samples.iter().map(|s| s.extra[2]).collect();
            let max = gaps.iter().copied().fold(0.0, f64::max);
            let mean = gaps.iter().sum::<f64>() / gaps.len().max(1) as f64;
            out.push(format!("gap to leader: mean {mean:.2}, max {max:.2} units"));
        }
        Kind::Slope => {
            let max = trace.samples.iter().map(|s| s.extra[0]).fold(0.0, f64::max);
            out.push(format!("largest tilt {max:.1} degrees"));
        }
        Kind::Ghosts => {
            let firing = trace.samples.iter().filter(|s| s.extra[0] == 1.0).count();
            out.push(format!("lead ghost fired on {firing} ticks"));
        }
    }
    if let Some(s) = last {
        out.push(format!(
            "final position ({:.2}, {:.2}, {:.2})",
            s.position.x, s.position.y, s.position.z
        ));
    }
    out
}

const PALETTE: [(u8, u8, u8); 6] = [
    (120, 120, 135),
    (40, 110, 200),
    (40, 160, 90),
    (150, 80, 190),
    (200, 140, 30),
    (60, 170, 190),
];

/// The plot of a run: speed over time with the ground max line for `bhop`, a top-down trajectory
/// (world −Z up, like the handheld's display) for the others.
pub fn plot_spec(file: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
    if file.kind == Kind::Bhop {
        let gmax = trace
            .samples
            .first()
            .and_then(|s| s.extra.get(3).copied())
            .unwrap_or(0.0);
        let end = trace.samples.last().map_or(1.0, |s| s.time);
        let speed: Vec<(f64, f64)> = trace
            .samples
            .iter()
            .map(|s| (s.time, f64::from(s.speed)))
            .collect();
        return PlotSpec {
            title: title.to_string(),
            x_label: "time (s)".into(),
            y_label: "horizontal speed (units/s)".into(),
            series: vec![
                Series::line("speed", speed, (215, 60, 40)),
                Series {
                    dashed: true,
                    ..Series::line(
                        &format!("ground max {gmax:.1}"),
                        vec![(0.0, gmax), (end, gmax)],
                        (40, 90, 210),
                    )
                },
                Series {
                    dashed: true,
                    ..Series::line(
                        "2x ground max",
                        vec![(0.0, 2.0 * gmax), (end, 2.0 * gmax)],
                        (150, 150, 165),
                    )
                },
            ],
            y_from_zero: true,
            ..PlotSpec::default()
        };
    }
    let flip =
        |pts: &[(f64, f64)]| -> Vec<(f64, f64)> { pts.iter().map(|&(x, z)| (x, -z)).collect() };
    let mut series = vec![];
    let mut group = 0usize;
    for (i, o) in trace.others.iter().enumerate() {
        // Unlabelled entries continue the group (and colour) of the labelled one before them.
        if i > 0 && !o.label.is_empty() {
            group += 1;
        }
        let color = PALETTE[group % PALETTE.len()];
        let mut s = Series::line(&o.label, flip(&o.points), color);
        s.mark_ends = o.points.len() <= 1;
        s.dashed = o.label == "leader";
        series.push(s);
    }
    let main: Vec<(f64, f64)> = trace
        .samples
        .iter()
        .map(|s| (f64::from(s.position.x), -f64::from(s.position.z)))
        .collect();
    let mut m = Series::line(&trace.actor, main, (215, 60, 40));
    m.mark_ends = true;
    series.push(m);
    PlotSpec {
        title: format!("{title} (top-down, -Z up)"),
        x_label: "x".into(),
        y_label: "z".into(),
        series,
        equal_aspect: true,
        negate_y_labels: true,
        ..PlotSpec::default()
    }
}
