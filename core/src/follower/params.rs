//! [`FollowerParams`]: every number of the seed, named, with its unit and default.

/// Tick rate (Hz) that the seed's per-tick numbers assume: its `Move()` runs in Unity's
/// `FixedUpdate`, whose default `Time.fixedDeltaTime` is 0.02 s.
pub const SEED_TICK_HZ: f32 = 50.0;

/// Longest `dt` one step accepts (s). Longer steps are clamped to this; NaN or `dt ≤ 0` steps are
/// ignored (state unchanged, no events).
pub const MAX_STEP_DT: f32 = 0.25;

use crate::math::bits;
use crate::math::scalar::positive_bits;
use crate::math::target::inline_policy;

/// Largest absolute world coordinate the follower works with (units). Leader positions and the
/// follower's own position are clamped to `±COORD_LIMIT` per axis, so distances never overflow.
/// (At 1e6 an `f32` still resolves 0.0625 units; beyond that the seed's 1.5-unit thresholds are
/// meaningless anyway.)
pub const COORD_LIMIT: f32 = 1.0e6;

/// Largest absolute velocity component the follower integrates (units/s).
pub const MAX_SPEED: f32 = 1.0e4;

/// Degrees → radians.
pub(crate) const DEG: f32 = core::f32::consts::PI / 180.0;

/// Tuning of one follower (and of each party member's body, see [`crate::follower::PartyParams`]).
///
/// Distances are world units (the seed was tuned in Unity metres). "Per tick" numbers are the
/// seed's per-`FixedUpdate` factors and are converted to rates with [`FollowerParams::reference_hz`]
/// so that any tick rate gives the same motion (50 Hz reproduces the seed tick for tick).
///
/// Robustness: [`crate::follower::step`] uses [`FollowerParams::sanitized`]; a field that is NaN or
/// outside its documented range falls back to its default.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
#[repr(C)]
pub struct FollowerParams {
    // --- breadcrumbs -------------------------------------------------------------------------
    /// A crumb is recorded when the leader is more than this far (3-D) from the last crumb.
    /// Units. Default **1.5** (seed). Range `[0, ∞)`.
    pub record_distance: f32,
    /// Reproduce the seed's quirks instead of fixing them. Default **false**;
    /// [`FollowerParams::seed_exact`] sets true.
    /// - false: crumbs are placed at exactly `record_distance` intervals along the leader's motion
    ///   between steps (several per step if it moved far), and the speed factor lands on its
    ///   target.
    /// - true (the seed): a crumb is the leader's *sampled* position, which overshoots by up to one
    ///   leader step, so crumb spacing — and where the follower finally stops — depends on the tick
    ///   rate; and the speed factor steps ±`factor_ease_per_tick` past its target forever (its f32
    ///   sum never hits 1.6 or 1.0 exactly), dithering ±0.02 and biasing the mean speed by ≈ 1 %;
    ///   and reaching a crumb is measured in 3-D, as the seed does (see `reach_distance`).
    ///
    /// The seed's other start-up quirk, the first crumb recorded against the world origin, is
    /// [`crate::follower::FollowerState::seed_start`].
    pub seed_exact: bool,
    /// Shortcut: if the leader is closer than this (3-D) to the follower … Units. Default **7.0**
    /// (seed). Range `[0, ∞]`.
    pub shortcut_distance: f32,
    /// … and at least this many crumbs are stored, drop all but the newest `shortcut_keep` and aim
    /// at the oldest of them. Crumbs. Default **4** (seed). Range `[1, ∞)`.
    pub shortcut_keep: u32,
    /// Stop when closer than this (3-D) to the leader. Units. Default **3.5** (seed). `[0, ∞)`.
    pub stop_distance: f32,
    /// Move on to the next crumb when closer than this to the current one. Measured in the ground
    /// plane (X/Z) — the seed measures 3-D (so does `seed_exact`), which makes a follower circle
    /// forever under a crumb the leader dropped mid-jump. Units. Default **2.0** (seed). `[0, ∞)`.
    pub reach_distance: f32,
    /// On reaching a crumb, stop instead of taking the next one if at most this many remain.
    /// Crumbs. Default **3** (seed).
    pub stop_crumbs: u32,
    /// Chase at [`FollowerParams::fast_factor`] while at least this many crumbs remain.
    /// Crumbs. Default **5** (seed).
    pub fast_crumbs: u32,
    /// Chase at [`FollowerParams::slow_factor`] while at most this many crumbs remain.
    /// Crumbs. Default **2** (seed).
    pub slow_crumbs: u32,

