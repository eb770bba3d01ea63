//! hopkit-sim: the hopkit handheld demo, scenarios, plots and replay tools on the desktop.
//!
//! The binary (`hopkit-sim`) is the user-facing part; this library holds its pieces so that the
//! integration tests can use them (e.g. the golden rendering test saves and loads
//! the demo's frame buffer as PBM files with [`lcd`]).
//!
//! ## Errors and exit codes
//! Every error reaches the user as one line, `error: <message>`, built from `Display` (scenario
//! file errors add the offending line with a caret under it). The exit code follows one rule:
//! - [`EXIT_OK`] (0): done;
//! - [`EXIT_FAILURE`] (1): the run failed while working (an I/O error writing an output, a window
//!   that broke down); no partial output file is left behind;
//! - [`EXIT_BAD_INPUT`] (2): bad input or usage — an argument, a scenario file, a recording or an
//!   output path is wrong ([`UserError`], and clap's usage errors); nothing was run;
//! - [`EXIT_INTERRUPTED`] (130): interrupted by Ctrl-C (SIGINT), SIGTERM or SIGHUP; the
//!   unfinished outputs were removed ([`output`]'s registry), existing files are unchanged (an
//!   output already put in place before the signal is complete, and named in the message).

pub mod app;
pub mod canvas;
pub mod cli;
pub mod desktop;
pub mod gamepad;
pub mod headless;
pub mod infile;
pub mod input;
pub mod lcd;
pub mod link;
pub mod netplay;
pub mod output;
pub mod plot;
pub mod progress;
pub mod readout;
pub mod rig;
pub mod scenario;
pub mod sticks;
pub mod ticks;
pub mod trace;
pub mod window;

/// Exit code of a successful run.
pub const EXIT_OK: u8 = 0;
/// Exit code of a run that failed while working (I/O or runtime failure).
pub const EXIT_FAILURE: u8 = 1;
/// Exit code of bad input or usage (nothing was run). clap uses it for usage errors too.
pub const EXIT_BAD_INPUT: u8 = 2;
/// Exit code of a run interrupted by Ctrl-C (SIGINT), SIGTERM or SIGHUP (128 + SIGINT's number,
/// the shell's convention for Ctrl-C), after its unfinished outputs were removed.
pub const EXIT_INTERRUPTED: u8 = 130;

/// An error in the user's input (bad argument, scenario file, recording, output path): exit
/// code [`EXIT_BAD_INPUT`].
#[derive(Debug)]
pub struct UserError(pub String);

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UserError {}

/// The exit code for an error returned by a subcommand: [`EXIT_BAD_INPUT`] when it is (or wraps)
/// a [`UserError`], [`EXIT_FAILURE`] otherwise.
pub fn exit_code(e: &anyhow::Error) -> u8 {
    if e.chain().any(|c| c.is::<UserError>()) {
        EXIT_BAD_INPUT
    } else {
        EXIT_FAILURE
    }
}

/// The message printed for an error: `error: ` and the `Display` of the error and its causes,
/// joined with `: ` (never `Debug`).
pub fn error_message(e: &anyhow::Error) -> String {
    format!("error: {e:#}")
}
pub mod replay;
