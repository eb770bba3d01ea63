//! Where the players' inputs come from in `synctest`, `netplay` and `link play`: the core's
//! [`InputSource`] (a pure function of frame and player, so peers, re-runs, replays and other CPUs
//! agree without sharing state), named on the command line by [`crate::cli::InputKind`].

use anyhow::{anyhow, Result};
use hopkit::ghost::Recording;
pub use hopkit_demo::arena::{InputSource, MIXED_BLOCK, RANDOM_HOLD};

use crate::cli::NetInputArgs;
use crate::replay::{decode_error_message, load};
use crate::UserError;

/// The input source `args` name, for `players` players (`--recording`'s file read and checked
/// like every recording; default the bundled demo recording).
pub fn input_source(args: &NetInputArgs, players: usize) -> Result<InputSource<'static>> {
    let recording = match &args.recording {
        Some(path) => {
            let bytes = load(path)?;
            Recording::parse(bytes).map_err(|e| {
                UserError(format!(
                    "recording {} is unusable: {}",
                    path.display(),
                    decode_error_message(&e)
                ))
            })?
        }
        None => hopkit_demo::demo_recording()
            .map_err(|e| anyhow!("the bundled demo recording is unusable: {e}"))?,
    };
    Ok(InputSource::new(
        args.input.core(),
        args.seed,
        players,
        recording,
    ))
}

/// The input's name in reports: `mixed`, or `recording (FILE)` with `--recording`.
pub fn input_name(args: &NetInputArgs) -> String {
    let kind = format!("{:?}", args.input).to_lowercase();
    match &args.recording {
        Some(p) => format!("{kind} ({})", p.display()),
        None => kind,
    }
}
