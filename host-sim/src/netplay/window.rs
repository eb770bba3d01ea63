//! `hopkit-sim netplay --window`: one peer of the rollback session in its own window, played with
//! the keyboard (or a gamepad), the other players drawn in colour on the handheld's picture.
//!
//! The window reuses the desktop pieces as they are: [`crate::input::Controls`] maps the keys
//! (and [`crate::gamepad::Gamepads`] the pad) to a [`HostInput`]; [`host_to_arena`] turns it into
//! the player's arena input (a packed ghost frame, as everywhere in netplay); the GGRS peer is the
//! headless one ([`Net`]), stepped once per fixed tick ([`FixedStep`]); the picture is
//! [`crate::desktop::compose`] of the local player's [`arena_view`], with the other players' sprites
//! (drawn by the firmware renderer itself, [`player_sprite`]) and name tags on top, and the panel's
//! status line showing seat, ping, rollbacks and how many frames the picture is predicted ahead of
//! the confirmed inputs.
//!
//! Screens: *waiting* (the seat handshake, until the other peer answers), *refused* (the seats
//! cannot be agreed: both say why), *playing*, *the other player left* (its `bye`, or GGRS's
//! disconnect: the picture freezes) and *session over* (`--frames` frames confirmed; the window
//! closes after the linger time). There is no pause and no reset: the session runs on both
//! machines at once.

use std::time::{Duration, Instant};

use embedded_graphics::mono_font::ascii::{FONT_10X20, FONT_6X10};
use embedded_graphics::mono_font::MonoTextStyle;
use embedded_graphics::pixelcolor::Rgb888;
use embedded_graphics::prelude::*;
use embedded_graphics::text::{Baseline, Text};
use hopkit::math::Vec3;
use hopkit::timestep::FixedStep;
use hopkit_demo::arena::{make_input, ArenaInput, ArenaWorld, MAX_PLAYERS};
use hopkit_demo::render::{Viewport, HUD_HEIGHT};
use hopkit_demo::view::{BodyView, DemoView};
use hopkit_demo::DemoParams;
use minifb::{MouseButton, MouseMode, Window, WindowOptions};

use super::run::{start_agreement, Net, NetOpts, PeerError, PeerReport};
use super::seats::{Seats, Step};
use crate::canvas::Canvas;
use crate::desktop::{compose, fit, palette, picture_size, render_lcd, Overlay};
use crate::gamepad::{Gamepads, PadState};
use crate::input::{Controls, DeviceState, HostInput, MOUSE_FULL_DEFLECTION_PX};
use crate::lcd::{H, W};
use crate::readout::Readout;
use crate::window::display_available;

/// Zoom of the netplay window (two windows side by side fit a 1366-pixel-wide screen).
pub const ZOOM: usize = 5;
/// Colour of the other players' sprites and tags.
pub const OTHERS: Rgb888 = Rgb888::new(255, 110, 210);
/// How long the "seats refused" screen stays up (unless a key closes it first).
pub const REFUSED_SECONDS: u64 = 10;

/// The controls line of the panel (the line above it shows the rollback counters).
pub const HINT: &str = "WASD move  Q/E turn  Space hop  F fire  Esc leave";

/// Options of a windowed peer.
#[derive(Clone, Debug)]
pub struct WindowPeerOpts {
    /// UDP port to bind.
    pub local_port: u16,
    /// The remote peers, in `--remote` order.
    pub remotes: Vec<std::net::SocketAddr>,
    /// The seat claimed with `--player`, if any.
    pub claim: Option<u8>,
    /// The GGRS settings.
    pub net: NetOpts,
    /// Frames to play before the session ends by itself.
    pub frames: u32,
    /// Give up waiting for the other peers after this long (`None`: wait until Esc).
    pub wait: Option<Duration>,
    /// After `frames` are confirmed, keep the session (and the window) up this long.
    pub linger: Duration,
}

/// How a windowed session ended.
#[derive(Clone, Copy, Debug, PartialEq, Eq)]
pub enum End {
    /// `--frames` frames were played and confirmed.
    Done,
    /// This player closed the window (or pressed Esc).
    Closed,
    /// The other player left (its `bye`, or GGRS's disconnect).
    RemoteLeft,
}

