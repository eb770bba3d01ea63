//! The session's UDP socket: the seat handshake ([`super::seats`]) and then GGRS use the same one,
//! so the handshake's packets take the GGRS packets' path (through any relay or NAT).
//!
//! It is GGRS's own `UdpNonBlockingSocket` (bound to `0.0.0.0:port`, non-blocking, messages
//! encoded with `bincode` 1 as GGRS does), plus what the handshake needs: raw sends and reads,
//! GGRS messages read during the handshake kept for GGRS, and `bye` packets noticed (a remote that
//! closed its window: [`PeerSocket::left`]).

use std::cell::Cell;
use std::io::ErrorKind;
use std::net::{IpAddr, Ipv4Addr, SocketAddr, UdpSocket};
use std::rc::Rc;

use ggrs::{Message, NonBlockingSocket};

use super::seats::{decode, encode, Packet};

/// Largest datagram read (GGRS's own receive buffer).
pub const RECV_BYTES: usize = 4096;
/// Most datagrams read by one call (a flood cannot keep a frame busy).
pub const MAX_READS: usize = 1024;

/// A non-blocking UDP socket for the handshake and GGRS.
#[derive(Debug)]
pub struct PeerSocket {
    socket: UdpSocket,
    buf: Box<[u8; RECV_BYTES]>,
    stash: Vec<(SocketAddr, Message)>,
    /// Set when a `bye` packet arrives (shared: GGRS owns the socket during the session).
    left: Rc<Cell<Option<SocketAddr>>>,
}

impl PeerSocket {
    /// Bind `0.0.0.0:port`, non-blocking.
    pub fn bind(port: u16) -> std::io::Result<PeerSocket> {
        let socket = UdpSocket::bind(SocketAddr::new(IpAddr::V4(Ipv4Addr::UNSPECIFIED), port))?;
        socket.set_nonblocking(true)?;
        Ok(PeerSocket {
            socket,
            buf: Box::new([0; RECV_BYTES]),
            stash: Vec::new(),
            left: Rc::new(Cell::new(None)),
        })
    }

    /// The handle on "a remote said bye" (who), readable while GGRS owns the socket.
    pub fn left(&self) -> Rc<Cell<Option<SocketAddr>>> {
        self.left.clone()
    }

    /// Send bytes as they are (errors are the network's business: UDP may lose packets anyway).
    pub fn send_raw(&self, bytes: &[u8], to: SocketAddr) {
        let _ = self.socket.send_to(bytes, to);
    }

    /// A second handle on the socket for sending while GGRS owns this one (the `bye`).
    pub fn sender(&self) -> std::io::Result<UdpSocket> {
        self.socket.try_clone()
    }

    /// Tell `to` on `socket` that this peer leaves (a few copies: a lost packet only delays the
    /// news until GGRS's disconnect timeout).
    pub fn send_bye_on(socket: &UdpSocket, to: SocketAddr) {
        let b = encode(&Packet::Bye);
        for _ in 0..3 {
            let _ = socket.send_to(&b, to);
        }
    }

    /// Every datagram waiting (at most [`MAX_READS`]).
    pub fn receive_raw(&mut self) -> Vec<(SocketAddr, Vec<u8>)> {
        let mut out = Vec::new();
        while out.len() < MAX_READS {
            match self.socket.recv_from(&mut self.buf[..]) {
                Ok((n, from)) => out.push((from, self.buf[..n.min(RECV_BYTES)].to_vec())),
                Err(e) if e.kind() == ErrorKind::WouldBlock => break,
                // An ICMP "port unreachable" from an earlier send (the peer is not up yet).
                Err(e) if e.kind() == ErrorKind::ConnectionReset => {}
                Err(e) if e.kind() == ErrorKind::ConnectionRefused => {}
                Err(_) => break,
            }
        }
        out
    }

    /// Keep a GGRS message read during the handshake for GGRS's first read.
    pub fn stash(&mut self, from: SocketAddr, msg: Message) {
        if self.stash.len() < MAX_READS {
            self.stash.push((from, msg));
        }
    }
}

impl NonBlockingSocket<SocketAddr> for PeerSocket {
    fn send_to(&mut self, msg: &Message, addr: &SocketAddr) {
        if let Ok(buf) = bincode::serialize(msg) {
            self.send_raw(&buf, *addr);
        }
    }

    fn receive_all_messages(&mut self) -> Vec<(SocketAddr, Message)> {
        let mut out = std::mem::take(&mut self.stash);
        for (from, bytes) in self.receive_raw() {
            match decode(&bytes) {
                Some(Packet::Bye) => self.left.set(Some(from)),
                // A late hello: the handshake is over here.
                Some(Packet::Hello(_)) => {}
                None => {
                    if let Ok(msg) = bincode::deserialize::<Message>(&bytes) {
                        out.push((from, msg));
                    }
                }
            }
        }
        out
    }
}
