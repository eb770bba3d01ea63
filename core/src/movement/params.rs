//! [`MoveParams`]: every movement tunable in one plain struct, plus named presets.
//!
//! Units: every preset states the units it was tuned in. [`MoveParams::seed`] is in metres and
//! seconds (Unity); the Quake/Source presets are in Quake units (≈ 1 inch) and seconds.
//!
//! Which per-tick acceleration budget each preset uses ([`AccelBudget`]):
//!
//! | preset | ground budget `a` | air cap `L` | air budget `a` |
//! |---|---|---|---|
//! | [`MoveParams::seed`] | `accel·dt` = 120·dt | `air_max_speed` = 0.5 | `air_accel·dt` = 100·dt |
//! | [`MoveParams::quakeworld`] | `accel·wish·dt` = 10·320·dt | `min(320, 30)` = 30 | 10·320·dt |
//! | [`MoveParams::quake3`] | 10·320·dt | 320 (no cap) | 1·320·dt |
//! | [`MoveParams::source`] | 10·250·dt | 30 | 10·250·dt |
//! | [`MoveParams::cpma`] | 15·320·dt | 320; strafe-only 30 | 1·320·dt; slowing 2.5·320·dt; strafe-only 70·30·dt |

use crate::math::Vec3;

/// How ground friction removes speed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FrictionModel {
    /// Quake: `control = max(speed, stop_speed)`, `drop = control·friction·dt`,
    /// `v *= max(speed − drop, 0)/speed`. Exponential decay above `stop_speed`, a linear stop below.
    /// `friction` is a coefficient in 1/s.
    StopSpeed,
    /// The seed: a constant deceleration, `drop = friction·dt`, `v *= max(speed − drop, 0)/speed`.
    /// `friction` is a deceleration in units/s².
    Constant,
}

/// How ground friction computes the speed it scales the velocity by. Both forms are made of
/// IEEE-754 operations that are exact or correctly rounded, so each gives **the same bits on every
/// target**; they differ from each other in the last bits, so every peer of a networked game, and a
/// recording and its replay, must use the same one.
///
/// | form | desktop CPUs (x86_64, AArch64) | Cortex-M4F | Cortex-M0 (software floats) |
/// |---|---|---|---|
/// | [`FrictionMath::Rsqrt`] | a dozen multiplies | cheapest | dearer |
/// | [`FrictionMath::SqrtDivide`] | cheapest: two instructions | dearest: no `VSQRT` from safe stable `no_std` Rust | cheaper |
///
/// The measured costs are in `docs/benchmarks.md` (x86_64, the "`SqrtDivide`" rows) and
/// `firmware/budgets.txt` (the `movement-kernel-ground-exact-instr` rows).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum FrictionMath {
    /// `v·(1 − drop·rsqrt(|v|²))`: the reciprocal speed from a bit-level estimate and two Newton
    /// steps (`math::scalar::rsqrt`, within 7.3e-7 relative), no square root, no divide. Speeds
    /// below 1e-15 units/s stop dead. The default: the cheapest form on an FPU microcontroller.
    #[default]
    Rsqrt,
    /// `v·(speed − drop)/speed` with `speed = sqrt(|v|²)` correctly rounded: the arithmetic of
    /// Quake's `PM_Friction` bit for bit (with the default `libm` backend; the stop test stays
    /// hopkit's, `|v|² ≤ stop_threshold²`, where Quake tests `speed < 1`). The cheapest form where a square root and a divide are instructions
    /// (desktop CPUs, consoles) and on the Cortex-M0 (`math::sqrt32`), the dearest on the
    /// Cortex-M4F.
    SqrtDivide,
}

/// How the acceleration parameter becomes the per-tick speed budget `a`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AccelBudget {
    /// The seed: `a = accel·dt` (`accel` in units/s²).
    PerSecond,
    /// Quake/Source: `a = accel·wishspeed·dt` (`accel` in 1/s; the *uncapped* wish speed).
    WishSpeedScaled,
}

