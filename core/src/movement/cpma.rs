//! Challenge ProMode ("CPM", CPMA / Defrag) air control: the air step of [`MoveParams::cpma`]
//! (or any params with [`MoveParams::cpm_air`] on).
//!
//! Quake III's air step is plain [`accelerate`](super::accelerate) with `airaccelerate = 1` and no
//! 30 cap. CPM (`PM_AirMove` with its pro-mode branch, and `CPM_PM_Aircontrol` from CPM's
//! developer documents, `bg_promode.c`) changes three things, all chosen by which keys are held:
//!
//! 1. **Air stop acceleration**: while the wish points against the velocity (`v·wishdir < 0`) the
//!    acceleration is `air_stop_accel` (2.5) instead of `air_accel` (1): braking in the air is
//!    2.5× stronger.
//! 2. **Strafe acceleration**: while *only* strafe keys are held (Q3 `movementDir` 2 or 6), the
//!    wish speed is capped at `strafe_wish_cap` (30) and the acceleration is `strafe_accel` (70),
//!    the budget `70·30·dt` using the capped wish speed: QuakeWorld-style "A/D" turning.
//! 3. **Air control**: while *only* forward/back is held (`movementDir` 0 or 4) and the wish speed
//!    is not zero, after accelerating, the planar velocity direction `n = v/|v|` with
//!    `d = n·wishdir` becomes, if `d > 0`, `normalize(n·|v| + wishdir·k)` with
//!    `k = 32·(air_control·d·d·dt)`, and the velocity `n·|v|`: "W turning" that keeps the speed.
//!
//! Which keys are held reaches the tick in [`WishDir::keys`] ([`WishKeys`]), filled by
//! [`world_wish`](super::world_wish) / [`world_wish_unit`](super::world_wish_unit) (so by
//! [`step`](super::step)) from the view-frame wish; a wish built from a world vector
//! ([`WishDir::from_world`]) is [`WishKeys::Mixed`] and gets steps 1 only.
//!
//! Reference (read for this port; the test `movement_cpma` ports it in f32 in its order of
//! operations and compares tick by tick): `code/game/bg_pmove.c` `PM_AirMove` (the
//! `g_promode` branch) and `code/game/bg_promode.c` `CPM_PM_Aircontrol` / `CPM_UpdateSettings` in
//! the public repository `pbrochart/oaunofficial` (OpenArena "unofficial", carrying CPM's
//! `bg_promode.c` from its developer documents, `cpm1_dev_docs.zip`).
//!
//! ## Cost
//! Only characters with `cpm_air` on reach this module (the mover tests one flag on air ticks).
//! Steps 1–2: one dot product and two compares more than the plain air step. Air control (step 3,
//! forward/back-only ticks): two sqrt and two divides, as CPM's two `VectorNormalize`.
//!
//! ## Differences from the reference (documented)
//! - Planar only; the vertical velocity is never touched (as in CPM, which zeroes and restores it).
//! - The budget is formed `accel·wishspeed·dt` (hopkit's [`accel_budget`])
//!   where Q3 writes `accel·frametime·wishspeed`: at most 1 ulp apart.
//! - The non-strafe cap is `min(wishspeed, air_wish_cap)` (infinite in [`MoveParams::cpma`], so
//!   exactly CPM); the budget style follows [`MoveParams::accel_budget`] and the style
//!   [`MoveParams::accel_style`] (CPM: wish-scaled, projection).
//! - No `SnapVector` (Q3 rounds the velocity to integers each frame; [`MoveParams::quake3`] does
//!   not either). CPM's double jump (`cpm_pm_jump_z`) is not modelled.
//! - Bad numbers: a zero, non-finite or overflowing planar speed, or an air-control turn that
//!   overflows, leaves the accelerated velocity as it is (Q3 would produce NaN/inf); the mover's
//!   guard catches anything else (NaN params) as for every rule.
//! - [`TickConsts`](super::TickConsts), [`planar_velocity_tick`](super::planar_velocity_tick) and
//!   the batch kernel are the Quake kernels and do not apply the CPM air step: the mover
//!   ([`step`](super::step), [`step_wish`](super::step_wish), [`tick`](super::tick)) does.
//!
//! # Example
//!
//! W held in the air with the view 45° left of the velocity: air control turns the velocity
//! towards the view and keeps its speed (a plain Quake III air step would barely turn it).
//!
//! ```
//! use hopkit::ground::NoGround;
//! use hopkit::math::{Vec2, Vec3};
//! use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
//!
//! let p = MoveParams::cpma();
//! let mut s = MoverState::new(Vec3::new(0.0, 100.0, 0.0));
//! s.velocity = Vec3::new(0.0, 0.0, -400.0); // flying towards −Z at 400 ups
//! let yaw = core::f32::consts::FRAC_PI_4; // view 45° to the left (towards −X)
//! let input = MoveInput::with_yaw(Vec2::new(1.0, 0.0), false, yaw); // W only
//! let mut speeds = [0.0; 60];
//! for t in 0..60 {
//!     step(&mut s, &p, &input, &NoGround, 1.0 / 125.0);
//!     speeds[t] = s.planar_speed();
//! }
//! assert!(s.velocity.x < -280.0); // turned nearly all the way to the view (−283 at 45°)
//! // The plain air acceleration adds speed only while v·wish < 320 (the first few ticks); from
//! // then on air control turns the velocity at constant speed.
//! assert!((speeds[59] - speeds[9]).abs() < 1e-3 * speeds[9]);
//! ```

