//! The core through its C entry points, driven from Rust as a frontend would (no RetroArch
//! needed): input mapping end to end, pictures and sound every frame, savestates, refused
//! content and states, and no allocation per frame (a counting allocator).

use super::*;
use crate::input::count_axis;
use crate::savestate::STATE_SIZE;
use core::sync::atomic::{AtomicU32, AtomicUsize, Ordering::Relaxed};
use std::alloc::{GlobalAlloc, Layout, System};
use std::cell::Cell;

/// Counts the allocations made on each thread.
struct Counting;

thread_local! {
    static ALLOCS: Cell<u64> = const { Cell::new(0) };
}

// SAFETY: forwards to the system allocator.
unsafe impl GlobalAlloc for Counting {
    unsafe fn alloc(&self, layout: Layout) -> *mut u8 {
        let _ = ALLOCS.try_with(|c| c.set(c.get() + 1));
        // SAFETY: as the caller's.
        unsafe { System.alloc(layout) }
    }
    unsafe fn dealloc(&self, ptr: *mut u8, layout: Layout) {
        // SAFETY: as the caller's.
        unsafe { System.dealloc(ptr, layout) }
    }
}

#[global_allocator]
static ALLOCATOR: Counting = Counting;

fn allocs() -> u64 {
    ALLOCS.with(|c| c.get())
}

/// The frontend side: the input of the current frame, what the core sent.
static TICK: AtomicU32 = AtomicU32::new(0);
static FRAMES: AtomicUsize = AtomicUsize::new(0);
static AUDIO: AtomicUsize = AtomicUsize::new(0);
static LIT: AtomicUsize = AtomicUsize::new(0);
static FORMAT: AtomicU32 = AtomicU32::new(99);

unsafe extern "C" fn env(cmd: c_uint, data: *mut c_void) -> bool {
    match cmd {
        sys::ENV_SET_PIXEL_FORMAT => {
            // SAFETY: the core passes an `enum retro_pixel_format`.
            FORMAT.store(unsafe { *data.cast::<i32>() } as u32, Relaxed);
            true
        }
        sys::ENV_SET_SUPPORT_NO_GAME | sys::ENV_SET_INPUT_DESCRIPTORS => true,
        _ => false,
    }
}

unsafe extern "C" fn video(data: *const c_void, w: c_uint, h: c_uint, pitch: usize) {
    assert_eq!((w, h, pitch), (128, 64, 256));
    // SAFETY: the core sends w × h u16 pixels.
    let px = unsafe { core::slice::from_raw_parts(data.cast::<u16>(), 128 * 64) };
    LIT.store(px.iter().filter(|&&p| p == 0xffff).count(), Relaxed);
    FRAMES.fetch_add(1, Relaxed);
}

unsafe extern "C" fn audio(data: *const i16, frames: usize) -> usize {
    // SAFETY: the core sends `frames` stereo frames.
    let s = unsafe { core::slice::from_raw_parts(data, 2 * frames) };
    assert!(s.iter().all(|&v| v == 0));
    AUDIO.fetch_add(frames, Relaxed);
    frames
}

unsafe extern "C" fn poll() {}

/// The scripted demo's ADC samples for the current tick, sent as libretro analog values and
/// buttons (the inverse of the core's mapping): the core must then run the scripted demo.
unsafe extern "C" fn state(port: c_uint, device: c_uint, index: c_uint, id: c_uint) -> i16 {
    assert_eq!(port, 0);
    let raw = hopkit_demo::scripted_raw(TICK.load(Relaxed));
    match (device, index, id) {
        (sys::DEVICE_ANALOG, sys::INDEX_ANALOG_LEFT, sys::ID_ANALOG_X) => count_axis(raw.left_x),
        (sys::DEVICE_ANALOG, sys::INDEX_ANALOG_LEFT, sys::ID_ANALOG_Y) => {
            count_axis(hopkit_demo::ADC_MAX - raw.left_y)
        }
        (sys::DEVICE_ANALOG, sys::INDEX_ANALOG_RIGHT, sys::ID_ANALOG_X) => count_axis(raw.right_x),
        (sys::DEVICE_ANALOG, sys::INDEX_ANALOG_RIGHT, sys::ID_ANALOG_Y) => {
            count_axis(hopkit_demo::ADC_MAX - raw.right_y)
        }
        (sys::DEVICE_JOYPAD, 0, sys::JOYPAD_B) => {
            (raw.buttons & hopkit_demo::buttons::JUMP != 0) as i16
        }
        (sys::DEVICE_JOYPAD, 0, sys::JOYPAD_A) => {
            (raw.buttons & hopkit_demo::buttons::FIRE != 0) as i16
        }
        _ => 0,
    }
}

fn run_frame() {
    retro_run();
    TICK.fetch_add(1, Relaxed);
}

fn game_hash() -> u64 {
    frontend()
        .game
        .as_ref()
        .map(|g| g.rig().state_hash())
        .unwrap_or(0)
}

