//! Progress bars for long headless runs: shown on an interactive terminal, silent when stderr is
//! piped or redirected (scripts, CI, tests).

use std::io::IsTerminal;

use indicatif::{ProgressBar, ProgressDrawTarget, ProgressStyle};

/// A bar over `len` ticks with `msg` in front, or a hidden bar when stderr is not a terminal
/// (or `quiet` is set).
pub fn ticks_bar(len: u64, msg: &str, quiet: bool) -> ProgressBar {
    if quiet || !std::io::stderr().is_terminal() {
        return ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::hidden());
    }
    let bar = ProgressBar::with_draw_target(Some(len), ProgressDrawTarget::stderr());
    let style = ProgressStyle::with_template(
        "{msg:>12} [{bar:40.cyan/blue}] {pos}/{len} ticks  {elapsed_precise} eta {eta}",
    )
    .unwrap_or_else(|_| ProgressStyle::default_bar())
    .progress_chars("=> ");
    bar.set_style(style);
    bar.set_message(msg.to_string());
    bar
}
