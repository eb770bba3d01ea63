//! The RP2040 board layer: the seams over `rp2040-hal` 0.12, plus the RP2040's own I2C registers
//! where the HAL has no non-blocking form. Used by `src/bin/rp2040.rs`; wiring and flashing in
//! docs/firmware.md ("RP2040").
//!
//! | seam | RP2040 |
//! |---|---|
//! | `StickSource` | [`Sticks`]: ADC channels 0–3 on GP26–GP29, 12-bit, one blocking conversion (2 µs) each |
//! | `ButtonSource` | `ButtonPins` over GP2, GP3, GP6, GP7 with pull-ups |
//! | `TickClock` | [`TimerClock`]: the 64-bit 1 MHz system timer |
//! | display | `Oled<`[`I2cFifo`]`>`: I2C0 on GP0 (SDA) / GP1 (SCL) at 400 kHz, fed through the FIFO |
//!
//! Debug pins GP18–GP21 ([`Markers`]) go high while the main loop is in one phase of its work:
//! a logic analyser (or the emulator's harness, `firmware/rp2040-emu/`) reads the cost of every
//! phase from them without any instrumentation in the game code.

use crate::oled::{Phase, TxFifo};
use embedded_hal::digital::OutputPin;
use hopkit_demo::seams::{StickSample, StickSource, TickClock};
use hopkit_demo::ADC_MAX;
use rp2040_hal as hal;

use hal::adc::{Adc, AdcPin};
use hal::gpio::{DynPinId, FunctionI2C, FunctionSioInput, FunctionSioOutput, Pin, PullDown};
use hal::gpio::{PullNone, PullUp};
use hal::pac;

/// An ADC input pin (GP26–GP29, digital input buffer off).
pub type AnalogPin = AdcPin<Pin<DynPinId, FunctionSioInput, PullNone>>;
/// A button input (to ground, internal pull-up).
pub type ButtonPin = Pin<DynPinId, FunctionSioInput, PullUp>;
/// A debug output pin.
pub type MarkerPin = Pin<DynPinId, FunctionSioOutput, PullDown>;
/// I2C0's SDA and SCL.
pub type I2cPins = (
    Pin<hal::gpio::bank0::Gpio0, FunctionI2C, PullUp>,
    Pin<hal::gpio::bank0::Gpio1, FunctionI2C, PullUp>,
);

/// Both thumbsticks on the ADC: left X, left Y, right X, right Y on channels 0–3 (GP26–GP29), each
/// converted once per tick in that order. The sticks marker pin is high while they convert.
pub struct Sticks {
    adc: Adc,
    pins: [AnalogPin; 4],
    marker: MarkerPin,
}

impl Sticks {
    /// Take the ADC (12-bit), the four analog pins in channel order and the sticks marker pin.
    pub fn new(adc: Adc, pins: [AnalogPin; 4], marker: MarkerPin) -> Self {
        Sticks { adc, pins, marker }
    }
}

impl StickSource for Sticks {
    #[inline]
    fn read_sticks(&mut self, _tick: u32) -> StickSample {
        let _ = self.marker.set_high();
        // A conversion that reports an error reads as a centred axis (the seam's rule).
        let [lx, ly, rx, ry] = self
            .pins
            .each_mut()
            .map(|pin| self.adc.read(pin).unwrap_or(ADC_MAX / 2));
        let _ = self.marker.set_low();
        StickSample {
            left_x: lx,
            left_y: ly,
            right_x: rx,
            right_y: ry,
            adc_max: ADC_MAX,
        }
    }
}

/// Monotonic nanoseconds from the RP2040's 64-bit microsecond timer (it never wraps in practice:
/// 2^64 µs is 584,000 years).
pub struct TimerClock(pub hal::Timer);

impl TimerClock {
    /// Microseconds since boot.
    #[inline]
    pub fn now_us(&self) -> u64 {
        self.0.get_counter().ticks()
    }
}

impl TickClock for TimerClock {
    #[inline]
    fn now_ns(&mut self) -> u64 {
        self.now_us().saturating_mul(1000)
    }
}

/// The I2C bus rate the display runs at, Hz.
pub const I2C_HZ: u32 = 400_000;
/// Depth of the RP2040's I2C transmit FIFO, entries.
pub const I2C_FIFO_DEPTH: usize = 16;
/// Microseconds one byte takes on the bus (9 bit times: 8 data bits and the acknowledge),
/// rounded down so a wake-up computed from it never comes late.
pub const I2C_BYTE_US: u64 = 9 * 1_000_000 / I2C_HZ as u64;

