//! # hopkit-cart: the handheld demo as a 64 KiB wasm32 cart
//!
//! The same simulation as the firmware and `hopkit-sim` (`hopkit_demo::DemoRig`), driven by a
//! WASM-4-style one-byte gamepad and drawn by `hopkit_demo::render::draw_frame` into a 1-bpp
//! 128×64 framebuffer the host reads from linear memory. `no_std` on wasm32, no allocator, one
//! 64 KiB page of memory in total (20 KiB of it stack; see `build.rs`).
//!
//! ## Exports (all `extern "C"`, wasm32 `i32` arguments and results)
//! | export | what |
//! |---|---|
//! | `cart_init()` | reset to the start of the demo scene |
//! | `cart_update(gamepad)` | one 1/60 s tick with the gamepad byte (bits 8..31 ignored), then draw |
//! | `cart_update_scripted()` | one tick of the scripted demo input (`hopkit_demo::scripted_raw`), then draw |
//! | `cart_update_raw(lx, ly, rx, ry, adc_max, buttons)` | one tick with raw stick counts (low 16/8 bits used), then draw |
//! | `cart_framebuffer_ptr()` / `cart_framebuffer_len()` | the 1024-byte framebuffer, rows of 16 bytes top to bottom, most significant bit = leftmost pixel (the PBM `P4` layout, [`FrameBuffer::rows`]), set = lit |
//! | `cart_width()` / `cart_height()` | 128 / 64 |
//! | `cart_state_hash_lo()` / `cart_state_hash_hi()` | the 64-bit state hash, low / high 32 bits |
//! | `cart_tick_count()` | ticks simulated since `cart_init` |
//!
//! ## Gamepad (WASM-4 bits)
//! `BUTTON_1` (1) = jump, `BUTTON_2` (2) = fire — the demo's own button bits. The d-pad is the
//! movement stick by the seed's diagonal rule (`hopkit::stick::digital::wasm4_to_stick`):
//! UP = forward, DOWN = back, LEFT/RIGHT = strafe. LEFT/RIGHT also turn the view that way
//! ([`TURN_WITH_STRAFE`] of the look stick, like the scripted demo's strafe-hop), so holding RIGHT
//! and `BUTTON_1` bunny-hops in a widening circle. The gamepad becomes raw 12-bit samples
//! ([`gamepad_to_raw`]) and goes through the rig's stick pipeline like every other front end.
#![cfg_attr(target_arch = "wasm32", no_std)]
#![deny(missing_docs)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

use hopkit::stick::RawSticks;
use hopkit_demo::framebuffer::FrameBuffer;
use hopkit_demo::{self as demo, DemoRig};

pub use hopkit_demo::gamepad::{gamepad_raw as gamepad_to_raw, TURN_WITH_STRAFE};

/// The whole cart: the demo rig and its framebuffer. Plain Rust, so the host tests run exactly
/// the same code natively and compare.
#[derive(Clone, Debug)]
pub struct Cart {
    /// The simulation.
    pub rig: DemoRig,
    /// What was drawn after the last update (the handheld's page-major buffer; the exports hand
    /// the host its rows, [`FrameBuffer::rows`]).
    pub fb: FrameBuffer,
}

impl Default for Cart {
    fn default() -> Self {
        Self::new()
    }
}

impl Cart {
    /// The start of the demo scene, drawn.
    pub fn new() -> Self {
        Self::with_rig(DemoRig::new())
    }

    /// The start of the demo scene with another ghost recording ([`DemoRig::with_recording`]),
    /// drawn.
    pub fn with_recording(recording: Option<hopkit::ghost::Recording<'static>>) -> Self {
        Self::with_rig(DemoRig::with_recording(recording))
    }

    /// The cart on `rig` (e.g. on another level: [`DemoRig::with_level`]), drawn.
    pub fn with_rig(rig: DemoRig) -> Self {
        let mut c = Cart {
            rig,
            fb: FrameBuffer::new(),
        };
        c.draw();
        c
    }

    /// One tick with a WASM-4 gamepad byte, then draw.
    pub fn update(&mut self, gamepad: u8) {
        self.update_raw(&gamepad_to_raw(gamepad));
    }

