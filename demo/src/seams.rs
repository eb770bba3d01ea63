//! The small seams the application is generic over, and the implementations every board shares.
//!
//! | seam | what it gives | board (STM32F411) | QEMU image / tests |
//! |---|---|---|---|
//! | [`StickSource`] | four raw ADC samples per tick | ADC1 via the HAL's own API | [`Scripted`] |
//! | [`ButtonSource`] | the button bitmask per tick | [`ButtonPins`] over `embedded-hal` 1.0 `InputPin`s | [`Scripted`], or [`ButtonPins`] over mock pins |
//! | [`TickClock`] | monotonic nanoseconds | DWT cycle counter | [`StepClock`] |
//! | `DrawTarget<Color = BinaryColor>` | the display | SSD1306 buffered over I2C1 | [`crate::counting::PixelCounter`] |
//!
//! `embedded-hal` 1.0 has no ADC trait, so the stick seam is this crate's own: the board layer reads
//! the ADC with its HAL and hands raw counts over; calibration, dead zones and filtering happen in the
//! core's stick pipeline (inside the demo rig), identically on every board.

use crate::{buttons, scripted_raw, ADC_MAX, TICK_HZ};
use embedded_hal::digital::InputPin;
use hopkit::stick::RawSticks;

/// Raw analog samples of both thumbsticks, as ADC counts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct StickSample {
    /// Left stick X, counts in `0..=adc_max`.
    pub left_x: u16,
    /// Left stick Y, counts in `0..=adc_max`.
    pub left_y: u16,
    /// Right stick X, counts in `0..=adc_max`.
    pub right_x: u16,
    /// Right stick Y, counts in `0..=adc_max`.
    pub right_y: u16,
    /// The ADC's full-scale count (4095 for a 12-bit ADC).
    pub adc_max: u16,
}

impl StickSample {
    /// Both sticks centred on a 12-bit ADC.
    pub const CENTRED: StickSample = StickSample {
        left_x: ADC_MAX / 2,
        left_y: ADC_MAX / 2,
        right_x: ADC_MAX / 2,
        right_y: ADC_MAX / 2,
        adc_max: ADC_MAX,
    };

    /// The raw input record the core's stick pipeline takes, with the button bitmask added.
    pub fn with_buttons(self, buttons: u8) -> RawSticks {
        RawSticks {
            left_x: self.left_x,
            left_y: self.left_y,
            right_x: self.right_x,
            right_y: self.right_y,
            adc_max: self.adc_max,
            buttons,
        }
    }
}

/// Where the raw stick samples come from.
pub trait StickSource {
    /// Sample both sticks for simulation tick `tick`. Hardware ignores `tick` and converts now;
    /// scripted sources return the sample scripted for that tick. Never fails: a board whose ADC
    /// can fail reports centred sticks for that tick (the core treats them as "no input").
    fn read_sticks(&mut self, tick: u32) -> StickSample;
}

/// Where the button bitmask comes from (bits of [`crate::buttons`]).
pub trait ButtonSource {
    /// The buttons held during simulation tick `tick` (hardware ignores `tick`).
    fn read_buttons(&mut self, tick: u32) -> u8;
}

/// A monotonic clock in nanoseconds (any epoch). The app turns its differences into fixed ticks.
pub trait TickClock {
    /// Current time in nanoseconds. Must never go backwards (a smaller value counts as no time).
    fn now_ns(&mut self) -> u64;
}

/// The four buttons as `embedded-hal` 1.0 input pins, wired to ground with the MCU's pull-ups
/// (so a pressed button reads **low**).
///
/// A pin that reports an error counts as released for that read, and the error is counted in
/// [`ButtonPins::read_errors`] (GPIO reads cannot fail on the STM32; the count is for other boards).
#[derive(Debug)]
pub struct ButtonPins<J, F, L, R> {
    /// Jump (face button A).
    pub jump: J,
    /// Fire (face button B).
    pub fire: F,
    /// Left stick's push switch.
    pub left_stick: L,
    /// Right stick's push switch.
    pub right_stick: R,
    read_errors: u32,
}

impl<J, F, L, R> ButtonPins<J, F, L, R>
where
    J: InputPin,
    F: InputPin,
    L: InputPin,
    R: InputPin,
{
    /// Wrap the four pins (already configured as pull-up inputs).
    pub fn new(jump: J, fire: F, left_stick: L, right_stick: R) -> Self {
        ButtonPins {
            jump,
            fire,
            left_stick,
            right_stick,
            read_errors: 0,
        }
    }

    /// How many pin reads have failed so far (saturating).
    pub fn read_errors(&self) -> u32 {
        self.read_errors
    }

    /// The pins back.
    pub fn release(self) -> (J, F, L, R) {
        (self.jump, self.fire, self.left_stick, self.right_stick)
    }
}

