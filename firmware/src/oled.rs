//! The SSD1306 128×64 OLED over I2C, board-independent: the exact init bytes, a page-layout frame
//! buffer that is an `embedded-graphics` draw target, and a flush that goes **one page at a time**
//! so the main loop can run the fixed 60 Hz ticks between pages.
//!
//! A full frame is 8 pages × 128 bytes. At 400 kHz an I2C byte takes 9 bit times (22.5 µs), so the
//! whole frame takes ≈ 23.6 ms — longer than a 16.7 ms tick. Sent in one blocking call it would
//! hold every tick back by up to 1.4 ticks; sent a page per main-loop pass ([`Oled::flush_step`],
//! 131 bytes ≈ 2.95 ms) no tick waits more than one page. The board binary's loop
//! (`src/bin/blackpill.rs`) and the host test `tests/integration/oled.rs` show that no tick is skipped or
//! delayed by more than one page while a frame is in flight. (A DMA transfer would free the CPU
//! during the transfer too; with page-wise flushing it is not needed for the tick, and the CPU has
//! nothing else to do. An SPI SSD1306 at 10 MHz sends the frame in ≈ 0.8 ms.)
//!
//! A controller with a transmit FIFO the CPU can top up without waiting for the bus (the RP2040's,
//! 16 entries: [`TxFifo`]) takes the very same bytes through [`Oled::feed`] instead: the main loop
//! queues what fits and sleeps while the bus shifts it out ([`poll_streamed`]), so the CPU neither
//! waits for the bus nor holds a tick back at all.
//!
//! The init sequence is the one the `ssd1306` crate (0.10) sends for a 128×64 panel in
//! `DisplayRotation::Rotate0` with horizontal addressing, which follows the datasheet's
//! "software initialization" flow (SSD1306 rev 1.1, §8.9 and the application note's flow chart);
//! `tests/integration/oled.rs` checks the bytes against that crate, command for command.

use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::*;
use embedded_hal::i2c::I2c;

use hopkit_demo::app::{App, Poll};
use hopkit_demo::framebuffer::FrameBuffer;
use hopkit_demo::link::Link;
use hopkit_demo::seams::{ButtonSource, StickSource, TickClock};

/// The panel's 7-bit I2C address (SA0 low; 0x3D with SA0 high).
pub const ADDRESS: u8 = 0x3C;
/// Width in pixels.
pub const WIDTH: u32 = 128;
/// Height in pixels.
pub const HEIGHT: u32 = 64;
/// Pages (8 pixel rows each).
pub const PAGES: u8 = (HEIGHT / 8) as u8;
/// Frame buffer size, bytes.
pub const BUFFER_LEN: usize = hopkit_demo::framebuffer::FRAME_BYTES;

/// Control byte: the rest of the transaction is commands.
pub const CONTROL_COMMANDS: u8 = 0x00;
/// Control byte: the rest of the transaction is display RAM data.
pub const CONTROL_DATA: u8 = 0x40;

/// Bytes one page takes on the wire: the window command transaction ([`page_command`], 7 bytes)
/// and the data transaction ([`CONTROL_DATA`] and the page's 128 bytes).
pub const PAGE_WIRE_BYTES: usize = 7 + 1 + WIDTH as usize;

/// The command transaction that opens page `page`'s window: column window 0..127, page window
/// `page..page`, so the data transaction after it fills exactly that page.
pub const fn page_command(page: u8) -> [u8; 7] {
    [
        CONTROL_COMMANDS,
        0x21,
        0,
        (WIDTH - 1) as u8,
        0x22,
        page,
        page,
    ]
}

/// An I2C controller with a transmit FIFO that the CPU tops up without waiting for the bus (the
/// RP2040's DW_apb_i2c: 16 entries, each a data byte and a STOP flag), talking to one target
/// address set up front. [`Oled::feed`] sends a frame through it.
pub trait TxFifo {
    /// Free entries in the transmit FIFO now.
    fn room(&mut self) -> usize;
    /// Queue one byte; `stop` ends the transaction after it (the controller starts the next
    /// transaction by itself when more bytes follow).
    fn push(&mut self, byte: u8, stop: bool);
    /// True once after the controller aborted a transfer (e.g. the panel did not acknowledge);
    /// the controller has flushed its FIFO and is ready again.
    fn take_abort(&mut self) -> bool;
}

