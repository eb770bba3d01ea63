//! docs/bindings.md shows the C example and the wasm host verbatim; CI builds both files, so the
//! documented code is the code that is built and run.

use std::path::Path;

fn read(rel: &str) -> String {
    let root = Path::new(env!("CARGO_MANIFEST_DIR")).join("../..");
    std::fs::read_to_string(root.join(rel)).unwrap_or_else(|e| panic!("{rel}: {e}"))
}

#[test]
fn docs_show_the_built_examples_verbatim() {
    let doc = read("docs/bindings.md");
    for (file, fence) in [
        ("bindings/c/examples/minimal.c", "```c\n"),
        ("carts/wasm-cart/examples/run_cart.rs", "```rust\n"),
    ] {
        let code = read(file);
        assert!(
            doc.contains(&format!("{fence}{code}```")),
            "docs/bindings.md does not show {file} verbatim"
        );
    }
    assert!(doc.contains("## Use from C") && doc.contains("## Use from wasm"));
}
