//! Command-line interface (clap derive).
//!
//! Numeric options accept negative numbers as values (`--seconds -1` reaches the range check and
//! gets "must be > 0", instead of clap's "unexpected argument '-1'").

use std::path::PathBuf;

use clap::{Args, Parser, Subcommand};

/// Longest simulated run, seconds: the one limit of `--seconds` (demo, `scenario`, `record`), a
/// scenario file's `seconds`, the recorder's capacity, and `hash --ticks` (at most this many
/// seconds at the scene's tick rate).
pub const MAX_SECONDS: f64 = 600.0;

/// The limits and the exit-code rule, shown at the end of `hopkit-sim --help` (docs/host-sim.md
/// has the same text; a test checks that the two agree); every subcommand's `--help` points to
/// it ([`SEE_TOP_HELP`]).
macro_rules! limits_and_exit_codes {
    () => {
        "Limits: a run is at most 600 s of simulated time (--seconds, a scenario file's `seconds`, \
record, hash --ticks at the scene's tick rate). Files read are refused when larger than: a \
recording 42000024 bytes (600 s at 10000 Hz, the format's highest rate), a gamepad file 36000 \
bytes, a scenario file 1048576 bytes. Progress bars show on a terminal only.\n\n\
Outputs: each is written to a hidden .NAME.hopkit-tmp next to it and renamed into place when \
complete (frames: a hidden .hopkit-sim-run-* folder). record --out replaces an existing file only \
with --force.\n\n\
Exit codes: 0 done; 1 the run failed while working (an I/O error writing an output; no partial \
file is left); 2 bad input or usage (an argument, scenario file, recording or output path is \
wrong; nothing was run); 130 interrupted by Ctrl-C, SIGTERM or SIGHUP (the unfinished outputs are \
removed, existing files are unchanged; outputs already complete are named; a run killed with SIGKILL leaves its hidden temporary \
file, which the next run writing that file replaces)."
    };
}

/// The `limits_and_exit_codes!` text as a constant.
pub const LIMITS_AND_EXIT_CODES: &str = limits_and_exit_codes!();

/// The end of every subcommand's `--help`: where the rule above is (said once, in
/// `hopkit-sim --help`).
pub const SEE_TOP_HELP: &str =
    "Limits, outputs and exit codes (the same for every command): see hopkit-sim --help.";

/// `--seconds`: a finite number of seconds in `(0, MAX_SECONDS]`.
pub fn parse_seconds(s: &str) -> Result<f64, String> {
    let v: f64 = s
        .trim()
        .parse()
        .map_err(|_| "expected a number of seconds, e.g. 10 or 2.5".to_string())?;
    if v.is_finite() && v > 0.0 && v <= MAX_SECONDS {
        Ok(v)
    } else {
        Err(format!("must be > 0 and at most {MAX_SECONDS} seconds"))
    }
}

/// A whole number ≥ 0 (ticks, frame intervals).
pub fn parse_count(s: &str) -> Result<u32, String> {
    let t = s.trim();
    match t.parse::<u32>() {
        Ok(v) => Ok(v),
        Err(_) if t.parse::<i64>().is_ok_and(|v| v < 0) => {
            Err("must be a whole number ≥ 0, got a negative one".into())
        }
        Err(_) => Err("expected a whole number ≥ 0, e.g. 600".into()),
    }
}

