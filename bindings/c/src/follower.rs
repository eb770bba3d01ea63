//! A companion following the leader's breadcrumb trail (seed 004). C view of `hopkit::follower`.
//!
//! The trail holds `HK_FOLLOWER_TRAIL_CAPACITY` crumbs; when it is full the follower is assumed
//! stuck and warps onto the oldest crumb (reported in `HkFollowerEvents::warped`) — the seed's
//! rescue; no crumb is silently dropped otherwise.

use crate::ground::{Ground, HkGround};
use crate::ptr::{self, assert_fits, finite, out, put};
use crate::status::{status, HkStatus, HK_ERR_BAD_LENGTH, HK_ERR_INVALID_ARG};
use crate::types::{HkVec2, HkVec3};
use hopkit::follower::{
    self, FollowerEvents, FollowerParams, FollowerState, DEFAULT_TRAIL_CAPACITY,
};
use hopkit::hash::StateHash;

/// Crumbs the follower's trail holds (the seed's `PosHistorySize`).
pub const HK_FOLLOWER_TRAIL_CAPACITY: usize = 16;
const _: () = assert!(HK_FOLLOWER_TRAIL_CAPACITY == DEFAULT_TRAIL_CAPACITY);

/// Follower tuning (the core's `FollowerParams`; units and defaults documented there). Every field
/// must be in its documented range (`HK_ERR_INVALID_ARG` otherwise): distances, speeds and rates
/// finite and ≥ 0 (`shortcut_distance`, `turn_speed_deg`, `neck_rate`, `teleport_distance` may be
/// `INFINITY`), `shortcut_keep` ≥ 1, per-tick fractions in [0, 1], `reference_hz` > 0,
/// `neck_limit_deg` in [0, 180], flags 0/1.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkFollowerParams {
    /// Record a crumb when the leader is this far from the last one, units. Default 1.5.
    pub record_distance: f32,
    /// 1 = reproduce the seed's tick-rate dependent quirks. Default 0.
    pub seed_exact: u8,
    /// Shortcut when the leader is closer than this, units. Default 7.
    pub shortcut_distance: f32,
    /// … and at least this many crumbs are stored (keep the newest this many). Default 4.
    pub shortcut_keep: u32,
    /// Stop when closer than this to the leader, units. Default 3.5.
    pub stop_distance: f32,
    /// Crumb reached within this (ground plane), units. Default 2.
    pub reach_distance: f32,
    /// Stop at a crumb if at most this many remain. Default 3.
    pub stop_crumbs: u32,
    /// Chase fast while at least this many crumbs remain. Default 5.
    pub fast_crumbs: u32,
    /// Chase slowly while at most this many remain. Default 2.
    pub slow_crumbs: u32,
    /// Ground speed at speed factor 1, units/s. Default 8.
    pub move_speed: f32,
    /// Speed factor far behind. Default 1.6.
    pub fast_factor: f32,
    /// Speed factor otherwise. Default 1.0.
    pub normal_factor: f32,
    /// Speed factor with few crumbs left. Default 0.5.
    pub slow_factor: f32,
    /// Speed factor clamp. Default 2.
    pub max_factor: f32,
    /// Speed factor cap when stopping. Default 0.3.
    pub stop_factor_cap: f32,
    /// Speed factor change per reference tick. Default 0.02.
    pub factor_ease_per_tick: f32,
    /// Velocity decay per reference tick when stopping, [0, 1]. Default 0.9.
    pub stop_decay_per_tick: f32,
    /// Direction lerp per reference tick, [0, 1]. Default 0.15.
    pub direction_lerp_per_tick: f32,
    /// Tick rate the per-tick numbers refer to, Hz. Default 50.
    pub reference_hz: f32,
    /// Body turn speed, degrees/s. Default 500.
    pub turn_speed_deg: f32,
    /// Head looks at the leader while the speed factor is at most this. Default 0.3.
    pub idle_factor: f32,
    /// Head yaw limit, degrees. Default 50.
    pub neck_limit_deg: f32,
    /// Head smoothing rate, 1/s. Default 3.
    pub neck_rate: f32,
    /// Falling below this vertical speed (negated), units/s. Default 4.
    pub fall_speed: f32,
    /// Falling if the ground is more than this below …, units. Default 1.
    pub fall_ground_gap: f32,
    /// … while descending faster than this, units/s. Default 0.5.
    pub fall_descend_speed: f32,
    /// 1 = hopkit integrates the body (gravity, ground); 0 = the host moves it. Default 1.
    pub integrate: u8,
    /// Gravity, units/s². Default 9.81.
    pub gravity: f32,
    /// Ground probed from this far above the feet, units. Default 0.5.
    pub step_height: f32,
    /// Stay glued to ground at most this far below, units. Default 0.3.
    pub snap_distance: f32,
    /// Leader moves farther than this in one step = teleport (regroup), units. Default 10.
    pub teleport_distance: f32,
    /// Regroup this far behind the leader, units. Default 3.
    pub regroup_distance: f32,
}

