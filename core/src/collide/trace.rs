//! The box trace: [`TraceResult`], the [`Tracer`] trait, and the per-brush clip (Quake III's
//! `CM_TraceThroughBrush`).

use super::brush::Brush;
use super::flags::SolidFlags;
use super::plane::Plane;
use super::MAX_COORD;
use crate::math::bits::{abs_bits, order_key};
use crate::math::target::SOFT_FLOAT;
use crate::math::{clamp, finite_or, Vec3};

/// What a trace found: how far the box got, where it stopped and what stopped it.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct TraceResult {
    /// Part of the move completed, `0 ≤ fraction ≤ 1` (1: nothing hit). Dimensionless.
    pub fraction: f32,
    /// Where the box's origin stopped, world units: `start + fraction·(end − start)` (exactly
    /// `end` when `fraction` is 1, exactly `start` when `all_solid`). Always finite.
    pub end: Vec3,
    /// The surface hit: the solid's own plane (not expanded by the box), its normal pointing out
    /// of the solid. [`Plane::NONE`] when nothing was hit or when `all_solid`.
    pub plane: Plane,
    /// The box started inside (or touching) a solid. As in Quake III such a solid does not block
    /// the move, so a body stuck in it can get out; others still do.
    pub start_solid: bool,
    /// The box was inside a solid for the whole move (the solid is `solid`): `fraction` is 0
    /// and `end` is the start.
    pub all_solid: bool,
    /// Index of the solid hit (or the all-solid one), `None` when nothing was hit.
    pub solid: Option<u16>,
    /// That solid's flags ([`SolidFlags::NONE`] when nothing was hit).
    pub flags: SolidFlags,
}

impl TraceResult {
    /// The answer for a move from `start` to `end` that hit nothing.
    pub const fn clear(end: Vec3) -> TraceResult {
        TraceResult {
            fraction: 1.0,
            end,
            plane: Plane::NONE,
            start_solid: false,
            all_solid: false,
            solid: None,
            flags: SolidFlags::NONE,
        }
    }
}

/// What overlaps a box: the lowest-index solid, and the flags of every overlapping solid.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Contents {
    /// The lowest index of the solids the box overlaps or touches, `None` for free space.
    pub solid: Option<u16>,
    /// The union of those solids' flags (e.g. [`SolidFlags::LADDER`] when one is a ladder).
    pub flags: SolidFlags,
}

/// A moving solid that carries or pushes a body ([`Tracer::carrier`]): which solid, how fast it
/// moved in its last move, and how it holds the body.
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Carrier {
    /// The moving solid's index.
    pub solid: u16,
    /// Its velocity in its last move, world units/s (finite).
    pub velocity: Vec3,
    /// The body stands on it: the box traced down a little (twice the skin plus
    /// [`RIDER_SLACK`](super::RIDER_SLACK)) hits its top (a face facing up), at its position
    /// before or after its last move.
    pub rider: bool,
    /// The body's box overlaps it where it is now (it moved into the body).
    pub inside: bool,
}

/// Whether the movement re-checks a tracer's answers before using them ([`Tracer::GUARD`]): a
/// fraction clamped into `[0, 1]`, a non-finite end or normal replaced (`movement::slide::trace`).
///
/// [`TraceGuard::ON`] is the only value code outside hopkit can name, so a game's own tracer is
/// always guarded. hopkit's [`World`](super::World) turns the guard off: its answers keep the
/// contract for every input (its tests and the `collide_trace` fuzz target check it), and the
/// re-checks cost about 25 instructions a trace on a Cortex-M4F.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct TraceGuard(bool);

impl TraceGuard {
    /// Check every answer (the default of every tracer).
    pub const ON: TraceGuard = TraceGuard(true);
    /// Use the answers as they are: hopkit's own tracers only.
    pub(crate) const OFF: TraceGuard = TraceGuard(false);

    /// True when answers are checked.
    #[inline]
    pub const fn is_on(self) -> bool {
        self.0
    }
}

