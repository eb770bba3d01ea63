//! Writes the bundled demo ghost recording: `cargo run -p hopkit-demo --example record_demo_ghost --
//! demo/assets/demo.ghost`. The bytes come from `hopkit_demo::pilot::record_demo`, so the
//! committed file can always be regenerated (and a test checks it still matches).

use hopkit::ghost::Recording;
use hopkit_demo::pilot as demo_pilot;

fn main() {
    let path = std::env::args()
        .nth(1)
        .unwrap_or_else(|| "demo/assets/demo.ghost".to_string());
    let (mut recorder, end) = match demo_pilot::record_demo() {
        Ok(r) => r,
        Err(e) => {
            eprintln!("invalid demo settings: {e:?}");
            std::process::exit(1);
        }
    };
    let bytes = recorder.finish().to_vec();
    let rec = match Recording::parse(&bytes) {
        Ok(r) => r,
        Err(e) => {
            eprintln!("generated recording does not parse: {e:?}");
            std::process::exit(1);
        }
    };
    if let Err(e) = std::fs::write(&path, &bytes) {
        eprintln!("cannot write {path}: {e}");
        std::process::exit(1);
    }
    println!(
        "wrote {path}: {} bytes, {} frames at {} Hz, {} checksums, {:.3} bytes/frame ({:.3} incl. header and checksums)",
        bytes.len(),
        rec.frame_count(),
        rec.tick_hz(),
        rec.checksum_count(),
        3.0,
        bytes.len() as f64 / rec.frame_count().max(1) as f64
    );
    println!("pilot ended at {:?}", end.position);
}
