//! The subcommands' top level: argument checks, choosing window or headless, messages.
//!
//! Every subcommand checks its inputs and output paths before it simulates anything, so that a
//! mistake costs no time and leaves no files ([`crate::output`]).

use anyhow::{Context, Result};

use crate::cli::{DemoArgs, HashArgs, PlayArgs, RecordArgs, ScenarioArgs, SticksArgs, MAX_SECONDS};
use crate::headless::{describe, run_headless, HeadlessOpts};
use crate::output::{FrameDir, OutFile};
use crate::rig::{LiveDemo, ScriptedDemo};
use crate::window::{run_window, Driver, WindowEnd, WindowOpts};
use crate::{plot, replay, scenario, sticks, UserError};

/// Ticks for `seconds` at `hz` (at least 1). `seconds` has been range-checked by the CLI
/// ([`crate::cli::parse_seconds`]); anything outside `(0, MAX_SECONDS]` is a [`UserError`].
pub fn seconds_to_ticks(seconds: f64, hz: u32) -> Result<u32> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS) {
        return Err(UserError(format!(
            "--seconds must be > 0 and at most {MAX_SECONDS} seconds, got {seconds}"
        ))
        .into());
    }
    Ok(((seconds * f64::from(hz)).round() as u32).max(1))
}

/// Most ticks a run may have at `hz`: [`MAX_SECONDS`] of simulated time.
pub fn max_ticks(hz: u32) -> u32 {
    (MAX_SECONDS * f64::from(hz)).round() as u32
}

/// Check `--ticks N` against [`max_ticks`] of a scene ticking at `hz`.
pub fn check_ticks(ticks: u32, hz: u32) -> Result<u32> {
    let max = max_ticks(hz);
    if ticks > max {
        return Err(UserError(format!(
            "--ticks {ticks} is more than {MAX_SECONDS} s of simulated time ({max} ticks at {hz} Hz)"
        ))
        .into());
    }
    Ok(ticks)
}

/// Default command: the interactive demo, or headless on the scripted input without a display.
pub fn demo(args: &DemoArgs) -> Result<()> {
    let hz = ScriptedDemo::new().tick_hz();
    let ticks = seconds_to_ticks(args.seconds, hz)?;
    if !args.headless {
        let mut live = LiveDemo::new();
        let opts = WindowOpts {
            title: "hopkit-sim: handheld demo".into(),
            zoom: usize::from(args.zoom),
            fps: usize::from(args.fps),
            speed: 1.0,
            interactive: true,
            hint: "WASD move  Q/E or arrows turn  mouse look  Space hop\nF fire  H guide  R reset  P pause  Esc quit"
                .into(),
            guide: crate::window::demo_guide(),
        };
        match run_window(&mut live, &opts)? {
            WindowEnd::Closed(summary) => {
                println!("{summary}");
                return Ok(());
            }
            WindowEnd::Unavailable(why) => eprintln!(
                "hopkit-sim: {why}; running the scripted demo headless instead \
                 (--headless skips this check)"
            ),
        }
    }
    let out = FrameDir::check("--out-dir", &args.out_dir)?;
    let mut scripted = ScriptedDemo::new();
    let opts = HeadlessOpts {
        ticks,
        frame_every: args.frame_every,
        quiet: args.quiet,
        label: "scripted handheld demo (hopkit_demo::scripted_raw)".into(),
        status: "headless, scripted input".into(),
    };
    let report = run_headless(&mut scripted, &opts, out)?;
    println!("{}", describe(&report));
    Ok(())
}

