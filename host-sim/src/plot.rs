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

use crate::canvas::Canvas;

/// One line on a plot.
#[derive(Clone, Debug)]
pub struct Series {
    /// Legend text.
    pub label: String,
    /// Data points `(x, y)` in plot units.
    pub points: Vec<(f64, f64)>,
    /// Line colour `(r, g, b)`.
    pub color: (u8, u8, u8),
    /// Draw dashed.
    pub dashed: bool,
    /// Mark the first point with a ring and the last with a filled dot (trajectories).
    pub mark_ends: bool,
}

impl Series {
    /// A solid line.
    pub fn line(label: &str, points: Vec<(f64, f64)>, color: (u8, u8, u8)) -> Self {
        Series {
            label: label.to_string(),
            points,
            color,
            dashed: false,
            mark_ends: false,
        }
    }
}

/// What to plot.
#[derive(Clone, Debug, Default)]
pub struct PlotSpec {
    /// Title at the top.
    pub title: String,
    /// Horizontal axis name.
    pub x_label: String,
    /// Vertical axis name.
    pub y_label: String,
    /// The lines, drawn in order.
    pub series: Vec<Series>,
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
const MARGIN_RIGHT: u32 = 20;
const MARGIN_TOP: u32 = 34;
const MARGIN_BOTTOM: u32 = 44;

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

/// Render `spec` into a `width × height` canvas.
pub fn render(spec: &PlotSpec, width: u32, height: u32) -> Result<Canvas> {
    let mut buf = vec![0u8; width as usize * height as usize * 3];
    let pw = f64::from(width - MARGIN_LEFT - MARGIN_RIGHT);
    let ph = f64::from(height - MARGIN_TOP - MARGIN_BOTTOM);
    let (mut xr, mut yr) = data_range(spec);
    if spec.equal_aspect {
        (xr, yr) = equalise(xr, yr, pw, ph);
    }
    let xt = nice_ticks(xr.0, xr.1, 8);
    let yt = nice_ticks(yr.0, yr.1, 6);
    let mut x_ticks_px: Vec<(f64, i32)> = vec![];
    let mut y_ticks_px: Vec<(f64, i32)> = vec![];
    {
        let root = BitMapBackend::with_buffer(&mut buf, (width, height)).into_drawing_area();
        let bg = RGBColor(PLOT_BG.0, PLOT_BG.1, PLOT_BG.2);
        root.fill(&bg).map_err(|e| anyhow!("plot: {e}"))?;
        let mut chart = ChartBuilder::on(&root)
            .margin_left(MARGIN_LEFT)
            .margin_right(MARGIN_RIGHT)
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
            let pts: Vec<(f64, f64)> = s
                .points
                .iter()
                .copied()
                .filter(|(x, y)| x.is_finite() && y.is_finite())
                .collect();
            if s.dashed {
                chart
                    .draw_series(DashedLineSeries::new(pts.clone(), 10, 6, style))
                    .map_err(|e| anyhow!("plot: {e}"))?;
            } else {
                chart
                    .draw_series(LineSeries::new(pts.clone(), style))
                    .map_err(|e| anyhow!("plot: {e}"))?;
            }
            if s.mark_ends {
                if let (Some(first), Some(last)) = (pts.first(), pts.last()) {
                    chart
                        .draw_series([
                            Circle::new(*first, 5, color.stroke_width(2)),
                            Circle::new(*last, 4, color.filled()),
                        ])
                        .map_err(|e| anyhow!("plot: {e}"))?;
                }
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
    let axis_c = Rgb888::new(AXIS.0, AXIS.1, AXIS.2);
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
        (MARGIN_LEFT + (width - MARGIN_LEFT - MARGIN_RIGHT) / 2) as i32,
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
    draw_legend(&mut canvas, spec, width);
    Ok(canvas)
}

fn draw_legend(canvas: &mut Canvas, spec: &PlotSpec, width: u32) {
    let entries: Vec<&Series> = spec.series.iter().filter(|s| !s.label.is_empty()).collect();
    if entries.is_empty() {
        return;
    }
    let longest = entries.iter().map(|s| s.label.len()).max().unwrap_or(0) as i64;
    let w = 34 + longest * 6;
    let h = 8 + entries.len() as i64 * 14;
    let x0 = i64::from(width - MARGIN_RIGHT) - w - 8;
    let y0 = i64::from(MARGIN_TOP) + 8;
    canvas.fill_rect(x0, y0, w, h, Rgb888::new(250, 250, 252));
    let edge = Rgb888::new(190, 190, 200);
    canvas.fill_rect(x0, y0, w, 1, edge);
    canvas.fill_rect(x0, y0 + h - 1, w, 1, edge);
    canvas.fill_rect(x0, y0, 1, h, edge);
    canvas.fill_rect(x0 + w - 1, y0, 1, h, edge);
    for (i, s) in entries.iter().enumerate() {
        let y = y0 + 11 + i as i64 * 14;
        let c = Rgb888::new(s.color.0, s.color.1, s.color.2);
        if s.dashed {
            canvas.fill_rect(x0 + 6, y - 1, 7, 2, c);
            canvas.fill_rect(x0 + 17, y - 1, 7, 2, c);
        } else {
            canvas.fill_rect(x0 + 6, y - 1, 18, 2, c);
        }
        text(
            canvas,
            &s.label,
            x0 as i32 + 28,
            y as i32,
            &FONT_6X10,
            Alignment::Left,
        );
    }
}

/// Render `spec` and write it as a PNG.
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
                Series {
                    dashed: true,
                    ..Series::line("ground max", vec![(0.0, 7.7), (2.0, 7.7)], (40, 40, 200))
                },
            ],
            y_from_zero: true,
            ..PlotSpec::default()
        };
        let c = render(&spec, 400, 300).unwrap();
        let red = c.pixels.iter().filter(|&&p| p == 0x00c82828).count();
        let text = c.pixels.iter().filter(|&&p| p == 0x001e1e28).count();
        assert!(red > 100, "line drawn: {red}");
        assert!(text > 100, "labels drawn: {text}");
    }
}
