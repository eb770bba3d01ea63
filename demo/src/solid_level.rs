//! The demo level made of solids ([`crate::level::Level::Solid`], issue 34 §6): the body collides
//! with it (`movement::slide`, Quake III's collide-and-slide) instead of walking a height probe.
//!
//! One table, [`BLOCKS`], is the level: the world is built from it ([`build`], once per scene,
//! the same solids in the same order on every machine) and the view draws it
//! (`render/solids.rs`). In metres, for the seed preset the demo plays (body 0.8 wide, 1.8 high
//! standing, 0.9 crouched, steps up to 0.3):
//!
//! - the **floor** (top at 0) with a hole for the **pool** ([`POOL`], its floor at
//!   [`POOL_FLOOR`]), water up to [`POOL_WATER`] in it ([`POOL_VOLUME`], a water volume of the
//!   world);
//! - the **arena's walls** just outside ±[`ARENA_HALF_EXTENT`], 4 m high;
//! - the **tower** ([`TOWER`], [`TOWER_HEIGHT`] high): its sides are walls; a **ladder**
//!   ([`SolidFlags::LADDER`]) on its west face, as on [`Level::Full`];
//! - **stairs** up to the tower's top on its south side: [`STAIR_STEPS`] steps of
//!   [`STAIR_RISE`] × [`STAIR_RUN`], the last one level with the top;
//! - a **surf ramp** along the tower's east side and on north of it ([`SURF_RAMP`]): its face
//!   60° steep (normal y 0.5, steeper than the seed's 45° walkable limit), 28 m long, from the
//!   tower's top down to the floor: step off the tower's east edge onto it and air-strafe into
//!   the face;
//! - a **low corridor** ([`CORRIDOR`]): two walls and a roof [`CORRIDOR_CEILING`] above the floor,
//!   lower than the standing body and higher than the crouched one: crouch to go through;
//! - the two walkable ramps of the other levels ([`RAMPS`]), as wedges (their high ends are
//!   walls);
//! - the **turntable** of [`Level::Full`] ([`TURNTABLE_CENTER`]): a turning patch of the floor
//!   ([`SolidGround::surface_motion`]); the carry is swept, so it cannot push the body into a
//!   wall.
//!
//! **Water among solids.** The pool's water is the world's ([`World::add_water`]: [`build`] adds
//! [`POOL_VOLUME`], the pool's box from inside its floor up to [`POOL_WATER`]), and [`SolidGround`]
//! answers [`GroundProbe::water`] by asking the world ([`Tracer::water`]): the surface for feet
//! inside the box, none elsewhere (the same water levels as the pool's columns the level answered
//! itself before: feet above the surface are dry either way, and a body below it is in the pool's
//! hole; tested). While the body swims, hopkit's water tick sweeps it through the solids as the
//! walking tick does (`movement::water` among solids: Quake III's `PM_WaterMove` and
//! `PM_WaterJumpMove` by the slide move, the ground by the ground trace, the water jump's edge by a
//! point trace), so a swimmer's box stays out of the pool's walls and the water jump climbs the
//! edge (tested: the tour's "water jump out" leg runs the water jump's timer and ends on the floor
//! east of the pool). The water tick no longer asks [`GroundProbe::probe`]; its footprint trace
//! (and, where the footprint is already in a solid, that solid's top) stays: it is still what the
//! crouch's stand-up test in the air asks (`GroundProbe::height`), and a documented answer for any
//! other caller; its in-a-solid branch was for the water tick's walls and is no longer needed by
//! it.
//!
//! Only the player moves on the solids; the companion, the critters and the ghosts keep the
//! plain ground ([`crate::level::DemoGround`]), as on the other levels (the ghosts' recordings
//! were taken over it).

use hopkit::collide::{
    Brush, Solid, SolidFlags, Toward, TraceGuard, TraceResult, Tracer, WaterVolume, World,
};
use hopkit::ground::{GroundHit, GroundProbe, SurfaceMotion};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{self, MoveInput, MoveParams, MoverState, StepEvents};
use hopkit::slope::{SlopeParams, SlopeState};

use crate::level::{
    DemoLevel, Zone, ARENA_HALF_EXTENT, POOL, POOL_FLOOR, POOL_WATER, RAMPS, TOWER, TOWER_HEIGHT,
};
#[cfg(doc)]
use crate::level::{Level, TURNTABLE_CENTER};

