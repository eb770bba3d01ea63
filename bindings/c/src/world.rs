//! A level made of solids, built from C, and a box traced through it: C view of
//! `hopkit::collide` (issue 34). `HkWorld` is the built-in `World` of up to `HK_WORLD_CAPACITY`
//! solids (boxes, ramps, stairs, convex brushes from planes) in caller-owned storage;
//! `hk_world_trace` sweeps a box through it (`HkTrace`, the core's `TraceResult`), and
//! `hk_mover_step_world` moves a character through it with the slide move. A game with its own
//! physics answers the same trace through `HkGround::trace` instead (see `HkGroundTraceFn`).

use crate::ptr::{self, assert_fits, assert_zero_valid, finite, out, put};
use crate::status::{status, HkStatus, HK_ERR_BAD_LENGTH, HK_ERR_FULL, HK_ERR_INVALID_ARG};
use crate::types::HkVec3;
use hopkit::collide::{
    Brush, BrushError, Plane, SolidFlags, Toward, TraceResult, Tracer, WaterVolume, World,
    MAX_COORD, MAX_INPUT_PLANES, MAX_SKIN, MAX_WATER_VOLUMES, SURFACE_CLIP_EPSILON,
};
use hopkit::math::Vec3;

/// Most solids an [`HkWorld`] holds.
pub const HK_WORLD_CAPACITY: usize = 256;
/// Size in bytes of [`HkWorld`] storage (36 KiB; the core's `World<256>` is 36,312 bytes on
/// 64-bit targets, less on 32-bit ones).
pub const HK_WORLD_SIZE: usize = 36_864;
const WORLD_TAG: u64 = u64::from_le_bytes(*b"hkWorld1");
/// The world behind [`HkWorld`].
pub(crate) type CWorld = World<HK_WORLD_CAPACITY>;
const _: () = assert_fits::<CWorld>(HK_WORLD_SIZE);
// `hk_world_init` builds the world in its storage from zeroed bytes (`ptr::init_zeroed`): the
// core's `World` is integers, floats and a `heapless::Vec` (a length and `MaybeUninit` slots).
const _: () = assert_zero_valid::<CWorld>();

/// Quake III's skin (`SURFACE_CLIP_EPSILON`), world units: a trace stops this far in front of
/// what it hits. The skin for worlds in Quake units; for metres (the seed presets) 1/256 keeps
/// the same proportion to the body.
pub const HK_WORLD_DEFAULT_SKIN: f32 = 0.125;
const _: () = assert!(HK_WORLD_DEFAULT_SKIN == SURFACE_CLIP_EPSILON);
/// Largest skin [`hk_world_init`] accepts, world units.
pub const HK_WORLD_MAX_SKIN: f32 = 1024.0;
const _: () = assert!(HK_WORLD_MAX_SKIN == MAX_SKIN);
/// Solids lie within ±`HK_WORLD_MAX_COORD` (2²⁰) on every axis; trace inputs are clamped into it.
pub const HK_WORLD_MAX_COORD: f32 = 1_048_576.0;
const _: () = assert!(HK_WORLD_MAX_COORD == MAX_COORD);
/// Most water volumes an [`HkWorld`] holds ([`hk_world_add_water`]).
pub const HK_WORLD_MAX_WATER: usize = 8;
const _: () = assert!(HK_WORLD_MAX_WATER == MAX_WATER_VOLUMES);
/// Most planes [`hk_world_add_planes`] accepts.
pub const HK_WORLD_MAX_INPUT_PLANES: usize = 16;
const _: () = assert!(HK_WORLD_MAX_INPUT_PLANES == MAX_INPUT_PLANES);

