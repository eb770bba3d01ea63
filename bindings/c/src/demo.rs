//! The shared demo scene (`hopkit_demo`): the handheld simulation every front end runs and
//! hashes — stick pipeline, player (seed movement, slope tilt), companion, arrival critters and a
//! ghost formation on the demo level, at a fixed 60 Hz.
//!
//! `hk_demo_scripted_raw` + `hk_demo_tick` for N ticks, then `hk_demo_state_hash` and
//! `hk_format_hash_line`, prints the same `state-hash: 0x…` line as `hopkit-sim hash --scene demo
//! --ticks N`, the QEMU firmware and the wasm cart.

use crate::ptr::{self, assert_fits, out, put};
use crate::status::{status, HkStatus};
use crate::stick::HkRawSticks;
use crate::types::{HkVec2, HkVec3};
use hopkit_demo::{self as demo, DemoRig};

/// Fixed simulation rate of the demo, ticks per second.
pub const HK_DEMO_TICK_HZ: u32 = 60;
const _: () = assert!(HK_DEMO_TICK_HZ == demo::TICK_HZ);
/// Full scale of the handheld's ADC (12-bit) used by the scripted input.
pub const HK_DEMO_ADC_MAX: u16 = 4095;
const _: () = assert!(HK_DEMO_ADC_MAX == demo::ADC_MAX);
/// Demo button bit: jump.
pub const HK_DEMO_BUTTON_JUMP: u8 = 1;
/// Demo button bit: fire.
pub const HK_DEMO_BUTTON_FIRE: u8 = 2;
const _: () = assert!(
    HK_DEMO_BUTTON_JUMP == demo::buttons::JUMP && HK_DEMO_BUTTON_FIRE == demo::buttons::FIRE
);
/// Ticks in one loop of the scripted input (30 s).
pub const HK_DEMO_SCRIPT_PERIOD: u32 = 1800;
const _: () = assert!(HK_DEMO_SCRIPT_PERIOD == demo::SCRIPT_PERIOD);

/// Size in bytes of [`HkDemoRig`] storage.
pub const HK_DEMO_RIG_SIZE: usize = 3072;
const DEMO_TAG: u64 = u64::from_le_bytes(*b"hkDemoR1");
const _: () = assert_fits::<DemoRig>(HK_DEMO_RIG_SIZE);

/// Opaque storage for the whole demo simulation (3 KiB; the bundled ghost recording it
/// plays is static data inside the library).
#[repr(C, align(8))]
pub struct HkDemoRig {
    /// Not for use from C.
    pub _opaque: [core::mem::MaybeUninit<u8>; HK_DEMO_RIG_SIZE],
}

/// Initialise the standard demo scene (default stick pipeline, bundled ghost recording).
///
/// # Safety
/// `rig` NULL or writable `HkDemoRig` storage.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_init(rig: *mut HkDemoRig) -> HkStatus {
    status((|| {
        ptr::out(rig)?;
        unsafe { ptr::init(rig, DEMO_TAG, DemoRig::new()) }
    })())
}

/// One fixed 1/60 s tick from raw stick samples (any counts; see `HkRawSticks`).
///
/// # Safety
/// `rig` an `HkDemoRig` or NULL; `raw` readable or NULL.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_tick(rig: *mut HkDemoRig, raw: *const HkRawSticks) -> HkStatus {
    status((|| {
        let r = unsafe { ptr::read(raw)? };
        let g: &mut DemoRig = unsafe { ptr::get_mut(rig, DEMO_TAG)? };
        g.tick(&r.into());
        Ok(())
    })())
}

/// The deterministic scripted raw samples for tick `tick` (a bunny-hop-and-strafe script looping
/// every `HK_DEMO_SCRIPT_PERIOD` ticks, through the 12-bit ADC path).
///
/// # Safety
/// `out_raw` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_scripted_raw(tick: u32, out_raw: *mut HkRawSticks) -> HkStatus {
    status((|| {
        let o = out(out_raw)?;
        unsafe { put(o, demo::scripted_raw(tick).into()) };
        Ok(())
    })())
}

/// Ticks simulated so far.
///
/// # Safety
/// `rig` an `HkDemoRig` or NULL; `out_ticks` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_tick_count(
    rig: *const HkDemoRig,
    out_ticks: *mut u32,
) -> HkStatus {
    status((|| {
        let o = out(out_ticks)?;
        let g: &DemoRig = unsafe { ptr::get(rig, DEMO_TAG)? };
        unsafe { put(o, g.tick_count()) };
        Ok(())
    })())
}

