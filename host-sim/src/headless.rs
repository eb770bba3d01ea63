//! Running a [`Driver`] without a display: a fixed number of ticks as fast as possible, PNG frames
//! of the desktop picture every few ticks, and a plain-text summary.
//!
//! The frame folder is checked before the run ([`FrameDir::check`]); frames are written to a
//! staging folder and replace the previous run's files only when the run succeeded, so the folder
//! always holds exactly one complete run.

use std::path::PathBuf;

use anyhow::{Context, Result};

use crate::canvas::Canvas;
use crate::desktop::{compose, palette, Overlay, DEFAULT_ZOOM};
use crate::input::HostInput;
use crate::output::FrameDir;
use crate::progress::ticks_bar;
use crate::readout::{num, RunStats};
use crate::window::Driver;

/// Options of a headless run.
#[derive(Clone, Debug)]
pub struct HeadlessOpts {
    /// Ticks to run.
    pub ticks: u32,
    /// Write a frame every this many ticks (0 = only the last).
    pub frame_every: u32,
    /// Hide the progress bar.
    pub quiet: bool,
    /// What is running (summary and progress text).
    pub label: String,
    /// Status line shown in the frames' panel.
    pub status: String,
}

/// What a headless run produced.
#[derive(Clone, Debug)]
pub struct HeadlessReport {
    /// PNG frames written, in order (final paths).
    pub frames: Vec<PathBuf>,
    /// The summary file.
    pub summary: PathBuf,
    /// The frame folder.
    pub out_dir: PathBuf,
    /// Ticks simulated.
    pub ticks: u32,
    /// State hash at the end.
    pub state_hash: u64,
    /// Highest speed of the scene's main body (player or followed fighter), world units/s.
    pub top_speed: f32,
    /// The summary text (also in the file).
    pub text: String,
}

/// Run `driver` for `opts.ticks` ticks with neutral desktop input, writing into `out` (checked
/// beforehand with [`FrameDir::check`]).
pub fn run_headless(
    driver: &mut dyn Driver,
    opts: &HeadlessOpts,
    out: FrameDir,
) -> Result<HeadlessReport> {
    let mut overlay = Overlay::new();
    overlay.tick_hz = driver.tick_hz();
    overlay.status = opts.status.clone();
    overlay.hint = format!("headless: {}", opts.label);
    let mut canvas = Canvas::new(1, 1, palette::PANEL);
    let mut frames = vec![];
    let mut stats = RunStats::default();
    let bar = ticks_bar(u64::from(opts.ticks), "simulating", opts.quiet);
    let input = HostInput::default();
    let mut ran = 0u32;
    for t in 1..=opts.ticks {
        driver.tick(&input);
        ran = t;
        let view = driver.view();
        let readout = driver.readout();
        overlay.record(&view, &readout);
        stats.record(&readout);
        let last = t == opts.ticks || driver.finished();
        let due = opts.frame_every > 0 && t % opts.frame_every == 0;
        if due || last {
            overlay.strafe = driver.strafe();
            compose(&view, &readout, &overlay, DEFAULT_ZOOM, &mut canvas);
            let name = format!("frame-{t:05}.png");
            canvas.save_png(&out.staging().join(&name))?;
            frames.push(out.final_path(&name));
        }
        bar.inc(1);
        if last {
            break;
        }
    }
    bar.finish_and_clear();
    let state_hash = driver.state_hash();
    let hz = driver.tick_hz().max(1);
    let mut buf = [0u8; 64];
    let hash_line = hopkit::hash::format_hash_line(state_hash, &mut buf).to_string();
    let mut text = format!(
        "hopkit-sim headless run: {label}\n\
         ticks: {ran} ({secs} s at {hz} Hz)\n\
         {hash_line}\n",
        label = opts.label,
        secs = num(f64::from(ran) / f64::from(hz), 2),
    );
    for line in stats.lines() {
        text.push_str(&line);
        text.push('\n');
    }
    text.push_str(&format!(
        "frames: {} PNG files in {}\n",
        frames.len(),
        out.dir().display()
    ));
    let summary_name = "summary.txt";
    let staged = out.staging().join(summary_name);
    std::fs::write(&staged, &text).with_context(|| format!("writing {}", staged.display()))?;
    let summary = out.final_path(summary_name);
    let out_dir = out.dir().to_path_buf();
    out.commit()?;
    Ok(HeadlessReport {
        frames,
        summary,
        out_dir,
        ticks: ran,
        state_hash,
        top_speed: stats.top_speed(),
        text,
    })
}

/// One-paragraph description of a report for the terminal.
pub fn describe(report: &HeadlessReport) -> String {
    let first = report
        .frames
        .first()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let last = report
        .frames
        .last()
        .map(|p| p.display().to_string())
        .unwrap_or_default();
    let range = if report.frames.len() > 1 {
        format!("{first} … {last}")
    } else {
        first
    };
    format!(
        "{}wrote {} frames to {}/ ({range})\nsummary: {}",
        report.text,
        report.frames.len(),
        report.out_dir.display(),
        report.summary.display()
    )
}
