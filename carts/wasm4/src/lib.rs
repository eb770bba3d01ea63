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
//! ## Level
//! The cart's player moves on [`LEVEL`] (`plain`): the arena's floor, its two ramps and its walls
//! — not the tower, ladder, pool and turntable of the other front ends' level, for which the
//! cart has no room. `hopkit-sim hash --gamepad` runs the same level by default (`--level full`
//! runs the other one), and CI's cart runs walk over both ramps and into a wall.
//!
//! The level of solids (`--level solid`: the body collides with walls, stairs, a surf ramp, a
//! low corridor) does not fit: built with the feature `level-solids` (the cart's game on that
//! level, [`cart_level`]), the cart with record mode measured 96,992 bytes after `wasm-opt`,
//! ≈ 31 KB over the limit; docs/bindings.md ("The solid level on WASM-4") lists where the bytes
//! go and what was tried.
//!
//! ## Controls (WASM-4's conventions)
//! Arrows move (UP forward, DOWN back, LEFT/RIGHT strafe and turn that way), **X** (`BUTTON_1`)
//! jumps, **Z** (`BUTTON_2`) fires. Hold RIGHT and X: the player strafe-jumps in a widening circle,
//! past the ground max speed (the speed line shows the ratio). The byte goes through
//! `hopkit_demo::gamepad_raw` into the rig's stick pipeline.
//!
//! ## Record mode: your own ghost (issue 25)
//! Hold **DOWN + X + Z** for a second: the cart switches to a fighter (a ghost pilot,
//! [`hopkit::ghost::FlyerState`]) flown with the gamepad — UP/DOWN pitch, LEFT/RIGHT yaw, X guns,
//! Z missile — over the demo level, recorded tick by tick in recording format version 2
//! ([`hopkit::ghost::record_and_fly`] into a 1,024-byte [`Recorder`], as `hopkit-sim record`
//! does). It ends when DOWN + X + Z are held for a second again, when the recorder is full, or at
//! [`MAX_RECORD_FRAMES`] (60 s); the recording is then written to WASM-4's disk (`diskw`, the
//! whole version 2 file with its CRC) and the demo restarts with it. At every start the cart
//! reads the disk (`diskr`, [`load_ghost`]): a valid recording is the formation's ghost; an
//! empty or corrupt disk falls back to the bundled ghost, and the screen says which.
//!
//! The bundled ghost ships as its version 2 bytes ([`BUNDLED_GHOST_V2`], 483 B instead of the
//! 5,544-byte version 1 file) and is decoded at start into a RAM buffer; it decodes to the same
//! frames, so the demo's hashes are the ones of the version 1 file.
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

use hopkit::ghost::{
    load, record_and_fly, recording_size, FlyerParams, FlyerState, PilotInput, Recorder, Recording,
    RecordingInfo,
};
use hopkit::math::Vec3;
use hopkit::stick::digital::{W4_BUTTON_1, W4_BUTTON_2, W4_DOWN, W4_LEFT, W4_RIGHT, W4_UP};
use hopkit_cart::Cart;
use hopkit_demo::level::Level;
use hopkit_demo::DemoRig;

#[cfg(target_arch = "wasm32")]
mod console;

/// The level the cart's player moves on: [`Level::WASM4_CART`], the floor and the two ramps in
/// the arena's walls (`hopkit_demo::level::DemoGround`), without the demo level's tower, ladder,
/// pool and turntable (with them the cart would be ≈ 11 KB over WASM-4's 64 KiB). `hopkit-sim
/// hash --gamepad` runs this level by default.
#[cfg(not(feature = "level-solids"))]
pub const LEVEL: Level = Level::WASM4_CART;
/// The level the cart's player moves on: with the feature `level-solids`, [`Level::Solid`]
/// (`hopkit_demo::solid_level`, `hopkit-sim hash --gamepad FILE --level solid`). That cart is
/// ≈ 31 KB over WASM-4's 64 KiB (measured: docs/bindings.md, "The solid level"): it is built to
/// measure it, not shipped.
#[cfg(feature = "level-solids")]
pub const LEVEL: Level = Level::Solid;