/// Solids the level's world holds at most: [`BLOCKS`] makes [`SOLID_COUNT`] of them (a test
/// checks that they fit). A `World<32>` is 32 · 138 + 540 bytes plus a `usize` (≈ 5 KB).
pub const SOLID_CAPACITY: usize = 32;

/// The level's world of solids.
pub type SolidWorld = World<SOLID_CAPACITY>;

/// The world's skin, metres: how far a trace stops in front of a surface. Quake III's 1/8 unit
/// is 0.22 % of its standing body (56); 1/256 m is the same share of the seed's 1.8 m (and well
/// under the seed's `ground_snap`, 0.05, as the ground trace needs).
pub const SOLID_SKIN: f32 = 1.0 / 256.0;

/// Depth of the floor slabs and the pool's floor (their bottom), metres.
pub const FLOOR_BOTTOM: f32 = -4.0;
/// Height of the arena's walls, metres.
pub const WALL_HEIGHT: f32 = 4.0;
/// Thickness of the arena's walls, metres (outside ±[`ARENA_HALF_EXTENT`]).
pub const WALL_THICKNESS: f32 = 1.0;

/// The ladder's solid: 0.1 m thick on the tower's west face, 2 m wide, as high as the tower.
pub const LADDER_SOLID: (Vec3, Vec3) = (
    Vec3::new(TOWER.min.x - 0.1, 0.0, 21.0),
    Vec3::new(TOWER.min.x, TOWER_HEIGHT, 23.0),
);

/// Steps of the stairs up to the tower.
pub const STAIR_STEPS: u16 = 12;
/// Rise of each step, metres ([`STAIR_STEPS`] of them reach [`TOWER_HEIGHT`]; under the seed's
/// 0.3 m `step_up`).
pub const STAIR_RISE: f32 = TOWER_HEIGHT / STAIR_STEPS as f32;
/// Run (depth) of each step, metres.
pub const STAIR_RUN: f32 = 0.5;
/// The stairs' footprint: 2 m wide, rising towards +Z up to the tower's south face.
pub const STAIRS: Zone = Zone {
    min: Vec2::new(31.0, TOWER.min.y - STAIR_RUN * STAIR_STEPS as f32),
    max: Vec2::new(33.0, TOWER.min.y),
};

/// Height of the surf ramp's ridge, metres.
pub const SURF_HEIGHT: f32 = 6.0;
/// The surf ramp's footprint, east of the tower: its face rises 60° towards +X, facing the tower
/// (run `SURF_HEIGHT / tan 60°`), from the floor at `min.x` to the ridge at `max.x`, 36 m long
/// (from z = 10 to 46). Jump off the tower's east edge heading north-east onto it.
pub const SURF_RAMP: Zone = Zone {
    min: Vec2::new(42.0 - SURF_HEIGHT * 0.577_350_26, 10.0),
    max: Vec2::new(42.0, 46.0),
};

/// The corridor's free inside (between its walls, under its roof), along X.
pub const CORRIDOR: Zone = Zone {
    min: Vec2::new(-20.0, -12.0),
    max: Vec2::new(-8.0, -10.0),
};
/// Height of the corridor's roof above the floor, metres: under the standing body (1.8), over the
/// crouched one (0.9).
pub const CORRIDOR_CEILING: f32 = 1.3;
/// Thickness of the corridor's walls and roof, metres.
const CORRIDOR_WALL: f32 = 0.5;
/// Height of the corridor's walls, metres.
const CORRIDOR_WALL_HEIGHT: f32 = 2.5;

/// What a [`Block`] is (for drawing; the world is built the same way for all of them but
/// [`BlockKind::Stairs`] and the ramps).
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum BlockKind {
    /// A slab of the floor (not drawn: the floor is the background).
    Floor,
    /// An arena wall.
    Wall,
    /// The tower.
    Tower,
    /// The ladder (a solid with [`SolidFlags::LADDER`]).
    Ladder,
    /// A staircase of [`STAIR_STEPS`] steps rising towards +Z (`max.y` is the last step's top).
    Stairs,
    /// A walkable wedge whose top rises that way (`min.y` to `max.y`): the ramps of the other
    /// levels, drawn by their own routine ([`crate::DemoView::ramps`]).
    Ramp(Toward),
    /// The surf ramp: a wedge whose top rises towards +X, too steep to stand on.
    Surf,
    /// A wall of the corridor.
    CorridorWall,
    /// The corridor's roof.
    Roof,
}

