//! Per-axis calibration: raw ADC sample → axis value in `[−1, 1]`.
//!
//! A sample is first turned into a **full-scale fraction** `f = min(sample, adc_max) / adc_max`
//! (0 = ADC zero, 1 = ADC max), so the same calibration works whatever the ADC resolution. The
//! calibration stores `min`, `centre` and `max` as such fractions and maps each half separately:
//!
//! ```text
//! f ≤ min          → −1            (clamped)
//! min ≤ f ≤ centre → (f − centre) / (centre − min)   ∈ [−1, 0]
//! centre ≤ f ≤ max → (f − centre) / (max − centre)   ∈ [0, 1]
//! f ≥ max          → +1            (clamped)
//! ```
//!
//! The centre of a real stick is rarely mid-scale (a 12-bit stick may rest at 1980 and span
//! 310..3890), so one linear map over the whole range would leave an offset at rest and reach ±1
//! unevenly; two half-maps put rest at exactly 0 and both ends at exactly ±1.
//!
//! Degenerate calibrations never divide by zero: a half narrower than [`MIN_HALF_SPAN`] (or with
//! NaN/∞ ends, or `min > centre`, `max < centre`) reads 0 for every sample on that side.
//! `adc_max == 0` means "no ADC": the axis reads 0.

use crate::hash::{StateHash, StateHasher};
use crate::math::{clamp, Vec2};

/// Narrowest usable calibration half, as a full-scale fraction (1 % ≈ 41 counts of a 12-bit ADC).
///
/// A half (`centre − min` or `max − centre`) below this reads 0 instead of amplifying ADC noise
/// to full deflection — e.g. right after [`AxisCalibration::begin_range_learning`] before the
/// stick was swept.
pub const MIN_HALF_SPAN: f32 = 0.01;

/// Full-scale fraction of a sample: `min(sample, adc_max) / adc_max`, or `None` if `adc_max == 0`.
///
/// Both operands are exact in `f32` (u16 < 2²⁴) and IEEE division is correctly rounded, so the
/// result is bit-identical on every platform.
#[inline]
pub(crate) fn sample_fraction(sample: u16, adc_max: u16) -> Option<f32> {
    if adc_max == 0 {
        return None;
    }
    let s = if sample > adc_max { adc_max } else { sample };
    Some(s as f32 / adc_max as f32)
}

/// Calibration of one stick axis. All positions are full-scale fractions in `[0, 1]`.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct AxisCalibration {
    /// Fraction of full scale read at full deflection towards −1. Default `0.0` (ADC zero).
    pub min: f32,
    /// Fraction of full scale read at rest (maps to 0). Default `0.5` (mid-scale); capture the real
    /// one at boot with [`AxisCalibration::capture_centre`].
    pub centre: f32,
    /// Fraction of full scale read at full deflection towards +1. Default `1.0` (ADC max).
    pub max: f32,
    /// Negate the output (for axes whose ADC count falls when the stick moves up/right).
    /// Default `false`.
    pub invert: bool,
}

impl Default for AxisCalibration {
    fn default() -> Self {
        Self::FULL_RANGE
    }
}

impl AxisCalibration {
    /// Uncalibrated full range: min 0, centre 0.5, max 1, not inverted.
    pub const FULL_RANGE: AxisCalibration = AxisCalibration {
        min: 0.0,
        centre: 0.5,
        max: 1.0,
        invert: false,
    };

    /// Calibration from ADC counts (e.g. measured 310 / 1980 / 3890 of a 12-bit ADC, `adc_max`
    /// 4095). Counts above `adc_max` are clamped; `adc_max == 0` gives [`Self::FULL_RANGE`].
    pub fn from_counts(min: u16, centre: u16, max: u16, adc_max: u16, invert: bool) -> Self {
        match (
            sample_fraction(min, adc_max),
            sample_fraction(centre, adc_max),
            sample_fraction(max, adc_max),
        ) {
            (Some(min), Some(centre), Some(max)) => AxisCalibration {
                min,
                centre,
                max,
                invert,
            },
            _ => AxisCalibration {
                invert,
                ..Self::FULL_RANGE
            },
        }
    }

    /// Full-range calibration whose centre is the mean of `samples` taken with the stick at rest
    /// (a few, e.g. 8–32, at boot). Min/max stay at 0 and 1 until configured or learned.
    ///
    /// An empty slice or `adc_max == 0` keeps the centre at 0.5.
    pub fn capture_centre(samples: &[u16], adc_max: u16) -> Self {
        let mut cal = Self::FULL_RANGE;
        cal.recentre(samples, adc_max);
        cal
    }

    /// Replace the centre by the mean of rest `samples`, keeping min/max (widened if needed so
    /// that `min ≤ centre ≤ max`). Returns `false` (and changes nothing) for an empty slice or
    /// `adc_max == 0`.
    ///
    /// The mean is a sequential `f32` sum of fractions divided by the count: deterministic.
    pub fn recentre(&mut self, samples: &[u16], adc_max: u16) -> bool {
        let mut sum = 0.0f32;
        let mut n = 0u32;
        for &s in samples {
            if let Some(f) = sample_fraction(s, adc_max) {
                sum += f;
                n += 1;
            }
        }
        if n == 0 {
            return false;
        }
        self.set_centre(sum / n as f32);
        true
    }

