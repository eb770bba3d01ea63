//! Moving solids: [`World::move_solid`] (errors, the grid, the crush rule) and a body among them
//! (`movement::step` on [`Solid`]): carried, lifted, lowered, pushed, never dragged through a wall
//! it brushes, never inside a solid, never NaN — also under random platform motions.

use super::*;
use crate::math::{Vec2, Vec3};
use crate::movement::body_box;
use crate::movement::{self, MoveInput, MoveParams, MoverState};
use crate::rng::Pcg32;

const DT: f32 = 1.0 / 60.0;
/// The Quake III body's radius (`MoveParams::quake3`), and its stop in front of a wall: a skin more.
const R: f32 = 15.0;
const STOP: f32 = R + 0.125;
type Level = World<8>;

fn aabb(a: (f32, f32, f32), b: (f32, f32, f32)) -> Brush {
    Brush::aabb(Vec3::new(a.0, a.1, a.2), Vec3::new(b.0, b.1, b.2)).unwrap()
}

/// A level with a floor (solid 0) and a platform 128 wide, 16 high at the origin (solid 1).
fn floor_and_platform() -> Level {
    let mut w = Level::new();
    w.push(aabb((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0)))
        .unwrap();
    w.push(aabb((-64.0, 0.0, -64.0), (64.0, 16.0, 64.0)))
        .unwrap();
    w
}

/// True when the box at `feet` overlaps a solid by more than 1/1024 (touching is allowed: a
/// trace keeps a skin, rounding may take a little of it).
fn inside(w: &Level, feet: Vec3, mins: Vec3, maxs: Vec3) -> bool {
    let e = Vec3::new(1.0 / 1024.0, 1.0 / 1024.0, 1.0 / 1024.0);
    w.contents(feet, mins + e, maxs - e).solid.is_some()
}

/// A body standing on the platform's top, `x`/`z` given, at rest (grounded after one tick).
fn rider(x: f32, z: f32) -> MoverState {
    let mut s = MoverState::new(Vec3::new(x, 16.125, z));
    s.grounded = true;
    s
}

fn stand() -> MoveInput {
    MoveInput::new(Vec2::ZERO, false, Vec2::new(0.0, -1.0))
}

/// One game tick in Quake's order: the platform first (the body listed, so a crush blocks it),
/// then the body. Returns the platform's move.
fn tick(
    w: &mut Level,
    platform: u16,
    v: Vec3,
    s: &mut MoverState,
    params: &MoveParams,
) -> Result<Vec3, MoveSolidError> {
    let (mins, maxs) = body_box(s, params);
    let body = [BodyBox {
        feet: s.position,
        mins,
        maxs,
    }];
    let moved = w.move_solid(platform, v, DT, &body);
    movement::step(s, params, &stand(), &Solid(&*w), DT);
    assert!(s.is_finite(), "{s:?}");
    assert!(!inside(w, s.position, mins, maxs), "inside a solid: {s:?}");
    moved
}

#[test]
fn move_solid_moves_it_and_the_trace_follows() {
    let mut w = floor_and_platform();
    assert!(!w.flags_present().contains(SolidFlags::MOVING));
    let d = w
        .move_solid(1, Vec3::new(600.0, 0.0, 0.0), 0.5, &[])
        .unwrap();
    assert_eq!(d, Vec3::new(300.0, 0.0, 0.0));
    assert_eq!(w.brushes()[1].mins(), Vec3::new(236.0, 0.0, -64.0));
    assert!(w.brushes()[1].flags().contains(SolidFlags::MOVING));
    assert!(w.flags_present().contains(SolidFlags::MOVING));
    assert_eq!(w.solid_velocity(1), Vec3::new(600.0, 0.0, 0.0));
    assert_eq!(w.solid_velocity(0), Vec3::ZERO);
    // A trace finds it where it is now and not where it was.
    let (mins, maxs) = (Vec3::new(-16.0, 0.0, -16.0), Vec3::new(16.0, 56.0, 16.0));
    let at = |x: f32| w.trace(Vec3::new(x, 64.0, 0.0), Vec3::new(x, 0.0, 0.0), mins, maxs);
    assert_eq!(at(300.0).solid, Some(1));
    assert!((at(300.0).end.y - 16.125).abs() < 1e-4);
    assert_eq!(at(0.0).solid, Some(0));
    // A sloped brush moves its planes too: a ramp moved up by 8 is the ramp 8 higher.
    let ramp = Brush::ramp(
        Vec3::new(0.0, 0.0, 0.0),
        Vec3::new(64.0, 32.0, 64.0),
        Toward::PlusX,
    )
    .unwrap();
    let up = ramp.translated(Vec3::new(0.0, 8.0, 0.0)).unwrap();
    let expected = Brush::ramp(
        Vec3::new(0.0, 8.0, 0.0),
        Vec3::new(64.0, 40.0, 64.0),
        Toward::PlusX,
    )
    .unwrap();
    assert_eq!(up.mins(), expected.mins());
    let (a, b) = (up.sloped_planes()[0], expected.sloped_planes()[0]);
    assert_eq!(a.normal, b.normal);
    assert!((a.dist - b.dist).abs() < 1e-4);
}

