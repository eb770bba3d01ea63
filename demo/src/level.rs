//! The demo level: a flat square arena with two ramps, as a [`GroundProbe`].
//!
//! Ramps rise from height 0 at their low edge along their uphill direction and end in a drop back
//! to the floor at the high edge. Slope constants are precomputed literals (no trigonometry per
//! probe), so probing costs a handful of multiplies.

use hopkit::ground::{GroundHit, GroundProbe};
use hopkit::math::{Vec2, Vec3};

use super::view::{RampView, MAX_RAMPS};

/// Half size of the arena along X and Z, world units. Bodies are kept inside it.
pub const ARENA_HALF_EXTENT: f32 = 48.0;

/// One axis-aligned ramp rising along +X or +Z.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Ramp {
    /// Minimum corner `(x, z)`.
    pub min: Vec2,
    /// Maximum corner `(x, z)`.
    pub max: Vec2,
    /// True if it rises along +X, false if along +Z.
    pub along_x: bool,
    /// Slope angle in degrees (for display).
    pub angle_deg: f32,
    /// `tan(angle)`: height gained per unit run.
    pub rise_per_run: f32,
    /// `sin(angle)`, for the normal.
    pub sin: f32,
    /// `cos(angle)`, for the normal.
    pub cos: f32,
}

impl Ramp {
    /// True if the planar point is over the ramp.
    #[inline]
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
    /// Planar uphill unit vector.
    #[inline]
    pub fn uphill(&self) -> Vec2 {
        if self.along_x {
            Vec2::X
        } else {
            Vec2::Y
        }
    }
    fn hit(&self, p: Vec2) -> GroundHit {
        let run = if self.along_x {
            p.x - self.min.x
        } else {
            p.y - self.min.y
        };
        let up = self.uphill();
        GroundHit {
            height: run * self.rise_per_run,
            normal: Vec3::new(-up.x * self.sin, self.cos, -up.y * self.sin),
        }
    }
}

/// The demo's ramps: a gentle 20° ramp and a 30° ramp (both walkable under a 45° limit).
pub const RAMPS: [Ramp; MAX_RAMPS] = [
    Ramp {
        min: Vec2::new(12.0, -30.0),
        max: Vec2::new(28.0, -18.0),
        along_x: true,
        angle_deg: 20.0,
        rise_per_run: 0.363_970_23,
        sin: 0.342_020_14,
        cos: 0.939_692_6,
    },
    Ramp {
        min: Vec2::new(-30.0, 10.0),
        max: Vec2::new(-18.0, 22.0),
        along_x: false,
        angle_deg: 30.0,
        rise_per_run: 0.577_350_26,
        sin: 0.5,
        cos: 0.866_025_4,
    },
];

/// The demo level's ground: floor at height 0 plus [`RAMPS`].
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DemoGround;

impl GroundProbe for DemoGround {
    /// `None` for a non-finite point; the first of [`RAMPS`] that contains the point's `(x, z)`;
    /// else the floor (height 0, normal +Y).
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        if !point.is_finite() {
            return None;
        }
        // The ramps one by one with their constants (a loop over `RAMPS` reads them from memory).
        let p = point.planar();
        let [r0, r1] = RAMPS;
        let hit = if over(&r0, p) {
            r0.hit(p)
        } else if over(&r1, p) {
            r1.hit(p)
        } else {
            GroundHit {
                height: 0.0,
                normal: Vec3::UP,
            }
        };
        Some(hit)
    }

    /// [`DemoGround::probe`]'s height, without the normal (and without a hit written to memory).
    #[inline]
    fn height(&self, point: Vec3) -> Option<f32> {
        if !point.is_finite() {
            return None;
        }
        let p = point.planar();
        let [r0, r1] = RAMPS;
        let h = if over(&r0, p) {
            r0.hit(p).height
        } else if over(&r1, p) {
            r1.hit(p).height
        } else {
            0.0
        };
        Some(h)
    }
}

/// [`Ramp::contains`], inlined into the probes.
#[inline(always)]
fn over(r: &Ramp, p: Vec2) -> bool {
    r.contains(p)
}

/// The ramps as drawable views.
pub fn ramp_views() -> heapless::Vec<RampView, MAX_RAMPS> {
    let mut out = heapless::Vec::new();
    for r in RAMPS.iter() {
        // Capacity equals RAMPS.len(), so this never fails; ignore the impossible error.
        let _ = out.push(RampView {
            min: r.min,
            max: r.max,
            uphill: r.uphill(),
            angle_deg: r.angle_deg,
        });
    }
    out
}

