//! The same tick-indexed input stream stepped through `FixedStep` at 30, 60 and 144 render fps gives
//! the bit-identical state after 10 s.

use hopkit::ground::FlatGround;
use hopkit::hash::StateHash;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use hopkit::rng::Pcg32;
use hopkit::timestep::{FixedStep, NANOS_PER_SECOND};

const TICK_HZ: u32 = 60;

/// A deterministic scripted input for tick `t`: strafe-jumping with a turning view, random key
/// changes, analog wishes.
fn script(t: u64, rng_table: &[u32]) -> MoveInput {
    let r = rng_table[(t as usize / 7) % rng_table.len()];
    let yaw = t as f32 * 0.021 + (r % 100) as f32 * 0.001;
    let wish = match r % 4 {
        0 => Vec2::new(1.0, 0.0),
        1 => Vec2::new(0.0, 1.0),
        2 => Vec2::new(0.0, -1.0),
        _ => Vec2::new(0.6, 0.3),
    };
    let jump = (r >> 3) % 3 != 0;
    MoveInput::with_yaw(wish, jump, yaw)
}

fn run_at_fps(fps: u64, p: &MoveParams) -> (MoverState, u64, u32) {
    let mut rng = Pcg32::seeded(2024);
    let table: Vec<u32> = (0..256).map(|_| rng.next_u32()).collect();
    let mut clock = FixedStep::new(TICK_HZ);
    let mut s = MoverState::new(Vec3::ZERO);
    let dt = clock.tick_dt();
    let ground = FlatGround::new(0.0);
    let frame_ns = NANOS_PER_SECOND / fps;
    let rem = NANOS_PER_SECOND % fps;
    let mut tick = 0u64;
    let mut jumps = 0;
    for _second in 0..10 {
        for f in 0..fps {
            let ns = frame_ns + u64::from(f < rem);
            let adv = clock.advance_nanos(ns);
            for _ in 0..adv.ticks {
                let ev = step(&mut s, p, &script(tick, &table), &ground, dt);
                jumps += ev.jumped as u32;
                tick += 1;
            }
        }
    }
    (s, tick, jumps)
}

#[test]
fn same_state_at_30_60_144_fps() {
    for p in [MoveParams::seed(), MoveParams::quakeworld()] {
        let (a, ta, ja) = run_at_fps(30, &p);
        let (b, tb, _) = run_at_fps(60, &p);
        let (c, tc, _) = run_at_fps(144, &p);
        assert_eq!((ta, tb, tc), (600, 600, 600));
        assert!(ja > 5, "the script jumps");
        assert!(a.position.planar().length() > 1.0, "the script moves");
        assert_eq!(a.state_hash(), b.state_hash());
        assert_eq!(a.state_hash(), c.state_hash());
        assert_eq!(a, c);
    }
}
