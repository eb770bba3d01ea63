//! The demo's ghosts: the bundled recording ([`DEMO_RECORDING`]), the scripted pilot that flew it,
//! its targets, and the formation and fleet the demo flies it in.
//!
//! [`input_at`] plays the part of a human with a gamepad: 30 s of cruising with altitude hold,
//! three attack runs (Toward held until the target is close, guns held in range, a missile press
//! when lined up), Away breaks, a loop and descending S-turns that make the terrain avoidance work.
//! Like a human it reacts to the world (it lets go of Toward when close, presses the missile when
//! lined up), so the recorded Condition distances matter.
//!
//! [`record_demo`] flies it over the demo level ([`crate::level::DemoGround`]) with the
//! default [`FlyerParams`] and records every tick; `cargo run -p hopkit-demo --example
//! record_demo_ghost -- demo/assets/demo.ghost` writes the file, and a test checks the committed
//! file still equals what this code produces.

use crate::level::DemoGround;
use hopkit::ghost::nearest_target;
use hopkit::ghost::{
    record_and_fly, recording_size, DecodeError, FlyerParams, FlyerState, FormationParams,
    GhostScene, HeaderField, PilotInput, Recorder, Recording, RecordingInfo, SpawnArea,
};
use hopkit::math::{scalar, Vec3};

/// The bundled demo recording: 30 s at 60 Hz flown by [`input_at`] over the demo level, one state
/// checksum per second (5544 bytes). Shared by the demo scene, the host simulator, the firmware,
/// the C example and the carts. Regenerate with
/// `cargo run -p hopkit-demo --example record_demo_ghost -- demo/assets/demo.ghost`.
pub const DEMO_RECORDING: &[u8] = include_bytes!("../assets/demo.ghost");

/// [`DEMO_RECORDING`] parsed (validates the CRC; cheap enough to call once at start-up).
pub fn demo_recording() -> Result<Recording<'static>, DecodeError> {
    Recording::parse(DEMO_RECORDING)
}

/// The bundled recording in the version 2 format (`demo/assets/demo.v2.ghost`): the same frames
/// and checksums as [`DEMO_RECORDING`] in 483 bytes instead of 5,544, for images short of flash:
/// link this and decode it once at start-up with [`demo_recording_v2`] (5 KB of RAM instead).
pub const DEMO_RECORDING_V2: &[u8] = include_bytes!("../assets/demo.v2.ghost");

/// RAM [`demo_recording_v2`] decodes into, bytes: the size of [`DEMO_RECORDING`].
pub const DEMO_SCRATCH_LEN: usize = 5544;

