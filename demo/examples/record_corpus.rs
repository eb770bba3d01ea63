//! Writes the recording corpus of `demo/assets/corpus/` (issue 25): five pilots of different
//! styles flown over the demo level, each saved as format version 1 (`NAME.ghost`) and version 2
//! (`NAME.v2.ghost`, the same frames and checksums), plus `demo/assets/demo.v2.ghost`, the bundled
//! demo recording in version 2.
//!
//! `cargo run -p hopkit-demo --example record_corpus -- demo/assets` (the directory holding
//! `demo.ghost`). Deterministic: every pilot's randomness comes from a seeded `Pcg32`, and the
//! flight from hopkit's fixed-tick maths, so the files are the same on every run (and on every
//! platform with the default maths backend). tests/tests/integration/ghost_v2.rs checks that each
//! `.v2.ghost` is exactly the version 2 encoding of its `.ghost`, that the flights replay against
//! their own state checksums, and that every file is ≤ 0.5 bytes a frame in version 2.
//!
//! The styles:
//! - `calm`: altitude hold and long, gentle turns; guns only now and then (60 s).
//! - `aggressive`: full-deflection stick snaps every 0.3–1.2 s, guns held in bursts, Toward/Away
//!   toggled, missiles pressed often (30 s).
//! - `noisy-analog`: an analog stick steering at the nearest target with noise on both axes
//!   (σ ≈ 1.5 % of full scale, about half a quantization step) and a slow drift (45 s).
//! - `pursuit`: a dogfighter flying proportional pursuit of the nearest target, Toward held while
//!   far, guns in range, missile when lined up, Away to break off (60 s).
//! - `keyboard`: digital input — every stick either −1, 0 or +1, held for human key-press lengths
//!   (5–40 ticks), fire on a key (30 s).

use std::path::{Path, PathBuf};

use hopkit::ghost::format::{encode_v2, recording_size, to_v1};
use hopkit::ghost::nearest_target;
use hopkit::ghost::{
    record_and_fly, FlyerParams, FlyerState, Frame, PilotInput, Recorder, Recording, RecordingInfo,
};
use hopkit::math::{clamp, scalar, Vec3};
use hopkit::rng::Pcg32;
use hopkit_demo::level::DemoGround;
use hopkit_demo::pilot::{self as demo_pilot, TARGETS};

/// Longest corpus flight, frames.
const MAX_FRAMES: usize = 60 * 60;
const CAP: usize = recording_size(MAX_FRAMES, INFO.checksum_interval);

/// What the pilot of a style remembers between ticks.
#[derive(Default)]
struct Mind {
    hold: u32,
    pitch: f32,
    yaw: f32,
    fire: bool,
    toward: bool,
    away: bool,
    drift: f32,
}

fn hold_altitude(pilot: &FlyerState, altitude: f32) -> f32 {
    clamp(
        0.08 * (altitude - pilot.position.y) - 1.5 * pilot.forward().y,
        -0.6,
        0.6,
    )
}

/// Stick deflections that turn the nose towards `dir` (proportional, clamped to ±1).
fn pursue(pilot: &FlyerState, dir: Vec3, gain: f32) -> (f32, f32) {
    let b = pilot.basis();
    let up = dir.dot(b.up);
    let right = dir.dot(b.right);
    let ahead = dir.dot(b.forward);
    let (up, right) = if ahead < 0.0 {
        (up, if right >= 0.0 { 1.0 } else { -1.0 })
    } else {
        (up, right)
    };
    // + yaw turns left: a target to the right needs negative yaw.
    (clamp(gain * up, -1.0, 1.0), clamp(-gain * right, -1.0, 1.0))
}

/// Sum of uniforms: roughly normal with standard deviation `sigma`.
fn noise(rng: &mut Pcg32, sigma: f32) -> f32 {
    let s = rng.signed_unit() + rng.signed_unit() + rng.signed_unit();
    // Each signed unit has variance 1/3: the sum has variance 1.
    s * sigma
}

