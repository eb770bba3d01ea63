//! docs/bindings.md shows the C examples and the wasm host verbatim; CI builds those files, so
//! the documented code is the code that is built and run.

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

/// The collision section's C excerpt is a piece of `collide.c`, which CI builds and runs.
#[test]
fn docs_show_collide_c_verbatim() {
    let doc = read("docs/bindings.md");
    let code = read("bindings/c/examples/collide.c");
    let intro = "From `bindings/c/examples/collide.c`";
    let after = &doc[doc.find(intro).expect("the collide.c excerpt")..];
    let start = after.find("```c\n").expect("a C block") + 5;
    let len = after[start..].find("```").expect("its end");
    let excerpt = &after[start..start + len];
    assert!(
        excerpt.len() > 200 && code.contains(excerpt),
        "not in collide.c:\n{excerpt}"
    );
}
