//! `kind = "collide"`: the collision scenarios of issue 34 §4, run exactly as
//! [`hopkit_demo::collision`] defines them — its levels of solids, starts, scripted inputs,
//! presets (Quake III, Source for `surf` and `seam`; Quake units) and tick rates — through its
//! own [`run`](hopkit_demo::collision::run), the one that [`collision_hash`] folds into the
//! collision golden hash. Nothing here changes what a run does: this module records the runs,
//! prints what they show and plots them.
//!
//! A scenario with several runs (`corner`: 90° and 40°; `stairs`: 60, 120 and 250 Hz; `seam`: one
//! brush and eight; `startsolid`: two starts) writes them into one trace, one after the other:
//! the `run` column is the run's index, `tick` counts from 0 in each run and `time` is that run's
//! own simulated time at its own rate. The extra columns are [`COLUMNS`].
//!
//! A file's `seconds` (or `--seconds`) applies to every run: each runs that long at its own rate
//! (at least one tick). `tick_hz` is refused ([`check_file`]): the runs have their own rates.
//!
//! [`collision_hash`]: hopkit_demo::collision::collision_hash

use std::path::Path;

use anyhow::Result;
use hopkit::collide::{Brush, Tracer, SURFACE_CLIP_EPSILON};
use hopkit::math::Vec3;
use hopkit::movement::body_box;
use hopkit::movement::MoveParams;
use hopkit_demo::collision::{level_of, runs, Setup};
use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::driver::Progress;
use super::error::{error_at, FileError};
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::plot::{PlotSpec, Series};
use crate::readout::{num, position};
use crate::trace::{extras, flag, time_after, Sample, Trace};
use crate::UserError;

/// `[collide]`: one of the collision scenarios of issue 34, exactly as
/// `hopkit_demo::collision` defines it (its levels of solids, starts, scripted inputs, presets and
/// tick rates: see `scenario::collide`). A file's `seconds` applies to every run of the scenario
/// (each runs that long at its own tick rate); `tick_hz` is refused, because the runs have their
/// own rates (`stairs` three of them).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Collide {
    /// The scenario's name, one of `hopkit_demo::collision::SCENARIOS`.
    #[serde(deserialize_with = "collision_scenario")]
    pub scenario: String,
}

fn collision_scenario<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let name = String::deserialize(d)?;
    let known = hopkit_demo::collision::SCENARIOS;
    if known.contains(&name.as_str()) {
        Ok(name)
    } else {
        let list: Vec<String> = known.iter().map(|n| format!("`{n}`")).collect();
        Err(de::Error::custom(format!(
            "unknown collision scenario `{name}`, expected one of {}",
            list.join(", ")
        )))
    }
}

/// The `collide` kind: one built-in per scenario of `hopkit_demo::collision`.
pub struct CollideScenario;

/// A collision built-in: `host-sim/scenarios/NAME.toml` (`kind = "collide"`, `[collide]
/// scenario = "NAME"`).
macro_rules! collision_builtin {
    ($name:literal, $help:literal) => {
        Builtin {
            name: $name,
            help: $help,
            file: include_str!(concat!("../../scenarios/", $name, ".toml")),
        }
    };
}

/// The collision built-ins, in `hopkit_demo::collision::SCENARIOS` order (a test checks it).
const BUILTINS: [Builtin; 10] = [
    collision_builtin!(
        "corner",
        "pressed into a 90° and a 40° corner: no sticking, no jitter"
    ),
    collision_builtin!("hallway", "exactly the body's width, at full speed"),
    collision_builtin!(
        "stairs",
        "up and down at walking speed at 60, 120 and 250 Hz"
    ),
    collision_builtin!("ramp", "up a 30° ramp and over the top, no launch"),
    collision_builtin!("surf", "air-strafing on a 60° ramp: prints the speed gain"),
    collision_builtin!(
        "seam",
        "the surf ramp in one brush and in eight: equal final speeds"
    ),
    collision_builtin!("ceiling", "jumps under a ceiling at 72"),
    collision_builtin!("tunnel", "a 1-unit wall at max_velocity, never crossed"),
    collision_builtin!(
        "startsolid",
        "starting in a crate and in the floor: out within a tick"
    ),
    collision_builtin!(
        "platform-wall",
        "carried by a moving floor into a wall, not dragged into it"
    ),
];

impl Scenario for CollideScenario {
    fn kind(&self) -> Kind {
        Kind::Collide
    }

    fn builtins(&self) -> &'static [Builtin] {
        &BUILTINS
    }

    fn check(&self, path: &Path, text: &str, file: &ScenarioFile) -> Result<(), FileError> {
        check_file(path, text, file)
    }

    fn about(&self) -> Option<&'static str> {
        Some(
            "Collision built-ins (issue 34; the levels of solids, starts, inputs and rates of \
             hopkit_demo::collision, run as the collision hash runs them; Quake units; Quake III \
             preset, surf and seam Source at 66 Hz; several runs share one CSV, column `run`; \
             `seconds` applies to each run, `tick_hz` is refused)",
        )
    }

    /// Every run of the file's scenario, one after the other ([`record_runs`]).
    fn run(&self, file: &ScenarioFile, _: &Path, progress: &mut Progress) -> Result<Trace> {
        let bar = progress.start(total_ticks(file));
        record_runs(file, &mut || bar.inc(1))
    }

    fn findings(&self, file: &ScenarioFile, trace: &Trace) -> Vec<String> {
        findings(file, trace)
    }

    fn plot(&self, file: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        plot(file, title, trace)
    }

    fn ran(&self, file: &ScenarioFile, trace: &Trace) -> String {
        ran(file, trace)
    }
}

