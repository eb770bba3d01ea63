//! Integration tests of `hopkit::stick`: raw samples through the whole pipeline, the seed's
//! diagonal rule on every digital adapter, and property tests over arbitrary raw input.

use core::f32::consts::FRAC_1_SQRT_2;
use hopkit::hash::StateHash;
use hopkit::math::Vec2;
use hopkit::stick::digital::{
    dpad_direction, dpad_to_raw, dpad_wish, wasm4_to_raw, wish_from_keys, DPad, DPadParams,
    W4_BUTTON_2, W4_DOWN, W4_LEFT, W4_RIGHT, W4_UP,
};
use hopkit::stick::{
    shape, wish_from_stick, AxisCalibration, DebounceParams, RawSticks, ShapeParams,
    StickCalibration, StickPipeline, Wish, SCRIPT_ADC_MAX,
};
use proptest::prelude::*;

const ADC: u16 = 4095;

/// Exact-enough length measured in f64, independent of hopkit's scalar backend (micromath's
/// `sqrt` is only ~6 % accurate, which would make the measurement, not the pipeline, wrong).
fn len(v: Vec2) -> f32 {
    let (x, y) = (v.x as f64, v.y as f64);
    (x * x + y * y).sqrt() as f32
}

fn raw_left(x: u16, y: u16) -> RawSticks {
    RawSticks {
        left_x: x,
        left_y: y,
        right_x: ADC / 2,
        right_y: ADC / 2,
        adc_max: ADC,
        buttons: 0,
    }
}

/// A pipeline with a measured, off-centre left stick (Y wired inverted) and no shaping.
fn measured_pipeline() -> StickPipeline {
    let mut p = StickPipeline::digital();
    p.left_cal = StickCalibration {
        x: AxisCalibration::from_counts(300, 1900, 3900, ADC, false),
        y: AxisCalibration::from_counts(200, 2300, 3800, ADC, true),
    };
    p
}

#[test]
fn off_centre_calibration_maps_each_half() {
    let mut p = measured_pipeline();
    assert_eq!(p.process(&raw_left(1900, 2300)).left, Vec2::ZERO);
    // x: right half 1900..3900 (2000 counts), left half 300..1900 (1600 counts).
    let f = p.process(&raw_left(2900, 2300)).left;
    assert!((f.x - 0.5).abs() < 1e-6, "{f:?}");
    let f = p.process(&raw_left(1100, 2300)).left;
    assert!((f.x + 0.5).abs() < 1e-6, "{f:?}");
    // y inverted: low count = up = +y.
    assert_eq!(p.process(&raw_left(1900, 200)).left, Vec2::new(0.0, 1.0));
    assert_eq!(p.process(&raw_left(1900, 3800)).left, Vec2::new(0.0, -1.0));
}

#[test]
fn out_of_range_and_degenerate_inputs_clamp() {
    let mut p = measured_pipeline();
    // Beyond the calibrated ends and above the ADC max: clamped to the rim.
    assert_eq!(p.process(&raw_left(4095, 2300)).left, Vec2::new(1.0, 0.0));
    assert_eq!(
        p.process(&raw_left(u16::MAX, 2300)).left,
        Vec2::new(1.0, 0.0)
    );
    assert_eq!(p.process(&raw_left(0, 2300)).left, Vec2::new(-1.0, 0.0));
    // adc_max 0: no ADC, everything reads zero.
    let f = p.process(&RawSticks {
        adc_max: 0,
        ..raw_left(4000, 100)
    });
    assert_eq!((f.left, f.right), (Vec2::ZERO, Vec2::ZERO));
    // Degenerate calibration (min == centre == max): reads zero, never NaN.
    p.left_cal.x = AxisCalibration::from_counts(2000, 2000, 2000, ADC, false);
    for s in [0, 1999, 2000, 2001, 4095, u16::MAX] {
        assert_eq!(p.process(&raw_left(s, 2300)).left, Vec2::ZERO);
    }
}

