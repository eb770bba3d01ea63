//! The benchmark table of docs/benchmarks.md, measured honestly: every row times hopkit and its baseline
//! **interleaved in one run** (rounds alternate A, B, A, B… so machine noise hits both alike) and
//! every timed pass starts from the **same fresh inputs** (outputs go to a separate buffer or the
//! state is reset untimed: nothing drifts into subnormals between passes). Reports the median time
//! per item of each side and the median of the per-round ratios.
//!
//! Movement has two baselines (`src/glam_movement.rs`): the same movement written lean with
//! glam + std in the style of Quake's `PM_Friction` / `PM_Accelerate` / `PM_AirAccelerate` (the
//! main one, checked to agree with hopkit over one tick and over 120 ticks before timing), and the
//! seed's `GetNextPlayerVector` ported literally (three sqrts, three divides).
//!
//! Steering has two baselines (`src/glam_steering.rs`): the same behaviours with the same
//! arrival maths (stopping schedule), checked to agree with hopkit before timing, so the ratio is
//! the price of hopkit's guards and API; and gdx-ai's cheaper arrival (a linear ramp, no
//! stopping schedule), so the price of the better arrival shows too.
//!
//! `scripts/bench-table.sh` runs it and prints the machine's load with the table:
//! `cargo bench -p hopkit-benches --bench table` (add `-- --quick` for a short run).

use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{
    planar_velocity_tick, planar_velocity_tick_batch, planar_velocity_tick_with, step_wish,
    FrictionMath, MoveParams, MoverState, TickConsts, WishBatch, WishDir,
};
use hopkit::rng::Pcg32;
use hopkit::steering::{
    arrive, blend, flock_indexed, integrate, Agent, ArrivalParams, FlockParams, SteeringParams,
};
use std::hint::black_box;

const DT: f32 = 1.0 / 60.0;
/// The movement rows' preset as a constant, for the rows that compile it in as the lean step does.
const SEED: MoveParams = MoveParams::seed();
/// The same with friction in Quake's form (`FrictionMath::SqrtDivide`): then hopkit's planar step
/// computes the lean step's bits exactly (checked before timing).
const SEED_EXACT: MoveParams = MoveParams {
    friction_math: FrictionMath::SqrtDivide,
    ..MoveParams::seed()
};

struct Row {
    what: String,
    baseline: String,
    hopkit_ns: f64,
    baseline_ns: Option<f64>,
    ratio: Option<f64>,
}

use hopkit_benches::interleave::{alone, interleaved};

// ---- movement ------------------------------------------------------------------------------------

const CHARACTERS: usize = 1024;

/// Baselines (shared with the criterion `movement` bench): the lean Quake-style step (main) and
/// the seed's literal step (second).
use hopkit_benches::glam_movement::{
    baseline_next as literal_next, lean_next, lean_next_wish, lean_wish,
};

