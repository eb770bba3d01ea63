//! The `hopkit-sim` binary end to end (headless: no display is used even if one exists).

use std::path::Path;

use assert_cmd::Command;
use predicates::prelude::*;

fn sim() -> Command {
    let mut c = Command::cargo_bin("hopkit-sim").unwrap();
    // Never open a window from tests, whatever machine they run on.
    c.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    c
}

fn hash_line(out: &[u8]) -> String {
    let s = String::from_utf8(out.to_vec()).unwrap();
    let line = s.trim_end().to_string();
    assert!(
        line.starts_with("state-hash: 0x")
            && line.len() == "state-hash: 0x".len() + 16
            && line["state-hash: 0x".len()..]
                .chars()
                .all(|c| c.is_ascii_hexdigit() && !c.is_ascii_uppercase()),
        "bad hash line {line:?}"
    );
    line
}

/// Parse a CSV written by `scenario --csv`: header names and numeric rows.
fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows: Vec<Vec<f64>> = lines
        .map(|l| {
            let row: Vec<f64> = l.split(',').map(|v| v.parse::<f64>().unwrap()).collect();
            assert_eq!(row.len(), header.len(), "row {l:?}");
            assert!(row.iter().all(|v| v.is_finite()), "row {l:?}");
            row
        })
        .collect();
    (header, rows)
}

fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

fn assert_png(path: &Path) {
    let bytes = std::fs::read(path).unwrap();
    assert!(
        bytes.len() > 1000,
        "{} is {} bytes",
        path.display(),
        bytes.len()
    );
    assert!(bytes.starts_with(b"\x89PNG\r\n\x1a\n"));
}

#[test]
fn help_lists_subcommands() {
    sim()
        .arg("--help")
        .assert()
        .success()
        .stdout(predicate::str::contains("scenario"))
        .stdout(predicate::str::contains("record"))
        .stdout(predicate::str::contains("play"))
        .stdout(predicate::str::contains("hash"))
        .stdout(predicate::str::contains("Controls"));
}

#[test]
fn no_display_runs_headless_and_says_where_it_wrote() {
    let dir = tempfile::tempdir().unwrap();
    let out = dir.path().join("frames");
    let assert = sim()
        .args(["--seconds", "1", "--frame-every", "20", "--out-dir"])
        .arg(&out)
        .assert()
        .success()
        .stderr(predicate::str::contains("headless"))
        .stdout(predicate::str::contains("summary"))
        .stdout(predicate::str::contains(out.display().to_string()));
    let stdout = String::from_utf8(assert.get_output().stdout.clone()).unwrap();
    assert!(stdout.contains("state-hash: 0x"), "{stdout}");
    for t in [20, 40, 60] {
        assert_png(&out.join(format!("frame-{t:05}.png")));
    }
    let summary = std::fs::read_to_string(out.join("summary.txt")).unwrap();
    assert!(summary.contains("ticks: 60"), "{summary}");
}

#[test]
fn demo_hash_is_stable_across_runs_and_fps() {
    let run = |fps: &str| {
        let out = sim()
            .args(["hash", "--scene", "demo", "--ticks", "240", "--fps", fps])
            .output()
            .unwrap();
        assert!(out.status.success());
        hash_line(&out.stdout)
    };
    let a = run("60");
    assert_eq!(a, run("60"));
    assert_eq!(a, run("30"));
    assert_eq!(a, run("144"));
    assert_eq!(a, run("7"));
    let mut buf = [0u8; 64];
    let expected = hopkit::hash::format_hash_line(hopkit::demo::scripted_hash(240), &mut buf);
    assert_eq!(
        a, expected,
        "same as the core's scripted_hash (and the firmware)"
    );
    let other = sim()
        .args(["hash", "--scene", "demo", "--ticks", "241"])
        .output()
        .unwrap();
    assert_ne!(
        a,
        hash_line(&other.stdout),
        "the hash depends on the tick count"
    );
}

