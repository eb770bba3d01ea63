//! Pointer checks and opaque storage shared by every entry point (not exported).
//!
//! Every pointer from C goes through [`read`], [`get`], [`get_mut`], [`write`] or [`slice`]:
//! NULL gives `HK_ERR_NULL`, a pointer not aligned for its type gives `HK_ERR_MISALIGNED`. Plain
//! data structs crossing the boundary contain only integers and floats, so any bit pattern in them
//! is a valid Rust value; the numbers are then validated by each function.
//!
//! Opaque storage (`HkStickPipeline`, `HkMover`, …) is a byte array with a fixed size and 8-byte
//! alignment that holds a [`Slot`]: a 64-bit tag naming the type, then the Rust value. `*_init`
//! zeroes the whole storage, then writes the slot; every other call checks the tag first
//! (`HK_ERR_UNINITIALIZED` on a mismatch, e.g. zeroed or never-initialised storage). On the Rust
//! side the storage is `[MaybeUninit<u8>; N]` (C sees `uint8_t[N]`), so copying it — as C code
//! does with `HkMover b = a;` — is sound even over the padding inside the Rust value.
//!
//! **Re-entrancy.** Calls that run a C callback (the ground probe) while stepping an object —
//! `hk_mover_step`, `hk_follower_step`, `hk_ghost_step` — go through [`with_value`]: the value is
//! copied out, the tag is switched to its *busy* form, the step runs on the copy with no Rust
//! reference into C memory alive, and the result is written back. A callback that calls any
//! `hk_*` on that same object gets `HK_ERR_BUSY` and nothing is read or written, so there is no
//! aliasing to break (checked under Miri, Stacked and Tree Borrows).

use crate::status::{HkStatus, HK_ERR_BUSY, HK_ERR_MISALIGNED, HK_ERR_NULL, HK_ERR_UNINITIALIZED};
use core::mem::{align_of, size_of};

/// Alignment of every opaque storage type (the `align(8)` of their `repr`).
pub(crate) const OPAQUE_ALIGN: usize = 8;

/// Tag + value stored inside an opaque byte array.
#[repr(C)]
pub(crate) struct Slot<T> {
    tag: u64,
    value: T,
}

/// Compile-time check that `T` fits opaque storage of `size` bytes. Used as
/// `const _: () = assert_fits::<T>(N);`.
pub(crate) const fn assert_fits<T>(size: usize) {
    assert!(size_of::<Slot<T>>() <= size, "opaque storage too small");
    assert!(
        align_of::<Slot<T>>() <= OPAQUE_ALIGN,
        "opaque storage under-aligned"
    );
}

fn check<T>(p: *const T) -> Result<(), HkStatus> {
    if p.is_null() {
        Err(HK_ERR_NULL)
    } else if (p as usize) % align_of::<T>() != 0 {
        Err(HK_ERR_MISALIGNED)
    } else {
        Ok(())
    }
}

/// Copy a plain-data value out of a C pointer.
///
/// # Safety
/// `p` is NULL or points to a readable, initialised `T` (plain data: any bit pattern is valid).
pub(crate) unsafe fn read<T: Copy>(p: *const T) -> Result<T, HkStatus> {
    check(p)?;
    Ok(unsafe { p.read() })
}

/// Like [`read`] but NULL reads as `default`.
///
/// # Safety
/// As [`read`].
pub(crate) unsafe fn read_or<T: Copy>(p: *const T, default: T) -> Result<T, HkStatus> {
    if p.is_null() {
        return Ok(default);
    }
    unsafe { read(p) }
}

/// Check an out-pointer without writing it (so a call validates everything before changing
/// anything).
pub(crate) fn out<T>(p: *mut T) -> Result<*mut T, HkStatus> {
    check(p as *const T)?;
    Ok(p)
}

/// Write a value through an already [`out`]-checked pointer.
///
/// # Safety
/// `p` passed [`out`] and points to writable memory for a `T`.
pub(crate) unsafe fn put<T>(p: *mut T, v: T) {
    unsafe { p.write(v) }
}

/// A slice of `len` elements at `p`. `len == 0` accepts NULL (empty slice).
///
/// # Safety
/// `p` is NULL or points to `len` readable, initialised `T`s that are not written during the call.
pub(crate) unsafe fn slice<'a, T>(p: *const T, len: usize) -> Result<&'a [T], HkStatus> {
    if len == 0 {
        return Ok(&[]);
    }
    check(p)?;
    if len > isize::MAX as usize / size_of::<T>().max(1) {
        return Err(crate::status::HK_ERR_BAD_LENGTH);
    }
    Ok(unsafe { core::slice::from_raw_parts(p, len) })
}

/// The tag of storage whose value is lent to a running step ([`with_value`]).
const fn busy(tag: u64) -> u64 {
    tag ^ BUSY_MARK
}
/// Flips a bit no tag (eight ASCII bytes) has set.
const BUSY_MARK: u64 = 1 << 63;

