//! `scenario NAME|FILE`: check the outputs, run, then write the CSV and/or the plot.

use anyhow::{Context, Result};

use crate::cli::ScenarioArgs;
use crate::output::OutFile;
use crate::ticks::seconds_to_ticks;
use crate::{plot, scenario, UserError};

/// Run a built-in or a scenario file; print the headline and findings; write `--csv`, `--plot`.
pub fn run(args: &ScenarioArgs) -> Result<()> {
    let loaded = scenario::load(&args.scenario).map_err(|e| UserError(e.to_string()))?;
    let mut file = loaded.file.clone();
    if let Some(s) = args.seconds {
        seconds_to_ticks(s, file.tick_hz)?;
        file.seconds = Some(s);
    }
    if let (Some(csv), Some(png)) = (&args.csv, &args.plot) {
        if csv == png {
            return Err(UserError(format!(
                "--csv and --plot name the same file, {}",
                csv.display()
            ))
            .into());
        }
    }
    let csv = args
        .csv
        .as_deref()
        .map(|p| OutFile::check("--csv", p))
        .transpose()?;
    if let Some(p) = &args.plot {
        check_png_name("--plot", p)?;
    }
    let png = args
        .plot
        .as_deref()
        .map(|p| OutFile::check("--plot", p))
        .transpose()?;
    let trace = scenario::run(&file, &loaded.base_dir, args.quiet)?;
    let title = file
        .title
        .clone()
        .unwrap_or_else(|| format!("scenario {}", file.kind.name()));
    println!("{}", scenario::headline(&loaded.origin, &file, &trace));
    for line in scenario::findings(&file, &trace) {
        println!("  {line}");
    }
    // Both outputs are written to their temporary files first and put in place together: an
    // interruption leaves both old files or both new ones (crate::output::commit_all).
    let mut staged = vec![];
    if let Some(csv) = &csv {
        staged.push(csv.stage(|w| Ok(trace.write_csv(w)?))?);
    }
    if let Some(png) = &png {
        let spec = scenario::plot_spec(&file, &title, &trace);
        let canvas = plot::render(&spec, 960, 540)
            .with_context(|| format!("plotting {}", png.path().display()))?;
        staged.push(png.stage(|w| canvas.write_png(w))?);
    }
    crate::output::commit_all(staged)?;
    if let Some(csv) = &csv {
        println!(
            "wrote {} ({} rows)",
            csv.path().display(),
            trace.samples.len()
        );
    }
    if let Some(png) = &png {
        println!("wrote {}", png.path().display());
    }
    if csv.is_none() && png.is_none() {
        println!("(add --csv FILE and/or --plot FILE to save the trace)");
    }
    Ok(())
}

/// Plots are PNG files: a name ending in another extension (`x.jpg`, `x.svg`) is refused rather
/// than filled with PNG bytes. A name without an extension, or a special file (`/dev/stdout`), is
/// written as PNG.
fn check_png_name(what: &str, path: &std::path::Path) -> Result<(), UserError> {
    if std::fs::metadata(path).is_ok_and(|m| !m.is_file() && !m.is_dir()) {
        return Ok(());
    }
    match path
        .extension()
        .map(|e| e.to_string_lossy().to_ascii_lowercase())
    {
        None => Ok(()),
        Some(e) if e == "png" => Ok(()),
        Some(e) => Err(UserError(format!(
            "{what} {}: plots are written as PNG only, not .{e}; name the file *.png",
            path.display()
        ))),
    }
}
