//! Movement step cost: hopkit's kernels against two glam + std baselines (`src/glam_movement.rs`):
//! `baseline_lean`, the same movement written in the style of Quake's `PM_Friction` /
//! `PM_Accelerate` / `PM_AirAccelerate` (one sqrt for the speed, one to normalise the wish;
//! `baseline_lean_cached_wish` with the wish normalised once, as hopkit's cached-wish rows), and
//! `baseline_glam`, the seed's algorithm ported literally (`length()`, `normalize_or_zero()`).
//!
//! Both sides receive the same raw inputs per character: planar velocity, an un-normalised world
//! wish vector, dt and the grounded flag, and return the next planar velocity.
//!
//! Run: `cargo bench -p hopkit-benches --bench movement -- --warm-up-time 1 --measurement-time 3`
//! The ratios are hopkit / baseline of the reported times.

use criterion::{criterion_group, criterion_main, Criterion, Throughput};
use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{
    planar_velocity_tick, step, step_wish, MoveInput, MoveParams, MoverState, WishDir,
};
use hopkit::rng::Pcg32;
use std::hint::black_box;

const BATCH: usize = 1024;
const DT: f32 = 1.0 / 60.0;

use hopkit_benches::glam_movement::{
    baseline_next, lean_next, lean_next_wish, lean_wish, LeanWish,
};

/// hopkit: convert the wish (1 sqrt) and run the kernels (1 sqrt on the ground, 0 in the air).
#[inline]
fn hopkit_next(p: &MoveParams, v: Vec2, input: Vec2, dt: f32, grounded: bool) -> Vec2 {
    planar_velocity_tick(v, WishDir::from_world(input), p, grounded, dt)
}

struct Data {
    v: Vec<Vec2>,
    input: Vec<Vec2>,
    wish: Vec<WishDir>,
    grounded: Vec<bool>,
    gv: Vec<glam::Vec2>,
    ginput: Vec<glam::Vec2>,
    gwish: Vec<LeanWish>,
}

fn data() -> Data {
    let mut rng = Pcg32::seeded(1);
    let mut d = Data {
        v: Vec::new(),
        input: Vec::new(),
        wish: Vec::new(),
        grounded: Vec::new(),
        gv: Vec::new(),
        ginput: Vec::new(),
        gwish: Vec::new(),
    };
    for i in 0..BATCH {
        let v = Vec2::new(rng.range_f32(-15.0, 15.0), rng.range_f32(-15.0, 15.0));
        // Keyboard-like directions (length 1 or √2), as the seed receives them.
        let input = match rng.below(4) {
            0 => Vec2::new(1.0, 0.0),
            1 => Vec2::new(0.0, -1.0),
            2 => Vec2::new(1.0, 1.0),
            _ => Vec2::new(-1.0, 1.0),
        };
        d.v.push(v);
        d.input.push(input);
        d.wish.push(WishDir::from_world(input));
        d.grounded.push(i % 2 == 0);
        d.gv.push(glam::Vec2::new(v.x, v.y));
        d.ginput.push(glam::Vec2::new(input.x, input.y));
        d.gwish.push(lean_wish(glam::Vec2::new(input.x, input.y)));
    }
    d
}

fn per_step(c: &mut Criterion) {
    // Parameters come from memory at run time, not as folded constants.
    let p = black_box(MoveParams::seed());
    let mut g = c.benchmark_group("movement/step");
    // One ground tick (the expensive case: friction + accelerate).
    let v = Vec2::new(7.0, -3.0);
    let input = Vec2::new(1.0, 1.0);
    // Built outside the timed closure so both sides black-box whole 8-byte vectors (building them
    // inside from two floats costs the baseline a store-forwarding stall that is not its fault).
    let (gv, gi) = (glam::Vec2::new(v.x, v.y), glam::Vec2::new(input.x, input.y));
    g.bench_function("baseline_glam", |b| {
        b.iter(|| baseline_next(black_box(gv), black_box(gi), black_box(DT), black_box(true)))
    });
    g.bench_function("baseline_lean", |b| {
        b.iter(|| lean_next(black_box(gv), black_box(gi), black_box(DT), black_box(true)))
    });
    let gw = lean_wish(gi);
    g.bench_function("baseline_lean_cached_wish", |b| {
        b.iter(|| lean_next_wish(black_box(gv), black_box(gw), black_box(DT), black_box(true)))
    });
    g.bench_function("hopkit", |b| {
        b.iter(|| {
            hopkit_next(
                &p,
                black_box(v),
                black_box(input),
                black_box(DT),
                black_box(true),
            )
        })
    });
    let wish = WishDir::from_world(input);
    g.bench_function("hopkit_cached_wish", |b| {
        b.iter(|| planar_velocity_tick(black_box(v), black_box(wish), &p, black_box(true), DT))
    });
    // The whole character step (ground probe, jump rules, gravity, guards) for reference.
    let ground = FlatGround::new(0.0);
    let mut s = MoverState::new(Vec3::ZERO);
    s.grounded = true;
    s.velocity = Vec3::new(v.x, 0.0, v.y);
    let mi = MoveInput::with_yaw(Vec2::new(1.0, 1.0), false, 0.3);
    g.bench_function("hopkit_full_step", |b| {
        b.iter(|| {
            let mut st = black_box(s);
            step(&mut st, &p, black_box(&mi), &ground, black_box(DT));
            st
        })
    });
    g.finish();
}

