//! A 3-D flying body turned by **torques that add up** (seed 002): the recorded pitch/yaw command,
//! Toward/Away the nearest target, terrain avoidance, collision avoidance and a roll-levelling term
//! are each a torque, summed and integrated with damping.
//!
//! Frame: hopkit's right-handed, Y-up world. The body looks along its local −Z (forward), local +X is
//! its right wing, local +Y its canopy. Angular velocity is kept in **body axes**: `x` = pitch rate
//! (positive raises the nose), `y` = yaw rate (positive turns left), `z` = roll rate.
//!
//! Per tick the maths is vectors and one quaternion product: no trigonometry (the orientation is
//! integrated with the small-angle quaternion `(ω·dt/2, 1)` and renormalised every tick), two or
//! three square roots, and two ground probes.

use crate::ground::GroundProbe;
use crate::hash::{StateHash, StateHasher};
use crate::math::bits;
use crate::math::scalar::positive_bits;
use crate::math::{clamp, finite_or, Quat, Vec3};

/// Tuning of a flyer. Every field documents its unit and default; the defaults are tuned for the
/// demo arena (±48 units, ground at 0 with ramps up to ~7 units).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct FlyerParams {
    /// Steady pitch rate at full pitch command, rad/s. Default 1.8.
    pub max_pitch_rate: f32,
    /// Steady yaw rate at full yaw command, rad/s. Default 1.8.
    pub max_yaw_rate: f32,
    /// Angular damping, 1/s: angular velocity decays as `ω' = (ω + τ·dt) / (1 + damping·dt)`
    /// (implicit, stable for any dt). A command torque is `command · max_rate · damping`, so the
    /// turn rate settles at `command · max_rate` with time constant `1 / damping`. Default 5.
    pub angular_damping: f32,
    /// Hard cap on the angular speed (length of the body-axis angular velocity), rad/s.
    /// Default 4.
    pub max_angular_speed: f32,
    /// Cruise (forward) speed, units/s. Default 14.
    pub cruise_speed: f32,
    /// How fast the forward speed approaches `cruise_speed`, 1/s (fraction per second, capped at 1
    /// per tick). Default 2.
    pub speed_response: f32,
    /// Toward torque at 90° off the target (and the cap when the target is behind), rad/s². The
    /// torque scales with `sin(angle)` ahead and is full strength behind. Default 9 (settles at
    /// `9 / 5 = 1.8` rad/s with the default damping, like a full stick).
    pub toward_torque: f32,
    /// Away torque (turning the tail to the nearest target), rad/s², same shape. Default 9.
    pub away_torque: f32,
    /// Roll-levelling torque per unit of the right wing's world-up component, rad/s². Keeps the
    /// wings level so body pitch/yaw stay meaningful. Default 6.
    pub level_torque: f32,
    /// How far ahead the terrain is probed, seconds of flight at the current speed. Default 0.8.
    pub terrain_look_ahead: f32,
    /// Wanted height above the ground, units, both below the body and at the look-ahead point.
    /// Default 4.
    pub terrain_clearance: f32,
    /// Nose-up torque at zero clearance, rad/s²; it grows linearly from 0 at `terrain_clearance`
    /// and is capped at twice this value (below the ground). Default 30.
    pub terrain_torque: f32,
    /// Collision radius around each target, units: a target whose projected path passes closer
    /// than this ahead of the body triggers avoidance. Default 4.
    pub avoid_radius: f32,
    /// How far ahead targets are checked, seconds of flight at the current speed. Default 1.
    pub avoid_look_ahead: f32,
    /// Avoidance torque for a dead-centre collision course, rad/s²; scales with
    /// `1 − miss_distance / avoid_radius`. Larger than the command and Toward torques so
    /// avoidance wins. Default 40.
    pub avoid_torque: f32,
    /// Fire gate: guns and missiles fire only when `forward · direction_to_target ≥ fire_cos`.
    /// Unitless cosine. Default 0.95 (within about 18° of the nose).
    pub fire_cos: f32,
    /// Fire gate: the nearest target must be closer than this, units. Default 60. The seed gates
    /// on facing only: `f32::INFINITY` restores that ([`FlyerParams::with_seed_fire_gate`]).
    pub fire_range: f32,
    /// Longest accepted step, seconds; longer `dt` is clamped to it. Default 0.1.
    pub max_dt: f32,
}

impl Default for FlyerParams {
    fn default() -> Self {
        FlyerParams {
            max_pitch_rate: 1.8,
            max_yaw_rate: 1.8,
            angular_damping: 5.0,
            max_angular_speed: 4.0,
            cruise_speed: 14.0,
            speed_response: 2.0,
            toward_torque: 9.0,
            away_torque: 9.0,
            level_torque: 6.0,
            terrain_look_ahead: 0.8,
            terrain_clearance: 4.0,
            terrain_torque: 30.0,
            avoid_radius: 4.0,
            avoid_look_ahead: 1.0,
            avoid_torque: 40.0,
            fire_cos: 0.95,
            fire_range: 60.0,
            max_dt: 0.1,
        }
    }
}

impl FlyerParams {
    /// The demo arena tuning (same as `Default`).
    pub fn demo_arena() -> Self {
        Self::default()
    }

