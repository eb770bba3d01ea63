//! Stick input: raw ADC samples → calibrated, dead-zoned stick vectors, debounced buttons, the
//! seed's wish vector, view yaw rates, and digital adapters for runtimes without analog sticks.
//!
//! # Example
//!
//! ```
//! use hopkit::stick::{RawSticks, StickPipeline};
//!
//! // A 12-bit ADC, sticks at rest at mid-scale; the left stick pushed fully up, one button held.
//! let mut pipeline = StickPipeline::default();
//! let raw = RawSticks {
//!     left_x: 2048, left_y: 4095, right_x: 2048, right_y: 2048,
//!     adc_max: 4095,
//!     buttons: 0b1,
//! };
//! let frame = pipeline.process(&raw);
//! assert_eq!(frame.right.length(), 0.0); // inside the deadzone: exactly zero
//! assert!((frame.left.y - 1.0).abs() < 1e-6); // full deflection up
//! let wish = frame.wish(); // the seed's (front, right) wish: straight ahead
//! assert!((wish.front_right().x - 1.0).abs() < 1e-6);
//! assert!(frame.buttons.held & 1 != 0);
//! ```
//!
//! # Pipeline
//!
//! ```text
//! RawSticks (u16 samples, adc_max, button bits)
//!   │  calibration::AxisCalibration   per axis: clamp, map [min,centre]→[−1,0] and [centre,max]→[0,1], invert
//!   │  shape::shape                   per stick (2-D): scaled radial deadzone, outer saturation, curve
//!   │  button::Buttons                per button: lock-out debounce → held / just_pressed / just_released
//!   ▼
//! StickFrame { left, right, buttons }
//!   │  wish::wish_from_stick(left)    → Wish { front, right, magnitude } for movement (seed 000)
//!   │  wish::look_rate(right, max)    → yaw rate in rad/s (right = negative yaw)
//! ```
//!
//! [`StickPipeline::process`] runs the top half in one call; every front end (firmware, host
//! simulator, C ABI, demo scene, WASM-4 cart via `hopkit_demo::gamepad_raw`) feeds [`RawSticks`]
//! through it.
//!
//! # Conventions
//!
//! - **Stick vectors** (`Vec2`, after calibration): `x` = right (+1 fully right), `y` = **up /
//!   forward** (+1 fully pushed away from the player). Many sticks read Y inverted (up = low ADC
//!   count); set [`AxisCalibration::invert`] on such axes so that up is `+y`.
//! - Calibrated components lie in `[−1, 1]` each; after [`shape()`] the vector length is in `[0, 1]`.
//! - **Wish** (seed 000): `(front, right)` with W only = `(1, 0)`, W+D = `(1/√2, 1/√2)`,
//!   W+D+A = `(1, 0)`. From a stick: up → front, right → right. See [`wish_from_stick`].
//! - **Look**: pushing the right stick right turns the view right, which is **negative** yaw in
//!   hopkit (positive yaw turns left). See [`look_rate`].
//!
//! Nothing here allocates or panics: ADC max 0, samples above ADC max, inverted or degenerate
//! calibrations, NaN/∞ parameters all have documented, finite results. Exactness (zero inside the
//! deadzone, exactly ±1 on an axis at the rim, the seed's exact `1/√2` diagonal) does not depend on
//! the scalar backend: comparisons use squared lengths, and with `micromath` (whose `sqrt` is only
//! about 6 % accurate) stick lengths are refined by Heron steps (see `shape`).

mod button;
mod calibration;
pub mod digital;
mod pipeline;
mod shape;
mod wish;

pub use button::{Button, ButtonEdges, ButtonMask, Buttons, DebounceParams, MAX_BUTTONS};
pub use calibration::{AxisCalibration, StickCalibration, MIN_HALF_SPAN};
pub use pipeline::{RawSticks, StickFrame, StickPipeline, SCRIPT_ADC_MAX};
pub use shape::{shape, shaped_length, ShapeParams};
pub use wish::{look_rate, wish_from_stick, Wish, RIM_EPSILON_SQ};
