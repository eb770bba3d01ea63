//! The `hopkit-sim` binary end to end (headless: no display is used even if one exists).
//!
//! Two sections of docs/host-sim.md are checked against the real binary here: the bad-input table
//! (case → exit code → message) and the sample headless run. After an intended change regenerate
//! them with `UPDATE_DOCS=1 cargo test -p hopkit-sim --test integration cli::` and review the diff.

use std::path::{Path, PathBuf};

use assert_cmd::Command;
use predicates::prelude::*;

pub(crate) fn sim() -> Command {
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

/// Parse a CSV written by `scenario --csv`: header names and numeric rows. Every value must be an
/// `f32` in its shortest round-trip form (formatting the parsed `f32` gives the same text back:
/// no widened `f64` digits such as `0.10000000149011612`), finite, and every row complete.
pub(crate) fn read_csv(path: &Path) -> (Vec<String>, Vec<Vec<f64>>) {
    let text = std::fs::read_to_string(path).unwrap();
    let mut lines = text.lines();
    let header: Vec<String> = lines.next().unwrap().split(',').map(String::from).collect();
    let rows: Vec<Vec<f64>> = lines
        .map(|l| {
            let row: Vec<f64> = l
                .split(',')
                .map(|v| {
                    let f: f32 = v.parse().unwrap_or_else(|_| panic!("{v:?} in {l:?}"));
                    assert_eq!(format!("{f}"), v, "not the f32 shortest form in {l:?}");
                    f64::from(f)
                })
                .collect();
            assert_eq!(row.len(), header.len(), "row {l:?}");
            assert!(row.iter().all(|v| v.is_finite()), "row {l:?}");
            row
        })
        .collect();
    (header, rows)
}

pub(crate) fn col(header: &[String], name: &str) -> usize {
    header
        .iter()
        .position(|h| h == name)
        .unwrap_or_else(|| panic!("no column {name} in {header:?}"))
}

pub(crate) fn assert_png(path: &Path) {
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
        .stdout(predicate::str::contains("sticks"))
        .stdout(predicate::str::contains("info"))
        .stdout(predicate::str::contains("synctest"))
        .stdout(predicate::str::contains("netplay"))
        .stdout(predicate::str::contains("Controls"));
}

fn repo_file(rel: &str) -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("..").join(rel)
}

