//! The demo level: a flat square arena with two ramps ([`DemoGround`]), and the features the
//! players meet on it ([`DemoLevel`]): a block ([`TOWER`]) with a ladder up its west face
//! ([`LADDER`]), a pool ([`POOL`], its floor [`POOL_FLOOR`], its water up to [`POOL_WATER`]) and a
//! turntable ([`TURNTABLE_CENTER`], a moving platform turning at [`TURNTABLE_YAW_RATE`]).
//!
//! Ramps rise from height 0 at their low edge along their uphill direction and end in a drop back
//! to the floor at the high edge. Slope constants are precomputed literals (no trigonometry per
//! probe), so probing costs a handful of multiplies.
//!
//! The ghosts and the companion fly and walk over [`DemoGround`] alone: the bundled recordings'
//! state checksums were taken over it (a ghost's terrain avoidance reads the ground), so the
//! features do not change how the ghosts fly. The players — the demo's, the netplay arena's —
//! move on [`DemoLevel`].

use hopkit::ground::{GroundHit, GroundProbe, SurfaceMotion};
use hopkit::math::{Vec2, Vec3};

use super::view::{FeatureView, RampView, MAX_RAMPS};
use super::TICK_HZ;

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

/// Which level the players move on, chosen when the scene is made
/// ([`crate::DemoRig::with_level`]), so that one build can run every front end's level.
///
/// | level | ground | front ends |
/// |---|---|---|
/// | [`Level::Plain`] | floor, [`RAMPS`], the arena's walls ([`DemoGround`]) | the WASM-4 cart ([`Level::WASM4_CART`]), the Black Pill image; `hopkit-sim hash --gamepad` (default) |
/// | [`Level::Full`] | the same plus the tower, ladder, pool and turntable ([`DemoLevel`]) | the RP2040 handheld, the QEMU images, the `hopkit-sim` window and CLI, the wasm32 cart, the C ABI; `hash --gamepad --level full` |
/// | [`Level::Solid`] | solids the body collides with: floor, walls, the tower with its ladder, stairs up to it, a surf ramp, a low corridor, the pool ([`crate::solid_level`]) | the `hopkit-sim` window and headless run (`--level solid`), `hash --gamepad --level solid` |
///
/// Without the `level-features` feature [`Level::Full`] does not exist (and none of the
/// features' code is linked); without `level-solids`, [`Level::Solid`]. The scripted demo never
/// reaches the features: its hashes are the same on the plain and the full level (tested). On the
/// solid level the body collides with the floor too, so its runs hash differently.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Level {
    /// Floor and ramps ([`DemoGround`]).
    Plain,
    /// Floor and ramps plus the tower with its ladder, the pool and the turntable ([`DemoLevel`]).
    #[cfg(feature = "level-features")]
    Full,
    /// A level of solids the body collides with ([`crate::solid_level`]).
    #[cfg(feature = "level-solids")]
    Solid,
}

impl Level {
    /// The WASM-4 cart's level: [`Level::Plain`]. Its 64 KiB cannot hold the others: with the
    /// features the cart measured 76,444 bytes with record mode and 69,703 without; on the solid
    /// level 96,992 with record mode and 90,282 without (wasm-opt 132; the limit is 65,536;
    /// docs/bindings.md, "The solid level on WASM-4").
    pub const WASM4_CART: Level = Level::Plain;

    /// The level of builds with the `level-features` feature ([`Level::Full`]), else
    /// [`Level::Plain`]: what [`crate::DemoRig::new`] runs.
    #[cfg(feature = "level-features")]
    pub const DEFAULT: Level = Level::Full;
    /// The level of builds with the `level-features` feature ([`Level::Full`]), else
    /// [`Level::Plain`]: what [`crate::DemoRig::new`] runs.
    #[cfg(not(feature = "level-features"))]
    pub const DEFAULT: Level = Level::Plain;

