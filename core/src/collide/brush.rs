//! [`Brush`]: a convex solid, its bounding box plus a few sloped planes; boxes, ramps, stairs.

use super::flags::SolidFlags;
use super::hull;
use super::plane::Plane;
use super::MAX_COORD;
use crate::math::Vec3;

/// Sloped (non-axial) planes a brush stores beyond its six axial ones: its faces plus the edge
/// bevels (see [`Brush::from_planes`]). The axial planes are implicit: they are the brush's
/// bounding box. Each plane costs 16 bytes in every brush.
pub const MAX_BRUSH_PLANES: usize = 6;

/// Most planes [`Brush::from_planes`] accepts (its construction work is cubic in this).
pub const MAX_INPUT_PLANES: usize = 16;

/// Why a brush could not be made.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BrushError {
    /// A coordinate was NaN or infinite.
    NonFinite,
    /// A coordinate was beyond ±[`MAX_COORD`].
    OutOfRange,
    /// The plane at this index (of the input) has a zero, tiny or non-finite normal, or a
    /// non-finite or out-of-range distance.
    DegeneratePlane(u8),
    /// More than [`MAX_INPUT_PLANES`] planes given, more than [`MAX_BRUSH_PLANES`] sloped faces,
    /// or a shape too complex to enumerate (more than 64 corners).
    TooManyPlanes,
    /// The planes enclose nothing (their half-spaces do not intersect).
    Empty,
    /// The planes do not enclose a bounded region inside ±[`MAX_COORD`].
    Unbounded,
}

/// Which way a ramp or a staircase rises (the horizontal direction of going up).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Toward {
    /// Rises towards +X.
    PlusX,
    /// Rises towards −X.
    MinusX,
    /// Rises towards +Z.
    PlusZ,
    /// Rises towards −Z.
    MinusZ,
}

/// A convex solid: the intersection of its axis-aligned bounding box (the six axial planes) and up
/// to [`MAX_BRUSH_PLANES`] sloped planes. Made only by the constructors, which validate it: the
/// box is ordered (`mins ≤ maxs`, possibly flat) and finite within ±[`MAX_COORD`], every plane
/// has a unit normal and a finite distance.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Brush {
    pub(super) mins: Vec3,
    pub(super) maxs: Vec3,
    pub(super) planes: [Plane; MAX_BRUSH_PLANES],
    pub(super) count: u8,
    pub(super) missing_bevels: u8,
    pub(super) flags: SolidFlags,
}

/// `Ok(())` when every component is finite and within ±[`MAX_COORD`].
pub(super) fn check_coords(v: Vec3) -> Result<(), BrushError> {
    if !v.is_finite() {
        return Err(BrushError::NonFinite);
    }
    if v.x.abs() > MAX_COORD || v.y.abs() > MAX_COORD || v.z.abs() > MAX_COORD {
        return Err(BrushError::OutOfRange);
    }
    Ok(())
}

/// Component-wise minimum and maximum of two points.
#[inline]
pub(super) fn ordered(a: Vec3, b: Vec3) -> (Vec3, Vec3) {
    let lo = Vec3::new(a.x.min(b.x), a.y.min(b.y), a.z.min(b.z));
    let hi = Vec3::new(a.x.max(b.x), a.y.max(b.y), a.z.max(b.z));
    (lo, hi)
}

impl Brush {
    /// An axis-aligned box between two corners. The corners may come in any order (an inverted
    /// box is reordered per axis); a flat or zero-size box is allowed (it still blocks).
    /// Errors: [`BrushError::NonFinite`], [`BrushError::OutOfRange`].
    pub fn aabb(a: Vec3, b: Vec3) -> Result<Brush, BrushError> {
        check_coords(a)?;
        check_coords(b)?;
        let (mins, maxs) = ordered(a, b);
        Ok(Brush::from_box(mins, maxs))
    }

    /// A box from already checked, ordered corners.
    pub(super) const fn from_box(mins: Vec3, maxs: Vec3) -> Brush {
        Brush {
            mins,
            maxs,
            planes: [Plane::NONE; MAX_BRUSH_PLANES],
            count: 0,
            missing_bevels: 0,
            flags: SolidFlags::NONE,
        }
    }

