//! The steering baseline every bench shares: separation, cohesion, alignment and arrival blended
//! and integrated, as a desktop programmer writes them with `std` + `glam` (no guards: NaN in,
//! NaN out), with the limits of the benches' `SteeringParams` (max speed 4, max accel 8) and the
//! default flocking radii (1 and 3).
//!
//! Two arrivals, chosen at compile time:
//! - `SAME_ARRIVAL = true`: the maths of hopkit's `arrive` (stopping schedule at
//!   `0.9 × max_accel`, ramp inside the brake distance with a creep floor, the whole velocity
//!   error clamped while speeding up, braking first while braking), written plainly. With it the
//!   baseline does the work hopkit does, so the ratio is the price of hopkit's guards and API.
//! - `SAME_ARRIVAL = false`: gdx-ai's `Arrive` (linear ramp inside the brake distance, no
//!   stopping schedule): less work than hopkit's arrival, and it overshoots under a hard
//!   acceleration limit — the cheaper algorithm, not the same one.

use glam::Vec3 as G;

const DT: f32 = 1.0 / 60.0;
pub const MAX_SPEED: f32 = 4.0;
pub const MAX_ACCEL: f32 = 8.0;
const SEP_R: f32 = 1.0;
const NEAR_R: f32 = 3.0;
/// `ArrivalParams::default()`: brake distance, tolerance, creep fraction.
const BRAKE: f32 = 2.0;
const TOL: f32 = 0.05;
const CREEP: f32 = 0.05;
/// hopkit's `BRAKE_PLAN_FRACTION`.
const PLAN: f32 = 0.9;

/// One update of every body `(position, velocity)`: flocking over `snapshot` (last tick's
/// bodies) through the neighbour indices `nbr[i]`, arrival at `target(i)`, the weighted blend
/// (1.5, 0.5, 0.5, 1) clamped to `MAX_ACCEL`, then semi-implicit Euler with the speed clamped.
#[inline(never)]
pub fn update<const SAME_ARRIVAL: bool, N: AsRef<[u16]>>(
    bodies: &mut [(G, G)],
    snapshot: &[(G, G)],
    nbr: &[N],
    target: impl Fn(usize) -> G,
) {
    for (i, b) in bodies.iter_mut().enumerate() {
        let (p, v) = *b;
        let (mut sep, mut off_sum, mut vel_sum, mut count) = (G::ZERO, G::ZERO, G::ZERO, 0.0f32);
        for &j in nbr[i].as_ref() {
            let (op, ov) = snapshot[j as usize];
            let off = p - op;
            let d = off.length();
            if d < SEP_R && d > 1e-6 {
                sep += off / d * (1.0 - d / SEP_R);
            }
            if d < NEAR_R {
                off_sum -= off;
                vel_sum += ov;
                count += 1.0;
            }
        }
        let sep = sep.clamp_length_max(1.0) * MAX_ACCEL;
        let (coh, ali) = if count > 0.0 {
            let c = off_sum / count;
            let cl = c.length();
            let coh = if cl > 0.0 {
                c / cl * MAX_ACCEL * (cl / NEAR_R).min(1.0)
            } else {
                G::ZERO
            };
            (
                coh,
                ((vel_sum / count - v) / DT).clamp_length_max(MAX_ACCEL),
            )
        } else {
            (G::ZERO, G::ZERO)
        };
        let arr = if SAME_ARRIVAL {
            arrive_same(p, v, target(i))
        } else {
            arrive_naive(p, v, target(i))
        };
        let a = (sep * 1.5 + coh * 0.5 + ali * 0.5 + arr).clamp_length_max(MAX_ACCEL);
        let nv = (v + a * DT).clamp_length_max(MAX_SPEED);
        *b = (p + nv * DT, nv);
    }
}

/// gdx-ai style: ramp inside the brake distance, `(desired − v)/dt` clamped.
#[inline(always)]
fn arrive_naive(p: G, v: G, target: G) -> G {
    let to = target - p;
    let d = to.length();
    if d <= TOL {
        return (-v / DT).clamp_length_max(MAX_ACCEL);
    }
    let s = if d < BRAKE {
        MAX_SPEED * d / BRAKE
    } else {
        MAX_SPEED
    };
    ((to / d * s - v) / DT).clamp_length_max(MAX_ACCEL)
}

/// The maths of hopkit's `arrive`: stopping schedule, whole-error clamp while speeding up,
/// braking-first allocation while braking.
#[inline(always)]
fn arrive_same(p: G, v: G, target: G) -> G {
    let to = target - p;
    let d = to.length();
    if d <= TOL {
        return (-v / DT).clamp_length_max(MAX_ACCEL);
    }
    let u = to / d;
    let ramp = if d < BRAKE {
        (MAX_SPEED * d / BRAKE).max(MAX_SPEED * CREEP)
    } else {
        MAX_SPEED
    };
    let s = ramp.min(stopping_speed(d, MAX_ACCEL * PLAN, DT));
    let budget = MAX_ACCEL * DT;
    let v_al = v.dot(u);
    if s - v_al > 0.0 {
        // Not braking: the whole velocity error within the budget.
        return ((u * s - v) / DT).clamp_length_max(MAX_ACCEL);
    }
    let v_lat = v - u * v_al;
    let along = (s - v_al).clamp(-budget, budget);
    let rest = (budget * budget - along * along).max(0.0).sqrt();
    let dv = u * along + (-v_lat).clamp_length_max(rest);
    (dv / DT).clamp_length_max(MAX_ACCEL)
}

/// The fastest speed from which braking at `a` (one `a·dt` step per tick) stops within `d`.
#[inline]
fn stopping_speed(d: f32, a: f32, dt: f32) -> f32 {
    let budget = a * dt;
    let big_d = d / (budget * dt);
    if big_d <= 1.0 {
        return d / dt;
    }
    let tri = |k: f32| k * (k + 1.0) * 0.5;
    let mut k = (((8.0 * big_d + 1.0).sqrt() - 1.0) * 0.5).floor();
    if k > 0.0 && tri(k) >= big_d {
        k -= 1.0;
    } else if tri(k + 1.0) < big_d {
        k += 1.0;
    }
    ((big_d / (k + 1.0) + k * 0.5) * budget).min(d / dt)
}
