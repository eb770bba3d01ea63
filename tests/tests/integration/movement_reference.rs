//! Test oracle (moved here from `core/src/movement/reference.rs`: it is not part of the library):
//! the character step exactly as it was written before the instruction-count work (issue 14),
//! every rule in its plain form — float compares, `t.min(f32::MAX)`, the contacts added to the
//! events one by one, the velocity clamp on every tick, `is_walkable` with its finiteness test, the
//! planar kernel per model and style. `step_wish` here must give the same bits as
//! `hopkit::movement::step_wish` for every state, parameter set, probe, wish and `dt`
//! (`same_bits_as_the_reference_step` below drives both over random and special inputs).

// `!(x > y)` on purpose, as in the library: also true when either is NaN.
#![allow(clippy::neg_cmp_op_on_partial_ord)]

use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{scalar, Vec2, Vec3, NORMALIZE_EPSILON_SQ};
use hopkit::movement::WishDir;
use hopkit::movement::{AccelBudget, AccelStyle, FrictionMath, FrictionModel, MoveParams};
use hopkit::movement::{MoverState, StepEvents};
use hopkit::timestep::SubSteps;

#[derive(Clone, Copy, Default)]
struct Contact {
    landed: bool,
    left_ground: bool,
    sliding: bool,
    impact_speed: f32,
}

#[derive(Clone, Copy, PartialEq)]
enum JumpKind {
    Ground,
    Coyote,
}

fn add_contact(ev: &mut StepEvents, c: Contact) {
    ev.landed |= c.landed;
    ev.left_ground |= c.left_ground;
    ev.sliding |= c.sliding;
    if c.impact_speed > ev.impact_speed {
        ev.impact_speed = c.impact_speed;
    }
}

fn is_finite(s: &MoverState) -> bool {
    s.position.is_finite()
        && s.velocity.is_finite()
        && s.ground_normal.is_finite()
        && s.coyote_timer.is_finite()
        && s.jump_buffer_timer.is_finite()
}

fn sanitized(w: WishDir) -> WishDir {
    if !w.dir.is_finite() {
        return WishDir::NONE;
    }
    WishDir::new(w.dir, hopkit::math::clamp(w.scale, 0.0, 1.0))
}

/// The step as it was.
fn step_wish(
    state: &mut MoverState,
    params: &MoveParams,
    wish: WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
) -> StepEvents {
    if !(dt > 0.0) {
        return StepEvents::REJECTED;
    }
    let wish = sanitized(wish);
    repair_state(state);
    let mut ev = StepEvents::NONE;
    if dt <= params.max_tick_dt {
        ev.substeps = 1;
        tick(state, params, wish, jump, probe, dt, &mut ev);
        return ev;
    }
    let split = SubSteps::split(dt, params.max_tick_dt, params.max_substeps);
    if split.count == 0 {
        return StepEvents::REJECTED;
    }
    ev.substeps = split.count;
    ev.dropped_time = split.dropped;
    for _ in 0..split.count {
        tick(state, params, wish, jump, probe, split.step, &mut ev);
    }
    ev
}

/// One tick as it was.
fn tick(
    state: &mut MoverState,
    params: &MoveParams,
    wish: WishDir,
    jump: bool,
    probe: &impl GroundProbe,
    dt: f32,
    ev: &mut StepEvents,
) {
    let hit = probe_ground(probe, state.position, params);
    add_contact(ev, categorize_hit(state, params, hit, state.grounded));
    let start_position = state.position;

    note_jump_key(state, params, jump);
    apply_jump_release_cut(state, params, jump);
    if let Some(kind) = check_jump(state, params, jump) {
        ev.jumped = true;
        ev.coyote_jump |= kind == JumpKind::Coyote;
    }
    let stick = state.grounded;

    let v = planar_velocity_tick(state.velocity.planar(), wish, params, state.grounded, dt);
    state.velocity.x = v.x;
    state.velocity.z = v.y;
    if state.grounded {
        state.velocity.y = 0.0;
        state.position.x += state.velocity.x * dt;
        state.position.z += state.velocity.z * dt;
    } else {
        let g = params.gravity * jump_gravity_scale(state, params, jump);
        let half = g * dt * 0.5;
        state.velocity.y -= half;
        state.position += state.velocity * dt;
        state.velocity.y -= half;
    }
    let (hit, wall) = resolve_walls(state, params, probe, start_position);
    ev.hit_wall |= wall;
    add_contact(ev, categorize_hit(state, params, hit, stick));
    guard_state(state, params, start_position);
    tick_jump_timers(state, dt);
    state.jump_held = jump;
    flush_subnormals(state);
}

