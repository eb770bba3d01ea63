//! # hopkit-libretro: the hopkit handheld demo as a libretro core
//!
//! `hopkit_libretro.so` runs the demo every hopkit front end runs ([`hopkit_demo`]: the player,
//! the companion, the critters and the ghost formation on the demo level **with its features** —
//! tower, ladder, pool, turntable — at a fixed 60 Hz) inside RetroArch or any other libretro
//! frontend. The game stays in `demo/`; this crate is only the front end:
//!
//! - **Input** ([`input`]): both analog sticks (`RETRO_DEVICE_ANALOG`) become the handheld's
//!   12-bit ADC samples and go through the same stick pipeline as the boards' (calibration,
//!   deadzone, curve); the d-pad (`RETRO_DEVICE_JOYPAD`) is the WASM-4 gamepad mapping; B jumps,
//!   A fires. Input descriptors name each control in the frontend's menus.
//! - **Picture**: the handheld's 128×64 frame from the shared renderer, white on black, RGB565
//!   (0RGB1555 if the frontend refuses it), aspect 2:1. **Sound**: silence, 800 stereo frames at
//!   48 kHz every frame (never a stall). **Timing**: 60 Hz.
//! - **Content**: none needed (the bundled ghost recording); a `.ghost` recording (version 1 or
//!   2) loaded as content is flown by the ghost formation instead.
//! - **Savestates** ([`savestate`]): a fixed [`savestate::STATE_SIZE`] bytes, exact (a restored
//!   state continues bit for bit), refused with a logged reason when from another version,
//!   another recording or corrupt.
//! - **Log**: through the frontend's log interface (stderr without one): what runs at load, and
//!   `state-hash: 0x… tick N` every 600 ticks and at unload — the line `hopkit-sim hash --sticks`
//!   / `--gamepad` prints for the same input — and at unload the frames run and the savestates
//!   written, restored and refused.
//!
//! Every entry point catches panics (none is expected: the code is written not to panic) and
//! never unwinds into the frontend; nothing allocates per frame (tested with a counting
//! allocator). The libretro API is global by nature: one game per process, behind a mutex.

#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]

pub mod game;
pub mod input;
pub mod savestate;
pub mod sys;

use core::ffi::{c_char, c_uint, c_void, CStr};
use std::sync::{Mutex, MutexGuard};

use game::{Game, Line, PixelFormat, HEIGHT, WIDTH};
use input::{joy, Pad, JOYPAD_IDS};

/// Sample rate of the (silent) sound, Hz.
pub const SAMPLE_RATE: u32 = 48_000;
/// Stereo frames of sound per video frame.
pub const AUDIO_FRAMES: usize = (SAMPLE_RATE / hopkit_demo::TICK_HZ) as usize;
static SILENCE: [i16; 2 * AUDIO_FRAMES] = [0; 2 * AUDIO_FRAMES];

/// The frontend's callbacks and the loaded game.
struct Frontend {
    environment: Option<sys::EnvironmentFn>,
    video: Option<sys::VideoRefreshFn>,
    audio_batch: Option<sys::AudioSampleBatchFn>,
    input_poll: Option<sys::InputPollFn>,
    input_state: Option<sys::InputStateFn>,
    log: Option<sys::LogPrintf>,
    game: Option<Box<Game>>,
}

static FRONTEND: Mutex<Frontend> = Mutex::new(Frontend {
    environment: None,
    video: None,
    audio_batch: None,
    input_poll: None,
    input_state: None,
    log: None,
    game: None,
});

/// The frontend state. A panic inside an earlier call (none is expected) poisons the lock: the
/// game it was running is dropped and logged, and the core carries on without one.
fn frontend() -> MutexGuard<'static, Frontend> {
    match FRONTEND.lock() {
        Ok(g) => g,
        Err(poisoned) => {
            let mut g = poisoned.into_inner();
            FRONTEND.clear_poison();
            if g.game.take().is_some() {
                g.log(
                    sys::LogLevel::Error,
                    "hopkit: an internal error stopped the game",
                );
            }
            g
        }
    }
}

