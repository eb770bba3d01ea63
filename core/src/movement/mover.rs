//! The driver: [`step`] splits a call's `dt` into ticks once, and chooses the mode every tick —
//! Quake III's `Pmove` and `PmoveSingle`.
//!
//! One call ([`step`]):
//! 1. `dt` checked and split into fixed ticks ([`SubSteps`]: at most `max_tick_dt` each, at most
//!    `max_substeps`); the state handed in repaired (`repair_state`); the input's world wish
//!    computed once; among solids, a body that held a moving ladder before the ladder's move is
//!    carried by that move (pushers first: `platform::carry_held_ladder`).
//! 2. Every tick: crouch or stand up ([`super::crouch`]) and scale the wish; then
//!    the mode — on a ladder, climb ([`super::ladder`]); swimming or in a water jump, swim
//!    ([`super::water`]); else walk or fly ([`super::walk`]); then remember the jump key for the
//!    next tick's edge.
//!
//! [`step_wish`] is the same driver with one mode (walking and in the air) and a cached wish: the
//! fast form for games without crouching, ladders or water (docs/performance.md); [`tick`] is one
//! of its ticks.
//!
//! The modes import the state ([`super::state`]) and the shared rules (contact, jump, kernels,
//! platform), never the driver or each other.

use super::kernels::WishDir;
use super::params::MoveParams;
use super::state::{repair_ground_normal, repair_state};
use super::state::{MoveInput, MoverState, StepEvents};
use crate::collide::SolidFlags;
use crate::ground::GroundProbe;
use crate::timestep::SubSteps;

/// Advance the character by `dt` seconds.
///
/// - `dt` NaN or ≤ 0: nothing happens, [`StepEvents::rejected`] is set.
/// - `dt > params.max_tick_dt`: split into equal sub-steps (via [`SubSteps`]); at most
///   `params.max_substeps` of them (default 0.05 s × 8 = 0.4 s); longer time, `+inf` included, is
///   dropped and reported in [`StepEvents::dropped_time`]. With a fixed tick (`dt ≤ max_tick_dt`) a
///   step is exactly one tick.
/// - Non-finite input is sanitised ([`MoveInput`]); a state containing NaN/inf is repaired first
///   (non-finite velocity components → 0, non-finite position → origin).
/// - Every tick chooses its mode: crouching ([`MoveInput::crouch`],
///   `crouch.rs`) is applied first; on a ladder the tick climbs (`ladder.rs`); swimming
///   (water at the waist, [`water_level`](super::water_level) ≥ 2) or during a water jump it swims
///   (`water.rs`); else it walks or flies (`walk.rs`). Each mode's rules: docs/movement-features.md.
pub fn step<P: GroundProbe>(
    state: &mut MoverState,
    params: &MoveParams,
    input: &MoveInput,
    probe: &P,
    dt: f32,
) -> StepEvents {
    let Some((split, mut ev)) = begin_step(state, params, dt) else {
        return StepEvents::REJECTED;
    };
    if P::SOLID && probe.solid_flags().contains(MOVING_LADDER) {
        // Pushers first: a body that held a ladder before the ladder's move (made before the
        // call, over the call's time) is carried by it before any tick looks for a ladder.
        super::platform::carry_held_ladder(state, params, probe, input.facing, &split);
    }
    let wish = input.world_wish().sanitized();
    for left in (0..split.count).rev() {
        step_tick(
            state, params, input, &wish, probe, split.step, left, &mut ev,
        );
    }
    ev
}

/// A world with a moving ladder: both flags among [`GroundProbe::solid_flags`].
const MOVING_LADDER: SolidFlags = SolidFlags::LADDER.union(SolidFlags::MOVING);

/// One tick of [`step`] (`0 < dt ≤ max_tick_dt`, the state repaired, `wish` the input's sanitised
/// world wish, `left` the call's ticks after this one): crouch, then the mode of this tick, then
/// the jump key remembered. Events are added to `ev`.
#[inline(always)]
#[allow(clippy::too_many_arguments)]
fn step_tick(
    state: &mut MoverState,
    params: &MoveParams,
    input: &MoveInput,
    wish: &WishDir,
    probe: &impl GroundProbe,
    dt: f32,
    left: u32,
    ev: &mut StepEvents,
) {
    let wish = if input.crouch || state.crouched {
        super::crouch::update(state, params, input.crouch, probe);
        super::crouch::wish(*wish, state, params)
    } else {
        *wish
    };
    if let Some(n) = super::ladder::find(probe, state, params, wish, input.facing) {
        super::ladder::tick(state, params, n, &wish, input.jump, probe, dt, left, ev);
    } else if !(super::water::swimming(probe, state, params)
        && super::water::tick(state, params, input, &wish, probe, dt, ev))
    {
        super::walk::tick(state, params, &wish, input.jump, probe, dt, ev);
    }
    state.jump_held = input.jump;
}

