//! The whole stick pipeline in one plain struct: raw samples in, shaped sticks and button edges out.
//!
//! Every front end feeds [`RawSticks`] through [`StickPipeline::process`] once per simulation tick:
//! the firmware from its ADC, the host simulator and the demo scene from scripts, the C ABI from the
//! engine's gamepad, the WASM-4 cart via `hopkit_demo::gamepad_raw`.

use super::button::{ButtonMask, Buttons, DebounceParams};
use super::calibration::{sample_fraction, StickCalibration};
use super::shape::{shape, ShapeParams};
use super::wish::{look_rate, wish_from_stick, Wish};
use crate::hash::{StateHash, StateHasher};
use crate::math::{clamp, Vec2};

/// `adc_max` for scripted input ([`RawSticks::from_positions`]): 2¹⁵, even so mid-scale is an
/// exact count, a power of two so every count maps to an exact fraction; positions are quantised
/// to 1/16384.
pub const SCRIPT_ADC_MAX: u16 = 32768;

/// One tick of raw controller input, as read from the hardware. C layout (12 bytes).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct RawSticks {
    /// Left stick horizontal ADC count.
    pub left_x: u16,
    /// Left stick vertical ADC count.
    pub left_y: u16,
    /// Right stick horizontal ADC count.
    pub right_x: u16,
    /// Right stick vertical ADC count.
    pub right_y: u16,
    /// Full-scale count of the ADC (4095 for 12 bits, 65535 for 16). Counts above it clamp;
    /// 0 means "no ADC" and every axis reads 0.
    pub adc_max: u16,
    /// Raw button levels, bit `i` set = button `i` closed.
    pub buttons: u8,
}

impl RawSticks {
    /// Both sticks at mid-scale of `adc_max` (`adc_max / 2`, rounded down), no buttons.
    pub const fn centred(adc_max: u16) -> Self {
        let c = adc_max / 2;
        RawSticks {
            left_x: c,
            left_y: c,
            right_x: c,
            right_y: c,
            adc_max,
            buttons: 0,
        }
    }

    /// Raw counts for given stick positions: each component in `[−1, 1]` maps linearly onto
    /// `[0, adc_max]` (−1 → 0, 0 → mid-scale, +1 → `adc_max`, rounded to nearest; NaN → mid-scale).
    /// With [`StickCalibration::default`] (full range, not inverted) the pipeline reads the
    /// positions back up to one count. For scripts, tests and the demo scene: use
    /// [`SCRIPT_ADC_MAX`] so that 0 is exactly mid-scale (an odd `adc_max` such as 4095 has no
    /// integer mid-scale count, so "centred" reads ±1/4095 before the deadzone).
    pub fn from_positions(left: Vec2, right: Vec2, buttons: u8, adc_max: u16) -> Self {
        RawSticks {
            left_x: to_count(left.x, adc_max),
            left_y: to_count(left.y, adc_max),
            right_x: to_count(right.x, adc_max),
            right_y: to_count(right.y, adc_max),
            adc_max,
            buttons,
        }
    }
}

/// `[−1, 1]` → `[0, adc_max]` count, rounded to nearest without `round()` (integer truncation of a
/// non-negative value + 0.5).
fn to_count(v: f32, adc_max: u16) -> u16 {
    let v = if v.is_nan() { 0.0 } else { clamp(v, -1.0, 1.0) };
    let f = (v + 1.0) * 0.5 * adc_max as f32 + 0.5;
    let c = f as u32; // `as` saturates and f ∈ [0.5, adc_max + 0.5]
    if c > adc_max as u32 {
        adc_max
    } else {
        c as u16
    }
}

/// Output of one [`StickPipeline::process`] call. C layout.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct StickFrame {
    /// Shaped left (movement) stick: `x` = right, `y` = up/forward, length in `[0, 1]`.
    pub left: Vec2,
    /// Shaped right (look) stick, same convention.
    pub right: Vec2,
    /// Debounced button levels and edges (bit `i` = raw bit `i`).
    pub buttons: ButtonMask,
}

impl StickFrame {
    /// The seed's movement wish from the left stick ([`wish_from_stick`]).
    pub fn wish(&self) -> Wish {
        wish_from_stick(self.left)
    }

    /// View yaw rate in rad/s from the right stick ([`look_rate`]; right = negative yaw).
    pub fn look_rate(&self, max_rate_rad_per_s: f32) -> f32 {
        look_rate(self.right, max_rate_rad_per_s)
    }
}