/// One entry of [`BLOCKS`]: a kind and its box (corners `min`, `max`, metres).
#[derive(Clone, Copy, Debug, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Block {
    /// What it is.
    pub kind: BlockKind,
    /// Lower corner.
    pub min: Vec3,
    /// Upper corner.
    pub max: Vec3,
}

impl Block {
    /// Its footprint seen from above.
    pub const fn zone(&self) -> Zone {
        Zone {
            min: Vec2::new(self.min.x, self.min.z),
            max: Vec2::new(self.max.x, self.max.z),
        }
    }
}

const fn block(kind: BlockKind, min: (f32, f32, f32), max: (f32, f32, f32)) -> Block {
    Block {
        kind,
        min: Vec3::new(min.0, min.1, min.2),
        max: Vec3::new(max.0, max.1, max.2),
    }
}

const E: f32 = ARENA_HALF_EXTENT;
const W: f32 = E + WALL_THICKNESS;

/// The level, block by block (the world's solids in this order; the stairs are
/// [`STAIR_STEPS`] solids).
pub const BLOCKS: [Block; 20] = {
    use BlockKind::*;
    let (p, b) = (POOL, FLOOR_BOTTOM);
    [
        // The floor, around the pool's hole, and the pool's floor.
        block(Floor, (-E, b, -E), (E, 0.0, p.min.y)),
        block(Floor, (-E, b, p.max.y), (E, 0.0, E)),
        block(Floor, (-E, b, p.min.y), (p.min.x, 0.0, p.max.y)),
        block(Floor, (p.max.x, b, p.min.y), (E, 0.0, p.max.y)),
        block(Floor, (p.min.x, b, p.min.y), (p.max.x, POOL_FLOOR, p.max.y)),
        // The arena's walls.
        block(Wall, (-W, b, -W), (-E, WALL_HEIGHT, W)),
        block(Wall, (E, b, -W), (W, WALL_HEIGHT, W)),
        block(Wall, (-E, b, -W), (E, WALL_HEIGHT, -E)),
        block(Wall, (-E, b, E), (E, WALL_HEIGHT, W)),
        // The tower, its ladder, its stairs, the surf ramp off its east edge.
        block(
            Tower,
            (TOWER.min.x, 0.0, TOWER.min.y),
            (TOWER.max.x, TOWER_HEIGHT, TOWER.max.y),
        ),
        Block {
            kind: Ladder,
            min: LADDER_SOLID.0,
            max: LADDER_SOLID.1,
        },
        block(
            Stairs,
            (STAIRS.min.x, 0.0, STAIRS.min.y),
            (STAIRS.max.x, TOWER_HEIGHT, STAIRS.max.y),
        ),
        block(
            Surf,
            (SURF_RAMP.min.x, 0.0, SURF_RAMP.min.y),
            (SURF_RAMP.max.x, SURF_HEIGHT, SURF_RAMP.max.y),
        ),
        // The low corridor.
        block(
            CorridorWall,
            (CORRIDOR.min.x, 0.0, CORRIDOR.min.y - CORRIDOR_WALL),
            (CORRIDOR.max.x, CORRIDOR_WALL_HEIGHT, CORRIDOR.min.y),
        ),
        block(
            CorridorWall,
            (CORRIDOR.min.x, 0.0, CORRIDOR.max.y),
            (
                CORRIDOR.max.x,
                CORRIDOR_WALL_HEIGHT,
                CORRIDOR.max.y + CORRIDOR_WALL,
            ),
        ),
        block(
            Roof,
            (CORRIDOR.min.x, CORRIDOR_CEILING, CORRIDOR.min.y),
            (
                CORRIDOR.max.x,
                CORRIDOR_CEILING + CORRIDOR_WALL,
                CORRIDOR.max.y,
            ),
        ),
        // The walkable ramps of the other levels, as wedges.
        block(
            Ramp(Toward::PlusX),
            (RAMPS[0].min.x, 0.0, RAMPS[0].min.y),
            (
                RAMPS[0].max.x,
                (RAMPS[0].max.x - RAMPS[0].min.x) * RAMPS[0].rise_per_run,
                RAMPS[0].max.y,
            ),
        ),
        block(
            Ramp(Toward::PlusZ),
            (RAMPS[1].min.x, 0.0, RAMPS[1].min.y),
            (
                RAMPS[1].max.x,
                (RAMPS[1].max.y - RAMPS[1].min.y) * RAMPS[1].rise_per_run,
                RAMPS[1].max.y,
            ),
        ),
        // Two crates by the start, to run into.
        block(Wall, (-6.0, 0.0, 4.0), (-4.0, 1.0, 6.0)),
        block(Wall, (4.0, 0.0, 4.0), (6.0, 2.0, 6.0)),
    ]
};