    /// A ramp (wedge): the box between the corners `a` and `b` cut by one sloped plane, so its top
    /// rises from the bottom (`min.y`) at one end to the top (`max.y`) at the other, `toward` the
    /// given direction. A ramp with no rise or no run is its box. Errors as [`Brush::aabb`].
    pub fn ramp(a: Vec3, b: Vec3, toward: Toward) -> Result<Brush, BrushError> {
        let mut brush = Brush::aabb(a, b)?;
        let (lo, hi) = (brush.mins, brush.maxs);
        let rise = hi.y - lo.y;
        // The low edge (at the bottom) and the slope's normal (up and back from the rise).
        let (low_edge, normal) = match toward {
            Toward::PlusX => (lo, Vec3::new(-rise, hi.x - lo.x, 0.0)),
            Toward::MinusX => (
                Vec3::new(hi.x, lo.y, lo.z),
                Vec3::new(rise, hi.x - lo.x, 0.0),
            ),
            Toward::PlusZ => (lo, Vec3::new(0.0, hi.z - lo.z, -rise)),
            Toward::MinusZ => (
                Vec3::new(lo.x, lo.y, hi.z),
                Vec3::new(0.0, hi.z - lo.z, rise),
            ),
        };
        if let Some(p) = Plane::through(normal, low_edge) {
            if !p.is_axial() {
                brush.planes[0] = p;
                brush.count = 1;
            }
        }
        Ok(brush)
    }

    /// A straight staircase of `steps` solid steps (each a box from the floor up), the first
    /// step's lower corner at `base`: step `i` spans `run` units along `toward` starting `i·run`
    /// from `base`, `width` units across (along +Z for X stairs, +X for Z stairs) and rises to
    /// `base.y + (i + 1)·rise`. Negative sizes are taken as their magnitude. Errors as
    /// [`Brush::aabb`] for the staircase's whole extent.
    pub fn stairs(
        base: Vec3,
        toward: Toward,
        steps: u16,
        rise: f32,
        run: f32,
        width: f32,
    ) -> Result<Stairs, BrushError> {
        let stairs = Stairs {
            base,
            toward,
            steps,
            rise: rise.abs(),
            run: run.abs(),
            width: width.abs(),
            next: 0,
        };
        let (a, b) = stairs.step_corners(steps);
        check_coords(base)?;
        check_coords(a)?;
        check_coords(b)?;
        Ok(stairs)
    }

    /// A convex brush from the planes bounding it (each `normal · p ≤ dist` inside; any
    /// non-zero normal length, normalised here). At most [`MAX_INPUT_PLANES`].
    ///
    /// Its corners are found (every three planes intersected, kept when inside the others), giving
    /// the bounding box; planes that touch the solid in fewer than three corners are dropped
    /// (redundant), axial ones become the bounding box, the rest are kept in order, then **edge
    /// bevels** are added as q3map does: for each edge and each axis, the plane through the edge
    /// parallel to the axis when it supports the solid. With them the box trace meets the exact
    /// Minkowski sum of box and brush; a bevel that does not fit in [`MAX_BRUSH_PLANES`] is left
    /// out ([`Brush::is_exact`] is then false, and near that edge a trace may stop short of it:
    /// conservative, never inside).
    pub fn from_planes(planes: &[Plane]) -> Result<Brush, BrushError> {
        hull::build(planes)
    }

    /// This brush with `flags`.
    #[inline]
    pub const fn with_flags(mut self, flags: SolidFlags) -> Brush {
        self.flags = flags;
        self
    }

    /// This brush moved by `delta` (world units): its box and every sloped plane's distance
    /// (`dist + normal·delta`), its shape, bevels and flags kept. Errors: [`BrushError::NonFinite`]
    /// for a non-finite `delta`, [`BrushError::OutOfRange`] when the moved box would leave
    /// ±[`MAX_COORD`] (or a plane's distance ±2·`MAX_COORD`). Plain `f32` sums: the same bits on
    /// every machine; moving by `d` and then by `−d` may differ from the start by rounding.
    pub fn translated(&self, delta: Vec3) -> Result<Brush, BrushError> {
        check_coords(delta)?;
        let (mins, maxs) = (self.mins + delta, self.maxs + delta);
        check_coords(mins)?;
        check_coords(maxs)?;
        let mut moved = *self;
        moved.mins = mins;
        moved.maxs = maxs;
        let count = usize::from(self.count).min(MAX_BRUSH_PLANES);
        for p in &mut moved.planes[..count] {
            let dist = p.dist + p.normal.dot(delta);
            if !dist.is_finite() || dist.abs() > 2.0 * MAX_COORD {
                return Err(BrushError::OutOfRange);
            }
            p.dist = dist;
        }
        Ok(moved)
    }