/// How the acceleration budget is applied.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum AccelStyle {
    /// Quake `PM_Accelerate` / the seed's add vector: only the projection of the velocity on the wish
    /// direction is capped, so turning the view while strafing gains speed.
    Projection,
    /// Quake III's disabled "proper way": the whole difference `wishdir·wishspeed − v` is clamped to
    /// the budget. No strafe gain; costs one more sqrt and divide per tick.
    ClampedDelta,
}

/// Every movement tunable. `Default` is [`MoveParams::seed`].
///
/// All values must be finite and non-negative (`air_wish_cap` may be `f32::INFINITY`); the state is
/// still guarded against NaN if they are not, but the motion is then meaningless.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct MoveParams {
    // --- ground ---
    /// Ground wish speed at full input, units/s. Default 10 (seed `maxSpeedOnTheGround`).
    pub max_speed: f32,
    /// Ground acceleration: units/s² with [`AccelBudget::PerSecond`], 1/s with
    /// [`AccelBudget::WishSpeedScaled`]. Default 120 (seed `accelOnTheGround`).
    pub accel: f32,
    /// How `accel`/`air_accel` become a per-tick budget. Default [`AccelBudget::PerSecond`].
    pub accel_budget: AccelBudget,
    /// How the budget is applied (ground and air). Default [`AccelStyle::Projection`].
    pub accel_style: AccelStyle,
    /// Friction model. Default [`FrictionModel::Constant`] (seed).
    pub friction_model: FrictionModel,
    /// How friction computes the speed (same bits everywhere either way; see [`FrictionMath`]).
    /// Default [`FrictionMath::Rsqrt`]; every preset uses the default.
    pub friction_math: FrictionMath,
    /// Friction: deceleration in units/s² ([`FrictionModel::Constant`]) or coefficient in 1/s
    /// ([`FrictionModel::StopSpeed`]). Default 70 (seed `frictionAccel`).
    pub friction: f32,
    /// [`FrictionModel::StopSpeed`] only: below this speed friction acts as if moving at it, units/s.
    /// Default 0 (unused by the seed).
    pub stop_speed: f32,
    /// Ground speed at or below which friction stops the character dead, units/s (Quake 1).
    /// Default 0 (the seed has none).
    pub stop_threshold: f32,
    // --- air ---
    /// Air wish speed at full input, units/s. Default 0.5 (seed `maxSpeedInTheAir`).
    pub air_max_speed: f32,
    /// Air acceleration, same units as `accel`. Default 100 (seed `accelInTheAir`).
    pub air_accel: f32,
    /// Cap on the air wish speed used in the projection test (`L = min(air wish, cap)`), units/s;
    /// the budget still uses the uncapped wish speed. QuakeWorld/Source 30; `f32::INFINITY` = no
    /// cap (Quake III, seed). Default `f32::INFINITY`.
    pub air_wish_cap: f32,
    // --- CPM air step (Challenge ProMode; module `cpma`) ---
    /// Use CPM's air step (`cpma.rs`; docs/movement-features.md) instead of plain air acceleration: a different
    /// acceleration while slowing down, strafe-only acceleration with its own wish-speed cap, and
    /// air control while only forward/back is held. The four fields below are read only when this
    /// is on. Default false (every preset but [`MoveParams::cpma`]).
    pub cpm_air: bool,
    /// CPM only: air acceleration while the wish points against the velocity (`v·wishdir < 0`),
    /// same units as `air_accel`. Default 2.5 (`cpm_pm_airstopaccelerate`).
    pub air_stop_accel: f32,
    /// CPM only: air acceleration while only strafe keys are held, same units as `air_accel`; its
    /// budget uses the *capped* wish speed. Default 70 (`cpm_pm_strafeaccelerate`).
    pub strafe_accel: f32,
    /// CPM only: cap on the wish speed while only strafe keys are held, units/s. Default 30
    /// (`cpm_pm_wishspeed`, Quake units).
    pub strafe_wish_cap: f32,
    /// CPM only: air-control strength while only forward/back is held: each tick the planar
    /// velocity direction gets `32·air_control·d²·dt` units/s of the wish direction added
    /// (`d` = cosine between them, only while `d > 0`) and is renormalised, so the velocity turns
    /// towards the wish without changing speed. 1/s·(units/s) in CPM's scaling (tuned for Quake
    /// units). 0 = off. Default 150 (`cpm_pm_aircontrol`).
    pub air_control: f32,
    // --- crouching (module `crouch`) ---
    /// Body height standing, units: standing up needs this much clearance above the feet.
    /// Default 1.8 (m); Quake presets 56 (Quake III's box, −24..32); Source 72.
    pub stand_height: f32,
    /// Body height crouched, units. Default 0.9; Quake presets 40 (Quake III ducked); Source 36.
    pub crouch_height: f32,
    /// Ground wish-speed multiplier while crouched, `0..=1`. Default 0.5; Quake presets 0.25
    /// (Quake III `pm_duckScale`); Source 0.333.
    pub crouch_speed_scale: f32,
    /// Crouching in the air pulls the feet up by `stand_height − crouch_height` (Source /
    /// Half-Life: the crouch-jump reaches higher ledges). Default false; Source true.
    pub crouch_jump: bool,
    // --- the body against solids (module `slide`; only with a solid world, `GroundProbe::SOLID`) ---
    /// Half the body's width, units: the box swept through solids is `(−r, 0, −r)..(r, h, r)`
    /// around the feet, `h` the standing or crouched height. Default 0.4 (m); Quake presets 15
    /// (Quake III's box, −15..15); Source 16.
    pub body_radius: f32,
    /// Surfing: ground steeper than walkable is slid along in the air, where air-strafing gains
    /// speed (Quake's ramps, Counter-Strike's surf maps). Off, such ramps act as walls: the body
    /// keeps no speed into them and does not slide down them. Default true.
    pub surf: bool,
    // --- ladders (module `ladder`) ---
    /// Climbing speed on a ladder at full input, units/s. Default 3 (m/s); Quake presets 200
    /// (Quake II / Source).
    pub ladder_climb_speed: f32,
    /// Speed of the push-off when jumping from a ladder, along its normal, units/s. Default 4;
    /// Quake presets 270 (Source). Keep it above `ladder_climb_speed`: a character moving away
    /// from the ladder no faster than that is caught by it again on the next tick, which ends the
    /// push-off.
    pub ladder_jump_speed: f32,
    // --- water (module `water`; QuakeWorld `pmove.c`) ---
    /// Water acceleration, 1/s: the per-tick budget is `water_accel·wishspeed·dt` (Quake's
    /// `PM_Accelerate` form whatever `accel_budget` says). Default 10; Quake presets 10
    /// (`movevars.wateraccelerate`).
    pub water_accel: f32,
    /// Water friction per water level, 1/s: `drop = speed·water_friction·level·dt` at level 2 or
    /// 3 (QuakeWorld `PM_Friction`). Default 4; Quake presets 4 (`movevars.waterfriction`).
    pub water_friction: f32,
    /// Swimming wish speed as a fraction of `max_speed` (QuakeWorld `PM_WaterMove`'s
    /// `wishspeed *= 0.7`). Default 0.7; Quake presets 0.7.
    pub swim_speed_scale: f32,
    /// Swimming with no move input sinks towards this wish speed, units/s (before
    /// `swim_speed_scale`; QuakeWorld's `wishvel[2] -= 60`). Default 0.6; Quake presets 60.
    pub water_sink_speed: f32,
    /// The jump key while swimming sets the upward speed to this, units/s (QuakeWorld
    /// `JumpButton` in water: 100). Default 3.2 (Quake's 100 at 32 units a metre); Quake presets
    /// 100. Standing on the bottom, a swimmer leaves it only if this rises more than
    /// `ground_snap` in one tick (as in Quake, whose categorisation pulls the feet down onto
    /// ground within 1 unit): 3.2 m/s is 0.053 m per 60 Hz tick against the default 0.05.
    pub swim_up_speed: f32,
    /// Height above the feet of the point that, under the water surface, makes water level 1
    /// (wading), units (Quake: `player_mins[2] + 1`, 1 above the feet). Default 0.05; Quake
    /// presets 1.
    pub water_feet_height: f32,
    /// Height above the feet of the point that, under water, makes level 2 (swimming), units
    /// (Quake: the hull's middle, 28 of 56). Default 0.9; Quake presets 28.
    pub water_waist_height: f32,
    /// Height above the feet of the eyes: under water they make level 3 (submerged), units
    /// (Quake: `origin + 22`, 46 above the feet). Default 1.5; Quake presets 46.
    pub water_eye_height: f32,
    /// Water jump (QuakeWorld `CheckWaterJump`): how far ahead of the feet, along the planar
    /// view direction, the edge is looked for, units. Default 0.75; Quake presets 24.
    pub water_jump_reach: f32,
    /// Water jump: height above the feet at which the spot ahead must be solid (ground above
    /// it: the pool's wall), units. Default 1.0; Quake presets 32 (`origin + 8`).
    pub water_jump_wall_height: f32,
    /// Water jump: height above the feet at which the spot ahead must be free (no ground, no
    /// water above it), units. Default 1.8; Quake presets 56 (`origin + 32`).
    pub water_jump_clear_height: f32,
    /// Water jump: the upward speed it sets, units/s. Default 5.5; Quake presets 310.
    pub water_jump_speed: f32,
    /// Water jump: the planar speed along the view direction it sets, units/s. Default 1.5;
    /// Quake presets 50.
    pub water_jump_push: f32,
    /// Water jump: not taken while sinking faster than this, units/s (QuakeWorld
    /// `CheckWaterJump`: "don't hop out if we just jumped in", 180). Default 5.6; Quake presets
    /// 180.
    pub water_jump_max_sink: f32,
    /// Water jump: its timer, seconds (Quake's `waterjumptime` safety net); while it runs there
    /// is no friction and no acceleration, walls do not take the velocity, and it ends on the
    /// ground, when falling, or (counted down only while the jump key is held, as Quake) at 0.
    /// Default 2; Quake presets 2.
    pub water_jump_time: f32,
    // --- vertical ---
    /// Gravity, units/s² (positive pulls down). Default 9.81 (Unity's default; the seed gives none).
    pub gravity: f32,
    /// Upward speed set by a jump, units/s. Default 4.43 (≈ √(2·9.81·1.0): a 1 m jump; not in the
    /// seed).
    pub jump_speed: f32,
    /// Jump again as soon as grounded while the key is held (no release needed). Default true (the
    /// seed's figure 1 runs with auto-jump on).
    pub auto_hop: bool,
    /// Bunny-hop cap: on each jump the planar speed is limited to `bhop_speed_cap·max_speed`
    /// (Source-mod style, 1.1–1.7). 0 = off. Default 0.
    pub bhop_speed_cap: f32,
    /// Coyote time: a jump is still allowed this long after walking off a ledge, seconds.
    /// Default 0.15 (bevy-tnua); Quake presets 0.
    pub coyote_time: f32,
    /// Jump buffer: a press this long before landing still jumps on landing, seconds.
    /// Default 0.2 (bevy-tnua); Quake presets 0.
    pub jump_buffer_time: f32,
    /// Variable jump height: gravity multiplier while rising after the jump key was released
    /// (≥ 1; 1 = off). Default 2.0; Quake presets 1.
    pub jump_release_gravity: f32,
    /// Variable jump height: the upward speed is multiplied by this once when the jump key is
    /// released while rising (0..=1; 1 = off). Default 1.
    pub jump_release_cut: f32,
    // --- ground detection ---
    /// Walkable test: ground whose normal has `n.y ≥ min_ground_normal_y − walkable_tolerance`
    /// is walkable; `min_ground_normal_y = cos(slope limit)`. Default cos 45° = 0.7071 (Rapier,
    /// Godot); Quake presets 0.7 (≈ 45.6°).
    pub min_ground_normal_y: f32,
    /// Tolerance of the walkable test in cosine units, so a surface built at exactly the limit
    /// angle counts as walkable despite rounding. Default 0.007 (≈ Godot's 0.01 rad margin at
    /// 45°); Quake presets 0 (Quake's exact `n.z ≥ 0.7`).
    pub walkable_tolerance: f32,
    /// Feet within this height above walkable ground count as grounded (landing), units.
    /// Default 0.05 m; Quake presets 1 (QuakeWorld tests 1 unit below).
    pub ground_snap: f32,
    /// A grounded character that did not jump stays grounded (snapped down) when the ground under
    /// its new position is at most this far below its feet: walking down ramps and steps does not
    /// flicker the grounded flag. Units. Default 0.3 m (Unity `stepOffset`); Quake presets 18
    /// (step height; Source `StayOnGround`). 0 = off (QuakeWorld floats off downhill ramps).
    pub step_down: f32,
    /// Ledges up to this height above the feet are stepped onto; higher ground (beyond what the
    /// steepest walkable slope rises over the move) is a wall that blocks the move. Units.
    /// Default 0.3 m (Unity `stepOffset`); Quake presets 18 (`STEPSIZE`).
    pub step_up: f32,
    /// Rising faster than this (units/s) never counts as grounded, so a jump is not cancelled by the
    /// ground test on its first ticks. Default 2.0 m/s; QuakeWorld 180, Source 140, Quake III 10.
    pub max_ground_rise_speed: f32,
    // --- safety ---
    /// Longest simulated tick, seconds: a longer `dt` is split into equal sub-steps. Default 0.05.
    pub max_tick_dt: f32,
    /// Most sub-steps per `step` call; time beyond `max_tick_dt·max_substeps` is dropped (reported
    /// in `StepEvents::dropped_time`). Default 8 (0.4 s at the default `max_tick_dt`). Capped at
    /// [`crate::timestep::MAX_SUBSTEPS`] (64), so one call does bounded work whatever it holds.
    pub max_substeps: u32,
    /// Last-resort per-axis velocity clamp, units/s (Quake's `sv_maxvelocity`). Default 100 m/s
    /// (10× the seed's ground max); Quake 2000, Source 3500.
    pub max_velocity: f32,
}