fn batch(c: &mut Criterion) {
    let p = black_box(MoveParams::seed());
    let d = data();
    let mut g = c.benchmark_group("movement/batch1024");
    g.throughput(Throughput::Elements(BATCH as u64));
    // Every pass computes from the same inputs into an output buffer: nothing drifts from pass to
    // pass (stepping in place let sideways components sink into subnormals and timed those).
    let mut gout = vec![glam::Vec2::ZERO; BATCH];
    g.bench_function("baseline_glam", |b| {
        b.iter(|| {
            for (((o, v), i), g) in gout.iter_mut().zip(&d.gv).zip(&d.ginput).zip(&d.grounded) {
                *o = baseline_next(*v, *i, black_box(DT), *g);
            }
            black_box(&gout);
        })
    });
    g.bench_function("baseline_lean", |b| {
        b.iter(|| {
            for (((o, v), i), g) in gout.iter_mut().zip(&d.gv).zip(&d.ginput).zip(&d.grounded) {
                *o = lean_next(*v, *i, black_box(DT), *g);
            }
            black_box(&gout);
        })
    });
    g.bench_function("baseline_lean_cached_wish", |b| {
        b.iter(|| {
            for (((o, v), w), g) in gout.iter_mut().zip(&d.gv).zip(&d.gwish).zip(&d.grounded) {
                *o = lean_next_wish(*v, *w, black_box(DT), *g);
            }
            black_box(&gout);
        })
    });
    let mut out = vec![Vec2::ZERO; BATCH];
    g.bench_function("hopkit", |b| {
        b.iter(|| {
            for (((o, v), i), g) in out.iter_mut().zip(&d.v).zip(&d.input).zip(&d.grounded) {
                *o = hopkit_next(&p, *v, *i, black_box(DT), *g);
            }
            black_box(&out);
        })
    });
    g.bench_function("hopkit_cached_wish", |b| {
        b.iter(|| {
            for (((o, v), w), g) in out.iter_mut().zip(&d.v).zip(&d.wish).zip(&d.grounded) {
                *o = planar_velocity_tick(*v, *w, &p, *g, black_box(DT));
            }
            black_box(&out);
        })
    });
    let ground = FlatGround::new(0.0);
    let states: Vec<MoverState> = (0..BATCH)
        .map(|i| {
            let mut s = MoverState::new(Vec3::new(i as f32, 0.0, 0.0));
            s.grounded = true;
            s.velocity = Vec3::new(d.v[i].x, 0.0, d.v[i].y);
            s
        })
        .collect();
    let start = states.clone();
    g.bench_function("hopkit_full_step", |b| {
        b.iter_batched_ref(
            || start.clone(),
            |states| {
                for (s, w) in states.iter_mut().zip(&d.wish) {
                    step_wish(s, &p, *w, false, &ground, black_box(DT));
                }
            },
            criterion::BatchSize::SmallInput,
        )
    });
    g.finish();
}

/// Sanity: both sides compute the same thing (checked once before measuring).
fn check_agreement() {
    let p = MoveParams::seed();
    let d = data();
    for i in 0..BATCH {
        let a = baseline_next(d.gv[i], d.ginput[i], DT, d.grounded[i]);
        let b = hopkit_next(&p, d.v[i], d.input[i], DT, d.grounded[i]);
        let c = lean_next(d.gv[i], d.ginput[i], DT, d.grounded[i]);
        let e = lean_next_wish(d.gv[i], d.gwish[i], DT, d.grounded[i]);
        for a in [a, c, e] {
            assert!(
                (a.x - b.x).abs() < 1e-4 && (a.y - b.y).abs() < 1e-4,
                "{a:?} vs {b:?}"
            );
        }
    }
}

fn benches(c: &mut Criterion) {
    check_agreement();
    per_step(c);
    batch(c);
}

criterion_group!(movement, benches);
criterion_main!(movement);
