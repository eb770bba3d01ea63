//! Whole frames: the fixed-point renderer against the plain `f32` one (`reference.rs`) over the
//! scripted demo, random views and the level's features; the viewport.

use super::*;

#[test]
fn viewport_centres_camera_and_rejects_nan() {
    let view = DemoView {
        arena_half_extent: Vec2::new(40.0, 20.0),
        camera: Vec2::new(5.0, -3.0),
        ..DemoView::default()
    };
    let vp = Viewport::for_view(&view);
    assert_eq!(
        vp.pixels_per_unit,
        FIELD_HEIGHT as f32 / (40.0 * VIEW_DEPTH_FRACTION)
    );
    assert_eq!(
        vp.to_point(view.camera),
        Some(Point::new(WIDTH / 2, HUD_HEIGHT + FIELD_HEIGHT / 2))
    );
    // −Z is up.
    let up = vp.to_point(Vec2::new(5.0, -4.0)).unwrap();
    assert!(up.y < HUD_HEIGHT + FIELD_HEIGHT / 2);
    assert_eq!(vp.to_point(Vec2::new(f32::NAN, 0.0)), None);
    let far = vp.to_point(Vec2::new(1.0e30, -1.0e30)).unwrap();
    assert_eq!(far, Point::new(WIDTH + CLIP_MARGIN, -CLIP_MARGIN));
}

use crate::counting::PixelCounter;
use crate::framebuffer::FrameBuffer;
use crate::view::{BodyView, CritterView, GhostView};
use hopkit::math::Vec3;

/// Draw `view` with this renderer and the `f32` reference; the pictures must be identical.
/// Returns whether the pixel sequences (drawing order included) were identical too.
fn same_as_reference(view: &DemoView, what: &str) -> bool {
    let (mut ours, mut theirs) = (FrameBuffer::new(), FrameBuffer::new());
    draw_frame(view, &mut ours).unwrap();
    reference::draw_frame(view, &mut theirs).unwrap();
    if ours != theirs {
        let mut diff = std::string::String::new();
        for y in 0..HEIGHT {
            for x in 0..WIDTH {
                diff.push(match (ours.get(x, y), theirs.get(x, y)) {
                    (true, true) => '#',
                    (true, false) => '+',
                    (false, true) => '-',
                    (false, false) => '.',
                });
            }
            diff.push('\n');
        }
        panic!("{what}: picture differs from the reference (+ extra, - missing)\n{diff}\n{view:?}");
    }
    let (mut a, mut b) = (PixelCounter::new(), PixelCounter::new());
    draw_frame(view, &mut a).unwrap();
    reference::draw_frame(view, &mut b).unwrap();
    a == b
}

#[test]
fn scripted_demo_frames_match_the_f32_reference() {
    let mut rig = crate::DemoRig::new();
    let mut same_order = 0;
    for t in 0..3600 {
        rig.tick(&crate::scripted_raw(t));
        same_order += usize::from(same_as_reference(&rig.view(), &format!("tick {t}")));
    }
    // Same pixels in the same order: the PixelCounter fingerprints are unchanged too.
    assert_eq!(same_order, 3600);
}

