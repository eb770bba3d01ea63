//! Scenarios: headless experiments on single mechanics, with CSV traces and plots.
//!
//! A scenario is a TOML file ([`config`]) whose `kind` names what it runs. Each kind is one file
//! here implementing [`Scenario`] — how it runs into a [`Trace`], what it finds, how it is
//! plotted, and its built-ins (scenario files compiled into the binary, `host-sim/scenarios/`) —
//! and one line of the list of kinds below (`kinds!`), the one list that [`Kind`] (the file
//! format's `kind` names), [`ScenarioFile`]'s sections, [`REGISTRY`], `scenario NAME` and
//! `scenario --help` are generated from. [`driver`] holds what several kinds share (the movement
//! tick loop, the progress bar, the top-down plot); [`config`] the number rules every section's
//! fields use.
//!
//! # Adding a kind: one new file and one line (and its `mod` line)
//!
//! 1. `scenario/NAME.rs`, with
//!    - its module doc (what the kind shows);
//!    - its section `[NAME]`, if it has settings: a struct deriving `Deserialize` with
//!      `#[serde(deny_unknown_fields, default)]`, a `Default`, and each number field naming one
//!      of [`config`]'s range checks (`#[serde(deserialize_with = "positive")]`, …);
//!    - a unit struct implementing [`Scenario`] (`kind` returns `Kind::Name`; `builtins` names
//!      its built-ins' TOML files, `host-sim/scenarios/*.toml`).
//! 2. One line at the end of the list of kinds (the `kinds!` call below), after its doc comment
//!    (the variant's doc): `name => Name, NameScenario, section Section;`, without
//!    `, section Section` for a kind with no settings (like `mover`).
//! 3. Its `pub mod name;` with the others above the list. (`kinds!` could declare it, but rustfmt
//!    does not look into macros: the file would drop out of `cargo fmt --check`.)
//!
//! The line makes the variant `Kind::Name` (`kind = "name"` in a file; serde's "expected one of"
//! lists the kinds in the list's order), the field `ScenarioFile::name: Option<name::Section>`
//! (serde's "unknown field" lists the sections in the list's order), the check that no other
//! kind's section is in a file, and the entry of [`REGISTRY`] that [`of`], `scenario NAME` and
//! `scenario --help` read. Nothing else in the code names every kind (only the `--plot` help in
//! `cli.rs` names the kinds whose plot is not the default top view, so a kind with its own
//! [`Scenario::plot`] adds a few words there). `tests::the_registry_is_the_one_list`
//! checks that the generated pieces agree and that every file here but the shared ones
//! (`config`, `driver`, `error`) is a listed kind's. For users, `docs/host-sim.md` describes
//! each section ("Scenario files"), and its table of bad input quotes the list of built-ins
//! (`UPDATE_DOCS=1 cargo test -p hopkit-sim --test integration cli::` rewrites it).

use std::path::{Path, PathBuf};

use anyhow::Result;
use serde::Deserialize;

// The kinds' modules, and the shared ones. Declared here, not by `kinds!`, because rustfmt does
// not look into macros: a module declared by one would drop out of `cargo fmt --check`.
pub mod arrival;
pub mod bhop;
pub mod collide;
pub mod config;
pub mod cpma;
pub mod crouch;
pub mod driver;
pub mod error;
pub mod follower;
pub mod ghosts;
pub mod ladder;
pub mod mover;
pub mod platform;
pub mod slope;
pub mod water;

pub use driver::Progress;
pub use error::FileError;

use crate::plot::PlotSpec;
use crate::readout::num;
use crate::trace::Trace;

