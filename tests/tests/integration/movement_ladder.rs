//! Ladders (`hopkit::movement::ladder`): climbing up and down with the move input, holding on
//! with no keys, sideways along it, the push-off jump, over the top onto the ledge, walking away
//! from its foot, bad normals.

use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};

const DT: f32 = 1.0 / 60.0;

/// Quake units: a wall at x = 0 with a ladder on its −X face from the floor (0) to `top`, a
/// ledge at height `top` for x ≥ 0, the floor at 0 for x < 0. The ladder is reported within 16
/// units of the wall, below `top`.
struct Wall {
    top: f32,
    normal: Vec3,
}

impl GroundProbe for Wall {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if p.x >= 0.0 { self.top } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        (feet.x < 0.0 && feet.x > -16.0 && feet.y < self.top).then_some(self.normal)
    }
}

fn wall() -> Wall {
    Wall {
        top: 200.0,
        normal: Vec3::new(-1.0, 0.0, 0.0),
    }
}

/// Facing the wall (+X).
fn keys(front: f32, right: f32, jump: bool) -> MoveInput {
    MoveInput::new(Vec2::new(front, right), jump, Vec2::new(1.0, 0.0))
}

fn at_ladder() -> MoverState {
    let mut s = MoverState::new(Vec3::new(-8.0, 0.0, 0.0));
    s.grounded = true;
    s
}

#[test]
fn climbs_up_holds_on_and_climbs_down() {
    let p = MoveParams::quakeworld();
    let w = wall();
    let mut s = at_ladder();
    for _ in 0..30 {
        step(&mut s, &p, &keys(1.0, 0.0, false), &w, DT);
    }
    // 0.5 s at 200 units/s, no gravity.
    assert!((s.position.y - 100.0).abs() < 1e-3, "{s:?}");
    assert_eq!(s.velocity, Vec3::new(0.0, 200.0, 0.0));
    assert_eq!(s.position.x, -8.0);
    // No keys: holds on.
    for _ in 0..60 {
        step(&mut s, &p, &keys(0.0, 0.0, false), &w, DT);
    }
    assert!((s.position.y - 100.0).abs() < 1e-3 && s.velocity == Vec3::ZERO);
    // Sideways along the ladder with D (right of +X facing is +Z).
    for _ in 0..30 {
        step(&mut s, &p, &keys(0.0, 1.0, false), &w, DT);
    }
    assert!((s.position.z - 100.0).abs() < 1e-3 && (s.position.y - 100.0).abs() < 1e-3);
    // S climbs down, and it ends standing on the floor.
    let mut landed = false;
    for _ in 0..60 {
        landed |= step(&mut s, &p, &keys(-1.0, 0.0, false), &w, DT).landed;
    }
    assert!(s.grounded && s.position.y == 0.0 && landed, "{s:?}");
    // From the foot of the ladder S walks away from it.
    for _ in 0..30 {
        step(&mut s, &p, &keys(-1.0, 0.0, false), &w, DT);
    }
    assert!(s.position.x < -40.0 && s.grounded, "{s:?}");
}

#[test]
fn the_jump_pushes_off_and_gravity_takes_over() {
    let p = MoveParams::quakeworld();
    let w = wall();
    let mut s = at_ladder();
    for _ in 0..30 {
        step(&mut s, &p, &keys(1.0, 0.0, false), &w, DT);
    }
    let ev = step(&mut s, &p, &keys(1.0, 0.0, true), &w, DT);
    assert!(ev.jumped);
    assert_eq!(s.velocity, Vec3::new(-270.0, 0.0, 0.0));
    // Still holding W and jump: not caught again (moving away faster than the climb speed);
    // falls to the floor away from the wall.
    let mut t = 0;
    while !s.grounded {
        step(&mut s, &p, &keys(0.0, 0.0, true), &w, DT);
        t += 1;
        assert!(t < 120);
    }
    assert!(s.position.x < -60.0 && s.position.y == 0.0, "{s:?}");
}

#[test]
fn climbing_over_the_top_ends_on_the_ledge() {
    let p = MoveParams::quakeworld();
    let w = wall();
    let mut s = at_ladder();
    for _ in 0..120 {
        step(&mut s, &p, &keys(1.0, 0.0, false), &w, DT);
    }
    assert!(
        s.grounded && s.position.y == 200.0 && s.position.x >= 0.0,
        "{s:?}"
    );
}

#[test]
fn bad_ladder_normals_are_no_ladder_and_never_give_bad_numbers() {
    let p = MoveParams::quakeworld();
    for n in [
        Vec3::new(f32::NAN, 0.0, 0.0),
        Vec3::new(f32::INFINITY, 0.0, 1.0),
        Vec3::UP,
        Vec3::ZERO,
        Vec3::new(f32::MAX, 0.0, f32::MAX),
        Vec3::new(1.0e-30, 0.0, 0.0),
    ] {
        let w = Wall {
            top: 200.0,
            normal: n,
        };
        let mut s = at_ladder();
        for t in 0..60 {
            step(&mut s, &p, &keys(1.0, 0.3, t % 11 == 0), &w, DT);
            assert!(s.is_finite(), "{n:?}: {s:?}");
        }
    }
    // Bad climb and jump speeds: never a bad state.
    for x in [f32::NAN, f32::INFINITY, -1.0, f32::MAX, 0.0] {
        let mut q = p;
        q.ladder_climb_speed = x;
        q.ladder_jump_speed = x;
        let mut s = at_ladder();
        for t in 0..60 {
            step(&mut s, &q, &keys(1.0, 0.3, t % 11 == 0), &wall(), DT);
            assert!(s.is_finite(), "{x}: {s:?}");
        }
    }
}

#[test]
fn max_velocity_holds_on_the_ladder() {
    // Climb and push-off speeds are params like any other: `max_velocity` clamps them, as the
    // tick's guard clamps every other velocity (found by the mover_step fuzz target).
    let mut p = MoveParams::quakeworld();
    p.ladder_climb_speed = 1.0e6;
    p.ladder_jump_speed = 2.0e6;
    p.max_velocity = 150.0;
    let mut s = at_ladder();
    for t in 0..30 {
        step(&mut s, &p, &keys(1.0, 0.3, t == 20), &wall(), DT);
        let v = s.velocity;
        assert!(
            v.x.abs() <= 150.0 && v.y.abs() <= 150.0 && v.z.abs() <= 150.0,
            "tick {t}: {v:?}"
        );
    }
}
