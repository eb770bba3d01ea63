//! The QEMU image's run on the host: the same app, scripted input, pixel-counting display and
//! step clock, printing the same comparable lines (`frames: …`, `state-hash: 0x…`,
//! `friction-forms-hash: 0x…` and `collision-hash: 0x…`).
//!
//! `cargo run -p hopkit-firmware --example host-hash -- [TICKS]` (default 600).
use hopkit::hash::{format_hash_line, HASH_LINE_LEN};
use hopkit_demo::app::App;
use hopkit_demo::counting::PixelCounter;
use hopkit_demo::seams::{Scripted, StepClock};

fn main() {
    let ticks: u32 = match std::env::args().nth(1) {
        Some(a) => a.parse().unwrap_or_else(|_| {
            eprintln!("usage: host-hash [TICKS]");
            std::process::exit(2)
        }),
        None => 600,
    };
    let mut app = App::new(
        Scripted,
        Scripted,
        PixelCounter::new(),
        StepClock::per_tick(),
    );
    for _ in 0..=ticks {
        let Ok(_) = app.poll();
    }
    let px = app.display();
    println!(
        "frames: {}  pixels-on(last frame): {}  frame-fingerprint: 0x{:016x}",
        app.stats().frames,
        px.on,
        px.frame_fingerprint()
    );
    let mut buf = [0u8; HASH_LINE_LEN];
    println!("{}", format_hash_line(app.state_hash(), &mut buf));
    println!(
        "friction-forms-hash: 0x{:016x}",
        hopkit_demo::forms::friction_forms_hash()
    );
    println!(
        "collision-hash: 0x{:016x}",
        hopkit_demo::collision::collision_hash()
    );
}