/// Solids [`build`] makes of [`BLOCKS`]: one each, the stairs [`STAIR_STEPS`].
pub const SOLID_COUNT: usize = BLOCKS.len() - 1 + STAIR_STEPS as usize;

const _: () = assert!(SOLID_COUNT <= SOLID_CAPACITY);

/// The brushes of one block, in order (a staircase's steps; one brush otherwise). Every block's
/// coordinates are finite and within range (tested), so no constructor fails.
fn brushes(b: &Block) -> impl Iterator<Item = Brush> {
    let one = match b.kind {
        BlockKind::Stairs => None,
        BlockKind::Ramp(toward) => Brush::ramp(b.min, b.max, toward).ok(),
        BlockKind::Surf => Brush::ramp(b.min, b.max, Toward::PlusX).ok(),
        BlockKind::Ladder => Brush::aabb(b.min, b.max)
            .ok()
            .map(|l| l.with_flags(SolidFlags::LADDER)),
        _ => Brush::aabb(b.min, b.max).ok(),
    };
    let steps = match b.kind {
        BlockKind::Stairs => Brush::stairs(
            b.min,
            Toward::PlusZ,
            STAIR_STEPS,
            STAIR_RISE,
            STAIR_RUN,
            b.max.x - b.min.x,
        )
        .ok(),
        _ => None,
    };
    one.into_iter().chain(steps.into_iter().flatten())
}

/// The pool's water (the world's water volume 0, [`build`]): the [`POOL`]'s box from the bottom
/// of its floor's solid ([`FLOOR_BOTTOM`], into the floor: feet standing on the pool's floor are
/// in it) up to the surface [`POOL_WATER`].
pub const POOL_VOLUME: (Vec3, Vec3) = (
    Vec3::new(POOL.min.x, FLOOR_BOTTOM, POOL.min.y),
    Vec3::new(POOL.max.x, POOL_WATER, POOL.max.y),
);

/// Fill `world` (emptied first) with the level: [`BLOCKS`]' solids in order, the skin
/// [`SOLID_SKIN`], and the pool's water ([`POOL_VOLUME`]). The same solids, indices and grid on
/// every machine. Built in place (a [`SolidWorld`] is ≈ 5 KB: keep it off small stacks).
pub fn build(world: &mut SolidWorld) {
    *world = SolidWorld::new().with_skin(SOLID_SKIN);
    // `SOLID_COUNT ≤ SOLID_CAPACITY` (checked at compile time): never full.
    let _ = world.extend(BLOCKS.iter().flat_map(brushes));
    // A finite box inside ±MAX_COORD, the world's first water volume: never an error (tested).
    if let Ok(pool) = WaterVolume::new(POOL_VOLUME.0, POOL_VOLUME.1) {
        let _ = world.add_water(pool);
    }
}

/// How far below a point [`SolidGround::probe`] looks for ground, metres (deeper than the level).
pub const PROBE_DEPTH: f32 = 64.0;

/// The player's ground on the solid level: the world ([`GroundProbe::SOLID`]: the body collides,
/// `movement::slide`) and its water (the pool, [`GroundProbe::water`]), and the turntable
/// ([`GroundProbe::surface_motion`]). See the module docs for the water.
#[derive(Clone, Copy, Debug)]
pub struct SolidGround<'a> {
    /// The solids.
    pub world: &'a SolidWorld,
    /// Half the width of the body's footprint for [`SolidGround::probe`] (`MoveParams::body_radius`;
    /// a bad value reads as 0, a point).
    pub body_radius: f32,
}

impl<'a> SolidGround<'a> {
    /// The ground of `world` for a body of `body_radius`.
    pub fn new(world: &'a SolidWorld, body_radius: f32) -> Self {
        let r = if body_radius > 0.0 && body_radius <= ARENA_HALF_EXTENT {
            body_radius
        } else {
            0.0
        };
        SolidGround {
            world,
            body_radius: r,
        }
    }

    fn footprint(&self) -> (Vec3, Vec3) {
        let r = self.body_radius;
        (Vec3::new(-r, 0.0, -r), Vec3::new(r, 0.0, r))
    }
}