/// Run `f`, turning a panic into `default` (the panic is reported on stderr by the panic hook;
/// nothing unwinds into the frontend).
fn guard<R>(default: R, f: impl FnOnce() -> R) -> R {
    std::panic::catch_unwind(std::panic::AssertUnwindSafe(f)).unwrap_or(default)
}

impl Frontend {
    /// One line to the frontend's log (stderr without a log interface).
    fn log(&self, level: sys::LogLevel, text: &str) {
        match self.log {
            Some(log) => {
                let mut buf = [0u8; 192];
                let n = text.len().min(buf.len() - 1);
                if let (Some(d), Some(s)) = (buf.get_mut(..n), text.as_bytes().get(..n)) {
                    d.copy_from_slice(s);
                }
                // Interior NULs would cut the line short; the texts here have none.
                // SAFETY: the frontend's printf-like logger, given a format with one `%s` and a
                // NUL-terminated string for it.
                unsafe {
                    log(
                        level as i32,
                        c"%s\n".as_ptr(),
                        buf.as_ptr().cast::<c_char>(),
                    )
                };
            }
            None => {
                use std::io::Write;
                let mut e = std::io::stderr().lock();
                let _ = e.write_all(text.as_bytes());
                let _ = e.write_all(b"\n");
            }
        }
    }

    /// [`Frontend::log`] of formatted text (built on the stack, cut at the [`Line`]'s length).
    fn log_fmt(&self, level: sys::LogLevel, args: core::fmt::Arguments<'_>) {
        let mut l = Line::new();
        let _ = core::fmt::Write::write_fmt(&mut l, args);
        self.log(level, l.as_str());
    }

    fn env(&self, cmd: c_uint, data: *mut c_void) -> bool {
        match self.environment {
            // SAFETY: the frontend's environment callback with a command and its documented data.
            Some(env) => unsafe { env(cmd, data) },
            None => false,
        }
    }

    /// Port 0's input for this frame.
    fn read_pad(&self) -> Pad {
        let mut pad = Pad::default();
        let Some(state) = self.input_state else {
            return pad;
        };
        // SAFETY: the frontend's input callback, called on the thread that runs `retro_run`.
        let q = |device, index, id| unsafe { state(0, device, index, id) };
        pad.left = [
            q(sys::DEVICE_ANALOG, sys::INDEX_ANALOG_LEFT, sys::ID_ANALOG_X),
            q(sys::DEVICE_ANALOG, sys::INDEX_ANALOG_LEFT, sys::ID_ANALOG_Y),
        ];
        pad.right = [
            q(
                sys::DEVICE_ANALOG,
                sys::INDEX_ANALOG_RIGHT,
                sys::ID_ANALOG_X,
            ),
            q(
                sys::DEVICE_ANALOG,
                sys::INDEX_ANALOG_RIGHT,
                sys::ID_ANALOG_Y,
            ),
        ];
        for id in JOYPAD_IDS {
            if q(sys::DEVICE_JOYPAD, 0, id) != 0 {
                pad.joypad |= joy(id);
            }
        }
        pad
    }
}

/// The controls the frontend's menus name (the right stick's y is read but moves nothing).
struct Descriptors([sys::InputDescriptor; 12]);
// SAFETY: only pointers to static C string literals, never written.
unsafe impl Sync for Descriptors {}

const fn desc(
    device: c_uint,
    index: c_uint,
    id: c_uint,
    text: &'static CStr,
) -> sys::InputDescriptor {
    sys::InputDescriptor {
        port: 0,
        device,
        index,
        id,
        description: text.as_ptr(),
    }
}

