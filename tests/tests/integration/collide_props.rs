//! The body among solids under hostile worlds and inputs (issue 34 §4): a game's own trace that
//! answers garbage (NaN, ±inf, huge, fractions out of range, degenerate planes), the built-in
//! world full or holding zero-size and huge solids, bad params (`body_radius` NaN, negative or
//! huge), bad states and `dt`: no panic, never a non-finite state or event, and a body that ends
//! a tick in the built-in world is never inside a solid it did not start in.

use hopkit::collide::{Brush, Plane, Solid, TraceResult, Tracer, World};
use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use hopkit::rng::Pcg32;

const SPECIAL: [f32; 10] = [
    0.0,
    -0.0,
    1.0e-40,
    1.0,
    -1.0,
    1.0e30,
    f32::MAX,
    f32::INFINITY,
    f32::NEG_INFINITY,
    f32::NAN,
];

/// A game's trace that answers whatever its seed says, for any query (pure: the same query gives
/// the same answer).
struct Garbage(u64);

impl Garbage {
    fn rng(&self, start: Vec3, end: Vec3) -> Pcg32 {
        let h = start.x.to_bits() as u64
            ^ (end.z.to_bits() as u64) << 7
            ^ (start.y.to_bits() as u64) << 21;
        Pcg32::seeded(self.0 ^ h)
    }
}

fn wild(rng: &mut Pcg32) -> f32 {
    if rng.below(3) == 0 {
        SPECIAL[rng.below(SPECIAL.len() as u32) as usize]
    } else {
        rng.range_f32(-2.0, 2.0)
    }
}

impl GroundProbe for Garbage {
    const SOLID: bool = true;

    fn trace(&self, start: Vec3, end: Vec3, _mins: Vec3, _maxs: Vec3) -> TraceResult {
        let mut r = self.rng(start, end);
        let mut t = TraceResult::clear(end);
        if r.below(2) == 0 {
            return t;
        }
        t.fraction = wild(&mut r);
        t.end = Vec3::new(
            start.x + wild(&mut r),
            start.y + wild(&mut r),
            start.z + wild(&mut r),
        );
        t.plane = Plane::new(
            Vec3::new(wild(&mut r), wild(&mut r), wild(&mut r)),
            wild(&mut r),
        )
        .unwrap_or(Plane::NONE);
        if r.below(4) == 0 {
            t.plane.normal = Vec3::new(wild(&mut r), wild(&mut r), wild(&mut r));
        }
        t.start_solid = r.below(5) == 0;
        t.all_solid = r.below(9) == 0;
        t
    }

    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let mut r = self.rng(p, p);
        Some(GroundHit {
            height: wild(&mut r),
            normal: Vec3::new(wild(&mut r), wild(&mut r), wild(&mut r)),
        })
    }
}

fn hostile_params(rng: &mut Pcg32) -> MoveParams {
    let mut p = [
        MoveParams::quake3(),
        MoveParams::source(),
        MoveParams::seed(),
        MoveParams::cpma(),
    ][rng.below(4) as usize];
    for _ in 0..rng.below(3) {
        let x = SPECIAL[rng.below(SPECIAL.len() as u32) as usize];
        match rng.below(7) {
            0 => p.body_radius = x,
            1 => p.step_up = x,
            2 => p.step_down = x,
            3 => p.ground_snap = x,
            4 => p.stand_height = x,
            5 => p.max_speed = x,
            _ => p.gravity = x,
        }
    }
    p.surf = rng.below(2) == 0;
    p
}

fn hostile_input(rng: &mut Pcg32) -> MoveInput {
    let v = |rng: &mut Pcg32| {
        if rng.below(6) == 0 {
            SPECIAL[rng.below(10) as usize]
        } else {
            rng.range_f32(-1.0, 1.0)
        }
    };
    let wish = Vec2::new(v(rng), v(rng));
    let facing = Vec2::new(v(rng), v(rng));
    MoveInput::new(wish, rng.below(3) == 0, facing).with_crouch(rng.below(5) == 0)
}

fn hostile_state(rng: &mut Pcg32) -> MoverState {
    let mut s = MoverState::new(Vec3::new(
        rng.range_f32(-300.0, 300.0),
        rng.range_f32(-20.0, 200.0),
        rng.range_f32(-300.0, 300.0),
    ));
    s.velocity = Vec3::new(
        rng.range_f32(-3000.0, 3000.0),
        rng.range_f32(-3000.0, 3000.0),
        rng.range_f32(-3000.0, 3000.0),
    );
    if rng.below(8) == 0 {
        s.position.x = SPECIAL[rng.below(10) as usize];
    }
    if rng.below(8) == 0 {
        s.velocity.y = SPECIAL[rng.below(10) as usize];
    }
    s.grounded = rng.below(2) == 0;
    s.crouched = rng.below(6) == 0;
    s
}