    /// One tick of the scripted demo input, then draw.
    pub fn update_scripted(&mut self) {
        let raw = demo::scripted_raw(self.rig.tick_count());
        self.update_raw(&raw);
    }

    /// One tick with raw samples, then draw.
    pub fn update_raw(&mut self, raw: &RawSticks) {
        self.rig.tick(raw);
        self.draw();
    }

    fn draw(&mut self) {
        // Drawing into the framebuffer cannot fail (its error type is `Infallible`).
        let _ = hopkit_demo::render::draw_frame(&self.rig.view(), &mut self.fb);
    }

    /// The rig's state hash.
    pub fn state_hash(&self) -> u64 {
        self.rig.state_hash()
    }
}

/// The `cart_*` exports (feature `exports`, on by default; the WASM-4 cart, which exports
/// WASM-4's own `start`/`update`, turns it off).
#[cfg(feature = "exports")]
mod exports {
    use super::*;
    use core::cell::UnsafeCell;
    use hopkit_demo::framebuffer::FRAME_BYTES;
    use hopkit_demo::view::{DISPLAY_HEIGHT, DISPLAY_WIDTH};

    /// The cart instance behind the exports. wasm32 carts are single-threaded; every export takes
    /// the cell for the duration of one call only.
    struct Global(UnsafeCell<Option<Cart>>);
    // SAFETY: the exports are the only users and a wasm module instance is single-threaded; on a
    // native host the exports are for tests, which call them from one thread (`tests/` serialise).
    unsafe impl Sync for Global {}
    static CART: Global = Global(UnsafeCell::new(None));

    /// The picture the host reads: the cart's frame buffer in rows ([`FrameBuffer::rows`]),
    /// written after every export that draws.
    struct Rows(UnsafeCell<[u8; FRAME_BYTES]>);
    // SAFETY: as `Global`: one export at a time, no reference outlives the call.
    unsafe impl Sync for Rows {}
    static ROWS: Rows = Rows(UnsafeCell::new([0; FRAME_BYTES]));

    fn with_cart<R>(f: impl FnOnce(&mut Cart) -> R) -> R {
        // SAFETY: see `Global`: no two exports run at once, and no reference outlives the call.
        let slot = unsafe { &mut *CART.0.get() };
        let fresh = slot.is_none();
        let cart = slot.get_or_insert_with(Cart::new);
        if fresh {
            publish(cart);
        }
        f(cart)
    }

    /// [`with_cart`] for an export that draws: the host's rows follow.
    fn with_cart_drawn(f: impl FnOnce(&mut Cart)) {
        with_cart(|c| {
            f(c);
            publish(c);
        });
    }

    fn publish(cart: &Cart) {
        // SAFETY: see `Rows`.
        unsafe { *ROWS.0.get() = cart.fb.rows() };
    }

    /// Reset to the start of the demo scene (also done lazily by the first call of any export).
    #[no_mangle]
    pub extern "C" fn cart_init() {
        with_cart_drawn(|c| *c = Cart::new());
    }

    /// One 1/60 s tick with a WASM-4 gamepad byte (bits 8..31 ignored), then draw.
    #[no_mangle]
    pub extern "C" fn cart_update(gamepad: u32) {
        with_cart_drawn(|c| c.update(gamepad as u8));
    }

    /// One tick of the scripted demo input (`hopkit_demo::scripted_raw(tick)`), then draw.
    #[no_mangle]
    pub extern "C" fn cart_update_scripted() {
        with_cart_drawn(|c| c.update_scripted());
    }

    /// One tick with raw stick counts (low 16 bits of the counts, low 8 of `buttons`), then draw.
    #[no_mangle]
    pub extern "C" fn cart_update_raw(
        left_x: u32,
        left_y: u32,
        right_x: u32,
        right_y: u32,
        adc_max: u32,
        buttons: u32,
    ) {
        let raw = RawSticks {
            left_x: left_x as u16,
            left_y: left_y as u16,
            right_x: right_x as u16,
            right_y: right_y as u16,
            adc_max: adc_max as u16,
            buttons: buttons as u8,
        };
        with_cart_drawn(|c| c.update_raw(&raw));
    }

