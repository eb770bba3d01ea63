//! Scenarios: headless experiments on single mechanics, with CSV traces and plots.
//!
//! A scenario is a TOML file ([`config`]); the built-ins (`bhop`, `arrival`, `follower`, `slope`,
//! `ghosts`, `cpma`, …) are such files compiled into the binary; [`features`] runs the movement
//! feature scenarios, [`collide`] the collision scenarios (`corner`, `hallway`, `stairs`, …).

pub mod collide;
pub mod config;
pub mod error;
pub mod features;

use std::path::{Path, PathBuf};

pub use config::{Kind, ScenarioFile, BUILTINS};
pub use error::FileError;

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
                let names: Vec<&str> = BUILTINS.iter().map(|(n, _)| *n).collect();
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
    if let Some((name, text)) = BUILTINS.iter().find(|(n, _)| *n == name_or_path) {
        let path = PathBuf::from(format!("<built-in {name}>"));
        let file = parse(&path, text).map_err(LoadError::Bad)?;
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
    let present = [
        ("bhop", file.bhop.is_some()),
        ("arrival", file.arrival.is_some()),
        ("follower", file.follower.is_some()),
        ("slope", file.slope.is_some()),
        ("ghosts", file.ghosts.is_some()),
        ("collide", file.collide.is_some()),
    ];
    for (section, there) in present {
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
    if file.kind == Kind::Collide {
        collide::check_file(path, text, &file)?;
    }
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
        for (name, _) in BUILTINS {
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
        assert_eq!(l.file.bhop.unwrap().preset, config::Preset::Quakeworld);
    }

    #[test]
    fn wrong_section_and_bad_values_point_at_the_line() {
        let p = Path::new("s.toml");
        let e = parse(p, "kind = \"bhop\"\n\n[arrival]\nmax_speed = 3.0\n").unwrap_err();
        assert_eq!((e.line, e.field.as_str()), (3, "arrival"));
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

pub mod run;