    /// The same flyer with the seed's fire gate: facing only (`fire_range` = `f32::INFINITY`).
    pub const fn with_seed_fire_gate(mut self) -> Self {
        self.fire_range = f32::INFINITY;
        self
    }

    /// A nimbler fighter: faster turns, snappier damping, same world scale.
    pub fn agile() -> Self {
        FlyerParams {
            max_pitch_rate: 2.6,
            max_yaw_rate: 2.4,
            angular_damping: 8.0,
            max_angular_speed: 5.0,
            toward_torque: 18.0,
            away_torque: 18.0,
            ..Self::default()
        }
    }

    /// The default tuning for a world `scale` times larger (speeds, distances scale; rates and
    /// torques do not). Non-finite or non-positive `scale` gives the default.
    pub fn scaled(scale: f32) -> Self {
        let s = if scale.is_finite() && scale > 0.0 {
            scale
        } else {
            1.0
        };
        let d = Self::default();
        FlyerParams {
            cruise_speed: d.cruise_speed * s,
            terrain_clearance: d.terrain_clearance * s,
            avoid_radius: d.avoid_radius * s,
            fire_range: d.fire_range * s,
            ..d
        }
    }
}

/// The state of a flyer. Plain data; replay-relevant, so it implements [`StateHash`].
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct FlyerState {
    /// World position, units.
    pub position: Vec3,
    /// Body-to-world rotation (unit; renormalised every step).
    pub orientation: Quat,
    /// Angular velocity in body axes, rad/s (`x` pitch up, `y` yaw left, `z` roll).
    pub angular_velocity: Vec3,
    /// Forward speed, units/s.
    pub speed: f32,
}

impl Default for FlyerState {
    fn default() -> Self {
        FlyerState {
            position: Vec3::ZERO,
            orientation: Quat::IDENTITY,
            angular_velocity: Vec3::ZERO,
            speed: 0.0,
        }
    }
}

impl FlyerState {
    /// A flyer at `position` with `orientation`, flying at `speed`, not turning. Non-finite input is
    /// sanitised (zero position/speed, identity orientation).
    pub fn new(position: Vec3, orientation: Quat, speed: f32) -> Self {
        FlyerState {
            position: position.sanitize(),
            orientation: orientation.normalize(),
            angular_velocity: Vec3::ZERO,
            speed: finite_or(speed, 0.0),
        }
    }

    /// A level flyer at `position` facing `yaw` radians (0 = −Z, positive = left). Uses one
    /// sin/cos pair (spawn time only).
    pub fn level(position: Vec3, yaw: f32, speed: f32) -> Self {
        Self::new(position, Quat::from_yaw(finite_or(yaw, 0.0)), speed)
    }

    /// The body axes in world space.
    #[inline]
    pub fn basis(&self) -> Basis {
        Basis::from_quat(self.orientation)
    }

    /// World forward direction (unit).
    #[inline]
    pub fn forward(&self) -> Vec3 {
        self.basis().forward
    }

    /// Velocity in world space, units/s.
    #[inline]
    pub fn velocity(&self) -> Vec3 {
        self.forward() * self.speed
    }

    /// True if every field is finite.
    #[inline]
    pub fn is_finite(&self) -> bool {
        let (p, q, w) = (self.position, self.orientation, self.angular_velocity);
        bits::all_finite!(p.x, p.y, p.z, q.x, q.y, q.z, q.w, w.x, w.y, w.z, self.speed)
    }

    /// [`FlyerState::is_finite`] on the bits (its form on soft-float targets).
    #[cfg(test)]
    fn is_finite_by_bits(&self) -> bool {
        let (p, q, w) = (self.position, self.orientation, self.angular_velocity);
        bits::all_finite_by_bits!(p.x, p.y, p.z, q.x, q.y, q.z, q.w, w.x, w.y, w.z, self.speed)
    }

    /// [`FlyerState::is_finite`] as a float sum (its form where floats are hardware).
    #[cfg(test)]
    fn is_finite_by_sum(&self) -> bool {
        let (p, q, w) = (self.position, self.orientation, self.angular_velocity);
        bits::all_finite_by_sum!(p.x, p.y, p.z, q.x, q.y, q.z, q.w, w.x, w.y, w.z, self.speed)
    }

    /// Repair a state a host corrupted: non-finite position components → 0, a non-finite or
    /// zero orientation → level facing −Z, non-finite angular velocity → 0, non-finite speed →
    /// `cruise_speed` (0 if that is not finite either).
    pub fn repair(&mut self, cruise_speed: f32) {
        self.position = self.position.sanitize();
        self.orientation = self.orientation.normalize();
        self.angular_velocity = self.angular_velocity.sanitize();
        if !self.speed.is_finite() {
            self.speed = finite_or(cruise_speed, 0.0);
        }
    }

    /// Every float field through [`crate::math::scalar::flush_subnormal`].
    fn flush_subnormals(&mut self) {
        self.position = self.position.flush_subnormal();
        self.orientation = self.orientation.flush_subnormal();
        self.angular_velocity = self.angular_velocity.flush_subnormal();
        self.speed = crate::math::scalar::flush_subnormal(self.speed);
    }
}

impl StateHash for FlyerState {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_vec3(self.position);
        h.write_quat(self.orientation);
        h.write_vec3(self.angular_velocity);
        h.write_f32(self.speed);
    }
}

