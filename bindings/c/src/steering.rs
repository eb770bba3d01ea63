//! Arrival steering (seed 001): the seed's braking ramp with a stopping-distance cap, a tolerance
//! and an exact stop (no overshoot). C view of `hopkit::steering` (arrival).

use crate::ptr::{self, assert_fits, finite, out, put};
use crate::status::{status, HkStatus, HK_ERR_INVALID_ARG};
use crate::types::HkVec3;
use hopkit::hash::StateHash;
use hopkit::steering::{self, Agent, ArrivalParams, ArrivalState, SteeringParams, MAX_DT};

/// A steered vehicle's limits. All finite and ≥ 0.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkSteeringParams {
    /// Top speed, units/s. Default 4.
    pub max_speed: f32,
    /// Largest acceleration, units/s². Default 8.
    pub max_accel: f32,
    /// Largest yaw rate, rad/s. Default 2π.
    pub max_turn_rate: f32,
    /// Body radius, units. Default 0.5.
    pub radius: f32,
}

impl From<SteeringParams> for HkSteeringParams {
    fn from(p: SteeringParams) -> Self {
        HkSteeringParams {
            max_speed: p.max_speed,
            max_accel: p.max_accel,
            max_turn_rate: p.max_turn_rate,
            radius: p.radius,
        }
    }
}

fn non_negative(v: f32) -> Result<f32, HkStatus> {
    if finite(v)? >= 0.0 {
        Ok(v)
    } else {
        Err(HK_ERR_INVALID_ARG)
    }
}

impl HkSteeringParams {
    fn to_core(self) -> Result<SteeringParams, HkStatus> {
        Ok(SteeringParams {
            max_speed: non_negative(self.max_speed)?,
            max_accel: non_negative(self.max_accel)?,
            max_turn_rate: non_negative(self.max_turn_rate)?,
            radius: non_negative(self.radius)?,
        })
    }
}

/// Arrival tunables.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkArrivalParams {
    /// The seed's brake distance (linear speed ramp inside it), units, ≥ 0. Default 2; 0 = no
    /// ramp (time-optimal).
    pub brake_distance: f32,
    /// Within this distance the agent stops and counts as arrived, units, ≥ 0. Default 0.05.
    pub tolerance: f32,
    /// Lowest ramp speed as a fraction of `max_speed`, [0, 1]. Default 0.05.
    pub min_speed_fraction: f32,
    /// 1 = turn the yaw towards the velocity while moving. Default 1.
    pub face_velocity: u8,
}

impl From<ArrivalParams> for HkArrivalParams {
    fn from(p: ArrivalParams) -> Self {
        HkArrivalParams {
            brake_distance: p.brake_distance,
            tolerance: p.tolerance,
            min_speed_fraction: p.min_speed_fraction,
            face_velocity: p.face_velocity as u8,
        }
    }
}

impl HkArrivalParams {
    fn to_core(self) -> Result<ArrivalParams, HkStatus> {
        let m = non_negative(self.min_speed_fraction)?;
        if m > 1.0 || self.face_velocity > 1 {
            return Err(HK_ERR_INVALID_ARG);
        }
        Ok(ArrivalParams {
            brake_distance: non_negative(self.brake_distance)?,
            tolerance: non_negative(self.tolerance)?,
            min_speed_fraction: m,
            face_velocity: self.face_velocity == 1,
        })
    }
}

/// Default vehicle: 4 units/s, 8 units/s², 2π rad/s, radius 0.5.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_steering_params_default(out_params: *mut HkSteeringParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, SteeringParams::default().into()) };
        Ok(())
    })())
}
/// The demo's critter (metres): 3 m/s, 12 m/s², 4π rad/s, radius 0.25.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_steering_params_critter(out_params: *mut HkSteeringParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, SteeringParams::critter().into()) };
        Ok(())
    })())
}
/// Default arrival: brake distance 2, tolerance 0.05, min speed 5 %, face velocity.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_arrival_params_default(out_params: *mut HkArrivalParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, ArrivalParams::default().into()) };
        Ok(())
    })())
}
/// Brake as late as the acceleration allows (no ramp).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_arrival_params_time_optimal(
    out_params: *mut HkArrivalParams,
) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, ArrivalParams::time_optimal().into()) };
        Ok(())
    })())
}

