//! `hopkit::collide`'s box trace against an independent double-precision reference (issue 34 §4)
//! on random worlds of boxes and convex brushes, and hostile worlds and inputs.
//!
//! The reference is written here from scratch in `f64`: each brush's corners by intersecting its
//! defining planes three at a time, its edges, and from them the faces of the Minkowski sum of
//! the moving box and the brush (the brush's faces, the box's six axes, and every edge × axis
//! plane that supports the brush). Against it:
//! - **never inside**: the box at the trace's end overlaps no brush (a full separating-axis test
//!   over brush faces, box axes and every edge × axis direction) by more than `INSIDE_TOL`;
//! - **never past contact**: the fraction is at most the exact first-contact time (skin 0);
//! - **fraction**: the same clip rule (Quake III's, skin 1/8, with hopkit's leaving fraction
//!   `(d1 − ε)/(d1 − d2)`) run on the reference's exact faces
//!   in `f64` gives the same fraction within `FRACTION_TOL` (cases where moving the skin by
//!   ±`SKIN_BRACKET` changes the reference's answer are borderline and accepted between those
//!   answers);
//! - **start / all solid** agree wherever the start (end) is more than `SKIN_BRACKET` from the
//!   brush surface.

use hopkit::collide::{Brush, Plane, Tracer, World, SURFACE_CLIP_EPSILON};
use hopkit::math::Vec3;
use hopkit::rng::Pcg32;

/// Depth (units) the end box may overlap a brush through `f32` rounding (coordinates ≤ 200).
const INSIDE_TOL: f64 = 1.0e-4;
/// Fraction agreement with the `f64` reference (moves ≥ 1 unit long, coordinates ≤ 200).
const FRACTION_TOL: f64 = 1.0e-4;
/// Distance from a decision threshold (units) within which `f32` and `f64` may decide apart.
const SKIN_BRACKET: f64 = 1.0e-3;

type D3 = [f64; 3];

fn d3(v: Vec3) -> D3 {
    [f64::from(v.x), f64::from(v.y), f64::from(v.z)]
}
fn dot(a: D3, b: D3) -> f64 {
    a[0] * b[0] + a[1] * b[1] + a[2] * b[2]
}
fn cross(a: D3, b: D3) -> D3 {
    [
        a[1] * b[2] - a[2] * b[1],
        a[2] * b[0] - a[0] * b[2],
        a[0] * b[1] - a[1] * b[0],
    ]
}
fn sub(a: D3, b: D3) -> D3 {
    [a[0] - b[0], a[1] - b[1], a[2] - b[2]]
}
fn scale(a: D3, s: f64) -> D3 {
    [a[0] * s, a[1] * s, a[2] * s]
}
fn unit(a: D3) -> Option<D3> {
    let l = dot(a, a).sqrt();
    (l > 1.0e-9).then(|| scale(a, 1.0 / l))
}
const AXES: [D3; 3] = [[1.0, 0.0, 0.0], [0.0, 1.0, 0.0], [0.0, 0.0, 1.0]];

/// A convex brush in `f64`: corners and separating directions.
struct RefBrush {
    corners: Vec<D3>,
    /// Outward unit normals of the Minkowski sum's faces (Quake's clip planes, exactly).
    faces: Vec<D3>,
    /// Every candidate separating direction (both signs): the complete separating-axis set.
    sat: Vec<D3>,
}