#[test]
fn random_views_match_the_f32_reference() {
    let mut seed = 0x1234_5678u32;
    let mut next = move || {
        seed ^= seed << 13;
        seed ^= seed >> 17;
        seed ^= seed << 5;
        seed
    };
    let unit = move |n: &mut dyn FnMut() -> u32| (n() >> 8) as f32 / (1 << 24) as f32;
    for i in 0..20_000 {
        let mut r = |lo: f32, hi: f32| lo + (hi - lo) * unit(&mut next);
        // Mostly the demo's scale, sometimes other arena sizes (other scales), far bodies,
        // odd headings and non-finite values.
        let half = if i % 5 == 0 {
            Vec2::new(r(1.0, 300.0), r(0.5, 300.0))
        } else {
            Vec2::new(48.0, 48.0)
        };
        // Sometimes far out (beyond the Q16 range: every point on the f32 path).
        let far = if i % 11 == 0 { 1000.0 } else { 1.0 };
        let cam = Vec2::new(r(-60.0, 60.0) * far, r(-60.0, 60.0) * far);
        let near = |r: &mut dyn FnMut(f32, f32) -> f32| {
            Vec3::new(cam.x + r(-60.0, 60.0), r(0.0, 10.0), cam.y + r(-40.0, 40.0))
        };
        let heading = |r: &mut dyn FnMut(f32, f32) -> f32| {
            let a = r(-4.0, 4.0);
            match (r(0.0, 1.0) * 20.0) as u32 {
                0 => Vec2::ZERO,
                1 => Vec2::new(r(-2.0, 2.0), r(-2.0, 2.0)),
                _ => Vec2::new(-a.sin(), -a.cos()),
            }
        };
        let body = |r: &mut dyn FnMut(f32, f32) -> f32| BodyView {
            position: near(r),
            heading: heading(r),
            speed: r(0.0, 30.0),
        };
        let mut view = DemoView {
            tick: i,
            arena_half_extent: half,
            camera: cam,
            player: body(&mut r),
            player_grounded: r(0.0, 1.0) < 0.5,
            player_tilt_deg: match (r(0.0, 1.0) * 10.0) as u32 {
                0 => 0.0,
                1 => f32::NAN,
                _ => r(-90.0, 90.0),
            },
            ground_max_speed: r(0.0, 400.0),
            companion: body(&mut r),
            companion_head_yaw: match (r(0.0, 1.0) * 30.0) as u32 {
                0 => f32::INFINITY,
                1 => r(-1.0e4, 1.0e4),
                _ => r(-7.0, 7.0),
            },
            ..DemoView::default()
        };
        view.player.position = Vec3::new(cam.x + r(-3.0, 3.0), 0.0, cam.y + r(-3.0, 3.0));
        for _ in 0..16 {
            let c = near(&mut r);
            let _ = view.crumbs.push(Vec2::new(c.x, c.z));
        }
        for _ in 0..4 {
            let c = near(&mut r);
            let _ = view.critters.push(CritterView {
                body: body(&mut r),
                target: Vec2::new(c.x, c.z),
                arrived: r(0.0, 1.0) < 0.3,
            });
            let mut g = GhostView {
                body: body(&mut r),
                firing: r(0.0, 1.0) < 0.5,
            };
            if r(0.0, 1.0) < 0.1 {
                g.body.position.x = r(-1.0e6, 1.0e6);
            }
            let _ = view.ghosts.push(g);
        }
        view.ramps = crate::level::ramp_views();
        #[cfg(feature = "level-features")]
        {
            view.features = Some(crate::level::feature_view(i));
        }
        same_as_reference(&view, &format!("random view {i}"));
    }
}

/// The camera on each of the level's features (and between them), at every turntable angle
/// of a turn: both renderers draw them with the same pixels, and each one lights pixels.
#[test]
#[cfg(feature = "level-features")]
fn level_features_are_drawn_and_match_the_f32_reference() {
    use crate::level::{LADDER, POOL, TOWER, TURNTABLE_CENTER};
    let centre = |z: crate::level::Zone| (z.min + z.max) * 0.5;
    for (k, cam) in [
        centre(POOL),
        centre(TOWER),
        centre(LADDER),
        TURNTABLE_CENTER,
        TURNTABLE_CENTER + Vec2::new(3.3, -1.7),
    ]
    .into_iter()
    .enumerate()
    {
        let base = DemoView {
            arena_half_extent: Vec2::new(48.0, 48.0),
            camera: cam,
            ..DemoView::default()
        };
        let mut plain = FrameBuffer::new();
        draw_frame(&base, &mut plain).unwrap();
        for tick in (0..480).step_by(7) {
            let view = DemoView {
                tick,
                features: Some(crate::level::feature_view(tick)),
                ..base.clone()
            };
            same_as_reference(&view, &format!("feature {k} tick {tick}"));
            let mut drawn = FrameBuffer::new();
            draw_frame(&view, &mut drawn).unwrap();
            assert!(drawn != plain, "feature {k}: nothing drawn");
        }
    }
}

#[test]
fn rotate_left_turns_forward_to_left() {
    // Forward at yaw 0 is −Z = (0, −1); a quarter turn left faces −X = (−1, 0).
    let v = rotate(Vec2::new(0.0, -1.0), core::f32::consts::FRAC_PI_2);
    assert!((v.x + 1.0).abs() < 1e-6 && v.y.abs() < 1e-6, "{v:?}");
}
