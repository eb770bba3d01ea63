//! Stick input: the raw-ADC pipeline (calibration, 2-D shaping, debounce), the seed's wish vector,
//! look rates, and digital adapters (d-pad with run button, WASD keys, WASM-4 gamepad byte, crank).
//! C view of `hopkit::stick`.

use crate::ptr::{self, assert_fits, finite, out, put};
use crate::status::{status, HkStatus, HK_ERR_INVALID_ARG};
use crate::types::HkVec2;
use hopkit::stick::digital::{self, DPad, DPadParams};
use hopkit::stick::{
    look_rate, wish_from_stick, AxisCalibration, ButtonMask, DebounceParams, RawSticks,
    ShapeParams, StickCalibration, StickFrame, StickPipeline, Wish,
};

/// One tick of raw controller input as read from the hardware (12 bytes, same layout as the
/// core's `RawSticks`). Counts above `adc_max` clamp; `adc_max == 0` means "no ADC" (axes read 0).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HkRawSticks {
    /// Left stick horizontal ADC count.
    pub left_x: u16,
    /// Left stick vertical ADC count.
    pub left_y: u16,
    /// Right stick horizontal ADC count.
    pub right_x: u16,
    /// Right stick vertical ADC count.
    pub right_y: u16,
    /// Full-scale count of the ADC (4095 for 12 bits).
    pub adc_max: u16,
    /// Raw button levels, bit `i` set = button `i` closed.
    pub buttons: u8,
}

impl From<HkRawSticks> for RawSticks {
    fn from(r: HkRawSticks) -> Self {
        RawSticks {
            left_x: r.left_x,
            left_y: r.left_y,
            right_x: r.right_x,
            right_y: r.right_y,
            adc_max: r.adc_max,
            buttons: r.buttons,
        }
    }
}
impl From<RawSticks> for HkRawSticks {
    fn from(r: RawSticks) -> Self {
        HkRawSticks {
            left_x: r.left_x,
            left_y: r.left_y,
            right_x: r.right_x,
            right_y: r.right_y,
            adc_max: r.adc_max,
            buttons: r.buttons,
        }
    }
}

/// Debounced button levels and edges, one bit per button (bit `i` = raw bit `i`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HkButtonMask {
    /// Buttons down (debounced).
    pub held: u8,
    /// Buttons that went down this tick.
    pub just_pressed: u8,
    /// Buttons that went up this tick.
    pub just_released: u8,
}

impl From<ButtonMask> for HkButtonMask {
    fn from(m: ButtonMask) -> Self {
        HkButtonMask {
            held: m.held,
            just_pressed: m.just_pressed,
            just_released: m.just_released,
        }
    }
}

/// Output of one pipeline tick.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkStickFrame {
    /// Shaped left (movement) stick: `x` = right, `y` = up/forward, length in [0, 1].
    pub left: HkVec2,
    /// Shaped right (look) stick, same convention.
    pub right: HkVec2,
    /// Debounced buttons.
    pub buttons: HkButtonMask,
}

impl From<StickFrame> for HkStickFrame {
    fn from(f: StickFrame) -> Self {
        HkStickFrame {
            left: f.left.into(),
            right: f.right.into(),
            buttons: f.buttons.into(),
        }
    }
}

/// Movement wish in the character's frame (seed 000): unit `(front, right)` direction and a
/// magnitude in [0, 1]. W = (1, 0, 1), W+D = (1/√2, 1/√2, 1), nothing = (0, 0, 0).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkWish {
    /// Forward component of the unit direction.
    pub front: f32,
    /// Rightward component of the unit direction.
    pub right: f32,
    /// Stick deflection in [0, 1] (0 when nothing is wished).
    pub magnitude: f32,
}

impl From<Wish> for HkWish {
    fn from(w: Wish) -> Self {
        HkWish {
            front: w.front,
            right: w.right,
            magnitude: w.magnitude,
        }
    }
}