impl RefBrush {
    /// From the defining planes `n · p ≤ d` (the same `f32` numbers hopkit was given).
    fn new(planes: &[(D3, f64)]) -> RefBrush {
        let planes: Vec<(D3, f64)> = planes
            .iter()
            .map(|&(n, d)| {
                let l = dot(n, n).sqrt();
                (scale(n, 1.0 / l), d / l)
            })
            .collect();
        let tol = 1.0e-7 * (1.0 + planes.iter().map(|p| p.1.abs()).fold(0.0, f64::max));
        let mut corners: Vec<(D3, Vec<usize>)> = Vec::new();
        for i in 0..planes.len() {
            for j in i + 1..planes.len() {
                for k in j + 1..planes.len() {
                    let (a, b, c) = (planes[i], planes[j], planes[k]);
                    let det = dot(a.0, cross(b.0, c.0));
                    if det.abs() < 1.0e-9 {
                        continue;
                    }
                    let v = scale(
                        [0, 1, 2].map(|q| {
                            cross(b.0, c.0)[q] * a.1
                                + cross(c.0, a.0)[q] * b.1
                                + cross(a.0, b.0)[q] * c.1
                        }),
                        1.0 / det,
                    );
                    if planes.iter().any(|p| dot(p.0, v) - p.1 > tol) {
                        continue;
                    }
                    let on: Vec<usize> = (0..planes.len())
                        .filter(|&q| (dot(planes[q].0, v) - planes[q].1).abs() <= tol)
                        .collect();
                    if !corners
                        .iter()
                        .any(|(w, _)| sub(*w, v).iter().all(|x| x.abs() <= tol))
                    {
                        corners.push((v, on));
                    }
                }
            }
        }
        assert!(!corners.is_empty());
        let pts: Vec<D3> = corners.iter().map(|c| c.0).collect();
        let mut faces: Vec<D3> = Vec::new();
        let mut sat: Vec<D3> = Vec::new();
        for ax in AXES {
            faces.push(ax);
            faces.push(scale(ax, -1.0));
        }
        for (q, p) in planes.iter().enumerate() {
            if corners.iter().filter(|c| c.1.contains(&q)).count() >= 3 {
                faces.push(p.0);
            }
        }
        // Edges: two corners sharing two planes.
        for x in 0..corners.len() {
            for y in x + 1..corners.len() {
                let shared = corners[x]
                    .1
                    .iter()
                    .filter(|q| corners[y].1.contains(q))
                    .count();
                if shared < 2 {
                    continue;
                }
                let Some(e) = unit(sub(corners[y].0, corners[x].0)) else {
                    continue;
                };
                for ax in AXES {
                    let Some(n) = unit(cross(e, ax)) else {
                        continue;
                    };
                    sat.push(n);
                    sat.push(scale(n, -1.0));
                    // A Minkowski face when the edge is extreme along ±n.
                    let at = dot(n, corners[x].0);
                    let (lo, hi) = pts.iter().fold((f64::MAX, f64::MIN), |(l, h), &p| {
                        (l.min(dot(n, p)), h.max(dot(n, p)))
                    });
                    if at >= hi - tol {
                        faces.push(n);
                    } else if at <= lo + tol {
                        faces.push(scale(n, -1.0));
                    }
                }
            }
        }
        sat.extend(faces.iter().copied());
        RefBrush {
            corners: pts,
            faces,
            sat,
        }
    }

    fn support(&self, a: D3) -> f64 {
        self.corners
            .iter()
            .map(|&p| dot(a, p))
            .fold(f64::MIN, f64::max)
    }

    /// The gap along `a` between the box `p + [lo, hi]` and the brush (≤ 0: overlapping on `a`).
    fn gap(&self, a: D3, p: D3, lo: D3, hi: D3) -> f64 {
        let nearest: f64 = (0..3).map(|i| (a[i] * lo[i]).min(a[i] * hi[i])).sum();
        dot(a, p) + nearest - self.support(a)
    }

    /// Largest gap over the complete separating-axis set: > 0 means apart.
    fn separation(&self, p: D3, lo: D3, hi: D3) -> f64 {
        self.sat
            .iter()
            .map(|&a| self.gap(a, p, lo, hi))
            .fold(f64::MIN, f64::max)
    }

    /// Largest gap over the Minkowski faces (Quake's "distance" to the expanded brush).
    fn face_gap(&self, p: D3, lo: D3, hi: D3) -> f64 {
        self.faces
            .iter()
            .map(|&a| self.gap(a, p, lo, hi))
            .fold(f64::MIN, f64::max)
    }

    /// Quake III's clip (`CM_TraceThroughBrush`) on the exact faces, in `f64`:
    /// `(enter fraction if hit, start solid, all solid)`.
    fn clip(&self, s: D3, e: D3, lo: D3, hi: D3, skin: f64) -> (Option<f64>, bool, bool) {
        let (mut enter, mut leave) = (-1.0f64, 1.0f64);
        let (mut start_out, mut get_out) = (false, false);
        for &a in &self.faces {
            let d1 = self.gap(a, s, lo, hi);
            let d2 = self.gap(a, e, lo, hi);
            if d2 > 0.0 {
                get_out = true;
            }
            if d1 > 0.0 {
                start_out = true;
            }
            if d1 > 0.0 && (d2 >= skin || d2 >= d1) {
                return (None, false, false);
            }
            if d1 <= 0.0 && d2 <= 0.0 {
                continue;
            }
            if d1 > d2 {
                enter = enter.max(((d1 - skin) / (d1 - d2)).max(0.0));
            } else {
                // hopkit's leaving rule (Quake III's is `d1 + skin`: see `collide`'s docs).
                leave = leave.min(((d1 - skin) / (d1 - d2)).min(1.0));
            }
        }
        if !start_out {
            return (None, true, !get_out);
        }
        (
            (enter < leave && enter > -1.0).then_some(enter),
            false,
            false,
        )
    }
}

