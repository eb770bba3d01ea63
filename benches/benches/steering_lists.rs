//! Steering through the no_std paths: the scene of the `steering` bench with each agent's
//! neighbours copied into a fixed-capacity `heapless` list, then `flock` (one pass) or
//! `separation`, `cohesion` and `alignment` called separately — against `flock_indexed`, which reads
//! them in place. Checks (untimed) that all three give the same bits.
//!
//! Run briefly:
//! `cargo bench -p hopkit-benches --bench steering_lists -- --warm-up-time 1 --measurement-time 3`.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

use hopkit_benches::steering_scene::*;

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("steering_lists_1024_agents_8_neighbours");
    group.throughput(Throughput::Elements(AGENTS as u64));
    let start = HopkitWorld::new();
    group.bench_function("hopkit_flock_indexed", |b| {
        b.iter_batched_ref(
            || start.clone(),
            |w| w.update::<{ mode::INDEXED }>(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("hopkit_flock_heapless_list", |b| {
        b.iter_batched_ref(
            || start.clone(),
            |w| w.update::<{ mode::HEAPLESS }>(),
            BatchSize::LargeInput,
        )
    });
    group.bench_function("hopkit_separate_calls", |b| {
        b.iter_batched_ref(
            || start.clone(),
            |w| w.update::<{ mode::SEPARATE_CALLS }>(),
            BatchSize::LargeInput,
        )
    });
    group.finish();

    // Sanity (not timed): the three paths give the same bits.
    let mut worlds = [start.clone(), start.clone(), start.clone()];
    worlds[0].update::<{ mode::INDEXED }>();
    worlds[1].update::<{ mode::HEAPLESS }>();
    worlds[2].update::<{ mode::SEPARATE_CALLS }>();
    assert!(worlds[0].agents.iter().all(|a| a.is_finite()));
    assert!(worlds[0].agents == worlds[1].agents);
    assert!(worlds[0].agents == worlds[2].agents);
}

criterion_group!(benches, bench);
criterion_main!(benches);
