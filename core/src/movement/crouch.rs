//! Crouching: a lower body, a slower walk, the crouch-jump, and no standing up under a ceiling.
//!
//! The character's height is `MoveParams::stand_height`, or `crouch_height` while
//! [`MoverState::crouched`]. [`MoveInput::crouch`] asks for it; [`super::step`] applies it at the
//! start of every tick, before the tick's mode is chosen ([`update`]), and scales that tick's wish
//! while crouched on the ground ([`wish`]), as Quake III's `PmoveSingle` runs `PM_CheckDuck`
//! every tick. [`super::step_wish`] / [`super::tick`] (walking and in the air only) do not crouch.
//!
//! - **Crouching** is always allowed. On the ground the feet stay where they are (the head comes
//!   down). In the air with `crouch_jump` (Source / Half-Life), the feet are pulled up by
//!   `stand_height − crouch_height` instead (the head stays): crouching at the top of a jump
//!   reaches ledges that much higher — the crouch-jump.
//! - **Standing up** needs room: the probe's [`GroundProbe::clearance`] at the feet (free height
//!   above them; default: nothing overhead) must be at least `stand_height`. Under a low ceiling
//!   the character stays crouched, however long the key is up, and stands as soon as it is out. In
//!   the air after a crouch-jump it stands by lowering its feet again, only if the ground is at
//!   least that far below them (else it stays crouched until it lands).
//! - **Speed**: a tick that starts crouched on the ground scales its wish speed by
//!   `crouch_speed_scale` (Quake III `pm_duckScale` 0.25, Source ≈ 1/3), as Source crops a
//!   command (`HandleDuckingSpeedCrop`, one command a tick): a crouched jump's take-off tick is
//!   scaled too, as in Source (Quake III's `PM_WalkMove` checks the jump first and does not scale
//!   it). A tick that starts in the air is not scaled (as both engines).
//!
//! In the height-probe world the body does not collide with walls or ceilings while moving (a
//! ceiling only keeps a crouched character crouched; clearance values: NaN or `+inf` mean
//! nothing overhead, a negative or zero one means no room). Among solids
//! ([`GroundProbe::SOLID`]) the crouched box is the one that collides, and standing up needs the
//! standing box to fit ([`super::slide`]).
//!
//! ## Cost
//! Nothing for a character that never crouches: [`super::step`] tests `input.crouch ||
//! state.crouched` once per tick; the tick itself is unchanged and never asks for the clearance.

use super::kernels::WishDir;
use super::params::MoveParams;
use super::state::MoverState;
use crate::ground::GroundProbe;
use crate::math::Vec3;

/// What a tick's crouch update did (crouched, stood up, or could not stand up).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CrouchEvents {
    /// The character crouched.
    pub crouched: bool,
    /// The character stood up.
    pub stood_up: bool,
    /// It wanted to stand up but had no room (a ceiling, or ground too close below in the air).
    pub blocked: bool,
}

/// The character's body height now, units.
#[inline]
pub fn height(state: &MoverState, params: &MoveParams) -> f32 {
    if state.crouched {
        params.crouch_height
    } else {
        params.stand_height
    }
}

/// How far the feet move up on a crouch in the air with `crouch_jump` (and down on standing up
/// again there): `stand_height − crouch_height`, or 0 if that is not a positive finite number.
#[inline]
pub(crate) fn crouch_jump_lift(params: &MoveParams) -> f32 {
    let lift = params.stand_height - params.crouch_height;
    if params.crouch_jump && lift > 0.0 && lift <= f32::MAX {
        lift
    } else {
        0.0
    }
}

/// Room for the standing body at `feet`: among solids ([`GroundProbe::SOLID`]) the standing box
/// fits there (a position test: it overlaps or touches no solid); else the probe's clearance is
/// at least `stand_height` (NaN and `+inf` mean nothing overhead).
#[inline]
fn room<P: GroundProbe>(probe: &P, feet: Vec3, params: &MoveParams) -> bool {
    if P::SOLID {
        let standing = MoverState {
            crouched: false,
            ..MoverState::new(feet)
        };
        let (mins, maxs) = super::slide::body_box(&standing, params);
        return !super::slide::trace(probe, feet, feet, mins, maxs).start_solid;
    }
    let c = probe.clearance(feet);
    c.is_nan() || c >= params.stand_height
}

/// Crouch or stand up as `want` asks (see the module docs). Call once per step, before it.
pub(crate) fn update(
    state: &mut MoverState,
    params: &MoveParams,
    want: bool,
    probe: &impl GroundProbe,
) -> CrouchEvents {
    let mut ev = CrouchEvents::default();
    if want == state.crouched {
        return ev;
    }
    let lift = if state.grounded {
        0.0
    } else {
        crouch_jump_lift(params)
    };
    if want {
        state.crouched = true;
        // Near `f32::MAX` the lift would overflow the position: then the feet stay.
        let y = state.position.y + lift;
        if y.is_finite() {
            state.position.y = y;
        }
        ev.crouched = true;
        return ev;
    }
    let feet = Vec3::new(state.position.x, state.position.y - lift, state.position.z);
    // In the air, lowering the feet needs the ground to be at least `lift` below them.
    let ground_ok = lift == 0.0
        || match probe.height(state.position) {
            Some(h) => !(h > feet.y),
            None => true,
        };
    if ground_ok && feet.is_finite() && room(probe, feet, params) {
        state.crouched = false;
        state.position = feet;
        ev.stood_up = true;
    } else {
        ev.blocked = true;
    }
    ev
}

/// The wish for a step that starts with `state`: scaled by `crouch_speed_scale` (clamped to
/// `[0, 1]`, NaN → 1) while crouched on the ground, else unchanged.
#[inline]
pub(crate) fn wish(w: WishDir, state: &MoverState, params: &MoveParams) -> WishDir {
    if !(state.crouched && state.grounded) {
        return w;
    }
    let k = params.crouch_speed_scale;
    let k = if k.is_nan() {
        1.0
    } else {
        crate::math::clamp(k, 0.0, 1.0)
    };
    WishDir {
        scale: w.scale * k,
        ..w
    }
}
