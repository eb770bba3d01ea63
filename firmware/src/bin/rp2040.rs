//! hopkit on an RP2040 board (Seeed XIAO RP2040, or a Raspberry Pi Pico with one axis less): two
//! analog sticks on the ADC, four buttons, an SSD1306 128×64 OLED on I2C0, a text report on UART1.
//! Build and write the UF2: `cd firmware && cargo pico` (see docs/firmware.md, "RP2040"), then copy
//! `rp2040.uf2` to the `RPI-RP2` drive. CI runs this very image in the rp2040js emulator
//! (`scripts/ci-rp2040.sh`).
//!
//! A second board on the link cable (UART0: GP16 TX, GP17 RX, crossed, and GND) turns the demo into
//! a two-player arena match with rollback (`hopkit_demo::link`); the seats are agreed on the wire,
//! so both boards run this same image. Alone, the board plays the single-player demo.
//!
//! **Two levels.** The board plays the demo level (floor, ramps, tower, ladder, pool, turntable); held
//! down while the board powers on (or is reset), FIRE (GP3) chooses the level made of solids instead
//! (`hopkit_demo::solid_level`: the body collides with walls, stairs, a surf ramp, a low corridor),
//! until the next reset. The report's second line names the level, and the host command that
//! reproduces the run (docs/firmware.md, "The level of solids").
//!
//! The main loop sleeps (`wfe`) between its passes: a timer alarm wakes it when the next 60 Hz tick
//! is due or, while a frame is on the bus, when the I2C FIFO needs topping up
//! ([`hopkit_firmware::oled::poll_streamed`]). Nothing busy-waits on the bus.
#![no_std]
#![no_main]

#[cfg(not(target_os = "none"))]
compile_error!(
    "this binary runs on bare metal only: build it with --target (see docs/firmware.md)"
);

use hopkit_firmware::board::rp2040 as board;

use core::fmt::Write as _;
use embedded_hal::digital::InputPin as _;

use board::{
    I2cFifo, LinkUart, Markers, Sticks, TimerClock, I2C_BYTE_US, I2C_FIFO_DEPTH, I2C_HZ, LINK_BAUD,
};
use hopkit_demo::app::App;
use hopkit_demo::link::{Cable, CableState};
use hopkit_demo::seams::ButtonPins;
use hopkit_demo::solid_level::{self, SolidWorld};
use hopkit_demo::DemoRig;
use hopkit_demo::TICK_HZ;
use hopkit_firmware::oled::{self, Oled};
use rp2040_hal as hal;

use hal::adc::{Adc, AdcPin};
use hal::clocks::{init_clocks_and_plls, Clock};
use hal::fugit::RateExtU32;
use hal::gpio::{FunctionUart, Pins};
use hal::pac;
use hal::pac::interrupt;
use hal::timer::{Alarm, Instant};
use hal::uart::{DataBits, StopBits, UartConfig, UartPeripheral};

/// The second-stage bootloader: the first 256 bytes of flash, which set up execute-in-place for a
/// W25Q080-compatible QSPI flash (the Pico's, the XIAO's W25Q16 and most RP2040 boards').
#[link_section = ".boot2"]
#[used]
pub static BOOT2_FIRMWARE: [u8; 256] = rp2040_boot2::BOOT_LOADER_W25Q080;

/// The crystal on the Pico, the XIAO RP2040 and most RP2040 boards.
const XTAL_HZ: u32 = 12_000_000;
/// The report's line rate on UART1 (GP4 = TX).
const REPORT_BAUD: u32 = 115_200;
/// A report line every this many ticks (10 s); the emulator harness compares the 600- and
/// 3,600-tick lines with the host's hash of the same input.
const REPORT_EVERY: u32 = 600;
/// 10 µs at 125 MHz: the button pull-up settling before FIRE is read at power-on.
const SETTLE_CYCLES: u32 = 1_250;
/// While a frame is on the bus, wake when the FIFO has drained to this many bytes.
const FIFO_LOW_WATER: usize = 4;

type Buttons = ButtonPins<board::ButtonPin, board::ButtonPin, board::ButtonPin, board::ButtonPin>;
type LinkPins = (
    hal::gpio::Pin<hal::gpio::bank0::Gpio16, FunctionUart, hal::gpio::PullDown>,
    hal::gpio::Pin<hal::gpio::bank0::Gpio17, FunctionUart, hal::gpio::PullUp>,
);
type Link = Cable<LinkUart<UartPeripheral<hal::uart::Enabled, pac::UART0, LinkPins>>>;
type BoardApp = App<Sticks, Buttons, Oled<I2cFifo>, TimerClock, Link>;