/// The body's axes in world space (rotation-matrix columns of the orientation).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Basis {
    /// Right wing (+X body).
    pub right: Vec3,
    /// Canopy (+Y body).
    pub up: Vec3,
    /// Nose (−Z body).
    pub forward: Vec3,
}

impl Basis {
    /// Axes of a unit quaternion, without trigonometry.
    #[inline]
    pub fn from_quat(q: Quat) -> Basis {
        let (x, y, z, w) = (q.x, q.y, q.z, q.w);
        let (x2, y2, z2) = (bits::twice(x), bits::twice(y), bits::twice(z));
        let (xx, yy, zz) = (x * x2, y * y2, z * z2);
        let (xy, xz, yz) = (x * y2, x * z2, y * z2);
        let (wx, wy, wz) = (w * x2, w * y2, w * z2);
        Basis {
            right: Vec3::new(1.0 - (yy + zz), xy + wz, xz - wy),
            up: Vec3::new(xy - wz, 1.0 - (xx + zz), yz + wx),
            forward: Vec3::new(-(xz + wy), -(yz - wx), -(1.0 - (xx + yy))),
        }
    }

    /// Body-axis torque direction that turns the nose towards world direction `dir` (unit).
    ///
    /// With `dir` in body axes `(r, u, −f)` the rotation axis from the nose is `(u, −r, 0)`, whose
    /// length is `sin(angle)`: proportional ahead, so the turn settles without overshoot. When `dir`
    /// is behind (`f < 0`) the axis is normalised to full strength; dead behind (no preferred side)
    /// it pitches up (a loop).
    #[inline]
    pub(crate) fn turn_axis(&self, dir: Vec3) -> Vec3 {
        let u = dir.dot(self.up);
        let r = dir.dot(self.right);
        let f = dir.dot(self.forward);
        // `f >= 0.0` on the bits: +0 ..= +inf, or −0 (NaN fails, as the compare).
        let fb = f.to_bits();
        if fb <= bits::INF || fb == bits::SIGN {
            return Vec3::new(u, -r, 0.0);
        }
        let l2 = u * u + r * r;
        if l2 > 1.0e-12 {
            let inv = 1.0 / crate::math::scalar::sqrt(l2);
            Vec3::new(u * inv, -r * inv, 0.0)
        } else {
            Vec3::X
        }
    }
}

/// Torque of a stick command (`pitch`, `yaw` in `[−1, 1]`): settles at `command · max_rate`.
#[inline]
pub fn command_torque(params: &FlyerParams, pitch: f32, yaw: f32) -> Vec3 {
    let d = params.angular_damping;
    Vec3::new(
        clamp(pitch, -1.0, 1.0) * params.max_pitch_rate * d,
        clamp(yaw, -1.0, 1.0) * params.max_yaw_rate * d,
        0.0,
    )
}

/// [`command_torque`] for commands already in `[−1, 1]` (a [`Frame`](super::frame::Frame)'s
/// `pitch_command`/`yaw_command`): the clamps would return them unchanged.
#[inline]
pub(crate) fn unit_command_torque(params: &FlyerParams, pitch: f32, yaw: f32) -> Vec3 {
    let d = params.angular_damping;
    Vec3::new(
        pitch * params.max_pitch_rate * d,
        yaw * params.max_yaw_rate * d,
        0.0,
    )
}

/// Torque turning the nose towards world direction `dir` (unit) with strength `gain` rad/s².
#[inline]
pub fn turn_torque(basis: &Basis, dir: Vec3, gain: f32) -> Vec3 {
    basis.turn_axis(dir) * gain
}

/// Roll torque that levels the wings (right wing horizontal).
#[inline]
pub fn level_torque(basis: &Basis, params: &FlyerParams) -> Vec3 {
    Vec3::new(0.0, 0.0, -params.level_torque * basis.right.y)
}

/// Height of `point` above the ground below it, or `None` without (finite) ground.
#[inline]
fn altitude(ground: &impl GroundProbe, point: Vec3) -> Option<f32> {
    match ground.height(point) {
        Some(h) if h.is_finite() => Some(point.y - h),
        _ => None,
    }
}

/// Nose-up torque when the ground is closer than `terrain_clearance` below the body or below the
/// look-ahead point (`position + forward · speed · terrain_look_ahead`).
pub fn terrain_torque(
    state: &FlyerState,
    basis: &Basis,
    params: &FlyerParams,
    ground: &impl GroundProbe,
) -> Vec3 {
    let clearance = params.terrain_clearance;
    if !positive_bits(clearance) {
        return Vec3::ZERO;
    }
    let ahead = state.position + basis.forward * (state.speed * params.terrain_look_ahead);
    let here = altitude(ground, state.position);
    let there = altitude(ground, ahead);
    let lowest = match (here, there) {
        // Neither is NaN; on a tie of +0 and −0 either gives the same torque below.
        (Some(a), Some(b)) => {
            if a <= b {
                a
            } else {
                b
            }
        }
        (Some(a), None) | (None, Some(a)) => a,
        (None, None) => return Vec3::ZERO,
    };
    if lowest.is_nan() || lowest >= clearance {
        return Vec3::ZERO;
    }
    let urgency = clamp((clearance - lowest) / clearance, 0.0, 2.0);
    turn_torque(basis, Vec3::UP, params.terrain_torque * urgency)
}

