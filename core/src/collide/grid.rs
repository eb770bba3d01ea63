//! The broadphase: a uniform grid over the world's X/Z extent, each cell a list of solid indices.
//!
//! [`GRID_DIM`]² cells cover the union of the solids' bounding boxes (in X and Z; Y is left to
//! each brush's own box test). The lists live in one array of `GRID_ENTRIES_PER_SOLID · N`
//! indices sorted by cell (a counting sort), each cell's list in increasing solid index. A solid
//! covering more than [`MAX_CELLS_PER_SOLID`] cells, a moving one ([`SolidFlags::MOVING`]: it
//! moves without a rebuild), or one that would leave the later solids without their entry, goes
//! to a last list that every query tests (a floor under the whole level is one entry there rather
//! than 256). A query visits the cells its box covers row by row (Z,
//! then X) and tests a solid only in the first of its cells that the query covers, so every
//! candidate is tested once, in the same order on every machine. Each cell entry carries, beside
//! the solid's index, whether its cell is the solid's first column and first row: that is all the
//! once-only rule needs ([`Grid::candidates`]).

use super::brush::Brush;
use super::flags::SolidFlags;
use crate::math::bits::{abs_bits, IMPLICIT, INF, MANTISSA};
use crate::math::target::SOFT_FLOAT;
use crate::math::Vec3;

/// Cells per axis (X and Z): the grid has `GRID_DIM²` = 256 cells.
pub const GRID_DIM: usize = 16;
/// Index entries the grid stores per solid of capacity (the total is this × `N`).
pub const GRID_ENTRIES_PER_SOLID: usize = 4;
/// A solid whose box covers more cells than this is tested by every query instead.
pub const MAX_CELLS_PER_SOLID: usize = 16;

const CELLS: usize = GRID_DIM * GRID_DIM;
/// The list of solids every query tests, after the cells.
const ALWAYS: usize = CELLS;
/// `lo` of a solid in the [`ALWAYS`] list.
const NOT_IN_CELLS: [u8; 2] = [u8::MAX, u8::MAX];
/// The solid index of a cell entry (below `MAX_SOLIDS` < 2¹⁴).
const INDEX: u16 = (1 << 14) - 1;
/// A cell entry's flag: the cell is in the solid's first (lowest) column of cells.
const FIRST_COLUMN: u16 = 1 << 14;
/// A cell entry's flag: the cell is in the solid's first (lowest) row of cells.
const FIRST_ROW: u16 = 1 << 15;
const _: () = assert!(super::world::MAX_SOLIDS <= INDEX as usize);
const _: () = assert!(CELLS.is_power_of_two());

/// The index of cell (`x`, `z`), both below [`GRID_DIM`] (every [`CellRect`] is: the clamp of
/// [`Grid::cell`]). The mask changes nothing for those, but it shows the optimiser that the index
/// is below [`CELLS`], wherever the rectangle came from: no bounds check, so no panic path, on
/// the lists it indexes (the panic-check image links the collision code).
#[inline(always)]
fn cell_index(x: usize, z: usize) -> usize {
    (z * GRID_DIM + x) & (CELLS - 1)
}

/// An inclusive range of cells, `x0..=x1` by `z0..=z1`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub(super) struct CellRect {
    x0: u8,
    x1: u8,
    z0: u8,
    z1: u8,
}

impl CellRect {
    /// The number of cells. `x0 ≤ x1` and `z0 ≤ z1` ([`Grid::rect`] is monotonic), so the
    /// wrapping differences are the plain ones; the optimiser cannot see that, and a checked `-`
    /// would keep an overflow panic path (at most 256 × 256 either way).
    fn cells(self) -> usize {
        (usize::from(self.x1.wrapping_sub(self.x0)) + 1)
            * (usize::from(self.z1.wrapping_sub(self.z0)) + 1)
    }
}

/// The grid of a world of capacity `N`.
#[derive(Clone, Debug)]
pub(super) struct Grid<const N: usize> {
    /// World X and Z of the grid's lower corner.
    origin: [f32; 2],
    /// Cells per world unit in X and Z (0 for a world flat in that axis: everything in cell 0).
    inv_cell: [f32; 2],
    /// Start of each list in `entries` (`first[c]..first[c + 1]`); the lists are the cells, then
    /// [`ALWAYS`].
    first: [u16; CELLS + 2],
    /// The lists, `GRID_ENTRIES_PER_SOLID` entries per row (no division by `N` anywhere): each a
    /// solid index ([`INDEX`]) with [`FIRST_COLUMN`] and [`FIRST_ROW`] (none in [`ALWAYS`]).
    entries: [[u16; GRID_ENTRIES_PER_SOLID]; N],
    /// Lowest (x, z) cell of each solid's range, or [`NOT_IN_CELLS`].
    lo: [[u8; 2]; N],
}

