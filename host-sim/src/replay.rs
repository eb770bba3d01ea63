//! Temporary until hopkit::ghost lands.
use std::path::Path;

use anyhow::{bail, Result};

use crate::cli::{PlayArgs, RecordArgs};

/// Record.
pub fn record(_args: &RecordArgs) -> Result<()> {
    bail!("ghost recordings need hopkit::ghost, which is not on main yet")
}
/// Play.
pub fn play(_args: &PlayArgs) -> Result<()> {
    bail!("ghost recordings need hopkit::ghost, which is not on main yet")
}
/// Hash.
pub fn hash_file(_p: &Path, _t: Option<u32>, _fps: u32) -> Result<u64> {
    bail!("ghost recordings need hopkit::ghost, which is not on main yet")
}