/// hopkit on the desktop: the handheld demo in a window (or headless), scenarios with CSV traces
/// and plots, ghost recordings, and cross-platform state hashes.
///
/// Without a subcommand it opens the interactive demo. With no display (no X server, CI, SSH) it
/// runs the demo headless on the scripted input and writes PNG frames plus a summary instead.
#[derive(Parser, Debug)]
#[command(name = "hopkit-sim", version, about, long_about, max_term_width = 100)]
#[command(after_help = concat!(
    "Controls in the window: W/A/S/D move, mouse or Q/E (arrow keys) look, Space jump, F or left \
click fire, R reset, P pause, Esc quit (the first Esc closes the guide), Ctrl+C (or Ctrl-C in the \
terminal) quit with the summary line and exit code 130. Keys held when the window loses the focus \
are let go. Gamepads: left stick move, right stick look, A/south jump, right trigger fire.\n\n",
    limits_and_exit_codes!()
))]
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
    /// Headless: simulated seconds to run, 0 < S ≤ 600 (the script runs, then strafe-hops from
    /// 6 s on).
    #[arg(long, default_value_t = 12.0, value_name = "S", value_parser = parse_seconds,
          allow_negative_numbers = true)]
    pub seconds: f64,
    /// Headless: directory for PNG frames and the summary (created if missing; each run replaces
    /// the previous run's frame-*.png and summary.txt there).
    #[arg(long, default_value = "hopkit-sim-out", value_name = "DIR")]
    pub out_dir: PathBuf,
    /// Headless: write a frame every N ticks (0: only the last).
    #[arg(long, default_value_t = 30, value_name = "N", value_parser = parse_count,
          allow_negative_numbers = true)]
    pub frame_every: u32,
    /// Window: display zoom (each display pixel becomes ZOOM×ZOOM window pixels).
    #[arg(long, default_value_t = 6, value_parser = clap::value_parser!(u16).range(1..=16),
          allow_negative_numbers = true)]
    pub zoom: u16,
    /// Window: render frame-rate cap (the simulation always ticks at its fixed rate).
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..=1000),
          allow_negative_numbers = true)]
    pub fps: u16,
    /// The level the player moves on: `full` (the floor, ramps, tower with its ladder, pool and
    /// turntable), `plain` (the floor and ramps) or `solid` (solids the body collides with: the
    /// tower's walls, stairs up to it, a surf ramp, a low corridor to crouch through, the pool;
    /// the left stick's push or C crouches). Window and headless runs.
    #[arg(long, value_name = "LEVEL", value_parser = ["full", "plain", "solid"],
          default_value = "full")]
    pub level: String,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// The level called `name` (one of the names `--level` accepts).
pub fn demo_level(name: &str) -> hopkit_demo::level::Level {
    hopkit_demo::level::Level::from_name(name).unwrap_or_default()
}

/// Subcommands.
#[derive(Subcommand, Debug)]
pub enum Command {
    /// Run a scenario (built-in name or TOML file) headless; write a CSV trace and/or a plot.
    // `--help` lists the built-ins after this line, from the scenario registry
    // (`crate::scenario::REGISTRY`, added by `crate::app::command`).
    #[command(after_help = SEE_TOP_HELP)]
    Scenario(ScenarioArgs),
    /// Record a ghost recording: from the keyboard/gamepad in a window, or from a scripted pilot
    /// when headless.
    #[command(after_help = SEE_TOP_HELP)]
    Record(RecordArgs),
    /// Play a ghost recording: in a window, or headless (frames and a summary).
    #[command(after_help = SEE_TOP_HELP)]
    Play(PlayArgs),
    /// Print the state hash after N fixed ticks: `state-hash: 0x<16 hex digits>`.
    ///
    /// With FILE: the scene replaying that ghost recording. With `--scene demo`: the scripted
    /// handheld demo (the same line the firmware prints in QEMU for the same input). With
    /// `--sticks FILE`: the handheld demo on raw stick samples (`hopkit-sim sticks` writes the
    /// scripted ones).
    #[command(after_help = SEE_TOP_HELP)]
    Hash(HashArgs),
    /// Write the scripted handheld demo's raw stick samples as a sticks file (the input of
    /// `hash --sticks`; see docs/host-sim.md for the format).
    #[command(after_help = SEE_TOP_HELP)]
    Sticks(SticksArgs),
    /// Prove the arena rollback-safe with GGRS's SyncTestSession: every frame, roll back
    /// --check-distance frames, re-simulate them and compare the state hashes. Exits 1 on a
    /// mismatch.
    ///
    /// The arena (2–4 players on the demo level, see docs/netplay.md) runs on scripted, recorded,
    /// random or mixed input.
    #[command(after_help = SEE_TOP_HELP)]
    Synctest(SynctestArgs),
    /// Play the arena over UDP with GGRS rollback netcode: this process is one peer.
    ///
    /// Two terminals on one machine: `hopkit-sim netplay --local-port 7000 --remote
    /// 127.0.0.1:7001 --headless` and `hopkit-sim netplay --local-port 7001 --remote
    /// 127.0.0.1:7000 --headless`. On exit it prints frames, rollbacks, the deepest rollback,
    /// desync events and `state-hash: 0x…` (the state after --frames ticks; both peers print the
    /// same one). Exits 1 on a desync or when the session fails.
    #[command(after_help = SEE_TOP_HELP)]
    Netplay(NetplayArgs),
    /// The link cable of two handhelds (the arena over a serial wire with rollback): `link play`
    /// runs two boards over a simulated wire against the replay of their inputs; `link inputs`
    /// turns a board's sticks file into its arena inputs (docs/netplay.md, "Link cable").
    #[command(after_help = SEE_TOP_HELP)]
    Link(LinkArgs),
    /// Print a ghost recording's statistics, one `key: value` line each: file, version, frames,
    /// tick-hz, duration, bytes, bytes-per-frame, checksums, condition-unit (the recording is
    /// fully validated and decoded first).
    #[command(after_help = SEE_TOP_HELP)]
    Info(InfoArgs),
}

