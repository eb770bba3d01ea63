//! Status codes returned by every entry point.

use core::ffi::c_char;

/// Result of every `hk_*` call that can fail. `HK_OK` (0) is success; every other value names the
/// first problem found, and the call then changed nothing (out-parameters are left untouched).
///
/// The C type is `int32_t`; Rust only ever returns the values listed here.
#[repr(i32)]
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
#[allow(non_camel_case_types)]
pub enum HkStatus {
    /// Success.
    HK_OK = 0,
    /// A required pointer argument was NULL.
    HK_ERR_NULL = 1,
    /// A pointer was not aligned for the type it points to.
    HK_ERR_MISALIGNED = 2,
    /// A number was NaN/infinite or out of its documented range, or a flag/enum value is unknown.
    HK_ERR_INVALID_ARG = 3,
    /// A length did not match: a buffer too small, or a count above the documented capacity.
    HK_ERR_BAD_LENGTH = 4,
    /// The bytes are not a valid ghost recording (magic, version, length, CRC or header).
    HK_ERR_BAD_RECORDING = 5,
    /// Opaque storage was not initialised by its `hk_*_init` function (tag mismatch).
    HK_ERR_UNINITIALIZED = 6,
    /// A fixed-capacity buffer is full; nothing was overwritten.
    HK_ERR_FULL = 7,
    /// An exact replay disagreed with a checksum stored in the recording.
    HK_ERR_DESYNC = 8,
    /// The object is in use by a call that is still running: a ground callback called back into
    /// `hk_*` on the mover, follower or ghost being stepped. Nothing was read or changed.
    HK_ERR_BUSY = 9,
}

pub use HkStatus::*;

impl HkStatus {
    /// `Ok(())` for `HK_OK`, `Err(self)` otherwise.
    pub fn ok(self) -> Result<(), HkStatus> {
        match self {
            HK_OK => Ok(()),
            e => Err(e),
        }
    }

    /// Static description, NUL-terminated.
    pub const fn message(self) -> &'static str {
        match self {
            HK_OK => "ok\0",
            HK_ERR_NULL => "a required pointer was NULL\0",
            HK_ERR_MISALIGNED => "a pointer is misaligned for its type\0",
            HK_ERR_INVALID_ARG => "a number is NaN/infinite/out of range or a flag is unknown\0",
            HK_ERR_BAD_LENGTH => "a length or count is wrong or above capacity\0",
            HK_ERR_BAD_RECORDING => "the bytes are not a valid ghost recording\0",
            HK_ERR_UNINITIALIZED => "opaque storage was not initialised by its hk_*_init\0",
            HK_ERR_FULL => "a fixed-capacity buffer is full\0",
            HK_ERR_DESYNC => "the replay disagreed with a stored state checksum\0",
            HK_ERR_BUSY => "the object is being stepped (a callback re-entered it)\0",
        }
    }
}

/// Collapse an internal `Result` into the status returned across the boundary.
pub(crate) fn status(r: Result<(), HkStatus>) -> HkStatus {
    match r {
        Ok(()) => HK_OK,
        Err(e) => e,
    }
}

/// A static, NUL-terminated English description of `status` (never NULL; unknown values give
/// "unknown status").
#[no_mangle]
pub extern "C" fn hk_status_str(status: i32) -> *const c_char {
    let msg = match status {
        0 => HK_OK.message(),
        1 => HK_ERR_NULL.message(),
        2 => HK_ERR_MISALIGNED.message(),
        3 => HK_ERR_INVALID_ARG.message(),
        4 => HK_ERR_BAD_LENGTH.message(),
        5 => HK_ERR_BAD_RECORDING.message(),
        6 => HK_ERR_UNINITIALIZED.message(),
        7 => HK_ERR_FULL.message(),
        8 => HK_ERR_DESYNC.message(),
        9 => HK_ERR_BUSY.message(),
        _ => "unknown status\0",
    };
    msg.as_ptr().cast()
}
