//! The demo scene: one player, a companion, arrival critters and a ghost formation on the demo
//! level, stepped at a fixed [`TICK_HZ`] from raw stick samples.
//!
//! Per tick, in this order:
//! 1. raw samples → [`StickPipeline`] → left stick wish, right stick look rate, buttons;
//! 2. player yaw += look rate · dt; movement step (seed preset, auto-hop) on the scene's
//!    [`Level`] (on [`Level::Full`] climbing its ladder, swimming in its pool, carried by its
//!    turntable; on the solid level colliding with its solids and crouching while the left stick
//!    is pushed, [`crate::solid_level`]); the arena walls stop the velocity component into them;
//! 3. slope alignment of the player's body to the ground normal (while grounded);
//! 4. the companion follows the player's breadcrumb trail;
//! 5. critters arrive at points on a ring around the player (they settle when the player stops);
//! 6. ghosts replay the bundled recording, turning towards the player and the fixed targets;
//! 7. tick counter.
//!
//! Every step is deterministic, so [`DemoRig::state_hash`] after N ticks of [`scripted_raw`] is the
//! same on every platform; `hopkit-sim hash --scene demo`, the QEMU firmware, the C example and the
//! wasm cart all print it.

use hopkit::follower::{self, FollowerParams, FollowerState};
use hopkit::ghost::{self, GhostScene, Recording};
use hopkit::ground::GroundProbe;
use hopkit::hash::{StateHash, StateHasher};
use hopkit::math::{Quat, Vec2, Vec3};
use hopkit::movement::{self, MoveInput, MoveParams, MoverState};
use hopkit::slope::{self, SlopeParams, SlopeState};
use hopkit::steering::{self, arrival_step_with, ArrivalParams, ArrivalState, SteeringParams};
use hopkit::stick::{RawSticks, StickPipeline};

use super::level::{clamp_to_arena, ramp_views, DemoGround, Level, ARENA_HALF_EXTENT};
use super::script::scripted_raw;
use super::view::{
    heading_and_speed, planar_forward, BodyView, CritterView, DemoView, GhostView, MAX_CRITTERS,
    MAX_GHOSTS,
};
use super::{buttons, TICK_HZ};

/// Fastest view turn from a fully deflected right stick, rad/s.
pub const LOOK_MAX_RATE: f32 = 3.0;
/// Number of critters in the scene.
pub const CRITTERS: usize = MAX_CRITTERS;
/// Number of ghosts in the formation.
pub const GHOSTS: usize = MAX_GHOSTS;
/// Radius of the ring of points the critters arrive at around the player, units.
pub const CRITTER_RING: f32 = 6.0;
/// Player start position (feet).
pub const PLAYER_START: Vec3 = Vec3::new(0.0, 0.0, 0.0);
/// Companion start position.
pub const COMPANION_START: Vec3 = Vec3::new(0.0, 0.0, 3.0);

/// Ring offsets `(x, z)` for the critters' arrival targets (unit circle at 45°, 135°, …).
pub(crate) const RING: [Vec2; CRITTERS] = [
    Vec2::new(
        core::f32::consts::FRAC_1_SQRT_2,
        core::f32::consts::FRAC_1_SQRT_2,
    ),
    Vec2::new(
        -core::f32::consts::FRAC_1_SQRT_2,
        core::f32::consts::FRAC_1_SQRT_2,
    ),
    Vec2::new(
        -core::f32::consts::FRAC_1_SQRT_2,
        -core::f32::consts::FRAC_1_SQRT_2,
    ),
    Vec2::new(
        core::f32::consts::FRAC_1_SQRT_2,
        -core::f32::consts::FRAC_1_SQRT_2,
    ),
];

/// One player's move on the demo level ([`Level::DEFAULT`]), shared by the demo scene and the
/// netplay arena: [`move_on_level`].
#[inline]
pub(crate) fn move_in_arena(
    mover: &mut MoverState,
    tilt: &mut SlopeState,
    yaw: f32,
    params: (&MoveParams, &SlopeParams),
    input: &MoveInput,
    dt: f32,
) -> f32 {
    move_on_level(Level::DEFAULT, mover, tilt, yaw, params, input, dt)
}