#[test]
fn bad_moves_are_refused_and_change_nothing() {
    let mut w = floor_and_platform();
    let before = w.brushes()[1];
    let v = Vec3::new(10.0, 0.0, 0.0);
    assert_eq!(
        w.move_solid(9, v, DT, &[]),
        Err(MoveSolidError::NoSuchSolid)
    );
    for (bad_v, bad_dt) in [
        (Vec3::new(f32::NAN, 0.0, 0.0), DT),
        (Vec3::new(0.0, f32::INFINITY, 0.0), DT),
        (v, 0.0),
        (v, -DT),
        (v, f32::NAN),
        (Vec3::new(f32::MAX, 0.0, 0.0), 4.0),
    ] {
        assert_eq!(
            w.move_solid(1, bad_v, bad_dt, &[]),
            Err(MoveSolidError::BadMotion),
            "{bad_v:?} {bad_dt}"
        );
    }
    assert_eq!(
        w.move_solid(1, Vec3::new(2.0 * MAX_COORD, 0.0, 0.0), 1.0, &[]),
        Err(MoveSolidError::OutOfRange)
    );
    assert_eq!(w.brushes()[1], before);
    assert!(!w.flags_present().contains(SolidFlags::MOVING));
    // Capacity: MAX_MOVING_SOLIDS movers, then the next is refused (the others keep moving).
    let mut full = World::<16>::new();
    for i in 0..=MAX_MOVING_SOLIDS {
        let x = i as f32 * 100.0;
        full.push(aabb((x, 0.0, 0.0), (x + 10.0, 10.0, 10.0)))
            .unwrap();
    }
    for i in 0..MAX_MOVING_SOLIDS as u16 {
        full.move_solid(i, v, DT, &[]).unwrap();
    }
    let last = MAX_MOVING_SOLIDS as u16;
    let kept = full.brushes()[usize::from(last)];
    assert_eq!(
        full.move_solid(last, v, DT, &[]),
        Err(MoveSolidError::TooManyMoving)
    );
    assert_eq!(full.brushes()[usize::from(last)], kept);
    assert!(full.move_solid(0, v, DT, &[]).is_ok());
    full.clear();
    assert!(full.is_empty() && full.carrier(Vec3::ZERO, Vec3::ZERO, Vec3::ZERO).is_none());
}

#[test]
fn the_grid_finds_moved_solids_as_a_scan_of_every_solid_does() {
    // Many small solids (in cells) and two movers wandering across the level.
    let mut w = World::<32>::new();
    let mut rng = Pcg32::new(7, 3);
    for _ in 0..30 {
        let (x, z) = (rng.range_f32(-500.0, 500.0), rng.range_f32(-500.0, 500.0));
        w.push(aabb((x, 0.0, z), (x + 20.0, 40.0, z + 20.0)))
            .unwrap();
    }
    let (mins, maxs) = (Vec3::new(-16.0, 0.0, -16.0), Vec3::new(16.0, 56.0, 16.0));
    for k in 0..200 {
        for m in [3u16, 17] {
            let v = Vec3::new(
                rng.range_f32(-3000.0, 3000.0),
                0.0,
                rng.range_f32(-3000.0, 3000.0),
            );
            w.move_solid(m, v, DT, &[]).unwrap();
        }
        let s = Vec3::new(
            rng.range_f32(-600.0, 600.0),
            8.0,
            rng.range_f32(-600.0, 600.0),
        );
        let e = s + Vec3::new(
            rng.range_f32(-200.0, 200.0),
            0.0,
            rng.range_f32(-200.0, 200.0),
        );
        let t = w.trace(s, e, mins, maxs);
        // The scan: every solid, in index order.
        let mut best: Option<(f32, u16)> = None;
        for (i, b) in w.brushes().iter().enumerate() {
            let one = super::trace::trace_one(b, i as u16, s, e, (mins, maxs), w.skin());
            if one.fraction < 1.0 && !one.start_solid && best.is_none_or(|(f, _)| one.fraction < f)
            {
                best = Some((one.fraction, i as u16));
            }
        }
        if !t.start_solid {
            assert_eq!(t.solid, best.map(|b| b.1), "query {k}: {t:?}");
        }
    }
}

#[test]
fn a_world_where_nothing_moved_has_no_carrier() {
    let w = floor_and_platform();
    let (mins, maxs) = (Vec3::new(-16.0, 0.0, -16.0), Vec3::new(16.0, 56.0, 16.0));
    assert!(w.carrier(Vec3::new(0.0, 16.125, 0.0), mins, maxs).is_none());
    // A solid that moved with velocity 0 is still: it carries nothing.
    let mut w = w;
    w.move_solid(1, Vec3::ZERO, DT, &[]).unwrap();
    assert!(w.carrier(Vec3::new(0.0, 16.125, 0.0), mins, maxs).is_none());
}