/// Avoidance torque for targets on a collision course: a target ahead within
/// `speed · avoid_look_ahead + avoid_radius` whose perpendicular miss distance from the flight line
/// is below `avoid_radius` pushes the nose away from it, with strength
/// `avoid_torque · (1 − miss / avoid_radius)`. Non-finite targets are ignored.
pub fn avoid_torque(
    state: &FlyerState,
    basis: &Basis,
    params: &FlyerParams,
    obstacles: &[Vec3],
) -> Vec3 {
    let radius = params.avoid_radius;
    if !positive_bits(radius) {
        return Vec3::ZERO;
    }
    let reach = state.speed.abs() * params.avoid_look_ahead + radius;
    let mut total = Vec3::ZERO;
    for &t in obstacles {
        let r = t - state.position;
        let along = r.dot(basis.forward);
        let ahead = positive_bits(along) && along < reach;
        if !ahead {
            continue;
        }
        let lateral = r - basis.forward * along;
        let l2 = lateral.length_squared();
        // Both non-negative and not NaN (finite inputs, positive radius): compare the bits.
        let inside = l2.to_bits() < (radius * radius).to_bits();
        if !inside {
            continue;
        }
        let miss = crate::math::scalar::sqrt(l2);
        let strength = params.avoid_torque * (1.0 - miss / radius);
        // Steer away from the side the target is on; dead centre: pull up.
        let away = if miss > 1.0e-6 {
            lateral * (-1.0 / miss)
        } else {
            basis.up
        };
        total += turn_torque(basis, away, strength);
    }
    total
}

fn sane_dt(dt: f32, params: &FlyerParams) -> f32 {
    let max_dt = if params.max_dt.is_finite() && params.max_dt > 0.0 {
        params.max_dt
    } else {
        0.1
    };
    if dt.is_nan() || dt <= 0.0 {
        0.0
    } else if dt > max_dt {
        max_dt
    } else {
        dt
    }
}

/// Integrate one step with the summed body-axis `torque` (rad/s²).
///
/// 1. `ω ← (ω + τ·dt) / (1 + damping·dt)`, then `|ω| ≤ max_angular_speed`.
/// 2. `q ← normalise(q · (ω·dt/2, 1))` (small-angle body rotation; no trigonometry).
/// 3. `speed` approaches `cruise_speed`; `position += forward · speed · dt` (new orientation).
///
/// `dt` NaN or ≤ 0 does nothing; `dt > max_dt` is clamped. A non-finite torque counts as zero. If
/// a result would be non-finite (absurd params), the previous state is kept with the rotation
/// stopped, so the state never holds NaN. The [`FlyerEvents`] tell which of these happened.
pub fn step(state: &mut FlyerState, params: &FlyerParams, torque: Vec3, dt: f32) -> FlyerEvents {
    step_at_speed(state, params, torque, params.cruise_speed, dt)
}

/// What happened during a flyer [`step`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct FlyerEvents {
    /// `dt` was NaN or ≤ 0 and nothing happened.
    pub rejected: bool,
    /// The state held a non-finite value and was repaired before the step
    /// ([`FlyerState::is_finite`]).
    pub repaired: bool,
    /// The step's result would not have been finite (absurd params): the previous state was kept
    /// with the rotation stopped.
    pub held: bool,
}

/// [`step`] with the forward speed approaching `cruise_speed` instead of `params.cruise_speed`
/// (formation wingmen speed up or slow down to hold their slot). A non-finite `cruise_speed`
/// counts as `params.cruise_speed`.
pub(crate) fn step_at_speed(
    state: &mut FlyerState,
    params: &FlyerParams,
    torque: Vec3,
    cruise_speed: f32,
    dt: f32,
) -> FlyerEvents {
    let mut axes = state.basis();
    let k = TickConsts::new(params, dt);
    step_at_speed_axes(state, params, &k, torque, cruise_speed, &mut axes)
}

/// The parts of a flight step that depend only on the params and `dt`: computed once per scene
/// tick and shared by every flyer (the same values [`step_at_speed`] computes per call).
#[derive(Clone, Copy, Debug, PartialEq)]
pub(crate) struct TickConsts {
    /// The sanitised step, seconds (0: no step).
    dt: f32,
    /// `1 / (1 + damping·dt)`.
    decay: f32,
    /// Angular speed cap, rad/s, and its square.
    max_w: f32,
    max_w2: f32,
    /// `0.5·dt`.
    half_dt: f32,
    /// Fraction of the speed error closed this step.
    response: f32,
}

impl TickConsts {
    /// The constants of a step of `dt` seconds with `params`.
    pub(crate) fn new(params: &FlyerParams, dt: f32) -> Self {
        let dt = sane_dt(dt, params);
        let damping = finite_or(params.angular_damping, 0.0).max(0.0);
        let max_w = finite_or(params.max_angular_speed, 0.0).max(0.0);
        TickConsts {
            dt,
            decay: 1.0 / (1.0 + damping * dt),
            max_w,
            max_w2: max_w * max_w,
            half_dt: 0.5 * dt,
            response: clamp(params.speed_response * dt, 0.0, 1.0),
        }
    }
}