/// Import a per-frame tuning (the seed's cocos2d units): speed in units/frame and acceleration in
/// units/frame² at `frame_rate` fps (all finite, > 0 for the rate) become units/s and units/s².
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_steering_params_from_per_frame(
    max_speed_per_frame: f32,
    max_accel_per_frame: f32,
    frame_rate: f32,
    out_params: *mut HkSteeringParams,
) -> HkStatus {
    status((|| {
        let s = non_negative(max_speed_per_frame)?;
        let a = non_negative(max_accel_per_frame)?;
        if finite(frame_rate)? <= 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let o = out(out_params)?;
        let p = SteeringParams::from_per_frame(s, a, frame_rate);
        HkSteeringParams::from(p).to_core()?;
        unsafe { put(o, p.into()) };
        Ok(())
    })())
}

/// A steered body (plain data).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkAgent {
    /// World position, units.
    pub position: HkVec3,
    /// Velocity, units/s.
    pub velocity: HkVec3,
    /// Heading yaw, radians (0 faces −Z, positive turns left).
    pub yaw: f32,
}

impl From<Agent> for HkAgent {
    fn from(a: Agent) -> Self {
        HkAgent {
            position: a.position.into(),
            velocity: a.velocity.into(),
            yaw: a.yaw,
        }
    }
}

impl HkAgent {
    fn to_core(self) -> Result<Agent, HkStatus> {
        Ok(Agent {
            position: self.position.finite()?,
            velocity: self.velocity.finite()?,
            yaw: hopkit::math::wrap_angle(finite(self.yaw)?),
        })
    }
}

/// Size in bytes of [`HkArrival`] storage.
pub const HK_ARRIVAL_SIZE: usize = 48;
const ARRIVAL_TAG: u64 = u64::from_le_bytes(*b"hkArrve1");
const _: () = assert_fits::<ArrivalState>(HK_ARRIVAL_SIZE);

/// Opaque storage for an arrival agent (body + arrived flag).
#[repr(C, align(8))]
pub struct HkArrival {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_ARRIVAL_SIZE],
}

/// Initialise an agent at rest at `position` (finite), yaw 0, not arrived.
///
/// # Safety
/// `arrival` NULL or writable `HkArrival` storage.
#[no_mangle]
pub unsafe extern "C" fn hk_arrival_init(arrival: *mut HkArrival, position: HkVec3) -> HkStatus {
    status((|| {
        let p = position.finite()?;
        unsafe { ptr::init(arrival, ARRIVAL_TAG, ArrivalState::new(p)) }
    })())
}

/// Longest `dt` the steering functions simulate, seconds (longer is clamped to it).
pub const HK_STEERING_MAX_DT: f32 = 0.25;
const _: () = assert!(HK_STEERING_MAX_DT == MAX_DT);

/// One arrival step towards `target` (finite) over `dt` seconds (finite, > 0; above
/// `HK_STEERING_MAX_DT` clamped). `*out_arrived` (may be NULL) = 1 once stopped within the
/// tolerance.
///
/// # Safety
/// `arrival` an `HkArrival` or NULL; `params`, `arrival_params` readable or NULL; `out_arrived`
/// NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_arrival_step(
    arrival: *mut HkArrival,
    params: *const HkSteeringParams,
    arrival_params: *const HkArrivalParams,
    target: HkVec3,
    dt: f32,
    out_arrived: *mut u8,
) -> HkStatus {
    status((|| {
        let p = unsafe { ptr::read(params)? }.to_core()?;
        let a = unsafe { ptr::read(arrival_params)? }.to_core()?;
        let t = target.finite()?;
        if finite(dt)? <= 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let oa = if out_arrived.is_null() {
            None
        } else {
            Some(out(out_arrived)?)
        };
        let s: &mut ArrivalState = unsafe { ptr::get_mut(arrival, ARRIVAL_TAG)? };
        let arrived = steering::arrival_step(s, &p, &a, t, dt).arrived;
        if let Some(oa) = oa {
            unsafe { put(oa, arrived as u8) };
        }
        Ok(())
    })())
}

