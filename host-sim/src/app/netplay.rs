//! `netplay`: this process is one peer of the arena over UDP with GGRS rollback netcode,
//! headless ([`peer`]) or in a window ([`window::play`]); exit 1 on a desync or a failed session.

use std::net::{SocketAddr, ToSocketAddrs};
use std::time::Duration;

use anyhow::{anyhow, Result};
use hopkit::ghost::Frame;
use hopkit_demo::arena::MAX_PLAYERS;

use super::hash_line;
use crate::cli::{NetplayArgs, MAX_SECONDS};
use crate::netplay::inputs::input_source;
use crate::netplay::lossy::Impairment;
use crate::netplay::run::{peer, NetOpts, PeerError, PeerOpts};
use crate::netplay::window::{self, End, WindowPeerOpts};
use crate::output::OutFile;
use crate::replay::{encode_recording, log_path};
use crate::ticks::max_ticks;
use crate::UserError;

fn resolve(addr: &str) -> Result<SocketAddr, UserError> {
    addr.to_socket_addrs()
        .ok()
        .and_then(|mut a| a.next())
        .ok_or_else(|| UserError(format!("--remote {addr}: not an address (HOST:PORT)")))
}

/// The remotes in `--remote` order and the seat claimed with `--player` (checked: 1 to players).
fn remotes_and_claim(args: &NetplayArgs) -> Result<(Vec<SocketAddr>, Option<u8>), UserError> {
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
fn peer_error(e: PeerError) -> anyhow::Error {
    match e {
        PeerError::Refused(why) => UserError(format!("netplay: {why}")).into(),
        PeerError::Failed(why) => anyhow!("netplay: {why}"),
    }
}

/// `netplay --frames` without a value, headless (10 s).
const DEFAULT_FRAMES: u32 = 600;

/// Play the session the arguments describe and print its report.
pub fn run(args: &NetplayArgs) -> Result<()> {
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
