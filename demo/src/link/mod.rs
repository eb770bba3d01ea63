//! The link cable: two handhelds play the [arena](crate::arena) against each other over a byte
//! wire (a UART: TX→RX, RX→TX, GND), with rollback. `no_std`, nothing allocates, every capacity
//! fixed and stated.
//!
//! - [`wire`]: packets, their CRC-32 and their COBS framing (a corrupted or partial packet is
//!   dropped, never applied).
//! - [`session`]: the rollback session (GGRS's semantics for two players in fixed arrays).
//! - [`Cable`]: one board's end of the wire: the seat handshake, the match, the link-lost timeout,
//!   the [`Link`] the [`App`](crate::app::App) ticks through.
//! - [`view`]: the arena as one player sees it.
//!
//! # One image for both boards: seats agreed on the wire
//!
//! A board with no peer plays the single-player demo and says hello every [`HELLO_EVERY`] ticks:
//! a random nonce, and the peer's nonce it has heard (0 if none). A board that hears a hello
//! naming its own nonce — both have heard each other — starts a match; so does one that receives
//! a frame packet of the match the two nonces make ([`wire::match_id`]). The smaller nonce plays
//! seat 0 (player 1). Equal nonces are drawn again. No jumper, no build flag.
//!
//! # Link lost, and back
//!
//! A match with no packet from the peer for [`LOST_AFTER`] ticks (0.75 s) ends: the board shows
//! "LINK LOST" for [`LOST_SHOWN`] ticks over the single-player demo (which goes on where it was),
//! draws a new nonce and says hello again; a peer that answers starts a new match from frame 0.

pub mod pipe;
pub mod session;
pub mod view;
pub mod wire;

use crate::arena::{make_input, ArenaInput};
use crate::view::DemoView;
use crate::DemoParams;
use hopkit::stick::RawSticks;
use session::{Session, SessionStats, Slot};
use wire::{match_id, Deframer, FramePacket, Hello, Packet, Received, MAX_FRAME};

/// A hello every this many ticks while alone (0.1 s).
pub const HELLO_EVERY: u32 = 6;
/// Ticks without a packet from the peer that end a match (0.75 s).
pub const LOST_AFTER: u32 = 45;
/// Ticks "LINK LOST" stays on the display (2 s).
pub const LOST_SHOWN: u32 = 120;
/// Most bytes read off the port per tick (a bound on the work; more wait for the next tick).
pub const MAX_READ_PER_TICK: usize = 1024;
/// Stick steps inside this many (of 31) read as centred.
pub const DEAD_STEPS: i32 = 4;

/// The bytes of the wire, as the board's hardware (or the host's simulated pipe) moves them.
pub trait LinkPort {
    /// Bytes received since the last call, into `buf`; returns how many were written.
    fn read(&mut self, buf: &mut [u8]) -> usize;
    /// Queue one whole frame for sending; false (and nothing queued) if there is no room.
    fn send(&mut self, frame: &[u8]) -> bool;
}

/// What the [`App`](crate::app::App) ticks through: either no link ([`Alone`]) or a [`Cable`].
pub trait Link {
    /// One tick of the fixed clock. Returns false if the single-player demo runs this tick; true
    /// if a match took it (it called `read(frame)` for this board's input of match frame `frame`
    /// once if it simulated a frame, never if it waited).
    fn tick(&mut self, read: &mut dyn FnMut(u32) -> ArenaInput) -> bool;
    /// The match's picture, if one is on.
    fn view(&self) -> Option<DemoView>;
    /// A line of text for the bottom of the display (seat, "LINK LOST", "DESYNC"), if any.
    fn banner(&self) -> Option<&'static str>;
}

/// No link: the single-player demo, always (a zero-sized [`Link`]).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Alone;

impl Link for Alone {
    fn tick(&mut self, _read: &mut dyn FnMut(u32) -> ArenaInput) -> bool {
        false
    }
    fn view(&self) -> Option<DemoView> {
        None
    }
    fn banner(&self) -> Option<&'static str> {
        None
    }
}

/// Stick steps (−31..=31) of an axis: the count's offset from mid-scale, scaled; within
/// [`DEAD_STEPS`] of centre it is 0.
fn steps(count: u16, adc_max: u16) -> i32 {
    let half = i32::from(adc_max.max(2)) / 2;
    let v = i32::from(count.min(adc_max.max(2)));
    let s = ((v - half) * 31 / half).clamp(-31, 31);
    if s.abs() < DEAD_STEPS {
        0
    } else {
        s
    }
}