impl GroundProbe for SolidGround<'_> {
    const SOLID: bool = true;
    /// The world's (off): its traces are passed on unchanged.
    const TRACE_GUARD: TraceGuard = <SolidWorld as Tracer>::GUARD;

    #[inline]
    fn trace(&self, start: Vec3, end: Vec3, mins: Vec3, maxs: Vec3) -> TraceResult {
        self.world.trace(start, end, mins, maxs)
    }

    #[inline]
    fn solid_flags(&self) -> SolidFlags {
        self.world.flags_present()
    }

    #[inline]
    fn could_report(
        &self,
        flags: SolidFlags,
        start: Vec3,
        end: Vec3,
        mins: Vec3,
        maxs: Vec3,
    ) -> bool {
        self.world.could_report(flags, start, end, mins, maxs)
    }

    /// The ground under the body's footprint at `point` (`None` for a non-finite point or none
    /// within [`PROBE_DEPTH`]): the footprint (flat, `body_radius` each way) traced straight down,
    /// its end (a skin above the surface) and the plane hit; where the footprint already overlaps
    /// a solid at `point`, that solid's top (its bounding box's, a skin above; normal +Y) — a
    /// wall for a body below it. Asked by hopkit's crouch (standing up in the air) only:
    /// walking, flying, climbing and swimming among solids trace the body's box.
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        if !point.is_finite() {
            return None;
        }
        let (mins, maxs) = self.footprint();
        let below = Vec3::new(point.x, point.y - PROBE_DEPTH, point.z);
        let t = self.world.trace(point, below, mins, maxs);
        if t.start_solid {
            let top = self
                .world
                .contents(point, mins, maxs)
                .solid
                .and_then(|s| self.world.brushes().get(usize::from(s)))
                .map_or(point.y, |b| b.maxs().y + self.world.skin());
            return Some(GroundHit {
                height: top,
                normal: Vec3::UP,
            });
        }
        (t.fraction < 1.0 && t.plane.normal.y > 0.0).then_some(GroundHit {
            height: t.end.y,
            normal: t.plane.normal,
        })
    }

    /// The free height above `feet` (a point trace up; [`Solid`]'s).
    fn clearance(&self, feet: Vec3) -> f32 {
        Solid(self.world).clearance(feet)
    }

    /// The turntable's ([`DemoLevel::surface_motion`]).
    #[inline]
    fn surface_motion(&self, point: Vec3) -> SurfaceMotion {
        DemoLevel.surface_motion(point)
    }

    /// The world's water ([`Tracer::water`]: [`POOL_WATER`] for feet in [`POOL_VOLUME`]).
    #[inline]
    fn water(&self, feet: Vec3) -> Option<f32> {
        self.world.water(feet)
    }
}

/// One player's move on the solid level: the movement step on [`SolidGround`] (colliding with the
/// solids, climbing the ladder, swimming in the pool, carried by the turntable, crouching as
/// `input` asks), the arena's clamp (the walls hold the body; the clamp is the other levels' rule,
/// kept as a backstop), then the body's slope tilt from the ground it stands on. Returns the yaw
/// the turntable turned the player by.
pub fn move_on_solids(
    world: &SolidWorld,
    mover: &mut MoverState,
    tilt: &mut SlopeState,
    yaw: f32,
    (movement, slope): (&MoveParams, &SlopeParams),
    input: &MoveInput,
    dt: f32,
) -> f32 {
    let ground = SolidGround::new(world, movement.body_radius);
    let ev: StepEvents = movement::step(mover, movement, input, &ground, dt);
    crate::scene::after_move(mover, tilt, yaw, slope, dt);
    ev.carried_yaw
}

/// True when the body of `state` is surfing on `world`: in the air and on ground too steep to
/// stand on (its box, traced down by twice `ground_snap`, hits a plane facing up that is not
/// walkable). What the strafe HUD's surf speed shows.
pub fn surfing(world: &SolidWorld, state: &MoverState, params: &MoveParams) -> bool {
    if state.grounded {
        return false;
    }
    let (mins, maxs) = movement::body_box(state, params);
    let reach = 2.0 * hopkit::math::finite_or(params.ground_snap, 0.0).max(SOLID_SKIN);
    let below = state.position - Vec3::new(0.0, reach, 0.0);
    let t = world.trace(state.position, below, mins, maxs);
    let n = t.plane.normal;
    t.fraction < 1.0 && !t.start_solid && n.y > 0.0 && !params.is_walkable(n)
}