impl Default for MoveParams {
    fn default() -> Self {
        MoveParams::seed()
    }
}

/// Seed constants (`PlayerControllerSub`): ground max speed, m/s.
pub const SEED_MAX_SPEED_GROUND: f32 = 10.0;
/// Seed constants: air max speed, m/s.
pub const SEED_MAX_SPEED_AIR: f32 = 0.5;
/// Seed constants: ground acceleration, m/s².
pub const SEED_ACCEL_GROUND: f32 = 120.0;
/// Seed constants: air acceleration, m/s².
pub const SEED_ACCEL_AIR: f32 = 100.0;
/// Seed constants: friction deceleration, m/s².
pub const SEED_FRICTION_ACCEL: f32 = 70.0;

/// CPM (`bg_promode.c`, pro mode): `cpm_pm_airstopaccelerate`.
pub const CPM_AIR_STOP_ACCEL: f32 = 2.5;
/// CPM: `cpm_pm_strafeaccelerate`.
pub const CPM_STRAFE_ACCEL: f32 = 70.0;
/// CPM: `cpm_pm_wishspeed`, units/s.
pub const CPM_STRAFE_WISH_CAP: f32 = 30.0;
/// CPM: `cpm_pm_aircontrol`.
pub const CPM_AIR_CONTROL: f32 = 150.0;