#[test]
fn a_rider_is_carried_and_keeps_the_velocity_when_it_jumps_off() {
    let mut w = floor_and_platform();
    let params = MoveParams::quake3();
    let mut s = rider(0.0, 0.0);
    let v = Vec3::new(200.0, 0.0, 50.0);
    for _ in 0..60 {
        tick(&mut w, 1, v, &mut s, &params).unwrap();
        assert!(s.grounded);
    }
    // The platform moved 60 ticks of v·dt; the rider with it, to rounding.
    let moved = w.brushes()[1].mins() - Vec3::new(-64.0, 0.0, -64.0);
    assert!((s.position.x - moved.x).abs() < 0.01, "{s:?} {moved:?}");
    assert!((s.position.z - moved.z).abs() < 0.01, "{s:?} {moved:?}");
    assert!((s.position.y - 16.125).abs() < 1e-3);
    // Standing still on it is standing still relative to it.
    assert!(s.velocity.length() < 1e-3, "{s:?}");
    // Jumping off keeps the platform's velocity.
    let (mins, maxs) = body_box(&s, &params);
    w.move_solid(
        1,
        v,
        DT,
        &[BodyBox {
            feet: s.position,
            mins,
            maxs,
        }],
    )
    .unwrap();
    let jump = MoveInput::new(Vec2::ZERO, true, Vec2::new(0.0, -1.0));
    let ev = movement::step(&mut s, &params, &jump, &Solid(&w), DT);
    assert!(ev.jumped && !s.grounded);
    assert!((s.velocity.x - 200.0).abs() < 1e-3 && (s.velocity.z - 50.0).abs() < 1e-3);
}

#[test]
fn a_rider_brushing_a_wall_is_neither_dragged_through_nor_back() {
    // A wall along +X at z = 80, the rider's side a skin from it, its feet over the platform's
    // edge: carried along the wall at the platform's speed.
    let mut w = floor_and_platform();
    w.push(aabb((-4096.0, 0.0, 80.0), (4096.0, 128.0, 96.0)))
        .unwrap();
    let params = MoveParams::quake3();
    let z = 80.0 - STOP;
    let mut s = rider(0.0, z);
    for t in 1..=60 {
        tick(&mut w, 1, Vec3::new(200.0, 0.0, 0.0), &mut s, &params).unwrap();
        let platform_x = w.brushes()[1].mins().x + 64.0;
        assert!((s.position.x - platform_x).abs() < 0.01, "tick {t}: {s:?}");
        assert!((s.position.z - z).abs() < 1e-3, "tick {t}: {s:?}");
    }
    // A lintel across the path, low enough for the platform to pass under (its top at 16, the
    // lintel from 24 up) but not the rider: the rider stops a skin in front of it, the platform
    // moves on under it, and the rider drops to the floor when the platform has gone.
    let mut w = floor_and_platform();
    w.push(aabb((256.0, 24.0, -512.0), (272.0, 256.0, 512.0)))
        .unwrap();
    let mut s = rider(0.0, 0.0);
    let mut stopped = 0;
    for _ in 0..150 {
        tick(&mut w, 1, Vec3::new(200.0, 0.0, 0.0), &mut s, &params).unwrap();
        assert!(s.position.x <= 256.0 - STOP + 1e-3, "{s:?}");
        if (s.position.x - (256.0 - STOP)).abs() < 1e-3 {
            stopped += 1;
        }
    }
    assert!(stopped > 30, "{stopped}");
    assert!(
        w.brushes()[1].mins().x > 256.0 + 64.0,
        "the platform passed"
    );
    assert!(
        s.grounded && s.position.y.abs() < 0.2,
        "on the floor: {s:?}"
    );
}

#[test]
fn an_elevator_lifts_and_lowers_its_rider_without_fall_through_or_float() {
    let mut w = floor_and_platform();
    let params = MoveParams::quake3();
    let mut s = rider(0.0, 0.0);
    for t in 0..120 {
        let vy = if t < 60 { 150.0 } else { -150.0 };
        tick(&mut w, 1, Vec3::new(0.0, vy, 0.0), &mut s, &params).unwrap();
        let top = w.brushes()[1].maxs().y;
        let gap = s.position.y - top;
        assert!(s.grounded, "tick {t}: {s:?}");
        assert!((0.0..=0.25).contains(&gap), "tick {t}: gap {gap} {s:?}");
        if t == 59 {
            assert!((top - 166.0).abs() < 0.01, "{top}");
        }
    }
    assert!((w.brushes()[1].maxs().y - 16.0).abs() < 0.01);
    assert!(s.velocity.length() < 1e-3, "{s:?}");
}

