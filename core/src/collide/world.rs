//! [`World`]: a fixed-capacity list of brushes with its grid; it answers [`Tracer`].

use super::brush::Brush;
use super::flags::SolidFlags;
use super::grid::Grid;
use super::trace::{
    clip_brush, finish, overlaps, trace_one, Best, Carrier, Contents, Sweep, TraceGuard,
    TraceResult, Tracer,
};
use super::water::{surface, WaterVolume, MAX_WATER_VOLUMES};
use super::{MAX_SKIN, RIDER_SLACK, SURFACE_CLIP_EPSILON};
use crate::math::target::SOFT_FLOAT;
use crate::math::Vec3;

/// Most solids a world can hold (indices are `u16`, grid entries too).
pub const MAX_SOLIDS: usize = u16::MAX as usize / super::grid::GRID_ENTRIES_PER_SOLID;

/// [`World::push`] or [`World::extend`] on a full world: the brush did not fit (the caller
/// still has it: brushes are `Copy`); or [`World::add_water`] with
/// [`MAX_WATER_VOLUMES`](super::MAX_WATER_VOLUMES) volumes already in.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WorldFull;

/// Most solids of one world that move ([`World::move_solid`]); moving one more is
/// [`MoveSolidError::TooManyMoving`].
pub const MAX_MOVING_SOLIDS: usize = 8;

/// Why [`World::move_solid`] did not move a solid. In every case the world is as it was, except
/// for [`MoveSolidError::Blocked`] (the solid stays put and is still, see there).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum MoveSolidError {
    /// No solid has this index.
    NoSuchSolid,
    /// The velocity or `dt` is NaN or infinite, `dt` is not > 0, or `velocity·dt` overflows.
    BadMotion,
    /// The moved solid would leave ±[`MAX_COORD`](super::MAX_COORD).
    OutOfRange,
    /// [`MAX_MOVING_SOLIDS`] other solids already move.
    TooManyMoving,
    /// The body at this index of `bodies` would be crushed: carried or pushed by the move, it
    /// would be stopped by another solid while still inside the moving one. Quake III's blocked
    /// mover: the solid stays where it was (bit for bit) and counts as still this tick (its
    /// riders are not carried); the game decides what happens next (reverse it, damage the body).
    Blocked(u16),
}

/// A body's box for [`World::move_solid`]: where its feet are and its box around them (as
/// [`Tracer::trace`] takes them).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct BodyBox {
    /// The feet, world units.
    pub feet: Vec3,
    /// The box's lower corner relative to the feet.
    pub mins: Vec3,
    /// The box's upper corner relative to the feet.
    pub maxs: Vec3,
}

/// A solid that moved: its index, its last move (`delta`) and that move's velocity.
#[derive(Clone, Copy, Debug, PartialEq)]
struct Mover {
    index: u16,
    velocity: Vec3,
    delta: Vec3,
}

/// A static level of up to `N` solids (at most [`MAX_SOLIDS`]), with a uniform-grid broadphase;
/// no allocation. Solid `i` is the `i`-th pushed; a trace reports the nearest hit, ties going to
/// the lowest index, identically on every machine.
///
/// Size: `N · 138 + 956` bytes plus three `usize`s (128 per brush, 10 per solid of grid, 532 of
/// grid, 4 of skin, 4 of the flags present, 28 for each of the [`MAX_MOVING_SOLIDS`] moving
/// solids, 24 for each of the [`MAX_WATER_VOLUMES`] water volumes), padded to the `usize`'s
/// alignment: on 64-bit targets `World<256>` is 36,312 bytes (tested).
///
/// Water: up to [`MAX_WATER_VOLUMES`] boxes of water ([`World::add_water`]) that block no trace;
/// [`Tracer::water`] (so [`Solid`](super::Solid)'s `GroundProbe::water`) answers the surface of
/// the highest one containing the point. A world with none answers `None` after one compare.
#[derive(Clone, Debug)]
pub struct World<const N: usize> {
    brushes: heapless::Vec<Brush, N>,
    grid: Grid<N>,
    skin: f32,
    /// The union of every solid's flags ([`Tracer::flags_present`]).
    flags: SolidFlags,
    /// The solids that moved ([`World::move_solid`]), in increasing index.
    movers: heapless::Vec<Mover, MAX_MOVING_SOLIDS>,
    /// The water volumes ([`World::add_water`]), in the order added.
    waters: heapless::Vec<WaterVolume, MAX_WATER_VOLUMES>,
}