/// QuakeWorld `movevars.wateraccelerate`, 1/s.
pub const QW_WATER_ACCEL: f32 = 10.0;
/// QuakeWorld `movevars.waterfriction`, 1/s per water level.
pub const QW_WATER_FRICTION: f32 = 4.0;

impl MoveParams {
    /// The seed's code constants (ground max 10, air max 0.5, ground accel 120, air accel 100,
    /// friction 70; metres, seconds), per-second budget, constant friction, no separate air cap,
    /// auto-hop on, plus hopkit's jump-feel helpers (coyote 0.15 s, buffer 0.2 s, release gravity ×2).
    pub const fn seed() -> Self {
        MoveParams {
            max_speed: SEED_MAX_SPEED_GROUND,
            accel: SEED_ACCEL_GROUND,
            accel_budget: AccelBudget::PerSecond,
            accel_style: AccelStyle::Projection,
            friction_model: FrictionModel::Constant,
            friction_math: FrictionMath::Rsqrt,
            friction: SEED_FRICTION_ACCEL,
            stop_speed: 0.0,
            stop_threshold: 0.0,
            air_max_speed: SEED_MAX_SPEED_AIR,
            air_accel: SEED_ACCEL_AIR,
            air_wish_cap: f32::INFINITY,
            cpm_air: false,
            air_stop_accel: CPM_AIR_STOP_ACCEL,
            strafe_accel: CPM_STRAFE_ACCEL,
            strafe_wish_cap: CPM_STRAFE_WISH_CAP,
            air_control: CPM_AIR_CONTROL,
            stand_height: 1.8,
            crouch_height: 0.9,
            crouch_speed_scale: 0.5,
            crouch_jump: false,
            body_radius: 0.4,
            surf: true,
            ladder_climb_speed: 3.0,
            ladder_jump_speed: 4.0,
            water_accel: 10.0,
            water_friction: 4.0,
            swim_speed_scale: 0.7,
            water_sink_speed: 0.6,
            swim_up_speed: 3.2,
            water_feet_height: 0.05,
            water_waist_height: 0.9,
            water_eye_height: 1.5,
            water_jump_reach: 0.75,
            water_jump_wall_height: 1.0,
            water_jump_clear_height: 1.8,
            water_jump_speed: 5.5,
            water_jump_push: 1.5,
            water_jump_max_sink: 5.6,
            water_jump_time: 2.0,
            gravity: 9.81,
            jump_speed: 4.43,
            auto_hop: true,
            bhop_speed_cap: 0.0,
            coyote_time: 0.15,
            jump_buffer_time: 0.2,
            jump_release_gravity: 2.0,
            jump_release_cut: 1.0,
            min_ground_normal_y: core::f32::consts::FRAC_1_SQRT_2,
            walkable_tolerance: 0.007,
            ground_snap: 0.05,
            step_down: 0.3,
            step_up: 0.3,
            max_ground_rise_speed: 2.0,
            max_tick_dt: 0.05,
            max_substeps: 8,
            max_velocity: 100.0,
        }
    }

