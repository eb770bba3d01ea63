//! Who plays which seat: agreed between the peers before the GGRS session starts, without
//! trusting addresses.
//!
//! Behind a relay or a NAT a peer's port is rewritten on the way, so comparing the local port with
//! the port in `--remote` (what `netplay` did first) can give two peers the same seat. Instead,
//! every peer draws a random 64-bit **nonce** and sends it, with its `--player` claim (if any) and
//! the number of players it expects, in a small `HKSEAT` packet on the session's own UDP socket
//! (the packets take exactly the GGRS packets' path, through any relay). Once a peer holds every
//! other peer's packet:
//!
//! - claimed seats (`--player N`) are taken first; two peers claiming one seat is a **refusal**
//!   ([`Step::Refused`], exit code 2, both peers say why);
//! - the other peers take the free seats in ascending nonce order (lower nonce, lower seat);
//! - equal nonces (one chance in 2⁶⁴, or a broken random source) make the peers whose nonce is
//!   shared draw a new one (a new **round**; the newest round of a peer replaces its older ones);
//! - every packet carries a digest of the whole table its sender holds (0 while incomplete); a peer
//!   starts GGRS when every other peer reports its own digest — they all hold the same table, so
//!   they all compute the same seats — or has been seen sending GGRS packets already (it only does
//!   that once it holds the same table).
//!
//! A peer that started GGRS no longer answers `HKSEAT` hellos; GGRS's packets are the answer
//! ([`SeatAgreement::poll`] takes any other packet from a remote as "that peer has started").
//! The same socket carries a `bye` packet when a windowed peer closes, so the other one can say at
//! once that its partner left ([`BYE`]).
//!
//! The table logic ([`Handshake`]) is pure (no socket, injected nonces) and unit-tested; the
//! socket loop is [`SeatAgreement`].

use std::hash::{BuildHasher, Hasher};
use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ggrs::Message;

use super::socket::PeerSocket;

/// The first bytes of every seat packet.
pub const MAGIC: [u8; 6] = *b"HKSEAT";
/// The packet layout's version.
pub const VERSION: u8 = 1;
/// Packet kind: a hello (nonce, claim, players, digest).
pub const HELLO: u8 = 1;
/// Packet kind: the sender is leaving the session.
pub const BYE: u8 = 2;
/// Bytes of a seat packet.
pub const PACKET_BYTES: usize = 32;
/// How often a peer repeats its hello while the seats are not agreed.
pub const RESEND: Duration = Duration::from_millis(50);

/// What one peer says about itself.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Hello {
    /// Players the sender expects in the session (its `--remote` count + 1).
    pub players: u8,
    /// The seat it claims (`--player N`, 1-based), if any.
    pub claim: Option<u8>,
    /// Its nonce's round (0 first; + 1 at each re-roll).
    pub round: u32,
    /// Its nonce.
    pub nonce: u64,
    /// Digest of the whole table the sender holds ([`table_digest`]), 0 while it is incomplete.
    pub digest: u64,
}

/// A decoded seat packet.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum Packet {
    /// A hello.
    Hello(Hello),
    /// The sender leaves.
    Bye,
}

/// `MAGIC, VERSION, kind, players, claim (0 none), 1 pad byte, round u32, nonce u64, digest u64,
/// 4 zero bytes` (little-endian).
pub fn encode(p: &Packet) -> [u8; PACKET_BYTES] {
    let mut b = [0u8; PACKET_BYTES];
    b[..6].copy_from_slice(&MAGIC);
    b[6] = VERSION;
    match p {
        Packet::Hello(h) => {
            b[7] = HELLO;
            b[8] = h.players;
            b[9] = h.claim.unwrap_or(0);
            b[12..16].copy_from_slice(&h.round.to_le_bytes());
            b[16..24].copy_from_slice(&h.nonce.to_le_bytes());
            b[24..32].copy_from_slice(&h.digest.to_le_bytes());
        }
        Packet::Bye => b[7] = BYE,
    }
    b
}

