//! Golden state hashes for the bundled demo recording, and the check that the committed file still
//! equals what the generator produces. Must pass in debug and release:
//! `cargo test -p hopkit-tests --test ghost_golden` and the same with `--release`.

use hopkit::ghost::format::{state_check, Recording};
use hopkit_demo::level::DemoGround;

use hopkit::hash::{format_hash_line, StateHash, HASH_LINE_LEN};
use hopkit_demo::pilot as demo_pilot;
use hopkit_demo::DEMO_RECORDING;

fn demo() -> Recording<'static> {
    Recording::parse(DEMO_RECORDING).unwrap()
}

fn line(h: u64) -> String {
    let mut buf = [0u8; HASH_LINE_LEN];
    format_hash_line(h, &mut buf).to_string()
}

/// Demo formation (4 ghosts) over the demo level: hash after 0, 600 and 3600 ticks.
const DEMO_FORMATION: [(u32, u64); 3] = [
    (0, 0x5bbe_9f13_f073_a765),
    (600, 0x4973_146f_f1a0_cfbc),
    (3600, 0x2886_f3bd_b92a_27fc),
];

/// Fleet of 32 ghosts from seed 7 over the demo level: hash after 0 and 1200 ticks.
const FLEET_32_SEED_7: [(u32, u64); 2] =
    [(0, 0x8e54_3870_e1e2_74b2), (1200, 0x84b3_13ea_ede2_fd4f)];

/// The recording pilot's final state (after 1800 ticks) and the file's CRC.
const PILOT_END_HASH: u64 = 0x1c2e_b203_82d7_e1f4;
const DEMO_CRC: u32 = 0x2c3f_a0cc;

#[test]
fn committed_demo_equals_the_generator_output() {
    let (mut rec, end) = demo_pilot::record_demo().unwrap();
    let bytes = rec.finish();
    assert_eq!(
        bytes, DEMO_RECORDING,
        "demo/assets/demo.ghost is stale: run `cargo run -p hopkit-demo --example record_demo_ghost -- demo/assets/demo.ghost`"
    );
    println!("pilot end {}", line(end.state_hash()));
    println!("demo crc {:#010x}", demo().header().crc);
    assert_eq!(end.state_hash(), PILOT_END_HASH);
    assert_eq!(demo().header().crc, DEMO_CRC);
    // The last stored checksum is the pilot's state before tick 1740.
    assert!(demo().checksum_before(1740).is_some());
    assert_ne!(demo().checksum_before(1740), Some(state_check(&end)));
}

#[test]
fn demo_formation_golden_hashes() {
    let rec = demo();
    let mut scene = hopkit_demo::pilot::formation::<4>(&rec);
    let mut got = Vec::new();
    for &(tick, _) in DEMO_FORMATION.iter() {
        while scene.tick < tick {
            scene.step(&rec, &DemoGround);
        }
        println!("formation tick {tick}: {}", line(scene.state_hash()));
        got.push((tick, scene.state_hash()));
    }
    assert_eq!(got, DEMO_FORMATION);
}

#[test]
fn fleet_golden_hashes() {
    let rec = demo();
    let mut scene = hopkit_demo::pilot::fleet::<32>(&rec, 7);
    let mut got = Vec::new();
    for &(tick, _) in FLEET_32_SEED_7.iter() {
        while scene.tick < tick {
            scene.step(&rec, &DemoGround);
        }
        println!("fleet tick {tick}: {}", line(scene.state_hash()));
        got.push((tick, scene.state_hash()));
    }
    assert_eq!(got, FLEET_32_SEED_7);
}