/// The solid level's world ([`hopkit_demo::solid_level::build`]), built on the first call. On
/// wasm32 it lives in a zeroed static (`.bss`: no bytes in the cart, ≈ 5 KB of the page).
#[cfg(feature = "level-solids")]
pub fn solid_world() -> &'static hopkit_demo::solid_level::SolidWorld {
    use hopkit_demo::solid_level::{build, SolidWorld};
    #[cfg(target_arch = "wasm32")]
    {
        use core::cell::UnsafeCell;
        use core::mem::MaybeUninit;
        struct Cell(UnsafeCell<(bool, MaybeUninit<SolidWorld>)>);
        // SAFETY: wasm32 without threads: no concurrent access.
        unsafe impl Sync for Cell {}
        static WORLD: Cell = Cell(UnsafeCell::new((false, MaybeUninit::zeroed())));
        let cell = WORLD.0.get();
        // SAFETY: single-threaded; the world is written (through a `&mut` to it alone) only
        // before the flag is set, i.e. before any shared reference to it is handed out, and never
        // again.
        unsafe {
            if !(*cell).0 {
                build((*cell).1.write(SolidWorld::new()));
                (*cell).0 = true;
            }
            (*cell).1.assume_init_ref()
        }
    }
    #[cfg(not(target_arch = "wasm32"))]
    {
        static WORLD: std::sync::OnceLock<&'static SolidWorld> = std::sync::OnceLock::new();
        WORLD.get_or_init(|| {
            let w = Box::leak(Box::new(SolidWorld::new()));
            build(w);
            w
        })
    }
}

/// `rig` with its player on the cart's level, [`LEVEL`] (the solid level with its world,
/// [`solid_world`]), whatever features the build has: in a workspace build
/// `hopkit-demo/level-features` may be on for other crates.
pub fn cart_level(rig: DemoRig) -> DemoRig {
    #[cfg(feature = "level-solids")]
    return rig.with_solids(solid_world());
    #[cfg(not(feature = "level-solids"))]
    rig.with_level(LEVEL)
}

/// Ticks between `state-hash` lines (10 s at 60 Hz).
pub const HASH_EVERY: u32 = 600;

/// Longest line the cart traces, bytes.
pub const LINE_LEN: usize = 48;

/// The bundled demo ghost as its version 2 bytes (`demo/assets/demo.v2.ghost`: the same frames
/// and checksums as the 5,544-byte version 1 file, in 483 bytes).
pub const BUNDLED_GHOST_V2: &[u8] = include_bytes!("../../../demo/assets/demo.v2.ghost");

/// WASM-4's persistent disk, bytes.
pub const DISK_LEN: usize = 1024;

/// Longest recording, ticks (60 s; 30 s of a player's flight takes a few hundred bytes).
pub const MAX_RECORD_FRAMES: u32 = 3600;

/// State checksums in the player's recordings: one a second, as in the bundled one.
pub const RECORD_CHECK_INTERVAL: u16 = 60;

/// RAM a loaded recording needs ([`hopkit::ghost::load`] decodes version 2 into the version 1
/// layout): enough for [`MAX_RECORD_FRAMES`] (11,064 bytes; the bundled ghost needs 5,544).
pub const SCRATCH_LEN: usize = recording_size(MAX_RECORD_FRAMES as usize, RECORD_CHECK_INTERVAL);

/// Record mode can be entered: feature `record` (and in this crate's tests). Without it the
/// cart still plays a recording found on the disk.
pub const RECORD_MODE: bool = cfg!(any(test, feature = "record"));

/// DOWN + X + Z: held for [`COMBO_FRAMES`] it starts and ends record mode.
pub const RECORD_COMBO: u8 = W4_DOWN | W4_BUTTON_1 | W4_BUTTON_2;

/// Ticks the record combo must be held (1 s).
pub const COMBO_FRAMES: u8 = 60;

/// Where the formation's ghost came from.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GhostSource {
    /// The player's recording, read from the disk.
    Disk,
    /// The bundled ghost: the disk was empty.
    BundledEmptyDisk,
    /// The bundled ghost: the disk held something that is not a valid recording (bad magic,
    /// CRC, header or length, no frames, or more frames than [`SCRATCH_LEN`] holds).
    BundledBadDisk,
}

impl GhostSource {
    /// The note on screen.
    pub fn note(self) -> &'static str {
        match self {
            GhostSource::Disk => "ghost: from disk",
            GhostSource::BundledEmptyDisk => "ghost: bundled",
            GhostSource::BundledBadDisk => "ghost: disk corrupt",
        }
    }
}