fn flush_subnormals(s: &mut MoverState) {
    let f = |x: f32| {
        if x != 0.0 && x.abs() < f32::MIN_POSITIVE {
            if x.is_sign_negative() {
                -0.0
            } else {
                0.0
            }
        } else {
            x
        }
    };
    let f3 = |v: Vec3| Vec3::new(f(v.x), f(v.y), f(v.z));
    s.position = f3(s.position);
    s.velocity = f3(s.velocity);
    s.ground_normal = f3(s.ground_normal);
    s.coyote_timer = f(s.coyote_timer);
    s.jump_buffer_timer = f(s.jump_buffer_timer);
}

fn clamp_axis(x: f32, max: f32) -> f32 {
    if x.is_nan() {
        0.0
    } else if x > max {
        max
    } else if x < -max {
        -max
    } else {
        x
    }
}

fn guard_state(state: &mut MoverState, params: &MoveParams, previous: Vec3) {
    let m = params.max_velocity;
    state.velocity = Vec3::new(
        clamp_axis(state.velocity.x, m),
        clamp_axis(state.velocity.y, m),
        clamp_axis(state.velocity.z, m),
    );
    if !state.velocity.is_finite() {
        state.velocity = Vec3::ZERO;
    }
    if !state.position.is_finite() {
        state.position = previous;
        state.velocity = Vec3::ZERO;
    }
}

fn repair_state(state: &mut MoverState) {
    if is_finite(state) {
        return;
    }
    state.position = state.position.sanitize();
    state.velocity = state.velocity.sanitize();
    if !state.ground_normal.is_finite() {
        state.ground_normal = Vec3::UP;
    }
    state.coyote_timer = hopkit::math::finite_or(state.coyote_timer, 0.0);
    state.jump_buffer_timer = hopkit::math::finite_or(state.jump_buffer_timer, 0.0);
}

// --- contact ---

fn probe_ground(
    probe: &impl GroundProbe,
    position: Vec3,
    params: &MoveParams,
) -> Option<GroundHit> {
    let lift = if params.step_up > params.ground_snap {
        params.step_up
    } else {
        params.ground_snap
    };
    let from = Vec3::new(position.x, position.y + lift, position.z);
    match probe.probe(from) {
        Some(h) if h.height.is_finite() && h.normal.is_finite() => Some(h),
        _ => None,
    }
}

fn clip_into_surface(v: Vec3, n: Vec3) -> Vec3 {
    let into = v.dot(n);
    if into < 0.0 {
        v - n * into
    } else {
        v
    }
}

fn categorize_hit(
    state: &mut MoverState,
    params: &MoveParams,
    hit: Option<GroundHit>,
    stick: bool,
) -> Contact {
    let was_grounded = state.grounded;
    let mut c = Contact::default();
    let grounded = match hit {
        None => false,
        Some(hit) if params.is_walkable(hit.normal) => on_walkable(state, params, hit, stick),
        Some(hit) => {
            c.sliding = on_steep(state, params, hit);
            false
        }
    };
    if grounded {
        if !was_grounded {
            c.landed = true;
            // Events are finite: a fall that overflowed within the tick lands at `f32::MAX`.
            c.impact_speed = if state.velocity.y < 0.0 {
                let v = -state.velocity.y;
                if v.is_finite() {
                    v
                } else {
                    f32::MAX
                }
            } else {
                0.0
            };
        }
        state.velocity.y = 0.0;
        state.coyote_timer = timer_length(params.coyote_time);
    } else {
        state.ground_normal = Vec3::UP;
        c.left_ground = was_grounded;
    }
    state.grounded = grounded;
    c
}

