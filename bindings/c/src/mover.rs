//! Quake-style strafe-jump movement (seed 000): params with presets, a character's state in opaque
//! storage, one `hk_mover_step` per tick. C view of `hopkit::movement`.

use crate::ground::{Ground, HkGround};
use crate::ptr::{self, assert_fits, finite, out, put};
use crate::status::{status, HkStatus, HK_ERR_INVALID_ARG};
use crate::stick::HkWish;
use crate::types::{HkVec2, HkVec3};
use crate::world::{world_ref, HkWorld};
use hopkit::collide::Solid;
use hopkit::hash::StateHash;
use hopkit::math::Vec2;
use hopkit::movement::{
    self, AccelBudget, AccelStyle, FrictionMath, FrictionModel, MoveInput, MoveParams, MoverState,
    StepEvents,
};

/// [`HkMoveParams::friction_model`]: Quake stop-speed friction (`friction` in 1/s).
pub const HK_FRICTION_STOP_SPEED: u32 = 0;
/// [`HkMoveParams::friction_model`]: the seed's constant deceleration (`friction` in units/s²).
pub const HK_FRICTION_CONSTANT: u32 = 1;
/// [`HkMoveParams::friction_math`]: the speed from a fast reciprocal square root (the default).
pub const HK_FRICTION_MATH_RSQRT: u32 = 0;
/// [`HkMoveParams::friction_math`]: the speed from a correctly rounded square root and one divide
/// (the arithmetic of Quake's `PM_Friction`; cheapest on desktop CPUs and the Cortex-M0).
pub const HK_FRICTION_MATH_SQRT_DIVIDE: u32 = 1;
/// [`HkMoveParams::accel_budget`]: `a = accel·dt` (the seed; `accel` in units/s²).
pub const HK_ACCEL_BUDGET_PER_SECOND: u32 = 0;
/// [`HkMoveParams::accel_budget`]: `a = accel·wishspeed·dt` (Quake/Source; `accel` in 1/s).
pub const HK_ACCEL_BUDGET_WISH_SPEED_SCALED: u32 = 1;
/// [`HkMoveParams::accel_style`]: only the projection on the wish direction is capped (strafe
/// jumping gains speed).
pub const HK_ACCEL_STYLE_PROJECTION: u32 = 0;
/// [`HkMoveParams::accel_style`]: the whole velocity change is clamped (Quake III's disabled
/// alternative; no strafe gain).
pub const HK_ACCEL_STYLE_CLAMPED_DELTA: u32 = 1;