use super::kernels::{accel_budget, accelerate_styled, air_cap, WishDir, WishKeys};
use super::params::MoveParams;
use crate::math::{scalar, Vec2};

/// One air tick of planar velocity with CPM's air step (the module docs' steps 1–3).
/// `wish` must be sanitised (as the mover does); any params are accepted.
#[inline(never)]
pub(crate) fn cpm_air_velocity(v: Vec2, wish: WishDir, params: &MoveParams, dt: f32) -> Vec2 {
    // PM_AirMove: wishspeed = |wishvel|·scale (hopkit: the analog scale times the air max).
    let w = params.air_max_speed * wish.scale;
    let (cap, budget) = if wish.keys == WishKeys::Strafe {
        // movementDir 2 or 6: the wish speed is capped and the *capped* speed scales the budget.
        let c = if w > params.strafe_wish_cap {
            params.strafe_wish_cap
        } else {
            w
        };
        (
            c,
            accel_budget(params.strafe_accel, c, params.accel_budget, dt),
        )
    } else {
        let accel = if v.dot(wish.dir) < 0.0 {
            params.air_stop_accel
        } else {
            params.air_accel
        };
        (
            air_cap(w, params.air_wish_cap),
            accel_budget(accel, w, params.accel_budget, dt),
        )
    };
    let v = accelerate_styled(v, wish, cap, budget, params.accel_style);
    // `if (cpm_pm_aircontrol) CPM_PM_Aircontrol(pm, wishdir, wishspeed2)`, which returns unless
    // only forward/back is held and the (uncapped) wish speed is not zero.
    if wish.keys == WishKeys::ForwardBack && params.air_control != 0.0 && w != 0.0 {
        air_control(v, wish.dir, params.air_control, dt)
    } else {
        v
    }
}

