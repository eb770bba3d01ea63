//! # hopkit-ffi: the C ABI of hopkit
//!
//! A thin, separate layer over the `hopkit` core for game runtimes that are not Rust programs (C
//! and C++ engines, Cortex-M consoles). The core stays free of `#[no_mangle]`, panic handlers
//! and allocators; this crate adds `extern "C"` functions over `#[repr(C)]` plain data. The header
//! `include/hopkit.h` is generated from this crate by cbindgen (`build.rs`) and committed; a test
//! fails when it is stale (`HOPKIT_BLESS=1 cargo test -p hopkit-ffi --test integration header::` rewrites it).
//!
//! ## Memory: the caller owns everything, nothing allocates
//! - **Parameters, inputs and outputs** are `#[repr(C)]` structs of integers and floats
//!   (`HkMoveParams`, `HkRawSticks`, `HkWish`, …): C fills them (presets via `hk_*_default` /
//!   named preset functions), hopkit validates them on every call. Flags are `uint8_t` 0/1, never
//!   `bool`, so no bit pattern C can write is undefined behaviour on the Rust side.
//! - **State** lives in **opaque, sized storage** (`HkMover`, `HkStickPipeline`, `HkFollower`,
//!   `HkGhost`, `HkRecording`, `HkDemoRig`, `HkWorld`, …): `#[repr(C, align(8))] struct { uint8_t
//!   _opaque[HK_*_SIZE]; }`. The core's Rust layout is not `repr(C)` (and may change), so it is
//!   stored as is behind a 64-bit type tag, with a compile-time assertion that it fits. Allocate the
//!   storage anywhere (stack, static, your own struct), call `hk_*_init`, then only pass it to
//!   `hk_*` functions; read it through plain-data views (`hk_mover_get_state`, `hk_ghost_view`, …)
//!   and write it through validated setters. Initialised storage may be copied byte-wise
//!   (snapshots, rollback). Storage that was not initialised is reported as `HK_ERR_UNINITIALIZED`
//!   (the tag does not match).
//!
//! ## Errors: status codes, never unwinding
//! Every entry point that can fail returns an [`HkStatus`]: `HK_OK` (0) or the first problem
//! found (`HK_ERR_NULL`, `HK_ERR_MISALIGNED`, `HK_ERR_INVALID_ARG` for NaN/∞/out-of-range numbers
//! and unknown flags, `HK_ERR_BAD_LENGTH`, `HK_ERR_BAD_RECORDING`, `HK_ERR_UNINITIALIZED`,
//! `HK_ERR_FULL`, `HK_ERR_DESYNC`). On an error nothing was changed: every input is validated
//! before any output or state is written. No code path panics (no `unwrap`, no unchecked
//! indexing; the core is panic-free by design) — checked at link time by the `panic-never`
//! feature, whose panic handler calls a symbol that exists nowhere: an LTO build of the whole
//! ABI links only if no reachable panic path is left (`scripts/ci-bindings.sh`). The functions are
//! also `extern "C"`, which aborts rather than unwinds should a panic ever happen; the crate is
//! `panic = "abort"`-safe.
//!
//! ## Threads
//! There is no global state: every function is reentrant, and calls on different storage may run
//! on different threads at once. One storage object must not be used by two threads at once.
//!
//! ## Pointers
//! A pointer argument is NULL (checked: `HK_ERR_NULL`, unless documented as optional) or points to
//! memory of the documented type, aligned (checked: `HK_ERR_MISALIGNED`), not written by anyone
//! else during the call. Output pointers may point to uninitialised memory.
//!
//! ## Features
//! - `std` (default): link `std` on hosted targets (it supplies the panic handler a staticlib
//!   needs). The crate itself is `no_std` either way.
//! - `panic-halt`: for bare-metal staticlibs built with `--no-default-features`: a
//!   `#[panic_handler]` that parks the CPU (only there because a `no_std` staticlib must name one).
//! - `panic-never`: the link-time panic-freedom proof described above (not for shipping).
#![no_std]
#![deny(missing_docs)]
#![deny(unsafe_op_in_unsafe_fn)]
#![deny(clippy::unwrap_used, clippy::expect_used, clippy::indexing_slicing)]