impl HkWish {
    /// Validate: finite, magnitude in [0, 1], direction unit (±1e-3) or zero.
    pub(crate) fn to_core(self) -> Result<Wish, HkStatus> {
        let (f, r, m) = (
            finite(self.front)?,
            finite(self.right)?,
            finite(self.magnitude)?,
        );
        if !(0.0..=1.0).contains(&m) {
            return Err(HK_ERR_INVALID_ARG);
        }
        let len2 = f * f + r * r;
        if len2 != 0.0 && (len2 - 1.0).abs() > 2.0e-3 {
            return Err(HK_ERR_INVALID_ARG);
        }
        if len2 == 0.0 || m == 0.0 {
            return Ok(Wish::ZERO);
        }
        Ok(Wish {
            front: f,
            right: r,
            magnitude: m,
        })
    }
}

/// Calibration of one axis, positions as fractions of ADC full scale in [0, 1].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkAxisCalibration {
    /// Fraction read at full deflection towards −1. Default 0.
    pub min: f32,
    /// Fraction read at rest (maps to 0). Default 0.5.
    pub centre: f32,
    /// Fraction read at full deflection towards +1. Default 1.
    pub max: f32,
    /// 1 = negate the output (axes whose count falls when pushed up/right), 0 = not. Default 0.
    pub invert: u8,
}

/// Shaping of one stick (unitless fractions of full deflection).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkShapeParams {
    /// Radial deadzone radius, ≥ 0; lengths at or below read exactly 0. Default 0.15.
    pub inner: f32,
    /// Radius at and beyond which the length is exactly 1, ≥ 0. Default 0.95.
    pub outer: f32,
    /// Cubic blend in [0, 1] of `t + k·(t³ − t)`: 0 linear, 1 cube. Default 0 (move), 0.5 (look).
    pub curve: f32,
}

/// Configuration of a [`HkStickPipeline`] (everything but the button state).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkStickConfig {
    /// Left stick X (+1 = right).
    pub left_x: HkAxisCalibration,
    /// Left stick Y (+1 = up/forward).
    pub left_y: HkAxisCalibration,
    /// Right stick X.
    pub right_x: HkAxisCalibration,
    /// Right stick Y.
    pub right_y: HkAxisCalibration,
    /// Left (movement) stick shaping. Default inner 0.15, outer 0.95, curve 0.
    pub left_shape: HkShapeParams,
    /// Right (look) stick shaping. Default inner 0.15, outer 0.95, curve 0.5.
    pub right_shape: HkShapeParams,
    /// Samples ignored after each accepted button change, ticks. Default 1; 0 = no debounce.
    pub debounce_lockout_ticks: u8,
}

fn axis_to_c(a: AxisCalibration) -> HkAxisCalibration {
    HkAxisCalibration {
        min: a.min,
        centre: a.centre,
        max: a.max,
        invert: a.invert as u8,
    }
}

fn axis_from_c(a: HkAxisCalibration) -> Result<AxisCalibration, HkStatus> {
    let unit = |v: f32| -> Result<f32, HkStatus> {
        let v = finite(v)?;
        if (0.0..=1.0).contains(&v) {
            Ok(v)
        } else {
            Err(HK_ERR_INVALID_ARG)
        }
    };
    if a.invert > 1 {
        return Err(HK_ERR_INVALID_ARG);
    }
    Ok(AxisCalibration {
        min: unit(a.min)?,
        centre: unit(a.centre)?,
        max: unit(a.max)?,
        invert: a.invert == 1,
    })
}

fn shape_to_c(s: ShapeParams) -> HkShapeParams {
    HkShapeParams {
        inner: s.inner,
        outer: s.outer,
        curve: s.curve,
    }
}

fn shape_from_c(s: HkShapeParams) -> Result<ShapeParams, HkStatus> {
    let (inner, outer, curve) = (finite(s.inner)?, finite(s.outer)?, finite(s.curve)?);
    if inner < 0.0 || outer < 0.0 || !(0.0..=1.0).contains(&curve) {
        return Err(HK_ERR_INVALID_ARG);
    }
    Ok(ShapeParams {
        inner,
        outer,
        curve,
    })
}

fn config_to_c(p: &StickPipeline) -> HkStickConfig {
    HkStickConfig {
        left_x: axis_to_c(p.left_cal.x),
        left_y: axis_to_c(p.left_cal.y),
        right_x: axis_to_c(p.right_cal.x),
        right_y: axis_to_c(p.right_cal.y),
        left_shape: shape_to_c(p.left_shape),
        right_shape: shape_to_c(p.right_shape),
        debounce_lockout_ticks: p.debounce.lockout_ticks,
    }
}

