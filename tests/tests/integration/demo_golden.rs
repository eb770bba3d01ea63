//! Golden state hashes of the scripted demo rig. The same numbers are printed by
//! `hopkit-sim hash --scene demo --ticks N`, the QEMU firmware, the C example and the wasm cart.
//! They must hold in debug and release builds (CI runs both).
//!
//! If a deliberate change to any mechanic changes them, regenerate with
//! `cargo test -p hopkit-tests --test demo_golden -- --nocapture print_hashes` and say why in the commit.

use hopkit::hash::format_hash_line;
use hopkit_demo::{scripted_hash, scripted_raw, DemoRig};

const GOLDEN: [(u32, u64); 3] = [
    (0, 0xd6728fb7d36c3b1c),
    (600, 0xd625d6ddacdc8e4f),
    (3600, 0xcdc5694b9a4a426f),
];

#[test]
fn print_hashes() {
    for (ticks, _) in GOLDEN {
        let mut buf = [0u8; 32];
        println!(
            "{ticks}: {}",
            format_hash_line(scripted_hash(ticks), &mut buf)
        );
    }
}

#[test]
fn golden_hashes() {
    for (ticks, expected) in GOLDEN {
        assert_eq!(
            scripted_hash(ticks),
            expected,
            "ticks {ticks}: got {:#018x}",
            scripted_hash(ticks)
        );
    }
}

#[test]
fn render_rate_does_not_change_the_hash() {
    // Drive the rig through the fixed-step accumulator at several render rates for 10 s.
    let expected = scripted_hash(600);
    for fps in [30u64, 60, 144] {
        let mut rig = DemoRig::new();
        let mut step = hopkit::timestep::FixedStep::new(hopkit_demo::TICK_HZ);
        let frame_ns = 1_000_000_000 / fps;
        let rem = 1_000_000_000 % fps;
        let mut t = 0u32;
        'outer: for _ in 0..10 {
            for f in 0..fps {
                let adv = step.advance_nanos(frame_ns + u64::from(f < rem));
                for _ in 0..adv.ticks {
                    rig.tick(&scripted_raw(t));
                    t += 1;
                    if t == 600 {
                        break 'outer;
                    }
                }
            }
        }
        assert_eq!(t, 600, "fps {fps}");
        assert_eq!(rig.state_hash(), expected, "fps {fps}");
    }
}