/// Sweeping a box through a level: the collision query of the slide move. [`World`](super::World)
/// implements it; a game with its own physics (Rapier, an engine's) can answer it instead.
///
/// Conventions (hopkit's): positions are the **feet**, Y up; `mins`/`maxs` are the box relative to
/// that point (a standing body of radius `r` and height `h`: `mins = (−r, 0, −r)`,
/// `maxs = (r, h, r)`). Implementations must be pure (same query → same answer) and must return
/// finite values with `0 ≤ fraction ≤ 1`, for any input.
pub trait Tracer {
    /// Whether the movement checks this tracer's answers ([`TraceGuard`]): always, except for
    /// hopkit's [`World`](super::World). A wrapper that only passes another tracer's answers on
    /// may pass its guard on too.
    const GUARD: TraceGuard = TraceGuard::ON;

    /// Sweep the box `mins..maxs` from `start` to `end`; where it stops, what it hit.
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult;

    /// A flag no solid has is not in this (the union of every solid's flags), so a query for it
    /// can be skipped: the movement looks for ladders ([`SolidFlags::LADDER`]) only in a world
    /// that has one. The default, every flag, skips nothing.
    #[inline]
    fn flags_present(&self) -> SolidFlags {
        SolidFlags(u32::MAX)
    }

