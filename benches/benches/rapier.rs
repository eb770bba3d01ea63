//! The body among solids against Rapier (issue 34 §5), in one interleaved run: 256 Quake III
//! bodies run through the 256-solid level of walls, ramps and staircases
//! (`hopkit_demo::collision::scattered_level`), every pass from the same fresh starts
//! (`scattered_start`), `TICKS` ticks of 1/60 s each, per character per tick:
//!
//! - **hopkit**: a whole `movement::step` on `collide::Solid(&level)` — ground trace, friction and
//!   acceleration, jump rules, gravity, the step-slide move (Quake III's `PM_StepSlideMove`), the
//!   ground trace after it, guards. Stick forward, facing the start's direction.
//! - **Rapier** (`rapier3d`, from crates.io): its `KinematicCharacterController::move_shape` moving
//!   the same box (a cuboid 30 × 56 × 30) through the same solids (boxes as cuboid colliders,
//!   ramps as convex hulls of their six corners, all fixed colliders in one `PhysicsWorld`, its
//!   query pipeline — the BVH broad phase — built once by one `step` before timing), configured as
//!   a competent user would for these bodies: slide on, autostep up to 18 units (Quake's
//!   `step_up`) over at least 1 unit of free width, snap to the ground within 18 (hopkit's
//!   `step_down`), 1/8 unit offset (Quake's skin), climbable up to hopkit's walkable slope, dynamic
//!   bodies not stepped on (there are none). Each tick it is given the velocity times the tick as
//!   its desired translation: 320 units/s along the start's direction, plus gravity (800 units/s²)
//!   accumulated while not grounded. It computes no friction or acceleration: its per-step work
//!   is the collision part only, so the ratio is in Rapier's favour.
//!
//! Printed: a Markdown table (the rows of docs/benchmarks.md's `bench-collide` section, which
//! `scripts/bench-table.sh --collide --write` regenerates), and on stderr how far apart the two
//! bodies end (they are different controllers: Rapier's autostep, snap and slide rules are not
//! Quake's, so the paths are close on open ground and differ at walls and steps).
//!
//! `cargo bench -p hopkit-benches --features rapier --bench rapier` (`-- --quick`: a short run).

use hopkit::collide::Solid;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use hopkit_demo::collision::{scattered_level, scattered_start, ScatteredLevel};
use rapier3d::control::{CharacterAutostep, CharacterLength, KinematicCharacterController};
use rapier3d::prelude::*;
use std::hint::black_box;

use hopkit_benches::interleave::{alone, interleaved};

/// Bodies per pass.
const BODIES: usize = 256;
/// Ticks each body runs per pass (from its fresh start).
const TICKS: usize = 8;
const DT: f32 = 1.0 / 60.0;
const SPEED: f32 = 320.0;

/// One body's start: hopkit's state and input, and the direction.
#[derive(Clone, Copy)]
struct Start {
    state: MoverState,
    input: MoveInput,
    dir: Vec2,
}

fn starts(level: &ScatteredLevel) -> Vec<Start> {
    (0..BODIES as u32)
        .map(|i| {
            let (mut state, dir) = scattered_start(level, i);
            state.velocity = Vec3::new(dir.x * SPEED, 0.0, dir.y * SPEED);
            let input = MoveInput::new(Vec2::new(1.0, 0.0), false, dir);
            Start { state, input, dir }
        })
        .collect()
}

/// The level as Rapier colliders (fixed, no bodies), its broad phase built by one step.
fn rapier_world(level: &ScatteredLevel) -> PhysicsWorld {
    let mut world = PhysicsWorld::default();
    for b in level.brushes() {
        let (lo, hi) = (b.mins(), b.maxs());
        let collider = match b.sloped_planes() {
            [] => {
                let half = (hi - lo) * 0.5;
                let center = (lo + hi) * 0.5;
                ColliderBuilder::cuboid(half.x, half.y, half.z)
                    .translation(Vector::new(center.x, center.y, center.z))
            }
            // The level's ramps rise towards +X (`Brush::ramp(.., Toward::PlusX)`): a wedge whose
            // low edge is the bottom at `lo.x`, its high edge the top at `hi.x`.
            [p] if p.normal.x < 0.0 && p.normal.y > 0.0 && p.normal.z == 0.0 => {
                let v = |x: f32, y: f32, z: f32| Vector::new(x, y, z);
                let corners = [
                    v(lo.x, lo.y, lo.z),
                    v(lo.x, lo.y, hi.z),
                    v(hi.x, lo.y, lo.z),
                    v(hi.x, lo.y, hi.z),
                    v(hi.x, hi.y, lo.z),
                    v(hi.x, hi.y, hi.z),
                ];
                ColliderBuilder::convex_hull(&corners).expect("a ramp's hull")
            }
            other => panic!("a brush this bench cannot convert: {other:?}"),
        };
        world.colliders.insert(collider);
    }
    world.step();
    world
}

