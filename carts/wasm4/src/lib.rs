//! # hopkit-wasm4: the handheld demo as a WASM-4 cart
//!
//! [WASM-4](https://wasm4.org) is a fantasy console with the constraints hopkit is built for: one
//! 64 KiB page of memory shared with the console, a cart of at most 64 KiB, a 160×160 framebuffer
//! of 2-bit pixels, one-byte gamepads, 60 updates per second. This crate is the demo as a real
//! WASM-4 cart, built the way WASM-4's official Rust template builds one (`build.rs`): it imports
//! `env.memory` and WASM-4's functions, exports `start` and `update`, reads `GAMEPAD1` and draws
//! into the console's framebuffer.
//!
//! The simulation is [`hopkit_cart::Cart`]: the demo rig every front end runs
//! (`hopkit_demo::DemoRig`) and the handheld's own 128×64 drawing code
//! (`hopkit_demo::render`), shown 1:1 in the middle of the screen; WASM-4's text shows the
//! speed and the controls around it.
//!
//! ## Controls (WASM-4's conventions)
//! Arrows move (UP forward, DOWN back, LEFT/RIGHT strafe and turn that way), **X** (`BUTTON_1`)
//! jumps, **Z** (`BUTTON_2`) fires. Hold RIGHT and X: the player strafe-jumps in a widening circle,
//! past the ground max speed (the speed line shows the ratio). The byte goes through
//! `hopkit_demo::gamepad_raw` into the rig's stick pipeline.
//!
//! ## Console output (`trace`)
//! So that a host can recompute the state from exactly the input the cart read — a browser cannot
//! place key events on exact frames — the cart traces every gamepad byte it read, run-length
//! encoded, and every [`HASH_EVERY`] ticks the state hash:
//!
//! ```text
//! pad 0x00 x12          12 frames with nothing held
//! pad 0x21 x588         588 frames with RIGHT + X held
//! state-hash: 0x… tick 600
//! ```
//!
//! The runs printed before a `state-hash` line are exactly the ticks it covers, so writing their
//! bytes to a file and running `hopkit-sim hash --gamepad FILE` prints the same hash
//! ([`PadLog`], [`Game`]).
#![cfg_attr(target_arch = "wasm32", no_std)]
#![deny(missing_docs)]

use hopkit_cart::Cart;

#[cfg(target_arch = "wasm32")]
mod console;

/// Ticks between `state-hash` lines (10 s at 60 Hz).
pub const HASH_EVERY: u32 = 600;

/// Longest line the cart traces, bytes.
pub const LINE_LEN: usize = 48;

/// A run-length log of the gamepad bytes read, one run per change.
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct PadLog {
    byte: u8,
    run: u32,
}

impl PadLog {
    /// Note this frame's byte; returns the run that just ended when the byte changed.
    pub fn push(&mut self, byte: u8) -> Option<(u8, u32)> {
        let ended = (self.run > 0 && byte != self.byte).then_some((self.byte, self.run));
        if self.run == 0 || byte != self.byte {
            self.byte = byte;
            self.run = 0;
        }
        self.run += 1;
        ended
    }

    /// End the current run (if any) and return it; the next byte starts a new run.
    pub fn flush(&mut self) -> Option<(u8, u32)> {
        let run = (self.run > 0).then_some((self.byte, self.run));
        self.run = 0;
        run
    }
}

/// A line of text built without `core::fmt` (whose float and padding machinery would not fit a
/// 64 KiB cart).
#[derive(Clone, Copy)]
pub struct Line {
    buf: [u8; LINE_LEN],
    len: usize,
}

impl Default for Line {
    fn default() -> Self {
        Line {
            buf: [0; LINE_LEN],
            len: 0,
        }
    }
}

impl Line {
    /// Append ASCII text (cut at [`LINE_LEN`]).
    pub fn push(&mut self, s: &str) -> &mut Self {
        self.bytes(s.as_bytes())
    }