/// Solid flag bit: a climbable solid (a ladder). Carried into traces (`HkTrace::flags`); every
/// solid blocks whatever its flags; `hk_mover_step_world` climbs it (the core's ladder among
/// solids).
pub const HK_SOLID_LADDER: u32 = 1;
/// Solid flag bits reserved for hopkit's future kinds (1–15): flags with any of them set are
/// `HK_ERR_INVALID_ARG`. Bits 16–31 are free for the game (materials, sounds, …).
pub const HK_SOLID_RESERVED_MASK: u32 = 0xfffe;
const _: () = assert!(
    HK_SOLID_LADDER == SolidFlags::LADDER.0
        && HK_SOLID_RESERVED_MASK == SolidFlags::RESERVED
        && (HK_SOLID_LADDER | HK_SOLID_RESERVED_MASK | SolidFlags::GAME) == u32::MAX
);
/// [`HkTrace::solid`] when nothing was hit.
pub const HK_SOLID_NONE: i32 = -1;

/// Ramp and stairs direction ([`hk_world_add_ramp`], [`hk_world_add_stairs`]): rising towards +X.
pub const HK_TOWARD_PLUS_X: u32 = 0;
/// Rising towards −X.
pub const HK_TOWARD_MINUS_X: u32 = 1;
/// Rising towards +Z.
pub const HK_TOWARD_PLUS_Z: u32 = 2;
/// Rising towards −Z.
pub const HK_TOWARD_MINUS_Z: u32 = 3;

/// Opaque storage for a level of up to `HK_WORLD_CAPACITY` solids with its grid broadphase
/// (36 KiB: make it `static` or allocate it; [`hk_world_init`] builds the world in it, in place).
/// Initialise with [`hk_world_init`], add solids
/// with `hk_world_add_*` (solid `i` is the `i`-th added), then trace through it.
#[repr(C, align(8))]
pub struct HkWorld {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_WORLD_SIZE],
}

/// A plane `normal · p = dist`; the solid side is `normal · p < dist` (the normal points out of
/// the solid, as Quake's brush sides).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkPlane {
    /// Normal pointing out of the solid (any non-zero length where an input; unit in an output).
    pub normal: HkVec3,
    /// Signed distance of the plane from the origin along the unit normal, world units.
    pub dist: f32,
}

/// What a box trace found: the core's `TraceResult`.
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkTrace {
    /// Part of the move completed, in [0, 1] (1: nothing hit).
    pub fraction: f32,
    /// Where the box's origin (the feet) stopped, world units; a skin in front of what it hit.
    pub end: HkVec3,
    /// The surface hit, its normal out of the solid; zero normal when nothing was hit or when
    /// `all_solid`.
    pub plane: HkPlane,
    /// 1 when the box started inside (or touching) a solid (such a solid does not block it).
    pub start_solid: u8,
    /// 1 when the box stayed inside a solid the whole move (`fraction` 0, `end` the start).
    pub all_solid: u8,
    /// Index of the solid hit (or the all-solid one), `HK_SOLID_NONE` (−1) when none.
    pub solid: i32,
    /// That solid's flags (`HK_SOLID_*`), 0 when none.
    pub flags: u32,
}

impl From<TraceResult> for HkTrace {
    fn from(t: TraceResult) -> Self {
        HkTrace {
            fraction: t.fraction,
            end: t.end.into(),
            plane: HkPlane {
                normal: t.plane.normal.into(),
                dist: t.plane.dist,
            },
            start_solid: t.start_solid as u8,
            all_solid: t.all_solid as u8,
            solid: t.solid.map_or(HK_SOLID_NONE, i32::from),
            flags: t.flags.0,
        }
    }
}

