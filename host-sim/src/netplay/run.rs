//! The loops behind `hopkit-sim synctest` and `hopkit-sim netplay`.

use std::cell::Cell;
use std::net::{SocketAddr, UdpSocket};
use std::rc::Rc;
use std::time::{Duration, Instant};

use ggrs::{
    DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, P2PSession, PlayerType, SessionBuilder,
    SessionState,
};
use hopkit::hash::StateHash;
use hopkit_demo::arena::ArenaInput;

use super::inputs::InputSource;
use super::lossy::{Impairment, LossySocket, LossyStats};
use super::seats::{random_nonce, Handshake, SeatAgreement, SeatFailure, Seats};
use super::socket::PeerSocket;
use super::{ArenaConfig, Game, Perturb, RollbackStats};

/// Options of a synctest run.
#[derive(Clone, Copy, Debug)]
pub struct SynctestOpts {
    /// Frames to advance.
    pub frames: u32,
    /// GGRS check distance (rollback and re-simulate this many frames every frame).
    pub check_distance: usize,
    /// GGRS prediction window (must exceed the check distance).
    pub max_prediction: usize,
    /// Players.
    pub players: usize,
    /// The inputs.
    pub input: InputSource<'static>,
    /// Negative control: flip a bit on the second simulation of this tick ([`Perturb::Nth`]).
    pub perturb_at: Option<u32>,
}

/// What a synctest run found.
#[derive(Clone, Debug)]
pub struct SynctestReport {
    /// Frames advanced.
    pub frames: u32,
    /// `Some((current frame, mismatched frames))` at the first mismatch (the run stops there).
    pub mismatch: Option<(i32, Vec<i32>)>,
    /// Rollback counters.
    pub stats: RollbackStats,
    /// The state hash at the end.
    pub hash: u64,
}

/// Run GGRS's `SyncTestSession` over the arena: every frame it rolls back `check_distance`
/// frames, re-simulates them and compares the checksums with the first simulation.
pub fn synctest(opts: &SynctestOpts) -> Result<SynctestReport, String> {
    let mut sess = SessionBuilder::<ArenaConfig>::new()
        .with_num_players(opts.players)
        .map_err(|e| e.to_string())?
        .with_max_prediction_window(opts.max_prediction)
        .with_check_distance(opts.check_distance)
        .with_input_delay(0)
        .start_synctest_session()
        .map_err(|e| format!("GGRS refused the synctest settings: {e}"))?;
    let mut game = Game::new(opts.players);
    game.perturb = opts.perturb_at.map(|tick| Perturb::Nth { tick, nth: 2 });
    let mut mismatch = None;
    let mut frames = 0;
    for f in 0..opts.frames {
        for p in 0..opts.players {
            sess.add_local_input(p, opts.input.input(f, p))
                .map_err(|e| e.to_string())?;
        }
        match sess.advance_frame() {
            Ok(requests) => game.handle(requests)?,
            Err(GgrsError::MismatchedChecksum {
                current_frame,
                mismatched_frames,
            }) => {
                mismatch = Some((current_frame, mismatched_frames));
                break;
            }
            Err(e) => return Err(format!("GGRS synctest failed at frame {f}: {e}")),
        }
        frames = f + 1;
    }
    Ok(SynctestReport {
        frames,
        mismatch,
        stats: game.stats,
        hash: game.world.state_hash(),
    })
}

/// The GGRS settings of a peer (the same for the headless and the windowed peer).
#[derive(Clone, Copy, Debug)]
pub struct NetOpts {
    /// GGRS input delay, frames.
    pub input_delay: usize,
    /// GGRS prediction window, frames.
    pub max_prediction: usize,
    /// Desync detection interval, frames (≥ 1).
    pub desync_interval: u32,
    /// Simulation rate, frames per second.
    pub fps: u32,
    /// A lossy link, if any.
    pub lossy: Option<Impairment>,
    /// Negative control: flip a bit every time this tick is simulated.
    pub perturb_at: Option<u32>,
}

/// Why a peer stopped before its session started or while it ran.
#[derive(Clone, Debug, PartialEq, Eq)]
pub enum PeerError {
    /// The peers' settings contradict each other (seats): a user error, exit code 2.
    Refused(String),
    /// Anything else (no answer, a GGRS failure, a disconnect): exit code 1.
    Failed(String),
}

