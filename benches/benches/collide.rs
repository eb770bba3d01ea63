//! The box trace in the 256-solid level of walls, ramps and stairs (issue 34 §2, §5): one tick's
//! move of a standing body, its ground trace, and a position test, per query. Instruction counts:
//! `benches/examples/collide_instructions.rs`.
//!
//! Run briefly: `cargo bench -p hopkit-benches --bench collide -- --warm-up-time 1 --measurement-time 3`.

use std::hint::black_box;

use criterion::{criterion_group, criterion_main, Criterion};
use hopkit::collide::Tracer;
use hopkit::math::Vec3;

use hopkit_benches::collide_level::{level, moves, MAXS, MINS};

fn collide(c: &mut Criterion) {
    let w = level();
    let m = moves();
    let mut g = c.benchmark_group("collide (256 solids)");
    let mut i = 0usize;
    g.bench_function("trace: one tick's move", |b| {
        b.iter(|| {
            i = (i + 1) % m.len();
            let (s, e) = m[i];
            w.trace(black_box(s), black_box(e), MINS, MAXS)
        })
    });
    g.bench_function("trace: ground (1/4 down)", |b| {
        b.iter(|| {
            i = (i + 1) % m.len();
            let s = m[i].0;
            w.trace(
                black_box(s),
                black_box(s - Vec3::new(0.0, 0.25, 0.0)),
                MINS,
                MAXS,
            )
        })
    });
    g.bench_function("contents", |b| {
        b.iter(|| {
            i = (i + 1) % m.len();
            w.contents(black_box(m[i].0), MINS, MAXS)
        })
    });
    g.finish();
}

criterion_group!(benches, collide);
criterion_main!(benches);