    /// False only when [`Tracer::trace`] of the same sweep cannot report a solid whose flags
    /// contain `flags` (as hit, start-solid or all-solid), so the movement can skip a trace that
    /// only looks for one (the ladder's, every tick): a broadphase, exact — it never says false
    /// where the trace would report such a solid. [`World`](super::World) tests the swept box's
    /// bounds against those solids' only. The default, true, proves nothing.
    #[inline]
    fn could_report(
        &self,
        flags: SolidFlags,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> bool {
        let _ = (flags, start, end, mins, maxs);
        true
    }

    /// The moving solid that carries (the body stands on it) or pushes (it moved into the body)
    /// a body with the box `mins..maxs` at `feet`, if any ([`Carrier`]); the movement moves the
    /// body with it (`movement::platform`). The default, `None`, is a world where nothing moves.
    #[inline]
    fn carrier(&self, feet: Vec3, mins: Vec3, maxs: Vec3) -> Option<Carrier> {
        let _ = (feet, mins, maxs);
        None
    }

    /// The height (world Y) of the water surface at `point`, if `point` is in water
    /// ([`GroundProbe::water`](crate::ground::GroundProbe::water)'s answer through
    /// [`Solid`](super::Solid)): water never blocks a trace. The default, `None`, is a world with
    /// no water; [`World`](super::World) answers its water volumes
    /// ([`World::add_water`](super::World::add_water)).
    #[inline]
    fn water(&self, point: Vec3) -> Option<f32> {
        let _ = point;
        None
    }

    /// The solids the box `mins..maxs` at `position` overlaps or touches. The default asks
    /// [`Tracer::trace`] for a move of length zero (the lowest-index solid only in `flags`).
    fn contents(&self, position: Vec3, mins: Vec3, maxs: Vec3) -> Contents {
        let t = self.trace(position, position, mins, maxs);
        if t.start_solid {
            Contents {
                solid: t.solid,
                flags: t.flags,
            }
        } else {
            Contents::default()
        }
    }
}

/// `−MAX_COORD ≤ x ≤ MAX_COORD` (false for a NaN). Where floats are software ([`SOFT_FLOAT`]) one
/// integer compare of the magnitude pattern (NaNs' lie above every finite one's), the same answer
/// without two library calls.
#[inline(always)]
fn in_coord_range(x: f32) -> bool {
    if SOFT_FLOAT {
        abs_bits(x) <= MAX_COORD.to_bits()
    } else {
        (-MAX_COORD..=MAX_COORD).contains(&x)
    }
}

/// `a < b` for values that are not NaNs; on soft-float targets on the bits ([`order_key`]), the
/// same answer without a library call.
#[inline(always)]
fn less(a: f32, b: f32) -> bool {
    if SOFT_FLOAT {
        order_key(a) < order_key(b)
    } else {
        a < b
    }
}

/// `a <= b` for values that are not NaNs; on soft-float targets on the bits ([`order_key`]).
/// (Each compare keeps its own float form elsewhere: the same code as before there.)
#[inline(always)]
fn le(a: f32, b: f32) -> bool {
    if SOFT_FLOAT {
        order_key(a) <= order_key(b)
    } else {
        a <= b
    }
}

/// `a == b` for values that are not NaNs; on soft-float targets on the bits ([`order_key`]).
#[inline(always)]
fn eq(a: f32, b: f32) -> bool {
    if SOFT_FLOAT {
        order_key(a) == order_key(b)
    } else {
        a == b
    }
}

/// A point usable by the trace: NaN/±inf components read as 0, the rest clamped into
/// ±[`MAX_COORD`]. (`clamp(finite_or(x, 0), −MAX_COORD, MAX_COORD)`, with the common case — in
/// range — first: two compares, no call.)
#[inline(always)]
fn clean(v: Vec3) -> Vec3 {
    #[inline(always)]
    fn c(x: f32) -> f32 {
        if in_coord_range(x) {
            x
        } else {
            clamp(finite_or(x, 0.0), -MAX_COORD, MAX_COORD)
        }
    }
    Vec3::new(c(v.x), c(v.y), c(v.z))
}

/// Component-wise minimum and maximum of two cleaned (finite) points, by compares (`f32::min`
/// is a library call on the Cortex-M4F). Equal components may come back with either sign of
/// zero, as `f32::min` may: the sweep only compares these bounds and adds them to non-zero
/// offsets, so the trace's answer does not depend on it.
#[inline(always)]
fn ordered_finite(a: Vec3, b: Vec3) -> (Vec3, Vec3) {
    let lo = |a: f32, b: f32| if less(b, a) { b } else { a };
    let hi = |a: f32, b: f32| if less(a, b) { b } else { a };
    (
        Vec3::new(lo(a.x, b.x), lo(a.y, b.y), lo(a.z, b.z)),
        Vec3::new(hi(a.x, b.x), hi(a.y, b.y), hi(a.z, b.z)),
    )
}

/// One trace's inputs, cleaned, and what every brush clip reuses.
#[derive(Clone, Copy, Debug)]
pub(super) struct Sweep {
    pub(super) start: Vec3,
    pub(super) end: Vec3,
    mins: Vec3,
    maxs: Vec3,
    skin: f32,
    /// The [`Bounds`] in X and Z (`lo.x`, `hi.x`, `lo.z`, `hi.z`), for the clip's skipped axes.
    span_xz: [f32; 4],
}

/// The swept box's bounds, widened by the skin (Quake's `CM_BoundsIntersect`), for the inline
/// tests of the candidate loop: kept apart from the [`Sweep`], which the out-of-line clip reads
/// from memory (it needs only their X and Z, its `span_xz`).
#[derive(Clone, Copy, Debug)]
pub(super) struct Bounds {
    pub(super) lo: Vec3,
    pub(super) hi: Vec3,
    /// The box's bottom at the start and at the end (`start.y + mins.y`, `end.y + mins.y`: the
    /// sums the clip's +Y plane takes) and the skin, for [`Bounds::above`].
    bottom: (f32, f32),
    skin: f32,
}

impl Sweep {
    /// Cleans the inputs: `start` and the box through [`clean`] (an inverted box reordered per
    /// axis), a non-finite `end` taken as `start` (no move); `skin` must be finite and ≥ 0.
    /// Also the swept box's [`Bounds`].
    #[inline]
    pub(super) fn new(
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
        skin: f32,
    ) -> (Sweep, Bounds) {
        let start = clean(start);
        let in_range = in_coord_range;
        // In range is finite: the common case needs no separate finiteness test.
        let end = if in_range(end.x) && in_range(end.y) && in_range(end.z) {
            end
        } else if end.is_finite() {
            clean(end)
        } else {
            start
        };
        // The common box (ordered, in range: `mins < maxs` per axis, each end within
        // ±MAX_COORD) as it is: three compares an axis. Anything else (NaN, inverted, flat,
        // out of range) is cleaned and ordered.
        // On soft-float targets: both in range and `lo < hi`, on the bits — the same test, as
        // `lo < hi ≤ MAX_COORD` puts `lo` in range too and `−MAX_COORD ≤ lo < hi` puts `hi` there.
        let fits = |lo: f32, hi: f32| {
            if SOFT_FLOAT {
                in_range(lo) && in_range(hi) && less(lo, hi)
            } else {
                lo < hi && lo >= -MAX_COORD && hi <= MAX_COORD
            }
        };
        let (mins, maxs) = if fits(mins.x, maxs.x) && fits(mins.y, maxs.y) && fits(mins.z, maxs.z) {
            (mins, maxs)
        } else {
            ordered_finite(clean(mins), clean(maxs))
        };
        let bounds = Bounds::of(start, end, (mins, maxs), skin, SOFT_FLOAT);
        let sweep = Sweep {
            start,
            end,
            mins,
            maxs,
            skin,
            span_xz: [bounds.lo.x, bounds.hi.x, bounds.lo.z, bounds.hi.z],
        };
        (sweep, bounds)
    }
}

impl Bounds {
    /// The swept box's bounds for cleaned inputs (`Sweep::new`'s); `soft`: the form with two
    /// sums fewer (chosen where floats are software, [`SOFT_FLOAT`]), the same values (tested).
    #[inline(always)]
    fn of(start: Vec3, end: Vec3, (mins, maxs): (Vec3, Vec3), skin: f32, soft: bool) -> Bounds {
        let (a, b) = ordered_finite(start, end);
        let s = Vec3::new(skin, skin, skin);
        if soft {
            // Two of the sums fewer, where each is a library call: the low bound's `a.y + mins.y`
            // is one of the bottoms (`a.y` is `end.y` exactly when `end.y < start.y`), and the
            // bottoms are one sum for a level move (the same `y` bits).
            let b0 = start.y + mins.y;
            let b1 = if end.y.to_bits() == start.y.to_bits() {
                b0
            } else {
                end.y + mins.y
            };
            let low_y = if less(end.y, start.y) { b1 } else { b0 };
            Bounds {
                lo: Vec3::new(a.x + mins.x - skin, low_y - skin, a.z + mins.z - skin),
                hi: b + maxs + s,
                bottom: (b0, b1),
                skin,
            }
        } else {
            Bounds {
                lo: a + mins - s,
                hi: b + maxs + s,
                bottom: (start.y + mins.y, end.y + mins.y),
                skin,
            }
        }
    }
}

/// The best answer so far over the brushes tested.
#[derive(Clone, Copy, Debug)]
pub(super) struct Best {
    fraction: f32,
    solid: Option<u16>,
    plane: u8,
    start_solid: bool,
    all_solid: Option<u16>,
}

impl Best {
    pub(super) const fn new() -> Best {
        Best {
            fraction: 1.0,
            solid: None,
            plane: 0,
            start_solid: false,
            all_solid: None,
        }
    }
}

/// One brush's clip state (Quake's `enterFrac`, `leaveFrac`, `clipplane`, `startout`, `getout`).
struct Clip {
    enter: f32,
    leave: f32,
    plane: u8,
    start_out: bool,
    get_out: bool,
}

impl Clip {
    /// One plane, the box's distances to it (expanded by the box) at the start and the end.
    /// `false`: the move stays in front of this plane, so it misses the whole brush.
    #[inline(always)]
    fn side(&mut self, d1: f32, d2: f32, plane: u8, skin: f32) -> bool {
        // Every value here is finite (a quotient at worst −inf), never NaN: [`less`] and [`le`]
        // apply.
        if le(d1, 0.0) && le(d2, 0.0) {
            return true; // behind the whole way: not this plane (the common case, tested first)
        }
        if less(0.0, d2) {
            self.get_out = true;
        }
        if less(0.0, d1) {
            self.start_out = true;
            if le(skin, d2) || le(d1, d2) {
                return false;
            }
        } else if le(d2, 0.0) {
            return true; // behind the whole way: not this plane
        }
        if less(d2, d1) {
            // Entering; the divisor is > 0 (never 0: d1 > d2). The quotient may be −inf for a
            // subnormal divisor, never NaN (finite numerator), and is clamped at 0.
            let f = (d1 - skin) / (d1 - d2);
            let f = if less(0.0, f) { f } else { 0.0 };
            if less(self.enter, f) {
                self.enter = f;
                self.plane = plane;
            }
        } else {
            // Leaving; the divisor is < 0 (d1 ≤ 0 < d2). Where the move leaves the plane
            // pushed out by the skin (d = +skin). Quake III uses `d1 + ε` (d = −ε), which shrinks
            // the window and lets a move clip a corner it overlaps only briefly; this keeps the
            // window of the skin-expanded brush, so no part of a solid is ever crossed.
            let f = (d1 - skin) / (d1 - d2);
            let f = if less(f, 1.0) { f } else { 1.0 };
            if less(f, self.leave) {
                self.leave = f;
            }
        }
        true
    }
}

/// Clip the sweep against brush `index`, updating `best` (a nearer hit, or a tie with a lower
/// index, wins). Quake III's `CM_TraceThroughBrush`: the axial planes from the bounding box,
/// then the sloped planes with the box's corner offset per plane.
#[inline(always)]
pub(super) fn clip_brush(sw: &Sweep, bounds: &Bounds, b: &Brush, index: u16, best: &mut Best) {
    if bounds.touches(b) && !bounds.above(b) {
        clip_touching(sw, b, index, best);
    }
}

impl Bounds {
    /// The box stays above the brush's top (its +Y plane) the whole move: the clip's test of
    /// that plane, the same distances and the same rule ([`Clip::side`] returning false), so the
    /// brush is missed whatever its other planes say. Inline, so the ground a body moves along
    /// (touched, a skin below its feet) costs no call.
    #[inline(always)]
    fn above(&self, b: &Brush) -> bool {
        let d1 = self.bottom.0 - b.maxs.y;
        let d2 = self.bottom.1 - b.maxs.y;
        less(0.0, d1) && (le(self.skin, d2) || le(d1, d2))
    }

