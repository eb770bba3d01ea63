//! A simulated serial wire between two [`Cable`]s, for tests and `hopkit-sim link`: bytes leave
//! at the line's baud rate (10 bit times each, 8N1), arrive after a latency with jitter (in order:
//! a wire does not reorder), and may be lost or have a bit flipped, or the wire may be cut — all
//! from a seeded PRNG, so a run is reproducible. Fixed capacities ([`WIRE_BYTES`] in flight per
//! direction, [`PORT_BYTES`] per port buffer): a byte that finds a buffer full is lost and counted,
//! as a UART's overrun loses it.

use super::{Cable, Link, LinkPort};
use crate::arena::ArenaInput;
use heapless::Deque;
use hopkit::rng::Pcg32;

/// Bytes in flight per direction.
pub const WIRE_BYTES: usize = 4096;
/// Bytes a simulated port buffers each way (the board's receive and transmit rings are 256).
pub const PORT_BYTES: usize = 1024;
/// One 60 Hz tick, nanoseconds (rounded).
pub const TICK_NS: u64 = 16_666_667;

/// What the wire does to bytes. `Default`: 115,200 baud, no latency, nothing lost.
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impairment {
    /// Line rate, bits per second (10 bits a byte); 0 is taken as 115,200.
    pub baud: u32,
    /// Extra delay after a byte's last bit, nanoseconds.
    pub latency_ns: u64,
    /// Up to this much more delay, drawn per frame (bytes stay in order), nanoseconds.
    pub jitter_ns: u64,
    /// Chance a byte is lost, parts per million.
    pub loss_ppm: u32,
    /// Chance a byte has one bit flipped, parts per million.
    pub flip_ppm: u32,
}

impl Default for Impairment {
    fn default() -> Self {
        Impairment {
            baud: 115_200,
            latency_ns: 0,
            jitter_ns: 0,
            loss_ppm: 0,
            flip_ppm: 0,
        }
    }
}

/// Counters of one direction.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct WireStats {
    /// Bytes put on the wire.
    pub sent: u64,
    /// Bytes lost (impairment, cut wire, full buffers).
    pub lost: u64,
    /// Bytes delivered with a bit flipped.
    pub flipped: u64,
    /// Bytes delivered.
    pub delivered: u64,
}

/// One direction of the wire.
#[derive(Clone, Debug)]
pub struct Wire {
    /// What it does to bytes.
    pub imp: Impairment,
    /// Cut: bytes sent now are lost.
    pub cut: bool,
    queue: Deque<(u64, u8), WIRE_BYTES>,
    line_free_ns: u64,
    last_arrival_ns: u64,
    rng: Pcg32,
    stats: WireStats,
}

impl Wire {
    /// A wire with `imp`, its PRNG seeded with `seed`.
    pub fn new(imp: Impairment, seed: u64) -> Self {
        Wire {
            imp,
            cut: false,
            queue: Deque::new(),
            line_free_ns: 0,
            last_arrival_ns: 0,
            rng: Pcg32::seeded(seed),
            stats: WireStats::default(),
        }
    }

    /// Counters.
    pub fn stats(&self) -> WireStats {
        self.stats
    }

    fn chance(&mut self, ppm: u32) -> bool {
        ppm > 0 && self.rng.below(1_000_000) < ppm
    }

    /// Send one frame's `bytes` at `now_ns`.
    pub fn send(&mut self, now_ns: u64, bytes: &[u8]) {
        let baud = if self.imp.baud == 0 {
            115_200
        } else {
            self.imp.baud
        };
        let byte_ns = 10_000_000_000 / u64::from(baud);
        let jitter = if self.imp.jitter_ns > 0 {
            u64::from(self.rng.next_u32()) % (self.imp.jitter_ns + 1)
        } else {
            0
        };
        for &b in bytes {
            self.stats.sent += 1;
            let start = self.line_free_ns.max(now_ns);
            self.line_free_ns = start + byte_ns;
            let arrive =
                (self.line_free_ns + self.imp.latency_ns + jitter).max(self.last_arrival_ns);
            if self.cut || self.chance(self.imp.loss_ppm) {
                self.stats.lost += 1;
                continue;
            }
            let b = if self.chance(self.imp.flip_ppm) {
                self.stats.flipped += 1;
                b ^ (1 << self.rng.below(8))
            } else {
                b
            };
            if self.queue.push_back((arrive, b)).is_err() {
                self.stats.lost += 1;
                continue;
            }
            self.last_arrival_ns = arrive;
        }
    }