fn input(style: &str, t: u32, pilot: &FlyerState, rng: &mut Pcg32, m: &mut Mind) -> PilotInput {
    let near = nearest_target(pilot.position, &TARGETS);
    let dist = near.map(|n| n.distance).unwrap_or(f32::INFINITY);
    let facing = near
        .map(|n| n.direction.dot(pilot.forward()))
        .unwrap_or(-1.0);
    let tf = t as f32;
    match style {
        "calm" => PilotInput {
            pitch: hold_altitude(pilot, 14.0) + 0.05 * scalar::sin(tf / 90.0),
            yaw: 0.25 * scalar::sin(tf / 240.0),
            fire: dist < 18.0 && facing > 0.9,
            ..PilotInput::default()
        },
        "aggressive" => {
            if m.hold == 0 {
                m.hold = 18 + rng.below(55);
                let pick = |rng: &mut Pcg32| [-1.0, -0.7, 0.0, 0.7, 1.0][rng.below(5) as usize];
                m.pitch = pick(rng);
                m.yaw = pick(rng);
                m.fire = rng.below(2) == 0;
                m.toward = rng.below(3) == 0;
                m.away = !m.toward && rng.below(4) == 0;
            }
            m.hold -= 1;
            let low = pilot.position.y < 6.0;
            PilotInput {
                pitch: if low { 1.0 } else { m.pitch },
                yaw: m.yaw,
                fire: m.fire,
                missile: facing > 0.9 && rng.below(20) == 0,
                toward: m.toward,
                away: m.away,
            }
        }
        "noisy-analog" => {
            let (p, y) = match near {
                Some(n) if n.distance > 12.0 => pursue(pilot, n.direction, 0.8),
                _ => (0.0, 0.5),
            };
            m.drift = clamp(m.drift + noise(rng, 0.002), -0.05, 0.05);
            PilotInput {
                pitch: clamp(p * 0.6 + hold_altitude(pilot, 12.0) * 0.5, -1.0, 1.0)
                    + m.drift
                    + noise(rng, 0.015),
                yaw: y * 0.7 + noise(rng, 0.015) - m.drift,
                fire: dist < 25.0 && facing > 0.9,
                ..PilotInput::default()
            }
        }
        "pursuit" => {
            if m.hold > 0 {
                // Breaking off: Away and a climbing turn.
                m.hold -= 1;
                return PilotInput {
                    pitch: hold_altitude(pilot, 16.0),
                    yaw: 0.6,
                    away: true,
                    ..PilotInput::default()
                };
            }
            let (p, y) = match near {
                Some(n) => pursue(pilot, n.direction, 1.5),
                None => (0.0, 0.0),
            };
            if dist < 7.0 {
                m.hold = 90;
            }
            PilotInput {
                pitch: clamp(p + hold_altitude(pilot, 10.0) * 0.3, -1.0, 1.0),
                yaw: y,
                fire: dist < 30.0 && facing > 0.95,
                missile: dist > 15.0 && dist < 22.0 && facing > 0.98,
                toward: dist > 20.0,
                away: false,
            }
        }
        "keyboard" => {
            if m.hold == 0 {
                m.hold = 5 + rng.below(36);
                let key = |rng: &mut Pcg32| [-1.0, 0.0, 0.0, 1.0][rng.below(4) as usize];
                m.yaw = key(rng);
                let want = hold_altitude(pilot, 12.0);
                m.pitch = if want > 0.3 {
                    1.0
                } else if want < -0.3 {
                    -1.0
                } else {
                    key(rng) * (rng.below(3) == 0) as u32 as f32
                };
                m.fire = dist < 25.0 && rng.below(2) == 0;
            }
            m.hold -= 1;
            PilotInput {
                pitch: m.pitch,
                yaw: m.yaw,
                fire: m.fire,
                missile: m.fire && m.hold == 3,
                ..PilotInput::default()
            }
        }
        _ => PilotInput::default(),
    }
}

/// The corpus: name, seconds, seed.
const STYLES: [(&str, u32, u64); 5] = [
    ("calm", 60, 1),
    ("aggressive", 30, 2),
    ("noisy-analog", 45, 3),
    ("pursuit", 60, 4),
    ("keyboard", 30, 5),
];

/// Corpus settings: 60 Hz, 0.5 units per Condition step, a state checksum every 300 ticks (5 s;
/// the bundled demo has one a second). A checksum is 4 bytes in either version.
const INFO: RecordingInfo = RecordingInfo {
    tick_hz: 60,
    checksum_interval: 300,
    condition_unit: 0.5,
};

fn fly(style: &str, seconds: u32, seed: u64) -> Vec<u8> {
    let info = INFO;
    let params = FlyerParams::default();
    let mut pilot = demo_pilot::start_state();
    let mut rec = Box::new(Recorder::<CAP>::new(info).expect("valid settings"));
    let mut rng = Pcg32::new(seed, 25);
    let mut mind = Mind::default();
    for t in 0..seconds * u32::from(info.tick_hz) {
        let i = input(style, t, &pilot, &mut rng, &mut mind);
        let _ = record_and_fly(&mut rec, &mut pilot, &params, &i, &TARGETS, &DemoGround);
    }
    rec.finish().to_vec()
}

/// The version 2 bytes of a version 1 recording (checked to decode back to the same file).
fn to_v2(v1: &[u8]) -> Vec<u8> {
    let rec = Recording::parse(v1).expect("recorded file parses");
    let frames: Vec<Frame> = rec.frames().collect();
    let checks: Vec<u32> = rec.checksums().collect();
    let mut out = vec![0u8; v1.len() + 64];
    let n = encode_v2(&rec.info(), &frames, &checks, &mut out).expect("encodes");
    out.truncate(n);
    let mut back = vec![0u8; v1.len()];
    let len = to_v1(&out, &mut back).expect("v2 decodes");
    assert_eq!(&back[..len], v1, "v2 round trip");
    out
}

fn write(path: &Path, bytes: &[u8]) {
    if let Err(e) = std::fs::write(path, bytes) {
        eprintln!("cannot write {}: {e}", path.display());
        std::process::exit(1);
    }
}

fn main() {
    let dir = PathBuf::from(
        std::env::args()
            .nth(1)
            .unwrap_or_else(|| "demo/assets".into()),
    );
    let corpus = dir.join("corpus");
    if let Err(e) = std::fs::create_dir_all(&corpus) {
        eprintln!("cannot create {}: {e}", corpus.display());
        std::process::exit(1);
    }
    let demo_v2 = to_v2(hopkit_demo::DEMO_RECORDING);
    write(&dir.join("demo.v2.ghost"), &demo_v2);
    println!(
        "demo: {} frames, v1 {} bytes, v2 {} bytes",
        1800,
        hopkit_demo::DEMO_RECORDING.len(),
        demo_v2.len()
    );
    for (name, seconds, seed) in STYLES {
        let v1 = fly(name, seconds, seed);
        let v2 = to_v2(&v1);
        write(&corpus.join(format!("{name}.ghost")), &v1);
        write(&corpus.join(format!("{name}.v2.ghost")), &v2);
        let frames = seconds * 60;
        println!(
            "{name}: {frames} frames, v1 {} bytes, v2 {} bytes ({:.3} bytes/frame)",
            v1.len(),
            v2.len(),
            v2.len() as f64 / frames as f64
        );
    }
}
