//! Plots as PNG files: `plotters`' bitmap backend draws the data; the text (title, axis names,
//! tick labels, legend) is drawn with embedded-graphics' built-in mono fonts, so no system font,
//! fontconfig or font file is needed (plotters' own text support is compiled out).

use std::path::Path;

use anyhow::{anyhow, Result};
use embedded_graphics::mono_font::ascii::{FONT_6X10, FONT_7X13_BOLD};
use embedded_graphics::mono_font::{MonoFont, MonoTextStyle};
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::text::{Alignment, Baseline, Text, TextStyleBuilder};
use plotters::prelude::*;

use crate::canvas::{mix, Canvas};

/// How a series is drawn.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub enum Style {
    /// A solid line.
    #[default]
    Solid,
    /// A dashed line.
    Dashed,
    /// A `×` on every point, no line (targets, markers).
    Markers,
    /// A solid line with the area between it and `y = 0` shaded in a light tint of its colour.
    Area,
}

/// One series on a plot. Points with a non-finite coordinate break the line (a gap).
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text (empty: not in the legend).
    pub label: String,
    /// Data points `(x, y)` in plot units.
    pub points: Vec<(f64, f64)>,
    /// Colour `(r, g, b)`.
    pub color: (u8, u8, u8),
    /// Line or markers.
    pub style: Style,
    /// Mark the first point with a ring ("start") and the last with a filled dot ("end"); the
    /// legend explains both symbols.
    pub mark_ends: bool,
}

impl Series {
    /// A solid line.
    pub fn line(label: &str, points: Vec<(f64, f64)>, color: (u8, u8, u8)) -> Self {
        Series {
            label: label.to_string(),
            points,
            color,
            style: Style::Solid,
            mark_ends: false,
        }
    }

    /// A dashed line.
    pub fn dashed(label: &str, points: Vec<(f64, f64)>, color: (u8, u8, u8)) -> Self {
        Series {
            style: Style::Dashed,
            ..Series::line(label, points, color)
        }
    }

    /// A line over a shaded area down to `y = 0`.
    pub fn area(label: &str, points: Vec<(f64, f64)>, color: (u8, u8, u8)) -> Self {
        Series {
            style: Style::Area,
            ..Series::line(label, points, color)
        }
    }

    /// A `×` on every point.
    pub fn markers(label: &str, points: Vec<(f64, f64)>, color: (u8, u8, u8)) -> Self {
        Series {
            style: Style::Markers,
            ..Series::line(label, points, color)
        }
    }
}

/// A text next to a data point (e.g. the number of a target).
#[derive(Clone, Debug, PartialEq)]
pub struct Label {
    /// Where, in plot units.
    pub at: (f64, f64),
    /// What.
    pub text: String,
}

/// What to plot.
#[derive(Clone, Debug, Default)]
pub struct PlotSpec {
    /// Title at the top.
    pub title: String,
    /// Horizontal axis name, with its unit.
    pub x_label: String,
    /// Vertical axis name, with its unit.
    pub y_label: String,
    /// The series, drawn in order.
    pub series: Vec<Series>,
    /// Texts next to data points.
    pub labels: Vec<Label>,
    /// Same scale on both axes (top-down trajectories).
    pub equal_aspect: bool,
    /// Negate the tick labels of the vertical axis: used for top-down views where the data's `y` is
    /// `−z`, so that world −Z (forward) is up while the labels still show `z`.
    pub negate_y_labels: bool,
    /// Force the vertical range to include zero (speed plots).
    pub y_from_zero: bool,
}

const PLOT_BG: (u8, u8, u8) = (255, 255, 255);
const GRID: (u8, u8, u8) = (225, 228, 235);
const AXIS: (u8, u8, u8) = (60, 60, 70);
const TEXT: Rgb888 = Rgb888::new(30, 30, 40);

const MARGIN_LEFT: u32 = 62;
/// Space right of the plotting area when there is no legend (the legend adds its width).
const MARGIN_RIGHT: u32 = 20;
const MARGIN_TOP: u32 = 34;
const MARGIN_BOTTOM: u32 = 44;
/// Legend geometry: row height, the symbol's width, text start.
const LEGEND_ROW: i64 = 14;
const LEGEND_SYMBOL: i64 = 24;
const LEGEND_PAD: i64 = 6;

