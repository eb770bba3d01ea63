//! `hash`: print `state-hash: 0x…` of a scene after N fixed ticks — a ghost recording's
//! formation, the scripted demo, the demo on a gamepad or a sticks file, the arena on recorded
//! inputs.

use std::path::{Path, PathBuf};

use anyhow::Result;
use hopkit::ghost::{Frame, Recording};
use hopkit::hash::StateHash;
use hopkit_demo::arena::{ArenaInput, ArenaWorld};
use hopkit_demo::DemoParams;

use super::hash_line;
use crate::cli::{HashArgs, MAX_SECONDS};
use crate::output::OutFile;
use crate::replay::{self, GhostDriver};
use crate::rig::ScriptedDemo;
use crate::sticks;
use crate::ticks::{check_ticks, drive_fixed, max_ticks};
use crate::window::Driver;
use crate::UserError;

/// Print the hash of the scene the arguments name, driving the ticks from render frames of
/// `1/fps` s through the core's fixed-step accumulator (so `--fps` cannot change the result).
pub fn run(args: &HashArgs) -> Result<()> {
    if let Some(path) = &args.sticks {
        let hash = sticks_hash_file(path, args.ticks, args.frames.as_deref(), args.quiet)?;
        println!("{}", hash_line(hash));
        return Ok(());
    }
    if let Some(frames) = &args.frames {
        return Err(UserError(format!("--frames {} needs --sticks FILE", frames.display())).into());
    }
    if let Some(path) = &args.gamepad {
        let level = args.level.as_deref().unwrap_or("plain");
        let hash = gamepad_hash_file(path, args.ghost.as_deref(), level)?;
        println!("{}", hash_line(hash));
        return Ok(());
    }
    if let Some(files) = &args.arena {
        let hash = arena_hash_files(files, args.ticks)?;
        println!("{}", hash_line(hash));
        return Ok(());
    }
    let hash = match (&args.file, args.scene.as_deref()) {
        (Some(file), _) => hash_file(file, args.ticks, u32::from(args.fps), args.quiet)?,
        (None, Some("demo")) => {
            // The scripted input on `--level` (default: the window's and headless run's `full`),
            // as the headless run drives it: its summary prints this hash after as many ticks.
            let level = args
                .level
                .as_deref()
                .map_or(hopkit_demo::level::Level::DEFAULT, crate::cli::demo_level);
            let mut demo = ScriptedDemo::on_level(level);
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
    println!("{}", hash_line(hash));
    Ok(())
}

/// `hash FILE`: the ghost formation's state hash after `ticks` ticks of the recording at `path`
/// (default: the recording's length, at most [`MAX_SECONDS`] at its tick rate), driven by render
/// frames at `fps`.
fn hash_file(path: &Path, ticks: Option<u32>, fps: u32, quiet: bool) -> Result<u64> {
    let bytes = replay::load(path)?;
    let mut d = GhostDriver::new(bytes)?;
    let n = match ticks {
        Some(n) => check_ticks(n, d.tick_hz())?,
        None => replay::check_length(path, &d)?,
    };
    drive_fixed(&mut d, n, fps, quiet);
    Ok(d.state_hash())
}

/// The demo's state hash after one tick per byte of the gamepad file at `path`
/// ([`hopkit_demo::gamepad::gamepad_hash_rig`], the code the WASM-4 and wasm32 carts run) on the
/// level called `level` (`plain`: the WASM-4 cart's, `full`: the wasm32 cart's); with `ghost`,
/// the formation flies that recording ([`hopkit_demo::DemoRig::with_recording`]).
fn gamepad_hash_file(path: &Path, ghost: Option<&Path>, level: &str) -> Result<u64> {
    let level = hopkit_demo::level::Level::from_name(level)
        .ok_or_else(|| UserError(format!("unknown level {level} (known: plain, full, solid)")))?;
    let rig = match ghost {
        None => hopkit_demo::DemoRig::new(),
        Some(g) => {
            // Read and decoded like every other command's recording: the file at most
            // `MAX_RECORDING_BYTES`, a version 2 file's decoded image too (checked against the
            // header's frame count before anything is allocated), the CRC before the frames.
            // One run per process: the image lives until exit.
            let image = replay::load(g)?;
            let rec = Recording::parse(image)
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
        crate::rig::rig_on(rig, level),
        &bytes,
    ))
}

/// `hash --sticks FILE [--ticks N] [--frames OUT]`: the demo's state hash after one
/// [`hopkit_demo::DemoRig::tick`] per line of the sticks file at `path` (the first `ticks` lines;
/// default all of them). With `frames`, also write the frame the firmware renderer draws after
/// every tick (see [`write_frames`]). Everything is checked before the first tick.
fn sticks_hash_file(
    path: &Path,
    ticks: Option<u32>,
    frames: Option<&Path>,
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
fn write_frames(
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
fn same_file(a: &Path, b: &Path) -> bool {
    match (std::fs::canonicalize(a), std::fs::canonicalize(b)) {
        (Ok(x), Ok(y)) => x == y,
        _ => a == b,
    }
}

/// `hash --arena FILE…`: the arena's state hash after `ticks` ticks (default: the shortest
/// recording's length) with player `p` driven by the frames of file `p`.
fn arena_hash_files(paths: &[PathBuf], ticks: Option<u32>) -> Result<u64> {
    let mut recs = Vec::with_capacity(paths.len());
    for path in paths {
        let bytes = replay::load(path)?;
        let r =
            Recording::parse(bytes).map_err(|e| UserError(format!("{}: {e}", path.display())))?;
        if u32::from(r.tick_hz()) != hopkit_demo::TICK_HZ {
            return Err(UserError(format!(
                "recording {} ticks at {} Hz; the arena ticks at {} Hz",
                path.display(),
                r.tick_hz(),
                hopkit_demo::TICK_HZ
            ))
            .into());
        }
        recs.push(r);
    }
    let shortest = recs.iter().map(|r| r.frame_count()).min().unwrap_or(0);
    let n = match ticks {
        Some(n) if n > shortest => {
            return Err(UserError(format!(
                "--ticks {n}: the shortest arena recording has {shortest} frames"
            ))
            .into())
        }
        Some(n) => n,
        None => shortest,
    };
    // Every run is at most MAX_SECONDS of simulated time.
    let n = check_ticks(n, hopkit_demo::TICK_HZ)?;
    let params = DemoParams::default();
    let mut world = ArenaWorld::new(recs.len());
    let mut inputs: Vec<ArenaInput> = vec![[0; 3]; recs.len()];
    for t in 0..n {
        for (i, r) in inputs.iter_mut().zip(recs.iter()) {
            *i = r.frame(t).unwrap_or(Frame::NEUTRAL).pack();
        }
        world.step(&params, &inputs);
    }
    Ok(world.state_hash())
}