/// One player's move on `level`: the movement step on its ground (on [`Level::Full`] climbing
/// while on its ladder, swimming in its pool), the arena's walls (position clamped, the blocked
/// velocity component zeroed), then the body's slope tilt from the ground it stands on. Returns
/// the yaw the turntable turned the player by (radians; 0 off it), for the caller to add to the
/// view yaw.
#[inline]
pub(crate) fn move_on_level(
    level: Level,
    mover: &mut MoverState,
    tilt: &mut SlopeState,
    yaw: f32,
    (movement, slope): (&MoveParams, &SlopeParams),
    input: &MoveInput,
    dt: f32,
) -> f32 {
    // One probe type for both levels (the step is built once); without the level's features
    // `Level` has one variant and the ground is the plain one.
    #[cfg(feature = "level-features")]
    let ev = step_on(
        &crate::level::LevelGround::new(level),
        mover,
        movement,
        input,
        dt,
    );
    // (The solid level's player moves in `DemoScene::step_player`, which has its world; here it
    // is the plain ground, as `Level::has_features` is false for it.)
    #[cfg(not(feature = "level-features"))]
    let ev = {
        let _ = level;
        step_on(&DemoGround, mover, movement, input, dt)
    };
    after_move(mover, tilt, yaw, slope, dt);
    ev.carried_yaw
}

/// What follows a player's movement step on every level: the arena's walls (position clamped,
/// the blocked velocity component zeroed), then the body's slope tilt from the ground it stands
/// on.
#[inline(always)]
pub(crate) fn after_move(
    mover: &mut MoverState,
    tilt: &mut SlopeState,
    yaw: f32,
    slope: &SlopeParams,
    dt: f32,
) {
    let (clamped, hit_x, hit_z) = clamp_to_arena(mover.position.planar());
    if hit_x {
        mover.velocity.x = 0.0;
    }
    if hit_z {
        mover.velocity.z = 0.0;
    }
    mover.position.x = clamped.x;
    mover.position.z = clamped.y;
    let normal = mover.grounded.then_some(mover.ground_normal);
    slope::step(tilt, slope, Quat::from_yaw(yaw), normal, dt);
}

/// The movement step on `ground`. With the level's features, `movement::step`, which chooses the
/// mode (ladder, water, walking) every tick. Without them there is no ladder and no water, and the
/// players never crouch: `movement::step_wish`, the walking step alone, which gives the same bits
/// there (a water jump cannot start without water) — and keeps the water and crouch code, which
/// `step` links for any probe, out of the WASM-4 cart, whose 64 KiB cannot hold it (68,432 B with
/// `step`).
#[inline(always)]
fn step_on<G: GroundProbe>(
    ground: &G,
    mover: &mut MoverState,
    movement: &MoveParams,
    input: &MoveInput,
    dt: f32,
) -> movement::StepEvents {
    if cfg!(feature = "level-features") {
        movement::step(mover, movement, input, ground, dt)
    } else {
        movement::step_wish(mover, movement, input.world_wish(), input.jump, ground, dt)
    }
}

/// `yaw` turned by `by` radians and wrapped into `(−π, π]`; exactly `yaw` when `by` is 0 (off the
/// turntable: no float operation touches the yaw, so its bits stay those of a level without one).
#[inline]
pub(crate) fn add_carried_yaw(yaw: f32, by: f32) -> f32 {
    // Without the level's features no platform carries anyone (and the cart has no bytes for
    // the wrap).
    if by == 0.0 || !cfg!(feature = "level-features") {
        yaw
    } else {
        hopkit::math::wrap_angle(yaw + by)
    }
}

/// Tuning of the demo scene. `Default` = the values documented on each field.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct DemoParams {
    /// Player movement. Default [`MoveParams::seed`] (the seed's constants, auto-hop on).
    pub movement: MoveParams,
    /// Player body tilt on slopes. Default [`SlopeParams::seed`] (45° limit, 270°/s).
    pub slope: SlopeParams,
    /// Companion. Default [`FollowerParams::seed`].
    pub follower: FollowerParams,
    /// Critter bodies. Default [`SteeringParams::critter`].
    pub critter: SteeringParams,
    /// Critter arrival. Default [`ArrivalParams::default`].
    pub arrival: ArrivalParams,
    /// Fastest view turn, rad/s. Default [`LOOK_MAX_RATE`].
    pub look_max_rate: f32,
}

impl Default for DemoParams {
    fn default() -> Self {
        Self::DEFAULT
    }
}

impl DemoParams {
    /// The defaults documented on each field, as one constant: copied from read-only data rather
    /// than stored field by field (the WASM-4 cart counts its bytes).
    pub const DEFAULT: DemoParams = DemoParams {
        movement: MoveParams::seed(),
        slope: SlopeParams::seed(),
        follower: FollowerParams::seed(),
        critter: SteeringParams::critter(),
        arrival: ArrivalParams::DEFAULT,
        look_max_rate: LOOK_MAX_RATE,
    };
}

