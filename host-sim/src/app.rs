//! The subcommands' top level: argument checks, choosing window or headless, messages.

use anyhow::{Context, Result};

use crate::cli::{DemoArgs, HashArgs, PlayArgs, RecordArgs, ScenarioArgs};
use crate::headless::{describe, run_headless, HeadlessOpts};
use crate::rig::{LiveDemo, ScriptedDemo};
use crate::window::{run_window, Driver, WindowEnd, WindowOpts};
use crate::{plot, replay, scenario, UserError};

/// Ticks for `seconds` at `hz`, or a [`UserError`] for nonsense durations.
pub fn seconds_to_ticks(seconds: f64, hz: u32) -> Result<u32> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= 24.0 * 3600.0) {
        return Err(UserError(format!(
            "--seconds must be > 0 and at most 86400, got {seconds}"
        ))
        .into());
    }
    Ok(((seconds * f64::from(hz)).round() as u32).max(1))
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
            hint: "WASD move  mouse or Q/E look  Space jump\nF or click fire  R reset  P pause  Esc quit"
                .into(),
        };
        match run_window(&mut live, &opts)? {
            WindowEnd::Closed => return Ok(()),
            WindowEnd::Unavailable(why) => eprintln!(
                "hopkit-sim: {why}; running the scripted demo headless instead \
                 (--headless skips this check)"
            ),
        }
    }
    let mut scripted = ScriptedDemo::new();
    let opts = HeadlessOpts {
        out_dir: args.out_dir.clone(),
        ticks,
        frame_every: args.frame_every,
        quiet: args.quiet,
        label: "scripted handheld demo (hopkit::demo::scripted_raw)".into(),
        status: "headless, scripted input".into(),
    };
    let report = run_headless(&mut scripted, &opts)?;
    println!("{}", describe(&report, &args.out_dir));
    Ok(())
}

/// `scenario`: run, then write the CSV and/or plot.
pub fn scenario(args: &ScenarioArgs) -> Result<()> {
    let loaded = scenario::load(&args.scenario).map_err(|e| UserError(e.to_string()))?;
    let mut file = loaded.file.clone();
    if let Some(s) = args.seconds {
        seconds_to_ticks(s, file.tick_hz)?;
        file.seconds = Some(s);
    }
    let trace = scenario::run::run(&file, &loaded.base_dir, args.quiet)?;
    let title = file
        .title
        .clone()
        .unwrap_or_else(|| format!("scenario {}", file.kind.name()));
    println!(
        "{}: {} ticks at {} Hz ({:.2} s), top speed {:.3}",
        loaded.origin,
        trace.samples.len(),
        file.tick_hz,
        trace.samples.len() as f64 / f64::from(file.tick_hz),
        trace.max_speed()
    );
    for line in scenario::run::findings(&file, &trace) {
        println!("  {line}");
    }
    if let Some(csv) = &args.csv {
        trace.save_csv(csv)?;
        println!("wrote {} ({} rows)", csv.display(), trace.samples.len());
    }
    if let Some(png) = &args.plot {
        let spec = scenario::run::plot_spec(&file, &title, &trace);
        plot::save(&spec, png, 960, 540).with_context(|| format!("plotting {}", png.display()))?;
        println!("wrote {}", png.display());
    }
    if args.csv.is_none() && args.plot.is_none() {
        println!("(add --csv FILE and/or --plot FILE to save the trace)");
    }
    Ok(())
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
    let hash = match (&args.file, args.scene.as_deref()) {
        (Some(file), _) => replay::hash_file(file, args.ticks, u32::from(args.fps))?,
        (None, Some("demo")) => {
            let ticks = args.ticks.unwrap_or(600);
            let mut demo = ScriptedDemo::new();
            drive_fixed(&mut demo, ticks, u32::from(args.fps));
            demo.state_hash()
        }
        (None, other) => {
            return Err(UserError(format!("unknown scene {other:?} (known: demo)")).into());
        }
    };
    let mut buf = [0u8; 64];
    println!("{}", hopkit::hash::format_hash_line(hash, &mut buf));
    Ok(())
}

/// Run exactly `ticks` ticks of `driver`, produced by a [`hopkit::timestep::FixedStep`] fed with
/// render frames of `1/fps` seconds (the last frame's surplus ticks are not run).
pub fn drive_fixed(driver: &mut dyn Driver, ticks: u32, fps: u32) {
    let mut stepper = hopkit::timestep::FixedStep::new(driver.tick_hz());
    let frame_ns = hopkit::timestep::NANOS_PER_SECOND / u64::from(fps.max(1));
    let input = crate::input::HostInput::default();
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
    }
}