/// Initialise opaque storage `p` with `value` under `tag`: the whole storage is zeroed first, so
/// its tail beyond the slot holds defined bytes too.
///
/// # Safety
/// `p` is NULL or points to writable opaque storage at least as large as `Slot<T>` (checked at
/// compile time with [`assert_fits`] by every caller).
pub(crate) unsafe fn init<S, T>(p: *mut S, tag: u64, value: T) -> Result<(), HkStatus> {
    check(p as *const S)?;
    unsafe {
        core::ptr::write_bytes(p as *mut u8, 0, size_of::<S>());
        (p as *mut Slot<T>).write(Slot { tag, value });
    }
    Ok(())
}

/// Compile-time check that all-zero bytes are a valid `T` for [`init_zeroed`]: `T` has no niche
/// (no reference, `bool`, `char`, enum or `NonZero` anywhere in it — the types with invalid bit
/// patterns, which the compiler uses to store `Option`'s tag), so `Option<T>` needs room of its
/// own. Used as `const _: () = assert_zero_valid::<T>();`.
pub(crate) const fn assert_zero_valid<T>() {
    assert!(
        size_of::<Option<T>>() > size_of::<T>(),
        "the value has a niche: all-zero bytes may not be a valid one"
    );
}

/// Initialise opaque storage `p` with a value built *in place*, for values too large to build on
/// the stack and move in: the whole storage is zeroed, the tag written, and `init` turns the
/// all-zero value into the one wanted (e.g. `World::clear` and `World::set_skin`). No copy of
/// the value is ever on the stack.
///
/// # Safety
/// As [`init`]; and all-zero bytes are a valid `T` (checked at compile time with
/// [`assert_zero_valid`] by every caller), which `init` is given.
pub(crate) unsafe fn init_zeroed<S, T>(
    p: *mut S,
    tag: u64,
    init: impl FnOnce(&mut T),
) -> Result<(), HkStatus> {
    check(p as *const S)?;
    unsafe {
        core::ptr::write_bytes(p as *mut u8, 0, size_of::<S>());
        let slot = p as *mut Slot<T>;
        core::ptr::addr_of_mut!((*slot).tag).write(tag);
        // SAFETY: aligned and inside the storage (`assert_fits`), zeroed bytes are a valid `T`
        // (`assert_zero_valid`), and nothing else refers to the storage during the call.
        init(&mut *core::ptr::addr_of_mut!((*slot).value));
    }
    Ok(())
}

fn tag_ok<S>(p: *const S, tag: u64) -> Result<(), HkStatus> {
    check(p)?;
    // SAFETY: the caller hands us storage of type S (at least 8 bytes, 8-aligned, checked above).
    let found = unsafe { (p as *const u64).read() };
    if found == tag {
        Ok(())
    } else if found == busy(tag) {
        Err(HK_ERR_BUSY)
    } else {
        Err(HK_ERR_UNINITIALIZED)
    }
}

/// Run `f` on a copy of the value in initialised storage `p` and write the result back, with the
/// storage marked busy meanwhile (see the module docs): a re-entrant call on the same storage
/// gets `HK_ERR_BUSY`. `f` runs with no reference into `p` alive.
///
/// # Safety
/// As [`get_mut`], except that `f` may call back into C, which may call `hk_*` functions on `p`.
pub(crate) unsafe fn with_value<S, T: Copy, R>(
    p: *mut S,
    tag: u64,
    f: impl FnOnce(&mut T) -> R,
) -> Result<R, HkStatus> {
    tag_ok(p as *const S, tag)?;
    let slot = p as *mut Slot<T>;
    // SAFETY: tag checked; raw place projections, no reference is created.
    let mut value = unsafe { core::ptr::addr_of!((*slot).value).read() };
    unsafe { core::ptr::addr_of_mut!((*slot).tag).write(busy(tag)) };
    let r = f(&mut value);
    unsafe {
        core::ptr::addr_of_mut!((*slot).value).write(value);
        core::ptr::addr_of_mut!((*slot).tag).write(tag);
    }
    Ok(r)
}

/// The value inside initialised opaque storage.
///
/// # Safety
/// `p` is NULL or points to opaque storage of type `S` that holds a `Slot<T>` written by [`init`]
/// (or a byte copy of one), not aliased mutably during the call.
pub(crate) unsafe fn get<'a, S, T>(p: *const S, tag: u64) -> Result<&'a T, HkStatus> {
    tag_ok(p, tag)?;
    Ok(unsafe { &(*(p as *const Slot<T>)).value })
}

/// Mutable access to the value inside initialised opaque storage.
///
/// # Safety
/// As [`get`], and not aliased at all during the call.
pub(crate) unsafe fn get_mut<'a, S, T>(p: *mut S, tag: u64) -> Result<&'a mut T, HkStatus> {
    tag_ok(p as *const S, tag)?;
    Ok(unsafe { &mut (*(p as *mut Slot<T>)).value })
}

/// A finite `f32`, or `HK_ERR_INVALID_ARG`.
pub(crate) fn finite(v: f32) -> Result<f32, HkStatus> {
    if v.is_finite() {
        Ok(v)
    } else {
        Err(crate::status::HK_ERR_INVALID_ARG)
    }
}
