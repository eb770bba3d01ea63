//! The board binary's display path without hardware: the exact bytes its SSD1306 init sends, the
//! page-wise flush, and the main loop's promise that a frame on the I2C wire never holds a fixed
//! 60 Hz tick back by more than one page (`hopkit_firmware::oled::poll_paged`, the loop body of
//! `src/bin/blackpill.rs`).

use std::cell::Cell;
use std::rc::Rc;

use embedded_hal::i2c::{ErrorType, I2c, Operation};
use embedded_hal_mock::eh1::i2c::{Mock as I2cMock, Transaction};
use hopkit_demo::app::App;
use hopkit_demo::seams::{Scripted, StepClock, TickClock};
use hopkit_firmware::oled::{self, Oled, ADDRESS, BUFFER_LEN, INIT};

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
    assert_eq!(app.state_hash(), hopkit_demo::scripted_hash(ticks));
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

/// A FIFO-fed controller as the RP2040's: `depth` entries; `drain` takes bytes off the front as
/// the bus would; `abort_after` bytes on the bus, the panel stops acknowledging (once).
struct Fifo {
    depth: usize,
    queue: std::collections::VecDeque<(u8, bool)>,
    /// What left the FIFO, split into transactions at each STOP.
    sent: Vec<Vec<u8>>,
    open: Vec<u8>,
    abort_after: Option<usize>,
    aborted: bool,
}

impl Fifo {
    fn new(depth: usize) -> Self {
        Fifo {
            depth,
            queue: Default::default(),
            sent: Vec::new(),
            open: Vec::new(),
            abort_after: None,
            aborted: false,
        }
    }

    fn drain(&mut self, n: usize) {
        for _ in 0..n {
            let Some((b, stop)) = self.queue.pop_front() else {
                return;
            };
            if let Some(left) = self.abort_after.as_mut() {
                if *left == 0 {
                    // NACK: the controller flushes its FIFO and reports the abort.
                    self.abort_after = None;
                    self.queue.clear();
                    self.open.clear();
                    self.aborted = true;
                    return;
                }
                *left -= 1;
            }
            self.open.push(b);
            if stop {
                self.sent.push(std::mem::take(&mut self.open));
            }
        }
    }
}

impl oled::TxFifo for Fifo {
    fn room(&mut self) -> usize {
        self.depth - self.queue.len()
    }
    fn push(&mut self, byte: u8, stop: bool) {
        assert!(self.queue.len() < self.depth, "pushed into a full FIFO");
        self.queue.push_back((byte, stop));
    }
    fn take_abort(&mut self) -> bool {
        std::mem::take(&mut self.aborted)
    }
}

/// Some pixels in every page, so that a misplaced byte shows.
fn scribble<
    D: embedded_graphics::prelude::DrawTarget<Color = embedded_graphics::pixelcolor::BinaryColor>,
>(
    d: &mut D,
) {
    use embedded_graphics::pixelcolor::BinaryColor;
    use embedded_graphics::prelude::*;
    for i in 0..64 {
        let _ = Pixel(Point::new((i * 37) % 128, i), BinaryColor::On).draw(d);
    }
}

#[test]
fn fed_frames_are_the_paged_frames_byte_for_byte() {
    let mut paged = Oled::new(Recorder::default(), ADDRESS);
    scribble(&mut paged);
    paged.flush().unwrap();
    let want: Vec<Vec<u8>> = paged.release().0.into_iter().map(|(_, b)| b).collect();
    assert_eq!(want.len(), 16);

    for depth in [1, 3, 16] {
        let mut fed = Oled::new(Fifo::new(depth), ADDRESS);
        scribble(&mut fed);
        fed.start_flush();
        let mut passes = 0;
        while !fed.feed().unwrap() {
            assert!(fed.flushing());
            // Between passes the bus takes some of the queue.
            fed.bus_mut().drain(depth.div_ceil(2));
            passes += 1;
        }
        assert!(passes >= 1088 / depth - 1, "depth {depth}: {passes} passes");
        assert!(!fed.flushing());
        assert!(fed.feed().unwrap(), "nothing in flight: done at once");
        fed.bus_mut().drain(usize::MAX);
        assert_eq!(fed.release().sent, want, "FIFO depth {depth}");
    }
}

