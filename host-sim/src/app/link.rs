//! `link`: the link cable of two handhelds (`hopkit_demo::link`) on the host.
//!
//! - `link play`: two boards over a simulated serial wire (baud, latency, jitter, lost and flipped
//!   bytes, a cut), each board's checksums against the replay of both boards' logged inputs;
//!   `--log DIR` writes those inputs as recordings (`hopkit-sim hash --arena` replays them).
//! - `link inputs`: a board's arena inputs from the stick samples it read (a sticks file, as the
//!   emulator harness feeds the board), from the input its match began at, as a recording.

use anyhow::{anyhow, Result};
use hopkit::ghost::Frame;
use hopkit_demo::link::pipe::Impairment;
use hopkit_demo::link::sticks_input;

use super::hash_line;
use crate::cli::{LinkArgs, LinkCommand, LinkInputsArgs, LinkPlayArgs};
use crate::link::play::{play, replay, seat_inputs, PlayOpts};
use crate::netplay::inputs::input_source;
use crate::output::OutFile;
use crate::replay::{encode_recording, log_path};
use crate::UserError;

/// `link play` or `link inputs`.
pub fn run(args: &LinkArgs) -> Result<()> {
    match &args.command {
        LinkCommand::Play(a) => link_play(a),
        LinkCommand::Inputs(a) => link_inputs(a),
    }
}

fn ppm(what: &str, pct: f64) -> Result<u32, UserError> {
    if !(0.0..=100.0).contains(&pct) {
        return Err(UserError(format!(
            "--{what} {pct}: expected 0 to 100 (percent)"
        )));
    }
    Ok((pct * 10_000.0).round() as u32)
}

fn ns(what: &str, ms: f64) -> Result<u64, UserError> {
    if !(0.0..=10_000.0).contains(&ms) {
        return Err(UserError(format!(
            "--{what} {ms}: expected 0 to 10000 (ms)"
        )));
    }
    Ok((ms * 1e6).round() as u64)
}