/// `CPM_PM_Aircontrol` on the planar velocity: turn `v` towards the unit `dir` by
/// `k = 32·(strength·d·d·dt)` (`d = v̂·dir`, only while `d > 0`) and keep `|v|`.
/// A zero or non-finite speed, or a turned vector that is zero or overflows, leaves `v` unchanged.
#[inline]
pub(crate) fn air_control(v: Vec2, dir: Vec2, strength: f32, dt: f32) -> Vec2 {
    let s2 = v.length_squared();
    if !(s2 > 0.0) || !(s2 <= f32::MAX) {
        return v;
    }
    // VectorNormalize: length, then one reciprocal and a multiply per component.
    let speed = scalar::sqrt(s2);
    let inv = 1.0 / speed;
    let mut n = Vec2::new(v.x * inv, v.y * inv);
    let dot = n.x * dir.x + n.y * dir.y;
    let k = 32.0 * (strength * dot * dot * dt);
    if dot > 0.0 {
        let m = Vec2::new(n.x * speed + dir.x * k, n.y * speed + dir.y * k);
        let m2 = m.length_squared();
        if !(m2 > 0.0) || !(m2 <= f32::MAX) {
            return v;
        }
        let inv_m = 1.0 / scalar::sqrt(m2);
        n = Vec2::new(m.x * inv_m, m.y * inv_m);
    }
    Vec2::new(n.x * speed, n.y * speed)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::movement::kernels::air_accelerate;

    fn wish(x: f32, y: f32, keys: WishKeys) -> WishDir {
        WishDir::from_world(Vec2::new(x, y)).with_keys(keys)
    }

    #[test]
    fn mixed_keys_with_vq3_numbers_is_the_quake3_air_step() {
        // With CPM's "vq3" numbers (CPM_UpdateSettings(0): stop accel 1 = air accel, strafe accel
        // 1, wish cap 400 ≥ 320) the CPM step is Quake III's, for every key set but W-only.
        let mut p = MoveParams::quake3();
        p.cpm_air = true;
        p.air_stop_accel = 1.0;
        p.strafe_accel = 1.0;
        p.strafe_wish_cap = 400.0;
        let mut rng = crate::rng::Pcg32::seeded(3);
        for _ in 0..5000 {
            let v = Vec2::new(rng.range_f32(-600.0, 600.0), rng.range_f32(-600.0, 600.0));
            let keys = [WishKeys::Mixed, WishKeys::Strafe][rng.below(2) as usize];
            let w = wish(rng.signed_unit(), rng.signed_unit(), keys);
            let a = cpm_air_velocity(v, w, &p, 0.008);
            let b = air_accelerate(v, w, &p, 0.008);
            assert_eq!(
                (a.x.to_bits(), a.y.to_bits()),
                (b.x.to_bits(), b.y.to_bits())
            );
        }
    }

    #[test]
    fn strafe_only_is_capped_and_fast() {
        let p = MoveParams::cpma();
        let dt = 0.008;
        // Perpendicular strafe at 400 ups: projection 0 < 30, budget 70·30·dt = 16.8 ≤ 30.
        let v = Vec2::new(0.0, -400.0);
        let out = cpm_air_velocity(v, wish(1.0, 0.0, WishKeys::Strafe), &p, dt);
        assert!((out.x - 70.0 * 30.0 * dt).abs() < 1e-4 && out.y == -400.0);
        // The same wish from diagonal keys: budget 1·320·dt = 2.56.
        let out = cpm_air_velocity(v, wish(1.0, 0.0, WishKeys::Mixed), &p, dt);
        assert!((out.x - 320.0 * dt).abs() < 1e-4);
    }

    #[test]
    fn air_stop_brakes_harder() {
        let p = MoveParams::cpma();
        let v = Vec2::new(0.0, -400.0);
        let back = wish(0.0, 1.0, WishKeys::ForwardBack); // S held: wish against the velocity
        let out = cpm_air_velocity(v, back, &p, 0.008);
        // 2.5·320·0.008 = 6.4 removed; no turn (d < 0), speed kept as is.
        assert!((out.y + 400.0 - 6.4).abs() < 1e-3, "{out:?}");
        assert!(out.x.abs() < 1e-6);
    }

    #[test]
    fn air_control_turns_and_keeps_speed() {
        let v = Vec2::new(0.0, -400.0);
        let d = Vec2::new(
            -core::f32::consts::FRAC_1_SQRT_2,
            -core::f32::consts::FRAC_1_SQRT_2,
        );
        let out = air_control(v, d, 150.0, 0.008);
        // k = 32·150·0.5·0.008 = 19.2: angle atan(19.2·0.7071 / (400 + 19.2·0.7071)).
        // `libm` explicitly (not `f32::atan2`, nor the backend's approximate one under micromath).
        let want = libm::atan2f(19.2f32 * 0.70710677, 400.0 + 19.2 * 0.70710677);
        let got = libm::atan2f(-out.x, -out.y);
        assert!((got - want).abs() < 1e-5, "{got} {want}");
        assert!((out.length() - 400.0).abs() < 1e-3);
        // Bad inputs leave v alone, never NaN.
        for (v, s) in [
            (Vec2::ZERO, 150.0),
            (Vec2::new(f32::MAX, f32::MAX), 150.0),
            (v, f32::INFINITY),
            (v, f32::MAX),
        ] {
            let out = air_control(v, d, s, 0.008);
            assert!(!out.x.is_nan() && !out.y.is_nan(), "{v:?} {s}");
        }
    }
}