impl<const N: usize> Default for World<N> {
    fn default() -> Self {
        World::new()
    }
}

impl<const N: usize> World<N> {
    /// Fails the build for `N > MAX_SOLIDS`.
    const CAPACITY_OK: () = assert!(N <= MAX_SOLIDS, "World<N>: N must be at most MAX_SOLIDS");

    /// An empty world with the skin [`SURFACE_CLIP_EPSILON`] (Quake III's 1/8 unit).
    pub const fn new() -> Self {
        let () = Self::CAPACITY_OK;
        World {
            brushes: heapless::Vec::new(),
            grid: Grid::new(),
            skin: SURFACE_CLIP_EPSILON,
            flags: SolidFlags::NONE,
            movers: heapless::Vec::new(),
            waters: heapless::Vec::new(),
        }
    }

    /// This world with another skin: how far (world units) a trace stops in front of the surface
    /// it hits. Quake's 1/8 suits Quake units (a standing body 56 high); for a body about 1.8
    /// high (metres) 1/256 is the same proportion. A NaN, infinite or negative skin keeps the
    /// current one; a skin above [`MAX_SKIN`] is clamped to it.
    pub fn with_skin(mut self, skin: f32) -> Self {
        self.set_skin(skin);
        self
    }

    /// Change the skin in place, as [`World::with_skin`] does (for a world that lives in storage
    /// it was not built in, e.g. the C ABI's: `with_skin` moves the whole world).
    pub fn set_skin(&mut self, skin: f32) {
        if skin.is_finite() && skin >= 0.0 {
            self.skin = skin.min(MAX_SKIN);
        }
    }

    /// The skin, world units.
    #[inline]
    pub fn skin(&self) -> f32 {
        self.skin
    }

    /// Add a solid; its index (0, 1, 2 … in push order). A full world returns
    /// [`WorldFull`] and changes nothing. Rebuilds the grid: O(`N` + 256 cells);
    /// to load many solids at once, [`World::extend`] rebuilds it once.
    pub fn push(&mut self, brush: Brush) -> Result<u16, WorldFull> {
        let index = self.brushes.len() as u16;
        self.brushes.push(brush).map_err(|_| WorldFull)?;
        self.flags = self.flags.union(brush.flags());
        self.grid.rebuild(&self.brushes);
        Ok(index)
    }

    /// Add solids in order until the world is full, then rebuild the grid once. Full before the
    /// end: `Err(WorldFull)`; the brushes before the first that did not fit stay in (see
    /// [`World::len`]), the rest of the iterator is not read.
    pub fn extend<I: IntoIterator<Item = Brush>>(&mut self, brushes: I) -> Result<(), WorldFull> {
        let mut result = Ok(());
        for b in brushes {
            if self.brushes.push(b).is_err() {
                result = Err(WorldFull);
                break;
            }
            self.flags = self.flags.union(b.flags());
        }
        self.grid.rebuild(&self.brushes);
        result
    }

    /// Remove every solid and every water volume.
    pub fn clear(&mut self) {
        self.brushes.clear();
        self.movers.clear();
        self.waters.clear();
        self.flags = SolidFlags::NONE;
        self.grid.rebuild(&[]);
    }

