//! The neighbour paths of the flocking functions agree bit for bit: a fixed-capacity `heapless`
//! list (the no_std path) and a plain slice ([`flock`], [`separation`], [`cohesion`],
//! [`alignment`]), any iterator ([`flock_iter`]) and agents read in place through `u16`/`u32`/
//! `usize` indices ([`flock_indexed`]) give the same bits, including for non-finite neighbours,
//! coincident agents, the agent itself in its list, out-of-range indices and a separation radius
//! larger than the neighbour radius.

use hopkit::math::Vec3;
use hopkit::steering::*;
use proptest::prelude::*;

fn coord() -> impl Strategy<Value = f32> {
    prop_oneof![
        8 => -4.0f32..4.0,
        1 => Just(0.0f32),
        1 => prop::sample::select(vec![
            f32::NAN,
            f32::INFINITY,
            -f32::INFINITY,
            f32::MAX,
            -3.0e38,
            1.0e20,
            1.0e-40,
            -0.0,
        ]),
    ]
}

fn vec3() -> impl Strategy<Value = Vec3> {
    prop_oneof![
        6 => (-4.0f32..4.0, -4.0f32..4.0).prop_map(|(x, z)| Vec3::new(x, 0.0, z)),
        3 => (coord(), coord(), coord()).prop_map(|(x, y, z)| Vec3::new(x, y, z)),
        1 => Just(Vec3::ZERO),
    ]
}

fn radius() -> impl Strategy<Value = f32> {
    prop_oneof![
        6 => 0.0f32..5.0,
        1 => prop::sample::select(vec![0.0, -1.0, f32::NAN, f32::INFINITY, 1.0e20, f32::MAX]),
    ]
}

/// Every float of a [`Flocking`] as bits (`==` on floats would hide a `-0.0`/`0.0` difference).
fn bits(f: &Flocking) -> [u32; 12] {
    let mut out = [0u32; 12];
    for (k, s) in [f.separation, f.cohesion, f.alignment].iter().enumerate() {
        out[k * 4] = s.linear.x.to_bits();
        out[k * 4 + 1] = s.linear.y.to_bits();
        out[k * 4 + 2] = s.linear.z.to_bits();
        out[k * 4 + 3] = s.angular.to_bits();
    }
    out
}

fn steering_bits(s: Steering) -> [u32; 4] {
    [
        s.linear.x.to_bits(),
        s.linear.y.to_bits(),
        s.linear.z.to_bits(),
        s.angular.to_bits(),
    ]
}

proptest! {
    #![proptest_config(ProptestConfig::with_cases(2048))]

    #[test]
    fn every_neighbour_path_gives_the_same_bits(
        bodies in prop::collection::vec((vec3(), vec3()), 1..24),
        picks in prop::collection::vec(0usize..30, 0..24),
        me in 0usize..24,
        stacked in any::<bool>(),
        sep in radius(),
        near in radius(),
        dt in prop_oneof![4 => 0.001f32..0.3, 1 => Just(f32::NAN), 1 => Just(-1.0f32)],
        max_accel in prop_oneof![4 => 0.0f32..30.0, 1 => Just(f32::NAN)],
    ) {
        let mut agents: Vec<Agent> = bodies
            .iter()
            .map(|&(position, velocity)| Agent { position, velocity, yaw: 0.0 })
            .collect();
        let me = me % agents.len();
        if stacked && agents.len() > 1 {
            // A neighbour exactly on top of the agent (the coincident split).
            let other = (me + 1) % agents.len();
            agents[other].position = agents[me].position;
        }
        // Indices may repeat, include the agent itself and point past the end (skipped).
        let idx: Vec<usize> = picks.clone();
        let idx16: Vec<u16> = idx.iter().map(|&i| i as u16).collect();
        let idx32: Vec<u32> = idx.iter().map(|&i| i as u32).collect();
        let list: Vec<Neighbour> = idx
            .iter()
            .filter(|&&i| i < agents.len())
            .map(|&i| Neighbour::of(&agents[i], i as u32))
            .collect();
        let mut fixed: Neighbours<24> = Neighbours::new();
        for n in &list {
            fixed.push(*n).unwrap();
        }
        let agent = agents[me];
        let id = me as u32;
        let fp = FlockParams { separation_radius: sep, neighbour_radius: near };
        let p = SteeringParams { max_accel, ..SteeringParams::default() };

        let reference = flock(&agent, id, &fixed, &fp, &p, dt);
        let want = bits(&reference);
        prop_assert_eq!(bits(&flock(&agent, id, &list, &fp, &p, dt)), want);
        prop_assert_eq!(bits(&flock_iter(&agent, id, list.iter().copied(), &fp, &p, dt)), want);
        prop_assert_eq!(bits(&flock_indexed(&agent, id, &agents, &idx16, &fp, &p, dt)), want);
        prop_assert_eq!(bits(&flock_indexed(&agent, id, &agents, &idx32, &fp, &p, dt)), want);
        prop_assert_eq!(bits(&flock_indexed(&agent, id, &agents, &idx, &fp, &p, dt)), want);
        prop_assert_eq!(steering_bits(separation(&agent, id, &fixed, &fp, &p)), steering_bits(reference.separation));
        prop_assert_eq!(steering_bits(cohesion(&agent, id, &fixed, &fp, &p)), steering_bits(reference.cohesion));
        prop_assert_eq!(steering_bits(alignment(&agent, id, &fixed, &fp, &p, dt)), steering_bits(reference.alignment));
        for s in [reference.separation, reference.cohesion, reference.alignment] {
            prop_assert!(s.is_finite(), "{:?}", reference);
        }
    }
}

/// A neighbour with a non-finite velocity is skipped on every path (the fast walk notices it in
/// the velocity sum and walks the list again with the per-neighbour test).
#[test]
fn non_finite_neighbour_velocity_is_skipped_on_every_path() {
    let mut agents = [
        Agent::new(Vec3::ZERO),
        Agent::new(Vec3::new(0.5, 0.0, 0.0)),
        Agent::new(Vec3::new(0.0, 0.0, 2.0)),
    ];
    agents[2].velocity = Vec3::new(1.0, 0.0, 0.0);
    let fp = FlockParams::default();
    let p = SteeringParams::default();
    let dt = 1.0 / 60.0;
    let clean = flock_indexed(&agents[0], 0, &agents, &[1u16, 2], &fp, &p, dt);
    for bad in [f32::NAN, f32::INFINITY, -f32::INFINITY] {
        let mut with_bad = agents.to_vec();
        with_bad.push(Agent {
            position: Vec3::new(0.0, 0.0, -0.5),
            velocity: Vec3::new(bad, 0.0, 0.0),
            yaw: 0.0,
        });
        let f = flock_indexed(&agents[0], 0, &with_bad, &[1u16, 3, 2], &fp, &p, dt);
        assert_eq!(bits(&f), bits(&clean), "{bad}");
        let list: Vec<Neighbour> = [1usize, 3, 2]
            .iter()
            .map(|&i| Neighbour::of(&with_bad[i], i as u32))
            .collect();
        assert_eq!(
            bits(&flock(&agents[0], 0, &list, &fp, &p, dt)),
            bits(&clean)
        );
    }
    // Past the end: skipped, never a panic.
    let f = flock_indexed(&agents[0], 0, &agents, &[1u32, 2, 3, u32::MAX], &fp, &p, dt);
    assert_eq!(bits(&f), bits(&clean));
}
