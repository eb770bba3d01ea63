//! The ARMv6-M (Cortex-M0) exports: the run-time ABI names LLVM calls for `f32` arithmetic on
//! `thumbv6m-none-eabi` (ARM RTABI §4.1.2), defined here so the linker takes these instead of the
//! `compiler_builtins` versions. Soft-float AAPCS: `f32` arguments and results travel in core
//! registers as their bit patterns (r0, r1 → r0); the comparisons return 0 or 1 in r0.
//!
//! `#[unsafe(no_mangle)]` is the only unsafe part (a symbol of that name must not be defined twice;
//! `compiler_builtins`' copies are only pulled from its archive when nothing else defines them).

use super::{add, eq, ge, gt, le, lt, mul, sub, unordered};

/// `a + b`.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fadd(a: f32, b: f32) -> f32 {
    f32::from_bits(add(a.to_bits(), b.to_bits()))
}

/// `a - b`.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fsub(a: f32, b: f32) -> f32 {
    f32::from_bits(sub(a.to_bits(), b.to_bits()))
}

/// `b - a` (reverse subtract).
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_frsub(a: f32, b: f32) -> f32 {
    f32::from_bits(sub(b.to_bits(), a.to_bits()))
}

/// `a × b`.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fmul(a: f32, b: f32) -> f32 {
    f32::from_bits(mul(a.to_bits(), b.to_bits()))
}

/// `a == b` as 0 / 1.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fcmpeq(a: f32, b: f32) -> i32 {
    eq(a.to_bits(), b.to_bits()) as i32
}

/// `a < b` as 0 / 1.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fcmplt(a: f32, b: f32) -> i32 {
    lt(a.to_bits(), b.to_bits()) as i32
}

/// `a <= b` as 0 / 1.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fcmple(a: f32, b: f32) -> i32 {
    le(a.to_bits(), b.to_bits()) as i32
}

/// `a > b` as 0 / 1.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fcmpgt(a: f32, b: f32) -> i32 {
    gt(a.to_bits(), b.to_bits()) as i32
}

/// `a >= b` as 0 / 1.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fcmpge(a: f32, b: f32) -> i32 {
    ge(a.to_bits(), b.to_bits()) as i32
}

/// Either operand a NaN, as 0 / 1.
#[unsafe(no_mangle)]
pub extern "aapcs" fn __aeabi_fcmpun(a: f32, b: f32) -> i32 {
    unordered(a.to_bits(), b.to_bits()) as i32
}
