//! A bad network on demand: a GGRS [`NonBlockingSocket`] over the session's [`PeerSocket`] that drops,
//! delays and reorders the packets it sends, every decision drawn from a seeded [`Pcg32`].
//!
//! Each packet sent is, in the order of the sends: dropped with probability `loss`; otherwise held
//! back `delay ± jitter` (uniform, at least 0) and handed to the UDP socket once that time has
//! passed — packets whose hold times cross leave in the other order (reordering). The sequence of
//! decisions is the same for the same seed and the same sends; when the packets leave depends on
//! the wall clock, as on a real network. Applied at both peers, the link is lossy in both
//! directions ("150 ms each way").

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ggrs::{Message, NonBlockingSocket};

use super::socket::PeerSocket;
use hopkit::rng::Pcg32;

/// The impairments of a [`LossySocket`].
#[derive(Clone, Copy, Debug, PartialEq)]
pub struct Impairment {
    /// Probability of dropping a packet, `[0, 1]`.
    pub loss: f64,
    /// Mean one-way delay added, ms.
    pub delay_ms: f64,
    /// The delay varies uniformly by ± this, ms (never below 0).
    pub jitter_ms: f64,
    /// PRNG seed of every decision.
    pub seed: u64,
}

impl Impairment {
    /// Parse `loss%,delay-ms,jitter-ms,seed`, e.g. `5,150,30,1`.
    pub fn parse(s: &str) -> Result<Impairment, String> {
        let parts: Vec<&str> = s.split(',').map(str::trim).collect();
        let [loss, delay, jitter, seed] = parts[..] else {
            return Err("expected loss%,delay-ms,jitter-ms,seed, e.g. 5,150,30,1".into());
        };
        let num = |what: &str, v: &str, max: f64| -> Result<f64, String> {
            match v.parse::<f64>() {
                Ok(x) if x.is_finite() && (0.0..=max).contains(&x) => Ok(x),
                _ => Err(format!(
                    "{what} must be a number from 0 to {max}, got {v:?}"
                )),
            }
        };
        let loss = num("loss%", loss, 100.0)? / 100.0;
        let delay_ms = num("delay-ms", delay, 10_000.0)?;
        let jitter_ms = num("jitter-ms", jitter, 10_000.0)?;
        let seed = seed
            .parse::<u64>()
            .map_err(|_| format!("seed must be a whole number ≥ 0, got {seed:?}"))?;
        Ok(Impairment {
            loss,
            delay_ms,
            jitter_ms,
            seed,
        })
    }
}

/// What a [`LossySocket`] did.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct LossyStats {
    /// Packets given to send.
    pub sent: u64,
    /// Packets dropped.
    pub dropped: u64,
    /// Packets that left after a packet sent later (reordered).
    pub reordered: u64,
}

/// The sequence of decisions of a [`LossySocket`], one per packet sent: dropped (`None`) or held
/// back this many ms. Two draws per packet, whatever the outcome, so the sequence depends only on
/// the seed and the number of packets.
#[derive(Clone, Debug)]
pub struct Decider {
    imp: Impairment,
    rng: Pcg32,
}

impl Decider {
    /// The decisions of `imp` (its seed).
    pub fn new(imp: Impairment) -> Decider {
        Decider {
            imp,
            rng: Pcg32::new(imp.seed, 24),
        }
    }

    /// A uniform draw in `[0, 1)` with 53 bits.
    fn unit(&mut self) -> f64 {
        let hi = u64::from(self.rng.next_u32());
        let lo = u64::from(self.rng.next_u32());
        ((hi << 21) ^ (lo >> 11)) as f64 / (1u64 << 53) as f64
    }
}

impl Iterator for Decider {
    type Item = Option<f64>;
    /// The next packet's fate: `Some(None)` dropped, `Some(Some(ms))` held `ms` ≥ 0.
    fn next(&mut self) -> Option<Option<f64>> {
        let drop = self.unit() < self.imp.loss;
        let spread = (self.unit() * 2.0 - 1.0) * self.imp.jitter_ms;
        Some(if drop {
            None
        } else {
            Some((self.imp.delay_ms + spread).max(0.0))
        })
    }
}