#[test]
fn a_body_in_the_way_is_pushed_and_a_crushed_one_blocks_the_platform() {
    // A pusher block (64 high, on the floor) moving +X into a body standing on the floor in
    // front of it; a wall farther on.
    let mut w = Level::new();
    w.push(aabb((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0)))
        .unwrap();
    let pusher = w
        .push(aabb((-64.0, 0.0, -64.0), (0.0, 64.0, 64.0)))
        .unwrap();
    w.push(aabb((200.0, 0.0, -512.0), (216.0, 128.0, 512.0)))
        .unwrap();
    let params = MoveParams::quake3();
    let mut s = MoverState::new(Vec3::new(24.0, 0.125, 0.0));
    let mut pushed = 0;
    let mut blocked = 0;
    for _ in 0..120 {
        let before = w.brushes()[1];
        match tick(&mut w, pusher, Vec3::new(300.0, 0.0, 0.0), &mut s, &params) {
            Ok(_) => {
                if s.position.x > 24.0 + 1e-3 {
                    pushed += 1;
                }
            }
            Err(MoveSolidError::Blocked(0)) => {
                // Quake III's blocked mover: it stayed exactly where it was.
                assert_eq!(w.brushes()[1].mins(), before.mins());
                assert_eq!(w.brushes()[1].maxs(), before.maxs());
                assert_eq!(w.solid_velocity(pusher), Vec3::ZERO);
                blocked += 1;
            }
            Err(e) => panic!("{e:?}"),
        }
        // Never through the wall, never inside the pusher (checked by `tick`).
        assert!(s.position.x <= 200.0 - STOP + 1e-3, "{s:?}");
    }
    assert!(pushed > 20, "{pushed}");
    assert!(blocked > 20, "{blocked}");
    // The body ends pinned between them: less than one tick's move (5) from the wall, the pusher
    // stopped short of it (the move that would have pressed it into the wall was refused).
    assert!(s.position.x > 200.0 - STOP - 5.0, "{s:?}");
    assert!(w.brushes()[1].maxs().x <= s.position.x - R + 1e-3);
}

#[test]
fn an_unlisted_body_left_inside_walks_out_and_stays_finite() {
    // The game did not list the body: the platform moves into it, the body is pushed out by the
    // carry (a trace from inside a solid is not blocked by it).
    let mut w = floor_and_platform();
    let params = MoveParams::quake3();
    let mut s = MoverState::new(Vec3::new(90.0, 0.125, 0.0));
    for _ in 0..60 {
        w.move_solid(1, Vec3::new(300.0, 0.0, 0.0), DT, &[])
            .unwrap();
        movement::step(&mut s, &params, &stand(), &Solid(&w), DT);
        assert!(s.is_finite());
        let (mins, maxs) = body_box(&s, &params);
        assert!(!inside(&w, s.position, mins, maxs), "{s:?}");
    }
}

#[test]
fn random_platform_motions_never_leave_a_body_inside_or_nan() {
    let params = MoveParams::quake3();
    let mut rng = Pcg32::new(34, 3);
    for round in 0..40 {
        let mut w = floor_and_platform();
        // A wall, a ceiling and a second platform at random.
        let wx = rng.range_f32(100.0, 400.0);
        w.push(aabb((wx, 0.0, -512.0), (wx + 16.0, 256.0, 512.0)))
            .unwrap();
        let cy = rng.range_f32(90.0, 300.0);
        w.push(aabb((-512.0, cy, -512.0), (512.0, cy + 16.0, 512.0)))
            .unwrap();
        w.push(aabb((-300.0, 0.0, 100.0), (-200.0, 24.0, 200.0)))
            .unwrap();
        let mut s = if rng.next_u32() % 2 == 0 {
            rider(rng.range_f32(-60.0, 60.0), rng.range_f32(-60.0, 60.0))
        } else {
            MoverState::new(Vec3::new(
                rng.range_f32(-300.0, 300.0),
                40.0,
                rng.range_f32(-200.0, 200.0),
            ))
        };
        let (mins, maxs) = body_box(&s, &params);
        if inside(&w, s.position, mins, maxs) {
            continue;
        }
        for _ in 0..90 {
            let mut v = Vec3::new(
                rng.range_f32(-800.0, 800.0),
                rng.range_f32(-400.0, 400.0),
                rng.range_f32(-800.0, 800.0),
            );
            match rng.next_u32() % 16 {
                0 => v.x = f32::NAN,
                1 => v.y = f32::INFINITY,
                2 => v = Vec3::new(f32::MAX, 0.0, 0.0),
                _ => {}
            }
            let wish = Vec2::new(rng.range_f32(-1.0, 1.0), rng.range_f32(-1.0, 1.0));
            let jump = rng.next_u32() % 8 == 0;
            let (mins, maxs) = body_box(&s, &params);
            let body = [BodyBox {
                feet: s.position,
                mins,
                maxs,
            }];
            for p in [1u16, 4] {
                let r = w.move_solid(p, v, DT, &body);
                if !v.is_finite() || v.x == f32::MAX {
                    assert!(r.is_err(), "{r:?}");
                }
            }
            let input = MoveInput::new(wish, jump, Vec2::new(0.0, -1.0));
            movement::step(&mut s, &params, &input, &Solid(&w), DT);
            assert!(s.is_finite(), "round {round}: {s:?}");
            for b in w.brushes() {
                assert!(b.mins().is_finite() && b.maxs().is_finite());
            }
            let (mins, maxs) = body_box(&s, &params);
            assert!(
                !inside(&w, s.position, mins, maxs),
                "round {round}: inside {s:?}"
            );
        }
    }
}