#[test]
fn deadzone_is_continuous_and_rim_is_exact() {
    let params = ShapeParams::MOVE;
    let d = Vec2::new(0.8, 0.6); // unit direction
    let before = shape(d * (params.inner - 1e-6), &params);
    let after = shape(d * (params.inner + 1e-6), &params);
    assert_eq!(before, Vec2::ZERO);
    assert!(len(after) < 1e-5, "jump at the inner edge: {after:?}");
    // Sweep the whole range: output length never jumps by more than the input step's scale.
    let mut prev = 0.0f32;
    for i in 0..=2000 {
        let l = len(shape(d * (i as f32 / 2000.0), &params));
        assert!((l - prev).abs() <= 1.0 / 2000.0 / 0.8 + 1e-5, "step {i}");
        prev = l;
    }
    // Rim: exactly 1 on the axes, 1 up to rounding (never above) elsewhere.
    assert_eq!(shape(Vec2::new(0.0, 0.95), &params), Vec2::new(0.0, 1.0));
    assert_eq!(shape(Vec2::new(-1.0, 0.0), &params), Vec2::new(-1.0, 0.0));
    let r = shape(d, &params);
    assert!(r.length_squared() <= 1.0 && len(r) > 1.0 - 1e-6);
}

#[test]
fn radial_deadzone_keeps_direction() {
    // A stick at 30° with x = 0.26, y = 0.15: a per-axis 0.15 deadzone would zero y (0°).
    let params = ShapeParams::MOVE;
    let v = Vec2::new(0.3 * 0.866_025_4, 0.3 * 0.5);
    let out = shape(v, &params);
    assert!(out.y > 0.0);
    let tan_30 = 0.577_350_26_f32;
    assert!((out.y / out.x - tan_30).abs() < 1e-5, "{out:?}");
}

#[test]
fn tiny_outputs_keep_direction() {
    // Found by proptest: a huge `outer` makes t ≈ 1e-23, whose squared length underflows.
    let params = ShapeParams {
        inner: 0.0,
        outer: 7.567_581e22,
        curve: f32::NEG_INFINITY,
    };
    let v = Vec2::new(-0.878_762_4, -0.901_489_5);
    let out = shape(v, &params);
    assert!(out.x < 0.0 && out.y < 0.0, "{out:?}");
    assert!((out.y / out.x - v.y / v.x).abs() < 1e-6);
}

#[test]
fn bouncy_button_gives_one_press_edge_through_the_pipeline() {
    let mut p = StickPipeline {
        debounce: DebounceParams::for_tick_rate(1000, 8), // 1 kHz polling, 8 ms lock-out
        ..StickPipeline::default()
    };
    let bounce = [1u8, 0, 1, 1, 0, 1, 0, 1];
    let mut raw = RawSticks::centred(ADC);
    let (mut presses, mut releases, mut first) = (0, 0, None);
    let seq = bounce
        .iter()
        .copied()
        .chain([1; 20])
        .chain(bounce.iter().map(|b| 1 - b))
        .chain([0; 20]);
    for (tick, b) in seq.enumerate() {
        raw.buttons = b << 3; // button 3
        let f = p.process(&raw);
        presses += f.buttons.just_pressed.count_ones();
        releases += f.buttons.just_released.count_ones();
        if f.buttons.just_pressed(3) && first.is_none() {
            first = Some(tick);
        }
    }
    assert_eq!((presses, releases), (1, 1));
    assert_eq!(first, Some(0), "press reported on the first closed sample");
}