    /// [`MoveParams::seed`] with the ground max speed of the seed's figure 1 (7.7 m/s; the article's
    /// project evidently ran with different settings from the listed code).
    pub const fn seed_figure() -> Self {
        let mut p = MoveParams::seed();
        p.max_speed = 7.7;
        p
    }

    /// QuakeWorld (Quake units): stopspeed 100, friction 6, accelerate 10 (also used in air — QW calls
    /// `PM_AirAccelerate` with `movevars.accelerate`), air wish cap 30, max 320, jump 270, gravity 800,
    /// walkable `n.y ≥ 0.7`, no auto-hop, no coyote/buffer/variable height. Water as `pmove.c`:
    /// wateraccelerate 10, waterfriction 4, swimming at 0.7 × 320, sinking towards 60, the jump
    /// key swimming up at 100, the water jump 310 up and 50 ahead (the Quake III, Source and CPM
    /// presets keep these water values).
    pub const fn quakeworld() -> Self {
        MoveParams {
            max_speed: 320.0,
            accel: 10.0,
            accel_budget: AccelBudget::WishSpeedScaled,
            accel_style: AccelStyle::Projection,
            friction_model: FrictionModel::StopSpeed,
            friction_math: FrictionMath::Rsqrt,
            friction: 6.0,
            stop_speed: 100.0,
            stop_threshold: 1.0,
            air_max_speed: 320.0,
            air_accel: 10.0,
            air_wish_cap: 30.0,
            cpm_air: false,
            air_stop_accel: CPM_AIR_STOP_ACCEL,
            strafe_accel: CPM_STRAFE_ACCEL,
            strafe_wish_cap: CPM_STRAFE_WISH_CAP,
            air_control: CPM_AIR_CONTROL,
            stand_height: 56.0,
            crouch_height: 40.0,
            crouch_speed_scale: 0.25,
            crouch_jump: false,
            body_radius: 15.0,
            surf: true,
            ladder_climb_speed: 200.0,
            ladder_jump_speed: 270.0,
            water_accel: QW_WATER_ACCEL,
            water_friction: QW_WATER_FRICTION,
            swim_speed_scale: 0.7,
            water_sink_speed: 60.0,
            swim_up_speed: 100.0,
            water_feet_height: 1.0,
            water_waist_height: 28.0,
            water_eye_height: 46.0,
            water_jump_reach: 24.0,
            water_jump_wall_height: 32.0,
            water_jump_clear_height: 56.0,
            water_jump_speed: 310.0,
            water_jump_push: 50.0,
            water_jump_max_sink: 180.0,
            water_jump_time: 2.0,
            gravity: 800.0,
            jump_speed: 270.0,
            auto_hop: false,
            bhop_speed_cap: 0.0,
            coyote_time: 0.0,
            jump_buffer_time: 0.0,
            jump_release_gravity: 1.0,
            jump_release_cut: 1.0,
            min_ground_normal_y: 0.7,
            walkable_tolerance: 0.0,
            ground_snap: 1.0,
            step_down: 18.0,
            step_up: 18.0,
            max_ground_rise_speed: 180.0,
            max_tick_dt: 0.05,
            max_substeps: 8,
            max_velocity: 2000.0,
        }
    }

