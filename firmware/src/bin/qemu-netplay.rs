//! Instruction counts of rollback netplay on the handheld's CPUs under QEMU (`-icount shift=0`,
//! see `rt/qemu.rs` and docs/netplay.md). Prints `key: value` lines that scripts/budgets.sh checks
//! against firmware/budgets.txt, and the session hash scripts/ci-netplay.sh compares:
//!
//! - `arena-rollback-8-instr` / `arena-rollback-8-instr-max`: one 8-frame rollback of the
//!   2-player netplay arena (`hopkit_demo::arena`): restore a saved world (a copy) and
//!   re-simulate 8 ticks from both players' inputs, mean / worst over the scripted run (every
//!   rollback's result checked against the first simulation, outside the timed span);
//!   `arena-world-bytes`: the size of the saved world; `arena-session-hash`: the state hash of the
//!   arena after the 3,600 frames of the two-peer session `scripts/ci-netplay.sh` plays (player 1
//!   mixed input, player 2 random, seed 24), which the script compares with the peers' hash;
//!
//! Its own image, not a part of `qemu-bench`: the arena calls the same movement, follower and
//! arrival steps as the demo, and a second caller in one image changes how the compiler inlines
//! them there, so the demo's figures would move with netplay code the handheld does not run.
#![no_std]
#![no_main]

hopkit_firmware::qemu_image!();

use core::fmt::Write as _;
use core::hint::black_box;
use cortex_m_rt::entry;
use hopkit_demo::arena::{
    scripted_input, session_hash, ArenaInput, ArenaWorld, InputKind, InputSource, NEUTRAL_INPUT,
};
use hopkit_demo::DemoParams;
use hopkit_firmware::rt::qemu::{exit, Counter, Out, Tally, MACHINE, TARGET};

/// 8-frame rollbacks of the arena measured (one per 8 ticks of a 30 s script loop).
const ROLLBACKS: u32 = 225;
/// Frames of the netplay session replayed (scripts/ci-netplay.sh's lossy pair).
const SESSION_FRAMES: u32 = 3600;
/// Seed of its inputs (`hopkit-sim netplay --seed`'s default).
const SESSION_SEED: u64 = 24;
/// Frames re-simulated per rollback.
const ROLLBACK_FRAMES: usize = 8;

#[entry]
fn main() -> ! {
    let mut out = Out::new();
    let Some(cp) = cortex_m::Peripherals::take() else {
        exit(false)
    };
    let c = Counter::new(cp.SYST);
    let _ = writeln!(out, "hopkit qemu-netplay: {MACHINE}");
    let _ = writeln!(out, "target: {TARGET}");

    // --- one 8-frame rollback of the 2-player arena: restore + 8 ticks ---
    let aparams = black_box(DemoParams::default());
    let mut live = ArenaWorld::new(2);
    let mut rollback = Tally::new();
    for r in 0..ROLLBACKS {
        let saved = live;
        let mut inputs = [[NEUTRAL_INPUT; 2]; ROLLBACK_FRAMES];
        let first = r * ROLLBACK_FRAMES as u32;
        for (t, i) in (first..).zip(inputs.iter_mut()) {
            *i = [scripted_input(t, 0), scripted_input(t, 1)];
        }
        for i in inputs.iter() {
            live.step(&aparams, i);
        }
        let s = c.start();
        let mut world = black_box(saved);
        for i in inputs.iter() {
            world.step(&aparams, black_box::<&[ArenaInput; 2]>(i));
        }
        black_box(&world);
        rollback.add(&c, c.stop_ticks(s));
        if world != live {
            let _ = writeln!(out, "arena rollback {r}: re-simulation differs");
            exit(false)
        }
    }
    let _ = writeln!(out, "arena-rollback-8-instr: {}", rollback.mean());
    let _ = writeln!(out, "arena-rollback-8-instr-max: {}", rollback.max);
    let _ = writeln!(
        out,
        "arena-world-bytes: {}",
        core::mem::size_of::<ArenaWorld>()
    );

    // The lossy two-peer session of scripts/ci-netplay.sh, played straight on this CPU.
    let Ok(rec) = hopkit_demo::demo_recording() else {
        exit(false)
    };
    let sources = [
        InputSource::new(InputKind::Mixed, SESSION_SEED, 2, rec),
        InputSource::new(InputKind::Random, SESSION_SEED, 2, rec),
    ];
    let session = session_hash(&aparams, &sources, SESSION_FRAMES);
    let _ = writeln!(out, "arena-session-hash: 0x{session:016x}");

    let _ = writeln!(out, "qemu-netplay {TARGET}: done");
    exit(true)
}