    /// Add a water volume (Quake's `CONTENTS_WATER` brush, a box): it blocks no trace, and
    /// [`Tracer::water`] reports its top for the points inside it. Its index (0, 1, 2 … in the
    /// order added, counted apart from the solids'). With [`MAX_WATER_VOLUMES`] already in:
    /// [`WorldFull`], nothing changed. Make a pool's volume reach down to (or into) the pool's
    /// floor: the surface is asked at the body's feet, and feet below the volume are dry.
    ///
    /// ```
    /// use hopkit::collide::{Brush, Solid, Tracer, WaterVolume, World};
    /// use hopkit::ground::GroundProbe;
    /// use hopkit::math::Vec3;
    ///
    /// let mut level = World::<8>::new();
    /// // A pool 96 deep: its floor, and water from (into) the floor up to −8.
    /// level.push(Brush::aabb(Vec3::new(0.0, -112.0, 0.0), Vec3::new(256.0, -96.0, 256.0)).unwrap()).unwrap();
    /// let pool = WaterVolume::new(Vec3::new(0.0, -100.0, 0.0), Vec3::new(256.0, -8.0, 256.0)).unwrap();
    /// assert_eq!(level.add_water(pool), Ok(0));
    /// let probe = Solid(&level);
    /// assert_eq!(probe.water(Vec3::new(128.0, -50.0, 128.0)), Some(-8.0)); // in it
    /// assert_eq!(probe.water(Vec3::new(128.0, 0.0, 128.0)), None); // above the surface
    /// assert_eq!(probe.water(Vec3::new(300.0, -50.0, 128.0)), None); // beside the pool
    /// // Water blocks nothing: a point dropped into the pool lands on its floor.
    /// let t = level.trace(Vec3::new(128.0, 50.0, 128.0), Vec3::new(128.0, -200.0, 128.0), Vec3::ZERO, Vec3::ZERO);
    /// assert_eq!(t.solid, Some(0));
    /// ```
    pub fn add_water(&mut self, volume: WaterVolume) -> Result<u16, WorldFull> {
        let index = self.waters.len() as u16;
        self.waters.push(volume).map_err(|_| WorldFull)?;
        Ok(index)
    }

    /// [`Tracer::water`] with some water: out of line, and given the world (one pointer), so
    /// the check before it is all a dry world's step pays.
    #[inline(never)]
    fn water_surface(&self, point: Vec3) -> Option<f32> {
        surface(&self.waters, point)
    }

    /// The water volumes, in the order added ([`World::add_water`]).
    #[inline]
    pub fn waters(&self) -> &[WaterVolume] {
        &self.waters
    }

