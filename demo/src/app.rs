//! The board-independent handheld application.
//!
//! ```text
//!  StickSource ─┐
//!               ├─► RawSticks ─► DemoRig::tick (core stick pipeline + scene) ─► … ─► DemoRig::view
//!  ButtonSource ┘        ▲ once per fixed 1/60 s tick                                     │
//!  TickClock ─► FixedStep┘                                              render::draw_frame ▼ DrawTarget
//! ```
//!
//! [`App::poll`] is the whole main loop body of every board: read the clock, run as many fixed
//! 60 Hz ticks as are due (at most 15 after a long stall: the core's [`FixedStep`] clamps a frame to
//! 0.25 s and reports the dropped time), sample the inputs once per tick, and draw one frame if any
//! tick ran. It returns a [`Poll`] report that the board logs (defmt on the board, semihosting under
//! QEMU). Nothing here allocates, blocks or panics; all hardware is behind the [`crate::seams`].

use crate::link::{sticks_input, Alone, Link};
use crate::seams::{ButtonSource, StickSource, TickClock};
use crate::{DemoRig, TICK_HZ};
use embedded_graphics::pixelcolor::BinaryColor;
use embedded_graphics::prelude::DrawTarget;
use hopkit::timestep::FixedStep;

/// What one [`App::poll`] did.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Poll {
    /// Fixed ticks simulated by this poll (0 if none was due yet).
    pub ticks: u32,
    /// True if a frame was drawn (exactly when `ticks > 0`).
    pub drew: bool,
    /// Time thrown away by the long-frame clamp in this poll, nanoseconds (the loop ran too slowly).
    pub dropped_ns: u64,
    /// The rig's tick count after this poll.
    pub tick: u32,
}

/// Running totals since start.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct Stats {
    /// Polls so far.
    pub polls: u32,
    /// Frames drawn so far.
    pub frames: u32,
    /// Total time dropped by the long-frame clamp, nanoseconds.
    pub dropped_ns: u64,
    /// Largest number of ticks one poll had to run.
    pub max_ticks_per_poll: u32,
}

/// The handheld application over its seams: sticks `S`, buttons `B`, display `D`, clock `C`, and
/// the link cable `L` ([`Alone`]: none; a [`crate::link::Cable`]: the arena against a second
/// handheld while one is plugged in, the single-player demo otherwise).
pub struct App<S, B, D, C, L = Alone> {
    sticks: S,
    buttons: B,
    display: D,
    clock: C,
    link: L,
    rig: DemoRig,
    step: FixedStep,
    last_ns: Option<u64>,
    stats: Stats,
}

impl<S, B, D, C> App<S, B, D, C, Alone>
where
    S: StickSource,
    B: ButtonSource,
    D: DrawTarget<Color = BinaryColor>,
    C: TickClock,
{
    /// A fresh demo scene at 60 ticks per second. The first [`App::poll`] only starts the clock.
    pub fn new(sticks: S, buttons: B, display: D, clock: C) -> Self {
        Self::with_rig(sticks, buttons, display, clock, DemoRig::new())
    }

    /// [`App::new`] with the rig given: e.g. [`DemoRig::with_recording`] on the bundled ghost
    /// decoded from its version 2 bytes ([`crate::pilot::demo_recording_v2`]; the same frames,
    /// and 5 KB less flash than the version 1 file [`DemoRig::new`] links).
    pub fn with_rig(sticks: S, buttons: B, display: D, clock: C, rig: DemoRig) -> Self {
        App::with_link(sticks, buttons, display, clock, rig, Alone)
    }
}

