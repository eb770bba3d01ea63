//! Jumping: jump-before-friction, release-to-rejump, auto-hop, coyote time, buffering, variable
//! height, the dt-independent parabola, the bunny-hop cap, and slopes.

use hopkit::ground::{FlatGround, GroundHit, GroundProbe, PlaneGround};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState, StepEvents};

/// Flat ground at height 0 for `x < edge`, a bottomless pit beyond.
struct Ledge {
    edge: f32,
}

impl GroundProbe for Ledge {
    fn probe(&self, p: Vec3) -> Option<GroundHit> {
        (p.x < self.edge).then_some(GroundHit {
            height: 0.0,
            normal: Vec3::UP,
        })
    }
}

fn idle(jump: bool) -> MoveInput {
    MoveInput::new(Vec2::ZERO, jump, Vec2::new(0.0, -1.0))
}

fn grounded_at(v: Vec3) -> MoverState {
    let mut s = MoverState::new(Vec3::ZERO);
    s.grounded = true;
    s.velocity = v;
    s
}

/// Step until the character lands (end-of-tick grounded); returns ticks taken.
fn until_landed(s: &mut MoverState, p: &MoveParams, input: &MoveInput, dt: f32) -> u32 {
    for t in 1..10_000 {
        let ev = step(s, p, input, &FlatGround::new(0.0), dt);
        if ev.landed {
            return t;
        }
    }
    panic!("never landed");
}

#[test]
fn frame_perfect_hop_pays_no_friction() {
    let p = MoveParams::quakeworld();
    let dt = 1.0 / 60.0;
    let g = FlatGround::new(0.0);
    let speed = Vec3::new(300.0, 0.0, 0.0);

    // Perfect: jump, release in the air, press again on the first tick after landing.
    let mut s = grounded_at(speed);
    assert!(step(&mut s, &p, &idle(true), &g, dt).jumped);
    assert_eq!(s.velocity.x, 300.0, "the jump tick itself pays no friction");
    until_landed(&mut s, &p, &idle(false), dt);
    assert!(s.grounded);
    let ev = step(&mut s, &p, &idle(true), &g, dt);
    assert!(ev.jumped);
    assert_eq!(s.velocity.x.to_bits(), 300f32.to_bits(), "no speed lost");

    // One tick late: one tick of friction (k = 6 at 300: 300·(1 − 6/60) = 270).
    let mut s = grounded_at(speed);
    step(&mut s, &p, &idle(true), &g, dt);
    until_landed(&mut s, &p, &idle(false), dt);
    step(&mut s, &p, &idle(false), &g, dt);
    let ev = step(&mut s, &p, &idle(true), &g, dt);
    assert!(ev.jumped);
    assert!((s.velocity.x - 270.0).abs() < 1e-3, "{}", s.velocity.x);
}

#[test]
fn release_to_rejump_without_auto_hop() {
    let p = MoveParams::quakeworld();
    assert!(!p.auto_hop);
    let dt = 1.0 / 60.0;
    let g = FlatGround::new(0.0);
    let mut s = grounded_at(Vec3::ZERO);
    let mut jumps = 0;
    // Hold the key for 3 s: exactly one jump.
    for _ in 0..180 {
        jumps += step(&mut s, &p, &idle(true), &g, dt).jumped as u32;
    }
    assert_eq!(jumps, 1);
    assert!(s.grounded);
    // Release one tick, press again: jumps.
    step(&mut s, &p, &idle(false), &g, dt);
    assert!(step(&mut s, &p, &idle(true), &g, dt).jumped);
}

#[test]
fn holding_jump_in_the_air_jumps_on_landing_quake_style() {
    // Quake clears its "jump held" latch whenever the key is up, so a key pressed (and held) in the
    // air jumps as soon as the character lands.
    let p = MoveParams::quakeworld();
    let dt = 1.0 / 60.0;
    let mut s = MoverState::new(Vec3::new(0.0, 40.0, 0.0));
    until_landed(&mut s, &p, &idle(true), dt);
    let ev = step(&mut s, &p, &idle(true), &FlatGround::new(0.0), dt);
    assert!(ev.jumped);
}

#[test]
fn auto_hop_rejumps_while_held() {
    let mut p = MoveParams::quakeworld();
    p.auto_hop = true;
    let dt = 1.0 / 60.0;
    let g = FlatGround::new(0.0);
    let mut s = grounded_at(Vec3::ZERO);
    let mut jumps = 0;
    let mut last_landing = None;
    for t in 0..300 {
        let ev = step(&mut s, &p, &idle(true), &g, dt);
        if ev.jumped {
            jumps += 1;
            if let Some(l) = last_landing {
                assert_eq!(t, l + 1, "re-jumps on the first tick after landing");
            }
        }
        if ev.landed {
            last_landing = Some(t);
        }
    }
    // Air time 2·270/800 = 0.675 s: 5 s gives 7–8 jumps.
    assert!((7..=8).contains(&jumps), "{jumps}");
}