    /// Quake III Arena (Quake units): friction 6, stopspeed 100, accelerate 10, airaccelerate 1 with
    /// no 30 cap (plain accelerate in air), max 320, jump 270, gravity 800. Velocity is not snapped
    /// to integers (Q3's `SnapVector`), so there are no 125/333 fps jump-height artefacts.
    pub const fn quake3() -> Self {
        let mut p = MoveParams::quakeworld();
        p.air_accel = 1.0;
        p.air_wish_cap = f32::INFINITY;
        p.max_ground_rise_speed = 10.0;
        p
    }

    /// Source / Counter-Strike (Quake units): friction 4, stopspeed 100 (CS 1.6), accelerate 10,
    /// airaccelerate 10 (CS:GO uses 12), air wish cap 30, max 250 (CS running with a knife; Half-Life
    /// uses 320), jump 268.33 = √(2·800·45), gravity 800, `sv_maxvelocity` 3500.
    pub const fn source() -> Self {
        let mut p = MoveParams::quakeworld();
        p.max_speed = 250.0;
        p.air_max_speed = 250.0;
        p.friction = 4.0;
        p.air_accel = 10.0;
        p.jump_speed = 268.328_16;
        p.max_ground_rise_speed = 140.0;
        p.max_velocity = 3500.0;
        p.stand_height = 72.0;
        p.crouch_height = 36.0;
        p.body_radius = 16.0;
        p.crouch_speed_scale = 0.333;
        p.crouch_jump = true;
        p
    }

