//! Runtime bits shared by the QEMU images (the `qemu-*` binaries, whose preamble is
//! [`qemu_image!`](crate::qemu_image)): semihosting output and exit, the instruction counter, and
//! stack high-water measurement.
//!
//! Machines: `mps2-an386` (Cortex-M4F, thumbv7em-none-eabihf) and `microbit` (nRF51, Cortex-M0,
//! thumbv6m-none-eabi). Run with `-semihosting-config enable=on,target=native` so the prints reach
//! the host's stdout and [`exit`] sets QEMU's exit status (0 on success, 1 on failure).

use core::fmt::Write as _;
use cortex_m::peripheral::syst::SystClkSource;
use cortex_m::peripheral::SYST;
use cortex_m_semihosting::{debug, hio};

/// Which QEMU machine this image is for.
pub const MACHINE: &str = if cfg!(hopkit_armv6m) {
    "microbit (Cortex-M0, thumbv6m-none-eabi)"
} else if cfg!(hopkit_armv8m) {
    "mps2-an505 (Cortex-M33, thumbv8m.main-none-eabihf)"
} else {
    "mps2-an386 (Cortex-M4F, thumbv7em-none-eabihf)"
};

/// Start of data RAM (memory/*.x).
pub const RAM_ORIGIN: u32 = if cfg!(hopkit_armv8m) {
    0x3800_0000
} else {
    0x2000_0000
};

/// Short target name for output lines.
pub const TARGET: &str = if cfg!(hopkit_armv6m) {
    "thumbv6m"
} else if cfg!(hopkit_armv8m) {
    "thumbv8m.main"
} else {
    "thumbv7em"
};

/// Semihosting stdout with `core::fmt` support; output errors are ignored (nothing to tell them to).
pub struct Out(Option<hio::HostStream>);

impl Out {
    /// Open the host's stdout.
    pub fn new() -> Self {
        Out(hio::hstdout().ok())
    }
}

impl core::fmt::Write for Out {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        if let Some(h) = self.0.as_mut() {
            let _ = h.write_all(s.as_bytes());
        }
        Ok(())
    }
}

/// Leave QEMU with status 0 (`ok`) or 1.
pub fn exit(ok: bool) -> ! {
    debug::exit(if ok {
        debug::EXIT_SUCCESS
    } else {
        debug::EXIT_FAILURE
    });
    // Not reached under QEMU; on a debugger without semihosting exit, park.
    loop {
        cortex_m::asm::bkpt();
    }
}

/// Print the panic and exit with failure (used by the images' panic handlers).
pub fn panic_exit(info: &core::panic::PanicInfo) -> ! {
    let mut out = Out::new();
    let _ = writeln!(out, "PANIC: {info}");
    exit(false)
}

/// Counts guest instructions under `qemu-system-arm -icount shift=0`.
///
/// With `-icount shift=0` QEMU advances its virtual clock by exactly 1 ns per executed guest
/// instruction, and SysTick (clocked from the core clock: 25 MHz on mps2-an386, 16 MHz on microbit)
/// counts that virtual time. So SysTick ticks × (instructions per tick) = instructions. The ratio is
/// not assumed but measured at start-up on a loop with a known instruction count
/// ([`Counter::calibrate`]). Spans are read without interrupts: the 24-bit down-counter is read
/// before and after and subtracted modulo 2^24, so one span must stay under 2^24 ticks
/// (≈ 671 M instructions on mps2-an386, ≈ 1 G on microbit) — every span measured here is far shorter.
pub struct Counter {
    /// Instructions per 1000 SysTick ticks (from calibration).
    instr_per_kilotick: u64,
    /// Ticks a `start`/`stop` pair costs on its own.
    overhead_ticks: u32,
}

/// A started span.
#[derive(Clone, Copy)]
pub struct Span(u32);

const RELOAD: u32 = 0x00FF_FFFF;