/// Rapier's character, as described in the module docs.
fn controller(params: &MoveParams) -> KinematicCharacterController {
    KinematicCharacterController {
        up: Vector::Y,
        offset: CharacterLength::Absolute(hopkit::collide::SURFACE_CLIP_EPSILON),
        slide: true,
        autostep: Some(CharacterAutostep {
            max_height: CharacterLength::Absolute(params.step_up),
            min_width: CharacterLength::Absolute(1.0),
            include_dynamic_bodies: false,
        }),
        max_slope_climb_angle: params.min_ground_normal_y.acos(),
        min_slope_slide_angle: params.min_ground_normal_y.acos(),
        snap_to_ground: Some(CharacterLength::Absolute(params.step_down)),
        ..KinematicCharacterController::default()
    }
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    let rounds = if quick { 5 } else { 41 };
    let level = {
        let mut l = Box::new(ScatteredLevel::new());
        scattered_level(&mut l);
        l
    };
    let starts = starts(&level);
    let params = MoveParams::quake3();
    let probe = Solid(&*level);
    let world = rapier_world(&level);
    let queries = world.query_pipeline();
    let kcc = controller(&params);
    let half = Vector::new(
        params.body_radius,
        params.stand_height * 0.5,
        params.body_radius,
    );
    let shape = Cuboid::new(half);
    let center = Vector::new(0.0, half.y, 0.0);

    let mut hop_end = vec![Vec3::ZERO; BODIES];
    let mut hopkit = || {
        for (s, end) in starts.iter().zip(hop_end.iter_mut()) {
            let mut state = s.state;
            for _ in 0..TICKS {
                step(&mut state, &params, black_box(&s.input), &probe, DT);
            }
            *end = black_box(state.position);
        }
    };
    let mut rap_end = vec![Vec3::ZERO; BODIES];
    let rapier_with = |kcc: &KinematicCharacterController, rap_end: &mut [Vec3]| {
        for (s, end) in starts.iter().zip(rap_end.iter_mut()) {
            let p = s.state.position;
            let mut pos = Pose::from_translation(Vector::new(p.x, p.y, p.z) + center);
            let mut vy = 0.0f32;
            for _ in 0..TICKS {
                let desired = Vector::new(s.dir.x * SPEED, vy, s.dir.y * SPEED) * DT;
                let m = kcc.move_shape(DT, &queries, &shape, &pos, black_box(desired), |_| {});
                pos.translation += m.translation;
                vy = if m.grounded {
                    0.0
                } else {
                    vy - params.gravity * DT
                };
            }
            let t = pos.translation - center;
            *end = black_box(Vec3::new(t.x, t.y, t.z));
        }
    };
    let mut rapier = || rapier_with(&kcc, &mut rap_end);
    let items = BODIES * TICKS;
    let (h, r, ratio) = interleaved(rounds, 4, items, &mut hopkit, &mut rapier);
    // The 256-solid row on its own (the same work, not interleaved with Rapier's).
    let alone_ns = alone(rounds, 4, items, &mut hopkit);
    // Context: Rapier without autostep (its docs call autostep very expensive); no stairs then.
    let flat = KinematicCharacterController {
        autostep: None,
        ..kcc
    };
    let mut scratch = vec![Vec3::ZERO; BODIES];
    let (h2, r2, ratio2) = interleaved(rounds, 4, items, &mut hopkit, &mut || {
        rapier_with(&flat, &mut scratch)
    });

    // How the two controllers' bodies compare after the pass (stderr: context, not a figure).
    let d: Vec<f32> = hop_end
        .iter()
        .zip(&rap_end)
        .map(|(a, b)| (*a - *b).length())
        .collect();
    let close = d.iter().filter(|&&x| x < 1.0).count();
    eprintln!(
        "after {TICKS} ticks: {close} of {BODIES} bodies within 1 unit of each other in the two \
         controllers, largest gap {:.1} units",
        d.iter().cloned().fold(0.0, f32::max)
    );
    let hop_moved = starts
        .iter()
        .zip(&hop_end)
        .filter(|(s, e)| (**e - s.state.position).length() > 1.0)
        .count();
    eprintln!("hopkit bodies that moved: {hop_moved} of {BODIES}");

    println!("| bench | hopkit | baseline | ratio (hopkit / baseline) |");
    println!("|---|---|---|---|");
    println!(
        "| collision: a whole `movement::step` per character among 256 solids (walls, ramps, stairs; {BODIES} bodies × {TICKS} ticks from fresh starts, timed alone) | {alone_ns:.0} ns | — | — |"
    );
    println!(
        "| collision: the same, interleaved with Rapier moving the same box through the same level with the same moves | {h:.0} ns | {r:.0} ns (rapier3d {}'s `KinematicCharacterController::move_shape`, autostep and snap to ground on, fixed cuboid / convex-hull colliders, BVH query pipeline built once) | **{ratio:.2}×** |",
        RAPIER_VERSION
    );
    println!(
        "| collision: the same against Rapier without autostep (it then climbs no stairs: context for the cost of its autostep) | {h2:.0} ns | {r2:.0} ns (the same controller, `autostep: None`) | **{ratio2:.2}×** |"
    );
}

/// The rapier3d release this bench was written against (Cargo.toml: `rapier3d = "0.36"`).
const RAPIER_VERSION: &str = "0.36";