    /// Challenge ProMode / Defrag "CPM" (Quake units): [`MoveParams::quake3`] with CPM's pro-mode
    /// settings from `bg_promode.c` `CPM_UpdateSettings`: ground accelerate 15, friction 8, and the
    /// CPM air step on ([`MoveParams::cpm_air`]: air stop accelerate 2.5, strafe accelerate 70 with
    /// wish-speed cap 30, air control 150; air accelerate 1 otherwise, no 30 cap). CPM's double
    /// jump (`cpm_pm_jump_z`) is not modelled.
    pub const fn cpma() -> Self {
        let mut p = MoveParams::quake3();
        p.accel = 15.0;
        p.friction = 8.0;
        p.cpm_air = true;
        p.air_stop_accel = CPM_AIR_STOP_ACCEL;
        p.strafe_accel = CPM_STRAFE_ACCEL;
        p.strafe_wish_cap = CPM_STRAFE_WISH_CAP;
        p.air_control = CPM_AIR_CONTROL;
        p
    }

    /// True when `normal` is walkable ground: `n·up ≥ min_ground_normal_y − walkable_tolerance`.
    /// Non-finite normals are not walkable.
    #[inline]
    pub fn is_walkable(&self, normal: Vec3) -> bool {
        normal.y >= self.min_ground_normal_y - self.walkable_tolerance && normal.is_finite()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn presets_follow_the_anchors() {
        let qw = MoveParams::quakeworld();
        assert_eq!(
            (
                qw.stop_speed,
                qw.friction,
                qw.accel,
                qw.air_accel,
                qw.air_wish_cap
            ),
            (100.0, 6.0, 10.0, 10.0, 30.0)
        );
        assert_eq!(
            (qw.max_speed, qw.jump_speed, qw.gravity),
            (320.0, 270.0, 800.0)
        );
        let q3 = MoveParams::quake3();
        assert_eq!((q3.friction, q3.accel, q3.air_accel), (6.0, 10.0, 1.0));
        assert!(q3.air_wish_cap.is_infinite());
        let src = MoveParams::source();
        assert_eq!(
            (src.friction, src.accel, src.air_accel, src.air_wish_cap),
            (4.0, 10.0, 10.0, 30.0)
        );
        assert!((src.jump_speed - 268.328).abs() < 1e-3);
        assert_eq!(MoveParams::seed_figure().max_speed, 7.7);
        for p in [MoveParams::seed(), MoveParams::seed_figure(), qw, q3, src] {
            assert!(!p.cpm_air, "only the CPM preset runs the CPM air step");
        }
        let cpm = MoveParams::cpma();
        assert!(cpm.cpm_air);
        assert_eq!(
            (cpm.accel, cpm.friction, cpm.air_accel, cpm.air_stop_accel),
            (15.0, 8.0, 1.0, 2.5)
        );
        assert_eq!(
            (cpm.strafe_accel, cpm.strafe_wish_cap, cpm.air_control),
            (70.0, 30.0, 150.0)
        );
        assert!(cpm.air_wish_cap.is_infinite());
        for p in [qw, q3, src, cpm] {
            assert!(!p.auto_hop);
            assert_eq!((p.coyote_time, p.jump_buffer_time), (0.0, 0.0));
            assert_eq!((p.jump_release_gravity, p.jump_release_cut), (1.0, 1.0));
        }
    }

    #[test]
    fn walkable_test() {
        let p = MoveParams::quakeworld();
        assert!(p.is_walkable(Vec3::new(0.0, 0.7, 0.714)));
        assert!(!p.is_walkable(Vec3::new(0.0, 0.69, 0.72)));
        assert!(!p.is_walkable(Vec3::new(f32::NAN, 1.0, 0.0)));
        let s = MoveParams::seed();
        // 45.3° is within the tolerance, 46° is not.
        let n = |deg: f32| {
            let r = deg.to_radians();
            Vec3::new(
                crate::math::scalar::sin(r),
                crate::math::scalar::cos(r),
                0.0,
            )
        };
        assert!(s.is_walkable(n(45.0)));
        assert!(s.is_walkable(n(45.3)));
        assert!(!s.is_walkable(n(46.0)));
    }
}