impl HkTrace {
    /// The answer of a C trace callback for the move `start → end`, made to keep the core's
    /// `Tracer` contract (documented at `HkGroundTraceFn`): `all_solid` forces `fraction` 0 and
    /// `end` = `start`; a NaN `fraction` is 0, the rest clamped into [0, 1]; a non-finite `end`
    /// is `start + fraction·(end − start)` (or `start`); a unit normal is used as given, another
    /// finite non-zero one normalised, a zero or non-finite normal or a non-finite `dist` is no
    /// plane; a `solid` outside 0 ..= 65,535 is none.
    pub(crate) fn to_core(self, start: Vec3, end: Vec3) -> TraceResult {
        let solid = u16::try_from(self.solid).ok();
        let flags = SolidFlags(self.flags);
        if self.all_solid != 0 {
            return TraceResult {
                fraction: 0.0,
                end: start,
                plane: Plane::NONE,
                start_solid: true,
                all_solid: true,
                solid,
                flags,
            };
        }
        let fraction = if self.fraction.is_nan() {
            0.0
        } else {
            self.fraction.clamp(0.0, 1.0)
        };
        let given = Vec3::from(self.end);
        let end = if given.is_finite() {
            given
        } else {
            let lerp = start + (end - start) * fraction;
            if lerp.is_finite() {
                lerp
            } else {
                start
            }
        };
        TraceResult {
            fraction,
            end,
            plane: self.plane.to_unit().unwrap_or(Plane::NONE),
            start_solid: self.start_solid != 0,
            all_solid: false,
            solid,
            flags,
        }
    }
}

impl HkPlane {
    /// The plane with a unit normal: kept as given when its length is 1 to within 1e-4 (the
    /// built-in world's normals keep their bits), normalised otherwise; `None` for a zero, tiny
    /// or non-finite normal or a non-finite `dist`.
    fn to_unit(self) -> Option<Plane> {
        let n = Vec3::from(self.normal);
        if !n.is_finite() || !self.dist.is_finite() {
            return None;
        }
        let l2 = n.length_squared();
        if (l2 - 1.0).abs() <= 1.0e-4 {
            return Some(Plane {
                normal: n,
                dist: self.dist,
            });
        }
        Plane::new(n, self.dist)
    }
}

/// Flags with no reserved bit set, or `HK_ERR_INVALID_ARG`.
fn solid_flags(flags: u32) -> Result<SolidFlags, HkStatus> {
    if flags & SolidFlags::RESERVED == 0 {
        Ok(SolidFlags(flags))
    } else {
        Err(HK_ERR_INVALID_ARG)
    }
}

fn toward(t: u32) -> Result<Toward, HkStatus> {
    match t {
        HK_TOWARD_PLUS_X => Ok(Toward::PlusX),
        HK_TOWARD_MINUS_X => Ok(Toward::MinusX),
        HK_TOWARD_PLUS_Z => Ok(Toward::PlusZ),
        HK_TOWARD_MINUS_Z => Ok(Toward::MinusZ),
        _ => Err(HK_ERR_INVALID_ARG),
    }
}

fn brush_status(e: BrushError) -> HkStatus {
    match e {
        BrushError::TooManyPlanes => HK_ERR_BAD_LENGTH,
        _ => HK_ERR_INVALID_ARG,
    }
}

/// The world in initialised storage (shared).
///
/// # Safety
/// `world` NULL or an `HkWorld`, not written during the borrow.
pub(crate) unsafe fn world_ref<'a>(world: *const HkWorld) -> Result<&'a CWorld, HkStatus> {
    unsafe { ptr::get(world, WORLD_TAG) }
}

/// An optional out-pointer for a solid index: checked now, written by [`add`].
fn index_out(out_index: *mut u32) -> Result<Option<*mut u32>, HkStatus> {
    if out_index.is_null() {
        Ok(None)
    } else {
        out(out_index).map(Some)
    }
}