/// The player: movement state, view yaw and body tilt.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Player {
    /// Movement state (feet position, velocity, ground contact, jump timers).
    pub mover: MoverState,
    /// View yaw, radians in `(−π, π]` (0 faces −Z, positive turns left).
    pub yaw: f32,
    /// Planar unit forward of `yaw` (cached once per tick for the movement kernels).
    pub facing: Vec2,
    /// Slope alignment of the body.
    pub tilt: SlopeState,
}

/// Everything simulated in the demo.
#[derive(Clone, Debug)]
pub struct DemoScene {
    /// The companion's constants: `params.follower` sanitized once when set (so the ticks need
    /// not check it) and its per-tick decays at [`TICK_HZ`] ([`follower::step_with`]; not state,
    /// not hashed).
    follower_consts: follower::TickConsts,
    /// Tuning (not hashed: it is constant for a run); read with [`DemoScene::params`], changed
    /// with [`DemoScene::set_params`], which sanitizes the companion's parameters once so that the
    /// ticks need not.
    params: DemoParams,
    /// Ticks simulated so far.
    pub tick: u32,
    /// The player.
    pub player: Player,
    /// The companion.
    pub companion: FollowerState,
    /// The arrival critters.
    pub critters: [ArrivalState; CRITTERS],
    /// The ghost formation (empty if the bundled recording failed to parse, which its tests rule out).
    pub ghosts: GhostScene<GHOSTS>,
    /// True on ticks where the player's fire button is down (drawn as a muzzle flash).
    pub player_firing: bool,
    /// The level the player moves on (not hashed: it is constant for a run; set with
    /// [`DemoRig::with_level`]). Default [`Level::DEFAULT`].
    pub level: Level,
    /// The solid level's world ([`DemoRig::with_solids`]; constant: not hashed). A reference, not
    /// the ≈ 5 KB world itself: the scene's size is the same with or without the `level-solids`
    /// feature (the C ABI's opaque `HkDemoRig` storage holds a rig, and a workspace build turns
    /// the feature on for every crate), and copying a scene does not copy the level.
    #[cfg(feature = "level-solids")]
    pub(crate) solids: Option<&'static crate::solid_level::SolidWorld>,
}

/// The stick pipeline plus the scene: the whole handheld simulation.
#[derive(Clone, Debug)]
pub struct DemoRig {
    /// Raw samples → stick vectors and button edges.
    pub pipeline: StickPipeline,
    /// The simulated world.
    pub scene: DemoScene,
    recording: Option<Recording<'static>>,
}

impl Default for DemoRig {
    fn default() -> Self {
        Self::new()
    }
}

impl DemoScene {
    /// The standard demo scene with default [`DemoParams`].
    pub fn new(recording: Option<&Recording<'_>>) -> Self {
        let params = DemoParams::default();
        let critters = RING.map(|r| {
            let o = r * (CRITTER_RING * 2.0);
            ArrivalState::new(Vec3::new(o.x, 0.0, o.y))
        });
        let ghosts = match recording {
            Some(r) => crate::pilot::formation(r),
            None => GhostScene::new(ghost::FlyerParams::default()),
        };
        DemoScene {
            params,
            tick: 0,
            player: Player {
                mover: MoverState::new(PLAYER_START),
                yaw: 0.0,
                facing: Vec2::new(0.0, -1.0),
                tilt: SlopeState::new(),
            },
            companion: FollowerState::new(COMPANION_START, PLAYER_START, 0.0),
            critters,
            ghosts,
            player_firing: false,
            level: Level::DEFAULT,
            #[cfg(feature = "level-solids")]
            solids: None,
            follower_consts: follower::TickConsts::new(&params.follower, 1.0 / TICK_HZ as f32),
        }
    }

    /// The tuning in use. Its `follower` parameters are sanitized
    /// ([`FollowerParams::sanitized`]); everything else is as given to [`DemoScene::set_params`].
    pub fn params(&self) -> &DemoParams {
        &self.params
    }

    /// Replace the tuning from the next tick on. The companion's parameters are sanitized here,
    /// once ([`FollowerParams::sanitized`]: every bad field → its default), the rest by each
    /// mechanic every tick as before; the ticks are those [`follower::step`] would give with the
    /// parameters as passed.
    pub fn set_params(&mut self, params: DemoParams) {
        self.follower_consts = follower::TickConsts::new(&params.follower, 1.0 / TICK_HZ as f32);
        self.params = DemoParams {
            follower: *self.follower_consts.params(),
            ..params
        };
    }