#[test]
fn landing_on_a_moving_platform_makes_the_velocity_relative_to_it() {
    // Dropped still (in the world) onto a platform moving +X at 200: on landing the platform's
    // velocity is taken off (−200 relative to it), friction then brings the body to rest on it,
    // and from then on it is carried at the platform's speed.
    let mut w = floor_and_platform();
    let params = MoveParams::quake3();
    let mut s = MoverState::new(Vec3::new(0.0, 40.0, 0.0));
    let v = Vec3::new(200.0, 0.0, 0.0);
    let mut landed_at = None;
    for t in 0..90 {
        let was = s.grounded;
        tick(&mut w, 1, v, &mut s, &params).unwrap();
        if !was && s.grounded && landed_at.is_none() {
            landed_at = Some(t);
            assert!((s.velocity.x + 200.0).abs() < 1e-3, "{s:?}");
        }
    }
    assert!(landed_at.is_some());
    assert!(s.grounded && s.velocity.length() < 1e-3, "{s:?}");
    let before = (s.position.x, w.brushes()[1].mins().x);
    tick(&mut w, 1, v, &mut s, &params).unwrap();
    let moved = (s.position.x - before.0, w.brushes()[1].mins().x - before.1);
    assert!((moved.0 - moved.1).abs() < 1e-3, "{moved:?}");
}

// Every movement mode among moving solids (issue 34 §3): climbing and swimming ticks are carried
// and pushed as walking ones are (Quake III's `G_MoverPush` moves an entity whatever its mode).

/// A ladder 64 wide, 256 high, 8 thick, its face at `z = 0` facing +Z (solid 1 over the floor,
/// solid 0), and a body holding it a skin in front, `y` up, facing it (−Z).
fn ladder_level() -> Level {
    let mut w = Level::new();
    w.push(aabb((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0)))
        .unwrap();
    w.push(aabb((-32.0, 0.0, -8.0), (32.0, 256.0, 0.0)).with_flags(SolidFlags::LADDER))
        .unwrap();
    w
}

fn facing_ladder(jump: bool) -> MoveInput {
    MoveInput::new(Vec2::ZERO, jump, Vec2::new(0.0, -1.0))
}

/// One call of [`DT`] in Quake's order: solid `solid` moved by `v·DT` (the body listed), then the
/// body stepped in the [`pool`] (`in_pool`) or on [`Solid`] (in as many sub-steps as `params.max_tick_dt` makes of `DT`);
/// checked finite and never inside a solid.
fn call(
    w: &mut Level,
    solid: u16,
    v: Vec3,
    s: &mut MoverState,
    params: &MoveParams,
    input: &MoveInput,
    in_pool: bool,
) -> (Result<Vec3, MoveSolidError>, movement::StepEvents) {
    let (mins, maxs) = body_box(s, params);
    let body = [BodyBox {
        feet: s.position,
        mins,
        maxs,
    }];
    let moved = w.move_solid(solid, v, DT, &body);
    let ev = if in_pool {
        movement::step(s, params, input, &pool(w), DT)
    } else {
        movement::step(s, params, input, &Solid(&*w), DT)
    };
    assert!(s.is_finite(), "{s:?}");
    let (mins, maxs) = body_box(s, params);
    assert!(!inside(w, s.position, mins, maxs), "inside a solid: {s:?}");
    (moved, ev)
}

/// Quake III's body with its ticks split in four: every call of [`DT`] runs four sub-steps.
fn quake3_in_four() -> MoveParams {
    let mut p = MoveParams::quake3();
    p.max_tick_dt = DT / 4.0 + 1e-6;
    p
}

#[test]
fn a_climber_on_a_moving_ladder_keeps_its_offset_to_it() {
    // Up, down, along its face, slowly away from the climber and towards it (faster: the next
    // test): the climber keeps its offset to the ladder to rounding, holding it (never
    // grounded, never falling), in one sub-step a call or four.
    for (params, subs) in [(MoveParams::quake3(), 1), (quake3_in_four(), 4)] {
        for v in [
            Vec3::new(0.0, 150.0, 0.0),
            Vec3::new(0.0, -100.0, 0.0),
            Vec3::new(200.0, 60.0, 0.0),
            Vec3::new(-120.0, 0.0, 0.0),
            Vec3::new(0.0, 40.0, -30.0),
            Vec3::new(50.0, 0.0, 6.0),
        ] {
            let mut w = ladder_level();
            let mut s = MoverState::new(Vec3::new(0.0, 100.0, STOP));
            let offset = s.position - w.brushes()[1].mins();
            for t in 0..40 {
                let (moved, ev) = call(&mut w, 1, v, &mut s, &params, &facing_ladder(false), false);
                moved.unwrap();
                assert_eq!(ev.substeps, subs);
                let now = s.position - w.brushes()[1].mins();
                assert!(
                    (now - offset).length() < 0.02,
                    "{v:?} tick {t}: offset {now:?}, was {offset:?}"
                );
                assert!(!s.grounded, "{v:?} tick {t}: {s:?}");
            }
        }
    }
}

