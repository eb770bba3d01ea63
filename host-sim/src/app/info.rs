//! `info FILE`: a ghost recording's statistics, one `key: value` line each (the recording is
//! fully validated and decoded first).

use anyhow::Result;
use hopkit::ghost::Recording;

use crate::cli::InfoArgs;
use crate::replay::{as_v1, decode_error_message, read_recording};
use crate::UserError;

/// Print the statistics of the recording `args.file`.
pub fn run(args: &InfoArgs) -> Result<()> {
    let path = &args.file;
    let bytes = read_recording(path)?;
    let header = hopkit::ghost::format::peek_header(&bytes).map_err(|e| {
        UserError(format!(
            "recording {} is unusable: {}",
            path.display(),
            decode_error_message(&e)
        ))
    })?;
    let stored = bytes.len();
    let v1 = as_v1(path, bytes)?;
    let rec = Recording::parse(&v1).map_err(|e| UserError(decode_error_message(&e)))?;
    print!(
        "{}",
        info_text(&path.display().to_string(), &header, &rec, stored)
    );
    Ok(())
}

/// The lines `info` prints.
fn info_text(
    name: &str,
    header: &hopkit::ghost::Header,
    rec: &Recording<'_>,
    stored: usize,
) -> String {
    let frames = rec.frame_count();
    let hz = rec.tick_hz();
    let checks = match rec.checksum_interval() {
        0 => "none".to_string(),
        k => format!("{} (every {k} ticks)", rec.checksum_count()),
    };
    format!(
        "file: {name}\nversion: {}\nframes: {frames}\ntick-hz: {hz}\nduration: {:.2} s\n\
         bytes: {stored}\nbytes-per-frame: {:.2}\nchecksums: {checks}\ncondition-unit: {}\n",
        header.version,
        frames as f64 / hz as f64,
        if frames == 0 {
            0.0
        } else {
            stored as f64 / frames as f64
        },
        rec.condition_unit(),
    )
}