impl std::fmt::Display for PeerError {
    fn fmt(&self, f: &mut std::fmt::Formatter<'_>) -> std::fmt::Result {
        match self {
            PeerError::Refused(s) | PeerError::Failed(s) => f.write_str(s),
        }
    }
}

impl From<String> for PeerError {
    fn from(s: String) -> Self {
        PeerError::Failed(s)
    }
}

/// Bind `port` and start the seat handshake with `remotes` (in `--remote` order), claiming
/// `claim` (1-based) if given.
pub fn start_agreement(
    port: u16,
    remotes: &[SocketAddr],
    claim: Option<u8>,
) -> Result<SeatAgreement, PeerError> {
    let socket = PeerSocket::bind(port)
        .map_err(|e| PeerError::Failed(format!("cannot bind UDP port {port}: {e}")))?;
    let hs = Handshake::new(remotes.to_vec(), claim, Box::new(random_nonce));
    Ok(SeatAgreement::new(socket, hs))
}

/// A running GGRS peer of the arena: the session, the game, the counters. Both the headless loop
/// ([`peer`]) and the window ([`super::window`]) drive it: [`Net::poll`] every frame, then
/// [`Net::tick`] once per fixed tick with the local input.
pub struct Net {
    /// The GGRS session.
    pub sess: P2PSession<ArenaConfig>,
    /// The arena and its history.
    pub game: Game,
    /// The seats.
    pub seats: Seats,
    /// Frames GGRS refused to advance (prediction window full: waiting for the remote).
    pub stalls: u64,
    /// Frames skipped on GGRS's wait recommendation (ahead of the remote).
    pub skipped: u64,
    skip: u32,
    /// Desync events: `(frame, local checksum, remote checksum)`.
    pub desyncs: Vec<(i32, u128, u128)>,
    /// A remote left (GGRS's disconnect, or its `bye`).
    pub remote_gone: bool,
    /// A remote said `bye` (it closed its window), rather than timing out.
    pub remote_said_bye: bool,
    /// The connection is interrupted (no packets for a while; GGRS's `NetworkInterrupted`).
    pub interrupted: bool,
    left: Rc<Cell<Option<SocketAddr>>>,
    lossy_stats: Option<Rc<Cell<LossyStats>>>,
    sender: Option<UdpSocket>,
}

impl Net {
    /// Start GGRS on the agreement's socket with its agreed `seats`.
    pub fn start(agreement: SeatAgreement, seats: Seats, opts: &NetOpts) -> Result<Net, String> {
        let players = seats.table.len();
        let mut b = SessionBuilder::<ArenaConfig>::new()
            .with_num_players(players)
            .map_err(|e| e.to_string())?
            .with_input_delay(opts.input_delay)
            .with_max_prediction_window(opts.max_prediction)
            .with_desync_detection_mode(DesyncDetection::On {
                interval: opts.desync_interval,
            })
            .with_fps(opts.fps as usize)
            .map_err(|e| e.to_string())?;
        for (h, addr) in seats.table.iter().enumerate() {
            let t = match addr {
                Some(a) => PlayerType::Remote(*a),
                None => PlayerType::Local,
            };
            b = b.add_player(t, h).map_err(|e| e.to_string())?;
        }
        let socket = agreement.socket;
        let left = socket.left();
        let sender = socket.sender().ok();
        let mut lossy_stats = None;
        let started = match opts.lossy {
            Some(imp) => {
                let (s, stats) = LossySocket::new(socket, imp);
                lossy_stats = Some(stats);
                b.start_p2p_session(s)
            }
            None => b.start_p2p_session(socket),
        };
        let sess = started.map_err(|e| format!("GGRS refused the session settings: {e}"))?;
        let mut game = Game::new(players);
        game.perturb = opts.perturb_at.map(|tick| Perturb::Always { tick });
        Ok(Net {
            sess,
            game,
            seats,
            stalls: 0,
            skipped: 0,
            skip: 0,
            desyncs: Vec::new(),
            remote_gone: false,
            remote_said_bye: false,
            interrupted: false,
            left,
            lossy_stats,
            sender,
        })
    }

