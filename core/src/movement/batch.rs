//! Many characters' planar velocity in one call, structure of arrays, for crowds on the desktop.
//!
//! [`planar_velocity_tick_batch`] runs [`super::planar_velocity_tick`] for every character of a
//! batch stored as separate `x`/`z` slices, and gives **the same bits** per character (tested):
//! it is the scalar kernel rewritten without branches — both the ground and the air path are
//! computed and the character's `grounded` flag selects — so the compiler vectorises the loop
//! (SSE2 on any x86_64, wider with `-C target-cpu=…`). The per-batch choices (friction model,
//! budget mode) are made once outside the loop. The clamped-delta acceleration style needs a
//! square root and a divide per character and is not the strafe-jump style; with it, and with
//! [`super::FrictionMath::SqrtDivide`] (whose `libm` square root is a `sqrtss` the compiler does not
//! vectorise), the batch falls back to the scalar kernel per character (same result, not
//! vectorised).

use super::kernels::{planar_velocity_tick, WishDir};
use super::params::{AccelStyle, FrictionMath, MoveParams};
use super::prepared::{TickConsts, MAX_BITS};
use crate::math::{scalar, Vec2};

/// Every character's world-space wish, structure of arrays (see [`WishDir`]: `dir` unit or zero,
/// `scale` in `[0, 1]`).
#[derive(Clone, Copy, Debug)]
pub struct WishBatch<'a> {
    /// Wish direction, world X.
    pub dir_x: &'a [f32],
    /// Wish direction, world Z.
    pub dir_z: &'a [f32],
    /// Analog scale.
    pub scale: &'a [f32],
}

/// One tick of planar velocity for `n` characters, in place: `vx[i]`, `vz[i]` become what
/// `planar_velocity_tick(Vec2::new(vx[i], vz[i]), wish_i, params, grounded[i], dt)` returns, bit
/// for bit. `n` is the shortest of the slices (longer ones are left alone). Returns `n`.
pub fn planar_velocity_tick_batch(
    vx: &mut [f32],
    vz: &mut [f32],
    wish: WishBatch<'_>,
    grounded: &[bool],
    params: &MoveParams,
    dt: f32,
) -> usize {
    let n = vx
        .len()
        .min(vz.len())
        .min(wish.dir_x.len())
        .min(wish.dir_z.len())
        .min(wish.scale.len())
        .min(grounded.len());
    let (vx, vz) = (&mut vx[..n], &mut vz[..n]);
    let (dx, dz, sc, gr) = (
        &wish.dir_x[..n],
        &wish.dir_z[..n],
        &wish.scale[..n],
        &grounded[..n],
    );
    if params.accel_style != AccelStyle::Projection || params.friction_math != FrictionMath::Rsqrt {
        for i in 0..n {
            let w = WishDir::new(Vec2::new(dx[i], dz[i]), sc[i]);
            let v = planar_velocity_tick(Vec2::new(vx[i], vz[i]), w, params, gr[i], dt);
            vx[i] = v.x;
            vz[i] = v.y;
        }
        return n;
    }
    // Constants folded once ([`TickConsts`]), then monomorphised per (friction model, budget
    // mode): no per-character dispatch.
    let k = TickConsts::new(params, dt);
    match (k.stop_speed_model, k.wish_scaled) {
        (true, false) => run::<true, false>(vx, vz, dx, dz, sc, gr, &k),
        (true, true) => run::<true, true>(vx, vz, dx, dz, sc, gr, &k),
        (false, false) => run::<false, false>(vx, vz, dx, dz, sc, gr, &k),
        (false, true) => run::<false, true>(vx, vz, dx, dz, sc, gr, &k),
    }
    n
}

#[inline(always)]
fn select(c: bool, a: f32, b: f32) -> f32 {
    if c {
        a
    } else {
        b
    }
}

