//! Memory limits of the wasm32 cart: one 64 KiB page of linear memory in total (data, statics and
//! a 16 KiB stack), so a build that does not fit fails to link. Host builds need nothing.

fn main() {
    println!("cargo:rerun-if-changed=build.rs");
    if std::env::var("CARGO_CFG_TARGET_ARCH").as_deref() == Ok("wasm32") {
        for arg in [
            "--initial-memory=65536",
            "--max-memory=65536",
            "-zstack-size=16384",
            "--no-entry",
        ] {
            println!("cargo:rustc-link-arg-cdylib={arg}");
        }
    }
}