    // --- speed -------------------------------------------------------------------------------
    /// Ground speed at speed factor 1. Units/s. Default **8.0** = the seed's `moveSpeed 400` ×
    /// Unity's `fixedDeltaTime 0.02` (the seed writes `moveSpeed·factor·fixedDeltaTime` straight
    /// into `Rigidbody.velocity`, which is in units per second). Range `[0, ∞)`; the resulting
    /// speed is clamped to [`MAX_SPEED`].
    pub move_speed: f32,
    /// Speed-factor target while far behind (≥ `fast_crumbs`). Default **1.6** (seed).
    pub fast_factor: f32,
    /// Speed-factor target otherwise. Default **1.0** (seed).
    pub normal_factor: f32,
    /// Speed-factor target with few crumbs left (≤ `slow_crumbs`). Default **0.5** (seed).
    pub slow_factor: f32,
    /// The speed factor is clamped to `[0, max_factor]`. Default **2.0** (seed). Range `[0, ∞)`.
    pub max_factor: f32,
    /// When stopping, the speed factor is first capped at this. Default **0.3** (seed).
    pub stop_factor_cap: f32,
    /// Speed-factor change per reference tick (so `factor_ease_per_tick × reference_hz` per second).
    /// Default **0.02** (seed) = 1.0 per second. Range `[0, ∞)`.
    pub factor_ease_per_tick: f32,
    /// When stopping, horizontal velocity is multiplied by this per reference tick
    /// (`decay^(dt·reference_hz)` per step). Default **0.9** (seed). Range `[0, 1]`.
    pub stop_decay_per_tick: f32,
    /// The move direction lerps towards the crumb by this fraction per reference tick
    /// (`1 − (1 − lerp)^(dt·reference_hz)` per step). Default **0.15** (seed). Range `[0, 1]`.
    pub direction_lerp_per_tick: f32,
    /// Tick rate the per-tick numbers above refer to. Hz. Default **50** ([`SEED_TICK_HZ`]).
    /// Range `(0, ∞)`.
    pub reference_hz: f32,

    // --- turning and looking -----------------------------------------------------------------
    /// Body turn speed towards the move direction. Degrees/s. Default **500** (seed).
    /// Range `[0, ∞]` (∞ = snap).
    pub turn_speed_deg: f32,
    /// The head looks at the leader while the speed factor is at most this. Default **0.3** (seed).
    pub idle_factor: f32,
    /// Head yaw limit either side of straight ahead. Degrees. Default **50** (seed). `[0, 180]`.
    pub neck_limit_deg: f32,
    /// Head smoothing rate: `neck += (target − neck)·(1 − e^(−neck_rate·dt))` — the exact,
    /// step-independent form of the seed's `neck += (target − neck)·3·dt`. 1/s. Default **3**
    /// (seed). Range `[0, ∞]`.
    pub neck_rate: f32,

    // --- falling -----------------------------------------------------------------------------
    /// Falling if vertical velocity is below `−fall_speed`. Units/s. Default **4.0** (seed).
    pub fall_speed: f32,
    /// Falling if the ground is more than this below … Units. Default **1.0** (seed).
    pub fall_ground_gap: f32,
    /// … while vertical velocity is below `−fall_descend_speed`. Units/s. Default **0.5** (seed).
    pub fall_descend_speed: f32,

    // --- body integration (the seed delegates this to Unity's Rigidbody) ----------------------
    /// If true, `step` integrates the body: gravity, `position += velocity·dt`, ground contact via
    /// the [`crate::ground::GroundProbe`]. If false, the host moves the body itself: it reads
    /// `body.velocity` after each step and writes the resolved `body.position` (and vertical
    /// velocity) back before the next. Default **true**.
    pub integrate: bool,
    /// Gravity, downwards. Units/s². Default **9.81** (Unity's `Physics.gravity`). Any finite value.
    pub gravity: f32,
    /// The ground is probed from this far above the feet, so the body walks up steps and ramps of
    /// at most this height per step. Units. Default **0.5**. Range `[0, ∞)`.
    pub step_height: f32,
    /// A grounded body that is not rising stays glued to ground at most this far below (walking
    /// down ramps); farther means it walked off a ledge and falls. Units. Default **0.3**.
    pub snap_distance: f32,