/// `scenario`: check the outputs, run, then write the CSV and/or plot.
pub fn scenario(args: &ScenarioArgs) -> Result<()> {
    let loaded = scenario::load(&args.scenario).map_err(|e| UserError(e.to_string()))?;
    let mut file = loaded.file.clone();
    if let Some(s) = args.seconds {
        seconds_to_ticks(s, file.tick_hz)?;
        file.seconds = Some(s);
    }
    if let (Some(csv), Some(png)) = (&args.csv, &args.plot) {
        if csv == png {
            return Err(UserError(format!(
                "--csv and --plot name the same file, {}",
                csv.display()
            ))
            .into());
        }
    }
    let csv = args
        .csv
        .as_deref()
        .map(|p| OutFile::check("--csv", p))
        .transpose()?;
    if let Some(p) = &args.plot {
        check_png_name("--plot", p)?;
    }
    let png = args
        .plot
        .as_deref()
        .map(|p| OutFile::check("--plot", p))
        .transpose()?;
    let trace = scenario::run::run(&file, &loaded.base_dir, args.quiet)?;
    let title = file
        .title
        .clone()
        .unwrap_or_else(|| format!("scenario {}", file.kind.name()));
    println!("{}", scenario::run::headline(&loaded.origin, &file, &trace));
    for line in scenario::run::findings(&file, &trace) {
        println!("  {line}");
    }
    // Both outputs are written to their temporary files first and put in place together: an
    // interruption leaves both old files or both new ones (crate::output::commit_all).
    let mut staged = vec![];
    if let Some(csv) = &csv {
        staged.push(csv.stage(|w| Ok(trace.write_csv(w)?))?);
    }
    if let Some(png) = &png {
        let spec = scenario::run::plot_spec(&file, &title, &trace);
        let canvas = plot::render(&spec, 960, 540)
            .with_context(|| format!("plotting {}", png.path().display()))?;
        staged.push(png.stage(|w| canvas.write_png(w))?);
    }
    crate::output::commit_all(staged)?;
    if let Some(csv) = &csv {
        println!(
            "wrote {} ({} rows)",
            csv.path().display(),
            trace.samples.len()
        );
    }
    if let Some(png) = &png {
        println!("wrote {}", png.path().display());
    }
    if csv.is_none() && png.is_none() {
        println!("(add --csv FILE and/or --plot FILE to save the trace)");
    }
    Ok(())
}

/// Plots are PNG files: a name ending in another extension (`x.jpg`, `x.svg`) is refused rather
/// than filled with PNG bytes. A name without an extension, or a special file (`/dev/stdout`), is
/// written as PNG.
pub fn check_png_name(what: &str, path: &std::path::Path) -> Result<(), UserError> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(());
    }
    match path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
    {
        None => Ok(()),
        Some(e) if e == "png" => Ok(()),
        Some(e) => Err(UserError(format!(
            "{what} {}: plots are written as PNG only, not .{e}; name the file *.png",
            path.display()
        ))),
    }
}

/// `record`.
pub fn record(args: &RecordArgs) -> Result<()> {
    replay::record(args)
}

/// `play`.
pub fn play(args: &PlayArgs) -> Result<()> {
    replay::play(args)
}

/// `hash`: print `state-hash: 0x…` after N fixed ticks, driving the ticks from render frames of
/// `1/fps` s through the core's fixed-step accumulator (so `--fps` cannot change the result).
pub fn hash(args: &HashArgs) -> Result<()> {
    if let Some(path) = &args.sticks {
        let mut buf = [0u8; 64];
        let hash = sticks_hash_file(path, args.ticks, args.frames.as_deref(), args.quiet)?;
        println!("{}", hopkit::hash::format_hash_line(hash, &mut buf));
        return Ok(());
    }
    if let Some(frames) = &args.frames {
        return Err(UserError(format!("--frames {} needs --sticks FILE", frames.display())).into());
    }
    if let Some(path) = &args.gamepad {
        let mut buf = [0u8; 64];
        println!(
            "{}",
            hopkit::hash::format_hash_line(
                gamepad_hash_file(path, args.ghost.as_deref(), &args.level)?,
                &mut buf
            )
        );
        return Ok(());
    }
    if let Some(files) = &args.arena {
        let mut buf = [0u8; 64];
        let hash = crate::netplay::cmd::arena_hash_files(files, args.ticks)?;
        println!("{}", hopkit::hash::format_hash_line(hash, &mut buf));
        return Ok(());
    }
    let hash = match (&args.file, args.scene.as_deref()) {
        (Some(file), _) => replay::hash_file(file, args.ticks, u32::from(args.fps), args.quiet)?,
        (None, Some("demo")) => {
            let mut demo = ScriptedDemo::new();
            let ticks = check_ticks(args.ticks.unwrap_or(600), demo.tick_hz())?;
            drive_fixed(&mut demo, ticks, u32::from(args.fps), args.quiet);
            demo.state_hash()
        }
        (None, other) => {
            return Err(UserError(format!(
                "unknown scene {} (known: demo)",
                other.unwrap_or("(none)")
            ))
            .into());
        }
    };
    let mut buf = [0u8; 64];
    println!("{}", hopkit::hash::format_hash_line(hash, &mut buf));
    Ok(())
}

