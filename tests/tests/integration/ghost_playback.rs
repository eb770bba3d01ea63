//! Ghost playback as AI: Condition skips, missile presses under skipped render frames, fire gating,
//! fleets and formations, frame-rate independence, desync detection.

use hopkit::ghost::format::{recording_size, Recording, RecordingInfo};
use hopkit::ghost::NO_LEADER;
use hopkit::ghost::{
    encode, record_and_fly, spawn_fleet, spawn_formation, verify, Desync, FlyerParams, FlyerState,
    FormationParams, Frame, Ghost, GhostVec, PilotInput, Recorder, Replay, SpawnArea,
};
use hopkit::ghost::{frame_distance, MAX_WINGMAN_FRAME_OFFSET};
use hopkit::ground::{FlatGround, NoGround};
use hopkit::hash::StateHash;
use hopkit::math::{Quat, Vec3};
use hopkit::rng::Pcg32;
use hopkit::timestep::{FixedStep, NANOS_PER_SECOND};
use hopkit_demo::level::DemoGround;
use hopkit_demo::pilot as demo_pilot;
use hopkit_demo::DEMO_RECORDING;

fn build(frames: &[Frame]) -> Vec<u8> {
    let info = RecordingInfo {
        tick_hz: 60,
        checksum_interval: 0,
        condition_unit: 0.5,
    };
    let mut buf = vec![0u8; recording_size(frames.len(), 0)];
    encode(&info, frames, &[], &mut buf).unwrap();
    buf
}

fn demo() -> Recording<'static> {
    Recording::parse(DEMO_RECORDING).unwrap()
}

/// Render frames of wildly different lengths, including long hitches that make one render frame
/// run many ticks (and the 0.25 s clamp drop time).
fn irregular_frame_ns(rng: &mut Pcg32) -> u64 {
    match rng.below(10) {
        0 => 180_000_000 + rng.below(150_000_000) as u64, // hitch, sometimes clamped
        1..=3 => 1_000_000 + rng.below(4_000_000) as u64, // faster than the tick: 0 ticks
        _ => 5_000_000 + rng.below(60_000_000) as u64,
    }
}

// ---------------------------------------------------------------- Condition

fn toward_segment_recording() -> Vec<u8> {
    // 0..10 neutral, 10..50 Toward with a recorded distance of 40 units (80 × 0.5), 50..60 neutral.
    let frames: Vec<Frame> = (0..60)
        .map(|i| {
            if (10..50).contains(&i) {
                Frame {
                    toward: true,
                    condition: 80,
                    ..Frame::NEUTRAL
                }
            } else {
                Frame::NEUTRAL
            }
        })
        .collect();
    build(&frames)
}

#[test]
fn condition_skip_jumps_to_the_end_of_the_toward_segment() {
    let bytes = toward_segment_recording();
    let rec = Recording::parse(&bytes).unwrap();
    let p = FlyerParams::default();
    let target = [Vec3::new(0.0, 20.0, -20.0)];
    // 20 units from the target (< 40 recorded): skip from 10 to 49.
    let mut g = Ghost::new(FlyerState::level(Vec3::new(0.0, 20.0, 0.0), 0.0, 14.0), 10);
    let t = g.step(&rec, &p, &target, &NoGround);
    assert!(t.skipped);
    assert_eq!(t.frame_index, 49);
    assert!(t.frame.toward);
    assert_eq!(g.cursor, 50);
    assert_eq!(g.skips, 1);
    // Next tick plays frame 50 normally.
    let t = g.step(&rec, &p, &target, &NoGround);
    assert_eq!((t.frame_index, t.skipped), (50, false));
}

#[test]
fn condition_does_not_skip_when_farther_than_recorded() {
    let bytes = toward_segment_recording();
    let rec = Recording::parse(&bytes).unwrap();
    let p = FlyerParams::default();
    let target = [Vec3::new(0.0, 20.0, -45.0)];
    let mut g = Ghost::new(FlyerState::level(Vec3::new(0.0, 20.0, 0.0), 0.0, 14.0), 10);
    // Flying towards it at 14 u/s from 45 units: the first ticks play in order, then the live
    // distance drops below 40 (after about 22 ticks) and the rest of the segment is skipped.
    let mut played = Vec::new();
    // 35 ticks: the skip, then frames 50..59 and 0.. (the next pass of frame 10 would skip again).
    for _ in 0..35 {
        let t = g.step(&rec, &p, &target, &NoGround);
        played.push((t.frame_index, t.skipped));
    }
    assert_eq!(played[0], (10, false));
    let skip = played.iter().position(|&(_, s)| s).unwrap();
    assert!((15..30).contains(&skip), "skipped after {skip} ticks");
    assert_eq!(played[skip].0, 49);
    // Until the skip, frames played in order 10, 11, …; the distance at the skip is < 40.
    for (k, &(i, _)) in played[..skip].iter().enumerate() {
        assert_eq!(i, 10 + k as u32);
    }
    assert_eq!(g.skips, 1);
}

