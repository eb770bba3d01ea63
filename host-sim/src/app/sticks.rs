//! `sticks --out FILE [--ticks N] [--force]`: the scripted handheld demo's raw stick samples as a
//! sticks file ([`crate::sticks`]), the input of `hash --sticks`.

use anyhow::Result;

use crate::cli::SticksArgs;
use crate::output::OutFile;
use crate::sticks;
use crate::ticks::check_ticks;
use crate::UserError;

/// Write [`hopkit_demo::scripted_raw`] for ticks `0..N`.
pub fn run(args: &SticksArgs) -> Result<()> {
    let ticks = check_ticks(args.ticks, hopkit_demo::TICK_HZ)?;
    if !args.force && std::fs::symlink_metadata(&args.out).is_ok() {
        return Err(UserError(format!(
            "--out {} exists (add --force to replace it)",
            args.out.display()
        ))
        .into());
    }
    let out = OutFile::check("--out", &args.out)?;
    let what = format!(
        "hopkit-sim sticks: the scripted handheld demo (hopkit_demo::scripted_raw), ticks 0..{ticks} at {} Hz",
        hopkit_demo::TICK_HZ
    );
    let header = [
        what.as_str(),
        "one tick per line: left_x left_y right_x right_y buttons (12-bit ADC counts 0..=4095; \
         buttons JUMP 1, FIRE 2, LEFT_STICK 4, RIGHT_STICK 8)",
    ];
    out.write(|w| {
        Ok(sticks::write(
            w,
            &header,
            (0..ticks).map(hopkit_demo::scripted_raw),
        )?)
    })?;
    println!("wrote {} ({ticks} ticks)", out.path().display());
    Ok(())
}
