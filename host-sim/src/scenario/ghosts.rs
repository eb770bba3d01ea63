//! `kind = "ghosts"`: ghost fighters replaying a recording (the demo formation or a random
//! fleet), at the recording's tick rate.

use std::path::Path;

use anyhow::Result;
use hopkit::ghost::{GhostScene, Recording};
use hopkit_demo::level::DemoGround;
use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::config::shown;
use super::driver::Progress;
use super::{Builtin, Kind, Scenario, ScenarioFile};
use crate::replay::decode_error_message;
use crate::ticks::max_ticks;
use crate::trace::{extras, flag, time_after, Path2, Sample, Trace};
use crate::UserError;

/// Ghosts in the `ghosts` scenario (the demo's formation size).
pub const GHOSTS: usize = 4;

/// `[ghosts]`: fighters replaying a recording.
#[derive(Clone, Debug, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Ghosts {
    /// Recording file (relative to the scenario file); default: the bundled demo recording.
    pub recording: Option<String>,
    /// `formation` (default): the demo's leader and wingmen (`hopkit_demo::pilot::formation`); `fleet`: ghosts
    /// spread over the arena from random start frames (`hopkit_demo::pilot::fleet`).
    pub layout: GhostLayout,
    /// `fleet` only: seed of the random spawn, a whole number `0..=u64::MAX`. Default 2 (the
    /// demo's).
    #[serde(deserialize_with = "opt_seed")]
    pub seed: Option<u64>,
}

/// Ghost layouts.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum GhostLayout {
    /// The demo formation.
    #[default]
    Formation,
    /// A random fleet.
    Fleet,
}

/// `[ghosts] seed`: any whole number `0..=u64::MAX` (the range says what is wrong, not the
/// integer type).
fn opt_seed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    struct V;
    fn out_of_range<E: de::Error>(v: &dyn std::fmt::Display) -> E {
        E::custom(format!(
            "seed must be a whole number between 0 and {}, got {v}",
            u64::MAX
        ))
    }
    impl de::Visitor<'_> for V {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a whole number")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| out_of_range(&v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| out_of_range(&v))
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| out_of_range(&v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
            Err(out_of_range(&shown(v)))
        }
    }
    d.deserialize_any(V).map(Some)
}

/// The `ghosts` kind.
pub struct GhostsScenario;

impl Scenario for GhostsScenario {
    fn kind(&self) -> Kind {
        Kind::Ghosts
    }

    fn builtins(&self) -> &'static [Builtin] {
        &[Builtin {
            name: "ghosts",
            help: "fighters replaying the bundled recording",
            file: include_str!("../../scenarios/ghosts.toml"),
        }]
    }

    /// At the recording's tick rate; without `seconds`, for the recording's length (at most
    /// `MAX_SECONDS`). Extra columns: `firing`, `missile`, `frame`.
    fn run(&self, file: &ScenarioFile, base_dir: &Path, progress: &mut Progress) -> Result<Trace> {
        let (bytes, hz, frames) = ghost_recording(file, base_dir)?;
        let ticks = match file.seconds {
            None => frames.clamp(1, max_ticks(hz)),
            Some(_) => file.ticks_at(hz),
        };
        let bar = progress.start(ticks);
        ghosts(file, &bytes, ticks, &mut || bar.inc(1))
    }

    fn findings(&self, _: &ScenarioFile, trace: &Trace) -> Vec<String> {
        let firing = trace.samples.iter().filter(|s| s.flag(0)).count();
        vec![format!(
            "lead ghost gun fired on {firing} of {} ticks",
            trace.samples.len()
        )]
    }
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