#[test]
fn condition_zero_or_no_toward_never_skips() {
    let mut frames = vec![
        Frame {
            toward: true,
            condition: 0,
            ..Frame::NEUTRAL
        };
        20
    ];
    frames.extend((0..20).map(|_| Frame {
        toward: false,
        condition: 200,
        ..Frame::NEUTRAL
    }));
    let bytes = build(&frames);
    let rec = Recording::parse(&bytes).unwrap();
    let target = [Vec3::new(0.0, 20.0, -5.0)];
    let mut g = Ghost::new(FlyerState::level(Vec3::new(0.0, 20.0, 0.0), 0.0, 1.0), 0);
    for i in 0..40 {
        let t = g.step(&rec, &FlyerParams::default(), &target, &NoGround);
        assert_eq!(t.frame_index, i);
        assert!(!t.skipped);
    }
}

#[test]
fn toward_segment_end_wraps_around_the_loop() {
    let frames: Vec<Frame> = (0..10)
        .map(|i| Frame {
            toward: !(3..6).contains(&i),
            ..Frame::NEUTRAL
        })
        .collect();
    let bytes = build(&frames);
    let rec = Recording::parse(&bytes).unwrap();
    assert_eq!(rec.toward_segment_end(7), 2); // 7, 8, 9, 0, 1, 2
    assert_eq!(rec.toward_segment_end(0), 2);
    assert_eq!(rec.toward_segment_end(4), 4); // not Toward
    let all = build(
        &[Frame {
            toward: true,
            ..Frame::NEUTRAL
        }; 5],
    );
    let rec = Recording::parse(&all).unwrap();
    assert_eq!(rec.toward_segment_end(2), 1); // walks the whole loop once, never forever
}

// ---------------------------------------------------------------- missiles and fire gating

fn missile_recording() -> (Vec<u8>, Vec<u32>) {
    let presses = vec![30u32, 100, 101, 250, 599];
    let frames: Vec<Frame> = (0..600u32)
        .map(|i| Frame {
            missile: presses.contains(&i),
            fire: (200..220).contains(&i),
            ..Frame::NEUTRAL
        })
        .collect();
    (build(&frames), presses)
}

fn straight_flight() -> (FlyerParams, [Vec3; 1], Ghost) {
    let p = FlyerParams {
        fire_range: 10_000.0,
        ..FlyerParams::default()
    };
    // A target far ahead: always faced, never reached.
    let target = [Vec3::new(0.0, 50.0, -5_000.0)];
    let g = Ghost::new(FlyerState::level(Vec3::new(0.0, 50.0, 0.0), 0.0, 14.0), 0);
    (p, target, g)
}

#[test]
fn a_missile_press_fires_once_whatever_the_render_frames() {
    let (bytes, presses) = missile_recording();
    let rec = Recording::parse(&bytes).unwrap();
    let total_ticks = 600u64;
    let mut schedules: Vec<Box<dyn FnMut() -> u64>> = vec![
        Box::new(|| NANOS_PER_SECOND / 30),
        Box::new(|| NANOS_PER_SECOND / 60),
        Box::new(|| NANOS_PER_SECOND / 144),
        Box::new(|| 100_000_000), // 10 fps: 6 ticks per render frame
        {
            let mut rng = Pcg32::seeded(99);
            Box::new(move || irregular_frame_ns(&mut rng))
        },
    ];
    for (s, next_frame) in schedules.iter_mut().enumerate() {
        let (p, target, mut g) = straight_flight();
        let mut clock = FixedStep::new(rec.tick_hz() as u32);
        let mut launched_at = Vec::new();
        let mut tick = 0u64;
        let mut max_ticks_in_a_frame = 0;
        while tick < total_ticks {
            let adv = clock.advance_nanos(next_frame());
            max_ticks_in_a_frame = max_ticks_in_a_frame.max(adv.ticks);
            for _ in 0..adv.ticks {
                if tick == total_ticks {
                    break;
                }
                let t = g.step(&rec, &p, &target, &NoGround);
                if t.missile {
                    launched_at.push(t.frame_index);
                }
                tick += 1;
            }
        }
        assert_eq!(launched_at, presses, "schedule {s}");
        assert_eq!(g.missiles_fired, presses.len() as u32);
        if s >= 3 {
            assert!(max_ticks_in_a_frame > 1, "schedule {s} skipped no ticks");
        }
    }
}