/// "Nice" tick positions covering `[lo, hi]`: about `n` steps of 1, 2 or 5 × 10^k.
pub fn nice_ticks(lo: f64, hi: f64, n: usize) -> Vec<f64> {
    if !(lo.is_finite() && hi.is_finite()) || hi <= lo || n == 0 {
        return vec![];
    }
    let raw = (hi - lo) / n as f64;
    let mag = 10f64.powf(raw.log10().floor());
    let step = [1.0, 2.0, 5.0, 10.0]
        .iter()
        .map(|m| m * mag)
        .find(|s| *s >= raw)
        .unwrap_or(10.0 * mag);
    let mut t = (lo / step).ceil() * step;
    let mut out = vec![];
    while t <= hi + step * 1e-9 && out.len() < 100 {
        out.push(if t.abs() < step * 1e-9 { 0.0 } else { t });
        t += step;
    }
    out
}

fn fmt_tick(v: f64, ticks: &[f64]) -> String {
    let step = if ticks.len() >= 2 {
        (ticks[1] - ticks[0]).abs()
    } else {
        1.0
    };
    if step >= 1.0 {
        format!("{v:.0}")
    } else if step >= 0.1 {
        format!("{v:.1}")
    } else {
        format!("{v:.2}")
    }
}

/// Data range of all series, padded by 5 % (and at least ±1 for flat data).
fn data_range(spec: &PlotSpec) -> ((f64, f64), (f64, f64)) {
    let pts = spec
        .series
        .iter()
        .flat_map(|s| s.points.iter())
        .filter(|(x, y)| x.is_finite() && y.is_finite());
    let (mut x0, mut x1, mut y0, mut y1) = (f64::MAX, f64::MIN, f64::MAX, f64::MIN);
    for &(x, y) in pts {
        x0 = x0.min(x);
        x1 = x1.max(x);
        y0 = y0.min(y);
        y1 = y1.max(y);
    }
    if x0 > x1 {
        return ((0.0, 1.0), (0.0, 1.0));
    }
    if spec.y_from_zero {
        y0 = y0.min(0.0);
    }
    let pad = |a: f64, b: f64| {
        let span = (b - a).max(1e-6);
        let p = if span < 1e-3 { 1.0 } else { span * 0.05 };
        (a - p, b + p)
    };
    let (x0, x1) = pad(x0, x1);
    let (mut y0, y1) = pad(y0, y1);
    if spec.y_from_zero && y0 < 0.0 {
        y0 = 0.0;
    }
    ((x0, x1), (y0, y1))
}

/// Grow one of the ranges so that one unit has the same pixel size on both axes.
fn equalise(
    (x0, x1): (f64, f64),
    (y0, y1): (f64, f64),
    pw: f64,
    ph: f64,
) -> ((f64, f64), (f64, f64)) {
    let sx = (x1 - x0) / pw;
    let sy = (y1 - y0) / ph;
    if sx > sy {
        let c = (y0 + y1) / 2.0;
        let half = sx * ph / 2.0;
        ((x0, x1), (c - half, c + half))
    } else {
        let c = (x0 + x1) / 2.0;
        let half = sy * pw / 2.0;
        ((c - half, c + half), (y0, y1))
    }
}

fn text(canvas: &mut Canvas, s: &str, x: i32, y: i32, font: &MonoFont<'_>, align: Alignment) {
    let style = MonoTextStyle::new(font, TEXT);
    let ts = TextStyleBuilder::new()
        .alignment(align)
        .baseline(Baseline::Middle)
        .build();
    let _ = Text::with_text_style(s, Point::new(x, y), style, ts).draw(canvas);
}

/// Text rotated 90° counter-clockwise, centred on `(x, y)` (for the vertical axis name).
fn text_vertical(canvas: &mut Canvas, s: &str, x: i32, y: i32) {
    let font = &FONT_6X10;
    let w = font.character_size.width as usize * s.len();
    let h = font.character_size.height as usize;
    let mut tmp = Canvas::new(w, h, Rgb888::WHITE);
    let style = MonoTextStyle::new(font, TEXT);
    let _ = Text::with_baseline(s, Point::zero(), style, Baseline::Top).draw(&mut tmp);
    let (x0, y0) = (x as i64 - h as i64 / 2, y as i64 - w as i64 / 2);
    for ty in 0..h {
        for tx in 0..w {
            let c = tmp.get(tx, ty);
            if c != Rgb888::WHITE {
                // (tx, ty) → rotated: column ty, row (w - 1 - tx).
                canvas.put(x0 + ty as i64, y0 + (w - 1 - tx) as i64, c);
            }
        }
    }
}

