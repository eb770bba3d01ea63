//! Issue 37 §3 and §5: what the CLI and the window say is what they do, and bad input found from
//! outside. Each test is the regression test of one finding.

use std::path::Path;

use assert_cmd::Command;
use hopkit_sim::input::DeviceState;
use hopkit_sim::replay::{to_v2, RecordDriver};
use hopkit_sim::rig::LiveDemo;
use hopkit_sim::window::{demo_guide, Driver, Session, WindowOpts};
use minifb::Key;

fn sim() -> Command {
    let mut c = Command::cargo_bin("hopkit-sim").unwrap();
    c.env_remove("DISPLAY").env_remove("WAYLAND_DISPLAY");
    c
}

/// Run `sim` with `args` in `dir`: exit code, stdout, stderr.
fn run(dir: &Path, args: &[&str]) -> (i32, String, String) {
    let out = sim().current_dir(dir).args(args).output().unwrap();
    (
        out.status.code().unwrap_or(-1),
        String::from_utf8(out.stdout).unwrap(),
        String::from_utf8(out.stderr).unwrap(),
    )
}

const DEMO_V2: &[u8] = include_bytes!("../../../demo/assets/demo.v2.ghost");

// ---------------------------------------------------------------------------------------------
// §3: the CLI
// ---------------------------------------------------------------------------------------------

#[test]
fn hash_without_input_names_every_form() {
    let dir = tempfile::tempdir().unwrap();
    let (code, _, err) = run(dir.path(), &["hash"]);
    assert_eq!(code, 2, "{err}");
    for form in ["<FILE", "--scene", "--arena", "--gamepad", "--sticks"] {
        assert!(err.contains(form), "{form} missing from: {err}");
    }
    // Two inputs at once are still refused.
    let (code, _, err) = run(
        dir.path(),
        &["hash", "--scene", "demo", "--sticks", "s.txt"],
    );
    assert_eq!(code, 2, "{err}");
}

#[test]
fn a_plot_is_never_png_bytes_under_another_extension() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    for name in ["x.jpg", "x.JPEG", "x.svg"] {
        let (code, out, err) = run(d, &["scenario", "bhop", "--seconds", "1", "--plot", name]);
        assert_eq!(code, 2, "{name}: {err}");
        assert!(out.is_empty(), "{name}: nothing may run: {out}");
        assert!(err.contains("PNG") && err.contains(".png"), "{err}");
        assert_eq!(err.lines().count(), 1, "{err}");
    }
    assert_eq!(std::fs::read_dir(d).unwrap().count(), 0, "no file written");
    for name in ["x.png", "y.PNG", "noext"] {
        let (code, _, err) = run(
            d,
            &["scenario", "bhop", "--seconds", "1", "--plot", name, "-q"],
        );
        assert_eq!(code, 0, "{name}: {err}");
        let bytes = std::fs::read(d.join(name)).unwrap();
        assert_eq!(&bytes[..8], b"\x89PNG\r\n\x1a\n", "{name}");
    }
}

#[test]
fn huge_numbers_in_a_scenario_file_get_short_human_messages() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let cases = [
        (
            "kind = \"bhop\"\nseconds = 1e308\n",
            "seconds must be > 0 and at most 600 seconds, got 1e308",
        ),
        (
            "kind = \"bhop\"\ntick_hz = 12345678901234567890\n",
            "tick_hz must be a whole number between 1 and 1000, got 12345678901234567890",
        ),
        (
            "kind = \"bhop\"\ntick_hz = 60.5\n",
            "tick_hz must be a whole number between 1 and 1000, got 60.5",
        ),
        (
            "kind = \"arrival\"\n[arrival]\nstart = [123456789012345678901234567890, 0]\n",
            "must be a finite number between -10000 and 10000, got 123456789012345678901234567890",
        ),
        (
            "kind = \"ghosts\"\n[ghosts]\nseed = 123456789012345678901234\n",
            "seed must be a whole number between 0 and 18446744073709551615, got \
             123456789012345678901234",
        ),
    ];
    for (text, want) in cases {
        std::fs::write(d.join("s.toml"), text).unwrap();
        let (code, _, err) = run(d, &["scenario", "s.toml"]);
        assert_eq!(code, 2, "{err}");
        let first = err.lines().next().unwrap();
        assert!(first.contains(want), "want {want:?} in {first:?}");
        assert!(!err.contains("i128") && !err.contains("i64"), "{err}");
        assert!(first.len() < 200, "{first}");
    }
}