/// Add the `count` `brushes` (already validated) to the world at `world`, all or nothing, and
/// write the first one's index to `out_index` (if not NULL).
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_index` NULL or writable.
unsafe fn add(
    world: *mut HkWorld,
    count: usize,
    brushes: impl IntoIterator<Item = Brush>,
    out_index: *mut u32,
) -> Result<(), HkStatus> {
    let o = index_out(out_index)?;
    let w: &mut CWorld = unsafe { ptr::get_mut(world, WORLD_TAG)? };
    let first = w.len();
    if count > HK_WORLD_CAPACITY - first {
        return Err(HK_ERR_FULL);
    }
    w.extend(brushes).map_err(|_| HK_ERR_FULL)?;
    if let Some(o) = o {
        // `first` < HK_WORLD_CAPACITY: fits a u32.
        unsafe { put(o, first as u32) };
    }
    Ok(())
}

/// Initialise an empty world whose traces stop `skin` world units in front of what they hit
/// (finite, 0 ≤ skin ≤ `HK_WORLD_MAX_SKIN`; `HK_WORLD_DEFAULT_SKIN`, Quake III's 1/8, for
/// Quake units; 1/256 for metres).
///
/// Stack: the world is built in the storage itself (zeroed, then emptied and given its skin in
/// place), never as a value on the stack: 56 bytes at most on a Cortex-M4F (`opt-level = "s"`:
/// this frame 24, `World::clear` 8, the `memclr`/`memset` under them 24; from the disassembly),
/// and it runs in a thread with a 16 KiB stack in a debug build (tested). Built on the stack and
/// moved in, as before, it took 35,896 bytes on the M4F. Every other `hk_world_*` call works in
/// place too.
///
/// # Safety
/// `world` NULL or writable `HkWorld` storage.
#[no_mangle]
pub unsafe extern "C" fn hk_world_init(world: *mut HkWorld, skin: f32) -> HkStatus {
    status((|| {
        if !(finite(skin)? >= 0.0 && skin <= HK_WORLD_MAX_SKIN) {
            return Err(HK_ERR_INVALID_ARG);
        }
        // Checked (NULL, alignment) before anything is written.
        unsafe {
            ptr::init_zeroed(world, WORLD_TAG, |w: &mut CWorld| {
                w.clear();
                w.set_skin(skin);
            })
        }
    })())
}

/// Remove every solid and every water volume (the skin stays).
///
/// # Safety
/// `world` NULL or an `HkWorld`.
#[no_mangle]
pub unsafe extern "C" fn hk_world_clear(world: *mut HkWorld) -> HkStatus {
    status((|| {
        let w: &mut CWorld = unsafe { ptr::get_mut(world, WORLD_TAG)? };
        w.clear();
        Ok(())
    })())
}

/// Number of solids in the world (0 ..= `HK_WORLD_CAPACITY`).
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_len` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_world_len(world: *const HkWorld, out_len: *mut u32) -> HkStatus {
    status((|| {
        let o = out(out_len)?;
        let w = unsafe { world_ref(world)? };
        unsafe { put(o, w.len() as u32) };
        Ok(())
    })())
}

/// Add an axis-aligned box between the corners `a` and `b` (any order; flat allowed) with
/// `flags` (`HK_SOLID_*`). Its index goes to `*out_index` (may be NULL). Errors: a coordinate
/// not finite or beyond ±`HK_WORLD_MAX_COORD`, or a reserved flag bit: `HK_ERR_INVALID_ARG`; a
/// full world: `HK_ERR_FULL` (nothing added).
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_index` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_world_add_box(
    world: *mut HkWorld,
    a: HkVec3,
    b: HkVec3,
    flags: u32,
    out_index: *mut u32,
) -> HkStatus {
    status((|| {
        let brush = Brush::aabb(a.finite()?, b.finite()?).map_err(brush_status)?;
        let brush = brush.with_flags(solid_flags(flags)?);
        unsafe { add(world, 1, [brush], out_index) }
    })())
}

/// Add a ramp (wedge): the box between `a` and `b` cut by one sloped plane, its top rising from
/// the bottom at one end to the top at the other, towards `toward` (`HK_TOWARD_*`). A ramp with
/// no rise or run is its box. Errors as [`hk_world_add_box`], and an unknown `toward`:
/// `HK_ERR_INVALID_ARG`.
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_index` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_world_add_ramp(
    world: *mut HkWorld,
    a: HkVec3,
    b: HkVec3,
    toward: u32,
    flags: u32,
    out_index: *mut u32,
) -> HkStatus {
    status((|| {
        let dir = self::toward(toward)?;
        let brush = Brush::ramp(a.finite()?, b.finite()?, dir).map_err(brush_status)?;
        let brush = brush.with_flags(solid_flags(flags)?);
        unsafe { add(world, 1, [brush], out_index) }
    })())
}