/// One legend row: a symbol and its text.
#[derive(Clone, Debug)]
struct LegendRow {
    text: String,
    color: Rgb888,
    symbol: Symbol,
}

#[derive(Clone, Copy, Debug, PartialEq)]
enum Symbol {
    Line(Style),
    Ring,
    Dot,
}

fn rgb(c: (u8, u8, u8)) -> Rgb888 {
    Rgb888::new(c.0, c.1, c.2)
}

/// The legend's rows: every labelled series, then "start"/"end" when some series marks its ends
/// (in that series' colour, or neutral when several do).
fn legend_rows(spec: &PlotSpec) -> Vec<LegendRow> {
    let mut rows: Vec<LegendRow> = spec
        .series
        .iter()
        .filter(|s| !s.label.is_empty())
        .map(|s| LegendRow {
            text: s.label.clone(),
            color: rgb(s.color),
            symbol: Symbol::Line(s.style),
        })
        .collect();
    let marked: Vec<&Series> = spec.series.iter().filter(|s| s.mark_ends).collect();
    if let Some(first) = marked.first() {
        let color = if marked.iter().all(|s| s.color == first.color) {
            rgb(first.color)
        } else {
            rgb(AXIS)
        };
        rows.push(LegendRow {
            text: "start".into(),
            color,
            symbol: Symbol::Ring,
        });
        rows.push(LegendRow {
            text: "end".into(),
            color,
            symbol: Symbol::Dot,
        });
    }
    rows
}

/// Width of the legend box for `rows` (0 without rows).
fn legend_width(rows: &[LegendRow]) -> u32 {
    let longest = rows.iter().map(|r| r.text.chars().count()).max();
    longest.map_or(0, |n| {
        (LEGEND_PAD * 2 + LEGEND_SYMBOL + 4 + n as i64 * 6) as u32
    })
}

/// Split `points` into runs of finite points (non-finite points are gaps).
fn finite_runs(points: &[(f64, f64)]) -> Vec<Vec<(f64, f64)>> {
    let mut runs = vec![];
    let mut run = vec![];
    for &(x, y) in points {
        if x.is_finite() && y.is_finite() {
            run.push((x, y));
        } else if !run.is_empty() {
            runs.push(std::mem::take(&mut run));
        }
    }
    if !run.is_empty() {
        runs.push(run);
    }
    runs
}

/// Where things go on a plot: pixel rectangles `(left, top, right, bottom)`, right/bottom
/// exclusive.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Layout {
    /// The plotting area (data, grid and frame).
    pub plot: (i64, i64, i64, i64),
    /// The legend box, right of the plotting area (none without labelled series).
    pub legend: Option<(i64, i64, i64, i64)>,
}

/// The layout of `spec` on a `width × height` picture: the legend gets its own column right of the
/// plotting area.
pub fn layout(spec: &PlotSpec, width: u32, height: u32) -> Result<Layout> {
    let rows = legend_rows(spec);
    let legend_w = legend_width(&rows);
    let margin_right = MARGIN_RIGHT + if legend_w > 0 { legend_w + 12 } else { 0 };
    if width < MARGIN_LEFT + margin_right + 50 || height < MARGIN_TOP + MARGIN_BOTTOM + 50 {
        return Err(anyhow!("plot: {width}×{height} pixels is too small"));
    }
    let right = i64::from(width - margin_right);
    let legend = (legend_w > 0).then(|| {
        let x0 = i64::from(width - MARGIN_RIGHT) - i64::from(legend_w);
        let top = i64::from(MARGIN_TOP);
        (
            x0,
            top,
            x0 + i64::from(legend_w),
            top + LEGEND_PAD + rows.len() as i64 * LEGEND_ROW,
        )
    });
    Ok(Layout {
        plot: (
            i64::from(MARGIN_LEFT),
            i64::from(MARGIN_TOP),
            right,
            i64::from(height - MARGIN_BOTTOM),
        ),
        legend,
    })
}

