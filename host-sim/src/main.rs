//! `hopkit-sim`: the hopkit handheld on the desktop. See `hopkit-sim --help` and docs/host-sim.md.

use std::process::ExitCode;

use clap::Parser;
use hopkit_sim::cli::{Cli, Command};
use hopkit_sim::{app, error_message, exit_code, output};

fn main() -> ExitCode {
    // Ctrl-C, SIGTERM, SIGHUP: remove unfinished outputs and exit with `EXIT_INTERRUPTED` (130).
    output::install_interrupt_handler();
    // clap prints usage errors itself and exits with code 2 (`EXIT_BAD_INPUT`), help with 0.
    let cli = Cli::parse();
    let result = match cli.command {
        None => app::demo(&cli.demo),
        Some(Command::Scenario(args)) => app::scenario(&args),
        Some(Command::Record(args)) => app::record(&args),
        Some(Command::Play(args)) => app::play(&args),
        Some(Command::Hash(args)) => app::hash(&args),
        Some(Command::Sticks(args)) => app::sticks(&args),
        Some(Command::Info(args)) => hopkit_sim::replay::info(&args),
        Some(Command::Synctest(args)) => hopkit_sim::netplay::cmd::synctest(&args),
        Some(Command::Netplay(args)) => hopkit_sim::netplay::cmd::netplay(&args),
        Some(Command::Link(args)) => hopkit_sim::link::link(&args),
    };
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