/// Apply a validated C config to a pipeline (button state kept).
fn apply_config(p: &mut StickPipeline, c: &HkStickConfig) -> Result<(), HkStatus> {
    let left_cal = StickCalibration {
        x: axis_from_c(c.left_x)?,
        y: axis_from_c(c.left_y)?,
    };
    let right_cal = StickCalibration {
        x: axis_from_c(c.right_x)?,
        y: axis_from_c(c.right_y)?,
    };
    let left_shape = shape_from_c(c.left_shape)?;
    let right_shape = shape_from_c(c.right_shape)?;
    p.left_cal = left_cal;
    p.right_cal = right_cal;
    p.left_shape = left_shape;
    p.right_shape = right_shape;
    p.debounce = DebounceParams {
        lockout_ticks: c.debounce_lockout_ticks,
    };
    Ok(())
}

/// Size in bytes of [`HkStickPipeline`] storage.
pub const HK_STICK_PIPELINE_SIZE: usize = 160;
const STICK_TAG: u64 = u64::from_le_bytes(*b"hkStick1");
const _: () = assert_fits::<StickPipeline>(HK_STICK_PIPELINE_SIZE);

/// Opaque storage for a stick pipeline (calibration, shaping, debounce and button state). Caller
/// allocated (stack, static, or inside your own struct); initialise with
/// [`hk_stick_pipeline_init`]. May be copied byte-wise once initialised.
#[repr(C, align(8))]
pub struct HkStickPipeline {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_STICK_PIPELINE_SIZE],
}

/// Fill `out` with the default configuration: full-range calibration on every axis (not
/// inverted), movement shaping on the left, look shaping on the right, 1-tick debounce.
///
/// # Safety
/// `out` is NULL or points to writable memory for one `HkStickConfig`.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_config_default(out_cfg: *mut HkStickConfig) -> HkStatus {
    status((|| {
        let o = out(out_cfg)?;
        unsafe { put(o, config_to_c(&StickPipeline::default())) };
        Ok(())
    })())
}

/// Fill `out` with the configuration for clean digital input (d-pads, keyboards, WASM-4, scripts):
/// full-range calibration, no deadzone or curve, no debounce.
///
/// # Safety
/// `out` is NULL or points to writable memory for one `HkStickConfig`.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_config_digital(out_cfg: *mut HkStickConfig) -> HkStatus {
    status((|| {
        let o = out(out_cfg)?;
        unsafe { put(o, config_to_c(&StickPipeline::digital())) };
        Ok(())
    })())
}

/// Initialise `pipeline` with `config` (NULL = [`hk_stick_config_default`]), buttons released.
/// Config values must be finite; calibration fractions in [0, 1], `invert` 0 or 1, shaping radii
/// ≥ 0 and `curve` in [0, 1] (`HK_ERR_INVALID_ARG` otherwise, storage untouched).
///
/// # Safety
/// `pipeline` is NULL or points to writable `HkStickPipeline` storage; `config` is NULL or
/// points to a readable `HkStickConfig`.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_init(
    pipeline: *mut HkStickPipeline,
    config: *const HkStickConfig,
) -> HkStatus {
    status((|| {
        let mut p = StickPipeline::default();
        if !config.is_null() {
            let c = unsafe { ptr::read(config)? };
            apply_config(&mut p, &c)?;
        }
        unsafe { ptr::init(pipeline, STICK_TAG, p) }
    })())
}

/// Replace the configuration of an initialised pipeline (button state kept). Validation as in
/// [`hk_stick_pipeline_init`].
///
/// # Safety
/// `pipeline` is NULL or points to `HkStickPipeline` storage; `config` is NULL or points to a
/// readable `HkStickConfig`.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_set_config(
    pipeline: *mut HkStickPipeline,
    config: *const HkStickConfig,
) -> HkStatus {
    status((|| {
        let c = unsafe { ptr::read(config)? };
        let p: &mut StickPipeline = unsafe { ptr::get_mut(pipeline, STICK_TAG)? };
        let mut next = *p;
        apply_config(&mut next, &c)?;
        *p = next;
        Ok(())
    })())
}