/// [`step`] with one mode, walking and in the air (no crouching, ladders or water), and an already
/// converted world-space wish (cached by the caller), saving its sqrt.
pub fn step_wish(
    state: &mut MoverState,
    params: &MoveParams,
    wish: WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> StepEvents {
    let Some((split, mut ev)) = begin_step(state, params, dt) else {
        return StepEvents::REJECTED;
    };
    let wish = wish.sanitized();
    for _ in 0..split.count {
        super::walk::tick(state, params, &wish, jump, probe, split.step, &mut ev);
        state.jump_held = jump;
    }
    ev
}

/// One walking or airborne tick of `dt` seconds (`0 < dt ≤ max_tick_dt`), Quake order: what
/// [`step_wish`] runs per sub-step, without its checks of `dt`, the wish and the state. The events
/// are this tick's (`substeps` 1); [`StepEvents::merge`] adds them up over several ticks as
/// [`step`] does. (The tests' single tick; the crate's drivers call the modes' ticks directly.)
#[cfg(test)]
pub(crate) fn tick(
    state: &mut MoverState,
    params: &MoveParams,
    wish: WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> StepEvents {
    let mut ev = StepEvents::NONE;
    ev.substeps = 1;
    super::walk::tick(state, params, &wish, jump, probe, dt, &mut ev);
    state.jump_held = jump;
    ev
}

/// What both drivers ([`step`], [`step_wish`]) do before their ticks, in one place — the one
/// time split:
///
/// - `dt` NaN or ≤ 0: `None` (the caller returns [`StepEvents::REJECTED`]), the state untouched;
/// - a state handed in with NaN/inf is repaired ([`repair_state`]);
/// - `dt` is split into sub-steps ([`split_dt`]); none to run (every second dropped) is `None`
///   too, with the ground normal repaired (no tick will overwrite it);
/// - else the split, and the events to fill with `substeps` and `dropped_time` set.
#[inline(always)]
fn begin_step(
    state: &mut MoverState,
    params: &MoveParams,
    dt: f32,
) -> Option<(SubSteps, StepEvents)> {
    if !(dt > 0.0) {
        return None;
    }
    repair_state(state);
    let split = split_dt(params, dt);
    if split.count == 0 {
        repair_ground_normal(state);
        return None;
    }
    let mut ev = StepEvents::NONE;
    ev.substeps = split.count;
    ev.dropped_time = split.dropped;
    Some((split, ev))
}

/// The sub-steps of a step of `dt > 0` seconds: with a fixed tick (`dt ≤ max_tick_dt`) exactly one
/// tick of `dt` (what [`SubSteps::split`] gives, without its divides), else that split.
#[inline(always)]
fn split_dt(params: &MoveParams, dt: f32) -> SubSteps {
    if dt <= params.max_tick_dt {
        SubSteps {
            count: 1,
            step: dt,
            dropped: 0.0,
        }
    } else {
        SubSteps::split(dt, params.max_tick_dt, params.max_substeps)
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::ground::{FlatGround, NoGround};
    use crate::math::{Vec2, Vec3};

    #[test]
    fn first_step_lands_and_accelerates() {
        let p = MoveParams::seed();
        let mut s = MoverState::new(Vec3::new(0.0, 0.02, 0.0));
        let input = MoveInput::with_yaw(Vec2::new(1.0, 0.0), false, 0.0);
        let ev = step(&mut s, &p, &input, &FlatGround::new(0.0), 0.02);
        assert!(ev.landed && s.grounded);
        assert_eq!(s.position.y, 0.0);
        // Forward at yaw 0 is −Z: 120·0.02 = 2.4 (friction found the character at rest).
        assert!((s.velocity.z + 2.4).abs() < 1e-5 && s.velocity.x == 0.0);
        assert!((s.position.z + 2.4 * 0.02).abs() < 1e-6);
    }

    #[test]
    fn free_fall_without_ground() {
        let p = MoveParams::quake3();
        let mut s = MoverState::new(Vec3::ZERO);
        let ev = step(&mut s, &p, &MoveInput::default(), &NoGround, 0.5);
        // 0.5 s is 10 sub-steps of 0.05 s but at most 8 run: 0.4 s of fall, 0.1 s dropped.
        assert_eq!(ev.substeps, 8);
        assert!((ev.dropped_time - 0.1).abs() < 1e-6);
        assert!((s.velocity.y + 320.0).abs() < 1e-3);
        assert!((s.position.y + 0.5 * 800.0 * 0.16).abs() < 1e-2);
    }

    #[test]
    fn ticks_merged_are_the_step() {
        // `tick` returns one tick's events; merged over the sub-steps they are `step`'s.
        let p = MoveParams::quake3();
        let input = MoveInput::with_yaw(Vec2::new(0.6, 0.8), true, 0.3);
        let (mut a, mut b) = (
            MoverState::new(Vec3::new(0.0, 3.0, 0.0)),
            MoverState::new(Vec3::new(0.0, 3.0, 0.0)),
        );
        let g = FlatGround::new(0.0);
        for _ in 0..40 {
            let want = step(&mut a, &p, &input, &g, 0.12);
            let split = SubSteps::split(0.12, p.max_tick_dt, p.max_substeps);
            let mut got = StepEvents::NONE;
            got.dropped_time = split.dropped;
            for _ in 0..split.count {
                got.merge(tick(
                    &mut b,
                    &p,
                    input.world_wish(),
                    input.jump,
                    &g,
                    split.step,
                ));
            }
            assert_eq!(got, want);
            assert_eq!(a, b);
        }
    }

    #[test]
    fn every_entry_point_repairs_a_bad_water_jump_timer() {
        // The repair lives in `repair_state` (via `begin_step`), so both drivers clear it before
        // any tick, whatever mode the tick then takes (walking, swimming, climbing); a valid
        // timer is left alone by the check.
        let p = MoveParams::quakeworld();
        let ladder = Some(Vec3::new(0.0, 0.0, 1.0));
        let modes = [
            FinitePointsOnly::DRY,
            FinitePointsOnly {
                water: Some(100.0),
                ..FinitePointsOnly::DRY
            },
            FinitePointsOnly {
                ladder,
                ..FinitePointsOnly::DRY
            },
        ];
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY, -0.5, -0.0] {
            let mut s = MoverState::new(Vec3::new(0.0, 5.0, 0.0));
            s.water_jump_timer = bad;
            step_wish(&mut s, &p, WishDir::NONE, false, &NoGround, 1.0 / 60.0);
            assert_eq!(s.water_jump_timer.to_bits(), 0, "step_wish left {bad}");
            for (i, probe) in modes.iter().enumerate() {
                let mut s = MoverState::new(Vec3::new(0.0, 5.0, 0.0));
                s.water_jump_timer = bad;
                step(&mut s, &p, &MoveInput::default(), probe, 1.0 / 60.0);
                assert_eq!(
                    s.water_jump_timer.to_bits(),
                    0,
                    "step (mode {i}) left {bad}"
                );
            }
        }
        let mut s = MoverState::new(Vec3::ZERO);
        s.water_jump_timer = 0.25;
        repair_state(&mut s);
        assert_eq!(s.water_jump_timer, 0.25);
    }

    /// A probe with every query, each asserting that it is asked about a finite point.
    struct FinitePointsOnly {
        ladder: Option<Vec3>,
        water: Option<f32>,
    }
    impl FinitePointsOnly {
        const DRY: FinitePointsOnly = FinitePointsOnly {
            ladder: None,
            water: None,
        };
    }
    impl GroundProbe for FinitePointsOnly {
        fn probe(&self, p: Vec3) -> Option<crate::ground::GroundHit> {
            assert!(p.is_finite(), "probe({p:?})");
            FlatGround::new(0.0).probe(p)
        }
        fn clearance(&self, feet: Vec3) -> f32 {
            assert!(feet.is_finite(), "clearance({feet:?})");
            10.0
        }
        fn ladder(&self, feet: Vec3) -> Option<Vec3> {
            assert!(feet.is_finite(), "ladder({feet:?})");
            self.ladder
        }
        fn water(&self, feet: Vec3) -> Option<f32> {
            assert!(feet.is_finite(), "water({feet:?})");
            self.water
        }
    }

    #[test]
    fn step_repairs_the_state_before_any_query() {
        // The crouch, ladder and water tests run before the ticks: they see the repaired state.
        let p = MoveParams::seed();
        let ladder = Some(Vec3::new(0.0, 0.0, 1.0));
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let mut s = MoverState::new(Vec3::new(bad, 0.0, 0.0));
            s.crouched = true;
            s.velocity = Vec3::new(0.0, 0.0, bad);
            let input = MoveInput::new(Vec2::new(1.0, 0.0), false, Vec2::new(0.0, -1.0));
            let ev = step(
                &mut s,
                &p,
                &input,
                &FinitePointsOnly {
                    ladder,
                    water: None,
                },
                1.0 / 60.0,
            );
            assert!(s.is_finite(), "{s:?}");
            // Stood up (room enough) and grabbed the ladder it faces: the repaired velocity
            // (0) is not moving away from it.
            assert!(!s.crouched && ev.substeps == 1, "{s:?} {ev:?}");
            assert!(s.position.y > 0.0, "climbed: {s:?}");
        }
    }

    #[test]
    fn a_ladder_normal_with_a_bad_component_is_no_ladder() {
        let p = MoveParams::seed();
        let s = MoverState::new(Vec3::ZERO);
        let wish = WishDir::from_world(Vec2::new(0.0, -1.0));
        let ok = FinitePointsOnly {
            ladder: Some(Vec3::new(0.0, 0.0, 1.0)),
            water: None,
        };
        assert!(super::super::ladder::touching(&ok, &s, &p, wish).is_some());
        for bad in [f32::NAN, f32::INFINITY] {
            let probe = FinitePointsOnly {
                ladder: Some(Vec3::new(0.0, bad, 1.0)),
                water: None,
            };
            assert_eq!(super::super::ladder::touching(&probe, &s, &p, wish), None);
        }
    }

    /// Flat ground at 0 with every feature in its own strip of X: a ladder facing +Z around
    /// `x = 0` (for `z < 1`), a pool with its surface at 3 for `x > 10`, a ceiling 1 unit up for `20 < x < 30`.
    struct Features;
    impl GroundProbe for Features {
        fn probe(&self, p: Vec3) -> Option<crate::ground::GroundHit> {
            FlatGround::new(0.0).probe(p)
        }
        fn clearance(&self, feet: Vec3) -> f32 {
            if feet.x > 20.0 && feet.x < 30.0 {
                1.0 - feet.y
            } else {
                f32::INFINITY
            }
        }
        fn ladder(&self, feet: Vec3) -> Option<Vec3> {
            let near = feet.x > -1.0 && feet.x < 1.0 && feet.z < 1.0 && feet.y < 20.0;
            near.then_some(Vec3::new(0.0, 0.0, 1.0))
        }
        fn water(&self, feet: Vec3) -> Option<f32> {
            (feet.x > 10.0).then_some(3.0)
        }
    }

    /// A state and an input that start each mode: walking, climbing, the ladder's push-off,
    /// swimming, the water jump's edge, crouching under the ceiling and standing up out of it.
    fn mode_cases() -> [(&'static str, MoverState, MoveInput); 7] {
        let at = |x: f32, y: f32, z: f32| MoverState::new(Vec3::new(x, y, z));
        let fwd = |jump| MoveInput::with_yaw(Vec2::new(1.0, 0.0), jump, 0.0);
        let mut off_ladder = at(0.0, 2.0, 0.2);
        off_ladder.velocity.y = 10.0;
        let mut swimmer = at(15.0, 0.5, 0.0);
        swimmer.velocity = Vec3::new(0.0, 0.0, -100.0);
        let mut edge = at(10.5, 1.0, 0.0);
        edge.velocity.x = -200.0;
        let mut ducked = at(29.5, 0.0, 0.0);
        ducked.crouched = true;
        ducked.grounded = true;
        ducked.velocity.x = 300.0;
        [
            ("walk", at(40.0, 0.0, 0.0), fwd(true)),
            ("climb", at(0.0, 0.0, 0.2), fwd(false)),
            (
                "push-off",
                off_ladder,
                MoveInput::with_yaw(Vec2::ZERO, true, 0.0),
            ),
            ("swim", swimmer, fwd(true).with_pitch(0.5)),
            ("to the edge", edge, fwd(false)),
            ("crouch", at(25.0, 0.0, 0.0), fwd(false).with_crouch(true)),
            ("stand up", ducked, fwd(false)),
        ]
    }

    #[test]
    fn one_call_of_four_ticks_is_four_calls_of_one_in_every_mode() {
        // The mode is chosen every tick (`PmoveSingle`), so a call's sub-steps are the same
        // ticks as calls of one tick each: a ladder's push-off is not undone by the call's next
        // sub-step, and a swimmer that reaches the edge walks on the next one.
        let tick = 1.0 / 64.0; // exact in binary: the split's step is exactly `tick`
        let mut p = MoveParams::quakeworld();
        p.max_tick_dt = tick;
        p.crouch_jump = true;
        for (name, start, input) in mode_cases() {
            for calls in 0..3 {
                let (mut one, mut four) = (start, start);
                for _ in 0..calls * 4 {
                    step(&mut one, &p, &input, &Features, tick); // run the case in a bit
                }
                four = if calls == 0 { four } else { one };
                let whole = step(&mut one, &p, &input, &Features, 4.0 * tick);
                let mut merged = StepEvents::NONE;
                for _ in 0..4 {
                    merged.merge(step(&mut four, &p, &input, &Features, tick));
                }
                assert_eq!(whole.substeps, 4, "{name}");
                assert_eq!(whole, merged, "{name}, after {calls} calls");
                assert_eq!(one, four, "{name}, after {calls} calls");
                assert!(one.is_finite(), "{name}");
            }
        }
    }

    #[test]
    fn a_ladder_push_off_holds_over_a_calls_later_sub_steps() {
        let mut p = MoveParams::quakeworld();
        p.max_tick_dt = 1.0 / 64.0;
        let (_, start, input) = mode_cases()[2];
        let mut s = start;
        let ev = step(&mut s, &p, &input, &Features, 4.0 / 64.0);
        assert!(ev.jumped && ev.substeps == 4, "{ev:?}");
        // Pushed off along the ladder's normal (+Z) at `ladder_jump_speed`, then falling: not
        // climbing again on the call's later sub-steps.
        assert_eq!(s.velocity.z, p.ladder_jump_speed, "{s:?}");
        assert!(s.velocity.y < 0.0 && !s.grounded, "{s:?}");
    }

    /// Flat ground at 0 that turns about the origin at `f32::MAX` radians a second.
    struct Spinner;
    impl GroundProbe for Spinner {
        fn probe(&self, p: Vec3) -> Option<crate::ground::GroundHit> {
            FlatGround::new(0.0).probe(p)
        }
        fn surface_motion(&self, _: Vec3) -> crate::ground::SurfaceMotion {
            crate::ground::SurfaceMotion {
                yaw_rate: f32::MAX,
                ..Default::default()
            }
        }
    }

    #[test]
    fn events_are_finite_whenever_the_inputs_are() {
        // A turntable at `f32::MAX` rad/s over 64 sub-steps of a 10 s call: every turn is an
        // angle, so the carried yaw stays within (−π, π] (it summed to +inf before).
        let mut p = MoveParams::quakeworld();
        p.max_substeps = 64;
        let mut s = MoverState::new(Vec3::new(1.0, 0.0, 0.0));
        s.grounded = true;
        let mut total = StepEvents::NONE;
        for _ in 0..3 {
            let ev = step(&mut s, &p, &MoveInput::default(), &Spinner, 10.0);
            assert_eq!(ev.substeps, 64);
            let pi = core::f32::consts::PI;
            assert!(
                ev.carried_yaw.abs() <= pi && ev.carried_yaw != 0.0,
                "{ev:?}"
            );
            total.merge(ev);
            assert!(total.carried_yaw.abs() <= pi, "{total:?}");
        }
        // A fall that overflows within the tick (finite state and params) lands at `f32::MAX`.
        p.gravity = f32::MAX;
        let mut s = MoverState::new(Vec3::new(0.0, 1.0, 0.0));
        s.velocity.y = -f32::MAX;
        let ev = step(
            &mut s,
            &p,
            &MoveInput::default(),
            &FlatGround::new(0.0),
            1.0 / 60.0,
        );
        assert!(ev.landed && ev.impact_speed == f32::MAX, "{ev:?}");
        assert!(s.is_finite(), "{s:?}");
    }

    #[test]
    fn none_is_the_default() {
        assert_eq!(StepEvents::NONE, StepEvents::default());
    }

    #[test]
    fn bad_dt_is_rejected() {
        let p = MoveParams::seed();
        for dt in [0.0, -1.0, f32::NAN, f32::NEG_INFINITY] {
            let mut s = MoverState::new(Vec3::ZERO);
            let ev = step(&mut s, &p, &MoveInput::default(), &FlatGround::new(0.0), dt);
            assert!(ev.rejected);
            assert_eq!(s, MoverState::new(Vec3::ZERO));
        }
    }
}