    // --- teleport / regroup (beyond the seed) -------------------------------------------------
    /// If the leader moves farther than this in one step it has teleported: the trail is reset and
    /// the follower is placed [`FollowerParams::regroup_distance`] behind it. Units. Default
    /// **10.0** (500 units/s at 50 Hz, far beyond any walk). Range `(0, ∞]` (∞ = never).
    pub teleport_distance: f32,
    /// Distance behind the leader where a regroup places the follower. Units. Default **3.0**
    /// (inside `stop_distance`, so the follower stands still after arriving). Range `[0, ∞)`.
    pub regroup_distance: f32,
}

impl Default for FollowerParams {
    fn default() -> Self {
        Self::seed()
    }
}

impl FollowerParams {
    /// The seed's numbers (see each field), with its tick-rate dependent quirks fixed
    /// (`seed_exact = false`). Same as `Default`.
    pub const fn seed() -> Self {
        FollowerParams {
            record_distance: 1.5,
            seed_exact: false,
            shortcut_distance: 7.0,
            shortcut_keep: 4,
            stop_distance: 3.5,
            reach_distance: 2.0,
            stop_crumbs: 3,
            fast_crumbs: 5,
            slow_crumbs: 2,
            move_speed: 8.0,
            fast_factor: 1.6,
            normal_factor: 1.0,
            slow_factor: 0.5,
            max_factor: 2.0,
            stop_factor_cap: 0.3,
            factor_ease_per_tick: 0.02,
            stop_decay_per_tick: 0.9,
            direction_lerp_per_tick: 0.15,
            reference_hz: SEED_TICK_HZ,
            turn_speed_deg: 500.0,
            idle_factor: 0.3,
            neck_limit_deg: 50.0,
            neck_rate: 3.0,
            fall_speed: 4.0,
            fall_ground_gap: 1.0,
            fall_descend_speed: 0.5,
            integrate: true,
            gravity: 9.81,
            step_height: 0.5,
            snap_distance: 0.3,
            teleport_distance: 10.0,
            regroup_distance: 3.0,
        }
    }

    /// The seed's numbers *and* quirks (`seed_exact = true`): at 50 Hz this retraces a straight
    /// port of the seed's C# (see the oracle test in `tests/tests/integration/follower_oracle.rs`), at the price
    /// of tick-rate dependent crumbs and a dithering speed factor.
    pub const fn seed_exact() -> Self {
        let mut p = Self::seed();
        p.seed_exact = true;
        p
    }

    /// A closer, quicker companion: crumbs every 1.0, stops 2.0 from the leader, reaches crumbs
    /// within 1.2, shortcuts within 5.0, regroups 1.8 behind; speed and timing as the seed.
    pub const fn close_companion() -> Self {
        let mut p = Self::seed();
        p.record_distance = 1.0;
        p.stop_distance = 2.0;
        p.reach_distance = 1.2;
        p.shortcut_distance = 5.0;
        p.regroup_distance = 1.8;
        p
    }