fn on_walkable(state: &mut MoverState, params: &MoveParams, hit: GroundHit, stick: bool) -> bool {
    let gap = state.position.y - hit.height;
    let reach = if stick && params.step_down > params.ground_snap {
        params.step_down
    } else {
        params.ground_snap
    };
    let rising_fast = state.velocity.y > params.max_ground_rise_speed;
    if !rising_fast && gap <= reach {
        state.position.y = hit.height;
        state.ground_normal = hit.normal;
        return true;
    }
    if gap < 0.0 {
        state.position.y = hit.height;
        if state.velocity.y < 0.0 {
            state.velocity.y = 0.0;
        }
    }
    false
}

fn on_steep(state: &mut MoverState, params: &MoveParams, hit: GroundHit) -> bool {
    let gap = state.position.y - hit.height;
    if gap < 0.0 {
        state.position.y = hit.height;
        state.velocity = clip_into_surface(state.velocity, hit.normal);
    }
    gap <= params.ground_snap
}

fn is_wall(params: &MoveParams, hit: Option<GroundHit>, pos: Vec3, from: Vec3) -> bool {
    let Some(h) = hit else {
        return false;
    };
    let rise = h.height - from.y;
    if !(rise > params.step_up) {
        return false;
    }
    let run = (pos.x - from.x).abs() + (pos.z - from.z).abs();
    rise > params.step_up + run * max_rise_per_run(params)
}

fn max_rise_per_run(params: &MoveParams) -> f32 {
    let c = params.min_ground_normal_y - params.walkable_tolerance;
    if !(c > 0.0) {
        return f32::INFINITY;
    }
    if c >= 1.0 {
        return 0.0;
    }
    scalar::sqrt(1.0 - c * c) / c
}

fn resolve_walls(
    state: &mut MoverState,
    params: &MoveParams,
    probe: &impl GroundProbe,
    from: Vec3,
) -> (Option<GroundHit>, bool) {
    let hit = probe_ground(probe, state.position, params);
    if !is_wall(params, hit, state.position, from) {
        return (hit, false);
    }
    let p = state.position;
    let x_only = Vec3::new(p.x, p.y, from.z);
    let h = probe_ground(probe, x_only, params);
    if !is_wall(params, h, x_only, from) {
        state.position = x_only;
        state.velocity.z = 0.0;
        return (h, true);
    }
    let z_only = Vec3::new(from.x, p.y, p.z);
    let h = probe_ground(probe, z_only, params);
    if !is_wall(params, h, z_only, from) {
        state.position = z_only;
        state.velocity.x = 0.0;
        return (h, true);
    }
    state.position = Vec3::new(from.x, p.y, from.z);
    state.velocity.x = 0.0;
    state.velocity.z = 0.0;
    (probe_ground(probe, state.position, params), true)
}

// --- jump ---

fn note_jump_key(state: &mut MoverState, params: &MoveParams, jump_down: bool) {
    if jump_down && !state.jump_held {
        state.jump_buffer_timer = timer_length(params.jump_buffer_time);
    }
    if !jump_down {
        state.jump_latched = false;
    }
}

fn check_jump(state: &mut MoverState, params: &MoveParams, jump_down: bool) -> Option<JumpKind> {
    let can = state.grounded || state.coyote_timer > 0.0;
    let buffered = state.jump_buffer_timer > 0.0;
    let held_ok = jump_down && (params.auto_hop || !state.jump_latched);
    if !(can && (held_ok || buffered)) {
        return None;
    }
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
    Some(kind)
}

fn apply_bhop_cap(velocity: Vec3, params: &MoveParams) -> Vec3 {
    if !(params.bhop_speed_cap > 0.0) {
        return velocity;
    }
    let limit = params.bhop_speed_cap * params.max_speed;
    let p = velocity.planar();
    let s2 = p.length_squared();
    if !(s2 > limit * limit) {
        return velocity;
    }
    let k = limit / scalar::sqrt(s2);
    Vec3::new(velocity.x * k, velocity.y, velocity.z * k)
}

