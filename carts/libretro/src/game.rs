//! The running game behind the libretro entry points, as plain Rust: the demo rig, its ghost
//! recording (the bundled one or the content), the picture and the savestates. Nothing here
//! touches the frontend: `lib.rs` reads the input, calls [`Game::frame`] and hands the picture
//! and the log lines over.

use core::fmt::Write as _;

use hopkit::ghost::format::{load_scratch_size, peek_header, FORMAT_VERSION_2};
use hopkit::ghost::Recording;
use hopkit_demo::framebuffer::FrameBuffer;
use hopkit_demo::view::{DISPLAY_HEIGHT, DISPLAY_WIDTH};
use hopkit_demo::DemoRig;

use crate::input::{raw_sticks, Pad};
use crate::savestate::{self, LoadError};

/// Picture width, pixels (the handheld's 128×64 display).
pub const WIDTH: usize = DISPLAY_WIDTH as usize;
/// Picture height, pixels.
pub const HEIGHT: usize = DISPLAY_HEIGHT as usize;
/// Ticks between the `state-hash` lines the core logs (10 s at 60 Hz, as the WASM-4 cart).
pub const HASH_EVERY: u32 = 600;
/// Largest content accepted, bytes (a recording of 600 s at 10 kHz, the format's highest rate,
/// is 42 MB; a player's run is a few KB).
pub const MAX_CONTENT: usize = 16 << 20;

/// Largest decoded recording, bytes: 600 s at 10 kHz, the format's highest rate (the limit
/// `hopkit-sim` reads recordings up to).
pub const MAX_DECODED: usize = 42_000_024;

/// The frontend's pixel format, as agreed at load.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum PixelFormat {
    /// `RETRO_PIXEL_FORMAT_RGB565` (asked for first).
    Rgb565,
    /// `RETRO_PIXEL_FORMAT_0RGB1555` (every frontend's default).
    Xrgb1555,
}

impl PixelFormat {
    /// A lit pixel: the OLED's white.
    pub const fn lit(self) -> u16 {
        match self {
            PixelFormat::Rgb565 => 0xffff,
            PixelFormat::Xrgb1555 => 0x7fff,
        }
    }
}

/// Which recording the ghost formation flies.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum GhostSource {
    /// The demo's bundled recording (`demo/assets/demo.ghost`): started without content.
    Bundled,
    /// The content the frontend loaded.
    Content {
        /// Its frames.
        frames: u32,
    },
}

/// Why content was refused.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum ContentError {
    /// Larger than [`MAX_CONTENT`].
    TooLarge(usize),
    /// Not a valid hopkit recording.
    Decode(hopkit::ghost::DecodeError),
}

impl core::fmt::Display for ContentError {
    fn fmt(&self, f: &mut core::fmt::Formatter<'_>) -> core::fmt::Result {
        match self {
            ContentError::TooLarge(n) => {
                write!(f, "content of {n} bytes is larger than {MAX_CONTENT}")
            }
            ContentError::Decode(e) => write!(f, "not a hopkit recording: {e}"),
        }
    }
}

/// The content's bytes and the decoded image a version 2 recording needs, owned by the game for
/// as long as its rig plays them (see [`Game`]'s `Drop`).
struct Owned {
    bytes: *mut [u8],
    scratch: *mut [u8],
}

/// One loaded game.
pub struct Game {
    rig: DemoRig,
    /// The recording the rig was built with (the rig keeps its own copy private).
    recording: Option<Recording<'static>>,
    recording_id: u64,
    source: GhostSource,
    owned: Option<Owned>,
    frame: FrameBuffer,
    pixels: [u16; WIDTH * HEIGHT],
    format: PixelFormat,
    stats: Stats,
}

/// What the frontend asked of the game since it was loaded (logged at unload: a run-ahead or
/// rewind run shows its savestates here).
#[derive(Clone, Copy, Debug, Default, PartialEq, Eq)]
pub struct Stats {
    /// Frames run ([`Game::frame`]).
    pub frames: u64,
    /// Savestates written.
    pub saved: u64,
    /// Savestates restored.
    pub restored: u64,
    /// Savestates refused.
    pub refused: u64,
}

// SAFETY: `owned` only points to heap memory the game alone owns (leaked boxes, freed in `Drop`).
unsafe impl Send for Game {}

impl Drop for Game {
    fn drop(&mut self) {
        // Drop the rig's borrow of the content first, then the content.
        self.rig = DemoRig::with_recording(None);
        self.recording = None;
        if let Some(o) = self.owned.take() {
            // SAFETY: both came from `Box::into_raw` in `Game::new`, nothing borrows them any more
            // (the rig that did was just replaced), and they are freed once (`take`).
            unsafe {
                drop(Box::from_raw(o.bytes));
                drop(Box::from_raw(o.scratch));
            }
        }
    }
}

/// A log line built without allocating (longer text is cut).
#[derive(Clone)]
pub struct Line {
    buf: [u8; 160],
    len: usize,
}

