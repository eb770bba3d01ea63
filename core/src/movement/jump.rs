//! Jumping: the press/release latch, auto-hop, coyote time, jump buffering, the bunny-hop cap and
//! variable jump height. Each rule is one short function called from the walking tick ([`super::walk`]).

use super::params::MoveParams;
use super::state::MoverState;
use crate::math::scalar::positive;
use crate::math::Vec3;

/// How a jump that happened was allowed.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum JumpKind {
    /// From the ground.
    Ground,
    /// Within coyote time after leaving the ground.
    Coyote,
}

/// The jump key's bookkeeping that every mode shares (walking, [`super::ladder`],
/// [`super::water`]), called where the mode's order reads the key: a key that is up clears the
/// release-to-rejump latch, and the result is whether the key went down this tick (down now, up on
/// the last). The driver remembers the key for the next tick's edge after every mode's tick
/// ([`MoverState::jump_held`]).
#[inline]
pub(crate) fn key_pressed(state: &mut MoverState, jump_down: bool) -> bool {
    if !jump_down {
        state.jump_latched = false;
    }
    jump_down && !state.jump_held
}

/// Record this tick's jump key while walking or in the air: [`key_pressed`], and a press arms the
/// jump buffer.
#[inline]
pub(crate) fn note_jump_key(state: &mut MoverState, params: &MoveParams, jump_down: bool) {
    if key_pressed(state, jump_down) {
        state.jump_buffer_timer = timer_length(params.jump_buffer_time);
    }
}

/// True if the character may jump now: on the ground, or within coyote time.
#[inline]
pub(crate) fn can_jump(state: &MoverState) -> bool {
    state.grounded || positive(state.coyote_timer)
}

/// True if the player asks for a jump this tick. With auto-hop a held key is enough; without it the
/// key must have been released since the last jump (Quake's "don't pogo stick"). A buffered press
/// (within `jump_buffer_time`) counts either way.
#[inline]
pub(crate) fn wants_jump(state: &MoverState, params: &MoveParams, jump_down: bool) -> bool {
    let buffered = positive(state.jump_buffer_timer);
    let held_ok = jump_down && (params.auto_hop || !state.jump_latched);
    held_ok || buffered
}

/// Limit the planar speed to `bhop_speed_cap·max_speed` (off when the cap is ≤ 0). Only called on
/// jump ticks; one sqrt and divide only when over the cap.
#[inline]
pub(crate) fn apply_bhop_cap(velocity: Vec3, params: &MoveParams) -> Vec3 {
    if !(params.bhop_speed_cap > 0.0) {
        return velocity;
    }
    let limit = params.bhop_speed_cap * params.max_speed;
    let p = velocity.planar();
    let s2 = p.length_squared();
    if !(s2 > limit * limit) {
        return velocity;
    }
    let k = limit / crate::math::scalar::sqrt(s2);
    Vec3::new(velocity.x * k, velocity.y, velocity.z * k)
}

/// Perform a jump: upward speed `max(vy, 0) + jump_speed`, leave the ground, consume coyote time and
/// the buffer, latch the key, apply the bunny-hop cap. Returns how it was allowed.
#[inline]
pub(crate) fn do_jump(state: &mut MoverState, params: &MoveParams) -> JumpKind {
    let kind = if state.grounded {
        JumpKind::Ground
    } else {
        JumpKind::Coyote
    };
    let vy = if state.velocity.y > 0.0 {
        state.velocity.y
    } else {
        0.0
    };
    state.velocity.y = vy + params.jump_speed;
    state.velocity = apply_bhop_cap(state.velocity, params);
    state.grounded = false;
    state.ground_normal = Vec3::UP;
    state.coyote_timer = 0.0;
    state.jump_buffer_timer = 0.0;
    state.jump_latched = true;
    state.jump_rising = true;
    kind
}

/// Check and perform a jump (before friction, so a frame-perfect hop pays none).
#[inline]
pub(crate) fn check_jump(
    state: &mut MoverState,
    params: &MoveParams,
    jump_down: bool,
) -> Option<JumpKind> {
    if can_jump(state) && wants_jump(state, params, jump_down) {
        Some(do_jump(state, params))
    } else {
        None
    }
}

/// Variable jump height, velocity-cut form: when the key is released while rising from a jump, the
/// upward speed is multiplied once by `jump_release_cut`.
#[inline]
pub(crate) fn apply_jump_release_cut(state: &mut MoverState, params: &MoveParams, jump_down: bool) {
    let released = !jump_down && state.jump_held;
    if released && state.jump_rising && positive(state.velocity.y) {
        state.velocity.y *= params.jump_release_cut;
    }
}

/// Variable jump height, gravity form: the gravity multiplier this tick —
/// `jump_release_gravity` while rising from a jump with the key up, else 1.
#[inline]
pub(crate) fn jump_gravity_scale(state: &MoverState, params: &MoveParams, jump_down: bool) -> f32 {
    if state.jump_rising && !jump_down && positive(state.velocity.y) {
        params.jump_release_gravity
    } else {
        1.0
    }
}