fn apply_jump_release_cut(state: &mut MoverState, params: &MoveParams, jump_down: bool) {
    let released = !jump_down && state.jump_held;
    if released && state.jump_rising && state.velocity.y > 0.0 {
        state.velocity.y *= params.jump_release_cut;
    }
}

fn jump_gravity_scale(state: &MoverState, params: &MoveParams, jump_down: bool) -> f32 {
    if state.jump_rising && !jump_down && state.velocity.y > 0.0 {
        params.jump_release_gravity
    } else {
        1.0
    }
}

fn tick_jump_timers(state: &mut MoverState, dt: f32) {
    state.jump_buffer_timer = count_down(state.jump_buffer_timer, dt);
    if !state.grounded {
        state.coyote_timer = count_down(state.coyote_timer, dt);
    }
    if state.grounded || !(state.velocity.y > 0.0) {
        state.jump_rising = false;
    }
}

fn timer_length(t: f32) -> f32 {
    if t > 0.0 {
        t.min(f32::MAX)
    } else {
        0.0
    }
}

fn count_down(t: f32, dt: f32) -> f32 {
    let r = t - dt;
    if r > 0.0 {
        r
    } else {
        0.0
    }
}

// --- the planar kernel ---

/// `planar_velocity_tick` as it was.
fn planar_velocity_tick(
    v: Vec2,
    wish: WishDir,
    params: &MoveParams,
    grounded: bool,
    dt: f32,
) -> Vec2 {
    if grounded {
        let v = if params.friction_math == FrictionMath::SqrtDivide {
            // Added with `FrictionMath` (issue 23): Quake's `PM_Friction` in plain form.
            match moving_speed_exact(v, params.stop_threshold) {
                None => Vec2::ZERO,
                Some(speed) => {
                    let drop = match params.friction_model {
                        FrictionModel::StopSpeed => {
                            let control = if speed < params.stop_speed {
                                params.stop_speed
                            } else {
                                speed
                            };
                            control * params.friction * dt
                        }
                        FrictionModel::Constant => params.friction * dt,
                    };
                    let k = (speed - drop) / speed;
                    if !(k > 0.0) {
                        Vec2::ZERO
                    } else {
                        v * k
                    }
                }
            }
        } else {
            match params.friction_model {
                FrictionModel::StopSpeed => match moving_speed(v, params.stop_threshold) {
                    None => Vec2::ZERO,
                    Some((speed, inv)) => {
                        let control = if speed < params.stop_speed {
                            params.stop_speed
                        } else {
                            speed
                        };
                        apply_drop(v, inv, control * params.friction * dt)
                    }
                },
                FrictionModel::Constant => match moving_speed(v, params.stop_threshold) {
                    None => Vec2::ZERO,
                    Some((_, inv)) => apply_drop(v, inv, params.friction * dt),
                },
            }
        };
        let w = params.max_speed * wish.scale;
        let a = accel_budget(params.accel, w, params.accel_budget, dt);
        accelerate_styled(v, wish, w, a, params.accel_style)
    } else {
        let w = params.air_max_speed * wish.scale;
        // `min(w, air_wish_cap)` with the cap tested first (changed on purpose with issue 23: an
        // infinite cap folds away when the params are a constant; a NaN `w` now stays NaN and
        // adds nothing, as on the ground, and a NaN cap no longer caps).
        let cap = if params.air_wish_cap < w {
            params.air_wish_cap
        } else {
            w
        };
        let a = accel_budget(params.air_accel, w, params.accel_budget, dt);
        accelerate_styled(v, wish, cap, a, params.accel_style)
    }
}

fn apply_drop(v: Vec2, inv_speed: f32, drop: f32) -> Vec2 {
    let k = 1.0 - drop * inv_speed;
    if !(k > 0.0) {
        return Vec2::ZERO;
    }
    v * k
}

fn moving_speed(v: Vec2, stop_threshold: f32) -> Option<(f32, f32)> {
    let s2 = v.length_squared();
    if !(s2 > stop_threshold * stop_threshold) || !(s2 >= 1.0e-30) || !(s2 <= f32::MAX) {
        return None;
    }
    let inv = scalar::rsqrt_in_range(s2);
    Some((s2 * inv, inv))
}