impl Line {
    /// Empty.
    pub const fn new() -> Self {
        Line {
            buf: [0; 160],
            len: 0,
        }
    }

    /// The text so far.
    pub fn as_str(&self) -> &str {
        let b = self.buf.get(..self.len).unwrap_or(&[]);
        // Only whole `&str`s are appended, so a cut can only fall inside a UTF-8 sequence if a
        // multi-byte character hit the end: drop the partial tail then.
        match core::str::from_utf8(b) {
            Ok(s) => s,
            Err(e) => core::str::from_utf8(b.get(..e.valid_up_to()).unwrap_or(&[])).unwrap_or(""),
        }
    }
}

impl Default for Line {
    fn default() -> Self {
        Self::new()
    }
}

impl core::fmt::Write for Line {
    fn write_str(&mut self, s: &str) -> core::fmt::Result {
        for &b in s.as_bytes() {
            if let Some(d) = self.buf.get_mut(self.len) {
                *d = b;
                self.len += 1;
            }
        }
        Ok(())
    }
}

impl Game {
    /// A game on the demo level: with no content, the formation flies the bundled recording;
    /// with content (a `.ghost` file's bytes, version 1 or 2), that recording.
    pub fn new(content: Option<&[u8]>, format: PixelFormat) -> Result<Box<Game>, ContentError> {
        let (recording, source, owned) = match content {
            None => (
                hopkit_demo::demo_recording().ok(),
                GhostSource::Bundled,
                None,
            ),
            Some(bytes) => {
                if bytes.len() > MAX_CONTENT {
                    return Err(ContentError::TooLarge(bytes.len()));
                }
                let header = peek_header(bytes).map_err(ContentError::Decode)?;
                // A version 2 file is decoded into a version 1 image (its size follows from the
                // header; capped, a larger claim is then refused by the decoder); version 1 is
                // read in place.
                let size = if header.version == FORMAT_VERSION_2 {
                    load_scratch_size(header.frame_count as usize, header.checksum_interval)
                        .min(MAX_DECODED)
                } else {
                    0
                };
                let b: *mut [u8] = Box::into_raw(Box::<[u8]>::from(bytes));
                let s: *mut [u8] = Box::into_raw(vec![0u8; size].into_boxed_slice());
                let owned = Owned {
                    bytes: b,
                    scratch: s,
                };
                // SAFETY: the boxes live until `Game::drop`, which first drops the rig holding
                // this recording; nothing else refers to them.
                let (bytes, scratch): (&'static [u8], &'static mut [u8]) =
                    unsafe { (&*b, &mut *s) };
                match hopkit::ghost::load(bytes, scratch) {
                    Ok(rec) => {
                        let frames = rec.frame_count();
                        (Some(rec), GhostSource::Content { frames }, Some(owned))
                    }
                    Err(e) => {
                        // SAFETY: as in `drop`: the failed load borrowed them only for the call.
                        unsafe {
                            drop(Box::from_raw(owned.bytes));
                            drop(Box::from_raw(owned.scratch));
                        }
                        return Err(ContentError::Decode(e));
                    }
                }
            }
        };
        let mut game = Box::new(Game {
            // `DemoRig::new` is exactly this with the bundled recording.
            rig: DemoRig::with_recording(recording),
            recording,
            recording_id: savestate::recording_id(recording.as_ref()),
            source,
            owned,
            frame: FrameBuffer::new(),
            pixels: [0; WIDTH * HEIGHT],
            format,
            stats: Stats::default(),
        });
        game.draw();
        Ok(game)
    }

    /// Back to tick 0 with the same recording.
    pub fn reset(&mut self) {
        self.rig = DemoRig::with_recording(self.recording);
        self.draw();
    }

    /// One 1/60 s frame: one tick of the simulation with `pad`, then the picture. Returns the
    /// `state-hash` line to log when the tick is a multiple of [`HASH_EVERY`].
    pub fn frame(&mut self, pad: &Pad) -> Option<Line> {
        self.rig.tick(&raw_sticks(pad));
        self.stats.frames += 1;
        self.draw();
        if self.rig.tick_count() % HASH_EVERY == 0 {
            Some(self.hash_line())
        } else {
            None
        }
    }

    /// `state-hash: 0x<16 hex> tick N`: the line `hopkit-sim hash` prints, and the tick.
    pub fn hash_line(&self) -> Line {
        let mut buf = [0u8; hopkit::hash::HASH_LINE_LEN];
        let mut l = Line::new();
        let _ = write!(
            l,
            "{} tick {}",
            hopkit::hash::format_hash_line(self.rig.state_hash(), &mut buf),
            self.rig.tick_count()
        );
        l
    }

