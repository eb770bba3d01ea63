//! Digital adapters for runtimes without analog sticks: keyboards (WASD), d-pads with a run
//! button, the WASM-4 one-byte gamepad, and a Playdate-style crank.
//!
//! Every stick vector here uses the stick convention of [`super`]: `x` = right, `y` = up/forward.
//!
//! # The seed's diagonal rule (seed 000)
//!
//! Opposite directions cancel (W+S = nothing, A+D = nothing); one remaining direction gives a
//! unit axis; two perpendicular ones give exactly `(1/√2, 1/√2)` (the `f32` constant
//! [`FRAC_1_SQRT_2`], not a computed normalisation). So W = `(front, right) = (1, 0)`,
//! W+D = `(1/√2, 1/√2)`, W+D+A = `(1, 0)`.
//!
//! # Which function does what
//!
//! | input | function | output |
//! |---|---|---|
//! | WASD / arrow keys | [`wish_from_keys`] | [`Wish`] with magnitude 1 (seed exact) |
//! | d-pad | [`dpad_direction`] | unit stick vector or zero |
//! | d-pad + run button | [`dpad_to_stick`], [`dpad_wish`] | walk 0.5 / run 1.0 magnitude |
//! | WASM-4 `GAMEPAD1` byte | [`wasm4_to_stick`], [`wasm4_buttons`], [`wasm4_to_raw`] | stick / button bits / [`RawSticks`] for [`super::StickPipeline`] |
//! | crank change (deg) | [`crank_yaw_delta`], [`crank_look_rate`] | yaw to add (rad) / yaw rate (rad/s): clockwise turns right |
//! | crank angle (deg) | [`crank_to_stick`] | unit stick direction: 0° = up, 90° = right |
//! | two crank angles | [`crank_change_deg`] | change wrapped into (−180°, 180°] |

use super::pipeline::RawSticks;
use super::wish::Wish;
use crate::math::{scalar, Vec2};
use core::f32::consts::FRAC_1_SQRT_2;

/// Four digital directions (d-pad, arrow keys or WASD). Opposite directions cancel.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct DPad {
    /// Up / forward (W).
    pub up: bool,
    /// Down / back (S).
    pub down: bool,
    /// Left (A).
    pub left: bool,
    /// Right (D).
    pub right: bool,
}

impl DPad {
    /// Nothing pressed.
    pub const NONE: DPad = DPad {
        up: false,
        down: false,
        left: false,
        right: false,
    };

    /// From WASD key states: W = up, A = left, S = down, D = right.
    pub const fn wasd(w: bool, a: bool, s: bool, d: bool) -> Self {
        DPad {
            up: w,
            down: s,
            left: a,
            right: d,
        }
    }

    /// `(right − left, up − down)`, each in {−1, 0, 1}.
    fn axes(self) -> (i8, i8) {
        (
            self.right as i8 - self.left as i8,
            self.up as i8 - self.down as i8,
        )
    }
}

/// Unit stick direction of a d-pad by the seed's diagonal rule (`x` = right, `y` = up), or zero.
pub fn dpad_direction(d: DPad) -> Vec2 {
    let (x, y) = d.axes();
    let s = if x != 0 && y != 0 { FRAC_1_SQRT_2 } else { 1.0 };
    Vec2::new(x as f32 * s, y as f32 * s)
}

/// The seed's wish for keys (WASD: use [`DPad::wasd`]): unit `(front, right)` by the diagonal rule,
/// magnitude 1, or [`Wish::ZERO`] when nothing (or only opposite keys) is held.
pub fn wish_from_keys(keys: DPad) -> Wish {
    let dir = dpad_direction(keys);
    if dir == Vec2::ZERO {
        return Wish::ZERO;
    }
    Wish {
        front: dir.y,
        right: dir.x,
        magnitude: 1.0,
    }
}

/// Stick magnitudes of a d-pad with a run button.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DPadParams {
    /// Stick length while walking (run button up), fraction of full speed in `[0, 1]`. Default
    /// `0.5`: half speed, a common walk/run ratio that stays well outside the default 0.15
    /// deadzone if the vector is shaped again. Clamped into `[0, 1]`, NaN → 0.
    pub walk: f32,
    /// Stick length while the run button is held, in `[0, 1]`. Default `1.0` (full speed).
    /// Clamped into `[0, 1]`, NaN → 0.
    pub run: f32,
}

impl Default for DPadParams {
    fn default() -> Self {
        DPadParams {
            walk: 0.5,
            run: 1.0,
        }
    }
}

