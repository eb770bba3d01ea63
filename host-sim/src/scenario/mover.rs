//! `kind = "mover"`: a body among moving solids of a [`World`] (issue 34 §3, Quake units, the
//! Quake III preset): each tick the game moves the platform first
//! ([`World::move_solid`](hopkit::collide::World::move_solid), the body listed so a crush blocks
//! it, Quake's `SV_Push` order), then steps the body on [`Solid`] of the world. Four runs, one
//! after the other in one trace (column `run`; `tick` counts from 0 in each, `seconds` applies
//! to each, default 2 s):
//!
//! 0. **along a wall**: a platform moving +X at 200 carries a rider whose side is a skin from a
//!    wall along its path: carried at the platform's speed, never dragged by the wall.
//! 1. **under a lintel**: the same platform passes under a lintel too low for the rider: the rider
//!    stops a skin in front of it, the platform moves on under it, the rider drops to the floor.
//! 2. **elevator**: the platform rises at 150 for the first half of the run, then goes down at
//!    150: the rider is lifted and lowered, grounded every tick, never through it, never above it
//!    by more than the ground trace's reach.
//! 3. **crushed**: a block moving +X at 300 pushes a body standing on the floor into a wall; once
//!    the push would leave the body inside the block the block is blocked (stays put).
//!
//! Columns after the base ones: `run`, `grounded`, `in_solid` (the body's box overlaps a solid by
//! more than 1/1024 after the tick: never), `blocked` (the platform's move was refused this tick:
//! a crush), `carry_error` (how far the body is from the spot of the platform it started on: the
//! distance between the body's and the platform's displacements since the run's start).

use std::path::Path;

use anyhow::Result;
use hopkit::collide::{BodyBox, Brush, MoveSolidError, Solid, Tracer, World};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::body_box;
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};

use super::driver::Progress;
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::plot::{PlotSpec, Series};
use crate::readout::num;
use crate::trace::{flag, Path2, Trace};

/// A level of the `mover` runs.
pub type MoverLevel = World<8>;

/// The extra CSV columns.
pub const COLUMNS: [&str; 5] = ["run", "grounded", "in_solid", "blocked", "carry_error"];

/// The runs' labels, in order.
pub const RUNS: [&str; 4] = ["along a wall", "under a lintel", "elevator", "crushed"];

/// The wall the rider of run 0 brushes: its face at z = 80.
pub const WALL_Z: f32 = 80.0;
/// The lintel of run 1: its face at x = 256, from 24 up (the platform's top is at 16).
pub const LINTEL_X: f32 = 256.0;
/// The wall of run 3: its face at x = 200.
pub const CRUSH_WALL_X: f32 = 200.0;
/// How far a trace keeps a Quake III body (radius 15) from a wall: the radius and the skin.
pub const STOP: f32 = 15.0 + hopkit::collide::SURFACE_CLIP_EPSILON;

/// The `mover` kind.
pub struct MoverScenario;

impl Scenario for MoverScenario {
    fn kind(&self) -> Kind {
        Kind::Mover
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "mover",
            help: "moving solids: carried along a wall, under a lintel, an elevator, a crush",
            file: include_str!("../../scenarios/mover.toml"),
        }]
    }

    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let ticks = file.ticks();
        let bar = progress.start(ticks * RUNS.len() as u32);
        let mut trace = Trace::new(file.tick_hz, "body", &COLUMNS);
        let dt = 1.0 / file.tick_hz as f32;
        let mut platform_x = vec![];
        let mut platform_top = vec![];
        for run in 0..RUNS.len() {
            let (mut level, platform, mut s) = setup(run);
            let start = (s.position, level.brushes()[usize::from(platform)].mins());
            let params = MoveParams::quake3();
            let input = MoveInput::new(Vec2::ZERO, false, Vec2::new(0.0, -1.0));
            for t in 0..ticks {
                let v = velocity(run, t, ticks);
                let (mins, maxs) = body_box(&s, &params);
                let body = [BodyBox {
                    feet: s.position,
                    mins,
                    maxs,
                }];
                let blocked = match level.move_solid(platform, v, dt, &body) {
                    Ok(_) => false,
                    Err(MoveSolidError::Blocked(_)) => true,
                    Err(e) => anyhow::bail!("run {run}: the platform's move failed: {e:?}"),
                };
                step(&mut s, &params, &input, &Solid(&level), dt);
                let b = level.brushes()[usize::from(platform)];
                let (mins, maxs) = body_box(&s, &params);
                let carry_error = ((s.position - start.0) - (b.mins() - start.1)).length();
                let extra = [
                    run as f32,
                    flag(s.grounded),
                    flag(inside(&level, s.position, mins, maxs)),
                    flag(blocked),
                    carry_error,
                ];
                trace.push_mover(t, &s, &extra);
                let at = f64::from(trace.samples.len() as u32) / f64::from(file.tick_hz);
                let centre = (f64::from(b.mins().x) + f64::from(b.maxs().x)) / 2.0;
                platform_x.push((at, centre));
                platform_top.push((at, f64::from(b.maxs().y)));
                bar.inc(1);
            }
        }
        trace.others.push(Path2 {
            label: "platform centre x".into(),
            points: platform_x,
        });
        trace.others.push(Path2 {
            label: "platform top".into(),
            points: platform_top,
        });
        Ok(trace)
    }

    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        findings(trace)
    }

    fn plot(&self, _: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        let hz = f64::from(trace.tick_hz.max(1));
        let over = |f: &dyn Fn(&crate::trace::Sample) -> f32| {
            trace
                .samples
                .iter()
                .enumerate()
                .map(|(i, s)| ((i + 1) as f64 / hz, f64::from(f(s))))
                .collect::<Vec<_>>()
        };
        let other = |i: usize| trace.others.get(i).map_or(vec![], |o| o.points.clone());
        PlotSpec {
            title: format!("{title} (runs one after the other)"),
            x_label: "time over all runs (s)".into(),
            y_label: "world units".into(),
            series: vec![
                Series::dashed("platform centre x", other(0), (120, 120, 135)),
                Series::line("body x", over(&|s| s.position.x), (40, 110, 200)),
                Series::dashed("platform top", other(1), (40, 160, 90)),
                Series::line("body feet height", over(&|s| s.position.y), (215, 60, 40)),
            ],
            ..PlotSpec::default()
        }
    }
}