    /// This peer's seat, 0-based.
    pub fn local(&self) -> usize {
        self.seats.local
    }

    /// Read the network and GGRS's events.
    pub fn poll(&mut self) {
        self.sess.poll_remote_clients();
        for ev in self.sess.events() {
            match ev {
                GgrsEvent::DesyncDetected {
                    frame,
                    local_checksum,
                    remote_checksum,
                    ..
                } => self.desyncs.push((frame, local_checksum, remote_checksum)),
                GgrsEvent::WaitRecommendation { skip_frames } => self.skip += skip_frames,
                GgrsEvent::Disconnected { .. } => self.remote_gone = true,
                GgrsEvent::NetworkInterrupted { .. } => self.interrupted = true,
                GgrsEvent::NetworkResumed { .. } => self.interrupted = false,
                _ => {}
            }
        }
        if self.left.get().is_some() {
            self.remote_gone = true;
            self.remote_said_bye = true;
        }
    }

    /// Is the session running (synchronized with every remote, none gone)?
    pub fn running(&self) -> bool {
        self.sess.current_state() == SessionState::Running && !self.remote_gone
    }

    /// One fixed tick with the local player's `input`: skipped when GGRS recommends waiting,
    /// counted as a stall when the prediction window is full. Nothing happens unless
    /// [`Net::running`].
    pub fn tick(&mut self, input: ArenaInput) -> Result<(), String> {
        if !self.running() {
            return Ok(());
        }
        if self.skip > 0 {
            self.skip -= 1;
            self.skipped += 1;
            return Ok(());
        }
        let f = self.sess.current_frame();
        self.sess
            .add_local_input(self.seats.local, input)
            .map_err(|e| e.to_string())?;
        match self.sess.advance_frame() {
            Ok(requests) => {
                // No advance: the prediction window is full (GGRS waits for the remote).
                if !requests
                    .iter()
                    .any(|r| matches!(r, GgrsRequest::AdvanceFrame { .. }))
                {
                    self.stalls += 1;
                }
                self.game.handle(requests)
            }
            Err(GgrsError::PredictionThreshold) => {
                self.stalls += 1;
                Ok(())
            }
            Err(e) => Err(format!("GGRS failed at frame {f}: {e}")),
        }
    }

    /// The frame whose inputs the local player adds next.
    pub fn frame(&self) -> u32 {
        self.sess.current_frame().max(0) as u32
    }

    /// The last frame every input of which is known.
    pub fn confirmed(&self) -> i32 {
        self.sess.confirmed_frame()
    }

    /// Round trip to the first remote, ms, once GGRS has measured it.
    pub fn ping_ms(&self) -> Option<u128> {
        let remote = self.seats.table.iter().position(Option::is_some)?;
        self.sess.network_stats(remote).ok().map(|s| s.ping)
    }

    /// The lossy socket's counters (zero without one).
    pub fn lossy(&self) -> LossyStats {
        self.lossy_stats
            .as_ref()
            .map(|s| s.get())
            .unwrap_or_default()
    }

    /// Tell every remote that this peer leaves (a windowed peer closing).
    pub fn say_bye(&self) {
        if let Some(s) = &self.sender {
            for a in self.seats.table.iter().flatten() {
                PeerSocket::send_bye_on(s, *a);
            }
        }
    }
}

/// Options of one headless netplay peer.
#[derive(Clone, Debug)]
pub struct PeerOpts {
    /// UDP port to bind (all interfaces).
    pub local_port: u16,
    /// The remote peers, in `--remote` order.
    pub remotes: Vec<SocketAddr>,
    /// The seat this peer claims (`--player N`, 1-based), if any.
    pub claim: Option<u8>,
    /// The GGRS settings.
    pub net: NetOpts,
    /// Frames to play (the reported hash is the state after this many ticks).
    pub frames: u32,
    /// The local player's input (asked for the local seat, once it is agreed).
    pub input: InputSource<'static>,
    /// Give up after this long (the seat handshake included).
    pub timeout: Duration,
    /// Keep running (and sending) this long after the last frame is confirmed, so that the other
    /// peers get what they still need.
    pub linger: Duration,
}

