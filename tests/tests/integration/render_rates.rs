//! Render rate never changes the simulation (issue 15): the demo, a strafe-jumping character and
//! the ghost scene, driven through `FixedStep` at 240 fps and by an irregular frame-time sequence
//! like a stuttering loop's (alternating 7 ms / 26 ms frames with one 250 ms hitch), reach the
//! bit-identical state of the same number of ticks stepped one by one. (30, 60 and 144 fps:
//! demo_golden.rs, movement_fixedstep.rs, ghost_playback.rs.)

use hopkit::ground::FlatGround;
use hopkit::hash::{StateHash, StateHasher};
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step, MoveInput, MoveParams, MoverState};
use hopkit::timestep::{FixedStep, NANOS_PER_SECOND};
use hopkit_demo::demo_recording;
use hopkit_demo::level::DemoGround;
use hopkit_demo::{scripted_hash, scripted_raw, DemoRig, TICK_HZ};

const TICKS: u32 = 900; // 15 s

/// Frame times of a 240 fps loop (whole nanoseconds, remainders spread so each second is exact).
fn fps_240() -> impl Iterator<Item = u64> {
    (0u64..).map(|f| NANOS_PER_SECOND / 240 + u64::from(f % 240 < NANOS_PER_SECOND % 240))
}

/// A stuttering loop: 7 ms and 26 ms frames alternating, with one 250 ms hitch after 3 s
/// (15 ticks in one frame, exactly at the default long-frame clamp, so nothing is dropped).
fn stutter() -> impl Iterator<Item = u64> {
    const MS: u64 = 1_000_000;
    (0u64..).map(|f| match f {
        182 => 250 * MS,
        _ if f % 2 == 0 => 7 * MS,
        _ => 26 * MS,
    })
}

/// Run exactly `ticks` ticks of `tick(t)` as a render loop with these frame times produces them.
fn drive(frames: impl Iterator<Item = u64>, ticks: u32, mut tick: impl FnMut(u32)) {
    let mut clock = FixedStep::new(TICK_HZ);
    let mut t = 0;
    for ns in frames {
        let adv = clock.advance_nanos(ns);
        assert_eq!(adv.dropped_ns, 0, "no frame here is longer than the clamp");
        for _ in 0..adv.ticks {
            if t == ticks {
                return;
            }
            tick(t);
            t += 1;
        }
        if t == ticks {
            return;
        }
    }
}

#[test]
fn the_stutter_sequence_is_what_it_claims() {
    let frames: Vec<u64> = stutter().take(400).collect();
    assert_eq!(frames[182], 250_000_000);
    let mut clock = FixedStep::new(TICK_HZ);
    let per_frame: Vec<u32> = frames
        .iter()
        .map(|&ns| clock.advance_nanos(ns).ticks)
        .collect();
    assert_eq!(per_frame[182], 15, "the hitch runs 15 ticks in one frame");
    assert!(
        per_frame.iter().filter(|&&n| n == 0).count() > 50,
        "short frames run none"
    );
    assert!(
        per_frame.iter().filter(|&&n| n == 2).count() > 10,
        "long frames run two"
    );
}

#[test]
fn demo_is_identical_at_240_fps_and_under_stutter() {
    let expected = scripted_hash(TICKS);
    for (name, frames) in [
        (
            "240 fps",
            Box::new(fps_240()) as Box<dyn Iterator<Item = u64>>,
        ),
        ("stutter", Box::new(stutter())),
    ] {
        let mut rig = DemoRig::new();
        drive(frames, TICKS, |t| rig.tick(&scripted_raw(t)));
        assert_eq!(rig.tick_count(), TICKS, "{name}");
        assert_eq!(rig.state_hash(), expected, "{name}");
    }
}

fn mover_hash(s: &MoverState) -> u64 {
    let mut h = StateHasher::new();
    s.hash_state(&mut h);
    h.finish()
}

#[test]
fn strafe_jumping_is_identical_at_240_fps_and_under_stutter() {
    let p = MoveParams::quakeworld();
    let g = FlatGround::new(0.0);
    let dt = 1.0 / TICK_HZ as f32;
    let input = |t: u32| {
        let wish = if t % 90 < 45 {
            Vec2::new(0.0, 1.0)
        } else {
            Vec2::new(0.0, -1.0)
        };
        MoveInput::with_yaw(wish, t % 3 != 0, t as f32 * 0.02)
    };
    let mut reference = MoverState::new(Vec3::ZERO);
    for t in 0..TICKS {
        step(&mut reference, &p, &input(t), &g, dt);
    }
    for frames in [
        Box::new(fps_240()) as Box<dyn Iterator<Item = u64>>,
        Box::new(stutter()),
    ] {
        let mut s = MoverState::new(Vec3::ZERO);
        drive(frames, TICKS, |t| {
            step(&mut s, &p, &input(t), &g, dt);
        });
        assert_eq!(mover_hash(&s), mover_hash(&reference));
    }
}

#[test]
fn ghost_scene_is_identical_at_240_fps_and_under_stutter() {
    let rec = demo_recording().unwrap();
    let run = |frames: Box<dyn Iterator<Item = u64>>| {
        let mut scene = hopkit_demo::pilot::formation::<4>(&rec);
        drive(frames, TICKS, |_| {
            scene.step(&rec, &DemoGround);
        });
        scene.state_hash()
    };
    let mut reference = hopkit_demo::pilot::formation::<4>(&rec);
    for _ in 0..TICKS {
        reference.step(&rec, &DemoGround);
    }
    assert_eq!(run(Box::new(fps_240())), reference.state_hash());
    assert_eq!(run(Box::new(stutter())), reference.state_hash());
}