/// I2C0 as the display's bus: blocking writes through the HAL (the panel's init), and the transmit
/// FIFO the main loop tops up without waiting ([`TxFifo`], for the frames).
pub struct I2cFifo {
    hal: hal::I2C<pac::I2C0, I2cPins>,
}

impl I2cFifo {
    /// Take the HAL's I2C0 (already configured as a controller) and point it at `address`.
    pub fn new(hal: hal::I2C<pac::I2C0, I2cPins>, address: u8) -> Self {
        let i2c = Self::regs();
        // The target address may only change while the block is disabled (the HAL's blocking
        // writes do the same before each transfer).
        i2c.ic_enable().write(|w| w.enable().disabled());
        i2c.ic_tar()
            .write(|w| unsafe { w.ic_tar().bits(u16::from(address)) });
        i2c.ic_enable().write(|w| w.enable().enabled());
        I2cFifo { hal }
    }

    /// Bytes still waiting in the transmit FIFO.
    #[inline]
    pub fn queued(&self) -> usize {
        usize::from(Self::regs().ic_txflr().read().txflr().bits())
    }

    #[inline]
    fn regs() -> &'static pac::i2c0::RegisterBlock {
        // SAFETY: the only `I2cFifo` owns the HAL's I2C0 (and with it the block's registers); the
        // HAL's own methods are only reached through `&mut self` of this type, never concurrently.
        unsafe { &*pac::I2C0::ptr() }
    }
}

impl embedded_hal::i2c::ErrorType for I2cFifo {
    type Error = hal::i2c::Error;
}

impl embedded_hal::i2c::I2c for I2cFifo {
    fn transaction(
        &mut self,
        address: u8,
        operations: &mut [embedded_hal::i2c::Operation<'_>],
    ) -> Result<(), Self::Error> {
        self.hal.transaction(address, operations)
    }
}

impl TxFifo for I2cFifo {
    #[inline]
    fn room(&mut self) -> usize {
        I2C_FIFO_DEPTH.saturating_sub(self.queued())
    }

    #[inline]
    fn push(&mut self, byte: u8, stop: bool) {
        Self::regs()
            .ic_data_cmd()
            .write(|w| unsafe { w.dat().bits(byte) }.stop().bit(stop));
    }

    #[inline]
    fn take_abort(&mut self) -> bool {
        let i2c = Self::regs();
        if i2c.ic_raw_intr_stat().read().tx_abrt().bit_is_set() {
            // Reading the clear register clears the abort and releases the flushed FIFO.
            let _ = i2c.ic_clr_tx_abrt().read();
            true
        } else {
            false
        }
    }
}

/// The debug pins, one per phase of the main loop: GP18 high while the ticks run (inputs sampled
/// and simulated), GP19 while the sticks convert (inside the ticks), GP20 while the frame is
/// drawn, GP21 while frame bytes are queued for the bus. All low while the core sleeps.
pub struct Markers {
    /// GP18, GP20, GP21: ticks, draw, flush.
    pins: [MarkerPin; 3],
}

impl Markers {
    /// The ticks, draw and flush pins (the sticks pin belongs to [`Sticks`]).
    pub fn new(ticks: MarkerPin, draw: MarkerPin, flush: MarkerPin) -> Self {
        Markers {
            pins: [ticks, draw, flush],
        }
    }

