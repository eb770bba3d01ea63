//! `hopkit-sim`: the hopkit handheld on the desktop. See `hopkit-sim --help` and docs/host-sim.md.

use std::process::ExitCode;

use hopkit_sim::{app, error_message, exit_code, output};

fn main() -> ExitCode {
    // Ctrl-C, SIGTERM, SIGHUP: remove unfinished outputs and exit with `EXIT_INTERRUPTED` (130).
    output::install_interrupt_handler();
    // clap prints usage errors itself and exits with code 2 (`EXIT_BAD_INPUT`), help with 0.
    let cli = app::parse();
    let result = app::run(&cli);
    // Every output is complete or removed by now: a late signal changes nothing.
    output::finish();
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            eprintln!("{}", error_message(&e));
            ExitCode::from(exit_code(&e))
        }
    }
}
