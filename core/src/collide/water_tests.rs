//! Water volumes of a [`World`] ([`World::add_water`], [`Tracer::water`]): the query's edges
//! (the surface, the side faces, below the bottom, overlaps, NaN/inf), the full list, traces
//! that never see water, and a body among solids that walks into a world pool, swims, sinks to
//! its floor and leaves it with a water jump onto a solid ledge (`movement::step` on [`Solid`]).

use super::*;
use crate::ground::GroundProbe;
use crate::math::{Vec2, Vec3};
use crate::movement::{self, body_box, MoveInput, MoveParams, MoverState};

const DT: f32 = 1.0 / 60.0;
type Level = World<16>;

fn v(x: f32, y: f32, z: f32) -> Vec3 {
    Vec3::new(x, y, z)
}

fn water(a: (f32, f32, f32), b: (f32, f32, f32)) -> WaterVolume {
    WaterVolume::new(v(a.0, a.1, a.2), v(b.0, b.1, b.2)).unwrap()
}

fn aabb(a: (f32, f32, f32), b: (f32, f32, f32)) -> Brush {
    Brush::aabb(v(a.0, a.1, a.2), v(b.0, b.1, b.2)).unwrap()
}

/// The next float away from zero (`x` finite, not zero): just beyond a face at `x`.
fn beyond(x: f32) -> f32 {
    f32::from_bits(x.to_bits() + 1)
}

#[test]
fn a_world_without_water_is_dry_everywhere() {
    let mut w = Level::new();
    w.push(aabb((-64.0, -16.0, -64.0), (64.0, 0.0, 64.0)))
        .unwrap();
    for p in [v(0.0, 0.0, 0.0), v(0.0, -8.0, 0.0), v(1e6, -1e6, 0.0)] {
        assert_eq!(w.water(p), None);
        assert_eq!(Solid(&w).water(p), None);
    }
    assert!(w.waters().is_empty());
}

#[test]
fn the_surface_is_answered_inside_the_box_faces_included() {
    let mut w = Level::new();
    // Corners in any order: reordered.
    let i = w
        .add_water(water((64.0, 10.0, 32.0), (-64.0, -100.0, -32.0)))
        .unwrap();
    assert_eq!(i, 0);
    assert_eq!(w.waters()[0].mins(), v(-64.0, -100.0, -32.0));
    assert_eq!(w.waters()[0].maxs(), v(64.0, 10.0, 32.0));
    let s = Some(10.0);
    // Inside, deep and shallow.
    assert_eq!(w.water(v(0.0, -50.0, 0.0)), s);
    assert_eq!(w.water(v(0.0, 9.0, 0.0)), s);
    // On the surface: in the volume (its top face), the surface answered; the water level of
    // feet there is 0 (a point is under the surface only when below it).
    assert_eq!(w.water(v(0.0, 10.0, 0.0)), s);
    assert_eq!(
        movement::water_level(&Solid(&w), v(0.0, 10.0, 0.0), &MoveParams::quakeworld()),
        0
    );
    // Just above the surface: dry.
    assert_eq!(w.water(v(0.0, beyond(10.0), 0.0)), None);
    // The bottom face is in; just below it (under the pool's floor) is dry.
    assert_eq!(w.water(v(0.0, -100.0, 0.0)), s);
    assert_eq!(w.water(v(0.0, beyond(-100.0), 0.0)), None);
    assert_eq!(w.water(v(0.0, -1000.0, 0.0)), None);
    // The four side faces are in, the next float beyond each is out (beside the volume: dry,
    // whatever the height).
    for (x, z) in [(-64.0, 0.0), (64.0, 0.0), (0.0, -32.0), (0.0, 32.0)] {
        assert_eq!(w.water(v(x, -50.0, z)), s, "{x} {z}");
        let (ox, oz) = (
            if x == 0.0 { 0.0 } else { beyond(x) },
            if z == 0.0 { 0.0 } else { beyond(z) },
        );
        assert_eq!(w.water(v(ox, -50.0, oz)), None, "{ox} {oz}");
    }
    // The edges and corners are faces too.
    assert_eq!(w.water(v(64.0, 10.0, 32.0)), s);
    assert_eq!(w.water(v(-64.0, -100.0, -32.0)), s);
}

#[test]
fn nan_and_infinite_points_are_dry() {
    let mut w = Level::new();
    w.add_water(water((-1e5, -1e5, -1e5), (1e5, 1e5, 1e5)))
        .unwrap();
    for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
        for p in [v(bad, 0.0, 0.0), v(0.0, bad, 0.0), v(0.0, 0.0, bad)] {
            assert_eq!(w.water(p), None, "{p:?}");
            assert_eq!(
                movement::water_level(&Solid(&w), p, &MoveParams::quakeworld()),
                0
            );
        }
    }
    assert_eq!(w.water(v(0.0, 0.0, 0.0)), Some(1e5));
}