/// The panel did not acknowledge a byte of the frame in flight ([`Oled::feed`]): the frame was
/// abandoned.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Aborted;

/// The init commands, in the order they are sent (each command with its argument bytes).
pub const INIT: [&[u8]; 17] = [
    &[0xAE],       // display off (sleep) while configuring
    &[0xD5, 0x80], // display clock: divide ratio 1, oscillator frequency 8 (the reset value)
    &[0xA8, 0x3F], // multiplex ratio: 64 rows
    &[0xD3, 0x00], // display offset 0
    &[0x40],       // display start line 0
    &[0x8D, 0x14], // charge pump on (the panel runs from 3.3 V, no external VCC)
    &[0x20, 0x00], // memory addressing mode: horizontal
    &[0xDA, 0x12], // COM pins: alternative configuration, no left/right remap (128×64 panels)
    &[0xA1],       // segment remap: column 127 → SEG0 (together with 0xC8: not mirrored)
    &[0xC8],       // COM output scan direction: remapped (COM63 → COM0)
    &[0xD9, 0x21], // pre-charge period: phase 1 = 1, phase 2 = 2 DCLKs
    &[0x81, 0x5F], // contrast 0x5F
    &[0xDB, 0x40], // VCOMH deselect level: 0x40, beyond the datasheet's table (0x00/0x20/0x30);
    //                what Adafruit's and the ssd1306 crate's init send
    &[0xA4], // output follows RAM content (not all on)
    &[0xA6], // normal (not inverted)
    &[0x2E], // scrolling off
    &[0xAF], // display on
];

/// The panel's frame buffer in the SSD1306's own layout (page-major: byte `page·128 + x` holds
/// rows `8·page … 8·page + 7` of column `x`, least significant bit on top), and its I2C link.
pub struct Oled<I> {
    i2c: I,
    address: u8,
    frame: FrameBuffer,
    /// The next page [`Oled::flush_step`] sends, or `None` when no frame is in flight.
    next_page: Option<u8>,
    /// Bytes of `next_page` already queued by [`Oled::feed`] (`0..PAGE_WIRE_BYTES`).
    queued: usize,
}

impl<I> Oled<I> {
    /// A blank panel at `address` (see [`ADDRESS`]). Nothing is sent until [`Oled::init`].
    pub fn new(i2c: I, address: u8) -> Self {
        Oled {
            i2c,
            address,
            frame: FrameBuffer::new(),
            next_page: None,
            queued: 0,
        }
    }

    /// The frame buffer (page-major, see [`Oled`]).
    pub fn buffer(&self) -> &[u8; BUFFER_LEN] {
        self.frame.buffer()
    }

    /// True while a frame started by [`Oled::start_flush`] is still being sent.
    pub fn flushing(&self) -> bool {
        self.next_page.is_some()
    }

    /// Start sending the buffer; [`Oled::flush_step`] then sends it a page per call. Starting
    /// again while a frame is in flight restarts it from page 0.
    pub fn start_flush(&mut self) {
        self.next_page = Some(0);
        self.queued = 0;
    }

    /// The I2C bus (e.g. to read a FIFO's fill level).
    pub fn bus(&self) -> &I {
        &self.i2c
    }

    /// The I2C bus, mutably (e.g. to service a controller between passes).
    pub fn bus_mut(&mut self) -> &mut I {
        &mut self.i2c
    }

    /// Give the I2C bus back.
    pub fn release(self) -> I {
        self.i2c
    }
}