/// Every movement tunable (the core's `MoveParams`; see its docs for each unit and default).
/// Fill it with a preset (`hk_move_params_seed`, `_quakeworld`, …) and adjust. Validation: every
/// float finite and ≥ 0 (`air_wish_cap` may be `INFINITY`), `jump_release_gravity` ≥ 1,
/// `jump_release_cut` and `min_ground_normal_y` in [0, 1], `max_tick_dt` > 0, `max_substeps` ≥ 1,
/// flags 0/1, enums one of their `HK_*` values.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkMoveParams {
    /// Ground wish speed at full input, units/s. Seed 10.
    pub max_speed: f32,
    /// Ground acceleration (units/s² or 1/s, see `accel_budget`). Seed 120.
    pub accel: f32,
    /// `HK_ACCEL_BUDGET_*`. Seed per-second.
    pub accel_budget: u32,
    /// `HK_ACCEL_STYLE_*`. Seed projection.
    pub accel_style: u32,
    /// `HK_FRICTION_*`. Seed constant.
    pub friction_model: u32,
    /// Friction: deceleration (units/s², constant) or coefficient (1/s, stop-speed). Seed 70.
    pub friction: f32,
    /// Stop-speed friction only: minimum control speed, units/s. Seed 0.
    pub stop_speed: f32,
    /// Ground speed at or below which friction stops dead, units/s. Seed 0.
    pub stop_threshold: f32,
    /// Air wish speed at full input, units/s. Seed 0.5.
    pub air_max_speed: f32,
    /// Air acceleration, same units as `accel`. Seed 100.
    pub air_accel: f32,
    /// Cap on the air wish speed in the projection test, units/s; `INFINITY` = none. Seed none.
    pub air_wish_cap: f32,
    /// Gravity, units/s² (positive pulls down). Seed 9.81.
    pub gravity: f32,
    /// Upward speed set by a jump, units/s. Seed 4.43.
    pub jump_speed: f32,
    /// 1 = jump again as soon as grounded while the key is held. Seed 1.
    pub auto_hop: u8,
    /// Bunny-hop cap as a multiple of `max_speed` (0 = off). Seed 0.
    pub bhop_speed_cap: f32,
    /// Coyote time, seconds. Seed 0.15.
    pub coyote_time: f32,
    /// Jump buffer, seconds. Seed 0.2.
    pub jump_buffer_time: f32,
    /// Gravity multiplier while rising after releasing jump (≥ 1; 1 = off). Seed 2.
    pub jump_release_gravity: f32,
    /// Upward speed multiplier on releasing jump while rising (0..1; 1 = off). Seed 1.
    pub jump_release_cut: f32,
    /// Walkable if `normal.y ≥ min_ground_normal_y − walkable_tolerance`. Seed cos 45°.
    pub min_ground_normal_y: f32,
    /// Tolerance of the walkable test (cosine units). Seed 0.007.
    pub walkable_tolerance: f32,
    /// Landing snap height, units. Seed 0.05.
    pub ground_snap: f32,
    /// Stay grounded over drops up to this, units. Seed 0.3.
    pub step_down: f32,
    /// Step onto ledges up to this, units. Seed 0.3.
    pub step_up: f32,
    /// Rising faster than this never counts as grounded, units/s. Seed 2.
    pub max_ground_rise_speed: f32,
    /// Longest simulated tick, seconds (longer `dt` is sub-stepped). Seed 0.05.
    pub max_tick_dt: f32,
    /// Most sub-steps per call. Seed 8.
    pub max_substeps: u32,
    /// Per-axis velocity clamp, units/s. Seed 100.
    pub max_velocity: f32,
    /// 1 = CPM's air step (`hk_move_params_cpma`): the next four fields apply. Seed 0.
    pub cpm_air: u8,
    /// CPM: air acceleration while the wish points against the velocity. Seed 2.5.
    pub air_stop_accel: f32,
    /// CPM: air acceleration while only strafe keys are held. Seed 70.
    pub strafe_accel: f32,
    /// CPM: wish-speed cap while only strafe keys are held, units/s. Seed 30.
    pub strafe_wish_cap: f32,
    /// CPM: air-control strength while only forward/back is held (0 = off). Seed 150.
    pub air_control: f32,
    /// Body height standing (standing up needs this clearance), units. Seed 1.8.
    pub stand_height: f32,
    /// Body height crouched, units. Seed 0.9.
    pub crouch_height: f32,
    /// Ground wish-speed multiplier while crouched, 0..1. Seed 0.5.
    pub crouch_speed_scale: f32,
    /// 1 = crouching in the air pulls the feet up (Source's crouch-jump). Seed 0.
    pub crouch_jump: u8,
    /// Water acceleration, 1/s (budget `water_accel·wishspeed·dt`). Seed 10; Quake 10.
    pub water_accel: f32,
    /// Water friction per water level, 1/s. Seed 4; Quake 4.
    pub water_friction: f32,
    /// Swimming wish speed as a fraction of `max_speed`. Seed 0.7.
    pub swim_speed_scale: f32,
    /// Sinking wish speed with no input, units/s. Seed 0.6; Quake 60.
    pub water_sink_speed: f32,
    /// Upward speed the jump key sets while swimming, units/s. Seed 3.2; Quake 100.
    pub swim_up_speed: f32,
    /// Height above the feet of the wading test point, units. Seed 0.05; Quake 1.
    pub water_feet_height: f32,
    /// Height above the feet of the swimming test point, units. Seed 0.9; Quake 28.
    pub water_waist_height: f32,
    /// Height above the feet of the eyes (submerged test), units. Seed 1.5; Quake 46.
    pub water_eye_height: f32,
    /// Water jump: distance ahead of the feet of the edge test, units. Seed 0.75; Quake 24.
    pub water_jump_reach: f32,
    /// Water jump: height above the feet that must be solid ahead, units. Seed 1; Quake 32.
    pub water_jump_wall_height: f32,
    /// Water jump: height above the feet that must be free ahead, units. Seed 1.8; Quake 56.
    pub water_jump_clear_height: f32,
    /// Water jump: upward speed, units/s. Seed 5.5; Quake 310.
    pub water_jump_speed: f32,
    /// Water jump: speed ahead, units/s. Seed 1.5; Quake 50.
    pub water_jump_push: f32,
    /// Water jump: not taken while sinking faster than this, units/s. Seed 5.6; Quake 180.
    pub water_jump_max_sink: f32,
    /// Water jump: timer, seconds. Seed 2; Quake 2.
    pub water_jump_time: f32,
    /// Climbing speed on a ladder at full input, units/s (the ground's `ladder` callback reports
    /// ladders). Seed 3; Quake 200.
    pub ladder_climb_speed: f32,
    /// Speed of the push-off when jumping from a ladder, units/s. Seed 4; Quake 270. Keep it above
    /// `ladder_climb_speed`, or the ladder catches the character again on the next tick.
    pub ladder_jump_speed: f32,
    /// `HK_FRICTION_MATH_*`: how friction computes the speed (same bits on every CPU either way;
    /// every peer and replay must use the same). 0, the default of every preset, is the fast
    /// reciprocal square root.
    pub friction_math: u32,
    /// Half the body's width, units (the box swept through solids). Seed 0.4; Quake 15; Source 16.
    pub body_radius: f32,
    /// 1 = ramps too steep to stand on are surfed (slid along in the air); 0 = they act as walls.
    /// Seed 1.
    pub surf: u8,
}