    /// Set the centre to a full-scale fraction (clamped into `[0, 1]`; NaN is ignored), widening
    /// min/max if needed so that `min ≤ centre ≤ max`.
    pub fn set_centre(&mut self, centre: f32) {
        if centre.is_nan() {
            return;
        }
        let centre = clamp(centre, 0.0, 1.0);
        self.centre = centre;
        self.min = self.min.min(centre);
        self.max = self.max.max(centre);
    }

    /// Start learning the range: `min = max = centre`. Feed samples with [`Self::learn`] while the
    /// user sweeps the stick round its gate; until each half spans [`MIN_HALF_SPAN`] it reads 0.
    pub fn begin_range_learning(&mut self) {
        self.min = self.centre;
        self.max = self.centre;
    }

    /// Widen min/max to include `sample`. `adc_max == 0` is ignored.
    pub fn learn(&mut self, sample: u16, adc_max: u16) {
        if let Some(f) = sample_fraction(sample, adc_max) {
            self.min = self.min.min(f);
            self.max = self.max.max(f);
        }
    }

    /// Replace NaN/∞ positions by the [`Self::FULL_RANGE`] ones, clamp into `[0, 1]`, and order
    /// them so that `min ≤ centre ≤ max`.
    pub fn sanitized(self) -> Self {
        let fix = |v: f32, d: f32| if v.is_finite() { clamp(v, 0.0, 1.0) } else { d };
        let centre = fix(self.centre, 0.5);
        AxisCalibration {
            min: fix(self.min, 0.0).min(centre),
            centre,
            max: fix(self.max, 1.0).max(centre),
            invert: self.invert,
        }
    }

    /// Axis value in `[−1, 1]` for a raw `sample` of an ADC whose full scale is `adc_max`.
    ///
    /// Samples above `adc_max` count as `adc_max`; samples beyond min/max clamp to ∓1; degenerate
    /// halves read 0; `adc_max == 0` reads 0. Never NaN.
    pub fn apply(&self, sample: u16, adc_max: u16) -> f32 {
        match sample_fraction(sample, adc_max) {
            Some(f) => self.apply_fraction(f),
            None => 0.0,
        }
    }

    /// Axis value in `[−1, 1]` for a full-scale fraction `f` (NaN reads 0).
    pub fn apply_fraction(&self, f: f32) -> f32 {
        if f.is_nan() {
            return 0.0;
        }
        let v = if f >= self.centre {
            half_map(f - self.centre, self.max - self.centre)
        } else {
            -half_map(self.centre - f, self.centre - self.min)
        };
        if self.invert {
            -v
        } else {
            v
        }
    }
}

/// `offset / span` clamped to `[0, 1]`; 0 when the span is narrower than [`MIN_HALF_SPAN`] or
/// not finite (NaN fails every comparison and lands on 0).
#[inline]
fn half_map(offset: f32, span: f32) -> f32 {
    if span >= MIN_HALF_SPAN && span.is_finite() {
        clamp(offset / span, 0.0, 1.0)
    } else {
        0.0
    }
}

impl StateHash for AxisCalibration {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_f32(self.min);
        h.write_f32(self.centre);
        h.write_f32(self.max);
        h.write_bool(self.invert);
    }
}

/// Calibration of a two-axis stick. After [`Self::apply`], `x` = right, `y` = up/forward.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StickCalibration {
    /// Horizontal axis (+1 = right). Default [`AxisCalibration::FULL_RANGE`].
    pub x: AxisCalibration,
    /// Vertical axis (+1 = up/forward). Default [`AxisCalibration::FULL_RANGE`], not inverted —
    /// set `y.invert` for sticks whose count falls when pushed up.
    pub y: AxisCalibration,
}

impl StickCalibration {
    /// Full range on both axes, Y inverted (for the common wiring where up reads a low count).
    pub const FULL_RANGE_Y_INVERTED: StickCalibration = StickCalibration {
        x: AxisCalibration::FULL_RANGE,
        y: AxisCalibration {
            invert: true,
            ..AxisCalibration::FULL_RANGE
        },
    };

    /// Calibrated stick vector with components in `[−1, 1]` (a square; [`super::shape()`] makes it
    /// round). Never NaN.
    pub fn apply(&self, raw_x: u16, raw_y: u16, adc_max: u16) -> Vec2 {
        Vec2::new(self.x.apply(raw_x, adc_max), self.y.apply(raw_y, adc_max))
    }

    /// Both axes [`AxisCalibration::sanitized`].
    pub fn sanitized(self) -> Self {
        StickCalibration {
            x: self.x.sanitized(),
            y: self.y.sanitized(),
        }
    }
}