/// True when the body of `state` overlaps a solid of `world` by more than `tolerance` (metres):
/// its box, shrunk by `tolerance` on every side, is inside or touching one. (The feet rest a skin
/// above the ground, so an exact test would count standing as touching.)
pub fn inside_a_solid(
    world: &SolidWorld,
    state: &MoverState,
    params: &MoveParams,
    tolerance: f32,
) -> bool {
    let (mins, maxs) = movement::body_box(state, params);
    let shrink = Vec3::new(tolerance, tolerance, tolerance);
    world
        .contents(state.position, mins + shrink, maxs - shrink)
        .solid
        .is_some()
}

/// One leg of [`TOUR`]: optionally put the player somewhere (feet) and turn its view, then hold
/// the sticks and buttons for a while.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Leg {
    /// What the leg shows (for test messages).
    pub what: &'static str,
    /// Put the player's feet here, standing still, first (`None`: carry on from where it is).
    pub place: Option<Vec3>,
    /// With `place`: the velocity the player starts the leg with, m/s.
    pub velocity: Vec3,
    /// Set the view's yaw first, radians (`None`: keep it).
    pub yaw: Option<f32>,
    /// The movement stick (x right, y forward), as [`crate::DemoScene::step`] takes it.
    pub stick: Vec2,
    /// Buttons held ([`crate::buttons`]).
    pub buttons: u8,
    /// Ticks.
    pub ticks: u32,
}

const FORWARD: Vec2 = Vec2::new(0.0, 1.0);
const EAST: f32 = -core::f32::consts::FRAC_PI_2;
const WEST: f32 = core::f32::consts::FRAC_PI_2;
const NORTH: f32 = core::f32::consts::PI;

const fn leg(
    what: &'static str,
    place: Option<Vec3>,
    yaw: Option<f32>,
    stick: Vec2,
    buttons: u8,
    ticks: u32,
) -> Leg {
    Leg {
        what,
        place,
        velocity: Vec3::ZERO,
        yaw,
        stick,
        buttons,
        ticks,
    }
}

/// The solid level's scripted run ([`tour_hash`]; the tests check what each leg must show): up the
/// stairs onto the tower; surfing: dropped above the surf ramp's face moving along it at 10 m/s,
/// sliding down it in the air (the planar speed grows); into the tower's wall beside the ladder; into the low corridor standing (blocked), then
/// crouched (through); into the pool, sinking to its floor, and out with a water jump; up the
/// ladder onto the tower.
pub const TOUR: [Leg; 11] = {
    let j = crate::buttons::JUMP;
    let c = crate::buttons::LEFT_STICK;
    [
        leg(
            "stairs",
            Some(Vec3::new(32.0, 0.0, 9.0)),
            Some(NORTH),
            FORWARD,
            0,
            66,
        ),
        Leg {
            velocity: Vec3::new(0.0, 0.0, 10.0),
            ..leg(
                "surf",
                Some(Vec3::new(41.0, 5.5, 12.0)),
                Some(NORTH),
                Vec2::ZERO,
                0,
                66,
            )
        },
        leg(
            "wall",
            Some(Vec3::new(27.0, 0.0, 19.5)),
            Some(EAST),
            FORWARD,
            0,
            90,
        ),
        leg(
            "standing at the corridor",
            Some(Vec3::new(-5.0, 0.0, -11.0)),
            Some(WEST),
            FORWARD,
            0,
            60,
        ),
        leg("crouched through the corridor", None, None, FORWARD, c, 200),
        leg("standing up after it", None, None, Vec2::ZERO, 0, 30),
        leg(
            "into the pool",
            Some(Vec3::new(-24.0, 0.0, 29.0)),
            Some(WEST),
            FORWARD,
            0,
            30,
        ),
        leg("sinking", None, None, Vec2::ZERO, 0, 300),
        leg("water jump out", None, Some(EAST), FORWARD, j, 300),
        leg(
            "up the ladder",
            Some(Vec3::new(27.0, 0.0, 22.0)),
            Some(EAST),
            FORWARD,
            0,
            150,
        ),
        leg("on the tower", None, None, Vec2::ZERO, 0, 30),
    ]
};