/// The arena input a handheld's raw sticks and buttons make (integer arithmetic only, so the host
/// turns a board's logged samples into the very same inputs): left stick Y → forward (up = +),
/// left stick X → strafe (past the dead zone), right stick X → turn (right turns right), jump
/// and fire buttons held. Total: any counts, any `adc_max`.
pub fn sticks_input(raw: &RawSticks) -> ArenaInput {
    let forward = steps(raw.left_y, raw.adc_max);
    let strafe = steps(raw.left_x, raw.adc_max).signum();
    let turn = -steps(raw.right_x, raw.adc_max);
    make_input(
        forward as i8,
        turn as i8,
        strafe as i8,
        raw.buttons & crate::buttons::JUMP != 0,
        raw.buttons & crate::buttons::FIRE != 0,
    )
}

/// Counters of a cable.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub struct CableStats {
    /// Matches started.
    pub matches: u32,
    /// Matches ended by the link-lost timeout.
    pub lost: u32,
    /// Good packets received.
    pub packets: u32,
    /// Frames dropped (CRC, length, malformed).
    pub dropped: u32,
    /// Frames sent.
    pub sent: u32,
    /// Frames not sent: the port had no room.
    pub unsent: u32,
    /// Frames played in earlier matches (so `rig ticks + played_before` is how many inputs the
    /// board had read when the current match began).
    pub played_before: u32,
}

/// Whether a match is on.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[cfg_attr(feature = "defmt", derive(defmt::Format))]
pub enum CableState {
    /// No peer: the single-player demo runs (and hellos go out).
    Alone,
    /// A match is on.
    Playing,
}

/// One board's end of the link cable over its port `P`.
#[derive(Clone, Debug)]
pub struct Cable<P> {
    port: P,
    rx: Deframer,
    entropy: u64,
    nonce: u32,
    peer: u32,
    match_id: u32,
    peer_in_match: bool,
    state: CableState,
    quiet: u32,
    lost_shown: u32,
    since_hello: u32,
    session: Session,
    stats: CableStats,
}

impl<P: LinkPort> Cable<P> {
    /// A cable on `port`, alone. `seed` seeds the nonces (a board passes what randomness it has;
    /// [`Cable::stir`] adds more).
    pub fn new(port: P, seed: u64) -> Self {
        Cable {
            port,
            rx: Deframer::new(),
            entropy: seed ^ 0x6a09_e667_f3bc_c909,
            nonce: 0,
            peer: 0,
            match_id: 0,
            peer_in_match: false,
            state: CableState::Alone,
            quiet: 0,
            lost_shown: 0,
            since_hello: HELLO_EVERY,
            session: Session::new(0),
            stats: CableStats::default(),
        }
    }

    /// Mix `x` (a timer reading, an ADC sample) into the nonces' entropy.
    pub fn stir(&mut self, x: u64) {
        self.entropy = (self.entropy ^ x)
            .wrapping_mul(0x9e37_79b9_7f4a_7c15)
            .rotate_left(29);
    }

    fn draw_nonce(&mut self) {
        let mut r = hopkit::rng::Pcg32::new(self.entropy, 0x4c49_4e4b);
        self.entropy = self.entropy.wrapping_add(u64::from(r.next_u32()) | 1);
        self.nonce = r.next_u32().max(1);
    }

    /// Whether a match is on.
    pub fn state(&self) -> CableState {
        self.state
    }

    /// The match's session (the last match's when alone).
    pub fn session(&self) -> &Session {
        &self.session
    }

    /// Counters.
    pub fn stats(&self) -> CableStats {
        self.stats
    }

    /// The session's counters.
    pub fn session_stats(&self) -> SessionStats {
        self.session.stats()
    }

    /// The port.
    pub fn port(&self) -> &P {
        &self.port
    }

    /// The port, to move bytes.
    pub fn port_mut(&mut self) -> &mut P {
        &mut self.port
    }

    fn send(&mut self, p: &Packet) {
        let mut out = [0u8; MAX_FRAME];
        let n = p.frame(&mut out);
        if self.port.send(&out[..n]) {
            self.stats.sent = self.stats.sent.saturating_add(1);
        } else {
            self.stats.unsent = self.stats.unsent.saturating_add(1);
        }
    }

    fn start(&mut self) {
        let seat = usize::from(self.nonce > self.peer);
        self.session = Session::new(seat);
        self.match_id = match_id(self.nonce, self.peer);
        self.state = CableState::Playing;
        self.peer_in_match = false;
        self.quiet = 0;
        self.lost_shown = 0;
        self.stats.matches = self.stats.matches.saturating_add(1);
    }

