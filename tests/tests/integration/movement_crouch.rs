//! Crouching (`hopkit::movement::crouch`): the crouched ground speed, no standing up under a
//! ceiling, the Source crouch-jump onto a ledge a plain jump cannot reach, bad clearances.

use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};

const DT: f32 = 1.0 / 60.0;

/// Flat ground with a ceiling `clear` units above it for `x` in `lo..hi` (a tunnel), and a ledge
/// of height `ledge` from `x ≥ ledge_x`.
struct World {
    lo: f32,
    hi: f32,
    clear: f32,
    ledge_x: f32,
    ledge: f32,
}

impl GroundProbe for World {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if p.x >= self.ledge_x { self.ledge } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn clearance(&self, feet: Vec3) -> f32 {
        if feet.x >= self.lo && feet.x < self.hi {
            self.clear - feet.y
        } else {
            f32::INFINITY
        }
    }
}

fn open_world() -> World {
    World {
        lo: 0.0,
        hi: 0.0,
        clear: 0.0,
        ledge_x: f32::INFINITY,
        ledge: 0.0,
    }
}

/// Forward along +X (yaw −90°).
fn forward(jump: bool, crouch: bool) -> MoveInput {
    MoveInput::new(Vec2::new(1.0, 0.0), jump, Vec2::new(1.0, 0.0)).with_crouch(crouch)
}

#[test]
fn crouching_scales_the_ground_speed() {
    let p = MoveParams::quake3();
    let w = open_world();
    let mut s = MoverState::new(Vec3::ZERO);
    for _ in 0..120 {
        step(&mut s, &p, &forward(false, true), &w, DT);
    }
    assert!(s.crouched && s.grounded);
    assert!(
        (s.planar_speed() - 320.0 * 0.25).abs() < 0.5,
        "{}",
        s.planar_speed()
    );
    for _ in 0..120 {
        step(&mut s, &p, &forward(false, false), &w, DT);
    }
    assert!(!s.crouched);
    assert!(
        (s.planar_speed() - 320.0).abs() < 0.5,
        "{}",
        s.planar_speed()
    );
}

#[test]
fn standing_up_waits_for_room_overhead() {
    // Quake III: 56 standing, 40 crouched; a tunnel 48 high from x = 20 to 60.
    let p = MoveParams::quake3();
    let w = World {
        lo: 20.0,
        hi: 60.0,
        clear: 48.0,
        ..open_world()
    };
    let mut s = MoverState::new(Vec3::ZERO);
    // Crouch-walk into the tunnel, then let go of the key.
    while s.position.x < 30.0 {
        step(&mut s, &p, &forward(false, true), &w, DT);
    }
    let mut blocked_ticks = 0;
    for _ in 0..120 {
        let under = s.position.x >= 20.0 && s.position.x < 60.0;
        step(&mut s, &p, &forward(false, false), &w, DT);
        if under {
            // Stands on the first step that starts out of the tunnel, never under it.
            assert!(
                s.crouched,
                "stood up under the ceiling at x = {}",
                s.position.x
            );
            blocked_ticks += 1;
        } else {
            assert!(!s.crouched, "still crouched at x = {}", s.position.x);
        }
    }
    assert!(blocked_ticks > 5 && s.position.x > 60.0);
}

/// Run at 250 units/s along +X, jump at x = 0, optionally crouch two ticks later (holding it),
/// towards a ledge at x = 70 of height `ledge`. Returns the final state after 1.5 s.
fn ledge_run(p: &MoveParams, ledge: f32, crouch: bool) -> MoverState {
    let w = World {
        ledge_x: 70.0,
        ledge,
        ..open_world()
    };
    let mut s = MoverState::new(Vec3::new(0.0, 0.0, 0.0));
    s.grounded = true;
    s.velocity = Vec3::new(250.0, 0.0, 0.0);
    for t in 0..90 {
        let input = forward(t == 0, crouch && t >= 2);
        step(&mut s, p, &input, &w, DT);
    }
    s
}

#[test]
fn the_crouch_jump_reaches_a_higher_ledge() {
    // Source: jump apex 45 units, lift 72 − 36 = 36. A 70-unit ledge is more than `step_up` (18)
    // above a plain jump's apex (a wall), but within the crouch-jump's reach (45 + 36 = 81).
    let p = MoveParams::source();
    let plain = ledge_run(&p, 70.0, false);
    assert!(
        plain.position.x < 70.0 && plain.position.y == 0.0,
        "{plain:?}"
    );
    let crouched = ledge_run(&p, 70.0, true);
    assert!(
        crouched.grounded && crouched.position.y == 70.0 && crouched.position.x > 70.0,
        "{crouched:?}"
    );
    assert!(crouched.crouched, "still holding crouch");
    // Quake III has no crouch-jump: the same key press does not lift the feet.
    let q3 = ledge_run(&MoveParams::quake3(), 70.0, true);
    assert!(q3.position.y == 0.0, "{q3:?}");
}