    /// Its name on command lines and in docs: `plain`, `full`, `solid`.
    pub const fn name(self) -> &'static str {
        match self {
            Level::Plain => "plain",
            #[cfg(feature = "level-features")]
            Level::Full => "full",
            #[cfg(feature = "level-solids")]
            Level::Solid => "solid",
        }
    }

    /// The level called `name` ([`Level::name`]), if this build has it.
    pub fn from_name(name: &str) -> Option<Level> {
        match name {
            "plain" => Some(Level::Plain),
            #[cfg(feature = "level-features")]
            "full" => Some(Level::Full),
            #[cfg(feature = "level-solids")]
            "solid" => Some(Level::Solid),
            _ => None,
        }
    }

    /// True if the level has the tower, ladder, pool and turntable of the height-probe world
    /// ([`DemoLevel`]; the solid level has its own, [`Level::is_solid`]).
    #[inline(always)]
    pub const fn has_features(self) -> bool {
        match self {
            Level::Plain => false,
            #[cfg(feature = "level-features")]
            Level::Full => true,
            #[cfg(feature = "level-solids")]
            Level::Solid => false,
        }
    }

    /// True for the level of solids ([`crate::solid_level`]).
    #[inline(always)]
    pub const fn is_solid(self) -> bool {
        #[cfg(feature = "level-solids")]
        if let Level::Solid = self {
            return true;
        }
        false
    }
}

impl Default for Level {
    /// [`Level::DEFAULT`].
    fn default() -> Self {
        Level::DEFAULT
    }
}

/// The players' ground on a [`Level`] chosen at run time (with the `level-features` feature):
/// [`DemoLevel`]'s answers on [`Level::Full`], [`DemoGround`]'s on [`Level::Plain`] — one probe
/// type, so the movement step is built once for both levels (two instantiations took the QEMU
/// images ≈ 4 KB more flash). Its answers on [`Level::Plain`] are [`DemoGround`]'s bit for bit
/// (tested), so the plain level moves as in a build without the features (the WASM-4 cart).
#[cfg(feature = "level-features")]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct LevelGround {
    features: bool,
}

#[cfg(feature = "level-features")]
impl LevelGround {
    /// The ground of `level`.
    #[inline(always)]
    pub const fn new(level: Level) -> Self {
        LevelGround {
            features: level.has_features(),
        }
    }
}

#[cfg(feature = "level-features")]
impl GroundProbe for LevelGround {
    #[inline]
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        if self.features {
            DemoLevel.probe(point)
        } else {
            DemoGround.probe(point)
        }
    }

    #[inline]
    fn height(&self, point: Vec3) -> Option<f32> {
        if self.features {
            DemoLevel.height(point)
        } else {
            DemoGround.height(point)
        }
    }

    #[inline]
    fn surface_motion(&self, point: Vec3) -> SurfaceMotion {
        if self.features {
            DemoLevel.surface_motion(point)
        } else {
            DemoGround.surface_motion(point)
        }
    }

    #[inline]
    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        if self.features {
            DemoLevel.ladder(feet)
        } else {
            DemoGround.ladder(feet)
        }
    }

    #[inline]
    fn water(&self, feet: Vec3) -> Option<f32> {
        if self.features {
            DemoLevel.water(feet)
        } else {
            DemoGround.water(feet)
        }
    }
}

/// An axis-aligned rectangle of the level seen from above: `(x, z)` corners, `min ≤ max`.
#[derive(Clone, Copy, Debug, Default, PartialEq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Zone {
    /// Minimum corner `(x, z)`, world units.
    pub min: Vec2,
    /// Maximum corner `(x, z)`, world units.
    pub max: Vec2,
}

impl Zone {
    /// True if the planar point is inside (edges included; false for NaN).
    #[inline(always)]
    pub fn contains(&self, p: Vec2) -> bool {
        p.x >= self.min.x && p.x <= self.max.x && p.y >= self.min.y && p.y <= self.max.y
    }
}

