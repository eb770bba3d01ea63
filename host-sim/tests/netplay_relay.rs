//! Netplay seats through a port-rewriting UDP relay (what a NAT or a relay server does): each peer
//! sees the other at the relay's address, never at its real port, so no seat can be read from the
//! addresses. Two peers without `--player` must agree on different seats and end on the same
//! state hash — the hash of the session in which each plays its own input from its own seat — and
//! two peers that both claim one seat must both refuse to start, saying why.
//!
//! The relay is written here: two loopback sockets, `ra` (peer A's `--remote`) forwards to B from
//! `rb`, and `rb` forwards to A from `ra`. It runs in a thread with a deadline.

use std::net::{SocketAddr, UdpSocket};
use std::process::{Child, Command, Output, Stdio};
use std::sync::atomic::{AtomicBool, Ordering};
use std::sync::Arc;
use std::thread::JoinHandle;
use std::time::{Duration, Instant};

use hopkit_demo::arena::{session_hash, InputKind, InputSource};
use hopkit_demo::DemoParams;

fn bin() -> std::path::PathBuf {
    assert_cmd::cargo::cargo_bin("hopkit-sim")
}

fn text(b: &[u8]) -> String {
    String::from_utf8_lossy(b).into_owned()
}

fn loopback() -> UdpSocket {
    UdpSocket::bind("127.0.0.1:0").unwrap()
}

fn port(s: &UdpSocket) -> u16 {
    s.local_addr().unwrap().port()
}

/// A port below the ephemeral range (32,768 and up on Linux) that binds on loopback now: each call
/// tries candidates after the last one handed out (the tests run in parallel, and a released port
/// is free again until its peer binds it), starting at an offset from the process id so parallel
/// runs rarely collide.
fn low_port() -> u16 {
    use std::sync::atomic::AtomicU32;
    static NEXT: AtomicU32 = AtomicU32::new(u32::MAX);
    let _ = NEXT.compare_exchange(
        u32::MAX,
        std::process::id() % 4000,
        Ordering::SeqCst,
        Ordering::SeqCst,
    );
    for _ in 0..8000 {
        let p = 20_000 + (NEXT.fetch_add(1, Ordering::SeqCst) % 8000) as u16;
        if UdpSocket::bind(("127.0.0.1", p)).is_ok() {
            return p;
        }
    }
    panic!("no free loopback port in 20,000..28,000");
}

/// A port-rewriting relay between peers on 127.0.0.1:`pa` and 127.0.0.1:`pb`.
struct Relay {
    /// Peer A's `--remote`.
    ra: u16,
    /// Peer B's `--remote`.
    rb: u16,
    stop: Arc<AtomicBool>,
    thread: Option<JoinHandle<u64>>,
}

impl Relay {
    /// Sockets for the relay whose ports are above both peers' (so the old port rule would have
    /// made both peers player 1), and the peers' ports.
    fn start(limit: Duration) -> (Relay, u16, u16) {
        // A free port for each peer below the ephemeral range (released: the peer binds it), so
        // the relay's ephemeral ports are above both; the relay's sockets kept open. (Two
        // ephemeral ports for the peers could be near the top of the range, leaving no room.)
        let (pa, pb) = (low_port(), low_port());
        let mut sockets = Vec::new();
        for _ in 0..200 {
            let s = loopback();
            if port(&s) > pa.max(pb) {
                sockets.push(s);
                if sockets.len() == 2 {
                    break;
                }
            }
        }
        assert_eq!(sockets.len(), 2, "no relay ports above {pa} and {pb}");
        let rb_sock = sockets.pop().unwrap();
        let ra_sock = sockets.pop().unwrap();
        let (ra, rb) = (port(&ra_sock), port(&rb_sock));
        let stop = Arc::new(AtomicBool::new(false));
        let flag = stop.clone();
        let thread = std::thread::spawn(move || {
            let to_a = SocketAddr::from(([127, 0, 0, 1], pa));
            let to_b = SocketAddr::from(([127, 0, 0, 1], pb));
            for s in [&ra_sock, &rb_sock] {
                s.set_nonblocking(true).unwrap();
            }
            let mut buf = [0u8; 4096];
            let mut forwarded = 0u64;
            let end = Instant::now() + limit;
            while !flag.load(Ordering::Relaxed) && Instant::now() < end {
                let mut idle = true;
                // At most 256 datagrams per side per pass: a bounded loop.
                for _ in 0..256 {
                    let mut any = false;
                    if let Ok((n, _)) = ra_sock.recv_from(&mut buf) {
                        let _ = rb_sock.send_to(&buf[..n], to_b);
                        forwarded += 1;
                        any = true;
                    }
                    if let Ok((n, _)) = rb_sock.recv_from(&mut buf) {
                        let _ = ra_sock.send_to(&buf[..n], to_a);
                        forwarded += 1;
                        any = true;
                    }
                    if !any {
                        break;
                    }
                    idle = false;
                }
                if idle {
                    std::thread::sleep(Duration::from_millis(1));
                }
            }
            forwarded
        });
        (
            Relay {
                ra,
                rb,
                stop,
                thread: Some(thread),
            },
            pa,
            pb,
        )
    }

    /// Stop the relay; the number of datagrams it forwarded.
    fn finish(mut self) -> u64 {
        self.stop.store(true, Ordering::Relaxed);
        self.thread.take().unwrap().join().unwrap()
    }
}