/// The extra CSV columns of every collision scenario: the run's index (from 0, in
/// `hopkit_demo::collision::SETUPS` order), then flags: on the ground, a move blocked by a solid
/// this tick (`StepEvents::hit_wall`), on ground too steep to stand on (`StepEvents::sliding`:
/// surfing), and the body's box overlapping a solid after the tick (a trace from its position to
/// itself starts solid; only `startsolid` ever starts so).
pub const COLUMNS: [&str; 5] = ["run", "grounded", "hit_wall", "sliding", "in_solid"];

/// Height at which the top views cut the solids, world units: above the floor (its top is at 0),
/// below the top of every wall and crate.
pub const TOP_VIEW_CUT: f32 = 16.0;

/// What the plot of a scenario shows.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum View {
    /// Seen from above (x–z, world −Z up), the solids cut at [`TOP_VIEW_CUT`].
    Top,
    /// Seen from the side (x–height), the solids cut through the path (at the start's `z`).
    Side,
    /// Horizontal speed over time, one line per run.
    Speed,
}

/// The plot of scenario `name`: a top view where the point is where the body goes among walls
/// (`corner`, `hallway`, `startsolid`, `platform-wall`), a side view where it is how high
/// (`stairs`, `ramp`, `ceiling`, `tunnel`), speed over time where it is the speed (`surf`,
/// `seam`).
pub fn view(name: &str) -> View {
    match name {
        "stairs" | "ramp" | "ceiling" | "tunnel" => View::Side,
        "surf" | "seam" => View::Speed,
        _ => View::Top,
    }
}

/// Check what the fields alone cannot: `kind = "collide"` names its scenario in `[collide]`, and
/// gives no `tick_hz` (each run has its own rate; a rate that would not be used is refused, not
/// ignored).
pub fn check_file(path: &Path, text: &str, file: &ScenarioFile) -> Result<(), FileError> {
    if file.collide.is_none() {
        return Err(error_at(
            path,
            text,
            super::find_section(text, "kind"),
            "collide",
            "kind = \"collide\" needs a [collide] section naming the scenario, e.g. \
             scenario = \"corner\"",
        ));
    }
    if let Some(at) = super::find_section(text, "tick_hz") {
        return Err(error_at(
            path,
            text,
            Some(at),
            "tick_hz",
            "tick_hz does not apply to kind = \"collide\": each run has its own rate \
             (hopkit_demo::collision); leave it out",
        ));
    }
    Ok(())
}

/// The runs of a `collide` file as they will run: `hopkit_demo::collision`'s setups of its
/// scenario, with the file's `seconds` (if any) applied to each. An unknown or missing scenario
/// is the user's mistake.
pub fn setups(file: &ScenarioFile) -> Result<Vec<Setup>, UserError> {
    let name = file
        .collide
        .as_ref()
        .map(|c| c.scenario.as_str())
        .ok_or_else(|| {
            UserError("kind = \"collide\" needs [collide] scenario = NAME".to_string())
        })?;
    let out: Vec<Setup> = runs(name).map(|s| with_seconds(s, file.seconds)).collect();
    if out.is_empty() {
        return Err(UserError(format!("no collision scenario named `{name}`")));
    }
    Ok(out)
}

/// `setup` lasting `seconds` (at its own rate, rounded to whole ticks, at least one), or as
/// defined when `None`.
pub fn with_seconds(setup: &Setup, seconds: Option<f64>) -> Setup {
    match seconds {
        None => *setup,
        Some(s) => {
            let hz = f64::from(setup.tick_hz.max(1));
            let ticks = (s * hz).round().max(1.0);
            // `Setup::ticks` truncates seconds × rate: half a tick more lands on `ticks` exactly.
            Setup {
                seconds: ((ticks + 0.5) / hz) as f32,
                ..*setup
            }
        }
    }
}

/// Ticks of all runs together (the progress bar's length).
pub fn total_ticks(file: &ScenarioFile) -> u32 {
    setups(file).map_or(1, |v| v.iter().map(Setup::ticks).sum::<u32>().max(1))
}

/// The name of a movement preset, if `params` is one of the presets exactly.
pub fn preset_name(params: &MoveParams) -> &'static str {
    let presets: [(MoveParams, &str); 6] = [
        (MoveParams::quake3(), "Quake III (MoveParams::quake3)"),
        (MoveParams::source(), "Source (MoveParams::source)"),
        (
            MoveParams::quakeworld(),
            "QuakeWorld (MoveParams::quakeworld)",
        ),
        (MoveParams::cpma(), "CPM (MoveParams::cpma)"),
        (MoveParams::seed(), "seed (MoveParams::seed)"),
        (
            MoveParams::seed_figure(),
            "seed-figure (MoveParams::seed_figure)",
        ),
    ];
    presets
        .iter()
        .find(|(p, _)| p == params)
        .map_or("a custom MoveParams", |(_, n)| n)
}