    fn lose(&mut self) {
        self.stats.played_before = self
            .stats
            .played_before
            .saturating_add(self.session.frame());
        self.stats.lost = self.stats.lost.saturating_add(1);
        self.state = CableState::Alone;
        self.lost_shown = LOST_SHOWN;
        self.peer = 0;
        self.rx.reset();
        self.draw_nonce();
        self.since_hello = HELLO_EVERY;
    }

    fn handle(&mut self, p: Packet) {
        match (self.state, p) {
            (CableState::Alone, Packet::Hello(h)) => {
                if self.nonce == 0 {
                    self.draw_nonce();
                }
                if h.nonce == self.nonce {
                    self.stir(u64::from(h.seen) << 32 | u64::from(self.stats.packets));
                    self.draw_nonce();
                    self.peer = 0;
                    return;
                }
                self.peer = h.nonce;
                if h.seen == self.nonce {
                    self.start();
                }
            }
            (CableState::Alone, Packet::Frame(f)) => {
                if self.peer != 0
                    && self.nonce != 0
                    && f.match_id == match_id(self.nonce, self.peer)
                {
                    self.start();
                    self.take_frame(&f);
                }
            }
            (CableState::Playing, Packet::Hello(h)) => {
                if h.nonce == self.peer {
                    self.quiet = 0;
                }
            }
            (CableState::Playing, Packet::Frame(f)) => self.take_frame(&f),
        }
    }

    fn take_frame(&mut self, f: &FramePacket) {
        if f.match_id == self.match_id {
            self.quiet = 0;
            self.peer_in_match = true;
            self.session.receive(f);
        }
    }

    fn pump(&mut self) {
        let mut buf = [0u8; 64];
        let mut total = 0;
        while total < MAX_READ_PER_TICK {
            let n = self.port.read(&mut buf).min(buf.len());
            if n == 0 {
                break;
            }
            total += n;
            for &b in &buf[..n] {
                match self.rx.push(b) {
                    Received::Nothing => {}
                    Received::Dropped => self.stats.dropped = self.stats.dropped.saturating_add(1),
                    Received::Packet(p) => {
                        self.stats.packets = self.stats.packets.saturating_add(1);
                        self.handle(p);
                    }
                }
            }
        }
    }

    /// A tick alone: hellos; the "LINK LOST" countdown.
    fn tick_alone(&mut self) {
        self.lost_shown = self.lost_shown.saturating_sub(1);
        self.since_hello = self.since_hello.saturating_add(1);
        if self.since_hello >= HELLO_EVERY {
            self.since_hello = 0;
            if self.nonce == 0 {
                self.draw_nonce();
            }
            let hello = Hello {
                nonce: self.nonce,
                seen: self.peer,
            };
            self.send(&Packet::Hello(hello));
        }
    }
}

impl<P: LinkPort> Link for Cable<P> {
    // Kept out of line (as are `view` and `banner`): inlined into a board's main loop, the link's
    // code changed how the demo's own drawing was inlined there, and cost it ~10 % per frame.
    #[inline(never)]
    fn tick(&mut self, read: &mut dyn FnMut(u32) -> ArenaInput) -> bool {
        self.pump();
        if self.state == CableState::Playing {
            self.quiet = self.quiet.saturating_add(1);
            if self.quiet > LOST_AFTER {
                self.lose();
            }
        }
        if self.state == CableState::Alone {
            self.tick_alone();
            return false;
        }
        if self.session.slot() == Slot::Advance {
            let input = read(self.session.frame());
            self.session.advance(input);
        }
        if !self.peer_in_match {
            let hello = Hello {
                nonce: self.nonce,
                seen: self.peer,
            };
            self.send(&Packet::Hello(hello));
        }
        let packet = self.session.packet(self.match_id);
        self.send(&Packet::Frame(packet));
        true
    }

    #[inline(never)]
    fn view(&self) -> Option<DemoView> {
        (self.state == CableState::Playing).then(|| {
            view::with_others_as_ghosts(
                self.session.world(),
                &DemoParams::default(),
                self.session.seat(),
            )
        })
    }

    #[inline(never)]
    fn banner(&self) -> Option<&'static str> {
        match self.state {
            CableState::Playing if self.session.stats().desyncs > 0 => Some("DESYNC"),
            CableState::Playing if self.session.seat() == 0 => Some("LINK P1"),
            CableState::Playing => Some("LINK P2"),
            CableState::Alone if self.lost_shown > 0 => Some("LINK LOST"),
            CableState::Alone => None,
        }
    }
}

#[cfg(test)]
mod tests;
