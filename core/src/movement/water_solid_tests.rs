//! The water tick among solids (issue 34 §3, "water … in the brush world too"): a swimmer is
//! swept through the solids (Quake III's `PM_WaterMove` → `PM_SlideMove`, `PM_WaterJumpMove` →
//! `PM_StepSlideMove`), so it never crosses or ends in one at any speed up to `max_velocity`.
//! Where the body must stop is computed by hand from the world's numbers (a face's position, the
//! body's half-width, the world's skin), not by the slide code.

use crate::collide::{Brush, Solid, SolidFlags, TraceGuard, TraceResult, Tracer, World};
use crate::ground::{GroundHit, GroundProbe};
use crate::math::{Vec2, Vec3};
use crate::movement::{self, body_box, MoveInput, MoveParams, MoverState};
use crate::rng::Pcg32;

const DT: f32 = 1.0 / 60.0;
type Level = World<16>;

fn aabb(a: (f32, f32, f32), b: (f32, f32, f32)) -> Brush {
    Brush::aabb(Vec3::new(a.0, a.1, a.2), Vec3::new(b.0, b.1, b.2)).unwrap()
}

/// A world of solids with water: the surface at `surface` where `x < water_max_x`. Its ground
/// and clearance are [`Solid`]'s (point traces): nothing of the footprint trick the demo's probe
/// uses, so the water tick's walls and ground can only come from its own traces.
struct Pool<'a> {
    world: &'a Level,
    surface: f32,
    water_max_x: f32,
}

impl GroundProbe for Pool<'_> {
    const SOLID: bool = true;
    const TRACE_GUARD: TraceGuard = <Level as Tracer>::GUARD;

    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        Solid(self.world).probe(p)
    }
    fn clearance(&self, feet: Vec3) -> f32 {
        Solid(self.world).clearance(feet)
    }
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        self.world.trace(start, end, mins, maxs)
    }
    fn solid_flags(&self) -> SolidFlags {
        self.world.flags_present()
    }
    fn water(&self, feet: Vec3) -> Option<f32> {
        (feet.x < self.water_max_x).then_some(self.surface)
    }
}

/// True when the box at `feet` overlaps a solid by more than 1/1024 (touching is allowed).
fn inside(w: &Level, feet: Vec3, mins: Vec3, maxs: Vec3) -> bool {
    let e = Vec3::new(1.0 / 1024.0, 1.0 / 1024.0, 1.0 / 1024.0);
    w.contents(feet, mins + e, maxs - e).solid.is_some()
}

/// Swimming along `facing` (planar) with the view pitched `look_up`, front key held.
fn swim(facing: Vec2, look_up: f32, jump: bool) -> MoveInput {
    MoveInput {
        wish: Vec2::new(1.0, 0.0),
        jump,
        crouch: false,
        facing,
        look_up,
    }
}

/// Quake III's body with its ticks split in four: every call of [`DT`] runs four sub-steps.
fn quake3_in_four() -> MoveParams {
    let mut p = MoveParams::quake3();
    p.max_tick_dt = DT / 4.0 + 1e-6;
    p
}

/// A floor, a wall 1 unit thick at `x ∈ [100, 101]` (the whole height), deep water everywhere.
fn thin_wall() -> Level {
    let mut w = Level::new();
    w.push(aabb((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0)))
        .unwrap();
    w.push(aabb((100.0, 0.0, -4096.0), (101.0, 1024.0, 4096.0)))
        .unwrap();
    w
}

#[test]
fn a_swimmer_at_max_velocity_never_crosses_a_thin_wall_under_water() {
    let w = thin_wall();
    let pool = Pool {
        world: &w,
        surface: 900.0,
        water_max_x: f32::INFINITY,
    };
    let skin = w.skin();
    for (params, subs) in [(MoveParams::quake3(), 1), (quake3_in_four(), 4)] {
        let r = params.body_radius;
        // By hand: the box's front face stops a skin before the wall's face at x = 100.
        let stop_x = 100.0 - r - skin;
        let v = params.max_velocity;
        let d = core::f32::consts::FRAC_1_SQRT_2;
        for (dir, look_up) in [
            (Vec2::new(1.0, 0.0), 0.0),
            (Vec2::new(d, d), 0.0),
            (Vec2::new(d, -d), 0.3),
        ] {
            let mut s = MoverState::new(Vec3::new(0.0, 300.0, 0.0));
            for t in 0..40 {
                // Driven at `max_velocity` into the wall every call (the swim's own wish is slower).
                s.velocity = Vec3::new(dir.x * v, 0.0, dir.y * v);
                let ev = movement::step(&mut s, &params, &swim(dir, look_up, false), &pool, DT);
                assert_eq!(ev.substeps, subs);
                assert!(movement::water_level(&pool, s.position, &params) == 3);
                assert!(s.is_finite(), "{s:?}");
                let (mins, maxs) = body_box(&s, &params);
                assert!(!inside(&w, s.position, mins, maxs), "tick {t}: {s:?}");
                assert!(s.position.x <= stop_x + 1e-3, "tick {t}: crossed {s:?}");
            }
            // Head on it stops there; sliding, `OVERCLIP` leaves the plane by 0.1 % of the speed
            // into it, at most `0.001·v·dt` a tick.
            let drift = if dir.y == 0.0 { 1e-3 } else { 1e-3 * v * DT };
            assert!(
                s.position.x <= stop_x + 1e-3 && s.position.x >= stop_x - drift,
                "{dir:?}: {s:?}"
            );
            // Diagonally the planar part along the wall goes on (a slide, not a stop).
            if dir.y != 0.0 {
                assert!(s.position.z.abs() > 100.0, "{dir:?}: {s:?}");
            }
        }
    }
}