/// Render `spec` into a `width × height` canvas. The legend sits right of the plotting area, so
/// it never covers data.
pub fn render(spec: &PlotSpec, width: u32, height: u32) -> Result<Canvas> {
    let rows = legend_rows(spec);
    let lay = layout(spec, width, height)?;
    let legend_w = lay.legend.map_or(0, |r| (r.2 - r.0) as u32);
    let margin_right = width - lay.plot.2 as u32;
    let mut buf = vec![0u8; width as usize * height as usize * 3];
    let pw = f64::from(width - MARGIN_LEFT - margin_right);
    let ph = f64::from(height - MARGIN_TOP - MARGIN_BOTTOM);
    let (mut xr, mut yr) = data_range(spec);
    if spec.equal_aspect {
        (xr, yr) = equalise(xr, yr, pw, ph);
    }
    let xt = nice_ticks(xr.0, xr.1, 8);
    let yt = nice_ticks(yr.0, yr.1, 6);
    let mut x_ticks_px: Vec<(f64, i32)> = vec![];
    let mut y_ticks_px: Vec<(f64, i32)> = vec![];
    let mut label_px: Vec<(i32, i32, &str)> = vec![];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (width, height)).into_drawing_area();
        let bg = RGBColor(PLOT_BG.0, PLOT_BG.1, PLOT_BG.2);
        root.fill(&bg).map_err(|e| anyhow!("plot: {e}"))?;
        let mut chart = ChartBuilder::on(&root)
            .margin_left(MARGIN_LEFT)
            .margin_right(margin_right)
            .margin_top(MARGIN_TOP)
            .margin_bottom(MARGIN_BOTTOM)
            .build_cartesian_2d(xr.0..xr.1, yr.0..yr.1)
            .map_err(|e| anyhow!("plot: {e}"))?;
        let grid = RGBColor(GRID.0, GRID.1, GRID.2);
        for &x in &xt {
            chart
                .draw_series(LineSeries::new([(x, yr.0), (x, yr.1)], grid))
                .map_err(|e| anyhow!("plot: {e}"))?;
            x_ticks_px.push((x, chart.backend_coord(&(x, yr.0)).0));
        }
        for &y in &yt {
            chart
                .draw_series(LineSeries::new([(xr.0, y), (xr.1, y)], grid))
                .map_err(|e| anyhow!("plot: {e}"))?;
            y_ticks_px.push((y, chart.backend_coord(&(xr.0, y)).1));
        }
        for s in &spec.series {
            let color = RGBColor(s.color.0, s.color.1, s.color.2);
            let style = color.stroke_width(2);
            let runs = finite_runs(&s.points);
            for run in &runs {
                match s.style {
                    Style::Area => {
                        let tint = mix(rgb(s.color), Rgb888::WHITE, 0.75);
                        let fill = RGBColor(tint.r(), tint.g(), tint.b());
                        let mut poly = Vec::with_capacity(run.len() + 2);
                        poly.push((run[0].0, 0.0));
                        poly.extend(run.iter().copied());
                        poly.push((run[run.len() - 1].0, 0.0));
                        chart
                            .draw_series([Polygon::new(poly, fill.filled())])
                            .map_err(|e| anyhow!("plot: {e}"))?;
                        chart
                            .draw_series(LineSeries::new(run.clone(), style))
                            .map(|_| ())
                    }
                    Style::Solid => chart
                        .draw_series(LineSeries::new(run.clone(), style))
                        .map(|_| ()),
                    Style::Dashed => chart
                        .draw_series(DashedLineSeries::new(run.clone(), 10, 6, style))
                        .map(|_| ()),
                    Style::Markers => chart
                        .draw_series(run.iter().map(|p| Cross::new(*p, 5, style)))
                        .map(|_| ()),
                }
                .map_err(|e| anyhow!("plot: {e}"))?;
            }
            if s.mark_ends {
                let first = runs.first().and_then(|r| r.first());
                let last = runs.last().and_then(|r| r.last());
                if let (Some(first), Some(last)) = (first, last) {
                    chart
                        .draw_series([
                            Circle::new(*first, 6, color.stroke_width(2)),
                            Circle::new(*last, 5, color.filled()),
                        ])
                        .map_err(|e| anyhow!("plot: {e}"))?;
                }
            }
        }
        for l in &spec.labels {
            if l.at.0.is_finite() && l.at.1.is_finite() {
                let (x, y) = chart.backend_coord(&l.at);
                label_px.push((x, y, &l.text));
            }
        }
        // Frame around the plotting area.
        let axis = RGBColor(AXIS.0, AXIS.1, AXIS.2);
        chart
            .draw_series(LineSeries::new(
                [
                    (xr.0, yr.0),
                    (xr.1, yr.0),
                    (xr.1, yr.1),
                    (xr.0, yr.1),
                    (xr.0, yr.0),
                ],
                axis,
            ))
            .map_err(|e| anyhow!("plot: {e}"))?;
        root.present().map_err(|e| anyhow!("plot: {e}"))?;
    }
    let mut canvas = Canvas::from_rgb8(width as usize, height as usize, &buf);
    let axis_c = rgb(AXIS);
    let bottom = (height - MARGIN_BOTTOM) as i64;
    let left = MARGIN_LEFT as i64;
    // Tick marks and labels.
    for (v, px) in &x_ticks_px {
        canvas.fill_rect(i64::from(*px), bottom, 1, 5, axis_c);
        text(
            &mut canvas,
            &fmt_tick(*v, &xt),
            *px,
            bottom as i32 + 12,
            &FONT_6X10,
            Alignment::Center,
        );
    }
    for (v, py) in &y_ticks_px {
        canvas.fill_rect(left - 5, i64::from(*py), 5, 1, axis_c);
        let shown = if spec.negate_y_labels && *v != 0.0 {
            -*v
        } else {
            *v
        };
        text(
            &mut canvas,
            &fmt_tick(shown, &yt),
            left as i32 - 8,
            *py,
            &FONT_6X10,
            Alignment::Right,
        );
    }
    for (x, y, t) in label_px {
        text(&mut canvas, t, x + 8, y - 9, &FONT_6X10, Alignment::Left);
    }
    // Title and axis names.
    text(
        &mut canvas,
        &spec.title,
        width as i32 / 2,
        MARGIN_TOP as i32 / 2,
        &FONT_7X13_BOLD,
        Alignment::Center,
    );
    text(
        &mut canvas,
        &spec.x_label,
        (MARGIN_LEFT + (width - MARGIN_LEFT - margin_right) / 2) as i32,
        height as i32 - 12,
        &FONT_6X10,
        Alignment::Center,
    );
    text_vertical(
        &mut canvas,
        &spec.y_label,
        10,
        (MARGIN_TOP + (height - MARGIN_TOP - MARGIN_BOTTOM) / 2) as i32,
    );
    if let Some(r) = lay.legend {
        draw_legend(&mut canvas, &rows, r.0, r.1, legend_w);
    }
    Ok(canvas)
}