/// The lean baseline computes what hopkit computes: check one tick of every character for every
/// form timed below, then 120 ticks of planar motion (velocity and an integrated position) of
/// hopkit's raw-wish step against the lean step, before timing anything. Prints the largest
/// differences to stderr (the table is on stdout).
fn check_movement(p: &MoveParams, v: &[Vec2], input: &[Vec2], grounded: &[bool]) {
    let g = |v: Vec2| glam::vec2(v.x, v.y);
    let diff = |a: Vec2, b: glam::Vec2| (a.x - b.x).abs().max((a.y - b.y).abs());
    let mut one_tick = 0.0f32;
    for i in 0..v.len() {
        let w = WishDir::from_world(input[i]);
        let a = planar_velocity_tick(v[i], w, p, grounded[i], DT);
        let k = planar_velocity_tick_with(v[i], w, &TickConsts::new(p, DT), grounded[i]);
        let lean = lean_next(g(v[i]), g(input[i]), DT, grounded[i]);
        let lean_cached = lean_next_wish(g(v[i]), lean_wish(g(input[i])), DT, grounded[i]);
        let literal = literal_next(g(v[i]), g(input[i]), DT, grounded[i]);
        for b in [lean, lean_cached, literal] {
            let d = diff(a, b).max(diff(k, b));
            assert!(
                d < 1e-4,
                "character {i}: hopkit {a:?} / {k:?} vs baseline {b:?}"
            );
            one_tick = one_tick.max(d);
        }
    }
    // 120 ticks (2 s): velocities and positions stay together (relative to their size).
    let (mut dv, mut dp) = (0.0f32, 0.0f32);
    for i in 0..v.len() {
        let (mut hv, mut hp) = (v[i], Vec2::ZERO);
        let (mut lv, mut lp) = (g(v[i]), glam::Vec2::ZERO);
        for _ in 0..120 {
            hv = planar_velocity_tick(hv, WishDir::from_world(input[i]), p, grounded[i], DT);
            lv = lean_next(lv, g(input[i]), DT, grounded[i]);
            hp += hv * DT;
            lp += lv * DT;
            let rel = |a: Vec2, b: glam::Vec2| diff(a, b) / (1.0 + b.length());
            dv = dv.max(rel(hv, lv));
            dp = dp.max(rel(hp, lp));
        }
    }
    assert!(
        dv < 1e-5 && dp < 1e-5,
        "120 ticks: velocity {dv:e}, position {dp:e}"
    );
    eprintln!(
        "movement check: 1 tick, largest |hopkit − baseline| component {one_tick:e}; 120 ticks, \
         largest relative difference: velocity {dv:e}, position {dp:e}"
    );
}

