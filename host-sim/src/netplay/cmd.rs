//! `hopkit-sim synctest`, `hopkit-sim netplay` and `hopkit-sim hash --arena`: argument checks,
//! the runs, the messages.

use std::net::{SocketAddr, ToSocketAddrs};
use std::path::{Path, PathBuf};
use std::time::Duration;

use anyhow::{anyhow, Result};
use hopkit::ghost::{encode, recording_size, Frame, Recording, RecordingInfo};
use hopkit::hash::{format_hash_line, StateHash};
use hopkit_demo::arena::{ArenaInput, ArenaWorld, MAX_PLAYERS};
use hopkit_demo::DemoParams;

use super::inputs::InputSource;
use super::lossy::Impairment;
use super::run::{peer, synctest as run_synctest, NetOpts, PeerError, PeerOpts, SynctestOpts};
use super::window::{self, End, WindowPeerOpts};
use crate::app::max_ticks;
use crate::cli::{NetInputArgs, NetplayArgs, SynctestArgs, MAX_SECONDS};
use crate::output::OutFile;
use crate::{replay, UserError};

fn hash_line(h: u64) -> String {
    let mut buf = [0u8; 64];
    format_hash_line(h, &mut buf).to_string()
}

/// The input source `args` name, for `players` players.
pub fn input_source(args: &NetInputArgs, players: usize) -> Result<InputSource<'static>> {
    let recording = match &args.recording {
        Some(path) => {
            let bytes = replay::load(path)?;
            Recording::parse(bytes).map_err(|e| {
                UserError(format!(
                    "recording {} is unusable: {}",
                    path.display(),
                    replay::decode_error_message(&e)
                ))
            })?
        }
        None => hopkit_demo::demo_recording()
            .map_err(|e| anyhow!("the bundled demo recording is unusable: {e}"))?,
    };
    Ok(InputSource::new(
        args.input.core(),
        args.seed,
        players,
        recording,
    ))
}

fn input_name(args: &NetInputArgs) -> String {
    let kind = format!("{:?}", args.input).to_lowercase();
    match &args.recording {
        Some(p) => format!("{kind} ({})", p.display()),
        None => kind,
    }
}

/// `synctest`.
pub fn synctest(args: &SynctestArgs) -> Result<()> {
    if args.check_distance >= args.max_prediction {
        return Err(UserError(format!(
            "--check-distance {} must be below --max-prediction {} (GGRS's rule)",
            args.check_distance, args.max_prediction
        ))
        .into());
    }
    let input = input_source(&args.input, args.players)?;
    let report = run_synctest(&SynctestOpts {
        frames: args.frames,
        check_distance: args.check_distance,
        max_prediction: args.max_prediction,
        players: args.players,
        input,
        perturb_at: args.perturb_at,
    })
    .map_err(|e| anyhow!(e))?;
    let mismatches = usize::from(report.mismatch.is_some());
    println!(
        "synctest: {} frames, {} players, check distance {}, input {}: {mismatches} mismatches, \
         {} rollbacks (deepest {} frames), {} ticks simulated",
        report.frames,
        args.players,
        args.check_distance,
        input_name(&args.input),
        report.stats.rollbacks,
        report.stats.deepest,
        report.stats.ticks_simulated,
    );
    if let Some((frame, frames)) = report.mismatch {
        return Err(anyhow!(
            "synctest: the state hashes of frames {frames:?} differ after re-simulation (found at \
             frame {frame})"
        ));
    }
    println!("{}", hash_line(report.hash));
    Ok(())
}

fn resolve(addr: &str) -> Result<SocketAddr, UserError> {
    addr.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| UserError(format!("--remote {addr}: not an address (HOST:PORT)")))
}