/// The seconds a `scenario` run reports on its first line (`… ticks at H Hz (S s) …`).
fn reported_seconds(stdout: &str) -> f64 {
    let first = stdout.lines().next().unwrap();
    let open = first.find(" Hz (").unwrap() + 5;
    let close = first[open..].find(" s)").unwrap() + open;
    first[open..close].parse().unwrap()
}

#[test]
fn a_ghosts_scenario_runs_its_recording_in_either_version_for_its_length() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    // A 13 s recording (version 2, the default of `record`).
    let (code, _, err) = run(
        d,
        &[
            "record",
            "--headless",
            "--out",
            "r13.ghost",
            "--seconds",
            "13",
            "-q",
        ],
    );
    assert_eq!(code, 0, "{err}");
    std::fs::write(
        d.join("g13.toml"),
        "kind = \"ghosts\"\n[ghosts]\nrecording = \"r13.ghost\"\n",
    )
    .unwrap();
    let (code, out, err) = run(d, &["scenario", "g13.toml", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(reported_seconds(&out), 13.0, "{out}");
    // `seconds` still decides when given.
    std::fs::write(
        d.join("g5.toml"),
        "kind = \"ghosts\"\nseconds = 5\n[ghosts]\nrecording = \"r13.ghost\"\n",
    )
    .unwrap();
    let (code, out, err) = run(d, &["scenario", "g5.toml", "-q"]);
    assert_eq!(code, 0, "{err}");
    assert_eq!(reported_seconds(&out), 5.0, "{out}");

    // The bundled recording in version 2 runs exactly as in version 1.
    std::fs::write(d.join("demo.v2.ghost"), DEMO_V2).unwrap();
    std::fs::write(d.join("demo.ghost"), hopkit_demo::DEMO_RECORDING).unwrap();
    for v in ["demo.ghost", "demo.v2.ghost"] {
        std::fs::write(
            d.join(format!("{v}.toml")),
            format!("kind = \"ghosts\"\nseconds = 10\n[ghosts]\nrecording = \"{v}\"\n"),
        )
        .unwrap();
        let csv = format!("{v}.csv");
        let (code, _, err) = run(d, &["scenario", &format!("{v}.toml"), "--csv", &csv, "-q"]);
        assert_eq!(code, 0, "{v}: {err}");
    }
    let v1 = std::fs::read(d.join("demo.ghost.csv")).unwrap();
    assert!(v1.len() > 1000);
    assert_eq!(v1, std::fs::read(d.join("demo.v2.ghost.csv")).unwrap());
}

#[test]
fn record_writes_version_2_by_default_and_version_1_on_request() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let field = |info: &str, key: &str| -> String {
        info.lines()
            .find_map(|l| l.strip_prefix(&format!("{key}: ")))
            .unwrap_or_else(|| panic!("no {key} in {info}"))
            .to_string()
    };
    for (args, version) in [(&[][..], "2"), (&["--format", "1"][..], "1")] {
        let mut a = vec!["record", "--headless", "--out", "r.ghost", "--force", "-q"];
        a.extend_from_slice(args);
        let (code, out, err) = run(d, &a);
        assert_eq!(code, 0, "{err}");
        assert!(out.contains(&format!("format version {version}")), "{out}");
        let (code, info, err) = run(d, &["info", "r.ghost"]);
        assert_eq!(code, 0, "{err}");
        assert_eq!(field(&info, "version"), version, "{info}");
        assert_eq!(field(&info, "frames"), "600", "{info}");
    }
    let (code, _, err) = run(
        d,
        &["record", "--headless", "--out", "x.ghost", "--format", "3"],
    );
    assert_eq!(code, 2, "{err}");
}