/// Decode a seat packet: `None` for anything else (a GGRS packet, garbage, another version).
pub fn decode(b: &[u8]) -> Option<Packet> {
    if b.len() != PACKET_BYTES || b[..6] != MAGIC || b[6] != VERSION {
        return None;
    }
    let u32_at = |i: usize| u32::from_le_bytes([b[i], b[i + 1], b[i + 2], b[i + 3]]);
    let u64_at = |i: usize| u64::from(u32_at(i)) | (u64::from(u32_at(i + 4)) << 32);
    match b[7] {
        HELLO => Some(Packet::Hello(Hello {
            players: b[8],
            claim: (b[9] != 0).then_some(b[9]),
            round: u32_at(12),
            nonce: u64_at(16),
            digest: u64_at(24),
        })),
        BYE => Some(Packet::Bye),
        _ => None,
    }
}

/// One peer's entry in the table: its nonce and its claim.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub struct Entry {
    /// The nonce.
    pub nonce: u64,
    /// The claimed seat, 1-based.
    pub claim: Option<u8>,
}

/// Why the seats cannot be agreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatError {
    /// Two peers (indices into the table) claim this seat (1-based).
    SameClaim {
        /// The seat.
        seat: u8,
        /// The peers.
        peers: (usize, usize),
    },
    /// A peer claims a seat outside 1..=players.
    BadClaim {
        /// The peer.
        peer: usize,
        /// Its claim.
        seat: u8,
    },
    /// Two peers drew the same nonce (they must draw again).
    Tie(usize, usize),
}

/// The seat (0-based) of every peer of the table: claimed seats first, then the free seats in
/// ascending nonce order. Total over any table; errors are [`SeatError`]s.
pub fn assign(table: &[Entry]) -> Result<Vec<usize>, SeatError> {
    let n = table.len();
    let mut seat: Vec<Option<usize>> = vec![None; n];
    let mut taken: Vec<Option<usize>> = vec![None; n];
    for (i, e) in table.iter().enumerate() {
        if let Some(c) = e.claim {
            let s = usize::from(c);
            if s == 0 || s > n {
                return Err(SeatError::BadClaim { peer: i, seat: c });
            }
            if let Some(j) = taken[s - 1] {
                return Err(SeatError::SameClaim {
                    seat: c,
                    peers: (j, i),
                });
            }
            taken[s - 1] = Some(i);
            seat[i] = Some(s - 1);
        }
    }
    for i in 0..n {
        for j in i + 1..n {
            if table[i].nonce == table[j].nonce {
                return Err(SeatError::Tie(i, j));
            }
        }
    }
    let mut free: Vec<usize> = (0..n).filter(|&i| seat[i].is_none()).collect();
    free.sort_by_key(|&i| table[i].nonce);
    let mut seats_left = (0..n).filter(|&s| taken[s].is_none());
    for i in free {
        seat[i] = seats_left.next();
    }
    // Every peer has a seat: as many free seats as unclaimed peers.
    Ok(seat.into_iter().map(|s| s.unwrap_or(0)).collect())
}

/// FNV-1a over the players and the entries sorted by nonce: the same for every peer holding the
/// same table, whatever order it lists the peers in. Never 0 (0 means "incomplete").
pub fn table_digest(players: u8, table: &[Entry]) -> u64 {
    let mut sorted: Vec<Entry> = table.to_vec();
    sorted.sort_by_key(|e| (e.nonce, e.claim));
    let mut h: u64 = 0xcbf2_9ce4_8422_2325;
    let mut eat = |b: u8| {
        h ^= u64::from(b);
        h = h.wrapping_mul(0x0100_0000_01b3);
    };
    eat(players);
    for e in &sorted {
        e.nonce.to_le_bytes().into_iter().for_each(&mut eat);
        eat(e.claim.unwrap_or(0));
    }
    h.max(1)
}

/// A fresh random nonce: the standard library's per-process random hasher keys (seeded by the
/// operating system), mixed with the clock and the process id.
pub fn random_nonce() -> u64 {
    let mut h = std::collections::hash_map::RandomState::new().build_hasher();
    h.write_u128(
        std::time::SystemTime::now()
            .duration_since(std::time::UNIX_EPOCH)
            .map(|d| d.as_nanos())
            .unwrap_or(0),
    );
    h.write_u32(std::process::id());
    h.finish()
}

/// What the remote last said.
#[derive(Clone, Copy, Debug)]
struct Heard {
    hello: Hello,
    /// It has sent a non-seat packet (GGRS): it has started.
    started: bool,
}