struct Held {
    due: Instant,
    seq: u64,
    addr: SocketAddr,
    msg: Message,
}

/// A UDP socket that drops, delays and reorders what it sends (see the module docs).
pub struct LossySocket {
    inner: PeerSocket,
    decider: Decider,
    held: Vec<Held>,
    next_seq: u64,
    last_left: u64,
    /// What happened so far (shared with the caller: the session owns the socket).
    stats: std::rc::Rc<std::cell::Cell<LossyStats>>,
}

impl LossySocket {
    /// Wrap `inner` with `imp`; returns the socket and a handle on its counters.
    pub fn new(
        inner: PeerSocket,
        imp: Impairment,
    ) -> (LossySocket, std::rc::Rc<std::cell::Cell<LossyStats>>) {
        let stats = std::rc::Rc::new(std::cell::Cell::new(LossyStats::default()));
        (
            LossySocket {
                inner,
                decider: Decider::new(imp),
                held: Vec::new(),
                next_seq: 0,
                last_left: 0,
                stats: stats.clone(),
            },
            stats,
        )
    }

    /// Hand every packet whose time has come to the UDP socket, earliest first.
    fn release(&mut self) {
        let now = Instant::now();
        let mut due: Vec<Held> = Vec::new();
        let mut i = 0;
        while i < self.held.len() {
            if self.held[i].due <= now {
                due.push(self.held.swap_remove(i));
            } else {
                i += 1;
            }
        }
        due.sort_by_key(|h| (h.due, h.seq));
        let mut s = self.stats.get();
        for h in due {
            if h.seq < self.last_left {
                s.reordered += 1;
            }
            self.last_left = self.last_left.max(h.seq);
            self.inner.send_to(&h.msg, &h.addr);
        }
        self.stats.set(s);
    }
}

impl NonBlockingSocket<SocketAddr> for LossySocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        let mut s = self.stats.get();
        s.sent += 1;
        match self.decider.next().flatten() {
            None => {
                s.dropped += 1;
                self.stats.set(s);
            }
            Some(ms) => {
                self.stats.set(s);
                let due = Instant::now() + Duration::from_secs_f64(ms / 1000.0);
                self.next_seq += 1;
                self.held.push(Held {
                    due,
                    seq: self.next_seq,
                    addr: *addr,
                    msg: msg.clone(),
                });
            }
        }
        self.release();
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        self.release();
        self.inner.receive_all_messages()
    }
}

#[cfg(test)]
mod tests {
    use super::*;

    #[test]
    fn parse_and_refuse() {
        let i = Impairment::parse("5,150,30,7").unwrap();
        assert_eq!(
            (i.loss, i.delay_ms, i.jitter_ms, i.seed),
            (0.05, 150.0, 30.0, 7)
        );
        assert!(Impairment::parse("5,150,30").is_err());
        assert!(Impairment::parse("101,150,30,1").is_err());
        assert!(Impairment::parse("5,-1,30,1").is_err());
        assert!(Impairment::parse("5,150,nan,1").is_err());
    }

    #[test]
    fn decisions_are_seeded_and_as_asked() {
        let imp = Impairment::parse("5,150,30,7").unwrap();
        let a: Vec<Option<f64>> = Decider::new(imp).take(100_000).collect();
        let b: Vec<Option<f64>> = Decider::new(imp).take(100_000).collect();
        assert_eq!(a, b);
        let other: Vec<Option<f64>> = Decider::new(Impairment { seed: 8, ..imp })
            .take(100_000)
            .collect();
        assert_ne!(a, other);
        let dropped = a.iter().filter(|d| d.is_none()).count();
        assert!((4_500..5_500).contains(&dropped), "{dropped}");
        let held: Vec<f64> = a.iter().flatten().copied().collect();
        assert!(held.iter().all(|&ms| (120.0..=180.0).contains(&ms)));
        let mean = held.iter().sum::<f64>() / held.len() as f64;
        assert!((mean - 150.0).abs() < 0.5, "{mean}");
        // Jitter wider than the delay never holds a packet a negative time.
        let wide = Impairment::parse("0,10,50,1").unwrap();
        assert!(Decider::new(wide)
            .take(1000)
            .all(|d| d.is_some_and(|ms| ms >= 0.0)));
    }
}