/// Desktop input → the arena input of one tick: W/S (or the left stick's y) forward/back, A/D
/// (or the left stick's x past half-way) strafe, Q/E, ←/→, the mouse (or the right stick's x)
/// turn, Space (or the pad's south button) hop, F (or the pad's fire) fire.
pub fn host_to_arena(i: &HostInput) -> ArenaInput {
    let k = i.keys;
    let axis = |pos: bool, neg: bool| f32::from(u8::from(pos)) - f32::from(u8::from(neg));
    let mut forward = axis(k.forward, k.back);
    let mut turn = axis(k.turn_left, k.turn_right);
    if i.mouse_dx.is_finite() {
        turn -= i.mouse_dx / MOUSE_FULL_DEFLECTION_PX;
    }
    let mut strafe = axis(k.right, k.left);
    if let Some(p) = i.pad {
        forward += hopkit::math::finite_or(p.left_y, 0.0);
        turn -= hopkit::math::finite_or(p.right_x, 0.0);
        strafe += hopkit::math::finite_or(p.left_x, 0.0);
    }
    let steps = |v: f32| (v.clamp(-1.0, 1.0) * 31.0).round() as i8;
    let side = if strafe > 0.5 {
        1
    } else if strafe < -0.5 {
        -1
    } else {
        0
    };
    make_input(steps(forward), steps(turn), side, i.jump, i.fire)
}

/// What player `seat` sees of the arena, and a player's body as drawn: shared with the handheld's
/// link cable ([`hopkit_demo::link::view`]).
pub use hopkit_demo::link::view::{arena_view, body};

/// The display pixels (128×64 coordinates) of a player sprite for `who` on `view`'s picture,
/// drawn by the firmware renderer itself: the difference between a frame with `who` as the
/// player and one with the player out of sight, near `who`, below the HUD.
pub fn player_sprite(view: &DemoView, who: BodyView, grounded: bool) -> Vec<(usize, usize)> {
    let vp = Viewport::for_view(view);
    let Some((cx, cy)) = vp.to_display(who.position.planar()) else {
        return Vec::new();
    };
    let with = DemoView {
        tick: view.tick,
        arena_half_extent: view.arena_half_extent,
        camera: view.camera,
        player: who,
        player_grounded: grounded,
        ground_max_speed: view.ground_max_speed,
        ..DemoView::default()
    };
    let mut without = with.clone();
    without.player.position = Vec3::new(view.camera.x + 1.0e4, 0.0, view.camera.y + 1.0e4);
    let (a, b) = (render_lcd(&with), render_lcd(&without));
    let (cx, cy) = (cx.round() as i64, cy.round() as i64);
    let mut out = Vec::new();
    for y in (cy - 14).max(i64::from(HUD_HEIGHT))..=(cy + 14).min(H as i64 - 1) {
        for x in (cx - 14).max(0)..=(cx + 14).min(W as i64 - 1) {
            if a.get(x as i32, y as i32) && !b.get(x as i32, y as i32) {
                out.push((x as usize, y as usize));
            }
        }
    }
    out
}

fn text(canvas: &mut Canvas, s: &str, x: i64, y: i64, style: MonoTextStyle<'_, Rgb888>) {
    let _ =
        Text::with_baseline(s, Point::new(x as i32, y as i32), style, Baseline::Top).draw(canvas);
}

