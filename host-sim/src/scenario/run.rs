//! Running scenarios on the core's mechanics, tick by tick, into a [`Trace`].

use std::path::Path;

use anyhow::Result;
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
use hopkit_demo::level::DemoGround;

use super::config::{self, GhostLayout, Kind, LeaderPath, Pilot, Preset, ScenarioFile};
use crate::plot::{Label, PlotSpec, Series};
use crate::progress::ticks_bar;
use crate::readout::num;
use crate::replay::decode_error_message;
use crate::trace::{extras, flag, time_after, Path2, Sample, Trace};
use crate::UserError;

/// Ghosts in the `ghosts` scenario (the demo's formation size).
pub const GHOSTS: usize = 4;

/// Run a scenario. `base_dir` resolves relative paths in the file. A progress bar shows on a
/// terminal unless `quiet`.
pub fn run(file: &ScenarioFile, base_dir: &Path, quiet: bool) -> Result<Trace> {
    // A ghosts scenario runs at its recording's tick rate: load it before counting ticks.
    // Without `seconds` it runs for the recording's length (at most `MAX_SECONDS`).
    let recording = match file.kind {
        Kind::Ghosts => Some(ghost_recording(file, base_dir)?),
        _ => None,
    };
    let hz = recording.as_ref().map_or(file.tick_hz, |(_, hz, _)| *hz);
    let ticks = match (&recording, file.seconds) {
        _ if file.kind == Kind::Collide => super::collide::total_ticks(file),
        (Some((_, hz, frames)), None) => (*frames).clamp(1, crate::app::max_ticks(*hz)),
        _ => file.ticks_at(hz),
    };
    let bar = ticks_bar(u64::from(ticks), file.kind.name(), quiet);
    let progress = &mut || bar.inc(1);
    let trace = match file.kind {
        Kind::Bhop => bhop(file, ticks, progress),
        Kind::Arrival => arrival(file, ticks, progress),
        Kind::Follower => follower(file, ticks, progress),
        Kind::Slope => slope(file, ticks, progress),
        Kind::Cpma => super::features::cpma(file, ticks, progress),
        Kind::Platform => super::features::platform(file, ticks, progress),
        Kind::Crouch => super::features::crouch(file, ticks, progress),
        Kind::Ladder => super::features::ladder(file, ticks, progress),
        Kind::Water => super::features::water(file, ticks, progress),
        Kind::Collide => super::collide::run(file, progress)?,
        Kind::Ghosts => {
            let bytes = recording.as_ref().map_or(&[][..], |(b, _, _)| b.as_slice());
            ghosts(file, bytes, ticks, progress)?
        }
    };
    bar.finish_and_clear();
    Ok(trace)
}

fn dt_of(file: &ScenarioFile) -> f32 {
    1.0 / file.tick_hz as f32
}

fn time_of(file: &ScenarioFile, tick: u32) -> f32 {
    time_after(tick, file.tick_hz)
}

/// The movement parameters of a `[bhop]` section: preset plus overrides.
pub fn move_params(b: &config::Bhop) -> MoveParams {
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
    let mut trace = Trace::new(
        file.tick_hz,
        "player",
        &["grounded", "jumped", "yaw_deg", "ground_max_speed"],
    );
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
        trace.push_mover(
            t,
            &state,
            &[
                flag(state.grounded),
                flag(ev.jumped),
                yaw.to_degrees(),
                params.max_speed,
            ],
        );
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
            time: time_of(file, t),
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
            time: time_of(file, t),
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
        progress();
    }
    trace.others.push(Path2 {
        label: "leader".into(),
        points: leader_path,
    });
    trace
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
    let mut trace = Trace::new(
        file.tick_hz,
        "walker",
        &[
            "tilt_deg",
            "ground_slope_deg",
            "ground_normal_y",
            "grounded",
        ],
    );
    for t in 0..ticks {
        let input = MoveInput::new(Vec2::new(1.0, 0.0), false, facing);
        step(&mut mover, &params, &input, &ground, dt);
        let normal = mover.grounded.then_some(mover.ground_normal);
        hopkit::slope::step(&mut tilt, &slope_params, body, normal, dt);
        trace.push_mover(
            t,
            &mover,
            &[
                tilt.tilt_angle().to_degrees(),
                slope_deg(mover.ground_normal),
                mover.ground_normal.y,
                flag(mover.grounded),
            ],
        );
        progress();
    }
    trace
}