#[test]
fn seed_diagonal_rule_for_keys_dpad_and_wasm4() {
    let h = FRAC_1_SQRT_2;
    let seed = |w: Wish| (w.front, w.right, w.magnitude);
    let keys = |w, a, s, d| wish_from_keys(DPad::wasd(w, a, s, d));
    assert_eq!(seed(keys(true, false, false, false)), (1.0, 0.0, 1.0)); // W
    assert_eq!(seed(keys(true, false, false, true)), (h, h, 1.0)); // W+D
    assert_eq!(seed(keys(true, true, false, true)), (1.0, 0.0, 1.0)); // W+D+A
    assert_eq!(keys(true, false, true, false), Wish::ZERO); // W+S cancel

    // d-pad: same directions, walk/run magnitudes.
    let up_right = DPad {
        up: true,
        right: true,
        ..DPad::NONE
    };
    assert_eq!(dpad_direction(up_right), Vec2::new(h, h));
    assert_eq!(
        seed(dpad_wish(up_right, false, &DPadParams::default())),
        (h, h, 0.5)
    );
    assert_eq!(
        seed(dpad_wish(up_right, true, &DPadParams::default())),
        (h, h, 1.0)
    );

    // WASM-4 through the standard pipeline gives the same wish bit for bit.
    for (g, want) in [
        (W4_UP, (1.0, 0.0, 1.0)),
        (W4_UP | W4_RIGHT, (h, h, 1.0)),
        (W4_UP | W4_RIGHT | W4_LEFT, (1.0, 0.0, 1.0)),
        (W4_DOWN | W4_LEFT, (-h, -h, 1.0)),
    ] {
        let mut p = StickPipeline::default();
        let f = p.process(&wasm4_to_raw(g | W4_BUTTON_2));
        assert_eq!(seed(f.wish()), want, "gamepad {g:#010b}");
        assert!(f.buttons.just_pressed(1));
    }
    // The generic d-pad → raw path agrees with the direct one.
    let mut p = StickPipeline::digital();
    assert_eq!(p.process(&dpad_to_raw(up_right, 0)).left, Vec2::new(h, h));
}

#[test]
fn analog_walk_keeps_magnitude_and_look_turns_right_negative() {
    let mut p = StickPipeline::default();
    let half =
        RawSticks::from_positions(Vec2::new(0.0, 0.55), Vec2::new(1.0, 0.0), 0, SCRIPT_ADC_MAX);
    let f = p.process(&half);
    let w = f.wish();
    assert_eq!((w.front, w.right), (1.0, 0.0));
    assert!((w.magnitude - 0.5).abs() < 1e-3, "{w:?}"); // (0.55 − 0.15) / 0.8
    assert!(f.look_rate(3.0) < 0.0);
    assert_eq!(f.look_rate(3.0), -3.0);
}

#[test]
fn same_inputs_same_hash() {
    let mut a = StickPipeline::default();
    let mut b = StickPipeline::default();
    let mut rng = hopkit::rng::Pcg32::seeded(42);
    for _ in 0..500 {
        let raw = RawSticks {
            left_x: rng.below(4096) as u16,
            left_y: rng.below(4096) as u16,
            right_x: rng.below(4096) as u16,
            right_y: rng.below(4096) as u16,
            adc_max: ADC,
            buttons: rng.next_u32() as u8,
        };
        assert_eq!(a.process(&raw), b.process(&raw));
        assert_eq!(a.state_hash(), b.state_hash());
    }
}

fn any_f32() -> impl Strategy<Value = f32> {
    prop_oneof![
        -2.0f32..2.0,
        Just(f32::NAN),
        Just(f32::INFINITY),
        Just(f32::NEG_INFINITY),
        Just(0.0),
        Just(1.0),
        any::<f32>(),
    ]
}

fn any_axis_cal() -> impl Strategy<Value = AxisCalibration> {
    (any_f32(), any_f32(), any_f32(), any::<bool>()).prop_map(|(min, centre, max, invert)| {
        AxisCalibration {
            min,
            centre,
            max,
            invert,
        }
    })
}

fn any_shape() -> impl Strategy<Value = ShapeParams> {
    (any_f32(), any_f32(), any_f32()).prop_map(|(inner, outer, curve)| ShapeParams {
        inner,
        outer,
        curve,
    })
}

fn assert_valid_stick(v: Vec2) {
    assert!(v.is_finite(), "{v:?}");
    assert!(v.length_squared() <= 1.0, "{v:?}");
    assert!(len(v) <= 1.0, "{v:?}");
}