impl From<MoveParams> for HkMoveParams {
    fn from(p: MoveParams) -> Self {
        HkMoveParams {
            max_speed: p.max_speed,
            accel: p.accel,
            accel_budget: match p.accel_budget {
                AccelBudget::PerSecond => HK_ACCEL_BUDGET_PER_SECOND,
                AccelBudget::WishSpeedScaled => HK_ACCEL_BUDGET_WISH_SPEED_SCALED,
            },
            accel_style: match p.accel_style {
                AccelStyle::Projection => HK_ACCEL_STYLE_PROJECTION,
                AccelStyle::ClampedDelta => HK_ACCEL_STYLE_CLAMPED_DELTA,
            },
            friction_model: match p.friction_model {
                FrictionModel::StopSpeed => HK_FRICTION_STOP_SPEED,
                FrictionModel::Constant => HK_FRICTION_CONSTANT,
            },
            friction: p.friction,
            stop_speed: p.stop_speed,
            stop_threshold: p.stop_threshold,
            air_max_speed: p.air_max_speed,
            air_accel: p.air_accel,
            air_wish_cap: p.air_wish_cap,
            gravity: p.gravity,
            jump_speed: p.jump_speed,
            auto_hop: p.auto_hop as u8,
            bhop_speed_cap: p.bhop_speed_cap,
            coyote_time: p.coyote_time,
            jump_buffer_time: p.jump_buffer_time,
            jump_release_gravity: p.jump_release_gravity,
            jump_release_cut: p.jump_release_cut,
            min_ground_normal_y: p.min_ground_normal_y,
            walkable_tolerance: p.walkable_tolerance,
            ground_snap: p.ground_snap,
            step_down: p.step_down,
            step_up: p.step_up,
            max_ground_rise_speed: p.max_ground_rise_speed,
            max_tick_dt: p.max_tick_dt,
            max_substeps: p.max_substeps,
            max_velocity: p.max_velocity,
            cpm_air: p.cpm_air as u8,
            air_stop_accel: p.air_stop_accel,
            strafe_accel: p.strafe_accel,
            strafe_wish_cap: p.strafe_wish_cap,
            air_control: p.air_control,
            stand_height: p.stand_height,
            crouch_height: p.crouch_height,
            crouch_speed_scale: p.crouch_speed_scale,
            crouch_jump: p.crouch_jump as u8,
            water_accel: p.water_accel,
            water_friction: p.water_friction,
            swim_speed_scale: p.swim_speed_scale,
            water_sink_speed: p.water_sink_speed,
            swim_up_speed: p.swim_up_speed,
            water_feet_height: p.water_feet_height,
            water_waist_height: p.water_waist_height,
            water_eye_height: p.water_eye_height,
            water_jump_reach: p.water_jump_reach,
            water_jump_wall_height: p.water_jump_wall_height,
            water_jump_clear_height: p.water_jump_clear_height,
            water_jump_speed: p.water_jump_speed,
            water_jump_push: p.water_jump_push,
            water_jump_max_sink: p.water_jump_max_sink,
            water_jump_time: p.water_jump_time,
            ladder_climb_speed: p.ladder_climb_speed,
            ladder_jump_speed: p.ladder_jump_speed,
            friction_math: match p.friction_math {
                FrictionMath::Rsqrt => HK_FRICTION_MATH_RSQRT,
                FrictionMath::SqrtDivide => HK_FRICTION_MATH_SQRT_DIVIDE,
            },
            body_radius: p.body_radius,
            surf: p.surf as u8,
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

fn in_unit(v: f32) -> Result<f32, HkStatus> {
    if (0.0..=1.0).contains(&finite(v)?) {
        Ok(v)
    } else {
        Err(HK_ERR_INVALID_ARG)
    }
}

fn flag(v: u8) -> Result<bool, HkStatus> {
    match v {
        0 => Ok(false),
        1 => Ok(true),
        _ => Err(HK_ERR_INVALID_ARG),
    }
}

impl HkMoveParams {
    fn to_core(self) -> Result<MoveParams, HkStatus> {
        let air_wish_cap = if self.air_wish_cap == f32::INFINITY {
            f32::INFINITY
        } else {
            non_negative(self.air_wish_cap)?
        };
        if finite(self.jump_release_gravity)? < 1.0
            || finite(self.max_tick_dt)? <= 0.0
            || self.max_substeps == 0
        {
            return Err(HK_ERR_INVALID_ARG);
        }
        Ok(MoveParams {
            max_speed: non_negative(self.max_speed)?,
            accel: non_negative(self.accel)?,
            accel_budget: match self.accel_budget {
                HK_ACCEL_BUDGET_PER_SECOND => AccelBudget::PerSecond,
                HK_ACCEL_BUDGET_WISH_SPEED_SCALED => AccelBudget::WishSpeedScaled,
                _ => return Err(HK_ERR_INVALID_ARG),
            },
            accel_style: match self.accel_style {
                HK_ACCEL_STYLE_PROJECTION => AccelStyle::Projection,
                HK_ACCEL_STYLE_CLAMPED_DELTA => AccelStyle::ClampedDelta,
                _ => return Err(HK_ERR_INVALID_ARG),
            },
            friction_model: match self.friction_model {
                HK_FRICTION_STOP_SPEED => FrictionModel::StopSpeed,
                HK_FRICTION_CONSTANT => FrictionModel::Constant,
                _ => return Err(HK_ERR_INVALID_ARG),
            },
            friction_math: match self.friction_math {
                HK_FRICTION_MATH_RSQRT => FrictionMath::Rsqrt,
                HK_FRICTION_MATH_SQRT_DIVIDE => FrictionMath::SqrtDivide,
                _ => return Err(HK_ERR_INVALID_ARG),
            },
            friction: non_negative(self.friction)?,
            stop_speed: non_negative(self.stop_speed)?,
            stop_threshold: non_negative(self.stop_threshold)?,
            air_max_speed: non_negative(self.air_max_speed)?,
            air_accel: non_negative(self.air_accel)?,
            air_wish_cap,
            gravity: non_negative(self.gravity)?,
            jump_speed: non_negative(self.jump_speed)?,
            auto_hop: flag(self.auto_hop)?,
            bhop_speed_cap: non_negative(self.bhop_speed_cap)?,
            coyote_time: non_negative(self.coyote_time)?,
            jump_buffer_time: non_negative(self.jump_buffer_time)?,
            jump_release_gravity: self.jump_release_gravity,
            jump_release_cut: in_unit(self.jump_release_cut)?,
            min_ground_normal_y: in_unit(self.min_ground_normal_y)?,
            walkable_tolerance: non_negative(self.walkable_tolerance)?,
            ground_snap: non_negative(self.ground_snap)?,
            step_down: non_negative(self.step_down)?,
            step_up: non_negative(self.step_up)?,
            max_ground_rise_speed: non_negative(self.max_ground_rise_speed)?,
            max_tick_dt: self.max_tick_dt,
            max_substeps: self.max_substeps,
            max_velocity: non_negative(self.max_velocity)?,
            cpm_air: flag(self.cpm_air)?,
            air_stop_accel: non_negative(self.air_stop_accel)?,
            strafe_accel: non_negative(self.strafe_accel)?,
            strafe_wish_cap: non_negative(self.strafe_wish_cap)?,
            air_control: non_negative(self.air_control)?,
            stand_height: non_negative(self.stand_height)?,
            crouch_height: non_negative(self.crouch_height)?,
            crouch_speed_scale: in_unit(self.crouch_speed_scale)?,
            crouch_jump: flag(self.crouch_jump)?,
            body_radius: non_negative(self.body_radius)?,
            surf: flag(self.surf)?,
            ladder_climb_speed: non_negative(self.ladder_climb_speed)?,
            ladder_jump_speed: non_negative(self.ladder_jump_speed)?,
            water_accel: non_negative(self.water_accel)?,
            water_friction: non_negative(self.water_friction)?,
            swim_speed_scale: non_negative(self.swim_speed_scale)?,
            water_sink_speed: non_negative(self.water_sink_speed)?,
            swim_up_speed: non_negative(self.swim_up_speed)?,
            water_feet_height: non_negative(self.water_feet_height)?,
            water_waist_height: non_negative(self.water_waist_height)?,
            water_eye_height: non_negative(self.water_eye_height)?,
            water_jump_reach: non_negative(self.water_jump_reach)?,
            water_jump_wall_height: non_negative(self.water_jump_wall_height)?,
            water_jump_clear_height: non_negative(self.water_jump_clear_height)?,
            water_jump_speed: non_negative(self.water_jump_speed)?,
            water_jump_push: non_negative(self.water_jump_push)?,
            water_jump_max_sink: non_negative(self.water_jump_max_sink)?,
            water_jump_time: non_negative(self.water_jump_time)?,
        })
    }
}

/// # Safety
/// `p` NULL or readable.
unsafe fn move_params(p: *const HkMoveParams) -> Result<MoveParams, HkStatus> {
    unsafe { ptr::read(p)? }.to_core()
}

/// The seed's constants (metres, seconds): ground max 10, air max 0.5, accel 120/100, friction 70,
/// auto-hop, coyote 0.15 s, buffer 0.2 s. Same as the default.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_move_params_seed(out_params: *mut HkMoveParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, MoveParams::seed().into()) };
        Ok(())
    })())
}
/// The seed with the ground max speed of its figure 1 (7.7 m/s).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_move_params_seed_figure(out_params: *mut HkMoveParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, MoveParams::seed_figure().into()) };
        Ok(())
    })())
}
/// QuakeWorld (Quake units): friction 6, stopspeed 100, accelerate 10, air cap 30, max 320, jump
/// 270, gravity 800.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_move_params_quakeworld(out_params: *mut HkMoveParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, MoveParams::quakeworld().into()) };
        Ok(())
    })())
}
/// Quake III Arena (Quake units): airaccelerate 1 with no 30 cap.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_move_params_quake3(out_params: *mut HkMoveParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, MoveParams::quake3().into()) };
        Ok(())
    })())
}
/// Source / Counter-Strike (Quake units): friction 4, max 250, air cap 30, jump 268.33.
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_move_params_source(out_params: *mut HkMoveParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, MoveParams::source().into()) };
        Ok(())
    })())
}