/// The solids of a run's level above its floor (the floor, 16 thick with its top at 0, is the
/// level's first solid: [`level_of`]).
fn solids(setup: &Setup) -> Vec<Brush> {
    level_of(setup)
        .brushes()
        .iter()
        .filter(|b| b.maxs().y > 0.0)
        .copied()
        .collect()
}

/// Run every run of the file's scenario with `hopkit_demo::collision::run`, one sample per tick.
pub fn record_runs(file: &ScenarioFile, progress: &mut dyn FnMut()) -> Result<Trace> {
    let setups = setups(file)?;
    let last = setups.len() - 1;
    let actor = if last == 0 {
        "body".to_string()
    } else {
        format!("body in run {last} ({})", setups[last].label)
    };
    let mut trace = Trace::new(setups[0].tick_hz, &actor, &COLUMNS);
    for (i, setup) in setups.iter().enumerate() {
        let level = level_of(setup);
        let params = (setup.params)();
        hopkit_demo::collision::run(setup, |t, s, ev| {
            let (mins, maxs) = body_box(s, &params);
            let in_solid = level.trace(s.position, s.position, mins, maxs).start_solid;
            trace.samples.push(Sample {
                tick: t,
                time: time_after(t, setup.tick_hz),
                position: s.position,
                velocity: s.velocity,
                speed: s.planar_speed(),
                extra: extras(&[
                    i as f32,
                    flag(s.grounded),
                    flag(ev.hit_wall),
                    flag(ev.sliding),
                    flag(in_solid),
                ]),
            });
            progress();
        });
    }
    Ok(trace)
}

/// The samples of each run, in order: `(run index, samples)`.
pub fn by_run(trace: &Trace) -> Vec<(usize, &[Sample])> {
    trace
        .samples
        .chunk_by(|a, b| a.extra[0] == b.extra[0])
        .map(|c| (c[0].extra[0] as usize, c))
        .collect()
}

/// The runs of the trace with their setups (runs the file does not have are left out).
fn paired<'t>(file: &ScenarioFile, trace: &'t Trace) -> Vec<(Setup, &'t [Sample])> {
    let setups = setups(file).unwrap_or_default();
    by_run(trace)
        .into_iter()
        .filter_map(|(i, s)| setups.get(i).map(|setup| (*setup, s)))
        .collect()
}

/// What ran, for the first line of the output: ticks, rate and seconds of each run.
pub fn ran(file: &ScenarioFile, trace: &Trace) -> String {
    let runs = paired(file, trace);
    let secs = |(setup, s): &(Setup, &[Sample])| s.len() as f64 / f64::from(setup.tick_hz.max(1));
    let ticks = |(setup, s): &(Setup, &[Sample])| {
        format!("{} at {} Hz", count(s.len(), "tick"), setup.tick_hz)
    };
    match runs.as_slice() {
        [one] => format!("{} ({} s)", ticks(one), num(secs(one), 2)),
        _ if runs.windows(2).all(|w| secs(&w[0]) == secs(&w[1])) => format!(
            "{} runs of {} s: {}",
            runs.len(),
            num(runs.first().map_or(0.0, secs), 2),
            runs.iter().map(ticks).collect::<Vec<_>>().join(", ")
        ),
        _ => format!(
            "{} runs: {}",
            runs.len(),
            runs.iter()
                .map(|r| format!("{} ({} s)", ticks(r), num(secs(r), 2)))
                .collect::<Vec<_>>()
                .join(", ")
        ),
    }
}

/// Largest distance between consecutive positions in `s`.
fn largest_step(s: &[Sample]) -> f32 {
    s.windows(2)
        .map(|w| w[1].position.distance(w[0].position))
        .fold(0.0, f32::max)
}

/// `n` and the noun, plural unless `n` is 1.
fn count(n: usize, noun: &str) -> String {
    format!("{n} {noun}{}", if n == 1 { "" } else { "s" })
}

fn yes(b: bool) -> &'static str {
    if b {
        "yes"
    } else {
        "no"
    }
}

fn max_of(s: &[Sample], f: impl Fn(&Sample) -> f32) -> f32 {
    s.iter().map(f).fold(f32::MIN, f32::max)
}