/// The bytes (in format version 1: a version 2 file is decoded, as `play` and `hash` do), tick
/// rate and frame count of a ghosts scenario's recording (the file's `recording`, or the bundled
/// one). A missing or unusable recording is the user's mistake ([`UserError`]).
fn ghost_recording(file: &ScenarioFile, base_dir: &Path) -> Result<(Vec<u8>, u32, u32)> {
    let g = file.ghosts.clone().unwrap_or_default();
    let (bytes, shown) = match &g.recording {
        Some(p) => {
            let path = base_dir.join(p);
            let bytes = crate::replay::read_recording(&path)?;
            (
                crate::replay::as_v1(&path, bytes)?,
                path.display().to_string(),
            )
        }
        None => (
            hopkit_demo::DEMO_RECORDING.to_vec(),
            "(bundled)".to_string(),
        ),
    };
    match Recording::parse(&bytes) {
        Ok(r) => {
            let (hz, frames) = (u32::from(r.tick_hz()), r.frame_count());
            Ok((bytes, hz, frames))
        }
        Err(e) => Err(UserError(format!(
            "recording {shown} is unusable: {}",
            decode_error_message(&e)
        ))
        .into()),
    }
}

fn ghosts(
    file: &ScenarioFile,
    bytes: &[u8],
    ticks: u32,
    progress: &mut dyn FnMut(),
) -> Result<Trace> {
    let g = file.ghosts.clone().unwrap_or_default();
    let recording = Recording::parse(bytes).map_err(|e| {
        UserError(format!(
            "the recording is unusable: {}",
            decode_error_message(&e)
        ))
    })?;
    let mut scene: GhostScene<GHOSTS> = match g.layout {
        GhostLayout::Formation => hopkit_demo::pilot::formation(&recording),
        GhostLayout::Fleet => hopkit_demo::pilot::fleet(&recording, g.seed.unwrap_or(2)),
    };
    let hz = u32::from(recording.tick_hz());
    let ground = DemoGround;
    let mut paths: Vec<Vec<(f64, f64)>> = vec![vec![]; scene.ghosts.len()];
    let mut trace = Trace::new(hz, "lead ghost", &["firing", "missile", "frame"]);
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
                time: time_after(t, hz),
                position: lead.flyer.position,
                velocity: lead.flyer.velocity(),
                speed: lead.flyer.speed,
                extra: extras(&[
                    flag(lead.firing),
                    flag(lead.missile),
                    lead.last_index as f32,
                ]),
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
    trace.others.push(Path2 {
        label: "targets".into(),
        points: scene
            .targets
            .iter()
            .map(|t| (f64::from(t.x), f64::from(t.z)))
            .collect(),
    });
    Ok(trace)
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

/// The first line printed after a run: where it came from, what ran (ticks at what rate, for
/// how long: each run of a collision scenario) and the top speed.
pub fn headline(origin: &str, file: &ScenarioFile, trace: &Trace) -> String {
    let ran = match file.kind {
        Kind::Collide => super::collide::ran(file, trace),
        _ => {
            let (n, hz) = (trace.samples.len(), trace.tick_hz);
            let secs = n as f64 / f64::from(hz.max(1));
            format!("{n} ticks at {hz} Hz ({} s)", num(secs, 2))
        }
    };
    format!(
        "{origin}: {ran}, top speed {} world units/s",
        num(trace.max_speed(), 3)
    )
}

/// One-line findings worth printing after a run.
pub fn findings(file: &ScenarioFile, trace: &Trace) -> Vec<String> {
    let mut out = vec![];
    match file.kind {
        Kind::Bhop => {
            let gmax = move_params(&file.bhop.clone().unwrap_or_default()).max_speed;
            let top = trace.max_speed();
            out.push(format!(
                "ground max {} world units/s; top speed {} = {}x ground max",
                num(gmax, 3),
                num(top, 3),
                num(top / gmax, 2)
            ));
            let jumps = trace.samples.iter().filter(|s| s.flag(1)).count();
            out.push(format!("{jumps} jumps"));
        }
        Kind::Arrival => {
            let reached = arrivals(trace);
            let times: Vec<String> = reached
                .iter()
                .map(|(n, t)| format!("#{n} at {} s", num(*t, 2)))
                .collect();
            out.push(format!(
                "reached {} of {} targets{}{}",
                reached.len(),
                arrival_targets(file),
                if times.is_empty() { "" } else { ": " },
                times.join(", ")
            ));
        }
        Kind::Follower => {
            let gaps: Vec<f64> = trace
                .samples
                .iter()
                .map(|s| f64::from(s.extra[2]))
                .collect();
            let max = gaps.iter().copied().fold(0.0, f64::max);
            let mean = gaps.iter().sum::<f64>() / gaps.len().max(1) as f64;
            out.push(format!(
                "gap to leader: mean {}, max {} world units",
                num(mean, 2),
                num(max, 2)
            ));
        }
        Kind::Slope => {
            let max = |i: usize| trace.samples.iter().map(|s| s.extra[i]).fold(0.0, f32::max);
            out.push(format!(
                "steepest ground {} degrees, largest tilt {} degrees",
                num(max(1), 1),
                num(max(0), 1)
            ));
        }
        Kind::Cpma => out.extend(super::features::cpma_findings(trace)),
        Kind::Platform => out.extend(super::features::platform_findings(trace)),
        Kind::Crouch => out.extend(super::features::crouch_findings(trace)),
        Kind::Ladder => out.extend(super::features::ladder_findings(trace)),
        Kind::Water => out.extend(super::features::water_findings(trace)),
        Kind::Collide => out.extend(super::collide::findings(file, trace)),
        Kind::Ghosts => {
            let firing = trace.samples.iter().filter(|s| s.flag(0)).count();
            out.push(format!(
                "lead ghost gun fired on {firing} of {} ticks",
                trace.samples.len()
            ));
        }
    }
    if let Some(s) = trace.samples.last() {
        out.push(format!(
            "final position of the {}: {}",
            trace.actor,
            crate::readout::position(s.position)
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

/// Red of the main actor's line.
const MAIN: (u8, u8, u8) = (215, 60, 40);

/// The plot of a run: speed over time against the ground max for `bhop`; body tilt against the
/// ground slope over time for `slope`; a top-down trajectory (world −Z up, like the handheld's
/// display) for the others.
pub fn plot_spec(file: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
    let over_time = |i: usize| -> Vec<(f64, f64)> {
        trace
            .samples
            .iter()
            .map(|s| (f64::from(s.time), f64::from(s.extra[i])))
            .collect()
    };
    let end = trace.samples.last().map_or(1.0, |s| f64::from(s.time));
    match file.kind {
        Kind::Bhop => {
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
        Kind::Slope => {
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
                    Series::line("body tilt", over_time(0), MAIN),
                ],
                y_from_zero: true,
                ..PlotSpec::default()
            }
        }
        Kind::Crouch => super::features::crouch_plot(title, trace),
        Kind::Ladder => super::features::ladder_plot(title, trace),
        Kind::Water => super::features::water_plot(title, trace),
        Kind::Collide => super::collide::plot(file, title, trace),
        _ => top_down(title, trace),
    }
}

fn top_down(title: &str, trace: &Trace) -> PlotSpec {
    let flip =
        |pts: &[(f64, f64)]| -> Vec<(f64, f64)> { pts.iter().map(|&(x, z)| (x, -z)).collect() };
    let mut series = vec![];
    let mut labels = vec![];
    for (i, o) in trace.others.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let pts = flip(&o.points);
        let s = if o.label.starts_with("targets") {
            if o.label.contains("in order") {
                for (n, p) in pts.iter().enumerate() {
                    labels.push(Label {
                        at: *p,
                        text: format!("{}", n + 1),
                    });
                }
            }
            Series::markers(&o.label, pts, (30, 30, 40))
        } else if o.label == "leader" {
            Series::dashed("leader", pts, color)
        } else if o.label.starts_with("Quake III") {
            // The path compared with the main actor's: start and end marked as on the main one.
            let mut s = Series::line(&o.label, pts, color);
            s.mark_ends = true;
            s
        } else {
            Series::line(&o.label, pts, color)
        };
        series.push(s);
    }
    let main: Vec<(f64, f64)> = trace
        .samples
        .iter()
        .map(|s| (f64::from(s.position.x), -f64::from(s.position.z)))
        .collect();
    let mut m = Series::line(&trace.actor, main, MAIN);
    m.mark_ends = true;
    series.push(m);
    PlotSpec {
        title: format!("{title} (top-down, -Z up)"),
        x_label: "x (world units)".into(),
        y_label: "z (world units)".into(),
        series,
        labels,
        equal_aspect: true,
        negate_y_labels: true,
        ..PlotSpec::default()
    }
}
