//! Aligning a character's visual to the ground normal (seed 003). C view of `hopkit::slope`.

use crate::ptr::{self, assert_fits, finite, out, put};
use crate::status::{status, HkStatus, HK_ERR_INVALID_ARG};
use crate::types::{HkQuat, HkVec3};
use hopkit::hash::StateHash;
use hopkit::slope::{self, SlopeEvents, SlopeParams, SlopeState};

/// Slope-alignment tuning, angles in degrees (the core's `SlopeParams`). NaN is rejected;
/// `INFINITY` is allowed where it means "off".
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkSlopeParams {
    /// Steepest accepted ground from horizontal, degrees in [0, 180]. Default 45.
    pub slope_limit_deg: f32,
    /// Tolerance of the walkable test (cosine units), ≥ 0. Default 0.002.
    pub walkable_epsilon: f32,
    /// Tilt animation speed, degrees/s; `INFINITY` = snap, negative = frozen. Default 270.
    pub animation_angle_deg: f32,
    /// Largest tilt from upright, degrees; `INFINITY` = no limit, ≤ 0 = no tilt. Default
    /// `INFINITY`.
    pub trace_angle_limit_deg: f32,
}

impl From<SlopeParams> for HkSlopeParams {
    fn from(p: SlopeParams) -> Self {
        HkSlopeParams {
            slope_limit_deg: p.slope_limit_deg,
            walkable_epsilon: p.walkable_epsilon,
            animation_angle_deg: p.animation_angle_deg,
            trace_angle_limit_deg: p.trace_angle_limit_deg,
        }
    }
}

impl HkSlopeParams {
    fn to_core(self) -> Result<SlopeParams, HkStatus> {
        let limit = finite(self.slope_limit_deg)?;
        let eps = finite(self.walkable_epsilon)?;
        if !(0.0..=180.0).contains(&limit)
            || eps < 0.0
            || self.animation_angle_deg.is_nan()
            || self.trace_angle_limit_deg.is_nan()
        {
            return Err(HK_ERR_INVALID_ARG);
        }
        Ok(SlopeParams {
            slope_limit_deg: limit,
            walkable_epsilon: eps,
            animation_angle_deg: self.animation_angle_deg,
            trace_angle_limit_deg: self.trace_angle_limit_deg,
        })
    }
}

/// The seed's numbers: 45° limit, 270°/s, no tilt clamp.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_slope_params_seed(out_params: *mut HkSlopeParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, SlopeParams::seed().into()) };
        Ok(())
    })())
}

/// A subtler look: tilt at most 20°, 180°/s.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_slope_params_subtle(out_params: *mut HkSlopeParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, SlopeParams::subtle().into()) };
        Ok(())
    })())
}

/// Size in bytes of [`HkSlope`] storage.
pub const HK_SLOPE_SIZE: usize = 48;
const SLOPE_TAG: u64 = u64::from_le_bytes(*b"hkSlope1");
const _: () = assert_fits::<SlopeState>(HK_SLOPE_SIZE);

/// Opaque storage for slope-alignment state (last accepted normal, current tilt).
#[repr(C, align(8))]
pub struct HkSlope {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_SLOPE_SIZE],
}

/// Initialise upright: normal up, no tilt.
///
/// # Safety
/// `slope_state` NULL or writable `HkSlope` storage.
#[no_mangle]
pub unsafe extern "C" fn hk_slope_init(slope_state: *mut HkSlope) -> HkStatus {
    status(unsafe { ptr::init(slope_state, SLOPE_TAG, SlopeState::new()) })
}

/// What one slope step did with the normal it was given.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HkSlopeEvents {
    /// 1 if a normal was given and accepted as walkable.
    pub accepted: u8,
    /// 1 if a normal was given but rejected (too steep or zero).
    pub rejected: u8,
    /// 1 if the tilt has caught up with its target.
    pub settled: u8,
}

impl From<SlopeEvents> for HkSlopeEvents {
    fn from(e: SlopeEvents) -> Self {
        HkSlopeEvents {
            accepted: e.accepted as u8,
            rejected: e.rejected as u8,
            settled: e.settled as u8,
        }
    }
}

/// Update the accepted normal from `ground_normal` (world frame; NULL = no ground contact this
/// step) and rotate the tilt towards it for a body with `body_orientation` (finite, non-zero),
/// over `dt` seconds (finite, ≥ 0). `out_events` may be NULL.
///
/// # Safety
/// `slope_state` an `HkSlope` or NULL; `params` readable or NULL; `ground_normal` NULL or
/// readable; `out_events` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_slope_step(
    slope_state: *mut HkSlope,
    params: *const HkSlopeParams,
    body_orientation: HkQuat,
    ground_normal: *const HkVec3,
    dt: f32,
    out_events: *mut HkSlopeEvents,
) -> HkStatus {
    status((|| {
        let p = unsafe { ptr::read(params)? }.to_core()?;
        let body = body_orientation.finite()?;
        let normal = if ground_normal.is_null() {
            None
        } else {
            Some(unsafe { ptr::read(ground_normal)? }.finite()?)
        };
        if finite(dt)? < 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let oe = if out_events.is_null() {
            None
        } else {
            Some(out(out_events)?)
        };
        let s: &mut SlopeState = unsafe { ptr::get_mut(slope_state, SLOPE_TAG)? };
        let ev = slope::step(s, &p, body, normal, dt);
        if let Some(oe) = oe {
            unsafe { put(oe, ev.into()) };
        }
        Ok(())
    })())
}

/// Readable slope state.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkSlopeView {
    /// Last accepted ground normal (unit, world).
    pub accepted_normal: HkVec3,
    /// Tilt of the visual relative to the body.
    pub tilt: HkQuat,
    /// Tilt angle from upright, radians in [0, π].
    pub tilt_angle: f32,
}

/// Read the slope state.
///
/// # Safety
/// `slope_state` an `HkSlope` or NULL; `out_view` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_slope_view(
    slope_state: *const HkSlope,
    out_view: *mut HkSlopeView,
) -> HkStatus {
    status((|| {
        let o = out(out_view)?;
        let s: &SlopeState = unsafe { ptr::get(slope_state, SLOPE_TAG)? };
        let v = HkSlopeView {
            accepted_normal: s.accepted_normal.into(),
            tilt: s.tilt.into(),
            tilt_angle: s.tilt_angle(),
        };
        unsafe { put(o, v) };
        Ok(())
    })())
}

/// World orientation of the visual: `body_orientation * tilt` (normalised).
///
/// # Safety
/// `slope_state` an `HkSlope` or NULL; `out_orientation` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_slope_world_tilt(
    slope_state: *const HkSlope,
    body_orientation: HkQuat,
    out_orientation: *mut HkQuat,
) -> HkStatus {
    status((|| {
        let body = body_orientation.finite()?;
        let o = out(out_orientation)?;
        let s: &SlopeState = unsafe { ptr::get(slope_state, SLOPE_TAG)? };
        unsafe { put(o, s.world_tilt(body).into()) };
        Ok(())
    })())
}

/// 64-bit state hash of the slope state.
///
/// # Safety
/// `slope_state` an `HkSlope` or NULL; `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_slope_state_hash(
    slope_state: *const HkSlope,
    out_hash: *mut u64,
) -> HkStatus {
    status((|| {
        let o = out(out_hash)?;
        let s: &SlopeState = unsafe { ptr::get(slope_state, SLOPE_TAG)? };
        unsafe { put(o, s.state_hash()) };
        Ok(())
    })())
}