static DESCRIPTORS: Descriptors = Descriptors([
    desc(
        sys::DEVICE_ANALOG,
        sys::INDEX_ANALOG_LEFT,
        sys::ID_ANALOG_X,
        c"Move: strafe left / right",
    ),
    desc(
        sys::DEVICE_ANALOG,
        sys::INDEX_ANALOG_LEFT,
        sys::ID_ANALOG_Y,
        c"Move: forward / back",
    ),
    desc(
        sys::DEVICE_ANALOG,
        sys::INDEX_ANALOG_RIGHT,
        sys::ID_ANALOG_X,
        c"Look: turn left / right",
    ),
    desc(sys::DEVICE_JOYPAD, 0, sys::JOYPAD_UP, c"Forward (d-pad)"),
    desc(sys::DEVICE_JOYPAD, 0, sys::JOYPAD_DOWN, c"Back (d-pad)"),
    desc(
        sys::DEVICE_JOYPAD,
        0,
        sys::JOYPAD_LEFT,
        c"Strafe + turn left (d-pad)",
    ),
    desc(
        sys::DEVICE_JOYPAD,
        0,
        sys::JOYPAD_RIGHT,
        c"Strafe + turn right (d-pad)",
    ),
    desc(
        sys::DEVICE_JOYPAD,
        0,
        sys::JOYPAD_B,
        c"Jump (hold to bunny-hop)",
    ),
    desc(sys::DEVICE_JOYPAD, 0, sys::JOYPAD_A, c"Fire"),
    desc(sys::DEVICE_JOYPAD, 0, sys::JOYPAD_L3, c"Left stick push"),
    desc(sys::DEVICE_JOYPAD, 0, sys::JOYPAD_R3, c"Right stick push"),
    sys::InputDescriptor {
        port: 0,
        device: 0,
        index: 0,
        id: 0,
        description: core::ptr::null(),
    },
]);

/// `retro_api_version`.
#[no_mangle]
pub extern "C" fn retro_api_version() -> c_uint {
    sys::RETRO_API_VERSION
}

/// `retro_set_environment`: keeps the callback, says the core runs without content and asks
/// for the log interface.
///
/// # Safety
/// `cb` is the frontend's environment callback (or NULL).
#[no_mangle]
pub unsafe extern "C" fn retro_set_environment(cb: Option<sys::EnvironmentFn>) {
    guard((), || {
        let mut f = frontend();
        f.environment = cb;
        let mut yes = true;
        f.env(sys::ENV_SET_SUPPORT_NO_GAME, (&raw mut yes).cast());
        let mut log = sys::LogCallback { log: None };
        if f.env(sys::ENV_GET_LOG_INTERFACE, (&raw mut log).cast()) {
            f.log = log.log;
        }
    });
}

/// `retro_set_video_refresh`.
///
/// # Safety
/// `cb` is the frontend's callback (or NULL).
#[no_mangle]
pub unsafe extern "C" fn retro_set_video_refresh(cb: Option<sys::VideoRefreshFn>) {
    guard((), || frontend().video = cb);
}

/// `retro_set_audio_sample` (unused: the core sends its sound in batches).
///
/// # Safety
/// `cb` is the frontend's callback (or NULL).
#[no_mangle]
pub unsafe extern "C" fn retro_set_audio_sample(_cb: Option<sys::AudioSampleFn>) {}

/// `retro_set_audio_sample_batch`.
///
/// # Safety
/// `cb` is the frontend's callback (or NULL).
#[no_mangle]
pub unsafe extern "C" fn retro_set_audio_sample_batch(cb: Option<sys::AudioSampleBatchFn>) {
    guard((), || frontend().audio_batch = cb);
}

/// `retro_set_input_poll`.
///
/// # Safety
/// `cb` is the frontend's callback (or NULL).
#[no_mangle]
pub unsafe extern "C" fn retro_set_input_poll(cb: Option<sys::InputPollFn>) {
    guard((), || frontend().input_poll = cb);
}

/// `retro_set_input_state`.
///
/// # Safety
/// `cb` is the frontend's callback (or NULL).
#[no_mangle]
pub unsafe extern "C" fn retro_set_input_state(cb: Option<sys::InputStateFn>) {
    guard((), || frontend().input_state = cb);
}

/// `retro_init`.
#[no_mangle]
pub extern "C" fn retro_init() {}

/// `retro_deinit`: drops a game still loaded.
#[no_mangle]
pub extern "C" fn retro_deinit() {
    guard((), || {
        frontend().game = None;
    });
}

