//! Prints the Rust-side reference line for the C example and the wasm cart:
//! `state-hash: 0x…` of `hopkit_demo::scripted_hash(ticks)`.
//!
//!     cargo run -p hopkit-ffi --example demo_hash -- 600

fn main() {
    let ticks = match std::env::args().nth(1).map(|a| a.parse::<u32>()) {
        None => 600,
        Some(Ok(t)) => t,
        Some(Err(e)) => {
            eprintln!("usage: demo_hash [ticks] ({e})");
            std::process::exit(2);
        }
    };
    let mut buf = [0u8; hopkit::hash::HASH_LINE_LEN];
    println!(
        "{}",
        hopkit::hash::format_hash_line(hopkit_demo::scripted_hash(ticks), &mut buf)
    );
}