/// Calibration, shaping and debouncing of a twin-stick controller with up to 8 buttons.
///
/// Plain data: the calibrations and params are public fields to configure; `buttons` is the only
/// per-tick state. [`Default`] suits any ADC resolution (full-range calibration, centre at
/// mid-scale, Y not inverted), [`ShapeParams::MOVE`] on the left, [`ShapeParams::look`] on the
/// right, [`DebounceParams::default`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StickPipeline {
    /// Left stick calibration. Default full range.
    pub left_cal: StickCalibration,
    /// Right stick calibration. Default full range.
    pub right_cal: StickCalibration,
    /// Left stick shaping. Default [`ShapeParams::MOVE`] (inner 0.15, outer 0.95, linear).
    pub left_shape: ShapeParams,
    /// Right stick shaping. Default [`ShapeParams::look`] (inner 0.15, outer 0.95, cubic 0.5).
    pub right_shape: ShapeParams,
    /// Button debounce. Default lock-out 1 tick.
    pub debounce: DebounceParams,
    /// Button debouncer state.
    pub buttons: Buttons,
}

impl Default for StickPipeline {
    fn default() -> Self {
        StickPipeline {
            left_cal: StickCalibration::default(),
            right_cal: StickCalibration::default(),
            left_shape: ShapeParams::MOVE,
            right_shape: ShapeParams::look(),
            debounce: DebounceParams::default(),
            buttons: Buttons::RELEASED,
        }
    }
}

impl StickPipeline {
    /// Pipeline for already clean digital input (d-pads, keyboards, WASM-4, scripted tests):
    /// default calibration, [`ShapeParams::passthrough`] on both sticks, no debouncing.
    pub fn digital() -> Self {
        StickPipeline {
            left_shape: ShapeParams::passthrough(),
            right_shape: ShapeParams::passthrough(),
            debounce: DebounceParams::none(),
            ..Self::default()
        }
    }

    /// Calibrate, shape and debounce one tick of raw input.
    pub fn process(&mut self, raw: &RawSticks) -> StickFrame {
        let left = self.left_cal.apply(raw.left_x, raw.left_y, raw.adc_max);
        let right = self.right_cal.apply(raw.right_x, raw.right_y, raw.adc_max);
        StickFrame {
            left: shape(left, &self.left_shape),
            right: shape(right, &self.right_shape),
            buttons: self.buttons.update(raw.buttons, &self.debounce),
        }
    }

    /// Capture the rest centre of all four axes as the mean of `rest` frames (sticks untouched,
    /// e.g. 16 frames at boot). Min/max are kept (widened if needed). Frames with `adc_max == 0`
    /// are skipped; returns `false` and changes nothing if none remain.
    pub fn capture_centres(&mut self, rest: &[RawSticks]) -> bool {
        let mut sum = [0.0f32; 4];
        let mut n = 0u32;
        for r in rest {
            let counts = [r.left_x, r.left_y, r.right_x, r.right_y];
            let mut f = [0.0f32; 4];
            let mut ok = true;
            for (dst, &c) in f.iter_mut().zip(counts.iter()) {
                match sample_fraction(c, r.adc_max) {
                    Some(v) => *dst = v,
                    None => ok = false,
                }
            }
            if ok {
                for (s, v) in sum.iter_mut().zip(f.iter()) {
                    *s += *v;
                }
                n += 1;
            }
        }
        if n == 0 {
            return false;
        }
        let [lx, ly, rx, ry] = sum;
        let axes = [
            (&mut self.left_cal.x, lx),
            (&mut self.left_cal.y, ly),
            (&mut self.right_cal.x, rx),
            (&mut self.right_cal.y, ry),
        ];
        for (cal, s) in axes {
            cal.set_centre(s / n as f32);
        }
        true
    }

    /// Start learning the range of all four axes (`min = max = centre`); then feed
    /// [`Self::learn_range`] while the user circles both sticks. Until an axis half spans
    /// [`super::MIN_HALF_SPAN`] it reads 0.
    pub fn begin_range_learning(&mut self) {
        self.left_cal.x.begin_range_learning();
        self.left_cal.y.begin_range_learning();
        self.right_cal.x.begin_range_learning();
        self.right_cal.y.begin_range_learning();
    }

    /// Widen all four axis ranges to include this frame's samples (`adc_max == 0` is ignored).
    pub fn learn_range(&mut self, raw: &RawSticks) {
        self.left_cal.x.learn(raw.left_x, raw.adc_max);
        self.left_cal.y.learn(raw.left_y, raw.adc_max);
        self.right_cal.x.learn(raw.right_x, raw.adc_max);
        self.right_cal.y.learn(raw.right_y, raw.adc_max);
    }
}