#[cfg(feature = "std")]
extern crate std;

pub mod demo;
pub mod follower;
pub mod ghost;
pub mod ground;
pub mod mover;
mod ptr;
pub mod slope;
pub mod status;
pub mod steering;
pub mod stick;
pub mod types;
pub mod world;

pub use demo::*;
pub use follower::*;
pub use ghost::*;
pub use ground::*;
pub use mover::*;
pub use slope::*;
pub use status::*;
pub use steering::*;
pub use stick::*;
pub use types::*;
pub use world::*;

use core::ffi::c_char;

/// Version of this C ABI. Bumped on any incompatible change of a struct layout, storage size or
/// function signature.
pub const HK_ABI_VERSION: u32 = 4;

/// Alignment of every opaque storage type, bytes.
pub const HK_OPAQUE_ALIGN: usize = 8;
const _: () = assert!(HK_OPAQUE_ALIGN == ptr::OPAQUE_ALIGN);

/// `HK_ABI_VERSION` of the linked library (compare with the header's to catch a mismatch).
#[no_mangle]
pub extern "C" fn hk_abi_version() -> u32 {
    HK_ABI_VERSION
}

/// The crate version of the linked library, e.g. "0.1.0", static and NUL-terminated.
#[no_mangle]
pub extern "C" fn hk_version() -> *const c_char {
    concat!(env!("CARGO_PKG_VERSION"), "\0").as_ptr().cast()
}

/// Bytes needed by [`hk_format_hash_line`]: `state-hash: 0x` + 16 hex digits + NUL.
pub const HK_HASH_LINE_SIZE: usize = 31;
const _: () = assert!(HK_HASH_LINE_SIZE == hopkit::hash::HASH_LINE_LEN + 1);

/// Write `state-hash: 0x<16 lowercase hex digits>` and a NUL into `buf` (the line every hopkit
/// front end prints). `len` must be at least `HK_HASH_LINE_SIZE` (31), else `HK_ERR_BAD_LENGTH`.
///
/// # Safety
/// `buf` NULL or `len` writable bytes.
#[no_mangle]
pub unsafe extern "C" fn hk_format_hash_line(hash: u64, buf: *mut c_char, len: usize) -> HkStatus {
    status::status((|| {
        if buf.is_null() {
            return Err(HK_ERR_NULL);
        }
        if len < HK_HASH_LINE_SIZE {
            return Err(HK_ERR_BAD_LENGTH);
        }
        let mut tmp = [0u8; HK_HASH_LINE_SIZE];
        let n = hopkit::hash::format_hash_line(hash, &mut tmp).len();
        if let Some(nul) = tmp.get_mut(n) {
            *nul = 0;
        }
        // SAFETY: buf has at least HK_HASH_LINE_SIZE writable bytes (checked above).
        unsafe { core::ptr::copy_nonoverlapping(tmp.as_ptr(), buf.cast::<u8>(), n + 1) };
        Ok(())
    })())
}

#[cfg(all(feature = "panic-halt", not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    loop {
        core::hint::spin_loop();
    }
}

/// `panic-never`: the panic handler calls a function that exists nowhere, so linking anything
/// that still contains a reachable panic path fails — a link-time proof that no entry point can
/// panic (used by `scripts/ci-bindings.sh` on an LTO build).
#[cfg(all(feature = "panic-never", not(feature = "std"), not(test)))]
#[panic_handler]
fn panic(_: &core::panic::PanicInfo) -> ! {
    extern "C" {
        fn hopkit_ffi_has_a_reachable_panic() -> !;
    }
    // SAFETY: never actually called in a successful link (the symbol does not exist).
    unsafe { hopkit_ffi_has_a_reachable_panic() }
}