#[test]
fn bad_corners_are_rejected() {
    use super::BrushError;
    let ok = v(0.0, 0.0, 0.0);
    for (bad, e) in [
        (f32::NAN, BrushError::NonFinite),
        (f32::INFINITY, BrushError::NonFinite),
        (2.0 * MAX_COORD, BrushError::OutOfRange),
        (-2.0 * MAX_COORD, BrushError::OutOfRange),
    ] {
        assert_eq!(WaterVolume::new(v(bad, 0.0, 0.0), ok), Err(e));
        assert_eq!(WaterVolume::new(ok, v(0.0, 0.0, bad)), Err(e));
    }
    // A flat volume is allowed: its points are at the surface (level 0).
    let flat = WaterVolume::new(v(0.0, 5.0, 0.0), v(8.0, 5.0, 8.0)).unwrap();
    assert!(flat.contains(v(4.0, 5.0, 4.0)) && !flat.contains(v(4.0, 4.0, 4.0)));
}

/// Overlapping volumes: the highest surface among those containing the point, whatever the
/// order they were added in; a volume that does not contain the point (above it, or its column
/// elsewhere) does not count.
#[test]
fn overlapping_volumes_answer_the_highest_surface_containing_the_point() {
    let shallow = water((0.0, -20.0, 0.0), (100.0, 0.0, 100.0));
    let deep = water((50.0, -80.0, 0.0), (100.0, -10.0, 100.0));
    let tank = water((60.0, 40.0, 0.0), (70.0, 60.0, 10.0)); // a tank hung above
    for order in [
        [shallow, deep, tank],
        [tank, deep, shallow],
        [deep, tank, shallow],
    ] {
        let mut w = Level::new();
        for (i, vol) in order.iter().enumerate() {
            assert_eq!(w.add_water(*vol), Ok(i as u16));
        }
        // Both contain it: the higher top.
        assert_eq!(w.water(v(75.0, -15.0, 50.0)), Some(0.0));
        // Only the deep one reaches down here.
        assert_eq!(w.water(v(75.0, -50.0, 50.0)), Some(-10.0));
        // Only the shallow one's column.
        assert_eq!(w.water(v(25.0, -15.0, 50.0)), Some(0.0));
        assert_eq!(w.water(v(25.0, -50.0, 50.0)), None);
        // Under the tank but not in it: the tank does not count.
        assert_eq!(w.water(v(65.0, -5.0, 5.0)), Some(0.0));
        assert_eq!(w.water(v(65.0, 20.0, 5.0)), None);
        assert_eq!(w.water(v(65.0, 50.0, 5.0)), Some(60.0));
    }
}

#[test]
fn a_full_list_is_an_error_and_changes_nothing() {
    let mut w = Level::new();
    for i in 0..MAX_WATER_VOLUMES {
        let x = i as f32 * 10.0;
        assert_eq!(
            w.add_water(water((x, 0.0, 0.0), (x + 5.0, i as f32, 5.0))),
            Ok(i as u16)
        );
    }
    let before = w.waters().to_vec();
    assert_eq!(
        w.add_water(water((-50.0, -50.0, -50.0), (50.0, 50.0, 50.0))),
        Err(WorldFull)
    );
    assert_eq!(w.waters(), &before[..]);
    // The rejected volume is not answered: (1, 0.5, 1) is in the first only.
    assert_eq!(w.water(v(1.0, -10.0, 1.0)), None);
    // The solids are a separate list: still room for them.
    assert_eq!(w.push(aabb((0.0, -1.0, 0.0), (1.0, 0.0, 1.0))), Ok(0));
    // `clear` empties the water too.
    w.clear();
    assert!(w.waters().is_empty() && w.is_empty());
    assert_eq!(w.water(v(1.0, 0.0, 1.0)), None);
}

/// Water never blocks: a world's traces and contents are the same bits with and without it.
#[test]
fn water_blocks_no_trace() {
    let mut dry = Level::new();
    dry.push(aabb((-256.0, -16.0, -256.0), (256.0, 0.0, 256.0)))
        .unwrap();
    dry.push(aabb((100.0, 0.0, -256.0), (116.0, 128.0, 256.0)))
        .unwrap();
    let mut wet = dry.clone();
    wet.add_water(water((-256.0, -16.0, -256.0), (256.0, 64.0, 256.0)))
        .unwrap();
    let (mins, maxs) = (v(-15.0, 0.0, -15.0), v(15.0, 56.0, 15.0));
    let mut rng = crate::rng::Pcg32::new(3, 5);
    for _ in 0..500 {
        let s = v(
            rng.range_f32(-200.0, 200.0),
            rng.range_f32(-40.0, 100.0),
            rng.range_f32(-200.0, 200.0),
        );
        let d = v(rng.signed_unit(), rng.signed_unit(), rng.signed_unit()) * 150.0;
        assert_eq!(
            wet.trace(s, s + d, mins, maxs),
            dry.trace(s, s + d, mins, maxs)
        );
        assert_eq!(wet.contents(s, mins, maxs), dry.contents(s, mins, maxs));
    }
    // A trace inside the water's volume and nowhere near a solid goes all the way.
    let t = wet.trace(v(0.0, 20.0, 0.0), v(50.0, 20.0, 0.0), mins, maxs);
    assert_eq!((t.fraction, t.solid), (1.0, None));
}