    /// The brush's bounds meet the swept box's (widened by the skin): Quake's
    /// `CM_BoundsIntersect`, the test most candidates fail. Inline in the candidate loop; the
    /// clip itself ([`clip_touching`]) is out of line.
    #[inline(always)]
    pub(super) fn touches(&self, b: &Brush) -> bool {
        // X and Z first: the grid's candidates share the query's cells but mostly miss its box
        // there, while most solids stand on the floor, as the body does (Y rarely decides).
        // (Finite bounds, never NaN: [`less`] applies.)
        !(less(b.maxs.x, self.lo.x)
            || less(self.hi.x, b.mins.x)
            || less(b.maxs.z, self.lo.z)
            || less(self.hi.z, b.mins.z)
            || less(b.maxs.y, self.lo.y)
            || less(self.hi.y, b.mins.y))
    }
}

/// [`clip_brush`] for a brush whose bounds meet the sweep's.
#[inline(never)]
fn clip_touching(sw: &Sweep, b: &Brush, index: u16, best: &mut Best) {
    let mut c = Clip {
        enter: -1.0,
        leave: 1.0,
        plane: 0,
        start_out: false,
        get_out: false,
    };
    let skin = sw.skin;
    // Axial planes, −X +X −Y +Y −Z +Z: the box's far corner along each is mins/maxs itself.
    // Unrolled, each plane's distances computed only when the planes before it did not end the
    // test.
    macro_rules! axial {
        ($i:expr, $d1:expr, $d2:expr) => {
            if !c.side($d1, $d2, $i, skin) {
                return;
            }
        };
    }
    // The box at the start and the end: `start + mins`, `start + maxs`, `end + mins`, `end + maxs`
    // (per component, as each plane needs it).
    // X or Z, when the brush spans the whole swept box (its bounds) along it, is skipped: there
    // the box stays behind both planes at the start and the end (each distance ≤ 0: rounding is
    // monotonic and the bounds lie outside the box's corners), so they decide nothing. Most
    // often the floor. (Not tried along Y: the solids a body touches are mostly below it.)
    let (s, e, lo, hi) = (sw.start, sw.end, sw.mins, sw.maxs);
    let spans = |bmin: f32, bmax: f32, lo: f32, hi: f32| le(bmin, lo) && le(hi, bmax);
    let [lo_x, hi_x, lo_z, hi_z] = sw.span_xz;
    if !spans(b.mins.x, b.maxs.x, lo_x, hi_x) {
        axial!(0, b.mins.x - (s.x + hi.x), b.mins.x - (e.x + hi.x));
        axial!(1, (s.x + lo.x) - b.maxs.x, (e.x + lo.x) - b.maxs.x);
    }
    axial!(2, b.mins.y - (s.y + hi.y), b.mins.y - (e.y + hi.y));
    axial!(3, (s.y + lo.y) - b.maxs.y, (e.y + lo.y) - b.maxs.y);
    if !spans(b.mins.z, b.maxs.z, lo_z, hi_z) {
        axial!(4, b.mins.z - (s.z + hi.z), b.mins.z - (e.z + hi.z));
        axial!(5, (s.z + lo.z) - b.maxs.z, (e.z + lo.z) - b.maxs.z);
    }
    for (i, p) in b.sloped_planes().iter().enumerate() {
        let n = p.normal;
        // The box corner deepest behind the plane (Quake's `offsets[signbits]`).
        let corner = Vec3::new(
            if n.x < 0.0 { sw.maxs.x } else { sw.mins.x },
            if n.y < 0.0 { sw.maxs.y } else { sw.mins.y },
            if n.z < 0.0 { sw.maxs.z } else { sw.mins.z },
        );
        let dist = p.dist - n.dot(corner);
        let d1 = n.dot(sw.start) - dist;
        let d2 = n.dot(sw.end) - dist;
        if !c.side(d1, d2, 6 + i as u8, skin) {
            return;
        }
    }
    if !c.start_out {
        best.start_solid = true;
        if !c.get_out && best.all_solid.is_none_or(|s| index < s) {
            best.all_solid = Some(index);
        }
        return;
    }
    if less(c.enter, c.leave)
        && less(-1.0, c.enter)
        && (less(c.enter, best.fraction)
            || (eq(c.enter, best.fraction) && best.solid.is_some_and(|s| index < s)))
    {
        best.fraction = c.enter;
        best.solid = Some(index);
        best.plane = c.plane;
    }
}

/// The result of a sweep whose brushes have all been clipped into `best`. Inline always: with a
/// second caller ([`trace_one`]) it was outlined, a call more in every trace of the world (about
/// 15 instructions a trace on the Cortex-M4F).
#[inline(always)]
pub(super) fn finish(sw: &Sweep, best: &Best, brushes: &[Brush]) -> TraceResult {
    let flags_of = |s: u16| {
        brushes
            .get(usize::from(s))
            .map_or(SolidFlags::NONE, |b| b.flags)
    };
    if let Some(s) = best.all_solid {
        return TraceResult {
            fraction: 0.0,
            end: sw.start,
            plane: Plane::NONE,
            start_solid: true,
            all_solid: true,
            solid: Some(s),
            flags: flags_of(s),
        };
    }
    let Some(s) = best.solid else {
        return TraceResult {
            start_solid: best.start_solid,
            ..TraceResult::clear(sw.end)
        };
    };
    let fraction = clamp(best.fraction, 0.0, 1.0);
    let plane = brushes.get(usize::from(s)).map_or(Plane::NONE, |b| {
        let i = usize::from(best.plane);
        if i < 6 {
            b.axial_plane(i)
        } else {
            b.sloped_planes().get(i - 6).copied().unwrap_or(Plane::NONE)
        }
    });
    TraceResult {
        fraction,
        end: sw.start + (sw.end - sw.start) * fraction,
        plane,
        start_solid: best.start_solid,
        all_solid: false,
        solid: Some(s),
        flags: flags_of(s),
    }
}

/// True when the box of `sw` at its start overlaps or touches brush `b` (a position test: every
/// expanded plane at distance ≤ 0, as a trace's `start_solid`).
#[inline]
pub(super) fn overlaps(sw: &Sweep, bounds: &Bounds, b: &Brush) -> bool {
    let mut best = Best::new();
    clip_brush(sw, bounds, b, 0, &mut best);
    best.start_solid
}

/// The trace of the box `mins..maxs` from `start` to `end` against brush `b` alone (reported as
/// solid `index`), with the skin `skin`.
pub(super) fn trace_one(
    b: &Brush,
    index: u16,
    start: Vec3,
    end: Vec3,
    (mins, maxs): (Vec3, Vec3),
    skin: f32,
) -> TraceResult {
    let (sw, bounds) = Sweep::new(start, end, mins, maxs, skin);
    let mut best = Best::new();
    clip_brush(&sw, &bounds, b, 0, &mut best);
    let mut t = finish(&sw, &best, core::slice::from_ref(b));
    if t.solid.is_some() {
        t.solid = Some(index);
    }
    t
}

#[cfg(test)]
mod tests {
    use super::*;