impl<const N: usize> Grid<N> {
    /// An empty grid.
    pub(super) const fn new() -> Self {
        Grid {
            origin: [0.0; 2],
            inv_cell: [0.0; 2],
            first: [0; CELLS + 2],
            entries: [[0; GRID_ENTRIES_PER_SOLID]; N],
            lo: [[0; 2]; N],
        }
    }

    /// The cell of coordinate `v` along axis `a` (0 = X, 1 = Z), clamped into the grid (NaN → 0).
    /// Monotonic in `v`, so overlapping intervals get overlapping cell ranges.
    #[inline]
    fn cell(&self, v: f32, a: usize) -> u8 {
        let t = (v - self.origin[a]) * self.inv_cell[a];
        if SOFT_FLOAT {
            return cell_of(t);
        }
        // The cast truncates towards zero and saturates (NaN → 0), one instruction on Arm; the
        // clamp (one `usat`) takes t ≤ 0 to cell 0 and t ≥ 15 to the last, so truncation is the
        // floor wherever it is kept. The range is visible to the callers: no bounds checks there.
        (t as i32).clamp(0, (GRID_DIM - 1) as i32) as u8
    }

    /// The cells covered by the box `lo..=hi` (X and Z only).
    #[inline]
    pub(super) fn rect(&self, lo: Vec3, hi: Vec3) -> CellRect {
        CellRect {
            x0: self.cell(lo.x, 0),
            x1: self.cell(hi.x, 0),
            z0: self.cell(lo.z, 1),
            z1: self.cell(hi.z, 1),
        }
    }

    /// Rebuild every list for `brushes` (at most `N`). O(`N` + cells + entries).
    pub(super) fn rebuild(&mut self, brushes: &[Brush]) {
        let brushes = &brushes[..brushes.len().min(N)];
        self.first = [0; CELLS + 2];
        let Some(b0) = brushes.first() else {
            return;
        };
        let (mut lo, mut hi) = ([b0.mins.x, b0.mins.z], [b0.maxs.x, b0.maxs.z]);
        for b in brushes {
            lo = [lo[0].min(b.mins.x), lo[1].min(b.mins.z)];
            hi = [hi[0].max(b.maxs.x), hi[1].max(b.maxs.z)];
        }
        self.origin = lo;
        for a in 0..2 {
            let extent = hi[a] - lo[a];
            // Guarded divide: a world with no extent in this axis uses one column of cells.
            self.inv_cell[a] = if extent > 0.0 {
                GRID_DIM as f32 / extent
            } else {
                0.0
            };
        }
        // Choose each solid's lists (in index order) and count them.
        let capacity = GRID_ENTRIES_PER_SOLID * N;
        let mut used = 0usize;
        for (s, b) in brushes.iter().enumerate() {
            let r = self.rect(b.mins, b.maxs);
            let later = brushes.len() - s - 1; // each needs at least one entry
                                               // A moving solid goes to the always-tested list: it moves without a rebuild.
            let still = !b.flags.contains(SolidFlags::MOVING);
            let in_cells =
                still && r.cells() <= MAX_CELLS_PER_SOLID && used + r.cells() + later <= capacity;
            if in_cells {
                used += r.cells();
                Self::for_cells(r, |c| self.first[c] += 1);
            } else {
                used += 1;
                self.first[ALWAYS] += 1;
            }
            // `s` < `brushes.len()` ≤ `N`: the slot is always there (`get_mut`: no panic path).
            if let Some(lo) = self.lo.get_mut(s) {
                *lo = if in_cells { [r.x0, r.z0] } else { NOT_IN_CELLS };
            }
        }
        // Inclusive prefix sums: first[c] = end of list c.
        for c in 1..=ALWAYS {
            self.first[c] += self.first[c - 1];
        }
        self.first[ALWAYS + 1] = self.first[ALWAYS];
        // Fill from the last solid down, so each list ends up in increasing index order and
        // first[c] becomes the start of list c.
        for (s, b) in brushes.iter().enumerate().rev() {
            // As the counting pass chose (`s` < `N`: `get` always finds it).
            let in_cells = self.lo.get(s).is_some_and(|&lo| lo != NOT_IN_CELLS);
            let s16 = s as u16; // < MAX_SOLIDS: within INDEX
            if !in_cells {
                self.put(ALWAYS, s16);
            } else {
                // Each cell of the solid's range, row by row, gets its entry.
                let r = self.rect(b.mins, b.maxs);
                Self::for_cells(r, |c| {
                    let (x, z) = (c % GRID_DIM, c / GRID_DIM);
                    let column = if x == usize::from(r.x0) {
                        FIRST_COLUMN
                    } else {
                        0
                    };
                    let row = if z == usize::from(r.z0) { FIRST_ROW } else { 0 };
                    self.put(c, s16 | column | row);
                });
            }
        }
    }