/// Findings of a collision run: what ran (level and preset of each run), then what the scenario
/// shows, measured on the trace.
pub fn findings(file: &ScenarioFile, trace: &Trace) -> Vec<String> {
    let runs = paired(file, trace);
    let mut out = vec![];
    for (i, (setup, _)) in runs.iter().enumerate() {
        let moving = setup.platform.map_or(String::new(), |(_, _, v)| {
            format!(
                ", part of the floor moving at {} world units/s",
                num(v.length(), 0)
            )
        });
        out.push(format!(
            "run {i} `{}`: hopkit_demo::collision `{}`, {} preset, {} Hz, the floor and {}{moving}",
            setup.label,
            setup.scenario,
            preset_name(&(setup.params)()),
            setup.tick_hz,
            count(solids(setup).len(), "solid")
        ));
    }
    let name = runs.first().map_or("", |(s, _)| s.scenario);
    match name {
        "corner" => {
            for (setup, s) in &runs {
                let hz = setup.tick_hz as usize;
                let end = s.last().map_or_else(String::new, |x| position(x.position));
                // The last second's ticks and the one before them (its first change).
                let jitter = if s.len() > hz {
                    let jitter = largest_step(&s[s.len() - hz - 1..]);
                    format!(
                        "largest position change in a tick over the last second {} world units \
                         ({})",
                        num(jitter, 6),
                        if jitter == 0.0 {
                            "at rest, no jitter"
                        } else {
                            "still moving or jittering"
                        }
                    )
                } else {
                    "the run is too short for its last second to be measured".to_string()
                };
                out.push(format!("`{}`: at the end at {end}; {jitter}", setup.label));
            }
        }
        "hallway" => {
            for (setup, s) in &runs {
                let walls = solids(setup);
                // The walls' inner faces on either side of the path (z = 0).
                let left = walls
                    .iter()
                    .filter(|b| b.maxs().z <= 0.0)
                    .map(|b| b.maxs().z)
                    .fold(f32::MIN, f32::max);
                let right = walls
                    .iter()
                    .filter(|b| b.mins().z >= 0.0)
                    .map(|b| b.mins().z)
                    .fold(f32::MAX, f32::min);
                let settled = &s[s.len().min(setup.tick_hz as usize / 2)..];
                let body = 2.0 * (setup.params)().body_radius;
                let speed = if settled.is_empty() {
                    "the run ends before 0.5 s".to_string()
                } else {
                    format!(
                        "speed after the first 0.5 s from {} to {} world units/s",
                        num(settled.iter().map(|x| x.speed).fold(f32::MAX, f32::min), 3),
                        num(max_of(settled, |x| x.speed), 3)
                    )
                };
                out.push(format!(
                    "`{}`: hallway {} wide, body {}; largest sideways offset {}, ticks touching a \
                     wall {}, {speed}; at the end x = {}",
                    setup.label,
                    num(right - left, 3),
                    num(body, 3),
                    num(max_of(s, |x| x.position.z.abs()), 3),
                    s.iter().filter(|x| x.flag(2)).count(),
                    num(s.last().map_or(0.0, |x| x.position.x), 1)
                ));
            }
        }
        "stairs" => {
            for (setup, s) in &runs {
                let last = s.last().map_or(Vec3::ZERO, |x| x.position);
                out.push(format!(
                    "`{}`: top height reached {}, at the end x = {} height {}; on the ground \
                     every tick after the first: {}",
                    setup.label,
                    num(max_of(s, |x| x.position.y), 3),
                    num(last.x, 1),
                    num(last.y, 3),
                    yes(s.iter().skip(1).all(|x| x.flag(1)))
                ));
            }
        }
        "ramp" => {
            for (setup, s) in &runs {
                let r = (setup.params)().body_radius;
                let top = solids(setup).iter().map(|b| b.maxs().y).fold(0.0, f32::max);
                let end = solids(setup).iter().map(|b| b.maxs().x).fold(0.0, f32::max);
                let highest = max_of(s, |x| x.position.y);
                // Standing on the plateau the feet are its top and the skin.
                let verdict = if highest < top {
                    "not on the plateau yet"
                } else if highest <= top + SURFACE_CLIP_EPSILON + 1e-3 {
                    "no launch"
                } else {
                    "LAUNCHED above it"
                };
                out.push(format!(
                    "`{}`: top height reached {} (the plateau's top is {}: {verdict})",
                    setup.label,
                    num(highest, 3),
                    num(top, 0)
                ));
                if let Some(x) = s.iter().skip(1).find(|x| !x.flag(1)) {
                    let back = x.position.x - r;
                    out.push(format!(
                        "first in the air at x = {}: the body's back edge at {}, {} the solids' \
                         end at {}",
                        num(x.position.x, 2),
                        num(back, 2),
                        if back > end { "past" } else { "BEFORE" },
                        num(end, 2)
                    ));
                }
            }
        }
        "surf" | "seam" => {
            let mut finals = vec![];
            for (setup, s) in &runs {
                let entry = (setup.start)().planar_speed();
                let last = s.last().map_or(0.0, |x| x.speed);
                finals.push(last);
                out.push(format!(
                    "`{}`: entry {} → final {} world units/s, ×{}; on the ramp (sliding) {} of \
                     {} ticks, standing on it {}",
                    setup.label,
                    num(entry, 1),
                    num(last, 1),
                    num(last / entry, 2),
                    s.iter().filter(|x| x.flag(3)).count(),
                    s.len(),
                    s.iter().filter(|x| x.flag(1)).count()
                ));
            }
            if let [(_, a), (_, b)] = runs.as_slice() {
                let same = a.len() == b.len()
                    && a.iter()
                        .zip(b.iter())
                        .all(|(x, y)| x.position == y.position && x.velocity == y.velocity);
                out.push(format!(
                    "final speeds {}: {}; every tick's position and velocity the same: {}",
                    finals
                        .iter()
                        .map(|v| num(*v, 3).to_string())
                        .collect::<Vec<_>>()
                        .join(" and "),
                    if finals.windows(2).all(|w| w[0] == w[1]) {
                        "equal"
                    } else {
                        "different"
                    },
                    yes(same)
                ));
            }
        }
        "ceiling" => {
            for (setup, s) in &runs {
                let height = (setup.params)().stand_height;
                let ceiling = solids(setup)
                    .iter()
                    .map(|b| b.mins().y)
                    .fold(f32::MAX, f32::min);
                let head = max_of(s, |x| x.position.y + height);
                let rising = s
                    .iter()
                    .filter(|x| {
                        let at_ceiling =
                            x.position.y + height >= ceiling - SURFACE_CLIP_EPSILON - 1e-3;
                        at_ceiling && x.velocity.y > 0.0
                    })
                    .count();
                out.push(format!(
                    "`{}`: highest head {} (feet + {}) under the ceiling's underside at {} (gap \
                     {}); ticks still rising at the ceiling {rising}; head above it: {}",
                    setup.label,
                    num(head, 3),
                    num(height, 0),
                    num(ceiling, 0),
                    num(ceiling - head, 3),
                    if head <= ceiling { "never" } else { "YES" }
                ));
            }
        }
        "tunnel" => {
            for (setup, s) in &runs {
                let r = (setup.params)().body_radius;
                let face = solids(setup)
                    .iter()
                    .map(|b| b.mins().x)
                    .fold(f32::MAX, f32::min);
                let closest = s
                    .iter()
                    .map(|x| face - (x.position.x + r))
                    .fold(f32::MAX, f32::min);
                let hit = match s.iter().position(|x| x.flag(2)) {
                    Some(h) => {
                        let before = match h {
                            0 => (setup.start)().planar_speed(),
                            _ => s[h - 1].speed,
                        };
                        format!(
                            "hit it at tick {h} coming at {} world units/s",
                            num(before, 1)
                        )
                    }
                    None => "did not reach it".to_string(),
                };
                out.push(format!(
                    "`{}`: closest distance from the body's front to the wall's face at x = {}: \
                     {} world units ({}); {hit}",
                    setup.label,
                    num(face, 0),
                    num(closest, 4),
                    if closest >= 0.0 {
                        "never crossed"
                    } else {
                        "CROSSED"
                    }
                ));
            }
        }
        "startsolid" => {
            for (setup, s) in &runs {
                let start = (setup.start)();
                let (mins, maxs) = body_box(&start, &(setup.params)());
                let at_start = level_of(setup)
                    .trace(start.position, start.position, mins, maxs)
                    .start_solid;
                let out_at = s.iter().position(|x| !x.flag(4));
                let back_in = out_at.is_some_and(|o| s[o..].iter().any(|x| x.flag(4)));
                out.push(format!(
                    "`{}`: starts at {} {} a solid; out of it {}, back in: {}; on the \
                     ground at the end: {}",
                    setup.label,
                    position(start.position),
                    if at_start { "inside" } else { "outside" },
                    out_at.map_or_else(
                        || "never".to_string(),
                        |o| format!("after {}", count(o + 1, "tick"))
                    ),
                    yes(back_in),
                    yes(s.last().is_some_and(|x| x.flag(1)))
                ));
            }
        }
        "platform-wall" => {
            for (setup, s) in &runs {
                let r = (setup.params)().body_radius;
                let face = solids(setup)
                    .iter()
                    .map(|b| b.mins().x)
                    .fold(f32::MAX, f32::min);
                let x = s.last().map_or(0.0, |x| x.position.x);
                out.push(format!(
                    "`{}`: carried with no input to x = {}, the body's front {} from the wall's \
                     face at {}; on the ground every tick: {}",
                    setup.label,
                    num(x, 3),
                    num(face - (x + r), 3),
                    num(face, 0),
                    yes(s.iter().all(|x| x.flag(1)))
                ));
            }
        }
        _ => {}
    }
    if name != "startsolid" {
        let inside = trace.samples.iter().filter(|x| x.flag(4)).count();
        out.push(format!(
            "ticks with the body inside a solid: {inside} of {}",
            trace.samples.len()
        ));
    }
    out
}