    /// Move solid `index` by `velocity·dt` (world units/s, seconds): a moving platform, door or
    /// elevator. Call it for each moving solid **before** stepping the bodies (Quake's `SV_Push`:
    /// pushers first), once per tick with the `dt` the bodies step by; the movement then carries
    /// the bodies standing on it and pushes the bodies it moved into, through traces, so a wall
    /// stops them ([`Tracer::carrier`], `movement::platform`). Returns the move made.
    ///
    /// The first move of a solid flags it [`SolidFlags::MOVING`] and rebuilds the grid once
    /// (O(`N` + 256)): the grid tests a moving solid in every query, and later moves cost a
    /// brush translation and, per body in `bodies`, at most three traces against that one brush
    /// plus one through the world. A world where nothing ever moved works and costs exactly as
    /// before. Zero velocity is a move too: the solid counts as still. The velocity is kept until
    /// the next call, and the movement carries riders by it on every step: move each moving solid
    /// every tick (velocity zero while it waits), and step the bodies with the same `dt` in one
    /// sub-step (`dt ≤ MoveParams::max_tick_dt`), so a rider is carried exactly as far as the
    /// solid moved.
    ///
    /// `bodies` are the bodies the move could crush (all of them, or those near the solid): a
    /// body the move carries or pushes ([`Tracer::carrier`] at the new position) is swept by the
    /// move through the world; if that would leave it inside the solid (a rider lifted into a
    /// ceiling, a body pushed into a wall) the move is **blocked**, Quake III's rule: the solid
    /// stays put and [`MoveSolidError::Blocked`] names the first such body. A body not listed is
    /// not checked: the move may then leave it inside the solid (the movement then lets it walk
    /// out: a trace that starts inside a solid is not blocked by it).
    ///
    /// Errors, the world unchanged: [`MoveSolidError::NoSuchSolid`], [`MoveSolidError::BadMotion`]
    /// (NaN/inf, `dt ≤ 0`, overflow), [`MoveSolidError::OutOfRange`],
    /// [`MoveSolidError::TooManyMoving`]. Deterministic: plain `f32` sums.
    pub fn move_solid(
        &mut self,
        index: u16,
        velocity: Vec3,
        dt: f32,
        bodies: &[BodyBox],
    ) -> Result<Vec3, MoveSolidError> {
        let i = usize::from(index);
        let Some(&before) = self.brushes.get(i) else {
            return Err(MoveSolidError::NoSuchSolid);
        };
        if !(velocity.is_finite() && dt.is_finite() && dt > 0.0) {
            return Err(MoveSolidError::BadMotion);
        }
        let delta = velocity * dt;
        if !delta.is_finite() {
            return Err(MoveSolidError::BadMotion);
        }
        let moved = before
            .translated(delta)
            .map_err(|_| MoveSolidError::OutOfRange)?;
        let slot = match self.movers.iter().position(|m| m.index >= index) {
            Some(k) if self.movers[k].index == index => k,
            at => {
                let k = at.unwrap_or(self.movers.len());
                let still = Mover {
                    index,
                    velocity: Vec3::ZERO,
                    delta: Vec3::ZERO,
                };
                self.movers
                    .insert(k, still)
                    .map_err(|_| MoveSolidError::TooManyMoving)?;
                if !before.flags.contains(SolidFlags::MOVING) {
                    let flags = before.flags.union(SolidFlags::MOVING);
                    if let Some(b) = self.brushes.get_mut(i) {
                        b.flags = flags;
                    }
                    self.flags = self.flags.union(flags);
                    self.grid.rebuild(&self.brushes);
                }
                k
            }
        };
        // `slot` < `movers.len()` (found there, or just inserted) and `i` < `brushes.len()`
        // (checked above): the `get_mut`s always find theirs. They stand where an index would keep
        // a panic path the optimiser cannot remove (the panic-check image moves a solid).
        let (Some(slot_mover), Some(brush)) = (self.movers.get_mut(slot), self.brushes.get_mut(i))
        else {
            return Err(MoveSolidError::NoSuchSolid);
        };
        let mover = Mover {
            index,
            velocity,
            delta,
        };
        *slot_mover = mover;
        let flags = brush.flags;
        *brush = moved.with_flags(flags);
        for (k, b) in bodies.iter().enumerate() {
            if self.crushes(&mover, b) {
                if let Some(brush) = self.brushes.get_mut(i) {
                    *brush = before.with_flags(flags);
                }
                if let Some(m) = self.movers.get_mut(slot) {
                    m.velocity = Vec3::ZERO;
                    m.delta = Vec3::ZERO;
                }
                return Err(MoveSolidError::Blocked(k.min(usize::from(u16::MAX)) as u16));
            }
        }
        Ok(delta)
    }

    /// The last move of solid `index` ([`World::move_solid`]): its velocity, world units/s;
    /// zero for a solid that never moved or was blocked.
    pub fn solid_velocity(&self, index: u16) -> Vec3 {
        self.movers
            .iter()
            .find(|m| m.index == index)
            .map_or(Vec3::ZERO, |m| m.velocity)
    }

    /// True when the move of mover `m` (already made) carries or pushes `body` into another
    /// solid while leaving it inside the mover.
    fn crushes(&self, m: &Mover, body: &BodyBox) -> bool {
        let Some(c) = self.carrier_of(m, body.feet, body.mins, body.maxs) else {
            return false;
        };
        if !(c.rider || c.inside) {
            return false;
        }
        let t = self.trace(body.feet, body.feet + m.delta, body.mins, body.maxs);
        // There (`carrier_of` found it): `get`, not an index, so no panic path.
        let Some(b) = self.brushes.get(usize::from(m.index)) else {
            return false;
        };
        let end = trace_one(b, m.index, t.end, t.end, (body.mins, body.maxs), 0.0);
        end.start_solid
    }

