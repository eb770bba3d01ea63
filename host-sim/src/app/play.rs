//! `play FILE`: a ghost recording's formation in a window, or headless (frames and a summary).

use anyhow::Result;

use crate::cli::PlayArgs;
use crate::headless::{describe, run_headless, HeadlessOpts};
use crate::output::FrameDir;
use crate::replay::{self, GhostDriver};
use crate::window::{run_window, WindowEnd, WindowOpts};

/// Play the recording `args.file`.
pub fn run(args: &PlayArgs) -> Result<()> {
    let bytes = replay::load(&args.file)?;
    let mut driver = GhostDriver::new(bytes)?;
    replay::check_length(&args.file, &driver)?;
    if !args.headless {
        let opts = WindowOpts {
            title: format!("hopkit-sim: {}", args.file.display()),
            zoom: crate::desktop::DEFAULT_ZOOM,
            fps: usize::from(args.fps),
            speed: 1.0,
            interactive: false,
            hint: "R restart  P pause  Esc quit".into(),
            guide: Vec::new(),
        };
        match run_window(&mut driver, &opts)? {
            WindowEnd::Closed(summary) => {
                println!("{summary}");
                return Ok(());
            }
            WindowEnd::Unavailable(why) => {
                eprintln!("hopkit-sim: {why}; playing headless instead")
            }
        }
    }
    let ticks = replay::check_length(&args.file, &driver)?.max(1);
    let out = FrameDir::check("--out-dir", &args.out_dir)?;
    let opts = HeadlessOpts {
        ticks,
        frame_every: args.frame_every,
        quiet: args.quiet,
        label: format!("ghost recording {}", args.file.display()),
        status: "headless replay".into(),
    };
    let report = run_headless(&mut driver, &opts, out)?;
    println!("{}", describe(&report));
    Ok(())
}