/// The formation's recording at start: `disk` (what `diskr` read) if it is a valid recording
/// with frames, else the bundled ghost, decoded into `scratch` (at least [`SCRATCH_LEN`] bytes
/// for the player's longest recording; 5,544 for the bundled one). `None` only if `scratch`
/// is too small even for the bundled ghost.
pub fn load_ghost<'a>(
    disk: &'a [u8],
    scratch: &'a mut [u8],
) -> (Option<Recording<'a>>, GhostSource) {
    // WASM-4's web runtime keeps the disk in localStorage in 4-byte groups (Z85): after a
    // reload it reads back up to 3 zero bytes past what was written. `load` ignores that
    // padding (`hopkit::ghost::format::unpadded`), as every reader of recordings does.
    let found =
        (!disk.is_empty() && load(disk, scratch).is_ok_and(|r| !r.is_empty())).then_some(disk);
    let source = match found {
        Some(_) => GhostSource::Disk,
        None if disk.is_empty() => GhostSource::BundledEmptyDisk,
        None => GhostSource::BundledBadDisk,
    };
    (
        load(found.unwrap_or(BUNDLED_GHOST_V2), scratch).ok(),
        source,
    )
}

/// Record mode: a fighter flown with the gamepad, recorded (format version 2) as it flies.
#[derive(Clone, Debug)]
pub struct RecordMode {
    /// The recording so far (at most [`DISK_LEN`] bytes).
    pub recorder: Recorder<DISK_LEN>,
    /// The fighter.
    pub flyer: FlyerState,
    /// Its flight parameters (the defaults, as the bundled ghost's).
    pub params: FlyerParams,
    /// Ticks the record combo has been held.
    combo: u8,
    /// Recording stopped (combo, recorder full, or [`MAX_RECORD_FRAMES`]).
    pub done: bool,
}

/// A WASM-4 gamepad byte as pilot input: UP/DOWN pitch ±1 (UP raises the nose), LEFT/RIGHT yaw
/// ±1 (LEFT turns left), X (`BUTTON_1`) guns, Z (`BUTTON_2`) missile.
pub fn pilot_input(pad: u8) -> PilotInput {
    let axis = |pos: u8, neg: u8| (pad & pos != 0) as i8 as f32 - (pad & neg != 0) as i8 as f32;
    PilotInput {
        pitch: axis(W4_UP, W4_DOWN),
        yaw: axis(W4_LEFT, W4_RIGHT),
        fire: pad & W4_BUTTON_1 != 0,
        missile: pad & W4_BUTTON_2 != 0,
        toward: false,
        away: false,
    }
}

impl RecordMode {
    /// A fresh recording; the fighter starts where the formation's leader does (level at
    /// `(−30, 14, 36)`, facing −Z, cruise speed). `None` never happens with the fixed, valid
    /// [`RecordingInfo`] used (the recorder validates it).
    pub fn new() -> Option<Self> {
        let params = FlyerParams::default();
        let info = RecordingInfo {
            checksum_interval: RECORD_CHECK_INTERVAL,
            ..RecordingInfo::default()
        };
        Some(RecordMode {
            recorder: Recorder::new_v2(info).ok()?,
            flyer: FlyerState::level(Vec3::new(-30.0, 14.0, 36.0), 0.0, params.cruise_speed),
            params,
            combo: 0,
            done: false,
        })
    }

    /// One tick with a gamepad byte; returns true once the recording has ended.
    pub fn update(&mut self, pad: u8) -> bool {
        if self.done {
            return true;
        }
        let full = record_and_fly(
            &mut self.recorder,
            &mut self.flyer,
            &self.params,
            &pilot_input(pad),
            &hopkit_demo::pilot::TARGETS,
            &hopkit_demo::level::DemoGround,
        )
        .is_err();
        self.combo = if pad & RECORD_COMBO == RECORD_COMBO {
            self.combo.saturating_add(1)
        } else {
            0
        };
        self.done =
            full || self.combo >= COMBO_FRAMES || self.recorder.frames() >= MAX_RECORD_FRAMES;
        self.done
    }

    /// Seconds recorded, in tenths.
    pub fn tenths(&self) -> u32 {
        self.recorder.frames() / 6
    }
}

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