fn link_play(a: &LinkPlayArgs) -> Result<()> {
    if a.ticks == 0 || a.ticks > 36_000 {
        return Err(UserError(format!("--ticks {}: expected 1 to 36000", a.ticks)).into());
    }
    if !(300..=4_000_000).contains(&a.baud) {
        return Err(UserError(format!("--baud {}: expected 300 to 4000000", a.baud)).into());
    }
    let cut = match &a.cut {
        Some(s) => {
            let parsed = s
                .split_once('-')
                .and_then(|(x, y)| Some((x.trim().parse().ok()?, y.trim().parse().ok()?)));
            match parsed {
                Some((x, y)) if x < y => Some((x, y)),
                _ => return Err(UserError(format!("--cut {s}: expected A-B ticks, A < B")).into()),
            }
        }
        None => None,
    };
    let offset_ns = ns("offset-ms", a.offset_ms)?;
    if offset_ns >= hopkit_demo::link::pipe::TICK_NS {
        return Err(UserError(format!(
            "--offset-ms {}: below one tick (16.67)",
            a.offset_ms
        ))
        .into());
    }
    let input = input_source(&a.input, 2)?;
    let opts = PlayOpts {
        ticks: a.ticks,
        imp: Impairment {
            baud: a.baud,
            latency_ns: ns("latency-ms", a.latency_ms)?,
            jitter_ns: ns("jitter-ms", a.jitter_ms)?,
            loss_ppm: ppm("loss", a.loss)?,
            flip_ppm: ppm("flip", a.flip)?,
        },
        seed: a.wire_seed,
        offset_ns,
        cut,
        input,
    };
    let logs = match &a.log {
        Some(dir) => Some([
            OutFile::check("--log", &log_path(dir, 1))?,
            OutFile::check("--log", &log_path(dir, 2))?,
        ]),
        None => None,
    };
    let rep = play(&opts);
    let mut bad = Vec::new();
    for b in 0..2 {
        let c = rep.cables[b];
        println!(
            "board {}: {} matches, {} lost, {} packets, {} dropped (CRC/framing), {} sent, {} unsent",
            b + 1,
            c.matches,
            c.lost,
            c.packets,
            c.dropped,
            c.sent,
            c.unsent
        );
        if let Some(t) = rep.lost_after_cut[b] {
            println!("board {}: link lost {t} ticks after the cut", b + 1);
        }
    }
    for (d, w) in rep.wires.iter().enumerate() {
        println!(
            "wire {}: {} bytes sent, {} lost, {} flipped, {} delivered",
            ["1→2", "2→1"][d],
            w.sent,
            w.lost,
            w.flipped,
            w.delivered
        );
    }
    let n = rep.matches[0].len().min(rep.matches[1].len());
    if n == 0 {
        return Err(anyhow!("link: the boards never started a match"));
    }
    for m in 0..n {
        let Some(players) = seat_inputs(&rep, m) else {
            return Err(anyhow!(
                "link: match {}: the boards took the same seat",
                m + 1
            ));
        };
        for b in 0..2 {
            let ml = &rep.matches[b][m];
            let s = ml.stats;
            println!(
                "match {} board {}: seat {}, {} frames, rollbacks {} (deepest {}, {} frames re-simulated), stalls {}, skips {}, checksums compared {}, desyncs {}",
                m + 1,
                b + 1,
                ml.seat + 1,
                s.frames,
                s.rollbacks,
                s.deepest,
                s.resimulated,
                s.stalls,
                s.skips,
                s.checks_compared,
                s.desyncs
            );
            if let Some((f, x, y)) = s.first_desync {
                println!("  desync at frame {f}: this board 0x{x:016x}, the other 0x{y:016x}");
                bad.push(format!(
                    "match {} board {}: desync at frame {f}",
                    m + 1,
                    b + 1
                ));
            }
        }
        let want: Vec<u32> = [600, 3600]
            .into_iter()
            .filter(|f| rep.matches.iter().all(|l| l[m].checks.contains_key(f)))
            .collect();
        let replayed = replay(players, &want);
        for f in &want {
            for b in 0..2 {
                let h = rep.matches[b][m].checks[f];
                println!("match {} board {} frame {f} {}", m + 1, b + 1, hash_line(h));
            }
            let r = replayed.get(f).copied();
            match r {
                Some(r) => println!("match {} replay  frame {f} {}", m + 1, hash_line(r)),
                None => bad.push(format!("match {}: the logs end before frame {f}", m + 1)),
            }
        }
        // Every checksum of both boards against the replay.
        for b in 0..2 {
            let checks = &rep.matches[b][m].checks;
            let at: Vec<u32> = checks.keys().copied().collect();
            let r = replay(players, &at);
            let wrong = checks.iter().filter(|(f, h)| r.get(f) != Some(h)).count();
            if wrong > 0 {
                bad.push(format!(
                    "match {} board {}: {wrong} of {} checksums differ from the replay",
                    m + 1,
                    b + 1,
                    checks.len()
                ));
            }
        }
    }
    if let (Some(files), Some(players)) = (&logs, seat_inputs(&rep, 0)) {
        for (file, inputs) in files.iter().zip(players) {
            let frames: Vec<Frame> = inputs.iter().map(|i| Frame::unpack(*i)).collect();
            file.write_bytes(&encode_recording(&frames)?)?;
        }
        if let Some(dir) = &a.log {
            println!("inputs: {}/player-1.ghost, player-2.ghost", dir.display());
        }
    }
    if !bad.is_empty() {
        return Err(anyhow!("link: {}", bad.join("; ")));
    }
    println!("link: every checksum of both boards equals the replay of their logged inputs");
    Ok(())
}

fn link_inputs(a: &LinkInputsArgs) -> Result<()> {
    let out = OutFile::check("--out", &a.out)?;
    let samples = crate::sticks::read(&a.sticks)?;
    let end = a.from.saturating_add(a.frames);
    if a.frames == 0 || end > samples.len() {
        return Err(UserError(format!(
            "{}: {} samples; --from {} --frames {} needs {}",
            a.sticks.display(),
            samples.len(),
            a.from,
            a.frames,
            end
        ))
        .into());
    }
    let mut frames: Vec<Frame> = samples[a.from..end]
        .iter()
        .map(|r| Frame::unpack(sticks_input(r)))
        .collect();
    if let Some(c) = a.change {
        let Some(f) = frames.get_mut(c) else {
            return Err(UserError(format!("--change {c}: only {} frames", a.frames)).into());
        };
        let full = Frame::unpack(hopkit_demo::arena::make_input(31, 0, 0, false, false));
        *f = if *f == full { Frame::NEUTRAL } else { full };
    }
    out.write_bytes(&encode_recording(&frames)?)?;
    println!("wrote {}: {} frames", a.out.display(), frames.len());
    Ok(())
}