/// [`TickConsts`] remembered with the bits of the inputs they were computed from (`max_dt`,
/// `angular_damping`, `max_angular_speed`, `speed_response`, `dt`), so a scene computes them only
/// when those change. Not state: two memos always compare equal.
#[derive(Clone, Copy)]
pub(crate) struct TickConstsMemo {
    key: [u32; 5],
    consts: TickConsts,
}

impl TickConstsMemo {
    /// An empty memo: keyed by `dt = 0`, which no scene step asks for (`1 / tick_hz` is positive),
    /// so the first call computes.
    pub(crate) const fn new() -> Self {
        TickConstsMemo {
            key: [0; 5],
            consts: TickConsts {
                dt: 0.0,
                decay: 0.0,
                max_w: 0.0,
                max_w2: 0.0,
                half_dt: 0.0,
                response: 0.0,
            },
        }
    }

    /// [`TickConsts::new`]`(params, dt)` for a positive `dt`, computed only if its inputs changed
    /// since the last call.
    #[inline]
    pub(crate) fn get(&mut self, params: &FlyerParams, dt: f32) -> TickConsts {
        let key = [
            params.max_dt.to_bits(),
            params.angular_damping.to_bits(),
            params.max_angular_speed.to_bits(),
            params.speed_response.to_bits(),
            dt.to_bits(),
        ];
        let k = &self.key;
        // Element by element (an array compare may become a `memcmp` call).
        if !(k[0] == key[0] && k[1] == key[1] && k[2] == key[2] && k[3] == key[3] && k[4] == key[4])
        {
            self.key = key;
            self.consts = TickConsts::new(params, dt);
        }
        self.consts
    }
}

impl PartialEq for TickConstsMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl core::fmt::Debug for TickConstsMemo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("TickConstsMemo")
    }
}

/// [`Quat::normalize`], inline (the flight step's one call per tick; a private copy of the
/// `math` function, tested against it).
#[inline(always)]
fn normalized(q: Quat) -> Quat {
    let l2 = q.dot(q);
    if l2.to_bits() == 0x3f80_0000 {
        // l2 == 1: the scale 1/√1 is exactly 1 and would change no component.
        return q;
    }
    // `l2 > 1e-12 && l2.is_finite()` as one unsigned range test on the bits.
    const LO: u32 = 1.0e-12f32.to_bits() + 1;
    if l2.to_bits().wrapping_sub(LO) < f32::INFINITY.to_bits() - LO {
        let inv = 1.0 / crate::math::scalar::sqrt(l2);
        Quat::from_xyzw(q.x * inv, q.y * inv, q.z * inv, q.w * inv)
    } else {
        Quat::IDENTITY
    }
}

/// [`Vec3::clamp_length_max`] with the square of `max` precomputed (same results).
#[inline]
fn clamp_length_max_sq(v: Vec3, max: f32, max2: f32) -> Vec3 {
    let l2 = v.length_squared();
    if !l2.is_finite() {
        return Vec3::ZERO;
    }
    // `l2` finite and ≥ 0, `max2` ≥ 0 or +inf: their bits order like them.
    if l2.to_bits() > max2.to_bits() {
        v * (max / crate::math::scalar::sqrt(l2))
    } else {
        v
    }
}

/// [`step_at_speed`] that also updates `axes` from the body axes of the old orientation to those
/// of the orientation it leaves in `state` (`Basis::from_quat(state.orientation)`, bit for bit):
/// the step computes them anyway for the forward motion, so a caller that needs them next tick
/// does not compute them again.
pub(crate) fn step_at_speed_axes(
    state: &mut FlyerState,
    params: &FlyerParams,
    k: &TickConsts,
    torque: Vec3,
    cruise_speed: f32,
    axes: &mut Basis,
) -> FlyerEvents {
    let dt = k.dt;
    let mut ev = FlyerEvents::default();
    if dt == 0.0 {
        ev.rejected = true;
        return ev;
    }
    if !state.is_finite() {
        state.repair(params.cruise_speed);
        ev.repaired = true;
    }
    let before = *state;
    let torque = torque.sanitize();
    let w = (state.angular_velocity + torque * dt) * k.decay;
    let w = clamp_length_max_sq(w, k.max_w, k.max_w2);
    let h = k.half_dt;
    // q · (ω·dt/2, 1), without the four multiplications by the exact 1.
    let q = state
        .orientation
        .mul_xyz1(Vec3::new(w.x * h, w.y * h, w.z * h));
    let q = normalized(q);
    let cruise = finite_or(cruise_speed, params.cruise_speed);
    let speed = state.speed + (cruise - state.speed) * k.response;
    *axes = Basis::from_quat(q);
    state.angular_velocity = w;
    state.orientation = q;
    state.speed = speed;
    state.position += axes.forward * (speed * dt);
    // The orientation (normalised, or the identity) and the angular velocity (clamped; zero when
    // not finite) are finite by construction: only position and speed can overflow (absurd
    // params), so only they are checked — the same outcome as `!state.is_finite()`.
    let p = state.position;
    if !(bits::all_finite!(p.x, p.y) && bits::all_finite!(p.z, state.speed)) {
        *state = before;
        state.angular_velocity = Vec3::ZERO;
        ev.held = true;
    }
    state.flush_subnormals();
    if !state.orientation.bits_eq(q) {
        // Rolled back or flushed: the axes of what was stored.
        *axes = state.basis();
    }
    ev
}

