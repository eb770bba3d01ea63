//! Writes the window's picture without a display: the demo driven through the window's own
//! frame logic (`Session::frame`, the same input mapping, guide, ticks and overlays as the
//! window) with the guide's recipe, composed exactly as the window composes it.
//!
//! ```sh
//! scripts/window-screenshot.sh          # docs/window-strafe-hud.png and docs/window-guide.png
//! ```

use hopkit_sim::canvas::Canvas;
use hopkit_sim::desktop::{compose, palette, DEFAULT_ZOOM};
use hopkit_sim::input::DeviceState;
use hopkit_sim::rig::LiveDemo;
use hopkit_sim::window::{demo_guide, recipe_keys, Driver, Session, WindowOpts};

fn opts() -> WindowOpts {
    WindowOpts {
        title: "hopkit-sim: handheld demo".into(),
        zoom: DEFAULT_ZOOM,
        fps: 60,
        speed: 1.0,
        interactive: true,
        hint: "WASD move  Q/E or arrows turn  mouse look  Space hop\nF fire  H guide  R reset  P pause  Esc quit"
            .into(),
        guide: demo_guide(),
    }
}

fn save(driver: &LiveDemo, session: &Session, path: &str) -> anyhow::Result<()> {
    let mut canvas = Canvas::new(1, 1, palette::PANEL);
    compose(
        &driver.view(),
        &driver.readout(),
        &session.overlay,
        DEFAULT_ZOOM,
        &mut canvas,
    );
    canvas.save_png(std::path::Path::new(path))?;
    println!("wrote {path}");
    Ok(())
}

fn main() -> anyhow::Result<()> {
    let args: Vec<String> = std::env::args().skip(1).collect();
    let hud = args
        .first()
        .map_or("docs/window-strafe-hud.png", |s| s.as_str());
    let guide = args.get(1).map_or("docs/window-guide.png", |s| s.as_str());
    let frame_ns = 1_000_000_000 / 60;
    let status = Some("cannot list /dev/input (permission denied)");

    // First start: the guide is up over the idle scene.
    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &opts());
    for _ in 0..30 {
        session.frame(
            &mut driver,
            &DeviceState::keys(&[], None),
            None,
            status,
            frame_ns,
        );
    }
    save(&driver, &session, guide)?;

    // The recipe, 12 s after the first key (which also closed the guide).
    let seconds = 12.0;
    let frames = (seconds * 60.0) as u32;
    for f in 0..frames {
        let keys = recipe_keys(f64::from(f) / 60.0);
        session.frame(
            &mut driver,
            &DeviceState::keys(keys, None),
            None,
            status,
            frame_ns,
        );
    }
    save(&driver, &session, hud)?;
    println!("{}", session.summary(&driver));
    Ok(())
}