/// [`DEMO_RECORDING_V2`] decoded into `scratch` ([`hopkit::ghost::load`]: CRC checked, then the
/// version 1 image written there): the same recording as [`demo_recording`], so the same
/// hashes (tested). `scratch` must hold [`DEMO_SCRATCH_LEN`] bytes.
pub fn demo_recording_v2(scratch: &'static mut [u8]) -> Result<Recording<'static>, DecodeError> {
    hopkit::ghost::load(DEMO_RECORDING_V2, scratch)
}

/// Seed of the demo formation's leader start frame (seed 002).
pub const DEMO_SEED: u64 = 2;

/// The demo formation: a leader and `N − 1` wingmen (up to 4 ghosts for the shared demo) at
/// [`TARGETS`]. The leader starts level at `(−30, 14, 36)` facing −Z at cruise speed, at a frame
/// drawn from `Pcg32::seeded(DEMO_SEED)`; wingmen use [`FormationParams::default`].
pub fn formation<const N: usize>(recording: &Recording<'_>) -> GhostScene<N> {
    let params = FlyerParams::default();
    let leader = FlyerState::level(Vec3::new(-30.0, 14.0, 36.0), 0.0, params.cruise_speed);
    GhostScene::formation(
        params,
        recording,
        &TARGETS,
        leader,
        &FormationParams::default(),
        DEMO_SEED,
    )
}

/// A fleet of `N` ghosts spread over the demo arena (±40 × 8..20 × ±40) with random headings and
/// start frames from `Pcg32::seeded(seed)`, at [`TARGETS`].
pub fn fleet<const N: usize>(recording: &Recording<'_>, seed: u64) -> GhostScene<N> {
    let area = SpawnArea {
        center: Vec3::new(0.0, 14.0, 0.0),
        half_extent: Vec3::new(40.0, 6.0, 40.0),
    };
    GhostScene::fleet(FlyerParams::default(), recording, &TARGETS, &area, seed)
}

/// The demo's targets (beacons near the ground of the demo arena).
pub const TARGETS: [Vec3; 3] = [
    Vec3::new(-20.0, 3.0, -20.0),
    Vec3::new(24.0, 5.0, 4.0),
    Vec3::new(-4.0, 2.0, 30.0),
];

/// Frames in the demo recording (30 s at 60 Hz).
pub const FRAMES: u32 = 1800;

/// Header settings of the demo recording: 60 Hz, a checksum every 60 ticks, 0.5 units per
/// Condition step.
pub const INFO: RecordingInfo = RecordingInfo {
    tick_hz: 60,
    checksum_interval: 60,
    condition_unit: 0.5,
};

/// Exact size of the demo recording in bytes (24 + 3·1800 + 4·30 = 5544).
pub const RECORDING_LEN: usize = recording_size(FRAMES as usize, INFO.checksum_interval);

/// Where the recording pilot starts: `(0, 14, 40)`, level, facing −Z, at cruise speed.
pub fn start_state() -> FlyerState {
    FlyerState::new(
        Vec3::new(0.0, 14.0, 40.0),
        hopkit::math::Quat::IDENTITY,
        FlyerParams::default().cruise_speed,
    )
}

/// Cruise altitude the scripted pilot likes, units.
pub const CRUISE_ALTITUDE: f32 = 12.0;

/// What a human does to hold altitude: pitch towards [`CRUISE_ALTITUDE`], damped by the climb
/// angle, within `[−0.6, 0.6]`.
fn hold_altitude(pilot: &FlyerState) -> f32 {
    let climb = pilot.forward().y;
    hopkit::math::clamp(
        0.08 * (CRUISE_ALTITUDE - pilot.position.y) - 1.5 * climb,
        -0.6,
        0.6,
    )
}

/// Attack-run behaviour: Toward until within `release` units, guns within 35 units, the missile
/// pressed while between 15 and 25 units and roughly facing the target; after letting go of
/// Toward, `after_yaw` with altitude hold.
fn attack(
    pilot: &FlyerState,
    near: Option<(f32, f32)>,
    release: f32,
    after_yaw: f32,
) -> PilotInput {
    let (dist, facing) = near.unwrap_or((f32::INFINITY, -1.0));
    let toward = dist > release;
    PilotInput {
        pitch: if toward { 0.0 } else { hold_altitude(pilot) },
        yaw: if toward { 0.0 } else { after_yaw },
        fire: dist < 35.0,
        missile: dist > 15.0 && dist < 25.0 && facing > 0.97,
        toward,
        away: false,
    }
}

/// The scripted input for `tick` (the script repeats every [`FRAMES`] ticks), given the pilot's
/// state and the targets — the same things a human sees.
pub fn input_at(tick: u32, pilot: &FlyerState, targets: &[Vec3]) -> PilotInput {
    let t = tick % FRAMES;
    let near = nearest_target(pilot.position, targets)
        .map(|n| (n.distance, n.direction.dot(pilot.forward())));
    let dist = near.map(|n| n.0).unwrap_or(f32::INFINITY);
    let tf = t as f32;
    let wiggle = |period: f32, amp: f32| amp * scalar::sin(tf / period);
    let hold = hold_altitude(pilot);
    match t {
        0..=119 => PilotInput {
            pitch: hold + wiggle(20.0, 0.1),
            yaw: wiggle(37.0, 0.3),
            ..PilotInput::default()
        },
        120..=419 => attack(pilot, near, 10.0, 0.2),
        420..=599 => PilotInput {
            pitch: hold - 0.2,
            yaw: 0.4,
            away: true,
            ..PilotInput::default()
        },
        600..=809 => PilotInput {
            pitch: 1.0,
            ..PilotInput::default()
        },
        810..=1079 => attack(pilot, near, 10.0, -0.6),
        1080..=1259 => PilotInput {
            pitch: hold - 0.25,
            yaw: if (t / 45) % 2 == 0 { 0.8 } else { -0.8 },
            fire: dist < 20.0,
            ..PilotInput::default()
        },
        1260..=1499 => attack(pilot, near, 8.0, 0.5),
        1500..=1619 => PilotInput {
            pitch: hold - 0.2,
            away: true,
            ..PilotInput::default()
        },
        _ => PilotInput {
            pitch: hold + wiggle(25.0, 0.1),
            yaw: 0.5,
            ..PilotInput::default()
        },
    }
}

/// Fly the script for [`FRAMES`] ticks from [`start_state`] over the demo level at [`TARGETS`],
/// recording every tick. Returns the recorder (call [`Recorder::finish`] for the bytes) and the
/// pilot's final state. Deterministic: the same bytes on every platform (with the default `libm`
/// maths backend). Fails only if [`INFO`] were invalid (it is not).
pub fn record_demo() -> Result<(Recorder<RECORDING_LEN>, FlyerState), HeaderField> {
    let params = FlyerParams::default();
    let mut pilot = start_state();
    let mut rec = Recorder::<RECORDING_LEN>::new(INFO)?;
    for tick in 0..FRAMES {
        let input = input_at(tick, &pilot, &TARGETS);
        // Capacity is exactly FRAMES frames, so this never reports full.
        let _ = record_and_fly(&mut rec, &mut pilot, &params, &input, &TARGETS, &DemoGround);
    }
    Ok((rec, pilot))
}

#[cfg(test)]
mod tests {
    #[test]
    fn the_v2_bundle_decodes_to_the_v1_bytes() {
        let scratch =
            std::boxed::Box::leak(std::vec![0u8; super::DEMO_SCRATCH_LEN].into_boxed_slice());
        let rec = super::demo_recording_v2(scratch).unwrap();
        let v1 = super::demo_recording().unwrap();
        assert_eq!(super::DEMO_SCRATCH_LEN, super::DEMO_RECORDING.len());
        assert_eq!(rec.as_bytes().len(), v1.as_bytes().len());
        // The same frames and checksums (the body after the 24-byte header); the header says
        // which format the file was.
        assert!(rec.as_bytes()[24..] == v1.as_bytes()[24..]);
        assert_eq!(rec.frame_count(), v1.frame_count());
        // The board's rig (the v2 bundle) runs the demo's golden ticks.
        let (mut a, mut b) = (
            crate::DemoRig::with_recording(Some(rec)),
            crate::DemoRig::new(),
        );
        for t in 0..600 {
            a.tick(&crate::scripted_raw(t));
            b.tick(&crate::scripted_raw(t));
        }
        assert_eq!(a.state_hash(), b.state_hash());
        assert_eq!(a.state_hash(), 0xd625_d6dd_acdc_8e4f);
    }
}