/// The cart's game: the demo ([`Cart`]) plus the gamepad log, and record mode. Plain Rust, so
/// host tests run it.
#[derive(Clone, Debug)]
pub struct Game {
    /// The demo rig and its 128×64 1-bpp framebuffer.
    pub cart: Cart,
    /// Gamepad bytes read, run-length encoded.
    pub log: PadLog,
    /// Where the formation's ghost came from (the note on screen).
    pub source: GhostSource,
    /// Record mode, while it runs (the demo is paused; its gamepad bytes are not logged).
    pub record: Option<RecordMode>,
    /// Ticks the record combo has been held in the demo.
    combo: u8,
}

impl Default for Game {
    /// The demo with the bundled version 1 recording (host tests; the cart itself starts from
    /// [`Game::with_recording`] and [`load_ghost`]).
    fn default() -> Self {
        Self::with_rig(DemoRig::new(), GhostSource::BundledEmptyDisk)
    }
}

impl Game {
    /// The demo with `recording` as the formation's ghost.
    pub fn with_recording(recording: Option<Recording<'static>>, source: GhostSource) -> Self {
        Self::with_rig(DemoRig::with_recording(recording), source)
    }

    /// The game on `rig`, its player on the cart's level ([`cart_level`]).
    fn with_rig(rig: DemoRig, source: GhostSource) -> Self {
        Game {
            cart: Cart::with_rig(cart_level(rig)),
            log: PadLog::default(),
            source,
            record: None,
            combo: 0,
        }
    }

    /// The finished recording's bytes (a complete version 2 file) once record mode has ended,
    /// else `None`. The cart writes them to the disk and restarts.
    pub fn finished_recording(&mut self) -> Option<&[u8]> {
        match &mut self.record {
            Some(r) if RECORD_MODE && r.done => Some(r.recorder.finish()),
            _ => None,
        }
    }

    /// One frame: log the gamepad byte, tick the demo with it and draw the handheld picture;
    /// `trace` receives the lines to print (ended runs, and every [`HASH_EVERY`] ticks the open
    /// run followed by the state hash). In record mode the byte flies the fighter instead (not
    /// logged). Holding [`RECORD_COMBO`] for [`COMBO_FRAMES`] ticks starts record mode.
    pub fn update(&mut self, gamepad: u8, mut trace: impl FnMut(&[u8])) {
        if let Some(r) = self.record.as_mut().filter(|_| RECORD_MODE) {
            if r.update(gamepad) {
                let mut l = Line::default();
                l.push("recorded ")
                    .num(r.recorder.frames())
                    .push(" ticks, ")
                    .num(r.recorder.len() as u32)
                    .push(" bytes");
                trace(l.as_bytes());
            }
            return;
        }
        if RECORD_MODE {
            self.combo = if gamepad & RECORD_COMBO == RECORD_COMBO {
                self.combo.saturating_add(1)
            } else {
                0
            };
            if self.combo >= COMBO_FRAMES {
                self.record = RecordMode::new();
                trace(b"record mode");
                return;
            }
        }
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

/// What of the cart's level ([`LEVEL`]: the floor, the two ramps, the walls) a run visited:
/// CI's cart runs must walk through all of it before they compare hashes with the host
/// (`examples/level_tour.rs`). Host only.
#[cfg(not(target_arch = "wasm32"))]
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Tour {
    /// Ticks the player stood on each ramp (`hopkit_demo::level::RAMPS`: 20°, 30°), above the
    /// floor.
    pub on_ramp: [u32; 2],
    /// Ticks the player was in the air just past a ramp's high edge, above the floor (it went
    /// over the drop).
    pub off_ramp_edge: u32,
    /// Ticks the player was held at the arena's wall.
    pub at_wall: u32,
}

#[cfg(not(target_arch = "wasm32"))]
impl Tour {
    /// Note where the game's player is after a tick.
    pub fn visit(&mut self, game: &Game) {
        use hopkit_demo::level::{ARENA_HALF_EXTENT, RAMPS};
        let m = &game.cart.rig.scene.player.mover;
        let p = m.position.planar();
        for (n, r) in self.on_ramp.iter_mut().zip(RAMPS.iter()) {
            if m.grounded && r.contains(p) && m.position.y > 0.0 {
                *n += 1;
            }
            let past = if r.along_x {
                p.x > r.max.x && p.x < r.max.x + 3.0 && p.y >= r.min.y && p.y <= r.max.y
            } else {
                p.y > r.max.y && p.y < r.max.y + 3.0 && p.x >= r.min.x && p.x <= r.max.x
            };
            if past && !m.grounded && m.position.y > 0.5 {
                self.off_ramp_edge += 1;
            }
        }
        if p.x.abs() >= ARENA_HALF_EXTENT || p.y.abs() >= ARENA_HALF_EXTENT {
            self.at_wall += 1;
        }
    }

    /// The parts of the level not visited (empty: all of them).
    pub fn missing(&self) -> Vec<&'static str> {
        [
            (self.on_ramp[0], "the 20° ramp"),
            (self.on_ramp[1], "the 30° ramp"),
            (self.off_ramp_edge, "a ramp's high edge (the drop)"),
            (self.at_wall, "the arena's wall"),
        ]
        .into_iter()
        .filter(|&(n, _)| n == 0)
        .map(|(_, name)| name)
        .collect()
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::hash::{format_hash_line, HASH_LINE_LEN};
    use hopkit::stick::digital::{W4_BUTTON_1, W4_BUTTON_2, W4_DOWN, W4_LEFT, W4_RIGHT, W4_UP};

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
            let want = format_hash_line(
                hopkit_demo::gamepad::gamepad_hash_rig(cart_level(DemoRig::new()), &bytes[..n]),
                &mut buf,
            );
            assert_eq!(line, want, "tick {tick}");
        }
    }

