//! The loops behind `hopkit-sim synctest` and `hopkit-sim netplay`.

use std::net::SocketAddr;
use std::time::{Duration, Instant};

use ggrs::{
    DesyncDetection, GgrsError, GgrsEvent, GgrsRequest, PlayerType, SessionBuilder, SessionState,
    UdpNonBlockingSocket,
};
use hopkit::hash::StateHash;
use hopkit_demo::arena::ArenaInput;

use super::inputs::InputSource;
use super::lossy::{Impairment, LossySocket, LossyStats};
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

/// Options of one netplay peer.
#[derive(Clone, Debug)]
pub struct PeerOpts {
    /// UDP port to bind (all interfaces).
    pub local_port: u16,
    /// This peer's player handle, 0-based.
    pub local_player: usize,
    /// Every player's address in handle order; `None` at the local player's handle.
    pub remotes: Vec<Option<SocketAddr>>,
    /// GGRS input delay, frames.
    pub input_delay: usize,
    /// GGRS prediction window, frames.
    pub max_prediction: usize,
    /// Desync detection interval, frames (≥ 1).
    pub desync_interval: u32,
    /// Frames to play (the reported hash is the state after this many ticks).
    pub frames: u32,
    /// Simulation rate, frames per second.
    pub fps: u32,
    /// The local player's input.
    pub input: InputSource<'static>,
    /// A lossy link, if any.
    pub lossy: Option<Impairment>,
    /// Negative control: flip a bit every time this tick is simulated.
    pub perturb_at: Option<u32>,
    /// Give up after this long.
    pub timeout: Duration,
    /// Keep running (and sending) this long after the last frame is confirmed, so that the other
    /// peers get what they still need.
    pub linger: Duration,
}

/// What a peer saw.
#[derive(Clone, Debug)]
pub struct PeerReport {
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

/// Run one peer of a P2P session until `frames` frames are confirmed (plus the linger time).
pub fn peer(opts: &PeerOpts) -> Result<PeerReport, String> {
    let players = opts.remotes.len();
    let udp = UdpNonBlockingSocket::bind_to_port(opts.local_port)
        .map_err(|e| format!("cannot bind UDP port {}: {e}", opts.local_port))?;
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
    for (h, addr) in opts.remotes.iter().enumerate() {
        let t = match addr {
            Some(a) => PlayerType::Remote(*a),
            None => PlayerType::Local,
        };
        b = b.add_player(t, h).map_err(|e| e.to_string())?;
    }
    let mut lossy_stats = None;
    let started = match opts.lossy {
        Some(imp) => {
            let (s, stats) = LossySocket::new(udp, imp);
            lossy_stats = Some(stats);
            b.start_p2p_session(s)
        }
        None => b.start_p2p_session(udp),
    };
    let mut sess = started.map_err(|e| format!("GGRS refused the session settings: {e}"))?;

    let mut game = Game::new(players);
    game.perturb = opts.perturb_at.map(|tick| Perturb::Always { tick });
    let frame_time = Duration::from_secs_f64(1.0 / f64::from(opts.fps.max(1)));
    let start = Instant::now();
    let mut next = start;
    let (mut stalls, mut skipped, mut skip) = (0u64, 0u64, 0u32);
    let mut desyncs = Vec::new();
    let mut confirmed_at: Option<Instant> = None;
    let mut remote_gone = false;
    loop {
        sess.poll_remote_clients();
        for ev in sess.events() {
            match ev {
                GgrsEvent::DesyncDetected {
                    frame,
                    local_checksum,
                    remote_checksum,
                    ..
                } => desyncs.push((frame, local_checksum, remote_checksum)),
                GgrsEvent::WaitRecommendation { skip_frames } => skip += skip_frames,
                GgrsEvent::Disconnected { .. } => remote_gone = true,
                _ => {}
            }
        }
        if sess.current_state() == SessionState::Running && !remote_gone {
            if skip > 0 {
                skip -= 1;
                skipped += 1;
            } else {
                let f = sess.current_frame().max(0) as u32;
                sess.add_local_input(opts.local_player, opts.input.input(f, opts.local_player))
                    .map_err(|e| e.to_string())?;
                match sess.advance_frame() {
                    Ok(requests) => {
                        // No advance: the prediction window is full (GGRS waits for the remote).
                        if !requests
                            .iter()
                            .any(|r| matches!(r, GgrsRequest::AdvanceFrame { .. }))
                        {
                            stalls += 1;
                        }
                        game.handle(requests)?
                    }
                    Err(GgrsError::PredictionThreshold) => stalls += 1,
                    Err(e) => return Err(format!("GGRS failed at frame {f}: {e}")),
                }
                if confirmed_at.is_none()
                    && game.world.tick >= opts.frames
                    && sess.confirmed_frame() >= opts.frames as i32
                {
                    confirmed_at = Some(Instant::now());
                }
            }
        }
        let now = Instant::now();
        match confirmed_at {
            Some(t) if remote_gone || now.duration_since(t) >= opts.linger => break,
            None if remote_gone => {
                return Err(format!(
                    "a remote peer disconnected before frame {} was confirmed (at frame {})",
                    opts.frames,
                    sess.confirmed_frame()
                ))
            }
            _ => {}
        }
        if now.duration_since(start) > opts.timeout {
            return Err(format!(
                "gave up after {} s: frame {} not confirmed (state {:?}, confirmed frame {})",
                opts.timeout.as_secs(),
                opts.frames,
                sess.current_state(),
                sess.confirmed_frame()
            ));
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
    let hash = game
        .hash_at(frames)
        .ok_or_else(|| format!("tick {frames} was never simulated"))?;
    let log = game.log[..frames as usize]
        .iter()
        .map(|all| all[..players].to_vec())
        .collect();
    let remote = opts.remotes.iter().position(Option::is_some).unwrap_or(0);
    let ping_ms = sess.network_stats(remote).ok().map(|s| s.ping);
    Ok(PeerReport {
        frames,
        frames_advanced: game.world.tick,
        stats: game.stats,
        stalls,
        skipped,
        desyncs,
        lossy: lossy_stats.map(|s| s.get()).unwrap_or_default(),
        hash,
        log,
        ping_ms,
    })
}