fn assert_valid_wish(w: Wish) {
    assert!(w.front.is_finite() && w.right.is_finite() && w.magnitude.is_finite());
    assert!((0.0..=1.0).contains(&w.magnitude), "{w:?}");
    if w.magnitude > 0.0 {
        let l = len(Vec2::new(w.front, w.right));
        assert!((l - 1.0).abs() < 1e-5, "{w:?}");
    } else {
        assert_eq!(w, Wish::ZERO);
    }
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(256))]

    /// Any raw samples with any ADC max (including 0) give finite sticks of length ≤ 1.
    #[test]
    fn any_raw_input_is_finite_and_bounded(
        lx in any::<u16>(), ly in any::<u16>(), rx in any::<u16>(), ry in any::<u16>(),
        adc_max in prop_oneof![Just(0u16), Just(1), Just(2), Just(1023), Just(4095), any::<u16>()],
        buttons in any::<u8>(),
    ) {
        let raw = RawSticks { left_x: lx, left_y: ly, right_x: rx, right_y: ry, adc_max, buttons };
        for mut p in [StickPipeline::default(), StickPipeline::digital(), measured_pipeline()] {
            let f = p.process(&raw);
            assert_valid_stick(f.left);
            assert_valid_stick(f.right);
            assert_valid_wish(f.wish());
            prop_assert!(f.look_rate(4.0).is_finite());
            prop_assert_eq!(f.buttons.held & !buttons, 0);
        }
    }

    /// Arbitrary (NaN, ∞, unordered) calibrations and shaping params never produce bad numbers.
    #[test]
    fn any_calibration_and_params_are_safe(
        cal in (any_axis_cal(), any_axis_cal()),
        params in any_shape(),
        lx in any::<u16>(), ly in any::<u16>(),
        adc_max in any::<u16>(),
    ) {
        let mut p = StickPipeline {
            left_cal: StickCalibration { x: cal.0, y: cal.1 },
            left_shape: params,
            ..StickPipeline::default()
        };
        let f = p.process(&RawSticks { left_x: lx, left_y: ly, adc_max, ..RawSticks::default() });
        assert_valid_stick(f.left);
        assert_valid_wish(f.wish());
        let v = p.left_cal.apply(lx, ly, adc_max);
        prop_assert!((-1.0..=1.0).contains(&v.x) && (-1.0..=1.0).contains(&v.y));
    }

    /// Shaping any vector preserves its direction (when not zeroed) and bounds its length.
    #[test]
    fn shaping_preserves_direction(x in -1.5f32..1.5, y in -1.5f32..1.5, params in any_shape()) {
        let v = Vec2::new(x, y);
        let out = shape(v, &params);
        assert_valid_stick(out);
        if out != Vec2::ZERO {
            prop_assert!(out.dot(v) > 0.0);
            // Relative to |out|·|v| measured without squaring (tiny outputs would underflow),
            // plus what flushing a subnormal component to zero may take from each component
            // (`f32::MIN_POSITIVE`): e.g. out = (5.7e-38, -0.0) for v = (1.22, -0.17).
            let vs = v.x.abs() + v.y.abs();
            let scale = vs * (out.x.abs() + out.y.abs());
            prop_assert!(
                out.perp_dot(v).abs() <= 1e-5 * scale + f32::MIN_POSITIVE * vs,
                "{:?} → {:?}", v, out
            );
        }
        assert_valid_wish(wish_from_stick(out));
    }
}

/// The case proptest found: an output whose `y` is subnormal and flushed to `-0.0`.
#[test]
fn tiny_shaped_output_keeps_direction_within_the_flush() {
    let params = ShapeParams {
        inner: f32::NAN,
        outer: 1.897_279_3e37,
        curve: f32::NEG_INFINITY,
    };
    let v = Vec2::new(1.224_326_7, -0.166_137_65);
    let out = shape(v, &params);
    assert_valid_stick(out);
    if out != Vec2::ZERO {
        assert!(out.dot(v) > 0.0);
        let vs = v.x.abs() + v.y.abs();
        let scale = vs * (out.x.abs() + out.y.abs());
        assert!(
            out.perp_dot(v).abs() <= 1e-5 * scale + f32::MIN_POSITIVE * vs,
            "{out:?}"
        );
    }
}
