use hopkit::math::Vec3;
use hopkit::steering::*;
use std::hint::black_box;
use std::time::Instant;
const SIDE: usize = 32;
const AGENTS: usize = SIDE * SIDE;
const DT: f32 = 1.0 / 60.0;
#[test]
fn scratch() {
    let mut agents: Vec<Agent> = (0..AGENTS)
        .map(|i| {
            Agent::at(Vec3::new(
                (i % SIDE) as f32 * 0.8,
                0.0,
                (i / SIDE) as f32 * 0.8,
            ))
        })
        .collect();
    let p = SteeringParams::default();
    let ap = ArrivalParams {
        face_velocity: false,
        ..ArrivalParams::default()
    };
    let fp = FlockParams::default();
    let nbr: Vec<[u16; 8]> = (0..AGENTS)
        .map(|i| {
            let (cx, cz) = ((i % SIDE) as isize, (i / SIDE) as isize);
            let mut o = [0u16; 8];
            let mut k = 0;
            for dz in -1..=1isize {
                for dx in -1..=1isize {
                    if dx == 0 && dz == 0 {
                        continue;
                    }
                    o[k] = (((cz + dz).rem_euclid(32)) * 32 + (cx + dx).rem_euclid(32)) as u16;
                    k += 1;
                }
            }
            o
        })
        .collect();
    let mut snap = agents.clone();
    for mode in [7, 0, 7, 0, 1, 2, 3, 4] {
        let t0 = Instant::now();
        for tick in 0..600u32 {
            snap.copy_from_slice(&agents);
            for i in 0..AGENTS {
                let (x, z) = ((i % SIDE) as f32 * 0.8, (i / SIDE) as f32 * 0.8);
                let (tx, tz) = if (tick / 240) % 2 == 0 {
                    (x + 12.0, z - 6.0)
                } else {
                    (x, z)
                };
                if mode == 7 {
                    let mut arr = [Neighbour::default(); 8];
                    for (k, &j) in nbr[i].iter().enumerate() {
                        arr[k] = Neighbour::of(&snap[j as usize], j as u32);
                    }
                    black_box(&arr);
                    continue;
                }
                let mut list: Neighbours<8> = Neighbours::new();
                for &j in &nbr[i] {
                    let _ = list.push(Neighbour::of(&snap[j as usize], j as u32));
                }
                let a = &mut agents[i];
                if mode == 0 {
                    black_box(&list);
                    continue;
                }
                let f = flock(a, i as u32, &list, &fp, &p, DT);
                if mode == 1 {
                    black_box(f);
                    continue;
                }
                let ar = arrive(a, Vec3::new(tx, 0.0, tz), &p, &ap, DT);
                if mode == 2 {
                    black_box(ar);
                    continue;
                }
                let s = blend(
                    &[
                        (f.separation, 1.5),
                        (f.cohesion, 0.5),
                        (f.alignment, 0.5),
                        (ar, 1.0),
                    ],
                    &p,
                );
                if mode == 3 {
                    black_box(s);
                    continue;
                }
                integrate(a, &p, s, DT);
                if mode == 5 {
                    let s2 = truncated_budget(&[f.separation, ar], 8.0);
                    black_box(s2);
                }
            }
        }
        eprintln!(
            "mode {mode}: {:.1} ns/agent",
            t0.elapsed().as_nanos() as f64 / (600.0 * 1024.0)
        );
    }
}