/// `Ok(true)` when pressed (low); an error counts as released.
fn pressed<P: InputPin>(pin: &mut P, errors: &mut u32) -> bool {
    match pin.is_low() {
        Ok(low) => low,
        Err(_) => {
            *errors = errors.saturating_add(1);
            false
        }
    }
}

impl<J, F, L, R> ButtonSource for ButtonPins<J, F, L, R>
where
    J: InputPin,
    F: InputPin,
    L: InputPin,
    R: InputPin,
{
    fn read_buttons(&mut self, _tick: u32) -> u8 {
        let e = &mut self.read_errors;
        let mut bits = 0;
        if pressed(&mut self.jump, e) {
            bits |= buttons::JUMP;
        }
        if pressed(&mut self.fire, e) {
            bits |= buttons::FIRE;
        }
        if pressed(&mut self.left_stick, e) {
            bits |= buttons::LEFT_STICK;
        }
        if pressed(&mut self.right_stick, e) {
            bits |= buttons::RIGHT_STICK;
        }
        bits
    }
}

/// The demo's scripted input ([`crate::scripted_raw`]) as both sticks and buttons: what the
/// QEMU image, the instruction-count harness and the host tests feed the app.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Scripted;

impl StickSource for Scripted {
    fn read_sticks(&mut self, tick: u32) -> StickSample {
        let raw = scripted_raw(tick);
        StickSample {
            left_x: raw.left_x,
            left_y: raw.left_y,
            right_x: raw.right_x,
            right_y: raw.right_y,
            adc_max: raw.adc_max,
        }
    }
}

impl ButtonSource for Scripted {
    fn read_buttons(&mut self, tick: u32) -> u8 {
        scripted_raw(tick).buttons
    }
}

/// A clock that advances by a fixed step every time it is read: with the default step of one
/// simulation tick (rounded up to whole nanoseconds), every [`crate::app::App::poll`] runs exactly
/// one tick. Deterministic, for the QEMU image and tests.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct StepClock {
    now_ns: u64,
    step_ns: u64,
}

impl StepClock {
    /// One demo tick (1/60 s) rounded up to whole nanoseconds: 16 666 667 ns.
    pub const TICK_NS: u64 = 1_000_000_000_u64.div_ceil(TICK_HZ as u64);

    /// Starts at 0 and advances `step_ns` per read.
    pub const fn new(step_ns: u64) -> Self {
        StepClock { now_ns: 0, step_ns }
    }

    /// Advances one demo tick per read.
    pub const fn per_tick() -> Self {
        Self::new(Self::TICK_NS)
    }
}

impl TickClock for StepClock {
    fn now_ns(&mut self) -> u64 {
        let now = self.now_ns;
        self.now_ns = self.now_ns.saturating_add(self.step_ns);
        now
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as T};

    fn pin(states: &[State]) -> PinMock {
        let tx: std::vec::Vec<T> = states.iter().map(|s| T::get(*s)).collect();
        PinMock::new(&tx)
    }

    #[test]
    fn buttons_are_active_low_and_map_to_the_core_bits() {
        use State::{High, Low};
        let mut b = ButtonPins::new(
            pin(&[Low, High]),
            pin(&[High, Low]),
            pin(&[High, High]),
            pin(&[Low, Low]),
        );
        assert_eq!(b.read_buttons(0), buttons::JUMP | buttons::RIGHT_STICK);
        assert_eq!(b.read_buttons(1), buttons::FIRE | buttons::RIGHT_STICK);
        assert_eq!(b.read_errors(), 0);
        let (mut j, mut f, mut l, mut r) = b.release();
        j.done();
        f.done();
        l.done();
        r.done();
    }

    #[test]
    fn a_failing_pin_reads_released_and_is_counted() {
        use embedded_hal_mock::eh1::MockError;
        let err = MockError::Io(std::io::ErrorKind::Other);
        let failing = PinMock::new(&[T::get(State::Low).with_error(err)]);
        let mut b = ButtonPins::new(
            failing,
            pin(&[State::Low]),
            pin(&[State::High]),
            pin(&[State::High]),
        );
        assert_eq!(b.read_buttons(0), buttons::FIRE);
        assert_eq!(b.read_errors(), 1);
        let (mut j, mut f, mut l, mut r) = b.release();
        j.done();
        f.done();
        l.done();
        r.done();
    }

    #[test]
    fn scripted_source_replays_the_demo_script() {
        let mut s = Scripted;
        for tick in [0, 1, 59, 60, 1000] {
            let raw = scripted_raw(tick);
            let got = s.read_sticks(tick).with_buttons(s.read_buttons(tick));
            assert_eq!(got, raw);
        }
    }

    #[test]
    fn step_clock_gives_exactly_one_tick_per_read() {
        let mut fs = hopkit::timestep::FixedStep::new(TICK_HZ);
        let mut c = StepClock::per_tick();
        let mut last = c.now_ns();
        for _ in 0..10_000 {
            let now = c.now_ns();
            assert_eq!(fs.advance_nanos(now - last).ticks, 1);
            last = now;
        }
    }
}