/// `info` options.
#[derive(Args, Debug)]
pub struct InfoArgs {
    /// Ghost recording file (format version 1 or 2).
    pub file: PathBuf,
}

/// `scenario` options.
#[derive(Args, Debug)]
pub struct ScenarioArgs {
    /// A built-in scenario's name (listed above) or a scenario file's path.
    #[arg(value_name = "NAME|FILE")]
    pub scenario: String,
    /// Write the per-tick trace of the main actor as CSV.
    #[arg(long, value_name = "FILE")]
    pub csv: Option<PathBuf>,
    /// Write a plot as PNG; FILE must end in .png (or have no extension). bhop: speed over time
    /// against the ground max; slope: body tilt and ground slope over time; crouch: side view,
    /// height over distance; ladder: height over time, the climb, push-off and re-climb each in
    /// its colour, numbered; water: height over time against the floor and the surface; stairs,
    /// ramp, ceiling, tunnel: side view with the solids cut through the path; surf, seam: speed
    /// over time, a line per run; others: top-down trajectories with start and end marked (the
    /// collision ones with the solids cut at height 16 and the body's box).
    #[arg(long, value_name = "FILE")]
    pub plot: Option<PathBuf>,
    /// Override the scenario's simulated duration, 0 < S ≤ 600 seconds.
    #[arg(long, value_name = "S", value_parser = parse_seconds, allow_negative_numbers = true)]
    pub seconds: Option<f64>,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `record` options.
#[derive(Args, Debug)]
pub struct RecordArgs {
    /// Output file (an existing file is replaced only with --force).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Replace --out if it exists.
    #[arg(long)]
    pub force: bool,
    /// Seconds to record, 0 < S ≤ 600 (headless: length of the scripted flight; window: the most
    /// kept).
    #[arg(long, default_value_t = 10.0, value_name = "S", value_parser = parse_seconds,
          allow_negative_numbers = true)]
    pub seconds: f64,
    /// Use the scripted pilot even if a display is available.
    #[arg(long)]
    pub headless: bool,
    /// File format version: 2 (range-coded, under half a byte a frame for keyboard flying) or 1
    /// (3 bytes a frame, readable in place by older tools).
    #[arg(long, value_name = "VERSION", default_value_t = 2,
          value_parser = clap::value_parser!(u16).range(1..=2))]
    pub format: u16,
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
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..=1000),
          allow_negative_numbers = true)]
    pub fps: u16,
    /// Never open a window.
    #[arg(long)]
    pub headless: bool,
    /// Headless: directory for PNG frames and the summary (created if missing; each run replaces
    /// the previous run's frame-*.png and summary.txt there).
    #[arg(long, default_value = "hopkit-sim-out", value_name = "DIR")]
    pub out_dir: PathBuf,
    /// Headless: write a frame every N ticks (0: only the last).
    #[arg(long, default_value_t = 30, value_name = "N", value_parser = parse_count,
          allow_negative_numbers = true)]
    pub frame_every: u32,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `hash` options. Exactly one input is required: FILE, `--scene`, `--arena`, `--gamepad` or
