//! WASM-4's memory model (the official Rust template's linker flags): the cart imports the
//! console's single 64 KiB page (`env.memory`); bytes 0..0x19a0 are the console's registers and
//! framebuffer, so the Rust stack is placed above them (`--stack-first`, 16 KiB of stack ending at
//! 6560 + 16384 = 22944) and statics after it. WASM-4's functions (`blit`, `traceUtf8`, …) are
//! imports from `env`. Host builds need nothing.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        for arg in [
            "--import-memory",
            "--initial-memory=65536",
            "--max-memory=65536",
            "--stack-first",
            "-zstack-size=22944",
            "--no-entry",
            // WASM-4's functions are imported from `env` (the Debian-rustc fallback route needs
            // this spelled out; rustup's wasm32 target already allows it).
            "--allow-undefined",
        ] {
            println!("cargo:rustc-link-arg-cdylib={arg}");
        }
    }
}