impl StateHash for StickPipeline {
    /// Feeds, in order: `left_cal`, `right_cal`, `left_shape`, `right_shape`, `debounce`,
    /// `buttons` (each field by field in declaration order).
    fn hash_state(&self, h: &mut StateHasher) {
        self.left_cal.hash_state(h);
        self.right_cal.hash_state(h);
        self.left_shape.hash_state(h);
        self.right_shape.hash_state(h);
        self.debounce.hash_state(h);
        self.buttons.hash_state(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn raw_sticks_is_twelve_bytes() {
        assert_eq!(core::mem::size_of::<RawSticks>(), 12);
        assert_eq!(core::mem::align_of::<RawSticks>(), 2);
    }

    #[test]
    fn centred_input_reads_zero() {
        let mut p = StickPipeline::default();
        let f = p.process(&RawSticks::centred(4095));
        assert_eq!(f.left, Vec2::ZERO);
        assert_eq!(f.right, Vec2::ZERO);
        assert_eq!(f.wish(), Wish::ZERO);
        assert_eq!(f.look_rate(3.0), 0.0);
    }

    #[test]
    fn full_push_reaches_rim_and_edges_fire() {
        let mut p = StickPipeline::default();
        let raw = RawSticks::from_positions(
            Vec2::new(0.0, 1.0),
            Vec2::new(1.0, 0.0),
            0b1,
            SCRIPT_ADC_MAX,
        );
        let f = p.process(&raw);
        assert_eq!(f.left, Vec2::new(0.0, 1.0));
        assert_eq!(f.right, Vec2::new(1.0, 0.0));
        let w = f.wish();
        assert_eq!((w.front, w.right, w.magnitude), (1.0, 0.0, 1.0));
        assert_eq!(f.look_rate(2.0), -2.0);
        assert!(f.buttons.just_pressed(0));
        let f = p.process(&raw);
        assert!(f.buttons.is_held(0) && !f.buttons.just_pressed(0));
    }

    #[test]
    fn capture_and_learn() {
        let mut p = StickPipeline::default();
        let rest = RawSticks {
            left_x: 1900,
            left_y: 2200,
            right_x: 2000,
            right_y: 2100,
            adc_max: 4095,
            buttons: 0,
        };
        assert!(p.capture_centres(&[rest; 4]));
        assert!(!p.capture_centres(&[]));
        assert!(!p.capture_centres(&[RawSticks::default()])); // adc_max 0 skipped
        assert!((p.left_cal.x.centre * 4095.0 - 1900.0).abs() < 0.01);
        assert!((p.right_cal.y.centre * 4095.0 - 2100.0).abs() < 0.01);
        assert!(p.left_cal.x.apply(1900, 4095).abs() < 1e-6);
        assert_eq!(p.process(&rest).left, Vec2::ZERO);
        p.begin_range_learning();
        let mut sweep = rest;
        for (x, y) in [(300, 2200), (3800, 2200), (1900, 250), (1900, 3900)] {
            sweep.left_x = x;
            sweep.left_y = y;
            p.learn_range(&sweep);
        }
        sweep.left_x = 3800;
        sweep.left_y = 2200;
        assert_eq!(p.process(&sweep).left, Vec2::new(1.0, 0.0));
    }

    #[test]
    fn hash_changes_with_state() {
        let mut p = StickPipeline::default();
        let h0 = p.state_hash();
        let mut raw = RawSticks::centred(4095);
        p.process(&raw);
        assert_eq!(p.state_hash(), h0);
        raw.buttons = 0b10;
        p.process(&raw);
        assert_ne!(p.state_hash(), h0);
    }

    #[test]
    fn from_positions_round_trips() {
        assert_eq!(to_count(-1.0, 4095), 0);
        assert_eq!(to_count(1.0, 4095), 4095);
        assert_eq!(to_count(0.0, 4095), 2048);
        assert_eq!(to_count(f32::NAN, 4095), 2048);
        assert_eq!(to_count(9.0, 0), 0);
        assert_eq!(to_count(0.0, 2), 1);
        assert_eq!(to_count(0.0, SCRIPT_ADC_MAX), 16384);
        // Scripted positions read back exactly through a passthrough pipeline.
        let mut p = StickPipeline::digital();
        let l = Vec2::new(0.5, -0.25);
        let r = Vec2::new(-0.75, 0.125);
        let f = p.process(&RawSticks::from_positions(l, r, 0, SCRIPT_ADC_MAX));
        assert_eq!((f.left, f.right), (l, r));
    }
}
