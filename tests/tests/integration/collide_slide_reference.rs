#![allow(clippy::needless_range_loop, clippy::neg_cmp_op_on_partial_ord)]
//! The slide and step rules (`movement::slide`) against a plain restatement of Quake III's
//! `PM_SlideMove` / `PM_StepSlideMove` (`bg_slidemove.c`), written here from the algorithm in the
//! style of the C (indices, one plane array, early returns), with hopkit's documented differences
//! as marked steps (docs/movement-features.md, "Collision"): Quake II's stop when the velocity
//! turns against the original one, walking onto other walkable ground keeping the planar
//! velocity, QuakeWorld's keep-the-step-if-it-went-further, and the `surf` switch (on here). Both
//! are fed the same trace answers (the same `World`), on random brush worlds, random bodies,
//! starts, velocities and ticks; the results must be the same bits.

use hopkit::collide::{Brush, Plane, Solid, Toward, Tracer, World};
use hopkit::math::{scalar, Vec3};
use hopkit::movement::{slide_move, step_slide_move, SlideHits};
use hopkit::movement::{MoveParams, MoverState};
use hopkit::rng::Pcg32;

const OVERCLIP: f32 = 1.001;

fn clip(v: Vec3, n: Vec3) -> Vec3 {
    let mut backoff = v.x * n.x + v.y * n.y + v.z * n.z;
    if backoff < 0.0 {
        backoff *= OVERCLIP;
    } else {
        backoff /= OVERCLIP;
    }
    Vec3::new(
        v.x - n.x * backoff,
        v.y - n.y * backoff,
        v.z - n.z * backoff,
    )
}

fn dot(a: Vec3, b: Vec3) -> f32 {
    a.x * b.x + a.y * b.y + a.z * b.z
}

/// `VectorNormalize`, with hopkit's guard (a tiny or non-finite vector has no direction).
fn normalize(v: Vec3) -> Option<Vec3> {
    let l2 = dot(v, v);
    if !(l2 > 1.0e-12 && l2 <= f32::MAX) {
        return None;
    }
    let inv = 1.0 / scalar::sqrt(l2);
    Some(Vec3::new(v.x * inv, v.y * inv, v.z * inv))
}

fn cross(a: Vec3, b: Vec3) -> Vec3 {
    Vec3::new(
        a.y * b.z - a.z * b.y,
        a.z * b.x - a.x * b.z,
        a.x * b.y - a.y * b.x,
    )
}

fn walkable(p: &MoveParams, n: Vec3) -> bool {
    p.is_walkable(n)
}

/// `PM_SlideMove(qfalse)` with hopkit's marked steps. Returns (hit, wall, stuck).
#[allow(clippy::too_many_arguments)]
fn ref_slide(
    w: &impl Tracer,
    p: &MoveParams,
    origin: &mut Vec3,
    velocity: &mut Vec3,
    mins: Vec3,
    maxs: Vec3,
    frametime: f32,
    ground: Option<Vec3>,
) -> (bool, bool, bool) {
    let eps = p.max_speed * (0.1 / 320.0);
    let primal = *velocity;
    let mut planes = [Vec3::ZERO; 5];
    let mut numplanes = 0;
    if let Some(g) = ground {
        planes[0] = g;
        numplanes = 1;
    }
    if let Some(d) = normalize(*velocity) {
        planes[numplanes] = d;
        numplanes += 1;
    }
    let (mut hit, mut wall) = (false, false);
    let mut time_left = frametime;
    let mut bumpcount = 0;
    while bumpcount < 4 {
        bumpcount += 1;
        let end = Vec3::new(
            origin.x + velocity.x * time_left,
            origin.y + velocity.y * time_left,
            origin.z + velocity.z * time_left,
        );
        let trace = w.trace(*origin, end, mins, maxs);
        if trace.all_solid {
            velocity.y = 0.0;
            return (true, wall, true);
        }
        if trace.fraction > 0.0 {
            *origin = trace.end;
        }
        if trace.fraction >= 1.0 {
            break;
        }
        hit = true;
        let normal = trace.plane.normal;
        if !walkable(p, normal) {
            wall = true;
        }
        time_left -= time_left * trace.fraction;
        // hopkit: walking onto other walkable ground follows it, planar velocity kept.
        if ground.is_some() && walkable(p, normal) && dot(normal, planes[0]) < 0.99 {
            let vy = -(normal.x * velocity.x + normal.z * velocity.z) / normal.y;
            velocity.y = if vy.is_finite() { vy } else { 0.0 };
            planes[0] = normal;
            continue;
        }
        if numplanes >= 5 {
            *velocity = Vec3::ZERO;
            return (hit, wall, false);
        }
        let mut i = 0;
        while i < numplanes {
            if dot(normal, planes[i]) > 0.99 {
                *velocity = Vec3::new(
                    velocity.x + normal.x,
                    velocity.y + normal.y,
                    velocity.z + normal.z,
                );
                break;
            }
            i += 1;
        }
        if i < numplanes {
            continue;
        }
        planes[numplanes] = normal;
        numplanes += 1;
        for i in 0..numplanes {
            if dot(*velocity, planes[i]) >= eps {
                continue;
            }
            let mut clip_v = clip(*velocity, planes[i]);
            let mut stop = false;
            for j in 0..numplanes {
                if j == i || dot(clip_v, planes[j]) >= eps {
                    continue;
                }
                clip_v = clip(clip_v, planes[j]);
                if dot(clip_v, planes[i]) >= 0.0 {
                    continue;
                }
                let Some(dir) = normalize(cross(planes[i], planes[j])) else {
                    stop = true;
                    break;
                };
                let d = dot(dir, *velocity);
                clip_v = Vec3::new(dir.x * d, dir.y * d, dir.z * d);
                for k in 0..numplanes {
                    if k != i && k != j && dot(clip_v, planes[k]) < eps {
                        stop = true;
                    }
                }
                if stop {
                    break;
                }
            }
            if stop {
                *velocity = Vec3::ZERO;
                return (hit, wall, false);
            }
            *velocity = clip_v;
            break;
        }
        // hopkit (Quake II): turned against the original velocity: stop.
        if !(dot(*velocity, primal) > 0.0) {
            *velocity = Vec3::ZERO;
            return (hit, wall, false);
        }
    }
    (hit, wall, false)
}