/// `--sticks` (the group `input`, so clap's error names all of them).
#[derive(Args, Debug)]
#[command(group = clap::ArgGroup::new("input")
    .required(true)
    .multiple(false)
    .args(["file", "scene", "arena", "gamepad", "sticks"]))]
#[command(group = clap::ArgGroup::new("on_a_level").args(["gamepad", "scene"]))]
pub struct HashArgs {
    /// Ghost recording to replay.
    #[arg(conflicts_with_all = ["scene", "gamepad", "sticks", "arena"])]
    pub file: Option<PathBuf>,
    /// A built-in scene instead of a file (`demo`: the scripted handheld demo).
    #[arg(long, value_parser = ["demo"], conflicts_with_all = ["gamepad", "sticks", "arena"])]
    pub scene: Option<String>,
    /// The netplay arena with one ghost recording per player (2–4 files, player 1 first; each
    /// frame is that player's input of one tick, as `netplay --log` writes them). --ticks N runs
    /// the first N ticks (default: the shortest recording's length).
    #[arg(long, value_name = "FILE", num_args = 2..=4, conflicts_with_all = ["gamepad", "sticks"])]
    pub arena: Option<Vec<PathBuf>>,
    /// The handheld demo driven by a file of gamepad bytes, one per tick in WASM-4's bit layout
    /// (1 = X/jump, 2 = Z/fire, 16 left, 32 right, 64 up, 128 down; 4, unused by WASM-4, crouches
    /// on --level solid), as the WASM-4 cart traces them, on the cart's level (--level); the tick
    /// count is the file's length (at most 36000).
    #[arg(long, value_name = "FILE", conflicts_with_all = ["ticks", "sticks"])]
    pub gamepad: Option<PathBuf>,
    /// With --gamepad: the demo's formation flies this recording (version 1 or 2) instead of the
    /// bundled one — what the WASM-4 cart does with a recording on its disk.
    #[arg(long, value_name = "FILE", requires = "gamepad")]
    pub ghost: Option<PathBuf>,
    /// With --gamepad or --scene demo: the level the player moves on. `plain`: the floor, two
    /// ramps and the walls (the WASM-4 cart's level, the default with --gamepad); `full`: also the
    /// tower, ladder, pool and turntable (the level of the wasm32 cart, the C ABI's demo, the
    /// window; the default with --scene demo); `solid`: the level of solids (`--level solid` of
    /// the window; with --scene demo the hash the headless `--level solid` run's summary prints).
    #[arg(long, value_name = "LEVEL", value_parser = ["plain", "full", "solid"],
          requires = "on_a_level")]
    pub level: Option<String>,
    /// The handheld demo driven by a sticks file: raw ADC stick samples, one tick per line,
    /// `left_x left_y right_x right_y buttons` (12-bit counts 0..=4095; buttons JUMP 1, FIRE 2,
    /// LEFT_STICK 4, RIGHT_STICK 8); `#` lines are comments. --ticks N runs the first N lines
    /// (default: all, at most 36000). `hopkit-sim sticks` writes the scripted demo in this format.
    #[arg(long, value_name = "FILE")]
    pub sticks: Option<PathBuf>,
    /// With --sticks: also write the 128×64 frame the firmware renderer draws after every tick,
    /// 1024 bytes each in the SSD1306 page layout (byte page·128 + x, bit y % 8), concatenated.
    // clap skips `requires` when a present argument conflicts with the required one, hence the
    // conflicts as well.
    #[arg(long, value_name = "OUT", requires = "sticks",
          conflicts_with_all = ["file", "scene", "gamepad"])]
    pub frames: Option<PathBuf>,
    /// Ticks to simulate (default: the recording's length, the sticks file's length, or 600 for
    /// the demo); at most 600 s at the scene's tick rate (36000 at 60 Hz).
    #[arg(long, value_name = "N", value_parser = parse_count, allow_negative_numbers = true)]
    pub ticks: Option<u32>,
    /// Render frame rate to drive the fixed-step loop with; does not change the result.
    #[arg(long, default_value_t = 60, value_parser = clap::value_parser!(u16).range(1..=1000),
          allow_negative_numbers = true)]
    pub fps: u16,
    /// No progress bar.
    #[arg(long, short)]
    pub quiet: bool,
}