    /// The browser test's tour (`web/browser-test.mjs`, `TOUR`: `[[keys], frames]` rows), as
    /// gamepad bytes.
    fn browser_tour() -> Vec<u8> {
        let js = include_str!("../web/browser-test.mjs");
        let block = js
            .split("const TOUR = [")
            .nth(1)
            .unwrap()
            .split("];")
            .next()
            .unwrap();
        let mut bytes = Vec::new();
        for row in block.lines().filter_map(|l| l.trim().strip_prefix("[[")) {
            let (keys, rest) = row.split_once("],").unwrap();
            let frames: usize = rest.split(']').next().unwrap().trim().parse().unwrap();
            let pad = keys.split(',').map(str::trim).fold(0u8, |b, k| {
                b | match k {
                    "UP" => W4_UP,
                    "DOWN" => W4_DOWN,
                    "LEFT" => W4_LEFT,
                    "RIGHT" => W4_RIGHT,
                    "X" => W4_BUTTON_1,
                    "Z" => W4_BUTTON_2,
                    "" => 0,
                    k => panic!("key {k}"),
                }
            });
            bytes.extend(std::iter::repeat_n(pad, frames));
        }
        bytes
    }

    #[test]
    #[cfg(not(feature = "level-solids"))]
    fn the_browser_tour_visits_the_whole_level_and_idling_does_not() {
        let bytes = browser_tour();
        assert!(bytes.len() >= 1800, "{} ticks", bytes.len());
        let mut game = Game::default();
        let mut tour = Tour::default();
        for &b in &bytes[..1800] {
            game.update(b, |_| {});
            tour.visit(&game);
        }
        assert!(tour.missing().is_empty(), "{tour:?}: {:?}", tour.missing());
        // The cart's level, whatever features this build has: the host's `hash --gamepad`.
        let host =
            hopkit_demo::gamepad::gamepad_hash_rig(cart_level(DemoRig::new()), &bytes[..1800]);
        assert_eq!(game.cart.state_hash(), host);
        // Standing still, or running straight ahead, visits neither ramp.
        for pad in [0u8, W4_UP] {
            let mut game = Game::default();
            let mut tour = Tour::default();
            for _ in 0..600 {
                game.update(pad, |_| {});
                tour.visit(&game);
            }
            assert!(tour.missing().contains(&"the 20° ramp"), "{tour:?}");
            assert!(tour.missing().contains(&"the 30° ramp"), "{tour:?}");
        }
    }