/// `PM_StepSlideMove` with QuakeWorld's choice.
fn ref_step(
    w: &impl Tracer,
    p: &MoveParams,
    s: &mut MoverState,
    (mins, maxs): (Vec3, Vec3),
    frametime: f32,
    ground: Option<Vec3>,
) -> (bool, bool, bool) {
    let (start_o, start_v) = (s.position, s.velocity);
    let first = ref_slide(
        w,
        p,
        &mut s.position,
        &mut s.velocity,
        mins,
        maxs,
        frametime,
        ground,
    );
    if !first.0 || first.2 || !(p.step_up > 0.0) {
        return first;
    }
    let stepsize = p.step_up;
    let down = Vec3::new(start_o.x, start_o.y - stepsize, start_o.z);
    let trace = w.trace(start_o, down, mins, maxs);
    if s.velocity.y > 0.0 && (trace.fraction >= 1.0 || !walkable(p, trace.plane.normal)) {
        return first;
    }
    let (down_o, down_v) = (s.position, s.velocity);
    let up = Vec3::new(start_o.x, start_o.y + stepsize, start_o.z);
    let trace = w.trace(start_o, up, mins, maxs);
    if trace.all_solid {
        return first;
    }
    let step = trace.end.y - start_o.y;
    let (mut o, mut v) = (trace.end, start_v);
    let second = ref_slide(w, p, &mut o, &mut v, mins, maxs, frametime, ground);
    let trace = w.trace(o, Vec3::new(o.x, o.y - step, o.z), mins, maxs);
    if !trace.all_solid {
        o = trace.end;
    }
    if trace.fraction < 1.0 {
        v = clip(v, trace.plane.normal);
    }
    // QuakeWorld: keep the step only if it went further and came down on walkable ground.
    let d2 =
        |q: Vec3| (q.x - start_o.x) * (q.x - start_o.x) + (q.z - start_o.z) * (q.z - start_o.z);
    let lands = trace.fraction >= 1.0 || walkable(p, trace.plane.normal);
    if trace.all_solid || !lands || !(d2(o) > d2(down_o)) {
        s.position = down_o;
        s.velocity = down_v;
        return first;
    }
    s.position = o;
    s.velocity = Vec3::new(v.x, down_v.y, v.z);
    second
}

/// A random level: a floor, and boxes, ramps, steps and slanted slabs around the origin.
fn random_world(rng: &mut Pcg32) -> World<24> {
    let mut w = World::<24>::new();
    let _ = w.push(
        Brush::aabb(
            Vec3::new(-512.0, -16.0, -512.0),
            Vec3::new(512.0, 0.0, 512.0),
        )
        .unwrap(),
    );
    for _ in 0..rng.below(20) {
        let c = Vec3::new(
            rng.range_f32(-128.0, 96.0),
            0.0,
            rng.range_f32(-128.0, 96.0),
        );
        let size = Vec3::new(
            rng.range_f32(4.0, 96.0),
            rng.range_f32(4.0, 96.0),
            rng.range_f32(4.0, 96.0),
        );
        let lift = rng.range_f32(0.0, 64.0) * (rng.below(3) == 0) as u32 as f32;
        let a = Vec3::new(c.x, lift, c.z);
        let b = Vec3::new(c.x + size.x, lift + size.y, c.z + size.z);
        let brush = match rng.below(4) {
            0 => Brush::aabb(a, b),
            1 => Brush::ramp(
                a,
                b,
                [Toward::PlusX, Toward::MinusX, Toward::PlusZ, Toward::MinusZ]
                    [rng.below(4) as usize],
            ),
            _ => {
                // A slab slanted about Y (a wall at an angle), 8 to 24 thick.
                let ang = rng.range_f32(0.0, core::f32::consts::TAU);
                let n = Vec3::new(scalar::cos(ang), 0.0, scalar::sin(ang));
                let t = Vec3::new(-n.z, 0.0, n.x);
                let thick = rng.range_f32(8.0, 24.0);
                let len = rng.range_f32(32.0, 200.0);
                let planes = [
                    Plane::through(n, a),
                    Plane::through(n * -1.0, a - n * thick),
                    Plane::through(t, a + t * len),
                    Plane::through(t * -1.0, a),
                    Plane::new(Vec3::UP, lift + size.y),
                    Plane::new(Vec3::new(0.0, -1.0, 0.0), -lift),
                ];
                if planes.iter().any(Option::is_none) {
                    continue;
                }
                Brush::from_planes(&planes.map(Option::unwrap))
            }
        };
        if let Ok(brush) = brush {
            let _ = w.push(brush);
        }
    }
    w
}