/// Fly the recorder from the keyboard, through the window's own input path (synthetic key states
/// → `Controls` → `Session` → `RecordDriver`), for 60 s of turns, climbs, dives and bursts of
/// fire; save it as `record` does and read it back with `hopkit-sim info`.
#[test]
fn a_keyboard_recording_takes_at_most_half_a_byte_a_frame() {
    let mut driver = RecordDriver::live(3600).unwrap();
    let opts = WindowOpts {
        zoom: 6,
        fps: 60,
        speed: 1.0,
        interactive: true,
        ..WindowOpts::default()
    };
    let mut session = Session::new(&driver, &opts);
    // (seconds, keys): a second or two per manoeuvre, as a player flies.
    let plan: [(u32, &[Key]); 12] = [
        (3, &[]),
        (2, &[Key::A]),
        (1, &[Key::A, Key::F]),
        (3, &[Key::W]),
        (2, &[Key::D, Key::F]),
        (4, &[]),
        (1, &[Key::S]),
        (2, &[Key::D]),
        (3, &[Key::F]),
        (2, &[Key::A, Key::W]),
        (1, &[Key::M]),
        (1, &[Key::T]),
    ];
    let mut frame = 0u64;
    'fly: loop {
        for (secs, keys) in plan {
            for _ in 0..secs * 60 {
                let dev = DeviceState::keys(keys, Some((300.0, 200.0)));
                let ns = (frame + 1) * 1_000_000_000 / 60 - frame * 1_000_000_000 / 60;
                assert!(session.frame(&mut driver, &dev, None, None, ns));
                frame += 1;
                if driver.finished() {
                    break 'fly;
                }
            }
        }
    }
    assert_eq!(driver.frames(), 3600);
    let bytes = to_v2(&driver.finish()).unwrap();
    let dir = tempfile::tempdir().unwrap();
    std::fs::write(dir.path().join("keys.ghost"), &bytes).unwrap();
    let (code, info, err) = run(dir.path(), &["info", "keys.ghost"]);
    assert_eq!(code, 0, "{err}");
    let bpf: f64 = info
        .lines()
        .find_map(|l| l.strip_prefix("bytes-per-frame: "))
        .unwrap()
        .parse()
        .unwrap();
    eprintln!(
        "keyboard recording: {} bytes, {bpf} bytes a frame",
        bytes.len()
    );
    assert!(bpf <= 0.5, "{info}");
    assert!(info.contains("version: 2"), "{info}");
}

// ---------------------------------------------------------------------------------------------
// §3: the window (through `Session::frame`, no display)
// ---------------------------------------------------------------------------------------------

fn frame_ns(k: u64) -> u64 {
    (k + 1) * 1_000_000_000 / 60 - k * 1_000_000_000 / 60
}

fn demo_opts() -> WindowOpts {
    WindowOpts {
        zoom: 6,
        fps: 60,
        speed: 1.0,
        interactive: true,
        guide: demo_guide(),
        ..WindowOpts::default()
    }
}

#[test]
fn keys_held_when_the_window_loses_focus_are_let_go() {
    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &demo_opts());
    let held = [Key::W, Key::D, Key::E, Key::Space];
    let mut k = 0u64;
    let mut step = |session: &mut Session, driver: &mut LiveDemo, dev: &DeviceState| {
        assert!(session.frame(driver, dev, None, None, frame_ns(k)));
        k += 1;
    };
    // Two seconds of the recipe: moving fast.
    for _ in 0..120 {
        step(&mut session, &mut driver, &DeviceState::keys(&held, None));
    }
    let moving = driver.readout().speed();
    assert!(moving > 1.0, "{moving}");
    // Focus lost: minifb still reports the keys (no releases reach an unfocused window).
    let mut away = DeviceState::keys(&held, None);
    away.active = false;
    for _ in 0..20 * 60 {
        step(&mut session, &mut driver, &away);
    }
    let speed = driver.readout().speed();
    assert!(
        speed < 0.01,
        "still moving at {speed} u/s 20 s after the focus went"
    );
    // Focus back, the stale keys still reported: ignored until released.
    for _ in 0..60 {
        step(&mut session, &mut driver, &DeviceState::keys(&held, None));
    }
    assert!(driver.readout().speed() < 0.01);
    // Released, then pressed again: they count.
    step(&mut session, &mut driver, &DeviceState::keys(&[], None));
    for _ in 0..60 {
        step(
            &mut session,
            &mut driver,
            &DeviceState::keys(&[Key::W], None),
        );
    }
    assert!(driver.readout().speed() > 1.0, "W counts again");
}