/// A flyer's [`Basis`] remembered together with the exact bits of the orientation it was computed
/// from, so a scene computes each body's axes once per tick (a lookup with a different orientation
/// recomputes them). Not state: two memos always compare equal.
#[derive(Clone, Copy)]
pub(crate) struct BasisMemo {
    key: Quat,
    basis: Basis,
}

impl BasisMemo {
    /// The memo of the identity orientation.
    pub(crate) fn new() -> Self {
        BasisMemo {
            key: Quat::IDENTITY,
            basis: Basis::from_quat(Quat::IDENTITY),
        }
    }

    /// Make the memo hold `Basis::from_quat(q)` (computed only if `q` is not the remembered
    /// orientation) and return it.
    #[inline]
    pub(crate) fn axes_of(&mut self, q: Quat) -> &mut Basis {
        if !q.bits_eq(self.key) {
            self.refresh(q);
        }
        &mut self.basis
    }

    /// Key the memo to `q` and compute its axes (out of line: a scene's memos miss only when a
    /// host edits a ghost between ticks).
    #[inline(never)]
    fn refresh(&mut self, q: Quat) {
        self.key = q;
        self.basis = Basis::from_quat(q);
    }

    /// The axes last computed or updated, without a check: those of the orientation the memo
    /// was last keyed to ([`BasisMemo::axes_of`], [`BasisMemo::rekey`]). For a ghost that
    /// stepped this tick (its orientation is the key).
    #[inline]
    pub(crate) fn current(&self) -> &Basis {
        &self.basis
    }

    /// Re-key the memo to `q` after its axes were updated in place to `Basis::from_quat(q)`.
    #[inline]
    pub(crate) fn rekey(&mut self, q: Quat) {
        self.key = q;
    }
}

impl PartialEq for BasisMemo {
    fn eq(&self, _: &Self) -> bool {
        true
    }
}

impl core::fmt::Debug for BasisMemo {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        f.write_str("BasisMemo")
    }
}