impl<S, B, D, C, L> App<S, B, D, C, L>
where
    S: StickSource,
    B: ButtonSource,
    D: DrawTarget<Color = BinaryColor>,
    C: TickClock,
    L: Link,
{
    /// [`App::with_rig`] with a link cable: each tick goes to the link's match while one is on
    /// (the board's sticks and buttons read as an arena input, [`sticks_input`]), to the demo
    /// otherwise.
    pub fn with_link(sticks: S, buttons: B, display: D, clock: C, rig: DemoRig, link: L) -> Self {
        App {
            sticks,
            buttons,
            display,
            clock,
            link,
            rig,
            step: FixedStep::new(TICK_HZ),
            last_ns: None,
            stats: Stats::default(),
        }
    }

    /// One pass of the main loop: run the ticks that are due, draw if any ran.
    ///
    /// A drawing error is returned after the ticks have run (the simulation never waits for the
    /// display); the next poll draws again.
    pub fn poll(&mut self) -> Result<Poll, D::Error> {
        let mut report = self.poll_ticks();
        if report.ticks > 0 {
            self.draw()?;
            report.drew = true;
        }
        Ok(report)
    }

    /// The tick half of [`App::poll`]: read the clock and run the ticks that are due, without
    /// drawing (`drew` is false). For boards whose display transfer is split over several loop
    /// passes (see `hopkit_firmware::oled::poll_paged`).
    pub fn poll_ticks(&mut self) -> Poll {
        let now = self.clock.now_ns();
        let elapsed = match self.last_ns {
            // A clock that went backwards counts as no time passing.
            Some(last) => now.saturating_sub(last),
            None => 0,
        };
        self.last_ns = Some(now);
        let advance = self.step.advance_nanos(elapsed);
        for _ in 0..advance.ticks {
            self.tick_once();
        }
        self.stats.polls = self.stats.polls.saturating_add(1);
        self.stats.dropped_ns = self.stats.dropped_ns.saturating_add(advance.dropped_ns);
        self.stats.max_ticks_per_poll = self.stats.max_ticks_per_poll.max(advance.ticks);
        Poll {
            ticks: advance.ticks,
            drew: false,
            dropped_ns: advance.dropped_ns,
            tick: self.rig.tick_count(),
        }
    }

    /// The clock time (the [`TickClock`]'s nanoseconds) at which the next tick is due: a board that
    /// sleeps between polls sets its wake-up timer to it. `None` before the first poll (which only
    /// starts the clock).
    pub fn next_tick_due_ns(&self) -> Option<u64> {
        self.last_ns
            .map(|last| last.saturating_add(self.step.until_next_tick_ns()))
    }

    /// One tick of the fixed clock (ignores the clock): the link's match takes it if one is on
    /// (reading the inputs once if it simulates a frame), the demo otherwise.
    pub fn tick_once(&mut self) {
        let tick = self.rig.tick_count();
        let (sticks, buttons) = (&mut self.sticks, &mut self.buttons);
        let mut read = |frame: u32| {
            let s = sticks.read_sticks(frame);
            sticks_input(&s.with_buttons(buttons.read_buttons(frame)))
        };
        if self.link.tick(&mut read) {
            return;
        }
        let sticks = self.sticks.read_sticks(tick);
        let buttons = self.buttons.read_buttons(tick);
        self.rig.tick(&sticks.with_buttons(buttons));
    }

    /// Draw the current scene with the shared renderer: the demo, or the link's match; then the
    /// link's banner, if any, on a dark strip at the bottom.
    pub fn draw(&mut self) -> Result<(), D::Error> {
        let view = self.link.view().unwrap_or_else(|| self.rig.view());
        crate::render::draw_frame(&view, &mut self.display)?;
        if let Some(text) = self.link.banner() {
            draw_banner(text, &mut self.display)?;
        }
        self.stats.frames = self.stats.frames.saturating_add(1);
        Ok(())
    }

    /// The simulation.
    pub fn rig(&self) -> &DemoRig {
        &self.rig
    }

    /// Hash of the whole scene (what the QEMU image prints).
    pub fn state_hash(&self) -> u64 {
        self.rig.state_hash()
    }

    /// Running totals.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// The display, e.g. to flush a buffered display after a poll that drew.
    pub fn display_mut(&mut self) -> &mut D {
        &mut self.display
    }

    /// The display.
    pub fn display(&self) -> &D {
        &self.display
    }

    /// The clock (e.g. for a board that schedules its wake-up in the clock's own units).
    pub fn clock(&self) -> &C {
        &self.clock
    }

    /// The link.
    pub fn link(&self) -> &L {
        &self.link
    }

    /// The link, e.g. to move its bytes.
    pub fn link_mut(&mut self) -> &mut L {
        &mut self.link
    }

    /// The button source (e.g. to read its error count).
    pub fn buttons(&self) -> &B {
        &self.buttons
    }
}

