//! Rollback netplay end to end: GGRS's own SyncTest over ≥ 100,000 frames of varied input, two
//! peers over 127.0.0.1 through the lossy socket (5 % loss, 150 ms ± 30 ms each way, input delay
//! 0, desync detection every frame — the conditions of ggrs#86), the negative controls, and the
//! session's inputs replayed through `hopkit-sim hash --arena`.

use std::net::UdpSocket;
use std::path::Path;
use std::process::{Command, Output, Stdio};

use hopkit::hash::StateHash;
use hopkit_demo::arena::ArenaWorld;
use hopkit_demo::arena::{session_hash, InputKind, InputSource};
use hopkit_demo::DemoParams;

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("hopkit-sim")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

/// The value after `key` on the line that starts with it.
fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} line in:\n{out}"))
        .trim()
}

fn hash_of(out: &str) -> String {
    field(out, "state-hash: ").to_string()
}

/// A UDP port free right now on 127.0.0.1.
fn free_port() -> u16 {
    UdpSocket::bind("127.0.0.1:0")
        .unwrap()
        .local_addr()
        .unwrap()
        .port()
}

/// The arena stepped straight (no rollback) on `source` for `frames` ticks.
fn straight_hash(source: &InputSource, players: usize, frames: u32) -> u64 {
    let params = DemoParams::default();
    let mut w = ArenaWorld::new(players);
    let mut inputs = vec![[0u8; 3]; players];
    for f in 0..frames {
        for (p, i) in inputs.iter_mut().enumerate() {
            *i = source.input(f, p);
        }
        w.step(&params, &inputs);
    }
    w.state_hash()
}

/// The hash of the lossy session below played straight: player 1 mixed, player 2 random, seed 24
/// (the inputs a peer adds at input delay 0 are its source's at that frame).
pub fn lossy_session_hash(frames: u32) -> u64 {
    let rec = hopkit_demo::demo_recording().unwrap();
    let a = InputSource::new(InputKind::Mixed, 24, 2, rec);
    let b = InputSource::new(InputKind::Random, 24, 2, rec);
    session_hash(&DemoParams::default(), &[a, b], frames)
}

#[test]
fn synctest_check_distance_7_over_100k_frames_of_varied_input() {
    let demo = hopkit_demo::demo_recording().unwrap();
    // Mixed: blocks of scripted runs, the recorded demo ghost and random frames (100,000 frames);
    // then 4 players on random frames.
    for (players, kind, frames) in [(2, "mixed", 100_000u32), (4, "random", 12_000)] {
        let out = Command::new(bin())
            .args(["synctest", "--check-distance", "7", "--frames"])
            .arg(frames.to_string())
            .args(["--players", &players.to_string(), "--input", kind])
            .output()
            .unwrap();
        let stdout = text(&out.stdout);
        assert!(out.status.success(), "{stdout}{}", text(&out.stderr));
        assert!(
            stdout.contains(&format!("synctest: {frames} frames"))
                && stdout.contains(": 0 mismatches"),
            "{stdout}"
        );
        // Every frame from frame 8 on rolled back 7 frames (GGRS starts once the current frame
        // exceeds the check distance).
        assert!(
            stdout.contains(&format!("{} rollbacks (deepest 7 frames)", frames - 8)),
            "{stdout}"
        );
        // The state after all that rolling back is the state of the straight run.
        let k = if kind == "mixed" {
            InputKind::Mixed
        } else {
            InputKind::Random
        };
        let straight = straight_hash(&InputSource::new(k, 24, players, demo), players, frames);
        assert_eq!(hash_of(&stdout), format!("0x{straight:016x}"));
    }
}

#[test]
fn synctest_reports_a_step_that_is_not_a_function_of_its_inputs() {
    let out = Command::new(bin())
        .args(["synctest", "--frames", "3000", "--perturb-at", "1500"])
        .output()
        .unwrap();
    assert_eq!(out.status.code(), Some(1));
    assert!(text(&out.stdout).contains(": 1 mismatches"));
    let err = text(&out.stderr);
    assert!(
        err.starts_with("error: synctest:") && err.contains("[1500]"),
        "{err}"
    );
    assert_eq!(err.lines().count(), 1);
}