/// Challenge ProMode (Quake units): Quake III with accelerate 15, friction 8 and CPM's air step
/// (air stop accelerate 2.5, strafe accelerate 70 with wish cap 30, air control 150).
///
/// # Safety
/// `out_params` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_move_params_cpma(out_params: *mut HkMoveParams) -> HkStatus {
    status((|| {
        let o = out(out_params)?;
        unsafe { put(o, MoveParams::cpma().into()) };
        Ok(())
    })())
}

/// Size in bytes of [`HkMover`] storage.
pub const HK_MOVER_SIZE: usize = 96;
const MOVER_TAG: u64 = u64::from_le_bytes(*b"hkMover1");
const _: () = assert_fits::<MoverState>(HK_MOVER_SIZE);

/// Opaque storage for one moving character. Initialise with [`hk_mover_init`]; read and write it
/// through [`HkMoverState`].
#[repr(C, align(8))]
pub struct HkMover {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_MOVER_SIZE],
}

/// Readable/writable state of a mover (plain data).
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkMoverState {
    /// Feet position, world units.
    pub position: HkVec3,
    /// Velocity, units/s (`y` vertical; 0 while grounded).
    pub velocity: HkVec3,
    /// 1 while standing on walkable ground.
    pub grounded: u8,
    /// Normal of the ground stood on; (0, 1, 0) while airborne.
    pub ground_normal: HkVec3,
    /// Seconds of coyote time left.
    pub coyote_timer: f32,
    /// Seconds left for a buffered jump press.
    pub jump_buffer_timer: f32,
    /// 1 if the jump key was down last tick.
    pub jump_held: u8,
    /// 1 if a jump happened and the key was not released since.
    pub jump_latched: u8,
    /// 1 while rising from a jump.
    pub jump_rising: u8,
    /// 1 while crouched.
    pub crouched: u8,
    /// Seconds left of a water jump (0 when none).
    pub water_jump_timer: f32,
}