fn moving_speed_exact(v: Vec2, stop_threshold: f32) -> Option<f32> {
    let s2 = v.length_squared();
    if !(s2 > stop_threshold * stop_threshold) {
        return None;
    }
    Some(scalar::sqrt(s2))
}

fn accel_budget(accel: f32, wishspeed: f32, mode: AccelBudget, dt: f32) -> f32 {
    match mode {
        AccelBudget::PerSecond => accel * dt,
        AccelBudget::WishSpeedScaled => accel * wishspeed * dt,
    }
}

fn accelerate_styled(v: Vec2, wish: WishDir, cap: f32, budget: f32, style: AccelStyle) -> Vec2 {
    match style {
        AccelStyle::Projection => {
            let add = cap - v.dot(wish.dir);
            if !(add > 0.0) {
                return v;
            }
            let s = if add < budget { add } else { budget };
            Vec2::new(v.x + wish.dir.x * s, v.y + wish.dir.y * s)
        }
        AccelStyle::ClampedDelta if wish.scale > 0.0 => {
            let (dir, target) = (wish.dir, cap);
            let d = Vec2::new(dir.x * target - v.x, dir.y * target - v.y);
            let d2 = d.length_squared();
            if !(d2 > budget * budget) {
                return if d2 <= f32::MAX { v + d } else { v };
            }
            let k = budget / scalar::sqrt(d2);
            Vec2::new(v.x + d.x * k, v.y + d.y * k)
        }
        AccelStyle::ClampedDelta => v,
    }
}

