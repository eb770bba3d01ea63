//! `record`: a ghost recording flown from the keyboard/gamepad in a window, or by the scripted
//! demo pilot headless ([`crate::replay::RecordDriver`]).

use anyhow::Result;
use hopkit_demo::pilot as demo_pilot;

use crate::cli::RecordArgs;
use crate::input::HostInput;
use crate::output::OutFile;
use crate::readout::num;
use crate::replay::{to_v2, RecordDriver, MAX_FRAMES};
use crate::ticks::seconds_to_ticks;
use crate::window::{run_window, Driver, WindowEnd, WindowOpts};
use crate::UserError;

/// Record for `--seconds` (at most), then write `--out` in `--format`.
pub fn run(args: &RecordArgs) -> Result<()> {
    let hz = u32::from(demo_pilot::INFO.tick_hz);
    let limit = seconds_to_ticks(args.seconds, hz)?.min(MAX_FRAMES as u32);
    // Before anyone flies for minutes: can the recording be saved there?
    let out = OutFile::check("--out", &args.out)?;
    if !args.force && std::fs::metadata(&args.out).is_ok_and(|m| m.is_file()) {
        return Err(UserError(format!(
            "--out {}: the file exists; add --force to replace it",
            args.out.display()
        ))
        .into());
    }
    let mut driver = None;
    if !args.headless {
        let mut live = RecordDriver::live(limit)?;
        let opts = WindowOpts {
            title: "hopkit-sim: recording a ghost (close the window to save)".into(),
            zoom: crate::desktop::DEFAULT_ZOOM,
            fps: 60,
            speed: 1.0,
            interactive: true,
            hint: "W/S pitch  A/D/mouse yaw  F fire  M missile\nT toward  G away  R restart  Esc save+quit"
                .into(),
            guide: Vec::new(),
        };
        match run_window(&mut live, &opts)? {
            WindowEnd::Closed(_) => driver = Some(live),
            WindowEnd::Unavailable(why) => {
                eprintln!("hopkit-sim: {why}; recording the scripted demo pilot instead")
            }
        }
    }
    let mut driver = match driver {
        Some(d) => d,
        None => {
            let mut d = RecordDriver::scripted(limit)?;
            let bar = crate::progress::ticks_bar(u64::from(limit), "recording", args.quiet);
            let input = HostInput::default();
            for _ in 0..limit {
                d.tick(&input);
                bar.inc(1);
            }
            bar.finish_and_clear();
            d
        }
    };
    let bytes = match args.format {
        1 => driver.finish(),
        _ => to_v2(&driver.finish())?,
    };
    out.write_bytes(&bytes)?;
    println!(
        "recorded {} frames ({} s at {hz} Hz) to {} (format version {}, {} bytes)",
        driver.frames(),
        num(f64::from(driver.frames()) / f64::from(hz), 2),
        args.out.display(),
        args.format,
        bytes.len()
    );
    // Skip the "scene: 1 fighter" line.
    for line in driver.stats().lines().iter().skip(1) {
        println!("{line}");
    }
    Ok(())
}