/// The demo's state hash after one tick per byte of the gamepad file at `path`
/// ([`hopkit_demo::gamepad::gamepad_hash_rig`], the code the WASM-4 and wasm32 carts run) on the
/// level called `level` (`plain`: the WASM-4 cart's, `full`: the wasm32 cart's); with `ghost`,
/// the formation flies that recording ([`hopkit_demo::DemoRig::with_recording`]).
pub fn gamepad_hash_file(
    path: &std::path::Path,
    ghost: Option<&std::path::Path>,
    level: &str,
) -> Result<u64> {
    let level = hopkit_demo::level::Level::from_name(level)
        .ok_or_else(|| UserError(format!("unknown level {level} (known: plain, full)")))?;
    let rig = match ghost {
        None => hopkit_demo::DemoRig::new(),
        Some(g) => {
            // Read and decoded like every other command's recording: the file at most
            // `MAX_RECORDING_BYTES`, a version 2 file's decoded image too (checked against the
            // header's frame count before anything is allocated), the CRC before the frames.
            // One run per process: the image lives until exit.
            let image = replay::load(g)?;
            let rec = hopkit::ghost::Recording::parse(image)
                .map_err(|e| UserError(format!("recording {}: {e}", g.display())))?;
            hopkit_demo::DemoRig::with_recording(Some(rec))
        }
    };
    let max = max_ticks(hopkit_demo::TICK_HZ);
    let shown = path.display();
    let bytes = crate::infile::read_limited(path, u64::from(max), 0, |_| Ok(())).map_err(|e| {
        use crate::infile::ReadError;
        match e {
            ReadError::TooLarge { size, .. } => UserError(format!(
                "gamepad file {shown} has {} bytes (ticks), more than {MAX_SECONDS} s of simulated \
                 time ({max} ticks at {} Hz)",
                size.map_or_else(|| format!("more than {max}"), |s| s.to_string()),
                hopkit_demo::TICK_HZ
            )),
            e => UserError(format!("cannot read gamepad file {shown}: {e}")),
        }
    })?;
    Ok(hopkit_demo::gamepad::gamepad_hash_rig(
        rig.with_level(level),
        &bytes,
    ))
}

/// `hash --sticks FILE [--ticks N] [--frames OUT]`: the demo's state hash after one
/// [`hopkit_demo::DemoRig::tick`] per line of the sticks file at `path` (the first `ticks` lines;
/// default all of them). With `frames`, also write the frame the firmware renderer draws after
/// every tick (see [`write_frames`]). Everything is checked before the first tick.
pub fn sticks_hash_file(
    path: &std::path::Path,
    ticks: Option<u32>,
    frames: Option<&std::path::Path>,
    quiet: bool,
) -> Result<u64> {
    let samples = sticks::read(path)?;
    let n = match ticks {
        None => samples.len(),
        Some(t) => {
            let t = check_ticks(t, hopkit_demo::TICK_HZ)? as usize;
            if t > samples.len() {
                return Err(UserError(format!(
                    "--ticks {t} is more than the {} ticks of sticks file {}",
                    samples.len(),
                    path.display()
                ))
                .into());
            }
            t
        }
    };
    let samples = &samples[..n];
    let out = match frames {
        Some(f) => {
            if same_file(f, path) {
                return Err(UserError(format!(
                    "--frames {} is the sticks file itself",
                    f.display()
                ))
                .into());
            }
            Some(OutFile::check("--frames", f)?)
        }
        None => None,
    };
    let mut rig = hopkit_demo::DemoRig::new();
    let bar = crate::progress::ticks_bar(samples.len() as u64, "hashing", quiet);
    match out {
        Some(out) => out.write(|w| write_frames(&mut rig, samples, w, &|t| bar.set_position(t)))?,
        None => {
            for (i, raw) in samples.iter().enumerate() {
                rig.tick(raw);
                bar.set_position(i as u64 + 1);
            }
        }
    }
    bar.finish_and_clear();
    Ok(rig.state_hash())
}