    /// [`Bounds::of`]'s two forms give the same bits, for level moves, moves up and down, equal
    /// heights of either zero sign, and skins of zero and not.
    #[test]
    fn bounds_forms_agree() {
        let mut seed = 0x1234_5678u32;
        let mut next = || {
            seed ^= seed << 13;
            seed ^= seed >> 17;
            seed ^= seed << 5;
            (seed % 4001) as f32 * 0.37 - 740.0
        };
        let bits = |v: Vec3| [v.x.to_bits(), v.y.to_bits(), v.z.to_bits()];
        for i in 0..4000 {
            let start = Vec3::new(next(), next(), next());
            let end = match i % 4 {
                0 => Vec3::new(next(), start.y, next()),
                1 => Vec3::new(start.x, next(), start.z),
                2 => Vec3::new(next(), -start.y, next()),
                _ => Vec3::new(next(), next(), next()),
            };
            let (start, end) = if i % 50 == 0 {
                (Vec3::new(1.0, 0.0, 2.0), Vec3::new(3.0, -0.0, 4.0))
            } else {
                (start, end)
            };
            let mins = Vec3::new(-16.0, if i % 3 == 0 { -0.0 } else { 0.0 }, -16.0);
            let maxs = Vec3::new(16.0, 56.0, 16.0);
            let skin = if i % 5 == 0 { 0.0 } else { 0.125 };
            let f = Bounds::of(start, end, (mins, maxs), skin, false);
            let s = Bounds::of(start, end, (mins, maxs), skin, true);
            assert_eq!(bits(f.lo), bits(s.lo), "{start:?} {end:?}");
            assert_eq!(bits(f.hi), bits(s.hi));
            assert_eq!(
                (f.bottom.0.to_bits(), f.bottom.1.to_bits()),
                (s.bottom.0.to_bits(), s.bottom.1.to_bits())
            );
        }
    }
}