/// `retro_get_system_info`.
///
/// # Safety
/// `info` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn retro_get_system_info(info: *mut sys::SystemInfo) {
    if info.is_null() {
        return;
    }
    const VERSION: &CStr =
        match CStr::from_bytes_with_nul(concat!(env!("CARGO_PKG_VERSION"), "\0").as_bytes()) {
            Ok(v) => v,
            Err(_) => c"?",
        };
    // SAFETY: checked non-NULL; the frontend passes writable storage.
    unsafe {
        info.write(sys::SystemInfo {
            library_name: c"hopkit".as_ptr(),
            library_version: VERSION.as_ptr(),
            valid_extensions: c"ghost".as_ptr(),
            need_fullpath: false,
            block_extract: false,
        })
    };
}

/// `retro_get_system_av_info`: 128×64 at 2:1, 60 Hz, 48 kHz.
///
/// # Safety
/// `info` is NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn retro_get_system_av_info(info: *mut sys::SystemAvInfo) {
    if info.is_null() {
        return;
    }
    // SAFETY: checked non-NULL; the frontend passes writable storage.
    unsafe {
        info.write(sys::SystemAvInfo {
            geometry: sys::GameGeometry {
                base_width: WIDTH as c_uint,
                base_height: HEIGHT as c_uint,
                max_width: WIDTH as c_uint,
                max_height: HEIGHT as c_uint,
                aspect_ratio: WIDTH as f32 / HEIGHT as f32,
            },
            timing: sys::SystemTiming {
                fps: hopkit_demo::TICK_HZ as f64,
                sample_rate: SAMPLE_RATE as f64,
            },
        })
    };
}

/// `retro_set_controller_port_device` (one pad on port 0; nothing to switch).
#[no_mangle]
pub extern "C" fn retro_set_controller_port_device(_port: c_uint, _device: c_uint) {}

/// `retro_reset`: tick 0, same recording.
#[no_mangle]
pub extern "C" fn retro_reset() {
    guard((), || {
        if let Some(g) = frontend().game.as_mut() {
            g.reset();
        }
    });
}

/// `retro_run`: one frame.
#[no_mangle]
pub extern "C" fn retro_run() {
    guard((), || {
        let mut guard = frontend();
        let f = &mut *guard;
        if let Some(poll) = f.input_poll {
            // SAFETY: the frontend's callback.
            unsafe { poll() };
        }
        let pad = f.read_pad();
        let Some(game) = f.game.as_mut() else {
            return;
        };
        let line = game.frame(&pad);
        let pixels = game.pixels().as_ptr();
        if let Some(line) = line {
            f.log(sys::LogLevel::Info, line.as_str());
        }
        if let Some(video) = f.video {
            // SAFETY: the frontend's callback with our WIDTH × HEIGHT u16 pixels, alive for the
            // call (the game is held by the lock).
            unsafe {
                video(
                    pixels.cast(),
                    WIDTH as c_uint,
                    HEIGHT as c_uint,
                    WIDTH * core::mem::size_of::<u16>(),
                )
            };
        }
        if let Some(audio) = f.audio_batch {
            // SAFETY: the frontend's callback with AUDIO_FRAMES stereo frames of static silence.
            unsafe { audio(SILENCE.as_ptr(), AUDIO_FRAMES) };
        }
    });
}

/// `retro_serialize_size`: always [`savestate::STATE_SIZE`].
#[no_mangle]
pub extern "C" fn retro_serialize_size() -> usize {
    savestate::STATE_SIZE
}

/// `retro_serialize`.
///
/// # Safety
/// `data` NULL or `size` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn retro_serialize(data: *mut c_void, size: usize) -> bool {
    if data.is_null() {
        return false;
    }
    // SAFETY: the frontend passes `size` writable bytes.
    let out = unsafe { core::slice::from_raw_parts_mut(data.cast::<u8>(), size) };
    guard(false, || {
        let mut f = frontend();
        match f.game.as_mut() {
            Some(g) => g.save(out),
            None => false,
        }
    })
}