    /// True if every field is in its documented range, i.e. [`FollowerParams::sanitized`]
    /// returns the same copy. [`step`](super::step) checks this every step (about 30 integer
    /// compares) and works on a sanitized copy only when it fails, so a host never needs to call
    /// this before stepping.
    pub fn is_sane(&self) -> bool {
        // The rules of `sanitized` (its `RULES` table), field by field; the float fields of
        // `floats_mut` order, tested against it in `rule_tests`.
        nonneg(self.record_distance)
            && nonneg_inf(self.shortcut_distance)
            && self.shortcut_keep >= 1
            && nonneg(self.stop_distance)
            && nonneg(self.reach_distance)
            && nonneg(self.move_speed)
            && nonneg(self.fast_factor)
            && nonneg(self.normal_factor)
            && nonneg(self.slow_factor)
            && nonneg(self.max_factor)
            && nonneg(self.stop_factor_cap)
            && nonneg(self.factor_ease_per_tick)
            && unit(self.stop_decay_per_tick)
            && unit(self.direction_lerp_per_tick)
            && positive_finite(self.reference_hz)
            && nonneg_inf(self.turn_speed_deg)
            && self.idle_factor.is_finite()
            && half_turn_deg(self.neck_limit_deg)
            && nonneg_inf(self.neck_rate)
            && self.fall_speed.is_finite()
            && self.fall_ground_gap.is_finite()
            && self.fall_descend_speed.is_finite()
            && self.gravity.is_finite()
            && nonneg(self.step_height)
            && nonneg(self.snap_distance)
            && positive_bits(self.teleport_distance)
            && nonneg(self.regroup_distance)
    }

    /// A copy with every NaN or out-of-range field replaced by its default (see field docs).
    #[inline(never)]
    pub fn sanitized(&self) -> Self {
        let mut s = *self;
        // A table walk rather than a compare-and-select per field: a third of the code, and off
        // the per-step path (`step` calls this only when `is_sane` fails).
        let xs = s.floats_mut();
        for i in 0..FLOATS {
            if !RULES[i].accepts(*xs[i]) {
                *xs[i] = DEFAULTS[i];
            }
        }
        if s.shortcut_keep == 0 {
            s.shortcut_keep = Self::seed().shortcut_keep;
        }
        s
    }

    /// Every `f32` field, in declaration order (the order of [`RULES`] and [`DEFAULTS`]).
    fn floats_mut(&mut self) -> [&mut f32; FLOATS] {
        [
            &mut self.record_distance,
            &mut self.shortcut_distance,
            &mut self.stop_distance,
            &mut self.reach_distance,
            &mut self.move_speed,
            &mut self.fast_factor,
            &mut self.normal_factor,
            &mut self.slow_factor,
            &mut self.max_factor,
            &mut self.stop_factor_cap,
            &mut self.factor_ease_per_tick,
            &mut self.stop_decay_per_tick,
            &mut self.direction_lerp_per_tick,
            &mut self.reference_hz,
            &mut self.turn_speed_deg,
            &mut self.idle_factor,
            &mut self.neck_limit_deg,
            &mut self.neck_rate,
            &mut self.fall_speed,
            &mut self.fall_ground_gap,
            &mut self.fall_descend_speed,
            &mut self.gravity,
            &mut self.step_height,
            &mut self.snap_distance,
            &mut self.teleport_distance,
            &mut self.regroup_distance,
        ]
    }
}

/// Number of `f32` fields of [`FollowerParams`].
const FLOATS: usize = 26;

/// The range rule of each `f32` field, in [`FollowerParams::floats_mut`] order.
const RULES: [Rule; FLOATS] = {
    use Rule::*;
    [
        NonNeg,         // record_distance
        NonNegInf,      // shortcut_distance
        NonNeg,         // stop_distance
        NonNeg,         // reach_distance
        NonNeg,         // move_speed
        NonNeg,         // fast_factor
        NonNeg,         // normal_factor
        NonNeg,         // slow_factor
        NonNeg,         // max_factor
        NonNeg,         // stop_factor_cap
        NonNeg,         // factor_ease_per_tick
        Unit,           // stop_decay_per_tick
        Unit,           // direction_lerp_per_tick
        PositiveFinite, // reference_hz
        NonNegInf,      // turn_speed_deg
        Finite,         // idle_factor
        HalfTurnDeg,    // neck_limit_deg
        NonNegInf,      // neck_rate
        Finite,         // fall_speed
        Finite,         // fall_ground_gap
        Finite,         // fall_descend_speed
        Finite,         // gravity
        NonNeg,         // step_height
        NonNeg,         // snap_distance
        Positive,       // teleport_distance
        NonNeg,         // regroup_distance
    ]
};

