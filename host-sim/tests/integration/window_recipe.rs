//! The guide's recipe, played through the window's own input path: synthetic key states (what
//! `minifb` delivers) → `Controls::frame` → `Session::frame` → the demo's fixed ticks. From a
//! standstill it must reach 1.5× the ground max within 20 s of simulated ticks.

use hopkit_sim::input::DeviceState;
use hopkit_sim::readout::Readout;
use hopkit_sim::rig::LiveDemo;
use hopkit_sim::window::{demo_guide, recipe_keys, Driver, Session, WindowOpts};
use minifb::Key;

const FRAME_NS: u64 = 1_000_000_000 / 60;

/// Wall-clock length of frame `k` at exactly 60 frames per second (whole nanoseconds that add up).
fn frame_ns(k: u64) -> u64 {
    (k + 1) * 1_000_000_000 / 60 - k * 1_000_000_000 / 60
}

fn opts() -> WindowOpts {
    WindowOpts {
        zoom: 6,
        fps: 60,
        speed: 1.0,
        interactive: true,
        guide: demo_guide(),
        ..WindowOpts::default()
    }
}

fn ground_max(d: &LiveDemo) -> f32 {
    match d.readout() {
        Readout::Player(p) => p.ground_max,
        other => panic!("{other:?}"),
    }
}

#[test]
fn the_on_screen_recipe_reaches_one_and_a_half_ground_max_within_20_s() {
    // The recipe the guide shows is the one played here.
    let guide = demo_guide().join("\n");
    assert!(guide.contains("Hold W + D + E"), "{guide}");
    assert!(guide.contains("also hold Space"), "{guide}");
    assert_eq!(recipe_keys(0.0), &[Key::W, Key::D, Key::E]);
    assert_eq!(recipe_keys(1.0), &[Key::W, Key::D, Key::E, Key::Space]);

    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &opts());
    assert!(session.guide_shown());
    let gmax = ground_max(&driver);
    let mut reached = None;
    let mut per_second = vec![];
    // 60 frames per second, one tick per frame; the mouse stays put.
    for frame in 0..20 * 60u32 {
        let keys = recipe_keys(f64::from(frame) / 60.0);
        let dev = DeviceState::keys(keys, Some((300.0, 200.0)));
        assert!(session.frame(&mut driver, &dev, None, None, frame_ns(u64::from(frame))));
        let speed = driver.readout().speed();
        if reached.is_none() && speed >= 1.5 * gmax {
            reached = Some(driver.view().tick);
        }
        if (frame + 1) % 60 == 0 {
            per_second.push(speed);
        }
    }
    // The first key closed the guide; nothing paused the simulation.
    assert!(!session.guide_shown() && !session.paused());
    assert_eq!(driver.view().tick, 1200, "one tick per 1/60 s frame");
    let table: Vec<String> = per_second
        .iter()
        .enumerate()
        .map(|(s, v)| format!("{}s {:.2} (x{:.2})", s + 1, v, v / gmax))
        .collect();
    eprintln!("speed after each second: {}", table.join(", "));
    let tick = reached.unwrap_or_else(|| panic!("never reached 1.5x: {}", table.join(", ")));
    eprintln!(
        "1.5x ground max ({}) at tick {tick} ({:.2} s)",
        1.5 * gmax,
        f64::from(tick) / 60.0
    );
    assert!(tick <= 1200);
    let summary = session.summary(&driver);
    assert!(summary.top_speed >= 1.5 * gmax);
    let line = summary.to_string();
    assert!(
        line.starts_with("hopkit-sim: played 20.0 s, top speed "),
        "{line}"
    );
    assert!(line.contains("ground max), state-hash 0x"), "{line}");
    // The strafe HUD had a wish and an angle to show while hopping.
    let st = driver.strafe().expect("the demo has a strafe readout");
    assert!(
        st.angle_deg.is_some() && st.gain_window_deg.is_some(),
        "{st:?}"
    );
}

#[test]
fn keys_turn_continuously_while_the_mouse_cannot() {
    // Holding E turns the view every tick for as long as it is held; the pointer standing still
    // at the screen edge adds nothing.
    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &opts());
    let mut headings = vec![];
    for _ in 0..600 {
        let dev = DeviceState::keys(&[Key::E], Some((4000.0, 10.0)));
        session.frame(&mut driver, &dev, None, None, FRAME_NS);
        headings.push(driver.rig().scene.player.yaw);
    }
    // Full look rate, 3 rad/s, turning right (negative yaw), the whole 10 s.
    let turned: f32 = headings
        .windows(2)
        .map(|w| hopkit::math::wrap_angle(w[1] - w[0]))
        .sum();
    assert!((turned + 30.0).abs() < 0.6, "{turned}");
}

#[test]
fn pause_help_reset_and_quit_are_edges() {
    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &opts());
    let run = |s: &mut Session, d: &mut LiveDemo, keys: &[Key]| {
        s.frame(d, &DeviceState::keys(keys, None), None, None, FRAME_NS)
    };
    run(&mut session, &mut driver, &[Key::W]);
    assert!(!session.guide_shown(), "any key closes the guide");
    run(&mut session, &mut driver, &[Key::P]);
    assert!(session.paused());
    let t = driver.view().tick;
    run(&mut session, &mut driver, &[Key::P]);
    run(&mut session, &mut driver, &[Key::W]);
    assert_eq!(
        driver.view().tick,
        t,
        "paused: no ticks, held P does not toggle again"
    );
    run(&mut session, &mut driver, &[Key::P]);
    assert!(!session.paused());
    run(&mut session, &mut driver, &[Key::H]);
    assert!(session.guide_shown());
    run(&mut session, &mut driver, &[]);
    run(&mut session, &mut driver, &[Key::R]);
    assert!(driver.view().tick <= 1, "R starts over");
    assert!(!run(&mut session, &mut driver, &[Key::Escape]));
}

#[test]
fn the_guide_closes_by_itself() {
    let mut driver = LiveDemo::new();
    let mut session = Session::new(&driver, &opts());
    let secs = hopkit_sim::window::GUIDE_SECONDS;
    for _ in 0..((secs - 1.0) * 60.0) as u32 {
        session.frame(
            &mut driver,
            &DeviceState::keys(&[], None),
            None,
            None,
            FRAME_NS,
        );
    }
    assert!(session.guide_shown());
    for _ in 0..120 {
        session.frame(
            &mut driver,
            &DeviceState::keys(&[], None),
            None,
            None,
            FRAME_NS,
        );
    }
    assert!(!session.guide_shown());
}