/// `retro_unserialize`: a refused state is logged with its reason and changes nothing.
///
/// # Safety
/// `data` NULL or `size` readable bytes.
#[no_mangle]
pub unsafe extern "C" fn retro_unserialize(data: *const c_void, size: usize) -> bool {
    if data.is_null() {
        return false;
    }
    // SAFETY: the frontend passes `size` readable bytes.
    let bytes = unsafe { core::slice::from_raw_parts(data.cast::<u8>(), size) };
    guard(false, || {
        let mut guard = frontend();
        let f = &mut *guard;
        let Some(g) = f.game.as_mut() else {
            return false;
        };
        match g.load(bytes) {
            Ok(()) => true,
            Err(e) => {
                f.log_fmt(
                    sys::LogLevel::Warn,
                    format_args!("hopkit: savestate refused: {e}"),
                );
                false
            }
        }
    })
}

/// `retro_cheat_reset` (no cheats).
#[no_mangle]
pub extern "C" fn retro_cheat_reset() {}

/// `retro_cheat_set` (no cheats).
#[no_mangle]
pub extern "C" fn retro_cheat_set(_index: c_uint, _enabled: bool, _code: *const c_char) {}

/// `retro_load_game`: `game` NULL (or without data) starts the demo with its bundled ghost; a
/// `.ghost` recording's bytes make it the formation's ghost. Refused content is logged.
///
/// # Safety
/// `game` NULL or a `retro_game_info` whose `data` holds `size` readable bytes (or is NULL).
#[no_mangle]
pub unsafe extern "C" fn retro_load_game(game: *const sys::GameInfo) -> bool {
    // SAFETY: as documented.
    let content: Option<&[u8]> = unsafe {
        match game.as_ref() {
            Some(g) if !g.data.is_null() => {
                Some(core::slice::from_raw_parts(g.data.cast(), g.size))
            }
            _ => None,
        }
    };
    guard(false, || {
        let mut guard = frontend();
        let f = &mut *guard;
        let mut fmt = sys::PIXEL_FORMAT_RGB565;
        let format = if f.env(sys::ENV_SET_PIXEL_FORMAT, (&raw mut fmt).cast()) {
            PixelFormat::Rgb565
        } else {
            let mut fmt = sys::PIXEL_FORMAT_0RGB1555;
            f.env(sys::ENV_SET_PIXEL_FORMAT, (&raw mut fmt).cast());
            PixelFormat::Xrgb1555
        };
        f.env(
            sys::ENV_SET_INPUT_DESCRIPTORS,
            DESCRIPTORS.0.as_ptr().cast_mut().cast(),
        );
        match Game::new(content, format) {
            Ok(g) => {
                f.log(sys::LogLevel::Info, g.describe().as_str());
                f.game = Some(g);
                true
            }
            Err(e) => {
                f.log_fmt(
                    sys::LogLevel::Error,
                    format_args!("hopkit: content refused: {e}"),
                );
                false
            }
        }
    })
}

/// `retro_load_game_special` (no special content).
#[no_mangle]
pub extern "C" fn retro_load_game_special(
    _game_type: c_uint,
    _info: *const sys::GameInfo,
    _num_info: usize,
) -> bool {
    false
}

/// `retro_unload_game`: logs the final `state-hash` line and what the frontend asked (frames,
/// savestates), then drops the game.
#[no_mangle]
pub extern "C" fn retro_unload_game() {
    guard((), || {
        let mut guard = frontend();
        let f = &mut *guard;
        if let Some(g) = f.game.take() {
            f.log(sys::LogLevel::Info, g.hash_line().as_str());
            f.log(sys::LogLevel::Info, g.stats_line().as_str());
        }
    });
}

/// `retro_get_region`: NTSC (60 Hz).
#[no_mangle]
pub extern "C" fn retro_get_region() -> c_uint {
    sys::REGION_NTSC
}

/// `retro_get_memory_data`: no save RAM or exposed memory.
#[no_mangle]
pub extern "C" fn retro_get_memory_data(_id: c_uint) -> *mut c_void {
    core::ptr::null_mut()
}

/// `retro_get_memory_size`.
#[no_mangle]
pub extern "C" fn retro_get_memory_size(_id: c_uint) -> usize {
    0
}

#[cfg(test)]
mod tests;