/// `WishDir::from_world` as it was (the tests build wishes with it).
fn wish_from_world(w: Vec2) -> WishDir {
    let l2 = w.length_squared();
    if !(l2 > NORMALIZE_EPSILON_SQ) || !(l2 <= f32::MAX) {
        return WishDir::NONE;
    }
    let len = scalar::sqrt(l2);
    let inv = 1.0 / len;
    WishDir::new(
        Vec2::new(w.x * inv, w.y * inv),
        if len < 1.0 { len } else { 1.0 },
    )
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::ground::{FlatGround, NoGround, PlaneGround};
    use hopkit::rng::Pcg32;

    /// Terrain with everything a height field can throw at the step: terraces (steps and walls),
    /// steep faces, pits, a second level above a ceiling, and (when `wild`) non-finite and
    /// subnormal answers.
    struct Terrain {
        wild: bool,
    }

    impl GroundProbe for Terrain {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            if p.x.is_nan() || p.z.is_nan() {
                return None;
            }
            let cell = ((p.x * 0.5) as i32).wrapping_add(((p.z * 0.5) as i32).wrapping_mul(7));
            let band = cell.rem_euclid(11);
            let level = cell.rem_euclid(5) as f32 * 0.2;
            let up = Vec3::UP;
            let steep = Vec3::new(0.8, 0.6, 0.0);
            let hit = |height, normal| Some(GroundHit { height, normal });
            match band {
                0 => None,
                1 => hit(level + 1.5, up), // a wall
                2 => hit(level + 0.25 * p.x.fract().abs(), Vec3::new(0.2, 0.98, 0.0)),
                3 => hit(level, steep),
                4 if p.y > 3.0 => hit(3.0, up), // a platform above the lower level
                5 if self.wild => hit(f32::NAN, up),
                6 if self.wild => hit(level, Vec3::new(f32::from_bits(5), 1.0, -f32::from_bits(9))),
                7 if self.wild => hit(f32::from_bits(0x8000_0003), up),
                8 if self.wild => hit(level, Vec3::new(0.0, f32::INFINITY, 0.0)),
                9 if self.wild => hit(level, Vec3::new(0.7, 0.7, 0.0)), // the walkable edge
                _ => hit(level, up),
            }
        }
    }

    const SPECIALS: [f32; 12] = [
        0.0,
        -0.0,
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        -f32::MAX,
        1.0e-40,
        -1.0e-40,
        f32::MIN_POSITIVE,
        1.0e30,
        -1.0,
    ];

    fn special(rng: &mut Pcg32) -> f32 {
        SPECIALS[rng.below(SPECIALS.len() as u32) as usize]
    }

    /// A random value of the kind `x` is, sometimes special.
    fn jitter(rng: &mut Pcg32, x: f32, p_special: u32) -> f32 {
        if rng.below(1000) < p_special {
            special(rng)
        } else {
            x * rng.range_f32(0.0, 2.0)
        }
    }

    fn params(rng: &mut Pcg32) -> MoveParams {
        let mut p = match rng.below(5) {
            0 => MoveParams::seed(),
            1 => MoveParams::seed_figure(),
            2 => MoveParams::quakeworld(),
            3 => MoveParams::quake3(),
            _ => MoveParams::source(),
        };
        if rng.below(3) == 0 {
            return p;
        }
        let q = [0, 0, 40, 150][rng.below(4) as usize];
        p.max_speed = jitter(rng, p.max_speed, q);
        p.accel = jitter(rng, p.accel, q);
        p.friction = jitter(rng, p.friction, q);
        p.stop_speed = jitter(rng, p.stop_speed, q);
        p.stop_threshold = jitter(rng, p.stop_threshold + 0.1, q);
        p.air_max_speed = jitter(rng, p.air_max_speed, q);
        p.air_accel = jitter(rng, p.air_accel, q);
        p.air_wish_cap = jitter(rng, p.air_wish_cap, q);
        p.gravity = jitter(rng, p.gravity, q);
        p.jump_speed = jitter(rng, p.jump_speed, q);
        p.bhop_speed_cap = jitter(rng, 1.2, q);
        p.coyote_time = jitter(rng, p.coyote_time, q * 3);
        p.jump_buffer_time = jitter(rng, p.jump_buffer_time, q * 3);
        p.jump_release_gravity = jitter(rng, p.jump_release_gravity, q);
        p.jump_release_cut = jitter(rng, 0.5, q);
        p.min_ground_normal_y = jitter(rng, p.min_ground_normal_y, q);
        p.walkable_tolerance = jitter(rng, p.walkable_tolerance, q);
        p.ground_snap = jitter(rng, p.ground_snap, q);
        p.step_down = jitter(rng, p.step_down, q);
        p.step_up = jitter(rng, p.step_up, q);
        p.max_ground_rise_speed = jitter(rng, p.max_ground_rise_speed, q);
        p.max_tick_dt = jitter(rng, p.max_tick_dt, q);
        p.max_substeps = rng.below(12);
        p.max_velocity = jitter(rng, p.max_velocity, q * 2);
        p.auto_hop = rng.below(2) == 0;
        p.accel_budget = if rng.below(2) == 0 {
            AccelBudget::PerSecond
        } else {
            AccelBudget::WishSpeedScaled
        };
        p.accel_style = if rng.below(4) == 0 {
            AccelStyle::ClampedDelta
        } else {
            AccelStyle::Projection
        };
        p.friction_model = if rng.below(2) == 0 {
            FrictionModel::Constant
        } else {
            FrictionModel::StopSpeed
        };
        p.friction_math = if rng.below(2) == 0 {
            FrictionMath::Rsqrt
        } else {
            FrictionMath::SqrtDivide
        };
        p
    }

    fn state(rng: &mut Pcg32, p_special: u32, p: &MoveParams) -> MoverState {
        let mut f = |scale: f32| {
            if rng.below(1000) < p_special {
                special(rng)
            } else {
                rng.signed_unit() * scale
            }
        };
        let mut s = MoverState::new(Vec3::new(f(20.0), f(2.0), f(20.0)));
        s.velocity = Vec3::new(f(15.0), f(8.0), f(15.0));
        s.ground_normal = Vec3::new(f(0.3), 1.0 + f(0.1), f(0.3));
        s.coyote_timer = f(0.2).abs();
        s.jump_buffer_timer = f(0.2).abs();
        // Exactly on the boundaries of the ground rules, now and then (over flat ground at 0).
        let edges = [0.0, p.ground_snap, p.step_down, p.step_up, -p.ground_snap];
        if rng.below(4) == 0 {
            s.position.y = edges[rng.below(5) as usize];
        }
        if rng.below(6) == 0 {
            s.velocity.y =
                [p.max_ground_rise_speed, 0.0, -0.0, p.jump_speed][rng.below(4) as usize];
        }
        s.grounded = rng.below(2) == 0;
        s.jump_held = rng.below(2) == 0;
        s.jump_latched = rng.below(2) == 0;
        s.jump_rising = rng.below(2) == 0;
        s
    }

    fn wish(rng: &mut Pcg32) -> WishDir {
        match rng.below(20) {
            0 => WishDir::NONE,
            1 => WishDir::new(Vec2::new(special(rng), 0.6), 1.0),
            2 => WishDir::new(Vec2::new(0.6, -0.8), special(rng)),
            3 => WishDir::new(Vec2::new(0.6, -0.8), rng.range_f32(-1.0, 2.0)),
            _ => wish_from_world(Vec2::new(rng.signed_unit() * 1.3, rng.signed_unit() * 1.3)),
        }
    }

    fn dt(rng: &mut Pcg32, base: f32) -> f32 {
        match rng.below(40) {
            0 => special(rng),
            1 => base * rng.range_f32(1.0, 12.0),
            2 => 1.0e-6,
            _ => base,
        }
    }

    fn bits(s: &MoverState) -> [u32; 15] {
        let (p, v, n) = (s.position, s.velocity, s.ground_normal);
        [
            p.x.to_bits(),
            p.y.to_bits(),
            p.z.to_bits(),
            v.x.to_bits(),
            v.y.to_bits(),
            v.z.to_bits(),
            n.x.to_bits(),
            n.y.to_bits(),
            n.z.to_bits(),
            s.coyote_timer.to_bits(),
            s.jump_buffer_timer.to_bits(),
            s.grounded as u32,
            s.jump_held as u32,
            s.jump_latched as u32,
            s.jump_rising as u32,
        ]
    }

    fn event_bits(e: &StepEvents) -> [u32; 10] {
        [
            e.jumped as u32,
            e.coyote_jump as u32,
            e.landed as u32,
            e.left_ground as u32,
            e.sliding as u32,
            e.hit_wall as u32,
            e.impact_speed.to_bits(),
            e.substeps,
            e.dropped_time.to_bits(),
            e.rejected as u32,
        ]
    }

    /// How often each event happened over a run (the test checks every one is exercised).
    fn run(probe: &impl GroundProbe, seed: u64, ticks: u32, seen: &mut [u32; 10]) {
        run_with(probe, seed, ticks, seen, None);
    }

    /// Every `f32` field of the params, by index (24 of them).
    fn field(p: &mut MoveParams, i: usize) -> &mut f32 {
        match i {
            0 => &mut p.max_speed,
            1 => &mut p.accel,
            2 => &mut p.friction,
            3 => &mut p.stop_speed,
            4 => &mut p.stop_threshold,
            5 => &mut p.air_max_speed,
            6 => &mut p.air_accel,
            7 => &mut p.air_wish_cap,
            8 => &mut p.gravity,
            9 => &mut p.jump_speed,
            10 => &mut p.bhop_speed_cap,
            11 => &mut p.coyote_time,
            12 => &mut p.jump_buffer_time,
            13 => &mut p.jump_release_gravity,
            14 => &mut p.jump_release_cut,
            15 => &mut p.min_ground_normal_y,
            16 => &mut p.walkable_tolerance,
            17 => &mut p.ground_snap,
            18 => &mut p.step_down,
            19 => &mut p.step_up,
            20 => &mut p.max_ground_rise_speed,
            21 => &mut p.max_tick_dt,
            22 => &mut p.max_velocity,
            _ => &mut p.friction,
        }
    }

    /// [`run`], with one params field set to a special value.
    fn run_with(
        probe: &impl GroundProbe,
        seed: u64,
        ticks: u32,
        seen: &mut [u32; 10],
        special_field: Option<(usize, f32)>,
    ) {
        let mut rng = Pcg32::seeded(seed);
        let mut p = params(&mut rng);
        if let Some((i, v)) = special_field {
            *field(&mut p, i) = v;
        }
        let p = p;
        let wild = if rng.below(3) == 0 { 30 } else { 0 };
        let mut s = state(&mut rng, wild, &p);
        let mut r = s;
        let base = [1.0 / 60.0, 1.0 / 30.0, 0.01, 1.0 / 144.0][rng.below(4) as usize];
        let mut w = wish(&mut rng);
        let mut jump = false;
        for t in 0..ticks {
            if rng.below(30) == 0 {
                w = wish(&mut rng);
            }
            if rng.below(8) == 0 {
                jump = !jump;
            }
            if rng.below(200) == 0 {
                // The caller edits the state between steps.
                s = state(&mut rng, wild + 100, &p);
                r = s;
            }
            let d = dt(&mut rng, base);
            let got = hopkit::movement::step_wish(&mut s, &p, w, jump, probe, d);
            let want = step_wish(&mut r, &p, w, jump, probe, d);
            assert_eq!(
                (bits(&s), event_bits(&got)),
                (bits(&r), event_bits(&want)),
                "seed {seed} tick {t}: {p:?} wish {w:?} jump {jump} dt {d}\n got {s:?} {got:?}\nwant {r:?} {want:?}"
            );
            let e = event_bits(&got);
            for (k, &x) in e.iter().enumerate() {
                seen[k] += (x != 0) as u32;
            }
            seen[7] += (got.substeps > 1) as u32;
        }
    }

    #[test]
    fn same_bits_as_the_reference_step() {
        let mut seen = [0u32; 10];
        for seed in 0..3000u64 {
            let mut rng = Pcg32::new(seed, 99);
            match seed % 6 {
                0 => run(&FlatGround::new(rng.signed_unit()), seed, 300, &mut seen),
                1 => run(&NoGround, seed, 100, &mut seen),
                2 => {
                    let n = Vec3::new(rng.signed_unit(), 1.0, rng.signed_unit());
                    run(&PlaneGround::new(Vec3::ZERO, n), seed, 300, &mut seen)
                }
                3 => run(&Terrain { wild: true }, seed, 400, &mut seen),
                4 => run(&FlatGround::new(f32::from_bits(3)), seed, 200, &mut seen),
                _ => run(&Terrain { wild: false }, seed, 400, &mut seen),
            }
        }
        // jumped, coyote jump, landed, left ground, sliding, wall, impact, substeps (> 1 counted
        // twice), dropped time, rejected: every outcome is exercised.
        assert!(seen.iter().all(|&n| n > 50), "{seen:?}");
    }

    #[test]
    fn same_bits_with_each_param_special() {
        let mut seen = [0u32; 10];
        let mut seed = 100_000u64;
        for i in 0..23 {
            for &v in SPECIALS.iter().chain(&[0.5, 0.01, 3.0]) {
                seed += 1;
                run_with(&FlatGround::new(0.0), seed, 200, &mut seen, Some((i, v)));
                for k in 0..4 {
                    let terrain = Terrain { wild: false };
                    run_with(&terrain, seed * 8 + k, 200, &mut seen, Some((i, v)));
                }
            }
        }
    }

    #[test]
    fn same_bits_as_the_reference_kernel() {
        let mut rng = Pcg32::seeded(11);
        for i in 0..200_000u32 {
            let p = params(&mut rng);
            let v = if i % 7 == 0 {
                Vec2::new(special(&mut rng), special(&mut rng))
            } else {
                let r = [0.01, 1.0, 30.0, 400.0][(i % 4) as usize];
                Vec2::new(rng.signed_unit() * r, rng.signed_unit() * r)
            };
            let w = wish(&mut rng);
            let grounded = i % 3 != 0;
            let d = if i % 11 == 0 {
                special(&mut rng)
            } else {
                1.0 / 60.0
            };
            let got = hopkit::movement::planar_velocity_tick(v, w, &p, grounded, d);
            let want = planar_velocity_tick(v, w, &p, grounded, d);
            assert_eq!(
                (got.x.to_bits(), got.y.to_bits()),
                (want.x.to_bits(), want.y.to_bits()),
                "{p:?} v {v:?} wish {w:?} grounded {grounded} dt {d}"
            );
        }
    }
}