/// The other players in [`OTHERS`]' colour, with a `P<n>` tag each.
pub fn draw_others(world: &ArenaWorld, view: &DemoView, seat: usize, canvas: &mut Canvas) {
    let z = ZOOM as i64;
    let vp = Viewport::for_view(view);
    for (i, p) in world.player.iter().enumerate().take(world.player_count()) {
        if i == seat {
            continue;
        }
        for (x, y) in player_sprite(view, body(p), p.mover.grounded) {
            canvas.fill_rect(x as i64 * z, y as i64 * z, z - 1, z - 1, OTHERS);
        }
        if let Some((x, y)) = vp.to_display(p.mover.position.planar()) {
            let (tx, ty) = (
                (x * ZOOM as f32) as i64 + 4 * z,
                (y * ZOOM as f32) as i64 - 4 * z,
            );
            let field_top = i64::from(HUD_HEIGHT) * z;
            if tx >= 0
                && tx + 20 < (W * ZOOM) as i64
                && ty >= field_top
                && ty + 12 < (H * ZOOM) as i64
            {
                canvas.fill_rect(tx, ty, 16, 12, palette::LCD_OFF);
                text(
                    canvas,
                    &format!("P{}", i + 1),
                    tx + 2,
                    ty + 1,
                    MonoTextStyle::new(&FONT_6X10, OTHERS),
                );
            }
        }
    }
}

/// A framed box in the middle of the picture: a title and lines (each cut to fit).
pub fn banner(canvas: &mut Canvas, title: &str, lines: &[String], color: Rgb888) {
    let (w, h) = ((W * ZOOM) as i64, (H * ZOOM) as i64);
    let bw = w - 40;
    let bh = (36 + 12 * lines.len() as i64 + 12).min(h - 8);
    let (x, y) = ((w - bw) / 2, (h - bh) / 2);
    canvas.fill_rect(x, y, bw, bh, color);
    canvas.fill_rect(x + 3, y + 3, bw - 6, bh - 6, palette::PANEL);
    let max = ((bw - 24) / 6).max(1) as usize;
    text(
        canvas,
        &fit(title, ((bw - 24) / 10).max(1) as usize),
        x + 12,
        y + 8,
        MonoTextStyle::new(&FONT_10X20, color),
    );
    for (i, l) in lines.iter().enumerate() {
        text(
            canvas,
            &fit(l, max),
            x + 12,
            y + 34 + 12 * i as i64,
            MonoTextStyle::new(&FONT_6X10, palette::TEXT),
        );
    }
}

/// `s` broken into lines of at most `width` characters at spaces.
pub fn wrap(s: &str, width: usize) -> Vec<String> {
    let mut out = vec![String::new()];
    for word in s.split_whitespace() {
        let last = out.last_mut().expect("never empty");
        if !last.is_empty() && last.chars().count() + 1 + word.chars().count() > width {
            out.push(word.to_string());
        } else {
            if !last.is_empty() {
                last.push(' ');
            }
            last.push_str(word);
        }
    }
    out
}

/// What the window delivers this frame (as the desktop window reads it). Keys held while the
/// window has no focus are dropped: a peer that lost the focus does not keep running.
fn read_devices(window: &Window) -> DeviceState {
    let active = window.is_active();
    DeviceState {
        keys: if active {
            window.get_keys()
        } else {
            Vec::new()
        },
        mouse: window.get_mouse_pos(MouseMode::Pass),
        mouse_left: active && window.get_mouse_down(MouseButton::Left),
        mouse_right: active && window.get_mouse_down(MouseButton::Right),
        active,
    }
}

/// The panel's status line: seat, ping, frames ahead (the picture's frame past the last frame
/// whose inputs are all confirmed: what a rollback may still correct).
fn status_line(net: &Net) -> String {
    let players = net.seats.table.len();
    let ping = net
        .ping_ms()
        .map_or_else(|| "ping ...".to_string(), |p| format!("ping {p} ms"));
    let ahead = i64::from(net.frame()) - i64::from(net.confirmed().max(-1)) - 1;
    format!(
        "P{} of {players}  {ping}  {} frames ahead",
        net.local() + 1,
        ahead.max(0)
    )
}

/// The panel's netplay line: rollbacks, stalls, skipped frames, desyncs.
fn net_line(net: &Net) -> String {
    format!(
        "rollbacks {} (deepest {})  stalls {}  skipped {}  desyncs {}",
        net.game.stats.rollbacks,
        net.game.stats.deepest,
        net.stalls,
        net.skipped,
        net.desyncs.len()
    )
}

