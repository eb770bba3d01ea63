//! The timing of the interleaved tables (`table.rs`, `rapier.rs`): hopkit and a baseline timed in
//! alternating rounds, so machine noise hits both alike; medians per item.

use std::time::Instant;

/// The median of `v` (sorted in place).
pub fn median(v: &mut [f64]) -> f64 {
    v.sort_by(|a, b| a.partial_cmp(b).unwrap());
    v[v.len() / 2]
}

/// Time `a` and `b` (each processing `items` items per call) interleaved over `rounds` rounds of
/// `reps` calls; median ns per item of each, and the median per-round ratio a/b.
pub fn interleaved(
    rounds: usize,
    reps: usize,
    items: usize,
    mut a: impl FnMut(),
    mut b: impl FnMut(),
) -> (f64, f64, f64) {
    for _ in 0..reps {
        a();
        b();
    }
    let (mut ta, mut tb, mut r) = (Vec::new(), Vec::new(), Vec::new());
    for _ in 0..rounds {
        let t = Instant::now();
        for _ in 0..reps {
            a();
        }
        let x = t.elapsed().as_nanos() as f64 / (reps * items) as f64;
        let t = Instant::now();
        for _ in 0..reps {
            b();
        }
        let y = t.elapsed().as_nanos() as f64 / (reps * items) as f64;
        ta.push(x);
        tb.push(y);
        r.push(x / y);
    }
    (median(&mut ta), median(&mut tb), median(&mut r))
}

pub fn alone(rounds: usize, reps: usize, items: usize, mut a: impl FnMut()) -> f64 {
    for _ in 0..reps {
        a();
    }
    let mut t = Vec::new();
    for _ in 0..rounds {
        let s = Instant::now();
        for _ in 0..reps {
            a();
        }
        t.push(s.elapsed().as_nanos() as f64 / (reps * items) as f64);
    }
    median(&mut t)
}
