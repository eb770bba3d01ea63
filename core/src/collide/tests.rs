//! The world and its trace: hits, misses, start/all-solid, ties, capacity, hostile input, the grid
//! against a scan of every solid.

use super::trace::{clip_brush, finish, Best, Sweep};
use super::*;
use crate::math::Vec3;
use crate::rng::Pcg32;

const MINS: Vec3 = Vec3::new(-16.0, 0.0, -16.0);
const MAXS: Vec3 = Vec3::new(16.0, 56.0, 16.0);

fn aabb(a: (f32, f32, f32), b: (f32, f32, f32)) -> Brush {
    Brush::aabb(Vec3::new(a.0, a.1, a.2), Vec3::new(b.0, b.1, b.2)).unwrap()
}

/// The trace over every solid in index order, no grid: what the grid must reproduce.
fn brute<const N: usize>(w: &World<N>, s: Vec3, e: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
    let (sw, bounds) = Sweep::new(s, e, mins, maxs, w.skin());
    let mut best = Best::new();
    for (i, b) in w.brushes().iter().enumerate() {
        clip_brush(&sw, &bounds, b, i as u16, &mut best);
    }
    finish(&sw, &best, w.brushes())
}

fn finite(t: &TraceResult) -> bool {
    t.end.is_finite()
        && t.plane.normal.is_finite()
        && t.plane.dist.is_finite()
        && (0.0..=1.0).contains(&t.fraction)
}

#[test]
fn a_wall_stops_the_box_one_skin_in_front() {
    let mut w = World::<4>::new();
    w.push(aabb((64.0, 0.0, -64.0), (80.0, 128.0, 64.0)))
        .unwrap();
    let t = w.trace(Vec3::ZERO, Vec3::new(128.0, 0.0, 0.0), MINS, MAXS);
    assert_eq!(t.solid, Some(0));
    assert_eq!(
        t.plane,
        Plane {
            normal: Vec3::new(-1.0, 0.0, 0.0),
            dist: -64.0
        }
    );
    assert!((t.end.x - 47.875).abs() < 1e-4, "{t:?}");
    assert!((t.fraction - 47.875 / 128.0).abs() < 1e-6);
    assert!(!t.start_solid && !t.all_solid);
    // Backwards, away from it: clear, end exactly the requested end.
    let back = w.trace(Vec3::ZERO, Vec3::new(-128.0, 3.0, 0.0), MINS, MAXS);
    assert_eq!(back, TraceResult::clear(Vec3::new(-128.0, 3.0, 0.0)));
    // Sliding along it within the skin is free.
    let along = w.trace(
        Vec3::new(47.9, 0.0, 0.0),
        Vec3::new(47.9, 0.0, 40.0),
        MINS,
        MAXS,
    );
    assert_eq!(along.fraction, 1.0);
    // Already within the skin and pushing in: stays put.
    let push = w.trace(
        Vec3::new(47.9, 0.0, 0.0),
        Vec3::new(60.0, 0.0, 0.0),
        MINS,
        MAXS,
    );
    assert_eq!((push.fraction, push.end), (0.0, Vec3::new(47.9, 0.0, 0.0)));
}

#[test]
fn falling_onto_a_ramp_hits_its_slope() {
    let mut w = World::<4>::new();
    let ramp = Brush::ramp(
        Vec3::new(0.0, 0.0, -64.0),
        Vec3::new(128.0, 64.0, 64.0),
        Toward::PlusX,
    )
    .unwrap();
    w.push(ramp).unwrap();
    let t = w.trace(
        Vec3::new(64.0, 100.0, 0.0),
        Vec3::new(64.0, -10.0, 0.0),
        MINS,
        MAXS,
    );
    let n = ramp.sloped_planes()[0].normal;
    assert_eq!(t.plane.normal, n);
    // The box corner deepest behind the slope (n.x < 0: maxs.x; n.y > 0: mins.y) stops a
    // skin in front of it.
    let corner = t.end + Vec3::new(MAXS.x, 0.0, 0.0);
    let gap = ramp.sloped_planes()[0].distance(corner);
    assert!((gap - SURFACE_CLIP_EPSILON).abs() < 1e-3, "{gap}");
}