    /// The main loop entered `phase`: its pin high, the others low.
    #[inline]
    pub fn enter(&mut self, phase: Phase) {
        let on = match phase {
            Phase::Ticks => Some(0),
            Phase::Draw => Some(1),
            Phase::Flush => Some(2),
            Phase::Idle => None,
        };
        for (i, pin) in self.pins.iter_mut().enumerate() {
            let _ = if on == Some(i) {
                pin.set_high()
            } else {
                pin.set_low()
            };
        }
    }
}

/// The link cable's line rate, bits per second (8N1): a frame packet is at most 87 bytes, 7.6 ms
/// of the 16.7 ms tick.
pub const LINK_BAUD: u32 = 115_200;
/// Bytes each of the link's receive and transmit rings holds (a tick's packets are < 100 bytes
/// each way; an 11 ms rollback receives ≈ 130).
pub const LINK_RING: usize = 256;

/// The link's byte rings, shared between the UART0 interrupt and the main loop.
pub struct LinkRings {
    rx: heapless::Deque<u8, LINK_RING>,
    tx: heapless::Deque<u8, LINK_RING>,
    /// Bytes lost: the receive ring was full, or the byte arrived with a framing, parity or
    /// break error, or the UART's own FIFO overran.
    pub rx_lost: u32,
}

/// The rings (the interrupt handler's and [`LinkUart`]'s only shared state).
pub static LINK_RINGS: cortex_m::interrupt::Mutex<core::cell::RefCell<LinkRings>> =
    cortex_m::interrupt::Mutex::new(core::cell::RefCell::new(LinkRings {
        rx: heapless::Deque::new(),
        tx: heapless::Deque::new(),
        rx_lost: 0,
    }));

#[inline]
fn link_uart() -> &'static pac::uart0::RegisterBlock {
    // SAFETY: UART0 is owned by the `LinkUart` in `main`; its registers are touched only by
    // `link_uart_service`, called from the UART0 interrupt and from `LinkUart::send` with
    // interrupts disabled, so never concurrently.
    unsafe { &*pac::UART0::ptr() }
}

/// Move bytes between UART0's FIFOs and the rings: everything received into the receive ring,
/// as much of the transmit ring as the FIFO takes; the transmit interrupt stays enabled only
/// while bytes wait. Called by the UART0 interrupt handler (and by [`LinkUart::send`]).
pub fn link_uart_service(cs: &cortex_m::interrupt::CriticalSection) {
    let uart = link_uart();
    let mut rings = LINK_RINGS.borrow(cs).borrow_mut();
    while uart.uartfr().read().rxfe().bit_is_clear() {
        let dr = uart.uartdr().read();
        let bad = dr.fe().bit_is_set() || dr.pe().bit_is_set() || dr.be().bit_is_set();
        if dr.oe().bit_is_set() {
            rings.rx_lost = rings.rx_lost.saturating_add(1);
        }
        if bad || rings.rx.push_back(dr.data().bits()).is_err() {
            rings.rx_lost = rings.rx_lost.saturating_add(1);
        }
    }
    while uart.uartfr().read().txff().bit_is_clear() {
        match rings.tx.pop_front() {
            Some(b) => uart.uartdr().write(|w| unsafe { w.data().bits(b) }),
            None => break,
        }
    }
    let waiting = !rings.tx.is_empty();
    uart.uartimsc().modify(|_, w| w.txim().bit(waiting));
    uart.uarticr()
        .write(|w| w.rxic().clear_bit_by_one().rtic().clear_bit_by_one());
}

/// The link cable's port: UART0, TX on GP16, RX on GP17 (pulled up, so an unplugged cable is an
/// idle line), bytes moved by the UART0 interrupt through [`LINK_RINGS`].
pub struct LinkUart<U> {
    _uart: U,
}

impl<U> LinkUart<U> {
    /// Take the enabled UART0 (8N1 at [`LINK_BAUD`]) and turn on its receive and receive-timeout
    /// interrupts (the caller unmasks UART0_IRQ in the NVIC).
    pub fn new(uart: U) -> Self {
        link_uart()
            .uartimsc()
            .modify(|_, w| w.rxim().set_bit().rtim().set_bit());
        LinkUart { _uart: uart }
    }

    /// Bytes lost on receive so far ([`LinkRings::rx_lost`]).
    pub fn rx_lost(&self) -> u32 {
        cortex_m::interrupt::free(|cs| LINK_RINGS.borrow(cs).borrow().rx_lost)
    }
}

impl<U> hopkit_demo::link::LinkPort for LinkUart<U> {
    fn read(&mut self, buf: &mut [u8]) -> usize {
        cortex_m::interrupt::free(|cs| {
            let mut rings = LINK_RINGS.borrow(cs).borrow_mut();
            let mut n = 0;
            for slot in buf.iter_mut() {
                match rings.rx.pop_front() {
                    Some(b) => {
                        *slot = b;
                        n += 1;
                    }
                    None => break,
                }
            }
            n
        })
    }

    fn send(&mut self, frame: &[u8]) -> bool {
        cortex_m::interrupt::free(|cs| {
            {
                let mut rings = LINK_RINGS.borrow(cs).borrow_mut();
                if rings.tx.capacity() - rings.tx.len() < frame.len() {
                    return false;
                }
                for &b in frame {
                    let _ = rings.tx.push_back(b);
                }
            }
            link_uart_service(cs);
            true
        })
    }
}