    /// One fixed tick with already processed stick input: `left` = movement stick (x right,
    /// y forward), `look_rate` in rad/s (positive turns left), `buttons_held` bitmask.
    pub fn step(
        &mut self,
        left: Vec2,
        look_rate: f32,
        buttons_held: u8,
        recording: Option<&Recording<'_>>,
    ) {
        let dt = 1.0 / TICK_HZ as f32;
        let ground = DemoGround;
        self.step_player(left, look_rate, buttons_held, dt);
        let p = self.player.mover.position;
        // Built when set (`new`, `set_params`): the parameters not checked again every tick.
        follower::step_with(&mut self.companion, &self.follower_consts, p, &ground);
        self.step_critters(dt);
        if let Some(rec) = recording {
            let targets = [p + Vec3::new(0.0, 1.0, 0.0)];
            self.ghosts.set_targets(&targets);
            self.ghosts.step(rec, &ground);
        }
        self.player_firing = buttons_held & buttons::FIRE != 0;
        self.tick = self.tick.wrapping_add(1);
    }

    fn step_player(&mut self, left: Vec2, look_rate: f32, held: u8, dt: f32) {
        let pl = &mut self.player;
        let yaw = pl.yaw + hopkit::math::finite_or(look_rate, 0.0) * dt;
        // Within ±3 rad `wrap_angle` returns its input exactly (its floor is 0): skip it there.
        pl.yaw = if yaw.to_bits() & 0x7fff_ffff <= 3.0f32.to_bits() {
            yaw
        } else {
            hopkit::math::wrap_angle(yaw)
        };
        pl.facing = hopkit::math::yaw_forward(pl.yaw);
        // Stick: x right, y forward → the seed's (front, right).
        let input = MoveInput::new(
            Vec2::new(left.y, left.x),
            held & buttons::JUMP != 0,
            pl.facing,
        );
        #[cfg(feature = "level-solids")]
        if let (true, Some(world)) = (self.level.is_solid(), self.solids) {
            // The left stick's push crouches (only here: the other levels never crouch).
            let input = input.with_crouch(held & buttons::LEFT_STICK != 0);
            let carried = crate::solid_level::move_on_solids(
                world,
                &mut pl.mover,
                &mut pl.tilt,
                pl.yaw,
                (&self.params.movement, &self.params.slope),
                &input,
                dt,
            );
            pl.yaw = add_carried_yaw(pl.yaw, carried);
            return;
        }
        let carried = move_on_level(
            self.level,
            &mut pl.mover,
            &mut pl.tilt,
            pl.yaw,
            (&self.params.movement, &self.params.slope),
            &input,
            dt,
        );
        pl.yaw = add_carried_yaw(pl.yaw, carried);
    }

    fn step_critters(&mut self, dt: f32) {
        let p = self.player.mover.position;
        let params = &self.params.critter;
        // The critters share their parameters and `dt`: `arrival_step`'s constants once.
        let Some(k) = steering::TickConsts::new(params, &self.params.arrival, dt) else {
            return;
        };
        for (c, o) in self.critters.iter_mut().zip(RING.iter()) {
            let target = Vec3::new(p.x + o.x * CRITTER_RING, 0.0, p.z + o.y * CRITTER_RING);
            arrival_step_with(c, &k, target);
        }
    }

    /// True while the player surfs on the solid level (in the air on a ramp too steep to stand
    /// on, [`crate::solid_level::surfing`]); false on the other levels.
    #[cfg(feature = "level-solids")]
    pub fn player_surfing(&self) -> bool {
        match self.solids {
            Some(w) if self.level.is_solid() => {
                crate::solid_level::surfing(w, &self.player.mover, &self.params.movement)
            }
            _ => false,
        }
    }

    /// A drawable snapshot.
    pub fn view(&self) -> DemoView {
        let p = &self.player;
        let mut view = DemoView {
            tick: self.tick,
            arena_half_extent: Vec2::new(ARENA_HALF_EXTENT, ARENA_HALF_EXTENT),
            camera: p.mover.position.planar(),
            player: BodyView {
                position: p.mover.position,
                heading: p.facing,
                speed: p.mover.planar_speed(),
            },
            player_grounded: p.mover.grounded,
            player_tilt_deg: p.tilt.tilt_angle() * (180.0 / core::f32::consts::PI),
            ground_max_speed: self.params.movement.max_speed,
            companion: BodyView {
                position: self.companion.body.position,
                heading: self.companion.body.forward().planar(),
                speed: heading_and_speed(self.companion.body.velocity.planar()).1,
            },
            companion_head_yaw: self.companion.body.neck_yaw,
            ramps: ramp_views(),
            #[cfg(feature = "level-features")]
            features: self
                .level
                .has_features()
                .then(|| crate::level::feature_view(self.tick)),
            #[cfg(feature = "level-solids")]
            solids: self.level.is_solid() && self.solids.is_some(),
            ..DemoView::default()
        };
        for c in self.companion.trail.iter() {
            let _ = view.crumbs.push(c.planar());
        }
        let pos = p.mover.position;
        for (c, o) in self.critters.iter().zip(RING.iter()) {
            let (heading, speed) = heading_and_speed(c.agent.velocity.planar());
            let _ = view.critters.push(CritterView {
                body: BodyView {
                    position: c.agent.position,
                    heading,
                    speed,
                },
                target: Vec2::new(pos.x + o.x * CRITTER_RING, pos.z + o.y * CRITTER_RING),
                arrived: c.arrived,
            });
        }
        for g in self.ghosts.ghosts.iter() {
            // Only the forward axis's planar part, not the whole basis (the same bits).
            let f = planar_forward(g.flyer.orientation);
            let _ = view.ghosts.push(GhostView {
                body: BodyView {
                    position: g.flyer.position,
                    heading: f.normalize_or_zero(),
                    speed: g.flyer.speed,
                },
                firing: g.firing,
            });
        }
        view
    }
}

