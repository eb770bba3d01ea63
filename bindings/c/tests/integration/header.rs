//! The committed C header `include/hopkit.h` must equal the one build.rs generates from the
//! sources. Run with `HOPKIT_BLESS=1` to rewrite the committed header after an API change.

use std::path::Path;

const GENERATED: &str = include_str!(concat!(env!("OUT_DIR"), "/hopkit.h"));

#[test]
fn committed_header_is_fresh() {
    assert!(
        !GENERATED.starts_with("#error"),
        "cbindgen failed in build.rs: {GENERATED}"
    );
    let committed_path = Path::new(env!("CARGO_MANIFEST_DIR")).join("include/hopkit.h");
    let committed = std::fs::read_to_string(&committed_path).unwrap_or_default();
    if committed == GENERATED {
        return;
    }
    if std::env::var_os("HOPKIT_BLESS").is_some() {
        std::fs::write(&committed_path, GENERATED).expect("write include/hopkit.h");
        eprintln!("rewrote {}", committed_path.display());
        return;
    }
    let first_diff = committed
        .lines()
        .zip(GENERATED.lines())
        .position(|(a, b)| a != b)
        .unwrap_or(committed.lines().count().min(GENERATED.lines().count()));
    panic!(
        "bindings/c/include/hopkit.h is stale (first difference at line {}).\n\
         Regenerate it with: HOPKIT_BLESS=1 cargo test -p hopkit-ffi --test integration header::",
        first_diff + 1
    );
}

#[test]
fn header_declares_every_entry_point_family() {
    for name in [
        "HK_OK = 0",
        "hk_status_str",
        "hk_format_hash_line",
        "hk_stick_pipeline_process",
        "hk_wasm4_to_raw",
        "hk_crank_to_stick",
        "hk_recording_open",
        "hk_ghost_step",
        "hk_demo_recording",
        "HK_STICK_PIPELINE_SIZE",
        "hk_world_trace",
        "hk_mover_step_world",
        "HkGroundTraceFn trace",
        "HK_WORLD_SIZE",
    ] {
        assert!(GENERATED.contains(name), "{name} missing from the header");
    }
}