#[test]
fn coyote_time() {
    let dt = 1.0 / 60.0;
    let ledge = Ledge { edge: 0.5 };
    let run = MoveInput::new(Vec2::new(0.0, 1.0), false, Vec2::new(0.0, -1.0)); // right = +x
    let run_jump = MoveInput { jump: true, ..run };
    let attempt = |p: &MoveParams, delay_ticks: u32| -> (bool, StepEvents) {
        let mut s = MoverState::new(Vec3::ZERO);
        s.grounded = true;
        s.velocity = Vec3::new(5.0, 0.0, 0.0);
        let mut left_at = None;
        for t in 0..200 {
            let ev = step(&mut s, p, &run, &ledge, dt);
            if ev.left_ground {
                left_at = Some(t);
                break;
            }
        }
        assert!(left_at.is_some(), "walked off the ledge");
        for _ in 0..delay_ticks {
            step(&mut s, p, &run, &ledge, dt);
        }
        let ev = step(&mut s, p, &run_jump, &ledge, dt);
        (ev.jumped, ev)
    };
    let p = MoveParams::seed();
    assert_eq!(p.coyote_time, 0.15);
    let (jumped, ev) = attempt(&p, 4); // ≈ 0.08 s after leaving
    assert!(jumped && ev.coyote_jump);
    let (jumped, _) = attempt(&p, 12); // 0.2 s: too late
    assert!(!jumped);
    let mut q = p;
    q.coyote_time = 0.0;
    let (jumped, _) = attempt(&q, 0);
    assert!(!jumped, "no coyote time: no jump after leaving");
}

#[test]
fn jump_buffer() {
    let dt = 1.0 / 60.0;
    // Fall from 1 m; press (one tick) `before` seconds before landing, then release.
    let try_buffer = |p: &MoveParams, before: f32| -> bool {
        // Ticks to land from 1 m at 9.81: find by simulation.
        let mut probe = MoverState::new(Vec3::new(0.0, 1.0, 0.0));
        let land_tick = until_landed(&mut probe, p, &idle(false), dt);
        let press_tick = land_tick - (before / dt).round() as u32;
        let mut s = MoverState::new(Vec3::new(0.0, 1.0, 0.0));
        let g = FlatGround::new(0.0);
        let mut jumped = false;
        for t in 1..land_tick + 5 {
            let ev = step(&mut s, p, &idle(t == press_tick), &g, dt);
            jumped |= ev.jumped;
        }
        jumped
    };
    let p = MoveParams::seed();
    assert_eq!(p.jump_buffer_time, 0.2);
    assert!(try_buffer(&p, 0.1));
    assert!(!try_buffer(&p, 0.3));
    let mut q = p;
    q.jump_buffer_time = 0.0;
    assert!(!try_buffer(&q, 0.1));
}

/// Highest feet position over a jump with the key held for `hold_ticks` ticks.
fn apex(p: &MoveParams, dt: f32, hold_ticks: u32) -> f32 {
    let g = FlatGround::new(0.0);
    let mut s = grounded_at(Vec3::ZERO);
    let mut top = 0.0f32;
    for t in 0..(3.0 / dt) as u32 {
        step(&mut s, p, &idle(t < hold_ticks), &g, dt);
        top = top.max(s.position.y);
    }
    top
}

#[test]
fn variable_jump_height() {
    let dt = 1.0 / 60.0;
    let p = MoveParams::seed();
    let full = apex(&p, dt, 1000);
    let short = apex(&p, dt, 10);
    let want = p.jump_speed * p.jump_speed / (2.0 * p.gravity);
    assert!((full - want).abs() < 0.01, "{full} vs {want}");
    assert!(short < full - 0.1, "release gravity: {short} vs {full}");
    // The cut form.
    let mut q = p;
    q.jump_release_gravity = 1.0;
    q.jump_release_cut = 0.5;
    let cut = apex(&q, dt, 10);
    assert!(cut < full - 0.1, "cut: {cut} vs {full}");
    // Both off: releasing early changes nothing.
    q.jump_release_cut = 1.0;
    assert_eq!(apex(&q, dt, 10), full);
}

#[test]
fn gravity_split_gives_the_exact_parabola_at_any_rate() {
    let p = MoveParams::quake3();
    let ideal = p.jump_speed * p.jump_speed / (2.0 * p.gravity); // 45.5625
    let mut apexes = Vec::new();
    for hz in [30u32, 60, 144] {
        let dt = 1.0 / hz as f32;
        let g = FlatGround::new(0.0);
        let mut s = grounded_at(Vec3::ZERO);
        step(&mut s, &p, &idle(true), &g, dt);
        let mut t = 1u32;
        let mut top = s.position.y;
        let mut continuous_apex = None;
        while !s.grounded {
            // Positions lie on y(t) = v0·t − g·t²/2.
            let tt = (t as f64) * dt as f64;
            let want = p.jump_speed as f64 * tt - 0.5 * p.gravity as f64 * tt * tt;
            if want > 0.0 {
                assert!(
                    (s.position.y as f64 - want).abs() < 2e-3,
                    "{hz} Hz tick {t}: {} vs {want}",
                    s.position.y
                );
            }
            let before = s;
            step(&mut s, &p, &idle(true), &g, dt);
            t += 1;
            top = top.max(s.position.y);
            if before.velocity.y > 0.0 && s.velocity.y <= 0.0 {
                let vy = before.velocity.y;
                continuous_apex = Some(before.position.y + vy * vy / (2.0 * p.gravity));
            }
        }
        let c = continuous_apex.expect("passed the apex");
        assert!((c - ideal).abs() < 2e-3, "{hz} Hz: {c} vs {ideal}");
        // Sampled peak within g·dt²/8 of the ideal apex.
        assert!(top <= ideal + 1e-3 && ideal - top <= p.gravity * dt * dt / 8.0 + 1e-3);
        apexes.push(c);
    }
    assert!((apexes[0] - apexes[2]).abs() < 2e-3, "{apexes:?}");
}