/// Generates, from the list of kinds (one line each, see the module doc), everything that names
/// every kind: [`Kind`], [`ScenarioFile`] and its sections, [`REGISTRY`], [`of`].
macro_rules! kinds {
    ($(
        $(#[doc = $doc:literal])*
        $name:ident => $variant:ident, $scenario:ident $(, section $section:ident)?;
    )*) => {
        /// Which experiment a scenario runs: a file's `kind`, the variant's lowercase name.
        #[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
        #[serde(rename_all = "lowercase")]
        pub enum Kind {
            $($(#[doc = $doc])* $variant,)*
        }

        impl Kind {
            /// Every kind, in the order of the list of kinds (the order the file format's error
            /// messages list them).
            pub const ALL: &'static [Kind] = &[$(Kind::$variant),*];

            /// The lowercase name (`kind = "NAME"`, its file `scenario/NAME.rs`, its section).
            pub fn name(self) -> &'static str {
                match self {
                    $(Kind::$variant => stringify!($name),)*
                }
            }
        }

        /// A whole scenario file ([`config`] describes the format).
        #[derive(Clone, Debug, Deserialize, PartialEq)]
        #[serde(deny_unknown_fields)]
        pub struct ScenarioFile {
            /// Which experiment.
            pub kind: Kind,
            /// Title for plots and messages.
            #[serde(default)]
            pub title: Option<String>,
            /// Simulated seconds, 0 < s ≤ [`MAX_SECONDS`](crate::cli::MAX_SECONDS) (default: the
            /// kind's [`Scenario::default_seconds`]: 15 for bhop, the recording's length for
            /// ghosts, each run's own length for collide, 8 for the others).
            #[serde(default, deserialize_with = "config::opt_seconds")]
            pub seconds: Option<f64>,
            /// Fixed tick rate, Hz (default 60; refused for collide, whose runs have their own
            /// rates).
            #[serde(
                default = "config::default_tick_hz",
                deserialize_with = "config::tick_hz"
            )]
            pub tick_hz: u32,
            $($(
                #[doc = concat!(
                    "`kind = \"", stringify!($name), "\"` settings ([`",
                    stringify!($name), "::", stringify!($section), "`])."
                )]
                #[serde(default)]
                pub $name: Option<$name::$section>,
            )?)*
        }

        impl ScenarioFile {
            /// Each kind's section: its name, and whether this file has it.
            fn sections(&self) -> Vec<(&'static str, bool)> {
                vec![$($(
                    // (The type drives the optional repetition: kinds without a section have none.)
                    (stringify!($name), {
                        let section: &Option<$name::$section> = &self.$name;
                        section.is_some()
                    }),
                )?)*]
            }
        }

        /// Every kind of scenario, in the order of the list of kinds (`scenario --help` lists
        /// their built-ins in that order, the kinds with an [`Scenario::about`] paragraph last).
        pub const REGISTRY: &[&dyn Scenario] = &[$(&$name::$scenario),*];

        /// The scenario that runs `kind`.
        pub fn of(kind: Kind) -> &'static dyn Scenario {
            match kind {
                $(Kind::$variant => &$name::$scenario,)*
            }
        }
    };
}

kinds! {
    /// Strafe-jumping: speed gain over time against the ground max speed.
    bhop => Bhop, BhopScenario, section Bhop;
    /// Arrival steering to a sequence of targets.
    arrival => Arrival, ArrivalScenario, section Arrival;
    /// A companion following a leader's breadcrumb trail.
    follower => Follower, FollowerScenario, section Follower;
    /// A character running over the demo ramps, tilting to the slope.
    slope => Slope, SlopeScenario, section Slope;
    /// Ghost fighters replaying a recording.
    ghosts => Ghosts, GhostsScenario, section Ghosts;
    /// CPM air control against Quake III with the same keys and view.
    cpma => Cpma, CpmaScenario, section Cpma;
    /// Standing on a turntable, then jumping off it.
    platform => Platform, PlatformScenario, section Platform;
    /// Crouching through a tunnel, then a crouch-jump onto a ledge.
    crouch => Crouch, CrouchScenario, section Crouch;
    /// Climbing a ladder, jumping off it, climbing it over the top.
    ladder => Ladder, LadderScenario, section Ladder;
    /// Walking into a pool, sinking, swimming up, the water jump out at the edge.
    water => Water, WaterScenario, section Water;
    /// One of the collision scenarios of `hopkit_demo::collision` (`[collide] scenario = …`).
    collide => Collide, CollideScenario, section Collide;
    /// A body among moving solids: carried along a wall, under a lintel, an elevator, a crush.
    mover => Mover, MoverScenario;
}

/// A built-in scenario: its name on the command line, its line in `scenario --help`, and its
/// scenario file (compiled in).
#[derive(Clone, Copy, Debug)]
pub struct Builtin {
    /// Name, as in `hopkit-sim scenario NAME`.
    pub name: &'static str,
    /// What it shows, a few words (`scenario --help` prints `NAME (HELP)`).
    pub help: &'static str,
    /// The scenario file's text.
    pub file: &'static str,
}