    /// [`Tracer::carrier`] for one mover.
    fn carrier_of(&self, m: &Mover, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<Carrier> {
        let now = self.brushes.get(usize::from(m.index))?;
        let reach = 2.0 * self.skin + RIDER_SLACK;
        let below = Vec3::new(feet.x, feet.y - reach, feet.z);
        let stands = |b: &Brush| {
            let t = trace_one(b, m.index, feet, below, (mins, maxs), self.skin);
            t.fraction < 1.0 && !t.start_solid && t.plane.normal.y > 0.0
        };
        let was = now.translated(-m.delta).ok();
        let rider = was.as_ref().is_some_and(stands) || stands(now);
        let inside = trace_one(now, m.index, feet, feet, (mins, maxs), 0.0).start_solid;
        (rider || inside).then_some(Carrier {
            solid: m.index,
            velocity: m.velocity,
            rider,
            inside,
        })
    }

    /// [`Tracer::carrier`] once some solid has moved: the movers in index order, the first that
    /// carries the body (it stands on it) first, else the first that it is inside.
    #[inline(never)]
    fn find_carrier(&self, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<Carrier> {
        let mut pushed = None;
        for m in &self.movers {
            if m.velocity == Vec3::ZERO {
                continue;
            }
            match self.carrier_of(m, feet, mins, maxs) {
                Some(c) if c.rider => return Some(c),
                Some(c) if pushed.is_none() => pushed = Some(c),
                _ => {}
            }
        }
        pushed
    }

    /// The solids, in index order.
    #[inline]
    pub fn brushes(&self) -> &[Brush] {
        &self.brushes
    }

    /// Number of solids.
    #[inline]
    pub fn len(&self) -> usize {
        self.brushes.len()
    }

    /// True when there are no solids.
    #[inline]
    pub fn is_empty(&self) -> bool {
        self.brushes.is_empty()
    }

    /// True when no more solids fit.
    #[inline]
    pub fn is_full(&self) -> bool {
        self.brushes.is_full()
    }
}

impl<const N: usize> World<N> {
    /// [`Tracer::could_report`]'s test, on every target (tested on the host): some solid with
    /// `flags` meets the swept box's bounds.
    #[inline]
    fn may_report(
        &self,
        flags: SolidFlags,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> bool {
        if !self.flags.contains(flags) {
            return false;
        }
        let (_, bounds) = Sweep::new(start, end, mins, maxs, self.skin);
        self.brushes
            .iter()
            .any(|b| b.flags.contains(flags) && bounds.touches(b))
    }
}

impl<const N: usize> Tracer for World<N> {
    /// Off: every answer keeps the contract (finite, `0 ≤ fraction ≤ 1`) for any input, checked by
    /// the tests and the `collide_trace` fuzz target.
    const GUARD: TraceGuard = TraceGuard::OFF;

    /// The box trace. Inputs are cleaned first: NaN/±inf components of `start`, `mins`, `maxs`
    /// read as 0, everything is clamped into ±[`MAX_COORD`](super::MAX_COORD), an inverted box is
    /// reordered per axis, and a non-finite `end` means no move (`end = start`). Work: the grid
    /// cells the swept box covers (≤ 256) and each solid listed there or always tested, at
    /// most once each (≤ `N` brush tests of ≤ 6 + [`MAX_BRUSH_PLANES`](super::MAX_BRUSH_PLANES)
    /// planes).
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        let (sw, bounds) = Sweep::new(start, end, mins, maxs, self.skin);
        let mut best = Best::new();
        let brushes = self.brushes.as_slice();
        self.grid
            .candidates(self.grid.rect(bounds.lo, bounds.hi), |s| {
                if let Some(b) = brushes.get(s) {
                    clip_brush(&sw, &bounds, b, s as u16, &mut best);
                }
            });
        finish(&sw, &best, brushes)
    }

    /// The first moving solid ([`World::move_solid`], in index order, velocity not zero) that the
    /// body stands on (before or after its last move), else the first it is inside. In a world
    /// where nothing moved: one compare, `None`. Work: per moving solid three one-brush traces.
    #[inline]
    fn carrier(&self, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<Carrier> {
        if self.movers.is_empty() {
            return None;
        }
        self.find_carrier(feet, mins, maxs)
    }

    /// The highest top among the water volumes ([`World::add_water`]) that contain `point` (a
    /// closed box: a point on a face is inside), else `None`: a point beside a volume, below its
    /// bottom or above its top, or with a NaN or infinite component, is dry. Work: with no
    /// water, one compare; else one box test a volume ([`MAX_WATER_VOLUMES`] at most).
    #[inline]
    fn water(&self, point: Vec3) -> Option<f32> {
        if self.waters.is_empty() {
            return None;
        }
        self.water_surface(point)
    }

    /// The union of every solid's flags, kept as solids are added.
    #[inline]
    fn flags_present(&self) -> SolidFlags {
        self.flags
    }

    /// No solid with `flags` meets the swept box's bounds (widened by the skin: the test the
    /// trace itself puts every candidate to before clipping it, on the same bounds), so the trace
    /// cannot report one. Work: the sweep's bounds and one flags test a solid. Only where floats
    /// are software (Cortex-M0+: there it costs less than the trace it saves); elsewhere true,
    /// no work: with hardware floats the grid's trace is about as cheap, and the test's pass over
    /// every solid is not (the Cortex-M4F's step in the 256-solid bench level: 2,439 → 2,865
    /// instructions with it).
    fn could_report(
        &self,
        flags: SolidFlags,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> bool {
        !SOFT_FLOAT || self.may_report(flags, start, end, mins, maxs)
    }

    /// Every solid the box overlaps or touches (inputs cleaned as [`World::trace`]'s `start`).
    fn contents(&self, position: Vec3, mins: Vec3, maxs: Vec3) -> Contents {
        let (sw, bounds) = Sweep::new(position, position, mins, maxs, 0.0);
        let mut out = Contents::default();
        let brushes = self.brushes.as_slice();
        self.grid
            .candidates(self.grid.rect(bounds.lo, bounds.hi), |s| {
                if let Some(b) = brushes.get(s) {
                    if overlaps(&sw, &bounds, b) {
                        let s = s as u16;
                        out.solid = Some(out.solid.map_or(s, |o| o.min(s)));
                        out.flags = out.flags.union(b.flags);
                    }
                }
            });
        out
    }
}

#[cfg(test)]
mod could_report_tests {
    use super::*;
    use crate::collide::Brush;

    /// Wherever [`World::may_report`] says no, the trace reports no ladder: sweeps of every
    /// length and direction around and into a ladder, a wall and a floor.
    #[test]
    fn a_ladder_the_test_rules_out_is_never_reported() {
        let mut w = World::<8>::new();
        w.push(Brush::aabb(Vec3::new(-64.0, -16.0, -64.0), Vec3::new(64.0, 0.0, 64.0)).unwrap())
            .unwrap();
        w.push(
            Brush::aabb(Vec3::new(0.0, 0.0, -8.0), Vec3::new(4.0, 96.0, 8.0))
                .unwrap()
                .with_flags(SolidFlags::LADDER),
        )
        .unwrap();
        w.push(Brush::aabb(Vec3::new(4.0, 0.0, -32.0), Vec3::new(20.0, 96.0, 32.0)).unwrap())
            .unwrap();
        let (mins, maxs) = (Vec3::new(-4.0, 0.0, -4.0), Vec3::new(4.0, 14.0, 4.0));
        let (mut ruled_out, mut hit) = (0, 0);
        for i in 0..60 {
            for j in 0..40 {
                let start = Vec3::new(-20.0 + i as f32 * 0.41, 0.125, -20.0 + j as f32 * 0.97);
                for (dx, dz) in [
                    (0.25, 0.0),
                    (1.0, 0.5),
                    (-0.5, 0.0),
                    (0.0, 3.0),
                    (8.0, -2.0),
                ] {
                    let end = start + Vec3::new(dx, 0.0, dz);
                    let t = w.trace(start, end, mins, maxs);
                    let ladder = t.solid.is_some() && t.flags.contains(SolidFlags::LADDER);
                    hit += u32::from(ladder);
                    if !w.may_report(SolidFlags::LADDER, start, end, mins, maxs) {
                        ruled_out += 1;
                        assert!(!ladder, "{start:?} -> {end:?}");
                    }
                }
            }
        }
        assert!(
            ruled_out > 5000 && hit > 50,
            "{ruled_out} ruled out, {hit} hit"
        );
        assert!(!w.may_report(SolidFlags::MOVING, Vec3::ZERO, Vec3::ZERO, mins, maxs));
    }
}
