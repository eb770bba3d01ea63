//! The collision scenarios (issue 34 §4) through the binary: `hopkit-sim scenario NAME` for each
//! of the ten names writes a CSV of finite values with the collision columns and a PNG, the CSV
//! is exactly what `hopkit_demo::collision::run` computes (what the collision golden hash
//! folds), `surf` reports its speed gain, `seam` its equal final speeds, and a file's `seconds`
//! applies while its `tick_hz` is refused.

use std::path::Path;

use hopkit_demo::collision::{run, runs, Setup, SCENARIOS};

use super::cli::{assert_png, col, non_numbers, read_csv, sim};

const COLUMNS: [&str; 14] = [
    "tick", "time", "x", "y", "z", "vx", "vy", "vz", "speed", "run", "grounded", "hit_wall",
    "sliding", "in_solid",
];

/// Run `scenario NAME` with `--csv` and `--plot` into `dir`; returns stdout and the CSV.
fn scenario(dir: &Path, name: &str, extra: &[&str]) -> (String, Vec<String>, Vec<Vec<f64>>) {
    let (csv, png) = (
        dir.join(format!("{name}.csv")),
        dir.join(format!("{name}.png")),
    );
    let out = sim()
        .args(["scenario", name, "-q"])
        .args(extra)
        .arg("--csv")
        .arg(&csv)
        .arg("--plot")
        .arg(&png)
        .output()
        .unwrap();
    let stdout = String::from_utf8(out.stdout).unwrap();
    assert!(
        out.status.success(),
        "{name}: {stdout}{}",
        String::from_utf8_lossy(&out.stderr)
    );
    assert_png(&png);
    let (header, rows) = read_csv(&csv);
    (stdout, header, rows)
}

/// Every row of a run: `(tick, time, x, y, z, speed)` as the library computes them.
fn library_rows(setup: &Setup) -> Vec<[f32; 6]> {
    let mut out = vec![];
    run(setup, |t, s, _| {
        let p = s.position;
        let time = (f64::from(t) + 1.0) as f32 / setup.tick_hz as f32;
        out.push([t as f32, time, p.x, p.y, p.z, s.planar_speed()]);
    });
    out
}

#[test]
fn every_collision_scenario_runs_with_finite_values_its_columns_and_a_plot() {
    let dir = tempfile::tempdir().unwrap();
    for name in SCENARIOS {
        let (stdout, header, rows) = scenario(dir.path(), name, &[]);
        assert_eq!(header, COLUMNS, "{name}");
        assert!(non_numbers(&stdout).is_empty(), "{name}: {stdout}");
        // The runs one after the other, each exactly as the library runs it.
        let at = |c: &str| col(&header, c);
        let setups: Vec<&Setup> = runs(name).collect();
        let mut rest = rows.as_slice();
        for (i, setup) in setups.iter().enumerate() {
            let want = library_rows(setup);
            assert_eq!(want.len(), setup.ticks() as usize);
            let (these, after) = rest.split_at(want.len());
            rest = after;
            for (row, w) in these.iter().zip(&want) {
                assert_eq!(row[at("run")], i as f64, "{name}");
                let got = ["tick", "time", "x", "y", "z", "speed"].map(|c| row[at(c)] as f32);
                assert_eq!(&got, w, "{name} run {i}");
                // Nobody but `startsolid` is ever inside a solid.
                if name != "startsolid" {
                    assert_eq!(row[at("in_solid")], 0.0, "{name} run {i}: {row:?}");
                }
                for flag in ["grounded", "hit_wall", "sliding", "in_solid"] {
                    assert!(row[at(flag)] == 0.0 || row[at(flag)] == 1.0, "{name}");
                }
            }
            // Each run is named with its level's scenario, preset and rate.
            assert!(
                stdout.contains(&format!(
                    "run {i} `{}`: hopkit_demo::collision `{name}`",
                    setup.label
                )),
                "{name}: {stdout}"
            );
            assert!(
                stdout.contains(&format!("{} Hz", setup.tick_hz)),
                "{stdout}"
            );
        }
        assert!(rest.is_empty(), "{name}: {} rows too many", rest.len());
        let preset = if matches!(name, "surf" | "seam") {
            "Source (MoveParams::source) preset"
        } else {
            "Quake III (MoveParams::quake3) preset"
        };
        assert!(stdout.contains(preset), "{name}: {stdout}");
        if name != "startsolid" {
            let want = format!("ticks with the body inside a solid: 0 of {}", rows.len());
            assert!(stdout.contains(&want), "{name}: {stdout}");
        }
        for want in shows(name) {
            assert!(stdout.contains(want), "{name}: {want:?} not in\n{stdout}");
        }
    }
}