    fn bytes(&mut self, bytes: &[u8]) -> &mut Self {
        for &b in bytes {
            if let Some(slot) = self.buf.get_mut(self.len) {
                *slot = b;
                self.len += 1;
            }
        }
        self
    }

    /// Append `n` in decimal.
    pub fn num(&mut self, mut n: u32) -> &mut Self {
        // No indexing that could panic: a panic path would link core's formatting strings.
        let mut digits = [0u8; 10];
        let mut start = digits.len();
        for (i, slot) in digits.iter_mut().enumerate().rev() {
            *slot = b'0' + (n % 10) as u8;
            n /= 10;
            start = i;
            if n == 0 {
                break;
            }
        }
        self.bytes(digits.get(start..).unwrap_or(&[]))
    }

    /// Append `0x` and the low `digits` hex digits of `v` (lowercase).
    pub fn hex(&mut self, v: u64, digits: u32) -> &mut Self {
        const HEX: &[u8; 16] = b"0123456789abcdef";
        self.bytes(b"0x");
        for i in (0..digits.min(16)).rev() {
            self.bytes(&[HEX[((v >> (4 * i)) & 15) as usize]]);
        }
        self
    }

    /// The bytes so far (what `trace`/`text` are given: no UTF-8 validation in the cart).
    pub fn as_bytes(&self) -> &[u8] {
        self.buf.get(..self.len).unwrap_or(&[])
    }
}

/// `pad 0xNN xCOUNT`: one run of the gamepad log.
pub fn pad_line(byte: u8, run: u32) -> Line {
    let mut l = Line::default();
    l.push("pad ").hex(byte.into(), 2).push(" x").num(run);
    l
}

/// `state-hash: 0x<16 hex> tick N` (the hash as `hopkit::hash::format_hash_line` prints it).
pub fn hash_line(hash: u64, tick: u32) -> Line {
    let mut l = Line::default();
    l.push("state-hash: ")
        .hex(hash, 16)
        .push(" tick ")
        .num(tick);
    l
}

/// The cart's game: the demo ([`Cart`]) plus the gamepad log. Plain Rust, so host tests run it.
#[derive(Clone, Debug)]
pub struct Game {
    /// The demo rig and its 128×64 1-bpp framebuffer.
    pub cart: Cart,
    /// Gamepad bytes read, run-length encoded.
    pub log: PadLog,
}

impl Default for Game {
    fn default() -> Self {
        Game {
            cart: Cart::new(),
            log: PadLog::default(),
        }
    }
}

impl Game {
    /// One frame: log the gamepad byte, tick the demo with it and draw the handheld picture;
    /// `trace` receives the lines to print (ended runs, and every [`HASH_EVERY`] ticks the open
    /// run followed by the state hash).
    pub fn update(&mut self, gamepad: u8, mut trace: impl FnMut(&[u8])) {
        if let Some((b, n)) = self.log.push(gamepad) {
            trace(pad_line(b, n).as_bytes());
        }
        self.cart.update(gamepad);
        let tick = self.cart.rig.tick_count();
        if tick % HASH_EVERY == 0 {
            if let Some((b, n)) = self.log.flush() {
                trace(pad_line(b, n).as_bytes());
            }
            trace(hash_line(self.cart.state_hash(), tick).as_bytes());
        }
    }

    /// The player's planar speed as a multiple of the ground max speed, in hundredths
    /// (153 = 1.53×), for the speed line.
    pub fn speed_percent(&self) -> u32 {
        let scene = &self.cart.rig.scene;
        let max = scene.params().movement.max_speed;
        let v = scene.player.mover.planar_speed();
        if max > 0.0 && v.is_finite() {
            (v / max * 100.0 + 0.5) as u32
        } else {
            0
        }
    }