#[test]
fn esc_closes_the_guide_first_and_quits_after() {
    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &demo_opts());
    assert!(session.guide_shown());
    let esc = DeviceState::keys(&[Key::Escape], None);
    assert!(
        session.frame(&mut driver, &esc, None, None, frame_ns(0)),
        "Esc closed the guide"
    );
    assert!(!session.guide_shown());
    // Esc still held: no second press, no quit.
    assert!(session.frame(&mut driver, &esc, None, None, frame_ns(1)));
    let none = DeviceState::keys(&[], None);
    assert!(session.frame(&mut driver, &none, None, None, frame_ns(2)));
    assert!(
        !session.frame(&mut driver, &esc, None, None, frame_ns(3)),
        "Esc quits"
    );
    assert!(!session.interrupted());
    // The guide's own last line says so.
    assert!(demo_guide().last().unwrap().contains("Esc: close"));
}

#[test]
fn ctrl_c_in_the_window_ends_the_session_as_interrupted() {
    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &demo_opts());
    let w = DeviceState::keys(&[Key::W], None);
    for k in 0..60 {
        assert!(session.frame(&mut driver, &w, None, None, frame_ns(k)));
    }
    let ctrl_c = DeviceState::keys(&[Key::LeftCtrl, Key::C], None);
    assert!(!session.frame(&mut driver, &ctrl_c, None, None, frame_ns(60)));
    assert!(session.interrupted());
    // The summary line the window prints before exiting with 130 covers the session.
    let s = session.summary(&driver);
    assert!(s.played_s > 0.9, "{s}");
    assert!(s.to_string().starts_with("hopkit-sim: played "), "{s}");
}

// ---------------------------------------------------------------------------------------------
// §5: bad input
// ---------------------------------------------------------------------------------------------

/// A version 2 header claiming `frames` frames with a valid CRC over `body`.
fn v2_with_valid_crc(frames: u32, body: &[u8]) -> Vec<u8> {
    use hopkit::ghost::Crc32;
    let mut b = DEMO_V2[..24].to_vec();
    b[8..12].copy_from_slice(&frames.to_le_bytes());
    b.extend_from_slice(body);
    let mut c = Crc32::new();
    c.update(&b[24..]);
    c.update(&b[..20]);
    let crc = c.finish();
    b[20..24].copy_from_slice(&crc.to_le_bytes());
    b
}