/// What a peer saw.
#[derive(Clone, Debug)]
pub struct PeerReport {
    /// The agreed seats.
    pub seats: Seats,
    /// Frames played (confirmed).
    pub frames: u32,
    /// Frames advanced in all (past `frames` while waiting for confirmation and lingering).
    pub frames_advanced: u32,
    /// Rollback counters.
    pub stats: RollbackStats,
    /// Frames GGRS refused to advance (prediction window full: waiting for the remote).
    pub stalls: u64,
    /// Frames skipped on GGRS's wait recommendation (ahead of the remote).
    pub skipped: u64,
    /// Desync events: `(frame, local checksum, remote checksum)`.
    pub desyncs: Vec<(i32, u128, u128)>,
    /// Lossy socket counters (zero without `--lossy`).
    pub lossy: LossyStats,
    /// The state hash after `frames` ticks.
    pub hash: u64,
    /// `log[t][p]`: player `p`'s confirmed input of tick `t`, for `t < frames`.
    pub log: Vec<Vec<ArenaInput>>,
    /// Round trip to the first remote, ms (GGRS's estimate at the end), if known.
    pub ping_ms: Option<u128>,
}

/// Agree on the seats, then run one peer of a P2P session until `frames` frames are confirmed
/// (plus the linger time).
pub fn peer(opts: &PeerOpts) -> Result<PeerReport, PeerError> {
    let start = Instant::now();
    let mut agreement = start_agreement(opts.local_port, &opts.remotes, opts.claim)?;
    let seats = agreement.run(opts.timeout).map_err(|e| match e {
        SeatFailure::Refused(why) => PeerError::Refused(format!("seats refused: {why}")),
        SeatFailure::Timeout(why) => PeerError::Failed(format!(
            "gave up after {} s agreeing on the seats: {why}",
            opts.timeout.as_secs()
        )),
    })?;
    let mut net = Net::start(agreement, seats, &opts.net)?;
    let local = net.local();
    let frame_time = Duration::from_secs_f64(1.0 / f64::from(opts.net.fps.max(1)));
    let mut next = Instant::now();
    let mut confirmed_at: Option<Instant> = None;
    loop {
        net.poll();
        if net.running() {
            net.tick(opts.input.input(net.frame(), local))?;
            if confirmed_at.is_none()
                && net.game.world.tick >= opts.frames
                && net.confirmed() >= opts.frames as i32
            {
                confirmed_at = Some(Instant::now());
            }
        }
        let now = Instant::now();
        match confirmed_at {
            Some(t) if net.remote_gone || now.duration_since(t) >= opts.linger => break,
            None if net.remote_gone => {
                return Err(PeerError::Failed(format!(
                    "a remote peer disconnected before frame {} was confirmed (at frame {})",
                    opts.frames,
                    net.confirmed()
                )))
            }
            _ => {}
        }
        if now.duration_since(start) > opts.timeout {
            return Err(PeerError::Failed(format!(
                "gave up after {} s: frame {} not confirmed (state {:?}, confirmed frame {})",
                opts.timeout.as_secs(),
                opts.frames,
                net.sess.current_state(),
                net.confirmed()
            )));
        }
        next += frame_time;
        let now = Instant::now();
        if next > now {
            std::thread::sleep(next - now);
        } else if now - next > frame_time * 8 {
            // Far behind (a slow machine): do not try to catch up in a burst.
            next = now;
        }
    }
    let frames = opts.frames;
    let hash = net
        .game
        .hash_at(frames)
        .ok_or_else(|| format!("tick {frames} was never simulated"))?;
    let players = net.seats.table.len();
    let log = net.game.log[..frames as usize]
        .iter()
        .map(|all| all[..players].to_vec())
        .collect();
    Ok(PeerReport {
        frames,
        frames_advanced: net.game.world.tick,
        stats: net.game.stats,
        stalls: net.stalls,
        skipped: net.skipped,
        ping_ms: net.ping_ms(),
        lossy: net.lossy(),
        desyncs: net.desyncs,
        hash,
        log,
        seats: net.seats,
    })
}
