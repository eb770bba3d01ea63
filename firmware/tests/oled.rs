//! The board binary's display path without hardware: the exact bytes its SSD1306 init sends, the
//! page-wise flush, and the main loop's promise that a frame on the I2C wire never holds a fixed
//! 60 Hz tick back by more than one page (`hopkit_firmware::oled::poll_paged`, the loop body of
//! `src/bin/blackpill.rs`).

use std::cell::Cell;
use std::rc::Rc;

use embedded_hal::i2c::{ErrorType, I2c, Operation};
use embedded_hal_mock::eh1::i2c::{Mock as I2cMock, Transaction};
use hopkit_firmware::app::App;
use hopkit_firmware::oled::{self, Oled, ADDRESS, BUFFER_LEN, INIT};
use hopkit_firmware::seams::{Scripted, StepClock, TickClock};

/// Every I2C write as (address, bytes).
#[derive(Default)]
struct Recorder(Vec<(u8, Vec<u8>)>);

impl ErrorType for Recorder {
    type Error = core::convert::Infallible;
}

impl I2c for Recorder {
    fn transaction(&mut self, address: u8, ops: &mut [Operation<'_>]) -> Result<(), Self::Error> {
        for op in ops {
            if let Operation::Write(bytes) = op {
                self.0.push((address, bytes.to_vec()));
            }
        }
        Ok(())
    }
}

#[test]
fn init_sends_exactly_these_bytes() {
    // Byte for byte, one write per command, each after the 0x00 "commands follow" control byte.
    let expected: [&[u8]; 17] = [
        &[0x00, 0xAE],
        &[0x00, 0xD5, 0x80],
        &[0x00, 0xA8, 0x3F],
        &[0x00, 0xD3, 0x00],
        &[0x00, 0x40],
        &[0x00, 0x8D, 0x14],
        &[0x00, 0x20, 0x00],
        &[0x00, 0xDA, 0x12],
        &[0x00, 0xA1],
        &[0x00, 0xC8],
        &[0x00, 0xD9, 0x21],
        &[0x00, 0x81, 0x5F],
        &[0x00, 0xDB, 0x40],
        &[0x00, 0xA4],
        &[0x00, 0xA6],
        &[0x00, 0x2E],
        &[0x00, 0xAF],
    ];
    let transactions: Vec<Transaction> = expected
        .iter()
        .map(|b| Transaction::write(0x3C, b.to_vec()))
        .collect();
    let mut oled = Oled::new(I2cMock::new(&transactions), ADDRESS);
    oled.init().unwrap();
    oled.release().done();
}

#[test]
fn init_is_the_ssd1306_crates_sequence() {
    use ssd1306::prelude::*;
    use ssd1306::{I2CDisplayInterface, Ssd1306};
    let mut reference = Ssd1306::new(
        I2CDisplayInterface::new(Recorder::default()),
        DisplaySize128x64,
        DisplayRotation::Rotate0,
    )
    .into_buffered_graphics_mode();
    reference.init().unwrap();
    let theirs = reference.release().release().0;

    let mut ours = Oled::new(Recorder::default(), ADDRESS);
    ours.init().unwrap();
    let ours = ours.release().0;
    assert_eq!(ours.len(), INIT.len());
    assert_eq!(ours, theirs, "same commands, same order, same transactions");
}

#[test]
fn pages_go_out_in_order_with_their_window() {
    use embedded_graphics::pixelcolor::BinaryColor;
    use embedded_graphics::prelude::*;
    let mut oled = Oled::new(Recorder::default(), ADDRESS);
    // One lit pixel at (3, 10): page 1, column 3, bit 2.
    Pixel(Point::new(3, 10), BinaryColor::On)
        .draw(&mut oled)
        .unwrap();
    assert_eq!(oled.buffer()[128 + 3], 0b100);
    assert_eq!(oled.buffer().iter().filter(|&&b| b != 0).count(), 1);
    oled.start_flush();
    let mut steps = 0;
    while !oled.flush_step().unwrap() {
        steps += 1;
        assert!(oled.flushing());
    }
    assert_eq!(steps, 7, "8 pages, one per step");
    assert!(!oled.flushing());
    assert!(
        oled.flush_step().unwrap(),
        "nothing in flight: done at once"
    );
    let writes = oled.release().0;
    assert_eq!(writes.len(), 16);
    for (page, pair) in writes.chunks(2).enumerate() {
        assert_eq!(
            pair[0].1,
            [0x00, 0x21, 0, 127, 0x22, page as u8, page as u8]
        );
        assert_eq!(pair[1].1.len(), 129);
        assert_eq!(pair[1].1[0], 0x40);
    }
    assert_eq!(writes[3].1[1 + 3], 0b100);
    assert_eq!(BUFFER_LEN, 1024);
}

/// Simulated time shared by the clock and the I2C bus, and when the clock was last read (the
/// moment the due ticks run).
#[derive(Clone, Default)]
struct Time(Rc<Cell<u64>>, Rc<Cell<u64>>);

/// A main-loop clock: every read also costs `loop_ns` (the loop's own work).
struct LoopClock {
    time: Time,
    loop_ns: u64,
}

impl TickClock for LoopClock {
    fn now_ns(&mut self) -> u64 {
        let t = self.time.0.get() + self.loop_ns;
        self.time.0.set(t);
        self.time.1.set(t);
        t
    }
}

/// An I2C bus at 400 kHz: 9 bit times (22.5 µs) per byte, the address byte included.
struct Bus400k {
    time: Time,
    bytes: u64,
}

const BYTE_NS: u64 = 22_500;

impl ErrorType for Bus400k {
    type Error = core::convert::Infallible;
}

impl I2c for Bus400k {
    fn transaction(&mut self, _address: u8, ops: &mut [Operation<'_>]) -> Result<(), Self::Error> {
        for op in ops {
            let n = match op {
                Operation::Write(b) => b.len(),
                Operation::Read(b) => b.len(),
            } as u64;
            self.bytes += n + 1;
            self.time.0.set(self.time.0.get() + (n + 1) * BYTE_NS);
        }
        Ok(())
    }
}

#[test]
fn a_frame_in_flight_never_holds_a_tick_back_by_more_than_a_page() {
    let time = Time::default();
    let bus = Bus400k {
        time: time.clone(),
        bytes: 0,
    };
    let clock = LoopClock {
        time: time.clone(),
        loop_ns: 50_000, // 50 µs of loop work per pass (generous for a tick on the M4F)
    };
    let mut app = App::new(Scripted, Scripted, Oled::new(bus, ADDRESS), clock);
    let t0 = app.poll_ticks().tick; // starts the clock
    assert_eq!(t0, 0);
    let start = time.0.get();
    let (mut frames, mut worst_late) = (0u32, 0u64);
    while time.0.get() - start < 10_000_000_000 {
        let poll = oled::poll_paged(&mut app).unwrap();
        frames += poll.drew as u32;
        if poll.ticks > 0 {
            // The earliest tick of this pass was due at `start + k · tick`.
            let k = u64::from(poll.tick - poll.ticks + 1);
            let due = start + k * 1_000_000_000 / 60;
            worst_late = worst_late.max(time.1.get() - due);
        }
    }
    let page_ns = (7 + 1 + 129 + 1) * BYTE_NS; // window command + data, each with its address
    let ticks = app.rig().tick_count();
    assert!(
        (599..=600).contains(&ticks),
        "10 s = 600 ticks, ran {ticks}"
    );
    assert!(
        worst_late <= page_ns + 50_000,
        "a tick waited {worst_late} ns (one page is {page_ns} ns)"
    );
    assert_eq!(app.stats().dropped_ns, 0, "no time was ever dropped");
    // A frame takes 8 pages ≈ 24.8 ms (1.5 ticks): every second tick is shown.
    assert!((280..=310).contains(&frames), "{frames} frames in 10 s");
    // The same scene as ticking without any display at all.
    assert_eq!(
        app.state_hash(),
        hopkit_firmware::demo::scripted_hash(ticks)
    );
    let _ = StepClock::per_tick();
}

#[test]
fn a_blocking_flush_would_hold_ticks_back_by_a_whole_frame() {
    // The contrast: flushing the whole frame in one call per drawn pass.
    let time = Time::default();
    let bus = Bus400k {
        time: time.clone(),
        bytes: 0,
    };
    let clock = LoopClock {
        time: time.clone(),
        loop_ns: 50_000,
    };
    let mut app = App::new(Scripted, Scripted, Oled::new(bus, ADDRESS), clock);
    app.poll_ticks();
    let start = time.0.get();
    let mut worst_late = 0u64;
    while time.0.get() - start < 2_000_000_000 {
        let poll = app.poll().unwrap();
        if poll.ticks > 0 {
            let k = u64::from(poll.tick - poll.ticks + 1);
            worst_late = worst_late.max(time.1.get() - (start + k * 1_000_000_000 / 60));
        }
        if poll.drew {
            app.display_mut().flush().unwrap();
        }
    }
    assert!(
        worst_late > 8 * 3_000_000,
        "a whole frame (≈ 24.8 ms) blocks: {worst_late} ns"
    );
}