    /// What the game runs, for the log at load.
    pub fn describe(&self) -> Line {
        let mut l = Line::new();
        let _ = write!(
            l,
            "hopkit {}: demo level with its features (tower, ladder, pool, turntable), ",
            env!("CARGO_PKG_VERSION")
        );
        let _ = match self.source {
            GhostSource::Bundled => write!(l, "bundled ghost recording"),
            GhostSource::Content { frames } => write!(l, "ghost from content ({frames} frames)"),
        };
        let _ = write!(l, ", savestates {} bytes", savestate::STATE_SIZE);
        l
    }

    /// The picture, `WIDTH × HEIGHT` pixels in the agreed format, row after row.
    pub fn pixels(&self) -> &[u16; WIDTH * HEIGHT] {
        &self.pixels
    }

    /// The simulation.
    pub fn rig(&self) -> &DemoRig {
        &self.rig
    }

    /// Which recording the formation flies.
    pub fn source(&self) -> GhostSource {
        self.source
    }

    /// Write a savestate ([`savestate::STATE_SIZE`] bytes) into `out`.
    pub fn save(&mut self, out: &mut [u8]) -> bool {
        let ok = savestate::save(&self.rig, self.recording_id, out);
        self.stats.saved += ok as u64;
        ok
    }

    /// Restore a savestate; on an error nothing changes.
    pub fn load(&mut self, bytes: &[u8]) -> Result<(), LoadError> {
        if let Err(e) = savestate::load(&mut self.rig, self.recording_id, bytes) {
            self.stats.refused += 1;
            return Err(e);
        }
        self.stats.restored += 1;
        self.draw();
        Ok(())
    }

    /// What the frontend asked so far.
    pub fn stats(&self) -> Stats {
        self.stats
    }

    /// `hopkit: N frames run, savestates: S written, R restored, X refused`.
    pub fn stats_line(&self) -> Line {
        let s = self.stats;
        let mut l = Line::new();
        let _ = write!(
            l,
            "hopkit: {} frames run, savestates: {} written, {} restored, {} refused",
            s.frames, s.saved, s.restored, s.refused
        );
        l
    }

    fn draw(&mut self) {
        let view = self.rig.view();
        // The frame buffer's drawing cannot fail (`Infallible`).
        let _ = hopkit_demo::render::draw_frame(&view, &mut self.frame);
        let lit = self.format.lit();
        for (y, row) in self.pixels.chunks_exact_mut(WIDTH).enumerate() {
            for (x, p) in row.iter_mut().enumerate() {
                *p = if self.frame.get(x as i32, y as i32) {
                    lit
                } else {
                    0
                };
            }
        }
    }
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit_demo::pilot::{DEMO_RECORDING, DEMO_RECORDING_V2};

    fn run(g: &mut Game, ticks: u32) {
        for _ in 0..ticks {
            g.frame(&Pad {
                joypad: crate::input::joy(crate::sys::JOYPAD_RIGHT)
                    | crate::input::joy(crate::sys::JOYPAD_B),
                ..Pad::default()
            });
        }
    }

    #[test]
    fn content_of_either_version_flies_like_the_bundled_ghost() {
        let mut bundled = Game::new(None, PixelFormat::Rgb565).unwrap();
        run(&mut bundled, 300);
        for bytes in [DEMO_RECORDING, DEMO_RECORDING_V2] {
            let mut g = Game::new(Some(bytes), PixelFormat::Xrgb1555).unwrap();
            assert_eq!(g.source(), GhostSource::Content { frames: 1800 });
            run(&mut g, 300);
            assert_eq!(g.rig().state_hash(), bundled.rig().state_hash());
            assert!(g.pixels().contains(&0x7fff) && !g.pixels().contains(&0xffff));
            g.reset();
            assert_eq!(g.rig().tick_count(), 0);
        }
        assert_eq!(
            bundled.hash_line().as_str().len(),
            "state-hash: 0x".len() + 16 + 9
        );
    }

    #[test]
    fn bad_content_is_refused() {
        let too_big = vec![0u8; MAX_CONTENT + 1];
        assert!(matches!(
            Game::new(Some(&too_big), PixelFormat::Rgb565),
            Err(ContentError::TooLarge(_))
        ));
        let mut cut = DEMO_RECORDING_V2.to_vec();
        cut.truncate(cut.len() - 9);
        assert!(matches!(
            Game::new(Some(&cut), PixelFormat::Rgb565),
            Err(ContentError::Decode(_))
        ));
        let mut flipped = DEMO_RECORDING.to_vec();
        flipped[100] ^= 1;
        let e = Game::new(Some(&flipped), PixelFormat::Rgb565)
            .err()
            .unwrap();
        assert!(e.to_string().starts_with("not a hopkit recording"), "{e}");
    }

    #[test]
    fn long_lines_are_cut_not_overrun() {
        let mut l = Line::new();
        for _ in 0..100 {
            let _ = l.write_str("ü-");
        }
        assert!(l.as_str().len() <= 160);
        assert!(l.as_str().starts_with("ü-ü-"));
    }
}