impl<I: I2c> Oled<I> {
    /// Send [`INIT`]: one I2C write per command, each prefixed by [`CONTROL_COMMANDS`] (as the
    /// `ssd1306` crate does). Stops at the first I2C error (e.g. no panel: NACK).
    pub fn init(&mut self) -> Result<(), I::Error> {
        for c in INIT {
            // Control byte and at most two command bytes (every INIT entry has one or two): the
            // bounds are visible to the compiler, so no slice-index panic (and its `core::fmt`)
            // is linked into the board image.
            let mut cmd = [CONTROL_COMMANDS; 3];
            for (d, s) in cmd[1..].iter_mut().zip(c) {
                *d = *s;
            }
            self.i2c.write(self.address, &cmd[..1 + c.len().min(2)])?;
        }
        Ok(())
    }

    /// Send the next page of the frame in flight (the page window command, then its 128 bytes).
    /// Returns `Ok(true)` when the frame is complete (or none was in flight). On an I2C error the
    /// frame is abandoned (the next [`Oled::start_flush`] sends a whole frame again).
    pub fn flush_step(&mut self) -> Result<bool, I::Error> {
        let Some(page) = self.next_page else {
            return Ok(true);
        };
        let result = self.send_page(page);
        self.next_page = match result {
            Ok(()) if page + 1 < PAGES => Some(page + 1),
            _ => None,
        };
        result.map(|()| self.next_page.is_none())
    }

    /// Send the whole buffer now (blocking, ≈ 23.6 ms at 400 kHz).
    pub fn flush(&mut self) -> Result<(), I::Error> {
        self.start_flush();
        while !self.flush_step()? {}
        Ok(())
    }

    fn send_page(&mut self, page: u8) -> Result<(), I::Error> {
        // Column window 0..127, page window `page..page`: the data then fills exactly that page.
        self.i2c.write(self.address, &page_command(page))?;
        let mut data = [0u8; 1 + WIDTH as usize];
        data[0] = CONTROL_DATA;
        // `page < PAGES` always; the `%` (an AND) lets the compiler see the slice is in bounds.
        let start = usize::from(page % PAGES) * WIDTH as usize;
        data[1..].copy_from_slice(&self.frame.buffer()[start..start + WIDTH as usize]);
        self.i2c.write(self.address, &data)
    }
}

impl<I: TxFifo> Oled<I> {
    /// Queue as much of the frame in flight as the controller's FIFO takes, without waiting: the
    /// same transactions, byte for byte, as [`Oled::flush_step`] sends page by page. Returns
    /// `Ok(true)` once the whole frame is queued (or none was in flight), `Ok(false)` while bytes
    /// remain. An abort reported by the controller abandons the frame ([`Aborted`]); the next
    /// [`Oled::start_flush`] sends a whole frame again.
    pub fn feed(&mut self) -> Result<bool, Aborted> {
        if self.i2c.take_abort() {
            self.next_page = None;
            return Err(Aborted);
        }
        while let Some(page) = self.next_page {
            if self.i2c.room() == 0 {
                return Ok(false);
            }
            let i = self.queued;
            let byte = match i {
                0..7 => page_command(page)[i],
                7 => CONTROL_DATA,
                // `page < PAGES` always; the `%` lets the compiler see the index is in bounds.
                _ => self.frame.buffer()
                    [(usize::from(page % PAGES) * WIDTH as usize + i - 8) % BUFFER_LEN],
            };
            let stop = i == 6 || i == PAGE_WIRE_BYTES - 1;
            self.i2c.push(byte, stop);
            self.queued += 1;
            if self.queued == PAGE_WIRE_BYTES {
                self.queued = 0;
                self.next_page = (page + 1 < PAGES).then_some(page + 1);
            }
        }
        Ok(true)
    }
}

impl<I> OriginDimensions for Oled<I> {
    fn size(&self) -> Size {
        Size::new(WIDTH, HEIGHT)
    }
}

/// Drawing goes to the [`FrameBuffer`] (the same page-major layout, with its byte-wise rectangle
/// fills), so the board draws exactly as fast as the frames QEMU measures.
impl<I> DrawTarget for Oled<I> {
    type Color = BinaryColor;
    type Error = core::convert::Infallible;