#[test]
fn a_held_missile_button_records_one_press_even_when_render_frames_skip_ticks() {
    // The live pilot samples the button once per render frame; each render frame may run several
    // ticks. Holding the button across many ticks must still record one press per hold.
    let mut rng = Pcg32::seeded(5);
    let mut rec = Recorder::<{ recording_size(700, 0) }>::new(RecordingInfo {
        checksum_interval: 0,
        ..RecordingInfo::default()
    })
    .unwrap();
    let p = FlyerParams::default();
    let mut pilot = FlyerState::level(Vec3::new(0.0, 30.0, 0.0), 0.0, 14.0);
    let mut clock = FixedStep::new(60);
    let mut held_windows = 0;
    let mut was_held = false;
    let mut render_frame = 0u32;
    while rec.frames() < 600 {
        // Button held for render frames 10..20, 40..41, 70..90 (a short tap included).
        let held = (10..20).contains(&render_frame)
            || render_frame == 40
            || (70..90).contains(&render_frame);
        let adv = clock.advance_nanos(irregular_frame_ns(&mut rng));
        if held && !was_held && adv.ticks > 0 {
            held_windows += 1;
        }
        if adv.ticks > 0 {
            was_held = held;
        }
        let input = PilotInput {
            missile: held,
            ..PilotInput::default()
        };
        for _ in 0..adv.ticks {
            let _ = record_and_fly(&mut rec, &mut pilot, &p, &input, &[], &NoGround);
        }
        render_frame += 1;
    }
    let r = Recording::parse(rec.finish()).unwrap();
    let presses = r.frames().filter(|f| f.missile).count();
    assert!(held_windows >= 2);
    assert_eq!(presses, held_windows);
}

#[test]
fn fire_only_when_facing_the_target() {
    let frames = vec![
        Frame {
            fire: true,
            missile: true,
            ..Frame::NEUTRAL
        };
        4
    ];
    let bytes = build(&frames);
    let rec = Recording::parse(&bytes).unwrap();
    let p = FlyerParams::default();
    let at = Vec3::new(0.0, 30.0, 0.0);
    let fly = |target: Vec3| {
        let mut g = Ghost::new(FlyerState::level(at, 0.0, 14.0), 0);
        g.step(&rec, &p, &[target], &NoGround)
    };
    // Dead ahead at 30 units: fires.
    let t = fly(at + Vec3::new(0.0, 0.0, -30.0));
    assert!(t.firing && t.missile);
    // 10° off the nose (cos 0.985 ≥ 0.95): fires.
    let t = fly(at + Vec3::new(-30.0 * 0.173_648, 0.0, -30.0 * 0.984_808));
    assert!(t.firing);
    // 25° off (cos 0.906 < 0.95): holds fire, and the missile press is not spent.
    let t = fly(at + Vec3::new(30.0 * 0.422_618, 0.0, -30.0 * 0.906_308));
    assert!(!t.firing && !t.missile);
    // Behind: holds fire.
    let t = fly(at + Vec3::new(0.0, 0.0, 30.0));
    assert!(!t.firing && !t.missile);
    // Ahead but out of range (60): holds fire.
    let t = fly(at + Vec3::new(0.0, 0.0, -80.0));
    assert!(!t.firing);
    // No target: holds fire.
    let mut g = Ghost::new(FlyerState::level(at, 0.0, 14.0), 0);
    assert!(!g.step(&rec, &p, &[], &NoGround).firing);
}