    /// Lower corner of the bounding box, world units.
    #[inline]
    pub const fn mins(&self) -> Vec3 {
        self.mins
    }

    /// Upper corner of the bounding box, world units.
    #[inline]
    pub const fn maxs(&self) -> Vec3 {
        self.maxs
    }

    /// The flags given with [`Brush::with_flags`].
    #[inline]
    pub const fn flags(&self) -> SolidFlags {
        self.flags
    }

    /// The sloped planes (faces, then bevels), beyond the six axial ones.
    #[inline]
    pub fn sloped_planes(&self) -> &[Plane] {
        &self.planes[..(self.count as usize).min(MAX_BRUSH_PLANES)]
    }

    /// False when some edge bevel did not fit ([`Brush::from_planes`]); boxes and ramps are exact.
    #[inline]
    pub const fn is_exact(&self) -> bool {
        self.missing_bevels == 0
    }

    /// Axial plane `i` of the bounding box, in the order −X, +X, −Y, +Y, −Z, +Z (`i` taken
    /// modulo 6).
    #[inline]
    pub fn axial_plane(&self, i: usize) -> Plane {
        let (normal, dist) = match i % 6 {
            0 => (Vec3::new(-1.0, 0.0, 0.0), -self.mins.x),
            1 => (Vec3::X, self.maxs.x),
            2 => (Vec3::new(0.0, -1.0, 0.0), -self.mins.y),
            3 => (Vec3::Y, self.maxs.y),
            4 => (Vec3::new(0.0, 0.0, -1.0), -self.mins.z),
            _ => (Vec3::Z, self.maxs.z),
        };
        Plane { normal, dist }
    }

    /// Every plane of the brush: the six axial ones ([`Brush::axial_plane`] order), then the
    /// sloped ones. A point is inside the brush when it is on the solid side of all of them.
    pub fn sides(&self) -> impl Iterator<Item = Plane> + '_ {
        (0..6)
            .map(|i| self.axial_plane(i))
            .chain(self.sloped_planes().iter().copied())
    }
}

/// The steps of [`Brush::stairs`], first (lowest) to last.
#[derive(Clone, Debug)]
pub struct Stairs {
    base: Vec3,
    toward: Toward,
    steps: u16,
    rise: f32,
    run: f32,
    width: f32,
    next: u16,
}

impl Stairs {
    /// The corners of step `i` (unordered).
    fn step_corners(&self, i: u16) -> (Vec3, Vec3) {
        let top = self.base.y + self.rise * (f32::from(i) + 1.0);
        let near = self.run * f32::from(i);
        let far = self.run * (f32::from(i) + 1.0);
        let b = self.base;
        match self.toward {
            Toward::PlusX => (
                Vec3::new(b.x + near, b.y, b.z),
                Vec3::new(b.x + far, top, b.z + self.width),
            ),
            Toward::MinusX => (
                Vec3::new(b.x - near, b.y, b.z),
                Vec3::new(b.x - far, top, b.z + self.width),
            ),
            Toward::PlusZ => (
                Vec3::new(b.x, b.y, b.z + near),
                Vec3::new(b.x + self.width, top, b.z + far),
            ),
            Toward::MinusZ => (
                Vec3::new(b.x, b.y, b.z - near),
                Vec3::new(b.x + self.width, top, b.z - far),
            ),
        }
    }
}

impl Iterator for Stairs {
    type Item = Brush;

    fn next(&mut self) -> Option<Brush> {
        if self.next >= self.steps {
            return None;
        }
        let (a, b) = self.step_corners(self.next);
        self.next += 1;
        // Every step lies inside the extent checked by `Brush::stairs`.
        let (lo, hi) = ordered(a, b);
        Some(Brush::from_box(lo, hi))
    }

