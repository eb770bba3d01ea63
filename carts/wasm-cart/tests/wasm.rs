//! Runs the built `hopkit_cart.wasm` in a pure-Rust interpreter (wasmi) and checks it against the
//! same code compiled for this host: the state hash after the scripted demo equals
//! `hopkit_demo::scripted_hash` (bit-exact wasm32 vs x86_64), the framebuffer bytes are identical,
//! the gamepad path agrees, and the module needs no imports and one 64 KiB page of memory.
//!
//! The `.wasm` is built by `scripts/ci-bindings.sh` (see docs/bindings.md), so in a plain
//! `cargo test` every test here is reported as *ignored* with that reason; the script runs them
//! with `--include-ignored`, where a missing `.wasm` fails. Set
//! `HOPKIT_CART_WASM=/path/to/hopkit_cart.wasm` to choose the file, `HOPKIT_CART_TICKS` (default
//! 600) for the length of the scripted run.

use hopkit_cart::Cart;
use hopkit_demo::framebuffer::FRAME_BYTES;
use std::path::PathBuf;
use wasmi::{Engine, Instance, Linker, Memory, Module, Store, TypedFunc};

const W4_BUTTON_1: u8 = 1;
const W4_BUTTON_2: u8 = 2;
const W4_LEFT: u8 = 16;
const W4_RIGHT: u8 = 32;
const W4_UP: u8 = 64;
const W4_DOWN: u8 = 128;

fn wasm_path() -> Option<PathBuf> {
    if let Some(p) = std::env::var_os("HOPKIT_CART_WASM") {
        return Some(PathBuf::from(p));
    }
    // <target>/debug/deps/wasm-xxxx → <target>
    let exe = std::env::current_exe().ok()?;
    let target = exe.parent()?.parent()?.parent()?.to_path_buf();
    [
        "cross/wasm32-unknown-unknown/release/hopkit_cart.wasm",
        "wasm32-unknown-unknown/release/hopkit_cart.wasm",
    ]
    .iter()
    .map(|p| target.join(p))
    .find(|p| p.exists())
}

/// Why every test here is `#[ignore]`d in a plain `cargo test`: they need the cart built for
/// wasm32 first. `scripts/ci-bindings.sh` builds it and runs them with `--include-ignored`.
const NEEDS_CART: &str = "needs hopkit_cart.wasm built for wasm32: scripts/ci-bindings.sh builds \
                          it and runs these with --include-ignored";

/// The built cart; panics with the way to build it when it is missing (these tests only run when
/// asked for with `--include-ignored`, so a missing cart is an error, never a silent pass).
fn load() -> Vec<u8> {
    match wasm_path().and_then(|p| std::fs::read(&p).ok().map(|b| (p, b))) {
        Some((p, bytes)) => {
            eprintln!("cart: {} ({} bytes)", p.display(), bytes.len());
            bytes
        }
        None => panic!(
            "no hopkit_cart.wasm found (HOPKIT_CART_WASM={:?}): {NEEDS_CART}",
            std::env::var_os("HOPKIT_CART_WASM")
        ),
    }
}

struct Wasm {
    store: Store<()>,
    memory: Memory,
    init: TypedFunc<(), ()>,
    update: TypedFunc<u32, ()>,
    scripted: TypedFunc<(), ()>,
    raw: TypedFunc<(u32, u32, u32, u32, u32, u32), ()>,
    fb_ptr: TypedFunc<(), u32>,
    fb_len: TypedFunc<(), u32>,
    lo: TypedFunc<(), u32>,
    hi: TypedFunc<(), u32>,
    ticks: TypedFunc<(), u32>,
    instance: Instance,
}

