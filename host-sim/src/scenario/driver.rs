//! What the scenarios share: the progress of a run, the tick loop of the movement scenarios (one
//! character, one ground, a script choosing each tick's input) into a [`Trace`], and the plots
//! several of them draw.

use hopkit::movement::MoverState;
use indicatif::ProgressBar;

use super::ScenarioFile;
use crate::plot::{Label, PlotSpec, Series};
use crate::progress::ticks_bar;
use crate::trace::{Sample, Trace, MAX_EXTRA};

/// A run's progress bar: made by [`Progress::start`] once the run knows how many ticks it has,
/// then one step per tick; hidden off a terminal or when quiet.
pub struct Progress {
    label: &'static str,
    quiet: bool,
    bar: Option<ProgressBar>,
}

impl Progress {
    /// A run labelled `label` (the scenario's kind), no bar yet.
    pub fn new(label: &'static str, quiet: bool) -> Self {
        Progress {
            label,
            quiet,
            bar: None,
        }
    }

    /// Show a bar of `ticks` ticks; the returned bar is stepped once per tick.
    pub fn start(&mut self, ticks: u32) -> ProgressBar {
        let bar = ticks_bar(u64::from(ticks), self.label, self.quiet);
        self.bar = Some(bar.clone());
        bar
    }

    /// Remove the bar.
    pub fn finish(&self) {
        if let Some(bar) = &self.bar {
            bar.finish_and_clear();
        }
    }
}

/// The loop of a movement scenario: the file's ticks (`ScenarioFile::ticks`) at its rate, each
/// `tick(t, dt)` stepping the character and returning its state and extra column values (at
/// most [`MAX_EXTRA`]), one sample per tick of `actor` with the extra `columns`.
pub fn mover_trace(
    file: &ScenarioFile,
    progress: &mut Progress,
    actor: &str,
    columns: &[&str],
    mut tick: impl FnMut(u32, f32) -> (MoverState, [f32; MAX_EXTRA]),
) -> Trace {
    let ticks = file.ticks();
    let dt = 1.0 / file.tick_hz as f32;
    let bar = progress.start(ticks);
    let mut trace = Trace::new(file.tick_hz, actor, columns);
    for t in 0..ticks {
        let (state, extra) = tick(t, dt);
        trace.push_mover(t, &state, &extra);
        bar.inc(1);
    }
    trace
}

/// On the ground (extra column 0 of the movement scenarios, `grounded`) with the feet at exactly
/// `height`.
pub fn grounded_on(s: &Sample, height: f32) -> bool {
    s.flag(0) && s.position.y == height
}

/// The finding `on the H-unit ledge at the end: yes` (or `no`): did the run end on the ground at
/// `height` ([`grounded_on`])?
pub fn on_ledge_at_end(trace: &Trace, height: f32) -> String {
    let on = trace.samples.last().is_some_and(|s| grounded_on(s, height));
    format!(
        "on the {}-unit ledge at the end: {}",
        crate::readout::num(height, 0),
        if on { "yes" } else { "no" }
    )
}

/// Colours of the other actors' paths, in turn.
pub const PALETTE: [(u8, u8, u8); 6] = [
    (120, 120, 135),
    (40, 110, 200),
    (40, 160, 90),
    (150, 80, 190),
    (200, 140, 30),
    (60, 170, 190),
];

/// Red of the main actor's line.
pub const MAIN: (u8, u8, u8) = (215, 60, 40);

/// `f` of every sample against its time: a line over time.
pub fn over_time(trace: &Trace, f: impl Fn(&Sample) -> f32) -> Vec<(f64, f64)> {
    trace
        .samples
        .iter()
        .map(|s| (f64::from(s.time), f64::from(f(s))))
        .collect()
}

/// Time of the last sample, seconds (1 for an empty trace): where lines across a plot end.
pub fn end_time(trace: &Trace) -> f64 {
    trace.samples.last().map_or(1.0, |s| f64::from(s.time))
}

/// The top-down plot (world −Z up, like the handheld's display) of the main actor's trajectory
/// and the others' paths, start and end marked.
pub fn top_down(title: &str, trace: &Trace) -> PlotSpec {
    let flip =
        |pts: &[(f64, f64)]| -> Vec<(f64, f64)> { pts.iter().map(|&(x, z)| (x, -z)).collect() };
    let mut series = vec![];
    let mut labels = vec![];
    for (i, o) in trace.others.iter().enumerate() {
        let color = PALETTE[i % PALETTE.len()];
        let pts = flip(&o.points);
        let s = if o.label.starts_with("targets") {
            if o.label.contains("in order") {
                for (n, p) in pts.iter().enumerate() {
                    labels.push(Label {
                        at: *p,
                        text: format!("{}", n + 1),
                    });
                }
            }
            Series::markers(&o.label, pts, (30, 30, 40))
        } else if o.label == "leader" {
            Series::dashed("leader", pts, color)
        } else if o.label.starts_with("Quake III") {
            // The path compared with the main actor's: start and end marked as on the main one.
            let mut s = Series::line(&o.label, pts, color);
            s.mark_ends = true;
            s
        } else {
            Series::line(&o.label, pts, color)
        };
        series.push(s);
    }
    let main: Vec<(f64, f64)> = trace
        .samples
        .iter()
        .map(|s| (f64::from(s.position.x), -f64::from(s.position.z)))
        .collect();
    let mut m = Series::line(&trace.actor, main, MAIN);
    m.mark_ends = true;
    series.push(m);
    PlotSpec {
        title: format!("{title} (top-down, -Z up)"),
        x_label: "x (world units)".into(),
        y_label: "z (world units)".into(),
        series,
        labels,
        equal_aspect: true,
        negate_y_labels: true,
        ..PlotSpec::default()
    }
}