/// One kind of scenario: what a file with `kind = NAME` runs. Implemented once per file of this
/// module and listed once in the list of kinds (which makes [`REGISTRY`]).
pub trait Scenario: Sync {
    /// The `kind` it runs (its name: [`Kind::name`]).
    fn kind(&self) -> Kind;
    /// Its built-ins, in the order `scenario --help` lists them.
    fn builtins(&self) -> &'static [Builtin];
    /// The paragraph `scenario --help` puts its built-ins under (`None`: the first paragraph,
    /// "Built-ins: …").
    fn about(&self) -> Option<&'static str> {
        None
    }
    /// Simulated seconds when the file gives none (default 8; [`ScenarioFile::seconds`]).
    fn default_seconds(&self) -> f64 {
        8.0
    }
    /// Checks of a parsed file beyond its section's own (`path` and `text` for the message's
    /// place; default: none).
    fn check(&self, path: &Path, text: &str, file: &ScenarioFile) -> Result<(), FileError> {
        let _ = (path, text, file);
        Ok(())
    }
    /// Run `file` (relative paths in it resolved against `base_dir`), starting `progress` once
    /// the number of ticks is known.
    fn run(&self, file: &ScenarioFile, base_dir: &Path, progress: &mut Progress) -> Result<Trace>;
    /// What the run shows, one line each (printed after the headline).
    fn findings(&self, file: &ScenarioFile, trace: &Trace) -> Vec<String>;
    /// The plot of a run (default: the top-down trajectories, [`driver::top_down`]).
    fn plot(&self, file: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
        let _ = file;
        driver::top_down(title, trace)
    }
    /// What ran, for the headline (default: `N ticks at H Hz (S s)`).
    fn ran(&self, file: &ScenarioFile, trace: &Trace) -> String {
        let _ = file;
        let (n, hz) = (trace.samples.len(), trace.tick_hz);
        let secs = n as f64 / f64::from(hz.max(1));
        format!("{n} ticks at {hz} Hz ({} s)", num(secs, 2))
    }
}

/// The kinds in the order `scenario --help` lists their built-ins: those without an
/// [`Scenario::about`] (the first paragraph), then those with one (a paragraph each), each group
/// in [`REGISTRY`] order.
fn in_help_order() -> impl Iterator<Item = &'static dyn Scenario> {
    let plain = REGISTRY.iter().filter(|s| s.about().is_none());
    let about = REGISTRY.iter().filter(|s| s.about().is_some());
    plain.chain(about).copied()
}

/// Every built-in, in the order `scenario --help` lists them.
pub fn builtins() -> impl Iterator<Item = &'static Builtin> {
    in_help_order().flat_map(|s| s.builtins().iter())
}

/// The built-ins as `scenario --help` lists them: `Built-ins: NAME (HELP), …` for the kinds
/// without an [`Scenario::about`], then a paragraph per kind with one.
pub fn help() -> String {
    let list = |b: &mut dyn Iterator<Item = &Builtin>| {
        b.map(|b| format!("{} ({})", b.name, b.help))
            .collect::<Vec<_>>()
            .join(", ")
    };
    let plain = in_help_order().filter(|s| s.about().is_none());
    let mut out = format!(
        "Built-ins: {}. Scenario files: see docs/host-sim.md.",
        list(&mut plain.flat_map(|s| s.builtins().iter()))
    );
    for s in in_help_order() {
        if let Some(about) = s.about() {
            out += &format!("\n\n{about}: {}.", list(&mut s.builtins().iter()));
        }
    }
    out
}

/// Run a scenario file. `base_dir` resolves relative paths in the file. A progress bar shows on
/// a terminal unless `quiet`.
pub fn run(file: &ScenarioFile, base_dir: &Path, quiet: bool) -> Result<Trace> {
    let mut progress = Progress::new(file.kind.name(), quiet);
    let trace = of(file.kind).run(file, base_dir, &mut progress);
    progress.finish();
    trace
}

/// The first line printed after a run: where it came from, what ran (ticks at what rate, for
/// how long) and the top speed.
pub fn headline(origin: &str, file: &ScenarioFile, trace: &Trace) -> String {
    format!(
        "{origin}: {}, top speed {} world units/s",
        of(file.kind).ran(file, trace),
        num(trace.max_speed(), 3)
    )
}