/// Play one peer in a window until the session ends (see the module docs). Returns the report of
/// the frames played (the confirmed ones: `--frames` when [`End::Done`], fewer otherwise) and how
/// it ended.
pub fn play(opts: &WindowPeerOpts) -> Result<(PeerReport, End), PeerError> {
    display_available().map_err(|why| {
        PeerError::Refused(format!(
            "--window needs a display: {why} (or use --headless)"
        ))
    })?;
    let (w, h) = picture_size(ZOOM);
    let remotes: Vec<String> = opts.remotes.iter().map(|a| a.to_string()).collect();
    let title = format!(
        "hopkit-sim netplay: port {} <-> {}",
        opts.local_port,
        remotes.join(", ")
    );
    let mut window = Window::new(&title, w, h, WindowOptions::default())
        .map_err(|e| PeerError::Failed(format!("cannot open a window: {e}")))?;
    window.set_target_fps(60);
    let mut canvas = Canvas::new(w, h, palette::PANEL);
    let mut controls = Controls::new();
    let mut pads = Gamepads::open();
    let params = DemoParams::default();
    let players = opts.remotes.len() + 1;
    let update = |window: &mut Window, canvas: &Canvas| {
        window
            .update_with_buffer(&canvas.pixels, w, h)
            .map_err(|e| PeerError::Failed(format!("the window broke down: {e}")))
    };

    // Waiting: the seat handshake.
    let mut agreement = start_agreement(opts.local_port, &opts.remotes, opts.claim)?;
    let started = Instant::now();
    let mut overlay = Overlay::new();
    overlay.hint = HINT.into();
    let seats: Seats = loop {
        let dev = read_devices(&window);
        let c = controls.frame(&dev, true);
        if !window.is_open() || c.quit {
            return Err(PeerError::Failed(
                "the window was closed before the other player joined".into(),
            ));
        }
        let step = agreement.poll();
        let fresh = ArenaWorld::new(players);
        let view = arena_view(&fresh, &params, 0);
        overlay.status = format!("waiting for {}", remotes.join(", "));
        compose(
            &view,
            &Readout::from_player_view(&view),
            &overlay,
            ZOOM,
            &mut canvas,
        );
        match step {
            Step::Done(s) => break s,
            Step::Pending => {
                let mut lines = vec![
                    format!("this peer listens on UDP port {}", opts.local_port),
                    format!("and calls {}", remotes.join(", ")),
                    String::new(),
                    "start the other player's window with the ports".into(),
                    "the other way round (see docs/netplay.md)".into(),
                    String::new(),
                    "Esc: quit".into(),
                ];
                if let Some(c) = opts.claim {
                    lines.insert(2, format!("claiming player {c} (--player {c})"));
                }
                banner(
                    &mut canvas,
                    "WAITING FOR THE OTHER PLAYER",
                    &lines,
                    palette::BANNER,
                );
            }
            Step::Refused(why) => {
                let until = Instant::now() + Duration::from_secs(REFUSED_SECONDS);
                let mut lines = wrap(&why, 88);
                lines.push(String::new());
                lines.push("any key: quit".into());
                banner(&mut canvas, "SEATS REFUSED", &lines, palette::LOSS);
                while window.is_open() && Instant::now() < until {
                    let c = controls.frame(&read_devices(&window), true);
                    if c.any_key || c.quit {
                        break;
                    }
                    update(&mut window, &canvas)?;
                }
                return Err(PeerError::Refused(format!("seats refused: {why}")));
            }
        }
        if let Some(limit) = opts.wait {
            if started.elapsed() > limit {
                return Err(PeerError::Failed(format!(
                    "gave up after {} s agreeing on the seats: {}",
                    limit.as_secs(),
                    agreement.silent()
                )));
            }
        }
        update(&mut window, &canvas)?;
    };

    // Playing.
    let mut net = Net::start(agreement, seats, &opts.net)?;
    let seat = net.local();
    let hz = opts.net.fps.max(1);
    let mut stepper = FixedStep::new(hz);
    let mut last = Instant::now();
    let mut end: Option<(End, Instant)> = None;
    let mut overlay = Overlay::new();
    overlay.tick_hz = hz;
    overlay.hint = HINT.into();
    loop {
        let dev = read_devices(&window);
        let c = controls.frame(&dev, true);
        if !window.is_open() || c.quit {
            if end.is_none_or(|(e, _)| e == End::Done) {
                net.say_bye();
            }
            if end.is_none() {
                end = Some((End::Closed, Instant::now()));
            }
            break;
        }
        let mut input = c.input;
        let mut pad_name = None;
        if let Some(PadState {
            axes,
            buttons,
            name,
        }) = pads.poll()
        {
            input.pad = Some(axes);
            input.jump |= buttons.jump;
            input.fire |= buttons.fire;
            pad_name = Some(name);
        }
        let now = Instant::now();
        let frame_ns = now
            .duration_since(last)
            .as_nanos()
            .min(u128::from(u64::MAX)) as u64;
        last = now;
        let adv = stepper.advance_nanos(frame_ns);
        net.poll();
        if net.remote_gone && end.is_none() {
            end = Some((End::RemoteLeft, Instant::now()));
        }
        if !matches!(end, Some((End::RemoteLeft, _))) {
            let n = adv.ticks.max(1) as f32;
            let mut tick_input = input;
            tick_input.mouse_dx = input.mouse_dx / n;
            let arena = host_to_arena(&tick_input);
            for _ in 0..adv.ticks {
                net.poll();
                let before = net.game.world.tick;
                net.tick(arena).map_err(PeerError::Failed)?;
                if net.game.world.tick != before {
                    let v = arena_view(&net.game.world, &params, seat);
                    overlay.record(&v, &Readout::from_player_view(&v));
                }
            }
            if end.is_none()
                && net.game.world.tick >= opts.frames
                && net.confirmed() >= opts.frames as i32
            {
                end = Some((End::Done, Instant::now()));
            }
        }
        if let Some((End::Done, at)) = end {
            if at.elapsed() >= opts.linger {
                break;
            }
        }
        let view = arena_view(&net.game.world, &params, seat);
        overlay.status = match &pad_name {
            Some(name) => format!("{}  pad: {name}", status_line(&net)),
            None => status_line(&net),
        };
        overlay.hint = format!("{}\n{HINT}", net_line(&net));
        compose(
            &view,
            &Readout::from_player_view(&view),
            &overlay,
            ZOOM,
            &mut canvas,
        );
        draw_others(&net.game.world, &view, seat, &mut canvas);
        let confirmed = confirmed_frames(&net, opts.frames);
        let hash = net.game.hash_at(confirmed).unwrap_or(0);
        match end {
            Some((End::RemoteLeft, _)) => {
                let who = if net.remote_said_bye {
                    "the other player closed the window"
                } else {
                    "the other player stopped answering (link lost)"
                };
                banner(
                    &mut canvas,
                    "THE OTHER PLAYER LEFT",
                    &[
                        who.into(),
                        format!("session over at frame {confirmed}: state-hash 0x{hash:016x}"),
                        String::new(),
                        "Esc: quit".into(),
                    ],
                    palette::LOSS,
                );
            }
            Some((End::Done, _)) => banner(
                &mut canvas,
                "SESSION OVER",
                &[
                    format!("{} frames played: state-hash 0x{hash:016x}", opts.frames),
                    "the window closes by itself".into(),
                ],
                palette::GAIN,
            ),
            _ if !net.running() || net.interrupted => banner(
                &mut canvas,
                "CONNECTING...",
                &[
                    "waiting for the other player's packets".into(),
                    "Esc: leave".into(),
                ],
                palette::BANNER,
            ),
            _ => {}
        }
        update(&mut window, &canvas)?;
    }
    let ended = end.map_or(End::Closed, |(e, _)| e);
    let frames = confirmed_frames(&net, opts.frames);
    let hash = net
        .game
        .hash_at(frames)
        .ok_or_else(|| PeerError::Failed(format!("tick {frames} was never simulated")))?;
    let log = net.game.log[..(frames as usize).min(net.game.log.len())]
        .iter()
        .map(|all| all[..players.min(MAX_PLAYERS)].to_vec())
        .collect();
    Ok((
        PeerReport {
            frames,
            frames_advanced: net.game.world.tick,
            stats: net.game.stats,
            stalls: net.stalls,
            skipped: net.skipped,
            ping_ms: net.ping_ms(),
            lossy: net.lossy(),
            desyncs: net.desyncs.clone(),
            hash,
            log,
            seats: net.seats.clone(),
        },
        ended,
    ))
}

