//! hopkit-sim: the hopkit handheld demo, scenarios, plots and replay tools on the desktop.
//!
//! The binary (`hopkit-sim`) is the user-facing part; this library holds its pieces so that the
//! integration tests can use them (e.g. the golden rendering test draws into [`lcd::Lcd`]).

pub mod app;
pub mod canvas;
pub mod cli;
pub mod desktop;
pub mod gamepad;
pub mod headless;
pub mod input;
pub mod lcd;
pub mod plot;
pub mod progress;
pub mod rig;
pub mod scenario;
pub mod trace;
pub mod window;

/// An error in the user's input (bad scenario file, unreadable recording, …): exit code 2.
#[derive(Debug)]
pub struct UserError(pub String);

impl std::fmt::Display for UserError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        f.write_str(&self.0)
    }
}

impl std::error::Error for UserError {}
pub mod replay;