impl From<FollowerParams> for HkFollowerParams {
    fn from(p: FollowerParams) -> Self {
        HkFollowerParams {
            record_distance: p.record_distance,
            seed_exact: p.seed_exact as u8,
            shortcut_distance: p.shortcut_distance,
            shortcut_keep: p.shortcut_keep,
            stop_distance: p.stop_distance,
            reach_distance: p.reach_distance,
            stop_crumbs: p.stop_crumbs,
            fast_crumbs: p.fast_crumbs,
            slow_crumbs: p.slow_crumbs,
            move_speed: p.move_speed,
            fast_factor: p.fast_factor,
            normal_factor: p.normal_factor,
            slow_factor: p.slow_factor,
            max_factor: p.max_factor,
            stop_factor_cap: p.stop_factor_cap,
            factor_ease_per_tick: p.factor_ease_per_tick,
            stop_decay_per_tick: p.stop_decay_per_tick,
            direction_lerp_per_tick: p.direction_lerp_per_tick,
            reference_hz: p.reference_hz,
            turn_speed_deg: p.turn_speed_deg,
            idle_factor: p.idle_factor,
            neck_limit_deg: p.neck_limit_deg,
            neck_rate: p.neck_rate,
            fall_speed: p.fall_speed,
            fall_ground_gap: p.fall_ground_gap,
            fall_descend_speed: p.fall_descend_speed,
            integrate: p.integrate as u8,
            gravity: p.gravity,
            step_height: p.step_height,
            snap_distance: p.snap_distance,
            teleport_distance: p.teleport_distance,
            regroup_distance: p.regroup_distance,
        }
    }
}

impl HkFollowerParams {
    fn to_core(self) -> Result<FollowerParams, HkStatus> {
        if self.seed_exact > 1 || self.integrate > 1 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let p = FollowerParams {
            record_distance: self.record_distance,
            seed_exact: self.seed_exact == 1,
            shortcut_distance: self.shortcut_distance,
            shortcut_keep: self.shortcut_keep,
            stop_distance: self.stop_distance,
            reach_distance: self.reach_distance,
            stop_crumbs: self.stop_crumbs,
            fast_crumbs: self.fast_crumbs,
            slow_crumbs: self.slow_crumbs,
            move_speed: self.move_speed,
            fast_factor: self.fast_factor,
            normal_factor: self.normal_factor,
            slow_factor: self.slow_factor,
            max_factor: self.max_factor,
            stop_factor_cap: self.stop_factor_cap,
            factor_ease_per_tick: self.factor_ease_per_tick,
            stop_decay_per_tick: self.stop_decay_per_tick,
            direction_lerp_per_tick: self.direction_lerp_per_tick,
            reference_hz: self.reference_hz,
            turn_speed_deg: self.turn_speed_deg,
            idle_factor: self.idle_factor,
            neck_limit_deg: self.neck_limit_deg,
            neck_rate: self.neck_rate,
            fall_speed: self.fall_speed,
            fall_ground_gap: self.fall_ground_gap,
            fall_descend_speed: self.fall_descend_speed,
            integrate: self.integrate == 1,
            gravity: self.gravity,
            step_height: self.step_height,
            snap_distance: self.snap_distance,
            teleport_distance: self.teleport_distance,
            regroup_distance: self.regroup_distance,
        };
        // The core's own range rules (every field documented there).
        if p.is_sane() {
            Ok(p)
        } else {
            Err(HK_ERR_INVALID_ARG)
        }
    }
}

/// # Safety
/// `p` NULL or readable.
unsafe fn follower_params(p: *const HkFollowerParams) -> Result<FollowerParams, HkStatus> {
    unsafe { ptr::read(p)? }.to_core()
}

/// The seed's numbers with its tick-rate quirks fixed (the default).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_params_seed(out_params: *mut HkFollowerParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, FollowerParams::seed().into()) };
        Ok(())
    })())
}
/// The seed's numbers and quirks (retraces the seed's C# at 50 Hz).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_params_seed_exact(
    out_params: *mut HkFollowerParams,
) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, FollowerParams::seed_exact().into()) };
        Ok(())
    })())
}
/// A closer, quicker companion (crumbs every 1.0, stops 2.0 from the leader).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_params_close_companion(
    out_params: *mut HkFollowerParams,
) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, FollowerParams::close_companion().into()) };
        Ok(())
    })())
}