/// Frames whose inputs are all confirmed and simulated, at most `limit`.
fn confirmed_frames(net: &Net, limit: u32) -> u32 {
    let c = u32::try_from(net.confirmed().max(0)).unwrap_or(0);
    c.min(net.game.world.tick).min(limit)
}

#[cfg(test)]
mod tests {
    use super::*;
    use crate::input::{Keys, PadAxes};
    use hopkit::ghost::Frame;

    #[test]
    fn keys_and_pad_map_to_the_arena_table() {
        let f = |i: HostInput| Frame::unpack(host_to_arena(&i));
        let held = HostInput {
            keys: Keys {
                forward: true,
                right: true,
                turn_left: true,
                ..Keys::default()
            },
            jump: true,
            ..HostInput::default()
        };
        let fr = f(held);
        assert_eq!((fr.pitch, fr.yaw), (31, 31));
        assert!(fr.away && !fr.toward && fr.missile && !fr.fire);
        let back = f(HostInput {
            keys: Keys {
                back: true,
                left: true,
                turn_right: true,
                ..Keys::default()
            },
            fire: true,
            ..HostInput::default()
        });
        assert_eq!((back.pitch, back.yaw), (-31, -31));
        assert!(back.toward && back.fire);
        // A pad: half forward, stick left past half-way strafes left; bad numbers are 0.
        let pad = f(HostInput {
            pad: Some(PadAxes {
                left_x: -0.8,
                left_y: 0.5,
                right_x: f32::NAN,
                right_y: 0.0,
            }),
            mouse_dx: f32::INFINITY,
            ..HostInput::default()
        });
        assert_eq!((pad.pitch, pad.yaw), (16, 0));
        assert!(pad.toward);
        assert_eq!(f(HostInput::default()), Frame::NEUTRAL);
    }