/// Run [`TOUR`] on the solid level in `world` (built by [`build`]; a scene without ghosts),
/// calling `each(leg, tick in the leg, scene)` after every tick; returns the scene's state hash
/// folded over every tick.
pub fn run_tour(
    world: &'static SolidWorld,
    mut each: impl FnMut(usize, u32, &crate::DemoScene),
) -> u64 {
    use hopkit::hash::{StateHash, StateHasher};
    let mut s = crate::DemoScene::new(None);
    s.level = crate::level::Level::Solid;
    s.solids = Some(world);
    let mut h = StateHasher::new();
    for (i, leg) in TOUR.iter().enumerate() {
        if let Some(p) = leg.place {
            s.player.mover = MoverState::new(p);
            s.player.mover.velocity = leg.velocity;
        }
        if let Some(y) = leg.yaw {
            s.player.yaw = y;
        }
        for t in 0..leg.ticks {
            s.step(leg.stick, 0.0, leg.buttons, None);
            s.hash_state(&mut h);
            each(i, t, &s);
        }
    }
    h.finish()
}

/// The hash of the solid level's scripted run ([`run_tour`]) in `world` (built by [`build`]).
pub fn tour_hash(world: &'static SolidWorld) -> u64 {
    run_tour(world, |_, _, _| {})
}

#[cfg(test)]
mod tests {
    use super::*;

    /// The pool's water answered by its columns, as the level did before the world held it: for
    /// the comparison below.
    struct PoolColumns;

    impl GroundProbe for PoolColumns {
        fn probe(&self, _: Vec3) -> Option<GroundHit> {
            None
        }
        fn water(&self, feet: Vec3) -> Option<f32> {
            POOL.contains(feet.planar()).then_some(POOL_WATER)
        }
    }