#[test]
fn slide_and_step_are_quake_iiis_rules_bit_for_bit() {
    let mut rng = Pcg32::seeded(3434);
    let mut seen = [0u32; 5]; // hit, wall, stuck, stepped, crease/stop (zero velocity)
    for case in 0..4000u32 {
        let w = random_world(&mut rng);
        let p = if case % 2 == 0 {
            MoveParams::quake3()
        } else {
            MoveParams::source()
        };
        let r = p.body_radius;
        let h = if rng.below(4) == 0 {
            p.crouch_height
        } else {
            p.stand_height
        };
        let (mins, maxs) = (Vec3::new(-r, 0.0, -r), Vec3::new(r, h, r));
        let start = Vec3::new(
            rng.range_f32(-120.0, 120.0),
            rng.range_f32(0.125, 80.0),
            rng.range_f32(-120.0, 120.0),
        );
        if w.trace(start, start, mins, maxs).start_solid {
            continue;
        }
        let grounded = rng.below(2) == 0;
        let ground = grounded.then_some(Vec3::UP);
        let speed = rng.range_f32(0.0, 3000.0);
        let ang = rng.range_f32(0.0, core::f32::consts::TAU);
        let vy = if grounded {
            0.0
        } else {
            rng.range_f32(-800.0, 400.0)
        };
        let v = Vec3::new(scalar::cos(ang) * speed, vy, scalar::sin(ang) * speed);
        let dt = [1.0 / 60.0, 1.0 / 125.0, 1.0 / 250.0, 0.05][rng.below(4) as usize];

        let solid = Solid(&w);
        let (mut o1, mut v1) = (start, v);
        let got = slide_move(&solid, &p, &mut o1, &mut v1, mins, maxs, dt, ground);
        let (mut o2, mut v2) = (start, v);
        let want = ref_slide(&w, &p, &mut o2, &mut v2, mins, maxs, dt, ground);
        assert_eq!(
            (o1.x.to_bits(), o1.y.to_bits(), o1.z.to_bits(), v1.x.to_bits(), v1.y.to_bits(), v1.z.to_bits()),
            (o2.x.to_bits(), o2.y.to_bits(), o2.z.to_bits(), v2.x.to_bits(), v2.y.to_bits(), v2.z.to_bits()),
            "case {case}: slide from {start:?} at {v:?} ({dt}, ground {ground:?}): {o1:?} {v1:?} != {o2:?} {v2:?}"
        );
        assert_eq!((got.hit, got.wall, got.stuck), want, "case {case}");

        let mut a = MoverState::new(start);
        a.velocity = v;
        let mut b = a;
        let got = step_slide_move(&solid, &p, &mut a, (mins, maxs), dt, ground);
        let want = ref_step(&w, &p, &mut b, (mins, maxs), dt, ground);
        assert_eq!(
            a.position, b.position,
            "case {case}: step from {start:?} at {v:?}"
        );
        assert_eq!(a.velocity, b.velocity, "case {case}");
        assert_eq!((got.hit, got.wall, got.stuck), want, "case {case}");
        let SlideHits { hit, wall, stuck } = got;
        seen[0] += hit as u32;
        seen[1] += wall as u32;
        seen[2] += stuck as u32;
        seen[3] += (a.position.y > start.y + 1.0 && grounded) as u32;
        seen[4] += (hit && a.velocity == Vec3::ZERO) as u32;
        assert!(a.position.is_finite() && a.velocity.is_finite());
        assert!(
            !w.trace(a.position, a.position, mins, maxs).start_solid,
            "case {case}: ended inside"
        );
    }
    // Hits, walls, steps up and dead stops all happened.
    eprintln!("hits, walls, stuck, steps up, dead stops: {seen:?}");
    assert!(
        seen[0] > 250 && seen[1] > 180 && seen[3] > 25 && seen[4] > 8,
        "{seen:?}"
    );
}
