//! Tick counts and the one limit of a run ([`MAX_SECONDS`] of simulated time), shared by every
//! subcommand that simulates: seconds to ticks, the `--ticks` check, and driving a scene for an
//! exact number of ticks from render frames.

use anyhow::Result;

use crate::cli::MAX_SECONDS;
use crate::window::Driver;
use crate::UserError;

/// Ticks for `seconds` at `hz` (at least 1). `seconds` has been range-checked by the CLI
/// ([`crate::cli::parse_seconds`]); anything outside `(0, MAX_SECONDS]` is a [`UserError`].
pub fn seconds_to_ticks(seconds: f64, hz: u32) -> Result<u32> {
    if !(seconds.is_finite() && seconds > 0.0 && seconds <= MAX_SECONDS) {
        return Err(UserError(format!(
            "--seconds must be > 0 and at most {MAX_SECONDS} seconds, got {seconds}"
        ))
        .into());
    }
    Ok(((seconds * f64::from(hz)).round() as u32).max(1))
}

/// Most ticks a run may have at `hz`: [`MAX_SECONDS`] of simulated time.
pub fn max_ticks(hz: u32) -> u32 {
    (MAX_SECONDS * f64::from(hz)).round() as u32
}

/// Check `--ticks N` against [`max_ticks`] of a scene ticking at `hz`.
pub fn check_ticks(ticks: u32, hz: u32) -> Result<u32> {
    let max = max_ticks(hz);
    if ticks > max {
        return Err(UserError(format!(
            "--ticks {ticks} is more than {MAX_SECONDS} s of simulated time ({max} ticks at {hz} Hz)"
        ))
        .into());
    }
    Ok(ticks)
}

/// Run exactly `ticks` ticks of `driver`, produced by a [`hopkit::timestep::FixedStep`] fed with
/// render frames of `1/fps` seconds (the last frame's surplus ticks are not run). A progress bar
/// shows on a terminal unless `quiet`.
pub fn drive_fixed(driver: &mut dyn Driver, ticks: u32, fps: u32, quiet: bool) {
    let mut stepper = hopkit::timestep::FixedStep::new(driver.tick_hz());
    let frame_ns = hopkit::timestep::NANOS_PER_SECOND / u64::from(fps.max(1));
    let input = crate::input::HostInput::default();
    let bar = crate::progress::ticks_bar(u64::from(ticks), "hashing", quiet);
    let mut done = 0u32;
    while done < ticks {
        let adv = stepper.advance_nanos(frame_ns);
        for _ in 0..adv.ticks {
            if done == ticks {
                break;
            }
            driver.tick(&input);
            done += 1;
        }
        bar.set_position(u64::from(done));
    }
    bar.finish_and_clear();
}