    #[test]
    fn the_pools_water_is_the_worlds_and_answers_as_its_columns_did() {
        let mut w = std::boxed::Box::new(SolidWorld::new());
        build(&mut w);
        let pool = w.waters();
        assert_eq!(pool.len(), 1);
        assert_eq!((pool[0].mins(), pool[0].maxs()), POOL_VOLUME);
        let params = MoveParams::seed();
        let g = SolidGround::new(&w, params.body_radius);
        let mid = Vec3::new((POOL.min.x + POOL.max.x) * 0.5, -1.0, 24.0 + 5.0);
        assert_eq!(g.water(mid), Some(POOL_WATER));
        assert_eq!(g.water(Vec3::new(mid.x, 0.0, mid.z)), None); // above the surface
        assert_eq!(g.water(Vec3::new(POOL.max.x + 1.0, -1.0, mid.z)), None); // beside it
        assert_eq!(g.water(Vec3::new(mid.x, f32::NAN, mid.z)), None);
        // Every place feet can be (above the floor's top anywhere near the pool, or in the pool's
        // hole a body's radius inside its edges from its floor up): the same water level, and the
        // same "water above" answer of the water jump's clear spot, as the columns gave.
        let r = params.body_radius;
        let (mut wet, mut compared) = (0, 0);
        for i in 0..=64 {
            for k in 0..=64 {
                let x = POOL.min.x - 1.0 + (POOL.max.x - POOL.min.x + 2.0) * i as f32 / 64.0;
                let z = POOL.min.y - 1.0 + (POOL.max.y - POOL.min.y + 2.0) * k as f32 / 64.0;
                let in_hole = x >= POOL.min.x + r
                    && x <= POOL.max.x - r
                    && z >= POOL.min.y + r
                    && z <= POOL.max.y - r;
                for j in 0..=40 {
                    let y = POOL_FLOOR + SOLID_SKIN + 3.0 * j as f32 / 40.0;
                    if y < 0.0 && !in_hole {
                        continue;
                    }
                    let feet = Vec3::new(x, y, z);
                    let level = movement::water_level(&g, feet, &params);
                    assert_eq!(
                        level,
                        movement::water_level(&PoolColumns, feet, &params),
                        "{feet:?}"
                    );
                    let above =
                        |p: &dyn Fn(Vec3) -> Option<f32>| matches!(p(feet), Some(s) if s > y);
                    assert_eq!(
                        above(&|p| g.water(p)),
                        above(&|p| PoolColumns.water(p)),
                        "{feet:?}"
                    );
                    wet += usize::from(level > 0);
                    compared += 1;
                }
            }
        }
        assert!(wet > 1_000 && compared > 50_000, "{wet} of {compared}");
    }
    #[test]
    fn the_tour_shows_what_each_leg_must_and_never_ends_in_a_solid() {
        let params = MoveParams::seed();
        let w: &'static mut SolidWorld =
            std::boxed::Box::leak(std::boxed::Box::new(SolidWorld::new()));
        build(w);
        let w: &'static SolidWorld = w;
        assert_eq!(w.len(), SOLID_COUNT);
        let skin = SOLID_SKIN;
        // Per leg: the state after its last tick, and what was seen during it.
        let mut last = [MoverState::new(Vec3::ZERO); TOUR.len()];
        let mut top_speed = [0.0f32; TOUR.len()];
        let mut always_grounded = [true; TOUR.len()];
        let mut crouched_inside = false;
        let mut swam = false;
        let mut climbed = false;
        let mut water_jumped = false;
        let mut surfed = 0;
        let hash = run_tour(w, |leg, _, s| {
            let m = &s.player.mover;
            if surfing(w, m, &params) {
                assert_eq!(TOUR[leg].what, "surf", "{m:?}");
                assert!(s.player_surfing());
                surfed += 1;
            }
            assert!(m.is_finite(), "{}: {m:?}", TOUR[leg].what);
            assert!(
                !inside_a_solid(w, m, &params, 1.0e-3),
                "{}: inside a solid: {m:?}",
                TOUR[leg].what
            );
            last[leg] = *m;
            if !m.grounded {
                top_speed[leg] = top_speed[leg].max(m.planar_speed());
            }
            always_grounded[leg] &= m.grounded;
            crouched_inside |= m.crouched && CORRIDOR.contains(m.position.planar());
            swam |=
                hopkit::movement::water_level(&SolidGround::new(w, 0.4), m.position, &params) >= 2;
            water_jumped |= m.water_jump_timer > 0.0 && TOUR[leg].what == "water jump out";
            climbed |= !m.grounded
                && m.position.x < TOWER.min.x
                && m.position.y > 1.0
                && m.velocity.y > 0.0
                && TOUR[leg].what == "up the ladder";
        });
        let by = |what: &str| TOUR.iter().position(|l| l.what == what).unwrap();
        // Up the stairs onto the tower's top, on the ground every tick.
        let stairs = by("stairs");
        let m = last[stairs];
        assert!(always_grounded[stairs], "left the ground on the stairs");
        assert!(
            m.grounded && (m.position.y - (TOWER_HEIGHT + skin)).abs() < 1e-4,
            "{m:?}"
        );
        assert!(TOWER.contains(m.position.planar()), "{m:?}");
        // Surfing: in the air on the ramp's face, the planar speed grows from the entry's 10 m/s.
        let surf = by("surf");
        assert!(top_speed[surf] > 11.0, "surf top speed {}", top_speed[surf]);
        assert!(surfed > 30, "on the surf ramp's face {surfed} ticks");
        // The tower's wall holds the body a skin in front of it, on the floor.
        let m = last[by("wall")];
        let front = TOWER.min.x - params.body_radius - skin;
        assert!(
            (m.position.x - front).abs() < 1e-3 && m.position.y < 0.01,
            "{m:?}"
        );
        assert_eq!(m.velocity.x, 0.0);
        // Standing, the corridor's roof stops the body at its mouth; crouched, it goes through
        // and stands up on the far side.
        let m = last[by("standing at the corridor")];
        assert!(m.position.x > CORRIDOR.max.x, "{m:?}");
        assert!(crouched_inside);
        let m = last[by("crouched through the corridor")];
        assert!(m.position.x < CORRIDOR.min.x - params.body_radius, "{m:?}");
        let m = last[by("standing up after it")];
        assert!(!m.crouched && m.grounded, "{m:?}");
        // Into the pool: swimming, then sunk to its floor.
        assert!(swam);
        let m = last[by("sinking")];
        assert!(POOL.contains(m.position.planar()) && m.grounded, "{m:?}");
        assert!((m.position.y - (POOL_FLOOR + skin)).abs() < 1e-3, "{m:?}");
        // Out with a water jump (its timer ran) onto the floor east of it.
        assert!(water_jumped);
        let m = last[by("water jump out")];
        assert!(
            m.position.x > POOL.max.x + params.body_radius && m.position.y >= 0.0,
            "{m:?}"
        );
        // Up the ladder onto the tower.
        assert!(climbed);
        let m = last[by("on the tower")];
        assert!(
            m.grounded && (m.position.y - (TOWER_HEIGHT + skin)).abs() < 1e-4,
            "{m:?}"
        );
        // The same run, the same hash (its golden value, per backend: demo/tests/backend_golden.rs).
        assert_eq!(hash, tour_hash(w));
    }
}