/// What the findings of each scenario must say (measured on the trace by `hopkit-sim`; the same
/// facts `tests/tests/integration/collide_scenarios.rs` checks on the library).
fn shows(name: &str) -> &'static [&'static str] {
    match name {
        "corner" => &[
            "`90 degrees`: at the end at (48.875, 0.125, 48.875); largest position change in a \
             tick over the last second 0.000000 world units (at rest, no jitter)",
            "`40 degrees`: at the end at",
        ],
        "hallway" => &[
            "hallway 30.250 wide, body 30.000; largest sideways offset 0.000, ticks touching a \
             wall 0, speed after the first 0.5 s from 320.000 to 320.000 world units/s",
        ],
        "stairs" => &[
            "`60 Hz`: top height reached 128.125",
            "`120 Hz`: top height reached 128.125",
            "`250 Hz`: top height reached 128.125",
            "height 0.125; on the ground every tick after the first: yes",
        ],
        "ramp" => &[
            "top height reached 64.125 (the plateau's top is 64: no launch)",
            "past the",
        ],
        "surf" => &["entry 400.0 → final 638.6 world units/s, ×1.60"],
        "seam" => &["equal; every tick's position and velocity the same: yes"],
        "ceiling" => &[
            "highest head 71.875",
            "(gap 0.125); ticks still rising at the ceiling 0",
        ],
        "tunnel" => &["wall's face at x = 256: 0.1250 world units (never crossed)"],
        "startsolid" => &[
            "`overlapping a crate`: starts at (0.000, 0.125, 0.000) inside a solid; out of it \
             after 1 tick, back in: no; on the ground at the end: yes",
            "`buried in the floor`: starts at (-200.000, -6.000, 0.000) inside a solid; out of \
             it after 1 tick, back in: no; on the ground at the end: yes",
        ],
        "platform-wall" => &[
            "carried with no input to x = 240.875, the body's front 0.125 from the wall's face \
             at 256; on the ground every tick: yes",
        ],
        _ => &[],
    }
}

/// The number after `×` on the line of `label`.
fn gain(stdout: &str, label: &str) -> f64 {
    let line = stdout
        .lines()
        .find(|l| l.contains(&format!("`{label}`: entry")))
        .unwrap_or_else(|| panic!("no gain line for {label}: {stdout}"));
    let after = &line[line.find('×').unwrap() + '×'.len_utf8()..];
    after[..after.find(';').unwrap()].parse().unwrap()
}

#[test]
fn surf_reports_its_speed_gain_and_seam_equal_final_speeds() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, header, rows) = scenario(dir.path(), "surf", &[]);
    let g = gain(&stdout, "one brush");
    assert!(g >= 1.5, "{stdout}");
    assert!(
        stdout.contains("entry 400.0 → final 638.6 world units/s, ×1.60"),
        "{stdout}"
    );
    // The reported gain is the CSV's: the last speed over the entry (400).
    let last = rows.last().unwrap()[col(&header, "speed")];
    assert!((last / 400.0 - g).abs() < 0.005, "{last} vs ×{g}");
    let sliding = rows.iter().filter(|r| r[col(&header, "sliding")] == 1.0);
    assert!(
        sliding.count() * 2 > rows.len(),
        "surfing: on the ramp most of the time"
    );

    let (stdout, _, _) = scenario(dir.path(), "seam", &[]);
    assert!(gain(&stdout, "eight brushes") >= 1.5, "{stdout}");
    assert!(
        stdout.contains("final speeds 638.560 and 638.560: equal; every tick's position and velocity the same: yes"),
        "{stdout}"
    );
}