#[test]
fn toward_and_away_turn_the_ghost() {
    let toward = build(&vec![
        Frame {
            toward: true,
            ..Frame::NEUTRAL
        };
        240
    ]);
    let away = build(&vec![
        Frame {
            away: true,
            ..Frame::NEUTRAL
        };
        240
    ]);
    let p = FlyerParams::default();
    // Target off to the left, at the same height.
    let target = [Vec3::new(-200.0, 40.0, 0.0)];
    let start = FlyerState::level(Vec3::new(0.0, 40.0, 0.0), 0.0, 14.0);
    let run = |bytes: &[u8]| {
        let rec = Recording::parse(bytes).unwrap();
        let mut g = Ghost::new(start, 0);
        for _ in 0..240 {
            g.step(&rec, &p, &target, &NoGround);
        }
        let dir = (target[0] - g.flyer.position).normalize_or_zero();
        g.flyer.forward().dot(dir)
    };
    assert!(run(&toward) > 0.99);
    assert!(run(&away) < -0.99);
}

#[test]
fn terrain_and_avoidance_keep_a_diving_ghost_alive() {
    // Full nose-down stick for 5 s over the ground with a target in the way: the ghost never
    // goes below the ground and misses the target.
    let dive = build(&vec![
        Frame {
            pitch: -31,
            toward: true,
            ..Frame::NEUTRAL
        };
        300
    ]);
    let rec = Recording::parse(&dive).unwrap();
    let p = FlyerParams::default();
    let target = [Vec3::new(0.0, 6.0, -40.0)];
    let mut g = Ghost::new(FlyerState::level(Vec3::new(0.0, 15.0, 0.0), 0.0, 14.0), 0);
    let mut lowest = f32::MAX;
    let mut closest = f32::MAX;
    for _ in 0..300 {
        g.step(&rec, &p, &target, &FlatGround::new(0.0));
        lowest = lowest.min(g.flyer.position.y);
        closest = closest.min(g.flyer.position.distance(target[0]));
    }
    assert!(lowest > 0.5, "lowest {lowest}");
    assert!(closest > 1.0, "closest {closest}");
}

// ---------------------------------------------------------------- fleets and formations

fn fleet(seed: u64) -> GhostVec<32> {
    let mut out = GhostVec::<32>::new();
    let mut rng = Pcg32::seeded(seed);
    let area = SpawnArea {
        center: Vec3::new(0.0, 20.0, 0.0),
        half_extent: Vec3::new(40.0, 5.0, 40.0),
    };
    assert_eq!(spawn_fleet(&mut out, &mut rng, 40, &area, 1800, 14.0), 32);
    out
}

#[test]
fn fleet_is_deterministic_and_spread_out() {
    let a = fleet(7);
    assert_eq!(a, fleet(7));
    assert_ne!(a, fleet(8));
    let mut cursors: Vec<u32> = a.iter().map(|g| g.cursor).collect();
    for g in a.iter() {
        assert!(g.cursor < 1800);
        let p = g.flyer.position;
        assert!(p.x.abs() <= 40.0 && (p.y - 20.0).abs() <= 5.0 && p.z.abs() <= 40.0);
        assert_eq!(g.leader, NO_LEADER);
    }
    cursors.sort();
    cursors.dedup();
    assert!(cursors.len() > 28, "start frames should differ");
}

#[test]
fn formation_wingmen_start_within_30_frames_and_close_by() {
    for seed in 0..20 {
        let mut out = GhostVec::<8>::new();
        let mut rng = Pcg32::seeded(seed);
        let leader = FlyerState::level(Vec3::new(0.0, 20.0, 0.0), 0.3, 14.0);
        let n = spawn_formation(
            &mut out,
            &mut rng,
            leader,
            5,
            6,
            &FormationParams::default(),
            1800,
            60,
        );
        assert_eq!(n, 7);
        assert_eq!(out[0].cursor, 5);
        for w in out.iter().skip(1) {
            assert_eq!(w.leader, 0);
            assert!(frame_distance(w.cursor, 5, 1800) <= MAX_WINGMAN_FRAME_OFFSET);
            assert!(w.lag as u32 <= MAX_WINGMAN_FRAME_OFFSET);
            // Small positional offsets: within 3 ranks of 3 units.
            assert!(w.flyer.position.distance(leader.position) < 3.0 * 3.0 * 1.5);
            // Behind the leader.
            assert!((w.flyer.position - leader.position).dot(leader.forward()) < 0.0);
        }
    }
}