/// The remotes in `--remote` order and the seat claimed with `--player` (checked: 1 to players).
pub fn remotes_and_claim(args: &NetplayArgs) -> Result<(Vec<SocketAddr>, Option<u8>), UserError> {
    let remotes: Vec<SocketAddr> = args
        .remote
        .iter()
        .map(|r| resolve(r))
        .collect::<Result<_, _>>()?;
    for (i, r) in remotes.iter().enumerate() {
        if remotes[..i].contains(r) {
            return Err(UserError(format!("--remote {r} is given twice")));
        }
        let local = r.ip().is_loopback() || r.ip().is_unspecified();
        if local && r.port() == args.local_port {
            return Err(UserError(format!(
                "--remote {r} is this peer itself (--local-port {})",
                args.local_port
            )));
        }
    }
    let players = remotes.len() + 1;
    if players > MAX_PLAYERS {
        return Err(UserError(format!(
            "{} --remote peers: the arena has at most {MAX_PLAYERS} players",
            remotes.len()
        )));
    }
    let claim = match args.player {
        Some(n) if (1..=players).contains(&n) => Some(n as u8),
        Some(n) => {
            return Err(UserError(format!(
                "--player {n}: expected 1 to {players} ({players} players)"
            )))
        }
        None => None,
    };
    Ok((remotes, claim))
}

/// A peer's failure as this command's error: a seat refusal is a user error (exit 2).
pub fn peer_error(e: PeerError) -> anyhow::Error {
    match e {
        PeerError::Refused(why) => UserError(format!("netplay: {why}")).into(),
        PeerError::Failed(why) => anyhow!("netplay: {why}"),
    }
}

/// `netplay --frames` without a value, headless (10 s).
pub const DEFAULT_FRAMES: u32 = 600;

/// `netplay`.
pub fn netplay(args: &NetplayArgs) -> Result<()> {
    let (remotes, claim) = remotes_and_claim(args)?;
    let players = remotes.len() + 1;
    let max = max_ticks(hopkit_demo::TICK_HZ);
    let frames = args
        .frames
        .unwrap_or(if args.window { max } else { DEFAULT_FRAMES });
    if frames == 0 || frames > max {
        return Err(UserError(format!(
            "--frames {frames}: expected 1 to {max} ({MAX_SECONDS} s at {} Hz)",
            hopkit_demo::TICK_HZ
        ))
        .into());
    }
    if args.max_prediction == 0 {
        return Err(UserError("--max-prediction 0 (lockstep) is not supported".into()).into());
    }
    let lossy = match &args.lossy {
        Some(s) => Some(Impairment::parse(s).map_err(|e| UserError(format!("--lossy {s}: {e}")))?),
        None => None,
    };
    let logs = match &args.log {
        Some(dir) => (1..=players)
            .map(|p| {
                let path = log_path(dir, p);
                OutFile::check("--log", &path)
            })
            .collect::<Result<Vec<_>, _>>()?,
        None => Vec::new(),
    };
    let input = input_source(&args.input, players)?;
    let fps = hopkit_demo::TICK_HZ;
    let net = NetOpts {
        input_delay: args.input_delay,
        max_prediction: args.max_prediction,
        desync_interval: args.desync_interval,
        fps,
        lossy,
        perturb_at: args.perturb_at,
    };
    let (report, ended) = if args.window {
        let (report, end) = window::play(&WindowPeerOpts {
            local_port: args.local_port,
            remotes,
            claim,
            net,
            frames,
            wait: args.timeout.map(Duration::from_secs_f64),
            linger: Duration::from_secs(2),
        })
        .map_err(peer_error)?;
        (report, Some(end))
    } else {
        let play = f64::from(frames) / f64::from(fps);
        let timeout = args.timeout.unwrap_or(2.0 * play + 30.0);
        let report = peer(&PeerOpts {
            local_port: args.local_port,
            remotes,
            claim,
            net,
            frames,
            input,
            timeout: Duration::from_secs_f64(timeout),
            linger: Duration::from_secs(2),
        })
        .map_err(peer_error)?;
        (report, None)
    };
    let local = report.seats.local;
    for (p, out) in logs.iter().enumerate() {
        let frames: Vec<Frame> = report
            .log
            .iter()
            .map(|all| Frame::unpack(all.get(p).copied().unwrap_or_default()))
            .collect();
        out.write_bytes(&encode_recording(&frames)?)?;
    }
    println!(
        "seat: player {} of {players}, {}",
        local + 1,
        report.seats.how
    );
    match ended {
        Some(End::Done) | None => {}
        Some(End::Closed) => println!(
            "ended: the window was closed at frame {} (the hash below is of that frame)",
            report.frames
        ),
        Some(End::RemoteLeft) => println!(
            "ended: the other player left at frame {} (the hash below is of that frame)",
            report.frames
        ),
    }
    println!(
        "netplay: player {} of {players}, {} frames ({} advanced), input delay {}, max prediction \
         {}, desync detection every {} frames",
        local + 1,
        report.frames,
        report.frames_advanced,
        args.input_delay,
        args.max_prediction,
        args.desync_interval
    );
    println!(
        "rollbacks: {} (deepest {} frames, {} ticks simulated), prediction stalls: {}, frames \
         skipped to let the remote catch up: {}",
        report.stats.rollbacks,
        report.stats.deepest,
        report.stats.ticks_simulated,
        report.stalls,
        report.skipped
    );
    if let Some(ping) = report.ping_ms {
        println!("ping: {ping} ms");
    }
    if lossy.is_some() {
        let l = report.lossy;
        println!(
            "lossy link: {} packets sent, {} dropped, {} reordered",
            l.sent, l.dropped, l.reordered
        );
    }
    println!("desync events: {}", report.desyncs.len());
    let mut desyncs = report.desyncs.clone();
    desyncs.sort_unstable();
    for (frame, a, b) in desyncs.iter().take(3) {
        println!("  desync at frame {frame}: local 0x{a:016x}, remote 0x{b:016x}");
    }
    if let Some(dir) = &args.log {
        println!(
            "inputs: {}/player-1.ghost … player-{players}.ghost",
            dir.display()
        );
    }
    println!("{}", hash_line(report.hash));
    if let Some((first, _, _)) = desyncs.first() {
        return Err(anyhow!(
            "netplay: {} desync events (first at frame {first})",
            desyncs.len()
        ));
    }
    Ok(())
}