/// Read the current configuration (including calibration learnt so far).
///
/// # Safety
/// `pipeline` is NULL or points to `HkStickPipeline` storage; `out_cfg` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_config(
    pipeline: *const HkStickPipeline,
    out_cfg: *mut HkStickConfig,
) -> HkStatus {
    status((|| {
        let o = out(out_cfg)?;
        let p: &StickPipeline = unsafe { ptr::get(pipeline, STICK_TAG)? };
        unsafe { put(o, config_to_c(p)) };
        Ok(())
    })())
}

/// Calibrate, shape and debounce one tick of raw input. Call once per simulation tick.
///
/// # Safety
/// `pipeline` is NULL or points to `HkStickPipeline` storage; `raw` NULL or readable;
/// `out_frame` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_process(
    pipeline: *mut HkStickPipeline,
    raw: *const HkRawSticks,
    out_frame: *mut HkStickFrame,
) -> HkStatus {
    status((|| {
        let r = unsafe { ptr::read(raw)? };
        let o = out(out_frame)?;
        let p: &mut StickPipeline = unsafe { ptr::get_mut(pipeline, STICK_TAG)? };
        let f = p.process(&r.into());
        unsafe { put(o, f.into()) };
        Ok(())
    })())
}

/// Most rest frames [`hk_stick_pipeline_capture_centres`] takes in one call.
pub const HK_MAX_REST_FRAMES: usize = 64;

/// Capture the rest centre of all four axes as the mean of `count` frames taken with the sticks
/// untouched (e.g. 16 at boot). `count` must be 1..=`HK_MAX_REST_FRAMES` (`HK_ERR_BAD_LENGTH`);
/// if every frame has `adc_max == 0` nothing changes and `HK_ERR_INVALID_ARG` is returned.
///
/// # Safety
/// `pipeline` is NULL or points to `HkStickPipeline` storage; `rest` is NULL or points to `count`
/// readable frames.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_capture_centres(
    pipeline: *mut HkStickPipeline,
    rest: *const HkRawSticks,
    count: usize,
) -> HkStatus {
    status((|| {
        if count == 0 || count > HK_MAX_REST_FRAMES {
            return Err(crate::status::HK_ERR_BAD_LENGTH);
        }
        let frames = unsafe { ptr::slice(rest, count)? };
        let p: &mut StickPipeline = unsafe { ptr::get_mut(pipeline, STICK_TAG)? };
        let mut buf = [RawSticks::default(); HK_MAX_REST_FRAMES];
        for (d, s) in buf.iter_mut().zip(frames.iter()) {
            *d = (*s).into();
        }
        if p.capture_centres(buf.get(..count).unwrap_or(&[])) {
            Ok(())
        } else {
            Err(HK_ERR_INVALID_ARG)
        }
    })())
}

/// Start learning the range of all four axes (min = max = centre); then call
/// [`hk_stick_pipeline_learn_range`] each tick while the user circles both sticks.
///
/// # Safety
/// `pipeline` is NULL or points to `HkStickPipeline` storage.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_begin_range_learning(
    pipeline: *mut HkStickPipeline,
) -> HkStatus {
    status((|| {
        let p: &mut StickPipeline = unsafe { ptr::get_mut(pipeline, STICK_TAG)? };
        p.begin_range_learning();
        Ok(())
    })())
}

/// Widen all four axis ranges to include this frame (`adc_max == 0` frames are ignored).
///
/// # Safety
/// `pipeline` is NULL or points to `HkStickPipeline` storage; `raw` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_learn_range(
    pipeline: *mut HkStickPipeline,
    raw: *const HkRawSticks,
) -> HkStatus {
    status((|| {
        let r = unsafe { ptr::read(raw)? };
        let p: &mut StickPipeline = unsafe { ptr::get_mut(pipeline, STICK_TAG)? };
        p.learn_range(&r.into());
        Ok(())
    })())
}

/// 64-bit state hash of the pipeline (configuration and button state), for replay checks.
///
/// # Safety
/// `pipeline` is NULL or points to `HkStickPipeline` storage; `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_stick_pipeline_state_hash(
    pipeline: *const HkStickPipeline,
    out_hash: *mut u64,
) -> HkStatus {
    status((|| {
        use hopkit::hash::StateHash;
        let o = out(out_hash)?;
        let p: &StickPipeline = unsafe { ptr::get(pipeline, STICK_TAG)? };
        unsafe { put(o, p.state_hash()) };
        Ok(())
    })())
}

