//! `synctest`: prove the arena rollback-safe with GGRS's SyncTestSession ([`run_synctest`]):
//! every frame, roll back, re-simulate and compare the state hashes; exit 1 on a mismatch.

use anyhow::{anyhow, Result};

use super::hash_line;
use crate::cli::SynctestArgs;
use crate::netplay::inputs::{input_name, input_source};
use crate::netplay::run::{synctest as run_synctest, SynctestOpts};
use crate::UserError;

/// Run the synctest the arguments describe and print its report.
pub fn run(args: &SynctestArgs) -> Result<()> {
    if args.check_distance >= args.max_prediction {
        return Err(UserError(format!(
            "--check-distance {} must be below --max-prediction {} (GGRS's rule)",
            args.check_distance, args.max_prediction
        ))
        .into());
    }
    let input = input_source(&args.input, args.players)?;
    let report = run_synctest(&SynctestOpts {
        frames: args.frames,
        check_distance: args.check_distance,
        max_prediction: args.max_prediction,
        players: args.players,
        input,
        perturb_at: args.perturb_at,
    })
    .map_err(|e| anyhow!(e))?;
    let mismatches = usize::from(report.mismatch.is_some());
    println!(
        "synctest: {} frames, {} players, check distance {}, input {}: {mismatches} mismatches, \
         {} rollbacks (deepest {} frames), {} ticks simulated",
        report.frames,
        args.players,
        args.check_distance,
        input_name(&args.input),
        report.stats.rollbacks,
        report.stats.deepest,
        report.stats.ticks_simulated,
    );
    if let Some((frame, frames)) = report.mismatch {
        return Err(anyhow!(
            "synctest: the state hashes of frames {frames:?} differ after re-simulation (found at \
             frame {frame})"
        ));
    }
    println!("{}", hash_line(report.hash));
    Ok(())
}