const RUN_COLORS: [(u8, u8, u8); 3] = [(215, 60, 40), (40, 110, 200), (40, 160, 90)];
const SOLID_COLORS: [(u8, u8, u8); 3] = [(70, 70, 80), (120, 120, 200), (120, 180, 120)];
const PLATFORM_COLOR: (u8, u8, u8) = (200, 140, 30);

/// The cut of a convex `brush` by the plane where coordinate `axis` (1 = height, 2 = z) is
/// `at`, in the two other coordinates (`(x, z)` or `(x, y)`), clipped to the rectangle
/// `window` (lower and upper corners): a convex polygon, empty if the cut misses.
pub fn section(brush: &Brush, axis: usize, at: f64, window: [(f64, f64); 2]) -> Vec<(f64, f64)> {
    let comp = |v: Vec3, i: usize| {
        f64::from(match i {
            0 => v.x,
            1 => v.y,
            _ => v.z,
        })
    };
    let other = if axis == 1 { 2 } else { 1 };
    let [(u0, v0), (u1, v1)] = window;
    let mut poly = vec![(u0, v0), (u1, v0), (u1, v1), (u0, v1)];
    // The solid side of each plane is `n · p ≤ dist`: with the cut coordinate fixed, the
    // half-plane `a·u + b·v ≤ c`, clipped one after the other (Sutherland–Hodgman).
    for p in brush.sides() {
        let (a, b) = (comp(p.normal, 0), comp(p.normal, other));
        let c = f64::from(p.dist) - comp(p.normal, axis) * at;
        let mut next = Vec::with_capacity(poly.len() + 1);
        for (i, &p) in poly.iter().enumerate() {
            let q = poly[(i + 1) % poly.len()];
            let (dp, dq) = (a * p.0 + b * p.1 - c, a * q.0 + b * q.1 - c);
            if dp <= 0.0 {
                next.push(p);
            }
            if (dp <= 0.0) != (dq <= 0.0) {
                let t = dp / (dp - dq);
                next.push((p.0 + t * (q.0 - p.0), p.1 + t * (q.1 - p.1)));
            }
        }
        poly = next;
        if poly.is_empty() {
            break;
        }
    }
    poly
}