fn check(s: &MoverState, ev: &hopkit::movement::StepEvents, what: &str) {
    assert!(s.is_finite(), "{what}: {s:?}");
    assert!(
        ev.impact_speed.is_finite() && ev.carried_yaw.is_finite() && ev.dropped_time.is_finite()
            || ev.dropped_time == f32::INFINITY,
        "{what}: {ev:?}"
    );
}

#[test]
fn a_games_garbage_trace_never_makes_a_bad_state() {
    let mut rng = Pcg32::seeded(34);
    for case in 0..400u64 {
        let probe = Garbage(case * 7919);
        let p = hostile_params(&mut rng);
        let mut s = hostile_state(&mut rng);
        for t in 0..40 {
            let dt = if rng.below(20) == 0 {
                SPECIAL[rng.below(10) as usize]
            } else {
                1.0 / 60.0
            };
            let ev = step(&mut s, &p, &hostile_input(&mut rng), &probe, dt);
            check(&s, &ev, &format!("case {case} tick {t}"));
        }
    }
}

/// A hostile built-in world: zero-size, huge, flat and slanted solids, sometimes full.
fn hostile_world(rng: &mut Pcg32) -> World<16> {
    let mut w = World::<16>::new();
    let _ = w.push(
        Brush::aabb(
            Vec3::new(-4096.0, -16.0, -4096.0),
            Vec3::new(4096.0, 0.0, 4096.0),
        )
        .unwrap(),
    );
    for _ in 0..rng.below(24) {
        let c = Vec3::new(
            rng.range_f32(-300.0, 300.0),
            rng.range_f32(-16.0, 120.0),
            rng.range_f32(-300.0, 300.0),
        );
        let size = match rng.below(4) {
            0 => Vec3::ZERO,
            1 => Vec3::new(
                rng.range_f32(0.0, 1.0),
                rng.range_f32(0.0, 1.0),
                rng.range_f32(0.0, 1.0),
            ),
            2 => Vec3::new(1.0e5, rng.range_f32(0.0, 64.0), 1.0),
            _ => Vec3::new(
                rng.range_f32(1.0, 128.0),
                rng.range_f32(1.0, 128.0),
                rng.range_f32(1.0, 128.0),
            ),
        };
        let b = if rng.below(3) == 0 {
            let n = Vec3::new(
                rng.range_f32(-1.0, 1.0),
                rng.range_f32(-1.0, 1.0),
                rng.range_f32(-1.0, 1.0),
            );
            Brush::from_planes(&[
                Plane::through(n, c).unwrap_or(Plane::NONE),
                Plane::new(Vec3::new(1.0, 0.0, 0.0), c.x + size.x).unwrap(),
                Plane::new(Vec3::new(-1.0, 0.0, 0.0), -c.x).unwrap(),
                Plane::new(Vec3::UP, c.y + size.y).unwrap(),
                Plane::new(Vec3::new(0.0, -1.0, 0.0), -c.y).unwrap(),
                Plane::new(Vec3::new(0.0, 0.0, 1.0), c.z + size.z).unwrap(),
                Plane::new(Vec3::new(0.0, 0.0, -1.0), -c.z).unwrap(),
            ])
        } else {
            Brush::aabb(c, c + size)
        };
        if let Ok(b) = b {
            let _ = w.push(b); // a full world refuses the rest: tested by `collide`
        }
    }
    w
}

#[test]
fn hostile_worlds_and_inputs_never_make_a_bad_state_or_end_inside() {
    let mut rng = Pcg32::seeded(3434);
    let mut checked = 0;
    for case in 0..300 {
        let w = hostile_world(&mut rng);
        let probe = Solid(&w);
        let p = hostile_params(&mut rng);
        let mut s = hostile_state(&mut rng);
        for t in 0..60 {
            let before = s;
            let ev = step(&mut s, &p, &hostile_input(&mut rng), &probe, 1.0 / 60.0);
            check(&s, &ev, &format!("case {case} tick {t}"));
            // A sane body that started the tick free ends it free.
            let r = p.body_radius;
            let h = if s.crouched {
                p.crouch_height
            } else {
                p.stand_height
            };
            let sane = r > 0.0 && r < 100.0 && h > 0.0 && h < 200.0 && before.is_finite();
            if sane && s.crouched == before.crouched {
                let (mins, maxs) = (Vec3::new(-r, 0.0, -r), Vec3::new(r, h, r));
                let free_before = !w
                    .trace(before.position, before.position, mins, maxs)
                    .start_solid;
                if free_before {
                    checked += 1;
                    assert!(
                        !w.trace(s.position, s.position, mins, maxs).start_solid,
                        "case {case} tick {t}: {before:?} -> {s:?}"
                    );
                }
            }
        }
    }
    assert!(checked > 2000, "{checked}");
}