    fn size_hint(&self) -> (usize, Option<usize>) {
        let left = usize::from(self.steps.saturating_sub(self.next));
        (left, Some(left))
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn aabb_orders_and_rejects_bad_coordinates() {
        let b = Brush::aabb(Vec3::new(1.0, 2.0, 3.0), Vec3::new(-1.0, 0.0, 5.0)).unwrap();
        assert_eq!(b.mins(), Vec3::new(-1.0, 0.0, 3.0));
        assert_eq!(b.maxs(), Vec3::new(1.0, 2.0, 5.0));
        assert!(b.is_exact() && b.sloped_planes().is_empty());
        assert_eq!(b.sides().count(), 6);
        let nan = Vec3::new(f32::NAN, 0.0, 0.0);
        assert_eq!(Brush::aabb(nan, Vec3::ZERO), Err(BrushError::NonFinite));
        let far = Vec3::new(0.0, 2.0 * MAX_COORD, 0.0);
        assert_eq!(Brush::aabb(Vec3::ZERO, far), Err(BrushError::OutOfRange));
        // A zero-size box is a valid (if thin) solid.
        assert!(Brush::aabb(Vec3::new(1.0, 1.0, 1.0), Vec3::new(1.0, 1.0, 1.0)).is_ok());
    }

    #[test]
    fn ramp_plane_passes_through_both_edges() {
        let lo = Vec3::new(0.0, 0.0, 0.0);
        let hi = Vec3::new(4.0, 2.0, 3.0);
        for (toward, low, high) in [
            (
                Toward::PlusX,
                Vec3::new(0.0, 0.0, 1.0),
                Vec3::new(4.0, 2.0, 1.0),
            ),
            (
                Toward::MinusX,
                Vec3::new(4.0, 0.0, 1.0),
                Vec3::new(0.0, 2.0, 1.0),
            ),
            (
                Toward::PlusZ,
                Vec3::new(1.0, 0.0, 0.0),
                Vec3::new(1.0, 2.0, 3.0),
            ),
            (
                Toward::MinusZ,
                Vec3::new(1.0, 0.0, 3.0),
                Vec3::new(1.0, 2.0, 0.0),
            ),
        ] {
            let r = Brush::ramp(lo, hi, toward).unwrap();
            let p = r.sloped_planes()[0];
            assert!(p.distance(low).abs() < 1e-5, "{toward:?}");
            assert!(p.distance(high).abs() < 1e-5, "{toward:?}");
            assert!(p.normal.y > 0.0, "{toward:?} faces up");
            // The solid's middle bottom is inside.
            assert!(p.distance(Vec3::new(2.0, 0.0, 1.5)) < 0.0);
        }
        // No rise: just the box.
        let flat = Brush::ramp(lo, Vec3::new(4.0, 0.0, 3.0), Toward::PlusX).unwrap();
        assert!(flat.sloped_planes().is_empty());
    }

    #[test]
    fn stairs_rise_step_by_step() {
        let steps: heapless::Vec<Brush, 8> =
            Brush::stairs(Vec3::ZERO, Toward::MinusZ, 4, 0.25, 0.5, 2.0)
                .unwrap()
                .collect();
        assert_eq!(steps.len(), 4);
        for (i, s) in steps.iter().enumerate() {
            assert_eq!(s.maxs().y, 0.25 * (i as f32 + 1.0));
            assert_eq!(s.mins().y, 0.0);
            assert_eq!(s.maxs().z, -0.5 * i as f32);
            assert_eq!(s.maxs().x - s.mins().x, 2.0);
        }
        assert!(Brush::stairs(Vec3::ZERO, Toward::PlusX, 10, 1.0, MAX_COORD, 1.0).is_err());
    }

    use super::super::hull::tests::{p, unit_cube as cube};

    #[test]
    fn from_planes_answers_hostile_input_with_its_documented_errors() {
        // More planes than it accepts, whatever they are.
        for n in [MAX_INPUT_PLANES + 1, 64, 1000] {
            let many = [p(f32::NAN, 0.0, 0.0, f32::INFINITY); 1000];
            assert_eq!(
                Brush::from_planes(&many[..n]),
                Err(BrushError::TooManyPlanes)
            );
        }
        // Exactly as many as it accepts: the cube and ten copies of its top (duplicates dropped).
        let mut full = [p(0.0, 1.0, 0.0, 1.0); MAX_INPUT_PLANES];
        full[..6].copy_from_slice(&cube());
        let b = Brush::from_planes(&full).unwrap();
        assert_eq!(b.mins(), Vec3::new(-1.0, -1.0, -1.0));
        assert_eq!(b.maxs(), Vec3::new(1.0, 1.0, 1.0));
        assert!(b.sloped_planes().is_empty() && b.is_exact());
        // A degenerate plane anywhere (the last of sixteen too) is named by its index.
        let bad = [
            p(0.0, 0.0, 0.0, 1.0),
            p(f32::NAN, 1.0, 0.0, 1.0),
            p(0.0, f32::INFINITY, 0.0, 1.0),
            p(1e-30, 0.0, 0.0, 1.0),
            p(0.0, 1.0, 0.0, f32::NAN),
            p(0.0, 1.0, 0.0, f32::NEG_INFINITY),
            p(0.0, 1.0, 0.0, 1.0e30),
        ];
        for q in bad {
            for at in [0, 5, MAX_INPUT_PLANES - 1] {
                let mut planes = full;
                planes[at] = q;
                assert_eq!(
                    Brush::from_planes(&planes),
                    Err(BrushError::DegeneratePlane(at as u8)),
                    "{q:?} at {at}"
                );
            }
        }
        // A twelve-sided prism: eight sloped sides, more than a brush keeps.
        let mut prism = [Plane::NONE; 14];
        for (k, slot) in prism.iter_mut().take(12).enumerate() {
            let a = k as f32 * core::f32::consts::PI / 6.0;
            let (sin, cos) = crate::math::scalar::sin_cos(a);
            *slot = p(cos, 0.0, sin, 1.0);
        }
        prism[12] = p(0.0, 1.0, 0.0, 1.0);
        prism[13] = p(0.0, -1.0, 0.0, 1.0);
        assert_eq!(Brush::from_planes(&prism), Err(BrushError::TooManyPlanes));
        // Nothing enclosed, nothing bounded.
        assert_eq!(Brush::from_planes(&[]), Err(BrushError::Unbounded));
        assert_eq!(
            Brush::from_planes(&[p(0.0, 1.0, 0.0, 1.0); MAX_INPUT_PLANES]),
            Err(BrushError::Unbounded)
        );
        let mut empty = cube();
        empty[0] = p(1.0, 0.0, 0.0, -2.0);
        assert_eq!(Brush::from_planes(&empty), Err(BrushError::Empty));
    }

    #[test]
    fn from_planes_on_random_planes_never_panics_and_keeps_its_contract() {
        // Random sets of 0 to 16 planes, some degenerate: an error, or a brush whose box is
        // ordered and finite within ±MAX_COORD and whose planes are unit and finite.
        let mut rng = crate::rng::Pcg32::new(34, 2);
        let (mut built, mut refused) = (0, 0);
        for _ in 0..3000 {
            let n = (rng.next_u32() % (MAX_INPUT_PLANES as u32 + 1)) as usize;
            let mut planes = [Plane::NONE; MAX_INPUT_PLANES];
            for q in planes.iter_mut().take(n) {
                let mut c = || rng.range_f32(-1.0, 1.0);
                *q = p(c(), c(), c(), rng.range_f32(0.1, 10.0));
                match rng.next_u32() % 32 {
                    0 => q.normal.x = f32::NAN,
                    1 => q.dist = f32::INFINITY,
                    2 => q.normal = Vec3::ZERO,
                    _ => {}
                }
            }
            match Brush::from_planes(&planes[..n]) {
                Ok(b) => {
                    built += 1;
                    assert!(b.mins().is_finite() && b.maxs().is_finite(), "{b:?}");
                    let (lo, hi) = (b.mins(), b.maxs());
                    assert!(lo.x <= hi.x && lo.y <= hi.y && lo.z <= hi.z, "{b:?}");
                    for q in b.sides() {
                        assert!((q.normal.length() - 1.0).abs() < 1e-4 && q.dist.is_finite());
                    }
                }
                Err(_) => refused += 1,
            }
        }
        assert!(built > 100 && refused > 100, "{built} {refused}");
    }
}
