//! The subcommands: one file each under `app/`, each with one entry point, `run(&Args)`, and
//! [`run`] the one dispatch from the parsed command line to them.
//!
//! Every subcommand checks its inputs and output paths before it simulates anything, so that a
//! mistake costs no time and leaves no files ([`crate::output`]). What several subcommands share
//! lives outside this module: tick counts and the run limit in [`crate::ticks`], recording files
//! and the ghost scenes in [`crate::replay`], scenarios in [`crate::scenario`], the arena's
//! inputs and sessions in [`crate::netplay`], the link cable in [`crate::link`].

pub mod demo;
pub mod hash;
pub mod info;
pub mod link;
pub mod netplay;
pub mod play;
pub mod record;
pub mod scenario;
pub mod sticks;
pub mod synctest;

use anyhow::Result;
use clap::{CommandFactory, FromArgMatches};

use crate::cli::{Cli, Command};

/// The command line's definition: [`Cli`]'s, with `scenario --help` listing the built-ins of the
/// scenario registry ([`crate::scenario::help`]).
pub fn command() -> clap::Command {
    Cli::command().mut_subcommand("scenario", |c| {
        let about = c.get_about().map(|a| a.to_string()).unwrap_or_default();
        c.long_about(format!("{about}.\n\n{}", crate::scenario::help()))
    })
}

/// Parse the process's arguments with [`command`]; clap prints help and usage errors itself and
/// exits (0 for help, [`crate::EXIT_BAD_INPUT`] for a usage error).
pub fn parse() -> Cli {
    let matches = command().get_matches();
    Cli::from_arg_matches(&matches).unwrap_or_else(|e| e.format(&mut command()).exit())
}

/// Run what the command line asks for: the subcommand, or the demo without one.
pub fn run(cli: &Cli) -> Result<()> {
    match &cli.command {
        None => demo::run(&cli.demo),
        Some(Command::Scenario(args)) => scenario::run(args),
        Some(Command::Record(args)) => record::run(args),
        Some(Command::Play(args)) => play::run(args),
        Some(Command::Hash(args)) => hash::run(args),
        Some(Command::Sticks(args)) => sticks::run(args),
        Some(Command::Synctest(args)) => synctest::run(args),
        Some(Command::Netplay(args)) => netplay::run(args),
        Some(Command::Link(args)) => link::run(args),
        Some(Command::Info(args)) => info::run(args),
    }
}

/// `state-hash: 0x<16 hex digits>`, the line every hashing subcommand prints
/// ([`hopkit::hash::format_hash_line`]).
pub fn hash_line(hash: u64) -> String {
    let mut buf = [0u8; 64];
    hopkit::hash::format_hash_line(hash, &mut buf).to_string()
}
