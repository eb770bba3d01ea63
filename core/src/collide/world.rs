//! [`World`]: a fixed-capacity list of brushes with its grid; it answers [`Tracer`].

use super::brush::Brush;
use super::flags::SolidFlags;
use super::grid::Grid;
use super::trace::{
    clip_brush, finish, overlaps, Best, Contents, Sweep, TraceGuard, TraceResult, Tracer,
};
use super::{MAX_SKIN, SURFACE_CLIP_EPSILON};
use crate::math::Vec3;

/// Most solids a world can hold (indices are `u16`, grid entries too).
pub const MAX_SOLIDS: usize = u16::MAX as usize / super::grid::GRID_ENTRIES_PER_SOLID;

/// [`World::push`] or [`World::extend`] on a full world: the brush did not fit (the caller
/// still has it: brushes are `Copy`).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct WorldFull;

/// A static level of up to `N` solids (at most [`MAX_SOLIDS`]), with a uniform-grid broadphase;
/// no allocation. Solid `i` is the `i`-th pushed; a trace reports the nearest hit, ties going to
/// the lowest index, identically on every machine.
///
/// Size: `N · 138 + 540` bytes plus a `usize` (128 per brush, 10 per solid of grid, 532 of
/// grid, 4 of skin, 4 of the flags present), padded to the `usize`'s alignment: on 64-bit targets
/// `World<256>` is 35,880 bytes (tested).
#[derive(Clone, Debug)]
pub struct World<const N: usize> {
    brushes: heapless::Vec<Brush, N>,
    grid: Grid<N>,
    skin: f32,
    /// The union of every solid's flags ([`Tracer::flags_present`]).
    flags: SolidFlags,
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

    /// Remove every solid.
    pub fn clear(&mut self) {
        self.brushes.clear();
        self.flags = SolidFlags::NONE;
        self.grid.rebuild(&[]);
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

    /// The union of every solid's flags, kept as solids are added.
    #[inline]
    fn flags_present(&self) -> SolidFlags {
        self.flags
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