/// `DIR/player-P.ghost`.
pub fn log_path(dir: &Path, player: usize) -> PathBuf {
    dir.join(format!("player-{player}.ghost"))
}

/// One player's frames as a recording file (60 Hz, no state checksums: the arena's hash is not a
/// flyer's).
pub fn encode_recording(frames: &[Frame]) -> Result<Vec<u8>> {
    let info = RecordingInfo {
        tick_hz: hopkit_demo::TICK_HZ as u16,
        checksum_interval: 0,
        ..RecordingInfo::default()
    };
    let mut out = vec![0u8; recording_size(frames.len(), 0)];
    let n = encode(&info, frames, &[], &mut out).map_err(|e| anyhow!("encoding: {e:?}"))?;
    out.truncate(n);
    Ok(out)
}

/// `hash --arena FILE…`: the arena's state hash after `ticks` ticks (default: the shortest
/// recording's length) with player `p` driven by the frames of file `p`.
pub fn arena_hash_files(paths: &[PathBuf], ticks: Option<u32>) -> Result<u64> {
    let mut recs = Vec::with_capacity(paths.len());
    for path in paths {
        let bytes = replay::load(path)?;
        let r =
            Recording::parse(bytes).map_err(|e| UserError(format!("{}: {e}", path.display())))?;
        if u32::from(r.tick_hz()) != hopkit_demo::TICK_HZ {
            return Err(UserError(format!(
                "recording {} ticks at {} Hz; the arena ticks at {} Hz",
                path.display(),
                r.tick_hz(),
                hopkit_demo::TICK_HZ
            ))
            .into());
        }
        recs.push(r);
    }
    let shortest = recs.iter().map(|r| r.frame_count()).min().unwrap_or(0);
    let n = match ticks {
        Some(n) if n > shortest => {
            return Err(UserError(format!(
                "--ticks {n}: the shortest arena recording has {shortest} frames"
            ))
            .into())
        }
        Some(n) => n,
        None => shortest,
    };
    // Every run is at most MAX_SECONDS of simulated time.
    let n = crate::app::check_ticks(n, hopkit_demo::TICK_HZ)?;
    let params = DemoParams::default();
    let mut world = ArenaWorld::new(recs.len());
    let mut inputs: Vec<ArenaInput> = vec![[0; 3]; recs.len()];
    for t in 0..n {
        for (i, r) in inputs.iter_mut().zip(recs.iter()) {
            *i = r.frame(t).unwrap_or(Frame::NEUTRAL).pack();
        }
        world.step(&params, &inputs);
    }
    Ok(world.state_hash())
}