#[test]
fn hash_gamepad_ghost_caps_decoding_like_every_other_command() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    std::fs::write(d.join("p.bin"), [0x20u8; 60]).unwrap();
    // The 24-byte file: 4 294 967 295 frames claimed, CRC wrong.
    std::fs::write(
        d.join("e.ghost"),
        b"HKGH\x02\x00\x3c\x00\xff\xff\xff\xff\x01\x00\x01\x00\x00\x00\x00\x3f\x00\x00\x00\x00",
    )
    .unwrap();
    // The same claim with a valid CRC: refused by the 42 MB cap before anything is allocated.
    std::fs::write(d.join("huge.ghost"), v2_with_valid_crc(u32::MAX, &[0; 16])).unwrap();
    // 300 M frames (900 MB decoded): refused too.
    std::fs::write(
        d.join("big.ghost"),
        v2_with_valid_crc(300_000_000, &[0; 16]),
    )
    .unwrap();
    for (file, want) in [
        ("e.ghost", "damaged"),
        ("huge.ghost", "42000024"),
        ("big.ghost", "42000024"),
    ] {
        for cmd in [
            &["hash", "--gamepad", "p.bin", "--ghost", file][..],
            &["info", file][..],
            &["hash", file][..],
        ] {
            let start = std::time::Instant::now();
            let (code, out, err) = run(d, cmd);
            assert_eq!(code, 2, "{cmd:?}: {err}");
            assert!(out.is_empty(), "{cmd:?}: {out}");
            assert!(err.contains(want), "{cmd:?}: want {want:?} in {err}");
            assert_eq!(err.lines().count(), 1, "{err}");
            assert!(
                start.elapsed().as_secs() < 10,
                "{cmd:?} took {:?}",
                start.elapsed()
            );
        }
    }
    // Valid recordings of both versions fly the same formation.
    std::fs::write(d.join("v2.ghost"), DEMO_V2).unwrap();
    std::fs::write(d.join("v1.ghost"), hopkit_demo::DEMO_RECORDING).unwrap();
    let (c1, h1, e1) = run(d, &["hash", "--gamepad", "p.bin", "--ghost", "v1.ghost"]);
    let (c2, h2, e2) = run(d, &["hash", "--gamepad", "p.bin", "--ghost", "v2.ghost"]);
    assert_eq!((c1, c2), (0, 0), "{e1}{e2}");
    assert_eq!(h1, h2);
}

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

/// `scenario ghosts --csv g.csv --plot g.png --seconds 600`, interrupted at several moments
/// around the end of the run: the two outputs are put in place together (both old or both new),
/// and the message says exactly which were written — never "nothing was written" after one was.
#[test]
#[cfg(unix)]
fn an_interrupted_run_says_exactly_which_outputs_were_written() {
    let dir = tempfile::tempdir().unwrap();
    let d = dir.path();
    let (csv, png) = (d.join("g.csv"), d.join("g.png"));
    let tmp_csv = d.join(".g.csv.hopkit-tmp");
    let tmp_png = d.join(".g.png.hopkit-tmp");
    let mut seen = (0, 0, 0);
    // When to interrupt: once the CSV is being written (the simulation is done), and once the
    // PNG is being written (the CSV complete: the moment the CSV used to be in place already),
    // then a little later; whatever the machine's speed.
    let moments: [(&Path, u64); 6] = [
        (&tmp_csv, 0),
        (&tmp_png, 0),
        (&tmp_png, 2),
        (&tmp_png, 10),
        (&tmp_png, 40),
        (&tmp_png, 150),
    ];
    for (file, delay_ms) in moments {
        std::fs::write(&csv, b"old csv").unwrap();
        std::fs::write(&png, b"old png").unwrap();
        let mut child = sim_process()
            .current_dir(d)
            .args(["scenario", "ghosts", "--csv", "g.csv", "--plot", "g.png"])
            .args(["--seconds", "600", "-q"])
            .spawn()
            .unwrap();
        let start = std::time::Instant::now();
        let mut wait_for = |ready: &dyn Fn() -> bool| {
            while !ready() && child.try_wait().unwrap().is_none() && start.elapsed().as_secs() < 120
            {
                std::thread::sleep(std::time::Duration::from_micros(500));
            }
        };
        wait_for(&|| std::fs::metadata(&tmp_csv).is_ok_and(|m| m.len() > 0));
        if file == tmp_png.as_path() {
            // After the CSV's data: not the output check's probe of the same name.
            wait_for(&|| tmp_png.exists());
        }
        std::thread::sleep(std::time::Duration::from_millis(delay_ms));
        let _ = std::process::Command::new("kill")
            .arg("-INT")
            .arg(child.id().to_string())
            .status();
        let out = child.wait_with_output().unwrap();
        let err = String::from_utf8(out.stderr).unwrap();
        let new_csv = std::fs::read(&csv).unwrap() != b"old csv";
        let new_png = std::fs::read(&png).unwrap() != b"old png";
        assert_eq!(new_csv, new_png, "one output without the other: {err}");
        match out.status.code() {
            Some(0) => {
                seen.2 += 1;
                assert!(new_csv, "{err}")
            }
            Some(130) => {
                if new_csv {
                    seen.1 += 1;
                    assert!(
                        err.contains("already written and complete: g.csv, g.png"),
                        "{err}"
                    );
                    assert!(!err.contains("nothing was written"), "{err}");
                } else {
                    seen.0 += 1;
                    assert!(err.contains("existing files are unchanged"), "{err}");
                    assert!(!err.contains("already written"), "{err}");
                }
            }
            other => panic!("exit {other:?}: {err}"),
        }
        let left: Vec<_> = std::fs::read_dir(d)
            .unwrap()
            .flatten()
            .map(|e| e.file_name().to_string_lossy().into_owned())
            .filter(|n| n.contains("hopkit-tmp"))
            .collect();
        assert!(left.is_empty(), "{left:?}");
    }
    eprintln!(
        "interrupted before the commit: {}, after it: {}, finished first: {}",
        seen.0, seen.1, seen.2
    );
}

