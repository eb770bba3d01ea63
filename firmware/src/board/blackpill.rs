//! The STM32F411 "Black Pill" board layer: the seams implemented with `stm32f4xx-hal` 0.23.
//! Used by `src/bin/blackpill.rs`; see docs/firmware.md for the wiring.

use hopkit_demo::seams::{StickSample, StickSource, TickClock};
use stm32f4xx_hal::adc::config::SampleTime;
use stm32f4xx_hal::adc::Adc;
use stm32f4xx_hal::gpio::{Analog, PA1, PA2, PA3, PA4};
use stm32f4xx_hal::pac::{ADC1, DWT};

/// ADC sample time per channel: 144 ADC clocks at 25 MHz ≈ 6 µs, plenty for a 10 kΩ stick
/// potentiometer; four conversions take ≈ 25 µs per tick.
const SAMPLE_TIME: SampleTime = SampleTime::Cycles_144;

/// Both thumbsticks on ADC1, converted one channel at a time with the HAL's blocking API
/// (`embedded-hal` 1.0 has no ADC trait).
pub struct Sticks {
    adc: Adc<ADC1>,
    left_x: PA1<Analog>,
    left_y: PA2<Analog>,
    right_x: PA3<Analog>,
    right_y: PA4<Analog>,
}

impl Sticks {
    /// Take the ADC (12-bit) and the four analog pins.
    pub fn new(
        adc: Adc<ADC1>,
        left_x: PA1<Analog>,
        left_y: PA2<Analog>,
        right_x: PA3<Analog>,
        right_y: PA4<Analog>,
    ) -> Self {
        Sticks {
            adc,
            left_x,
            left_y,
            right_x,
            right_y,
        }
    }
}

impl StickSource for Sticks {
    fn read_sticks(&mut self, _tick: u32) -> StickSample {
        StickSample {
            left_x: self.adc.convert(&self.left_x, SAMPLE_TIME),
            left_y: self.adc.convert(&self.left_y, SAMPLE_TIME),
            right_x: self.adc.convert(&self.right_x, SAMPLE_TIME),
            right_y: self.adc.convert(&self.right_y, SAMPLE_TIME),
            adc_max: hopkit_demo::ADC_MAX,
        }
    }
}

/// Monotonic nanoseconds from the DWT cycle counter, extended to 64 bits.
///
/// The 32-bit counter wraps every 43 s at 100 MHz; every read adds the wrapped difference since the
/// previous read, so reads must come at least that often (the main loop polls continuously).
pub struct DwtClock {
    last: u32,
    cycles: u64,
    hz: u64,
}

impl DwtClock {
    /// A clock for a core running at `sysclk_hz` (the DWT cycle counter must be enabled).
    pub fn new(sysclk_hz: u32) -> Self {
        DwtClock {
            last: DWT::cycle_count(),
            cycles: 0,
            hz: sysclk_hz.max(1) as u64,
        }
    }
}

impl TickClock for DwtClock {
    fn now_ns(&mut self) -> u64 {
        let now = DWT::cycle_count();
        self.cycles += now.wrapping_sub(self.last) as u64;
        self.last = now;
        // Exact integer conversion without u128: whole seconds, then the remainder (< hz ≤ 2^32,
        // so `rem * 1e9` < 2^62).
        let secs = self.cycles / self.hz;
        let rem = self.cycles % self.hz;
        secs * 1_000_000_000 + rem * 1_000_000_000 / self.hz
    }
}