/// Add a straight staircase of `steps` solid boxes (each from the floor up), the first step's
/// lower corner at `base`: step `i` spans `run` units towards `toward` (`HK_TOWARD_*`) starting
/// `i·run` from `base`, `width` units across (+Z for X stairs, +X for Z stairs) and rises to
/// `base.y + (i + 1)·rise` (sizes taken as magnitudes). The first step's index goes to
/// `*out_first_index` (may be NULL); the others follow it. All the steps or none: `steps` 0, a
/// number not finite, the staircase beyond ±`HK_WORLD_MAX_COORD`, an unknown `toward` or a
/// reserved flag bit is `HK_ERR_INVALID_ARG`; steps that do not all fit are `HK_ERR_FULL`.
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_first_index` NULL or writable.
#[no_mangle]
#[allow(clippy::too_many_arguments)]
pub unsafe extern "C" fn hk_world_add_stairs(
    world: *mut HkWorld,
    base: HkVec3,
    toward: u32,
    steps: u32,
    rise: f32,
    run: f32,
    width: f32,
    flags: u32,
    out_first_index: *mut u32,
) -> HkStatus {
    status((|| {
        let dir = self::toward(toward)?;
        let (rise, run, width) = (finite(rise)?, finite(run)?, finite(width)?);
        let f = solid_flags(flags)?;
        if steps == 0 {
            return Err(HK_ERR_INVALID_ARG);
        }
        // More steps than any world holds: full (u16 is the core's step count).
        let steps = u16::try_from(steps)
            .ok()
            .filter(|&s| usize::from(s) <= HK_WORLD_CAPACITY)
            .ok_or(HK_ERR_FULL)?;
        let stairs =
            Brush::stairs(base.finite()?, dir, steps, rise, run, width).map_err(brush_status)?;
        unsafe {
            add(
                world,
                usize::from(steps),
                stairs.map(|b| b.with_flags(f)),
                out_first_index,
            )
        }
    })())
}

/// Add the convex solid bounded by `count` planes (`normal · p ≤ dist` inside; any non-zero
/// normal length): its corners are found, redundant planes dropped, the axial ones become its
/// bounding box, the rest (at most 6 sloped faces) kept with q3map's edge bevels. Errors:
/// `count` above `HK_WORLD_MAX_INPUT_PLANES`, more than 6 sloped faces or more than 64 corners:
/// `HK_ERR_BAD_LENGTH`; a non-finite number, a zero normal, planes that enclose nothing or no
/// bounded region within ±`HK_WORLD_MAX_COORD`, a reserved flag bit: `HK_ERR_INVALID_ARG`; a
/// full world: `HK_ERR_FULL`.
///
/// # Safety
/// `world` NULL or an `HkWorld`; `planes` NULL (only with `count` 0) or `count` readable planes;
/// `out_index` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_world_add_planes(
    world: *mut HkWorld,
    planes: *const HkPlane,
    count: usize,
    flags: u32,
    out_index: *mut u32,
) -> HkStatus {
    status((|| {
        if count > HK_WORLD_MAX_INPUT_PLANES {
            return Err(HK_ERR_BAD_LENGTH);
        }
        let given = unsafe { ptr::slice(planes, count)? };
        let mut core = [Plane::NONE; HK_WORLD_MAX_INPUT_PLANES];
        for (c, p) in core.iter_mut().zip(given) {
            *c = Plane {
                normal: p.normal.finite()?,
                dist: finite(p.dist)?,
            };
        }
        let f = solid_flags(flags)?;
        let used = core.get(..count).ok_or(HK_ERR_BAD_LENGTH)?;
        let brush = Brush::from_planes(used).map_err(brush_status)?;
        unsafe { add(world, 1, [brush.with_flags(f)], out_index) }
    })())
}

/// Add a box of water between the corners `a` and `b` (any order; flat allowed): a pool, a
/// flooded room (Quake's `CONTENTS_WATER` brush). It blocks no trace; `hk_mover_step_world`
/// swims in it: the water surface at the feet is the top of the highest volume containing
/// them (faces included; beside, below or above every volume: dry). Make a pool's volume reach
/// down to (or into) its floor. Its index (0, 1, … counted apart from the solids') goes to
/// `*out_index` (may be NULL). Errors: a coordinate not finite or beyond
/// ±`HK_WORLD_MAX_COORD`: `HK_ERR_INVALID_ARG`; `HK_WORLD_MAX_WATER` volumes already in:
/// `HK_ERR_FULL` (nothing added).
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_index` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_world_add_water(
    world: *mut HkWorld,
    a: HkVec3,
    b: HkVec3,
    out_index: *mut u32,
) -> HkStatus {
    status((|| {
        let volume = WaterVolume::new(a.finite()?, b.finite()?).map_err(brush_status)?;
        let o = index_out(out_index)?;
        let w: &mut CWorld = unsafe { ptr::get_mut(world, WORLD_TAG)? };
        let index = w.add_water(volume).map_err(|_| HK_ERR_FULL)?;
        if let Some(o) = o {
            unsafe { put(o, u32::from(index)) };
        }
        Ok(())
    })())
}