/// The tower: a block [`TOWER_HEIGHT`] high, too high to step onto (the seed's `step_up` is
/// 0.3): its sides are walls, its top is reached by the ladder.
pub const TOWER: Zone = Zone {
    min: Vec2::new(30.0, 18.0),
    max: Vec2::new(36.0, 26.0),
};
/// Height of the tower's top, world units (m).
pub const TOWER_HEIGHT: f32 = 3.0;
/// The ladder on the tower's west (−X) face: felt by feet inside this zone (0.6 m deep in front
/// of the face, 2 m wide) below the top.
pub const LADDER: Zone = Zone {
    min: Vec2::new(29.4, 21.0),
    max: Vec2::new(29.999, 23.0),
};
/// The ladder's normal: from the face towards a climber (−X).
pub const LADDER_NORMAL: Vec3 = Vec3::new(-1.0, 0.0, 0.0);
/// The pool: its floor is [`POOL_FLOOR`], its water's surface [`POOL_WATER`].
pub const POOL: Zone = Zone {
    min: Vec2::new(-38.0, 24.0),
    max: Vec2::new(-26.0, 34.0),
};
/// Height of the pool's floor, world units (m): 2 m of water.
pub const POOL_FLOOR: f32 = -2.5;
/// Height of the pool's water surface, world units (m): half a metre below the floor around it,
/// so a swimmer leaves the pool with a water jump at its edge (`movement::water`), as in Quake.
pub const POOL_WATER: f32 = -0.5;
/// Centre `(x, z)` of the turntable, a disc flush with the floor that turns (a moving platform:
/// [`GroundProbe::surface_motion`]).
pub const TURNTABLE_CENTER: Vec2 = Vec2::new(24.0, -40.0);
/// Radius of the turntable, world units (m).
pub const TURNTABLE_RADIUS: f32 = 5.0;
/// Turning rate of the turntable, rad/s (positive turns left: counter-clockwise from above).
pub const TURNTABLE_YAW_RATE: f32 = 0.8;

/// The players' ground: [`DemoGround`] (floor and ramps) plus the [`TOWER`] with its [`LADDER`],
/// the [`POOL`] and the turntable (see the module docs). Heights and normals are
/// [`DemoGround`]'s everywhere outside the tower and the pool.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct DemoLevel;

impl DemoLevel {
    /// The tower's or the pool's floor height at `p`, if `p` is over one of them.
    #[inline(always)]
    fn feature_height(p: Vec2) -> Option<f32> {
        if TOWER.contains(p) {
            Some(TOWER_HEIGHT)
        } else if POOL.contains(p) {
            Some(POOL_FLOOR)
        } else {
            None
        }
    }
}

impl GroundProbe for DemoLevel {
    /// The tower's top or the pool's floor (normal +Y) over them; else [`DemoGround::probe`]
    /// (`None` for a non-finite point).
    fn probe(&self, point: Vec3) -> Option<GroundHit> {
        match Self::feature_height(point.planar()) {
            // A NaN or infinite `x`, `z` is in no zone; `y` is checked here.
            Some(height) if point.y.is_finite() => Some(GroundHit {
                height,
                normal: Vec3::UP,
            }),
            _ => DemoGround.probe(point),
        }
    }

    /// [`DemoLevel::probe`]'s height.
    #[inline]
    fn height(&self, point: Vec3) -> Option<f32> {
        match Self::feature_height(point.planar()) {
            Some(height) if point.y.is_finite() => Some(height),
            _ => DemoGround.height(point),
        }
    }

    /// The turntable within [`TURNTABLE_RADIUS`] of [`TURNTABLE_CENTER`]; still elsewhere.
    fn surface_motion(&self, point: Vec3) -> SurfaceMotion {
        let r = point.planar() - TURNTABLE_CENTER;
        if r.length_squared() <= TURNTABLE_RADIUS * TURNTABLE_RADIUS {
            SurfaceMotion::rotating(
                Vec3::new(TURNTABLE_CENTER.x, 0.0, TURNTABLE_CENTER.y),
                TURNTABLE_YAW_RATE,
            )
        } else {
            SurfaceMotion::STILL
        }
    }

    /// [`LADDER_NORMAL`] for feet inside [`LADDER`] below [`TOWER_HEIGHT`].
    fn ladder(&self, feet: Vec3) -> Option<Vec3> {
        (LADDER.contains(feet.planar()) && feet.y < TOWER_HEIGHT).then_some(LADDER_NORMAL)
    }