impl StateHash for DemoScene {
    fn hash_state(&self, h: &mut StateHasher) {
        h.write_u32(self.tick);
        self.player.mover.hash_state(h);
        h.write_f32(self.player.yaw);
        h.write_vec2(self.player.facing);
        self.player.tilt.hash_state(h);
        self.companion.hash_state(h);
        for c in self.critters.iter() {
            c.hash_state(h);
        }
        self.ghosts.hash_state(h);
        h.write_bool(self.player_firing);
    }
}

impl DemoRig {
    /// The standard demo: default stick pipeline, the scene with the bundled ghost recording.
    pub fn new() -> Self {
        Self::with_recording(crate::pilot::demo_recording().ok())
    }

    /// The standard demo with another ghost recording (`None`: no ghosts). The WASM-4 cart
    /// passes the player's own recording, or the bundled one decoded from its version 2 bytes
    /// (the same frames as [`DemoRig::new`]'s, so the same hashes), and so does not link the
    /// 5.5 KB version 1 file.
    pub fn with_recording(recording: Option<Recording<'static>>) -> Self {
        DemoRig {
            pipeline: StickPipeline::default(),
            scene: DemoScene::new(recording.as_ref()),
            recording,
        }
    }

    /// This rig with its player on `level` (from the next tick on; a rig is meant to be made
    /// with its level: `DemoRig::with_recording(r).with_level(l)`). The WASM-4 cart runs
    /// [`Level::WASM4_CART`], and `hopkit-sim hash --gamepad` runs it by default.
    ///
    /// [`Level::Solid`] needs its world: [`DemoRig::with_solids`]. Without one the player moves
    /// on the plain ground there (as on [`Level::Plain`]).
    pub fn with_level(mut self, level: Level) -> Self {
        self.scene.level = level;
        self
    }

    /// This rig with its player on the level of solids ([`Level::Solid`]), in `world` — built by
    /// [`crate::solid_level::build`] (or another world of the same [`SolidWorld`] capacity). The
    /// scene keeps a reference: the world is level data, made once by the front end, not state.
    ///
    /// [`SolidWorld`]: crate::solid_level::SolidWorld
    #[cfg(feature = "level-solids")]
    pub fn with_solids(mut self, world: &'static crate::solid_level::SolidWorld) -> Self {
        self.scene.level = Level::Solid;
        self.scene.solids = Some(world);
        self
    }

    /// One fixed 1/[`TICK_HZ`] s tick from raw samples.
    pub fn tick(&mut self, raw: &RawSticks) {
        let frame = self.pipeline.process(raw);
        let look = hopkit::stick::look_rate(frame.right, self.scene.params().look_max_rate);
        self.scene.step(
            frame.left,
            look,
            frame.buttons.held,
            self.recording.as_ref(),
        );
    }

    /// Ticks simulated so far.
    pub fn tick_count(&self) -> u32 {
        self.scene.tick
    }

    /// The state hash of the whole rig (stick pipeline + scene).
    pub fn state_hash(&self) -> u64 {
        let mut h = StateHasher::new();
        self.pipeline.hash_state(&mut h);
        self.scene.hash_state(&mut h);
        h.finish()
    }

    /// A drawable snapshot.
    pub fn view(&self) -> DemoView {
        self.scene.view()
    }
}

/// Run `ticks` ticks of [`scripted_raw`] from a fresh [`DemoRig`] and return its state hash.
pub fn scripted_hash(ticks: u32) -> u64 {
    let mut rig = DemoRig::new();
    for t in 0..ticks {
        rig.tick(&scripted_raw(t));
    }
    rig.state_hash()
}

