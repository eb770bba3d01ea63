//! Per-tick traces of a scenario's main actor, and their CSV form.

use std::io::Write;
use std::path::Path;

use anyhow::{Context, Result};
use hopkit::math::Vec3;

/// The fixed leading CSV columns.
pub const BASE_COLUMNS: [&str; 9] = ["tick", "time", "x", "y", "z", "vx", "vy", "vz", "speed"];

/// One tick of the main actor.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Tick number, 0 = the state after the first tick.
    pub tick: u32,
    /// Simulated time after this tick, seconds.
    pub time: f64,
    /// Position, world units.
    pub position: Vec3,
    /// Velocity, world units per second.
    pub velocity: Vec3,
    /// Speed the scenario cares about (horizontal for walkers), units per second.
    pub speed: f32,
    /// Values of the trace's extra columns, in order.
    pub extra: Vec<f64>,
}

/// A named 2-D path `(x, z)` of another actor or a marker, for trajectory plots.
#[derive(Clone, Debug, PartialEq)]
pub struct Path2 {
    /// Legend text.
    pub label: String,
    /// Points `(x, z)`.
    pub points: Vec<(f64, f64)>,
}

/// A scenario run: the main actor's samples, extra columns, and other paths.
#[derive(Clone, Debug, Default, PartialEq)]
pub struct Trace {
    /// Name of the main actor (legend of trajectory plots).
    pub actor: String,
    /// Names of the extra columns after [`BASE_COLUMNS`].
    pub extra_columns: Vec<String>,
    /// One sample per tick.
    pub samples: Vec<Sample>,
    /// Other actors' paths.
    pub others: Vec<Path2>,
}

impl Trace {
    /// Highest `speed` over the run (0 if empty).
    pub fn max_speed(&self) -> f32 {
        self.samples.iter().map(|s| s.speed).fold(0.0, f32::max)
    }

    /// The CSV text: a header line then one line per sample. Floats use Rust's shortest
    /// round-trip form, so the file reproduces the exact `f32` values.
    pub fn write_csv<W: Write>(&self, mut out: W) -> std::io::Result<()> {
        let mut header: Vec<&str> = BASE_COLUMNS.to_vec();
        header.extend(self.extra_columns.iter().map(String::as_str));
        writeln!(out, "{}", header.join(","))?;
        for s in &self.samples {
            write!(
                out,
                "{},{},{},{},{},{},{},{},{}",
                s.tick,
                s.time,
                s.position.x,
                s.position.y,
                s.position.z,
                s.velocity.x,
                s.velocity.y,
                s.velocity.z,
                s.speed
            )?;
            for v in &s.extra {
                write!(out, ",{v}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }

    /// Write the CSV file.
    pub fn save_csv(&self, path: &Path) -> Result<()> {
        let file =
            std::fs::File::create(path).with_context(|| format!("creating {}", path.display()))?;
        let mut w = std::io::BufWriter::new(file);
        self.write_csv(&mut w)
            .and_then(|_| w.flush())
            .with_context(|| format!("writing {}", path.display()))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_header_and_rows() {
        let t = Trace {
            actor: "player".into(),
            extra_columns: vec!["grounded".into()],
            samples: vec![Sample {
                tick: 0,
                time: 1.0 / 60.0,
                position: Vec3::new(1.0, 0.0, -2.5),
                velocity: Vec3::new(0.1, 0.0, 0.0),
                speed: 0.1,
                extra: vec![1.0],
            }],
            others: vec![],
        };
        let mut out = vec![];
        t.write_csv(&mut out).unwrap();
        let s = String::from_utf8(out).unwrap();
        let mut lines = s.lines();
        assert_eq!(
            lines.next(),
            Some("tick,time,x,y,z,vx,vy,vz,speed,grounded")
        );
        assert_eq!(
            lines.next(),
            Some("0,0.016666666666666666,1,0,-2.5,0.1,0,0,0.1,1")
        );
        assert_eq!(t.max_speed(), 0.1);
    }
}
