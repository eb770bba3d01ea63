//! The WASM-4 side: the console's memory map and functions (as in WASM-4's Rust template), the
//! `start`/`update` exports, and drawing the screen.

use core::cell::UnsafeCell;
use core::mem::MaybeUninit;

use crate::{load_ghost, Game, Line, DISK_LEN, SCRATCH_LEN};

// Memory map (https://wasm4.org/docs/reference/memory).
const PALETTE: *mut [u32; 4] = 0x04 as _;
const DRAW_COLORS: *mut u16 = 0x14 as _;
const GAMEPAD1: *const u8 = 0x16 as _;

const BLIT_1BPP: u32 = 0;
const BLIT_ROTATE: u32 = 8;

/// The 4-colour palette, an OLED look: black, dim, mid and bright blue-white.
pub const COLORS: [u32; 4] = [0x0a0f14, 0x23414f, 0x5c9fbf, 0xe0f4ff];

/// Where the 128×64 handheld picture sits on the 160×160 screen. The layout (8×8 font, rows 8
/// px apart) keeps clear of the web runtime's touch overlay as headless Chromium shows it
/// (`docs/wasm4-browser.png`): its d-pad covers x 7..38, y 122..153, its X/Z buttons x 122..154,
/// y 120..153, its menu button x 136..152, y 105..111. Every line of text is at most 20
/// characters (160 px) and lies above y = 120 (left of x = 136 from y = 104 on) or, in record
/// mode, between the d-pad and the buttons or below them. Text uses the font's gamepad glyphs:
/// 0x80 the X button, 0x81 Z, 0x84..0x87 left, right, up, down.
const LCD_X: i32 = 16;
const LCD_Y: i32 = 10;

mod ffi {
    extern "C" {
        pub fn blit(sprite: *const u8, x: i32, y: i32, width: u32, height: u32, flags: u32);
        pub fn rect(x: i32, y: i32, width: u32, height: u32);
        #[link_name = "textUtf8"]
        pub fn text(text: *const u8, length: usize, x: i32, y: i32);
        #[link_name = "traceUtf8"]
        pub fn trace(text: *const u8, length: usize);
        pub fn diskr(dest: *mut u8, size: u32) -> u32;
        pub fn diskw(src: *const u8, size: u32) -> u32;
    }
}

fn colors(c: u16) {
    // SAFETY: DRAW_COLORS is WASM-4's register at a fixed address of the imported memory.
    unsafe { DRAW_COLORS.write_volatile(c) }
}

fn text(s: &[u8], x: i32, y: i32) {
    // SAFETY: a valid slice (ASCII) for the duration of the call, as the template does.
    unsafe { ffi::text(s.as_ptr(), s.len(), x, y) }
}

fn trace(s: &[u8]) {
    // SAFETY: as `text`.
    unsafe { ffi::trace(s.as_ptr(), s.len()) }
}

/// The game behind the exports (a WASM-4 cart is single-threaded; each export takes it for the
/// duration of one call). All zero until the first call fills it in, so it lives in `.bss`, not in
/// the cart: an `Option<Game>` static would be a 2.7 KB data segment of almost only zeros (its
/// `None` is not all zero bytes), which WASM-4's 64 KiB cart limit cannot afford.
struct Global {
    live: UnsafeCell<bool>,
    game: UnsafeCell<MaybeUninit<Game>>,
}
// SAFETY: wasm32 without threads: `start` and `update` never run concurrently.
unsafe impl Sync for Global {}
static GAME: Global = Global {
    live: UnsafeCell::new(false),
    game: UnsafeCell::new(MaybeUninit::zeroed()),
};

/// The disk as read at start, and the RAM the formation's recording is decoded into (the
/// [`Recording`](hopkit::ghost::Recording) in the game borrows both for the rest of the run).
struct Ghost {
    disk: UnsafeCell<[u8; DISK_LEN]>,
    scratch: UnsafeCell<[u8; SCRATCH_LEN]>,
}
// SAFETY: as `Global`.
unsafe impl Sync for Ghost {}
static GHOST: Ghost = Ghost {
    disk: UnsafeCell::new([0; DISK_LEN]),
    scratch: UnsafeCell::new([0; SCRATCH_LEN]),
};

/// A fresh game on the disk's recording (or the bundled ghost): read the disk, decode, start.
fn start_game(game: &mut MaybeUninit<Game>) {
    // The old game (if any) still borrows the buffers: replace it by one without a recording
    // first, so that nothing refers to them while they are rewritten.
    game.write(Game::with_recording(
        None,
        crate::GhostSource::BundledEmptyDisk,
    ));
    // SAFETY: single-threaded (see `Global`); the only references to the buffers were in the
    // game just replaced, and the new ones live in the game written below.
    let (disk, scratch): (&'static mut [u8; DISK_LEN], &'static mut [u8; SCRATCH_LEN]) =
        unsafe { (&mut *GHOST.disk.get(), &mut *GHOST.scratch.get()) };
    // SAFETY: `disk` is DISK_LEN writable bytes; WASM-4 writes at most `size` of them.
    let n = unsafe { ffi::diskr(disk.as_mut_ptr(), DISK_LEN as u32) } as usize;
    let (rec, source) = load_ghost(disk.get(..n).unwrap_or(&[]), scratch);
    // The first line of every run (the browser test checks which ghost flies).
    trace(source.note().as_bytes());
    game.write(Game::with_recording(rec, source));
}

