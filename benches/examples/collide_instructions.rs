//! Instructions and time per box trace in the 256-solid level (`src/collide_level.rs`),
//! criterion-free. `pass_move` traces every body's one-tick move (320 units/s at 60 Hz),
//! `pass_ground` every body's ground trace (1/4 unit down), `pass_contents` a position test,
//! `PASSES` times each; each pass is its own `#[inline(never)]` function for callgrind:
//!
//! ```text
//! cargo build --release -p hopkit-benches --example collide_instructions
//! valgrind --tool=callgrind --callgrind-out-file=/dev/null --toggle-collect='*pass_move*' \
//!     target/release/examples/collide_instructions move
//! ```
//!
//! Callgrind's "Collected" divided by `PASSES × 256` is the instruction count per trace. Without
//! callgrind it prints nanoseconds per query (wall clock, one run: a rough number).

use hopkit::collide::{Tracer, World};
use hopkit::math::Vec3;
use std::hint::black_box;
use std::time::Instant;

use hopkit_benches::collide_level::{level, moves, MAXS, MINS};

const PASSES: usize = 200;

#[inline(never)]
fn pass_move(w: &World<256>, m: &[(Vec3, Vec3)]) -> f32 {
    let mut sum = 0.0;
    for &(s, e) in m {
        sum += w.trace(black_box(s), black_box(e), MINS, MAXS).fraction;
    }
    sum
}

#[inline(never)]
fn pass_ground(w: &World<256>, m: &[(Vec3, Vec3)]) -> f32 {
    let mut sum = 0.0;
    for &(s, _) in m {
        let down = s - Vec3::new(0.0, 0.25, 0.0);
        sum += w.trace(black_box(s), black_box(down), MINS, MAXS).fraction;
    }
    sum
}

#[inline(never)]
fn pass_contents(w: &World<256>, m: &[(Vec3, Vec3)]) -> usize {
    let mut n = 0;
    for &(s, _) in m {
        n += w.contents(black_box(s), MINS, MAXS).solid.is_some() as usize;
    }
    n
}

fn main() {
    let which = std::env::args().nth(1).unwrap_or_else(|| "all".into());
    let w = level();
    let m = moves();
    let hits = m
        .iter()
        .filter(|&&(s, e)| w.trace(s, e, MINS, MAXS).fraction < 1.0)
        .count();
    println!(
        "{} solids, World<256> = {} bytes; {} of {} moves hit something; {PASSES} passes",
        w.len(),
        std::mem::size_of::<World<256>>(),
        hits,
        m.len()
    );
    let per = (PASSES * m.len()) as f64;
    if which == "all" || which == "move" {
        let t = Instant::now();
        for _ in 0..PASSES {
            black_box(pass_move(&w, &m));
        }
        println!("move trace: {:.1} ns", t.elapsed().as_nanos() as f64 / per);
    }
    if which == "all" || which == "ground" {
        let t = Instant::now();
        for _ in 0..PASSES {
            black_box(pass_ground(&w, &m));
        }
        println!(
            "ground trace: {:.1} ns",
            t.elapsed().as_nanos() as f64 / per
        );
    }
    if which == "all" || which == "contents" {
        let t = Instant::now();
        for _ in 0..PASSES {
            black_box(pass_contents(&w, &m));
        }
        println!("contents: {:.1} ns", t.elapsed().as_nanos() as f64 / per);
    }
}