impl Wasm {
    fn new(bytes: &[u8]) -> Wasm {
        let engine = Engine::default();
        let module = Module::new(&engine, bytes).expect("valid wasm");
        assert_eq!(
            module.imports().count(),
            0,
            "the cart must not need host functions"
        );
        let mut store = Store::new(&engine, ());
        // An empty linker: instantiation fails if the module imports anything.
        let instance = Linker::<()>::new(&engine)
            .instantiate_and_start(&mut store, &module)
            .expect("instantiate");
        let memory = instance
            .get_memory(&store, "memory")
            .expect("memory export");
        macro_rules! f {
            ($name:literal) => {
                instance
                    .get_typed_func(&store, $name)
                    .unwrap_or_else(|e| panic!("export {}: {e}", $name))
            };
        }
        Wasm {
            memory,
            init: f!("cart_init"),
            update: f!("cart_update"),
            scripted: f!("cart_update_scripted"),
            raw: f!("cart_update_raw"),
            fb_ptr: f!("cart_framebuffer_ptr"),
            fb_len: f!("cart_framebuffer_len"),
            lo: f!("cart_state_hash_lo"),
            hi: f!("cart_state_hash_hi"),
            ticks: f!("cart_tick_count"),
            instance,
            store,
        }
    }

    fn hash(&mut self) -> u64 {
        let lo = self.lo.call(&mut self.store, ()).expect("hash lo");
        let hi = self.hi.call(&mut self.store, ()).expect("hash hi");
        (hi as u64) << 32 | lo as u64
    }

    fn framebuffer(&mut self) -> Vec<u8> {
        let ptr = self.fb_ptr.call(&mut self.store, ()).expect("fb ptr") as usize;
        let len = self.fb_len.call(&mut self.store, ()).expect("fb len") as usize;
        let mut out = vec![0; len];
        self.memory
            .read(&self.store, ptr, &mut out)
            .expect("framebuffer inside memory");
        out
    }
}

fn ticks() -> u32 {
    std::env::var("HOPKIT_CART_TICKS")
        .ok()
        .and_then(|t| t.parse().ok())
        .unwrap_or(600)
}

#[test]
#[ignore = "needs hopkit_cart.wasm built for wasm32 (scripts/ci-bindings.sh runs these)"]
fn fits_one_page_and_exports_everything() {
    let bytes = load();
    let mut w = Wasm::new(&bytes);
    let ty = w.memory.ty(&w.store);
    assert_eq!(ty.minimum(), 1, "initial memory: one 64 KiB page");
    assert_eq!(ty.maximum(), Some(1), "maximum memory: one 64 KiB page");
    assert_eq!(w.memory.data(&w.store).len(), 65536);
    assert_eq!(
        w.fb_len.call(&mut w.store, ()).unwrap() as usize,
        FRAME_BYTES
    );
    for name in ["cart_width", "cart_height"] {
        let f: TypedFunc<(), u32> = w.instance.get_typed_func(&w.store, name).unwrap();
        let v = f.call(&mut w.store, ()).unwrap();
        assert_eq!(v, if name == "cart_width" { 128 } else { 64 });
    }
    w.init.call(&mut w.store, ()).unwrap();
    assert_eq!(w.ticks.call(&mut w.store, ()).unwrap(), 0);
    assert_eq!(w.hash(), hopkit_demo::scripted_hash(0));
}

/// Stack size the cart links with (`build.rs`); the stack sits first in memory and grows down.
const STACK: usize = 20480;
const PAINT: u8 = 0xa5;