impl Drop for Relay {
    fn drop(&mut self) {
        self.stop.store(true, Ordering::Relaxed);
    }
}

fn spawn_peer(local: u16, remote: u16, extra: &[&str]) -> Child {
    Command::new(bin())
        .args(["netplay", "--headless", "--timeout", "60", "--local-port"])
        .arg(local.to_string())
        .arg("--remote")
        .arg(format!("127.0.0.1:{remote}"))
        .args(extra)
        .stdout(Stdio::piped())
        .stderr(Stdio::piped())
        .spawn()
        .unwrap()
}

/// The seat (1-based) a peer printed.
fn seat(out: &str) -> usize {
    let line = out
        .lines()
        .find(|l| l.starts_with("netplay: player "))
        .unwrap_or_else(|| panic!("no 'netplay: player' line in:\n{out}"));
    line["netplay: player ".len()..]
        .split(' ')
        .next()
        .unwrap()
        .parse()
        .unwrap()
}

fn field<'a>(out: &'a str, key: &str) -> &'a str {
    out.lines()
        .find_map(|l| l.strip_prefix(key))
        .unwrap_or_else(|| panic!("no {key:?} line in:\n{out}"))
        .trim()
}

fn both(a: Child, b: Child) -> (Output, Output) {
    (a.wait_with_output().unwrap(), b.wait_with_output().unwrap())
}

#[test]
fn two_peers_through_a_port_rewriting_relay_get_different_seats_and_one_hash() {
    const FRAMES: u32 = 240;
    let (relay, pa, pb) = Relay::start(Duration::from_secs(90));
    // Under the old rule (seat by comparing the local port with --remote's) both would be
    // player 1: each peer's port is below its --remote's.
    assert!(pa < relay.ra && pb < relay.rb);
    let frames = FRAMES.to_string();
    let a = spawn_peer(pa, relay.ra, &["--frames", &frames, "--input", "scripted"]);
    let b = spawn_peer(pb, relay.rb, &["--frames", &frames, "--input", "random"]);
    let (oa, ob) = both(a, b);
    let forwarded = relay.finish();
    let (sa, sb) = (text(&oa.stdout), text(&ob.stdout));
    let all = format!("A:\n{sa}{}\nB:\n{sb}{}", text(&oa.stderr), text(&ob.stderr));
    assert!(oa.status.success() && ob.status.success(), "{all}");
    assert!(
        forwarded > 100,
        "the relay forwarded only {forwarded} datagrams\n{all}"
    );
    let (seat_a, seat_b) = (seat(&sa), seat(&sb));
    assert_ne!(seat_a, seat_b, "{all}");
    assert!(field(&sa, "seat: ").contains("seat handshake"), "{all}");
    assert_eq!(field(&sa, "desync events: "), "0", "{all}");
    assert_eq!(field(&sb, "desync events: "), "0", "{all}");
    let (ha, hb) = (field(&sa, "state-hash: "), field(&sb, "state-hash: "));
    assert_eq!(ha, hb, "{all}");
    // Each peer played its own input from its own seat: the session played straight with
    // player `seat - 1` driven by that peer's input source.
    let rec = hopkit_demo::demo_recording().unwrap();
    let scripted = InputSource::new(InputKind::Scripted, 24, 2, rec);
    let random = InputSource::new(InputKind::Random, 24, 2, rec);
    let sources = if seat_a == 1 {
        [scripted, random]
    } else {
        [random, scripted]
    };
    let want = session_hash(&DemoParams::default(), &sources, FRAMES);
    assert_eq!(ha, format!("0x{want:016x}"), "{all}");
}

#[test]
fn two_peers_claiming_one_seat_through_the_relay_are_refused() {
    let (relay, pa, pb) = Relay::start(Duration::from_secs(60));
    let a = spawn_peer(pa, relay.ra, &["--frames", "120", "--player", "2"]);
    // The second peer starts later: the first must still hear of the conflict.
    std::thread::sleep(Duration::from_millis(500));
    let b = spawn_peer(pb, relay.rb, &["--frames", "120", "--player", "2"]);
    let (oa, ob) = both(a, b);
    relay.finish();
    for o in [&oa, &ob] {
        let err = text(&o.stderr);
        assert_eq!(o.status.code(), Some(2), "{err}{}", text(&o.stdout));
        assert!(err.contains("both claim player 2 (--player 2)"), "{err}");
        assert_eq!(err.lines().count(), 1, "one-line error: {err}");
        assert!(
            !text(&o.stdout).contains("state-hash"),
            "refused peers play nothing"
        );
    }
}

/// (Linux: without `DISPLAY` there is no X display; elsewhere a window would open.)
#[cfg(target_os = "linux")]
#[test]
fn a_window_without_a_display_is_a_one_line_error() {
    let out = Command::new(bin())
        .args(["netplay", "--window", "--local-port", "1", "--remote"])
        .arg("127.0.0.1:2")
        .env_remove("DISPLAY")
        .env_remove("WAYLAND_DISPLAY")
        .output()
        .unwrap();
    let err = text(&out.stderr);
    assert_eq!(out.status.code(), Some(2), "{err}");
    assert!(err.contains("--window needs a display"), "{err}");
    assert_eq!(err.lines().count(), 1, "{err}");
}
