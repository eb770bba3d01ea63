//! [`Brush::from_planes`]'s construction: corners by plane triples, facets, edge bevels.
//!
//! Work is bounded by the input size: at most `C(16 + 6, 3) = 1,540` triples, each checked
//! against 22 planes, once per brush (at level load, never per trace). All `f32`, no FMA, the
//! same bits on every machine.

use super::brush::{Brush, BrushError, MAX_INPUT_PLANES};
use super::flags::SolidFlags;
use super::plane::Plane;
use super::MAX_COORD;
use crate::math::Vec3;

/// Input planes plus the six limit planes at ±[`MAX_COORD`].
const MAX_ALL: usize = MAX_INPUT_PLANES + 6;
/// Most distinct corners kept.
const MAX_CORNERS: usize = 64;
/// Below this `|n_i · (n_j × n_k)|` three planes are taken as meeting in no single point.
const MIN_TRIPLE_DET: f32 = 1.0e-4;
/// Above this `|n · n'|` two unit normals are the same direction.
const SAME_DIRECTION: f32 = 1.0 - 1.0e-5;

/// The corners found so far and which planes each lies on (bit `i` = plane `i`).
struct Corners {
    at: [Vec3; MAX_CORNERS],
    on: [u32; MAX_CORNERS],
    len: usize,
}

impl Corners {
    /// The corners found, each with its plane bits, in the order found.
    fn iter(&self) -> impl Iterator<Item = (Vec3, u32)> + '_ {
        self.at
            .iter()
            .copied()
            .zip(self.on.iter().copied())
            .take(self.len)
    }
}

/// `it`'s items with their indices, as `enumerate` gives them but counted by a bounded range
/// (`enumerate`'s counter is a `+= 1` that an overflow-checked build checks).
#[inline]
fn indexed<I: Iterator>(it: I) -> impl Iterator<Item = (usize, I::Item)> {
    (0..usize::MAX).zip(it)
}

/// Bit `i` of a corner's plane bits (0 for `i ≥ 32`, which no plane index reaches: at most
/// [`MAX_ALL`] planes). A shift that cannot overflow, so no panic path.
#[inline]
fn bit(i: usize) -> u32 {
    u32::try_from(i)
        .ok()
        .and_then(|i| 1u32.checked_shl(i))
        .unwrap_or(0)
}

/// The construction. Every array access is an iterator or a `get` (no bounds check, so no panic
/// path: the panic-check image can build brushes from planes), every shift is [`bit`], and
/// every count is a saturating sum (its values are small: no overflow check either).
pub(super) fn build(input: &[Plane]) -> Result<Brush, BrushError> {
    if input.len() > MAX_INPUT_PLANES {
        return Err(BrushError::TooManyPlanes);
    }
    let mut all = [Plane::NONE; MAX_ALL];
    let mut scale = 1.0f32;
    for (i, (slot, p)) in indexed(all.iter_mut().zip(input)) {
        let q = Plane::new(p.normal, p.dist).ok_or(BrushError::DegeneratePlane(i as u8))?;
        scale = scale.max(q.dist.abs());
        *slot = q;
    }
    let n_in = input.len();
    // The limit box: a corner on one of these planes means the input is open (or too far).
    let limits = [Vec3::X, Vec3::Y, Vec3::Z].into_iter().flat_map(|axis| {
        [
            Plane {
                normal: axis,
                dist: MAX_COORD,
            },
            Plane {
                normal: -axis,
                dist: MAX_COORD,
            },
        ]
    });
    for (slot, limit) in all.iter_mut().skip(n_in).zip(limits) {
        *slot = limit;
    }
    let n_all = n_in.saturating_add(6);
    // `n_all ≤ MAX_ALL` (checked above): `get` finds it.
    let Some(planes) = all.get(..n_all) else {
        return Err(BrushError::TooManyPlanes);
    };
    // Coordinates are up to `scale`; corners from three planes carry a few ulps of it.
    let tol = 1.0e-5 * (1.0 + scale);

    // Filled in place: returned by value, the 1 KB of corners was copied on the stack (a
    // Cortex-M0 with 16 KiB of RAM builds its brushes too).
    let mut corners = Corners {
        at: [Vec3::ZERO; MAX_CORNERS],
        on: [0; MAX_CORNERS],
        len: 0,
    };
    find_corners(planes, tol, &mut corners)?;
    let corners = &corners;
    let Some((first, _)) = corners.iter().next() else {
        return Err(BrushError::Empty);
    };
    let limit_bits = !bit(n_in).wrapping_sub(1);
    let mut mins = first;
    let mut maxs = first;
    for (v, on) in corners.iter() {
        if on & limit_bits != 0 {
            return Err(BrushError::Unbounded);
        }
        mins = Vec3::new(mins.x.min(v.x), mins.y.min(v.y), mins.z.min(v.z));
        maxs = Vec3::new(maxs.x.max(v.x), maxs.y.max(v.y), maxs.z.max(v.z));
    }

    // Facets: input planes touching at least three corners, duplicates dropped.
    let inputs = planes.get(..n_in).unwrap_or(&[]);
    let mut facet = [false; MAX_INPUT_PLANES];
    for (i, p) in indexed(inputs.iter()) {
        let touching = corners
            .iter()
            .filter(|&(_, on)| on & bit(i) != 0)
            .fold(0u32, |n, _| n.saturating_add(1));
        let duplicate = facet
            .iter()
            .zip(inputs)
            .take(i)
            .any(|(&f, q)| f && q.normal.dot(p.normal) > SAME_DIRECTION);
        if let Some(f) = facet.get_mut(i) {
            *f = touching >= 3 && !duplicate;
        }
    }

    let mut brush = Brush::from_box(mins, maxs);
    for (&f, p) in facet.iter().zip(inputs) {
        if f && !p.is_axial() {
            let Some(slot) = brush.planes.get_mut(usize::from(brush.count)) else {
                return Err(BrushError::TooManyPlanes);
            };
            *slot = *p;
            brush.count = brush.count.saturating_add(1);
        }
    }
    add_bevels(&mut brush, inputs, &facet, corners, tol);
    brush.flags = SolidFlags::NONE;
    Ok(brush)
}

