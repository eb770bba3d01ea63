//! The scripted demo on CPUs beyond Cortex-M, under QEMU: RISC-V (`riscv32imac`, soft-float like
//! an ESP32-C3 or the RP2350's Hazard3 cores; `riscv32imafc`, hardware single precision) on
//! `-machine virt`, and AArch64 (`aarch64-unknown-none`, a Cortex-A53 on `-machine virt`, the
//! class of CPU consoles and phones use). Output and exit go through semihosting.
//!
//! Prints `state-hash: 0x…` after 600 ticks and `state-hash-3600: 0x…` after 3,600, which must
//! equal the host's (`hopkit-sim hash --scene demo --ticks N`; `scripts/ci-cpus.sh` compares),
//! and `collision-hash: 0x…` (the collision scenarios, `hopkit_demo::collision::collision_hash`),
//! and, under `-icount shift=0`, instruction counts:
//! - `movement-kernel-ground-instr`: one planar ground movement step (friction + accelerate,
//!   cached wish), the mean over many with the empty loop subtracted, as `qemu-bench` measures it;
//! - `demo-tick-instr` / `demo-tick-instr-max`: one `DemoRig::tick` of the scripted demo.
//!
//! Counting: the RISC-V `minstret` CSR, and the AArch64 generic timer (`CNTVCT_EL0`), which under
//! `-icount shift=0` advances with the instruction count; both are calibrated at start on a loop of
//! a known instruction count, as the Cortex-M images calibrate SysTick.
#![no_std]
#![no_main]

#[cfg(not(target_os = "none"))]
compile_error!("this binary runs on bare metal only: build it with --target (scripts/qemu.sh)");

use core::hint::black_box;
use hopkit::hash::{format_hash_line, HASH_LINE_LEN};
use hopkit::math::Vec2;
use hopkit::movement::{planar_velocity_tick, MoveParams, WishDir};
use hopkit_demo::{scripted_hash, scripted_raw, DemoRig};
use semihosting::{println, process};

const TICKS: u32 = 600;
const LONG_TICKS: u32 = 3600;
const REPS: u32 = 2_000;

#[cfg(target_arch = "riscv32")]
const MACHINE: &str = if cfg!(hopkit_riscv_f) {
    "virt (RISC-V, riscv32imafc-unknown-none-elf)"
} else {
    "virt (RISC-V, riscv32imac-unknown-none-elf)"
};
#[cfg(target_arch = "aarch64")]
const MACHINE: &str = "virt (Cortex-A53, aarch64-unknown-none)";

#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    println!("PANIC: {info}");
    process::exit(1)
}

// ---- per-architecture start-up and counter -----------------------------------------------------

#[cfg(target_arch = "riscv32")]
#[riscv_rt::entry]
fn riscv_main() -> ! {
    run()
}

/// Retired instructions (low 32 bits of `minstret`).
#[cfg(target_arch = "riscv32")]
#[inline(always)]
fn counter() -> u64 {
    let n: u32;
    // SAFETY: reading a machine-mode CSR; the image runs in machine mode (`-bios none`).
    unsafe { core::arch::asm!("csrr {0}, minstret", out(reg) n, options(nomem, nostack)) };
    n as u64
}

/// Exactly `2 × n` instructions.
#[cfg(target_arch = "riscv32")]
#[inline(never)]
fn known_loop(n: u32) {
    // SAFETY: a register-only countdown loop.
    unsafe {
        core::arch::asm!(
            "1:",
            "addi {0}, {0}, -1",
            "bnez {0}, 1b",
            inout(reg) n => _,
            options(nomem, nostack),
        )
    };
}

#[cfg(target_arch = "aarch64")]
core::arch::global_asm!(
    ".section .text.boot, \"ax\"",
    ".global _start",
    "_start:",
    // Only core 0 runs; the others (if any) sleep.
    "    mrs x0, mpidr_el1",
    "    and x0, x0, #3",
    "    cbnz x0, 3f",
    "    ldr x0, =__stack_top",
    "    mov sp, x0",
    // Floating point and SIMD at EL1 (CPACR_EL1.FPEN = 0b11): the ABI uses them.
    "    mov x0, #(3 << 20)",
    "    msr cpacr_el1, x0",
    "    isb",
    // Zero .bss.
    "    ldr x0, =__bss_start",
    "    ldr x1, =__bss_end",
    "1:  cmp x0, x1",
    "    b.hs 2f",
    "    str xzr, [x0], #8",
    "    b 1b",
    "2:  bl aarch64_main",
    "3:  wfe",
    "    b 3b",
);