    /// The solid level's cart (feature `level-solids`, measured, not shipped): the game plays
    /// the level `hopkit-sim hash --gamepad FILE --level solid` runs (host-sim's rig: the same
    /// `with_solids` on the same `solid_level::build`), so the same bytes give the same hash,
    /// and not the plain level's.
    #[test]
    #[cfg(feature = "level-solids")]
    fn the_solid_level_cart_hashes_as_the_hosts_solid_level() {
        use hopkit_demo::solid_level::{build, SolidWorld};
        assert_eq!(LEVEL.name(), "solid");
        let bytes = browser_tour();
        let mut game = Game::default();
        assert!(
            game.cart.rig.scene.view().solids,
            "the view draws the solids"
        );
        for &b in &bytes[..1800] {
            game.update(b, |_| {});
        }
        let mut world = Box::new(SolidWorld::new());
        build(&mut world);
        let host = hopkit_demo::gamepad::gamepad_hash_rig(
            DemoRig::new().with_solids(Box::leak(world)),
            &bytes[..1800],
        );
        assert_eq!(game.cart.state_hash(), host);
        let plain = hopkit_demo::gamepad::gamepad_hash_rig(
            DemoRig::new().with_level(Level::Plain),
            &bytes[..1800],
        );
        assert_ne!(
            host, plain,
            "the solid level plays differently from the plain one"
        );
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

    fn scratch() -> &'static mut [u8] {
        Box::leak(vec![0u8; SCRATCH_LEN].into_boxed_slice())
    }

    #[test]
    fn the_bundled_v2_ghost_hashes_like_the_v1_file() {
        let (rec, source) = load_ghost(&[], scratch());
        assert_eq!(source, GhostSource::BundledEmptyDisk);
        let v1 = hopkit_demo::demo_recording().unwrap();
        let rec = rec.unwrap();
        assert!(rec.frames().eq(v1.frames()));
        assert!(rec.checksums().eq(v1.checksums()));
        let mut a = Game::with_recording(Some(rec), source);
        let mut b = Game::default();
        for t in 0..900u32 {
            let pad = match t {
                0..=59 => W4_UP,
                60..=700 => W4_RIGHT | W4_BUTTON_1,
                _ => (t % 7) as u8 * 16,
            };
            a.update(pad, |_| {});
            b.update(pad, |_| {});
            if t % 100 == 99 {
                assert_eq!(a.cart.state_hash(), b.cart.state_hash(), "tick {t}");
            }
        }
        // The golden hash of the demo's first 600 ticks on its own scripted input (on the plain
        // level; the solid level's floor is a solid, so its runs hash differently).
        if cfg!(feature = "level-solids") {
            return;
        }
        let (rec, source) = load_ghost(&[], scratch());
        let mut c = Game::with_recording(rec, source);
        for _ in 0..600 {
            c.cart.update_scripted();
        }
        assert_eq!(c.cart.state_hash(), 0xd625_d6dd_acdc_8e4f);
    }

    /// A human-like gamepad script for record mode: turns, climbs, bursts of fire.
    fn flight_pad(t: u32) -> u8 {
        let turn = match (t / 90) % 4 {
            0 => W4_LEFT,
            1 => 0,
            2 => W4_RIGHT,
            _ => 0,
        };
        let climb = match (t / 130) % 3 {
            0 => W4_UP,
            1 => 0,
            _ => W4_DOWN,
        };
        let fire = if (t / 40) % 5 == 0 { W4_BUTTON_1 } else { 0 };
        let missile = if t % 311 == 7 { W4_BUTTON_2 } else { 0 };
        turn | climb | fire | missile
    }

    fn record(ticks: u32, end_with_combo: bool) -> (Vec<u8>, u32) {
        let mut g = Game::default();
        let mut lines = Vec::new();
        for _ in 0..COMBO_FRAMES {
            g.update(RECORD_COMBO, |l| lines.push(l.to_vec()));
        }
        assert!(g.record.is_some());
        assert_eq!(lines.last().unwrap(), b"record mode");
        let t0 = g.cart.rig.tick_count();
        for t in 0..ticks {
            g.update(flight_pad(t), |l| lines.push(l.to_vec()));
            if g.finished_recording().is_some() {
                break;
            }
        }
        // Record mode pauses the demo.
        assert_eq!(g.cart.rig.tick_count(), t0);
        if end_with_combo {
            for _ in 0..COMBO_FRAMES {
                g.update(RECORD_COMBO, |l| lines.push(l.to_vec()));
            }
        }
        let frames = g.record.as_ref().unwrap().recorder.frames();
        let bytes = g.finished_recording().expect("ended").to_vec();
        assert!(String::from_utf8(lines.last().unwrap().clone())
            .unwrap()
            .starts_with("recorded "));
        (bytes, frames)
    }

