//! The WASM-4 side: the console's memory map and functions (as in WASM-4's Rust template), the
//! `start`/`update` exports, and drawing the screen.

use core::cell::UnsafeCell;
use core::mem::MaybeUninit;

use crate::{Game, Line};

// Memory map (https://wasm4.org/docs/reference/memory).
const PALETTE: *mut [u32; 4] = 0x04 as _;
const DRAW_COLORS: *mut u16 = 0x14 as _;
const GAMEPAD1: *const u8 = 0x16 as _;

const BLIT_1BPP: u32 = 0;

/// The 4-colour palette, an OLED look: black, dim, mid and bright blue-white.
pub const COLORS: [u32; 4] = [0x0a0f14, 0x23414f, 0x5c9fbf, 0xe0f4ff];

/// Where the 128×64 handheld picture sits on the 160×160 screen (the text keeps above y = 126,
/// where WASM-4's touch-screen gamepad overlay begins).
const LCD_X: i32 = 16;
const LCD_Y: i32 = 16;

mod ffi {
    extern "C" {
        pub fn blit(sprite: *const u8, x: i32, y: i32, width: u32, height: u32, flags: u32);
        pub fn rect(x: i32, y: i32, width: u32, height: u32);
        #[link_name = "textUtf8"]
        pub fn text(text: *const u8, length: usize, x: i32, y: i32);
        #[link_name = "traceUtf8"]
        pub fn trace(text: *const u8, length: usize);
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

fn with_game(f: impl FnOnce(&mut Game)) {
    // SAFETY: see `Global`; no reference outlives the call, and `game` is initialised before
    // `live` is set.
    unsafe {
        let live = &mut *GAME.live.get();
        let game = &mut *GAME.game.get();
        if !*live {
            game.write(Game::default());
            *live = true;
        }
        f(game.assume_init_mut())
    }
}

/// WASM-4 calls this once at boot: palette, and the start of the demo.
#[no_mangle]
pub extern "C" fn start() {
    // SAFETY: PALETTE is WASM-4's register at a fixed address of the imported memory.
    unsafe { PALETTE.write_volatile(COLORS) }
    with_game(|g| *g = Game::default());
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
    colors(0x3);
    text(b"hopkit handheld", 20, 3);
    // Frame around the handheld display (outline only), then the display: lit pixels bright.
    colors(0x20);
    rect(LCD_X - 2, LCD_Y - 2, 132, 68);
    colors(0x41);
    // SAFETY: the framebuffer is 1024 bytes of 1-bpp, MSB-first rows: exactly 128×64 for BLIT_1BPP.
    unsafe { ffi::blit(g.cart.fb.bytes.as_ptr(), LCD_X, LCD_Y, 128, 64, BLIT_1BPP) }
    colors(0x4);
    text(g.speed_line().as_bytes(), 8, 86);
    let mut tick = Line::default();
    tick.push("tick ").num(g.cart.rig.tick_count());
    colors(0x3);
    text(tick.as_bytes(), 8, 96);
    colors(0x2);
    text(b"arrows move+turn", 8, 108);
    text(b"X jump  Z fire", 8, 118);
}

fn rect(x: i32, y: i32, w: u32, h: u32) {
    // SAFETY: plain values.
    unsafe { ffi::rect(x, y, w, h) }
}

// A panic traps: the handler is hopkit-cart's (`unreachable`).