#[cfg(target_arch = "aarch64")]
#[no_mangle]
extern "C" fn aarch64_main() -> ! {
    run()
}

/// The generic timer's virtual count.
#[cfg(target_arch = "aarch64")]
#[inline(always)]
fn counter() -> u64 {
    let n: u64;
    // SAFETY: reading the virtual count register, allowed at EL1.
    unsafe { core::arch::asm!("isb", "mrs {0}, cntvct_el0", out(reg) n, options(nomem, nostack)) };
    n
}

/// Exactly `2 × n` instructions.
#[cfg(target_arch = "aarch64")]
#[inline(never)]
fn known_loop(n: u32) {
    // SAFETY: a register-only countdown loop.
    unsafe {
        core::arch::asm!(
            "1:",
            "subs {0:w}, {0:w}, #1",
            "b.ne 1b",
            inout(reg) n => _,
            options(nomem, nostack),
        )
    };
}

// ---- portable part ------------------------------------------------------------------------------

/// Counter ticks → instructions, calibrated on [`known_loop`] (parts per million).
struct Calibration {
    instr_per_mega_tick: u64,
}

impl Calibration {
    fn measure() -> Self {
        const N: u32 = 200_000;
        let t0 = counter();
        known_loop(N);
        let t1 = counter();
        let ticks = t1.wrapping_sub(t0).max(1);
        Calibration {
            instr_per_mega_tick: 2 * N as u64 * 1_000_000 / ticks,
        }
    }
    fn instructions(&self, ticks: u64) -> u64 {
        ticks * self.instr_per_mega_tick / 1_000_000
    }
}

/// Mean instructions of `f(i)` over `REPS` calls, minus the same loop around nothing.
fn per_call(cal: &Calibration, mut f: impl FnMut(u32)) -> u64 {
    let t0 = counter();
    for i in 0..REPS {
        black_box(i);
    }
    let empty = counter().wrapping_sub(t0);
    let t0 = counter();
    for i in 0..REPS {
        f(black_box(i));
    }
    let full = counter().wrapping_sub(t0);
    cal.instructions(full.saturating_sub(empty)) / REPS as u64
}

fn run() -> ! {
    println!("hopkit cpu-demo: {MACHINE}, {TICKS} and {LONG_TICKS} ticks");
    let cal = Calibration::measure();
    println!("instr-per-mega-tick: {}", cal.instr_per_mega_tick);

    let mut ok = true;
    let mut rig = DemoRig::new();
    let mut tick_total = 0u64;
    let mut tick_max = 0u64;
    let mut buf = [0u8; HASH_LINE_LEN];
    for t in 0..LONG_TICKS {
        let raw = scripted_raw(t);
        let t0 = counter();
        rig.tick(&raw);
        let spent = cal.instructions(counter().wrapping_sub(t0));
        if t < TICKS {
            tick_total += spent;
            tick_max = tick_max.max(spent);
        }
        if t + 1 == TICKS {
            println!("{}", format_hash_line(rig.state_hash(), &mut buf));
        }
    }
    let long = rig.state_hash();
    println!("state-hash-{LONG_TICKS}: 0x{long:016x}");
    if long != scripted_hash(LONG_TICKS) {
        println!("FAIL: the rig and scripted_hash({LONG_TICKS}) disagree");
        ok = false;
    }
    // Every collision scenario (issue 34 §4: the body among solids), every tick hashed: the
    // host's `collision-hash` (scripts/ci-cpus.sh compares).
    println!(
        "collision-hash: 0x{:016x}",
        hopkit_demo::collision::collision_hash()
    );
    println!("demo-tick-instr: {}", tick_total / TICKS as u64);
    println!("demo-tick-instr-max: {tick_max}");

    // One ground movement kernel step, exactly as qemu-bench measures it on Cortex-M: the seed
    // preset at 60 Hz, a running character turning between two cached world wishes.
    let params = black_box(MoveParams::seed());
    let dt = 1.0 / 60.0;
    let wish = WishDir::from_world(Vec2::new(0.6, -0.8));
    let other = WishDir::from_world(Vec2::new(-0.8, -0.6));
    let mut v = Vec2::new(6.0, -4.0);
    let ground = per_call(&cal, |i| {
        let turn = if i & 64 == 0 { wish } else { other };
        v = planar_velocity_tick(v, turn, &params, true, dt);
    });
    black_box(v);
    println!("movement-kernel-ground-instr: {ground}");
    println!("cpu-demo: {}", if ok { "PASS" } else { "FAIL" });
    process::exit(if ok { 0 } else { 1 })
}
