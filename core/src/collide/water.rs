//! Water volumes of a [`World`](super::World): Quake's `CONTENTS_WATER` brushes as axis-aligned
//! boxes that never block a trace; [`Tracer::water`](super::Tracer::water) answers the surface
//! the movement's water levels compare against (`movement::water`).

use super::brush::{check_coords, ordered, BrushError};
use crate::math::Vec3;

/// Most water volumes one [`World`](super::World) holds
/// ([`World::add_water`](super::World::add_water); one more is
/// [`WorldFull`](super::WorldFull)). A pool or a flooded room is one box; eight cover a level's
/// pools, a stepped pool (a shallow end, a deep end) being two boxes with the same top.
pub const MAX_WATER_VOLUMES: usize = 8;

/// A box of water between `mins` and `maxs` (world units, ordered per axis): a pool, a flooded
/// room. It blocks nothing; a point inside it (faces included) is in water, under the surface
/// `maxs.y`. Boxes only: a pool's water is a box even when its walls are not (the walls, solids,
/// keep the body out of the parts that are not water), and a box makes the query four compares
/// a volume.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WaterVolume {
    mins: Vec3,
    maxs: Vec3,
}

impl WaterVolume {
    /// The water between two corners, in any order (reordered per axis, as
    /// [`Brush::aabb`](super::Brush::aabb)); a flat box is allowed (a point at its height in its
    /// column is at the surface: level 0). Errors: [`BrushError::NonFinite`],
    /// [`BrushError::OutOfRange`] (beyond ±[`MAX_COORD`](super::MAX_COORD)).
    pub fn new(a: Vec3, b: Vec3) -> Result<WaterVolume, BrushError> {
        check_coords(a)?;
        check_coords(b)?;
        let (mins, maxs) = ordered(a, b);
        Ok(WaterVolume { mins, maxs })
    }

    /// The lower corner.
    #[inline]
    pub fn mins(&self) -> Vec3 {
        self.mins
    }

    /// The upper corner; `maxs().y` is the surface.
    #[inline]
    pub fn maxs(&self) -> Vec3 {
        self.maxs
    }

    /// True when `p` is inside the box or on one of its faces (a closed box). False for a NaN
    /// or infinite component (every compare with NaN is false; the box is finite).
    #[inline]
    pub fn contains(&self, p: Vec3) -> bool {
        let (lo, hi) = (self.mins, self.maxs);
        lo.x <= p.x && p.x <= hi.x && lo.z <= p.z && p.z <= hi.z && lo.y <= p.y && p.y <= hi.y
    }
}

/// The water surface at `point`: the highest top among the `volumes` that contain it (faces
/// included), or `None`. The highest, not the first: the answer does not depend on the order the
/// volumes were added, and two overlapping boxes of one pool (a shallow and a deep end) answer
/// their common top. Bounded: one [`WaterVolume::contains`] a volume.
#[inline]
pub(super) fn surface(volumes: &[WaterVolume], point: Vec3) -> Option<f32> {
    let mut best: Option<f32> = None;
    for v in volumes {
        if v.contains(point) && best.is_none_or(|b| v.maxs.y > b) {
            best = Some(v.maxs.y);
        }
    }
    best
}