    /// [`POOL_WATER`] over the [`POOL`] (`movement::water`: the players swim in it).
    fn water(&self, feet: Vec3) -> Option<f32> {
        POOL.contains(feet.planar()).then_some(POOL_WATER)
    }
}

/// What the view draws of the level's features after `tick` ticks (their zones are constants;
/// the turntable's spoke angle comes from the tick).
pub fn feature_view(tick: u32) -> FeatureView {
    // The spoke's angle after `tick` ticks, kept within one turn (so the float stays small
    // however long the demo runs).
    let turn = core::f32::consts::TAU;
    let mut angle = TURNTABLE_YAW_RATE * (tick % TURNTABLE_TICKS_PER_TURN) as f32 / TICK_HZ as f32;
    if angle >= turn {
        angle -= turn;
    }
    FeatureView {
        tower: TOWER,
        ladder: LADDER,
        pool: POOL,
        turntable_center: TURNTABLE_CENTER,
        turntable_radius: TURNTABLE_RADIUS,
        turntable_angle: angle,
    }
}

/// Ticks after which the turntable's spoke is drawn from angle 0 again: a whole number of ticks
/// near one turn (so the angle's float stays small however long the demo runs).
const TURNTABLE_TICKS_PER_TURN: u32 =
    (core::f32::consts::TAU / TURNTABLE_YAW_RATE * TICK_HZ as f32) as u32;

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
    fn demo_level_is_demo_ground_outside_its_features() {
        let l = DemoLevel;
        let in_feature = |p: Vec2| TOWER.contains(p) || POOL.contains(p);
        let mut rng = hopkit::rng::Pcg32::seeded(26);
        for _ in 0..100_000 {
            let p = Vec3::new(
                rng.range_f32(-60.0, 60.0),
                rng.range_f32(-5.0, 30.0),
                rng.range_f32(-60.0, 60.0),
            );
            let q = Vec3::new(
                f32::from_bits(rng.next_u32()),
                f32::from_bits(rng.next_u32()),
                f32::from_bits(rng.next_u32()),
            );
            for p in [p, q] {
                let (a, b) = (l.probe(p), l.height(p));
                assert_eq!(a.map(|h| h.height.to_bits()), b.map(f32::to_bits), "{p:?}");
                if in_feature(p.planar()) && p.y.is_finite() {
                    let h = a.unwrap();
                    assert_eq!(h.normal, Vec3::UP);
                    assert!(h.height == TOWER_HEIGHT || h.height == POOL_FLOOR);
                } else {
                    assert!(same_hit(a, DemoGround.probe(p)), "{p:?}");
                }
            }
        }
        for bad in [f32::NAN, f32::INFINITY, f32::NEG_INFINITY] {
            let c = (TOWER.min + TOWER.max) * 0.5;
            assert!(l.probe(Vec3::new(c.x, bad, c.y)).is_none());
            assert!(l.probe(Vec3::new(bad, 0.0, c.y)).is_none());
            assert!(l.ladder(Vec3::new(bad, 0.0, 22.0)).is_none());
            assert!(l.surface_motion(Vec3::new(bad, 0.0, bad)).is_still());
        }
        // The features keep clear of the ramps, of each other and of the arena's edge.
        for z in [TOWER, POOL, LADDER] {
            for r in RAMPS.iter() {
                assert!(
                    z.max.x < r.min.x
                        || z.min.x > r.max.x
                        || z.max.y < r.min.y
                        || z.min.y > r.max.y
                );
            }
            assert!(z.min.x > -ARENA_HALF_EXTENT && z.max.x < ARENA_HALF_EXTENT);
            assert!(z.min.y > -ARENA_HALF_EXTENT && z.max.y < ARENA_HALF_EXTENT);
        }
        let t = TURNTABLE_CENTER;
        assert!(t.x.abs() + TURNTABLE_RADIUS < ARENA_HALF_EXTENT);
        assert!(t.y.abs() + TURNTABLE_RADIUS < ARENA_HALF_EXTENT);
        // The ladder is in front of the tower's west face, below its top.
        const {
            assert!(
                LADDER.max.x < TOWER.min.x
                    && LADDER.min.y >= TOWER.min.y
                    && LADDER.max.y <= TOWER.max.y
            )
        };
        assert_eq!(l.ladder(Vec3::new(29.7, 1.0, 22.0)), Some(LADDER_NORMAL));
        assert_eq!(l.ladder(Vec3::new(29.7, TOWER_HEIGHT, 22.0)), None);
        assert_eq!(l.ladder(Vec3::new(28.0, 1.0, 22.0)), None);
        let m = l.surface_motion(Vec3::new(t.x + 1.0, 0.0, t.y));
        assert_eq!(m.yaw_rate, TURNTABLE_YAW_RATE);
        assert!(l
            .surface_motion(Vec3::new(t.x + TURNTABLE_RADIUS + 0.1, 0.0, t.y))
            .is_still());
    }

    #[test]
    #[cfg(feature = "level-features")]
    fn level_ground_is_demo_ground_on_the_plain_level_and_demo_level_on_the_full_one() {
        let (plain, full) = (
            LevelGround::new(Level::Plain),
            LevelGround::new(Level::Full),
        );
        let mut rng = hopkit::rng::Pcg32::seeded(37);
        let same_f = |a: Option<f32>, b: Option<f32>| a.map(f32::to_bits) == b.map(f32::to_bits);
        let same_v = |a: Option<Vec3>, b: Option<Vec3>| {
            a.map(|v| [v.x, v.y, v.z].map(f32::to_bits))
                == b.map(|v| [v.x, v.y, v.z].map(f32::to_bits))
        };
        for i in 0..200_000 {
            let p = if i % 2 == 0 {
                Vec3::new(
                    rng.range_f32(-60.0, 60.0),
                    rng.range_f32(-5.0, 30.0),
                    rng.range_f32(-60.0, 60.0),
                )
            } else {
                Vec3::new(
                    f32::from_bits(rng.next_u32()),
                    f32::from_bits(rng.next_u32()),
                    f32::from_bits(rng.next_u32()),
                )
            };
            for (g, (probe, height, motion, ladder, water)) in [
                (
                    plain,
                    (
                        DemoGround.probe(p),
                        DemoGround.height(p),
                        DemoGround.surface_motion(p),
                        DemoGround.ladder(p),
                        DemoGround.water(p),
                    ),
                ),
                (
                    full,
                    (
                        DemoLevel.probe(p),
                        DemoLevel.height(p),
                        DemoLevel.surface_motion(p),
                        DemoLevel.ladder(p),
                        DemoLevel.water(p),
                    ),
                ),
            ] {
                assert!(same_hit(g.probe(p), probe), "{p:?}");
                assert!(same_f(g.height(p), height), "{p:?}");
                assert_eq!(g.surface_motion(p), motion, "{p:?}");
                assert!(same_v(g.ladder(p), ladder), "{p:?}");
                assert!(same_f(g.water(p), water), "{p:?}");
            }
        }
    }

    #[test]
    fn feature_view_spoke_is_unit_and_turns_with_the_disc() {
        for tick in 0..2000u32 {
            let f = feature_view(tick);
            let s = f.turntable_spoke();
            assert!((s.length() - 1.0).abs() < 1e-5);
            assert!((0.0..core::f32::consts::TAU).contains(&f.turntable_angle));
        }
        // A quarter turn later the spoke has moved from +X towards −Z.
        let q = (core::f32::consts::FRAC_PI_2 / TURNTABLE_YAW_RATE * TICK_HZ as f32) as u32;
        let s = feature_view(q).turntable_spoke();
        assert!(s.y < -0.99, "{s:?}");
    }

    #[test]
    fn arena_clamp() {
        let (p, hx, hz) = clamp_to_arena(Vec2::new(100.0, 3.0));
        assert_eq!(p, Vec2::new(ARENA_HALF_EXTENT, 3.0));
        assert!(hx && !hz);
    }
}