/// One-line findings worth printing after a run: the scenario's, then where the main actor
/// ended.
pub fn findings(file: &ScenarioFile, trace: &Trace) -> Vec<String> {
    let mut out = of(file.kind).findings(file, trace);
    if let Some(s) = trace.samples.last() {
        out.push(format!(
            "final position of the {}: {}",
            trace.actor,
            crate::readout::position(s.position)
        ));
    }
    out
}

/// The plot of a run.
pub fn plot_spec(file: &ScenarioFile, title: &str, trace: &Trace) -> PlotSpec {
    of(file.kind).plot(file, title, trace)
}

/// Largest scenario file read, bytes (1 MiB; the built-ins are under 2 KiB). Larger files, and
/// endless ones such as `/dev/zero`, are refused after at most this many bytes plus one.
pub const MAX_SCENARIO_BYTES: u64 = 1 << 20;

/// A loaded scenario: its settings, and where it came from.
#[derive(Clone, Debug)]
pub struct Loaded {
    /// The settings.
    pub file: ScenarioFile,
    /// Built-in name or file path, for messages.
    pub origin: String,
    /// Directory relative paths in the file are resolved against (`.` for built-ins).
    pub base_dir: PathBuf,
}

/// Why a scenario could not be loaded (all are the user's input: exit code 2).
#[derive(Debug)]
pub enum LoadError {
    /// Not a built-in name and no such file.
    NotFound(String),
    /// The file could not be read.
    Io(PathBuf, std::io::Error),
    /// The file is larger than [`MAX_SCENARIO_BYTES`] (its size, if known).
    TooLarge(PathBuf, Option<u64>),
    /// The file is not a valid scenario.
    Bad(FileError),
}

impl std::fmt::Display for LoadError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            LoadError::NotFound(s) => {
                let names: Vec<&str> = builtins().map(|b| b.name).collect();
                write!(
                    f,
                    "no built-in scenario or file named `{s}` (built-ins: {})",
                    names.join(", ")
                )
            }
            LoadError::Io(p, e) => write!(f, "cannot read {}: {e}", p.display()),
            LoadError::TooLarge(p, size) => {
                write!(
                f,
                "scenario file {} is too large: {}, more than the {MAX_SCENARIO_BYTES} bytes a \
                 scenario file may have",
                p.display(),
                size.map_or_else(|| "endless or growing".to_string(), |s| format!("{s} bytes"))
            )
            }
            LoadError::Bad(e) => write!(f, "{e}"),
        }
    }
}

impl std::error::Error for LoadError {}

/// Load a built-in by name, or a scenario file by path.
pub fn load(name_or_path: &str) -> Result<Loaded, LoadError> {
    if let Some(b) = builtins().find(|b| b.name == name_or_path) {
        let name = b.name;
        let path = PathBuf::from(format!("<built-in {name}>"));
        let file = parse(&path, b.file).map_err(LoadError::Bad)?;
        return Ok(Loaded {
            file,
            origin: format!("built-in `{name}`"),
            base_dir: PathBuf::from("."),
        });
    }
    let path = Path::new(name_or_path);
    if !path.exists() {
        return Err(LoadError::NotFound(name_or_path.to_string()));
    }
    let bytes = crate::infile::read_limited(path, MAX_SCENARIO_BYTES, 0, |_| Ok(())).map_err(
        |e| match e {
            crate::infile::ReadError::TooLarge { size, .. } => {
                LoadError::TooLarge(path.to_path_buf(), size)
            }
            crate::infile::ReadError::Io(e) => LoadError::Io(path.to_path_buf(), e),
            e => LoadError::Io(path.to_path_buf(), std::io::Error::other(e.to_string())),
        },
    )?;
    let text = String::from_utf8(bytes).map_err(|_| {
        LoadError::Io(
            path.to_path_buf(),
            std::io::Error::new(
                std::io::ErrorKind::InvalidData,
                "it is not UTF-8 text (a scenario file is TOML)",
            ),
        )
    })?;
    let file = parse(path, &text).map_err(LoadError::Bad)?;
    Ok(Loaded {
        file,
        origin: path.display().to_string(),
        base_dir: path.parent().map(Path::to_path_buf).unwrap_or_default(),
    })
}

/// Parse scenario text and check that only the section of its `kind` is present.
pub fn parse(path: &Path, text: &str) -> Result<ScenarioFile, FileError> {
    let file: ScenarioFile = error::parse_toml(path, text)?;
    for (section, there) in file.sections() {
        if there && section != file.kind.name() {
            let at = find_section(text, section);
            return Err(error::error_at(
                path,
                text,
                at,
                section,
                &format!(
                    "section [{section}] does not belong to kind = \"{}\" (use [{}])",
                    file.kind.name(),
                    file.kind.name()
                ),
            ));
        }
    }
    of(file.kind).check(path, text, &file)?;
    Ok(file)
}