/// The seed's wish from a shaped stick (`x` = right, `y` = up): direction = normalised
/// `(y, x)`, magnitude = min(length, 1). Components must be finite.
///
/// # Safety
/// `out_wish` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_wish_from_stick(stick: HkVec2, out_wish: *mut HkWish) -> HkStatus {
    status((|| {
        let s = stick.finite()?;
        let o = out(out_wish)?;
        unsafe { put(o, wish_from_stick(s).into()) };
        Ok(())
    })())
}

/// Unit planar world direction `(x, z)` of `wish` for a character facing `yaw` radians (zero wish
/// → zero). `wish` must be finite with magnitude in [0, 1] and a unit or zero direction.
///
/// # Safety
/// `wish` NULL or readable; `out_dir` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_wish_world_direction(
    wish: *const HkWish,
    yaw: f32,
    out_dir: *mut HkVec2,
) -> HkStatus {
    status((|| {
        let w = unsafe { ptr::read(wish)? }.to_core()?;
        let yaw = finite(yaw)?;
        let o = out(out_dir)?;
        unsafe { put(o, w.world_direction(yaw).into()) };
        Ok(())
    })())
}

/// View yaw rate in rad/s from a shaped right stick: `−x · max_rate` (pushing right turns right,
/// which is negative yaw). `max_rate_rad_per_s` must be finite and ≥ 0.
///
/// # Safety
/// `out_rate` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_look_rate(
    right_stick: HkVec2,
    max_rate_rad_per_s: f32,
    out_rate: *mut f32,
) -> HkStatus {
    status((|| {
        let s = right_stick.finite()?;
        let m = finite(max_rate_rad_per_s)?;
        if m < 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let o = out(out_rate)?;
        unsafe { put(o, look_rate(s, m)) };
        Ok(())
    })())
}

/// D-pad bit: up / forward (W).
pub const HK_DPAD_UP: u8 = 1;
/// D-pad bit: down / back (S).
pub const HK_DPAD_DOWN: u8 = 2;
/// D-pad bit: left (A).
pub const HK_DPAD_LEFT: u8 = 4;
/// D-pad bit: right (D).
pub const HK_DPAD_RIGHT: u8 = 8;
const DPAD_ALL: u8 = HK_DPAD_UP | HK_DPAD_DOWN | HK_DPAD_LEFT | HK_DPAD_RIGHT;

fn dpad(bits: u8) -> Result<DPad, HkStatus> {
    if bits & !DPAD_ALL != 0 {
        return Err(HK_ERR_INVALID_ARG);
    }
    Ok(DPad {
        up: bits & HK_DPAD_UP != 0,
        down: bits & HK_DPAD_DOWN != 0,
        left: bits & HK_DPAD_LEFT != 0,
        right: bits & HK_DPAD_RIGHT != 0,
    })
}

/// Stick magnitudes of a d-pad with a run button, each in [0, 1].
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkDPadParams {
    /// Stick length while walking (run button up). Default 0.5.
    pub walk: f32,
    /// Stick length while the run button is held. Default 1.0.
    pub run: f32,
}

fn dpad_params(p: *const HkDPadParams) -> Result<DPadParams, HkStatus> {
    let d = DPadParams::default();
    let c = unsafe {
        ptr::read_or(
            p,
            HkDPadParams {
                walk: d.walk,
                run: d.run,
            },
        )?
    };
    let (walk, run) = (finite(c.walk)?, finite(c.run)?);
    if !(0.0..=1.0).contains(&walk) || !(0.0..=1.0).contains(&run) {
        return Err(HK_ERR_INVALID_ARG);
    }
    Ok(DPadParams { walk, run })
}

/// Fill `out_params` with the defaults (walk 0.5, run 1.0).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_dpad_params_default(out_params: *mut HkDPadParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        let d = DPadParams::default();
        unsafe {
            put(
                o,
                HkDPadParams {
                    walk: d.walk,
                    run: d.run,
                },
            )
        };
        Ok(())
    })())
}