/// The seats, agreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub struct Seats {
    /// This peer's seat, 0-based.
    pub local: usize,
    /// Every seat's address in seat order; `None` at the local seat.
    pub table: Vec<Option<SocketAddr>>,
    /// How the local seat was decided, for the summary.
    pub how: String,
}

/// Where the agreement stands.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum Step {
    /// Still waiting for (or talking to) the other peers.
    Pending,
    /// Agreed: start GGRS with these seats.
    Done(Seats),
    /// The peers' settings contradict each other: the message says which and what to change.
    Refused(String),
}

/// The table logic of one peer (no socket): what it holds, what it sends, when it is done.
pub struct Handshake {
    players: u8,
    claim: Option<u8>,
    round: u32,
    nonce: u64,
    remotes: Vec<SocketAddr>,
    heard: Vec<Option<Heard>>,
    draw: Box<dyn FnMut() -> u64>,
}

impl Handshake {
    /// A peer with these `remotes` (in `--remote` order), claiming `claim` (1-based, checked by the
    /// caller against the player count), drawing nonces from `draw`.
    pub fn new(
        remotes: Vec<SocketAddr>,
        claim: Option<u8>,
        mut draw: Box<dyn FnMut() -> u64>,
    ) -> Self {
        let nonce = draw();
        Handshake {
            players: (remotes.len() + 1).min(usize::from(u8::MAX)) as u8,
            claim,
            round: 0,
            nonce,
            heard: vec![None; remotes.len()],
            remotes,
            draw,
        }
    }

    /// This peer's current nonce.
    pub fn nonce(&self) -> u64 {
        self.nonce
    }

    /// The table (local first, then the remotes in `--remote` order) once every remote was heard.
    fn table(&self) -> Option<Vec<Entry>> {
        let mut t = vec![Entry {
            nonce: self.nonce,
            claim: self.claim,
        }];
        for h in &self.heard {
            let h = h.as_ref()?.hello;
            t.push(Entry {
                nonce: h.nonce,
                claim: h.claim,
            });
        }
        Some(t)
    }

    /// The hello to send now.
    pub fn hello(&self) -> Hello {
        Hello {
            players: self.players,
            claim: self.claim,
            round: self.round,
            nonce: self.nonce,
            digest: self.table().map_or(0, |t| table_digest(self.players, &t)),
        }
    }

    fn index(&self, from: SocketAddr) -> Option<usize> {
        self.remotes.iter().position(|&a| a == from)
    }

    /// A hello from `from` (ignored unless `from` is one of the remotes; an older round than
    /// one already heard is ignored too — packets may arrive out of order).
    pub fn receive(&mut self, from: SocketAddr, hello: Hello) {
        let Some(i) = self.index(from) else { return };
        let newer = match &self.heard[i] {
            Some(h) => hello.round >= h.hello.round,
            None => true,
        };
        if newer {
            let started = self.heard[i].is_some_and(|h| h.started);
            self.heard[i] = Some(Heard { hello, started });
        }
    }

    /// `from` sent a GGRS packet: it has agreed and started. Returns whether `from` is a remote.
    pub fn started(&mut self, from: SocketAddr) -> bool {
        let Some(i) = self.index(from) else {
            return false;
        };
        if let Some(h) = &mut self.heard[i] {
            h.started = true;
        }
        true
    }

