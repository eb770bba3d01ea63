//! What each collision scenario (`hopkit_demo::collision`, issue 34 §4) must show, and their
//! golden hash: the body among solids (`movement::slide`) in corners, a hallway of its own width,
//! stairs at three tick rates, over a ramp, surfing, over a ramp's seams, under a ceiling, at a
//! thin wall at `max_velocity`, started inside a solid, and carried against a wall.

use hopkit::collide::{Tracer, SURFACE_CLIP_EPSILON};
use hopkit::hash::StateHash;
use hopkit::math::Vec2;
use hopkit::movement::{MoveInput, MoverState, StepEvents};
use hopkit_demo::collision::{collision_hash, level_of, run, runs, Setup, SCENARIOS, SETUPS};

/// The golden collision hash: every run of every scenario, every tick (also printed by the QEMU
/// images and compared across CPUs by `scripts/ci-cross.sh`).
pub const COLLISION_HASH: u64 = 0x55ea_cb9d_392b_3cb5;

const SKIN: f32 = SURFACE_CLIP_EPSILON;

/// Every tick of a run: (tick, state, events).
fn ticks(setup: &Setup) -> Vec<(u32, MoverState, StepEvents)> {
    let mut out = Vec::new();
    run(setup, |t, s, ev| out.push((t, *s, *ev)));
    out
}

fn the(name: &str, label: &str) -> &'static Setup {
    runs(name)
        .find(|s| s.label == label)
        .unwrap_or_else(|| panic!("no run {name} / {label}"))
}

/// The body's box at the state, as the movement sweeps it.
fn inside_a_solid(setup: &Setup, s: &MoverState) -> bool {
    let level = level_of(setup);
    let params = (setup.params)();
    let (mins, maxs) = hopkit::movement::body_box(s, &params);
    level.trace(s.position, s.position, mins, maxs).start_solid
}

#[test]
fn the_golden_hash() {
    assert_eq!(
        collision_hash(),
        COLLISION_HASH,
        "{:#018x}",
        collision_hash()
    );
}

#[test]
fn every_scenario_has_runs_and_every_state_is_finite_and_never_inside_a_solid() {
    for name in SCENARIOS {
        assert!(runs(name).count() > 0, "{name}");
    }
    for setup in &SETUPS {
        assert!(level_of(setup).len() < hopkit_demo::collision::LEVEL_CAPACITY);
        for (t, s, ev) in ticks(setup) {
            assert!(
                s.is_finite(),
                "{} / {} tick {t}: {s:?}",
                setup.scenario,
                setup.label
            );
            assert!(ev.impact_speed.is_finite() && ev.carried_yaw.is_finite());
            if setup.scenario != "startsolid" {
                assert!(
                    !inside_a_solid(setup, &s),
                    "{} / {} tick {t}: in a solid at {:?}",
                    setup.scenario,
                    setup.label,
                    s.position
                );
            }
        }
    }
}

#[test]
fn corner_no_stick_no_jitter() {
    for setup in runs("corner") {
        let all = ticks(setup);
        // Pressed into the corner for the last second: the position does not move at all.
        let rest = all[all.len() - 60].1.position;
        for (t, s, _) in &all[all.len() - 60..] {
            assert_eq!(s.position, rest, "{} tick {t}: jitter", setup.label);
        }
        assert!(
            rest.x > 40.0,
            "{}: reached the corner: {rest:?}",
            setup.label
        );
    }
    // The right corner: 1/8 unit off both walls (x = 64 − 15 − 1/8, z likewise).
    let rest = ticks(the("corner", "90 degrees"))
        .last()
        .unwrap()
        .1
        .position;
    let at = 64.0 - 15.0 - SKIN;
    assert!(
        (rest.x - at).abs() < 1e-3 && (rest.z - at).abs() < 1e-3,
        "{rest:?}"
    );
}

#[test]
fn hallway_exactly_the_bodys_width_is_walked_at_full_speed() {
    let all = ticks(the("hallway", "30.25 wide"));
    let last = all.last().unwrap().1;
    assert!(last.position.x > 576.0 + 15.0, "through: {last:?}");
    for (t, s, ev) in &all[30..] {
        assert_eq!(s.position.z, 0.0, "tick {t}: pushed aside");
        assert!(!ev.hit_wall, "tick {t}: touched a wall");
        assert_eq!(s.planar_speed(), 320.0, "tick {t}: slowed");
    }
}

#[test]
fn stairs_up_and_down_at_walking_speed_at_60_120_and_250_hz() {
    for label in ["60 Hz", "120 Hz", "250 Hz"] {
        let all = ticks(the("stairs", label));
        let top = all
            .iter()
            .map(|(_, s, _)| s.position.y)
            .fold(f32::MIN, f32::max);
        assert_eq!(top, 128.0 + SKIN, "{label}: onto the landing");
        let last = all.last().unwrap().1;
        assert!(
            last.position.x > 640.0 + 15.0,
            "{label}: down again: {last:?}"
        );
        assert_eq!(last.position.y, SKIN, "{label}");
        let mut x = f32::MIN;
        for (t, s, _) in &all[1..] {
            // Up and down, every tick on the ground and moving on at walking speed.
            assert!(
                s.grounded,
                "{label} tick {t}: left the ground at {:?}",
                s.position
            );
            assert!(
                s.position.x > x,
                "{label} tick {t}: stuck at {:?}",
                s.position
            );
            x = s.position.x;
        }
    }
}