/// `text` in the bottom 7 rows of the display, on a dark strip across it (drawn pixel by pixel:
/// a rectangle fill here would be a second caller of the display's `fill_solid`, changing how the
/// demo's drawing is compiled).
#[inline(never)]
fn draw_banner<D: DrawTarget<Color = BinaryColor>>(text: &str, d: &mut D) -> Result<(), D::Error> {
    use embedded_graphics::prelude::{Pixel, Point};
    let (w, h) = (
        crate::view::DISPLAY_WIDTH as i32,
        crate::view::DISPLAY_HEIGHT as i32,
    );
    d.draw_iter((0..w * 7).map(|i| Pixel(Point::new(i % w, h - 7 + i / w), BinaryColor::Off)))?;
    crate::render::text::draw_text(text.as_bytes(), Point::new(1, h - 6), d)?;
    Ok(())
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::counting::PixelCounter;
    use crate::seams::{ButtonPins, Scripted, StepClock, StickSample};
    use crate::{buttons, scripted_hash, scripted_raw};
    use embedded_hal_mock::eh1::digital::{Mock as PinMock, State, Transaction as T};

    /// A clock returning a list of times, then repeating the last one.
    struct ListClock(&'static [u64], usize);
    impl TickClock for ListClock {
        fn now_ns(&mut self) -> u64 {
            let i = self.1.min(self.0.len() - 1);
            self.1 += 1;
            self.0[i]
        }
    }

    /// Sticks held at one sample.
    struct Held(StickSample);
    impl StickSource for Held {
        fn read_sticks(&mut self, _tick: u32) -> StickSample {
            self.0
        }
    }

    /// Records which ticks it was asked for.
    struct Recorder(std::vec::Vec<u32>);
    impl ButtonSource for Recorder {
        fn read_buttons(&mut self, tick: u32) -> u8 {
            self.0.push(tick);
            0
        }
    }

    #[test]
    fn scripted_app_reproduces_the_reference_hash() {
        let mut app = App::new(
            Scripted,
            Scripted,
            PixelCounter::new(),
            StepClock::per_tick(),
        );
        let first = app.poll().unwrap();
        assert_eq!(first.ticks, 0, "the first poll only starts the clock");
        for n in 1..=300u32 {
            let p = app.poll().unwrap();
            assert_eq!((p.ticks, p.drew, p.tick), (1, true, n));
        }
        assert_eq!(app.state_hash(), scripted_hash(300));
        assert_eq!(app.stats().frames, 300);
        assert_eq!(
            app.display().clears,
            300,
            "one cleared frame per drawn poll"
        );
        assert!(app.display().on > 0, "the frame shows something");
    }

    #[test]
    fn ticks_follow_the_clock_and_long_stalls_are_clamped() {
        const MS: u64 = 1_000_000;
        // start, +10 ms (no tick due), +25 ms total (1 tick), +1 s stall (clamped to 0.25 s)
        static TIMES: [u64; 4] = [5 * MS, 15 * MS, 30 * MS, 1030 * MS];
        let mut app = App::new(
            Held(StickSample::CENTRED),
            Recorder(std::vec::Vec::new()),
            PixelCounter::new(),
            ListClock(&TIMES, 0),
        );
        assert_eq!(app.next_tick_due_ns(), None, "no poll yet");
        assert_eq!(app.poll().unwrap().ticks, 0);
        assert_eq!(app.next_tick_due_ns(), Some(5 * MS + StepClock::TICK_NS));
        let p = app.poll().unwrap();
        assert_eq!((p.ticks, p.drew), (0, false));
        // Polled 10 ms in: the tick is still due at the same time.
        assert_eq!(app.next_tick_due_ns(), Some(5 * MS + StepClock::TICK_NS));
        let p = app.poll().unwrap();
        assert_eq!((p.ticks, p.drew, p.tick), (1, true, 1));
        let p = app.poll().unwrap();
        assert_eq!(p.ticks, 15, "0.25 s clamp at 60 Hz");
        assert!(p.dropped_ns >= 700 * MS, "dropped {} ns", p.dropped_ns);
        assert_eq!(app.stats().max_ticks_per_poll, 15);
        assert_eq!(app.stats().frames, 2, "one frame per poll, not per tick");
        // Inputs were sampled once per tick, for ticks 0..16 in order.
        let want: std::vec::Vec<u32> = (0..16).collect();
        assert_eq!(app.buttons().0, want);
        // A clock going backwards runs nothing.
        static BACK: [u64; 3] = [100 * MS, 50 * MS, 40 * MS];
        let mut app = App::new(
            Held(StickSample::CENTRED),
            Recorder(std::vec::Vec::new()),
            PixelCounter::new(),
            ListClock(&BACK, 0),
        );
        for _ in 0..3 {
            assert_eq!(app.poll().unwrap().ticks, 0);
        }
    }

    fn high3() -> [T; 3] {
        core::array::from_fn(|_| T::get(State::High))
    }

    #[test]
    fn gpio_buttons_reach_the_simulation() {
        // Drive the scripted sticks but real (mock) pins: jump held for the first two ticks.
        let pins = ButtonPins::new(
            PinMock::new(&[T::get(State::Low), T::get(State::Low), T::get(State::High)]),
            PinMock::new(&high3()),
            PinMock::new(&high3()),
            PinMock::new(&high3()),
        );
        let mut app = App::new(Scripted, pins, PixelCounter::new(), StepClock::per_tick());
        for _ in 0..3 {
            app.tick_once();
        }
        // Reference: the same sticks with the same buttons, ticked directly.
        let mut rig = DemoRig::new();
        for t in 0..3u32 {
            let mut raw = scripted_raw(t);
            raw.buttons = if t < 2 { buttons::JUMP } else { 0 };
            rig.tick(&raw);
        }
        assert_eq!(app.state_hash(), rig.state_hash());
        let App { buttons, .. } = app;
        let (mut j, mut f, mut l, mut r) = buttons.release();
        j.done();
        f.done();
        l.done();
        r.done();
    }

    #[test]
    fn two_linked_apps_play_the_arena_and_fall_back_to_the_demo() {
        use crate::link::pipe::{Impairment, PipePort, Wire, TICK_NS};
        use crate::link::{Cable, CableState};
        let app = |seed| {
            App::with_link(
                Scripted,
                Scripted,
                PixelCounter::new(),
                StepClock::per_tick(),
                DemoRig::new(),
                Cable::new(PipePort::default(), seed),
            )
        };
        let mut apps = [app(1), app(2)];
        let mut wires = [
            Wire::new(Impairment::default(), 1),
            Wire::new(Impairment::default(), 2),
        ];
        let mut run = |apps: &mut [App<_, _, _, _, Cable<PipePort>>; 2], ticks: u64, cut| {
            for t in 0..ticks {
                for i in 0..2 {
                    let now = t * TICK_NS;
                    wires[1 - i].cut = cut;
                    wires[1 - i].deliver(now, apps[i].link_mut().port_mut());
                    apps[i].tick_once();
                    apps[i].link_mut().port_mut().flush(now, &mut wires[i]);
                }
            }
        };
        run(&mut apps, 300, false);
        for a in &apps {
            assert_eq!(a.link().state(), CableState::Playing);
            assert!(a.rig().tick_count() < 20, "the demo paused for the match");
            assert!(a.link().session().frame() > 250);
        }
        let checks = apps.each_ref().map(|a| a.link().session().latest_check());
        assert!(checks[0].is_some());
        let seats = apps.each_ref().map(|a| a.link().session().seat());
        assert_ne!(seats[0], seats[1]);
        // The match is drawn: the other player as a ghost, the seat on the banner.
        assert_eq!(apps[0].link().view().unwrap().ghosts.len(), 1);
        assert_eq!(
            apps[0].link().banner(),
            Some(["LINK P1", "LINK P2"][seats[0]])
        );
        apps[0].draw().unwrap();
        let with_banner = apps[0].display().on;
        assert!(with_banner > 0);
        // Cut: link lost, the demo goes on where it was.
        let demo_ticks = apps[0].rig().tick_count();
        run(&mut apps, 120, true);
        for a in &apps {
            assert_eq!(a.link().state(), CableState::Alone);
            assert!(a.rig().tick_count() > demo_ticks + 60);
            assert_eq!(a.link().stats().lost, 1);
        }
    }
}
