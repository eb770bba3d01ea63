//! The scenario file format (TOML): what every section shares. The built-in scenarios are files
//! in this format too (`host-sim/scenarios/*.toml`, compiled into the binary).
//!
//! ```toml
//! kind = "bhop"            # which experiment: a name of `Kind` (one per file of `scenario/`)
//! title = "My experiment"  # plot title (optional)
//! seconds = 10.0           # simulated time, 0 < s ≤ 600 (optional, default per kind)
//! tick_hz = 60             # fixed tick rate, 1..=1000 (optional, default 60)
//!
//! [bhop]                   # the section named by `kind` (optional; defaults below)
//! preset = "seed"
//! ```
//!
//! The file is a [`ScenarioFile`]; `kind` is one of [`Kind`](super::Kind)'s names, and each
//! kind's `[section]` is a struct in that kind's file (`bhop::Bhop`, `arrival::Arrival`, …), the
//! field of the file named after the kind (both generated from the one list of kinds in
//! [`super`]). Every section's fields are optional and documented on those structs; unknown
//! fields are errors (typos do not pass silently), and so is a section of another kind.
//!
//! Numbers follow one rule, checked in one place (`ranged`, and the `ranged_fn!` functions
//! over it that sections name in `deserialize_with`: `positive`, `non_negative`, `size`,
//! `degrees`, `coord`, `pitch`, `point`) for plain fields and every element of a vector
//! alike: finite (no `nan`, no `inf`) and within the field's range — coordinates of positions
//! and offsets within ±[`COORD_LIMIT`] (10,000 world units), `path_size` in `(0, 10000]`,
//! speeds, accelerations and other magnitudes in `[1e-6, 1e6]` (or `[0, 1e6]` where 0 is
//! meaningful), angles in `[-360, 360]` degrees; `seconds` in `(0, 600]`, `tick_hz` in
//! `1..=1000`. An arrival's `targets` list must not be empty.

use serde::de::{self, Deserializer};
use serde::Deserialize;

use super::ScenarioFile;
use crate::cli::MAX_SECONDS;

pub(super) fn default_tick_hz() -> u32 {
    60
}

/// A number of any TOML size (an integer of more digits than `i64` holds included), as `f64`,
/// so that the range check, not the integer type, says what is wrong; and as the message shows it
/// (an integer as written, a float through `shown`).
struct AnyNumber(f64, String);

impl<'de> Deserialize<'de> for AnyNumber {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        struct V;
        impl de::Visitor<'_> for V {
            type Value = AnyNumber;
            fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
                f.write_str("a number")
            }
            fn visit_i64<E: de::Error>(self, v: i64) -> Result<AnyNumber, E> {
                Ok(AnyNumber(v as f64, v.to_string()))
            }
            fn visit_u64<E: de::Error>(self, v: u64) -> Result<AnyNumber, E> {
                Ok(AnyNumber(v as f64, v.to_string()))
            }
            fn visit_i128<E: de::Error>(self, v: i128) -> Result<AnyNumber, E> {
                Ok(AnyNumber(v as f64, v.to_string()))
            }
            fn visit_u128<E: de::Error>(self, v: u128) -> Result<AnyNumber, E> {
                Ok(AnyNumber(v as f64, v.to_string()))
            }
            fn visit_f64<E: de::Error>(self, v: f64) -> Result<AnyNumber, E> {
                Ok(AnyNumber(v, shown(v)))
            }
        }
        d.deserialize_any(V)
    }
}

pub(super) fn tick_hz<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let AnyNumber(v, text) = AnyNumber::deserialize(d)?;
    if v.fract() == 0.0 && (1.0..=1000.0).contains(&v) {
        Ok(v as u32)
    } else {
        Err(de::Error::custom(format!(
            "tick_hz must be a whole number between 1 and 1000, got {text}"
        )))
    }
}

pub(super) fn opt_seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
    let AnyNumber(v, text) = AnyNumber::deserialize(d)?;
    if v.is_finite() && v > 0.0 && v <= MAX_SECONDS {
        Ok(Some(v))
    } else {
        Err(de::Error::custom(format!(
            "seconds must be > 0 and at most {MAX_SECONDS} seconds, got {text}"
        )))
    }
}