#[test]
fn a_ladder_moving_fast_along_its_normal_keeps_its_climber() {
    // Pushers first: a body that held the ladder before its move is carried by it before the
    // ladder search (`platform::carry_held_ladder`), so the climber holds a ladder moving along
    // its normal far past the reach (`body_radius / 16`: 56 units/s at 60 Hz, the old limit
    // away from it) and the skin (7.5 units/s, the old limit towards it), up to `max_velocity`
    // (2,000 units/s) away and towards it, alone or with a move up or sideways: its offset kept,
    // never grounded, never falling, never inside, never NaN; with 1 and 4 sub-steps a call.
    for (params, subs) in [(MoveParams::quake3(), 1), (quake3_in_four(), 4)] {
        for v in [
            Vec3::new(0.0, 0.0, -60.0),
            Vec3::new(0.0, 0.0, 10.0),
            Vec3::new(0.0, 0.0, -300.0),
            Vec3::new(0.0, 0.0, 300.0),
            Vec3::new(0.0, 0.0, -2000.0),
            Vec3::new(0.0, 0.0, 2000.0),
            Vec3::new(0.0, 120.0, -900.0),
            Vec3::new(150.0, -80.0, 700.0),
        ] {
            let mut w = ladder_level();
            let mut s = MoverState::new(Vec3::new(0.0, 100.0, STOP));
            let offset = s.position - w.brushes()[1].mins();
            for t in 0..30 {
                let (moved, ev) = call(&mut w, 1, v, &mut s, &params, &facing_ladder(false), false);
                moved.unwrap();
                assert_eq!(ev.substeps, subs);
                let now = s.position - w.brushes()[1].mins();
                assert!(
                    (now - offset).length() < 0.05,
                    "{v:?} {subs} tick {t}: offset {now:?}, was {offset:?} {s:?}"
                );
                assert!(!s.grounded && !ev.landed, "{v:?} {subs} tick {t}: {s:?}");
            }
            // Still climbing: the key into it climbs at `ladder_climb_speed` relative to it.
            let y = s.position.y - w.brushes()[1].mins().y;
            let up = MoveInput::new(Vec2::new(1.0, 0.0), false, Vec2::new(0.0, -1.0));
            call(&mut w, 1, v, &mut s, &params, &up, false).0.unwrap();
            let climbed = s.position.y - w.brushes()[1].mins().y - y;
            let want = params.ladder_climb_speed * DT;
            assert!((climbed - want).abs() < 0.05, "{v:?} {subs}: {climbed}");
        }
    }
}

#[test]
fn a_climber_pushing_off_a_fast_ladder_leaves_it() {
    // The push-off (270 units/s along the normal, relative to the ladder) still leaves a ladder
    // moving along its normal, away or towards the climber, as fast as the push-off or faster
    // (up to `max_velocity`): the body is not caught back (from where it was before the ladder's
    // move the ladder is out of reach), it never comes closer to it and falls, never inside,
    // never NaN. (At 2,000 towards it the push-off plus the ladder's velocity is clamped to
    // `max_velocity`, the ladder's speed: the gap then stays, to rounding.)
    for (params, subs) in [(MoveParams::quake3(), 1), (quake3_in_four(), 4)] {
        for vz in [-2000.0, -600.0, -270.0, -100.0, 100.0, 600.0, 2000.0] {
            let v = Vec3::new(0.0, 0.0, vz);
            let mut w = ladder_level();
            let mut s = MoverState::new(Vec3::new(0.0, 100.0, STOP));
            for _ in 0..5 {
                call(&mut w, 1, v, &mut s, &params, &facing_ladder(false), false)
                    .0
                    .unwrap();
            }
            let y = s.position.y;
            let (_, ev) = call(&mut w, 1, v, &mut s, &params, &facing_ladder(true), false);
            assert!(ev.jumped, "{vz} {subs}: {ev:?}");
            for t in 0..20 {
                let face = w.brushes()[1].maxs().z;
                let before = s.position.z - face;
                call(&mut w, 1, v, &mut s, &params, &MoveInput::default(), false)
                    .0
                    .unwrap();
                let gap = s.position.z - w.brushes()[1].maxs().z;
                assert!(
                    gap >= before - 1e-3 && gap > STOP + 2.0,
                    "{vz} {subs} tick {t}: {before} → {gap} {s:?}"
                );
            }
            assert!(
                s.position.y < y - 10.0 && s.velocity.y < 0.0,
                "{vz} {subs}: {s:?}"
            );
        }
    }
}

