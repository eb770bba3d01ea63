//! The workload `scripts/qemu-profile.sh` profiles: the part of a handheld frame chosen at build
//! time by `HOPKIT_PROFILE` (`tick`: [`DemoRig::tick`] on the scripted input, the default;
//! `frame`: whole [`App::poll`]s, tick + view + draw; `step`: one character's `movement::step_wish`;
//! `solid`: the level of solids' frames, [`DemoRig::tick`] + view + draw on the RP2040's scripted
//! run, `hopkit_firmware::solid_run`, built with the feature `solids`),
//! run [`RUNS`] times with nothing else in the image worth counting. QEMU's exec trace of it gives
//! instructions per function (docs/firmware.md, "Where the instructions go").
#![no_std]
#![no_main]

hopkit_firmware::qemu_image!();

use core::hint::black_box;
use cortex_m_rt::entry;
use hopkit::ground::FlatGround;
use hopkit::math::{Vec2, Vec3};
use hopkit::movement::{step_wish, MoveParams, MoverState, WishDir};
use hopkit_demo::app::App;
use hopkit_demo::counting::PixelCounter;
use hopkit_demo::seams::{Scripted, StepClock};
use hopkit_demo::{scripted_raw, DemoRig};
use hopkit_firmware::rt::qemu::exit;

/// Ticks, frames or steps profiled.
const RUNS: u32 = 600;
/// What to run (see the crate doc).
const WHAT: &str = match option_env!("HOPKIT_PROFILE") {
    Some(w) => w,
    None => "tick",
};

#[entry]
fn main() -> ! {
    match WHAT.as_bytes() {
        #[cfg(feature = "solids")]
        b"solid" => {
            use hopkit_demo::solid_level::{build, SolidWorld};
            use hopkit_firmware::solid_run;
            let Some(world) = cortex_m::singleton!(: SolidWorld = SolidWorld::new()) else {
                exit(false)
            };
            build(world);
            let mut rig = DemoRig::new().with_solids(world);
            let mut fb = hopkit_demo::framebuffer::FrameBuffer::new();
            for t in 0..solid_run::TICKS {
                rig.tick(black_box(&hopkit_demo::gamepad::gamepad_raw(
                    solid_run::pad(t),
                )));
                let Ok(()) = hopkit_demo::render::draw_frame(&rig.view(), &mut fb);
            }
            black_box(fb.buffer());
        }
        b"frame" => {
            let mut app = App::new(
                Scripted,
                Scripted,
                PixelCounter::new(),
                StepClock::per_tick(),
            );
            for _ in 0..RUNS {
                let Ok(_) = black_box(app.poll());
            }
        }
        b"step" => {
            let params = black_box(MoveParams::seed());
            let wish = WishDir::from_world(Vec2::new(0.6, -0.8));
            let mut mover = MoverState::new(Vec3::ZERO);
            let ground = FlatGround::new(0.0);
            for i in 0..RUNS {
                step_wish(
                    &mut mover,
                    &params,
                    black_box(wish),
                    i & 127 == 0,
                    &ground,
                    1.0 / 60.0,
                );
            }
            black_box(mover);
        }
        _ => {
            let mut rig = DemoRig::new();
            for t in 0..RUNS {
                rig.tick(black_box(&scripted_raw(t)));
            }
            black_box(rig.state_hash());
        }
    }
    exit(true)
}