impl DPadParams {
    /// Always full speed (the seed's keyboard behaviour): walk = run = 1.
    pub const ALWAYS_RUN: DPadParams = DPadParams {
        walk: 1.0,
        run: 1.0,
    };

    fn magnitude(&self, run: bool) -> f32 {
        crate::math::clamp(if run { self.run } else { self.walk }, 0.0, 1.0)
    }
}

/// Stick vector of a d-pad with a run button: [`dpad_direction`] × (`run` ? `p.run` : `p.walk`).
pub fn dpad_to_stick(d: DPad, run: bool, p: &DPadParams) -> Vec2 {
    dpad_direction(d) * p.magnitude(run)
}

/// Wish of a d-pad with a run button: seed-exact direction, magnitude `p.walk` or `p.run`
/// (zero wish if the direction is zero or the magnitude is 0).
pub fn dpad_wish(d: DPad, run: bool, p: &DPadParams) -> Wish {
    let w = wish_from_keys(d);
    let m = p.magnitude(run);
    if w.is_zero() || m.is_nan() || m <= 0.0 {
        return Wish::ZERO;
    }
    Wish { magnitude: m, ..w }
}

/// WASM-4 `BUTTON_1` bit (X key).
pub const W4_BUTTON_1: u8 = 1;
/// WASM-4 `BUTTON_2` bit (Z key).
pub const W4_BUTTON_2: u8 = 2;
/// WASM-4 `BUTTON_LEFT` bit.
pub const W4_LEFT: u8 = 16;
/// WASM-4 `BUTTON_RIGHT` bit.
pub const W4_RIGHT: u8 = 32;
/// WASM-4 `BUTTON_UP` bit.
pub const W4_UP: u8 = 64;
/// WASM-4 `BUTTON_DOWN` bit.
pub const W4_DOWN: u8 = 128;

/// D-pad of a WASM-4 gamepad byte.
pub fn wasm4_dpad(gamepad: u8) -> DPad {
    DPad {
        up: gamepad & W4_UP != 0,
        down: gamepad & W4_DOWN != 0,
        left: gamepad & W4_LEFT != 0,
        right: gamepad & W4_RIGHT != 0,
    }
}

/// Button bits of a WASM-4 gamepad byte in pipeline order: bit 0 = `BUTTON_1`, bit 1 = `BUTTON_2`
/// (the same positions WASM-4 uses; d-pad and unused bits cleared).
pub fn wasm4_buttons(gamepad: u8) -> u8 {
    gamepad & (W4_BUTTON_1 | W4_BUTTON_2)
}

/// Left-stick vector of a WASM-4 gamepad byte (full magnitude, seed diagonal rule).
pub fn wasm4_to_stick(gamepad: u8) -> Vec2 {
    dpad_direction(wasm4_dpad(gamepad))
}

/// A WASM-4 gamepad byte as [`RawSticks`] so a cart runs the same [`super::StickPipeline`] as
/// everything else: `adc_max` = 2, each left-stick axis 0 / 1 / 2 (min / centre / max), right
/// stick centred, buttons from [`wasm4_buttons`].
///
/// Through a pipeline with the default (full-range, not inverted) calibration, one direction
/// reads as a unit axis and a diagonal as the unit diagonal, with either the default or the
/// passthrough shaping.
pub fn wasm4_to_raw(gamepad: u8) -> RawSticks {
    dpad_to_raw(wasm4_dpad(gamepad), wasm4_buttons(gamepad))
}

/// A d-pad as [`RawSticks`] with `adc_max` = 2 (see [`wasm4_to_raw`]); `buttons` passed through.
pub fn dpad_to_raw(d: DPad, buttons: u8) -> RawSticks {
    let (x, y) = d.axes();
    RawSticks {
        left_x: (1 + x) as u16,
        left_y: (1 + y) as u16,
        right_x: 1,
        right_y: 1,
        adc_max: 2,
        buttons,
    }
}

/// Wrap degrees into `[0, 360)`; NaN/∞ → 0.
fn wrap_deg_360(a: f32) -> f32 {
    if !a.is_finite() {
        return 0.0;
    }
    let r = a - 360.0 * scalar::floor(a / 360.0);
    if (0.0..360.0).contains(&r) {
        r
    } else {
        0.0
    }
}