#[test]
#[ignore = "needs hopkit_cart.wasm built for wasm32 (scripts/ci-bindings.sh runs these)"]
fn scripted_demo_is_bit_exact_on_wasm32() {
    let bytes = load();
    let mut w = Wasm::new(&bytes);
    // Paint the stack region to measure its high-water mark afterwards.
    w.memory
        .write(&mut w.store, 0, &[PAINT; STACK])
        .expect("paint the stack");
    w.init.call(&mut w.store, ()).unwrap();
    let n = ticks();
    let mut native = Cart::new();
    assert_eq!(w.framebuffer(), native.fb.rows().to_vec(), "first frame");
    for t in 1..=n {
        w.scripted.call(&mut w.store, ()).unwrap();
        native.update_scripted();
        if t % 100 == 0 || t == n {
            assert_eq!(w.hash(), native.state_hash(), "state hash at tick {t}");
            assert_eq!(
                w.framebuffer(),
                native.fb.rows().to_vec(),
                "framebuffer at tick {t}"
            );
        }
    }
    assert_eq!(w.ticks.call(&mut w.store, ()).unwrap(), n);
    let h = w.hash();
    assert_eq!(
        h,
        hopkit_demo::scripted_hash(n),
        "wasm32 vs x86_64 scripted_hash({n})"
    );
    let mut line = [0u8; hopkit::hash::HASH_LINE_LEN];
    println!("wasm32 {}", hopkit::hash::format_hash_line(h, &mut line));
    assert!(native.fb.lit() > 50, "something was drawn");
    let mem = w.memory.data(&w.store);
    let untouched = mem.iter().take(STACK).take_while(|&&b| b == PAINT).count();
    let used = STACK - untouched;
    let data_end: i32 = match w.instance.get_global(&w.store, "__heap_base") {
        Some(g) => g.get(&w.store).i32().unwrap_or(0),
        None => 0,
    };
    println!(
        "linear memory: stack high-water {used} of {STACK} bytes; stack + statics end at \
         {data_end} of 65536 bytes"
    );
    assert!(
        used < STACK * 3 / 4,
        "stack use {used} leaves less than 25 % headroom"
    );
}

#[test]
#[ignore = "needs hopkit_cart.wasm built for wasm32 (scripts/ci-bindings.sh runs these)"]
fn collision_hash_is_bit_exact_on_wasm32() {
    // The body among solids (issue 34 §4): every collision scenario's every tick, on wasm32.
    let bytes = load();
    let mut w = Wasm::new(&bytes);
    let f: TypedFunc<(), u64> = w
        .instance
        .get_typed_func(&w.store, "cart_collision_hash")
        .unwrap();
    let got = f.call(&mut w.store, ()).unwrap();
    println!("collision-hash: {got:#018x}");
    assert_eq!(got, hopkit_demo::collision::collision_hash());
}

#[test]
#[ignore = "needs hopkit_cart.wasm built for wasm32 (scripts/ci-bindings.sh runs these)"]
fn raw_samples_from_the_host_give_the_same_hash() {
    let bytes = load();
    let mut w = Wasm::new(&bytes);
    w.init.call(&mut w.store, ()).unwrap();
    let n = 300;
    for t in 0..n {
        let r = hopkit_demo::scripted_raw(t);
        let args = (
            r.left_x as u32,
            r.left_y as u32,
            r.right_x as u32,
            r.right_y as u32,
            r.adc_max as u32,
            r.buttons as u32,
        );
        w.raw.call(&mut w.store, args).unwrap();
    }
    assert_eq!(w.hash(), hopkit_demo::scripted_hash(n));
}

/// A d-pad player: run forward, strafe-hop right with jump held, then left, fire, walk back.
fn gamepad_script(t: u32) -> u8 {
    match t {
        0..60 => W4_UP,
        60..360 => W4_RIGHT | W4_BUTTON_1,
        360..600 => W4_LEFT | W4_UP | W4_BUTTON_1,
        600..660 => W4_BUTTON_2,
        _ => W4_DOWN | if t % 40 < 5 { W4_BUTTON_2 } else { 0 },
    }
}

#[test]
#[ignore = "needs hopkit_cart.wasm built for wasm32 (scripts/ci-bindings.sh runs these)"]
fn gamepad_input_is_bit_exact_and_bunny_hops() {
    let bytes = load();
    let mut w = Wasm::new(&bytes);
    w.init.call(&mut w.store, ()).unwrap();
    let mut native = Cart::new();
    let mut top = 0.0f32;
    for t in 0..720 {
        let g = gamepad_script(t);
        // Bits above the low byte are ignored.
        w.update.call(&mut w.store, g as u32 | 0xab00).unwrap();
        native.update(g);
        top = top.max(native.rig.view().player.speed);
        if t % 120 == 119 {
            assert_eq!(w.hash(), native.state_hash(), "tick {t}");
        }
    }
    assert_eq!(w.framebuffer(), native.fb.rows().to_vec());
    let max = native.rig.scene.params().movement.max_speed;
    assert!(
        top > 1.1 * max,
        "d-pad strafe-hop gains speed: {top} vs {max}"
    );
}