/// The outlines of `brushes` cut as [`section`] does, as one line broken between solids (`NaN`
/// points), leaving out the edges that lie on the window's border (the solid goes on past
/// it). `flip` negates the second coordinate (top views: world −Z up).
fn outlines(
    brushes: &[Brush],
    axis: usize,
    at: f64,
    window: [(f64, f64); 2],
    flip: bool,
) -> Vec<(f64, f64)> {
    let [(u0, v0), (u1, v1)] = window;
    let on_border = |p: (f64, f64), q: (f64, f64)| {
        (p.0 == q.0 && (p.0 == u0 || p.0 == u1)) || (p.1 == q.1 && (p.1 == v0 || p.1 == v1))
    };
    let sign = if flip { -1.0 } else { 1.0 };
    let mut out: Vec<(f64, f64)> = vec![];
    let mut last = None;
    for b in brushes {
        let poly = section(b, axis, at, window);
        for (i, &p) in poly.iter().enumerate() {
            let q = poly[(i + 1) % poly.len()];
            if on_border(p, q) {
                continue;
            }
            if last != Some(p) {
                out.push((f64::NAN, f64::NAN));
                out.push((p.0, sign * p.1));
            }
            out.push((q.0, sign * q.1));
            last = Some(q);
        }
        last = None;
    }
    out
}

/// The bounding box of `points`, grown by `pad` (lower, upper) on each axis.
fn window_around(points: &[(f64, f64)], pad_u: f64, pad_v: (f64, f64)) -> [(f64, f64); 2] {
    let (mut lo, mut hi) = ((f64::MAX, f64::MAX), (f64::MIN, f64::MIN));
    for &(u, v) in points {
        lo = (lo.0.min(u), lo.1.min(v));
        hi = (hi.0.max(u), hi.1.max(v));
    }
    if lo.0 > hi.0 {
        (lo, hi) = ((0.0, 0.0), (0.0, 0.0));
    }
    [
        (lo.0 - pad_u, lo.1 - pad_v.0),
        (hi.0 + pad_u, hi.1 + pad_v.1),
    ]
}

/// The solids' outlines in the plot, one series per distinct level (runs on the same level share
/// it): labelled "solids", or "solids of <run>" when the runs' levels differ.
fn solid_series(
    runs: &[(Setup, &[Sample])],
    axis: usize,
    at: f64,
    window: [(f64, f64); 2],
    flip: bool,
    cut: &str,
) -> Vec<Series> {
    let levels: Vec<Vec<Brush>> = runs.iter().map(|(s, _)| solids(s)).collect();
    let all_same = levels.windows(2).all(|w| w[0] == w[1]);
    let mut out = vec![];
    for (i, level) in levels.iter().enumerate() {
        if levels[..i].contains(level) {
            continue;
        }
        let mut brushes = level.clone();
        // The side view shows the floor too.
        if axis == 2 {
            brushes.extend(
                level_of(&runs[i].0)
                    .brushes()
                    .iter()
                    .filter(|b| b.maxs().y <= 0.0),
            );
        }
        let label = if all_same {
            format!("solids ({cut})")
        } else {
            format!("solids of {} ({cut})", runs[i].0.label)
        };
        out.push(Series::line(
            &label,
            outlines(&brushes, axis, at, window, flip),
            SOLID_COLORS[i % SOLID_COLORS.len()],
        ));
    }
    out
}

fn run_label(runs: &[(Setup, &[Sample])], i: usize, what: &str) -> String {
    if runs.len() == 1 {
        what.to_string()
    } else {
        format!("{what}, {}", runs[i].0.label)
    }
}

/// Run `i`'s line: the first run solid, the later ones dashed (a run on top of an earlier one
/// still shows).
fn run_line(runs: &[(Setup, &[Sample])], i: usize, what: &str, points: Vec<(f64, f64)>) -> Series {
    let (label, color) = (run_label(runs, i, what), RUN_COLORS[i % RUN_COLORS.len()]);
    if i == 0 {
        Series::line(&label, points, color)
    } else {
        Series::dashed(&label, points, color)
    }
}