fn peer(port: u16, remote: u16, args: &[&str]) -> std::process::Child {
    Command::new(bin())
        .args(["netplay", "--headless", "--local-port"])
        .arg(port.to_string())
        .arg("--remote")
        .arg(format!("127.0.0.1:{remote}"))
        .args(args)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

fn replay_hash(dir: &Path) -> String {
    let out = Command::new(bin())
        .args(["hash", "--arena"])
        .arg(dir.join("player-1.ghost"))
        .arg(dir.join("player-2.ghost"))
        .output()
        .unwrap();
    assert!(out.status.success(), "{}", text(&out.stderr));
    hash_of(&text(&out.stdout))
}

/// Two peers, 3,600 frames through the lossy socket at input delay 0 and desync detection every
/// frame: the same hash, no desync, real rollbacks; the inputs replay to that hash. At the same
/// time a second pair where one peer flips one state bit at tick 300: both report desyncs.
#[test]
fn two_lossy_peers_agree_and_a_flipped_bit_is_reported() {
    let tmp = tempfile::tempdir().unwrap();
    let (a_dir, b_dir) = (tmp.path().join("a"), tmp.path().join("b"));
    std::fs::create_dir_all(&a_dir).unwrap();
    std::fs::create_dir_all(&b_dir).unwrap();
    let (pa, pb, pc, pd) = (free_port(), free_port(), free_port(), free_port());
    let common = [
        "--frames",
        "3600",
        "--input-delay",
        "0",
        "--desync-interval",
        "1",
        "--max-prediction",
        "8",
    ];
    let a_log = a_dir.to_str().unwrap();
    let b_log = b_dir.to_str().unwrap();
    let mut a_args = common.to_vec();
    a_args.extend([
        "--player",
        "1",
        "--lossy",
        "5,150,30,1",
        "--input",
        "mixed",
        "--log",
        a_log,
    ]);
    let mut b_args = common.to_vec();
    b_args.extend([
        "--player",
        "2",
        "--lossy",
        "5,150,30,2",
        "--input",
        "random",
        "--log",
        b_log,
    ]);
    let a = peer(pa, pb, &a_args);
    let b = peer(pb, pa, &b_args);
    // The negative control.
    let control = [
        "--frames",
        "600",
        "--input-delay",
        "0",
        "--desync-interval",
        "1",
        "--lossy",
        "5,150,30,3",
    ];
    let mut c_args = control.to_vec();
    c_args.extend(["--perturb-at", "300"]);
    let c = peer(pc, pd, &c_args);
    let d = peer(pd, pc, &control);

    let outs: Vec<Output> = [a, b, c, d]
        .into_iter()
        .map(|p| p.wait_with_output().unwrap())
        .collect();
    let show = |o: &Output| format!("{}{}", text(&o.stdout), text(&o.stderr));
    for o in &outs[..2] {
        assert!(o.status.success(), "{}", show(o));
        let s = text(&o.stdout);
        assert_eq!(field(&s, "desync events:"), "0", "{s}");
        assert!(s.contains(", 3600 frames ("), "{s}");
        let rollbacks: u64 = field(&s, "rollbacks:")
            .split_whitespace()
            .next()
            .unwrap()
            .parse()
            .unwrap();
        assert!(rollbacks > 0, "{s}");
        // The link was lossy.
        let lossy = field(&s, "lossy link:");
        assert!(!lossy.contains(" 0 dropped"), "{s}");
        eprintln!("{s}");
    }
    let (ha, hb) = (
        hash_of(&text(&outs[0].stdout)),
        hash_of(&text(&outs[1].stdout)),
    );
    assert_eq!(ha, hb);
    // Both peers logged the same confirmed inputs, and they replay to the same state.
    for p in ["player-1.ghost", "player-2.ghost"] {
        assert_eq!(
            std::fs::read(a_dir.join(p)).unwrap(),
            std::fs::read(b_dir.join(p)).unwrap()
        );
    }
    assert_eq!(replay_hash(&a_dir), ha);
    // … and the session ended where the rollback-free run of the same inputs ends (the hash the
    // Cortex-M0/M4F images print as `arena-session-hash`).
    assert_eq!(ha, format!("0x{:016x}", lossy_session_hash(3600)));

    // The control: the flipped bit is reported as a desync (exit 1), by the peer that flipped
    // it and by the other.
    for o in &outs[2..] {
        let s = text(&o.stdout);
        assert_eq!(o.status.code(), Some(1), "{}", show(o));
        let n: u64 = field(&s, "desync events:").parse().unwrap();
        assert!(n > 0, "{s}");
        assert!(
            text(&o.stderr).starts_with("error: netplay: "),
            "{}",
            show(o)
        );
        eprintln!("{s}");
    }
    assert_ne!(
        hash_of(&text(&outs[2].stdout)),
        hash_of(&text(&outs[3].stdout))
    );
}

/// Bad settings are refused before anything runs: one `error:` line, exit 2.
#[test]
fn bad_settings_are_one_line_errors_with_exit_2() {
    let cases: &[(&[&str], &str)] = &[
        (
            &["synctest", "--check-distance", "8"],
            "must be below --max-prediction 8",
        ),
        (
            &[
                "netplay",
                "--local-port",
                "1",
                "--remote",
                "127.0.0.1:2",
                "--frames",
                "0",
            ],
            "--frames 0",
        ),
        (
            &[
                "netplay",
                "--local-port",
                "1",
                "--remote",
                "127.0.0.1:2",
                "--lossy",
                "5,150",
            ],
            "--lossy 5,150: expected loss%,delay-ms,jitter-ms,seed",
        ),
        (
            &[
                "netplay",
                "--local-port",
                "1",
                "--remote",
                "nowhere",
                "--frames",
                "10",
            ],
            "--remote nowhere: not an address",
        ),
        (
            &["netplay", "--local-port", "1", "--remote", "127.0.0.1:1"],
            "--remote 127.0.0.1:1 is this peer itself",
        ),
        (
            &[
                "netplay",
                "--local-port",
                "1",
                "--remote",
                "127.0.0.1:2",
                "--player",
                "3",
            ],
            "--player 3: expected 1 to 2",
        ),
        (
            &[
                "hash",
                "--arena",
                "/nonexistent/a.ghost",
                "/nonexistent/b.ghost",
            ],
            "cannot read recording /nonexistent/a.ghost",
        ),
    ];
    for (args, want) in cases {
        let out = Command::new(bin()).args(*args).output().unwrap();
        let err = text(&out.stderr);
        assert_eq!(out.status.code(), Some(2), "{args:?}: {err}");
        assert!(
            err.starts_with("error: ") && err.contains(want),
            "{args:?}: {err}"
        );
        assert_eq!(err.lines().count(), 1, "{args:?}: {err}");
    }
}

/// Three peers (seats agreed by the seat handshake), 300 frames on a clean link: three different
/// seats and the same hash, which is the straight run of their three input sources in seat order.
#[test]
fn three_peers_agree() {
    let ports = [free_port(), free_port(), free_port()];
    let peers: Vec<_> = ports
        .iter()
        .enumerate()
        .map(|(i, &me)| {
            let seed = (i + 5).to_string();
            let mut c = Command::new(bin());
            c.args([
                "netplay",
                "--headless",
                "--frames",
                "300",
                "--input",
                "random",
            ])
            .args(["--seed", &seed, "--local-port", &me.to_string()]);
            for &other in ports.iter().filter(|&&p| p != me) {
                c.arg("--remote").arg(format!("127.0.0.1:{other}"));
            }
            c.stdout(Stdio::piped())
                .stderr(Stdio::piped())
                .spawn()
                .unwrap()
        })
        .collect();
    let outs: Vec<Output> = peers
        .into_iter()
        .map(|p| p.wait_with_output().unwrap())
        .collect();
    // Peer i (seed i + 5) printed its seat: the sources in seat order.
    let mut seeds = [0u64; 3];
    for (i, o) in outs.iter().enumerate() {
        let s = text(&o.stdout);
        let seat: usize = field(&s, "seat: player ")
            .split(' ')
            .next()
            .and_then(|n| n.parse().ok())
            .unwrap_or_else(|| panic!("no seat in {s}"));
        assert_eq!(seeds[seat - 1], 0, "two peers on seat {seat}");
        seeds[seat - 1] = i as u64 + 5;
    }
    let rec = hopkit_demo::demo_recording().unwrap();
    let sources: Vec<InputSource> = seeds
        .iter()
        .map(|&seed| InputSource::new(InputKind::Random, seed, 3, rec))
        .collect();
    let want = format!(
        "0x{:016x}",
        session_hash(&DemoParams::default(), &sources, 300)
    );
    for o in &outs {
        let s = text(&o.stdout);
        assert!(o.status.success(), "{s}{}", text(&o.stderr));
        assert!(s.contains(" of 3, 300 frames"), "{s}");
        assert_eq!(field(&s, "desync events:"), "0", "{s}");
        assert_eq!(hash_of(&s), want, "{s}");
    }
}