/// Unit stick direction of a d-pad (`HK_DPAD_*` bits) by the seed's diagonal rule: opposite
/// directions cancel, one direction is a unit axis, two give exactly (±1/√2, ±1/√2). Unknown bits
/// → `HK_ERR_INVALID_ARG`.
///
/// # Safety
/// `out_stick` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_dpad_direction(dpad_bits: u8, out_stick: *mut HkVec2) -> HkStatus {
    status((|| {
        let d = dpad(dpad_bits)?;
        let o = out(out_stick)?;
        unsafe { put(o, digital::dpad_direction(d).into()) };
        Ok(())
    })())
}

/// The seed's wish for keys (WASD as `HK_DPAD_*` bits): unit `(front, right)`, magnitude 1, or
/// zero when nothing or only opposite keys are held.
///
/// # Safety
/// `out_wish` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_wish_from_keys(dpad_bits: u8, out_wish: *mut HkWish) -> HkStatus {
    status((|| {
        let d = dpad(dpad_bits)?;
        let o = out(out_wish)?;
        unsafe { put(o, digital::wish_from_keys(d).into()) };
        Ok(())
    })())
}

/// Stick vector of a d-pad with a run button: direction × (`run` ? run : walk). `run` is 0 or 1;
/// `params` NULL = defaults.
///
/// # Safety
/// `params` NULL or readable; `out_stick` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_dpad_to_stick(
    dpad_bits: u8,
    run: u8,
    params: *const HkDPadParams,
    out_stick: *mut HkVec2,
) -> HkStatus {
    status((|| {
        let d = dpad(dpad_bits)?;
        if run > 1 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let p = dpad_params(params)?;
        let o = out(out_stick)?;
        unsafe { put(o, digital::dpad_to_stick(d, run == 1, &p).into()) };
        Ok(())
    })())
}

/// Wish of a d-pad with a run button: seed-exact direction, magnitude walk or run.
///
/// # Safety
/// `params` NULL or readable; `out_wish` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_dpad_wish(
    dpad_bits: u8,
    run: u8,
    params: *const HkDPadParams,
    out_wish: *mut HkWish,
) -> HkStatus {
    status((|| {
        let d = dpad(dpad_bits)?;
        if run > 1 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let p = dpad_params(params)?;
        let o = out(out_wish)?;
        unsafe { put(o, digital::dpad_wish(d, run == 1, &p).into()) };
        Ok(())
    })())
}

/// A d-pad (`HK_DPAD_*` bits) plus raw button bits as [`HkRawSticks`] with `adc_max` = 2, so it
/// runs through the same pipeline as an analog stick (use [`hk_stick_config_digital`]).
///
/// # Safety
/// `out_raw` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_dpad_to_raw(
    dpad_bits: u8,
    buttons: u8,
    out_raw: *mut HkRawSticks,
) -> HkStatus {
    status((|| {
        let d = dpad(dpad_bits)?;
        let o = out(out_raw)?;
        unsafe { put(o, digital::dpad_to_raw(d, buttons).into()) };
        Ok(())
    })())
}

/// WASM-4 `BUTTON_1` bit.
pub const HK_W4_BUTTON_1: u8 = 1;
/// WASM-4 `BUTTON_2` bit.
pub const HK_W4_BUTTON_2: u8 = 2;
/// WASM-4 `BUTTON_LEFT` bit.
pub const HK_W4_LEFT: u8 = 16;
/// WASM-4 `BUTTON_RIGHT` bit.
pub const HK_W4_RIGHT: u8 = 32;
/// WASM-4 `BUTTON_UP` bit.
pub const HK_W4_UP: u8 = 64;
/// WASM-4 `BUTTON_DOWN` bit.
pub const HK_W4_DOWN: u8 = 128;

/// Look-stick deflection `hk_wasm4_to_raw` adds while LEFT or RIGHT is held
/// (`hopkit_demo::gamepad::TURN_WITH_STRAFE`).
pub const HK_W4_TURN_WITH_STRAFE: f32 = 0.85;
const _: () = assert!(HK_W4_TURN_WITH_STRAFE == hopkit_demo::gamepad::TURN_WITH_STRAFE);

/// Left-stick vector of a WASM-4 gamepad byte (full magnitude, seed diagonal rule). Every byte is
/// valid (unused bits ignored).
///
/// # Safety
/// `out_stick` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_wasm4_to_stick(gamepad: u8, out_stick: *mut HkVec2) -> HkStatus {
    status((|| {
        let o = out(out_stick)?;
        unsafe { put(o, digital::wasm4_to_stick(gamepad).into()) };
        Ok(())
    })())
}