/// `sticks` options.
#[derive(Args, Debug)]
pub struct SticksArgs {
    /// Output file (an existing one is replaced only with --force).
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
    /// Ticks of the script to write, at most 36000 (600 s at 60 Hz).
    #[arg(long, default_value_t = 3600, value_name = "N", value_parser = parse_count,
          allow_negative_numbers = true)]
    pub ticks: u32,
    /// Replace FILE if it exists.
    #[arg(long)]
    pub force: bool,
}

/// `netplay --timeout`: wall-clock seconds in `(0, 86400]`.
fn parse_timeout(s: &str) -> Result<f64, String> {
    match s.trim().parse::<f64>() {
        Ok(v) if v.is_finite() && v > 0.0 && v <= 86_400.0 => Ok(v),
        _ => Err("expected seconds, > 0 and at most 86400".into()),
    }
}

/// `--players`: 2..=4.
fn parse_players(s: &str) -> Result<usize, String> {
    match s.trim().parse::<usize>() {
        Ok(n) if (2..=4).contains(&n) => Ok(n),
        _ => Err("expected 2, 3 or 4 players".into()),
    }
}

/// Options shared by `synctest` and `netplay`: the input.
#[derive(Args, Debug, Clone)]
pub struct NetInputArgs {
    /// Input of the players.
    #[arg(long, value_enum, default_value = "mixed")]
    pub input: InputKind,
    /// Ghost recording for `--input recording` and `mixed` (default: the bundled demo recording).
    #[arg(long, value_name = "FILE")]
    pub recording: Option<PathBuf>,
    /// Seed of the random input.
    #[arg(long, default_value_t = 24)]
    pub seed: u64,
}

/// `synctest` options.
#[derive(Args, Debug)]
pub struct SynctestArgs {
    /// Frames to roll back and re-simulate every frame (GGRS check distance); below
    /// --max-prediction.
    #[arg(long, default_value_t = 7, value_name = "N")]
    pub check_distance: usize,
    /// GGRS prediction window, frames.
    #[arg(long, default_value_t = 8, value_name = "W")]
    pub max_prediction: usize,
    /// Frames to advance.
    #[arg(long, default_value_t = 3600, value_name = "M", value_parser = parse_count,
          allow_negative_numbers = true)]
    pub frames: u32,
    /// Players, 2–4.
    #[arg(long, default_value = "2", value_parser = parse_players)]
    pub players: usize,
    /// The input.
    #[command(flatten)]
    pub input: NetInputArgs,
    /// Negative control: flip one state bit on the second simulation of tick T only (the one GGRS
    /// saves first; later re-simulations are compared with it), as a step that is not a function
    /// of its inputs would; the synctest must report a mismatch.
    #[arg(long, value_name = "T", value_parser = parse_count, allow_negative_numbers = true)]
    pub perturb_at: Option<u32>,
}

