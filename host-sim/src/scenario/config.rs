//! The scenario file format (TOML). The built-in scenarios are files in this format too
//! (`host-sim/scenarios/*.toml`, compiled into the binary).
//!
//! ```toml
//! kind = "bhop"            # bhop | arrival | follower | slope | ghosts | cpma | platform | crouch
//!                          # | ladder | water | collide | mover
//! title = "My experiment"  # plot title (optional)
//! seconds = 10.0           # simulated time, 0 < s ≤ 600 (optional, default per kind)
//! tick_hz = 60             # fixed tick rate, 1..=1000 (optional, default 60)
//!
//! [bhop]                   # the section named by `kind` (optional; defaults below)
//! preset = "seed"
//! ```
//!
//! Every section's fields are optional and documented on the structs below; unknown fields are
//! errors (typos do not pass silently).
//!
//! Numbers follow one rule, checked in one place (`ranged`) for plain fields and every element
//! of a vector alike: finite (no `nan`, no `inf`) and within the field's range — coordinates of
//! positions and offsets within ±[`COORD_LIMIT`] (10,000 world units), `path_size` in
//! `(0, 10000]`, speeds, accelerations and other magnitudes in `[1e-6, 1e6]` (or `[0, 1e6]` where
//! 0 is meaningful), angles in `[-360, 360]` degrees; `seconds` in `(0, 600]`, `tick_hz` in
//! `1..=1000`. An arrival's `targets` list must not be empty.

use serde::de::{self, Deserializer};
use serde::Deserialize;

use crate::cli::MAX_SECONDS;

/// Which experiment a scenario runs.
#[derive(Clone, Copy, Debug, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Kind {
    /// Strafe-jumping: speed gain over time against the ground max speed.
    Bhop,
    /// Arrival steering to a sequence of targets.
    Arrival,
    /// A companion following a leader's breadcrumb trail.
    Follower,
    /// A character running over the demo ramps, tilting to the slope.
    Slope,
    /// Ghost fighters replaying a recording.
    Ghosts,
    /// CPM air control against Quake III with the same keys and view.
    Cpma,
    /// Standing on a turntable, then jumping off it.
    Platform,
    /// Crouching through a tunnel, then a crouch-jump onto a ledge.
    Crouch,
    /// Climbing a ladder, jumping off it, climbing it over the top.
    Ladder,
    /// Walking into a pool, sinking, swimming up, the water jump out at the edge.
    Water,
    /// One of the collision scenarios of `hopkit_demo::collision` (`[collide] scenario = …`).
    Collide,
    /// A body among moving solids: carried along a wall, under a lintel, an elevator, a crush.
    Mover,
}

impl Kind {
    /// The lowercase name.
    pub fn name(self) -> &'static str {
        match self {
            Kind::Bhop => "bhop",
            Kind::Arrival => "arrival",
            Kind::Follower => "follower",
            Kind::Slope => "slope",
            Kind::Ghosts => "ghosts",
            Kind::Cpma => "cpma",
            Kind::Platform => "platform",
            Kind::Crouch => "crouch",
            Kind::Ladder => "ladder",
            Kind::Water => "water",
            Kind::Collide => "collide",
            Kind::Mover => "mover",
        }
    }
}

/// A whole scenario file.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct ScenarioFile {
    /// Which experiment.
    pub kind: Kind,
    /// Title for plots and messages.
    #[serde(default)]
    pub title: Option<String>,
    /// Simulated seconds, 0 < s ≤ [`MAX_SECONDS`] (default: 15 for bhop, the recording's length
    /// for ghosts, each run's own length for collide, 8 for the others).
    #[serde(default, deserialize_with = "opt_seconds")]
    pub seconds: Option<f64>,
    /// Fixed tick rate, Hz (default 60; refused for collide, whose runs have their own rates).
    #[serde(default = "default_tick_hz", deserialize_with = "tick_hz")]
    pub tick_hz: u32,
    /// `kind = "bhop"` settings.
    #[serde(default)]
    pub bhop: Option<Bhop>,
    /// `kind = "arrival"` settings.
    #[serde(default)]
    pub arrival: Option<Arrival>,
    /// `kind = "follower"` settings.
    #[serde(default)]
    pub follower: Option<Follower>,
    /// `kind = "slope"` settings.
    #[serde(default)]
    pub slope: Option<Slope>,
    /// `kind = "ghosts"` settings.
    #[serde(default)]
    pub ghosts: Option<Ghosts>,
    /// `kind = "cpma"` settings.
    #[serde(default)]
    pub cpma: Option<Cpma>,
    /// `kind = "platform"` settings.
    #[serde(default)]
    pub platform: Option<Platform>,
    /// `kind = "crouch"` settings.
    #[serde(default)]
    pub crouch: Option<Crouch>,
    /// `kind = "ladder"` settings.
    #[serde(default)]
    pub ladder: Option<Ladder>,
    /// `kind = "water"` settings.
    #[serde(default)]
    pub water: Option<Water>,
    /// `kind = "collide"` settings (required by that kind: which scenario).
    #[serde(default)]
    pub collide: Option<Collide>,
}

