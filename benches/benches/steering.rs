//! Steering throughput: 1,024 agents, 8 neighbours each, separation + cohesion + alignment +
//! arrival blended, then integrated — hopkit against what a desktop programmer writes with
//! `std` + `glam` (`src/glam_steering.rs`, also the table's baseline: the same arrival maths,
//! and gdx-ai's cheaper arrival). hopkit reads the neighbours in place (`flock_indexed` on a
//! snapshot, as the baseline indexes its snapshot). The no_std paths (a fixed-capacity `heapless`
//! list per agent) are timed in `steering_lists`: a second loop in this binary calling the same
//! functions would leave the inliner several call sites, and so change what is measured here.
//!
//! Run briefly: `cargo bench -p hopkit-benches --bench steering -- --warm-up-time 1 --measurement-time 3`.
//! Criterion reports elements/s with one element = one agent update.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};

use hopkit_benches::steering_scene::*;

// ---- baseline: std + glam -------------------------------------------------------------------

use hopkit_benches::glam_steering;

mod baseline {
    use super::*;
    use glam::Vec3 as G;

    /// The glam world: `(position, velocity)` per body, updated by the shared baseline.
    #[derive(Clone)]
    pub struct World {
        pub bodies: Vec<(G, G)>,
        snapshot: Vec<(G, G)>,
        nbr: Vec<[u16; NEIGHBOURS]>,
        tick: u32,
        naive: bool,
    }

    impl World {
        pub fn new(naive: bool) -> Self {
            let bodies = (0..AGENTS)
                .map(|i| {
                    let (x, z) = start_position(i);
                    (G::new(x, 0.0, z), G::ZERO)
                })
                .collect::<Vec<_>>();
            World {
                snapshot: bodies.clone(),
                bodies,
                nbr: neighbour_indices(),
                tick: 0,
                naive,
            }
        }

        pub fn update(&mut self) {
            self.snapshot.copy_from_slice(&self.bodies);
            let tick = self.tick;
            let target = |i: usize| {
                let (tx, tz) = target_for(i, tick);
                G::new(tx, 0.0, tz)
            };
            if self.naive {
                glam_steering::update::<false, _>(
                    &mut self.bodies,
                    &self.snapshot,
                    &self.nbr,
                    target,
                );
            } else {
                glam_steering::update::<true, _>(
                    &mut self.bodies,
                    &self.snapshot,
                    &self.nbr,
                    target,
                );
            }
            self.tick = self.tick.wrapping_add(1);
        }
    }
}

fn bench(c: &mut Criterion) {
    let mut group = c.benchmark_group("steering_1024_agents_8_neighbours");
    group.throughput(Throughput::Elements(AGENTS as u64));

    // Every timed update starts from the same world (cloned untimed): nothing settles or drifts
    // from one sample to the next.
    let hop = HopkitWorld::new();
    group.bench_function("hopkit_flock_indexed", |b| {
        b.iter_batched_ref(
            || hop.clone(),
            |w| w.update::<{ mode::INDEXED }>(),
            BatchSize::LargeInput,
        )
    });
    let same = baseline::World::new(false);
    group.bench_function("glam_same_maths", |b| {
        b.iter_batched_ref(|| same.clone(), |w| w.update(), BatchSize::LargeInput)
    });
    let naive = baseline::World::new(true);
    group.bench_function("glam_naive_arrival", |b| {
        b.iter_batched_ref(|| naive.clone(), |w| w.update(), BatchSize::LargeInput)
    });
    group.finish();

    // Sanity (not timed): one update keeps everything finite.
    let (mut h, mut g) = (hop.clone(), same.clone());
    h.update::<{ mode::INDEXED }>();
    g.update();
    assert!(h.agents.iter().all(|a| a.is_finite()));
    assert!(g.bodies.iter().all(|b| b.0.is_finite()));
}

criterion_group!(benches, bench);
criterion_main!(benches);