/// Button bits of a WASM-4 gamepad byte: bit 0 = `BUTTON_1`, bit 1 = `BUTTON_2`, others clear.
#[no_mangle]
pub extern "C" fn hk_wasm4_buttons(gamepad: u8) -> u8 {
    digital::wasm4_buttons(gamepad)
}

/// A WASM-4 gamepad byte as the raw samples the WASM-4 and wasm32 carts feed their demo rig —
/// the same function (`hopkit_demo::gamepad_raw`), so `hk_demo_tick` over the bytes a cart traced
/// reproduces that cart's state hash. 12-bit counts (`adc_max` = 4095, like `hk_demo_scripted_raw`):
/// left stick from the d-pad (seed diagonal rule: UP forward, DOWN back, LEFT/RIGHT strafe), right
/// (look) stick `HK_W4_TURN_WITH_STRAFE` × the left stick's x (LEFT/RIGHT also turn), buttons
/// `BUTTON_1` → bit 0 (jump), `BUTTON_2` → bit 1 (fire), bit 2 (value 4, a bit WASM-4 leaves
/// unused: `hopkit_demo::gamepad::GAMEPAD_CROUCH`) → bit 2 (the left stick's push, which crouches
/// on the demo's solid level and does nothing on the C ABI's). Every byte is valid (bit 3
/// ignored). For the d-pad alone as 0 / 1 / 2 counts use `hk_dpad_to_raw`.
///
/// # Safety
/// `out_raw` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_wasm4_to_raw(gamepad: u8, out_raw: *mut HkRawSticks) -> HkStatus {
    status((|| {
        let o = out(out_raw)?;
        unsafe { put(o, hopkit_demo::gamepad_raw(gamepad).into()) };
        Ok(())
    })())
}

/// Unit stick direction pointed by a crank at `angle_deg` (Playdate convention: 0° = up, 90° =
/// right, clockwise). The angle must be finite (any magnitude; it is wrapped).
///
/// # Safety
/// `out_stick` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_crank_to_stick(angle_deg: f32, out_stick: *mut HkVec2) -> HkStatus {
    status((|| {
        let a = finite(angle_deg)?;
        let o = out(out_stick)?;
        unsafe { put(o, digital::crank_to_stick(a).into()) };
        Ok(())
    })())
}

/// Crank change from `prev_deg` to `now_deg` wrapped into (−180°, 180°] (positive = clockwise).
///
/// # Safety
/// `out_deg` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_crank_change_deg(
    prev_deg: f32,
    now_deg: f32,
    out_deg: *mut f32,
) -> HkStatus {
    status((|| {
        let (p, n) = (finite(prev_deg)?, finite(now_deg)?);
        let o = out(out_deg)?;
        unsafe { put(o, digital::crank_change_deg(p, n)) };
        Ok(())
    })())
}

/// Yaw to add this tick (radians) for a crank change of `change_deg`: clockwise turns the view
/// right (negative yaw); `view_turns_per_crank_turn` = 1 maps a crank turn to a view turn.
///
/// # Safety
/// `out_yaw` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_crank_yaw_delta(
    change_deg: f32,
    view_turns_per_crank_turn: f32,
    out_yaw: *mut f32,
) -> HkStatus {
    status((|| {
        let (c, r) = (finite(change_deg)?, finite(view_turns_per_crank_turn)?);
        let o = out(out_yaw)?;
        unsafe { put(o, digital::crank_yaw_delta(c, r)) };
        Ok(())
    })())
}

/// Yaw rate (rad/s) for a crank change of `change_deg` over `dt` seconds (`dt` > 0, finite), same
/// sign convention as [`hk_crank_yaw_delta`].
///
/// # Safety
/// `out_rate` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_crank_look_rate(
    change_deg: f32,
    dt: f32,
    view_turns_per_crank_turn: f32,
    out_rate: *mut f32,
) -> HkStatus {
    status((|| {
        let (c, d, r) = (
            finite(change_deg)?,
            finite(dt)?,
            finite(view_turns_per_crank_turn)?,
        );
        if d <= 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let o = out(out_rate)?;
        unsafe { put(o, digital::crank_look_rate(c, d, r)) };
        Ok(())
    })())
}