#[test]
fn the_height_probe_water_tick_would_have_crossed_the_wall() {
    // The same run on the height-probe world made of the same solids (`SOLID` off: the water tick
    // moves `position += velocity·dt` and asks the point probe for walls): it passes the 1-unit
    // wall, which is what the swept move above prevents. Keeps the test above honest.
    struct Points<'a>(&'a Level);
    impl GroundProbe for Points<'_> {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            Solid(self.0).probe(p)
        }
        fn water(&self, _: Vec3) -> Option<f32> {
            Some(900.0)
        }
    }
    let w = thin_wall();
    let params = MoveParams::quake3();
    let mut s = MoverState::new(Vec3::new(0.0, 300.0, 0.0));
    for _ in 0..40 {
        s.velocity = Vec3::new(params.max_velocity, 0.0, 0.0);
        movement::step(&mut s, &params, &swim(Vec2::X, 0.0, false), &Points(&w), DT);
    }
    assert!(s.position.x > 101.0, "{s:?}");
}

#[test]
fn swimming_up_into_a_ceiling_under_water_stops_under_it() {
    // A ceiling's underside at y = 200, the water far above it.
    let mut w = thin_wall();
    w.push(aabb((-4096.0, 200.0, -4096.0), (4096.0, 216.0, 4096.0)))
        .unwrap();
    let pool = Pool {
        world: &w,
        surface: 900.0,
        water_max_x: f32::INFINITY,
    };
    for params in [MoveParams::quake3(), quake3_in_four()] {
        for (jump, look_up, fast) in [(true, 0.0, false), (false, 1.0, false), (false, 0.7, true)] {
            let mut s = MoverState::new(Vec3::new(0.0, 60.0, 0.0));
            let h = body_box(&s, &params).1.y;
            // By hand: the box's top stops a skin under the ceiling.
            let stop_y = 200.0 - h - w.skin();
            for t in 0..120 {
                if fast {
                    s.velocity = Vec3::new(0.0, params.max_velocity, 0.0);
                }
                movement::step(&mut s, &params, &swim(Vec2::X, look_up, jump), &pool, DT);
                assert!(s.is_finite(), "{s:?}");
                assert!(s.position.y <= stop_y + 1e-3, "tick {t}: {s:?}");
            }
            assert!((s.position.y - stop_y).abs() < 1e-3, "{s:?}");
            assert!(s.velocity.y.abs() <= 1e-3 * params.max_velocity, "{s:?}");
        }
    }
}

#[test]
fn a_swimmer_sinks_onto_the_pool_floor_and_stands_there() {
    // No input: it sinks at `water_sink_speed` onto the floor (top at 0) and stays, grounded, a
    // skin above it, with no bounce (Quake III's keep-the-length clip is not applied straight
    // into the floor).
    let w = thin_wall();
    let pool = Pool {
        world: &w,
        surface: 900.0,
        water_max_x: f32::INFINITY,
    };
    let params = MoveParams::quake3();
    let mut s = MoverState::new(Vec3::new(0.0, 20.0, 0.0));
    let still = MoveInput::new(Vec2::ZERO, false, Vec2::X);
    for _ in 0..600 {
        movement::step(&mut s, &params, &still, &pool, DT);
    }
    assert!(s.grounded, "{s:?}");
    let top = 0.0 + w.skin();
    for _ in 0..60 {
        movement::step(&mut s, &params, &still, &pool, DT);
        assert!(s.grounded && (s.position.y - top).abs() < 1e-3, "{s:?}");
        assert!(s.velocity.y.abs() < 1.0, "{s:?}");
    }
}

