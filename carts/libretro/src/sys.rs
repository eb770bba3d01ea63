//! The part of `libretro.h` (API version 1) this core uses, written out by hand so that building
//! the core needs no system header. `scripts/ci-libretro.sh` compiles the project's own frontend
//! (`frontend/frontend.c`) against Debian's real `libretro.h` (package `retroarch-dev`) and runs
//! this core through it and through RetroArch, so a value or layout here that disagreed with the
//! header would show there.

use core::ffi::{c_char, c_uint, c_void};

/// `RETRO_API_VERSION`.
pub const RETRO_API_VERSION: c_uint = 1;

/// `RETRO_DEVICE_JOYPAD`.
pub const DEVICE_JOYPAD: c_uint = 1;
/// `RETRO_DEVICE_ANALOG`.
pub const DEVICE_ANALOG: c_uint = 5;
/// `RETRO_DEVICE_INDEX_ANALOG_LEFT`.
pub const INDEX_ANALOG_LEFT: c_uint = 0;
/// `RETRO_DEVICE_INDEX_ANALOG_RIGHT`.
pub const INDEX_ANALOG_RIGHT: c_uint = 1;
/// `RETRO_DEVICE_ID_ANALOG_X`.
pub const ID_ANALOG_X: c_uint = 0;
/// `RETRO_DEVICE_ID_ANALOG_Y`.
pub const ID_ANALOG_Y: c_uint = 1;

/// `RETRO_DEVICE_ID_JOYPAD_B` (bottom face button).
pub const JOYPAD_B: c_uint = 0;
/// `RETRO_DEVICE_ID_JOYPAD_UP`.
pub const JOYPAD_UP: c_uint = 4;
/// `RETRO_DEVICE_ID_JOYPAD_DOWN`.
pub const JOYPAD_DOWN: c_uint = 5;
/// `RETRO_DEVICE_ID_JOYPAD_LEFT`.
pub const JOYPAD_LEFT: c_uint = 6;
/// `RETRO_DEVICE_ID_JOYPAD_RIGHT`.
pub const JOYPAD_RIGHT: c_uint = 7;
/// `RETRO_DEVICE_ID_JOYPAD_A` (right face button).
pub const JOYPAD_A: c_uint = 8;
/// `RETRO_DEVICE_ID_JOYPAD_L3` (left stick push).
pub const JOYPAD_L3: c_uint = 14;
/// `RETRO_DEVICE_ID_JOYPAD_R3` (right stick push).
pub const JOYPAD_R3: c_uint = 15;

/// `RETRO_ENVIRONMENT_SET_PIXEL_FORMAT`.
pub const ENV_SET_PIXEL_FORMAT: c_uint = 10;
/// `RETRO_ENVIRONMENT_SET_INPUT_DESCRIPTORS`.
pub const ENV_SET_INPUT_DESCRIPTORS: c_uint = 11;
/// `RETRO_ENVIRONMENT_SET_SUPPORT_NO_GAME`.
pub const ENV_SET_SUPPORT_NO_GAME: c_uint = 18;
/// `RETRO_ENVIRONMENT_GET_LOG_INTERFACE`.
pub const ENV_GET_LOG_INTERFACE: c_uint = 27;

/// `RETRO_PIXEL_FORMAT_0RGB1555` (the default every frontend accepts).
pub const PIXEL_FORMAT_0RGB1555: i32 = 0;
/// `RETRO_PIXEL_FORMAT_RGB565`.
pub const PIXEL_FORMAT_RGB565: i32 = 2;

/// `RETRO_REGION_NTSC`.
pub const REGION_NTSC: c_uint = 0;

/// `enum retro_log_level`.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[repr(i32)]
pub enum LogLevel {
    /// `RETRO_LOG_DEBUG`.
    Debug = 0,
    /// `RETRO_LOG_INFO`.
    Info = 1,
    /// `RETRO_LOG_WARN`.
    Warn = 2,
    /// `RETRO_LOG_ERROR`.
    Error = 3,
}

/// `retro_log_printf_t`: `void (*)(enum retro_log_level, const char *fmt, ...)`. The core always
/// calls it as `log(level, "%s\n", text)`, so no text is ever read as a format.
pub type LogPrintf = unsafe extern "C" fn(level: i32, fmt: *const c_char, ...);
/// `retro_environment_t`.
pub type EnvironmentFn = unsafe extern "C" fn(cmd: c_uint, data: *mut c_void) -> bool;
/// `retro_video_refresh_t`.
pub type VideoRefreshFn =
    unsafe extern "C" fn(data: *const c_void, width: c_uint, height: c_uint, pitch: usize);
/// `retro_audio_sample_t`.
pub type AudioSampleFn = unsafe extern "C" fn(left: i16, right: i16);
/// `retro_audio_sample_batch_t`.
pub type AudioSampleBatchFn = unsafe extern "C" fn(data: *const i16, frames: usize) -> usize;
/// `retro_input_poll_t`.
pub type InputPollFn = unsafe extern "C" fn();
/// `retro_input_state_t`.
pub type InputStateFn =
    unsafe extern "C" fn(port: c_uint, device: c_uint, index: c_uint, id: c_uint) -> i16;

/// `struct retro_log_callback`.
#[repr(C)]
pub struct LogCallback {
    /// The frontend's printf-like logger.
    pub log: Option<LogPrintf>,
}

/// `struct retro_system_info`.
#[repr(C)]
pub struct SystemInfo {
    /// `library_name`.
    pub library_name: *const c_char,
    /// `library_version`.
    pub library_version: *const c_char,
    /// `valid_extensions` (`|`-separated).
    pub valid_extensions: *const c_char,
    /// `need_fullpath`.
    pub need_fullpath: bool,
    /// `block_extract`.
    pub block_extract: bool,
}

/// `struct retro_game_geometry`.
#[repr(C)]
pub struct GameGeometry {
    /// `base_width`.
    pub base_width: c_uint,
    /// `base_height`.
    pub base_height: c_uint,
    /// `max_width`.
    pub max_width: c_uint,
    /// `max_height`.
    pub max_height: c_uint,
    /// `aspect_ratio` (≤ 0: width / height).
    pub aspect_ratio: f32,
}

/// `struct retro_system_timing`.
#[repr(C)]
pub struct SystemTiming {
    /// `fps`.
    pub fps: f64,
    /// `sample_rate`.
    pub sample_rate: f64,
}

/// `struct retro_system_av_info`.
#[repr(C)]
pub struct SystemAvInfo {
    /// `geometry`.
    pub geometry: GameGeometry,
    /// `timing`.
    pub timing: SystemTiming,
}

/// `struct retro_game_info`.
#[repr(C)]
pub struct GameInfo {
    /// `path` (may be NULL).
    pub path: *const c_char,
    /// `data` (the content's bytes, as `need_fullpath` is false; NULL without content).
    pub data: *const c_void,
    /// `size` of `data`.
    pub size: usize,
    /// `meta`.
    pub meta: *const c_char,
}

/// `struct retro_input_descriptor`.
#[repr(C)]
pub struct InputDescriptor {
    /// `port`.
    pub port: c_uint,
    /// `device`.
    pub device: c_uint,
    /// `index`.
    pub index: c_uint,
    /// `id`.
    pub id: c_uint,
    /// `description` (NULL ends the list).
    pub description: *const c_char,
}