#[test]
fn a_body_that_did_not_hold_a_moving_ladder_is_not_carried_by_it() {
    // Falling in front of the ladder, facing it, 4 units out of its reach before its move: a
    // ladder moving away does not pull it along (from where it was before the move the ladder
    // was out of reach), one moving towards it at 300 units/s reaches it on the second call (the
    // gap, 5 units, is that call's move) and pushes it, and the body then holds it (the ladder
    // is within reach where it was before the next move): carried at the ladder's speed.
    let params = MoveParams::quake3();
    for vz in [-300.0, -60.0] {
        let mut w = ladder_level();
        let mut s = MoverState::new(Vec3::new(0.0, 100.0, STOP + 4.0));
        for t in 0..10 {
            let v = Vec3::new(0.0, 0.0, vz);
            call(&mut w, 1, v, &mut s, &params, &facing_ladder(false), false)
                .0
                .unwrap();
            assert_eq!(s.position.z, STOP + 4.0, "{vz} tick {t}: {s:?}");
        }
        assert!(s.velocity.y < 0.0, "{s:?}");
    }
    let mut w = ladder_level();
    let mut s = MoverState::new(Vec3::new(0.0, 100.0, STOP + 5.0));
    let v = Vec3::new(0.0, 0.0, 300.0);
    call(&mut w, 1, v, &mut s, &params, &facing_ladder(false), false)
        .0
        .unwrap();
    assert_eq!(s.position.z, STOP + 5.0, "{s:?}");
    for t in 0..10 {
        call(&mut w, 1, v, &mut s, &params, &facing_ladder(false), false)
            .0
            .unwrap();
        let gap = s.position.z - w.brushes()[1].maxs().z;
        assert!((gap - STOP).abs() < 0.05, "tick {t}: {gap} {s:?}");
    }
    assert!(s.velocity.y.abs() < 1e-3, "holding it, not falling: {s:?}");
}

#[test]
fn a_push_off_from_a_moving_ladder_keeps_its_velocity() {
    let params = MoveParams::quake3();
    let v = Vec3::new(100.0, 80.0, 0.0);
    let mut w = ladder_level();
    let mut s = MoverState::new(Vec3::new(0.0, 100.0, STOP));
    for _ in 0..10 {
        call(&mut w, 1, v, &mut s, &params, &facing_ladder(false), false)
            .0
            .unwrap();
    }
    let (_, ev) = call(&mut w, 1, v, &mut s, &params, &facing_ladder(true), false);
    assert!(ev.jumped, "{ev:?}");
    // The push-off (270 along the normal, +Z) plus the ladder's velocity.
    let want = Vec3::new(100.0, 80.0, params.ladder_jump_speed);
    assert!((s.velocity - want).length() < 1e-3, "{s:?}");
}

/// [`Solid`] with water: a pool's surface at `surface` over `x, z ∈ (−512, 512)`. Its ground is
/// the demo's solid level's (`SolidGround::probe`): the body's footprint traced down, the trace's
/// end (a skin above the surface); where the footprint is in a solid, that solid's top.
struct Pool<'a> {
    world: &'a Level,
    surface: f32,
}

impl crate::ground::GroundProbe for Pool<'_> {
    const SOLID: bool = true;
    const TRACE_GUARD: TraceGuard = <Solid<&Level> as crate::ground::GroundProbe>::TRACE_GUARD;

    fn probe(&self, p: Vec3) -> Option<crate::ground::GroundHit> {
        let (mins, maxs) = (Vec3::new(-R, 0.0, -R), Vec3::new(R, 0.0, R));
        let t = self
            .world
            .trace(p, p - Vec3::new(0.0, 4096.0, 0.0), mins, maxs);
        if t.start_solid {
            let s = self.world.contents(p, mins, maxs).solid?;
            let top = self.world.brushes()[usize::from(s)].maxs().y + self.world.skin();
            return Some(crate::ground::GroundHit {
                height: top,
                normal: Vec3::Y,
            });
        }
        (t.fraction < 1.0 && t.plane.normal.y > 0.0).then_some(crate::ground::GroundHit {
            height: t.end.y,
            normal: t.plane.normal,
        })
    }
    fn clearance(&self, feet: Vec3) -> f32 {
        Solid(self.world).clearance(feet)
    }
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        self.world.trace(start, end, mins, maxs)
    }
    fn carrier(&self, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<Carrier> {
        self.world.carrier(feet, mins, maxs)
    }
    fn solid_flags(&self) -> SolidFlags {
        self.world.flags_present()
    }
    fn water(&self, feet: Vec3) -> Option<f32> {
        let inside = feet.x.abs() < 512.0 && feet.z.abs() < 512.0;
        inside.then_some(self.surface)
    }
}

/// The pool's floor (solid 0, its top at 0) and a raft in it (solid 1), 128 wide, its top at 116.
fn raft_level() -> Level {
    let mut w = Level::new();
    w.push(aabb((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0)))
        .unwrap();
    w.push(aabb((-64.0, 100.0, -64.0), (64.0, 116.0, 64.0)))
        .unwrap();
    w
}

fn pool(w: &Level) -> Pool<'_> {
    Pool {
        world: w,
        surface: 400.0,
    }
}