/// The water at `point`: `*out_in_water` 1 and `*out_surface` the surface's height (world Y)
/// when `point` is inside a water volume (the highest top among those containing it), else
/// `*out_in_water` 0 and `*out_surface` 0. `point` must be finite (`HK_ERR_INVALID_ARG`).
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_in_water`, `out_surface` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_world_water(
    world: *const HkWorld,
    point: HkVec3,
    out_in_water: *mut u8,
    out_surface: *mut f32,
) -> HkStatus {
    status((|| {
        let p = point.finite()?;
        let (oi, os) = (out(out_in_water)?, out(out_surface)?);
        let w = unsafe { world_ref(world)? };
        let surface = w.water(p);
        unsafe {
            put(oi, u8::from(surface.is_some()));
            put(os, surface.unwrap_or(0.0));
        }
        Ok(())
    })())
}

/// Sweep the box `mins..maxs` (relative to the feet: a standing body of radius `r` and height
/// `h` is `(−r, 0, −r)..(r, h, r)`; an inverted box is reordered) from `start` to `end` through
/// the world; where it stopped and what it hit to `*out_trace`. Every vector must be finite
/// (`HK_ERR_INVALID_ARG`); coordinates beyond ±`HK_WORLD_MAX_COORD` are clamped into it. The
/// nearest hit wins, ties to the lowest solid index; bounded work (≤ 256 grid cells, each solid
/// tested once).
///
/// # Safety
/// `world` NULL or an `HkWorld`; `out_trace` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_world_trace(
    world: *const HkWorld,
    start: HkVec3,
    end: HkVec3,
    mins: HkVec3,
    maxs: HkVec3,
    out_trace: *mut HkTrace,
) -> HkStatus {
    status((|| {
        let (s, e) = (start.finite()?, end.finite()?);
        let (lo, hi) = (mins.finite()?, maxs.finite()?);
        let o = out(out_trace)?;
        let w = unsafe { world_ref(world)? };
        unsafe { put(o, w.trace(s, e, lo, hi).into()) };
        Ok(())
    })())
}
