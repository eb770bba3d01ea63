//! Moving platforms (`hopkit::movement::platform`): standing still on a translating and on a
//! turning platform for 10 s stays on the same spot of it; a jump off a moving platform keeps the
//! platform's velocity and lands where that momentum says; probes without motion are unchanged.
//!
//! Tolerances: 10 s at 60 Hz is 600 carries; each is exact up to f32 rounding of the position
//! (≈ 1e-7 relative) and, turning, of one `sin_cos` — the drift measured below stays under
//! [`SPOT_TOLERANCE`] world units at 5 to 20 units from the pivot.

use hopkit::ground::{FlatGround, GroundHit, GroundProbe, SurfaceMotion};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};

/// Largest distance from the expected spot after 10 s, world units.
const SPOT_TOLERANCE: f32 = 1e-3;
const DT: f32 = 1.0 / 60.0;

/// A square platform (half size `half`) at height `top` over a floor at 0, its centre at
/// `centre`, moving as `motion` (the test moves `centre` after every step, as a game moves its
/// platform entity).
struct Platform {
    centre: Vec3,
    half: f32,
    top: f32,
    motion: SurfaceMotion,
}

impl Platform {
    fn on(&self, p: Vec3) -> bool {
        (p.x - self.centre.x).abs() <= self.half && (p.z - self.centre.z).abs() <= self.half
    }
}

impl GroundProbe for Platform {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let height = if self.on(p) { self.top } else { 0.0 };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn surface_motion(&self, p: Vec3) -> SurfaceMotion {
        if self.on(p) {
            let mut m = self.motion;
            m.pivot = self.centre;
            m
        } else {
            SurfaceMotion::STILL
        }
    }
}

/// A turntable: a disc of radius `radius` at height `top`, turning about its centre.
struct Turntable {
    centre: Vec3,
    radius: f32,
    top: f32,
    yaw_rate: f32,
}

impl GroundProbe for Turntable {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        let (dx, dz) = (p.x - self.centre.x, p.z - self.centre.z);
        let height = if dx * dx + dz * dz <= self.radius * self.radius {
            self.top
        } else {
            0.0
        };
        Some(GroundHit {
            height,
            normal: Vec3::UP,
        })
    }
    fn surface_motion(&self, _p: Vec3) -> SurfaceMotion {
        SurfaceMotion::rotating(self.centre, self.yaw_rate)
    }
}

fn idle() -> MoveInput {
    MoveInput::default()
}

/// A character standing at rest on the surface at `(x, z)` (grounded already, so the first step
/// carries it: landing on a moving platform from rest would make it slide on it first).
fn standing(x: f32, z: f32, top: f32) -> MoverState {
    let mut s = MoverState::new(Vec3::new(x, top, z));
    s.grounded = true;
    s
}

#[test]
fn standing_on_a_translating_platform_stays_on_its_spot() {
    for preset in [MoveParams::seed(), MoveParams::quakeworld()] {
        let v = Vec3::new(3.0, 0.0, -1.5);
        let mut plat = Platform {
            centre: Vec3::new(0.0, 0.0, 0.0),
            half: 4.0,
            top: 1.0,
            motion: SurfaceMotion::translating(v),
        };
        let mut s = standing(1.0, 2.0, 1.0);
        let offset = s.position - plat.centre;
        let mut worst = 0.0f32;
        for _ in 0..600 {
            let ev = step(&mut s, &preset, &idle(), &plat, DT);
            assert_eq!(ev.carried_yaw, 0.0);
            plat.centre += v * DT;
            assert!(s.grounded, "stays on the platform");
            let spot = plat.centre + offset;
            worst = worst.max((s.position - spot).length());
        }
        println!("translating platform, 10 s: largest distance from the spot {worst}");
        assert!(worst <= SPOT_TOLERANCE, "{worst}");
        assert!(s.planar_speed() == 0.0, "relative velocity stays zero");
        // It really moved: 10 s at 3.35 units/s.
        assert!((s.position.x - 31.0).abs() < 0.01);
    }
}

#[test]
fn standing_on_a_turntable_stays_on_its_spot_and_turns_with_it() {
    let p = MoveParams::quakeworld();
    let rate = 0.9f32; // rad/s, turning left
    let table = Turntable {
        centre: Vec3::new(10.0, 0.0, -4.0),
        radius: 40.0,
        top: 8.0,
        yaw_rate: rate,
    };
    for radius in [5.0f32, 20.0] {
        let mut s = standing(10.0 + radius, -4.0, 8.0);
        let mut yaw = 0.0f32;
        let mut worst = 0.0f32;
        for t in 1..=600 {
            let ev = step(&mut s, &p, &idle(), &table, DT);
            yaw += ev.carried_yaw;
            assert!(s.grounded);
            // Expected: the start point turned by rate·t·dt about the centre (f64).
            let a = f64::from(rate) * t as f64 * f64::from(DT);
            let (sn, c) = a.sin_cos();
            let (rx, rz) = (f64::from(radius), 0.0f64);
            let want = Vec3::new(
                (10.0 + rx * c + rz * sn) as f32,
                8.0,
                (-4.0 + rz * c - rx * sn) as f32,
            );
            worst = worst.max((s.position - want).length());
        }
        println!("turntable r = {radius}, 10 s: largest distance from the spot {worst}");
        assert!(worst <= SPOT_TOLERANCE, "r {radius}: {worst}");
        // The view turned with the table: 0.9 rad/s for 10 s.
        assert!((yaw - 9.0).abs() < 1e-3, "{yaw}");
    }
}