/// The default of each `f32` field ([`FollowerParams::seed`]), in [`FollowerParams::floats_mut`]
/// order.
const DEFAULTS: [f32; FLOATS] = {
    let d = FollowerParams::seed();
    [
        d.record_distance,
        d.shortcut_distance,
        d.stop_distance,
        d.reach_distance,
        d.move_speed,
        d.fast_factor,
        d.normal_factor,
        d.slow_factor,
        d.max_factor,
        d.stop_factor_cap,
        d.factor_ease_per_tick,
        d.stop_decay_per_tick,
        d.direction_lerp_per_tick,
        d.reference_hz,
        d.turn_speed_deg,
        d.idle_factor,
        d.neck_limit_deg,
        d.neck_rate,
        d.fall_speed,
        d.fall_ground_gap,
        d.fall_descend_speed,
        d.gravity,
        d.step_height,
        d.snap_distance,
        d.teleport_distance,
        d.regroup_distance,
    ]
};

/// The range rules of the `f32` fields (the functions below).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
enum Rule {
    NonNeg,
    NonNegInf,
    Unit,
    Finite,
    Positive,
    PositiveFinite,
    HalfTurnDeg,
}

impl Rule {
    fn accepts(self, x: f32) -> bool {
        match self {
            Rule::NonNeg => nonneg(x),
            Rule::NonNegInf => nonneg_inf(x),
            Rule::Unit => unit(x),
            Rule::Finite => x.is_finite(),
            Rule::Positive => positive_bits(x),
            Rule::PositiveFinite => positive_finite(x),
            Rule::HalfTurnDeg => half_turn_deg(x),
        }
    }
}

// Field range rules of `sanitized` (and so of `is_sane`), as integer tests on the bits: the same
// results as the float compares (NaN fails every rule, −0.0 counts as ≥ 0, positive floats
// order like their bits), without the soft-float calls on FPU-less targets.
const NEG_ZERO: u32 = bits::SIGN;
const INF: u32 = bits::INF;
const MAX: u32 = bits::MAX_FINITE;
#[inline]
pub(crate) fn nonneg(x: f32) -> bool {
    // finite && x ≥ 0
    let b = x.to_bits();
    b <= MAX || b == NEG_ZERO
}
#[inline]
pub(crate) fn nonneg_inf(x: f32) -> bool {
    // x ≥ 0
    let b = x.to_bits();
    b <= INF || b == NEG_ZERO
}
#[inline]
pub(crate) fn unit(x: f32) -> bool {
    // 0 ≤ x ≤ 1
    let b = x.to_bits();
    b <= 1.0f32.to_bits() || b == NEG_ZERO
}
#[inline]
pub(crate) fn positive_finite(x: f32) -> bool {
    // finite && x > 0
    x.to_bits().wrapping_sub(1) < MAX
}
#[inline]
fn half_turn_deg(x: f32) -> bool {
    // 0 ≤ x ≤ 180
    let b = x.to_bits();
    b <= 180.0f32.to_bits() || b == NEG_ZERO
}

/// Sanitised step length: `None` for NaN or `dt ≤ 0`, else `min(dt, MAX_STEP_DT)` (+∞ included).
#[inline]
pub(crate) fn sanitize_dt(dt: f32) -> Option<f32> {
    if dt > 0.0 {
        Some(dt.min(MAX_STEP_DT))
    } else {
        None
    }
}

inline_policy! { fpu_shared:
    /// Clamp every component to `±COORD_LIMIT`; NaN components become 0.
    pub(crate) fn clamp_coords(p: crate::math::Vec3) -> crate::math::Vec3 {
        // `clamp(x, −COORD_LIMIT, COORD_LIMIT)` (NaN → 0) on the bits: |x| ≤ limit keeps x (−0
        // included), a NaN gives 0, anything else (±inf included) the limit with the sign of x.
        let c = |x: f32| {
            let b = x.to_bits();
            let a = b & bits::ABS;
            if a <= COORD_LIMIT.to_bits() {
                x
            } else if a > f32::INFINITY.to_bits() {
                0.0
            } else if b >> 31 != 0 {
                -COORD_LIMIT
            } else {
                COORD_LIMIT
            }
        };
        crate::math::Vec3::new(c(p.x), c(p.y), c(p.z)).flush_subnormal()
    }
}