#[test]
fn a_brief_corner_overlap_is_not_crossed() {
    // Fast along X, slow along Z: the point is inside the box's (10, ·, 10) edge only for
    // t ∈ [0.4875, 0.495]. Quake III's leaving fraction (d1 + ε) closes that window (its trace
    // passes through the corner, 0.01 deep); the ε-expanded window stops it in front.
    let mut w = World::<2>::new();
    w.push(aabb((0.0, 0.0, 0.0), (10.0, 10.0, 10.0))).unwrap();
    let (s, e) = (Vec3::new(13.9, 5.0, 9.01), Vec3::new(5.9, 5.0, 11.01));
    let t = w.trace(s, e, Vec3::ZERO, Vec3::ZERO);
    assert_eq!(t.solid, Some(0));
    assert!(t.fraction < 0.4875 && t.fraction > 0.45, "{t:?}");
    assert_eq!(t.plane.normal, Vec3::X);
}

#[test]
fn start_solid_and_all_solid() {
    let mut w = World::<4>::new();
    w.push(aabb((-8.0, 0.0, -8.0), (8.0, 8.0, 8.0))).unwrap();
    let p = Vec3::new(0.0, 4.0, 0.0);
    // Moving inside it: never leaves.
    let t = w.trace(p, p + Vec3::new(1.0, 0.0, 0.0), Vec3::ZERO, Vec3::ZERO);
    assert!(t.start_solid && t.all_solid);
    assert_eq!((t.fraction, t.end, t.solid), (0.0, p, Some(0)));
    // Moving out of it: free (Quake III: the solid you start in does not hold you).
    let out = w.trace(p, Vec3::new(0.0, 4.0, 40.0), Vec3::ZERO, Vec3::ZERO);
    assert!(out.start_solid && !out.all_solid);
    assert_eq!((out.fraction, out.solid), (1.0, None));
    // A position test (no move) inside is all-solid.
    let still = w.trace(p, p, MINS, MAXS);
    assert!(still.all_solid && still.fraction == 0.0);
    assert_eq!(w.contents(p, MINS, MAXS).solid, Some(0));
}

#[test]
fn ties_go_to_the_lowest_index_whatever_the_grid_order() {
    // Two wall pieces hit at the same fraction; index 1 sits in an earlier grid row (lower Z).
    let mut w = World::<8>::new();
    w.push(aabb((64.0, 0.0, 8.0), (80.0, 64.0, 200.0))).unwrap();
    w.push(aabb((64.0, 0.0, -200.0), (80.0, 64.0, -8.0)))
        .unwrap();
    let t = w.trace(Vec3::ZERO, Vec3::new(100.0, 0.0, 0.0), MINS, MAXS);
    assert_eq!(t.solid, Some(0));
    // Identical solids: the first.
    let mut twins = World::<8>::new();
    twins
        .push(aabb((64.0, 0.0, -8.0), (80.0, 64.0, 8.0)))
        .unwrap();
    twins
        .push(aabb((64.0, 0.0, -8.0), (80.0, 64.0, 8.0)))
        .unwrap();
    assert_eq!(
        twins
            .trace(Vec3::ZERO, Vec3::new(100.0, 0.0, 0.0), MINS, MAXS)
            .solid,
        Some(0)
    );
    let inside = twins.trace(
        Vec3::new(70.0, 1.0, 0.0),
        Vec3::new(71.0, 1.0, 0.0),
        Vec3::ZERO,
        Vec3::ZERO,
    );
    assert_eq!((inside.all_solid, inside.solid), (true, Some(0)));
}

#[test]
fn a_full_world_says_so_and_keeps_its_solids() {
    let mut w = World::<2>::new();
    assert!(w.is_empty());
    assert_eq!(w.push(aabb((0.0, 0.0, 0.0), (1.0, 1.0, 1.0))), Ok(0));
    assert_eq!(w.push(aabb((2.0, 0.0, 0.0), (3.0, 1.0, 1.0))), Ok(1));
    let third = aabb((4.0, 0.0, 0.0), (5.0, 1.0, 1.0));
    assert_eq!(w.push(third), Err(WorldFull));
    assert!(w.is_full() && w.len() == 2);
    // Still traces both.
    let t = w.trace(
        Vec3::new(-1.0, 0.5, 0.5),
        Vec3::new(10.0, 0.5, 0.5),
        Vec3::ZERO,
        Vec3::ZERO,
    );
    assert_eq!(t.solid, Some(0));
    // `extend` keeps what fits.
    let mut e = World::<2>::new();
    let three = [third, third, aabb((9.0, 0.0, 0.0), (9.5, 1.0, 1.0))];
    assert_eq!(e.extend(three), Err(WorldFull));
    assert_eq!(e.len(), 2);
    e.clear();
    assert!(e.is_empty());
    let t = e.trace(Vec3::ZERO, Vec3::new(10.0, 0.0, 0.0), MINS, MAXS);
    assert_eq!(t.fraction, 1.0);
    // A world of capacity 0 is valid and empty.
    let mut none = World::<0>::new();
    assert!(none.push(third).is_err());
    assert_eq!(none.trace(Vec3::ZERO, Vec3::X, MINS, MAXS).fraction, 1.0);
}