/// The level of solids' world ([`solid_level::build`]), built once, in place, in a static: the
/// world (≈ 5 KB) is never a value on the stack. Level data the rig keeps a reference to.
// Not inlined: its stack frame (1,068 bytes measured, the brushes being made; not the world)
// stays out of `main`'s.
#[inline(never)]
fn solid_world() -> &'static SolidWorld {
    // `SolidWorld::new()` is a const-shaped value (an empty list, a zeroed grid): written straight
    // into the static's `.bss` slot, not built on the stack and copied.
    let Some(world) = cortex_m::singleton!(: SolidWorld = SolidWorld::new()) else {
        panic!("solid world already built");
    };
    solid_level::build(world);
    world
}

/// The UART1 data and flag registers, written directly: the panic report must not depend on the
/// state of the HAL object in `main`.
struct PanicUart;

impl core::fmt::Write for PanicUart {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        // SAFETY: after a panic nothing else runs; UART1 was enabled by `main` (if it was not,
        // the bytes go nowhere and the loop below still ends, the FIFO never filling).
        let uart = unsafe { &*pac::UART1::ptr() };
        for b in s.bytes() {
            let mut spins = 0u32;
            while uart.uartfr().read().txff().bit_is_set() && spins < 100_000 {
                spins += 1;
            }
            uart.uartdr().write(|w| unsafe { w.data().bits(b) });
        }
        Ok(())
    }
}

/// Panic handler: report where on UART1 (`PANIC at file:line`), stop at a breakpoint (a debugger,
/// or the emulator's harness, sees it), then stay in a hard fault.
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    match info.location() {
        Some(at) => {
            let _ = writeln!(PanicUart, "PANIC at {}:{}", at.file(), at.line());
        }
        None => {
            let _ = writeln!(PanicUart, "PANIC");
        }
    }
    cortex_m::asm::bkpt();
    cortex_m::asm::udf()
}

/// Timer alarm 0: only wakes the core (the main loop does the work); clear the interrupt.
#[interrupt]
fn TIMER_IRQ_0() {
    // SAFETY: INTR is write-1-to-clear and INTF's alarm-0 bit is only set by `schedule_at` in the
    // main loop, which cannot run while this handler does.
    let timer = unsafe { &*pac::TIMER::ptr() };
    timer.intf().modify(|_, w| w.alarm_0().clear_bit());
    timer.intr().write(|w| w.alarm_0().clear_bit_by_one());
}

/// UART0 (the link cable): move bytes between its FIFOs and the rings.
#[interrupt]
fn UART0_IRQ() {
    cortex_m::interrupt::free(board::link_uart_service);
}