/// The level, the moving solid's index and the body's start of run `run`.
pub fn setup(run: usize) -> (MoverLevel, u16, MoverState) {
    let mut level = MoverLevel::new();
    let mut add = |a: (f32, f32, f32), b: (f32, f32, f32)| {
        let brush = Brush::aabb(Vec3::new(a.0, a.1, a.2), Vec3::new(b.0, b.1, b.2));
        // Constant, finite corners within range: never an error.
        level.push(brush.expect("a valid box")).expect("room")
    };
    add((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0));
    let on_platform = |x: f32, z: f32| {
        let mut s = MoverState::new(Vec3::new(x, 16.125, z));
        s.grounded = true;
        s
    };
    match run {
        0 => {
            let p = add((-64.0, 0.0, -64.0), (64.0, 16.0, 64.0));
            add((-4096.0, 0.0, WALL_Z), (4096.0, 128.0, WALL_Z + 16.0));
            (level, p, on_platform(0.0, WALL_Z - STOP))
        }
        1 => {
            let p = add((-64.0, 0.0, -64.0), (64.0, 16.0, 64.0));
            add((LINTEL_X, 24.0, -512.0), (LINTEL_X + 16.0, 256.0, 512.0));
            (level, p, on_platform(0.0, 0.0))
        }
        2 => {
            let p = add((-64.0, 0.0, -64.0), (64.0, 16.0, 64.0));
            (level, p, on_platform(0.0, 0.0))
        }
        _ => {
            let p = add((-64.0, 0.0, -64.0), (0.0, 64.0, 64.0));
            add(
                (CRUSH_WALL_X, 0.0, -512.0),
                (CRUSH_WALL_X + 16.0, 128.0, 512.0),
            );
            (level, p, MoverState::new(Vec3::new(24.0, 0.125, 0.0)))
        }
    }
}

/// The platform's velocity in run `run` at tick `t` of `ticks`.
pub fn velocity(run: usize, t: u32, ticks: u32) -> Vec3 {
    match run {
        0 | 1 => Vec3::new(200.0, 0.0, 0.0),
        2 if t < ticks / 2 => Vec3::new(0.0, 150.0, 0.0),
        2 => Vec3::new(0.0, -150.0, 0.0),
        _ => Vec3::new(300.0, 0.0, 0.0),
    }
}

/// The box at `feet` overlaps a solid by more than 1/1024 (touching is not inside).
pub fn inside(level: &MoverLevel, feet: Vec3, mins: Vec3, maxs: Vec3) -> bool {
    let e = Vec3::new(1.0 / 1024.0, 1.0 / 1024.0, 1.0 / 1024.0);
    level.contents(feet, mins + e, maxs - e).solid.is_some()
}

/// One line per run, then whether the body was ever inside a solid.
fn findings(trace: &Trace) -> Vec<String> {
    let of = |run: usize| {
        trace
            .samples
            .iter()
            .filter(move |s| s.extra[0] == run as f32)
    };
    let max = |run: usize, f: &dyn Fn(&crate::trace::Sample) -> f32| {
        of(run).map(f).fold(0.0f32, f32::max)
    };
    let mut out = vec![];
    out.push(format!(
        "along a wall: largest distance from its spot on the platform {} units, at most {} from \
         the wall's plane",
        num(max(0, &|s| s.extra[4]), 4),
        num(max(0, &|s| (s.position.z - (WALL_Z - STOP)).abs()), 4)
    ));
    if let Some(last) = of(1).next_back() {
        out.push(format!(
            "under a lintel: farthest x {} (the lintel's stop {}), on the floor at the end: {}",
            num(max(1, &|s| s.position.x), 3),
            num(LINTEL_X - STOP, 3),
            if last.flag(1) && last.position.y < 1.0 {
                "yes"
            } else {
                "no"
            }
        ));
    }
    out.push(format!(
        "elevator: largest distance from its spot on the platform {} units, grounded every tick: {}",
        num(max(2, &|s| s.extra[4]), 4),
        if of(2).all(|s| s.flag(1)) { "yes" } else { "no" }
    ));
    out.push(format!(
        "crushed: platform blocked {} ticks, the body's farthest x {} (the wall's stop {})",
        of(3).filter(|s| s.flag(3)).count(),
        num(max(3, &|s| s.position.x), 3),
        num(CRUSH_WALL_X - STOP, 3)
    ));
    let inside = trace.samples.iter().any(|s| s.flag(2));
    out.push(format!(
        "inside a solid after any tick: {}",
        if inside { "yes" } else { "no" }
    ));
    out
}