/// Byte span of the `[name]` header (or `name =` key) in `text`, if found.
fn find_section(text: &str, name: &str) -> Option<std::ops::Range<usize>> {
    let mut offset = 0;
    for line in text.split_inclusive('\n') {
        let trimmed = line.trim_start();
        let lead = line.len() - trimmed.len();
        let header = format!("[{name}]");
        if trimmed.starts_with(&header)
            || trimmed
                .strip_prefix(name)
                .is_some_and(|r| r.trim_start().starts_with('='))
        {
            let len = trimmed.trim_end().len();
            return Some(offset + lead..offset + lead + len);
        }
        offset += line.len();
    }
    None
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn builtins_parse_and_match_their_names() {
        for b in builtins() {
            let name = b.name;
            let l = load(name).unwrap_or_else(|e| panic!("{name}: {e}"));
            match &l.file.collide {
                Some(c) => assert_eq!(c.scenario, name),
                None => assert_eq!(l.file.kind.name(), name),
            }
            assert!(l.file.ticks() > 60);
        }
        let ex = concat!(
            env!("CARGO_MANIFEST_DIR"),
            "/scenarios/bhop-quakeworld.toml"
        );
        let l = load(ex).unwrap();
        assert_eq!(l.file.tick_hz, 77);
        assert_eq!(l.file.bhop.unwrap().preset, bhop::Preset::Quakeworld);
    }

    /// The kinds the file format knows, as its own error message lists them (serde's list of the
    /// `Kind` variants): a new variant shows here without anyone listing it again.
    fn file_format_kinds() -> Vec<String> {
        let e = parse(Path::new("s.toml"), "kind = \"?\"\n").unwrap_err();
        let (_, list) = e.message.split_once("expected one of").expect(&e.message);
        list.split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect()
    }

    /// The sections the file format knows, as its "unknown field" message lists `ScenarioFile`'s
    /// fields (after the four every file has).
    fn file_format_sections() -> Vec<String> {
        let e = parse(Path::new("s.toml"), "kind = \"bhop\"\n_ = 1\n").unwrap_err();
        let (_, list) = e.message.split_once("expected one of").expect(&e.message);
        let fields: Vec<String> = list
            .split('`')
            .skip(1)
            .step_by(2)
            .map(String::from)
            .collect();
        assert_eq!(
            fields[..4],
            ["kind", "title", "seconds", "tick_hz"],
            "{fields:?}"
        );
        fields[4..].to_vec()
    }

    #[test]
    fn the_registry_is_the_one_list() {
        // The list of kinds made each piece in its order: the file format's kinds (serde's
        // names, `Kind::ALL`, `Kind::name`), REGISTRY (each entry runs its own kind, and `of`
        // finds it), and the sections (a field of the file for each kind that has one, named
        // after it, each checked against `kind`).
        let names: Vec<&str> = Kind::ALL.iter().map(|k| k.name()).collect();
        assert!(names.len() >= 12, "{names:?}");
        assert_eq!(
            file_format_kinds(),
            names,
            "serde's kinds against Kind::name"
        );
        let registered: Vec<&str> = REGISTRY.iter().map(|s| s.kind().name()).collect();
        assert_eq!(registered, names, "REGISTRY against Kind::ALL");
        for &kind in Kind::ALL {
            assert_eq!(of(kind).kind(), kind);
        }
        let sections = file_format_sections();
        let file = parse(Path::new("s.toml"), "kind = \"bhop\"\n").unwrap();
        let checked: Vec<&str> = file.sections().iter().map(|s| s.0).collect();
        assert_eq!(
            sections, checked,
            "the file's fields against the checked sections"
        );
        let with_section: Vec<&str> = names
            .iter()
            .copied()
            .filter(|n| sections.iter().any(|s| s == n))
            .collect();
        assert_eq!(
            sections, with_section,
            "a section is named after its kind, in its order"
        );
        assert!(
            !sections.iter().any(|s| s == "mover"),
            "mover has no section"
        );
        // Every file of this module but the shared ones is a listed kind's (a kind's file left
        // out of the list would compile, unregistered).
        let dir = Path::new(env!("CARGO_MANIFEST_DIR")).join("src/scenario");
        let mut files: Vec<String> = std::fs::read_dir(dir)
            .unwrap()
            .map(|e| e.unwrap().file_name().to_string_lossy().into_owned())
            .filter_map(|n| n.strip_suffix(".rs").map(String::from))
            .filter(|n| !["mod", "config", "driver", "error"].contains(&n.as_str()))
            .collect();
        files.sort();
        let mut sorted = names.clone();
        sorted.sort();
        assert_eq!(
            files, sorted,
            "the files of scenario/ against the list of kinds"
        );
        // Built-in names are unique, each is its registering kind's file, and each runs (a
        // quarter of a second, every run of a collision scenario) into samples, findings, a
        // headline and a plot.
        let mut names = std::collections::BTreeSet::new();
        for s in REGISTRY {
            assert!(
                !s.builtins().is_empty(),
                "{} has no built-in",
                s.kind().name()
            );
            for b in s.builtins() {
                assert!(names.insert(b.name), "built-in {} twice", b.name);
                let mut l = load(b.name).unwrap_or_else(|e| panic!("{}: {e}", b.name));
                assert_eq!(l.file.kind, s.kind(), "{}", b.name);
                l.file.seconds = Some(0.25);
                let trace = run(&l.file, &l.base_dir, true).unwrap();
                assert!(!trace.samples.is_empty(), "{}", b.name);
                assert!(findings(&l.file, &trace).len() >= 2, "{}", b.name);
                assert!(headline(b.name, &l.file, &trace).starts_with(b.name));
                assert!(!plot_spec(&l.file, b.name, &trace).series.is_empty());
            }
        }
    }

    /// The file format's error messages list the kinds and the top-level fields in the order
    /// users have always seen (the `Kind` variants', then `ScenarioFile`'s fields'), and a name
    /// not found lists the built-ins in `scenario --help` order: pinned here so that generating
    /// them from the one list of kinds keeps these orders. (A new kind goes at the end of the
    /// list, so the pins hold its line added: its name after `mover`, its section after
    /// `collide`, its built-ins after `mover`'s, before the collision ones, or last with an
    /// `about` of their own.)
    #[test]
    fn the_file_format_lists_kinds_and_fields_in_their_order() {
        let p = Path::new("s.toml");
        let e = parse(p, "kind = \"dance\"\n").unwrap_err();
        let kinds = "unknown variant `dance`, expected one of `bhop`, `arrival`, `follower`, \
                     `slope`, `ghosts`, `cpma`, `platform`, `crouch`, `ladder`, `water`, \
                     `collide`, `mover`";
        assert!(e.message.starts_with(kinds), "{}", e.message);
        let e = parse(p, "kind = \"bhop\"\nbogus = 1\n").unwrap_err();
        let fields = "unknown field `bogus`, expected one of `kind`, `title`, `seconds`, \
                      `tick_hz`, `bhop`, `arrival`, `follower`, `slope`, `ghosts`, `cpma`, \
                      `platform`, `crouch`, `ladder`, `water`, `collide`";
        assert!(e.message.starts_with(fields), "{}", e.message);
        let e = load("bhopp").unwrap_err().to_string();
        let plain = "no built-in scenario or file named `bhopp` (built-ins: bhop, arrival, \
                     follower, slope, ghosts, cpma, platform, crouch, ladder, water, mover";
        let collision =
            "corner, hallway, stairs, ramp, surf, seam, ceiling, tunnel, startsolid, platform-wall";
        let at = e.find(collision).expect(&e);
        assert!(e.starts_with(plain) && at >= plain.len(), "{e}");
    }

    #[test]
    fn the_help_lists_exactly_the_registry() {
        let help = help();
        // Each paragraph is a list `… NAME (HELP), NAME (HELP).` after its lead-in.
        let mut listed = vec![];
        for para in help.split("\n\n") {
            let list = match para.strip_prefix("Built-ins: ") {
                Some(rest) => rest.trim_end_matches(" Scenario files: see docs/host-sim.md."),
                None => para.split_once("): ").expect(para).1,
            };
            for entry in list.trim_end_matches('.').split("), ") {
                let (name, what) = entry.trim_end_matches(')').split_once(" (").expect(entry);
                listed.push((name, what));
            }
        }
        let registry: Vec<(&str, &str)> = builtins().map(|b| (b.name, b.help)).collect();
        assert_eq!(listed, registry, "{help}");
        assert!(registry.len() >= 21, "{registry:?}");
    }

    #[test]
    fn wrong_section_and_bad_values_point_at_the_line() {
        let p = Path::new("s.toml");
        let e = parse(p, "kind = \"bhop\"\n\n[arrival]\nmax_speed = 3.0\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "arrival"));
        // Every section of another kind is refused (`[cpma]` … `[water]` were once let through).
        for section in file_format_sections().iter().filter(|s| *s != "bhop") {
            // (`[collide]` needs its one field to be a valid section.)
            let body = if section == "collide" {
                "scenario = \"corner\"\n"
            } else {
                ""
            };
            let e = parse(p, &format!("kind = \"bhop\"\n[{section}]\n{body}")).unwrap_err();
            assert_eq!((e.line, &e.field), (2, section), "{e}");
            assert!(e.message.contains("does not belong"), "{}", e.message);
        }
        let e = parse(p, "kind = \"bhop\"\nseconds = -1\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (2, "seconds"));
        assert!(e.message.contains("seconds must be"), "{}", e.message);
        let e = parse(p, "kind = \"bhop\"\n[bhop]\npreset = \"q4\"\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "bhop.preset"));
        assert!(e.message.contains("q4"), "{}", e.message);
        let e = parse(p, "kind = \"dance\"\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (1, "kind"));
        let e = parse(p, "seconds = 3\n").unwrap_err();
        assert!(e.message.contains("missing field `kind`"), "{}", e.message);
        assert!(matches!(load("no-such-thing"), Err(LoadError::NotFound(_))));
    }

    #[test]
    fn every_number_is_checked_in_vectors_too() {
        let p = Path::new("s.toml");
        let bad = |text: &str| parse(p, text).unwrap_err();
        let e = bad("kind = \"arrival\"\n[arrival]\ntargets = []\n");
        assert_eq!((e.line, e.field.as_str()), (3, "arrival.targets"));
        assert!(
            e.message.contains("targets must not be empty"),
            "{}",
            e.message
        );
        let e = bad("kind = \"arrival\"\n[arrival]\nstart = [nan, 0]\n");
        assert_eq!((e.line, e.column), (3, 10), "{e}");
        assert_eq!(e.field, "arrival.start[0]");
        assert!(e.message.contains("got NaN"), "{}", e.message);
        let e = bad("kind = \"arrival\"\n[arrival]\nstart = [1e30, 0]\n");
        assert_eq!(e.field, "arrival.start[0]");
        assert!(
            e.message.contains("between -10000 and 10000"),
            "{}",
            e.message
        );
        assert!(e.message.contains("got 1e30"), "{}", e.message);
        let e = bad("kind = \"arrival\"\n[arrival]\ntargets = [[1, 2], [3, inf]]\n");
        assert_eq!(e.field, "arrival.targets[1][1]");
        assert_eq!((e.line, e.column), (3, 24), "{e}");
        let e = bad("kind = \"arrival\"\n[arrival]\nmax_speed = nan\n");
        assert_eq!(e.field, "arrival.max_speed");
        let e = bad("kind = \"follower\"\n[follower]\nstart_offset = [0, -1e5]\n");
        assert_eq!(e.field, "follower.start_offset[1]");
        let e = bad("kind = \"follower\"\n[follower]\npath_size = 20000\n");
        assert_eq!(e.field, "follower.path_size");
        let e = bad("kind = \"slope\"\n[slope]\nstart = [-inf, 0]\n");
        assert_eq!(e.field, "slope.start[0]");
        let e = bad("kind = \"slope\"\n[slope]\nstart = [1, 2, 3]\n");
        assert_eq!(e.field, "slope.start");
        assert!(e.message.contains("two numbers; got 3"), "{}", e.message);
        let e = bad("kind = \"arrival\"\n[arrival]\ntargets = [[1, 2], [3]]\n");
        assert_eq!(e.field, "arrival.targets[1]");
        assert_eq!((e.line, e.column, e.span_len), (3, 20, 3), "{e}");
        // The limits themselves are fine.
        let f = parse(
            p,
            "kind = \"arrival\"\n[arrival]\nstart = [-10000, 10000]\ntargets = [[1, 2]]\n",
        )
        .unwrap();
        assert_eq!(f.arrival.unwrap().start, [-10000.0, 10000.0]);
    }
}