/// The feet's path of each run from its start state (before the first tick) on, in the view's
/// two coordinates (`(x, z)` for the top view, `(x, y)` for the side view).
fn feet_paths(runs: &[(Setup, &[Sample])], view: View) -> Vec<Vec<(f64, f64)>> {
    let pick = |p: Vec3| {
        let v = if view == View::Top { p.z } else { p.y };
        (f64::from(p.x), f64::from(v))
    };
    runs.iter()
        .map(|(setup, s)| {
            std::iter::once((setup.start)().position)
                .chain(s.iter().map(|x| x.position))
                .map(pick)
                .collect()
        })
        .collect()
}

/// The outline of the body's standing box with its feet at `(u, v)` in the view: `r` either
/// side of `x` and `z` (top view), from the feet up to `height` (side view); `sign` −1 flips the
/// second coordinate (top view).
fn body_outline(at: (f64, f64), r: f64, height: f64, view: View, sign: f64) -> Vec<(f64, f64)> {
    let (u0, u1) = (at.0 - r, at.0 + r);
    let (v0, v1) = if view == View::Top {
        (at.1 - r, at.1 + r)
    } else {
        (at.1, at.1 + height)
    };
    [(u0, v0), (u1, v0), (u1, v1), (u0, v1), (u0, v0)]
        .iter()
        .map(|&(u, v)| (u, sign * v))
        .collect()
}

/// The body's box at the start (top view only) and at the end of each run, in one series
/// broken between boxes.
fn body_boxes(runs: &[(Setup, &[Sample])], paths: &[Vec<(f64, f64)>], view: View) -> Series {
    let sign = if view == View::Top { -1.0 } else { 1.0 };
    let mut points = vec![];
    for ((setup, _), path) in runs.iter().zip(paths) {
        let params = (setup.params)();
        let (r, h) = (
            f64::from(params.body_radius),
            f64::from(params.stand_height),
        );
        let ends = match (path.first(), path.last()) {
            (Some(a), Some(b)) if view == View::Top => vec![*a, *b],
            (_, Some(b)) => vec![*b],
            _ => vec![],
        };
        for at in ends {
            points.push((f64::NAN, f64::NAN));
            points.extend(body_outline(at, r, h, view, sign));
        }
    }
    let what = if view == View::Top {
        "the body's box at the start and the end"
    } else {
        "the body's box at the end"
    };
    Series::line(what, points, (150, 150, 165))
}

/// The plot of a collision run ([`view`]), with the solids' outlines in the top and side views.
pub fn plot(file: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
    let runs = paired(file, trace);
    let name = runs.first().map_or("", |(s, _)| s.scenario);
    match view(name) {
        View::Top => top_view(title, &runs),
        View::Side => side_view(title, &runs),
        View::Speed => speed_plot(title, &runs),
    }
}

fn top_view(title: &str, runs: &[(Setup, &[Sample])]) -> PlotSpec {
    let paths = feet_paths(runs, View::Top);
    let window = window_around(&paths.concat(), 64.0, (64.0, 64.0));
    let cut = format!("cut at height {}", num(TOP_VIEW_CUT, 0));
    let mut series = solid_series(runs, 1, f64::from(TOP_VIEW_CUT), window, true, &cut);
    if let Some((lo, hi, v)) = runs.iter().find_map(|(s, _)| s.platform) {
        let (a, b) = (
            (f64::from(lo.x), -f64::from(lo.y)),
            (f64::from(hi.x), -f64::from(hi.y)),
        );
        series.push(Series::dashed(
            &format!(
                "moving floor ({} world units/s along +X)",
                num(v.length(), 0)
            ),
            vec![a, (b.0, a.1), b, (a.0, b.1), a],
            PLATFORM_COLOR,
        ));
    }
    series.push(body_boxes(runs, &paths, View::Top));
    for (i, path) in paths.iter().enumerate() {
        let points = path.iter().map(|&(x, z)| (x, -z)).collect();
        let mut s = run_line(runs, i, "feet", points);
        s.mark_ends = true;
        series.push(s);
    }
    PlotSpec {
        title: format!("{title} (top view, -Z up)"),
        x_label: "x (world units)".into(),
        y_label: "z (world units)".into(),
        series,
        equal_aspect: true,
        negate_y_labels: true,
        ..PlotSpec::default()
    }
}

fn side_view(title: &str, runs: &[(Setup, &[Sample])]) -> PlotSpec {
    let paths = feet_paths(runs, View::Side);
    let height = runs
        .first()
        .map_or(0.0, |(s, _)| f64::from((s.params)().stand_height));
    let window = window_around(&paths.concat(), 64.0, (32.0, height + 32.0));
    let z = runs
        .first()
        .map_or(0.0, |(s, _)| f64::from((s.start)().position.z));
    let cut = format!("cut at z = {}", num(z, 0));
    let mut series = solid_series(runs, 2, z, window, false, &cut);
    series.push(body_boxes(runs, &paths, View::Side));
    let ceiling = runs.first().is_some_and(|(s, _)| s.scenario == "ceiling");
    for (i, path) in paths.iter().enumerate() {
        if ceiling {
            let head = path.iter().map(|&(x, y)| (x, y + height)).collect();
            let what = format!("head (feet + {})", num(height, 0));
            series.push(Series::dashed(
                &run_label(runs, i, &what),
                head,
                RUN_COLORS[i % RUN_COLORS.len()],
            ));
        }
        let mut s = run_line(runs, i, "feet", path.clone());
        s.mark_ends = true;
        series.push(s);
    }
    PlotSpec {
        title: format!("{title} (side view)"),
        x_label: "x (world units)".into(),
        y_label: "height (world units)".into(),
        series,
        equal_aspect: true,
        ..PlotSpec::default()
    }
}