    /// Where the agreement stands (draws a new nonce when this peer's ties another's).
    pub fn step(&mut self) -> Step {
        for (i, h) in self.heard.iter().enumerate() {
            if let Some(h) = h {
                if h.hello.players != self.players {
                    return Step::Refused(format!(
                        "the peer at {} plays a {}-player session, this one a {}-player session \
                         ({} --remote): give every peer one --remote per other player",
                        self.remotes[i],
                        h.hello.players,
                        self.players,
                        self.remotes.len()
                    ));
                }
            }
        }
        let Some(table) = self.table() else {
            return Step::Pending;
        };
        let seats = match assign(&table) {
            Ok(s) => s,
            Err(SeatError::SameClaim { seat, peers }) => {
                let who = |p: usize| {
                    if p == 0 {
                        "this peer".to_string()
                    } else {
                        format!("the peer at {}", self.remotes[p - 1])
                    }
                };
                return Step::Refused(format!(
                    "{} and {} both claim player {seat} (--player {seat}): drop --player on one \
                     of them (the seats are then agreed automatically) or give it another number",
                    who(peers.0),
                    who(peers.1)
                ));
            }
            Err(SeatError::BadClaim { peer, seat }) => {
                let who = match peer.checked_sub(1).and_then(|i| self.remotes.get(i)) {
                    Some(a) => format!("the peer at {a}"),
                    None => "this peer".to_string(),
                };
                return Step::Refused(format!(
                    "{who} claims player {seat} of a {}-player session",
                    self.players
                ));
            }
            Err(SeatError::Tie(a, b)) => {
                if a == 0 || b == 0 {
                    // Our nonce is shared: draw again (the other peer does the same).
                    self.nonce = (self.draw)();
                    self.round = self.round.wrapping_add(1);
                }
                return Step::Pending;
            }
        };
        let digest = table_digest(self.players, &table);
        let agreed = self
            .heard
            .iter()
            .flatten()
            .all(|h| h.started || h.hello.digest == digest);
        if !agreed {
            return Step::Pending;
        }
        let mut out = vec![None; table.len()];
        for (i, addr) in self.remotes.iter().enumerate() {
            out[seats[i + 1]] = Some(*addr);
        }
        let how = match self.claim {
            Some(c) => format!("claimed with --player {c}"),
            None => format!(
                "by the seat handshake (nonce 0x{:016x}, {} of {} by nonce)",
                self.nonce,
                table.iter().filter(|e| e.nonce <= self.nonce).count(),
                table.len()
            ),
        };
        Step::Done(Seats {
            local: seats[0],
            table: out,
            how,
        })
    }
}

/// The seat handshake on the session's socket: send hellos, read packets, until agreed.
pub struct SeatAgreement {
    /// The socket (handed to GGRS afterwards; GGRS packets read meanwhile are kept in it).
    pub socket: PeerSocket,
    /// The table logic.
    pub hs: Handshake,
    last_sent: Option<Instant>,
}

impl SeatAgreement {
    /// Start agreeing on `socket`.
    pub fn new(socket: PeerSocket, hs: Handshake) -> Self {
        SeatAgreement {
            socket,
            hs,
            last_sent: None,
        }
    }

    fn send_hello(&mut self) {
        let b = encode(&Packet::Hello(self.hs.hello()));
        for a in self.hs.remotes.clone() {
            self.socket.send_raw(&b, a);
        }
        self.last_sent = Some(Instant::now());
    }

    /// One round: read every packet waiting, send the hello if due, say where it stands. On
    /// [`Step::Done`] and [`Step::Refused`] the final hello has been sent (three times on a
    /// refusal, so the other peers see the claim that refused them too).
    pub fn poll(&mut self) -> Step {
        for (from, bytes) in self.socket.receive_raw() {
            match decode(&bytes) {
                Some(Packet::Hello(h)) => self.hs.receive(from, h),
                Some(Packet::Bye) => {}
                None => {
                    if self.hs.started(from) {
                        if let Ok(msg) = bincode::deserialize::<Message>(&bytes) {
                            self.socket.stash(from, msg);
                        }
                    }
                }
            }
        }
        let step = self.hs.step();
        match &step {
            Step::Pending => {
                if self.last_sent.is_none_or(|t| t.elapsed() >= RESEND) {
                    self.send_hello();
                }
            }
            Step::Done(_) => self.send_hello(),
            Step::Refused(_) => {
                for _ in 0..3 {
                    self.send_hello();
                }
            }
        }
        step
    }

    /// Poll until agreed, refused or `timeout` has passed (an error naming the silent peers).
    pub fn run(&mut self, timeout: Duration) -> Result<Seats, SeatFailure> {
        let start = Instant::now();
        loop {
            match self.poll() {
                Step::Done(s) => return Ok(s),
                Step::Refused(why) => return Err(SeatFailure::Refused(why)),
                Step::Pending => {}
            }
            if start.elapsed() > timeout {
                return Err(SeatFailure::Timeout(self.silent()));
            }
            std::thread::sleep(Duration::from_millis(5));
        }
    }

    /// What the peers still owe, for a message: the remotes never heard, or not yet agreed.
    pub fn silent(&self) -> String {
        let never: Vec<String> = self
            .hs
            .remotes
            .iter()
            .zip(self.hs.heard.iter())
            .filter(|(_, h)| h.is_none())
            .map(|(a, _)| a.to_string())
            .collect();
        if never.is_empty() {
            "the peers answered but did not agree on the seats in time".into()
        } else {
            format!(
                "no answer from {} (is hopkit-sim netplay running there, with a --remote that \
                 reaches this peer?)",
                never.join(", ")
            )
        }
    }
}

