//! Which target gets which form of a computation: the one place that reads `target_*`.
//!
//! Mechanics never test the target themselves. They call a helper of [`super::bits`] (or
//! [`super::scalar`]) that picks its form from a constant here, test one of these constants in a
//! plain `if` (the branch not taken is removed at compile time), or wrap a function in
//! [`inline_policy!`]. Every form of a choice gives the same bits on every target (each pair is
//! tested on the host), so a choice here moves speed and code size, never a state hash.
//!
//! | constant | true on | false on |
//! | --- | --- | --- |
//! | [`SOFT_FLOAT`] | ARMv6-M (Cortex-M0/M0+: thumbv6m) | everything else |
//! | [`HARD_FLOAT_ARM`] | Arm hard-float ABI (Cortex-M4F/M7/M33: thumbv7em-eabihf, thumbv8m.main-eabihf) | everything else |
//! | [`HARDWARE_FLOAT`] | Arm hard-float, RISC-V with F, wasm32, x86, x86_64, aarch64 | thumbv6m, thumbv7m, thumbv7em-eabi, riscv32imac, others |
//! | [`FLOAT_SUMS_BEAT_BIT_TESTS`] | = [`HARDWARE_FLOAT`] | the soft-float targets |
//! | [`DISTANCE_BY_ROOT`] | wasm32 | everything else |
//! | [`SPEED_OVER_SIZE`] | 64-bit hosts (x86_64, aarch64) | 32-bit targets (MCUs, wasm32) |
//! | [`SIZE_FIRST`] | wasm32 (the WASM-4 cart's 64 KiB) | everything else |
//!
//! The inline policies of [`inline_policy!`] read [`SPEED_OVER_SIZE`]'s and [`HARD_FLOAT_ARM`]'s
//! conditions, and whether the target has 32-bit atomics (as [`SOFT_FLOAT`] does).
//!
//! Which modules are compiled never depends on the target: a form that only one target uses is
//! compiled everywhere (and tested on the host) and chosen by one of these constants.

// `scripts/check-house-rules.sh` fails the build when a `target_*` cfg (or a finiteness test or
// float mask spelled by hand) appears in `core/src` outside its home.

/// True where every `f32` operation is a library call and the core has no 32×32→64 multiply
/// (ARMv6-M: Cortex-M0/M0+, recognised as an Arm target without 32-bit compare-and-swap). Hot
/// paths then use integer operations that give exactly the same result as the float operation
/// they replace (each pair is tested on the host).
pub(crate) const SOFT_FLOAT: bool = cfg!(all(target_arch = "arm", not(target_has_atomic = "32")));

/// True on Arm targets with hardware single precision (hard-float ABI: Cortex-M4F, M7, M33 …),
/// where a float multiply-accumulate is one instruction and cheaper than the integer form of the
/// same test (the values would first have to move from the float registers to the integer ones).
pub(crate) const HARD_FLOAT_ARM: bool = cfg!(all(target_arch = "arm", target_abi = "eabihf"));

/// True on targets whose `f32` arithmetic is instructions: Arm with the hard-float ABI, RISC-V
/// with the F extension, wasm32, x86, x86_64, aarch64. False elsewhere (Cortex-M0/M0+, M3, M4
/// without FPU, riscv32imac …), where a float add, multiply or compare is a library call.
pub(crate) const HARDWARE_FLOAT: bool = cfg!(any(
    target_abi = "eabihf",
    target_feature = "f",
    target_arch = "wasm32",
    target_arch = "x86",
    target_arch = "x86_64",
    target_arch = "aarch64"
));

/// True where a finiteness test, a `+ 0.0` or an `x + x` is cheaper as float arithmetic than as
/// integer tests on the bits: wherever floats are hardware ([`HARDWARE_FLOAT`]).
///
/// The float forms ([`super::bits::all_finite!`]: `x·0 + y·0 + … == 0`) keep the values in the
/// float registers; the bit forms move each value to an integer register first. Measured
/// (issue 27 §2) against the same code with the bit forms on wasm32 and x86_64: x86_64, the demo
/// scene for 3,000 ticks under callgrind, 27.40 M instructions against 29.30 M (−6.5 %); wasm32,
/// the `hopkit-cart` release build, 1,288,120 bytes against 1,294,749. On the Cortex-M4F/M33 the
/// float forms were already the choice (`scripts/budgets.sh` demo tick unchanged at ≈ 9,670);
/// without an FPU every float operation is a library call, so the bit forms win there.
pub(crate) const FLOAT_SUMS_BEAT_BIT_TESTS: bool = HARDWARE_FLOAT;