fn default_tick_hz() -> u32 {
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

fn tick_hz<'de, D: Deserializer<'de>>(d: D) -> Result<u32, D::Error> {
    let AnyNumber(v, text) = AnyNumber::deserialize(d)?;
    if v.fract() == 0.0 && (1.0..=1000.0).contains(&v) {
        Ok(v as u32)
    } else {
        Err(de::Error::custom(format!(
            "tick_hz must be a whole number between 1 and 1000, got {text}"
        )))
    }
}

/// `[ghosts] seed`: any whole number `0..=u64::MAX` (the range says what is wrong, not the
/// integer type).
fn opt_seed<'de, D: Deserializer<'de>>(d: D) -> Result<Option<u64>, D::Error> {
    struct V;
    fn out_of_range<E: de::Error>(v: &dyn std::fmt::Display) -> E {
        E::custom(format!(
            "seed must be a whole number between 0 and {}, got {v}",
            u64::MAX
        ))
    }
    impl de::Visitor<'_> for V {
        type Value = u64;
        fn expecting(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
            f.write_str("a whole number")
        }
        fn visit_i64<E: de::Error>(self, v: i64) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| out_of_range(&v))
        }
        fn visit_u64<E: de::Error>(self, v: u64) -> Result<u64, E> {
            Ok(v)
        }
        fn visit_i128<E: de::Error>(self, v: i128) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| out_of_range(&v))
        }
        fn visit_u128<E: de::Error>(self, v: u128) -> Result<u64, E> {
            u64::try_from(v).map_err(|_| out_of_range(&v))
        }
        fn visit_f64<E: de::Error>(self, v: f64) -> Result<u64, E> {
            Err(out_of_range(&shown(v)))
        }
    }
    d.deserialize_any(V).map(Some)
}