/// The reference trace over all brushes: `(fraction, start solid, all solid)`.
fn ref_trace(bs: &[RefBrush], s: D3, e: D3, lo: D3, hi: D3, skin: f64) -> (f64, bool, bool) {
    let (mut f, mut ss, mut all) = (1.0f64, false, false);
    for b in bs {
        let (hit, st, al) = b.clip(s, e, lo, hi, skin);
        ss |= st;
        all |= al;
        if let Some(h) = hit {
            f = f.min(h);
        }
    }
    (if all { 0.0 } else { f }, ss, all)
}

/// The exact first-contact time of the box with brush `b` (skin 0, complete axis set), if any.
fn contact(b: &RefBrush, s: D3, e: D3, lo: D3, hi: D3) -> Option<f64> {
    let (mut t0, mut t1) = (0.0f64, 1.0f64);
    for &a in &b.sat {
        let (g0, g1) = (b.gap(a, s, lo, hi), b.gap(a, e, lo, hi));
        if g0 > 0.0 && g1 > 0.0 {
            return None;
        }
        if g0 > 0.0 {
            t0 = t0.max(g0 / (g0 - g1));
        } else if g1 > 0.0 {
            t1 = t1.min(g0 / (g0 - g1));
        }
    }
    (t0 <= t1).then_some(t0)
}

fn v(rng: &mut Pcg32, r: f32) -> Vec3 {
    Vec3::new(
        rng.range_f32(-r, r),
        rng.range_f32(-r, r),
        rng.range_f32(-r, r),
    )
}

/// A random brush: a box, cut by up to two planes (through its inside) that are either ramp-like
/// (one zero component) or general. Returns hopkit's brush and the same planes in `f64`.
fn random_brush(rng: &mut Pcg32) -> Option<(Brush, Vec<(D3, f64)>)> {
    let c = v(rng, 60.0);
    let h = Vec3::new(
        rng.range_f32(0.5, 25.0),
        rng.range_f32(0.5, 25.0),
        rng.range_f32(0.5, 25.0),
    );
    let mut planes: Vec<Plane> = Vec::new();
    for (i, ax) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
        let e = [h.x, h.y, h.z][i];
        let m = [c.x, c.y, c.z][i];
        planes.push(Plane {
            normal: ax,
            dist: m + e,
        });
        planes.push(Plane {
            normal: -ax,
            dist: -(m - e),
        });
    }
    for _ in 0..rng.below(3) {
        let mut n = v(rng, 1.0);
        if rng.below(2) == 0 {
            match rng.below(3) {
                0 => n.x = 0.0,
                1 => n.y = 0.0,
                _ => n.z = 0.0,
            }
        }
        let through = c + Vec3::new(
            h.x * rng.range_f32(-0.5, 0.5),
            h.y * rng.range_f32(-0.5, 0.5),
            h.z * rng.range_f32(-0.5, 0.5),
        );
        let Some(n) = n.try_normalize() else { continue };
        planes.push(Plane {
            normal: n,
            dist: n.dot(through),
        });
    }
    let brush = Brush::from_planes(&planes).ok()?;
    // The reference gets the planes exactly as hopkit stored them after normalising.
    let f64_planes = planes
        .iter()
        .map(|p| {
            let q = Plane::new(p.normal, p.dist).unwrap();
            (d3(q.normal), f64::from(q.dist))
        })
        .collect();
    Some((brush, f64_planes))
}