/// End-of-tick timers: the buffer and (in the air) coyote time count down; the rising flag ends at
/// the apex or on the ground.
/// (The plain form, kept as the reference of the flushed one the modes run.)
#[cfg(test)]
#[inline]
pub(crate) fn tick_jump_timers(state: &mut MoverState, dt: f32) {
    state.jump_buffer_timer = count_down(state.jump_buffer_timer, dt);
    if !state.grounded {
        state.coyote_timer = count_down(state.coyote_timer, dt);
    }
    if state.grounded || !positive(state.velocity.y) {
        state.jump_rising = false;
    }
}

/// [`tick_jump_timers`] with the timers it counts down passed through
/// [`crate::math::scalar::flush_subnormal`] (as the end of a tick does: the step's tick then need
/// not flush them again).
#[inline]
pub(super) fn tick_jump_timers_flushed(state: &mut MoverState, dt: f32) {
    // A timer at +0 (most of the time) stays there: `0 − dt` is not positive unless `dt` is
    // negative (`tick`'s `dt` is positive, but the rule holds for any `dt`).
    let dt_sign = dt.to_bits() & crate::math::bits::SIGN;
    let f = |t: f32| {
        if t.to_bits() | dt_sign == 0 {
            return t;
        }
        let r = t - dt;
        if positive(r) {
            crate::math::scalar::flush_subnormal(r)
        } else {
            0.0
        }
    };
    state.jump_buffer_timer = f(state.jump_buffer_timer);
    if !state.grounded {
        state.coyote_timer = f(state.coyote_timer);
    }
    if state.grounded || !positive(state.velocity.y) {
        state.jump_rising = false;
    }
}

/// A timer length from a params field: NaN or ≤ 0 → 0 (no coyote time / no buffer), `+inf` →
/// `f32::MAX` (practically forever, but finite: the state never holds inf or NaN).
#[inline]
pub(crate) fn timer_length(t: f32) -> f32 {
    // Written out rather than `t.min(f32::MAX)`, which is a call to `fminf` on the Cortex-M4F; a
    // positive `t` above `f32::MAX` is `+inf`, one integer compare (no float compare on a Cortex-M0).
    if !positive(t) {
        0.0
    } else if t.to_bits() == f32::INFINITY.to_bits() {
        f32::MAX
    } else {
        t
    }
}

/// `flush_subnormal(timer_length(t))` in integer operations on the bits: a normal positive `t`
/// stays, `+inf` becomes `f32::MAX`, anything else (NaN, ±0, negative, a positive subnormal)
/// becomes `+0`.
#[inline]
pub(super) fn timer_length_flushed(t: f32) -> f32 {
    if crate::math::bits::positive_normal(t) {
        t
    } else if t.to_bits() == f32::INFINITY.to_bits() {
        f32::MAX
    } else {
        0.0
    }
}

/// `t − dt`, floored at 0 (NaN → 0).
#[cfg(test)]
#[inline]
fn count_down(t: f32, dt: f32) -> f32 {
    let r = t - dt;
    if positive(r) {
        r
    } else {
        0.0
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn flushed_timer_length_is_the_length_then_the_flush() {
        let mut rng = crate::rng::Pcg32::seeded(17);
        let specials = [
            0u32,
            1,
            0x007f_ffff,
            0x0080_0000,
            0x3f80_0000,
            0x7f7f_ffff,
            0x7f80_0000,
            0x7f80_0001,
            0x7fc0_0000,
        ];
        let all = specials
            .iter()
            .flat_map(|&b| [b, b | 0x8000_0000])
            .chain((0..100_000).map(|_| rng.next_u32()));
        for b in all {
            let t = f32::from_bits(b);
            let want = crate::math::scalar::flush_subnormal(timer_length(t));
            assert_eq!(
                timer_length_flushed(t).to_bits(),
                want.to_bits(),
                "{b:#010x}"
            );
        }
    }

    #[test]
    fn flushed_timers_are_the_timers_then_the_flush() {
        let specials = [
            0.0,
            -0.0,
            f32::from_bits(1),
            -f32::from_bits(1),
            1.0e-39,
            f32::MIN_POSITIVE,
            1.0 / 60.0,
            0.15,
            -0.2,
            f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
        ];
        for &dt in &specials {
            for &t in &specials {
                for &u in &specials {
                    for (grounded, vy) in [(true, 0.0), (false, 1.0), (false, -1.0)] {
                        let mut s = MoverState::new(Vec3::ZERO);
                        s.jump_buffer_timer = t;
                        // On the ground the tick's categorisation has flushed coyote time.
                        s.coyote_timer = if grounded {
                            crate::math::scalar::flush_subnormal(u)
                        } else {
                            u
                        };
                        s.grounded = grounded;
                        s.velocity.y = vy;
                        s.jump_rising = true;
                        let mut want = s;
                        tick_jump_timers(&mut want, dt);
                        want.flush_subnormals();
                        let mut got = s;
                        tick_jump_timers_flushed(&mut got, dt);
                        let bits = |s: &MoverState| {
                            (
                                s.jump_buffer_timer.to_bits(),
                                s.coyote_timer.to_bits(),
                                s.jump_rising,
                            )
                        };
                        assert_eq!(bits(&got), bits(&want), "dt {dt} t {t} u {u} {grounded}");
                    }
                }
            }
        }
    }
}