/// Keep a planar position inside the arena; returns the clamped position and which axes were hit
/// (so the caller can zero the velocity component into the wall).
#[inline]
pub fn clamp_to_arena(p: Vec2) -> (Vec2, bool, bool) {
    let e = ARENA_HALF_EXTENT;
    let x = hopkit::math::clamp(p.x, -e, e);
    let z = hopkit::math::clamp(p.y, -e, e);
    (Vec2::new(x, z), x != p.x, z != p.y)
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::math::scalar;

    #[test]
    fn ramp_constants_match_their_angles() {
        for r in RAMPS.iter() {
            let a = r.angle_deg.to_radians();
            assert!((scalar::sin(a) - r.sin).abs() <= scalar::TRIG_ABS_ERROR);
            assert!((scalar::cos(a) - r.cos).abs() <= scalar::TRIG_ABS_ERROR);
            assert!((r.sin / r.cos - r.rise_per_run).abs() < 1e-5);
        }
    }

    #[test]
    fn probe_heights_and_normals() {
        let g = DemoGround;
        let flat = g.probe(Vec3::new(0.0, 5.0, 0.0)).unwrap();
        assert_eq!(flat.height, 0.0);
        let r = RAMPS[0];
        let h = g.probe(Vec3::new(r.min.x + 10.0, 5.0, -20.0)).unwrap();
        assert!((h.height - 10.0 * r.rise_per_run).abs() < 1e-4);
        assert!((h.normal.length() - 1.0).abs() < 1e-5);
        assert!((h.normal.y - r.cos).abs() < 1e-6);
        assert!(g.probe(Vec3::new(f32::NAN, 0.0, 0.0)).is_none());
    }

    /// The probe as first written: the float tests over [`RAMPS`] in a loop.
    fn probe_reference(point: Vec3) -> Option<GroundHit> {
        if !point.is_finite() {
            return None;
        }
        let p = point.planar();
        for ramp in RAMPS.iter() {
            if ramp.contains(p) {
                return Some(ramp.hit(p));
            }
        }
        Some(GroundHit {
            height: 0.0,
            normal: Vec3::UP,
        })
    }

    fn same_hit(a: Option<GroundHit>, b: Option<GroundHit>) -> bool {
        match (a, b) {
            (None, None) => true,
            (Some(a), Some(b)) => {
                a.height.to_bits() == b.height.to_bits()
                    && a.normal.x.to_bits() == b.normal.x.to_bits()
                    && a.normal.y.to_bits() == b.normal.y.to_bits()
                    && a.normal.z.to_bits() == b.normal.z.to_bits()
            }
            _ => false,
        }
    }

    #[test]
    fn probe_is_the_reference_bit_for_bit() {
        // Every ramp bound, its neighbours one ulp away, and special values, on both axes.
        let mut xs = vec![
            0.0f32,
            -0.0,
            1.0e-45,
            -1.0e-45,
            1.0e-38,
            f32::MAX,
            -f32::MAX,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            ARENA_HALF_EXTENT,
            -ARENA_HALF_EXTENT,
        ];
        for r in RAMPS.iter() {
            for b in [r.min.x, r.max.x, r.min.y, r.max.y] {
                let up = f32::from_bits(b.to_bits() + 1);
                let down = f32::from_bits(b.to_bits() - 1);
                xs.extend([b, up, down, b + 0.5, b - 0.5, -b]);
            }
        }
        let g = DemoGround;
        for &x in xs.iter() {
            for &z in xs.iter() {
                for y in [0.0, -0.0, 5.0, -3.0, f32::NAN, f32::INFINITY, 1.0e-40] {
                    let p = Vec3::new(x, y, z);
                    assert!(same_hit(g.probe(p), probe_reference(p)), "{p:?}");
                }
            }
        }
        // A random cloud over and around the arena.
        let mut rng = hopkit::rng::Pcg32::seeded(14);
        for _ in 0..200_000 {
            let p = Vec3::new(
                rng.range_f32(-60.0, 60.0),
                rng.range_f32(-5.0, 30.0),
                rng.range_f32(-60.0, 60.0),
            );
            assert!(same_hit(g.probe(p), probe_reference(p)), "{p:?}");
            let q = Vec3::new(
                f32::from_bits(rng.next_u32()),
                f32::from_bits(rng.next_u32()),
                f32::from_bits(rng.next_u32()),
            );
            assert!(same_hit(g.probe(q), probe_reference(q)), "{q:?}");
        }
    }

    #[test]
    fn height_is_the_probes_height() {
        let g = DemoGround;
        let mut rng = hopkit::rng::Pcg32::seeded(16);
        let check = |p: Vec3| {
            let (a, b) = (g.height(p), g.probe(p).map(|h| h.height));
            assert_eq!(a.map(f32::to_bits), b.map(f32::to_bits), "{p:?}");
        };
        for r in RAMPS.iter() {
            for x in [
                r.min.x,
                r.max.x,
                r.min.x + 1.0,
                f32::NAN,
                f32::INFINITY,
                0.0,
                -0.0,
            ] {
                for z in [r.min.y, r.max.y, r.max.y - 0.5, f32::NEG_INFINITY, 5.0] {
                    check(Vec3::new(x, 3.0, z));
                    check(Vec3::new(x, f32::NAN, z));
                }
            }
        }
        for _ in 0..100_000 {
            check(Vec3::new(
                rng.range_f32(-60.0, 60.0),
                rng.range_f32(-5.0, 30.0),
                rng.range_f32(-60.0, 60.0),
            ));
        }
    }

    #[test]
    fn arena_clamp() {
        let (p, hx, hz) = clamp_to_arena(Vec2::new(100.0, 3.0));
        assert_eq!(p, Vec2::new(ARENA_HALF_EXTENT, 3.0));
        assert!(hx && !hz);
    }
}