    /// Hand every byte that has arrived by `now_ns` to `port`.
    pub fn deliver(&mut self, now_ns: u64, port: &mut PipePort) {
        while let Some(&(at, b)) = self.queue.front() {
            if at > now_ns {
                break;
            }
            self.queue.pop_front();
            if port.rx.push_back(b).is_ok() {
                self.stats.delivered += 1;
            } else {
                self.stats.lost += 1;
            }
        }
    }
}

/// A board's port on the simulated wire: a receive and a transmit buffer.
#[derive(Clone, Debug, Default)]
pub struct PipePort {
    rx: Deque<u8, PORT_BYTES>,
    tx: Deque<u8, PORT_BYTES>,
}

impl LinkPort for PipePort {
    fn read(&mut self, buf: &mut [u8]) -> usize {
        let mut n = 0;
        for slot in buf.iter_mut() {
            match self.rx.pop_front() {
                Some(b) => {
                    *slot = b;
                    n += 1;
                }
                None => break,
            }
        }
        n
    }

    fn send(&mut self, frame: &[u8]) -> bool {
        if self.tx.capacity() - self.tx.len() < frame.len() {
            return false;
        }
        for &b in frame {
            let _ = self.tx.push_back(b);
        }
        true
    }
}

impl PipePort {
    /// Move everything queued for sending onto `wire` at `now_ns`.
    pub fn flush(&mut self, now_ns: u64, wire: &mut Wire) {
        let mut buf = [0u8; 128];
        loop {
            let mut n = 0;
            while n < buf.len() {
                match self.tx.pop_front() {
                    Some(b) => {
                        buf[n] = b;
                        n += 1;
                    }
                    None => break,
                }
            }
            if n == 0 {
                break;
            }
            wire.send(now_ns, &buf[..n]);
        }
    }
}

/// Two boards (`0` and `1`) and the wire between them, ticking at 60 Hz; board 1's ticks fall
/// `offset_ns` after board 0's (no two boards share a clock).
#[derive(Clone, Debug)]
pub struct Pair {
    /// The boards' cables.
    pub boards: [Cable<PipePort>; 2],
    /// The wire from board 0 to board 1, and back.
    pub wires: [Wire; 2],
    /// Board 1's clock offset, nanoseconds (< one tick).
    pub offset_ns: u64,
    ticks: u64,
}

impl Pair {
    /// Two fresh cables (seeded `seed` and `seed + 1`) on a wire impaired by `imp` both ways.
    pub fn new(imp: Impairment, seed: u64, offset_ns: u64) -> Self {
        Pair {
            boards: [
                Cable::new(PipePort::default(), seed),
                Cable::new(PipePort::default(), seed.wrapping_add(1)),
            ],
            wires: [Wire::new(imp, seed ^ 0xa), Wire::new(imp, seed ^ 0xb)],
            offset_ns: offset_ns % TICK_NS,
            ticks: 0,
        }
    }

    /// Ticks run.
    pub fn ticks(&self) -> u64 {
        self.ticks
    }

    /// Cut (or join) the wire both ways.
    pub fn set_cut(&mut self, cut: bool) {
        for w in self.wires.iter_mut() {
            w.cut = cut;
        }
    }

    /// One tick of both boards. `input(board, frame)` is a board's input for a match frame (asked
    /// only when the board simulates one). Returns whether each board played a match tick.
    pub fn tick(&mut self, input: &mut dyn FnMut(usize, u32) -> ArenaInput) -> [bool; 2] {
        let mut played = [false; 2];
        for (i, p) in played.iter_mut().enumerate() {
            let now = self.ticks * TICK_NS + if i == 1 { self.offset_ns } else { 0 };
            let (from, to) = if i == 0 { (1, 0) } else { (0, 1) };
            self.wires[from].deliver(now, self.boards[to].port_mut());
            let board = &mut self.boards[i];
            *p = board.tick(&mut |frame| input(i, frame));
            board.port_mut().flush(now, &mut self.wires[i]);
        }
        self.ticks += 1;
        played
    }
}