/// Size in bytes of [`HkFollower`] storage.
pub const HK_FOLLOWER_SIZE: usize = 384;
const FOLLOWER_TAG: u64 = u64::from_le_bytes(*b"hkFollw1");
const _: () = assert_fits::<FollowerState<DEFAULT_TRAIL_CAPACITY>>(HK_FOLLOWER_SIZE);

/// Opaque storage for one follower (body, trail of `HK_FOLLOWER_TRAIL_CAPACITY` crumbs, target).
#[repr(C, align(8))]
pub struct HkFollower {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_FOLLOWER_SIZE],
}

/// Initialise a follower at `follower_pos` facing `yaw` radians, with the leader at `leader_pos`
/// (the trail starts with that one crumb). All finite.
///
/// # Safety
/// `follower` NULL or writable `HkFollower` storage.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_init(
    follower: *mut HkFollower,
    follower_pos: HkVec3,
    leader_pos: HkVec3,
    yaw: f32,
) -> HkStatus {
    status((|| {
        let s = FollowerState::<DEFAULT_TRAIL_CAPACITY>::new(
            follower_pos.finite()?,
            leader_pos.finite()?,
            finite(yaw)?,
        );
        unsafe { ptr::init(follower, FOLLOWER_TAG, s) }
    })())
}

/// What happened during one follower step.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct HkFollowerEvents {
    /// 1 if a crumb was recorded.
    pub crumb_recorded: u8,
    /// 1 if the trail was full and the follower warped onto the oldest crumb.
    pub warped: u8,
    /// 1 if the shortcut dropped crumbs.
    pub shortcut: u8,
    /// 1 if it reached its target and took the next crumb.
    pub advanced: u8,
    /// 1 if it is stopping.
    pub stopped: u8,
    /// The falling flag after this step.
    pub falling: u8,
    /// 1 if the leader teleported and the follower regrouped.
    pub regrouped: u8,
}

impl From<FollowerEvents> for HkFollowerEvents {
    fn from(e: FollowerEvents) -> Self {
        HkFollowerEvents {
            crumb_recorded: e.crumb_recorded as u8,
            warped: e.warped as u8,
            shortcut: e.shortcut as u8,
            advanced: e.advanced as u8,
            stopped: e.stopped as u8,
            falling: e.falling as u8,
            regrouped: e.regrouped as u8,
        }
    }
}

/// Longest `dt` [`hk_follower_step`] simulates in one call, seconds (longer is clamped to it, as
/// in the core).
pub const HK_FOLLOWER_MAX_STEP_DT: f32 = 0.25;
const _: () = assert!(HK_FOLLOWER_MAX_STEP_DT == follower::MAX_STEP_DT);

/// Advance the follower by `dt` seconds (finite, > 0; above `HK_FOLLOWER_MAX_STEP_DT` clamped)
/// towards the leader now at `leader_pos` (finite), over `ground` (NULL = none). `out_events` may
/// be NULL.
///
/// # Safety
/// `follower` an `HkFollower` or NULL; `params` readable or NULL; `ground` NULL or readable;
/// `out_events` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_step(
    follower: *mut HkFollower,
    params: *const HkFollowerParams,
    leader_pos: HkVec3,
    ground: *const HkGround,
    dt: f32,
    out_events: *mut HkFollowerEvents,
) -> HkStatus {
    status((|| {
        let p = unsafe { follower_params(params)? };
        let leader = leader_pos.finite()?;
        let g = unsafe { Ground::from_c(ground)? };
        if finite(dt)? <= 0.0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        let oe = if out_events.is_null() {
            None
        } else {
            Some(out(out_events)?)
        };
        // The ground callback may call back into hk_* on this follower: HK_ERR_BUSY (ptr.rs).
        let ev = unsafe {
            ptr::with_value(
                follower,
                FOLLOWER_TAG,
                |f: &mut FollowerState<DEFAULT_TRAIL_CAPACITY>| {
                    follower::step(f, &p, leader, &g, dt)
                },
            )?
        };
        if let Some(oe) = oe {
            unsafe { put(oe, ev.into()) };
        }
        Ok(())
    })())
}

/// Reset the trail to the leader at `leader_pos` and place the follower at rest
/// `regroup_distance` behind it along planar `back` `(x, z)` (zero → +Z), e.g. after a map
/// transfer with `back` = −leader forward.
///
/// # Safety
/// `follower` an `HkFollower` or NULL; `params` readable or NULL.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_regroup(
    follower: *mut HkFollower,
    params: *const HkFollowerParams,
    leader_pos: HkVec3,
    back: HkVec2,
) -> HkStatus {
    status((|| {
        let p = unsafe { follower_params(params)? };
        let leader = leader_pos.finite()?;
        let b = back.finite()?;
        let f: &mut FollowerState<DEFAULT_TRAIL_CAPACITY> =
            unsafe { ptr::get_mut(follower, FOLLOWER_TAG)? };
        follower::regroup(f, &p, leader, b);
        Ok(())
    })())
}