/// Run one `rig.tick` per sample, writing after each the frame
/// [`hopkit_demo::render::draw_frame`] draws for `rig.view()` into a fresh
/// [`hopkit_demo::framebuffer::FrameBuffer`]: its 1024 bytes, page-major (byte `page·128 + x`,
/// bit `y % 8` of row `y = 8·page + bit`). Frame `k` (0-based) is the picture after tick `k + 1`.
pub fn write_frames(
    rig: &mut hopkit_demo::DemoRig,
    samples: &[hopkit::stick::RawSticks],
    w: &mut dyn std::io::Write,
    progress: &dyn Fn(u64),
) -> Result<()> {
    for (i, raw) in samples.iter().enumerate() {
        rig.tick(raw);
        let mut fb = hopkit_demo::framebuffer::FrameBuffer::new();
        // The frame buffer's drawing never fails (`Infallible`).
        let _ = hopkit_demo::render::draw_frame(&rig.view(), &mut fb);
        w.write_all(fb.buffer())?;
        progress(i as u64 + 1);
    }
    Ok(())
}

/// Do `a` and `b` name the same existing file?
fn same_file(a: &std::path::Path, b: &std::path::Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// `sticks --out FILE [--ticks N] [--force]`: write the scripted demo's samples
/// ([`hopkit_demo::scripted_raw`] for ticks `0..N`) as a sticks file ([`crate::sticks`]).
pub fn sticks(args: &SticksArgs) -> Result<()> {
    let ticks = check_ticks(args.ticks, hopkit_demo::TICK_HZ)?;
    if !args.force && std::fs::symlink_metadata(&args.out).is_ok() {
        return Err(UserError(format!(
            "--out {} exists (add --force to replace it)",
            args.out.display()
        ))
        .into());
    }
    let out = OutFile::check("--out", &args.out)?;
    let what = format!(
        "hopkit-sim sticks: the scripted handheld demo (hopkit_demo::scripted_raw), ticks 0..{ticks} at {} Hz",
        hopkit_demo::TICK_HZ
    );
    let header = [
        what.as_str(),
        "one tick per line: left_x left_y right_x right_y buttons (12-bit ADC counts 0..=4095; \
         buttons JUMP 1, FIRE 2, LEFT_STICK 4, RIGHT_STICK 8)",
    ];
    out.write(|w| {
        Ok(sticks::write(
            w,
            &header,
            (0..ticks).map(hopkit_demo::scripted_raw),
        )?)
    })?;
    println!("wrote {} ({ticks} ticks)", out.path().display());
    Ok(())
}

/// Run exactly `ticks` ticks of `driver`, produced by a [`hopkit::timestep::FixedStep`] fed with
/// render frames of `1/fps` seconds (the last frame's surplus ticks are not run). A progress bar
/// shows on a terminal unless `quiet`.
pub fn drive_fixed(driver: &mut dyn Driver, ticks: u32, fps: u32, quiet: bool) {
    let mut stepper = hopkit::timestep::FixedStep::new(driver.tick_hz());
    let frame_ns = hopkit::timestep::NANOS_PER_SECOND / u64::from(fps.max(1));
    let input = crate::input::HostInput::default();
    let bar = crate::progress::ticks_bar(u64::from(ticks), "hashing", quiet);
    let mut done = 0u32;
    while done < ticks {
        let adv = stepper.advance_nanos(frame_ns);
        for _ in 0..adv.ticks {
            if done == ticks {
                break;
            }
            driver.tick(&input);
            done += 1;
        }
        bar.set_position(u64::from(done));
    }
    bar.finish_and_clear();
}