fn draw_legend(canvas: &mut Canvas, rows: &[LegendRow], x0: i64, y0: i64, w: u32) {
    if rows.is_empty() {
        return;
    }
    let w = i64::from(w);
    let h = LEGEND_PAD + rows.len() as i64 * LEGEND_ROW;
    canvas.fill_rect(x0, y0, w, h, Rgb888::new(250, 250, 252));
    let edge = Rgb888::new(190, 190, 200);
    canvas.fill_rect(x0, y0, w, 1, edge);
    canvas.fill_rect(x0, y0 + h - 1, w, 1, edge);
    canvas.fill_rect(x0, y0, 1, h, edge);
    canvas.fill_rect(x0 + w - 1, y0, 1, h, edge);
    for (i, r) in rows.iter().enumerate() {
        let y = y0 + LEGEND_PAD + 4 + i as i64 * LEGEND_ROW;
        let sx = x0 + LEGEND_PAD;
        let mid = sx + LEGEND_SYMBOL / 2;
        let c = r.color;
        match r.symbol {
            Symbol::Line(Style::Solid) => canvas.fill_rect(sx, y - 1, LEGEND_SYMBOL, 2, c),
            Symbol::Line(Style::Area) => {
                canvas.fill_rect(sx, y - 4, LEGEND_SYMBOL, 9, mix(c, Rgb888::WHITE, 0.75));
                canvas.fill_rect(sx, y - 4, LEGEND_SYMBOL, 2, c);
            }
            Symbol::Line(Style::Dashed) => {
                canvas.fill_rect(sx, y - 1, 8, 2, c);
                canvas.fill_rect(sx + 12, y - 1, 8, 2, c);
            }
            Symbol::Line(Style::Markers) => {
                for d in -4..=4 {
                    canvas.fill_rect(mid + d, y + d, 2, 1, c);
                    canvas.fill_rect(mid + d, y - d, 2, 1, c);
                }
            }
            Symbol::Ring | Symbol::Dot => {
                let filled = r.symbol == Symbol::Dot;
                let (r_out, r_in) = if filled { (5, 0) } else { (6, 4) };
                for dy in -r_out..=r_out {
                    for dx in -r_out..=r_out {
                        let d2 = dx * dx + dy * dy;
                        if d2 <= r_out * r_out && (filled || d2 > r_in * r_in) {
                            canvas.put(mid + dx, y + dy, c);
                        }
                    }
                }
            }
        }
        text(
            canvas,
            &r.text,
            (sx + LEGEND_SYMBOL + 4) as i32,
            y as i32,
            &FONT_6X10,
            Alignment::Left,
        );
    }
}