/// True where a square root is one instruction (wasm32's `f32.sqrt`, which `libm` uses there):
/// distances are then compared as distances; elsewhere as squares, the root taken only when the
/// squares are too close to tell.
pub(crate) const DISTANCE_BY_ROOT: bool = cfg!(target_arch = "wasm32");

/// True on 64-bit hosts, where code size is no constraint and speed is: extra inline copies,
/// lookup tables and shortcut paths pay off. False on 32-bit targets (flash-bound MCUs and
/// size-limited wasm carts), which keep one copy of each function and no tables.
pub(crate) const SPEED_OVER_SIZE: bool = cfg!(target_pointer_width = "64");

/// True on wasm32, whose WASM-4 cart must fit in 64 KiB: where a faster form of a computation
/// costs code and a stated requirement asks for the speed elsewhere (the Cortex-M0 decoding a
/// 30 s ghost recording within one 60 Hz frame, `ghost::format`), wasm32 keeps the smaller form.
pub(crate) const SIZE_FIRST: bool = cfg!(target_arch = "wasm32");

/// Applies a named inline policy to the one item (a function, free or in an `impl`) that follows
/// it inside the braces, so that mechanic files carry no
/// `cfg_attr(target_…)`. Each policy maps the target classes of this module to an attribute;
/// the same bits either way, only speed and code size change.
///
/// | policy | 64-bit hosts ([`SPEED_OVER_SIZE`]) | 32-bit targets |
/// | --- | --- | --- |
/// | `hot` | `inline(always)` | the compiler's choice |
/// | `hot_hint` | `inline(always)` | `inline` |
/// | `hot_shared` | `inline(always)` | `inline(never)` |
/// | `cold_shared` | `inline` | `inline(never)` |
///
/// `hot…`: a hot function that LLVM would otherwise keep out of line on a host (its size is
/// above the hint's threshold, or a loop calls it from several places), where a call costs a
/// memory round trip of its result; `…_shared`: one out-of-line copy on 32-bit targets, for
/// flash; `cold_shared`: a rarely taken path, a hint on hosts.
///
/// | policy | Arm hard-float ([`HARD_FLOAT_ARM`]) | every other target |
/// | --- | --- | --- |
/// | `fpu_hint` | `inline` | the compiler's choice |
/// | `fpu_shared` | `inline(never)` | `inline` |
///
/// `fpu_hint`: with an FPU, the callers fold work of the inlined copy (a finite result, a
/// second call site); on soft-float targets one copy (no gain there, a deeper stack).
/// `fpu_shared`: one copy in the Cortex-M4F board image for its many callers; elsewhere inline
/// (on the Cortex-M0 a call deepens the stack).
///
/// | policy | targets with 32-bit atomics | without (ARMv6-M: Cortex-M0/M0+, …) |
/// | --- | --- | --- |
/// | `shared_except_m0` | `inline(never)` | `inline` |
///
/// `shared_except_m0`: one out-of-line copy of a helper many callers share (flash), except on
/// ARMv6-M (recognised, as by [`SOFT_FLOAT`], by its missing 32-bit compare-and-swap), where flash
/// is not the limit and the frame budget pays for every call.
macro_rules! inline_policy {
    (hot: $($item:tt)*) => {
        #[cfg_attr(target_pointer_width = "64", inline(always))]
        $($item)*
    };
    (hot_hint: $($item:tt)*) => {
        #[cfg_attr(target_pointer_width = "64", inline(always))]
        #[cfg_attr(not(target_pointer_width = "64"), inline)]
        $($item)*
    };
    (hot_shared: $($item:tt)*) => {
        #[cfg_attr(target_pointer_width = "64", inline(always))]
        #[cfg_attr(not(target_pointer_width = "64"), inline(never))]
        $($item)*
    };
    (cold_shared: $($item:tt)*) => {
        #[cfg_attr(target_pointer_width = "64", inline)]
        #[cfg_attr(not(target_pointer_width = "64"), inline(never))]
        $($item)*
    };
    (fpu_hint: $($item:tt)*) => {
        #[cfg_attr(all(target_arch = "arm", target_abi = "eabihf"), inline)]
        $($item)*
    };
    (fpu_shared: $($item:tt)*) => {
        #[cfg_attr(all(target_arch = "arm", target_abi = "eabihf"), inline(never))]
        #[cfg_attr(not(all(target_arch = "arm", target_abi = "eabihf")), inline)]
        $($item)*
    };
    (shared_except_m0: $($item:tt)*) => {
        #[cfg_attr(target_has_atomic = "32", inline(never))]
        #[cfg_attr(not(target_has_atomic = "32"), inline)]
        $($item)*
    };
}
pub(crate) use inline_policy;
