//! The default command: the interactive demo, or headless on the scripted input without a
//! display.

use anyhow::Result;

use crate::cli::DemoArgs;
use crate::headless::{describe, run_headless, HeadlessOpts};
use crate::output::FrameDir;
use crate::rig::{LiveDemo, ScriptedDemo};
use crate::ticks::seconds_to_ticks;
use crate::window::{run_window, Driver, WindowEnd, WindowOpts};

/// The demo in a window, or headless (frames and a summary) when there is no display or with
/// `--headless`.
pub fn run(args: &DemoArgs) -> Result<()> {
    let hz = ScriptedDemo::new().tick_hz();
    let ticks = seconds_to_ticks(args.seconds, hz)?;
    if !args.headless {
        let mut live = LiveDemo::on_level(crate::cli::demo_level(&args.level));
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
    let mut scripted = ScriptedDemo::on_level(crate::cli::demo_level(&args.level));
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