#[cfg(test)]
mod tests {
    use super::*;
    #[cfg(feature = "level-features")]
    use crate::level::{
        LADDER, TOWER, TOWER_HEIGHT, TURNTABLE_CENTER, TURNTABLE_RADIUS, TURNTABLE_YAW_RATE,
    };

    /// A scene with the player placed at `feet` facing `yaw`, no ghosts.
    #[cfg(feature = "level-features")]
    fn placed(feet: Vec3, yaw: f32) -> DemoScene {
        let mut s = DemoScene::new(None);
        s.player.mover = MoverState::new(feet);
        s.player.yaw = yaw;
        s
    }

    #[test]
    #[cfg(feature = "level-features")]
    fn the_ladder_takes_the_player_onto_the_tower() {
        // Facing +X (yaw −π/2), 2 m in front of the ladder, stick forward.
        let z = (LADDER.min.y + LADDER.max.y) * 0.5;
        let mut s = placed(
            Vec3::new(LADDER.min.x - 2.0, 0.0, z),
            -core::f32::consts::FRAC_PI_2,
        );
        let mut climbed = false;
        for _ in 0..4 * TICK_HZ {
            s.step(Vec2::new(0.0, 1.0), 0.0, 0, None);
            let m = &s.player.mover;
            climbed |= !m.grounded && m.position.y > 1.0 && m.position.x < TOWER.min.x;
            if m.grounded && m.position.y > 0.0 {
                break; // on top: let go
            }
        }
        for _ in 0..TICK_HZ {
            s.step(Vec2::ZERO, 0.0, 0, None);
        }
        let m = &s.player.mover;
        assert!(climbed, "never on the ladder: {m:?}");
        assert!(m.grounded && m.position.y == TOWER_HEIGHT, "{m:?}");
        assert!(TOWER.contains(m.position.planar()), "{m:?}");
        // Without the ladder the tower's face is a wall: beside it the player stays on the floor.
        let mut s = placed(
            Vec3::new(LADDER.min.x - 2.0, 0.0, TOWER.min.y + 1.0),
            -core::f32::consts::FRAC_PI_2,
        );
        for _ in 0..4 * TICK_HZ {
            s.step(Vec2::new(0.0, 1.0), 0.0, 0, None);
            assert!(s.player.mover.position.y == 0.0 && s.player.mover.position.x <= TOWER.min.x);
        }
    }

    #[test]
    #[cfg(feature = "level-features")]
    fn the_player_swims_in_the_pool_and_climbs_out() {
        use crate::level::{POOL, POOL_FLOOR, POOL_WATER};
        use hopkit::ground::GroundProbe;
        let z = (POOL.min.y + POOL.max.y) * 0.5;
        let east = -core::f32::consts::FRAC_PI_2;
        let mut s = placed(Vec3::new(POOL.min.x - 1.0, 0.0, z), east);
        // Walk in: the player drops into the water, slowed by it, and never below the floor.
        // Then let go: with no input a swimmer sinks (the seed's 0.6 m/s) to the floor.
        for t in 0..6 * TICK_HZ {
            let stick = if t < TICK_HZ / 2 { 1.0 } else { 0.0 };
            s.step(Vec2::new(0.0, stick), 0.0, 0, None);
            let m = &s.player.mover;
            assert!(m.position.y >= POOL_FLOOR && m.is_finite(), "{m:?}");
        }
        let m = s.player.mover;
        assert!(POOL.contains(m.position.planar()), "{m:?}");
        assert!(m.position.y < POOL_WATER - 1.0, "not in the water: {m:?}");
        let level = hopkit::movement::water_level(
            &crate::level::DemoLevel,
            m.position,
            &s.params().movement,
        );
        assert!(level >= 2, "water level {level}");
        assert!(crate::level::DemoLevel.water(m.position).is_some());
        // Turn round (facing −X, yaw π/2), swim back holding forward and jump: out at the edge
        // (the edge is 0.5 m above the water, above the seed's 0.3 m step: only a water jump
        // gets the player onto it).
        s.player.yaw = core::f32::consts::FRAC_PI_2;
        let mut out = false;
        for _ in 0..8 * TICK_HZ {
            s.step(Vec2::new(0.0, 1.0), 0.0, buttons::JUMP, None);
            let m = &s.player.mover;
            assert!(m.is_finite());
            if m.position.x < POOL.min.x && m.position.y >= 0.0 && m.grounded {
                out = true;
                break;
            }
        }
        assert!(out, "never climbed out: {:?}", s.player.mover);
    }

