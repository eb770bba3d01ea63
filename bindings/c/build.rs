//! Generates the C header from this crate's `extern "C"` items with cbindgen into
//! `$OUT_DIR/hopkit.h`. The committed copy is `include/hopkit.h`; `tests/integration/header.rs`
//! fails when the two differ (and rewrites the committed one with `HOPKIT_BLESS=1`). Generation problems are
//! reported as warnings so that a cross build never fails here; the test then fails instead.

use std::path::PathBuf;

fn main() {
    let crate_dir = PathBuf::from(std::env::var("CARGO_MANIFEST_DIR").unwrap_or_default());
    let out_dir = PathBuf::from(std::env::var("OUT_DIR").unwrap_or_default());
    println!("cargo:rerun-if-changed=src");
    println!("cargo:rerun-if-changed=cbindgen.toml");
    println!("cargo:rerun-if-changed=build.rs");
    let header = out_dir.join("hopkit.h");
    let generate = || {
        cbindgen::Config::from_file(crate_dir.join("cbindgen.toml"))
            .map_err(|e| e.to_string())
            .and_then(|config| {
                cbindgen::Builder::new()
                    .with_config(config)
                    .with_src(crate_dir.join("src/lib.rs"))
                    .generate()
                    .map_err(|e| e.to_string())
            })
    };
    // cbindgen panics on some inputs it cannot handle; report that like an error.
    let result = std::panic::catch_unwind(generate)
        .unwrap_or_else(|_| Err("cbindgen panicked (see the build script output)".into()));
    match result {
        Ok(bindings) => {
            let mut out = Vec::new();
            bindings.write(&mut out);
            let text = strip_doc_links(&String::from_utf8_lossy(&out));
            if let Err(e) = std::fs::write(&header, text) {
                println!("cargo:warning=cannot write {}: {e}", header.display());
            }
        }
        Err(e) => {
            println!("cargo:warning=cbindgen failed: {e}");
            let _ = std::fs::write(&header, format!("#error \"cbindgen failed: {e}\"\n"));
        }
    }
}

/// Rustdoc links in doc comments (`` [`name`] ``) read as plain code in C: `` `name` ``.
fn strip_doc_links(text: &str) -> String {
    let mut out = String::with_capacity(text.len());
    let mut rest = text;
    while let Some(i) = rest.find("[`") {
        let after = &rest[i + 2..];
        match after.find("`]") {
            Some(j) if !after[..j].contains('\n') => {
                out.push_str(&rest[..i]);
                out.push('`');
                out.push_str(&after[..j]);
                out.push('`');
                rest = &after[j + 2..];
            }
            _ => {
                out.push_str(&rest[..i + 2]);
                rest = after;
            }
        }
    }
    out.push_str(rest);
    out
}