fn movement(rows: &mut Vec<Row>, rounds: usize) {
    let mut rng = Pcg32::seeded(1);
    let mut v = Vec::new();
    let mut input = Vec::new();
    let mut grounded = Vec::new();
    for i in 0..CHARACTERS {
        v.push(Vec2::new(
            rng.range_f32(-15.0, 15.0),
            rng.range_f32(-15.0, 15.0),
        ));
        input.push(match rng.below(4) {
            0 => Vec2::new(1.0, 0.0),
            1 => Vec2::new(0.0, -1.0),
            2 => Vec2::new(1.0, 1.0),
            _ => Vec2::new(-1.0, 1.0),
        });
        grounded.push(i % 2 == 0); // half airborne
    }
    let wish: Vec<WishDir> = input.iter().map(|&w| WishDir::from_world(w)).collect();
    let gv: Vec<glam::Vec2> = v.iter().map(|v| glam::vec2(v.x, v.y)).collect();
    let gi: Vec<glam::Vec2> = input.iter().map(|v| glam::vec2(v.x, v.y)).collect();
    let gw: Vec<_> = gi.iter().map(|&w| lean_wish(w)).collect();
    let p = black_box(MoveParams::seed());
    check_movement(&p, &v, &input, &grounded);
    let mut out = vec![Vec2::ZERO; CHARACTERS];
    let mut gout = vec![glam::Vec2::ZERO; CHARACTERS];
    let mut raw = || {
        for i in 0..CHARACTERS {
            out[i] = planar_velocity_tick(v[i], WishDir::from_world(input[i]), &p, grounded[i], DT);
        }
        black_box(&out);
    };
    let mut lean = || {
        for i in 0..CHARACTERS {
            gout[i] = lean_next(gv[i], gi[i], black_box(DT), grounded[i]);
        }
        black_box(&gout);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut raw, &mut lean);
    rows.push(Row {
        what: "movement: planar step of 1,024 characters (half airborne), raw wish, per character"
            .into(),
        baseline: "the same movement with glam + std, unguarded, in the style of Quake's \
                   `PM_Friction` / `PM_Accelerate` / `PM_AirAccelerate`: one sqrt and one \
                   divide for the ground friction, one of each to normalise the wish"
            .into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    let mut lout = vec![glam::Vec2::ZERO; CHARACTERS];
    let mut literal = || {
        for i in 0..CHARACTERS {
            lout[i] = literal_next(gv[i], gi[i], black_box(DT), grounded[i]);
        }
        black_box(&lout);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut raw, &mut literal);
    rows.push(Row {
        what: "movement: the same, raw wish, against the seed's literal step".into(),
        baseline: "the seed's `GetNextPlayerVector` ported literally to glam \
                   (`normalize_or_zero`, std `sqrt`: three sqrts, three divides)"
            .into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    // The params as a constant, as the lean port compiles its constants in: the same function,
    // with the model's branches and loads folded by the compiler (same bits: checked here).
    // With `FrictionMath::SqrtDivide` the step is the lean step's arithmetic, so its bits too.
    let p_exact = black_box(SEED_EXACT);
    for i in 0..CHARACTERS {
        let bits = |v: Vec2| (v.x.to_bits(), v.y.to_bits());
        let a = planar_velocity_tick(v[i], wish[i], &SEED, grounded[i], DT);
        let b = planar_velocity_tick(v[i], wish[i], &p, grounded[i], DT);
        assert_eq!(bits(a), bits(b), "const params == run-time params");
        let a = planar_velocity_tick(
            v[i],
            WishDir::from_world(input[i]),
            &SEED_EXACT,
            grounded[i],
            DT,
        );
        let b = planar_velocity_tick(
            v[i],
            WishDir::from_world(input[i]),
            &p_exact,
            grounded[i],
            DT,
        );
        assert_eq!(
            bits(a),
            bits(b),
            "const params == run-time params (SqrtDivide)"
        );
        let l = lean_next(gv[i], gi[i], DT, grounded[i]);
        assert_eq!(
            bits(a),
            (l.x.to_bits(), l.y.to_bits()),
            "SqrtDivide == the lean step"
        );
    }
    let mut out5 = vec![Vec2::ZERO; CHARACTERS];
    let mut const_raw = || {
        for i in 0..CHARACTERS {
            out5[i] = planar_velocity_tick(
                v[i],
                WishDir::from_world(input[i]),
                &SEED,
                grounded[i],
                black_box(DT),
            );
        }
        black_box(&out5);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut const_raw, &mut lean);
    rows.push(Row {
        what: "movement: params a `const` (compiled in, as the lean step has them), raw wish"
            .into(),
        baseline: "the same lean glam step, raw wish".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    let mut out7 = vec![Vec2::ZERO; CHARACTERS];
    let mut exact_raw = || {
        for i in 0..CHARACTERS {
            out7[i] = planar_velocity_tick(
                v[i],
                WishDir::from_world(input[i]),
                &SEED_EXACT,
                grounded[i],
                black_box(DT),
            );
        }
        black_box(&out7);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut exact_raw, &mut lean);
    rows.push(Row {
        what: "movement: the same `const` with `FrictionMath::SqrtDivide` (the lean step's \
               friction, same bits), raw wish"
            .into(),
        baseline: "the same lean glam step, raw wish".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    // Prepared kernel (constants folded once per tick length), raw wish: what a `TickConsts`
    // caller with raw input runs, against the main (raw-wish) lean step.
    let kernel = black_box(TickConsts::new(&p, DT));
    let mut out4 = vec![Vec2::ZERO; CHARACTERS];
    let mut prepared_raw = || {
        for i in 0..CHARACTERS {
            out4[i] = planar_velocity_tick_with(
                v[i],
                WishDir::from_world(input[i]),
                &kernel,
                grounded[i],
            );
        }
        black_box(&out4);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut prepared_raw, &mut lean);
    rows.push(Row {
        what: "movement: `TickConsts` (constants folded once per tick length), raw wish".into(),
        baseline: "the same lean glam step, raw wish".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    let mut out2 = vec![Vec2::ZERO; CHARACTERS];
    let mut cached = || {
        for i in 0..CHARACTERS {
            out2[i] = planar_velocity_tick(v[i], wish[i], &p, grounded[i], DT);
        }
        black_box(&out2);
    };
    let mut lean_cached = || {
        for i in 0..CHARACTERS {
            gout[i] = lean_next_wish(gv[i], gw[i], black_box(DT), grounded[i]);
        }
        black_box(&gout);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut cached, &mut lean_cached);
    rows.push(Row {
        what: "movement: the same with the wish direction cached (as `step_wish` callers do)"
            .into(),
        baseline: "the same lean glam step, its wish normalised once too".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    let mut out6 = vec![Vec2::ZERO; CHARACTERS];
    let mut const_cached = || {
        for i in 0..CHARACTERS {
            out6[i] = planar_velocity_tick(v[i], wish[i], &SEED, grounded[i], black_box(DT));
        }
        black_box(&out6);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut const_cached, &mut lean_cached);
    rows.push(Row {
        what: "movement: params a `const`, cached wish".into(),
        baseline: "the same lean glam step, cached wish".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    let mut out8 = vec![Vec2::ZERO; CHARACTERS];
    let mut exact_cached = || {
        for i in 0..CHARACTERS {
            out8[i] = planar_velocity_tick(v[i], wish[i], &SEED_EXACT, grounded[i], black_box(DT));
        }
        black_box(&out8);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut exact_cached, &mut lean_cached);
    rows.push(Row {
        what: "movement: the same `const` with `FrictionMath::SqrtDivide`, cached wish".into(),
        baseline: "the same lean glam step, cached wish".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    // Prepared kernel, cached wish.
    let mut out3 = vec![Vec2::ZERO; CHARACTERS];
    let mut prepared = || {
        for i in 0..CHARACTERS {
            out3[i] = planar_velocity_tick_with(v[i], wish[i], &kernel, grounded[i]);
        }
        black_box(&out3);
    };
    let (a, b, r) = interleaved(rounds, 200, CHARACTERS, &mut prepared, &mut lean_cached);
    rows.push(Row {
        what: "movement: `TickConsts` (constants folded once per tick length), cached wish".into(),
        baseline: "the same lean glam step, cached wish".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    // Structure of arrays: `planar_velocity_tick_batch` (branch-free lanes, vectorised). In place,
    // so every pass first copies the same start velocities in (timed: it is part of the work).
    let (sx, sz): (Vec<f32>, Vec<f32>) = v.iter().map(|v| (v.x, v.y)).unzip();
    let (dx, dz): (Vec<f32>, Vec<f32>) = wish.iter().map(|w| (w.dir.x, w.dir.y)).unzip();
    let sc: Vec<f32> = wish.iter().map(|w| w.scale).collect();
    let (mut bx, mut bz) = (sx.clone(), sz.clone());
    let w = WishBatch {
        dir_x: &dx,
        dir_z: &dz,
        scale: &sc,
    };
    planar_velocity_tick_batch(&mut bx, &mut bz, w, &grounded, &p, DT);
    for i in 0..CHARACTERS {
        assert_eq!(
            (bx[i], bz[i]),
            (out3[i].x, out3[i].y),
            "batch == scalar kernel"
        );
    }
    let mut batch = || {
        bx.copy_from_slice(&sx);
        bz.copy_from_slice(&sz);
        let w = WishBatch {
            dir_x: &dx,
            dir_z: &dz,
            scale: &sc,
        };
        planar_velocity_tick_batch(&mut bx, &mut bz, w, &grounded, &p, DT);
        black_box((&bx, &bz));
    };
    let (a, b, r) = interleaved(rounds, 400, CHARACTERS, &mut batch, &mut lean_cached);
    rows.push(Row {
        what: format!(
            "movement: `planar_velocity_tick_batch`, 1,024 characters as slices, one core \
             ({:.0} M agent-steps/s)",
            1e3 / a
        ),
        baseline: "the same lean glam step, cached wish, one character at a time".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    // Full character step: state reset from the same start before every pass (untimed copy is
    // part of both the measured loop and the empty loop below, so it is subtracted).
    let ground = FlatGround::new(0.0);
    let start: Vec<MoverState> = (0..CHARACTERS)
        .map(|i| {
            let mut s = MoverState::new(Vec3::new(i as f32, 0.0, 0.0));
            s.grounded = grounded[i];
            s.velocity = Vec3::new(v[i].x, 0.0, v[i].y);
            s
        })
        .collect();
    let mut states = start.clone();
    let full = alone(rounds, 100, CHARACTERS, || {
        states.copy_from_slice(&start);
        for (s, w) in states.iter_mut().zip(&wish) {
            step_wish(s, &p, *w, false, &ground, DT);
        }
        black_box(&states);
    });
    let copy = alone(rounds, 100, CHARACTERS, || {
        states.copy_from_slice(&start);
        black_box(&states);
    });
    rows.push(Row {
        what: "movement: full character step (ground probes, jump rules, gravity, guards, flush)"
            .into(),
        baseline: "—".into(),
        hopkit_ns: full - copy,
        baseline_ns: None,
        ratio: None,
    });
}

// ---- steering ------------------------------------------------------------------------------------

const AGENTS: usize = 1024;

/// Agents on a 32 × 32 grid, 0.8 apart, each with `n` neighbour indices (the nearest grid cells
/// first), the targets 12 units away.
struct Scene {
    start: Vec<Agent>,
    nbr: Vec<Vec<u16>>,
    targets: Vec<Vec3>,
}

fn scene(n: usize) -> Scene {
    let side = 32isize;
    let pos = |i: usize| Vec3::new((i % 32) as f32 * 0.8, 0.0, (i / 32) as f32 * 0.8);
    let mut rng = Pcg32::seeded(7);
    let start: Vec<Agent> = (0..AGENTS)
        .map(|i| {
            let mut a = Agent::new(pos(i));
            a.velocity = Vec3::new(rng.range_f32(-1.0, 1.0), 0.0, rng.range_f32(-1.0, 1.0));
            a
        })
        .collect();
    let nbr = (0..AGENTS)
        .map(|i| {
            let (x, z) = ((i % 32) as isize, (i / 32) as isize);
            let mut cells: Vec<(isize, u16)> = (0..AGENTS)
                .filter(|&j| j != i)
                .map(|j| {
                    let (jx, jz) = ((j % 32) as isize, (j / 32) as isize);
                    let dx = (jx - x).rem_euclid(side).min((x - jx).rem_euclid(side));
                    let dz = (jz - z).rem_euclid(side).min((z - jz).rem_euclid(side));
                    (dx * dx + dz * dz, j as u16)
                })
                .collect();
            cells.sort();
            cells.iter().take(n).map(|c| c.1).collect()
        })
        .collect();
    let targets = (0..AGENTS)
        .map(|i| pos(i) + Vec3::new(12.0, 0.0, -6.0))
        .collect();
    Scene {
        start,
        nbr,
        targets,
    }
}

mod hop_flock {
    use super::*;

    /// One step of the flock with hopkit, written as a step function like the baseline's
    /// `update`: flocking over the snapshot (neighbours read in place by index), arrival, a
    /// weighted blend and one integration step per agent.
    pub fn update(
        agents: &mut [Agent],
        snapshot: &[Agent],
        nbr: &[Vec<u16>],
        targets: &[Vec3],
        params: &SteeringParams,
        flock: &FlockParams,
        arrival: &ArrivalParams,
    ) {
        for (i, agent) in agents.iter_mut().enumerate() {
            let f = flock_indexed(agent, i as u32, snapshot, &nbr[i], flock, params, DT);
            let arr = arrive(agent, targets[i], params, arrival, DT);
            let s = blend(
                &[
                    (f.separation, 1.5),
                    (f.cohesion, 0.5),
                    (f.alignment, 0.5),
                    (arr, 1.0),
                ],
                params,
            );
            integrate(agent, params, s, DT);
        }
    }
}

use hopkit_benches::glam_steering;

fn steering(rows: &mut Vec<Row>, rounds: usize, n: usize) {
    let sc = scene(n);
    let params = black_box(SteeringParams {
        max_speed: glam_steering::MAX_SPEED,
        max_accel: glam_steering::MAX_ACCEL,
        ..SteeringParams::default()
    });
    let flock_params = black_box(FlockParams::default());
    let arrival = black_box(ArrivalParams {
        face_velocity: false,
        ..ArrivalParams::default()
    });
    let gstart: Vec<(glam::Vec3, glam::Vec3)> = sc
        .start
        .iter()
        .map(|a| {
            (
                glam::vec3(a.position.x, a.position.y, a.position.z),
                glam::vec3(a.velocity.x, a.velocity.y, a.velocity.z),
            )
        })
        .collect();
    let gtargets: Vec<glam::Vec3> = sc
        .targets
        .iter()
        .map(|t| glam::vec3(t.x, t.y, t.z))
        .collect();
    // Every pass from the same start; neighbour data read from the untouched start (a snapshot,
    // as a simulation step reads the previous tick).
    let hop_pass = |agents: &mut [Agent]| {
        agents.copy_from_slice(&sc.start);
        hop_flock::update(
            agents,
            &sc.start,
            &sc.nbr,
            &sc.targets,
            &params,
            &flock_params,
            &arrival,
        );
    };
    let glam_pass = |bodies: &mut [(glam::Vec3, glam::Vec3)], same_arrival: bool| {
        bodies.copy_from_slice(&gstart);
        let target = |i: usize| gtargets[i];
        if same_arrival {
            glam_steering::update::<true, _>(bodies, &gstart, &sc.nbr, target);
        } else {
            glam_steering::update::<false, _>(bodies, &gstart, &sc.nbr, target);
        }
    };
    // The same-maths baseline computes what hopkit computes: check that (to float rounding)
    // before timing anything.
    let mut agents = sc.start.clone();
    let mut bodies = gstart.clone();
    hop_pass(&mut agents);
    glam_pass(&mut bodies, true);
    for (a, b) in agents.iter().zip(&bodies) {
        let (p, v) = (a.position, a.velocity);
        let close = |x: f32, y: f32, tol: f32| (x - y).abs() <= tol;
        assert!(
            close(p.x, b.0.x, 1e-5) && close(p.z, b.0.z, 1e-5),
            "same-maths baseline position"
        );
        assert!(
            close(v.x, b.1.x, 1e-3) && close(v.z, b.1.z, 1e-3),
            "same-maths baseline velocity: {v:?} vs {:?}",
            b.1
        );
    }
    let mut hop = || {
        hop_pass(&mut agents);
        black_box(&agents);
    };
    let mut same = || {
        glam_pass(&mut bodies, true);
        black_box(&bodies);
    };
    let reps = (2048 / n).max(4);
    let (a, b, r) = interleaved(rounds, reps, AGENTS, &mut hop, &mut same);
    rows.push(Row {
        what: format!(
            "steering: 1,024 agents × {n} neighbours, flock + arrival blended and integrated, \
             per agent"
        ),
        baseline: "the same behaviours and arrival maths with glam + std, unguarded".into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
    let mut naive_bodies = gstart.clone();
    let mut naive = || {
        glam_pass(&mut naive_bodies, false);
        black_box(&naive_bodies);
    };
    let (a, b, r) = interleaved(rounds, reps, AGENTS, &mut hop, &mut naive);
    rows.push(Row {
        what: format!("steering: the same, {n} neighbours, against a cheaper arrival"),
        baseline: "glam + std with gdx-ai's arrival (linear ramp, no stopping schedule), unguarded"
            .into(),
        hopkit_ns: a,
        baseline_ns: Some(b),
        ratio: Some(r),
    });
}

fn main() {
    let quick = std::env::args().any(|a| a == "--quick");
    // `cargo bench` passes `--bench`; ignore everything else.
    let rounds = if quick { 7 } else { 31 };
    let mut rows = Vec::new();
    movement(&mut rows, rounds);
    for n in [8, 32, 128] {
        steering(&mut rows, rounds, n);
    }
    println!("| bench | hopkit | baseline | ratio (hopkit / baseline) |");
    println!("|---|---|---|---|");
    for r in rows {
        let b = match r.baseline_ns {
            Some(b) => format!("{b:.1} ns ({})", r.baseline),
            None => "—".into(),
        };
        let ratio = match r.ratio {
            Some(x) => format!("**{x:.2}×**"),
            None => "—".into(),
        };
        println!("| {} | {:.1} ns | {} | {} |", r.what, r.hopkit_ns, b, ratio);
    }
}