/// A leader position made safe: non-finite input → `last` (the last good one), else clamped.
#[inline]
pub(crate) fn sanitize_leader(p: crate::math::Vec3, last: crate::math::Vec3) -> crate::math::Vec3 {
    if p.is_finite() {
        clamp_coords(p)
    } else {
        last
    }
}

#[cfg(test)]
mod rule_tests {
    use super::*;

    /// `sanitized` as first written (a compare-and-select per field): the oracle of the table walk.
    fn sanitized_reference(p: &FollowerParams) -> FollowerParams {
        let d = FollowerParams::seed();
        let pick = |ok: bool, x: f32, def: f32| if ok { x } else { def };
        let f = |rule: fn(f32) -> bool, x: f32, def: f32| pick(rule(x), x, def);
        FollowerParams {
            record_distance: f(nonneg, p.record_distance, d.record_distance),
            seed_exact: p.seed_exact,
            shortcut_distance: f(nonneg_inf, p.shortcut_distance, d.shortcut_distance),
            shortcut_keep: if p.shortcut_keep >= 1 {
                p.shortcut_keep
            } else {
                d.shortcut_keep
            },
            stop_distance: f(nonneg, p.stop_distance, d.stop_distance),
            reach_distance: f(nonneg, p.reach_distance, d.reach_distance),
            stop_crumbs: p.stop_crumbs,
            fast_crumbs: p.fast_crumbs,
            slow_crumbs: p.slow_crumbs,
            move_speed: f(nonneg, p.move_speed, d.move_speed),
            fast_factor: f(nonneg, p.fast_factor, d.fast_factor),
            normal_factor: f(nonneg, p.normal_factor, d.normal_factor),
            slow_factor: f(nonneg, p.slow_factor, d.slow_factor),
            max_factor: f(nonneg, p.max_factor, d.max_factor),
            stop_factor_cap: f(nonneg, p.stop_factor_cap, d.stop_factor_cap),
            factor_ease_per_tick: f(nonneg, p.factor_ease_per_tick, d.factor_ease_per_tick),
            stop_decay_per_tick: f(unit, p.stop_decay_per_tick, d.stop_decay_per_tick),
            direction_lerp_per_tick: f(unit, p.direction_lerp_per_tick, d.direction_lerp_per_tick),
            reference_hz: f(positive_finite, p.reference_hz, d.reference_hz),
            turn_speed_deg: f(nonneg_inf, p.turn_speed_deg, d.turn_speed_deg),
            idle_factor: f(f32::is_finite, p.idle_factor, d.idle_factor),
            neck_limit_deg: f(half_turn_deg, p.neck_limit_deg, d.neck_limit_deg),
            neck_rate: f(nonneg_inf, p.neck_rate, d.neck_rate),
            fall_speed: f(f32::is_finite, p.fall_speed, d.fall_speed),
            fall_ground_gap: f(f32::is_finite, p.fall_ground_gap, d.fall_ground_gap),
            fall_descend_speed: f(f32::is_finite, p.fall_descend_speed, d.fall_descend_speed),
            integrate: p.integrate,
            gravity: f(f32::is_finite, p.gravity, d.gravity),
            step_height: f(nonneg, p.step_height, d.step_height),
            snap_distance: f(nonneg, p.snap_distance, d.snap_distance),
            teleport_distance: f(positive_bits, p.teleport_distance, d.teleport_distance),
            regroup_distance: f(nonneg, p.regroup_distance, d.regroup_distance),
        }
    }

    fn same(a: &FollowerParams, b: &FollowerParams) -> bool {
        let (mut a, mut b) = (*a, *b);
        a.floats_mut()
            .iter()
            .zip(b.floats_mut().iter())
            .all(|(x, y)| x.to_bits() == y.to_bits())
            && (
                a.seed_exact,
                a.shortcut_keep,
                a.stop_crumbs,
                a.fast_crumbs,
                a.slow_crumbs,
            ) == (
                b.seed_exact,
                b.shortcut_keep,
                b.stop_crumbs,
                b.fast_crumbs,
                b.slow_crumbs,
            )
            && a.integrate == b.integrate
    }