/// Every point where three planes meet that lies inside all of them, merged within `tol`, into
/// `corners` (empty).
fn find_corners(planes: &[Plane], tol: f32, corners: &mut Corners) -> Result<(), BrushError> {
    for (i, &a) in indexed(planes.iter()) {
        for (j, &b) in indexed(planes.iter()).skip(i.saturating_add(1)) {
            let ij = a.normal.cross(b.normal);
            for &c in planes.iter().skip(j.saturating_add(1)) {
                let det = a.normal.dot(b.normal.cross(c.normal));
                if det.abs() < MIN_TRIPLE_DET {
                    continue;
                }
                // Cramer's rule; |det| ≥ MIN_TRIPLE_DET guards the divide.
                let v = (b.normal.cross(c.normal) * a.dist
                    + c.normal.cross(a.normal) * b.dist
                    + ij * c.dist)
                    * (1.0 / det);
                if !v.is_finite() || planes.iter().any(|p| p.distance(v) > tol) {
                    continue;
                }
                let on = indexed(planes.iter())
                    .filter(|(_, p)| p.distance(v).abs() <= tol)
                    .fold(0u32, |m, (q, _)| m | bit(q));
                let len = corners.len;
                let same =
                    corners
                        .at
                        .iter()
                        .zip(corners.on.iter_mut())
                        .take(len)
                        .find(|(at, _)| {
                            let d = **at - v;
                            d.x.abs() <= tol && d.y.abs() <= tol && d.z.abs() <= tol
                        });
                if let Some((_, m)) = same {
                    *m |= on;
                    continue;
                }
                let (Some(at), Some(m)) = (corners.at.get_mut(len), corners.on.get_mut(len)) else {
                    return Err(BrushError::TooManyPlanes);
                };
                *at = v;
                *m = on;
                corners.len = len.saturating_add(1);
            }
        }
    }
    Ok(())
}

/// q3map's edge bevels: for every edge (two facets sharing two corners) and every axis, the plane
/// containing the edge and parallel to the axis, when the solid lies on one side of it.
fn add_bevels(brush: &mut Brush, planes: &[Plane], facet: &[bool], corners: &Corners, tol: f32) {
    for (i, (pi, &fi)) in indexed(planes.iter().zip(facet)) {
        for (j, (pj, &fj)) in indexed(planes.iter().zip(facet)).skip(i.saturating_add(1)) {
            if !(fi && fj) {
                continue;
            }
            let both = bit(i) | bit(j);
            let mut shared = corners.iter().filter(|&(_, on)| on & both == both);
            let (Some((a, _)), Some(_)) = (shared.next(), shared.next()) else {
                continue;
            };
            let edge = pi.normal.cross(pj.normal);
            for axis in [Vec3::X, Vec3::Y, Vec3::Z] {
                let Some(normal) = edge.cross(axis).try_normalize() else {
                    continue;
                };
                if near_axial(normal) {
                    continue;
                }
                let (mut lo, mut hi) = (f32::INFINITY, f32::NEG_INFINITY);
                for (c, _) in corners.iter() {
                    let d = normal.dot(c);
                    lo = lo.min(d);
                    hi = hi.max(d);
                }
                let at_edge = normal.dot(a);
                let bevel = if at_edge >= hi - tol {
                    Plane { normal, dist: hi }
                } else if at_edge <= lo + tol {
                    Plane {
                        normal: -normal,
                        dist: -lo,
                    }
                } else {
                    continue;
                };
                let known = brush
                    .sloped_planes()
                    .iter()
                    .any(|p| p.normal.dot(bevel.normal) > SAME_DIRECTION);
                if known {
                    continue;
                }
                if let Some(slot) = brush.planes.get_mut(usize::from(brush.count)) {
                    *slot = bevel;
                    brush.count = brush.count.saturating_add(1);
                } else {
                    brush.missing_bevels = brush.missing_bevels.saturating_add(1);
                }
            }
        }
    }
}