fn opt_seconds<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f64>, D::Error> {
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
fn shown(v: f64) -> String {
    if v == 0.0 || !v.is_finite() || (1e-6..1e9).contains(&v.abs()) {
        format!("{v}")
    } else {
        format!("{v:e}")
    }
}

/// The one rule for numbers in scenario files, plain fields and every element of a vector
/// alike: finite and within `[lo, hi]` (the field's documented range).
fn ranged<'de, D: Deserializer<'de>>(d: D, lo: f32, hi: f32, what: &str) -> Result<f32, D::Error> {
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
        fn $name<'de, D: Deserializer<'de>>(d: D) -> Result<f32, D::Error> {
            ranged(d, $lo, $hi, $what)
        }
        #[allow(dead_code)]
        fn $opt<'de, D: Deserializer<'de>>(d: D) -> Result<Option<f32>, D::Error> {
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
struct Point([f32; 2]);

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

fn point<'de, D: Deserializer<'de>>(d: D) -> Result<[f32; 2], D::Error> {
    Point::deserialize(d).map(|p| p.0)
}

/// A non-empty list of points `[[x, z], …]`.
fn targets<'de, D: Deserializer<'de>>(d: D) -> Result<Vec<[f32; 2]>, D::Error> {
    let v = Vec::<Point>::deserialize(d)?;
    if v.is_empty() {
        return Err(de::Error::custom(
            "targets must not be empty: give at least one [x, z] (or leave `targets` out for the \
             default three)",
        ));
    }
    Ok(v.into_iter().map(|p| p.0).collect())
}

/// Movement preset names (`hopkit::movement::MoveParams` constructors).
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum Preset {
    /// `MoveParams::seed()`: the seed article's code constants (metres; ground max 10, air 0.5).
    Seed,
    /// `MoveParams::seed_figure()`: the seed with the ground max of its figure 1 (7.7).
    #[default]
    SeedFigure,
    /// `MoveParams::quakeworld()` (Quake units; ground max 320, air wish cap 30).
    Quakeworld,
    /// `MoveParams::quake3()` (Quake units; air accelerate 1, no air cap).
    Q3,
    /// `MoveParams::source()` (Quake units; ground max 250, air wish cap 30).
    Source,
    /// `MoveParams::cpma()` (Quake units; Quake III with CPM's air step). The `optimal` pilot
    /// aims for the plain air step, not CPM's strafe-only one.
    Cpma,
}

/// How the bhop pilot steers.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum Pilot {
    /// Hold a strafe key and turn the view so that the wish direction sits at the optimal strafe
    /// angle to the velocity every tick (`hopkit::movement::optimal_strafe_cos`): the speed-gain
    /// oracle.
    #[default]
    Optimal,
    /// Hold one strafe key and turn at a constant `turn_rate_deg` towards it, switching sides on
    /// every jump (what a player does with A/D and the mouse).
    Keys,
}

/// `[cpma]`: a CPM player (`MoveParams::cpma()`) and a Quake III one (`MoveParams::quake3()`)
/// given the same keys and view, jump held (auto-hop) on flat ground, at the scenario's tick rate:
/// a run-up, then W only while the view turns (CPM's air control makes the velocity follow the
/// view; Quake III barely turns) until 3 s, then strafe keys only with the view along the CPM
/// player's velocity, switching sides on every jump (CPM's strafe acceleration turns sharply)
/// until 5.5 s, then S only (CPM's air stop acceleration brakes 2.5× harder in the air).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Cpma {
    /// Seconds of running forward on the ground before the first jump. Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub run_up: f32,
    /// View turn rate while W only is held, degrees per second (to the left). Default 90.
    #[serde(deserialize_with = "positive")]
    pub turn_rate_deg: f32,
}

impl Default for Cpma {
    fn default() -> Self {
        Cpma {
            run_up: 0.5,
            turn_rate_deg: 90.0,
        }
    }
}

/// `[platform]`: a character (`MoveParams::seed()`, metres) standing still on a turntable — a disc
/// of radius 6 at height 0.5 turning about the origin — carried round with it, then jumping
/// (straight up, no input) at `jump_at` seconds: it keeps the table's velocity at its feet and
/// flies off on the tangent onto the floor.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Platform {
    /// Turning rate of the table, degrees per second (positive turns left). Default 60.
    #[serde(deserialize_with = "degrees")]
    pub yaw_rate_deg: f32,
    /// Where the character stands, distance from the centre, world units (at most 6). Default 5.5.
    #[serde(deserialize_with = "non_negative")]
    pub radius: f32,
    /// When it jumps, seconds. Default 4.
    #[serde(deserialize_with = "non_negative")]
    pub jump_at: f32,
}

impl Default for Platform {
    fn default() -> Self {
        Platform {
            yaw_rate_deg: 60.0,
            radius: 5.5,
            jump_at: 4.0,
        }
    }
}

/// `[crouch]`: a Source character (`MoveParams::source()`, Quake units) runs along +X through a
/// 50-unit tunnel from x = 150 to 350 (crouching before it, letting go of the key just inside:
/// it stays crouched until it is out) and jumps at `jump_x` towards a 70-unit ledge at x = 640,
/// crouching in the air (the crouch-jump) if `crouch_jump`.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Crouch {
    /// Where it jumps, world units along X. Default 560.
    #[serde(deserialize_with = "size")]
    pub jump_x: f32,
    /// Crouch two ticks after the jump (reaching the ledge). Default true.
    pub crouch_jump: bool,
}

impl Default for Crouch {
    fn default() -> Self {
        Crouch {
            jump_x: 560.0,
            crouch_jump: true,
        }
    }
}

/// `[ladder]`: a QuakeWorld character walks to a ladder on a 160-unit wall, climbs it for
/// `climb_first` seconds, jumps off (the push-off), walks back and climbs over the top onto the
/// ledge.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Ladder {
    /// Seconds of climbing before the push-off jump. Default 0.4.
    #[serde(deserialize_with = "non_negative")]
    pub climb_first: f32,
}

impl Default for Ladder {
    fn default() -> Self {
        Ladder { climb_first: 0.4 }
    }
}

/// `[water]`: a QuakeWorld character walks down a ramp into a pool, swims on, sinks to the
/// floor, swims up with the jump key, then swims up and ahead to the edge and jumps out.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Water {
    /// Where the walk-in/swim phase stops (x, world units). Default 300.
    #[serde(deserialize_with = "coord")]
    pub stop_x: f32,
    /// Seconds with no keys (sinking). Default 1.5.
    #[serde(deserialize_with = "non_negative")]
    pub sink_for: f32,
    /// Seconds with the jump key held (swimming up at 100). Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub swim_up_for: f32,
    /// View pitch of the last phase (W towards the edge), degrees up. Default 20.
    #[serde(deserialize_with = "pitch")]
    pub pitch_deg: f32,
}