#[test]
fn demo_formation_flies_as_a_group() {
    let rec = demo();
    let mut scene = hopkit_demo::pilot::formation::<4>(&rec);
    assert_eq!(scene.ghosts.len(), 4);
    let mut worst = 0.0f32;
    let mut sum = 0.0f32;
    let mut samples = 0;
    for _ in 0..3600 {
        scene.step(&rec, &DemoGround);
        let lead = scene.ghosts[0];
        for w in scene.ghosts.iter().skip(1) {
            let d = w.flyer.position.distance(lead.flyer.position);
            worst = worst.max(d);
            sum += d;
            samples += 1;
            // The wingman plays its lag behind the frame the leader played.
            assert!(frame_distance(w.last_index, lead.last_index, rec.frame_count()) <= 30);
        }
    }
    let mean = sum / samples as f32;
    // Slots are 4.2 and 8.5 units from the leader.
    assert!(mean < 10.0, "mean wingman distance {mean}");
    assert!(worst < 25.0, "worst wingman distance {worst}");
}

#[test]
fn independent_fleet_spreads_out_but_stays_finite() {
    let rec = demo();
    let mut scene = hopkit_demo::pilot::fleet::<32>(&rec, 7);
    let mut missiles = 0;
    for _ in 0..1800 {
        missiles += scene.step(&rec, &DemoGround).missiles;
    }
    for g in scene.ghosts.iter() {
        assert!(g.flyer.is_finite());
        assert!(g.flyer.position.y >= 0.0);
    }
    assert!(missiles > 0);
}

// ---------------------------------------------------------------- frame-rate independence

fn scene_hashes_at(fps: u64, seconds: u64) -> Vec<u64> {
    let rec = demo();
    let mut scene = hopkit_demo::pilot::formation::<4>(&rec);
    let mut clock = FixedStep::new(rec.tick_hz() as u32);
    let mut hashes = Vec::new();
    let frame_ns = NANOS_PER_SECOND / fps;
    let rem = NANOS_PER_SECOND % fps;
    for _ in 0..seconds {
        for f in 0..fps {
            let adv = clock.advance_nanos(frame_ns + u64::from(f < rem));
            for _ in 0..adv.ticks {
                scene.step(&rec, &DemoGround);
                hashes.push(scene.state_hash());
            }
        }
    }
    hashes
}

#[test]
fn playback_is_identical_at_30_60_and_144_fps() {
    let h60 = scene_hashes_at(60, 20);
    assert_eq!(h60.len(), 1200);
    assert_eq!(scene_hashes_at(30, 20), h60);
    assert_eq!(scene_hashes_at(144, 20), h60);
}

fn record_at(fps: u64) -> Vec<u8> {
    let params = FlyerParams::default();
    let mut pilot = demo_pilot::start_state();
    let mut rec = Recorder::<{ demo_pilot::RECORDING_LEN }>::new(demo_pilot::INFO).unwrap();
    let mut clock = FixedStep::new(60);
    let frame_ns = NANOS_PER_SECOND / fps;
    let rem = NANOS_PER_SECOND % fps;
    let mut f = 0u64;
    while rec.frames() < demo_pilot::FRAMES {
        let adv = clock.advance_nanos(frame_ns + u64::from(f % fps < rem));
        f += 1;
        for _ in 0..adv.ticks {
            if rec.frames() == demo_pilot::FRAMES {
                break;
            }
            let tick = rec.frames();
            let input = demo_pilot::input_at(tick, &pilot, &demo_pilot::TARGETS);
            record_and_fly(
                &mut rec,
                &mut pilot,
                &params,
                &input,
                &demo_pilot::TARGETS,
                &DemoGround,
            )
            .unwrap();
        }
    }
    rec.finish().to_vec()
}

#[test]
fn recording_is_identical_at_30_60_and_144_fps() {
    let r60 = record_at(60);
    assert_eq!(r60, DEMO_RECORDING);
    assert_eq!(record_at(30), r60);
    assert_eq!(record_at(144), r60);
}

// ---------------------------------------------------------------- desync detection

#[test]
fn the_demo_replays_without_desync() {
    let rec = demo();
    let checks = verify(
        &rec,
        &FlyerParams::default(),
        demo_pilot::start_state(),
        &demo_pilot::TARGETS,
        &DemoGround,
    );
    assert_eq!(checks, Ok(30));
}