/// The state hash of the whole rig (stick pipeline + scene).
///
/// # Safety
/// `rig` an `HkDemoRig` or NULL; `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_state_hash(rig: *const HkDemoRig, out_hash: *mut u64) -> HkStatus {
    status((|| {
        let o = out(out_hash)?;
        let g: &DemoRig = unsafe { ptr::get(rig, DEMO_TAG)? };
        unsafe { put(o, g.state_hash()) };
        Ok(())
    })())
}

/// Most ticks [`hk_demo_scripted_hash`] runs in one call: 10 minutes of the demo at 60 Hz
/// (≈ 0.2 s of CPU on a desktop, ≈ 0.5 G instructions on a Cortex-M4F). Bounded work per call.
pub const HK_DEMO_MAX_HASH_TICKS: u32 = 36_000;

/// `hopkit_demo::scripted_hash(ticks)`: a fresh rig run for `ticks` scripted ticks, hashed. Uses
/// about 2 KiB of stack (one rig). `ticks` above [`HK_DEMO_MAX_HASH_TICKS`] is
/// `HK_ERR_INVALID_ARG` (nothing is run): the work per call is bounded.
///
/// # Safety
/// `out_hash` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_scripted_hash(ticks: u32, out_hash: *mut u64) -> HkStatus {
    status((|| {
        let o = out(out_hash)?;
        if ticks > HK_DEMO_MAX_HASH_TICKS {
            return Err(crate::status::HK_ERR_INVALID_ARG);
        }
        unsafe { put(o, demo::scripted_hash(ticks)) };
        Ok(())
    })())
}

/// Most critters / ghosts in an [`HkDemoView`].
pub const HK_DEMO_MAX_BODIES: usize = 4;
const _: () = assert!(
    HK_DEMO_MAX_BODIES >= demo::view::MAX_CRITTERS && HK_DEMO_MAX_BODIES >= demo::view::MAX_GHOSTS
);

/// A drawable snapshot of the demo (a subset of the core's `DemoView`).
#[repr(C)]
#[derive(Clone, Copy, Debug, Default, PartialEq)]
pub struct HkDemoView {
    /// Simulation tick.
    pub tick: u32,
    /// Player feet position.
    pub player_position: HkVec3,
    /// Player planar heading `(x, z)`, unit.
    pub player_heading: HkVec2,
    /// Player horizontal speed, units/s.
    pub player_speed: f32,
    /// 1 while the player stands on the ground.
    pub player_grounded: u8,
    /// Player tilt from vertical (slope alignment), degrees.
    pub player_tilt_deg: f32,
    /// Companion position.
    pub companion_position: HkVec3,
    /// Crumbs in the companion's trail.
    pub crumb_count: u32,
    /// Number of valid entries in `critters`.
    pub critter_count: u32,
    /// Critter positions.
    pub critters: [HkVec3; HK_DEMO_MAX_BODIES],
    /// Number of valid entries in `ghosts`.
    pub ghost_count: u32,
    /// Ghost positions (altitude in `y`).
    pub ghosts: [HkVec3; HK_DEMO_MAX_BODIES],
    /// Bit `i` set = ghost `i` fired this tick.
    pub ghost_firing: u8,
}

/// A drawable snapshot of the rig.
///
/// # Safety
/// `rig` an `HkDemoRig` or NULL; `out_view` NULL or writable.
#[no_mangle]
pub unsafe extern "C" fn hk_demo_view(
    rig: *const HkDemoRig,
    out_view: *mut HkDemoView,
) -> HkStatus {
    status((|| {
        let o = out(out_view)?;
        let g: &DemoRig = unsafe { ptr::get(rig, DEMO_TAG)? };
        let v = g.view();
        let mut h = HkDemoView {
            tick: v.tick,
            player_position: v.player.position.into(),
            player_heading: v.player.heading.into(),
            player_speed: v.player.speed,
            player_grounded: v.player_grounded as u8,
            player_tilt_deg: v.player_tilt_deg,
            companion_position: v.companion.position.into(),
            crumb_count: v.crumbs.len() as u32,
            ..HkDemoView::default()
        };
        for (d, c) in h.critters.iter_mut().zip(v.critters.iter()) {
            *d = c.body.position.into();
            h.critter_count += 1;
        }
        for (i, (d, gh)) in h.ghosts.iter_mut().zip(v.ghosts.iter()).enumerate() {
            *d = gh.body.position.into();
            h.ghost_count += 1;
            if gh.firing {
                h.ghost_firing |= 1 << i;
            }
        }
        unsafe { put(o, h) };
        Ok(())
    })())
}