    fn draw_iter<P>(&mut self, pixels: P) -> Result<(), Self::Error>
    where
        P: IntoIterator<Item = Pixel<BinaryColor>>,
    {
        self.frame.draw_iter(pixels)
    }

    fn fill_solid(
        &mut self,
        area: &embedded_graphics::primitives::Rectangle,
        color: BinaryColor,
    ) -> Result<(), Self::Error> {
        self.frame.fill_solid(area, color)
    }

    fn clear(&mut self, color: BinaryColor) -> Result<(), Self::Error> {
        self.frame.clear(color)
    }
}

/// One pass of a board's main loop with a page-flushed [`Oled`]: run the ticks that are due; if
/// any ran and no frame is in flight, draw the scene and start sending it; then send **one page**
/// of the frame in flight. A pass therefore blocks for at most one page (≈ 2.95 ms at 400 kHz), so
/// the fixed 60 Hz ticks keep their time while a frame is on the wire: none is skipped, none waits
/// longer than a page. A frame is sent whole before the next is drawn (no tearing); a scene that
/// ticks during a transfer is drawn when it ends (at 60 Hz: every second tick is shown on an I2C
/// panel, whose transfer takes 1.4 ticks).
///
/// An I2C error (panel missing or unplugged) abandons the frame in flight and is returned after the
/// ticks have run; the next pass draws and sends a new frame.
pub fn poll_paged<S, B, I, C, L>(app: &mut App<S, B, Oled<I>, C, L>) -> Result<Poll, I::Error>
where
    S: StickSource,
    B: ButtonSource,
    I: I2c,
    C: TickClock,
    L: Link,
{
    let mut poll = app.poll_ticks();
    if poll.ticks > 0 && !app.display().flushing() {
        // Drawing into RAM cannot fail (`Infallible`).
        let _ = app.draw();
        poll.drew = true;
        app.display_mut().start_flush();
    }
    app.display_mut().flush_step()?;
    Ok(poll)
}

/// What a board's main loop is doing, for a board that marks its phases (e.g. on debug pins, for a
/// logic analyser or the emulator's harness): [`poll_streamed`] reports each phase as it starts.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum Phase {
    /// Reading the clock and running the due ticks (sampling the inputs of each).
    Ticks,
    /// Drawing the scene into the frame buffer.
    Draw,
    /// Queueing frame bytes into the I2C controller's FIFO.
    Flush,
    /// Done: the loop may sleep.
    Idle,
}

/// One pass of a board's main loop with an [`Oled`] on a FIFO-fed controller ([`TxFifo`]): run the
/// ticks that are due; if any ran and no frame is in flight, draw the scene and start sending it;
/// then queue as much of the frame as the FIFO takes ([`Oled::feed`]) and return, never waiting for
/// the bus. The board sleeps until the next tick is due or the FIFO needs topping up. As with
/// [`poll_paged`], a frame is sent whole before the next is drawn (no tearing). `mark` is told
/// when each [`Phase`] starts.
///
/// An abort (panel missing or unplugged) abandons the frame in flight and is returned after the
/// ticks have run; the next pass draws and sends a new frame.
pub fn poll_streamed<S, B, I, C, L>(
    app: &mut App<S, B, Oled<I>, C, L>,
    mut mark: impl FnMut(Phase),
) -> Result<Poll, Aborted>
where
    S: StickSource,
    B: ButtonSource,
    I: TxFifo,
    C: TickClock,
    L: Link,
{
    mark(Phase::Ticks);
    let mut poll = app.poll_ticks();
    if poll.ticks > 0 && !app.display().flushing() {
        mark(Phase::Draw);
        // Drawing into RAM cannot fail (`Infallible`).
        let _ = app.draw();
        poll.drew = true;
        app.display_mut().start_flush();
    }
    mark(Phase::Flush);
    let fed = app.display_mut().feed();
    mark(Phase::Idle);
    fed.map(|_| poll)
}
