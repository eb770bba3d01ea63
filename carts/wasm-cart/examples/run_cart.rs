//! A minimal wasm host for the cart: load `hopkit_cart.wasm` into wasmi, hold a gamepad byte for
//! a few seconds, print the state hash and the framebuffer as text.
//!
//!     cargo run -p hopkit-cart --example run_cart -- path/to/hopkit_cart.wasm [ticks]
use wasmi::{Engine, Linker, Module, Store, TypedFunc};

fn main() -> Result<(), Box<dyn std::error::Error>> {
    let mut args = std::env::args().skip(1);
    let path = args.next().ok_or("usage: run_cart CART.wasm [ticks]")?;
    let ticks: u32 = args.next().map(|t| t.parse()).transpose()?.unwrap_or(300);

    let engine = Engine::default();
    let module = Module::new(&engine, std::fs::read(path)?)?;
    let mut store = Store::new(&engine, ());
    // The cart imports nothing: an empty linker is enough.
    let cart = Linker::<()>::new(&engine).instantiate_and_start(&mut store, &module)?;
    let init: TypedFunc<(), ()> = cart.get_typed_func(&store, "cart_init")?;
    let update: TypedFunc<u32, ()> = cart.get_typed_func(&store, "cart_update")?;
    let fb_ptr: TypedFunc<(), u32> = cart.get_typed_func(&store, "cart_framebuffer_ptr")?;
    let hash_lo: TypedFunc<(), u32> = cart.get_typed_func(&store, "cart_state_hash_lo")?;
    let hash_hi: TypedFunc<(), u32> = cart.get_typed_func(&store, "cart_state_hash_hi")?;
    let memory = cart
        .get_memory(&store, "memory")
        .ok_or("no memory export")?;

    init.call(&mut store, ())?;
    const BUTTON_1: u32 = 1; // jump
    const RIGHT: u32 = 32; // strafe right and turn right
    for _ in 0..ticks {
        update.call(&mut store, RIGHT | BUTTON_1)?; // one 1/60 s tick: strafe-hop in circles
    }
    let hash = (hash_hi.call(&mut store, ())? as u64) << 32 | hash_lo.call(&mut store, ())? as u64;
    println!("after {ticks} ticks: state-hash: 0x{hash:016x}");

    // 128×64 pixels, 1 bit each, rows of 16 bytes, most significant bit = leftmost pixel.
    let mut fb = [0u8; 1024];
    let ptr = fb_ptr.call(&mut store, ())? as usize;
    memory.read(&store, ptr, &mut fb)?;
    for row in fb.chunks(16).step_by(2) {
        let line: String = (0..128)
            .step_by(2)
            .map(|x| {
                if row[x / 8] & (0x80 >> (x % 8)) != 0 {
                    '#'
                } else {
                    '.'
                }
            })
            .collect();
        println!("{line}");
    }
    Ok(())
}