#[test]
fn an_abort_abandons_the_frame_and_the_next_one_goes_out_whole() {
    let mut paged = Oled::new(Recorder::default(), ADDRESS);
    scribble(&mut paged);
    paged.flush().unwrap();
    let want: Vec<Vec<u8>> = paged.release().0.into_iter().map(|(_, b)| b).collect();

    let mut fed = Oled::new(Fifo::new(16), ADDRESS);
    scribble(&mut fed);
    fed.bus_mut().abort_after = Some(300); // the panel stops answering inside page 2
    fed.start_flush();
    let mut result = fed.feed();
    while result == Ok(false) {
        fed.bus_mut().drain(8);
        result = fed.feed();
    }
    assert_eq!(result, Err(oled::Aborted));
    assert!(!fed.flushing(), "the frame is abandoned");
    // The panel answers again: a new frame is sent from page 0, whole.
    fed.bus_mut().sent.clear();
    fed.start_flush();
    while !fed.feed().unwrap() {
        fed.bus_mut().drain(8);
    }
    fed.bus_mut().drain(usize::MAX);
    assert_eq!(fed.release().sent, want);
}

/// A clock the test sets.
struct SetClock(Rc<Cell<u64>>);

impl TickClock for SetClock {
    fn now_ns(&mut self) -> u64 {
        self.0.get()
    }
}

#[test]
fn streamed_polls_run_every_tick_on_time_and_mark_their_phases() {
    // The RP2040 board's loop (src/bin/rp2040.rs) on a 400 kHz bus: after each pass, sleep until
    // the next tick is due or until the 16-entry FIFO has drained to 4 bytes.
    let now = Rc::new(Cell::new(0u64));
    let mut app = App::new(
        Scripted,
        Scripted,
        Oled::new(Fifo::new(16), ADDRESS),
        SetClock(now.clone()),
    );
    let mut phases = Vec::new();
    let (mut frames, mut passes, mut bus_ns) = (0u32, 0u32, 0u64);
    while app.rig().tick_count() < 600 {
        let due = app.next_tick_due_ns();
        phases.clear();
        let poll = oled::poll_streamed(&mut app, |p| phases.push(p)).unwrap();
        passes += 1;
        // A pass at a tick's due time runs exactly that tick; one between ticks runs none.
        let want_ticks = match due {
            Some(due) => u32::from(now.get() >= due),
            None => 0,
        };
        assert_eq!(poll.ticks, want_ticks, "pass {passes}");
        frames += u32::from(poll.drew);
        let want: &[oled::Phase] = if poll.drew {
            &[
                oled::Phase::Ticks,
                oled::Phase::Draw,
                oled::Phase::Flush,
                oled::Phase::Idle,
            ]
        } else {
            &[oled::Phase::Ticks, oled::Phase::Flush, oled::Phase::Idle]
        };
        assert_eq!(phases, want, "pass {passes}");
        // Sleep, while the bus shifts bytes out.
        let mut wake = app.next_tick_due_ns().unwrap();
        let queued = app.display_mut().bus_mut().queue.len() as u64;
        if app.display().flushing() {
            wake = wake.min(now.get() + queued.saturating_sub(4) * BYTE_NS);
        }
        bus_ns += wake - now.get();
        let bytes = bus_ns / BYTE_NS;
        bus_ns %= BYTE_NS;
        app.display_mut().bus_mut().drain(bytes as usize);
        now.set(wake);
    }
    assert_eq!(app.state_hash(), hopkit_demo::scripted_hash(600));
    assert_eq!(
        app.stats().max_ticks_per_poll,
        1,
        "no tick ever waited for another"
    );
    // 1,088 bytes a frame take 24.5 ms: a frame every second tick, as with the paged flush.
    assert_eq!(frames, 300);
    assert!(app.display_mut().bus_mut().sent.len() >= 299 * 16);
    // About one pass per 12 bytes on the bus (top-up at 4 of 16 queued) and one per tick: the loop
    // sleeps between top-ups rather than spinning.
    assert!((600 * 44..600 * 47).contains(&passes), "{passes} passes");
}