/// The branch-free lanes: [`TickConsts::tick`]'s float operations, in the same order.
#[allow(clippy::too_many_arguments)]
#[inline(always)]
fn run<const STOP_SPEED: bool, const WISH_SCALED: bool>(
    vx: &mut [f32],
    vz: &mut [f32],
    dx: &[f32],
    dz: &[f32],
    sc: &[f32],
    gr: &[bool],
    k: &TickConsts,
) {
    let dt = k.dt;
    let budget = |factor: f32, w: f32| {
        if WISH_SCALED {
            factor * w * dt
        } else {
            factor
        }
    };
    for i in 0..vx
        .len()
        .min(vz.len())
        .min(dx.len())
        .min(dz.len())
        .min(sc.len())
        .min(gr.len())
    {
        let (x, z, g) = (vx[i], vz[i], gr[i]);
        // --- friction (ground only) ---
        let s2 = x * x + z * z;
        let bits = s2.to_bits();
        let moving = bits >= k.moving_min_bits && bits <= MAX_BITS;
        let inv = scalar::rsqrt_in_range(s2);
        let drop = if STOP_SPEED {
            let speed = s2 * inv;
            let control = select(speed < k.stop_speed, k.stop_speed, speed);
            control * k.friction * dt
        } else {
            k.friction
        };
        let f = 1.0 - drop * inv;
        let keep = moving && f > 0.0;
        let fx = select(keep, x * f, 0.0);
        let fz = select(keep, z * f, 0.0);
        // --- accelerate, with the ground or the air cap and budget ---
        let s = sc[i];
        let w_ground = k.max_speed * s;
        let w_air = k.air_max_speed * s;
        let cap_air = select(k.air_wish_cap < w_air, k.air_wish_cap, w_air); // `air_cap`
        let (bx, bz) = (select(g, fx, x), select(g, fz, z));
        let cap = select(g, w_ground, cap_air);
        let a = select(g, budget(k.accel, w_ground), budget(k.air_accel, w_air));
        let (ux, uz) = (dx[i], dz[i]);
        let add = cap - (bx * ux + bz * uz);
        let step = select(add < a, add, a);
        let go = add > 0.0;
        vx[i] = select(go, bx + ux * step, bx);
        vz[i] = select(go, bz + uz * step, bz);
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::rng::Pcg32;

    #[test]
    fn bit_identical_to_the_scalar_kernel() {
        let specials = [0.0, -0.0, 1e-20, 3.0, -7.5, 1e30, f32::NAN, f32::INFINITY];
        for params in [
            MoveParams::seed(),
            MoveParams::seed_figure(),
            MoveParams::quakeworld(),
            MoveParams::quake3(),
            MoveParams::source(),
            MoveParams {
                friction_math: FrictionMath::SqrtDivide,
                ..MoveParams::quakeworld()
            },
        ] {
            let mut rng = Pcg32::seeded(11);
            let n = 2000;
            let mut vx = Vec::new();
            let mut vz = Vec::new();
            let (mut dx, mut dz, mut sc, mut gr) = (Vec::new(), Vec::new(), Vec::new(), Vec::new());
            for i in 0..n {
                let (x, z) = if i % 17 == 0 {
                    (specials[i % 8], specials[(i / 8) % 8])
                } else {
                    (rng.range_f32(-400.0, 400.0), rng.range_f32(-400.0, 400.0))
                };
                vx.push(x);
                vz.push(z);
                let w = WishDir::from_world(Vec2::new(
                    rng.range_f32(-1.0, 1.0),
                    rng.range_f32(-1.0, 1.0),
                ));
                let w = if i % 23 == 0 { WishDir::NONE } else { w };
                dx.push(w.dir.x);
                dz.push(w.dir.y);
                sc.push(w.scale);
                gr.push(rng.below(2) == 0);
            }
            let dt = 1.0 / 60.0;
            let (mut bx, mut bz) = (vx.clone(), vz.clone());
            let wish = WishBatch {
                dir_x: &dx,
                dir_z: &dz,
                scale: &sc,
            };
            assert_eq!(
                planar_velocity_tick_batch(&mut bx, &mut bz, wish, &gr, &params, dt),
                n
            );
            for i in 0..n {
                let w = WishDir::new(Vec2::new(dx[i], dz[i]), sc[i]);
                let s = planar_velocity_tick(Vec2::new(vx[i], vz[i]), w, &params, gr[i], dt);
                assert_eq!(
                    (bx[i].to_bits(), bz[i].to_bits()),
                    (s.x.to_bits(), s.y.to_bits()),
                    "{params:?} #{i}: v ({}, {}) grounded {}",
                    vx[i],
                    vz[i],
                    gr[i]
                );
            }
        }
    }

    #[test]
    fn shortest_slice_sets_the_count() {
        let mut vx = [1.0, 2.0, 3.0];
        let mut vz = [0.0; 3];
        let wish = WishBatch {
            dir_x: &[1.0, 0.0],
            dir_z: &[0.0, 1.0],
            scale: &[1.0, 1.0],
        };
        let n = planar_velocity_tick_batch(
            &mut vx,
            &mut vz,
            wish,
            &[true; 3],
            &MoveParams::seed(),
            0.01,
        );
        assert_eq!(n, 2);
        assert_eq!(vx[2], 3.0, "untouched");
    }
}
