//! The shared renderer (`hopkit_demo::render::draw_frame`) against committed golden images.
//!
//! Goldens are binary PBM files (128×64, packed 1 bpp) in `tests/golden/`. After an intended
//! change to the drawing, regenerate them with
//!
//! ```sh
//! UPDATE_GOLDEN=1 cargo test -p hopkit-sim --test integration render_golden
//! ```
//!
//! and look at the new files (any image viewer opens PBM) before committing. On a mismatch the
//! test writes the actual image and a coloured diff PNG next to the build's temp directory and
//! prints their paths.

use std::path::{Path, PathBuf};

use embedded_graphics::pixelcolor::Rgb888;
use hopkit::math::{Vec2, Vec3};
use hopkit_demo::framebuffer::FrameBuffer;
use hopkit_demo::render::draw_frame;
use hopkit_demo::DemoView;
use hopkit_sim::canvas::Canvas;
use hopkit_sim::desktop::sample_view;
use hopkit_sim::lcd::{self, H, W};

fn golden_dir() -> PathBuf {
    Path::new(env!("CARGO_MANIFEST_DIR")).join("tests/golden")
}

fn check_golden(name: &str, view: &DemoView) {
    let mut fb = FrameBuffer::new();
    draw_frame(view, &mut fb).unwrap();
    let path = golden_dir().join(format!("{name}.pbm"));
    if std::env::var_os("UPDATE_GOLDEN").is_some_and(|v| v == "1") {
        std::fs::create_dir_all(golden_dir()).unwrap();
        lcd::save_pbm(&fb, &path).unwrap();
        eprintln!("updated {}", path.display());
        return;
    }
    let golden = lcd::load_pbm(&path).unwrap_or_else(|e| {
        panic!("{e:#}\n(run with UPDATE_GOLDEN=1 to create it)");
    });
    let diff = fb.differing(&golden);
    if diff != 0 {
        let out = Path::new(env!("CARGO_TARGET_TMPDIR"));
        let actual = out.join(format!("{name}.actual.pbm"));
        lcd::save_pbm(&fb, &actual).unwrap();
        let mut c = Canvas::new(W * 4, H * 4, Rgb888::new(0, 0, 0));
        for y in 0..H {
            for x in 0..W {
                let color = match (fb.get(x as i32, y as i32), golden.get(x as i32, y as i32)) {
                    (true, true) => Rgb888::new(200, 200, 200),
                    (true, false) => Rgb888::new(60, 220, 60),
                    (false, true) => Rgb888::new(230, 50, 50),
                    (false, false) => Rgb888::new(0, 0, 0),
                };
                c.fill_rect(x as i64 * 4, y as i64 * 4, 4, 4, color);
            }
        }
        let diff_png = out.join(format!("{name}.diff.png"));
        c.save_png(&diff_png).unwrap();
        panic!(
            "{diff} pixels differ from {} (green = new, red = missing).\nactual: {}\ndiff: {}\n\
             actual frame:\n{fb:?}\nIf the change is intended: UPDATE_GOLDEN=1 cargo test -p \
             hopkit-sim --test integration render_golden",
            path.display(),
            actual.display(),
            diff_png.display()
        );
    }
}

#[test]
fn sample_scene_matches_golden() {
    let view = sample_view();
    check_golden("sample_scene", &view);
}

#[test]
fn grounded_player_at_arena_corner_matches_golden() {
    // Camera in a corner: the arena border, grid clipping and off-screen ghost markers.
    let mut view = sample_view();
    view.camera = Vec2::new(40.0, 40.0);
    view.player.position = Vec3::new(40.0, 0.0, 40.0);
    view.player.heading = Vec2::new(-1.0, 0.0);
    view.player_grounded = true;
    view.player_tilt_deg = 0.0;
    view.player.speed = 3.0;
    check_golden("arena_corner", &view);
}

#[test]
fn hostile_numbers_draw_without_panicking() {
    let mut view = sample_view();
    view.camera = Vec2::new(f32::NAN, f32::INFINITY);
    view.player.position = Vec3::new(1.0e30, f32::NAN, -1.0e30);
    view.player.heading = Vec2::new(f32::NAN, 0.0);
    view.player.speed = f32::INFINITY;
    view.ground_max_speed = f32::NAN;
    view.player_tilt_deg = f32::NEG_INFINITY;
    view.arena_half_extent = Vec2::new(0.0, -5.0);
    view.companion_head_yaw = f32::NAN;
    let mut fb = FrameBuffer::new();
    draw_frame(&view, &mut fb).unwrap();
    // The HUD is still drawn.
    assert!(fb.lit() > 20, "{fb:?}");
}

#[test]
fn rendering_is_deterministic_and_view_dependent() {
    let a = sample_view();
    let mut b = sample_view();
    b.player.position.x += 3.0;
    b.camera.x += 3.0;
    let (mut la, mut la2, mut lb) = (FrameBuffer::new(), FrameBuffer::new(), FrameBuffer::new());
    draw_frame(&a, &mut la).unwrap();
    draw_frame(&a, &mut la2).unwrap();
    draw_frame(&b, &mut lb).unwrap();
    assert_eq!(la, la2);
    assert_ne!(la, lb, "moving the camera scrolls the picture");
}
