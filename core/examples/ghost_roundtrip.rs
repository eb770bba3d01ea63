//! Record a pilot as a ghost, save the bytes, load them back, verify the replay, fly it as an AI.
//!
//! `cargo run -p hopkit --example ghost_roundtrip`
//!
//! 1. A scripted "human" flies for 10 s at 60 Hz. Every tick its controls are quantized into a
//!    3-byte frame in game symbols (pitch, yaw, fire, missile, Toward, Away, Condition) and the
//!    pilot flies exactly that frame (Doom's trick), so the recording replays exactly.
//! 2. The bytes (header + frames + one state checksum per second, CRC-32) go to a file.
//! 3. The file is read back, parsed (zero-copy), replayed from the start against its checksums.
//! 4. The same recording drives a [`Ghost`]: an AI that replays the frames from anywhere in the
//!    world, turning Toward the nearest target, skipping ahead once close (Condition), firing only
//!    when it faces the target.
//!
//! Expected: 1,864 bytes (24 header + 600 × 3 + 10 × 4), 10 of 10 checksums matched, a corrupted
//! copy rejected with a CRC mismatch, and the ghost firing at its target.

use hopkit::ghost::{
    record_and_fly, recording_size, verify, FlyerParams, FlyerState, Ghost, PilotInput, Recorder,
    Recording, RecordingInfo,
};
use hopkit::ground::FlatGround;
use hopkit::math::Vec3;

const SECONDS: u32 = 10;
const TICKS: u32 = SECONDS * 60;

fn main() {
    let params = FlyerParams::default();
    let ground = FlatGround::new(0.0);
    let targets = [Vec3::new(0.0, 8.0, -60.0), Vec3::new(40.0, 6.0, 20.0)];
    let start = FlyerState::level(Vec3::new(0.0, 10.0, 30.0), 0.0, params.cruise_speed);

    // 1. Record. The recorder's buffer *is* the file; its size is known at compile time.
    let info = RecordingInfo::default(); // 60 Hz, one checksum per 60 ticks, Condition in 0.5 units
    let mut recorder =
        Recorder::<{ recording_size(TICKS as usize, 60) }>::new(info).expect("valid settings");
    let mut pilot = start;
    for tick in 0..TICKS {
        let input = PilotInput {
            pitch: if tick < 120 { 0.1 } else { 0.0 },
            yaw: if (tick / 90) % 2 == 0 { 0.3 } else { -0.3 },
            fire: tick % 60 < 20,
            toward: (200..400).contains(&tick), // "Toward held": turn to the nearest target
            ..PilotInput::default()
        };
        record_and_fly(
            &mut recorder,
            &mut pilot,
            &params,
            &input,
            &targets,
            &ground,
        )
        .expect("the recorder was sized for every tick");
    }
    let frames = recorder.frames();
    let bytes = recorder.finish();
    println!("recorded {frames} frames into {} bytes", bytes.len());

    // 2. Save.
    let path = std::env::temp_dir().join("hopkit-example.ghost");
    std::fs::write(&path, bytes).expect("write the recording");

    // 3. Load, parse, replay against the stored checksums.
    let loaded = std::fs::read(&path).expect("read the recording back");
    let recording = Recording::parse(&loaded).expect("a recording we just wrote parses");
    println!(
        "loaded {}: {} frames at {} Hz, {} state checksums",
        path.display(),
        recording.frame_count(),
        recording.tick_hz(),
        recording.checksum_count()
    );
    match verify(&recording, &params, start, &targets, &ground) {
        Ok(n) => println!(
            "replay: {n} of {} checksums matched",
            recording.checksum_count()
        ),
        Err(d) => println!("replay desynced at tick {}", d.tick),
    }
    let mut corrupt = loaded.clone();
    corrupt[100] ^= 0x10;
    match Recording::parse(&corrupt) {
        Ok(_) => println!("corrupted copy accepted (unexpected)"),
        Err(e) => println!("corrupted copy rejected: {e}"),
    }

    // 4. The recording as an enemy AI, starting somewhere else entirely.
    let mut ghost = Ghost::new(FlyerState::level(Vec3::new(-30.0, 12.0, 0.0), 1.0, 8.0), 0);
    let (mut fired, mut skips) = (0u32, 0u32);
    for _ in 0..TICKS {
        let t = ghost.step(&recording, &params, &targets, &ground);
        fired += t.firing as u32;
        skips += t.skipped as u32;
    }
    let p = ghost.flyer.position;
    println!(
        "ghost after {SECONDS} s: at ({:.1}, {:.1}, {:.1}), fired on {fired} ticks, {skips} Condition skips",
        p.x, p.y, p.z
    );
    std::fs::remove_file(&path).ok();
}