impl From<MoverState> for HkMoverState {
    fn from(s: MoverState) -> Self {
        HkMoverState {
            position: s.position.into(),
            velocity: s.velocity.into(),
            grounded: s.grounded as u8,
            ground_normal: s.ground_normal.into(),
            coyote_timer: s.coyote_timer,
            jump_buffer_timer: s.jump_buffer_timer,
            jump_held: s.jump_held as u8,
            jump_latched: s.jump_latched as u8,
            jump_rising: s.jump_rising as u8,
            crouched: s.crouched as u8,
            water_jump_timer: s.water_jump_timer,
        }
    }
}

impl HkMoverState {
    fn to_core(self) -> Result<MoverState, HkStatus> {
        let normal = self
            .ground_normal
            .finite()?
            .try_normalize()
            .ok_or(HK_ERR_INVALID_ARG)?;
        Ok(MoverState {
            position: self.position.finite()?,
            velocity: self.velocity.finite()?,
            grounded: flag(self.grounded)?,
            ground_normal: normal,
            coyote_timer: non_negative(self.coyote_timer)?,
            jump_buffer_timer: non_negative(self.jump_buffer_timer)?,
            jump_held: flag(self.jump_held)?,
            jump_latched: flag(self.jump_latched)?,
            jump_rising: flag(self.jump_rising)?,
            crouched: flag(self.crouched)?,
            water_jump_timer: non_negative(self.water_jump_timer)?,
        })
    }
}