#[test]
fn a_jump_off_a_moving_platform_lands_where_its_momentum_says() {
    // QuakeWorld units: jump 270, gravity 800: 0.675 s of flight. The platform (a conveyor-like
    // infinite floor) moves at 200 units/s along +X; jumping straight up keeps that velocity, so
    // the character lands on the same spot of the floor, 200 · flight time further in the world.
    let p = MoveParams::quakeworld();
    let v = Vec3::new(200.0, 0.0, 0.0);
    let plat = Platform {
        centre: Vec3::ZERO,
        half: f32::MAX,
        top: 0.0,
        motion: SurfaceMotion::translating(v),
    };
    let mut s = standing(0.0, 0.0, 0.0);
    let x0 = s.position.x;
    let jump = MoveInput::new(Vec2::ZERO, true, Vec2::new(0.0, -1.0));
    let ev = step(&mut s, &p, &jump, &plat, DT);
    assert!(ev.jumped && !s.grounded);
    assert_eq!(s.velocity.x, 200.0, "the platform's velocity is kept");
    let mut ticks = 1;
    loop {
        let ev = step(&mut s, &p, &jump, &plat, DT);
        ticks += 1;
        if ev.landed {
            break;
        }
        assert!(ticks < 100);
    }
    let flight = ticks as f32 * DT;
    println!(
        "jump off a 200 u/s platform: landed after {ticks} ticks at x = {}",
        s.position.x
    );
    // Flight time: the parabola 270·t − 400·t² returns to the ground at 0.675 s; landing is
    // detected on the tick the feet get within `ground_snap` (1 unit) of it.
    assert!((flight - 0.675).abs() <= DT, "{flight}");
    // Horizontal: 200 units/s for every tick from the take-off on (the take-off tick is carried).
    assert!(
        (s.position.x - x0 - 200.0 * flight).abs() < 1e-2,
        "{}",
        s.position.x
    );
    // Landed back on the moving floor: relative velocity zero again, carried from here on.
    assert!(s.grounded && s.velocity.x.abs() < 1e-3);
}

#[test]
fn a_jump_off_a_turntable_flies_off_on_the_tangent() {
    let p = MoveParams::quakeworld();
    let table = Turntable {
        centre: Vec3::ZERO,
        radius: 40.0,
        top: 0.0,
        yaw_rate: 2.0,
    };
    let mut s = standing(30.0, 0.0, 0.0);
    let jump = MoveInput::new(Vec2::ZERO, true, Vec2::new(0.0, -1.0));
    step(&mut s, &p, &jump, &table, DT);
    // Tangential speed ω·r = 60 units/s; at +X turning left (towards −Z) the tangent is −Z.
    assert!(!s.grounded);
    assert!(
        (s.velocity.z + 60.0).abs() < 1e-3 && s.velocity.x.abs() < 1e-3,
        "{:?}",
        s.velocity
    );
}

#[test]
fn still_probes_are_unchanged() {
    // A probe that reports STILL explicitly and the plain FlatGround give the same bits.
    struct Explicit;
    impl GroundProbe for Explicit {
        fn probe(&self, p: Vec3) -> Option<GroundHit> {
            FlatGround::new(0.0).probe(p)
        }
        fn surface_motion(&self, _p: Vec3) -> SurfaceMotion {
            SurfaceMotion::STILL
        }
    }
    let p = MoveParams::seed();
    let (mut a, mut b) = (MoverState::new(Vec3::ZERO), MoverState::new(Vec3::ZERO));
    for t in 0..300 {
        let input = MoveInput::with_yaw(Vec2::new(1.0, 0.3), t % 50 < 5, t as f32 * 0.01);
        let ea = step(&mut a, &p, &input, &FlatGround::new(0.0), DT);
        let eb = step(&mut b, &p, &input, &Explicit, DT);
        assert_eq!(ea, eb);
        assert_eq!(a, b);
    }
}

#[test]
fn bad_surface_motion_never_gives_bad_numbers() {
    let specials = [
        0.0,
        -0.0,
        1.0,
        -250.0,
        1.0e30,
        -1.0e30,
        f32::MAX,
        f32::MIN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::NAN,
        f32::from_bits(1),
    ];
    let mut rng = hopkit::rng::Pcg32::seeded(26);
    let mut pick = || specials[rng.below(specials.len() as u32) as usize];
    for case in 0..3000 {
        let plat = Platform {
            centre: Vec3::new(pick(), 0.0, pick()),
            half: [4.0, f32::MAX, f32::INFINITY, f32::NAN][case % 4],
            top: 0.0,
            motion: SurfaceMotion {
                velocity: Vec3::new(pick(), pick(), pick()),
                yaw_rate: pick(),
                pivot: Vec3::ZERO,
            },
        };
        let p = [
            MoveParams::seed(),
            MoveParams::quakeworld(),
            MoveParams::cpma(),
        ][case % 3];
        let mut s = MoverState::new(Vec3::new(1.0, 0.0, 1.0));
        for t in 0..20 {
            let input = MoveInput::new(Vec2::new(1.0, 0.0), t % 7 == 0, Vec2::new(0.0, -1.0));
            let ev = step(&mut s, &p, &input, &plat, DT);
            assert!(s.is_finite(), "case {case}: {s:?}");
            assert!(ev.carried_yaw.is_finite(), "case {case}");
        }
    }
}