    #[test]
    fn table_order_is_the_field_order() {
        // Each slot of `floats_mut` is the field whose default is in `DEFAULTS` at that index.
        let mut d = FollowerParams::seed();
        for (x, def) in d.floats_mut().into_iter().zip(DEFAULTS) {
            assert_eq!(x.to_bits(), def.to_bits());
        }
        // Every field is reached once: distinct marks survive, each in its own field.
        let mut p = FollowerParams::seed();
        for (i, x) in p.floats_mut().into_iter().enumerate() {
            *x = 1000.0 + i as f32;
        }
        assert_eq!(p.record_distance, 1000.0);
        assert_eq!(p.regroup_distance, 1000.0 + (FLOATS - 1) as f32);
        let mut seen = [false; FLOATS];
        for x in p.floats_mut() {
            let i = (*x - 1000.0) as usize;
            assert!(!seen[i]);
            seen[i] = true;
        }
        // Out of range everywhere: every float falls back to its default.
        let mut bad = p;
        for x in bad.floats_mut() {
            *x = f32::NAN;
        }
        bad.shortcut_keep = 0;
        assert!(same(&bad.sanitized(), &FollowerParams::seed()));
        assert!(same(&sanitized_reference(&bad), &FollowerParams::seed()));
    }

    #[test]
    fn sanitized_and_is_sane_match_the_reference() {
        let specials = [
            0.0f32,
            -0.0,
            1.0,
            -1.0,
            0.5,
            180.0,
            f32::from_bits(180.0f32.to_bits() + 1),
            f32::from_bits(1.0f32.to_bits() + 1),
            1.0e-45,
            -1.0e-45,
            f32::MAX,
            -f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
        ];
        let mut rng = crate::rng::Pcg32::seeded(26);
        for round in 0..20_000 {
            let mut p = if round % 2 == 0 {
                FollowerParams::seed()
            } else {
                FollowerParams::close_companion()
            };
            // A few fields (or all of them) replaced by special or random values.
            let n = if round % 5 == 0 {
                FLOATS as u32
            } else {
                rng.below(4)
            };
            for _ in 0..n {
                let v = match rng.below(3) {
                    0 => specials[rng.below(specials.len() as u32) as usize],
                    1 => f32::from_bits(rng.next_u32()),
                    _ => rng.range_f32(-2.0, 200.0),
                };
                let i = rng.below(FLOATS as u32) as usize;
                if let Some(x) = p.floats_mut().into_iter().nth(i) {
                    *x = v;
                }
            }
            p.shortcut_keep = rng.below(3);
            p.seed_exact = rng.below(2) == 0;
            let want = sanitized_reference(&p);
            assert!(same(&p.sanitized(), &want), "{p:?}");
            assert_eq!(p.is_sane(), p == want, "{p:?}");
            assert_eq!(p.is_sane(), same(&p, &want), "{p:?}");
        }
    }

    #[test]
    fn bit_rules_match_the_float_rules() {
        let mut bits = 0u32;
        loop {
            let x = f32::from_bits(bits);
            assert_eq!(nonneg(x), x.is_finite() && x >= 0.0, "{bits:#x}");
            assert_eq!(nonneg_inf(x), x >= 0.0, "{bits:#x}");
            assert_eq!(unit(x), (0.0..=1.0).contains(&x), "{bits:#x}");
            assert_eq!(positive_bits(x), x > 0.0, "{bits:#x}");
            assert_eq!(positive_finite(x), x.is_finite() && x > 0.0, "{bits:#x}");
            assert_eq!(half_turn_deg(x), (0.0..=180.0).contains(&x), "{bits:#x}");
            match bits.checked_add(10_007) {
                Some(n) => bits = n,
                None => break,
            }
        }
        for x in [
            0.0,
            -0.0,
            1.0,
            180.0,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            1.0e-45,
        ] {
            assert_eq!(nonneg(x), x.is_finite() && x >= 0.0, "{x}");
            assert_eq!(nonneg_inf(x), x >= 0.0, "{x}");
            assert_eq!(unit(x), (0.0..=1.0).contains(&x), "{x}");
            assert_eq!(positive_bits(x), x > 0.0, "{x}");
            assert_eq!(positive_finite(x), x.is_finite() && x > 0.0, "{x}");
            assert_eq!(half_turn_deg(x), (0.0..=180.0).contains(&x), "{x}");
        }
    }
}