/// Unit stick direction pointed by a crank at `angle_deg` (Playdate convention: 0° = up,
/// increasing clockwise): `(sin a, cos a)`, so 0° = up `(0, 1)`, 90° = right `(1, 0)`,
/// 180° = down, 270° = left. Multiples of 90° are exact; other angles are unit to the backend's
/// `sin`/`cos` accuracy. NaN/∞ angles give up `(0, 1)`.
pub fn crank_to_stick(angle_deg: f32) -> Vec2 {
    let a = wrap_deg_360(angle_deg);
    if a == 0.0 {
        return Vec2::new(0.0, 1.0);
    } else if a == 90.0 {
        return Vec2::new(1.0, 0.0);
    } else if a == 180.0 {
        return Vec2::new(0.0, -1.0);
    } else if a == 270.0 {
        return Vec2::new(-1.0, 0.0);
    }
    let (s, c) = scalar::sin_cos(a * (core::f32::consts::PI / 180.0));
    Vec2::new(s, c)
}

/// Crank change from `prev_deg` to `now_deg`, wrapped into `(−180°, 180°]` (positive =
/// clockwise). Use it when the runtime gives absolute angles only (Playdate's `getCrankChange`
/// already returns this). NaN/∞ give 0.
pub fn crank_change_deg(prev_deg: f32, now_deg: f32) -> f32 {
    let d = wrap_deg_360(now_deg) - wrap_deg_360(prev_deg); // in (−360, 360)
    if d > 180.0 {
        d - 360.0
    } else if d <= -180.0 {
        d + 360.0
    } else {
        d
    }
}

/// Yaw to add this tick, in radians, for a crank change of `change_deg` (positive = clockwise):
/// `−change · π/180 · view_turns_per_crank_turn`. Clockwise turns the view right, which is
/// **negative** yaw in hopkit. With `view_turns_per_crank_turn` = 1 a full crank turn is a full
/// view turn. NaN/∞ inputs give 0.
pub fn crank_yaw_delta(change_deg: f32, view_turns_per_crank_turn: f32) -> f32 {
    let r = -change_deg * (core::f32::consts::PI / 180.0) * view_turns_per_crank_turn;
    if r.is_finite() && r != 0.0 {
        r
    } else {
        0.0
    }
}

