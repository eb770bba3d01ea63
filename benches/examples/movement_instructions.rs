//! Instruction counts per character for the movement rows of the benchmark table, hopkit and the
//! glam baselines side by side (noise-free, unlike the timings). Each side's pass over the table's
//! 1,024 characters is its own `#[inline(never)]` function `pass_<side>`, so callgrind can count
//! exactly that function:
//!
//! ```text
//! cargo build --release -p hopkit-benches --example movement_instructions
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*pass_*' \
//!     target/release/examples/movement_instructions <side> [mixed|ground|air]
//! ```
//!
//! `<side>`: `hopkit` (raw wish), `hopkit_cached`, `const` / `const_cached` (the same with the
//! params a `const`, compiled in as the lean step's are), `exact` / `exact_cached` (that `const`
//! with `FrictionMath::SqrtDivide`), `kernel_raw` (`TickConsts`, raw wish), `kernel`
//! (`TickConsts`, cached wish), `batch`
//! (`planar_velocity_tick_batch`, cached wish, start copy included), `lean`, `lean_cached`,
//! `literal`. Callgrind's "Collected" count divided by `PASSES × characters` (printed) is the
//! instruction count per character. Without callgrind it just runs.

// Indexed loops, written as the table writes them (same code shape on both sides).
#![allow(clippy::needless_range_loop)]

use hopkit::math::Vec2;
use hopkit::movement::{
    planar_velocity_tick, planar_velocity_tick_batch, planar_velocity_tick_with, FrictionMath,
    MoveParams, TickConsts, WishBatch, WishDir,
};
use hopkit::rng::Pcg32;
use std::hint::black_box;

use hopkit_benches::glam_movement::{
    baseline_next, lean_next, lean_next_wish, lean_wish, LeanWish,
};

const DT: f32 = 1.0 / 60.0;
const PASSES: usize = 1000;

struct Data {
    v: Vec<Vec2>,
    input: Vec<Vec2>,
    wish: Vec<WishDir>,
    grounded: Vec<bool>,
    gv: Vec<glam::Vec2>,
    gi: Vec<glam::Vec2>,
    gw: Vec<LeanWish>,
}

/// The table's characters (same generator and seed), optionally only the grounded or only the
/// airborne half.
fn data(filter: &str) -> Data {
    let mut rng = Pcg32::seeded(1);
    let mut d = Data {
        v: Vec::new(),
        input: Vec::new(),
        wish: Vec::new(),
        grounded: Vec::new(),
        gv: Vec::new(),
        gi: Vec::new(),
        gw: Vec::new(),
    };
    for i in 0..1024 {
        let v = Vec2::new(rng.range_f32(-15.0, 15.0), rng.range_f32(-15.0, 15.0));
        let input = match rng.below(4) {
            0 => Vec2::new(1.0, 0.0),
            1 => Vec2::new(0.0, -1.0),
            2 => Vec2::new(1.0, 1.0),
            _ => Vec2::new(-1.0, 1.0),
        };
        let grounded = i % 2 == 0;
        let keep = match filter {
            "ground" => grounded,
            "air" => !grounded,
            _ => true,
        };
        if !keep {
            continue;
        }
        d.v.push(v);
        d.input.push(input);
        d.wish.push(WishDir::from_world(input));
        d.grounded.push(grounded);
        d.gv.push(glam::vec2(v.x, v.y));
        d.gi.push(glam::vec2(input.x, input.y));
        d.gw.push(lean_wish(glam::vec2(input.x, input.y)));
    }
    d
}

#[inline(never)]
fn pass_hopkit(d: &Data, p: &MoveParams, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] = planar_velocity_tick(
            d.v[i],
            WishDir::from_world(d.input[i]),
            p,
            d.grounded[i],
            DT,
        );
    }
}

#[inline(never)]
fn pass_hopkit_cached(d: &Data, p: &MoveParams, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] = planar_velocity_tick(d.v[i], d.wish[i], p, d.grounded[i], DT);
    }
}

/// The seed preset as a constant: the compiler folds the model's branches and loads, as it folds
/// the lean step's compiled-in constants.
const SEED: MoveParams = MoveParams::seed();
/// The same with `FrictionMath::SqrtDivide` (Quake's friction: the lean step's arithmetic).
const SEED_EXACT: MoveParams = MoveParams {
    friction_math: FrictionMath::SqrtDivide,
    ..MoveParams::seed()
};

#[inline(never)]
fn pass_exact(d: &Data, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] = planar_velocity_tick(
            d.v[i],
            WishDir::from_world(d.input[i]),
            &SEED_EXACT,
            d.grounded[i],
            DT,
        );
    }
}

