//! Running a [`Driver`] without a display: a fixed number of ticks as fast as possible, PNG frames
//! of the desktop picture every few ticks, and a plain-text summary.

use std::path::{Path, PathBuf};

use anyhow::{Context, Result};

use crate::canvas::Canvas;
use crate::desktop::{compose, palette, Overlay, DEFAULT_ZOOM};
use crate::input::HostInput;
use crate::progress::ticks_bar;
use crate::window::Driver;

/// Options of a headless run.
#[derive(Clone, Debug)]
pub struct HeadlessOpts {
    /// Where frames and the summary go (created if missing).
    pub out_dir: PathBuf,
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
    /// PNG frames written, in order.
    pub frames: Vec<PathBuf>,
    /// The summary file.
    pub summary: PathBuf,
    /// Ticks simulated.
    pub ticks: u32,
    /// State hash at the end.
    pub state_hash: u64,
    /// Highest player speed, units/s.
    pub top_speed: f32,
    /// The summary text (also in the file).
    pub text: String,
}

/// Run `driver` for `opts.ticks` ticks with neutral desktop input.
pub fn run_headless(driver: &mut dyn Driver, opts: &HeadlessOpts) -> Result<HeadlessReport> {
    std::fs::create_dir_all(&opts.out_dir)
        .with_context(|| format!("creating {}", opts.out_dir.display()))?;
    let mut overlay = Overlay::new();
    overlay.tick_hz = driver.tick_hz();
    overlay.status = opts.status.clone();
    overlay.hint = format!("headless: {}", opts.label);
    let mut canvas = Canvas::new(1, 1, palette::PANEL);
    let mut frames = vec![];
    let bar = ticks_bar(u64::from(opts.ticks), "simulating", opts.quiet);
    let input = HostInput::default();
    let mut ground_max = 0.0f32;
    let mut airborne_ticks = 0u32;
    for t in 1..=opts.ticks {
        driver.tick(&input);
        let view = driver.view();
        overlay.record(&view);
        ground_max = view.ground_max_speed;
        if !view.player_grounded {
            airborne_ticks += 1;
        }
        let due = opts.frame_every > 0 && t % opts.frame_every == 0;
        if due || t == opts.ticks {
            compose(&view, &overlay, DEFAULT_ZOOM, &mut canvas);
            let path = opts.out_dir.join(format!("frame-{t:05}.png"));
            canvas.save_png(&path)?;
            frames.push(path);
        }
        bar.inc(1);
        if driver.finished() {
            break;
        }
    }
    bar.finish_and_clear();
    let view = driver.view();
    let state_hash = driver.state_hash();
    let hz = f64::from(driver.tick_hz().max(1));
    let mut buf = [0u8; 64];
    let hash_line = hopkit::hash::format_hash_line(state_hash, &mut buf).to_string();
    let text = format!(
        "hopkit-sim headless run: {label}\n\
         ticks: {ticks} ({secs:.2} s at {hz} Hz)\n\
         {hash_line}\n\
         top speed: {top:.3} (ground max {gmax:.3}, x{ratio:.2})\n\
         final speed: {fin:.3}\n\
         airborne: {air:.0}% of ticks\n\
         final position: ({px:.3}, {py:.3}, {pz:.3})\n\
         frames: {nframes} PNG files in {dir}\n",
        label = opts.label,
        ticks = view.tick,
        secs = f64::from(view.tick) / hz,
        top = overlay.top_speed,
        gmax = ground_max,
        ratio = if ground_max > 0.0 {
            overlay.top_speed / ground_max
        } else {
            0.0
        },
        fin = view.player.speed,
        air = 100.0 * f64::from(airborne_ticks) / f64::from(opts.ticks.max(1)),
        px = view.player.position.x,
        py = view.player.position.y,
        pz = view.player.position.z,
        nframes = frames.len(),
        dir = opts.out_dir.display(),
    );
    let summary = opts.out_dir.join("summary.txt");
    std::fs::write(&summary, &text).with_context(|| format!("writing {}", summary.display()))?;
    Ok(HeadlessReport {
        frames,
        summary,
        ticks: view.tick,
        state_hash,
        top_speed: overlay.top_speed,
        text,
    })
}

/// One-paragraph description of a report for the terminal.
pub fn describe(report: &HeadlessReport, out_dir: &Path) -> String {
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
    format!(
        "{}wrote {} frames to {}/ ({first} … {last})\nsummary: {}",
        report.text,
        report.frames.len(),
        out_dir.display(),
        report.summary.display()
    )
}