/// Readable state of a follower.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkFollowerView {
    /// Feet position, world units.
    pub position: HkVec3,
    /// Velocity, units/s.
    pub velocity: HkVec3,
    /// Smoothed planar move direction `(x, z)`, length ≤ 1.
    pub move_dir: HkVec2,
    /// Speed factor (ground speed = move_speed · factor).
    pub speed_factor: f32,
    /// Body facing, radians.
    pub yaw: f32,
    /// Head yaw relative to the body, radians (positive = left).
    pub neck_yaw: f32,
    /// The seed's animator `Speed` parameter.
    pub anim_speed: f32,
    /// 1 if standing on ground.
    pub grounded: u8,
    /// 1 if falling (the seed's `IsFalling`).
    pub falling: u8,
    /// The point being walked to.
    pub target: HkVec3,
    /// Crumbs currently stored (≤ `HK_FOLLOWER_TRAIL_CAPACITY`).
    pub crumb_count: u32,
}

/// Read a follower's state.
///
/// # Safety
/// `follower` an `HkFollower` or NULL; `out_view` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_view(
    follower: *const HkFollower,
    out_view: *mut HkFollowerView,
) -> HkStatus {
    status((|| {
        let o = out(out_view)?;
        let f: &FollowerState<DEFAULT_TRAIL_CAPACITY> =
            unsafe { ptr::get(follower, FOLLOWER_TAG)? };
        let b = &f.body;
        let v = HkFollowerView {
            position: b.position.into(),
            velocity: b.velocity.into(),
            move_dir: b.move_dir.into(),
            speed_factor: b.speed_factor,
            yaw: b.yaw,
            neck_yaw: b.neck_yaw,
            anim_speed: b.anim_speed(),
            grounded: b.grounded as u8,
            falling: b.falling as u8,
            target: f.target.into(),
            crumb_count: f.trail.len() as u32,
        };
        unsafe { put(o, v) };
        Ok(())
    })())
}

/// Copy the stored crumbs, oldest first, into `out_crumbs` (room for `capacity` vectors) and
/// their number into `*out_count`. `capacity` smaller than the number stored →
/// `HK_ERR_BAD_LENGTH` (pass `HK_FOLLOWER_TRAIL_CAPACITY` to always fit).
///
/// # Safety
/// `follower` an `HkFollower` or NULL; `out_crumbs` NULL or `capacity` writable vectors;
/// `out_count` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_crumbs(
    follower: *const HkFollower,
    out_crumbs: *mut HkVec3,
    capacity: usize,
    out_count: *mut usize,
) -> HkStatus {
    status((|| {
        let oc = out(out_count)?;
        let f: &FollowerState<DEFAULT_TRAIL_CAPACITY> =
            unsafe { ptr::get(follower, FOLLOWER_TAG)? };
        let n = f.trail.len();
        if capacity < n {
            return Err(HK_ERR_BAD_LENGTH);
        }
        if n > 0 {
            let o = out(out_crumbs)?;
            for (i, c) in f.trail.iter().enumerate() {
                // SAFETY: i < n ≤ capacity writable elements.
                unsafe { o.add(i).write(c.into()) };
            }
        }
        unsafe { put(oc, n) };
        Ok(())
    })())
}

/// For hosts that move the body themselves (`integrate` = 0): write back the resolved position
/// and velocity before the next step. Both finite.
///
/// # Safety
/// `follower` an `HkFollower` or NULL.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_set_body(
    follower: *mut HkFollower,
    position: HkVec3,
    velocity: HkVec3,
) -> HkStatus {
    status((|| {
        let p = position.finite()?;
        let v = velocity.finite()?;
        let f: &mut FollowerState<DEFAULT_TRAIL_CAPACITY> =
            unsafe { ptr::get_mut(follower, FOLLOWER_TAG)? };
        f.body.position = p;
        f.body.velocity = v;
        Ok(())
    })())
}

/// 64-bit state hash of the follower, for replay checks.
///
/// # Safety
/// `follower` an `HkFollower` or NULL; `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_follower_state_hash(
    follower: *const HkFollower,
    out_hash: *mut u64,
) -> HkStatus {
    status((|| {
        let o = out(out_hash)?;
        let f: &FollowerState<DEFAULT_TRAIL_CAPACITY> =
            unsafe { ptr::get(follower, FOLLOWER_TAG)? };
        unsafe { put(o, f.state_hash()) };
        Ok(())
    })())
}