/// `netplay` options.
#[derive(Args, Debug)]
pub struct NetplayArgs {
    /// UDP port to listen on (all interfaces).
    #[arg(long, value_name = "P")]
    pub local_port: u16,
    /// A remote peer, `HOST:PORT`; once per other player (1–3).
    #[arg(long, value_name = "ADDR", required = true)]
    pub remote: Vec<String>,
    /// This peer's player number, 1–4 (checked against the other peers' claims: two peers claiming
    /// one number are refused). Default: the seats are agreed by a handshake (random nonces), so
    /// they hold behind relays and NATs.
    #[arg(long, value_name = "N")]
    pub player: Option<usize>,
    /// GGRS input delay, frames.
    #[arg(long, default_value_t = 0, value_name = "D")]
    pub input_delay: usize,
    /// GGRS prediction window, frames (how far ahead of a remote's inputs a peer may run).
    #[arg(long, default_value_t = 8, value_name = "W")]
    pub max_prediction: usize,
    /// Desync detection: compare state hashes every N confirmed frames.
    #[arg(long, default_value_t = 1, value_name = "N",
          value_parser = clap::value_parser!(u32).range(1..))]
    pub desync_interval: u32,
    /// No window: the local player plays --input (the default).
    #[arg(long)]
    pub headless: bool,
    /// Play in a window with the keyboard or a gamepad, the other players drawn in colour, the
    /// panel showing ping, rollbacks and frames ahead (see docs/netplay.md).
    #[arg(long, conflicts_with = "headless")]
    pub window: bool,
    /// Frames to play (at most 36000, 600 s at 60 Hz). Default 600 headless, 36000 (10 min) in
    /// a window.
    #[arg(long, value_name = "N", value_parser = parse_count, allow_negative_numbers = true)]
    pub frames: Option<u32>,
    /// The local player's input.
    #[command(flatten)]
    pub input: NetInputArgs,
    /// Impair the packets this peer sends: `loss%,delay-ms,jitter-ms,seed`, e.g. `5,150,30,1`.
    #[arg(long, value_name = "SPEC")]
    pub lossy: Option<String>,
    /// Write every player's confirmed inputs as ghost recordings DIR/player-1.ghost … (replay
    /// with `hopkit-sim hash --arena DIR/player-*.ghost`).
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
    /// Give up after S seconds of wall time, 0 < S ≤ 86400 (default: twice the play time plus
    /// 30 s).
    #[arg(long, value_name = "S", value_parser = parse_timeout, allow_negative_numbers = true)]
    pub timeout: Option<f64>,
    /// Negative control: flip one state bit whenever tick T is simulated on this peer; desync
    /// detection must report it.
    #[arg(long, value_name = "T", value_parser = parse_count, allow_negative_numbers = true)]
    pub perturb_at: Option<u32>,
}

/// The kinds of input of `--input`, as named on the command line
/// ([`hopkit_demo::arena::InputKind`]). Their help quotes the core's constants
/// ([`hopkit_demo::arena::RANDOM_HOLD`], [`hopkit_demo::arena::MIXED_BLOCK`]), hence the
/// hand-written `ValueEnum`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum InputKind {
    /// The demo script's run and strafe-hops, each player further along it
    /// ([`hopkit_demo::arena::scripted_input`]).
    Scripted,
    /// Random 24-bit frames, each held `RANDOM_HOLD` frames, from `--seed`.
    Random,
    /// The frames of a ghost recording, looping.
    Recording,
    /// Blocks of `MIXED_BLOCK` frames of each of the others, in turn.
    Mixed,
}

impl InputKind {
    /// The core's kind.
    pub fn core(self) -> hopkit_demo::arena::InputKind {
        use hopkit_demo::arena::InputKind as K;
        match self {
            InputKind::Scripted => K::Scripted,
            InputKind::Random => K::Random,
            InputKind::Recording => K::Recording,
            InputKind::Mixed => K::Mixed,
        }
    }
}

impl clap::ValueEnum for InputKind {
    fn value_variants<'a>() -> &'a [Self] {
        &[
            InputKind::Scripted,
            InputKind::Random,
            InputKind::Recording,
            InputKind::Mixed,
        ]
    }