/// A unit normal within 1e-6 of a coordinate axis: the bounding box already is that plane.
fn near_axial(n: Vec3) -> bool {
    let small =
        (n.x.abs() < 1.0e-6) as u8 + (n.y.abs() < 1.0e-6) as u8 + (n.z.abs() < 1.0e-6) as u8;
    small >= 2
}

#[cfg(test)]
pub(super) mod tests {
    use super::*;

    /// A plane `n·x = d` (the normal as given).
    pub(in crate::collide) fn p(x: f32, y: f32, z: f32, d: f32) -> Plane {
        Plane {
            normal: Vec3::new(x, y, z),
            dist: d,
        }
    }

    /// The six planes of the cube from −1 to 1.
    pub(in crate::collide) fn unit_cube() -> [Plane; 6] {
        [
            p(1.0, 0.0, 0.0, 1.0),
            p(-1.0, 0.0, 0.0, 1.0),
            p(0.0, 1.0, 0.0, 1.0),
            p(0.0, -1.0, 0.0, 1.0),
            p(0.0, 0.0, 1.0, 1.0),
            p(0.0, 0.0, -1.0, 1.0),
        ]
    }

    #[test]
    fn a_cube_from_planes_is_its_box() {
        let b = Brush::from_planes(&unit_cube()).unwrap();
        assert_eq!(b.mins(), Vec3::new(-1.0, -1.0, -1.0));
        assert_eq!(b.maxs(), Vec3::new(1.0, 1.0, 1.0));
        assert!(b.sloped_planes().is_empty() && b.is_exact());
    }

    #[test]
    fn a_corner_cut_needs_no_bevel() {
        // The cut meets the cube's faces at obtuse angles: no edge is extreme along any
        // edge × axis direction, so the face alone (with the box) is the exact Minkowski sum.
        let mut planes = [Plane::NONE; 7];
        planes[..6].copy_from_slice(&unit_cube());
        planes[6] = p(1.0, 1.0, 1.0, 2.0); // cuts the (+1, +1, +1) corner
        let b = Brush::from_planes(&planes).unwrap();
        assert_eq!(b.maxs(), Vec3::new(1.0, 1.0, 1.0));
        assert_eq!(b.sloped_planes().len(), 1, "{:?}", b.sloped_planes());
        assert!(b.is_exact());
    }

    #[test]
    fn a_tetrahedron_gets_a_bevel_per_acute_edge() {
        let planes = [
            p(-1.0, 0.0, 0.0, 0.0),
            p(0.0, -1.0, 0.0, 0.0),
            p(0.0, 0.0, -1.0, 0.0),
            p(1.0, 1.0, 1.0, 1.0),
        ];
        let b = Brush::from_planes(&planes).unwrap();
        assert!((b.maxs().x - 1.0).abs() < 1e-5 && b.mins().x.abs() < 1e-5);
        let sloped = b.sloped_planes();
        assert_eq!(sloped.len(), 4, "{sloped:?}");
        assert!(b.is_exact());
        let h = core::f32::consts::FRAC_1_SQRT_2;
        // The face, then the bevels (0, 1, 1), (1, 0, 1), (1, 1, 0) through its three edges.
        for (bevel, want) in sloped[1..].iter().zip([
            Vec3::new(0.0, h, h),
            Vec3::new(h, 0.0, h),
            Vec3::new(h, h, 0.0),
        ]) {
            assert!((bevel.normal - want).length() < 1e-5, "{bevel:?}");
            assert!((bevel.dist - h).abs() < 1e-5, "{bevel:?}");
        }
    }

    #[test]
    fn bad_inputs_are_errors() {
        let mut planes = unit_cube();
        planes[2] = p(0.0, 0.0, 0.0, 1.0);
        assert_eq!(
            Brush::from_planes(&planes),
            Err(BrushError::DegeneratePlane(2))
        );
        planes[2] = p(0.0, f32::NAN, 0.0, 1.0);
        assert_eq!(
            Brush::from_planes(&planes),
            Err(BrushError::DegeneratePlane(2))
        );
        // Open on top.
        assert_eq!(
            Brush::from_planes(&unit_cube()[..5]),
            Err(BrushError::Unbounded)
        );
        // Two opposite half-spaces that do not meet.
        let mut empty = unit_cube();
        empty[0] = p(1.0, 0.0, 0.0, -2.0);
        assert_eq!(Brush::from_planes(&empty), Err(BrushError::Empty));
        assert_eq!(Brush::from_planes(&[]), Err(BrushError::Unbounded));
        let many = [p(0.0, 1.0, 0.0, 1.0); MAX_INPUT_PLANES + 1];
        assert_eq!(Brush::from_planes(&many), Err(BrushError::TooManyPlanes));
    }
}