#[test]
fn every_builtin_scenario_writes_csv_and_plot() {
    let dir = tempfile::tempdir().unwrap();
    for name in ["bhop", "arrival", "follower", "slope", "ghosts"] {
        let csv = dir.path().join(format!("{name}.csv"));
        let png = dir.path().join(format!("{name}.png"));
        sim()
            .args(["scenario", name, "--seconds", "4", "--csv"])
            .arg(&csv)
            .arg("--plot")
            .arg(&png)
            .assert()
            .success()
            .stdout(predicate::str::contains("wrote"));
        let (header, rows) = read_csv(&csv);
        assert_eq!(
            &header[..9],
            ["tick", "time", "x", "y", "z", "vx", "vy", "vz", "speed"],
            "{name}"
        );
        assert_eq!(rows.len(), 240, "{name}: 4 s at 60 Hz");
        let (t, time) = (col(&header, "tick"), col(&header, "time"));
        for (i, r) in rows.iter().enumerate() {
            assert_eq!(r[t], i as f64, "{name}");
            assert!((r[time] - (i + 1) as f64 / 60.0).abs() < 1e-9, "{name}");
        }
        // Something moves.
        let (x, z) = (col(&header, "x"), col(&header, "z"));
        let first = &rows[0];
        let last = &rows[rows.len() - 1];
        assert!(
            (last[x] - first[x]).abs() + (last[z] - first[z]).abs() > 0.5,
            "{name} moved"
        );
        assert_png(&png);
    }
}

#[test]
fn bhop_reaches_twice_ground_max() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("bhop.csv");
    sim()
        .args(["scenario", "bhop", "--csv"])
        .arg(&csv)
        .assert()
        .success();
    let (header, rows) = read_csv(&csv);
    let (s, g) = (col(&header, "speed"), col(&header, "ground_max_speed"));
    let top = rows.iter().map(|r| r[s]).fold(0.0, f64::max);
    let ground_max = rows[0][g];
    assert!(ground_max > 0.0);
    assert!(
        top >= 2.0 * ground_max,
        "top speed {top} < 2 × ground max {ground_max}"
    );
}

#[test]
fn custom_scenario_file_runs() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("qw.csv");
    let file = concat!(
        env!("CARGO_MANIFEST_DIR"),
        "/scenarios/bhop-quakeworld.toml"
    );
    sim()
        .args(["scenario", file, "--seconds", "2", "--csv"])
        .arg(&csv)
        .assert()
        .success();
    let (_, rows) = read_csv(&csv);
    assert_eq!(rows.len(), 154, "2 s at 77 Hz");
}

#[test]
fn bad_scenario_files_exit_2_naming_field_and_line() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "kind = \"bhop\"\n[bhop]\npreset = \"quake4\"\n",
            "line 3",
            "bhop.preset",
        ),
        (
            "kind = \"arrival\"\nseconds = 5\n[arrival]\nmax_speed = \"fast\"\n",
            "line 4",
            "arrival.max_speed",
        ),
        ("kind = \"bhop\"\nsecnods = 5\n", "line 2", "secnods"),
        ("kind = \"bhop\"\nseconds = 0\n", "line 2", "seconds"),
        ("kind = \"bhop\"\n[slope]\nspeed = 2.0\n", "line 2", "slope"),
        ("kind = [\n", "line 1", "unclosed array"),
    ];
    for (i, (text, line, field)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("bad{i}.toml"));
        std::fs::write(&path, text).unwrap();
        sim()
            .arg("scenario")
            .arg(&path)
            .assert()
            .code(2)
            .stderr(predicate::str::contains(*line))
            .stderr(predicate::str::contains(*field))
            .stderr(predicate::str::contains("^"));
    }
    sim()
        .args(["scenario", "no-such-scenario"])
        .assert()
        .code(2)
        .stderr(predicate::str::contains("built-ins: bhop"));
}

#[test]
fn record_play_and_hash_a_ghost_recording() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("pilot.ghost");
    sim()
        .args(["record", "--headless", "--seconds", "3", "--out"])
        .arg(&rec)
        .assert()
        .success()
        .stdout(predicate::str::contains("180 frames"));
    assert!(std::fs::metadata(&rec).unwrap().len() > 24 + 3 * 180);
    let frames = dir.path().join("play");
    sim()
        .args(["play", "--headless", "--frame-every", "60", "--out-dir"])
        .arg(&frames)
        .arg(&rec)
        .assert()
        .success();
    assert_png(&frames.join("frame-00060.png"));
    let run = |fps: &str| {
        let out = sim()
            .args(["hash", "--ticks", "150", "--fps", fps])
            .arg(&rec)
            .output()
            .unwrap();
        assert!(out.status.success(), "{out:?}");
        hash_line(&out.stdout)
    };
    let a = run("60");
    assert_eq!(a, run("60"));
    assert_eq!(a, run("25"));
    assert_eq!(a, run("240"));
}

#[test]
fn unreadable_recording_exits_2() {
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.ghost");
    std::fs::write(&bad, b"HKGH not really").unwrap();
    sim()
        .arg("hash")
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.ghost"));
}
