//! Replay a WASM-4 gamepad file (one byte per tick, as the cart traces it) through the cart's game
//! on the host and say which parts of the cart's level the player visited; exit 1 if any was
//! missed. CI's cart runs (scripts/ci-wasm4.sh, scripts/ci-wasm4-native.sh) call it on the bytes
//! they rebuilt from the cart's trace, before comparing hashes with `hopkit-sim hash --gamepad`.
//!
//!     cargo run -p hopkit-wasm4 --example level_tour -- gamepad.bin [--trace | --state]
//!
//! It prints the state hash of the cart's game after the last byte: `hopkit-sim hash --gamepad
//! FILE --level LEVEL` (the level it names: `plain`, or `solid` when built with the feature
//! `level-solids`) must print the same line. `--trace` prints the player every half second; `--state` prints only `state x y z yaw_deg
//! ticks_on_ramp_20 ticks_on_ramp_30 ticks_off_edge ticks_at_wall speed` after the last byte.
use hopkit_wasm4::{Game, Tour, LEVEL};

fn main() {
    let mut args = std::env::args().skip(1);
    let Some(path) = args.next() else {
        eprintln!("usage: level_tour GAMEPAD.bin [--trace]");
        std::process::exit(2);
    };
    let flag = args.next();
    let trace = flag.as_deref() == Some("--trace");
    let state = flag.as_deref() == Some("--state");
    let bytes = match std::fs::read(&path) {
        Ok(b) if b.len() <= 36_000 => b,
        Ok(b) => {
            eprintln!(
                "level_tour: {path}: {} bytes, more than 36000 ticks",
                b.len()
            );
            std::process::exit(2);
        }
        Err(e) => {
            eprintln!("level_tour: cannot read {path}: {e}");
            std::process::exit(2);
        }
    };
    let mut game = Game::default();
    let mut tour = Tour::default();
    for (t, &b) in bytes.iter().enumerate() {
        game.update(b, |_| {});
        tour.visit(&game);
        if trace && (t % 30 == 29 || t + 1 == bytes.len()) {
            let m = &game.cart.rig.scene.player.mover;
            println!(
                "tick {:5} pad {b:#04x} pos ({:6.1}, {:5.2}, {:6.1}) speed {:5.2} yaw {:6.1} {}",
                t + 1,
                m.position.x,
                m.position.y,
                m.position.z,
                m.planar_speed(),
                game.cart.rig.scene.player.yaw.to_degrees(),
                if m.grounded { "ground" } else { "air" }
            );
        }
    }
    if state {
        // For a driver that steers the cart closed-loop (scripts/wasm4-native-tour.py).
        let m = &game.cart.rig.scene.player.mover;
        println!(
            "state {} {} {} {} {} {} {} {} {}",
            m.position.x,
            m.position.y,
            m.position.z,
            game.cart.rig.scene.player.yaw.to_degrees(),
            tour.on_ramp[0],
            tour.on_ramp[1],
            tour.off_ramp_edge,
            tour.at_wall,
            m.planar_speed()
        );
        return;
    }
    println!(
        "level {}: {} ticks; on the 20° ramp {} ticks, on the 30° ramp {}, off a ramp's edge {}, \
         at the wall {}",
        LEVEL.name(),
        bytes.len(),
        tour.on_ramp[0],
        tour.on_ramp[1],
        tour.off_ramp_edge,
        tour.at_wall
    );
    // The hash `hopkit-sim hash --gamepad FILE --level LEVEL` must print for the same bytes.
    let mut line = [0u8; hopkit::hash::HASH_LINE_LEN];
    println!(
        "the cart's game: {}",
        hopkit::hash::format_hash_line(game.cart.state_hash(), &mut line)
    );
    let missing = tour.missing();
    if !missing.is_empty() {
        eprintln!(
            "level_tour: FAIL: the run never reached {}",
            missing.join(", ")
        );
        std::process::exit(1);
    }
    println!("level_tour: every part of the level visited");
}