impl StateHash for StickCalibration {
    fn hash_state(&self, h: &mut StateHasher) {
        self.x.hash_state(h);
        self.y.hash_state(h);
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    const ADC: u16 = 4095;

    /// Real-looking 12-bit stick: rest at 1980 (not 2047.5), travel 310..3890.
    fn off_centre() -> AxisCalibration {
        AxisCalibration::from_counts(310, 1980, 3890, ADC, false)
    }

    #[test]
    fn halves_map_separately_with_off_centre_rest() {
        let c = off_centre();
        assert_eq!(c.apply(1980, ADC), 0.0);
        assert_eq!(c.apply(3890, ADC), 1.0);
        assert_eq!(c.apply(310, ADC), -1.0);
        // Halfway along each half is ±0.5 although the halves differ in length (1670 vs 1910).
        assert!((c.apply(1145, ADC) + 0.5).abs() < 1e-3);
        assert!((c.apply(2935, ADC) - 0.5).abs() < 1e-3);
        // A single linear map over 310..3890 (centre 2100) would read −0.067 at rest.
        let naive = AxisCalibration::from_counts(310, 2100, 3890, ADC, false);
        assert!(naive.apply(1980, ADC) < -0.06);
    }

    #[test]
    fn out_of_range_samples_clamp() {
        let c = off_centre();
        assert_eq!(c.apply(0, ADC), -1.0);
        assert_eq!(c.apply(4000, ADC), 1.0);
        assert_eq!(c.apply(u16::MAX, ADC), 1.0); // above ADC max
        assert_eq!(c.apply(u16::MAX, 1023), 1.0);
        assert_eq!(c.apply(2000, 0), 0.0); // no ADC
    }

    #[test]
    fn inversion_negates() {
        let mut c = off_centre();
        c.invert = true;
        assert_eq!(c.apply(3890, ADC), -1.0);
        assert_eq!(c.apply(310, ADC), 1.0);
    }

    #[test]
    fn degenerate_calibrations_read_zero_on_that_side() {
        let c = AxisCalibration::from_counts(2000, 2000, 4000, ADC, false);
        assert_eq!(c.apply(0, ADC), 0.0);
        assert_eq!(c.apply(4000, ADC), 1.0);
        let c = AxisCalibration::from_counts(0, 2000, 2000, ADC, false);
        assert_eq!(c.apply(4095, ADC), 0.0);
        assert_eq!(c.apply(0, ADC), -1.0);
        // Unordered and NaN calibrations: finite, within [−1, 1].
        let bad = [
            AxisCalibration {
                min: 0.9,
                centre: 0.5,
                max: 0.1,
                invert: false,
            },
            AxisCalibration {
                min: f32::NAN,
                centre: f32::NAN,
                max: f32::INFINITY,
                invert: true,
            },
            AxisCalibration {
                min: f32::NEG_INFINITY,
                centre: f32::INFINITY,
                max: f32::NAN,
                invert: false,
            },
        ];
        for c in bad {
            for s in [0u16, 1000, 2048, 4095, u16::MAX] {
                let v = c.apply(s, ADC);
                assert!(v.is_finite() && (-1.0..=1.0).contains(&v), "{c:?} {s} {v}");
            }
        }
        // Learning narrower than MIN_HALF_SPAN does not amplify noise.
        let mut c = AxisCalibration::capture_centre(&[2048], ADC);
        c.begin_range_learning();
        c.learn(2050, ADC);
        assert_eq!(c.apply(2050, ADC), 0.0);
    }

    #[test]
    fn capture_centre_averages_rest_samples() {
        let c = AxisCalibration::capture_centre(&[1978, 1982, 1980, 1980], ADC);
        assert!((c.centre * 4095.0 - 1980.0).abs() < 0.01);
        assert_eq!((c.min, c.max), (0.0, 1.0));
        assert!(c.apply(1980, ADC).abs() < 1e-6);
        assert_eq!(AxisCalibration::capture_centre(&[], ADC).centre, 0.5);
        assert_eq!(AxisCalibration::capture_centre(&[7], 0).centre, 0.5);
        // Recentre keeps min ≤ centre ≤ max.
        let mut c = AxisCalibration::from_counts(1000, 2000, 3000, ADC, false);
        assert!(c.recentre(&[3500], ADC));
        assert!(c.min <= c.centre && c.centre <= c.max);
    }

    #[test]
    fn learning_widens_range() {
        let mut c = AxisCalibration::capture_centre(&[2048; 8], ADC);
        c.begin_range_learning();
        for s in [2048, 3000, 3800, 1200, 400, 2100] {
            c.learn(s, ADC);
        }
        assert_eq!(c.apply(3800, ADC), 1.0);
        assert_eq!(c.apply(400, ADC), -1.0);
        assert!(c.apply(3000, ADC) > 0.5);
    }

    #[test]
    fn sanitized_orders_and_fills() {
        let c = AxisCalibration {
            min: f32::NAN,
            centre: 2.0,
            max: -1.0,
            invert: true,
        }
        .sanitized();
        assert_eq!((c.min, c.centre, c.max, c.invert), (0.0, 1.0, 1.0, true));
    }

    #[test]
    fn stick_calibration_y_inverted_preset() {
        let s = StickCalibration::FULL_RANGE_Y_INVERTED;
        let v = s.apply(4095, 0, ADC);
        assert_eq!((v.x, v.y), (1.0, 1.0));
    }
}