/// Keep the body at or above the ground below it (a last resort after terrain avoidance): if it is
/// below, it is lifted onto the surface. Returns true if it was lifted.
pub fn keep_above_ground(state: &mut FlyerState, ground: &impl GroundProbe) -> bool {
    if let Some(a) = altitude(ground, state.position) {
        // A lift that would overflow (ground near ±f32::MAX) is not made: the state stays finite.
        let lifted = state.position.y - a;
        // `a < 0.0` for a non-NaN `a`: a negative non-zero float's bits exceed −0's.
        if a.to_bits() > bits::SIGN && lifted.is_finite() {
            state.position.y = lifted;
            return true;
        }
    }
    false
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::{FlatGround, NoGround};

    fn run(state: &mut FlyerState, p: &FlyerParams, torque: impl Fn(&FlyerState) -> Vec3, n: u32) {
        for _ in 0..n {
            let t = torque(state);
            step(state, p, t, 1.0 / 60.0);
        }
    }

    #[test]
    fn twice_is_the_exact_double() {
        let mut b = 0u32;
        loop {
            let x = f32::from_bits(b);
            let (t, sum) = (bits::twice_by_exponent(x), x + x);
            assert!(
                t.to_bits() == sum.to_bits() || (t.is_nan() && sum.is_nan()),
                "{b:#x}"
            );
            match b.checked_add(65_521) {
                Some(n) => b = n,
                None => break,
            }
        }
        for x in [
            0.0,
            -0.0,
            1.0e-45,
            f32::MAX,
            -f32::MAX,
            1.7e38,
            f32::INFINITY,
            f32::NAN,
        ] {
            let t = bits::twice_by_exponent(x);
            assert!(t.to_bits() == (x + x).to_bits() || x.is_nan(), "{x}");
        }
    }

    #[test]
    fn normalized_is_quat_normalize() {
        let mut rng = crate::rng::Pcg32::seeded(19);
        let vals = [
            0.0f32,
            -0.0,
            1.0,
            1.0e-7,
            1.0e-20,
            1.0e20,
            f32::INFINITY,
            f32::NAN,
            0.5,
        ];
        for i in 0..200_000 {
            let mut c = || {
                if i % 4 == 0 {
                    vals[rng.below(vals.len() as u32) as usize]
                } else {
                    rng.range_f32(-1.5, 1.5)
                }
            };
            let q = Quat::from_xyzw(c(), c(), c(), c());
            let (a, b) = (normalized(q), q.normalize());
            assert!(a.bits_eq(b) || (a.x.is_nan() && b.x.is_nan()), "{q:?}");
        }
    }

    #[test]
    fn step_consts_memo_is_step_consts() {
        let mut memo = TickConstsMemo::new();
        let mut rng = crate::rng::Pcg32::seeded(17);
        let vals = [
            0.0f32,
            -0.0,
            0.1,
            5.0,
            f32::INFINITY,
            f32::NAN,
            -2.0,
            1.0e-40,
        ];
        let mut p = FlyerParams::default();
        for i in 0..20_000 {
            if i % 3 == 0 {
                let v = vals[rng.below(vals.len() as u32) as usize];
                match rng.below(4) {
                    0 => p.max_dt = v,
                    1 => p.angular_damping = v,
                    2 => p.max_angular_speed = v,
                    _ => p.speed_response = v,
                }
            }
            let dt = [1.0 / 60.0, 1.0 / 30.0, 0.5, 1.0e-30][rng.below(4) as usize];
            assert_eq!(memo.get(&p, dt), TickConsts::new(&p, dt), "{p:?} {dt}");
        }
    }

    #[test]
    fn is_finite_forms_agree() {
        // The float-product form (used with a hardware FPU) and the bit form, on every field.
        let products = |s: &FlyerState| {
            let (p, q, w) = (s.position, s.orientation, s.angular_velocity);
            [p.x, p.y, p.z, q.x, q.y, q.z, q.w, w.x, w.y, w.z, s.speed]
                .iter()
                .fold(0.0f32, |acc, v| acc + v * 0.0)
                == 0.0
        };
        let base = FlyerState::level(Vec3::new(1.0, 2.0, 3.0), 0.3, 10.0);
        let values = [
            0.0,
            -0.0,
            1.0e-45,
            -1.0e-45,
            f32::MAX,
            -f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            3.5,
        ];
        for i in 0..11 {
            for &v in values.iter() {
                let mut t = base;
                match i {
                    0 => t.position.x = v,
                    1 => t.position.y = v,
                    2 => t.position.z = v,
                    3 => t.orientation.x = v,
                    4 => t.orientation.y = v,
                    5 => t.orientation.z = v,
                    6 => t.orientation.w = v,
                    7 => t.angular_velocity.x = v,
                    8 => t.angular_velocity.y = v,
                    9 => t.angular_velocity.z = v,
                    _ => t.speed = v,
                }
                let by_bits = t.is_finite_by_bits();
                assert_eq!(products(&t), by_bits, "{i} {v}");
                assert_eq!(t.is_finite_by_sum(), by_bits, "{i} {v}");
                assert_eq!(bits::all_finite!(v, 1.0), v.is_finite(), "{v}");
                assert_eq!(bits::all_finite!(1.0, v), v.is_finite(), "{v}");
                assert_eq!(t.is_finite(), by_bits, "{i} {v}");
            }
        }
        let mut rng = crate::rng::Pcg32::seeded(11);
        for _ in 0..100_000 {
            let mut t = base;
            t.position.y = f32::from_bits(rng.next_u32());
            t.speed = f32::from_bits(rng.next_u32());
            t.orientation.w = f32::from_bits(rng.next_u32());
            assert_eq!(products(&t), t.is_finite_by_bits());
        }
    }

    #[test]
    fn is_finite_checks_every_field() {
        let s = FlyerState::level(Vec3::new(1.0, 2.0, 3.0), 0.3, 10.0);
        assert!(s.is_finite());
        for i in 0..11 {
            for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
                let mut t = s;
                match i {
                    0 => t.position.x = bad,
                    1 => t.position.y = bad,
                    2 => t.position.z = bad,
                    3 => t.orientation.x = bad,
                    4 => t.orientation.y = bad,
                    5 => t.orientation.z = bad,
                    6 => t.orientation.w = bad,
                    7 => t.angular_velocity.x = bad,
                    8 => t.angular_velocity.y = bad,
                    9 => t.angular_velocity.z = bad,
                    _ => t.speed = bad,
                }
                assert!(!t.is_finite(), "{i} {bad}");
            }
        }
        let mut big = s;
        big.position.x = -f32::MAX;
        assert!(big.is_finite());
    }

    #[test]
    fn basis_matches_quaternion_rotation() {
        let q = Quat::from_axis_angle(Vec3::new(0.3, 1.0, -0.4), 1.1);
        let b = Basis::from_quat(q);
        assert!((b.right - q.rotate(Vec3::X)).length() < 1e-6);
        assert!((b.up - q.rotate(Vec3::Y)).length() < 1e-6);
        assert!((b.forward - q.rotate(Vec3::FORWARD)).length() < 1e-6);
    }

    #[test]
    fn full_yaw_command_settles_at_max_rate_and_turns_left() {
        let p = FlyerParams::default();
        let mut s = FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.0, p.cruise_speed);
        run(&mut s, &p, |_| command_torque(&p, 0.0, 1.0), 30);
        // Turned left: forward has a −X component; stayed level.
        let f = s.forward();
        assert!(f.x < -0.1, "{f:?}");
        assert!(f.y.abs() < 1e-3);
        run(&mut s, &p, |_| command_torque(&p, 0.0, 1.0), 90);
        assert!((s.angular_velocity.y - p.max_yaw_rate).abs() < 0.01);
        assert!((s.orientation.dot(s.orientation) - 1.0).abs() < 1e-5);
    }

    #[test]
    fn pitch_command_raises_the_nose() {
        let p = FlyerParams::default();
        let mut s = FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.7, p.cruise_speed);
        run(&mut s, &p, |_| command_torque(&p, 0.5, 0.0), 20);
        assert!(s.forward().y > 0.1);
        assert!(s.position.y > 10.0);
    }

    #[test]
    fn turn_axis_points_at_target_sides() {
        let b = Basis::from_quat(Quat::IDENTITY);
        let right = b.turn_axis(Vec3::X);
        assert!(right.y < 0.0 && right.x == 0.0); // yaw right is negative yaw
        let up = b.turn_axis(Vec3::UP);
        assert!(up.x > 0.0); // pitch up
        let behind = b.turn_axis(Vec3::Z);
        assert_eq!(behind, Vec3::X);
        let behind_left = b.turn_axis(Vec3::new(-0.1, 0.0, 1.0).normalize_or_zero());
        assert!((behind_left.length() - 1.0).abs() < 1e-5 && behind_left.y > 0.0);
    }

    #[test]
    fn toward_torque_converges_on_target_direction() {
        let p = FlyerParams::default();
        let mut s = FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.0, 0.0);
        let dir = Vec3::new(1.0, 0.3, 1.0).normalize_or_zero(); // behind-right, above
        run(
            &mut s,
            &FlyerParams {
                cruise_speed: 0.0,
                ..p
            },
            |st| {
                let b = st.basis();
                turn_torque(&b, dir, p.toward_torque) + level_torque(&b, &p)
            },
            600,
        );
        assert!(s.forward().dot(dir) > 0.999, "{:?}", s.forward());
    }

    #[test]
    fn terrain_avoidance_pulls_up_before_the_ground() {
        let p = FlyerParams::default();
        let g = FlatGround::new(0.0);
        // Diving at 30° from 10 units up.
        let q = Quat::from_axis_angle(Vec3::X, -0.5);
        let mut s = FlyerState::new(Vec3::new(0.0, 10.0, 0.0), q, p.cruise_speed);
        let mut lowest = f32::MAX;
        for _ in 0..300 {
            let b = s.basis();
            let t = terrain_torque(&s, &b, &p, &g) + level_torque(&b, &p);
            step(&mut s, &p, t, 1.0 / 60.0);
            lowest = lowest.min(s.position.y);
        }
        assert!(lowest > 0.5, "lowest {lowest}");
        assert!(s.forward().y > -0.05);
        assert_eq!(terrain_torque(&s, &s.basis(), &p, &NoGround), Vec3::ZERO);
    }

    #[test]
    fn avoidance_beats_toward_and_misses_the_target() {
        let p = FlyerParams::default();
        let target = Vec3::new(0.3, 10.0, -30.0);
        let mut s = FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.0, p.cruise_speed);
        let mut closest = f32::MAX;
        for _ in 0..240 {
            let b = s.basis();
            let dir = (target - s.position).normalize_or_zero();
            let t = turn_torque(&b, dir, p.toward_torque)
                + avoid_torque(&s, &b, &p, &[target])
                + level_torque(&b, &p);
            step(&mut s, &p, t, 1.0 / 60.0);
            closest = closest.min(s.position.distance(target));
        }
        assert!(closest > 1.0, "closest {closest}");
    }

    #[test]
    fn bad_inputs_never_make_nan() {
        let p = FlyerParams::default();
        let mut s = FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.0, 10.0);
        let before = s;
        let rejected = FlyerEvents {
            rejected: true,
            ..FlyerEvents::default()
        };
        assert_eq!(step(&mut s, &p, Vec3::X, f32::NAN), rejected);
        assert_eq!(step(&mut s, &p, Vec3::X, -1.0), rejected);
        assert_eq!(s, before);
        let ev = step(&mut s, &p, Vec3::new(f32::NAN, f32::INFINITY, 1.0), 1.0e9);
        assert_eq!(ev, FlyerEvents::default());
        assert!(s.is_finite());
        // A corrupted state is repaired first.
        let mut bad = s;
        bad.speed = f32::NAN;
        assert!(step(&mut bad, &p, Vec3::ZERO, 1.0 / 60.0).repaired);
        assert!(bad.is_finite());
        // A step that would overflow the position is not taken.
        let huge = FlyerParams {
            cruise_speed: 3.0e38,
            ..p
        };
        let mut edge = FlyerState::level(Vec3::new(0.0, 10.0, -3.39e38), 0.0, 3.0e38);
        let kept = edge;
        let ev = step(&mut edge, &huge, Vec3::ZERO, 1.0 / 60.0);
        assert!(ev.held && !ev.repaired && !ev.rejected);
        assert_eq!(edge.position, kept.position);
        assert_eq!(edge.angular_velocity, Vec3::ZERO);
        let crazy = FlyerParams {
            angular_damping: f32::NAN,
            max_angular_speed: f32::INFINITY,
            cruise_speed: f32::INFINITY,
            speed_response: f32::NAN,
            max_dt: f32::NAN,
            ..p
        };
        for _ in 0..10 {
            step(&mut s, &crazy, Vec3::new(1.0e30, -1.0e30, 1.0e30), 1.0);
            assert!(s.is_finite());
        }
        let n = FlyerState::new(
            Vec3::new(f32::NAN, 0.0, 0.0),
            Quat::from_xyzw(0.0, 0.0, 0.0, 0.0),
            f32::NAN,
        );
        assert!(n.is_finite());
    }

    #[test]
    fn keep_above_ground_lifts() {
        let mut s = FlyerState::level(Vec3::new(0.0, -2.0, 0.0), 0.0, 10.0);
        assert!(keep_above_ground(&mut s, &FlatGround::new(1.0)));
        assert_eq!(s.position.y, 1.0);
        assert!(!keep_above_ground(&mut s, &FlatGround::new(0.0)));
    }
}