/// `info` on both versions of the bundled recording: the same frames, the v2 file's own size,
/// and `bytes-per-frame:` with two decimals; `hash` of the v2 file equals the v1 file's.
#[test]
fn info_and_hash_read_version_2() {
    let v1 = repo_file("demo/assets/demo.ghost");
    let v2 = repo_file("demo/assets/demo.v2.ghost");
    let out = run_ok(&[&"info", &v2]);
    let size = std::fs::metadata(&v2).unwrap().len();
    for line in [
        "version: 2".to_string(),
        "frames: 1800".to_string(),
        "tick-hz: 60".to_string(),
        "duration: 30.00 s".to_string(),
        format!("bytes: {size}"),
        format!("bytes-per-frame: {:.2}", size as f64 / 1800.0),
        "checksums: 30 (every 60 ticks)".to_string(),
    ] {
        assert!(out.lines().any(|l| l == line), "missing {line:?} in\n{out}");
    }
    let out = run_ok(&[&"info", &v1]);
    assert!(
        out.contains("version: 1\n") && out.contains("bytes-per-frame: 3.08\n"),
        "{out}"
    );
    let h1 = sim().args(["hash", "-q"]).arg(&v1).output().unwrap();
    let h2 = sim().args(["hash", "-q"]).arg(&v2).output().unwrap();
    assert_eq!(hash_line(&h1.stdout), hash_line(&h2.stdout));
    // A damaged v2 file is refused with the core's message.
    let dir = tempfile::tempdir().unwrap();
    let bad = dir.path().join("bad.v2.ghost");
    let mut b = std::fs::read(&v2).unwrap();
    let last = b.len() - 1;
    b[last] ^= 1;
    std::fs::write(&bad, b).unwrap();
    sim()
        .arg("info")
        .arg(&bad)
        .assert()
        .code(2)
        .stderr(predicate::str::contains("bad.v2.ghost"))
        .stderr(predicate::str::contains("CRC-32"));
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
fn gamepad_file_hash_is_the_cores_gamepad_hash() {
    use hopkit::stick::digital::{W4_BUTTON_1, W4_RIGHT, W4_UP};
    // What the WASM-4 cart traces in a browser: one byte per tick.
    let mut bytes = vec![W4_UP; 60];
    bytes.extend(std::iter::repeat_n(W4_RIGHT | W4_BUTTON_1, 240));
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("pad.bin");
    std::fs::write(&file, &bytes).unwrap();
    let out = sim()
        .args(["hash", "--gamepad"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    let mut buf = [0u8; 64];
    // On the WASM-4 cart's level (the default).
    let cart = |b: &[u8]| {
        use hopkit_demo::{level::Level, DemoRig};
        hopkit_demo::gamepad::gamepad_hash_rig(DemoRig::new().with_level(Level::WASM4_CART), b)
    };
    let expected = hopkit::hash::format_hash_line(cart(&bytes), &mut buf);
    assert_eq!(hash_line(&out.stdout), expected);
    // Issue 37's reproduction: the player runs into the tower's place; the cart's hash on the
    // plain level, another with --level full.
    let mut repro = vec![W4_RIGHT; 12];
    repro.extend([W4_UP; 300]);
    repro.extend([0u8; 288]);
    std::fs::write(&file, &repro).unwrap();
    for (level, want) in [
        (None, "0xff72a540df61ba9c"),
        (Some("plain"), "0xff72a540df61ba9c"),
        (Some("full"), "0xc2fb463dec14f008"),
    ] {
        let mut cmd = sim();
        cmd.args(["hash", "--gamepad"]).arg(&file);
        if let Some(l) = level {
            cmd.args(["--level", l]);
        }
        let out = cmd.output().unwrap();
        assert!(out.status.success(), "{out:?}");
        assert_eq!(
            hash_line(&out.stdout),
            format!("state-hash: {want}"),
            "{level:?}"
        );
    }
    // An empty file is the start state; one byte more is another state.
    std::fs::write(&file, b"").unwrap();
    let out = sim()
        .args(["hash", "--gamepad"])
        .arg(&file)
        .output()
        .unwrap();
    let expected = hopkit::hash::format_hash_line(hopkit_demo::gamepad_hash(&[]), &mut buf);
    assert_eq!(hash_line(&out.stdout), expected);
}

/// Write the scripted demo's first `ticks` samples with `hopkit-sim sticks` into `dir`.
fn scripted_sticks(dir: &Path, ticks: u32) -> PathBuf {
    let file = dir.join(format!("scripted-{ticks}.txt"));
    let out = sim()
        .args(["sticks", "--ticks", &ticks.to_string(), "--out"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    assert_eq!(
        String::from_utf8(out.stdout).unwrap(),
        format!("wrote {} ({ticks} ticks)\n", file.display())
    );
    file
}

fn sticks_hash(file: &Path, extra: &[&str]) -> std::process::Output {
    sim()
        .args(["hash", "--sticks"])
        .arg(file)
        .args(extra)
        .output()
        .unwrap()
}

#[test]
fn sticks_file_of_the_script_hashes_like_the_scripted_demo() {
    let dir = tempfile::tempdir().unwrap();
    let file = scripted_sticks(dir.path(), 600);
    let text = std::fs::read_to_string(&file).unwrap();
    assert!(text.starts_with("# hopkit-sim sticks: the scripted handheld demo"));
    let ticks: Vec<&str> = text.lines().filter(|l| !l.starts_with('#')).collect();
    assert_eq!(ticks.len(), 600);
    assert_eq!(ticks[0], "2048 2048 2048 2048 0");
    let from_file = sticks_hash(&file, &[]);
    assert!(from_file.status.success(), "{from_file:?}");
    assert!(from_file.stderr.is_empty());
    let scene = sim()
        .args(["hash", "--scene", "demo", "--ticks", "600"])
        .output()
        .unwrap();
    assert_eq!(hash_line(&from_file.stdout), hash_line(&scene.stdout));
    let mut buf = [0u8; 64];
    let expected = hopkit::hash::format_hash_line(hopkit_demo::scripted_hash(600), &mut buf);
    assert_eq!(hash_line(&from_file.stdout), expected);
    // --ticks N runs the first N lines.
    let first = sticks_hash(&file, &["--ticks", "250"]);
    let expected = hopkit::hash::format_hash_line(hopkit_demo::scripted_hash(250), &mut buf);
    assert_eq!(hash_line(&first.stdout), expected);

    // The default length is 3600 ticks; an existing file is kept unless --force.
    let default = dir.path().join("default.txt");
    sim()
        .args(["sticks", "--out"])
        .arg(&default)
        .assert()
        .success();
    let lines = std::fs::read_to_string(&default).unwrap();
    assert_eq!(lines.lines().filter(|l| !l.starts_with('#')).count(), 3600);
    std::fs::write(&default, "mine").unwrap();
    sim()
        .args(["sticks", "--ticks", "5", "--out"])
        .arg(&default)
        .assert()
        .code(2)
        .stderr(predicate::str::contains(
            "exists (add --force to replace it)",
        ));
    assert_eq!(std::fs::read_to_string(&default).unwrap(), "mine");
    sim()
        .args(["sticks", "--ticks", "5", "--force", "--out"])
        .arg(&default)
        .assert()
        .success();
    let lines = std::fs::read_to_string(&default).unwrap();
    assert_eq!(lines.lines().filter(|l| !l.starts_with('#')).count(), 5);
    sim()
        .args(["sticks", "--ticks", "36001", "--out", "x.txt"])
        .current_dir(dir.path())
        .assert()
        .code(2);
}

#[test]
fn one_adc_count_changes_the_sticks_hash() {
    let dir = tempfile::tempdir().unwrap();
    let file = scripted_sticks(dir.path(), 600);
    let base = hash_line(&sticks_hash(&file, &[]).stdout);
    let text = std::fs::read_to_string(&file).unwrap();
    // Tick 400 strafe-hops right, turning with the right stick at 0.85 (right_x 3788): one count
    // less turns a little less.
    let mut n = 0;
    let edited: String = text
        .lines()
        .map(|l| {
            if l.starts_with('#') {
                return format!("{l}\n");
            }
            n += 1;
            if n != 401 {
                return format!("{l}\n");
            }
            let mut f: Vec<u32> = l.split(' ').map(|v| v.parse().unwrap()).collect();
            assert_eq!(f, [4095, 2048, 3788, 2048, 1], "the script changed");
            f[2] -= 1;
            format!("{} {} {} {} {}\n", f[0], f[1], f[2], f[3], f[4])
        })
        .collect();
    let changed = dir.path().join("changed.txt");
    std::fs::write(&changed, edited).unwrap();
    let other = hash_line(&sticks_hash(&changed, &[]).stdout);
    assert_ne!(base, other, "one ADC count in one line changes the hash");
    // Comments, blank lines, tabs and CRLF change nothing.
    let spaced = text.replace('\n', "\r\n\n# note\n").replace(' ', " \t ");
    let spaced_file = dir.path().join("spaced.txt");
    std::fs::write(&spaced_file, spaced).unwrap();
    assert_eq!(hash_line(&sticks_hash(&spaced_file, &[]).stdout), base);
}

#[test]
fn bad_sticks_lines_exit_2_naming_the_line() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("s.txt");
    let good = "2048 2048 2048 2048 0\n";
    for (line, want) in [
        (
            "2048 2048 4096 2048 0",
            "right_x (field 3) is 4096, outside the ADC range 0..=4095",
        ),
        ("2048 2048 2048 2048", "expected 5 numbers"),
        ("2048 2048 2048 2048 16", "buttons 16 has bits other than"),
        (
            "left right up down jump",
            "left_x (field 1) is \"left\", not a whole number",
        ),
        ("2048 -1 2048 2048 0", "left_y (field 2) is \"-1\""),
    ] {
        std::fs::write(&file, format!("# header\n{good}{good}{line}\n{good}")).unwrap();
        let out = sticks_hash(&file, &[]);
        assert_eq!(out.status.code(), Some(2), "{line}: {out:?}");
        assert!(out.stdout.is_empty());
        let err = String::from_utf8(out.stderr).unwrap();
        assert_eq!(err.lines().count(), 1, "one line: {err}");
        assert!(
            err.starts_with(&format!("error: sticks file {} line 4: ", file.display())),
            "{line}: {err}"
        );
        assert!(err.contains(want), "{line}: {err}");
    }
    // Past the end of the file, and missing files.
    std::fs::write(&file, good.repeat(3)).unwrap();
    let out = sticks_hash(&file, &["--ticks", "4"]);
    assert_eq!(out.status.code(), Some(2));
    let out = sticks_hash(&dir.path().join("missing.txt"), &[]);
    assert_eq!(out.status.code(), Some(2));
    // An empty file is the start state.
    std::fs::write(&file, "# nothing\n").unwrap();
    let out = sticks_hash(&file, &[]);
    let mut buf = [0u8; 64];
    let start = hopkit::hash::format_hash_line(hopkit_demo::scripted_hash(0), &mut buf);
    assert_eq!(hash_line(&out.stdout), start);
}

#[test]
fn oversized_sticks_file_is_rejected_without_reading_it() {
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("huge.txt");
    // Sparse: 4 GiB that is never read whole.
    std::fs::File::create(&file)
        .unwrap()
        .set_len(4 << 30)
        .unwrap();
    let started = std::time::Instant::now();
    let out = sticks_hash(&file, &[]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(
        err.contains(&format!(
            "is larger than {} bytes",
            hopkit_sim::sticks::MAX_FILE_BYTES
        )),
        "{err}"
    );
    assert!(started.elapsed().as_secs() < 20, "{:?}", started.elapsed());
    // One line more than the tick limit (the file itself is small enough).
    std::fs::write(&file, "0 0 0 0 0\n".repeat(36_001)).unwrap();
    let out = sticks_hash(&file, &[]);
    assert_eq!(out.status.code(), Some(2));
    let err = String::from_utf8(out.stderr).unwrap();
    assert!(err.contains("line 36001: more than 36000 ticks"), "{err}");
}

#[test]
fn sticks_frames_are_the_firmware_renderers_pictures() {
    use hopkit_demo::framebuffer::FrameBuffer;
    let dir = tempfile::tempdir().unwrap();
    let file = scripted_sticks(dir.path(), 130);
    let frames = dir.path().join("frames.bin");
    let out = sticks_hash(
        &file,
        &["--ticks", "120", "--frames", frames.to_str().unwrap()],
    );
    assert!(out.status.success(), "{out:?}");
    let mut buf = [0u8; 64];
    let expected = hopkit::hash::format_hash_line(hopkit_demo::scripted_hash(120), &mut buf);
    assert_eq!(
        hash_line(&out.stdout),
        expected,
        "--frames does not change the hash"
    );
    let bytes = std::fs::read(&frames).unwrap();
    assert_eq!(bytes.len(), 120 * 1024);
    let mut rig = hopkit_demo::DemoRig::new();
    let mut distinct = std::collections::HashSet::new();
    for (k, frame) in bytes.chunks_exact(1024).enumerate() {
        rig.tick(&hopkit_demo::scripted_raw(k as u32));
        let mut fb = FrameBuffer::new();
        hopkit_demo::render::draw_frame(&rig.view(), &mut fb).unwrap();
        assert_eq!(frame, &fb.buffer()[..], "frame {k} (after tick {})", k + 1);
        // The page layout: byte page*128 + x, bit y % 8.
        for (x, y) in [(0, 0), (64, 31), (127, 63), (5, 9)] {
            let byte = frame[(y / 8) * 128 + x];
            assert_eq!(byte >> (y % 8) & 1 == 1, fb.get(x as i32, y as i32));
        }
        distinct.insert(frame.to_vec());
    }
    assert!(
        distinct.len() > 10,
        "the picture moves: {} distinct",
        distinct.len()
    );
    assert!(bytes.iter().any(|&b| b != 0));

    // A failed run leaves the old frames file as it was; --frames needs --sticks.
    std::fs::write(&frames, b"old").unwrap();
    let out = sticks_hash(
        &file,
        &["--ticks", "131", "--frames", frames.to_str().unwrap()],
    );
    assert_eq!(out.status.code(), Some(2));
    assert_eq!(std::fs::read(&frames).unwrap(), b"old");
    let out = sticks_hash(&file, &["--frames", file.to_str().unwrap()]);
    assert_eq!(out.status.code(), Some(2), "{out:?}");
    sim()
        .args(["hash", "--scene", "demo", "--frames"])
        .arg(&frames)
        .assert()
        .code(2);
    sim()
        .args(["hash", "--sticks"])
        .arg(&file)
        .args(["--gamepad", "x.bin"])
        .assert()
        .code(2);
    #[cfg(target_os = "linux")]
    {
        let out = sticks_hash(&file, &["--frames", "/dev/full"]);
        assert_eq!(
            out.status.code(),
            Some(1),
            "a write error while working: {out:?}"
        );
    }
}

#[test]
fn demo_hash_is_stable_across_runs_and_fps() {
    let run = |fps: &str| {
        let out = sim()
            .args(["hash", "--scene", "demo", "--ticks", "240", "--fps", fps])
            .output()
            .unwrap();
        assert!(out.status.success());
        // Not a terminal: no progress bar, nothing on stderr.
        assert!(
            out.stderr.is_empty(),
            "{}",
            String::from_utf8_lossy(&out.stderr)
        );
        hash_line(&out.stdout)
    };
    let a = run("60");
    assert_eq!(a, run("60"));
    assert_eq!(a, run("30"));
    assert_eq!(a, run("144"));
    assert_eq!(a, run("7"));
    let mut buf = [0u8; 64];
    let expected = hopkit::hash::format_hash_line(hopkit_demo::scripted_hash(240), &mut buf);
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
    for name in [
        "bhop", "arrival", "follower", "slope", "ghosts", "cpma", "platform", "water",
    ] {
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
            assert_eq!(r[time] as f32, (i + 1) as f32 / 60.0, "{name}");
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
fn water_scenario_sinks_swims_up_and_jumps_out() {
    let dir = tempfile::tempdir().unwrap();
    let (csv, png) = (dir.path().join("water.csv"), dir.path().join("water.png"));
    let out = sim()
        .args(["scenario", "water", "--csv"])
        .arg(&csv)
        .arg("--plot")
        .arg(&png)
        .assert()
        .success();
    let stdout = String::from_utf8_lossy(&out.get_output().stdout).to_string();
    assert!(
        stdout.contains("out of the pool on the ledge at the end: yes"),
        "{stdout}"
    );
    assert!(stdout.contains("water jump at x"), "{stdout}");
    let (header, rows) = read_csv(&csv);
    let (y, vy) = (col(&header, "y"), col(&header, "vy"));
    let (level, wj, phase) = (
        col(&header, "water_level"),
        col(&header, "water_jump"),
        col(&header, "phase"),
    );
    let grounded = col(&header, "grounded");
    // Every water level was seen; it reached the pool floor (−80).
    for l in 0..4 {
        assert!(rows.iter().any(|r| r[level] == l as f64), "level {l}");
    }
    assert!(rows.iter().any(|r| r[y] == -80.0));
    // With no keys in the water it sinks, never faster than QuakeWorld's sinking wish (60 ·
    // 0.7 = 42 units/s): no gravity in water.
    let sinking: Vec<f64> = rows
        .iter()
        .filter(|r| r[phase] == 1.0 && r[grounded] == 0.0)
        .map(|r| r[vy])
        .collect();
    assert!(sinking.len() > 30 && sinking.iter().all(|&v| (-42.001..=0.0).contains(&v)));
    // The jump key swims up: the feet rise in phase 2.
    let up: Vec<&Vec<f64>> = rows.iter().filter(|r| r[phase] == 2.0).collect();
    assert!(up.last().unwrap()[y] > up[0][y] + 20.0);
    // The water jump: 310 up while its timer runs and the feet are still under the surface.
    let jump = rows
        .iter()
        .position(|r| r[wj] == 1.0)
        .expect("a water jump");
    assert_eq!(rows[jump][vy], 310.0);
    let last = &rows[rows.len() - 1];
    assert_eq!((last[y], last[grounded]), (0.0, 1.0));
    assert_png(&png);
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
    // Format version 2 (the default): range-coded, well under version 1's 3 bytes a frame.
    let len = std::fs::metadata(&rec).unwrap().len();
    assert!(len > 24 && len < 24 + 180, "{len} bytes");
    assert_eq!(&std::fs::read(&rec).unwrap()[4..6], &[2, 0]);
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

#[test]
fn arrival_reaches_all_its_targets_in_its_default_length() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("arrival.csv");
    sim()
        .args(["scenario", "arrival", "--csv"])
        .arg(&csv)
        .assert()
        .success()
        .stdout(predicate::str::contains("reached 3 of 3 targets"));
    let (header, rows) = read_csv(&csv);
    let (target, arrived) = (col(&header, "target"), col(&header, "arrived"));
    for n in 1..=3 {
        assert!(
            rows.iter()
                .any(|r| r[target] == f64::from(n) && r[arrived] == 1.0),
            "target {n} never reached in the default length ({} ticks)",
            rows.len()
        );
    }
    // It stays on the last target once there.
    let last = rows.last().unwrap();
    assert_eq!((last[target], last[arrived]), (3.0, 1.0));
}

#[test]
fn slope_plots_tilt_against_ground_slope() {
    let dir = tempfile::tempdir().unwrap();
    let csv = dir.path().join("slope.csv");
    sim()
        .args(["scenario", "slope", "--csv"])
        .arg(&csv)
        .assert()
        .success();
    let (header, rows) = read_csv(&csv);
    let (tilt, slope) = (col(&header, "tilt_deg"), col(&header, "ground_slope_deg"));
    let max = |c: usize| rows.iter().map(|r| r[c]).fold(0.0, f64::max);
    assert!(
        (max(slope) - 20.0).abs() < 0.01,
        "the 20° ramp: {}",
        max(slope)
    );
    assert!(
        (max(tilt) - 20.0).abs() < 0.01,
        "tilts with it: {}",
        max(tilt)
    );
}

/// Tokens that would mean a non-number reached the user.
pub(crate) fn non_numbers(text: &str) -> Vec<String> {
    text.split(|c: char| !c.is_ascii_alphanumeric())
        .filter(|w| {
            let w = w.to_ascii_lowercase();
            w == "nan" || w == "inf" || w == "infinity"
        })
        .map(String::from)
        .collect()
}

/// Run the binary with `args` (strings or paths), expect success, return stdout and stderr.
fn run_ok(args: &[&dyn AsRef<std::ffi::OsStr>]) -> String {
    let out = sim()
        .args(args.iter().map(|a| a.as_ref()))
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    String::from_utf8(out.stdout).unwrap() + &String::from_utf8(out.stderr).unwrap()
}

#[test]
fn no_summary_line_prints_nan() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("r.ghost");
    let frames = dir.path().join("frames");
    let summary = || std::fs::read_to_string(frames.join("summary.txt")).unwrap();
    let mut outputs = vec![];
    outputs.push(run_ok(&[
        &"record",
        &"--headless",
        &"--seconds",
        &"2",
        &"--out",
        &rec,
    ]));
    let play = run_ok(&[&"play", &"--headless", &"--out-dir", &frames, &rec]);
    assert!(
        play.contains("lead ghost") && !play.contains("airborne"),
        "{play}"
    );
    outputs.push(play);
    outputs.push(summary());
    outputs.push(run_ok(&[
        &"--headless",
        &"--seconds",
        &"2",
        &"--out-dir",
        &frames,
    ]));
    outputs.push(summary());
    for name in [
        "bhop", "arrival", "follower", "slope", "ghosts", "cpma", "platform",
    ] {
        outputs.push(run_ok(&[&"scenario", &name, &"--seconds", &"3"]));
    }
    for text in &outputs {
        assert!(non_numbers(text).is_empty(), "non-number shown:\n{text}");
    }
}

#[test]
fn failed_runs_leave_no_files_and_reruns_replace_old_frames() {
    let dir = tempfile::tempdir().unwrap();
    let listing = || {
        let mut v: Vec<String> = walk(dir.path());
        v.sort();
        v
    };
    // --plot's folder is missing: nothing runs, --csv is not written either.
    sim()
        .current_dir(dir.path())
        .args([
            "scenario",
            "bhop",
            "--csv",
            "a.csv",
            "--plot",
            "missing/a.png",
        ])
        .assert()
        .code(2);
    assert_eq!(listing(), Vec::<String>::new());
    // A frame folder the run would create is removed again when the run cannot start.
    std::fs::write(dir.path().join("bad.ghost"), b"HKGH??").unwrap();
    sim()
        .current_dir(dir.path())
        .args(["play", "--headless", "--out-dir", "frames", "bad.ghost"])
        .assert()
        .code(2);
    assert_eq!(listing(), ["bad.ghost"]);
    // Two runs into the same folder: the second (shorter, fewer frames) replaces the first's.
    std::fs::write(dir.path().join("notes.md"), b"mine").unwrap();
    for seconds in ["2", "1"] {
        sim()
            .current_dir(dir.path())
            .args(["--headless", "--out-dir", ".", "--seconds", seconds])
            .assert()
            .success();
    }
    assert_eq!(
        listing(),
        [
            "bad.ghost",
            "frame-00030.png",
            "frame-00060.png",
            "notes.md",
            "summary.txt"
        ]
    );
    let summary = std::fs::read_to_string(dir.path().join("summary.txt")).unwrap();
    assert!(summary.contains("ticks: 60 "), "{summary}");
}

/// Files under `dir`, as paths relative to it with `/` separators.
fn walk(dir: &Path) -> Vec<String> {
    let mut out = vec![];
    let mut stack = vec![PathBuf::new()];
    while let Some(rel) = stack.pop() {
        for e in std::fs::read_dir(dir.join(&rel)).unwrap() {
            let e = e.unwrap();
            let r = rel.join(e.file_name());
            if e.file_type().unwrap().is_dir() {
                stack.push(r);
            } else {
                out.push(r.to_string_lossy().replace('\\', "/"));
            }
        }
    }
    out
}

#[test]
fn help_lists_the_exit_codes_and_limits_like_the_docs() {
    let rule = hopkit_sim::cli::LIMITS_AND_EXIT_CODES;
    assert!(rule.contains(&format!("{} s", hopkit_sim::cli::MAX_SECONDS)));
    // The byte limits quoted are the ones enforced.
    for limit in [
        hopkit_sim::replay::MAX_RECORDING_BYTES as u64,
        u64::from(hopkit_sim::ticks::max_ticks(hopkit_demo::TICK_HZ)),
        hopkit_sim::scenario::MAX_SCENARIO_BYTES,
    ] {
        assert!(rule.contains(&format!("{limit} bytes")), "{limit}: {rule}");
    }
    assert!(rule.contains(&format!("{} interrupted", hopkit_sim::EXIT_INTERRUPTED)));
    // clap wraps lines; compare with whitespace collapsed.
    let flat = |s: &str| s.split_whitespace().collect::<Vec<_>>().join(" ");
    let help = |sub: &[&str]| {
        let out = sim().args(sub).arg("--help").output().unwrap();
        assert!(out.status.success(), "{sub:?} --help");
        flat(&String::from_utf8(out.stdout).unwrap())
    };
    // Said once: in `hopkit-sim --help`; every subcommand's `--help` points there instead.
    let top = help(&[]);
    assert!(top.contains(&flat(rule)), "--help:\n{top}");
    assert_eq!(top.matches("Exit codes:").count(), 1, "{top}");
    let pointer = hopkit_sim::cli::SEE_TOP_HELP;
    assert!(pointer.contains("hopkit-sim --help"));
    for sub in [
        &["scenario"][..],
        &["record"],
        &["play"],
        &["hash"],
        &["sticks"],
        &["synctest"],
        &["netplay"],
        &["link"],
        &["info"],
    ] {
        let text = help(sub);
        assert!(text.ends_with(&flat(pointer)), "{sub:?} --help:\n{text}");
        assert!(
            !text.contains("Exit codes:"),
            "{sub:?} --help repeats the rule"
        );
    }
    // Help is plain text: values, not rustdoc links such as "[`RANDOM_HOLD`]".
    for sub in [
        &["synctest"][..],
        &["netplay"],
        &["link", "play"],
        &["scenario"],
    ] {
        let text = help(sub);
        assert!(
            !text.contains("[`"),
            "{sub:?} --help shows a rustdoc link:\n{text}"
        );
    }
    // `scenario --help` lists the built-ins of the scenario registry, as generated from it.
    let registry = flat(&hopkit_sim::scenario::help());
    assert!(help(&["scenario"]).contains(&registry), "{registry}");
    let synctest = help(&["synctest"]);
    for value in [
        format!("each held {} frames", hopkit_demo::arena::RANDOM_HOLD),
        format!("blocks of {} frames", hopkit_demo::arena::MIXED_BLOCK),
    ] {
        assert!(synctest.contains(&value), "synctest --help lacks {value:?}");
    }
    let docs = std::fs::read_to_string(docs_path()).unwrap();
    assert!(
        docs.contains(&format!("```text\n{rule}\n```")),
        "docs/host-sim.md must quote the rule verbatim in a text block:\n{rule}"
    );
}

fn docs_path() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("../docs/host-sim.md")
}

/// Replace the text between `<!-- begin NAME -->` and `<!-- end NAME -->` in docs/host-sim.md
/// with `body` when `UPDATE_DOCS` is set; otherwise fail if it differs.
fn check_docs_section(name: &str, body: &str) {
    let path = docs_path();
    let docs = std::fs::read_to_string(&path).unwrap();
    let (begin, end) = (
        format!("<!-- begin {name} -->\n"),
        format!("<!-- end {name} -->"),
    );
    let a = docs
        .find(&begin)
        .unwrap_or_else(|| panic!("docs/host-sim.md has no {begin:?}"))
        + begin.len();
    let b = a + docs[a..]
        .find(&end)
        .unwrap_or_else(|| panic!("docs/host-sim.md has no {end:?}"));
    if &docs[a..b] == body {
        return;
    }
    if std::env::var_os("UPDATE_DOCS").is_some() {
        let new = format!("{}{body}{}", &docs[..a], &docs[b..]);
        std::fs::write(&path, new).unwrap();
        eprintln!("updated section {name} of {}", path.display());
        return;
    }
    panic!(
        "section {name} of docs/host-sim.md is out of date. Expected:\n{body}\nFound:\n{}\n\
         Regenerate with UPDATE_DOCS=1 cargo test -p hopkit-sim --test integration cli::",
        &docs[a..b]
    );
}

/// One row of the bad-input table.
struct Case {
    what: &'static str,
    args: &'static [&'static str],
    code: i32,
}

/// Markdown code span for `s` (double backticks when `s` has one; `|` escaped for tables).
fn code_span(s: &str) -> String {
    let s = s.replace('|', "\\|");
    if s.contains('`') {
        format!("`` {s} ``")
    } else {
        format!("`{s}`")
    }
}

#[test]
#[cfg_attr(
    not(target_os = "linux"),
    ignore = "the table's messages quote Linux I/O error texts and use /dev/full"
)]
fn bad_input_table_in_the_docs_matches_the_binary() {
    let cases = [
        Case {
            what: "negative duration",
            args: &["--seconds", "-1"],
            code: 2,
        },
        Case {
            what: "duration over the limit",
            args: &["scenario", "bhop", "--seconds", "601"],
            code: 2,
        },
        Case {
            what: "not a number",
            args: &["record", "--out", "r.ghost", "--seconds", "ten"],
            code: 2,
        },
        Case {
            what: "negative tick count",
            args: &["hash", "--scene", "demo", "--ticks", "-5"],
            code: 2,
        },
        Case {
            what: "tick count over the limit",
            args: &["hash", "--scene", "demo", "--ticks", "36001"],
            code: 2,
        },
        Case {
            what: "unknown option",
            args: &["scenario", "bhop", "--svg", "bhop.svg"],
            code: 2,
        },
        Case {
            what: "unknown scenario",
            args: &["scenario", "bhopp"],
            code: 2,
        },
        Case {
            what: "bad scenario file",
            args: &["scenario", "bad.toml"],
            code: 2,
        },
        Case {
            what: "empty arrival targets",
            args: &["scenario", "empty.toml"],
            code: 2,
        },
        Case {
            what: "number out of range in a vector",
            args: &["scenario", "far.toml"],
            code: 2,
        },
        Case {
            what: "output folder missing",
            args: &["scenario", "bhop", "--csv", "missing/bhop.csv"],
            code: 2,
        },
        Case {
            what: "same output twice",
            args: &["scenario", "bhop", "--csv", "out.dat", "--plot", "out.dat"],
            code: 2,
        },
        Case {
            what: "output is a folder",
            args: &["record", "--headless", "--out", "a-folder"],
            code: 2,
        },
        Case {
            what: "existing recording without --force",
            args: &["record", "--headless", "--out", "old.ghost"],
            code: 2,
        },
        Case {
            what: "frame folder is a file",
            args: &["--headless", "--out-dir", "notes.txt"],
            code: 2,
        },
        Case {
            what: "missing recording",
            args: &["play", "missing.ghost"],
            code: 2,
        },
        Case {
            what: "not a recording",
            args: &["hash", "notes.md"],
            code: 2,
        },
        Case {
            what: "endless input",
            args: &["hash", "/dev/zero"],
            code: 2,
        },
        Case {
            what: "truncated recording",
            args: &["hash", "short.ghost"],
            code: 2,
        },
        Case {
            what: "damaged recording",
            args: &["hash", "damaged.ghost"],
            code: 2,
        },
        Case {
            what: "recording over the limit",
            args: &["play", "--headless", "long.ghost"],
            code: 2,
        },
        Case {
            what: "missing gamepad file",
            args: &["hash", "--gamepad", "missing.bin"],
            code: 2,
        },
        Case {
            what: "gamepad file over the limit",
            args: &["hash", "--gamepad", "long.bin"],
            code: 2,
        },
        Case {
            what: "bad sticks line",
            args: &["hash", "--sticks", "bad-sticks.txt"],
            code: 2,
        },
        Case {
            what: "sticks file over the limit",
            args: &["hash", "--sticks", "long-sticks.txt"],
            code: 2,
        },
        Case {
            what: "more ticks than the sticks file",
            args: &["hash", "--sticks", "sticks.txt", "--ticks", "11"],
            code: 2,
        },
        Case {
            what: "sticks output exists",
            args: &["sticks", "--out", "sticks.txt"],
            code: 2,
        },
        Case {
            what: "write error while working",
            args: &["scenario", "bhop", "--csv", "/dev/full"],
            code: 1,
        },
    ];
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(
        d.join("bad.toml"),
        "kind = \"bhop\"\n[bhop]\npreset = \"quake4\"\n",
    )
    .unwrap();
    std::fs::write(
        d.join("empty.toml"),
        "kind = \"arrival\"\n[arrival]\ntargets = []\n",
    )
    .unwrap();
    std::fs::write(
        d.join("far.toml"),
        "kind = \"arrival\"\n[arrival]\nstart = [1e30, 0]\n",
    )
    .unwrap();
    std::fs::write(d.join("old.ghost"), hopkit_demo::DEMO_RECORDING).unwrap();
    std::fs::write(d.join("short.ghost"), b"HKGH, too short").unwrap();
    let mut damaged = hopkit_demo::DEMO_RECORDING.to_vec();
    let last = damaged.len() - 1;
    damaged[last] ^= 0x01;
    std::fs::write(d.join("damaged.ghost"), damaged).unwrap();
    std::fs::write(d.join("notes.txt"), "").unwrap();
    std::fs::write(d.join("long.ghost"), long_recording()).unwrap();
    std::fs::write(d.join("notes.md"), "# Not a ghost recording\n").unwrap();
    std::fs::write(d.join("long.bin"), vec![0u8; 36001]).unwrap();
    std::fs::write(
        d.join("bad-sticks.txt"),
        "# sticks\n2048 2048 2048 2048 0\n2048 4096 2048 2048 0\n",
    )
    .unwrap();
    std::fs::write(
        d.join("long-sticks.txt"),
        "2048 2048 2048 2048 0\n".repeat(72_000),
    )
    .unwrap();
    std::fs::write(d.join("sticks.txt"), "2048 2048 2048 2048 0\n".repeat(10)).unwrap();
    std::fs::create_dir(d.join("a-folder")).unwrap();
    let before = walk(d);
    let mut table = String::from(
        "| case | command | exit | message (first line on stderr) |\n|---|---|---|---|\n",
    );
    for c in &cases {
        let out = sim().current_dir(d).args(c.args).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        let first = stderr.lines().next().unwrap_or("").to_string();
        let shown = format!("hopkit-sim {}", c.args.join(" "));
        assert_eq!(out.status.code(), Some(c.code), "{shown}: {stderr}");
        assert!(
            out.stdout.is_empty() || c.code == 1,
            "{shown} did work: {:?}",
            out.stdout
        );
        assert!(first.starts_with("error: "), "{shown}: {stderr}");
        assert!(!first.contains(" { "), "{shown}: Debug formatting: {first}");
        let clap = stderr.contains("For more information, try '--help'.");
        let scenario_file = first.starts_with("error: bad scenario file");
        if !clap && !scenario_file {
            assert_eq!(stderr.lines().count(), 1, "{shown}: one line: {stderr}");
        }
        assert_eq!(walk(d), before, "{shown} left files behind");
        table.push_str(&format!(
            "| {} | {} | {} | {} |\n",
            c.what,
            code_span(&shown),
            c.code,
            code_span(&first)
        ));
    }
    check_docs_section("bad-input-table", &table);
}

/// A valid recording of 601 s: 601 still frames at 1 Hz.
fn long_recording() -> Vec<u8> {
    use hopkit::ghost::format::RecordingInfo;
    use hopkit::ghost::{recording_size, FlyerState, Frame, Recorder};
    const FRAMES: usize = 601;
    let info = RecordingInfo {
        tick_hz: 1,
        checksum_interval: 0,
        condition_unit: 0.5,
    };
    let mut r = Recorder::<{ recording_size(FRAMES, 0) }>::new(info).unwrap();
    let pilot = FlyerState::default();
    for _ in 0..FRAMES {
        r.push(Frame::default(), &pilot).unwrap();
    }
    r.finish().to_vec()
}

#[test]
fn sample_headless_run_in_the_docs_is_real() {
    let dir = tempfile::tempdir().unwrap();
    let out = sim().current_dir(dir.path()).output().unwrap();
    assert!(out.status.success(), "{out:?}");
    let text = format!(
        "```text\n$ cargo run -p hopkit-sim --release\n{}{}\n```\n",
        String::from_utf8(out.stderr).unwrap(),
        String::from_utf8(out.stdout).unwrap().trim_end()
    );
    check_docs_section("headless-sample", &text);
}

/// The binary as a plain `std::process::Command` (for spawning and signalling), headless.
#[cfg(unix)]
fn sim_process() -> std::process::Command {
    let mut c = std::process::Command::new(assert_cmd::cargo::cargo_bin("hopkit-sim"));
    c.env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .stdin(std::process::Stdio::null())
        .stdout(std::process::Stdio::null())
        .stderr(std::process::Stdio::piped());
    c
}

/// Wait (at most 120 s) until `ready` holds, polling every 5 ms; false on timeout or if the
/// child has exited.
#[cfg(unix)]
fn wait_until(child: &mut std::process::Child, mut ready: impl FnMut() -> bool) -> bool {
    let start = std::time::Instant::now();
    while start.elapsed() < std::time::Duration::from_secs(120) {
        if ready() {
            return true;
        }
        if child.try_wait().unwrap().is_some() {
            return false;
        }
        std::thread::sleep(std::time::Duration::from_millis(5));
    }
    false
}

/// Send `signal` (`INT`, `TERM`, `KILL`) to `child` and wait for it: exit code and stderr.
#[cfg(unix)]
fn signal_and_wait(child: std::process::Child, signal: &str) -> (Option<i32>, String) {
    let ok = std::process::Command::new("kill")
        .arg(format!("-{signal}"))
        .arg(child.id().to_string())
        .status()
        .unwrap()
        .success();
    assert!(ok, "kill -{signal} failed");
    let out = child.wait_with_output().unwrap();
    (out.status.code(), String::from_utf8(out.stderr).unwrap())
}

/// A scenario file whose CSV is tens of megabytes: 600 s at 1000 Hz.
#[cfg(unix)]
fn big_scenario(dir: &Path) -> PathBuf {
    let file = dir.join("big.toml");
    std::fs::write(&file, "kind = \"bhop\"\nseconds = 600\ntick_hz = 1000\n").unwrap();
    file
}

/// Starts a `scenario` writing the big CSV `out/big.csv` and waits until its temporary file
/// (`out/.big.csv.hopkit-tmp`) holds data: the run is mid-write when this returns.
#[cfg(unix)]
fn start_writing_big_csv(src: &Path, out: &Path) -> std::process::Child {
    let tmp = out.join(".big.csv.hopkit-tmp");
    let mut child = sim_process()
        .arg("scenario")
        .arg(big_scenario(src))
        .arg("--csv")
        .arg(out.join("big.csv"))
        .spawn()
        .unwrap();
    // The probe of the output check is empty; the CSV's first buffer is not.
    let writing = wait_until(&mut child, || {
        std::fs::metadata(&tmp).is_ok_and(|m| m.len() > 0)
    });
    assert!(writing, "the CSV was never being written");
    child
}

#[test]
#[cfg(unix)]
fn ctrl_c_during_a_scenario_leaves_no_file() {
    let src = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let child = start_writing_big_csv(src.path(), out.path());
    let (code, stderr) = signal_and_wait(child, "INT");
    assert_eq!(
        code,
        Some(i32::from(hopkit_sim::EXIT_INTERRUPTED)),
        "{stderr}"
    );
    assert!(stderr.starts_with("error: interrupted"), "{stderr}");
    assert_eq!(
        walk(out.path()),
        Vec::<String>::new(),
        "no temporary, no partial file"
    );
}

#[test]
#[cfg(unix)]
fn interrupted_headless_runs_leave_no_frames() {
    let dir = tempfile::tempdir().unwrap();
    let frames = dir.path().join("frames");
    let staged_pngs = |frames: &Path| -> usize {
        std::fs::read_dir(frames)
            .into_iter()
            .flatten()
            .flatten()
            .filter(|e| e.file_type().is_ok_and(|t| t.is_dir()))
            .filter_map(|e| std::fs::read_dir(e.path()).ok())
            .map(|d| d.count())
            .sum()
    };
    // The demo headless (as without a display), Ctrl-C.
    let mut child = sim_process()
        .args([
            "--headless",
            "--seconds",
            "600",
            "--frame-every",
            "1",
            "--out-dir",
        ])
        .arg(&frames)
        .spawn()
        .unwrap();
    assert!(wait_until(&mut child, || staged_pngs(&frames) >= 5));
    let (code, stderr) = signal_and_wait(child, "INT");
    assert_eq!(code, Some(130), "{stderr}");
    assert_eq!(walk(dir.path()), Vec::<String>::new());
    assert!(
        !frames.exists(),
        "the frame folder this run created is removed too"
    );

    // `play --headless` into an existing folder of an earlier run, SIGTERM: the earlier run's
    // files stay as they were.
    let rec = tempfile::tempdir().unwrap();
    let ghost = rec.path().join("long.ghost");
    sim()
        .args(["record", "--headless", "--seconds", "600", "--out"])
        .arg(&ghost)
        .assert()
        .success();
    std::fs::create_dir(&frames).unwrap();
    std::fs::write(frames.join("frame-00030.png"), b"earlier run").unwrap();
    std::fs::write(frames.join("summary.txt"), b"earlier run").unwrap();
    let before = {
        let mut v = walk(dir.path());
        v.sort();
        v
    };
    let mut child = sim_process()
        .args(["play", "--headless", "--frame-every", "1", "--out-dir"])
        .arg(&frames)
        .arg(&ghost)
        .spawn()
        .unwrap();
    assert!(wait_until(&mut child, || staged_pngs(&frames) >= 5));
    let (code, stderr) = signal_and_wait(child, "TERM");
    assert_eq!(code, Some(130), "{stderr}");
    let mut after = walk(dir.path());
    after.sort();
    assert_eq!(after, before);
    assert_eq!(
        std::fs::read(frames.join("summary.txt")).unwrap(),
        b"earlier run"
    );
}

#[test]
#[cfg(unix)]
fn a_killed_runs_temporary_file_is_removed_by_the_next_run() {
    let src = tempfile::tempdir().unwrap();
    let out = tempfile::tempdir().unwrap();
    let csv = out.path().join("big.csv");
    let child = start_writing_big_csv(src.path(), out.path());
    // SIGKILL cannot be handled: the temporary file stays (under its fixed name) ...
    let (code, _) = signal_and_wait(child, "KILL");
    assert_eq!(code, None);
    assert_eq!(walk(out.path()), [".big.csv.hopkit-tmp"]);
    // ... until the next run writing big.csv replaces it.
    sim()
        .args(["scenario", "bhop", "--seconds", "1", "--csv"])
        .arg(&csv)
        .assert()
        .success();
    assert_eq!(walk(out.path()), ["big.csv"]);
}

/// Run the binary with `args`, expect exit code 2 within 2 s and a one-line error containing
/// `needle`; returns the time taken.
fn refused_quickly(args: &[&str], needle: &str) -> std::time::Duration {
    let start = std::time::Instant::now();
    let out = sim().args(args).output().unwrap();
    let took = start.elapsed();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{args:?}: {stderr}");
    assert!(
        stderr.starts_with("error: ") && stderr.contains(needle),
        "{args:?}: {stderr}"
    );
    assert_eq!(stderr.lines().count(), 1, "{args:?}: {stderr}");
    assert!(
        took < std::time::Duration::from_secs(2),
        "{args:?} took {took:?}"
    );
    eprintln!("{args:?}: refused in {} ms", took.as_millis());
    took
}

#[test]
#[cfg(unix)]
fn endless_inputs_are_refused_at_once() {
    refused_quickly(&["hash", "/dev/zero"], "not a hopkit ghost recording");
    refused_quickly(&["hash", "/dev/urandom"], "not a hopkit ghost recording");
    refused_quickly(
        &["play", "--headless", "/dev/zero"],
        "not a hopkit ghost recording",
    );
    refused_quickly(&["hash", "--gamepad", "/dev/zero"], "more than 36000 bytes");
    refused_quickly(
        &["hash", "--gamepad", "/dev/urandom"],
        "more than 36000 bytes",
    );
    refused_quickly(&["scenario", "/dev/zero"], "too large");
    refused_quickly(&["scenario", "/dev/urandom"], "too large");
}

#[test]
fn recordings_over_the_size_limit_are_refused_and_the_largest_loads() {
    use hopkit::ghost::format::{encode, RecordingInfo, MAX_TICK_HZ};
    use hopkit::ghost::Frame;
    let max = hopkit_sim::replay::MAX_RECORDING_BYTES;
    assert_eq!(max, 42_000_024);
    // The largest recording a run can replay: 600 s at 10000 Hz, a checksum before every frame.
    let frames = vec![Frame::default(); 600 * usize::from(MAX_TICK_HZ)];
    let checksums = vec![0u32; frames.len()];
    let info = RecordingInfo {
        tick_hz: MAX_TICK_HZ,
        checksum_interval: 1,
        condition_unit: 0.5,
    };
    let mut bytes = vec![0u8; max];
    assert_eq!(encode(&info, &frames, &checksums, &mut bytes).unwrap(), max);
    let dir = tempfile::tempdir().unwrap();
    let file = dir.path().join("largest.ghost");
    std::fs::write(&file, &bytes).unwrap();
    let out = sim()
        .args(["hash", "--ticks", "10"])
        .arg(&file)
        .output()
        .unwrap();
    assert!(out.status.success(), "{out:?}");
    hash_line(&out.stdout);
    // One byte more: refused on its size, before it is read.
    bytes.push(0);
    let over = dir.path().join("over.ghost");
    std::fs::write(&over, &bytes).unwrap();
    drop(bytes);
    refused_quickly(
        &["hash", over.to_str().unwrap()],
        "has 42000025 bytes, more than the 42000024 allowed",
    );
    // 100 MB that start like a recording: refused without reading them.
    let huge = dir.path().join("huge.ghost");
    let f = std::fs::File::create(&huge).unwrap();
    use std::io::Write;
    (&f).write_all(b"HKGH").unwrap();
    f.set_len(100_000_000).unwrap();
    refused_quickly(&["hash", huge.to_str().unwrap()], "too large");
    // 100 MB that do not: that is said first.
    let f = std::fs::File::create(&huge).unwrap();
    f.set_len(100_000_000).unwrap();
    refused_quickly(
        &["hash", huge.to_str().unwrap()],
        "not a hopkit ghost recording",
    );
}

#[test]
fn scenario_files_over_the_size_limit_are_refused() {
    let dir = tempfile::tempdir().unwrap();
    let limit = hopkit_sim::scenario::MAX_SCENARIO_BYTES as usize;
    // A valid file padded with a comment to exactly the limit runs; one byte more is refused.
    let head = "kind = \"bhop\"\nseconds = 1\n#";
    let mut text = head.to_string() + &"x".repeat(limit - head.len() - 1) + "\n";
    assert_eq!(text.len(), limit);
    let file = dir.path().join("padded.toml");
    std::fs::write(&file, &text).unwrap();
    sim().arg("scenario").arg(&file).assert().success();
    text.insert(head.len(), 'x');
    std::fs::write(&file, &text).unwrap();
    refused_quickly(
        &["scenario", file.to_str().unwrap()],
        "too large: 1048577 bytes, more than the 1048576 bytes",
    );
}

#[test]
fn scenario_numbers_are_finite_and_in_range_in_vectors_too() {
    let dir = tempfile::tempdir().unwrap();
    let cases = [
        (
            "kind = \"arrival\"\n[arrival]\ntargets = []\n",
            "arrival.targets",
            "targets must not be empty",
            "3 | targets = []\n  |           ^^",
        ),
        (
            "kind = \"arrival\"\n[arrival]\nstart = [nan, 0]\n",
            "arrival.start[0]",
            "got NaN",
            "3 | start = [nan, 0]\n  |          ^^^",
        ),
        (
            "kind = \"arrival\"\n[arrival]\nstart = [1e30, 0]\n",
            "arrival.start[0]",
            "between -10000 and 10000, got 1e30",
            "3 | start = [1e30, 0]\n  |          ^^^^",
        ),
        (
            "kind = \"arrival\"\n[arrival]\ntargets = [[0, 0], [5, -inf]]\n",
            "arrival.targets[1][1]",
            "got -inf",
            "  |                        ^^^^",
        ),
        (
            "kind = \"follower\"\n[follower]\nstart_offset = [0, 1e5]\n",
            "follower.start_offset[1]",
            "got 100000",
            "^^^",
        ),
        (
            "kind = \"slope\"\n[slope]\nstart = [0, nan]\n",
            "slope.start[1]",
            "got NaN",
            "^^^",
        ),
        (
            "kind = \"arrival\"\n[arrival]\nmax_speed = nan\n",
            "arrival.max_speed",
            "got NaN",
            "^^^",
        ),
    ];
    for (i, (text, field, message, caret)) in cases.iter().enumerate() {
        let path = dir.path().join(format!("s{i}.toml"));
        std::fs::write(&path, text).unwrap();
        let out = sim().arg("scenario").arg(&path).output().unwrap();
        let stderr = String::from_utf8(out.stderr).unwrap();
        assert_eq!(out.status.code(), Some(2), "{text}: {stderr}");
        assert!(stderr.starts_with("error: bad scenario file"), "{stderr}");
        assert!(stderr.contains(&format!("in field `{field}`")), "{stderr}");
        assert!(stderr.contains(message), "{stderr}");
        assert!(stderr.contains(caret), "{stderr}");
        assert!(out.stdout.is_empty(), "{text}: ran");
    }
    // The limits themselves are accepted; the run reports n of n targets.
    let path = dir.path().join("edge.toml");
    std::fs::write(
        &path,
        "kind = \"arrival\"\nseconds = 1\n[arrival]\nstart = [-10000, 10000]\ntargets = [[-10000, 10000]]\n",
    )
    .unwrap();
    sim()
        .arg("scenario")
        .arg(&path)
        .assert()
        .success()
        .stdout(predicate::str::contains("reached 1 of 1 targets"));
}

#[test]
fn record_replaces_an_existing_file_only_with_force() {
    let dir = tempfile::tempdir().unwrap();
    let rec = dir.path().join("mine.ghost");
    std::fs::write(&rec, b"precious").unwrap();
    let out = sim()
        .args(["record", "--headless", "--seconds", "1", "--out"])
        .arg(&rec)
        .output()
        .unwrap();
    let stderr = String::from_utf8(out.stderr).unwrap();
    assert_eq!(out.status.code(), Some(2), "{stderr}");
    assert!(
        stderr.contains("exists") && stderr.contains("add --force"),
        "{stderr}"
    );
    assert!(out.stdout.is_empty());
    assert_eq!(std::fs::read(&rec).unwrap(), b"precious");
    assert_eq!(walk(dir.path()), ["mine.ghost"]);
    sim()
        .args(["record", "--headless", "--seconds", "1", "--force", "--out"])
        .arg(&rec)
        .assert()
        .success();
    let bytes = std::fs::read(&rec).unwrap();
    assert!(bytes.starts_with(b"HKGH"));
    // A new file needs no --force.
    sim()
        .args(["record", "--headless", "--seconds", "1", "--out"])
        .arg(dir.path().join("new.ghost"))
        .assert()
        .success();
}
