//! Per-tick traces of a scenario's main actor, and their CSV form.

use std::io::Write;

use hopkit::math::Vec3;

/// The fixed leading CSV columns.
pub const BASE_COLUMNS: [&str; 9] = ["tick", "time", "x", "y", "z", "vx", "vy", "vz", "speed"];

/// Most extra columns a trace has.
pub const MAX_EXTRA: usize = 5;

/// One tick of the main actor. Every number is the simulation's own `f32` (flags and counts are
/// small whole numbers, exact in `f32`), so the CSV shows exactly what was simulated.
#[derive(Clone, Debug, PartialEq)]
pub struct Sample {
    /// Tick number, 0 = the state after the first tick.
    pub tick: u32,
    /// Simulated time after this tick, seconds: `(tick + 1) / tick_hz` as `f32`.
    pub time: f32,
    /// Position, world units.
    pub position: Vec3,
    /// Velocity, world units per second.
    pub velocity: Vec3,
    /// Speed the scenario cares about (horizontal for walkers), world units per second.
    pub speed: f32,
    /// Values of the trace's extra columns, in order (unused slots are 0).
    pub extra: [f32; MAX_EXTRA],
}

impl Sample {
    /// Extra column `i` as a flag (`1` = true).
    pub fn flag(&self, i: usize) -> bool {
        self.extra[i] == 1.0
    }
}

/// Simulated time after tick `tick` (0-based) at `hz`, seconds, rounded once to `f32`.
pub fn time_after(tick: u32, hz: u32) -> f32 {
    (f64::from(tick) + 1.0) as f32 / hz.max(1) as f32
}

/// `extra` values from a slice (at most [`MAX_EXTRA`]).
pub fn extras(values: &[f32]) -> [f32; MAX_EXTRA] {
    let mut out = [0.0; MAX_EXTRA];
    for (o, v) in out.iter_mut().zip(values) {
        *o = *v;
    }
    out
}

/// An `f32` flag as a CSV value.
pub fn flag(b: bool) -> f32 {
    f32::from(u8::from(b))
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
    /// Fixed tick rate of the run, Hz.
    pub tick_hz: u32,
    /// Name of the main actor (legend of trajectory plots).
    pub actor: String,
    /// Names of the extra columns after [`BASE_COLUMNS`] (at most [`MAX_EXTRA`]).
    pub extra_columns: Vec<String>,
    /// One sample per tick.
    pub samples: Vec<Sample>,
    /// Other actors' paths.
    pub others: Vec<Path2>,
}

impl Trace {
    /// An empty trace of `actor` at `tick_hz` with the named extra columns.
    pub fn new(tick_hz: u32, actor: &str, extra_columns: &[&str]) -> Trace {
        Trace {
            tick_hz,
            actor: actor.into(),
            extra_columns: extra_columns.iter().map(|c| (*c).into()).collect(),
            ..Trace::default()
        }
    }

    /// Add the sample of a walking character after tick `tick` (0-based): its position,
    /// velocity and horizontal speed, then the `extra` columns' values.
    pub fn push_mover(&mut self, tick: u32, m: &hopkit::movement::MoverState, extra: &[f32]) {
        self.samples.push(Sample {
            tick,
            time: time_after(tick, self.tick_hz),
            position: m.position,
            velocity: m.velocity,
            speed: m.planar_speed(),
            extra: extras(extra),
        });
    }

    /// Highest `speed` over the run (0 if empty).
    pub fn max_speed(&self) -> f32 {
        self.samples.iter().map(|s| s.speed).fold(0.0, f32::max)
    }

    /// The CSV text: a header line then one line per sample. Every number is an `f32` written
    /// with `{}` (Rust's shortest form that reads back as the same `f32`: `0.1`, not the widened
    /// `0.10000000149011612`), so the file reproduces the simulated values exactly.
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
            for v in s.extra.iter().take(self.extra_columns.len()) {
                write!(out, ",{v}")?;
            }
            writeln!(out)?;
        }
        Ok(())
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn csv_has_header_and_rows() {
        let t = Trace {
            tick_hz: 60,
            actor: "player".into(),
            extra_columns: vec!["grounded".into(), "yaw_deg".into()],
            samples: vec![Sample {
                tick: 0,
                time: time_after(0, 60),
                position: Vec3::new(1.0, 0.0, -2.5),
                velocity: Vec3::new(0.1, 0.0, 0.0),
                speed: 0.1,
                extra: extras(&[flag(true), 0.3]),
            }],
            others: vec![],
        };
        let mut out = vec![];
        t.write_csv(&mut out).unwrap();
        let s = String::from_utf8(out).unwrap();
        let mut lines = s.lines();
        assert_eq!(
            lines.next(),
            Some("tick,time,x,y,z,vx,vy,vz,speed,grounded,yaw_deg")
        );
        // f32 shortest round trip: 1/60 is 0.016666668 as an f32, 0.1f32 is "0.1".
        let row = lines.next().unwrap();
        assert_eq!(row, "0,0.016666668,1,0,-2.5,0.1,0,0,0.1,1,0.3");
        for (v, want) in row.split(',').zip([
            0.0,
            1.0 / 60.0,
            1.0,
            0.0,
            -2.5,
            0.1,
            0.0,
            0.0,
            0.1,
            1.0,
            0.3,
        ]) {
            assert_eq!(v.parse::<f32>().unwrap(), want as f32, "{v} reads back");
        }
        assert_eq!(t.max_speed(), 0.1);
    }
}