#[test]
fn standing_up_in_the_air_lowers_the_feet_only_with_room_below() {
    let p = MoveParams::source();
    let w = open_world();
    let mut s = MoverState::new(Vec3::new(0.0, 100.0, 0.0));
    let up = MoveInput::new(Vec2::ZERO, false, Vec2::new(0.0, -1.0));
    step(&mut s, &p, &up.with_crouch(true), &w, DT);
    let lifted = s.position.y;
    assert!(s.crouched);
    step(&mut s, &p, &up, &w, DT);
    assert!(!s.crouched);
    // Feet back down by 36 (plus a tick of fall).
    assert!(
        (lifted - s.position.y - 36.0).abs() < 1.0,
        "{lifted} → {}",
        s.position.y
    );
    // Crouched and falling until the feet are less than 36 above the ground: no room below to
    // lower them, so it stays crouched while airborne, and stands once it has landed.
    let mut s = MoverState::new(Vec3::new(0.0, 10.0, 0.0));
    step(&mut s, &p, &up.with_crouch(true), &w, DT);
    assert!(s.crouched && s.position.y > 40.0);
    while s.position.y > 30.0 {
        step(&mut s, &p, &up.with_crouch(true), &w, DT);
    }
    let mut airborne_ticks = 0;
    while !s.grounded {
        step(&mut s, &p, &up, &w, DT);
        if !s.grounded {
            assert!(s.crouched, "{s:?}");
            airborne_ticks += 1;
        }
    }
    assert!(airborne_ticks > 0);
    step(&mut s, &p, &up, &w, DT);
    assert!(!s.crouched && s.grounded);
}

#[test]
fn bad_clearances_and_params_never_give_bad_numbers() {
    struct Odd(f32);
    impl GroundProbe for Odd {
        fn probe(&self, _p: Vec3) -> Option<GroundHit> {
            Some(GroundHit {
                height: 0.0,
                normal: Vec3::UP,
            })
        }
        fn clearance(&self, _feet: Vec3) -> f32 {
            self.0
        }
    }
    let specials = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        -1.0,
        0.0,
        1.0e30,
        f32::MAX,
        f32::MIN,
        f32::from_bits(1),
    ];
    // NaN and +inf mean nothing overhead; ≤ 0 means no room.
    for (c, stands) in [
        (f32::NAN, true),
        (f32::INFINITY, true),
        (0.0, false),
        (-5.0, false),
    ] {
        let mut s = MoverState::new(Vec3::ZERO);
        s.crouched = true;
        step(
            &mut s,
            &MoveParams::quake3(),
            &MoveInput::default(),
            &Odd(c),
            DT,
        );
        assert_eq!(!s.crouched, stands, "clearance {c}");
    }
    for (i, &c) in specials.iter().enumerate() {
        for &x in &specials {
            let mut p = [MoveParams::seed(), MoveParams::source()][i % 2];
            match i % 4 {
                0 => p.stand_height = x,
                1 => p.crouch_height = x,
                2 => p.crouch_speed_scale = x,
                _ => {
                    p.crouch_jump = true;
                    p.stand_height = x;
                }
            }
            let mut s = MoverState::new(Vec3::new(0.0, 1.0, 0.0));
            for t in 0..30 {
                let input = forward(t % 9 == 0, t % 4 < 2);
                step(&mut s, &p, &input, &Odd(c), DT);
                assert!(s.is_finite(), "clearance {c}, param {x}: {s:?}");
            }
        }
    }
}

#[test]
fn a_crouch_jump_lift_that_would_overflow_leaves_the_feet() {
    // In the air near f32::MAX with a lift of its own size: the position would become +inf.
    let mut p = MoveParams::source();
    p.stand_height = f32::MAX;
    p.crouch_height = 0.0;
    let mut s = MoverState::new(Vec3::new(0.0, f32::MAX, 0.0));
    s.grounded = false;
    let input = MoveInput::default().with_crouch(true);
    step(&mut s, &p, &input, &hopkit::ground::NoGround, DT);
    assert!(s.is_finite(), "{s:?}");
    assert!(s.crouched);
}