/// The pool level (Quake units, `MoveParams::quakeworld`, facing +X): a floor whose top is 0
/// for `x < 0`, a pool 256 long with its floor at −96 and water up to −8, and a ledge beyond it
/// (`x > 256`) whose top is 0 — the water jump's wall.
const SURFACE: f32 = -8.0;
const POOL_FLOOR: f32 = -96.0;
const LEDGE_X: f32 = 256.0;

fn pool_level() -> Level {
    let mut w = Level::new();
    w.push(aabb((-512.0, -112.0, -512.0), (0.0, 0.0, 512.0)))
        .unwrap();
    w.push(aabb((0.0, -112.0, -512.0), (LEDGE_X, POOL_FLOOR, 512.0)))
        .unwrap();
    w.push(aabb((LEDGE_X, -112.0, -512.0), (768.0, 0.0, 512.0)))
        .unwrap();
    // Into the floor a little: feet resting on the pool floor are in it.
    w.add_water(water(
        (0.0, POOL_FLOOR - 4.0, -512.0),
        (LEDGE_X, SURFACE, 512.0),
    ))
    .unwrap();
    w
}

fn forward(jump: bool) -> MoveInput {
    MoveInput::new(Vec2::new(1.0, 0.0), jump, Vec2::new(1.0, 0.0))
}

fn still() -> MoveInput {
    MoveInput::new(Vec2::ZERO, false, Vec2::new(1.0, 0.0))
}

/// True when the body's box overlaps a solid by more than 1/1024.
fn inside(w: &Level, s: &MoverState, params: &MoveParams) -> bool {
    let (mins, maxs) = body_box(s, params);
    let e = v(1.0 / 1024.0, 1.0 / 1024.0, 1.0 / 1024.0);
    w.contents(s.position, mins + e, maxs - e).solid.is_some()
}

/// A body walks off the floor into the world's pool and swims (level ≥ 2), left alone sinks to
/// the pool's floor and stands on it, submerged; then, swimming up and forward at the far wall,
/// it leaves with a water jump and lands on the solid ledge. Nothing here asserts how the water
/// move meets walls (the swept water move's own tests do: `movement/water_solid_tests.rs`): only
/// the levels, the floor, the jump and the landing.
#[test]
fn a_body_walks_into_a_world_pool_swims_sinks_and_water_jumps_out() {
    let w = pool_level();
    let probe = Solid(&w);
    let params = MoveParams::quakeworld();
    let level = |s: &MoverState| movement::water_level(&probe, s.position, &params);
    let mut s = MoverState::new(v(-100.0, 0.125, 0.0));

    // Walk in: off the edge at x = 0, into the water.
    let mut swam = false;
    for _ in 0..180 {
        movement::step(&mut s, &params, &forward(false), &probe, DT);
        assert!(s.is_finite());
        if level(&s) >= 2 {
            swam = true;
            break;
        }
    }
    assert!(swam, "never swam: {s:?}");
    assert!(s.position.x > 0.0 && s.position.x < LEDGE_X);
    assert_eq!(probe.water(s.position), Some(SURFACE));

    // Left alone: sinks (Quake's 60 units/s drift) to the pool's floor and stays there, under
    // water (level 3: the eyes 46 above the feet, the water 88 deep).
    let mut lowest = s.position.y;
    for _ in 0..240 {
        movement::step(&mut s, &params, &still(), &probe, DT);
        assert!(s.is_finite());
        lowest = lowest.min(s.position.y);
    }
    assert!(s.grounded, "not on the pool floor: {s:?}");
    assert!(
        (s.position.y - POOL_FLOOR).abs() <= 0.25,
        "feet at {}",
        s.position.y
    );
    assert!(
        lowest >= POOL_FLOOR - 0.25,
        "sank through the floor: {lowest}"
    );
    assert_eq!(level(&s), 3);
    assert!(!inside(&w, &s, &params));

    // Swim up and forward to the far wall, holding jump: at the surface (level 2) by the wall,
    // the spot ahead is solid (the ledge) and the one above free, so the water jump fires; the
    // body lands on the ledge (top 0) beyond the pool.
    let mut jumped = false;
    for _ in 0..600 {
        movement::step(&mut s, &params, &forward(true), &probe, DT);
        assert!(s.is_finite());
        jumped |= s.water_jump_timer != 0.0;
        if s.grounded && s.position.x > LEDGE_X && s.position.y >= 0.0 {
            break;
        }
    }
    assert!(jumped, "no water jump: {s:?}");
    assert!(
        s.grounded && s.position.x > LEDGE_X && (s.position.y - 0.125).abs() <= 0.25,
        "not on the ledge: {s:?}"
    );
    assert_eq!(level(&s), 0);
    assert!(!inside(&w, &s, &params));
}
