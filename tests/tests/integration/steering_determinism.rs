//! Replay determinism of the steering module: a mixed scene (arrival critters, a flock with
//! separation/cohesion/alignment, wander inside a box, obstacle avoidance and path following) run
//! twice gives bit-identical state, and its state hash matches the golden value recorded with the
//! `libm` backend (the value every platform must reproduce).

use hopkit::hash::{StateHash, StateHasher};
use hopkit::math::Vec3;
use hopkit::steering::*;

const DT: f32 = 1.0 / 60.0;
const TICKS: u32 = 900;

/// Golden hash of [`run_scene`] (libm backend). Changing steering maths changes it on purpose;
/// update it only together with such a change.
const GOLDEN: u64 = 0x8809_219d_de22_e100;

fn run_scene() -> u64 {
    let params = SteeringParams::default();
    let arrival = ArrivalParams::default();
    let flock_params = FlockParams::default();

    let mut critters = [
        ArrivalState::new(Vec3::new(-4.0, 0.0, 3.0)),
        ArrivalState::new(Vec3::new(2.0, 0.0, -5.0)),
    ];
    let mut boids: [Agent; 6] =
        core::array::from_fn(|i| Agent::new(Vec3::new(i as f32 * 0.3, 0.0, 0.0)));
    let mut rover = Agent::new(Vec3::ZERO);
    let mut wander_state = WanderState::new(2024);
    let bounds = Aabb::new(Vec3::new(-8.0, -1.0, -8.0), Vec3::new(8.0, 1.0, 8.0));
    let obstacles = [Obstacle {
        centre: Vec3::new(0.0, 0.0, -6.0),
        radius: 1.5,
    }];
    let path: Path<4> = Path::from_points(
        &[
            Vec3::new(0.0, 0.0, -12.0),
            Vec3::new(6.0, 0.0, -12.0),
            Vec3::new(6.0, 0.0, 0.0),
        ],
        true,
    )
    .unwrap();
    let mut walker = Agent::new(Vec3::new(0.0, 0.0, 1.0));
    let mut path_state = PathFollowState::default();

    let mut h = StateHasher::new();
    for tick in 0..TICKS {
        let t = tick as f32 * DT;
        let target = Vec3::new(3.0 * (t * 0.4).cos(), 0.0, 3.0 * (t * 0.4).sin());
        for c in critters.iter_mut() {
            arrival_step(c, &params, &arrival, target, DT);
        }
        let snapshot: [Neighbour; 6] = core::array::from_fn(|i| Neighbour::of(&boids[i], i as u32));
        for (i, b) in boids.iter_mut().enumerate() {
            let f = flock(b, i as u32, &snapshot, &flock_params, &params, DT);
            let goal = arrive(b, Vec3::new(5.0, 0.0, 5.0), &params, &arrival, DT);
            let s = blend(
                &[
                    (f.separation, 1.5),
                    (f.cohesion, 0.5),
                    (f.alignment, 0.5),
                    (goal, 1.0),
                ],
                &params,
            );
            integrate(b, &params, s, DT);
        }
        let s = priority(
            &[
                contain(&rover, &bounds, &params, &ContainParams::default()),
                wander(
                    &rover,
                    &mut wander_state,
                    &params,
                    &WanderParams::default(),
                    DT,
                ),
            ],
            1e-3,
        );
        integrate(&mut rover, &params, s, DT);
        let s = truncated_budget(
            &[
                avoid_obstacles(&walker, &obstacles, &params, &AvoidParams::default()),
                follow_path(
                    &walker,
                    &path,
                    &mut path_state,
                    &params,
                    &PathParams::default(),
                    DT,
                ),
            ],
            params.max_accel,
        );
        let s = Steering {
            angular: look_where_going(&walker, &params, DT).angular,
            ..s
        };
        integrate(&mut walker, &params, s, DT);
    }
    for c in &critters {
        c.hash_state(&mut h);
    }
    for b in &boids {
        b.hash_state(&mut h);
    }
    rover.hash_state(&mut h);
    wander_state.hash_state(&mut h);
    walker.hash_state(&mut h);
    path_state.hash_state(&mut h);
    h.finish()
}

#[test]
fn scene_replays_bit_identically_and_matches_golden() {
    let a = run_scene();
    let b = run_scene();
    assert_eq!(a, b);
    let mut buf = [0u8; hopkit::hash::HASH_LINE_LEN];
    println!("{}", hopkit::hash::format_hash_line(a, &mut buf));
    assert_eq!(a, GOLDEN, "steering golden hash changed: {a:#018x}");
}