// ---------------------------------------------------------------------------------------------
// §3: plots that can be read
// ---------------------------------------------------------------------------------------------

fn builtin_run(name: &str) -> (hopkit_sim::scenario::ScenarioFile, hopkit_sim::trace::Trace) {
    let loaded = hopkit_sim::scenario::load(name).unwrap();
    let trace = hopkit_sim::scenario::run(&loaded.file, &loaded.base_dir, true).unwrap();
    (loaded.file, trace)
}

#[test]
fn the_ladder_plot_shows_climb_push_off_and_re_climb_in_order() {
    let (file, trace) = builtin_run("ladder");
    let spec = hopkit_sim::scenario::plot_spec(&file, "ladder", &trace);
    let acts: Vec<_> = spec
        .series
        .iter()
        .filter(|s| s.label.starts_with("feet: "))
        .collect();
    assert_eq!(
        acts.len(),
        3,
        "{:?}",
        spec.series.iter().map(|s| &s.label).collect::<Vec<_>>()
    );
    for (i, act) in acts.iter().enumerate() {
        assert!(
            act.label.starts_with(&format!("feet: {}", i + 1)),
            "{}",
            act.label
        );
        assert!(
            act.points.len() > 10,
            "{}: {} points",
            act.label,
            act.points.len()
        );
        // Time runs left to right within each act ...
        assert!(
            act.points.windows(2).all(|w| w[0].0 < w[1].0),
            "{}",
            act.label
        );
    }
    // ... and from one act to the next, each starting where the last ended: nothing overlaps.
    for w in acts.windows(2) {
        assert_eq!(w[0].points.last(), w[1].points.first());
    }
    // Numbered where each act starts; the climb goes up, the fall comes down, the third act ends
    // on the ledge.
    let numbers: Vec<&str> = spec.labels.iter().map(|l| l.text.as_str()).collect();
    assert_eq!(numbers, ["1", "2", "3"]);
    let first_y = |k: usize| acts[k].points.first().unwrap().1;
    let last_y = |k: usize| acts[k].points.last().unwrap().1;
    assert!(last_y(0) > first_y(0) + 50.0);
    assert!(last_y(1) < first_y(1) - 50.0);
    assert_eq!(
        last_y(2),
        f64::from(hopkit_sim::scenario::ladder::LADDER_TOP)
    );
}

#[test]
fn the_cpma_plot_marks_both_paths_and_the_summary_says_why_one_is_faster() {
    let (file, trace) = builtin_run("cpma");
    let spec = hopkit_sim::scenario::plot_spec(&file, "cpma", &trace);
    let q3 = spec
        .series
        .iter()
        .find(|s| s.label.starts_with("Quake III"))
        .unwrap();
    assert!(q3.mark_ends, "the Quake III path has start and end markers");
    let findings = hopkit_sim::scenario::findings(&file, &trace).join("\n");
    assert!(findings.contains("(in the W-only turn)"), "{findings}");
    assert!(findings.contains("why Quake III is faster"), "{findings}");
}