/// Initialise a mover at rest at `position` (feet; finite), airborne until the first tick
/// categorises the ground.
///
/// # Safety
/// `mover` NULL or writable `HkMover` storage.
#[no_mangle]
pub unsafe extern "C" fn hk_mover_init(mover: *mut HkMover, position: HkVec3) -> HkStatus {
    status((|| {
        let p = position.finite()?;
        unsafe { ptr::init(mover, MOVER_TAG, MoverState::new(p)) }
    })())
}

/// Read the mover's state.
///
/// # Safety
/// `mover` an `HkMover` or NULL; `out_state` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_mover_get_state(
    mover: *const HkMover,
    out_state: *mut HkMoverState,
) -> HkStatus {
    status((|| {
        let o = out(out_state)?;
        let m: &MoverState = unsafe { ptr::get(mover, MOVER_TAG)? };
        unsafe { put(o, (*m).into()) };
        Ok(())
    })())
}

/// Overwrite the mover's state (teleports, respawns, rollback). Validated: finite vectors, a
/// non-zero normal (normalised), timers ≥ 0, flags 0/1.
///
/// # Safety
/// `mover` an `HkMover` or NULL; `state` NULL or readable.
#[no_mangle]
pub unsafe extern "C" fn hk_mover_set_state(
    mover: *mut HkMover,
    state: *const HkMoverState,
) -> HkStatus {
    status((|| {
        let s = unsafe { ptr::read(state)? }.to_core()?;
        let m: &mut MoverState = unsafe { ptr::get_mut(mover, MOVER_TAG)? };
        *m = s;
        Ok(())
    })())
}

/// One tick's input.
#[repr(C)]
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct HkMoveInput {
    /// Wish in the view frame, the seed's `(front, right)`: `x` = front (W), `y` = right (D).
    /// Length ≤ 1 is the analog scale; longer clamps to 1 (so keyboard (1, 1) is full speed).
    pub wish: HkVec2,
    /// 1 while the jump key is down.
    pub jump: u8,
    /// The view's planar unit forward `(x, z)` (`hk_facing_from_yaw`); non-unit is normalised,
    /// zero means yaw 0 (−Z).
    pub facing: HkVec2,
    /// 1 while the crouch key is down (0 in inputs made before ABI version 2).
    pub crouch: u8,
    /// The view's pitch as the vertical part of its unit forward vector (sin of the pitch, +1 up,
    /// −1 down; in [−1, 1]): swimming goes where the view looks. 0 = level.
    pub look_up: f32,
}