fn with_game(f: impl FnOnce(&mut Game)) {
    // SAFETY: see `Global`; no reference outlives the call, and `game` is initialised before
    // `live` is set.
    unsafe {
        let live = &mut *GAME.live.get();
        let game = &mut *GAME.game.get();
        if !*live {
            start_game(game);
            *live = true;
        }
        f(game.assume_init_mut());
        // Record mode ended: the recording goes to the disk, and the demo restarts on it, as
        // the next start will.
        if let Some(bytes) = game.assume_init_mut().finished_recording() {
            ffi::diskw(bytes.as_ptr(), bytes.len() as u32);
            start_game(game);
        }
    }
}

/// WASM-4 calls this once at boot: palette, and the start of the demo.
#[no_mangle]
pub extern "C" fn start() {
    // SAFETY: PALETTE is WASM-4's register at a fixed address of the imported memory.
    unsafe { PALETTE.write_volatile(COLORS) }
    with_game(|_| {});
}

/// WASM-4 calls this 60 times a second: read the gamepad, tick, draw.
#[no_mangle]
pub extern "C" fn update() {
    // SAFETY: GAMEPAD1 is WASM-4's register at a fixed address of the imported memory.
    let pad = unsafe { GAMEPAD1.read_volatile() };
    with_game(|g| {
        g.update(pad, trace);
        draw(g);
    });
}

fn draw(g: &Game) {
    if let Some(r) = g.record.as_ref().filter(|_| crate::RECORD_MODE) {
        return draw_record(r);
    }
    colors(0x2);
    if crate::RECORD_MODE {
        // DOWN + X + Z held for 1 s: record.
        text(b"\x87+\x80+\x81 1s: record", 0, 0);
    } else {
        text(b"hopkit handheld", 20, 0);
    }
    text(g.source.note().as_bytes(), 0, 78);
    text(b"\x84\x85\x86\x87 move+turn", 0, 102);
    text(b"\x80 jump  \x81 fire", 0, 110);
    colors(0x4);
    text(g.speed_line().as_bytes(), 0, 86);
    let mut tick = Line::default();
    tick.push("tick ").num(g.cart.rig.tick_count());
    colors(0x3);
    text(tick.as_bytes(), 0, 94);
    // Frame around the handheld display (outline only), then the display: lit pixels bright.
    colors(0x20);
    rect(LCD_X - 2, LCD_Y - 2, 132, 68);
    colors(0x41);
    // The handheld's frame buffer is page-major (the SSD1306's layout): page `p`'s 128 bytes, one
    // per column, bit `k` the pixel in row 8p + k. As a 1-bpp sprite 8 wide and 128 tall (a byte a
    // row, most significant bit left), turned a quarter turn counter-clockwise (BLIT_ROTATE:
    // sprite row r, column c lands at x = r, y = 7 − c), that is the display's rows 8p..8p + 7.
    let fb = g.cart.fb.buffer();
    for page in 0..8 {
        // SAFETY: the frame buffer is 8 pages of 128 bytes, so bytes 128·page.. are an 8×128
        // 1-bpp sprite inside it.
        unsafe {
            ffi::blit(
                fb.as_ptr().add(128 * page),
                LCD_X,
                LCD_Y + 8 * page as i32,
                8,
                128,
                BLIT_1BPP | BLIT_ROTATE,
            )
        }
    }
}

/// Record mode: a map of the arena seen from above (±64 m around the centre, 1 px per m) with
/// the fighter and the targets, the time and bytes used, and the controls.
fn draw_record(r: &crate::RecordMode) {
    colors(0x3);
    let mut l = Line::default();
    let t = r.tenths();
    l.push("REC ").num(t / 10).push(".").num(t % 10).push("s ");
    l.num(r.recorder.len() as u32).push("/1024B");
    text(l.as_bytes(), 0, 0);
    colors(0x20);
    rect(16, 10, 128, 128);
    colors(0x3);
    for p in hopkit_demo::pilot::TARGETS {
        rect(80 + p.x as i32 - 1, 74 + p.z as i32 - 1, 3, 3);
    }
    let p = r.flyer.position;
    colors(0x4);
    rect(
        80 + (p.x as i32).clamp(-63, 62),
        74 + (p.z as i32).clamp(-63, 62),
        2,
        2,
    );
    let mut a = Line::default();
    a.push("alt ").num(p.y.max(0.0) as u32).push("m");
    text(a.as_bytes(), 44, 142);
    colors(0x2);
    text(b"\x86\x87\x84\x85 fly \x80gun \x81msl", 8, 152);
}

fn rect(x: i32, y: i32, w: u32, h: u32) {
    // SAFETY: plain values.
    unsafe { ffi::rect(x, y, w, h) }
}

// A panic traps: the handler is hopkit-cart's (`unreachable`).