/// Why the seats were not agreed.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum SeatFailure {
    /// The settings contradict each other (a user error: exit 2).
    Refused(String),
    /// Nobody answered in time.
    Timeout(String),
}

#[cfg(test)]
mod tests {
    use super::*;

    fn e(nonce: u64, claim: Option<u8>) -> Entry {
        Entry { nonce, claim }
    }

    #[test]
    fn packets_round_trip_and_garbage_is_not_a_packet() {
        let h = Hello {
            players: 2,
            claim: Some(2),
            round: 7,
            nonce: 0x0123_4567_89ab_cdef,
            digest: 42,
        };
        assert_eq!(decode(&encode(&Packet::Hello(h))), Some(Packet::Hello(h)));
        assert_eq!(decode(&encode(&Packet::Bye)), Some(Packet::Bye));
        let none = Hello { claim: None, ..h };
        assert_eq!(
            decode(&encode(&Packet::Hello(none))),
            Some(Packet::Hello(none))
        );
        let mut bad = encode(&Packet::Bye);
        bad[6] = 9;
        assert_eq!(decode(&bad), None);
        assert_eq!(decode(&bad[..5]), None);
        assert_eq!(decode(b""), None);
        // A seat packet is not a GGRS message (GGRS drops it as garbage).
        assert!(bincode::deserialize::<Message>(&encode(&Packet::Hello(h))).is_err());
        assert!(bincode::deserialize::<Message>(&encode(&Packet::Bye)).is_err());
    }

    #[test]
    fn seats_follow_claims_then_nonces() {
        assert_eq!(assign(&[e(5, None), e(3, None)]), Ok(vec![1, 0]));
        assert_eq!(assign(&[e(3, None), e(5, None)]), Ok(vec![0, 1]));
        // A claim wins over the nonce order; the others fill the free seats by nonce.
        assert_eq!(assign(&[e(9, Some(1)), e(3, None)]), Ok(vec![0, 1]));
        assert_eq!(
            assign(&[e(9, None), e(3, Some(2)), e(1, None), e(7, None)]),
            Ok(vec![3, 1, 0, 2])
        );
        assert_eq!(
            assign(&[e(1, Some(1)), e(2, Some(1))]),
            Err(SeatError::SameClaim {
                seat: 1,
                peers: (0, 1)
            })
        );
        assert_eq!(
            assign(&[e(1, Some(3)), e(2, None)]),
            Err(SeatError::BadClaim { peer: 0, seat: 3 })
        );
        assert_eq!(assign(&[e(4, None), e(4, None)]), Err(SeatError::Tie(0, 1)));
        // Digest: the same table in any order, different for another table.
        let a = [e(1, None), e(2, Some(2))];
        let b = [e(2, Some(2)), e(1, None)];
        assert_eq!(table_digest(2, &a), table_digest(2, &b));
        assert_ne!(table_digest(2, &a), table_digest(3, &a));
        assert_ne!(
            table_digest(2, &a),
            table_digest(2, &[e(1, None), e(3, Some(2))])
        );
    }

    fn addr(p: u16) -> SocketAddr {
        SocketAddr::from(([127, 0, 0, 1], p))
    }

    fn draws(v: Vec<u64>) -> Box<dyn FnMut() -> u64> {
        let mut it = v.into_iter();
        Box::new(move || it.next().unwrap_or(u64::MAX))
    }

    /// Deliver every peer's hello to every other (peer `i` is at `addrs[i]`; a peer knows the
    /// others by `seen_as[i][j]`, the address peer j's packets come from at peer i).
    fn exchange(peers: &mut [Handshake], seen_as: &[Vec<SocketAddr>]) -> Vec<Step> {
        for _ in 0..4 {
            let hellos: Vec<Hello> = peers.iter().map(|p| p.hello()).collect();
            for (i, p) in peers.iter_mut().enumerate() {
                for (j, h) in hellos.iter().enumerate() {
                    if i != j {
                        p.receive(seen_as[i][j], *h);
                    }
                }
                let _ = p.step();
            }
        }
        peers.iter_mut().map(|p| p.step()).collect()
    }

