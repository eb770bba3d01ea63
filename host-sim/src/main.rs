//! `hopkit-sim`: the hopkit handheld on the desktop. See `hopkit-sim --help` and docs/host-sim.md.

use std::process::ExitCode;

use clap::Parser;
use hopkit_sim::cli::{Cli, Command};
use hopkit_sim::{app, UserError};

fn main() -> ExitCode {
    let cli = Cli::parse();
    let result = match cli.command {
        None => app::demo(&cli.demo),
        Some(Command::Scenario(args)) => app::scenario(&args),
        Some(Command::Record(args)) => app::record(&args),
        Some(Command::Play(args)) => app::play(&args),
        Some(Command::Hash(args)) => app::hash(&args),
    };
    match result {
        Ok(()) => ExitCode::SUCCESS,
        Err(e) => {
            if let Some(user) = e.downcast_ref::<UserError>() {
                eprintln!("error: {user}");
                ExitCode::from(2)
            } else {
                eprintln!("error: {e:#}");
                ExitCode::from(1)
            }
        }
    }
}
