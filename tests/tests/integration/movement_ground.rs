//! Ground handling against height fields with cliffs: steps, walls, fast ramps, the demo level.

use hopkit::ground::{GroundHit, GroundProbe, PlaneGround};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use hopkit_demo::level::{DemoGround, RAMPS};

/// Floor at 0, a block of height `h` for `x ≥ 5`.
struct Block {
    h: f32,
}

impl GroundProbe for Block {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        Some(GroundHit {
            height: if p.x >= 5.0 { self.h } else { 0.0 },
            normal: Vec3::UP,
        })
    }
}

/// Facing −Z, so wish `(front, right)` = `(−z, +x)` in world terms.
fn input(front: f32, right: f32, jump: bool) -> MoveInput {
    MoveInput::new(Vec2::new(front, right), jump, Vec2::new(0.0, -1.0))
}

fn grounded_at(p: Vec3) -> MoverState {
    let mut s = MoverState::new(p);
    s.grounded = true;
    s
}

#[test]
fn low_ledges_are_stepped_onto() {
    let p = MoveParams::seed();
    let g = Block { h: 0.2 };
    let mut s = grounded_at(Vec3::ZERO);
    for _ in 0..120 {
        step(&mut s, &p, &input(0.0, 1.0, false), &g, 1.0 / 60.0);
    }
    assert!(
        s.position.x > 10.0 && s.position.y == 0.2 && s.grounded,
        "{s:?}"
    );
}

#[test]
fn high_ledges_are_walls() {
    let p = MoveParams::seed();
    let g = Block { h: 2.0 };
    let mut s = grounded_at(Vec3::ZERO);
    let mut hit = false;
    for _ in 0..120 {
        let ev = step(&mut s, &p, &input(0.0, 1.0, false), &g, 1.0 / 60.0);
        hit |= ev.hit_wall;
        assert!(s.position.x < 5.0 && s.position.y == 0.0, "{s:?}");
    }
    assert!(hit && s.position.x > 4.5 && s.velocity.x.abs() < 2.5);
    // Running diagonally into it slides along it (z keeps moving).
    let mut s = grounded_at(Vec3::new(4.9, 0.0, 0.0));
    let z0 = s.position.z;
    for _ in 0..60 {
        step(&mut s, &p, &input(1.0, 1.0, false), &g, 1.0 / 60.0);
        assert!(s.position.x < 5.0);
    }
    assert!(z0 - s.position.z > 3.0, "slid along the wall: {s:?}");
    // Jumping high enough clears it.
    let mut s = grounded_at(Vec3::ZERO);
    s.velocity = Vec3::new(10.0, 0.0, 0.0); // at 0.5 s, x = 5 and y = 8·0.5 − 4.9·0.25 = 2.8
    let mut q = p;
    q.jump_speed = 8.0; // apex 3.26 m
    for _ in 0..120 {
        step(&mut s, &q, &input(0.0, 1.0, true), &g, 1.0 / 60.0);
    }
    assert!(s.position.x > 5.0 && s.position.y >= 2.0, "{s:?}");
}

#[test]
fn a_fast_run_up_a_walkable_ramp_is_not_a_wall() {
    let p = MoveParams::seed();
    let ramp = PlaneGround::ramp(Vec3::ZERO, Vec2::new(1.0, 0.0), 44f32.to_radians());
    let mut s = grounded_at(Vec3::ZERO);
    s.velocity = Vec3::new(60.0, 0.0, 0.0);
    let ev = step(&mut s, &p, &input(0.0, 1.0, false), &ramp, 1.0 / 30.0);
    assert!(!ev.hit_wall && s.grounded && s.position.x > 1.5, "{s:?}");
}

#[test]
fn ramp_sides_in_the_demo_level_are_walls() {
    let p = MoveParams::seed();
    let r = RAMPS[0]; // rises along +X from x = 12 to 28, z in [−30, −18]
                      // Approach the side face (z = −18) from z = −14 near its high end, running towards −Z (front).
    let mut s = grounded_at(Vec3::new(26.0, 0.0, -14.0));
    let mut hit = false;
    for _ in 0..120 {
        let ev = step(&mut s, &p, &input(1.0, 0.0, false), &DemoGround, 1.0 / 60.0);
        hit |= ev.hit_wall;
        assert!(s.position.y == 0.0 && s.position.z > r.max.y, "{s:?}");
    }
    assert!(hit);
    // Up the low edge it is a ramp: the character climbs it.
    let mut s = grounded_at(Vec3::new(8.0, 0.0, -24.0));
    for _ in 0..90 {
        step(&mut s, &p, &input(0.0, 1.0, false), &DemoGround, 1.0 / 60.0);
    }
    assert!(s.position.y > 1.0, "{s:?}");
}

#[test]
fn the_demo_level_never_lifts_through_walls() {
    // Random strafe-hopping for 60 s: whenever the character is on a ramp it got there over the low
    // edge or from above (never higher than step_up above its previous feet height).
    let p = MoveParams::seed();
    let mut rng = hopkit::rng::Pcg32::seeded(9);
    let mut s = grounded_at(Vec3::ZERO);
    let mut yaw = 0.0f32;
    for t in 0..3600 {
        if t % 30 == 0 {
            yaw += rng.range_f32(-1.0, 1.0);
        }
        let wish = Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
        let before = s;
        let ev = step(
            &mut s,
            &p,
            &MoveInput::with_yaw(wish, rng.below(2) == 0, yaw),
            &DemoGround,
            1.0 / 60.0,
        );
        assert!(s.is_finite());
        let rise = s.position.y - before.position.y;
        let run =
            (s.position.x - before.position.x).abs() + (s.position.z - before.position.z).abs();
        assert!(
            rise <= p.step_up + run + before.velocity.y.max(0.0) / 60.0 + 1e-3 || ev.jumped,
            "tick {t}: lifted {rise} over {run}"
        );
        // Keep inside the arena like the demo does.
        let (c, hx, hz) = hopkit_demo::level::clamp_to_arena(s.position.planar());
        s.position.x = c.x;
        s.position.z = c.y;
        if hx {
            s.velocity.x = 0.0;
        }
        if hz {
            s.velocity.z = 0.0;
        }
    }
}