/// What happened during an `hk_mover_step` (over all its sub-steps).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkStepEvents {
    /// 1 if a jump happened.
    pub jumped: u8,
    /// 1 if the jump used coyote time.
    pub coyote_jump: u8,
    /// 1 if the character landed.
    pub landed: u8,
    /// 1 if it left the ground without jumping.
    pub left_ground: u8,
    /// 1 if it touched ground too steep to stand on.
    pub sliding: u8,
    /// 1 if a wall blocked the move.
    pub hit_wall: u8,
    /// Largest downward speed at a landing, units/s.
    pub impact_speed: f32,
    /// Ticks simulated.
    pub substeps: u32,
    /// Seconds of `dt` dropped by the long-frame clamp.
    pub dropped_time: f32,
    /// Radians a turning platform turned the character (add to the view yaw): from the ground
    /// callback's `surface_motion`; 0 on other grounds.
    pub carried_yaw: f32,
}

impl From<StepEvents> for HkStepEvents {
    fn from(e: StepEvents) -> Self {
        HkStepEvents {
            jumped: e.jumped as u8,
            coyote_jump: e.coyote_jump as u8,
            landed: e.landed as u8,
            left_ground: e.left_ground as u8,
            sliding: e.sliding as u8,
            hit_wall: e.hit_wall as u8,
            impact_speed: e.impact_speed,
            substeps: e.substeps,
            dropped_time: e.dropped_time,
            carried_yaw: e.carried_yaw,
        }
    }
}

/// Longest `dt` accepted by [`hk_mover_step`], seconds (longer is `HK_ERR_INVALID_ARG`; within it,
/// time beyond `max_tick_dt · max_substeps` is dropped and reported).
pub const HK_MAX_STEP_DT: f32 = 10.0;

/// The validated params and input of a step, and `dt` (finite, 0 < dt ≤ `HK_MAX_STEP_DT`).
///
/// # Safety
/// `params`, `input` NULL or readable.
unsafe fn step_args(
    params: *const HkMoveParams,
    input: *const HkMoveInput,
) -> Result<(MoveParams, MoveInput), HkStatus> {
    let p = unsafe { move_params(params)? };
    let i = unsafe { ptr::read(input)? };
    let input = MoveInput::new(i.wish.finite()?, flag(i.jump)?, i.facing.finite()?)
        .with_crouch(flag(i.crouch)?);
    let look_up = finite(i.look_up)?;
    if !(-1.0..=1.0).contains(&look_up) {
        return Err(HK_ERR_INVALID_ARG);
    }
    Ok((p, MoveInput { look_up, ..input }))
}

/// `dt` if finite and 0 < dt ≤ `HK_MAX_STEP_DT`.
fn step_dt(dt: f32) -> Result<f32, HkStatus> {
    if finite(dt)? > 0.0 && dt <= HK_MAX_STEP_DT {
        Ok(dt)
    } else {
        Err(HK_ERR_INVALID_ARG)
    }
}

/// An optional events out-pointer, checked.
fn events_out(out_events: *mut HkStepEvents) -> Result<Option<*mut HkStepEvents>, HkStatus> {
    if out_events.is_null() {
        Ok(None)
    } else {
        out(out_events).map(Some)
    }
}

/// Advance the mover by `dt` seconds (finite, 0 < dt ≤ `HK_MAX_STEP_DT`) over `ground` (NULL = no
/// ground): Quake order — ground test, jump, friction, accelerate/air-accelerate, gravity, move,
/// walls, ground test. `dt > max_tick_dt` is split into sub-steps. `out_events` may be NULL.
/// A callback ground with a `trace` callback is a world of solids: the body's box
/// (`body_radius`, the standing or crouched height) collides and slides through it
/// (`HkGroundTraceFn`).
///
/// # Safety
/// `mover` an `HkMover` or NULL; `params`, `input` readable or NULL; `ground` NULL or readable;
/// `out_events` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_mover_step(
    mover: *mut HkMover,
    params: *const HkMoveParams,
    input: *const HkMoveInput,
    ground: *const HkGround,
    dt: f32,
    out_events: *mut HkStepEvents,
) -> HkStatus {
    status((|| {
        let (p, input) = unsafe { step_args(params, input)? };
        let g = unsafe { Ground::from_c(ground)? };
        let dt = step_dt(dt)?;
        let oe = events_out(out_events)?;
        // The ground callback may call back into hk_* on this mover: HK_ERR_BUSY (see ptr.rs).
        // `GroundProbe::SOLID` is a constant: the solid world is a type of its own.
        let ev = unsafe {
            ptr::with_value(mover, MOVER_TAG, |m: &mut MoverState| match g.traced() {
                Some(solid) => movement::step(m, &p, &input, &solid, dt),
                None => movement::step(m, &p, &input, &g, dt),
            })?
        };
        if let Some(oe) = oe {
            unsafe { put(oe, ev.into()) };
        }
        Ok(())
    })())
}