impl Counter {
    /// Start SysTick free-running from the core clock, then calibrate.
    pub fn new(mut syst: SYST) -> Self {
        syst.set_clock_source(SystClkSource::Core);
        syst.set_reload(RELOAD);
        syst.clear_current();
        syst.disable_interrupt();
        syst.enable_counter();
        let mut c = Counter {
            instr_per_kilotick: 1000,
            overhead_ticks: 0,
        };
        c.calibrate();
        c
    }

    /// Start a span (read SysTick's current value).
    #[inline(always)]
    pub fn start(&self) -> Span {
        Span(SYST::get_current())
    }

    /// SysTick ticks since `span` started, minus the measurement's own overhead.
    #[inline(always)]
    pub fn stop_ticks(&self, span: Span) -> u32 {
        let now = SYST::get_current();
        let raw = span.0.wrapping_sub(now) & RELOAD;
        raw.saturating_sub(self.overhead_ticks)
    }

    /// Convert SysTick ticks to instructions.
    pub fn instructions(&self, ticks: u64) -> u64 {
        ticks * self.instr_per_kilotick / 1000
    }

    /// Instructions per SysTick tick × 1000.
    pub fn instr_per_kilotick(&self) -> u64 {
        self.instr_per_kilotick
    }

    /// Time a loop of exactly `2 × n` instructions (`subs` + `bne`) and derive the ratio.
    fn calibrate(&mut self) {
        // Overhead of an empty span (tiny; averaged).
        let mut total = 0u32;
        for _ in 0..64 {
            let s = self.start();
            total += self.stop_ticks(s);
        }
        let overhead = total / 64;
        const N: u32 = 1_000_000;
        let s = self.start();
        known_loop(N);
        let ticks = self.stop_ticks(s).saturating_sub(overhead).max(1);
        self.instr_per_kilotick = (2 * N as u64) * 1000 / ticks as u64;
        self.overhead_ticks = overhead;
    }
}

/// Exactly `2 × n` instructions.
#[inline(never)]
fn known_loop(n: u32) {
    // SAFETY: a register-only countdown loop; touches no memory and no other register.
    unsafe {
        core::arch::asm!(
            "1:",
            "subs {0}, {0}, #1",
            "bne 1b",
            inout(reg) n => _,
            options(nomem, nostack),
        );
    }
}

/// Bytes of stack used so far (deepest point since reset), from the `paint-stack` pattern that
/// cortex-m-rt wrote between `_stack_end` and `_stack_start` before `main`.
pub fn stack_high_water() -> u32 {
    extern "C" {
        static _stack_start: u32;
        static _stack_end: u32;
    }
    // SAFETY: only the addresses of the linker symbols are taken; the words between them are
    // plain RAM owned by the stack, read with volatile reads.
    unsafe {
        let top = core::ptr::addr_of!(_stack_start) as usize;
        let mut p = core::ptr::addr_of!(_stack_end) as usize;
        while p < top && core::ptr::read_volatile(p as *const u32) == 0xCCCC_CCCC {
            p += 4;
        }
        (top - p) as u32
    }
}

/// RAM and stack limits: (static RAM end = stack bottom, stack top).
pub fn stack_bounds() -> (u32, u32) {
    extern "C" {
        static _stack_start: u32;
        static _stack_end: u32;
    }
    (
        core::ptr::addr_of!(_stack_end) as u32,
        core::ptr::addr_of!(_stack_start) as u32,
    )
}

/// Mean and max instructions of `f()` measured span by span over `n` calls.
pub struct Tally {
    total: u64,
    /// The largest span, instructions.
    pub max: u64,
    n: u64,
}

impl Tally {
    /// No spans yet.
    pub const fn new() -> Self {
        Tally {
            total: 0,
            max: 0,
            n: 0,
        }
    }
    /// Count one span of `ticks` counter ticks.
    pub fn add(&mut self, c: &Counter, ticks: u32) {
        let i = c.instructions(ticks as u64);
        self.total += i;
        self.max = self.max.max(i);
        self.n += 1;
    }
    /// The mean span, instructions (0 before the first).
    pub fn mean(&self) -> u64 {
        self.total / self.n.max(1)
    }
}
