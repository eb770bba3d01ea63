//! hopkit on the STM32F411 "Black Pill": two analog sticks on ADC1, four buttons, an SSD1306
//! 128×64 OLED on I2C1, defmt logging over RTT. Flash and run with `probe-rs`:
//! `cd firmware && cargo run --release --features board --bin blackpill` (target, size profile,
//! flip-link linker and probe-rs runner from firmware/.cargo/config.toml). Wiring and flashing: docs/firmware.md.
#![no_std]
#![no_main]

#[cfg(not(target_os = "none"))]
compile_error!(
    "this binary runs on bare metal only: build it with --target (see docs/firmware.md)"
);

use hopkit_firmware::board::blackpill as board;

use cortex_m_rt::entry;
use defmt_rtt as _;
use hopkit_demo::app::App;
use hopkit_demo::seams::ButtonPins;
use hopkit_demo::TICK_HZ;
use hopkit_firmware::oled::{self, Oled};
use stm32f4xx_hal::adc::config::{AdcConfig, Clock};
use stm32f4xx_hal::adc::Adc;
use stm32f4xx_hal::gpio::{Input, PB12, PB13, PB14, PB15};
use stm32f4xx_hal::i2c::I2c;
use stm32f4xx_hal::pac;
use stm32f4xx_hal::prelude::*;
use stm32f4xx_hal::rcc::Config;

/// The SSD1306 through hopkit's own page-wise driver (`hopkit_firmware::oled`): the init bytes
/// and the loop body are the ones `firmware/tests/integration/oled.rs` checks on the host.
type Display = Oled<I2c<pac::I2C1>>;
type Buttons = ButtonPins<PB12<Input>, PB13<Input>, PB14<Input>, PB15<Input>>;
/// The whole application state, kept in a static so that the size report's static RAM
/// (`.data + .bss`) includes it: scene, pipeline, frame buffer and drivers.
type BoardApp = App<board::Sticks, Buttons, Display, board::DwtClock>;

/// Log a status line every this many ticks (once a second).
const LOG_EVERY: u32 = TICK_HZ;

/// Panic handler: log where over RTT, then stop with an undefined instruction (a HardFault), which
/// `probe-rs run` reports with a backtrace, as `panic-probe` does. It logs the location only:
/// formatting the panic message would pull `core::fmt` (≈ 2.5 KiB of flash) into the image, and
/// the core's per-tick path has no reachable panic (see docs/firmware.md, "panic-check").
#[panic_handler]
fn panic(info: &core::panic::PanicInfo) -> ! {
    match info.location() {
        Some(at) => defmt::error!("panic at {=str}:{=u32}", at.file(), at.line()),
        None => defmt::error!("panic"),
    }
    cortex_m::asm::udf()
}

#[entry]
fn main() -> ! {
    let (Some(dp), Some(mut cp)) = (pac::Peripherals::take(), cortex_m::Peripherals::take()) else {
        defmt::panic!("peripherals already taken");
    };
    // 25 MHz crystal on the Black Pill → 100 MHz core (the F411's maximum), APB2 100 MHz.
    let mut rcc = dp.RCC.freeze(Config::hse(25.MHz()).sysclk(100.MHz()));
    let gpioa = dp.GPIOA.split(&mut rcc);
    let gpiob = dp.GPIOB.split(&mut rcc);

    // Sticks: ADC1 channels 1–4 on PA1–PA4. ADC clock = PCLK2 / 4 = 25 MHz (≤ 36 MHz allowed).
    let adc = Adc::new(
        dp.ADC1,
        true,
        AdcConfig::default().clock(Clock::Pclk2_div_4),
        &mut rcc,
    );
    let sticks = board::Sticks::new(
        adc,
        gpioa.pa1.into_analog(),
        gpioa.pa2.into_analog(),
        gpioa.pa3.into_analog(),
        gpioa.pa4.into_analog(),
    );

    // Buttons to ground, internal pull-ups: pressed reads low.
    let buttons = ButtonPins::new(
        gpiob.pb12.into_pull_up_input(),
        gpiob.pb13.into_pull_up_input(),
        gpiob.pb14.into_pull_up_input(),
        gpiob.pb15.into_pull_up_input(),
    );

    // SSD1306 on I2C1 (PB6 = SCL, PB7 = SDA) at 400 kHz: draw into RAM, send a page per loop pass.
    let i2c = I2c::new(dp.I2C1, (gpiob.pb6, gpiob.pb7), 400.kHz(), &mut rcc);
    let mut display = Oled::new(i2c, oled::ADDRESS);
    if display.init().is_err() {
        defmt::warn!("SSD1306 did not answer on I2C1 (0x3C); running without a display");
    }

    cp.DCB.enable_trace();
    cp.DWT.enable_cycle_counter();
    let clock = board::DwtClock::new(rcc.clocks.sysclk().raw());

    // With the feature `solids` (`cargo board-solids`: its own flash row, over the default
    // image's 64 KiB; docs/firmware.md, "The level of solids"), the image's level is the level of
    // solids, its world built once in place in a static.
    #[cfg(feature = "solids")]
    let rig = {
        use hopkit_demo::solid_level::{build, SolidWorld};
        let Some(world) = cortex_m::singleton!(: SolidWorld = SolidWorld::new()) else {
            defmt::panic!("solid world already built");
        };
        build(world);
        hopkit_demo::DemoRig::new().with_solids(world)
    };
    #[cfg(not(feature = "solids"))]
    let rig = hopkit_demo::DemoRig::new();
    let Some(app) =
        cortex_m::singleton!(: BoardApp = App::with_rig(sticks, buttons, display, clock, rig))
    else {
        defmt::panic!("app already created");
    };
    defmt::info!(
        "hopkit blackpill: {} Hz fixed tick, core {} Hz",
        TICK_HZ,
        rcc.clocks.sysclk().raw()
    );
    // The level this image plays and the host command that reproduces it (as the RP2040's report).
    #[cfg(feature = "solids")]
    defmt::info!("level: solid (host: hopkit-sim hash --gamepad FILE --level solid)");
    #[cfg(not(feature = "solids"))]
    defmt::info!("level: plain (host: hopkit-sim hash --gamepad FILE --level plain)");
    let mut next_log = LOG_EVERY;
    let mut i2c_errors = 0u32;
    loop {
        // Due ticks, then at most one page of the frame in flight (≈ 3 ms): ticks never wait for
        // a whole frame (≈ 24 ms at 400 kHz).
        let poll = match oled::poll_paged(app) {
            Ok(p) => p,
            Err(_) => {
                i2c_errors = i2c_errors.saturating_add(1);
                if i2c_errors.is_power_of_two() {
                    defmt::warn!("display write failed ({=u32} so far)", i2c_errors);
                }
                continue;
            }
        };
        if poll.dropped_ns > 0 {
            defmt::warn!(
                "main loop stalled: dropped {=u64} us",
                poll.dropped_ns / 1000
            );
        }
        if poll.tick >= next_log {
            next_log = poll.tick.saturating_add(LOG_EVERY);
            defmt::info!(
                "tick {=u32} hash {=u64:#018x} {}",
                poll.tick,
                app.state_hash(),
                app.stats()
            );
        }
    }
}