/// Yaw rate in rad/s for a crank change of `change_deg` over `dt` seconds (same sign convention as
/// [`crank_yaw_delta`]: clockwise = negative = turn right), for code that integrates a rate like
/// [`super::look_rate`]. `dt ≤ 0`, NaN/∞ give 0.
pub fn crank_look_rate(change_deg: f32, dt: f32, view_turns_per_crank_turn: f32) -> f32 {
    if !dt.is_finite() || dt <= 0.0 {
        return 0.0;
    }
    let r = crank_yaw_delta(change_deg, view_turns_per_crank_turn) / dt;
    if r.is_finite() {
        r
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::stick::{wish_from_stick, StickPipeline};

    fn fr(w: Wish) -> (f32, f32, f32) {
        (w.front, w.right, w.magnitude)
    }

    #[test]
    fn seed_diagonal_rule_for_keys() {
        let h = FRAC_1_SQRT_2;
        // (w, a, s, d)
        assert_eq!(
            fr(wish_from_keys(DPad::wasd(true, false, false, false))),
            (1.0, 0.0, 1.0)
        );
        assert_eq!(
            fr(wish_from_keys(DPad::wasd(true, false, false, true))),
            (h, h, 1.0)
        );
        assert_eq!(
            fr(wish_from_keys(DPad::wasd(true, true, false, true))),
            (1.0, 0.0, 1.0)
        );
        assert_eq!(
            fr(wish_from_keys(DPad::wasd(false, true, true, false))),
            (-h, -h, 1.0)
        );
        assert_eq!(
            wish_from_keys(DPad::wasd(true, false, true, false)),
            Wish::ZERO
        );
        assert_eq!(
            wish_from_keys(DPad::wasd(true, true, true, true)),
            Wish::ZERO
        );
        assert_eq!(wish_from_keys(DPad::NONE), Wish::ZERO);
        // The stick path agrees bit for bit.
        for bits in 0..16u8 {
            let d = DPad::wasd(bits & 1 != 0, bits & 2 != 0, bits & 4 != 0, bits & 8 != 0);
            assert_eq!(
                wish_from_stick(dpad_direction(d)),
                wish_from_keys(d),
                "{d:?}"
            );
        }
    }

    #[test]
    fn dpad_walk_and_run() {
        let p = DPadParams::default();
        let d = DPad {
            up: true,
            right: true,
            ..DPad::NONE
        };
        let walk = dpad_to_stick(d, false, &p);
        assert!((walk.length() - 0.5).abs() < 1e-6);
        assert_eq!(walk.x, walk.y);
        let w = dpad_wish(d, false, &p);
        assert_eq!(fr(w), (FRAC_1_SQRT_2, FRAC_1_SQRT_2, 0.5));
        assert_eq!(dpad_wish(d, true, &p).magnitude, 1.0);
        assert_eq!(
            dpad_to_stick(
                DPad {
                    up: true,
                    ..DPad::NONE
                },
                true,
                &p
            ),
            Vec2::Y
        );
        let zero = DPadParams {
            walk: f32::NAN,
            run: 3.0,
        };
        assert_eq!(dpad_wish(d, false, &zero), Wish::ZERO);
        assert_eq!(dpad_wish(d, true, &zero).magnitude, 1.0);
    }

    #[test]
    fn wasm4_byte_decodes() {
        let g = W4_UP | W4_RIGHT | W4_BUTTON_1;
        assert_eq!(wasm4_to_stick(g), Vec2::new(FRAC_1_SQRT_2, FRAC_1_SQRT_2));
        assert_eq!(wasm4_buttons(g), 0b01);
        assert_eq!(wasm4_buttons(0xff), 0b11);
        assert_eq!(
            wasm4_to_stick(W4_LEFT | W4_RIGHT | W4_DOWN),
            Vec2::new(0.0, -1.0)
        );
        assert_eq!(wasm4_to_stick(W4_LEFT), Vec2::new(-1.0, 0.0));
        assert_eq!(wasm4_to_stick(0), Vec2::ZERO);
    }

    #[test]
    fn wasm4_through_the_pipeline() {
        for p in [StickPipeline::default(), StickPipeline::digital()] {
            for g in 0..=255u8 {
                let mut fresh = p; // new debouncer state per byte
                let f = fresh.process(&wasm4_to_raw(g));
                assert_eq!(f.left, wasm4_to_stick(g), "gamepad {g:#010b}");
                assert_eq!(f.right, Vec2::ZERO);
                assert_eq!(f.buttons.held, wasm4_buttons(g));
            }
        }
    }

    #[test]
    fn crank_directions() {
        assert_eq!(crank_to_stick(0.0), Vec2::new(0.0, 1.0));
        assert_eq!(crank_to_stick(90.0), Vec2::new(1.0, 0.0));
        assert_eq!(crank_to_stick(-90.0), Vec2::new(-1.0, 0.0));
        assert_eq!(crank_to_stick(540.0), Vec2::new(0.0, -1.0));
        assert_eq!(crank_to_stick(f32::NAN), Vec2::new(0.0, 1.0));
        let v = crank_to_stick(45.0);
        // Backend sin/cos accuracy: libm ≤ 1 ulp, micromath ≈ 1.2e-3.
        assert!((v.x - FRAC_1_SQRT_2).abs() < 2e-3 && (v.y - FRAC_1_SQRT_2).abs() < 2e-3);
        let v = crank_to_stick(1.0e30);
        assert!(v.is_finite() && (v.length() - 1.0).abs() < 3e-3);
        let v = crank_to_stick(-30.0);
        assert!((v.x + 0.5).abs() < 2e-3 && (v.y - 0.866_025_4).abs() < 2e-3);
    }

    #[test]
    fn crank_turns_right_when_clockwise() {
        assert!(crank_yaw_delta(10.0, 1.0) < 0.0);
        assert!((crank_yaw_delta(360.0, 1.0) + core::f32::consts::TAU).abs() < 1e-5);
        assert!((crank_yaw_delta(-90.0, 0.5) - core::f32::consts::FRAC_PI_4).abs() < 1e-6);
        assert_eq!(crank_yaw_delta(f32::NAN, 1.0), 0.0);
        assert!((crank_look_rate(6.0, 1.0 / 60.0, 1.0) + 6.2831855).abs() < 1e-3);
        assert_eq!(crank_look_rate(6.0, 0.0, 1.0), 0.0);
        assert_eq!(crank_look_rate(6.0, -1.0, 1.0), 0.0);
        assert_eq!(crank_look_rate(6.0, 1e-45, 1.0), 0.0); // overflow → 0
        assert_eq!(crank_change_deg(350.0, 10.0), 20.0);
        assert_eq!(crank_change_deg(10.0, 350.0), -20.0);
        assert_eq!(crank_change_deg(0.0, 180.0), 180.0);
        assert_eq!(crank_change_deg(180.0, 0.0), 180.0);
        assert_eq!(crank_change_deg(f32::NAN, 0.0), 0.0);
    }
}