#[test]
fn a_water_jump_climbs_out_of_a_pool_among_solids() {
    // The pool's floor at y = −100, a ledge (top 0) for x ≥ 40, water up to −10 over x < 40.
    // `CheckWaterJump` finds the ledge by a point trace (the point probe here answers nothing
    // inside a solid, so "ground above the spot" could not).
    let mut w = Level::new();
    w.push(aabb((-4096.0, -116.0, -4096.0), (4096.0, -100.0, 4096.0)))
        .unwrap();
    w.push(aabb((40.0, -100.0, -4096.0), (4096.0, 0.0, 4096.0)))
        .unwrap();
    let pool = Pool {
        world: &w,
        surface: -10.0,
        water_max_x: 40.0,
    };
    for params in [MoveParams::quake3(), quake3_in_four()] {
        let mut s = MoverState::new(Vec3::new(0.0, -45.0, 0.0));
        let mut jumped = false;
        let mut out = false;
        for t in 0..240 {
            let ev = movement::step(&mut s, &params, &swim(Vec2::X, 0.0, true), &pool, DT);
            jumped |= ev.jumped && s.water_jump_timer > 0.0;
            let (mins, maxs) = body_box(&s, &params);
            assert!(!inside(&w, s.position, mins, maxs), "tick {t}: {s:?}");
            if s.grounded && s.position.x > 40.0 {
                out = true;
                break;
            }
        }
        assert!(jumped && out, "{s:?}");
        assert!((s.position.y - w.skin()).abs() < 1e-3, "{s:?}");
        assert_eq!(s.water_jump_timer, 0.0);
    }
}

#[test]
fn random_worlds_and_inputs_never_leave_a_swimmer_inside_or_nan() {
    let mut rng = Pcg32::new(34, 7);
    let mut swum = 0;
    for round in 0..60 {
        let params = if round % 2 == 0 {
            MoveParams::quake3()
        } else {
            quake3_in_four()
        };
        let mut w = Level::new();
        w.push(aabb((-1024.0, -16.0, -1024.0), (1024.0, 0.0, 1024.0)))
            .unwrap();
        for _ in 0..8 {
            let c = Vec3::new(
                rng.range_f32(-300.0, 300.0),
                rng.range_f32(0.0, 300.0),
                rng.range_f32(-300.0, 300.0),
            );
            let e = Vec3::new(
                rng.range_f32(0.5, 80.0),
                rng.range_f32(0.5, 80.0),
                rng.range_f32(0.5, 80.0),
            );
            let _ = w.push(Brush::aabb(c - e, c + e).unwrap());
        }
        let pool = Pool {
            world: &w,
            surface: rng.range_f32(0.0, 400.0),
            water_max_x: rng.range_f32(-200.0, 1024.0),
        };
        let mut s = MoverState::new(Vec3::new(
            rng.range_f32(-300.0, 300.0),
            rng.range_f32(0.0, 300.0),
            rng.range_f32(-300.0, 300.0),
        ));
        let (mins, maxs) = body_box(&s, &params);
        if inside(&w, s.position, mins, maxs) {
            continue;
        }
        for t in 0..120 {
            let m = params.max_velocity;
            if rng.next_u32() % 4 == 0 {
                s.velocity = Vec3::new(
                    rng.range_f32(-m, m),
                    rng.range_f32(-m, m),
                    rng.range_f32(-m, m),
                );
            }
            let input = MoveInput {
                wish: Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0)),
                jump: rng.next_u32() % 3 == 0,
                crouch: rng.next_u32() % 6 == 0,
                facing: Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0)),
                look_up: rng.range_f32(-1.0, 1.0),
            };
            let swimming = movement::water_level(&pool, s.position, &params) >= 2;
            swum += swimming as u32;
            movement::step(&mut s, &params, &input, &pool, DT);
            assert!(s.is_finite(), "round {round} tick {t}: {s:?}");
            let (mins, maxs) = body_box(&s, &params);
            assert!(
                !inside(&w, s.position, mins, maxs),
                "round {round} tick {t}: inside {s:?}"
            );
        }
    }
    // The property is about swimming: most ticks must have swum.
    assert!(swum > 2000, "{swum} swimming ticks");
}

#[test]
fn into_a_slope_the_swim_is_slid_along_it_keeping_its_length() {
    // Quake III's "go up slopes easily under water": a ramp whose normal is (−sin 30°, cos 30°, 0)
    // (rising towards +X), swum into along +X at 300: the velocity ends along the plane (leaving
    // it by `OVERCLIP`'s 0.1 % of what went into it) with its length 300.
    let (s, c) = (0.5f32, 0.866_025_4f32);
    let n = Vec3::new(-s, c, 0.0);
    let v = Vec3::new(300.0, 0.0, 0.0);
    let out = super::water::along_ground_keeping_length(v, n);
    assert!((out.length() - 300.0).abs() < 1e-3, "{out:?}");
    // The overshoot 0.001·150 off the plane, scaled with the length given back (300 / 259.8).
    let into = v.dot(n);
    let off = 0.001 * -into * (300.0 / (300.0 * c));
    assert!((out.dot(n) - off).abs() < 1e-3, "{out:?} {off}");
    assert!(out.x > 0.0 && out.y > 0.0, "up the slope: {out:?}");
    // Away from the plane, or straight into it: unchanged, or clipped with no length given back.
    assert_eq!(super::water::along_ground_keeping_length(-v, n), -v);
    let down = super::water::along_ground_keeping_length(Vec3::new(0.0, -60.0, 0.0), Vec3::UP);
    assert!(down.length() < 0.1, "{down:?}");
}