    /// Prepend `entry` (a solid index and its flags) to list `c` (a cell or [`ALWAYS`]) during
    /// the fill. The counting pass made room: list `c`'s end is above its start, and every slot is
    /// below `GRID_ENTRIES_PER_SOLID · N` (its budget). So the `get_mut`s always find their slot
    /// and the decrement never wraps; they stand where an index or a `-=` would keep a panic path
    /// the optimiser cannot remove.
    #[inline]
    fn put(&mut self, c: usize, entry: u16) {
        let Some(end) = self.first.get_mut(c) else {
            return;
        };
        *end = end.wrapping_sub(1);
        if let Some(slot) = self.entries.as_flattened_mut().get_mut(usize::from(*end)) {
            *slot = entry;
        }
    }

    /// Calls `f` with every cell index of `r`, row by row.
    #[inline]
    fn for_cells(r: CellRect, mut f: impl FnMut(usize)) {
        for z in r.z0..=r.z1 {
            for x in r.x0..=r.x1 {
                f(cell_index(usize::from(x), usize::from(z)));
            }
        }
    }

    /// Calls `f` once with each solid that may overlap the cells of `r`: the cells' solids row by
    /// row, then every solid of the always-tested list. Work: the cells of `r` (at most
    /// `GRID_DIM²`) plus their entries (at most `GRID_ENTRIES_PER_SOLID · N` in all).
    #[inline]
    pub(super) fn candidates(&self, r: CellRect, mut f: impl FnMut(usize)) {
        let entries = self.entries.as_flattened();
        let list = |c: usize| {
            let (a, b) = (usize::from(self.first[c]), usize::from(self.first[c + 1]));
            entries.get(a..b).unwrap_or(&[])
        };
        // Exclusive ranges below (an inclusive one costs a flag per step); `x1`, `z1` < GRID_DIM.
        let (x0, x1) = (usize::from(r.x0), usize::from(r.x1));
        let (z0, z1) = (usize::from(r.z0), usize::from(r.z1));
        if x0 == x1 && z0 == z1 {
            // One cell (most short moves): each of its solids is listed once.
            for &s in list(cell_index(x0, z0)) {
                f(usize::from(s & INDEX));
            }
        } else {
            self.visit_cells(x0..x1 + 1, z0..z1 + 1, list, &mut f);
        }
        for &s in list(ALWAYS) {
            f(usize::from(s & INDEX));
        }
    }

    /// The cells `xs` × `zs` of [`Grid::candidates`], row by row, each solid in the first of its
    /// cells visited only.
    #[inline]
    fn visit_cells<'a>(
        &self,
        xs: core::ops::Range<usize>,
        zs: core::ops::Range<usize>,
        list: impl Fn(usize) -> &'a [u16],
        f: &mut impl FnMut(usize),
    ) {
        let (x0, z0) = (xs.start, zs.start);
        for z in zs {
            let row = if z == z0 { 0 } else { FIRST_ROW };
            for x in xs.clone() {
                // A solid listed in this cell is tested here only if this is the first of its
                // cells the query visits: the first cell of the query, or its own first column
                // (beyond the query's first) and its own first row (likewise). Its first cell
                // visited is (max(sx, x0), max(sz, z0)) for its lowest cell (sx, sz) ≤ (x, z).
                let need = row | if x == x0 { 0 } else { FIRST_COLUMN };
                for &s in list(cell_index(x, z)) {
                    if s & need == need {
                        f(usize::from(s & INDEX));
                    }
                }
            }
        }
    }
}

/// `(t as i32).clamp(0, GRID_DIM − 1)` on the bits, where the cast and its NaN test are library
/// calls (soft-float targets): 0 below 1 (negatives, ±0, NaNs too), the last cell from
/// `GRID_DIM − 1` up (+∞ too), else the integer part of `t` in `1..GRID_DIM − 1`: its significand
/// shifted by its exponent. The same cell for every `t` (tested).
#[inline(always)]
fn cell_of(t: f32) -> u8 {
    let b = t.to_bits();
    if (b as i32) < 1.0f32.to_bits() as i32 || abs_bits(t) > INF {
        return 0;
    }
    if b >= ((GRID_DIM - 1) as f32).to_bits() {
        return (GRID_DIM - 1) as u8;
    }
    // 1 ≤ t < GRID_DIM − 1 (16): exponent 0..=3, the significand's top 1 + exponent bits.
    let e = (b >> 23) - 127;
    (((b & MANTISSA) | IMPLICIT) >> (23 - e)) as u8
}