    fn to_possible_value(&self) -> Option<clap::builder::PossibleValue> {
        use clap::builder::PossibleValue as V;
        use hopkit_demo::arena::{MIXED_BLOCK, RANDOM_HOLD};
        Some(match self {
            InputKind::Scripted => V::new("scripted")
                .help("the demo script's run and strafe-hops, each player further along it"),
            InputKind::Random => V::new("random").help(format!(
                "random 24-bit frames (any bits: sticks, strafes, jump, fire), each held \
                 {RANDOM_HOLD} frames, from --seed"
            )),
            InputKind::Recording => V::new("recording").help(
                "the frames of a ghost recording (--recording, default the bundled demo \
                 recording), looping; player p starts p/players of the way into it",
            ),
            InputKind::Mixed => V::new("mixed").help(format!(
                "blocks of {MIXED_BLOCK} frames: scripted, recording, random, in turn"
            )),
        })
    }
}

/// `link` options.
#[derive(Args, Debug)]
pub struct LinkArgs {
    /// What to do.
    #[command(subcommand)]
    pub command: LinkCommand,
}

/// `link` subcommands.
#[derive(Subcommand, Debug)]
pub enum LinkCommand {
    /// Two boards over a simulated serial wire: prints each board's seat, rollbacks, checksums
    /// and `frame N state-hash:` lines, and the replay's; exits 1 if any differ or a desync was
    /// detected.
    Play(LinkPlayArgs),
    /// A board's arena inputs from its sticks file, as a ghost recording (`hash --arena` input).
    Inputs(LinkInputsArgs),
}

/// `link play` options.
#[derive(Args, Debug)]
pub struct LinkPlayArgs {
    /// Ticks to run (60 Hz), 1 to 36,000.
    #[arg(long, default_value_t = 3700)]
    pub ticks: u64,
    /// Line rate, baud.
    #[arg(long, default_value_t = 115_200)]
    pub baud: u32,
    /// Wire latency, milliseconds.
    #[arg(long, default_value_t = 0.0)]
    pub latency_ms: f64,
    /// Up to this much more latency per packet, milliseconds (bytes stay in order).
    #[arg(long, default_value_t = 0.0)]
    pub jitter_ms: f64,
    /// Bytes lost, percent.
    #[arg(long, default_value_t = 0.0)]
    pub loss: f64,
    /// Bytes with a bit flipped, percent.
    #[arg(long, default_value_t = 0.0)]
    pub flip: f64,
    /// Cut the wire from tick A to tick B (`A-B`).
    #[arg(long, value_name = "A-B")]
    pub cut: Option<String>,
    /// Board 2's clock offset, milliseconds (below one tick).
    #[arg(long, default_value_t = 5.0)]
    pub offset_ms: f64,
    /// Seed of the wire and the boards' nonces.
    #[arg(long, default_value_t = 38)]
    pub wire_seed: u64,
    /// The boards' inputs (board b plays player b's stream of these, whatever its seat).
    #[command(flatten)]
    pub input: NetInputArgs,
    /// Write the first match's inputs as DIR/player-1.ghost and DIR/player-2.ghost.
    #[arg(long, value_name = "DIR")]
    pub log: Option<PathBuf>,
}

/// `link inputs` options.
#[derive(Args, Debug)]
pub struct LinkInputsArgs {
    /// The board's sticks file (`lx ly rx ry buttons` per input read).
    #[arg(long, value_name = "FILE")]
    pub sticks: PathBuf,
    /// The input its match's frame 0 read (0-based line; the board reports it:
    /// `link: match M up, seat S of 2, frame 0 at input K`).
    #[arg(long, value_name = "K")]
    pub from: usize,
    /// Frames to write.
    #[arg(long, value_name = "N")]
    pub frames: usize,
    /// Negative control: replace the input of this frame (0-based) by a full forward stick.
    #[arg(long, value_name = "FRAME")]
    pub change: Option<usize>,
    /// The recording to write.
    #[arg(long, value_name = "FILE")]
    pub out: PathBuf,
}