    #[test]
    fn the_view_follows_the_seat_and_the_others_are_drawn() {
        let params = DemoParams::default();
        let world = ArenaWorld::new(2);
        let v0 = arena_view(&world, &params, 0);
        let v1 = arena_view(&world, &params, 1);
        assert_eq!(v0.player.position, world.player[0].mover.position);
        assert_eq!(v1.camera, world.player[1].mover.position.planar());
        assert_eq!(v0.critters.len(), world.critters.len());
        // The critters' targets are the arena's: a critter that arrived sits on its target.
        let mut w = world;
        for _ in 0..1200 {
            w.step(&params, &[[0; 3], [0; 3]]);
        }
        let v = arena_view(&w, &params, 0);
        for c in v.critters.iter().filter(|c| c.arrived) {
            assert!(
                (c.body.position.planar() - c.target).length() < 1.0,
                "{c:?}"
            );
        }
        // Player 2, seen from player 1 (12 units away): a sprite of the renderer's own pixels.
        let sprite = player_sprite(&v0, body(&world.player[1]), true);
        assert!(sprite.len() >= 4, "{sprite:?}");
        assert!(sprite.iter().all(|&(_, y)| y >= HUD_HEIGHT as usize));
        // Out of sight: nothing.
        let far = BodyView {
            position: Vec3::new(1.0e6, 0.0, 1.0e6),
            ..body(&world.player[1])
        };
        assert!(player_sprite(&v0, far, true).is_empty());
    }

    #[test]
    fn wrap_breaks_at_spaces() {
        assert_eq!(wrap("aa bb cc", 5), vec!["aa bb", "cc"]);
        assert_eq!(wrap("", 5), vec![String::new()]);
        assert_eq!(wrap("abcdefgh ij", 4), vec!["abcdefgh", "ij"]);
    }
}