    #[test]
    #[cfg(feature = "level-features")]
    fn the_turntable_carries_the_player_round() {
        let r0 = Vec2::new(3.0, 0.0);
        let start = TURNTABLE_CENTER + r0;
        let mut s = placed(Vec3::new(start.x, 0.0, start.y), 0.0);
        let secs = 2;
        for _ in 0..secs * TICK_HZ {
            s.step(Vec2::ZERO, 0.0, 0, None);
        }
        let turned = TURNTABLE_YAW_RATE * secs as f32;
        // The yaw turned with the disc, and the player is still 3 m from the centre, moved round
        // by the same angle (counter-clockwise from above: +X goes towards −Z).
        // (The first tick categorises the ground before anything carries it: one tick less.)
        let tick = TURNTABLE_YAW_RATE / TICK_HZ as f32;
        assert!(
            (s.player.yaw - (turned - tick)).abs() < 1e-3,
            "yaw {}",
            s.player.yaw
        );
        let r = s.player.mover.position.planar() - TURNTABLE_CENTER;
        assert!((r.length() - r0.length()).abs() < 0.05, "{r:?}");
        let (sin, cos) = hopkit::math::scalar::sin_cos(turned - tick);
        let want = Vec2::new(3.0 * cos, -3.0 * sin);
        assert!((r - want).length() < 0.05, "{r:?} vs {want:?}");
        // Off the disc nothing turns.
        let far = TURNTABLE_CENTER + Vec2::new(TURNTABLE_RADIUS + 1.0, 0.0);
        let mut s = placed(Vec3::new(far.x, 0.0, far.y), 0.0);
        for _ in 0..TICK_HZ {
            s.step(Vec2::ZERO, 0.0, 0, None);
        }
        assert_eq!(s.player.yaw, 0.0);
        assert_eq!(s.player.mover.position.planar(), far);
    }

    /// The issue-37 reproduction: 12 ticks of RIGHT, 300 of UP, 288 of nothing. On the full
    /// level the player runs into the tower; on the plain one (the WASM-4 cart's) through its
    /// place. The hashes are the cart's (`ff72a540df61ba9c`, measured in WASM-4's runtimes) and
    /// the full level's.
    fn reproduction() -> std::vec::Vec<u8> {
        let mut b = std::vec![0x20u8; 12];
        b.extend([0x40u8; 300]);
        b.extend([0u8; 288]);
        b
    }

    #[test]
    fn each_level_has_its_hash_for_the_reproduction() {
        let bytes = reproduction();
        let plain =
            crate::gamepad::gamepad_hash_rig(DemoRig::new().with_level(Level::WASM4_CART), &bytes);
        assert_eq!(plain, 0xff72_a540_df61_ba9c);
        #[cfg(feature = "level-features")]
        {
            let full =
                crate::gamepad::gamepad_hash_rig(DemoRig::new().with_level(Level::Full), &bytes);
            assert_eq!(full, 0xc2fb_463d_ec14_f008);
            assert_eq!(
                full,
                crate::gamepad_hash(&bytes),
                "the default level is the full one"
            );
        }
    }

    #[test]
    #[cfg(feature = "level-features")]
    fn the_plain_level_has_no_tower_and_no_features_in_view() {
        // Run at the ladder's tower as in `the_ladder_takes_the_player_onto_the_tower`: on the
        // plain level the player walks on the floor through where the tower stands.
        let z = (TOWER.min.y + TOWER.max.y) * 0.5;
        let mut s = placed(
            Vec3::new(LADDER.min.x - 2.0, 0.0, z),
            -core::f32::consts::FRAC_PI_2,
        );
        s.level = Level::Plain;
        let mut inside = false;
        for _ in 0..2 * TICK_HZ {
            s.step(Vec2::new(0.0, 1.0), 0.0, 0, None);
            let m = &s.player.mover;
            assert_eq!(m.position.y, 0.0, "{m:?}");
            inside |= TOWER.contains(m.position.planar());
        }
        assert!(
            inside,
            "never crossed the tower's place: {:?}",
            s.player.mover
        );
        assert!(s.view().features.is_none());
        s.level = Level::Full;
        assert!(s.view().features.is_some());
        // The names the command line uses.
        for l in [Level::Plain, Level::Full] {
            assert_eq!(Level::from_name(l.name()), Some(l));
        }
        assert_eq!(Level::from_name("tower"), None);
        assert_eq!(Level::default(), Level::Full);
    }