    /// The level [`cart_collision_hash`] builds its runs in: a static, off the cart's stack.
    struct LevelCell(UnsafeCell<Option<hopkit_demo::collision::Level>>);
    // SAFETY: as `Global`: one export at a time, no reference outlives the call.
    unsafe impl Sync for LevelCell {}
    static LEVEL: LevelCell = LevelCell(UnsafeCell::new(None));

    /// The collision scenarios' hash (`hopkit_demo::collision::collision_hash`, the body among
    /// solids): CI compares it on wasm32 with x86_64's (`tests/wasm.rs`).
    #[no_mangle]
    pub extern "C" fn cart_collision_hash() -> u64 {
        // SAFETY: see `LevelCell`.
        let level = unsafe { &mut *LEVEL.0.get() };
        let level = level.get_or_insert_with(hopkit_demo::collision::Level::new);
        hopkit_demo::collision::collision_hash_in(level)
    }

    /// Address of the 1024-byte framebuffer (rows, see the crate docs) in linear memory: the
    /// same address for the whole run, its bytes the picture the last drawing export drew.
    #[no_mangle]
    pub extern "C" fn cart_framebuffer_ptr() -> *const u8 {
        with_cart(|_| ROWS.0.get().cast_const().cast())
    }

    /// Length of the framebuffer in bytes (1024).
    #[no_mangle]
    pub extern "C" fn cart_framebuffer_len() -> u32 {
        FRAME_BYTES as u32
    }

    /// Framebuffer width in pixels (128).
    #[no_mangle]
    pub extern "C" fn cart_width() -> u32 {
        DISPLAY_WIDTH
    }

    /// Framebuffer height in pixels (64).
    #[no_mangle]
    pub extern "C" fn cart_height() -> u32 {
        DISPLAY_HEIGHT
    }

    /// Low 32 bits of the state hash.
    #[no_mangle]
    pub extern "C" fn cart_state_hash_lo() -> u32 {
        with_cart(|c| c.state_hash() as u32)
    }

    /// High 32 bits of the state hash.
    #[no_mangle]
    pub extern "C" fn cart_state_hash_hi() -> u32 {
        with_cart(|c| (c.state_hash() >> 32) as u32)
    }

    /// Ticks simulated since `cart_init`.
    #[no_mangle]
    pub extern "C" fn cart_tick_count() -> u32 {
        with_cart(|c| c.rig.tick_count())
    }
}

/// On wasm32 a panic traps (`unreachable`); carts that embed this crate share the handler.
#[cfg(all(target_arch = "wasm32", not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    core::arch::wasm32::unreachable()
}

#[cfg(test)]
mod tests {
    use super::*;
    use hopkit::math::Vec2;
    use hopkit::stick::digital::{W4_BUTTON_1, W4_BUTTON_2, W4_LEFT, W4_RIGHT, W4_UP};

    #[test]
    fn gamepad_maps_to_the_demo_controls() {
        let idle = gamepad_to_raw(0);
        assert_eq!(
            idle,
            RawSticks::from_positions(Vec2::ZERO, Vec2::ZERO, 0, demo::ADC_MAX)
        );
        let r = gamepad_to_raw(W4_RIGHT | W4_BUTTON_1);
        assert_eq!(r.left_x, demo::ADC_MAX);
        assert!(r.right_x > demo::ADC_MAX / 2, "right also turns right");
        assert_eq!(r.buttons, demo::buttons::JUMP);
        assert_eq!(gamepad_to_raw(W4_BUTTON_2).buttons, demo::buttons::FIRE);
        // Up+left: the seed's exact diagonal, through the same 12-bit path as the script.
        let d = gamepad_to_raw(W4_UP | W4_LEFT);
        let h = core::f32::consts::FRAC_1_SQRT_2;
        assert_eq!(
            d,
            RawSticks::from_positions(
                Vec2::new(-h, h),
                Vec2::new(-h * TURN_WITH_STRAFE, 0.0),
                0,
                demo::ADC_MAX
            )
        );
        // Opposite directions cancel.
        assert_eq!(gamepad_to_raw(W4_LEFT | W4_RIGHT), idle);
    }

    #[test]
    fn scripted_cart_hashes_like_the_core() {
        let mut c = Cart::new();
        for _ in 0..120 {
            c.update_scripted();
        }
        assert_eq!(c.state_hash(), demo::scripted_hash(120));
        assert!(c.fb.lit() > 0);
    }
}