#[test]
fn a_swimmer_on_a_moving_floor_is_carried_and_keeps_its_velocity_on_leaving() {
    // A raft (solid 1) moving under a swimmer standing on it (the water far over its eyes):
    // carried with it, sideways, up and down.
    for (params, subs) in [(MoveParams::quake3(), 1), (quake3_in_four(), 4)] {
        for v in [
            Vec3::new(150.0, 0.0, 60.0),
            Vec3::new(0.0, 120.0, 0.0),
            Vec3::new(-80.0, -90.0, 0.0),
        ] {
            let mut w = raft_level();
            let mut s = rider(0.0, 0.0);
            s.position.y = 116.125;
            // Settle on the floor first (the raft still).
            for _ in 0..5 {
                call(&mut w, 1, Vec3::ZERO, &mut s, &params, &stand(), true)
                    .0
                    .unwrap();
            }
            assert!(s.grounded, "{s:?}");
            assert_eq!(movement::water_level(&pool(&w), s.position, &params), 3);
            let offset = s.position - w.brushes()[1].mins();
            for t in 0..40 {
                let (moved, ev) = call(&mut w, 1, v, &mut s, &params, &stand(), true);
                moved.unwrap();
                assert_eq!(ev.substeps, subs);
                let now = s.position - w.brushes()[1].mins();
                assert!(
                    (now - offset).length() < 0.05,
                    "{v:?} tick {t}: offset {now:?}, was {offset:?} {s:?}"
                );
                assert!(s.grounded, "{v:?} tick {t}: {s:?}");
            }
            // Swimming up off it (the jump key): the raft's velocity kept, in the world (then
            // slowed by the water's friction over the call's later sub-steps: a fifth at most).
            let up = MoveInput::new(Vec2::ZERO, true, Vec2::new(0.0, -1.0));
            call(&mut w, 1, v, &mut s, &params, &up, true).0.unwrap();
            assert!(!s.grounded, "{s:?}");
            for (got, want) in [(s.velocity.x, v.x), (s.velocity.z, v.z)] {
                assert!(
                    (got - want).abs() <= 0.2 * want.abs() + 1e-3,
                    "{v:?}: {s:?}"
                );
            }
        }
    }
}

#[test]
fn a_swimmer_above_a_moving_floor_is_not_carried_until_the_floor_reaches_it() {
    // Floating 40 over the raft (water jump out of reach, no wish: it sinks at 60/s): the raft
    // sliding under it leaves it where it was, not standing on it is not carried (Quake III:
    // only a mover's riders and what it moves into move with it); rising into it, it pushes it.
    let params = MoveParams::quake3();
    let mut w = floor_and_platform();
    let mut s = MoverState::new(Vec3::new(0.0, 56.0, 0.0));
    for t in 0..5 {
        call(
            &mut w,
            1,
            Vec3::new(300.0, 0.0, 0.0),
            &mut s,
            &params,
            &stand(),
            true,
        )
        .0
        .unwrap();
        assert!(!s.grounded && s.position.x == 0.0, "tick {t}: {s:?}");
    }
    let mut w = floor_and_platform();
    let mut s = MoverState::new(Vec3::new(0.0, 56.0, 0.0));
    let mut lifted = 0;
    for _ in 0..60 {
        call(
            &mut w,
            1,
            Vec3::new(0.0, 240.0, 0.0),
            &mut s,
            &params,
            &stand(),
            true,
        )
        .0
        .unwrap();
        let top = w.brushes()[1].maxs().y;
        assert!(s.position.y >= top - 1e-3, "{s:?} top {top}");
        if s.position.y > 56.0 + 1.0 {
            lifted += 1;
        }
    }
    assert!(lifted > 40, "{lifted}");
}

#[test]
fn a_swimmer_is_pushed_by_a_moving_wall_and_a_crushed_one_blocks_it() {
    // The pusher of `a_body_in_the_way_is_pushed…` in a pool, the swimmer floating in front of
    // it (no floor within reach): pushed ahead, never inside, never through the far wall; pinned
    // against it, it blocks the pusher.
    let mut w = Level::new();
    w.push(aabb((-4096.0, -16.0, -4096.0), (4096.0, 0.0, 4096.0)))
        .unwrap();
    let pusher = w
        .push(aabb((-64.0, 0.0, -64.0), (0.0, 256.0, 64.0)))
        .unwrap();
    w.push(aabb((200.0, 0.0, -512.0), (216.0, 256.0, 512.0)))
        .unwrap();
    for params in [MoveParams::quake3(), quake3_in_four()] {
        let mut w = w.clone();
        let mut s = MoverState::new(Vec3::new(24.0, 100.0, 0.0));
        let (mut pushed, mut blocked) = (0, 0);
        for _ in 0..120 {
            let x = s.position.x;
            let v = Vec3::new(300.0, 0.0, 0.0);
            match call(&mut w, pusher, v, &mut s, &params, &stand(), true).0 {
                Ok(_) if s.position.x > x + 1.0 => pushed += 1,
                Ok(_) => {}
                Err(MoveSolidError::Blocked(0)) => blocked += 1,
                Err(e) => panic!("{e:?}"),
            }
            assert!(s.position.x <= 200.0 - STOP + 1e-3, "{s:?}");
            assert!(w.brushes()[1].maxs().x <= s.position.x - R + 1e-3, "{s:?}");
        }
        assert!(pushed > 20 && blocked > 20, "{pushed} {blocked}");
    }
}