    #[test]
    fn two_peers_behind_a_relay_get_different_seats() {
        // Each sees the other at a relay address (ports rewritten): no address is trusted.
        let (ra, rb) = (addr(40001), addr(40002));
        let mut peers = vec![
            Handshake::new(vec![ra], None, draws(vec![900])),
            Handshake::new(vec![rb], None, draws(vec![100])),
        ];
        let steps = exchange(&mut peers, &[vec![ra, ra], vec![rb, rb]]);
        let (Step::Done(a), Step::Done(b)) = (&steps[0], &steps[1]) else {
            panic!("{steps:?}")
        };
        assert_eq!((a.local, b.local), (1, 0));
        assert_eq!(a.table, vec![Some(ra), None]);
        assert_eq!(b.table, vec![None, Some(rb)]);
    }

    #[test]
    fn ties_draw_again_and_equal_claims_refuse() {
        let (ra, rb) = (addr(1), addr(2));
        let mut peers = vec![
            Handshake::new(vec![ra], None, draws(vec![7, 3])),
            Handshake::new(vec![rb], None, draws(vec![7, 8])),
        ];
        let steps = exchange(&mut peers, &[vec![ra, ra], vec![rb, rb]]);
        let (Step::Done(a), Step::Done(b)) = (&steps[0], &steps[1]) else {
            panic!("{steps:?}")
        };
        assert_eq!((a.local, b.local), (0, 1));
        assert_eq!((peers[0].nonce(), peers[1].nonce()), (3, 8));

        let mut peers = vec![
            Handshake::new(vec![ra], Some(1), draws(vec![1])),
            Handshake::new(vec![rb], Some(1), draws(vec![2])),
        ];
        for s in exchange(&mut peers, &[vec![ra, ra], vec![rb, rb]]) {
            let Step::Refused(why) = s else {
                panic!("{s:?}")
            };
            assert!(why.contains("both claim player 1"), "{why}");
        }
        // One claim and one free peer: the claim holds, the other takes the seat left.
        let mut peers = vec![
            Handshake::new(vec![ra], Some(2), draws(vec![1])),
            Handshake::new(vec![rb], None, draws(vec![2])),
        ];
        let steps = exchange(&mut peers, &[vec![ra, ra], vec![rb, rb]]);
        assert!(matches!(&steps[0], Step::Done(s) if s.local == 1));
        assert!(matches!(&steps[1], Step::Done(s) if s.local == 0));
    }

    #[test]
    fn a_player_count_mismatch_refuses_and_strangers_are_ignored() {
        let (ra, rb, rc) = (addr(1), addr(2), addr(3));
        let mut a = Handshake::new(vec![ra], None, draws(vec![1]));
        let b = Handshake::new(vec![rb, rc], None, draws(vec![2]));
        a.receive(addr(99), b.hello());
        assert_eq!(a.step(), Step::Pending);
        assert!(!a.started(addr(99)));
        a.receive(ra, b.hello());
        let Step::Refused(why) = a.step() else {
            panic!()
        };
        assert!(why.contains("3-player"), "{why}");
    }

    #[test]
    fn three_peers_agree_on_one_table() {
        let a = [addr(1), addr(2), addr(3)];
        // Peer i sees peer j at a[j] (ports kept); remotes in different orders at each peer.
        let mut peers = vec![
            Handshake::new(vec![a[2], a[1]], None, draws(vec![50])),
            Handshake::new(vec![a[0], a[2]], None, draws(vec![10])),
            Handshake::new(vec![a[1], a[0]], Some(1), draws(vec![30])),
        ];
        let seen = vec![a.to_vec(), a.to_vec(), a.to_vec()];
        let steps = exchange(&mut peers, &seen);
        let seat = |s: &Step| match s {
            Step::Done(s) => s.local,
            other => panic!("{other:?}"),
        };
        // Peer 2 claims seat 1; then nonce 10 (peer 1) seat 2, nonce 50 (peer 0) seat 3.
        assert_eq!(
            [seat(&steps[0]), seat(&steps[1]), seat(&steps[2])],
            [2, 1, 0]
        );
        let Step::Done(s0) = &steps[0] else { panic!() };
        assert_eq!(s0.table, vec![Some(a[2]), Some(a[1]), None]);
    }
}
