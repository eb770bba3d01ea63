//! The handheld application under QEMU (`mps2-an386` for thumbv7em, `microbit` for thumbv6m):
//! scripted stick samples, a pixel-counting display, a clock that advances one tick per poll.
//! Prints a `state-hash: 0x…` line after [`TICKS`] ticks that must equal the host's
//! (`hopkit-sim hash --scene demo --ticks 600`), and exits through semihosting with status 0 only
//! if every poll ran exactly one tick and the app's hash equals the core's `scripted_hash`. Also
//! prints `friction-forms-hash: 0x…` and `collision-hash: 0x…` (the collision scenarios of
//! `hopkit_demo::collision`), compared with the host's by scripts/ci-cross.sh.
#![no_std]
#![no_main]

hopkit_firmware::qemu_image!();

use core::cell::RefCell;
use core::fmt::Write as _;
use cortex_m::interrupt::Mutex;
use cortex_m_rt::entry;
use hopkit::hash::{format_hash_line, HASH_LINE_LEN};
use hopkit_demo::app::App;
use hopkit_demo::collision::{collision_hash_in, Level};
use hopkit_demo::counting::PixelCounter;
use hopkit_demo::scripted_hash;
use hopkit_demo::seams::{Scripted, StepClock};
use hopkit_firmware::rt::qemu::{
    exit, stack_bounds, stack_high_water, Out, MACHINE, RAM_ORIGIN, TARGET,
};

/// Ticks of the scripted demo before the hash is printed (10 s of play at 60 Hz). The host side of
/// the comparison (scripts/qemu.sh) uses the same number.
const TICKS: u32 = 600;
/// The second, longer hash (one minute of play; ticks past [`TICKS`] run without drawing),
/// printed as `state-hash-3600: 0x…`.
const LONG_TICKS: u32 = 3600;

/// The collision scenarios' level (about 4.5 KB), built in place in a static: on the stack it
/// would not fit the Cortex-M0's 16 KiB next to the app.
static COLLISION_LEVEL: Mutex<RefCell<Level>> = Mutex::new(RefCell::new(Level::new()));

type DemoApp = App<Scripted, Scripted, PixelCounter, StepClock>;

#[entry]
fn main() -> ! {
    let mut out = Out::new();
    let _ = writeln!(out, "hopkit qemu-demo: {MACHINE}, {TICKS} ticks");
    // In a static (like the board binary), so the size report's static RAM includes the app.
    let Some(app) = cortex_m::singleton!(: DemoApp = App::new(
        Scripted,
        Scripted,
        PixelCounter::new(),
        StepClock::per_tick(),
    )) else {
        exit(false)
    };
    let mut ok = true;
    for _ in 0..=TICKS {
        match app.poll() {
            Ok(p) if p.ticks <= 1 => {}
            Ok(p) => {
                let _ = writeln!(out, "FAIL: a poll ran {} ticks", p.ticks);
                ok = false;
            }
            Err(e) => match e {},
        }
    }
    let ticks = app.rig().tick_count();
    if ticks != TICKS {
        let _ = writeln!(out, "FAIL: ran {ticks} ticks, wanted {TICKS}");
        ok = false;
    }
    let stats = app.stats();
    let px = app.display();
    let _ = writeln!(
        out,
        "frames: {}  pixels-on(last frame): {}  frame-fingerprint: 0x{:016x}",
        stats.frames,
        px.on,
        px.frame_fingerprint()
    );
    let hash = app.state_hash();
    let reference = scripted_hash(TICKS);
    if hash != reference {
        let _ = writeln!(
            out,
            "FAIL: app hash 0x{hash:016x} != scripted_hash({TICKS}) 0x{reference:016x}"
        );
        ok = false;
    }
    // Every collision scenario (issue 34 §4: the body among solids), every tick hashed: compared
    // with the host's by scripts/ci-cross.sh and scripts/ci-cpus.sh. Run before the RAM report,
    // so its stack is in the high-water mark.
    let collision = cortex_m::interrupt::free(|cs| {
        collision_hash_in(&mut COLLISION_LEVEL.borrow(cs).borrow_mut())
    });
    // RAM use: statics (everything below the stack, the app included) plus the deepest stack.
    let (stack_bottom, stack_top) = stack_bounds();
    let stack = stack_high_water();
    let statics = stack_bottom - RAM_ORIGIN;
    let _ = writeln!(out, "static-ram: {statics}");
    let _ = writeln!(out, "stack-high-water: {stack}");
    let _ = writeln!(out, "ram-peak: {}", statics + stack);
    let _ = writeln!(out, "ram-size: {}", stack_top - RAM_ORIGIN);
    let mut buf = [0u8; HASH_LINE_LEN];
    let _ = writeln!(out, "{}", format_hash_line(hash, &mut buf));
    // One character in both friction forms (the demo uses the default only): compared with the
    // host's by scripts/ci-cross.sh.
    let _ = writeln!(
        out,
        "friction-forms-hash: 0x{:016x}",
        hopkit_demo::forms::friction_forms_hash()
    );
    let _ = writeln!(out, "collision-hash: 0x{collision:016x}");
    while app.rig().tick_count() < LONG_TICKS {
        app.tick_once();
    }
    // Compared with the host's `scripted_hash(3600)` by scripts/ci-cpus.sh (computing it here too
    // would put a second demo rig on this image's stack).
    let long = app.state_hash();
    let _ = writeln!(out, "state-hash-{LONG_TICKS}: 0x{long:016x}");
    let _ = writeln!(
        out,
        "qemu-demo {TARGET}: {}",
        if ok { "PASS" } else { "FAIL" }
    );
    exit(ok)
}