/// One test for the whole C surface: the libretro API is one global game per process.
#[test]
fn the_core_through_its_c_entry_points() {
    assert_eq!(retro_api_version(), 1);
    // SAFETY: Rust callbacks with the C signatures.
    unsafe {
        retro_set_environment(Some(env));
        retro_set_video_refresh(Some(video));
        retro_set_audio_sample_batch(Some(audio));
        retro_set_input_poll(Some(poll));
        retro_set_input_state(Some(state));
    }
    retro_init();
    let mut av = core::mem::MaybeUninit::<sys::SystemAvInfo>::uninit();
    // SAFETY: writable storage.
    let av = unsafe {
        retro_get_system_av_info(av.as_mut_ptr());
        av.assume_init()
    };
    assert_eq!((av.geometry.base_width, av.geometry.base_height), (128, 64));
    assert_eq!((av.timing.fps, av.timing.sample_rate), (60.0, 48_000.0));
    assert_eq!(av.geometry.aspect_ratio, 2.0);

    // No content: the demo with its bundled ghost. Running is the scripted demo exactly.
    // SAFETY: NULL game.
    assert!(unsafe { retro_load_game(core::ptr::null()) });
    assert_eq!(FORMAT.load(Relaxed), sys::PIXEL_FORMAT_RGB565 as u32);
    for _ in 0..10 {
        run_frame();
    }
    let before = allocs();
    let mut state = vec![0u8; retro_serialize_size()];
    let mut saved_at_300 = vec![0u8; STATE_SIZE];
    let after_vecs = allocs();
    for t in 10..1200u32 {
        run_frame();
        if t == 299 {
            // SAFETY: STATE_SIZE writable bytes.
            assert!(unsafe { retro_serialize(saved_at_300.as_mut_ptr().cast(), STATE_SIZE) });
        }
        if t % 97 == 0 {
            // Serialize + unserialize every so often (as run-ahead does every frame).
            // SAFETY: STATE_SIZE bytes.
            unsafe {
                assert!(retro_serialize(state.as_mut_ptr().cast(), state.len()));
                assert!(retro_unserialize(state.as_ptr().cast(), state.len()));
            }
        }
    }
    assert_eq!(allocs(), after_vecs, "allocations while running frames");
    assert_eq!(after_vecs - before, 2);
    assert_eq!(game_hash(), hopkit_demo::scripted_hash(1200));
    assert_eq!(FRAMES.load(Relaxed), 1200);
    assert_eq!(AUDIO.load(Relaxed), 1200 * AUDIO_FRAMES);
    assert!(LIT.load(Relaxed) > 50, "the picture shows something");
    // SAFETY: STATE_SIZE bytes.
    let mut at_1200 = vec![0u8; STATE_SIZE];
    assert!(unsafe { retro_serialize(at_1200.as_mut_ptr().cast(), STATE_SIZE) });

    // Back to tick 300, run the same input again: the same state, byte for byte.
    // SAFETY: STATE_SIZE bytes.
    assert!(unsafe { retro_unserialize(saved_at_300.as_ptr().cast(), STATE_SIZE) });
    TICK.store(300, Relaxed);
    for _ in 300..1200 {
        run_frame();
    }
    let mut again = vec![0u8; STATE_SIZE];
    // SAFETY: STATE_SIZE bytes.
    assert!(unsafe { retro_serialize(again.as_mut_ptr().cast(), STATE_SIZE) });
    assert!(again == at_1200);
    assert_eq!(game_hash(), hopkit_demo::scripted_hash(1200));

    // Refused: too small a buffer, a corrupt state, a short one; nothing changes.
    let mut small = [0u8; 16];
    // SAFETY: the sizes given are the buffers'.
    unsafe {
        assert!(!retro_serialize(small.as_mut_ptr().cast(), small.len()));
        let mut bad = at_1200.clone();
        bad[STATE_SIZE / 2] ^= 0x10;
        assert!(!retro_unserialize(bad.as_ptr().cast(), STATE_SIZE));
        assert!(!retro_unserialize(bad.as_ptr().cast(), 100));
        assert!(!retro_unserialize(core::ptr::null(), STATE_SIZE));
    }
    assert_eq!(game_hash(), hopkit_demo::scripted_hash(1200));

    let stats = frontend().game.as_ref().map(|g| g.stats()).unwrap();
    assert_eq!(stats.frames, 10 + 1190 + 900);
    assert_eq!((stats.restored, stats.refused), (13, 2));
    // Reset: tick 0.
    retro_reset();
    assert_eq!(game_hash(), hopkit_demo::DemoRig::new().state_hash());
    retro_unload_game();
    assert!(frontend().game.is_none());
    // Running without a game does nothing.
    retro_run();

    // Content: the bundled ghost's version 2 file flies the same frames as the built-in one.
    let v2 = hopkit_demo::pilot::DEMO_RECORDING_V2;
    let info = sys::GameInfo {
        path: core::ptr::null(),
        data: v2.as_ptr().cast(),
        size: v2.len(),
        meta: core::ptr::null(),
    };
    // SAFETY: `info` points to the recording's bytes.
    assert!(unsafe { retro_load_game(&info) });
    TICK.store(0, Relaxed);
    for _ in 0..600 {
        run_frame();
    }
    assert_eq!(game_hash(), hopkit_demo::scripted_hash(600));
    // A state saved with the bundled recording is refused while the content plays.
    // SAFETY: STATE_SIZE bytes.
    assert!(!unsafe { retro_unserialize(saved_at_300.as_ptr().cast(), STATE_SIZE) });
    retro_unload_game();

    // Content that is not a recording is refused (logged); the core stays usable.
    let junk = [7u8; 64];
    let info = sys::GameInfo {
        data: junk.as_ptr().cast(),
        size: junk.len(),
        ..info
    };
    // SAFETY: `info` points to `junk`.
    assert!(!unsafe { retro_load_game(&info) });
    assert!(frontend().game.is_none());
    retro_deinit();
}