    #[test]
    fn thirty_seconds_recorded_fit_the_disk_and_fly_as_the_ghost() {
        let (bytes, frames) = record(1900, true);
        assert_eq!(frames, 1900 + COMBO_FRAMES as u32);
        assert!(bytes.len() <= DISK_LEN, "{} bytes", bytes.len());
        println!("{frames} ticks recorded in {} bytes", bytes.len());
        let (rec, source) = load_ghost(Box::leak(bytes.into_boxed_slice()), scratch());
        assert_eq!(source, GhostSource::Disk);
        let rec = rec.unwrap();
        assert_eq!(rec.frame_count(), frames);
        assert_eq!(rec.header().version, 2);
        // The recording replays: re-flying it from the same start matches every state checksum.
        let params = FlyerParams::default();
        let start = FlyerState::level(Vec3::new(-30.0, 14.0, 36.0), 0.0, params.cruise_speed);
        let checks = hopkit::ghost::verify(
            &rec,
            &params,
            start,
            &hopkit_demo::pilot::TARGETS,
            &hopkit_demo::level::DemoGround,
        )
        .unwrap();
        assert_eq!(checks, frames.div_ceil(RECORD_CHECK_INTERVAL as u32));
        // The formation flies it: a different world from the bundled ghost's.
        let mut a = Game::with_recording(Some(rec), source);
        let mut b = Game::default();
        for _ in 0..300 {
            a.cart.update_scripted();
            b.cart.update_scripted();
        }
        assert_ne!(a.cart.state_hash(), b.cart.state_hash());
    }

    #[test]
    fn a_recording_read_back_in_4_byte_groups_still_loads() {
        // The web runtime's disk after a page reload: the bytes written, then zeros up to a
        // multiple of 4.
        let mut unaligned = 0;
        for ticks in [300u32, 330, 360, 390, 600, 900] {
            let (bytes, frames) = record(ticks, true);
            unaligned += (bytes.len() % 4 != 0) as u32;
            let mut padded = bytes.clone();
            while padded.len() % 4 != 0 {
                padded.push(0);
            }
            let (rec, source) = load_ghost(Box::leak(padded.into_boxed_slice()), scratch());
            assert_eq!(source, GhostSource::Disk, "{} bytes", bytes.len());
            assert_eq!(rec.unwrap().frame_count(), frames);
        }
        assert!(unaligned > 0, "no length to pad");
    }

    #[test]
    fn recording_stops_at_the_time_limit() {
        let (bytes, frames) = record(MAX_RECORD_FRAMES + 100, false);
        assert_eq!(frames, MAX_RECORD_FRAMES);
        assert!(bytes.len() <= DISK_LEN);
        println!("{frames} ticks recorded in {} bytes", bytes.len());
        let (rec, source) = load_ghost(Box::leak(bytes.into_boxed_slice()), scratch());
        assert_eq!(source, GhostSource::Disk);
        assert_eq!(rec.unwrap().frame_count(), MAX_RECORD_FRAMES);
    }

    #[test]
    fn a_corrupt_disk_falls_back_to_the_bundled_ghost() {
        let (bytes, _) = record(600, true);
        let v1 = hopkit_demo::demo_recording().unwrap();
        for at in [0usize, 5, 9, 20, 30, bytes.len() - 1] {
            let mut bad = bytes.clone();
            bad[at] ^= 0x10;
            let (rec, source) = load_ghost(Box::leak(bad.into_boxed_slice()), scratch());
            assert_eq!(source, GhostSource::BundledBadDisk, "byte {at}");
            assert!(rec.unwrap().frames().eq(v1.frames()));
        }
        // Cut short, zero-filled (a fresh disk read whole), garbage.
        for bad in [
            bytes[..bytes.len() - 3].to_vec(),
            vec![0u8; DISK_LEN],
            (0..DISK_LEN).map(|i| (i * 37) as u8).collect(),
        ] {
            let (rec, source) = load_ghost(Box::leak(bad.into_boxed_slice()), scratch());
            assert_eq!(source, GhostSource::BundledBadDisk);
            assert!(rec.is_some());
        }
        assert_eq!(GhostSource::BundledBadDisk.note(), "ghost: disk corrupt");
    }
}