fn replay_with_nudge_after(tick: u32) -> Result<u32, Desync> {
    let rec = demo();
    let params = FlyerParams::default();
    let mut r = Replay::new(demo_pilot::start_state());
    loop {
        let before = r.tick;
        match r.step(&rec, &params, &demo_pilot::TARGETS, &DemoGround)? {
            hopkit::ghost::ReplayStep::Played(_) => {}
            hopkit::ghost::ReplayStep::Finished => return Ok(r.tick),
        }
        if before == tick {
            // A tiny disturbance during tick `tick` (one float ulp-scale nudge).
            r.flyer.position.x += 1.0e-4;
        }
    }
}

#[test]
fn desync_is_reported_at_the_first_checksum_after_the_divergence() {
    assert_eq!(replay_with_nudge_after(u32::MAX), Ok(1800));
    for (nudged, reported) in [
        (0u32, 60u32),
        (500, 540),
        (539, 540),
        (540, 600),
        (1739, 1740),
    ] {
        let e = replay_with_nudge_after(nudged).unwrap_err();
        assert_eq!(e.tick, reported, "nudged during tick {nudged}");
        assert_ne!(e.expected, e.found);
    }
    // A nudge after the last checksum (tick 1740) cannot be seen.
    assert_eq!(replay_with_nudge_after(1740), Ok(1800));
}

#[test]
fn a_different_world_desyncs() {
    let rec = demo();
    let params = FlyerParams::default();
    let start = demo_pilot::start_state();
    // Target 2 moved by one unit: the first Toward segment (ticks 120..) steers at it.
    let moved = [
        demo_pilot::TARGETS[0],
        demo_pilot::TARGETS[1],
        Vec3::new(-4.0, 2.0, 31.0),
    ];
    let e = verify(&rec, &params, start, &moved, &DemoGround).unwrap_err();
    assert!(e.tick > 0 && e.tick % 60 == 0);
    // Other params.
    let agile = FlyerParams::agile();
    assert_eq!(
        verify(&rec, &agile, start, &demo_pilot::TARGETS, &DemoGround)
            .unwrap_err()
            .tick,
        60
    );
    // Another start state: the very first check (tick 0) fails.
    let other = FlyerState::new(Vec3::new(0.0, 14.0, 40.0), Quat::from_yaw(0.1), 14.0);
    assert_eq!(
        verify(&rec, &params, other, &demo_pilot::TARGETS, &DemoGround)
            .unwrap_err()
            .tick,
        0
    );
}

/// Regression (issue 13, defect 4): a valid but hostile recording — every frame Toward with
/// Condition 255 — made every ghost tick walk the whole recording (2.9 ms per tick at 1 M
/// frames). The walk is bounded by MAX_TOWARD_SKIP, so a tick is O(1) whatever a file holds.
#[test]
fn a_hostile_all_toward_recording_costs_a_bounded_walk_per_tick() {
    use hopkit::ghost::format::MAX_TOWARD_SKIP;
    let frame = Frame {
        toward: true,
        condition: 255,
        ..Frame::NEUTRAL
    };
    let bytes = build(&vec![frame; 200_000]);
    let rec = Recording::parse(&bytes).unwrap();
    assert_eq!(rec.toward_segment_end(0), MAX_TOWARD_SKIP);
    assert_eq!(
        rec.toward_segment_end(199_999),
        MAX_TOWARD_SKIP - 1,
        "wraps, still bounded"
    );
    // A ghost right at its target keeps skipping, MAX_TOWARD_SKIP frames (plus the played one)
    // per tick at most.
    let targets = [Vec3::new(0.0, 10.0, -1.0)];
    let mut g = Ghost::new(FlyerState::level(Vec3::new(0.0, 10.0, 0.0), 0.0, 8.0), 0);
    let mut last = 0u32;
    for _ in 0..20 {
        let t = g.step(&rec, &FlyerParams::default(), &targets, &NoGround);
        let jumped = (t.frame_index + 200_000 - last) % 200_000;
        assert!(jumped <= MAX_TOWARD_SKIP + 1, "jumped {jumped} frames");
        last = t.frame_index;
        assert!(g.flyer.is_finite());
    }
    // Segments shorter than the bound are skipped whole, as before.
    let short = toward_segment_recording();
    assert_eq!(Recording::parse(&short).unwrap().toward_segment_end(10), 49);
}