#[test]
fn hostile_inputs_give_finite_answers() {
    let mut w = World::<8>::new();
    w.push(aabb((-100.0, -1.0, -100.0), (100.0, 0.0, 100.0)))
        .unwrap();
    w.push(
        Brush::ramp(
            Vec3::new(10.0, 0.0, -10.0),
            Vec3::new(30.0, 10.0, 10.0),
            Toward::PlusX,
        )
        .unwrap(),
    )
    .unwrap();
    let bad = [
        f32::NAN,
        f32::INFINITY,
        f32::NEG_INFINITY,
        f32::MAX,
        -f32::MAX,
        1.0e30,
        -0.0,
        1.0e-40,
        5.0,
    ];
    let mut n = 0;
    for &a in &bad {
        for &b in &bad {
            let v = |x, y| Vec3::new(x, y, x);
            for (s, e, lo, hi) in [
                (v(a, b), v(b, a), MINS, MAXS),
                (Vec3::new(0.0, 1.0, 0.0), v(a, b), MINS, MAXS),
                (
                    Vec3::new(0.0, 1.0, 0.0),
                    Vec3::new(20.0, 1.0, 0.0),
                    v(a, b),
                    v(b, a),
                ),
                (v(a, a), v(b, b), Vec3::ZERO, Vec3::ZERO),
            ] {
                let t = w.trace(s, e, lo, hi);
                assert!(finite(&t), "{s:?} {e:?} {lo:?} {hi:?}: {t:?}");
                assert_eq!(t, brute(&w, s, e, lo, hi));
                let c = w.contents(s, lo, hi);
                assert!(c.solid.is_none_or(|i| i < 2));
                n += 1;
            }
        }
    }
    assert_eq!(n, 4 * bad.len() * bad.len());
    // An inverted box is the same box.
    let a = w.trace(
        Vec3::new(0.0, 5.0, 0.0),
        Vec3::new(50.0, 5.0, 0.0),
        MINS,
        MAXS,
    );
    let b = w.trace(
        Vec3::new(0.0, 5.0, 0.0),
        Vec3::new(50.0, 5.0, 0.0),
        MAXS,
        MINS,
    );
    assert_eq!(a, b);
    // A non-finite end is no move.
    let p = Vec3::new(0.0, 5.0, 0.0);
    let t = w.trace(p, Vec3::new(f32::NAN, 0.0, 0.0), MINS, MAXS);
    assert_eq!((t.fraction, t.end), (1.0, p));
}

#[test]
fn skins_are_checked() {
    let w = World::<1>::new()
        .with_skin(f32::NAN)
        .with_skin(-1.0)
        .with_skin(f32::INFINITY);
    assert_eq!(w.skin(), SURFACE_CLIP_EPSILON);
    assert_eq!(World::<1>::new().with_skin(1.0e9).skin(), MAX_SKIN);
    let mut m = World::<1>::new().with_skin(1.0 / 256.0);
    m.push(aabb((2.0, 0.0, -1.0), (3.0, 3.0, 1.0))).unwrap();
    let body = (Vec3::new(-0.25, 0.0, -0.25), Vec3::new(0.25, 1.8, 0.25));
    let t = m.trace(Vec3::ZERO, Vec3::new(5.0, 0.0, 0.0), body.0, body.1);
    assert!((t.end.x - (1.75 - 1.0 / 256.0)).abs() < 1e-5, "{t:?}");
}