impl Default for Water {
    fn default() -> Self {
        Water {
            stop_x: 300.0,
            sink_for: 1.5,
            swim_up_for: 0.5,
            pitch_deg: 20.0,
        }
    }
}

/// `[collide]`: one of the collision scenarios of issue 34, exactly as
/// `hopkit_demo::collision` defines it (its levels of solids, starts, scripted inputs, presets and
/// tick rates: see `scenario::collide`). A file's `seconds` applies to every run of the scenario
/// (each runs that long at its own tick rate); `tick_hz` is refused, because the runs have their
/// own rates (`stairs` three of them).
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields)]
pub struct Collide {
    /// The scenario's name, one of `hopkit_demo::collision::SCENARIOS`.
    #[serde(deserialize_with = "collision_scenario")]
    pub scenario: String,
}

fn collision_scenario<'de, D: Deserializer<'de>>(d: D) -> Result<String, D::Error> {
    let name = String::deserialize(d)?;
    let known = hopkit_demo::collision::SCENARIOS;
    if known.contains(&name.as_str()) {
        Ok(name)
    } else {
        let list: Vec<String> = known.iter().map(|n| format!("`{n}`")).collect();
        Err(de::Error::custom(format!(
            "unknown collision scenario `{name}`, expected one of {}",
            list.join(", ")
        )))
    }
}

/// `[bhop]`: strafe-jumping from a standing start, jump held (auto-hop), on flat ground.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Bhop {
    /// Movement preset: `seed`, `seed-figure`, `quakeworld`, `q3`, `source`, `cpma`. Default
    /// `seed-figure`.
    pub preset: Preset,
    /// Pilot: `optimal` or `keys`. Default `optimal`.
    pub pilot: Pilot,
    /// Seconds of running forward on the ground before the first jump. Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub run_up: f32,
    /// `keys` pilot: view turn rate, degrees per second. Default 180.
    #[serde(deserialize_with = "positive")]
    pub turn_rate_deg: f32,
    /// Override `MoveParams::auto_hop` (jump again on landing while jump is held). Default: forced
    /// on (the pilot never releases the key).
    pub auto_hop: Option<bool>,
    /// Override `MoveParams::max_speed` (ground max speed), units/s.
    #[serde(deserialize_with = "opt_positive")]
    pub max_speed: Option<f32>,
    /// Override `MoveParams::accel` (ground acceleration).
    #[serde(deserialize_with = "opt_non_negative")]
    pub accel: Option<f32>,
    /// Override `MoveParams::air_max_speed` (air wish speed), units/s.
    #[serde(deserialize_with = "opt_positive")]
    pub air_max_speed: Option<f32>,
    /// Override `MoveParams::air_accel` (air acceleration).
    #[serde(deserialize_with = "opt_non_negative")]
    pub air_accel: Option<f32>,
    /// Override `MoveParams::air_wish_cap` (Quake's 30), units/s.
    #[serde(deserialize_with = "opt_positive")]
    pub air_wish_cap: Option<f32>,
    /// Override `MoveParams::friction`.
    #[serde(deserialize_with = "opt_non_negative")]
    pub friction: Option<f32>,
    /// Override `MoveParams::gravity`, units/s².
    #[serde(deserialize_with = "opt_non_negative")]
    pub gravity: Option<f32>,
    /// Override `MoveParams::jump_speed`, units/s.
    #[serde(deserialize_with = "opt_non_negative")]
    pub jump_speed: Option<f32>,
}

impl Default for Bhop {
    fn default() -> Self {
        Bhop {
            preset: Preset::SeedFigure,
            pilot: Pilot::Optimal,
            run_up: 0.5,
            turn_rate_deg: 180.0,
            auto_hop: None,
            max_speed: None,
            accel: None,
            air_max_speed: None,
            air_accel: None,
            air_wish_cap: None,
            friction: None,
            gravity: None,
            jump_speed: None,
        }
    }
}

