//! hopkit-sim: the desktop handheld.
use hopkit_sim::{canvas::Canvas, desktop};
fn main() {
    let v = desktop::sample_view();
    let mut o = desktop::Overlay::new();
    o.hint = "WASD move  mouse look  Space jump  F fire  R reset  Esc quit".into();
    o.status = "dev".into();
    let mut c = Canvas::new(1, 1, desktop::palette::PANEL);
    desktop::compose(&v, &o, 6, &mut c);
    c.save_png(std::path::Path::new("/tmp/sample.png")).unwrap();
    desktop::render_lcd(&v).save_pbm(std::path::Path::new("/tmp/sample.pbm")).unwrap();
}