    /// `speed 1.53x max`.
    pub fn speed_line(&self) -> Line {
        let p = self.speed_percent();
        let mut l = Line::default();
        l.push("speed ").num(p / 100).push(".");
        if p % 100 < 10 {
            l.push("0");
        }
        l.num(p % 100).push("x max");
        l
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::hash::{format_hash_line, HASH_LINE_LEN};
    use hopkit::stick::digital::{W4_BUTTON_1, W4_RIGHT, W4_UP};

    fn text(l: &Line) -> String {
        String::from_utf8(l.as_bytes().to_vec()).unwrap()
    }

    #[test]
    fn pad_log_runs_cover_every_frame() {
        let bytes = [0u8, 0, 33, 33, 33, 64, 0, 0];
        let mut log = PadLog::default();
        let mut runs = Vec::new();
        for &b in &bytes {
            runs.extend(log.push(b));
        }
        runs.extend(log.flush());
        assert_eq!(runs, vec![(0, 2), (33, 3), (64, 1), (0, 2)]);
        assert_eq!(log.flush(), None);
        // After a flush the same byte starts a new run.
        log.push(7);
        assert_eq!(log.push(7), None);
        assert_eq!(log.flush(), Some((7, 2)));
    }

    #[test]
    fn lines_without_core_fmt() {
        assert_eq!(text(&pad_line(0x21, 588)), "pad 0x21 x588");
        assert_eq!(text(&pad_line(0, 0)), "pad 0x00 x0");
        assert_eq!(
            text(&hash_line(0x0d09_a1ef_412e_29d6, 600)),
            "state-hash: 0x0d09a1ef412e29d6 tick 600"
        );
        let mut buf = [0u8; HASH_LINE_LEN];
        let h = 0xfedc_ba98_7654_3210;
        assert!(text(&hash_line(h, 1)).starts_with(format_hash_line(h, &mut buf)));
        let mut l = Line::default();
        l.num(u32::MAX);
        assert_eq!(text(&l), "4294967295");
        // Cut at LINE_LEN, never beyond.
        for _ in 0..10 {
            l.push("0123456789");
        }
        assert_eq!(l.as_bytes().len(), LINE_LEN);
    }

    /// Parse the traced lines back into the bytes they describe and the hashes printed.
    fn replay(lines: &[String]) -> (Vec<u8>, Vec<(u32, String)>) {
        let mut bytes = Vec::new();
        let mut hashes = Vec::new();
        for l in lines {
            if let Some(rest) = l.strip_prefix("pad 0x") {
                let (b, n) = rest.split_once(" x").unwrap();
                let b = u8::from_str_radix(b, 16).unwrap();
                bytes.extend(std::iter::repeat_n(b, n.parse().unwrap()));
            } else if let Some((h, t)) = l.split_once(" tick ") {
                hashes.push((t.parse().unwrap(), h.to_string()));
            }
        }
        (bytes, hashes)
    }

    #[test]
    fn traced_runs_rebuild_the_input_and_its_hash() {
        let mut game = Game::default();
        let mut lines = Vec::new();
        for t in 0..1300u32 {
            let pad = match t {
                0..=59 => W4_UP,
                60..=700 => W4_RIGHT | W4_BUTTON_1,
                _ => (t % 7) as u8 * 16,
            };
            game.update(pad, |s| lines.push(String::from_utf8(s.to_vec()).unwrap()));
        }
        let (bytes, hashes) = replay(&lines);
        assert_eq!(hashes.len(), 2);
        for (tick, line) in hashes {
            let n = tick as usize;
            let mut buf = [0u8; HASH_LINE_LEN];
            let want = format_hash_line(hopkit_demo::gamepad_hash(&bytes[..n]), &mut buf);
            assert_eq!(line, want, "tick {tick}");
        }
    }

    #[test]
    fn right_and_x_strafe_jump_past_the_ground_max() {
        let mut game = Game::default();
        let mut top = 0;
        for t in 0..900u32 {
            let pad = if t < 60 {
                W4_UP
            } else {
                W4_RIGHT | W4_BUTTON_1
            };
            game.update(pad, |_| {});
            top = top.max(game.speed_percent());
        }
        assert!(top > 130, "top speed {top}% of the ground max");
        assert!(text(&game.speed_line()).starts_with("speed 1."));
    }
}
