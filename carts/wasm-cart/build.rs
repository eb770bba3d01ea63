//! Memory limits of the wasm32 cart: one 64 KiB page of linear memory in total (data, statics and
//! a 20 KiB stack), so a build that does not fit fails to link. Host builds need nothing.
//!
//! Only for the standalone cart (feature `exports`, on by default): cargo hands a package's
//! `cargo:rustc-link-arg-cdylib` flags to every cdylib that depends on it as well
//! (rust-lang/cargo#9562), after the dependent's own. The WASM-4 cart embeds this crate with
//! `default-features = false`; were these flags emitted there too, its `-zstack-size=22944` would
//! be overridden by this `20480` and its stack would end inside the console's framebuffer
//! (scripts/wasm4-cart.sh checks the linked layout).

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    let wasm = std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32");
    let standalone = std::env::var_os("CARGO_FEATURE_EXPORTS").is_some();
    if wasm && standalone {
        for arg in [
            "--initial-memory=65536",
            "--max-memory=65536",
            "-zstack-size=20480",
            "--no-entry",
        ] {
            println!("cargo:rustc-link-arg-cdylib={arg}");
        }
    }
}
