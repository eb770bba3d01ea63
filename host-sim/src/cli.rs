//! Command-line interface (clap derive).

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// hopkit on the desktop: the handheld demo in a window (or headless), scenarios with CSV traces
/// and plots, ghost recordings, and cross-platform state hashes.
///
/// Without a subcommand it opens the interactive demo. With no display (no X server, CI, SSH) it
/// runs the demo headless on the scripted input and writes PNG frames plus a summary instead.
#[derive(Parser, Debug)]
#[command(name = "hopkit-sim", version, about, long_about, max_term_width = 100)]
#[command(
    after_help = "Controls in the window: W/A/S/D move, mouse or Q/E (arrow keys) look, \
Space jump, F or left click fire, R reset, P pause, Esc quit. Gamepads: left stick move, right \
stick look, A/south jump, right trigger fire."
)]
pub struct Cli {
    /// What to do (default: the interactive demo).
    #[command(subcommand)]
    pub command: Option<Command>,
    /// Options of the interactive demo (used when no subcommand is given).
    #[command(flatten)]
    pub demo: DemoArgs,
}

/// Options of the demo run.
#[derive(Args, Debug, Clone)]
pub struct DemoArgs {
    /// Never open a window: run headless on scripted input and write frames.
    #[arg(long)]
    pub headless: bool,
    /// Headless: simulated seconds to run (the script runs, then strafe-hops from 6 s on).
    #[arg(long, default_value_t = 12.0, value_name = "S")]
    pub seconds: f64,
    /// Headless: directory for PNG frames and the summary.
    #[arg(long, default_value = "hopkit-sim-out", value_name = "DIR")]
    pub out_dir: PathBuf,
    /// Headless: write a frame every N ticks.
    #[arg(long, default_value_t = 30, value_name = "N")]
    pub frame_every: u32,
    /// Window: display zoom (each display pixel becomes ZOOM×ZOOM window pixels).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=16))]
    pub zoom: u16,
    /// Window: render frame-rate cap (the simulation always ticks at its fixed rate).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub fps: u16,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a scenario (built-in name or TOML file) headless; write a CSV trace and/or a plot.
    ///
    /// Built-ins: bhop (strafe-jumping speed gain), arrival (steering to a point), follower
    /// (companion on the breadcrumb trail), slope (tilting over the ramps), ghosts (fighters
    /// replaying the bundled recording). Scenario files: see docs/host-sim.md.
    Scenario(ScenarioArgs),
    /// Record a ghost recording: from the keyboard/gamepad in a window, or from a scripted pilot
    /// when headless.
    Record(RecordArgs),
    /// Play a ghost recording: in a window, or headless (frames and a summary).
    Play(PlayArgs),
    /// Print the state hash after N fixed ticks: `state-hash: 0x<16 hex digits>`.
    ///
    /// With FILE: the scene replaying that ghost recording. With `--scene demo`: the scripted
    /// handheld demo (the same line the firmware prints in QEMU for the same input).
    Hash(HashArgs),
}

/// `scenario` options.
#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// Built-in scenario name (bhop, arrival, follower, slope, ghosts) or a scenario file path.
    #[arg(value_name = "NAME|FILE")]
    pub scenario: String,
    /// Write the per-tick trace of the main actor as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a plot as PNG (bhop: speed over time; others: top-down trajectory).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Override the scenario's simulated duration, seconds.
    #[arg(long, value_name = "S")]
    pub seconds: Option<f64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `record` options.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// Output file.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Seconds to record (headless: length of the scripted flight; window: the most kept).
    #[arg(long, default_value_t = 10.0, value_name = "S")]
    pub seconds: f64,
    /// Use the scripted pilot even if a display is available.
    #[arg(long)]
    pub headless: bool,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `play` options.
#[derive(Args, Debug)]
pub struct PlayArgs {
    /// Ghost recording file.
    pub file: PathBuf,
    /// Render frames per second (window) — the simulation keeps its fixed tick rate.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub fps: u16,
    /// Never open a window.
    #[arg(long)]
    pub headless: bool,
    /// Headless: directory for PNG frames and the summary.
    #[arg(long, default_value = "hopkit-sim-out", value_name = "DIR")]
    pub out_dir: PathBuf,
    /// Headless: write a frame every N ticks.
    #[arg(long, default_value_t = 30, value_name = "N")]
    pub frame_every: u32,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `hash` options.
#[derive(Args, Debug)]
pub struct HashArgs {
    /// Ghost recording to replay.
    #[arg(required_unless_present = "scene", conflicts_with = "scene")]
    pub file: Option<PathBuf>,
    /// A built-in scene instead of a file (`demo`: the scripted handheld demo).
    #[arg(long, value_parser = ["demo"])]
    pub scene: Option<String>,
    /// Ticks to simulate (default: the recording's length, or 600 for the demo).
    #[arg(long, value_name = "N")]
    pub ticks: Option<u32>,
    /// Render frame rate to drive the fixed-step loop with; does not change the result.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..=1000))]
    pub fps: u16,
}
