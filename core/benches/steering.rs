//! Steering throughput: 1,024 agents, 8 neighbours each, separation + cohesion + alignment +
//! arrival blended, then integrated — hopkit against what a desktop programmer writes with
//! `std` + `glam` (`shared/glam_steering.rs`, also the table's baseline: the same arrival maths,
//! and gdx-ai's cheaper arrival). hopkit reads the neighbours in place
//! (`flock_indexed` on a snapshot, as the baseline indexes its snapshot), and for comparison
//! through a fixed-capacity `heapless` list per agent (the no_std path).
//!
//! Run briefly: `cargo bench -p hopkit --bench steering -- --warm-up-time 1 --measurement-time 3`.
//! Criterion reports elements/s with one element = one agent update.

use criterion::{criterion_group, criterion_main, BatchSize, Criterion, Throughput};
use hopkit::math::Vec3;
use hopkit::steering::{
    alignment, arrive, blend, cohesion, flock, flock_indexed, integrate, separation, Agent,
    ArrivalParams, FlockParams, Neighbour, Neighbours, SteeringParams,
};

const SIDE: usize = 32;
const AGENTS: usize = SIDE * SIDE;
const NEIGHBOURS: usize = 8;
const SPACING: f32 = 0.8;
const DT: f32 = 1.0 / 60.0;
/// Targets swap every this many updates so the flock keeps moving.
const SWAP_EVERY: u32 = 240;

const W_SEPARATION: f32 = 1.5;
const W_COHESION: f32 = 0.5;
const W_ALIGNMENT: f32 = 0.5;
const W_ARRIVE: f32 = 1.0;

/// The 8 grid neighbours (wrapping) of every agent.
fn neighbour_indices() -> Vec<[u16; NEIGHBOURS]> {
    (0..AGENTS)
        .map(|i| {
            let (x, z) = ((i % SIDE) as isize, (i / SIDE) as isize);
            let mut out = [0u16; NEIGHBOURS];
            let mut k = 0;
            for dz in -1..=1isize {
                for dx in -1..=1isize {
                    if dx == 0 && dz == 0 {
                        continue;
                    }
                    let nx = (x + dx).rem_euclid(SIDE as isize) as usize;
                    let nz = (z + dz).rem_euclid(SIDE as isize) as usize;
                    out[k] = (nz * SIDE + nx) as u16;
                    k += 1;
                }
            }
            out
        })
        .collect()
}

fn start_position(i: usize) -> (f32, f32) {
    ((i % SIDE) as f32 * SPACING, (i / SIDE) as f32 * SPACING)
}

fn target_for(i: usize, tick: u32) -> (f32, f32) {
    let (x, z) = start_position(i);
    if (tick / SWAP_EVERY) % 2 == 0 {
        (x + 12.0, z - 6.0)
    } else {
        (x, z)
    }
}

// ---- hopkit --------------------------------------------------------------------------------

/// How the hopkit world hands the neighbours to the flocking functions.
#[derive(Clone, Copy, PartialEq)]
enum Neighbouring {
    /// `flock_indexed` on last tick's snapshot and the index lists: nothing copied per neighbour.
    Indexed,
    /// The no_std path: a fixed-capacity `heapless` list filled per agent, then `flock`.
    Heapless,
    /// The same list, then `separation`, `cohesion` and `alignment` called separately.
    SeparateCalls,
}

#[derive(Clone)]
struct HopkitWorld {
    agents: Vec<Agent>,
    /// Last tick's agents (copied once per update, as the glam baseline does): every agent reads
    /// the same state whatever the update order.
    snapshot: Vec<Agent>,
    nbr: Vec<[u16; NEIGHBOURS]>,
    params: SteeringParams,
    arrival: ArrivalParams,
    flock: FlockParams,
    tick: u32,
    mode: Neighbouring,
}

impl HopkitWorld {
    fn new(mode: Neighbouring) -> Self {
        let agents = (0..AGENTS)
            .map(|i| {
                let (x, z) = start_position(i);
                Agent::at(Vec3::new(x, 0.0, z))
            })
            .collect::<Vec<_>>();
        HopkitWorld {
            snapshot: agents.clone(),
            agents,
            nbr: neighbour_indices(),
            params: SteeringParams::default(),
            arrival: ArrivalParams {
                face_velocity: false,
                ..ArrivalParams::default()
            },
            flock: FlockParams::default(),
            tick: 0,
            mode,
        }
    }

    fn update(&mut self) {
        let mode = self.mode;
        self.snapshot.copy_from_slice(&self.agents);
        for (i, agent) in self.agents.iter_mut().enumerate() {
            let nbr = &self.nbr[i];
            let (tx, tz) = target_for(i, self.tick);
            let id = i as u32;
            let (sep, coh, ali) = if mode == Neighbouring::Indexed {
                let f = flock_indexed(
                    agent,
                    id,
                    &self.snapshot,
                    nbr,
                    &self.flock,
                    &self.params,
                    DT,
                );
                (f.separation, f.cohesion, f.alignment)
            } else {
                let mut list: Neighbours<NEIGHBOURS> = Neighbours::new();
                for &j in nbr {
                    let _ = list.push(Neighbour::of(&self.snapshot[j as usize], j as u32));
                }
                if mode == Neighbouring::Heapless {
                    let f = flock(agent, id, &list, &self.flock, &self.params, DT);
                    (f.separation, f.cohesion, f.alignment)
                } else {
                    (
                        separation(agent, id, &list, &self.flock, &self.params),
                        cohesion(agent, id, &list, &self.flock, &self.params),
                        alignment(agent, id, &list, &self.flock, &self.params, DT),
                    )
                }
            };
            let steering = blend(
                &[
                    (sep, W_SEPARATION),
                    (coh, W_COHESION),
                    (ali, W_ALIGNMENT),
                    (
                        arrive(
                            agent,
                            Vec3::new(tx, 0.0, tz),
                            &self.params,
                            &self.arrival,
                            DT,
                        ),
                        W_ARRIVE,
                    ),
                ],
                &self.params,
            );
            integrate(agent, &self.params, steering, DT);
        }
        self.tick = self.tick.wrapping_add(1);
    }
}

// ---- baseline: std + glam -------------------------------------------------------------------

#[path = "shared/glam_steering.rs"]
mod glam_steering;

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
    let hop = HopkitWorld::new(Neighbouring::Indexed);
    group.bench_function("hopkit_flock_indexed", |b| {
        b.iter_batched_ref(|| hop.clone(), |w| w.update(), BatchSize::LargeInput)
    });
    let hop_list = HopkitWorld::new(Neighbouring::Heapless);
    group.bench_function("hopkit_flock_heapless_list", |b| {
        b.iter_batched_ref(|| hop_list.clone(), |w| w.update(), BatchSize::LargeInput)
    });
    let hop3 = HopkitWorld::new(Neighbouring::SeparateCalls);
    group.bench_function("hopkit_separate_calls", |b| {
        b.iter_batched_ref(|| hop3.clone(), |w| w.update(), BatchSize::LargeInput)
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

    // Sanity (not timed): one update keeps everything finite, and the indexed and list paths
    // give the same bits.
    let (mut h, mut g, mut l) = (hop.clone(), same.clone(), hop_list.clone());
    h.update();
    g.update();
    l.update();
    assert!(h.agents.iter().all(|a| a.is_finite()));
    assert!(h.agents == l.agents);
    assert!(g.bodies.iter().all(|b| b.0.is_finite()));
}

criterion_group!(benches, bench);
criterion_main!(benches);