#[test]
fn seconds_apply_to_every_run_and_tick_hz_is_refused() {
    let dir = tempfile::tempdir().unwrap();
    let (stdout, header, rows) = scenario(dir.path(), "stairs", &["--seconds", "0.5"]);
    assert!(
        stdout.contains(
            "3 runs of 0.50 s: 30 ticks at 60 Hz, 60 ticks at 120 Hz, 125 ticks at 250 Hz"
        ),
        "{stdout}"
    );
    let per_run: Vec<usize> = (0..3)
        .map(|i| {
            rows.iter()
                .filter(|r| r[col(&header, "run")] == i as f64)
                .count()
        })
        .collect();
    assert_eq!(per_run, [30, 60, 125]);
    // The last row of each run is at 0.5 s of its own time.
    for i in 0..3 {
        let last = rows
            .iter()
            .rfind(|r| r[col(&header, "run")] == i as f64)
            .unwrap();
        assert_eq!(last[col(&header, "time")] as f32, 0.5, "run {i}");
    }
    // One tick each: the findings say what they can measure and no more (no "no jitter" for
    // a corner never reached, no speed range over no ticks).
    for name in SCENARIOS {
        let (stdout, _, rows) = scenario(dir.path(), name, &["--seconds", "0.001"]);
        assert_eq!(rows.len(), runs(name).count(), "{name}: one tick a run");
        assert!(non_numbers(&stdout).is_empty(), "{name}: {stdout}");
        assert!(
            !stdout.contains("3402823") && !stdout.contains("jitter"),
            "{name}: {stdout}"
        );
        assert!(
            !stdout.contains("no launch") && !stdout.contains("coming at"),
            "{stdout}"
        );
    }
    // A file's seconds too.
    let file = dir.path().join("short.toml");
    std::fs::write(
        &file,
        "kind = \"collide\"\nseconds = 0.25\n[collide]\nscenario = \"tunnel\"\n",
    )
    .unwrap();
    let (stdout, _, rows) = scenario(dir.path(), file.to_str().unwrap(), &[]);
    assert_eq!(rows.len(), 15, "{stdout}");
    // tick_hz: refused, one line naming the field, exit 2.
    std::fs::write(
        &file,
        "kind = \"collide\"\ntick_hz = 120\n[collide]\nscenario = \"tunnel\"\n",
    )
    .unwrap();
    let out = sim().arg("scenario").arg(&file).output().unwrap();
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    let first = err.lines().next().unwrap();
    assert!(
        first.contains("line 2") && first.contains("tick_hz does not apply to kind = \"collide\""),
        "{err}"
    );
    // An unknown collision scenario, and a missing [collide], likewise.
    for (text, want) in [
        (
            "kind = \"collide\"\n[collide]\nscenario = \"stair\"\n",
            "unknown collision scenario `stair`",
        ),
        ("kind = \"collide\"\n", "needs a [collide] section"),
    ] {
        std::fs::write(&file, text).unwrap();
        let out = sim().arg("scenario").arg(&file).output().unwrap();
        assert_eq!(out.status.code(), Some(2));
        let err = String::from_utf8(out.stderr).unwrap();
        assert!(err.lines().next().unwrap().contains(want), "{err}");
    }
}

/// The docs' table of collision scenarios: one row per scenario naming each run, its rate, its
/// length and its preset as `hopkit_demo::collision` defines them; `scenario --help` names all ten.
#[test]
fn the_docs_table_and_the_help_say_what_runs() {
    let docs = std::fs::read_to_string(concat!(env!("CARGO_MANIFEST_DIR"), "/../docs/host-sim.md"))
        .unwrap();
    let help = sim().args(["scenario", "--help"]).output().unwrap();
    let help = String::from_utf8(help.stdout).unwrap();
    for name in SCENARIOS {
        let row = docs
            .lines()
            .find(|l| l.starts_with(&format!("| `{name}` |")))
            .unwrap_or_else(|| panic!("no row for {name} in docs/host-sim.md"));
        let cells: Vec<&str> = row.split(" | ").collect();
        let (labels, rate, preset) = (cells[1], cells[2], cells[3]);
        for setup in runs(name) {
            assert!(labels.contains(&format!("`{}`", setup.label)), "{row}");
            assert!(
                rate.contains(&format!("{} Hz", setup.tick_hz))
                    || rate.contains(&format!("{} and", setup.tick_hz))
                    || rate.contains(&format!("{},", setup.tick_hz)),
                "{name}: {} Hz not in {rate:?}",
                setup.tick_hz
            );
            assert!(
                rate.ends_with(&format!(", {} s", setup.seconds)),
                "{name}: {rate:?}"
            );
            let want = match (setup.params)() {
                p if p == hopkit::movement::MoveParams::quake3() => "Quake III",
                p if p == hopkit::movement::MoveParams::source() => "Source",
                _ => panic!("{name}: a preset the table does not name"),
            };
            assert_eq!(preset, want, "{name}");
        }
        assert!(
            help.contains(&format!("{name} (")),
            "--help does not name {name}"
        );
    }
}