#[test]
fn box_trace_matches_the_double_precision_reference() {
    let mut rng = Pcg32::new(0x34_02, 7);
    let skin = f64::from(SURFACE_CLIP_EPSILON);
    let (mut cases, mut hits, mut exact_brushes, mut inexact_brushes, mut borderline) =
        (0, 0, 0, 0, 0);
    let (mut start_solids, mut all_solids) = (0, 0);
    let mut worst_fraction: f64 = 0.0;
    let mut worst_inside: f64 = f64::MIN;
    while cases < 1500 {
        let mut world = World::<8>::new();
        let mut refs = Vec::new();
        let mut all_exact = true;
        for _ in 0..1 + rng.below(5) {
            if let Some((b, planes)) = random_brush(&mut rng) {
                all_exact &= b.is_exact();
                if b.is_exact() {
                    exact_brushes += 1;
                } else {
                    inexact_brushes += 1;
                }
                world.push(b).unwrap();
                refs.push(RefBrush::new(&planes));
            }
        }
        if refs.is_empty() {
            continue;
        }
        for _ in 0..8 {
            let size = if rng.below(8) == 0 {
                Vec3::ZERO
            } else {
                Vec3::new(
                    rng.range_f32(0.0, 16.0),
                    rng.range_f32(0.0, 40.0),
                    rng.range_f32(0.0, 16.0),
                )
            };
            let (mins, maxs) = (
                Vec3::new(-size.x, 0.0, -size.z),
                Vec3::new(size.x, size.y, size.z),
            );
            // One start in six inside a brush (start-solid, all-solid), the rest anywhere.
            let start = if rng.below(6) == 0 {
                let b = world.brushes()[rng.below(world.len() as u32) as usize];
                (b.mins() + b.maxs()) * 0.5
            } else {
                v(&mut rng, 100.0)
            };
            // Aim at a brush most of the time.
            let target = if rng.below(4) == 0 {
                start + v(&mut rng, 3.0)
            } else if rng.below(3) == 0 {
                v(&mut rng, 100.0)
            } else {
                let b = world.brushes()[rng.below(world.len() as u32) as usize];
                (b.mins() + b.maxs()) * 0.5 + v(&mut rng, 10.0)
            };
            let end = start + (target - start) * rng.range_f32(0.2, 1.6);
            if (end - start).length() < 1.0 {
                continue;
            }
            cases += 1;
            let t = world.trace(start, end, mins, maxs);
            let (s, e, lo, hi) = (d3(start), d3(end), d3(mins), d3(maxs));
            let at = d3(t.end);
            assert!(t.end.is_finite() && (0.0..=1.0).contains(&t.fraction));

            // Never inside: the end box is apart from every brush it did not start in.
            for (i, b) in refs.iter().enumerate() {
                if b.separation(s, lo, hi) > SKIN_BRACKET {
                    let sep = b.separation(at, lo, hi);
                    worst_inside = worst_inside.max(-sep);
                    assert!(
                        sep > -INSIDE_TOL,
                        "case {cases}: ends inside brush {i} by {}: {t:?}",
                        -sep
                    );
                }
            }
            // Never past the first contact.
            if !t.start_solid {
                let first = refs
                    .iter()
                    .filter_map(|b| contact(b, s, e, lo, hi))
                    .fold(1.0f64, f64::min);
                assert!(
                    f64::from(t.fraction) <= first + FRACTION_TOL,
                    "case {cases}: {t:?} past contact {first}"
                );
            }

            // Start / all solid, away from the thresholds.
            let start_gap = refs
                .iter()
                .map(|b| b.face_gap(s, lo, hi))
                .fold(f64::MAX, f64::min);
            if start_gap.abs() > SKIN_BRACKET {
                assert_eq!(
                    t.start_solid,
                    start_gap <= 0.0,
                    "case {cases}: start gap {start_gap}: {t:?}"
                );
            }
            start_solids += t.start_solid as u32;
            all_solids += t.all_solid as u32;
            let (rf, _, rall) = ref_trace(&refs, s, e, lo, hi, skin);
            let end_gaps_clear = refs
                .iter()
                .all(|b| b.face_gap(e, lo, hi).abs() > SKIN_BRACKET);
            if start_gap.abs() > SKIN_BRACKET && end_gaps_clear {
                assert_eq!(t.all_solid, rall, "case {cases}: {t:?}");
            }

            // The fraction: inexact brushes (a bevel left out) may only stop earlier.
            let f = f64::from(t.fraction);
            if !all_exact {
                assert!(
                    f <= rf + FRACTION_TOL,
                    "case {cases}: {f} vs reference {rf}"
                );
                continue;
            }
            let diff = (f - rf).abs();
            if diff > FRACTION_TOL {
                let (a, _, _) = ref_trace(&refs, s, e, lo, hi, skin - SKIN_BRACKET);
                let (b, _, _) = ref_trace(&refs, s, e, lo, hi, skin + SKIN_BRACKET);
                let (lo_f, hi_f) = (a.min(b).min(rf), a.max(b).max(rf));
                assert!(
                    f >= lo_f - FRACTION_TOL && f <= hi_f + FRACTION_TOL,
                    "case {cases}: fraction {f}, reference {rf} (bracket {lo_f}..{hi_f}): {t:?}"
                );
                borderline += 1;
            } else {
                worst_fraction = worst_fraction.max(diff);
            }
            hits += (t.fraction < 1.0) as u32;
        }
    }
    println!(
        "collide reference: {cases} traces, {hits} hits, {start_solids} start-solid, {all_solids} \
         all-solid, {borderline} borderline; brushes {exact_brushes} exact, {inexact_brushes} with \
         a bevel left out; worst fraction diff {worst_fraction:.2e}, worst overlap {worst_inside:.2e}"
    );
    // The test must exercise what it claims to.
    assert!(hits > 300, "{hits}");
    assert!(
        start_solids > 20 && all_solids > 5,
        "{start_solids} {all_solids}"
    );
    assert!(
        exact_brushes > 10 * inexact_brushes,
        "{exact_brushes} {inexact_brushes}"
    );
    assert!(borderline * 50 < cases, "{borderline}");
}