#[hal::entry]
fn main() -> ! {
    let (Some(mut pac), Some(mut core)) = (pac::Peripherals::take(), pac::CorePeripherals::take())
    else {
        panic!("peripherals already taken");
    };
    let mut watchdog = hal::Watchdog::new(pac.WATCHDOG);
    // 12 MHz crystal → 125 MHz system clock, 48 MHz USB/ADC clock, 1 µs timer ticks.
    let Ok(clocks) = init_clocks_and_plls(
        XTAL_HZ,
        pac.XOSC,
        pac.CLOCKS,
        pac.PLL_SYS,
        pac.PLL_USB,
        &mut pac.RESETS,
        &mut watchdog,
    ) else {
        panic!("clock setup failed");
    };
    let sio = hal::Sio::new(pac.SIO);
    let pins = Pins::new(
        pac.IO_BANK0,
        pac.PADS_BANK0,
        sio.gpio_bank0,
        &mut pac.RESETS,
    );

    // The report: UART1, TX on GP4 (RX on GP5 is unused).
    let uart_pins = (
        pins.gpio4.into_function::<FunctionUart>(),
        pins.gpio5.into_function::<FunctionUart>(),
    );
    let Ok(mut report) = UartPeripheral::new(pac.UART1, uart_pins, &mut pac.RESETS).enable(
        UartConfig::new(REPORT_BAUD.Hz(), DataBits::Eight, None, StopBits::One),
        clocks.peripheral_clock.freq(),
    ) else {
        panic!("UART1 setup failed");
    };

    // The link cable: UART0, TX on GP16, RX on GP17 (pulled up: an unplugged cable is an idle
    // line, not a stream of breaks).
    let link_pins: LinkPins = (
        pins.gpio16.into_function::<FunctionUart>(),
        pins.gpio17.reconfigure(),
    );
    let Ok(link_uart) = UartPeripheral::new(pac.UART0, link_pins, &mut pac.RESETS).enable(
        UartConfig::new(LINK_BAUD.Hz(), DataBits::Eight, None, StopBits::One),
        clocks.peripheral_clock.freq(),
    ) else {
        panic!("UART0 setup failed");
    };
    // The nonces' first entropy: the ring oscillator's random bit (the timer adds more as the
    // loop runs and bytes arrive).
    let mut seed = 0u64;
    for _ in 0..64 {
        seed = seed << 1 | u64::from(pac.ROSC.randombit().read().randombit().bit());
    }

    // Sticks: ADC channels 0–3 on GP26–GP29 (left X, left Y, right X, right Y).
    let (Ok(lx), Ok(ly), Ok(rx), Ok(ry)) = (
        AdcPin::new(pins.gpio26.into_floating_input().into_dyn_pin()),
        AdcPin::new(pins.gpio27.into_floating_input().into_dyn_pin()),
        AdcPin::new(pins.gpio28.into_floating_input().into_dyn_pin()),
        AdcPin::new(pins.gpio29.into_floating_input().into_dyn_pin()),
    ) else {
        panic!("GP26–GP29 are the ADC pins");
    };
    let sticks = Sticks::new(
        Adc::new(pac.ADC, &mut pac.RESETS),
        [lx, ly, rx, ry],
        pins.gpio19.into_push_pull_output().into_dyn_pin(),
    );
    let mut markers = Markers::new(
        pins.gpio18.into_push_pull_output().into_dyn_pin(),
        pins.gpio20.into_push_pull_output().into_dyn_pin(),
        pins.gpio21.into_push_pull_output().into_dyn_pin(),
    );

    // Buttons to ground, internal pull-ups: pressed reads low. FIRE held at power-on chooses the
    // level of solids (read once, after the pull-up has had 10 µs to settle).
    let mut fire = pins.gpio3.into_pull_up_input();
    cortex_m::asm::delay(SETTLE_CYCLES);
    let solids = matches!(fire.is_low(), Ok(true));
    let buttons = ButtonPins::new(
        pins.gpio2.into_pull_up_input().into_dyn_pin(),
        fire.into_dyn_pin(),
        pins.gpio6.into_pull_up_input().into_dyn_pin(),
        pins.gpio7.into_pull_up_input().into_dyn_pin(),
    );

    // SSD1306 on I2C0 (GP0 = SDA, GP1 = SCL) at 400 kHz: init by blocking writes, frames through
    // the FIFO.
    let i2c = hal::I2C::i2c0(
        pac.I2C0,
        pins.gpio0.reconfigure(),
        pins.gpio1.reconfigure(),
        I2C_HZ.Hz(),
        &mut pac.RESETS,
        clocks.system_clock.freq(),
    );
    let mut display = Oled::new(I2cFifo::new(i2c, oled::ADDRESS), oled::ADDRESS);
    let display_ok = display.init().is_ok();

    // 60 Hz ticks from the 1 MHz timer; alarm 0 wakes the core.
    let mut timer = hal::Timer::new(pac.TIMER, &mut pac.RESETS, &clocks);
    let Some(mut alarm) = timer.alarm_0() else {
        panic!("alarm 0 taken");
    };
    alarm.enable_interrupt();
    // SAFETY: the timer handler only clears its own interrupt; the UART0 handler shares only the
    // link's rings, behind a critical section.
    unsafe {
        pac::NVIC::unmask(pac::Interrupt::TIMER_IRQ_0);
        pac::NVIC::unmask(pac::Interrupt::UART0_IRQ);
    }
    // Any interrupt becoming pending ends a `wfe`, so one that fires between the loop's check
    // and its `wfe` cannot be slept through.
    core.SCB.set_sevonpend();

    let _ = writeln!(
        report,
        "hopkit rp2040: {} Hz fixed tick, core {} Hz, I2C0 {} Hz, display {}",
        TICK_HZ,
        clocks.system_clock.freq().to_Hz(),
        I2C_HZ,
        if display_ok {
            "ok"
        } else {
            "did not answer at 0x3C (running without it)"
        }
    );

    let clock = TimerClock(timer);
    let link = Cable::new(LinkUart::new(link_uart), seed);
    let rig = if solids {
        DemoRig::new().with_solids(solid_world())
    } else {
        DemoRig::new()
    };
    let Some(app) = cortex_m::singleton!(: BoardApp =
        App::with_link(sticks, buttons, display, clock, rig, link))
    else {
        panic!("app already created");
    };
    let _ = writeln!(
        report,
        "level: {} (host: {})",
        if solids { "solid" } else { "full" },
        if solids {
            "hopkit-sim hash --gamepad FILE --level solid"
        } else {
            "hopkit-sim hash --sticks FILE"
        }
    );
    let _ = writeln!(
        report,
        "link: static RAM {} B (the cable {} B in the app's static, its UART rings {} B), UART0 {} baud on GP16/GP17",
        core::mem::size_of::<Link>() + core::mem::size_of_val(&board::LINK_RINGS),
        core::mem::size_of::<Link>(),
        core::mem::size_of_val(&board::LINK_RINGS),
        LINK_BAUD
    );
    let mut next_report = REPORT_EVERY;
    let mut display_aborts = 0u32;
    let mut linked = CableState::Alone;
    let mut reported_check = 0u32;
    let mut reported_desync = false;
    loop {
        let now = app.clock().now_us();
        app.link_mut().stir(now);
        if let Err(oled::Aborted) = oled::poll_streamed(app, |phase| markers.enter(phase)) {
            display_aborts = display_aborts.saturating_add(1);
        }
        report_link(
            &mut report,
            app,
            &mut linked,
            &mut reported_check,
            &mut reported_desync,
        );
        let tick = app.rig().tick_count();
        if tick >= next_report {
            next_report = tick.saturating_add(REPORT_EVERY);
            let stats = app.stats();
            let _ = writeln!(
                report,
                "tick {} state-hash: 0x{:016x} frames {} dropped-ns {} max-ticks-per-poll {} display-aborts {}",
                tick,
                app.state_hash(),
                stats.frames,
                stats.dropped_ns,
                stats.max_ticks_per_poll,
                display_aborts
            );
        }

        // Sleep until the next tick is due, or until the FIFO has drained to its low-water mark
        // while a frame is still being queued.
        let now = app.clock().now_us();
        let mut wake = app.next_tick_due_ns().map_or(now, |due| due.div_ceil(1000));
        if app.display().flushing() {
            let queued = I2C_FIFO_DEPTH.min(app.display().bus().queued()) as u64;
            wake = wake.min(now + queued.saturating_sub(FIFO_LOW_WATER as u64) * I2C_BYTE_US);
        }
        if wake > now {
            // A time already past fires the alarm at once (the HAL forces its interrupt). The
            // interrupt that ends a sleep also leaves the event register set, so the pass after a
            // wake-up runs twice; the second finds nothing to do and sleeps (a few hundred cycles).
            let _ = alarm.schedule_at(Instant::from_ticks(wake));
            cortex_m::asm::wfe();
        }
    }
}