#[test]
fn ramp_walked_up_and_over_without_a_launch() {
    let all = ticks(the("ramp", "30 degrees"));
    let plateau = 64.0 + SKIN;
    let top = all
        .iter()
        .map(|(_, s, _)| s.position.y)
        .fold(f32::MIN, f32::max);
    assert_eq!(top, plateau, "no launch over the top");
    let end_of_plateau = 64.0 + 64.0 * 1.732_050_8 + 128.0;
    for (t, s, _) in &all[1..] {
        if s.position.x + 15.0 < end_of_plateau {
            assert!(s.grounded, "tick {t}: airborne at {:?}", s.position);
        }
    }
}

/// The planar speed at the first and the last tick.
fn entry_and_final_speed(setup: &Setup) -> (f32, f32, Vec<(u32, MoverState, StepEvents)>) {
    let all = ticks(setup);
    let entry = (setup.start)().planar_speed();
    (entry, all.last().unwrap().1.planar_speed(), all)
}

#[test]
fn surf_air_strafing_on_a_steep_ramp_gains_speed() {
    let setup = the("surf", "one brush");
    let (entry, last, all) = entry_and_final_speed(setup);
    assert!(last >= 1.5 * entry, "surf: {entry} -> {last}");
    // On the ramp, never standing on it.
    let sliding = all.iter().filter(|(_, _, ev)| ev.sliding).count();
    assert!(
        sliding * 2 > all.len(),
        "on the ramp {sliding} of {} ticks",
        all.len()
    );
    assert!(all.iter().all(|(_, s, _)| !s.grounded));
    // The same keys with the view held along the ramp: no gain (the air-strafe is the gain).
    let held = Setup {
        input: |t, s| {
            let i = (the("surf", "one brush").input)(t, s);
            MoveInput::new(i.wish, false, Vec2::new(1.0, 0.0))
        },
        ..*setup
    };
    let (_, flat, _) = entry_and_final_speed(&held);
    assert!(flat < 1.05 * entry, "view held: {entry} -> {flat}");
    // Surfing off: the ramp is a wall, no speed is gained from it.
    let mut walls = *setup;
    walls.params = || hopkit::movement::MoveParams {
        surf: false,
        ..hopkit::movement::MoveParams::source()
    };
    let (_, off, _) = entry_and_final_speed(&walls);
    assert!(off < last, "surf off: {entry} -> {off}");
}

#[test]
fn seam_a_ramp_of_eight_brushes_is_one_brush() {
    let whole = ticks(the("seam", "one brush"));
    let pieces = ticks(the("seam", "eight brushes"));
    assert_eq!(whole.len(), pieces.len());
    for ((t, a, _), (_, b, _)) in whole.iter().zip(&pieces) {
        assert_eq!(a.state_hash(), b.state_hash(), "tick {t}: {a:?} != {b:?}");
    }
    let (entry, last, _) = entry_and_final_speed(the("seam", "eight brushes"));
    assert!(last >= 1.5 * entry, "{entry} -> {last}");
}

#[test]
fn ceiling_stops_the_jump_and_is_never_passed() {
    let all = ticks(the("ceiling", "jumps under a ceiling at 72"));
    let head_room = 72.0 - 56.0 - SKIN;
    let top = all
        .iter()
        .map(|(_, s, _)| s.position.y)
        .fold(f32::MIN, f32::max);
    assert!((top - head_room).abs() < 1e-3, "head at the ceiling: {top}");
    let jumps = all.iter().filter(|(_, _, ev)| ev.jumped).count();
    assert!(jumps >= 2, "{jumps}");
    for (t, s, _) in &all {
        assert!(s.position.y <= head_room + 1e-3, "tick {t}: {s:?}");
        if (s.position.y - head_room).abs() < 1e-3 {
            assert!(
                s.velocity.y <= 0.0,
                "tick {t}: still rising at the ceiling: {s:?}"
            );
        }
    }
}

#[test]
fn tunnel_a_one_unit_wall_at_max_velocity_is_never_crossed() {
    let all = ticks(the("tunnel", "1-unit wall at max_velocity"));
    let stop = 256.0 - 15.0 - SKIN;
    let hit = all.iter().position(|(_, _, ev)| ev.hit_wall);
    let hit = hit.expect("reached the wall");
    assert!(all[hit - 1].1.velocity.x >= 1999.0, "{:?}", all[hit - 1].1);
    // Stopped within the overclip's bounce (Quake III's 0.1 %: 2 units/s here) of the wall.
    assert!(stop - all[hit].1.position.x < 0.05, "{:?}", all[hit].1);
    assert_eq!(all.last().unwrap().1.position.x, stop);
    for (t, s, _) in &all {
        assert!(s.position.x <= stop, "tick {t}: {s:?}");
    }
}

#[test]
fn startsolid_gets_out() {
    for setup in runs("startsolid") {
        let all = ticks(setup);
        assert!(
            inside_a_solid(setup, &(setup.start)()),
            "{}: starts inside",
            setup.label
        );
        let out = all.iter().position(|(_, s, _)| !inside_a_solid(setup, s));
        let out = out.unwrap_or_else(|| panic!("{}: never got out", setup.label));
        assert!(out <= 2, "{}: out after {out} ticks", setup.label);
        for (t, s, _) in &all[out..] {
            assert!(
                !inside_a_solid(setup, s),
                "{} tick {t}: back in",
                setup.label
            );
        }
        assert!(all.last().unwrap().1.grounded, "{}", setup.label);
    }
}

#[test]
fn platform_wall_the_rider_is_not_dragged_into_the_wall() {
    let all = ticks(the("platform-wall", "carried at 200 into a wall"));
    let stop = 256.0 - 15.0 - SKIN;
    for (t, s, _) in &all {
        assert!(s.position.x <= stop, "tick {t}: {s:?}");
        assert!(s.grounded, "tick {t}");
    }
    assert_eq!(all.last().unwrap().1.position.x, stop);
    // Carried: it got there without any input.
    assert!(all[30].1.position.x > 50.0);
}
