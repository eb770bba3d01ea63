//! `--level solid` end to end (issue 34 §6): the headless run, `hash --scene demo --level solid`
//! and `hash --gamepad FILE --level solid`, each checked against the demo crate's code for the
//! same input, with their exit codes.
//!
//! The solid level's scripted tour (`hopkit_demo::solid_level::tour_hash`, golden in
//! `demo/tests/backend_golden.rs`) places the player at each leg's start on a scene without a
//! stick pipeline, which no command-line input can do; what the command line runs is the demo
//! rig on the solid level, so that is what these tests compare with.

use hopkit_demo::gamepad::{gamepad_hash_rig, SOLID_CORRIDOR_RUN};
use hopkit_demo::solid_level::{build, SolidWorld};
use hopkit_demo::{scripted_raw, DemoRig};
use predicates::prelude::*;

use crate::cli::sim;

/// The solid level's world, built as `hopkit-sim` builds it.
fn world() -> &'static SolidWorld {
    static WORLD: std::sync::OnceLock<Box<SolidWorld>> = std::sync::OnceLock::new();
    WORLD.get_or_init(|| {
        let mut w = Box::<SolidWorld>::default();
        build(&mut w);
        w
    })
}

/// The one `state-hash: 0x…` line among `text`'s lines.
fn hash_in(text: &str) -> String {
    let lines: Vec<&str> = text
        .lines()
        .filter(|l| l.starts_with("state-hash: 0x"))
        .collect();
    assert_eq!(lines.len(), 1, "{text}");
    lines[0].to_string()
}

fn line(hash: u64) -> String {
    format!("state-hash: {hash:#018x}")
}

/// The scripted demo's input on the solid level, as the demo crate runs it.
fn scripted_on_solids(ticks: u32) -> u64 {
    let mut rig = DemoRig::new().with_solids(world());
    for t in 0..ticks {
        rig.tick(&scripted_raw(t));
    }
    rig.state_hash()
}

#[test]
fn hash_scene_demo_on_the_solid_level_is_the_scripted_rig_on_solids() {
    let want = line(scripted_on_solids(600));
    let out = sim()
        .args([
            "hash", "--scene", "demo", "--level", "solid", "--ticks", "600",
        ])
        .assert()
        .code(0);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_eq!(stdout, format!("{want}\n"));
    // Another level, another hash; no --level is the demo's own level (`full`), as before.
    assert_ne!(want, line(hopkit_demo::scripted_hash(600)));
    for level in [None, Some("full")] {
        let mut cmd = sim();
        cmd.args(["hash", "--scene", "demo", "--ticks", "600"]);
        if let Some(l) = level {
            cmd.args(["--level", l]);
        }
        cmd.assert()
            .code(0)
            .stdout(format!("{}\n", line(hopkit_demo::scripted_hash(600))));
    }
}

/// README.md's `cargo run -p hopkit-sim --release -- --level solid`: without a display (as here)
/// it runs the scripted input headless on the solid level.
#[test]
fn headless_solid_level_prints_the_same_hash_as_hash_scene_demo() {
    let dir = tempfile::tempdir().unwrap();
    let out_dir = dir.path().join("frames");
    let out = sim()
        .args(["--level", "solid", "--seconds", "2"])
        .args(["--frame-every", "60", "--quiet", "--out-dir"])
        .arg(&out_dir)
        .assert()
        .code(0)
        .stderr(predicate::str::contains("headless"));
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    let want = line(scripted_on_solids(120));
    assert_eq!(hash_in(&stdout), want);
    assert!(stdout.contains("ticks: 120"), "{stdout}");
    let summary = std::fs::read_to_string(out_dir.join("summary.txt")).unwrap();
    assert_eq!(hash_in(&summary), want);
    for t in [60, 120] {
        let png = std::fs::read(out_dir.join(format!("frame-{t:05}.png"))).unwrap();
        assert!(png.starts_with(b"\x89PNG\r\n\x1a\n"), "frame {t}");
    }
    // The same run through `hash`.
    sim()
        .args([
            "hash", "--scene", "demo", "--level", "solid", "--ticks", "120",
        ])
        .assert()
        .code(0)
        .stdout(format!("{want}\n"));
}

#[test]
fn hash_gamepad_crouches_through_the_solid_levels_corridor() {
    let bytes: Vec<u8> = SOLID_CORRIDOR_RUN
        .iter()
        .flat_map(|&(b, n)| std::iter::repeat_n(b, usize::from(n)))
        .collect();
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("corridor.bin");
    std::fs::write(&file, &bytes).unwrap();
    let want = line(gamepad_hash_rig(
        DemoRig::new().with_solids(world()),
        &bytes,
    ));
    sim()
        .args(["hash", "--level", "solid", "--gamepad"])
        .arg(&file)
        .assert()
        .code(0)
        .stdout(format!("{want}\n"));
    // The crouch bit counts: without it the run ends elsewhere (stopped at the corridor's mouth:
    // `hopkit_demo::gamepad`'s tests), and on the cart's level (the default) it is another run.
    let standing: Vec<u8> = bytes
        .iter()
        .map(|b| b & !hopkit_demo::gamepad::GAMEPAD_CROUCH)
        .collect();
    std::fs::write(&file, &standing).unwrap();
    let out = sim()
        .args(["hash", "--level", "solid", "--gamepad"])
        .arg(&file)
        .assert()
        .code(0);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_ne!(hash_in(&stdout), want);
    std::fs::write(&file, &bytes).unwrap();
    let out = sim()
        .args(["hash", "--gamepad"])
        .arg(&file)
        .assert()
        .code(0);
    let stdout = String::from_utf8(out.get_output().stdout.clone()).unwrap();
    assert_ne!(hash_in(&stdout), want);
}

#[test]
fn level_without_a_scene_or_gamepad_is_a_usage_error() {
    let dir = tempfile::tempdir().unwrap();
    let sticks = dir.path().join("s.txt");
    std::fs::write(&sticks, "2048 2048 2048 2048 0\n").unwrap();
    sim()
        .args(["hash", "--level", "solid", "--sticks"])
        .arg(&sticks)
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("--gamepad").and(predicate::str::contains("--scene")));
    sim()
        .args(["hash", "--scene", "demo", "--level", "moon"])
        .assert()
        .code(2)
        .stdout("")
        .stderr(predicate::str::contains("moon"));
}
