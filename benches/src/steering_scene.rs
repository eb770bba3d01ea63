//! The steering benches' scene (`steering`, `steering_lists`): 1,024 agents on a 32 × 32 grid,
//! 0.8 apart, each with its 8 grid neighbours (wrapping), starting at rest and steering to a
//! target 12 units away (swapped back every 240 updates), and the hopkit world that updates it:
//! flocking, arrival, a weighted blend and integration per agent.

use hopkit::math::Vec3;
use hopkit::steering::{
    alignment, arrive, blend, cohesion, flock, flock_indexed, integrate, separation, Agent,
    ArrivalParams, FlockParams, Neighbour, Neighbours, SteeringParams,
};

pub const SIDE: usize = 32;
pub const AGENTS: usize = SIDE * SIDE;
pub const NEIGHBOURS: usize = 8;
pub const SPACING: f32 = 0.8;
pub const DT: f32 = 1.0 / 60.0;
/// Targets swap every this many updates so the flock keeps moving.
pub const SWAP_EVERY: u32 = 240;

pub const W_SEPARATION: f32 = 1.5;
pub const W_COHESION: f32 = 0.5;
pub const W_ALIGNMENT: f32 = 0.5;
pub const W_ARRIVE: f32 = 1.0;

/// The 8 grid neighbours (wrapping) of every agent.
pub fn neighbour_indices() -> Vec<[u16; NEIGHBOURS]> {
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

#[inline]
pub fn start_position(i: usize) -> (f32, f32) {
    ((i % SIDE) as f32 * SPACING, (i / SIDE) as f32 * SPACING)
}

#[inline]
pub fn target_for(i: usize, tick: u32) -> (f32, f32) {
    let (x, z) = start_position(i);
    if (tick / SWAP_EVERY) % 2 == 0 {
        (x + 12.0, z - 6.0)
    } else {
        (x, z)
    }
}

// ---- hopkit --------------------------------------------------------------------------------

/// How the hopkit world hands the neighbours to the flocking functions (a const parameter of
/// [`HopkitWorld::update`], so each mode is its own function).
pub mod mode {
    /// `flock_indexed` on last tick's snapshot and the index lists: nothing copied per neighbour.
    pub const INDEXED: u8 = 0;
    /// The no_std path: a fixed-capacity `heapless` list filled per agent, then `flock`.
    pub const HEAPLESS: u8 = 1;
    /// The same list, then `separation`, `cohesion` and `alignment` called separately.
    // Timed by `steering_lists` only.
    pub const SEPARATE_CALLS: u8 = 2;
}

#[derive(Clone)]
pub struct HopkitWorld {
    pub agents: Vec<Agent>,
    /// Last tick's agents (copied once per update, as the glam baseline does): every agent reads
    /// the same state whatever the update order.
    snapshot: Vec<Agent>,
    nbr: Vec<[u16; NEIGHBOURS]>,
    params: SteeringParams,
    arrival: ArrivalParams,
    flock: FlockParams,
    tick: u32,
}

impl Default for HopkitWorld {
    fn default() -> Self {
        Self::new()
    }
}

impl HopkitWorld {
    pub fn new() -> Self {
        let agents = (0..AGENTS)
            .map(|i| {
                let (x, z) = start_position(i);
                Agent::new(Vec3::new(x, 0.0, z))
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
        }
    }

    /// One update, the neighbours handed over as `MODE` says. Not inlined: whatever calls it, the
    /// loop (and its calls into hopkit) exists once per mode.
    #[inline(never)]
    pub fn update<const MODE: u8>(&mut self) {
        self.snapshot.copy_from_slice(&self.agents);
        for (i, agent) in self.agents.iter_mut().enumerate() {
            let nbr = &self.nbr[i];
            let (tx, tz) = target_for(i, self.tick);
            let id = i as u32;
            let (sep, coh, ali) = if MODE == mode::INDEXED {
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
                if MODE == mode::HEAPLESS {
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