/// Largest coordinate of a position or offset (`start`, `targets`, `start_offset`) and largest
/// `path_size`, world units: 10,000, two hundred times the demo arena's half extent
/// ([`hopkit_demo::level::ARENA_HALF_EXTENT`], 48) and still resolved to a thousandth of a unit
/// by `f32`.
pub const COORD_LIMIT: f32 = 10_000.0;

/// A number for a message: plain when short, in exponent form when huge or tiny (`1e30`).
pub(super) fn shown(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-6..1e9).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// The one rule for numbers in scenario files, plain fields and every element of a vector
/// alike: finite and within `[lo, hi]` (the field's documented range).
pub(super) fn ranged<'de, D: Deserializer<'de>>(
    d: D,
    lo: f32,
    hi: f32,
    what: &str,
) -> Result<f32, D::Error> {
    let AnyNumber(v, text) = AnyNumber::deserialize(d)?;
    if v.is_finite() && v >= f64::from(lo) && v <= f64::from(hi) {
        Ok(v as f32)
    } else {
        Err(de::Error::custom(format!(
            "{what} must be a finite number between {lo} and {hi}, got {text}"
        )))
    }
}

macro_rules! ranged_fn {
    ($name:ident, $opt:ident, $lo:expr, $hi:expr, $what:expr) => {
        #[allow(dead_code)]
        pub(super) fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
            ranged(d, $lo, $hi, $what)
        }
        #[allow(dead_code)]
        pub(super) fn $opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
            ranged(d, $lo, $hi, $what).map(Some)
        }
    };
}

ranged_fn!(positive, opt_positive, 1.0e-6, 1.0e6, "this value");
ranged_fn!(non_negative, opt_non_negative, 0.0, 1.0e6, "this value");
ranged_fn!(size, opt_size, 1.0e-6, COORD_LIMIT, "a size in world units");
ranged_fn!(degrees, opt_degrees, -360.0, 360.0, "an angle in degrees");
ranged_fn!(
    coord,
    opt_coord,
    -COORD_LIMIT,
    COORD_LIMIT,
    "a coordinate (world units)"
);
ranged_fn!(pitch, opt_pitch, -90.0, 90.0, "a pitch in degrees");

/// One coordinate of a point, `±COORD_LIMIT` (deserialized element by element, so an error
/// points at the bad number and names its index, e.g. `arrival.targets[1][0]`).
struct Coord(f32);

impl<'de> Deserialize<'de> for Coord {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        ranged(d, -COORD_LIMIT, COORD_LIMIT, "a coordinate (world units)").map(Coord)
    }
}

/// A point `[x, z]`: exactly two coordinates, each within `±COORD_LIMIT`.
pub(super) struct Point(pub(super) [f32; 2]);

impl<'de> Deserialize<'de> for Point {
    fn deserialize<D: Deserializer<'de>>(d: D) -> Result<Self, D::Error> {
        match Vec::<Coord>::deserialize(d)?.as_slice() {
            [x, z] => Ok(Point([x.0, z.0])),
            other => Err(de::Error::custom(format!(
                "a point is [x, z], two numbers; got {}",
                other.len()
            ))),
        }
    }
}

pub(super) fn point<'de, D: Deserializer<'de>>(d: D) -> Result<[f32; 2], D::Error> {
    Point::deserialize(d).map(|p| p.0)
}

impl ScenarioFile {
    /// Simulated seconds: explicit or the kind's default
    /// ([`Scenario::default_seconds`](super::Scenario::default_seconds)); a `ghosts` scenario
    /// without `seconds` runs for its recording's length instead, see `scenario::ghosts`.
    pub fn seconds(&self) -> f64 {
        self.seconds
            .unwrap_or_else(|| super::of(self.kind).default_seconds())
    }

    /// Ticks to run at the file's `tick_hz`.
    pub fn ticks(&self) -> u32 {
        self.ticks_at(self.tick_hz)
    }

    /// Ticks to run at `hz` (a `ghosts` scenario runs at its recording's rate).
    pub fn ticks_at(&self, hz: u32) -> u32 {
        (self.seconds() * f64::from(hz)).round().max(1.0) as u32
    }
}