#[test]
fn contents_reports_flags_of_every_overlapping_solid() {
    let mut w = World::<4>::new();
    w.push(aabb((0.0, 0.0, 0.0), (1.0, 4.0, 1.0)).with_flags(SolidFlags(1 << 16)))
        .unwrap();
    w.push(aabb((1.0, 0.0, 0.0), (2.0, 4.0, 1.0)).with_flags(SolidFlags::LADDER))
        .unwrap();
    let c = w.contents(
        Vec3::new(1.0, 1.0, 0.5),
        Vec3::new(-0.1, 0.0, -0.1),
        Vec3::new(0.1, 1.0, 0.1),
    );
    assert_eq!(c.solid, Some(0));
    assert_eq!(c.flags, SolidFlags(1 << 16 | 1));
    let free = w.contents(Vec3::new(5.0, 1.0, 0.5), Vec3::ZERO, Vec3::ZERO);
    assert_eq!(free, Contents::default());
    // The trait's default (via a zero-length trace) agrees on the solid.
    struct ViaTrace<'a>(&'a World<4>);
    impl Tracer for ViaTrace<'_> {
        fn trace(&self, s: Vec3, e: Vec3, lo: Vec3, hi: Vec3) -> TraceResult {
            self.0.trace(s, e, lo, hi)
        }
    }
    let d = ViaTrace(&w).contents(Vec3::new(1.5, 1.0, 0.5), Vec3::ZERO, Vec3::ZERO);
    assert_eq!((d.solid, d.flags), (Some(1), SolidFlags::LADDER));
}

/// A 256-solid level of floor, walls, stairs and ramps (also measured in `benches`).
fn level() -> World<256> {
    let mut w = World::<256>::new();
    w.push(aabb((-1024.0, -16.0, -1024.0), (1024.0, 0.0, 1024.0)))
        .unwrap();
    let mut rng = Pcg32::new(34, 2);
    while !w.is_full() {
        let x = rng.range_f32(-960.0, 900.0);
        let z = rng.range_f32(-960.0, 900.0);
        let brush = match rng.below(3) {
            0 => aabb((x, 0.0, z), (x + rng.range_f32(8.0, 64.0), 128.0, z + 8.0)),
            1 => Brush::ramp(
                Vec3::new(x, 0.0, z),
                Vec3::new(x + 64.0, rng.range_f32(8.0, 64.0), z + 48.0),
                Toward::PlusX,
            )
            .unwrap(),
            _ => {
                let n = w.brushes().len();
                let room = (256 - n).min(4) as u16;
                let _ = w.extend(
                    Brush::stairs(Vec3::new(x, 0.0, z), Toward::MinusZ, room, 16.0, 16.0, 48.0)
                        .unwrap(),
                );
                continue;
            }
        };
        let _ = w.push(brush);
    }
    w
}

#[test]
fn the_grid_finds_what_a_scan_of_every_solid_finds() {
    let w = level();
    let mut rng = Pcg32::new(7, 11);
    let mut hits = 0;
    for i in 0..400 {
        let s = Vec3::new(
            rng.range_f32(-1000.0, 1000.0),
            rng.range_f32(0.0, 80.0),
            rng.range_f32(-1000.0, 1000.0),
        );
        let reach = if i % 4 == 0 { 1500.0 } else { 40.0 };
        let d = Vec3::new(
            rng.signed_unit(),
            rng.signed_unit() * 0.3,
            rng.signed_unit(),
        ) * reach;
        let t = w.trace(s, s + d, MINS, MAXS);
        assert_eq!(t, brute(&w, s, s + d, MINS, MAXS), "{s:?} {d:?}");
        hits += t.solid.is_some() as u32;
    }
    assert!(hits > 50, "{hits}");
}

#[test]
fn world_sizes() {
    let brush = core::mem::size_of::<Brush>();
    assert_eq!(brush, 128);
    let world = core::mem::size_of::<World<256>>();
    if cfg!(target_pointer_width = "64") {
        assert_eq!(world, 36_312, "update the docs of `collide` and `World`");
    }
    // 540 bytes of grid, skin and flags, 28 per moving solid (`MAX_MOVING_SOLIDS` of them), 24
    // per water volume (`MAX_WATER_VOLUMES`) and three `usize` lengths, padded to the `usize`
    // alignment.
    let unpadded = 256 * 138
        + 540
        + 28 * MAX_MOVING_SOLIDS
        + 24 * MAX_WATER_VOLUMES
        + 3 * core::mem::size_of::<usize>();
    let align = core::mem::align_of::<World<256>>();
    assert_eq!(world, unpadded.div_ceil(align) * align);
    assert!(world < 36 * 1024);
}