/// Render `spec` and write it as a PNG file (directly; the CLI writes through
/// [`crate::output::OutFile`]).
pub fn save(spec: &PlotSpec, path: &Path, width: u32, height: u32) -> Result<()> {
    render(spec, width, height)?.save_png(path)
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn ticks_are_nice() {
        assert_eq!(
            nice_ticks(0.0, 10.0, 5),
            vec![0.0, 2.0, 4.0, 6.0, 8.0, 10.0]
        );
        assert_eq!(nice_ticks(-0.3, 0.3, 3), vec![-0.2, 0.0, 0.2]);
        assert!(nice_ticks(1.0, 1.0, 5).is_empty());
        assert!(nice_ticks(f64::NAN, 1.0, 5).is_empty());
    }

    #[test]
    fn legend_explains_start_and_end_markers() {
        let mut m = Series::line("agent", vec![(0.0, 0.0), (1.0, 1.0)], (200, 40, 40));
        m.mark_ends = true;
        let spec = PlotSpec {
            series: vec![Series::markers("targets", vec![(1.0, 1.0)], (0, 0, 0)), m],
            ..PlotSpec::default()
        };
        let rows: Vec<(String, Symbol)> = legend_rows(&spec)
            .into_iter()
            .map(|r| (r.text, r.symbol))
            .collect();
        assert_eq!(
            rows,
            [
                ("targets".to_string(), Symbol::Line(Style::Markers)),
                ("agent".to_string(), Symbol::Line(Style::Solid)),
                ("start".to_string(), Symbol::Ring),
                ("end".to_string(), Symbol::Dot),
            ]
        );
        assert_eq!(
            finite_runs(&[(0.0, 1.0), (1.0, f64::NAN), (2.0, 2.0), (3.0, 3.0)]),
            vec![vec![(0.0, 1.0)], vec![(2.0, 2.0), (3.0, 3.0)]]
        );
    }

    #[test]
    fn renders_lines_and_text_without_fonts() {
        let spec = PlotSpec {
            title: "speed".into(),
            x_label: "time (s)".into(),
            y_label: "speed".into(),
            series: vec![
                Series::line(
                    "speed",
                    vec![(0.0, 0.0), (1.0, 5.0), (2.0, 9.0)],
                    (200, 40, 40),
                ),
                Series::dashed("ground max", vec![(0.0, 7.7), (2.0, 7.7)], (40, 40, 200)),
            ],
            y_from_zero: true,
            ..PlotSpec::default()
        };
        let c = render(&spec, 400, 300).unwrap();
        let red = c.pixels.iter().filter(|&&p| p == 0x00c82828).count();
        let text = c.pixels.iter().filter(|&&p| p == 0x001e1e28).count();
        assert!(red > 100, "line drawn: {red}");
        assert!(text > 100, "labels drawn: {text}");
        // The legend is beside the plotting area, never on it, and there is no red (data) in it.
        let lay = layout(&spec, 400, 300).unwrap();
        let legend = lay.legend.unwrap();
        assert!(legend.0 > lay.plot.2, "{lay:?}");
        for y in legend.1..legend.3 {
            for x in legend.0..legend.2 {
                let p = c.pixels[y as usize * 400 + x as usize];
                assert!(
                    p != 0x00c82828 || x < legend.0 + 40,
                    "data pixel in the legend"
                );
            }
        }
    }
}
