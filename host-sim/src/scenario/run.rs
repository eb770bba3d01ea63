//! Temporary until the mechanics land.
use std::path::Path;

use anyhow::{bail, Result};

use super::ScenarioFile;
use crate::plot::PlotSpec;
use crate::trace::Trace;

/// Run.
pub fn run(_f: &ScenarioFile, _base: &Path, _quiet: bool) -> Result<Trace> {
    bail!("scenarios need the core mechanics, which are not on main yet")
}
/// Findings.
pub fn findings(_f: &ScenarioFile, _t: &Trace) -> Vec<String> {
    vec![]
}
/// Plot.
pub fn plot_spec(_f: &ScenarioFile, _title: &str, _t: &Trace) -> PlotSpec {
    PlotSpec::default()
}