/// Read the agent and its arrived flag.
///
/// # Safety
/// `arrival` an `HkArrival` or NULL; `out_agent`, `out_arrived` NULL or writable (either may be
/// NULL, not both).
#[no_mangle]
pub unsafe extern "C" fn hk_arrival_get(
    arrival: *const HkArrival,
    out_agent: *mut HkAgent,
    out_arrived: *mut u8,
) -> HkStatus {
    status((|| {
        if out_agent.is_null() && out_arrived.is_null() {
            return Err(crate::status::HK_ERR_NULL);
        }
        let oa = if out_agent.is_null() {
            None
        } else {
            Some(out(out_agent)?)
        };
        let of = if out_arrived.is_null() {
            None
        } else {
            Some(out(out_arrived)?)
        };
        let s: &ArrivalState = unsafe { ptr::get(arrival, ARRIVAL_TAG)? };
        if let Some(oa) = oa {
            unsafe { put(oa, s.agent.into()) };
        }
        if let Some(of) = of {
            unsafe { put(of, s.arrived as u8) };
        }
        Ok(())
    })())
}

/// Overwrite the agent (teleport, host physics). Finite values; clears the arrived flag.
///
/// # Safety
/// `arrival` an `HkArrival` or NULL; `agent` readable or NULL.
#[no_mangle]
pub unsafe extern "C" fn hk_arrival_set(
    arrival: *mut HkArrival,
    agent: *const HkAgent,
) -> HkStatus {
    status((|| {
        let a = unsafe { ptr::read(agent)? }.to_core()?;
        let s: &mut ArrivalState = unsafe { ptr::get_mut(arrival, ARRIVAL_TAG)? };
        s.agent = a;
        s.arrived = false;
        Ok(())
    })())
}

/// 64-bit state hash of the agent.
///
/// # Safety
/// `arrival` an `HkArrival` or NULL; `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_arrival_state_hash(
    arrival: *const HkArrival,
    out_hash: *mut u64,
) -> HkStatus {
    status((|| {
        let o = out(out_hash)?;
        let s: &ArrivalState = unsafe { ptr::get(arrival, ARRIVAL_TAG)? };
        unsafe { put(o, s.state_hash()) };
        Ok(())
    })())
}

/// A steering request: desired acceleration and yaw rate.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkSteering {
    /// Desired linear acceleration, units/s² (already limited to `max_accel`).
    pub linear: HkVec3,
    /// Desired yaw rate, rad/s (positive turns left).
    pub angular: f32,
}

/// The arrival behaviour alone (no integration), for hosts that integrate bodies themselves:
/// the acceleration `agent` should apply this step towards `target`.
///
/// # Safety
/// `agent`, `params`, `arrival_params` readable or NULL; `out_steering` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_arrive(
    agent: *const HkAgent,
    params: *const HkSteeringParams,
    arrival_params: *const HkArrivalParams,
    target: HkVec3,
    dt: f32,
    out_steering: *mut HkSteering,
) -> HkStatus {
    status((|| {
        let ag = unsafe { ptr::read(agent)? }.to_core()?;
        let p = unsafe { ptr::read(params)? }.to_core()?;
        let a = unsafe { ptr::read(arrival_params)? }.to_core()?;
        let t = target.finite()?;
        if finite(dt)? <= 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let o = out(out_steering)?;
        let s = steering::arrive(&ag, t, &p, &a, dt);
        unsafe {
            put(
                o,
                HkSteering {
                    linear: s.linear.into(),
                    angular: s.angular,
                },
            )
        };
        Ok(())
    })())
}

/// Largest speed from which an agent braking by `max_accel` per second stops exactly at
/// `distance` in steps of `dt` (all finite, ≥ 0).
///
/// # Safety
/// `out_speed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_stopping_speed(
    distance: f32,
    max_accel: f32,
    dt: f32,
    out_speed: *mut f32,
) -> HkStatus {
    status((|| {
        let (d, a, t) = (
            non_negative(distance)?,
            non_negative(max_accel)?,
            non_negative(dt)?,
        );
        let o = out(out_speed)?;
        unsafe { put(o, steering::stopping_speed(d, a, t)) };
        Ok(())
    })())
}