/// `[arrival]`: a steering agent visiting targets in turn.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Arrival {
    /// Start position `[x, z]`, each within ±[`COORD_LIMIT`]. Default `[0, 0]`.
    #[serde(deserialize_with = "point")]
    pub start: [f32; 2],
    /// Targets `[[x, z], …]` (at least one, each coordinate within ±[`COORD_LIMIT`]), visited in
    /// order; the next one is taken when the agent has arrived. Default: three points around the
    /// arena.
    #[serde(deserialize_with = "targets")]
    pub targets: Vec<[f32; 2]>,
    /// Seconds to wait on arrival before taking the next target. Default 0.5.
    #[serde(deserialize_with = "non_negative")]
    pub dwell: f32,
    /// Top speed, units/s. Default 6.
    #[serde(deserialize_with = "positive")]
    pub max_speed: f32,
    /// Top acceleration, units/s². Default 12.
    #[serde(deserialize_with = "positive")]
    pub max_accel: f32,
}

impl Default for Arrival {
    fn default() -> Self {
        Arrival {
            start: [0.0, 0.0],
            targets: vec![[20.0, -15.0], [-18.0, -6.0], [4.0, 18.0]],
            dwell: 0.5,
            max_speed: 6.0,
            max_accel: 12.0,
        }
    }
}

/// Leader paths for `[follower]`.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "kebab-case")]
pub enum LeaderPath {
    /// A figure eight.
    #[default]
    Figure8,
    /// A circle.
    Circle,
    /// Zig-zag with sharp corners.
    Zigzag,
    /// A straight line with stops (walk 2 s, stand 1 s).
    StopAndGo,
}

/// `[follower]`: a companion following a scripted leader.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Follower {
    /// The leader's path. Default `figure8`.
    pub leader_path: LeaderPath,
    /// Leader speed, units/s. Default 5.
    #[serde(deserialize_with = "positive")]
    pub leader_speed: f32,
    /// Size of the path, units, up to [`COORD_LIMIT`]. Default 16.
    #[serde(deserialize_with = "size")]
    pub path_size: f32,
    /// Follower start offset from the leader `[x, z]`, each within ±[`COORD_LIMIT`]. Default
    /// `[0, 3]`.
    #[serde(deserialize_with = "point")]
    pub start_offset: [f32; 2],
}

impl Default for Follower {
    fn default() -> Self {
        Follower {
            leader_path: LeaderPath::Figure8,
            leader_speed: 5.0,
            path_size: 16.0,
            start_offset: [0.0, 3.0],
        }
    }
}

/// `[slope]`: a walker running a straight line across the demo level's ramps.
#[derive(Clone, Debug, Deserialize, PartialEq)]
#[serde(deny_unknown_fields, default)]
pub struct Slope {
    /// Start `[x, z]`, each within ±[`COORD_LIMIT`]. Default `[0, -24]` (runs over the 20° ramp
    /// along +X).
    #[serde(deserialize_with = "point")]
    pub start: [f32; 2],
    /// Walking direction in degrees, yaw convention (0 = −Z, 90 = −X). Default −90 (towards +X).
    #[serde(deserialize_with = "degrees")]
    pub heading_deg: f32,
    /// Walking speed, units/s. Default 5.
    #[serde(deserialize_with = "positive")]
    pub speed: f32,
}

impl Default for Slope {
    fn default() -> Self {
        Slope {
            start: [0.0, -24.0],
            heading_deg: -90.0,
            speed: 5.0,
        }
    }
}

/// `[ghosts]`: fighters replaying a recording.
#[derive(Clone, Debug, Deserialize, PartialEq, Default)]
#[serde(deny_unknown_fields, default)]
pub struct Ghosts {
    /// Recording file (relative to the scenario file); default: the bundled demo recording.
    pub recording: Option<String>,
    /// `formation` (default): the demo's leader and wingmen (`hopkit_demo::pilot::formation`); `fleet`: ghosts
    /// spread over the arena from random start frames (`hopkit_demo::pilot::fleet`).
    pub layout: GhostLayout,
    /// `fleet` only: seed of the random spawn, a whole number `0..=u64::MAX`. Default 2 (the
    /// demo's).
    #[serde(deserialize_with = "opt_seed")]
    pub seed: Option<u64>,
}

/// Ghost layouts.
#[derive(Clone, Copy, Debug, Default, Deserialize, PartialEq, Eq)]
#[serde(rename_all = "lowercase")]
pub enum GhostLayout {
    /// The demo formation.
    #[default]
    Formation,
    /// A random fleet.
    Fleet,
}

impl ScenarioFile {
    /// Simulated seconds (explicit or the kind's default; a `ghosts` scenario without `seconds`
    /// runs for its recording's length instead, see `scenario::ghosts`).
    pub fn seconds(&self) -> f64 {
        self.seconds.unwrap_or(match self.kind {
            Kind::Bhop => 15.0,
            _ => 8.0,
        })
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