    #[test]
    #[cfg(feature = "level-features")]
    fn the_scripted_demo_hashes_the_same_on_both_levels() {
        let mut a = DemoRig::new().with_level(Level::Plain);
        let mut b = DemoRig::new().with_level(Level::Full);
        for t in 0..3600 {
            a.tick(&scripted_raw(t));
            b.tick(&scripted_raw(t));
            if t % 600 == 599 {
                assert_eq!(a.state_hash(), b.state_hash(), "tick {t}");
            }
        }
    }

    #[test]
    fn rig_is_deterministic_and_finite() {
        let mut a = DemoRig::new();
        let mut b = DemoRig::new();
        assert_eq!(a.scene.ghosts.ghosts.len(), GHOSTS);
        let mut max_speed = 0.0f32;
        for t in 0..3600 {
            a.tick(&scripted_raw(t));
            b.tick(&scripted_raw(t));
            let v = a.view();
            assert!(v.player.position.is_finite() && v.companion.position.is_finite());
            for g in v.ghosts.iter() {
                assert!(g.body.position.is_finite());
            }
            max_speed = max_speed.max(v.player.speed);
        }
        assert_eq!(a.state_hash(), b.state_hash());
        assert_eq!(a.tick_count(), 3600);
        // The strafe-hop segments push the player past the ground max speed.
        assert!(
            max_speed > a.scene.params().movement.max_speed,
            "max speed {max_speed}"
        );
    }

    /// The view's companion head yaw is relative to the body (as documented and as the renderer
    /// draws it: the body heading turned by it), so heading + head yaw is the head's world yaw.
    #[test]
    fn companion_head_yaw_is_relative_to_the_body() {
        let mut rig = DemoRig::new();
        let mut turned = 0;
        for t in 0..3600 {
            rig.tick(&scripted_raw(t));
            let v = rig.view();
            let body = &rig.scene.companion.body;
            let heading =
                hopkit::steering::yaw_towards(Vec3::from_planar(v.companion.heading, 0.0)).unwrap();
            let head = hopkit::math::wrap_angle(heading + v.companion_head_yaw);
            let err = hopkit::math::wrap_angle(head - body.head_yaw()).abs();
            // `yaw_towards` is an atan2: ≤ 1 ulp with libm, ≈ 4·10⁻³ rad with micromath.
            let tol = if cfg!(feature = "micromath") {
                1e-2
            } else {
                1e-4
            };
            assert!(err < tol, "tick {t}: {head} vs {}", body.head_yaw());
            turned += (v.companion_head_yaw.abs() > 0.05) as u32;
        }
        // The head does turn relative to the body (from about tick 1800, when the companion has
        // stopped and looks at the player): the test is not about a zero angle.
        assert!(turned > 100, "{turned}");
    }

    #[test]
    fn scripted_hash_matches_manual_run() {
        let mut rig = DemoRig::new();
        for t in 0..120 {
            rig.tick(&scripted_raw(t));
        }
        assert_eq!(rig.state_hash(), scripted_hash(120));
        assert_ne!(scripted_hash(120), scripted_hash(121));
    }

    #[test]
    fn companion_ticks_are_follower_step_with_the_params_as_set() {
        // The default (seed) parameters are sane; bad ones are sanitized once by `set_params`,
        // and the companion then moves exactly as `follower::step` moves it with the bad ones.
        assert!(DemoScene::new(None).params().follower.is_sane());
        let mut rig = DemoRig::new();
        let mut bad = *rig.scene.params();
        bad.follower.record_distance = f32::NAN;
        bad.follower.stop_decay_per_tick = 7.0;
        bad.follower.neck_rate = -1.0;
        bad.follower.teleport_distance = 0.0;
        bad.follower.move_speed = 11.0; // sane, kept
        rig.scene.set_params(bad);
        assert!(rig.scene.params().follower.is_sane());
        assert_eq!(rig.scene.params().follower.move_speed, 11.0);
        let mut companion = rig.scene.companion;
        for t in 0..600 {
            rig.tick(&scripted_raw(t));
            let p = rig.scene.player.mover.position;
            let dt = 1.0 / TICK_HZ as f32;
            let ev = follower::step(&mut companion, &bad.follower, p, &DemoGround, dt);
            assert_eq!(companion, rig.scene.companion, "tick {t}");
            assert!(!ev.regrouped);
        }
    }

    #[test]
    fn view_lists_everything() {
        let mut rig = DemoRig::new();
        for t in 0..400 {
            rig.tick(&scripted_raw(t));
        }
        let v = rig.view();
        assert_eq!(v.critters.len(), CRITTERS);
        assert_eq!(v.ghosts.len(), GHOSTS);
        assert_eq!(v.ramps.len(), 2);
        assert!(!v.crumbs.is_empty());
        assert_eq!(v.tick, 400);
    }
}