#[test]
fn bunny_hop_cap() {
    let mut p = MoveParams::source();
    assert_eq!(p.bhop_speed_cap, 0.0, "off by default");
    let dt = 0.01;
    let g = FlatGround::new(0.0);
    let mut s = grounded_at(Vec3::new(300.0, 0.0, 400.0));
    step(&mut s, &p, &idle(true), &g, dt);
    assert_eq!(s.planar_speed(), 500.0);
    p.bhop_speed_cap = 1.1;
    let mut s = grounded_at(Vec3::new(300.0, 0.0, 400.0));
    step(&mut s, &p, &idle(true), &g, dt);
    assert!(
        (s.planar_speed() - 275.0).abs() < 1e-3,
        "{}",
        s.planar_speed()
    );
    assert!(
        (s.velocity.x / s.velocity.z - 0.75).abs() < 1e-6,
        "direction kept"
    );
}

#[test]
fn walkable_and_steep_slopes() {
    let dt = 1.0 / 60.0;
    let p = MoveParams::seed();
    let uphill = Vec2::new(1.0, 0.0);
    // 30°: walkable; standing still stays grounded.
    let ramp = PlaneGround::ramp(Vec3::ZERO, uphill, 30f32.to_radians());
    let mut s = MoverState::new(Vec3::new(0.0, 0.01, 0.0));
    for _ in 0..60 {
        step(&mut s, &p, &idle(false), &ramp, dt);
        assert!(s.grounded);
    }
    assert!(s.position.x.abs() < 1e-6);
    // Exactly the 45° limit counts thanks to the tolerance.
    let ramp = PlaneGround::ramp(Vec3::ZERO, uphill, 45f32.to_radians());
    let mut s = MoverState::new(Vec3::ZERO);
    step(&mut s, &p, &idle(false), &ramp, dt);
    assert!(s.grounded);
    // 60°: not ground; the character slides down (towards −x) and reports it.
    let ramp = PlaneGround::ramp(Vec3::ZERO, uphill, 60f32.to_radians());
    let mut s = MoverState::new(Vec3::ZERO);
    let mut sliding = false;
    for _ in 0..60 {
        let ev = step(&mut s, &p, &idle(false), &ramp, dt);
        sliding |= ev.sliding;
        assert!(!s.grounded);
        assert!(s.is_finite());
        // Never below the surface after a tick.
        let h = ramp.probe(s.position).unwrap().height;
        assert!(s.position.y >= h - 1e-4);
    }
    assert!(sliding);
    assert!(s.velocity.x < -1.0 && s.position.x < -0.3, "{:?}", s);
}

#[test]
fn running_down_a_ramp_stays_grounded() {
    // step_down keeps a grounded character on a 30° ramp at full speed (no flicker).
    let dt = 1.0 / 60.0;
    let p = MoveParams::seed();
    let ramp = PlaneGround::ramp(Vec3::ZERO, Vec2::new(-1.0, 0.0), 30f32.to_radians());
    let mut s = grounded_at(Vec3::new(10.0, 0.0, 0.0));
    let run = MoveInput::new(Vec2::new(0.0, 1.0), false, Vec2::new(0.0, -1.0)); // +x, downhill
    for _ in 0..120 {
        let ev = step(&mut s, &p, &run, &ramp, dt);
        assert!(s.grounded && !ev.left_ground && !ev.landed);
    }
    assert!(s.position.y < -5.0);
}

#[test]
fn landing_reports_impact_speed() {
    let p = MoveParams::seed();
    let dt = 1.0 / 60.0;
    let mut s = MoverState::new(Vec3::new(0.0, 2.0, 0.0));
    let mut impact = 0.0;
    for _ in 0..120 {
        let ev = step(&mut s, &p, &idle(false), &FlatGround::new(0.0), dt);
        if ev.landed {
            impact = ev.impact_speed;
            break;
        }
    }
    // √(2·9.81·2) = 6.26 m/s (within one tick of gravity).
    assert!((impact - 6.264).abs() < 0.2, "{impact}");
    assert_eq!(s.position.y, 0.0);
    assert_eq!(s.velocity.y, 0.0);
}
