//! hopkit-sim: the desktop handheld.
fn main() {
    println!("hopkit-sim: under construction");
}