fn speed_plot(title: &str, runs: &[(Setup, &[Sample])]) -> PlotSpec {
    let mut series = vec![];
    let end = runs
        .iter()
        .filter_map(|(_, s)| s.last())
        .map(|x| f64::from(x.time))
        .fold(0.0, f64::max);
    if let Some((setup, _)) = runs.first() {
        let entry = f64::from((setup.start)().planar_speed());
        series.push(Series::dashed(
            &format!("entry speed ({})", num(entry, 1)),
            vec![(0.0, entry), (end, entry)],
            (90, 90, 100),
        ));
        series.push(Series::dashed(
            &format!("1.5 x entry ({})", num(1.5 * entry, 1)),
            vec![(0.0, 1.5 * entry), (end, 1.5 * entry)],
            (150, 150, 165),
        ));
    }
    for (i, (setup, s)) in runs.iter().enumerate() {
        // From the start state at time 0.
        let start = (0.0, f64::from((setup.start)().planar_speed()));
        let points = std::iter::once(start)
            .chain(s.iter().map(|x| (f64::from(x.time), f64::from(x.speed))))
            .collect();
        series.push(run_line(runs, i, "horizontal speed", points));
    }
    PlotSpec {
        title: format!("{title} (speed over time)"),
        x_label: "time (s)".into(),
        y_label: "horizontal speed (world units/s)".into(),
        series,
        y_from_zero: true,
        ..PlotSpec::default()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit_demo::collision::{SCENARIOS, SETUPS};

    #[test]
    fn seconds_apply_as_whole_ticks_at_each_runs_rate() {
        for setup in &SETUPS {
            assert_eq!(with_seconds(setup, None).ticks(), setup.ticks());
            for s in [0.0001, 0.01, 0.1, 0.7, 1.0, 2.5, 3.3, 4.0, 59.9, 600.0] {
                let want = (s * f64::from(setup.tick_hz)).round().max(1.0) as u32;
                assert_eq!(with_seconds(setup, Some(s)).ticks(), want, "{s} s");
            }
        }
    }

    #[test]
    fn the_builtins_are_the_collision_scenarios_in_order() {
        let names: Vec<&str> = BUILTINS.iter().map(|b| b.name).collect();
        assert_eq!(names, SCENARIOS);
    }

    #[test]
    fn every_scenario_has_a_view_and_named_presets() {
        for name in SCENARIOS {
            assert!(runs(name).count() > 0);
            for s in runs(name) {
                assert_ne!(preset_name(&(s.params)()), "a custom MoveParams", "{name}");
            }
        }
        assert_eq!(view("surf"), View::Speed);
        assert_eq!(view("stairs"), View::Side);
        assert_eq!(view("corner"), View::Top);
    }

    #[test]
    fn a_box_cut_is_its_rectangle_and_a_ramp_cut_its_wedge() {
        let b = Brush::aabb(Vec3::new(0.0, 0.0, -1.0), Vec3::new(2.0, 3.0, 1.0)).unwrap();
        let w = [(-10.0, -10.0), (10.0, 10.0)];
        let mut p = section(&b, 2, 0.0, w);
        p.sort_by(|a, b| a.partial_cmp(b).unwrap());
        assert_eq!(p, [(0.0, 0.0), (0.0, 3.0), (2.0, 0.0), (2.0, 3.0)]);
        assert!(section(&b, 2, 5.0, w).is_empty(), "misses");
        assert!(section(&b, 1, 1.0, [(5.0, 5.0), (6.0, 6.0)]).is_empty());
        // A ramp rising towards +X: the cut is a right triangle.
        let r = Brush::ramp(
            Vec3::new(0.0, 0.0, -1.0),
            Vec3::new(4.0, 2.0, 1.0),
            hopkit::collide::Toward::PlusX,
        )
        .unwrap();
        let p = section(&r, 2, 0.0, w);
        let area = p
            .iter()
            .zip(p.iter().cycle().skip(1))
            .map(|(a, b)| a.0 * b.1 - b.0 * a.1)
            .sum::<f64>()
            .abs()
            / 2.0;
        assert!((area - 4.0).abs() < 1e-4, "{p:?}");
        // Clipped by the window at x = 1: the edge on the window's border is not drawn.
        let lines = outlines(&[b], 2, 0.0, [(1.0, -10.0), (10.0, 10.0)], false);
        let edges: Vec<_> = lines
            .windows(2)
            .filter(|w| w[0].0.is_finite() && w[1].0.is_finite())
            .collect();
        assert_eq!(edges.len(), 3, "{lines:?}");
        assert!(
            edges.iter().all(|w| !(w[0].0 == 1.0 && w[1].0 == 1.0)),
            "{lines:?}"
        );
    }
}