#[cfg(test)]
mod tests {
    /// [`super::cell_of`] is the cast-and-clamp's cell for every kind of value.
    #[test]
    fn cell_of_is_the_clamped_cast() {
        let mut v = std::vec![
            0.0f32,
            -0.0,
            0.5,
            -0.5,
            1.0,
            0.999_999_94,
            14.999_999,
            15.0,
            15.5,
            16.0,
            17.0,
            1.0e30,
            -1.0e30,
            f32::INFINITY,
            f32::NEG_INFINITY,
            f32::NAN,
            -f32::NAN,
            f32::from_bits(1),
        ];
        for i in 0..=2000 {
            v.push(i as f32 * 0.0095 - 1.0);
        }
        let mut seed = 0x9e37_79b9u32;
        for _ in 0..5000 {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            v.push(f32::from_bits(seed));
        }
        for t in v {
            let want = (t as i32).clamp(0, (super::GRID_DIM - 1) as i32) as u8;
            assert_eq!(super::cell_of(t), want, "{t:e}");
        }
    }

    use super::*;

    fn boxed(x: f32, z: f32, size: f32) -> Brush {
        Brush::aabb(Vec3::new(x, 0.0, z), Vec3::new(x + size, 1.0, z + size)).unwrap()
    }

    fn collect<const N: usize>(g: &Grid<N>, r: CellRect) -> heapless::Vec<usize, 64> {
        let mut out = heapless::Vec::new();
        g.candidates(r, |s| out.push(s).unwrap());
        out
    }

    #[test]
    fn each_candidate_once_and_big_solids_always() {
        let mut brushes = heapless::Vec::<Brush, 8>::new();
        brushes.push(boxed(0.0, 0.0, 16.0)).unwrap(); // the whole level: always tested
        brushes.push(boxed(1.0, 1.0, 2.5)).unwrap(); // cells 1..=3 × 1..=3
        brushes.push(boxed(10.0, 10.0, 0.5)).unwrap();
        let mut g = Grid::<8>::new();
        g.rebuild(&brushes);
        assert_eq!(g.lo[0], NOT_IN_CELLS);
        assert_eq!(g.lo[1], [1, 1]);
        let all = g.rect(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(20.0, 0.0, 20.0));
        assert_eq!(collect(&g, all).as_slice(), &[1, 2, 0]);
        let corner = g.rect(Vec3::new(2.5, 0.0, 2.5), Vec3::new(5.0, 0.0, 5.0));
        assert_eq!(collect(&g, corner).as_slice(), &[1, 0]);
        let far = g.rect(Vec3::new(6.0, 0.0, 6.0), Vec3::new(7.0, 0.0, 7.0));
        assert_eq!(collect(&g, far).as_slice(), &[0]);
    }

    #[test]
    fn entries_never_overflow() {
        // 8 solids each covering 16 cells: 4 entries per solid of capacity cannot hold them all,
        // so the later ones move to the always-tested list and every one is still found.
        let mut brushes = heapless::Vec::<Brush, 8>::new();
        for i in 0..8 {
            brushes.push(boxed(i as f32 * 2.0, 0.0, 3.9)).unwrap();
        }
        let mut g = Grid::<8>::new();
        g.rebuild(&brushes);
        let all = g.rect(Vec3::new(-1.0, 0.0, -1.0), Vec3::new(40.0, 0.0, 40.0));
        let mut found = collect(&g, all);
        found.sort_unstable();
        assert_eq!(found.as_slice(), &[0, 1, 2, 3, 4, 5, 6, 7]);
        assert!(usize::from(g.first[ALWAYS + 1]) <= GRID_ENTRIES_PER_SOLID * 8);
    }

    #[test]
    fn empty_and_flat_worlds() {
        let mut g = Grid::<4>::new();
        g.rebuild(&[]);
        let r = g.rect(Vec3::ZERO, Vec3::new(1.0, 1.0, 1.0));
        assert!(collect(&g, r).is_empty());
        let flat = [Brush::aabb(Vec3::ZERO, Vec3::new(0.0, 1.0, 0.0)).unwrap()];
        g.rebuild(&flat);
        let nan = g.rect(
            Vec3::new(f32::NAN, 0.0, f32::NAN),
            Vec3::new(f32::NAN, 0.0, 1.0),
        );
        assert_eq!(collect(&g, nan).as_slice(), &[0]);
    }
}