/// The link's report lines: a match starting (its seat, and how many inputs the board had read
/// before its frame 0, so the host can replay it), its state hash every `REPORT_EVERY` confirmed
/// frames with its rollback counters, a desync, a lost link.
fn report_link(
    out: &mut impl core::fmt::Write,
    app: &BoardApp,
    linked: &mut CableState,
    reported_check: &mut u32,
    reported_desync: &mut bool,
) {
    let cable = app.link();
    let stats = cable.stats();
    let s = cable.session_stats();
    let state = cable.state();
    if state != *linked {
        *linked = state;
        match state {
            CableState::Playing => {
                *reported_check = 0;
                *reported_desync = false;
                let _ = writeln!(
                    out,
                    "link: match {} up, seat {} of 2, frame 0 at input {}",
                    stats.matches,
                    cable.session().seat() + 1,
                    app.rig().tick_count().saturating_add(stats.played_before)
                );
            }
            CableState::Alone => {
                let _ = writeln!(
                    out,
                    "link: lost at frame {} of match {}, back to the demo at tick {}",
                    cable.session().frame(),
                    stats.matches,
                    app.rig().tick_count()
                );
            }
        }
    }
    if state != CableState::Playing {
        return;
    }
    if let Some((frame, hash)) = cable.session().latest_check() {
        if frame % REPORT_EVERY == 0 && frame > *reported_check {
            *reported_check = frame;
            let _ = writeln!(
                out,
                "link frame {} state-hash: 0x{:016x} seat {} rollbacks {} deepest {} resimulated {} stalls {} skips {} checks {} desyncs {} packets {} dropped {} rx-lost {} unsent {} dropped-ns {} max-ticks-per-poll {}",
                frame,
                hash,
                cable.session().seat() + 1,
                s.rollbacks,
                s.deepest,
                s.resimulated,
                s.stalls,
                s.skips,
                s.checks_compared,
                s.desyncs,
                stats.packets,
                stats.dropped,
                cable.port().rx_lost(),
                stats.unsent,
                app.stats().dropped_ns,
                app.stats().max_ticks_per_poll
            );
        }
    }
    if let (Some((frame, mine, theirs)), false) = (s.first_desync, *reported_desync) {
        *reported_desync = true;
        let _ = writeln!(
            out,
            "link: DESYNC at frame {frame}: this board 0x{mine:016x}, the other 0x{theirs:016x}"
        );
    }
}