/// [`hk_mover_step`] through the solids of `world` (an initialised `HkWorld`): the body's box
/// (`body_radius` wide, the standing or crouched height) collides and slides through them, steps
/// up stairs up to `step_up`, stays on the ground down stairs and slopes, surfs ramps too steep
/// to stand on (`surf` 1) and stops under ceilings — the core's `movement::step` over
/// `collide::Solid(&world)`, bit for bit. It swims in the world's water volumes
/// (`hk_world_add_water`) and climbs `HK_SOLID_LADDER` solids as the core does (facing one
/// within reach). No moving platforms: the C world has no call that moves a solid. Errors as
/// `hk_mover_step`; the world is only read.
///
/// # Safety
/// `mover` an `HkMover` or NULL; `params`, `input` readable or NULL; `world` an `HkWorld` or
/// NULL, not written during the call; `out_events` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_mover_step_world(
    mover: *mut HkMover,
    params: *const HkMoveParams,
    input: *const HkMoveInput,
    world: *const HkWorld,
    dt: f32,
    out_events: *mut HkStepEvents,
) -> HkStatus {
    status((|| {
        let (p, input) = unsafe { step_args(params, input)? };
        let w = unsafe { world_ref(world)? };
        let dt = step_dt(dt)?;
        let oe = events_out(out_events)?;
        let solid = Solid(w);
        let ev = unsafe {
            ptr::with_value(mover, MOVER_TAG, |m: &mut MoverState| {
                movement::step(m, &p, &input, &solid, dt)
            })?
        };
        if let Some(oe) = oe {
            unsafe { put(oe, ev.into()) };
        }
        Ok(())
    })())
}

/// Horizontal speed `|(vx, vz)|` of the mover, units/s.
///
/// # Safety
/// `mover` an `HkMover` or NULL; `out_speed` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_mover_planar_speed(
    mover: *const HkMover,
    out_speed: *mut f32,
) -> HkStatus {
    status((|| {
        let o = out(out_speed)?;
        let m: &MoverState = unsafe { ptr::get(mover, MOVER_TAG)? };
        unsafe { put(o, m.planar_speed()) };
        Ok(())
    })())
}

/// 64-bit state hash of the mover, for replay checks.
///
/// # Safety
/// `mover` an `HkMover` or NULL; `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_mover_state_hash(
    mover: *const HkMover,
    out_hash: *mut u64,
) -> HkStatus {
    status((|| {
        let o = out(out_hash)?;
        let m: &MoverState = unsafe { ptr::get(mover, MOVER_TAG)? };
        unsafe { put(o, m.state_hash()) };
        Ok(())
    })())
}

/// The planar unit forward `(x, z)` of a view with `yaw` radians (finite; 0 faces −Z, positive
/// turns left). Uses sin/cos: call it when the view turns.
///
/// # Safety
/// `out_facing` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_facing_from_yaw(yaw: f32, out_facing: *mut HkVec2) -> HkStatus {
    status((|| {
        let y = finite(yaw)?;
        let o = out(out_facing)?;
        unsafe { put(o, movement::facing_from_yaw(y).into()) };
        Ok(())
    })())
}

/// A mover input from a stick-pipeline wish (`HkWish`: unit `(front, right)` + magnitude), the jump
/// key and a facing: `wish = (front, right) · magnitude`.
///
/// # Safety
/// `wish` NULL or readable; `out_input` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_move_input_from_wish(
    wish: *const HkWish,
    jump: u8,
    facing: HkVec2,
    out_input: *mut HkMoveInput,
) -> HkStatus {
    status((|| {
        let w = unsafe { ptr::read(wish)? }.to_core()?;
        flag(jump)?;
        let f: Vec2 = facing.finite()?;
        let o = out(out_input)?;
        let v = Vec2::new(w.front * w.magnitude, w.right * w.magnitude);
        unsafe {
            put(
                o,
                HkMoveInput {
                    wish: v.into(),
                    jump,
                    facing: f.into(),
                    crouch: 0,
                    look_up: 0.0,
                },
            )
        };
        Ok(())
    })())
}