/// A value from a hostile menu or raw bits: NaN, ±inf, huge, subnormal, ±0, ordinary.
fn hostile(rng: &mut Pcg32) -> f32 {
    match rng.below(10) {
        0 => f32::NAN,
        1 => f32::INFINITY,
        2 => f32::NEG_INFINITY,
        3 => f32::MAX * if rng.below(2) == 0 { 1.0 } else { -1.0 },
        4 => 1.0e-41,
        5 => -0.0,
        6 => f32::from_bits(rng.next_u32()),
        7 => rng.range_f32(-2.0e6, 2.0e6),
        _ => rng.range_f32(-100.0, 100.0),
    }
}

fn hostile3(rng: &mut Pcg32) -> Vec3 {
    Vec3::new(hostile(rng), hostile(rng), hostile(rng))
}

#[test]
fn hostile_worlds_and_inputs_stay_finite() {
    let mut rng = Pcg32::new(34, 99);
    let (mut built, mut rejected, mut traces) = (0, 0, 0);
    for _ in 0..60 {
        let mut world = World::<16>::new().with_skin(hostile(&mut rng));
        assert!(world.skin().is_finite() && world.skin() >= 0.0);
        // Hostile brushes: most are rejected with an error, none panics.
        for _ in 0..40 {
            let made = match rng.below(3) {
                0 => Brush::aabb(hostile3(&mut rng), hostile3(&mut rng)),
                1 => {
                    let mut planes = [Plane::NONE; 7];
                    for p in planes.iter_mut() {
                        *p = Plane {
                            normal: hostile3(&mut rng),
                            dist: hostile(&mut rng),
                        };
                    }
                    // Sometimes a valid box with one hostile (maybe degenerate) extra plane.
                    if rng.below(2) == 0 {
                        let c = v(&mut rng, 50.0);
                        for (i, ax) in [Vec3::X, Vec3::Y, Vec3::Z].into_iter().enumerate() {
                            planes[2 * i] = Plane {
                                normal: ax,
                                dist: ax.dot(c) + 5.0,
                            };
                            planes[2 * i + 1] = Plane {
                                normal: -ax,
                                dist: -ax.dot(c) + 5.0,
                            };
                        }
                    }
                    Brush::from_planes(&planes)
                }
                _ => Brush::ramp(
                    v(&mut rng, 80.0),
                    v(&mut rng, 80.0),
                    hopkit::collide::Toward::MinusZ,
                ),
            };
            match made {
                Ok(b) => {
                    assert!(b.mins().is_finite() && b.maxs().is_finite());
                    assert!(b
                        .sides()
                        .all(|p| p.normal.is_finite() && p.dist.is_finite()));
                    built += 1;
                    let before = world.len();
                    match world.push(b) {
                        Ok(i) => assert_eq!(usize::from(i), before),
                        Err(_) => assert!(world.is_full() && world.len() == before),
                    }
                }
                Err(_) => rejected += 1,
            }
        }
        for _ in 0..50 {
            let (s, e, lo, hi) = (
                hostile3(&mut rng),
                hostile3(&mut rng),
                hostile3(&mut rng),
                hostile3(&mut rng),
            );
            let t = world.trace(s, e, lo, hi);
            assert!(
                t.end.is_finite() && t.plane.normal.is_finite() && t.plane.dist.is_finite(),
                "{s:?} {e:?} {lo:?} {hi:?}: {t:?}"
            );
            assert!((0.0..=1.0).contains(&t.fraction));
            assert!(t.solid.is_none_or(|i| usize::from(i) < world.len()));
            // Pure: the same query, the same bits.
            let again = world.trace(s, e, lo, hi);
            assert_eq!(format!("{t:?}"), format!("{again:?}"));
            let c = world.contents(s, lo, hi);
            assert!(c.solid.is_none_or(|i| usize::from(i) < world.len()));
            traces += 1;
        }
    }
    println!("collide hostile: {built} brushes built, {rejected} rejected, {traces} traces");
    assert!(built > 100 && rejected > 100, "{built} {rejected}");
}