#[inline(never)]
fn pass_exact_cached(d: &Data, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] = planar_velocity_tick(d.v[i], d.wish[i], &SEED_EXACT, d.grounded[i], DT);
    }
}

#[inline(never)]
fn pass_hopkit_const(d: &Data, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] = planar_velocity_tick(
            d.v[i],
            WishDir::from_world(d.input[i]),
            &SEED,
            d.grounded[i],
            DT,
        );
    }
}

#[inline(never)]
fn pass_hopkit_const_cached(d: &Data, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] = planar_velocity_tick(d.v[i], d.wish[i], &SEED, d.grounded[i], DT);
    }
}

#[inline(never)]
fn pass_kernel_raw(d: &Data, k: &TickConsts, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] =
            planar_velocity_tick_with(d.v[i], WishDir::from_world(d.input[i]), k, d.grounded[i]);
    }
}

#[inline(never)]
fn pass_kernel(d: &Data, k: &TickConsts, out: &mut [Vec2]) {
    for i in 0..out.len() {
        out[i] = planar_velocity_tick_with(d.v[i], d.wish[i], k, d.grounded[i]);
    }
}

/// Structure of arrays for the batch: start velocities and the cached wish.
struct Soa {
    sx: Vec<f32>,
    sz: Vec<f32>,
    wx: Vec<f32>,
    wz: Vec<f32>,
    ws: Vec<f32>,
}

#[inline(never)]
fn pass_batch(d: &Data, s: &Soa, bx: &mut [f32], bz: &mut [f32], p: &MoveParams) {
    bx.copy_from_slice(&s.sx);
    bz.copy_from_slice(&s.sz);
    let w = WishBatch {
        dir_x: &s.wx,
        dir_z: &s.wz,
        scale: &s.ws,
    };
    planar_velocity_tick_batch(bx, bz, w, &d.grounded, p, DT);
}

#[inline(never)]
fn pass_lean(d: &Data, out: &mut [glam::Vec2]) {
    for i in 0..out.len() {
        out[i] = lean_next(d.gv[i], d.gi[i], DT, d.grounded[i]);
    }
}

#[inline(never)]
fn pass_lean_cached(d: &Data, out: &mut [glam::Vec2]) {
    for i in 0..out.len() {
        out[i] = lean_next_wish(d.gv[i], d.gw[i], DT, d.grounded[i]);
    }
}

#[inline(never)]
fn pass_literal(d: &Data, out: &mut [glam::Vec2]) {
    for i in 0..out.len() {
        out[i] = baseline_next(d.gv[i], d.gi[i], DT, d.grounded[i]);
    }
}

fn main() {
    let args: Vec<String> = std::env::args().collect();
    let side = args.get(1).map(String::as_str).unwrap_or("hopkit");
    let filter = args.get(2).map(String::as_str).unwrap_or("mixed");
    let d = black_box(data(filter));
    let n = d.v.len();
    let p = black_box(MoveParams::seed());
    let kernel = black_box(TickConsts::new(&p, DT));
    let mut out = vec![Vec2::ZERO; n];
    let mut gout = vec![glam::Vec2::ZERO; n];
    let soa = black_box(Soa {
        sx: d.v.iter().map(|v| v.x).collect(),
        sz: d.v.iter().map(|v| v.y).collect(),
        wx: d.wish.iter().map(|w| w.dir.x).collect(),
        wz: d.wish.iter().map(|w| w.dir.y).collect(),
        ws: d.wish.iter().map(|w| w.scale).collect(),
    });
    let (mut bx, mut bz) = (vec![0.0; n], vec![0.0; n]);
    for _ in 0..PASSES {
        match side {
            "hopkit" => pass_hopkit(&d, &p, &mut out),
            "hopkit_cached" => pass_hopkit_cached(&d, &p, &mut out),
            "const" => pass_hopkit_const(&d, &mut out),
            "const_cached" => pass_hopkit_const_cached(&d, &mut out),
            "exact" => pass_exact(&d, &mut out),
            "exact_cached" => pass_exact_cached(&d, &mut out),
            "kernel" => pass_kernel(&d, &kernel, &mut out),
            "kernel_raw" => pass_kernel_raw(&d, &kernel, &mut out),
            "batch" => pass_batch(&d, &soa, &mut bx, &mut bz, &p),
            "lean" => pass_lean(&d, &mut gout),
            "lean_cached" => pass_lean_cached(&d, &mut gout),
            "literal" => pass_literal(&d, &mut gout),
            _ => panic!("unknown side {side}"),
        }
        black_box((&mut out, &mut gout, &mut bx, &mut bz));
    }
    println!("side {side}, {filter}: {PASSES} passes × {n} characters");
}
